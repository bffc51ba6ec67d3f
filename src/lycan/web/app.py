"""The web app: a lobby to create tables, each seat's private page, spectators, stored games.

`create_app(store_path, tts=None, asr=None, model_spec=None)` builds a FastAPI app; `lycan serve`
runs it with uvicorn. Pages are plain HTML, CSS and JavaScript shipped in `lycan/web/static`;
nothing is fetched from the internet. `/games` lists the finished games in the store and replays
any of them step by step, as everyone saw it or as one seat did, with the suspicion meter
(`lycan.web.replays`).

A public server has to stand up to strangers: each address may create only so many tables in a
while, tables at which no person takes a seat are closed after a few minutes, no person's
decision may take longer than a cap, WebSockets are only opened by pages from this server (or
from the origins allowed), and the seats' secret tokens never reach the server's logs.
"""

from __future__ import annotations

import asyncio
import logging
import math
import re
import threading
import time
from collections import deque
from collections.abc import AsyncIterator, Callable, Iterable
from contextlib import asynccontextmanager, suppress
from pathlib import Path
from typing import Annotated, Any
from urllib.parse import urlsplit

from fastapi import FastAPI, HTTPException, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles

from lycan.models.base import ChatModel
from lycan.rules import get_preset, preset_names
from lycan.web.audio import MAX_AUDIO_BYTES, SpeechRecognizer, SpeechSynthesizer, audio_problem
from lycan.web.lobby import DEFAULT_MAX_WAIT, TableError, TableFactory, TableRequest
from lycan.web.replays import StoredGames, StoredGamesMode
from lycan.web.table import DEFAULT_NIGHT_MIN, Connection, Table

log = logging.getLogger("lycan.web")

STATIC = Path(__file__).parent / "static"
MAX_TABLES = 200
"""Tables kept at once; the oldest finished ones make room for new ones."""
CREATE_LIMIT = (10, 600.0)
"""By default an address may create 10 tables in any 600 seconds."""
JOIN_TIMEOUT = 300.0
"""Seconds a table with seats for people waits for the first of them before it is closed."""
MAX_CLIENTS = 10_000
"""Addresses the creation limit remembers at once (old ones are forgotten first)."""

_TOKEN_IN_PATH = re.compile(r"(/tables/[^/\s?#\"']+/seats/)[^/\s?#\"']+")
SERVER_LOGGERS = ("uvicorn", "uvicorn.error", "uvicorn.access", "lycan.web")
"""Loggers whose records are cleaned of seat tokens (uvicorn logs every path it serves)."""


def redact(text: str) -> str:
    """`text` with the token of every seat link in it replaced by `<token>`."""
    return _TOKEN_IN_PATH.sub(r"\1<token>", text)


