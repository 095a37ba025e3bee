"""Timing as every benchmark does it: fresh processes, run side by side, medians.

Python as installed runs with its bytecode cache: a sandbox that turns it off
(``PYTHONDONTWRITEBYTECODE``) would time the compiling of every module instead, so
:func:`installed_python` drops that variable from the environment the commands get.
"""

from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path

Command = tuple[Sequence[str], Mapping[str, str]]
"""A command line and the environment it runs in."""


def installed_python(**extra: str) -> dict[str, str]:
    """This process's environment with the bytecode cache on, and ``extra`` on top."""
    python = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    return {**python, **extra}


def timed_output(
    command: Sequence[str], env: Mapping[str, str] | None = None, cwd: Path | None = None
) -> tuple[float, str]:
    """The wall time of one run of ``command`` and what it printed; a failure stops the
    benchmark (``CalledProcessError``)."""
    start = time.perf_counter()
    done = subprocess.run(
        list(command), cwd=cwd, env=env, check=True, capture_output=True, text=True
    )
    return time.perf_counter() - start, done.stdout


def timed(
    command: Sequence[str], env: Mapping[str, str] | None = None, cwd: Path | None = None
) -> float:
    """The wall time of one run of ``command``."""
    return timed_output(command, env, cwd)[0]


def cpu_of_children() -> float:
    """User and system CPU seconds of every finished child process and its waited-for children."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def timed_with_cpu(
    command: Sequence[str], env: Mapping[str, str] | None = None, cwd: Path | None = None
) -> tuple[float, float]:
    """Wall and CPU seconds of one run: the CPU of ``command`` and of every process it starts,
    which the wall time hides while a second core is free."""
    cpu = cpu_of_children()
    wall = timed(command, env, cwd)
    return wall, cpu_of_children() - cpu


def interleaved_medians(
    commands: Mapping[str, Command], runs: int, cwd: Path | None = None
) -> dict[str, float]:
    """The median wall time of each command over ``runs`` rounds, after one warm-up round
    (file cache, gendoc's caches). Each round runs every command once, one after the other,
    so that the machine's noise hits them alike."""
    for command, env in commands.values():
        timed(command, env, cwd)
    times: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(runs):
        for name, (command, env) in commands.items():
            times[name].append(timed(command, env, cwd))
    return {name: statistics.median(found) for name, found in times.items()}


def medians_heading(runs: int) -> str:
    """The line above a table of medians: which onnx and Python, how many runs."""
    import onnx

    return f"onnx {onnx.__version__}, Python {sys.version.split()[0]}, {runs} runs, medians:"
