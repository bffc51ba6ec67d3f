"""A reader of real Werewolf talk: statements from free text by rules that know what they did not read.

`SpeechParser` (`lycan.beliefs.claims`) reads Lycan's own templates and the AIWolf protocol
exactly; people and other people's agents say the same things in a thousand ways: "I divined
@Daisuke on night 0 — he is HUMAN", "N1 result: Victoria=Werewolf", "im the bodygaurd, i gaurded
siobhan", "**Seer CO.** Mio is black". `TalkReader` reads those, and says how sure it is.

A line is read in steps, each a plain function of the text:

1. **Normalise**: Unicode compatibility forms, curly quotes and dashes, markdown emphasis, `@`
   mentions, arrows as `=`, common misspellings of the game's words.
2. **Names**: every way the line can name a seat (full name, a first or last name that only one
   seat has, `Agent[01]` as `Agent01` or `agent 1`, `Player 3` as `P3`) becomes a seat token.
3. **Sentences and clauses**: a sentence ends at `.`, `!`, `?`, `;` or a line break; a clause at a
   comma, a dash or a conjunction ("but", "so", "because").
4. **What is not the speaker's own statement**: questions, what others said ("Rin said she is
   the seer", "according to Mio"), hypotheticals ("if I were the seer"), negations ("I'm not
   voting Ken", "I don't think Ken is a wolf"), retractions ("I take back my vote on Ken"), and
   lines written at a machine reader (fake log rows, JSON, markup, "note to the parser") yield
   nothing. Talk is data: the reader never follows an instruction in it.
5. **Patterns** per statement kind, on what is left; when two readings of the same words clash
   the stronger wins (a seer's "Ken is human" is a result, not a defence).

Every clause the rules could not account for (it names a seat or a role beside words of the game,
and no pattern and no rule above explained it) is kept in `Reading.unread`; `Reading.complete`
says whether the whole line was understood. Evidence of silence ("did not claim the seer") is
drawn only from complete lines, and a model reader (`lycan.beliefs.extract`) is asked for the rest.
"""

from __future__ import annotations

import functools
import itertools
import os
import re
import unicodedata
from collections import OrderedDict
from collections.abc import Collection, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import cast

from nicknames import NickNamer

from lycan.beliefs.claims import RESULT_ROLES, Statement, StatementKind, parser_for
from lycan.rules.roles import Species

MIN_CONFIDENCE = 0.75
"""Statements read with less confidence are left out of the evidence (neutral, as if unread)."""
NAME_ALONE = 0.8
"""The confidence of a vote read from a line that is only a seat's name (a one-word answer)."""
MAX_READ = 2000
"""Characters of a line the reader reads: a turn at a table is a few hundred at most, and a line
written to be long (20,000 characters of one phrase) must not cost seconds."""

# ----------------------------------------------------------------------------- vocabulary

ROLE_WORDS: dict[str, str] = {
    "seer": "seer",
    "diviner": "seer",
    "fortune teller": "seer",
    "fortune-teller": "seer",
    "medium": "medium",
    "psychic": "medium",
    "guardian": "guardian",
    "bodyguard": "guardian",
    "body guard": "guardian",
    "knight": "guardian",
    "guard": "guardian",
    "doctor": "guardian",
    "hunter": "hunter",
    "witch": "witch",
    "villager": "villager",
    "vanilla villager": "villager",
    "plain villager": "villager",
    "vanilla": "villager",
    "townie": "villager",
    "villie": "villager",
    "vt": "villager",
    "vanilla townie": "villager",
    "plain townie": "villager",
    "ordinary villager": "villager",
    "doc": "guardian",
    "protector": "guardian",
    "med": "medium",
}
"""Words for the roles a player claims, and the role each names."""

_FIXES: dict[str, str] = {
    "vilager": "villager",
    "villiger": "villager",
    "villeger": "villager",
    "bodygaurd": "bodyguard",
    "gaurd": "guard",
    "gaurded": "guarded",
    "gaurding": "guarding",
    "protecc": "protect",
    "protecced": "protected",
    "seeer": "seer",
    "sear": "seer",
    "meduim": "medium",
    "medim": "medium",
    "wolfe": "wolf",
    "wolfy": "wolf",
    "werwolf": "werewolf",
    "warewolf": "werewolf",
    "were-wolf": "werewolf",
    "humna": "human",
    "huamn": "human",
    "hooman": "human",
    "divind": "divined",
    "devined": "divined",
    "chekced": "checked",
    "cheked": "checked",
    "chcked": "checked",
    "vore": "vote",
    "ower": "over",
    "villageois": "villager",
    "ah'm": "i'm",
    "ah'll": "i'll",
    "ah've": "i've",
    "ah'd": "i'd",
    "wis": "was",
    "votin": "voting",
    "sussy": "sus",
    "lyin": "lying",
    "lieing": "lying",
    "obvioulsy": "obviously",
    "obviosly": "obviously",
    "defintly": "definitely",
    "definitly": "definitely",
    "checkd": "checked",
    "wolff": "wolf",
    "smels": "smells",
    "lik": "like",
    "realy": "really",
    "relly": "really",
    "lookin": "looking",
    "fakeing": "faking",
    "honstly": "honestly",
    "vot": "vote",
    "votig": "voting",
    "med": "medium",
    "vanila": "vanilla",
    "lynchin": "lynching",
    "gaurdian": "guardian",
    "guardain": "guardian",
    "gardian": "guardian",
    "lyng": "lying",
    "abt": "about",
    "bein": "being",
    "voteing": "voting",
    "votng": "voting",
    "goin": "going",
    "cleard": "cleared",
    "protcted": "protected",
    "proteced": "protected",
    "trsut": "trust",
    "votign": "voting",
    "faek": "fake",
    "wiat": "wait",
    "abuot": "about",
    "protectd": "protected",
    "defnitely": "definitely",
    "definately": "definitely",
    "deffo": "definitely",
    "defo": "definitely",
    "fkaing": "faking",
    "teh": "the",
    "vilage": "village",
    "defintely": "definitely",
    "chek": "check",
    "humn": "human",
    "grd": "guard",
    "beleive": "believe",
    "belive": "believe",
    "nite": "night",
    "tonite": "tonight",
    "hum": "human",
    "hmn": "human",
    "ww": "werewolf",
    "wolv": "wolf",
    "susp": "suspect",
    "exec'd": "executed",
    "execd": "executed",
    "lynched": "lynched",
    "u": "you",
    "ur": "your",
    "r": "are",
    "im": "i'm",
    "iam": "i am",
    "ive": "i've",
    "ill": "i'll",
    "dont": "don't",
    "doesnt": "doesn't",
    "isnt": "isn't",
    "wasnt": "wasn't",
    "cant": "can't",
    "wont": "won't",
    "lets": "let's",
    "thats": "that's",
    "hes": "he's",
    "shes": "she's",
    "theyre": "they're",
    "youre": "you're",
}
"""Misspellings and dropped apostrophes, fixed word by word before reading."""

_HUMAN_WORDS = (
    r"human|white|innocent|clean|villager|village|town|good|green|not (?:a |the )?(?:were)?wolf|not evil|cleared"
)
_WOLF_WORDS = r"werewolf|wolf|black|evil|red|a wolf|a werewolf"
_NOT_WOLF = re.compile(r"\bnot (?:a |the )?(?:were)?wolf\b|\bnot evil\b")
"""The human results that are said with a negation (`_HUMAN_WORDS`)."""
_SPECIES = rf"(?P<sp>{_HUMAN_WORDS}|{_WOLF_WORDS})"

_ROLE = "(?P<role>" + "|".join(sorted((re.escape(w) for w in ROLE_WORDS), key=len, reverse=True)) + ")"
_ROLE_ANY = re.compile(rf"\b{_ROLE}\b")
"""Any role word (`findall` gives the words)."""
_WHO = r"⟨(?P<t>\d+)⟩"
_WHO2 = r"⟨(?P<t2>\d+)⟩"

_NEGATION = re.compile(
    r"\b(?:not|n't|never|no longer|nobody|no one|hardly|neither|nor|won't|cannot|can't|no reason|no need|"
    r"no (?:think|believe|trust|vote|suspect)|stop(?=\s+\w+ing)|quit(?=\s+\w+ing))\b|n't\b|\bno\s+(?:dey\s+|be\s+)?$|\b(?:stop|quit)\s+$"
)
_IF = (
    r"if(?!\s+(?:you\s+ask\s+me|it\s+(?:please|pleases)\s|i\s+may\b|you\s+will\b|you\s+please\b|i(?:'m|\s+am)\s+(?:being\s+)?honest\b|any(?:one|body)\s+(?:cares|asks|wonders|is\s+asking|'s\s+asking)|"
    r"you\s+(?:must\s+know|want\s+to\s+know|were\s+wondering)|you're\s+wondering)\b)"
)
"""'if' as a condition, not as a marker ("if you ask me", "if anyone cares", "if you must know")."""
_HYPOTHETICAL = re.compile(
    rf"\b(?:{_IF}|"
    r"unless(?!\s+(?:someone|somebody|anyone|something|you)\s+(?:changes?|convinces?)\s+(?:my mind|me)\b)|suppose|supposing|assuming|assume|imagine|hypothetically|would(?!\s+like\s+to\b)|wouldn't|'d have|were i|"
    r"in case|what if|whether|maybe if|could have|should have|might have|pretend(?:ing)? to|let(?:'s|\s+us)\s+say|maybe\s+i(?:'ll|\s+will|\s+should|\s+vote)|(?:talk|explain|answer|speak|respond)\w*\s+or)\b"
    r"|^\s*(?:were|had|should)\s+⟨\d+⟩"  # "Were Catriona lying, ..."
)
_REPORTED = re.compile(
    r"(?:⟨\d+⟩|\b(?:he|she|they|someone|somebody|people|everyone|others?))(?:'s)?\s+(?:(?!i\b|i'm\b|we\b)\w+\s+){0,2}?"
    r"(?:said|says|say|claims|claimed|told|tells|thinks|think|believes|reported|reports|mentioned|wrote|"
    r"announced|insists|insisted|swears|swore|suggested|suggests|accused|called|stated|states|wants|wanted|"
    r"saying|whispered|whispers|whispering|hinted|hints|"
    r"voted|votes|agrees|agreed|asked|asks)\b"
    r"|\baccording to (?:⟨\d+⟩|him|her|them)\b|\b(?:she|he|they) said\b"
)
_REASONING = r"(?:read|reads|take|logic|point|points|reasoning|analysis|theory|case|argument|idea|plan|math)\b"
"""Words for a seat's reasoning: "Ken's read" is what Ken thinks, not Ken."""
_RETRACTION = re.compile(
    r"\b(?:take back|taking back|took back|take .{0,20} back|retract\w*|withdraw\w*|undo|cancel\w*|scratch|"
    r"pulling (?:that|it|my \w+) back|pull(?:ing)? (?:my|that) \w+ (?:off|back)|taking my \w+ off|"
    r"changed my mind|change my vote|forget what i said|was going to|earlier i said|i said i'd|"
    r"no longer|anymore|instead of|was wrong|misread|nvm|never ?mind)\b"
)
_CORRECTION = re.compile(
    r"\b(?:wait|actually\s*,?\s*no|no\s*,?\s*wait|scratch that|make (?:it|that)|i mean|changed my mind|"
    r"change my mind|correction|nvm|never ?mind|forget (?:it|that))\b"
)
"""Words by which a line corrects what it said before ("Ken. No wait, Ann")."""
_CORRECTED_VOTE = re.compile(
    r"\b(?:i(?:'m| am| will|'ll)?\s+)?(?:vot\w*|lynch\w*|go(?:ing)? with|hammer\w*)\b[^.!?⟨]{0,20}⟨(?P<old>\d+)⟩[^.!?⟨]{0,20}?"
    r"(?=\s*(?:[.!?]+|\.\.\.|[,;:—–-])\s*(?:\.\.\.)?\s*(?:(?:ok|okay|hm+|uh+|um+|oh|fine)\s*,?\s*)*"
    r"(?:no\s*,?\s*wait|wait\s*,?\s*no|actually\s*,?\s*no\b(?!\s+(?:one|body|need|doubt))|"
    r"(?:no|nah|nope)\s*,?\s*(?:sorry|actually|forget|scratch|hold on|i mean\s+⟨|i change)|"
    r"scratch that|forget (?:it|that)|never ?mind|nvm|hm+\s*,?\s*no\b|make (?:that|it)\s+⟨|correction\b|i mean\s+⟨)"
    r"(?:[^⟨]|⟨(?P=old)⟩){0,60}?(?:\b(?:vot\w*|lynch\w*|go(?:ing)? with|hammer\w*|mean|make (?:that|it)|it's|it is)\s+"
    r"|[:.!—–-]\s*|,\s*(?=⟨\d+⟩\s*(?:instead\s*)?(?:[.!]|$)))⟨(?!(?P=old)⟩)\d+⟩)"
)
"""A vote the speaker takes back at once for another seat ("I vote Ken. No wait, scratch that: Ann"): the
first vote is dropped, and what the correction says is read as usual."""


_GUESSED = re.compile(
    r"\b(?:imo|imho|i think|i believe|i feel|i reckon|i guess|i suspect|i bet|my gut|gut says|seems?|looks? like|"
    r"probably|maybe|perhaps|likely|must be|might be|could be|feels? like|smells? like|vibes?)\b"
)
"""Words that make a sentence a guess, not a result ("Rin = wolf imo", "Ken seems human to me")."""


def _not_own(text: str) -> bool:
    """Whether `text` supposes, reports someone else's words, or takes something back."""
    return bool(_HYPOTHETICAL.search(text) or _REPORTED.search(text) or _RETRACTION.search(text))


_PART_END = re.compile(r";|:|\s[-–—]\s|—|\s+(?:but|so|while|whereas|though|although|yet)\s+")
"""Where a part of a sentence ends ("Ken's word is good as gold; 'tis Ann who lies": two parts)."""


def _part_start(sentence: str, end: int) -> int:
    """Where the part of `sentence` that runs up to `end` begins (after the last `_PART_END` before it)."""
    return max((m.end() for m in _PART_END.finditer(sentence, 0, end)), default=0)


_SEAT_LIST = re.compile(r"⟨\d+⟩(?:\s*,\s*⟨\d+⟩)*\s*,?\s*(?:and|&)\s+⟨\d+⟩")
_CLAIM_WORDS = re.compile(
    r"\b(?:claim|claims|claimed|claiming|claimants?|candidates|came forward|come forward|stepped up|say they are|"
    r"counter-?claim\w*|co)\b"
)
_VIEW_WORDS = re.compile(
    r"\b(?:i|i'm|im|myself|wolf|wolves|werewolf|werewolves|wolfy|lying|liars?|lie|lies|lied|fake\w*|false|bluff\w*|"
    r"trust\w*|believe\w*|real|true|truth|honest\w*|genuine|sus\w*|doubt\w*|vote\w*|lynch\w*|execut\w*|"
    r"suspect\w*|because|since|but|not|n't|no|only|late|first|second|after|before|one of them|neither|either)\b"
)


def _summary(sentence: str) -> bool:
    """Whether `sentence` only sums up who claims a role ("So far Ken and Ann claim seer.").

    Two or more seats named in a list and no other seat, a word of claiming and a role's word, and
    no word of a view of them ("Ken and Ann claim seer but Ann is lying" is not a summary): it says
    nothing of either seat.
    """
    listed = _SEAT_LIST.search(sentence)
    return bool(
        listed
        and set(re.findall(r"⟨\d+⟩", sentence)) <= set(re.findall(r"⟨\d+⟩", listed.group(0)))
        and _CLAIM_WORDS.search(sentence)
        and _ROLE_ANY.search(sentence)
        and not _VIEW_WORDS.search(sentence)
    )


def _plain_sentences_naming(seat: int, sentences: Sequence[str]) -> list[str]:
    """The sentences naming `seat` in which the speaker plainly speaks of it.

    Not a question, a supposition, someone else's words or a retraction; not a seat first named in
    a reason ("... because Ken voted Ann"), nor in a clause about what another does ("The wolves
    vote Ken every day", "Ann votes Ken").
    """
    token = f"⟨{seat}⟩"
    return [
        sentence
        for sentence in sentences
        if token in sentence
        and not sentence.rstrip().endswith("?")
        and not _not_own(sentence)
        and not _CITED_REASON.search(sentence[_part_start(sentence, sentence.find(token)) : sentence.find(token)])
        and not re.search(re.escape(token) + _AGREED_WITH, sentence)
        and not any(
            token in sentence[a:b]
            and _OTHERS_DO.match(sentence[a:b])
            and not re.sub(r"^\s*(?:(?:and|but|so)\s+)?", "", sentence[a:b]).startswith(token)
            for a, b in _clauses(sentence)
        )
    ]


def _questions_naming(seat: int, sentences: Sequence[str]) -> list[str]:
    """The questions naming `seat` that may make a point about it: not only handing it the word, not someone else's words."""
    token = f"⟨{seat}⟩"
    return [
        sentence
        for sentence in sentences
        if token in sentence
        and sentence.rstrip().endswith("?")
        and not _vocative(seat).match(sentence)
        and not _not_own(re.sub(r"\bwould(?:n't)?\b", "", sentence))  # "Why would Ken ...?" asks, supposes nothing
        and not _CITED_REASON.search(sentence[_part_start(sentence, sentence.find(token)) : sentence.find(token)])
    ]


_ASKED_KINDS = ("accuses", "defends")
"""What a question may state of a seat it names, where the learned reader says so: never a vote or a liar call."""


_AGREED_WITH = (
    r"(?:'s)?\s+(?:(?:is|was|could be|might be|may be|seems)\s+)?(?:onto something|on to something|right|on the money|"
    r"spot on|on point)\b|\s+(?:has|had|made|makes|raises|raised)\s+(?:a\s+)?(?:good\s+|fair\s+|solid\s+|strong\s+|"
    r"valid\s+)?point\b|\s+(?:said it well|sees it clearly|saw it clearly|nailed it|put it well|called it)\b"
    r"|\s+(?:has|had|'s)\s+(?:got\s+)?it\s+right\b|\s+(?:has|had|'s got)\s+a\s+(?:good|fair|solid|strong)\s+read\b"
    r"|\s+(?:is|was|'s)\s+on\s+the\s+right\s+track\b"
)
"""What follows a seat the speaker agrees with ("Ken is onto something about Ann"): a nod to their point, not a read of them."""
_CITED_REASON = re.compile(r"\b(?:because|since|cause|'cause|as|after|when|given|considering)\b")
"""A reason's start: a seat named after it is cited as evidence, not given an opinion of."""
_OTHERS_DO = re.compile(
    r"\s*(?:(?:and|but|so)\s+)?(?:the\s+(?:wolves|wolf|village|others|rest|seer|medium|guardian)|they|he|she|someone|"
    r"somebody|everyone|everybody|people|nobody|wolves|⟨\d+⟩)(?:'s)?\s"
)
"""A clause whose subject is someone other than the speaker (what it says is theirs, not the speaker's read)."""
_WOLFISH = re.compile(r"\b(?:were)?wol(?:f|ves|fy)\b|\b(?:scum\w*|evil|sus\w*|shady|sketchy|fishy|black)\b")
"""Words that call a seat a werewolf (a liar call that has none is not also an accusation)."""
_INJECTION = re.compile(
    r"\b(?:ignore|override|system|assistant|parser|parse|extract\w*|log reader|the log|logs?|summari[sz]er|"
    r"bots?|ai|output|label|records|moderator|narrator|game ?master|gm|update your|instruction\w*|"
    r"prompt|json|tool|note to|fabricated)\b"
)
_QUESTION_START = re.compile(
    r"^\s*(?:⟨\d+⟩\s*,?\s*)?(?:who|whom|whose|what|why|how|when|where|which|is|are|am|was|were|do|does|did|"
    r"can|could|would|should|will|have|has|had|any(?:one|body)?)\b"
)
_UPTALK = re.compile(
    r"\b(?:i think|i feel|i'm (?:super |kinda |so |really |pretty )?(?:suspicious|sure)|i reckon|i guess|"
    r"kinda|ngl|idk|like,|honestly|totally|so obviously|might be|sus|vibes?)\b"
)
"""Hedges and opinion words that make a sentence with a closing `?` a statement said with a rising tone."""


def _uptalk(sentence: str) -> bool:
    """A statement said like a question ("I think Esperanza might be a wolf?", "dohyun kinda sus??").

    It does not open as a question does and it holds a hedge or an opinion word (`_UPTALK`).
    """
    return not _QUESTION_START.match(sentence) and bool(_UPTALK.search(sentence))


_GAME_WORDS = re.compile(
    r"\b(?:seer|medium|guard\w*|bodyguard|knight|hunter|witch|villager|werewolf|wolf|wolves|human|white|black|"
    r"vot\w*|lynch\w*|execut\w*|suspect\w*|sus|trust\w*|lying|liar|lie|fake|divin\w*|check\w*|protect\w*|"
    r"result|clear\w*|innocent|evil|claim\w*|co|hang|exile|impostor|imposter|pretend\w*)\b"
)
_SEER_CONTEXT = re.compile(
    r"\b(?:divin\w*|check\w*|inspect\w*|investigat\w*|vision|saw|seen|looked|look|scan\w*|peek\w*|tested|"
    r"result|results|n\d|night \d)\b"
)
_MEDIUM_CONTEXT = re.compile(
    r"\b(?:executed|lynched|hanged|hung|voted out|exiled|eliminated|reading|spirit|"
    r"we (?:killed|hanged|lynched|executed|voted)|the dead (?:spoke|speak|whispered|told|said)|"
    r"(?:grave|churchyard|graveyard|ghost|shade)\s+(?:spoke|speaks|whispered|told|said))\b"
)

_GATES: dict[str, re.Pattern[str]] = {
    "result": re.compile(r"human|white|innocent|clean|villag|town|good|green|clear|wolf|black|evil|red"),
    "context_result": re.compile(
        r"human|white|innocent|clean|villag|town|good|green|clear|wolf|black|evil|red|\b[hw]{1,2}\b"
    ),
    "guarded": re.compile(r"prot|guard|shield|cover|defend|save|kept|\bsat\b|stayed|last night|stood|watch|vigil|door"),
    "liar": re.compile(_ROLE + r"|fake|impost|lie|liar|lying|pretend|fraud|bogus|bluff|made up|invent|false|bs"),
    "attack": re.compile(r"attack|kill|eat|bite"),
}
"""Words without which no pattern of a kind can match (a cheap test that spares reading the rest)."""

_PRIORITY: dict[str, int] = {
    "claim": 5,
    "divined": 4,
    "identified": 4,
    "liar": 3,
    "guarded": 3,
    "will_vote": 2,
    "accuses": 1,
    "defends": 1,
    "attack": 2,
    "fake_plan": 2,
}
"""When two readings overlap in the words of a clause, the higher wins (a result over a defence)."""


@dataclass(frozen=True, slots=True)
class ReadStatement:
    """One statement the reader found, with how sure it is and the clause it came from."""

    statement: Statement
    confidence: float
    clause: str


@dataclass(frozen=True, slots=True)
class Reading:
    """What the reader made of one line.

    Attributes:
        found: the speaker's own statements, in order, each with a confidence in (0, 1].
        unread: clauses that may hold a statement the rules did not account for.
        doubts_claims: whether an unread clause mentions a role or a result (so the line's silence
            about claims proves nothing).
    """

    found: tuple[ReadStatement, ...] = ()
    unread: tuple[str, ...] = ()
    doubts_claims: bool = False

    @property
    def statements(self) -> tuple[Statement, ...]:
        """The statements alone."""
        return tuple(r.statement for r in self.found)

    @property
    def complete(self) -> bool:
        """Whether every clause of the line was accounted for."""
        return not self.unread

    def __iter__(self) -> Iterator[Statement]:
        return iter(self.statements)

    def __len__(self) -> int:
        return len(self.found)


@dataclass
class _Match:
    kind: StatementKind
    target: int | None
    role: str
    species: Species | None
    start: int
    end: int
    confidence: float


# ----------------------------------------------------------------------------- normalising


def normalise(text: str) -> str:
    """`text` in one plain form: compatibility characters, straight quotes, no markdown, arrows as `=`."""
    s = unicodedata.normalize("NFKC", text)
    s = s.translate(
        {
            0x2018: "'",
            0x2019: "'",
            0x201B: "'",
            0x2032: "'",
            0x201C: '"',
            0x201D: '"',
            0x201E: '"',
            0x2013: " - ",
            0x2014: " - ",
            0x2015: " - ",
            0x2192: " = ",
            0x2794: " = ",  # the arrows of bullet lists: "N1: Ken ➜ human"
            0x2799: " = ",
            0x279C: " = ",
            0x279D: " = ",
            0x279E: " = ",
            0x27A1: " = ",
            0x21E8: " = ",
            0x2B95: " = ",
            0xFE0F: None,  # the emoji presentation selector
            0x1F5F3: " vote: ",  # the ballot box: "🗳️ Mika"
            0x21D2: " = ",
            0x27F6: " = ",
            0xFF1A: ":",
            0x25CF: " : ",  # "N1 Zoltan ●wolf ○human": the marks of a result
            0x25CB: " : ",
            0x25EF: " : ",
            0x26AB: " : ",
            0x26AA: " : ",
        }
    )
    s = re.sub(r"\s*(?:->|=>|-->)\s*", " = ", s)
    s = re.sub(r"\s*\U0001f43a+\s*", " wolf ", s)  # the wolf emoji is the word
    s = re.sub(r"\U0001f914+\s*(?=wolf\b)", " ", s)  # "rafa 🤔🐺": a hedge, still a read
    # "hugo 🤡", "dima 🤥": a lying face or a clown after a name reads it (not "calling Luca a 🤡", "such a 🤡")
    s = re.sub(
        r"(\w+)[ \t]*[\U0001f925\U0001f921]+",
        lambda m: m.group(1) if m.group(1).lower() in _NOT_A_NAME else f"{m.group(1)} sus",
        s,
    )
    s = re.sub(r"\s*\bno\s+cap\b", "", s, flags=re.IGNORECASE)  # "no cap": slang for "truly", no negation
    # a speaker's fillers ("viktor's uh a wolf", "i looked at um callum") say nothing
    s = re.sub(r"(?<![\w'])(?:u+h+|u+m+|e+r+m+|uhm+)(?![\w'])\s*,?", "", s, flags=re.IGNORECASE)
    s = re.sub(r"(?m)^[ \t]*=[ \t]*", "", s)  # an arrow that opens a line is its bullet ("➡️ N1: Rory = human")
    # a picture that opens or ends a line is a bullet or a mark ("🔮 seer claim", "👤 villager"); within it, it parts words
    s = re.sub(r"([-:=])[ \t]*[\U0001f000-\U0001faff\u2600-\u27bf]+[ \t]*", r"\1 ", s)  # "Rory - 🧍 human"
    s = re.sub(
        r"(?m)^[ \t•·*-]*[\U0001f000-\U0001faff\u2600-\u27bf]+[ \t]*|[ \t]*[\U0001f000-\U0001faff\u2600-\u27bf]+[ \t]*$",
        "",
        s,
    )
    s = re.sub(r"\b(wolf)\s+wolf\b", r"\1", s, flags=re.IGNORECASE)
    s = re.sub(r"(\*\*|__|~~|`+)", "", s)
    s = re.sub(r"(?<![\w*])\*(?=\S)|(?<=\S)\*(?![\w*])", "", s)
    s = re.sub(r"(?<![\w])_(?=\S)|(?<=\S)_(?![\w])", "", s)
    s = re.sub(r"^\s*#+\s*", "", s, flags=re.MULTILINE)
    s = re.sub(r"[ \t]+", " ", s)
    letters = [c for c in s if c.isalpha()]
    if len(letters) >= 8 and sum(c.isupper() for c in letters) >= 0.85 * len(letters):
        s = re.sub(r"[^\W\d_]{2,}", lambda m: m.group(0).capitalize(), s)  # a shouted line: "OBI IS A WOLF" names Obi
    return s.strip()


