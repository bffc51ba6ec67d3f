"""A chat model as judge: each seat of a stored game scored 1-5 on the AIWolf NLP contest's criteria.

The contest's referees score every player on natural expression, contextual dialogue, logical
consistency, action consistency and character consistency, and in its 13-player games on team
play as well. Here any chat model (`lycan.models.load_model`) does the same from the stored
record, after the game: it reads the public talk with speaker names, the judged seat's own actions
(votes, night actions, its fate) and every role, now revealed, and answers one JSON object, held
to a schema where the backend can, with a score and a one-sentence reason per criterion.

The pieces, each usable alone:

- `judge_prompt(record, seat)` builds the prompt as data (`JudgePrompt`: the transcript lines,
  the action lines, the criteria and the chat messages); the wording lives in the text files of
  `lycan/eval/judge_prompts/` (`criteria.txt` holds the rubric).
- `parse_verdict(text, criteria)` reads an answer, or says in one sentence why it cannot.
- `judge_seat(model, prompt, ...)` asks, retrying an answer that fails, times out or is garbage
  (with the reason, so the model can correct itself), and returns a `SeatJudgement` that is
  either judged or unjudged with the reason.
- `judge_games(records, model, sink, ...)` judges every seat the sink does not already hold a
  judgement of (a rerun judges only what is missing), saving each as it is made. The sink is any
  object with `judged_seats(judge)` and `save_judgement(judgement)`: `lycan.store.GameStore`
  (a `judgements` table beside the games) or `lycan.store.jsonl.JudgementFile` (a sidecar
  `RUN.judgements.jsonl` beside a JSONL file of games).
"""

from __future__ import annotations

import asyncio
import json
import re
import string
import time
import zlib
from collections.abc import AsyncIterator, Callable, Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any, Literal, Protocol

from lycan.engine.events import (
    AttackVote,
    Died,
    Divined,
    Event,
    Executed,
    Guarded,
    HunterShot,
    MediumResult,
    PotionUsed,
    Talk,
    VoteCast,
)
from lycan.engine.record import GameRecord
from lycan.models.base import ChatModel, ChatRequest, Message, ModelError, calls_at_once
from lycan.render import neutralise, quoted_name
from lycan.rules.roles import team_of

TEAM_PLAY_PLAYERS = 13
"""Games of this many players or more are also judged on team play (the contest's 13-player games)."""
SCORES = (1, 2, 3, 4, 5)
REASON_CHARS = 160
"""The longest reason the schema allows: one sentence, and few tokens for a small model to write."""
DEFAULT_TALK_CHARS = 8000
"""Characters of transcript a prompt carries (about 2,000 tokens): the embedded models' window is 4,096."""

Status = Literal["judged", "unjudged"]


# ----------------------------------------------------------------------------- the rubric
@dataclass(frozen=True, slots=True)
class Criterion:
    """One thing the judge scores: its key (stored and reported), its title and what the judge is told."""

    key: str
    title: str
    description: str


CRITERIA_KEYS = (
    "natural_expression",
    "contextual_dialogue",
    "logical_consistency",
    "action_consistency",
    "character_consistency",
    "team_play",
)
"""Every criterion's key, in the order the judge is asked and the report shows them."""


def _packaged(name: str) -> str:
    return resources.files("lycan.eval").joinpath("judge_prompts", name).read_text(encoding="utf-8").strip()


