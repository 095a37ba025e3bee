"""The shipped message catalogs: complete, current, and faithful to their placeholders."""

from __future__ import annotations

import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from gendoc.catalogs.translated import check

ROOT = Path(__file__).resolve().parents[2]
LOCALE = ROOT / "templates" / "locale"
CATALOGS = sorted(LOCALE.glob("*/LC_MESSAGES/gendoc.po"))
EXTRACT = [sys.executable, "-m", "babel.messages.frontend", "extract", "-F", "babel.cfg"]
EXTRACT += ["-k", "N_", "-k", "NP_:1,2", "--no-location"]


def _ids(message) -> tuple[str, ...]:
    return message.id if isinstance(message.id, tuple) else (message.id,)


def _strings(message) -> tuple[str, ...]:
    return message.string if isinstance(message.string, tuple) else (message.string,)


@pytest.fixture(scope="module")
def extracted(tmp_path_factory: pytest.TempPathFactory) -> set[str]:
    """Every message marked in the code and templates, extracted as ``make catalogs`` does."""
    pot = tmp_path_factory.mktemp("pot") / "gendoc.pot"
    subprocess.run(
        [*EXTRACT, "-o", str(pot), "."],
        cwd=ROOT,
        check=True,
        capture_output=True,
    )
    with pot.open("rb") as f:
        return {_ids(m)[0] for m in read_po(f) if m.id}


def test_there_is_a_chinese_catalog() -> None:
    assert [p.parts[-3] for p in CATALOGS] == ["zh"]


@pytest.mark.parametrize("path", CATALOGS, ids=lambda p: p.parts[-3])
def test_every_message_is_translated_and_none_is_fuzzy(path: Path) -> None:
    with path.open("rb") as f:
        catalog = read_po(f)
    problems = []
    for message in catalog:
        if not message.id:
            continue
        if message.fuzzy:
            problems.append(f"fuzzy: {_ids(message)[0]!r}")
        if not all(_strings(message)):
            problems.append(f"untranslated: {_ids(message)[0]!r}")
        for text in _strings(message):
            problem = check(_ids(message), text) if text else None
            if problem:
                problems.append(f"{_ids(message)[0]!r}: {problem}")
    assert problems == []


@pytest.mark.parametrize("path", CATALOGS, ids=lambda p: p.parts[-3])
def test_catalog_holds_exactly_the_extracted_messages(path: Path, extracted: set[str]) -> None:
    with path.open("rb") as f:
        shipped = {_ids(m)[0] for m in read_po(f) if m.id}
    assert sorted(extracted - shipped) == [], "run `make catalogs` and translate"
    assert sorted(shipped - extracted) == [], "messages no longer used"


# --- schema text --------------------------------------------------------------------------

SCHEMA_CATALOGS = sorted(LOCALE.glob("*/LC_MESSAGES/schema-*.po"))
FENCED = re.compile(r"^\s*(```|~~~).*?^\s*\1", re.S | re.M)
KEPT = [
    re.compile(r"(`+)(?!`).+?(?<!`)\1(?!`)", re.S),  # code spans (one may wrap a line)
    re.compile(r"\$\$.+?\$\$", re.S),  # display math
    re.compile(r"(?<!\$)\$[^$\n]+\$(?!\$)"),  # inline math
    # URLs: ASCII, without the sentence's punctuation after them (a Chinese sentence ends
    # with "。" right after an autolink where the English one had a "." after the URL)
    re.compile(r"https?://[^\s()<>\[\]\x80-\U0010ffff]*[^\s()<>\[\].,;:\x80-\U0010ffff]"),
    re.compile(r"\]\([^)]+\)"),  # link targets
    re.compile(r"</?[a-zA-Z][a-zA-Z0-9]*\s*/?>"),  # HTML tags
    # numbers, also before a full stop, as ordinals ("4th" is "第 4 个") and widths in bits
    # ("8Bit", "4bit" are "8 位", "4 位")
    re.compile(r"(?<![\w.])\d+(?:\.\d+)?(?=(?:st|nd|rd|th|s|[bB]it)?(?!\w))"),
]


# Typos of onnx's English that a translation corrects and marks with a translator's note
# (译注): the English is read as corrected before its tokens are counted. Here unbalanced
# quotes (` and ') turn half a sentence into a code span.
SOURCE_TYPOS = {
    "`split' is not specified, a default scalar value of 1\nis used as the value of `split'": (
        "'split' is not specified, a default scalar value of 1\nis used as the value of 'split'"
    ),
}


def kept_tokens(text: str) -> Counter[str]:
    """What a translation must keep exactly: fenced blocks whole, then the inline tokens."""
    for typo, corrected in SOURCE_TYPOS.items():
        text = text.replace(typo, corrected)
    found: Counter[str] = Counter(m.group(0) for m in FENCED.finditer(text))
    prose = FENCED.sub("\n", text)
    for pattern in KEPT:
        found.update(m.group(0) for m in pattern.finditer(prose))
    return found


def test_there_are_schema_catalogs_for_every_onnx_domain() -> None:
    names = {p.stem for p in SCHEMA_CATALOGS}
    assert {"schema-ai.onnx", "schema-ai.onnx.ml", "schema-ai.onnx.preview.training"} <= names


@pytest.mark.parametrize("path", SCHEMA_CATALOGS, ids=lambda p: p.stem)
def test_schema_translations_keep_code_formulas_numbers_and_links(path: Path) -> None:
    with path.open("rb") as f:
        catalog = read_po(f)
    problems = []
    for message in catalog:
        if not message.id or not message.string:
            continue
        wanted, got = kept_tokens(message.id), kept_tokens(message.string)
        if wanted != got:
            problems.append(
                f"{message.id[:50]!r}: missing {dict(wanted - got)}, extra {dict(got - wanted)}"
            )
    assert problems == []
