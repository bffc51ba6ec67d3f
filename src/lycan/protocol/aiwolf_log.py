"""AIWolf game logs (CSV, one event per line) to and from Lycan game records.

Rows (agent indices are 1-based, `Agent[01]` is 1)::

    day,status,idx,ROLE,ALIVE|DEAD,originalName,gameName
    day,talk,idx,turn,agentIdx,text          (and whisper; turn is the round of the day)
    day,vote,from,to                         (and attackVote)
    day,execute,idx,ROLE
    day,divine,seer,target,HUMAN|WEREWOLF
    day,guard,guard,target,ROLE
    day,attack,idx|-1,true|false
    day,result,humans,werewolves,VILLAGER|WEREWOLF|NONE

Utterances may not hold ASCII commas or line breaks: export replaces them. Importing a log
synthesises the event list (seed 0, no recorded answers), enough to render, store and learn from;
export -> import -> export gives the same text.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

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
from lycan.protocol.packets import agent_name, role_from_name, role_name
from lycan.rules.presets import get_preset
from lycan.rules.roles import Role, Species, species_of
from lycan.rules.ruleset import RuleSet

#: What replaces an ASCII comma in an exported utterance.
COMMA = "，"
_WIN = {"village": "VILLAGER", "werewolf": "WEREWOLF", "draw": "NONE"}


class LogFormatError(ValueError):
    """A line of an AIWolf log that cannot be read; the message names the line."""


def clean_text(text: str) -> str:
    """An utterance made safe for one CSV field: no commas, no line breaks."""
    return text.replace(",", COMMA).replace("\r\n", " ").replace("\n", " ").replace("\r", " ")


def _species(result: Species) -> str:
    return "WEREWOLF" if result is Species.WEREWOLF else "HUMAN"


def export_log(record: GameRecord) -> str:
    """The AIWolf CSV log of `record`, one line per event, each ending in a newline."""
    roles = record.roles
    agents = record.agents if len(record.agents) == len(record.names) else record.names
    lines: list[str] = []
    alive = [True] * len(record.names)
    counts: dict[tuple[int, str], int] = {}
    rounds: dict[tuple[int, str, int], int] = {}
    for e in record.events:
        d = e.day
        if isinstance(e, PhaseStarted) and e.phase == "day":
            living = set(e.alive)
            for s, role in enumerate(roles):
                alive[s] = s in living
                state = "ALIVE" if alive[s] else "DEAD"
                lines.append(f"{d},status,{s + 1},{role_name(role)},{state},{agents[s]},{record.names[s]}")
        elif isinstance(e, Talk):
            idx = counts.get((d, e.channel), 0)
            counts[(d, e.channel)] = idx + 1
            turn = rounds.get((d, e.channel, e.actor), 0)
            rounds[(d, e.channel, e.actor)] = turn + 1
            lines.append(f"{d},{e.channel},{idx},{turn},{e.actor + 1},{clean_text(e.text)}")
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
        elif isinstance(e, NightResolved) and e.attacked is not None:
            lines.append(f"{d},attack,{e.attacked + 1},{'true' if e.attacked in e.deaths else 'false'}")
        elif isinstance(e, Died):
            alive[e.target] = False
        elif isinstance(e, GameOver):
            wolves = sum(1 for s, r in enumerate(roles) if alive[s] and species_of(r) is Species.WEREWOLF)
            humans = sum(alive) - wolves
            lines.append(f"{d},result,{humans},{wolves},{_WIN[e.winner]}")
    return "".join(line + "\n" for line in lines)


def write_log(record: GameRecord, path: str | Path) -> Path:
    """Write `record` as an AIWolf log file; returns the path."""
    p = Path(path)
    p.write_text(export_log(record), encoding="utf-8")
    return p


@dataclass
class _Builder:
    """Synthesises events from log lines, in order."""

    events: list[Event] = field(default_factory=list)
    day: int = 0
    phase: Phase = "setup"
    roles: list[Role] = field(default_factory=list)
    agents: list[str] = field(default_factory=list)
    names: list[str] = field(default_factory=list)
    alive: list[bool] = field(default_factory=list)
    status: list[tuple[int, Role, bool, str, str]] = field(default_factory=list)
    status_day: int = -1
    started: bool = False
    talked: bool = False
    night_open: bool = False
    votes: list[tuple[int, int]] = field(default_factory=list)
    voted: set[int] = field(default_factory=set)
    vote_round: int = 0
    guarded: list[int] = field(default_factory=list)
    executed_today: list[int] = field(default_factory=list)
    resolved: bool = True
    winner: Winner = "draw"

    def emit(self, cls: type[Event], *, audience: Iterable[int] | None = None, **fields: Any) -> None:
        aud = None if audience is None else frozenset(audience)
        vis: Visibility = "public" if aud is None else ("seat" if len(aud) == 1 else "team" if aud else "system")
        if cls is Talk and aud:
            vis = "team"
        self.events.append(cls(id=len(self.events), day=self.day, phase=self.phase, vis=vis, audience=aud, **fields))

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
            self.emit(AttackChosen, audience=self.wolves, target=attacked)
            self._after_attack_votes()
        deaths = (attacked,) if attacked is not None and died else ()
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

    def _after_attack_votes(self) -> None:
        """Move the AttackChosen just emitted to right after tonight's attack votes, as the engine logs it."""
        chosen = self.events.pop()
        at = len(self.events)
        for i in range(len(self.events) - 1, -1, -1):
            e = self.events[i]
            if isinstance(e, PhaseStarted):
                break
            if isinstance(e, AttackVote):
                at = i + 1
                break
        self.events.insert(at, chosen)
        self.events[at:] = [dataclasses.replace(e, id=at + k) for k, e in enumerate(self.events[at:])]

    def flush_status(self) -> None:
        if not self.status:
            return
        rows = sorted(self.status)
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
        now_alive = [a for _, _, a, _, _ in rows]
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

    # ---------------------------------------------------------------- lines
    def line(self, n: int, raw: str) -> None:
        where = f"line {n}"
        parts = raw.split(",")
        if len(parts) < 3:
            raise LogFormatError(f"{where}: expected day,kind,... but got {raw!r}")
        try:
            day = int(parts[0])
        except ValueError:
            raise LogFormatError(f"{where}: the day {parts[0]!r} is not a number") from None
        kind = parts[1]
        if kind == "status":
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
            game_name = parts[6] if len(parts) > 6 else agent_name(idx)
            self.status.append((idx, role, parts[4].upper() == "ALIVE", parts[5], game_name))
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

    def _talk(self, parts: list[str], where: str, channel: Literal["talk", "whisper"] = "talk") -> None:
        if channel == "talk":
            if self.night_open:
                raise LogFormatError(f"{where}: talk after the night began")
            self.talked = True
        elif self.talked or self.votes:
            self.open_night()
        text = ",".join(parts[5:])
        if len(parts) > 6 and parts[-1].isdigit() and len(parts[-1]) >= 9:
            text = ",".join(parts[5:-1])  # newer logs end talk lines with a unix time
        actor = self.seat(parts[4], where)
        self.emit(
            Talk,
            audience=self.wolves if channel == "whisper" else None,
            actor=actor,
            text=text,
            channel=channel,
            turn=int(parts[2]),
            over=text == "Over",
            skip=text == "Skip",
        )

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
        target = None if parts[2].strip() == "-1" else self.seat(parts[2], where)
        self.resolve_night(target, parts[3].strip().lower() == "true")

    def _result(self, parts: list[str], where: str) -> None:
        side = parts[4].strip().upper() if len(parts) > 4 else "NONE"
        self.winner = "village" if side in ("VILLAGER", "VILLAGE") else "werewolf" if side == "WEREWOLF" else "draw"
        self.phase = "end"
        self.emit(GameOver, winner=self.winner, roles=tuple(self.roles), reason="from an AIWolf log")


