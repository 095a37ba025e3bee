"""Evidence from PyTorch's autograd: the guide's Method 1, run for every mapped operator.

Imported only when torch is installed (see :func:`gendoc.evidence.sources.live_torch_source`).
Each operator of :data:`gendoc.evidence.torch_ops.TORCH_OPS` is called on
small seeded float64 inputs, twice (two seeds), and asked for gradients:

* a float input: the gradient of a random projection of every differentiable
  output. Nonzero at some probe: ``GRADIENT``; zero at all: ``ZERO``; torch
  raising (``the derivative for 'weight' is not implemented``) or having no
  autograd path to it: ``REFUSED`` with torch's words.
* an integer or boolean input: ``REFUSED`` (autograd's rule: only float
  tensors take a gradient).
* an input the call takes as a Python value (Range's ``start``, Pad's
  ``constant_value``): ``NOT_MEASURED``; autograd never sees it, so that is
  our mapping's choice, not torch refusing.
* an output: ``GRADIENT``/``ZERO`` from its own backward; an integer or
  boolean output, or a float one torch records no gradient for: ``REFUSED``;
  one the call does not return: ``UNAVAILABLE``.

A refusal torch raises by its own declaration (``nll_loss``'s weight,
``batch_norm``'s running statistics: "not differentiable with respect to
argument"; "the derivative for '_unique2' is not implemented") has the basis
``POLICY``: the framework chose not to differentiate it, autograd found
nothing. Every other verdict of a composite expression
(:attr:`TorchOp.composite`) has the basis ``COMPOSITE``, the rest ``AUTOGRAD``.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np
import torch
import torch.nn.functional as F

from gendoc.catalogs.i18n import N_, Message, Quoted, quoted, say
from gendoc.evidence.interface import (
    Basis,
    ParameterEvidence,
    SourceEvidence,
    Verdict,
    unavailable,
)
from gendoc.evidence.torch_ops import (
    NO_MAPPING,
    TORCH_OPS,
    Bools,
    Builder,
    Ints,
    Real,
    Several,
    TorchOp,
    Value,
    torch_op,
)
from gendoc.model.reference import Option, ParameterRef, Part, Schema, labelled

NAME = "pytorch"
SEEDS = (0, 1)
# Verdicts of several probes: any gradient wins, then a refusal, then zero.
_RANK = {
    Verdict.GRADIENT: 0,
    Verdict.REFUSED: 1,
    Verdict.ZERO: 2,
    Verdict.NOT_MEASURED: 3,
    Verdict.UNAVAILABLE: 4,
}
NOT_MEASURED = say(N_("passed to torch as a Python scalar by the mapping: autograd never sees it"))


def build(builder: Builder, rng: np.random.Generator) -> Any:
    """The value of one input: a tensor, a list of tensors, or a plain Python value."""
    if isinstance(builder, Real):
        return torch.tensor(rng.uniform(builder.low, builder.high, builder.shape))
    if isinstance(builder, Several):
        return [build(item, rng) for item in builder.items]
    if isinstance(builder, Ints):
        return torch.tensor(builder.values, dtype=torch.int64)
    if isinstance(builder, Bools):
        return torch.tensor(rng.random(builder.shape) < 0.5)
    return builder.value


class Answer(NamedTuple):
    """One probe's verdict on one parameter; ``declared``: torch raised, refusing by its own
    declaration (``not differentiable with respect to argument``, ``derivative ... not
    implemented``), which is framework policy rather than autograd finding no gradient."""

    verdict: Verdict
    why: Message
    declared: bool = False


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0] if text else ''}"


@functools.cache
def _compiled(call: str) -> Any:
    return compile(call, "<torch call>", "eval")


def run_call(spec: TorchOp, inputs: dict[str, Any]) -> tuple[Any, ...]:
    """Evaluate the torch expression; the result as a tuple of outputs."""
    scope = {"torch": torch, "F": F, "reduce": functools.reduce, **inputs}
    result = eval(_compiled(spec.call), scope)  # the expression is a constant of TORCH_OPS
    return tuple(result) if isinstance(result, tuple | list) else (result,)


def _assign_outputs(schema: Schema, outs: tuple[Any, ...]) -> list[list[Any]]:
    """The torch results that stand for each schema output (a variadic one takes the rest)."""
    assigned = []
    for index, param in enumerate(schema.outputs):
        if param.option is Option.VARIADIC:
            assigned.append(list(outs[index:]))
        else:
            assigned.append([outs[index]] if index < len(outs) else [])
    return assigned


def _leaves(value: Any) -> list[torch.Tensor]:
    return value if isinstance(value, list) else [value]


def _grad_verdict(
    targets: Sequence[torch.Tensor], leaves: Sequence[torch.Tensor], rng: np.random.Generator
) -> Answer:
    """Backward of a random projection of ``targets`` onto ``leaves``."""
    projections = [torch.tensor(rng.standard_normal(t.shape), dtype=t.dtype) for t in targets]
    try:
        grads = torch.autograd.grad(
            targets, leaves, projections, retain_graph=True, allow_unused=True
        )
    except (RuntimeError, NotImplementedError) as exc:  # torch declares it has no derivative
        return Answer(Verdict.REFUSED, quoted(_first_line(exc)), declared=True)
    present = [g for g in grads if g is not None]
    if not present:
        return Answer(Verdict.REFUSED, say(N_("no autograd path from the outputs")))
    if any(bool(torch.any(g != 0)) for g in present):
        return Answer(Verdict.GRADIENT, say(N_("nonzero gradient")))
    return Answer(Verdict.ZERO, say(N_("gradient is zero at every probe")))


def _is_float(value: Any) -> bool:
    return isinstance(value, torch.Tensor) and value.is_floating_point()


class TorchSource:
    """PyTorch autograd as an evidence source."""

    name = NAME

    def __init__(self, ops: dict[str, TorchOp] | None = None) -> None:
        self.ops = TORCH_OPS if ops is None else ops
        self.status = say(
            N_("torch {version}, {count} operators mapped"),
            version=str(torch.__version__),
            count=len(self.ops),
        )

    def evaluate(self, schema: Schema) -> SourceEvidence:
        spec = torch_op(schema, self.ops)
        if spec is None:
            return unavailable(NAME, schema, NO_MAPPING)
        call, version = Quoted(spec.call), str(torch.__version__)
        detail = say(N_("{call} (torch {version})"), call=call, version=version)
        if spec.composite:
            detail = say(
                N_("composite expression {call} (torch {version})"), call=call, version=version
            )
        try:
            refused = self._refused_at_forward(schema, spec)
            probes = [self._probe(schema, spec, seed, refused) for seed in SEEDS]
        except Exception as exc:  # the torch call itself failed: no evidence at all
            reason = say(N_("the torch call failed: {error}"), error=Quoted(_first_line(exc)))
            return unavailable(NAME, schema, reason, detail)
        measured = Basis.COMPOSITE if spec.composite else Basis.AUTOGRAD
        found = []
        for ref, _ in labelled(schema):
            answer = min((p[ref] for p in probes), key=lambda a: _RANK[a.verdict])
            basis = Basis.POLICY if answer.declared else measured
            found.append(ParameterEvidence(ref, answer.verdict, answer.why, basis))
        return SourceEvidence(
            NAME, schema.domain, schema.name, schema.since_version, tuple(found), detail
        )

    @staticmethod
    def _inputs(spec: TorchOp, seed: int, probed: set[str]) -> dict[str, Any]:
        """Seeded inputs; the float ones named in ``probed`` require a gradient."""
        # The CPU generator alone: torch.manual_seed also seeds every accelerator back-end,
        # formatting a stack trace for each lazy call, which cost more than the evaluation.
        torch.default_generator.manual_seed(seed)
        rng = np.random.default_rng(seed)
        inputs = {name: build(builder, rng) for name, builder in spec.inputs.items()}
        for name in probed:
            for leaf in _leaves(inputs[name]):
                leaf.requires_grad_(True)
        return inputs

    def _refused_at_forward(self, schema: Schema, spec: TorchOp) -> dict[str, Message]:
        """Float inputs torch refuses to track at all, with its message.

        Some functions (``nll_loss``'s weight, ``batch_norm``'s running
        statistics) raise in the forward call when such an input requires a
        gradient; each float input is then tried alone to find which.
        """
        floats = {n for n, b in spec.inputs.items() if isinstance(b, Real | Several)}
        try:
            run_call(spec, self._inputs(spec, SEEDS[0], floats))
            return {}
        except RuntimeError as exc:
            if "not differentiable with respect to" not in str(exc):
                raise
        refused = {}
        for name in sorted(floats):
            try:
                run_call(spec, self._inputs(spec, SEEDS[0], {name}))
            except RuntimeError as exc:
                refused[name] = quoted(_first_line(exc))
        return refused

    def _probe(
        self, schema: Schema, spec: TorchOp, seed: int, refused: dict[str, Message]
    ) -> dict[ParameterRef, Answer]:
        floats = {n for n, b in spec.inputs.items() if isinstance(b, Real | Several)}
        inputs = self._inputs(spec, seed, floats - set(refused))
        rng = np.random.default_rng(seed + 1000)
        outs = _assign_outputs(schema, run_call(spec, inputs))
        answers: dict[ParameterRef, Answer] = {}
        differentiable: list[torch.Tensor] = []
        any_float = False
        for param, values in zip(schema.outputs, outs, strict=True):
            answers[ParameterRef(Part.OUTPUT, param.name)] = self._output(values, inputs, spec, rng)
            any_float = any_float or any(_is_float(v) for v in values)
            differentiable.extend(v for v in values if _is_float(v) and v.requires_grad)
        for param in schema.inputs:
            ref = ParameterRef(Part.INPUT, param.name)
            if param.name in refused:
                answers[ref] = Answer(Verdict.REFUSED, refused[param.name], True)
                continue
            answers[ref] = self._input(
                spec.inputs.get(param.name), inputs.get(param.name), differentiable, any_float, rng
            )
        return answers

    @staticmethod
    def _output(
        values: list[Any], inputs: dict[str, Any], spec: TorchOp, rng: np.random.Generator
    ) -> Answer:
        if not values:
            return Answer(Verdict.UNAVAILABLE, say(N_("the torch call does not return it")))
        if not all(_is_float(v) for v in values):
            kinds = sorted({str(getattr(v, "dtype", type(v).__name__)) for v in values})
            why = say(
                N_("{types} output: torch does not differentiate it"),
                types=Quoted(", ".join(kinds)),
            )
            return Answer(Verdict.REFUSED, why)
        if not all(v.requires_grad for v in values):
            return Answer(Verdict.REFUSED, say(N_("torch records no gradient for it")))
        leaves = [
            leaf
            for name, builder in spec.inputs.items()
            if isinstance(builder, Real | Several)
            for leaf in _leaves(inputs[name])
            if leaf.requires_grad
        ]
        return _grad_verdict(values, leaves, rng)

    @staticmethod
    def _input(
        builder: Builder | None,
        value: Any,
        differentiable: list[torch.Tensor],
        any_float: bool,
        rng: np.random.Generator,
    ) -> Answer:
        if builder is None:
            return Answer(Verdict.UNAVAILABLE, say(N_("no counterpart in the torch call")))
        if isinstance(builder, Value):
            return Answer(Verdict.NOT_MEASURED, NOT_MEASURED)
        if isinstance(builder, Ints | Bools):
            why = say(
                N_("{type} tensor: torch differentiates float tensors only"),
                type=Quoted(str(value.dtype)),
            )
            return Answer(Verdict.REFUSED, why)
        if not differentiable:
            if any_float:
                return Answer(Verdict.REFUSED, say(N_("torch records no gradient for any output")))
            return Answer(Verdict.REFUSED, say(N_("no float output")))
        return _grad_verdict(differentiable, _leaves(value), rng)
