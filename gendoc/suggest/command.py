"""``gendoc suggest``: from the installed onnx and the evidence to a patch and its description.

The checkout must be the sources of the installed onnx: the file and line
each schema records, and each tag the evidence is weighed against, come from
the installed build, so a patch made against another version could retag the
wrong call. A checkout that is not onnx, or another version, stops with one line.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from gendoc.errors import UsageError
from gendoc.evidence.verdict import Strength, Suggestion
from gendoc.suggest.describe import describe
from gendoc.suggest.patch import unified_diff
from gendoc.suggest.plan import Location, Plan, SchemaKey, plan
from gendoc.suggest.source import DEFS, SourceTree


@dataclass(frozen=True)
class Suggested:
    """The result of one run: the decisions, the patch and the pull-request description."""

    plan: Plan
    patch: str
    description: str


def check_checkout(src: Path, onnx_version: str) -> None:
    """Refuse a folder that is not an onnx checkout of ``onnx_version``."""
    if not (src / DEFS / "schema.h").is_file():
        raise UsageError(f"not an onnx checkout: {src} has no {DEFS}/schema.h")
    version_file = src / "VERSION_NUMBER"
    found = version_file.read_text(encoding="utf-8").strip() if version_file.is_file() else None
    if found != onnx_version:
        shown = f"onnx {found}" if found else "no VERSION_NUMBER"
        raise UsageError(
            f"{src} holds {shown}, but onnx {onnx_version} is installed: "
            f"check out v{onnx_version} or install the onnx of the checkout"
        )


def suggest(
    src: Path,
    suggestions: Sequence[Suggestion],
    locations: Mapping[SchemaKey, Location],
    min_evidence: Strength = Strength.STRONG,
    *,
    onnx_version: str,
) -> Suggested:
    """The patch to ``src`` that carries ``suggestions``, for schemas defined at ``locations``."""
    tree = SourceTree.read(src)
    decided = plan(tree, suggestions, locations, min_evidence)
    return Suggested(
        decided,
        unified_diff(tree, decided.changes),
        describe(decided, min_evidence, onnx_version=onnx_version),
    )


def run(src: Path, out: Path | None, description: Path | None, min_evidence: Strength) -> Suggested:
    """Check ``src``, weigh the evidence for every installed schema, write the outputs."""
    import onnx

    from gendoc.suggest.installed import gather_suggestions, installed_locations

    check_checkout(src, onnx.__version__)
    result = suggest(
        src,
        gather_suggestions(),
        installed_locations(),
        min_evidence,
        onnx_version=onnx.__version__,
    )
    outputs: dict[Path | None, str] = {out: result.patch}
    if description is not None:
        if description == out:
            raise UsageError(f"--out and --description name the same file: {out}")
        outputs[description] = result.description
    _write(outputs)
    return result


def _write(outputs: Mapping[Path | None, str]) -> None:
    """Write the files, each atomically; ``None`` (or ``-``) is stdout."""
    from gendoc.console import write_stdout_bytes
    from gendoc.write import write_documents

    for path, text in outputs.items():
        if path is None or str(path) == "-":
            write_stdout_bytes(text.encode("utf-8"))
        elif path.is_dir():
            raise UsageError(f"output is a folder, not a file: {path}")
        else:
            write_documents(path.parent, {path.name: text})
            print(f"wrote {path}", file=sys.stderr)
