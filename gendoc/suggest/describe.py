"""The pull-request description that goes with the patch, and the full table beside it.

A reviewer of onnx must be able to re-check every tag without running gendoc.
The description (at most :data:`LIMIT` characters: GitHub refuses a body over
65,536) summarises: the changes by reason, the versions of every tool the
evidence came from, the command that reproduces the patch, the tags onnx set
that the evidence disputes, and each touched version left partly tagged with
the reason. Every parameter, with each source's own detail (the torch call,
the onnxruntime gradient builder and release) and where it is defined, is in
the separate table (``parameters.md``, and ``parameters.csv`` for a
spreadsheet). When a list would push the description over the limit, it is
cut and names the table.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence

from gendoc.evidence.verdict import DisputeKind, Strength, Suggestion, Vote
from gendoc.evidence.verdict_text import describe_verdict, votes_text
from gendoc.model.reference import ParameterRef, domain_label
from gendoc.suggest.decide import Change, LeftOut, Partial, Plan, SchemaKey
from gendoc.suggest.disputed import Dispute
from gendoc.suggest.provenance import Provenance

LIMIT = 60_000
"""The longest description written, in characters."""

TABLE = "parameters.md"

_MEANING = {
    Strength.STRONG: (
        "strong evidence (two or more independent sources agree; any that disagrees is outranked)"
    ),
    Strength.WEAK: "weak or strong evidence (at least one source; any that disagrees is outranked)",
}


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _version_name(key: SchemaKey) -> str:
    domain, op, version = key
    return f"{op}-{version}" + (f" ({domain_label(domain)})" if domain else "")


def _schema(s: Suggestion) -> str:
    return _version_name((s.domain, s.op, s.version))


def _param(parameter: ParameterRef) -> str:
    return f"{parameter.part.value} `{parameter.name}`"


def _votes(votes: Iterable[Vote]) -> str:
    """``source: verdict`` of each vote, without its detail, by source."""
    return ", ".join(f"{v.source}: {v.verdict.value}" for v in sorted(votes, key=_by_source))


def _by_source(vote: Vote) -> str:
    return vote.source


def _order(s: Suggestion) -> tuple[str, str, int]:
    return (s.domain, s.op, s.version)


def _reason(s: Suggestion) -> str:
    assert s.suggested is not None
    return f"{s.suggested.value}: {_votes(s.support)}"


def _changed(plan: Plan) -> list[Suggestion]:
    return sorted((s for c in plan.changes for s in c.suggestions), key=_order)


def _summary(plan: Plan) -> list[str]:
    by_reason: dict[str, list[Suggestion]] = {}
    for s in _changed(plan):
        by_reason.setdefault(_reason(s), []).append(s)
    lines = ["| Reason (tag: the votes that carry it) | Parameters | Operator versions |"]
    lines.append("|---|---|---|")
    for reason in sorted(by_reason, key=lambda r: (-len(by_reason[r]), r)):
        versions = list(dict.fromkeys(_schema(s) for s in by_reason[reason]))
        lines.append(f"| {reason} | {len(by_reason[reason])} | {', '.join(versions)} |")
    return lines if by_reason else ["None."]


def _per_version(plan: Plan) -> list[str]:
    by_version: dict[str, list[str]] = {}
    for s in _changed(plan):
        assert s.suggested is not None
        by_version.setdefault(_schema(s), []).append(f"{_param(s.parameter)} {s.suggested.value}")
    return [f"- {name}: {', '.join(params)}" for name, params in by_version.items()]


def _dispute(d: Dispute, detail: bool) -> str:
    s = d.suggestion
    show = votes_text if detail else _votes
    return (
        f"- {_schema(s)}, {_param(s.parameter)}: onnx says {s.current.value}; "
        f"against it: {show(d.disagreeing)}; with it: {show(d.agreeing) or 'no source'}"
    )


def _disputes(plan: Plan, detail: bool, most: int | None) -> list[str]:
    """The disputed tags, those the mathematics contradicts apart from the conventions
    (differentiable by the mathematics, kept constant by the frameworks)."""
    convention = [d for d in plan.disputed if d.suggestion.kind is DisputeKind.CONVENTION]
    math = [d for d in plan.disputed if d.suggestion.kind is not DisputeKind.CONVENTION]
    lines = [f"### The mathematics contradicts the tag ({len(math)})", ""]
    lines += _bounded([_dispute(d, detail) for d in math], most)
    lines += ["", f"### Conventions ({len(convention)})", ""]
    lines += _bounded([_dispute(d, detail) for d in convention], most)
    return lines


def _short(text: str, width: int = 200) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def _partial(p: Partial, detail: bool) -> str:
    fit = (lambda t: t) if detail else _short
    left = "; ".join(f"{_param(parameter)}: {fit(why)}" for parameter, why in p.undefined)
    return f"- {_version_name(p.key)} keeps {len(p.undefined)} undefined: {left}"


def _left_out(x: LeftOut, detail: bool) -> str:
    reason = x.reason if detail else _short(x.reason)
    return f"- {_schema(x.suggestion)}, {_param(x.suggestion.parameter)}: {reason}"


def _below(s: Suggestion, detail: bool) -> str:
    return f"- {_schema(s)}, {_param(s.parameter)}: " + (
        describe_verdict(s) if detail else _short(describe_verdict(s))
    )


def _bounded(items: Sequence[str], most: int | None) -> list[str]:
    if not items:
        return ["None."]
    if most is None or len(items) <= most:
        return list(items)
    return [*items[:most], f"- … and {len(items) - most} more: see `{TABLE}`"]


def _head(plan: Plan, min_evidence: Strength, provenance: Provenance) -> list[str]:
    changed = _changed(plan)
    versions = len({_order(s) for s in changed})
    lines = [
        "# Differentiability tags for undefined inputs and outputs",
        "",
        f"This sets the differentiation category of {len(changed)} inputs and outputs in "
        f"{versions} operator versions ({len(plan.changes)} `Input`/`Output` calls) of "
        f"onnx {provenance.onnx_version} whose category is not set, on {_MEANING[min_evidence]}. "
        "It changes no category onnx already sets: where the evidence disagrees with one, "
        "the parameter is listed under *Disputed* for a reviewer.",
    ]
    if provenance.documents:
        shown = ", ".join(f"`{d}`" for d in provenance.documents)
        lines += ["", f"The regenerated {shown} are included (as `gen_doc.py` writes them)."]
    lines += ["", "## Evidence", "", f"- onnx {provenance.onnx_version}"]
    lines += [f"- {line}" for line in provenance.sources]
    if provenance.commands:
        lines += ["", "## Reproduce", "", "```sh", *provenance.commands, "```"]
    if plan.not_considered:
        lines += [
            "",
            f"Only the newest version of each operator is considered: "
            f"{len(plan.not_considered)} parameters of older versions are not.",
        ]
    return lines


def describe(
    plan: Plan, min_evidence: Strength, provenance: Provenance, *, limit: int = LIMIT
) -> str:
    """The Markdown pull-request description of ``plan``, at most ``limit`` characters."""
    for most in (None, 400, 200, 100, 50, 20, 10, 0):
        text = _description(plan, min_evidence, provenance, most)
        if len(text) <= limit:
            return text
    return text[: limit - 60].rsplit("\n", 1)[0] + f"\n\n… cut at {limit} characters.\n"


def _description(
    plan: Plan, min_evidence: Strength, provenance: Provenance, most: int | None
) -> str:
    shared = [x for x in plan.left_out if x.shared]
    other = [x for x in plan.left_out if not x.shared]
    lines = _head(plan, min_evidence, provenance)
    lines += ["", "## Summary by reason", "", *_summary(plan)]
    lines += ["", f"## Changed versions ({len(_per_version(plan))})", ""]
    lines += _bounded(_per_version(plan), most)
    lines += [
        "",
        f"## Disputed ({len(plan.disputed)})",
        "",
        "Categories onnx sets that the evidence against them outweighs. Not changed: each is "
        "for a reviewer to confirm or correct. A convention is no error: the mathematics "
        "finds a slope, the frameworks keep the value constant.",
        "",
        *_disputes(plan, False, most),
    ]
    lines += ["", f"## Versions left partly tagged ({len(plan.partial)})", ""]
    lines += _bounded([_partial(p, False) for p in plan.partial], most)
    lines += ["", "## Left out", ""]
    lines += [f"### Shared definitions ({len(shared)})", ""]
    lines += _bounded([_left_out(x, False) for x in shared], most)
    lines += ["", f"### Other reasons ({len(other)})", ""]
    lines += _bounded([_left_out(x, False) for x in other], most)
    lines += ["", f"### Below the evidence required ({len(plan.below)})", ""]
    lines += _bounded([_below(s, False) for s in plan.below], most)
    lines += [
        "",
        f"Every parameter with each source's detail and where it is defined: `{TABLE}` "
        "(and `parameters.csv`). The guide's Method 1 scripts for the changed operators: "
        "`scripts/`.",
    ]
    return "\n".join(lines) + "\n"


def _rows(changes: Iterable[Change]) -> dict[SchemaKey, list[str]]:
    rows: dict[SchemaKey, list[str]] = {}
    for change in changes:
        where = f"`{change.call.where}`" + (f" in `{change.helper}`" if change.helper else "")
        for s in change.suggestions:
            assert s.suggested is not None
            row = (
                f"| {_param(s.parameter)} | {s.current.value} | {s.suggested.value} "
                f"| {s.strength.value} | {_cell(votes_text(s.support))} | {where} |"
            )
            rows.setdefault(_order(s), []).append(row)
    return rows


def _by_operator(key: SchemaKey) -> tuple[str, int]:
    """The table's order: by operator, then version (the same version of two domains keeps
    the plan's order)."""
    return (key[1], key[2])


