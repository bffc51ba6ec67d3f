"""Decide, then phrase: a speech act chosen from evidence, worded by a chat model, checked, or templated.

A small local model asked to invent Werewolf talk repeats its prompt, narrates the game in the
third person, repeats another player's claim as its own or gives its own side away. So an LLM seat
in `phrase` mode does not ask the model what to say: a planner decides the speech act from the
seat's view (the belief-driven heuristic's agenda: claim a role, announce a result, accuse or
trust a player with the evidence, say whom it will vote for, or stay quiet), written in the
templates of `lycan.agents.speech`; the model is then asked only to say that in its own words.

`check_phrasing` accepts a phrasing only if every test passes, and the template is spoken instead
otherwise (the reason is recorded with the model call, never spoken):

- `empty` / `too long`: nothing to say, or past the talk limit;
- `error text`: retry or error wording, JSON, code fences, an assistant's disclaimer, a log's
  `Day 2:` marker;
- `prompt echo`: a run of `ECHO_NGRAM` words shared with the instructions and not with the act;
- `self-narration`: the speaker's own name (talk about oneself in the third person);
- `self-reveal`: a werewolf or possessed admitting its side in public talk;
- `stammer`: "I" said again at once ("I, I", "I, me, attack..."), as a small model does when it
  echoes a prompt's "(I, me)" or loops on its first token;
- `contradicts the act`: the statements the talk reader (`lycan.beliefs.reader`) reads back differ
  from the act's (a paraphrase passes; a changed claim, result, vote or accusation does not);
- `quotes`: quotation marks the act lacks (a wording that puts the act in someone's mouth: `Player 1
  says: "..."`);
- `hides the changed vote`: a vote that replaces the one said before, worded as a plain vote;
- `question not asked`: the act asks a question and the wording neither asks one nor invites an
  answer ("tell us your read"), as a garbled "Ken who don't have strong suspicion." does;
- `speaks to a player it speaks of`: a name the act speaks of, addressed ("I agree with Ember, Yarrow.");
- `other names` / `other roles`: a player name the act does not contain or one it does that is
  left out (an answer or a question that reads as no statement must still be said to its player),
  or a role word the act lacks (the names and roles a reason cites are part of the act); only with
  `strict`, as larger models may word freely around the act and only the facts they state are
  checked.

The detectors are plain functions so that `lycan.eval` can measure the same faults in records.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from functools import lru_cache

from lycan.agents.speech import CHANGED
from lycan.beliefs.claims import parser_for
from lycan.beliefs.reader import reader_for
from lycan.engine.view import View
from lycan.rules.roles import Role
from lycan.rules.talk import spoken_length

ECHO_NGRAM = 5
"""Words in a row that, shared with the instructions (and not with the act), make a phrasing an echo."""

REASONS = (
    "too long",
    "empty",
    "error text",
    "prompt echo",
    "self-narration",
    "self-reveal",
    "stammer",
    "reads as a seat speaking",
    "contradicts the act",
    "quotes",
    "hides the changed vote",
    "question not asked",
    "speaks to a player it speaks of",
    "garbled name",
    "other names",
    "other roles",
    "false claim",
)
"""Every reason `check_phrasing` (and `check_fresh`: "false claim") may give, in the order the checks run."""

_ERROR_TEXT = re.compile(
    r"\b(?:retry|retrying|error|invalid|json|schema|parse|format|instructions?|prompt|as an ai|"
    r"language model|assistant|i cannot|i can't help|rewrite|rephrase|message)\b|```|[{}<>\[\]]|"
    r"\b(?:day|night) \d+\s*:",
    re.IGNORECASE,
)
_ROLE_WORDS = re.compile(
    r"\b(villagers?|seers?|diviners?|mediums?|guardians?|bodyguards?|possessed|witch(?:es)?|hunters?|idiots?|"
    r"foxes|fox)\b",
    re.IGNORECASE,
)
_WOLF_ADMISSION = re.compile(
    r"\b(?:I am|I'm|I was) (?:a |the |one of the |also a )?(?:were)?wol(?:f|ves)\b|"
    r"(?:^|[.!?;,]\s*)as (?:a |the )?(?:(?:were)?wolf|possessed)\b|"
    r"\b(?:we|us) (?:were)?wolves\b|\bmy (?:fellow |partner |werewolf )?(?:were)?wol(?:f|ves)\b|"
    r"\bmy (?:werewolf )?partner\b|\bour (?:pack|kill|victim|attack)\b|\bwe (?:will |should |must )?attack\b|"
    r"\b(?:I am|I'm) (?:the )?possessed\b|\bI (?:am|'m) on the (?:werewolf|wolf|wolves') side\b",
    re.IGNORECASE,
)
_WORD = re.compile(r"[a-z0-9']+")
_QUOTES = re.compile(r"[\"“”«»]")
_CHANGE = re.compile(
    r"\b(?:chang\w*|switch\w*|second thoughts?|take back|took back|taking back|scratch|new plan|instead|"
    r"no longer|anymore|rethink\w*|reconsider\w*|re-?think\w*|not .{0,20} after all)\b",
    re.IGNORECASE,
)
"""Words that say a vote replaces the one said before ("Change of plan.", "I'm switching.", "instead")."""
_ASKS = re.compile(
    r"[?？]|\b(?:tell|give|share\s+with)\s+(?:us|me)\b|\bshare\s+your\b|\blet'?s\s+hear\b|\bI'?d\s+like\s+to\s+hear\b|"
    r"\b(?:we|I)\s+(?:want|need)\s+to\s+hear\b",
    re.IGNORECASE,
)
"""A question asked, or an answer invited in other words ("Ken, tell us your read.")."""
_STAMMER = re.compile(r"\bI\s*,?\s+(?:I|me)\b(?!')", re.IGNORECASE)


def words(text: str) -> list[str]:
    """Lower-case words of `text` (letters, digits and apostrophes)."""
    return _WORD.findall(text.lower())


def ngrams(text: str, n: int = ECHO_NGRAM) -> set[tuple[str, ...]]:
    """The `n`-word runs of `text`."""
    w = words(text)
    return {tuple(w[i : i + n]) for i in range(len(w) - n + 1)}


def echoes(text: str, instructions: str | Iterable[str], *, allowed: str = "", n: int = ECHO_NGRAM) -> bool:
    """Whether `text` repeats `n` words in a row of `instructions` that `allowed` does not contain."""
    source = instructions if isinstance(instructions, str) else "\n".join(instructions)
    shared = ngrams(text, n) & ngrams(source, n)
    return bool(shared - ngrams(allowed, n))


def names_in(text: str, names: Sequence[str]) -> set[int]:
    """Seats whose name `text` mentions (whole-name matches; `Player 1` is not read in `Player 10`)."""
    return {seat for seat, name in enumerate(names) if _name_pattern(name).search(text)}


@lru_cache(maxsize=512)
def _name_pattern(name: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![\w\[]){re.escape(name)}(?![\w\]])", re.IGNORECASE)


def speaker_label(text: str, names: Sequence[str]) -> bool:
    """Whether `text` opens with a seat's name and a colon, as a line of the table's log does.

    "Yarrow: No strong suspicion yet." said by Hazel reads as Yarrow speaking.
    """
    return any(re.match(rf"\s*@?{re.escape(name)}\s*:", text, re.IGNORECASE) for name in names if name)


def article_before_name(text: str, names: Sequence[str]) -> bool:
    """Whether `text` puts an article before a seat's name, which no name takes ("I agree with Garnet, the Willow.").

    The name as written, capitalised: "a sage call" is no garbled name of a seat called Sage.
    """
    return any(re.search(rf"\b(?:[Tt]he|[Aa]n?)\s+@?{re.escape(name)}(?![\w\]])", text) for name in names if name)


def narrates_self(text: str, own_name: str) -> bool:
    """Whether the speaker names itself (speaks of itself in the third person, as a narrator would)."""
    return bool(own_name) and bool(_name_pattern(own_name).search(text))


def stammers(text: str) -> bool:
    """Whether `text` says "I" and then "I" or "me" straight after ("I, I", "I, me, attack Player 7")."""
    return bool(_STAMMER.search(text))


def reveals_wolf_side(text: str) -> bool:
    """Whether `text` admits, in the first person, being a werewolf, the possessed, or on their side."""
    return bool(_WOLF_ADMISSION.search(text))


def error_text(text: str) -> bool:
    """Whether `text` holds retry or error wording, markup, or an assistant's voice: never to be spoken."""
    return bool(_ERROR_TEXT.search(text))


