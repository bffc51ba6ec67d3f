"""The conformance kit: play many games from many seeds and check every invariant of the engine.

`check_rules(rules, games, seed)` plays `games` games with the named agents (random by default),
each seat wrapped so that every request it gets is checked against the game as the event log
tells it: the seat is alive, the view is its own and shows nothing it may not know, the targets
are legal. After each game the record is checked as a whole (`check_record`): role counts, ids,
deaths per night, executions, the winner, hidden information in `visible(log, seat)`, replay and
the JSON round trip. Each role's own invariants (the seer's truth, potions, the guardian's rule,
hunter shots, the idiot's vote...) are its plug-in's `RoleChecks`, which the kit feeds with every
event and request (`lycan.engine.roles`). Violations are collected, never raised, so one run
reports every problem it finds.

Use it when adding a role, an option or a protocol::

    report = check_rules(get_preset("guardian7"), games=1000)
    assert report.ok, report.summary()
"""

from __future__ import annotations

import asyncio
import functools
import itertools
import json
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Literal

from lycan.agents import make_agent, parse_lineup
from lycan.engine.actions import OVER, PASS, Action, Request
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
    PhaseStarted,
    RoleAssigned,
    Talk,
    VoteCast,
    WolfPack,
    event_to_dict,
    expected_ids,
    visible,
)
from lycan.engine.record import GameRecord
from lycan.engine.roles import PLUGINS, RoleChecks, Secrecy, Shadow, event_secrecy, role_of_request
from lycan.engine.roles.base import describe
from lycan.engine.runner import Player, SyncPlayer, replay, run_async, run_sync
from lycan.engine.seeds import derive
from lycan.engine.view import View
from lycan.rules.presets import resolve_rules
from lycan.rules.roles import Role
from lycan.rules.ruleset import RuleSet

PlayerFactory = Callable[[int, int], Player]
"""Builds the player of a seat: `(seat, seed) -> Player`."""

_NOBODY: frozenset[int] = frozenset()
_Rule = Secrecy | Literal["talk"]


def role_checks(shadow: Shadow, out: list[str]) -> list[RoleChecks]:
    """The checks of every registered role for one game, reporting to `out`."""
    return [plugin.checks(shadow, out) for plugin in PLUGINS.values() if plugin.checks is not None]


class _Checks:
    """Every role's checks of one game, dispatched by event type and request kind."""

    def __init__(self, shadow: Shadow, out: list[str]) -> None:
        self.all = role_checks(shadow, out)
        self.by_event: dict[type[Event], list[RoleChecks]] = {}
        self.by_request: dict[str, list[RoleChecks]] = {}
        for c in self.all:
            for cls in c.watches:
                self.by_event.setdefault(cls, []).append(c)
            for kind in c.asks:
                self.by_request.setdefault(kind, []).append(c)
        self.posthumous = frozenset(cls for c in self.all for cls in c.posthumous)

    def event(self, e: Event) -> None:
        for c in self.by_event.get(type(e), ()):
            c.event(e)

    def request(self, req: Request, where: str) -> None:
        for c in self.by_request.get(req.kind, ()):
            c.request(req, where)


@dataclass
class ConformanceReport:
    """What a conformance run found.

    Attributes:
        rules: the rule set's name.
        agents: the agents that played.
        games: games played.
        violations: `(seed, description)` for every broken invariant, in the order found.
        seconds: wall time of the run.
        wins: games won per side (`village`, `werewolf`, `draw`).
        faults: fallbacks used in all games (illegal or late answers).

    """

    rules: str
    agents: str
    games: int = 0
    violations: list[tuple[int, str]] = field(default_factory=list)
    seconds: float = 0.0
    wins: Counter[str] = field(default_factory=Counter)
    faults: int = 0

    @property
    def ok(self) -> bool:
        """Whether no invariant was broken."""
        return not self.violations

    @property
    def games_per_second(self) -> float:
        """Throughput of the run, checks included."""
        return self.games / self.seconds if self.seconds > 0 else 0.0

    def summary(self, limit: int = 10) -> str:
        """A short text: counts, speed, outcome shares and the first `limit` violations."""
        n = max(self.games, 1)
        shares = ", ".join(f"{side} {self.wins[side] / n:.0%}" for side in ("village", "werewolf", "draw"))
        head = (
            f"{self.rules} with {self.agents}: {self.games} games in {self.seconds:.1f} s "
            f"({self.games_per_second:.0f} games/s); {shares}; {self.faults} faults; "
            f"{len(self.violations)} violation(s)"
        )
        lines = [head]
        for seed, text in self.violations[:limit]:
            lines.append(f"  seed {seed}: {text}")
        if len(self.violations) > limit:
            lines.append(f"  ... and {len(self.violations) - limit} more")
        return "\n".join(lines)


