"""How well the evidence sources judge the tags, against tests/evidence_oracle.csv.

Runs every source of :func:`gendoc.evidence.sources.default_sources` (and,
with ``--numeric``, the audit's finite differences) over the newest version
of every default-domain operator, combines them with the rule table of
:mod:`gendoc.evidence.verdict` and prints three figures:

precision
    of the reported tag problems that the table covers, the share where the
    table's expected tag is the suggested one;
recall
    of the table's tag problems (expected tag differs from a defined current
    tag), the share reported with the right suggestion;
agreement
    of the table's rows for parameters tagged ``undefined``, the share whose
    suggestion equals the expected tag (no suggestion counts as a miss).

    python benchmarks/evidence_accuracy.py [--numeric] [--jobs 2] [--verbose]
"""

from __future__ import annotations

import argparse
import csv
from pathlib import Path

from gendoc.collect import collect
from gendoc.evidence.outcome import EvidenceSource
from gendoc.evidence.sources import default_sources
from gendoc.evidence.verdict import Suggestion, combine
from gendoc.model import Differentiability

ORACLE = Path(__file__).resolve().parent.parent / "tests" / "evidence_oracle.csv"


def load_oracle(path: Path = ORACLE) -> dict[tuple[str, int, str], Differentiability]:
    with path.open(newline="", encoding="utf-8") as f:
        return {
            (row["operator"], int(row["version"]), row["parameter"]): Differentiability(
                row["expected"]
            )
            for row in csv.DictReader(f)
        }


def _numeric_source(jobs: int) -> EvidenceSource:
    from gendoc.audit import audit_reference
    from gendoc.evidence.numeric import NumericEvidence

    report = audit_reference(collect(), domains=["ai.onnx"], numeric=True, jobs=jobs)
    return NumericEvidence(report.numeric.to_dict()["operators"])


def suggestions(sources: list[EvidenceSource]) -> dict[tuple[str, int, str], Suggestion]:
    found = {}
    for operator in collect(with_examples=False).operators(""):
        schema = operator.latest
        for s in combine(schema, [source.evaluate(schema) for source in sources]):
            found[(s.op, s.version, s.parameter)] = s
    return found


def _share(hits: int, total: int) -> str:
    return f"{hits}/{total} = {hits / total:.1%}" if total else "0/0"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--numeric", action="store_true", help="add the finite differences")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--verbose", action="store_true", help="list every miss")
    args = parser.parse_args()

    sources = default_sources()
    if args.numeric:
        sources.append(_numeric_source(args.jobs))
    oracle = load_oracle()
    found = suggestions(sources)
    stale = sorted(key for key in oracle if key not in found)
    if stale:
        raise SystemExit(f"oracle rows with no such parameter at that version: {stale[:5]}")

    reported = [s for s in found.values() if s.is_problem]
    judged = [s for s in reported if (s.op, s.version, s.parameter) in oracle]
    right = [s for s in judged if oracle[(s.op, s.version, s.parameter)] is s.suggested]
    oracle_problems = [
        key
        for key, expected in oracle.items()
        if found[key].current not in (Differentiability.UNDEFINED, expected)
    ]
    recalled = [
        k for k in oracle_problems if found[k].is_problem and found[k].suggested is oracle[k]
    ]
    undefined = [k for k in oracle if found[k].current is Differentiability.UNDEFINED]
    agreed = [k for k in undefined if found[k].suggested is oracle[k]]

    print(f"sources: {', '.join(source.name for source in sources)}")
    print(f"oracle rows: {len(oracle)}; parameters judged: {len(found)}")
    print(f"reported tag problems: {len(reported)} ({len(judged)} covered by the oracle)")
    print(f"precision of reported tag problems: {_share(len(right), len(judged))}")
    print(f"recall of the oracle's tag problems: {_share(len(recalled), len(oracle_problems))}")
    print(f"agreement on undefined parameters:  {_share(len(agreed), len(undefined))}")
    if args.verbose:
        for s in reported:
            key = (s.op, s.version, s.parameter)
            mark = "?" if key not in oracle else ("ok" if s in right else "WRONG")
            print(
                f"  [{mark}] {s.op}-{s.version} {s.parameter}: {s.current.value} -> {s.describe()}"
            )
        for key in sorted(set(oracle_problems) - set(recalled)):
            print(f"  missed {key}: expected {oracle[key].value}, got {found[key].describe()}")
        for key in sorted(set(undefined) - set(agreed)):
            print(f"  undefined {key}: expected {oracle[key].value}, got {found[key].describe()}")


if __name__ == "__main__":
    main()
