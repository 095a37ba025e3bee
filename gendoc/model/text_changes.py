"""Text changes: which paragraphs of an operator version's prose changed, word by word.

A new onnx release often rewrites an operator's documentation without touching
its signature; a reviewer of ``gendoc diff`` must still see that it happened
and what was reworded. A version's prose is its doc followed by the
description of every attribute, input, output and type constraint, each
headed by what it describes (``input X: ...``). It is cut into paragraphs at
blank lines, and the white space inside a paragraph is normalised, so that
re-wrapping a paragraph is not a change. Whether the prose changed is decided
on the paragraphs without their headings: a renamed input is a change of its
own, not of the text.

:func:`changed_paragraphs` counts what changed; :func:`word_diff` shows it in
plain text with git's ``--word-diff=plain`` markers (``[-old-]{+new+}``),
long unchanged stretches shortened to ``…``, so a report stays short. Both
compare with :mod:`gendoc.model.sequence_diff`, whose work stays near-linear
in the length of the texts.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Iterator, Sequence

from gendoc.model.reference import Schema, labelled
from gendoc.model.sequence_diff import Matcher, encoded

PARAGRAPH_BREAK = "\n\n"
"""Joins a version's paragraphs into one text (a normalised paragraph has no line break)."""

CONTEXT_WORDS = 8
"""Unchanged words kept on each side of a change in a word diff."""

MAX_ADDED_WORDS = 60
"""Words shown of a paragraph that was added or removed as a whole."""

ALIKE = 0.5
"""How alike (the ratio of their words, as difflib counts it) a removed and an added paragraph
must be to be shown as one paragraph reworded; less alike, one removed and one added."""

LOOK_AHEAD = 16
"""New paragraphs an old one is compared with to find the one it became: a run of thousands
of changed paragraphs (a text reordered) costs thousands of comparisons, not millions."""

_BLANK_LINE = re.compile(r"\n\s*\n")
_TOKEN = re.compile(r"\S+")


def _paragraphs(text: str, heading: str = "") -> list[tuple[str, str]]:
    found = [" ".join(p.split()) for p in _BLANK_LINE.split(inspect.cleandoc(text))]
    heading = " ".join(heading.split())  # a name may hold a line break: never in the output
    return [(heading if i == 0 else "", p) for i, p in enumerate(p for p in found if p)]


def prose(schema: Schema) -> tuple[tuple[str, str], ...]:
    """One version's paragraphs, in the order a document shows them, each with its heading.

    The heading names what the paragraph describes (``input X``) on the first
    paragraph of a description; it is empty elsewhere.
    """
    paragraphs = _paragraphs(schema.doc)
    for attr in schema.attributes:
        paragraphs += _paragraphs(attr.description, f"attribute {attr.name}")
    for ref, param in labelled(schema):
        paragraphs += _paragraphs(param.description, str(ref))
    for tc in schema.type_constraints:
        paragraphs += _paragraphs(tc.description, f"type constraint {tc.name}")
    return tuple(paragraphs)


def bodies(paragraphs: Sequence[tuple[str, str]]) -> tuple[str, ...]:
    """The paragraphs without their headings: what is compared."""
    return tuple(text for _, text in paragraphs)


def headed(paragraphs: Sequence[tuple[str, str]]) -> tuple[str, ...]:
    """The paragraphs with their headings (``input X: ...``): what a word diff shows."""
    return tuple(f"{heading}: {text}" if heading else text for heading, text in paragraphs)


def _matcher(old: Sequence[str], new: Sequence[str]) -> Matcher:
    return Matcher(*encoded(old, new))


def _regions(old: Sequence[str], new: Sequence[str]) -> Iterator[tuple[list[str], list[str]]]:
    """Each run of paragraphs that differs: the old ones and the new ones."""
    matcher = _matcher(old, new)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag != "equal":
            yield list(old[i1:i2]), list(new[j1:j2])


def changed_paragraphs(old: Sequence[str], new: Sequence[str]) -> int:
    """How many paragraphs differ: a rewritten one counts once, as does an added or removed one."""
    return sum(max(len(o), len(n)) for o, n in _regions(old, new))


def _shortened(words: list[str], keep_start: bool, keep_end: bool) -> list[str]:
    """Unchanged words, cut to the context a change needs on the sides that have one."""
    head = words[:CONTEXT_WORDS] if keep_start else []
    tail = words[-CONTEXT_WORDS:] if keep_end else []
    if len(head) + len(tail) >= len(words):
        return words
    return [*head, "…", *tail]


def _words_changed(old: str, new: str) -> str:
    a, b = _TOKEN.findall(old), _TOKEN.findall(new)
    opcodes = _matcher(a, b).get_opcodes()
    shown: list[str] = []
    for index, (tag, i1, i2, j1, j2) in enumerate(opcodes):
        if tag == "equal":
            shown += _shortened(a[i1:i2], index > 0, index < len(opcodes) - 1)
            continue
        if i2 > i1:
            shown.append(f"[-{' '.join(a[i1:i2])}-]")
        if j2 > j1:
            shown.append(f"{{+{' '.join(b[j1:j2])}+}}")
    return " ".join(shown)


def _whole(paragraph: str, mark: str) -> str:
    words = paragraph.split(" ")
    if len(words) > MAX_ADDED_WORDS:
        words = [*words[:MAX_ADDED_WORDS], "…"]
    return f"[{mark}{' '.join(words)}{mark}]" if mark == "-" else f"{{+{' '.join(words)}+}}"


def _alike(old: list[str], new: list[str]) -> bool:
    if set(old).isdisjoint(new):  # no word in common: a ratio of 0
        return False
    matcher = _matcher(old, new)
    # The quick ratios are upper bounds of ratio(), cheap ones: below ALIKE, so is ratio().
    return (
        matcher.real_quick_ratio() >= ALIKE
        and matcher.quick_ratio() >= ALIKE
        and matcher.ratio() >= ALIKE
    )


def _run_diff(old_run: list[str], new_run: list[str]) -> Iterator[str]:
    """One run of changed paragraphs: each old one reworded into the next new one alike (of
    the :data:`LOOK_AHEAD` next ones), in order, the new ones it skips added; an old one with
    no new one alike removed."""
    new_words = [n.split(" ") for n in new_run]
    start = 0
    for o in old_run:
        words = o.split(" ")
        ahead = range(start, min(start + LOOK_AHEAD, len(new_run)))
        found = next((k for k in ahead if _alike(words, new_words[k])), None)
        if found is None:
            yield _whole(o, "-")
            continue
        yield from (_whole(n, "+") for n in new_run[start:found])
        yield _words_changed(o, new_run[found])
        start = found + 1
    yield from (_whole(n, "+") for n in new_run[start:])


def word_diff(old: Sequence[str], new: Sequence[str], max_chars: int) -> str:
    """The changed paragraphs, one per block, words marked; cut after ``max_chars``."""
    blocks = [block for o, n in _regions(old, new) for block in _run_diff(o, n)]
    text = PARAGRAPH_BREAK.join(blocks)
    if len(text) > max_chars:
        cut = text[:max_chars].rsplit(" ", 1)[0]
        text = f"{cut} … ({len(text) - len(cut)} more characters)"
    return text
