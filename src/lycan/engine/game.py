"""The game state machine.

`Game.play()` is a generator: it yields batches of `Request`s (decisions that may be made
concurrently) and receives a mapping from request id to `Answer`. It does no I/O and draws every
random number from streams derived from its seed (`lycan.engine.seeds`), so a game is reproduced exactly by its rules,
seed and the answers it received (`Game.decisions`).

The game knows phases, talk and voting. What a role adds (its night requests and what they do,
what happens when it dies or is voted out, whether it votes) comes from the role's plug-in
(`lycan.engine.roles`), called at fixed points: dusk, the night's joint requests and their
resolution, each role's own night step, a death, an execution, the choice of voters. Who speaks
comes from a discussion protocol (`lycan.engine.discussion`) and what a tied vote leads to from
a tie-break rule (`lycan.engine.voting`), both chosen by name in the rules' options.
"""

from __future__ import annotations

import contextlib
import functools
import random
from collections.abc import Generator, Iterable, Sequence
from dataclasses import replace
from itertools import compress
from typing import Any, Literal, cast

from lycan.engine.actions import (
    OVER,
    PASS,
    TALK_KINDS,
    Action,
    Answer,
    BidInfo,
    Failure,
    ProbeInfo,
    Request,
    RequestInfo,
    RequestKind,
    TalkInfo,
    VoteInfo,
)
from lycan.engine.discussion import PROTOCOLS, Bids, Floor
from lycan.engine.events import (
    BidPlaced,
    Died,
    Event,
    EventIds,
    Executed,
    Fault,
    GameOver,
    GameStarted,
    NightResolved,
    NoExecution,
    PeacefulNight,
    Phase,
    PhaseStarted,
    ProbeAnswered,
    RoleAssigned,
    Talk,
    Visibility,
    VoteCast,
    WolfPack,
    event_maker,
)
from lycan.engine.frozen import frozen
from lycan.engine.roles import PLUGINS, DeathCause, Night, RolePlugin, Steps, plugins_for
from lycan.engine.roles.base import Answers as Answers  # re-exported: drivers import it from here
from lycan.engine.roles.base import Asking as Asking
from lycan.engine.seeds import stream
from lycan.engine.view import View
from lycan.engine.voting import MAX_ROUNDS, TIE_BREAKS, Execute, Revote
from lycan.rules.roles import ROLE_INDEX, Role
from lycan.rules.ruleset import RuleSet, TalkLimits
from lycan.rules.talk import cut_talk, cut_text

__all__ = ["Answers", "Decision", "Game", "GameEnded", "Winner", "cut_talk", "cut_text", "default_names"]

Play = Generator[list[Request], Answers, None]
Winner = Literal["village", "werewolf", "draw"]
_NO_ANSWER = Failure("no answer")
DROPPABLE = frozenset({"vote"}).union(*(plugin.droppable for plugin in PLUGINS.values()))
"""Requests whose illegal answer is dropped, not asked again, when `invalid_target` is `ignore`."""


_make_talk = event_maker(Talk)
_make_vote = event_maker(VoteCast)
_make_died = event_maker(Died)
_make_phase = event_maker(PhaseStarted)


@frozen
class Decision:
    """One answer received for one request (retries are separate requests)."""

    request: int
    seat: int
    kind: RequestKind
    answer: Answer


def _without(seats: tuple[int, ...], seat: int) -> tuple[int, ...]:
    """`seats` (which hold `seat` once) without `seat`, in order."""
    i = seats.index(seat)
    return seats[:i] + seats[i + 1 :]


@functools.cache
def default_names(n: int) -> tuple[str, ...]:
    """Neutral seat names: `Player 1` .. `Player n`."""
    return tuple(f"Player {i + 1}" for i in range(n))


class GameEnded(Exception):
    """Raised inside the engine to unwind once a winner is known."""


