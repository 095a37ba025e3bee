"""Links into onnx's repository on GitHub, at the release the site documents.

A schema's line numbers are those of the installed onnx, so a link must
point at the same sources: the release's tag (``v1.23.2``) for a release or
release candidate, and ``main`` for a development or weekly build, whose
version (``1.24.0.dev20261026``) has no tag; its lines are the nearest that
exists.
"""

from __future__ import annotations

import re

ONNX_REPOSITORY = "https://github.com/onnx/onnx"
_TAGGED = re.compile(r"\d+\.\d+\.\d+(?:rc\d+)?")


def onnx_ref(onnx_version: str) -> str:
    """The git ref of onnx's sources for an installed onnx version."""
    return f"v{onnx_version}" if _TAGGED.fullmatch(onnx_version) else "main"


def source_url(onnx_version: str, source: tuple[str, int]) -> str:
    """The line that defines a schema: ``source`` is its file in the repository and line."""
    path, line = source
    return f"{ONNX_REPOSITORY}/blob/{onnx_ref(onnx_version)}/{path}#L{line}"


def release_url(onnx_version: str) -> str | None:
    """The page of an onnx release; none for a development build."""
    ref = onnx_ref(onnx_version)
    return f"{ONNX_REPOSITORY}/releases/tag/{ref}" if ref != "main" else None
