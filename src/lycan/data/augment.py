"""Seat-label permutation: the same decision, told with the other seats renumbered.

Deep Wolf (seed 000) relabelled the other players' numbers in all 4! = 24 ways for 5 players so
that its value network would learn a structure that does not depend on who sits where. Here a
permutation `perm` maps each old seat to a new one (`perm[old] == new`); the deciding seat keeps
its own label (`perm[seat] == seat`), as in the seed, so its role, its private events and their
ids stay as the engine gave them. The names tuple itself never changes (seat i keeps name i):
what moves is every reference to a seat, so structured fields and text agree after relabelling.

What is relabelled, in every event:
- seat fields (`actor`, `target`, `seat`, `attacked`): `s -> perm[s]`;
- seat sets (`alive`, `members`, `audience`): mapped and sorted, as the engine writes them, so
  their order does not give the original labels away; seat lists with an order of their own
  (`guarded`, `saved`, `poisoned`, `deaths`) are mapped element by element;
- per-seat tuples (`GameOver.roles`): moved, `new[perm[s]] = old[s]`;
- probe guesses: their seat;
- text (`Talk.text`, reasons, fallbacks): every seat name, replaced by the name of the seat it
  now stands for, in one pass (no name is replaced twice).
The view's `alive` flags move like per-seat tuples; request targets and a potion request's
`attacked` are mapped; the action's target and text too.

Every field of every event type is classified below; an event type with a field that is not
raises at its first use, so a new field cannot slip through unpermuted.
"""

from __future__ import annotations

import itertools
import random
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import fields, replace
from functools import lru_cache
from typing import Any

from lycan.engine.actions import Action, PotionInfo, Request
from lycan.engine.events import EVENT_TYPES, Event
from lycan.engine.view import View

Perm = tuple[int, ...]
"""A seat relabelling: `perm[old] == new`."""

SEAT_FIELDS = frozenset({"actor", "target", "seat", "attacked"})
"""Event fields holding one seat (or None)."""
SEAT_SET_FIELDS = frozenset({"alive", "members", "audience"})
"""Event fields holding a set of seats (kept sorted)."""
SEAT_LIST_FIELDS = frozenset({"guarded", "saved", "poisoned", "deaths"})
"""Event fields holding seats in an order of their own."""
BY_SEAT_FIELDS = frozenset({"roles"})
"""Event fields holding one value per seat, in seat order."""
GUESS_FIELDS = frozenset({"guesses"})
"""Event fields of `(seat, role, probability)` triples."""
TEXT_FIELDS = frozenset({"text", "reason", "reasons", "fallback", "error"})
"""Event fields of free text (a string or a tuple of strings) that may name seats."""
PLAIN_FIELDS = frozenset(
    {
        "id",
        "day",
        "phase",
        "vis",
        "rules",
        "names",
        "role_counts",
        "role",
        "channel",
        "turn",
        "over",
        "skip",
        "amount",
        "round",
        "votes",
        "result",
        "cures",
        "poisons",
        "potion",
        "cause",
        "request",
        "winner",
        "manner",
        "seen",
    }
)
"""Event fields that hold no seat: left as they are."""


def identity(n: int) -> Perm:
    """The permutation that changes nothing."""
    return tuple(range(n))


def inverse(perm: Perm) -> Perm:
    """The permutation that undoes `perm`."""
    inv = [0] * len(perm)
    for old, new in enumerate(perm):
        inv[new] = old
    return tuple(inv)


def seat_permutations(n: int, seat: int, k: int | None = None, rng: random.Random | None = None) -> list[Perm]:
    """Relabellings of the seats other than `seat` (which keeps its label), identity first.

    Args:
        n: number of seats.
        seat: the deciding seat, fixed.
        k: how many; None or at least (n-1)! gives all (n-1)! of them (24 for 5 players).
        rng: draws the k-1 non-identity ones when k is smaller (required then).

    Raises:
        ValueError: k below 1, or a sample wanted without an rng.
    """
    if k is not None and k < 1:
        raise ValueError(f"ask for at least one permutation, not {k}")
    others = [s for s in range(n) if s != seat]
    total = 1
    for i in range(2, len(others) + 1):
        total *= i
        if k is not None and total > k:
            break
    if k is None or k >= total:
        return [_with_fixed(n, seat, others, p) for p in itertools.permutations(others)]
    if rng is None:
        raise ValueError("sampling permutations needs an rng")
    chosen: list[Perm] = [identity(n)]
    seen = {chosen[0]}
    while len(chosen) < k:
        shuffled = others[:]
        rng.shuffle(shuffled)
        perm = _with_fixed(n, seat, others, tuple(shuffled))
        if perm not in seen:
            seen.add(perm)
            chosen.append(perm)
    return chosen


def _with_fixed(n: int, seat: int, others: list[int], images: tuple[int, ...]) -> Perm:
    perm = [0] * n
    perm[seat] = seat
    for old, new in zip(others, images, strict=True):
        perm[old] = new
    return tuple(perm)


# ---------------------------------------------------------------------------- text
@lru_cache(maxsize=64)
def name_pattern(names: tuple[str, ...]) -> re.Pattern[str]:
    """Any one seat name of `names`, as a whole name (longest first, so `Player 13` wins over `Player 1`)."""
    alternatives = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
    return re.compile(rf"(?<![\w])(?:{alternatives})(?![\w])")


