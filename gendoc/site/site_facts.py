"""What the site's templates ask about the site, as ``site.<name>``: pages' paths and links,
operator sets, the evidence's verdicts, the audit's findings, counts and coverage.

One object per site's content (:class:`gendoc.site.pages.SiteContent` makes it), shared by
every language: what it computes is the same in all of them, so it is computed once, and
before the build's languages part (:meth:`gendoc.site.pages.SiteContent.prepare`). The page
lists of :mod:`gendoc.site.page_table` read it too, and so do the files beside the pages
(:mod:`gendoc.site.published`, :mod:`gendoc.site.search_ui`).
"""

from __future__ import annotations

import posixpath
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache, cached_property
from itertools import combinations
from pathlib import Path

from mkdocs.structure.files import File

from gendoc.audit import Finding
from gendoc.audit.weigh import Weighed
from gendoc.catalogs import schema_text
from gendoc.model.pairing import TagChange
from gendoc.model.reference import Operator, Reference, Schema
from gendoc.model.stats import Tally, tally_schemas
from gendoc.present import render
from gendoc.site import coverage, evidence_pages, opsets, runtime_matrix, tags
from gendoc.site.onnx_links import release_url, source_url
from gendoc.site.paths import PagePaths, markdown_url
from gendoc.site.versions_diff import all_tag_changes
from gendoc.storage.resources import templates_root


@cache
def url_of(path: str, directory_urls: bool) -> str:
    """The URL mkdocs gives the docs-relative file ``path`` (``use_directory_urls`` or not)."""
    return File(path, "", "", directory_urls).url


