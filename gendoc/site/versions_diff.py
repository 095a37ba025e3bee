"""Line-by-line differences between consecutive versions of one operator.

Each version is flattened into plain text lines: the doc, then one line per
attribute, input, output and type constraint, each followed by its
description. The lines of two versions are compared with ``difflib`` and
shown as a unified diff with a few lines of context. A parameter whose
differentiability tag differs between the versions is a *tag change*: its
lines are flagged so that the page can make them stand out, and the change
is also listed on its own above the diff.
"""

from __future__ import annotations

import difflib
import inspect
from dataclasses import dataclass
from itertools import pairwise

from gendoc.display import Display
from gendoc.model import Schema
from gendoc.pairing import TagChange, tag_changes

CONTEXT = 3


@dataclass(frozen=True)
class Line:
    """One line of a version's text; ``param`` names the parameter it heads, if any."""

    text: str
    param: tuple[str, str] | None = None


@dataclass(frozen=True)
class DiffLine:
    """One line of the diff: ``kind`` is ``"+"``, ``"-"``, ``" "`` or ``"…"`` (a gap)."""

    kind: str
    text: str
    tag_change: bool = False


@dataclass(frozen=True)
class VersionDiff:
    old: Schema
    new: Schema
    lines: tuple[DiffLine, ...]
    tag_changes: tuple[TagChange, ...]


def _described(head: Line, description: str) -> list[Line]:
    body = inspect.cleandoc(description).splitlines()
    return [head, *(Line(f"    {text}".rstrip()) for text in body)]


def version_lines(schema: Schema, display: Display) -> list[Line]:
    """The text of one version, as the diff compares it; labels from ``display``."""
    lines = [Line(text.rstrip()) for text in inspect.cleandoc(schema.doc).splitlines()]
    for attr in schema.attributes:
        shown = f"{display.part('attribute')} {attr.name}: {display.attr_signature(attr)}"
        lines += _described(Line(shown), attr.description)
    for part, params in (("input", schema.inputs), ("output", schema.outputs)):
        for param in params:
            tags = display.param_tags(param)
            head = Line(
                f"{display.part(part)} {param.name}{tags}: {param.type_str}", (part, param.name)
            )
            lines += _described(head, param.description)
    for tc in schema.type_constraints:
        shown = f"{display.part('type constraint')} {tc.name}: {', '.join(tc.allowed_types)}"
        lines += _described(Line(shown), tc.description)
    return lines


def diff_versions(old: Schema, new: Schema, display: Display) -> VersionDiff:
    """The unified diff of two versions, with context, tag changes flagged."""
    changes = list(tag_changes(old, new))
    changed = {(c.part, name) for c in changes for name in (c.name, c.old_name)}
    a, b = version_lines(old, display), version_lines(new, display)
    matcher = difflib.SequenceMatcher(None, [x.text for x in a], [x.text for x in b], False)
    out: list[DiffLine] = []
    for group in matcher.get_grouped_opcodes(CONTEXT):
        if out:
            out.append(DiffLine("…", ""))
        for op, i1, i2, j1, j2 in group:
            if op == "equal":
                out += [DiffLine(" ", line.text) for line in a[i1:i2]]
                continue
            out += [DiffLine("-", x.text, x.param in changed) for x in a[i1:i2]]
            out += [DiffLine("+", x.text, x.param in changed) for x in b[j1:j2]]
    return VersionDiff(old, new, tuple(out), tuple(changes))


def operator_diffs(versions: tuple[Schema, ...], display: Display) -> dict[int, VersionDiff]:
    """For each version but the first, its diff from the version before, by since_version."""
    return {new.since_version: diff_versions(old, new, display) for old, new in pairwise(versions)}
