"""One verdict per parameter: every evidence source weighed by the rule registry (``GD2xx``).

The sources are those of :mod:`gendoc.evidence` (PyTorch's autograd, from
its record or live; onnxruntime's gradient registry) and, when the audit ran
them, the finite differences. :func:`gendoc.evidence.verdict.combine`
decides by the first rule of :data:`gendoc.evidence.verdict.VERDICT_RULES` that
applies; :data:`gendoc.evidence.verdict_text.REPORTS` says which finding
that rule raises, with which message, which this module only formats: at
most one finding per parameter.

A source that cannot run still answers, ``unavailable`` with why (torch not
installed and no record for the version, no torch mapping, no test data,
finite differences not asked for): each finding lists every source's vote,
and :func:`unanswered` sums up, per source, the operator versions it could
not answer at all and why, for every rendering of the report.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace

from gendoc.audit.findings import Finding, SourceVerdict, make_finding
from gendoc.catalogs.i18n import N_, Message, say
from gendoc.evidence.history import settle
from gendoc.evidence.interface import EvidenceSource, SourceEvidence
from gendoc.evidence.numeric import NumericResult
from gendoc.evidence.numeric_source import NumericEvidence
from gendoc.evidence.source_registry import NUMERIC
from gendoc.evidence.sources import MissingSource, default_sources
from gendoc.evidence.verdict import Suggestion, combine
from gendoc.evidence.verdict_text import REPORTS
from gendoc.model.reference import ParameterRef, Reference, Schema

NUMERIC_NOT_REQUESTED = say(N_("finite differences were not requested (--numeric)"))


def audit_sources(numeric: NumericResult | None) -> list[EvidenceSource]:
    """The frameworks, then the finite differences of this audit (or why there are none)."""
    sources = default_sources()
    if numeric is None:
        sources.append(MissingSource(NUMERIC, NUMERIC_NOT_REQUESTED))
    else:
        sources.append(NumericEvidence(numeric.operators))
    return sources


@dataclass(frozen=True)
class Weighed:
    """One operator version: every source's evidence and the suggestion per parameter."""

    schema: Schema
    evidence: tuple[SourceEvidence, ...]
    suggestions: tuple[Suggestion, ...]

    def votes(self, parameter: ParameterRef) -> tuple[SourceVerdict, ...]:
        """Every source's vote on one parameter, in source order."""
        return tuple(
            SourceVerdict(e.source, p.verdict.value, p.detail.text)
            for e in self.evidence
            if (p := e.verdict_of(parameter)) is not None
        )


def weigh(schema: Schema, sources: Sequence[EvidenceSource]) -> Weighed:
    """Ask every source about ``schema`` and combine their answers (this version alone)."""
    evidence = tuple(source.evaluate(schema) for source in sources)
    return Weighed(schema, evidence, tuple(combine(schema, evidence)))


def weigh_all(schemas: Sequence[Schema], sources: Sequence[EvidenceSource]) -> list[Weighed]:
    """:func:`weigh` for every schema, then one verdict per history and family
    (:func:`gendoc.evidence.history.settle`)."""
    weighed = [weigh(schema, sources) for schema in schemas]
    settled = settle([(w.schema, w.suggestions) for w in weighed])
    return [replace(w, suggestions=tuple(s)) for w, s in zip(weighed, settled, strict=True)]


def findings_of(weighed: Weighed) -> list[Finding]:
    """At most one finding per parameter of one operator version: the deciding rule's."""
    schema = weighed.schema
    found = []
    for s in weighed.suggestions:
        report = REPORTS.get(s.rule)
        if report is None:
            continue
        finding = make_finding(
            report.finding,
            schema.domain,
            schema.name,
            schema.since_version,
            s.parameter,
            report.message,
            **report.args(s),
        )
        found.append(replace(finding, suggested=s.suggested, evidence=weighed.votes(s.parameter)))
    return found


@dataclass(frozen=True)
class SourceReport:
    """One source in a report: its status line, and the operator versions it could not
    answer at all, counted by reason (most frequent first). Both are messages, said in the
    report's language; the JSON form has their English text."""

    source: str
    status: Message
    unanswered: tuple[tuple[Message, int], ...] = ()

    def to_dict(self) -> dict[str, object]:
        return {
            "source": self.source,
            "status": self.status.text,
            "unanswered": [{"reason": why.text, "versions": n} for why, n in self.unanswered],
        }


def unanswered(evidence: Sequence[SourceEvidence]) -> tuple[tuple[Message, int], ...]:
    """Why one source answered no parameter of some operator versions (it answered them with
    :func:`~gendoc.evidence.interface.unavailable`), with how many."""
    reasons = Counter(e.unanswered for e in evidence if e.unanswered is not None)
    return tuple(sorted(reasons.items(), key=lambda item: (-item[1], item[0].text)))


def evidence_findings(
    scope: Reference, sources: Sequence[EvidenceSource]
) -> tuple[list[Finding], tuple[SourceReport, ...]]:
    """The evidence verdict for every parameter of every operator version in ``scope``, and
    what each source said about itself once it had answered them all."""
    weighed = weigh_all(scope.schemas, sources)
    findings = [f for w in weighed for f in findings_of(w)]
    reports = tuple(
        SourceReport(source.name, source.status, unanswered([w.evidence[i] for w in weighed]))
        for i, source in enumerate(sources)
    )
    return findings, reports
