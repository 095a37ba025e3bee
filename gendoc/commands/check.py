"""Check: are the documents on disk exactly what ``gendoc build`` would write?

Meant for CI and pre-commit hooks, where a stale reference should fail
with enough context to fix it without digging: a bounded unified diff of
each stale file and the one command that regenerates them. It compares
bytes, as the writer does, and never writes anything itself.
"""

from __future__ import annotations

import difflib
import shlex
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from gendoc.commands.build import source_reference
from gendoc.errors import UsageError
from gendoc.present.render import RenderOptions, render_documents, render_report
from gendoc.storage.write import changed_documents

DEFAULT_OPTIONS = RenderOptions()


@dataclass(frozen=True)
class StaleDocument:
    """A document whose bytes on disk (``None``: missing) differ from the expected ones."""

    path: Path
    on_disk: bytes | None
    expected: bytes

    @property
    def line_endings_only(self) -> bool:
        return self.on_disk is not None and self.on_disk.replace(b"\r\n", b"\n") == self.expected

    def diff(self, max_lines: int) -> list[str]:
        """The unified diff: both header lines, then at most ``max_lines`` hunk lines."""
        lines = list(
            difflib.unified_diff(
                (self.on_disk or b"").decode("utf-8", errors="replace").splitlines(),
                self.expected.decode("utf-8").splitlines(),
                fromfile=f"{self.path} (on disk)",
                tofile=f"{self.path} (expected)",
                lineterm="",
            )
        )
        return [*lines[:2], *_bounded(lines[2:], max_lines)]


@dataclass(frozen=True)
class CheckReport:
    """The outcome of ``gendoc check``; ``fix`` is the command that regenerates the documents."""

    out: Path
    documents: int
    stale: tuple[StaleDocument, ...]
    fix: str

    @property
    def ok(self) -> bool:
        return not self.stale

    def exit_status(self) -> int:
        return 0 if self.ok else 1


def fix_command(
    out: Path, options: RenderOptions, schemas: Sequence[str] = (), snapshot: Path | None = None
) -> str:
    """The ``gendoc build`` command that regenerates what was checked.

    ``--out`` and ``--style`` are always spelled out so the command stays
    right if a default changes; the other options only when they differ
    from their defaults, so the command reads like what the user typed.
    """
    parts = ["gendoc", "build"]
    for module in schemas:
        parts += ["--schemas", module]
    if snapshot is not None:
        parts += ["--from", str(snapshot)]
    parts += ["--out", str(out), "--style", options.style]
    defaults = RenderOptions()
    if options.lang != defaults.lang:
        parts += ["--lang", options.lang]
    if options.undefined != defaults.undefined:
        parts += ["--undefined", options.undefined]
    if options.templates is not None:
        parts += ["--templates", str(options.templates)]
    if not options.schema_translation:
        parts.append("--no-schema-translation")
    return shlex.join(parts)


def _bounded(lines: list[str], max_lines: int) -> Iterator[str]:
    yield from lines[:max_lines]
    hidden = len(lines) - max_lines
    if hidden > 0:
        yield f"... {hidden} more diff lines not shown"


def check_documents(
    out: Path,
    documents: Mapping[str, str],
    options: RenderOptions,
    schemas: Sequence[str] = (),
    snapshot: Path | None = None,
) -> CheckReport:
    """Compare rendered ``documents`` with the files in ``out``."""
    stale = changed_documents(out, documents)
    return CheckReport(
        out=out,
        documents=len(documents),
        stale=tuple(StaleDocument(out / name, old, new) for name, (old, new) in stale.items()),
        fix=fix_command(out, options, schemas, snapshot),
    )


def format_check(report: CheckReport, max_diff_lines: int = 200, lang: str = "en") -> str:
    """What ``gendoc check`` prints: each stale file's bounded diff, then how to fix it."""
    if max_diff_lines < 0:
        raise UsageError(f"--max-diff-lines must be 0 or more, not {max_diff_lines}")
    return render_report("cli/check.txt.j2", lang, report=report, max_lines=max_diff_lines)


def check(
    out: Path,
    options: RenderOptions = DEFAULT_OPTIONS,
    *,
    schemas: Sequence[str] = (),
    snapshot: Path | None = None,
) -> CheckReport:
    """Compare the documents in ``out`` with what ``gendoc.build`` would write; write nothing.

    ``snapshot`` (a file ``gendoc export`` wrote) stands in for the installed onnx.
    """
    documents = render_documents(source_reference(schemas, snapshot), options)
    return check_documents(out, documents, options, schemas, snapshot)
