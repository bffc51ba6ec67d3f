"""The value network: P(win | a seat's view so far, its role, a candidate action).

One network serves every role and seat (both are inputs). Needs the `train` extra (torch,
sentence-transformers, onnxruntime); `lycan.value.features` and `lycan.value.encoders` need only
numpy (plus sentence-transformers for the `minilm` encoder).

    from lycan.value import TrainConfig, train_value, export_onnx, OnnxValue
    model = train_value(samples, TrainConfig(encoder="minilm"), held_out=other_samples)
    model.score(view, request, candidates)          # list of P(win), one per candidate
"""

from lycan.value.base import Sample, ValueModel, as_sample
from lycan.value.encoders import CachedEncoder, HashingEncoder, MiniLMEncoder, TextEncoder, make_encoder
from lycan.value.features import CandidateFeatures, ViewFeatures, candidate_features, collate, view_features
from lycan.value.pipeline import PipelineConfig, default_candidates, default_value, train_pipeline

__all__ = [
    "CachedEncoder",
    "CandidateFeatures",
    "HashingEncoder",
    "MiniLMEncoder",
    "PipelineConfig",
    "Sample",
    "TextEncoder",
    "ValueModel",
    "ViewFeatures",
    "as_sample",
    "candidate_features",
    "collate",
    "default_candidates",
    "default_value",
    "make_encoder",
    "train_pipeline",
    "view_features",
]
