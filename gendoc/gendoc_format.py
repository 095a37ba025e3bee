"""Jinja2 filters of the default ``gendoc`` style.

Schema text (operator docs, descriptions) is rendered by
``gendoc.schema_markdown``: Markdown, math and an allow-list of HTML tags,
safe everywhere the documents are shown, with relative links pointed at the
onnx documentation on GitHub.
Labels come from the message catalog ``t`` in the template context.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from jinja2 import pass_context
from jinja2.runtime import Context

from gendoc.model import Attribute, Differentiability, Option, Parameter, Schema
from gendoc.schema_markdown import render_text
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
