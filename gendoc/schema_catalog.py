"""Catalogs of schema text: onnx's prose, one gettext entry per paragraph.

Operator docs and descriptions are translated paragraph by paragraph: the
msgid is the English paragraph itself, so when onnx rewrites one, its
translation no longer matches, turns fuzzy on the next catalog update and
the page falls back to English instead of showing a stale translation. A
paragraph is a block of lines separated by blank lines; a fenced code block
belongs to the paragraph around it and a paragraph that is only code is not
translated at all. Identical paragraphs are one entry, whichever operators
and versions share them, so translating the newest versions covers most of
the older ones.

One catalog per domain, ``templates/locale/<lang>/LC_MESSAGES/schema-<domain>.po``
(the default domain is ``schema-ai.onnx``), read and written with Babel so
that Poedit, Weblate and ``msgfmt`` handle them as they are.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from gendoc.model import Reference, Schema, domain_label

_FENCE = re.compile(r"^\s*(```|~~~)")


def paragraphs(text: str) -> list[str]:
    """The paragraphs of a schema text, as the catalogs key them.

    The text is dedented as Markdown rendering sees it (``inspect.cleandoc``);
    blank lines inside a fenced code block do not split it.
    """
    source = inspect.cleandoc(text.replace("\r\n", "\n"))
    found: list[str] = []
    current: list[str] = []
    in_fence = False
    for line in source.split("\n"):
        if _FENCE.match(line):
            in_fence = not in_fence
        if not in_fence and not line.strip():
            if current:
                found.append("\n".join(current))
                current = []
            continue
        current.append(line.rstrip())
    if current:
        found.append("\n".join(current))
    return found


def is_translatable(paragraph: str) -> bool:
    """Prose, not a code block alone: a paragraph that opens and closes a fence is code."""
    lines = paragraph.split("\n")
    return not (_FENCE.match(lines[0]) and _FENCE.match(lines[-1]) and len(lines) > 1)


@dataclass(frozen=True)
class Occurrence:
    """Where a paragraph is used: ``Reshape-25 doc``, ``Conv-11 input X``..."""

    schema: Schema
    field: str

    def __str__(self) -> str:
        return f"{self.schema.name}-{self.schema.since_version} {self.field}"


def schema_texts(schema: Schema) -> Iterator[tuple[str, str]]:
    """Every prose field of one version, as (field label, text)."""
    yield "doc", schema.doc
    for attr in schema.attributes:
        yield f"attribute {attr.name}", attr.description
    for part, params in (("input", schema.inputs), ("output", schema.outputs)):
        for param in params:
            yield f"{part} {param.name}", param.description
    for tc in schema.type_constraints:
        yield f"type constraint {tc.name}", tc.description


def catalog_entries(schemas: Iterable[Schema]) -> dict[str, list[Occurrence]]:
    """Each translatable paragraph of ``schemas``, with every place it occurs, in order."""
    entries: dict[str, list[Occurrence]] = {}
    for schema in schemas:
        for field, text in schema_texts(schema):
            for paragraph in paragraphs(text):
                if is_translatable(paragraph):
                    entries.setdefault(paragraph, []).append(Occurrence(schema, field))
    return entries


def catalog_name(domain: str) -> str:
    """The gettext domain (file stem) of a domain's schema catalog."""
    return f"schema-{domain_label(domain)}"


def newest_versions(reference: Reference, domain: str) -> list[Schema]:
    """The newest version of every operator of a domain: what translators do first."""
    return [op.latest for op in reference.operators(domain)]
