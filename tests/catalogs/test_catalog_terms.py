"""One term per meaning: the glossary's terms in context, and one translation per English sentence.

The rules are read from ``templates/locale/zh/GLOSSARY.md`` ("Terms in context" and
"Identical English, identical Chinese"), so the glossary a translator reads is the one the
test enforces. A paragraph's context is the operators it occurs in, over every version of the
installed onnx.
"""

from __future__ import annotations

import fnmatch
import itertools
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from gendoc.catalogs.consistency import (
    aligned,
    chinese_sentences,
    drifts,
    english_sentences,
    translated_messages,
)
from gendoc.catalogs.schema_text import catalog_entries, paragraphs, schema_texts
from gendoc.model.reference import Reference, Schema

ROOT = Path(__file__).resolve().parents[2]
ZH = ROOT / "templates" / "locale" / "zh"
CATALOGS = sorted((ZH / "LC_MESSAGES").glob("*.po"))
# What a "not" rendering may stand in without counting: code spans, formulas, quoted names.
# The marks a sentence may end with, which follow the paragraph rather than the sentence.
MARKS = "。：；？！，"
KEPT = re.compile(r"(`+)(?!`).+?(?<!`)\1(?!`)|\$[^$\n]+\$|'[^'\n]*'|\"[^\"\n]*\"", re.S)


def _table(section: str) -> list[list[str]]:
    """The body rows of the first table under ``## section`` of the glossary, as cells."""
    text = (ZH / "GLOSSARY.md").read_text(encoding="utf-8")
    part = text.split(f"## {section}\n", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in part.splitlines() if line.startswith("|")][2:]
    return [
        [c.strip().replace("\\|", "|") for c in re.split(r"(?<!\\)\|", row)[1:-1]] for row in rows
    ]


def _pattern(cell: str) -> re.Pattern[str]:
    """A cell in backticks is a regular expression; any other cell is literal text."""
    if cell.startswith("`") and cell.endswith("`"):
        return re.compile(cell[1:-1], re.IGNORECASE)
    return re.compile(re.escape(cell))


def _renderings(cell: str) -> list[str]:
    return [r.strip() for r in cell.split(" / ") if r.strip()]


@dataclass(frozen=True)
class Term:
    english: re.Pattern[str]
    context: str
    use: tuple[str, ...]
    avoid: tuple[str, ...]

    def applies(self, msgid: str, catalog: str, operators: frozenset[str]) -> bool:
        if not self.english.search(msgid):
            return False
        if self.context == "any":
            return True
        if self.context == "labels":
            return catalog == "gendoc"
        wanted = [n.strip() for n in self.context.removeprefix("operators:").split(",")]
        return bool(operators) and all(
            any(fnmatch.fnmatchcase(op, n) for n in wanted) for op in operators
        )


@cache
def terms() -> tuple[Term, ...]:
    return tuple(
        Term(_pattern(english), context, tuple(_renderings(use)), tuple(_renderings(avoid)))
        for english, context, use, avoid in _table("Terms in context")
    )


def problems(msgid: str, msgstr: str, catalog: str, operators: frozenset[str]) -> list[str]:
    """How ``msgstr`` breaks the terms that apply to ``msgid`` in its context."""
    matching = [t for t in terms() if t.applies(msgid, catalog, operators)]
    used = {u for t in matching for u in t.use}
    plain = KEPT.sub(" ", msgstr)
    found = []
    for term in matching:
        if term.use and not any(u in msgstr for u in term.use):
            found.append(f"{term.english.pattern}: none of {term.use}")
        for avoided in term.avoid:
            if avoided not in used and _pattern(avoided).search(plain):
                found.append(f"{term.english.pattern}: {avoided!r} instead of {term.use}")
    return found


@pytest.fixture(scope="module")
def occurrences(reference: Reference) -> dict[str, frozenset[str]]:
    """Each paragraph of the installed onnx -> the operators it occurs in."""
    schemas = [s for d in reference.domains for op in reference.operators(d) for s in op.versions]
    return {
        paragraph: frozenset(o.schema.name for o in where)
        for paragraph, where in catalog_entries(schemas).items()
    }


@pytest.mark.parametrize("path", CATALOGS, ids=lambda p: p.stem)
def test_every_translation_uses_the_glossary_terms_of_its_context(
    path: Path, occurrences: dict[str, frozenset[str]]
) -> None:
    with path.open("rb") as f:
        catalog = read_po(f)
    found = [
        f"{message.id[:50]!r}: {problem}"
        for message in catalog
        if isinstance(message.id, str) and message.id and isinstance(message.string, str)
        for problem in problems(
            message.id, message.string, path.stem, occurrences.get(message.id, frozenset())
        )
    ]
    assert found == []


def test_the_glossary_has_terms_for_what_readers_meet() -> None:
    english = " ".join(t.english.pattern for t in terms())
    for word in ("filter", "kernel", "bit", "never", "even", "query", "cubic", "only if"):
        assert word in english


def test_identical_english_sentences_read_alike() -> None:
    allowed = {english for english, _ in _table("Identical English, identical Chinese")}
    found = [d.english for d in drifts(translated_messages(ROOT / "templates", "zh"))]
    assert [e for e in found if e not in allowed] == []