def _said_not_asked(m: re.Match[str]) -> str:
    """A tag question ("I'm the seer, ok?") ends a statement; after a question ("Did you vote Ann, yeah?") it stays one."""
    start = max(m.string.rfind(c, 0, m.start()) for c in ".!?\n") + 1
    return m.group(0) if _QUESTION_START.match(m.string[start : m.start()]) else "."


def _fix_words(s: str) -> str:
    """Misspellings and dropped g's written back, and double negatives made plain (`_double_negatives`)."""
    return _double_negatives(re.sub(r"[a-z][a-z'-]*", lambda m: _FIXES.get(m.group(0)) or _g_dropped(m.group(0)), s))


_NOT_NOT = {
    "don't": "do", "doesn't": "does", "didn't": "did", "won't": "will", "can't": "can", "cannot": "can",
    "isn't": "is", "aren't": "are", "wasn't": "was", "weren't": "were", "couldn't": "could",
    "wouldn't": "would", "shouldn't": "should", "not": "",
}  # fmt: skip


def _double_negatives(s: str) -> str:
    """Two negations that cancel, said plainly.

    "I'm not not voting Ken" as "I'm voting Ken", "I don't not believe her" as "I do believe her",
    "it's not unlikely" as "it's likely".
    """
    s = re.sub(
        r"\b(" + "|".join(map(re.escape, _NOT_NOT)) + r")\s+not\b(?!\s+only\b)",
        lambda m: _NOT_NOT[m.group(1)],
        s,
    )
    return re.sub(r"\bnot\s+(?:un(likely|true)|im(possible))\b", lambda m: m.group(1) or m.group(2), s)


def _g_dropped(word: str) -> str:
    """A word with its g dropped, written back ("votin'" voting, "gettin'" getting); other words as they are."""
    return word[:-1] + "g" if len(word) >= 6 and word.endswith("in'") else word


# ----------------------------------------------------------------------------- names

_LETTERS = str.maketrans({"ð": "d", "Ð": "D", "þ": "th", "Þ": "Th", "æ": "ae", "Æ": "Ae", "ø": "o", "Ø": "O",
                          "ł": "l", "Ł": "L", "đ": "d", "Đ": "D", "ß": "ss", "ı": "i", "œ": "oe", "Œ": "Oe"})  # fmt: skip


def fold(text: str) -> str:
    """`text` without diacritics ("Guðrún" and "Gudrun", "Sólveig" and "Solveig" read alike)."""
    decomposed = unicodedata.normalize("NFKD", text.translate(_LETTERS))
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def _aliases(names: Sequence[str]) -> dict[str, int]:
    """Every unambiguous way to name each seat, lower-cased, mapped to the seat."""
    counts: dict[str, set[int]] = {}

    def add(alias: str, seat: int) -> None:
        alias = fold(alias).strip().lower()
        if len(alias) >= 2:
            counts.setdefault(alias, set()).add(seat)

    not_names = _NOT_NAMES | _READER_WORDS | _WORD_NICKNAMES
    for seat, name in enumerate(names):
        add(name, seat)
        parts = name.split()
        if len(parts) > 1:
            for part in parts:
                if len(part) >= 3:
                    add(part, seat)
        for i, part in enumerate(parts):  # "dohyun" and "do hyun" for Do-hyun, as people type it
            pieces = [x for x in re.split(r"[-\u2010\u2011]", part) if x]
            if len(pieces) > 1 and len("".join(pieces)) >= 4:
                add("".join(pieces), seat)
                add(" ".join(pieces), seat)
                first = fold(pieces[0]).lower()  # "Emma" for Emma-Louise (not "Ji" for Ji-ho)
                if i == 0 and len(first) >= 4 and first not in not_names:
                    add(first, seat)
        m = re.fullmatch(r"\s*([A-Za-z]+)\s*\[\s*0*(\d+)\s*\]\s*", name)  # Agent[01]
        if m:
            word, number = m.group(1), int(m.group(2))
            for form in (f"{word}{number:02d}", f"{word}{number}", f"{word} {number}", f"{word}_{number}"):
                add(form, seat)
        m = re.fullmatch(r"\s*(player|seat|p)\s*(\d+)\s*", name, re.IGNORECASE)  # Player 3
        if m:
            number = int(m.group(2))
            for form in (f"player {number}", f"player{number}", f"p{number}", f"seat {number}"):
                add(form, seat)
    for seat, name in enumerate(names):  # "Nate" for Nathaniel, "Liz" for Elizabeth
        for part in name.split():
            for nick in _nicknames(fold(part).lower()):
                if len(nick) >= 4 and nick not in not_names:
                    add(nick, seat)
    full = {fold(name).strip().lower(): seat for seat, name in enumerate(names)}
    return {alias: next(iter(seats)) for alias, seats in counts.items() if len(seats) == 1 or alias in full} | full


_WORD_NICKNAMES = frozenset(
    """will bill frank rich sandy dick rose hope faith grace penny candy honey sunny rusty buck chuck duke
    jack jock patty ginger sonny dolly holly molly belle bella mandy randy cliff gene chip mick""".split()  # noqa: SIM905
)
"""Nicknames that are also words a player says ("will", "frank"): never taken for a name."""


@functools.cache
def _nicknames(given: str) -> frozenset[str]:
    """The English nicknames of a given name (the `nicknames` dataset) that look like it.

    A nickname counts when it shares two letters in a row with the name ("Nate" and Nathaniel, "Liz"
    and Elizabeth, "Paddy" and Patrick): the dataset also links names that only share a history
    ("Peter" and Patrick, "Rupert" and Robert), and those read as another person.
    """
    if len(given) < 4 or not given.isalpha():
        return frozenset()
    found = _nick_namer().nicknames_of(given)
    return frozenset(n for n in found if n.isalpha() and len(n) < len(given) and (n[:2] in given or n[1:3] in given))


@functools.cache
def _nick_namer() -> NickNamer:
    """The nickname table, loaded once per process."""
    return NickNamer()


_NOT_NAMES = frozenset(
    """about above after again against also always anyone anything around because been before being
    below between both cannot could day days does doing done down during each either else even ever
    every everyone first from good great have having here hers herself himself honestly however
    into just last later like look maybe more most much must never night nobody none nothing often
    once only other ours over please really right same seer should since some still such sure than
    thank thanks that their them then there these they this those though through today together
    tomorrow too under until upon very vote voted votes voting wait want were what when where which
    while who whom whose will with without wolf wolves would yeah yes yesterday your yours medium
    guard guardian hunter witch villager village werewolf human lynch claim claims check checked
    result okay sorry morning evening hello maybe anyway also""".split()  # noqa: SIM905 (a word list reads best as words)
)
"""Words a short form of a name must not be (a capitalised word at a sentence's start is often one)."""


def _name_parts(names: Sequence[str]) -> list[tuple[str, int]]:
    """(part, seat) for every part of 5+ letters of each name, folded and lower-cased."""
    return [
        (part, seat)
        for seat, name in enumerate(names)
        for part in re.split(r"[\s\[\]_-]+", fold(name).lower())
        if len(part) >= 5 and part.isalpha()
    ]


def _one_edit(a: str, b: str) -> bool:
    """Whether `a` and `b` differ by exactly one letter added, dropped, changed or two swapped."""
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        diff = [i for i in range(len(a)) if a[i] != b[i]]
        return len(diff) == 1 or (
            len(diff) == 2 and diff[1] == diff[0] + 1 and a[diff[0]] == b[diff[1]] and a[diff[1]] == b[diff[0]]
        )
    short, long = (a, b) if len(a) < len(b) else (b, a)
    i = next((k for k in range(len(short)) if short[k] != long[k]), len(short))
    return short[i:] == long[i + 1 :]


_WORDS3 = frozenset(
    """the and but not yes are was can its let did has had how who why all any our out now off too two she her
    his him you may man day one new old see saw say get got put set for nor yet use way far few big bad own per
    try ask lie lied sus bet ago due end act add age aim air art bag bed bit box boy buy car cut dog ear eat egg
    eye fan fat fit fix fly fun gap gas god gun guy hat hit hot ice ill job joy key kid lay led leg lot low mad
    map mix mom mum net nod oil pay pen pet pie pin pop pot raw red rid row run sad sat sea sex sit six sky son
    sum sun tax tea ten tie tip top toy van war wet win won yep yup nah lol omg wtf btw imo fyi idk tbh ugh hmm
    hey wow aye ayy nay okk sir mrs dad bro sis fam pal mod dev bot vet vot vil med sea kin ton tom dan ana rob
    bob pat mel val art ray jay kay may def ima gut tho hes yea ofc pls cuz wan gon abt sho nvm tbf ngl""".split()  # noqa: SIM905
)
"""Three-letter words too common to take for the start of a name ("Mel" is a name, but also a word here)."""


_READER_WORDS = frozenset(
    """black white green human clean clear innocent trust trusted trusting truth honest believe protect protected
    guard guarded guarding shield lying liars fake faking fakes check checked checks vision voting lynch
    lynching hammer wagon suspect suspicious scummy townie villager village confirmed result results smells
    reads looks think pretty really again today first never maybe evil werewolf wolves defend defended
    defending innocent cleared seers mediums hunter witch claim claimed claiming""".split()  # noqa: SIM905
)
"""Words the reader reads for what they say: never taken for the start of a name ("black" with Blackwell)."""

_SLOT_BEFORE = r"vote|voting|votes|voted|v|lynch|lynching|hang|trust|believe|cleared|checked|with|hi|hey|ty|thx|thanks|sorry|imo|ngl|tbh"
"""Words after which a short lower-case word is read as a seat's name ("voting woj", "i trust ros")."""
_SLOT_AFTER = (
    r"is|was|has|had|'s|isn't|wasn't|voted|votes|vote|checked|checks|cleared|clears|claimed|claims|pushing|pushed|"
    r"going|keeps|kept|said|says|too|ur|cleared"
)
"""Words before which one is ("marg is my wolf read", "gid vote", "svet voted kalani")."""

_NOT_SHORT_NAMES = (
    frozenset(
        """this that then than them they what when were will with your have been much more most some same also just
    like only over very even ever back good well real sure true fake wolf vote seer dead last next time game talk
    said says made make take went gone done here there mark dark hard king rose love fair hall wood mill lock nick
    rich gill bell stan dim rad bra max don con pro mid low high both each else once none nope yeah okay fine
    kind sort lots bit lot all any who how why she her his him its our out day one two new old san kun chan sama
    nim ssi""".split()  # noqa: SIM905
    )
    | _WORDS3
    | _NOT_NAMES
    | _READER_WORDS
    | _WORD_NICKNAMES
    | frozenset(_FIXES)
)
"""Short words never read as a seat's name in lower case, even where a name would go."""


def _short_forms(names: Sequence[str], aliases: dict[str, int]) -> dict[str, int]:
    """Short forms of names one seat alone has: a prefix or suffix of 4+ letters of a part of its name.

    A three-letter prefix ("Kip" for Kiprono) counts too, unless it is a common word (`_WORDS3`);
    like every short form it is read only capitalised or after `@`.
    """
    found: dict[str, set[int]] = {}
    for seat, name in enumerate(names):
        for part in re.split(r"[\s\[\]_-]+", fold(name).lower()):
            if len(part) < 5 or not part.isalpha():
                continue
            if part[:3] not in _WORDS3:
                found.setdefault(part[:3], set()).add(seat)
            for n in range(4, len(part)):
                found.setdefault(part[:n], set()).add(seat)
                found.setdefault(part[-n:], set()).add(seat)
            for nick in _nicknames(part):  # "Liz" for Elizabeth, "Pat" for Patrick
                if len(nick) == 3 and nick not in _WORDS3:
                    found.setdefault(nick, set()).add(seat)
    return {form: next(iter(seats)) for form, seats in found.items() if len(seats) == 1 and form not in aliases}


# ----------------------------------------------------------------------------- the reader


