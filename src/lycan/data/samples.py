"""Viewpoint samples: one per (game, seat, decision point), with only what that seat saw.

A stored game is replayed through the one driver (`lycan.engine.session.Session`) with its
recorded answers; a recording seat keeps, for every request, the view the engine gave the seat
(its events frozen as a tuple, since the engine's list keeps growing), the request and the answer.
Probe requests (a measurement outside the rules) and answers the engine refused (an illegal or
late answer that was retried or replaced by a fallback) give no sample: a sample's action is
always one the engine accepted from the seat itself.

A record without recorded answers (a game imported from an AIWolf log, say) is read from its
events instead (`event_points`): every act in the log (a talk line, a vote, an attack vote, a
divination, a protection, a potion, a hunter's shot) becomes a decision point with the actor's
view just before it (`lycan.engine.stepping.view_at`) and a request rebuilt from what the rules
allowed then (the living seats as targets).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace

from lycan.engine.actions import Action, Answer, Request, RequestKind
from lycan.engine.events import AttackVote, Divined, Event, Guarded, HunterShot, PotionUsed, Talk, VoteCast
from lycan.engine.game import Decision
from lycan.engine.record import GameRecord
from lycan.engine.session import ReplaySeat, SeatBase, Session
from lycan.engine.stepping import view_at
from lycan.engine.view import View
from lycan.rules.roles import Role, team_of


@dataclass(frozen=True, slots=True)
class DecisionPoint:
    """One decision a seat made, seen from that seat only.

    Attributes:
        view: what the seat knew when it was asked (its visible events only, as a tuple).
        request: what the engine asked.
        action: the answer the engine accepted.
        won: whether the seat's side won the game.
        game_id: the game's id.
        seat: the seat that decided.
        role: the seat's role.
    """

    view: View
    request: Request
    action: Action
    won: bool
    game_id: str
    seat: int
    role: Role


@dataclass(frozen=True, slots=True)
class Asked:
    """One request as a seat received it during a replay: the view (frozen), the request, the answer."""

    view: View
    request: Request
    answer: Answer


class RecordingSeat(SeatBase):
    """A seat that answers from a record and keeps every (view, request, answer) it handled.

    Args:
        decisions: the record's decisions by request id.
    """

    label = "replay"
    can_answer_now = True

    def __init__(self, decisions: Mapping[int, Decision]) -> None:
        self._replay = ReplaySeat(decisions)
        self.asked: list[Asked] = []

    def answer_now(self, view: View, request: Request) -> Answer:
        """The recorded answer; the view is frozen with a copy of its events."""
        answer = self._replay.answer_now(view, request)
        self.asked.append(Asked(replace(view, events=tuple(view.events)), request, answer))
        return answer

    async def answer(self, view: View, request: Request) -> Answer:
        """Same as `answer_now`."""
        return self.answer_now(view, request)


def replay_asked(record: GameRecord) -> list[Asked]:
    """Every request of `record`, in the order the engine made them, with the view and the answer.

    Raises:
        lycan.engine.ReplayMismatch: the record's answers do not fit the requests the engine makes.
    """
    seat = RecordingSeat({d.request: d for d in record.decisions})
    session = Session(
        record.rules,
        [seat] * record.rules.n_players,
        record.seed,
        names=record.names,
        game_id=record.game_id,
        probe_days=record.probe_days,
    )
    batch = session.start()
    while batch is not None:
        batch = session.send(session.answer_now(batch))
    return seat.asked


def accepted(asked: list[Asked]) -> Iterator[tuple[Asked, Action]]:
    """The answers the engine accepted, in order: the engine's own judgement, replayed.

    An answer is accepted when the request finds it legal (`Request.check`) and, under a
    no-repeat talk protocol, the seat has not said the same sentence before (the engine keeps
    every sentence a seat said, on any channel). A refused answer is retried once (a new request
    with `attempt + 1`) and then replaced by a fallback; neither the refused answer nor the
    fallback is the seat's own accepted choice.
    """
    said: dict[int, set[str]] = {}
    for item in asked:
        req, answer = item.request, item.answer
        if not isinstance(answer, Action) or req.check(answer) is not None:
            continue
        if answer.kind == "speak" and req.is_talk:
            text = answer.text.strip()
            seen = said.setdefault(req.seat, set())
            if req.talk.no_repeat and text in seen:
                continue
            seen.add(text)
        yield item, answer


def won(record: GameRecord, seat: int) -> bool:
    """Whether `seat`'s side won `record` (the possessed wins with the werewolves; a draw is no win)."""
    return record.winner == team_of(record.roles[seat]).value


def decision_points(record: GameRecord, *, probes: bool = False) -> Iterator[DecisionPoint]:
    """One `DecisionPoint` per accepted answer of `record`, in the order the engine asked.

    Args:
        record: a finished game.
        probes: keep answers to measurement probes too (default: skip them; they are no move).

    Raises:
        lycan.engine.ReplayMismatch: the record does not replay.
    """
    if not record.decisions:
        yield from event_points(record)
        return
    for item, action in accepted(replay_asked(record)):
        req = item.request
        if req.kind == "probe" and not probes:
            continue
        seat = req.seat
        yield DecisionPoint(
            view=item.view,
            request=req,
            action=action,
            won=won(record, seat),
            game_id=record.game_id,
            seat=seat,
            role=record.roles[seat],
        )


_ACTS: dict[type[Event], RequestKind] = {
    VoteCast: "vote",
    AttackVote: "attack",
    Divined: "divine",
    Guarded: "guard",
    HunterShot: "shoot",
}


def event_points(record: GameRecord) -> Iterator[DecisionPoint]:
    """Decision points read from `record`'s events alone (for records without recorded answers).

    Each act is seen from its actor's view just before it; the request names the seats the act
    could have chosen among (the living seats other than the actor, the target always among them).
    Talk that only passes (`Over`, `Skip`) gives no point, as the sentence is the decision.
    """
    events = record.events
    request_id = 0
    for at, e in enumerate(events):
        actor = getattr(e, "actor", None)
        if actor is None:
            continue
        kind: RequestKind
        if isinstance(e, Talk):
            if e.over or e.skip or not e.text:
                continue
            kind = "talk" if e.channel == "talk" else "whisper"
            action = Action.speak(e.text)
        elif isinstance(e, PotionUsed):
            kind = e.potion
            action = Action.choose(e.target)
        elif type(e) in _ACTS:
            kind = _ACTS[type(e)]
            action = Action.choose(e.target)  # type: ignore[attr-defined]
        else:
            continue
        try:
            view = view_at(events, record.rules, record.names, at, actor)
        except ValueError:
            continue  # an act before the actor was dealt a role: not a decision of a seat in play
        assert isinstance(view, View)
        targets: tuple[int, ...] = ()
        if action.target is not None:
            living = tuple(s for s in range(len(record.names)) if view.alive[s] and s != actor)
            targets = tuple(sorted(set(living) | {action.target}))
        request_id += 1
        yield DecisionPoint(
            view=view,
            request=Request(id=request_id, seat=actor, kind=kind, day=e.day, targets=targets),
            action=action,
            won=won(record, actor),
            game_id=record.game_id,
            seat=actor,
            role=record.roles[actor],
        )
