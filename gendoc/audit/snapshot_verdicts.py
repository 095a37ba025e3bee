"""The evidence verdicts a snapshot holds: the combined verdict on every parameter.

The export and the site's published data both write them, weighed as ``gendoc audit
--evidence`` weighs them without finite differences (too slow for an export) and as
the site's evidence pages show them, settled per history and family.
"""

from __future__ import annotations

from collections.abc import Mapping

from gendoc.audit.weigh import Weighed, weigh_all
from gendoc.evidence.sources import default_sources
from gendoc.evidence.verdict import Strength
from gendoc.model.reference import Reference, SchemaKey, schema_sort_key
from gendoc.model.snapshot import (
    ParameterVerdict,
    RuntimeData,
    Snapshot,
    SourceVote,
    snapshot_of,
)


def evidence_verdicts(
    reference: Reference, weighed: Mapping[SchemaKey, Weighed] | None = None
) -> dict[SchemaKey, tuple[ParameterVerdict, ...]]:
    """The evidence verdict on each parameter some source could judge, by schema key.

    Parameters no source answered (``strength`` none) are left out, and so are schemas
    outside the default domain, which no source knows. ``weighed`` holds every schema's
    verdicts, settled per history and family (the site passes the ones its evidence pages
    show); by default the sources of ``gendoc audit --evidence`` are asked.
    """
    if weighed is None:
        weighed = {
            schema_sort_key(w.schema): w for w in weigh_all(reference.schemas, default_sources())
        }
    found: dict[SchemaKey, tuple[ParameterVerdict, ...]] = {}
    for schema in reference.schemas:
        if schema.domain:
            continue
        found_for = weighed[schema_sort_key(schema)]
        verdicts = tuple(
            ParameterVerdict(
                part=s.parameter.part,
                name=s.parameter.name,
                suggested=s.suggested,
                strength=s.strength.value,
                rule=s.rule,
                votes=tuple(SourceVote(v.source, v.verdict) for v in found_for.votes(s.parameter)),
            )
            for s in found_for.suggestions
            if s.strength is not Strength.NONE
        )
        if verdicts:
            found[schema_sort_key(schema)] = verdicts
    return found


def export_snapshot(
    reference: Reference,
    weighed: Mapping[SchemaKey, Weighed] | None = None,
    runtime: RuntimeData | None = None,
) -> Snapshot:
    """The snapshot of ``reference`` with its evidence verdicts (see :func:`evidence_verdicts`)
    and the ``runtime`` support given (:func:`gendoc.runtime.operator_support.runtime_support`)."""
    return snapshot_of(reference, evidence_verdicts(reference, weighed), runtime)
