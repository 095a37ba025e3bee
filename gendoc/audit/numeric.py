"""Numeric evidence: Jacobians estimated by central finite differences.

The core, :func:`probe_model`, knows nothing about schemas or test suites:
it takes a model, its real inputs and optional ``OpRun`` implementations,
runs ``onnx.reference.ReferenceEvaluator`` on perturbed copies of each
floating-point input and classifies every (graph input, graph output) pair.
:func:`evaluate_case` applies it to one prepared test case of an operator
and renames the pairs to the schema's formal parameters. It is a pure
function of its arguments (bytes, arrays, settings), so it runs unchanged in
a worker process and gives the same answer serially and in parallel; an
operator's evidence is the merge of its cases' outcomes.

How one input is probed: one random direction over all its elements (a
nonzero Jacobian anywhere shows up there, whatever the sparsity of the
gradient, as for a max) plus a few single elements, each at two step sizes.
A probe is *zero* when the output does not move at either step, *nonzero*
when the two difference quotients agree, *unstable* otherwise (a jump, a
kink within a step of the point, noise). Every random choice comes from a
generator seeded by the settings' seed, the case name and the input name.
"""

from __future__ import annotations

import enum
import time
import warnings
import zlib
from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeAlias

import numpy as np
import onnx
from onnx import numpy_helper

Value: TypeAlias = np.ndarray | list[np.ndarray] | None

EVIDENCE_NOTE = (
    "Finite differences are evidence, not proof: they see only the test inputs and a "
    "few probed elements, so a zero may hide a gradient elsewhere and a stable nonzero "
    "slope says nothing about what the operator promises to differentiate."
)


class PairClass(enum.StrEnum):
    """What finite differences say about one (input, output) pair."""

    NONZERO = "nonzero"
    ZERO = "zero"
    UNSTABLE = "unstable"
    NOT_FLOAT = "not-float"
    UNEVALUATED = "unevaluated"


# When probes or test cases disagree, the most informative class wins: one
# stable nonzero slope shows a smooth dependence; "zero" needs every probe.
_PRECEDENCE = {
    PairClass.NONZERO: 0,
    PairClass.UNSTABLE: 1,
    PairClass.ZERO: 2,
    PairClass.NOT_FLOAT: 3,
    PairClass.UNEVALUATED: 4,
}


@dataclass(frozen=True)
class ProbeSettings:
    """Everything that decides the numbers; part of the report, so runs compare.

    ``element_probes`` single elements are probed per input besides the one
    random direction; ``rtol`` is how far the quotients at the two step sizes
    may differ for a slope to count as stable; ``max_cases`` bounds the test
    cases per operator; cases picked beyond those needed to cover every
    parameter must have at most ``max_fill_elements`` floating-point input
    elements (a 3-D pooling case costs seconds per evaluation).
    """

    seed: int = 0
    element_probes: int = 4
    rtol: float = 0.05
    max_cases: int = 16
    max_fill_elements: int = 4096

    def to_dict(self) -> dict[str, object]:
        return {
            "seed": self.seed,
            "element_probes": self.element_probes,
            "rtol": self.rtol,
            "max_cases": self.max_cases,
            "max_fill_elements": self.max_fill_elements,
            "steps": {
                "float64": list(_STEPS[0]),
                "float32": list(_STEPS[1]),
                "coarser": list(_STEPS[2]),
            },
        }


DEFAULT_SETTINGS = ProbeSettings()


