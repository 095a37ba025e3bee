"""The verdict in words: what each verdict rule reports, and one verdict said in one line.

:mod:`gendoc.evidence.verdict` and :mod:`gendoc.evidence.history` decide;
they name the rule that decided (:attr:`Suggestion.rule`) and hold the
votes as data. What a reader sees of a decision lives here, apart from the
rules, so that a rewording never touches a rule and a rule never hides a
message:

* :data:`REPORTS`: per rule, the audit finding it raises (``GD2xx``) and the
  finding's message template (``N_``-marked, translated) with its arguments
  taken from the suggestion; a rule without an entry raises no finding.
  :mod:`gendoc.audit.weigh` makes the findings, the benchmark that checks
  the evidence against onnx's tags prints them.
* :func:`describe_verdict`: a verdict in one English line with every vote
  (``source: verdict (detail)``), for ``gendoc suggest``'s tables and
  reasons and for the benchmarks.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from gendoc.catalogs.i18n import N_, Term
from gendoc.evidence.history import SchemaBasis
from gendoc.evidence.verdict import DIFF, NON_DIFF, WEIGHT, Strength, Suggestion, Vote

Args = dict[str, str | int | float]


def vote_text(vote: Vote) -> str:
    """``source: verdict (detail)``, with the basis in brackets where it does not weigh one
    full source (``[composite]``, ``[policy]``, ``[schema]``)."""
    shown = f"{vote.source}: {vote.verdict.value} ({vote.detail})"
    return shown if WEIGHT[vote.basis] == 1.0 else f"{shown} [{vote.basis.value}]"


def votes_text(votes: Iterable[Vote]) -> str:
    """Every vote as :func:`vote_text` shows it, separated by semicolons."""
    return "; ".join(map(vote_text, votes))


def sources_of(votes: Sequence[Vote]) -> list[str]:
    """The sources of ``votes``, each once, in order."""
    return list(dict.fromkeys(v.source for v in votes))


def names(votes: Sequence[Vote]) -> str:
    """``"pytorch, onnxruntime"``: the sources of ``votes`` as a finding shows them."""
    return ", ".join(sources_of(votes))


def describe_verdict(s: Suggestion) -> str:
    """One verdict in one line: the tag and its strength with the supporting votes, a
    dispute with both sides, or why there is none; ``[as GRU-22]`` where another version
    decided."""
    shared = ""
    if s.shared:
        shared = f" [as {s.shared}]"
        if "shared" not in s.rule:
            shared = f" [onnx's tag in {s.shared}]"
    if s.strength is Strength.DISPUTED:
        backing = votes_text(s.against) or "nothing of full weight"
        kind = s.kind.value if s.kind else ""
        return (
            f"disputed ({kind}): onnx tags it {s.current.value}; against the tag: "
            f"{votes_text(s.support)}; for the tag: {backing}{shared}"
        )
    if s.suggested is None:
        return "no evidence" if s.strength is Strength.NONE else "conflicting evidence"
    return f"{s.suggested.value} ({s.strength.value}: {votes_text(s.support)}){shared}"


@dataclass(frozen=True)
class Report:
    """What one rule reports: the audit finding ``finding`` (``GD2xx``), its ``message``
    template (``N_``-marked, translated) and ``args``, the template's arguments from the
    suggestion the rule made."""

    finding: str
    message: str
    args: Callable[[Suggestion], Args] = lambda s: {}


def _tag(s: Suggestion) -> str:
    return s.suggested.value if s.suggested else ""


def _for(s: Suggestion) -> Args:
    """The tag the supporting votes speak for, and their sources."""
    tag = s.support[0].tag if s.support else None
    return {"suggested": Term(tag.value) if tag else "", "sources": names(s.support)}


def _disputed(s: Suggestion) -> Args:
    return {**_for(s), "current": Term(s.current.value)}


def _shared(s: Suggestion) -> Args:
    return {"suggested": Term(_tag(s)), "where": s.shared, "sources": names(s.support)}


def _history(s: Suggestion) -> Args:
    """The tag the evidence finds, and the other tag, which onnx gives the parameter in
    another version."""
    if not s.support:
        return {"suggested": "", "tag": Term(""), "where": s.shared}
    found = s.support[0].tag
    other = NON_DIFF if found is DIFF else DIFF
    return {"suggested": Term(found.value), "tag": Term(other.value), "where": s.shared}


BASIS_TEXT = {
    SchemaBasis.NO_FLOAT_TYPE: N_("its types hold no floating-point value"),
    SchemaBasis.NO_DIFFERENTIABLE_INPUT: N_(
        "an output of an operator none of whose inputs can hold a floating-point value"
    ),
    SchemaBasis.NO_FLOAT_OUTPUT: N_(
        "an input of an operator none of whose outputs can hold a floating-point value"
    ),
    SchemaBasis.RANDOM_DRAW: N_("a parameter of an operator whose outputs are random draws"),
}
"""Why the schema alone decides, as the ``schema`` rule's finding says it."""