# --------------------------------------------------------------------------- who may see what
_ENGINE_SECRECY: dict[type[Event], _Rule] = {
    **dict.fromkeys(
        (GameStarted, PhaseStarted, BidPlaced, VoteCast, Executed, NoExecution, Died, PeacefulNight, GameOver),
        "public",
    ),
    Talk: "talk",
    WolfPack: "wolves",
    RoleAssigned: "seat",
    Fault: "seat",
    NightResolved: "record",
}


@functools.cache
def _from_plugins(registered: int) -> tuple[dict[type[Event], _Rule], dict[str, Role], frozenset[str]]:
    """What the role plug-ins say, rebuilt when one more is registered.

    Who may know each event by its meaning, the one role each role-only request kind is asked of
    (talk and vote: anyone), and the request kinds asked of a seat that has just died.
    """
    secrecy: dict[type[Event], _Rule] = {**_ENGINE_SECRECY, **event_secrecy()}
    posthumous = frozenset(kind for plugin in PLUGINS.values() for kind in plugin.posthumous)
    return secrecy, role_of_request(), posthumous


def _plugins() -> tuple[dict[type[Event], _Rule], dict[str, Role], frozenset[str]]:
    return _from_plugins(len(PLUGINS))


def may_see(event: Event, wolves: frozenset[int]) -> frozenset[int] | None:
    """The seats that may know `event` by the rules of the game (None: everyone).

    Decided from the event's meaning, not from its `audience` field, so that an event filed
    under the wrong audience is caught. `wolves` are the werewolves' seats. An event type this
    kit does not know keeps its own audience.
    """
    rule = _plugins()[0].get(type(event))
    if rule is None:
        return event.audience
    if rule == "public":
        return None
    if rule == "talk":
        return wolves if event.channel == "whisper" else None  # type: ignore[attr-defined]
    if rule == "wolves":
        return wolves
    if rule == "actor":
        return frozenset((event.actor,))  # type: ignore[attr-defined]
    if rule == "seat":
        return frozenset((event.seat,))  # type: ignore[attr-defined]
    return _NOBODY


def _win(alive: Iterable[int], roles: Sequence[Role]) -> str | None:
    wolves = others = 0
    for s in alive:
        if roles[s] is Role.WEREWOLF:
            wolves += 1
        else:
            others += 1
    if wolves == 0:
        return "village"
    if wolves >= others:
        return "werewolf"
    return None


