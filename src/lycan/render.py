"""Game events as plain lines, for people and for the seats' LLM prompts, for the whole record or one seat.

`render_log(events, names)` tells everything, including the facts no player saw, each marked with
who could see it; `render_log(events, names, seat=s)` tells exactly what seat `s` saw (read through
`lycan.engine.visible`), with that seat's own private facts in the second person. No markup: the
lines can be printed, logged, compared in tests or fed to a prompt.

Events read in three registers, all written here: the narration above, for people; a seat's
log as an LLM's prompt quotes it, `event_line(event, view)`: one short line per event worth one, the
seat's own acts as "You", the words and names of others made safe to quote (`neutralise`)
(`lycan.agents.memory` keeps those lines for today and digests earlier days partly from them);
and explanations, `explain_influence(events, influence, by)`: the event behind a belief's move, in
words that read after "because", spoken by one seat about another.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from lycan.engine.events import (
    AttackChosen,
    AttackVote,
    BidPlaced,
    Died,
    Divined,
    Event,
    Executed,
    Fault,
    GameOver,
    GameStarted,
    Guarded,
    HunterShot,
    MediumResult,
    NightResolved,
    NoExecution,
    PeacefulNight,
    PhaseStarted,
    PotionUsed,
    ProbeAnswered,
    RoleAssigned,
    Talk,
    VoteCast,
    WitchWoken,
    WolfPack,
    visible,
)
from lycan.engine.view import View
from lycan.rules.roles import Role, Species, team_of

if TYPE_CHECKING:
    from lycan.beliefs.claims import Statement
    from lycan.beliefs.tracker import Influence

_WINNERS = {"village": "Village wins", "werewolf": "Werewolves win", "draw": "Draw"}
_PLURALS = {Role.WEREWOLF: "werewolves", Role.POSSESSED: "possessed"}


#: What a person is asked for each kind of request (the terminal and the browser use the same words).
REQUEST_TITLES = {
    "talk": "Your turn to speak",
    "whisper": "Whisper to your pack",
    "vote": "Vote to execute",
    "attack": "Choose tonight's victim",
    "divine": "Choose a player to divine",
    "guard": "Choose a player to protect tonight",
    "cure": "Use your cure on the victim?",
    "poison": "Use your poison?",
    "shoot": "You are dying: shoot someone?",
    "bid": "How much do you want the floor (0-3)?",
    "probe": "Guess the others' roles",
}


def _plural(role: Role, count: int) -> str:
    return f"{count} {role.value if count == 1 else _PLURALS.get(role, role.value + 's')}"


def _join(parts: Sequence[str]) -> str:
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + " and " + parts[-1]


class _Teller:
    """Names seats for one reader: `viewer` is "you"; everyone else by name."""

    def __init__(self, names: Sequence[str], viewer: int | None) -> None:
        self.names = names
        self.viewer = viewer

    def name(self, seat: int) -> str:
        """The seat's name, as a third party says it."""
        return self.names[seat] if 0 <= seat < len(self.names) else f"seat {seat}"

    def seat(self, seat: int) -> str:
        """The seat's name, marked `(you)` for the reader."""
        return f"{self.name(seat)} (you)" if seat == self.viewer else self.name(seat)

    def me(self, seat: int) -> bool:
        """Whether `seat` is the reader."""
        return seat == self.viewer

    def seats(self, seats: Iterable[int]) -> str:
        """Several seats, or `nobody`."""
        return _join([self.seat(s) for s in seats]) or "nobody"


def _when(event: Event) -> str:
    if event.phase == "night":
        return f"Night {event.day} — "
    if event.phase == "day":
        return f"Day {event.day} — "
    return ""


def _revealed(role: Role | None) -> str:
    return f"; they were the {role.value}" if role is not None else ""


