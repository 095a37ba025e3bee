"""Chinese words for the search index, and the glossary's terms for searching across languages.

Chinese is written without spaces, so a search index must cut it into words.
Pagefind cuts a ``zh`` page with its own segmenter and a query with the
browser's (``Intl.Segmenter``), and the two disagree: on this site 卷积
(convolution) found nothing although the Conv page opens with 卷积算子, and
可微 (differentiable) found every page that says 不可微 (non-differentiable),
whose characters Pagefind indexes as 不可 + 微. So gendoc cuts the Chinese
text itself and hands Pagefind the pages with a space between the words,
under a language code Pagefind cuts nothing of (:data:`INDEX_LANGUAGES`):
the index then holds exactly gendoc's words. The page and the query are cut
by one rule (:class:`Segmenter`): the longest word of one vocabulary first,
jieba's dictionary words and the glossary's terms; the browser gets the
index's words (written beside the index, :data:`VOCABULARY`) and cuts a
query with them as the pages were cut.

The term map pairs the glossary's English terms with their Chinese ones, so
that the search of either language also looks for the other's term:
卷积 on the English site finds the pages about convolution, and a query in
English on the Chinese site finds the Chinese pages that use the term.
"""

from __future__ import annotations

import hashlib
import json
import re
import sys
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cached_property
from importlib.metadata import version
from pathlib import Path
from typing import Any

from gendoc.storage.resources import templates_root

# The language code each segmented language is indexed under. Pagefind cuts the text of a
# language whose code is or canonicalises to zh, ja or th (``cmn`` does, to zh) into words
# itself, in the index and in the browser; a private-use code (ISO 639-2 keeps qaa-qtz for
# local use) is cut by neither.
INDEX_LANGUAGES = {"zh": "qzh"}
# The words of the segmented index, beside Pagefind's files, for the browser to cut queries.
VOCABULARY = "words-{code}.json"
GLOSSARY = Path("locale") / "zh" / "GLOSSARY.md"
# The words of jieba's dictionary the site's Chinese texts use (see Segmenter).
WORDS_FILE = Path(__file__).with_name("data") / "jieba_words.json"
# Runs of Han characters, the only text cut into words (Latin words are already apart).
HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+")
_HAN_RUN = re.compile(f"({HAN.pattern})")  # split keeps the runs, at odd places
# A glossary row: | English | 中文 |
_ROW = re.compile(r"^\|([^|]+)\|([^|]+)\|\s*$")
# Separators between a row's several terms (``input / output``, ``broadcast, broadcasting``).
_TERMS = re.compile(r"\s*(?:/|,|，)\s*")
# A parenthesised remark after a term: ``sequence (ONNX sequence type)``, ``算子集（opset）``.
_REMARK = re.compile(r"\s*[(（][^)）]*[)）]")
# The longest word a run is cut into, here and in the browser (LONGEST in assets/search.js).
LONGEST = 8


def glossary_pairs(path: Path | None = None) -> list[tuple[str, str]]:
    """The glossary's (English, Chinese) term pairs, remarks dropped, in the table's order.

    A row of several terms on each side pairs them in order when both sides have as many
    (``input / output | 输入 / 输出``), else pairs every English term with the first
    Chinese one (``broadcast, broadcasting | 广播``). Rows that are phrases (with ``...``)
    are left out: they are not search terms.
    """
    text = (path or templates_root() / GLOSSARY).read_text(encoding="utf-8")
    pairs: list[tuple[str, str]] = []
    for line in text.splitlines():
        match = _ROW.match(line.strip())
        if match is None or "..." in line or "---" in match.group(1):
            continue
        english = [t for t in _TERMS.split(_REMARK.sub("", match.group(1)).strip()) if t]
        chinese = [t for t in _TERMS.split(_REMARK.sub("", match.group(2)).strip()) if t]
        if not english or not chinese or english[0] == "English":
            continue
        if len(english) == len(chinese):
            pairs += zip(english, chinese, strict=True)
        else:
            pairs += [(term, chinese[0]) for term in english]
    return [(en.lower(), zh) for en, zh in pairs if en.lower() != zh]


def term_map(pairs: Iterable[tuple[str, str]]) -> dict[str, dict[str, list[str]]]:
    """For each language, its terms and the other language's terms for the same thing."""
    maps: dict[str, dict[str, set[str]]] = {"en": {}, "zh": {}}
    for en, zh in pairs:
        maps["en"].setdefault(en, set()).add(zh)
        maps["zh"].setdefault(zh, set()).add(en)
    return {
        lang: {term: sorted(others) for term, others in sorted(terms.items())}
        for lang, terms in maps.items()
    }