def role_words(text: str) -> set[str]:
    """The role words (other than werewolf) in `text`, singular and lower-case."""
    out = set()
    for m in _ROLE_WORDS.finditer(text):
        word = m.group(1).lower()
        out.add({"witches": "witch", "foxes": "fox", "possessed": "possessed"}.get(word, word.rstrip("s")))
    return out


def clean(raw: str, own_name: str) -> str:
    """A model's phrasing as it would be spoken: the first non-empty line, without quotes or a `Name:` prefix."""
    text = next((line.strip() for line in raw.strip().splitlines() if line.strip()), "")
    if own_name:
        text = re.sub(rf"^\s*\**{re.escape(own_name)}\**\s*:\s*", "", text, flags=re.IGNORECASE)
    text = re.sub(
        r"^(?:says?|speaks?|answer|response|spoken words?|you say|(?:day|night) \d+)\s*:\s*",
        "",
        text,
        flags=re.IGNORECASE,
    )
    if len(text) >= 2 and text[0] in "\"'“‘" and text[-1] in "\"'”’":
        text = text[1:-1].strip()
    return text


def voice_fault(text: str, own_name: str, instructions: str, *, allowed: str = "", wolf_public: bool) -> str:
    """The faults any spoken line is checked for, whoever decided it ("" when none).

    Empty, error text, prompt echo (runs in `allowed` excepted), self-narration, with `wolf_public` a
    werewolf-side seat admitting its side, and a stammer.
    """
    if not text.strip():
        return "empty"
    if error_text(text):
        return "error text"
    if echoes(text, instructions, allowed=allowed):
        return "prompt echo"
    if narrates_self(text, own_name):
        return "self-narration"
    if wolf_public and reveals_wolf_side(text):
        return "self-reveal"
    if stammers(text):
        return "stammer"
    return ""


