"""One web table: a game in progress, its seats (people and AI agents) and everyone watching.

Every message to a seat is built from what that seat may see (`Game.view(seat)` and
`Event.visible_to`), every message to a spectator from public events only, until the game ends
and the whole record is revealed. Spectators also get the suspicion meter (`meter` messages):
every seat's chance of being on the werewolf side, read by `lycan.beliefs` from the public events
released so far, one message after each public event; the reveal shows it beside the true roles.
All of it runs on the server's event loop; the game itself runs as one background task per table.

What a tab receives is a function of what it may see, so that counting or numbering messages
tells nothing more: an event message for each event it may see (numbered by its place among
them), a `state` message when the public state (day, phase, who is alive) changes, for
spectators a `meter` message after each public event, `activity` and `speech` messages for
turns it may see, and its own requests. Nothing is sent because some
other seat made a hidden decision.

Timing is harder to hide than content. A table with people runs each night on a clock:

- **Requests at a fixed time.** Every person's night request other than the wolves' own (a
  divination, a guard, a potion) is shown `night_wait` seconds after the night began, not when
  the engine asks it: the engine asks after the wolves have whispered, and how long they took
  told the seer how many wolves were alive. The wolves' whisper fits in that time: a whisper
  turn that would start too late to end by then (`night_wait` less one AI turn) is answered
  `Over`, and a person's whisper turn ends, as `Over`, when the time is up.
- **Nights of a fixed length.** The events that end a night (the dawn, or the end of the game)
  reach people no sooner than `night_min` seconds after it began, however many hidden decisions
  (whispers, attacks, divinations, potions) it took.

This hides how many hidden decisions were made as long as they fit in the clock; it does not
hide a night that runs longer (a person taking their time over a night action, a slow model),
nor a request that can only be asked after another person's night decision (the witch is asked
after the attack, and so after a person werewolf's choice), nor the length of the short pause
after a death at dawn or an execution, in which a dead hunter is asked whether to shoot even
when they pass. Tables without people run without the clock: nobody there could read it.

The settings that touch secrecy (the AI pause, `night_min`, `night_wait`, and whether the seed was
chosen by the table's creator) are told to everyone in `hello`.

Each AI seat plays a persona (`lycan.agents.persona`): a fictional character, shown to everyone
(`hello`, the table's summary) and heard in its voice. A persona is drawn from a stream of its own,
never from the deal's, so it tells nothing of a role.
"""

from __future__ import annotations

import asyncio
import logging
import math
import secrets
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, get_args

from lycan.agents.persona import Persona, draw_persona, persona_of
from lycan.beliefs.meter import Meter, meter
from lycan.engine.actions import OVER, Answer, Request
from lycan.engine.events import Died, Event, GameOver, Phase, PhaseStarted
from lycan.engine.manner import Manner
from lycan.engine.record import GameRecord, ModelCall, new_game_id
from lycan.engine.seeds import stream
from lycan.engine.session import Hooks, LocalSeat, Player, SeatBase, Session
from lycan.engine.stepping import view_at
from lycan.engine.view import PublicView, View
from lycan.render import render_log
from lycan.rules import RuleSet, team_of
from lycan.web.audio import AudioChannel, SpeechSynthesizer
from lycan.web.messages import BadMessage, Ping, event_message, parse_client_message, request_message
from lycan.web.seats import HumanSeat

log = logging.getLogger("lycan.web")

Paradigm = Literal["text-text", "video-text", "video-video"]
"""Seed 002's interaction paradigms: what people send (typed text, or camera and voice) and how AI seats
answer (text, or voice with an animated face)."""
PARADIGMS: tuple[str, ...] = get_args(Paradigm)
PUBLIC_ACTIVITIES = frozenset({"talk", "vote", "bid"})
"""Requests everyone may see being made; whose turn it is at night is known only to those acting."""

MAX_QUEUED = 10_000
"""Messages a connection may have waiting before it is considered dead and dropped."""

DEFAULT_NIGHT_MIN = 10.0
"""Seconds a night lasts at least for the people at a table (see the module docstring): more than
the longest night of the heuristic agents at the default AI pause (7 sequential decisions in
aiwolf13, 5 in witch6)."""