@cache
def criteria() -> dict[str, Criterion]:
    """The rubric of `judge_prompts/criteria.txt`, by key, in the order of `CRITERIA_KEYS`.

    Raises:
        ValueError: the file lacks a criterion, names an unknown one or has a malformed line.
    """
    found: dict[str, Criterion] = {}
    for number, line in enumerate(_packaged("criteria.txt").splitlines(), start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        parts = [part.strip() for part in line.split("|")]
        if len(parts) != 3 or not all(parts):
            raise ValueError(f"judge_prompts/criteria.txt, line {number}: write KEY | TITLE | DESCRIPTION")
        if parts[0] not in CRITERIA_KEYS:
            raise ValueError(
                f"judge_prompts/criteria.txt, line {number}: unknown criterion {parts[0]!r}; "
                f"the criteria are {', '.join(CRITERIA_KEYS)}"
            )
        found[parts[0]] = Criterion(*parts)
    missing = [key for key in CRITERIA_KEYS if key not in found]
    if missing:
        raise ValueError(f"judge_prompts/criteria.txt lacks the criteria {', '.join(missing)}")
    return {key: found[key] for key in CRITERIA_KEYS}


def criteria_for(record: GameRecord) -> tuple[str, ...]:
    """The keys of the criteria a seat of `record` is judged on (team play only in 13-player games)."""
    if record.rules.n_players >= TEAM_PLAY_PLAYERS:
        return CRITERIA_KEYS
    return tuple(key for key in CRITERIA_KEYS if key != "team_play")


def verdict_schema(keys: Sequence[str]) -> dict[str, Any]:
    """The JSON schema of an answer: per criterion, a one-sentence reason, then an integer score 1-5.

    The reason comes first, so a model writes why before it says how much.
    """
    one = {
        "type": "object",
        "properties": {
            "reason": {"type": "string", "minLength": 1, "maxLength": REASON_CHARS},
            "score": {"type": "integer", "enum": list(SCORES)},
        },
        "required": ["reason", "score"],
        "additionalProperties": False,
    }
    return {
        "type": "object",
        "properties": {key: one for key in keys},
        "required": list(keys),
        "additionalProperties": False,
    }


def is_weak_judge(judge: str) -> bool:
    """Whether `judge` (a model spec) names one of the small embedded models (`local`, `local:1.5b`, ...)."""
    return judge.strip().lower().partition(":")[0] == "local"


# ----------------------------------------------------------------------------- the prompt
@dataclass(frozen=True, slots=True)
class TalkLine:
    """One public utterance as the judge reads it."""

    day: int
    speaker: int
    text: str

    def render(self, names: Sequence[str], judged: int) -> str:
        """`Day 1 | Name: words`, marked `>>` when the judged seat speaks."""
        mark = ">> " if self.speaker == judged else ""
        return f"{mark}Day {self.day} | {quoted_name(names, self.speaker)}: {self.text}"


@dataclass(frozen=True, slots=True)
class JudgePrompt:
    """Everything the judge is asked about one seat of one game, as data.

    Attributes:
        game_id: the game.
        seat: the judged seat (0-based).
        criteria: the keys of the criteria asked, in order.
        transcript: the public talk as the prompt quotes it (lines left out say how many).
        actions: the judged seat's own actions and fate, one a line.
        spoke: how many public utterances the seat made (0: there is nothing to judge).
        system: the system message.
        user: the user message.
    """

    game_id: str
    seat: int
    criteria: tuple[str, ...]
    transcript: tuple[str, ...]
    actions: tuple[str, ...]
    spoke: int
    system: str
    user: str

    @property
    def messages(self) -> list[Message]:
        """The chat messages: system, then user."""
        return [Message(role="system", content=self.system), Message(role="user", content=self.user)]


def public_talk(record: GameRecord) -> list[TalkLine]:
    """Every public utterance of the game in order, each made safe to quote (`lycan.render.neutralise`)."""
    return [
        TalkLine(e.day, e.actor, neutralise(e.text))
        for e in record.events
        if isinstance(e, Talk) and e.channel == "talk" and not e.over and not e.skip and e.text.strip()
    ]


def fit_transcript(lines: Sequence[TalkLine], judged: int, names: Sequence[str], budget: int) -> list[str]:
    """The transcript within `budget` characters, keeping what matters for the judged seat.

    When everything does not fit, other speakers' lines go first, those farthest from any line of
    the judged seat before nearer ones (a reply's context is what was said just before and after
    it), then the judged seat's own earliest lines; each gap says how many lines it leaves out.
    """
    rendered = [line.render(names, judged) for line in lines]
    total = sum(len(text) + 1 for text in rendered)
    if total <= budget:
        return rendered
    own = [i for i, line in enumerate(lines) if line.speaker == judged]

    def distance(i: int) -> int:
        return min((abs(i - j) for j in own), default=len(lines) - i)

    order = sorted(range(len(lines)), key=lambda i: (lines[i].speaker == judged, -distance(i), i))
    kept = [True] * len(lines)
    gaps = 0
    for i in order:
        if total + _GAP_CHARS * gaps <= budget:
            break
        kept[i] = False
        total -= len(rendered[i]) + 1
        before = i > 0 and not kept[i - 1]
        after = i + 1 < len(lines) and not kept[i + 1]
        gaps += 1 - before - after  # a new gap, one grown, or two joined into one
    out: list[str] = []
    gap = 0
    for i, text in enumerate(rendered):
        if not kept[i]:
            gap += 1
            continue
        if gap:
            out.append(_gap(gap))
            gap = 0
        out.append(text)
    if gap:
        out.append(_gap(gap))
    return out


_GAP_CHARS = 32
"""The most a gap's line takes, its newline included."""


def _gap(lines: int) -> str:
    return f"(... {lines} line{'s' if lines > 1 else ''} left out ...)"


def _action(event: Event, seat: int, names: Sequence[str]) -> str | None:
    """One dated line about `event` when it is an act or the fate of `seat`, else None."""

    def name(s: int) -> str:
        return quoted_name(names, s)

    if isinstance(event, VoteCast) and event.actor == seat:
        again = " (revote)" if event.round > 0 else ""
        return f"Day {event.day}: voted to execute {name(event.target)}{again}"
    if isinstance(event, AttackVote) and event.actor == seat:
        return f"Night {event.day}: voted to attack {name(event.target)}"
    if isinstance(event, Divined) and event.actor == seat:
        return f"Night {event.day}: divined {name(event.target)}, who is {event.result.value}"
    if isinstance(event, MediumResult) and event.actor == seat:
        return f"Day {event.day}: learned that the executed {name(event.target)} was {event.result.value}"
    if isinstance(event, Guarded) and event.actor == seat:
        return f"Night {event.day}: guarded {name(event.target)}"
    if isinstance(event, PotionUsed) and event.actor == seat:
        return f"Night {event.day}: used the {event.potion} on {name(event.target)}"
    if isinstance(event, HunterShot) and event.actor == seat:
        return f"Day {event.day}: shot {name(event.target)} while dying"
    if isinstance(event, Executed) and event.target == seat:
        return f"Day {event.day}: was executed ({event.votes} votes)"
    if isinstance(event, Died) and event.target == seat and event.cause != "executed":
        how = "was killed in the night" if event.cause == "night" else "died of the hunter's shot"
        return f"{'Night' if event.phase == 'night' else 'Day'} {event.day}: {how}"
    return None


def seat_actions(record: GameRecord, seat: int) -> list[str]:
    """The seat's own votes, night actions and fate, one dated line each (the last says so if it survived)."""
    lines = [text for e in record.events if (text := _action(e, seat, record.names)) is not None]
    if not any(isinstance(e, Died) and e.target == seat for e in record.events):
        lines.append("Survived to the end.")
    return lines


_OUTCOMES = {"village": "The village won.", "werewolf": "The werewolves won.", "draw": "It ended in a draw."}


@cache
def _template(name: str) -> string.Template:
    return string.Template(_packaged(name))


def judge_prompt(record: GameRecord, seat: int, *, max_talk_chars: int = DEFAULT_TALK_CHARS) -> JudgePrompt:
    """The judge's prompt for `seat` (0-based) of `record`: a pure function of the record.

    Raises:
        ValueError: `seat` is not a seat of the game.
    """
    n = record.rules.n_players
    if not 0 <= seat < n:
        raise ValueError(f"game {record.game_id} has seats 1-{n}; there is no seat {seat + 1}")
    keys = criteria_for(record)
    rubric = criteria()
    names = record.names
    talk = public_talk(record)
    transcript = fit_transcript(talk, seat, names, max_talk_chars)
    actions = seat_actions(record, seat)
    role = record.roles[seat]
    side = team_of(role)
    team = ""
    if "team_play" in keys:
        mates = [quoted_name(names, s) for s, r in enumerate(record.roles) if s != seat and team_of(r) is side]
        team = f" The others on the {side.value} side: {', '.join(mates) or 'none'}."
    listed = "\n".join(f"- {key} ({rubric[key].title}): {rubric[key].description}" for key in keys)
    user = _template("user.txt").substitute(
        rules=record.rules.name,
        n_players=n,
        days=record.n_days,
        outcome=_OUTCOMES.get(str(record.winner), f"Result: {record.winner}."),
        name=quoted_name(names, seat),
        role=role.value,
        side=side.value,
        team=team,
        transcript="\n".join(transcript) or "(nobody spoke)",
        actions="\n".join(actions),
        criteria=listed,
    )
    return JudgePrompt(
        game_id=record.game_id,
        seat=seat,
        criteria=keys,
        transcript=tuple(transcript),
        actions=tuple(actions),
        spoke=sum(1 for line in talk if line.speaker == seat),
        system=_template("system.txt").template,
        user=user,
    )


# ----------------------------------------------------------------------------- reading an answer
class VerdictError(ValueError):
    """An answer that is not a usable verdict; the message says why in one sentence."""


@dataclass(frozen=True, slots=True)
class Verdict:
    """A usable answer: a score 1-5 and a one-sentence reason per criterion."""

    scores: dict[str, int]
    reasons: dict[str, str]


_FENCE = re.compile(r"^```[a-zA-Z]*\s*|\s*```$")


def _score(value: object) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str) and value.strip().isdigit():
        return int(value.strip())
    return None


