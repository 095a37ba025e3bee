"""The tensor element type inside an onnx type string, and the shape around it.

``seq(tensor(float))`` is the shape ``seq(tensor(*))`` around ``float``. The
reports group long type lists by shape (:mod:`gendoc.present.type_lists`) and
compact them against the element types both sides of a diff know, read here.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

_ELEMENT = re.compile(r"^(.*\b(?:sparse_)?tensor\()(\w+)(\).*)$")


def element_type(type_str: str) -> tuple[str, str] | None:
    """``("optional(tensor(*))", "float")`` for ``optional(tensor(float))``; None if no tensor."""
    match = _ELEMENT.match(type_str)
    return (f"{match[1]}*{match[3]}", match[2]) if match else None


def tensor_element_types(type_lists: Iterable[Sequence[str]]) -> frozenset[str]:
    """Every element type of a tensor (``float`` of ``seq(tensor(float))``) in ``type_lists``."""
    found = (element_type(t) for types in type_lists for t in types)
    return frozenset(pair[1] for pair in found if pair is not None)
