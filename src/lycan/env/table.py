"""The game behind every environment: a `Session` whose seats are split between the environment and Lycan agents.

Seats played through the environment ("environment seats") answer with the actions an RL policy
picks; the other seats hold Lycan agents (`make_agent` kinds, agent objects or factories), asked
through the session's `LocalSeat`s. `EnvTable` steps the session by hand (`start`, `send`): each batch
of simultaneous requests is split into its environment requests, which are answered one at a time
in batch order, and the rest, answered by the agents; once every environment request of the batch
has an answer the whole batch is sent. Batches with no environment request are answered and sent at
once, so the table always stops at an environment request or at the end of the game.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from lycan.agents import make_agent
from lycan.engine.actions import Action, Answer, Request
from lycan.engine.events import public
from lycan.engine.game import Answers
from lycan.engine.record import GameRecord
from lycan.engine.seeds import derive
from lycan.engine.session import Hooks, Player, SeatBase, Session
from lycan.engine.view import View
from lycan.env.layout import ActionLayout, TalkMode
from lycan.env.observe import DEFAULT_MAX_TEXT, ObservationBuilder
from lycan.render import render_log
from lycan.rules.presets import resolve_rules
from lycan.rules.roles import team_of
from lycan.rules.ruleset import RuleSet
from lycan.rules.text import for_terminal

PlayerFactory = Callable[[int, int], Player]
"""Builds a seat's agent for one game: `(seat, seed) -> agent`."""
SeatSpec = str | Player | PlayerFactory
"""A Lycan agent for a seat: a `make_agent` kind (`"heuristic"`), an agent object (kept across games), or a factory."""
SeatsArg = (
    Mapping[int, SeatSpec] | Mapping[str, SeatSpec] | Mapping[int | str, SeatSpec] | Sequence[SeatSpec | None] | None
)
"""Which seats Lycan agents play: `{seat or agent name: spec}`, or one entry per seat (None: the environment's)."""
ActionArg = Any
"""An action: an index of the action space (int or NumPy integer), a `str` utterance
(`talk="text"`), or a Lycan `Action`."""

ENV_LABEL = "env"
"""The agent label of environment seats in the game record."""


def agent_name(seat: int) -> str:
    """The PettingZoo agent name of `seat` (0-based): `player_1` for seat 0."""
    return f"player_{seat + 1}"


def seat_of(agent: str) -> int:
    """The seat (0-based) of agent `agent` (`player_1` is seat 0).

    Raises:
        ValueError: not an agent name.
    """
    prefix, _, number = agent.partition("_")
    if prefix != "player" or not number.isdigit() or int(number) < 1:
        raise ValueError(f"{agent!r} is not an agent name such as 'player_1'")
    return int(number) - 1


def as_rules(preset: str | RuleSet) -> RuleSet:
    """A rule set: `preset` itself, or the preset, roles spec or rules file it names (`resolve_rules`)."""
    return preset if isinstance(preset, RuleSet) else resolve_rules(preset)


def lycan_seats(spec: SeatsArg, n: int) -> dict[int, SeatSpec]:
    """The seats played by Lycan agents, from the `agents=` argument.

    Raises:
        ValueError: an unknown seat or agent name, or a sequence of the wrong length.
    """
    if spec is None:
        return {}
    out: dict[int, SeatSpec] = {}
    if isinstance(spec, Mapping):
        for key, value in spec.items():
            seat = seat_of(key) if isinstance(key, str) else int(key)
            if not 0 <= seat < n:
                raise ValueError(f"seat {key!r} is not at this {n}-seat table")
            out[seat] = value
        return out
    if isinstance(spec, str) or len(spec) != n:
        raise ValueError(f"agents= needs a mapping or one entry per seat ({n}), got {spec!r}")
    return {seat: value for seat, value in enumerate(spec) if value is not None}


class _EnvSeat(SeatBase):
    """A seat the environment answers for; the session never asks it directly."""

    label = ENV_LABEL

    def answer_now(self, view: View, request: Request) -> Answer:
        raise RuntimeError("an environment seat is answered through the environment's step()")

    async def answer(self, view: View, request: Request) -> Answer:
        raise RuntimeError("an environment seat is answered through the environment's step()")


