"""Turn differentiability evidence into a patch for onnx's C++ schema sources.

From Python, ``suggest(src, min_evidence, *, newest_only=False, whole_versions=False)``
(the command's function, :func:`gendoc.commands.suggest.run`) weighs the evidence for
every schema of the installed onnx and returns the patch to the onnx checkout
``src`` as a :class:`~gendoc.suggest.result.Suggested`; it writes nothing.
The names load on first use: the command imports this package's modules.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

_EXPORTS = {
    "suggest": ("gendoc.commands.suggest", "run"),
    "Suggested": ("gendoc.suggest.result", "Suggested"),
    "Strength": ("gendoc.evidence.verdict", "Strength"),
}
__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    if name not in _EXPORTS:
        raise AttributeError(f"module 'gendoc.suggest' has no attribute {name!r}")
    module, attribute = _EXPORTS[name]
    return getattr(import_module(module), attribute)
