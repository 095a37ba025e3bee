"""The one record of a source's verdicts: made by a script, shipped, read back, asked live.

Asking some sources costs minutes (onnx-ad over every backend test case) or
an import longer than a site build's rendering (torch), while their answers
depend only on the source's release and on the operator version's interface.
So their verdicts are recorded once with the releases the project pins, one
JSON file per source in ``data/``, by the source's record module
(``python -m gendoc.evidence.torch_record``, ``... onnx_ad_record``), which
gives :func:`record_command` what to ask and with what.

:class:`RecordedSource` answers from such a record when it holds the same
operator version with the same interface (:func:`interface_key`), and asks
the live source its caller passes in otherwise (a newer onnx's new
versions), at most once made; so nothing is ever answered for a schema the
record was not made from.
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

from gendoc.catalogs.i18n import NOTHING, Arg, Message, Quoted, Term
from gendoc.evidence.interface import (
    Basis,
    EvidenceSource,
    ParameterEvidence,
    SourceEvidence,
    Verdict,
)
from gendoc.model.reference import ParameterRef, Part, Schema, labelled


def interface_key(schema: Schema) -> str:
    """What a source's answer depends on in a schema: its name, version and parameters (names,
    options, types). Not their tags: no source may read the tag it is weighed against, and
    ``benchmarks/evidence_vs_onnx_tags.py`` asks with the tags removed."""
    rows = [f"{ref} {p.option.value} {p.type_str}" for ref, p in labelled(schema)]
    sha = hashlib.sha256("\n".join([schema.versioned_name, *rows]).encode())
    return f"{schema.versioned_name} {sha.hexdigest()[:16]}"


def message_record(message: Message) -> Any:
    """A reason or detail as the record keeps it, to be said in any language when read back:
    its message id and arguments (a message in a message nested alike, text quoted from
    the source and catalog terms marked as such), or ``""`` for none."""

    def value(arg: Arg) -> Any:
        if isinstance(arg, Message):
            return message_record(arg)
        if isinstance(arg, Quoted):
            return {"quoted": str(arg)}
        if isinstance(arg, Term):
            return {"term": str(arg)}
        return arg

    if not message:
        return ""
    return {"id": message.id, "args": {k: value(v) for k, v in message.arguments}}


def message_from_record(kept: Any) -> Message:
    """:func:`message_record`'s form read back."""

    def value(arg: Any) -> Arg:
        if not isinstance(arg, dict):
            return arg
        if "quoted" in arg:
            return Quoted(arg["quoted"])
        if "term" in arg:
            return Term(arg["term"])
        return message_from_record(arg)

    if not kept:
        return NOTHING
    return Message(kept["id"], tuple(sorted((k, value(v)) for k, v in kept["args"].items())))


def to_record(evidence: SourceEvidence) -> dict[str, Any]:
    """One verdict set as the record keeps it (the schema's name and version are in the key):
    a row per parameter, its part and name first."""
    return {
        "detail": message_record(evidence.detail),
        "parameters": [
            [
                p.parameter.part.value,
                p.parameter.name,
                p.verdict.value,
                message_record(p.detail),
                p.basis.value,
            ]
            for p in evidence.parameters
        ],
    }


def from_record(source: str, schema: Schema, kept: dict[str, Any]) -> SourceEvidence:
    """Source ``source``'s verdict set of :func:`to_record`'s form, read back into its types."""
    parameters = tuple(
        ParameterEvidence(
            ParameterRef(Part(part), name),
            Verdict(verdict),
            message_from_record(detail),
            Basis(basis),
        )
        for part, name, verdict, detail, basis in kept["parameters"]
    )
    detail = message_from_record(kept["detail"])
    return SourceEvidence(
        source, schema.domain, schema.name, schema.since_version, parameters, detail
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
def read_record(data_file: str) -> dict[str, Any]:
    """A record shipped with gendoc: the releases it was made with and ``verdicts``, by
    :func:`interface_key`."""
    text = resources.files("gendoc.evidence").joinpath("data", data_file).read_text("utf-8")
    return json.loads(text)


class RecordedSource:
    """A source answering from its record where it holds the interface, live otherwise.

    ``live`` makes the source asked for a version the record does not hold (the
    installed library, or an ``UNAVAILABLE`` answer saying it is missing); it is
    called at most once, on the first such version. ``asked_live`` counts those
    versions.
    """

    def __init__(
        self, name: str, verdicts: dict[str, dict[str, Any]], live: Callable[[], EvidenceSource]
    ) -> None:
        self.name = name
        self.verdicts = verdicts
        self._make_live = live
        self._live: EvidenceSource | None = None
        self.asked_live = 0

    @property
    def live(self) -> EvidenceSource | None:
        """The live source, once a version the record lacks made it."""
        return self._live

    def evaluate(self, schema: Schema) -> SourceEvidence:
        kept = self.verdicts.get(interface_key(schema))
        if kept is not None:
            return from_record(self.name, schema, kept)
        if self._live is None:
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
