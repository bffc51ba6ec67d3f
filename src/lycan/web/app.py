"""The web app: a lobby to create tables, each seat's private page, spectators, stored games.

`create_app(store_path, tts=None, asr=None, model_spec=None)` builds a FastAPI app; `lycan serve`
runs it with uvicorn. Pages are plain HTML, CSS and JavaScript shipped in `lycan/web/static`;
nothing is fetched from the internet. `/games` lists the finished games in the store and replays
any of them step by step, as everyone saw it or as one seat did, with the suspicion meter
(`lycan.web.replays`).

A public server has to stand up to strangers: each network (an IPv4 /24, an IPv6 /64) may create
only so many tables in a while and the whole server only so many more; tables at which no person
takes a seat, or whose people have all left, are closed after a few minutes; every game has a
budget of seats x decisions; no person's decision may take longer than a cap, and a person who is
away gets only a short grace; pages are served only under the host names allowed (so a rebound
DNS name cannot reach a server on this machine) and WebSockets are only opened by pages from this
server (or from the origins allowed); the stored-games viewer works out only a few views at once
and a few for each network; and the seats' secret tokens never reach the server's logs, where
every string is printed escaped (`lycan.rules.text.for_terminal`).
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
import random
import re
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterable
from contextlib import asynccontextmanager, suppress
from pathlib import Path
from typing import Annotated, Any
from urllib.parse import urlsplit

from fastapi import FastAPI, HTTPException, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, PlainTextResponse
from fastapi.staticfiles import StaticFiles
from starlette.middleware.trustedhost import TrustedHostMiddleware

from lycan.models.base import ChatModel
from lycan.rules import get_preset, preset_names
from lycan.rules.text import for_terminal
from lycan.web.audio import MAX_AUDIO_BYTES, SpeechRecognizer, SpeechSynthesizer, audio_problem
from lycan.web.limits import CreationLimit, client_key
from lycan.web.lobby import (
    DEFAULT_COST_BUDGET,
    DEFAULT_MAX_WAIT,
    TableError,
    TableFactory,
    TableRequest,
    seat_names,
    table_rules,
)
from lycan.web.perception import perception_files
from lycan.web.replays import StoredGames, StoredGamesMode
from lycan.web.study import STUDY_RUN, Answers, Studies, Study, StudyError, StudyRequest, new_study, save_answers
from lycan.web.table import DEFAULT_NIGHT_MIN, DEFAULT_NIGHT_WAIT, Connection, WebTable

log = logging.getLogger("lycan.web")

STATIC = Path(__file__).parent / "static"
MAX_TABLES = 200
"""Tables kept at once; the oldest finished ones make room for new ones."""
CREATE_LIMIT = (10, 600.0)
"""By default a network (see `client_key`) may create 10 tables in any 600 seconds."""
GLOBAL_CREATE_LIMIT = (60, 600.0)
"""By default the whole server creates at most 60 tables in any 600 seconds, whoever asks."""
LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1", "[::1]")
"""Host names a server on the loopback interface answers to (see `create_app`'s `allowed_hosts`)."""
JOIN_TIMEOUT = 300.0
"""Seconds a table with seats for people waits for the first of them before it is closed."""

_TOKEN_IN_PATH = re.compile(r"(/tables/[^/\s?#\"']+/seats/)[^/\s?#\"']+")
SERVER_LOGGERS = ("uvicorn", "uvicorn.error", "uvicorn.access", "lycan.web")
"""Loggers whose records are cleaned of seat tokens (uvicorn logs every path it serves)."""


def redact(text: str) -> str:
    """`text` with the token of every seat link in it replaced by `<token>`."""
    return _TOKEN_IN_PATH.sub(r"\1<token>", text)


def _clean(text: str) -> str:
    return for_terminal(redact(text))


class RedactTokens(logging.Filter):
    """A logging filter that removes seat tokens from paths in a record's message and arguments.

    It also escapes every control and direction-changing character in them, so that no name, path
    or header a stranger sent can drive the terminal that shows the log.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        """Clean `record` in place; never drops it."""
        if isinstance(record.msg, str):
            record.msg = _clean(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(_clean(a) if isinstance(a, str) else a for a in record.args)
        elif isinstance(record.args, dict):
            record.args = {k: _clean(v) if isinstance(v, str) else v for k, v in record.args.items()}
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
        self.by_id: dict[str, WebTable] = {}
        self.join_timeout = join_timeout

    def sweep(self, now: float | None = None) -> list[str]:
        """Close and forget the tables with people's seats left empty or abandoned for `join_timeout` s.

        Empty: none of the people took a seat since the table was made; abandoned: every person's
        page has been closed since. Returns the ids of the tables closed.
        """
        now = time.monotonic() if now is None else now
        closed = []
        for table_id, table in list(self.by_id.items()):
            if "human" not in table.kinds or table.finished:
                continue
            if not table.joined and now - table.created >= self.join_timeout:
                why = f"nobody took a seat at this table within {self.join_timeout:g} seconds"
            elif table.people_left_at is not None and now - table.people_left_at >= self.join_timeout:
                why = f"every person left this table more than {self.join_timeout:g} seconds ago"
            else:
                continue
            table.close(f"{why}, so it was closed to make room; create a new one")
            del self.by_id[table_id]
            closed.append(table_id)
            log.info("table %s: closed: %s", table_id, why)
        return closed

    def add(self, table: WebTable) -> None:
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

    def get(self, table_id: str) -> WebTable:
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


def _links(table: WebTable) -> dict[str, Any]:
    return {
        "table": table.id,
        "preset": table.rules.name,
        "players": [
            {"seat": s, "name": n, "kind": table.kinds[s], "persona": persona}
            for (s, n), persona in zip(enumerate(table.names), table.persona_labels(), strict=True)
        ],
        "seats": [
            {"seat": s, "name": table.names[s], "token": token, "link": f"/tables/{table.id}/seats/{token}"}
            for s, token in sorted(table.tokens.items())
        ],
        "spectator": f"/tables/{table.id}/watch",
    }


def frame_text(message: dict[str, Any]) -> str:
    """`message` as the text of one WebSocket frame; always valid UTF-8 JSON.

    Text from outside is checked where it arrives (`lycan.rules.text`), but a frame must never
    fail to encode: one that would (a lone surrogate from anywhere) is sent with every non-ASCII
    character escaped, which JSON allows and browsers read the same.
    """
    text = json.dumps(message, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        text = json.dumps(message, ensure_ascii=True, separators=(",", ":"), allow_nan=False)
    return text


async def _pump(ws: WebSocket, conn: Connection) -> None:
    while True:
        message = await conn.queue.get()
        if message is None:
            break
        try:
            text = frame_text(message)
        except ValueError:  # a bug must cost one message, never the tab
            log.exception("could not send a %s message to %s", message.get("type"), conn.seat)
            continue
        await ws.send_text(text)
    with suppress(Exception):
        await ws.close(conn.close_code, conn.close_reason)


async def _serve(
    ws: WebSocket, table: WebTable | None, seat: int | None, problem: str | None, allowed: frozenset[str]
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
    global_create_limit: tuple[int, float] | None = GLOBAL_CREATE_LIMIT,
    allowed_origins: Iterable[str] = (),
    allowed_hosts: Iterable[str] | None = None,
    stored_games: StoredGamesMode = "all",
    night_wait: float = DEFAULT_NIGHT_WAIT,
    allow_seed: bool = False,
    cost_budget: int | None = DEFAULT_COST_BUDGET,
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
        create_limit: (count, seconds): a network (`client_key`) may create at most `count` tables in any
            `seconds`; None: no limit. Behind a reverse proxy, run uvicorn with the proxy's address trusted
            (`--forwarded-allow-ips`) so that each client is counted, not the proxy.
        global_create_limit: (count, seconds): the whole server creates at most `count` tables in any
            `seconds`; None: no limit.
        allowed_origins: origins (`https://example.org`) besides this server's own whose pages may open
            WebSockets here (e.g. when a proxy changes the Host header).
        allowed_hosts: the host names requests may be addressed to (`Host` header; `*.example.org` for
            subdomains); others get 400, so that a page on a rebound DNS name cannot talk to a server
            on this machine. None: any host (`lycan serve` passes the loopback names, or the host it
            is bound to).
        stored_games: which finished games of `store_path` the game viewer (`/games`, `/api/games`) shows:
            `all`, `web` (those played at this server's tables) or `none`.
        night_wait: seconds into each night at which people's night requests are shown (see
            `lycan.web.table`); a table may make it longer, not shorter.
        allow_seed: whether a table with people may be created with a chosen seed (which gives the deal
            away to whoever chose it); tables of AI players alone always may.
        cost_budget: seats x decisions a table's game may take before it ends as a draw (None: no end).
    """
    redact_server_logs()
    tables = Tables(join_timeout)
    studies = Studies()
    perceiver = perception_files()
    factory = TableFactory(
        store_path,
        tts,
        asr is not None,
        model_loader(model_spec),
        ai_delay,
        night_min=night_min,
        night_wait=night_wait,
        max_wait=max_wait,
        allow_seed=allow_seed,
        cost_budget=cost_budget,
        perception=perceiver is not None,
    )
    limit = CreationLimit(*create_limit) if create_limit is not None else None
    everyone = CreationLimit(*global_create_limit) if global_create_limit is not None else None
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
    if allowed_hosts is not None:
        app.add_middleware(TrustedHostMiddleware, allowed_hosts=list(allowed_hosts))

    @app.exception_handler(RequestValidationError)
    async def bad_request(request: Request, err: RequestValidationError) -> JSONResponse:
        # The sender's own values are not echoed back: they may not even be encodable (a lone
        # surrogate) or valid JSON (NaN). Each problem is named by its field and reason.
        problems = []
        for e in err.errors()[:10]:
            where = ".".join(str(p) for p in e.get("loc", ()) if p != "body")
            problems.append(for_terminal(f"{where}: {e.get('msg', 'invalid')}" if where else str(e.get("msg"))))
        return JSONResponse({"detail": "; ".join(problems) or "the request is not valid"}, status_code=422)

    @app.exception_handler(Exception)
    async def server_error(request: Request, err: Exception) -> PlainTextResponse:
        log.exception("could not answer %s %s", request.method, request.url.path)
        return PlainTextResponse("the server could not answer this request because of an error", status_code=500)

    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    if perceiver is not None:  # the camera perceiver's library, models and WebAssembly (see lycan.web.perception)
        app.mount("/perception/lib", StaticFiles(directory=perceiver.library), name="perception-lib")
        app.mount("/perception/models", StaticFiles(directory=perceiver.models), name="perception-models")
        app.mount("/perception/wasm", StaticFiles(directory=perceiver.wasm), name="perception-wasm")
    else:
        log.info("the camera perceiver is not installed (run ./scripts/setup with npm); tables offer no camera")

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
            "perception": perceiver is not None,
            "max_wait": max_wait,
            "night_min": night_min,
            "night_wait": night_wait,
            "seed": allow_seed,
        }

    @app.post("/api/tables", status_code=201)
    async def create_table(spec: TableRequest, request: Request) -> dict[str, Any]:
        client = client_key(request.client.host) if request.client is not None else "unknown"
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
        if everyone is not None:
            wait = everyone.wait("*", now)
            if wait > 0:
                seconds = math.ceil(wait)
                log.warning("refused a table to %s: the server made %d tables in %g s", client, everyone.count,
                            everyone.window)  # fmt: skip
                raise HTTPException(
                    503,
                    f"this server has opened {everyone.count} tables in the last {everyone.window:g} seconds, "
                    f"the most it allows; try again in {seconds} seconds",
                    headers={"Retry-After": str(seconds)},
                )
        # Counted before the model loads (an await), so that a burst of requests cannot all pass
        # the limits at once; a table that cannot be made is not counted.
        counted = [(lim, key) for lim, key in ((limit, client), (everyone, "*")) if lim is not None]
        for lim, key in counted:
            lim.note(key, now)
        try:
            loader = factory.model_loader
            model = await asyncio.to_thread(loader) if loader is not None and factory.wants_model(spec) else None
            table = factory.build(spec, model)
            tables.add(table)
        except Exception as err:
            for lim, key in counted:
                lim.forget(key, now)
            if isinstance(err, TableError):
                raise HTTPException(400, str(err)) from None
            log.exception("could not create a table")  # e.g. a model that cannot be loaded
            raise HTTPException(503, f"could not set up the table: {err}") from None
        table.start()
        log.info("table %s: %s created (%s)", table.id, table.rules.name, ", ".join(table.kinds))
        return _links(table)

    @app.post("/api/studies", status_code=201)
    async def create_study(spec: StudyRequest, request: Request) -> dict[str, Any]:
        client = client_key(request.client.host) if request.client is not None else "unknown"
        now = time.monotonic()
        if limit is not None and limit.wait(client, now) > 0:  # a study makes tables: it counts as one
            raise HTTPException(429, "you have created too many tables and studies lately; try again later")
        try:
            study = new_study(spec, factory.agent_kinds())
            first = study.next_request()
            n = table_rules(first, factory.max_wait).n_players
            seat_names(first, n, random.Random(0))  # the person's name, checked as a table checks it
            for problem in filter(None, map(factory.paradigm_problem, dict.fromkeys(study.plan))):
                raise StudyError(problem)
            studies.add(study)
        except (StudyError, TableError) as err:
            raise HTTPException(400, str(err)) from None
        if limit is not None:
            limit.note(client, now)
        log.info("study %s: %d games of %s for one person", study.id, len(study.plan), spec.preset)
        return {"study": study.id, "link": study.link, "games": len(study.plan)}

    def _study(study_id: str, token: str) -> Study:
        study = studies.get(study_id, token)
        if study is None:
            raise HTTPException(404, "there is no such study on this server")
        return study

    @app.get("/studies/{study_id}/{token}", include_in_schema=False)
    async def study_page(study_id: str, token: str) -> FileResponse:
        _study(study_id, token)
        return FileResponse(STATIC / "study.html", headers={"Referrer-Policy": "no-referrer"})

    @app.get("/api/studies/{study_id}/{token}")
    async def study_state(study_id: str, token: str) -> dict[str, Any]:
        return _study(study_id, token).state()

    @app.post("/api/studies/{study_id}/{token}/next", status_code=201)
    async def study_next(study_id: str, token: str) -> dict[str, Any]:
        study = _study(study_id, token)
        try:
            spec = study.next_request()
            kinds = study.ai_kinds(len(study.tables), get_preset(spec.preset).n_players - 1)
            loader = factory.model_loader
            wants = loader is not None and factory.wants_model(spec, kinds)
            model = await asyncio.to_thread(loader) if wants and loader is not None else None
            table = factory.build(spec, model, ai_kinds=kinds, meta=study.meta(), run=STUDY_RUN)
            tables.add(table)
        except (StudyError, TableError) as err:
            raise HTTPException(400, str(err)) from None
        study.tables.append(table)
        table.start()
        log.info("study %s: game %d (%s) at table %s", study.id, len(study.tables) - 1, spec.paradigm, table.id)
        return study.state()

    @app.post("/api/studies/{study_id}/{token}/answers", status_code=201)
    async def study_answers(study_id: str, token: str, answers: Answers) -> dict[str, Any]:
        study = _study(study_id, token)
        try:
            await asyncio.to_thread(save_answers, study, answers, factory.store_path)
        except StudyError as err:
            raise HTTPException(400, str(err)) from None
        return study.state()

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
        request: Request,
        game_id: str,
        seat: Annotated[int | None, Query(alias="as", description="a seat (from 0); none: public")] = None,
    ) -> dict[str, Any]:
        client = client_key(request.client.host) if request.client is not None else "unknown"
        return await stored.game(game_id, seat, client)

    return app