def _addressed(text: str, names: tuple[str, ...]) -> set[str]:
    """The seats `text` speaks to at the end of a sentence, after a comma ("..., Yarrow.")."""
    return {
        name
        for name in names
        if re.search(rf",\s*@?{re.escape(name)}\s*(?:[.!?]|$)", text, flags=re.IGNORECASE)
        or re.search(rf",\s*@?{re.escape(name.split()[0])}\s*(?:[.!?]|$)", text, flags=re.IGNORECASE)
    }


def check_phrasing(
    text: str,
    act: str,
    *,
    names: tuple[str, ...],
    seat: int,
    role: Role,
    instructions: str,
    limit: int = 0,
    public: bool = True,
    strict: bool = True,
) -> str:
    """Why `text` may not be spoken for the templated act `act` ("" when it may).

    Args:
        text: the model's phrasing, cleaned (`clean`).
        act: the act in template words (what the planner decided).
        names: the table's seat names.
        seat: the speaker's seat.
        role: the speaker's role (werewolves and the possessed must not reveal their side in public).
        instructions: every instruction the model was shown (the act itself excluded from echo).
        limit: the talk limit in spoken characters (0: none).
        public: public talk (False for werewolf whispers, where the pack may speak freely of itself).
        strict: also refuse names and role words the act lacks (False: the facts alone are checked).
    """
    if limit > 0 and spoken_length(text) > limit:
        return "too long"
    wolf_public = public and role in (Role.WEREWOLF, Role.POSSESSED) and not reveals_wolf_side(act)
    fault = voice_fault(text, names[seat], instructions, allowed=act, wolf_public=wolf_public)
    if fault:
        return fault
    if speaker_label(text, names) and not speaker_label(act, names):
        return "reads as a seat speaking"
    reader = reader_for(names)
    if set(reader.parse(text, seat)) != set(reader.parse(act, seat)):
        return "contradicts the act"
    if _QUOTES.search(text) and not _QUOTES.search(act):
        return "quotes"
    if CHANGED in act and not _CHANGE.search(text):
        # the table must hear that the earlier vote no longer holds, wherever in the turn the new vote comes
        # (after a claim, an answer: "For Pippin: I'm going to vote for Juniper today." from a seat that had said Quill)
        return "hides the changed vote"
    if "?" in act and not _ASKS.search(text):
        return "question not asked"  # "Ken who don't have strong suspicion." for "Ken who do you suspect?"
    opens = {name for name in names if act.lower().startswith(name.lower())}  # "{to} who do you suspect?"
    if _addressed(text, names) - _addressed(act, names) - opens:
        return "speaks to a player it speaks of"  # "I agree with Ember, Yarrow." for "... Ember about Yarrow."
    if not strict:
        return ""
    if article_before_name(text, names) and not article_before_name(act, names):
        return "garbled name"
    if names_in(text, names) != names_in(act, names):
        return "other names"
    if not role_words(text) <= role_words(act):
        return "other roles"
    return ""


def check_fresh(text: str, view: View, instructions: str) -> str:
    """Why an utterance a model wrote freely for `view`'s seat may not be spoken ("" when it may).

    The checks of `check_phrasing` that need no act: error text, prompt echo, self-narration, a
    werewolf or possessed admitting its side, a line opening as another seat's ("Yarrow: ...");
    and a village-side seat claiming a role it does not hold or announcing a result it has no
    power to have.
    """
    role = view.role
    wolf_side = role in (Role.WEREWOLF, Role.POSSESSED)
    fault = voice_fault(text, view.names[view.seat], instructions, wolf_public=wolf_side)
    if not fault and speaker_label(text, view.names):
        fault = "reads as a seat speaking"
    if fault or wolf_side:
        return fault
    for statement in parser_for(view.names).parse(text, view.seat):
        if statement.kind == "claim" and statement.role != role.value:
            return "false claim"
        if (statement.kind, role) in (("divined", Role.MEDIUM), ("identified", Role.SEER)) or (
            statement.kind in ("divined", "identified") and role not in (Role.SEER, Role.MEDIUM)
        ):
            return "false claim"
    return ""


__all__ = [
    "ECHO_NGRAM",
    "REASONS",
    "article_before_name",
    "check_fresh",
    "check_phrasing",
    "clean",
    "echoes",
    "error_text",
    "names_in",
    "narrates_self",
    "ngrams",
    "reveals_wolf_side",
    "role_words",
    "speaker_label",
    "stammers",
    "voice_fault",
    "words",
]
