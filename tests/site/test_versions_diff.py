"""Diffs between versions: words marked inside changed lines, every pair of versions, links."""

from __future__ import annotations

import difflib
import random
from itertools import combinations

from onnx import defs

from gendoc.catalogs.i18n import ENGLISH
from gendoc.catalogs.schema_text import SchemaText, paragraphs
from gendoc.model.reference import Reference
from gendoc.model.sequence_diff import Matcher
from gendoc.present.display import Display
from gendoc.present.render import RenderOptions, display
from gendoc.site.onnx_links import onnx_ref, release_url, source_url
from gendoc.site.versions_diff import (
    _WORD,
    WORD_MATCH,
    _prose,
    diff_versions,
    operator_diffs,
    version_lines,
    word_diff,
)


def changed(runs: tuple[tuple[str, bool], ...]) -> list[str]:
    return [text for text, marked in runs if marked]


def test_an_appended_type_is_the_only_word_marked() -> None:
    old, new = word_diff(
        "type constraint T: tensor(float), tensor(double)",
        "type constraint T: tensor(float), tensor(double), tensor(float8e8m0)",
    )
    assert changed(old) == []
    assert changed(new) == [", tensor(float8e8m0)"]
    assert "".join(text for text, _ in new).endswith("tensor(float8e8m0)")


def test_a_replaced_word_is_marked_on_both_sides() -> None:
    old, new = word_diff("The input tensor of rank r.", "The output tensor of rank r.")
    assert (changed(old), changed(new)) == (["input"], ["output"])


def test_unrelated_lines_get_no_marks() -> None:
    assert word_diff("Constrain input types.", "1 2 3 4 5 6 7 8 9") == ((), ())


def test_the_fast_matcher_matches_as_difflib_does() -> None:
    """Same longest blocks (ties: first in a, then in b), opcodes and ratio, on any range."""
    rng = random.Random(7)
    pairs = [("", ""), ("", "ab"), ("abab", "baba"), ("aaaa", "aa"), ("abcab", "cabab")]
    for _ in range(3000):
        alphabet = "abcdefghij"[: rng.choice((1, 2, 3, 10))]
        a, b = ("".join(rng.choices(alphabet, k=rng.randint(0, 30))) for _ in "ab")
        if rng.random() < 0.3:
            b = a[: rng.randint(0, len(a))] + b[:4] + a[rng.randint(0, len(a)) :]
        pairs.append((a, b))
    for a, b in pairs:
        fast, slow = Matcher(a, b), difflib.SequenceMatcher(None, a, b, autojunk=False)
        assert fast.get_opcodes() == slow.get_opcodes(), (a, b)
        assert fast.ratio() == slow.ratio()
        for _ in range(3):
            alo, blo = rng.randint(0, len(a)), rng.randint(0, len(b))
            ahi, bhi = rng.randint(alo, len(a)), rng.randint(blo, len(b))
            bounds = (alo, ahi, blo, bhi)
            assert fast.find_longest_match(*bounds) == slow.find_longest_match(*bounds)


def _word_diff_by_difflib(old: str, new: str) -> tuple[tuple[tuple[str, bool], ...], ...]:
    """``word_diff`` as it was first written: difflib on the words, ratio() always computed."""
    a, b = _WORD.findall(old), _WORD.findall(new)
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    if matcher.ratio() < WORD_MATCH:
        return (), ()
    runs: tuple[list[tuple[str, bool]], list[tuple[str, bool]]] = ([], [])
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if i1 < i2:
            runs[0].append(("".join(a[i1:i2]), op != "equal"))
        if j1 < j2:
            runs[1].append(("".join(b[j1:j2]), op != "equal"))
    return tuple(runs[0]), tuple(runs[1])


def test_quick_rejections_agree_with_the_full_ratio() -> None:
    tricky = [
        ("a b", "a c d"),  # ratio exactly WORD_MATCH: kept
        ("b a", "a b"),  # the same words in another order: the quick bounds pass, ratio fails
        ("x", "x y z w v u"),  # lengths too unlike: the quickest bound fails
        ("", ""),
        ("", "a"),
    ]
    rng = random.Random(11)
    words = ["a", "b", "tensor(float)", ",", " ", "x.y", "-", "类型"]
    tricky += [
        ("".join(rng.choices(words, k=rng.randint(0, 12))), "".join(rng.choices(words, k=n)))
        for n in range(13)
        for _ in range(300)
    ]
    for old, new in tricky:
        assert word_diff.__wrapped__(old, new) == _word_diff_by_difflib(old, new), (old, new)


def test_every_pair_of_versions_is_diffed_once(reference: Reference) -> None:
    reshape = reference.operator("", "Reshape")
    assert reshape is not None and len(reshape.versions) >= 3
    display = Display(ENGLISH)
    diffs = operator_diffs(reshape.versions, display)
    assert all(new == d.new.since_version for new, d in diffs.neighbours.items())
    assert all(d is diffs.into[new][-1] for new, d in diffs.neighbours.items())
    pairs = [(d.old.since_version, d.new.since_version) for ds in diffs.into.values() for d in ds]
    versions = [s.since_version for s in reshape.versions]
    assert pairs == sorted(pairs, key=lambda pair: (pair[1], pair[0]))  # oldest first
    assert sorted(pairs) == sorted(combinations(versions, 2))


