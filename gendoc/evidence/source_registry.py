"""The registry of evidence sources: one line per source, read by everything that names one.

The audit (:func:`gendoc.evidence.sources.default_sources`), the verdict
(a source's role and weight, :mod:`gendoc.evidence.verdict`), the site's
evidence pages and ``gendoc suggest``'s description (each source's
provenance line) read a source from here, so a new source is its module and
one :func:`register` call. The entry names what the source is, never how it
is built beyond where: ``make`` is ``"module:callable"``, imported only when
the source is asked for (torch is slow to import, onnx-ad may be missing).

A source's *role* says what its gradient means for a dispute's kind
(:class:`gendoc.evidence.verdict.DisputeKind`): a *framework* (PyTorch,
onnxruntime) shows what training does with the value, the *mathematics*
(onnx-ad's autodiff of the operator itself, finite differences) what the
operator's definition implies. A slope the frameworks keep constant is a
convention; a gradient a framework computes against a tag is not.
"""

from __future__ import annotations

import enum
import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from gendoc.catalogs.i18n import N_

if TYPE_CHECKING:
    from gendoc.evidence.interface import EvidenceSource


class Role(enum.StrEnum):
    FRAMEWORK = "framework"
    MATHEMATICS = "mathematics"


@dataclass(frozen=True)
class SourceInfo:
    """One evidence source: its name (as every vote carries it), the label of its
    provenance line (an ``N_`` message where it has words to translate), its role, which
    schemas it covers (an ``N_`` message), the weight its votes are multiplied by, and
    where it is made: ``"module:callable"``, imported when asked for, or the callable
    itself (``""``: passed in by its caller, as the audit passes its own finite
    differences)."""

    name: str
    label: str
    role: Role
    covers: str
    weight: float = 1.0
    make: str | Callable[[], EvidenceSource] = ""

    def build(self) -> EvidenceSource:
        if callable(self.make):
            return self.make()
        module, _, attribute = self.make.partition(":")
        made: EvidenceSource = getattr(importlib.import_module(module), attribute)()
        return made


NUMERIC = "finite-differences"
"""The source name the numeric (finite-difference) evidence is given under."""

SOURCES: dict[str, SourceInfo] = {}
"""Every registered source by name, in the order sources are asked and shown."""


def register(info: SourceInfo) -> SourceInfo:
    """Add (or replace) a source; it is asked after those registered before it."""
    SOURCES[info.name] = info
    return info


def unregister(name: str) -> None:
    SOURCES.pop(name, None)


def info(name: str) -> SourceInfo:
    """The registry's entry for ``name``; an unregistered name is a framework of weight 1
    (a source built by hand, as tests do)."""
    return SOURCES.get(name) or SourceInfo(name, name, Role.FRAMEWORK, "")


def provenance_line(source: EvidenceSource) -> str:
    """``PyTorch autograd: recorded with torch 2.13.0 ...``: what a source ran, in one line."""
    return f"{info(source.name).label}: {source.status.text}"


register(
    SourceInfo(
        "pytorch",
        N_("PyTorch autograd"),
        Role.FRAMEWORK,
        N_("the default domain's operators that the torch mapping holds"),
        make="gendoc.evidence.torch_record:RecordedTorchSource",
    )
)
register(
    SourceInfo(
        "onnxruntime",
        N_("onnxruntime gradient registry"),
        Role.FRAMEWORK,
        N_("the default domain's operators with an onnxruntime gradient builder"),
        make="gendoc.evidence.ort_registry:OrtRegistrySource",
    )
)
register(
    SourceInfo(
        "onnx-ad",
        "onnx-ad",
        Role.MATHEMATICS,
        N_("onnx's operators that a backend test case exercises"),
        make="gendoc.evidence.onnx_ad_record:RecordedOnnxAdSource",
    )
)
register(
    SourceInfo(
        NUMERIC,
        N_("finite differences"),
        Role.MATHEMATICS,
        N_("the operators the audit's finite differences evaluated (--numeric)"),
    )
)
