"""The hand-written stub of the compiled module matches what the module really exports."""

from __future__ import annotations

import subprocess
import sys

import pytest


def test_core_stub_matches_the_compiled_module() -> None:
    pytest.importorskip("mypy")
    run = subprocess.run(
        [sys.executable, "-m", "mypy.stubtest", "triple_draw._core"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stdout + run.stderr
