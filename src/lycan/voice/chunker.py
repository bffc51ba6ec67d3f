"""Cut a stream of model output into clauses that can be spoken while the model keeps writing."""

from __future__ import annotations

import re

#: ASCII punctuation that ends a clause when whitespace follows it.
ASCII_ENDS = frozenset(".,;:!?")
#: CJK (full-width) punctuation that ends a clause wherever it stands.
CJK_ENDS = frozenset("。，！？；：、．…")
#: Closing quotes and brackets that belong to the clause before them.
CLOSERS = frozenset("\"')]}”’»」』）】〉》")
#: Words whose period does not end a sentence (compared lower-cased, without the period).
ABBREVIATIONS = frozenset(
    {"mr", "mrs", "ms", "dr", "prof", "sr", "jr", "st", "vs", "e.g", "i.e", "a.m", "p.m", "approx", "cf", "fig"}
)

_CJK_CHAR = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\uff66-\uff9f]")
_LAST_WORD = re.compile(r"(\S+)$")


def weight(text: str) -> int:
    """Length for the minimum-length rule: CJK characters count twice (they carry more speech each)."""
    return len(text) + len(_CJK_CHAR.findall(text))


class ClauseChunker:
    """Feed it model output piece by piece; it hands back each clause as soon as the clause has ended.

    A clause ends at `, . ; : ! ?` followed by whitespace, at CJK punctuation (`。，！？；：、`), or at a
    newline. Periods of abbreviations (`Mr.`, `e.g.`) and initials, periods followed by a lower-case
    word, and punctuation inside numbers (`3.5`, `3,000`), do not end a clause. Clauses shorter than
    `min_chars` are merged with the next; text running past `max_chars` without punctuation is cut at
    a space.

    Args:
        min_chars: the shortest clause to emit on its own (CJK characters count double).
        max_chars: the longest stretch to wait for punctuation.
        first_words: when > 0, the very first clause is cut after this many words if no
            punctuation came yet, so the first audio starts sooner (later clauses are unaffected).
    """

    def __init__(self, min_chars: int = 12, max_chars: int = 240, first_words: int = 0) -> None:
        self.min_chars = min_chars
        self.max_chars = max_chars
        self.first_words = first_words
        self._emitted = False
        self._buf = ""
        self._scan = 0

    @property
    def pending(self) -> str:
        """Text received but not yet emitted."""
        return self._buf

    def feed(self, piece: str) -> list[str]:
        """Add a piece of text; return the clauses it completed (possibly none)."""
        self._buf += piece
        out = self._drain(final=False)
        if not out and not self._emitted and self.first_words > 0:
            words = re.findall(r"\S+\s+", self._buf)
            if len(words) >= self.first_words:
                cut = sum(len(w) for w in words[: self.first_words])
                out = [_tidy(self._buf[:cut])]
                self._buf, self._scan = self._buf[cut:], 0
        self._emitted = self._emitted or bool(out)
        return out

    def flush(self) -> list[str]:
        """End of text: return the remaining clauses, however short."""
        out = self._drain(final=True)
        rest = _tidy(self._buf)
        self._buf, self._scan = "", 0
        if rest:
            out.append(rest)
        return out

    def split(self, text: str) -> list[str]:
        """All clauses of a whole text (the chunker is left empty)."""
        return [*self.feed(text), *self.flush()]

    def _drain(self, final: bool) -> list[str]:
        out: list[str] = []
        buf = self._buf
        i = self._scan
        while i < len(buf):
            end = self._boundary(buf, i, final)
            if end is None:  # need to see more text first
                break
            if end < 0:
                i += 1
                continue
            clause = _tidy(buf[:end])
            if clause and weight(clause) >= self.min_chars:
                out.append(clause)
                buf = buf[end:]
                i = 0
            else:
                i = end
        while len(buf) > self.max_chars:
            cut = buf.rfind(" ", 1, self.max_chars + 1)
            if cut <= 0:
                break
            out.append(_tidy(buf[:cut]))
            buf = buf[cut:]
            i = 0
        self._buf, self._scan = buf, i
        return out

    def _boundary(self, buf: str, i: int, final: bool) -> int | None:
        """Where the clause ends if `buf[i]` ends one: an index, -1 if it does not, None if unknown yet."""
        ch = buf[i]
        if ch == "\n":
            return i + 1
        if ch in CJK_ENDS:
            j = i + 1
            while j < len(buf) and (buf[j] in CLOSERS or buf[j] in CJK_ENDS):
                j += 1
            if j == len(buf) and not final:
                return None
            return j
        if ch not in ASCII_ENDS:
            return -1
        j = i + 1
        while j < len(buf) and (buf[j] in CLOSERS or buf[j] in ASCII_ENDS):
            j += 1
        if j == len(buf):
            return j if final else None
        nxt = buf[j]
        if not (nxt.isspace() or _CJK_CHAR.match(nxt)):
            return -1  # 3.5, 3,000, e.g.x: the punctuation is inside a token
        if buf[i:j] == "." and _is_abbreviation(buf[:i]):
            return -1
        if ch == ".":
            # A period followed by a lower-case word ("Player 3. is", "etc. and") does not end a sentence.
            k = j
            while k < len(buf) and buf[k].isspace():
                k += 1
            if k == len(buf):
                return j if final or "\n" in buf[j:k] else None
            if buf[k].islower():
                return -1
        return j


def _is_abbreviation(before: str) -> bool:
    match = _LAST_WORD.search(before)
    if not match:
        return False
    word = match.group(1).lstrip("\"'([{“‘«")
    if len(word) == 1 and word.isalpha() and word.isupper():
        return True  # an initial: J. Smith
    return word.lower() in ABBREVIATIONS


def _tidy(text: str) -> str:
    return " ".join(text.split())
