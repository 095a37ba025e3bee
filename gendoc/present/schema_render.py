"""Schema text rendered to HTML: the Markdown, math and bits of HTML of onnx's texts.

Operator docs and descriptions are written for onnx's docs folder on
GitHub, so they mix CommonMark with LaTeX (``$...$``, ``$$...$$``), bare
URLs and a few HTML tags (``<br>``, ``<i>``...). They are rendered here into
HTML that means the same and is safe wherever the documents are shown:

- Math becomes MathML at build time (no script, no network); browsers draw
  it natively. The converter's output is rebuilt through an allow-list of
  MathML elements and attributes, since LaTeX such as ``\\text{<b>}`` or
  ``\\href{javascript:...}`` would otherwise come out as live markup.
- Raw HTML is parsed, but a tag survives only if it is on a short allow-list
  and has no attribute; it is balanced within its paragraph. Anything else
  (``<img onerror>``, ``<a href>``, ``Tensor<T>``) stays visible text.
- A function name that onnx writes as plain letters (``erf(x)``, ``sqrt(2)``, ``Tanh``)
  becomes one upright ``<mi>``: the converter would make it a product of italic letters.
- Bare URLs become links; relative links point at onnx's docs on GitHub;
  markdown-it refuses ``javascript:`` and similar targets.
- A ``*`` between two word characters stays a ``*``: onnx writes formulas
  such as ``alpha*Tanh(beta*x)``, never intraword emphasis. So does a ``*``
  ending a name (``'keys_*'``): a wildcard over attribute names.
- A list ends before an unindented capitalised line: onnx ends equation
  lists with a new sentence and no blank line, which CommonMark would
  otherwise fold into the last bullet. A line that opens with a Chinese
  character ends it too: a translation's sentence has no capital letter,
  yet it starts the same new paragraph as the English one.
"""

from __future__ import annotations

import inspect
import re
from functools import lru_cache
from html import escape
from html.parser import HTMLParser
from urllib.parse import urljoin, urlsplit

from latex2mathml.converter import convert as latex_to_mathml
from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore
from markdown_it.rules_inline import StateInline
from markdown_it.token import Token
from mdit_py_plugins.dollarmath import dollarmath_plugin

# Tags that keep their meaning when written without attributes; <br> is the only void one.
HTML_TAGS = frozenset({"br", "i", "b", "em", "strong", "code", "sub", "sup", "p", "ul", "ol", "li"})
_BARE_TAG = re.compile(r"<(/?)([A-Za-z][A-Za-z0-9]*)\s*(/?)>")

# MathML that latex2mathml writes, minus anything that links, styles or scripts.
MATHML_ELEMENTS = frozenset(
    [
        "math",
        "mrow",
        "mi",
        "mn",
        "mo",
        "ms",
        "mtext",
        "mspace",
        "mfrac",
        "msqrt",
        "mroot",
        "msub",
        "msup",
        "msubsup",
        "munder",
        "mover",
        "munderover",
        "mtable",
        "mtr",
        "mtd",
        "mstyle",
        "mpadded",
        "mphantom",
        "menclose",
        "mfenced",
        "semantics",
    ]
)
MATHML_ATTRIBUTES = frozenset(
    [
        "display",
        "mathvariant",
        "stretchy",
        "fence",
        "separator",
        "lspace",
        "rspace",
        "accent",
        "accentunder",
        "movablelimits",
        "largeop",
        "symmetric",
        "minsize",
        "maxsize",
        "form",
        "linethickness",
        "scriptlevel",
        "displaystyle",
        "columnalign",
        "columnlines",
        "columnspacing",
        "rowspacing",
        "rowlines",
        "frame",
        "notation",
        "width",
        "height",
        "depth",
        "open",
        "close",
        "separators",
        "xmlns",
    ]
)

_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")

# Function names onnx's formulas spell as plain letters; written as one <mi>, which MathML
# draws upright (a one-letter <mi> is italic: a product of variables such as DFT's "kn").
FUNCTION_NAMES = frozenset(
    [
        "erf",
        "exp",
        "log",
        "ln",
        "sqrt",
        "sin",
        "cos",
        "tan",
        "sinh",
        "cosh",
        "tanh",
        "sigmoid",
        "swish",
        "softplus",
        "softmax",
        "relu",
        "gelu",
        "max",
        "min",
        "abs",
    ]
)
_LETTERS = re.compile(r"(?:<mi>[A-Za-z]</mi>){2,}")


