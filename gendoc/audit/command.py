"""``gendoc audit``: collect, audit, print, and exit according to ``--fail-on``."""

from __future__ import annotations

import argparse
import sys

from gendoc.audit import audit_reference, default_cases
from gendoc.audit.cases import module_cases
from gendoc.audit.report import FORMATTERS
from gendoc.collect import collect


def run(args: argparse.Namespace) -> int:
    """Exit status: 1 when a finding reaches ``--fail-on``, else 0."""
    reference = collect(args.schemas, with_examples=False)
    progress = sys.stderr.isatty()
    cases = None
    if args.numeric:
        extra = module_cases(args.schemas)
        if extra:
            scope = reference.scope(args.domain, args.op)
            cases = [*extra, *default_cases(scope, progress=progress)]
    report = audit_reference(
        reference,
        domains=args.domain,
        ops=args.op,
        numeric=args.numeric,
        max_seconds=args.max_seconds,
        jobs=args.jobs,
        progress=progress,
        cases=cases,
    )
    sys.stdout.write(FORMATTERS[args.format](report))
    return 1 if report.fails(args.fail_on) else 0
