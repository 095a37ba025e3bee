"""Jinja2 filters of the default ``gendoc`` style.

Schema text (operator docs, descriptions) is Markdown written for onnx's
docs folder. It is rendered here with markdown-it-py into HTML that is safe
everywhere the documents are shown: raw HTML in schema text is escaped,
``javascript:`` links are refused, and relative links are pointed at the
onnx documentation on GitHub so that they work outside onnx's docs folder.
Labels come from the message catalog ``t`` in the template context.
"""

from __future__ import annotations

import inspect
from collections.abc import Iterable
from functools import cache, lru_cache
from typing import Any
from urllib.parse import urljoin, urlsplit

from jinja2 import pass_context
from jinja2.runtime import Context
from markdown_it import MarkdownIt

from gendoc.model import Attribute, Differentiability, Option, Parameter, Schema
from gendoc.stats import tally

ONNX_DOCS = "https://github.com/onnx/onnx/blob/{ref}/docs/"

_TAG_KEYS = {
    Differentiability.DIFFERENTIABLE: "tag_differentiable",
    Differentiability.NON_DIFFERENTIABLE: "tag_non_differentiable",
    Differentiability.UNDEFINED: "tag_undefined",
}


def docs_base(onnx_version: str) -> str:
    """Where relative links of a given onnx release's schema text point."""
    release = onnx_version.split("+")[0]
    is_release = release.replace(".", "").isdigit()
    return ONNX_DOCS.format(ref=f"v{release}" if is_release else "main")


def _absolute_links(md: MarkdownIt, base: str) -> MarkdownIt:
    """Rewrite relative link targets against ``base`` when the HTML is rendered."""

    def link_open(renderer, tokens, idx, options, env):
        href = tokens[idx].attrGet("href")
        if isinstance(href, str) and not urlsplit(href).scheme and not href.startswith("#"):
            tokens[idx].attrSet("href", urljoin(base, href.lstrip("/")))
        return renderer.renderToken(tokens, idx, options, env)

    md.add_render_rule("link_open", link_open)
    return md


@lru_cache(maxsize=4)
def _markdown(base: str) -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False}).enable(["table", "strikethrough"])
    return _absolute_links(md, base)


@cache
def render_text(text: str, base: str) -> str:
    """Schema text as an HTML fragment with no blank line inside.

    A blank line would end the surrounding HTML block on GitHub and let the
    rest be parsed as Markdown again; an empty comment keeps the line empty
    to the eye, inside ``<pre>`` too.
    """
    source = inspect.cleandoc(text.replace("\r\n", "\n"))
    html = _markdown(base).render(source).strip("\n")
    return "\n".join(line if line.strip() else "<!-- -->" for line in html.split("\n"))


@pass_context
def schema_text(context: Context, text: str) -> str:
    return render_text(text, context["docs_base"])


@pass_context
def param_tags(context: Context, param: Parameter) -> str:
    t = context["t"]
    found = []
    if param.option is Option.OPTIONAL:
        found.append(t["tag_optional"])
    elif param.option is Option.VARIADIC:
        found.append(t["tag_variadic"])
        if not param.is_homogeneous:
            found.append(t["tag_heterogeneous"])
    hide = (
        param.differentiability is Differentiability.UNDEFINED
        and context["options"].undefined == "statement"
    )
    if not hide:
        found.append(t[_TAG_KEYS[param.differentiability]])
    return f" ({', '.join(found)})" if found else ""


@pass_context
def attr_signature(context: Context, attr: Attribute) -> str:
    t = context["t"]
    shown = t["list_of"].format(type=attr.type) if attr.type.endswith("s") else attr.type
    if attr.required:
        return f"{shown} ({t['required']})"
    if attr.default is not None:
        return f"{shown} ({t['default_is'].format(value=attr.default)})"
    return shown


@pass_context
def domain_short(context: Context, domain: str) -> str:
    return domain or context["t"]["domain_default"]


@pass_context
def domain_long(context: Context, domain: str) -> str:
    t = context["t"]
    return t["domain_long"].format(domain=domain) if domain else t["domain_long_default"]


@pass_context
def differentiability_summary(context: Context, schema: Schema) -> str:
    """The contents column: how much of the newest version is differentiable."""
    t = context["t"]
    if not schema.parameters:
        return t["summary_none"]
    counts = tally(schema.parameters)
    if counts.undefined == counts.total:
        return t["summary_undefined"]
    text = t["summary_tagged"].format(
        di=tally(schema.inputs).differentiable,
        ni=len(schema.inputs),
        do=tally(schema.outputs).differentiable,
        no=len(schema.outputs),
    )
    if counts.undefined:
        return t["summary_partial"].format(text=text, undefined=counts.undefined)
    return text


def markers(schema: Schema, t: dict[str, Any]) -> str:
    """Short notes after an operator's name: experimental, deprecated, function."""
    notes = [
        t[key]
        for key, on in (
            ("experimental", schema.experimental),
            ("deprecated", schema.deprecated),
            ("function", schema.is_function),
        )
        if on
    ]
    return "".join(f" <sub>{n}</sub>" for n in notes)


@pass_context
def name_markers(context: Context, schema: Schema) -> str:
    return markers(schema, context["t"])


def version_links(schemas: Iterable[Schema], changelog: str) -> str:
    return ", ".join(f"[{s.since_version}]({changelog}#{s.versioned_name})" for s in schemas)


FILTERS = {
    "version_links": version_links,
    "schema_text": schema_text,
    "param_tags": param_tags,
    "attr_signature": attr_signature,
    "domain_short": domain_short,
    "domain_long": domain_long,
    "differentiability_summary": differentiability_summary,
    "name_markers": name_markers,
}
