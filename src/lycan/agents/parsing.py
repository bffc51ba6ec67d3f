"""Reading model output: targets from JSON or free text, bids, probe guesses, and the spoken part of an answer.

Everything here is deterministic and model-free. A reading that cannot be made unambiguously
raises `ParseError`, whose message is shown to the model on the engine's retry.
"""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Sequence
from typing import Any, Literal

from lycan.engine.actions import MAX_BID, OVER, PASS, SKIP, Action, ProbeInfo, Request
from lycan.engine.game import cut_text
from lycan.rules.roles import Role, parse_role

Style = Literal["llm", "react", "recon"]
STYLES: tuple[Style, ...] = ("llm", "react", "recon")


class ParseError(ValueError):
    """The model's answer could not be read as a legal action; the message says why."""


_SPACES = re.compile(r"\s+")


# ----------------------------------------------------------------------------- JSON
_MISSING: Any = object()
_FENCE = re.compile(r"```(?:json|JSON)?\s*(.*?)(?:```|$)", re.DOTALL)


def _close_json(s: str) -> str:
    """Complete a JSON object cut off mid-way: close the open string, drop a dangling key, close brackets."""
    stack: list[str] = []
    in_str = False
    esc = False
    for ch in s:
        if in_str:
            if esc:
                esc = False
            elif ch == "\\":
                esc = True
            elif ch == '"':
                in_str = False
        elif ch == '"':
            in_str = True
        elif ch in "{[":
            stack.append("}" if ch == "{" else "]")
        elif ch in "}]" and stack:
            stack.pop()
    out = s + ('"' if in_str else "")
    out = out.rstrip()
    if out.endswith(":"):
        out += " null"
    out = out.rstrip(",").rstrip()
    return out + "".join(reversed(stack))


def load_json_object(text: str) -> Any:
    """The first JSON value in `text` (code fences and a truncated tail allowed), or `_MISSING`."""
    fenced = _FENCE.search(text)
    body = fenced.group(1) if fenced else text
    start = body.find("{")
    if start < 0:
        stripped = body.strip()
        if stripped[:1] in ('"', "[") or stripped in ("null", "true", "false"):
            try:
                return json.loads(stripped)
            except ValueError:
                return _MISSING
        return _MISSING
    end = body.rfind("}")
    candidates = [body[start : end + 1]] if end > start else []
    candidates.append(_close_json(body[start:]))
    for cand in candidates:
        try:
            return json.loads(cand)
        except ValueError:
            continue
    return _MISSING


_FIELD = re.compile(r'"(\w+)"\s*:\s*("((?:[^"\\]|\\.)*)"?|-?\d+|null|true|false)', re.IGNORECASE)


def json_field(text: str, keys: Sequence[str]) -> Any:
    """The value of the first of `keys` found in a JSON answer (or a JSON-like fragment), else `_MISSING`."""
    data = load_json_object(text)
    if isinstance(data, dict):
        lowered = {str(k).lower(): v for k, v in data.items()}
        for key in keys:
            if key in lowered:
                return lowered[key]
        return _MISSING
    if isinstance(data, str | int) and not isinstance(data, bool):
        return data
    found = {m.group(1).lower(): m for m in _FIELD.finditer(text)}
    for key in keys:
        m = found.get(key)
        if m is None:
            continue
        if m.group(3) is not None:
            return m.group(3)
        raw = m.group(2)
        return json.loads(raw)
    return _MISSING


# ----------------------------------------------------------------------------- targets
_PASS_WORDS = frozenset({"none", "pass", "nobody", "no one", "noone", "no", "skip", "null", "nothing", "keep", "n/a"})
_YES_WORDS = frozenset({"yes", "save", "use", "cure", "true", "y", "ok", "heal"})
_PASS_PHRASE = re.compile(
    r"\b(?:none|nobody|no one|pass|skip|not use|won't use|will not use|keep (?:it|the|my)|do nothing)\b", re.IGNORECASE
)
_VERB = (
    r"(?:vote|voting|votes|attack|attacking|kill|killing|eat|divine|divining|check|checking|inspect|investigate|"
    r"protect|protecting|guard|guarding|save|saving|heal|poison|poisoning|shoot|shooting|choose|choosing|pick|"
    r"picking|target|targeting|select|eliminate|execute|executing|lynch)"
)
_NUMBER = re.compile(r"(?:\b(?:seat|player|number|no\.?|p)\s*#?\s*|#)(\d{1,2})\b|^\s*(\d{1,2})\s*$", re.IGNORECASE)


