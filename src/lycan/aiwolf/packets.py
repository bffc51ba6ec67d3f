"""AIWolf NLP packets: built from one seat's `View`, and answers parsed back into actions.

Every packet a seat receives is made here from that seat's own view plus the public settings,
so nothing the seat may not know can reach it. Packets are snake_case JSON objects
`{request, info, setting, talk_history, whisper_history}`; answers are raw text.

Profiles follow the contest server's `custom_profile` option (aiwolf-nlp-server): the INITIALIZE
packet's `info` carries `profile`, one string about the receiving agent only (no other agent's
profile is sent, in that packet or any other), made of one `label: value` line per field of the
server's `profile_encoding`, e.g.::

    age: 41
    gender: female
    personality: calm and measured; you weigh the evidence before you speak; ...

The contest server's Japanese configuration labels the lines `年齢`, `性別`, `性格`, and its
dynamic profiles are model-written text; `read_profile` takes all of these. The profile carries no
name: the agent's name is `info.agent` (the contest server renames agents after their profiles;
ours keeps `Agent[NN]`). Without profiles `info` has no `profile` key, as the contest server
omits it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from lycan.engine.actions import OVER, SKIP, Action, Answer, Failure, Request
from lycan.engine.events import AttackVote as AttackVoteEvent
from lycan.engine.events import Died, Divined, Event, Executed, GameOver, MediumResult, Talk, VoteCast
from lycan.engine.view import View
from lycan.rules.roles import Role, Species, parse_role
from lycan.rules.ruleset import RuleSet
from lycan.rules.text import TextError, clean_talk

PacketKind = Literal[
    "NAME",
    "INITIALIZE",
    "DAILY_INITIALIZE",
    "TALK",
    "WHISPER",
    "DAILY_FINISH",
    "VOTE",
    "DIVINE",
    "GUARD",
    "ATTACK",
    "FINISH",
]

#: Engine request kinds the protocol has a packet for.
REQUEST_PACKETS: dict[str, PacketKind] = {
    "talk": "TALK",
    "whisper": "WHISPER",
    "vote": "VOTE",
    "divine": "DIVINE",
    "guard": "GUARD",
    "attack": "ATTACK",
}
#: Packets that expect a text answer.
NEEDS_ANSWER = frozenset({"NAME", "TALK", "WHISPER", "VOTE", "DIVINE", "GUARD", "ATTACK"})

_ROLE_NAMES: dict[Role, str] = {
    Role.WEREWOLF: "WEREWOLF",
    Role.POSSESSED: "POSSESSED",
    Role.SEER: "SEER",
    Role.MEDIUM: "MEDIUM",
    Role.GUARDIAN: "BODYGUARD",
    Role.VILLAGER: "VILLAGER",
    Role.WITCH: "WITCH",
    Role.HUNTER: "HUNTER",
}
#: Roles the AIWolf protocol knows (a server only deals these).
PROTOCOL_ROLES = frozenset({Role.WEREWOLF, Role.POSSESSED, Role.SEER, Role.MEDIUM, Role.GUARDIAN, Role.VILLAGER})


def role_name(role: Role) -> str:
    """The protocol's name of `role` (`BODYGUARD` for the guardian)."""
    return _ROLE_NAMES[role]


def role_from_name(name: str) -> Role:
    """Inverse of `role_name`.

    Raises:
        ValueError: not a role name.

    """
    return parse_role(name)


def species_name(species: Species) -> str:
    """`HUMAN` or `WEREWOLF`."""
    return "WEREWOLF" if species is Species.WEREWOLF else "HUMAN"


def agent_name(seat: int) -> str:
    """The in-game name the protocol gives seat `seat` (0-based): `Agent[01]` for seat 0."""
    return f"Agent[{seat + 1:02d}]"


def game_names(n: int) -> tuple[str, ...]:
    """`Agent[01]` .. `Agent[NN]`."""
    return tuple(agent_name(s) for s in range(n))


def team_of_name(name: str) -> str:
    """The team of a connection's NAME answer: the name without trailing digits (`lycan3` -> `lycan`)."""
    clean = name.strip()
    return re.sub(r"\d+$", "", clean) or clean


