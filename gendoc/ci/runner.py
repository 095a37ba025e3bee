"""What every step of the action shares: its folder, the workspace on the path, the runner's files.

Each step runs ``python -I -m gendoc.ci.<step>`` with the Python of a virtualenv
under the runner's temporary folder, where gendoc is installed. ``-I`` keeps
``PYTHONPATH`` and the working directory off ``sys.path``, so the repository
being checked can never stand in for gendoc or anything gendoc imports; the
steps that import the repository's schema modules call :func:`workspace_last`,
which puts the repository root *after* every installed package.

Values that reach the log as workflow commands go through
:func:`gendoc.present.display.github_data`, so no string can end a command's line or
start one of its own; they and the job summary show control and bidi characters as
visible escapes (:func:`gendoc.present.visible.visible`).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path

from gendoc.present.annotations import shown_annotations
from gendoc.present.display import github_data, github_property
from gendoc.present.visible import visible


def work_folder() -> Path:
    """``$RUNNER_TEMP/gendoc``: the base worktree, snapshots, the comment, the virtualenvs."""
    return Path(os.environ["RUNNER_TEMP"]) / "gendoc"


def workspace_last() -> None:
    """Let the repository's schema modules be imported, after every installed package."""
    root = os.getcwd()
    if root not in sys.path:
        sys.path.append(root)


def schema_modules() -> list[str]:
    """The ``schemas`` input: module names separated by white space."""
    return os.environ.get("SCHEMAS", "").split()


def missing_file(snapshot: Path) -> Path:
    """Where the export step lists the modules that do not exist on a snapshot's side."""
    return snapshot.with_name(snapshot.stem + ".missing.json")


def missing_note(module: str, side: str) -> str:
    """What a note or notice says of a ``schemas`` module that one side does not have."""
    return f"{module} does not exist on the {side} side: no schemas from it there."


def append_summary(markdown: str) -> None:
    """Add ``markdown`` to the job summary (nothing outside a runner)."""
    path = os.environ.get("GITHUB_STEP_SUMMARY")
    if path:
        with open(path, "a", encoding="utf-8") as summary:
            text = visible(markdown)
            summary.write(text if text.endswith("\n") else text + "\n")


def annotation(level: str, message: str, *, title: str, file: str | None = None) -> str:
    """One workflow command (``::error file=...,title=...::message``), escaped."""
    where = f"file={github_property(file)}," if file else ""
    return visible(f"::{level} {where}title={github_property(title)}::{github_data(message)}")


def bounded(level: str, messages: Iterable[tuple[str, str | None]], title: str) -> Iterator[str]:
    """Annotations of one level, at most what GitHub shows; the last counts the rest."""
    kept, left_out = shown_annotations(list(messages))
    for message, file in kept:
        yield annotation(level, message, title=title, file=file)
    if left_out:
        yield annotation(level, f"{left_out} more, listed in the job summary", title=title)