class TalkReader:
    """Reads the speaker's own statements out of free Werewolf talk at one table (cached per line).

    Args:
        names: the table's seat names.
        cache: lines kept read (a game's lines are read once).
        learned: ask the learned readers (`lycan.beliefs.opinions`) what the rules left: opinions of
            seats named in clauses they did not read, a claim in a line they read none in, results
            and protections from a claimant of the role (False: the rules alone).
    """

    def __init__(self, names: Sequence[str], *, cache: int = 4096, learned: bool = True) -> None:
        self.names = tuple(names)
        self.learned = learned
        aliases = _aliases(self.names)
        alts = "|".join(re.escape(a) for a in sorted(aliases, key=len, reverse=True))
        self._aliases = aliases
        self._short = _short_forms(self.names, aliases)
        self._parts = _name_parts(self.names)
        self._name_re = re.compile(rf"@?(?<![\w])(?:{alts})(?![\w\]])(?:'s\b)?", re.IGNORECASE) if alts else None
        self._cache: OrderedDict[tuple[str, int | None, str, str], Reading] = OrderedDict()
        self._said: dict[tuple[str, int | None], tuple[str, ...]] = {}
        self._tokened: dict[str, tuple[str, list[int]]] = {}
        self._size = cache
        self._patterns = _patterns()

    # ------------------------------------------------------------------ entry points
    def __call__(self, text: str, speaker: int) -> Reading:
        """`read` (a reader is a function of the line and its speaker)."""
        return self.read(text, speaker)

    def parse(self, text: str, speaker: int | None = None, claimed: str = "") -> tuple[Statement, ...]:
        """The statements alone (the `SpeechParser.parse` signature)."""
        return self.read(text, speaker, claimed).statements

    def read(self, text: str, speaker: int | None = None, claimed: str = "") -> Reading:
        """What `speaker` plainly says in `text`: statements with confidences, and what was not understood.

        `claimed`: the role the speaker claimed earlier at the table ("" if none or not known). A
        line that claims nothing itself is read in its light: "Olga was human" from a medium
        claimant is a medium's result, from a seer claimant a divination, from a villager an opinion.
        """
        # the learned reader in use is part of the key: a process that switches `LYCAN_TALK_MODEL` (a benchmark,
        # a test) reads its lines again instead of getting another model's reading of them
        key = (text, speaker, claimed, _learned_reader() if self.learned else "")
        hit = self._cache.get(key)
        if hit is not None:
            self._cache.move_to_end(key)
            return hit
        reading = self._read(text[:MAX_READ], speaker, claimed)
        self._cache[key] = reading
        if len(self._cache) > self._size:
            self._cache.popitem(last=False)
        return reading

    def role_sentences(self, text: str, speaker: int | None = None) -> list[str]:
        """`sentences`, with each word for a role as `⟦role⟧` ("bodyguard" as `⟦guardian⟧`)."""
        return [_ROLE_ANY.sub(lambda m: f"⟦{ROLE_WORDS[m.group('role')]}⟧", x) for x in self.sentences(text, speaker)]

    def sentences(self, text: str, speaker: int | None = None) -> list[str]:
        """The sentences of `text` as the reader sees them: normalised, lower case, seats as `⟨seat⟩` tokens.

        A table's rows about other seats are left out (`speaker` says whose own rows are kept).
        """
        key = (text, speaker)
        hit = self._said.get(key)
        if hit is None:  # (the rules and each learned reader ask for the same line's sentences)
            if len(self._said) >= self._size:
                self._said.clear()
            s, _ = self._tokens(normalise(text))
            s = _table_rows(_fix_words(s), speaker)
            hit = self._said[key] = tuple(x for x in _sentences(_strip_planted(s)) if not _injected(x))
        return list(hit)

    # ------------------------------------------------------------------ reading
    def _tokens(self, text: str) -> tuple[str, list[int]]:
        """`text` lower-cased with every seat name as a token `⟨seat⟩`, and the seats in order of mention."""
        hit = self._tokened.get(text)
        if hit is None:
            if len(self._tokened) >= self._size:
                self._tokened.clear()
            hit = self._tokened[text] = self._name_tokens(text)
        return hit[0], list(hit[1])

    def _name_tokens(self, text: str) -> tuple[str, list[int]]:
        seats: list[int] = []
        text = fold(text)
        if self._name_re is None:
            return text.lower(), seats

        def sub(m: re.Match[str]) -> str:
            raw = m.group(0).lstrip("@")
            possessive = raw.lower().endswith("'s") and raw.lower()[:-2] in self._aliases
            alias = raw.lower()[:-2] if possessive else raw.lower()
            seat = self._aliases[alias]
            seats.append(seat)
            return f"⟨{seat}⟩" + ("'s" if possessive else "")

        text = self._name_re.sub(sub, text)

        def short(m: re.Match[str]) -> str:  # "Xabi" for Xabier, "Seun" for Oluwaseun: capitalised or @-named
            word = m.group(2).lower()
            seat = self._short.get(word)
            if seat is None or word in _NOT_NAMES or word in _READER_WORDS:
                return m.group(0)
            seats.append(seat)
            return f"{m.group(1)}⟨{seat}⟩"

        text = re.sub(r"(^|[^\w@⟨])@?([A-Z][a-z][\w-]{1,}|(?<=@)[a-z][\w-]{2,})(?![\w⟩])", short, text)

        def lower(m: re.Match[str]) -> str:  # "fionn" for Fionnlagh: in lower case, the start of a part, 5+ letters
            word = m.group(2)
            seat = self._short.get(word)
            if seat is None or word in _NOT_NAMES or word in _FIXES or word in _READER_WORDS:
                return m.group(0)
            if not any(part.startswith(word) for part, s in self._parts if s == seat):
                return m.group(0)
            seats.append(seat)
            return f"{m.group(1)}⟨{seat}⟩"

        text = re.sub(r"(^|[^\w@⟨])([a-z]{5,})(?![\w⟩])", lower, text)

        def slot(m: re.Match[str]) -> str:  # "voting woj", "marg is my wolf read": a short start where a name goes
            word = m.group("word")
            seat = self._short.get(word)
            if seat is None or word in _NOT_SHORT_NAMES:
                return m.group(0)
            if not any(part.startswith(word) for part, s in self._parts if s == seat):
                return m.group(0)
            seats.append(seat)
            return m.group(0)[: m.start("word") - m.start(0)] + f"⟨{seat}⟩" + m.group(0)[m.end("word") - m.start(0) :]

        text = re.sub(rf"(?<![\w@⟨'-])(?:{_SLOT_BEFORE})\s+(?P<word>[a-z]{{3,4}})(?![\w⟩'-])", slot, text)
        text = re.sub(rf"(?<![\w@⟨'-])(?P<word>[a-z]{{3,4}})(?=\s+(?:{_SLOT_AFTER})\b)", slot, text)

        def misspelt(m: re.Match[str]) -> str:  # "ibrahm" for Ibrahim: one letter off a name one seat has
            word = m.group(2).lower()
            if word in _NOT_NAMES or word in _FIXES or len(word) < (5 if m.group(2)[0].isupper() else 6):
                return m.group(0)
            near = {seat for part, seat in self._parts if _one_edit(word, part)}
            if len(near) != 1:
                return m.group(0)
            seats.append(next(iter(near)))
            return f"{m.group(1)}⟨{next(iter(near))}⟩"

        text = re.sub(r"(^|[^\w@⟨])@?([A-Za-z][a-z]{4,})(?![\w⟩])", misspelt, text)
        return text.lower(), seats

    def _read(self, text: str, speaker: int | None, claimed: str = "") -> Reading:
        protocol: list[ReadStatement] = []
        if re.search(r"\b(?:COMINGOUT|DIVINED|IDENTIFIED|GUARDED|ESTIMATE|VOTE)\b", text):
            # (built on the first protocol line: most tables never see one, and it costs a table's patterns)
            protocol = [ReadStatement(st, 1.0, text) for st in parser_for(self.names).parse(text, speaker)]
        s, _ = self._tokens(normalise(text))
        s = _fix_words(s)
        s = _table_rows(s, speaker)
        s = re.sub(r"⟨(\d+)⟩(?:\s+⟨\1⟩)+", r"⟨\1⟩", s)  # "Mei Lin" of Mei Lin Tan: one seat named once
        s = re.sub(r"(⟨\d+⟩)-(?:san|kun|chan|sama|senpai|sensei|ssi|nim|ji|bhai|didi)\b", r"\1", s)  # "Mei-san"
        s = re.sub(  # "Mister Haddad", "Ms. Raman", "Señor Ruiz": the seat
            r"\b(?:mister|miss|mr|mrs|ms|mx|sir|madam|madame|dr|doctor|se[nñ]or|se[nñ]ora|herr|frau|monsieur|mademoiselle)"
            r"\.?\s+(⟨\d+⟩)",
            r"\1",
            s,
        )
        if speaker is not None:  # "Hina: villager", "Hina here, seer" said by Hina
            s = re.sub(rf"(^|[.!?;]\s*)⟨{speaker}⟩\s*(?::|=|here,?|-)\s*", r"\1i'm ", s)
            s = re.sub(rf"(^|[.!?;]\s*)⟨{speaker}⟩\s*,\s*(?=(?:the\s+)?{_ROLE}\s*[.!,]|here\b)", r"\1i'm ", s)
            # "Kenji votes Sora", "Putri the seer reporting in": the speaker naming themself
            s = re.sub(rf"(^|[.!?;]\s*)⟨{speaker}⟩\s+(?:votes|is voting|will vote|'s voting)\b", r"\1i vote", s)
            # "Graveside is the medium", said by Graveside
            s = re.sub(rf"(^|[.!?;]\s*)⟨{speaker}⟩\s+is\s+(?=(?:the|your)\s+{_ROLE}\b)", r"\1i am ", s)
            s = re.sub(
                rf"(^|[.!?;]\s*)⟨{speaker}⟩\s*,?\s+(?:the|your)\s+{_ROLE}\s+(?:reporting|speaking|here)\b",
                r"\1i'm the \g<role>,",
                s,
            )
        s = re.sub(r"(?m)^[ \t]*(?:[-*•·]+|\d{1,2}[.)])[ \t]+", "", s)  # a list's bullets and numbers
        s = re.sub(
            r"(?<![,\s])[,\s]+(?:ok|okay|right|yeah|alright|ya|k)\s*\?+", _said_not_asked, s
        )  # "I'm the seer, ok?"
        s = re.sub(r"\b(?:me|ma|mah)\s+(vote|ballot)\b", r"my \1", s)  # "Rivera gets me vote", "ma vote's on her"
        # a result said in the next sentence: "I divine Mei. Result is human.", "I check Shun. Werewolf leh."
        s = re.sub(
            r"(\bi\s+(?:also\s+|then\s+|just\s+)?(?:divine|divined|check|checked|inspect|inspected|look at|looked at|"
            r"scan|scanned|peek at|peeked at|investigate|investigated|test|tested)\s+⟨\d+⟩)\s*[.!]+\s+"
            r"(?:(?:the\s+|my\s+)?result\s*(?:is|was|:|=|-)?\s*|(?:he|she|they)(?:'s|\s+is|\s+was|\s+are)\s+|"
            r"it(?:'s|\s+is|\s+was)\s+)?(?=(?:an?\s+)?(?:human|werewolf|wolf|innocent|clean|white|black)\b)",
            r"\1: ",
            s,
        )
        s = re.sub(r"(⟨\d+⟩)\s*\((?:d|n|day|night)\s*\d+\)", r"\1", s)  # "Ashkan (D1) was a wolf"
        # the ninth version: "like anyone would" is a manner, not a supposition; pidgin and
        # Singlish votes and verdicts ("I dey vote am", "I go vote Ken", "na you be the wolf")
        s = re.sub(r"\s*\blike\s+any(?:one|body|\s+[a-z]+(?:\s+[a-z]+)?)\s+would\b", "", s)
        s = re.sub(r"\bi\s+(?:dey|go|don|wan|gon)\s+(vote|voting)\b", r"i will vote", s)
        s = re.sub(r"\bvote\s+am\b", "vote him", s)
        s = re.sub(r"\bna\s+(⟨\d+⟩|you|him|her)\s+(?:be|dey be|is)\s+(?:the\s+)?(wolf|werewolf)\b", r"\1 is the \2", s)
        s = re.sub(r"\b(⟨\d+⟩)\s+na\s+(?:the\s+)?(wolf|werewolf)\b", r"\1 is a \2", s)
        s = re.sub(
            r"\bmy\s+vote\s+(?:dey\s+)?go(?:es)?\s+(?:to\s+)?(?:your\s+side|to\s+you)\b", "my vote goes to you", s
        )
        s = re.sub(r"\byou\s*,\s*(⟨\d+⟩)(?!')", r"\1", s)  # "I'll cast mine against you, Ken": Ken
        s = _pronouns(s, speaker)
        s = _strip_planted(s)
        # a claim or a result said across two sentences: "Yaw is not the seer. I am.", "The real seer? Me.",
        # "NAYRA IS A WEREWOLF. I CHECKED HER."
        s = re.sub(
            rf"((?:not|n't|\bno)\s+(?:the\s+|a\s+)?(?:real\s+)?{_ROLE})\s*[.!]+\s+(i\s+am\s*[.!])", r"\1 - \3", s
        )
        s = re.sub(rf"\b(the\s+(?:real|true)\s+{_ROLE})\s*\?\s*me\b", r"\1 is me", s)
        s = re.sub(rf"\bthe\s+(real|true)\s+{_ROLE}\s+am\s+i\b", r"i am the \1 \g<role>", s)  # "The true seer am I"
        # "Yulia I think is town", "Mia is for me suspicious": the opinion marker moved to its usual place
        s = re.sub(r"(⟨\d+⟩)\s+i\s+(think|believe|feel|guess|reckon)\s+(is|'s|are)\b", r"i \2 \1 \3", s)
        s = re.sub(
            r"\bi\s+((?:\w+\s+)?(?:think|believe|reckon))\s+(⟨\d+⟩)\s+to\s+be\b", r"i \1 \2 is", s
        )  # "believe Ken to be a wolf"
        s = re.sub(
            r"\b(is|'s|are)\s+for\s+me\s+(?=(?:a\s+|the\s+|very\s+|too\s+|so\s+)?(?:suspicious|sus|wolf|werewolf|town|village|"
            r"innocent|clean|strange|weird|shady)\b)",
            r"\1 ",
            s,
        )
        s = re.sub(
            r"(⟨(\d+)⟩\s+(?:is|was)\s+(?:an?\s+)?(?:werewolf|wolf|human))[.!]+\s+(i\s+(?:checked|divined|inspected|scanned)\s+⟨\2⟩)",
            r"\1, \3",
            s,
        )
        # "Karim. Is. A. Wolf.": words set apart for weight, one sentence
        s = re.sub(
            r"(?:(?<=^)|(?<=[.!?]\s))(?:(?:⟨\d+⟩|[a-z']+)[.!]+\s+){2,}(?:⟨\d+⟩|[a-z']+)[.!]+",
            lambda m: re.sub(r"[.!]+\s+", " ", m.group(0)),
            s,
        )
        # an aside between commas ("Dimi, on the other hand, is the wolf") is no clause of its own
        s = re.sub(
            r",\s*(?:on the other hand|though|however|honestly|frankly|in my opinion|imo|tbh|to be honest|i think|"
            r"i'd say|i reckon|if you ask me|for sure|respectfully|regretfully|reluctantly|sadly|alas|of course|"
            r"naturally|unfortunately|i'm afraid|i fear|(?:i'm\s+|i am\s+)?sorry to say|i regret to say|i hate to say|"
            r"i must say|i have to say|i'm afraid to say|i'm sorry)\s*,\s*",
            " ",
            s,
        )
        s = re.sub(
            r"(⟨\d+⟩)[?.!]\s+(?=(?:human|wolf|werewolf|white|black|town|scum|green|red)\s*(?:[.!]+|$))",
            r"\1: ",
            s,
        )  # "Ken? Human.", "Night two check: Karim. Werewolf."
        # "Ken. Final answer." "KEN. That's my vote.": a seat named alone, then what it is named for
        s = re.sub(
            r"(⟨\d+⟩)[.!]+\s+(?=(?:final answer|voting|lynch|vote|hammer|that's my vote|that is my vote)\b[^.!?⟨]*(?:[.!?]|$))",
            r"\1, ",
            s,
        )  # (not when the next sentence names its own seat: "..., not Siwan. Lynch Bethan.")
        s = re.sub(r"\b(?:mr|mrs|ms|miss|mx|dr|sir|madam)\.?\s+(?=⟨)", "", s)  # "Mr Kairys": the seat alone
        s = re.sub(r"\b(came back|came up|flipped)\s*(?:\.\.\.|…)\s*", r"\1 ", s)  # "Rin came back... human"
        dropped = {int(m.group("old")) for m in _CORRECTED_VOTE.finditer(s)}
        if dropped:
            s = _CORRECTED_VOTE.sub(" ", s)
            s = re.sub(r"(^|[.!?]\s)\s*-\s+", r"\1", s)  # no dash left to open the sentence
            # "scratch that: Ann", "I mean Ann": the seat named alone is the corrected vote
            s = re.sub(
                r"\b(scratch that|i mean|make (?:that|it)|correction|no\s*,?\s*sorry|hm+\s*,?\s*no)\s*[:.,—–-]*\s*(⟨\d+⟩)",
                r"\1, i vote \2",
                s,
            )
            # "nah, forget Ken, it's Ann": Ann is the vote
            s = re.sub(r"\bforget\s+⟨\d+⟩\s*[,.;:-]?\s*it(?:'s| is)\s+(⟨\d+⟩)", r"i vote \1", s)
        # "Ken or Ann is the wolf", "one of Ken and Ann is lying": a choice between seats says nothing of either
        s = re.sub(r"(?:\beither\s+)?⟨\d+⟩\s+or\s+⟨\d+⟩(?:\s+or\s+⟨\d+⟩)*", "one of them", s)
        s = re.sub(r"\b(?:one|either)\s+of\s+⟨\d+⟩\s+(?:and|or)\s+⟨\d+⟩", "one of them", s)
        found: list[ReadStatement] = []
        unread: list[str] = []
        doubts = False
        claims_line = self._line_claims(s) or ({claimed} if claimed else set())
        roles_line = {ROLE_WORDS[w] for w in _ROLE_ANY.findall(s)} - {"villager"}
        alone = re.fullmatch(r"\s*⟨(\d+)⟩\s*[.!]*\s*", s)
        if alone and int(alone.group(1)) != speaker and int(alone.group(1)) < len(self.names):
            # a line that is nothing but another seat's name ("Cosimo.") answers "whom?": a vote
            found.append(ReadStatement(Statement("will_vote", int(alone.group(1))), NAME_ALONE, s.strip()))
        corrected = bool(_CORRECTION.search(s))
        for sentence in _sentences(s):
            body = sentence.rstrip()
            if _injected(body) or _summary(body):  # (a summary of the claims states nothing)
                continue
            question = body.endswith("?") and not _uptalk(body)
            matches = _lists(body, self._matches(body, claims_line, roles_line))
            kept = _resolve(matches)
            clauses = list(_clauses(body))
            accounted = [False] * len(clauses)
            for m in kept:
                c = next(i for i, (a, b) in enumerate(clauses) if a <= m.start < b)
                start, end = clauses[c]
                clause = body[start:end]
                before = body[start : m.start]
                for i, (a, b) in enumerate(clauses):  # every clause the match's words reach is read
                    if a < m.end and m.start < b:
                        accounted[i] = True
                asked = question and (c == len(clauses) - 1 or bool(_QUESTION_START.match(clause)))
                if asked or self._blocked(m, clause, before, body[m.start : m.end], body[: m.start], corrected):
                    continue
                if _third_person(before, m, body[m.start : m.end], speaker):
                    continue
                if _quoted(body, m.start):
                    continue
                if m.kind == "will_vote" and re.match(r"\s+(?:was|were)\b", body[m.end :]):
                    continue  # "my vote on Ken was based on ...": a vote cast before, not an intention
                if m.target is not None and (m.target == speaker or m.target >= len(self.names)):
                    continue
                st = Statement(m.kind, m.target, m.role, m.species)
                if all(r.statement != st for r in found):
                    found.append(ReadStatement(st, m.confidence, clause.strip()))
            if question:
                continue
            for i, (start, end) in enumerate(clauses):
                clause = body[start:end]
                if accounted[i] or not _GAME_WORDS.search(clause):
                    continue
                if not (re.search(r"⟨\d+⟩|\b(?:i|i'm|my|me|he|she|they|him|her|them|you)\b", clause)):
                    continue
                if _not_own(clause):
                    continue
                if _NEGATION.search(clause) and not re.search(r"⟨\d+⟩", clause):
                    continue
                unread.append(clause.strip())
                if re.search(rf"{_ROLE}|\b(?:{_HUMAN_WORDS}|{_WOLF_WORDS})\b", clause):
                    doubts = True
        kept_sentences = [b.rstrip() for b in _sentences(s) if not _injected(b)]
        found += _verdicts(found, kept_sentences, speaker)
        found += _rhetorical_charges(found, kept_sentences, speaker)
        found += _fake_verdicts(found, kept_sentences, speaker, claims_line)
        found += _reasoned(found, kept_sentences)
        found += _reasoned_votes(found, kept_sentences)
        found += _wolf_liars(found, kept_sentences)
        found = _wolf_calls(found, kept_sentences)
        found, taken_back = _taken_back(found, s)
        liars = {r.statement.target for r in found if r.statement.kind == "liar"}
        found = [
            r
            for r in found
            if not (r.statement.kind == "accuses" and r.statement.target in liars and not _WOLFISH.search(r.clause))
        ]
        found = _last_vote(found)
        for r in protocol:
            if all(f.statement != r.statement for f in found):
                found.append(r)
        if protocol:  # the protocol language is read exactly: nothing of such a line is left unread
            unread, doubts = [], False
        elif self.learned:
            found += [
                r for r in self._learned_claim(text, speaker, found, claimed) if r.statement.role not in taken_back
            ]
            roles = {r.statement.role for r in found if r.statement.kind == "claim"} or (
                {claimed} if claimed else set()
            )
            found = self._learned_results(text, speaker, found, roles)
            found += self._learned(text, speaker, found, unread, dropped, roles)
        return Reading(tuple(found), tuple(unread), doubts)

    def _learned_claim(
        self, text: str, speaker: int | None, found: list[ReadStatement], claimed: str
    ) -> list[ReadStatement]:
        """The role claim the learned claim reader finds in a line in which the rules read none.

        Each role the line has a word for is asked about ("I act as the medium at this table",
        "bodyguard is me"); the likeliest at `CLAIM_THRESHOLD` or above is the speaker's claim,
        unless every sentence with its word is a question or a supposition.
        """
        from lycan.beliefs.opinions import CLAIM_THRESHOLD, CONFIDENCE, ROLE_TOKEN, claim_features, default_claim_model

        if any(r.statement.kind == "claim" for r in found):
            return []
        sentences, words = self.role_sentences(text, speaker), self.sentences(text, speaker)
        best: tuple[float, str, str] | None = None
        for role in sorted({m for x in sentences for m in ROLE_TOKEN.findall(x)}):
            plain = [
                i
                for i, x in enumerate(words)
                if any(
                    _own_role_word(words, i, m) for m in _ROLE_ANY.finditer(x) if ROLE_WORDS[m.group("role")] == role
                )
            ]
            if not plain:
                continue
            (p,) = default_claim_model().scores(claim_features(sentences, role, speaker, claimed))
            if p >= CLAIM_THRESHOLD and (best is None or p > best[0]):
                best = (p, role, words[plain[0]].strip())
        if best is None:
            return []
        return [ReadStatement(Statement("claim", None, best[1], None), CONFIDENCE, best[2])]

    def _learned_results(
        self, text: str, speaker: int | None, found: list[ReadStatement], roles: set[str]
    ) -> list[ReadStatement]:
        """`found` with the results and protections the learned reader finds that the rules did not read.

        Asked only of a speaker who claims the role that gets them (a seer's divination, a medium's
        reading, a guardian's protection: in the line or earlier at the table), about each seat the
        line names that the rules read no such statement of. A result needs its species word in a
        sentence naming the seat or in the seatless sentence after it ("Checked Ken. Human."); it
        replaces what the rules made of the same words as an opinion ("Ken, she's totally human":
        no defence as well).
        """
        from lycan.beliefs.opinions import CONFIDENCE, RESULT_KINDS, RESULT_THRESHOLD
        from lycan.beliefs.talk_model import default_model

        result_kind = "divined" if "seer" in roles else "identified" if "medium" in roles else ""
        guards = "guardian" in roles
        if not (result_kind or guards):
            return found
        sentences = self.sentences(text, speaker)
        named = {int(x) for sentence in sentences for x in re.findall(r"⟨(\d+)⟩", sentence)} - {speaker}
        read = {(r.statement.kind, r.statement.target) for r in found}
        added: list[ReadStatement] = []
        judged: set[int] = set()
        for seat in sorted(t for t in named if t < len(self.names)):
            token = f"⟨{seat}⟩"
            near = [
                x
                for i, sentence in enumerate(sentences)
                for x in (sentence, *sentences[i + 1 : i + 2])
                if token in sentence and (x == sentence or not re.search(r"⟨\d+⟩", x))
            ]
            if any(_not_own(x) or x.rstrip().endswith("?") or _GUESSED.search(x) for x in near if token in x):
                continue  # asked, supposed, guessed, someone else's words or taken back: no result
            p = default_model().predict(sentences, seat, speaker, roles)
            clause = next(x for x in near if token in x)
            if result_kind and not any(k in ("divined", "identified") and t == seat for k, t in read):
                kind, best = max(((k, p[k]) for k in RESULT_KINDS), key=lambda kp: kp[1])
                words = _HUMAN_WORDS if RESULT_KINDS[kind] == "human" else _WOLF_WORDS
                if best >= RESULT_THRESHOLD and any(re.search(rf"\b(?:{words})\b", x) for x in near):
                    st = Statement(cast(StatementKind, result_kind), seat, "", Species(RESULT_KINDS[kind]))
                    added.append(ReadStatement(st, CONFIDENCE, clause))
                    judged.add(seat)
            if guards and ("guarded", seat) not in read and p["guarded"] >= RESULT_THRESHOLD:
                added.append(ReadStatement(Statement("guarded", seat, "", None), CONFIDENCE, clause))
        kept = [r for r in found if not (r.statement.target in judged and r.statement.kind in ("accuses", "defends"))]
        return kept + added

    def _learned(
        self,
        text: str,
        speaker: int | None,
        found: list[ReadStatement],
        unread: list[str],
        dropped: Collection[int] = (),
        roles: Collection[str] = (),
    ) -> list[ReadStatement]:
        """The opinions the learned reader (`lycan.beliefs.opinions`) finds about seats the rules left unread.

        It is asked about seats named in unread clauses, about seats the rules read nothing of
        that a plain sentence names (not a question, a supposition, someone else's words or a
        retraction), and whether the line accuses a seat the rules read only a vote for. Only statements the rules did not read, and none against what they did read:
        no accusation of a seat read as defended, no defence of one read as accused, called a liar
        or voted for; nothing about a seat whose every such clause holds a negation, "least" or a
        flip; at most one vote a line, and none where the rules read one.
        """
        from lycan.beliefs.opinions import CONFIDENCE, OPINION_KINDS
        from lycan.beliefs.talk_model import default_model

        sentences = self.sentences(text, speaker)
        # the sentences that may hold an opinion of a seat they name: a summary of the claims holds
        # none of the claimants (the model still reads it, as context)
        opining = [x for x in sentences if not _summary(x)]
        about = {r.statement.target for r in found if r.statement.target is not None}
        named = {int(x) for sentence in opining for x in re.findall(r"⟨(\d+)⟩", sentence)}
        seats = {int(x) for clause in unread for x in re.findall(r"⟨(\d+)⟩", clause)} | (named - about - set(dropped))
        seats -= {speaker}
        read = {(r.statement.kind, r.statement.target) for r in found}
        voted = any(kind == "will_vote" for kind, _ in read)  # one vote a line: the rules' stands
        # a seat the rules read only a vote for is asked whether the line accuses it too ("Voting
        # Kerem. He's shoving with nothing and hoping we fold.")
        # where its sentence says more than the vote ("Ken is the one I'm voting for today." is a vote)
        judged = {t for k, t in read if k in ("accuses", "defends", "liar", "divined", "identified", "guarded")}
        only: dict[int, str] = {}
        for r in found:
            t = r.statement.target
            if r.statement.kind == "will_vote" and t is not None and t not in judged | seats:
                rest = [  # (not a sentence only spoken to it: "Ken whom do you suspect?")
                    x.replace(r.clause, " ") for x in sentences if f"⟨{t}⟩" in x and not _vocative(t).match(x)
                ]
                if any(len(re.findall(r"[a-z']+", x)) >= 3 for x in rest):  # the sentence says more than the vote
                    only[t] = "accuses"
        seats |= set(only)
        # a seat the line only speaks to ("Ken I've been honest all along", "Ken please be honest") is
        # not what the line has an opinion of
        seats = {t for t in seats if not all(_vocative(t).match(x) for x in opining if f"⟨{t}⟩" in x)}
        against = {
            "accuses": ("defends",),
            "will_vote": ("defends",),
            "defends": ("accuses", "liar", "will_vote"),
            "liar": ("defends",),
        }
        role_sentences = self.role_sentences(text, speaker)
        out: list[ReadStatement] = []
        vote: tuple[float, ReadStatement] | None = None
        asked = sorted(t for t in seats if t < len(self.names))
        if not asked:
            return []
        model = default_model()  # loaded where a line first has a seat to ask about, not on every line
        threshold = model.threshold
        for seat in asked:
            clauses = [c for c in unread if f"⟨{seat}⟩" in c] or _plain_sentences_naming(seat, opining)
            # a seat named only in questions may be the point of a rhetorical one ("Isn't it convenient
            # that Ken only remembered his role after I pushed him?"): an accusation or a defence at most
            asked_only = not clauses
            if asked_only and model.reads_questions:
                clauses = _questions_naming(seat, opining)
            elif all(_NEGATION.search(c) or re.search(r"\b(?:least|less|flip\w*|turned out)\b", c) for c in clauses):
                continue  # "I don't trust Ken", "Ken's the one I trust least", "Ken's flip: wolf": not a guess
            if not clauses:
                continue
            naming = [x for x in sentences if f"⟨{seat}⟩" in x]
            if all(not re.search(r"[a-z]", x.replace(f"⟨{seat}⟩", "")) for x in naming) and not any(
                re.search(r"[a-z]", after) and not re.search(r"⟨\d+⟩", after)
                for before, after in itertools.pairwise(sentences)
                if f"⟨{seat}⟩" in before
            ):
                continue  # a name alone ("... Player 12: human. Player 6"): a line cut short says nothing of it
            # (a name set apart and then what it is named for, "Paddy. Wolf. Vote.", is asked about)
            if all(_alternatives(seat).search(x) for x in naming):
                continue  # "Ken or Mio is the wolf", "maybe Ken, maybe Mio": a guess between seats, of neither
            if all(_CITED_REASON.search(x[: x.index(f"⟨{seat}⟩")]) for x in naming):
                continue  # "I suspect Ann because Ken made a seer claim": Ken is the evidence, not the opinion
            predicted = model.predict(sentences, seat, speaker, roles)
            # seats named together ("Ken and Ann") get an opinion together or not at all
            partners = {int(a or b) for x in naming for a, b in _partners(seat).findall(x)}
            partner_p = {t: model.predict(sentences, t, speaker, roles) for t in partners - {speaker}}
            for kind, p in ((k, predicted[k]) for k in OPINION_KINDS if only.get(seat, k) == k):
                if asked_only and kind not in _ASKED_KINDS:
                    continue
                if p < threshold or (kind, seat) in read or any((k, seat) in read for k in against[kind]):
                    continue
                if kind == "defends" and all(
                    re.search(rf"⟨{seat}⟩[^.;!?⟨]{{0,30}}\b(?:about|on|regarding|with)\s+⟨\d+⟩", x) for x in naming
                ):
                    continue  # "Ken is dead right on Ann": agreeing with a point about Ann, not vouching for Ken
                if kind == "defends" and all(
                    x.count(f"⟨{seat}⟩") == len(re.findall(rf"⟨{seat}⟩'s\s+{_REASONING}", x)) for x in naming
                ):
                    continue  # "I'll go with Ken's read": taking up a seat's reasoning, not vouching for the seat
                if kind == "will_vote" and all(x.count(f"⟨{seat}⟩") == x.count(f"⟨{seat}⟩'s") for x in naming):
                    continue  # "Ken's vote is fake": what is the seat's, not a vote for it
                if any(q[kind] < threshold and (kind, t) not in read for t, q in partner_p.items()):
                    continue
                role = ""
                if kind == "liar":  # the role the seat is said to fake: the one role word said beside it
                    role = _one_role([x for x in role_sentences if f"⟨{seat}⟩" in x]) or _one_role(role_sentences)
                    if not role or any(re.search(rf"⟨{seat}⟩\s+{_ACTED}", c) for c in clauses):
                        continue  # no role to fake, or the seat did something ("Ken flagged the fake seer")
                st = ReadStatement(Statement(cast(StatementKind, kind), seat, role, None), CONFIDENCE, clauses[0])
                if kind != "will_vote":
                    out.append(st)
                elif not voted and (vote is None or p > vote[0]):
                    vote = (p, st)
        return out + ([vote[1]] if vote else [])

    def _line_claims(self, s: str) -> set[str]:
        """The roles the speaker claims anywhere in the line (the context of results and liar calls)."""
        roles: set[str] = set()
        for sentence in _sentences(s):
            if _injected(sentence) or sentence.rstrip().endswith("?"):
                continue
            for m in self._claims(sentence):
                clause_start = max(sentence.rfind(sep, 0, m.start) for sep in (",", " but ", " if "))
                before = sentence[max(clause_start, 0) : m.start]
                if not (_HYPOTHETICAL.search(before) or _REPORTED.search(before)):
                    roles.add(m.role)
        return roles

    def _claims(self, sentence: str) -> Iterator[_Match]:
        for pattern, confidence in self._patterns["claim"]:
            for m in pattern.finditer(sentence):
                if _others_co(sentence, m):
                    continue
                role = ROLE_WORDS[m.group("role")]
                yield _Match("claim", None, role, None, m.start(), m.end(), confidence)

    def _matches(
        self, body: str, claims_line: set[str], roles_line: frozenset[str] | set[str] = frozenset()
    ) -> list[_Match]:
        out = list(self._claims(body))
        seer_ctx = "seer" in claims_line or bool(_SEER_CONTEXT.search(body))
        medium_ctx = "medium" in claims_line or bool(_MEDIUM_CONTEXT.search(body))
        if claims_line and not claims_line & {"seer", "medium"}:  # a villager's "Ken is human" is an opinion
            seer_ctx = medium_ctx = False
        # every kind but a claim names a seat: a sentence that names none is read for claims alone
        kinds = ("result", "context_result", "guarded", "context_guarded", "will_vote", "liar", "accuses", "defends")
        for kind in (*kinds, "attack") if "⟨" in body else ():
            if kind == "context_guarded" and "guardian" not in claims_line:
                continue
            gate = _GATES.get(kind)
            if gate is not None and not gate.search(body):
                continue  # the sentence lacks a word every pattern of this kind needs
            for pattern, confidence in self._patterns[kind]:
                for m in pattern.finditer(body):
                    groups = m.groupdict()
                    target = int(groups["t"]) if groups.get("t") else None
                    if kind in ("result", "context_result"):
                        species = _species(groups["sp"])
                        if kind == "context_result" and not (seer_ctx or medium_ctx):
                            continue
                        if re.match(_SOURCED, body[m.end() :]):
                            continue  # "Leonardo = H (per Camila)", "Piotr flipped town per him": another's result
                        if re.search(r"\bflip", m.group(0)) and not _own_flip(body[m.end() :], claims_line):
                            continue  # "Cathal flipped wolf": the table's news, not the speaker's result
                        if kind == "context_result" and re.search(
                            r"\b(?:think|believe|feel|guess|bet|suspect|sure|reckon|imo)\b[^.,;]{0,12}$",
                            body[: m.start()],
                        ):
                            continue  # an opinion, not a result
                        if kind == "context_result" and (
                            re.match(r"\s*(?:imo|imho|in my opinion|i think|i guess|to me)\b", body[m.end() :])
                            or re.search(
                                r"\b(?:i\s+(?:think|reckon|believe|feel|guess|suspect)|reckon|put\s+it\s+to\s+(?:you|the\s+\w+)\s+that|"
                                r"i(?:'m|\s+am)\s+(?:fairly\s+|pretty\s+|quite\s+)?(?:sure|convinced)|in\s+my\s+(?:opinion|book|view))\b[^.;!?⟨]*$",
                                body[: m.start()],
                            )
                        ):
                            opinion: StatementKind = "accuses" if species is Species.WEREWOLF else "defends"
                            out.append(_Match(opinion, target, "", None, m.start(), m.end(), confidence))
                            continue  # "Bao=wolf imo": a read, not a result
                        is_medium = medium_ctx and (
                            "medium" in claims_line or ("seer" not in claims_line and not _SEER_CONTEXT.search(body))
                        )
                        if "seer" not in claims_line and (
                            roles_line == {"medium"}
                            or (re.search(r"\bmedium\b", body) and not re.search(r"\bseer\b", body))
                            or re.search(r"\b(?:execut\w+|lynch\w*|hanged|hung|exiled|voted out)\b", m.group(0))
                        ):
                            # "Medium result: Elias was human", "Yesterday's execution, Ken, was a wolf"
                            is_medium = True
                        if "seer" in claims_line and "medium" not in claims_line:
                            is_medium = False
                        out.append(
                            _Match(
                                "identified" if is_medium else "divined",
                                target,
                                "",
                                species,
                                m.start(),
                                m.end(),
                                confidence,
                            )
                        )
                    elif kind == "liar":
                        role = ROLE_WORDS[groups["role"]] if groups.get("role") else ""
                        if groups.get("own") is not None and role not in claims_line:
                            continue  # "Ken is not the seer" is a liar call only from a rival claimant
                        if not role:
                            rival = claims_line & {"seer", "medium"}
                            if not claims_line - {"villager"}:  # no power claim: the one role the line speaks of
                                rival = set(roles_line)
                            if len(rival) != 1:
                                out.append(_Match("accuses", target, "", None, m.start(), m.end(), confidence))
                                continue
                            role = next(iter(rival))
                        out.append(_Match("liar", target, role, None, m.start(), m.end(), confidence))
                    else:
                        plain = "guarded" if kind == "context_guarded" else kind
                        out.append(
                            _Match(cast("StatementKind", plain), target, "", None, m.start(), m.end(), confidence)
                        )
                        if groups.get("t2"):
                            out.append(
                                _Match(
                                    cast("StatementKind", kind),
                                    int(groups["t2"]),
                                    "",
                                    None,
                                    m.start(),
                                    m.end(),
                                    confidence,
                                )
                            )
        if re.search(r"\bi will pretend to be the seer\b", body):
            out.append(_Match("fake_plan", None, "", None, 0, len(body), 0.95))
        return out

    @staticmethod
    def _blocked(m: _Match, clause: str, before: str, words: str, earlier: str, corrected: bool = False) -> bool:
        """Whether a match is not the speaker's own plain statement (negated, reported, hypothetical...).

        `clause` holds the match, `before` is the clause up to it, `earlier` the sentence up to it;
        `corrected`: the line corrects itself somewhere ("... wait no, Ann").
        """
        if m.kind == "fake_plan":
            return False  # "I will pretend to be the seer" is a plan, said as one
        cut = before.rfind(": ")
        if cut >= 0:  # "I won't pretend to have a role: I'm a villager": what follows a colon stands alone
            clause, before = clause[cut + 2 :], before[cut + 2 :]
        if _HYPOTHETICAL.search(clause) or re.match(
            r"\s*(?:(?:look|so|ok|okay|well|now)\s*,?\s*)?(?:"
            + _IF
            + r"|suppose|supposing|assuming|what if|imagine|say|hypothetically)\b",
            earlier,
        ):
            return True
        if re.search(rf"\b{_IF}[^.;!?]*\bthen\b[^.;!?,]*$", earlier):
            return True  # the consequent of a conditional: "if Ken is real then Ann is a wolf"
        since = re.split(r"\b(?:but|however|though|anyway|anyways)\b", earlier)[-1]
        reported = _REPORTED.search(since)
        acted = reported and re.search(
            r"\b(?:voted|votes|wants|wanted|asked|asks|agrees|agreed)\s*$", reported.group(0)
        )
        rest = since[reported.end() :] if reported else ""
        if (
            reported
            and acted
            and (
                re.search(r"\bi(?:'m|'ll| am| will)\b", rest)
                or (re.search(r"[,;]", rest) and not re.search(r"\bwant", reported.group(0)))
            )
        ):
            reported = None  # an act, not speech: its reach ends at the clause's end or where the speaker speaks again
        if reported or re.match(r"\s*(?:thinks|says|claims|believes|said|claimed|wants)\b", before):
            return True
        if m.kind == "liar":
            return bool(_NEGATION.search(before))
        if m.kind == "claim":
            return bool(re.search(r"\b(?:not|never|n't)\s+(?:\w+\s+)?$", before))
        if m.kind in ("will_vote", "accuses", "defends", "guarded", "liar"):
            # "I'm voting him today instead of either seer": an "instead of" after the statement is
            # what it is not, and takes nothing back (unless the line then corrects itself)
            end = len(before) + len(words)
            cues = list(_RETRACTION.finditer(clause))
            if cues and (corrected or any(c.group(0) != "instead of" or c.start() < end for c in cues)):
                return True
        if m.kind == "defends" and "not" in words:
            return bool(_NEGATION.search(before))
        if m.kind == "accuses" and re.search(r"(?:not|n't|dont|cannot|no)\s+trust", words):
            return bool(_NEGATION.search(before))  # distrust is the accusation itself
        if m.kind in ("divined", "identified"):  # "Checked Lina: not a wolf." is a result, the negation its species
            words = _NOT_WOLF.sub("", words)
        return bool(_NEGATION.search(before) or (m.kind != "defends" and _NEGATION.search(words)))


