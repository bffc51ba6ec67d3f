"""An AIWolf NLP game server: remote agents over WebSocket (and local Lycan agents) at one table.

Agents connect to `ws://HOST:PORT/ws`, answer the NAME request with team name plus index
(`lycan1`), and wait in a lobby. In self-match mode a game starts when N connections of one team
wait; in mixed mode when N different teams do (one connection each). Local agents (anything with
`async act(view, request)`) may fill some seats of every table.

Each table is a `lycan.engine.session.Session` whose remote seats turn requests into protocol
packets built only from the asked seat's own view. A missed answer is followed by a NAME check: if the
agent answers it only that request fails (a Failure the engine falls back on and records as a
Fault); otherwise, or if it disconnects, the agent is errored, and once errored agents reach
`max(1, int(N x max_error_ratio))` the game ends as a draw with the reason recorded.

The server closes each agent's connection after its game, as the reference server does; agents
connect again for the next one. Connections not placed in a game (still to answer NAME, or
waiting in the lobby) are capped at `max_waiting`. When the lobby is full, a new connection takes
the place of the oldest connection of the address that holds at least two places more than its
own, else of the oldest connection once that one has waited `lobby_timeout` seconds (either is
closed with code 1013 and a sentence saying why); otherwise it is refused with HTTP 503. So
connections that can never make a game (the same few addresses, or team names no other agent
shares) cannot keep every other agent out. An address (an IPv6 client: its /64 network) may have
agents of at most `max_teams_per_address` different teams waiting at once, except for addresses
in `trusted_networks` (loopback by default). A connection that does not answer NAME within
`name_timeout` is closed. With `max_games`, the server starts no game past that number: from
then on it refuses new connections (HTTP 503) and tells lobby agents it is done, so that
`serve(games=N)` ends as soon as its last game does.

Memory: before its game a connection may send messages of at most `max_lobby_message_size` bytes
(its NAME answer); it has nothing else to say, and whatever else it sends is read and dropped, so
a waiting connection holds no more than a few KiB of frames. In a game the limit is
`max_message_size` (one utterance), and at most 8 unread answers are kept. A bigger message
closes that connection with code 1009 and websockets' reason naming the limit.
Compression is off: it would cost about 50 KiB per connection, and the contest's client does not
use it.

Each game's seed comes from `fresh_seed()` unless a seed was given; nothing sent to an agent
(the game id included) is derived from it, except through the engine's own streams (`seeds.py`).

Profiles (`profiles=True`, the default): as the contest server's `custom_profile` option does, each
agent's INITIALIZE packet carries a profile of that agent alone (`info.profile`, see
`lycan.aiwolf.packets`), written from a persona (`lycan.agents.persona`) drawn for its seat from a
stream of its own, `stream(seed, "persona", seat)`: never from the deal's stream, so a profile
says nothing about any role, and the same seed gives the same profiles whatever the deal. The
record's `meta["personas"]` keeps every seat's persona. Like the public draws (who speaks first),
a profile can be checked against guessed seeds: a small given `seed` is for tests, and live tables
take fresh secret ones.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import json
import logging
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from http import HTTPStatus
from typing import Any, Protocol
from urllib.parse import urlsplit

from websockets.asyncio.server import Server, ServerConnection
from websockets.asyncio.server import serve as ws_serve
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Request as HttpRequest
from websockets.http11 import Response as HttpResponse

from lycan.agents.persona import Persona, draw_persona
from lycan.aiwolf.packets import (
    PROTOCOL_ROLES,
    REQUEST_PACKETS,
    HistoryCursor,
    PacketKind,
    Timeouts,
    build_packet,
    game_names,
    parse_answer,
    profile_text,
    setting_dict,
    team_of_name,
)
from lycan.engine.actions import Answer, Failure, Request
from lycan.engine.game import Answers
from lycan.engine.record import GameRecord, new_game_id
from lycan.engine.seeds import fresh_seed, stream
from lycan.engine.session import Hooks, LocalSeat, Player, SeatBase, Session, label_of
from lycan.engine.view import View
from lycan.rules.presets import resolve_rules
from lycan.rules.roles import Role
from lycan.rules.ruleset import ConfigError, RuleSet

log = logging.getLogger(__name__)

_CLOSED = object()
#: Unread messages kept per agent in a game (an answer each; the oldest go when an agent floods).
_INBOX_LIMIT = 8
#: Frames websockets buffers per connection before it stops reading the socket (its `max_queue`).
_FRAME_QUEUE = 4
#: The longest NAME answer (a team name and an index), in characters.
_NAME_LIMIT = 100
#: Close codes: the game is over; the server is done; try again later; no NAME answer.
_GAME_OVER = 1000
_GOING_AWAY = 1001
_TRY_LATER = 1013
_POLICY = 1008
#: Clients on these networks are not bound by `max_teams_per_address`: the operator's own machine,
#: or a reverse proxy in front of the server (through which every client has its address).
LOOPBACK = ("127.0.0.0/8", "::1/128")


class GameStore(Protocol):
    """What the server needs of a store: `save(record, run=None)`."""

    def save(self, record: GameRecord, run: str | None = None) -> Any:
        """Persist one finished game."""
        ...


def seat_persona(seed: int, seat: int) -> Persona:
    """The persona of `seat` in the game seeded with `seed`, from the stream `("persona", seat)`.

    That stream is the seat's own: no other draw (the deal, tie-breaks, another seat's persona)
    uses it, so a persona tells nothing of the roles.
    """
    return draw_persona(stream(seed, "persona", seat))


def _as_text(message: str | bytes) -> str:
    return message.decode("utf-8", errors="replace") if isinstance(message, bytes) else message


Network = ipaddress.IPv4Network | ipaddress.IPv6Network


@dataclass(frozen=True, slots=True)
class _Arrival:
    """Where a connection not placed in a game comes from, and since when it waits."""

    address: str  # the IP address; for IPv6 its /64 network (one host usually has a whole /64)
    trusted: bool
    since: float


def _arrival(peer: object, trusted: Sequence[Network]) -> _Arrival:
    host = str(peer[0]) if isinstance(peer, tuple) and peer else str(peer)
    try:
        ip = ipaddress.ip_address(host.split("%", 1)[0])
    except ValueError:  # not an IP connection (e.g. a Unix socket): one address for all
        return _Arrival(host, False, time.monotonic())
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    address = str(ip) if ip.version == 4 else str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return _Arrival(address, any(ip in net for net in trusted), time.monotonic())


class RemoteSeat:
    """One WebSocket connection that answered NAME; plays one game at a time."""

    def __init__(self, ws: ServerConnection, name: str) -> None:
        self.ws = ws
        self.name = name
        self.team = team_of_name(name)
        self.label = name
        self.inbox: asyncio.Queue[object] = asyncio.Queue()
        self.errored: str | None = None
        self.connected = True
        self.in_game = False

    def receive(self, message: object) -> None:
        """Queue a message from the reader (old ones are dropped if an agent floods the server)."""
        while self.inbox.qsize() >= _INBOX_LIMIT:
            self.inbox.get_nowait()
        self.inbox.put_nowait(message)

    def fail(self, reason: str) -> None:
        """Mark this agent as errored (it gets no more requests in this game)."""
        if self.errored is None:
            self.errored = reason
            log.warning("agent %s errored: %s", self.name, reason)

    async def send(self, packet: dict[str, Any]) -> bool:
        """Send one packet; False (and errored) if the connection is gone."""
        if self.errored is not None:
            return False
        try:
            await self.ws.send(json.dumps(packet, ensure_ascii=False))
        except ConnectionClosed:
            self.fail("the connection closed")
            return False
        return True

    async def ask(self, packet: dict[str, Any], timeouts: Timeouts) -> str | Failure:
        """Send a packet that needs an answer and wait for it, with the protocol's NAME check on a miss."""
        if self.errored is not None:
            return Failure(f"agent errored earlier: {self.errored}")
        while not self.inbox.empty():  # answers to earlier requests that came too late
            if self.inbox.get_nowait() is _CLOSED:
                self.fail("the connection closed")
                return Failure("the connection closed")
        if not await self.send(packet):
            return Failure("the connection closed")
        limit = timeouts.action + timeouts.acceptable
        try:
            message = await asyncio.wait_for(self.inbox.get(), limit)
        except TimeoutError:
            return await self._name_check(timeouts, f"no answer within {limit:g} s")
        if message is _CLOSED:
            self.fail("the connection closed")
            return Failure("the connection closed")
        return str(message)

    async def _name_check(self, timeouts: Timeouts, reason: str) -> Failure:
        if not await self.send({"request": "NAME"}):
            return Failure(reason)
        try:
            async with asyncio.timeout(timeouts.response):
                while True:
                    message = await self.inbox.get()
                    if message is _CLOSED:
                        self.fail("the connection closed")
                        return Failure(reason)
                    if str(message).strip() == self.name:
                        return Failure(reason)
                    # a late answer to the missed request: ignore it and keep waiting for the name
        except TimeoutError:
            self.fail(f"no answer to the NAME check within {timeouts.response:g} s")
        return Failure(reason)

    async def close(self, code: int = _GAME_OVER, reason: str = "the game is over") -> None:
        """Close the connection (by default: the game is over)."""
        with contextlib.suppress(Exception):
            await self.ws.close(code, reason)