# --------------------------------------------------------------------------- during play
class _Monitor:
    """Shadow state of one game, rebuilt from the event stream alone, and the request checks."""

    def __init__(self, rules: RuleSet, out: list[str]) -> None:
        n = rules.n_players
        self.rules = rules
        self.opts = rules.options
        self.out = out
        self.log: list[Event] = []
        self.ids = EventIds(n)
        self.position: dict[int, int] = {}  # event id -> index in the log
        self.view_ids = [EventIds(n) for _ in range(n)]  # ids recomputed from each seat's view alone
        self.may: list[frozenset[int] | None] = []
        self.shadow = Shadow(rules)
        # The role checks follow the events to judge requests; what they find wrong in the events
        # themselves `check_record` reports after the game, so only request problems are kept.
        self._found: list[str] = []
        self.checks = _Checks(self.shadow, self._found)
        self.public = 0  # public events so far
        self.shown = [0] * n  # private events each seat may see so far
        self.checked = [0] * n  # events of each seat's view already checked
        self.over = False

    def on_event(self, e: Event) -> None:
        expected = self.ids.next(e.audience)
        if e.id != expected or e.id in self.position:
            self.out.append(f"event {e.kind} has id {e.id}, expected {expected}")
        self.position[e.id] = len(self.log)
        self.log.append(e)
        self.may.append(may_see(e, self.shadow.wolves))
        aud = e.audience
        if aud is None:
            self.public += 1
        else:
            for s in aud:
                if 0 <= s < len(self.shown):
                    self.shown[s] += 1
        self.checks.event(e)
        self._found.clear()
        self.shadow.apply(e)
        if isinstance(e, GameOver):
            self.over = True

    def check(self, view: View, req: Request) -> None:
        """Check one request and the view given with it; append what is wrong."""
        seat = req.seat
        out = self.out
        shadow = self.shadow
        where = f"request {req.id} ({req.kind} for seat {seat}, day {req.day})"
        role = shadow.roles[seat]
        if self.over:
            out.append(f"{where} after the game ended")
        _, role_of_kind, posthumous = _plugins()
        if not shadow.alive[seat] and req.kind not in posthumous:
            out.append(f"{where}: the seat is dead")
        wanted = role_of_kind.get(req.kind)
        if wanted is not None and role is not wanted:
            out.append(f"{where}: asked of a {role}, not a {wanted}")
        if view.seat != seat or view.role is not role:
            out.append(f"{where}: given the view of seat {view.seat} ({view.role})")
        if tuple(view.alive) != tuple(shadow.alive):
            out.append(f"{where}: the view's alive list differs from the log")
        self._check_targets(req, where)
        self._check_view(view, seat, where)

    def _check_targets(self, req: Request, where: str) -> None:
        out = self.out
        alive = self.shadow.alive
        targets = req.targets
        dead = [t for t in targets if not (0 <= t < len(alive) and alive[t])]
        if dead:
            out.append(f"{where}: dead or unknown seats {dead} among the targets")
        if len(set(targets)) != len(targets):
            out.append(f"{where}: repeated targets {list(targets)}")
        kind = req.kind
        if kind in ("talk", "whisper", "bid"):
            if targets:
                out.append(f"{where}: talk requests take no targets")
            return
        if not targets and not req.can_pass:
            out.append(f"{where}: no target and no way to pass")
        if kind == "vote" and req.seat in targets and not self.opts.allow_self_vote:
            out.append(f"{where}: may vote for itself")
        self.checks.request(req, where)
        out.extend(self._found)
        self._found.clear()

    def _check_view(self, view: View, seat: int, where: str) -> None:
        events = view.events
        n = len(events)
        if n != self.public + self.shown[seat]:
            self.out.append(f"{where}: the view holds {n} events, the seat may see {self.public + self.shown[seat]}")
        log, may, position, ids = self.log, self.may, self.position, self.view_ids[seat]
        last = position.get(events[self.checked[seat] - 1].id, -1) if self.checked[seat] else -1
        for e in events[self.checked[seat] :]:
            i = position.get(e.id, -1)
            if not (last < i < len(log)) or log[i] is not e:
                self.out.append(f"{where}: view event {e.kind} #{e.id} is not the log's, or out of order")
            else:
                m = may[i]
                if m is not None and seat not in m:
                    self.out.append(f"{where}: the view shows {_describe(e)}")
            if ids.next(e.audience) != e.id:
                self.out.append(f"{where}: the id of {_describe(e)} depends on events the seat cannot see")
            last = i
        self.checked[seat] = n


_describe = describe


class _Watched:
    """A player wrapped so that every request it gets is checked first."""

    def __init__(self, player: Player, monitor: _Monitor) -> None:
        self.player = player
        self.monitor = monitor
        self.label = str(getattr(player, "label", type(player).__name__))

    def _check(self, view: View, request: Request) -> None:
        try:
            self.monitor.check(view, request)
        except Exception as err:  # a view too broken to read is itself a violation
            self.monitor.out.append(f"request {request.id} cannot be checked: {type(err).__name__}: {err}")

    def decide(self, view: View, request: Request) -> Action:
        self._check(view, request)
        return self.player.decide(view, request)  # type: ignore[attr-defined, no-any-return]

    async def act(self, view: View, request: Request) -> Action:
        self._check(view, request)
        return await self.player.act(view, request)


