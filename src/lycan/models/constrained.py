"""Schema-constrained decoding for in-process llama.cpp, with llguidance: forced tokens in one batch.

llama-cpp-python constrains a JSON-schema answer with a GBNF grammar that its sampler applies to
the whole vocabulary at every token, and it decodes one token at a time even where the schema
leaves one continuation only (a key, a bracket, the rest of an enum value). For an answer such as
the camwolf Reasoner's, about half the tokens are of that kind.

`SchemaDecoder` runs its own decoding loop over the same `llama_cpp.Llama` instead:

- llguidance (the grammar engine llama.cpp and vLLM use) compiles the schema and computes each
  step's allowed tokens as a bitmask in tens of microseconds;
- a token is sampled among the allowed ones only (top-k 40, top-p, min-p 0.05, then the
  temperature, as llama.cpp's default chain; seeded, so a request with a seed is reproducible);
- the tokens the schema then forces (`compute_ff_tokens`) are appended without sampling and
  evaluated with the sampled token in one batch, at the cost of prompt evaluation.

The JSON is written compactly (`", "` and `": "` between items, no other whitespace), so the model
spends no token on layout. The prompt is the model's own chat template (as llama-cpp-python renders
it), and the KV cache's longest common prefix with the last call is reused, as llama-cpp-python does.
"""

from __future__ import annotations

import codecs
import functools
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from lycan.models.base import ChatRequest, ModelError

TOP_K = 40
MIN_P = 0.05
JSON_LAYOUT = {"whitespace_flexible": False, "item_separator": ", ", "key_separator": ": "}
"""How llguidance lays the JSON out: compact, with the spaces a model writes by habit."""


@dataclass(slots=True)
class Decoded:
    """What one constrained call produced."""

    text: str
    prompt_tokens: int
    completion_tokens: int
    sampled_tokens: int
    evaluated_prompt: int
    finish_reason: str


def available() -> bool:
    """Whether llguidance is installed (otherwise llama-cpp-python's grammar is used)."""
    try:
        import llguidance  # noqa: F401
    except ImportError:
        return False
    return True


@functools.lru_cache(maxsize=64)
def _grammar(schema_json: str) -> str:
    from llguidance import LLMatcher

    return str(LLMatcher.grammar_from_json_schema(schema_json, defaults=JSON_LAYOUT))  # type: ignore[arg-type]


def sample(logits: np.ndarray, allowed: np.ndarray, temperature: float, top_p: float, rng: np.random.Generator) -> int:
    """One token id among `allowed` (ids), from `logits` over the whole vocabulary.

    Greedy at temperature 0; otherwise top-k, top-p and min-p on the untempered distribution, then
    the temperature, as llama.cpp's default sampler chain orders them.
    """
    scores = logits[allowed].astype(np.float64)
    if temperature <= 0 or len(scores) == 1:
        return int(allowed[int(np.argmax(scores))])
    k = min(TOP_K, len(scores))
    order = np.argpartition(-scores, k - 1)[:k]
    order = order[np.argsort(-scores[order], kind="stable")]
    top = scores[order]
    p = np.exp(top - top[0])
    p /= p.sum()
    keep = max(1, min(int(np.searchsorted(np.cumsum(p), top_p)) + 1, len(p)))
    order, top, p = order[:keep], top[:keep], p[:keep]
    kept = p >= MIN_P * p[0]
    order, top = order[kept], top[kept]
    q = np.exp((top - top[0]) / temperature)
    q /= q.sum()
    return int(allowed[order[int(rng.choice(len(order), p=q))]])


