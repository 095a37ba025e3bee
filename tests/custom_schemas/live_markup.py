"""Registers one schema per vector of :mod:`tests.custom_schemas.live_markup_payloads`, the
vector written where onnx's layout puts schema text: at the end of the doc (a Markdown
paragraph) and of every description (inside ``<dd>``)."""

from onnx import defs

from tests.custom_schemas.live_markup_payloads import USE_OF_DEFINITION, VECTORS

Category = defs.OpSchema.DifferentiationCategory

for index, (name, vector) in enumerate(VECTORS.items()):
    defs.register_schema(
        defs.OpSchema(
            f"Vector{index}",
            "com.example.live",
            1,
            doc=f"{USE_OF_DEFINITION}\n\nThe {name} vector:\n{vector}",
            inputs=[
                defs.OpSchema.FormalParameter(
                    "X", "T", f"Input. {vector}", differentiation_category=Category.Unknown
                )
            ],
            outputs=[defs.OpSchema.FormalParameter("Y", "T", f"Output. {vector}")],
            type_constraints=[("T", ["tensor(float)"], f"Floats. {vector}")],
            attributes=[
                defs.OpSchema.Attribute("mode", defs.OpSchema.AttrType.STRING, vector),
            ],
        )
    )
