"""What one site build keeps for the next: rendered pages and their Markdown conversions.

A rebuild with nothing changed spends its time rendering the generated pages
from the templates and converting those written in Markdown to HTML, the
same work with the same result as last time. Both are kept in the cache folder (see
:mod:`gendoc.storage.cache`), under keys made of everything the result depends on:

- a generated page: the model (its ``repr``, which holds every schema and
  the onnx version), the audit's findings, the templates and catalogs, and
  gendoc's own source files, with the language and path;
- a Markdown conversion: the Markdown text the converter is given (after
  every plugin's ``on_page_markdown``), the page's place, the site's list of
  files (links are resolved against it), the Markdown settings and the
  versions of the packages that convert it.

So a key can only match when the result would be the same bytes: the site
is identical with and without the cache, only faster. A conversion that
logged anything (a broken link, say) is not kept, so that a rebuild reports
it again. The store is one MessagePack file, rewritten at the end of a build that
added anything, with only the entries that build used. An entry is checked
when it is read: one of the wrong shape (a damaged or foreign file) is a miss,
rendered again and replaced.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
from collections.abc import Callable, Iterable
from functools import cache, lru_cache
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

import markdown
import msgspec
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import Files
from mkdocs.structure.pages import Page
from mkdocs.structure.toc import get_toc

import gendoc
from gendoc.present.outputs import OUTPUTS
from gendoc.site.content import templates_key
from gendoc.site.pages import SiteContent
from gendoc.site.rendered import Rendered
from gendoc.storage.cache import DECODE_ERRORS, cache_dir, fingerprint, read_entry, write_entry

STORE_FILE = "pages-{lang}.msgpack"
# The store in MessagePack, keys sorted: some 15 MB of page text per language, its values
# strings, lists, small ints and maps. msgspec writes it in 8 ms and reads it in 8 ms, where
# its JSON took 26 and 25 ms (HTML's quotes escaped one by one) and was 4% larger.
_STORE_ENCODER = msgspec.msgpack.Encoder(order="sorted")
# The packages whose code turns a page's Markdown into HTML.
CONVERTERS = ("mkdocs", "markdown", "pymdown-extensions", "mkdocs-material", "pygments")


def digest(*parts: str) -> str:
    sha = hashlib.sha256()
    for part in parts:
        sha.update(part.encode())
        sha.update(b"\0")
    return sha.hexdigest()[:40]


def source_key(package: Path | None = None) -> str:
    """gendoc's own code and the data it ships (the evidence records, the onnxruntime
    registry, the search dictionary): any edit to either may change what a page renders to.
    ``package`` is gendoc's folder unless given."""
    package = package or Path(gendoc.__file__).parent
    return fingerprint(gendoc.__version__, [*package.glob("**/*.py"), *package.glob("**/data/*")])


@lru_cache(maxsize=4)  # as many as site_content keeps
def content_key(content: SiteContent) -> str:
    """Everything the generated pages are rendered from. Kept per content (one object while
    nothing it is made from changes, :func:`gendoc.site.content.site_content`): the i18n
    plugin's build of each language asks again, and the model's ``repr`` alone takes some
    20 ms."""
    return digest(
        repr(content.reference),
        repr(content.findings),
        templates_key(content.templates),
        OUTPUTS.key(),
        source_key(),
        f"directory_urls={content.directory_urls}",
    )


def converter_key(config: MkDocsConfig) -> str:
    """The Markdown settings and the versions of the packages that apply them."""
    versions = []
    for name in CONVERTERS:
        with contextlib.suppress(PackageNotFoundError):
            versions.append(f"{name} {version(name)}")
    settings = (
        config["markdown_extensions"],
        config["mdx_configs"],
        config["use_directory_urls"],
        config["validation"],
    )
    return digest(*versions, repr(settings))