@dataclass(slots=True)
class _LocalSeat:
    player: Player
    label: str
    errored: str | None = None


Seat = RemoteSeat | _LocalSeat


class _PacketSeat(SeatBase):
    """A remote agent as a session seat: each request becomes a packet built from its own view."""

    def __init__(self, table: ServerGame, seat: int, remote: RemoteSeat) -> None:
        self.table = table
        self.seat = seat
        self.remote = remote
        self.label = remote.label

    async def answer(self, view: View, request: Request) -> Answer:
        kind = REQUEST_PACKETS.get(request.kind)
        if kind is None:
            return Failure(f"the AIWolf protocol has no {request.kind} request")
        packet = build_packet(kind, view, self.table.game_id, self.table.cursors[self.seat], request=request)
        reply = await self.remote.ask(packet, self.table.timeouts)
        if isinstance(reply, Failure):
            errored = self.remote.errored
            return Failure(f"agent errored: {errored}") if errored and "errored" not in reply.reason else reply
        return parse_answer(reply, request, view.names)


class ServerGame:
    """One game: a `Session` whose remote seats speak the protocol, with the protocol's hooks.

    Before each batch the daily packets go out (INITIALIZE, DAILY_INITIALIZE, DAILY_FINISH); after
    each batch's answers the error ratio is checked, and the game is aborted as a draw once too
    many agents errored. Local agents sit in `LocalSeat`s and keep their own timeouts; every
    request carries the server's action timeout (the protocol has one for every request).

    With `profiles`, each seat gets a persona (`seat_persona`) and each remote agent its own
    profile in INITIALIZE. `deal` fixes the roles by seat (default: drawn from the seed), as the
    contest server's role-assigned games do.
    """

    def __init__(
        self,
        rules: RuleSet,
        seats: Sequence[Seat],
        seed: int,
        timeouts: Timeouts,
        *,
        max_error_ratio: float = 0.2,
        game_id: str | None = None,
        profiles: bool = True,
        deal: Sequence[Role] | None = None,
    ) -> None:
        timed = rules.options.model_copy(update={"talk_timeout": timeouts.action, "action_timeout": timeouts.action})
        self.rules = rules.model_copy(update={"options": timed})
        self.seats = list(seats)
        self.timeouts = timeouts
        self.game_id = game_id or new_game_id()
        self.cursors = [HistoryCursor() for _ in self.seats]
        self.setting = setting_dict(rules, timeouts)
        self.error_limit = max(1, int(len(self.seats) * max_error_ratio))
        names = game_names(rules.n_players)
        self.personas: tuple[Persona, ...] = (
            tuple(seat_persona(seed, s) for s in range(rules.n_players)) if profiles else ()
        )
        self.profiles: tuple[str | None, ...] = (
            tuple(profile_text(p.profile(n)) for p, n in zip(self.personas, names, strict=True))
            if profiles
            else (None,) * rules.n_players
        )
        meta: dict[str, Any] = {"protocol": "aiwolf"}
        if profiles:
            meta["personas"] = {n: p.to_dict() for n, p in zip(names, self.personas, strict=True)}
        self.session = Session(
            self.rules,
            [
                _PacketSeat(self, s, seat) if isinstance(seat, RemoteSeat) else LocalSeat(seat.player)
                for s, seat in enumerate(self.seats)
            ],
            seed,
            names=names,
            game_id=self.game_id,
            deal=deal,
            hooks=Hooks(before_batch=self._before_batch, after_answers=self._after_answers),
            meta=meta,
        )
        self.names = self.session.game.names
        self._initialized = False
        self._day_started = -1
        self._day_finished = True
        self._reported: set[int] = set()

    def _remotes(self) -> list[tuple[int, RemoteSeat]]:
        return [(s, seat) for s, seat in enumerate(self.seats) if isinstance(seat, RemoteSeat)]

    async def broadcast(self, kind: PacketKind) -> None:
        """Send a packet that needs no answer to every remote seat, dead or alive (each its own profile)."""
        sends = [
            seat.send(
                build_packet(
                    kind,
                    self.session.view(s),
                    self.game_id,
                    self.cursors[s],
                    setting=self.setting,
                    profile=self.profiles[s],
                )
            )
            for s, seat in self._remotes()
            if seat.errored is None
        ]
        await asyncio.gather(*sends)

    async def _before_batch(self, session: Session, batch: list[Request]) -> None:
        if not self._initialized:
            self._initialized = True
            await self.broadcast("INITIALIZE")
        now = session.public_view()
        if now.phase == "day" and self._day_started != now.day:
            self._day_started = now.day
            self._day_finished = False
            await self.broadcast("DAILY_INITIALIZE")
        if not self._day_finished and (now.phase != "day" or any(not r.is_talk for r in batch)):
            self._day_finished = True
            await self.broadcast("DAILY_FINISH")

    def _after_answers(self, session: Session, batch: list[Request], answers: Answers) -> str | None:
        """The abort rule: too many errored agents end the game (their answers are failures the engine records)."""
        errored = self.errored()
        for seat, reason in errored.items():
            if seat not in self._reported:
                self._reported.add(seat)
                log.info("game %s: %s errored (%s)", self.game_id, self.names[seat], reason)
        if len(errored) < self.error_limit:
            return None
        who = ", ".join(f"{self.names[s]} ({why})" for s, why in sorted(errored.items()))
        return f"aborted: {len(errored)} agent(s) errored: {who}"

    def errored(self) -> dict[int, str]:
        """Seats whose agent is errored, with the reason."""
        return {s: seat.errored for s, seat in enumerate(self.seats) if seat.errored is not None}

    async def play(self) -> GameRecord:
        """Play the game to the end (or until too many agents are errored) and return its record."""
        await self.session.run()
        await self.broadcast("FINISH")
        await asyncio.gather(*(seat.close() for _, seat in self._remotes()))
        return self.session.record(errored={self.names[s]: r for s, r in self.errored().items()})


