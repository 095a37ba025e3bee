"""The Jinja2 filters that reproduce the exact formatting of onnx's gen_doc.py.

Used by the ``onnx`` style, whose output must match onnx's byte for byte.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterable

from jinja2 import pass_context
from jinja2.runtime import Context

from gendoc.model.reference import (
    Attribute,
    Option,
    Parameter,
    Reference,
    Schema,
    schema_sort_key,
)
from gendoc.present.display import md_escape
from gendoc.present.live_markup import is_live

INFINITY = "&#8734;"


def onnx_number(value: int | None) -> str:
    return INFINITY if value is None else str(value)


def onnx_qualify(domain: str, name: str) -> str:
    return f"{domain}.{name}" if domain else name


def onnx_domain_long(domain: str) -> str:
    return f"the '{domain}' operator set" if domain else "the default ONNX operator set"


def onnx_domain_short(domain: str) -> str:
    return domain or "ai.onnx (default)"


@pass_context
def onnx_version_links(context: Context, schemas: Iterable[Schema], changelog: str) -> str:
    return ", ".join(
        f'<a href="{changelog}#{onnx_safe_attribute(context, s.versioned_name)}">'
        f"{s.since_version}</a>"
        for s in schemas
    )


def onnx_attr_type(type_name: str) -> str:
    return f"list of {type_name}" if type_name.endswith("s") else type_name


def onnx_attr_option(attr: Attribute) -> str:
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


def onnx_tags(param: Parameter) -> str:
    """Option and differentiability tags; onnx leaves undefined untagged."""
    found = option_tags(param)
    if param.differentiability.value != "undefined":
        found.append(param.differentiability.value)
    return f" ({', '.join(found)})" if found else ""


def onnx_indent_doc(doc: str) -> str:
    return "\n".join(("  " + line).rstrip() for line in doc.lstrip().splitlines())


def onnx_support(schema: Schema) -> str:
    return "<sub>experimental</sub> " if schema.experimental else ""


class HostileTextWarning(UserWarning):
    """Schema text that onnx's own layout would have written as live markup."""


def own_texts(reference: Reference) -> frozenset[str]:
    """Every name, type and text of the schemas onnx itself registered in ``reference``."""
    texts: set[str] = set()
    own = set(reference.onnx_own)
    for schema in reference.schemas:
        if schema_sort_key(schema) not in own:
            continue
        texts.update((schema.name, schema.domain, schema.qualified_name, schema.doc))
        for p in schema.parameters:
            texts.update((p.name, p.type_str, p.description))
        for a in schema.attributes:
            texts.update((a.name, a.description))
        for tc in schema.type_constraints:
            texts.update((tc.name, tc.description))
    return frozenset(texts)


def _is_live(context: Context, value: object, markdown: bool) -> bool:
    """Whether ``value`` is text that would be live markup, written raw: never a text of onnx's
    own schemas (the render's ``onnx_own_texts``), which onnx's documents print as they are."""
    own = context.get("onnx_own_texts", frozenset())
    return isinstance(value, str) and value not in own and is_live(value, markdown)


@pass_context
def onnx_safe(context: Context, value: object) -> object:
    """What onnx's layout writes: the value as it is, unless it would be live markup.

    onnx's ``gen_doc.py`` writes names and descriptions raw, and so does this layout for
    onnx's own schemas. A schema module's value that the sanitizer
    (:mod:`gendoc.present.live_markup`) does not find inert is written as text instead
    (every character that could open Markdown or HTML as a reference, line by line), with
    a warning naming it.
    """
    return _as_text(value) if _is_live(context, value, markdown=False) else value


@pass_context
def onnx_safe_doc(context: Context, value: object) -> object:
    """:func:`onnx_safe` for an operator's doc, which the layout writes as Markdown paragraphs."""
    return _as_text(value) if _is_live(context, value, markdown=True) else value


@pass_context
def onnx_safe_attribute(context: Context, value: object) -> object:
    """:func:`onnx_safe` for a quoted attribute's value (an anchor's name): a quote would end it."""
    if isinstance(value, str) and '"' in value:
        return _as_text(value)
    return onnx_safe(context, value)


def _as_text(value: object) -> str:
    warnings.warn(
        f"escaped schema text that would be live markup in onnx's layout: {value[:60]!r}",
        HostileTextWarning,
        stacklevel=2,
    )
    return "\n".join(md_escape(line) for line in str(value).split("\n"))