def parameter_table(plan: Plan, provenance: Provenance) -> str:
    """Every changed parameter with its sources in full, then every list of the description."""
    rows = _rows(plan.changes)
    lines = [f"# Differentiability evidence for onnx {provenance.onnx_version}", ""]
    lines += [f"- {line}" for line in provenance.sources]
    lines += ["", "## Changed tags"]
    for key in sorted(rows, key=_by_operator):
        lines += ["", f"### {_version_name(key)}", ""]
        lines += ["| Parameter | Was | Now | Evidence | Sources | Defined at |"]
        lines += ["|---|---|---|---|---|---|", *rows[key]]
    if not rows:
        lines += ["", "None."]
    lines += ["", f"## Disputed ({len(plan.disputed)})", ""]
    lines += _disputes(plan, True, None)
    lines += ["", f"## Versions left partly tagged ({len(plan.partial)})", ""]
    lines += _bounded([_partial(p, True) for p in plan.partial], None)
    lines += ["", f"## Left out ({len(plan.left_out)})", ""]
    lines += _bounded([_left_out(x, True) for x in plan.left_out], None)
    lines += ["", f"## Below the evidence required ({len(plan.below)})", ""]
    lines += _bounded([_below(s, True) for s in plan.below], None)
    return "\n".join(lines) + "\n"


CSV_HEADER = (
    "domain",
    "operator",
    "version",
    "parameter",
    "onnx",
    "suggested",
    "strength",
    "outcome",
    "reason",
    "support",
    "against",
)


def parameter_csv(plan: Plan) -> str:
    """One row per parameter the plan speaks of: its tags, what the patch does and why."""
    rows: list[tuple[Suggestion, str, str]] = []
    rows += [(s, "changed", "") for s in _changed(plan)]
    rows += [(d.suggestion, "disputed", "onnx sets this category") for d in plan.disputed]
    rows += [(x.suggestion, "left out", x.reason) for x in plan.left_out]
    rows += [(s, "below", describe_verdict(s)) for s in plan.below]
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_HEADER)
    for s, outcome, reason in sorted(rows, key=lambda r: (*_order(r[0]), r[0].parameter)):
        writer.writerow(
            (
                domain_label(s.domain),
                s.op,
                s.version,
                str(s.parameter),
                s.current.value,
                s.suggested.value if s.suggested else "",
                s.strength.value,
                outcome,
                reason,
                votes_text(s.support),
                votes_text(s.against),
            )
        )
    return out.getvalue()