@dataclass(frozen=True)
class PairEvidence:
    """The evidence for one (input, output) pair, from one probe up to many cases.

    ``probes`` counts probes that gave a classification, ``nonzero`` and
    ``unstable`` how many of them were so; ``reason`` says why a pair is
    not-float or unevaluated; ``cases`` counts the test cases merged in.
    """

    input: str
    output: str
    kind: PairClass
    probes: int = 0
    nonzero: int = 0
    unstable: int = 0
    max_slope: float = 0.0
    reason: str = ""
    cases: int = 1

    def merge(self, other: PairEvidence) -> PairEvidence:
        """Combine two bodies of evidence for the same pair; ties keep ``self``."""
        winner = self if _PRECEDENCE[self.kind] <= _PRECEDENCE[other.kind] else other
        return PairEvidence(
            self.input,
            self.output,
            winner.kind,
            self.probes + other.probes,
            self.nonzero + other.nonzero,
            self.unstable + other.unstable,
            max(self.max_slope, other.max_slope),
            winner.reason,
            self.cases + other.cases,
        )

    def renamed(self, input_name: str, output_name: str) -> PairEvidence:
        return PairEvidence(
            input_name,
            output_name,
            self.kind,
            self.probes,
            self.nonzero,
            self.unstable,
            self.max_slope,
            self.reason,
            self.cases,
        )

    @property
    def detail(self) -> str:
        if self.kind is PairClass.NONZERO:
            return (
                f"stable nonzero at {self.nonzero} of {self.probes} probes "
                f"(|slope| up to {self.max_slope:.3g})"
            )
        if self.kind is PairClass.ZERO:
            return f"zero at all {self.probes} probes"
        if self.kind is PairClass.UNSTABLE:
            return f"changes with the step size at {self.unstable} of {self.probes} probes"
        return self.reason

    def to_dict(self) -> dict[str, object]:
        return {
            "input": self.input,
            "output": self.output,
            "class": self.kind.value,
            "probes": self.probes,
            "nonzero": self.nonzero,
            "unstable": self.unstable,
            "max_slope": float(f"{self.max_slope:.3g}"),
            "cases": self.cases,
            "detail": self.detail,
        }


@dataclass(frozen=True)
class ModelEvidence:
    """The result of probing one model.

    ``ran`` is false when the model could not be evaluated at all, ``complete``
    false when the time budget cut the probing short.
    """

    pairs: tuple[PairEvidence, ...]
    notes: tuple[str, ...] = ()
    ran: bool = True
    complete: bool = True


class _OutOfTime(Exception):
    """The deadline passed; raised between evaluations, never inside one."""


# Reruns that must reproduce the first run before probing. An unseeded random
# operator can repeat itself by chance (Bernoulli on ten elements: about 2%
# per rerun), and probing it would report noise; three reruns make that rare.
_RERUNS = 3

# Step sizes by precision of the evaluated input: float64, float32, anything coarser.
_STEPS = ((1e-3, 1e-4), (1e-2, 1e-3), (1e-1, 1e-2))


