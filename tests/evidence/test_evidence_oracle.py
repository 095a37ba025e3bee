"""Regression fixtures of the evidence: tests/evidence_oracle.csv, and sources blind to tags.

``tests/evidence_oracle.csv`` is a hand-written table (each row cites its
reason). It is not an accuracy figure (``benchmarks/evidence_vs_onnx_tags.py``
scores against onnx's own tags); it pins what PyTorch and onnxruntime's
registry say together about parameters whose verdict a reviewer checked.
"""

from __future__ import annotations

import csv
import dataclasses
from pathlib import Path

from gendoc.audit import AuditOptions, audit_reference
from gendoc.evidence.interface import untagged
from gendoc.evidence.numeric_source import NumericEvidence
from gendoc.evidence.sources import default_sources
from gendoc.evidence.torch_ops import FLOAT_INPUTS, Value, torch_op
from gendoc.evidence.verdict import combine
from gendoc.evidence.verdict_text import describe_verdict
from gendoc.model.reference import Differentiability, ParameterRef, Reference, Schema

ORACLE = Path(__file__).with_name("evidence_oracle.csv")


def _python_scalar(schema: Schema, parameter: str) -> bool:
    """Whether the torch mapping passes this input as a Python value (no vote, by design)."""
    kind, name = parameter.split(" ", 1)
    spec = torch_op(schema)
    return kind == "input" and spec is not None and isinstance(spec.inputs.get(name), Value)


def _fed_as_float(schema: Schema, parameter: str) -> bool:
    """Whether the mapping feeds this input a floating-point type the table's integer reading
    leaves out (DequantizeLinear-19's float8 ``x``: the dequantization is linear in it)."""
    variant = FLOAT_INPUTS.get(schema.name)
    spec = torch_op(schema)
    return variant is not None and spec is variant[2] and parameter == f"input {variant[0]}"


def test_the_fixture_table_still_holds_without_the_tags(reference: Reference) -> None:
    # The table was written for PyTorch and onnxruntime's registry: onnx-ad, added later,
    # measures some of its "non-differentiable" rows (nll_loss's weight) as differentiable.
    sources = [s for s in default_sources() if s.name in ("pytorch", "onnxruntime")]
    with ORACLE.open(newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    assert len(rows) > 200
    schemas = {(s.name, s.since_version): s for s in reference.schemas if not s.domain}
    differ = []
    for row in rows:
        schema = schemas.get((row["operator"], int(row["version"])))
        if schema is None:  # a version newer than the installed onnx
            continue
        bare = untagged(schema)
        (found,) = [
            s
            for s in combine(bare, [source.evaluate(bare) for source in sources])
            if s.parameter == ParameterRef.parse(row["parameter"])
        ]
        if found.suggested is not Differentiability(row["expected"]):
            differ.append((schema, row["parameter"], describe_verdict(found), found.rule))
    # The only rows without the table's tag are Python scalars of the torch mapping (a shape,
    # an axis), which are "not measured" and give no vote: no evidence, not a wrong tag;
    # those only a policy speaks for (a running mean), which suggests no tag; and an input
    # the table read as an integer that the mapping now feeds as float8.
    assert all(
        (_python_scalar(schema, p) and d == "no evidence")
        or rule == "policy-alone"
        or _fed_as_float(schema, p)
        for schema, p, d, rule in differ
    ), [(schema.versioned_name, p, d) for schema, p, d, _ in differ]


def test_no_source_reads_the_tags(reference: Reference) -> None:
    """Every source, the finite differences included, answers the same for the schema with
    its tags and with the tags removed (what the benchmark against onnx's tags relies on)."""
    ops = ["BatchNormalization", "Clip", "OneHot"]
    scope = reference.scope((), ops)
    bare = dataclasses.replace(scope, schemas=tuple(untagged(s) for s in scope.schemas))
    numeric = {}
    for name, model in (("tagged", scope), ("bare", bare)):
        report = audit_reference(model, AuditOptions(numeric=True, jobs=1))
        assert report.numeric is not None
        numeric[name] = report.numeric.operators
    assert numeric["tagged"] == numeric["bare"]
    sources = [*default_sources(), NumericEvidence(numeric["bare"])]
    for schema in scope.schemas:
        assert untagged(schema) != schema or not any(
            p.differentiability is not Differentiability.UNDEFINED for p in schema.parameters
        )
        for source in sources:
            assert source.evaluate(schema) == source.evaluate(untagged(schema)), (
                source.name,
                schema.versioned_name,
            )


def test_no_verdict_asks_to_change_a_tag_onnx_set(reference: Reference) -> None:
    """Over every installed schema: a strong or weak verdict (what ``gendoc suggest`` may
    apply) either fills an undefined tag or repeats the tag onnx set; contradictions are
    disputed."""
    sources = default_sources()
    disputed = 0
    for schema in reference.schemas:
        for s in combine(schema, [source.evaluate(schema) for source in sources]):
            if s.strength.value in ("strong", "weak"):
                assert s.current in (Differentiability.UNDEFINED, s.suggested), s
            disputed += s.is_problem
    assert disputed  # Clip-13's bounds at least: torch differentiates them
