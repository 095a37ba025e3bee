"""``gendoc suggest``: from the installed onnx and the evidence to a patch and its description.

The checkout must be the sources of the installed onnx: the file and line
each schema records, and each tag the evidence is weighed against, come from
the installed build, so a patch made against another version could retag the
wrong call. A checkout that is not onnx, or another version, stops with one line.

The command gathers the installed onnx's facts (its model, the evidence, where each
schema is defined) and hands them to :func:`gendoc.suggest.result.suggest`, which
makes the patch and its texts; it formats nothing and writes nothing.
"""

from __future__ import annotations

import shlex
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from gendoc.errors import UsageError
from gendoc.evidence.sources import MissingSource
from gendoc.evidence.verdict import Strength
from gendoc.suggest.checkout import DEFS, SourceTree
from gendoc.suggest.docs import check_documents
from gendoc.suggest.provenance import Provenance
from gendoc.suggest.result import Checkout, Suggested, suggest


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
        default_sources,
        gather_suggestions,
        installed_locations,
        source_lines,
    )

    check_checkout(src, onnx.__version__)
    tree = SourceTree.read(src)  # an unreadable source stops before anything slow runs
    reference = installed.reference()
    checkout = Checkout(tree, check_documents(src, reference))
    sources = default_sources()
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