# --------------------------------------------------------------------------- after play
def check_record(
    record: GameRecord,
    *,
    replay_game: bool = True,
    round_trip: bool = True,
    secrecy: Sequence[frozenset[int] | None] | None = None,
) -> list[str]:
    """Every invariant a finished game's record must satisfy; returns what is broken (empty: fine).

    Args:
        record: a finished game.
        replay_game: also replay the record and compare the event logs.
        round_trip: also check that the JSON round trip of the record is exact.
        secrecy: `may_see` of every event, if already known (saves time).

    """
    out: list[str] = []
    try:
        _check_log(record, out, secrecy)
    except Exception as err:  # a malformed log must be reported, not crash the kit
        out.append(f"the log cannot be checked: {type(err).__name__}: {err}")
    if replay_game:
        try:
            again = replay(record)
            if tuple(again.events) != record.events:
                first = next(
                    (i for i, (a, b) in enumerate(zip(again.events, record.events, strict=False)) if a != b),
                    min(len(again.events), len(record.events)),
                )
                out.append(f"replay differs from the record from event #{first} on")
        except Exception as err:
            out.append(f"replay failed: {type(err).__name__}: {err}")
    if round_trip:
        try:
            back = GameRecord.from_dict(json.loads(json.dumps(record.to_dict())))
            if back != record:
                bad = [f for f in record.__dataclass_fields__ if getattr(back, f) != getattr(record, f)]
                out.append(f"JSON round trip changes the record's {', '.join(bad)}")
        except Exception as err:
            out.append(f"JSON round trip failed: {type(err).__name__}: {err}")
    return out


