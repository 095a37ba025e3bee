"""The matrix page of each domain: its operators by runtime (onnxruntime's kernel per
execution provider, onnx's backend tests per backend), from
:mod:`gendoc.runtime.operator_support`, the data the operator pages' "Runs on" tables show,
filterable by operator set.

The table has a row per operator version, marked with the operator sets it is in effect in;
the page shows the newest set's rows, and a select (shown by the site's script) shows another
set's instead. Without the script, the page is the newest set's table.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from gendoc.model.reference import Schema
from gendoc.runtime.operator_support import KERNELS_URL, backend_labels, provider_tables
from gendoc.runtime.ort_kernels import kernel_table
from gendoc.runtime.scoreboard import scoreboard
from gendoc.site.opsets import SiteLike, applies


@dataclass(frozen=True)
class MatrixRow:
    """One operator version: the operator sets it is in effect in, first and last."""

    schema: Schema
    first: int
    last: int
    newest: bool
    """Whether it is its operator's newest version (the only one with backend tests)."""


def matrix_page(site: SiteLike, domain: str) -> str:
    """The matrix page's path, beside the domain's operator set pages."""
    return site.paths.opsets_index(domain).removesuffix("index.md") + "runtimes.md"


def matrix_rows(site: SiteLike, domain: str, newest: int) -> list[MatrixRow]:
    """Every operator version in effect in some operator set of ``domain``, by name, the
    newest version first."""
    rows = []
    for op in sorted(site.reference.operators(domain), key=lambda o: o.name):
        last = op.versions[-1]
        for schema in reversed(op.versions):
            span = applies(op, schema, newest)
            if span is not None:
                rows.append(MatrixRow(schema, *span, newest=schema is last))
    return rows


def pages(site: SiteLike) -> list[tuple[str, dict[str, Any]]]:
    """``(path, context)`` of every domain's matrix page."""
    listed = []
    backends = backend_labels(scoreboard())
    tables = provider_tables()
    ort_version = kernel_table(prefer_installed=False).version
    kernel_doc = tables[0] if tables else None
    kernel_doc_url = KERNELS_URL.format(ref=kernel_doc.ref) if kernel_doc else ""
    for domain in site.reference.domains:
        found = site.opsets(domain)
        if found:
            rows = matrix_rows(site, domain, found[-1].version)
            context = {
                "domain": domain,
                "opsets": found,
                "rows": rows,
                "backends": backends,
                "ort_version": ort_version,
                "kernel_doc": kernel_doc,
                "kernel_doc_url": kernel_doc_url,
            }
            listed.append((matrix_page(site, domain), context))
    return listed
