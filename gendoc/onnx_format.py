"""Jinja2 filters that reproduce the exact formatting of onnx's gen_doc.py.

Used by the ``onnx`` style, whose output must match onnx's byte for byte.
"""

from __future__ import annotations

from collections.abc import Iterable

from gendoc.model import Attribute, Option, Parameter, Schema

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
        f'<a href="{changelog}#{s.versioned_name}">{s.since_version}</a>' for s in schemas
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


FILTERS = {
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