class SchemaDecoder:
    """Decodes schema-constrained answers on one `llama_cpp.Llama` (see the module's note).

    Built once per loaded model (the llguidance tokenizer takes about a second to build). Use it
    only from the thread that owns the model.

    Raises:
        ModelError (from `for_llama`): the model has no chat template to render prompts with.
    """

    def __init__(self, llama: Any, tokenizer: Any, formatter: Any) -> None:
        self.llama = llama
        self.tokenizer = tokenizer
        self.formatter = formatter
        self.n_vocab = int(llama.n_vocab())
        self.eos = int(llama.token_eos())

    @classmethod
    def for_llama(cls, llama: Any) -> SchemaDecoder:
        """The decoder of a loaded model."""
        from llama_cpp import llama_chat_format
        from llguidance.llamacpp import lltokenizer_from_vocab

        template = llama.metadata.get("tokenizer.chat_template")
        if not template:
            raise ModelError("the model file has no chat template")
        model = llama._model

        def text(token: int) -> str:
            return str(model.token_get_text(token)) if token >= 0 else ""

        formatter = llama_chat_format.Jinja2ChatFormatter(
            template=template,
            eos_token=text(llama.token_eos()),
            bos_token=text(llama.token_bos()),
            stop_token_ids=[llama.token_eos()],
        )
        with warnings.catch_warnings():
            # llguidance 1.9 reads token attributes through llama-cpp-python's older name for them
            warnings.filterwarnings("ignore", "llama_token_get_attr is deprecated", DeprecationWarning)
            tokenizer = lltokenizer_from_vocab(model.vocab)
        return cls(llama, tokenizer, formatter)

    def matcher(self, schema: dict[str, Any]) -> Any:
        """An llguidance matcher for `schema`, or None where llguidance cannot compile it."""
        import json

        from llguidance import LLMatcher

        try:
            matcher = LLMatcher(self.tokenizer, _grammar(json.dumps(schema, sort_keys=False)), log_level=0)
        except (ValueError, RuntimeError):
            return None
        return None if matcher.is_error() else matcher

    def prompt_tokens(self, request: ChatRequest) -> list[int]:
        """The request's messages through the model's chat template, as tokens."""
        rendered = self.formatter(messages=[dict(m) for m in request.messages])
        add_bos = not getattr(rendered, "added_special", False)
        return [int(t) for t in self.llama.tokenize(rendered.prompt.encode("utf-8"), add_bos=add_bos, special=True)]

    def _reuse_prefix(self, tokens: Sequence[int]) -> int:
        """Keep the KV cache's longest common prefix with `tokens` (at least one token left to evaluate)."""
        llama = self.llama
        held = llama.input_ids[: llama.n_tokens]
        common = 0
        for a, b in zip(held, tokens, strict=False):
            if int(a) != b:
                break
            common += 1
        common = min(common, len(tokens) - 1)
        if common <= 0 or not llama._ctx.kv_cache_seq_rm(-1, common, -1):
            llama.reset()
            llama._ctx.kv_cache_clear()
            common = 0
        llama.n_tokens = common
        return common

    def run(
        self,
        request: ChatRequest,
        matcher: Any,
        emit: Callable[[str], None] | None = None,
        cancelled: Callable[[], bool] | None = None,
    ) -> Decoded:
        """Answer `request` under `matcher`, calling `emit` with each new piece of text.

        `cancelled` is asked before each step; once it is true the answer so far is returned
        (finish reason "cancelled").

        Raises:
            ModelError: the prompt does not fit the context, or the matcher failed.
        """
        from llguidance.numpy import allocate_token_bitmask, fill_next_token_bitmask

        llama = self.llama
        prompt = self.prompt_tokens(request)
        n_ctx = min(int(llama.n_ctx()), len(llama.input_ids))  # llama.cpp may round its context up
        if len(prompt) >= n_ctx:
            raise ModelError(f"the prompt is {len(prompt)} tokens, more than the context window of {n_ctx}")
        evaluated = len(prompt) - self._reuse_prefix(prompt)
        pending = prompt[llama.n_tokens :]
        bitmask = allocate_token_bitmask(1, self.n_vocab)
        rng = np.random.default_rng(request.seed)
        out: list[int] = []
        sampled = 0
        finish = "length"
        said = b""
        text = codecs.getincrementaldecoder("utf-8")(errors="replace")
        stops = [s.encode("utf-8") for s in request.stop if s]
        while len(out) < request.max_tokens and llama.n_tokens + len(pending) < n_ctx:
            if cancelled is not None and cancelled():
                finish = "cancelled"
                break
            llama.eval(pending)
            logits = np.ctypeslib.as_array(llama._ctx.get_logits_ith(-1), shape=(self.n_vocab,))
            fill_next_token_bitmask(matcher, bitmask)
            allowed = np.flatnonzero(np.unpackbits(bitmask[0].view(np.uint8), bitorder="little")[: self.n_vocab])
            if len(allowed) == 0:
                raise ModelError(f"constrained decoding found no allowed token: {matcher.get_error()}")
            token = sample(logits, allowed, request.temperature, request.top_p, rng)
            sampled += 1
            if not matcher.consume_token(token):
                raise ModelError(f"constrained decoding failed: {matcher.get_error()}")
            if token == self.eos:
                finish = "stop"
                break
            forced = [] if matcher.is_stopped() else [int(t) for t in matcher.compute_ff_tokens()]
            forced = forced[: max(0, request.max_tokens - len(out) - 1)]
            if forced and not matcher.consume_tokens(forced):
                raise ModelError(f"constrained decoding failed: {matcher.get_error()}")
            new = [token, *forced]
            out += new
            piece = llama.detokenize(new)
            said += piece
            if stops and any(stop in said for stop in stops):
                said = said[: min(said.find(stop) for stop in stops if stop in said)]
                finish = "stop"
                break
            if emit is not None and (shown := text.decode(piece)):
                emit(shown)
            if matcher.is_stopped():
                finish = "stop"
                break
            pending = new
        if emit is not None and (rest := text.decode(b"", final=True)):
            emit(rest)  # a character cut at the end, as the whole text shows it
        return Decoded(
            text=said.decode("utf-8", errors="replace"),
            prompt_tokens=len(prompt),
            completion_tokens=len(out),
            sampled_tokens=sampled,
            evaluated_prompt=evaluated,
            finish_reason=finish,
        )
