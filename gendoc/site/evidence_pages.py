"""The site's evidence pages: per operator, each source's verdict per version and Method 1 scripts.

One page per default-domain operator that some framework source knows (a
torch mapping or an onnxruntime gradient builder or stop-gradient edge),
under ``evidence/``, plus an index linked from the audit page. The verdicts
are those of ``gendoc audit --evidence`` without finite differences (too
slow for a site build): the same sources, PyTorch's verdicts read from the
record shipped with gendoc (:mod:`gendoc.evidence.torch_record`) through the
same registry (:mod:`gendoc.evidence.source_registry`), the same rule
registry (:data:`gendoc.evidence.verdict.VERDICT_RULES`). Scripts are
:func:`gendoc.evidence.scripts.method1_script` for the newest version, one
per input that a script can be written for and that the combined verdict
calls differentiable.

Weighing runs once per site build over every operator version (so that
one history and one family share a verdict, as in the audit), shared by both
languages. A dispute says its kind (the mathematics, or a convention); votes
a tag outweighs are a note; a verdict another version decided says which.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any, Protocol

from gendoc.audit.weigh import Weighed, weigh_all
from gendoc.catalogs.i18n import N_
from gendoc.evidence.interface import EvidenceSource, ParameterEvidence, Verdict
from gendoc.evidence.ort_registry import REPLACED_BEFORE_GRADIENT, load_registry
from gendoc.evidence.scripts import differentiable_inputs, method1_script
from gendoc.evidence.source_registry import SOURCES, SourceInfo
from gendoc.evidence.sources import default_sources
from gendoc.evidence.torch_ops import TORCH_OPS
from gendoc.evidence.verdict import Suggestion
from gendoc.evidence.verdict_text import names
from gendoc.model.reference import (
    Differentiability,
    Operator,
    ParameterRef,
    Part,
    Reference,
)

EVIDENCE_INDEX = "evidence/index.md"

VERDICTS = {
    "gradient": N_("gradient"),
    "zero": N_("zero gradient"),
    "refused": N_("refused"),
    "not-applicable": N_("not applicable"),
    "not-measured": N_("not measured"),
    "unavailable": N_("unavailable"),
}
"""The words for a source's verdict (:class:`gendoc.evidence.interface.Verdict` values)."""

STRENGTHS = {
    "strong": N_("strong"),
    "weak": N_("weak"),
    "conflict": N_("conflicting evidence"),
    "disputed": N_("disputed"),
    "none": N_("no evidence"),
}
"""The words for the strength of a combined verdict."""


def has_evidence(op: Operator) -> bool:
    """Whether a framework source can say anything about ``op``."""
    if op.domain:
        return False
    registry = load_registry()
    op_type = REPLACED_BEFORE_GRADIENT.get(op.name, op.name)
    return (
        op.name in TORCH_OPS
        or op_type in registry["registry"]
        or op_type in registry["stop_gradient_edges"]
    )


def noted_sources(suggestion: Suggestion) -> str:
    """The sources of the votes a tag outweighs, for the note under its verdict."""
    return names(suggestion.noted)


def registered() -> list[SourceInfo]:
    """Every source of the registry, for the index's list of what each covers."""
    return list(SOURCES.values())


def evidence_page(operator_page: str) -> str:
    """``operators/ai.onnx/Relu.md`` -> ``evidence/ai.onnx/Relu.md``."""
    return "evidence/" + operator_page.split("/", 1)[1]


@cache
def _sources() -> tuple[EvidenceSource, ...]:
    """The sources of ``gendoc audit --evidence`` (PyTorch's answers from its record)."""
    return tuple(default_sources())


SchemaKey = tuple[str, str, int]


