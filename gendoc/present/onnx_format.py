"""Jinja2 filters that reproduce the exact formatting of onnx's gen_doc.py.

Used by the ``onnx`` style, whose output must match onnx's byte for byte.
"""

from __future__ import annotations

import html
import re
import warnings
from collections.abc import Iterable
from functools import cache
from html.parser import HTMLParser

from gendoc.model.reference import Attribute, Option, Parameter, Schema

INFINITY = "&#8734;"


def number(value: int | None) -> str:
    return INFINITY if value is None else str(value)


def qualify(domain: str, name: str) -> str:
    return f"{domain}.{name}" if domain else name


def domain_long(domain: str) -> str:
    return f"the '{domain}' operator set" if domain else "the default ONNX operator set"


def domain_short(domain: str) -> str:
    return domain or "ai.onnx (default)"


def version_links(schemas: Iterable[Schema], changelog: str) -> str:
    return ", ".join(
        f'<a href="{changelog}#{safe(s.versioned_name)}">{s.since_version}</a>' for s in schemas
    )


def attr_type(type_name: str) -> str:
    return f"list of {type_name}" if type_name.endswith("s") else type_name


def attr_option(attr: Attribute) -> str:
    if attr.required:
        return " (required)"
    if attr.default is not None:
        return f" (default is {attr.default})"
    return ""


def option_tags(param: Parameter) -> list[str]:
    """The option tags onnx writes before the differentiability tag."""
    if param.option is Option.OPTIONAL:
        return ["optional"]
    if param.option is Option.VARIADIC:
        return ["variadic"] if param.is_homogeneous else ["variadic", "heterogeneous"]
    return []


def tags(param: Parameter) -> str:
    """Option and differentiability tags; onnx leaves undefined untagged."""
    found = option_tags(param)
    if param.differentiability.value != "undefined":
        found.append(param.differentiability.value)
    return f" ({', '.join(found)})" if found else ""


def indent_doc(doc: str) -> str:
    return "\n".join(("  " + line).rstrip() for line in doc.lstrip().splitlines())


def support(schema: Schema) -> str:
    return "<sub>experimental</sub> " if schema.experimental else ""


class HostileTextWarning(UserWarning):
    """Schema text that onnx's own layout would have written as live markup."""


class _LiveMarkup(HTMLParser):
    """Finds what a browser would run: script-like elements, handlers, ``javascript:`` URLs."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.live = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _LIVE_TAGS or any(_is_live_attribute(k, v) for k, v in attrs):
            self.live = True


_LIVE_TAGS = frozenset({"script", "iframe", "object", "embed", "svg", "math", "style", "base"})
_JAVASCRIPT = re.compile(r"(\]\(|<|=)\s*[\"']?\s*javascript:", re.IGNORECASE)
_ATTRIBUTE_BREAKOUT = re.compile(r"[\"'][\s/]+on[a-z]+\s*=", re.IGNORECASE)


def _is_live_attribute(name: str, value: str | None) -> bool:
    url = (value or "").replace(" ", "").lower()
    return name.startswith("on") or (name in ("href", "src", "action") and "javascript:" in url)


@cache
def is_live(text: str) -> bool:
    """Whether ``text``, written raw into Markdown or an HTML attribute, would run anything.

    Cached: the same descriptions recur across versions and documents.
    """
    # The substring tests skip the regular expressions for the texts they cannot match.
    if "javascript:" in text.lower() and _JAVASCRIPT.search(text):
        return True
    if "=" in text and _ATTRIBUTE_BREAKOUT.search(text):
        return True
    if "<" not in text:  # no element can start: the parser would find nothing
        return False
    parser = _LiveMarkup()
    parser.feed(text)
    parser.close()
    return parser.live


def safe(value: object) -> object:
    """What onnx's layout writes: the value as it is, unless it would be live markup.

    onnx's ``gen_doc.py`` writes names and descriptions raw; for every schema onnx
    ships that is harmless and the output stays byte for byte the same. A value
    that would run (a handler, a script, a ``javascript:`` link, an attribute
    break-out) is written HTML-escaped instead, with a warning naming it.
    """
    if not isinstance(value, str) or not is_live(value):
        return value
    warnings.warn(
        f"escaped schema text that would be live markup in onnx's layout: {value[:60]!r}",
        HostileTextWarning,
        stacklevel=2,
    )
    return html.escape(value).replace("[", "&#91;").replace("]", "&#93;")


FILTERS = {
    "onnx_safe": safe,
    "onnx_number": number,
    "onnx_qualify": qualify,
    "onnx_domain": domain_long,
    "onnx_domain_short": domain_short,
    "onnx_version_links": version_links,
    "onnx_attr_type": attr_type,
    "onnx_attr_option": attr_option,
    "onnx_tags": tags,
    "onnx_indent": indent_doc,
    "onnx_support": support,
}
