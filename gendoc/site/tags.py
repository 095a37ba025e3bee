"""Tags a reader can act on: badges that lead to their evidence, suggestions, counts.

An operator page's tag badge links to the row of the operator's evidence page
that weighs that parameter (each row has a stable id, :func:`row_id`); a
parameter whose tag the evidence questions (undefined, or the other tag) shows
the combined verdict's suggestion and its strength beside the badge, as text.
The verdicts are :func:`gendoc.site.evidence_pages.weighed_all`'s, read as they are.

The domain tables count the tags of each operator's newest version per part
(:func:`tag_counts`), each count marked with its tag's class, which the tag
filter above the table reads.
"""

from __future__ import annotations

from dataclasses import dataclass

from markupsafe import Markup, escape

from gendoc.audit.weigh import Weighed
from gendoc.catalogs.i18n import N_
from gendoc.evidence.verdict import Strength, Suggestion
from gendoc.model.reference import Differentiability, Parameter, ParameterRef, Part, Schema
from gendoc.model.stats import tally
from gendoc.present.display import Display
from gendoc.site.coverage import ORDER
from gendoc.site.evidence_pages import STRENGTHS
from gendoc.site.paths import hashed

_PLAIN = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")


def parameter_ref(part: str, name: str) -> ParameterRef:
    """The identity of the parameter a template shows (``part`` is ``"input"`` or
    ``"output"``)."""
    return ParameterRef(Part(part), name)


def row_id(version: int, parameter: ParameterRef) -> str:
    """The id of an evidence row: ``v17-input-X`` (a name that is not a plain identifier is
    hashed, so the id stays usable in a URL)."""
    name = parameter.name
    if not name or not set(name) <= _PLAIN:
        name = hashed(name)
    return f"v{version}-{parameter.part.value}-{name}"


def suggestion(found: Weighed, parameter: ParameterRef) -> Suggestion | None:
    """The combined verdict on one parameter of the version ``found`` weighs, when it
    questions the parameter's tag: a suggestion for an undefined tag (or the conflict), or
    the other tag for a defined one."""
    found = next((s for s in found.suggestions if s.parameter == parameter), None)
    if found is None:
        return None
    if found.current is Differentiability.UNDEFINED:
        return found if found.strength is not Strength.NONE else None
    return found if found.is_problem else None


@dataclass(frozen=True)
class ParameterRow:
    """An input or output as an operator page shows it, in its signature and its entry."""

    parameter: Parameter
    id: str
    """Its entry's id, the same as its evidence row's (:func:`row_id`)."""
    suggestion: Suggestion | None
    """The combined verdict, where it questions the tag (:func:`suggestion`)."""


@dataclass(frozen=True)
class ParameterRows:
    inputs: tuple[ParameterRow, ...]
    outputs: tuple[ParameterRow, ...]


def parameter_rows(schema: Schema, found: Weighed | None) -> ParameterRows:
    """Each input and output of ``schema`` with its id and, when the version was weighed
    (``found``), the suggestion on it: made once per version, not once per place a page
    names the parameter (its signature, its entry, its badge's link)."""

    def rows(part: str, params: tuple[Parameter, ...]) -> tuple[ParameterRow, ...]:
        refs = [parameter_ref(part, p.name) for p in params]
        return tuple(
            ParameterRow(
                p,
                row_id(schema.since_version, ref),
                suggestion(found, ref) if found is not None else None,
            )
            for p, ref in zip(params, refs, strict=True)
        )

    return ParameterRows(rows("input", schema.inputs), rows("output", schema.outputs))


def tag_counts(schema: Schema, display: Display) -> Markup:
    """``Inputs: 1 differentiable, 1 non-differentiable · Outputs: 1 differentiable``."""
    gettext = display.gettext
    parts = []
    for label, params in ((N_("Inputs"), schema.inputs), (N_("Outputs"), schema.outputs)):
        if not params:
            continue
        counts = tally(params)
        numbers = {
            Differentiability.DIFFERENTIABLE: counts.differentiable,
            Differentiability.NON_DIFFERENTIABLE: counts.non_differentiable,
            Differentiability.UNDEFINED: counts.undefined,
        }
        counted = gettext(N_("%(count)s %(tag)s"))
        items = [
            Markup(
                f'<span class="gd-n gd-n-{escape(tag.value)}">'
                f"{escape(counted % {'count': n, 'tag': display.tag(tag)})}</span>"
            )
            for tag in ORDER
            if (n := numbers[tag])
        ]
        text = Markup(gettext(N_("%(part)s: %(counts)s")))
        comma = Markup(display.labels.pgettext("between the items of a list", ", "))
        parts.append(text % {"part": gettext(label), "counts": comma.join(items)})
    if not parts:
        return Markup(gettext("no inputs or outputs"))
    return Markup(" · ").join(parts)


def strength(value: Strength, display: Display) -> str:
    return display.gettext(STRENGTHS[value.value])
