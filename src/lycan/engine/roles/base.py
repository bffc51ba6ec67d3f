"""The plug-in interface of a role: what a role may read and do in a game, and what it checks.

A role is a `RolePlugin` subclass in a module of its own. For each role dealt whose plug-in
overrides a hook, the engine makes one instance per game (holding that role's seats and state)
and calls its hooks at fixed points of the game; a hook the role does not override is never
called:

- `dusk(table, night)`: a night begins, before the werewolves whisper (the medium learns a reading).
- `night_requests(table, night)` and `resolve(table, night, answers)`: the requests it makes at night, asked at
  once together with every other role's, and what their answers do (the werewolves attack, the
  seer divines, the guardian guards). Roles are asked and resolved in `night_order`.
- `night_step(table, night)`: a step of its own after those, that may ask one request after another and
  knows tonight's attack (the witch).
- `on_death(table, seat, cause, night)`: a seat of this role has just died (the hunter shoots).
- `on_execution(table, seat, votes)`: the day's vote chose a seat of this role; a reason returned spares it
  (the village idiot).
- `may_vote(table, seat)`: whether a living seat of this role is asked to vote.

A role reads its options from `RuleOptions` (the one config surface; `options` names the fields
it reads) and acts on the game through `RoleContext`, never through the engine's internals. Its
invariants for the conformance kit are a `RoleChecks` subclass (`checks`), fed with the events of
every game the kit plays and with every request a seat gets.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Generator, Iterable, Mapping
from typing import Any, ClassVar, Literal, Protocol

from lycan.engine.actions import Action, Answer, Request, RequestInfo, RequestKind
from lycan.engine.events import (
    Died,
    Event,
    Executed,
    GameStarted,
    NightResolved,
    PhaseStarted,
    RoleAssigned,
    Visibility,
    VoteCast,
)
from lycan.rules.roles import Role
from lycan.rules.ruleset import RuleOptions, RuleSet

Answers = dict[int, Answer]
"""The answers to one batch of requests, by request id."""
Asking = Generator[list[Request], Answers, dict[int, Action]]
"""Asking a batch: yields requests, returns the legal action of every asked seat."""
Steps = Generator[list[Request], Answers, None]
"""A part of the game that may ask questions: yields batches of requests, receives their answers."""
DeathCause = Literal["night", "executed", "shot"]
Secrecy = Literal["public", "wolves", "actor", "seat", "record"]
"""Who may know an event by the rules: everyone, the werewolves, its `actor`, its `seat`, nobody."""


class Night:
    """The ledger of one night, filled in by the roles as they act.

    `attacked` is the werewolves' victim; `guarded` and `saved` protect a seat from the attack;
    `poisoned` seats die whatever protects them. `deaths()` is what the night kills, and the
    engine records the whole ledger as `NightResolved`.
    """

    __slots__ = ("attacked", "attacking", "day", "executed", "guarded", "living", "poisoned", "saved")

    def __init__(self, day: int, living: tuple[int, ...], *, attacking: bool, executed: int | None) -> None:
        self.day = day
        self.living = living
        self.attacking = attacking
        """Whether the werewolves attack tonight."""
        self.executed = executed
        """The seat the day's vote executed just before this night, if any."""
        self.attacked: int | None = None
        self.guarded: list[int] = []
        self.saved: list[int] = []
        self.poisoned: list[int] = []

    def deaths(self) -> list[int]:
        """The seats the night kills, in seat order."""
        deaths: list[int] = []
        attacked = self.attacked
        if attacked is not None and attacked not in self.guarded and attacked not in self.saved:
            deaths.append(attacked)
        for seat in self.poisoned:
            if seat not in deaths:
                deaths.append(seat)
        deaths.sort()
        return deaths


