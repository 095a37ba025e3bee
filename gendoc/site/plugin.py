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

Which files and navigation entries the generated pages get is
:mod:`gendoc.site.generated_files`'s; what ends a build (the search index, the
data and Markdown published beside the pages) is :mod:`gendoc.site.build_end`'s.

The i18n plugin runs the other languages' builds inside the first build's
``on_post_build``; with a second core, the plugin runs them in a forked
process instead, beside the first language (:mod:`gendoc.site.languages`).
Either way each language keeps its own ``404.html`` (mkdocs writes it at the
site's root in every build: the first language's stays there, the others go
into their folders), and each process has Pagefind index the pages of the
languages it built, one index per ``<html lang>``; the first joins the
parts once every language is written (:mod:`gendoc.site.search_index`).

What the hooks of one build hand each other (the language being built, its store of
rendered pages, the worker, the search index's parts) is one :class:`~.build_state.SiteBuild`,
made when the outermost build starts and dropped when it ends; the plugin keeps only
what its configuration gives. What a build made is kept for the next one: the generated pages, their
Markdown conversions (:mod:`gendoc.site.build_cache`) and the search index
(:mod:`gendoc.site.search_index`), so a rebuild with nothing changed is cheap.
"""

from __future__ import annotations

import gc
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

import jinja2
from markupsafe import Markup
from mkdocs.config import base
from mkdocs.config import config_options as c
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin, CombinedEvent, event_priority
from mkdocs.structure.files import Files
from mkdocs.structure.nav import Navigation
from mkdocs.structure.pages import Page
from mkdocs.utils.templates import TemplateContext

from gendoc.catalogs.i18n import LANGUAGES, translations
from gendoc.errors import GendocError
from gendoc.site.build_cache import (
    content_key,
    convert_with_store,
    converter_key,
    digest,
    files_key,
    site_folder,
    site_store,
    stored,
    stored_render,
    warm_converter,
)
from gendoc.site.build_end import SiteEnd
from gendoc.site.build_state import SiteBuild
from gendoc.site.compiled import THEME_BYTECODE, compile_ahead, compile_beside
from gendoc.site.content import site_content
from gendoc.site.frame_stencil import share_frame
from gendoc.site.generated_files import add_generated, generated_path, list_domain_indexes
from gendoc.site.languages import may_fork, start
from gendoc.site.pages import SiteContent
from gendoc.site.parts import write_parts
from gendoc.site.process_end import keep_until_exit
from gendoc.site.published import Published
from gendoc.site.rendered import (
    PERMALINK_TITLE,
    HtmlRender,
    Rendered,
    compact_frame,
    serve_html,
)
from gendoc.site.search_ui import panel_attributes
from gendoc.site.theme_assets import drop_unused
from gendoc.site.theme_frame import outside_navigation, share_nav, theme_folders, theme_labels
from gendoc.storage.resources import templates_root
from gendoc.storage.write import refuse_linked_folder, remove_links

if TYPE_CHECKING:  # mkdocs serve's server: its import (http.server, watchdog) is not a build's
    from mkdocs.livereload import LiveReloadServer


def _unlinked_site(site: Path) -> None:
    """Refuse a site folder that is a link; remove the links inside it before mkdocs cleans it.

    mkdocs' cleaning keeps a link to a folder (``site/pagefind`` or ``site/zh`` pointing
    elsewhere), and the pages and the search index would then be written through it.
    """
    try:
        refuse_linked_folder(site)
        remove_links(site)
    except (GendocError, OSError) as exc:
        raise PluginError(f"gendoc: {exc}") from None


class GendocConfig(base.Config):
    schemas = c.ListOfItems(c.Type(str), default=[])
    """Modules to import first: they register extra schemas with onnx."""
    domains = c.ListOfItems(c.Type(str), default=[])
    """Domains to document (``ai.onnx`` names the default one); empty: all of them."""
    languages = c.ListOfItems(c.Type(str), default=["en", "zh"])
    """Language folders under ``docs_dir``; each gets the whole generated reference."""
    templates = c.Optional(c.Dir(exists=True))
    """A folder of templates and catalogs searched before gendoc's own."""