#: Fields of a profile, in the order the lines are written (the contest server's `profile_encoding`).
PROFILE_FIELDS = ("age", "gender", "personality")
#: Line labels `read_profile` knows, by field: the contest server's English and Japanese encodings.
PROFILE_LABELS: dict[str, str] = {
    "name": "name",
    "名前": "name",
    "age": "age",
    "年齢": "age",
    "gender": "gender",
    "性別": "gender",
    "personality": "personality",
    "性格": "personality",
}
#: The most characters of a profile that are read (a contest profile is a few hundred).
PROFILE_LIMIT = 4000
_PROFILE_LINE = re.compile(r"\s*([^:：\n]{1,24}?)\s*[:：]\s*(.*)")


def profile_text(profile: Mapping[str, object]) -> str:
    """The `info.profile` string for a profile (`Persona.profile`): one `field: value` line per field.

    The name is left out, as the contest server leaves it out: it is the packet's `info.agent`.
    """
    return "\n".join(f"{key}: {' '.join(str(profile[key]).split())}" for key in PROFILE_FIELDS if key in profile)


def read_profile(raw: object) -> dict[str, str]:
    """The fields of an `info.profile`: `name`, `age`, `gender`, `personality`, those it gives.

    Reads `label: value` lines with the labels of `PROFILE_LABELS` (either colon, any order; a line
    without a known label continues the field before it), a JSON object of the same fields, or
    free text, which is all personality. Only the first `PROFILE_LIMIT` characters are read.

    Raises:
        ValueError: the profile is neither text nor an object, or holds nothing.

    """
    if isinstance(raw, Mapping):
        labelled = ((PROFILE_LABELS.get(str(k).strip().lower()), v) for k, v in raw.items())
        fields = {key: " ".join(str(v).split()) for key, v in labelled if key is not None}
    elif isinstance(raw, str):
        fields = _profile_lines(raw[:PROFILE_LIMIT])
    else:
        raise ValueError(f"a profile is text, not {type(raw).__name__}")
    fields = {k: v for k, v in fields.items() if v}
    if "age" in fields:
        digits = re.search(r"\d{1,3}", fields["age"])
        if digits is None:
            del fields["age"]
        else:
            fields["age"] = digits.group()
    if not fields:
        raise ValueError("the profile is empty")
    return fields


def _profile_lines(text: str) -> dict[str, str]:
    fields: dict[str, str] = {}
    loose: list[str] = []
    current: str | None = None
    for line in text.splitlines():
        if not line.strip():
            continue
        match = _PROFILE_LINE.fullmatch(line)
        key = PROFILE_LABELS.get(match.group(1).strip().lower()) if match else None
        if match is not None and key is not None:
            current = key
            fields[key] = match.group(2).strip()
        elif current is not None:
            fields[current] = f"{fields[current]} {line.strip()}".strip()
        else:
            loose.append(line.strip())
    if loose and "personality" not in fields:
        fields["personality"] = " ".join(loose)
    return fields


@dataclass(frozen=True, slots=True)
class Timeouts:
    """Protocol timeouts in seconds: an action, the NAME check after a miss, and the grace period."""

    action: float = 60.0
    response: float = 120.0
    acceptable: float = 5.0


def setting_dict(rules: RuleSet, timeouts: Timeouts) -> dict[str, Any]:
    """The `setting` object: the public rules of the table."""
    opts = rules.options

    def talk(lim: Any) -> dict[str, Any]:
        return {
            "max_count": {"per_agent": lim.per_agent, "per_day": lim.per_day},
            "max_length": {
                "count_in_word": False,
                "count_spaces": False,
                "per_talk": lim.max_length,
                "mention_length": None,
                "per_agent": None,
                "base_length": None,
            },
            "max_skip": lim.max_skip,
        }

    return {
        "agent_count": rules.n_players,
        "max_day": opts.max_days,
        "role_num_map": {role_name(r): rules.roles.get(r, 0) for r in Role if r in PROTOCOL_ROLES or r in rules.roles},
        "vote_visibility": True,
        "talk": talk(opts.talk),
        "whisper": talk(opts.whisper_limits),
        "vote": {
            "max_count": 2 if opts.tie_break == "revote_then_random" else 1,
            "allow_self_vote": opts.allow_self_vote,
        },
        "attack_vote": {"max_count": 1, "allow_self_vote": False, "allow_no_target": False},
        "timeout": {"action": int(timeouts.action * 1000), "response": int(timeouts.response * 1000)},
    }


