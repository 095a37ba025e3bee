"""Whether schema text written raw into Markdown would be live: the onnx layout's sanitizer.

onnx's ``gen_doc.py`` writes names and descriptions as they are, inside HTML blocks
(``<dd>``) and as Markdown paragraphs. For onnx's own schemas that is harmless, and
gendoc's ``--style onnx`` must write the same bytes; a schema module's text is data,
and must not become a script, a handler or a ``javascript:`` link. So a text is written
raw only when it is *inert* both ways it can be read:

- **as HTML**, parsed by html5lib, an HTML5 parser that builds the tree a browser
  builds (comments ended at ``<!-->``, character references in attributes decoded,
  a tag left open at the end of the text closed by what follows it). The tree must be
  the one nh3 (the Ammonia sanitizer) keeps of the same text with its allow-list of
  tags and attributes and link schemes ``http``, ``https``, ``mailto`` or relative,
  but for the elements nh3 unwraps that carry no attribute value (the ``<T>`` of
  ``Tensor<T>`` in onnx's prose, which a browser shows as nothing but its content).
  The text is followed by a marker element (its text random, so that no text can
  write it), which must come out as that element, last: a text
  that ends inside a tag, a comment or an element whose content is not markup (a
  ``<textarea>``) would swallow what the layout writes after it.
- **as Markdown**, parsed by markdown-it-py (CommonMark, as GitHub reads it) with every
  link let through: each link, image, autolink and reference definition must have an
  allowed scheme; and converted by Python-Markdown, which mkdocs uses, with attribute
  lists on as sites enable them (``{: onclick=...}`` after an element): its HTML must
  be inert as above, and so must every reference definition it read, used or not (a
  link in another text may use it; Python-Markdown reads one inside a paragraph too).
  An operator's doc is written as Markdown paragraphs, where code spans and fences
  hold ``<`` as text: it is read as Markdown only, and the HTML both parsers make of
  it is checked.

A URL's scheme is read after decoding character references and percent-encoding
(until nothing changes) and removing tabs, line breaks and other control characters,
as a browser ignores them.

The layout asks this of a schema module's texts only: onnx's own are written as its
gen_doc.py writes them (they all pass, the tests check, but parsing onnx's two thousand
texts three ways would take longer than the rest of a build).
"""

from __future__ import annotations

import html
import re
import secrets
from functools import cache
from typing import Any
from urllib.parse import unquote

import nh3

SCHEMES = frozenset({"http", "https", "mailto"})
"""The link schemes schema text may use; a URL without a scheme (relative) is allowed too."""

# Unknown to any text: a text that ends inside an attribute must not be able to write it.
_MARKER = f"gendoc-end-{secrets.token_hex(16)}"
_SCHEME = re.compile(r"([A-Za-z][A-Za-z0-9+.\-]*):")
_CONTROLS = re.compile(r"[\x00-\x20\x7f-\x9f]")
# nh3's allow-list, and the language class Markdown renderers give a fenced code block.
_ATTRIBUTES = {**nh3.ALLOWED_ATTRIBUTES, "code": {"class"}}
# More tags than any prose has: the HTML5 tree of thousands of nested formatting elements
# takes seconds to build, so such a text is written as text without being parsed.
_MOST_TAGS = 1000
# The attributes nh3 may keep that hold a URL.
_URL_ATTRIBUTES = frozenset({"href", "src", "cite"})
# What each reading needs to find anything: an element or a reference; a link or an
# autolink; a link, a reference definition or an attribute list.
_HTML_SIGNS = re.compile(r"[<&]")
_COMMONMARK_SIGNS = re.compile(r"\]\s*[(:\[]|<")
_PYTHON_MARKDOWN_SIGNS = re.compile(r"\]\s*[(:\[]|\{")


def url_is_safe(url: str) -> bool:
    """Whether ``url`` is relative or of an allowed scheme, read as a browser reads it."""
    previous = None
    while url != previous:
        previous = url
        url = _CONTROLS.sub("", unquote(html.unescape(url)))
    scheme = _SCHEME.match(url)
    return scheme is None or scheme.group(1).lower() in SCHEMES


@cache
def is_live(text: str, markdown: bool = False) -> bool:
    """Whether ``text``, written raw as onnx's layout writes it, could run or fetch anything
    that the allow-list does not keep: inside an HTML block (a description in ``<dd>``,
    read as HTML and, past a blank line, as Markdown), or with ``markdown`` as a Markdown
    paragraph (an operator's doc, whose code spans and fences hold ``<`` as text).
    Cached: a module's texts recur across versions."""
    try:
        return text.count("<") > _MOST_TAGS or _is_live(text, markdown)
    except (RecursionError, UnicodeError):  # nested past what the parsers take, or no text
        return True


