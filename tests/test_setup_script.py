"""scripts/setup on a machine with an empty wheel cache: the first run must succeed, and say why if not.

The real llama-cpp-python build takes minutes, so the build step compiles a tiny stand-in package
of the same name and version (LYCAN_LLAMA_SOURCE); everything else is the real script in a copy
of the repository with a minimal project, a fresh virtual environment and a fresh wheel folder.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
_PIN = re.search(r"LLAMA_VERSION=(\S+)", (ROOT / "scripts" / "setup").read_text())
assert _PIN is not None, "scripts/setup pins no llama-cpp-python version"
LLAMA_VERSION = _PIN.group(1)

pytestmark = pytest.mark.slow


def _stand_in(folder: Path, *, broken: bool = False) -> Path:
    """A buildable (or, if `broken`, unbuildable) package named llama_cpp_python."""
    folder.mkdir()
    (folder / "pyproject.toml").write_text(
        "[build-system]\nrequires = ['setuptools>=68']\nbuild-backend = 'setuptools.build_meta'\n"
        f"[project]\nname = 'llama_cpp_python'\nversion = '{LLAMA_VERSION}'\n"
        "[tool.setuptools]\npy-modules = ['llama_cpp_stand_in']\n"
    )
    source = "raise SystemExit('this stand-in does not build')" if broken else "STAND_IN = True"
    (folder / ("setup.py" if broken else "llama_cpp_stand_in.py")).write_text(source + "\n")
    if broken:
        (folder / "llama_cpp_stand_in.py").write_text("")
    return folder


def _repo(tmp: Path) -> Path:
    """A copy of the setup script beside a project that has only an empty `llm` extra."""
    repo = tmp / "repo"
    (repo / "scripts").mkdir(parents=True)
    shutil.copy(ROOT / "scripts" / "setup", repo / "scripts" / "setup")
    (repo / "pyproject.toml").write_text(
        "[build-system]\nrequires = ['setuptools>=68']\nbuild-backend = 'setuptools.build_meta'\n"
        "[project]\nname = 'setup-probe'\nversion = '0'\n[project.optional-dependencies]\nllm = []\n"
        "[tool.setuptools]\npy-modules = []\n"
    )
    return repo


def _run(repo: Path, wheels: Path, source: Path) -> subprocess.CompletedProcess[str]:
    env = {
        **os.environ,
        "LYCAN_WHEELS": str(wheels),
        "LYCAN_LLAMA_SOURCE": str(source),
        "LYCAN_NO_APT": "1",
        "LYCAN_EXTRAS": "llm",
        "PYTHON": sys.executable,
    }
    env.pop("VIRTUAL_ENV", None)
    return subprocess.run(
        ["bash", str(repo / "scripts" / "setup")], env=env, capture_output=True, text=True, timeout=600, check=False
    )


def test_first_run_with_an_empty_wheel_cache_succeeds_then_reuses_the_wheel(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    wheels = tmp_path / "wheels"
    source = _stand_in(tmp_path / "stand-in")
    first = _run(repo, wheels, source)
    assert first.returncode == 0, first.stdout + first.stderr
    assert "building llama-cpp-python" in first.stderr
    built = list(wheels.glob(f"*/llama_cpp_python-{LLAMA_VERSION}-*.whl"))
    assert len(built) == 1
    probe = subprocess.run(
        [str(repo / ".venv" / "bin" / "python"), "-c", "import llama_cpp_stand_in as m; print(m.STAND_IN)"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert probe.stdout.strip() == "True", probe.stderr
    second = _run(repo, wheels, source)
    assert second.returncode == 0, second.stdout + second.stderr
    assert "building" not in second.stderr


def test_a_failed_build_says_which_step_failed(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    result = _run(repo, tmp_path / "wheels", _stand_in(tmp_path / "broken", broken=True))
    assert result.returncode == 1
    assert f"setup: building llama-cpp-python {LLAMA_VERSION} failed" in result.stderr