class Game:
    """One game: rules, seed, names; `play()` runs it; `events` is the log.

    `probe_days` is a measurement hook outside the rules: after the talk of each of those days
    (before the vote) every living seat gets a `probe` request asking the role of every other
    seat. Answers are recorded as `ProbeAnswered` events that no seat can see; a pass, failure
    or illegal answer is recorded with its reason and is never retried or counted as a fault.

    `deal` sets the roles by seat instead of drawing them from the seed (a position to play from,
    e.g. a world sampled by a search agent); it must hold exactly the rules' deck.
    """

    def __init__(
        self,
        rules: RuleSet,
        seed: int,
        names: Iterable[str] | None = None,
        *,
        probe_days: Iterable[int] = (),
        deal: Sequence[Role] | None = None,
    ) -> None:
        self.rules = rules
        self.probe_days = tuple(sorted(set(probe_days)))
        self.options = rules.options
        self.seed = seed
        # Independent streams: what a seat sees of tie-breaks or fallbacks says nothing of the deal,
        # and draws only the werewolves see (whisper order, their attack ties) never shift the
        # public draws (talk order, vote ties) that everyone sees.
        self.rng = stream(seed, "public")
        self.team_rng = stream(seed, "team")
        n = rules.n_players
        self.names = tuple(names) if names is not None else default_names(n)
        if len(self.names) != n or len(set(self.names)) != n:
            raise ValueError(f"need {n} distinct seat names, got {list(self.names)}")
        deck = rules.deck()
        if deal is None:
            stream(seed, "deal").shuffle(deck)
        elif sorted(deal, key=ROLE_INDEX.__getitem__) != deck:  # the deck comes in role order
            raise ValueError(f"a deal for {rules.name} holds {[r.value for r in deck]} in some order, not {list(deal)}")
        else:
            deck = list(deal)
        self.roles: tuple[Role, ...] = tuple(deck)
        self.alive = [True] * n
        self._seats = range(n)
        self.events: list[Event] = []
        self.decisions: list[Decision] = []
        self.day = 0
        self.phase: Phase = "setup"
        self.winner: Winner | None = None
        self.end_reason = ""
        self._views: list[list[Event]] = [[] for _ in range(n)]
        self.public: list[Event] = []
        """The public events so far: what a spectator sees (treat it as read-only)."""
        self._wolves = frozenset(s for s, r in enumerate(self.roles) if r is Role.WEREWOLF)
        self._ids = EventIds(n)
        self._asked = [0] * n
        self._said: dict[int, set[str]] = {}
        self._executed_today: int | None = None
        self._aborted: str | None = None
        # One plug-in per role dealt, in night order; each hook list holds only the plug-ins
        # that use that hook, so a role without night actions costs nothing at night.
        seats_of: dict[Role, list[int]] = {}
        for seat, role in enumerate(self.roles):
            seats_of.setdefault(role, []).append(seat)
        self._at_dusk: list[RolePlugin] = []
        self._night_askers: list[RolePlugin] = []
        self._night_steps: list[RolePlugin] = []
        # by seat: the plug-in whose hook runs for that seat
        self._death_hook: dict[int, RolePlugin] = {}
        self._execution_hook: dict[int, RolePlugin] = {}
        self._vote_hook: dict[int, RolePlugin] = {}
        for cls, hooks in plugins_for(frozenset(seats_of)):
            p = cls(tuple(seats_of[cls.role]))
            if "dusk" in hooks:
                self._at_dusk.append(p)
            if "night_requests" in hooks:
                self._night_askers.append(p)
            if "night_step" in hooks:
                self._night_steps.append(p)
            if "on_death" in hooks:
                self._death_hook.update(dict.fromkeys(p.seats, p))
            if "on_execution" in hooks:
                self._execution_hook.update(dict.fromkeys(p.seats, p))
            if "may_vote" in hooks:
                self._vote_hook.update(dict.fromkeys(p.seats, p))
        self._tie_break = TIE_BREAKS[self.options.tie_break]

    # ----------------------------------------------------------------- reading
    def view(self, seat: int) -> View:
        """What `seat` knows now (the events list is shared: treat it as read-only)."""
        # positional: a view is made for every request, and keywords double its cost
        return View(
            seat, self.roles[seat], self.names, self.rules, self.day, self.phase, tuple(self.alive), self._views[seat]
        )

    def living(self) -> list[int]:
        """Seats alive now."""
        return list(compress(self._seats, self.alive))

    def rng_for(self, channel: str) -> random.Random:
        """The random stream of a talk channel: the team's own for whispers, the public one otherwise."""
        return self.team_rng if channel == "whisper" else self.rng

    @property
    def finished(self) -> bool:
        """Whether the game has a winner (or was drawn)."""
        return self.winner is not None

    def abort(self, reason: str) -> None:
        """End the game as a draw when the current batch's answers are sent (e.g. players errored).

        The answers sent with it are ignored; `GameOver` records `reason`.
        """
        self._aborted = reason

    # ----------------------------------------------------------------- writing
    def emit(
        self,
        cls: type[Event],
        *,
        audience: Iterable[int] | None = None,
        vis: Visibility | None = None,
        **fields: Any,
    ) -> Event:
        """Append an event; `audience=None` makes it public."""
        make = event_maker(cls)
        if audience is None:
            return self._post(
                make(self._ids.next_public(), self.day, self.phase, "public" if vis is None else vis, None, **fields)
            )
        aud = frozenset(audience)
        if vis is None:
            vis = "seat" if len(aud) == 1 else "team" if aud else "system"
        event = make(self._ids.next(aud), self.day, self.phase, vis, aud, **fields)
        self.events.append(event)
        views = self._views
        for s in aud:
            views[s].append(event)
        return event

    def _post(self, event: Event) -> Event:
        """Append a public event made by the caller (the hot paths build talk and votes directly)."""
        self.events.append(event)
        self.public.append(event)
        for lst in self._views:
            lst.append(event)
        return event

    def _phase_started(self, alive: tuple[int, ...]) -> None:
        self._post(_make_phase(self._ids.next_public(), self.day, self.phase, "public", None, alive=alive))

    def _request_id(self, seat: int) -> int:
        """The next request id of `seat`: k * n_players + seat for its k-th request.

        Ids count each seat's own requests only, so they tell a seat nothing about what others
        were asked (a global counter once showed how many night roles were still alive).
        """
        k = self._asked[seat]
        self._asked[seat] = k + 1
        return k * len(self._asked) + seat

    def request(
        self,
        seat: int,
        kind: RequestKind,
        *,
        targets: tuple[int, ...] = (),
        can_pass: bool = False,
        can_skip: bool = False,
        max_length: int = 0,
        info: RequestInfo | None = None,
    ) -> Request:
        """A new request with the seat's next id and the timeout its kind gets."""
        k = self._asked[seat]  # as `_request_id`, inline: every request comes here
        self._asked[seat] = k + 1
        rid = k * len(self._asked) + seat
        timeout = self.options.talk_timeout if kind in TALK_KINDS else self.options.action_timeout
        # positional: a request is made for every decision, and keywords cost more
        return Request(rid, seat, kind, self.day, targets, can_pass, can_skip, max_length, timeout, 0, None, info)

    def ask(self, requests: list[Request]) -> Asking:
        """Yield `requests`; retry each illegal answer once with its error, then fall back.

        Returns the legal action of every asked seat.
        """
        if not requests:
            return {}
        answers = yield requests
        if self._aborted is not None:
            self._abort_now(requests, answers)
        out: dict[int, Action] = {}
        failed: list[tuple[Request, str]] = []
        for req in requests:
            answer = answers.get(req.id, _NO_ANSWER)
            err = self._judge(req, answer)
            if err is None:
                out[req.seat] = answer  # type: ignore[assignment]
            else:
                failed.append((req, err))
        if not failed:
            return out
        return (yield from self._retry(out, failed))

    def _retry(self, out: dict[int, Action], failed: list[tuple[Request, str]]) -> Asking:
        """The rest of `ask` once some answers were illegal: `out` holds the legal ones so far."""
        if self.options.invalid_target == "ignore":
            kept = []
            for req, err in failed:
                if req.kind in DROPPABLE:
                    self.emit(
                        Fault,
                        audience=(req.seat,),
                        seat=req.seat,
                        request=req.kind,
                        reasons=(err,),
                        fallback=f"dropped: the rules ignore an illegal {req.kind}",
                    )
                    out[req.seat] = PASS
                else:
                    kept.append((req, err))
            failed = kept
            if not failed:
                return out
        retries = []
        for req, err in failed:
            retries.append(replace(req, id=self._request_id(req.seat), attempt=req.attempt + 1, error=err))
        answers = yield retries
        if self._aborted is not None:
            self._abort_now(retries, answers)
        for (_, first), req in zip(failed, retries, strict=True):
            answer = answers.get(req.id, _NO_ANSWER)
            again = self._judge(req, answer)
            if again is None:
                out[req.seat] = answer  # type: ignore[assignment]
                continue
            fallback = self._fallback(req)
            self.emit(
                Fault,
                audience=(req.seat,),
                seat=req.seat,
                request=req.kind,
                reasons=(first, again),
                fallback=fallback.describe(self.names),
            )
            out[req.seat] = fallback
        return out

    def _abort_now(self, requests: list[Request], answers: Answers) -> None:
        """End the aborted game; a request that failed in its last batch is still the seat's fault."""
        for req in requests:
            answer = answers.get(req.id, _NO_ANSWER)
            if isinstance(answer, Failure):
                self.emit(
                    Fault,
                    audience=(req.seat,),
                    seat=req.seat,
                    request=req.kind,
                    reasons=(answer.reason or "no answer",),
                    fallback="none: the game was aborted",
                )
        assert self._aborted is not None
        self._end("draw", self._aborted)

    def _judge(self, req: Request, answer: Answer) -> str | None:
        self.decisions.append(Decision(req.id, req.seat, req.kind, answer))
        err = req.check(answer)
        if (
            err is None
            and isinstance(answer, Action)
            and answer.kind == "speak"
            and req.talk.no_repeat
            and answer.text.strip() in self._said.get(req.seat, ())
        ):
            err = "you said exactly that before; never repeat a sentence"
        return err

    def _fallback(self, req: Request) -> Action:
        if req.is_talk:
            return OVER
        if req.kind == "bid":
            return Action("bid", amount=0)
        if req.can_pass or not req.targets:
            return PASS
        return Action.choose(stream(self.seed, "fallback", req.id).choice(req.targets))

    # ----------------------------------------------------------------- talk helpers
    def limits(self, channel: str) -> TalkLimits:
        """The talk limits of `channel` ('talk' or 'whisper')."""
        return self.options.whisper_limits if channel == "whisper" else self.options.talk

    def talk_request(self, seat: int, channel: str, info: TalkInfo | None = None, *, can_skip: bool = False) -> Request:
        """A request for one utterance on `channel`."""
        lim = self.limits(channel)
        kind: RequestKind = "whisper" if channel == "whisper" else "talk"
        return self.request(seat, kind, can_skip=can_skip, max_length=lim.max_length, info=info or TalkInfo())

    def record_talk(self, seat: int, action: Action, channel: str, turn: int) -> Talk:
        """Append an utterance (cut to the length limit), `Over` or `Skip`."""
        kind = action.kind
        manner = seen = None
        if kind == "speak":
            said = action.text.strip()
            text = cut_talk(said, self.limits(channel), self.names)
            said_before = self._said.get(seat)
            if said_before is None:
                self._said[seat] = {said}
            else:
                said_before.add(said)
            manner, seen = action.manner, action.seen
        else:
            text = "Skip" if kind == "skip" else "Over"
        over, skip = kind not in ("speak", "skip"), kind == "skip"
        if channel == "whisper":
            ev = self.emit(
                Talk,
                audience=self._wolves,
                vis="team",
                actor=seat,
                text=text,
                channel=channel,
                turn=turn,
                over=over,
                skip=skip,
                manner=manner,
                seen=seen,
            )
        else:  # most events: made here, without `emit`'s keyword packing
            ids, day, phase = self._ids, self.day, self.phase
            ev = self._post(
                _make_talk(
                    ids.next_public(), day, phase, "public", None,
                    actor=seat, text=text, channel=channel, turn=turn, over=over, skip=skip, manner=manner,
                    seen=seen,
                )
            )  # fmt: skip
        assert isinstance(ev, Talk)
        return ev

    def record_bid(self, seat: int, amount: int) -> None:
        """Append a public bid."""
        self.emit(BidPlaced, actor=seat, amount=amount)

    # ----------------------------------------------------------------- the game
    def play(self) -> Play:
        """Run the whole game; see the module docstring for the protocol."""
        with contextlib.suppress(GameEnded):
            yield from self._run()
        self.phase = "end"
        self.emit(GameOver, winner=self.winner or "draw", roles=self.roles, reason=self.end_reason)

    def _run(self) -> Steps:
        roles = self.rules.roles
        self.emit(
            GameStarted,
            rules=self.rules.name,
            names=self.names,
            role_counts=tuple((r, roles[r]) for r in ROLE_INDEX if r in roles),
        )
        for seat, role in enumerate(self.roles):
            self.emit(RoleAssigned, audience=(seat,), seat=seat, role=role)
        if self._wolves:
            self.emit(WolfPack, audience=self._wolves, members=tuple(sorted(self._wolves)))
        self.phase = "day"
        self._phase_started(tuple(self.living()))
        if self.options.day0_whisper:
            yield from self._whisper()
        if self.options.greeting:
            yield from self._discuss("talk", self.living())
        while True:
            self.phase = "night"
            self._phase_started(tuple(self.living()))
            night, deaths = yield from self._night()
            self.day += 1
            self.phase = "day"
            if self.day > self.options.max_days:
                self._end("draw", f"no winner after {self.options.max_days} days")
            self._phase_started(tuple([s for s in self.living() if s not in deaths]))
            for seat in deaths:
                self.kill(seat, "night")
            if not deaths:
                self.emit(PeacefulNight)
            for seat in deaths:
                if seat in self._death_hook:
                    yield from self.after_death(seat, "night", night)
            self._check_winner()
            yield from self._discuss("talk", self.living())
            if self.day in self.probe_days:
                yield from self._probe()
            yield from self._vote()
            self._check_winner()

    def _end(self, winner: Winner, reason: str) -> None:
        self.winner = winner
        self.end_reason = reason
        raise GameEnded

    def _check_winner(self) -> None:
        wolves = sum(1 for s in self._wolves if self.alive[s])
        others = sum(self.alive) - wolves
        if wolves == 0:
            self._end("village", "every werewolf is dead")
        if wolves >= others:
            self._end("werewolf", f"{wolves} werewolves match {others} others")

    def kill(self, seat: int, cause: DeathCause) -> None:
        """Kill `seat` and announce its death (its role shown only if the rules reveal roles)."""
        self.alive[seat] = False
        role = self.roles[seat] if self.options.reveal_role_on_death else None
        self._post(
            _make_died(
                self._ids.next_public(), self.day, self.phase, "public", None, target=seat, cause=cause, role=role
            )
        )

    def _discuss(self, channel: Literal["talk", "whisper"], speakers: list[int]) -> Steps:
        if len(speakers) < 2:
            return
        name = self.options.discussion
        if channel == "whisper" and name != "aiwolf":
            name = "round_robin"
        lim = self.limits(channel)
        talk = PROTOCOLS[name](Floor(channel, tuple(speakers), self.day, lim, self.rng_for(channel), self.names))
        kind: RequestKind = "whisper" if channel == "whisper" else "talk"
        for step in talk:
            if isinstance(step, Bids):
                asked = [self.request(s, "bid", info=BidInfo(turn=step.turn)) for s in step.seats]
                bids = yield from self.ask(asked)
                for s in step.seats:
                    self.record_bid(s, bids[s].amount)
                talk.bid({s: bids[s].amount for s in step.seats})
                continue
            seat = step.seat
            if step.ask:
                # what `talk_request` makes, without copying the protocol's info
                req = self.request(seat, kind, can_skip=step.can_skip, max_length=lim.max_length, info=step.info)
                # `ask([req])`, inline: one talk turn is the commonest batch
                answers = yield [req]
                if self._aborted is not None:
                    self._abort_now([req], answers)
                answer = answers.get(req.id, _NO_ANSWER)
                err = self._judge(req, answer)
                act = cast(Action, answer) if err is None else (yield from self._retry({}, [(req, err)]))[seat]
                if step.skip_means_over and act.kind == "skip":
                    act = OVER
            else:
                act = OVER
            talk.heard(self.record_talk(seat, act, channel, step.turn))

    def _whisper(self) -> Steps:
        wolves = [s for s in self.living() if s in self._wolves]
        if self.options.whisper and len(wolves) >= 2:
            for _ in range(self.options.whisper_rounds):
                yield from self._discuss("whisper", wolves)

    def after_death(self, seat: int, cause: DeathCause, night: Night | None = None) -> Steps:
        """Run what the role of `seat` does when it dies (after `kill`); `night`: the ledger of a night death."""
        plugin = self._death_hook.get(seat)
        if plugin is not None:
            yield from plugin.on_death(self, seat, cause, night)

    # ----------------------------------------------------------------- night
    def _night(self) -> Generator[list[Request], Answers, tuple[Night, list[int]]]:
        opts = self.options
        attacking = self.day > 0 or opts.first_night_attack
        night = Night(self.day, tuple(self.living()), attacking=attacking, executed=self._executed_today)
        self._executed_today = None
        for plugin in self._at_dusk:
            plugin.dusk(self, night)
        if night.attacking or (self.day == 0 and opts.day0_whisper):
            yield from self._whisper()
        batch: list[Request] = []
        asking: list[RolePlugin] = []
        for plugin in self._night_askers:
            reqs = plugin.night_requests(self, night)
            if reqs:
                batch += reqs
                asking.append(plugin)
        acts = yield from self.ask(batch)
        for plugin in asking:
            plugin.resolve(self, night, acts)
        for plugin in self._night_steps:
            yield from plugin.night_step(self, night)
        deaths = night.deaths()
        self.emit(
            NightResolved,
            audience=(),
            attacked=night.attacked,
            guarded=tuple(night.guarded),
            saved=tuple(night.saved),
            poisoned=tuple(night.poisoned),
            deaths=tuple(deaths),
        )
        return night, deaths

    # ----------------------------------------------------------------- measurement
    def _probe(self) -> Steps:
        living = self.living()
        roles = [r.value for r in Role if r in self.rules.roles]
        batch = [
            self.request(
                s,
                "probe",
                targets=tuple(t for t in range(len(self.names)) if t != s),
                can_pass=True,
                info=ProbeInfo(roles=tuple(roles)),
            )
            for s in living
        ]
        answers = yield batch
        for req in batch:
            answer = answers.get(req.id, _NO_ANSWER)
            err = self._judge(req, answer)
            if err is None and isinstance(answer, Action) and answer.kind == "probe":
                self.emit(ProbeAnswered, audience=(), seat=req.seat, guesses=answer.guesses)
            else:
                self.emit(ProbeAnswered, audience=(), seat=req.seat, guesses=(), error=err or "passed")

    # ----------------------------------------------------------------- day vote
    def _vote(self) -> Steps:
        living = self.living()
        voters = living
        hooks = self._vote_hook
        if hooks:
            voters = [s for s in living if (hook := hooks.get(s)) is None or hook.may_vote(self, s)]
        candidates = living
        allow_self = self.options.allow_self_vote
        for rnd in range(MAX_ROUNDS):
            batch = []
            everyone = tuple(candidates)
            info = VoteInfo(round=rnd)  # one for the round: it is immutable
            for s in voters:
                targets = everyone if allow_self or s not in everyone else _without(everyone, s)
                if targets:
                    batch.append(self.request(s, "vote", targets=targets, info=info))
            acts = yield from self.ask(batch)
            tally: dict[int, int] = {}  # a dict, not a Counter: cheaper to make and to count into
            post, make_vote, ids, day, phase = self._post, _make_vote, self._ids, self.day, self.phase
            for req in batch:
                target = acts[req.seat].target
                if target is None:  # an illegal vote the rules drop
                    continue
                post(make_vote(ids.next_public(), day, phase, "public", None, actor=req.seat, target=target, round=rnd))
                tally[target] = tally.get(target, 0) + 1
            if not tally:
                self.emit(NoExecution, reason="no valid vote" if batch else "nobody could vote")
                return
            top = max(tally.values())
            tied = sorted(t for t, c in tally.items() if c == top)
            if len(tied) == 1:
                chosen = tied[0]
            else:
                outcome = self._tie_break(tuple(tied), rnd, self.rng)
                if isinstance(outcome, Revote):
                    candidates = list(outcome.candidates)
                    continue
                if not isinstance(outcome, Execute):
                    self.emit(NoExecution, reason=outcome.reason)
                    return
                chosen = outcome.seat
            # the execution: a role may spare the seat (and say why), else it dies
            spare = self._execution_hook.get(chosen)
            spared = spare.on_execution(self, chosen, top) if spare is not None else None
            if spared is not None:
                self.emit(NoExecution, reason=spared)
                return
            role = self.roles[chosen] if self.options.reveal_role_on_death else None
            self.emit(Executed, target=chosen, votes=top, role=role)
            self.kill(chosen, "executed")
            self._executed_today = chosen
            if chosen in self._death_hook:
                yield from self.after_death(chosen, "executed")
            return
        self.emit(NoExecution, reason=f"still tied after {MAX_ROUNDS} votes")