def _is_live(text: str, markdown: bool) -> bool:
    marked = f"{text}<b>{_MARKER}</b>"
    if not markdown and _HTML_SIGNS.search(text) and not _html_inert(marked):
        return True
    if _COMMONMARK_SIGNS.search(text) and not _commonmark_inert(text, markdown):
        return True
    signs = _PYTHON_MARKDOWN_SIGNS.search(text) or (markdown and "<" in text)
    return bool(signs) and not _python_markdown_inert(text)


def _html_inert(source: str) -> bool:
    """Whether ``source`` parses to what nh3 keeps of it, ending with the marker element."""
    import html5lib

    kept = nh3.clean(
        source,
        attributes=_ATTRIBUTES,
        url_schemes=set(SCHEMES),
        link_rel=None,
        strip_comments=True,
    )
    raw = _shape(html5lib.parseFragment(source, namespaceHTMLElements=False), unwrap=True)
    if raw is None or not _ends_with_marker(raw):
        return False  # a URL of another scheme, or the text did not end in content
    return raw == _shape(html5lib.parseFragment(kept, namespaceHTMLElements=False))


def _ends_with_marker(items: list[Any] | tuple[Any, ...]) -> bool:
    """Whether the last node of the tree, in document order, is the marker element (inside
    an element the text left open, such as an unclosed ``<i>``, or not)."""
    while items:
        last = items[-1]
        if last == ("b", (), (_MARKER,)):
            return True
        if isinstance(last, str):
            return False
        items = last[2]
    return False


def _shape(node: Any, unwrap: bool = False) -> list[Any] | None:
    """The children of an html5lib (ElementTree) node as nested tuples
    ``(tag, attributes, children)`` and strings; with ``unwrap``, an element not allowed
    that has no attribute value is replaced by its children, as nh3 unwraps it.
    ``None`` when an element links to a URL that :func:`url_is_safe` refuses."""
    found: list[Any] = []

    def text(value: str | None) -> None:
        if not value:
            return
        if found and isinstance(found[-1], str):
            found[-1] += value
        else:
            found.append(value)

    text(node.text)
    for child in node:
        tag = child.tag if isinstance(child.tag, str) else "!"  # a comment
        attributes = tuple(sorted(child.attrib.items()))
        children = _shape(child, unwrap)
        urls = (value for name, value in attributes if name in _URL_ATTRIBUTES)
        if children is None or not all(map(url_is_safe, urls)):
            return None
        if unwrap and tag not in nh3.ALLOWED_TAGS and not any(v for _, v in attributes):
            for item in children:
                text(item) if isinstance(item, str) else found.append(item)
        else:
            found.append((tag, attributes, tuple(children)))
        text(child.tail)
    return found


@cache
def _commonmark() -> Any:
    from markdown_it import MarkdownIt

    parser = MarkdownIt("commonmark", {"html": True}).enable("table")
    parser.validateLink = lambda url: True  # every link is seen, and checked here
    return parser


@cache
def _python_markdown() -> Any:
    import markdown

    return markdown.Markdown(extensions=["attr_list", "tables", "fenced_code"])


def _commonmark_inert(text: str, with_html: bool) -> bool:
    """Whether every link, image, autolink and reference definition markdown-it-py finds in
    ``text`` has an allowed scheme; ``with_html``: and the HTML it makes is inert."""
    parser = _commonmark()
    env: dict[str, Any] = {}
    tokens = parser.parse(text, env)
    urls = [
        str(token.attrGet("href") or token.attrGet("src") or "")
        for block in tokens
        for token in block.children or ()
        if token.type in ("link_open", "image")
    ]
    urls += [str(ref.get("href", "")) for ref in env.get("references", {}).values()]
    if not all(map(url_is_safe, urls)):
        return False
    rendered = parser.renderer.render(tokens, parser.options, env)
    return not with_html or _html_inert(f"{rendered}<b>{_MARKER}</b>")


def _python_markdown_inert(text: str) -> bool:
    """Whether the HTML Python-Markdown makes of ``text``, with attribute lists on as sites
    enable them, is inert (its links, reference definitions and attribute lists)."""
    converter = _python_markdown()
    converted = converter.reset().convert(text)
    # A definition is the document's: a link elsewhere may use it.
    if not all(url_is_safe(url) for url, _ in converter.references.values()):
        return False
    return _html_inert(f"{converted}<b>{_MARKER}</b>")