LocalAgents = Sequence[Player] | Callable[[], Sequence[Player]]


def _rules_for(preset: str | RuleSet) -> RuleSet:
    rules = resolve_rules(preset) if isinstance(preset, str) else preset
    odd = [r.value for r in rules.roles if r not in PROTOCOL_ROLES]
    if odd:
        raise ConfigError(f"the AIWolf protocol has no role {', '.join(odd)}; use aiwolf5, aiwolf13 or its roles")
    if rules.options.discussion == "bidding":
        raise ConfigError("the AIWolf protocol cannot run the bidding discussion; use the aiwolf discussion")
    return rules


class AiwolfServer:
    """An AIWolf NLP server at `ws://host:port/ws` that plays any number of concurrent games.

    Args:
        preset: rules: `aiwolf5`, `aiwolf13` or a `RuleSet` using only the protocol's roles.
        host: address to listen on.
        port: port to listen on (0 picks a free one; see `port` after `start`).
        self_match: True: a game is N connections of one team; False: N different teams.
        store: where finished games are saved (`save(record, run=None)`), or None.
        action_timeout: seconds an agent has for an answer (plus `acceptable_timeout`).
        response_timeout: seconds an agent has to answer the NAME check after a miss.
        acceptable_timeout: grace seconds added to `action_timeout`.
        local_agents: Lycan players that take seats at every table (a list, or a function that
            returns a fresh list per game); the remaining seats are for remote agents.
        seed: seed of the first game (games count up from it); None: a fresh secret seed per game.
        max_error_ratio: a game ends once this share of its agents is errored (at least one).
        run: the run name passed to `store.save`.
        max_games: start no more than this many games (None: no limit); see `wait_done`.
        max_waiting: most connections not yet placed in a game (answering NAME or in the lobby).
            When they are all taken, a new connection takes the place of the oldest one of the
            address holding at least two more than its own, or of the oldest one once it has waited
            `lobby_timeout`; otherwise it is refused with HTTP 503.
        name_timeout: seconds a new connection has to answer NAME before it is closed.
        lobby_timeout: seconds a connection keeps its place in a full lobby without a game; after
            that a new connection may take it (the old one is closed with code 1013).
        max_teams_per_address: most different teams whose agents may wait at once from one
            address (an IPv6 /64 network); an agent of one more is closed with code 1008. None: no
            bound.
        trusted_networks: networks (e.g. `"10.0.0.0/8"`) whose clients `max_teams_per_address`
            does not bound; loopback by default (the operator's own agents, or a local proxy).
        max_message_size: largest message in bytes an agent in a game may send: one answer, i.e. a
            name or one utterance (16 KiB: over 5,000 characters in any script).
        max_lobby_message_size: largest message in bytes a connection not yet in a game may send:
            its NAME answer (100 characters, at most 400 bytes). Bigger messages close the
            connection (code 1009); smaller ones sent in the lobby are read and dropped.
        profiles: send each agent a profile of its own in INITIALIZE (see `ServerGame`).

    Raises:
        ConfigError: rules the protocol cannot play, or limits that can never fill a table.

    """

    def __init__(
        self,
        preset: str | RuleSet = "aiwolf5",
        host: str = "127.0.0.1",
        port: int = 0,
        *,
        self_match: bool = True,
        store: GameStore | None = None,
        action_timeout: float = 60.0,
        response_timeout: float = 120.0,
        acceptable_timeout: float = 5.0,
        local_agents: LocalAgents = (),
        seed: int | None = None,
        max_error_ratio: float = 0.2,
        run: str | None = None,
        max_games: int | None = None,
        max_waiting: int = 256,
        name_timeout: float = 15.0,
        lobby_timeout: float = 60.0,
        max_teams_per_address: int | None = 4,
        trusted_networks: Sequence[str] = LOOPBACK,
        max_message_size: int = 16 * 1024,
        max_lobby_message_size: int = 512,
        profiles: bool = True,
    ) -> None:
        self.rules = _rules_for(preset)
        self.host = host
        self._port = port
        self.self_match = self_match
        self.store = store
        self.run = run
        self.timeouts = Timeouts(action_timeout, response_timeout, acceptable_timeout)
        self.max_error_ratio = max_error_ratio
        self._local_factory: Callable[[], Sequence[Player]]
        if callable(local_agents):
            self._local_factory = local_agents
            self.n_local = len(local_agents())
        else:
            fixed = list(local_agents)
            self._local_factory = lambda: fixed
            self.n_local = len(fixed)
        self.n_remote = self.rules.n_players - self.n_local
        if self.n_remote < 1:
            raise ConfigError(
                f"{self.rules.name} has {self.rules.n_players} seats; leave at least one for remote agents"
            )
        if max_waiting < self.n_remote:
            raise ConfigError(f"max_waiting is {max_waiting}, but a {self.rules.name} table needs {self.n_remote}")
        if max_games is not None and max_games < 1:
            raise ConfigError(f"max_games must be at least 1, not {max_games}")
        if lobby_timeout < 0:
            raise ConfigError(f"lobby_timeout must not be negative, not {lobby_timeout:g}")
        if max_teams_per_address is not None and max_teams_per_address < 1:
            raise ConfigError(f"max_teams_per_address must be at least 1, not {max_teams_per_address}")
        if max_lobby_message_size < 4 * _NAME_LIMIT:
            raise ConfigError(
                f"max_lobby_message_size is {max_lobby_message_size} bytes, "
                f"but a NAME answer may take {4 * _NAME_LIMIT}"
            )
        if max_message_size < max_lobby_message_size:
            raise ConfigError(
                f"max_message_size ({max_message_size}) must be at least max_lobby_message_size "
                f"({max_lobby_message_size})"
            )
        try:
            self.trusted_networks = [ipaddress.ip_network(net, strict=False) for net in trusted_networks]
        except ValueError as err:
            raise ConfigError(f"trusted_networks: {err}") from None
        self.max_games = max_games
        self.max_waiting = max_waiting
        self.name_timeout = name_timeout
        self.lobby_timeout = lobby_timeout
        self.max_teams_per_address = max_teams_per_address
        self.max_message_size = max_message_size
        self.max_lobby_message_size = max_lobby_message_size
        self.profiles = profiles
        self._seed = seed
        self._games_started = 0
        self._games_ended = 0
        self._unplaced: dict[ServerConnection, _Arrival] = {}  # in arrival order, the oldest first
        self._waiting: list[RemoteSeat] = []
        self._tasks: set[asyncio.Task[GameRecord | None]] = set()
        self._closing: set[asyncio.Task[None]] = set()
        self._server: Server | None = None
        self._finished = asyncio.Condition()
        self.records: list[GameRecord] = []

    # ------------------------------------------------------------------ lifecycle
    async def start(self) -> None:
        """Start listening."""
        self._server = await ws_serve(
            self._handle,
            self.host,
            self._port,
            process_request=self._admit,
            ping_interval=None,
            compression=None,
            max_size=self.max_lobby_message_size,  # raised to max_message_size once in a game
            max_queue=_FRAME_QUEUE,
        )

    async def close(self) -> None:
        """Stop listening, end running games and close every connection."""
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()
            self._server = None

    async def __aenter__(self) -> AiwolfServer:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def serve_forever(self) -> None:
        """Serve until cancelled."""
        if self._server is None:
            await self.start()
        assert self._server is not None
        await self._server.serve_forever()

    @property
    def port(self) -> int:
        """The port listened on (the real one once started, also when 0 was asked for)."""
        if self._server is not None:
            for sock in self._server.sockets:
                return int(sock.getsockname()[1])
        return self._port

    @property
    def url(self) -> str:
        """The URL agents connect to."""
        return f"ws://{self.host}:{self.port}/ws"

    @property
    def done(self) -> bool:
        """Whether `max_games` games have started and all have ended."""
        return self.max_games is not None and self._games_ended >= self.max_games

    @property
    def unplaced(self) -> int:
        """Connections not placed in a game: answering NAME or waiting in the lobby."""
        return len(self._unplaced)

    async def wait_for_games(self, n: int, timeout: float | None = None) -> list[GameRecord]:
        """Wait until `n` games have finished; returns the records so far.

        Raises:
            TimeoutError: fewer games finished within `timeout` seconds.

        """
        async with asyncio.timeout(timeout), self._finished:
            await self._finished.wait_for(lambda: len(self.records) >= n)
        return list(self.records)

    async def wait_done(self, timeout: float | None = None) -> list[GameRecord]:
        """Wait until the `max_games` games have all ended (stored or failed); returns the records.

        Raises:
            TimeoutError: they had not within `timeout` seconds.
            ValueError: the server has no `max_games`.

        """
        if self.max_games is None:
            raise ValueError("wait_done needs a server with max_games")
        async with asyncio.timeout(timeout), self._finished:
            await self._finished.wait_for(lambda: self.done)
        return list(self.records)

    # ------------------------------------------------------------------ connections
    def _make_room(self, arrival: _Arrival) -> str | None:
        """Why a new connection is refused now, or None (after making room for it if need be)."""
        if self.max_games is not None and self._games_started >= self.max_games:
            return f"this server has started its last game ({self.max_games}) and accepts no more agents"
        if len(self._unplaced) < self.max_waiting:
            return None
        counts = Counter(a.address for a in self._unplaced.values())
        biggest, held = counts.most_common(1)[0]
        if held >= counts[arrival.address] + 2:
            ws = next(ws for ws, a in self._unplaced.items() if a.address == biggest)
            self._drop(ws, "the lobby is full and your address holds the most places in it; connect again later")
            return None
        ws, oldest = next(iter(self._unplaced.items()))
        if arrival.since - oldest.since >= self.lobby_timeout:
            self._drop(
                ws, f"the lobby is full and no game formed for you within {self.lobby_timeout:g} s; connect again later"
            )
            return None
        return (
            f"too many agents are waiting for a game ({len(self._unplaced)}, the most this server "
            "takes); try again later"
        )

    def _drop(self, ws: ServerConnection, reason: str) -> None:
        """Take a connection out of the lobby and close it with code 1013 and `reason`."""
        arrival = self._unplaced.pop(ws)
        self._waiting = [seat for seat in self._waiting if seat.ws is not ws]
        log.info("dropped a waiting connection from %s: %s", arrival.address, reason)
        self._close_soon(ws, _TRY_LATER, reason)

    def _close_soon(self, ws: ServerConnection, code: int, reason: str) -> None:
        """Close a connection in a task of its own (from code that must not wait)."""

        async def close() -> None:
            with contextlib.suppress(Exception):
                await ws.close(code, reason)

        closing = asyncio.get_running_loop().create_task(close())
        self._closing.add(closing)
        closing.add_done_callback(self._closing.discard)

    def _team_refusal(self, seat: RemoteSeat, arrival: _Arrival) -> str | None:
        """Why a connection that answered NAME may not wait in the lobby, or None."""
        bound = self.max_teams_per_address
        if bound is None or arrival.trusted:
            return None
        here = {ws for ws, a in self._unplaced.items() if a.address == arrival.address}
        teams = {s.team for s in self._waiting if s.ws in here}
        if seat.team in teams or len(teams) < bound:
            return None
        return f"agents of {len(teams)} teams already wait from your address, the most this server takes from one"

    def _admit(self, connection: ServerConnection, request: HttpRequest) -> HttpResponse | None:
        """Before the WebSocket handshake: the path must be /ws, and the server must take agents."""
        if urlsplit(request.path).path.rstrip("/") != "/ws":
            return connection.respond(HTTPStatus.NOT_FOUND, "AIWolf agents connect to /ws\n")
        refusal = self._make_room(_arrival(connection.remote_address, self.trusted_networks))
        if refusal is not None:
            response = connection.respond(HTTPStatus.SERVICE_UNAVAILABLE, refusal + "\n")
            response.headers["Retry-After"] = "10"
            return response
        return None

    async def _handle(self, ws: ServerConnection) -> None:
        arrival = _arrival(ws.remote_address, self.trusted_networks)
        refusal = self._make_room(arrival)  # handshakes under way when the limit was reached
        if refusal is not None:
            await ws.close(_TRY_LATER, refusal[:120])
            return
        self._unplaced[ws] = arrival
        try:
            name = await self._ask_name(ws)
            if name is None or ws not in self._unplaced:  # no name, or dropped meanwhile
                return
            seat = RemoteSeat(ws, name)
            refusal = self._team_refusal(seat, arrival)
            if refusal is not None:
                log.info("refused %s from %s: %s", name, arrival.address, refusal)
                await ws.close(_POLICY, refusal)
                return
            self._waiting.append(seat)
            self._match()
            try:
                async for message in ws:
                    if seat.in_game:
                        seat.receive(_as_text(message))
                    # before its game an agent is asked nothing: what it sends is dropped at once
            except ConnectionClosed:
                pass
            finally:
                seat.connected = False
                seat.receive(_CLOSED)
                if seat in self._waiting:
                    self._waiting.remove(seat)
        finally:
            self._unplaced.pop(ws, None)

    async def _ask_name(self, ws: ServerConnection) -> str | None:
        """The connection's answer to NAME; None (and the connection closed) if there is none."""
        try:
            await ws.send(json.dumps({"request": "NAME"}))
            raw = await asyncio.wait_for(ws.recv(), self.name_timeout)
        except TimeoutError:
            await ws.close(_POLICY, f"no answer to NAME within {self.name_timeout:g} s")
            return None
        except ConnectionClosed:
            return None
        name = _as_text(raw).strip()
        if not name or len(name) > _NAME_LIMIT:
            await ws.close(_POLICY, "answer NAME with a team name and an index, e.g. lycan1")
            return None
        return name

    def _match(self) -> None:
        while self.max_games is None or self._games_started < self.max_games:
            group = self._pick()
            if group is None:
                return
            for seat in group:
                self._waiting.remove(seat)
                self._unplaced.pop(seat.ws, None)
                seat.in_game = True
                seat.ws.protocol.max_message_size = self.max_message_size  # room for an utterance
            seed = self._next_seed()
            task = asyncio.get_running_loop().create_task(self._play(group, seed))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
        # the last game has started: tell those still waiting that none will start for them
        for seat in list(self._waiting):
            self._waiting.remove(seat)
            self._close_soon(seat.ws, _GOING_AWAY, "this server has started its last game and starts no more")

    def _pick(self) -> list[RemoteSeat] | None:
        need = self.n_remote
        live = [s for s in self._waiting if s.connected]
        if self.self_match:
            by_team: dict[str, list[RemoteSeat]] = {}
            for seat in live:
                by_team.setdefault(seat.team, []).append(seat)
                if len(by_team[seat.team]) == need:
                    return by_team[seat.team]
            return None
        teams: dict[str, RemoteSeat] = {}
        for seat in live:
            teams.setdefault(seat.team, seat)
            if len(teams) == need:
                return list(teams.values())
        return None

    def _next_seed(self) -> int:
        self._games_started += 1
        if self._seed is None:
            return fresh_seed()
        return self._seed + self._games_started - 1

    async def _play(self, remotes: list[RemoteSeat], seed: int) -> GameRecord | None:
        try:
            return await self._play_table(remotes, seed)
        finally:
            async with self._finished:
                self._games_ended += 1
                self._finished.notify_all()

    async def _play_table(self, remotes: list[RemoteSeat], seed: int) -> GameRecord | None:
        seats: list[Seat] = list(remotes)
        try:
            seats += [_LocalSeat(p, label_of(p)) for p in self._local_factory()]
            table = ServerGame(
                self.rules, seats, seed, self.timeouts, max_error_ratio=self.max_error_ratio, profiles=self.profiles
            )
            record = await table.play()
        except asyncio.CancelledError:
            await asyncio.gather(*(r.close(_GOING_AWAY, "the server is shutting down") for r in remotes))
            raise
        except Exception:  # a bug in one game must not take the server down
            log.exception("a game failed")
            await asyncio.gather(*(r.close(_GOING_AWAY, "the game failed on the server") for r in remotes))
            return None
        if self.store is not None:
            try:
                self.store.save(record, run=self.run)
            except Exception:
                log.exception("could not store game %s", record.game_id)
        async with self._finished:
            self.records.append(record)
            self._finished.notify_all()
        return record


