"""Check: are the documents on disk exactly what ``gendoc build`` would write?

Meant for CI and pre-commit hooks, where a stale reference should fail
with enough context to fix it without digging: a bounded unified diff of
each stale file and the one command that regenerates them. It compares
bytes, as the writer does, and never writes anything itself.
"""

from __future__ import annotations

import argparse
import difflib
import shlex
from collections.abc import Iterator, Mapping
from pathlib import Path

from gendoc.errors import UsageError
from gendoc.render import RenderOptions
from gendoc.write import changed_documents


def fix_command(args: argparse.Namespace) -> str:
    """The ``gendoc build`` command that regenerates what ``args`` checked.

    ``--out`` and ``--style`` are always spelled out so the command stays
    right if a default changes; the other options only when they differ
    from their defaults, so the command reads like what the user typed.
    """
    parts = ["gendoc", "build"]
    for module in args.schemas:
        parts += ["--schemas", module]
    parts += ["--out", str(args.out), "--style", args.style]
    defaults = RenderOptions()
    if args.lang != defaults.lang:
        parts += ["--lang", args.lang]
    if args.undefined != defaults.undefined:
        parts += ["--undefined", args.undefined]
    if args.templates is not None:
        parts += ["--templates", str(args.templates)]
    return shlex.join(parts)


def _bounded(lines: list[str], max_lines: int) -> Iterator[str]:
    yield from lines[:max_lines]
    hidden = len(lines) - max_lines
    if hidden > 0:
        yield f"... {hidden} more diff lines not shown"


def describe_stale(path: Path, on_disk: bytes | None, expected: bytes, max_lines: int) -> list[str]:
    """What is wrong with one stale file, as lines for the terminal.

    The two diff header lines are always shown; ``max_lines`` bounds the
    hunks, since a regenerated reference can differ in thousands of lines.
    """
    if on_disk is None:
        return [f"{path} is missing"]
    if on_disk.replace(b"\r\n", b"\n") == expected:
        return [f"{path} differs only in line endings (CRLF on disk, LF expected)"]
    diff = list(
        difflib.unified_diff(
            on_disk.decode("utf-8", errors="replace").splitlines(),
            expected.decode("utf-8").splitlines(),
            fromfile=f"{path} (on disk)",
            tofile=f"{path} (expected)",
            lineterm="",
        )
    )
    return [f"{path} is stale:", *diff[:2], *_bounded(diff[2:], max_lines)]


def check_documents(args: argparse.Namespace, documents: Mapping[str, str]) -> int:
    """``gendoc check``: 0 when every document on disk is current, 1 when any is stale."""
    if args.max_diff_lines < 0:
        raise UsageError(f"--max-diff-lines must be 0 or more, not {args.max_diff_lines}")
    stale = changed_documents(args.out, documents)
    if not stale:
        print(f"{len(documents)} documents in {args.out} are up to date")
        return 0
    for name, (on_disk, expected) in stale.items():
        path = args.out / name
        print("\n".join(describe_stale(path, on_disk, expected, args.max_diff_lines)))
        print()
    verb = "is" if len(stale) == 1 else "are"
    print(
        f"{len(stale)} of {len(documents)} documents in {args.out} {verb} stale; regenerate with:"
    )
    print(f"  {fix_command(args)}")
    return 1
