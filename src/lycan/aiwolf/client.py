"""An AIWolf NLP client: plays a Lycan agent on any server that speaks the protocol.

The client answers NAME with team name plus index, rebuilds a Lycan `View` of its seat from the
packets it receives (role, names, talk and whisper history, divine/medium results, votes,
deaths), turns each request packet into a `Request`, asks the agent, and sends the answer as text.

When INITIALIZE carries a profile (`info.profile`: the contest server's `custom_profile`, or ours),
the client reads it (`lycan.aiwolf.packets.read_profile`, which takes `label: value` lines in
English or Japanese, an object, or free text) into a `Persona` (`Persona.from_profile`) and hands it
to the agent if the agent has `set_persona(persona)`. A profile it cannot read is logged and the
game goes on without one.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import json
import logging
import random
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from websockets.asyncio.client import connect as ws_connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus, InvalidURI

from lycan.agents.persona import GENDERS, Persona
from lycan.aiwolf.packets import answer_text, read_profile, role_from_name
from lycan.engine.actions import Action, Request, RequestKind, TalkInfo
from lycan.engine.events import (
    AttackVote,
    Died,
    Divined,
    Event,
    Executed,
    GameOver,
    GameStarted,
    MediumResult,
    Phase,
    PhaseStarted,
    RoleAssigned,
    Talk,
    Visibility,
    VoteCast,
    WolfPack,
)
from lycan.engine.runner import Player
from lycan.engine.seeds import derive, fresh_seed
from lycan.engine.view import View
from lycan.rules.presets import get_preset
from lycan.rules.roles import Role, Species
from lycan.rules.ruleset import RuleSet, TalkLimits
from lycan.rules.text import for_terminal

log = logging.getLogger(__name__)

_KINDS: dict[str, RequestKind] = {
    "TALK": "talk",
    "WHISPER": "whisper",
    "VOTE": "vote",
    "DIVINE": "divine",
    "GUARD": "guard",
    "ATTACK": "attack",
}


class ProtocolError(RuntimeError):
    """The server could not be reached or sent something the client cannot use."""


def _int(value: Any, default: int = 0) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return default


def _optional_int(value: Any) -> int | None:
    return None if value is None else _int(value)


def rules_from_setting(setting: dict[str, Any]) -> RuleSet:
    """A Lycan rule set matching a packet's `setting` (roles, talk limits, self-vote, days)."""
    roles: dict[Role, int] = {}
    for name, count in (setting.get("role_num_map") or {}).items():
        with contextlib.suppress(ValueError):
            if _int(count) > 0:
                role = role_from_name(str(name))
                roles[role] = roles.get(role, 0) + _int(count)
    n = sum(roles.values())
    base = get_preset("aiwolf13" if n >= 13 else "aiwolf5")

    def limits(data: Any, fallback: TalkLimits) -> TalkLimits:
        if not isinstance(data, dict):
            return fallback
        count = data.get("max_count") or {}
        length = data.get("max_length") or {}
        max_length = _int(length.get("per_talk"), -1)
        if max_length <= 0:
            max_length = _int(length.get("base_length"), fallback.max_length)
        return TalkLimits(
            per_agent=max(1, _int(count.get("per_agent"), fallback.per_agent)),
            per_day=max(1, _int(count.get("per_day"), fallback.per_day)),
            max_skip=max(0, _int(data.get("max_skip"), 0)),
            max_length=max(1, max_length),
        )

    opts = base.options
    max_day = _int(setting.get("max_day"), -1)
    vote = setting.get("vote") or {}
    options = opts.model_copy(
        update={
            "talk": limits(setting.get("talk"), opts.talk),
            "whisper_limits": limits(setting.get("whisper"), opts.whisper_limits),
            "allow_self_vote": bool(vote.get("allow_self_vote", False)),
            "max_days": max_day if max_day >= 1 else opts.max_days,
        }
    )
    try:
        return RuleSet(name=f"aiwolf{n}", roles=roles, options=options)
    except ValueError:
        return base


