"""Registers a small out-of-tree domain, as a user's ``--schemas`` module would."""

from onnx import defs

DOMAIN = "com.example.build"


def _schema() -> defs.OpSchema:
    return defs.OpSchema(
        "Scale",
        DOMAIN,
        1,
        doc="Multiplies `X` by the `factor` input. See [the IR](IR.md).",
        inputs=[
            defs.OpSchema.FormalParameter(
                "X",
                "T",
                "Tensor to scale.",
                differentiation_category=defs.OpSchema.DifferentiationCategory.Differentiable,
            ),
            defs.OpSchema.FormalParameter(
                "factor",
                "tensor(int64)",
                "Integer factor.",
                differentiation_category=defs.OpSchema.DifferentiationCategory.NonDifferentiable,
            ),
            defs.OpSchema.FormalParameter(
                "bias",
                "T",
                "Optional offset.",
                param_option=defs.OpSchema.FormalParameterOption.Optional,
            ),
        ],
        outputs=[
            defs.OpSchema.FormalParameter(
                "Y",
                "T",
                "Scaled tensor.",
                differentiation_category=defs.OpSchema.DifferentiationCategory.Differentiable,
            )
        ],
        type_constraints=[("T", ["tensor(float)", "tensor(double)"], "Float tensors.")],
    )


defs.register_schema(_schema())
