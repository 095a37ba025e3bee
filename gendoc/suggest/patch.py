"""The changed sources and the unified diff a contributor applies with ``git apply``."""

from __future__ import annotations

import difflib
from collections.abc import Mapping, Sequence

from gendoc.suggest.checkout import SourceTree
from gendoc.suggest.decide import Change
from gendoc.suggest.edit import apply, set_category

_NO_NEWLINE = "\\ No newline at end of file\n"


def changed_texts(tree: SourceTree, changes: Sequence[Change]) -> dict[str, str]:
    """The new text of every file ``changes`` touch, by path relative to the checkout."""
    by_path: dict[str, list[Change]] = {}
    for change in changes:
        by_path.setdefault(change.call.path, []).append(change)
    return {
        path: apply(
            tree.texts[path], [set_category(tree.texts[path], c.call, c.category) for c in cs]
        )
        for path, cs in sorted(by_path.items())
    }


def unified_diff(files: Mapping[str, tuple[str, str]]) -> str:
    """A ``-p1`` unified diff (``a/``, ``b/`` prefixes) of ``files``: path -> (old, new)."""
    out = []
    for path in sorted(files):
        old, new = files[path]
        lines = difflib.unified_diff(
            old.splitlines(keepends=True), new.splitlines(keepends=True), f"a/{path}", f"b/{path}"
        )
        out += [line if line.endswith("\n") else line + "\n" + _NO_NEWLINE for line in lines]
    return "".join(out)
