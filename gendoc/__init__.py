"""gendoc: the ONNX operator reference, with differentiability tags.

The commands are typed functions (one module per command in
:mod:`gendoc.commands`), importable from here; importing the package
itself loads nothing heavy (onnx is imported on first use).

``gendoc.audit`` and ``gendoc.suggest`` are subpackages, each holding the
function of its own name (``gendoc.audit.audit``, ``gendoc.suggest.suggest``):
a package cannot hold a function under the name of one of its subpackages,
since importing the subpackage replaces it.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

__version__ = "0.1.0"

_EXPORTS = {
    "build": "gendoc.api",
    "check": "gendoc.commands.check",
    "export": "gendoc.commands.export",
    "diff": "gendoc.commands.diff",
    "format_check": "gendoc.present.check_report",
    "format_diff": "gendoc.present.diff_report",
    "RenderOptions": "gendoc.present.render",
    "FailOn": "gendoc.model.compare",
    "AuditOptions": "gendoc.audit.entry",
    "AuditReport": "gendoc.audit.report",
    "Strength": "gendoc.evidence.verdict",
    "Suggested": "gendoc.suggest.result",
}
_SUBPACKAGES = ("audit", "suggest")
__all__ = sorted([*_EXPORTS, *_SUBPACKAGES])


def __getattr__(name: str) -> Any:
    if name in _SUBPACKAGES:
        return import_module(f"gendoc.{name}")
    if name not in _EXPORTS:
        raise AttributeError(f"module 'gendoc' has no attribute {name!r}")
    return getattr(import_module(_EXPORTS[name]), name)
