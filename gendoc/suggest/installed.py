"""What the installed onnx says: where each schema is defined, and the evidence for its tags.

Read-only: the file and line are those onnx records when it registers a
schema (``OpSchema.file``/``OpSchema.line``), made relative to the checkout
by the ``onnx/defs/`` part of the path the build was made from.
"""

from __future__ import annotations

from gendoc.evidence.sources import default_sources
from gendoc.evidence.verdict import Suggestion, combine
from gendoc.suggest.plan import Location, SchemaKey
from gendoc.suggest.source import DEFS


def installed_locations() -> dict[SchemaKey, Location]:
    """(domain, name, since_version) -> where the installed onnx was built from."""
    from onnx import defs

    found = {}
    for schema in defs.get_all_schemas_with_history():
        at = schema.file.replace("\\", "/").rfind(f"{DEFS}/")
        if at >= 0:
            path = schema.file.replace("\\", "/")[at:]
            found[(schema.domain, schema.name, schema.since_version)] = Location(path, schema.line)
    return found


def gather_suggestions() -> list[Suggestion]:
    """Every source's evidence for every installed schema, combined by the rule table."""
    from gendoc import installed

    sources = default_sources()
    found = []
    for schema in installed.reference(with_examples=False).schemas:
        found += combine(schema, [source.evaluate(schema) for source in sources])
    return found
