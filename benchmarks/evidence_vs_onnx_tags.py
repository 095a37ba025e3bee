"""How often the evidence agrees with onnx's own reviewed tags, asked with the tags hidden.

The oracle is onnx itself: every parameter an onnx release tags differentiable
or non-differentiable, in every version of every operator of every domain
that has tags. Nobody here wrote those tags, and no source sees them: each
source of ``gendoc audit --evidence`` (PyTorch, from its record or live;
onnxruntime's gradient registry; unless ``--no-numeric``, the finite
differences, run on the same tag-less model) is asked about the schema with
every tag removed (:func:`gendoc.evidence.interface.untagged`). The script
checks that too: it asks every source again with the tags in place and stops
if any answer differs.

Printed: per source and for the combined verdict (the rule registry of
:mod:`gendoc.evidence.verdict` over all sources, as for an undefined
parameter, settled per history and family by :mod:`gendoc.evidence.history`),
how many tags it agrees with, disagrees with, or gives no verdict for; then
every disagreement of the combined verdict, for review: each is an error in
onnx's tags or in the evidence.

Then, with onnx's tags in place, what ``gendoc audit --evidence`` reports:
the disputes of tags onnx set, by kind (the mathematics contradicts the tag,
or a convention); every undefined parameter that gets no verdict, with the
reason; and every suggestion for an undefined parameter that contradicts
onnx's tag of the same parameter in another version of the operator, split
by whether that tag is itself disputed by the mathematics.

    python benchmarks/evidence_vs_onnx_tags.py [--no-numeric] [--jobs 2] [--max-seconds S]
        [--per-source]

The finite differences take most of the time (about 4 minutes with two
workers on a busy 2-core machine, the last line says how long);
``--no-numeric`` takes seconds, ``--max-seconds`` bounds the numeric run.
"""

from __future__ import annotations

import argparse
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace

from gendoc.audit import AuditOptions, audit_reference
from gendoc.catalogs.i18n import say
from gendoc.collect.schemas import collect
from gendoc.evidence.history import settle
from gendoc.evidence.interface import EvidenceSource, SourceEvidence, untagged
from gendoc.evidence.numeric_source import NumericEvidence
from gendoc.evidence.sources import default_sources
from gendoc.evidence.verdict import TAG_OF, DisputeKind, Strength, Suggestion, combine
from gendoc.evidence.verdict_text import REPORTS, describe_verdict
from gendoc.model.reference import Differentiability, Reference, Schema, labelled

UNDEFINED = Differentiability.UNDEFINED
COMBINED = "combined"
OUTCOMES = ("agree", "disagree", "no verdict")


def numeric_source(
    reference: Reference, jobs: int, max_seconds: float | None = None
) -> NumericEvidence:
    """The finite differences of ``gendoc audit --numeric`` over the tag-less model."""
    options = AuditOptions(numeric=True, jobs=jobs, max_seconds=max_seconds)
    report = audit_reference(reference, options)
    assert report.numeric is not None
    return NumericEvidence(report.numeric.operators)


def _outcome(tag: Differentiability, said: Differentiability | None) -> str:
    if said is None:
        return "no verdict"
    return "agree" if said is tag else "disagree"


def ask(source: EvidenceSource, tagged: Schema, bare: Schema) -> SourceEvidence:
    """The source's answer on the tag-less schema, after checking it ignores the tags."""
    answer = source.evaluate(bare)
    if source.evaluate(tagged) != answer:
        raise SystemExit(f"{source.name} answers differently when it sees the tags of {tagged}")
    return answer


def _where(schema: Schema) -> str:
    return f"{schema.domain or 'ai.onnx'} {schema.name}-{schema.since_version}"