def parse_verdict(text: str, keys: Sequence[str]) -> Verdict:
    """Read an answer: a JSON object with, per criterion in `keys`, an integer `score` 1-5 and a `reason`.

    Code fences and text around the object are tolerated; keys beyond `keys` are ignored.

    Raises:
        VerdictError: the answer holds no JSON object, or a criterion is missing, unscored,
            out of range or has no reason (the message says which).
    """
    body = _FENCE.sub("", text.strip())
    start, end = body.find("{"), body.rfind("}")
    if start < 0 or end <= start:
        shown = neutralise(text, 60) or "an empty answer"
        raise VerdictError(f"the answer holds no JSON object (it began: {shown})")
    try:
        data = json.loads(body[start : end + 1])
    except (json.JSONDecodeError, RecursionError) as err:
        raise VerdictError(f"the answer is not valid JSON ({getattr(err, 'msg', 'nested too deeply')})") from None
    if not isinstance(data, dict):
        raise VerdictError("the answer is not a JSON object")
    scores: dict[str, int] = {}
    reasons: dict[str, str] = {}
    for key in keys:
        entry = data.get(key)
        if entry is None:
            raise VerdictError(f"the answer has no entry for {key}")
        if not isinstance(entry, dict):
            raise VerdictError(f"the entry for {key} is not an object with a score and a reason")
        score = _score(entry.get("score"))
        if score is None:
            raise VerdictError(f"the score for {key} is not an integer")
        if score not in SCORES:
            raise VerdictError(f"the score for {key} is {score}, outside 1-5")
        reason = entry.get("reason")
        if not isinstance(reason, str) or not reason.strip():
            raise VerdictError(f"the entry for {key} gives no reason")
        scores[key] = score
        reasons[key] = neutralise(reason, REASON_CHARS * 2)
    return Verdict(scores, reasons)


