"""The players behind a web table's seats: a person answering from a browser, and an AI agent."""

from __future__ import annotations

import asyncio
import time
from typing import Protocol

from lycan.engine.actions import Action, Request
from lycan.engine.manner import Manner
from lycan.engine.record import ModelCall
from lycan.engine.session import Player
from lycan.engine.view import View
from lycan.rules.talk import spoken_length


class Table(Protocol):
    """What a seat needs of its table (`lycan.web.table.Table` provides it): showing requests and activity."""

    def is_connected(self, seat: int) -> bool:
        """Whether anyone has `seat`'s page open."""
        ...

    def open_request(self, seat: int, request: Request, view: View, deadline_ms: int, number: int) -> None:
        """Show `request` on the seat's pages."""
        ...

    def close_request(self, seat: int, number: int) -> None:
        """The seat's request `number` is answered or timed out."""
        ...

    def start_activity(self, seat: int, request: Request, view: View) -> None:
        """`seat` is deciding `request`."""
        ...

    def speech_whole(self, seat: int, text: str, manner: Manner | None = None) -> None:
        """An utterance given whole, delivered in `manner` if given."""
        ...

    def end_activity(self, seat: int) -> None:
        """`seat` has answered."""
        ...


class SeatAway(RuntimeError):
    """The person at a seat is not connected; the engine falls back for them."""


class HumanSeat:
    """A person's seat: `act` shows the request in their browser and waits for their answer.

    The request's own timeout applies (the rules' timeouts, or the table's shorter ones); when
    it runs out the engine retries once and then falls back. If the person has left the table
    by the retry, the retry is given up at once rather than waited out again.

    The person sees the requests numbered 0, 1, 2, ... in the order they are asked of this seat:
    the engine's ids count every seat's requests, and gaps in them would tell of others' turns.
    """

    label = "human"

    def __init__(self, table: Table, seat: int) -> None:
        self.table = table
        self.seat = seat
        self.pending: Request | None = None
        self.number = -1
        """The number the person sees for the latest request (see the class docstring)."""
        self._answer: asyncio.Future[Action] | None = None

    async def act(self, view: View, request: Request) -> Action:
        """Ask the person; returns their legal answer."""
        if request.attempt > 0 and not self.table.is_connected(self.seat):
            raise SeatAway(f"{view.name} is away from the table")
        future: asyncio.Future[Action] = asyncio.get_running_loop().create_future()
        self.number += 1
        number = self.number
        self.pending, self._answer = request, future
        deadline_ms = int((time.time() + request.timeout) * 1000)
        self.table.open_request(self.seat, request, view, deadline_ms, number)
        try:
            return await future
        finally:
            self.pending, self._answer = None, None
            self.table.close_request(self.seat, number)

    def answer(self, request_id: int, action: Action) -> str | None:
        """Take the person's answer to their request number `request_id`; returns why it is refused, or None."""
        request, future = self.pending, self._answer
        if request is None or future is None or future.done():
            return "it is not your turn: nothing is asked of you right now"
        if request_id != self.number:
            return f"that question is closed; answer the current one (request {self.number})"
        if action.kind == "speak" and request.max_length and spoken_length(action.text) > request.max_length:
            return (
                f"your message is {spoken_length(action.text)} characters long (spaces not counted); "
                f"the limit is {request.max_length}: please shorten it"
            )
        problem = request.check(action)
        if problem is not None:
            return problem
        future.set_result(action)
        return None


class AISeat:
    """An AI agent's seat: shows it thinking, and passes its speech on as it is spoken.

    LLM agents stream their speech through `on_token` and announce its manner through `on_manner`
    (both wired to the table at creation); agents that answer with whole sentences have them sent
    as one piece, after their manner, when they answer.
    """

    def __init__(self, table: Table, seat: int, agent: Player, kind: str, delay: float = 0.0) -> None:
        self.table = table
        self.seat = seat
        self.agent = agent
        self.label = kind
        self.delay = delay

    def begin_game(self, game_id: str, seat: int) -> None:
        """Pass the game's context on to the agent."""
        begin = getattr(self.agent, "begin_game", None)
        if callable(begin):
            begin(game_id, seat)

    def drain_model_calls(self) -> list[ModelCall]:
        """The agent's model calls since last asked (for the record)."""
        drain = getattr(self.agent, "drain_model_calls", None)
        return list(drain()) if callable(drain) else []

    async def act(self, view: View, request: Request) -> Action:
        """Ask the agent, with the table told what it is doing."""
        self.table.start_activity(self.seat, request, view)
        try:
            if self.delay > 0:
                await asyncio.sleep(self.delay)
            action = await self.agent.act(view, request)
            if request.is_talk and isinstance(action, Action) and action.kind == "speak":
                self.table.speech_whole(self.seat, action.text, action.manner)
            return action
        finally:
            self.table.end_activity(self.seat)
