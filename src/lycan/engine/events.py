"""Typed events of the one append-only game log.

Every event has a stable `id`, the `day` and `phase` it happened in, and an `audience`: `None` for
public events, otherwise the seats that may see it (one seat, a team, or nobody for facts kept for
the record only). `vis` names the kind of visibility for people.

Ids are unique within a game and cite an event forever, but they are not positions in the full
log: a position would tell every reader how many hidden events came before (a night's gap in the
ids once revealed whether the seer was still alive). `EventIds` numbers each audience's events on
their own, so the id of an event is a function of what its readers can see.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Sequence
from typing import Any, ClassVar, Literal, cast

from pydantic import ConfigDict, TypeAdapter, ValidationError

from lycan.engine.frozen import sealed_kw, sealed_maker
from lycan.engine.manner import Manner
from lycan.engine.seen import Seen
from lycan.rules.roles import Role, Species

Phase = Literal["setup", "day", "night", "end"]
Visibility = Literal["public", "team", "seat", "system"]


class EventIds:
    """Assigns event ids that reveal nothing hidden from the event's readers.

    The id of the k-th event (k from 0) sent to one audience is `k * stride + code`, where the code
    names the audience: 0 public, 1 nobody (the record only), 2 the werewolf team, 3 + s seat s only,
    and `stride = n_players + 3`. A seat therefore sees ids computed from its own view alone (the
    public, team and seat events it receives), and two games that differ only in events hidden from
    it give it the same ids. One multi-seat audience (the werewolf team) is allowed per game.
    """

    __slots__ = ("_counts", "_public", "_stride", "_team")

    def __init__(self, n_players: int) -> None:
        self._stride = n_players + 3
        self._counts: dict[frozenset[int], int] = {}
        self._public = 0
        self._team: frozenset[int] | None = None

    def next_public(self) -> int:
        """The id of the next public event (the engine's hot path: most events are public)."""
        count = self._public
        self._public = count + 1
        return count * self._stride

    def next(self, audience: frozenset[int] | None) -> int:
        """The id of the next event sent to `audience` (None: public)."""
        if audience is None:
            return self.next_public()
        if len(audience) == 1:
            (seat,) = audience
            code = 3 + seat
        elif not audience:
            code = 1
        else:
            if self._team is None:
                self._team = audience
            elif audience != self._team:
                raise ValueError(f"a second team audience {sorted(audience)} besides {sorted(self._team)}")
            code = 2
        count = self._counts.get(audience, 0)
        self._counts[audience] = count + 1
        return count * self._stride + code


def expected_ids(events: Iterable[Event], n_players: int) -> list[int]:
    """The ids `EventIds` gives these events in this order (to check a log or a view)."""
    ids = EventIds(n_players)
    return [ids.next(e.audience) for e in events]


@sealed_kw
class Event:
    """Fields every event carries."""

    kind: ClassVar[str] = "event"
    __pydantic_config__: ClassVar[ConfigDict] = ConfigDict(extra="forbid")  # no unknown fields when read back
    id: int
    day: int
    phase: Phase
    vis: Visibility = "public"
    audience: frozenset[int] | None = None

    def visible_to(self, seat: int) -> bool:
        """Whether `seat` may see this event."""
        return self.audience is None or seat in self.audience


_BASE_FIELDS = ("id", "day", "phase", "vis", "audience")
"""The fields every event has, in order (the positional arguments of `event_maker`'s makers)."""


def _event_maker(cls: type[Event]) -> Callable[..., Event]:
    return sealed_maker(cls, len(_BASE_FIELDS))


event_maker = cast(Callable[[type[Event]], Callable[..., Event]], functools.cache(_event_maker))
"""The engine's fast constructor of an event class: `make(id, day, phase, vis, audience, **fields)`.

It makes the same event as `cls(id=id, day=day, phase=phase, vis=vis, audience=audience, **fields)`,
immutable as well, in about half the time (see `lycan.engine.frozen.sealed_maker`).
"""


@sealed_kw
class GameStarted(Event):
    """Public: the table, the names and the role counts (never who holds which role)."""

    kind: ClassVar[str] = "game_started"
    rules: str
    names: tuple[str, ...]
    role_counts: tuple[tuple[Role, int], ...]


@sealed_kw
class RoleAssigned(Event):
    """Seat-private: the role dealt to `seat`."""

    kind: ClassVar[str] = "role_assigned"
    seat: int
    role: Role


@sealed_kw
class WolfPack(Event):
    """Team-private: who the werewolves are."""

    kind: ClassVar[str] = "wolf_pack"
    members: tuple[int, ...]


@sealed_kw
class PhaseStarted(Event):
    """Public: a new day or night begins; `alive` lists the living seats."""

    kind: ClassVar[str] = "phase_started"
    alive: tuple[int, ...]


@sealed_kw
class Talk(Event):
    """An utterance (or `over`/`skip`) in the public talk or the werewolves' whisper channel."""

    kind: ClassVar[str] = "talk"
    actor: int
    text: str
    channel: Literal["talk", "whisper"] = "talk"
    turn: int = 0
    over: bool = False
    skip: bool = False
    manner: Manner | None = None
    seen: Seen | None = None


@sealed_kw
class BidPlaced(Event):
    """Public: a seat's bid for the floor under the `bidding` protocol."""

    kind: ClassVar[str] = "bid"
    actor: int
    amount: int


@sealed_kw
class VoteCast(Event):
    """Public: one seat's vote to execute `target` (shown once every vote is in)."""

    kind: ClassVar[str] = "vote"
    actor: int
    target: int
    round: int = 0


@sealed_kw
class Executed(Event):
    """Public: the day's vote executed `target`; `role` only if roles are revealed on death."""

    kind: ClassVar[str] = "executed"
    target: int
    votes: int
    role: Role | None = None


@sealed_kw
class NoExecution(Event):
    """Public: the vote ended without an execution."""

    kind: ClassVar[str] = "no_execution"
    reason: str


@sealed_kw
class AttackVote(Event):
    """Team-private: one werewolf's choice of victim."""

    kind: ClassVar[str] = "attack_vote"
    actor: int
    target: int


@sealed_kw
class AttackChosen(Event):
    """Team-private: the seat the werewolves attack tonight."""

    kind: ClassVar[str] = "attack_chosen"
    target: int


@sealed_kw
class Divined(Event):
    """Seat-private: a seer's divination and its result."""

    kind: ClassVar[str] = "divined"
    actor: int
    target: int
    result: Species


@sealed_kw
class MediumResult(Event):
    """Seat-private: the species of the seat executed today, as the medium learns it."""

    kind: ClassVar[str] = "medium_result"
    actor: int
    target: int
    result: Species


@sealed_kw
class Guarded(Event):
    """Seat-private: the guardian protects `target` tonight."""

    kind: ClassVar[str] = "guarded"
    actor: int
    target: int


@sealed_kw
class WitchWoken(Event):
    """Seat-private: the witch learns tonight's attack victim and the potions left."""

    kind: ClassVar[str] = "witch_woken"
    actor: int
    attacked: int | None
    cures: int
    poisons: int


@sealed_kw
class PotionUsed(Event):
    """Seat-private: the witch used a cure (`save`) or poison on `target`."""

    kind: ClassVar[str] = "potion_used"
    actor: int
    potion: Literal["cure", "poison"]
    target: int


@sealed_kw
class NightResolved(Event):
    """Record only: what really happened in the night (who was attacked, protected, poisoned)."""

    kind: ClassVar[str] = "night_resolved"
    attacked: int | None
    guarded: tuple[int, ...]
    saved: tuple[int, ...]
    poisoned: tuple[int, ...]
    deaths: tuple[int, ...]


@sealed_kw
class Died(Event):
    """Public: a seat died; `cause` is `night` for night deaths, never the hidden reason."""

    kind: ClassVar[str] = "died"
    target: int
    cause: Literal["night", "executed", "shot"]
    role: Role | None = None


@sealed_kw
class PeacefulNight(Event):
    """Public: nobody died in the night."""

    kind: ClassVar[str] = "peaceful_night"


@sealed_kw
class HunterShot(Event):
    """Public: a dying hunter shoots `target`."""

    kind: ClassVar[str] = "hunter_shot"
    actor: int
    target: int


@sealed_kw
class Fault(Event):
    """Seat-private: the seat's answer was late or illegal twice and a fallback was used."""

    kind: ClassVar[str] = "fault"
    seat: int
    request: str
    reasons: tuple[str, ...]
    fallback: str


@sealed_kw
class ProbeAnswered(Event):
    """Record only: a seat's answer to a measurement probe (never shown to any seat).

    `guesses` holds `(seat, role, probability or None)` triples; `error` says why there are
    none (the seat passed, failed, or answered illegally).
    """

    kind: ClassVar[str] = "probe_answered"
    seat: int
    guesses: tuple[tuple[int, Role, float | None], ...]
    error: str | None = None


@sealed_kw
class GameOver(Event):
    """Public: the winner and every seat's role (the full reveal)."""

    kind: ClassVar[str] = "game_over"
    winner: Literal["village", "werewolf", "draw"]
    roles: tuple[Role, ...]
    reason: str


EVENT_TYPES: dict[str, type[Event]] = {
    cls.kind: cls
    for cls in (
        GameStarted,
        RoleAssigned,
        WolfPack,
        PhaseStarted,
        Talk,
        BidPlaced,
        VoteCast,
        Executed,
        NoExecution,
        AttackVote,
        AttackChosen,
        Divined,
        MediumResult,
        Guarded,
        WitchWoken,
        PotionUsed,
        NightResolved,
        Died,
        PeacefulNight,
        HunterShot,
        Fault,
        ProbeAnswered,
        GameOver,
    )
}


def visible(log: Iterable[Event], seat: int) -> list[Event]:
    """The events of `log` that `seat` may see, in order: the one read path for a seat."""
    return [e for e in log if e.audience is None or seat in e.audience]


def public(log: Iterable[Event]) -> list[Event]:
    """The events anyone (a spectator) may see."""
    return [e for e in log if e.audience is None]


_ADAPTERS: dict[type[Event], TypeAdapter[Any]] = {}


def _adapter(cls: type[Event]) -> TypeAdapter[Any]:
    """The one serializer of an event type: a pydantic `TypeAdapter` over its dataclass."""
    adapter = _ADAPTERS.get(cls)
    if adapter is None:
        adapter = _ADAPTERS[cls] = TypeAdapter(cls)
    return adapter


def event_to_dict(event: Event) -> dict[str, Any]:
    """A JSON-ready dict of `event` (its `kind` first); `event_from_dict` inverts it exactly."""
    out: dict[str, Any] = {"kind": event.kind, **_adapter(type(event)).dump_python(event, mode="json")}
    if out["audience"] is not None:
        out["audience"] = sorted(out["audience"])  # a set: sorted so that equal events serialize alike
    if out.get("manner", 0) is None:
        del out["manner"]  # talk without a manner serializes as it did before manners existed
    if out.get("seen", 0) is None:
        del out["seen"]  # likewise talk without a camera's description
    return out


def event_from_dict(data: dict[str, Any]) -> Event:
    """Rebuild an event from `event_to_dict` output (through the same type adapter).

    Raises:
        ValueError: unknown kind or fields that do not fit it.

    """
    kind = data.get("kind")
    cls = EVENT_TYPES.get(str(kind))
    if cls is None:
        raise ValueError(f"unknown event kind {kind!r}")
    fields = {k: v for k, v in data.items() if k != "kind"}
    try:
        event: Event = _adapter(cls).validate_python(fields)
    except ValidationError as err:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in e['loc']) or 'the event'}: {e['msg']}" for e in err.errors()[:3]
        )
        raise ValueError(f"event kind {kind!r}: {problems}") from None
    return event


def seats_named(events: Sequence[Event]) -> tuple[str, ...]:
    """The seat names announced by the log's GameStarted event."""
    for e in events:
        if isinstance(e, GameStarted):
            return e.names
    raise ValueError("the log has no game_started event")