@dataclass
class ClientGame:
    """What one seat has learnt of one game from the packets it received (`persona`: from its profile, if any)."""

    game_id: str
    seat: int
    names: tuple[str, ...]
    role: Role
    rules: RuleSet
    events: list[Event] = field(default_factory=list)
    alive: tuple[bool, ...] = ()
    day: int = 0
    phase: Phase = "day"
    roles: dict[str, Role] = field(default_factory=dict)
    finished: bool = False
    winner: Literal["village", "werewolf", "draw"] | None = None
    persona: Persona | None = None
    _seen: set[tuple[Any, ...]] = field(default_factory=set)

    def view(self) -> View:
        """The seat's view now."""
        return View(
            seat=self.seat,
            role=self.role,
            names=self.names,
            rules=self.rules,
            day=self.day,
            phase=self.phase,
            alive=self.alive,
            events=self.events,
        )

    def emit(
        self,
        cls: type[Event],
        *,
        audience: frozenset[int] | None = None,
        day: int | None = None,
        phase: Phase | None = None,
        **fields: Any,
    ) -> None:
        """Append a synthesised event (of the current day and phase unless told otherwise).

        The one place ids are given: the event's position in this seat's log.
        """
        vis: Visibility = "public" if audience is None else ("seat" if len(audience) == 1 else "team")
        when = self.day if day is None else day
        self.events.append(
            cls(id=len(self.events), day=when, phase=phase or self.phase, vis=vis, audience=audience, **fields)
        )

    def seat_of(self, name: Any) -> int | None:
        """The seat called `name`, or None."""
        try:
            return self.names.index(str(name))
        except ValueError:
            return None

    def once(self, *key: Any) -> bool:
        """True the first time `key` is seen."""
        if key in self._seen:
            return False
        self._seen.add(key)
        return True

    def wolves(self) -> tuple[int, ...]:
        """Seats this seat knows to be werewolves."""
        return tuple(s for s, n in enumerate(self.names) if self.roles.get(n) is Role.WEREWOLF)


def _start_game(packet: dict[str, Any]) -> ClientGame:
    info = packet.get("info") or {}
    setting = packet.get("setting") or {}
    names = tuple(str(n) for n in (info.get("status_map") or {}))
    me = str(info.get("agent", ""))
    if me not in names:
        raise ProtocolError(f"the server named this agent {me!r}, which is not in its status_map")
    role_map = {str(k): role_from_name(str(v)) for k, v in (info.get("role_map") or {}).items()}
    seat = names.index(me)
    rules = rules_from_setting(setting)
    game = ClientGame(
        game_id=str(info.get("game_id", "")),
        seat=seat,
        names=names,
        role=role_map.get(me, Role.VILLAGER),
        rules=rules,
        alive=(True,) * len(names),
        roles=role_map,
    )
    game.emit(
        GameStarted,
        rules=rules.name,
        names=names,
        role_counts=tuple((r, rules.roles[r]) for r in Role if r in rules.roles),
    )
    game.emit(RoleAssigned, audience=frozenset({seat}), seat=seat, role=game.role)
    if game.role is Role.WEREWOLF:
        pack = game.wolves() or (seat,)
        game.emit(WolfPack, audience=frozenset(pack), members=pack)
    return game


def persona_of(packet: dict[str, Any], seed: int) -> Persona | None:
    """The persona an INITIALIZE packet's profile describes, or None if it has none or it cannot be read.

    The profile's name is the agent's own (`info.agent`) unless the profile names it; what the
    profile leaves open is drawn from `seed` (`Persona.from_profile`). Never raises.
    """
    info = packet.get("info")
    if not isinstance(info, dict) or info.get("profile") is None:
        return None
    try:
        fields = read_profile(info["profile"])
        fields.setdefault("name", str(info.get("agent", "")))
        persona = Persona.from_profile(fields, seed)
        gender = fields.get("gender", "").strip().lower()
        if gender in GENDERS and gender != persona.gender:  # a gender of our own profiles it does not read
            persona = replace(persona, gender=gender)
        return persona
    except Exception as err:  # a server's odd profile must not cost the agent its game
        log.warning("playing without a persona: cannot read the profile (%s)", for_terminal(str(err)[:120]))
        return None


def _species(value: Any) -> Species:
    return Species.WEREWOLF if str(value).upper() == "WEREWOLF" else Species.HUMAN


