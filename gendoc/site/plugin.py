"""The mkdocs plugin: the operator reference, coverage and audit pages, generated per build.

How it works with mkdocs-static-i18n (``docs_structure: folder``): the i18n
plugin builds one language at a time, keeps the files of that language,
and records the same page in the other languages as its *alternates*,
which the language switcher links to. It only considers files that sit
in ``docs_dir``, and it re-creates every File, which drops in-memory
content. So the plugin works in two steps around the i18n plugin's
``on_files`` (priority -100):

1. before it, add a File for every generated page under *every* language
   folder (``en/operators/ai.onnx/Reshape.md``, ``zh/...``), placed in
   ``docs_dir`` but without content, so that the i18n plugin pairs them
   like hand-written pages;
2. after it, give the files that remain (those of the language being
   built) their content, rendered on demand and cached for the process.

Operator pages are not in the navigation (a few hundred entries on every
page would dominate the build time); the domain indexes are added under
the section that holds ``operators/index.md``.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import jinja2
from mkdocs.config import base
from mkdocs.config import config_options as c
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin, CombinedEvent, event_priority
from mkdocs.structure.files import File, Files, InclusionLevel
from mkdocs.structure.nav import Navigation, Section
from mkdocs.structure.pages import Page
from mkdocs.utils.templates import TemplateContext

from gendoc.cache import fingerprint
from gendoc.collect import collect
from gendoc.errors import GendocError, UsageError
from gendoc.model import Differentiability, Reference
from gendoc.render import builtin_templates, load_messages
from gendoc.site.fragments import Rendered
from gendoc.site.markup import tag_key
from gendoc.site.pages import (
    AUDIT_PAGE,
    COVERAGE_PAGE,
    OPERATORS_INDEX,
    SiteContent,
    static_findings,
)

# Pages listed in mkdocs.yml's nav; every other generated page is reached by links.
_NAV_PAGES = (OPERATORS_INDEX, COVERAGE_PAGE, AUDIT_PAGE)


class GendocConfig(base.Config):
    schemas = c.ListOfItems(c.Type(str), default=[])
    """Modules to import first: they register extra schemas with onnx."""
    domains = c.ListOfItems(c.Type(str), default=[])
    """Domains to document (``ai.onnx`` names the default one); empty: all of them."""
    languages = c.ListOfItems(c.Type(str), default=["en", "zh"])
    """Language folders under ``docs_dir``; each gets the whole generated reference."""
    templates = c.Optional(c.Dir(exists=True))
    """A folder of templates and catalogs searched before gendoc's own."""


def _templates_key(templates: str | None) -> str:
    folders = [builtin_templates(), *([Path(templates)] if templates else [])]
    return fingerprint("site", [p for f in folders for p in f.rglob("*") if p.is_file()])


def _only(reference: Reference, domains: tuple[str, ...]) -> Reference:
    wanted = {"" if d == "ai.onnx" else d for d in domains}
    missing = wanted - set(reference.domains)
    if missing:
        raise UsageError(f"no schemas in domain(s) {', '.join(sorted(missing))}")
    return Reference(
        reference.onnx_version, tuple(s for s in reference.schemas if s.domain in wanted)
    )


@lru_cache(maxsize=4)
def _content(
    schemas: tuple[str, ...], domains: tuple[str, ...], templates: str | None, key: str
) -> SiteContent:
    """Collect and audit once per process; ``key`` changes when a template does."""
    reference = collect(schemas, with_examples=False)
    if domains:
        reference = _only(reference, domains)
    return SiteContent(
        reference, static_findings(reference), Path(templates) if templates else None
    )


def _register_words(lang: str, templates: str | None) -> None:
    """Teach jieba the tag labels, so that search finds 不可微 as one word."""
    try:
        import jieba
    except ImportError:  # without jieba, Material's search does not segment at all
        return
    t = load_messages(lang, Path(templates) if templates else None)
    for tag in Differentiability:
        jieba.add_word(t[tag_key(tag)])
    jieba.add_word(t["statement_heading"])


