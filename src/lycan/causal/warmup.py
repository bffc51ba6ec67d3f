"""A supervised format warm-up of the Reasoner before GRPO: LoRA fine-tuning on belief-engine answers.

GRPO learns only from differences between the G answers to a turn. A small model that never keeps
to the Reasoner's JSON template gets the same reward (-1, a format violation) for every answer, so
every advantage is zero and nothing is learnt. The warm-up teaches the template first: for speaking
turns of the training games (never the held-out ones), the answer is the one the `camwolf` agent's
belief-engine fallback gives (`lycan.agents.camwolf.belief_reasoning`): the most probable werewolf-side players,
their most probable roles (werewolf when the werewolf side is more likely than not), and as premises
the events that moved the belief engine's P(werewolf side) of that player most (the planner's
`reasons`), restricted to the events the prompt shows; the deduction is those reasons in English,
and the manner follows the conclusion (suspicious and pointing at a werewolf, calm otherwise).

`warmup_pairs` builds (prompt, answer) pairs; `warm_up` wraps the model in a LoRA adapter and trains
it on them with the cross-entropy of the answer's tokens only (a plain loop: the prompt is masked).
GRPO then continues from that adapter, with the warmed-up adapter as its KL reference.

torch and peft are imported when the warm-up runs, never at import.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from lycan.agents.camwolf import (
    DEDUCTION_CHARS,
    Identification,
    Planner,
    belief_reasoning,
    read_reasoning,
    reasoner_prompt,
)
from lycan.causal.turns import TalkTurn, shown_ids, turn_messages
from lycan.engine.manner import Manner
from lycan.engine.view import View
from lycan.models.base import Message
from lycan.rules.roles import Team, team_of


@dataclass(frozen=True, slots=True)
class Pair:
    """One warm-up example: the Reasoner prompt of a turn and the answer taught for it."""

    turn: TalkTurn
    messages: list[Message]
    answer: str
    shown: frozenset[int] = frozenset()
    """The event ids the prompt shows (the premises the answer may cite)."""


def manner_of(identifications: Sequence[Identification]) -> Manner:
    """The manner that goes with the conclusions: suspicious and pointing at a werewolf-side player, else calm."""
    if any(team_of(i.role) is Team.WEREWOLF for i in identifications):
        return Manner(emotion="suspicious", expression="narrowed", gesture="point")
    return Manner(emotion="calm", expression="neutral", gesture="nod")


def belief_answer(planner: Planner, view: View, shown: set[int], *, identifications: int = 1) -> str | None:
    """The belief engine's answer to `view` in the Reasoner's template, citing only `shown` events.

    At most `identifications` identifications (the most probable werewolf-side players first); the
    manner is given by the two fields that vary with the conclusion (`style.emotion`,
    `vision.gesture`; the others keep their defaults), to keep the answer short. None when no
    identification keeps a premise the prompt shows.
    """
    reasoning = belief_reasoning(planner, view)
    idents: list[Identification] = []
    for ident in reasoning.identifications:
        if len(idents) >= identifications:
            break
        reasons = [(i, text) for i, text in planner.reasons(view, ident.player) if i in shown]
        if not reasons:
            continue
        name = view.names[ident.player]
        why = "; ".join(text.replace("they ", f"{name} ").replace("them", name) for _, text in reasons)
        idents.append(Identification(tuple(i for i, _ in reasons), why[:DEDUCTION_CHARS], ident.player, ident.role))
    if not idents:
        return None
    manner = manner_of(idents)
    answer = {
        "identifications": [i.to_dict(view.names) for i in idents],
        "style": {"emotion": manner.emotion},
        "vision": {"gesture": manner.gesture},
    }
    return json.dumps(answer)


def warmup_pairs(
    turns: Iterable[TalkTurn], n: int, *, log_lines: int | None, identifications: int = 1, seed: int = 0
) -> list[Pair]:
    """Up to `n` (prompt, belief-engine answer) pairs from `turns` (in a seeded random order).

    Every answer is one `read_reasoning` accepts on its turn's view (checked here).
    """
    pool = list(turns)
    random.Random(seed).shuffle(pool)
    planner = Planner(seed)
    out: list[Pair] = []
    for turn in pool:
        if len(out) >= n:
            break
        messages = turn_messages(turn, log_lines=log_lines)
        shown = shown_ids(reasoner_prompt(turn.view), log_lines)
        answer = belief_answer(planner, turn.view, shown, identifications=identifications)
        if answer is None:
            continue
        read_reasoning(answer, turn.view)  # a ParseError here is a bug in the builder
        out.append(Pair(turn, messages, answer, frozenset(shown)))
    return out


@dataclass
class WarmupReport:
    """What the warm-up did."""

    examples: int = 0
    steps: int = 0
    epochs: float = 0.0
    losses: list[float] = field(default_factory=list)
    seconds: float = 0.0
    answer_tokens: float = 0.0
    """Mean tokens of a taught answer."""

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return dict(self.__dict__)


def encode_pair(tokenizer: Any, pair: Pair) -> tuple[list[int], list[int]]:
    """Token ids of prompt + answer (+ end of turn) and the labels (-100 on the prompt)."""
    prompt = tokenizer.apply_chat_template([dict(m) for m in pair.messages], add_generation_prompt=True, tokenize=False)
    ids_prompt = tokenizer(prompt, add_special_tokens=False)["input_ids"]
    ids_answer = tokenizer(pair.answer, add_special_tokens=False)["input_ids"]
    end = tokenizer.eos_token_id
    eot = tokenizer.convert_tokens_to_ids("<|im_end|>") if "<|im_end|>" in tokenizer.get_vocab() else end
    ids_answer = [*ids_answer, eot]
    return [*ids_prompt, *ids_answer], [-100] * len(ids_prompt) + ids_answer


def warm_up(
    model: Any,
    tokenizer: Any,
    pairs: Sequence[Pair],
    lora: Any,
    *,
    steps: int,
    batch: int = 2,
    learning_rate: float = 2e-4,
    seed: int = 0,
    progress: Callable[[str], None] | None = None,
) -> tuple[Any, WarmupReport]:
    """Wrap `model` in the LoRA adapter `lora` (a peft `LoraConfig`) and train it on `pairs` for `steps` steps.

    Each step is one batch of `batch` pairs (cycling through a seeded shuffle), the loss the mean
    cross-entropy of the answers' tokens. Returns the peft model (adapter `default`, trainable) and
    the report.
    """
    import torch
    from peft import get_peft_model

    say = progress or (lambda _: None)
    report = WarmupReport(examples=len(pairs), steps=steps)
    if not pairs:
        raise ValueError("no warm-up example: no training turn has a belief-engine answer the prompt can cite")
    started = time.perf_counter()
    torch.manual_seed(seed)
    peft_model = get_peft_model(model, lora)
    device = next(peft_model.parameters()).device
    encoded = [encode_pair(tokenizer, p) for p in pairs]
    report.answer_tokens = sum(sum(1 for x in labels if x != -100) for _, labels in encoded) / len(encoded)
    optimizer = torch.optim.AdamW([p for p in peft_model.parameters() if p.requires_grad], lr=learning_rate)
    order: list[int] = []
    rng = random.Random(seed)
    pad = tokenizer.pad_token_id if tokenizer.pad_token_id is not None else tokenizer.eos_token_id
    peft_model.train()
    for step in range(steps):
        chosen = []
        for _ in range(batch):
            if not order:
                order = list(range(len(encoded)))
                rng.shuffle(order)
            chosen.append(encoded[order.pop()])
        width = max(len(ids) for ids, _ in chosen)
        input_ids = torch.tensor([ids + [pad] * (width - len(ids)) for ids, _ in chosen], device=device)
        labels = torch.tensor([lab + [-100] * (width - len(lab)) for _, lab in chosen], device=device)
        mask = torch.tensor([[1] * len(ids) + [0] * (width - len(ids)) for ids, _ in chosen], device=device)
        loss = peft_model(input_ids=input_ids, attention_mask=mask, labels=labels).loss
        loss.backward()
        optimizer.step()
        optimizer.zero_grad(set_to_none=True)
        report.losses.append(float(loss.detach()))
        if step == 0 or (step + 1) % 10 == 0 or step + 1 == steps:
            say(f"warm-up step {step + 1}/{steps}: loss {report.losses[-1]:.3f}")
    peft_model.eval()
    report.epochs = steps * batch / len(pairs)
    report.seconds = time.perf_counter() - started
    return peft_model, report


__all__ = ["Pair", "WarmupReport", "belief_answer", "encode_pair", "manner_of", "shown_ids", "warm_up", "warmup_pairs"]