# ----------------------------------------------------------------------------- asking
@dataclass(frozen=True, slots=True)
class SeatJudgement:
    """One seat of one game as a judge saw it: scored (`judged`), or `unjudged` with the reason in `error`."""

    game_id: str
    seat: int
    agent: str
    judge: str
    status: Status
    scores: dict[str, int] = field(default_factory=dict)
    reasons: dict[str, str] = field(default_factory=dict)
    error: str = ""
    created: float = 0.0
    attempts: int = 0


class JudgementLike(Protocol):
    """What the tables read from a judgement (a `SeatJudgement`, or one read back from a store)."""

    @property
    def game_id(self) -> str: ...  # noqa: D102

    @property
    def seat(self) -> int: ...  # noqa: D102

    @property
    def agent(self) -> str: ...  # noqa: D102

    @property
    def judge(self) -> str: ...  # noqa: D102

    @property
    def status(self) -> str: ...  # noqa: D102

    @property
    def scores(self) -> Mapping[str, int]: ...  # noqa: D102

    @property
    def reasons(self) -> Mapping[str, str]: ...  # noqa: D102

    @property
    def error(self) -> str: ...  # noqa: D102


class JudgementSink(Protocol):
    """Where judgements go and are read back: `lycan.store.GameStore` or `lycan.store.jsonl.JudgementFile`."""

    def judged_seats(self, judge: str) -> set[tuple[str, int]]:
        """The (game id, seat) pairs `judge` has already scored."""
        ...

    def save_judgement(self, judgement: SeatJudgement) -> bool:
        """Keep `judgement` (never replacing a judged one); whether it was written."""
        ...

    def judgements(self, game_ids: Collection[str] | None = None, judge: str | None = None) -> Sequence[JudgementLike]:
        """The judgements held (of these games, by this judge, or all)."""
        ...