def _norm(s: str) -> str:
    return re.sub(r"[^a-z0-9]", "", s.lower())


def _mentions(text: str, names: Sequence[str]) -> list[tuple[int, int]]:
    """(position, seat) of every seat name in `text`, longest names first so `Player 12` is not `Player 1`."""
    found: list[tuple[int, int]] = []
    taken: list[tuple[int, int]] = []
    for seat in sorted(range(len(names)), key=lambda s: -len(names[s])):
        pat = re.compile(r"(?<![\w])" + re.escape(names[seat]) + r"(?![\w])", re.IGNORECASE)
        for m in pat.finditer(text):
            if any(a < m.end() and m.start() < b for a, b in taken):
                continue
            taken.append((m.start(), m.end()))
            found.append((m.start(), seat))
    found.sort()
    return found


def _number_readings(n: int, n_seats: int) -> list[int]:
    """Seats a bare number may mean: the 1-based seat first (as names show), then the 0-based index."""
    return [s for s in (n - 1, n) if 0 <= s < n_seats]


def _pick_number(n: int, request: Request, names: Sequence[str], said: str) -> Action:
    """A seat number: the 1-based seat if legal, else the 0-based reading if that one is legal."""
    readings = _number_readings(n, len(names))
    for seat in readings:
        if seat in request.targets:
            return Action.choose(seat)
    return _pick(readings, request, names, said)


def _legal_names(request: Request, names: Sequence[str]) -> str:
    opts = [names[t] for t in request.targets]
    if request.can_pass:
        opts.append("none")
    return ", ".join(opts)


def _pick(readings: list[int], request: Request, names: Sequence[str], said: str) -> Action:
    legal = list(dict.fromkeys(s for s in readings if s in request.targets))
    if len(legal) == 1:
        return Action.choose(legal[0])
    if len(legal) > 1:
        who = " or ".join(names[s] for s in legal)
        raise ParseError(f"{said!r} is ambiguous ({who}); name exactly one of: {_legal_names(request, names)}")
    if readings:
        raise ParseError(
            f"{names[readings[0]]} is not a legal {request.kind} target now; choose one of: "
            f"{_legal_names(request, names)}"
        )
    raise ParseError(f"could not read a player from {said!r}; choose one of: {_legal_names(request, names)}")


def _resolve_value(value: Any, request: Request, names: Sequence[str]) -> Action:
    """Turn the value of a JSON `target` field into a legal action, repairing it if unambiguous."""
    if value is None or value is False:
        if request.can_pass:
            return PASS
        raise ParseError(f"{request.kind} needs a target; choose one of: {_legal_names(request, names)}")
    if value is True:
        if len(request.targets) == 1:
            return Action.choose(request.targets[0])
        raise ParseError(f"name a player; choose one of: {_legal_names(request, names)}")
    if isinstance(value, int | float):
        return _pick_number(int(value), request, names, str(value))
    said = str(value).strip()
    key = said.lower().strip(" .!\"'")
    if key in _PASS_WORDS:
        return _resolve_value(None, request, names)
    if key in _YES_WORDS and len(request.targets) == 1:
        return Action.choose(request.targets[0])
    exact = [s for s, n in enumerate(names) if _norm(n) == _norm(said)]
    if exact:
        return _pick(exact, request, names, said)
    mentioned = [s for _, s in _mentions(said, names)]
    if mentioned:
        return _pick(mentioned, request, names, said)
    m = _NUMBER.search(said)
    if m:
        return _pick_number(int(m.group(1) or m.group(2)), request, names, said)
    legal_names = {_norm(names[t]): t for t in request.targets}
    scored = sorted(
        ((difflib.SequenceMatcher(None, _norm(said), key).ratio(), seat) for key, seat in legal_names.items()),
        reverse=True,
    )
    if scored and scored[0][0] >= 0.75 and (len(scored) == 1 or scored[0][0] - scored[1][0] >= 0.05):
        return Action.choose(scored[0][1])
    raise ParseError(f"{said!r} is not a player here; choose one of: {_legal_names(request, names)}")


