"""Parts of an operator page kept in files of their own, fetched when the reader opens them.

Most of a long operator page was text few readers open: Cast's page was
445 KB, 62% of it the comparisons of its versions (every pair of versions
written out, folded), and Attention's examples were 110 KB. Such parts are
written beside the page, named after it (``Cast.html`` -> ``Cast.*.htm``), each
file holding every part of one kind as a section with an id: the long examples
in ``Cast.examples.htm`` (an HTML fragment), the comparisons into one version in
``Cast.changes-9.htm`` (``#diff-6-9``, ``#diff-1-9``...). The page keeps a folded
element that names its section (``data-gd-part="Cast.changes-9.htm#diff-6-9"``)
with a link to it; ``assets/parts.js`` fetches the file when the element is
opened and takes the section, and a reader without scripts follows the link.
One file per kind and not per section, and no folder per page: creating a file
or a folder costs the build a fraction of a millisecond of kernel time, and onnx's
operators have 1,114 pairs of versions per language (432 versions that have an
older one) and 234 long examples (in 76 operators). A part is not a page: ``.htm`` (served as
HTML like ``.html``) keeps it apart from the pages for whatever takes every
``*.html`` file of the site for one (the search index, the site's checks); it
opens with its encoding, for a browser that shows it on its own.

The comparisons into a version are also a page of their own, for a reader who
opens a comparison's link in a new tab, without scripts, or prints it, and for search
engines (:meth:`Parts.put_page`): its file holds the whole page, the site's
head, header and footer taken from the operator page as written
(:func:`page_shell`), with a ``<base>`` at the operator page so that its links
to the page's own anchors lead there; the script takes only a section's body
(``data-gd-part-body``).

The template calls :meth:`Parts.put_in` or :meth:`Parts.put_page` and writes
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

PAGE = "<!-- gendoc page -->\n"
"""The start of a part that is a page of its own: its title on the next line, then its body."""
EXTENSION = ".htm"
ENCODING = '<meta charset="utf-8">'
INLINE_BELOW = 1024
"""An example whose HTML is shorter stays in its page: a request for it would cost the
reader more than its bytes, and the build a file per language (two thirds of onnx's
examples are that short; creating a file took 0.4 ms of kernel time where this was
measured)."""


def prefix_of(path: str, directory_urls: bool) -> str:
    """What the names of the parts of the page of docs-relative ``path`` start with: the
    page's file name without ``html`` (``Cast.``), as a URL relative to the page."""
    dest = File(path, "", "", directory_urls).dest_uri
    return posixpath.basename(dest).removesuffix("html")


class Parts:
    """The parts of one page, by file name, in the order the template put them."""

    extension = EXTENSION
    inline_below = INLINE_BELOW

    def __init__(self, prefix: str) -> None:
        self.prefix = prefix
        self.files: dict[str, str] = {}
        self.sections: set[tuple[str, str]] = set()

    def put_in(self, stem: str, section: str, html: str) -> str:
        """Add ``html`` to the part ``stem`` (a file name without its extension) as the
        element of id ``section``; the URL that fetches it, from the page (the file's, with
        the section's fragment). A part holds all the page's sections of its kind (every long
        example), one file where there was one per section."""
        name = f"{stem}{EXTENSION}"
        if (name, section) not in self.sections:
            self.sections.add((name, section))
            held = self.files.get(name, f"{ENCODING}\n")
            self.files[name] = f'{held}<div id="{section}">\n{str(Markup(html)).strip()}\n</div>\n'
        return f"{self.prefix}{name}#{section}"

    def put_page(self, stem: str, title: str, html: str) -> str:
        """Keep ``html`` as the part ``stem``, written as a page of its own titled ``title``
        (one line of text) in the site's frame; the URL that fetches it, from the page."""
        name = f"{stem}{EXTENSION}"
        if name not in self.files:
            self.files[name] = f"{PAGE}{title}\n{str(Markup(html)).strip()}\n"
        return f"{self.prefix}{name}"


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
    base = f'<meta charset="utf-8">\n<base href="{escape(page_name)}">'
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
    """Write a page's ``parts`` beside ``page_file`` (its written HTML, ``output``), each
    named after the page (``Cast.html`` -> ``Cast.changes-9.htm``), each part that is a page
    in the frame of ``output``. No folder of their own: making one per operator cost the
    build as much as a few of its files."""
    page_file.parent.mkdir(parents=True, exist_ok=True)  # mkdocs writes the page after this
    shell = None
    for name, html in parts:
        if html.startswith(PAGE):
            title, _, body = html[len(PAGE) :].partition("\n")
            shell = shell or page_shell(output, page_file.name)
            html = shell(title, body)
        page_file.with_name(f"{page_file.stem}.{name}").write_bytes(html.encode("utf-8"))