def weighed_all(reference: Reference) -> dict[SchemaKey, Weighed]:
    """Every source's verdict on every schema of ``reference``, combined and settled per
    history and family (:func:`gendoc.audit.weigh.weigh_all`), as the audit gives them; the
    site computes it once (:attr:`gendoc.site.site_facts.SiteFacts.verdicts`)."""
    return {
        (w.schema.domain, w.schema.name, w.schema.since_version): w
        for w in weigh_all(reference.schemas, _sources())
    }


@dataclass(frozen=True)
class Script:
    """A Method 1 script for one input of an operator's newest version."""

    input: str
    code: str


def scripts(op: Operator, found: Weighed) -> list[Script]:
    """Scripts for the inputs of the newest version that the combined verdict (``found``,
    the newest version's) finds differentiable and torch's autograd differentiates.

    Not those only tagged so: BatchNormalization's running mean is tagged
    differentiable, and its script would show torch refusing, not a gradient; nor
    those another source alone differentiates (onnx-ad finds a gradient for
    NegativeLogLikelihoodLoss's weight, which torch refuses).
    """
    schema = op.latest
    combined = {s.parameter: s.suggested for s in found.suggestions}
    return [
        Script(name, method1_script(schema, name))
        for name in differentiable_inputs(schema)
        if combined.get(ref := ParameterRef(Part.INPUT, name)) is Differentiability.DIFFERENTIABLE
        and _torch_verdict(found, ref) == Verdict.GRADIENT
    ]


@dataclass(frozen=True)
class EvidenceRow:
    """One input or output of a version as its evidence page shows it: the combined verdict,
    its row's id, each source's answer in the sources' order, and the sources that found a
    gradient (or a zero one) and those that refused one."""

    suggestion: Suggestion
    id: str
    answers: tuple[tuple[str, ParameterEvidence], ...]
    gradient_in: tuple[str, ...]
    none_in: tuple[str, ...]


def evidence_rows(found: Weighed, row_id: Callable[[ParameterRef], str]) -> tuple[EvidenceRow, ...]:
    """The rows of the version ``found`` weighs, one per suggestion, ids by ``row_id``: each
    source's answers looked up once, not in each place a page shows them."""
    rows = []
    for suggestion in found.suggestions:
        ref = suggestion.parameter
        answers = []
        for evidence in found.evidence:
            answer = evidence.verdict_of(ref)
            if answer is None:
                raise ValueError(f"{evidence.source} did not answer for {ref}")
            answers.append((evidence.source, answer))
        rows.append(
            EvidenceRow(
                suggestion,
                row_id(ref),
                tuple(answers),
                tuple(s for s, a in answers if a.verdict in (Verdict.GRADIENT, Verdict.ZERO)),
                tuple(s for s, a in answers if a.verdict is Verdict.REFUSED),
            )
        )
    return tuple(rows)


def _torch_verdict(found: Weighed, parameter: ParameterRef) -> str | None:
    return next((v.verdict for v in found.votes(parameter) if v.source == "pytorch"), None)


class SiteLike(Protocol):
    """What the page list needs from :class:`gendoc.site.site_facts.SiteFacts`."""

    reference: Reference

    def operator_page(self, domain: str, name: str) -> str: ...


def operators(reference: Reference) -> list[Operator]:
    """The operators that get an evidence page, in the model's order."""
    return [op for op in reference.operators("") if has_evidence(op)]


def index_page(site: SiteLike) -> list[tuple[str, dict[str, Any]]]:
    """``(path, context)`` of the evidence's index, for the table of the site's pages."""
    import gendoc.site.evidence_pages as helpers

    return [(EVIDENCE_INDEX, {"operators": operators(site.reference), "evidence": helpers})]


def operator_pages(site: SiteLike) -> list[tuple[str, dict[str, Any]]]:
    """``(path, context)`` of every operator's evidence page."""
    import gendoc.site.evidence_pages as helpers

    return [
        (evidence_page(site.operator_page(op.domain, op.name)), {"op": op, "evidence": helpers})
        for op in operators(site.reference)
    ]
