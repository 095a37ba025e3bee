"""Test cases for numeric evidence: onnx's backend cases and those of schema modules.

A :class:`NumericCase` is a single-node model with real inputs. onnx's
backend node test cases are the default source; a schema module passed with
``--schemas`` may add its own by defining ``audit_cases()`` (returning
NumericCase objects), so that custom operators get evidence too.

"""

from __future__ import annotations

import contextlib
import io
import sys
import warnings
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np
import onnx

CASES_HOOK = "audit_cases"


@dataclass(frozen=True)
class NumericCase:
    """A single-node model and real inputs for it (one per graph input, in order).

    ``new_ops`` are ``onnx.reference.op_run.OpRun`` subclasses implementing
    operators the reference evaluator does not know; they must be importable
    by name (defined at module level) to reach worker processes.
    """

    name: str
    model: onnx.ModelProto | bytes
    inputs: tuple[Any, ...]
    new_ops: tuple[type, ...] = ()


def is_onnx_domain(domain: str) -> bool:
    """Domains for which onnx ships backend test cases."""
    return domain == "" or domain.startswith("ai.onnx")


@cache
def backend_cases() -> tuple[NumericCase, ...]:
    """onnx's backend node test cases, collected once per process.

    Collecting executes onnx's test-case export functions (several seconds),
    so it happens once, in the parent; workers only receive bytes and arrays.
    Some export functions print or warn: that must not reach a JSON report on
    stdout, so both are silenced.
    """
    with (
        warnings.catch_warnings(),
        np.errstate(all="ignore"),
        contextlib.redirect_stdout(io.StringIO()),
    ):
        warnings.simplefilter("ignore")
        from onnx.backend.test.case.node import collect_testcases

        collected = collect_testcases(None)
    cases = []
    for case in collected:
        # Expanded cases test a function body, not the operator's own schema.
        if "_expanded" in case.name or not case.data_sets or case.model is None:
            continue
        inputs, _ = case.data_sets[0]
        cases.append(NumericCase(case.name, case.model.SerializeToString(), tuple(inputs)))
    return tuple(cases)


def module_cases(modules: Iterable[str]) -> list[NumericCase]:
    """Cases offered by already imported schema modules through ``audit_cases()``."""
    cases: list[NumericCase] = []
    for name in modules:
        hook = getattr(sys.modules.get(name), CASES_HOOK, None)
        if callable(hook):
            cases.extend(hook())
    return cases