class GendocPlugin(BasePlugin[GendocConfig]):
    supports_multiple_instances = False
    content: SiteContent
    """The site's generated pages and what they show, for this configuration."""
    cache: Path | None
    """The site's cache folder (none when caching is off)."""
    pages_key: str
    """What the generated pages depend on (see :mod:`gendoc.site.build_cache`)."""
    published: Published
    """The data and Markdown files published beside the pages (see :mod:`.published`)."""
    command: str | None = None
    """The mkdocs command running (``build``, ``serve``...), when mkdocs said."""
    dirty: bool = False
    """Whether mkdocs builds with ``--dirty``: it keeps the site's files it does not rewrite."""
    build: SiteBuild | None = None
    """The build under way (see :mod:`.build_state`), from its start to its end."""

    def on_config(self, config: MkDocsConfig) -> MkDocsConfig:
        templates = Path(self.config.templates) if self.config.templates else None
        try:
            self.content = site_content(
                tuple(self.config.schemas),
                tuple(self.config.domains),
                templates,
                config.use_directory_urls,
            )
        except GendocError as exc:
            raise PluginError(f"gendoc: {exc}") from exc
        self.pages_key = content_key(self.content)
        self.cache = site_folder(config)
        self.published = Published(self.content, config.site_url or "", self.pages_key)
        return config

    def on_startup(self, *, command: str, dirty: bool) -> None:
        """Remember the command; no cyclic garbage collection during ``mkdocs build``.

        Reading the model and rendering make many objects and few cycles, and the process
        ends when the build does: a collection finds little to free, and in the languages'
        process, forked later, it would copy every page of the model it visits. Where this
        was measured, each of the two processes spent 0.44 s in collections with Python's
        thresholds, 0.15 to 0.18 s with a young collection every 10,000 allocations and the
        model frozen out of the collector's sight, and none without, for 10 MB more at the
        peak (237 MB against 227). Not under ``mkdocs serve``, which runs for hours.
        """
        self.command, self.dirty = command, dirty
        if command == "build":
            gc.disable()

    def on_shutdown(self) -> None:
        """``mkdocs build`` is over: its process ends without freeing what it made (see
        :mod:`.process_end`), its collector back on for whatever runs after."""
        if self.command == "build":
            keep_until_exit()
            gc.enable()

    def on_pre_build(self, config: MkDocsConfig) -> None:
        if self.build is None:
            site = Path(config.site_dir)
            _unlinked_site(site)
            self.build = SiteBuild(config.theme["language"])
            if not self.dirty:  # mkdocs' cleaning finds nothing to delete (.replaced_site)
                self.build.set_aside(site)
            if self._will_fork(config):
                self.build.compiling = compile_beside(partial(self._compile, config))
        # The i18n plugin sets the language switcher's links on config.extra as an attribute
        # per page, which hides the item it resets for each language: the next language's
        # 404 page would link the last page of the previous one.
        vars(config.extra).pop("alternate", None)
        lang = config.theme["language"]
        # The headings' permanent links of the Markdown pages carry a tooltip in the page's
        # language, as those of the pages written as HTML do (gendoc.site.rendered).
        toc = config.mdx_configs.setdefault("toc", {})
        if lang in LANGUAGES:
            labels = translations(lang, self.content.templates)
            toc["permalink_title"] = labels.gettext(PERMALINK_TITLE)
        self.build.begin_language(lang, site_store(self.cache, lang))

    def on_build_error(self, error: Exception) -> None:
        if self.build is not None:
            self.build.fail(error)  # stores nothing
            self.build = None

    def on_post_template(self, output: str, template_name: str, config: MkDocsConfig) -> str:
        """Each language's 404 page goes into its folder, the root keeps the first one's; the
        first language leaves the sitemap to the worker's last language, which lists all. A
        site without ``site_url`` has no sitemap: its addresses must be absolute."""
        first = config.theme["language"] == self.config.languages[0]
        worker = self.build.worker if self.build else None
        if template_name == "sitemap.xml" and (not config.site_url or (first and worker)):
            return ""  # mkdocs writes nothing for an empty output
        if template_name != "404.html" or first:
            return output
        folder = Path(config.site_dir) / config.theme["language"]
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "404.html").write_text(output, encoding="utf-8")
        return ""

    def _end(self, config: MkDocsConfig) -> SiteEnd:
        return SiteEnd(self.build, self.published, self.cache, Path(config.site_dir))

    def _other_languages(self, config: MkDocsConfig) -> list[str]:
        """The languages built into folders of their own: every one but the root's."""
        i18n = self._i18n(config)
        if i18n is None:
            return []
        return [lang for lang in i18n.build_languages if lang != self.build.first_language]

    @event_priority(-50)  # before the i18n plugin (-100) would build the other languages
    def _leave_languages_to_worker(self, config: MkDocsConfig) -> None:
        if self.build.open == 1 and self.build.worker is not None:
            self._i18n(config).building = True  # the i18n plugin skips them

    @event_priority(-200)  # after the i18n plugin has built the other languages
    def _finish(self, config: MkDocsConfig) -> None:
        """End the build (see :mod:`.build_end`), once, when the outermost build ends."""
        build = self.build
        build.open -= 1
        if build.open > 0:
            return

        def wait_for_worker() -> None:
            worker, build.worker = build.worker, None
            self._i18n(config).building = False
            worker.wait()

        waits = wait_for_worker if build.worker is not None else None
        try:
            self._end(config).finish(self._other_languages(config), waits)
        except GendocError as exc:
            raise PluginError(f"gendoc: {exc}") from exc
        finally:
            if build.worker is not None:  # failed before waiting for it: of no use any more
                build.worker.stop()
                build.worker = None
            build.remove_index_parts()
            build.remove_replaced()
            self.build = None

    on_post_build = CombinedEvent(_leave_languages_to_worker, _finish)

    @event_priority(-200)  # the navigation is final: the sitemap lists this language's pages
    def _start_worker(self, nav: Navigation, config: MkDocsConfig, files: Files) -> Navigation:
        """Fork the other languages' build, when this is ``mkdocs build``'s first language."""
        i18n = self._i18n(config)
        others = self._other_languages(config)
        build = self.build
        if self._will_fork(config):
            build.index_folder(Path(config.site_dir))  # made before the fork: the worker's too
            finish = partial(self._end(config).worker_done, len(build.languages))
            self._before_fork(config)
            build.worker = start(config, i18n, others, finish)
        return nav

    def _will_fork(self, config: MkDocsConfig) -> bool:
        """Whether this build's first language forks the others' build (see
        :mod:`.languages`): ``mkdocs build`` of more than one language, where it can."""
        first = self.build is not None and self.build.open <= 1
        return (
            first and self.command == "build" and bool(self._other_languages(config)) and may_fork()
        )

    def _compile(self, config: MkDocsConfig) -> None:
        """Compile the theme's and the generated pages' templates (see :mod:`.compiled`)."""
        self.content.compile_templates(config.theme["language"])
        env = config.theme.get_env()
        env.bytecode_cache = THEME_BYTECODE
        compile_ahead(env, ["main.html", *sorted(config.theme.static_templates)])

    def _before_fork(self, config: MkDocsConfig) -> None:
        """What each language's process would do alike, done once before they part: when
        this build renders pages (not all are stored), what all languages' pages read alike
        and the Markdown converter's first use; then the templates, compiled meanwhile
        beside it (or now, if that failed)."""
        language = self.build.language
        keys = (digest(self.pages_key, lang, path) for lang, path in language.unread.values())
        if not all(stored(language.store, key) for key in keys):
            self.content.prepare()
            warm_converter(config)
        self.build.take_compiled()
        self._compile(config)  # compiles nothing that was compiled already

    @staticmethod
    def _i18n(config: MkDocsConfig) -> Any:
        return config.plugins.get("i18n")

    def _add_files(self, files: Files, config: MkDocsConfig) -> Files:
        self.build.put_back(Path(config.site_dir))  # mkdocs has cleaned the site folder
        drop_unused(files, config.docs_dir)
        try:
            add_generated(files, config, self.content, self.config.languages)
        except GendocError as exc:
            raise PluginError(f"gendoc: {exc}") from None
        return files

    @event_priority(-110)  # after the i18n plugin has sorted the files by language
    def _fill_files(self, files: Files, config: MkDocsConfig) -> Files:
        """Generated pages are rendered when mkdocs reads them (:meth:`on_pre_page`), so that
        the other languages' process can start before; other generated files now."""
        language = self.build.language
        for file in files:
            lang, _, path = file.src_uri.partition("/")
            if lang in self.config.languages and path in self.content.pages:
                file.generated_by = "gendoc"
                if file.is_documentation_page():
                    file.content_string = ""
                    language.unread[file.src_uri] = (lang, path)
                else:
                    file.content_string = self._render(lang, path).text
        return files

    on_files = CombinedEvent(_add_files, _fill_files)

    def _render(self, lang: str, path: str) -> Rendered:
        try:
            return stored_render(
                self.build.language.store,
                digest(self.pages_key, lang, path),
                partial(self.content.render, path, lang),
            )
        except GendocError as exc:  # a broken template: one line naming its file and line
            raise PluginError(f"gendoc: {exc}") from None

    def _footer(self, lang: str) -> Markup:
        try:
            return self.content.footer(lang)
        except GendocError as exc:
            raise PluginError(f"gendoc: {exc}") from None

    def on_pre_page(self, page: Page, config: MkDocsConfig, files: Files) -> Page:
        """A generated page is rendered now; one written as HTML is taken in as it is."""
        language = self.build.language
        unread = language.unread.pop(page.file.src_uri, None)
        if unread is not None:
            rendered = self._render(*unread)
            page.file.content_string = rendered.text
            if rendered.parts:
                language.parts[page.file.src_uri] = rendered.parts
            if rendered.toc is not None:
                serve_html(page, rendered)
                return page
        convert_with_store(language.store, page, language.site_key)
        return page

    @event_priority(100)  # before the other plugins' Markdown hooks (the i18n plugin's)
    def on_page_markdown(
        self, markdown: str, page: Page, config: MkDocsConfig, files: Files
    ) -> str:
        """A page written as HTML gives the Markdown hooks nothing (see :class:`.HtmlRender`)."""
        render = page.render
        return render.set_aside(markdown) if isinstance(render, HtmlRender) else markdown

    def on_page_context(
        self, context: TemplateContext, page: Page, config: MkDocsConfig, nav: Navigation
    ) -> TemplateContext:
        index = self.content.operator_domains.get(generated_path(page))
        if index is not None:
            wanted = f"{page.file.src_uri.partition('/')[0]}/{index}"
            marked = next((p for p in nav.pages if p.file.src_uri == wanted), None)
            if marked is not None:
                marked.active = True  # the theme marks it, and its section, in the nav
            self.build.language.marked = marked
        return context

    def on_post_page(self, output: str, page: Page, config: MkDocsConfig) -> str:
        language = self.build.language
        if language.frames is None or not language.frames.is_compact(output):
            output = compact_frame(output)
        parts = language.parts.pop(page.file.src_uri, None)
        if parts:
            write_parts(Path(page.file.abs_dest_path), parts, output)
        if language.marked is not None:
            language.marked.active = False
            language.marked = None
        return output

    def on_serve(
        self, server: LiveReloadServer, config: MkDocsConfig, builder: Callable[..., Any]
    ) -> LiveReloadServer:
        """``mkdocs serve`` rebuilds when a template or message catalog changes."""
        server.watch(str(templates_root()))
        if self.config.templates:
            server.watch(self.config.templates)
        return server

    def on_env(self, env: jinja2.Environment, config: MkDocsConfig, files: Files) -> None:
        """Keep the theme's compiled templates for the other language and later builds;
        give the theme gendoc's footer (see partials/copyright.html) and the search panel's
        words (partials/header.html)."""
        if env.bytecode_cache is None:
            env.bytecode_cache = THEME_BYTECODE
        share_nav(env)  # the same sidebar for every page of a folder outside the navigation
        # and the same frame, filled in
        self.build.language.frames = share_frame(env, theme_folders(), outside_navigation)
        env.globals["gendoc_theme_label"] = theme_labels(env)  # partials/language.html
        env.globals["gendoc_footer"] = self._footer
        env.globals["gendoc_search"] = partial(panel_attributes, self.content)

    def _list_domains(self, nav: Navigation, config: MkDocsConfig, files: Files) -> Navigation:
        self.build.language.site_key = digest(converter_key(config), files_key(files))
        list_domain_indexes(nav, files, self.content)
        return nav

    on_nav = CombinedEvent(_list_domains, _start_worker)