def score(
    schemas: Sequence[Schema], sources: Sequence[EvidenceSource]
) -> tuple[dict[str, Counter[str]], list[str], list[str]]:
    """Counts per source (and combined) of agree/disagree/no verdict; the disagreements of the
    combined verdict and those of each source, as lines to print. Every schema is asked with
    its tags removed; the tagged ones are scored."""
    counts: dict[str, Counter[str]] = {s.name: Counter() for s in sources}
    counts[COMBINED] = Counter()
    strengths: Counter[str] = Counter()
    disagreements: list[str] = []
    by_source: list[str] = []
    asked = []
    for tagged in schemas:
        bare = untagged(tagged)
        evidence = [ask(source, tagged, bare) for source in sources]
        asked.append((tagged, bare, evidence))
    settled = settle([(bare, combine(bare, evidence)) for _, bare, evidence in asked])
    for (tagged, _, evidence), combined in zip(asked, settled, strict=True):
        tags = {ref: p.differentiability for ref, p in labelled(tagged)}
        if all(tag is UNDEFINED for tag in tags.values()):
            continue
        where = _where(tagged)
        for e in evidence:
            for p in e.parameters:
                tag = tags[p.parameter]
                if tag is UNDEFINED:
                    continue
                outcome = _outcome(tag, TAG_OF.get(p.verdict))
                counts[e.source][outcome] += 1
                if outcome == "disagree":
                    by_source.append(
                        f"  {e.source} {where} {p.parameter}: onnx {tag.value}; "
                        f"{p.verdict.value} [{p.basis.value}] ({p.detail})"
                    )
        for s in combined:
            tag = tags[s.parameter]
            if tag is UNDEFINED:
                continue
            outcome = _outcome(tag, s.suggested)
            counts[COMBINED][outcome] += 1
            if s.suggested is not None:
                strengths[f"{s.strength.value} {outcome}"] += 1
            if outcome == "disagree":
                disagreements.append(
                    f"  {where} {s.parameter}: onnx {tag.value}; evidence {describe_verdict(s)}"
                )
    counts["combined, strong"] = Counter(
        {o: strengths[f"{Strength.STRONG.value} {o}"] for o in OUTCOMES[:2]}
    )
    counts["combined, weak"] = Counter(
        {o: strengths[f"{Strength.WEAK.value} {o}"] for o in OUTCOMES[:2]}
    )
    return counts, disagreements, by_source


def _share(part: int, counts: Counter[str]) -> str:
    total = sum(counts.values())
    return f"{part} ({part / total:.1%})" if total else "0"


def print_counts(counts: dict[str, Counter[str]]) -> None:
    print(f"{'':20} {'agree':>16} {'disagree':>16} {'no verdict':>16}")
    for name, found in counts.items():
        cells = [_share(found[o], found) for o in OUTCOMES]
        if name.startswith("combined, "):
            cells[2] = "-"
        print(f"{name:20} {cells[0]:>16} {cells[1]:>16} {cells[2]:>16}")


def with_tags(
    schemas: Sequence[Schema], sources: Sequence[EvidenceSource]
) -> list[tuple[Schema, list[Suggestion]]]:
    """Every schema weighed with onnx's tags in place, settled: what the audit reports."""
    weighed = [(s, combine(s, [source.evaluate(s) for source in sources])) for s in schemas]
    return list(zip(schemas, settle(weighed), strict=True))


def print_disputes(found: Sequence[tuple[Schema, list[Suggestion]]]) -> None:
    disputes = [(schema, s) for schema, ss in found for s in ss if s.is_problem]
    kinds = Counter(s.kind for _, s in disputes)
    print(
        f"disputes of onnx's tags ({len(disputes)}): "
        + ", ".join(f"{kind.value} {kinds[kind]}" for kind in DisputeKind)
    )
    for kind in DisputeKind:
        print(f" {kind.value} ({kinds[kind]}):")
        for schema, s in disputes:
            if s.kind is kind:
                print(f"  {_where(schema)} {s.parameter} [{s.rule}]: {describe_verdict(s)}")


