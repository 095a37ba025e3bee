"""Evidence from onnx-ad, an autodiff library for ONNX graphs: the guide's Method 3.

onnx-ad (``pip install 'gendoc[evidence]'``) rewrites an ONNX model into one
that computes its vector-Jacobian products, by a rule per ONNX operator. It
differentiates the operator itself, so no mapping to another framework's
calls stands between the schema and the answer, and a tensor input stays a
tensor. Imported only when installed (see
:func:`gendoc.evidence.sources.live_onnx_ad_source`).

The inputs are onnx's own backend test cases (:mod:`gendoc.evidence.cases`),
picked per operator version as the finite differences pick them
(:func:`gendoc.evidence.probe_plan.plan_jobs`). For every (float input, float
output) pair of a case, every other input is frozen to its test value (an
axis or a scale is then a constant, as onnx-ad's rules need), onnx-ad is
asked for the adjoint model of that pair, and the answer becomes a verdict:

* the adjoint depends on the output's seed and ``onnx.reference`` finds it
  nonzero: ``GRADIENT``; zero at every case: ``ZERO``; it could not be
  evaluated: ``GRADIENT``, saying so (the rule exists);
* the adjoint does not depend on the seed: ``ZERO`` when onnx-ad's rules give
  the input a zero derivative; when the operator is in onnx-ad's table of
  declared zero derivatives (``onnx_ad.rules.ZERO_DERIVATIVE``: Floor, but
  also Det), the zero is a declaration, not a measurement, and weighs as
  policy (basis ``POLICY``); ``REFUSED`` in its words when its forward mode
  refuses the input (BatchNormalization's running statistics);
* an input or output whose types hold no floating-point type: ``REFUSED``,
  in onnx-ad's words;
* onnx-ad raises (no rule, a rule that needs a constant operand, a mode it
  does not differentiate): ``UNAVAILABLE`` with its message.

Per parameter the best answer over all pairs and cases wins (gradient, then
zero, then refused), except that a zero with a failed pair beside it (an
output one of whose inputs onnx-ad could not differentiate, an input whose
path to another output failed) is ``NOT_MEASURED``: the zero covers only the
paths that ran. Running it costs about a minute for all operators, so
the audit and the site read the verdicts recorded by
:mod:`gendoc.evidence.onnx_ad_record`.
"""

from __future__ import annotations

import contextlib
import io
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from importlib.metadata import version
from typing import Any

import numpy as np
import onnx
import onnx_ad
from onnx import numpy_helper

from gendoc.catalogs.i18n import N_, Message, Quoted, listed, quoted, say
from gendoc.evidence.cases import NumericCase, backend_cases, is_onnx_domain
from gendoc.evidence.interface import (
    Basis,
    ParameterEvidence,
    SourceEvidence,
    Verdict,
    unavailable,
)
from gendoc.evidence.numeric import ProbeSettings
from gendoc.evidence.probe import ValueKind, describe, to_value, value_type
from gendoc.evidence.probe_plan import CaseJob, plan_jobs
from gendoc.model.element_types import allowed_types, holds_float
from gendoc.model.reference import (
    Parameter,
    ParameterRef,
    Part,
    Reference,
    Schema,
    domain_key,
    labelled,
)

NAME = "onnx-ad"
SETTINGS = ProbeSettings(max_cases=4, max_fill_elements=4096)
"""At most four cases per operator version, those covering every parameter first."""
_PREFIX = "gendoc_adj_"
_RANK = {Verdict.GRADIENT: 0, Verdict.ZERO: 1, Verdict.REFUSED: 2, Verdict.UNAVAILABLE: 3}


def library_version() -> str:
    return version("onnx-ad")


def _resolved_version(model: onnx.ModelProto) -> tuple[str, str, int] | None:
    """(domain, operator, schema version) a single-node case exercises, or ``None``."""
    if len(model.graph.node) != 1:
        return None
    node = model.graph.node[0]
    domain = domain_key(node.domain)
    opset = next((o.version for o in model.opset_import if domain_key(o.domain) == domain), None)
    if opset is None:
        return None
    try:
        schema = onnx.defs.get_schema(node.op_type, opset, node.domain)
    except onnx.defs.SchemaError:
        return None
    return domain, node.op_type, schema.since_version


def cases_by_version(cases: Sequence[NumericCase]) -> dict[tuple[str, str, int], list[NumericCase]]:
    """The cases of each operator version (domain, name, since_version)."""
    found: dict[tuple[str, str, int], list[NumericCase]] = {}
    for case in cases:
        model = case.model
        if isinstance(model, bytes):
            model = onnx.ModelProto.FromString(model)
        key = _resolved_version(model)
        if key is not None:
            found.setdefault(key, []).append(case)
    return found


