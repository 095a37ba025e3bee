"""``test.audit`` operators whose evaluation never returns or ends its process, beside one
that is quick.

``Stall`` sleeps for an hour in its reference implementation: only a deadline
that stops the process running it ends the audit in time. ``Crash`` ends the
process evaluating it (exit code 3). The cases are scheduled largest first:
``Crash``, ``Double``, ``Stall``.
"""

from __future__ import annotations

import os
import time

import numpy as np
from onnx.reference.op_run import OpRun

from gendoc.audit import NumericCase
from gendoc.collect.schemas import convert_schema
from gendoc.model.reference import Reference, schema_sort_key
from tests.custom_schemas.audit_impl import DIFF, IMPLEMENTATIONS, F, _data, _p, _schema, model


class Stall(OpRun):
    op_domain = "test.audit"

    def _run(self, x: np.ndarray) -> tuple[np.ndarray]:
        time.sleep(3600)
        return (x,)


class Crash(OpRun):
    op_domain = "test.audit"

    def _run(self, x: np.ndarray) -> tuple[np.ndarray]:
        os._exit(3)


NAMES = ("Double", "Stall", "Crash")


def reference() -> Reference:
    schemas = [_schema(name, [_p("X", DIFF)], [_p("Y", DIFF)]) for name in NAMES]
    converted = sorted((convert_schema(s) for s in schemas), key=schema_sort_key)
    return Reference(onnx_version="test", schemas=tuple(converted))


def cases() -> list[NumericCase]:
    unary = [("X", F)], [("Y", F)]
    ops = (*IMPLEMENTATIONS, Stall, Crash)
    return [
        NumericCase("crash", model("Crash", *unary), (_data(8, 4),), ops),
        NumericCase("double", model("Double", *unary), (_data(6, 4),), ops),
        NumericCase("stall", model("Stall", *unary), (_data(3, 4),), ops),
    ]
