from __future__ import annotations

import os
from typing import Any

import pytest

from scripted import ScriptedModel

# The suite reads talk with the hashed model unless a test asks for another, so that records, golden
# digests and timings do not depend on whether the train extra is installed; the sentence-encoder
# reader, the default where it is, has its own tests (test_encoder_reader.py), a whole game included.
os.environ.setdefault("LYCAN_TALK_MODEL", "ngram")

# With several workers (`pytest -n auto`), each worker's torch and BLAS get its share of the CPUs: at
# their default of one thread per core, two workers' threads spun on each other's cores on two cores
# (tuning the encoder reader on 80 lines took 23 s alone and 45 s beside another worker).
# Subprocesses inherit it.
_WORKERS = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))
if _WORKERS > 1:
    for _threads in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ.setdefault(_threads, str(max(1, (os.cpu_count() or 1) // _WORKERS)))


_SECONDS = {
    "test_llm_real.py": 123,
    "test_arena.py": 87,
    "test_camwolf_real.py": 82,
    "test_heuristic_beliefs.py": 81,
    "test_golden_records.py": 75,
    "test_causal_grpo.py": 74,
    "test_opinions.py": 71,
    "test_web_perception.py": 68,
    "test_wording.py": 66,
    "test_encoder_reader.py": 65,
    "test_web_hardening.py": 58,
    "test_camwolf.py": 51,
    "test_deepwolf_pipeline.py": 49,
    "test_conformance.py": 46,
    "test_rollout.py": 34,
    "test_beliefs_soft.py": 27,
    "test_judge.py": 26,
    "test_web_browser.py": 22,
    "test_setup_script.py": 21,
    "test_beliefs.py": 18,
    "test_models_real.py": 18,
    "test_cli.py": 15,
}
"""About how long the heaviest test files take (seconds, the full suite on 2 cores).

With `--dist loadfile` a worker runs a whole file, and files are handed out in collection order:
the heaviest go first (`scripts/test` keeps this order with `--no-loadscope-reorder`), so that the
last file a worker runs is a short one and no worker runs a long file alone while the others wait.
"""


@pytest.hookimpl(trylast=True)  # after pytest's own reordering for fixtures, whose order inside a file it keeps
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Files in order of `_SECONDS`, heaviest first; the rest after them, those of most tests first."""
    tests: dict[str, int] = {}
    for item in items:
        tests[item.path.name] = tests.get(item.path.name, 0) + 1
    items.sort(key=lambda item: (-_SECONDS.get(item.path.name, 0), -tests[item.path.name], str(item.path)))


@pytest.fixture
def scripted_model() -> type[ScriptedModel]:
    """The scripted chat model class: `scripted_model(responder, piece=3)` builds one."""
    return ScriptedModel


@pytest.fixture
def no_server(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """`uvicorn.run` replaced by a stand-in that records its calls, so that no test starts a server."""
    import uvicorn

    calls: list[dict[str, Any]] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **options: calls.append({"app": app, **options}))
    return calls
