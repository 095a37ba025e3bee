"""Differentiability coverage: the figures of the coverage page and its chart.

An *operator set version* is what a model importing that version of a
domain gets: for every operator of the domain, its newest version whose
``since_version`` is not above it, unless that version is a deprecation.
Coverage counts the tags of the inputs and outputs of those versions.
Everything here is a pure function of the model, so the page and the SVG
are the same bytes for the same onnx.
"""

from __future__ import annotations

from dataclasses import dataclass

from gendoc.catalogs.i18n import N_
from gendoc.model.reference import Differentiability, Operator, Reference, Schema
from gendoc.model.stats import Tally, tally_schemas
from gendoc.present.display import Display


@dataclass(frozen=True)
class OpsetCoverage:
    """The tags of one operator set version of one domain."""

    domain: str
    version: int
    operators: int
    counts: Tally


@dataclass(frozen=True)
class UndefinedOperator:
    """An operator whose newest version still has undefined parameters."""

    operator: Operator
    undefined: tuple[str, ...]
    total: int


@dataclass(frozen=True)
class DomainCoverage:
    domain: str
    opsets: tuple[OpsetCoverage, ...]
    undefined: tuple[UndefinedOperator, ...]

    @property
    def latest(self) -> OpsetCoverage:
        return self.opsets[-1]


def opset(operators: list[Operator], version: int) -> list[Schema]:
    """The versions that make up one operator set version (see the module doc)."""
    chosen = []
    for op in operators:
        available = [s for s in op.versions if s.since_version <= version]
        if available and not available[-1].deprecated:
            chosen.append(available[-1])
    return chosen


def _undefined_operators(operators: list[Operator]) -> tuple[UndefinedOperator, ...]:
    found = []
    for op in operators:
        latest = op.latest
        if latest.deprecated:
            continue
        names = tuple(
            p.name for p in latest.parameters if p.differentiability is Differentiability.UNDEFINED
        )
        if names:
            found.append(UndefinedOperator(op, names, len(latest.parameters)))
    return tuple(found)


def domain_coverage(reference: Reference, domain: str) -> DomainCoverage:
    operators = list(reference.operators(domain))
    versions = [s.since_version for op in operators for s in op.versions]
    opsets = []
    for version in range(min(versions), max(versions) + 1):
        schemas = opset(operators, version)
        opsets.append(OpsetCoverage(domain, version, len(schemas), tally_schemas(schemas)))
    return DomainCoverage(domain, tuple(opsets), _undefined_operators(operators))


def coverage(reference: Reference) -> list[DomainCoverage]:
    """Coverage of every domain, in the model's domain order."""
    return [domain_coverage(reference, d) for d in reference.domains]


def latest_total(domains: list[DomainCoverage]) -> Tally:
    """The newest operator set of every domain, added up."""
    total = Tally()
    for d in domains:
        total = total + d.latest.counts
    return total


# The chart: one 100 % stacked bar per operator set version, grouped by domain.

LABEL_WIDTH = 190
BAR_WIDTH = 480
ROW_HEIGHT = 18
ROW_GAP = 4
TOP = 56
PERCENT_WIDTH = 110
"""Room right of the bars for the percentages and their legend, "undefined (%)" in any language."""
ORDER = (
    Differentiability.DIFFERENTIABLE,
    Differentiability.NON_DIFFERENTIABLE,
    Differentiability.UNDEFINED,
)


@dataclass(frozen=True)
class Segment:
    tag: Differentiability
    x: str
    width: str
    count: int


@dataclass(frozen=True)
class Row:
    """One line of the chart: a domain heading (no segments) or an opset bar."""

    y: int
    label: str
    heading: bool
    segments: tuple[Segment, ...] = ()
    undefined_percent: str = ""


@dataclass(frozen=True)
class Chart:
    width: int
    height: int
    rows: tuple[Row, ...]


def _count(counts: Tally, tag: Differentiability) -> int:
    return {
        Differentiability.DIFFERENTIABLE: counts.differentiable,
        Differentiability.NON_DIFFERENTIABLE: counts.non_differentiable,
        Differentiability.UNDEFINED: counts.undefined,
    }[tag]


def _segments(counts: Tally) -> tuple[Segment, ...]:
    segments, x = [], 0.0
    for tag in ORDER:
        n = _count(counts, tag)
        width = BAR_WIDTH * n / counts.total if counts.total else 0.0
        segments.append(Segment(tag, f"{LABEL_WIDTH + x:.2f}", f"{width:.2f}", n))
        x += width
    return tuple(segments)


def chart(domains: list[DomainCoverage], display: Display) -> Chart:
    """Lay out the chart, its labels in the language of ``display``.

    Coordinates are formatted with two decimals here so the SVG text is
    stable whatever the float formatting of the platform.
    """
    rows, y = [], TOP
    for d in domains:
        rows.append(Row(y, display.domain_short(d.domain), heading=True))
        y += ROW_HEIGHT + ROW_GAP
        for o in d.opsets:
            label = display.gettext(N_("opset %(version)s")) % {"version": o.version}
            rows.append(
                Row(y, label, False, _segments(o.counts), o.counts.percent(o.counts.undefined))
            )
            y += ROW_HEIGHT + ROW_GAP
    return Chart(LABEL_WIDTH + BAR_WIDTH + PERCENT_WIDTH, y + ROW_GAP, tuple(rows))
