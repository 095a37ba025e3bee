"""Translated messages are data: checked when a catalog is loaded, substituted without code.

A ``gendoc.po`` arrives by pull request and its text ends up in Markdown
documents, HTML pages and reports made in CI. So a translation may say
anything, but it can *do* only what its msgid does:

- Its placeholders are exactly those of its msgid, written the same way:
  ``%(name)s`` for the messages that ``%`` formats, ``{name}`` or
  ``{name:.3g}`` for the audit's. A field that reads an attribute or an item
  (``{args.__class__}``, ``{x[0]}``), a conversion (``{x!r}``), a stray ``%`` or
  brace, or a name the msgid lacks makes the catalog unusable:
  :func:`check` names the problem and the loader names the file and entry.
- Brace placeholders are filled by :func:`substitute`, which knows names and
  the format-spec mini-language and nothing else; ``str.format`` never sees a
  translation.
- Markup the msgid does not use is written as character references in the
  translation (:func:`neutralised`): a ``<`` or ``[`` or ``#`` that the English
  text does not have shows as that character in every Markdown and HTML
  output and opens nothing. An HTML tag survives only if the msgid has the
  very same tag. A control character becomes a space.
- A translation adds no link (:func:`unlinked`): a Markdown link, image or
  reference definition to a target its msgid does not link to makes every bracket
  of the translation a character reference, and an address its msgid lacks (a URL,
  ``www.``, an e-mail address, as linkify-it or GitHub finds them) has its ``:`` and
  ``.`` written as references and a word joiner after its ``@``, which no linkifier
  reads across: the words stay, the link is gone.

Nothing here changes a translation that uses only the characters of its
msgid, so the shipped catalogs come out exactly as written.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import cache
from typing import Any

_PERCENT = re.compile(r"%(?:%|\((?P<name>[^()]*)\)(?P<conversion>.?))|%")
_BRACE = re.compile(r"\{\{|\}\}|\{(?P<field>[^{}]*)\}|[{}]")
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
# The standard format-spec mini-language (fill and align, sign, width, grouping, precision,
# type); nested fields are not in it.
_SPEC = re.compile(r"(?:[^{}]?[<>=^])?[-+ ]?z?#?0?\d*[,_]?(?:\.\d+)?[bcdeEfFgGnosxX%]?")

# Characters that can open Markdown or HTML syntax (links, images, tags, entities,
# headings, tables, emphasis, code, attribute lists, math, placeholders).
_SPECIAL = frozenset("\\`*_{}[]()#!|<>&\"'~$%")
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
_ANY_FIELD = re.compile(r"%\(|\{[^{}]*\}")
# An HTML tag or a character reference, as a msgid may hold one.
_MARKUP = re.compile(r"<[^<>]*>|&(?:#[0-9]+|#[xX][0-9a-fA-F]+|[A-Za-z][A-Za-z0-9]*);")
_WWW = re.compile(r"www\.", re.IGNORECASE)
_WORD_JOINER = "\u2060"
# What a link needs: a bracket closing a link's text or a reference's name; an address
# a scheme's "://" or "mailto:", "www." or "@".
_MARKDOWN_LINK_SIGNS = re.compile(r"\]\s*[(\[:]")
_ADDRESS_SIGNS = re.compile(r"://|mailto:|www\.|@", re.IGNORECASE)
_ADDRESS_PUNCTUATION = re.compile(r"[:.@]")


def _unlinking(match: re.Match[str]) -> str:
    """A character of an address as one no linkifier reads across: ``:`` and ``.`` as
    references, ``@`` followed by a word joiner (GitHub decodes references before it looks
    for an e-mail address)."""
    char = match.group()
    return "@" + _WORD_JOINER if char == "@" else f"&#{ord(char)};"


# GitHub's extended www and e-mail autolinks (GitHub Flavored Markdown, "Autolinks
# (extension)"), which need no known top-level domain.
_GITHUB_AUTOLINK = re.compile(
    r"www\.[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*[^\s<]*"
    r"|[A-Za-z0-9.+_-]+@[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)+",
    re.IGNORECASE,
)
# What ends an address without being part of it: GitHub's trailing punctuation, and what
# is not ASCII (a Chinese full stop right after a URL).
_ADDRESS_END = re.compile(r"(?:[?!.,:*_~]|[^\x00-\x7f])+$")


class Placeholder(tuple[str, str]):
    """A field as written, ``(name, format)``: ``("num", "s")`` for ``%(num)s``,
    ``("slope", ".3g")`` for ``{slope:.3g}``."""

    __slots__ = ()


def style(msgid: str) -> str:
    """How a msgid is filled in: ``percent`` (``%(name)s``), ``brace`` (``{name}``) or ``plain``."""
    if "%(" in msgid or "%%" in msgid:
        return "percent"
    if "{" in msgid or "}" in msgid:
        return "brace"
    return "plain"


def _tokens(text: str, kind: str) -> list[tuple[str, Placeholder | None]]:
    """``text`` cut into literal runs (second item ``None``) and placeholders.

    Raises ``ValueError`` for a field that is not a plain name (and format).
    """
    pattern = _PERCENT if kind == "percent" else _BRACE
    out: list[tuple[str, Placeholder | None]] = []
    last = 0
    for match in pattern.finditer(text):
        out.append((text[last : match.start()], None))
        last = match.end()
        token = match.group()
        if token in ("%%", "{{", "}}"):
            out.append((token, Placeholder(("", token))))
            continue
        if kind == "percent":
            name, conversion = match.group("name"), match.group("conversion")
            if name is None or not _NAME.fullmatch(name) or conversion != "s":
                raise ValueError(f"{token!r} is not a placeholder (write %(name)s, or %% for %)")
            out.append((token, Placeholder((name, conversion))))
            continue
        field = match.group("field")
        name, _, spec = (field or "").partition(":")
        if field is None or not _NAME.fullmatch(name) or not _SPEC.fullmatch(spec):
            raise ValueError(
                f"{token!r} is not a placeholder (write {{name}} or {{name:format}}, "
                "or {{ and }} for braces)"
            )
        out.append((token, Placeholder((name, spec))))
    out.append((text[last:], None))
    return out


def _parts(text: str, kind: str) -> list[tuple[str, Placeholder | None]]:
    return [(text, None)] if kind == "plain" else _tokens(text, kind)


def fields(text: str, kind: str | None = None) -> frozenset[Placeholder]:
    """The placeholders of a message (not its ``%%``, ``{{`` or ``}}``)."""
    parts = _parts(text, kind or style(text))
    return frozenset(p for _, p in parts if p is not None and p[0])


def _shown(found: frozenset[Placeholder], kind: str) -> str:
    written = (
        f"%({name})s" if kind == "percent" else "{" + name + (f":{spec}" if spec else "") + "}"
        for name, spec in found
    )
    return ", ".join(sorted(written))


def check(msgids: tuple[str, ...], msgstr: str) -> str | None:
    """What is wrong with a translation of ``msgids`` (singular, plural), or ``None``.

    A singular message's translation has exactly its placeholders; a plural form
    may leave one out (a language's "one" form often does), never add one.
    """
    kind = style(msgids[-1])
    try:
        wanted = frozenset().union(*(fields(m, kind) for m in msgids))
    except ValueError as exc:
        return f"the msgid is not a message gendoc formats: {exc}"
    if kind == "plain":
        field = _ANY_FIELD.search(msgstr)
        if field:
            return f"the translation adds a placeholder ({field.group()!r}); its msgid has none"
        return None
    try:
        found = fields(msgstr, kind)
    except ValueError as exc:
        return str(exc)
    extra, missing = found - wanted, wanted - found
    if extra:
        return f"the translation adds placeholders {_shown(extra, kind)}"
    if missing and len(msgids) == 1:
        return f"the translation lacks placeholders {_shown(missing, kind)}"
    return None


def _shown_char(char: str, allowed: set[str]) -> str:
    """A character of a translation's text: as it is, as a reference, or dropped."""
    if char in allowed:
        return char
    if char in _SPECIAL:
        return f"&#{ord(char)};"
    return " " if _CONTROL.match(char) else char


def neutralised(msgids: tuple[str, ...], msgstr: str) -> str:
    """``msgstr`` with every markup character its msgids lack written as a character reference.

    Placeholders (already checked) are kept. An HTML tag or character reference is
    kept only if the msgids have that very tag or reference; any other ``<`` or ``&``
    is written as a reference. A control character the msgids lack is a space;
    ``www.``, ``://`` and ``@`` cannot make a link unless the msgids have them.
    """
    kind = style(msgids[-1])
    english = "".join(text for m in msgids for text, p in _parts(m, kind) if p is None)
    allowed = {c for c in english if c in _SPECIAL or _CONTROL.match(c)} - {"<", "&"}
    markup = set(_MARKUP.findall(english))
    escapes = {text for m in msgids for text, p in _parts(m, kind) if p is not None and not p[0]}
    out = []
    for text, placeholder in _parts(msgstr, kind):
        if placeholder is not None:
            # "{{" is a "{" once filled in: the opening of an attribute list on the site
            # unless the msgid has one too.
            braces = text in ("{{", "}}") and text not in escapes
            out.append(_shown_char(text[0], allowed) if braces else text)
            continue
        literal = _literal(text, allowed, markup)
        if "://" not in english:
            literal = literal.replace("://", "&#58;//")
        if "www." not in english.lower():
            literal = _WWW.sub(lambda m: m.group()[:3] + "&#46;", literal)
        if "@" not in english:
            literal = literal.replace("@", "@" + _WORD_JOINER)
        out.append(literal)
    return unlinked("\n\n".join(msgids), "".join(out))


def unlinked(msgid: str, msgstr: str) -> str:
    """``msgstr`` with no link that ``msgid`` does not have (see the module's docstring).

    Nothing changes in a translation whose links and addresses are its msgid's."""
    links, addresses = _MARKDOWN_LINK_SIGNS.search(msgstr), _ADDRESS_SIGNS.search(msgstr)
    if not links and not addresses:
        return msgstr
    known = _markdown_targets(msgid) | {address for _, _, address in _addresses(msgid)}
    if links and not _markdown_targets(msgstr) <= known:
        msgstr = msgstr.replace("[", "&#91;").replace("]", "&#93;")
    for start, end, address in reversed(_addresses(msgstr) if addresses else []):
        if address not in known:
            span = _ADDRESS_PUNCTUATION.sub(_unlinking, msgstr[start:end])
            msgstr = msgstr[:start] + span + msgstr[end:]
    return msgstr


@cache
def _commonmark() -> Any:
    from markdown_it import MarkdownIt

    parser = MarkdownIt("commonmark")
    parser.validateLink = lambda url: True  # every link is seen
    return parser


@cache
def _linkify() -> Any:
    from linkify_it import LinkifyIt

    return LinkifyIt()


def _markdown_targets(text: str) -> set[str]:
    """Where the links, images and reference definitions of ``text`` lead, as a CommonMark
    reader sees them (every scheme let through)."""
    env: dict = {}
    targets = {
        str(token.attrGet("href") or token.attrGet("src"))
        for block in _commonmark().parse(text, env)
        for token in block.children or ()
        if token.type in ("link_open", "image")
    }
    return targets | {str(ref.get("href")) for ref in env.get("references", {}).values()}


def _addresses(text: str) -> list[tuple[int, int, str]]:
    """The URLs, ``www.`` names and e-mail addresses in ``text`` as ``(start, end, address)``,
    in order, none overlapping: those linkify-it finds and the ``www.`` names and e-mail
    addresses GitHub links whatever their domain; the address without its trailing
    punctuation."""
    found = [(m.index, m.last_index) for m in _linkify().match(text) or ()]
    found += [m.span() for m in _GITHUB_AUTOLINK.finditer(text)]
    spans: list[tuple[int, int, str]] = []
    for start, end in sorted(found):
        if not spans or start >= spans[-1][1]:
            spans.append((start, end, _ADDRESS_END.sub("", text[start:end])))
    return spans


def _literal(text: str, allowed: set[str], markup: set[str]) -> str:
    """Text between placeholders: the msgids' own tags and references as they are, every
    other character through :func:`_shown_char`."""
    out = []
    last = 0
    for match in _MARKUP.finditer(text):
        out.append("".join(_shown_char(c, allowed) for c in text[last : match.start()]))
        kept = match.group() in markup
        out.append(
            match.group() if kept else "".join(_shown_char(c, allowed) for c in match.group())
        )
        last = match.end()
    out.append("".join(_shown_char(c, allowed) for c in text[last:]))
    return "".join(out)


_SUBSTITUTE = re.compile(r"\{\{|\}\}|\{([A-Za-z_][A-Za-z0-9_]*)(?::([^{}]*))?\}")


def substitute(template: str, values: Mapping[str, object]) -> str:
    """``template`` with each ``{name}`` / ``{name:spec}`` replaced: ``str.format`` with names only.

    A value is formatted with :func:`format` and the field's spec, so nothing in
    the template can reach an attribute, an item or any other object.
    """

    def field(match: re.Match[str]) -> str:
        if match.group(1) is None:
            return match.group()[0]
        return format(values[match.group(1)], match.group(2) or "")

    return _SUBSTITUTE.sub(field, template)
