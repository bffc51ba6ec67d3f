"""Requests the engine makes of a seat, and the actions a seat answers with."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Literal

from lycan.engine.frozen import frozen, frozen_kw
from lycan.engine.manner import Manner
from lycan.engine.seen import Seen
from lycan.rules.roles import Role, parse_role

RequestKind = Literal["talk", "whisper", "vote", "attack", "divine", "guard", "cure", "poison", "shoot", "bid", "probe"]
ActionKind = Literal["speak", "over", "skip", "choose", "pass", "bid", "probe"]
Guess = tuple[int, Role, float | None]
"""One answer to a probe: (seat, the role guessed for it, probability or None)."""
TALK_KINDS = frozenset({"talk", "whisper"})
MAX_BID = 3


@frozen
class Action:
    """A seat's answer. Speech (`text`) is the only free-text field.

    `guesses` is used only by `probe` answers (see `Action.probe`).
    """

    kind: ActionKind
    target: int | None = None
    text: str = ""
    amount: int = 0
    guesses: tuple[Guess, ...] = ()
    manner: Manner | None = None
    seen: Seen | None = None

    @staticmethod
    def speak(text: str, manner: Manner | None = None, seen: Seen | None = None) -> Action:
        """Say `text` in the current talk or whisper phase.

        `manner`: how it is delivered; `seen`: what the speaker's camera showed while they said it.
        """
        return Action("speak", text=text, manner=manner, seen=seen)

    @staticmethod
    def choose(target: int) -> Action:
        """Pick seat `target` (vote, attack, divine, guard, potion, shot)."""
        return Action("choose", target=target)

    @staticmethod
    def probe(guesses: Iterable[tuple[int, Role | str, float | None]]) -> Action:
        """Answer a `probe` request: for each seat, the role you think it holds.

        Each guess is `(seat, role, probability)`; the probability (0..1) that `seat` holds
        `role` may be None. Several guesses for one seat (different roles) form a distribution;
        the most probable one counts as the answer for that seat.

        Raises:
            ValueError: a role name that is no role.
        """
        out: list[Guess] = []
        for seat, role, prob in guesses:
            out.append((int(seat), role if isinstance(role, Role) else parse_role(role), prob))
        return Action("probe", guesses=tuple(out))

    def describe(self, names: tuple[str, ...] | None = None) -> str:
        """Short human-readable form, e.g. `choose Player 3` or `speak 'hello'`."""
        if self.kind == "choose" and self.target is not None:
            who = names[self.target] if names and 0 <= self.target < len(names) else f"seat {self.target}"
            return f"choose {who}"
        if self.kind == "speak":
            return f"speak {self.text!r}"
        if self.kind == "bid":
            return f"bid {self.amount}"
        return self.kind

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        out: dict[str, Any] = {"kind": self.kind}
        if self.target is not None:
            out["target"] = self.target
        if self.text:
            out["text"] = self.text
        if self.amount:
            out["amount"] = self.amount
        if self.guesses:
            out["guesses"] = [[seat, role.value, prob] for seat, role, prob in self.guesses]
        if self.manner is not None:
            out["manner"] = self.manner.to_dict()
        if self.seen is not None:
            out["seen"] = self.seen.to_dict()
        return out


OVER = Action("over")
SKIP = Action("skip")
PASS = Action("pass")


@frozen
class Failure:
    """No usable answer: a timeout, an exception in the agent, or unparseable model output."""

    reason: str

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {"kind": "failure", "reason": self.reason}


Answer = Action | Failure


def answer_from_dict(data: dict[str, Any]) -> Answer:
    """Inverse of `Action.to_dict` / `Failure.to_dict`."""
    if data.get("kind") == "failure":
        return Failure(str(data.get("reason", "")))
    return Action(
        data["kind"],
        target=data.get("target"),
        text=str(data.get("text", "")),
        amount=int(data.get("amount", 0)),
        guesses=tuple(
            (int(seat), parse_role(str(role)), None if prob is None else float(prob))
            for seat, role, prob in data.get("guesses", ())
        ),
        manner=Manner.read(data["manner"]) if "manner" in data else None,
        seen=Seen.parse(data["seen"]) if "seen" in data else None,
    )


@frozen_kw
class TalkInfo:
    """Where a talk or whisper request stands under its protocol.

    Attributes:
        turn: the utterance's number in this talk.
        remain_count: utterances the seat has left today (the `aiwolf` protocol), if counted.
        remain_skip: Skips the seat has left today before Skip means Over, if counted.
        remain_length: characters the seat has left today (AIWolf servers that count them).
        no_repeat: repeating one of the seat's own sentences is illegal (the `deepwolf` protocol).
        after: how many others must speak before the seat has the floor again (`deepwolf`).
        round: the round of a round-robin talk (from 0), and `rounds` how many there are.
        bid: the bid that won the floor (`bidding`).
    """

    turn: int = 0
    remain_count: int | None = None
    remain_skip: int | None = None
    remain_length: int | None = None
    no_repeat: bool = False
    after: int | None = None
    round: int | None = None
    rounds: int | None = None
    bid: int | None = None


@frozen_kw
class BidInfo:
    """A bid for the floor (the `bidding` protocol): the turn it is for."""

    turn: int = 0


@frozen_kw
class VoteInfo:
    """A day vote: round 0, or 1 for a revote among the tied."""

    round: int = 0


@frozen_kw
class PotionInfo:
    """A witch's cure or poison: whom the werewolves attacked tonight (None: nobody)."""

    attacked: int | None = None