class EnvTable:
    """One game at a time, stepped one environment request at a time.

    Args:
        preset: a rule set, or a preset name / roles spec / rules file (`resolve_rules`).
        agents: which seats Lycan agents play (see `SeatsArg`); the rest are environment seats.
        talk: `"templates"` or `"text"` (see `lycan.env.layout`).
        max_cycles: cut the game short (a draw, truncated) once this many batches of requests
            have been answered; None: no limit beyond the rules' `max_days`.
        max_text_length: `max_length` of the text observation.

    Raises:
        ValueError: no seat is left to the environment, or a bad argument.
    """

    def __init__(
        self,
        preset: str | RuleSet,
        *,
        agents: SeatsArg = None,
        talk: TalkMode = "templates",
        max_cycles: int | None = None,
        max_text_length: int = DEFAULT_MAX_TEXT,
    ) -> None:
        self.rules = as_rules(preset)
        n = self.rules.n_players
        self.lycan = lycan_seats(agents, n)
        self.env_seats: tuple[int, ...] = tuple(s for s in range(n) if s not in self.lycan)
        if not self.env_seats:
            raise ValueError("every seat is played by a Lycan agent; leave at least one to the environment")
        self._is_env = frozenset(self.env_seats)
        if max_cycles is not None and max_cycles < 1:
            raise ValueError(f"max_cycles must be at least 1, not {max_cycles}")
        self.max_cycles = max_cycles
        self.names = tuple(f"Player {s + 1}" for s in range(n))
        self.layout = ActionLayout(self.names, talk)
        self.observer = ObservationBuilder(self.rules, self.names, self.layout, max_text_length)
        self._session: Session | None = None
        self.seed = 0
        self.batches = 0
        """Batches of requests answered in this game (what `max_cycles` counts)."""
        self.batch_no = 0
        """Increases with every batch the table stops at (parallel steps end when it changes)."""
        self.queue: list[Request] = []
        """The environment requests of the current batch still unanswered, in answer order."""
        self._batch: list[Request] = []
        self._answers: Answers = {}

    # ----------------------------------------------------------------- state
    @property
    def session(self) -> Session:
        """The session of the current game.

        Raises:
            RuntimeError: no game yet (call `reset`).
        """
        if self._session is None:
            raise RuntimeError("no game yet: reset() the environment first")
        return self._session

    @property
    def started(self) -> bool:
        """Whether a game has been dealt."""
        return self._session is not None

    @property
    def finished(self) -> bool:
        """Whether the current game is over."""
        return self.session.finished

    @property
    def truncated(self) -> bool:
        """Whether the game was cut short by `max_cycles` (it ends as a draw)."""
        return self.session.aborted is not None

    def record(self) -> GameRecord | None:
        """The finished game's record, or None while it is being played."""
        if self._session is None or not self._session.finished:
            return None
        return self._session.record()

    def pending(self, seat: int) -> Request | None:
        """The request `seat` has to answer in the current batch, if any."""
        for req in self.queue:
            if req.seat == seat:
                return req
        return None

    def outcome(self, seat: int) -> float:
        """The end reward of `seat`: +1 if its side won, -1 if it lost, 0 for a draw or an unfinished game."""
        game = self.session.game
        if not self.finished or game.winner in (None, "draw"):
            return 0.0
        return 1.0 if team_of(game.roles[seat]).value == game.winner else -1.0

    def observe(self, seat: int) -> dict[str, Any]:
        """The observation of `seat` now (see `lycan.env.observe`)."""
        session = self.session
        return self.observer.observe(session.view(seat), self.pending(seat), over=session.finished)

    def render(self, mode: str | None, shown: int) -> tuple[str | None, int]:
        """The public record so far, as a spectator sees it (no private or hidden events).

        `ansi`: all of it as text; `human`: prints the lines after the first `shown`; None: nothing.
        Returns the text (None unless `ansi`) and how many lines have been shown.
        """
        if mode is None or self._session is None:
            return None, shown
        lines = render_log(public(self._session.game.events), self.names)
        if mode == "ansi":
            return "\n".join(lines), shown
        for line in lines[shown:]:
            print(for_terminal(line))  # names and talk may hold ESC sequences or bidi controls
        return None, len(lines)

    # ----------------------------------------------------------------- stepping
    def reset(self, seed: int) -> None:
        """Deal a new game with `seed` and play up to the first environment request."""
        self.seed = seed
        seats: list[object] = []
        for s in range(self.rules.n_players):
            spec = self.lycan.get(s)
            seats.append(_EnvSeat() if spec is None else self._build(spec, s, seed))
        self._session = Session(self.rules, seats, seed, names=self.names, hooks=Hooks(after_answers=self._cap))
        self.observer.reset()
        self.batches = 0
        self.queue = []
        self._open(self._session.start())

    def answer(self, action: ActionArg) -> None:
        """Answer the first request of `queue` with `action`; the game goes on to the next environment request.

        Raises:
            RuntimeError: nothing is asked (the game is over).
            ValueError: `action` is no action of the space.
        """
        if not self.queue:
            raise RuntimeError("nothing is asked now: the game is over; reset() the environment")
        req = self.queue[0]
        answer = self.decode(action)
        self.queue.pop(0)
        self._answers[req.id] = answer
        if not self.queue:
            self._open(self._send(self._batch, self._answers))

    def decode(self, action: ActionArg) -> Action:
        """The Lycan action of an environment action (an index, a `str` with `talk="text"`, or an `Action`).

        Raises:
            ValueError: `action` is no action of the space.
        """
        if isinstance(action, Action):
            return action
        if isinstance(action, str):
            if self.layout.talk != "text":
                raise ValueError("a text action needs talk='text'; with templates, pick a template index")
            return Action.speak(action)
        try:
            index = int(action)
        except (TypeError, ValueError):
            raise ValueError(f"an action is an index of the action space, not {action!r}") from None
        if index != action:
            raise ValueError(f"an action is an index of the action space, not {action!r}")
        return self.layout.action(index)

    def _open(self, batch: list[Request] | None) -> None:
        while batch is not None:
            mine = [r for r in batch if r.seat in self._is_env]
            if mine:
                self._batch = batch
                self._answers = {}
                self.queue = mine
                self.batch_no += 1
                return
            batch = self._send(batch, {})
        self._batch = []
        self._answers = {}
        self.queue = []
        self.batch_no += 1

    def _send(self, batch: list[Request], answers: Answers) -> list[Request] | None:
        session = self.session
        theirs = [r for r in batch if r.seat not in self._is_env]
        if theirs:
            if all(session.seats[r.seat].can_answer_now for r in theirs):
                answers.update(session.answer_now(theirs))
            else:
                answers.update(asyncio.run(session.answer(theirs)))
        self.batches += 1
        return session.send(answers)

    def _cap(self, session: Session, batch: list[Request], answers: Answers) -> str | None:
        if self.max_cycles is not None and self.batches >= self.max_cycles:
            return f"cut short after {self.max_cycles} batches of requests (max_cycles)"
        return None

    @staticmethod
    def _build(spec: SeatSpec, seat: int, seed: int) -> object:
        if isinstance(spec, str):
            return make_agent(spec, derive(seed, "agent", seat))
        if hasattr(spec, "act"):
            return spec
        return spec(seat, derive(seed, "agent", seat))
