"""What an agent asks of a value model, and the samples it learns from."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple, Protocol, runtime_checkable

from lycan.engine.actions import OVER, Action, Request
from lycan.engine.view import View
from lycan.value.encoders import TextEncoder
from lycan.value.features import Batch, candidate_features, collate, view_features


@runtime_checkable
class ValueModel(Protocol):
    """Scores candidate actions: P(win) for the seat of `view` if it answers `request` so."""

    def score(self, view: View, request: Request, candidates: Sequence[Action]) -> list[float]:
        """One probability of winning per candidate, in order."""
        ...


class Sample(NamedTuple):
    """One decision from a finished game: the seat's view, the request, its answer, and the outcome."""

    view: View
    request: Request
    action: Action
    won: bool


def as_sample(item: Any) -> Sample:
    """A `Sample` from a `(view, request, action, won)` tuple or any object with those attributes.

    Raises:
        TypeError: the item is neither.
    """
    if isinstance(item, Sample):
        return item
    if all(hasattr(item, name) for name in Sample._fields):
        return Sample(item.view, item.request, item.action, bool(item.won))
    if isinstance(item, tuple) and len(item) >= 4:
        return Sample(item[0], item[1], item[2], bool(item[3]))
    raise TypeError(
        f"a value sample is (view, request, action, won) or has those attributes, not {type(item).__name__}"
    )


def prepare(view: View, request: Request, candidates: Sequence[Action], encoder: TextEncoder, max_events: int) -> Batch:
    """The network inputs for one view and its candidates (a batch of one view)."""
    batch, _ = collate(
        [view_features(view, request, max_events=max_events)],
        [[candidate_features(view, a) for a in candidates]],
        encoder,
    )
    return batch


def state_value(model: ValueModel, view: View) -> float:
    """P(win) for the seat of `view` as things stand, without choosing among candidate actions.

    The network rates a seat's view together with one action; the state's own value is read as the
    value of letting the moment pass: ending one's talk (`Over`) at a talk request of the current
    day. It needs no legal request from a live game, so it works on any view, including views
    rebuilt from imported logs.
    """
    request = Request(id=0, seat=view.seat, kind="talk", day=view.day)
    return model.score(view, request, [OVER])[0]
