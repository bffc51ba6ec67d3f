"""Discussion protocols, chosen by name: who gets the floor, and when talk ends.

A protocol is an object the engine pulls from (an iterator of steps). Each step is a `Turn` (ask one
seat for an utterance, or record its Over without asking) or a `Bids` (ask several seats at once
for a bid for the floor); the talk is over when the steps end. The engine asks, records, and tells the
protocol what was said (`heard`) or bid (`bid`) before pulling the next step. A protocol never sees the
game: it knows only its `Floor` (channel, speakers, day, limits, the channel's random stream, seat
names) and what it was told.
"""

from __future__ import annotations

import abc
import random
from collections.abc import Callable, Iterator, Mapping
from dataclasses import field
from typing import Literal

from lycan.engine.actions import TalkInfo
from lycan.engine.events import Talk
from lycan.engine.frozen import frozen
from lycan.rules.ruleset import TalkLimits

Channel = Literal["talk", "whisper"]


@frozen
class Floor:
    """What a protocol knows: who talks on which channel, under which limits."""

    channel: Channel
    speakers: tuple[int, ...]
    day: int
    limits: TalkLimits
    rng: random.Random
    """The channel's random stream (the werewolves' own for whispers)."""
    names: tuple[str, ...]


@frozen
class Turn:
    """Ask `seat` for one utterance, the `turn`-th of this talk.

    `info` goes into the request; `can_skip` allows Skip, and with `skip_means_over` a Skip is
    recorded as Over. With `ask` False the seat is not asked and Over is recorded for it.
    """

    seat: int
    turn: int
    info: TalkInfo = field(default_factory=TalkInfo)
    can_skip: bool = False
    skip_means_over: bool = False
    ask: bool = True


@frozen
class Bids:
    """Ask every seat of `seats` at once for a bid (0-3) for the floor; the bids are public."""

    seats: tuple[int, ...]
    turn: int


Step = Turn | Bids


class Protocol(abc.ABC):
    """A discussion protocol: subclasses write `steps`, reading `last` and `bids` after each step."""

    def __init__(self, floor: Floor) -> None:
        self.floor = floor
        self.last: Talk | None = None
        """What the seat of the last `Turn` said (as recorded: cut, or Over)."""
        self.bids: dict[int, int] = {}
        """The bids of the last `Bids`, by seat."""

    def __iter__(self) -> Iterator[Step]:
        """The steps, pulled one at a time (the protocol keeps no reference to them)."""
        return self.steps()

    def heard(self, talk: Talk) -> None:
        """The engine recorded `talk` for the last `Turn`."""
        self.last = talk

    def bid(self, amounts: Mapping[int, int]) -> None:
        """The engine received these bids for the last `Bids`."""
        self.bids = dict(amounts)

    def said(self) -> Talk:
        """The talk recorded for the last `Turn`."""
        assert self.last is not None, "a protocol reads what was said only after a Turn"
        return self.last

    @abc.abstractmethod
    def steps(self) -> Iterator[Step]:
        """The protocol itself: yield steps until the talk is over."""


class RoundRobin(Protocol):
    """Seats speak in seat order (the first speaker rotates by day) for `rounds` rounds.

    A seat that says Over is not asked again today; talk ends when all have said Over.
    """

    shuffle = False

    def steps(self) -> Iterator[Step]:
        """Rounds in seat order from the day's first speaker (shuffled each round if `shuffle`)."""
        floor = self.floor
        lim = floor.limits
        speakers = list(floor.speakers)
        start = floor.day % len(speakers)
        order = speakers[start:] + speakers[:start]
        done: set[int] = set()
        turn = 0
        rounds = lim.rounds
        for rnd in range(rounds):
            if self.shuffle:
                order = floor.rng.sample(speakers, len(speakers))
            for seat in order:
                if seat in done:
                    continue
                yield Turn(seat, turn, TalkInfo(turn=turn, round=rnd, rounds=rounds))
                turn += 1
                if self.said().over:
                    done.add(seat)
            if len(done) == len(speakers):
                return


class RandomOrder(RoundRobin):
    """Like `RoundRobin`, but the order is shuffled every round."""

    shuffle = True