async def _answer(model: ChatModel, request: ChatRequest, timeout: float) -> str:
    """The whole answer, streamed so that a timeout stops the model instead of leaving it running."""
    stream: AsyncIterator[str] = model.stream(request)
    try:
        async with asyncio.timeout(timeout):
            return "".join([piece async for piece in stream])
    finally:
        aclose = getattr(stream, "aclose", None)
        if aclose is not None:
            await aclose()


def _seed(game_id: str, seat: int, attempt: int) -> int:
    return (zlib.crc32(f"{game_id}:{seat}".encode()) + 7919 * attempt) % 2**31


class JudgeFailed(Exception):
    """The judge answered nothing usable after every try.

    `reason` says what the last try did wrong; `model_failed`, whether that was the model failing
    (an error or a timeout) rather than a bad answer.
    """

    def __init__(self, reason: str, *, model_failed: bool, attempts: int) -> None:
        super().__init__(reason)
        self.reason = reason
        self.model_failed = model_failed
        self.attempts = attempts


async def ask_judge(
    model: ChatModel,
    prompt: JudgePrompt,
    *,
    retries: int = 2,
    timeout: float = 120.0,
    temperature: float = 0.0,
) -> tuple[Verdict, int]:
    """Ask `model` for the verdict on `prompt`, retrying up to `retries` times.

    A retry follows a failed call, a timeout or an unusable answer; after an unusable answer the
    model sees its answer and the reason it was refused. Retries sample at temperature 0.7 at
    least, so that they do not repeat a greedy mistake.

    Returns:
        The verdict and how many tries it took.

    Raises:
        JudgeFailed: no try gave a usable answer (its `reason` says what the last one did wrong).
    """
    history: list[Message] = []
    reason = ""
    model_failed = False
    for attempt in range(retries + 1):
        request = ChatRequest(
            messages=[*prompt.messages, *history],
            max_tokens=90 * len(prompt.criteria) + 60,
            temperature=temperature if attempt == 0 else max(temperature, 0.7),
            seed=_seed(prompt.game_id, prompt.seat, attempt),
            json_schema=verdict_schema(prompt.criteria),
            scope=f"judge:{prompt.game_id}:{prompt.seat}",
            session=f"judge:{prompt.game_id}",
        )
        try:
            text = await _answer(model, request, timeout)
        except TimeoutError:
            reason, model_failed = f"the judge did not answer within {timeout:g} s", True
            continue
        except ModelError as err:
            reason, model_failed = f"the judge model failed: {err}", True
            continue
        try:
            return parse_verdict(text, prompt.criteria), attempt + 1
        except VerdictError as err:
            reason, model_failed = str(err), False
            retry = _template("retry.txt").substitute(error=reason)
            history = [Message(role="assistant", content=text[:2000]), Message(role="user", content=retry)]
    tries = retries + 1
    raise JudgeFailed(
        f"{tries} tr{'ies' if tries > 1 else 'y'} failed; the last: {reason}", model_failed=model_failed, attempts=tries
    )


async def judge_seat(
    model: ChatModel,
    record: GameRecord,
    seat: int,
    *,
    judge: str,
    retries: int = 2,
    timeout: float = 120.0,
    max_talk_chars: int = DEFAULT_TALK_CHARS,
) -> SeatJudgement:
    """Judge one seat of one game: scored, or unjudged with the reason.

    A seat that never spoke in public is unjudged without asking: there is no talk to score.
    """
    judgement, _ = await _judge_seat(
        model, record, seat, judge=judge, retries=retries, timeout=timeout, max_talk_chars=max_talk_chars
    )
    return judgement


