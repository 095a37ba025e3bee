"""The Jinja filters of every environment, each registered once, under its function's name.

There is one registration point per kind of environment: :func:`document_filters` for
the documents and reports of a style (``gendoc``'s layout, or ``onnx``'s own formatting),
and :func:`gendoc.site.pages.site_filters` for the site's pages, which adds the site's
filters on top of the documents'. A filter is always registered by :func:`by_name`,
under the ``__name__`` of the function that implements it, so ``x | md_name`` in a
template is :func:`~gendoc.present.display.md_name` and nothing else: a filter that reads
the language's :class:`~gendoc.present.display.Display` is its bound method, named after
the method (``tag`` is ``Display.tag``); a function that needs the display, or another
value of the build, first is given it by :func:`bound`, which keeps its name (no lambda
hides a differently named function). To add a filter, write the function under the name
the templates should use and list it here, or in the site's list.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial, update_wrapper
from typing import Any

from gendoc.present import onnx_format
from gendoc.present.display import (
    Display,
    code_block,
    code_span,
    element_text,
    fenced,
    github_data,
    github_property,
    html_text,
    md_domain_label,
    md_escape,
    md_inert,
    md_name,
    table_cell,
    version_links,
)

Filter = Callable[..., Any]


def by_name(*functions: Filter) -> dict[str, Filter]:
    """``functions`` as Jinja filters, each under its own ``__name__``; a name twice is an
    error (one would hide the other)."""
    filters: dict[str, Filter] = {}
    for function in functions:
        name = function.__name__
        if name in filters:
            raise ValueError(f"two filters named {name!r}")
        filters[name] = function
    return filters


def bound(function: Filter, /, *args: Any, **kwargs: Any) -> Filter:
    """``function`` with some of its arguments given, under the function's own name."""
    return update_wrapper(partial(function, *args, **kwargs), function)


def document_filters(style: str, display: Display) -> dict[str, Filter]:
    """The filters of a style's documents and reports, in ``display``'s language."""
    if style == "onnx":
        return by_name(
            onnx_format.onnx_safe,
            onnx_format.onnx_safe_attribute,
            onnx_format.onnx_safe_doc,
            onnx_format.onnx_number,
            onnx_format.onnx_qualify,
            onnx_format.onnx_domain_long,
            onnx_format.onnx_domain_short,
            onnx_format.onnx_version_links,
            onnx_format.onnx_attr_type,
            onnx_format.onnx_attr_option,
            onnx_format.onnx_tags,
            onnx_format.onnx_indent_doc,
            onnx_format.onnx_support,
        )
    return by_name(
        display.tag,
        display.part,
        display.severity,
        display.severity_count,
        display.domain_short,
        display.domain_long,
        display.availability,
        display.markers,
        display.option_labels,
        display.param_tags,
        display.attr_signature,
        display.differentiability_summary,
        display.schema_text,
        display.said,
        display.change,
        display.change_text,
        display.message,
        display.message_text,
        display.translate,
        display.location,
        md_domain_label,
        md_escape,
        md_name,
        md_inert,
        html_text,
        element_text,
        table_cell,
        version_links,
        code_span,
        code_block,
        fenced,
        github_data,
        github_property,
    )