def _check_log(record: GameRecord, out: list[str], secrecy: Sequence[frozenset[int] | None] | None) -> None:
    rules = record.rules
    opts = rules.options
    roles = record.roles
    events = record.events
    n = rules.n_players
    # ---- the deal
    if Counter(roles) != Counter({r: c for r, c in rules.roles.items() if c}):
        out.append(f"dealt roles {dict(Counter(roles))} do not match the rules {dict(rules.roles)}")
    if len(roles) != n or len(record.names) != n:
        out.append(f"{len(roles)} roles and {len(record.names)} names for {n} seats")
    for i, (e, expected_id) in enumerate(zip(events, expected_ids(events, n), strict=True)):
        if e.id != expected_id:
            out.append(f"event #{i} ({e.kind}) has id {e.id}, expected {expected_id}")
            break
    if not events or not isinstance(events[0], GameStarted):
        out.append("the log does not start with game_started")
        return
    if not isinstance(events[-1], GameOver):
        out.append("the log does not end with game_over")
        return
    start, over = events[0], events[-1]
    if dict(start.role_counts) != dict(rules.roles):
        out.append(f"game_started announces {dict(start.role_counts)}, the rules say {dict(rules.roles)}")
    if over.roles != roles:
        out.append("game_over reveals other roles than were dealt")
    if over.winner != record.winner:
        out.append(f"game_over says {over.winner}, the record says {record.winner}")
    wolves = frozenset(s for s, r in enumerate(roles) if r is Role.WEREWOLF)
    may = secrecy if secrecy is not None and len(secrecy) == len(events) else [may_see(e, wolves) for e in events]
    position = {e.id: i for i, e in enumerate(events)}
    public_ids = {i for i, m in enumerate(may) if m is None}
    private = [(i, m) for i, m in enumerate(may) if m is not None]
    assigned: dict[int, Role] = {}

    # ---- one pass over the log: the engine's invariants here, each role's in its plug-in
    shadow = Shadow(rules, roles, record.names)
    checks = _Checks(shadow, out)
    alive = shadow.alive
    day = 0
    for pos, e in enumerate(events[1:], start=1):
        if e.day < day:
            out.append(f"event #{e.id} goes back to day {e.day} from day {day}")
        day = e.day
        if e is not over and isinstance(e, GameOver):
            out.append(f"a second game_over at #{e.id}")
        if pos < len(events) - 1:
            m = may[pos]
            if e.audience is None and m is not None:
                out.append(f"{_describe(e)} is public but only {sorted(m)} may see it")
            elif e.audience is not None and m is not None and not e.audience <= m:
                out.append(f"{_describe(e)} is shown to {sorted(e.audience - m)}, who may not see it")
        actor = getattr(e, "actor", None)
        if actor is not None and not (0 <= actor < n and alive[actor]) and type(e) not in checks.posthumous:
            out.append(f"dead seat {actor} acts: {_describe(e)}")
        if isinstance(e, Talk):
            if e.channel == "whisper":
                if e.actor not in wolves:
                    out.append(f"seat {e.actor}, no werewolf, whispers")
                if sum(alive[w] for w in wolves) < 2:
                    out.append(f"whisper #{e.id} with fewer than 2 werewolves alive")
            elif e.day == 0 and not opts.greeting:
                out.append(f"talk on day 0 although the rules have no greeting: #{e.id}")
        elif isinstance(e, RoleAssigned):
            assigned[e.seat] = e.role
            if roles[e.seat] is not e.role:
                out.append(f"seat {e.seat} is told it is {e.role}, but was dealt {roles[e.seat]}")
        elif isinstance(e, WolfPack):
            if frozenset(e.members) != wolves:
                out.append(f"the wolf pack {list(e.members)} is not the werewolves {sorted(wolves)}")
        elif isinstance(e, PhaseStarted):
            resolved = shadow.resolved
            if e.phase == "night":
                living = [s for s in range(n) if alive[s]]
                if tuple(living) != e.alive:
                    out.append(f"night {day} starts with alive {list(e.alive)}, the log says {living}")
                if day > 0 and _win(living, roles):
                    out.append(f"night {day} starts although {_win(living, roles)} has won")
            elif day > 0:
                expected = [s for s in range(n) if alive[s] and (resolved is None or s not in resolved.deaths)]
                if tuple(expected) != e.alive:
                    out.append(f"day {day} starts with alive {list(e.alive)}, expected {expected}")
        elif isinstance(e, NightResolved):
            attacked = shadow.attacked
            if e.attacked != attacked:
                out.append(f"night_resolved says seat {e.attacked} was attacked, the wolves chose {attacked}")
            expected_deaths = set(e.poisoned) | (
                {attacked} if attacked is not None and attacked not in e.guarded and attacked not in e.saved else set()
            )
            if set(e.deaths) != expected_deaths:
                out.append(f"night {day} kills {list(e.deaths)}, the actions kill {sorted(expected_deaths)}")
        elif isinstance(e, Died):
            resolved = shadow.resolved
            if not alive[e.target]:
                out.append(f"seat {e.target} dies twice")
            want = roles[e.target] if opts.reveal_role_on_death else None
            if e.role is not want:
                out.append(f"the death of seat {e.target} reveals role {e.role}, expected {want}")
            if e.cause == "night" and (resolved is None or e.target not in resolved.deaths):
                out.append(f"seat {e.target} dies in the night but the night killed {resolved and resolved.deaths}")
        elif isinstance(e, PeacefulNight):
            resolved = shadow.resolved
            if resolved is not None and resolved.deaths:
                out.append(f"a peaceful night is announced, but {list(resolved.deaths)} died")
        elif isinstance(e, VoteCast):
            if not alive[e.target]:
                out.append(f"seat {e.actor} votes for dead seat {e.target}")
            if e.target == e.actor and not opts.allow_self_vote:
                out.append(f"seat {e.actor} votes for itself")
        elif isinstance(e, Executed):
            votes = shadow.votes
            top = max(votes.values(), default=0)
            if votes[e.target] != top or e.votes != top:
                out.append(f"seat {e.target} executed with {e.votes} votes; the tally was {dict(votes)}")
            if not alive[e.target]:
                out.append(f"dead seat {e.target} executed")
            if opts.tie_break == "no_execution" and list(votes.values()).count(top) > 1:
                out.append(f"seat {e.target} executed on a tie although ties mean no execution")
        checks.event(e)
        shadow.apply(e)
    if len(assigned) != n:
        out.append(f"{len(assigned)} role_assigned events for {n} seats")
    # ---- the winner
    final = [s for s in range(n) if alive[s]]
    outcome = _win(final, roles)
    if outcome is None:
        if record.winner != "draw" or day <= opts.max_days:
            out.append(f"winner {record.winner} although nobody has won with alive {final}")
    elif record.winner != outcome:
        out.append(f"winner {record.winner}, but alive {final} means {outcome}")
    # ---- hidden information, through the one read path
    before_end = events[:-1]
    for seat in range(n):
        allowed = public_ids.union(i for i, m in private if seat in m)
        shown = [position[e.id] for e in visible(before_end, seat)]
        if not allowed.issuperset(shown):
            for i in sorted(set(shown) - allowed):
                out.append(f"visible(log, {seat}) shows {_describe(events[i])}")


