"""The one-line message of a diff's change, in the reader's language.

``Reshape-5 input shape: undefined -> non-differentiable``: every kind of
:class:`~gendoc.model.compare.Change` has its message here, marked for the
catalogs, with long type lists compacted (:mod:`gendoc.present.type_lists`).
The Markdown report marks names up as code spans, the annotations and the
JSON document keep them plain.
"""

from __future__ import annotations

from collections.abc import Callable
from gettext import NullTranslations

from gendoc.catalogs.i18n import ENGLISH, N_, NP_
from gendoc.model.compare import Change, Kind
from gendoc.present.type_lists import compact_types

PARTS = {
    "input": N_("input"),
    "output": N_("output"),
    "attribute": N_("attribute"),
    "type constraint": N_("type constraint"),
}
"""The parts of a schema a change names, as labels."""


def change_message(
    change: Change,
    code: Callable[[str], str] = str,
    labels: NullTranslations = ENGLISH,
    known_types: frozenset[str] = frozenset(),
) -> str:
    """One line such as ``Reshape-5 input shape: undefined -> non-differentiable``.

    ``code`` marks up identifiers and values (Markdown code spans);
    ``labels`` translates the message (English by default); ``known_types``
    are the element types of the comparison, which long type lists are
    compacted against (:func:`gendoc.present.type_lists.compact_types`).
    """
    gettext = labels.gettext
    op = change.qualified_operator
    part = gettext(PARTS[change.part]) if change.part else ""
    subject = code(op if change.version is None else f"{op}-{change.version}")
    value = code if change.kind in _CODE_VALUES else str
    types = compact_types(change.added or change.removed, known_types, code, labels)
    delta = "; ".join(
        gettext(label) % {"types": compact_types(found, known_types, code, labels)}
        for label, found in (
            (N_("added %(types)s"), change.added),
            (N_("removed %(types)s"), change.removed),
        )
        if found
    )
    values = {
        "subject": subject,
        "part": part,
        "element": f"{subject} {part} {code(change.name or '')}",
        "old": value(change.old or ""),
        "new": value(change.new or ""),
        "types": types,
        "delta": delta,
        "versions": ", ".join(str(v) for v in change.versions),
        "num": change.paragraphs,
    }
    if change.kind is Kind.TEXT_CHANGED:
        text = labels.ngettext(*_TEXT_CHANGED, change.paragraphs) % values
    elif change.kind in _PLURAL_MESSAGES:
        text = labels.ngettext(*_PLURAL_MESSAGES[change.kind], len(change.versions)) % values
    elif change.kind is Kind.PARAMETERS_REORDERED:
        text = gettext(_REORDERED[change.part or "input"]) % values
    else:
        text = gettext(_MESSAGES[change.kind]) % values
    if change.compared_with is not None:
        other = code(f"{op}-{change.compared_with}")
        text += gettext(N_(" (compared with %(other)s)")) % {"other": other}
    return text


_CODE_VALUES = frozenset(
    {
        Kind.PARAMETER_ADDED,
        Kind.PARAMETER_RENAMED,
        Kind.PARAMETERS_REORDERED,
        Kind.PARAMETER_TYPE_CHANGED,
        Kind.ATTRIBUTE_ADDED,
        Kind.ATTRIBUTE_CHANGED,
    }
)
"""Kinds whose old and new values are names, types or attribute summaries, shown as code."""

_PLURAL_MESSAGES: dict[Kind, tuple[str, str]] = {
    Kind.OPERATOR_ADDED: NP_(
        "%(subject)s added (version %(versions)s)", "%(subject)s added (versions %(versions)s)"
    ),
    Kind.OPERATOR_REMOVED: NP_(
        "%(subject)s removed (version %(versions)s)", "%(subject)s removed (versions %(versions)s)"
    ),
}
_TEXT_CHANGED = NP_(
    "%(subject)s text: %(num)s paragraph changed", "%(subject)s text: %(num)s paragraphs changed"
)
_REORDERED = {
    "input": N_("%(subject)s inputs reordered: %(old)s -> %(new)s"),
    "output": N_("%(subject)s outputs reordered: %(old)s -> %(new)s"),
}
_MESSAGES: dict[Kind, str] = {
    Kind.VERSION_ADDED: N_("%(subject)s added"),
    Kind.VERSION_REMOVED: N_("%(subject)s removed"),
    Kind.DEPRECATED: N_("%(subject)s deprecated"),
    Kind.UNDEPRECATED: N_("%(subject)s no longer deprecated"),
    Kind.TAG_CHANGED: N_("%(element)s: %(old)s -> %(new)s"),
    Kind.PARAMETER_ADDED: N_("%(element)s added: %(new)s"),
    Kind.PARAMETER_REMOVED: N_("%(element)s removed"),
    Kind.PARAMETER_RENAMED: N_("%(subject)s %(part)s %(old)s renamed to %(new)s"),
    Kind.OPTION_CHANGED: N_("%(element)s option: %(old)s -> %(new)s"),
    Kind.PARAMETER_TYPE_CHANGED: N_("%(element)s type: %(old)s -> %(new)s"),
    Kind.ATTRIBUTE_ADDED: N_("%(element)s added: %(new)s"),
    Kind.ATTRIBUTE_REMOVED: N_("%(element)s removed"),
    Kind.ATTRIBUTE_CHANGED: N_("%(element)s: %(old)s -> %(new)s"),
    Kind.TYPE_CONSTRAINT_ADDED: N_("%(element)s added: %(types)s"),
    Kind.TYPE_CONSTRAINT_REMOVED: N_("%(element)s removed"),
    Kind.TYPE_CONSTRAINT_CHANGED: N_("%(element)s: %(delta)s"),
}