def print_undecided(found: Sequence[tuple[Schema, list[Suggestion]]]) -> None:
    undecided = [
        (schema, s)
        for schema, ss in found
        for s in ss
        if s.current is UNDEFINED and s.suggested is None
    ]
    undefined = sum(1 for _, ss in found for s in ss if s.current is UNDEFINED)
    reasons = Counter(s.rule for _, s in undecided)
    print(
        f"undefined parameters with no verdict: {len(undecided)} of {undefined} undefined ("
        + ", ".join(f"{rule} {n}" for rule, n in sorted(reasons.items()))
        + ")"
    )
    for schema, s in undecided:
        report = REPORTS.get(s.rule)
        reason = say(report.message, **report.args(s)).text if report else describe_verdict(s)
        print(f"  {_where(schema)} {s.parameter} [{s.rule}]: {reason}")


def print_history(found: Sequence[tuple[Schema, list[Suggestion]]]) -> None:
    """Suggestions for an undefined parameter against onnx's tag of it in another version."""
    by_param: dict[tuple[str, str, object], list[Suggestion]] = {}
    for schema, ss in found:
        for s in ss:
            by_param.setdefault((schema.domain, schema.name, s.parameter), []).append(s)
    lines = {"disputed": [], "not disputed": []}
    for versions in by_param.values():
        for s in versions:
            if s.current is not UNDEFINED or s.suggested is None:
                continue
            for other in versions:
                if other.current is UNDEFINED or other.current is s.suggested:
                    continue
                side = "disputed" if other.is_math_dispute else "not disputed"
                lines[side].append(
                    f"  {s.op}-{s.version} {s.parameter}: suggested {s.suggested.value}; "
                    f"onnx tags it {other.current.value} in {other.op}-{other.version}"
                )
                break
    print(
        "suggestions contradicting onnx's tag in another version: "
        + ", ".join(f"{side} {len(found)}" for side, found in lines.items())
    )
    for side, found_lines in lines.items():
        if found_lines:
            print(f" {side}:")
            print("\n".join(found_lines))


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--no-numeric", action="store_true", help="leave out finite differences")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes of the numeric run")
    parser.add_argument(
        "--max-seconds",
        type=float,
        help="time budget of the numeric run (the figures then depend on the machine)",
    )
    parser.add_argument("--per-source", action="store_true", help="list each source's misses")
    args = parser.parse_args()

    began = time.perf_counter()
    reference = collect(with_examples=False)
    bare = replace(reference, schemas=tuple(untagged(s) for s in reference.schemas))
    sources: list[EvidenceSource] = default_sources()
    if not args.no_numeric:
        sources.append(numeric_source(bare, args.jobs, args.max_seconds))
    tagged = [
        s
        for s in reference.schemas
        if any(p.differentiability is not UNDEFINED for p in s.parameters)
    ]
    parameters = sum(
        1 for s in tagged for _, p in labelled(s) if p.differentiability is not UNDEFINED
    )
    domains = sorted({s.domain or "ai.onnx" for s in tagged})
    print(
        f"onnx {reference.onnx_version}: {parameters} tagged parameters in {len(tagged)} "
        f"operator versions ({', '.join(domains)})"
    )
    counts, disagreements, by_source = score(reference.schemas, sources)
    print(f"tags hidden: every source answered {len(tagged)} operator versions alike without them")
    print("sources: " + "; ".join(f"{s.name}: {s.status.text}" for s in sources))
    print_counts(counts)
    print(f"disagreements of the combined verdict with onnx's tag ({len(disagreements)}):")
    print("\n".join(disagreements))
    if args.per_source:
        print(f"disagreements of each source with onnx's tag ({len(by_source)}):")
        print("\n".join(by_source))
    found = with_tags(reference.schemas, sources)
    print_disputes(found)
    print_undecided(found)
    print_history(found)
    print(f"time: {time.perf_counter() - began:.1f} s")


if __name__ == "__main__":
    main()