def ingest(game: ClientGame, packet: dict[str, Any]) -> None:
    """Turn what `packet` tells into events of `game`'s log (each fact once).

    Facts about the previous day (results, votes, the execution) are dated as the engine dates
    them: a divination or medium reading on the night of the `day` the packet gives (night 0 for
    the first divination, which arrives on day 1), votes and the execution on the previous day.
    """
    info = packet.get("info") or {}
    game.day = _int(info.get("day"), game.day)
    prev = game.day - 1
    status = info.get("status_map") or {}
    if status:
        game.alive = tuple(str(status.get(n, "ALIVE")).upper() == "ALIVE" for n in game.names)
    me = frozenset({game.seat})
    for key, cls in (("divine_result", Divined), ("medium_result", MediumResult)):
        judge = info.get(key)
        if isinstance(judge, dict):
            target = game.seat_of(judge.get("target"))
            night = _int(judge.get("day"), prev)
            if target is not None and game.once(key, night, target):
                result = _species(judge.get("result"))
                game.emit(cls, audience=me, day=night, phase="night", actor=game.seat, target=target, result=result)
    for vote in info.get("vote_list") or []:
        actor, target = game.seat_of(vote.get("agent")), game.seat_of(vote.get("target"))
        day = _int(vote.get("day"), prev)
        if actor is not None and target is not None and game.once("vote", day, actor):
            game.emit(VoteCast, day=day, phase="day", actor=actor, target=target)
    executed = game.seat_of(info.get("executed_agent"))
    if executed is not None and game.once("executed", executed):
        game.emit(Executed, day=prev, phase="day", target=executed, votes=0)
        game.emit(Died, day=prev, phase="day", target=executed, cause="executed")
    attacked = game.seat_of(info.get("attacked_agent"))
    if attacked is not None and game.once("attacked", attacked):
        game.emit(Died, target=attacked, cause="night")
    wolves = frozenset(game.wolves()) or me
    for vote in info.get("attack_vote_list") or []:
        actor, target = game.seat_of(vote.get("agent")), game.seat_of(vote.get("target"))
        day = _int(vote.get("day"), prev)
        if actor is not None and target is not None and game.once("attack_vote", day, actor):
            game.emit(AttackVote, audience=wolves, day=day, phase="night", actor=actor, target=target)
    for key, channel in (("talk_history", "talk"), ("whisper_history", "whisper")):
        for entry in packet.get(key) or []:
            speaker = game.seat_of(entry.get("agent"))
            day, idx = _int(entry.get("day"), game.day), _int(entry.get("idx"), -1)
            if speaker is None or not game.once(channel, day, idx):
                continue
            _talk(game, wolves, speaker, entry, channel, day)


def _talk(
    game: ClientGame, wolves: frozenset[int], speaker: int, entry: dict[str, Any], channel: str, day: int
) -> None:
    audience = wolves if channel == "whisper" else None
    game.emit(
        Talk,
        audience=audience,
        day=day,
        actor=speaker,
        text=str(entry.get("text", "")),
        channel="whisper" if channel == "whisper" else "talk",
        turn=_int(entry.get("idx"), 0),
        over=bool(entry.get("over")),
        skip=bool(entry.get("skip")),
    )


def _finish(game: ClientGame, packet: dict[str, Any]) -> None:
    info = packet.get("info") or {}
    roles = {str(k): role_from_name(str(v)) for k, v in (info.get("role_map") or {}).items()}
    game.roles.update(roles)
    full = tuple(game.roles.get(n, Role.VILLAGER) for n in game.names)
    wolves = sum(1 for s, r in enumerate(full) if r is Role.WEREWOLF and game.alive[s])
    others = sum(game.alive) - wolves
    winner: Literal["village", "werewolf", "draw"] = (
        "village" if wolves == 0 else "werewolf" if wolves >= others else "draw"
    )
    game.phase = "end"
    game.winner = winner
    game.finished = True
    game.emit(GameOver, winner=winner, roles=full, reason="the server ended the game")