def _describe(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    message = f"{type(exc).__name__}: {text[0]}" if text else type(exc).__name__
    return message if len(message) <= 160 else message[:157] + "..."


def to_value(value: Any) -> Value:
    """A test-data value as the evaluator takes it: arrays, lists of arrays or None."""
    if value is None:
        return None
    if isinstance(value, onnx.TensorProto):
        return numpy_helper.to_array(value)
    if isinstance(value, list | tuple):
        return [np.asarray(to_value(v)) for v in value]
    return np.asarray(value)


def _is_float(dtype: np.dtype) -> bool:
    """Real floating point, including ml_dtypes' bfloat16 and float8 family."""
    return dtype.kind == "f" or (dtype.kind == "V" and dtype.name.startswith(("float", "bfloat")))


def _leaves(value: Value) -> list[np.ndarray]:
    if value is None:
        return []
    return [value] if isinstance(value, np.ndarray) else list(value)


def value_kind(value: Value) -> tuple[str, str]:
    """Classify a value: ``absent``, ``empty``, ``float``, ``complex`` or ``other``.

    The second item names the dtype that decided it, for messages.
    """
    if value is None:
        return "absent", ""
    leaves = _leaves(value)
    if not leaves or all(leaf.size == 0 for leaf in leaves):
        return "empty", ""
    for leaf in leaves:
        if leaf.dtype.kind == "c":
            return "complex", leaf.dtype.name
        if not _is_float(leaf.dtype):
            return "other", "string" if leaf.dtype.kind in "OUS" else leaf.dtype.name
    return "float", leaves[0].dtype.name


def _flat(value: Value) -> np.ndarray:
    leaves = _leaves(value)
    if not leaves:
        return np.zeros(0)
    return np.concatenate([leaf.astype(np.float64).ravel() for leaf in leaves])


def _signature(value: Value) -> tuple[tuple[int, ...], ...]:
    return tuple(leaf.shape for leaf in _leaves(value))


def _rebuild(like: Value, flat: np.ndarray) -> Value:
    """``flat`` poured back into the structure, shapes and dtypes of ``like``."""
    leaves = _leaves(like)
    out: list[np.ndarray] = []
    start = 0
    for leaf in leaves:
        out.append(flat[start : start + leaf.size].reshape(leaf.shape).astype(leaf.dtype))
        start += leaf.size
    return out[0] if isinstance(like, np.ndarray) else out


def _dtype_eps(dtype: np.dtype) -> float:
    """Machine epsilon of a float dtype, numpy's own or one of ml_dtypes' (bfloat16, float8).

    ml_dtypes comes with onnx 1.18 and later only, and only those releases
    hand out its dtypes, so it is imported just for them.
    """
    try:
        return float(np.finfo(dtype).eps)
    except ValueError:
        import ml_dtypes

        return float(ml_dtypes.finfo(dtype).eps)


def _eps(value: Value) -> float:
    return max(_dtype_eps(leaf.dtype) for leaf in _leaves(value))


def _steps(value: Value) -> tuple[float, float]:
    eps = _eps(value)
    if eps <= 1e-15:
        return _STEPS[0]
    if eps <= 1e-6:
        return _STEPS[1]
    return _STEPS[2]


def _as_float64(value: Value) -> Value:
    if isinstance(value, np.ndarray):
        return value.astype(np.float64)
    return [leaf.astype(np.float64) for leaf in _leaves(value)]


def _same(a: Sequence[Any], b: Sequence[Any]) -> bool:
    """Whether two runs gave identical outputs (NaN equal to NaN)."""
    for x, y in zip(a, b, strict=True):
        xs, ys = _leaves(to_value(x)), _leaves(to_value(y))
        if len(xs) != len(ys):
            return False
        for u, v in zip(xs, ys, strict=True):
            nan_ok = u.dtype.kind in "fc" and v.dtype.kind in "fc"
            if u.shape != v.shape or not np.array_equal(u, v, equal_nan=nan_ok):
                return False
    return True


@dataclass
class _Tally:
    """Probe outcomes of one pair while probing is under way."""

    zero: int = 0
    nonzero: int = 0
    unstable: int = 0
    max_slope: float = 0.0
    failures: list[str] = field(default_factory=list)

    def result(self, input_name: str, output_name: str) -> PairEvidence:
        probes = self.zero + self.nonzero + self.unstable
        if self.nonzero:
            kind = PairClass.NONZERO
        elif self.unstable:
            kind = PairClass.UNSTABLE
        elif self.zero:
            kind = PairClass.ZERO
        else:
            reason = self.failures[0] if self.failures else "no probe was possible"
            return PairEvidence(input_name, output_name, PairClass.UNEVALUATED, reason=reason)
        return PairEvidence(
            input_name,
            output_name,
            kind,
            probes,
            self.nonzero,
            self.unstable,
            self.max_slope,
        )


@dataclass(frozen=True)
class _Side:
    """The outputs at ``x + t u`` and ``x - t u`` for one step; ``t`` is the step taken."""

    plus: Sequence[Any]
    minus: Sequence[Any]
    t: float


def _classify_probe(
    base: Value, sides: Sequence[_Side], index: int, rtol: float
) -> tuple[str, float]:
    """One probe of one output: ``zero``, ``nonzero``, ``unstable`` or a failure text."""
    y0 = _flat(base)
    signature = _signature(base)
    moved: list[np.ndarray] = []
    for side in sides:
        plus, minus = to_value(side.plus[index]), to_value(side.minus[index])
        if _signature(plus) != signature or _signature(minus) != signature:
            return "unstable", 0.0
        moved.append(_flat(plus) - _flat(minus))
    finite = np.isfinite(y0)
    for side in sides:
        finite &= np.isfinite(_flat(to_value(side.plus[index])))
        finite &= np.isfinite(_flat(to_value(side.minus[index])))
    if not finite.any():
        return "output is not finite at the probed points", 0.0
    tol = 32 * _eps(base) * (float(np.max(np.abs(y0[finite]))) + 1.0)
    deltas = [d[finite] for d in moved]
    zero = [float(np.max(np.abs(d))) <= tol for d in deltas]
    if all(zero):
        return "zero", 0.0
    if any(zero):
        return "unstable", 0.0
    quotients = [d / (2 * side.t) for d, side in zip(deltas, sides, strict=True)]
    scale = max(float(np.max(np.abs(q))) for q in quotients)
    gap = float(np.max(np.abs(quotients[0] - quotients[1])))
    if gap <= rtol * scale + tol / (2 * sides[-1].t):
        return "nonzero", float(np.max(np.abs(quotients[-1])))
    return "unstable", 0.0


def _directions(n: int, rng: np.random.Generator, element_probes: int) -> Iterator[np.ndarray]:
    """One dense random direction, then single elements chosen at random."""
    yield rng.uniform(0.5, 1.0, n) * rng.choice([-1.0, 1.0], n)
    for i in sorted(rng.choice(n, size=min(element_probes, n), replace=False)):
        unit = np.zeros(n)
        unit[i] = 1.0
        yield unit


class _Probe:
    """Probing state of one model: its evaluator, feeds, baseline and deadline."""

    def __init__(
        self,
        evaluator: Any,
        names: list[str],
        feeds: dict[str, Value],
        base: Sequence[Any],
        deadline: float | None,
    ) -> None:
        self.evaluator = evaluator
        self.names = names
        self.feeds = feeds
        self.base = base
        self.deadline = deadline

    def run(self, name: str, value: Value) -> Sequence[Any]:
        if self.deadline is not None and time.time() > self.deadline:
            raise _OutOfTime
        return self.evaluator.run(None, {**self.feeds, name: value})

    def side(self, name: str, flat: np.ndarray, u: np.ndarray, h: float) -> _Side:
        like = self.feeds[name]
        plus, minus = _rebuild(like, flat + h * u), _rebuild(like, flat - h * u)
        taken = _flat(plus) - _flat(minus)
        t = float(taken @ u) / (2.0 * float(u @ u))
        if t <= 0.0:
            raise ValueError(f"a step of {h:g} is below the precision of {value_kind(like)[1]}")
        return _Side(self.run(name, plus), self.run(name, minus), t)


def _float_outputs(base: Sequence[Any]) -> tuple[list[int], dict[int, tuple[PairClass, str]]]:
    """Indices of float outputs, and the class and reason of every other present one."""
    floats: list[int] = []
    others: dict[int, tuple[PairClass, str]] = {}
    for j, output in enumerate(base):
        kind, dtype = value_kind(to_value(output))
        if kind == "float":
            floats.append(j)
        elif kind == "other":
            others[j] = (PairClass.NOT_FLOAT, f"output is {dtype}")
        elif kind == "complex":
            reason = f"output is {dtype}; complex values are not probed"
            others[j] = (PairClass.UNEVALUATED, reason)
        elif kind == "empty":
            others[j] = (PairClass.UNEVALUATED, "output is empty")
    return floats, others


def _probe_input(
    probe: _Probe,
    name: str,
    floats: list[int],
    settings: ProbeSettings,
    seed_name: str,
) -> dict[int, _Tally]:
    value = probe.feeds[name]
    flat = _flat(value)
    tallies = {j: _Tally() for j in floats}
    rng = np.random.default_rng(
        [settings.seed, zlib.crc32(seed_name.encode()), zlib.crc32(name.encode())]
    )
    for u in _directions(flat.size, rng, settings.element_probes):
        try:
            sides = [probe.side(name, flat, u, h) for h in _steps(value)]
        except _OutOfTime:
            raise
        except Exception as exc:  # a perturbed input the operator rejects is evidence too
            for tally in tallies.values():
                tally.failures.append(f"evaluation failed on a perturbed input: {_describe(exc)}")
            continue
        for j in floats:
            outcome, slope = _classify_probe(to_value(probe.base[j]), sides, j, settings.rtol)
            tally = tallies[j]
            if outcome == "zero":
                tally.zero += 1
            elif outcome == "nonzero":
                tally.nonzero += 1
                tally.max_slope = max(tally.max_slope, slope)
            elif outcome == "unstable":
                tally.unstable += 1
            else:
                tally.failures.append(outcome)
    return tallies


def _unevaluated(
    input_names: Sequence[str], output_names: Sequence[str], reason: str
) -> tuple[PairEvidence, ...]:
    return tuple(
        PairEvidence(i, o, PairClass.UNEVALUATED, reason=reason)
        for i in input_names
        for o in output_names
    )


def _not_run(input_names: Sequence[str], output_names: Sequence[str], reason: str) -> ModelEvidence:
    return ModelEvidence(_unevaluated(input_names, output_names, reason), (reason,), ran=False)


def _graph_names(model: onnx.ModelProto) -> tuple[list[str], list[str]]:
    initialized = {t.name for t in model.graph.initializer}
    inputs = [v.name for v in model.graph.input if v.name not in initialized]
    return inputs, [v.name for v in model.graph.output]


def _start(
    model_bytes: bytes, feeds: dict[str, Value], new_ops: Sequence[type]
) -> tuple[Any, Sequence[Any]]:
    from onnx.reference import ReferenceEvaluator

    evaluator = ReferenceEvaluator(model_bytes, new_ops=list(new_ops) or None)
    return evaluator, evaluator.run(None, feeds)


def probe_model(
    model: onnx.ModelProto | bytes,
    inputs: Sequence[Any],
    *,
    new_ops: Sequence[type] = (),
    float64_inputs: Collection[str] | None = None,
    settings: ProbeSettings = DEFAULT_SETTINGS,
    seed_name: str = "",
    deadline: float | None = None,
) -> ModelEvidence:
    """Classify every (graph input, graph output) pair of ``model`` at ``inputs``.

    ``float64_inputs`` names the floating-point inputs to evaluate in float64
    (``None``: all of them); the others keep the model's dtype and get larger
    steps. If the model fails in float64 it is evaluated in its own dtypes,
    with a note. ``new_ops`` are ``OpRun`` classes for operators the
    reference evaluator does not implement. ``seed_name`` (usually the test
    case name) makes the random probes differ between cases yet repeat
    between runs. ``deadline`` is a ``time.time()`` value.
    """
    model_bytes = model if isinstance(model, bytes) else model.SerializeToString()
    input_names, output_names = _graph_names(onnx.ModelProto.FromString(model_bytes))
    values = [to_value(v) for v in inputs]
    if len(values) != len(input_names):
        reason = f"the case has {len(values)} inputs for {len(input_names)} graph inputs"
        return _not_run(input_names, output_names, reason)
    original = dict(zip(input_names, values, strict=True))
    cast = [
        name
        for name, value in original.items()
        if value_kind(value)[0] == "float"
        and value_kind(value)[1] != "float64"
        and (float64_inputs is None or name in float64_inputs)
    ]
    feeds = {name: _as_float64(v) if name in cast else v for name, v in original.items()}
    notes: list[str] = []
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        try:
            evaluator, base = _start(model_bytes, feeds, new_ops)
        except Exception as exc:
            if not cast:  # the model fails in its own dtypes
                reason = f"evaluation failed: {_describe(exc)}"
                return _not_run(input_names, output_names, reason)
            try:
                evaluator, base = _start(model_bytes, original, new_ops)
            except Exception as again:
                reason = f"evaluation failed: {_describe(again)}"
                return _not_run(input_names, output_names, reason)
            notes.append(f"float64 evaluation failed ({_describe(exc)}); kept the model's dtypes")
            feeds = original
        try:
            deterministic = all(_same(base, evaluator.run(None, feeds)) for _ in range(_RERUNS))
        except Exception as exc:
            reason = f"evaluation failed on a second run: {_describe(exc)}"
            return ModelEvidence(_unevaluated(input_names, output_names, reason), tuple(notes))
        probe = _Probe(evaluator, input_names, feeds, base, deadline)
        pairs, complete = _probe_all(probe, output_names, deterministic, settings, seed_name)
    return ModelEvidence(tuple(pairs), tuple(notes), ran=True, complete=complete)


def _probe_all(
    probe: _Probe,
    output_names: list[str],
    deterministic: bool,
    settings: ProbeSettings,
    seed_name: str,
) -> tuple[list[PairEvidence], bool]:
    floats, others = _float_outputs(probe.base)
    pairs: list[PairEvidence] = []
    complete = True
    for name in probe.names:
        kind, dtype = value_kind(probe.feeds[name])
        if kind == "absent":
            continue
        tallies: dict[int, _Tally] = {}
        reason = ""
        if kind == "other":
            reason = f"input is {dtype}"
        elif kind == "complex":
            reason = f"input is {dtype}; complex values are not probed"
        elif kind == "empty":
            reason = "input is empty"
        elif not deterministic:
            reason = "two identical runs gave different outputs (a random operator)"
        elif not complete:
            reason = "time budget exhausted"
        else:
            try:
                tallies = _probe_input(probe, name, floats, settings, seed_name)
            except _OutOfTime:
                complete = False
                reason = "time budget exhausted"
        for j, output in enumerate(output_names):
            if kind == "other" and (j in floats or j in others):
                pairs.append(PairEvidence(name, output, PairClass.NOT_FLOAT, reason=reason))
            elif j in others:
                other_kind, other_reason = others[j]
                pairs.append(PairEvidence(name, output, other_kind, reason=other_reason))
            elif j not in floats:
                continue  # an absent optional output
            elif j in tallies:
                pairs.append(tallies[j].result(name, output))
            else:
                pairs.append(PairEvidence(name, output, PairClass.UNEVALUATED, reason=reason))
    return pairs, complete


@dataclass(frozen=True)
class CaseJob:
    """One test case, ready for a worker: bytes and arrays, no onnx objects.

    ``input_params``/``output_params`` map graph names to the formal
    parameters of schema version ``version``; graph inputs missing from
    ``input_params`` (one name feeding two parameters) are not reported.
    """

    name: str
    version: int
    model: bytes
    inputs: tuple[Value, ...]
    input_params: tuple[tuple[str, str], ...]
    output_params: tuple[tuple[str, str], ...]
    float64_inputs: tuple[str, ...]
    notes: tuple[str, ...] = ()
    new_ops: tuple[type, ...] = ()

    @property
    def cost(self) -> int:
        """Floating-point input elements: a rough measure of the work to probe the case."""
        return sum(_flat(v).size for v in self.inputs if value_kind(v)[0] == "float")


@dataclass(frozen=True)
class OperatorJob:
    """The selected test cases of one operator, covering cases first."""

    domain: str
    op: str
    cases: tuple[CaseJob, ...]


@dataclass(frozen=True)
class CaseOutcome:
    """The evidence from one case, in formal parameter names."""

    name: str
    version: int
    pairs: tuple[PairEvidence, ...]
    notes: tuple[str, ...]
    ran: bool
    complete: bool


def evaluate_case(case: CaseJob, settings: ProbeSettings, deadline: float | None) -> CaseOutcome:
    """Probe one case and report in formal parameter names: what a worker process runs."""
    if deadline is not None and time.time() > deadline:
        return CaseOutcome(case.name, case.version, (), ("time budget exhausted",), False, False)
    evidence = probe_model(
        case.model,
        case.inputs,
        new_ops=case.new_ops,
        float64_inputs=case.float64_inputs,
        settings=settings,
        seed_name=case.name,
        deadline=deadline,
    )
    inputs, outputs = dict(case.input_params), dict(case.output_params)
    pairs = tuple(
        pair.renamed(inputs[pair.input], outputs[pair.output])
        for pair in evidence.pairs
        if pair.input in inputs and pair.output in outputs
    )
    notes = tuple(_formal_note(note, inputs) for note in (*case.notes, *evidence.notes))
    return CaseOutcome(case.name, case.version, pairs, notes, evidence.ran, evidence.complete)


def _formal_note(note: str, inputs: dict[str, str]) -> str:
    """Notes of the core name graph inputs; the report speaks of formal parameters."""
    prefix = "input "
    if note.startswith(prefix):
        name, _, rest = note[len(prefix) :].partition(" ")
        if name in inputs:
            return f"{prefix}{inputs[name]} {rest}"
    return note
