"""Features of one seat's view and of candidate actions, for the value network.

Everything here is computed from a `View` (what one seat may know) and a `Request`; nothing else
about the game is an input, so the features cannot leak hidden information. Seats are encoded
relative to the viewing seat (`(seat - own) mod n`, own seat = 0), so the network learns one
structure for every seat; role and seat are inputs, so one network serves every role and seat.

A view becomes a sequence of event tokens (the last `max_events` visible events) plus a global
token; each candidate action becomes a candidate token. Each token has categorical ids, a
multi-hot over relative seats (seats an utterance names, the living seats, the wolf pack), and an
utterance (embedded by a `TextEncoder` when a batch is built, so each distinct text is encoded
once and cached).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import get_args

import numpy as np

import lycan.engine.roles  # noqa: F401  (role plug-ins register their events first)
from lycan.engine.actions import Action, ActionKind, Request, RequestKind
from lycan.engine.events import EVENT_TYPES as ENGINE_EVENTS
from lycan.engine.events import (
    AttackChosen,
    AttackVote,
    BidPlaced,
    Died,
    Divined,
    Event,
    Executed,
    Fault,
    GameOver,
    Guarded,
    HunterShot,
    MediumResult,
    NightResolved,
    PhaseStarted,
    PotionUsed,
    ProbeAnswered,
    RoleAssigned,
    Talk,
    VoteCast,
    WitchWoken,
    WolfPack,
)
from lycan.engine.view import View
from lycan.rules.roles import Role, Species
from lycan.value.encoders import TextEncoder

MAX_SEATS = 16
"""Seats the features can tell apart (larger tables fold seats modulo this)."""
NO_SEAT = MAX_SEATS
MAX_DAY = 15

RECORD_ONLY: tuple[type[Event], ...] = (ProbeAnswered,)
"""Events no seat's view holds (the role probes' answers are measurements for the record)."""

EVENT_TYPES: tuple[type[Event], ...] = tuple(cls for cls in ENGINE_EVENTS.values() if cls not in RECORD_ONLY)
"""The event types a token can have, in the engine's order (`lycan.engine.events.EVENT_TYPES`).

Derived, so no event type can be missing here; a change to it changes the network's inputs, which
`tests/test_value.py` checks against the vocabulary the shipped network was trained with.
"""
_TYPE_ID = {cls: i + 1 for i, cls in enumerate(EVENT_TYPES)}  # 0: padding
PHASES = ("setup", "day", "night", "end")
ROLES = tuple(Role)
# 0: none; then the roles; then the two species a divination or a medium reading reports.
_ROLE_ID = {role: i + 1 for i, role in enumerate(ROLES)}
_SPECIES_ID = {Species.HUMAN: len(ROLES) + 1, Species.WEREWOLF: len(ROLES) + 2}
SUBS = (
    "none",
    "talk",
    "whisper",
    "over",
    "skip",
    "cure",
    "poison",
    "night",
    "executed",
    "shot",
    "revote",
    "bid0",
    "bid1",
    "bid2",
    "bid3",
    "potions00",
    "potions01",
    "potions10",
    "potions11",
    "village",
    "werewolf",
    "draw",
)
_SUB_ID = {s: i for i, s in enumerate(SUBS)}
REQUEST_KINDS: tuple[str, ...] = get_args(RequestKind)
"""The engine's request kinds (`lycan.engine.actions.RequestKind`), in its order."""
ACTION_KINDS: tuple[str, ...] = get_args(ActionKind)
"""The engine's action kinds (`lycan.engine.actions.ActionKind`), in its order."""

EVENT_FIELDS = ("type", "day", "phase", "actor", "target", "role", "sub")
GLOBAL_FIELDS = ("role", "seat", "players", "day", "phase", "request", "alive")
CANDIDATE_FIELDS = ("kind", "target")
VOCAB: dict[str, int] = {
    "type": len(EVENT_TYPES) + 2,  # + padding + unknown
    "day": MAX_DAY + 1,
    "phase": len(PHASES),
    "seat": MAX_SEATS + 1,
    "role": len(ROLES) + 3,
    "sub": len(SUBS),
    "players": MAX_SEATS + 1,
    "request": len(REQUEST_KINDS) + 1,
    "kind": len(ACTION_KINDS) + 1,
}
"""Vocabulary sizes of the categorical fields (actor and target use the `seat` vocabulary)."""
EVENT_VOCAB = ("type", "day", "phase", "seat", "seat", "role", "sub")
GLOBAL_VOCAB = ("role", "seat", "players", "day", "phase", "request", "players")
CANDIDATE_VOCAB = ("kind", "seat")


