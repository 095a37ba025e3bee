"""Which documents on disk differ from what ``gendoc build`` would write, and how.

The outcome of ``gendoc check`` and of the action's check step: each stale
document with its bytes on disk and the expected ones, a bounded unified diff
of the two, and the one command that regenerates them.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path


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


def _bounded(lines: list[str], max_lines: int) -> Iterator[str]:
    yield from lines[:max_lines]
    hidden = len(lines) - max_lines
    if hidden > 0:
        yield f"... {hidden} more diff lines not shown"
