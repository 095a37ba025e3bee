"""What GitHub shows as annotations: their levels, and at most ten of a level per step.

A change's level says how much it matters to the run: ``error`` when
``--fail-on`` says it fails it, else ``warning`` for a differentiability tag
change and ``notice`` for the others. GitHub shows
:data:`ANNOTATIONS_PER_LEVEL` annotations of one level per step and drops the
rest without a word, so past that the last place goes to a count of the rest.
``gendoc diff --format github`` and the action's steps keep to these rules.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeVar

from gendoc.model.compare import Change, DiffReport, FailOn

ANNOTATIONS_PER_LEVEL = 10
"""GitHub shows this many annotations of one level (error, warning, notice) per step."""

_T = TypeVar("_T")


def shown_annotations(items: Sequence[_T]) -> tuple[Sequence[_T], int]:
    """The items of one annotation level GitHub will show, and how many more a last one counts."""
    if len(items) <= ANNOTATIONS_PER_LEVEL:
        return items, 0
    kept = ANNOTATIONS_PER_LEVEL - 1
    return items[:kept], len(items) - kept


@dataclass(frozen=True)
class Annotation:
    """One GitHub annotation: a change, or (``change`` None) how many more were left out."""

    level: str
    change: Change | None = None
    left_out: int = 0


def level(report: DiffReport, change: Change, fail_on: FailOn) -> str:
    """The annotation level of a change: error when it fails the run, warning for a tag."""
    if report.fails(change, fail_on):
        return "error"
    return "warning" if change.is_tag_change else "notice"


def annotations(report: DiffReport, fail_on: FailOn) -> list[Annotation]:
    """What GitHub can show: per level the first changes, then one saying how many more."""
    by_level: dict[str, list[Change]] = {}
    for change in report.ordered:
        by_level.setdefault(level(report, change, fail_on), []).append(change)
    shown = []
    for name, changes in by_level.items():
        kept, left_out = shown_annotations(changes)
        shown += (Annotation(name, c) for c in kept)
        if left_out:
            shown.append(Annotation(name, None, left_out))
    return shown
