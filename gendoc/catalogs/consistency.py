"""One English sentence, one translation: where the schema catalogs drift.

The catalogs are keyed by paragraph, so a sentence that onnx repeats in several
paragraphs (Conv-1's and Conv-22's doc, the optional-inputs boilerplate after
each RNN's equations) is translated once per paragraph, and two translators'
words for it show on the Chinese site as a change between two versions whose
English did not change. This module lines up the sentences of every translated
paragraph with those of its English and reports each English sentence that
reads differently in two places, so that they can be made one.

A paragraph is lined up only when its English and its translation have as many
sentences, cut at the same marks (``.``/``。``, ``:``/``：``, ``;``/``；``, ``?``,
``!`` and the start of a list item), and each pair has the same code spans; any
other paragraph is left out rather than guessed at. Sentences are compared
with their line breaks and runs of spaces made one space, as the pages show
them, and without the mark that ends them (a sentence ends with ``；`` before
a list and ``。`` elsewhere).
"""

from __future__ import annotations

import re
import sys
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from gendoc.catalogs.i18n import catalog_path, read_catalog

# Where an English sentence ends: a mark, then a space or line break, and not inside an
# abbreviation such as "e.g." or "i.e.".
_LIST_START = r"\n(?=\s*(?:[-*+]|\d+[.)])\s)"
_EN_END = re.compile(r"(?<!\be\.g)(?<!\bi\.e)(?<!\betc)(?<=[.:;?!])\s+|" + _LIST_START)
_ZH_END = re.compile(r"(?<=[。：；？！])\s*|" + _LIST_START)
_CODE = re.compile(r"(`+)(?!`).+?(?<!`)\1(?!`)|\$[^$\n]+\$", re.S)
_SPACE = re.compile(r"\s+")
_CODE_SPAN = re.compile(r"`[^`]+`")
_ZH_MARKS = "。：；？！，"


def _cut(text: str, ends: re.Pattern[str]) -> list[str]:
    """``text`` cut at ``ends`` outside code spans and formulas, each piece's spaces made one."""
    masked = _CODE.sub(lambda m: "\x00" * len(m.group()), text)
    pieces, start = [], 0
    for match in ends.finditer(masked):
        if match.end() > start:
            pieces.append(text[start : match.start()])
            start = match.end()
    pieces.append(text[start:])
    return [s for s in (_SPACE.sub(" ", p).strip() for p in pieces) if s]


def english_sentences(text: str) -> list[str]:
    return _cut(text, _EN_END)


def chinese_sentences(text: str) -> list[str]:
    return _cut(text, _ZH_END)


def aligned(msgid: str, msgstr: str) -> list[tuple[str, str]]:
    """The sentences of a paragraph and of its translation, paired; empty if they differ in
    number."""
    english, chinese = english_sentences(msgid), chinese_sentences(msgstr)
    if len(english) != len(chinese):
        return []
    pairs = list(zip(english, chinese, strict=True))
    # Sentences that a translation reordered: the code spans no longer match in some pair.
    if any(sorted(_CODE_SPAN.findall(e)) != sorted(_CODE_SPAN.findall(c)) for e, c in pairs):
        return []
    return pairs


@dataclass(frozen=True)
class Drift:
    """An English sentence with more than one translation, each with the paragraphs using it."""

    english: str
    renderings: dict[str, list[str]]


def drifts(messages: Iterable[tuple[str, str]]) -> list[Drift]:
    """Every English sentence that ``messages`` ((msgid, msgstr) pairs) translate in more
    than one way, in the order of the English sentences."""
    seen: dict[str, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
    for msgid, msgstr in messages:
        for english, chinese in aligned(msgid, msgstr):
            # A sentence that is code or a formula alone is the same text in both.
            if english != chinese:
                # The mark that ends a sentence follows the paragraph ("；" before a list).
                seen[english][chinese.rstrip(_ZH_MARKS)].append(msgid)
    return [
        Drift(english, dict(renderings))
        for english, renderings in sorted(seen.items())
        if len(renderings) > 1
    ]


def translated_messages(root: Path, lang: str) -> list[tuple[str, str]]:
    """Every current (not fuzzy, not empty) translation of the schema catalogs of ``lang``."""
    folder = catalog_path(root, lang, "schema-x").parent
    return [
        (m.id, m.string)
        for path in sorted(folder.glob("schema-*.po"))
        for m in read_catalog(path, lang)
        if m.id and isinstance(m.id, str) and isinstance(m.string, str) and m.string
        if not m.fuzzy
    ]


def report(found: list[Drift]) -> str:
    """The drifts as text for a translator: each English sentence, then its renderings with
    how many paragraphs use each."""
    lines = [f"{len(found)} English sentences are translated in more than one way"]
    for drift in found:
        lines.append(f"\n{drift.english}")
        for chinese, where in sorted(drift.renderings.items(), key=lambda r: -len(r[1])):
            lines.append(f"  {len(where)}x {chinese}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """``python -m gendoc.catalogs.consistency LANG...``: print the drifts (``make catalogs``)."""
    from gendoc.storage.resources import templates_root

    for lang in argv if argv is not None else sys.argv[1:]:
        print(report(drifts(translated_messages(templates_root(), lang))), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
