"""Training data from stored games: viewpoint samples, seat-label permutation, splits by game.

- `samples`: `decision_points(record)`, one `DecisionPoint` per (seat, accepted answer), with the
  exact view the engine gave the seat;
- `augment`: seat relabellings applied to events, views, requests, actions and utterance text;
- `rows`: `to_row` / `from_row`, JSON-ready rows and back;
- `build`: `build_dataset`, `write_dataset`, `dataset_stats` over Hugging Face `datasets`
  (the `train` extra; imported only when a dataset is built or read).
"""

from lycan.data.augment import (
    Perm,
    inverse,
    permute_action,
    permute_event,
    permute_request,
    permute_text,
    permute_view,
    seat_permutations,
)
from lycan.data.build import (
    SPLITS,
    BuildSummary,
    DatasetStats,
    build_dataset,
    dataset_card,
    dataset_stats,
    load_dataset_dir,
    record_rows,
    split_of,
    write_dataset,
)
from lycan.data.rows import Row, from_row, to_row
from lycan.data.samples import DecisionPoint, decision_points, replay_asked

__all__ = [
    "SPLITS",
    "BuildSummary",
    "DatasetStats",
    "DecisionPoint",
    "Perm",
    "Row",
    "build_dataset",
    "dataset_card",
    "dataset_stats",
    "decision_points",
    "from_row",
    "inverse",
    "load_dataset_dir",
    "permute_action",
    "permute_event",
    "permute_request",
    "permute_text",
    "permute_view",
    "record_rows",
    "replay_asked",
    "seat_permutations",
    "split_of",
    "to_row",
    "write_dataset",
]
