"""The action's diff step: compare the two snapshots, name both commits, write the results.

``python -I -m gendoc.ci.diff_step`` reads ``base.json`` and ``head.json`` from the
action's folder (written by :mod:`gendoc.ci.export_step`) and imports nothing from
the repository. Each side is named by its commit (``BASE_SHA``, ``HEAD_SHA``)
and the onnx its snapshot was made with. It writes:

- the job summary: the Markdown diff and the notes of the export step;
- ``comment.json`` in the action's folder, for the posting step:
  ``{"differences": bool, "body": str}``;
- annotations on stdout (``gendoc diff --format github``).

It exits 1 when ``FAIL_ON`` (``tag-change``, ``any``, ``never``) says the changes
fail the job; the posting step runs all the same. A comparison that takes longer
than :data:`TIME_LIMIT` seconds (``DIFF_TIME_LIMIT`` in the environment) is stopped:
one error annotation, exit 2 and no comment, as for snapshots it cannot read.
"""

from __future__ import annotations

import dataclasses
import json
import math
import os
import signal
import sys
from collections.abc import Iterator
from contextlib import contextmanager

from gendoc.ci.runner import annotation, append_summary, work_folder
from gendoc.commands.diff import DiffReport, FailOn, Side, diff, format_diff
from gendoc.errors import GendocError

SHORT_SHA = 12

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


def main() -> int:
    env = os.environ
    work = work_folder()
    try:
        fail_on = FailOn(env.get("FAIL_ON", "never"))
        seconds = float(env.get("DIFF_TIME_LIMIT", TIME_LIMIT))
        if not 0 < seconds < math.inf:
            raise ValueError(f"DIFF_TIME_LIMIT must be a positive number of seconds: {seconds}")
        with time_limit(seconds):
            report = diff(str(work / "base.json"), str(work / "head.json"))
            report = named(report, env.get("BASE_SHA", ""), env.get("HEAD_SHA", ""))
            body = format_diff(report, "markdown")
            annotations = format_diff(report, "github", fail_on)
    except (GendocError, ValueError) as exc:
        print(annotation("error", str(exc), title="gendoc diff"))
        return 2
    notes = work / "notes.md"
    if notes.is_file():
        body += "\n" + notes.read_text(encoding="utf-8")
    append_summary(body)
    comment = {"differences": bool(report.changes), "body": body}
    (work / "comment.json").write_text(json.dumps(comment), encoding="utf-8")
    sys.stdout.write(annotations)
    return report.exit_status(fail_on)


if __name__ == "__main__":
    sys.exit(main())
