"""The finite-difference evidence (Method 2) as one more source, read from its typed results.

:mod:`gendoc.evidence.pool` probes (input, output) pairs with onnx's
reference evaluator on the backend test cases; this module reads the
:class:`~gendoc.evidence.numeric.OperatorEvidence` of that run, pair classes
as :class:`~gendoc.evidence.numeric.PairClass`. :func:`read_slopes` is the one reading
of finite-difference results, for this source and for the numeric findings
of ``gendoc audit --numeric`` (:mod:`gendoc.audit.judge`) alike. Finite
differences never refuse; their stable slope (basis ``SLOPE``) outranks a
framework's refusal (see :mod:`gendoc.evidence.verdict`).
"""

from __future__ import annotations

from collections.abc import Iterable

from gendoc.catalogs.i18n import N_, NOTHING, Message, listed, quoted, say
from gendoc.evidence.interface import (
    Basis,
    ParameterEvidence,
    SourceEvidence,
    Verdict,
    unavailable,
)
from gendoc.evidence.numeric import OperatorEvidence, PairClass
from gendoc.evidence.source_registry import NUMERIC
from gendoc.model.reference import Part, Schema, labelled


def read_slopes(classes: Iterable[PairClass]) -> tuple[Verdict, Message]:
    """What the pair classes of one parameter say about it.

    A stable nonzero slope in any pair is ``GRADIENT``. Otherwise an unstable
    pair casts doubt on any zero: ``NOT_APPLICABLE``. Otherwise zero in every
    pair that was measured is ``ZERO``; pairs that are not float or were not
    evaluated say nothing, so with no measured pair it is ``NOT_APPLICABLE``.
    """
    found = list(classes)
    if PairClass.NONZERO in found:
        return Verdict.GRADIENT, say(N_("stable nonzero slope"))
    if PairClass.UNSTABLE in found:
        return Verdict.NOT_APPLICABLE, say(N_("the slope changes with the step size"))
    zeros = found.count(PairClass.ZERO)
    if zeros:
        return Verdict.ZERO, say(N_("zero slope in all {count} measured pairs"), count=zeros)
    return Verdict.NOT_APPLICABLE, say(N_("no float pair was measured"))


class NumericEvidence:
    """Finite-difference evidence of one audit run, by (domain, op, version)."""

    name = NUMERIC

    def __init__(self, operators: Iterable[OperatorEvidence]) -> None:
        self.by_version = {(o.domain, o.op, o.version): o for o in operators}
        self.status = say(
            N_("finite differences of {count} evaluated operator versions"),
            count=len(self.by_version),
        )

    def evaluate(self, schema: Schema) -> SourceEvidence:
        found = self.by_version.get((schema.domain, schema.name, schema.since_version))
        if found is None:
            return unavailable(NUMERIC, schema, say(N_("no test case evaluated")))
        params = []
        for ref, _ in labelled(schema):
            side = 0 if ref.part is Part.INPUT else 1
            pairs = (p.kind for p in found.pairs if (p.input, p.output)[side] == ref.name)
            verdict, why = read_slopes(pairs)
            params.append(ParameterEvidence(ref, verdict, why, Basis.SLOPE))
        cases = listed([quoted(c) for c in found.cases[:3]]) if found.cases else NOTHING
        return SourceEvidence(
            NUMERIC, schema.domain, schema.name, schema.since_version, tuple(params), cases
        )
