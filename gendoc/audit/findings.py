"""What an audit reports: the catalogue of rules and the findings they raise.

Rule ids are stable: the site links to them, CI logs grep for them and a
reviewer quotes them, so an id is never reused for a different check. Static
lints use ``GD0xx``, numeric evidence ``GD1xx``.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from gendoc.model import domain_label


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
    """One check: its stable id, its severity and a one-line explanation."""

    id: str
    severity: Severity
    title: str
    numeric: bool = False


RULES: dict[str, Rule] = {
    rule.id: rule
    for rule in (
        Rule(
            "GD001",
            Severity.ERROR,
            "a parameter tagged differentiable whose types hold no floating-point or complex value",
        ),
        Rule(
            "GD002",
            Severity.ERROR,
            "an operator version with a differentiable input but no differentiable output",
        ),
        Rule(
            "GD003",
            Severity.ERROR,
            "an operator version with a differentiable output but no differentiable input",
        ),
        Rule(
            "GD004",
            Severity.WARNING,
            "an operator version where some parameters are tagged and others undefined",
        ),
        Rule(
            "GD005",
            Severity.INFO,
            "a parameter whose tag flips between differentiable and non-differentiable "
            "from one version to the next",
        ),
        Rule(
            "GD006",
            Severity.WARNING,
            "a parameter tagged in the previous version of its operator but undefined now",
        ),
        Rule(
            "GD007",
            Severity.INFO,
            "an undefined parameter whose types hold no floating-point value: "
            "non-differentiable is the likely tag",
        ),
        Rule(
            "GD101",
            Severity.WARNING,
            "tagged non-differentiable, but finite differences find a stable nonzero Jacobian",
            numeric=True,
        ),
        Rule(
            "GD102",
            Severity.WARNING,
            "tagged differentiable, but finite differences find a zero Jacobian everywhere probed",
            numeric=True,
        ),
        Rule(
            "GD103",
            Severity.INFO,
            "an undefined parameter for which finite differences suggest a tag",
            numeric=True,
        ),
    )
}


@dataclass(frozen=True)
class Finding:
    """One problem (or observation) about one operator version.

    ``domain`` is the model's domain (``""`` for the default one, shown as
    ``ai.onnx``). ``parameter`` is ``"input X"`` or ``"output Y"`` for a
    finding about one parameter and ``None`` for one about the whole version.
    """

    rule: str
    severity: Severity
    domain: str
    op: str
    version: int
    parameter: str | None
    message: str

    @property
    def location(self) -> str:
        where = f"{domain_label(self.domain)} {self.op}-{self.version}"
        return f"{where} {self.parameter}" if self.parameter else where

    def sort_key(self) -> tuple[int, str, str, int, str, str, str]:
        """Worst first, then by operator, so a reader meets errors before info."""
        return (
            self.severity.rank,
            self.domain,
            self.op,
            self.version,
            self.rule,
            self.parameter or "",
            self.message,
        )

    def to_dict(self) -> dict[str, object]:
        return {
            "rule": self.rule,
            "severity": self.severity.value,
            "domain": self.domain,
            "op": self.op,
            "version": self.version,
            "parameter": self.parameter,
            "message": self.message,
        }


def make_finding(
    rule_id: str, domain: str, op: str, version: int, parameter: str | None, message: str
) -> Finding:
    """A finding whose severity comes from the catalogue, never from the caller."""
    return Finding(rule_id, RULES[rule_id].severity, domain, op, version, parameter, message)


def parameter_label(kind: str, name: str) -> str:
    """``kind`` is ``"input"`` or ``"output"``."""
    return f"{kind} {name}"
