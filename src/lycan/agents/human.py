"""A person playing one seat in the terminal: sees only that seat's view, offered only legal choices."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from lycan.engine.actions import OVER, PASS, SKIP, Action, Request
from lycan.engine.events import Event
from lycan.engine.view import View
from lycan.render import REQUEST_TITLES, describe_event
from lycan.rules.text import for_terminal


def print_line(line: str) -> None:
    """Print one line on the terminal, every invisible character shown as a code (names and talk come from outside)."""
    print(for_terminal(line))


class HumanAgent:
    """Plays a seat through `read_line`/`write` (the terminal by default).

    Every new event the seat may see is printed before each question; an illegal entry is
    answered with the legal choices and asked again. A person has no time limit by default.
    """

    label = "human"

    def __init__(
        self,
        read_line: Callable[[str], str] = input,
        write: Callable[[str], None] = print_line,
        timeout: float | None = None,
        already_shown: Callable[[Event], bool] | None = None,
    ) -> None:
        self.read_line = read_line
        self.write = write
        self.timeout = timeout
        self.already_shown = already_shown
        self._shown = 0

    def show_new(self, view: View) -> None:
        """Print the events this seat has not seen printed yet."""
        for event in view.events[self._shown :]:
            if self.already_shown is not None and self.already_shown(event):
                continue
            line = describe_event(event, view.names, viewer=view.seat)
            if line:
                self.write(line)
        self._shown = len(view.events)

    async def act(self, view: View, request: Request) -> Action:
        """Show what is new, then ask until the answer is legal."""
        return await asyncio.to_thread(self.decide, view, request)

    def decide(self, view: View, request: Request) -> Action:
        """Blocking form of `act`."""
        self.show_new(view)
        if request.error:
            self.write(f"(Your last answer was not accepted: {request.error})")
        while True:
            action = self._ask_once(view, request)
            if action is not None and request.check(action) is None:
                return action

    def _ask_once(self, view: View, request: Request) -> Action | None:
        title = REQUEST_TITLES.get(request.kind, request.kind)
        if request.is_talk:
            hint = "type what you say; /over when done for today" + ("; /skip to pass" if request.can_skip else "")
            text = self.read_line(f"{title} as {view.name} ({hint})> ").strip()
            if text.lower() in ("/over", "over"):
                return OVER
            if request.can_skip and text.lower() in ("/skip", "skip"):
                return SKIP
            if not text:
                self.write("Say something, or /over.")
                return None
            return Action.speak(text)
        if request.kind == "bid":
            raw = self.read_line(f"{title}> ").strip()
            if raw.isdigit() and 0 <= int(raw) <= 3:
                return Action("bid", amount=int(raw))
            self.write("Enter a number from 0 to 3.")
            return None
        options = [f"{i + 1}) {view.names[t]}" for i, t in enumerate(request.targets)]
        if request.can_pass:
            options.append("0) nobody")
        self.write(f"{title}: " + "   ".join(options))
        raw = self.read_line("Your choice (number or name)> ").strip()
        action = self._parse_choice(raw, view, request)
        if action is None:
            legal = ", ".join(view.names[t] for t in request.targets)
            self.write(
                f"{raw!r} is not a legal choice. Legal: {legal}" + (", or 0 for nobody" if request.can_pass else "")
            )
        return action

    @staticmethod
    def _parse_choice(raw: str, view: View, request: Request) -> Action | None:
        if request.can_pass and raw.lower() in ("0", "nobody", "none", "pass", "no"):
            return PASS
        if raw.isdigit() and 1 <= int(raw) <= len(request.targets):
            return Action.choose(request.targets[int(raw) - 1])
        seat = view.seat_of(raw)
        if seat is not None and seat in request.targets:
            return Action.choose(seat)
        return None
