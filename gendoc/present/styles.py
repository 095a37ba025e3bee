"""Styles: the layouts a reference can be written in, as objects.

A style names its template folder and builds the context each document
template gets (its filters are registered in :mod:`gendoc.present.filters`).
``onnx`` reproduces onnx's ``gen_doc.py`` byte for byte (English only, onnx's
own formatting); ``gendoc`` is this project's layout: a tag on every parameter,
one statement on undefined, safe schema text, labels in the chosen language.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from gendoc.model import views
from gendoc.model.reference import Reference
from gendoc.model.stats import tally_schemas
from gendoc.present import onnx_format


@dataclass(frozen=True)
class Style:
    """What differs between layouts; the documents and the writer are shared."""

    name: str
    translated: bool
    """Whether labels follow ``--lang`` (onnx's layout is English only)."""

    def operators(self, reference: Reference) -> dict[str, Any]:
        """The views of ``reference`` that the operators document iterates over."""
        raise NotImplementedError

    def changelog(self, reference: Reference) -> dict[str, Any]:
        """The views of ``reference`` that the changelog iterates over."""
        raise NotImplementedError


class OnnxStyle(Style):
    def operators(self, reference: Reference) -> dict[str, Any]:
        return {
            "operators": views.onnx_operator_index(reference),
            "title": "Operator Schemas",
            "onnx_own_texts": onnx_format.own_texts(reference),
        }

    def changelog(self, reference: Reference) -> dict[str, Any]:
        return {
            "changelog": views.changelog_index(reference),
            "title": "Operator Changelog",
            "onnx_own_texts": onnx_format.own_texts(reference),
        }


class GendocStyle(Style):
    def operators(self, reference: Reference) -> dict[str, Any]:
        return {
            "operators": views.operator_index(reference),
            "counts": tally_schemas(reference.schemas),
        }

    def changelog(self, reference: Reference) -> dict[str, Any]:
        return {
            "changelog": views.changelog_index(reference),
            "counts": tally_schemas(reference.schemas),
        }


STYLES: dict[str, Style] = {
    style.name: style
    for style in (GendocStyle("gendoc", translated=True), OnnxStyle("onnx", translated=False))
}
