"""Type lists, compacted for reading: ``tensor(*)`` for all element types but a few.

A type constraint often lists the same element types under several wrappers
(``tensor(x)``, ``seq(tensor(x))``, ``optional(tensor(x))`` ...), and a list of
thirty types hides the two that matter. So a list is grouped: by *shape*, the
type with its element type replaced by ``*``, then shapes that take the same
element types are merged. A group is shown as its shapes and either its
element types or, when shorter, ``all element types but`` those missing from
the element types known on both sides of the comparison. Small groups are
listed as they are. Only the display is compacted; the data (``--format
json``) keeps every type.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from gettext import NullTranslations

from gendoc.catalogs.i18n import ENGLISH, N_
from gendoc.model.type_strings import element_type

MIN_ELEMENTS = 3
"""Element types a group of one shape needs before it is shown compacted."""


@dataclass(frozen=True)
class _Group:
    shapes: tuple[str, ...]
    elements: tuple[str, ...]


def _groups(types: Sequence[str]) -> tuple[list[str], list[_Group]]:
    """Types no shape fits, and the shapes with their element types, in first-seen order."""
    loose: list[str] = []
    by_shape: dict[str, list[str]] = {}
    for type_str in types:
        found = element_type(type_str)
        if found is None:
            loose.append(type_str)
        else:
            by_shape.setdefault(found[0], []).append(found[1])
    merged: dict[tuple[str, ...], list[str]] = {}
    for shape, elements in by_shape.items():
        merged.setdefault(tuple(elements), []).append(shape)
    return loose, [_Group(tuple(shapes), elements) for elements, shapes in merged.items()]


def compact_types(
    types: Sequence[str],
    known: frozenset[str] = frozenset(),
    code: Callable[[str], str] = str,
    labels: NullTranslations = ENGLISH,
) -> str:
    """``types`` for a reader: small groups listed, large ones as shapes and element types.

    ``known`` is every element type of the comparison; a group missing fewer of
    them than it has is shown as ``all element types but`` the missing ones.
    """
    gettext = labels.gettext
    loose, groups = _groups(types)
    shown: list[str] = []
    plain: list[str] = list(loose)
    for group in groups:
        if len(group.elements) < MIN_ELEMENTS and len(group.shapes) * len(group.elements) < 4:
            plain += (shape.replace("*", e) for e in group.elements for shape in group.shapes)
            continue
        shapes = ", ".join(code(s) for s in group.shapes)
        missing = sorted(known - set(group.elements)) if known >= set(group.elements) else None
        if missing is not None and not missing:
            text = gettext(N_("%(shapes)s for all element types")) % {"shapes": shapes}
        elif missing is not None and len(missing) < len(group.elements):
            text = gettext(N_("%(shapes)s for all element types but %(missing)s")) % {
                "shapes": shapes,
                "missing": ", ".join(code(e) for e in missing),
            }
        else:
            text = gettext(N_("%(shapes)s for %(elements)s")) % {
                "shapes": shapes,
                "elements": ", ".join(code(e) for e in group.elements),
            }
        shown.append(text)
    listed = ", ".join(code(t) for t in plain)
    return "; ".join([listed, *shown] if listed else shown)
