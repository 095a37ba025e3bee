"""Builders for the ``com.example`` schemas of the ``diff_*`` modules.

Each ``diff_*`` module registers one state of the same small custom domain,
so snapshots exported with different modules differ in known ways:

* ``diff_v1``: ``Foo`` in versions 1 and 2.
* ``diff_v1_tag``: ``diff_v1`` with one tag changed (``Foo-2`` input ``Y``).
* ``diff_v2``: that tag change, plus an input added to ``Foo-2``.
"""

from __future__ import annotations

from onnx import defs, helper

DOMAIN = "com.example"

Category = defs.OpSchema.DifferentiationCategory
_Option = defs.OpSchema.FormalParameterOption
_FLOATS = ["tensor(float)", "tensor(double)"]


def _param(
    name: str,
    category: defs.OpSchema.DifferentiationCategory,
    option: defs.OpSchema.FormalParameterOption = _Option.Single,
) -> defs.OpSchema.FormalParameter:
    return defs.OpSchema.FormalParameter(
        name, "T", f"The {name} tensor.", param_option=option, differentiation_category=category
    )


def foo(version: int, *, y: defs.OpSchema.DifferentiationCategory, scale: bool) -> defs.OpSchema:
    """``Foo``: ``Z = X * Y`` (times ``scale`` when the optional input is there)."""
    inputs = [_param("X", Category.Differentiable), _param("Y", y)]
    if scale:
        inputs.append(_param("scale", Category.NonDifferentiable, _Option.Optional))
    return defs.OpSchema(
        "Foo",
        DOMAIN,
        version,
        "Multiplies X by Y.",
        inputs=inputs,
        outputs=[_param("Z", Category.Differentiable)],
        type_constraints=[("T", _FLOATS, "Float tensors.")],
        attributes=[
            defs.OpSchema.Attribute("alpha", helper.make_attribute("alpha", 1.0), "A factor.")
        ],
    )


def register(*schemas: defs.OpSchema) -> None:
    for schema in schemas:
        defs.register_schema(schema)