def _game_started(e: GameStarted, t: _Teller) -> str:
    roles = ", ".join(_plural(role, n) for role, n in e.role_counts)
    return f"A game of {e.rules} begins with {len(e.names)} players: {', '.join(e.names)}. Roles in play: {roles}."


def _role_assigned(e: RoleAssigned, t: _Teller) -> str:
    if t.me(e.seat):
        return f"Your role is {e.role.value}."
    return f"{t.name(e.seat)}'s role is {e.role.value}."


def _wolf_pack(e: WolfPack, t: _Teller) -> str:
    if t.viewer in e.members:
        others = [t.name(m) for m in e.members if m != t.viewer]
        if not others:
            return "You are the only werewolf."
        fellows = "fellow werewolf is" if len(others) == 1 else "fellow werewolves are"
        return f"You are a werewolf; your {fellows} {_join(others)}."
    members = [t.name(m) for m in e.members]
    return f"The werewol{'f is' if len(members) == 1 else 'ves are'} {_join(members)}."


def _phase_started(e: PhaseStarted, t: _Teller) -> str:
    label = "Night" if e.phase == "night" else "Day"
    return f"{label} {e.day} begins. Alive: {t.seats(e.alive)}."


def _talk(e: Talk, t: _Teller) -> str | None:
    if e.over or e.skip:
        return None
    if e.channel == "whisper":
        who = "you whisper" if t.me(e.actor) else f"{t.name(e.actor)} whispers"
        return f"{_when(e)}{who} to the werewolves: {e.text}{_seen(e)}"
    return f"{_when(e)}{t.seat(e.actor)}: {e.text}{_seen(e)}"


def _seen(e: Talk) -> str:
    """What the speaker's camera showed, after their words: ` (frowning, shakes head)`."""
    return f" {e.seen.caption()}" if e.seen is not None else ""


def _vote(e: VoteCast, t: _Teller) -> str:
    who = "You vote" if t.me(e.actor) else f"{t.name(e.actor)} votes"
    again = " in the revote" if e.round > 0 else ""
    return f"{who} for {t.seat(e.target)}{again}"


def _executed(e: Executed, t: _Teller) -> str:
    votes = f"{e.votes} vote{'' if e.votes == 1 else 's'}"
    if t.me(e.target):
        return f"You were executed ({votes})"
    return f"{t.name(e.target)} was executed ({votes}){_revealed(e.role)}"


def _no_execution(e: NoExecution, t: _Teller) -> str:
    return f"Nobody was executed ({e.reason})"


def _attack_vote(e: AttackVote, t: _Teller) -> str:
    who = "you vote" if t.me(e.actor) else f"{t.name(e.actor)} votes"
    return f"{_when(e)}{who} to attack {t.seat(e.target)}"


def _attack_chosen(e: AttackChosen, t: _Teller) -> str:
    return f"{_when(e)}the werewolves attack {t.seat(e.target)}"


def _divined(e: Divined, t: _Teller) -> str:
    who = "you divined" if t.me(e.actor) else f"{t.name(e.actor)} divined"
    return f"{_when(e)}{who} {t.seat(e.target)}: {e.result.value}"


def _medium(e: MediumResult, t: _Teller) -> str:
    who = "you learn" if t.me(e.actor) else f"{t.name(e.actor)} learns"
    return f"{_when(e)}{who} that the executed {t.name(e.target)} was {e.result.value}"


def _guarded(e: Guarded, t: _Teller) -> str:
    who = "you guard" if t.me(e.actor) else f"{t.name(e.actor)} guards"
    return f"{_when(e)}{who} {t.seat(e.target)}"


def _witch_woken(e: WitchWoken, t: _Teller) -> str:
    attacked = "nobody" if e.attacked is None else t.seat(e.attacked)
    potions = f"{e.cures} cure{'' if e.cures == 1 else 's'} and {e.poisons} poison{'' if e.poisons == 1 else 's'}"
    if t.me(e.actor):
        return f"{_when(e)}you wake: the werewolves attacked {attacked}; you have {potions} left"
    return f"{_when(e)}{t.name(e.actor)} wakes as the witch: the werewolves attacked {attacked}; {potions} left"


