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
# A glossary row: | English | 中文 |
_ROW = re.compile(r"^\|([^|]+)\|([^|]+)\|\s*$")
# Separators between a row's several terms (``input / output``, ``broadcast, broadcasting``).
_TERMS = re.compile(r"\s*(?:/|,|，)\s*")
# A parenthesised remark after a term: ``sequence (ONNX sequence type)``, ``算子集（opset）``.
_REMARK = re.compile(r"\s*[(（][^)）]*[)）]")
# jieba's dictionary frequency given to the glossary's terms, so that it keeps them whole.
TERM_FREQUENCY = 100_000


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

    jieba's dictionary holds 350,000 words and takes two seconds to load, a quarter of a
    whole site build; the site's texts use a few thousand of them. So gendoc ships those
    (:data:`WORDS_FILE`, recorded from jieba's dictionary by :func:`record_words`), with
    their frequencies and the dictionary's total, which cut any text made of the recorded
    texts exactly as the whole dictionary does (jieba weighs a cut by each word's frequency
    over the total, and looks up only words that occur in the text). A word outside them,
    in a site's own pages, is left to jieba's model of unknown words. Each run of Han
    characters is cut once per process: a site repeats the same runs on every page.
    """

    words: set[str] = field(default_factory=set)
    """Every word cut so far: the vocabulary the browser cuts queries with."""
    _cuts: dict[str, str] = field(default_factory=dict, repr=False)

    @staticmethod
    def key() -> str:
        """What the cut text depends on, besides the text: jieba's version and the words."""
        words = hashlib.sha256(WORDS_FILE.read_bytes()).hexdigest()
        glossary = (templates_root() / GLOSSARY).read_text(encoding="utf-8")
        return f"jieba {version('jieba')} {words} {hashlib.sha256(glossary.encode()).hexdigest()}"

    @cached_property
    def _tokenizer(self) -> Any:  # a jieba.Tokenizer (jieba has no type hints)
        import jieba

        recorded = json.loads(WORDS_FILE.read_text(encoding="utf-8"))
        frequencies: dict[str, int] = {}
        for word, frequency in recorded["words"].items():
            for end in range(1, len(word)):
                frequencies.setdefault(word[:end], 0)  # a prefix, as jieba marks them
            frequencies[word] = frequency
        tokenizer = jieba.Tokenizer()
        tokenizer.FREQ, tokenizer.total = frequencies, recorded["total"]
        tokenizer.initialized = True  # nothing to load: no dictionary file, no cache file
        for _, term in glossary_pairs():
            for word in HAN.findall(term):
                tokenizer.add_word(word, TERM_FREQUENCY)
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
        return HAN.sub(self._cut, text)


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