async def _judge_seat(
    model: ChatModel,
    record: GameRecord,
    seat: int,
    *,
    judge: str,
    retries: int,
    timeout: float,
    max_talk_chars: int,
) -> tuple[SeatJudgement, bool]:
    """`judge_seat`'s judgement, and whether the model itself failed (errors or timeouts to the end)."""
    prompt = judge_prompt(record, seat, max_talk_chars=max_talk_chars)
    game_id, agent = record.game_id, record.agents[seat]
    if prompt.spoke == 0:
        reason = "the seat said nothing in public, so there is no talk to judge"
        return SeatJudgement(game_id, seat, agent, judge, "unjudged", error=reason, created=time.time()), False
    try:
        verdict, attempts = await ask_judge(model, prompt, retries=retries, timeout=timeout)
    except JudgeFailed as err:
        failed = SeatJudgement(
            game_id, seat, agent, judge, "unjudged", error=err.reason, created=time.time(), attempts=err.attempts
        )
        return failed, err.model_failed
    judged = SeatJudgement(
        game_id,
        seat,
        agent,
        judge,
        "judged",
        scores=verdict.scores,
        reasons=verdict.reasons,
        created=time.time(),
        attempts=attempts,
    )
    return judged, False


class JudgeUnavailable(RuntimeError):
    """The judge model failed (errors or timeouts, not bad answers) on several seats in a row.

    The message says so in one sentence; the seats it failed on are saved as unjudged.
    """


@dataclass(frozen=True, slots=True)
class JudgeSummary:
    """What one pass of `judge_games` did."""

    judged: int
    unjudged: int
    skipped: int


async def judge_games(
    records: Iterable[GameRecord],
    model: ChatModel,
    sink: JudgementSink,
    *,
    judge: str,
    seats: Collection[int] | None = None,
    retries: int = 2,
    timeout: float = 120.0,
    concurrency: int | None = None,
    max_talk_chars: int = DEFAULT_TALK_CHARS,
    give_up_after: int = 3,
    on_judgement: Callable[[SeatJudgement], None] | None = None,
) -> JudgeSummary:
    """Judge every seat of `records` that `sink` holds no judgement of by `judge`, saving each as it ends.

    Args:
        records: the games.
        model: the judge.
        sink: where judgements are read from and saved to.
        judge: the judge's label in the sink (the model spec as given).
        seats: only these seats (0-based) of each game; None for all.
        retries: tries after the first for one seat.
        timeout: seconds one answer may take.
        concurrency: seats judged at once (default: what the model serves at once, else 4).
        max_talk_chars: the transcript's budget in characters.
        give_up_after: stop when the model itself failed on this many seats in a row.
        on_judgement: called with each judgement after it is saved.

    Raises:
        JudgeUnavailable: the model failed `give_up_after` seats in a row; what was judged is kept.
    """
    done = sink.judged_seats(judge)
    skipped = 0

    def plan() -> Iterator[tuple[GameRecord, int]]:
        nonlocal skipped
        for record in records:
            for seat in range(record.rules.n_players):
                if seats is not None and seat not in seats:
                    continue
                if (record.game_id, seat) in done:
                    skipped += 1
                    continue
                yield record, seat

    work = plan()
    counts = {"judged": 0, "unjudged": 0}
    failures: list[str] = []
    streak = 0
    width = max(1, concurrency or calls_at_once(model) or 4)

    async def worker() -> None:
        nonlocal streak
        for record, seat in work:
            if streak >= give_up_after:
                return
            result, model_failed = await _judge_seat(
                model, record, seat, judge=judge, retries=retries, timeout=timeout, max_talk_chars=max_talk_chars
            )
            sink.save_judgement(result)
            counts[result.status] += 1
            if model_failed:
                streak += 1
                failures.append(result.error)
            elif result.attempts:
                streak = 0
            if on_judgement is not None:
                on_judgement(result)

    await asyncio.gather(*(worker() for _ in range(width)))
    if streak >= give_up_after:
        raise JudgeUnavailable(
            f"the judge model failed on {streak} seats in a row, so judging stopped ({failures[-1]}); "
            "check the model spec and that its server answers, then run again to judge what is missing"
        )
    return JudgeSummary(judged=counts["judged"], unjudged=counts["unjudged"], skipped=skipped)
