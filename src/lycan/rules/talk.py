"""How the rules measure and cut an utterance: characters without spaces, AIWolf's @mention parts.

The one home of these measures: the engine cuts talk with them, agents fit their speech to them,
the web table counts with them.
"""

from __future__ import annotations

from collections.abc import Iterable

from lycan.rules.ruleset import TalkLimits


def spoken_length(text: str) -> int:
    """Characters of `text`, spaces not counted (how every talk limit is measured)."""
    return sum(1 for ch in text if not ch.isspace())


def cut_talk(text: str, limits: TalkLimits, names: Iterable[str]) -> str:
    """Cut an utterance to the talk limits: the whole (`max_length`), and AIWolf's two parts.

    With `base_length` or `mention_length` set, the text before the first `@Name` mention of a
    seat is cut to `base_length` and the text from that mention on to `mention_length`.
    """
    if 0 < limits.max_length < len(text):
        text = cut_text(text, limits.max_length)
    if not (limits.base_length or limits.mention_length):
        return text
    starts = [i for name in names if (i := text.find("@" + name)) >= 0]
    if not starts:
        return cut_text(text, limits.base_length)
    at = min(starts)
    before = cut_text(text[:at], limits.base_length)
    after = cut_text(text[at:], limits.mention_length)
    return before + after if before == text[:at] else f"{before} {after}"


def cut_text(text: str, limit: int) -> str:
    """Cut `text` so that it has at most `limit` characters, spaces not counted."""
    if limit <= 0 or len(text) <= limit:
        return text
    count = 0
    for i, ch in enumerate(text):
        if not ch.isspace():
            count += 1
            if count > limit:
                return text[:i].rstrip()
    return text