class RedactTokens(logging.Filter):
    """A logging filter that removes seat tokens from paths in a record's message and arguments."""

    def filter(self, record: logging.LogRecord) -> bool:
        """Clean `record` in place; never drops it."""
        if isinstance(record.msg, str):
            record.msg = redact(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(redact(a) if isinstance(a, str) else a for a in record.args)
        elif isinstance(record.args, dict):
            record.args = {k: redact(v) if isinstance(v, str) else v for k, v in record.args.items()}
        return True


def redact_server_logs(names: Iterable[str] = SERVER_LOGGERS) -> None:
    """Keep seat tokens out of the records of the loggers `names` (idempotent).

    Logger filters survive uvicorn's logging set-up, which replaces handlers but keeps filters.
    """
    for name in names:
        logger = logging.getLogger(name)
        if not any(isinstance(f, RedactTokens) for f in logger.filters):
            logger.addFilter(RedactTokens())


def _host_port(netloc: str, scheme: str) -> str:
    netloc = netloc.strip().lower()
    default = {"http": ":80", "https": ":443", "ws": ":80", "wss": ":443"}.get(scheme, "")
    return netloc[: -len(default)] if default and netloc.endswith(default) else netloc


def origin_problem(origin: str | None, host: str | None, allowed: frozenset[str]) -> str | None:
    """Why a WebSocket from a page at `origin` may not open here, or None.

    Browsers always send `Origin`; a client without one is not a page in a browser and may connect.
    A page may connect if it comes from this server (its origin names the `Host` it connected to)
    or from one of the `allowed` origins (`scheme://host[:port]`, lower case).
    """
    if origin is None:
        return None
    text = origin.strip().lower().rstrip("/")
    if text in allowed:
        return None
    parts = urlsplit(text)
    if (
        parts.scheme in ("http", "https")
        and host
        and _host_port(parts.netloc, parts.scheme) == _host_port(host, parts.scheme)
    ):
        return None
    return f"pages from {origin[:100]!r} may not open tables on this server (only its own pages and allowed origins)"


class CreationLimit:
    """At most `count` tables per client address in any `window` seconds."""

    def __init__(self, count: int, window: float) -> None:
        self.count = count
        self.window = window
        self.by_client: dict[str, deque[float]] = {}

    def wait(self, client: str, now: float) -> float:
        """Seconds `client` must wait before it may create a table (0: it may now)."""
        times = self.by_client.get(client)
        if times is None:
            return 0.0
        while times and times[0] <= now - self.window:
            times.popleft()
        if not times:
            del self.by_client[client]
            return 0.0
        if len(times) < self.count:
            return 0.0
        return times[0] + self.window - now

    def note(self, client: str, now: float) -> None:
        """`client` created a table at `now`."""
        if client not in self.by_client and len(self.by_client) >= MAX_CLIENTS:
            for old in [c for c, t in self.by_client.items() if not t or t[-1] <= now - self.window]:
                del self.by_client[old]
            if len(self.by_client) >= MAX_CLIENTS:  # forget the address that created least recently
                del self.by_client[min(self.by_client, key=lambda c: self.by_client[c][-1])]
        self.by_client.setdefault(client, deque()).append(now)


def model_loader(spec: str | None) -> Callable[[], ChatModel] | None:
    """A cached loader for the chat model `spec` names, or None if there is no spec or no loader."""
    if not spec:
        return None
    try:
        from lycan.models import load_model  # type: ignore[attr-defined, unused-ignore]
    except ImportError:
        log.warning("LLM seats are off: this installation has no lycan.models.load_model")
        return None
    lock = threading.Lock()
    cache: list[ChatModel] = []

    def load() -> ChatModel:
        with lock:
            if not cache:
                cache.append(load_model(spec))
            return cache[0]

    return load


class Tables:
    """The tables of one app, by id; `join_timeout`: see `sweep`."""

    def __init__(self, join_timeout: float = JOIN_TIMEOUT) -> None:
        self.by_id: dict[str, Table] = {}
        self.join_timeout = join_timeout

    def sweep(self, now: float | None = None) -> list[str]:
        """Close and forget the tables with seats for people that none of them took in `join_timeout` s.

        Returns the ids of the tables closed.
        """
        now = time.monotonic() if now is None else now
        closed = []
        for table_id, table in list(self.by_id.items()):
            if (
                "human" in table.kinds
                and not table.joined
                and not table.finished
                and now - table.created >= self.join_timeout
            ):
                table.close(
                    f"nobody took a seat at this table within {self.join_timeout:g} seconds, "
                    "so it was closed to make room; create a new one"
                )
                del self.by_id[table_id]
                closed.append(table_id)
                log.info("table %s: closed, nobody took a seat within %g s", table_id, self.join_timeout)
        return closed

    def add(self, table: Table) -> None:
        """Keep `table`, making room by forgetting the oldest finished tables."""
        self.sweep()
        if len(self.by_id) >= MAX_TABLES:
            for old_id in [t for t, table in self.by_id.items() if table.finished]:
                del self.by_id[old_id]
                if len(self.by_id) < MAX_TABLES:
                    break
        if len(self.by_id) >= MAX_TABLES:
            raise TableError(f"this server already runs {MAX_TABLES} tables; try again when a game has ended")
        self.by_id[table.id] = table

    def get(self, table_id: str) -> Table:
        """The table `table_id`.

        Raises:
            HTTPException: 404, no such table.
        """
        table = self.by_id.get(table_id)
        if table is None:
            raise HTTPException(404, "there is no such table on this server (it may have ended long ago)")
        return table

    async def sweep_every(self, seconds: float) -> None:
        """Sweep every `seconds` until cancelled."""
        while True:
            await asyncio.sleep(seconds)
            self.sweep()

    async def stop(self) -> None:
        """Cancel every running game."""
        tasks = [t.task for t in self.by_id.values() if t.task is not None and not t.task.done()]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with suppress(asyncio.CancelledError):
                await task


def _links(table: Table) -> dict[str, Any]:
    return {
        "table": table.id,
        "preset": table.rules.name,
        "players": [{"seat": s, "name": n, "kind": table.kinds[s]} for s, n in enumerate(table.names)],
        "seats": [
            {"seat": s, "name": table.names[s], "token": token, "link": f"/tables/{table.id}/seats/{token}"}
            for s, token in sorted(table.tokens.items())
        ],
        "spectator": f"/tables/{table.id}/watch",
    }


async def _pump(ws: WebSocket, conn: Connection) -> None:
    while True:
        message = await conn.queue.get()
        if message is None:
            break
        await ws.send_json(message)
    with suppress(Exception):
        await ws.close(conn.close_code, conn.close_reason)


async def _serve(
    ws: WebSocket, table: Table | None, seat: int | None, problem: str | None, allowed: frozenset[str]
) -> None:
    await ws.accept()
    refused = origin_problem(ws.headers.get("origin"), ws.headers.get("host"), allowed)
    if refused is not None:
        log.warning("refused a WebSocket: %s", refused)
        await ws.send_json({"type": "error", "message": refused, "fatal": True})
        await ws.close(4403)
        return
    if table is None or problem is not None:
        await ws.send_json({"type": "error", "message": problem or "there is no such table", "fatal": True})
        await ws.close(4404)
        return
    conn = table.connect(seat)
    sender = asyncio.create_task(_pump(ws, conn))
    try:
        while not conn.closed:
            frame = await ws.receive()
            if frame["type"] == "websocket.disconnect":
                break
            table.handle(conn, frame.get("text") if frame.get("text") is not None else frame.get("bytes"))
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        table.disconnect(conn)
        sender.cancel()
        with suppress(asyncio.CancelledError, Exception):
            await sender


def create_app(
    store_path: str | Path | None = None,
    tts: SpeechSynthesizer | None = None,
    asr: SpeechRecognizer | None = None,
    model_spec: str | None = None,
    *,
    ai_delay: float = 1.0,
    night_min: float = DEFAULT_NIGHT_MIN,
    max_wait: float = DEFAULT_MAX_WAIT,
    join_timeout: float = JOIN_TIMEOUT,
    create_limit: tuple[int, float] | None = CREATE_LIMIT,
    allowed_origins: Iterable[str] = (),
    stored_games: StoredGamesMode = "all",
) -> FastAPI:
    """The web app.

    Args:
        store_path: SQLite file finished games are saved to (None: not saved).
        tts: a speech synthesizer (e.g. a `lycan.voice` TTS backend): AI seats speak aloud.
        asr: a speech recognizer (e.g. a `lycan.voice` ASR backend): people may talk instead of typing.
        model_spec: the chat model for LLM seats (`lycan.models.load_model` spec); None: no LLM seats.
        ai_delay: seconds an AI seat pauses before answering, so people can follow (a table may change it).
        night_min: seconds each night lasts at least, so that its length does not tell how many hidden
            decisions were made in it (a table may change it; see `lycan.web.table`).
        max_wait: the longest a person may take over one decision, in seconds; longer timeouts are refused
            and the rules' own are cut to it.
        join_timeout: seconds a table with seats for people waits for the first of them to open their
            page; then it is closed and forgotten.
        create_limit: (count, seconds): an address may create at most `count` tables in any `seconds`;
            None: no limit. Behind a reverse proxy, run uvicorn with the proxy's address trusted
            (`--forwarded-allow-ips`) so that each client is counted, not the proxy.
        allowed_origins: origins (`https://example.org`) besides this server's own whose pages may open
            WebSockets here (e.g. when a proxy changes the Host header).
        stored_games: which finished games of `store_path` the game viewer (`/games`, `/api/games`) shows:
            `all`, `web` (those played at this server's tables) or `none`.
    """
    redact_server_logs()
    tables = Tables(join_timeout)
    factory = TableFactory(
        store_path, tts, asr is not None, model_loader(model_spec), ai_delay, night_min=night_min, max_wait=max_wait
    )
    limit = CreationLimit(*create_limit) if create_limit is not None else None
    allowed = frozenset(o.strip().lower().rstrip("/") for o in allowed_origins)
    stored = StoredGames(
        store_path,
        stored_games,
        lambda game_id: any(t.game_id == game_id and not t.finished for t in tables.by_id.values()),
    )

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        sweeper = asyncio.create_task(tables.sweep_every(min(30.0, max(0.05, join_timeout / 4))))
        try:
            yield
        finally:
            sweeper.cancel()
            with suppress(asyncio.CancelledError):
                await sweeper
            await tables.stop()

    app = FastAPI(title="Lycan", lifespan=lifespan, docs_url=None, redoc_url=None)
    app.state.tables = tables
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.get("/", include_in_schema=False)
    async def lobby_page() -> FileResponse:
        return FileResponse(STATIC / "lobby.html")

    @app.get("/tables/{table_id}/seats/{token}", include_in_schema=False)
    async def seat_page(table_id: str, token: str) -> FileResponse:
        table = tables.get(table_id)
        if table.seat_for_token(token) is None:
            raise HTTPException(404, "this link does not belong to a seat at this table")
        # The page's address holds the seat's token: never pass it on as a referrer.
        return FileResponse(STATIC / "table.html", headers={"Referrer-Policy": "no-referrer"})

    @app.get("/tables/{table_id}/watch", include_in_schema=False)
    async def watch_page(table_id: str) -> FileResponse:
        tables.get(table_id)
        return FileResponse(STATIC / "table.html")

    @app.get("/api/options")
    async def options() -> dict[str, Any]:
        presets = []
        for name in preset_names():
            rules = get_preset(name)
            roles = {role.value: n for role, n in rules.roles.items()}
            presets.append({"name": name, "players": rules.n_players, "roles": roles})
        return {
            "presets": presets,
            "agents": factory.agent_kinds(),
            "llm": factory.model_loader is not None,
            "audio": tts is not None,
            "asr": asr is not None,
            "max_wait": max_wait,
            "night_min": night_min,
        }

    @app.post("/api/tables", status_code=201)
    async def create_table(spec: TableRequest, request: Request) -> dict[str, Any]:
        client = request.client.host if request.client is not None else "unknown"
        now = time.monotonic()
        if limit is not None:
            wait = limit.wait(client, now)
            if wait > 0:
                seconds = math.ceil(wait)
                log.warning("refused a table to %s: %d tables in %g s", client, limit.count, limit.window)
                raise HTTPException(
                    429,
                    f"you have created {limit.count} tables in the last {limit.window:g} seconds, the most this "
                    f"server allows; try again in {seconds} seconds",
                    headers={"Retry-After": str(seconds)},
                )
        try:
            loader = factory.model_loader
            model = await asyncio.to_thread(loader) if loader is not None and factory.wants_model(spec) else None
            table = factory.build(spec, model)
            tables.add(table)
        except TableError as err:
            raise HTTPException(400, str(err)) from None
        except Exception as err:  # e.g. a model that cannot be loaded
            log.exception("could not create a table")
            raise HTTPException(503, f"could not set up the table: {err}") from None
        if limit is not None:
            limit.note(client, now)
        table.start()
        log.info("table %s: %s created (%s)", table.id, table.rules.name, ", ".join(table.kinds))
        return _links(table)

    @app.get("/api/tables")
    async def list_tables() -> list[dict[str, Any]]:
        tables.sweep()
        return [t.summary() for t in tables.by_id.values()]

    @app.get("/api/tables/{table_id}")
    async def table_summary(table_id: str) -> dict[str, Any]:
        return tables.get(table_id).summary()

    @app.post("/api/tables/{table_id}/seats/{token}/transcribe")
    async def transcribe(table_id: str, token: str, request: Request) -> JSONResponse:
        table = tables.get(table_id)
        seat = table.seat_for_token(token)
        if seat is None:
            raise HTTPException(403, "this link does not belong to a seat at this table")
        if asr is None:
            raise HTTPException(
                503, "speech input is not available: this server was started without a speech recognizer; type instead"
            )
        mime = request.headers.get("content-type", "")
        data = bytearray()
        async for chunk in request.stream():
            data.extend(chunk)
            if len(data) > MAX_AUDIO_BYTES:
                break
        problem = audio_problem(bytes(data), mime)
        if problem is not None:
            log.warning("table %s: refused a recording from %s: %s", table.id, table.names[seat], problem)
            raise HTTPException(413 if len(data) > MAX_AUDIO_BYTES else 415, problem)
        try:
            result = await asr.transcribe(bytes(data), mime.split(";")[0].strip())
        except Exception as err:
            log.warning("table %s: transcription failed: %s", table.id, err)
            raise HTTPException(422, f"the recording could not be transcribed: {err}") from None
        return JSONResponse({"text": result.text.strip()})

    @app.websocket("/ws/tables/{table_id}/seats/{token}")
    async def seat_socket(ws: WebSocket, table_id: str, token: str) -> None:
        table = tables.by_id.get(table_id)
        seat = table.seat_for_token(token) if table is not None else None
        problem = None
        if table is None:
            problem = "there is no such table"
        elif seat is None:
            problem = "this link does not belong to a seat at this table"
        await _serve(ws, table, seat, problem, allowed)

    @app.websocket("/ws/tables/{table_id}/watch")
    async def watch_socket(ws: WebSocket, table_id: str) -> None:
        await _serve(ws, tables.by_id.get(table_id), None, None, allowed)

    @app.get("/games", include_in_schema=False)
    async def games_page() -> FileResponse:
        return FileResponse(STATIC / "games.html")

    @app.get("/games/{game_id}", include_in_schema=False)
    async def game_page(game_id: str) -> FileResponse:
        return FileResponse(STATIC / "games.html")

    @app.get("/api/games")
    async def list_stored_games(limit: int = 50) -> list[dict[str, Any]]:
        return await stored.summaries(limit)

    @app.get("/api/games/{game_id}")
    async def stored_game(
        game_id: str, seat: Annotated[int | None, Query(alias="as", description="a seat (from 0); none: public")] = None
    ) -> dict[str, Any]:
        return await stored.game(game_id, seat)

    return app
