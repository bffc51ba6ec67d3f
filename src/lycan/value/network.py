"""The value network: P(win | a seat's view, a candidate action), one network for every role and seat.

A small pre-norm transformer encodes the view once (a global token carrying the seat's role,
seat, table size, day, phase, request and living seats, followed by the event tokens); the
global token's output is the view vector. A cheap MLP then scores each candidate from
`[view, candidate, view * candidate]`, so scoring K candidates costs one encoder pass and K head
evaluations. Attention is written out with plain tensor ops so the model exports to ONNX as is.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from typing import Any

import torch
from torch import Tensor, nn

from lycan.value.features import (
    CANDIDATE_VOCAB,
    EVENT_VOCAB,
    GLOBAL_VOCAB,
    MAX_SEATS,
    VOCAB,
)


@dataclass(frozen=True)
class NetConfig:
    """The network's shape.

    Attributes:
        text_dim: the sentence encoder's vector size.
        d_model: the width of every token.
        layers: transformer layers.
        heads: attention heads (must divide `d_model`).
        max_events: the longest event sequence (positions are learned up to this).
        dropout: dropout in training.
    """

    text_dim: int = 384
    d_model: int = 64
    layers: int = 2
    heads: int = 4
    max_events: int = 128
    dropout: float = 0.1

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return asdict(self)


class _Block(nn.Module):
    """Pre-norm self-attention and feed-forward, with an additive key mask."""

    def __init__(self, d: int, heads: int, dropout: float) -> None:
        super().__init__()
        if d % heads:
            raise ValueError(f"d_model {d} is not a multiple of heads {heads}")
        self.heads = heads
        self.norm1 = nn.LayerNorm(d)
        self.qkv = nn.Linear(d, 3 * d)
        self.out = nn.Linear(d, d)
        self.norm2 = nn.LayerNorm(d)
        self.ff = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))
        self.drop = nn.Dropout(dropout)

    def forward(self, x: Tensor, key_bias: Tensor) -> Tensor:
        b, t, d = x.shape
        h = self.heads
        q, k, v = self.qkv(self.norm1(x)).reshape(b, t, 3, h, d // h).permute(2, 0, 3, 1, 4)
        scores = q @ k.transpose(-1, -2) / math.sqrt(d // h) + key_bias[:, None, None, :]
        attn = self.drop(torch.softmax(scores, dim=-1))
        y = (attn @ v).transpose(1, 2).reshape(b, t, d)
        x = x + self.drop(self.out(y))
        return x + self.drop(self.ff(self.norm2(x)))


class ValueNet(nn.Module):
    """Scores candidate actions for views: logits of P(win).

    Args:
        config: the network's shape.
    """

    def __init__(self, config: NetConfig) -> None:
        super().__init__()
        self.config = config
        d = config.d_model
        self.event_emb = nn.ModuleList(nn.Embedding(VOCAB[v], d) for v in EVENT_VOCAB)
        self.glob_emb = nn.ModuleList(nn.Embedding(VOCAB[v], d) for v in GLOBAL_VOCAB)
        self.cand_emb = nn.ModuleList(nn.Embedding(VOCAB[v], d) for v in CANDIDATE_VOCAB)
        self.event_text = nn.Linear(config.text_dim, d)
        self.event_seats = nn.Linear(MAX_SEATS, d)
        self.glob_seats = nn.Linear(MAX_SEATS, d)
        self.cand_text = nn.Linear(config.text_dim, d)
        self.cand_seats = nn.Linear(MAX_SEATS, d)
        self.position = nn.Embedding(config.max_events + 1, d)
        self.blocks = nn.ModuleList(_Block(d, config.heads, config.dropout) for _ in range(config.layers))
        self.norm = nn.LayerNorm(d)
        self.head = nn.Sequential(nn.Linear(3 * d, 2 * d), nn.GELU(), nn.Linear(2 * d, 1))

    def encode_view(
        self,
        events: Tensor,
        event_text: Tensor,
        event_seats: Tensor,
        event_pad: Tensor,
        glob: Tensor,
        glob_seats: Tensor,
    ) -> Tensor:
        """The view vectors (B, d) from event tokens (B, E, ...) and the global token (B, ...)."""
        x = self.event_text(event_text) + self.event_seats(event_seats)
        for i, emb in enumerate(self.event_emb):
            x = x + emb(events[:, :, i])
        g = self.glob_seats(glob_seats)
        for i, emb in enumerate(self.glob_emb):
            g = g + emb(glob[:, i])
        x = torch.cat([g[:, None, :], x], dim=1)
        positions = torch.arange(x.shape[1], device=x.device).clamp(max=self.config.max_events)
        x = x + self.position(positions)[None]
        pad = torch.cat([torch.zeros_like(event_pad[:, :1]), event_pad], dim=1)
        key_bias = pad.to(x.dtype) * -1e9
        for block in self.blocks:
            x = block(x, key_bias)
        out: Tensor = self.norm(x[:, 0])
        return out

    def score(self, view: Tensor, cand: Tensor, cand_text: Tensor, cand_seats: Tensor) -> Tensor:
        """Logits (B, K) for candidates (B, K, ...) of views already encoded (B, d)."""
        c = self.cand_text(cand_text) + self.cand_seats(cand_seats)
        for i, emb in enumerate(self.cand_emb):
            c = c + emb(cand[:, :, i])
        v = view[:, None, :].expand(-1, c.shape[1], -1)
        logits: Tensor = self.head(torch.cat([v, c, v * c], dim=-1)).squeeze(-1)
        return logits

    def forward(
        self,
        events: Tensor,
        event_text: Tensor,
        event_seats: Tensor,
        event_pad: Tensor,
        glob: Tensor,
        glob_seats: Tensor,
        cand: Tensor,
        cand_text: Tensor,
        cand_seats: Tensor,
    ) -> Tensor:
        """Logits (B, K) of P(win) for each view's K candidates (inputs as `BATCH_INPUTS`)."""
        view = self.encode_view(events, event_text, event_seats, event_pad, glob, glob_seats)
        return self.score(view, cand, cand_text, cand_seats)
