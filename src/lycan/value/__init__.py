"""The value network at play: P(win | a seat's view so far, its role, a candidate action).

One network serves every role and seat (both are inputs). Play needs onnxruntime (the `train`
extra) for `OnnxValue`; `lycan.value.features` and `lycan.value.encoders` need only numpy (plus
sentence-transformers for the `minilm` encoder). Training lives above the agents, in `lycan.train`.

    from lycan.value import default_calibration, default_value, state_value
    model = default_value()                          # the network that ships with Lycan
    model.score(view, request, candidates)          # list of P(win), one per candidate
    state_value(model, view, default_calibration())  # P(win) now, calibrated for unknown players
"""

from lycan.value.base import CalibratedValue, Calibration, Sample, ValueModel, as_sample, state_value
from lycan.value.encoders import CachedEncoder, HashingEncoder, MiniLMEncoder, TextEncoder, make_encoder
from lycan.value.features import CandidateFeatures, ViewFeatures, candidate_features, collate, view_features
from lycan.value.shipped import default_calibration, default_candidates, default_value

__all__ = [
    "CachedEncoder",
    "CalibratedValue",
    "Calibration",
    "CandidateFeatures",
    "HashingEncoder",
    "MiniLMEncoder",
    "Sample",
    "TextEncoder",
    "ValueModel",
    "ViewFeatures",
    "as_sample",
    "candidate_features",
    "collate",
    "default_calibration",
    "default_candidates",
    "default_value",
    "make_encoder",
    "state_value",
    "view_features",
]
