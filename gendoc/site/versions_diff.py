"""Line-by-line differences between two versions of one operator.

Each version is flattened into plain text lines: the doc, then one line per
attribute, input, output and type constraint, each followed by its
description. The lines of two versions are compared with ``difflib`` and
shown as a unified diff with a few lines of context. A parameter whose
differentiability tag differs between the versions is a *tag change*: its
lines are flagged so that the page can make them stand out, and the change
is also listed on its own above the diff.

A changed line is often one long line with a small change (a type appended to
a constraint's list of thirty), so a removed line and the added line that
replaces it are compared word by word too, and the words that differ are
marked: the reader sees ``tensor(float8e8m0)`` instead of hunting for it.
"""

from __future__ import annotations

import difflib
import inspect
import re
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations

from gendoc.display import Display
from gendoc.model import Schema
from gendoc.pairing import TagChange, tag_changes

CONTEXT = 3
WORD_MATCH = 0.5
"""How alike (difflib's ratio of their words) a removed and an added line must be for their
words to be compared; below it the lines are unrelated and marking words would be noise."""
# A word: a name with any parenthesised type after it (``tensor(float)``, ``seq(tensor(int8))``),
# a run of spaces, or one sign.
_WORD = re.compile(r"\w[\w.()]*|\s+|[^\w\s]")

_Param = tuple[str, str]
Words = tuple[tuple[str, bool], ...]
"""A line cut into runs of words, each marked when it differs from the other line."""


@dataclass(frozen=True)
class Line:
    """One line of a version's text; ``param`` names the parameter it heads, if any."""

    text: str
    param: _Param | None = None


@dataclass(frozen=True)
class DiffLine:
    """One line of the diff: ``kind`` is ``"+"``, ``"-"``, ``" "`` or ``"…"`` (a gap)."""

    kind: str
    text: str
    tag_change: bool = False
    words: Words = ()
    """The line in runs, changed runs marked, when it replaces a similar line; else empty."""


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


@lru_cache(maxsize=65536)
def word_diff(old: str, new: str) -> tuple[Words, Words]:
    """Both lines in runs of words, the runs that differ marked; nothing when too unlike.

    Kept for the process: the comparisons of an operator's versions pair the same lines
    again and again (a description unchanged since version 1 meets every later one), and
    description lines read the same in both languages.
    """
    a, b = _WORD.findall(old), _WORD.findall(new)
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    if matcher.ratio() < WORD_MATCH:
        return (), ()
    old_runs: list[tuple[str, bool]] = []
    new_runs: list[tuple[str, bool]] = []
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if i1 < i2:
            old_runs.append(("".join(a[i1:i2]), op != "equal"))
        if j1 < j2:
            new_runs.append(("".join(b[j1:j2]), op != "equal"))
    return tuple(old_runs), tuple(new_runs)


def _replaced(removed: list[Line], added: list[Line], changed: set[_Param]) -> list[DiffLine]:
    """A block of removed lines and the block that replaced it, lines paired in order."""
    old_words: list[Words] = [()] * len(removed)
    new_words: list[Words] = [()] * len(added)
    for n in range(min(len(removed), len(added))):
        old_words[n], new_words[n] = word_diff(removed[n].text, added[n].text)
    out = []
    for kind, lines, words in (("-", removed, old_words), ("+", added, new_words)):
        out += [
            DiffLine(kind, x.text, x.param in changed, w) for x, w in zip(lines, words, strict=True)
        ]
    return out


def diff_versions(old: Schema, new: Schema, display: Display) -> VersionDiff:
    """The unified diff of two versions, with context, tag changes flagged."""
    return _diff_lines(old, new, version_lines(old, display), version_lines(new, display))


def _diff_lines(old: Schema, new: Schema, a: list[Line], b: list[Line]) -> VersionDiff:
    changes = list(tag_changes(old, new))
    changed = {(c.part, name) for c in changes for name in (c.name, c.old_name)}
    matcher = difflib.SequenceMatcher(None, [x.text for x in a], [x.text for x in b], False)
    out: list[DiffLine] = []
    for group in matcher.get_grouped_opcodes(CONTEXT):
        if out:
            out.append(DiffLine("…", ""))
        for op, i1, i2, j1, j2 in group:
            if op == "equal":
                out += [DiffLine(" ", line.text) for line in a[i1:i2]]
            else:
                out += _replaced(a[i1:i2], b[j1:j2], changed)
    return VersionDiff(old, new, tuple(out), tuple(changes))


@dataclass(frozen=True)
class OperatorDiffs:
    """Every pair of an operator's versions compared, each version's lines made once."""

    neighbours: dict[int, VersionDiff]
    """For each version but the first, its diff from the version before, by since_version."""
    distant: list[VersionDiff]
    """Every pair that is not neighbours, oldest pairs first."""


def operator_diffs(versions: tuple[Schema, ...], display: Display) -> OperatorDiffs:
    lines = [version_lines(schema, display) for schema in versions]
    neighbours = {}
    distant = []
    for i, j in combinations(range(len(versions)), 2):
        diff = _diff_lines(versions[i], versions[j], lines[i], lines[j])
        if j == i + 1:
            neighbours[versions[j].since_version] = diff
        else:
            distant.append(diff)
    return OperatorDiffs(neighbours, distant)
