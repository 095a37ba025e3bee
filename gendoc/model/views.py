"""Views: the model regrouped the way each document lays it out.

Templates iterate over these structures; they never sort or group
themselves, so the order of every document is decided here, once.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from gendoc.model.reference import Operator, Reference, Schema


@dataclass(frozen=True)
class Entry:
    """An operator as one document shows it: its newest version and the rest."""

    versions: tuple[Schema, ...]

    @property
    def latest(self) -> Schema:
        return self.versions[-1]


def onnx_operator_index(reference: Reference) -> list[tuple[str, list[Entry]]]:
    """Operators per domain, grouped as onnx's gen_doc.py groups them.

    onnx groups versions by (domain, support level, name), lists common
    operators before experimental ones, and shows a name only in the first
    domain that has it.
    """
    index: dict[str, dict[int, dict[str, list[Schema]]]] = defaultdict(
        lambda: defaultdict(lambda: defaultdict(list))
    )
    for schema in reference.schemas:
        index[schema.domain][int(schema.experimental)][schema.name].append(schema)
    seen: set[str] = set()
    result = []
    for domain, by_level in sorted(index.items()):
        entries = []
        for _, by_name in sorted(by_level.items()):
            for name, versions in sorted(by_name.items()):
                if name in seen:
                    continue
                seen.add(name)
                ordered = sorted(versions, key=lambda s: s.since_version)
                entries.append(Entry(tuple(ordered)))
        result.append((domain, entries))
    return result


def changelog_index(reference: Reference) -> list[tuple[str, list[tuple[int, list[Schema]]]]]:
    """Schemas per domain and per opset version, each version sorted by name."""
    index: dict[str, dict[int, list[Schema]]] = defaultdict(lambda: defaultdict(list))
    for schema in reference.schemas:
        index[schema.domain][schema.since_version].append(schema)
    return [
        (
            domain,
            [(v, sorted(schemas, key=lambda s: s.name)) for v, schemas in sorted(by_v.items())],
        )
        for domain, by_v in sorted(index.items())
    ]


def operator_index(reference: Reference) -> list[tuple[str, list[Operator]]]:
    """Every operator of every domain, each domain listed whole."""
    return [(domain, list(reference.operators(domain))) for domain in reference.domains]
