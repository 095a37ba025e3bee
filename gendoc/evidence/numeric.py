"""The audit's finite-difference evidence (Method 2) as one more source, read from its JSON form.

``gendoc.audit`` probes (input, output) pairs with onnx's reference
evaluator on the backend test cases. This module only reads the documented
JSON of that result (``NumericResult.to_dict()["operators"]``), so it does
not depend on the audit's internals. Per parameter: a stable nonzero slope
in any pair is ``GRADIENT``, zero in every probed pair ``ZERO``; pairs that
are not float, unstable or not evaluated give no vote. Finite differences
never refuse: a framework's refusal outranks them (see
:mod:`gendoc.evidence.verdict`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from gendoc.evidence.outcome import ParameterEvidence, SourceEvidence, Verdict, labelled
from gendoc.evidence.verdict import NUMERIC
from gendoc.model import Schema


def _verdict(classes: list[str]) -> tuple[Verdict, str]:
    if "nonzero" in classes:
        return Verdict.GRADIENT, "stable nonzero slope"
    if classes and all(c == "zero" for c in classes):
        return Verdict.ZERO, f"zero slope in all {len(classes)} probed pairs"
    return Verdict.NOT_APPLICABLE, "no float pair with a stable slope"


class NumericEvidence:
    """Finite-difference evidence of one audit run, by (domain, op, version)."""

    name = NUMERIC

    def __init__(self, operators: Iterable[Mapping[str, Any]]) -> None:
        self.by_version = {(o["domain"], o["op"], o["version"]): o for o in operators}
        self.status = f"finite differences of {len(self.by_version)} evaluated operator versions"

    def evaluate(self, schema: Schema) -> SourceEvidence:
        found = self.by_version.get((schema.domain, schema.name, schema.since_version))
        pairs = found["pairs"] if found else []
        params = []
        for kind, param in labelled(schema):
            key = "input" if kind == "input" else "output"
            classes = [p["class"] for p in pairs if p[key] == param.name]
            if found is None:
                verdict, why = Verdict.UNAVAILABLE, "no test case evaluated"
            else:
                verdict, why = _verdict(classes)
            params.append(ParameterEvidence(kind, param.name, verdict, why))
        cases = ", ".join(found["cases"][:3]) if found else ""
        return SourceEvidence(
            NUMERIC, schema.domain, schema.name, schema.since_version, tuple(params), cases
        )
