"""Chinese words for the search index, and the glossary's terms for searching across languages.

Chinese is written without spaces, so a search index must cut it into words.
Pagefind cuts a ``zh`` page with its own segmenter and a query with the
browser's (``Intl.Segmenter``), and the two disagree: on this site 卷积
(convolution) found nothing although the Conv page opens with 卷积算子, and
可微 (differentiable) found every page that says 不可微 (non-differentiable),
whose characters Pagefind indexes as 不可 + 微. So gendoc cuts the Chinese
text itself, with jieba's dictionary and the glossary's terms as whole words
(卷积核, 转置卷积, 不可微 stay one word each), and hands Pagefind the pages
with a space between the words, under a language code Pagefind cuts nothing
of (:data:`INDEX_LANGUAGES`): the index then holds exactly jieba's words.
The browser cuts a query into the same words with the index's vocabulary
(written beside the index, :data:`VOCABULARY`), longest word first.

The term map pairs the glossary's English terms with their Chinese ones, so
that the search of either language also looks for the other's term:
卷积 on the English site finds the pages about convolution, and a query in
English on the Chinese site finds the Chinese pages that use the term.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cached_property
from importlib.metadata import version
from pathlib import Path
from typing import Any

from gendoc.resources import templates_root

# The language code each segmented language is indexed under. Pagefind cuts the text of a
# language whose code is or canonicalises to zh, ja or th (``cmn`` does, to zh) into words
# itself, in the index and in the browser; a private-use code (ISO 639-2 keeps qaa-qtz for
# local use) is cut by neither.
INDEX_LANGUAGES = {"zh": "qzh"}
# The words of the segmented index, beside Pagefind's files, for the browser to cut queries.
VOCABULARY = "words-{code}.json"
GLOSSARY = Path("locale") / "zh" / "GLOSSARY.md"
# Runs of Han characters, the only text cut into words (Latin words are already apart).
_HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+")
# A glossary row: | English | 中文 |
_ROW = re.compile(r"^\|([^|]+)\|([^|]+)\|\s*$")
# Separators between a row's several terms (``input / output``, ``broadcast, broadcasting``).
_TERMS = re.compile(r"\s*(?:/|,|，)\s*")
# A parenthesised remark after a term: ``sequence (ONNX sequence type)``, ``算子集（opset）``.
_REMARK = re.compile(r"\s*[(（][^)）]*[)）]")
# jieba's dictionary frequency given to the glossary's terms, so that it keeps them whole.
_TERM_FREQUENCY = 100_000


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
    """Cuts the Chinese of a page's HTML into words, jieba's and the glossary's, spaced apart.

    jieba's dictionary takes a second or two to load, so it is loaded the first time text
    needs cutting, with its prepared form kept in ``cache`` (a folder) when given. Each run
    of Han characters is cut once per process: a site repeats the same runs on every page.
    """

    cache: Path | None = None
    words: set[str] = field(default_factory=set)
    """Every word cut so far: the vocabulary the browser cuts queries with."""
    _cuts: dict[str, str] = field(default_factory=dict, repr=False)

    @staticmethod
    def key() -> str:
        """What the cut text depends on, besides the text: jieba's version and the glossary."""
        glossary = (templates_root() / GLOSSARY).read_text(encoding="utf-8")
        return f"jieba {version('jieba')} {hashlib.sha256(glossary.encode()).hexdigest()}"

    @cached_property
    def _tokenizer(self) -> Any:  # a jieba.Tokenizer (jieba has no type hints)
        import jieba

        tokenizer = jieba.Tokenizer()
        if self.cache is not None:
            self.cache.mkdir(parents=True, exist_ok=True)
            tokenizer.tmp_dir = str(self.cache)
        jieba.setLogLevel(60)  # its loading messages are not the build's business
        tokenizer.initialize()
        for _, term in glossary_pairs():
            for word in _HAN.findall(term):
                tokenizer.add_word(word, _TERM_FREQUENCY)
        return tokenizer

    def _cut(self, match: re.Match[str]) -> str:
        run = match.group(0)
        spaced = self._cuts.get(run)
        if spaced is None:
            words = list(self._tokenizer.cut(run, HMM=True))
            self.words.update(words)
            spaced = self._cuts[run] = f" {' '.join(words)} "
        return spaced

    def spaced(self, text: str) -> str:
        """``text`` with a space around every word of its Chinese runs."""
        return _HAN.sub(self._cut, text)