def _potion(e: PotionUsed, t: _Teller) -> str:
    who = "you use your" if t.me(e.actor) else f"{t.name(e.actor)} uses the"
    return f"{_when(e)}{who} {e.potion} on {t.seat(e.target)}"


def _night_resolved(e: NightResolved, t: _Teller) -> str:
    attacked = "nobody" if e.attacked is None else t.seat(e.attacked)
    parts = [f"attacked: {attacked}"]
    for label, seats in (("guarded", e.guarded), ("saved", e.saved), ("poisoned", e.poisoned)):
        if seats:
            parts.append(f"{label}: {t.seats(seats)}")
    parts.append(f"deaths: {t.seats(e.deaths)}")
    return f"{_when(e)}what happened in the night: {'; '.join(parts)}"


def _died(e: Died, t: _Teller) -> str | None:
    if e.cause == "executed":
        return None  # the Executed line already says it
    if e.cause == "shot":
        if t.me(e.target):
            return "You die of the hunter's shot"
        return f"{t.name(e.target)} dies of the hunter's shot{_revealed(e.role)}"
    if t.me(e.target):
        return "You were killed in the night"
    return f"{t.name(e.target)} was found dead this morning{_revealed(e.role)}"


def _peaceful(e: PeacefulNight, t: _Teller) -> str:
    return "Nobody died last night"


def _hunter(e: HunterShot, t: _Teller) -> str:
    if t.me(e.actor):
        return f"As you die, you shoot {t.seat(e.target)}"
    return f"{t.name(e.actor)}, dying, shoots {t.seat(e.target)}"


def _fault(e: Fault, t: _Teller) -> str:
    whose = "your" if t.me(e.seat) else f"{t.name(e.seat)}'s"
    reasons = "; ".join(dict.fromkeys(e.reasons))
    return f"{_when(e)}{whose} {e.request} answer was refused twice ({reasons}); the game used: {e.fallback}"


def _probe(e: ProbeAnswered, t: _Teller) -> str:
    if not e.guesses:
        return f"{_when(e)}{t.name(e.seat)} gave no role guesses ({e.error or 'no answer'})"
    guesses = ", ".join(f"{t.seat(s)} {role.value}" + ("" if p is None else f" ({p:.0%})") for s, role, p in e.guesses)
    return f"{_when(e)}{t.name(e.seat)} guesses: {guesses}"


def _game_over(e: GameOver, t: _Teller) -> str:
    return f"{_WINNERS.get(e.winner, e.winner)}: {e.reason}. Roles: " + ", ".join(
        f"{t.seat(s)} {role.value}" for s, role in enumerate(e.roles)
    )


_HANDLERS: dict[type[Event], Callable[..., str | None]] = {
    GameStarted: _game_started,
    RoleAssigned: _role_assigned,
    WolfPack: _wolf_pack,
    PhaseStarted: _phase_started,
    Talk: _talk,
    BidPlaced: lambda e, t: None,
    VoteCast: _vote,
    Executed: _executed,
    NoExecution: _no_execution,
    AttackVote: _attack_vote,
    AttackChosen: _attack_chosen,
    Divined: _divined,
    MediumResult: _medium,
    Guarded: _guarded,
    WitchWoken: _witch_woken,
    PotionUsed: _potion,
    NightResolved: _night_resolved,
    Died: _died,
    PeacefulNight: _peaceful,
    HunterShot: _hunter,
    Fault: _fault,
    ProbeAnswered: _probe,
    GameOver: _game_over,
}


