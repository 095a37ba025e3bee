"""Finite differences on one model: the Jacobian's pattern at real inputs.

:func:`probe_model` knows nothing about schemas or test suites: it takes a
model, its real inputs and optional ``OpRun`` implementations, runs
``onnx.reference.ReferenceEvaluator`` on perturbed copies of each
floating-point input and classifies every (graph input, graph output) pair.
It is a pure function of its arguments (bytes, arrays, settings), so it
runs unchanged in a worker process and gives the same answer serially and
in parallel.

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
from typing import Any, NamedTuple, TypeAlias

import numpy as np
import onnx
from onnx import numpy_helper

from gendoc.catalogs.i18n import N_, Message, say
from gendoc.evidence.numeric import (
    DEFAULT_SETTINGS,
    STEPS,
    Cause,
    ModelEvidence,
    PairClass,
    PairEvidence,
    ProbeSettings,
    Reason,
    cause,
)
from gendoc.model.reference import Part

Value: TypeAlias = np.ndarray | list[np.ndarray] | None


class ValueKind(enum.StrEnum):
    """What a test-data value is, as far as probing goes."""

    ABSENT = "absent"
    EMPTY = "empty"
    FLOAT = "float"
    COMPLEX = "complex"
    OTHER = "other"


class ValueType(NamedTuple):
    """A value's kind and the dtype that decided it (``""`` when none did)."""

    kind: ValueKind
    dtype: str


class _OutOfTime(Exception):
    """The deadline passed; raised between evaluations, never inside one."""


class _BelowPrecision(Exception):
    """A step vanished when added to the input in its own dtype."""

    def __init__(self, step: float, dtype: str) -> None:
        super().__init__(step, dtype)
        self.cause = cause(Reason.BELOW_PRECISION, step=step, dtype=dtype)


# Reruns that must reproduce the first run before probing. An unseeded random
# operator can repeat itself by chance (Bernoulli on ten elements: about 2%
# per rerun), and probing it would report noise; three reruns make that rare.
_RERUNS = 3


def describe(exc: BaseException) -> str:
    """An exception in one line of at most 160 characters: ``TypeError: ...``."""
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


def value_type(value: Value) -> ValueType:
    """Classify a value; the dtype that decided it goes into messages."""
    if value is None:
        return ValueType(ValueKind.ABSENT, "")
    leaves = _leaves(value)
    if not leaves or all(leaf.size == 0 for leaf in leaves):
        return ValueType(ValueKind.EMPTY, "")
    for leaf in leaves:
        if leaf.dtype.kind == "c":
            return ValueType(ValueKind.COMPLEX, leaf.dtype.name)
        if not _is_float(leaf.dtype):
            dtype = "string" if leaf.dtype.kind in "OUS" else leaf.dtype.name
            return ValueType(ValueKind.OTHER, dtype)
    return ValueType(ValueKind.FLOAT, leaves[0].dtype.name)


def _flat(value: Value) -> np.ndarray:
    leaves = _leaves(value)
    if not leaves:
        return np.zeros(0)
    return np.concatenate([leaf.astype(np.float64).ravel() for leaf in leaves])


def element_count(value: Value) -> int:
    """The number of elements of all the arrays of a value."""
    return sum(leaf.size for leaf in _leaves(value))


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
        return STEPS[0]
    if eps <= 1e-6:
        return STEPS[1]
    return STEPS[2]


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
    failures: list[Cause] = field(default_factory=list)

    def result(self, input_name: str, output_name: str) -> PairEvidence:
        probes = self.zero + self.nonzero + self.unstable
        if self.nonzero:
            kind = PairClass.NONZERO
        elif self.unstable:
            kind = PairClass.UNSTABLE
        elif self.zero:
            kind = PairClass.ZERO
        else:
            why = self.failures[0] if self.failures else cause(Reason.NO_PROBE)
            return PairEvidence(input_name, output_name, PairClass.UNEVALUATED, cause=why)
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
) -> tuple[PairClass, float] | None:
    """One probe of one output: zero, nonzero (with its slope) or unstable; ``None`` when
    the output is not finite at any probed point."""
    y0 = _flat(base)
    signature = _signature(base)
    moved: list[np.ndarray] = []
    for side in sides:
        plus, minus = to_value(side.plus[index]), to_value(side.minus[index])
        if _signature(plus) != signature or _signature(minus) != signature:
            return PairClass.UNSTABLE, 0.0
        moved.append(_flat(plus) - _flat(minus))
    finite = np.isfinite(y0)
    for side in sides:
        finite &= np.isfinite(_flat(to_value(side.plus[index])))
        finite &= np.isfinite(_flat(to_value(side.minus[index])))
    if not finite.any():
        return None
    tol = 32 * _eps(base) * (float(np.max(np.abs(y0[finite]))) + 1.0)
    deltas = [d[finite] for d in moved]
    zero = [float(np.max(np.abs(d))) <= tol for d in deltas]
    if all(zero):
        return PairClass.ZERO, 0.0
    if any(zero):
        return PairClass.UNSTABLE, 0.0
    quotients = [d / (2 * side.t) for d, side in zip(deltas, sides, strict=True)]
    scale = max(float(np.max(np.abs(q))) for q in quotients)
    gap = float(np.max(np.abs(quotients[0] - quotients[1])))
    if gap <= rtol * scale + tol / (2 * sides[-1].t):
        return PairClass.NONZERO, float(np.max(np.abs(quotients[-1])))
    return PairClass.UNSTABLE, 0.0


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
            raise _BelowPrecision(h, value_type(like).dtype)
        return _Side(self.run(name, plus), self.run(name, minus), t)