@dataclass(eq=False)
class SiteFacts:
    """The answers the templates ask for, computed once and kept."""

    reference: Reference
    findings: Sequence[Finding]
    templates: Path | None = None
    directory_urls: bool = False
    """mkdocs' ``use_directory_urls``: where the HTML pages' links point."""
    _opsets: dict[str, tuple[opsets.Opset, ...]] = field(default_factory=dict, repr=False)
    _scripts: dict[tuple[str, str], list[evidence_pages.Script]] = field(
        default_factory=dict, repr=False
    )
    _parameter_rows: dict[tuple[str, str, int], tags.ParameterRows] = field(
        default_factory=dict, repr=False
    )
    _evidence_rows: dict[tuple[str, str, int], tuple[evidence_pages.EvidenceRow, ...]] = field(
        default_factory=dict, repr=False
    )

    @cached_property
    def findings_by_operator(self) -> dict[tuple[str, str], list[Finding]]:
        grouped: dict[tuple[str, str], list[Finding]] = defaultdict(list)
        for finding in sorted(self.findings, key=lambda f: f.sort_key()):
            grouped[(finding.domain, finding.op)].append(finding)
        return dict(grouped)

    def findings_of(self, op: Operator) -> list[Finding]:
        return self.findings_by_operator.get((op.domain, op.name), [])

    @cached_property
    def version_tag_changes(self) -> dict[tuple[str, str, int, int], tuple[TagChange, ...]]:
        """The tag changes between every two versions of each operator, by domain, name and
        the two versions: what the diffs of every language flag."""
        return {
            (op.domain, op.name, old.since_version, new.since_version): all_tag_changes(old, new)
            for domain in self.reference.domains
            for op in self.reference.operators(domain)
            for old, new in combinations(op.versions, 2)
        }

    def tag_changes(self, old: Schema, new: Schema) -> tuple[TagChange, ...]:
        """The tag changes from version ``old`` to ``new`` of one operator."""
        key = (new.domain, new.name, old.since_version, new.since_version)
        found = self.version_tag_changes.get(key)
        return all_tag_changes(old, new) if found is None else found

    @cached_property
    def counts(self) -> Tally:
        return tally_schemas(self.reference.schemas)

    @cached_property
    def translation_coverage(self) -> list[schema_text.Coverage]:
        """How much of each domain's newest schema text gendoc's Chinese catalogs translate."""
        return [
            schema_text.coverage(self.reference, domain, "zh", templates_root())
            for domain in self.reference.domains
        ]

    @cached_property
    def coverage(self) -> list[coverage.DomainCoverage]:
        return coverage.coverage(self.reference)

    @cached_property
    def newest_counts(self) -> Tally:
        """The tags of the newest operator set of every domain, added up."""
        return coverage.latest_total(self.coverage)

    def chart(self, lang: str) -> coverage.Chart:
        options = render.RenderOptions(lang=lang, templates=self.templates)
        return coverage.chart(self.coverage, render.display(options, self.reference.onnx_version))

    @cached_property
    def paths(self) -> PagePaths:
        return PagePaths(self.reference)

    def operator_page(self, domain: str, name: str) -> str:
        return self.paths.operator_page(domain, name)

    def domain_index(self, domain: str) -> str:
        return self.paths.domain_index(domain)

    def matrix_page(self, domain: str) -> str:
        return runtime_matrix.matrix_page(self, domain)

    def markdown_link(self, op: Operator) -> str:
        """The operator's Markdown beside its page (see :mod:`gendoc.site.published`), as a
        link from the page."""
        page = url_of(self.operator_page(op.domain, op.name), self.directory_urls)
        return posixpath.basename(markdown_url(page))

    def anchor(self, domain: str, name: str) -> str:
        return self.paths.anchor(domain, name)

    def source_url(self, source: tuple[str, int]) -> str:
        return source_url(self.reference.onnx_version, source)

    def release_url(self) -> str | None:
        return release_url(self.reference.onnx_version)

    def opsets(self, domain: str) -> tuple[opsets.Opset, ...]:
        """Every operator set version of ``domain`` (see :mod:`gendoc.site.opsets`)."""
        if domain not in self._opsets:
            self._opsets[domain] = opsets.domain_opsets(self.reference, domain)
        return self._opsets[domain]

    def applies(self, op: Operator, schema: Schema) -> tuple[int, int] | None:
        """The first and last opset in which ``schema`` is the version of ``op`` in effect."""
        return opsets.applies(op, schema, self.opsets(op.domain)[-1].version)

    @cached_property
    def verdicts(self) -> dict[tuple[str, str, int], Weighed]:
        """The evidence's verdict on every operator version, settled over the whole model."""
        return evidence_pages.weighed_all(self.reference)

    def weighed(self, schema: Schema) -> Weighed:
        return self.verdicts[(schema.domain, schema.name, schema.since_version)]

    def scripts(self, op: Operator) -> list[evidence_pages.Script]:
        """The Method 1 scripts of ``op``'s evidence page (the same in every language)."""
        key = (op.domain, op.name)
        if key not in self._scripts:
            self._scripts[key] = evidence_pages.scripts(op, self.weighed(op.latest))
        return self._scripts[key]

    def evidence_rows(self, schema: Schema) -> tuple[evidence_pages.EvidenceRow, ...]:
        """``schema``'s inputs and outputs as its evidence page shows them."""
        key = (schema.domain, schema.name, schema.since_version)
        rows = self._evidence_rows.get(key)
        if rows is None:
            version = schema.since_version
            rows = self._evidence_rows[key] = evidence_pages.evidence_rows(
                self.weighed(schema), lambda ref: tags.row_id(version, ref)
            )
        return rows

    def parameter_rows(self, op: Operator, schema: Schema) -> tags.ParameterRows:
        """``schema``'s inputs and outputs as its operator page shows them, with the evidence's
        suggestions where ``op`` has an evidence page (the same in every language)."""
        key = (schema.domain, schema.name, schema.since_version)
        rows = self._parameter_rows.get(key)
        if rows is None:
            found = self.weighed(schema) if self.evidence_page_of(op) else None
            rows = self._parameter_rows[key] = tags.parameter_rows(schema, found)
        return rows

    def evidence_page_of(self, op: Operator) -> str | None:
        """The page of the evidence about ``op``'s tags, when a source knows the operator."""
        if not evidence_pages.has_evidence(op):
            return None
        return evidence_pages.evidence_page(self.operator_page(op.domain, op.name))