def describe_event(event: Event, names: Sequence[str], *, viewer: int | None = None) -> str | None:
    """One line about `event`, or None when it is not worth one (an `Over`, a bid, a repeat).

    Args:
        event: any event of the log.
        names: the seat names, in seat order.
        viewer: the seat reading, whose own facts are told as "you"; None for a neutral narrator.
            An event `viewer` may not see gives None.
    """
    if viewer is not None and not event.visible_to(viewer):
        return None
    handler = _HANDLERS.get(type(event))
    if handler is None:
        return None
    return handler(event, _Teller(names, viewer))


def _label(event: Event, names: Sequence[str]) -> str:
    if event.audience is None:
        return ""
    if not event.audience:
        return "[hidden] "
    t = _Teller(names, None)
    return f"[private: {', '.join(t.name(s) for s in sorted(event.audience))}] "


def render_log(events: Iterable[Event], names: Sequence[str], *, seat: int | None = None) -> list[str]:
    """The lines of a game log.

    Args:
        events: the log (or part of it), in order.
        names: the seat names, in seat order.
        seat: None for the whole record, every private line marked with who saw it (`[hidden]`
            for facts nobody saw); a seat number for exactly what that seat saw, nothing more.
    """
    lines: list[str] = []
    if seat is None:
        for event in events:
            line = describe_event(event, names)
            if line is not None:
                lines.append(_label(event, names) + line)
        return lines
    for event in visible(events, seat):
        line = describe_event(event, names, viewer=seat)
        if line is not None:
            lines.append(line)
    return lines


def render_roles(roles: Sequence[Role], names: Sequence[str]) -> list[str]:
    """One line per seat: its name, role and side, e.g. `Player 1: seer (village side)`."""
    return [f"{names[s]}: {role.value} ({team_of(role).value} side)" for s, role in enumerate(roles)]


# ----------------------------------------------------------------------------- a seat's log, as a prompt quotes it
# The register LLM agents read (`lycan.agents.memory`, `lycan.agents.prompt`, camwolf's premises,
# `lycan.causal.intervene`): one short line per event worth one, the words of others quoted and made
# safe to quote (`neutralise`), the seat's own acts as "You".
_SPECIAL_TOKEN = re.compile(r"<\|[^|<>]{0,40}\|>|\[/?INST\]|<</?SYS>>|</?s>", re.IGNORECASE)
_ROLE_TAG = re.compile(
    r"\b(system|assistant|user|human|developer|instructions?|tool|im_start|im_end)\s*:", re.IGNORECASE
)
_HEADING = re.compile(r"#{2,}\s*")
_BLOCK_MARK = re.compile(r"\b(begin|end)\s+quoted\s+talk\b", re.IGNORECASE)
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f\u2028\u2029]")
_SPACES = re.compile(r"\s+")


def neutralise(text: str, limit: int = 400) -> str:
    """Make another player's words safe to quote inside a prompt.

    Special chat tokens (`<|im_start|>`, `[INST]`) are removed; role tags such as `SYSTEM:` or
    `### Instruction` lose the punctuation that makes them look like tags; quote marks, angle
    brackets and the talk-block markers are replaced so the text cannot close its quote or block;
    everything is one line of at most `limit` characters.
    """
    t = _SPECIAL_TOKEN.sub(" ", text)
    t = _CONTROL.sub(" ", t)
    t = _HEADING.sub("", t)
    t = _ROLE_TAG.sub(lambda m: f"{m.group(1).lower()} -", t)
    t = _BLOCK_MARK.sub(lambda m: f"{m.group(1).lower()} talk", t)
    t = t.replace('"', "'").replace("`", "'").replace("<", "‹").replace(">", "›")
    t = _SPACES.sub(" ", t).strip()
    if len(t) > limit:
        t = t[: limit - 1].rstrip() + "…"
    return t


@dataclass(frozen=True, slots=True)
class Line:
    """One line of a seat's log: `speaker` is set for quoted talk (which goes in a talk block).

    `seen`: for talk, what the speaker's camera showed as they spoke (`(frowning, shakes head)`),
    written after the quoted words, from a closed vocabulary.
    """

    text: str
    speaker: str | None = None
    channel: str = "talk"
    seen: str = ""


