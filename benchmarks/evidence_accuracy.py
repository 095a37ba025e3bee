"""How well the evidence sources judge the tags, against tests/evidence_oracle.csv.

Runs every source of :func:`gendoc.evidence.sources.default_sources` (and,
with ``--numeric``, the audit's finite differences) over the newest version
of every default-domain operator, combines them with the rule table of
:mod:`gendoc.evidence.verdict` and prints three figures, then the same three
for the combined verdict of ``gendoc audit --evidence`` (its GD2xx findings):

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
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from gendoc.audit import AuditOptions, audit_reference
from gendoc.collect import collect
from gendoc.evidence.outcome import EvidenceSource
from gendoc.evidence.sources import default_sources
from gendoc.evidence.verdict import Suggestion, combine
from gendoc.model import Differentiability

UNDEFINED = Differentiability.UNDEFINED

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
    from gendoc.evidence.numeric import NumericEvidence

    report = audit_reference(collect(), AuditOptions(domains=["ai.onnx"], numeric=True, jobs=jobs))
    return NumericEvidence(report.numeric.to_dict()["operators"])


def suggestions(sources: list[EvidenceSource]) -> dict[tuple[str, int, str], Suggestion]:
    found = {}
    for operator in collect(with_examples=False).operators(""):
        schema = operator.latest
        for s in combine(schema, [source.evaluate(schema) for source in sources]):
            found[(s.op, s.version, s.parameter)] = s
    return found


@dataclass(frozen=True)
class Verdict:
    """One parameter as a verdict states it: its tag now and the suggested one (or none)."""

    current: Differentiability
    suggested: Differentiability | None

    @property
    def is_problem(self) -> bool:
        return self.current is not Differentiability.UNDEFINED and self.suggested not in (
            None,
            self.current,
        )


def audit_verdicts(numeric: bool, jobs: int) -> dict[tuple[str, int, str], Verdict]:
    """What ``gendoc audit --evidence`` says about every parameter of the newest versions.

    A parameter without a GD2xx finding is one whose tag the evidence does not
    contradict; it is counted as suggesting its own tag.
    """
    reference = collect(with_examples=False)
    report = audit_reference(
        reference, AuditOptions(domains=["ai.onnx"], numeric=numeric, evidence=True, jobs=jobs)
    )
    found = {
        (f.op, f.version, str(f.parameter)): f for f in report.findings if f.rule.startswith("GD2")
    }
    verdicts = {}
    for operator in reference.operators(""):
        schema = operator.latest
        for param, label in [(p, f"input {p.name}") for p in schema.inputs] + [
            (p, f"output {p.name}") for p in schema.outputs
        ]:
            key = (schema.name, schema.since_version, label)
            finding = found.get(key)
            current = param.differentiability
            suggested = finding.suggested if finding else None
            if finding is None and current is not Differentiability.UNDEFINED:
                suggested = current
            verdicts[key] = Verdict(current, suggested)
    return verdicts


def figures(
    oracle: dict[tuple[str, int, str], Differentiability],
    found: Mapping[tuple[str, int, str], Suggestion | Verdict],
    verbose: bool,
) -> None:
    """Print precision, recall and agreement of ``found`` against the oracle."""
    stale = sorted(key for key in oracle if key not in found)
    if stale:
        raise SystemExit(f"oracle rows with no such parameter at that version: {stale[:5]}")
    reported = [k for k, v in found.items() if v.is_problem]
    judged = [k for k in reported if k in oracle]
    right = [k for k in judged if oracle[k] is found[k].suggested]
    oracle_problems = [
        k for k, expected in oracle.items() if found[k].current not in (UNDEFINED, expected)
    ]
    recalled = [
        k for k in oracle_problems if found[k].is_problem and found[k].suggested is oracle[k]
    ]
    undefined = [k for k in oracle if found[k].current is UNDEFINED]
    agreed = [k for k in undefined if found[k].suggested is oracle[k]]
    print(f"reported tag problems: {len(reported)} ({len(judged)} covered by the oracle)")
    print(f"precision of reported tag problems: {_share(len(right), len(judged))}")
    print(f"recall of the oracle's tag problems: {_share(len(recalled), len(oracle_problems))}")
    print(f"agreement on undefined parameters:  {_share(len(agreed), len(undefined))}")
    if verbose:
        for key in reported:
            mark = "?" if key not in oracle else ("ok" if key in right else "WRONG")
            v = found[key]
            print(f"  [{mark}] {key}: {v.current.value} -> {v.suggested.value}")
        for key in sorted(set(oracle_problems) - set(recalled)):
            print(f"  missed {key}: expected {oracle[key].value}, got {found[key].suggested}")
        for key in sorted(set(undefined) - set(agreed)):
            print(f"  undefined {key}: expected {oracle[key].value}, got {found[key].suggested}")


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
    print(f"oracle rows: {len(oracle)}")
    print(f"rule table over sources: {', '.join(source.name for source in sources)}")
    figures(oracle, suggestions(sources), args.verbose)
    print(f"gendoc audit --evidence{' --numeric' if args.numeric else ''}: combined verdict")
    figures(oracle, audit_verdicts(args.numeric, args.jobs), args.verbose)


if __name__ == "__main__":
    main()
