"""Shared helpers: run the command line in a child process.

Schema registration in onnx is global to a process, so every test that
imports a ``--schemas`` module runs gendoc in a child process.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable, Collection
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


def lines_run(files: Collection[str], call: Callable[[], object]) -> int:
    """The Python lines ``call`` runs in the modules ``files``: a measure of its work that does
    not depend on the clock. The tracer in place before (coverage's, when it runs) is put
    back, never turned off."""
    steps = 0

    def local(frame, event, arg):
        nonlocal steps
        steps += event == "line"
        return local

    def calls(frame, event, arg):
        return local if frame.f_code.co_filename in files else None

    previous = sys.gettrace()
    sys.settrace(calls)
    try:
        call()
    finally:
        sys.settrace(previous)
    return steps
