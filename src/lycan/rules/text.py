"""What text from outside may hold, and how any text is shown on a terminal.

Talk and names come from people's browsers and other teams' agents; they end up in every other
seat's frames, in prompts, in the SQLite record and on operators' terminals. One bad character can
break all of those: a lone UTF-16 surrogate cannot be encoded as UTF-8 (a WebSocket frame or a
database row carrying it fails), an ESC sequence rewrites a terminal (colours, window title), a
bidi override turns "Rin is a wolf" around on screen. So every string from outside passes
`clean_talk` or `name_problem` at the edge where it arrives, and every string printed to a
terminal or a log passes `for_terminal`, whoever wrote it.

Rules for talk (`clean_talk`):
- refused, with a sentence naming the character: lone surrogates, control characters other than
  tab and line breaks, bidi controls (embeddings, overrides, isolates, marks), other invisible
  formatting characters (zero-width joiners, which emoji sequences need, are kept), unassigned code
  points, and more than `MAX_MARKS` combining marks on one letter;
- neutralised: tabs and line breaks become spaces, runs of spaces shrink to one;
- normalised to NFC, so one word has one spelling in the record.

Names follow the same rules, and may hold no line breaks or tabs at all.
"""

from __future__ import annotations

import unicodedata

MAX_MARKS = 3
"""Combining marks allowed on one base letter (Vietnamese needs two; stacks of dozens are an attack)."""

BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
"""Unicode's Bidi_Control characters: they reorder text around them on screen."""

_JOINERS = frozenset("\u200c\u200d")  # zero-width non-joiner and joiner: part of scripts and emoji
_SPACES = frozenset("\t\n\r\x0b\x0c\x85\u2028\u2029")  # become a plain space in talk
_KINDS = {
    "Cs": "a lone surrogate (half of a character)",
    "Cc": "a control character",
    "Cf": "an invisible formatting character",
    "Cn": "an unassigned character",
}


class TextError(ValueError):
    """Text that may not be shown to the table; the message says which character and why."""


def _label(ch: str) -> str:
    name = unicodedata.name(ch, "")
    return f"U+{ord(ch):04X}{' ' + name if name else ''}"


_USE = "use visible letters, digits, spaces and punctuation"


_NAME_IGNORABLE = frozenset("\u034f\u115f\u1160\u3164\uffa0") | _JOINERS
"""Characters that show as nothing, refused in names (where talk keeps joiners for emoji): with them
one name could look exactly like another."""


def _problem(text: str, what: str, spaces_allowed: bool) -> str | None:
    """Why `text` may not be used as `what`, or None (`spaces_allowed`: talk; else a name)."""
    marks = 0
    for ch in text:
        category = unicodedata.category(ch)
        if ch in BIDI_CONTROLS:
            return f"{what} contains a direction-changing character ({_label(ch)}); {_USE}"
        if ch in _SPACES:
            if spaces_allowed:
                marks = 0
                continue
            return f"{what} contains a line break or tab ({_label(ch)}); {_USE}"
        if not spaces_allowed and (ch in _NAME_IGNORABLE or category == "Co" or 0xFE00 <= ord(ch) <= 0xFE0F):
            return f"{what} contains an invisible or private character ({_label(ch)}); {_USE}"
        if category in _KINDS and ch not in _JOINERS:
            return f"{what} contains {_KINDS[category]} ({_label(ch)}); {_USE}"
        if category in ("Mn", "Me"):
            marks += 1
            if marks > MAX_MARKS:
                return f"{what} stacks more than {MAX_MARKS} combining marks on one letter; remove the extra marks"
        elif ch not in _JOINERS:  # a joiner does not start a new letter
            marks = 0
    return None


def talk_problem(text: str) -> str | None:
    """Why `text` may not be said at the table, or None (see the module docstring)."""
    return _problem(text, "the message", spaces_allowed=True)


def clean_talk(text: str) -> str:
    """`text` as it may be said: NFC, line breaks and tabs as spaces, no runs of spaces, trimmed.

    Raises:
        TextError: a character that is refused (see the module docstring); the message names it.
    """
    problem = talk_problem(text)
    if problem is not None:
        raise TextError(problem)
    return " ".join(unicodedata.normalize("NFC", text).split())


def name_problem(name: str) -> str | None:
    """Why `name` may not stand for a seat (control, invisible, direction-changing characters), or None."""
    return _problem(name, f"the name {for_terminal(name)!r}", spaces_allowed=False)


def for_terminal(text: str) -> str:
    r"""`text` safe to print on a terminal or into a log line: every invisible character shown as a code.

    Control characters (ESC, BEL, backspace, carriage return, line breaks...), bidi controls,
    other formatting characters and lone surrogates become `\x1b` or `<U+202E>` style codes, so
    that what is printed is what was written, and nothing printed can drive the terminal.
    """
    if text.isprintable() and not any(ch in BIDI_CONTROLS for ch in text):
        return text
    out = []
    for ch in text:
        category = unicodedata.category(ch)
        if ch == " " or (category[0] not in "CZ" and ch not in BIDI_CONTROLS) or category == "Zs":
            out.append(ch)
        elif ord(ch) < 0x100:
            out.append(f"\\x{ord(ch):02x}")
        else:
            out.append(f"<U+{ord(ch):04X}>")
    return "".join(out)


__all__ = [
    "BIDI_CONTROLS",
    "MAX_MARKS",
    "TextError",
    "clean_talk",
    "for_terminal",
    "name_problem",
    "talk_problem",
]