@dataclass(frozen=True, eq=False)
class ViewFeatures:
    """One view as arrays.

    `events` int64 (E, 7), `event_seats` float32 (E, MAX_SEATS), `texts` (one utterance per event,
    `""` for none), `glob` int64 (7,), `glob_seats` float32 (MAX_SEATS,).
    """

    events: np.ndarray
    event_seats: np.ndarray
    texts: tuple[str, ...]
    glob: np.ndarray
    glob_seats: np.ndarray

    def equals(self, other: ViewFeatures) -> bool:
        """Whether two feature sets are identical (for tests of determinism)."""
        return (
            self.texts == other.texts
            and np.array_equal(self.events, other.events)
            and np.array_equal(self.event_seats, other.event_seats)
            and np.array_equal(self.glob, other.glob)
            and np.array_equal(self.glob_seats, other.glob_seats)
        )


@dataclass(frozen=True, eq=False)
class CandidateFeatures:
    """One candidate action.

    `cat` int64 (2,) kind and relative target, `seats` float32 (MAX_SEATS,) the seats its utterance
    names, `text` the utterance (`""` for none).
    """

    cat: np.ndarray
    seats: np.ndarray
    text: str


def _rel(seat: int | None, own: int, n: int) -> int:
    if seat is None or not 0 <= seat < n:
        return NO_SEAT
    return ((seat - own) % n) % MAX_SEATS


@lru_cache(maxsize=64)
def _name_patterns(names: tuple[str, ...]) -> tuple[re.Pattern[str], ...]:
    return tuple(re.compile(rf"(?<!\w){re.escape(name)}(?!\w)", re.IGNORECASE) for name in names)


def mentioned_seats(text: str, names: tuple[str, ...], own: int) -> np.ndarray:
    """A multi-hot over relative seats: the seats whose names `text` contains."""
    out = np.zeros(MAX_SEATS, dtype=np.float32)
    if text:
        n = len(names)
        for seat, pattern in enumerate(_name_patterns(names)):
            if pattern.search(text):
                out[_rel(seat, own, n)] = 1.0
    return out


def _seats_hot(seats: Sequence[int], own: int, n: int) -> np.ndarray:
    out = np.zeros(MAX_SEATS, dtype=np.float32)
    for seat in seats:
        rel = _rel(seat, own, n)
        if rel != NO_SEAT:
            out[rel] = 1.0
    return out


def _role_id(role: Role | Species | None) -> int:
    if role is None:
        return 0
    if isinstance(role, Role):
        return _ROLE_ID[role]
    return _SPECIES_ID[role]


def _event_token(event: Event, view: View) -> tuple[list[int], np.ndarray, str]:
    """The categorical ids, seat multi-hot and utterance of one event."""
    own, n, names = view.seat, view.n_players, view.names
    actor: int | None = None
    target: int | None = None
    role: Role | Species | None = None
    sub = "none"
    seats: Sequence[int] = ()
    text = ""
    if isinstance(event, Talk):
        actor = event.actor
        sub = "over" if event.over else "skip" if event.skip else event.channel
        if not (event.over or event.skip):
            text = event.text
    elif isinstance(event, RoleAssigned):
        actor, role = event.seat, event.role
    elif isinstance(event, WolfPack):
        seats = event.members
    elif isinstance(event, PhaseStarted):
        seats = event.alive
    elif isinstance(event, BidPlaced):
        actor, sub = event.actor, f"bid{min(max(event.amount, 0), 3)}"
    elif isinstance(event, VoteCast):
        actor, target, sub = event.actor, event.target, "revote" if event.round else "none"
    elif isinstance(event, Executed):
        target, role = event.target, event.role
    elif isinstance(event, AttackVote | Guarded | HunterShot):
        actor, target = event.actor, event.target
    elif isinstance(event, AttackChosen):
        target = event.target
    elif isinstance(event, Divined | MediumResult):
        actor, target, role = event.actor, event.target, event.result
    elif isinstance(event, WitchWoken):
        actor, target = event.actor, event.attacked
        sub = f"potions{int(event.cures > 0)}{int(event.poisons > 0)}"
    elif isinstance(event, PotionUsed):
        actor, target, sub = event.actor, event.target, event.potion
    elif isinstance(event, Died):
        target, role, sub = event.target, event.role, event.cause
    elif isinstance(event, Fault):
        actor = event.seat
    elif isinstance(event, GameOver):
        sub = event.winner
    elif isinstance(event, NightResolved):
        seats = event.deaths
    cat = [
        _TYPE_ID.get(type(event), len(EVENT_TYPES) + 1),
        min(max(event.day, 0), MAX_DAY),
        PHASES.index(event.phase),
        _rel(actor, own, n),
        _rel(target, own, n),
        _role_id(role),
        _SUB_ID[sub],
    ]
    hot = mentioned_seats(text, names, own) if text else _seats_hot(seats, own, n)
    return cat, hot, text