# --------------------------------------------------------------------------- hidden events leave no trace
class HiddenVariant:
    """A seat whose answers depend on public facts only, except choices whose effects stay hidden.

    Variants 0 and 1 differ only in whom a seer divines and whether the werewolves whisper (variant
    1 whispers twice per session, variant 0 says Over at once); every other answer is a fixed
    function of the request. Two games with the same seed, one per variant, therefore differ only
    in events hidden from everyone but the seer and the werewolves.
    """

    label = "hidden-variant"

    def __init__(self, seat: int, variant: int) -> None:
        self.seat = seat
        self.variant = variant
        self.requests: list[Request] = []
        self._spoken: Counter[tuple[str, int]] = Counter()

    def decide(self, view: View, request: Request) -> Action:
        """The answer of this variant."""
        self.requests.append(request)
        kind = request.kind
        if kind in ("talk", "whisper"):
            key = (kind, request.day)
            self._spoken[key] += 1
            if kind == "whisper":
                return Action.speak(f"plan {self._spoken[key]}") if self.variant and self._spoken[key] <= 2 else OVER
            return Action.speak(f"Day {request.day}, I am {view.name}.") if self._spoken[key] <= 1 else OVER
        if kind == "bid":
            return Action("bid", amount=1)
        if kind == "probe" or not request.targets:
            return PASS
        targets = sorted(request.targets)
        if kind == "divine":
            return Action.choose(targets[-1] if self.variant else targets[0])
        if kind == "attack":  # the pack agrees, so no tie-break draws from the team's stream
            return Action.choose(targets[request.day % len(targets)])
        return Action.choose(targets[(request.day + self.seat) % len(targets)])

    async def act(self, view: View, request: Request) -> Action:
        """Same as `decide`."""
        return self.decide(view, request)


def check_hidden_events(rules: RuleSet, seed: int) -> list[str]:
    """Two games that differ only in hidden events must look the same to everyone they are hidden from.

    Plays `rules` at `seed` with `HiddenVariant` seats of variant 0 and of variant 1, then compares
    the public record (every field, ids included) and, for every seat that is neither a seer nor a
    werewolf, its whole view and the ids of the requests it received. Returns what differs.
    """
    out: list[str] = []
    played = []
    for variant in (0, 1):
        seats = [HiddenVariant(s, variant) for s in range(rules.n_players)]
        played.append((run_sync(rules, seats, seed), seats))
    (a, seats_a), (b, seats_b) = played

    def seen(record: GameRecord, seat: int | None) -> list[dict[str, Any]]:
        events = record.events[:-1]
        shown = [e for e in events if e.audience is None or (seat is not None and e.visible_to(seat))]
        return [event_to_dict(e) for e in shown]

    if seen(a, None) != seen(b, None):
        out.append("the public record differs between two games that differ only in hidden events")
    for seat, role in enumerate(a.roles):
        if role in (Role.SEER, Role.WEREWOLF):
            continue
        if seen(a, seat) != seen(b, seat):
            out.append(f"seat {seat} ({role.value}) can tell apart two games that differ only in hidden events")
        if [r.id for r in seats_a[seat].requests] != [r.id for r in seats_b[seat].requests]:
            out.append(f"seat {seat} ({role.value}) gets other request ids when only hidden events differ")
    return out


# --------------------------------------------------------------------------- driving
def _factory(agents: str | PlayerFactory, n: int) -> tuple[str, PlayerFactory]:
    if callable(agents):
        return getattr(agents, "__name__", "custom players"), agents
    kinds = parse_lineup(agents, n)

    def build(seat: int, seed: int) -> Player:
        return make_agent(kinds[seat], seed)

    return agents, build