class RoleContext(Protocol):
    """What a role sees of the game it plays in, and what it may do (`lycan.engine.Game` is one)."""

    roles: tuple[Role, ...]
    names: tuple[str, ...]
    options: RuleOptions
    alive: list[bool]
    day: int
    team_rng: random.Random
    """The werewolves' own random stream: for draws whose outcome only they see."""

    def emit(
        self,
        cls: type[Event],
        *,
        audience: Iterable[int] | None = None,
        vis: Visibility | None = None,
        **fields: Any,
    ) -> Event:
        """Append an event to the log; `audience=None` makes it public."""
        ...

    def request(
        self,
        seat: int,
        kind: RequestKind,
        *,
        targets: tuple[int, ...] = (),
        can_pass: bool = False,
        can_skip: bool = False,
        max_length: int = 0,
        info: RequestInfo | None = None,
    ) -> Request:
        """A new request of `seat`, with its next request id."""
        ...

    def ask(self, requests: list[Request]) -> Asking:
        """Ask `requests` at once (retries and fallbacks included); returns each seat's legal action."""
        ...

    def living(self) -> list[int]:
        """Seats alive now."""
        ...

    def kill(self, seat: int, cause: DeathCause) -> None:
        """Kill `seat` and announce its death."""
        ...

    def after_death(self, seat: int, cause: DeathCause, night: Night | None = None) -> Steps:
        """Run what the role of `seat` does when it dies (after `kill`)."""
        ...


def describe(e: Event) -> str:
    """An event in a problem report: its kind, id and the seats it names."""
    fields = {k: getattr(e, k) for k in ("seat", "actor", "target", "channel") if hasattr(e, k)}
    return f"{e.kind} #{e.id} {fields}"


class RoleChecks:
    """The conformance kit's invariants of one role.

    The kit makes one instance per game it checks and feeds it every event of a type in
    `watches` (`event`), in log order, before it applies the event to `shadow`; and, while the
    game is played, every request of a kind in `asks` (`request`). Problems go to `fail`.
    """

    watches: ClassVar[tuple[type[Event], ...]] = ()
    asks: ClassVar[frozenset[str]] = frozenset()
    posthumous: ClassVar[tuple[type[Event], ...]] = ()
    """Event types whose actor has just died (the hunter's shot)."""

    def __init__(self, shadow: Shadow, out: list[str]) -> None:
        self.shadow = shadow
        self.options = shadow.options
        self._out = out

    def fail(self, problem: str) -> None:
        """Report a broken invariant."""
        self._out.append(problem)

    def event(self, e: Event) -> None:
        """Check one event of a watched type (the shadow is as it was before the event)."""

    def request(self, req: Request, where: str) -> None:
        """Check one request of a kind in `asks`; `where` names it for a report."""


class Shadow:
    """The state of a game as the conformance kit rebuilds it from the events alone.

    Shared by the kit and every role's checks. `roles` holds the roles known so far (all of them
    when a record is checked; those announced by `role_assigned` events during play); `names`
    the seat names.
    """

    def __init__(self, rules: RuleSet, roles: Iterable[Role | None] | None = None, names: Iterable[str] = ()) -> None:
        n = rules.n_players
        self.rules = rules
        self.names = tuple(names)
        """The seat names (from `game_started` during play)."""
        self.options = rules.options
        self.roles: list[Role | None] = list(roles) if roles is not None else [None] * n
        self.wolves: frozenset[int] = frozenset(s for s, r in enumerate(self.roles) if r is Role.WEREWOLF)
        self.alive = [True] * n
        self.day = 0
        self.attacked: int | None = None
        """Tonight's victim, once the werewolves chose (set by the werewolf's checks)."""
        self.resolved: NightResolved | None = None
        """The last night's ledger, from its end until the next night begins."""
        self.last_executed: int | None = None
        self.votes: Counter[int] = Counter()
        """The tally of the current vote round."""
        self.vote_round = -1
        self.just_died: set[int] = set()
        """Seats that died since the last phase started or night ended."""

    def apply(self, e: Event) -> None:
        """Update the shadow with one event (after it was checked)."""
        self.day = e.day
        if isinstance(e, Died):
            self.alive[e.target] = False
            self.just_died.add(e.target)
        elif isinstance(e, VoteCast):
            if e.round != self.vote_round:
                self.vote_round, self.votes = e.round, Counter()
            self.votes[e.target] += 1
        elif isinstance(e, Executed):
            self.last_executed = e.target
        elif isinstance(e, PhaseStarted):
            if e.phase == "night":
                self.attacked = None
                self.resolved = None
            self.vote_round = -1
            self.votes = Counter()
            self.just_died = set()
        elif isinstance(e, NightResolved):
            self.resolved = e
            self.just_died = set()
        elif isinstance(e, GameStarted):
            self.names = e.names
        elif isinstance(e, RoleAssigned):
            self.roles[e.seat] = e.role
            if e.role is Role.WEREWOLF:
                self.wolves = self.wolves | {e.seat}