def quoted_name(names: Sequence[str], seat: int | None) -> str:
    """A seat's name as a prompt quotes it (neutralised; `nobody` for no seat)."""
    if seat is None or not 0 <= seat < len(names):
        return "nobody"
    return neutralise(names[seat], 40)


def event_line(event: Event, view: View, *, spectator: bool = False, dated: bool = True) -> Line | None:
    """How `event` reads in `view.seat`'s log, or None if it is not worth a line.

    `spectator`: for a public event, as anyone at the table reads it (the seat's own acts under
    its name, not "You"); private events still read as the seat's own ("Your divination").
    `dated`: with the time of day the log reads them in ("this morning", "last night",
    "tonight"); without it, for a digest that names the day itself.
    """
    names, me = view.names, -1 if spectator else view.seat
    morning, last_night, tonight = (" this morning", " last night", " tonight") if dated else ("", "", "")
    match event:
        case PhaseStarted(phase="day", alive=alive):
            return Line(f"Day {event.day} begins. Alive: {', '.join(quoted_name(names, s) for s in alive)}.")
        case PhaseStarted(phase="night"):
            return Line(f"Night {event.day} falls.")
        case Talk(over=True) | Talk(skip=True):
            return None
        case Talk(actor=actor, text=text, channel=channel):
            speaker = "You" if actor == me else quoted_name(names, actor)
            seen = event.seen.caption() if event.seen is not None else ""
            return Line(neutralise(text), speaker=speaker, channel=channel, seen=seen)
        case VoteCast(actor=actor, target=target, round=rnd):
            again = " (revote)" if rnd else ""
            who = "You" if actor == me else quoted_name(names, actor)
            return Line(f"{who} voted for {quoted_name(names, target)}{again}.")
        case Executed(target=target, votes=votes, role=role):
            shown = f", who was a {role.value}" if role is not None else ""
            return Line(f"{quoted_name(names, target)} was executed with {votes} votes{shown}.")
        case NoExecution(reason=reason):
            return Line(f"Nobody was executed ({neutralise(reason, 80)}).")
        case Died(cause="night", target=target, role=role):
            shown = f" ({role.value})" if role is not None else ""
            return Line(f"{quoted_name(names, target)}{shown} was found dead{morning}.")
        case Died(cause="shot", target=target):
            return Line(f"{quoted_name(names, target)} died from the hunter's shot.")
        case PeacefulNight():
            return Line(f"Nobody died{last_night}.")
        case HunterShot(actor=actor, target=target):
            return Line(f"The hunter {quoted_name(names, actor)} shot {quoted_name(names, target)}.")
        case AttackVote(actor=actor, target=target):
            who = "You" if actor == me else f"Werewolf {quoted_name(names, actor)}"
            return Line(f"{who} chose to attack {quoted_name(names, target)}.")
        case AttackChosen(target=target):
            return Line(f"The werewolves attack {quoted_name(names, target)}{tonight}.")
        case Divined(target=target, result=result):
            return Line(f"Your divination: {quoted_name(names, target)} is {result.value}.")
        case MediumResult(target=target, result=result):
            return Line(f"Your medium reading: {quoted_name(names, target)}, executed, was {result.value}.")
        case Guarded(target=target):
            return Line(f"You protect {quoted_name(names, target)}{tonight}.")
        case WitchWoken(attacked=attacked, cures=cures, poisons=poisons):
            victim = (
                f"the werewolves attacked {quoted_name(names, attacked)}"
                if attacked is not None
                else "nobody was attacked"
            )
            return Line(f"Tonight {victim}. You have {cures} cure and {poisons} poison left.")
        case PotionUsed(potion=potion, target=target):
            return Line(f"You used your {potion} on {quoted_name(names, target)}.")
    return None