class Aiwolf(Protocol):
    """AIWolf NLP talk rules.

    Seats are shuffled once; in rounds every seat with talks left is asked; `Over` sets its
    remaining count to 0; `Skip` passes the turn while skips remain and means `Over` after that;
    per-seat and per-day caps apply; the phase ends after a round in which nobody spoke or
    skipped.
    """

    def steps(self) -> Iterator[Step]:
        """Rounds in one shuffled order until a round passes without talk or a cap is reached."""
        floor = self.floor
        lim = floor.limits
        speakers = list(floor.speakers)
        order = floor.rng.sample(speakers, len(speakers))
        remain = dict.fromkeys(speakers, lim.per_agent)
        skips = dict.fromkeys(speakers, lim.max_skip)
        total = 0
        turn = 0
        while total < lim.per_day:
            active = False
            for seat in order:
                if remain[seat] <= 0 or total >= lim.per_day:
                    continue
                info = TalkInfo(turn=turn, remain_count=remain[seat], remain_skip=skips[seat])
                yield Turn(seat, turn, info, can_skip=True, skip_means_over=skips[seat] <= 0)
                turn += 1
                talk = self.said()
                if talk.over:
                    remain[seat] = 0
                elif talk.skip:
                    skips[seat] -= 1
                    active = True
                else:
                    remain[seat] -= 1
                    total += 1
                    active = True
            if not active:
                return


class Deepwolf(Protocol):
    """Seed 000's talk timing as a protocol.

    A seat gets the floor once k others have spoken since its last utterance (k = 3 on day 1 and
    before, 1 later; capped by how many others still talk; the first utterance is free); a seat
    whose every other speaker has said Over says Over too; repeating one's own sentence is illegal.
    """

    def steps(self) -> Iterator[Step]:
        """Passes in random order; a seat speaks once enough others have spoken since its last turn."""
        floor = self.floor
        speakers = list(floor.speakers)
        k = 3 if floor.day <= 1 else 1
        max_turns = floor.limits.max_turns or 3 * len(speakers)
        since = dict.fromkeys(speakers, k)
        done: set[int] = set()
        turn = 0
        while turn < max_turns and len(done) < len(speakers):
            progressed = False
            active = [s for s in speakers if s not in done]
            for seat in floor.rng.sample(active, len(active)):
                if seat in done or turn >= max_turns:
                    continue
                others = [o for o in speakers if o != seat and o not in done]
                if not others:
                    yield Turn(seat, turn, ask=False)
                    done.add(seat)
                    progressed = True
                    continue
                if since[seat] < min(k, len(others)):
                    continue
                yield Turn(seat, turn, TalkInfo(turn=turn, no_repeat=True, after=k))
                turn += 1
                progressed = True
                talk = self.said()
                if talk.over:
                    done.add(seat)
                elif not talk.skip:
                    since[seat] = 0
                    for o in speakers:
                        if o != seat:
                            since[o] += 1
            if not progressed:
                return


class Bidding(Protocol):
    """Werewolf Arena style: every turn all active seats bid 0-3 for the floor at once.

    The highest bid speaks; a tie goes to a tied seat named in the last utterance, else to a
    random tied seat; talk ends when every bid is 0, everyone said Over, or after `max_turns`.
    """

    def steps(self) -> Iterator[Step]:
        """A round of bids, then the winner's utterance, until nobody bids or everyone is done."""
        floor = self.floor
        speakers = list(floor.speakers)
        max_turns = floor.limits.max_turns or 3 * len(speakers)
        done: set[int] = set()
        last_text = ""
        for turn in range(max_turns):
            active = [s for s in speakers if s not in done]
            if not active:
                return
            yield Bids(tuple(active), turn)
            bids = self.bids
            top = max(bids[s] for s in active)
            if top == 0:
                return
            tied = [s for s in active if bids[s] == top]
            named = [s for s in tied if floor.names[s] in last_text]
            pool = named or tied
            speaker = pool[0] if len(pool) == 1 else floor.rng.choice(pool)
            yield Turn(speaker, turn, TalkInfo(turn=turn, bid=top))
            talk = self.said()
            last_text = talk.text
            if talk.over:
                done.add(speaker)


PROTOCOLS: dict[str, Callable[[Floor], Protocol]] = {
    "round_robin": RoundRobin,
    "random_order": RandomOrder,
    "aiwolf": Aiwolf,
    "deepwolf": Deepwolf,
    "bidding": Bidding,
}
"""Every protocol by the name `RuleOptions.discussion` uses."""