def permute_text(text: str, names: Sequence[str], perm: Perm) -> str:
    """`text` with every seat name `names[s]` replaced by `names[perm[s]]`, all in one pass.

    Names are matched exactly (case and all) and only as whole words: `Player 1` is not found
    inside `Player 13`.
    """
    if not text:
        return text
    key = tuple(names)
    index = {name: s for s, name in enumerate(key)}
    return name_pattern(key).sub(lambda m: key[perm[index[m.group(0)]]], text)


# ---------------------------------------------------------------------------- events
Mapper = Callable[[Any, Perm, Sequence[str]], Any]


def _seat(value: Any, perm: Perm, names: Sequence[str]) -> Any:
    return None if value is None else perm[value]


def _seat_set(value: Any, perm: Perm, names: Sequence[str]) -> Any:
    if value is None:
        return None
    mapped = sorted(perm[s] for s in value)
    return frozenset(mapped) if isinstance(value, frozenset) else tuple(mapped)


def _seat_list(value: Any, perm: Perm, names: Sequence[str]) -> Any:
    return tuple(perm[s] for s in value)


def _by_seat(value: Any, perm: Perm, names: Sequence[str]) -> Any:
    out = list(value)
    for old, item in enumerate(value):
        out[perm[old]] = item
    return tuple(out)


def _guesses(value: Any, perm: Perm, names: Sequence[str]) -> Any:
    return tuple((perm[s], role, p) for s, role, p in value)


def _text(value: Any, perm: Perm, names: Sequence[str]) -> Any:
    if value is None:
        return None
    if isinstance(value, str):
        return permute_text(value, names, perm)
    return tuple(permute_text(v, names, perm) for v in value)


_MAPPERS: tuple[tuple[frozenset[str], Mapper], ...] = (
    (SEAT_FIELDS, _seat),
    (SEAT_SET_FIELDS, _seat_set),
    (SEAT_LIST_FIELDS, _seat_list),
    (BY_SEAT_FIELDS, _by_seat),
    (GUESS_FIELDS, _guesses),
    (TEXT_FIELDS, _text),
)


class UnclassifiedField(TypeError):
    """An event field this module does not know how to relabel."""


_FIELD_MAPPERS: dict[type[Event], tuple[tuple[str, Mapper], ...]] = {}


def field_mappers(cls: type[Event]) -> tuple[tuple[str, Mapper], ...]:
    """The fields of event type `cls` that a relabelling changes, each with how.

    Raises:
        UnclassifiedField: a field that is in none of the field sets of this module.
    """
    known = _FIELD_MAPPERS.get(cls)
    if known is not None:
        return known
    out: list[tuple[str, Mapper]] = []
    for f in fields(cls):
        for names, mapper in _MAPPERS:
            if f.name in names:
                out.append((f.name, mapper))
                break
        else:
            if f.name not in PLAIN_FIELDS:
                raise UnclassifiedField(
                    f"{cls.__name__}.{f.name} is not classified for seat permutation; add it to a field set in "
                    "lycan.data.augment"
                )
    known = _FIELD_MAPPERS[cls] = tuple(out)
    return known


def unclassified_fields() -> list[str]:
    """`Type.field` for every field of the known event types that no field set names (should be empty)."""
    out = []
    for cls in EVENT_TYPES.values():
        try:
            field_mappers(cls)
        except UnclassifiedField as err:
            out.append(str(err).split(" ", 1)[0])
    return out


def permute_event(event: Event, perm: Perm, names: Sequence[str]) -> Event:
    """`event` with every seat reference relabelled by `perm` (its id is kept)."""
    changes = {name: mapper(getattr(event, name), perm, names) for name, mapper in field_mappers(type(event))}
    return replace(event, **changes) if changes else event


def permute_events(events: Iterable[Event], perm: Perm, names: Sequence[str]) -> tuple[Event, ...]:
    """Every event of `events` relabelled by `perm`."""
    return tuple(permute_event(e, perm, names) for e in events)


# ---------------------------------------------------------------------------- views, requests, actions
def permute_view(view: View, perm: Perm, *, events: Sequence[Event] | None = None) -> View:
    """`view` relabelled by `perm`: its seat, alive flags and events (pass `events` if already permuted)."""
    alive = _by_seat(view.alive, perm, view.names)
    return replace(
        view,
        seat=perm[view.seat],
        alive=alive,
        events=tuple(events) if events is not None else permute_events(view.events, perm, view.names),
    )


def permute_request(request: Request, perm: Perm) -> Request:
    """`request` relabelled by `perm`: its seat, targets (sorted) and a potion request's `attacked`."""
    info = request.info
    if isinstance(info, PotionInfo) and info.attacked is not None:
        info = replace(info, attacked=perm[info.attacked])
    return replace(request, seat=perm[request.seat], targets=tuple(sorted(perm[t] for t in request.targets)), info=info)


def permute_action(action: Action, perm: Perm, names: Sequence[str]) -> Action:
    """`action` relabelled by `perm`: its target, text and probe guesses."""
    return replace(
        action,
        target=None if action.target is None else perm[action.target],
        text=permute_text(action.text, names, perm),
        guesses=_guesses(action.guesses, perm, names),
    )