def _frozen(model: onnx.ModelProto, feeds: dict[str, Any], keep: str) -> onnx.ModelProto:
    """``model`` with every graph input but ``keep`` turned into a constant of its value."""
    frozen = onnx.ModelProto()
    frozen.CopyFrom(model)
    graph = frozen.graph
    kept = [v for v in graph.input if v.name == keep]
    for value in graph.input:
        if value.name != keep and value.name in feeds:  # not those with an initializer
            graph.initializer.append(
                numpy_helper.from_array(np.asarray(feeds[value.name]), value.name)
            )
    graph.ClearField("input")
    graph.input.extend(kept)
    return frozen


def _reads(node: onnx.NodeProto) -> set[str]:
    """Every name a node reads: its inputs and those of its subgraphs, at any depth."""
    names = set(node.input)
    for attribute in node.attribute:
        for sub in [attribute.g] if attribute.HasField("g") else attribute.graphs:
            for inner in sub.node:
                names |= _reads(inner)
    return names


# Their outputs carry a tensor's shape, not its values: a zero adjoint shaped like the
# seed reads the seed's shape and depends on nothing else of it.
_SHAPE_ONLY = {"Shape", "Size"}


def _depends(graph: onnx.GraphProto, source: str, target: str) -> bool:
    """Whether the values of ``target`` are computed from those of ``source`` (nodes are
    in topological order)."""
    live = {source}
    for node in graph.node:
        if node.op_type not in _SHAPE_ONLY and _reads(node) & live:
            live.update(node.output)
    return target in live


@dataclass(frozen=True)
class _Answer:
    verdict: Verdict
    detail: Message
    basis: Basis = Basis.AUTOGRAD
    """The library's reverse mode decided (``AUTOGRAD``); a refusal its forward mode states
    is its policy (``POLICY``), which weighs half and never disputes a tag onnx set."""


_NO_FLOAT = {
    Part.INPUT: N_(
        "onnx-ad differentiates floating-point tensors only; this input's types hold none"
    ),
    Part.OUTPUT: N_(
        "onnx-ad differentiates floating-point tensors only; this output's types hold none"
    ),
}


def _refusal(exc: BaseException) -> Message:
    """onnx-ad's refusal, in its own words."""
    return say(N_("onnx-ad: {error}"), error=Quoted(describe(exc)))


def _no_adjoint(job: CaseJob, frozen: onnx.ModelProto, x: str, y: str) -> _Answer:
    """Reverse mode emits nothing for ``x``: a zero derivative, or a refusal forward mode
    states (BatchNormalization's running statistics: "statistics, not differentiable
    operands"), which is a policy of the library, not a derivative found to be zero."""
    try:
        onnx_ad.forward(
            frozen, inputs=[x], outputs=[y], prefix=_PREFIX, dim="n" + _PREFIX, layout="onnx"
        )
    except onnx_ad.UnsupportedOperator as exc:
        return _Answer(Verdict.REFUSED, _refusal(exc), Basis.POLICY)
    except Exception as exc:
        return _Answer(Verdict.UNAVAILABLE, _refusal(exc))
    case = case_label(job.name)
    if _declared_zero(frozen):
        why = say(
            N_("declared zero derivative (onnx-ad's ZERO_DERIVATIVE table; {case})"), case=case
        )
        return _Answer(Verdict.ZERO, why, Basis.POLICY)
    return _Answer(Verdict.ZERO, say(N_("no adjoint reaches it ({case})"), case=case))


def _declared_zero(model: onnx.ModelProto) -> bool:
    """Whether onnx-ad declares the case's operator to have a zero derivative, by its table
    rather than by a derivation: its rule for the operator emits nothing."""
    from onnx_ad.rules import ZERO_DERIVATIVE

    return any(node.op_type in ZERO_DERIVATIVE for node in model.graph.node)


def _pair(
    job: CaseJob, model: onnx.ModelProto, feeds: dict[str, Any], x: str, y: str, base: Any
) -> _Answer:
    """onnx-ad's answer for graph input ``x`` and graph output ``y`` of one case."""
    frozen = _frozen(model, feeds, x)
    try:
        adjoint = onnx_ad.reverse(
            frozen, inputs=[x], outputs=[y], prefix=_PREFIX, dim="n" + _PREFIX, layout="onnx"
        )
    except Exception as exc:  # onnx-ad's refusal, in its own words, is the answer
        return _Answer(Verdict.UNAVAILABLE, _refusal(exc))
    seed, result = _PREFIX + y, _PREFIX + x
    if not _depends(adjoint.graph, seed, result):
        return _no_adjoint(job, frozen, x, y)
    from onnx.reference import ReferenceEvaluator

    rng = np.random.default_rng(0)
    direction = rng.standard_normal((*np.shape(base), 1)).astype(np.asarray(base).dtype)
    try:
        (value,) = ReferenceEvaluator(adjoint).run([result], {x: feeds[x], seed: direction})
    except Exception as exc:
        why = say(N_("adjoint defined, not evaluated: {error}"), error=Quoted(describe(exc)))
        return _Answer(Verdict.GRADIENT, why)
    case = case_label(job.name)
    if np.any(np.asarray(value, dtype=np.float64) != 0):
        return _Answer(Verdict.GRADIENT, say(N_("nonzero adjoint ({case})"), case=case))
    return _Answer(Verdict.ZERO, say(N_("adjoint zero ({case})"), case=case))