def _others_co(sentence: str, m: re.Match[str]) -> bool:
    """Whether a "CO" (coming out) that `m` read as the speaker's claim is another seat's, or none.

    "A11 CO medium", "Medium CO from Bartek", "no seer CO yet", "Med CO confirms Peni black": a
    recap of the table's claims, not the speaker coming out ("Medium CO: Oskar flipped wolf." is).
    """
    if not re.search(r"\b(?:co|c/o)\b", m.group(0)):
        return False
    before, after = sentence[: m.start() + 1], sentence[m.end() :]
    return bool(
        re.search(r"(?:⟨\d+⟩|⟨\d+⟩'s|\b(?:no|any|another|second|third|his|her|their|a))\s*[\[(]?\s*$", before)
        or re.match(
            r"\s*(?:from|by|for)\s+|\s+(?:yet|so far)\b|\s+(?:confirms|confirmed|says|said|shows|showed|reports|reported|"
            r"lines up|claims|claimed|is|was|has|had|cleared|checked)\b",
            after,
        )
    )


_SOURCED = r"\s*,?\s*[(\[]?\s*(?:per|via|according to|from|by)\s+(?:him|her|them|⟨\d+⟩|the\s+(?:medium|seer))\b"
"""What follows a result that names its source: another seat's ("Piotr flipped town per him")."""


def _own_flip(after: str, claims: set[str]) -> bool:
    """Whether "X flipped wolf", followed by `after` in its sentence, is the speaker's own result.

    A flip is what a death showed the table, or what the medium said: the speaker's result only
    from a seer or medium claimant, in the line or before it ("Medium: P8 flipped black."), or said
    as theirs ("flipped green on my check", "flipped town for me"). (One with its source named is
    nobody's own: `_SOURCED`.)
    """
    return bool(claims & {"seer", "medium"}) or bool(
        re.match(r"\s*(?:(?:for|to)\s+me|on\s+my|in\s+my|my\s+end)\b", after)
    )


_SEEING = re.compile(
    _SEER_CONTEXT.pattern + r"|\b(?:see|vision\w*|look\w*|read\w*|result\w*|test\w*|orb|crystal|dream\w*|spirit\w*|"
    r"dead|grave|medium|flip\w*|came back|came up|n\d+|night\w*|tonight|overnight|confirm\w*|found|learn\w*|know)\b"
)
"""Words that tell a seer's or a medium's result from a bare call ("Ken is a wolf"): those that put a
seer's result in context (`_SEER_CONTEXT`) and more."""


def _last_vote(found: list[ReadStatement]) -> list[ReadStatement]:
    """One vote a line, the last said: a speaker who names two votes changed their mind on the way.

    ("I'm voting Theo. Wait - no, Elodie.", "Fine, I'll vote Amara. Actually no - Tevita.")
    """
    votes = [r for r in found if r.statement.kind == "will_vote"]
    if len({r.statement.target for r in votes}) < 2:
        return found
    return [r for r in found if r.statement.kind != "will_vote" or r is votes[-1]]


def _wolf_calls(found: list[ReadStatement], sentences: list[str]) -> list[ReadStatement]:
    """A wolf "result" in a line (its `sentences`) with no word of seeing, beside a vote for the seat, is an accusation.

    A seer claimant's "Tane is wolf. I vote Tane." calls Tane a wolf as the reason for the vote
    (the labelled sets read it so), where "I checked Tane: wolf. I vote Tane." reports a result.
    """
    voted = {r.statement.target for r in found if r.statement.kind == "will_vote"}
    out: list[ReadStatement] = []
    for r in found:
        st = r.statement
        if (
            st.kind in ("divined", "identified")
            and st.species is Species.WEREWOLF
            and st.target in voted
            and not any(_SEEING.search(sentence) for sentence in sentences)
        ):
            call = Statement("accuses", st.target)
            if all(f.statement != call for f in found):
                out.append(ReadStatement(call, r.confidence, r.clause))
            continue
        out.append(r)
    return out


_JOKE = re.compile(
    r"(?<!not )(?<!n't )\b(?:just\s+)?(?:kidding|joking)\b|\bjk\b|\bi'?m\s+joking\b|\b(?:wait|hold on)\W+no\b|\bno\W+wait\b|"
    r"\bi\s+meant\b|\bscratch that\b|\bi take (?:it|that) back\b"
)
"""Words with which a speaker takes back what it just said of itself ("I'm the seer. Just kidding")."""
_SELF_DENIAL = re.compile(rf"\bi(?:'m| am)\s+(?:not|no)\s+(?:the\s+|a\s+)?{_ROLE}\b")
"""The speaker denies holding a role ("i'm not the seer", "I'm no hunter")."""


def _taken_back(found: list[ReadStatement], line: str) -> tuple[list[ReadStatement], set[str]]:
    """`found` less each role claim the speaker takes back, and every role the `line` takes back or denies.

    A claim is taken back by `_JOKE` soon after it (unless the line reports the role's result: a
    result stands by its claim) or by a denial of the same role later ("i'm also seer wait no no
    i'm not the seer"); a claim said after the retraction stands ("I'm the seer. Kidding. Still
    just a villager."). The roles returned are those the learned reader must not bring back.
    """
    acted = any(r.statement.kind in RESULT_ROLES for r in found)
    denied = [(m.start(), ROLE_WORDS[m.group("role")]) for m in _SELF_DENIAL.finditer(line)]
    out: list[ReadStatement] = []
    dropped = {role for _, role in denied}
    for r in found:
        st = r.statement
        at = line.find(r.clause) if r.clause else -1
        if st.kind == "claim" and st.role and at >= 0:
            said = r.clause.find(st.role)  # after the role's word where the clause holds it
            end = at + (said + len(st.role) if said >= 0 else len(r.clause))
            later = any(pos >= end and role == st.role for pos, role in denied)
            if (_JOKE.search(line, end, end + 80) and not acted) or later:
                dropped.add(st.role)
                continue
        out.append(r)
    return out, dropped


# ----------------------------------------------------------------------------- patterns


