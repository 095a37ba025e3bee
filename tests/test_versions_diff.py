"""Diffs between versions: words marked inside changed lines, every pair of versions, links."""

from __future__ import annotations

from itertools import combinations

from onnx import defs

from gendoc.display import Display
from gendoc.i18n import ENGLISH
from gendoc.model import Reference
from gendoc.site.onnx_links import onnx_ref, release_url, source_url
from gendoc.site.versions_diff import operator_diffs, word_diff


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


def test_every_pair_of_versions_is_diffed_once(reference: Reference) -> None:
    reshape = reference.operator("", "Reshape")
    assert reshape is not None and len(reshape.versions) >= 3
    display = Display(ENGLISH)
    diffs = operator_diffs(reshape.versions, display)
    pairs = [(d.old.since_version, d.new.since_version) for d in diffs.neighbours.values()]
    assert all(new == d.new.since_version for new, d in diffs.neighbours.items())
    pairs += [(d.old.since_version, d.new.since_version) for d in diffs.distant]
    versions = [s.since_version for s in reshape.versions]
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
        for d in operator_diffs(reshape.versions, Display(ENGLISH)).distant
        if (d.old.since_version, d.new.since_version) == pair
    ]
    [added] = [line for line in diff.lines if line.kind == "+"]
    [removed] = [line for line in diff.lines if line.kind == "-"]
    assert changed(removed.words) == []
    marked = " ".join(changed(added.words))
    assert all(name in marked for name in appended), (marked, appended)
    assert "tensor(float)" not in marked, "types both versions allow are not marked"


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
