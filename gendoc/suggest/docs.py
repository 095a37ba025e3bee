"""The checkout's operator documents, regenerated for the patched tags.

onnx's CI regenerates ``docs/Operators.md``, ``docs/Changelog.md`` (and their
``-ml`` pair) with ``gen_doc.py`` and fails when the committed ones differ, so
a patch that changes tags must change these documents too. gendoc's ``onnx``
style writes byte for byte what ``gen_doc.py`` writes; the new documents are
rendered from gendoc's model of the installed onnx with the patch's tags set
in it, and diffed against the checkout's files.

The checkout's documents must first equal what gendoc renders for the
unpatched model: otherwise the diff would carry every other difference too
(an edited checkout, another onnx build), so that stops with one line.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path

from gendoc.errors import UsageError
from gendoc.model.reference import (
    Differentiability,
    Parameter,
    ParameterRef,
    Part,
    Reference,
    Schema,
)
from gendoc.present.render import RenderOptions, render_documents
from gendoc.suggest.decide import SchemaKey

DOCS = "docs"
ONNX_STYLE = RenderOptions(style="onnx")

Tags = Mapping[tuple[SchemaKey, ParameterRef], Differentiability]
"""The new tag of a parameter, by (schema, parameter)."""


def retag(reference: Reference, tags: Tags) -> Reference:
    """``reference`` with the parameters in ``tags`` given their new tag."""

    def parameters(schema: Schema, part: Part, params: tuple[Parameter, ...]) -> tuple:
        key = (schema.domain, schema.name, schema.since_version)
        return tuple(
            replace(
                p,
                differentiability=tags.get((key, ParameterRef(part, p.name)), p.differentiability),
            )
            for p in params
        )

    return replace(
        reference,
        schemas=tuple(
            replace(
                s,
                inputs=parameters(s, Part.INPUT, s.inputs),
                outputs=parameters(s, Part.OUTPUT, s.outputs),
            )
            for s in reference.schemas
        ),
    )


def _checkout_text(src: Path, name: str) -> str | None:
    try:
        return (src / DOCS / name).read_bytes().decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return None


def _first_difference(a: str, b: str) -> int:
    for number, (x, y) in enumerate(zip(a.splitlines(), b.splitlines(), strict=False), 1):
        if x != y:
            return number
    return min(a.count("\n"), b.count("\n")) + 1


def check_documents(src: Path, reference: Reference) -> dict[str, str]:
    """The rendered documents, once each equals the checkout's; else one line naming the first."""
    rendered = render_documents(reference, ONNX_STYLE)
    for name, text in rendered.items():
        found = _checkout_text(src, name)
        if found is None:
            raise UsageError(f"{src / DOCS / name} is missing or not UTF-8 text")
        if found != text:
            raise UsageError(
                f"{DOCS}/{name} of {src} differs from what gendoc renders for the installed "
                f"onnx {reference.onnx_version} (from line {_first_difference(found, text)}): "
                f"the patch could not regenerate it; use a clean checkout of "
                f"v{reference.onnx_version}"
            )
    return rendered


def regenerated(rendered: Mapping[str, str], reference: Reference, tags: Tags) -> dict[str, str]:
    """The new text of each document the tags change, by path in the checkout."""
    if not tags:
        return {}
    after = render_documents(retag(reference, tags), ONNX_STYLE)
    return {f"{DOCS}/{n}": after[n] for n in sorted(after) if after[n] != rendered[n]}
