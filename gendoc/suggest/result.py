"""The result of ``gendoc suggest``: the decisions, the patch and its pull-request texts.

From the evidence's suggestions and an onnx checkout, :func:`suggest` decides
which calls change (:mod:`gendoc.suggest.decide`), makes the patch with the
regenerated documents (:mod:`gendoc.suggest.patch`, :mod:`gendoc.suggest.docs`),
its description, parameter table and CSV (:mod:`gendoc.suggest.describe`) and
the Method 1 scripts, and returns them as :class:`Suggested`; it writes nothing.
The command (:mod:`gendoc.commands.suggest`) gathers the installed onnx's facts
and calls it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from gendoc.evidence.verdict import Strength, Suggestion
from gendoc.model.reference import Reference
from gendoc.suggest.checkout import SourceTree
from gendoc.suggest.decide import Location, Plan, SchemaKey, plan
from gendoc.suggest.describe import describe, parameter_csv, parameter_table
from gendoc.suggest.docs import check_documents, regenerated
from gendoc.suggest.patch import changed_texts, unified_diff
from gendoc.suggest.provenance import Provenance

PATCH = "suggest.patch"
DESCRIPTION = "description.md"


@dataclass(frozen=True)
class Suggested:
    """The result of one run: the decisions, the patch and the pull-request texts."""

    plan: Plan
    patch: str
    description: str
    table: str = ""
    csv: str = ""
    scripts: dict[str, str] = field(default_factory=dict)
    """The guide's Method 1 script of each input of each changed version, by file name."""
    missing_sources: tuple[str, ...] = ()
    """The evidence sources that could not run, each with why (``pytorch unavailable: ...``)."""

    def files(self) -> dict[str, str]:
        """Everything ``--out-dir`` writes except the scripts, by file name."""
        return {
            PATCH: self.patch,
            DESCRIPTION: self.description,
            "parameters.md": self.table,
            "parameters.csv": self.csv,
        }

    def why_empty(self) -> str:
        """Why the patch changes nothing: the suggestions set aside and the missing sources."""
        decided = self.plan
        counts = (
            f"{len(decided.left_out)} suggestions left out, {len(decided.below)} below the "
            f"evidence required, {len(decided.disputed)} disputed"
        )
        missing = ", ".join(self.missing_sources)
        return f"{counts}{'; ' + missing if missing else ''} (see the description)"


@dataclass(frozen=True)
class Checkout:
    """An onnx checkout read: its schema sources and, when checked, its operator documents."""

    tree: SourceTree
    rendered: dict[str, str]
    """gendoc's rendering of the unpatched model, equal to the checkout's documents."""


def read_checkout(src: Path, reference: Reference | None) -> Checkout:
    """The sources of ``src`` and, with ``reference``, its documents checked against it."""
    tree = SourceTree.read(src)
    return Checkout(tree, check_documents(src, reference) if reference is not None else {})


def method1_scripts(reference: Reference, decided: Plan) -> dict[str, str]:
    """The guide's Method 1 script for every input torch can take of every changed version."""
    from gendoc.evidence.scripts import differentiable_inputs, method1_script

    changed = {(s.domain, s.op, s.version) for c in decided.changes for s in c.suggestions}
    scripts = {}
    for schema in reference.schemas:
        if (schema.domain, schema.name, schema.since_version) in changed:
            for name in differentiable_inputs(schema):
                safe = re.sub(r"[^A-Za-z0-9_]", "_", name)
                scripts[f"{schema.name}-{schema.since_version}-{safe}.py"] = method1_script(
                    schema, name
                )
    return scripts


def suggest(
    src: Path | Checkout,
    suggestions: Sequence[Suggestion],
    locations: Mapping[SchemaKey, Location],
    min_evidence: Strength = Strength.STRONG,
    *,
    onnx_version: str,
    reference: Reference | None = None,
    provenance: Provenance | None = None,
    newest_only: bool = False,
    whole_versions: bool = False,
) -> Suggested:
    """The patch to ``src`` that carries ``suggestions``, for schemas defined at ``locations``.

    With ``reference`` (the model of the installed onnx) the patch also carries
    the operator documents regenerated for the new tags, and the Method 1
    scripts are made; the checkout's documents must equal the model's.
    """
    checkout = src if isinstance(src, Checkout) else read_checkout(src, reference)
    tree, rendered = checkout.tree, checkout.rendered
    decided = plan(
        tree,
        suggestions,
        locations,
        min_evidence,
        newest_only=newest_only,
        whole_versions=whole_versions,
    )
    files = {
        path: (tree.texts[path], new) for path, new in changed_texts(tree, decided.changes).items()
    }
    documents = {}
    if reference is not None:
        documents = regenerated(rendered, reference, decided.tagged)
        files |= {path: (rendered[path.split("/")[-1]], new) for path, new in documents.items()}
    provenance = replace(provenance or Provenance(onnx_version), documents=tuple(sorted(documents)))
    return Suggested(
        decided,
        unified_diff(files),
        describe(decided, min_evidence, provenance),
        parameter_table(decided, provenance),
        parameter_csv(decided),
        method1_scripts(reference, decided) if reference is not None else {},
    )