@functools.cache
def _patterns() -> dict[str, list[tuple[re.Pattern[str], float]]]:
    """The patterns of every statement kind, compiled once per process (every table shares them)."""
    mods = (
        r"(?:(?:the|a|an|your|our|really|actually|just|only|simply|also|definitely|indeed|truly|honestly|"
        r"confirmed|real|true|genuine|plain|old|humble|simple|lowly|one|village|humble|legit|"
        r"too|here|the real|the true|the one and only|absolutely|ordinary|totally|100%|obviously|clearly|still|"
        r"literally|genuinely|the actual|the genuine|the only|damn|damned|bloody|freaking|frigging|darn|dang|proud|loyal|"
        r"faithful|boring|mere)\s+)*"
    )
    i_am = r"\b(?:i'm|i am|i m|me is|me be|na me be|i be|am)"
    p = {
        "claim": [
            (rf"\bthat\s+makes\s+me\s+(?:the\s+|a\s+|your\s+)?{_ROLE}\b", 0.9),
            (rf"\b(?:like|want|have|wish|need)\s+to\s+come\s+out\s+as\s+(?:the\s+|a\s+)?{_ROLE}\b", 0.9),
            # "Ken isn't the seer - I am": the speaker's own claim, said against another's
            (
                rf"(?:not|n't|\bno)\s+(?:the\s+|a\s+)?(?:real\s+)?{_ROLE}\s*[-,.;!]*\s*(?:because\s+|since\s+)?"
                rf"(?:i\s+am\b|it(?:'s|\s+is)\s+me\b|'?tis\s+(?:i|me)\b)",
                0.9,
            ),
            (rf"\b(?:the\s+)?(?:real|true)\s+{_ROLE}(?:'s|\s+is)\s+me\b", 0.9),
            # a sentence that is only a role ("Seer.", "Hunter.", "VT here.", "seer:") claims it
            (
                rf"^\s*(?:(?:the|a)\s+)?(?:real\s+|true\s+)?{_ROLE}\s*(?:here|co|claim|right here)?\s*(?:,?\s*(?:by the way|btw|fyi|finally|then|now|officially))?\s*(?:[.!:]|$)",
                0.85,
            ),
            (rf"\bi\s+(?:remain|am still|'m still)\s+(?:the\s+)?{_ROLE}\b", 0.9),
            (
                rf"(?:^|[.!?;:]\s*)(?:(?:ok|okay|so|fine|well|alright)\s*,?\s+)?(?:hard\s+)?claiming\s+(?:the\s+)?{_ROLE}\b(?!\s+(?:is|was))",
                0.85,
            ),
            (
                rf"^\s*(?:⟨\d+⟩\s*,?\s*)?(?:yes|yeah|yep|yup|aye|fine|ok|okay)\s*[,.!-]*\s*{_ROLE}\s*(?:,\s*confirmed)?\s*(?:[.!,]|$)",
                0.85,
            ),
            (rf"^\s*(?:second|another|the other|other|counter)\s+{_ROLE}\s+(?:here|claim)\b", 0.85),
            (rf"\(\s*me\s*,\s*(?:the\s+)?{_ROLE}\s*\)", 0.85),
            # "the seer is me", "The real seer? Me.", "the seer role belongs to me"
            (
                rf"\bthe\s+(?:real\s+|true\s+|actual\s+)?{_ROLE}(?:\s+role)?(?:\s+is|\?|\s+belongs to|\s*[-:=])\s*(?:me|mine)\s*(?:[.!,;]|$)",
                0.9,
            ),
            (rf"\bi\s+stand\s+(?:before\s+you\s+|here\s+)?as\s+(?:the|a|your)\s+{_ROLE}\b", 0.9),
            (rf"^\s*{_ROLE}\s+(?:again|speaking|reporting|here again|checking in|reporting in)\b", 0.85),
            # the ninth version: "Guardian, that's me.", "Possessed, aye.", "it is me who is the seer",
            # "I appear before you as the medium", "I villager lah!", "I'll go first: seer."
            (rf"^\s*{_ROLE}\s*[,-]?\s*(?:that'?s|that is)\s+me\b", 0.9),
            (rf"^\s*{_ROLE}\s*,\s*(?:aye|yes|yeah|yep|indeed)\b", 0.85),
            (rf"\bit(?:'s|\s+is)\s+me\s+who\s+(?:is|am)\s+(?:the\s+|a\s+)?{_ROLE}\b", 0.9),
            (rf"\bi\s+(?:appear|come)\s+before\s+you\s+as\s+(?:the|a|your)\s+{_ROLE}\b", 0.9),
            (rf"(?:^|[.!?]\s*)i\s+{_ROLE}\s*(?:lah|leh|lor|la|one|only|ah)?\s*(?:[.!,]|$)", 0.85),
            (rf"\b(?:i'll|i will|let me)\s+go\s+first\b[^.!?:]{{0,30}}:\s*(?:the\s+)?{_ROLE}\s*(?:[.!]|$)", 0.85),
            (rf"^\s*(?:as\s+(?:the\s+)?)?{_ROLE}\s*:", 0.85),
            (rf"^\s*\(\s*{_ROLE}\s*\)\s*[.!]?\s*$", 0.85),
            (rf"^\s*{_ROLE}\s*(?:n\d|night\s*\d|d\d)\s*:", 0.85),
            (rf"{_ROLE}\b[^.?!]{{0,40}}\bi(?:'m|\s+am)\s+the\s+(?:real|true|actual)\s+one\b", 0.85),
            (rf"(?:not|n't|\bno)\s+(?:the\s+|a\s+)?(?:real\s+)?{_ROLE}\s*[.!]+\s*i\s+am\s*[.!]", 0.9),
            # the eleventh version: "A second seer stands before ye: 'tis I.", "which is what I am: villager",
            # "nothing to claim, just a villager", "seer ako" (Taglish)
            (rf"{_ROLE}\b[^.?!]{{0,40}}:\s*(?:'?tis|it\s+is|it's|that's|that\s+is)\s+(?:i|me)\s*(?:[.!]|$)", 0.85),
            (rf"\bwhat\s+i\s+am\s*[:-]\s*(?:a\s+|the\s+)?{_ROLE}\b", 0.9),
            (
                r"\b(?:nothing|no\s+role)\s+to\s+(?:claim|reveal|hide)\s*[,:;-]?\s*(?:i'm\s+|i\s+am\s+)?"
                r"(?:just|only|simply|merely)\s+(?:a\s+)?(?:plain\s+|humble\s+|simple\s+)?(?P<role>villager)\b",
                0.9,
            ),
            (rf"(?:^|[.!,;:]\s*){_ROLE}\s+ako\b", 0.85),
            (rf"\bako\s+(?:ang|yung|ay)\s+(?:totoong\s+|tunay\s+na\s+)?{_ROLE}\b", 0.85),
            (rf"^\s*(?:c|co|claim)\s+{_ROLE}\b", 0.85),
            (
                rf"\b(?:hard\s*claim(?:ing)?|i(?:'ll| will|'m gonna| am gonna|'m going to| am going to)?\s+claim|i\s+(?:hereby\s+|too\s+|also\s+)?claim(?:\s+the\s+(?:role|office|post|mantle|title|position)\s+of)?|outing myself as|outing myself\s*[:,]|"
                rf"out(?:ing)?\s+as|i\s+(?:hold|bear|occupy)\s+the\s+(?:role|office|post|mantle|title|position)\s+of|my\s+claim\s+is|i\s+will\s+now\s+come\s+out\s*:\s*i\s+am|"
                rf"revealing|reveal myself as)\s*:?\s*(?:the\s+|a\s+|an\s+)?(?:role\s+of\s+)?{_ROLE}\b",
                0.9,
            ),
            (rf"\b(?:the\s+)?(?:real|true)\s+{_ROLE}\s+(?:right\s+)?here\b", 0.85),
            (rf"{i_am}\s+{mods}{_ROLE}\b(?!\s*(?:'s|claim))", 0.95),
            (rf"\bmy role(?: is|'s|:|=)\s*(?:the |a |an )?{_ROLE}\b", 0.95),
            # "I be the ship's seer", "I'm yer guardian", "I am this village's medium"
            (rf"{i_am}\s+(?:the|your|yer|this|our)\s+(?:[a-z]+'s\s+)?{_ROLE}\b(?!\s*(?:'s|claim))", 0.85),
            # "As guardian of this vale I swear it", "As your medium I commune with the dead"
            (rf"^\s*as\s+(?:your\s+|the\s+|yer\s+)?{_ROLE}(?:\s+of\s+[a-z' ]{{1,30}}?)?\s*,?\s+i\b", 0.85),
            (rf"^\s*(?:role|role claim|claim|co)\s*[:=]\s*(?:the\s+|a\s+)?{_ROLE}\s*(?:[.!,;(]|$)", 0.9),
            (rf"(?:^|[\s(\[,.:;-])(?:co|c/o)\s*[:=]?\s*(?:as\s+)?(?:the\s+)?{_ROLE}\b", 0.9),
            (rf"(?:^|[\s,.:;-]){_ROLE}\s+co\b", 0.9),
            (rf"^\s*(?:ok\w*,?\s+|fine,?\s+|so,?\s+|yes,?\s+)?{_ROLE}\s+here\b", 0.9),
            (rf"(?:^|[,.;:-]\s*){_ROLE}\s+here\b", 0.9),
            (
                rf"\bi(?:'m| am)?\s+(?:claim(?:ing)?|coming out as|come out as|came out as|reveal(?:ing)?(?: myself)? as|"
                rf"out as|revealing)\s+(?:the |a )?{_ROLE}\b",
                0.9,
            ),
            (rf"\b(?:as|speaking as)\s+(?:the|a|your|an)\s+{_ROLE},?\s+(?:i|my|me)\b", 0.85),
            (rf"\bi(?:'m| am)\s+(?:the\s+)?(?:real\s+|true\s+)?{_ROLE},?\s+not\b", 0.9),
            # the eighth version: "I've been a villager all along", "I confess myself the seer",
            # "I serve this village as its seer", "No way he's the seer, I am."
            (rf"\bi(?:'ve|\s+have)\s+been\s+{mods}{_ROLE}\b(?!\s*(?:'s|claim))", 0.9),
            (
                rf"^\s*{_ROLE}\s+(?:results?|report|update|check|reading)\s*:(?![^.!?]*\b(?:per|according to)\s+⟨)"
                rf"(?![^.!]*(?:\?|\b(?:please|anyone|who|we need|waiting|none|nobody|no one)\b))",
                0.85,
            ),
            (
                rf"^\s*{_ROLE}\s+(?:claim|co)\s*(?:[,.!:;-]|$)"
                rf"(?![^.!]*(?:\?|\b(?:please|anyone|who|we need|waiting|none|nobody|no one)\b))",
                0.85,
            ),
            (
                rf"\b(?:confess|declare|reveal|announce|present)\s+myself\s+(?:to\s+be\s+|as\s+)?(?:the|a|your|an)\s+"
                rf"(?:[a-z]+'s\s+)?{_ROLE}\b(?!'s)",
                0.9,
            ),
            (
                rf"\bi\s+serve\s+(?!no\b|nobody\b|none\b)(?:[a-z]+\s+){{0,3}}?as\s+(?:the|its|your|their|our|a|an)\s+{_ROLE}\b",
                0.85,
            ),
            (
                rf"^(?![^.!?]*\b(?:convinced|sure|certain|think|believe|buy|buying|doubt)\b)[^.!?]{{0,60}}?"
                rf"\b{_ROLE}\b[^.!?]{{0,40}}?[,;—–-]\s*(?:but\s+)?i\s+am\s*(?:[.!]|$)",
                0.85,
            ),
        ],
        "result": [
            (
                rf"\b(?:inspection|check|reading|divination|vision|scan)\s+(?:of|on)\s+{_WHO}\s+(?:returned|came back|showed|gave|revealed)\s+"
                rf"(?:a\s+result\s+of\s+|as\s+|an?\s+)?{_SPECIES}\b",
                0.9,
            ),
            (
                rf"{_WHO}(?:'s|\s+is|\s+was)\s+(?:an?\s+|the\s+)?{_SPECIES}\s*(?:[-,;:.]\s*)?(?:i\s+)?"
                rf"(?:checked|divined|inspected|scanned|looked at|saw)\s+(?:⟨(?P=t)⟩|him|her|them)\b",
                0.9,
            ),
            (
                rf"{_WHO},?\s+(?:the one|the player|the guy|the girl|who|whom)\s+(?:(?:we\s+)?(?:hanged|hung|executed|lynched|exiled|voted out|eliminated)|we\s+killed)"
                rf"(?:\s+(?:yesterday|today|last night))?\s*,?\s*(?:was|is|came back|came up|flipped)\s+(?:as\s+)?(?:an?\s+)?{_SPECIES}\b",
                0.9,
            ),
            (
                rf"\b(?:execution|lynch|hanging|exile)\s*-\s*{_WHO}\s*-\s*(?:was|is|came back)\s+(?:an?\s+)?{_SPECIES}\b",
                0.9,
            ),
            (
                rf"{_WHO}\s*(?:\([^)]{{0,20}}\)\s*)?,?\s+(?:flipped|came up|came back)(?:\s*(?:\.\.\.|…)\s*|\s+)(?:as\s+)?(?:an?\s+)?{_SPECIES}\b",
                0.9,
            ),
            (rf"\bresult\s+(?:n\d|night \d|d\d)?\s*[-:,]?\s*{_WHO}\s*[,:=-]\s*(?:an?\s+)?{_SPECIES}\b", 0.9),
            (
                rf"{_WHO},\s*(?:our|the|yesterday's|today's)\s+(?:lynch|execution|hang|exile|elimination)[^,]{{0,20}},\s*(?:was|is|flipped)\s+(?:an?\s+)?{_SPECIES}\b",
                0.9,
            ),
            (
                rf"\b(?:yesterday's|our|the)\s+(?:lynch|execution|hang|exile|elimination)\s*,\s*{_WHO}\s*,\s*(?:was|is|flipped)\s+(?:an?\s+)?{_SPECIES}\b",
                0.9,
            ),
            (
                rf"{_WHO}\s+(?:is|was)\s+(?:an?\s+)?{_SPECIES}\s*,\s+i\s+(?:checked|divined|inspected|scanned)\s+⟨(?P=t)⟩",
                0.9,
            ),
            (
                rf"\b(?:vision|divination|check|reading|seance)\w*\s+(?:of|on|upon|fell upon|fell on|landed on)\s+(?:the late\s+)?"
                rf"{_WHO}[^.⟨]{{0,30}}?\b(?:revealed|reveals|showed|shows|was|is|came back)\s+(?:an?\s+)?{_SPECIES}\b",
                0.9,
            ),
            (
                rf"{_WHO}'s\s+(?:spirit|soul|ghost|flip\s+came\s+(?:through|back)\s+(?:for|to)\s+me)\b[^.⟨]{{0,40}}?\s*(?:[:,]|\s-)\s*(?:an?\s+)?{_SPECIES}\b",
                0.85,
            ),
            (
                rf"{_WHO},?\s+(?:showed up|showed|turned up|registered)\s+(?:as\s+)?(?:an?\s+)?{_SPECIES}\s+"
                rf"(?:in|on|to)\s+(?:my|me)\b",
                0.9,
            ),
            (
                rf"{_WHO}\s+is\s+the\s+(?P<sp>wolf|werewolf)\s+i\s+(?:found|checked|divined)"
                rf"(?:\s+last night|\s+on night \w+|\s+n\d)?\s*(?:[.,;!]|$)",
                0.9,
            ),
            (
                rf"{_WHO}\s+was\s+the\s+(?:subject|target)\s+of\s+my\s+(?:\w+\s+)?(?:divination|check|vision|reading)"
                rf"[^.]{{0,20}}?result\s+(?:was|is)\s+(?:an?\s+)?{_SPECIES}\b",
                0.9,
            ),
            (rf"\b(?:report|result|reading)\s*:\s*{_WHO}\s*[,:=-]\s*(?:an?\s+)?{_SPECIES}\b", 0.9),
            # colours and flips: "X flipped green on my check", "X came up red"
            (rf"{_WHO}\s+(?:flipped|came up|came back|showed up|showed|is|was|=)\s+(?P<sp>green|red)\b", 0.9),
            (
                rf"\b(?:peek|seance|scan|look|reading|vision|check|divination|result)\w*\s+(?:on|of|for|at|into)\s+{_WHO}\s*[:=,-]\s*(?:an?\s+)?{_SPECIES}\b",
                0.9,
            ),
            (
                rf"\b(?:examined|divined|checked|inspected|investigated|looked into|read|peeked at|scanned)\s+{_WHO}\s*[;,:]\s*(?:and\s+)?(?:the\s+)?result\s+(?:was|is|:)\s*(?:an?\s+)?{_SPECIES}\b",
                0.9,
            ),
            (
                rf"\b(?:examined|divined|checked|inspected|looked into|peeked at)\s+{_WHO}(?:[^⟨.!?]{{0,30}}?)\s+(?:and\s+)?(?:\w+\s+)?(?:is|was|are|'s)\s+(?:an?\s+)?{_SPECIES}\b",
                0.9,
            ),
            # a seeing verb, the seat, then its species: "I checked Mio last night and she is human"
            (
                rf"\b(?:divin\w*|check\w*|inspect\w*|investigat\w*|saw|see|looked at|looked into|look at|look|scan\w*|"
                rf"peek\w*|tested|vision on|vision of|vision showed|vision:|read on|reading on|result on|result for|"
                rf"results? of|check on|dived)\s*(?:was|is)?\s*[:,]?\s*(?:on\s+)?{_WHO}(?:'s)?(?P<gap>(?:[^⟨.!?;]|⟨(?P=t)⟩){{0,45}}?)"
                rf"(?:\b(?:is|was|are|as|be|na|came back|comes back|came up|showed|shows|result|says|turned out|"
                rf"returned)\b|'s\b|[=:,-])\s*(?:as\s+)?(?:an?\s+|the\s+)?(?:\"|')?{_SPECIES}\b",
                0.95,
            ),
            # "my divination found Ken to be human" (not "I read Ken to be a wolf", an opinion)
            (
                rf"\bmy\s+(?:vision|check|divination|result|reading|seance)\w*\s+(?:last night\s+|on night \w+\s+)?"
                rf"(?:found|showed|shows|revealed|reveals|proved|confirmed)\s+{_WHO}\s+to\s+be\s+(?:an?\s+)?{_SPECIES}\b",
                0.9,
            ),
            # "my vision showed Toshio is human", "my check on Yuki: werewolf"
            (
                rf"\b(?!ready\b)(?:vision|check|divination|result|reading|read|seance)\w*\s*,?\s+"
                rf"(?:(?!(?:i|think|believe|feel|guess|reckon|suspect|bet)\b)\w+\s+){{0,5}}?"
                rf"(?:on|of|for|showed|shows|says|said|was|is|revealed|reveals|that)?\s*"
                rf":?\s*{_WHO}(?:'s)?\s*,?\s*(?:is|was|=|:|-|,|as)?\s*(?:an?\s+)?{_SPECIES}\b",
                0.9,
            ),
            # a medium's reading with the execution first: "our executed player yesterday, Rashid, was a werewolf"
            (
                rf"\b(?:executed|lynched|hanged|hang|hung|exiled|voted out)\b[^.⟨]{{0,30}}?,?\s*{_WHO}\s*,?\s+(?:{_WHO2}\s+)?"
                rf"(?:was|is|be)\s+(?:an?\s+)?{_SPECIES}\b",
                0.9,
            ),
            (
                rf"{_WHO},\s*(?:who was\s+|who got\s+)?(?:executed|lynched|hanged|exiled|voted out)[^,]{{0,25}},\s*(?:was|is)\s+(?:an?\s+)?{_SPECIES}\b",
                0.9,
            ),
            (rf"\bnight\s+(?:one|two|three|four|\d)\s*[,:]\s*{_WHO}\s*[-:=,]\s*(?:an?\s+)?{_SPECIES}\b", 0.9),
            (
                rf"{_WHO}\s+(?:was|is)\s+my\s+(?:first|second|third|last|latest|\w+)?\s*(?:check|divination|result|read)\s*[-:,=]\s*(?:an?\s+)?{_SPECIES}\b",
                0.9,
            ),
            # "Sanna, werewolf" after "my vision last night:"
            (
                rf"\b(?:vision|check|divination|result|reading)\w*(?:\s+\w+){{0,3}}\s*:\s*{_WHO}\s*[,:=-]?\s*(?:is\s+)?(?:an?\s+)?{_SPECIES}\b",
                0.9,
            ),
            # a medium's reading: "Pablo, who we hanged yesterday, was a werewolf"
            (
                rf"{_WHO},?\s+(?:who|whom)\s+(?:we\s+|was\s+|got\s+|were\s+)?(?:\w+\s+){{0,3}}?"
                rf"(?:executed|lynched|hanged|hung|voted out|exiled|eliminated|voted|lost)(?:\s+\w+){{0,4}},?\s+"
                rf"(?:was|is|turned out|came back)\s+(?:to be\s+)?(?:an?\s+)?{_SPECIES}\b",
                0.95,
            ),
            (
                rf"{_WHO}\s*(?:-|,)\s*(?:lynched|executed|hanged|exiled|voted out)\s+\w+\s*(?:-|,)\s*was\s+(?:an?\s+)?{_SPECIES}\b",
                0.9,
            ),
            (
                rf"{_WHO}\s+(?:\w+\s+)?(?:executed|lynched|hanged|exiled),?\s+(?:result|reading)\s+(?:is|was|:)\s*{_SPECIES}\b",
                0.9,
            ),
        ],
        "context_result": [
            (rf"(?:^|[.!;]\s*){_WHO}\s*,\s*(?:an?\s+)?{_SPECIES}\s*(?:[.!;]|$)", 0.8),
            (
                rf"{_WHO}\s*\((?:executed|lynched|hanged|voted out|killed|attacked)[^)]{{0,15}}\)\s*(?:was|is|=|:)\s*(?:an?\s+)?{_SPECIES}\b",
                0.85,
            ),
            # "Farid, whom we sent to the gallows yesterday, was - alas - an honest human soul"
            (
                rf"{_WHO}\s*,\s*(?:who|whom|the\s+[a-z]+|our|poor)\b[^,.;!?⟨]{{0,50}}?,\s*(?:was|is|came back|flipped|returned)\s*"
                rf"(?:-?\s*(?:alas|sadly|i regret to say|unfortunately|i'm afraid|i fear)\s*-?\s*,?\s*)?(?:as\s+)?(?:an?\s+)?"
                rf"(?:(?!not\b|no\b|never\b)[a-z]+\s+)?{_SPECIES}\b",
                0.85,
            ),
            (
                rf"\b(?:n\d|night\s+(?:one|two|three|\d))\s+was\s+{_WHO}\s*,?\s*(?:also\s+)?(?:an?\s+)?{_SPECIES}\b",
                0.85,
            ),
            (
                rf"\b(?:n\d+|night\s+(?:\d|one|two|three|four|five))\s*(?:check|result)?\s*[:,]?\s*{_WHO}(?:\s*[,:=.-]\s*|\s+)(?:an?\s+)?{_SPECIES}\b",
                0.85,
            ),
            (
                rf"{_WHO}\s*,\s*(?:executed|lynched|voted out|exiled|hanged)(?:\s+(?:yesterday|today|last night|on day \w+))?\s*[:,=-]\s*(?:an?\s+)?{_SPECIES}\b",
                0.85,
            ),
            (rf"\bn\d+\s*[:,]?\s*{_WHO}\s+(?P<sp>h|w|human|wolf|werewolf|white|black)\b", 0.85),
            (
                rf"{_WHO}\s+(?:is\s+|was\s+)?(?:confirmed\s+)?{_SPECIES}\s+(?:by|from)\s+my\s+(?:check|vision|divination|reading|result)",
                0.9,
            ),
            (rf"{_WHO}\s*(?:\([^)]{{0,20}}\)\s*)?=\s*(?P<sp>w|h|ww)\b", 0.85),
            (rf"(?:^|:\s*|[.,;]\s*){_WHO}\s+(?P<sp>h|w)\s*(?:[.,;!]|$)", 0.85),
            (rf"{_WHO}\s+read\s+(?:as\s+)?(?:an?\s+)?{_SPECIES}\b", 0.85),
            # shorthand and bare results, read as results only beside a claim or words of seeing
            (
                rf"(?:\bn\d+\b\s*(?:result)?\s*:?\s*)?{_WHO}(?:'s)?\s*(?:\([^)]{{0,15}}\)\s*)?(?:=|:|is:|\s-)\s*(?:an?\s+)?\"?{_SPECIES}\b",
                0.9,
            ),
            (rf"{_WHO}'s\s+(?:result|check|reading|divination)\s*(?::|=|is|was)\s*(?:an?\s+)?\"?{_SPECIES}\b", 0.9),
            (
                rf"{_WHO}\s+(?:was|is|got)\s+(?:divined|checked|seen|read|inspected)\s+(?:as\s+)?(?:an?\s+)?{_SPECIES}\b",
                0.9,
            ),
            (
                rf"{_WHO}\s+(?:is\s+|was\s+)?(?:an?\s+)?\"?{_SPECIES}\"?\s+(?:according to|per|on|from|in)\s+(?:my|last night's|the|our)\s+"
                rf"(?:\w+\s+)?(?:check|vision|divination|reading|result)",
                0.9,
            ),
            (rf"(?:^|[.,;:]\s*|\bn\d+\s+){_WHO}\s+(?P<sp>human|white|black|werewolf|wolf)\s*(?:[.,;!]|$)", 0.85),
            (
                rf"{_WHO}(?:'s|\s+is|\s+was|\s+came back|\s+comes back|\s+came up|\s+showed up as|\s+showed|\s+reads as|\s+turned out)\s+"
                rf"(?:to be\s+)?(?:an?\s+)?(?P<x>\"?){_SPECIES}\b(?!\s+(?:side|team|claim))"
                rf"(?=\s*(?:on|in|from|per|according to)\s+my\s+(?:check|vision|divination|reading|result)|\s*$|\s*[,.!;]|\s+(?:so|and|but|too|i)\b)",
                0.8,
            ),
        ],
        "context_guarded": [
            # beside a guardian claim: "I stood over Pedro till dawn", "I sat outside Ana's door"
            (
                rf"\bi\s+(?:stood|kept|sat|stayed|watched|waited)\s+(?:(?:guard|sentinel|watch|vigil|my\s+watch|my\s+vigil|up)\s+)?"
                rf"over\s+{_WHO}(?!'s)",
                0.85,
            ),
            (
                rf"\bi\s+(?:stood|kept|sat|stayed|watched|waited)\s+(?:(?:guard|sentinel|watch|vigil|my\s+watch|my\s+vigil|up)\s+)?"
                rf"(?:by|beside|with|outside)\s+{_WHO}(?=\s+(?:all\s+night|last\s+night|through\s+the\s+night|till\s+dawn|"
                rf"until\s+dawn|overnight|that\s+night))",
                0.85,
            ),
            (rf"\b(?:outside|at|by)\s+{_WHO}'s\s+(?:door|house|bed|side|tent|cabin|room)", 0.85),
            (rf"\bi\s+did\s+the\s+same\s+for\s+{_WHO}", 0.8),
            (rf"\bi\s+defended\s+{_WHO}\s+(?:last night|n\d|on night \w+|tonight|that night)", 0.85),
        ],
        "guarded": [
            (rf"{_WHO}(?:'s|\s+has)\s+been\s+under\s+my\s+(?:protection|guard|shield)\b", 0.85),
            (rf"\b(?:last night|n\d|night \w+)\s*,?\s*{_WHO}\s+i\s+(?:protected|guarded|shielded|saved)\b", 0.85),
            (rf"(?:(?:^|[,;:.!]\s*)|\bi\s+)had\s+{_WHO}\s+covered\b", 0.85),
            (
                rf"\b(?:i\s+was|i\s+stayed|i\s+sat)\s+on\s+{_WHO}\s+(?:last\s+night|that\s+night|on\s+night\s+\w+|n\d)\b",
                0.8,
            ),
            (rf"\blast\s+night\s+i\s+was\s+on\s+{_WHO}", 0.8),
            (rf"\bi\s+was\s+(?:guarding|protecting|shielding)\s+{_WHO}", 0.85),
            (rf"\b(?:prot|protect(?:ed)?|guard(?:ed)?|save(?:d)?)\s*(?:n\d\s*)?[:=]\s*{_WHO}", 0.85),
            (
                rf"\b(?:last night|night (?:one|two|\d)|on (?:the )?(?:first|second|last) night|n\d)\s*,?\s*i\s+(?:protect|guard|save|shield)\w*\s+{_WHO}",
                0.85,
            ),
            (rf"\bmy\s+(?:protect|save|guard|shield)\s+(?:went|was|is|goes)\s+(?:on|to)\s+{_WHO}", 0.9),
            (rf"{_WHO}\s+(?:had|got)\s+my\s+(?:shield|protection|guard)\b(?!\s+up)", 0.9),
            (rf"\bstood\s+guard\s+over\s+{_WHO}", 0.9),
            # a night spent at a seat's door: "I stood at Henrik's door all night", "I kept watch again,
            # this time outside Seo-yeon's house"
            (
                rf"\bi\s+(?:stood|kept\s+(?:watch|guard|vigil)|stood\s+(?:watch|guard)|spent\s+the\s+(?:whole\s+)?night\s+"
                rf"(?:standing|sitting|watching|waiting))\s+(?:[\w,]+\s+){{0,4}}?(?:at|outside|by|before|beside|in\s+front\s+of)\s+"
                rf"{_WHO}'s\s+(?:door|doorway|doorstep|house|home|bed|bedside|cabin|tent|room|hut|gate|window)",
                0.85,
            ),
            (
                rf"{_WHO}\s+was\s+(?:the\s+one\s+i\s+(?:protected|guarded|shielded|saved)|under\s+my\s+(?:protection|guard|shield))",
                0.9,
            ),
            (rf"{_WHO}\s+my\s+pick\s+to\s+(?:guard|protect|shield)\b", 0.85),
            (
                rf"(?<!\bwhoever )(?<!\bwho )(?<!\banyone )(?<!\bsomeone )"
                rf"\b(?:protected|guarded|shielded|covered|saved|prot|guard(?:ed)? on|kept)\s+{_WHO}"
                rf"(?!\s+(?:from being|would|will))",
                0.9,
            ),
            (rf"\bmy (?:guard|protection|shield)\s+(?:was|went|is|on|:)\s*(?:on\s+)?{_WHO}", 0.9),
            (rf"\b(?:guarding|protect|guard|protecting)\s+{_WHO}\s+(?:last night|n\d|night \d|on night)", 0.85),
        ],
        "will_vote": [
            (rf"\bme\s*=\s*{_WHO}", 0.85),
            # the eleventh version: "Ken gets the rope from me", "Ken, pack your bags", "Ken's going home today",
            # "Ken's on the chopping block from me", "Ken for me as well", "Then let it be Hamid upon the gallows"
            (rf"{_WHO}\s+(?:gets|takes)\s+the\s+(?:rope|noose|axe|boot|chop|hammer)\s+from\s+me\b", 0.85),
            (rf"(?:^|[.!;:]\s*){_WHO}\s*,?\s+pack\s+(?:your|ya|yer|the|⟨\d+⟩'s)\s+bags\b", 0.85),
            (rf"\bpack\s+(?:your|ya|yer|⟨\d+⟩'s)\s+bags\s*,\s*{_WHO}", 0.85),
            (rf"{_WHO}(?:'s|\s+is)\s+going\s+home\s+today\b", 0.85),
            (rf"{_WHO}(?:'s|\s+is)\s+on\s+the\s+chopping\s+block\s+from\s+me\b", 0.85),
            (rf"(?:^|[.!;:]\s*){_WHO}\s+for\s+me\s+(?:as\s+well|too|today|again)\s*(?:[.!]|$)", 0.85),
            (
                rf"(?:^|[.!;:]\s*|\bthen\s+|\bso\s+)let\s+it\s+be\s+{_WHO}\s*(?:today|then|upon\s+the\s+gallows|on\s+the\s+gallows|"
                rf"to\s+the\s+gallows|for\s+the\s+(?:rope|noose|gallows))?\s*(?:[.!,;-]|$)",
                0.85,
            ),
            # a labelled line: "Vote: Ken", "V: Ken", "Vote target: Ken (quiet all day)", "Action: vote Ken"
            (
                rf"^\s*(?:vote|v|vtl|lynch|my vote|final vote|vote target|voting|action|today's vote|vote submitted|vote cast|"
                rf"vote locked(?: in)?|locking in|locked in)\s*[:=]\s*(?:vote\s+(?:for\s+)?|lynch\s+)?{_WHO}(?=\s*(?:[.!,;(]|$))",
                0.85,
            ),
            (
                rf"\bmy\s+(?:vote|ballot)\s+(?:shall|will|is going to|is gonna)\s+(?:fall|land|go)\s+(?:up)?on\s+{_WHO}",
                0.9,
            ),
            (rf"{_WHO}\s*=\s*vote\b", 0.85),
            (rf"\bvote\s+accordingly\s*[:-]\s*{_WHO}", 0.85),
            (rf"{_WHO}\s+is\s+the\s+one\s+i(?:'m|\s+am|'ll\s+be|\s+will\s+be)\s+voting\s+(?:for|against|out)\b", 0.9),
            (rf"\b(?:must|have to|gotta|got to|need to)\s+vote\s+(?:for\s+|out\s+)?{_WHO}(?!\s+(?:if|unless)\b)", 0.85),
            (rf"\bvote\s+stays\s+(?:on|with)\s+{_WHO}", 0.9),
            (rf"(?:^|[.,;:!]\s*)(?:so\s+)?{_WHO}\s+(?:vote|vote from me|for me|it is)\s*[.!]?\s*$", 0.8),
            (rf"(?:^|[.!]\s*)everyone\s+(?:on|onto|vote)\s+{_WHO}\s*(?:[.!]|$)", 0.85),
            (
                rf"\bi(?:'m| am)\s+(?:also\s+|now\s+|staying\s+)?on\s+{_WHO}(?=\s*(?:[.!,;]|$|today\b|now\b|for (?:the )?vote\b))",
                0.8,
            ),
            (rf"(?:^|[.,;:!]\s*)(?:and\s+)?on\s+{_WHO}\s*[.!]?\s*$", 0.8),
            (rf"\bgonna\s+go\s+(?:with\s+)?{_WHO}(?!'s)", 0.85),
            (rf"{_WHO}(?:'s|\s+is)\s+(?:our|my|the)\s+(?:lynch|execution|vote|hang)(?:\s+today)?\s*(?:[.!]|$)", 0.85),
            (rf"(?:^|[.,;:!]\s*){_WHO}\s+(?:today|for today|it is|then)\s*[.!]?\s*$", 0.8),
            (rf"(?:^|[.,;:!]\s*){_WHO}\s*,\s*(?:that's|that is)\s+my\s+vote", 0.85),
            (rf"{_WHO}\s+will\s+(?:receive|get|have)\s+my\s+(?:vote|ballot)", 0.9),
            (rf"\bput(?:ting)?\s+forward\s+{_WHO}", 0.85),
            (rf"\bhelp\s+me\s+(?:lynch|vote out|eliminate|execute)\s+{_WHO}", 0.85),
            (rf"{_WHO}\s+(?:has|have|gets|'ve got|have got|has got)\s+my\s+(?:vote|ballot)", 0.9),
            (rf"{_WHO}\s+is\s+where\s+my\s+(?:vote|ballot)\s+(?:lands|goes|is going|sits|stays)", 0.9),
            (rf"\bmy\s+(?:vote|ballot)\s+(?:is|was|will be)\s+cast\s+(?:for|on|against)\s+{_WHO}", 0.9),
            (rf"\bmy\s+(?:vote|ballot)\s+(?:today|tonight|now)\s*[:=]\s*{_WHO}", 0.9),
            (rf"\b(?:moving|moved|switching)\s+my\s+vote\b[^.]{{0,30}}[.!]\s*{_WHO}\s+gets\s+it\b", 0.85),
            (
                rf"\b(?:toss|tossing|throw|throwing|drop|dropping|slap|slapping|place|placing|lay|laying|putting)\s+"
                rf"my\s+(?:vote|ballot)\s+(?:on|onto|to|for|against|in|upon)\s+{_WHO}",
                0.9,
            ),
            (
                rf"\b(?:i|we)\b[^.,;⟨]{{0,30}}?\b(?:to|should|must|shall)\s+(?:eliminate|lynch|execute|exile|hang|vote out|"
                rf"get rid of)\s+{_WHO}",
                0.8,
            ),
            (
                rf"{_WHO}\s+(?:needs|has|must|should|ought)\s+(?:to\s+)?(?:go|be\s+(?:lynched|eliminated|executed|voted out|hanged|removed|gone))\b",
                0.85,
            ),
            (
                rf"\b(?:i(?:'m|\s+am)\s+)?(?:going|going with|putting up|putting)\s+(?:the\s+)?{_WHO}(?:\s+(?:lynch|wagon|up))?",
                0.8,
            ),
            (rf"\b(?:backing|joining|supporting|on)\s+the\s+{_WHO}\s+(?:lynch|wagon|vote|elimination)", 0.85),
            (rf"\bbacking\s+{_WHO}\s+(?:lynch|wagon|vote|elimination|execution|up)\b", 0.85),
            (rf"(?:^|[.,;:!]\s*)\+1\s+(?:on|for)?\s*{_WHO}", 0.85),
            (rf"(?:^|[.,;:!]\s*){_WHO}\s*,\s*final\s+answer", 0.85),
            (rf"\b(?:let's|let us|we)\s+(?:get|vote|kick|throw|send)\s+{_WHO}\s+(?:out|off|home)", 0.85),
            (rf"\bjoin\s+me\s+on\s+{_WHO}", 0.85),
            (rf"\bvote\s+{_WHO}\s+with\s+me\b", 0.85),
            (rf"\bcast\s+my\s+(?:vote|ballot)\s+(?:for|on|against|upon|onto)\s+{_WHO}", 0.9),
            # "I cast mine against you, Ken", "upon Ken I cast my lot", "I give my voice against Ken",
            # "my rope goes on Ken"
            (rf"\bcast\s+(?:mine|my\s+(?:lot|voice|stone))\s+(?:for|on|against|upon|onto)\s+{_WHO}", 0.85),
            (rf"\b(?:upon|on|against)\s+{_WHO}\s+(?:do\s+)?i\s+cast\s+my\s+(?:vote|ballot|lot|voice|stone)\b", 0.85),
            (rf"\bgive\s+my\s+(?:voice|vote|ballot)\s+(?:against|to)\s+{_WHO}", 0.85),
            (rf"\bmy\s+(?:rope|noose|ticket)(?:'s|\s+is|\s+goes)?\s+(?:in\s+)?(?:on|upon)\s+{_WHO}", 0.85),
            (rf"\bmy\s+vote\s+(?:goes|is going|now goes)\s+(?:on|onto|upon)\s+{_WHO}", 0.9),
            (rf"\bi\s+vote\s+(?:today\s+|now\s+)?(?:to|in|today|now)\s+{_WHO}(?!'s)", 0.85),
            (rf"\b(?:want|going)\s+to\s+vote\s+in\s+{_WHO}(?!'s)", 0.85),
            (rf"\bi(?:'m|\s+am)?\s+putting\s+{_WHO}\s+up\b", 0.85),
            (rf"(?:^|[.!]\s*){_WHO}\s*[.,]\s*(?:voting|lynch|vote|hammer)\s*[.!]?\s*$", 0.8),
            (
                rf"\b(?:i(?:'d| would)\s+like\s+(?:us|the village)\s+to|we\s+should|the village should)\s+(?:lynch|eliminate|execute|vote out|hang)\s+{_WHO}",
                0.85,
            ),
            (rf"\bhammer(?:ing)?\s+(?:on\s+)?{_WHO}", 0.85),
            (
                rf"(?:^|[.,;:!]\s*){_WHO}\s+for\s+(?:me|the lynch|the noose|elimination|execution)(?:\s+today)?\s*(?:[.!,;]|$)",
                0.85,
            ),
            (
                rf"\b(?:gallows|noose|rope|hammer|my pick for the noose|my ballot|my pick)\s*(?:is\s+|for\s+|on\s+|goes to\s+|:\s*)?{_WHO}",
                0.85,
            ),
            (
                rf"{_WHO}\s+is\s+(?:my pick|my vote|where my vote goes|where i'm voting|where i am voting|who i'm voting|getting my vote)",
                0.9,
            ),
            (rf"\bon\s+the\s+{_WHO}\s+wagon\b", 0.85),
            # a wagon the speaker joins in the same breath: "Salma wagon, I'm on it", "Emma wagon, go, I'm first"
            (
                rf"(?:^|[.,;:!—–-]\s*){_WHO}\s+(?:wagon|train)\b\s*[,!.—–-]*\s*(?:(?:right now|now|go|let's go)\s*[,!.—–-]*\s*)?"
                rf"(?:i'?m\s+(?:on\s+it|in|first|aboard|the\s+first\s+vote)|count\s+me\s+in|all\s+aboard)\b"
                rf"(?=\s*(?:[,.!;—–-]|$|(?:too|now|lol|for\s+now|on\s+it)\b))(?![^.!;]*\?)(?![^.;]*\b(?:if|unless)\b)",
                0.85,
            ),
            (
                rf"\b(?:i'm\s+|i am\s+)?(?:going|staying on|sticking with|moving (?:it|my vote) to|switching to|switching my vote to|unvote \S+\s+)\s*{_WHO}(?!\s+(?:is|was|'s))",
                0.8,
            ),
            (rf"(?:^|[.,;:]\s*)(?:v|vote|eliminate|lynch|hang|execute|exile)\s+{_WHO}", 0.85),
            (rf"(?:^|[.,;:]\s*){_WHO}\s+(?:lynch|instead|it is)\b(?:\s+today)?\s*(?:[.!]|$)", 0.8),
            (
                rf"\bmy (?:vote|ballot)(?:'s|s| is)?\s+(?:today|now|still|going|this round|this time)\s+(?:is\s+|goes\s+|to\s+|on\s+)?(?:to\s+|for\s+)?{_WHO}",
                0.9,
            ),
            (rf"\b(?:vot(?:e|ing))\s+(?:for\s+|against\s+|on\s+|out\s+|to (?:lynch|execute|exile)\s+)?{_WHO}", 0.9),
            (rf"\b(?:final\s+)?vote\s*[:=]\s*{_WHO}", 0.9),
            (
                rf"\bmy (?:own\s+|final\s+)?vote(?:'s|s| is| goes| will go| will be| stays| remains| lands| will land)?\s*(?:to|for|on|against|with|:|=)?\s*"
                rf"(?:is\s+)?(?:on\s+)?{_WHO}",
                0.95,
            ),
            (rf"{_WHO}(?:\s+gets|\s+has|\s+will get|\s+is getting|'s getting|'s got)\s+my\s+(?:vote|ballot)", 0.95),
            (rf"{_WHO}\s+to\s+the\s+(?:gallows|noose|rope|chopping block|stake|pyre)\b", 0.85),
            (
                rf"\b(?:putting|put|moving|move|switching|switch)\s+(?:it|my vote|my ballot)\s+(?:on|to|onto)\s+{_WHO}",
                0.9,
            ),
            (
                rf"\b(?:let's|let us|we should|we must|we need to|everyone|everybody|y'all|all of us|time to|we have to)\s+"
                rf"(?:all\s+|just\s+|please\s+)?(?:vote(?:\s+out|\s+for|\s+against)?|lynch|execute|hang|eliminate|exile|get rid of)\s+"
                rf"{_WHO}",
                0.85,
            ),
            (
                rf"\bi(?:'ll| will|'m going to| am going to| want to| wanna|'m gonna| am gonna)?\s+(?:lynch|execute|hang|eliminate|exile)\s+{_WHO}",
                0.9,
            ),
            (rf"(?:^|[,.;:]\s*)(?:lynch|execute|hang)\s+{_WHO}", 0.85),
            (rf"\bi(?:'m|\s+am)\s+(?:lynching|hanging|executing|eliminating|exiling|hammering)\s+{_WHO}", 0.9),
            (rf"\b(?:is|'s)\s+(?:the\s+|a\s+)?(?:wolf|scum)\s+(?:lynch|vote)\s+{_WHO}", 0.8),
            (rf"\bmy\s+vote\s+puts\s+{_WHO}\s+(?:at|to|on)\b", 0.85),
        ],
        "liar": [
            # the ninth version: "Olga's seer claim na fake", "I find Farhan's seer claim not credible"
            (
                rf"{_WHO}'s\s+{_ROLE}\s+claim\s+(?:is\s+|was\s+|na\s+|looks\s+|seems\s+|sounds\s+)?"
                rf"(?:totally\s+|obviously\s+|clearly\s+|so\s+)?(?:fake|false|a lie|bogus|not credible|made up|a bluff|nonsense)\b",
                0.85,
            ),
            (rf"\bi\s+find\s+{_WHO}'s\s+{_ROLE}\s+claim\s+(?:not\s+credible|fake|false|bogus|unconvincing)\b", 0.85),
            (
                rf"{_WHO}(?:'s|\s+is)\s+(?:a\s+)?(?:were)?wolf\s+(?:who|that)\s+(?:fake[- ]?claimed|faked|is faking|falsely claimed)\s+"
                rf"(?:the\s+|a\s+)?{_ROLE}\b",
                0.9,
            ),
            (
                rf"{_WHO}(?:'s|\s+is)\s+(?:a\s+)?(?:were)?wolf\s+and\s+(?:a\s+)?(?:fake|false|lying|bogus)\s+{_ROLE}\b",
                0.9,
            ),
            (rf"{_WHO}(?:'s|\s+is)?\s+(?:a\s+)?(?:wolf\s+)?faking\s+(?:the\s+|as\s+)?{_ROLE}\b", 0.85),
            (
                rf"{_WHO}(?:'s|\s+is)?\s+(?:a\s+)?(?:(?:were)?wolf\s+)?fake[- ]?claim(?:ing|ed|s)?\s+(?:the\s+|as\s+)?{_ROLE}\b",
                0.85,
            ),
            (rf"\bi(?:'m|\s+am)\s+not\s+buying\s+{_WHO}'s\s+{_ROLE}\s+claim", 0.85),
            (
                rf"{_WHO}(?:'s|\s+is)\s*(?:not|n't|no\b)\s+(?:the\s+|a\s+)?(?:real\s+)?{_ROLE}\s*[-,.;!]*\s*(?:because\s+|since\s+)?"
                rf"(?:i\s+am\b|it(?:'s|\s+is)\s+me\b|'?tis\s+(?:i|me)\b)",
                0.9,
            ),
            (
                rf"{_WHO}\s+(?:is\s+)?claim(?:ing|s|ed)?\s+{_ROLE}\s*,?\s+but\s+i(?:'m|\s+am)\s+(?:the\s+)?(?:real\s+|true\s+)?(?P=role)\b",
                0.9,
            ),
            (rf"{_WHO}(?:'s|\s+is)\s+(?:\w+\s+)?(?:not|n't|no)\s+(?:the\s+|a\s+|our\s+)?{_ROLE}\b", 0.8),
            (
                rf"{_WHO}'s\s+\"?(?:{_ROLE}\s*)?\"?\s*(?:claim|cc|co|act|story)\"?\s+(?:is|was|feels|looks|seems|sounds)\s+(?:a\s+|totally\s+|completely\s+)?"
                rf"(?:fake|false|a lie|lie|bs|bogus|a bluff|bluff|invented|made up|nonsense|rubbish|garbage|fiction)\b",
                0.85,
            ),
            (
                rf"{_WHO}(?:'s|\s+is|\s+was)?\s+(?:(?!\w+ed\b)\w+\s+)?(?:a\s+|the\s+|an\s+)?(?:fake|false|lying|bogus|counterfeit|fraud\w*|"
                rf"pretend|phony|phoney|sham)\s+{_ROLE}\b",
                0.95,
            ),
            (
                rf"{_WHO}(?:'s|\s+is)\s+(?:\w+\s+)?(?:not|n't|no)\s+(?:the\s+|a\s+|our\s+)?(?:real|true|actual|genuine)\s+{_ROLE}\b",
                0.95,
            ),
            (
                rf"{_WHO}(?:'s|\s+is)\s+(?:a\s+)?(?:fake|liar|lying|fraud|impostor)\s*(?:,|-)?\s*not\s+(?:the|a)\s+{_ROLE}\b",
                0.9,
            ),
            (
                rf"{_WHO}(?:'s|\s+is|\s+was)?\s+(?:lying|lied)\s+about\s+(?:being\s+)?(?:the\s+|a\s+|their\s+|his\s+|her\s+)?{_ROLE}\b",
                0.95,
            ),
            (rf"{_WHO}'s\s+{_ROLE}\s+(?:claim\s+)?(?:is|was)\s+(?:a\s+)?(?:fake|false|lie|bs|bogus)\b", 0.9),
            (rf"\bfake\s+{_ROLE}\s+{_WHO}", 0.9),
            (rf"{_WHO}\s+(?:claims?|claimed|is claiming)\s+(?:the\s+|to be\s+(?:the\s+)?)?{_ROLE}\s+falsely\b", 0.9),
            (
                rf"{_WHO}\s+(?:falsely|wrongly)\s+(?:claims?|claimed|claiming)\s+(?:to\s+be\s+)?(?:the\s+)?{_ROLE}\b",
                0.9,
            ),
            (
                rf"{_WHO}(?:'s|\s+is|\s+has)?\s+(?:faking|fake\s*claiming|faked|fake-claimed|pretending to be)\s+(?:being\s+)?(?:the\s+|a\s+)?{_ROLE}\b",
                0.9,
            ),
            (rf"{_WHO}\s+(?:is\s+)?(?:lie|lies)\s+about\s+(?:being\s+)?(?:the\s+|a\s+)?{_ROLE}\b", 0.9),
            (
                rf"{_WHO}(?:'s|\s+is|\s+was)\s*(?:not|n't)\s+(?:telling the truth|being honest|being truthful|honest|truthful)\s+"
                rf"about\s+(?:being\s+)?(?:the\s+|a\s+)?{_ROLE}\b",
                0.9,
            ),
            (rf"{_WHO}\s*[=:,]\s*(?:a\s+|the\s+)?(?:fake|bogus|false|lying|fraud)\s+{_ROLE}\b", 0.9),
            (rf"{_ROLE}\b[^.?!⟨]{{0,40}}?{_WHO}(?:'s|\s+is)\s+the\s+(?:fake|false|lying|bogus)\s+one\b", 0.85),
            (rf"{_WHO}'s\s+{_ROLE}\s+claim\s*(?:-|,|:)\s*it(?:'s|\s+is)\s+(?:false|fake|a lie|bogus|made up)\b", 0.9),
            (rf"{_WHO}\s+(?:can't|cannot|can not|couldn't)\s+be\s+(?:the\s+)?(?:real\s+)?{_ROLE}\b", 0.85),
            (
                rf"{_WHO}'s\s+\"?(?:claim|result|check|reading|story|co|vision)\"?(?:\s+on\s+(?:me|⟨\d+⟩))?\s+(?:is|was)\s+(?:a\s+|totally\s+|completely\s+)?"
                rf"(?:fake|false|a lie|lie|bs|bogus|made up|fabricated|invented)\b",
                0.85,
            ),
            (rf"{_WHO}(?:'s|\s+is)\s+(?:not|n't)\s+(?:a|the)\s+(?P<own>){_ROLE}\b", 0.85),
            (rf"\bi(?:'m| am)\s+(?:the\s+)?(?:real\s+|true\s+)?{_ROLE},?\s+not\s+{_WHO}", 0.9),
            (rf"{_WHO}(?:'s|\s+is)\s+(?:not|n't)\s+(?:the\s+)?{_ROLE},?\s+i\s+am\b", 0.9),
            # a rival called a fake with no role named: the speaker's own claimed role (or an accusation)
            (rf"{_WHO}\s+(?:has\s+)?(?:stole|stolen|steals|is stealing|took|has taken)\s+my\s+(?:role|claim)\b", 0.85),
            (
                rf"(?<!calling )(?<!called )(?<!calls )(?<!call )"
                rf"{_WHO}(?:'s|\s+is|\s+was)?\s+(?:(?!\w+ed\b)\w+\s+)?(?:a\s+|the\s+|an\s+)?(?:fake|impostor|imposter|liar|fraud|lying|lies|lied|lie|pretending)\b(?!-)"
                rf"(?!\s+(?:about|to|that)\b)(?!\s+{_ROLE})",
                0.85,
            ),
        ],
        "accuses": [
            # the possessed is on the wolves' side: "Olga was the possessed, I'm sure", "Esperanza = possessed 100%",
            # "so Luca's the possessed, probably" (not "either he was the possessed or ...", "if", a question)
            (
                rf"(?:^|[.,;:!—–-]\s*)(?:and\s+|so\s+|but\s+|also\s+)?(?:since\s+|because\s+|cause\s+|as\s+)?"
                rf"(?:maybe\s+|probably\s+|i\s+(?:think|bet|reckon|believe|guess)\s+)?{_WHO}(?:'s|\s+is|\s+was|\s*=)\s+"
                rf"(?:(?:obviously|clearly|probably|prob|definitely|def|surely|likely|maybe|100%|totally)\s+)?(?:the\s+|a\s+)?"
                rf"possessed\b(?!\s+(?:by|of)\b)(?!'s)(?![^.!;]*\?)(?![^.;]*\b(?:or|unless|if|says|said|according)\b)"
                rf"(?![^.;,]*\bfak)(?![^.;]*\b(?:i\s+was\s+wrong|not\s+sure|lol\s+no|jk)\b)",
                0.8,
            ),
            # a wolf said in passing, as an apposition: "Ken, a werewolf, does not suspect me", "Ken the wolf wants me dead"
            (
                rf"{_WHO}(?=\s*,\s*(?:a|the|our|one)\s+(?:(?:obvious|clear|likely|sure|known|certain)\s+)?(?:were)?wolf\s*,)",
                0.8,
            ),
            (
                rf"(?:^|[;:]\s*)(?:and\s+|but\s+|so\s+)?{_WHO}(?=\s+the\s+(?:were)?wolf\s+(?!(?:is|was|or|and|if|hunter|"
                rf"theory|idea|claim|accusation|story|talk|thing|narrative|angle|case|call|seer|read|label)\b)[a-z]+)",
                0.8,
            ),
            # the eleventh version: "I'm calling her a wolf", "I name Ken a traitor"
            (
                rf"\b(?:i'm\s+|i\s+am\s+|i\s+)(?:call(?:ing)?|nam(?:e|ing)|brand(?:ing)?|label(?:l?ing)?)\s+{_WHO}\s+"
                rf"(?:a|an|the|our)\s+(?:(?:were)?wolf|liar|fake|fraud|traitor|scum|snake)\b",
                0.85,
            ),
            # the ninth version: "I find Rory suspect", "Chidi being this quiet is giving wolf",
            # "Rory is in on it", "Dmitri claim so fast one, very suspicious leh"
            (
                rf"\bi\s+find\s+{_WHO}\s+(?:very\s+|quite\s+|rather\s+|a bit\s+)?(?:suspect|suspicious|shady|guilty|wolfy)\b",
                0.85,
            ),
            (rf"{_WHO}[^.⟨]{{0,40}}?\bis\s+giving\s+(?:wolf|werewolf|scum|sus)\b", 0.8),
            (rf"{_WHO}(?:'s|\s+is|\s+was)\s+in\s+on\s+it\b", 0.8),
            (
                rf"^\s*(?:and\s+|also\s+)?{_WHO}\s+[^.⟨?,]{{1,40}}?,\s*(?:very|so|quite|super|really|damn)\s+"
                rf"(?:suspicious|sus|sketchy|shady|fishy)\b(?!\s+(?:of|that|about|how|why|to)\b)",
                0.8,
            ),
            (
                rf"{_WHO}\s+is\s+the\s+one\s+(?:dodging|hiding|pushing|lying|stirring|avoiding|deflecting|bussing|faking)\b",
                0.8,
            ),
            (rf"{_WHO}(?:'s|\s+is)\s+giving\s+(?:off\s+)?(?:big\s+|major\s+|strong\s+)?(?:wolf|scum|evil|sus)\b", 0.8),
            (
                rf"(?:^|[.,;:!]\s*)(?:idk\s*,?\s*)?{_WHO}\s+(?:prob|probably|def|definitely|likely|surely|100%)\s+(?:a\s+|the\s+)?"
                rf"(?:wolf|werewolf|scum|sus)\b",
                0.8,
            ),
            (rf"\bmakes?\s+{_WHO}\s+(?:my|our)\s+(?:top|main|first|prime|number one)\s+(?:wolf|suspect|scum)\b", 0.85),
            (rf"\bthe\s+(?:main\s+|top\s+|biggest\s+)?suspect\s+is\s+{_WHO}", 0.8),
            (rf"{_WHO}(?:'s|\s+has|\s+is)\s+(?:been\s+)?(?:acting\s+|being\s+)?suspiciously\s+[a-z]+", 0.8),
            (
                rf"^\s*{_WHO}\s*[:=]\s*(?:very\s+|pretty\s+|super\s+|likely\s+|probably\s+)?(?:suspicious|sus|scum|scummy|wolf|wolf-leaning|wolfish|evil|shady)\b",
                0.85,
            ),
            (
                rf"{_WHO}\s+(?:feels|seems|looks|reads|sounds)\s+(?:a bit\s+|a little\s+|kinda\s+|kind of\s+|very\s+|so\s+|really\s+|pretty\s+|quite\s+|super\s+)?(?:wolf|wolfish|scummy|sus|evil|shady)\b",
                0.85,
            ),
            (
                rf"{_WHO}(?:'s|\s+is)\s+looking\s+(?:\w+\s+){{0,2}}(?:wolf|wolfy|scummy|suspicious|shady|sus|sketchy|guilty|evil)\b",
                0.8,
            ),
            (rf"{_WHO}(?:'s|\s+is|\s+has)\s+(?:been\s+)?wolfing\b", 0.8),
            (
                rf"{_WHO}(?:'s|\s+is)\s+(?:the\s+)?(?:likeliest|most likely|obvious|prime)\s+(?:wolf|werewolf|suspect|scum)\b",
                0.85,
            ),
            (rf"\bi(?:'m|\s+am)\s+(?:\w+\s+){{0,2}}(?:uneasy|worried|nervous)\s+about\s+{_WHO}(?!'s)", 0.8),
            (rf"\bmy\s+(?:doubts|suspicions)\s+(?:are|lie|rest|fall|sit)\s+(?:on|with)\s+{_WHO}", 0.85),
            (rf"\bi(?:'m|\s+am)\s+looking\s+(?:hard|closely|long and hard|very closely)\s+at\s+{_WHO}", 0.8),
            (
                rf"{_WHO}(?:'s|\s+is)\s+the\s+(?:one|player|person)\s+i\s+(?:doubt|suspect|distrust)\s+(?:the\s+)?most\b",
                0.85,
            ),
            (rf"{_WHO}(?:'s|\s+is)\s+(?:at\s+)?(?:the\s+)?top\s+of\s+my\s+(?:list|suspect list|wolf list)\b", 0.85),
            # "the one I don't trust is Salma", "Salma is the player I can't trust" ("the one I trust least" is
            # a ranking, no accusation)
            (
                rf"\b(?:the\s+(?:one|player|person|guy|girl)|who)\s+i\s+(?:don't|do not|dont|can't|cannot)\s+trust"
                rf"(?:\s+(?:at all|one bit|an inch))?\s+(?:is|=|:)\s+{_WHO}(?!'s)",
                0.85,
            ),
            (
                rf"{_WHO}(?:'s|\s+is)\s+the\s+(?:one|player|person)\s+i\s+(?:don't|do not|dont|can't|cannot)\s+trust\b",
                0.85,
            ),
            (rf"\b(?:can't|cannot)\s+shake\s+my\s+(?:doubts|suspicions)\s+(?:about|of)\s+{_WHO}", 0.85),
            (rf"\bmy\s+gut\s+(?:says|tells me|is on|points to|points at)\s+{_WHO}(?!\s*(?:is|'s|seems|was)\b)", 0.8),
            (rf"{_WHO}(?:'s|\s+is)\s+the\s+one\s+(?:hiding|lying|hiding something)\b", 0.85),
            (rf"{_WHO}(?:'s|\s+is)\s+the\s+one\s+i'?d\s+(?:look at|poison|lynch|execute|vote out)\b", 0.85),
            (rf"\blook\s+at\s+{_WHO}\s+instead\b", 0.8),
            (
                rf"{_WHO}(?:\s+on the other hand)?\s+(?:smells|reeks|stinks)\s+(?:like|of)\s+(?:a\s+)?(?:were)?(?:wolf|scum)",
                0.85,
            ),
            (
                rf"{_WHO}'s\s+(?:pushes|votes|reads|posts|logic|questions|answers)\s+(?:are|look|seem|feel|read)\s+(?:\w+\s+){{0,2}}"
                rf"(?:wolfy|scummy|shady|suspicious|off|fishy|sketchy)\b",
                0.8,
            ),
            (
                rf"(?:^|[.,;:!]\s*){_WHO}\s+(?:very|so|really|too|super|kinda)\s+(?:suspicious|sus|shady|sketchy|scummy|wolfy)",
                0.8,
            ),
            (
                rf"\bi\s+find\s+{_WHO}\s+(?:(?!less|least|not|no)\w+\s+)?(?:suspicious|shady|sketchy|scummy|wolfy|fishy)\b",
                0.85,
            ),
            (rf"(?:^|[.,;:!]\s*){_WHO}\s+(?:really\s+)?(?:worries|bothers|troubles)\s+me\b", 0.8),
            (rf"(?:^|[.,;:!]\s*){_WHO}\s+has\s+me\s+(?:worried|nervous|suspicious)\b", 0.8),
            (rf"\b(?:have|got|having)\s+(?:my\s+|serious\s+|real\s+)?(?:doubts|suspicions)\s+about\s+{_WHO}", 0.85),
            (rf"\bmy\s+suspicion\s+(?:falls|rests|lands|sits|is)\s+on\s+{_WHO}", 0.85),
            (rf"{_WHO}(?:'s|\s+is)\s+my\s+(?:wolf|wolf pick|top wolf|main wolf|number one wolf)\b", 0.85),
            (rf"{_WHO}(?:'s|\s+is|\s+has\s+been|'s\s+been)\s+(?:\w+\s+)?(?:shifty|slippery)\b", 0.8),
            (rf"\bmy\s+eyes?\s+(?:is|are|stays?)\s+on\s+{_WHO}", 0.85),
            (rf"{_WHO}\s+strikes\s+me\s+as\s+(?:a\s+)?(?:wolf|werewolf|suspicious|shady|evil|scum|scummy)\b", 0.85),
            (rf"\bi\s+(?:no)\s+trust\s+{_WHO}", 0.8),
            (rf"\bi\s+consider\s+{_WHO}\s+(?:to\s+be\s+)?(?:a\s+)?(?:wolf|werewolf|scum|suspicious|evil)", 0.85),
            (rf"\bmakes?\s+{_WHO}(?:,[^,]{{0,50}},)?\s+my\s+(?:prime\s+|top\s+|main\s+|biggest\s+)?suspect", 0.85),
            (rf"\bi\s+(?:do\s+not|don't|dont|can't|cannot)\s+trust\s+{_WHO}", 0.85),
            (
                rf"{_WHO}(?:'s|\s+is|\s+has\s+been|\s+keeps?)\s+(?:\w+\s+)?(?:acting|playing|talking|behaving|deflecting|lying|hiding|voting)\s+like\s+(?:a\s+)?(?:wolf|werewolf|scum)",
                0.85,
            ),
            (
                rf"{_WHO}'s\s+(?:behaviou?r|push|vote|voting|defen[cs]e|story|claim|play)\s+(?:screams|reads|looks|smells|feels|is)\s+(?:\w+\s+)?(?:wolf|wolfy|scummy|scum|evil|shady|suspicious)",
                0.8,
            ),
            (rf"\bi\s+smell\s+(?:a\s+)?(?:wolf|werewolf|scum)\s+(?:in|on)\s+{_WHO}", 0.85),
            (rf"\bmy\s+money(?:'s|\s+is)\s+on\s+{_WHO}", 0.85),
            (rf"{_WHO}(?:'s|\s+is)\s+(?:the\s+)?(?:most|very|super|really)\s+suspicious", 0.85),
            (rf"{_WHO}\s+(?:has|'s)\s+(?:wolf|werewolf|scum)\s+written\s+all\s+over", 0.85),
            (
                rf"{_WHO}(?:'s|\s+is|\s+has\s+been)\s+(?:\w+\s+)?(?:buddying|pocketing|protecting|covering for|defending)\s+(?:the\s+)?(?:wolves|wolf|scum)",
                0.8,
            ),
            (rf"{_WHO}\s+(?:has\s+)?voted\s+with\s+the\s+(?:wolves|wolf)", 0.8),
            (rf"{_WHO}(?:'s|\s+is|\s+has\s+been)\s+(?:\w+\s+)?lying\s+through\s+(?:their|his|her)\s+teeth", 0.85),
            (rf"{_WHO}(?:'s|\s+is)\s+(?:\w+\s+)?(?:sketchy|evil|suspicious|sus|shady|scummy)(?:\s+af)?\b", 0.8),
            (rf"{_WHO}(?:'s|\s+is)\s+(?:the\s+)?(?:last|other|second|final)\s+(?:scum|wolf|werewolf)", 0.85),
            (rf"{_WHO}(?:'s|\s+is)\s+(?:clearly\s+|obviously\s+|surely\s+)?one\s+of\s+(?:them|the\s+wolves)", 0.8),
            (
                rf"{_WHO}\s+and\s+{_WHO2}\s+(?:are|were|feel like|look like|seem like|seem to be)\s+(?:\w+\s+)?(?:partners|working together|together|a team|in it together|the wolves|both wolves|wolf partners)",
                0.8,
            ),
            (rf"(?:^|[.,;:]\s*){_WHO}\s*[:=]?\s*(?:s|scum|scummy|wolf|wolfy)\s*(?=[.,;!]|$)", 0.8),
            (rf"{_WHO}\s*:\s*(?:scum|wolf)\s*read\b", 0.85),
            (rf"{_WHO}(?:'s|\s+is|\s+has)\s+(?:been\s+)?(?:\w+\s+)?(?:wolfy|scummy|shady|sketchy|sus)\b", 0.8),
            (rf"\b(?:scum\s*read|wolf\s*read)\s+(?:on|for)\s+{_WHO}", 0.85),
            (rf"{_WHO}(?:'s|\s+is)?\s+(?:a\s+|my\s+)?(?:scum\s*read|wolf\s*read)\b", 0.85),
            (
                rf"{_WHO}(?:'s|\s+is|\s+has been|\s+keeps?)\s+(?:\w+\s+)?(?:hiding something|acting (?:shady|scummy|suspicious|wolfy))",
                0.8,
            ),
            (rf"{_WHO}\s+pings?\s+me\s+as\s+(?:a\s+)?(?:wolf|werewolf|scum|evil)", 0.85),
            (rf"\bi(?:'ve| have)?\s+got\s+{_WHO}\s+as\s+(?:a\s+)?(?:wolf|werewolf|scum)", 0.85),
            (rf"{_WHO}\s+(?:is|'s)\s+(?:\w+\s+)?on\s+the\s+(?:wolf|werewolf|evil)\s+(?:team|side)\b", 0.85),
            (
                rf"{_WHO}\s+(?:is|'s)\s+the\s+one\s+who(?:'s| is| has been)\s+(?:been\s+)?(?:\w+\s+)?(?:scummy|shady|lying|suspicious|wolfy)",
                0.8,
            ),
            (
                rf"{_WHO}(?:\s+(?:just|really|totally|definitely|so|also|still|honestly|clearly|obviously))?"
                rf"(?:'s|\s+is|\s+seems|\s+looks|\s+feels|\s+must be|\s+has to be|\s+might be|\s+could be|\s+sounds|"
                rf"\s+smells|\s+reads|\s+'s gotta be|'s got to be|\s+is gotta be|\s+gotta be|\s+got to be|\s+na|\s+be|\s*=|\s+are)"
                rf"(?:\s+(?:so|very|really|kinda|kind of|pretty|super|definitely|def|probably|clearly|totally|likely|both|all|"
                rf"obviously|surely|100%|for sure|most likely|like|almost certainly|also|too|just|more|the most))*\s+"
                rf"(?:an?\s+|the\s+|our\s+|one of the\s+)?(?:were)?(?:wol(?:f|ves)|evil|sus\w*|suspicious|shady|fishy|scummy|scum|"
                rf"lying|a liar|liar|off|black|dodgy|sketchy|werewolf)\b(?!\s+(?:side|team|claim)\b)",
                0.85,
            ),
            (
                rf"\b(?:i\s+)?(?:(?:strongly\s+|really\s+|still\s+|also\s+)?suspect(?:ing)?|distrust|doubt|am suspicious of|'m suspicious of|"
                rf"suspicious of|sus of|have a bad feeling about|got a (?:weird|bad|strange) feeling about|"
                rf"have a (?:weird|bad|strange) feeling about|am wary of|'m wary of|wary of|not buying|don't buy|"
                rf"side-?eye(?:ing)?|my eye on|eyes on|point(?:ing)? at|accuse|accusing|(?:something(?:'s| is)\s+)?off (?:with|about))\s+{_WHO}",
                0.85,
            ),
            (
                rf"\bmy\s+(?:top\s+|main\s+|prime\s+|biggest\s+|number one\s+|#1\s+|first\s+)?(?:suspect|wolf read|scum read|"
                rf"wolf pick|wolf guess)\s*(?:is|=|:|remains|stays)\s*{_WHO}",
                0.9,
            ),
            (
                rf"{_WHO}(?:,\s*(?:who|whom)[^,]{{0,60}},)?\s+is\s+my\s+(?:top\s+|main\s+|prime\s+|biggest\s+|number one\s+|#1\s+)?(?:suspect|wolf read|scum read)",
                0.9,
            ),
            (
                rf"(?:^|[.,;:!]\s*|\bi think\s+){_WHO}\s+(?:(?:is\s+)?(?:definitely|probably|def|totally|100%|surely|so|very|is)\s+)?"
                rf"(?:wolf|sus|black|evil|scum|scummy|werewolf)\b(?:\s+(?:imo|tbh|for sure|to me))?\s*(?:[.,;!]|$)",
                0.8,
            ),
            (rf"{_WHO}\s+(?:is\s+)?(?:lie|lies|lied|lying)\s*(?:[.,;!]|$)", 0.8),
            (
                rf"{_WHO}\s+and\s+{_WHO2}\s+(?:both\s+|all\s+)?(?:are|feel like|look like|seem like|must be|are probably)\s+(?:the\s+|both\s+)?"
                rf"(?:wolf|wolves|werewolves|wolf pair|werewolf pair|evil)",
                0.85,
            ),
            (
                rf"\bi\s+(?:think|believe|feel|bet|guess|reckon)\s+{_WHO}(?:'s|\s+is)\s+(?:a\s+|the\s+)?(?:were)?wolf\b",
                0.9,
            ),
        ],
        "defends": [
            (
                rf"{_WHO}(?:'s|\s+is)?\s+(?:lookin|looking|looks|seems|seeming)\s+(?:pretty\s+|very\s+|so\s+)?clean\b",
                0.8,
            ),
            (
                rf"{_WHO}'s\s+(?:result|claim|check|reading|results)\s+(?:is|was|looks|seems)\s+(?:(?!not\b|never\b|hardly\b|less\b|no\b|barely\b|far\b)\w+\s+)?"
                rf"(?:real|correct|right|legit|true|solid|genuine|consistent|credible)\b",
                0.8,
            ),
            (rf"{_WHO}'s\s+(?:result|claim|check)\b[^.,;!?⟨]{{0,20}}?\bfits\b", 0.75),
            (
                rf"\bbelieve\s+{_WHO}'s\s+(?:check|claim|result|reading|results)\b"
                rf"(?!\s+(?:is|was|seems|looks)\s+(?:\w+\s+)?(?:fake|false|wrong|a lie|bs|bogus|made up|off|suspicious|not)\b)",
                0.85,
            ),
            (
                rf"{_WHO}\s+is\s+(?:(?!not\b|never\b|hardly\b|less\b|no\b|barely\b|far\b)\w+\s+)?the\s+most\s+(?:village|town|trustworthy|honest)\b",
                0.8,
            ),
            (rf"(?:^|[.,;:!]\s*){_WHO}\s+i\s+(?:believe|trust)\s*(?:[.,;!]|$)", 0.8),
            (rf"\bbelieve\s+(?:more\s+)?(?:to|in)\s+{_WHO}", 0.8),
            # "I'm backing Yara all the way": behind a player, not a vote ("backing the Yara wagon" is one)
            (rf"\bbacking\s+{_WHO}(?!\s+(?:lynch|wagon|vote|elimination|execution|up)\b)", 0.8),
            (rf"{_WHO}(?:'s|\s+has)\s+got\s+my\s+(?:trust|faith|confidence)\b", 0.85),
            (rf"{_WHO}\s+has\s+my\s+(?:full\s+)?(?:trust|faith|confidence)\b", 0.85),
            (
                rf"\btreat(?:ing)?\s+{_WHO}\s+as\s+(?:genuine|legit|real|honest|town|village|trustworthy|confirmed|cleared|innocent)\b",
                0.8,
            ),
            (
                rf"{_WHO}(?:'s|\s+is)\s+(?:also\s+|pretty\s+|rock\s+|really\s+)?solid\b(?!\s+(?:wolf|scum|evidence|case))",
                0.75,
            ),
            (rf"^\s*(?:trust|trusted|town read|townread|cleared|clear)\s*[:=]\s*{_WHO}(?=\s*(?:[.!,;(]|$))", 0.85),
            (rf"^\s*{_WHO}\s*[:=]\s*(?:town|village|trusted|cleared|clear|confirmed human|safe)\s*(?:[.!,;(]|$)", 0.85),
            (rf"{_WHO}\s+is\s+no\s+(?:wolf|werewolf)\b", 0.85),
            (
                rf"{_WHO}\s+(?:is|are|'s|'re)\s+(?:(?:also|clearly|surely|definitely)\s+)?(?:on\s+)?(?:the\s+|our\s+)?(?:village|town|good)\s+(?:side|team)\b",
                0.85,
            ),
            (
                rf"{_WHO}\s+(?:both\s+)?(?:look|looks|seem|seems|feel|feels|read|reads)\s+(?:very\s+|pretty\s+|so\s+)?(?:village|town|villager)\b",
                0.85,
            ),
            (
                rf"{_WHO}(?:'s|\s+has)\s+been\s+(?:\w+\s+)?(?:reasoning|playing|acting|talking|voting)\s+like\s+(?:a\s+)?(?:villager|townie|town|village)\b",
                0.8,
            ),
            (rf"\b(?:inclined|tempted|willing|happy)\s+to\s+(?:believe|trust)\s+{_WHO}", 0.8),
            (
                rf"(?:^|[.,;:\n]\s*|\d[.)]\s*){_WHO}\s*-\s*(?:town|village|villager|townie|clear|cleared|good)\b(?!\s+(?:side|team))",
                0.8,
            ),
            (rf"{_WHO}(?:'s|\s+is)\s+(?:\w+\s+)?telling\s+the\s+truth\b", 0.85),
            (rf"(?:^|[.!?;]\s*)trusting\s+{_WHO}", 0.85),
            (rf"{_WHO}\s+(?:is\s+|'s\s+)?(?:legit|legitimate)\b(?!\s+(?:wolf|scum|werewolf))", 0.8),
            (rf"(?:^|[.,;:!]\s*){_WHO}(?:'s|\s+is)\s+real\s*(?:[,.!]|$)", 0.75),
            (rf"{_WHO}\s+(?:is\s+)?(?:cleared|confirmed town|confirmed village)\s+(?:for|to|in)\s+me\b", 0.8),
            (
                rf"{_WHO}(?:'s|\s+is|\s+seems|\s+looks|\s+sounds|\s+feels)\s+(?:\w+\s+)?(?:honest|genuine|sincere|trustworthy|truthful)\b"
                rf"(?!\s+(?:wolf|werewolf|liar|mistake))",
                0.8,
            ),
            (rf"{_WHO}\s*=\s*real\b(?!\s+(?:were)?(?:wolf|evil|scum))", 0.8),
            (rf"(?:^|[.,;:!]\s*){_WHO}\s+real\s*(?:[,.!]|$)", 0.75),
            (rf"\bi(?:'m| am)\s+trusting\s+{_WHO}", 0.85),
            (
                rf"\btreat(?:ing)?\s+{_WHO}\s+as\s+(?:confirmed\s+|cleared\s+)?(?:village|town|human|innocent|clear|cleared)\b",
                0.85,
            ),
            (rf"(?:^|[.,;:!]\s*){_WHO}\s+has\s+my\s+(?:full\s+)?trust\b", 0.85),
            (rf"\bi\s+take\s+{_WHO}\s+at\s+(?:their|his|her)\s+word\b", 0.85),
            (rf"\bi\s+(?:believe|think|feel)\s+{_WHO}\s+is\s+telling\s+the\s+truth\b", 0.85),
            (
                rf"{_WHO}(?:'s|\s+is|\s+seems)\s+(?:\w+\s+)?(?:fine|ok|okay|alright|good|a good guy|one of the good (?:guys|ones)|a reliable villager|townie|confident village)\b(?!\s+(?:at|with))",
                0.75,
            ),
            (rf"(?:^|[.,;:!]\s*){_WHO}\s+(?:ok|fine|good|true|clear)\s*(?=[.,;!]|$)", 0.75),
            (rf"\bleave\s+{_WHO}\s+alone\b", 0.8),
            (rf"{_WHO}\s+(?:has\s+been|is|'s\s+been)\s+(?:\w+\s+)?straight\s+with\s+us", 0.8),
            (
                rf"\bi(?:'m|\s+am)\s+(?:confident|sure|certain)\s+{_WHO}(?:'s|\s+is)\s+(?:village|town|human|good|innocent)",
                0.85,
            ),
            (rf"\bi\s+consider\s+{_WHO}\s+(?:\w+\s+)?(?:trustworthy|village|town|honest|innocent|reliable)", 0.85),
            (rf"{_WHO}(?:'s|\s+is)\s+the\s+(?:real|true)\s+(?:one|deal)\b", 0.85),
            # "the real seer is Yuna"
            (rf"\bthe\s+(?:real|true|genuine|actual)\s+{_ROLE}\s+(?:is|was)\s+{_WHO}(?!'s)", 0.85),
            (rf"(?:^|[.,;:]\s*){_WHO}\s*[:=]?\s*(?:t|town|village|good)\s*(?=[.,;!]|$)", 0.8),
            (rf"{_WHO}\s*:\s*(?:town|village)\s*read\b", 0.85),
            (rf"{_WHO}\s+(?:is\s+)?(?:\w+\s+)?(?:town|village)\s+(?:for|to)\s+me\b", 0.8),
            (rf"{_WHO}(?:'s|\s+is)?\s+(?:a\s+|my\s+)?(?:solid\s+|strong\s+)?town\s*read\b", 0.85),
            (rf"\b(?:town\s*read|reading)\s+(?:on\s+)?{_WHO}(?:\s+as\s+(?:town|village|human|good))?", 0.8),
            (
                rf"{_WHO}(?:'s|\s+is|\s+has)\s+(?:been\s+)?(?:\w+\s+)?(?:solid|consistent|helpful|clean|clear|fine)(?:\s+all\s+game)?(?:\s+in my book)?(?:\s+to me)?\s*(?:[.,;!]|$|so\b)",
                0.75,
            ),
            (rf"{_WHO}(?:'s|\s+is)\s+(?:\w+\s+)?(?:clear|clean|town|good)\s+in\s+my\s+book", 0.85),
            (rf"\bi(?:'d| would)?\s+vouch\s+for\s+{_WHO}", 0.85),
            (
                rf"{_WHO}(?:'s|\s+is)\s+the\s+one\s+i\s+(?:actually\s+|really\s+|do\s+)?trust\b(?!\s+(?:least|less))",
                0.85,
            ),
            (
                rf"\b(?:the\s+(?:one|player|person|guy|girl)|who)\s+i\s+(?:actually\s+|really\s+|do\s+)?trust"
                rf"(?:\s+(?:the\s+)?most)?\s+(?:is|=|:)\s+{_WHO}(?!'s)",
                0.85,
            ),
            (rf"{_WHO}'s\s+(?:\w+\s+)?claim\s+(?:checks out|is fine|looks real|is real|is legit|seems real)", 0.85),
            (rf"\bi(?:'m| am)\s+(?:reading|with)\s+{_WHO}", 0.75),
            (
                rf"\b(?:i\s+)?(?:(?:fully\s+|completely\s+|really\s+|still\s+|also\s+)?trust|vouch for|believe in|am confident in|'m confident in|"
                rf"side with|am siding with|'m siding with|stand with|clear|cleared)\s+{_WHO}(?!\s+(?:is|was)\s+(?:a\s+)?(?:wolf|evil))"
                rf"(?!\s+(?:less|any less|even less))",
                0.85,
            ),
            (
                rf"{_WHO}(?:'s|\s+is|\s+seems|\s+looks|\s+feels|\s+reads|\s+must be|\s+are|\s*=|\s+be|\s+na|\s+feel like|\s+feels like)"
                rf"(?:\s+(?:so|very|really|pretty|definitely|def|probably|clearly|totally|obviously|confirmed|surely|100%|"
                rf"for sure|most likely|also|too|just|both|all))*\s+"
                rf"(?:an?\s+|the\s+)?(?:village|villager|town|townie|human|innocent|good|clean|white|honest|trustworthy|legit|"
                rf"safe|cleared|clear|not (?:a |the )?(?:were)?wolf|not evil|confirmed human|on our side)\b"
                rf"(?!\s+(?:side|team|claim|role|by))",
                0.8,
            ),
            (rf"(?:^|[.,;:]\s*){_WHO}\s*,?\s+i\s+(?:fully\s+|really\s+|completely\s+|do\s+)?(?:trust|believe)\b", 0.8),
            (rf"\bi\s+(?:\w+\s+)?(?:believe|think)\s+{_WHO}(?:'s|\s+is)\s+(?:the|a)\s+(?:seer|medium)\b", 0.8),
            (rf"{_WHO}\s+is\s+(?:confirmed|cleared)\b", 0.85),
            (
                rf"\bi\s+(?:\w+\s+)?(?:believe|beleive)\s+{_WHO}(?!'s|\s+(?:is|was|'s|might|could|must|has|had|said|says|when|about))",
                0.8,
            ),
            (
                rf"\bi\s+(?:\w+\s+)?(?:believe|think)\s+{_WHO}(?:'s|\s+is)\s+(?:the\s+)?(?:true|real|honest|genuine)\b",
                0.85,
            ),
            (
                rf"{_WHO}(?:'s|\s+is|\s+are|\s*=)?\s+(?:both\s+|all\s+)?(?:the\s+)?(?:true|real|legit|genuine|correct(?=\s+(?:one|seer|medium)))"
                rf"(?:\s+{_ROLE}|\s+one)?\b(?:\s+imo)?(?=\s*(?:[.,;!]|$|imo|to me|for me|in my view|in my book|⟨))",
                0.8,
            ),
        ],
        "attack": [(rf"\blet(?:'s| us)\s+(?:attack|kill|eat|bite)\s+{_WHO}", 0.9)],
    }
    return {kind: [(re.compile(pattern), conf) for pattern, conf in items] for kind, items in p.items()}


