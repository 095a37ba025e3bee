"""One verdict per parameter: every evidence source weighed by the rule table (rules ``GD2xx``).

The sources are those of :mod:`gendoc.evidence` (PyTorch's autograd,
onnxruntime's gradient registry) and, when the audit ran them, the finite
differences. :func:`gendoc.evidence.verdict.combine` decides; this module
turns its decision into at most one finding per parameter:

* a defined tag that two or more agreeing sources contradict: GD201 (error);
  a single source: GD202 (info);
* a framework's refusal that outranked a finite-difference slope: GD203
  (info, "a Jacobian exists but frameworks treat this input as a
  hyperparameter");
* an undefined parameter: GD204 (warning) when two or more sources agree on a
  tag, otherwise GD205 (info) with the single source's tag, the conflict, or
  "no evidence".

A source that cannot run still answers, ``unavailable`` with why (torch not
installed, no torch mapping, no test data, finite differences not asked
for), and each finding lists every source's vote, so a reader sees what was
not checked as well as what was.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from gendoc.audit.findings import Finding, ParameterRef, Part, SourceVote, make_finding
from gendoc.audit.messages import N_, Arg
from gendoc.audit.results import NumericResult
from gendoc.evidence.outcome import EvidenceSource, SourceEvidence
from gendoc.evidence.sources import MissingSource, default_sources
from gendoc.evidence.verdict import NUMERIC, Strength, Suggestion, combine
from gendoc.i18n import Term
from gendoc.model import Differentiability, Reference, Schema

UNDEFINED = Differentiability.UNDEFINED
NUMERIC_NOT_REQUESTED = "finite differences were not requested (--numeric)"


def audit_sources(numeric: NumericResult | None) -> list[EvidenceSource]:
    """The frameworks, then the finite differences of this audit (or why there are none)."""
    from gendoc.evidence.numeric import NumericEvidence

    sources = default_sources()
    if numeric is None:
        sources.append(MissingSource(NUMERIC, NUMERIC_NOT_REQUESTED))
    else:
        sources.append(NumericEvidence(numeric.to_dict()["operators"]))
    return sources


@dataclass(frozen=True)
class Weighed:
    """One operator version: every source's evidence and the suggestion per parameter."""

    schema: Schema
    evidence: tuple[SourceEvidence, ...]
    suggestions: tuple[Suggestion, ...]

    def votes(self, label: str) -> tuple[SourceVote, ...]:
        """Every source's vote on one parameter (``"input X"``), in source order."""
        return tuple(
            SourceVote(e.source, p.verdict.value, p.detail)
            for e in self.evidence
            if (p := e.verdict_of(label)) is not None
        )


def weigh(schema: Schema, sources: Sequence[EvidenceSource]) -> Weighed:
    """Ask every source about ``schema`` and combine their answers."""
    evidence = tuple(source.evaluate(schema) for source in sources)
    return Weighed(schema, evidence, tuple(combine(schema, evidence)))


def _names(lines: Iterable[str]) -> str:
    """``"pytorch: gradient (...)"`` lines -> ``"pytorch, onnxruntime"``."""
    return ", ".join(line.split(":", 1)[0] for line in lines)


def _rule(s: Suggestion) -> tuple[str, str, dict[str, Arg]] | None:
    """The rule, template and arguments for one suggestion, or ``None`` for no finding."""
    suggested = Term(s.suggested.value) if s.suggested else ""
    if s.is_problem:
        args: dict[str, Arg] = {
            "current": Term(s.current.value),
            "suggested": suggested,
            "sources": _names(s.support),
        }
        if s.strength is Strength.STRONG:
            args["count"] = len(s.support)
            template = N_(
                "tagged {current}, but {count} independent sources agree on {suggested}: {sources}"
            )
            return "GD201", template, args
        return "GD202", N_("tagged {current}, but one source suggests {suggested}: {sources}"), args
    if s.hyperparameter:
        template = (
            N_(
                "a Jacobian exists but frameworks treat this input as a hyperparameter: "
                "refused by {sources}; finite differences find a slope"
            )
            if s.parameter.startswith("input ")
            else N_(
                "a Jacobian exists but frameworks do not differentiate this output: "
                "refused by {sources}; finite differences find a slope"
            )
        )
        return "GD203", template, {"sources": _names(s.support)}
    if s.current is not UNDEFINED:
        return None
    return _undefined_rule(s, suggested)


def _undefined_rule(s: Suggestion, suggested: str) -> tuple[str, str, dict[str, Arg]]:
    if s.strength is Strength.STRONG:
        template = N_("undefined; {count} independent sources agree on {suggested}: {sources}")
        args: dict[str, Arg] = {
            "count": len(s.support),
            "suggested": suggested,
            "sources": _names(s.support),
        }
        return "GD204", template, args
    if s.strength is Strength.WEAK:
        template = N_("undefined; one source suggests {suggested}: {sources}")
        return "GD205", template, {"suggested": suggested, "sources": _names(s.support)}
    if s.strength is Strength.CONFLICT:
        template = N_(
            "undefined; conflicting evidence: {for_diff} for differentiable, "
            "{for_non} for non-differentiable"
        )
        args = {"for_diff": _names(s.support), "for_non": _names(s.against)}
        return "GD205", template, args
    return "GD205", N_("undefined; no evidence"), {}


def findings_of(weighed: Weighed) -> list[Finding]:
    """At most one finding per parameter of one operator version."""
    schema = weighed.schema
    found = []
    for s in weighed.suggestions:
        decided = _rule(s)
        if decided is None:
            continue
        rule, template, args = decided
        part, name = s.parameter.split(" ", 1)
        finding = make_finding(
            rule,
            schema.domain,
            schema.name,
            schema.since_version,
            ParameterRef(Part(part), name),
            template,
            **args,
        )
        found.append(replace(finding, suggested=s.suggested, evidence=weighed.votes(s.parameter)))
    return found


def evidence_findings(scope: Reference, sources: Sequence[EvidenceSource]) -> list[Finding]:
    """The evidence verdict for every parameter of every operator version in ``scope``."""
    return [f for schema in scope.schemas for f in findings_of(weigh(schema, sources))]
