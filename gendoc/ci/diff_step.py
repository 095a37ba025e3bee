"""The action's diff step: compare the two snapshots, name both commits, write the results.

``python -I -m gendoc.ci.diff_step`` runs in the second job of the action
(``job: compare``), where no code of the pull request has run, and imports
nothing from the repository. It reads from the action's folder:

- ``base.json``: the base commit's snapshot, written in this job by
  :mod:`gendoc.ci.export_step`;
- ``head/head.json``: the pull request's snapshot, the artifact the first job
  uploaded. That job ran the pull request's code, so the file is data to check:
  a regular file (not a link) of at most :data:`MAX_SNAPSHOT_BYTES`, that
  :func:`~gendoc.model.snapshot_read.load_snapshot` accepts as a snapshot;
- beside each, the modules of the ``schemas`` input that its side does not have
  (:func:`~gendoc.ci.runner.missing_file`), a JSON list of names that must be
  among that input, turned into notes here.

Each side is named by its commit (``BASE_SHA``, ``HEAD_SHA``) and the onnx its
snapshot was made with. It writes:

- the job summary: the Markdown diff and the notes;
- ``comment.json`` in the action's folder, for the posting step:
  ``{"differences": bool, "body": str}``;
- annotations on stdout (``gendoc diff --format github``).

It exits 1 when ``FAIL_ON`` (``tag-change``, ``any``, ``never``) says the changes
fail the job, and 2, with one error annotation, when an input is unusable or the
comparison takes longer than :data:`TIME_LIMIT` seconds (``DIFF_TIME_LIMIT`` in the
environment; no comment then); the posting step runs after an exit 1 all the same.
"""

from __future__ import annotations

import dataclasses
import json
import math
import os
import signal
import stat
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from gendoc.ci.runner import (
    annotation,
    append_summary,
    missing_file,
    missing_note,
    schema_modules,
    work_folder,
)
from gendoc.commands.diff import MAX_SNAPSHOT_BYTES, diff
from gendoc.errors import GendocError, UsageError
from gendoc.model.compare import DiffReport, FailOn, Side
from gendoc.present.diff_report import format_diff
from gendoc.present.display import code_span
from gendoc.present.visible import visible

SHORT_SHA = 12
MAX_MISSING_BYTES = 64 * 1024

TIME_LIMIT = 300.0
"""Seconds the comparison and its reports may take. onnx's own schemas take about a second;
the comparison's work grows about as its input does, and a snapshot holds at most
:data:`gendoc.commands.diff.MAX_SNAPSHOT_BYTES`, so only a hostile pair comes near it."""


class OutOfTime(GendocError):
    """The comparison took longer than its time limit."""


@contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    """Raise :class:`OutOfTime` in this (main) thread once ``seconds`` have passed."""

    def stop(signum: int, frame: object) -> None:
        raise OutOfTime(f"the comparison took more than {seconds:g} s and was stopped")

    previous = signal.signal(signal.SIGALRM, stop)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def named(report: DiffReport, base_sha: str, head_sha: str) -> DiffReport:
    """The report with each side named by its commit instead of its snapshot file."""
    return dataclasses.replace(
        report,
        old=Side(base_sha[:SHORT_SHA] or "base", report.old.onnx_version),
        new=Side(head_sha[:SHORT_SHA] or "head", report.new.onnx_version),
    )


def checked_file(path: Path, limit: int) -> Path:
    """``path`` if it is a regular file of at most ``limit`` bytes; else one UsageError line."""
    try:
        info = path.lstat()
    except FileNotFoundError:
        raise UsageError(f"{path} is missing") from None
    if not stat.S_ISREG(info.st_mode):
        raise UsageError(f"{path} is not a regular file")
    if info.st_size > limit:
        raise UsageError(f"{path} has {info.st_size} bytes, more than {limit}")
    return path


def missing_modules(snapshot: Path) -> list[str]:
    """The ``schemas`` modules a side does not have, as its export step listed them."""
    path = checked_file(missing_file(snapshot), MAX_MISSING_BYTES)
    try:
        names = json.loads(path.read_bytes())
    except (ValueError, RecursionError):
        names = None
    known = schema_modules()
    if not isinstance(names, list) or not all(name in known for name in names):
        raise UsageError(f"{path} is not a list of modules of the schemas input")
    return names


def notes(sides: list[tuple[str, Path]]) -> str:
    """A Markdown list of the modules each side does not have; empty when none is missing."""
    return "".join(
        f"- {missing_note(code_span(module), side)}\n"
        for side, snapshot in sides
        for module in missing_modules(snapshot)
    )


def main() -> int:
    env = os.environ
    work = work_folder()
    base, head = work / "base.json", work / "head" / "head.json"
    try:
        fail_on = FailOn(env.get("FAIL_ON", "never"))
        seconds = float(env.get("DIFF_TIME_LIMIT", TIME_LIMIT))
        if not 0 < seconds < math.inf:
            raise ValueError(f"DIFF_TIME_LIMIT must be a positive number of seconds: {seconds}")
        with time_limit(seconds):
            checked_file(head, MAX_SNAPSHOT_BYTES)
            report = diff(str(base), str(head))
            missing = notes([("base", base), ("pull request", head)])
            report = named(report, env.get("BASE_SHA", ""), env.get("HEAD_SHA", ""))
            body = format_diff(report, "markdown")
            annotations = format_diff(report, "github", fail_on)
    except (GendocError, ValueError) as exc:
        print(annotation("error", str(exc), title="gendoc diff"))
        return 2
    if missing:
        body += "\n" + visible(missing)
    append_summary(body)
    comment = {"differences": bool(report.changes), "body": body}
    (work / "comment.json").write_text(json.dumps(comment), encoding="utf-8")
    sys.stdout.write(annotations)
    return report.exit_status(fail_on)


if __name__ == "__main__":
    sys.exit(main())