def files_key(files: Files) -> str:
    """Where every file of the site goes: the targets links are resolved against."""
    rows = sorted(f"{f.src_uri}\0{f.dest_uri}\0{f.url}\0{f.inclusion.name}" for f in files)
    return digest(*rows)


def site_folder(config: MkDocsConfig) -> Path | None:
    """The cache folder of one site (by its configuration file), so that sites never share one."""
    folder = cache_dir()
    where = str(Path(config.config_file_path or ".").resolve())
    return folder / f"site-{digest(where)[:16]}" if folder else None


class Store:
    """Entries by key, read from one MessagePack file and written back with those a build used."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.entries: dict[str, Any] | None = None
        self.used: dict[str, Any] = {}
        self.added = False

    def _all(self) -> dict[str, Any]:
        if self.entries is None:
            self.entries = {}
            if self.path is not None:
                with contextlib.suppress(*DECODE_ERRORS):
                    stored = msgspec.msgpack.decode(read_entry(self.path))
                    if isinstance(stored, dict):
                        self.entries = stored
        return self.entries

    def get(self, key: str, valid: Callable[[Any], bool]) -> Any:
        """The entry of ``key`` if there is one and ``valid`` accepts it, else ``None``."""
        value = self.used.get(key, self._all().get(key))
        try:
            if value is None or not valid(value):
                return None
        except RecursionError:  # nested deeper than any page's table of contents
            return None
        self.used[key] = value
        return value

    def put(self, key: str, value: Any) -> None:
        self.used[key] = value
        self.added = True

    def begin(self) -> None:
        """A build starts: what earlier builds of this process used stays at hand."""
        self._all().update(self.used)
        self.used = {}
        self.added = False

    def save(self) -> None:
        """Write the entries this build used, if it added any; a failure only loses the cache."""
        if not self.added or self.path is None:
            return
        with contextlib.suppress(OSError):
            write_entry(self.path, _STORE_ENCODER.encode(self.used))
            self.path.with_suffix(".json").unlink(missing_ok=True)  # an earlier gendoc's
        self.added = False


@cache
def site_store(folder: Path | None, lang: str) -> Store:
    """One store per site and language for the process (``mkdocs serve`` reloads the plugin on
    every change); one per language, because the languages may be built in two processes."""
    return Store(folder / STORE_FILE.format(lang=lang) if folder else None)


def stored(store: Store, key: str) -> bool:
    """Whether the store holds a generated page under ``key``."""
    return store.get(key, _is_rendered) is not None


def stored_render(store: Store, key: str, render: Callable[[], Rendered]) -> Rendered:
    """A generated page: from the store, else rendered and stored."""
    kept = store.get(key, _is_rendered)
    if kept is not None:
        text, toc, parts = kept
        toc = None if toc is None else tuple(toc)
        return Rendered(text, toc, tuple((name, html) for name, html in parts))
    rendered = render()
    toc = None if rendered.toc is None else list(rendered.toc)
    store.put(key, [rendered.text, toc, [list(part) for part in rendered.parts]])
    return rendered


class _Count(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.count = 0

    def emit(self, record: logging.LogRecord) -> None:
        self.count += 1


@contextlib.contextmanager
def _counting(loggers: Iterable[logging.Logger]):
    counter = _Count()
    for logger in loggers:
        logger.addHandler(counter)
    try:
        yield counter
    finally:
        for logger in loggers:
            logger.removeHandler(counter)


def convert_with_store(store: Store, page: Page, site_key: str) -> None:
    """Make ``page.render`` take its conversion from the store when its key is there.

    mkdocs has no event that replaces the conversion, so the page's bound
    method is shadowed by one that looks in the store first and otherwise
    calls it, keeping what it set on the page.
    """
    convert = page.render

    def render(config: MkDocsConfig, files: Files) -> None:
        key = digest("html", site_key, page.file.src_uri, page.markdown or "")
        kept = store.get(key, _is_snapshot)
        if kept is not None and _restore(page, kept, files):
            return
        with _counting([logging.getLogger("mkdocs"), logging.getLogger()]) as counter:
            convert(config, files)
        if counter.count == 0:
            store.put(key, _snapshot(page))

    page.render = render  # type: ignore[method-assign]


WARM_UP = "```python\nx = 1\n```\n"
"""A code block of the language the site's Markdown pages show (the guide's examples)."""


def warm_converter(config: MkDocsConfig) -> None:
    """Convert a code block with the site's Markdown settings, so that the highlighter's
    lexer (its expressions compiled on first use, 25 ms) is ready before the languages'
    processes part, for both."""
    markdown.Markdown(
        extensions=config["markdown_extensions"], extension_configs=config["mdx_configs"] or {}
    ).convert(WARM_UP)


def _snapshot(page: Page) -> dict[str, Any]:
    links = page.links_to_anchors
    return {
        "content": page.content,
        "toc": _toc_tokens(page),
        "title": page._title_from_render,
        "anchors": sorted(page.present_anchor_ids or ()),
        "links": None
        if links is None
        else [[file.src_uri, dict(anchors)] for file, anchors in links.items()],
    }


def _restore(page: Page, kept: dict[str, Any], files: Files) -> bool:
    """Put a stored conversion back on ``page``; ``False`` (and ``page`` untouched) when it
    links to a file this site does not have."""
    links = None
    if kept["links"] is not None and logging.getLogger("mkdocs").getEffectiveLevel() > 10:
        links = {files.get_file_from_path(src_uri): anchors for src_uri, anchors in kept["links"]}
        if None in links:
            return False
    page.content = kept["content"]
    page.toc = get_toc(kept["toc"])
    page._title_from_render = kept["title"]
    page.present_anchor_ids = set(kept["anchors"])
    if links is not None:
        page.links_to_anchors = links
    return True


def _is_toc(tokens: Any) -> bool:
    """Whether ``tokens`` is a table of contents as ``get_toc`` reads it."""
    return isinstance(tokens, list) and all(
        isinstance(t, dict)
        and isinstance(t.get("level"), int)
        and isinstance(t.get("id"), str)
        and isinstance(t.get("name"), str)
        and _is_toc(t.get("children"))
        for t in tokens
    )


def _is_strings(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


def _is_rendered(value: Any) -> bool:
    """Whether a stored page has the shape :func:`stored_render` stores."""
    return (
        isinstance(value, list)
        and len(value) == 3
        and isinstance(value[0], str)
        and (value[1] is None or _is_toc(value[1]))
        and isinstance(value[2], list)
        and all(_is_strings(part) and len(part) == 2 for part in value[2])
    )


def _is_link(link: Any) -> bool:
    """``[src_uri, {anchor: anchor}]``: a page linked to and the anchors linked there."""
    return (
        isinstance(link, list)
        and len(link) == 2
        and isinstance(link[0], str)
        and isinstance(link[1], dict)
        and all(isinstance(k, str) and isinstance(v, str) for k, v in link[1].items())
    )


def _is_snapshot(value: Any) -> bool:
    """Whether a stored conversion has the shape :func:`_snapshot` stores."""
    if not isinstance(value, dict) or set(value) != {"content", "toc", "title", "anchors", "links"}:
        return False
    links = value["links"]
    return (
        isinstance(value["content"], str)
        and _is_toc(value["toc"])
        and (value["title"] is None or isinstance(value["title"], str))
        and _is_strings(value["anchors"])
        and (links is None or (isinstance(links, list) and all(map(_is_link, links))))
    )


def _toc_tokens(page: Page) -> list[dict[str, Any]]:
    """The table of contents as the tokens ``get_toc`` reads, rebuilt from the page's toc."""

    def token(link: Any) -> dict[str, Any]:
        return {
            "level": link.level,
            "id": link.id,
            "name": link.title,
            "children": [token(child) for child in link.children],
        }

    return [token(link) for link in page.toc.items]
