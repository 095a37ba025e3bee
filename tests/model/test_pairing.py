"""One answer to "did this tag change?": the lints, ``gendoc diff`` and the site agree."""

from __future__ import annotations

from gendoc.audit.lints import check_tag_flip
from gendoc.catalogs.i18n import ENGLISH
from gendoc.model.compare import Kind, compare_schemas
from gendoc.model.pairing import pair_versions
from gendoc.model.reference import Differentiability, Operator, Option, Parameter, Schema
from gendoc.present.display import Display
from gendoc.site.versions_diff import diff_versions

DIFF = Differentiability.DIFFERENTIABLE
NON_DIFF = Differentiability.NON_DIFFERENTIABLE


def _version(version: int, first: str, tag: Differentiability) -> Schema:
    """``Ren``: its first input is renamed between versions, its second keeps its name."""
    inputs = (
        Parameter(first, "T", "", Option.SINGLE, tag),
        Parameter("scale", "T", "", Option.SINGLE, DIFF),
    )
    outputs = (Parameter("Y", "T", "", Option.SINGLE, DIFF),)
    return Schema("", "Ren", version, inputs=inputs, outputs=outputs)


OLD, NEW = _version(1, "X", DIFF), _version(2, "input", NON_DIFF)


def test_a_renamed_parameter_pairs_with_its_old_name() -> None:
    inputs, outputs = pair_versions(OLD, NEW)
    assert [(p.old.name, p.new.name) for p in inputs.pairs] == [("X", "input"), ("scale", "scale")]
    assert inputs.added == () and inputs.removed == ()
    assert [(p.old.name, p.new.name) for p in outputs.pairs] == [("Y", "Y")]


def test_lints_diff_and_site_report_the_same_tag_change() -> None:
    expected = [("input", "input", DIFF, NON_DIFF)]

    lints = check_tag_flip(Operator("", "Ren", (OLD, NEW)))
    from_lints = [
        (f.parameter.part.value, f.parameter.name, DIFF, NON_DIFF)
        for f in lints
        if f.args == {"old": DIFF.value, "before": 1, "new": NON_DIFF.value}
    ]

    changes = compare_schemas(OLD, NEW)
    from_diff = [
        (c.part, c.name, Differentiability(c.old), Differentiability(c.new))
        for c in changes
        if c.kind is Kind.TAG_CHANGED
    ]
    assert [(c.old, c.new) for c in changes if c.kind is Kind.PARAMETER_RENAMED] == [("X", "input")]

    site = diff_versions(OLD, NEW, Display(ENGLISH))
    from_site = [(c.part, c.name, c.old, c.new) for c in site.tag_changes]
    flagged = [line.text for line in site.lines if line.tag_change]

    assert from_lints == from_diff == from_site == expected
    assert any(text.startswith("input X ") for text in flagged)
    assert any(text.startswith("input input ") for text in flagged)