def _last(events: list[Event]) -> Event | None:
    return events[-1] if events else None


def info_dict(view: View, game_id: str, request: Request | None = None) -> dict[str, Any]:
    """The `info` object for `view`'s seat, from its own view only.

    About the previous day it carries divine_result / medium_result (own only), executed_agent,
    attacked_agent, vote_list and (werewolves) attack_vote_list; in TALK/WHISPER also the
    remaining counts; after the game (a GameOver in the view) role_map holds every role.
    """
    names = view.names
    prev = view.day - 1
    info: dict[str, Any] = {"game_id": game_id, "day": view.day, "agent": view.name}
    divined: list[Event] = []
    medium: list[Event] = []
    executed: list[Event] = []
    night_dead: list[Event] = []
    votes: list[VoteCast] = []
    attack_votes: list[AttackVoteEvent] = []
    over: GameOver | None = None
    for e in view.events:
        if isinstance(e, GameOver):
            over = e
        if isinstance(e, Died) and e.cause == "night" and e.day == view.day:
            night_dead.append(e)
        if e.day != prev:
            continue
        if isinstance(e, Divined) and e.actor == view.seat:
            divined.append(e)
        elif isinstance(e, MediumResult) and e.actor == view.seat:
            medium.append(e)
        elif isinstance(e, Executed):
            executed.append(e)
        elif isinstance(e, VoteCast):
            if votes and e.round != votes[-1].round:
                votes = []
            votes.append(e)
        elif isinstance(e, AttackVoteEvent):
            attack_votes.append(e)
    for key, judged in (("divine_result", _last(divined)), ("medium_result", _last(medium))):
        if isinstance(judged, Divined | MediumResult):
            info[key] = {
                "day": judged.day,
                "agent": names[judged.actor],
                "target": names[judged.target],
                "result": species_name(judged.result),
            }
    last_exec = _last(executed)
    if isinstance(last_exec, Executed):
        info["executed_agent"] = names[last_exec.target]
    if night_dead and isinstance(night_dead[0], Died):
        info["attacked_agent"] = names[night_dead[0].target]
    if votes:
        info["vote_list"] = [{"day": v.day, "agent": names[v.actor], "target": names[v.target]} for v in votes]
    if view.role is Role.WEREWOLF and attack_votes:
        info["attack_vote_list"] = [
            {"day": v.day, "agent": names[v.actor], "target": names[v.target]} for v in attack_votes
        ]
    info["status_map"] = {n: ("ALIVE" if view.alive[s] else "DEAD") for s, n in enumerate(names)}
    if over is not None:
        info["role_map"] = {names[s]: role_name(r) for s, r in enumerate(over.roles)}
    else:
        role_map = {view.name: role_name(view.role)}
        if view.role is Role.WEREWOLF:
            for w in view.wolves():
                role_map[names[w]] = role_name(Role.WEREWOLF)
        info["role_map"] = role_map
    if request is not None and request.is_talk:
        talk = request.talk
        info["remain_count"] = 1 if talk.remain_count is None else talk.remain_count
        info["remain_skip"] = talk.remain_skip or 0
    return info


@dataclass(slots=True)
class HistoryCursor:
    """Which talk and whisper entries one seat has already been sent (per day, as the protocol resets).

    `sent` holds the `idx` of the last entry sent per channel: a position among the day's entries
    in the seat's own view, never an event id (ids say nothing about order across audiences).
    """

    day: int = -1
    sent: dict[str, int] = field(default_factory=lambda: {"talk": -1, "whisper": -1})

    def reset(self, day: int) -> None:
        """Start a new day: nothing of it has been sent yet."""
        self.day = day
        self.sent = {"talk": -1, "whisper": -1}

    def take(self, view: View, channel: Literal["talk", "whisper"]) -> list[dict[str, Any]]:
        """The entries of `channel` on the current day that are new since the last call."""
        if view.day != self.day:
            self.reset(view.day)
        entries = talk_entries(view, channel, after=self.sent[channel])
        if entries:
            self.sent[channel] = entries[-1]["idx"]
        return entries