_SHARED = N_("undefined; {suggested} as {where}, whose mathematics is the same: {sources}")

REPORTS: dict[str, Report] = {
    # the rules of gendoc.evidence.verdict, in their order
    "no-evidence-undefined": Report("GD205", N_("undefined; no evidence")),
    "policy-only": Report(
        "GD203",
        N_(
            "{refusing} do not differentiate it, by framework policy; nothing measured "
            "contradicts the tag"
        ),
        lambda s: {"refusing": names(s.outranked)},
    ),
    "policy-alone": Report(
        "GD205",
        N_(
            "undefined; only policy ({sources}): a training shortcut or a declaration measures "
            "nothing, so no tag is suggested"
        ),
        lambda s: {"sources": names((*s.support, *s.against))},
    ),
    "outweighed": Report(
        "GD205",
        N_("undefined; {sources} for {suggested} outweigh {others}"),
        lambda s: {**_for(s), "others": names(s.against)},
    ),
    "conflict": Report(
        "GD205",
        N_(
            "undefined; conflicting evidence: {for_diff} for differentiable, "
            "{for_non} for non-differentiable"
        ),
        lambda s: {"for_diff": names(s.support), "for_non": names(s.against)},
    ),
    "agreed": Report(
        "GD204",
        N_("undefined; {count} independent sources agree on {suggested}: {sources}"),
        lambda s: {**_for(s), "count": len(sources_of(s.support))},
    ),
    "suggested": Report(
        "GD205", N_("undefined; weak evidence suggests {suggested}: {sources}"), _for
    ),
    "convention": Report(
        "GD207",
        N_(
            "a convention: tagged {current}; {sources} find {suggested} by the mathematics, "
            "{backing} treat it as a constant"
        ),
        lambda s: {**_disputed(s), "backing": names(s.against) or "-"},
    ),
    "contradicted": Report(
        "GD201",
        N_(
            "disputed: tagged {current}, but {count} independent sources find {suggested}: "
            "{sources}; nothing of full weight backs the tag"
        ),
        lambda s: {**_disputed(s), "count": len(sources_of(s.support))},
    ),
    "disputed": Report(
        "GD206",
        N_(
            "disputed: tagged {current}; {sources} find {suggested}, which outweighs "
            "{backing} backing the tag"
        ),
        lambda s: {**_disputed(s), "backing": names(s.against)},
    ),
    "questioned": Report(
        "GD202",
        N_("disputed: tagged {current}, but weak evidence finds {suggested}: {sources}"),
        _disputed,
    ),
    "refusal-set-aside": Report(
        "GD203",
        N_(
            "the tag agrees with {sources}; {refusing} do not differentiate it, "
            "which a gradient that exists outranks"
        ),
        lambda s: {"sources": names(s.support), "refusing": names(s.outranked)},
    ),
    # the rules gendoc.evidence.history.settle applies
    "schema": Report(
        "GD208",
        N_("undefined; the schema decides non-differentiable: {basis}"),
        lambda s: {"basis": Term(BASIS_TEXT[SchemaBasis(s.support[0].detail)])},
    ),
    "pass-through": Report(
        "GD208",
        N_("undefined; a value {op} passes through: {suggested}, as onnx tags it in {where}"),
        lambda s: {"op": s.op, "suggested": Term(_tag(s)), "where": s.shared},
    ),
    "shared": Report("GD204", _SHARED, _shared),
    "shared-weak": Report("GD205", _SHARED, _shared),
    "as-tagged": Report(
        "GD205",
        N_("undefined; no verdict of its own: {suggested}, as onnx tags it in {where}"),
        lambda s: {"suggested": Term(_tag(s)), "where": s.shared},
    ),
    "history": Report(
        "GD205",
        N_(
            "undefined; the evidence suggests {suggested}, but onnx tags it {tag} in {where} "
            "and nothing of the mathematics disputes that: no tag is suggested"
        ),
        _history,
    ),
}
"""What each rule that decided a suggestion reports, by the rule's name
(:attr:`Suggestion.rule`); the rules not listed (``no-evidence``, ``noted``,
``agrees``) raise no finding."""