def test_types_appended_to_reshape_are_marked_words(reference: Reference) -> None:
    """Two versions apart (not neighbours); the types expected are read from onnx itself."""
    schemas = [
        s for s in defs.get_all_schemas_with_history() if s.name == "Reshape" and not s.domain
    ]
    old, new = sorted(schemas, key=lambda s: s.since_version)[-3::2]
    appended = set(new.type_constraints[0].allowed_type_strs) - set(
        old.type_constraints[0].allowed_type_strs
    )
    assert appended, "onnx appended types to Reshape in its last versions"
    reshape = reference.operator("", "Reshape")
    assert reshape is not None
    pair = (old.since_version, new.since_version)
    [diff] = [
        d
        for d in operator_diffs(reshape.versions, Display(ENGLISH)).into[new.since_version]
        if (d.old.since_version, d.new.since_version) == pair
    ]
    [added] = [line for line in diff.lines if line.kind == "+"]
    [removed] = [line for line in diff.lines if line.kind == "-"]
    assert changed(removed.words) == []
    marked = " ".join(changed(added.words))
    assert all(name in marked for name in appended), (marked, appended)
    assert "tensor(float)" not in marked, "types both versions allow are not marked"


def test_a_translated_diff_compares_what_the_translated_page_shows(reference: Reference) -> None:
    """Translated paragraphs replace their English; the others stay English, marked."""
    reshape = reference.operator("", "Reshape")
    assert reshape is not None
    new = reshape.latest
    first, second, *_ = paragraphs(new.doc)
    display = Display(ENGLISH, lang="zh", schema=SchemaText({first: "第一段的译文。"}))
    new_lines = [line.text for line in version_lines(new, display)]
    assert new_lines[:2] == ["第一段的译文。", ""]
    assert "[English] " + second.split("\n")[0] in new_lines
    english = [line.text for line in version_lines(new, Display(ENGLISH))]
    assert english[0] == first.split("\n")[0] and not any("[English]" in t for t in english)
    diffs = operator_diffs(reshape.versions, display)
    shown = [line.text for ds in diffs.into.values() for d in ds for line in d.lines]
    assert "第一段的译文。" in shown
    assert first.split("\n")[0] not in shown, "no unmarked English of a translated paragraph"


def test_a_chinese_diff_marks_only_what_changed_in_english(reference: Reference) -> None:
    """PRelu-16 joins two paragraphs of PRelu-9 into one, word for word (onnx 1.23.2): the
    English diff marks the blank line between them and nothing else, and so does the Chinese
    one, whose paragraph is one line with two sentences. Whatever the installed onnx's texts,
    the Chinese diff marks lines where the English one does, and no others."""
    prelu = reference.operator("", "PRelu")
    assert prelu is not None
    old, new = (s for s in prelu.versions if s.since_version in (9, 16))

    def marked(lang: str) -> list[tuple[str, bool]]:
        diff = diff_versions(old, new, display(RenderOptions(lang=lang)))
        prose = [line for line in diff.lines if line.kind in "+-" and ":" not in line.text]
        return [(line.kind, line.text == "") for line in prose]

    english = marked("en")
    assert marked("zh") == english
    if reference.onnx_version == "1.23.2":
        assert english == [("+", True)] or english == [("-", True)]


def test_a_translated_paragraph_is_compared_sentence_by_sentence() -> None:
    schema = SchemaText(
        {"One. Two.": "一。二。", "Code:\n```\na。b。\n```": "代码：\n```\na。b。\n```"}
    )
    display_zh = Display(ENGLISH, lang="zh", schema=schema)
    assert [x.text for x in _prose("One. Two.", "", display_zh)] == ["一。", "二。"]
    shown = [x.text for x in _prose("Code:\n```\na。b。\n```", "", display_zh)]
    assert shown == ["代码：", "```", "a。b。", "```"]


def test_links_point_at_the_release_tag_or_main() -> None:
    assert onnx_ref("1.23.2") == "v1.23.2"
    assert onnx_ref("1.18.0rc1") == "v1.18.0rc1"
    assert onnx_ref("1.24.0.dev20261026") == "main"
    assert (
        source_url("1.23.2", ("onnx/defs/tensor/defs.cc", 250))
        == "https://github.com/onnx/onnx/blob/v1.23.2/onnx/defs/tensor/defs.cc#L250"
    )
    assert source_url("1.24.0.dev1", ("onnx/defs/x.cc", 1)).startswith(
        "https://github.com/onnx/onnx/blob/main/"
    )
    assert release_url("1.23.2") == "https://github.com/onnx/onnx/releases/tag/v1.23.2"
    assert release_url("1.24.0.dev1") is None
