"""Write-protecting a file in a test, as root too."""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest


@contextlib.contextmanager
def write_protected(path: Path) -> Iterator[None]:
    """Make `path` refuse writes for this process (root ignores mode bits, so it gets chattr +i)."""
    if os.geteuid() != 0:
        path.chmod(0o444)
        try:
            yield
        finally:
            path.chmod(0o644)
        return
    chattr = shutil.which("chattr")
    if chattr is None or subprocess.run([chattr, "+i", str(path)], capture_output=True).returncode != 0:
        pytest.skip("cannot write-protect a file as root here (chattr +i is not available)")
    try:
        yield
    finally:
        subprocess.run([chattr, "-i", str(path)], check=True)
