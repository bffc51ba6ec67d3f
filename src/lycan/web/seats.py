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


class SeatHost(Protocol):
    """What a seat needs of its table (`lycan.web.table.WebTable` provides it): showing requests and activity."""

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
    """The person at a seat is not connected, or has stopped answering; the engine falls back for them."""


AWAY_GRACE = 15.0
"""Seconds a person who is away (no page open, or silent) gets for a request before the engine falls back."""

AWAY_AFTER = 3
"""Requests in a row that a person let run out before they count as away although their page is open:
more than one decision's (a request and its retry), so that one lapse is not enough."""


class HumanSeat:
    """A person's seat: `act` shows the request in their browser and waits for their answer.

    The request's own timeout applies (the rules' timeouts, or the table's shorter ones); when
    it runs out the engine retries once and then falls back. A person who is away gets only
    `grace` seconds a request: whoever has no page open (they may be reloading it), and whoever
    let `AWAY_AFTER` requests in a row run out (a page opened once and left). Answering anything
    makes them present again. So a table whose people left plays on at the AI's pace, not at
    one timeout per decision.

    The person sees the requests numbered 0, 1, 2, ... in the order they are asked of this seat:
    the engine's ids count every seat's requests, and gaps in them would tell of others' turns.
    """

    label = "human"

    def __init__(self, table: SeatHost, seat: int, grace: float = AWAY_GRACE) -> None:
        self.table = table
        self.seat = seat
        self.grace = grace
        self.missed = 0
        """Requests in a row that ran out without an answer."""
        self.pending: Request | None = None
        self.number = -1
        """The number the person sees for the latest request (see the class docstring)."""
        self._answer: asyncio.Future[Action] | None = None

    @property
    def away(self) -> bool:
        """Whether the person has stopped answering (see the class docstring)."""
        return self.missed >= AWAY_AFTER

    async def act(self, view: View, request: Request) -> Action:
        """Ask the person; returns their legal answer.

        Raises:
            SeatAway: the person is away (see the class docstring) and did not answer within `grace`.
        """
        if not self.table.is_connected(self.seat):
            if request.attempt > 0:
                raise SeatAway(f"{view.name} is away from the table")
            waited = 0.0
            while not self.table.is_connected(self.seat):
                if waited >= self.grace:
                    raise SeatAway(f"{view.name} is away from the table")
                await asyncio.sleep(0.1)
                waited += 0.1
        if self.away:
            try:
                async with asyncio.timeout(self.grace):
                    return await self._ask(view, request)
            except TimeoutError:
                raise SeatAway(f"{view.name} has stopped answering") from None
        return await self._ask(view, request)

    async def _ask(self, view: View, request: Request) -> Action:
        future: asyncio.Future[Action] = asyncio.get_running_loop().create_future()
        self.number += 1
        number = self.number
        self.pending, self._answer = request, future
        deadline_ms = int((time.time() + request.timeout) * 1000)
        self.table.open_request(self.seat, request, view, deadline_ms, number)
        try:
            action = await future
        finally:
            if not future.done() or future.cancelled():  # ran out (the wait was cancelled)
                self.missed += 1
            self.pending, self._answer = None, None
            self.table.close_request(self.seat, number)
        self.missed = 0
        return action

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

    def __init__(self, table: SeatHost, seat: int, agent: Player, kind: str, delay: float = 0.0) -> None:
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
