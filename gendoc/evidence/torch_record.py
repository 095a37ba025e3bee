"""PyTorch's verdicts recorded with one torch release, shipped for the site's evidence pages.

Asking torch costs a site build more than anything else it does: importing
torch takes longer than rendering all operator pages of a language, and
every mapped operator version is then run twice. Torch's answers depend
only on the torch release and on the operator's interface, so they are
recorded once, with the torch release CI pins, in ``data/torch_verdicts.json``:

    python -m gendoc.evidence.torch_record [OUTPUT]

:class:`RecordedTorchSource` answers from the record when it holds the same
operator version with the same interface (inputs and outputs: names,
options, types and tags), and asks the installed torch otherwise (a newer
onnx's new versions), so nothing is ever answered for a schema the record
was not made from. A recorded verdict keeps torch's version in its detail,
and the published site no longer depends on whether torch is installed
where it is built. ``gendoc audit --evidence`` always asks the installed
torch; a test checks that the record still equals what it says.
"""

from __future__ import annotations

import hashlib
import json
import sys
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from gendoc.evidence.outcome import (
    EvidenceSource,
    ParameterEvidence,
    SourceEvidence,
    Verdict,
    labelled,
    unavailable,
)
from gendoc.evidence.sources import torch_source
from gendoc.evidence.torch_ops import TORCH_OPS
from gendoc.model import Schema

DATA_FILE = "torch_verdicts.json"
NAME = "pytorch"
USAGE = "usage: python -m gendoc.evidence.torch_record [OUTPUT]"


def interface_key(schema: Schema) -> str:
    """What torch's answer depends on in a schema: its name, version and parameters."""
    rows = [
        f"{kind} {p.name} {p.option.value} {p.differentiability.value} {p.type_str}"
        for kind, p in labelled(schema)
    ]
    sha = hashlib.sha256("\n".join([schema.versioned_name, *rows]).encode())
    return f"{schema.versioned_name} {sha.hexdigest()[:16]}"


def to_record(evidence: SourceEvidence) -> dict[str, Any]:
    """One verdict set as the record keeps it (the schema's name and version are in the key)."""
    return {
        "detail": evidence.detail,
        "parameters": [[p.kind, p.name, p.verdict.value, p.detail] for p in evidence.parameters],
    }


def from_record(schema: Schema, kept: dict[str, Any]) -> SourceEvidence:
    parameters = tuple(
        ParameterEvidence(kind, name, Verdict(verdict), detail)
        for kind, name, verdict, detail in kept["parameters"]
    )
    return SourceEvidence(
        NAME, schema.domain, schema.name, schema.since_version, parameters, kept["detail"]
    )


def record(schemas: list[Schema], source: EvidenceSource, made_with: dict[str, str]) -> str:
    """The record of ``source``'s verdicts on every mapped schema, as deterministic JSON
    with one operator version a line, so that a new record reads as a diff; ``made_with``
    names the versions of onnx and torch it was made with."""
    entries = {
        interface_key(s): to_record(source.evaluate(s))
        for s in schemas
        if not s.domain and s.name in TORCH_OPS
    }
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
    """PyTorch as an evidence source, answering from the record where it can."""

    name = NAME

    def __init__(self, verdicts: dict[str, dict[str, Any]] | None = None) -> None:
        self.verdicts = load_record()["verdicts"] if verdicts is None else verdicts
        self.status = f"recorded verdicts of {len(self.verdicts)} operator versions"
        self._live: EvidenceSource | None = None

    def evaluate(self, schema: Schema) -> SourceEvidence:
        if schema.domain or schema.name not in TORCH_OPS:
            return unavailable(NAME, schema, "no torch mapping")
        kept = self.verdicts.get(interface_key(schema))
        if kept is not None:
            return from_record(schema, kept)
        if self._live is None:
            self._live = torch_source()
        return self._live.evaluate(schema)


def main(argv: list[str] | None = None) -> int:
    """Record the installed torch's verdicts on every schema of the installed onnx."""
    args = sys.argv[1:] if argv is None else argv
    if len(args) > 1 or any(a.startswith("-") for a in args):
        print(USAGE, file=sys.stderr)
        return 2
    from importlib.metadata import version

    from gendoc import installed
    from gendoc.write import write_documents

    output = Path(args[0]) if args else Path(__file__).with_name("data") / DATA_FILE
    reference = installed.reference(())
    made_with = {"onnx": reference.onnx_version, "torch": version("torch")}
    text = record(list(reference.schemas), torch_source(), made_with)
    write_documents(output.parent, {output.name: text})
    return 0


if __name__ == "__main__":
    sys.exit(main())
