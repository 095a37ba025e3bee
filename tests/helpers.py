"""Shared helpers: run the command line in a child process.

Schema registration in onnx is global to a process, so every test that
imports a ``--schemas`` module runs gendoc in a child process.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run_gendoc(*args: str, cwd: Path = ROOT, env: dict[str, str] | None = None):
    """Run ``python -m gendoc ARGS``; return the CompletedProcess (text mode)."""
    full_env = {**os.environ, **(env or {})}
    return subprocess.run(
        [sys.executable, "-m", "gendoc", *args],
        cwd=cwd,
        env=full_env,
        capture_output=True,
        text=True,
        timeout=600,
    )
