"""AIWolf game logs (CSV, one event per line) to and from Lycan game records.

Rows (agent indices are 1-based, `Agent[01]` is 1)::

    day,status,idx,ROLE,ALIVE|DEAD|,originalName,gameName
    day,talk,idx,turn,agentIdx,text[,unixTime]   (and whisper)
    day,vote,from,to                              (and attackVote)
    day,execute,idx,ROLE
    day,divine,seer,target,HUMAN|WEREWOLF
    day,guard,guard,target,ROLE
    day,attack,idx|-1,true|false
    day,result,humans,werewolves,VILLAGER|WEREWOLF|NONE

As the reference server writes them: `idx` counts the day's entries of a channel (older servers
count each talk or whisper session from 0 instead, so the second whisper session of day 0 in
13-player games starts again at `0,whisper,0`) and `turn` is the round within one session (it
starts again at 0 in every session); utterances keep their ASCII commas (a reader takes everything
after the fifth comma, less a trailing unix time); `attack,-1,true` is an attack with no target; a
blank status is what the server writes for an agent that errored, and says nothing about its death.

Importing a log synthesises the event list (seed 0, no recorded answers), enough to render, store
and learn from. What the events cannot hold (line endings, talk times, sessions whose idx starts
again, blank statuses, attacks with no target) goes into `meta["aiwolf_log"]`, so import -> export
gives back the same bytes.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from lycan.aiwolf.packets import agent_name, role_from_name, role_name
from lycan.engine.events import (
    AttackChosen,
    AttackVote,
    Died,
    Divined,
    Event,
    Executed,
    GameOver,
    GameStarted,
    Guarded,
    MediumResult,
    NightResolved,
    PeacefulNight,
    Phase,
    PhaseStarted,
    RoleAssigned,
    Talk,
    Visibility,
    VoteCast,
    WolfPack,
)
from lycan.engine.game import Winner
from lycan.engine.record import GameRecord, new_game_id
from lycan.rules.presets import get_preset
from lycan.rules.roles import Role, Species, species_of
from lycan.rules.ruleset import RuleSet

#: The key of `GameRecord.meta` that keeps what a log holds beyond the events.
META_KEY = "aiwolf_log"
_WIN = {"village": "VILLAGER", "werewolf": "WEREWOLF", "draw": "NONE"}
_TALK_KINDS = ("talk", "whisper")


class LogFormatError(ValueError):
    """A line of an AIWolf log that cannot be read; the message names the line."""


def clean_text(text: str) -> str:
    """An utterance made safe for one log line: line breaks become spaces (commas stay, as the server writes them)."""
    return text.replace("\r\n", " ").replace("\n", " ").replace("\r", " ")


def _species(result: Species) -> str:
    return "WEREWOLF" if result is Species.WEREWOLF else "HUMAN"


def _int_or(value: Any, default: int) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return default


@dataclass
class LogStyle:
    """What an AIWolf log holds beyond the events; kept in `meta["aiwolf_log"]` of an imported record.

    Attributes:
        newline: the line ending, LF or CRLF (logs saved on Windows).
        final_newline: whether the last line ends with `newline` (the reference server's files do not).
        status_fields: 7 (with the game name, since 2025) or 6 (older servers).
        talk_times: the unix time ending each talk and whisper line, in order; None when lines have none.
        idx_restarts: (day, channel, n) of each talk or whisper session, the day's n-th of its channel
            counting from 0, whose idx starts again at 0; the events keep where sessions begin (a Talk's
            turn counts from 0 in each), but not which numbering the server used.
        blank_status: (day, seat) of status lines with an empty state (an errored agent).
        no_target_attacks: day -> the died flag of `day,attack,-1,FLAG` lines.
        result: the counts of the result line, where they differ from the living seats.

    """

    newline: str = "\n"
    final_newline: bool = True
    status_fields: int = 7
    talk_times: list[str] | None = None
    idx_restarts: set[tuple[int, str, int]] = field(default_factory=set)
    blank_status: set[tuple[int, int]] = field(default_factory=set)
    no_target_attacks: dict[int, bool] = field(default_factory=dict)
    result: tuple[int, int] | None = None

    def to_meta(self) -> dict[str, Any]:
        """A JSON-ready dict (what `from_meta` reads back)."""
        out: dict[str, Any] = {
            "newline": self.newline,
            "final_newline": self.final_newline,
            "status_fields": self.status_fields,
        }
        if self.talk_times is not None:
            out["talk_times"] = list(self.talk_times)
        if self.idx_restarts:
            out["idx_restarts"] = [list(triple) for triple in sorted(self.idx_restarts)]
        if self.blank_status:
            out["blank_status"] = [list(pair) for pair in sorted(self.blank_status)]
        if self.no_target_attacks:
            out["no_target_attacks"] = [[d, died] for d, died in sorted(self.no_target_attacks.items())]
        if self.result is not None:
            out["result"] = list(self.result)
        return out

    @classmethod
    def from_meta(cls, data: Any) -> LogStyle:
        """The style stored by `to_meta`; defaults for anything missing or malformed."""
        style = cls()
        if not isinstance(data, dict):
            return style
        if data.get("newline") in ("\n", "\r\n"):
            style.newline = str(data["newline"])
        style.final_newline = bool(data.get("final_newline", True))
        style.status_fields = 6 if _int_or(data.get("status_fields"), 7) == 6 else 7
        times = data.get("talk_times")
        if isinstance(times, list):
            style.talk_times = [str(t) for t in times]
        for triple in data.get("idx_restarts") or []:
            if isinstance(triple, list | tuple) and len(triple) == 3 and triple[1] in _TALK_KINDS:
                style.idx_restarts.add((_int_or(triple[0], -1), str(triple[1]), _int_or(triple[2], -1)))
        for pair in data.get("blank_status") or []:
            if isinstance(pair, list | tuple) and len(pair) == 2:
                style.blank_status.add((_int_or(pair[0], -1), _int_or(pair[1], -1)))
        for pair in data.get("no_target_attacks") or []:
            if isinstance(pair, list | tuple) and len(pair) == 2:
                style.no_target_attacks[_int_or(pair[0], -1)] = bool(pair[1])
        counts = data.get("result")
        if isinstance(counts, list | tuple) and len(counts) == 2:
            style.result = (_int_or(counts[0], 0), _int_or(counts[1], 0))
        return style


def export_log(record: GameRecord) -> str:
    """The AIWolf CSV log of `record`, one line per event.

    A record imported from a log is written back byte for byte (line endings, talk times, blank
    statuses and the rest come from `meta["aiwolf_log"]`); any other record gets LF line endings,
    a final newline, line breaks in utterances turned into spaces, and idx counted on through the
    day as the current server counts it.
    """
    imported = META_KEY in record.meta
    style = LogStyle.from_meta(record.meta.get(META_KEY))
    roles = record.roles
    agents = record.agents if len(record.agents) == len(record.names) else record.names
    lines: list[str] = []
    alive = [True] * len(record.names)
    counts: dict[tuple[int, str], int] = {}
    last_turn: dict[tuple[int, str], int] = {}
    session: dict[tuple[int, str], int] = {}
    rounds: dict[tuple[int, str, int, int], int] = {}
    times = style.talk_times
    n_talk = 0
    for e in record.events:
        d = e.day
        if isinstance(e, PhaseStarted) and e.phase == "day":
            living = set(e.alive)
            for s, role in enumerate(roles):
                alive[s] = s in living
                state = "" if (d, s) in style.blank_status else "ALIVE" if alive[s] else "DEAD"
                row = f"{d},status,{s + 1},{role_name(role)},{state},{agents[s]}"
                lines.append(row if style.status_fields == 6 else f"{row},{record.names[s]}")
        elif isinstance(e, Talk):
            key = (d, e.channel)
            if e.turn <= last_turn.get(key, -1):  # the turn count starts again: a new session
                session[key] = session.get(key, 0) + 1
                if (d, e.channel, session[key]) in style.idx_restarts:
                    counts[key] = 0
            last_turn[key] = e.turn
            idx = counts.get(key, 0)
            counts[key] = idx + 1
            who = (d, e.channel, session.get(key, 0), e.actor)
            turn = rounds.get(who, 0)
            rounds[who] = turn + 1
            text = e.text.replace(style.newline, " ") if imported else clean_text(e.text)
            line = f"{d},{e.channel},{idx},{turn},{e.actor + 1},{text}"
            if times is not None and n_talk < len(times):
                line += f",{times[n_talk]}"
            n_talk += 1
            lines.append(line)
        elif isinstance(e, VoteCast):
            lines.append(f"{d},vote,{e.actor + 1},{e.target + 1}")
        elif isinstance(e, AttackVote):
            lines.append(f"{d},attackVote,{e.actor + 1},{e.target + 1}")
        elif isinstance(e, Executed):
            lines.append(f"{d},execute,{e.target + 1},{role_name(roles[e.target])}")
        elif isinstance(e, Divined):
            lines.append(f"{d},divine,{e.actor + 1},{e.target + 1},{_species(e.result)}")
        elif isinstance(e, Guarded):
            lines.append(f"{d},guard,{e.actor + 1},{e.target + 1},{role_name(roles[e.target])}")
        elif isinstance(e, NightResolved):
            if e.attacked is not None:
                lines.append(f"{d},attack,{e.attacked + 1},{'true' if e.attacked in e.deaths else 'false'}")
            elif d in style.no_target_attacks:
                lines.append(f"{d},attack,-1,{'true' if style.no_target_attacks[d] else 'false'}")
        elif isinstance(e, Died):
            alive[e.target] = False
        elif isinstance(e, GameOver):
            humans, wolves = style.result or _survivors(roles, alive)
            lines.append(f"{d},result,{humans},{wolves},{_WIN[e.winner]}")
    text = style.newline.join(lines)
    return text + style.newline if lines and style.final_newline else text


def _survivors(roles: Iterable[Role], alive: list[bool]) -> tuple[int, int]:
    """(humans, werewolves) alive, as the result line counts them (by species)."""
    wolves = sum(1 for s, r in enumerate(roles) if alive[s] and species_of(r) is Species.WEREWOLF)
    return sum(alive) - wolves, wolves


def write_log(record: GameRecord, path: str | Path) -> Path:
    """Write `record` as an AIWolf log file (bytes as `export_log` gives them); returns the path."""
    p = Path(path)
    p.write_bytes(export_log(record).encode("utf-8"))
    return p


@dataclass
class _Builder:
    """Synthesises events from log lines, in order."""

    timed: bool = False
    style: LogStyle = field(default_factory=LogStyle)
    events: list[Event] = field(default_factory=list)
    day: int = 0
    phase: Phase = "setup"
    roles: list[Role] = field(default_factory=list)
    agents: list[str] = field(default_factory=list)
    names: list[str] = field(default_factory=list)
    alive: list[bool] = field(default_factory=list)
    status: list[tuple[int, Role, bool | None, str, str]] = field(default_factory=list)
    status_day: int = -1
    started: bool = False
    talked: bool = False
    night_open: bool = False
    votes: list[tuple[int, int]] = field(default_factory=list)
    voted: set[int] = field(default_factory=set)
    vote_round: int = 0
    guarded: list[int] = field(default_factory=list)
    executed_today: list[int] = field(default_factory=list)
    killed_tonight: set[int] = field(default_factory=set)
    session: tuple[int, str] | None = None
    session_pos: int = 0
    session_turns: dict[int, int] = field(default_factory=dict)
    sessions: dict[tuple[int, str], int] = field(default_factory=dict)
    channel_lines: dict[tuple[int, str], int] = field(default_factory=dict)
    resolved: bool = True
    winner: Winner = "draw"

    def emit(self, cls: type[Event], *, audience: Iterable[int] | None = None, **fields: Any) -> None:
        """Append an event of the current day and phase (ids are given once the log is complete)."""
        aud = None if audience is None else frozenset(audience)
        vis: Visibility = "public" if aud is None else ("seat" if len(aud) == 1 else "team" if aud else "system")
        if cls is Talk and aud:
            vis = "team"
        self.events.append(cls(id=0, day=self.day, phase=self.phase, vis=vis, audience=aud, **fields))

    @property
    def wolves(self) -> frozenset[int]:
        return frozenset(s for s, r in enumerate(self.roles) if r is Role.WEREWOLF)

    def living(self) -> tuple[int, ...]:
        return tuple(s for s, a in enumerate(self.alive) if a)

    def seat(self, value: str, where: str) -> int:
        try:
            seat = int(value) - 1
        except ValueError:
            raise LogFormatError(f"{where}: {value!r} is not an agent number") from None
        if not 0 <= seat < max(len(self.roles), len(self.status)):
            raise LogFormatError(f"{where}: there is no agent {value}")
        return seat

    # ---------------------------------------------------------------- day boundaries
    def open_night(self) -> None:
        if self.night_open or not self.started:
            return
        self.phase = "night"
        self.night_open = True
        self.resolved = False
        self.guarded = []
        self.emit(PhaseStarted, alive=self.living())
        for target in self.executed_today:
            for m in self.living():
                if self.roles[m] is Role.MEDIUM:
                    self.emit(
                        MediumResult, audience=(m,), actor=m, target=target, result=species_of(self.roles[target])
                    )

    def resolve_night(self, attacked: int | None, died: bool) -> None:
        self.open_night()
        if self.resolved:
            return
        if attacked is not None:
            self.events.insert(self._after_attack_votes(), self._attack_chosen(attacked))
        deaths = (attacked,) if attacked is not None and died else ()
        self.killed_tonight = set(deaths)
        self.emit(
            NightResolved,
            audience=(),
            attacked=attacked,
            guarded=tuple(self.guarded),
            saved=(),
            poisoned=(),
            deaths=deaths,
        )
        self.resolved = True

    def _attack_chosen(self, target: int) -> Event:
        self.emit(AttackChosen, audience=self.wolves, target=target)
        return self.events.pop()

    def _after_attack_votes(self) -> int:
        """Where the engine logs the night's AttackChosen: right after tonight's attack votes."""
        for i in range(len(self.events) - 1, -1, -1):
            e = self.events[i]
            if isinstance(e, PhaseStarted):
                break
            if isinstance(e, AttackVote):
                return i + 1
        return len(self.events)

    def flush_status(self) -> None:
        if not self.status:
            return
        rows = sorted(self.status, key=lambda row: row[0])
        self.status = []
        if not self.started:
            self.roles = [r for _, r, _, _, _ in rows]
            self.agents = [a for _, _, _, a, _ in rows]
            self.names = [n for _, _, _, _, n in rows]
            self.alive = [True] * len(rows)
            counts = {r: self.roles.count(r) for r in Role if r in self.roles}
            self.day, self.phase = self.status_day, "setup"
            self.emit(
                GameStarted,
                rules=_rules_for(counts).name,
                names=tuple(self.names),
                role_counts=tuple(counts.items()),
            )
            for s, r in enumerate(self.roles):
                self.emit(RoleAssigned, audience=(s,), seat=s, role=r)
            if self.wolves:
                self.emit(WolfPack, audience=self.wolves, members=tuple(sorted(self.wolves)))
            self.started = True
            self.phase = "day"
            self.emit(PhaseStarted, alive=self.living())
            self._new_day()
            return
        self.resolve_night(None, False)
        # a blank state (an errored agent) keeps what the other lines say: alive unless killed
        now_alive = [
            state if state is not None else self.alive[s] and s not in self.killed_tonight
            for s, (_, _, state, _, _) in enumerate(rows)
        ]
        dead = [s for s, (was, now) in enumerate(zip(self.alive, now_alive, strict=False)) if was and not now]
        self.day, self.phase = self.status_day, "day"
        self.emit(PhaseStarted, alive=tuple(s for s, a in enumerate(now_alive) if a))
        for s in dead:
            self.alive[s] = False
            self.emit(Died, target=s, cause="night")
        if not dead:
            self.emit(PeacefulNight)
        self._new_day()

    def _new_day(self) -> None:
        self.talked = False
        self.night_open = False
        self.votes = []
        self.voted = set()
        self.vote_round = 0
        self.executed_today = []
        self.killed_tonight = set()

    # ---------------------------------------------------------------- lines
    def line(self, n: int, raw: str) -> None:
        where = f"line {n}"
        parts = raw.split(",")
        if len(parts) < 3:
            raise LogFormatError(f"{where}: expected day,kind,... but got {raw!r}")
        kind = parts[1]
        if kind not in _TALK_KINDS:
            parts = raw.rstrip("\r").split(",")  # only utterances may hold a carriage return
            self.session = None
        try:
            day = int(parts[0])
        except ValueError:
            raise LogFormatError(f"{where}: the day {parts[0]!r} is not a number") from None
        if kind == "status":
            self._status(day, parts, where)
            return
        self.flush_status()
        if not self.started:
            raise LogFormatError(f"{where}: the log must start with the day-0 status lines")
        self.day = day
        handler = getattr(self, "_" + kind, None)
        if handler is None:
            return  # kinds this reader does not know are skipped
        try:
            handler(parts, where)
        except (IndexError, ValueError) as err:
            if isinstance(err, LogFormatError):
                raise
            raise LogFormatError(f"{where}: cannot read {raw!r}") from None

    def _status(self, day: int, parts: list[str], where: str) -> None:
        if len(parts) < 6:
            raise LogFormatError(f"{where}: a status line needs day,status,idx,ROLE,STATE,name")
        if self.status and day != self.status_day:
            self.flush_status()
        self.status_day = day
        try:
            role = role_from_name(parts[3])
        except ValueError as err:
            raise LogFormatError(f"{where}: {err}") from None
        idx = int(parts[2]) - 1 if parts[2].isdigit() else len(self.status)
        if len(parts) == 6:
            self.style.status_fields = 6
        game_name = parts[6] if len(parts) > 6 else agent_name(idx)
        state = parts[4].strip().upper()
        if not state:
            self.style.blank_status.add((day, idx))
        self.status.append((idx, role, state == "ALIVE" if state else None, parts[5], game_name))

    def _talk(self, parts: list[str], where: str, channel: Literal["talk", "whisper"] = "talk") -> None:
        if channel == "talk":
            if self.night_open:
                raise LogFormatError(f"{where}: talk after the night began")
            self.talked = True
        elif self.talked or self.votes:
            self.open_night()
        if self.timed:
            text = ",".join(parts[5:-1])
            times = self.style.talk_times = self.style.talk_times or []
            times.append(parts[-1])
        else:
            text = ",".join(parts[5:])
        actor = self.seat(parts[4], where)
        self._start_session_if_new(channel, actor, _int_or(parts[2], -1), _int_or(parts[3], -1))
        self.emit(
            Talk,
            audience=self.wolves if channel == "whisper" else None,
            actor=actor,
            text=text,
            channel=channel,
            turn=self.session_pos,
            over=text == "Over",
            skip=text == "Skip",
        )
        self.session_pos += 1

    def _start_session_if_new(self, channel: Literal["talk", "whisper"], actor: int, idx: int, turn: int) -> None:
        """Start a new talk or whisper session where the log's numbers say one begins.

        A session begins with the first line after lines of another kind, with an idx that starts
        again at 0 (older servers number each session from 0), or with a turn lower than the
        speaker's count of lines in the session so far (the export numbers turns by that count, so
        two sessions with nothing between them must not be read as one). Which sessions restart
        their idx goes into the style, as the events number their own turns per session anyway.
        """
        key = (self.day, channel)
        seen = self.channel_lines.get(key, 0)
        self.channel_lines[key] = seen + 1
        restarts = idx == 0 and seen > 0
        if self.session != key or restarts or 0 <= turn < self.session_turns.get(actor, 0):
            n = self.sessions[key] = self.sessions.get(key, -1) + 1
            self.session, self.session_pos, self.session_turns = key, 0, {}
            if restarts:
                self.style.idx_restarts.add((self.day, channel, n))
        self.session_turns[actor] = self.session_turns.get(actor, 0) + 1

    def _whisper(self, parts: list[str], where: str) -> None:
        self._talk(parts, where, "whisper")

    def _vote(self, parts: list[str], where: str) -> None:
        actor, target = self.seat(parts[2], where), self.seat(parts[3], where)
        if actor in self.voted:
            self.vote_round += 1
            self.voted = set()
            self.votes = []
        self.voted.add(actor)
        self.votes.append((actor, target))
        self.emit(VoteCast, actor=actor, target=target, round=self.vote_round)

    def _execute(self, parts: list[str], where: str) -> None:
        target = self.seat(parts[2], where)
        votes = sum(1 for _, t in self.votes if t == target)
        self.emit(Executed, target=target, votes=votes)
        self.alive[target] = False
        self.executed_today.append(target)
        self.emit(Died, target=target, cause="executed")

    def _divine(self, parts: list[str], where: str) -> None:
        self.open_night()
        actor, target = self.seat(parts[2], where), self.seat(parts[3], where)
        result = Species.WEREWOLF if parts[4].upper() == "WEREWOLF" else Species.HUMAN
        self.emit(Divined, audience=(actor,), actor=actor, target=target, result=result)

    def _guard(self, parts: list[str], where: str) -> None:
        self.open_night()
        actor, target = self.seat(parts[2], where), self.seat(parts[3], where)
        self.guarded.append(target)
        self.emit(Guarded, audience=(actor,), actor=actor, target=target)

    def _attackVote(self, parts: list[str], where: str) -> None:
        self.open_night()
        actor, target = self.seat(parts[2], where), self.seat(parts[3], where)
        self.emit(AttackVote, audience=self.wolves, actor=actor, target=target)

    def _attack(self, parts: list[str], where: str) -> None:
        died = parts[3].strip().lower() == "true"
        if parts[2].strip() == "-1":  # the werewolves chose nobody
            self.style.no_target_attacks[self.day] = died
            self.resolve_night(None, False)
        else:
            self.resolve_night(self.seat(parts[2], where), died)

    def _result(self, parts: list[str], where: str) -> None:
        side = parts[4].strip().upper() if len(parts) > 4 else "NONE"
        self.winner = "village" if side in ("VILLAGER", "VILLAGE") else "werewolf" if side == "WEREWOLF" else "draw"
        counts = (int(parts[2]), int(parts[3]))
        if counts != _survivors(self.roles, self.alive):
            self.style.result = counts
        self.phase = "end"
        self.emit(GameOver, winner=self.winner, roles=tuple(self.roles), reason="from an AIWolf log")


def _rules_for(counts: dict[Role, int]) -> RuleSet:
    for name in ("aiwolf5", "aiwolf13"):
        preset = get_preset(name)
        if preset.roles == counts:
            return preset
    return RuleSet(name="aiwolf", roles=counts, options=get_preset("aiwolf5").options)


def _split_lines(text: str, style: LogStyle) -> list[str]:
    """The lines of a log, split on its own line ending only (utterances may hold a bare CR)."""
    first = text.find("\n")
    style.newline = "\r\n" if first > 0 and text[first - 1] == "\r" else "\n"
    style.final_newline = text.endswith(style.newline)
    body = text[: -len(style.newline)] if style.final_newline else text
    return body.split(style.newline) if body else []


def _is_timed(lines: list[str]) -> bool:
    """Whether every talk and whisper line ends with a unix time (logs of servers since 2025)."""
    talk = [parts for parts in (line.split(",") for line in lines) if len(parts) > 1 and parts[1] in _TALK_KINDS]
    return bool(talk) and all(len(p) > 6 and p[-1].isdigit() and len(p[-1]) >= 9 for p in talk)


def import_log(text: str, *, game_id: str | None = None, meta: dict[str, Any] | None = None) -> GameRecord:
    """Read an AIWolf CSV log into a GameRecord (seed 0, synthesised events, no answers).

    `meta["aiwolf_log"]` of the record keeps what the events cannot, so `export_log` gives back
    the same text.

    Raises:
        LogFormatError: a line that cannot be read (the message names it).

    """
    style = LogStyle()
    lines = _split_lines(text, style)
    b = _Builder(timed=_is_timed(lines), style=style)
    for n, line in enumerate(lines, start=1):
        if line.strip():
            b.line(n, line)
    b.flush_status()
    if not b.started:
        raise LogFormatError("the log has no status lines; is it an AIWolf game log?")
    if not b.events or not isinstance(b.events[-1], GameOver):
        raise LogFormatError("the log has no result line; the game is incomplete")
    counts = {r: b.roles.count(r) for r in Role if r in b.roles}
    return GameRecord(
        game_id=game_id or new_game_id(),
        rules=_rules_for(counts),
        seed=0,
        names=tuple(b.names),
        agents=tuple(b.agents),
        roles=tuple(b.roles),
        winner=b.winner,
        events=tuple(dataclasses.replace(e, id=i) for i, e in enumerate(b.events)),
        decisions=(),
        meta={"source": "aiwolf_log", **(meta or {}), META_KEY: style.to_meta()},
    )


def read_log(path: str | Path) -> GameRecord:
    """Read an AIWolf log file (see `import_log`); its bytes are kept exactly, line endings included.

    Raises:
        LogFormatError: unreadable file or malformed line.

    """
    p = Path(path)
    try:
        text = p.read_bytes().decode("utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise LogFormatError(f"cannot read AIWolf log {p}: {err}") from None
    try:
        return import_log(text, meta={"file": p.name})
    except LogFormatError as err:
        raise LogFormatError(f"{p}: {err}") from None


__all__ = [
    "META_KEY",
    "LogFormatError",
    "LogStyle",
    "clean_text",
    "export_log",
    "import_log",
    "read_log",
    "write_log",
]