def parse_choice(text: str, request: Request, names: Sequence[str]) -> Action:
    """Read a target (or a pass) for a choose-type request from a model's answer.

    Accepts JSON (also fenced or cut off), a bare name, `Player 3`, a seat number, or a sentence
    such as `I vote for Player 3 because ...`; names match case-insensitively. An illegal or
    unknown reading is repaired to the one legal reading when there is exactly one.

    Raises:
        ParseError: empty, unreadable, ambiguous or illegal answer; the message lists the options.
    """
    raw = text.strip()
    if not raw:
        raise ParseError(f"the answer was empty; choose one of: {_legal_names(request, names)}")
    value = json_field(raw, ("target", "vote", "choice", "name", "player", "answer", "save", "use_cure"))
    if value is not _MISSING:
        return _resolve_value(value, request, names)
    if raw.lstrip().startswith("{"):
        raise ParseError(f'the JSON has no "target"; choose one of: {_legal_names(request, names)}')
    return _resolve_free_text(raw, request, names)


def _resolve_free_text(raw: str, request: Request, names: Sequence[str]) -> Action:
    mentions = _mentions(raw, names)
    legal = [s for _, s in mentions if s in request.targets]
    anchored: list[int] = []
    for pos, seat in mentions:
        before = raw[max(0, pos - 24) : pos]
        if re.search(_VERB + r"\w*\s*(?:for|on|at)?\s*(?:the\s+)?$", before, re.IGNORECASE):
            anchored.append(seat)
    anchored_legal = list(dict.fromkeys(s for s in anchored if s in request.targets))
    if len(anchored_legal) == 1:
        return Action.choose(anchored_legal[0])
    if len(set(legal)) == 1:
        return Action.choose(legal[0])
    if not legal and request.can_pass and _PASS_PHRASE.search(raw):
        return PASS
    if not mentions:
        m = _NUMBER.search(raw)
        if m:
            return _pick_number(int(m.group(1) or m.group(2)), request, names, raw[:80])
        return _resolve_value(raw[:80], request, names)
    if legal:
        return _pick(anchored_legal or legal, request, names, raw[:80])
    return _pick([s for _, s in mentions], request, names, raw[:80])


def parse_bid(text: str) -> Action:
    """Read a bid of 0..MAX_BID from JSON or text; out-of-range numbers are clamped.

    Raises:
        ParseError: no number in the answer.
    """
    value = json_field(text, ("bid", "amount", "value"))
    if value is _MISSING or value is None:
        m = re.search(r"-?\d+", text)
        if not m:
            raise ParseError(f'answer with a bid from 0 to {MAX_BID}, e.g. {{"bid": 1}}')
        value = m.group(0)
    try:
        amount = int(float(str(value).strip()))
    except ValueError:
        raise ParseError(f"answer with a bid from 0 to {MAX_BID}, not {value!r}") from None
    return Action("bid", amount=min(max(amount, 0), MAX_BID))


# ----------------------------------------------------------------------------- probe
_GUESS_LISTS = ("guesses", "guess", "roles", "players", "answers", "predictions")
_ROLE_KEYS = ("role", "guess", "answer", "prediction", "value")
_PROB_KEYS = ("confidence", "probability", "prob", "p", "certainty", "likelihood", "chance")
_PLAYER_KEYS = ("player", "name", "seat", "target", "who")
_NOT_GUESSED = frozenset({"", "unknown", "none", "null", "n/a", "?", "not sure", "unsure", "dead"})
_WORD = re.compile(r"[A-Za-z_]+")
_PROB_TEXT = re.compile(r"(-?\d+(?:\.\d+)?)\s*(%?)")


def _probe_roles(request: Request) -> list[str]:
    roles = list(request.info.roles) if isinstance(request.info, ProbeInfo) else []
    return roles or [r.value for r in Role]


def probe_example(request: Request, names: Sequence[str]) -> str:
    """A one-line example of the probe answer's JSON, for error messages."""
    first = names[request.targets[0]] if request.targets else "Player 1"
    return json.dumps({"guesses": {first: {"role": _probe_roles(request)[0], "confidence": 0.6}}})


def read_probability(value: Any) -> float | None:
    """A probability from a number or text such as `0.7`, `70%` or `70`, clamped to 0..1.

    Whole numbers from 2 to 100 and numbers marked `%` are read as percentages; anything else
    outside 0..1 is clamped. No number (or NaN) gives None.
    """
    if isinstance(value, bool) or value is None:
        return None
    percent = False
    if isinstance(value, int | float):
        number = float(value)
    else:
        m = _PROB_TEXT.search(str(value))
        if m is None:
            return None
        number, percent = float(m.group(1)), bool(m.group(2))
    if number != number:  # NaN
        return None
    if percent or (1.0 < number <= 100.0 and number.is_integer()):
        number /= 100.0
    return min(max(number, 0.0), 1.0)


