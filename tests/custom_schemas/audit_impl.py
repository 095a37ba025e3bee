"""The ``test.audit`` domain: schemas, reference implementations and test cases.

Importing this module registers nothing, so in-process tests can use it
freely; ``audit_ops`` registers the schemas for tests that run gendoc in a
child process. Some tags are wrong on purpose:

* ``Double`` (``Y = 2 X``): input ``X`` tagged non-differentiable.
* ``Vanish`` (``Y = 0 X``): everything tagged differentiable, yet ``Y`` never moves.
* ``Index`` (``Y = argmax X``): the int64 output tagged differentiable.
* ``Half``: a differentiable input and an undefined output.
* ``Flip``: input ``W`` flips to non-differentiable in version 2, loses its tag in 3.

``Step`` (``Y = [X > 0]``, float only), ``Scale`` (``Y = X S``) and ``Mask``
are untagged or tagged plausibly; ``Broken`` has no implementation.
"""

from __future__ import annotations

import numpy as np
from onnx import TensorProto, defs, helper
from onnx.reference.op_run import OpRun

from gendoc.audit import NumericCase
from gendoc.collect.schemas import convert_schema
from gendoc.model.reference import Reference, schema_sort_key

DOMAIN = "test.audit"

Category = defs.OpSchema.DifferentiationCategory
DIFF = Category.Differentiable
NON_DIFF = Category.NonDifferentiable
UNKNOWN = Category.Unknown
_FLOATS = ["tensor(float)", "tensor(double)"]


class Double(OpRun):
    op_domain = DOMAIN

    def _run(self, x: np.ndarray) -> tuple[np.ndarray]:
        return (2 * x,)


class Vanish(OpRun):
    op_domain = DOMAIN

    def _run(self, x: np.ndarray) -> tuple[np.ndarray]:
        return (np.zeros_like(x),)


class Index(OpRun):
    op_domain = DOMAIN

    def _run(self, x: np.ndarray) -> tuple[np.ndarray]:
        return (np.argmax(x, axis=-1).astype(np.int64),)


class Step(OpRun):
    op_domain = DOMAIN

    def _run(self, x: np.ndarray) -> tuple[np.ndarray]:
        return ((x > 0).astype(x.dtype),)


class Scale(OpRun):
    op_domain = DOMAIN

    def _run(self, x: np.ndarray, s: np.ndarray) -> tuple[np.ndarray]:
        return (x * s,)


class Noise(OpRun):
    """Adds fresh noise on every call: no two runs agree."""

    op_domain = DOMAIN

    def _run(self, x: np.ndarray) -> tuple[np.ndarray]:
        return (x + np.random.default_rng().standard_normal(x.shape),)


class SingleOnly(OpRun):
    """``Y = 3 X`` that refuses float64, like an operator without a double kernel."""

    op_domain = DOMAIN

    def _run(self, x: np.ndarray) -> tuple[np.ndarray]:
        if x.dtype == np.float64:
            raise TypeError("float64 is not supported")
        return (3 * x,)


IMPLEMENTATIONS: tuple[type, ...] = (Double, Vanish, Index, Step, Scale, Noise, SingleOnly)


def _p(name: str, category: Category, type_str: str = "T") -> defs.OpSchema.FormalParameter:
    return defs.OpSchema.FormalParameter(
        name, type_str, f"The {name} tensor.", differentiation_category=category
    )


def _schema(
    name: str,
    inputs: list[defs.OpSchema.FormalParameter],
    outputs: list[defs.OpSchema.FormalParameter],
    *,
    version: int = 1,
    floats: list[str] = _FLOATS,
) -> defs.OpSchema:
    return defs.OpSchema(
        name,
        DOMAIN,
        version,
        f"The {name} test operator.",
        inputs=inputs,
        outputs=outputs,
        type_constraints=[("T", floats, "Float tensors.")],
    )


