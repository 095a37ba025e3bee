"""Stands in for an older onnx in a test environment: imported at its interpreter's start.

The action's tests cannot install another onnx release (no network), so the
base side of the simulated onnx bump runs an interpreter where this module has
made onnx say it is 1.22.0 and registered one operator that the installed onnx
does not have (``OldOnly``): the base snapshot differs from the pull request's
in its onnx version and in one operator, as after a real bump.
"""

import onnx
from onnx import defs

VERSION = "1.22.0"

onnx.__version__ = VERSION
defs.register_schema(
    defs.OpSchema(
        "OldOnly",
        "com.example.old",
        1,
        "An operator of the older release.",
        inputs=[defs.OpSchema.FormalParameter("X", "T", "The input.")],
        outputs=[defs.OpSchema.FormalParameter("Y", "T", "The output.")],
        type_constraints=[("T", ["tensor(float)"], "Floats.")],
    )
)