def _probe_seat(key: Any, request: Request, names: Sequence[str]) -> int | None:
    """The asked seat a key names (`Player 3`, `player3`, `3`), or None if it names none unambiguously."""
    said = str(key).strip()
    readings = [s for s, n in enumerate(names) if _norm(n) == _norm(said)]
    if not readings:
        readings = [s for _, s in _mentions(said, names)]
    if not readings:
        m = _NUMBER.search(said)
        if m:
            numbered = [s for s in _number_readings(int(m.group(1) or m.group(2)), len(names)) if s in request.targets]
            return numbered[0] if numbered else None
    legal = list(dict.fromkeys(s for s in readings if s in request.targets))
    return legal[0] if len(legal) == 1 else None


def _probe_role(value: Any, allowed: Sequence[str], problems: list[str]) -> Role | None:
    """The role a guess names if it is one of `allowed`; otherwise None, with the reason in `problems`."""
    said = str(value).strip()
    if said.lower().strip(" .!?'\"") in _NOT_GUESSED:
        return None
    try:
        role = parse_role(said)
    except ValueError:
        words = []
        for word in _WORD.findall(said):
            try:
                words.append(parse_role(word))
            except ValueError:
                continue
        if len(set(words)) != 1:
            problems.append(f"{said[:40]!r} is no role")
            return None
        role = words[0]
    if role.value not in allowed:
        problems.append(f"{role.value} is not in this game")
        return None
    return role


def _lowered(data: dict[Any, Any]) -> dict[str, Any]:
    return {str(k).strip().lower(): v for k, v in data.items()}


def _first(data: dict[str, Any], keys: Sequence[str]) -> Any:
    return next((data[k] for k in keys if k in data), _MISSING)


def _guesses_of_value(value: Any, allowed: Sequence[str], problems: list[str]) -> list[tuple[Role, float | None]]:
    """The (role, probability) guesses one seat's value holds.

    A value is a role, `{"role", "confidence"}`, `[role, p]`, `"werewolf 70%"` or a distribution
    `{"werewolf": 0.6, "villager": 0.4}`.
    """
    if isinstance(value, dict):
        fields = _lowered(value)
        role_value = _first(fields, _ROLE_KEYS)
        if role_value is _MISSING:
            out = []
            for key, prob in value.items():
                role = _probe_role(key, allowed, problems)
                if role is not None:
                    out.append((role, read_probability(prob)))
            return out
        prob_value = _first(fields, _PROB_KEYS)
        role = _probe_role(role_value, allowed, problems)
        return [] if role is None else [(role, None if prob_value is _MISSING else read_probability(prob_value))]
    if isinstance(value, list | tuple):
        if not value:
            return []
        role = _probe_role(value[0], allowed, problems)
        return [] if role is None else [(role, read_probability(value[1]) if len(value) > 1 else None)]
    if value is None or isinstance(value, bool):
        return []
    said = str(value)
    m = _PROB_TEXT.search(said)
    role = _probe_role(said[: m.start()] if m else said, allowed, problems)
    return [] if role is None else [(role, read_probability(said[m.start() :]) if m else None)]


def _probe_entries(data: Any) -> list[tuple[Any, Any]]:
    """(player key, value) pairs of a JSON answer, from a map or a list of `{"player", "role"}` items."""
    if isinstance(data, dict):
        fields = _lowered(data)
        inner = _first(fields, _GUESS_LISTS)
        if isinstance(inner, dict | list):
            return _probe_entries(inner)
        return list(data.items())
    if isinstance(data, list):
        out = []
        for item in data:
            if isinstance(item, dict):
                fields = _lowered(item)
                player = _first(fields, _PLAYER_KEYS)
                if player is not _MISSING:
                    out.append((player, item))
        return out
    return []


def _load_probe_json(text: str) -> Any:
    """The JSON of a probe answer: an object, or a list of items if the answer starts with one."""
    fenced = _FENCE.search(text)
    body = fenced.group(1) if fenced else text
    bracket, brace = body.find("["), body.find("{")
    if bracket >= 0 and (brace < 0 or bracket < brace):
        end = body.rfind("]")
        for candidate in ([body[bracket : end + 1]] if end > bracket else []) + [_close_json(body[bracket:])]:
            try:
                return json.loads(candidate)
            except ValueError:
                continue
    return load_json_object(text)


