"""Line-by-line differences between two versions of one operator.

Each version is flattened into plain text lines: the doc, then one line per
attribute, input, output and type constraint, each followed by its
description. In a translated page the doc and descriptions are the translated
paragraphs, as the page shows them; a paragraph with no current translation
stays English, opened by a marker, so the diff never compares English under
labels of another language without saying so. The lines of two versions are
compared (:mod:`gendoc.model.sequence_diff`) and shown as a unified diff with a few lines of
context. A parameter whose differentiability tag differs between the versions
is a *tag change*: its lines are flagged so that the page can make them stand out, and the change
is also listed on its own above the diff.

A changed line is often one long line with a small change (a type appended to
a constraint's list of thirty), so a removed line and the added line that
replaces it are compared word by word too, and the words that differ are
marked: the reader sees ``tensor(float8e8m0)`` instead of hunting for it.

Both comparisons are :mod:`gendoc.model.sequence_diff`'s, the engine of ``gendoc diff``
too: ``difflib``'s results for what onnx publishes, found faster, and bounded work for a
version or a line too long for ``difflib`` to compare in time.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations

from gendoc.catalogs.i18n import N_
from gendoc.catalogs.schema_text import SchemaText
from gendoc.model.pairing import TagChange, tag_changes
from gendoc.model.reference import Schema
from gendoc.model.sequence_diff import Matcher, encoded
from gendoc.present.display import Display

CONTEXT = 3
WORD_MATCH = 0.5
"""How alike (difflib's ratio of their words) a removed and an added line must be for their
words to be compared; below it the lines are unrelated and marking words would be noise."""
# A word: a name with any parenthesised type after it (``tensor(float)``, ``seq(tensor(int8))``),
# a run of spaces, or one sign.
_WORD = re.compile(r"\w[\w.()]*|\s+|[^\w\s]")

_FENCE = re.compile(r"\s*(```|~~~)")

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


@lru_cache(maxsize=4096)
def _text_lines(text: str, indent: str) -> tuple[Line, ...]:
    """``text`` cleaned (``inspect.cleandoc``) into lines, each indented, trailing spaces cut.

    Kept for the process: a doc or description is most often the same in many versions,
    and each language's diffs read it again.
    """
    return tuple(Line(f"{indent}{line}".rstrip()) for line in inspect.cleandoc(text).splitlines())


UNTRANSLATED = N_("[English] ")
"""Opens a paragraph that a translated diff shows in English (it has no current translation)."""


# The end of a sentence inside a line of a translation (a Chinese paragraph is one line).
_SENTENCE_END = re.compile(r"(?<=[。！？])(?=[^\s。！？）”’」』])")


def _sentence_lines(paragraph: str) -> list[str]:
    """A translated paragraph's lines, each prose line cut after every sentence.

    The English source wraps its lines and the translation does not, so a whole Chinese
    paragraph would be one changed line where onnx changed one sentence of it, or only
    the blank line between two of its paragraphs. One sentence a line, the diff marks the
    sentences whose English changed (the catalogs translate a sentence alike everywhere).
    Code (in a fence or indented) keeps its lines.
    """
    lines: list[str] = []
    in_fence = False
    for line in paragraph.split("\n"):
        if _FENCE.match(line):
            in_fence = not in_fence
        if in_fence or _FENCE.match(line) or line.startswith((" ", "\t")):
            lines.append(line)
        else:
            lines += _SENTENCE_END.split(line)
    return lines


@lru_cache(maxsize=4096)
def _shown_lines(text: str, indent: str, schema: SchemaText, marker: str) -> tuple[Line, ...]:
    """``text`` as a page in another language shows it, paragraph by paragraph: translated
    where a current translation exists (one sentence a line), else the English paragraph
    opened by ``marker``."""
    lines: list[Line] = []
    for paragraph, translated in schema.paragraphs(text):
        if lines:
            lines.append(Line(""))
        shown = _sentence_lines(paragraph) if translated else (marker + paragraph).split("\n")
        lines += (Line(f"{indent}{line}".rstrip()) for line in shown)
    return tuple(lines)


def _prose(text: str, indent: str, display: Display) -> tuple[Line, ...]:
    """A doc or description in ``display``'s language: the diff compares what the page shows."""
    if display.schema is None:
        return _text_lines(text, indent)
    return _shown_lines(text, indent, display.schema, display.gettext(UNTRANSLATED))


def _described(head: Line, description: str, display: Display) -> list[Line]:
    return [head, *_prose(description, "    ", display)]


def version_lines(schema: Schema, display: Display) -> list[Line]:
    """The text of one version, as the diff compares it; labels from ``display``, schema text
    translated where ``display`` translates it (English paragraphs marked)."""
    lines = list(_prose(schema.doc, "", display))
    for attr in schema.attributes:
        shown = f"{display.part('attribute')} {attr.name}: {display.attr_signature(attr)}"
        lines += _described(Line(shown), attr.description, display)
    for part, params in (("input", schema.inputs), ("output", schema.outputs)):
        for param in params:
            tags = display.param_tags(param)
            head = Line(
                f"{display.part(part)} {param.name}{tags}: {param.type_str}", (part, param.name)
            )
            lines += _described(head, param.description, display)
    for tc in schema.type_constraints:
        shown = f"{display.part('type constraint')} {tc.name}: {', '.join(tc.allowed_types)}"
        lines += _described(Line(shown), tc.description, display)
    return lines


@lru_cache(maxsize=65536)
def word_diff(old: str, new: str) -> tuple[Words, Words]:
    """Both lines in runs of words, the runs that differ marked; nothing when too unlike.

    Kept for the process: the comparisons of an operator's versions pair the same lines
    again and again (a description unchanged since version 1 meets every later one), and
    description lines read the same in both languages.
    """
    a, b = _WORD.findall(old), _WORD.findall(new)
    matcher = Matcher(*encoded(a, b))
    # The quick ratios are upper bounds of ratio() (cheap ones, from the lengths and the
    # counts of words): below WORD_MATCH, so is ratio() and the lines are unlike.
    if (
        matcher.real_quick_ratio() < WORD_MATCH
        or matcher.quick_ratio() < WORD_MATCH
        or matcher.ratio() < WORD_MATCH
    ):
        return (), ()
    old_runs: list[tuple[str, bool]] = []
    new_runs: list[tuple[str, bool]] = []
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if i1 < i2:
            old_runs.append(("".join(a[i1:i2]), op != "equal"))
        if j1 < j2:
            new_runs.append(("".join(b[j1:j2]), op != "equal"))
    return tuple(old_runs), tuple(new_runs)


_Made = dict[tuple[str, str, bool, str | None], DiffLine]
"""The diff lines made so far for one operator, by kind, text, tag change and the text of the
line paired with it (whose words it is compared with), if any. The same lines come again and
again in the diffs of an operator's versions, and a frozen dataclass is slow to make, so
each is made once and shared by the diffs (they are immutable)."""


def _diff_line(kind: str, text: str, tag_change: bool, paired: str | None, made: _Made) -> DiffLine:
    key = (kind, text, tag_change, paired)
    line = made.get(key)
    if line is None:
        words: Words = ()
        if paired is not None:
            words = word_diff(text, paired)[0] if kind == "-" else word_diff(paired, text)[1]
        line = made[key] = DiffLine(kind, text, tag_change, words)
    return line


def _replaced(
    removed: list[Line], added: list[Line], changed: set[_Param], made: _Made
) -> list[DiffLine]:
    """A block of removed lines and the block that replaced it, lines paired in order."""
    return [
        _diff_line(
            kind, x.text, x.param in changed, others[n].text if n < len(others) else None, made
        )
        for kind, lines, others in (("-", removed, added), ("+", added, removed))
        for n, x in enumerate(lines)
    ]


Changes = Callable[[Schema, Schema], Sequence[TagChange]]
"""The tag changes between two versions of an operator, older first."""


def all_tag_changes(old: Schema, new: Schema) -> tuple[TagChange, ...]:
    return tuple(tag_changes(old, new))


def diff_versions(old: Schema, new: Schema, display: Display) -> VersionDiff:
    """The unified diff of two versions, with context, tag changes flagged."""
    a, b = version_lines(old, display), version_lines(new, display)
    a_text, b_text = encoded([x.text for x in a], [x.text for x in b])
    return _diff_lines(old, new, (a, a_text), (b, b_text), {}, all_tag_changes(old, new))


_Version = tuple[list[Line], str]
"""A version's lines, and the string of them that ``Matcher`` compares (``encoded``)."""


def _diff_lines(
    old: Schema,
    new: Schema,
    version_a: _Version,
    version_b: _Version,
    made: _Made,
    changes: Sequence[TagChange],
) -> VersionDiff:
    (a, a_text), (b, b_text) = version_a, version_b
    changed = {(c.part, name) for c in changes for name in (c.name, c.old_name)}
    matcher = Matcher(a_text, b_text)
    out: list[DiffLine] = []
    for group in matcher.get_grouped_opcodes(CONTEXT):
        if out:
            out.append(_diff_line("…", "", False, None, made))
        for op, i1, i2, j1, j2 in group:
            if op == "equal":
                out += [_diff_line(" ", line.text, False, None, made) for line in a[i1:i2]]
            else:
                out += _replaced(a[i1:i2], b[j1:j2], changed, made)
    return VersionDiff(old, new, tuple(out), tuple(changes))


@dataclass(frozen=True)
class OperatorDiffs:
    """Every pair of an operator's versions compared, each version's lines made once."""

    neighbours: dict[int, VersionDiff]
    """For each version but the first, its diff from the version before, by since_version."""
    into: dict[int, tuple[VersionDiff, ...]]
    """For each version but the first, by since_version, its diffs from every older version,
    oldest first: the comparisons one page of the site holds (see :mod:`gendoc.site.parts`)."""


def operator_diffs(
    versions: tuple[Schema, ...], display: Display, changes: Changes = all_tag_changes
) -> OperatorDiffs:
    """Every pair of ``versions`` compared in ``display``'s language. The tag changes of a
    pair are the same in every language: ``changes`` may give them computed once (the site
    does, before its languages' processes part: :meth:`gendoc.site.pages.SiteContent.prepare`)."""
    lines = [version_lines(schema, display) for schema in versions]
    texts = list(zip(lines, encoded(*([x.text for x in v] for v in lines)), strict=True))
    made: _Made = {}
    neighbours = {}
    into: dict[int, list[VersionDiff]] = {}
    for i, j in combinations(range(len(versions)), 2):
        old, new = versions[i], versions[j]
        diff = _diff_lines(old, new, texts[i], texts[j], made, changes(old, new))
        if j == i + 1:
            neighbours[versions[j].since_version] = diff
        into.setdefault(versions[j].since_version, []).append(diff)
    return OperatorDiffs(neighbours, {new: tuple(diffs) for new, diffs in into.items()})
