"""Claims read out of free talk by rules first and a chat model for what they leave.

`TalkReader` (`lycan.beliefs.reader`) reads free talk by rules and says which clauses it could not
account for; `ClaimExtractor` asks a model about a line whenever the rules did not account for the
whole of it (not only when they found nothing), or always, or never (see `parser=`), and keeps a
model's statement only where an unread clause of the line bears it out. The model answers greedily
in JSON that a schema pins to the table: a statement kind, a seat name, a role and a species, each
from a fixed list. What comes back is checked again (a seat other than the speaker, a role that can
be claimed) and, by default, against the line's own words, in relation: one sentence must name the
seat and role, hold a word of the kind ("vote", "protected", "fake"...) and, for a result, a word of
its species; a result with no word of seeing or of a medium is taken as an accusation or a defence.
A failed, late or unreadable answer gives no statements and is recorded in `faults`; extraction
never raises.

`score` compares extracted statements with labelled ones (precision, recall, F1 with a bootstrap
interval), and `load_labelled` reads a labelled set (`tests/data/utterances.jsonl`). On that set's
24 held-out lines the embedded Qwen2.5-Coder-0.5B with the parser first scored P 0.65, R 0.61,
F1 0.63 (the parser alone: R 0.14); without the checks against the line's words, P fell to 0.45.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
from collections import Counter, OrderedDict, deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, cast

from lycan.beliefs.claims import CLAIMABLE_ROLES, RESULT_ROLES, Statement, StatementKind
from lycan.beliefs.reader import TalkReader, claimed_role
from lycan.models.base import ChatModel, ChatRequest, Message
from lycan.rules.roles import ROLE_ALIASES, Role, Species, parse_role

EXTRACTED_KINDS: tuple[StatementKind, ...] = (
    "claim",
    "divined",
    "identified",
    "guarded",
    "will_vote",
    "accuses",
    "defends",
    "liar",
)
"""The kinds a model may report (the whisper-only `attack` and `fake_plan` are left to the parser)."""

_FIELDS: dict[str, tuple[str, ...]] = {
    "claim": ("role",),
    "divined": ("target", "species"),
    "identified": ("target", "species"),
    "guarded": ("target",),
    "will_vote": ("target",),
    "accuses": ("target",),
    "defends": ("target",),
    "liar": ("target", "role"),
}
"""What each kind says besides its kind. Every kind with a target needs a seat other than the speaker."""

_ROLE_WORDS = "|".join(sorted({role.value for role in Role} | set(ROLE_ALIASES), key=len, reverse=True))
_CUES: dict[str, re.Pattern[str]] = {
    kind: re.compile(pattern, re.IGNORECASE)
    for kind, pattern in {
        "claim": rf"\b(?:I|I'm|I am|me|my|as)\b|\b(?:{_ROLE_WORDS}) here\b",
        "divined": r"\b(?:seer|divin\w*|check\w*|saw|seen|looked at|result|came back|inspect\w*|investigat\w*)\b",
        "identified": r"\b(?:medium|execut\w*|lynch\w*|hanged|turned out|reading)\b",
        "guarded": r"\b(?:guard\w*|protect\w*|safe|shield\w*|bodyguard)\b",
        "will_vote": r"\b(?:vot\w*|lynch\w*|execut\w*|hang|eliminat\w*)\b",
        "liar": r"\b(?:li(?:e|es|ed|ar|ars|ying)|fake\w*|real|pretend\w*|false\w*|not the|impost[oe]r|counter\w*)\b",
    }.items()
}
"""Words a line must carry for a statement of each kind to be read from it (kinds absent need none)."""

_SPECIES = {"human": Species.HUMAN, "werewolf": Species.WEREWOLF, "wolf": Species.WEREWOLF}
_SPECIES_WORDS = {
    Species.HUMAN: re.compile(r"\b(?:human|white|innocent|clean|villager|village|town|good|cleared|not (?:a )?wolf)\b"),
    Species.WEREWOLF: re.compile(r"\b(?:werewolf|wolf|wolves|black|evil|red|scum)\b"),
}
"""Words a sentence must hold for a result of each species to be read from it."""

SYSTEM_PROMPT = """\
Read one line from a game of Werewolf. List only what the speaker plainly says. Most lines say one thing or nothing.
claim: the speaker's own role. "I am the seer"
divined: a seer's result. "I checked X, X is human"
identified: a medium's result on an executed player. "X, who was executed, was a werewolf"
guarded: "I protected X"
will_vote: "I vote X", "vote X"
accuses: "X is a wolf", "I suspect X"
defends: "I trust X", "X is village"
liar: "X is a fake seer"
Greetings, questions, denials, what-ifs and what others said: {"statements": []}"""

FEW_SHOT: tuple[tuple[str, str, tuple[dict[str, str], ...]], ...] = (
    ("Mia", "Tom is a wolf for sure, he keeps changing his story.", ({"kind": "accuses", "target": "Tom"},)),
    ("Tom", "Good morning all, who do we think is the seer?", ()),
    (
        "Zoe",
        "I'm the seer, and last night Tom came back a werewolf.",
        ({"kind": "claim", "role": "seer"}, {"kind": "divined", "target": "Tom", "species": "werewolf"}),
    ),
    (
        "Sam",
        "Zoe is not the real seer. I'm voting Zoe.",
        ({"kind": "liar", "target": "Zoe", "role": "seer"}, {"kind": "will_vote", "target": "Zoe"}),
    ),
    (
        "Ken",
        "Bodyguard here, I kept Sam safe last night.",
        ({"kind": "claim", "role": "guardian"}, {"kind": "guarded", "target": "Sam"}),
    ),
    (
        "Tom",
        "I'm only a villager. I believe Mia, she is human.",
        ({"kind": "claim", "role": "villager"}, {"kind": "defends", "target": "Mia"}),
    ),
)
"""(speaker, line, statements) worked examples shown before each utterance, at a table of `EXAMPLE_NAMES`."""
EXAMPLE_NAMES = ("Mia", "Tom", "Zoe", "Sam", "Ken")
"""The seats of the worked examples (shown as their own table, so a real table's names stay apart)."""

ParserUse = Literal["first", "merge", "off"]
FaultKind = Literal["error", "timeout", "json", "invalid", "ungrounded"]


@dataclass(frozen=True, slots=True)
class ExtractionFault:
    """Something that went wrong while reading one utterance (the utterance then yields less or nothing).

    `kind` is `error` (the model call failed), `timeout` (it took too long), `json` (the answer
    was not the JSON asked for), `invalid` (a statement named no seat of the table, the speaker
    where another seat is needed, or a role or species that is not allowed) or `ungrounded` (a
    statement the line's words do not bear out). Each `invalid` or `ungrounded` statement is
    dropped on its own; the rest of the answer stands.
    """

    kind: FaultKind
    scope: str
    speaker: int
    detail: str


class ClaimExtractor:
    """Reads `Statement`s out of free talk at one table, with the parser first and a chat model second.

    Args:
        model: the chat model asked when the parser finds nothing.
        names: the table's seat names, in seat order.
        roles: the roles a claim or a liar call may name (aliases such as `bodyguard` are mapped).
        timeout: seconds one model call may take. A backend that runs calls one at a time on a
            worker thread (llama.cpp) finishes the late call before it starts the next.
        max_statements: the most statements one utterance yields.
        max_tokens: the model's answer limit (enough for `max_statements` statements).
        parser: how the rules (`TalkReader`) are used: "first" (a line they account for whole is
            answered by them alone; otherwise the model is asked and adds what an unread clause
            bears out), "merge" (the model is always asked and adds what the rules missed) or
            "off" (the model alone).
        session: the KV-cache session the model may reuse for the fixed prompt prefix.
        cache_size: utterances remembered (least recently used go first).
        grounded: keep only statements the line bears out, in relation: one clause of it names the
            seat (and the role) beside a word of the statement's kind (and, for a result, a word of
            its species); with the rules first, that clause must be one the rules did not read.
            Small models otherwise report seats, roles and results the line never mentions.
        max_faults: faults kept in `faults` (the oldest go first; `fault_counts` counts them all).

    Attributes:
        faults: the latest faults, oldest first.
        fault_counts: how many faults of each kind there have been.
        model_calls: calls made to the model.
        parser_hits: utterances the rules answered alone (they accounted for the whole line).
        cache_hits: utterances answered from the cache.
    """

    def __init__(
        self,
        model: ChatModel,
        names: Sequence[str],
        *,
        roles: Iterable[str] = CLAIMABLE_ROLES,
        timeout: float = 30.0,
        max_statements: int = 4,
        max_tokens: int = 160,
        parser: ParserUse = "first",
        session: str = "claims",
        cache_size: int = 4096,
        grounded: bool = True,
        max_faults: int = 1000,
    ) -> None:
        self.model = model
        self.names = tuple(names)
        self.roles = tuple(dict.fromkeys(parse_role(role).value for role in roles))
        self.timeout = timeout
        self.max_statements = max_statements
        self.max_tokens = max_tokens
        self.parser_use = parser
        self.session = session
        self.cache_size = cache_size
        self.grounded = grounded
        self.parser = TalkReader(self.names)
        self.faults: deque[ExtractionFault] = deque(maxlen=max_faults)
        self.fault_counts: Counter[FaultKind] = Counter()
        self.model_calls = 0
        self.parser_hits = 0
        self.cache_hits = 0
        self._seats = {name.lower(): seat for seat, name in enumerate(self.names)}
        self._cache: OrderedDict[tuple[str, int, str], tuple[Statement, ...]] = OrderedDict()
        self._pending: dict[tuple[str, int, str], asyncio.Future[tuple[Statement, ...]]] = {}
        self.schema = self._schema()
        i = re.IGNORECASE
        self._name_patterns = [re.compile(rf"(?<![\w\[]){re.escape(name)}(?![\w\]])", i) for name in self.names]
        words = {role: [role] + [alias for alias, r in ROLE_ALIASES.items() if r.value == role] for role in self.roles}
        self._role_patterns = {
            role: re.compile(rf"\b(?:{'|'.join(map(re.escape, w))})s?\b", i) for role, w in words.items()
        }

    # -- the request ----------------------------------------------------------------------------

    def _schema(self) -> dict[str, Any]:
        values: dict[str, dict[str, Any]] = {
            "target": {"type": "string", "enum": list(self.names)},
            "role": {"type": "string", "enum": list(self.roles)},
            "species": {"type": "string", "enum": [species.value for species in Species]},
        }
        items = [
            {
                "type": "object",
                "properties": {"kind": {"type": "string", "const": kind}} | {f: values[f] for f in _FIELDS[kind]},
                "required": ["kind", *_FIELDS[kind]],
                "additionalProperties": False,
            }
            for kind in EXTRACTED_KINDS
        ]
        return {
            "type": "object",
            "properties": {"statements": {"type": "array", "items": {"anyOf": items}, "maxItems": self.max_statements}},
            "required": ["statements"],
            "additionalProperties": False,
        }

    def _line(self, names: Sequence[str], speaker: str, text: str) -> str:
        return f"Players: {', '.join(names)}\nSpeaker: {speaker}\nLine: {text}"

    def messages(self, text: str, speaker: int) -> list[Message]:
        """The prompt for one utterance: instructions, worked examples, then the line itself."""
        messages = [Message(role="system", content=SYSTEM_PROMPT)]
        for who, line, statements in FEW_SHOT:
            messages.append(Message(role="user", content=self._line(EXAMPLE_NAMES, who, line)))
            messages.append(Message(role="assistant", content=json.dumps({"statements": list(statements)})))
        messages.append(Message(role="user", content=self._line(self.names, self.names[speaker], text)))
        return messages

    def request(self, text: str, speaker: int, scope: str) -> ChatRequest:
        """The one model call for an utterance: greedy, schema-constrained, scoped to the game."""
        return ChatRequest(
            messages=self.messages(text, speaker),
            max_tokens=self.max_tokens,
            temperature=0.0,
            json_schema=self.schema,
            scope=scope,
            session=self.session,
        )

    # -- reading the answer ---------------------------------------------------------------------

    def read(
        self, answer: str, speaker: int, text: str, scope: str = "", *, clauses: Sequence[str] | None = None
    ) -> tuple[Statement, ...]:
        """The valid statements in a model's `answer` about `speaker`'s line `text`.

        What has to be dropped is recorded in `faults`; with `grounded`, every statement must be
        borne out by one sentence of `text` (see `_grounded`), and with `clauses` (the clauses the
        rules could not read) by a sentence that holds one of them.
        """
        spans = self.parser.sentences(text, speaker)
        if clauses is not None:
            spans = [span for span in spans if any(clause in span for clause in clauses)]
        try:
            data = json.loads(answer)
        except ValueError as error:
            self._fault("json", scope, speaker, f"not JSON ({error}): {answer[:200]!r}")
            return ()
        items = data.get("statements") if isinstance(data, dict) else None
        if not isinstance(items, list):
            self._fault("json", scope, speaker, f"no list of statements: {answer[:200]!r}")
            return ()
        found: list[Statement] = []
        for item in items:
            statement = self._statement(item, speaker)
            if isinstance(statement, str):
                self._fault("invalid", scope, speaker, statement)
                continue
            if self.grounded:
                statement = self._grounded(statement, text, spans)
                if isinstance(statement, str):
                    self._fault("ungrounded", scope, speaker, statement)
                    continue
            if statement not in found:
                found.append(statement)
        return tuple(found[: self.max_statements])

    def _statement(self, item: object, speaker: int) -> Statement | str:
        """The statement `item` describes, or why it is not a valid one."""
        if not isinstance(item, dict):
            return f"not an object: {item!r}"
        kind = item.get("kind")
        if kind not in _FIELDS:
            return f"unknown kind: {item!r}"
        fields = _FIELDS[kind]
        target: int | None = None
        role = ""
        species: Species | None = None
        if "target" in fields:
            seat = self._seats.get(str(item.get("target", "")).strip().lower())
            if seat is None:
                return f"no such seat: {item!r}"
            if seat == speaker:
                return f"the speaker as target: {item!r}"
            target = seat
        if "role" in fields:
            try:
                role = parse_role(str(item.get("role", ""))).value
            except ValueError:
                role = ""
            if role not in self.roles:
                return f"a role that cannot be claimed: {item!r}"
        if "species" in fields:
            species = _SPECIES.get(str(item.get("species", "")).strip().lower())
            if species is None:
                return f"no such species: {item!r}"
        return Statement(cast("StatementKind", kind), target, role, species)

    def _grounded(self, statement: Statement, text: str, spans: Sequence[str]) -> Statement | str:
        """`statement` as far as one sentence of `text` (among `spans`) bears it out, otherwise why not.

        The same sentence must name the statement's seat (as the reader resolves names) and role,
        carry a word of its kind (`_CUES`) and, for a result, a word of its species: names and words
        merely present somewhere in the line are not enough. A result takes the kind its words show
        (a seer's or a medium's); with neither it is a stance on the seat ("Bob is a wolf" accuses Bob).
        """
        why = "no sentence of the line bears it out"
        for span in spans:
            if statement.target is not None and f"⟨{statement.target}⟩" not in span:
                why = f"{self.names[statement.target]} is not named beside it"
                continue
            if statement.role and not self._role_patterns[statement.role].search(span):
                why = f"the {statement.role} is not named beside it"
                continue
            if statement.species is not None and not _SPECIES_WORDS[statement.species].search(span):
                why = f"no word for {statement.species.value} beside it"
                continue
            if statement.kind in ("divined", "identified"):
                return self._result(statement, span)
            cue = _CUES.get(statement.kind)
            if cue is not None and not cue.search(span):
                why = f"no word of {statement.kind} beside it"
                continue
            return statement
        return f"{why}: {statement}"

    @staticmethod
    def _result(statement: Statement, text: str) -> Statement:
        """A result as the line's words have it: a seer's, a medium's, or (with neither) a stance."""
        if _CUES[statement.kind].search(text):
            return statement
        other: StatementKind = "identified" if statement.kind == "divined" else "divined"
        if _CUES[other].search(text):
            return Statement(other, statement.target, species=statement.species)
        return Statement("accuses" if statement.species is Species.WEREWOLF else "defends", statement.target)

    def _fault(self, kind: FaultKind, scope: str, speaker: int, detail: str) -> None:
        self.faults.append(ExtractionFault(kind, scope, speaker, detail))
        self.fault_counts[kind] += 1

    # -- extraction -----------------------------------------------------------------------------

    async def extract(self, text: str, speaker: int, *, scope: str) -> tuple[Statement, ...]:
        """Every statement `speaker` made in `text`; never raises.

        Args:
            text: the utterance.
            speaker: the seat that said it.
            scope: the game's id: the model's request cache and this extractor's cache are kept
                apart per scope, so nothing read in one game is reused in another.

        Returns:
            With `parser="first"`, the parser's statements where it finds any, otherwise the
            model's valid ones (with "merge", both; with "off", the model's alone). A model that
            fails, is late or answers something unreadable adds nothing (see `faults`), and such
            a reading is not remembered, so a later call asks again.
        """
        key = (scope, speaker, text)
        hit = self._cache.get(key)
        if hit is not None:
            self._cache.move_to_end(key)
            self.cache_hits += 1
            return hit
        task = self._pending.get(key)
        if task is None:
            task = asyncio.ensure_future(self._extract_and_keep(text, speaker, scope))
            self._pending[key] = task
            task.add_done_callback(lambda _: self._pending.pop(key, None))
        else:  # the same utterance is being read already: share that answer
            self.cache_hits += 1
        # shielded: a caller that gives up does not cancel the reading others may be waiting for
        return await asyncio.shield(task)

    async def _extract_and_keep(self, text: str, speaker: int, scope: str) -> tuple[Statement, ...]:
        found, keep = await self._extract(text, speaker, scope)
        if keep:
            key = (scope, speaker, text)
            self._cache[key] = found
            while len(self._cache) > self.cache_size:
                self._cache.popitem(last=False)
        return found

    async def _extract(self, text: str, speaker: int, scope: str) -> tuple[tuple[Statement, ...], bool]:
        """The statements, and whether to remember them (a failed call may be tried again later)."""
        if not 0 <= speaker < len(self.names):
            self._fault("invalid", scope, speaker, f"no seat {speaker} at a table of {len(self.names)}")
            return (), False
        reading = self.parser.read(text, speaker) if self.parser_use != "off" else None
        parsed = reading.statements if reading is not None else ()
        if reading is not None and self.parser_use == "first" and reading.complete:
            self.parser_hits += 1
            return parsed, True
        self.model_calls += 1
        try:
            result = await asyncio.wait_for(self.model.chat(self.request(text, speaker, scope)), self.timeout)
        except TimeoutError:
            self._fault("timeout", scope, speaker, f"no answer within {self.timeout:g} s")
            return parsed, False
        except Exception as error:
            self._fault("error", scope, speaker, f"{type(error).__name__}: {error}")
            return parsed, False
        clauses = reading.unread if reading is not None and self.parser_use == "first" else None
        said = self.read(result.text, speaker, text, scope, clauses=clauses)
        known = {canonical(statement) for statement in parsed}
        return parsed + tuple(s for s in said if canonical(s) not in known), True

    def extract_sync(self, text: str, speaker: int, *, scope: str) -> tuple[Statement, ...]:
        """`extract` for callers without an event loop (it runs one for the call).

        Raises:
            RuntimeError: it was called from a running event loop; await `extract` there.
        """
        return asyncio.run(self.extract(text, speaker, scope=scope))

    def forget(self, scope: str) -> None:
        """Drop what was remembered for one scope (e.g. a finished game)."""
        for key in [key for key in self._cache if key[0] == scope]:
            del self._cache[key]


# -- measuring ------------------------------------------------------------------------------------


def canonical(statement: Statement) -> Statement:
    """`statement` with only the fields its kind says (an `accuses` from `ESTIMATE X WEREWOLF` loses its role)."""
    fields = _FIELDS.get(statement.kind, ("target", "role", "species"))
    return Statement(
        statement.kind,
        statement.target if "target" in fields else None,
        statement.role if "role" in fields else "",
        statement.species if "species" in fields else None,
    )


@dataclass(frozen=True, slots=True)
class Score:
    """Precision, recall and F1 of extracted statements against labelled ones, over `n` utterances.

    Counts are summed over utterances (a statement matches only within its own utterance);
    `f1_low`/`f1_high` bound a 95% bootstrap interval over utterances.
    """

    precision: float
    recall: float
    f1: float
    true_positives: int
    false_positives: int
    false_negatives: int
    n: int
    f1_low: float
    f1_high: float

    def __str__(self) -> str:
        return (
            f"P {self.precision:.2f} R {self.recall:.2f} F1 {self.f1:.2f} "
            f"[95% {self.f1_low:.2f}-{self.f1_high:.2f}] (N={self.n} utterances, "
            f"tp {self.true_positives} fp {self.false_positives} fn {self.false_negatives})"
        )


def scored(statements: Iterable[Statement]) -> list[Statement]:
    """`statements` (canonical) with the role claim that each result implies, as a score compares them.

    "Night 2: Ken is human." from a seat that says no more claims the seer's role by what it
    reports, and the belief engine reads it so (`lycan.beliefs.evidence`: a reported result is a
    claim of its role). Whether a line's labels also write the claim is a matter of its labeller's
    conventions (some labelled sets add it to every result, some never to a result said again), so
    labels and readings alike are scored with the claim their results imply: a reading credited
    with a claim where the engine would register one.
    """
    out = [canonical(s) for s in statements]
    claimed = {s.role for s in out if s.kind == "claim"}
    implied = dict.fromkeys(RESULT_ROLES[s.kind] for s in out if s.kind in RESULT_ROLES)  # once each, in order
    return out + [Statement("claim", role=role) for role in implied if role not in claimed]


def _counts(predicted: Sequence[Statement], gold: Sequence[Statement]) -> tuple[int, int, int]:
    said = set(scored(predicted))
    true = set(scored(gold))
    hits = len(said & true)
    return hits, len(said) - hits, len(true) - hits


def _prf(tp: int, fp: int, fn: int) -> tuple[float, float, float]:
    precision = tp / (tp + fp) if tp + fp else 1.0
    recall = tp / (tp + fn) if tp + fn else 1.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return precision, recall, f1


def score(
    predicted: Sequence[Sequence[Statement]],
    gold: Sequence[Sequence[Statement]],
    *,
    resamples: int = 1000,
    seed: int = 0,
) -> Score:
    """Score extracted statements against labelled ones, utterance by utterance.

    Statements are compared after `canonical`, as sets per utterance, each with the claim its
    results imply (`scored`). With nothing predicted,
    precision is 1; with nothing labelled, recall is 1.

    Args:
        predicted: the statements read from each utterance.
        gold: the labelled statements of the same utterances, in the same order.
        resamples: bootstrap resamples of the utterances for the F1 interval (0: none).
        seed: the bootstrap's seed.

    Raises:
        ValueError: the two sequences differ in length.
    """
    if len(predicted) != len(gold):
        raise ValueError(f"{len(predicted)} predictions for {len(gold)} labelled utterances; give one per utterance.")
    counts = [_counts(p, g) for p, g in zip(predicted, gold, strict=True)]
    tp, fp, fn = (sum(column) for column in zip(*counts, strict=True)) if counts else (0, 0, 0)
    precision, recall, f1 = _prf(tp, fp, fn)
    low = high = f1
    if resamples > 0 and counts:
        rng = random.Random(seed)
        f1s = sorted(
            _prf(*(sum(column) for column in zip(*rng.choices(counts, k=len(counts)), strict=True)))[2]
            for _ in range(resamples)
        )
        low, high = f1s[int(0.025 * (resamples - 1))], f1s[int(0.975 * (resamples - 1))]
    return Score(precision, recall, f1, tp, fp, fn, len(counts), low, high)


@dataclass(frozen=True, slots=True)
class Labelled:
    """One labelled utterance: the table, who spoke, what was said, and the statements it makes.

    `split` names the part of a labelled set it belongs to (e.g. `dev` for lines a prompt was
    tuned on, `heldout` for lines kept apart to measure it).
    """

    names: tuple[str, ...]
    speaker: int
    text: str
    gold: tuple[Statement, ...]
    split: str = ""


def labelled_from_dict(data: dict[str, Any]) -> Labelled:
    """A `Labelled` from one line of a labelled set.

    The line reads `{"names": [...], "speaker": NAME, "text": ..., "gold": [{"kind": ..., "target":
    NAME, "role": ..., "species": ...}], "split": ...}`; a statement gives only the fields its kind has.

    Raises:
        ValueError: a name that is not at the table, or a statement kind, role or species unknown.
    """
    names = tuple(str(name) for name in data["names"])
    seats = {name: seat for seat, name in enumerate(names)}

    def seat(name: str) -> int:
        if name not in seats:
            raise ValueError(f"{name!r} is not at the table {names}; labelled statements must name its seats.")
        return seats[name]

    gold: list[Statement] = []
    for item in data["gold"]:
        kind = item["kind"]
        if kind not in _FIELDS:
            raise ValueError(f"unknown statement kind {kind!r}; use one of {', '.join(_FIELDS)}.")
        gold.append(
            Statement(
                cast("StatementKind", kind),
                seat(item["target"]) if "target" in item else None,
                parse_role(item["role"]).value if "role" in item else "",
                Species(item["species"]) if "species" in item else None,
            )
        )
    return Labelled(names, seat(str(data["speaker"])), str(data["text"]), tuple(gold), str(data.get("split", "")))


def load_labelled(path: str | Path) -> list[Labelled]:
    """Every labelled utterance in a JSONL file (one `labelled_from_dict` object a line)."""
    lines = Path(path).read_text(encoding="utf-8").splitlines()
    return [labelled_from_dict(json.loads(line)) for line in lines if line.strip()]


def read_in_table(rows: Sequence[Labelled], *, learned: bool = True) -> list[tuple[Statement, ...]]:
    """What the talk reader reads in each of `rows`, each line in the light of the table's earlier lines.

    Rows of one table (the same names) follow each other in a labelled file. Each speaker's claimed
    role is the one the reader itself read in that speaker's earlier rows (`claimed_role`), never the
    labels: what a game's belief engine knows when it reads a line (`lycan.beliefs.evidence`).
    """
    readers: dict[tuple[str, ...], TalkReader] = {}
    said: dict[tuple[tuple[str, ...], int], str] = {}
    out: list[tuple[Statement, ...]] = []
    for row in rows:
        reader = readers.setdefault(row.names, TalkReader(row.names, learned=learned))
        key = (row.names, row.speaker)
        got = reader.parse(row.text, row.speaker, said.get(key, ""))
        said[key] = claimed_role(got, said.get(key, ""))
        out.append(got)
    return out


__all__ = [
    "EXAMPLE_NAMES",
    "EXTRACTED_KINDS",
    "FEW_SHOT",
    "SYSTEM_PROMPT",
    "ClaimExtractor",
    "ExtractionFault",
    "FaultKind",
    "Labelled",
    "ParserUse",
    "Score",
    "canonical",
    "labelled_from_dict",
    "load_labelled",
    "read_in_table",
    "score",
    "scored",
]