def _probe_lines(text: str, names: Sequence[str]) -> list[tuple[Any, Any]]:
    """(player, rest of line) pairs from free text such as `Player 3: werewolf (70%)`."""
    out: list[tuple[Any, Any]] = []
    for line in text.splitlines():
        mentions = _mentions(line, names)
        if len({s for _, s in mentions}) != 1:
            continue
        pos, seat = mentions[0]
        out.append((names[seat], line[pos + len(names[seat]) :].strip(" :-=\t")))
    return out


def parse_probe(text: str, request: Request, names: Sequence[str]) -> Action:
    """Read a probe answer: the role (and a probability) the model gives each asked seat.

    Accepts `{"guesses": {"Player 3": {"role": "werewolf", "confidence": 0.7}, ...}}` and looser
    forms (the map alone, a list of `{"player", "role", "confidence"}` items, `"Player 3": "wolf 70%"`,
    a distribution of roles per seat, or one `Player 3: werewolf` line per seat). Seats are matched
    by name, roles through `parse_role` and kept only if they are in the game, probabilities are
    clamped to 0..1 (see `read_probability`); a seat the answer leaves out or cannot be read for is
    not guessed, and a seat's first guess of a role counts.

    Raises:
        ParseError: not one guess could be read; the message says why and shows the format.
    """
    raw = text.strip()
    allowed = _probe_roles(request)
    hint = (
        f"answer with JSON such as {probe_example(request, names)} for each of the others; roles: {', '.join(allowed)}"
    )
    if not raw:
        raise ParseError(f"the answer was empty; {hint}")
    data = _load_probe_json(raw)
    entries = [] if data is _MISSING else _probe_entries(data)
    if not entries:
        entries = _probe_lines(raw, names)
    problems: list[str] = []
    guesses: dict[tuple[int, Role], float | None] = {}
    for key, value in entries:
        if str(key).strip().lower() in ("thought", "reason", "reasoning"):
            continue
        seat = _probe_seat(key, request, names)
        if seat is None:
            problems.append(f"{str(key)[:40]!r} is not one of the players asked about")
            continue
        for role, prob in _guesses_of_value(value, allowed, problems):
            guesses.setdefault((seat, role), prob)
    if not guesses:
        why = "; ".join(dict.fromkeys(problems[:3])) or "no player and role were found"
        raise ParseError(f"no guess could be read ({why}); {hint}")
    return Action.probe((seat, role, prob) for (seat, role), prob in guesses.items())


# ----------------------------------------------------------------------------- speech
_REASONING_WORDS = r"thought|thoughts|contemplation|first[- ]order|second[- ]order|observation|reasoning"
_FINAL_WORDS: dict[Style, str] = {
    "llm": r"speech|action|say|answer|utterance|reply|response",
    "react": r"action",
    "recon": r"speech|refined speech|final speech",
}
_ANY_MARK = re.compile(
    r"(?:^|(?<=[\s.!?\"'*]))\**\s*(?:" + _REASONING_WORDS + r"|action|speech)\s*\**\s*:", re.IGNORECASE
)
_REASONING_START = re.compile(r"^\s*\**\s*(?:" + _REASONING_WORDS + r")\s*\**\s*:", re.IGNORECASE)
_END_TOKEN = re.compile(r"<\|[^|<>]{0,40}\|>|</s>|\[/INST\]")
_HOLD = 24
_QUOTES = "\"'“”‘’«»"


def _final_mark(style: Style, own_name: str) -> re.Pattern[str]:
    words = _FINAL_WORDS[style]
    if style == "llm" and own_name:
        words += "|" + re.escape(own_name)
    return re.compile(r"(?:^|(?<=[\s.!?\"'*]))\**\s*(?:" + words + r")\s*\**\s*:", re.IGNORECASE)


def _clean(region: str) -> str:
    """Speech normalised so that it only ever grows as more text arrives (except its tail)."""
    t = region.lstrip()
    if t[:1] in _QUOTES:
        t = t[1:].lstrip()
    return _SPACES.sub(" ", t)