DEFAULT_NIGHT_WAIT = 15.0
"""Seconds into a night at which people's own night requests are shown (see the module docstring):
the time the wolves have to whisper."""

AI_TURN = {"basic": 1.0, "llm": 10.0}
"""Seconds one AI whisper turn may take beyond the AI pause, by kind of agent (for the whisper's clock)."""

WOLF_REQUESTS = frozenset({"whisper", "attack"})
"""Night requests only werewolves get: they are not held to the night's clock (the pack knows its size)."""

METER_INLINE = 500_000
"""Deals x seats up to which the spectators' meter is read at once, in order, after every public event;
larger tables have it read in a worker thread, the latest reading only (the server's loop never waits)."""

METER_MAX = 40_000_000
"""Deals x seats beyond which a table has no live meter (a 50-seat table's deals take hundreds of MiB)."""

FLOOD_GAP = 10.0
"""Seconds without a refused message after which the next one starts a new flood (and a new log line)."""

_CHANNELS = {"talk": 0, "whisper": 1}


def meter_cost(rules: RuleSet) -> int:
    """Role deals x seats: what reading the suspicion meter of a table with `rules` costs, roughly."""
    deals = math.factorial(rules.n_players)
    for count in rules.roles.values():
        deals //= math.factorial(count)
    return deals * rules.n_players


def activity_audience(request: Request, view: View) -> frozenset[int] | None:
    """Who may see that `request` is open (None: everyone), so that nobody learns a hidden role from it."""
    if request.kind in PUBLIC_ACTIVITIES:
        return None
    if request.kind in ("whisper", "attack"):
        return frozenset(view.wolves()) | {view.seat}
    return frozenset({view.seat})


class _TableSeat(SeatBase):
    """A seat of the table's session: whoever sits there now (a person's `HumanSeat` or an `AISeat`).

    The lobby seats the players after the table exists; the session asks through this, in a
    `LocalSeat` (the player's own timeout, exceptions turned into failures).
    """

    reports_model_calls = True  # its player is seated after the session exists

    def __init__(self, table: WebTable, seat: int, kind: str) -> None:
        self.table = table
        self.seat = seat
        self.label = kind
        self._local: LocalSeat | None = None

    def _player(self) -> LocalSeat:
        if self._local is None:
            self._local = LocalSeat(self.table.players[self.seat])
        return self._local

    def begin_game(self, game_id: str, seat: int) -> None:
        """Tell the seat's player the game begins."""
        self._player().begin_game(game_id, seat)

    def drain(self) -> list[ModelCall]:
        """The seat's model calls since last asked."""
        return list(self._player().drain())

    async def answer(self, view: View, request: Request) -> Answer:
        """The player's answer (never raises), on the night's clock at tables with people."""
        table = self.table
        clock = table.night_clock()
        if clock is None:
            return await self._player().answer(view, request)
        person = self.label == "human"
        if request.kind == "whisper":
            # The whisper must end in time for the attack to be made before the clock: one AI turn
            # is kept in hand for it.
            left = clock - time.monotonic() - table.ai_turn
            if left <= (0.0 if person else table.ai_turn):
                return OVER
            if person:
                player = self._player().player
                missed = getattr(player, "missed", 0)
                try:
                    async with asyncio.timeout(left):
                        return await self._player().answer(view, request)
                except TimeoutError:
                    if hasattr(player, "missed"):
                        player.missed = missed  # the clock ended the turn: the person did not miss it
                    return OVER
        return await self._player().answer(view, request)


@dataclass(eq=False)
class Connection:
    """One open browser tab: a seat's (`seat`) or a spectator's (`seat` None)."""

    seat: int | None
    queue: asyncio.Queue[dict[str, Any] | None] = field(default_factory=asyncio.Queue)
    closed: bool = False
    events_sent: int = 0
    """Event messages sent to this tab: the place of the next one among those it sees."""
    unlogged: int = 0
    """Messages refused during the current flood and not yet logged."""
    flood_started: float | None = None
    last_refused: float = 0.0
    close_code: int = 1008
    close_reason: str = "too far behind"

    def send(self, message: dict[str, Any]) -> None:
        """Queue `message` for this tab (dropped once the tab is gone)."""
        if self.closed:
            return
        if self.queue.qsize() >= MAX_QUEUED:
            log.warning("dropping a connection that stopped reading (seat %s)", self.seat)
            self.close()
            return
        self.queue.put_nowait(message)

    def close(self, code: int | None = None, reason: str | None = None) -> None:
        """Stop sending to this tab (the WebSocket is then closed with `code` and `reason`)."""
        if not self.closed:
            self.closed = True
            self.close_code = self.close_code if code is None else code
            self.close_reason = self.close_reason if reason is None else reason
            self.queue.put_nowait(None)


