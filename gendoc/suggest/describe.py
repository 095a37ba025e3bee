"""The pull-request description that goes with the patch: what changed, on what evidence.

A reviewer of onnx must be able to re-check every tag without running gendoc,
so each row names its sources with their own detail (the torch call, the
onnxruntime gradient builder and release), and everything the evidence asked
for that the patch does not carry is listed with its reason.
"""

from __future__ import annotations

from collections.abc import Iterable

from gendoc.evidence.verdict import Strength, Suggestion
from gendoc.model import domain_label
from gendoc.suggest.plan import Change, LeftOut, Plan

_MEANING = {
    Strength.STRONG: (
        "strong (two or more independent sources agree; any that disagrees is outranked)"
    ),
    Strength.WEAK: "weak or strong (at least one source; any that disagrees is outranked)",
}


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _schema(s: Suggestion) -> str:
    return f"{s.op}-{s.version}" + (f" ({domain_label(s.domain)})" if s.domain else "")


def _param(s: Suggestion) -> str:
    kind, name = s.parameter.split(" ", 1)
    return f"{kind} `{name}`"


def _rows(changes: Iterable[Change]) -> dict[str, list[str]]:
    rows: dict[str, list[str]] = {}
    for change in changes:
        where = f"`{change.call.where}`" + (f" in `{change.helper}`" if change.helper else "")
        for s in change.suggestions:
            assert s.suggested is not None
            row = (
                f"| {_param(s)} | {s.current.value} | {s.suggested.value} | {s.strength.value} "
                f"| {_cell('; '.join(map(str, s.support)))} | {where} |"
            )
            rows.setdefault(_schema(s), []).append(row)
    return rows


def _order(name: str) -> tuple[str, int]:
    op, _, version = name.partition(" ")[0].rpartition("-")
    return (op, int(version))


def _left_out(left: Iterable[LeftOut]) -> list[str]:
    return [f"- {_schema(x.suggestion)}, {_param(x.suggestion)}: {x.reason}" for x in left]


def describe(plan: Plan, min_evidence: Strength, *, onnx_version: str) -> str:
    """A Markdown pull-request description of ``plan``."""
    rows = _rows(plan.changes)
    tagged = sum(len(c.suggestions) for c in plan.changes)
    shared = [x for x in plan.left_out if x.reason.startswith("shared definition")]
    other = [x for x in plan.left_out if not x.reason.startswith("shared definition")]
    lines = [
        "# Differentiability tags from independent gradient evidence",
        "",
        f"This sets the differentiation category of {tagged} inputs and outputs in "
        f"{len(rows)} operator versions ({len(plan.changes)} `Input`/`Output` calls) "
        f"of onnx {onnx_version}. A tag changes only on {_MEANING[min_evidence]}; "
        "the sources are PyTorch autograd and onnxruntime's training gradient registry, "
        "each cited below so that every tag can be re-checked.",
        "",
        "## Changed tags",
    ]
    for name in sorted(rows, key=_order):
        lines += ["", f"### {name}", ""]
        lines += ["| Parameter | Was | Now | Evidence | Sources | Defined at |"]
        lines += ["|---|---|---|---|---|---|", *rows[name]]
    if not rows:
        lines += ["", "None."]
    lines += ["", "## Left out", ""]
    lines += [f"### Shared definitions ({len(shared)})", "", *(_left_out(shared) or ["None."])]
    lines += ["", f"### Other reasons ({len(other)})", "", *(_left_out(other) or ["None."])]
    lines += ["", f"### Below the evidence required ({len(plan.below)})", ""]
    lines += [f"- {_schema(s)}, {_param(s)}: {s.describe()}" for s in plan.below] or ["None."]
    return "\n".join(lines) + "\n"
