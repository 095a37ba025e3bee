"""Registers schemas that onnx already has, under the domain given by ``REREGISTER_DOMAIN``.

onnx refuses ``""`` itself; ``ai.onnx`` it accepts as a separate domain, which
would put a second Relu-14 beside onnx's own. ``deregister`` replaces
onnx's Relu-14 outright.
"""

import os

from onnx import defs

DOMAIN = os.environ.get("REREGISTER_DOMAIN", "")


def _relu(domain: str) -> defs.OpSchema:
    return defs.OpSchema(
        "Relu",
        domain,
        14,
        doc="A Relu that is not onnx's.",
        inputs=[defs.OpSchema.FormalParameter("X", "T", "Input.")],
        outputs=[defs.OpSchema.FormalParameter("Y", "T", "Output.")],
        type_constraints=[("T", ["tensor(float)"], "Float tensors.")],
    )


if DOMAIN == "deregister":
    defs.deregister_schema("Relu", 14, "")
    defs.register_schema(_relu(""))
elif DOMAIN == "remove":
    defs.deregister_schema("Relu", 14, "")
else:
    defs.register_schema(_relu(DOMAIN))
