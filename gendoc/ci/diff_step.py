"""The action's diff step: compare the two snapshots, name both commits, write the results.

``python -I -m gendoc.ci.diff_step`` runs in the second job of the action
(``job: compare``), where no code of the pull request has run, and imports
nothing from the repository. It reads from the action's folder:

- ``base.json``: the base commit's snapshot, written in this job by
  :mod:`gendoc.ci.export_step`;
- ``head/head.json``: the pull request's snapshot, the artifact the first job
  uploaded. That job ran the pull request's code, so the file is data to check:
  a regular file (not a link) of at most :data:`MAX_SNAPSHOT_BYTES`, that
  :func:`~gendoc.model.snapshot.load_snapshot` accepts as a snapshot;
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
fail the job, and 2, with one error annotation, when an input is unusable; the
posting step runs after an exit 1 all the same.
"""

from __future__ import annotations

import dataclasses
import json
import os
import stat
import sys
from pathlib import Path

from gendoc.ci.runner import (
    annotation,
    append_summary,
    missing_file,
    missing_note,
    schema_modules,
    work_folder,
)
from gendoc.commands.diff import DiffReport, FailOn, Side, diff, format_diff
from gendoc.errors import GendocError, UsageError
from gendoc.present.display import code_span
from gendoc.present.visible import visible

SHORT_SHA = 12
MAX_SNAPSHOT_BYTES = 32 * 1024 * 1024
"""Far more than a snapshot of every operator of onnx: any real one fits."""
MAX_MISSING_BYTES = 64 * 1024


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
        checked_file(head, MAX_SNAPSHOT_BYTES)
        report = diff(str(base), str(head))
        missing = notes([("base", base), ("pull request", head)])
    except (GendocError, ValueError) as exc:
        print(annotation("error", str(exc), title="gendoc diff"))
        return 2
    report = named(report, env.get("BASE_SHA", ""), env.get("HEAD_SHA", ""))
    body = format_diff(report, "markdown")
    if missing:
        body += "\n" + visible(missing)
    append_summary(body)
    comment = {"differences": bool(report.changes), "body": body}
    (work / "comment.json").write_text(json.dumps(comment), encoding="utf-8")
    sys.stdout.write(format_diff(report, "github", fail_on))
    return report.exit_status(fail_on)


if __name__ == "__main__":
    sys.exit(main())