_HUMAN_SET = frozenset(
    {"human", "white", "innocent", "clean", "villager", "village", "town", "good", "cleared", "green", "h"}
)


def _species(word: str) -> Species:
    w = word.strip().lower()
    return Species.HUMAN if w.startswith("not") or w in _HUMAN_SET else Species.WEREWOLF


# ----------------------------------------------------------------------------- sentences and clauses


def _sentences(s: str) -> Iterator[str]:
    """Sentences of a normalised line, each with its closing `?` kept (a question reads as one)."""
    for part in re.split(r"(?<=[.!?])\s+|\n+|(?<=[!?])(?=\S)|\s+[/|]\s+", s):
        part = part.strip()
        if part:
            yield part


_CLAUSE_BREAK = re.compile(r",|;|\s-\s|\s+(?:but|so|because|since|while|though|although|whereas|yet|then|and)\s+")


def _clauses(sentence: str) -> list[tuple[int, int]]:
    """(start, end) of each clause of `sentence`."""
    cuts = [0]
    for m in _CLAUSE_BREAK.finditer(sentence):
        cuts.append(m.end())
    cuts.append(len(sentence) + 1)
    return list(itertools.pairwise(cuts))


_PLANTED = re.compile(
    r"<\|[^|<>]{0,30}\|>.*?(?:<\|[^|<>]{0,30}\|>|$)"  # chat-template turns: <|im_start|>system ... <|im_end|>
    r"|<(\w+)[^<>]{0,80}>.*?</\1\s*>"  # markup elements with their content
    r"|<[^<>]{0,80}>"  # stray tags
    r"|\{[^{}]{0,400}\}"  # JSON objects
    r"|```.*?(?:```|$)",  # fenced blocks
    re.DOTALL,
)