def make_request(game: ClientGame, kind: RequestKind, info: dict[str, Any], rid: int, timeout: float) -> Request:
    """The Lycan request for a protocol request packet, with the legal targets the seat can know."""
    living = [s for s, a in enumerate(game.alive) if a]
    if kind in ("talk", "whisper"):
        lim = game.rules.options.whisper_limits if kind == "whisper" else game.rules.options.talk
        return Request(
            rid,
            game.seat,
            kind,
            game.day,
            can_skip=_int(info.get("remain_skip"), 0) > 0,
            max_length=lim.max_length,
            timeout=timeout,
            info=TalkInfo(
                remain_count=_optional_int(info.get("remain_count")),
                remain_length=_optional_int(info.get("remain_length")),
                remain_skip=_optional_int(info.get("remain_skip")),
            ),
        )
    if kind == "vote":
        self_ok = game.rules.options.allow_self_vote
        targets = tuple(s for s in living if s != game.seat or self_ok)
    elif kind == "attack":
        known = set(game.wolves()) | {game.seat}
        targets = tuple(s for s in living if s not in known)
    else:
        targets = tuple(s for s in living if s != game.seat)
    return Request(rid, game.seat, kind, game.day, targets=targets or tuple(living), timeout=timeout)


class AiwolfClient:
    """Plays `agent` on an AIWolf NLP server as `team` + `index` (e.g. `lycan1`).

    The server closes the connection after each game (the reference server does); `run` connects
    again for the next game until it has played what it was asked to, or the server is gone.

    Args:
        url: the server, e.g. `ws://127.0.0.1:8080/ws`.
        agent: a Lycan player (`async act(view, request) -> Action`).
        team: team name sent in answer to NAME.
        index: number appended to the team name.
        token: a bearer token for servers that require one.
        on_packet: called with every packet received (raw JSON object), e.g. for logging.
        seed: seed of the fallback choices made when the agent fails, and of what a profile leaves
            open of the agent's persona (None: fresh ones).

    """

    def __init__(
        self,
        url: str,
        agent: Player,
        team: str = "lycan",
        index: int = 1,
        *,
        token: str | None = None,
        on_packet: Callable[[dict[str, Any]], None] | None = None,
        seed: int | None = None,
    ) -> None:
        self.url = url
        self.agent = agent
        self.name = f"{team}{index}"
        self.token = token
        self.on_packet = on_packet
        self.games: list[ClientGame] = []
        self.game: ClientGame | None = None
        self.stopped = ""
        self._rng = random.Random(seed)
        self._persona_seed = fresh_seed() if seed is None else derive(seed, "persona")
        self._next_id = 0
        self._action_timeout = 60.0

    async def run(self, games: int | None = None) -> list[ClientGame]:
        """Play `games` games (None: until the server closes or refuses), connecting once per game.

        Returns the games played; `stopped` then says why it stopped before `games`, if it did
        (the server went away, or refused or closed a connection before a game began).

        Raises:
            ProtocolError: the first connection fails: the server cannot be reached, refuses the
                connection, or closes it before any game starts.
            ValueError: `games` is below 1.

        """
        if games is not None and games < 1:
            raise ValueError(f"games must be at least 1, not {games}")
        self.stopped = ""
        while games is None or len(self.games) < games:
            before = len(self.games)
            try:
                reason = await self._connection(games)
            except ProtocolError as err:
                if not self.games:
                    raise
                self.stopped = str(err)
                break
            if len(self.games) == before:  # the connection ended before a game began
                why = f"the AIWolf server at {self.url} closed the connection before a game started"
                why += f": {reason}" if reason else ""
                if not self.games:
                    raise ProtocolError(why)
                self.stopped = why
                break
        return self.games

    async def _connection(self, games: int | None) -> str:
        """Play on one connection until the server closes it (or the last game wanted is over).

        Returns the reason the server gave for closing, if any.
        """
        headers = {"Authorization": f"Bearer {self.token}"} if self.token else None
        try:
            async with ws_connect(self.url, additional_headers=headers, ping_interval=None, max_size=2**24) as ws:
                try:
                    async for message in ws:
                        reply = await self.handle(message if isinstance(message, str) else message.decode())
                        if reply is not None:
                            await ws.send(reply)
                        if games is not None and len(self.games) >= games and self.game and self.game.finished:
                            break  # the last game wanted is over: leave
                except ConnectionClosed:
                    pass
                return ws.close_reason or ""
        except InvalidStatus as err:
            status = err.response.status_code
            body = err.response.body.decode("utf-8", errors="replace").strip() if err.response.body else ""
            raise ProtocolError(
                f"the AIWolf server at {self.url} refused the connection (HTTP {status}){': ' + body if body else ''}"
            ) from None
        except (OSError, InvalidHandshake, InvalidURI, TimeoutError) as err:
            raise ProtocolError(f"cannot reach the AIWolf server at {self.url}: {err}") from None

    async def handle(self, raw: str) -> str | None:
        """Handle one packet; return the text to send back, if any."""
        try:
            packet = json.loads(raw)
        except json.JSONDecodeError:
            log.warning("ignoring a packet that is not JSON: %s", for_terminal(raw[:80]))
            return None
        if not isinstance(packet, dict):
            return None
        if self.on_packet is not None:
            self.on_packet(packet)
        kind = str(packet.get("request", ""))
        if kind == "NAME":
            return self.name
        if kind == "INITIALIZE":
            self.game = _start_game(packet)
            self.games.append(self.game)
            await self._take_profile(self.game, packet)
            timeout = _int(((packet.get("setting") or {}).get("timeout") or {}).get("action"), 60000)
            self._action_timeout = max(0.05, timeout / 1000 * 0.9)
        game = self.game
        if game is None:
            return None
        ingest(game, packet)
        if kind == "DAILY_INITIALIZE":
            game.phase = "day"
            game.emit(PhaseStarted, alive=tuple(s for s, a in enumerate(game.alive) if a))
        elif kind == "DAILY_FINISH":
            game.phase = "night"
            game.emit(PhaseStarted, alive=tuple(s for s, a in enumerate(game.alive) if a))
        elif kind == "FINISH":
            _finish(game, packet)
        elif kind in _KINDS:
            return await self._decide(game, _KINDS[kind], packet.get("info") or {})
        return None

    async def _take_profile(self, game: ClientGame, packet: dict[str, Any]) -> None:
        """Read the game's profile into `game.persona` and give it to an agent that takes one."""
        game.persona = persona_of(packet, derive(self._persona_seed, "game", game.game_id))
        setter = getattr(self.agent, "set_persona", None)
        if game.persona is None or not callable(setter):
            return
        try:
            taken = setter(game.persona)
            if inspect.isawaitable(taken):
                await taken
        except Exception as err:
            log.warning("the agent did not take its persona: %s", for_terminal(str(err)[:120]))

    async def _decide(self, game: ClientGame, kind: RequestKind, info: dict[str, Any]) -> str:
        self._next_id += 1
        request = make_request(game, kind, info, self._next_id, self._action_timeout)
        try:
            async with asyncio.timeout(self._action_timeout):
                action = await self.agent.act(game.view(), request)
            if not isinstance(action, Action) or request.check(action) is not None:
                raise ValueError(f"illegal answer {action!r}")
        except Exception as err:  # the agent failed: answer something legal rather than nothing
            log.warning("agent failed on %s: %s", kind, for_terminal(str(err)))
            if request.is_talk:
                return "Over"
            action = Action.choose(self._rng.choice(request.targets))
        return answer_text(action, game.names)