def _not_probed(part: Part, value: ValueType) -> tuple[PairClass, Cause]:
    """The class and cause of a pair whose input or output (``part``) is not probed."""
    inputs = part is Part.INPUT
    if value.kind is ValueKind.OTHER:
        why = cause(
            Reason.NON_FLOAT_INPUT if inputs else Reason.NON_FLOAT_OUTPUT, dtype=value.dtype
        )
        return PairClass.NOT_FLOAT, why
    if value.kind is ValueKind.COMPLEX:
        why = cause(Reason.COMPLEX_INPUT if inputs else Reason.COMPLEX_OUTPUT, dtype=value.dtype)
        return PairClass.UNEVALUATED, why
    return PairClass.UNEVALUATED, cause(Reason.EMPTY_INPUT if inputs else Reason.EMPTY_OUTPUT)


def _float_outputs(base: Sequence[Any]) -> tuple[list[int], dict[int, tuple[PairClass, Cause]]]:
    """Indices of float outputs, and the class and cause of every other present one."""
    floats: list[int] = []
    others: dict[int, tuple[PairClass, Cause]] = {}
    for j, output in enumerate(base):
        value = value_type(to_value(output))
        if value.kind is ValueKind.FLOAT:
            floats.append(j)
        elif value.kind is not ValueKind.ABSENT:
            others[j] = _not_probed(Part.OUTPUT, value)
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
        except _BelowPrecision as exc:
            failure = exc.cause
        except Exception as exc:  # a perturbed input the operator rejects is evidence too
            failure = cause(Reason.PERTURBED_FAILED, error=describe(exc))
        else:
            failure = None
        if failure is not None:
            for tally in tallies.values():
                tally.failures.append(failure)
            continue
        for j in floats:
            outcome = _classify_probe(to_value(probe.base[j]), sides, j, settings.rtol)
            tally = tallies[j]
            if outcome is None:
                tally.failures.append(cause(Reason.NOT_FINITE))
                continue
            kind, slope = outcome
            if kind is PairClass.ZERO:
                tally.zero += 1
            elif kind is PairClass.NONZERO:
                tally.nonzero += 1
                tally.max_slope = max(tally.max_slope, slope)
            else:
                tally.unstable += 1
    return tallies


def _unevaluated(
    input_names: Sequence[str], output_names: Sequence[str], why: Cause
) -> tuple[PairEvidence, ...]:
    return tuple(
        PairEvidence(i, o, PairClass.UNEVALUATED, cause=why)
        for i in input_names
        for o in output_names
    )


def _not_run(input_names: Sequence[str], output_names: Sequence[str], why: Cause) -> ModelEvidence:
    return ModelEvidence(_unevaluated(input_names, output_names, why), failure=why)


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
        why = cause(Reason.INPUT_COUNT, given=len(values), expected=len(input_names))
        return _not_run(input_names, output_names, why)
    original = dict(zip(input_names, values, strict=True))
    cast = [
        name
        for name, value in original.items()
        if value_type(value).kind is ValueKind.FLOAT
        and value_type(value).dtype != "float64"
        and (float64_inputs is None or name in float64_inputs)
    ]
    feeds = {name: _as_float64(v) if name in cast else v for name, v in original.items()}
    notes: list[Message] = []
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        try:
            evaluator, base = _start(model_bytes, feeds, new_ops)
        except Exception as exc:
            if not cast:  # the model fails in its own dtypes
                why = cause(Reason.EVALUATION_FAILED, error=describe(exc))
                return _not_run(input_names, output_names, why)
            try:
                evaluator, base = _start(model_bytes, original, new_ops)
            except Exception as again:
                why = cause(Reason.EVALUATION_FAILED, error=describe(again))
                return _not_run(input_names, output_names, why)
            notes.append(
                say(
                    N_("float64 evaluation failed ({error}); kept the model's dtypes"),
                    error=describe(exc),
                )
            )
            feeds = original
        try:
            deterministic = all(_same(base, evaluator.run(None, feeds)) for _ in range(_RERUNS))
        except Exception as exc:
            why = cause(Reason.RERUN_FAILED, error=describe(exc))
            return ModelEvidence(_unevaluated(input_names, output_names, why), tuple(notes))
        probe = _Probe(evaluator, input_names, feeds, base, deadline)
        pairs, complete = _probe_all(probe, output_names, deterministic, settings, seed_name)
    return ModelEvidence(tuple(pairs), tuple(notes), complete=complete)


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
        value = value_type(probe.feeds[name])
        if value.kind is ValueKind.ABSENT:
            continue
        tallies: dict[int, _Tally] = {}
        skip = (PairClass.UNEVALUATED, cause(Reason.OUT_OF_TIME))
        if value.kind is not ValueKind.FLOAT:
            skip = _not_probed(Part.INPUT, value)
        elif not deterministic:
            skip = (PairClass.UNEVALUATED, cause(Reason.RANDOM))
        elif complete:
            try:
                tallies = _probe_input(probe, name, floats, settings, seed_name)
            except _OutOfTime:
                complete = False
        for j, output in enumerate(output_names):
            if j not in floats and j not in others:
                continue  # an absent optional output
            if skip[0] is PairClass.NOT_FLOAT:
                kind, why = skip
            elif j in others:
                kind, why = others[j]
            elif j in tallies:
                pairs.append(tallies[j].result(name, output))
                continue
            else:
                kind, why = skip
            pairs.append(PairEvidence(name, output, kind, cause=why))
    return pairs, complete