_TABLE_RULE = re.compile(r"(?m)^[ \t]*\|?(?:[ \t]*:?-{3,}:?[ \t]*\|)+[ \t]*(?::?-{3,}:?[ \t]*)?$")
"""The rule under a markdown table's header (`|---|---|`)."""
_TABLE_ROW = re.compile(r"(?m)^[ \t]*\|[^\n]*\|[^\n]*\|[ \t]*$")
"""A line of a markdown table: between bars, with at least two cells."""


def _table_rows(s: str, speaker: int | None) -> str:
    """`s` with the rows of a markdown table that are not the speaker's own left out.

    A table pasted into talk (a header, its `|---|` rule, "| Ken | seer | Ann human |") is a record
    of what others claimed and found, not a statement of the speaker's. A row whose first cell is
    "me", "I" or the speaker's own name is kept: there the speaker writes about themself. Lines
    with bars but no table rule ("c seer | N1 Ann = human | vote Ken") are shorthand, read as said.
    """
    if not _TABLE_RULE.search(s):
        return s

    def row(m: re.Match[str]) -> str:
        first = m.group(0).strip().strip("|").split("|")[0].strip(" *_")
        own = first in ("me", "i", "myself") or (speaker is not None and first == f"⟨{speaker}⟩")
        return m.group(0) if own else ""

    return _TABLE_RULE.sub("", _TABLE_ROW.sub(row, s))


def _strip_planted(s: str) -> str:
    """`s` without what was planted for a machine reader (markup, chat-template turns, JSON, code fences).

    What such a span says is nobody's statement; the speaker's own words around it are still read.
    """
    while True:  # nested JSON comes off one level at a time
        stripped = _PLANTED.sub(" . ", s)
        if stripped == s:
            return s
        s = stripped


def _injected(sentence: str) -> bool:
    """Whether a sentence is written at a machine reader: a log row, JSON, markup, a note to the parser."""
    s = sentence.strip()
    if re.match(r"^(?:\[\d+\]|\{|<|//|```|-\s|\d+\s*,\s*(?:talk|whisper|vote|divine))", s):
        return True
    if re.search(r"[{}<>]|\[\d+\]\s*day", s):
        return True
    return bool(_INJECTION.search(s))


_NOT_A_NAME = frozenset(
    {"a", "an", "the", "my", "such", "like", "am", "i'm", "im", "being", "be", "real", "total", "what", "me"}
)
"""Words before a clown or a lying face that make it a word of the sentence, not a read of a seat."""

_IF_IDIOM = re.compile(r"\s+(?:ask\s+me|will\b|please\b|must\s+know|want\s+to\s+know|were\s+wondering)")
"""What follows "if you" in a phrase that is no condition ("if you ask me", "if you must know")."""
_PRONOUN = re.compile(r"⟨\d+⟩|\b(?:he's|she's|you're|he|she|him|you|your|her)\b(?!\s*⟩)")


_OWNED = re.compile(
    r"\s+(?:pick|vote|read|claim|result|theory|wagon|push|check|black|white|call|accusation|defen[cs]e|case|"
    r"lynch|clear|counter(?:claim)?)\b"
)
"""What follows a seat named as the thing someone did ("his Zanele pick", "her Ken vote")."""
_OTHER_GENDER = {(w, "his") for w in ("she", "she's", "her")} | {(w, "her") for w in ("he", "he's", "him")}
"""A pronoun and an owner's word that cannot be the same person ("his Zanele pick ... voting her": Zanele)."""


_SPOKEN_OF = re.compile(
    r"(?:'s\b|\s+(?:is|was|has|had|does|did|claimed|claims|said|says|voted|votes|seems|looks|and|who|keeps|kept)\b)"
)
"""What follows a seat that a sentence opens on as its subject, not as whom it speaks to ("Ros is real")."""


def _pronouns(s: str, speaker: int | None) -> str:
    """He, she, him and her as the seat last named before them, you as the seat the sentence opened on.

    A guess that holds in talk about one player at a time; a line that juggles two seats may be
    misread (the labelled sets measure how often).
    """
    last: str | None = None
    addressee: str | None = None
    # a seat named as what another did ("his Zanele pick"), and the owner's pronoun ("his"): a later
    # "him" is the owner, a later "her" the seat so named
    owned: tuple[str, str] | None = None
    out: list[str] = []
    at = 0
    for m in _PRONOUN.finditer(s):
        word = m.group(0)
        if word.startswith("⟨"):
            # (not "I warned her Ken is a wolf": "her" there is whom the speaker told)
            owner = re.search(r"\b(his|her|their|my|your|our)\s+$", s[: m.start()])
            if word != f"⟨{speaker}⟩" and owner and _OWNED.match(s[m.end() :]):
                owned = (word, owner.group(1))
            elif word != f"⟨{speaker}⟩":
                last, owned = word, None
                if re.search(
                    r"(?:^|[.!?;]\s*|\b(?:thanks|thank you|ty|hey|hi|ok|okay)\s*,?\s*)$", s[: m.start()]
                ) and not (_SPOKEN_OF.match(s[m.end() :])):
                    addressee = word  # a sentence that opens on a seat speaks to it (not "Ros is real, ...")
            continue
        if word.startswith("you") and re.search(r"\b(?:of|to all of|all of|both of)\s*$", s[: m.start()]):
            continue
        if word == "you" and re.search(r"\bas\s*$", s[: m.start()]) and re.match(r"\s+(?:are|do)\b", s[m.end() :]):
            continue  # "I'm as worried about the wolves as you are": a comparison, no seat's deed
        if word == "you" and re.search(r"\bif\s*$", s[: m.start()]) and _IF_IDIOM.match(s[m.end() :]):
            continue  # "if you ask me": a marker of opinion, said to no one ('_IF' keeps it no condition)
        vocative = last is not None and re.search(rf"{re.escape(last)}\s*,?\s*$", s[: m.start()]) is not None
        if word.startswith("you") and vocative:
            addressee = last  # "@Pavel you're the wolf": said to the seat just named
        target = addressee if word.startswith("you") and addressee is not None else last
        if owned is not None and (word, owned[1]) in _OTHER_GENDER:
            target = owned[0]
        if target is None:
            continue
        after = s[m.end() : m.end() + 12]
        if word == "her" and re.match(r"\s*⟨", after):
            continue  # "her Ken vote", "I warned her Ken is a wolf": no seat of its own
        if (
            word == "her"
            and re.match(r"\s+[a-z]", after)
            and not re.match(
                r"\s+(?:too|today|now|again|out|then|either|instead|first|yet|tonight|a|an|the|and|or|but|because|as|for|in|on|off|up)\b",
                after,
            )
        ):
            continue  # a possessive ("her result"): left as it is
        rep = {"he's": f"{target}'s", "she's": f"{target}'s", "you're": f"{target} is", "your": f"{target}'s"}.get(
            word, target
        )
        end = m.end()
        are = re.match(r"\s+are\b", after)
        if word == "you" and are:
            rep, end = f"{target} is", m.end() + are.end()
        out.append(s[at : m.start()] + rep)
        at = end
    out.append(s[at:])
    return "".join(out)


def _others_vote(before: str, speaker: int | None) -> bool:
    """Whether the words before "vote" make it another seat's ("they put their vote on Rin").

    "their vote" (unless the speaker is among them), "Ken's vote", and "his" or "her" vote after
    another seat's name in the same clause ("Ken put his vote on Rin"); not the speaker speaking of
    themself ("Seun is putting his vote on Ken" by Seun), a "her vote" with no one named ("this
    reporter will be casting her vote against Ken"), or "your vote" (the speaker urging the table:
    "put your vote on Ken").
    """
    if re.search(r"\btheir\s+$", before):  # "Ann and Rin put their vote on Ken", said by Rin: the speaker's too
        return speaker is None or f"⟨{speaker}⟩" not in before
    own = re.search(r"⟨(\d+)⟩'s\s+$", before)
    if own:
        return int(own.group(1)) != speaker
    if re.search(r"\b(?:his|her)\s+$", before):
        named = re.findall(r"⟨(\d+)⟩", before)
        return bool(named) and int(named[-1]) != speaker
    return False


def _third_person(before: str, m: _Match, words: str, speaker: int | None = None) -> bool:
    """Whether the words just before a verb-first match give it another subject ("Ken and Mio are voting Rin")."""
    if m.kind in ("divined", "identified"):
        # "Felix checked him wolf", "Ken's vision showed Ann human", "the medium's result confirms
        # Dmitri was a wolf", "N1: Jiahui->Yiran=wolf": another's result, told by the speaker
        owner = (
            r"(?:⟨\d+⟩(?:'s)?|\b(?:you|we|they|his|her|their|(?:the\s+)?(?:seer|medium|psychic)(?:'s)?))\s+"
            r"(?:(?:also|just|already|then|has|had|first|last|latest|own|will|'ll|would|can|could)\s+){0,2}"
        )
        if words.startswith("⟨"):
            return bool(
                re.search(r"⟨\d+⟩\s*(?:->|→|>|=)\s*$", before)
                or re.search(owner + r"(?:result|check|reading|vision|divination)\w*\b[^.;:⟨]*$", before)
            )
        return bool(re.search(owner + "$", before))
    if (
        words.startswith("⟨")
        or words.startswith("i")
        or m.kind not in ("will_vote", "defends", "accuses", "guarded", "claim")
    ):
        return False
    if m.kind == "claim":
        return bool(re.search(r"⟨\d+⟩\s*(?:,|:)?\s*$", before))
    if m.kind == "will_vote" and _others_vote(before, speaker):
        return True
    if re.fullmatch(r"\s*(?:⟨\d+⟩\s*,?\s*){2,}", before) or (
        re.fullmatch(r"\s*(?:⟨\d+⟩\s*,?\s*)+", before) and re.match(r"(?:let's|let us|help me|join me)\b", words)
    ):
        return False  # seats called at the start ("@Rithy @Bopha let's get Vibol out"): spoken to, not subjects
    return bool(
        re.search(
            r"(?:⟨\d+⟩|\b(?:he|she|they|who|everyone else|others|people|(?:the\s+)?(?:were)?wolves))(?:'s|'re)?\s+"
            r"(?:(?:are|is|was|were|also|both|all|will|would|have|has|had|keep|kept|just|then|still|already)\s+){0,2}$",
            before,
        )
    )


_ACTED = r"(?!(?:claimed|faked|lied|pretended|falsely|fake|is|was|has|had)\b)[a-z]+ed\b"
"""A past act after a seat's name: the seat did something (not a lie it told)."""


def _partners(seat: int) -> re.Pattern[str]:
    """The seats named together with `seat` ("Ken and Ann", "Ann & Ken")."""
    return re.compile(rf"(?<=⟨{seat}⟩)\s*(?:and|&)\s*⟨(\d+)⟩|⟨(\d+)⟩(?=\s*(?:and|&)\s*⟨{seat}⟩)")


def _alternatives(seat: int) -> re.Pattern[str]:
    """`seat` named as one of two seats the speaker chooses between ("Ken or Ann", "maybe Ann, maybe Ken")."""
    return re.compile(rf"⟨{seat}⟩\s*,?\s*(?:or|maybe)\s+⟨\d+⟩|⟨\d+⟩\s*,?\s*(?:or|maybe)\s+⟨{seat}⟩")


def _vocative(seat: int) -> re.Pattern[str]:
    """A sentence that speaks to `seat` and says nothing of it.

    One that opens by speaking to it, naming it no more ("Ken I've been honest", "For Ken: ...", "Ken
    whom do you suspect?"), that only hands it the word ("Good question Ken.", "Over to Ken."), or
    that mourns it ("Sleep well Ken.", "Ken this time.").
    """
    return re.compile(
        rf"^\s*(?:(?:for|to|re|@|to answer|answering|in reply to|as for your question)\s*⟨{seat}⟩\s*:|"
        rf"⟨{seat}⟩\s*[,:!]?\s+(?:i|i'm|i've|i'll|i'd|i am|my|me|please|listen|look|hold on|hey|give|tell|explain|"
        rf"answer|share|name|what|who|whom|whose|why|how|where|which|here's|here is|since you ask|to answer|"
        rf"glad you asked|good question|fair question|are you serious|come on|"
        rf"be (?:straight|honest|clear|real) with)\b|"
        rf"⟨{seat}⟩\s*[,:!]?\s+(?:respectfully\s+|honestly\s+|with respect\s+)?(?:you're|you are|you've|you have|you "
        rf"should|you need to|you must|that's|that is|this is|it's|it is)\b(?=[^.!?]*\b(?:wrong|mistaken|elsewhere|mistake|"
        rf"not fair|unfair|way off|me wrong|wrong about me)\b)|"
        rf"⟨{seat}⟩\s*[,:!]?\s+⟨(?!{seat}⟩)\d+⟩|"
        rf"(?:(?:good|fair|great|nice|quick|a|one more|another|my)\s+question\s+(?:for\s+|to\s+)?|over\s+to\s+|"
        rf"(?:let's|let us|i want to|i'd like to)\s+hear\s+from\s+|(?:now\s+)?your\s+turn\s*,?\s*)⟨{seat}⟩\s*[.!:]"
        rf"|⟨{seat}⟩\s*,?\s+your\s+turn\s*[.!]"
        # or that mourns it ("Sleep well Ken.", "My heart goes out to Ken.", "Let's win this for Ken!")
        rf"|(?:(?:sleep|rest)\s+(?:well|easy|in\s+peace)\s+|rip\s+|poor\s+|(?:goodbye|farewell)\s+|so\s+long\s+|"
        rf"so\s+for\s+|(?:my|our)\s+(?:heart|hearts|thoughts)\s+(?:goes|go|are|is)\s+(?:out\s+)?(?:to|with)\s+|"
        rf"(?:let's|let\s+us|we'll|we\s+will|we\s+must|we\s+have\s+to)\s+(?:win|do)\s+(?:this|it)\s+for\s+|"
        rf"(?:we\s+must\s+|let's\s+|let\s+us\s+)?(?:honou?r|remember)\s+)⟨{seat}⟩\s*(?:[.!]|by\s+\w+ing\b)"
        rf"|⟨{seat}⟩\s+this\s+time\s*[.!])(?![^.!?]*⟨{seat}⟩)"
    )


