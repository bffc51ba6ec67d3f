"""What an agent asks of a value model, and the samples it learns from."""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
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


CALIBRATION_FILE = "calibration.json"
"""The file beside a network that holds its `Calibration`."""


def _logit(p: float) -> float:
    q = min(max(p, 1e-6), 1 - 1e-6)
    return math.log(q) - math.log1p(-q)


@dataclass(frozen=True)
class Calibration:
    """How far to trust a value network on players it never saw, stored beside it (`calibration.json`).

    A network trained on one kind of player is overconfident about others. `apply` pulls its P(win)
    toward the win rate of the seat's role alone, on the logit scale:
    sigmoid(logit(rate) + alpha * (logit(p) - logit(rate))). alpha 1 keeps the network's figure, 0
    gives the role's rate. The pull does not depend on the candidate, so a view's candidates rank
    as before; only the figures change, which matters where P(win) is read as a probability
    (`state_value(model, view, calibration)`, `CalibratedValue`), not where an agent picks its best
    candidate. `lycan.train.value.fit_calibration` fits it on games of agent types the network was
    not trained on, of one preset (`preset`): the role rates are that preset's.
    """

    alpha: float
    """The weight of the network's own logit, in [0, 1]."""
    role_rates: dict[str, float]
    """The win rate of each role in the calibration games (the anchor)."""
    agents: tuple[str, ...] = ()
    """The agent types whose games it was fitted on."""
    decisions: int = 0
    """How many decisions it was fitted on."""
    games: int = field(default=0)
    """How many games of each agent type."""
    preset: str = "aiwolf5"
    """The rules of the calibration games (the role rates hold for them)."""

    def __post_init__(self) -> None:
        if not 0.0 <= self.alpha <= 1.0:
            raise ValueError(f"calibration alpha must lie in [0, 1], not {self.alpha}")
        for role, rate in self.role_rates.items():
            if not 0.0 <= rate <= 1.0:
                raise ValueError(f"calibration win rate of {role!r} must lie in [0, 1], not {rate}")

    def apply(self, p: float, role: str) -> float:
        """The network's P(win) `p` for a seat of `role`, pulled toward the role's rate (kept for an unseen role)."""
        rate = self.role_rates.get(role)
        if rate is None:
            return p
        a = _logit(rate)
        return 1.0 / (1.0 + math.exp(-(a + self.alpha * (_logit(p) - a))))

    def save(self, path: str | Path) -> Path:
        """Write the calibration as JSON to `path` (a file, or a network's folder)."""
        target = Path(path)
        if target.is_dir():
            target = target / CALIBRATION_FILE
        target.write_text(json.dumps(asdict(self), indent=1, sort_keys=True) + "\n", encoding="utf-8")
        return target

    @classmethod
    def load(cls, path: str | Path) -> Calibration:
        """A calibration written by `save` (`path` a file, or a network's folder).

        Raises:
            FileNotFoundError: there is no such file.
            ValueError: the file is not a calibration, with the file named.
        """
        target = Path(path)
        if target.is_dir():
            target = target / CALIBRATION_FILE
        try:
            data = json.loads(target.read_text(encoding="utf-8"))
            agents = data.get("agents", [])
            if not isinstance(agents, list) or not all(isinstance(a, str) for a in agents):
                raise TypeError(f"agents must be a list of agent types, not {agents!r}")
            return cls(
                alpha=float(data["alpha"]),
                role_rates={str(k): float(v) for k, v in data["role_rates"].items()},
                agents=tuple(agents),
                decisions=int(data.get("decisions", 0)),
                games=int(data.get("games", 0)),
                preset=str(data.get("preset", "aiwolf5")),
            )
        except FileNotFoundError:
            raise
        except (KeyError, TypeError, ValueError, AttributeError, UnicodeDecodeError) as err:
            raise ValueError(f"{target}: not a value network calibration ({err})") from None


class CalibratedValue:
    """A value model whose every P(win) is pulled toward the seat's role rate by a `Calibration`.

    For reading figures as probabilities about players the network never saw; the ranking of a
    view's candidates is the wrapped model's.
    """

    def __init__(self, model: ValueModel, calibration: Calibration) -> None:
        self.model = model
        self.calibration = calibration

    def score(self, view: View, request: Request, candidates: Sequence[Action]) -> list[float]:
        """The wrapped model's scores, calibrated."""
        role = view.role.value
        return [self.calibration.apply(p, role) for p in self.model.score(view, request, candidates)]


def state_value(model: ValueModel, view: View, calibration: Calibration | None = None) -> float:
    """P(win) for the seat of `view` as things stand, without choosing among candidate actions.

    The network rates a seat's view together with one action; the state's own value is read as the
    value of letting the moment pass: ending one's talk (`Over`) at a talk request of the current
    day. It needs no legal request from a live game, so it works on any view, including views
    rebuilt from imported logs. With a `calibration` (the shipped one: `default_calibration()`),
    the figure is pulled toward the role's win rate as far as players the network never saw need.
    """
    request = Request(id=0, seat=view.seat, kind="talk", day=view.day)
    p = model.score(view, request, [OVER])[0]
    return calibration.apply(p, view.role.value) if calibration is not None else p
