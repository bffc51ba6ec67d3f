"""Decision points as JSON-ready rows (one row, one sample), and back.

Columns:
- `game_id`, `preset` (the rules' name), `rules` (the full rule set as JSON when it is not the
  preset of that name, else None), `seat`, `role`, `names` (every seat's name, in seat order);
- the view: `day`, `phase`, `alive` (one flag per seat), `events` (the seat's visible events as
  `lycan.engine.events.event_to_dict` dicts, in log order);
- `request`: `id`, `kind`, `day`, `targets`, `can_pass`, `can_skip`, `max_length`, `timeout`,
  `attempt`, `error`, `info` (the kind's extra fields with a `type` key, or None);
- `action`: `kind`, `target` (None unless a seat was chosen), `text`, `amount`;
- `won`: whether the seat's side won; `split`: train, validation or test; `permutation`: the
  seat relabelling applied (`permutation[old] == new`; the identity for the original sample).
"""

from __future__ import annotations

from dataclasses import fields
from functools import lru_cache
from typing import Any

from lycan.data.augment import Perm, identity
from lycan.data.samples import DecisionPoint
from lycan.engine.actions import (
    Action,
    BidInfo,
    PotionInfo,
    ProbeInfo,
    Request,
    RequestInfo,
    TalkInfo,
    VoteInfo,
)
from lycan.engine.events import Event, event_from_dict, event_to_dict
from lycan.engine.view import View
from lycan.rules.presets import get_preset
from lycan.rules.roles import Role
from lycan.rules.ruleset import RuleSet

Row = dict[str, Any]

INFO_TYPES: dict[str, type[RequestInfo]] = {
    "talk": TalkInfo,
    "bid": BidInfo,
    "vote": VoteInfo,
    "potion": PotionInfo,
    "probe": ProbeInfo,
}
_INFO_NAMES = {cls: name for name, cls in INFO_TYPES.items()}


class EventEncoder:
    """`event_to_dict` with a memory: an event shared by many views is serialised once.

    Keep one encoder per game (and per relabelling): it holds the events it has seen.
    """

    def __init__(self) -> None:
        self._seen: dict[int, tuple[Event, dict[str, Any]]] = {}

    def __call__(self, event: Event) -> dict[str, Any]:
        """The event's dict (the same object each time for the same event)."""
        hit = self._seen.get(id(event))
        if hit is None or hit[0] is not event:
            hit = self._seen[id(event)] = (event, event_to_dict(event))
        return hit[1]


@lru_cache(maxsize=32)
def _preset_json(name: str) -> dict[str, Any] | None:
    try:
        return get_preset(name).model_dump(mode="json")
    except ValueError:
        return None


@lru_cache(maxsize=32)
def _preset(name: str) -> RuleSet:
    return get_preset(name)


def rules_column(rules: RuleSet) -> dict[str, Any] | None:
    """None if `rules` is the preset of its name (rebuilt from the name), else its full JSON."""
    dumped = rules.model_dump(mode="json")
    return None if _preset_json(rules.name) == dumped else dumped


def request_to_dict(request: Request) -> dict[str, Any]:
    """The `request` column."""
    info = request.info
    info_dict: dict[str, Any] | None = None
    if info is not None:
        info_dict = {"type": _INFO_NAMES[type(info)]}
        for f in fields(info):
            value = getattr(info, f.name)
            info_dict[f.name] = list(value) if isinstance(value, tuple) else value
    return {
        "id": request.id,
        "kind": request.kind,
        "day": request.day,
        "targets": list(request.targets),
        "can_pass": request.can_pass,
        "can_skip": request.can_skip,
        "max_length": request.max_length,
        "timeout": request.timeout,
        "attempt": request.attempt,
        "error": request.error,
        "info": info_dict,
    }


def request_from_dict(data: dict[str, Any], seat: int) -> Request:
    """Inverse of `request_to_dict` (the seat is the row's)."""
    info: RequestInfo | None = None
    raw = data.get("info")
    if raw is not None:
        values: dict[str, Any] = {k: tuple(v) if isinstance(v, list) else v for k, v in raw.items() if k != "type"}
        info = INFO_TYPES[raw["type"]](**values)
    return Request(
        id=int(data["id"]),
        seat=seat,
        kind=data["kind"],
        day=int(data["day"]),
        targets=tuple(int(t) for t in data["targets"]),
        can_pass=bool(data["can_pass"]),
        can_skip=bool(data["can_skip"]),
        max_length=int(data["max_length"]),
        timeout=float(data["timeout"]),
        attempt=int(data["attempt"]),
        error=data.get("error"),
        info=info,
    )


def action_to_dict(action: Action) -> dict[str, Any]:
    """The `action` column (probe guesses are not kept: probes make no samples)."""
    return {"kind": action.kind, "target": action.target, "text": action.text, "amount": action.amount}


def action_from_dict(data: dict[str, Any]) -> Action:
    """Inverse of `action_to_dict`."""
    target = data.get("target")
    return Action(
        data["kind"],
        target=None if target is None else int(target),
        text=str(data.get("text") or ""),
        amount=int(data.get("amount") or 0),
    )


def to_row(
    point: DecisionPoint,
    *,
    split: str = "",
    permutation: Perm | None = None,
    encode: EventEncoder | None = None,
) -> Row:
    """`point` as a JSON-ready row (see the module docstring for the columns).

    Args:
        point: the sample (already relabelled if `permutation` is given).
        split: its split.
        permutation: the relabelling it went through (default: the identity).
        encode: an event serialiser to share between the rows of one game (faster).
    """
    view = point.view
    enc = encode or EventEncoder()
    return {
        "game_id": point.game_id,
        "preset": view.rules.name,
        "rules": rules_column(view.rules),
        "seat": point.seat,
        "role": point.role.value,
        "names": list(view.names),
        "day": view.day,
        "phase": view.phase,
        "alive": list(view.alive),
        "events": [enc(e) for e in view.events],
        "request": request_to_dict(point.request),
        "action": action_to_dict(point.action),
        "won": point.won,
        "split": split,
        "permutation": list(permutation if permutation is not None else identity(len(view.names))),
    }


def row_rules(row: Row) -> RuleSet:
    """The rule set of a row: its own JSON if it has one, else the preset it names."""
    raw = row.get("rules")
    if raw is not None:
        return RuleSet.model_validate(raw)
    return _preset(str(row["preset"]))


def from_row(row: Row) -> DecisionPoint:
    """The `DecisionPoint` of a row, with its `View` rebuilt (the rules from `row_rules`).

    Raises:
        ValueError: an event, preset or field that does not fit.
    """
    seat = int(row["seat"])
    role = Role(row["role"])
    view = View(
        seat,
        role,
        tuple(row["names"]),
        row_rules(row),
        int(row["day"]),
        row["phase"],
        tuple(bool(a) for a in row["alive"]),
        tuple(event_from_dict(e) for e in row["events"]),
    )
    return DecisionPoint(
        view=view,
        request=request_from_dict(row["request"], seat),
        action=action_from_dict(row["action"]),
        won=bool(row["won"]),
        game_id=str(row["game_id"]),
        seat=seat,
        role=role,
    )
