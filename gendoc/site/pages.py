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
What the templates ask about the site, as ``site``, is :mod:`gendoc.site.site_facts`.
"""

from __future__ import annotations

import posixpath
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import cache, cached_property, partial
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup
from mkdocs.utils import get_relative_url

from gendoc.audit import Finding, audit_reference
from gendoc.catalogs.i18n import translations
from gendoc.model.reference import Reference
from gendoc.present import render
from gendoc.present.display import Display, docs_base
from gendoc.present.filters import Filter, bound, by_name
from gendoc.present.render import template_errors
from gendoc.runtime.operator_support import opset_coverage, support_of
from gendoc.site import evidence_pages, tags
from gendoc.site.compiled import PAGES_BYTECODE, compile_ahead
from gendoc.site.markup import (
    description,
    diff_line,
    diff_lines,
    heading_id,
    page_title,
    tag_badge,
)
from gendoc.site.page_table import PageSpec, page_specs, page_templates
from gendoc.site.parts import Parts, prefix_of
from gendoc.site.rendered import PERMALINK_TITLE, Headings, Rendered
from gendoc.site.site_facts import SiteFacts, url_of
from gendoc.site.versions_diff import Changes, all_tag_changes, operator_diffs

FOOTER = "site/footer.html.j2"


def relative(source: str, target: str) -> str:
    """A Markdown link from page ``source`` to file ``target``, both docs-relative."""
    return posixpath.relpath(target, posixpath.dirname(source) or ".")


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
    env.globals = {**env.globals, "once": render.once()}
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
    _permalink_titles: dict[str, str] = field(default_factory=dict, repr=False)
    facts: SiteFacts = field(init=False, repr=False)
    """What the templates ask about the site (``site`` in their context): one object for
    every language."""

    def __post_init__(self) -> None:
        self.facts = SiteFacts(self.reference, self.findings, self.templates, self.directory_urls)

    def env(self, lang: str) -> jinja2.Environment:
        if lang not in self._envs:
            self._envs[lang] = environment(
                self.templates, lang, self.reference.onnx_version, self.facts.tag_changes
            )
        return self._envs[lang]

    def compile_templates(self, lang: str) -> None:
        """Compile the templates of every generated page (and what they import) now, with
        ``lang``'s environment: before the other languages' process is forked, that process
        gets them compiled (see :mod:`gendoc.site.compiled`)."""
        roots = sorted(page_templates() | {FOOTER})
        compile_ahead(self.env(lang), roots)

    def prepare(self) -> None:
        """Compute now what every language's pages read alike: the evidence's verdicts,
        how much of the schema text is translated, the tag coverage, where each operator
        version runs, the tag changes between its versions, each version's parameters as
        its operator and evidence pages show them, the Method 1 scripts, and the schema
        texts' parser (imported, set up, its link finder's expressions compiled).
        Before the other languages' process is forked, that process gets them ready."""
        facts = self.facts
        facts.verdicts  # noqa: B018 (cached properties: computed once, kept)
        facts.translation_coverage  # noqa: B018
        facts.version_tag_changes  # noqa: B018
        facts.newest_counts  # noqa: B018 (and the coverage it adds up)
        for domain in self.reference.domains:
            for op in self.reference.operators(domain):
                for schema in op.versions:
                    support_of(self.reference, schema, False)  # an operator set's counts
                    facts.parameter_rows(op, schema)
                support_of(self.reference, op.versions[-1], True)  # its page's rows
        for op in evidence_pages.operators(self.reference):
            facts.scripts(op)
            for schema in op.versions:
                facts.evidence_rows(schema)
        from gendoc.present import schema_render  # the Markdown parser: only to render texts

        # A text with a URL: linkify-it compiles its expressions on its first search.
        schema_render.render_text("https://onnx.ai", docs_base(self.reference.onnx_version))

    def permalink_title(self, lang: str) -> str:
        """The headings' permanent-link tooltip of a language, looked up once: loading a
        language's catalogs for each of its few hundred HTML pages took a second in Chinese."""
        if lang not in self._permalink_titles:
            labels = translations(lang, self.templates)
            self._permalink_titles[lang] = labels.gettext(PERMALINK_TITLE)
        return self._permalink_titles[lang]

    @cached_property
    def pages(self) -> dict[str, PageSpec]:
        """Every generated file, of every kind of page in the table (:mod:`.page_table`)."""
        return page_specs(self.facts)

    @cached_property
    def operator_domains(self) -> dict[str, str]:
        """The domain index of each operator page, for the navigation to mark."""
        return {
            spec.path: self.facts.domain_index(spec.context["op"].domain)
            for spec in self.pages.values()
            if "op" in spec.context
        }

    @property
    def domain_indexes(self) -> list[str]:
        """The index page of every domain, for the navigation."""
        return [self.facts.domain_index(d) for d in self.reference.domains]

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
            "site": self.facts,
            "link": link,
            "headings": headings,
            "parts": parts,
            "counts": self.facts.counts,
            "lang": lang,
        }

    def footer(self, lang: str) -> Markup:
        """The footer's lines of a language, for the theme (``partials/copyright.html``)."""
        if lang not in self._footers:
            context = {"reference": self.reference, "site": self.facts, "lang": lang}
            with template_errors():
                self._footers[lang] = Markup(self.env(lang).get_template(FOOTER).render(context))
        return self._footers[lang]