async def serve(
    preset: str | RuleSet = "aiwolf5",
    host: str = "127.0.0.1",
    port: int = 8080,
    *,
    self_match: bool = True,
    store: GameStore | None = None,
    action_timeout: float = 60.0,
    response_timeout: float = 120.0,
    local_agents: LocalAgents = (),
    seed: int | None = None,
    games: int | None = None,
    max_waiting: int = 256,
    name_timeout: float = 15.0,
    lobby_timeout: float = 60.0,
    max_teams_per_address: int | None = 4,
    trusted_networks: Sequence[str] = LOOPBACK,
    max_message_size: int = 16 * 1024,
    profiles: bool = True,
    on_ready: Callable[[AiwolfServer], None] | None = None,
) -> list[GameRecord]:
    """Run an AIWolf NLP server until cancelled, or until `games` games have been played.

    With `games`, no game past that number starts: agents that connect again after their last
    game are refused (HTTP 503), and the server closes as soon as the last game ends.

    Args:
        preset: `aiwolf5`, `aiwolf13`, or a RuleSet with only the protocol's roles.
        host: address to listen on.
        port: port to listen on (0: any free port; `on_ready` gets the server to read it).
        self_match: a game is N connections of one team (True) or N different teams (False).
        store: a game store (`save(record, run=None)`) for finished games, or None.
        action_timeout: seconds an agent has to answer a request.
        response_timeout: seconds an agent has to answer the NAME check after a missed answer.
        local_agents: Lycan players seated at every table next to the remote agents.
        seed: seed of the first game; None: a fresh secret seed for every game.
        games: play this many games, then stop (None: serve forever).
        max_waiting: most connections not placed in a game; see `AiwolfServer` for who makes room.
        name_timeout: seconds a new connection has to answer NAME.
        lobby_timeout: seconds a connection keeps its place in a full lobby without a game.
        max_teams_per_address: most different teams waiting at once from one address (None: no bound).
        trusted_networks: networks whose clients `max_teams_per_address` does not bound.
        max_message_size: largest message in bytes an agent in a game may send (one utterance).
        profiles: send each agent a profile of its own in INITIALIZE, from a persona drawn for its seat.
        on_ready: called once the server listens (e.g. to print its URL).

    Returns:
        The records of the games played (a game that failed on the server has none).

    Raises:
        ConfigError: rules the protocol cannot play, or limits that can never fill a table.

    """
    server = AiwolfServer(
        preset,
        host,
        port,
        self_match=self_match,
        store=store,
        action_timeout=action_timeout,
        response_timeout=response_timeout,
        local_agents=local_agents,
        seed=seed,
        max_games=games,
        max_waiting=max_waiting,
        name_timeout=name_timeout,
        lobby_timeout=lobby_timeout,
        max_teams_per_address=max_teams_per_address,
        trusted_networks=trusted_networks,
        max_message_size=max_message_size,
        profiles=profiles,
    )
    async with server:
        if on_ready is not None:
            on_ready(server)
        if games is None:
            await server.serve_forever()
        return await server.wait_done()


__all__ = ["AiwolfServer", "GameStore", "RemoteSeat", "ServerGame", "seat_persona", "serve"]