def _rules_for(counts: dict[Role, int]) -> RuleSet:
    for name in ("aiwolf5", "aiwolf13"):
        preset = get_preset(name)
        if preset.roles == counts:
            return preset
    return RuleSet(name="aiwolf", roles=counts, options=get_preset("aiwolf5").options)


def import_log(text: str, *, game_id: str | None = None, meta: dict[str, Any] | None = None) -> GameRecord:
    """Read an AIWolf CSV log into a GameRecord (seed 0, synthesised events, no answers).

    Raises:
        LogFormatError: a line that cannot be read (the message names it).

    """
    b = _Builder()
    for n, raw in enumerate(text.splitlines(), start=1):
        line = raw.rstrip("\r")
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
        events=tuple(b.events),
        decisions=(),
        meta={"source": "aiwolf_log", **(meta or {})},
    )


def read_log(path: str | Path) -> GameRecord:
    """Read an AIWolf log file (see `import_log`).

    Raises:
        LogFormatError: unreadable file or malformed line.

    """
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise LogFormatError(f"cannot read AIWolf log {p}: {err}") from None
    try:
        return import_log(text, meta={"file": p.name})
    except LogFormatError as err:
        raise LogFormatError(f"{p}: {err}") from None


__all__ = ["COMMA", "LogFormatError", "clean_text", "export_log", "import_log", "read_log", "write_log"]
