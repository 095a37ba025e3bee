"""The site's pages as entries of the table of outputs (:mod:`gendoc.present.outputs`).

Each kind of page is one entry: its name, its template, the function that lists its
pages from the site's content (the path and the context of each), and whether it is
written in every language or once for the whole site. :class:`~gendoc.site.pages.SiteContent`
makes its pages from this table, the plugin puts the pages of every language under each
language folder and writes the others once, at the site's root
(:func:`write_site_wide`), so that a page that is data, the same in every language (a
JSON file: its template writes ``{{ ... | tojson }}``, which the site's escaping leaves
as it is), is neither written twice nor escaped as HTML. A new kind of page is one entry,
here or ``OUTPUTS.register(...)`` from outside, and its template.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from mkdocs.utils import write_file

from gendoc.audit import RULES
from gendoc.model.reference import Reference
from gendoc.present.outputs import OUTPUTS, Group, Output
from gendoc.site import evidence_pages, opsets, runtime_matrix
from gendoc.site.rendered import Rendered

OPERATORS_INDEX = "operators/index.md"
COVERAGE_PAGE = "coverage.md"
COVERAGE_CHART = "coverage.svg"
AUDIT_PAGE = "audit.md"
STATIC_RULES = [rule for rule in RULES.values() if not (rule.numeric or rule.evidence)]

Listed = list[tuple[str, dict[str, Any]]]
"""The pages of one kind: the path of each (language-neutral, under ``docs_dir``) and its
template's context."""


class SiteLike(opsets.SiteLike, evidence_pages.SiteLike, Protocol):
    """What the page lists need from :class:`gendoc.site.site_facts.SiteFacts`."""

    def domain_index(self, domain: str) -> str: ...


@dataclass(frozen=True)
class PageSpec:
    """One generated file: its template, the model objects it shows, and whether it is
    written in every language."""

    path: str
    template: str
    context: dict[str, Any] = field(default_factory=dict)
    per_language: bool = True


def _single(path: str, context: dict[str, Any] | None = None) -> Callable[[SiteLike], Listed]:
    def listed(site: SiteLike) -> Listed:
        return [(path, dict(context or {}))]

    listed.__qualname__ = f"single page {path}"
    return listed


def _domain_indexes(site: SiteLike) -> Listed:
    return [
        (site.domain_index(domain), {"domain": domain, "operators": list(operators)})
        for domain, operators in _by_domain(site.reference)
    ]


def _operator_pages(site: SiteLike) -> Listed:
    return [
        (site.operator_page(domain, op.name), {"op": op})
        for domain, operators in _by_domain(site.reference)
        for op in operators
    ]


def _by_domain(reference: Reference) -> list[tuple[str, tuple[Any, ...]]]:
    return [(domain, tuple(reference.operators(domain))) for domain in reference.domains]


def _site(name: str, template: str, pages: Callable[[SiteLike], Listed]) -> Output:
    return OUTPUTS.register(Output(name, Group.SITE, f"site/{template}", pages))


_site("operators index page", "operators.md.j2", _single(OPERATORS_INDEX))
_site("coverage page", "coverage.html.j2", _single(COVERAGE_PAGE))
_site("coverage chart", "coverage.svg.j2", _single(COVERAGE_CHART))
_site("audit page", "audit.html.j2", _single(AUDIT_PAGE, {"rules": STATIC_RULES}))
_site("domain index page", "domain.html.j2", _domain_indexes)
_site("operator page", "operator.html.j2", _operator_pages)
_site("evidence index page", "evidence_index.md.j2", evidence_pages.index_page)
_site("evidence page", "evidence.html.j2", evidence_pages.operator_pages)
_site("opsets index page", "opsets.md.j2", opsets.index_pages)
_site("opset page", "opset.html.j2", opsets.opset_pages)
_site("runtimes page", "runtimes.html.j2", runtime_matrix.pages)


def page_specs(site: SiteLike) -> dict[str, PageSpec]:
    """Every page of every kind of the table, by path, in the table's order."""
    return {
        path: PageSpec(path, output.template, context, output.per_language)
        for output in OUTPUTS.group(Group.SITE)
        for path, context in output.context(site)
    }


def page_templates() -> set[str]:
    """The template of every kind of page of the table, read from the table alone: what is
    compiled ahead needs no page listed (listing them reads the evidence, see
    :mod:`gendoc.site.compiled`)."""
    return {output.template for output in OUTPUTS.group(Group.SITE)}


class Renders(Protocol):
    pages: dict[str, PageSpec]

    def render(self, path: str, lang: str) -> Rendered: ...


def write_site_wide(content: Renders, site: Path, lang: str) -> list[Path]:
    """Write the pages that are not per language at the site's root (rendered with the
    labels of ``lang``, the site's first language); the paths written."""
    written = []
    for spec in content.pages.values():
        if not spec.per_language:
            target = site / spec.path
            write_file(content.render(spec.path, lang).text.encode("utf-8"), str(target))
            written.append(target)
    return written
