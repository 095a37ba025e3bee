"""The site's content, collected, audited and rendered once per process.

mkdocs loads the plugin anew for every build (``mkdocs serve`` reloads its
configuration on every change, and the i18n plugin builds each language on
its own), so what is costly to derive is kept here, at module level, under
a key that changes when anything it depends on does: the schema modules,
the domains, and the templates and message catalogs (by size and time of
every file). The installed onnx cannot change within a process.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from gendoc.collect import installed
from gendoc.site.pages import SiteContent, static_findings
from gendoc.storage.cache import fingerprint
from gendoc.storage.resources import templates_root


def templates_key(templates: Path | None) -> str:
    folders = [templates_root(), *([templates] if templates else [])]
    return fingerprint("site", [p for f in folders for p in f.rglob("*") if p.is_file()])


@lru_cache(maxsize=4)
def _load(
    schemas: tuple[str, ...],
    domains: tuple[str, ...],
    templates: Path | None,
    directory_urls: bool,
    key: str,
) -> SiteContent:
    reference = installed.reference(schemas, with_details=True)
    reference = reference.scope(domains)
    return SiteContent(reference, static_findings(reference), templates, directory_urls)


def site_content(
    schemas: tuple[str, ...],
    domains: tuple[str, ...],
    templates: Path | None,
    directory_urls: bool = False,
) -> SiteContent:
    """The content for these options: the same object while nothing changes."""
    return _load(schemas, domains, templates, directory_urls, templates_key(templates))