def _upright_names(mathml: str) -> str:
    """Runs of one-letter ``<mi>`` that spell a function name, as one ``<mi>``."""

    def join(match: re.Match[str]) -> str:
        word = match.group(0).replace("<mi>", "").replace("</mi>", "")
        return f"<mi>{word}</mi>" if word.lower() in FUNCTION_NAMES else match.group(0)

    return _LETTERS.sub(join, mathml)


_LIST_ITEM = re.compile(r"\s*(?:[*+-]|\d+[.)])\s")
_FENCE = re.compile(r"\s*(```|~~~)")
# A line that opens a sentence of a translation: a CJK ideograph first (no capital to tell it).
_CJK_START = re.compile("[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")


class _MathMLRebuilder(HTMLParser):
    """Re-serialise MathML keeping allowed elements and attributes; text is escaped again."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.out: list[str] = []
        self.foreign = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in MATHML_ELEMENTS:
            self.foreign = True
            return
        kept = "".join(
            f' {name}="{escape(value or "")}"' for name, value in attrs if name in MATHML_ATTRIBUTES
        )
        self.out.append(f"<{tag}{kept}>")

    def handle_endtag(self, tag: str) -> None:
        if tag not in MATHML_ELEMENTS:
            self.foreign = True
            return
        self.out.append(f"</{tag}>")

    def handle_data(self, data: str) -> None:
        self.out.append(escape(data, quote=False))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        self.handle_endtag(tag)

    def unknown_decl(self, data: str) -> None:
        self.foreign = True

    handle_comment = handle_decl = handle_pi = unknown_decl


def render_math(latex: str, display: bool) -> str:
    """MathML for ``latex``; LaTeX the converter cannot read, or that asks for
    anything beyond plain MathML, is shown as its source in ``<code>``."""
    try:
        mathml = latex_to_mathml(latex.strip(), display="block" if display else "inline")
    except Exception:  # latex2mathml raises many kinds of error on malformed input
        mathml = None
    if mathml is not None:
        rebuilder = _MathMLRebuilder()
        rebuilder.feed(mathml)
        rebuilder.close()
        if not rebuilder.foreign:
            return _upright_names("".join(rebuilder.out))
    shown = f"<code>{escape(latex)}</code>"
    return f"<p>{shown}</p>" if display else shown


def _math_renderer(content: str, options: dict[str, object]) -> str:
    """dollarmath's hook; it wraps the result in ``<span class="math inline">`` or a div."""
    return render_math(content, bool(options.get("display_mode")))


def _allowed_html(state: StateCore) -> None:
    """Core rule: keep allow-listed bare tags, balanced per paragraph; the rest becomes text."""
    for block in state.tokens:
        if block.type != "inline" or not block.children:
            continue
        children: list[Token] = []
        open_tags: list[str] = []
        for token in block.children:
            if token.type == "html_inline":
                token = _bare_tag(token, open_tags)
            children.append(token)
        for tag in reversed(open_tags):
            closing = Token("html_inline", "", 0)
            closing.content = f"</{tag}>"
            children.append(closing)
        block.children = children


def _bare_tag(token: Token, open_tags: list[str]) -> Token:
    match = _BARE_TAG.fullmatch(token.content)
    tag = match.group(2).lower() if match else ""
    closing = bool(match and match.group(1))
    if tag in HTML_TAGS:
        if tag == "br" and not closing:
            token.content = "<br>"
            return token
        if not closing and not match.group(3):
            open_tags.append(tag)
            token.content = f"<{tag}>"
            return token
        if closing and open_tags and open_tags[-1] == tag:
            open_tags.pop()
            token.content = f"</{tag}>"
            return token
    text = Token("text", "", 0)
    text.content = token.content
    return text


def _literal_star(state: StateInline, silent: bool) -> bool:
    """Inline rule: a ``*`` between word characters (``beta*x``) or ending a name
    (``keys_*``) is text, not emphasis."""
    pos = state.pos
    src = state.src
    if src[pos] != "*" or pos == 0 or pos + 1 >= state.posMax:
        return False
    before, after = src[pos - 1], src[pos + 1]
    wildcard = before == "_" and pos >= 2 and src[pos - 2].isalnum()  # keys_*
    formula = (before.isalnum() or before == ")") and (after.isalnum() or after == "(")
    if not (wildcard or formula):
        return False
    if not silent:
        state.pending += "*"
    state.pos += 1
    return True


