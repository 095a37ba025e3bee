"""What an audit reports: the catalogue of rules and the findings they raise.

Rule ids are stable: the site links to them, CI logs grep for them and a
reviewer quotes them, so an id is never reused for a different check. Static
lints use ``GD0xx``, numeric evidence ``GD1xx``, the verdict of every
evidence source weighed together ``GD2xx``.

Rule titles and finding messages are English templates marked with ``N_``
(see :mod:`gendoc.audit.messages`): a finding keeps the template and its
arguments, so a page in another language can translate it.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from gendoc.audit.messages import N_, Arg, Message, say
from gendoc.model.reference import Differentiability, ParameterRef


class Severity(enum.StrEnum):
    """How much a finding should worry a reviewer; ``rank`` orders them."""

    ERROR = "error"
    WARNING = "warning"
    INFO = "info"

    @property
    def rank(self) -> int:
        return _RANK[self]


_RANK = {Severity.ERROR: 0, Severity.WARNING: 1, Severity.INFO: 2}


@dataclass(frozen=True)
class Rule:
    """One check: its stable id, its severity and a one-line explanation.

    ``title`` is English and its own message id (it has no placeholders).
    ``numeric``: raised by the finite differences; ``evidence``: by the
    verdict of every evidence source (``--evidence``); neither: a static lint.
    """

    id: str
    severity: Severity
    title: str
    numeric: bool = False
    evidence: bool = False


RULES: dict[str, Rule] = {
    rule.id: rule
    for rule in (
        Rule(
            "GD001",
            Severity.ERROR,
            N_(
                "a parameter tagged differentiable whose types hold no floating-point or "
                "complex value"
            ),
        ),
        Rule(
            "GD002",
            Severity.ERROR,
            N_("an operator version with a differentiable input but no differentiable output"),
        ),
        Rule(
            "GD003",
            Severity.ERROR,
            N_("an operator version with a differentiable output but no differentiable input"),
        ),
        Rule(
            "GD004",
            Severity.WARNING,
            N_("an operator version where some parameters are tagged and others undefined"),
        ),
        Rule(
            "GD005",
            Severity.INFO,
            N_(
                "a parameter whose tag flips between differentiable and non-differentiable "
                "from one version to the next"
            ),
        ),
        Rule(
            "GD006",
            Severity.WARNING,
            N_("a parameter tagged in the previous version of its operator but undefined now"),
        ),
        Rule(
            "GD007",
            Severity.INFO,
            N_(
                "an undefined parameter whose types hold no floating-point value: "
                "non-differentiable is the likely tag"
            ),
        ),
        Rule(
            "GD008",
            Severity.INFO,
            N_("an operator version whose floating-point parameters are all undefined"),
        ),
        Rule(
            "GD009",
            Severity.WARNING,
            N_(
                "parameters with the same role in an operator family (RNN, GRU, LSTM) "
                "tagged differently"
            ),
        ),
        Rule(
            "GD010",
            Severity.WARNING,
            N_(
                "an output of a piecewise-constant operator (Round, Sign, Floor, Ceil, "
                "Hardmax) tagged differentiable"
            ),
        ),
        Rule(
            "GD101",
            Severity.WARNING,
            N_("tagged non-differentiable, but finite differences find a stable nonzero Jacobian"),
            numeric=True,
        ),
        Rule(
            "GD102",
            Severity.WARNING,
            N_(
                "tagged differentiable, but finite differences find a zero Jacobian everywhere "
                "probed"
            ),
            numeric=True,
        ),
        Rule(
            "GD103",
            Severity.INFO,
            N_("an undefined parameter for which finite differences suggest a tag"),
            numeric=True,
        ),
        Rule(
            "GD201",
            Severity.ERROR,
            N_(
                "a tag disputed by two or more agreeing independent sources, with nothing of "
                "full weight backing it"
            ),
            evidence=True,
        ),
        Rule(
            "GD202",
            Severity.WARNING,
            N_("a tag disputed by weak evidence alone (one source, or a composite or policy)"),
            evidence=True,
        ),
        Rule(
            "GD203",
            Severity.INFO,
            N_(
                "a parameter a framework does not differentiate, by its policy, while nothing "
                "measured contradicts the tag (the refusal is set aside)"
            ),
            evidence=True,
        ),
        Rule(
            "GD204",
            Severity.WARNING,
            N_("an undefined parameter for which two or more independent sources agree on a tag"),
            evidence=True,
        ),
        Rule(
            "GD205",
            Severity.INFO,
            N_("an undefined parameter with a suggested tag from weak evidence, or no evidence"),
            evidence=True,
        ),
        Rule(
            "GD206",
            Severity.WARNING,
            N_(
                "a tag disputed by evidence that outweighs the sources backing it: both sides, "
                "for a reviewer"
            ),
            evidence=True,
        ),
        Rule(
            "GD207",
            Severity.INFO,
            N_(
                "a convention: differentiable by the mathematics, treated as a constant by the "
                "frameworks (never an error or a warning)"
            ),
            evidence=True,
        ),
        Rule(
            "GD208",
            Severity.WARNING,
            N_(
                "an undefined parameter the schema decides: no floating-point type, no "
                "floating-point value on the other side, or a value a control-flow operator "
                "passes through, tagged in its other versions"
            ),
            evidence=True,
        ),
    )
}


@dataclass(frozen=True)
class SourceVerdict:
    """What one evidence source says about a finding's parameter (rules ``GD2xx``).

    ``verdict`` is a :class:`gendoc.evidence.interface.Verdict` value; ``detail``
    is the source's own one-line reason (torch's words, a builder name),
    kept in English like any quoted output.
    """

    source: str
    verdict: str
    detail: str

    def to_dict(self) -> dict[str, str]:
        return {"source": self.source, "verdict": self.verdict, "detail": self.detail}


@dataclass(frozen=True)
class Finding:
    """One problem (or observation) about one operator version.

    ``domain`` is the model's domain (``""`` for the default one, shown as
    ``ai.onnx``). ``parameter`` names the input or output the finding is
    about, ``None`` for one about the whole version. ``text`` is the
    translatable message: ``message_id`` and ``args`` give a translation,
    ``message`` the English. Findings of the evidence verdict (``GD2xx``)
    carry the ``suggested`` tag (``None``: no evidence) and every source's
    vote in ``evidence``.
    """

    rule: str
    severity: Severity
    domain: str
    op: str
    version: int
    parameter: ParameterRef | None
    text: Message
    suggested: Differentiability | None = None
    evidence: tuple[SourceVerdict, ...] = ()

    @property
    def message_id(self) -> str:
        return self.text.id

    @property
    def args(self) -> dict[str, Arg]:
        return self.text.args

    @property
    def message(self) -> str:
        """The English message."""
        return self.text.text

    def sort_key(self) -> tuple[int, str, str, int, str, str, str]:
        """Worst first, then by operator, so a reader meets errors before info."""
        return (
            self.severity.rank,
            self.domain,
            self.op,
            self.version,
            self.rule,
            str(self.parameter or ""),
            self.message,
        )

    def to_dict(self) -> dict[str, object]:
        """The JSON form: the parameter as its English label and as part and name, the
        English message and what translates it."""
        return {
            "rule": self.rule,
            "severity": self.severity.value,
            "domain": self.domain,
            "op": self.op,
            "version": self.version,
            "parameter": str(self.parameter) if self.parameter else None,
            "part": self.parameter.part.value if self.parameter else None,
            "name": self.parameter.name if self.parameter else None,
            **self.text.to_dict(),
            "suggested": self.suggested.value if self.suggested else None,
            "evidence": [vote.to_dict() for vote in self.evidence],
        }


def make_finding(
    rule_id: str,
    domain: str,
    op: str,
    version: int,
    parameter: ParameterRef | None,
    template: str,
    **args: Arg,
) -> Finding:
    """A finding whose severity comes from the catalogue, never from the caller."""
    message = say(template, **args)
    return Finding(rule_id, RULES[rule_id].severity, domain, op, version, parameter, message)
