"""``gendoc audit``: audit onnx's schemas plus those of the named modules, return the report.

The command line parses its options into these typed arguments, prints one
rendering of the report (:data:`gendoc.audit.report.FORMATTERS`) and exits with
its status for the ``--fail-on`` choice (:data:`FAIL_ON`); nothing here knows
about argparse or prints, so the same call works from Python.
"""

from __future__ import annotations

from collections.abc import Sequence

from gendoc.audit.entry import DEFAULT_OPTIONS, AuditOptions, audit
from gendoc.audit.findings import Severity
from gendoc.audit.report import AuditReport

__all__ = ["FAIL_ON", "run"]

FAIL_ON: dict[str, Severity | None] = {
    "error": Severity.ERROR,
    "warning": Severity.WARNING,
    "never": None,
}
"""The ``--fail-on`` choices: the least severe finding that fails, or never."""


def run(schemas: Sequence[str] = (), options: AuditOptions = DEFAULT_OPTIONS) -> AuditReport:
    """Audit the installed onnx's schemas plus those of ``schemas``.

    A progress bar goes to stderr when it is a terminal.
    """
    import gendoc.collect.schemas  # noqa: F401 - a one-line error when onnx is missing or too old

    return audit(schemas, options)