# ----------------------------------------------------------------------------- explanations

_CLAIM_KINDS = {"claim": "", "divined": "seer", "identified": "medium", "guarded": "guardian"}
"""Statement kinds that claim a role, and the role each implies (a plain claim names its own)."""


@dataclass(frozen=True, slots=True)
class Explainer:
    """Who gives a reason: their seat, the table's names, how they read talk, and which roles seats claimed.

    `claimed(seat, role)` answers whether `seat` has claimed `role` so far (a seer claim also by
    announcing a result).
    """

    seat: int
    names: Sequence[str]
    parse: Callable[[str, int], Sequence[Statement]]
    claimed: Callable[[int, str], bool]


def explain_influence(events: Sequence[Event], influence: Influence, by: Explainer) -> str:
    """The event behind `influence`, in words that read after "because" ("" if none fit).

    The third register, for explanations: the seat whose suspicion moved is "they"/"them", the
    explaining seat "I"/"me" (never its own name), everyone else by name. The wording avoids every
    pattern of the speech parser, so a sentence built on it still reads as one accusation. Other
    wordings of the same reason: `explanations`.
    """
    said = explanations(events, influence, by)
    return said[0] if said else ""


def _position(events: Sequence[Event], event_id: int) -> int | None:
    """Where the event with id `event_id` stands in `events` (None if it is not there)."""
    return next((i for i, e in enumerate(events) if e.id == event_id), None)


def explanations(events: Sequence[Event], influence: Influence, by: Explainer) -> tuple[str, ...]:
    """Every wording of the reason `explain_influence` gives, its own first (none if no reason fits).

    The others say the same event with the same names in other words ("Player 6 died in the night",
    "we lost Player 6 in the night"), for a speaker who should not repeat the table's sentences; a
    listener checks any of them against the record alike.
    """
    at = _position(events, influence.event_id)
    if at is None:
        return ()
    said = _wordings(events, at, influence, by)
    cited = events[at]
    if isinstance(cited, Talk) and cited.actor == by.seat:
        return said[:1]  # what the speaker said themself: "I went public as the seer" would be a boast
    return said