class SpeechReader:
    """Find the spoken part of a talk answer as it streams in.

    `llm`: the whole answer is speech (an optional `Speech:` or own-name prefix is dropped);
    `react`: only what follows `Action:`; `recon`: only what follows `Speech:`. Reasoning
    lines never reach the speech: text is released only once it cannot turn out to be part of a
    marker, and the speech ends at the next marker, a blank line or a chat special token. The
    speech is cut to `max_length` characters (spaces not counted), as the engine would.
    """

    def __init__(self, style: Style, own_name: str = "", max_length: int = 0, names: Sequence[str] = ()) -> None:
        self.style = style
        self.max_length = max_length
        self.raw = ""
        self.emitted = ""
        self.closed = False
        self._final = _final_mark(style, own_name)
        others = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True) if n and n != own_name)
        # a model that goes on to write other players' lines: `\nPlayer 4: ...` ends the speech
        self._next_speaker = re.compile(r"\n\s*\**\s*(?:" + others + r")\s*\**\s*:", re.IGNORECASE) if others else None

    def _region(self, final: bool) -> tuple[str | None, bool]:
        raw = self.raw
        closed = False
        end = _END_TOKEN.search(raw)
        if end:
            raw, closed = raw[: end.start()], True
        mark = self._final.search(raw)
        if mark is None:
            reasoning = _ANY_MARK.search(raw)
            if self.style != "llm" or (reasoning and _REASONING_START.match(raw)):
                if final or closed:
                    if reasoning is None and raw.strip():
                        return raw, True  # no sections at all: the model answered with plain speech
                    return None, True
                return None, False
            if not (final or closed):
                head = raw.lstrip()
                if len(head) < _HOLD and "\n" not in head:
                    return None, False  # too short to know whether a `Speech:`-like prefix is coming
            region = raw
        else:
            region = raw[mark.end() :]
            plain = self.style == "llm" and raw[: mark.start()].strip() and not _REASONING_START.match(raw)
            if plain:
                region = raw  # `...: ` in the middle of plain speech is not a prefix
        nxt = _ANY_MARK.search(region)
        if nxt and nxt.start() > 0:
            region, closed = region[: nxt.start()], True
        body = region.lstrip()
        blank = re.search(r"\n\s*\n", body)
        if blank:
            region, closed = body[: blank.start()], True
        speaker = self._next_speaker.search(region) if self._next_speaker else None
        if speaker:
            region, closed = region[: speaker.start()], True
        return region, closed or final

    def _text(self, final: bool) -> tuple[str, bool]:
        region, closed = self._region(final)
        if region is None:
            return "", closed
        text = _clean(region)
        if self.max_length:
            cut = cut_text(text, self.max_length)
            if len(cut) < len(text.rstrip()):
                return cut, True
        held = text.rstrip().rstrip(_QUOTES).rstrip() if closed else text[: max(0, len(text) - _HOLD)].rstrip()
        return held, closed

    def feed(self, piece: str) -> str:
        """Add a piece of the answer; return the new speech text that is now certain."""
        if self.closed:
            return ""
        self.raw += piece
        text, closed = self._text(final=False)
        self.closed = closed
        return self._advance(text)

    def finish(self) -> str:
        """The answer is complete; return the rest of the speech."""
        text, _ = self._text(final=True)
        self.closed = True
        return self._advance(text)

    def _advance(self, text: str) -> str:
        if text.startswith(self.emitted) and len(text) > len(self.emitted):
            new = text[len(self.emitted) :]
            self.emitted = text
            return new
        return ""

    def action(self, can_skip: bool = False) -> Action:
        """The talk action the finished answer means: speech, `Over` or `Skip`.

        Raises:
            ParseError: there is no speech in the answer.
        """
        text = self.emitted.strip()
        word = text.lower().strip(" .!\"'*")
        if word in ("over", "nothing to add", "pass", "none"):
            return OVER
        if word == "skip":
            return SKIP if can_skip else OVER
        if not text:
            if not self.raw.strip():
                raise ParseError("the answer was empty; say something, or Over")
            marker = {"llm": "", "react": "Action:", "recon": "Speech:"}[self.style]
            hint = f" after {marker!r}" if marker else ""
            raise ParseError(f"no words to say were found{hint}; write what you say aloud, or Over")
        return Action.speak(text)


def read_speech(
    text: str,
    style: Style,
    own_name: str = "",
    max_length: int = 0,
    can_skip: bool = False,
    names: Sequence[str] = (),
) -> Action:
    """The talk action of a complete answer (see `SpeechReader`).

    Raises:
        ParseError: there is no speech in the answer.
    """
    reader = SpeechReader(style, own_name, max_length, names)
    reader.feed(text)
    reader.finish()
    return reader.action(can_skip)