def talk_entries(view: View, channel: str, *, after: int = -1) -> list[dict[str, Any]]:
    """Today's utterances of `channel` in `view` as protocol entries, those with `idx` above `after`.

    `idx` counts the day's entries of the channel in the seat's view; `turn` is the round (how
    many entries the same seat already had in the same session), as the AIWolf server numbers them.
    """
    out: list[dict[str, Any]] = []
    idx = 0
    per_seat: dict[int, int] = {}
    last_turn = -1
    for e in view.events:
        if not isinstance(e, Talk) or e.channel != channel or e.day != view.day:
            continue
        if e.turn <= last_turn:  # the engine counts turns per session: a new session began
            per_seat = {}
        last_turn = e.turn
        turn = per_seat.get(e.actor, 0)
        per_seat[e.actor] = turn + 1
        if idx > after:
            out.append(
                {
                    "idx": idx,
                    "day": e.day,
                    "turn": turn,
                    "agent": view.names[e.actor],
                    "text": e.text,
                    "skip": e.skip,
                    "over": e.over,
                }
            )
        idx += 1
    return out


def build_packet(
    kind: PacketKind,
    view: View,
    game_id: str,
    cursor: HistoryCursor,
    *,
    setting: dict[str, Any] | None = None,
    request: Request | None = None,
    profile: str | None = None,
) -> dict[str, Any]:
    """The packet of `kind` for `view`'s seat; `cursor` tracks the history already sent to it.

    `profile` is this seat's own profile (`profile_text`); only INITIALIZE carries it, in `info`.
    """
    if kind == "NAME":
        return {"request": "NAME"}
    packet: dict[str, Any] = {"request": kind, "info": info_dict(view, game_id, request)}
    if kind == "INITIALIZE" and profile is not None:
        packet["info"]["profile"] = profile
    if kind in ("INITIALIZE", "DAILY_INITIALIZE"):
        cursor.reset(view.day)
        packet["setting"] = setting
    elif kind in ("TALK", "DAILY_FINISH"):
        packet["talk_history"] = cursor.take(view, "talk")
    if kind in ("WHISPER", "ATTACK") or (kind == "DAILY_FINISH" and view.role is Role.WEREWOLF):
        packet["whisper_history"] = cursor.take(view, "whisper")
    return packet


def parse_answer(text: str, request: Request, names: tuple[str, ...]) -> Answer:
    """Turn an agent's raw answer into an action for `request`.

    Talk: `Over`, `Skip` (`ForceSkip` too), an empty answer means `Over`, anything else is speech,
    checked like every string from outside (`lycan.rules.text.clean_talk`: a control, bidi or half
    character is a `Failure` naming it, so that it reaches no other seat, record or terminal).
    Targets: an agent name such as `Agent[01]` (case and surrounding spaces ignored); an unknown
    name is a `Failure`, which the engine treats as an illegal answer.
    """
    clean = text.replace("\r", "").replace("\n", " ").strip()
    if request.is_talk:
        if clean in ("", "Over"):
            return OVER
        if clean in ("Skip", "ForceSkip"):
            return SKIP
        try:
            return Action.speak(clean_talk(clean))
        except TextError as err:
            return Failure(str(err))
    key = clean.lower()
    for seat, name in enumerate(names):
        if name.lower() == key:
            return Action.choose(seat)
    shown = clean if len(clean) <= 40 else clean[:40] + "..."
    return Failure(f"{shown!r} names no agent; answer with a name such as {names[0]}")


def answer_text(action: Action, names: tuple[str, ...]) -> str:
    """The raw text a client sends for `action`."""
    if action.kind == "speak":
        return action.text.replace("\r", " ").replace("\n", " ").strip() or "Over"
    if action.kind == "skip":
        return "Skip"
    if action.kind == "choose" and action.target is not None and 0 <= action.target < len(names):
        return names[action.target]
    return "Over"