def check_game(
    rules: RuleSet,
    seed: int,
    players: Sequence[Player],
    *,
    replay_game: bool = True,
    round_trip: bool = True,
) -> tuple[GameRecord | None, list[str]]:
    """Play one game with `players`, each wrapped and checked, then check its record.

    Returns the record (None if the game could not be played) and what is broken.
    """
    out: list[str] = []
    monitor = _Monitor(rules, out)
    watched = [_Watched(p, monitor) for p in players]
    try:
        if all(isinstance(p, SyncPlayer) for p in players):
            record = run_sync(rules, watched, seed, on_event=monitor.on_event)
        else:
            record = asyncio.run(run_async(rules, watched, seed, on_event=monitor.on_event))
    except Exception as err:
        out.append(f"the game crashed: {type(err).__name__}: {err}")
        return None, out
    if len(monitor.log) != len(record.events):
        out.append(f"on_event saw {len(monitor.log)} events, the record has {len(record.events)}")
    out += check_record(record, replay_game=replay_game, round_trip=round_trip, secrecy=monitor.may)
    return record, out


def check_rules(
    rules: RuleSet,
    games: int = 1000,
    seed: int = 0,
    *,
    agents: str | PlayerFactory = "random",
    round_trip_every: int = 1,
    hidden_every: int = 10,
) -> ConformanceReport:
    """Play `games` games from seeds `seed, seed+1, ...` and check every invariant in each.

    Args:
        rules: the rule set under test.
        games: how many games to play.
        seed: the first game's seed.
        agents: agent types by name for `lycan.agents.make_agent` (one, or a comma-separated
            lineup that cycles over the seats), or a factory `(seat, seed) -> Player`.
        round_trip_every: check the JSON round trip in every k-th game (1: every game).
        hidden_every: in every k-th game (0: never) also play the seed twice with `HiddenVariant`
            seats and check that games differing only in hidden events look the same
            (`check_hidden_events`).

    Returns:
        The report; `report.ok` is True when no invariant was broken.

    """
    n = rules.n_players
    label, build = _factory(agents, n)
    report = ConformanceReport(rules=rules.name, agents=label)
    started = time.perf_counter()
    for g in range(games):
        game_seed = seed + g
        players = [build(s, derive(game_seed, "agent", s)) for s in range(n)]
        record, problems = check_game(
            rules, game_seed, players, round_trip=round_trip_every > 0 and g % round_trip_every == 0
        )
        if hidden_every > 0 and g % hidden_every == 0:
            problems += check_hidden_events(rules, game_seed)
        report.games += 1
        report.violations.extend((game_seed, p) for p in problems)
        if record is not None:
            report.wins[record.winner] += 1
            report.faults += record.faults
    report.seconds = time.perf_counter() - started
    return report


def _check_preset(name: str, games: int, seed: int, agents: str) -> ConformanceReport:
    return check_rules(resolve_rules(name), games, seed, agents=agents)


def check_presets(
    names: Iterable[str],
    games: int = 1000,
    seed: int = 0,
    *,
    agents: str | PlayerFactory = "random",
    jobs: int = 1,
) -> dict[str, ConformanceReport]:
    """Run `check_rules` on each named rule set; returns the reports by name.

    A name is anything `lycan.rules.resolve_rules` takes: a preset name, a ROLE=N deal or a rules file.
    With `jobs` > 1 (and agents given by name) the rule sets run in that many processes.
    """
    names = list(names)
    if jobs <= 1 or not isinstance(agents, str) or games < 2 * jobs:
        return {name: check_rules(resolve_rules(name), games, seed, agents=agents) for name in names}
    # Split every preset's seeds into `jobs` chunks so that one long preset does not hold up the rest.
    bounds = [games * i // jobs for i in range(jobs + 1)]
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        parts = {
            name: [
                pool.submit(_check_preset, name, hi - lo, seed + lo, agents) for lo, hi in itertools.pairwise(bounds)
            ]
            for name in names
        }
        return {name: _merge([f.result() for f in futures]) for name, futures in parts.items()}


def _merge(reports: list[ConformanceReport]) -> ConformanceReport:
    merged = ConformanceReport(rules=reports[0].rules, agents=reports[0].agents)
    for r in reports:
        merged.games += r.games
        merged.violations.extend(r.violations)
        merged.seconds = max(merged.seconds, r.seconds)
        merged.wins.update(r.wins)
        merged.faults += r.faults
    return merged


__all__ = [
    "ConformanceReport",
    "PlayerFactory",
    "check_game",
    "check_presets",
    "check_record",
    "check_rules",
    "may_see",
    "role_checks",
]
