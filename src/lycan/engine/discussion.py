"""Discussion protocols, chosen by name: who gets the floor, and when talk ends.

Each protocol is a generator function `(game, channel, speakers)` that asks seats for utterances
through `game.ask` and records them with `game.record_talk`.
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from typing import TYPE_CHECKING

from lycan.engine.actions import OVER, Request

if TYPE_CHECKING:
    from lycan.engine.game import Answers, Game

Talking = Generator[list[Request], "Answers", None]
Protocol = Callable[["Game", str, list[int]], Talking]


def round_robin(game: Game, channel: str, speakers: list[int], *, shuffle: bool = False) -> Talking:
    """Seats speak in seat order (the first speaker rotates by day) for `rounds` rounds.

    A seat that says Over is not asked again today; talk ends when all have said Over.
    """
    lim = game.limits(channel)
    start = game.day % len(speakers)
    order = speakers[start:] + speakers[:start]
    done: set[int] = set()
    turn = 0
    for rnd in range(lim.rounds):
        if shuffle:
            order = game.rng_for(channel).sample(speakers, len(speakers))
        for seat in order:
            if seat in done:
                continue
            req = game.talk_request(seat, channel, round=rnd, rounds=lim.rounds)
            act = (yield from game.ask([req]))[seat]
            game.record_talk(seat, act, channel, turn)
            turn += 1
            if act.kind == "over":
                done.add(seat)
        if len(done) == len(speakers):
            return


def random_order(game: Game, channel: str, speakers: list[int]) -> Talking:
    """Like `round_robin`, but the order is shuffled every round."""
    yield from round_robin(game, channel, speakers, shuffle=True)


def aiwolf(game: Game, channel: str, speakers: list[int]) -> Talking:
    """AIWolf NLP talk rules.

    Seats are shuffled once; in rounds every seat with talks left is asked; `Over` sets its
    remaining count to 0; `Skip` passes the turn while skips remain and means `Over` after that;
    per-seat and per-day caps apply; the phase ends after a round in which nobody spoke or
    skipped.
    """
    lim = game.limits(channel)
    order = game.rng_for(channel).sample(speakers, len(speakers))
    remain = dict.fromkeys(speakers, lim.per_agent)
    skips = dict.fromkeys(speakers, lim.max_skip)
    total = 0
    turn = 0
    while total < lim.per_day:
        active = False
        for seat in order:
            if remain[seat] <= 0 or total >= lim.per_day:
                continue
            req = game.talk_request(
                seat, channel, can_skip=True, remain_count=remain[seat], remain_skip=skips[seat], turn=turn
            )
            act = (yield from game.ask([req]))[seat]
            if act.kind == "skip" and skips[seat] <= 0:
                act = OVER
            game.record_talk(seat, act, channel, turn)
            turn += 1
            if act.kind == "over":
                remain[seat] = 0
            elif act.kind == "skip":
                skips[seat] -= 1
                active = True
            else:
                remain[seat] -= 1
                total += 1
                active = True
        if not active:
            return


def deepwolf(game: Game, channel: str, speakers: list[int]) -> Talking:
    """Seed 000's talk timing as a protocol.

    A seat gets the floor once k others have spoken since its last utterance (k = 3 on day 1 and
    before, 1 later; capped by how many others still talk; the first utterance is free); a seat
    whose every other speaker has said Over says Over too; repeating one's own sentence is illegal.
    """
    lim = game.limits(channel)
    k = 3 if game.day <= 1 else 1
    max_turns = lim.max_turns or 3 * len(speakers)
    since = dict.fromkeys(speakers, k)
    done: set[int] = set()
    turn = 0
    while turn < max_turns and len(done) < len(speakers):
        progressed = False
        active = [s for s in speakers if s not in done]
        for seat in game.rng_for(channel).sample(active, len(active)):
            if seat in done or turn >= max_turns:
                continue
            others = [o for o in speakers if o != seat and o not in done]
            if not others:
                game.record_talk(seat, OVER, channel, turn)
                done.add(seat)
                progressed = True
                continue
            if since[seat] < min(k, len(others)):
                continue
            req = game.talk_request(seat, channel, no_repeat=True, k=k, turn=turn)
            act = (yield from game.ask([req]))[seat]
            game.record_talk(seat, act, channel, turn)
            turn += 1
            progressed = True
            if act.kind == "over":
                done.add(seat)
            elif act.kind == "speak":
                since[seat] = 0
                for o in speakers:
                    if o != seat:
                        since[o] += 1
        if not progressed:
            return


def bidding(game: Game, channel: str, speakers: list[int]) -> Talking:
    """Werewolf Arena style: every turn all active seats bid 0-3 for the floor at once.

    The highest bid speaks; a tie goes to a tied seat named in the last utterance, else to a
    random tied seat; talk ends when every bid is 0, everyone said Over, or after `max_turns`.
    """
    lim = game.limits(channel)
    max_turns = lim.max_turns or 3 * len(speakers)
    done: set[int] = set()
    last_text = ""
    for turn in range(max_turns):
        active = [s for s in speakers if s not in done]
        if not active:
            return
        bids = yield from game.ask([game.request(s, "bid", info={"turn": turn}) for s in active])
        for s in active:
            game.record_bid(s, bids[s].amount)
        top = max(bids[s].amount for s in active)
        if top == 0:
            return
        tied = [s for s in active if bids[s].amount == top]
        named = [s for s in tied if game.names[s] in last_text]
        pool = named or tied
        speaker = pool[0] if len(pool) == 1 else game.rng_for(channel).choice(pool)
        act = (yield from game.ask([game.talk_request(speaker, channel, turn=turn, bid=top)]))[speaker]
        talk = game.record_talk(speaker, act, channel, turn)
        last_text = talk.text
        if act.kind == "over":
            done.add(speaker)


PROTOCOLS: dict[str, Protocol] = {
    "round_robin": round_robin,
    "random_order": random_order,
    "aiwolf": aiwolf,
    "deepwolf": deepwolf,
    "bidding": bidding,
}
