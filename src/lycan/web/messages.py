"""What travels over a table's WebSocket: the messages a browser may send, and those it receives.

Browser to server (JSON text frames of at most `MAX_FRAME_BYTES`; talk passes
`lycan.rules.text.clean_talk`, so no control, direction-changing or half character reaches anyone):
    `{"type": "act", "request_id": N, "action": "speak"|"over"|"skip"|"choose"|"pass"|"bid",
    "target": SEAT, "text": "...", "amount": N, "seen": {"cues": [...]}}` answers the open request
    of the sender's seat (`seen`, only with "speak": what the person's camera showed while they
    spoke, built in their browser and checked by `lycan.engine.seen.Seen.parse`; it can only ever
    be attached to the sender's own words, since an act answers the sender's own request);
    `{"type": "ping"}` is answered with `{"type": "pong"}`.

Server to browser: `hello`, `event`, `state`, `request`, `request_closed`, `activity`,
`manner` (how the utterance about to be spoken is delivered: its voice and the speaker's
expression and gesture; the talk event carries it too), `speech` (a piece of an utterance as it
is spoken), `speech_end`, `audio`, `game_over`, `error`, `pong`. Every message to a seat is
built from what that seat may see. Ids in them are numbered within what the receiver sees (its
own events, its own requests, each talk channel's utterances), never taken from the whole game,
so that no gap in them tells of something hidden.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from lycan.engine.actions import Action, Request
from lycan.engine.events import Event, Talk, event_to_dict
from lycan.engine.seen import Seen, SeenError
from lycan.engine.view import View
from lycan.render import REQUEST_TITLES, describe_event
from lycan.rules.talk import spoken_length
from lycan.rules.text import TextError, clean_talk

MAX_FRAME_BYTES = 16 * 1024
"""The largest frame a browser may send; larger ones are refused with an error message (the server
closes a connection whose frame is beyond its WebSocket limit, 1 MiB under `lycan serve`)."""

MAX_NESTING = 8
"""The deepest nesting of JSON arrays and objects a frame may have (the messages above have one level)."""

ACTION_KINDS = ("speak", "over", "skip", "choose", "pass", "bid")


class BadMessage(ValueError):
    """A frame that cannot be used; the message says what was wrong, for the sender."""


@dataclass(frozen=True, slots=True)
class ActMessage:
    """An answer to request `request_id`."""

    request_id: int
    action: Action


@dataclass(frozen=True, slots=True)
class Ping:
    """A keep-alive."""


ClientMessage = ActMessage | Ping


def _int(data: dict[str, Any], key: str, default: int | None = None) -> int | None:
    value = data.get(key, default)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadMessage(f"{key!r} must be a whole number, got {json.dumps(value)[:40]}")
    return value


def nesting(text: str, limit: int = MAX_NESTING) -> int:
    """How deeply JSON arrays and objects nest in `text` (counting stops just past `limit`)."""
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > deepest:
                deepest = depth
                if deepest > limit:
                    break
        elif ch in "]}":
            depth -= 1
    return deepest


def parse_client_message(raw: str | bytes | None) -> ClientMessage:
    """Read one frame from a browser.

    Raises:
        BadMessage: an oversized, binary, too deeply nested or malformed frame, or an unknown message type.
    """
    if raw is None:
        raise BadMessage("send JSON text frames, not binary frames")
    if isinstance(raw, bytes):
        raise BadMessage("send JSON text frames, not binary frames")
    size = len(raw.encode("utf-8", "replace"))
    if size > MAX_FRAME_BYTES:
        raise BadMessage(f"the message is {size} bytes; the limit is {MAX_FRAME_BYTES} bytes")
    if nesting(raw) > MAX_NESTING:
        raise BadMessage(f"the message nests arrays or objects more than {MAX_NESTING} levels deep; send a flat object")
    try:
        data = json.loads(raw)
    except ValueError:
        raise BadMessage("the message is not valid JSON") from None
    except RecursionError:  # a depth the scan above let through cannot get here, but never drop the frame
        raise BadMessage("the message nests too deeply to read; send a flat object") from None
    if not isinstance(data, dict):
        raise BadMessage("the message must be a JSON object with a 'type'")
    kind = data.get("type")
    if kind == "ping":
        return Ping()
    if kind != "act":
        shown = json.dumps(kind)[:40] if kind is not None else "none"
        raise BadMessage(f"unknown message type {shown}; send 'act' or 'ping'")
    request_id = _int(data, "request_id")
    if request_id is None:
        raise BadMessage("an 'act' message needs the 'request_id' it answers")
    action_kind = data.get("action")
    if action_kind not in ACTION_KINDS:
        raise BadMessage(f"'action' must be one of {', '.join(ACTION_KINDS)}")
    text = data.get("text", "")
    if not isinstance(text, str):
        raise BadMessage("'text' must be a string")
    try:
        text = clean_talk(text)
    except TextError as err:
        raise BadMessage(str(err)) from None
    target = _int(data, "target")
    amount = _int(data, "amount", 0) or 0
    if action_kind == "choose" and target is None:
        raise BadMessage("'choose' needs a 'target' seat")
    if action_kind == "speak" and not text.strip():
        raise BadMessage("say something, or press Over")
    seen = None
    if "seen" in data:
        if action_kind != "speak":
            raise BadMessage("'seen' describes spoken words; send it only with 'speak'")
        try:
            seen = Seen.parse(data["seen"])
        except SeenError as err:
            raise BadMessage(f"the camera's description was refused: {err}") from None
    return ActMessage(request_id, Action(action_kind, target=target, text=text, amount=amount, seen=seen))


def event_message(event: Event, names: tuple[str, ...], viewer: int | None, position: int) -> dict[str, Any]:
    """An `event` message for `viewer` (None: a spectator, who is only ever sent public events).

    `position` is the event's place among those the viewer is sent (0, 1, 2, ...); it stands in
    for the engine's id, which numbers the events of the whole game and so would count hidden ones.
    """
    data = event_to_dict(event)
    data["id"] = position
    message = {
        "type": "event",
        "id": position,
        "kind": event.kind,
        "day": event.day,
        "phase": event.phase,
        "text": describe_event(event, names, viewer=viewer),
        "data": data,
    }
    if isinstance(event, Talk) and event.seen is not None:
        message["caption"] = event.seen.caption()  # what the speaker's camera showed, as everyone reads it
    return message


def request_message(request: Request, view: View, deadline_ms: int, number: int) -> dict[str, Any]:
    """A `request` message: what is asked of the seat, with only the legal choices.

    `number` counts the requests made of this seat (the engine's request ids count everyone's).
    """
    return {
        "type": "request",
        "id": number,
        "kind": request.kind,
        "prompt": REQUEST_TITLES.get(request.kind, request.kind),
        "day": request.day,
        "targets": [{"seat": t, "name": view.names[t]} for t in request.targets],
        "can_pass": request.can_pass,
        "can_skip": request.can_skip,
        "max_length": request.max_length,
        "timeout": request.timeout,
        "deadline_ms": deadline_ms,
        "attempt": request.attempt,
        "error": request.error,
    }


__all__ = [
    "ACTION_KINDS",
    "MAX_FRAME_BYTES",
    "MAX_NESTING",
    "ActMessage",
    "BadMessage",
    "ClientMessage",
    "Ping",
    "event_message",
    "nesting",
    "parse_client_message",
    "request_message",
    "spoken_length",
]
