"""gendoc: the ONNX operator reference, with differentiability tags.

The commands are typed functions (see :mod:`gendoc.api`), importable from
here; importing the package itself loads nothing heavy (onnx is imported on
first use).
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

__version__ = "0.1.0"

_EXPORTS = {
    "build": "gendoc.api",
    "check": "gendoc.api",
    "export": "gendoc.api",
    "diff": "gendoc.changes",
    "format_check": "gendoc.stale",
    "format_diff": "gendoc.changes",
    "RenderOptions": "gendoc.render",
    "FailOn": "gendoc.changes",
}
__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    if name not in _EXPORTS:
        raise AttributeError(f"module 'gendoc' has no attribute {name!r}")
    return getattr(import_module(_EXPORTS[name]), name)