class RolePlugin:
    """One role's rules in a game: override the hooks the role needs (see the module docstring).

    The game comes to every hook as `table`: a plug-in keeps no reference to it, so a finished
    game is freed at once rather than left to the cycle collector.

    Attributes:
        seats: the seats dealt this role.

    """

    role: ClassVar[Role]
    options: ClassVar[tuple[str, ...]] = ()
    """The `RuleOptions` fields this role reads."""
    requests: ClassVar[frozenset[RequestKind]] = frozenset()
    """Request kinds that only this role is asked."""
    posthumous: ClassVar[frozenset[RequestKind]] = frozenset()
    """Of `requests`, those asked of a seat that has just died."""
    droppable: ClassVar[frozenset[RequestKind]] = frozenset()
    """Of `requests`, those whose illegal answer is dropped, not asked again, under `invalid_target="ignore"`."""
    events: ClassVar[Mapping[type[Event], Secrecy]] = {}
    """The events this role adds to the log, and who may know each by the rules."""
    night_order: ClassVar[int] = 100
    """When the role acts at night: lower first."""
    checks: ClassVar[type[RoleChecks] | None] = None

    def __init__(self, seats: tuple[int, ...]) -> None:
        self.seats = seats

    def living_seats(self, table: RoleContext) -> list[int]:
        """This role's seats that are alive now."""
        alive = table.alive
        return [s for s in self.seats if alive[s]]

    def dusk(self, table: RoleContext, night: Night) -> None:
        """A night begins (before the werewolves whisper)."""

    def night_requests(self, table: RoleContext, night: Night) -> list[Request]:
        """The requests this role makes tonight, asked at once with every other role's."""
        return []

    def resolve(self, table: RoleContext, night: Night, answers: dict[int, Action]) -> None:
        """What the answers to `night_requests` do (called only if it made some).

        `answers` maps every seat asked in tonight's batch, of any role, to its legal action; a
        role reads those of its own seats (`self.seats`, in seat order).
        """

    def night_step(self, table: RoleContext, night: Night) -> Steps:
        """A step after every role's `resolve` that may ask one request after another."""
        yield from ()

    def on_death(self, table: RoleContext, seat: int, cause: DeathCause, night: Night | None) -> Steps:
        """`seat` of this role has just died (`night` is that night's ledger for a night death)."""
        yield from ()

    def on_execution(self, table: RoleContext, seat: int, votes: int) -> str | None:
        """The vote chose `seat` of this role with `votes` votes; a reason returned spares it."""
        return None

    def may_vote(self, table: RoleContext, seat: int) -> bool:
        """Whether the living `seat` of this role is asked to vote."""
        return True


HOOKS = ("dusk", "night_requests", "resolve", "night_step", "on_death", "on_execution", "may_vote")


_HOOKS_OF: dict[type[RolePlugin], frozenset[str]] = {}


def hooks_of(plugin: type[RolePlugin]) -> frozenset[str]:
    """The hooks `plugin` overrides (the engine calls no hook that does nothing)."""
    hooks = _HOOKS_OF.get(plugin)
    if hooks is None:
        hooks = _HOOKS_OF[plugin] = frozenset(h for h in HOOKS if getattr(plugin, h) is not getattr(RolePlugin, h))
    return hooks
