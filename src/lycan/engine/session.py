"""The one driver of games: every front end plays through `Session`.

`Game.play()` is a generator of request batches; this module alone advances it (`gen.send`). A
front end differs from another only by its seats and its hooks:

- a **seat** answers `(view, request) -> Answer` and never raises: `LocalSeat` wraps an agent and
  owns the timeout and exception policy, `ReplaySeat` answers from a record, and the AIWolf server
  and the web table bring seats of their own (a remote agent, a person in a browser);
- **hooks** run before each batch (the AIWolf server's daily packets), on new events (browser
  frames, terminal narration, voices) and after each batch's answers (an abort rule such as the
  AIWolf error ratio).

The session also gives every game its context: each seat is told the game id when the game begins
(`begin_game`), which LLM agents use as their model-cache and recording scope, so no agent has to
guess where a game starts; the model calls seats report are gathered into the record
(`GameRecord.model_calls`), visible to no seat.

Stepping by hand (PettingZoo, tests): `start()` gives the first batch, `send(answers)` the next
(None once the game is over), `record()` the finished game.
"""

from __future__ import annotations

import asyncio
import inspect
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from lycan.engine.actions import Action, Answer, Failure, Request
from lycan.engine.events import Event
from lycan.engine.game import Answers, Decision, Game, Play
from lycan.engine.record import GameRecord, ModelCall, new_game_id
from lycan.engine.view import PublicView, View
from lycan.rules.roles import Role
from lycan.rules.ruleset import RuleSet


@runtime_checkable
class Player(Protocol):
    """What an agent offers: an answer to each request, given only its seat's view."""

    async def act(self, view: View, request: Request) -> Action:
        """Answer `request`."""
        ...


@runtime_checkable
class SyncPlayer(Player, Protocol):
    """An agent that can answer at once, without an event loop."""

    def decide(self, view: View, request: Request) -> Action:
        """Answer `request` synchronously."""
        ...


@runtime_checkable
class Seat(Protocol):
    """Anything that can sit at a table: answers every request and never raises.

    Everything the session asks of a seat is declared here; `SeatBase` gives the defaults.
    """

    label: str
    can_answer_now: bool
    """Whether the seat can answer at once, without an event loop (`answer_now`)."""
    reports_model_calls: bool
    """Whether `drain` may return model calls (the session asks only those that do)."""

    async def answer(self, view: View, request: Request) -> Answer:
        """The seat's answer; a failure is a `Failure`, never an exception."""
        ...

    def begin_game(self, game_id: str, seat: int) -> None:
        """A game begins: its id (the model-cache and recording scope) and this seat's number."""
        ...

    def drain(self) -> Sequence[ModelCall]:
        """The seat's model calls since last asked (for the record)."""
        ...


class SeatBase:
    """The defaults of a `Seat`: answers only asynchronously, ignores the game's start, reports no model calls."""

    is_seat = True
    label = "seat"
    can_answer_now = False
    reports_model_calls = False

    def begin_game(self, game_id: str, seat: int) -> None:
        """Nothing to do when a game begins."""
        return None

    def drain(self) -> Sequence[ModelCall]:
        """No model calls."""
        return ()


@runtime_checkable
class SyncSeat(Seat, Protocol):
    """A seat that can answer without an event loop (the fast path for simulation)."""

    def answer_now(self, view: View, request: Request) -> Answer:
        """The seat's answer, at once."""
        ...


def label_of(player: object) -> str:
    """A short name for an agent or seat in records and tables."""
    return str(getattr(player, "label", None) or getattr(player, "name", None) or type(player).__name__)


_ANSWER_TYPES = (Action, Failure)


def _checked(answer: object) -> Answer:
    if isinstance(answer, _ANSWER_TYPES):
        return answer
    return Failure(f"answer must be an Action, got {type(answer).__name__}")


_AGENT_DECIDES = object()


