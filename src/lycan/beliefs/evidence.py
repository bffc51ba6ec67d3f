"""Soft evidence: the public behaviour a belief engine weighs, read from a view one event at a time.

Three kinds of observation, each one factor of the likelihood of a deal:
- `Claim` (Bernoulli, on the actor's role): on each talk day, did a seat that had not yet claimed a
  role claim it (first claims, counter-claims, and staying silent once a day's talk is over: silent
  while the role was unclaimed if the seat spoke before anyone claimed it, and silent against a
  claim if it spoke after one);
- `Report` (Bernoulli, on the roles of actor and target): an announced divine result or medium
  reading, werewolf or human;
- `Choice` (conditional logit, on the roles of actor and every candidate): a vote, a vote intention,
  an accusation or a defence: one seat picked from the seats it could have picked.

An `Observer` reads events in order and keeps what it needs (who is alive, who claimed what, the
last vote round) so a growing view is read once. It reads public talk and public votes only, and
skips the view's own seat (a seat learns nothing about others from its own acts).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from lycan.beliefs.claims import Statement
from lycan.beliefs.reader import MIN_CONFIDENCE, Reading, TalkReader, claimed_role, reader_for
from lycan.engine.events import Event, Executed, PhaseStarted, Talk, VoteCast
from lycan.rules.roles import Role, Species, parse_role

#: Roles a seat can claim in talk that the model tracks.
CLAIM_ROLES: tuple[Role, ...] = (Role.SEER, Role.MEDIUM, Role.GUARDIAN, Role.WITCH)
#: Kinds of choice a seat makes among the others.
CHOICES = ("vote", "will_vote", "accuses", "defends")


def day_bucket(day: int) -> int:
    """Days are pooled as 0 (greetings), 1 (first talk day), 2 (any later day)."""
    return min(day, 2)


@dataclass(frozen=True, slots=True)
class Claim:
    """On talk day `day`, `actor` did (`claimed`) or did not claim `role` for the first time.

    `contested`: 0 if nobody had claimed the role before, 1 if someone had, 2 if someone had and a
    claimant of the role had named `actor` a werewolf (a counter-claim by the accused: a werewolf
    exposed by the seer has every reason to claim seer too, an unexposed one far less).
    """

    event_id: int
    actor: int
    role: Role
    day: int
    contested: int
    claimed: bool
    before: tuple[int, ...] = ()
    """The seats that had claimed the role before (for a silence: at the seat's first turn in that state).
    A werewolf whose partner has already claimed a role does not claim it too (`BehaviourModel.pack_rate`)."""

    @property
    def key(self) -> str:
        """The parameter this claim is scored by: claimed role, day (0, 1, later), contested (0-2)."""
        return f"{self.role.value}/{day_bucket(self.day)}/{self.contested}"

    @property
    def fallback(self) -> str | None:
        """The parameter used when a model has none for `key`.

        A counter-claim by the accused is then scored as any contested claim (a model fitted before
        the distinction, or one whose games did not bear it out).
        """
        return f"{self.role.value}/{day_bucket(self.day)}/1" if self.contested == 2 else None


@dataclass(frozen=True, slots=True)
class Report:
    """`actor` announced that `target` is `species` (`kind`: divined or identified)."""

    event_id: int
    kind: str
    actor: int
    target: int
    species: Species


@dataclass(frozen=True, slots=True)
class Choice:
    """`actor` picked `target` out of `candidates` (`kind`: one of `CHOICES`)."""

    event_id: int
    kind: str
    actor: int
    target: int
    candidates: tuple[int, ...]


Observation = Claim | Report | Choice
Reader = Callable[[str, int], Sequence[Statement] | Reading]
"""Reads one utterance of a speaker into statements: the talk reader by default, or e.g. a
chat-model extractor for free talk (`lambda text, who: extractor.extract_sync(text, who, scope=game)`)."""


class Observer:
    """Turns a view's events into observations, incrementally.

    Args:
        names: the table's seat names.
        seat: whose view this is (its own acts are skipped); None for the public record.
        roles_in_play: the roles of the deck (claims of roles not in play still count as claims).
        read: how an utterance becomes statements (default: `lycan.beliefs.reader.TalkReader`). A reader
            that returns a `Reading` also says which lines it did not understand whole: a seat whose
            talk of a day held a role or a result the reader could not read is not taken to have
            stayed silent about claims that day (silence is evidence only where the reader is sure).
            A `TalkReader` reads each line knowing the role its speaker has claimed so far
            ("Olga was human" from a medium claimant is a medium's result).
    """

    def __init__(
        self,
        names: tuple[str, ...],
        seat: int | None,
        roles_in_play: Iterable[Role],
        read: Reader | None = None,
    ) -> None:
        self.names = names
        self.seat = seat
        self.n = len(names)
        self.roles_in_play = frozenset(roles_in_play)
        self.reader: Reader = read or reader_for(names)
        self.said_role: dict[int, str] = {}
        """The role each seat has claimed in public talk so far, as read (a line is read in its light)."""
        self.unsure: dict[int, set[int]] = {}
        """Seats whose talk on each day may hold a claim the reader did not read (no silence for them)."""
        self.alive: tuple[int, ...] = tuple(range(self.n))
        self.claimed: dict[Role, list[int]] = {}
        """For each role, who claimed it, in order."""
        self.talkers: dict[int, set[int]] = {}
        """Seats that spoke (public talk) on each day."""
        self.turns: dict[tuple[int, Role, int], set[int]] = {}
        """Per (day, role, contested): the seats that had a turn that day while nobody had (0) or
        someone had (1) claimed the role before them, or someone had and a claimant had named them a
        werewolf (2)."""
        self.before_turn: dict[tuple[int, Role, int, int], tuple[int, ...]] = {}
        """Per (day, role, contested, seat): who had claimed the role at the seat's first turn in that state."""
        self.named: dict[Role, set[int]] = {}
        """For each role, the seats a claimant of it has named a werewolf."""
        self.claims_today: dict[tuple[int, Role], int] = {}
        self.talk_open: int | None = None
        """The day whose talk has not been closed yet."""
        self.last_round: tuple[int, int, dict[int, int]] = (-1, -1, {})
        """(day, round, votes per target) of the latest vote round."""
        self._candidates: tuple[int, ...] = ()
        """Whom the latest vote round's voters could vote for."""
        self.seen = 0

    def read(self, events: Iterable[Event]) -> list[Observation]:
        """The observations `events` add (call with each new event, in order)."""
        out: list[Observation] = []
        for e in events:
            self.seen += 1
            if isinstance(e, PhaseStarted):
                if e.phase != "day":
                    out.extend(self._close_talk(e.id))
                self.alive = e.alive
                if e.phase == "day":
                    self.talk_open = e.day
            elif isinstance(e, Talk):
                if e.channel == "talk" and e.audience is None:
                    out.extend(self._talk(e))
            elif isinstance(e, VoteCast) and e.audience is None:
                out.extend(self._close_talk(e.id))
                out.extend(self._vote(e))
            elif isinstance(e, Executed):
                out.extend(self._close_talk(e.id))
        return out

    def close(self, event_id: int) -> list[Observation]:
        """End the open day's talk now (e.g. at a probe after the talk): silence becomes evidence."""
        return self._close_talk(event_id)

    # ------------------------------------------------------------------ talk
    def _talk(self, e: Talk) -> list[Observation]:
        actor = e.actor
        self.talkers.setdefault(e.day, set()).add(actor)
        # the states in which this seat spoke earlier today: a claim now follows a silence then
        earlier = {
            role: {c for c in (0, 1, 2) if actor in self.turns.get((e.day, role, c), ())} for role in CLAIM_ROLES
        }
        for role in CLAIM_ROLES:
            contested = self._contest(actor, role)
            self.turns.setdefault((e.day, role, contested), set()).add(actor)
            self.before_turn.setdefault((e.day, role, contested, actor), tuple(self.claimed.get(role, ())))
        if e.over or e.skip:
            return []
        out: list[Observation] = []
        others = tuple(s for s in self.alive if s != actor)
        before = self.said_role.get(actor, "")
        said = (
            self.reader.read(e.text, actor, before)
            if isinstance(self.reader, TalkReader)
            else self.reader(e.text, actor)
        )
        self.said_role[actor] = claimed_role(said, before)
        statements: Iterable[Statement] = said
        if isinstance(said, Reading):
            if said.doubts_claims:
                self.unsure.setdefault(e.day, set()).add(actor)
            statements = [r.statement for r in said.found if r.confidence >= MIN_CONFIDENCE]
        for st in statements:
            if st.kind in ("divined", "identified") and st.species is Species.WEREWOLF and st.target is not None:
                self.named.setdefault(Role.SEER if st.kind == "divined" else Role.MEDIUM, set()).add(st.target)
            if st.kind == "claim":
                role = parse_role(st.role)
                out.extend(self._claim(e.id, actor, role, e.day))
            elif st.target is None or st.target == actor or actor == self.seat:
                continue
            elif st.kind in ("divined", "identified") and st.species is not None:
                role = Role.SEER if st.kind == "divined" else Role.MEDIUM
                out.extend(self._claim(e.id, actor, role, e.day))
                out.append(Report(e.id, st.kind, actor, st.target, st.species))
            elif st.kind == "guarded":
                out.extend(self._claim(e.id, actor, Role.GUARDIAN, e.day))
            elif st.kind in ("will_vote", "accuses", "defends", "liar") and st.target in others:
                kind = "accuses" if st.kind == "liar" else st.kind
                out.append(Choice(e.id, kind, actor, st.target, others))
        if actor != self.seat and actor not in self.unsure.get(e.day, ()):
            out.extend(self._silent_before(out, earlier))
        return out

    def _silent_before(self, out: list[Observation], earlier: dict[Role, set[int]]) -> list[Claim]:
        """The silence of a seat that claims a role now, in turns today in which it spoke and did not.

        Silence is scored by the turns a seat had (`_close_talk`), and a seat that claims late in the day
        had turns too: one that spoke while nobody had claimed the role and counter-claimed only once
        someone had let the role go unclaimed in the first state (the true seer of the planner games claims
        at its first turn: a counter-claimant that had spoken before the first claim was the seer in none
        of them). Not the state the claim is made in (one day's claim is one Bernoulli draw per state).
        """
        silent: list[Claim] = []
        for o in out:
            if isinstance(o, Claim) and o.claimed:
                for c in sorted(earlier.get(o.role, set()) - {o.contested}):
                    before = self.before_turn.get((o.day, o.role, c, o.actor), ())
                    silent.append(Claim(o.event_id, o.actor, o.role, o.day, c, False, before))
        return silent

    def _claim(self, event_id: int, actor: int, role: Role, day: int) -> list[Claim]:
        if role not in CLAIM_ROLES:
            return []
        claimants = self.claimed.setdefault(role, [])
        if actor in claimants:
            return []
        contested = self._contest(actor, role)
        before = tuple(claimants)
        claimants.append(actor)
        if actor == self.seat:
            return []
        return [Claim(event_id, actor, role, day, contested, True, before)]

    def _contest(self, actor: int, role: Role) -> int:
        """`Claim.contested` for a claim of `role` by `actor` now."""
        if not self.claimed.get(role):
            return 0
        return 2 if actor in self.named.get(role, ()) else 1

    def _close_talk(self, event_id: int) -> list[Observation]:
        """The open day's talk is over: every seat that talked and claimed nothing new stayed silent.

        Silence is scored by the turns the seat had: it let the role go unclaimed if it spoke while
        nobody had claimed it, and it did not counter-claim if it spoke after someone had. (Scoring
        the whole day by whether anyone had claimed by its end counted a werewolf's silence before
        the seer came out as silence against a claim, which made a first claim look like a
        werewolf's: P(first claim | werewolf) came out 0.93 in heuristic guardian7 games, 0.99 for a seer.)
        """
        day = self.talk_open
        if day is None:
            return []
        self.talk_open = None
        out: list[Observation] = []
        unsure = self.unsure.get(day, set())
        for actor in sorted(self.talkers.get(day, ())):
            if actor == self.seat or actor in unsure:
                continue
            for role in CLAIM_ROLES:
                if role not in self.roles_in_play or actor in self.claimed.get(role, []):
                    continue
                for contested in (0, 1, 2):
                    if actor in self.turns.get((day, role, contested), ()):
                        before = self.before_turn.get((day, role, contested, actor), ())
                        out.append(Claim(event_id, actor, role, day, contested, False, before))
        return out

    # ------------------------------------------------------------------ votes
    def _vote(self, e: VoteCast) -> list[Observation]:
        day, rnd, tally = self.last_round
        if (day, rnd) != (e.day, e.round):
            if e.round > 0 and day == e.day and tally:
                top = max(tally.values())
                self._candidates = tuple(sorted(t for t, c in tally.items() if c == top))
            else:
                self._candidates = self.alive
            tally = {}
            self.last_round = (e.day, e.round, tally)
        tally[e.target] = tally.get(e.target, 0) + 1
        if e.actor == self.seat:
            return []
        cands = tuple(c for c in self._candidates if c != e.actor or c == e.target)
        if e.target not in cands or len(cands) < 2:
            return []
        return [Choice(e.id, "vote", e.actor, e.target, cands)]
