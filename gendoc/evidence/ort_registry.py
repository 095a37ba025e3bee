"""Evidence from onnxruntime's training gradient registry (a data file, no onnxruntime needed).

``data/ort_gradients.json`` is made by :mod:`gendoc.evidence.ort_extract`
from onnxruntime's C++ sources. A gradient builder is an independent,
hand-written statement of which inputs an operator differentiates: the
builder emits ``GI(i)`` for those and nothing for the rest, and the graph
builder's stop-gradient table cuts further edges. Verdicts:

* input in the stop-gradient table: ``REFUSED``, whatever the builder says,
  with the basis ``POLICY``: the table is a training shortcut (no gradient
  is built for inputs such as shapes or running statistics), not a statement
  about the math, so it weighs less than a builder's own answer (basis
  ``BUILDER``, every other verdict here);
* builder emits ``GI(i)``: ``GRADIENT`` (a statement, not a measurement);
* builder registered but no ``GI(i)``: ``REFUSED``;
* output whose ``GO(j)`` the builder reads: ``GRADIENT``; otherwise ``REFUSED``;
* no builder and no stop edge: ``UNAVAILABLE``.

Only the default domain is answered: the registry keys by operator type
and onnxruntime's contrib operators share no schema with onnx.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

from gendoc.catalogs.i18n import N_, Quoted, say
from gendoc.evidence.interface import (
    Basis,
    ParameterEvidence,
    SourceEvidence,
    Verdict,
    unavailable,
)
from gendoc.model.reference import Option, ParameterRef, Part, Schema, labelled

NAME = "onnxruntime"
DATA_FILE = "ort_gradients.json"

# onnxruntime's training transformers rewrite these operators before the
# gradient graph is built, so their builder is registered under the new type
# (orttraining/orttraining/core/optimizer/batchnorm_replacement.cc,
# lstm_replacement.cc, gru_replacement.cc, registered in
# graph_transformer_utils.cc). The new types keep the inputs and the leading
# outputs of the operator they replace, so indices carry over.
REPLACED_BEFORE_GRADIENT = {
    "BatchNormalization": "BatchNormInternal",
    "GRU": "GRUTraining",
    "LSTM": "LSTMTraining",
}


@cache
def load_registry() -> dict[str, Any]:
    """The registry data shipped with gendoc."""
    text = resources.files("gendoc.evidence").joinpath("data", DATA_FILE).read_text("utf-8")
    return json.loads(text)


def _in_range(span: dict[str, Any], index: int) -> bool:
    below = span["below"]
    return span["from"] <= index and (below is None or index < below) and index not in span["skip"]


def _covers(indices: dict[str, Any], index: int, variadic: bool) -> bool:
    """Whether builder indices name position ``index`` (any position from it, if variadic)."""
    if index in indices["fixed"] or any(_in_range(s, index) for s in indices["ranges"]):
        return True
    if not variadic:
        return False
    return any(i >= index for i in indices["fixed"]) or any(
        s["below"] is None or max(s["from"], index) < s["below"] for s in indices["ranges"]
    )


class OrtRegistrySource:
    """The onnxruntime gradient registry as an evidence source."""

    name = NAME

    def __init__(self, data: dict[str, Any] | None = None) -> None:
        self.data = data if data is not None else load_registry()
        release = self.data["onnxruntime"]
        self.provenance = say(
            N_("onnxruntime {tag} (commit {commit})"),
            tag=release["tag"],
            commit=release["commit"][:12],
        )
        self.status = say(
            N_("gradient registry of onnxruntime {tag} (commit {commit})"),
            tag=release["tag"],
            commit=release["commit"][:12],
        )

    def evaluate(self, schema: Schema) -> SourceEvidence:
        if schema.domain:
            reason = say(N_("onnxruntime's registry covers the default domain"))
            return unavailable(NAME, schema, reason)
        op_type = REPLACED_BEFORE_GRADIENT.get(schema.name, schema.name)
        builder_name = self.data["registry"].get(op_type)
        builder = self.data["builders"].get(builder_name) if builder_name else None
        stops = self.data["stop_gradient_edges"].get(op_type, [])
        if builder_name is None and not stops:
            reason = say(N_("no gradient builder for {op}"), op=op_type)
            return unavailable(NAME, schema, reason, self.provenance)
        if builder_name is None:
            detail = say(
                N_("no builder for {op}, {release}"), op=Quoted(op_type), release=self.provenance
            )
        else:
            detail = say(
                N_("{builder} for {op}, {release}"),
                builder=Quoted(builder_name),
                op=Quoted(op_type),
                release=self.provenance,
            )
        counters = dict.fromkeys(Part, 0)
        found = []
        for ref, param in labelled(schema):
            index = counters[ref.part]
            counters[ref.part] += 1
            variadic = param.option is Option.VARIADIC
            if ref.part is Part.INPUT and index in stops:
                why = say(N_("stop-gradient edge"))
                found.append(ParameterEvidence(ref, Verdict.REFUSED, why, Basis.POLICY))
                continue
            found.append(self._from_builder(ref, index, variadic, builder_name, builder))
        return SourceEvidence(
            NAME, schema.domain, schema.name, schema.since_version, tuple(found), detail
        )

    @staticmethod
    def _from_builder(
        ref: ParameterRef,
        index: int,
        variadic: bool,
        builder_name: str | None,
        builder: dict[str, Any] | None,
    ) -> ParameterEvidence:
        inputs = ref.part is Part.INPUT
        if builder_name is None:
            return ParameterEvidence(ref, Verdict.UNAVAILABLE, say(N_("no gradient builder")))
        name = Quoted(builder_name)
        if builder is None:
            # EmptyGradientBuilder and the like: registered, with no body that emits anything.
            why = say(N_("{builder} emits nothing"), builder=name)
            return ParameterEvidence(ref, Verdict.REFUSED, why, Basis.BUILDER)
        indices = builder["inputs" if inputs else "outputs"]
        macro = Quoted(f"{'GI' if inputs else 'GO'}({index})")
        if _covers(indices, index, variadic):
            why = say(N_("{macro} in {builder}"), macro=macro, builder=name)
            return ParameterEvidence(ref, Verdict.GRADIENT, why, Basis.BUILDER)
        if indices["dynamic"]:
            why = say(N_("{builder} computes its indices at run time"), builder=name)
            return ParameterEvidence(ref, Verdict.UNAVAILABLE, why)
        why = say(N_("no {macro} in {builder}"), macro=macro, builder=name)
        return ParameterEvidence(ref, Verdict.REFUSED, why, Basis.BUILDER)
