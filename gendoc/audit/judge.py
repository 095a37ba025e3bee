"""Judging: where the numeric evidence disagrees with a tag, or suggests one.

The pairs of a parameter are read by :func:`gendoc.evidence.numeric_source.read_slopes`,
the same reading ``gendoc audit --evidence`` gives them: a stable nonzero
slope shows a dependence (GD101 against non-differentiable, GD103 for
undefined), a zero in every measured pair suggests none (GD102 against
differentiable, GD103), an unstable pair silences the zero verdict, and
not-float and unevaluated pairs say nothing about the tag.
"""

from __future__ import annotations

from gendoc.audit.findings import Finding, make_finding
from gendoc.audit.messages import N_, Arg
from gendoc.evidence.interface import Verdict
from gendoc.evidence.numeric import NumericResult, OperatorEvidence, PairClass, PairEvidence
from gendoc.evidence.numeric_source import read_slopes
from gendoc.model.reference import Differentiability, ParameterRef, Part, Reference, Schema

DIFF = Differentiability.DIFFERENTIABLE
NON_DIFF = Differentiability.NON_DIFFERENTIABLE
UNDEFINED = Differentiability.UNDEFINED


_WHEN_NONZERO: dict[Differentiability, tuple[str, str]] = {
    NON_DIFF: (
        "GD101",
        N_(
            "tagged non-differentiable, but d({output})/d({input}) is stable nonzero at "
            "{nonzero} of {probes} probes (|slope| up to {slope:.3g}); test cases: {cases}"
        ),
    ),
    UNDEFINED: (
        "GD103",
        N_(
            "undefined; finite differences suggest differentiable: d({output})/d({input}) "
            "is stable nonzero at {nonzero} of {probes} probes (|slope| up to {slope:.3g}); "
            "test cases: {cases}"
        ),
    ),
}
"""The rule and message of a stable nonzero slope, by tag; a differentiable tag agrees."""

_WHEN_ZERO: dict[Differentiability, tuple[str, str]] = {
    DIFF: (
        "GD102",
        N_(
            "tagged differentiable, but d({outputs})/d({inputs}) is zero at all {probes} "
            "probes; test cases: {cases}"
        ),
    ),
    UNDEFINED: (
        "GD103",
        N_(
            "undefined; finite differences suggest non-differentiable: "
            "d({outputs})/d({inputs}) is zero at all {probes} probes; test cases: {cases}"
        ),
    ),
}
"""The rule and message of a zero in every probe, by tag; a non-differentiable tag agrees."""


def _nonzero_finding(
    schema: Schema, where: ParameterRef, tag: Differentiability, pairs: list[PairEvidence]
) -> Finding | None:
    """GD101 or GD103 from the strongest nonzero pair, or ``None`` when the tag agrees."""
    if tag not in _WHEN_NONZERO:
        return None
    best = max(pairs, key=lambda p: (p.nonzero, p.max_slope))
    args = {
        "output": best.output,
        "input": best.input,
        "nonzero": best.nonzero,
        "probes": best.probes,
        "slope": best.slope,
        "cases": best.cases,
    }
    return _finding(*_WHEN_NONZERO[tag], schema, where, args)


def _zero_finding(
    schema: Schema, where: ParameterRef, tag: Differentiability, pairs: list[PairEvidence]
) -> Finding | None:
    """GD102 or GD103 when every probe of every pair found zero."""
    if tag not in _WHEN_ZERO:
        return None
    args = {
        "outputs": ", ".join(dict.fromkeys(p.output for p in pairs)),
        "inputs": ", ".join(dict.fromkeys(p.input for p in pairs)),
        "probes": sum(p.probes for p in pairs),
        "cases": max(p.cases for p in pairs),
    }
    return _finding(*_WHEN_ZERO[tag], schema, where, args)


def _finding(
    rule: str, template: str, schema: Schema, where: ParameterRef, args: dict[str, Arg]
) -> Finding:
    return make_finding(
        rule, schema.domain, schema.name, schema.since_version, where, template, **args
    )


def _judge(
    evidence: OperatorEvidence, schema: Schema, where: ParameterRef, tag: Differentiability
) -> Finding | None:
    """The finding for one parameter, or ``None`` when the evidence agrees or is silent."""
    side = 0 if where.part is Part.INPUT else 1
    pairs = [p for p in evidence.pairs if (p.input, p.output)[side] == where.name]
    verdict, _ = read_slopes(p.kind for p in pairs)
    if verdict is Verdict.GRADIENT:
        nonzero = [p for p in pairs if p.kind is PairClass.NONZERO]
        return _nonzero_finding(schema, where, tag, nonzero)
    if verdict is Verdict.ZERO:
        return _zero_finding(schema, where, tag, [p for p in pairs if p.kind is PairClass.ZERO])
    return None


def numeric_findings(reference: Reference, result: NumericResult) -> list[Finding]:
    """Findings where the evidence disagrees with a tag, or suggests one for an undefined tag."""
    schemas = {(s.domain, s.name, s.since_version): s for s in reference.schemas}
    findings: list[Finding] = []
    for evidence in result.operators:
        schema = schemas[(evidence.domain, evidence.op, evidence.version)]
        for part, params in ((Part.INPUT, schema.inputs), (Part.OUTPUT, schema.outputs)):
            for param in params:
                where = ParameterRef(part, param.name)
                finding = _judge(evidence, schema, where, param.differentiability)
                if finding:
                    findings.append(finding)
    return findings