def widest_opset(model: onnx.ModelProto, version: int) -> onnx.ModelProto:
    """``model`` at the newest opset that still resolves its node to schema ``version``.

    onnx-ad's adjoints use operators of the model's opset (Gather's needs
    ScatterND with a reduction, opset 16); a case written at an older opset
    can be read at any opset up to the operator's next version without
    changing what the operator means.
    """
    node = model.graph.node[0]
    domain = domain_key(node.domain)
    if domain:
        return model
    current = next(o.version for o in model.opset_import if domain_key(o.domain) == domain)
    widest = current
    for opset in range(onnx.defs.onnx_opset_version(), current, -1):
        try:
            if onnx.defs.get_schema(node.op_type, opset, node.domain).since_version == version:
                widest = opset
                break
        except onnx.defs.SchemaError:
            return model
    wider = onnx.ModelProto()
    wider.CopyFrom(model)
    for opset in wider.opset_import:
        if domain_key(opset.domain) == domain:
            opset.version = widest
    return wider


def _job_answers(job: CaseJob) -> dict[ParameterRef, list[_Answer]]:
    """Answers per formal parameter from every float pair of one case."""
    model = widest_opset(onnx.ModelProto.FromString(job.model), job.version)
    initialized = {t.name for t in model.graph.initializer}
    names = [v.name for v in model.graph.input if v.name not in initialized]
    feeds = {name: to_value(v) for name, v in zip(names, job.inputs, strict=False)}
    inputs, outputs = dict(job.input_params), dict(job.output_params)
    refs = [
        *(ParameterRef(Part.INPUT, p) for p in inputs.values()),
        *(ParameterRef(Part.OUTPUT, p) for p in outputs.values()),
    ]
    if any(not isinstance(v, np.ndarray) for v in feeds.values()):
        said = say(N_("a sequence or absent input in {case}"), case=case_label(job.name))
        why = _Answer(Verdict.UNAVAILABLE, said)
        return {ref: [why] for ref in refs}
    from onnx.reference import ReferenceEvaluator

    try:
        results = ReferenceEvaluator(model).run(list(outputs), feeds)
    except Exception as exc:
        said = say(N_("the test case does not run: {error}"), error=Quoted(describe(exc)))
        why = _Answer(Verdict.UNAVAILABLE, said)
        return {ref: [why] for ref in refs}
    base = {name: to_value(v) for name, v in zip(outputs, results, strict=True)}
    float_in = [n for n in inputs if value_type(feeds.get(n)).kind is ValueKind.FLOAT]
    float_out = [
        n
        for n, v in base.items()
        if isinstance(v, np.ndarray) and value_type(v).kind is ValueKind.FLOAT
    ]
    answers: dict[ParameterRef, list[_Answer]] = {}
    for x in float_in:
        for y in float_out:
            answer = _pair(job, model, feeds, x, y, base[y])
            answers.setdefault(ParameterRef(Part.INPUT, inputs[x]), []).append(answer)
            answers.setdefault(ParameterRef(Part.OUTPUT, outputs[y]), []).append(answer)
    return answers


def restamped(case: NumericCase, domain: str, version: int) -> NumericCase | None:
    """``case`` with its operator's opset set to ``version``, if onnx's checker accepts it.

    onnx's backend cases mostly test the newest version of an operator; an
    older version with the same inputs, attributes and types takes the same
    model at its own opset (the reference evaluator then runs that version).
    """
    model = onnx.ModelProto.FromString(case.model) if isinstance(case.model, bytes) else case.model
    stamped = onnx.ModelProto()
    stamped.CopyFrom(model)
    for opset in stamped.opset_import:
        if domain_key(opset.domain) == domain:
            opset.version = version
    try:
        onnx.checker.check_model(stamped, full_check=True)
    except Exception:
        return None
    name = f"{case.name}{_AT_OPSET}{version}"
    return NumericCase(name, stamped.SerializeToString(), case.inputs)


_AT_OPSET = " at opset "
"""How :func:`restamped` names a case read at another opset."""


