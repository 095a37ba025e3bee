"""``gendoc export``: the whole reference of the installed onnx as one JSON snapshot.

The snapshot holds the model with its examples and details, and gendoc's evidence
verdicts: the combined verdict of the evidence sources on every parameter they can judge,
as ``gendoc audit --evidence`` without finite differences (too slow for an export) and the
site's evidence pages weigh them, through the same public functions.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from gendoc.collect import installed
from gendoc.model.reference import Reference, SchemaKey, schema_sort_key
from gendoc.model.snapshot import ParameterVerdict, Snapshot, SourceVote, encode, snapshot_of

if TYPE_CHECKING:
    from gendoc.audit.weigh import Weighed


def evidence_verdicts(
    reference: Reference, weighed: Mapping[SchemaKey, Weighed] | None = None
) -> dict[SchemaKey, tuple[ParameterVerdict, ...]]:
    """The evidence verdict on each parameter some source could judge, by schema key.

    Parameters no source answered (``strength`` none) are left out, and so are schemas
    outside the default domain, which no source knows. ``weighed`` holds every schema's
    verdicts, settled per history and family (the site passes the ones its evidence pages
    show); by default the sources of ``gendoc audit --evidence`` are asked.
    """
    from gendoc.audit.weigh import weigh_all
    from gendoc.evidence.sources import default_sources
    from gendoc.evidence.verdict import Strength

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
    reference: Reference, weighed: Mapping[SchemaKey, Weighed] | None = None
) -> Snapshot:
    """The snapshot of ``reference`` with its evidence verdicts (see :func:`evidence_verdicts`)."""
    return snapshot_of(reference, evidence_verdicts(reference, weighed))


def installed_reference(schemas: Sequence[str] = ()) -> Reference:
    """The installed onnx's model (plus ``schemas``) with all that a snapshot holds."""
    return installed.reference(schemas, with_examples=True, with_details=True)


def export(*, schemas: Sequence[str] = ()) -> str:
    """The JSON snapshot of the installed onnx (plus ``schemas``), as text."""
    return encode(export_snapshot(installed_reference(schemas)))