@dataclass
class _Speech:
    utterance_id: int
    channel: str
    audience: frozenset[int] | None
    streamed: bool = False
    manner: Manner | None = None


class WebTable:
    """A game table with its seats, links and live connections.

    Args:
        table_id: the table's unguessable id (part of every link).
        rules: the rules (with the table's timeouts already applied).
        names: one name per seat.
        kinds: `human` or the AI agent type, per seat.
        seed: the game's seed.
        store_path: the SQLite file finished games are saved to (None: not saved).
        tts: a speech synthesizer for AI voices (None: text only).
        asr: whether speech input is available (for the page to offer push-to-talk).
        night_min: seconds each night lasts at least for everyone watching (see the module docstring).
        night_wait: seconds into each night at which people's night requests are shown (see the module
            docstring); only at tables with people.
        ai_delay: seconds the AI seats pause before answering (told to everyone, and part of the clock).
        seed_chosen: whether the table's creator chose the seed (told to everyone: whoever knows the
            seed knows the deal).
        cost_budget: the most seats x decisions the game may take; then it ends as a draw (None: no end).
        paradigm: seed 002's interaction paradigm the table was created for (`PARADIGMS`; recorded with
            the game), or None.
        camera: whether people may turn their camera on, so that a description of their face and head
            (`lycan.engine.seen.Seen`, made in their browser) goes with their words.
        meta: more to record with the game (a study's id and game number, for one).
        run: the run the finished game is stored under (`web`; `study` for study games).
    """

    def __init__(
        self,
        table_id: str,
        rules: RuleSet,
        names: Sequence[str],
        kinds: Sequence[str],
        seed: int,
        *,
        store_path: str | Path | None = None,
        tts: SpeechSynthesizer | None = None,
        asr: bool = False,
        night_min: float = 0.0,
        night_wait: float = 0.0,
        ai_delay: float = 0.0,
        seed_chosen: bool = False,
        cost_budget: int | None = None,
        paradigm: Paradigm | None = None,
        camera: bool = False,
        meta: Mapping[str, Any] | None = None,
        run: str = "web",
    ) -> None:
        self.id = table_id
        self.paradigm = paradigm
        self.camera = camera
        self.store_run = run
        self.rules = rules
        self.seed = seed
        self.kinds = list(kinds)
        self.store_path = store_path
        self.asr = asr
        self.game_id = new_game_id()
        self.session = Session(
            rules,
            [_TableSeat(self, s, kind) for s, kind in enumerate(self.kinds)],
            seed,
            names=names,
            game_id=self.game_id,
            hooks=Hooks(before_batch=self._before_batch, after_answers=self._after_answers),
            meta={"source": "web", "table": table_id, **({"paradigm": paradigm} if paradigm else {}), **(meta or {})},
        )
        self.names = self.session.game.names
        self.tokens: dict[int, str] = {s: secrets.token_urlsafe(24) for s, k in enumerate(kinds) if k == "human"}
        self.players: list[Player] = []
        self.connections: list[Connection] = []
        self.audio = AudioChannel(tts, self.deliver, self.persona)
        self.record: GameRecord | None = None
        self.failure: str | None = None
        self.task: asyncio.Task[None] | None = None
        self._requests: dict[int, dict[str, Any]] = {}
        self._activities: dict[int, tuple[dict[str, Any], frozenset[int] | None]] = {}
        self._speech: dict[int, _Speech] = {}
        self._game_over: dict[str, Any] | None = None
        self.night_min = night_min
        self.night_wait = night_wait if "human" in self.kinds else 0.0
        self.ai_delay = ai_delay
        llm = any(kind not in ("human", "heuristic", "heuristic-beliefs", "deepwolf", "random") for kind in self.kinds)
        self.ai_turn = ai_delay + AI_TURN["llm" if llm else "basic"]
        """Seconds one AI whisper turn may take (see `_TableSeat.answer`)."""
        self.seed_chosen = seed_chosen
        self.cost_budget = cost_budget
        self.cost = 0
        """Seats x decisions asked so far (see `cost_budget`)."""
        self.created = time.monotonic()
        self.joined = False
        """Whether a person has ever opened one of the seats' pages."""
        self.people_left_at: float | None = None
        """When the last person's tab closed (None: a person is here, or none has come yet)."""
        self._night_t0: float | None = None  # when the running night's start was released
        self._released = 0  # how much of the game's log has been sent out
        self._public: list[Event] = []  # the public events sent out, in order
        self._meter: dict[str, Any] | None = None  # the meter of `_public`, once worked out
        self._meter_broken = meter_cost(rules) > METER_MAX
        self._meter_reader = Meter()  # reads each public event once
        self._meter_inline = meter_cost(rules) <= METER_INLINE
        self._meter_task: asyncio.Task[None] | None = None
        self._night_started: float | None = None
        self._day = 0
        self._phase: Phase = "setup"
        self._alive = [True] * len(self.names)
        self._utterances = [0, 0]  # per talk channel

    # ----------------------------------------------------------------- seats and links
    def seat_for_token(self, token: str) -> int | None:
        """The seat `token` belongs to at this table, or None."""
        found = None
        for seat, own in self.tokens.items():
            if secrets.compare_digest(own.encode(), token.encode()):
                found = seat
        return found

    def persona(self, seat: int) -> Persona | None:
        """The persona `seat` is played in (None: a person's seat).

        An AI seat's is its agent's own (`persona_of`); for an agent without one, a persona drawn
        from the stream `stream(seed, "persona", seat)`, so that it says nothing of the deal.
        """
        if self.kinds[seat] == "human":
            return None
        agent = getattr(self.players[seat], "agent", None) if seat < len(self.players) else None
        return persona_of(agent) or draw_persona(stream(self.seed, "persona", seat))

    def persona_labels(self) -> list[str | None]:
        """Each seat's persona as a short tag (`Persona.label`), None for people: public, shown to everyone."""
        labels: list[str | None] = []
        for seat in range(len(self.names)):
            persona = self.persona(seat)
            labels.append(None if persona is None else persona.label())
        return labels

    @property
    def finished(self) -> bool:
        """Whether the game is over (or stopped by an error)."""
        return self.record is not None or self.failure is not None

    def is_connected(self, seat: int) -> bool:
        """Whether anyone has `seat`'s page open."""
        return any(c.seat == seat and not c.closed for c in self.connections)

    # ----------------------------------------------------------------- sending
    def deliver(self, message: dict[str, Any], audience: frozenset[int] | None) -> None:
        """Send `message` to the seats in `audience`, or to everyone (spectators too) if None."""
        for conn in self.connections:
            if audience is None or (conn.seat is not None and conn.seat in audience):
                conn.send(message)

    def _to_seat(self, seat: int, message: dict[str, Any]) -> None:
        for conn in self.connections:
            if conn.seat == seat:
                conn.send(message)

    def _state(self) -> dict[str, Any]:
        """The public state as the released events tell it (the game itself may be further on)."""
        return {"type": "state", "day": self._day, "phase": self._phase, "alive": list(self._alive)}

    def _follow(self, event: Event) -> bool:
        """Update the public state by the public `event`; returns whether it changed."""
        before = (self._day, self._phase, list(self._alive))
        if isinstance(event, PhaseStarted):
            self._day, self._phase = event.day, event.phase
            self._alive = [s in event.alive for s in range(len(self.names))]
            if event.phase != "night":
                self._night_t0 = None
        elif isinstance(event, Died):
            self._alive[event.target] = False
        elif isinstance(event, GameOver):
            self._day, self._phase = event.day, "end"
            self._night_t0 = None
        return before != (self._day, self._phase, self._alive)

    def _send_event(self, conn: Connection, event: Event) -> None:
        conn.send(event_message(event, self.names, conn.seat, conn.events_sent))
        conn.events_sent += 1

    @staticmethod
    def _sees(conn: Connection, event: Event) -> bool:
        return event.audience is None if conn.seat is None else event.visible_to(conn.seat)

    def _hello(self, seat: int | None) -> dict[str, Any]:
        options = self.rules.options
        message: dict[str, Any] = {
            "type": "hello",
            "table": self.id,
            "preset": self.rules.name,
            "names": list(self.names),
            "kinds": self.kinds,
            "personas": self.persona_labels(),
            "you": seat,
            "role_counts": [[role.value, n] for role, n in self.rules.roles.items()],
            "max_length": options.talk.max_length,
            "timeouts": {"talk": options.talk_timeout, "action": options.action_timeout},
            "secrecy": self.secrecy(),
            "audio": self.audio.enabled,
            "asr": self.asr and seat is not None,
            "camera": self.camera and seat is not None and self.kinds[seat] == "human",
            "paradigm": self.paradigm,
        }
        if seat is not None:
            role = self.session.view(seat).role
            message["role"] = role.value
            message["team"] = team_of(role).value
        return message

    def secrecy(self) -> dict[str, Any]:
        """The table's settings that bear on what its timing or its seed could tell (shown to everyone)."""
        return {
            "seed": "chosen by the table's creator"
            if self.seed_chosen
            else "drawn by the server, secret until the end",
            "ai_delay": self.ai_delay,
            "night_min": self.night_min,
            "night_wait": self.night_wait,
            "cost_budget": self.cost_budget,
        }

    def night_clock(self) -> float | None:
        """When people's requests of the running night are shown (`time.monotonic()`), or None: no clock now."""
        if self._night_t0 is None or self.night_wait <= 0:
            return None
        return self._night_t0 + self.night_wait

    def connect(self, seat: int | None) -> Connection:
        """Open a tab for `seat` (None: a spectator) and queue everything it may know so far.

        Nothing awaits between reading the history and joining the table, so the tab misses no
        event and sees none twice.
        """
        conn = Connection(seat)
        conn.send(self._hello(seat))
        for event in self.session.game.events[: self._released]:
            if self._sees(conn, event):
                self._send_event(conn, event)
        conn.send(self._state())
        if seat is None:
            reading = self._meter_now() if self._meter_inline else self._meter
            if reading is not None:
                conn.send(reading)
        for message, audience in self._activities.values():
            if audience is None or (seat is not None and seat in audience):
                conn.send(message)
        if seat is not None and seat in self._requests:
            conn.send(self._requests[seat])
        if self._game_over is not None:
            conn.send(self._game_over)
        elif self.failure is not None:
            conn.send({"type": "error", "message": self.failure})
        self.connections.append(conn)
        if seat is not None:
            self.joined = True
            self.people_left_at = None
        log.info("table %s: %s joined", self.id, "a spectator" if seat is None else self.names[seat])
        return conn

    def disconnect(self, conn: Connection) -> None:
        """Forget a closed tab."""
        conn.close()
        if conn in self.connections:
            self.connections.remove(conn)
        if conn.unlogged:
            self._log_flood_end(conn)
        if conn.seat is not None and not any(c.seat is not None and not c.closed for c in self.connections):
            self.people_left_at = time.monotonic()

    def close(self, reason: str) -> None:
        """Stop the game (if it is still running) and tell every open tab why."""
        if not self.finished:
            self.failure = reason
        if self.task is not None and not self.task.done():
            self.task.cancel()
        self.deliver({"type": "error", "message": reason, "fatal": True}, None)
        for conn in list(self.connections):
            conn.close(1000, "the table was closed")

    # ----------------------------------------------------------------- the suspicion meter
    def _public_view(self) -> PublicView:
        return PublicView(
            names=self.names,
            rules=self.rules,
            day=self._day,
            phase=self._phase,
            alive=tuple(self._alive),
            events=tuple(self._public),
        )

    def _meter_message(self, view: PublicView) -> dict[str, Any] | None:
        """The `meter` message for `view` (None if beliefs fail on it: the meter is then off for good).

        It is read from a spectator's view of the public events alone, so it tells nothing hidden.
        """
        try:
            readings = self._meter_reader.read(view)
        except Exception:  # the meter is an extra: it never stops the game
            log.exception("table %s: no suspicion meter (beliefs failed on the public record)", self.id)
            self._meter_broken = True
            return None
        return {"type": "meter", "after": len(view.events), "seats": [r.to_dict() for r in readings]}

    def _meter_now(self) -> dict[str, Any] | None:
        """The `meter` message for the public events sent out so far, read at once (small tables)."""
        if self._meter is None and not self._meter_broken:
            self._meter = self._meter_message(self._public_view())
        return self._meter

    def _spectators(self) -> list[Connection]:
        return [c for c in self.connections if c.seat is None and not c.closed]

    def _after_public(self, event: Event) -> None:
        """`event` was sent out: keep it, and tell spectators the new meter (not for the end of the game).

        A small table's meter is read at once, one after each public event. A large table's is read
        in a worker thread, so that the server's loop never waits on it: each reading covers the
        public events out when it began, and events that come meanwhile are read together next.
        """
        self._public.append(event)
        if isinstance(event, GameOver) or self._meter_broken:
            return
        if not self._meter_inline:
            if self._spectators() and (self._meter_task is None or self._meter_task.done()):
                self._meter_task = asyncio.get_running_loop().create_task(self._meter_in_thread())
            return
        self._meter = None
        watching = self._spectators()
        if watching:
            reading = self._meter_now()
            if reading is not None:
                for conn in watching:
                    conn.send(reading)

    async def _meter_in_thread(self) -> None:
        """Read the meter in a worker thread until it has caught up with the public events, sending each reading."""
        while (
            not self._meter_broken
            and not isinstance(self._public[-1], GameOver)  # the reveal carries its own meter
            and (self._meter is None or self._meter["after"] < len(self._public))
        ):
            view = self._public_view()
            reading = await asyncio.to_thread(self._meter_message, view)
            if reading is None:
                return
            self._meter = reading
            for conn in self._spectators():
                conn.send(reading)

    # ----------------------------------------------------------------- from browsers
    def handle(self, conn: Connection, raw: str | bytes | None) -> None:
        """Act on one frame from `conn`; bad input is answered with an error to that tab only."""
        try:
            message = parse_client_message(raw)
        except BadMessage as err:
            self._refuse(conn, str(err))
            return
        if isinstance(message, Ping):
            conn.send({"type": "pong"})
            return
        if conn.seat is None:
            self._refuse(conn, "spectators watch; only a seat's own link can act")
            return
        player = self.players[conn.seat]
        if not isinstance(player, HumanSeat):
            self._refuse(conn, "this seat is played by an AI agent")
            return
        if self.finished:
            self._refuse(conn, "the game is over")
            return
        if message.action.seen is not None and not self.camera:
            self._refuse(conn, "this table takes no camera descriptions; say it in words")
            return
        try:
            problem = player.answer(message.request_id, message.action)
        except Exception:  # a bug here must not end the connection in silence
            log.exception("table %s: could not take an answer from %s", self.id, self.names[conn.seat])
            problem = "the server could not take that answer because of an error; try again"
        if problem is not None:
            self._refuse(conn, problem)

    def _who(self, conn: Connection) -> str:
        return "a spectator" if conn.seat is None else self.names[conn.seat]

    def _refuse(self, conn: Connection, reason: str) -> None:
        """Answer a refused message with `reason`; log once per flood of them, not once per message.

        A flood is a run of refusals less than `FLOOD_GAP` seconds apart. Its first refusal is
        logged with its reason; the rest are counted and their number logged when the next flood
        starts or the tab leaves.
        """
        conn.send({"type": "error", "message": reason})
        now = time.monotonic()
        if conn.flood_started is not None and now - conn.last_refused < FLOOD_GAP:
            conn.unlogged += 1
            conn.last_refused = now
            return
        if conn.unlogged:
            self._log_flood_end(conn)
        log.warning("table %s: refused a message from %s: %s", self.id, self._who(conn), reason)
        conn.flood_started = conn.last_refused = now

    def _log_flood_end(self, conn: Connection) -> None:
        seconds = conn.last_refused - (conn.flood_started or conn.last_refused)
        log.warning(
            "table %s: refused %d more messages from %s within %.0f s (not logged one by one)",
            self.id,
            conn.unlogged,
            self._who(conn),
            seconds,
        )
        conn.unlogged = 0

    # ----------------------------------------------------------------- from seats
    def open_request(self, seat: int, request: Request, view: View, deadline_ms: int, number: int) -> None:
        """A person is asked `request` (their request `number`): show it on their tabs."""
        self.start_activity(seat, request, view)
        message = request_message(request, view, deadline_ms, number)
        self._requests[seat] = message
        self._to_seat(seat, message)

    def close_request(self, seat: int, number: int) -> None:
        """The person's request `number` is answered or timed out."""
        self._requests.pop(seat, None)
        self._to_seat(seat, {"type": "request_closed", "id": number})
        self.end_activity(seat)

    def start_activity(self, seat: int, request: Request, view: View) -> None:
        """`seat` is deciding `request`: tell whoever may know."""
        audience = activity_audience(request, view)
        message = {"type": "activity", "seat": seat, "state": "thinking", "kind": request.kind}
        self._activities[seat] = (message, audience)
        if request.is_talk:
            # Numbered per channel (even for talk, odd for whisper), so that the talk's numbers,
            # which everyone sees, do not count the wolves' whispers.
            channel = _CHANNELS.get(request.kind, 0)
            number = 2 * self._utterances[channel] + channel
            self._utterances[channel] += 1
            self._speech[seat] = _Speech(number, request.kind, audience)
        self.deliver(message, audience)

    def speech_piece(self, seat: int, piece: str) -> None:
        """A piece of `seat`'s utterance as it is spoken (the `on_token` callback of LLM agents)."""
        speech = self._speech.get(seat)
        if speech is None or not piece:
            return
        speech.streamed = True
        message = {
            "type": "speech",
            "seat": seat,
            "utterance_id": speech.utterance_id,
            "channel": speech.channel,
            "piece": piece,
        }
        self.deliver(message, speech.audience)
        self.audio.feed(seat, speech.utterance_id, piece, speech.audience)

    def speech_manner(self, seat: int, manner: Manner) -> None:
        """`seat`'s utterance is delivered in `manner` (the `on_manner` callback of LLM agents).

        Those who may hear the utterance get a `manner` message, so that the speaker's face changes
        as the voice starts, and its audio is spoken in that manner. A whisper's goes to the pack only.
        """
        speech = self._speech.get(seat)
        if speech is None or speech.manner == manner:
            return
        speech.manner = manner
        message = {
            "type": "manner",
            "seat": seat,
            "utterance_id": speech.utterance_id,
            "channel": speech.channel,
            "manner": manner.to_dict(),
        }
        self.deliver(message, speech.audience)
        self.audio.style(seat, speech.utterance_id, manner)

    def speech_whole(self, seat: int, text: str, manner: Manner | None = None) -> None:
        """An utterance given whole (not streamed): send its manner, if any, then the words as one piece."""
        speech = self._speech.get(seat)
        if speech is not None and not speech.streamed:
            if manner is not None:
                self.speech_manner(seat, manner)
            self.speech_piece(seat, text)

    def end_activity(self, seat: int) -> None:
        """`seat` has answered (or run out of time)."""
        speech = self._speech.pop(seat, None)
        if speech is not None and speech.streamed:
            end = {"type": "speech_end", "seat": seat, "utterance_id": speech.utterance_id}
            self.deliver(end, speech.audience)
        if speech is not None and (speech.streamed or speech.manner is not None):
            self.audio.finish(seat, speech.utterance_id, speech.audience)  # also forgets its manner
        entry = self._activities.pop(seat, None)
        if entry is not None:
            self.deliver({"type": "activity", "seat": seat, "state": "idle"}, entry[1])

    # ----------------------------------------------------------------- the game
    def _flush(self, upto: int) -> None:
        """Send out the game's events up to (not including) `upto`, each to the tabs that may see it."""
        events = self.session.game.events
        for event in events[self._released : upto]:
            for conn in self.connections:
                if self._sees(conn, event):
                    self._send_event(conn, event)
            if event.audience is None:
                if self._follow(event):
                    self.deliver(self._state(), None)
                self._after_public(event)
        self._released = max(self._released, upto)

    async def _release(self) -> None:
        """Send out the events the game made since the last release, holding back the end of a night.

        The first public event after a night (the dawn, or the end of the game) waits until the
        night has lasted `night_min` seconds since its start was released.
        """
        events = self.session.game.events
        end = len(events)
        for i in range(self._released, end):
            event = events[i]
            if event.audience is not None:
                continue
            if self._night_started is not None and event.phase != "night":
                self._flush(i)
                wait = self._night_started + self.night_min - time.monotonic()
                self._night_started = None
                if wait > 0:
                    await asyncio.sleep(wait)
            if isinstance(event, PhaseStarted) and event.phase == "night":
                self._flush(i + 1)
                self._night_started = self._night_t0 = time.monotonic()
        self._flush(end)

    def start(self) -> None:
        """Run the game as a background task on the running loop."""
        if self.task is None:
            self.task = asyncio.get_running_loop().create_task(self.run(), name=f"table-{self.id}")

    async def _before_batch(self, session: Session, batch: list[Request]) -> None:
        # A batch asking a person for their own night decision waits for the night's clock, and so
        # does everything released with it (the witch's wake-up, say): nothing reaches the person
        # at a time set by how long the wolves took.
        # (The night's first batch comes at its start however many wolves live: its events go out
        # at once, and start the clock.)
        released = self.night_clock() is None
        if released:
            await self._release()
        clock = self.night_clock()
        if clock is not None and any(self.kinds[r.seat] == "human" and r.kind not in WOLF_REQUESTS for r in batch):
            wait = clock - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
        if not released:
            await self._release()
        self.cost += len(batch) * len(self.names)

    def _after_answers(self, session: Session, batch: list[Request], answers: dict[int, Answer]) -> str | None:
        """End the game as a draw once it has cost more than its budget (seats x decisions)."""
        if self.cost_budget is not None and self.cost > self.cost_budget:
            log.warning("table %s: stopped, over its budget of %d seats x decisions", self.id, self.cost_budget)
            return f"the table used up its budget of {self.cost_budget} seats x decisions"
        return None

    async def run(self) -> None:
        """Play the game to its end through the session, then save and reveal it."""
        try:
            await self.session.run()
            await self._release()
            record = self.session.record()
            await self._save(record)
            self.record = record
            self._game_over = await asyncio.to_thread(self._reveal, record)
            self.deliver(self._game_over, None)
            await self.audio.close()
        except asyncio.CancelledError:
            if self.failure is None:
                self.failure = "the server is shutting down; this game was stopped"
            self.audio.cancel()
            if self._meter_task is not None:
                self._meter_task.cancel()
            raise
        except Exception as err:
            log.exception("table %s: the game stopped", self.id)
            self.failure = f"the game stopped because of a server error: {type(err).__name__}"
            self.deliver({"type": "error", "message": self.failure}, None)

    async def _save(self, record: GameRecord) -> None:
        if self.store_path is None:
            return
        path = self.store_path

        def save() -> None:
            from lycan.store import GameStore

            with GameStore(path) as store:
                store.save(record, run=self.store_run)

        try:
            await asyncio.to_thread(save)
        except Exception as err:  # a full disk must not hide the result from the players
            log.error("table %s: could not save game %s: %s", self.id, record.game_id, err)

    def _final_meter(self, record: GameRecord) -> list[dict[str, Any]] | None:
        """The meter from the public record as it stood just before the reveal, or None if beliefs fail."""
        if meter_cost(record.rules) > METER_MAX:
            return None
        try:
            readings = meter(view_at(record.events, record.rules, record.names, len(record.events) - 1))
        except Exception:
            log.exception("table %s: no final suspicion meter", self.id)
            return None
        return [r.to_dict() for r in readings]

    def _reveal(self, record: GameRecord) -> dict[str, Any]:
        over = record.events[-1]
        return {
            "type": "game_over",
            "game_id": record.game_id,
            "winner": record.winner,
            "reason": over.reason if isinstance(over, GameOver) else "",
            "roles": [
                {
                    "seat": s,
                    "name": self.names[s],
                    "role": role.value,
                    "team": team_of(role).value,
                    "kind": self.kinds[s],
                }
                for s, role in enumerate(record.roles)
            ],
            "replay": render_log(record.events, self.names),
            "meter": self._final_meter(record),
        }

    def summary(self) -> dict[str, Any]:
        """Public facts about the table, for lists."""
        return {
            "table": self.id,
            "preset": self.rules.name,
            "names": list(self.names),
            "kinds": self.kinds,
            "personas": self.persona_labels(),
            "day": self._day,
            "phase": self._phase,
            "finished": self.finished,
            "winner": self.record.winner if self.record is not None else None,
        }