class _MemoryBytecodeCache(jinja2.BytecodeCache):
    """Compiled templates kept in memory for the life of the process."""

    def __init__(self) -> None:
        self.store: dict[str, bytes] = {}

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        if bucket.key in self.store:
            bucket.bytecode_from_string(self.store[bucket.key])

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        self.store[bucket.key] = bucket.bytecode_to_string()


_THEME_BYTECODE = _MemoryBytecodeCache()


class GendocPlugin(BasePlugin[GendocConfig]):
    supports_multiple_instances = False

    def on_config(self, config: MkDocsConfig) -> MkDocsConfig:
        templates = self.config.templates
        try:
            self.content = _content(
                tuple(self.config.schemas),
                tuple(self.config.domains),
                templates,
                _templates_key(templates),
            )
        except GendocError as exc:
            raise PluginError(f"gendoc: {exc}") from exc
        if "zh" in self.config.languages:
            _register_words("zh", templates)
        return config

    def _add_files(self, files: Files, config: MkDocsConfig) -> Files:
        for lang in self.config.languages:
            for path in self.content.pages:
                src_uri = f"{lang}/{path}"
                if files.get_file_from_path(src_uri) is not None:
                    raise PluginError(
                        f"gendoc: {src_uri} is generated on every build; remove it from docs_dir"
                    )
                inclusion = (
                    InclusionLevel.UNDEFINED if path in _NAV_PAGES else InclusionLevel.NOT_IN_NAV
                )
                files.append(
                    File(
                        src_uri,
                        config.docs_dir,
                        config.site_dir,
                        config.use_directory_urls,
                        inclusion=inclusion,
                    )
                )
        return files

    @event_priority(-110)
    def _fill_files(self, files: Files, config: MkDocsConfig) -> Files:
        self.rendered: dict[str, Rendered] = {}
        for file in files:
            lang, _, path = file.src_uri.partition("/")
            if lang in self.config.languages and path in self.content.pages:
                rendered = self.content.render(path, lang)
                file.content_string = rendered.text
                file.generated_by = "gendoc"
                self.rendered[file.src_uri] = rendered
        return files

    on_files = CombinedEvent(_add_files, _fill_files)

    def on_page_content(self, html: str, page: Page, config: MkDocsConfig, files: Files) -> str:
        """Fragments the search index should see go in before the search plugin reads the page."""
        rendered = self.rendered.get(page.file.src_uri)
        return rendered.fill(html, indexed=True) if rendered else html

    @event_priority(-100)  # after the search plugin (priority 0) has indexed the page
    def on_page_context(
        self, context: TemplateContext, page: Page, config: MkDocsConfig, nav: Navigation
    ) -> TemplateContext:
        rendered = self.rendered.get(page.file.src_uri)
        if rendered and page.content is not None:
            page.content = rendered.fill(page.content, indexed=False)
        return context

    def on_env(self, env: jinja2.Environment, config: MkDocsConfig, files: Files) -> None:
        """Keep the theme's compiled templates for the other language and later builds.

        mkdocs makes a new Jinja environment for every build, and the i18n
        plugin runs one build per language, so the theme's templates would
        be compiled again for each language and on every ``mkdocs serve``
        reload. Jinja compares the source's checksum, so an edited template
        is compiled again.
        """
        if env.bytecode_cache is None:
            env.bytecode_cache = _THEME_BYTECODE

    def on_nav(self, nav: Navigation, config: MkDocsConfig, files: Files) -> Navigation:
        """List the domain indexes under the section that holds the reference's index."""
        index = next((p for p in nav.pages if _generated_path(p) == OPERATORS_INDEX), None)
        section = index.parent if index else None
        if not isinstance(section, Section):
            return nav
        lang = index.file.src_uri.partition("/")[0]
        added = []
        for _, path in self.content.domain_indexes:
            file = files.get_file_from_path(f"{lang}/{path}")
            if file is not None and file.page is not None:
                file.page.parent = section
                section.children.append(file.page)
                added.append(file.page)
        at = nav.pages.index(index) + 1
        nav.pages[at:at] = added
        pages = [None, *nav.pages, None]
        for before, page, after in zip(pages, pages[1:-1], pages[2:], strict=False):
            page.previous_page, page.next_page = before, after
        return nav


def _generated_path(page: Page) -> str:
    return page.file.src_uri.partition("/")[2]
