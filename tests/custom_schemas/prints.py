"""A schema module that prints while registering, which must not end up in a snapshot."""

import sys

from onnx import defs

print("registering com.example.prints")
sys.stdout.write("more chatter\n")

defs.register_schema(
    defs.OpSchema(
        "Chatty",
        "com.example.prints",
        1,
        doc="Registered by a module that prints.",
        inputs=[defs.OpSchema.FormalParameter("X", "T", "Input.")],
        outputs=[defs.OpSchema.FormalParameter("Y", "T", "Output.")],
        type_constraints=[("T", ["tensor(float)"], "Float tensors.")],
    )
)
