"""Parts of an operator page kept in files of their own, fetched when the reader opens them.

Most of a long operator page was text few readers open: Cast's page was
445 KB, 62% of it the comparisons of its versions (every pair of versions
written out, folded), and Attention's examples were 110 KB. Such a part is
written once per page into a folder beside it (``Cast.html`` ->
``Cast.parts/diff-6-9.htm``: an HTML fragment), and the page keeps a
folded element that names it (``data-gd-part``) with a link to it;
``assets/parts.js`` fetches the fragment when the element is opened, and a
reader without scripts follows the link. A part is not a page: ``.htm``
(served as HTML like ``.html``) keeps it apart from the pages for whatever
takes every ``*.html`` file of the site for one (the search index, the
site's checks); it opens with its encoding, for a browser that shows it on
its own.

The template calls :meth:`Parts.put` with a part's name and HTML and writes
the URL it returns; the parts travel with the page's :class:`Rendered` (and
so through the build cache), and the plugin writes them with the page.
"""

from __future__ import annotations

import posixpath
from pathlib import Path

from markupsafe import Markup
from mkdocs.structure.files import File
from mkdocs.utils import write_file

SUFFIX = ".parts"
EXTENSION = ".htm"
ENCODING = '<meta charset="utf-8">'
INLINE_BELOW = 1024
"""An example whose HTML is shorter stays in its page: a request for it would cost the
reader more than its bytes, and the build a file per language (two thirds of onnx's
examples are that short; creating a file took 0.4 ms of kernel time where this was
measured)."""


def folder_of(path: str, directory_urls: bool) -> str:
    """The parts folder of the page of docs-relative ``path``, as a URL relative to the page."""
    dest = File(path, "", "", directory_urls).dest_uri
    return posixpath.basename(dest).removesuffix(".html") + SUFFIX


class Parts:
    """The parts of one page, by file name, in the order the template put them."""

    extension = EXTENSION
    inline_below = INLINE_BELOW

    def __init__(self, folder: str) -> None:
        self.folder = folder
        self.files: dict[str, str] = {}

    def put(self, stem: str, html: str) -> str:
        """Keep ``html`` as the part ``stem`` (a file name without its extension); the URL
        that fetches it, from the page."""
        name = f"{stem}{EXTENSION}"
        if name in self.files:
            return f"{self.folder}/{name}"
        self.files[name] = f"{ENCODING}\n{str(Markup(html)).strip()}\n"
        return f"{self.folder}/{name}"


def write_parts(page_file: Path, parts: tuple[tuple[str, str], ...]) -> None:
    """Write a page's ``parts`` into the folder beside ``page_file`` (its written HTML)."""
    folder = page_file.with_suffix(SUFFIX)
    for name, html in parts:
        write_file(html.encode("utf-8"), str(folder / name))
