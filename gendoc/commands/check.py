"""Check: are the documents on disk exactly what ``gendoc build`` would write?

Meant for CI and pre-commit hooks, where a stale reference should fail
with enough context to fix it without digging: a bounded unified diff of
each stale file and the one command that regenerates them. It compares
bytes, as the writer does, and never writes anything itself.
"""

from __future__ import annotations

import shlex
from collections.abc import Mapping, Sequence
from pathlib import Path

from gendoc.commands.build import DEFAULT_OPTIONS, build_documents
from gendoc.model.document_check import CheckReport, StaleDocument
from gendoc.present.render import RenderOptions
from gendoc.storage.write import changed_documents


def fix_command(
    out: Path, options: RenderOptions, schemas: Sequence[str] = (), snapshot: Path | None = None
) -> str:
    """The ``gendoc build`` command that regenerates what was checked.

    ``--out`` and ``--style`` are always spelled out so the command stays
    right if a default changes; the other options only when they differ
    from their defaults, so the command reads like what the user typed.
    """
    parts = ["gendoc", "build"]
    for module in schemas:
        parts += ["--schemas", module]
    if snapshot is not None:
        parts += ["--from", str(snapshot)]
    parts += ["--out", str(out), "--style", options.style]
    defaults = RenderOptions()
    if options.lang != defaults.lang:
        parts += ["--lang", options.lang]
    if options.undefined != defaults.undefined:
        parts += ["--undefined", options.undefined]
    if options.templates is not None:
        parts += ["--templates", str(options.templates)]
    if not options.schema_translation:
        parts.append("--no-schema-translation")
    return shlex.join(parts)


def check_documents(
    out: Path,
    documents: Mapping[str, str],
    options: RenderOptions,
    schemas: Sequence[str] = (),
    snapshot: Path | None = None,
) -> CheckReport:
    """Compare rendered ``documents`` with the files in ``out``."""
    stale = changed_documents(out, documents)
    return CheckReport(
        out=out,
        documents=len(documents),
        stale=tuple(StaleDocument(out / name, old, new) for name, (old, new) in stale.items()),
        fix=fix_command(out, options, schemas, snapshot),
    )


def check(
    out: Path,
    options: RenderOptions = DEFAULT_OPTIONS,
    *,
    schemas: Sequence[str] = (),
    snapshot: Path | None = None,
) -> CheckReport:
    """Compare the documents in ``out`` with what ``gendoc.build`` would write; write nothing.

    ``snapshot`` (a file ``gendoc export`` wrote) stands in for the installed onnx.
    """
    documents = build_documents(options, schemas=schemas, snapshot=snapshot)
    return check_documents(out, documents, options, schemas, snapshot)
