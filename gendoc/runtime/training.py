"""Whether gradients flow through an operator version: its tags and the gradient sources
gendoc already reads (onnxruntime's gradient builders, onnx-ad's recorded rules).

Only recorded answers are used: onnxruntime's builders as read from its sources
(``gendoc/evidence/data/ort_gradients.json``) and onnx-ad's verdicts as recorded
(``onnx_ad_verdicts.json``). An operator version neither source answers for is *unknown*.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from gendoc.evidence.interface import SourceEvidence, Verdict
from gendoc.evidence.onnx_ad_record import NAME as ONNX_AD_SOURCE
from gendoc.evidence.onnx_ad_record import load_record as load_onnx_ad
from gendoc.evidence.ort_registry import OrtRegistrySource
from gendoc.evidence.record import from_record, interface_key
from gendoc.model.reference import ParameterRef, Part, Schema

BUILDER = "gradient builder"
ONNX_AD = "onnx-ad rule"
NONE = "none"
# The sources the records were read from: onnxruntime's gradient builders at the record's
# commit, and the onnx-ad release the verdicts were recorded with
BUILDERS_URL = (
    "https://github.com/microsoft/onnxruntime/blob/{commit}"
    "/orttraining/orttraining/core/graph/gradient_builder.cc"
)
ONNX_AD_URL = "https://pypi.org/project/onnx-ad/{version}/"


@dataclass(frozen=True)
class Gradients:
    """What the gradient sources say about one operator version."""

    trains: str
    """``gradient builder``, ``onnx-ad rule`` (no builder, onnx-ad differentiates it), ``none``
    (a source answered and gives no gradient for any input) or ``unknown``."""
    inputs: tuple[tuple[str, str, tuple[str, ...]], ...]
    """Per input: its name, its tag, the sources that give it a gradient."""
    detail: str

    @property
    def flows(self) -> bool | None:
        if self.trains == "unknown":
            return None
        return self.trains != NONE


@cache
def _builder_source() -> OrtRegistrySource:
    return OrtRegistrySource()


def _onnx_ad(schema: Schema) -> SourceEvidence | None:
    found = load_onnx_ad()["verdicts"].get(interface_key(schema))
    return from_record(ONNX_AD_SOURCE, schema, found) if found is not None else None


def source_url(trains: str) -> str:
    """Where the source that answers ``trains`` can be read (empty for none or unknown)."""
    if trains == BUILDER:
        return BUILDERS_URL.format(commit=_builder_source().data["onnxruntime"]["commit"])
    if trains == ONNX_AD:
        return ONNX_AD_URL.format(version=load_onnx_ad()["onnx-ad"])
    return ""


@cache
def gradients(schema: Schema) -> Gradients:
    """The gradient sources' answer for ``schema`` (recorded data only)."""
    builder = _builder_source().evaluate(schema)
    onnx_ad = _onnx_ad(schema)
    answered = any(p.verdict is not Verdict.UNAVAILABLE for p in builder.parameters) or (
        onnx_ad is not None
        and any(p.verdict is not Verdict.UNAVAILABLE for p in onnx_ad.parameters)
    )
    rows = []
    for param in schema.inputs:
        sources = []
        for name, evidence in ((BUILDER, builder), (ONNX_AD, onnx_ad)):
            found = evidence.verdict_of(ParameterRef(Part.INPUT, param.name)) if evidence else None
            if found is not None and found.verdict is Verdict.GRADIENT:
                sources.append(name)
        rows.append((param.name, param.differentiability.value, tuple(sources)))
    given = {source for _, _, sources in rows for source in sources}
    if BUILDER in given:
        trains = BUILDER
    elif ONNX_AD in given:
        trains = ONNX_AD
    else:
        trains = NONE if answered else "unknown"
    said = builder.detail if BUILDER in given else onnx_ad.detail if onnx_ad and given else None
    detail = said.text if said else ""
    return Gradients(trains, tuple(rows), detail)
