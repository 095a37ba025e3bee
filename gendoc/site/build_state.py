"""The state of one site build, from the outermost ``on_pre_build`` to its ``on_post_build``.

mkdocs makes the plugin once per configuration and calls its hooks for every build;
the i18n plugin runs each further language's build inside the first one's
``on_post_build`` (or a forked process does, :mod:`gendoc.site.languages`). What the
hooks hand each other during one build lives in a :class:`SiteBuild`, made when the
outermost build starts and dropped when it ends or fails, so that nothing of a build
is left for the next one (``mkdocs serve`` rebuilds with the same plugin). The plugin
itself keeps only what its configuration gives: the site's content and its cache.
"""

from __future__ import annotations

import contextlib
import os
import shutil
from dataclasses import dataclass, field
from pathlib import Path

from mkdocs.structure.pages import Page

from gendoc.present import schema_html_cache
from gendoc.site import replaced_site
from gendoc.site.build_cache import Store
from gendoc.site.compiled import Compiling
from gendoc.site.frame_stencil import Frames
from gendoc.site.languages import Worker
from gendoc.site.search_index import Pages, parts_folder

Parts = tuple[tuple[str, str], ...]
"""The part files of one page (see :mod:`gendoc.site.parts`)."""


@dataclass(eq=False)
class LanguageBuild:
    """What the hooks of the language being built share."""

    lang: str
    store: Store
    """What this language's builds rendered and converted, kept for the next build."""
    site_key: str = ""
    """What the Markdown conversions depend on besides the page (set with the navigation)."""
    unread: dict[str, tuple[str, str]] = field(default_factory=dict)
    """Generated pages not rendered yet, by ``src_uri``: their language and path."""
    parts: dict[str, Parts] = field(default_factory=dict)
    """The parts of the pages read and not written yet, by ``src_uri``."""
    marked: Page | None = None
    """The domain index the navigation marks while one of its operator pages is written."""
    frames: Frames | None = None
    """The stencils of the theme's frame (see :mod:`gendoc.site.frame_stencil`), if any."""


@dataclass(eq=False)
class SiteBuild:
    """One build of the site, every language included."""

    first_language: str
    """The language of the outermost build: the one at the site's root."""
    texts: contextlib.ExitStack = field(default_factory=contextlib.ExitStack)
    """The :func:`gendoc.present.schema_html_cache.remembered` block of the whole build."""
    languages: list[LanguageBuild] = field(default_factory=list)
    """The languages this process built, in order; the last is the one being built."""
    open: int = 0
    """Builds started and not finished: the i18n plugin nests one build per language."""
    worker: Worker | None = None
    """The process building the other languages, while it runs."""
    index_parts: Path | None = None
    """Where each language's search index waits to be joined (see :mod:`.search_index`)."""
    index_parts_owner: int = 0
    """The process that made ``index_parts``."""
    compiling: Compiling | None = None
    """The templates being compiled beside the build's start (see :mod:`.compiled`)."""
    replaced: Path | None = None
    """The site this build replaces, set aside until mkdocs has cleaned the site folder (see
    :mod:`.replaced_site`)."""
    rewritten: Path | None = None
    """The site folder whose old files this build writes over, once they are put back."""
    replacing_owner: int = 0
    """The process that set the old site aside: the one to remove what is left of it."""

    def __post_init__(self) -> None:
        self.texts.enter_context(schema_html_cache.remembered())

    @property
    def language(self) -> LanguageBuild:
        return self.languages[-1]

    def begin_language(self, lang: str, store: Store) -> LanguageBuild:
        store.begin()
        self.languages.append(LanguageBuild(lang, store))
        self.open += 1
        return self.language

    def save(self, built_before: int = 0) -> None:
        """Keep what the builds of this process rendered and converted, for the next build;
        in the worker, only the stores of the languages it built (after the first
        ``built_before``): the first language's is its parent's to save."""
        self.texts.close()
        for built in self.languages[built_before:]:
            built.store.save()

    def index_folder(self, site: Path) -> Path:
        """The folder of this build's index parts, made the first time it is asked for."""
        if self.index_parts is None:
            self.index_parts = parts_folder(site)
            self.index_parts_owner = os.getpid()
        return self.index_parts

    def claim(self, site: Path, task: str) -> bool:
        """Whether this process takes ``task``, a piece of the build's end that either process
        may do: the first to ask takes it. The claim is a file made where the index parts
        wait (made before the processes part), so it goes with them."""
        claim = self.index_folder(site) / f".claim-{task}"
        try:
            os.close(os.open(claim, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
        except FileExistsError:
            return False
        return True

    def take_compiled(self) -> None:
        """Keep what the compiling process compiled, once it is done (waiting for it)."""
        if self.compiling is not None:
            compiling, self.compiling = self.compiling, None
            compiling.take()

    def remove_index_parts(self) -> None:
        """Remove the folder of the index parts, in the process that made it: a failing
        worker leaves it to its parent, which may still be writing its own part there."""
        if self.index_parts is not None and self.index_parts_owner == os.getpid():
            shutil.rmtree(self.index_parts, ignore_errors=True)
        self.index_parts = None

    def set_aside(self, site: Path) -> None:
        """Keep the site this build replaces from mkdocs' cleaning (:mod:`.replaced_site`)."""
        self.replaced = replaced_site.set_aside(site)
        self.replacing_owner = os.getpid()

    def put_back(self, site: Path) -> None:
        """mkdocs has cleaned ``site``: put the old files back, for the build to write over."""
        if self.replaced is not None:
            replaced_site.put_back(self.replaced, site)
            self.replaced, self.rewritten = None, site

    def remove_old_pages(self, site: Path, pages: Pages) -> None:
        """Delete the old pages among ``pages`` that this build did not write again, before
        they are indexed."""
        if self.rewritten is not None:
            replaced_site.remove_unwritten_pages(site, pages)

    def remove_replaced(self) -> None:
        """Remove what the build did not write again of the site it replaces (in the process
        that set it aside: the worker leaves it to its parent)."""
        if self.replacing_owner != os.getpid():
            return
        if self.replaced is not None:
            replaced_site.remove_aside(self.replaced)
        if self.rewritten is not None:
            replaced_site.remove_unwritten(self.rewritten)
        self.replaced = self.rewritten = None

    def fail(self, error: Exception) -> None:
        """The build failed: store nothing, stop the worker, remove the index parts and the
        site it replaced."""
        self.take_compiled()
        self.remove_index_parts()
        self.remove_replaced()
        self.texts.__exit__(type(error), error, error.__traceback__)
        if self.worker is not None:
            self.worker.stop()
            self.worker = None