def _one_role(sentences: Sequence[str]) -> str:
    """The one role `sentences` (as `TalkReader.role_sentences` writes them) have words for, or ""."""
    roles = {m for x in sentences for m in re.findall(r"⟦(\w+)⟧", x)} - {"villager"}
    return roles.pop() if len(roles) == 1 else ""


_FIRST_PERSON = re.compile(r"\b(?:i|i'm|im|me|my|myself|mine)\b")
_ASKING = re.compile(r"\b(?:please|anyone|who|whoever|we need|waiting|none|nobody|no one|yet)\b")


def _own_role_word(sentences: Sequence[str], i: int, m: re.Match[str]) -> bool:
    """Whether the role word `m` of sentence `i` may be the speaker's claim, for the learned claim reader.

    Not in a question, a supposition, someone else's words or a quotation; not a possessive ("the
    seer's friend"); and in a sentence that speaks of the speaker, or is little more than the role
    word itself and answers no question about someone else ("What is Ken? Just a villager.").
    """
    sentence = sentences[i]
    if sentence.rstrip().endswith("?") or _not_own(sentence) or _quoted(sentence, m.start()):
        return False
    if re.match(r"'s\b", sentence[m.end() :]) or (
        re.match(r"\s+(?:claim|co)\b", sentence[m.end() :]) and not _FIRST_PERSON.search(sentence)
    ):
        return False  # "the seer's friend", "Seer claim, please.": about a role, not a claim of it
    if re.search(r"\b(?:not|no|never|nor|n't)\s+(?:(?:the|a|an|your|real|true)\s+){0,2}$", sentence[: m.start()]):
        return False  # "I'm no hunter", "not the seer": a denial
    if re.search(
        r"⟨\d+⟩(?:\s*(?:,|and)\s*⟨\d+⟩)*\s+(?:both\s+|all\s+|also\s+)?(?:claim\w*|is|are|was|were|says?|said)\b[^.;!?]*$",
        sentence[: m.start()],
    ):
        return False  # "Let me sum up: Ken and Ann claim the seer role": other seats' claims
    if _FIRST_PERSON.search(sentence):
        return True
    rest = re.findall(r"[a-z']+", sentence[: m.start()] + " " + sentence[m.end() :])
    after_question = i > 0 and sentences[i - 1].rstrip().endswith("?")
    return len(rest) <= 3 and not after_question and not _ASKING.search(sentence) and not re.search(r"⟨\d+⟩", sentence)


def _quoted(body: str, at: int) -> bool:
    """Whether position `at` lies inside a quotation in the first person (someone else's words)."""
    for q in re.finditer(r'"([^"]{1,200})"', body):
        if q.start() < at < q.end() and re.search(r"\b(?:i|i'm|my|me)\b", q.group(1)):
            return True
    return False


_VOTE_NO_SEAT = re.compile(
    r"\bvot(?:e|ing)\s+(?:accordingly|that way|on that basis)\b|\b(?:i'm|i am|i'll|i will)\s+hammering\b(?!\s+⟨)"
    r"|\bput(?:ting)?\s+the\s+hammer\s+down\b|,\s*hammering\s*[.!]*$"
)
"""A vote that names no seat ("Nomvula is scum, I'm hammering"): for the one seat the line accuses."""

_REASON = re.compile(
    r"\b(?:(?:were)?wol(?:f|ves|fy|fish)|scum\w*|sus|suss|sussy|suspicious|suspect|shady|sketchy|fishy|dodgy|"
    r"liar|lying|lied|evil|mislynch\w*|lob[oa]s?|lupo|loup|possessed|projecting|rehearsed|"
    r"changed\s+(?:his|her|their)\s+story|(?:doesn't|does not|don't)\s+add\s+up)\b"
)
"""Words that give a vote a reason against its seat ("a pure scum-tell. Hammer on Zukauskas", "Parece lobo. I vote her.")."""


_VERDICT = re.compile(
    r"^\s*(?:(?:and|so|honestly|imo|tbh|yeah|like)\s*,?\s*)*(?:that'?s|that\s+is|this\s+is|it'?s|classic|textbook|total|pure|such)\s+"
    r"(?:\w+\s+){0,3}?(?:(?:were)?wolf(?:y|ish)?|scum\w*|sus|suspicious|shady|sketchy|fishy)"
    r"(?:\s+(?:behaviou?r|play|move|tell|logic|energy|vibes?|stuff))?\b"
    r"|^\s*(?:(?:were)?wolf(?:y|ish)?|scummy|shady|sketchy|sus)\s+(?:behaviou?r|play|move|af|as hell|tell|energy|vibes?)\b"
    r"|^\s*(?:(?:very|so|super|kinda|kind of|pretty|low\s*key|high\s*key|hella|mad|real)\s+)?"
    r"(?:(?:were)?wolf(?:y|ish)?|scummy|shady|sketchy|sus|suspicious|fishy)\s*[.!]*$"
)
"""A sentence that names no seat and calls what was just said of one wolfish ("That's textbook wolf behaviour.")."""


_VICTIM = re.compile(r"\b(?:attacked|killed|died|dead|eaten|executed|lynched|murdered|bitten)\b")
"""What befalls a seat rather than what it does: a verdict after it is on the killers, not on the seat."""

_FELL = re.compile(
    r"⟨\d+⟩\s+(?:\w+\s+){0,2}?(?:attacked|killed|died|dead|eaten|executed|lynched|murdered|bitten)\b"
    r"|\b(?:attacked|killed|ate|eaten|executed|lynched|murdered|bit|bitten|lost)\s+⟨\d+⟩"
    r"|^(?!.*⟨\d+⟩).*" + _VICTIM.pattern
)
"""A sentence in which the seat it names is the one who fell (or that names a death and no seat): a verdict
after "Ivan died." is on the killers; one after "Gideon was weirdly happy when the guard died." is on Gideon."""

_BARE_VERDICT = (
    r"(?:(?:very|so|super|kinda|kind of|pretty|low\s*key|high\s*key|hella|mad|real)\s+)?"
    r"(?:scummy|shady|sketchy|sus|suspicious|fishy)(?:\s+(?:af|as hell))?\s*[.!]*$"
    r"|(?:(?:very|so|super|kinda|kind of|pretty|low\s*key|high\s*key|hella|mad|real)\s+)+(?:were)?wolf(?:y|ish)?\s*[.!]*$"
    r"|(?:were)?wolf(?:y|ish)?\s+(?:behaviou?r|play|move|af|as hell|tell|energy|vibes?)\s*[.!]*$"
)
"""A verdict of a word or three after a comma ("Zan has been fishing for claims all game, low key wolfy"); a bare
"wolf" is a result's ("Sanna, werewolf.")."""


def _verdicts(found: list[ReadStatement], sentences: list[str], speaker: int | None) -> list[ReadStatement]:
    """Accusations made by a verdict on the sentence before ("Ale follows whoever speaks last. Wolfy behaviour.").

    The sentence before must name exactly one seat (not the speaker, not one the line defends) and be
    no question or hypothesis (what it says the seat did or said is the evidence judged); the verdict
    names no seat and is not negated.
    """
    defended = {r.statement.target for r in found if r.statement.kind == "defends"}
    accused = {r.statement.target for r in found if r.statement.kind == "accuses"}
    out: list[ReadStatement] = []
    # a verdict in the same sentence after a comma is one too ("Amani hasn't said a word, that's kinda sus"),
    # and a sentence of punctuation alone ("?") is none
    parts = [
        p.strip()
        for x in sentences
        for p in re.split(r",\s*(?=(?:and\s+)?(?:that'?s|that\s+is|this\s+is)\s)|,\s*(?=" + _BARE_VERDICT + ")", x)
        if re.search(r"\w", p)
    ]
    for before, sentence in itertools.pairwise(parts):
        if "⟨" in sentence or sentence.endswith("?") or not _VERDICT.search(sentence) or _NEGATION.search(sentence):
            continue
        # a question before a verdict of a word or three is rhetorical ("Cosmin hasn't voted in 2 days, anyone
        # notice? Sus")
        if (before.endswith("?") and len(sentence.split()) > 3) or _HYPOTHETICAL.search(before) or _FELL.search(before):
            continue
        named = {int(t) for t in re.findall(r"⟨(\d+)⟩", before)}
        if len(named) != 1:
            continue
        (seat,) = named
        if seat == speaker or seat in defended or seat in accused:
            continue
        accused.add(seat)
        out.append(ReadStatement(Statement("accuses", seat), 0.75, sentence))
    return out


_CHARGE_QUESTION = re.compile(
    r"\b(?:is|isn'?t|was|wasn'?t)\s+(?:that|this|it)\s+(?:not\s+)?(?:exactly\s+|just\s+|precisely\s+)?"
    r"what\s+(?:an?\s+)?(?:(?:were)?wolf|(?:were)?wolves|possessed|scum)\b"
    r"|\b(?:apart|aside)\s+from\s+the\s+(?:were)?wolves\b"
    r"|\bwho\s+(?:else\s+)?(?:does|would|could)\s+(?:that|this|it)\s+(?:help|serve|benefit)\b.*\b(?:were)?wol(?:f|ves)\b"
)
"""A rhetorical question whose point is that someone is a werewolf ("Isn't that exactly what a wolf says?")."""


def _rhetorical_charges(found: list[ReadStatement], sentences: list[str], speaker: int | None) -> list[ReadStatement]:
    """Accusations made by a rhetorical question about one seat.

    "Why would Lena ask the medium to hide? Isn't that what a wolf says?": the charge (`_CHARGE_QUESTION`)
    is a question; the seat is the one other seat it names, or, where it names none, the one named by the
    question just before it. Not a seat the line defends or already accuses, not the speaker, and not a
    question that reports another's words.
    """
    defended = {r.statement.target for r in found if r.statement.kind == "defends"}
    accused = {r.statement.target for r in found if r.statement.kind == "accuses"}
    out: list[ReadStatement] = []
    for i, sentence in enumerate(sentences):
        if not sentence.endswith("?") or not _CHARGE_QUESTION.search(sentence) or _REPORTED.search(sentence):
            continue
        named = {int(t) for t in re.findall(r"⟨(\d+)⟩", sentence)} - {speaker}
        if not named and i > 0 and sentences[i - 1].endswith("?"):
            named = {int(t) for t in re.findall(r"⟨(\d+)⟩", sentences[i - 1])} - {speaker}
        if len(named) != 1:
            continue
        (seat,) = named
        if seat in defended or seat in accused:
            continue
        accused.add(seat)
        out.append(ReadStatement(Statement("accuses", seat), 0.75, sentence))
    return out


_FAKE_VERDICT = re.compile(
    rf"^\s*(?:(?:and|so|honestly|obviously|clearly|yeah|ok|okay)\s*,?\s*)*(?:that'?s\s+(?:a\s+)?|a\s+|totally\s+|obviously\s+|clearly\s+)?"
    rf"fake(?:\s+{_ROLE})?(?:\s+claim)?\b(?!\s+(?:news|it|out)\b)"
)
"""A sentence that names no seat and calls a claim just spoken of fake ("Fake seer.", "That's a fake claim")."""


def _fake_verdicts(
    found: list[ReadStatement], sentences: list[str], speaker: int | None, claims: set[str]
) -> list[ReadStatement]:
    """Liar calls made by a verdict on the sentence before ("Kwame says he's the seer. Fake claim.").

    The sentence before names exactly one seat (not the speaker); the role is the verdict's, else
    the one role the line speaks of, else the speaker's own claim of seer or medium.
    """
    line = " ".join(sentences)
    liars = {r.statement.target for r in found if r.statement.kind == "liar"}
    out: list[ReadStatement] = []
    for before, sentence in itertools.pairwise(sentences):
        m = _FAKE_VERDICT.search(sentence)
        if m is None or "⟨" in sentence or sentence.endswith("?") or _NEGATION.search(sentence):
            continue
        if before.endswith("?") or _HYPOTHETICAL.search(before):
            continue
        named = {int(t) for t in re.findall(r"⟨(\d+)⟩", before)}
        if len(named) != 1:
            continue
        (seat,) = named
        if seat == speaker or seat in liars:
            continue
        roles = (
            {ROLE_WORDS[m.group("role")]}
            if m.group("role")
            else {ROLE_WORDS[w] for w in _ROLE_ANY.findall(line)} - {"villager"}
        )
        if not roles:
            roles = claims & {"seer", "medium"}
        if len(roles) != 1:
            continue
        liars.add(seat)
        out.append(ReadStatement(Statement("liar", seat, role=next(iter(roles))), 0.75, sentence))
    return out


def _reasoned(found: list[ReadStatement], sentences: list[str]) -> list[ReadStatement]:
    """Accusations a line makes by a vote and a reason for it, and votes it makes by a reason and "vote accordingly".

    One vote, no seat accused, called a liar or found a werewolf, and a plain sentence with a
    wolf word that names the voted seat or no seat at all: the vote accuses its seat ("Sush has
    been way too calm. Wolf. Sushmita, you have my vote."). One seat accused and a vote that
    names no seat ("I will vote accordingly", "I'm hammering"): a vote for it.
    """
    kinds = [r.statement.kind for r in found]
    against = {
        r.statement.target
        for r in found
        if r.statement.kind in ("accuses", "liar")
        or (r.statement.kind == "divined" and r.statement.species == "werewolf")
    }
    defended = {r.statement.target for r in found if r.statement.kind == "defends"}
    if kinds.count("will_vote") == 0 and len(against) == 1 and "accuses" in kinds:
        (seat,) = against
        for sentence in sentences:
            if _VOTE_NO_SEAT.search(sentence) and not (_NEGATION.search(sentence) or _HYPOTHETICAL.search(sentence)):
                return [ReadStatement(Statement("will_vote", seat), 0.8, sentence)]
    if kinds.count("will_vote") != 1 or against:
        return []
    seat = next(r.statement.target for r in found if r.statement.kind == "will_vote")
    if seat in defended:
        return []
    for sentence in sentences:
        if sentence.endswith("?") or not _REASON.search(sentence):
            continue
        if _NEGATION.search(sentence) or _HYPOTHETICAL.search(sentence) or _REPORTED.search(sentence):
            continue
        named = {int(t) for t in re.findall(r"⟨(\d+)⟩", sentence)}
        if named <= {seat}:
            return [ReadStatement(Statement("accuses", seat), 0.75, sentence)]
    return []


_GRIEF = re.compile(
    r"\b(?:dodg\w*|hid(?:e|es|ing)|passiv\w*|desperate|quiet|silent|lurk\w*|push\w*|attack\w*|weird|random|weak|nothing|fake|"
    r"lazy|(?:feels?|felt|seems?|is|'s)\s+off|story|holes|defensive|eager\w*|rush\w*|fast|quick\w*|convenient\w*|script\w*|staged|stirr\w*|"
    r"coast\w*|parrot\w*|hedg\w*|excuses?|lame|copy|strange\w*|inconsistent|contradict\w*|flip\w*|chang\w*|"
    r"shift\w*|baseless|vague|late|reactive|panic\w*|deflect\w*|tunnel\w*|bus|mud|dirt|fishing|sheep\w*|"
    r"follow\w*|bandwagon\w*|wagon|omgus|opportunis\w*|slippery|smell\w*|stinks?|gut|vibes?|bad|worse|worst|"
    r"evasive|fluff|nonsense|lie|lies|blame\w*|steer\w*|trying|too\s+(?:much\s+)?(?!but|and|or|so|then|for|to)[a-z]+|insane|crazy|"
    r"not (?:one|a single)|always|chancer|shark|itchy|burnt|wobbly|guilt\w*|concerns?\s+about|bearish|"
    r"defend\w*|shout\w*|shepherd\w*|sarcas\w*|soft|loud|aggressive|overreact\w*|narrative|dirty)\b"
)
"""What a reason holds against a seat ("rusty voted first and then deleted it", "his push is based on nothing")."""

_GOOD_WORD = re.compile(
    r"\b(?:trust\w*|believ\w*|legit|clean|cleared|human|town|townie|village|villager|honest|real|true|genuine|"
    r"innocent|solid|right|good|fine|sorry|nothing personal|apolog\w*|credible|consistent|makes sense|persuasive|"
    r"convincing|agree|kind|nice|lovely|friend|thanks?|ty|love)\b"
)
"""Words of a sentence that is no reason against a seat: it vouches, thanks, or apologises."""

_CLAIM_TALK = re.compile(
    r"\b(?:claim\w*|counter\w*|co|cc|bugiardo|i'm not|i am not|(?:fake|false|real|true|not\s+(?:the|a))\s+"
    r"(?:seer|medium|medum|guard\w*|hunter|witch))\b"
)
"""A reason about a claim: a liar call by the labels' conventions, not the accusation a vote's reason is."""

_CHOICE = re.compile(r"\b(?:one of (?:you|them|us)|either|between)\b")

_RHETORICAL = re.compile(
    r"\bif not\b|\bdoes that not\b|\bis it not\b|\binnocent\b"
    r"|^(?:\W*\w+\W+){0,2}?who\s+(?!is|are|do|does|did|was|were|should|will|would|can|could|has|have|you|seems|looks|stands|strikes|worries|bothers|feels|reads|sounds)\w+s\b"
    r"|^(?:\W*\w+\W+){0,2}?why\s+(?:⟨\d+⟩|he|she)\b"
)
"""A question whose point is a charge ("who attacks the seer from the first minute, if not a wolf?")."""

_REASON_OPENS = re.compile(
    r"\s*(?:[,;:]|\s-|—)?\s*(?:his|her|their|he|she|they|he's|she's|they're|you|your|you're|ur|the|because|since|"
    r"cause|'cause|cuz|bc|for|as)\b"
)
"""How a reason after a vote opens ("voting Ken, his vote was random", "I vote Rin because ...")."""

REASONED_VOTE = 0.7
"""The confidence of an accusation read from a vote's reason: below `MIN_CONFIDENCE`, as the vote itself
already gives the evidence the seat's pick (the accusation is for whoever reads the line)."""


def _reasoned_votes(found: list[ReadStatement], sentences: list[str]) -> list[ReadStatement]:
    """Accusations a line makes by a vote and a reason against its seat that has no wolf word.

    By the labels' convention a vote with a reason is an accusation too ("voting rusty, the deleted
    vote thing is too weird"). One vote and nothing else for or against its seat; a plain sentence
    (or a question that makes a charge) about that seat, besides the vote's own words, that holds
    something against it (`_GRIEF`), neither vouches nor thanks, is no choice between seats and
    no talk of a claim (a liar call's business).
    """
    votes = [r for r in found if r.statement.kind == "will_vote"]
    if len(votes) != 1:
        return []
    vote = votes[0]
    seat = vote.statement.target
    if any(r.statement.target == seat and r.statement.kind != "will_vote" for r in found):
        return []
    if any(r.statement.kind in ("accuses", "liar") for r in found):
        return []
    token = f"⟨{seat}⟩"
    for sentence in sentences:
        s = re.sub(r"\blike\s+(?:a\s+)?(?:were)?wol(?:f|ves)\s+would\b", "like a wolf", sentence)
        if s.endswith("?") and not (
            token in s and _RHETORICAL.search(s) and not re.match(r"\W*⟨\d+⟩", s) and not re.search(r"\byou", s)
        ):  # (a question that opens on a seat asks it: "Ken, who seems fishy to you?")
            continue
        if token not in s or _HYPOTHETICAL.search(re.sub(r",?\s*\bif not\b.*", "", s) if s.endswith("?") else s):
            continue
        own = bool(vote.clause) and vote.clause in s
        rest = s.replace(vote.clause, " ") if own else s
        if token not in rest:
            # the vote's own sentence, and a reason after it that names no one else as its subject
            # ("my vote goes on Tomasz, the afk excuse is weak", "voting Farhan, his day 1 vote on Lungile was random")
            after = s[s.find(vote.clause) + len(vote.clause) :] if own else ""
            subjects = set(re.findall(r"(?<!his )(?<!her )(?<!their )(?<!on )(?<!at )(?<!to )(?<!with )⟨(\d+)⟩", after))
            if subjects or not _REASON_OPENS.match(after) or _NEGATION.search(after):
                continue
            rest = after
        reported = _REPORTED.search(rest)
        if reported and not (
            rest[reported.start() :].startswith(token) and re.search(r"vote[ds]?$", reported.group(0))
        ):
            continue  # what a seat said is its own (of the voted seat, what it said is no reason the labels count)
        if _GOOD_WORD.search(rest) or _CLAIM_TALK.search(rest) or _CHOICE.search(rest):
            continue
        if _NEGATION.search(rest) and re.search(r"\b(?:i|i'm|me|my|we|us)\b", rest):
            continue  # the speaker's own defence ("Ken, I am honestly not a wolf")
        if _REASON.search(rest) or _GRIEF.search(rest):
            return [ReadStatement(Statement("accuses", seat), REASONED_VOTE, sentence)]
    return []


def _wolf_liars(found: list[ReadStatement], sentences: list[str]) -> list[ReadStatement]:
    """Accusations of seats a line calls liars and wolves in so many words ("Itzel is a wolf and a fake seer").

    By the labels' convention a liar call is an accusation too only where the line calls the seat a
    wolf itself: a sentence naming the seat (and no other) with "is a wolf", "prob a wolf", "and a
    wolf", not negated or supposed.
    """
    accused = {r.statement.target for r in found if r.statement.kind == "accuses"}
    if any(
        r.statement.kind in RESULT_ROLES or (r.statement.kind == "claim" and r.statement.role in ("seer", "medium"))
        for r in found
    ):
        return []  # a seer's or medium's "X is a werewolf" is a result, which the labels keep apart
    if any(_SEEING.search(sentence) for sentence in sentences):
        return []
    out: list[ReadStatement] = []
    for r in found:
        seat = r.statement.target
        if r.statement.kind != "liar" or seat is None or seat in accused:
            continue
        token = f"⟨{seat}⟩"
        for sentence in sentences:
            if token not in sentence or sentence.endswith("?") or set(re.findall(r"⟨\d+⟩", sentence)) != {token}:
                continue
            if _NEGATION.search(sentence) or _HYPOTHETICAL.search(sentence):
                continue
            if _WOLF_CALLED.search(sentence[sentence.find(token) :]):
                accused.add(seat)
                out.append(ReadStatement(Statement("accuses", seat), MIN_CONFIDENCE, sentence))
                break
    return out


_WOLF_CALLED = re.compile(
    r"\b(?:is|'s|are|and|be|your|ur)\s+(?:(?:prob(?:ably)?|likely|def(?:initely)?|surely|clearly|obviously|also|"
    r"both)\s+)?(?:a|the|an?\s+other|one)\s+(?:were)?wol(?:f|ves)\b(?!\s+(?:result|read|claim))"
)
"""A seat called a wolf ("is a wolf", "and prob a wolf"), after its name in a sentence."""


def _lists(body: str, matches: list[_Match]) -> list[_Match]:
    """A statement about one seat of a list ("Ken, Mio and Rin feel like village") is about each of them."""
    out = list(matches)
    link = r"\s*(?:,\s*and|,|and|&|/|\+)\s*"
    for m in matches:
        if m.kind not in ("accuses", "defends", "will_vote") or m.target is None:
            continue
        token = f"⟨{m.target}⟩"
        head = body[m.start : m.end]
        if head.startswith(token):  # the list is the subject: it ends at the match
            lead = re.search(
                rf"(?:^|[.:;!]\s*|\b(?:think|feel|honestly|imo|and|so)\s+)((?:⟨\d+⟩{link})+)$", body[: m.start]
            )
            if lead and re.search(r"and|&|/|\+", lead.group(1)):
                for seat in re.findall(r"⟨(\d+)⟩", lead.group(1)):
                    out.append(_Match(m.kind, int(seat), m.role, m.species, m.start, m.end, m.confidence))
        elif head.endswith(token):  # the list is the object: it goes on after the match
            tail = re.match(
                rf"((?:{link}⟨\d+⟩)+)(?=\s*(?:[.!;,]|$|both|too|as well|equally|completely|fully|today|now|imo|more|for now))",
                body[m.end :],
            )
            if tail and re.search(r"and|&|/|\+", tail.group(1)):
                for seat in re.findall(r"⟨(\d+)⟩", tail.group(1)):
                    out.append(_Match(m.kind, int(seat), m.role, m.species, m.start, m.end, m.confidence))
    return out


def _resolve(matches: list[_Match]) -> list[_Match]:
    """Drop matches that overlap a stronger one about the same seat (a result over a defence)."""
    kept: list[_Match] = []
    for m in sorted(matches, key=lambda x: (-_PRIORITY.get(x.kind, 0), x.start)):
        clash = any(
            k.start < m.end
            and m.start < k.end
            and (k.target == m.target or m.target is None or k.target is None)
            and _PRIORITY.get(k.kind, 0) > _PRIORITY.get(m.kind, 0)
            and not (k.kind == "claim" or m.kind == "claim")
            and not (k.kind == "liar" and m.kind == "will_vote")  # "Voting Ken, the fake seer": both
            for k in kept
        )
        if not clash:
            kept.append(m)
    return sorted(kept, key=lambda x: x.start)


def claimed_role(statements: Iterable[Statement], before: str = "") -> str:
    """The role a speaker has claimed once `statements` are said, if `before` was its claim until then.

    A claim counts, and so does a result or a protection, which only its role reports.
    """
    role = before
    for st in statements:
        if st.kind == "claim" and st.role:
            role = st.role
        elif st.kind in RESULT_ROLES:
            role = RESULT_ROLES[st.kind]
    return role


def _learned_reader() -> str:
    """The learned reader the process asks (`LYCAN_TALK_MODEL`), part of a cached reading's key.

    Looked up where a line is read, so that importing the reader loads no model code.
    """
    from lycan.beliefs.talk_model import TALK_MODEL_ENV

    return os.environ.get(TALK_MODEL_ENV, "auto")


@functools.lru_cache(maxsize=64)
def reader_for(names: tuple[str, ...]) -> TalkReader:
    """The reader of a table of `names`, shared by every seat of it (a line is read once per table)."""
    return TalkReader(names)


__all__ = [
    "MAX_READ",
    "MIN_CONFIDENCE",
    "ROLE_WORDS",
    "ReadStatement",
    "Reading",
    "TalkReader",
    "claimed_role",
    "normalise",
    "reader_for",
]