def end_lists(source: str) -> str:
    """Put a blank line between a list item and an unindented line after it that opens a
    sentence: a capital letter, or a Chinese character (a translated sentence)."""
    lines = source.split("\n")
    out: list[str] = []
    in_fence = False
    for line in lines:
        if _FENCE.match(line):
            in_fence = not in_fence
        elif (
            not in_fence
            and out
            and _LIST_ITEM.match(out[-1])
            and (line[:1].isupper() or _CJK_START.match(line))
            and not _LIST_ITEM.match(line)
        ):
            out.append("")
        out.append(line)
    return "\n".join(out)


def _absolute_links(md: MarkdownIt, base: str) -> None:
    """Rewrite relative link targets against ``base`` when the HTML is rendered."""

    def link_open(renderer, tokens, idx, options, env):  # markdown-it's render-rule signature
        href = tokens[idx].attrGet("href")
        if isinstance(href, str) and not urlsplit(href).scheme and not href.startswith("#"):
            tokens[idx].attrSet("href", urljoin(base, href.lstrip("/")))
        return renderer.renderToken(tokens, idx, options, env)

    md.add_render_rule("link_open", link_open)


def may_link(text: str) -> bool:
    """Whether a bare URL could be in ``text``: with fuzzy links off, every URL linkify-it
    accepts has a scheme (``http://``, ``https://``, ``ftp://``, ``mailto:``) or starts with
    ``//``. Most schema texts have none, and linkify's search costs a third of rendering."""
    return "//" in text or "mailto:" in text.lower()


@lru_cache(maxsize=8)
def markdown(base: str, linkify: bool = True) -> MarkdownIt:
    """The parser for schema text whose relative links resolve against ``base``; without
    ``linkify``, for a text that :func:`may_link` says holds no bare URL."""
    md = MarkdownIt("commonmark", {"html": True, "linkify": linkify})
    # No images: a schema may not make a reader's browser fetch anything ("![x](url)"
    # stays a link); no HTML blocks: the allow-list below works on inline tags only;
    # no headings: the document's outline is gendoc's, a "# line" in a text stays text.
    md.enable(["table", "strikethrough"]).disable(["html_block", "image", "heading", "lheading"])
    if linkify:
        md.enable("linkify")
        # Only URLs with a scheme: "Operators.md" must not become a link to Moldova.
        md.linkify.set({"fuzzy_link": False, "fuzzy_email": False, "fuzzy_ip": False})
    dollarmath_plugin(
        md, allow_labels=False, allow_space=False, allow_digits=False, renderer=_math_renderer
    )
    md.inline.ruler.before("emphasis", "literal_star", _literal_star)
    md.core.ruler.after("inline", "allowed_html", _allowed_html)
    _absolute_links(md, base)
    return md


# A line markdown-it renders as one paragraph of its text, escaped: it opens with a letter (no
# list, quote, fence, rule or indent can start there) and holds no character that opens an
# inline rule of these parsers (emphasis, code, links, images, tags, entities, escapes,
# math, strikethrough) or a table's cell, nor a control character. A URL is ruled out apart
# (``may_link``). Most descriptions are such a line ("Input tensor").
_PLAIN_LINE = re.compile(r"[^\W\d_][^\x00-\x1f\x7f-\x9f\\`*_\[\]<>&!$~|]*")


def _plain(source: str) -> str | None:
    """``source`` as markdown-it renders it, where it is a :data:`_PLAIN_LINE` (else None):
    some of the texts a site build renders, without parsing them."""
    if not _PLAIN_LINE.fullmatch(source) or source[-1].isspace() or may_link(source):
        return None
    return "<p>" + source.replace('"', "&quot;") + "</p>"  # nothing else to escape


def render_text(text: str, base: str) -> str:
    """Schema text as an HTML fragment with no blank line inside.

    A blank line would end the surrounding HTML block on GitHub and let the
    rest be parsed as Markdown again; an empty comment keeps the line empty
    to the eye, inside ``<pre>`` too. ``text`` comes cleaned of control
    characters (:func:`gendoc.catalogs.schema_text.schema_source`); any the parser makes
    (a percent-encoded one in a link's text, say) is dropped from the HTML,
    since a carriage return there would end the block just as well.
    """
    source = end_lists(inspect.cleandoc(text.replace("\r\n", "\n").replace("\r", "\n")))
    plain = _plain(source)
    if plain is not None:
        return plain
    html = markdown(base, may_link(source)).render(source).strip("\n")
    html = _CONTROL.sub("", html)
    return "\n".join(line if line.strip() else "<!-- -->" for line in html.split("\n"))


__all__ = ["HTML_TAGS", "end_lists", "markdown", "may_link", "render_math", "render_text"]
