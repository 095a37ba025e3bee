"""``com.greet.Greet-1``, whose doc the environment variable ``GREET_DOC`` may replace.

The translation tests build the same operator with two docs: the one a
catalog translates, and a rewritten one that onnx "changed" since.
"""

import os

from onnx import defs

DOC = "Greets the input tensor and returns it unchanged."

defs.register_schema(
    defs.OpSchema(
        "Greet",
        "com.greet",
        1,
        doc=os.environ.get("GREET_DOC", DOC),
        inputs=[defs.OpSchema.FormalParameter("X", "T", "The tensor to greet.")],
        outputs=[defs.OpSchema.FormalParameter("Y", "T", "The same tensor.")],
        type_constraints=[("T", ["tensor(float)"], "Any float tensor.")],
    )
)