async def run_client(
    url: str,
    agent: Player,
    team: str = "lycan",
    index: int = 1,
    *,
    token: str | None = None,
    games: int | None = None,
    seed: int | None = None,
) -> list[ClientGame]:
    """Play `agent` on the server at `url` as `team`+`index`: `games` games, or until the server stops.

    `seed` seeds the client's own choices (see `AiwolfClient`).

    Raises:
        ProtocolError: the server cannot be reached, or refuses the first connection.

    """
    return await AiwolfClient(url, agent, team, index, token=token, seed=seed).run(games)


async def connect(
    url: str, agent: Player, team: str = "lycan", index: int = 1, *, games: int | None = None
) -> list[ClientGame]:
    """Entry point for the command line: play games with a Lycan agent, reconnecting after each.

    Args:
        url: the server, e.g. `ws://127.0.0.1:8080/ws`.
        agent: the Lycan player to seat.
        team: the team name (the server matches games by it).
        index: the number after the team name (`lycan1`).
        games: how many games to play; None: until the server closes (or the task is cancelled).

    Returns:
        What the seat learnt of each game it played.

    Raises:
        ProtocolError: the server cannot be reached, or refuses the first connection.

    """
    return await run_client(url, agent, team, index, games=games)


__all__ = [
    "AiwolfClient",
    "ClientGame",
    "ProtocolError",
    "connect",
    "make_request",
    "persona_of",
    "rules_from_setting",
    "run_client",
]
