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

A comparison of two versions is also a page of its own, for a reader who
opens its link in a new tab, without scripts, or prints it, and for search
engines (:meth:`Parts.put_page`): its file holds the whole page, the site's
head, header and footer taken from the operator page as written
(:func:`page_shell`), with a ``<base>`` at the operator page so that every
relative link works one folder down; the script takes only its body
(``data-gd-part-body``).

The template calls :meth:`Parts.put` with a part's name and HTML and writes
the URL it returns; the parts travel with the page's :class:`Rendered` (and
so through the build cache), and the plugin writes them with the page.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable
from pathlib import Path

from markupsafe import Markup, escape
from mkdocs.structure.files import File
from mkdocs.utils import write_file

SUFFIX = ".parts"
PAGE = "<!-- gendoc page -->\n"
"""The start of a part that is a page of its own: its title on the next line, then its body."""
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

    def put_page(self, stem: str, title: str, html: str) -> str:
        """Keep ``html`` as the part ``stem``, written as a page of its own titled ``title``
        (one line of text) in the site's frame; the URL that fetches it, from the page."""
        name = f"{stem}{EXTENSION}"
        if name not in self.files:
            self.files[name] = f"{PAGE}{title}\n{str(Markup(html)).strip()}\n"
        return f"{self.folder}/{name}"


_TITLE = re.compile(r"<title>.*?</title>", re.S)
_CANONICAL = re.compile(r'\s*<link rel="canonical"[^>]*>')
_MAIN = (
    '<main class="md-main" data-md-component="main"><div class="md-main__inner md-grid">'
    '<div class="md-content" data-md-component="content">'
    '<article class="md-content__inner md-typeset">\n{}</article></div></div></main>\n'
)


def page_shell(output: str, page_name: str) -> Callable[[str, str], str]:
    """The site's frame of a written page (``output``, named ``page_name`` in its folder)
    around another body: its head (the title replaced, no canonical link, a ``<base>`` at the
    page), its header and its footer, without the sidebars."""
    head_end = output.index("</head>")
    main = output.index("<main")
    footer = output.index("<footer")
    head = _CANONICAL.sub("", output[:head_end], count=1)
    site_title = _TITLE.search(head)
    suffix = site_title.group(0)[7:-8].rpartition(" - ")[2] if site_title else ""
    base = f'<meta charset="utf-8">\n<base href="../{escape(page_name)}">'
    head = head.replace('<meta charset="utf-8">', base, 1)
    before, after = head + output[head_end:main], output[footer:]

    def wrap(title: str, body: str) -> str:
        full = f"{escape(title)} - {suffix}" if suffix else str(escape(title))
        return (
            _TITLE.sub(lambda _: f"<title>{full}</title>", before, count=1)
            + _MAIN.format(body)
            + after
        )

    return wrap


def write_parts(page_file: Path, parts: tuple[tuple[str, str], ...], output: str) -> None:
    """Write a page's ``parts`` into the folder beside ``page_file`` (its written HTML,
    ``output``), each part that is a page in the frame of ``output``."""
    folder = page_file.with_suffix(SUFFIX)
    shell = None
    for name, html in parts:
        if html.startswith(PAGE):
            title, _, body = html[len(PAGE) :].partition("\n")
            shell = shell or page_shell(output, page_file.name)
            html = shell(title, body)
        write_file(html.encode("utf-8"), str(folder / name))
