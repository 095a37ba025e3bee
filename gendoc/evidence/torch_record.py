"""PyTorch's verdicts recorded with one torch release, shipped for the site's evidence pages.

Asking torch costs a site build more than anything else it does: importing
torch takes longer than rendering all operator pages of a language, and
every mapped operator version is then run twice. Torch's answers depend
only on the torch release and on the operator's interface, so they are
recorded once, with the torch release CI pins, in ``data/torch_verdicts.json``
(:mod:`gendoc.evidence.record`, the record every recorded source shares):

    python -m gendoc.evidence.torch_record [OUTPUT]

:class:`RecordedTorchSource` answers from the record when it holds the same
operator version with the same interface (inputs and outputs: names,
options and types), and asks the installed torch otherwise (a newer
onnx's new versions); without torch such a version is ``UNAVAILABLE`` with
why. A recorded verdict keeps torch's version in its detail, and its status
line says the verdicts are recorded and with which torch. It is PyTorch's
source everywhere (:mod:`gendoc.evidence.source_registry`): the site,
``gendoc audit --evidence`` and ``gendoc suggest`` give the same verdicts
with or without torch installed; a test checks that the record still equals
what the installed torch says.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

from gendoc.catalogs.i18n import N_, Message, say
from gendoc.evidence.interface import EvidenceSource, SourceEvidence, unavailable
from gendoc.evidence.record import RecordedSource, Recording, read_record, record_command
from gendoc.evidence.torch_ops import NO_MAPPING, TORCH_OPS
from gendoc.model.reference import Schema

DATA_FILE = "torch_verdicts.json"
NAME = "pytorch"
USAGE = "usage: python -m gendoc.evidence.torch_record [OUTPUT]"


def load_record() -> dict[str, Any]:
    """The record shipped with gendoc: ``onnx`` and ``torch`` (the versions it was made
    with) and ``verdicts``, by :func:`gendoc.evidence.record.interface_key`."""
    return read_record(DATA_FILE)


def _live_torch() -> EvidenceSource:
    from gendoc.evidence.sources import live_torch_source

    return live_torch_source()


class RecordedTorchSource(RecordedSource):
    """PyTorch as an evidence source, answering from the record where it can.

    ``live`` makes the source asked for a version the record does not hold (by
    default :func:`gendoc.evidence.sources.live_torch_source`: the installed
    torch, or an ``UNAVAILABLE`` answer saying torch is missing).
    """

    def __init__(
        self,
        verdicts: dict[str, dict[str, Any]] | None = None,
        *,
        made_with: str | None = None,
        live: Callable[[], EvidenceSource] | None = None,
    ) -> None:
        if verdicts is None:
            kept = load_record()
            verdicts = kept["verdicts"]
            made_with = made_with or f"torch {kept['torch']} (onnx {kept['onnx']})"
        super().__init__(NAME, verdicts, live or _live_torch)
        self.made_with = made_with or "a torch record"

    @property
    def status(self) -> Message:
        """What answered: the record, and for versions it lacks, the installed torch or why not."""
        if self.live is None:
            return say(
                N_("recorded with {made_with}: {count} operator versions"),
                made_with=self.made_with,
                count=len(self.verdicts),
            )
        return say(
            N_(
                "recorded with {made_with}: {count} operator versions; "
                "{asked} other versions asked live: {live}"
            ),
            made_with=self.made_with,
            count=len(self.verdicts),
            asked=self.asked_live,
            live=self.live.status,
        )

    def evaluate(self, schema: Schema) -> SourceEvidence:
        if schema.domain or schema.name not in TORCH_OPS:
            return unavailable(NAME, schema, NO_MAPPING)
        return super().evaluate(schema)


def _torch_recording(reference: Any) -> Recording:
    from importlib.metadata import version

    made_with = {"onnx": reference.onnx_version, "torch": version("torch")}
    mapped = [s for s in reference.schemas if not s.domain and s.name in TORCH_OPS]
    return mapped, _live_torch(), made_with


def main(argv: list[str] | None = None) -> int:
    """Record the installed torch's verdicts on every mapped schema of the installed onnx."""
    return record_command(argv, USAGE, DATA_FILE, _torch_recording)


if __name__ == "__main__":
    sys.exit(main())