def case_label(name: str) -> Message:
    """A case's name as a message: the test case's own name quoted, and the opset
    :func:`restamped` read it at (if it did) said in each language."""
    case, at, version = name.partition(_AT_OPSET)
    if not at or not version.isdigit():
        return quoted(name)
    return say(N_("{case} at opset {version}"), case=Quoted(case), version=int(version))


class OnnxAdSource:
    """onnx-ad's reverse mode on onnx's backend test cases, as an evidence source."""

    name = NAME

    def __init__(self, cases: Sequence[NumericCase] | None = None) -> None:
        self._cases = cases
        self._by_version: dict[tuple[str, str, int], list[NumericCase]] | None = None
        self.version = library_version()
        self._library = quoted(f"onnx-ad {self.version}")
        self.status = say(
            N_("onnx-ad {version}, reverse mode on onnx {onnx}'s backend test cases"),
            version=self.version,
            onnx=onnx.__version__,
        )

    def _index(self) -> dict[tuple[str, str, int], list[NumericCase]]:
        if self._by_version is None:
            cases = backend_cases() if self._cases is None else self._cases
            self._by_version = cases_by_version(cases)
        return self._by_version

    def evaluate(self, schema: Schema) -> SourceEvidence:
        if not is_onnx_domain(schema.domain):
            why = say(N_("onnx-ad differentiates onnx's own operators"))
            return unavailable(NAME, schema, why, self._library)
        cases = self._cases_for(schema)
        if not cases:
            why = say(N_("no backend test case fits this version"))
            return unavailable(NAME, schema, why, self._library)
        jobs, _ = plan_jobs(Reference("", (schema,)), cases, SETTINGS, finite_differences=False)
        answers: dict[ParameterRef, list[_Answer]] = {}
        chosen = [case for job in jobs for case in job.cases]
        with (
            warnings.catch_warnings(),
            np.errstate(all="ignore"),
            contextlib.redirect_stdout(io.StringIO()),
        ):
            warnings.simplefilter("ignore")
            for job in chosen:
                try:
                    found = _job_answers(job)
                except Exception as exc:  # a case onnx-ad or the evaluator chokes on
                    said = say(
                        N_("{case}: {error}"),
                        case=case_label(job.name),
                        error=Quoted(describe(exc)),
                    )
                    failed = _Answer(Verdict.UNAVAILABLE, said)
                    found = {ref: [failed] for ref, _ in labelled(schema)}
                for ref, more in found.items():
                    answers.setdefault(ref, []).extend(more)
        names = [case_label(job.name) for job in chosen[:3]]
        if len(chosen) > 3:
            names.append(quoted("..."))
        detail = say(
            N_("onnx-ad {version} reverse mode on {cases}"),
            version=self.version,
            cases=listed(names),
        )
        params = tuple(
            self._verdict(schema, ref, p, answers.get(ref, [])) for ref, p in labelled(schema)
        )
        return SourceEvidence(
            NAME, schema.domain, schema.name, schema.since_version, params, detail
        )

    def _cases_for(self, schema: Schema) -> list[NumericCase]:
        """The backend cases of ``schema``'s version, else those of the nearest other
        versions of the operator that onnx's checker accepts at this version's opset."""
        index = self._index()
        own = index.get((schema.domain, schema.name, schema.since_version), [])
        if own:
            return own
        others = sorted(
            (abs(v - schema.since_version), v)
            for d, op, v in index
            if (d, op) == (schema.domain, schema.name)
        )
        found: list[NumericCase] = []
        for _, other in others:
            for case in index[(schema.domain, schema.name, other)]:
                stamped = restamped(case, schema.domain, schema.since_version)
                if stamped is not None:
                    found.append(stamped)
                if len(found) >= 2 * SETTINGS.max_cases:
                    return found
        return found

    @staticmethod
    def _verdict(
        schema: Schema, ref: ParameterRef, param: Parameter, found: list[_Answer]
    ) -> ParameterEvidence:
        if found:
            best = min(found, key=lambda a: _RANK[a.verdict])
            failed = next((a for a in found if a.verdict is Verdict.UNAVAILABLE), None)
            if best.verdict is Verdict.ZERO and failed is not None:
                why = say(N_("zero only on the paths that ran; {reason}"), reason=failed.detail)
                return ParameterEvidence(ref, Verdict.NOT_MEASURED, why)
            return ParameterEvidence(ref, best.verdict, best.detail, best.basis)
        types = allowed_types(schema, param)
        if types is not None and not holds_float(types):
            why = _NO_FLOAT[ref.part]
            return ParameterEvidence(ref, Verdict.REFUSED, say(why))
        why = say(N_("no backend test case gives it a floating-point value"))
        return ParameterEvidence(ref, Verdict.UNAVAILABLE, why)