def schemas() -> list[defs.OpSchema]:
    """The schemas of the domain, not registered."""
    return [
        _schema("Double", [_p("X", NON_DIFF)], [_p("Y", DIFF)]),
        _schema("Vanish", [_p("X", DIFF)], [_p("Y", DIFF)]),
        _schema("Index", [_p("X", DIFF)], [_p("Y", DIFF, "tensor(int64)")]),
        _schema("Step", [_p("X", UNKNOWN)], [_p("Y", UNKNOWN)], floats=["tensor(float)"]),
        _schema("Scale", [_p("X", UNKNOWN), _p("S", UNKNOWN)], [_p("Y", UNKNOWN)]),
        _schema("Half", [_p("X", DIFF)], [_p("Y", UNKNOWN)]),
        _schema("Flip", [_p("X", DIFF), _p("W", DIFF)], [_p("Y", DIFF)], version=1),
        _schema("Flip", [_p("X", DIFF), _p("W", NON_DIFF)], [_p("Y", DIFF)], version=2),
        _schema("Flip", [_p("X", DIFF), _p("W", UNKNOWN)], [_p("Y", DIFF)], version=3),
        _schema("Mask", [_p("X", DIFF), _p("M", UNKNOWN, "tensor(bool)")], [_p("Y", DIFF)]),
        _schema("Broken", [_p("X", DIFF)], [_p("Y", DIFF)]),
        _schema("Single", [_p("X", DIFF)], [_p("Y", DIFF)], floats=["tensor(float)"]),
    ]


def reference() -> Reference:
    """The domain as gendoc's model, built without registering anything with onnx."""
    converted = sorted((convert_schema(s) for s in schemas()), key=schema_sort_key)
    return Reference(onnx_version="test", schemas=tuple(converted))


def model(
    op: str,
    inputs: list[tuple[str, int]],
    outputs: list[tuple[str, int]],
    *,
    version: int = 1,
    node_inputs: list[str] | None = None,
) -> bytes:
    """A single-node model of ``op``; ``node_inputs`` overrides the node's input names."""
    node = helper.make_node(
        op, node_inputs or [n for n, _ in inputs], [n for n, _ in outputs], domain=DOMAIN
    )
    graph = helper.make_graph(
        [node],
        op,
        [helper.make_tensor_value_info(n, t, None) for n, t in inputs],
        [helper.make_tensor_value_info(n, t, None) for n, t in outputs],
    )
    opsets = [helper.make_opsetid(DOMAIN, version), helper.make_opsetid("", 21)]
    return helper.make_model(graph, opset_imports=opsets).SerializeToString()


F = TensorProto.FLOAT
I64 = TensorProto.INT64


def _data(*shape: int) -> np.ndarray:
    """Test data away from zero, so that ``Step`` has no jump within a step."""
    values = np.random.default_rng(7).uniform(0.5, 2.0, shape)
    signs = np.where(np.arange(values.size).reshape(shape) % 2 == 0, 1.0, -1.0)
    return (values * signs).astype(np.float32)


def audit_cases() -> list[NumericCase]:
    """Numeric test cases for the domain; ``gendoc audit`` finds this hook by name."""
    x = _data(3, 4)
    unary = [("X", F)], [("Y", F)]
    return [
        NumericCase("double", model("Double", *unary), (x,), IMPLEMENTATIONS),
        NumericCase("vanish", model("Vanish", *unary), (x,), IMPLEMENTATIONS),
        NumericCase("index", model("Index", [("X", F)], [("Y", I64)]), (x,), IMPLEMENTATIONS),
        NumericCase("step", model("Step", *unary), (x,), IMPLEMENTATIONS),
        NumericCase(
            "scale",
            model("Scale", [("X", F), ("S", F)], [("Y", F)]),
            (x, _data(4)),
            IMPLEMENTATIONS,
        ),
        NumericCase("broken", model("Broken", *unary), (x,), IMPLEMENTATIONS),
    ]