def _wordings(events: Sequence[Event], at: int, influence: Influence, by: Explainer) -> tuple[str, ...]:
    e = events[at]
    seat, names = influence.seat, by.names

    def subject(s: int) -> str:
        return "they" if s == seat else "I" if s == by.seat else names[s]

    def obj(s: int) -> str:
        return "them" if s == seat else "me" if s == by.seat else names[s]

    def was(s: int) -> str:  # "they were", "I was", "Ken was"
        return f"{subject(s)} {'were' if s == seat else 'was'}"

    if isinstance(e, VoteCast):
        who, whom = subject(e.actor), obj(e.target)
        if e.actor == by.seat:  # "my vote went to Ken" would read as the speaker's vote today
            return (f"{who} voted against {whom}",)
        whose = "their" if e.actor == seat else f"{names[e.actor]}'s"
        return (
            f"{who} voted against {whom}",
            f"{whose} vote went to {whom}",
            f"{whose} vote fell on {whom}",
            f"{whose} ballot went to {whom}",
        )
    if isinstance(e, Talk):
        said = by.parse(e.text, e.actor)
        if influence.kind == "claim":
            role = next(iter(_claimed(said)), "")
            if not role:
                return ()
            before = _first_claimant(events[:at], role, e.actor, by)
            if e.actor == seat:
                if before is None:
                    return (
                        f"they claimed {role}",
                        f"they came forward as the {role}",
                        f"they stepped up as the {role}",
                        f"they made a {role} claim",
                        f"they put themselves forward as the {role}",
                        f"they went public as the {role}",
                        f"they announced a {role} claim",
                    )
                first = "I" if before == by.seat else names[before]
                accuser = _named_werewolf_by(events[:at], seat, role, by)
                if accuser is not None:
                    # a counter-claim by the accused: the claim came only once a result named them
                    named = "I" if accuser == by.seat else names[accuser]
                    return (
                        f"they only claimed {role} once {named} named them a werewolf",
                        f"they claimed {role} right after {named} called them a werewolf",
                        f"they only claimed {role} after {named} found them to be a werewolf",
                    )
                return (
                    f"they claimed {role} after {first} did",
                    f"they claimed {role} only once {first} had",
                    f"they claimed {role} right after {first} did",
                    f"they only claimed {role} after {first} did",
                )
            who = subject(e.actor)
            if by.claimed(seat, role):
                return (
                    f"{who} also claimed {role}",
                    f"{who} claimed {role} as well",
                    f"{who} too claimed {role}",
                    f"{who} made a {role} claim too",
                )
            return (
                f"{who} claimed {role}",
                f"{who} came forward as the {role}",
                f"{who} stepped up as the {role}",
                f"{who} made a {role} claim",
                f"{who} went public as the {role}",
                f"{who} announced a {role} claim",
            )
        kinds = ("divined", "identified") if influence.kind == "report" else ("will_vote", "accuses", "defends", "liar")
        acts = [st for st in said if st.kind in kinds and st.target is not None]
        if not acts:
            return ()
        wolf = Species.WEREWOLF
        st = next((x for x in acts if x.target == seat), None) or next((x for x in acts if x.species is wolf), acts[0])
        assert st.target is not None
        who, whom = subject(e.actor), obj(st.target)
        what = "a werewolf" if st.species is wolf else "human"
        if st.kind == "divined":
            return (
                f"{who} called {whom} {what}",
                f"{who} said {subject(st.target)} came up {what}",
                f"{who} reported {whom} as {what}",
            )
        if st.kind == "identified":
            return (
                f"{who} read {whom} as {what}",
                f"{who} said {was(st.target)} {what}",
                f"{who} reported {whom} as {what}",
            )
        return {
            "will_vote": (
                f"{who} wanted to execute {whom}",
                f"{who} pushed to execute {whom}",
                f"{who} wanted {whom} gone",
            ),
            "accuses": (
                f"{who} accused {whom}",
                f"{who} pointed at {whom}",
                f"{who} went after {whom}",
                f"{who} pointed the finger at {whom}",
                f"{who} took aim at {whom}",
                f"{who} called {whom} out",
                f"{who} had doubts about {whom}",
            ),
            "defends": (
                f"{who} defended {whom}",
                f"{who} stood up for {whom}",
                f"{who} spoke up for {whom}",
                f"{who} vouched for {whom}",
                f"{who} took the side of {whom}",
            ),
            "liar": (
                f"{who} called {whom} a liar",
                f"{who} said {was(st.target)} lying",
                f"{who} called {whom} a fake",
            ),
        }[st.kind]
    if isinstance(e, Divined | MediumResult):
        what = "a werewolf" if e.result is Species.WEREWOLF else "human"
        how = "my divination" if isinstance(e, Divined) else "my reading"
        return (f"{how} showed {'they are' if e.target == seat else f'{names[e.target]} is'} {what}",)
    if isinstance(e, Died | Executed) and e.role is not None:
        x = e.target
        return (f"{subject(x)} turned out to be the {e.role.value}", f"{was(x)} revealed as the {e.role.value}")
    if isinstance(e, Died) and e.cause == "night":
        x = e.target
        return (
            f"{subject(x)} died in the night",
            f"we lost {obj(x)} in the night",
            f"{was(x)} killed in the night",
            f"{subject(x)} did not survive the night",
            f"the night took {obj(x)}",
            f"{was(x)} killed overnight",
            f"the wolves got {obj(x)} in the night",
        )
    if isinstance(e, WitchWoken) and e.attacked is not None:
        return (f"the werewolves went for {obj(e.attacked)}", f"the wolves attacked {obj(e.attacked)}")
    if isinstance(e, AttackChosen):
        return (f"we attacked {obj(e.target)}",)
    return ()