class LocalSeat(SeatBase):
    """An agent in this process. It owns the timeout and the exception policy.

    Args:
        player: the agent (`act`, and `decide` if it can answer at once).
        timeout: seconds per request; default: the agent's own `timeout` attribute if it has one
            (None: no limit, e.g. a person at a terminal), else the request's timeout from the rules.
    """

    def __init__(self, player: Player, timeout: float | object | None = _AGENT_DECIDES) -> None:
        self.player = player
        self.label = label_of(player)
        self._timeout = timeout
        decide = getattr(player, "decide", None)
        self.can_answer_now = callable(decide)
        drain = getattr(player, "drain_model_calls", None)
        self._drain: Callable[[], Sequence[ModelCall]] | None = drain if callable(drain) else None
        self.reports_model_calls = self._drain is not None

    def drain(self) -> Sequence[ModelCall]:
        """The agent's model calls since last asked (its `drain_model_calls`, if it has one)."""
        return self._drain() if self._drain is not None else ()

    def timeout_for(self, request: Request) -> float | None:
        """The time this seat has for `request`."""
        if self._timeout is not _AGENT_DECIDES:
            return self._timeout  # type: ignore[return-value]
        return getattr(self.player, "timeout", request.timeout)

    def begin_game(self, game_id: str, seat: int) -> None:
        """Tell the agent a new game begins (its cache and recording scope), if it listens."""
        begin = getattr(self.player, "begin_game", None)
        if callable(begin):
            begin(game_id, seat)

    def answer_now(self, view: View, request: Request) -> Answer:
        """The agent's `decide`, with any exception turned into a failure."""
        try:
            answer = self.player.decide(view, request)  # type: ignore[attr-defined]
        except Exception as err:  # an agent's bug must not end the game
            return Failure(f"agent error: {type(err).__name__}: {err}")
        return answer if isinstance(answer, _ANSWER_TYPES) else _checked(answer)

    async def answer(self, view: View, request: Request) -> Answer:
        """The agent's `act` under the seat's timeout; exceptions and lateness become failures."""
        timeout = self.timeout_for(request)
        try:
            async with asyncio.timeout(timeout):
                return _checked(await self.player.act(view, request))
        except TimeoutError:
            return Failure(f"no answer within {timeout:g} s")
        except Exception as err:  # an agent's bug must not end the game
            return Failure(f"agent error: {type(err).__name__}: {err}")


class ReplayMismatch(ValueError):
    """The recorded answers do not fit the requests the engine makes."""


class ReplaySeat(SeatBase):
    """Answers from a record's decisions, by request id (a replay needs no agent)."""

    label = "replay"
    can_answer_now = True

    def __init__(self, decisions: Mapping[int, Decision]) -> None:
        self.decisions = decisions

    def answer_now(self, view: View, request: Request) -> Answer:
        """The recorded answer.

        Raises:
            ReplayMismatch: the record has no answer that fits (the only seat allowed to raise:
                a replay that does not fit its record must stop, not fall back).
        """
        d = self.decisions.get(request.id)
        if d is None or d.seat != request.seat or d.kind != request.kind:
            raise ReplayMismatch(
                f"no recorded answer fits request {request.id} ({request.kind} for seat {request.seat})"
            )
        return d.answer

    async def answer(self, view: View, request: Request) -> Answer:
        """Same as `answer_now`."""
        return self.answer_now(view, request)


def as_seat(player: object) -> Seat:
    """`player` itself if it is a seat (a `SeatBase`, or anything with all of `Seat`), else the agent in a `LocalSeat`.

    Raises:
        TypeError: an object that says it is a seat (`is_seat = True`) but lacks part of `Seat`.
    """
    if isinstance(player, SeatBase):
        return player  # type: ignore[return-value]
    if getattr(player, "is_seat", False):
        if not isinstance(player, Seat):
            missing = [m for m in ("label", "can_answer_now", "reports_model_calls", "begin_game", "drain")
                       if not hasattr(player, m)]  # fmt: skip
            raise TypeError(f"{type(player).__name__} says it is a seat but lacks {', '.join(missing)} (see SeatBase)")
        return player
    return LocalSeat(player)  # type: ignore[arg-type]


Hook = Callable[..., Awaitable[None] | None]
EventHook = Callable[[Event], None]


