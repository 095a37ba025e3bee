"""Operator set versions: what each opset of a domain holds, and what changed from the one before.

A model that imports version N of a domain gets, for every operator of the
domain, its newest version whose ``since_version`` is not above N, unless that
version is a deprecation (:func:`gendoc.site.coverage.opset`). The site gives
every such N a page: the operator versions in effect, then what changed from
N - 1 (operators added, operators removed, operators with a new version, and
the tags that new version changed). And each operator version says over which
opsets it applies. Everything here is a pure function of the model.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from gendoc.model.pairing import TagChange, tag_changes
from gendoc.model.reference import Operator, Reference, Schema
from gendoc.site.coverage import opset
from gendoc.site.paths import PagePaths


@dataclass(frozen=True)
class NewVersion:
    """An operator whose version in effect changed at this opset."""

    old: Schema
    new: Schema
    tag_changes: tuple[TagChange, ...]

    @property
    def interface(self) -> dict[str, tuple[str, ...]]:
        """What changed in the interface, by kind (``"attributes added"``, ``"inputs
        removed"``, ``"types changed"``: a type constraint added, removed or allowing other
        types), each with the names, in the newer version's order; empty when only the text
        changed."""
        changes: dict[str, tuple[str, ...]] = {}
        for kind in ("attributes", "inputs", "outputs"):
            before = [p.name for p in getattr(self.old, kind)]
            after = [p.name for p in getattr(self.new, kind)]
            for change, names in (
                ("added", [n for n in after if n not in before]),
                ("removed", [n for n in before if n not in after]),
            ):
                if names:
                    changes[f"{kind} {change}"] = tuple(names)
        old_types = {t.name: set(t.allowed_types) for t in self.old.type_constraints}
        new_types = {t.name: set(t.allowed_types) for t in self.new.type_constraints}
        changed = [n for n in {**new_types, **old_types} if old_types.get(n) != new_types.get(n)]
        if changed:
            changes["types changed"] = tuple(changed)
        return changes


@dataclass(frozen=True)
class Opset:
    """One operator set version of one domain."""

    domain: str
    version: int
    schemas: tuple[Schema, ...]
    """The operator versions in effect, in the model's operator order."""
    added: tuple[Schema, ...]
    """Operators in effect here and not in the opset before."""
    removed: tuple[Schema, ...]
    """Operators of the opset before that this one drops (their last version in effect)."""
    updated: tuple[NewVersion, ...]

    @property
    def tag_changed(self) -> int:
        """How many parameters changed tag from the opset before."""
        return sum(len(u.tag_changes) for u in self.updated)


def _opset(domain: str, version: int, schemas: list[Schema], before: list[Schema]) -> Opset:
    previous = {s.name: s for s in before}
    current = {s.name for s in schemas}
    added, updated = [], []
    for s in schemas:
        old = previous.get(s.name)
        if old is None:
            added.append(s)
        elif old.since_version != s.since_version:
            updated.append(NewVersion(old, s, tuple(tag_changes(old, s))))
    removed = tuple(s for s in before if s.name not in current)
    return Opset(domain, version, tuple(schemas), tuple(added), removed, tuple(updated))


def domain_opsets(reference: Reference, domain: str) -> tuple[Opset, ...]:
    """Every opset of ``domain``, from its first ``since_version`` to its newest."""
    operators = list(reference.operators(domain))
    first, newest = version_span(operators)
    found, before = [], []
    for version in range(first, newest + 1):
        schemas = opset(operators, version)
        found.append(_opset(domain, version, schemas, before))
        before = schemas
    return tuple(found)


def version_span(operators: list[Operator]) -> tuple[int, int]:
    """The first and the newest opset of a domain's operators."""
    versions = [s.since_version for op in operators for s in op.versions]
    return min(versions), max(versions)


def applies(op: Operator, schema: Schema, newest: int) -> tuple[int, int] | None:
    """The opsets over which ``schema`` is the version of ``op`` in effect, first and last;
    ``None`` for a deprecation (the operator is in no opset from then on)."""
    if schema.deprecated:
        return None
    later = [s.since_version for s in op.versions if s.since_version > schema.since_version]
    return schema.since_version, (min(later) - 1 if later else newest)


class SiteLike(Protocol):
    """What the page list needs from :class:`gendoc.site.site_facts.SiteFacts`."""

    reference: Reference
    paths: PagePaths

    def opsets(self, domain: str) -> tuple[Opset, ...]: ...


def index_pages(site: SiteLike) -> list[tuple[str, dict[str, Any]]]:
    """``(path, context)`` of every domain's index of its operator sets."""
    return [
        (site.paths.opsets_index(domain), {"domain": domain, "opsets": site.opsets(domain)})
        for domain in site.reference.domains
    ]


def opset_pages(site: SiteLike) -> list[tuple[str, dict[str, Any]]]:
    """``(path, context)`` of the page of every operator set of every domain."""
    pages = []
    for domain in site.reference.domains:
        found = site.opsets(domain)
        index = site.paths.opsets_index(domain)
        for before, o, after in zip((None, *found[:-1]), found, (*found[1:], None), strict=True):
            context = {"domain": domain, "opset": o, "before": before, "after": after}
            context["index"] = index
            pages.append((site.paths.opset_page(domain, o.version), context))
    return pages