def own_later_claim(events: Sequence[Event], influence: Influence, by: Explainer) -> int | None:
    """Where `influence` is another seat's claim of a role the suspect claimed later, the suspect's own claim.

    "Ember claimed seer as well" says less of the suspect than "they claimed seer after Aster did":
    the id of the suspect's first public claim of that role, if another seat had claimed it before;
    else None.
    """
    at = _position(events, influence.event_id)
    if at is None or influence.kind != "claim":
        return None
    e = events[at]
    if not isinstance(e, Talk) or e.actor == influence.seat:
        return None
    role = next(iter(_claimed(by.parse(e.text, e.actor))), "")
    if not role:
        return None
    for i, x in enumerate(events):
        if not (isinstance(x, Talk) and x.channel == "talk" and x.audience is None and x.actor == influence.seat):
            continue
        if role in _claimed(by.parse(x.text, x.actor)):
            return x.id if _first_claimant(events[:i], role, x.actor, by) is not None else None
    return None


def victims_accusation(events: Sequence[Event], influence: Influence, by: Explainer) -> int | None:
    """Where `influence` is another seat's death in the night, that seat's last public word or vote against the suspect.

    "Ken died in the night" is no reason a listener can follow for suspecting Rin; the werewolves'
    choice of victim moves the suspicion because Ken had gone after Rin, so "Ken accused them" is
    the reason to cite. The id of the last talk (a vote intention, accusation or liar call) or vote
    of the victim against the suspect before the death; None if there is none, or for any other event.
    """
    at = _position(events, influence.event_id)
    if at is None:
        return None
    e = events[at]
    if not (isinstance(e, Died) and e.cause == "night" and e.target != influence.seat):
        return None
    victim, seat = e.target, influence.seat
    for x in reversed(events[:at]):
        if isinstance(x, VoteCast) and x.actor == victim and x.target == seat:
            return x.id
        if isinstance(x, Talk) and x.channel == "talk" and x.audience is None and x.actor == victim:
            about = [st.kind for st in by.parse(x.text, x.actor) if st.target == seat]
            # (a line that also defends them would be cited as the defence: "Ken defended them")
            if about and all(k in ("will_vote", "accuses", "liar") for k in about):
                return x.id
    return None


def about_suspect(reason: str) -> bool:
    """Whether an `explain_influence` reason is about the suspect itself (it names them "they" or "them")."""
    return reason.startswith("they ") or " they " in reason or reason.endswith(" them") or " them " in reason


def _first_claimant(events: Sequence[Event], role: str, actor: int, by: Explainer) -> int | None:
    """The first seat other than `actor` that claimed `role` in the public talk of `events`."""
    for e in events:
        if not (isinstance(e, Talk) and e.channel == "talk" and e.audience is None and e.actor != actor):
            continue
        if role in _claimed(by.parse(e.text, e.actor)):
            return e.actor
    return None


def _named_werewolf_by(events: Sequence[Event], seat: int, role: str, by: Explainer) -> int | None:
    """The first seat whose public talk in `events` gave a result of `role` naming `seat` a werewolf."""
    kinds = {kind for kind, claimed in _CLAIM_KINDS.items() if claimed == role}
    for e in events:
        if not (isinstance(e, Talk) and e.channel == "talk" and e.audience is None and e.actor != seat):
            continue
        for st in by.parse(e.text, e.actor):
            if st.kind in kinds and st.target == seat and st.species is Species.WEREWOLF:
                return e.actor
    return None


def _claimed(said: Sequence[Statement]) -> list[str]:
    """The roles `said` claims, in order (a reported result claims its role: `_CLAIM_KINDS`)."""
    return [st.role or _CLAIM_KINDS[st.kind] for st in said if st.kind in _CLAIM_KINDS]
