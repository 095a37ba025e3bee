"""PyTorch's verdicts recorded with one torch release, shipped for the site's evidence pages.

Asking torch costs a site build more than anything else it does: importing
torch takes longer than rendering all operator pages of a language, and
every mapped operator version is then run twice. Torch's answers depend
only on the torch release and on the operator's interface, so they are
recorded once, with the torch release CI pins, in ``data/torch_verdicts.json``:

    python -m gendoc.evidence.torch_record [OUTPUT]

:class:`RecordedTorchSource` answers from the record when it holds the same
operator version with the same interface (inputs and outputs: names,
options and types), and asks the installed torch otherwise (a newer
onnx's new versions), so nothing is ever answered for a schema the record
was not made from; without torch such a version is ``UNAVAILABLE`` with
why. A recorded verdict keeps torch's version in its detail, and its status
line says the verdicts are recorded and with which torch. It is PyTorch's
source everywhere (:func:`gendoc.evidence.sources.torch_source`): the site,
``gendoc audit --evidence`` and ``gendoc suggest`` give the same verdicts
with or without torch installed; a test checks that the record still equals
what the installed torch says.
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Callable
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from gendoc.catalogs.i18n import N_, Message, say
from gendoc.evidence.interface import (
    Basis,
    EvidenceSource,
    ParameterEvidence,
    SourceEvidence,
    Verdict,
    unavailable,
)
from gendoc.evidence.torch_ops import NO_MAPPING, TORCH_OPS
from gendoc.model.reference import ParameterRef, Part, Schema, labelled

DATA_FILE = "torch_verdicts.json"
NAME = "pytorch"
USAGE = "usage: python -m gendoc.evidence.torch_record [OUTPUT]"


def interface_key(schema: Schema) -> str:
    """What torch's answer depends on in a schema: its name, version and parameters (names,
    options, types). Not their tags: no source may read the tag it is weighed against, and
    ``benchmarks/evidence_vs_onnx_tags.py`` asks with the tags removed."""
    rows = [f"{ref} {p.option.value} {p.type_str}" for ref, p in labelled(schema)]
    sha = hashlib.sha256("\n".join([schema.versioned_name, *rows]).encode())
    return f"{schema.versioned_name} {sha.hexdigest()[:16]}"


def to_record(evidence: SourceEvidence) -> dict[str, Any]:
    """One verdict set as the record keeps it (the schema's name and version are in the key):
    a row per parameter, its part and name first."""
    return {
        "detail": evidence.detail,
        "parameters": [
            [p.parameter.part.value, p.parameter.name, p.verdict.value, p.detail, p.basis.value]
            for p in evidence.parameters
        ],
    }


def from_record(schema: Schema, kept: dict[str, Any]) -> SourceEvidence:
    """The verdict set of :func:`to_record`'s form: each row read back into its types."""
    parameters = tuple(
        ParameterEvidence(ParameterRef(Part(part), name), Verdict(verdict), detail, Basis(basis))
        for part, name, verdict, detail, basis in kept["parameters"]
    )
    return SourceEvidence(
        NAME, schema.domain, schema.name, schema.since_version, parameters, kept["detail"]
    )


def record(schemas: list[Schema], source: EvidenceSource, made_with: dict[str, str]) -> str:
    """The record of ``source``'s verdicts on ``schemas``, as deterministic JSON with one
    operator version a line, so that a new record reads as a diff; ``made_with`` names the
    releases it was made with (onnx, and torch or onnx-ad)."""
    entries = {interface_key(s): to_record(source.evaluate(s)) for s in schemas}
    lines = [
        f"{json.dumps(key)}: {json.dumps(entries[key], ensure_ascii=False, sort_keys=True)}"
        for key in sorted(entries)
    ]
    head = json.dumps(made_with, sort_keys=True)[1:-1]
    return "{" + head + ', "verdicts": {\n' + ",\n".join(lines) + "\n}}\n"


@cache
def load_record() -> dict[str, Any]:
    """The record shipped with gendoc: ``onnx`` and ``torch`` (the versions it was made
    with) and ``verdicts``, by :func:`interface_key`."""
    text = resources.files("gendoc.evidence").joinpath("data", DATA_FILE).read_text("utf-8")
    return json.loads(text)


class RecordedTorchSource:
    """PyTorch as an evidence source, answering from the record where it can.

    ``live`` makes the source asked for a version the record does not hold
    (by default :func:`gendoc.evidence.sources.live_torch_source`: the
    installed torch, or an ``UNAVAILABLE`` answer saying torch is missing);
    it is called at most once, on the first such version.
    """

    name = NAME

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
        self.verdicts = verdicts
        self.made_with = made_with or "a torch record"
        self._make_live = live
        self._live: EvidenceSource | None = None
        self.asked_live = 0

    @property
    def status(self) -> Message:
        """What answered: the record, and for versions it lacks, the installed torch or why not."""
        if self._live is None:
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
            live=self._live.status,
        )

    def evaluate(self, schema: Schema) -> SourceEvidence:
        if schema.domain or schema.name not in TORCH_OPS:
            return unavailable(NAME, schema, NO_MAPPING)
        kept = self.verdicts.get(interface_key(schema))
        if kept is not None:
            return from_record(schema, kept)
        if self._live is None:
            if self._make_live is None:
                from gendoc.evidence.sources import live_torch_source

                self._make_live = live_torch_source
            self._live = self._make_live()
        self.asked_live += 1
        return self._live.evaluate(schema)


Recording = tuple[list[Schema], EvidenceSource, dict[str, str]]
"""What a record is made of: the schemas asked, the live source, the releases it ran."""


def record_command(
    argv: list[str] | None, usage: str, data_file: str, recording: Callable[[Any], Recording]
) -> int:
    """``python -m MODULE [OUTPUT]`` of a record module: ask the live source about the
    installed onnx's schemas and write the record (by default the one shipped with gendoc).
    ``recording`` gets the installed reference and says what to ask and with what."""
    args = sys.argv[1:] if argv is None else argv
    if len(args) > 1 or any(a.startswith("-") for a in args):
        print(usage, file=sys.stderr)
        return 2
    from gendoc.collect import installed
    from gendoc.storage.write import write_documents

    output = Path(args[0]) if args else Path(__file__).with_name("data") / data_file
    schemas, source, made_with = recording(installed.reference(()))
    write_documents(output.parent, {output.name: record(schemas, source, made_with)})
    return 0


def _torch_recording(reference: Any) -> Recording:
    from importlib.metadata import version

    from gendoc.evidence.sources import live_torch_source

    made_with = {"onnx": reference.onnx_version, "torch": version("torch")}
    mapped = [s for s in reference.schemas if not s.domain and s.name in TORCH_OPS]
    return mapped, live_torch_source(), made_with


def main(argv: list[str] | None = None) -> int:
    """Record the installed torch's verdicts on every mapped schema of the installed onnx."""
    return record_command(argv, USAGE, DATA_FILE, _torch_recording)


if __name__ == "__main__":
    sys.exit(main())
