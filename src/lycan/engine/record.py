"""A finished game as data: rules, seed, seats, the full log and every answer received."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ulid import ULID

from lycan.engine.actions import answer_from_dict
from lycan.engine.events import Event, event_from_dict, event_to_dict
from lycan.engine.game import Decision, Game, Winner
from lycan.rules.roles import Role
from lycan.rules.ruleset import RuleSet


def new_game_id() -> str:
    """A fresh, time-sortable game id (a ULID, as the AIWolf protocol uses)."""
    return str(ULID())


@dataclass(frozen=True, slots=True)
class ModelCall:
    """One call a seat's agent made to its chat model, kept for the record only (no seat sees it).

    `reasoning` is the model's raw answer, private thoughts included; `error` says why it could
    not be used, if it could not.
    """

    seat: int
    request: int
    kind: str
    attempt: int = 0
    model: str = ""
    prompt_tokens: int = 0
    completion_tokens: int = 0
    latency_s: float = 0.0
    cached: bool = False
    reasoning: str = ""
    error: str = ""

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {f: getattr(self, f) for f in self.__dataclass_fields__}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ModelCall:
        """Inverse of `to_dict`."""
        return cls(**{f: data[f] for f in cls.__dataclass_fields__ if f in data})


@dataclass(frozen=True, slots=True)
class GameRecord:
    """Everything needed to store, replay and measure one game."""

    game_id: str
    rules: RuleSet
    seed: int
    names: tuple[str, ...]
    agents: tuple[str, ...]
    roles: tuple[Role, ...]
    winner: Winner
    events: tuple[Event, ...]
    decisions: tuple[Decision, ...]
    started_at: float = 0.0
    finished_at: float = 0.0
    meta: dict[str, Any] = field(default_factory=dict)
    model_calls: tuple[ModelCall, ...] = ()
    probe_days: tuple[int, ...] = ()
    """Days whose talk ended with the role probe (needed to replay the game)."""
    usage: dict[int, dict[str, Any]] = field(default_factory=dict)
    """Per seat, its agent's model-use counters (calls, prompt_tokens, completion_tokens, latency_s, ...)."""

    @property
    def n_days(self) -> int:
        """The day the game ended on."""
        return self.events[-1].day if self.events else 0

    @property
    def faults(self) -> int:
        """How many fallbacks replaced illegal or late answers."""
        return sum(1 for e in self.events if e.kind == "fault")

    @classmethod
    def from_game(
        cls,
        game: Game,
        *,
        agents: Sequence[str],
        game_id: str | None = None,
        started_at: float = 0.0,
        finished_at: float = 0.0,
        meta: dict[str, Any] | None = None,
        model_calls: Sequence[ModelCall] = (),
        usage: dict[int, dict[str, Any]] | None = None,
    ) -> GameRecord:
        """Freeze a finished `game`."""
        if game.winner is None:
            raise ValueError("the game has not finished")
        meta = dict(meta or {})
        return cls(
            game_id=game_id or new_game_id(),
            rules=game.rules,
            seed=game.seed,
            names=game.names,
            agents=tuple(agents),
            roles=game.roles,
            winner=game.winner,
            events=tuple(game.events),
            decisions=tuple(game.decisions),
            started_at=started_at,
            finished_at=finished_at,
            meta=meta,
            model_calls=tuple(model_calls),
            probe_days=game.probe_days,
            usage=dict(usage or {}),
        )

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form; `from_dict` inverts it exactly."""
        return {
            "game_id": self.game_id,
            "rules": self.rules.model_dump(mode="json"),
            "seed": self.seed,
            "names": list(self.names),
            "agents": list(self.agents),
            "roles": [r.value for r in self.roles],
            "winner": self.winner,
            "started_at": self.started_at,
            "finished_at": self.finished_at,
            "meta": self.meta,
            "events": [event_to_dict(e) for e in self.events],
            "decisions": [
                {"request": d.request, "seat": d.seat, "kind": d.kind, "answer": d.answer.to_dict()}
                for d in self.decisions
            ],
            "model_calls": [c.to_dict() for c in self.model_calls],
            "probe_days": list(self.probe_days),
            "usage": {str(seat): counters for seat, counters in self.usage.items()},
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GameRecord:
        """Rebuild a record from `to_dict` output.

        Raises:
            ValueError: a missing or malformed field (the message names it).

        """
        try:
            meta = dict(data.get("meta") or {})
            # Older records kept these two in `meta`.
            legacy_probe, legacy_usage = meta.pop("probe_days", None), meta.pop("usage", None)
            probe_days = data.get("probe_days") or legacy_probe or ()
            usage = data.get("usage") or legacy_usage or {}
            return cls(
                game_id=str(data["game_id"]),
                rules=RuleSet.model_validate(data["rules"]),
                seed=int(data["seed"]),
                names=tuple(data["names"]),
                agents=tuple(data["agents"]),
                roles=tuple(Role(r) for r in data["roles"]),
                winner=data["winner"],
                events=tuple(event_from_dict(e) for e in data["events"]),
                decisions=tuple(
                    Decision(int(d["request"]), int(d["seat"]), d["kind"], answer_from_dict(d["answer"]))
                    for d in data["decisions"]
                ),
                started_at=float(data.get("started_at", 0.0)),
                finished_at=float(data.get("finished_at", 0.0)),
                meta=meta,
                model_calls=tuple(ModelCall.from_dict(c) for c in data.get("model_calls") or ()),
                probe_days=tuple(int(d) for d in probe_days),
                usage={int(seat): dict(counters) for seat, counters in dict(usage).items()},
            )
        except KeyError as err:
            raise ValueError(f"game record is missing the field {err.args[0]!r}") from None
        except (TypeError, ValueError) as err:
            raise ValueError(f"game record is malformed: {err}") from None