@dataclass
class Hooks:
    """What a front end does around the game; every hook is optional and may be async.

    Attributes:
        before_batch: `(session, batch)` before a batch is asked (AIWolf: daily packets).
        on_event: `(event)` for every new event, in log order (frames, narration, voices).
        after_answers: `(session, batch, answers) -> str | None`: a reason to abort the game
            (e.g. too many errored agents), or None to go on.
    """

    before_batch: Hook | None = None
    on_event: EventHook | None = None
    after_answers: Callable[[Session, list[Request], Answers], str | None] | None = None


async def _maybe_await(value: Awaitable[None] | None) -> None:
    if inspect.isawaitable(value):
        await value


class Session:
    """One game in progress, driven by its seats and hooks.

    Args:
        rules: the rule set.
        seats: one per seat, in seat order: `Seat`s, or agents (wrapped in `LocalSeat`).
        seed: the game's seed (see `lycan.engine.seeds`).
        names: seat names (default `Player 1` ...).
        game_id: the record's id (default a new ULID); also every seat's model scope.
        probe_days: see `Game`.
        deal: see `Game` (roles by seat; default: drawn from the seed).
        hooks: the front end's hooks.
        meta: extra data for the record's `meta`.

    Raises:
        ValueError: as many seats as the rules have players are needed.
    """

    def __init__(
        self,
        rules: RuleSet,
        seats: Sequence[object],
        seed: int,
        *,
        names: Sequence[str] | None = None,
        game_id: str | None = None,
        probe_days: Sequence[int] = (),
        deal: Sequence[Role] | None = None,
        hooks: Hooks | None = None,
        meta: Mapping[str, Any] | None = None,
    ) -> None:
        if len(seats) != rules.n_players:
            raise ValueError(f"{rules.name} needs {rules.n_players} players, got {len(seats)}")
        self.game = Game(rules, seed, names, probe_days=probe_days, deal=deal)
        self.seats: list[Seat] = [as_seat(s) for s in seats]
        self.game_id = game_id or new_game_id()
        self.hooks = hooks or Hooks()
        self.meta: dict[str, Any] = dict(meta or {})
        self.aborted: str | None = None
        self.started_at = 0.0
        self._gen: Play | None = None
        self._sent = 0
        self._calls: list[ModelCall] = []
        self._drains = [seat.drain for seat in self.seats if seat.reports_model_calls]
        self._batch: list[Request] | None = None

    # ----------------------------------------------------------------- stepping
    @property
    def finished(self) -> bool:
        """Whether the game is over."""
        return self._gen is not None and self._batch is None

    def view(self, seat: int) -> View:
        """What `seat` knows now."""
        return self.game.view(seat)

    def public_view(self) -> PublicView:
        """What everyone knows now: the view of a spectator (no seat)."""
        game = self.game
        return PublicView(
            names=game.names,
            rules=game.rules,
            day=game.day,
            phase=game.phase,
            alive=tuple(game.alive),
            events=game.public,
        )

    def start(self) -> list[Request] | None:
        """Begin the game: tell every seat, and return the first batch of requests."""
        if self._gen is not None:
            raise RuntimeError("this session has already started")
        self.started_at = time.time()
        for s, seat in enumerate(self.seats):
            seat.begin_game(self.game_id, s)
        self._gen = self.game.play()
        return self._advance(None)

    def send(self, answers: Answers) -> list[Request] | None:
        """Give the answers to the current batch; returns the next batch (None: the game is over)."""
        if self._gen is None or self._batch is None:
            raise RuntimeError("there is no open batch: start() the session, and stop once send() returns None")
        if self._drains:
            self._collect_calls()
        if self.hooks.after_answers is not None and self.aborted is None:
            reason = self.hooks.after_answers(self, self._batch, answers)
            if reason:
                self.aborted = reason
                self.game.abort(reason)
        return self._advance(answers)

    def _advance(self, answers: Answers | None) -> list[Request] | None:
        assert self._gen is not None
        try:
            batch = next(self._gen) if answers is None else self._gen.send(answers)
        except StopIteration:
            batch = None
        self._batch = batch
        if self.hooks.on_event is not None:
            self.flush()
        return batch

    def flush(self) -> None:
        """Pass events not yet seen to the `on_event` hook."""
        hook = self.hooks.on_event
        if hook is None:
            return
        events = self.game.events
        for event in events[self._sent :]:
            hook(event)
        self._sent = len(events)

    def _collect_calls(self) -> None:
        for drain in self._drains:
            self._calls.extend(drain())

    # ----------------------------------------------------------------- answering
    def answer_now(self, batch: list[Request]) -> Answers:
        """Every request of `batch` answered at once (every seat must be able to)."""
        seats, view = self.seats, self.game.view
        out: Answers = {}
        for req in batch:
            out[req.id] = seats[req.seat].answer_now(view(req.seat), req)  # type: ignore[attr-defined]
        return out

    async def answer(self, batch: list[Request]) -> Answers:
        """Every request of `batch` asked of its seat, concurrently."""
        if len(batch) == 1:
            req = batch[0]
            return {req.id: await self.seats[req.seat].answer(self.game.view(req.seat), req)}
        results = await asyncio.gather(*(self.seats[r.seat].answer(self.game.view(r.seat), r) for r in batch))
        return {r.id: a for r, a in zip(batch, results, strict=True)}

    @property
    def all_answer_now(self) -> bool:
        """Whether every seat can answer without an event loop."""
        return all(s.can_answer_now for s in self.seats)

    # ----------------------------------------------------------------- whole games
    def run_sync(self) -> GameRecord:
        """Play the whole game without an event loop (every seat must answer at once)."""
        if not self.all_answer_now:
            raise ValueError("run_sync needs seats that answer at once; use `await session.run()`")
        if self.hooks.before_batch is not None:
            raise ValueError("run_sync cannot call a before_batch hook; use `await session.run()`")
        batch = self.start()
        hooks = self.hooks
        if batch is not None and not self._drains and hooks.on_event is None and hooks.after_answers is None:
            # nothing to do between batches: drive the game directly (what `send` does, less its checks)
            gen, view = self._gen, self.game.view
            assert gen is not None
            answer = [seat.answer_now for seat in self.seats]  # type: ignore[attr-defined]
            while batch is not None:
                answers = {req.id: answer[req.seat](view(req.seat), req) for req in batch}
                try:
                    batch = gen.send(answers)
                except StopIteration:
                    batch = None
                self._batch = batch
            return self.record()
        while batch is not None:
            batch = self.send(self.answer_now(batch))
        return self.record()

    async def run(self) -> GameRecord:
        """Play the whole game; simultaneous decisions are asked concurrently."""
        batch = self.start()
        while batch is not None:
            if self.hooks.before_batch is not None:
                await _maybe_await(self.hooks.before_batch(self, batch))
            batch = self.send(await self.answer(batch))
        return self.record()

    def record(self, **meta: Any) -> GameRecord:
        """The finished game as a `GameRecord` (usage per seat and the model calls included)."""
        merged = {**self.meta, **meta}
        usage = {s: u for s, seat in enumerate(self.seats) if (u := usage_of(seat)) is not None}
        names = self.game.names
        personas = {names[s]: p for s, seat in enumerate(self.seats) if (p := persona_dict(seat)) is not None}
        if personas:
            merged.setdefault("personas", personas)
        if self.aborted:
            merged.setdefault("aborted", self.aborted)
        return GameRecord.from_game(
            self.game,
            agents=[seat.label for seat in self.seats],
            game_id=self.game_id,
            started_at=self.started_at,
            finished_at=time.time(),
            meta=merged,
            model_calls=tuple(self._calls),
            usage=usage,
        )


def persona_dict(seat_or_player: object) -> dict[str, Any] | None:
    """A player's persona as a dict (its `persona` attribute's `to_dict()`), or None if it has none."""
    player = getattr(seat_or_player, "player", seat_or_player)
    to_dict = getattr(getattr(player, "persona", None), "to_dict", None)
    return to_dict() if callable(to_dict) else None


def usage_of(seat_or_player: object) -> dict[str, Any] | None:
    """A player's model-usage counters as a dict (its `usage` attribute), or None if it has none."""
    player = getattr(seat_or_player, "player", seat_or_player)
    usage = getattr(player, "usage", None)
    if usage is None:
        return None
    if hasattr(usage, "to_dict"):
        usage = usage.to_dict()
    return dict(usage) if isinstance(usage, Mapping) else None
