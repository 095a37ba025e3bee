"""What a suggested patch was made from, for its description: onnx, the evidence, the commands.

Its own module because both the description (:mod:`gendoc.suggest.describe`),
which shows it, and the result (:mod:`gendoc.suggest.result`), which fills in the
regenerated documents, take it, and the command makes it.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Provenance:
    """Where the evidence came from and how to make the same patch again."""

    onnx_version: str
    sources: tuple[str, ...] = ()
    """One line per source: its name and the version it ran (or why it could not)."""
    commands: tuple[str, ...] = ()
    """The shell commands that reproduce the patch."""
    documents: tuple[str, ...] = ()
    """The regenerated documents the patch carries."""
