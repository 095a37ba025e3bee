"""The generated pages as mkdocs sees them: a file per page and language, and the domain
indexes in the navigation.

The i18n plugin only pairs the pages of ``docs_dir`` across languages, so every
generated page gets a File there in every language folder, without content: the
plugin gives the content of the language being built later (:mod:`.plugin`). Operator
pages stay out of the navigation (a few hundred entries on every page would dominate the
build time); the domain indexes are listed under the section that holds the reference's
index.
"""

from __future__ import annotations

from collections.abc import Iterable

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files, InclusionLevel
from mkdocs.structure.nav import Navigation, Section
from mkdocs.structure.pages import Page

from gendoc.errors import GendocError
from gendoc.site.page_table import AUDIT_PAGE, COVERAGE_PAGE, OPERATORS_INDEX
from gendoc.site.pages import SiteContent

# Pages listed in mkdocs.yml's nav; every other generated page is reached by links.
NAV_PAGES = (OPERATORS_INDEX, COVERAGE_PAGE, AUDIT_PAGE)


def generated_path(page: Page) -> str:
    """A page's path under its language folder."""
    return page.file.src_uri.partition("/")[2]


def add_generated(
    files: Files, config: MkDocsConfig, content: SiteContent, languages: Iterable[str]
) -> None:
    """A File for every page written per language, in every folder of ``languages``;
    ``GendocError`` where ``docs_dir`` has a file of that name."""
    for lang in languages:
        for path, spec in content.pages.items():
            if not spec.per_language:
                continue  # written once, at the site's root (see build_end)
            src_uri = f"{lang}/{path}"
            if files.get_file_from_path(src_uri) is not None:
                raise GendocError(f"{src_uri} is generated on every build; remove it from docs_dir")
            inclusion = InclusionLevel.UNDEFINED if path in NAV_PAGES else InclusionLevel.NOT_IN_NAV
            files.append(
                File(
                    src_uri,
                    config.docs_dir,
                    config.site_dir,
                    config.use_directory_urls,
                    inclusion=inclusion,
                )
            )


def list_domain_indexes(nav: Navigation, files: Files, content: SiteContent) -> None:
    """List the domain indexes under the section that holds the reference's index, in the
    pages' order too (each page's previous and next)."""
    index = next((p for p in nav.pages if generated_path(p) == OPERATORS_INDEX), None)
    section = index.parent if index else None
    if not isinstance(section, Section):
        return
    lang = index.file.src_uri.partition("/")[0]
    added = []
    for path in content.domain_indexes:
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