@frozen_kw
class ProbeInfo:
    """The role probe: the roles that are in play (the only answers it accepts)."""

    roles: tuple[str, ...] = ()


_NO_TALK_INFO = TalkInfo()
RequestInfo = TalkInfo | BidInfo | VoteInfo | PotionInfo | ProbeInfo
"""What a request says beyond its kind, typed per kind (None where there is nothing more)."""


@frozen
class Request:
    """One decision asked of one seat, with everything needed to answer it legally.

    `targets` are the legal seats for choose-type requests; `can_pass` allows `PASS`;
    talk requests accept `speak`, `over` and (if `can_skip`) `skip`. `error` carries the reason
    a previous answer to the same decision was rejected (the retry shows it to the agent).
    """

    id: int
    seat: int
    kind: RequestKind
    day: int
    targets: tuple[int, ...] = ()
    can_pass: bool = False
    can_skip: bool = False
    max_length: int = 0
    timeout: float = 60.0
    attempt: int = 0
    error: str | None = None
    info: RequestInfo | None = None

    @property
    def is_talk(self) -> bool:
        """Whether this asks for an utterance."""
        return self.kind in TALK_KINDS

    @property
    def talk(self) -> TalkInfo:
        """The talk request's protocol state (defaults for a talk request that has none)."""
        return self.info if isinstance(self.info, TalkInfo) else _NO_TALK_INFO

    def legal_actions(self) -> list[Action]:
        """Every legal non-speech action; for talk, `speak` with any text is legal too."""
        if self.kind in TALK_KINDS:
            return [OVER, SKIP] if self.can_skip else [OVER]
        if self.kind == "bid":
            return [Action("bid", amount=a) for a in range(MAX_BID + 1)]
        if self.kind == "probe":
            return [PASS]
        acts = [Action.choose(t) for t in self.targets]
        return [*acts, PASS] if self.can_pass else acts

    def check(self, answer: Answer) -> str | None:
        """The reason `answer` is illegal for this request, or None if it is legal."""
        if isinstance(answer, Failure):
            return answer.reason or "no answer"
        kind = answer.kind
        if self.kind in TALK_KINDS:
            if kind == "speak":
                return None if answer.text.strip() else "an utterance must not be empty"
            if kind == "over" or (kind == "skip" and self.can_skip):
                return None
            return f"answer with speech or Over{', or Skip' if self.can_skip else ''}, not {kind}"
        if self.kind == "bid":
            if kind == "bid" and 0 <= answer.amount <= MAX_BID:
                return None
            return f"bid an amount from 0 to {MAX_BID}"
        if self.kind == "probe":
            return self._check_probe(answer)
        if kind == "pass":
            return None if self.can_pass else f"{self.kind} needs a target; passing is not allowed"
        if kind != "choose":
            return f"{self.kind} needs a target, not {kind}"
        if answer.target not in self.targets:
            return f"seat {answer.target} is not a legal {self.kind} target; choose one of {list(self.targets)}"
        return None

    def _check_probe(self, answer: Action) -> str | None:
        if answer.kind == "pass":
            return None
        if answer.kind != "probe":
            return f"answer a probe with guesses (Action.probe) or pass, not {answer.kind}"
        roles = set(self.info.roles) if isinstance(self.info, ProbeInfo) else set()
        seen: set[tuple[int, Role]] = set()
        for seat, role, prob in answer.guesses:
            if seat not in self.targets:
                return f"seat {seat} is not asked about; guess for seats {list(self.targets)}"
            if roles and role.value not in roles:
                return f"{role.value} is not in this game; guess one of {sorted(roles)}"
            if prob is not None and not 0.0 <= prob <= 1.0:
                return f"probability {prob} for seat {seat} is outside 0..1"
            if (seat, role) in seen:
                return f"seat {seat} is guessed as {role.value} twice"
            seen.add((seat, role))
        return None
