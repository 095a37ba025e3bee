"""The pages the plugin generates, rendered from the model with Jinja2 templates.

Paths are language-neutral (``operators/ai.onnx/Reshape.md``); the plugin
puts every page under each language folder. A page is rendered the first
time a language asks for it and kept, so a second build in the same
process (``mkdocs serve`` reloading, a benchmark) renders nothing again.

The templates under ``templates/site/`` are rendered by a sibling of
``gendoc.present.render``'s environment: the same loader, filters and message
catalogs, with autoescape on, because these pages mix Markdown with raw
HTML blocks into which schema names and text are written. The operator and
evidence pages are HTML throughout (``*.html.j2``, see
:mod:`gendoc.site.rendered`): their links name the target pages' URLs,
where a Markdown page links to the target's source for mkdocs to resolve.
"""

from __future__ import annotations

import posixpath
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import cache, cached_property, partial
from itertools import combinations
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup
from mkdocs.structure.files import File
from mkdocs.utils import get_relative_url

from gendoc.audit import Finding, audit_reference
from gendoc.audit.weigh import Weighed
from gendoc.catalogs import schema_text
from gendoc.catalogs.i18n import translations
from gendoc.evidence.verdict import Suggestion
from gendoc.model.pairing import TagChange
from gendoc.model.reference import Operator, ParameterRef, Reference, Schema
from gendoc.model.stats import Tally, tally_schemas
from gendoc.present import render
from gendoc.present.display import Display, docs_base
from gendoc.present.filters import Filter, bound, by_name
from gendoc.present.render import template_errors
from gendoc.runtime.operator_support import opset_coverage, support_of
from gendoc.site import coverage, evidence_pages, opsets, runtime_matrix, tags
from gendoc.site.compiled import PAGES_BYTECODE, compile_ahead
from gendoc.site.markup import (
    description,
    diff_line,
    diff_lines,
    heading_id,
    page_title,
    tag_badge,
)
from gendoc.site.onnx_links import release_url, source_url
from gendoc.site.page_table import PageSpec, page_specs
from gendoc.site.parts import Parts, prefix_of
from gendoc.site.paths import PagePaths, markdown_url
from gendoc.site.rendered import PERMALINK_TITLE, Headings, Rendered
from gendoc.site.versions_diff import Changes, all_tag_changes, operator_diffs
from gendoc.storage.resources import templates_root

FOOTER = "site/footer.html.j2"


def relative(source: str, target: str) -> str:
    """A Markdown link from page ``source`` to file ``target``, both docs-relative."""
    return posixpath.relpath(target, posixpath.dirname(source) or ".")


@cache
def url_of(path: str, directory_urls: bool) -> str:
    """The URL mkdocs gives the docs-relative file ``path`` (``use_directory_urls`` or not)."""
    return File(path, "", "", directory_urls).url


def relative_url(source: str, target: str, directory_urls: bool) -> str:
    """An HTML link from page ``source`` to file ``target``: the URL mkdocs would write."""
    return get_relative_url(url_of(target, directory_urls), url_of(source, directory_urls))


def site_filters(display: Display, changes: Changes) -> dict[str, Filter]:
    """The filters the site's pages add to the documents' (see :mod:`gendoc.present.filters`),
    in ``display``'s language; ``changes`` gives the tag changes between two versions."""
    return by_name(
        heading_id,
        page_title,
        diff_line,
        diff_lines,
        support_of,
        opset_coverage,
        bound(description, display),
        # A tag's badge is the same for every parameter that has the tag: made once per tag.
        cache(bound(tag_badge, display)),
        bound(operator_diffs, display=display, changes=changes),
        bound(tags.tag_counts, display=display),
        bound(tags.strength, display=display),
    )


