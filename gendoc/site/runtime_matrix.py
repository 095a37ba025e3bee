"""The matrix page of each domain: every operator of its newest operator set by runtime
(onnxruntime's kernel, onnx's backend tests per backend), from
:mod:`gendoc.runtime.operator_support`, the data the operator pages' "Runs on" tables show."""

from __future__ import annotations

from typing import Any

from gendoc.runtime.operator_support import backend_labels
from gendoc.runtime.scoreboard import scoreboard
from gendoc.site.opsets import SiteLike


def matrix_page(site: SiteLike, domain: str) -> str:
    """The matrix page's path, beside the domain's operator set pages."""
    return site.paths.opsets_index(domain).removesuffix("index.md") + "runtimes.md"


def specs(site: SiteLike) -> list[tuple[str, str, dict[str, Any]]]:
    """``(path, template, context)`` of every domain's matrix page."""
    pages = []
    for domain in site.reference.domains:
        found = site.opsets(domain)
        if found:
            backends = backend_labels(scoreboard())
            context = {"domain": domain, "opset": found[-1], "backends": backends}
            pages.append((matrix_page(site, domain), "site/runtimes.html.j2", context))
    return pages