CONV_DOC = "The convolution operator consumes an input tensor and a filter."
DILATION = "Dilation value along each spatial axis of filter."


def _sentences(schema: Schema, translated: dict[str, str]) -> tuple[set, set, list]:
    """A version's English sentences, its Chinese ones, and the pairs that line up."""
    english, chinese, pairs = set(), set(), []
    for _, text in schema_texts(schema):
        for paragraph in paragraphs(text):
            if paragraph in translated:  # (another onnx may have paragraphs with none yet)
                english.update(english_sentences(paragraph))
                chinese.update(s.rstrip(MARKS) for s in chinese_sentences(translated[paragraph]))
                pairs += [
                    (e, c.rstrip(MARKS)) for e, c in aligned(paragraph, translated[paragraph])
                ]
    return english, chinese, pairs


def test_a_sentence_unchanged_between_two_versions_reads_alike_in_both(
    reference: Reference,
) -> None:
    """What a Chinese version diff shows: a sentence whose English both neighbouring versions
    have, translated in one, reads the same in the other (a sentence holding a code block
    is left out: the code is the same in both languages, the cut around it is not)."""
    translated = dict(translated_messages(ROOT / "templates", "zh"))
    found = []
    for domain in reference.domains:
        for op in reference.operators(domain):
            for old, new in itertools.pairwise(op.versions):
                a, b = _sentences(old, translated), _sentences(new, translated)
                found += [
                    f"{op.name} {old.since_version} -> {new.since_version}: {english!r}"
                    for (this, other) in ((a, b), (b, a))
                    for english, chinese in this[2]
                    if english in other[0] and chinese not in other[1] and "```" not in english
                ]
    assert found == []


@pytest.mark.parametrize(
    ("msgid", "msgstr", "operators", "wrong"),
    [
        (
            CONV_DOC,
            "……一个卷积核……",
            {"Conv"},
            True,
        ),
        (
            CONV_DOC,
            "……一个滤波器……",
            {"Conv"},
            False,
        ),
        (
            DILATION,
            "卷积核沿每个空间轴",
            {"MaxPool"},
            True,
        ),
        (
            DILATION,
            "池化核沿每个空间轴",
            {"MaxPool"},
            False,
        ),
        # A paragraph shared by a convolution and a pooling: neither context holds.
        (
            DILATION,
            "滤波器沿",
            {"Conv", "LpPool"},
            False,
        ),
        ("The filter and the kernel.", "滤波器和卷积核", {"ConvTranspose"}, False),
        ("Constrain to 8-bit integer tensor.", "限制为 8-bit 整数张量。", set(), True),
        ("Constrain to 8-bit integer tensor.", "限制为 8 位整数张量。", set(), False),
        ("The production MUST never overflow.", "乘积绝对不能溢出。", set(), True),
        ("rounds to the nearest even.", "舍入到最接近的偶数。", set(), True),
        ("The query tensor.", "query 张量。", {"Attention"}, True),
        ("The query tensor.", "查询张量。", {"Attention"}, False),
        (
            "d_k = query.shape[-1]",
            "推导出 d_k = query.shape[-1]（查询）",
            {"LinearAttention"},
            False,
        ),
        ("A boolean mask for the query.", "`query` 的布尔掩码（查询）", {"Attention"}, False),
        ("N-cubic interpolation", "N 次三次插值", set(), True),
        ("may overflow if and only if in 32 bits.", "仅在 32 位时才可能溢出。", set(), True),
    ],
)
def test_each_term_rule_catches_a_wrong_rendering(
    msgid: str, msgstr: str, operators: set[str], wrong: bool
) -> None:
    assert bool(problems(msgid, msgstr, "schema-ai.onnx", frozenset(operators))) == wrong


@pytest.mark.parametrize(
    ("msgid", "msgstr", "wrong"),
    [
        ("Fuzzy", "模糊", True),
        ("Fuzzy", "待校对", False),
        ("Finding", "发现", True),
        ("Search the %(language)s pages", "查找 %(language)s 页面", True),
        ("the schema makes no claim", "模式不作声明", True),
        ("the schema makes no claim", "算子定义不作声明", False),
    ],
)
def test_label_terms(msgid: str, msgstr: str, wrong: bool) -> None:
    assert bool(problems(msgid, msgstr, "gendoc", frozenset())) == wrong


def test_sentences_line_up_only_when_their_code_does() -> None:
    assert aligned("A is `x`. B is `y`.", "A 为 `x`。B 为 `y`。") == [
        ("A is `x`.", "A 为 `x`。"),
        ("B is `y`.", "B 为 `y`。"),
    ]
    assert aligned("A is `x`. B is `y`.", "B 为 `y`。A 为 `x`。") == []
    assert aligned("One. Two.", "一二。") == []


def test_a_drift_is_reported_and_end_marks_do_not_count() -> None:
    found = drifts(
        [
            ("It is optional. Next:", "它是可选的。下一项："),
            ("It is optional. Last.", "它是可选的；最后。"),
            ("It is optional. Other.", "它可选。其他。"),
        ]
    )
    assert [(d.english, sorted(d.renderings)) for d in found] == [
        ("It is optional.", ["它可选", "它是可选的"])
    ]