def environment(
    templates: Path | None, lang: str, onnx_version: str, changes: Changes = all_tag_changes
) -> jinja2.Environment:
    """The renderer's environment of a language, with autoescape and the site's filters;
    ``changes`` gives the tag changes between two versions (see :func:`operator_diffs`)."""
    options = render.RenderOptions(lang=lang, templates=templates)
    base = render.environment(options, onnx_version)
    env = render.autoescaping(base)
    # Both languages' environments share what either compiled (see gendoc.site.compiled).
    env.bytecode_cache = PAGES_BYTECODE.layered(env.bytecode_cache)
    display = render.display(options, onnx_version)
    env.filters = {**base.filters, **site_filters(display, changes)}
    return env


def static_findings(reference: Reference) -> list[Finding]:
    """The findings of the audit's static checks (fast: no operator is run)."""
    return list(audit_reference(reference).findings)


@dataclass(eq=False)
class SiteContent:
    """Every generated file of the site, rendered on demand per language."""

    reference: Reference
    findings: Sequence[Finding]
    templates: Path | None = None
    directory_urls: bool = False
    """mkdocs' ``use_directory_urls``: where the HTML pages' links point."""
    _rendered: dict[tuple[str, str], Rendered] = field(default_factory=dict, repr=False)
    _envs: dict[str, jinja2.Environment] = field(default_factory=dict, repr=False)
    _footers: dict[str, Markup] = field(default_factory=dict, repr=False)
    _opsets: dict[str, tuple[opsets.Opset, ...]] = field(default_factory=dict, repr=False)
    _permalink_titles: dict[str, str] = field(default_factory=dict, repr=False)
    _scripts: dict[tuple[str, str], list[evidence_pages.Script]] = field(
        default_factory=dict, repr=False
    )

    def env(self, lang: str) -> jinja2.Environment:
        if lang not in self._envs:
            self._envs[lang] = environment(
                self.templates, lang, self.reference.onnx_version, self.tag_changes
            )
        return self._envs[lang]

    def compile_templates(self, lang: str) -> None:
        """Compile the templates of every generated page (and what they import) now, with
        ``lang``'s environment: before the other languages' process is forked, that process
        gets them compiled (see :mod:`gendoc.site.compiled`)."""
        roots = sorted({spec.template for spec in self.pages.values()} | {FOOTER})
        compile_ahead(self.env(lang), roots)

    def prepare(self) -> None:
        """Compute now what every language's pages read alike: the evidence's verdicts,
        how much of the schema text is translated, where each operator version runs, the
        tag changes between its versions, the Method 1 scripts, and the schema texts' parser
        (imported and set up). Before the other languages' process is forked, that process
        gets them ready."""
        self.verdicts  # noqa: B018 (cached properties: computed once, kept)
        self.translation_coverage  # noqa: B018
        self.version_tag_changes  # noqa: B018
        for domain in self.reference.domains:
            for op in self.reference.operators(domain):
                for schema in op.versions:
                    support_of(self.reference, schema, schema is op.versions[-1])
        for op in evidence_pages.operators(self.reference):
            self.scripts(op)
        from gendoc.present import schema_render  # the Markdown parser: only to render texts

        schema_render.markdown(docs_base(self.reference.onnx_version))

    def permalink_title(self, lang: str) -> str:
        """The headings' permanent-link tooltip of a language, looked up once: loading a
        language's catalogs for each of its few hundred HTML pages took a second in Chinese."""
        if lang not in self._permalink_titles:
            labels = translations(lang, self.templates)
            self._permalink_titles[lang] = labels.gettext(PERMALINK_TITLE)
        return self._permalink_titles[lang]

    @cached_property
    def findings_by_operator(self) -> dict[tuple[str, str], list[Finding]]:
        grouped: dict[tuple[str, str], list[Finding]] = defaultdict(list)
        for finding in sorted(self.findings, key=lambda f: f.sort_key()):
            grouped[(finding.domain, finding.op)].append(finding)
        return dict(grouped)

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

    @cached_property
    def pages(self) -> dict[str, PageSpec]:
        """Every generated file, of every kind of page in the table (:mod:`.page_table`)."""
        return page_specs(self)

    @cached_property
    def operator_domains(self) -> dict[str, str]:
        """The domain index of each operator page, for the navigation to mark."""
        return {
            spec.path: self.domain_index(spec.context["op"].domain)
            for spec in self.pages.values()
            if "op" in spec.context
        }

    @property
    def domain_indexes(self) -> list[str]:
        """The index page of every domain, for the navigation."""
        return [self.domain_index(d) for d in self.reference.domains]

    def render(self, path: str, lang: str) -> Rendered:
        key = (path, lang)
        if key not in self._rendered:
            spec = self.pages[path]
            with template_errors():
                template = self.env(lang).get_template(spec.template)
                if spec.template.endswith(".html.j2"):
                    headings = Headings(self.permalink_title(lang))
                    parts = Parts(prefix_of(spec.path, self.directory_urls))
                    text = template.render(self._context(spec, lang, headings, parts))
                    rendered = headings.finish(text)
                    self._rendered[key] = replace(rendered, parts=tuple(parts.files.items()))
                else:
                    self._rendered[key] = Rendered(template.render(self._context(spec, lang)))
        return self._rendered[key]

    def _context(
        self,
        spec: PageSpec,
        lang: str,
        headings: Headings | None = None,
        parts: Parts | None = None,
    ) -> dict[str, Any]:
        if headings is None:
            link = partial(relative, spec.path)
        else:
            link = partial(relative_url, spec.path, directory_urls=self.directory_urls)
        return {
            **spec.context,
            "reference": self.reference,
            "site": self,
            "link": link,
            "headings": headings,
            "parts": parts,
            "counts": self.counts,
            "lang": lang,
        }

    # Helpers the templates call through ``site``.

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

    def footer(self, lang: str) -> Markup:
        """The footer's lines of a language, for the theme (``partials/copyright.html``)."""
        if lang not in self._footers:
            context = {"reference": self.reference, "site": self, "lang": lang}
            with template_errors():
                self._footers[lang] = Markup(self.env(lang).get_template(FOOTER).render(context))
        return self._footers[lang]

    def opsets(self, domain: str) -> tuple[opsets.Opset, ...]:
        """Every operator set version of ``domain`` (see :mod:`gendoc.site.opsets`)."""
        if domain not in self._opsets:
            self._opsets[domain] = opsets.domain_opsets(self.reference, domain)
        return self._opsets[domain]

    def applies(self, op: Operator, schema: Schema) -> tuple[int, int] | None:
        """The first and last opset in which ``schema`` is the version of ``op`` in effect."""
        return opsets.applies(op, schema, self.opsets(op.domain)[-1].version)

    parameter_ref = staticmethod(tags.parameter_ref)
    row_id = staticmethod(tags.row_id)

    @cached_property
    def verdicts(self) -> dict[tuple[str, str, int], Weighed]:
        """The evidence's verdict on every operator version, settled over the whole model."""
        return evidence_pages.weighed_all(self.reference)

    def weighed(self, schema: Schema) -> Weighed:
        return self.verdicts[(schema.domain, schema.name, schema.since_version)]

    def suggestion(self, schema: Schema, parameter: ParameterRef) -> Suggestion | None:
        return tags.suggestion(self.weighed(schema), parameter)

    def scripts(self, op: Operator) -> list[evidence_pages.Script]:
        """The Method 1 scripts of ``op``'s evidence page (the same in every language)."""
        key = (op.domain, op.name)
        if key not in self._scripts:
            self._scripts[key] = evidence_pages.scripts(op, self.weighed(op.latest))
        return self._scripts[key]

    def evidence_page_of(self, op: Operator) -> str | None:
        """The page of the evidence about ``op``'s tags, when a source knows the operator."""
        if not evidence_pages.has_evidence(op):
            return None
        return evidence_pages.evidence_page(self.operator_page(op.domain, op.name))

    def findings_of(self, op: Operator) -> list[Finding]:
        return self.findings_by_operator.get((op.domain, op.name), [])

    def chart(self, lang: str) -> coverage.Chart:
        options = render.RenderOptions(lang=lang, templates=self.templates)
        return coverage.chart(self.coverage, render.display(options, self.reference.onnx_version))