def view_features(view: View, request: Request, *, max_events: int = 128) -> ViewFeatures:
    """The features of `view` when answering `request` (the last `max_events` events)."""
    events = [e for e in view.events if not isinstance(e, ProbeAnswered)][-max_events:]
    cats: list[list[int]] = []
    hots: list[np.ndarray] = []
    texts: list[str] = []
    for event in events:
        cat, hot, text = _event_token(event, view)
        cats.append(cat)
        hots.append(hot)
        texts.append(text)
    n = view.n_players
    glob = np.array(
        [
            _ROLE_ID[view.role],
            view.seat % MAX_SEATS,
            min(n, MAX_SEATS),
            min(max(view.day, 0), MAX_DAY),
            PHASES.index(view.phase),
            REQUEST_KINDS.index(request.kind) + 1 if request.kind in REQUEST_KINDS else 0,
            min(sum(view.alive), MAX_SEATS),
        ],
        dtype=np.int64,
    )
    return ViewFeatures(
        events=np.array(cats, dtype=np.int64).reshape(len(cats), len(EVENT_FIELDS)),
        event_seats=np.stack(hots) if hots else np.zeros((0, MAX_SEATS), dtype=np.float32),
        texts=tuple(texts),
        glob=glob,
        glob_seats=_seats_hot(view.living(), view.seat, n),
    )


def candidate_features(view: View, action: Action) -> CandidateFeatures:
    """The features of one candidate `action` for `view`'s seat."""
    kind = ACTION_KINDS.index(action.kind) + 1 if action.kind in ACTION_KINDS else 0
    text = action.text if action.kind == "speak" else ""
    return CandidateFeatures(
        cat=np.array([kind, _rel(action.target, view.seat, view.n_players)], dtype=np.int64),
        seats=mentioned_seats(text, view.names, view.seat),
        text=text,
    )


Batch = dict[str, np.ndarray]
"""Network inputs by name (see `BATCH_INPUTS`)."""
BATCH_INPUTS = (
    "events",
    "event_text",
    "event_seats",
    "event_pad",
    "glob",
    "glob_seats",
    "cand",
    "cand_text",
    "cand_seats",
)


def collate(
    views: Sequence[ViewFeatures],
    candidates: Sequence[Sequence[CandidateFeatures]],
    encoder: TextEncoder,
) -> tuple[Batch, np.ndarray]:
    """Pad views and their candidates into one batch of arrays; embed every utterance.

    Returns:
        The network inputs (`BATCH_INPUTS`) and a bool (B, K) mask of real candidates.
    """
    if len(views) != len(candidates):
        raise ValueError("collate needs one list of candidates per view")
    b = len(views)
    e = max(1, *(len(v.texts) for v in views)) if views else 1
    k = max(1, *(len(c) for c in candidates)) if candidates else 1
    dim = encoder.dim
    events = np.zeros((b, e, len(EVENT_FIELDS)), dtype=np.int64)
    event_seats = np.zeros((b, e, MAX_SEATS), dtype=np.float32)
    event_pad = np.ones((b, e), dtype=bool)
    cand = np.zeros((b, k, len(CANDIDATE_FIELDS)), dtype=np.int64)
    cand_seats = np.zeros((b, k, MAX_SEATS), dtype=np.float32)
    mask = np.zeros((b, k), dtype=bool)
    texts: list[str] = []
    text_rows: list[tuple[int, int, int]] = []  # (which: 0 event / 1 candidate, i, j)
    for i, (view, cands) in enumerate(zip(views, candidates, strict=True)):
        m = len(view.texts)
        events[i, :m] = view.events
        event_seats[i, :m] = view.event_seats
        event_pad[i, :m] = False
        for j, text in enumerate(view.texts):
            if text:
                texts.append(text)
                text_rows.append((0, i, j))
        for j, c in enumerate(cands):
            cand[i, j] = c.cat
            cand_seats[i, j] = c.seats
            mask[i, j] = True
            if c.text:
                texts.append(c.text)
                text_rows.append((1, i, j))
    event_pad[:, 0] = False  # an empty view still has one (padding) token to attend to
    event_text = np.zeros((b, e, dim), dtype=np.float32)
    cand_text = np.zeros((b, k, dim), dtype=np.float32)
    if texts:
        vecs = encoder.encode(texts)
        for (which, i, j), vec in zip(text_rows, vecs, strict=True):
            (event_text if which == 0 else cand_text)[i, j] = vec
    batch: Batch = {
        "events": events,
        "event_text": event_text,
        "event_seats": event_seats,
        "event_pad": event_pad,
        "glob": np.stack([v.glob for v in views]) if views else np.zeros((0, len(GLOBAL_FIELDS)), dtype=np.int64),
        "glob_seats": np.stack([v.glob_seats for v in views]) if views else np.zeros((0, MAX_SEATS), dtype=np.float32),
        "cand": cand,
        "cand_text": cand_text,
        "cand_seats": cand_seats,
    }
    return batch, mask
