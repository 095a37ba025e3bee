"""Set the differentiation category of ``Input``/``Output`` calls, in onnx's own layout.

onnx formats its sources with clang-format (column limit 120, no bin-packing of
arguments, a break after the opening bracket when a call does not fit, four
spaces of continuation indent). An edit follows the same rules and touches
only the call it changes: a present category is replaced in place; a missing
one is appended after the defaults of the arguments it needs before it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from gendoc.suggest.checkout import CATEGORY_ARG, DEFAULTS, Call

COLUMN_LIMIT = 120
CONTINUATION = 4


@dataclass(frozen=True)
class Edit:
    """Replace ``text[start:end]`` with ``new``."""

    start: int
    end: int
    new: str


def set_category(text: str, call: Call, category: str) -> Edit:
    """The edit that gives ``call`` the category ``OpSchema::<category>``.

    A category already there is replaced where it stands, unless that pushes
    its line past the column limit; then, like missing arguments, the call is
    laid out again.
    """
    spelled = f"OpSchema::{category}"
    args = call.args
    present = len(args) > CATEGORY_ARG
    if present:
        old = args[CATEGORY_ARG]
        line_start = text.rfind("\n", 0, old.start) + 1
        line_end = _line_end(text, old.end)
        if line_end - line_start + len(spelled) - (old.end - old.start) <= COLUMN_LIMIT:
            return Edit(old.start, old.end, spelled)
    if _one_per_line(text, call):
        if present:
            return Edit(args[CATEGORY_ARG].start, args[CATEGORY_ARG].end, spelled)
        last = text.rfind("\n", 0, args[-1].start) + 1
        arg_indent = " " * (args[-1].start - last)
        added = [*DEFAULTS[len(args) - 4 :], spelled]
        return Edit(args[-1].end, args[-1].end, "".join(f",\n{arg_indent}{a}" for a in added))
    words = [text[a.start : a.end] for a in args[:CATEGORY_ARG]]
    words += [*DEFAULTS[len(words) - 4 :], spelled]
    line_start = text.rfind("\n", 0, call.open_at) + 1
    indent = len(text[line_start:]) - len(text[line_start:].lstrip(" "))
    tail = _line_end(text, call.close_at) - call.close_at  # the bracket and the rest of its line
    layout = _layout(call.open_at + 1 - line_start, words, tail, indent)
    return Edit(call.open_at + 1, call.close_at, layout)


def _line_end(text: str, offset: int) -> int:
    end = text.find("\n", offset)
    return len(text) if end < 0 else end


def _one_per_line(text: str, call: Call) -> bool:
    """Whether every argument of ``call`` starts a line of its own."""
    starts = [call.open_at + 1] + [a.end for a in call.args[:-1]]
    return all("\n" in text[s : a.start] for s, a in zip(starts, call.args, strict=True))


def _layout(prefix: int, words: list[str], tail: int, indent: int) -> str:
    """clang-format's choice: all on the call's line, all on the next line, or one a line."""
    together = ", ".join(words)
    if "\n" not in together:
        if prefix + len(together) + tail <= COLUMN_LIMIT:
            return together
        if indent + CONTINUATION + len(together) + tail <= COLUMN_LIMIT:
            return "\n" + " " * (indent + CONTINUATION) + together
    return ",".join("\n" + " " * (indent + CONTINUATION) + w for w in words)


def apply(text: str, edits: Iterable[Edit]) -> str:
    """``text`` with non-overlapping ``edits`` applied."""
    out, at = [], 0
    for edit in sorted(edits, key=lambda e: e.start):
        out += [text[at : edit.start], edit.new]
        at = edit.end
    return "".join(out) + text[at:]
