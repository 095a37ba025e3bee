"""The end of a site build: what is written once the pages are, by one process or two.

Once a language's pages are written, Pagefind indexes them (:mod:`.search_index`) and
the language's Markdown is published beside them (:mod:`.published`); once every
language's are, the indexes are joined into the site's and the reference's data is
written. When a forked worker builds the other languages (:mod:`.languages`), each
process indexes and publishes the languages it built (its caches hold their schema
texts: the Chinese Markdown took twice as long in the other process), and the data,
which needs no language, is written by whichever process gets to it first: which of
the two finishes its Pagefind run first changes from build to build, and the other
would wait for it with nothing to do.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from gendoc.site.build_state import SiteBuild
from gendoc.site.languages import cpu_share
from gendoc.site.page_table import write_site_wide
from gendoc.site.published import Published
from gendoc.site.search_index import Pages, index_pages, merge_bundles
from gendoc.site.search_ui import write_operator_names, write_terms


@dataclass(eq=False)
class SiteEnd:
    """The end of one build of the site written to ``site``; raises ``GendocError``."""

    build: SiteBuild
    published: Published
    cache: Path | None
    """The site's cache folder, where the search indexes are kept (none: caching is off)."""
    site: Path

    def publish(self, lang: str) -> None:
        """Write a language's Markdown files and its llms.txt pair (see :mod:`.published`)."""
        prefix = "" if lang == self.build.first_language else f"{lang}/"
        self.published.write_language(self.site / prefix, lang, prefix)

    def index(self, pages: Pages, share: int | None = None) -> Path:
        """Index ``pages`` into the build's folder of index parts: the part's bundle; by
        Pagefind on the processors of this process's ``share`` (0: the first language's, 1:
        the worker's), where the languages are built by two (:func:`.languages.cpu_share`)."""
        self.build.remove_old_pages(self.site, pages)
        cpus = None if share is None else cpu_share(share, 2)
        folder = self.build.index_folder(self.site)
        return index_pages(self.site, self.cache, pages, folder, cpus)

    def own(self, languages: list[str]) -> None:
        """What a process writes after indexing the languages it built: their Markdown (its
        caches hold their schema texts already), then the reference's data if the other
        process has not claimed it (:meth:`SiteBuild.claim`)."""
        for lang in languages:
            self.publish(lang)
        if self.build.claim(self.site, "data"):
            self.published.write_data(self.site)

    def worker_done(self, built_before: int, languages: list[str]) -> None:
        """In the worker, its builds over: save their stores, index their folders, then
        write their Markdown and, unless taken, the data."""
        self.build.save(built_before)
        for lang in languages:
            self.index(Pages(lang, lang), share=1)
        self.own(languages)

    def finish(self, others: list[str], wait_for_worker: Callable[[], None] | None) -> None:
        """In the first process, once its language is built: save its store, write the
        site-wide files, index its language, write its Markdown and, unless taken, the data,
        then (after the worker, waited for with ``wait_for_worker``, or here without one)
        join every language's index into the site's."""
        self.build.save()
        write_operator_names(self.published.content, self.site)
        write_terms(self.site)
        write_site_wide(self.published.content, self.site, self.build.first_language)
        first = Pages(self.build.first_language, skip=frozenset(others))
        bundles = [self.index(first, share=None if wait_for_worker is None else 0)]
        if wait_for_worker is not None:  # it indexed and published the others
            self.own([self.build.first_language])
            wait_for_worker()
            parts = self.build.index_folder(self.site)
            bundles += [parts / lang for lang in others]
        else:
            bundles += [self.index(Pages(lang, lang)) for lang in others]
            self.own([self.build.first_language, *others])
        merge_bundles(self.site, bundles)
