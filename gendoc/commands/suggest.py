"""``gendoc suggest``: from the installed onnx and the evidence to a patch and its description.

The checkout must be the sources of the installed onnx: the file and line
each schema records, and each tag the evidence is weighed against, come from
the installed build, so a patch made against another version could retag the
wrong call. A checkout that is not onnx, or another version, stops with one line.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from gendoc.errors import UsageError
from gendoc.evidence.sources import MissingSource
from gendoc.evidence.verdict import Strength, Suggestion
from gendoc.model.reference import Reference
from gendoc.suggest.checkout import DEFS, SourceTree
from gendoc.suggest.decide import Location, Plan, SchemaKey, plan
from gendoc.suggest.describe import Provenance, describe, parameter_csv, parameter_table
from gendoc.suggest.docs import check_documents, regenerated
from gendoc.suggest.patch import changed_texts, unified_diff

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


def check_checkout(src: Path, onnx_version: str) -> None:
    """Refuse a folder that is not an onnx checkout of ``onnx_version``."""
    if not (src / DEFS / "schema.h").is_file():
        raise UsageError(f"not an onnx checkout: {src} has no {DEFS}/schema.h")
    version_file = src / "VERSION_NUMBER"
    try:
        found = version_file.read_bytes().decode("utf-8").strip()
    except FileNotFoundError:
        found = None
    except (OSError, UnicodeDecodeError) as exc:
        reason = getattr(exc, "strerror", None) or exc
        raise UsageError(f"cannot read {version_file}: {reason}") from None
    if found != onnx_version:
        shown = f"onnx {found}" if found else "no VERSION_NUMBER"
        raise UsageError(
            f"{src} holds {shown}, but onnx {onnx_version} is installed: "
            f"check out v{onnx_version} or install the onnx of the checkout"
        )


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


def reproduce(onnx_version: str, options: Sequence[str]) -> tuple[str, ...]:
    """The shell commands that make the same patch: install, check out, run."""
    import gendoc

    return (
        f"pip install 'onnx=={onnx_version}' 'gendoc[torch]=={gendoc.__version__}'",
        f"git clone --depth 1 --branch v{onnx_version} https://github.com/onnx/onnx.git",
        shlex.join(["gendoc", "suggest", "--onnx-src", "onnx", *options]),
    )


def run(
    src: Path,
    min_evidence: Strength,
    *,
    newest_only: bool = False,
    whole_versions: bool = False,
) -> Suggested:
    """Check ``src``, weigh the evidence for every installed schema, return the patch.

    ``src`` must be the onnx checkout of the installed onnx; nothing is written.
    """
    import onnx

    from gendoc.collect import installed
    from gendoc.suggest.installed_facts import (
        evidence_sources,
        gather_suggestions,
        installed_locations,
        source_lines,
    )

    check_checkout(src, onnx.__version__)
    tree = SourceTree.read(src)  # an unreadable source stops before anything slow runs
    reference = installed.reference()
    checkout = Checkout(tree, check_documents(src, reference))
    sources = evidence_sources()
    options = ["--min-evidence", min_evidence.value]
    options += ["--newest-only"] * newest_only + ["--whole-versions"] * whole_versions
    options += ["--out-dir", "gendoc-suggest"]
    provenance = Provenance(
        onnx.__version__, tuple(source_lines(sources)), reproduce(onnx.__version__, options)
    )
    result = suggest(
        checkout,
        gather_suggestions(sources),
        installed_locations(),
        min_evidence,
        onnx_version=onnx.__version__,
        reference=reference,
        provenance=provenance,
        newest_only=newest_only,
        whole_versions=whole_versions,
    )
    missing = tuple(f"{s.name} {s.status.text}" for s in sources if isinstance(s, MissingSource))
    return replace(result, missing_sources=missing)