@dataclass
class Segmenter:
    """Cuts the Chinese of a page's HTML into words, spaced apart, the way the browser cuts a
    query (``cut`` in assets/search.js): at each character the longest word of the
    vocabulary that starts there (at most :data:`LONGEST` characters), else the character.

    One rule on both sides is what makes a query find its text: jieba's best path over the
    whole run cut 双线性插值 as 双 / 线性插值 in the index, where the query 双线性插值 was cut
    双线性 / 插值 and found nothing. The vocabulary (:meth:`vocabulary`) is the glossary's
    terms and the words of jieba's dictionary the site's texts use (:data:`WORDS_FILE`,
    recorded by :func:`record_words`), less the dictionary words that hold a glossary term
    inside them: 线性插值 and 批归一化 are cut so that 插值 and 归一化 are words of the index
    (a query finds a word, or the start of one, never its middle), while 不可微, a term
    itself, stays whole, so that 可微 does not find it. Each run of Han characters is cut
    once per process: a site repeats the same runs on every page.
    """

    words: set[str] = field(default_factory=set)
    """Every word cut so far: the vocabulary the browser cuts queries with."""
    _cuts: dict[str, str] = field(default_factory=dict, repr=False)

    @staticmethod
    def key() -> str:
        """What the cut text depends on, besides the text: the words and the glossary."""
        words = hashlib.sha256(WORDS_FILE.read_bytes()).hexdigest()
        glossary = (templates_root() / GLOSSARY).read_text(encoding="utf-8")
        glossary_hash = hashlib.sha256(glossary.encode()).hexdigest()
        return f"longest match {LONGEST} {words} {glossary_hash}"

    @cached_property
    def vocabulary(self) -> frozenset[str]:
        """The words a run is cut into (see the class)."""
        recorded = json.loads(WORDS_FILE.read_text(encoding="utf-8"))["words"]
        terms = {word for _, term in glossary_pairs() for word in HAN.findall(term)}
        kept = {
            word
            for word in recorded
            if len(word) <= LONGEST and not any(t in word and t != word for t in terms)
        }
        return frozenset(kept | {term for term in terms if len(term) <= LONGEST})

    def cut(self, run: str) -> list[str]:
        """``run`` (Han characters) in words, the longest known word first at each place."""
        vocabulary = self.vocabulary
        words = []
        at = 0
        while at < len(run):
            size = min(LONGEST, len(run) - at)
            while size > 1 and run[at : at + size] not in vocabulary:
                size -= 1
            words.append(run[at : at + size])
            at += size
        return words

    def _spaced_run(self, run: str) -> str:
        words = self.cut(run)
        self.words.update(words)
        spaced = self._cuts[run] = f" {' '.join(words)} "
        return spaced

    def spaced(self, text: str) -> str:
        """``text`` with a space around every word of its Chinese runs. Cut at the runs and
        joined again, not substituted: a Chinese page holds some 100 runs, most of them
        cut before, and a substitution's call per run cost more than the lookup."""
        pieces = _HAN_RUN.split(text)
        cuts = self._cuts
        pieces[1::2] = [cuts.get(run) or self._spaced_run(run) for run in pieces[1::2]]
        return "".join(pieces)


def chinese_texts(root: Path) -> list[str]:
    """The Chinese texts of the site, in a checkout at ``root``: the message and schema
    catalogs, the glossary, the hand-written pages, the site's configuration and the
    theme's Chinese labels."""
    import material

    templates = root / "templates"
    paths = [
        *sorted((templates / "locale" / "zh").rglob("*.po")),
        templates / GLOSSARY,
        *sorted((root / "site" / "zh").rglob("*.md")),
        root / "mkdocs.yml",
        Path(material.__file__).parent / "templates" / "partials" / "languages" / "zh.html",
    ]
    return [path.read_text(encoding="utf-8") for path in paths]


def record_words(texts: list[str]) -> dict[str, Any]:
    """The words of jieba's dictionary that occur in ``texts``, with their frequencies, and the
    dictionary's total (see :class:`Segmenter`)."""
    import jieba

    dictionary: dict[str, int] = {}
    longest = 0
    with jieba.get_dict_file() as lines:
        for line in lines:
            word, frequency = line.decode("utf-8").split(" ")[:2]
            dictionary[word] = int(frequency)
            longest = max(longest, len(word))
    found: dict[str, int] = {}
    for run in sorted({run for text in texts for run in HAN.findall(text)}):
        for start in range(len(run)):
            for end in range(start + 1, min(len(run), start + longest) + 1):
                word = run[start:end]
                if word in dictionary:
                    found[word] = dictionary[word]
    return {
        "jieba": version("jieba"),
        "total": sum(dictionary.values()),
        "words": dict(sorted(found.items())),
    }


def main(argv: list[str] | None = None) -> int:
    """``python -m gendoc.site.search_words [OUTPUT]``: record the words from this checkout."""
    args = sys.argv[1:] if argv is None else argv
    out = Path(args[0]) if args else WORDS_FILE
    root = Path(__file__).resolve().parents[2]
    text = json.dumps(record_words(chinese_texts(root)), ensure_ascii=False, indent=0)
    out.write_text(text + "\n", encoding="utf-8")
    print(f"wrote {out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
