"""Snapshots: the whole reference of one onnx installation as a stable, published JSON file.

``gendoc export`` writes it, the site publishes it (whole and one file per domain),
``gendoc build --from`` and ``check --from`` render the documents from it byte for byte
as from the onnx that made it, and ``gendoc diff`` compares two of them, so a reference
for an onnx release can be built and compared without installing that release. It holds
every schema of every domain with all that gendoc renders from it (the interface, the
texts, the examples and sample implementations, the function bodies, where the schema is
defined), gendoc's own findings (the evidence verdict on each parameter the evidence
sources can judge), and the versions of onnx and gendoc that made it.

The format has a version, ``format_version`` (major) and ``format_minor``. The
compatibility rule, the one promise made to tools that read snapshots:

- a **minor** change only adds optional fields (with a default, so a reader that does not
  know them loses nothing it relies on); readers of the same major read it, ignoring what
  they do not know;
- removing or renaming a field, or changing what a value means, is a **major** change:
  a reader refuses a newer major with one line ("upgrade gendoc") and an older one with
  one line naming its version ("export the snapshot again").

Minor versions so far: 1 added runtime support (where each version runs and trains, from
the records gendoc ships: ``runtime_sources`` names them, each schema's ``runtime_support``
holds its answers); 2 added the source each answer links to (``runtime_sources.links``) and
onnxruntime's other execution providers (``runtime_sources.providers`` names their kernel
table, ``runtime_support.providers`` holds their answers).

The dataclasses here and in :mod:`gendoc.model.reference` are the one definition of the
format: msgspec encodes them and checks every value read back against their type hints,
naming the JSON path of the first one that does not fit, and ``snapshot.schema.json``
(JSON Schema 2020-12) is generated from them for other tools. Values the types allow but
no schema has are refused too: a version below 1, a negative count, a control character
other than a line break or a tab (a schema module can give a name a line break, and a
snapshot holds whatever export writes; every output escapes it). An object's fields come
in the order of its dataclass, a map's keys sorted, and every list has a fixed order
(schemas by domain, name and version; parameters and type constraints in schema order,
since their position is meaningful; attributes by name), so two snapshots of the same
schemas are byte-identical. Reading a snapshot back, with every check, is
:mod:`gendoc.model.snapshot_read`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from operator import attrgetter
from pathlib import Path
from typing import Annotated, Literal, TypeVar

import msgspec

from gendoc import __version__
from gendoc.model.reference import (
    Differentiability,
    Example,
    Part,
    Reference,
    Schema,
    SchemaDetails,
    SchemaKey,
    schema_sort_key,
)

FORMAT = "gendoc-snapshot"
FORMAT_VERSION = 3
"""The major version: a reader refuses any other (see the compatibility rule above)."""
FORMAT_MINOR = 2
"""The minor version: optional fields added since the major began; any is read."""
INSTALLED = "installed"
"""The word that stands for the onnx of the running environment instead of a file."""

SCHEMA_FILE = Path(__file__).with_name("snapshot.schema.json")

_T = TypeVar("_T")


@dataclass(frozen=True)
class SourceVote:
    """What one evidence source answered about one parameter (``gradient``, ``refused``...)."""

    source: str
    verdict: str


@dataclass(frozen=True)
class ParameterVerdict:
    """gendoc's combined evidence verdict on one input or output of a version.

    ``suggested`` is the tag the evidence speaks for (``null``: none, or both);
    ``strength`` is ``strong``, ``weak``, ``conflict`` or ``disputed`` (the evidence
    contradicts a tag onnx set, which gendoc never proposes to change); ``rule`` is the
    rule of ``gendoc audit --evidence`` that decided (``GD201``...).
    """

    part: Part
    name: str
    suggested: Differentiability | None
    strength: str
    rule: str
    votes: tuple[SourceVote, ...] = ()


@dataclass(frozen=True)
class KernelAnswer:
    """What onnxruntime's kernel table says about one version.

    ``status`` is one of the answers of ``gendoc support`` (``registered``, ``runs through
    its function``, ``no kernel for this version``, ``unknown``...); ``versions`` the
    kernels' version ranges (``14+``, ``6–12``) and ``types`` their types, shortened
    (``float`` for ``tensor(float)``), both empty without a kernel.
    """

    status: str
    versions: str = ""
    types: str = ""


@dataclass(frozen=True)
class BackendTests:
    """onnx's backend tests of one operator on one backend of onnx's backend scoreboard."""

    passed: Annotated[int, msgspec.Meta(ge=0)]
    failed: Annotated[int, msgspec.Meta(ge=0)]
    skipped: Annotated[int, msgspec.Meta(ge=0)]


@dataclass(frozen=True)
class RuntimeSupport:
    """Where one version runs and how it trains, as the site's "Runs on" table shows it.

    ``tests`` maps a scoreboard backend (``ort``, ``onnx-reference``, ``tvm``...) to its
    counts, on an operator's newest version alone (onnx's tests run at the newest opset);
    ``trains`` is ``gradient builder``, ``onnx-ad rule``, ``none`` or ``unknown``.
    """

    onnxruntime: KernelAnswer
    trains: str
    tests: dict[str, BackendTests] = field(default_factory=dict)
    providers: dict[str, KernelAnswer] = field(default_factory=dict)
    """onnxruntime's other execution providers (``CUDA``, ``DirectML``...), each from its
    kernel table; ``no kernel in this provider: runs on the CPU provider`` where it has none
    and the CPU provider runs the version (since format minor 2)."""


@dataclass(frozen=True)
class RuntimeLinks:
    """The sources the site's "Runs on" cells link to, the same for every version: the
    onnxruntime release of the CPU answers, its kernel table (a version that runs through
    its function links to its function body instead), each scoreboard backend's counts at
    the scoreboard's commit, and each training answer's source (``gradient builder``,
    ``onnx-ad rule``)."""

    onnxruntime: str
    kernels: str
    tests: dict[str, str] = field(default_factory=dict)
    trains: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class ProviderSource:
    """The kernel table one of onnxruntime's other providers is read from: onnxruntime's
    version there (``1.25.0.dev20260221`` at a commit that is no release), the commit, its
    date, and the table's section at that commit."""

    onnxruntime: str
    commit: str
    date: str
    kernels: str


@dataclass(frozen=True)
class RuntimeSources:
    """The records the runtime support comes from: onnxruntime's kernel table (its release,
    commit, release date and execution provider) and onnx's backend scoreboard (the commit
    of its results branch and that commit's date)."""

    onnxruntime: str
    onnxruntime_commit: str
    onnxruntime_released: str
    provider: str
    scoreboard_commit: str
    scoreboard_date: str
    links: RuntimeLinks | None = None
    """Since format minor 2."""
    providers: dict[str, ProviderSource] = field(default_factory=dict)
    """onnxruntime's other providers by name (``CUDA``...), since format minor 2."""


@dataclass(frozen=True)
class SchemaEntry(Schema):
    """One version of one operator with everything gendoc shows about it.

    ``details`` is ``null`` when it was not collected (a snapshot made by Python code
    from a model without them); ``evidence`` lists only the parameters some evidence
    source could judge (the default domain's operators that PyTorch, onnxruntime's
    registry or onnx-ad know); ``runtime_support`` is ``null`` in a snapshot made
    without it (since format minor 1).
    """

    details: SchemaDetails | None = None
    evidence: tuple[ParameterVerdict, ...] = ()
    runtime_support: RuntimeSupport | None = None


@dataclass(frozen=True)
class Snapshot:
    """The whole reference of one onnx installation, as written by ``gendoc export``.

    The default domain ai.onnx is the empty string. Schemas are sorted by domain, name
    and since_version; their attributes by name; inputs, outputs and type constraints
    keep the order of the schema. ``examples`` maps an operator name to onnx's snippets
    of its backend test cases, ``samples`` an operator name in lower case to its sample
    implementation (both as onnx's ``gen_doc.py`` shows them). ``runtime_sources`` names
    the records of the schemas' ``runtime_support`` (``null`` without it).
    """

    format: Literal[FORMAT]  # type: ignore[valid-type]
    format_version: Literal[FORMAT_VERSION]  # type: ignore[valid-type]
    format_minor: Annotated[int, msgspec.Meta(ge=0)]
    onnx_version: str
    gendoc_version: str
    schemas: tuple[SchemaEntry, ...]
    examples: dict[str, tuple[Example, ...]] = field(default_factory=dict)
    samples: dict[str, str] = field(default_factory=dict)
    runtime_sources: RuntimeSources | None = None


RuntimeData = tuple[RuntimeSources, Mapping[SchemaKey, RuntimeSupport]]
"""What :func:`snapshot_of` adds as runtime support: its sources, the answers by schema key."""


# Fields in the order the dataclasses define them (the format and its version first, so
# the first bytes say what the file is), the keys of maps sorted.
_ENCODER = msgspec.json.Encoder(order="deterministic")
SCHEMA_FIELDS = tuple(f.name for f in fields(Schema))
"""The fields of a schema, in the order of its dataclass: what an entry holds of it."""


# --- model -> JSON -------------------------------------------------------------------------


def _canonical(schema: Schema) -> Schema:
    """Attributes by name: their order in a schema carries no meaning, unlike parameters'."""
    return replace(schema, attributes=tuple(sorted(schema.attributes, key=attrgetter("name"))))


def _entry(
    reference: Reference,
    schema: Schema,
    evidence: tuple[ParameterVerdict, ...],
    runtime: RuntimeSupport | None,
) -> SchemaEntry:
    details = reference.details.get(schema_sort_key(schema))
    canonical = _canonical(schema)
    values = {name: getattr(canonical, name) for name in SCHEMA_FIELDS}
    return SchemaEntry(**values, details=details, evidence=evidence, runtime_support=runtime)


def snapshot_of(
    reference: Reference,
    verdicts: Mapping[tuple[str, str, int], tuple[ParameterVerdict, ...]] | None = None,
    runtime: RuntimeData | None = None,
) -> Snapshot:
    """The snapshot of ``reference``, with the evidence ``verdicts`` by schema key and the
    ``runtime`` support (its sources, then the answers by schema key)."""
    found = verdicts or {}
    sources, answers = runtime if runtime is not None else (None, {})
    return Snapshot(
        format=FORMAT,
        format_version=FORMAT_VERSION,
        format_minor=FORMAT_MINOR,
        onnx_version=reference.onnx_version,
        gendoc_version=__version__,
        schemas=tuple(
            _entry(reference, s, found.get(schema_sort_key(s), ()), answers.get(schema_sort_key(s)))
            for s in sorted(reference.schemas, key=schema_sort_key)
        ),
        examples=dict(reference.examples),
        samples=dict(reference.samples),
        runtime_sources=sources,
    )


def domain_part(snapshot: Snapshot, domain: str) -> Snapshot:
    """The snapshot of one domain alone: its schemas, and the examples and samples of its
    operators' names (a snapshot in its own right, for a tool that needs one domain)."""
    schemas = tuple(s for s in snapshot.schemas if s.domain == domain)
    names = {s.name for s in schemas}
    lower = {n.lower() for n in names}
    return replace(
        snapshot,
        schemas=schemas,
        examples={k: v for k, v in snapshot.examples.items() if k in names},
        samples={k: v for k, v in snapshot.samples.items() if k in lower},
    )


def encode_utf8(snapshot: Snapshot) -> bytes:
    """The snapshot text (:func:`encode`) as the UTF-8 bytes of its file: made as bytes, it
    needs no decoding into a string (some 10 MB of onnx's, in a wider form where any
    character is outside ASCII) to be encoded again for writing."""
    return msgspec.json.format(_ENCODER.encode(snapshot), indent=2) + b"\n"


def encode(snapshot: Snapshot) -> str:
    """The snapshot text: fixed key order, two-space indent, UTF-8 as is, final newline."""
    return encode_utf8(snapshot).decode("utf-8")


def dumps(
    reference: Reference,
    verdicts: Mapping[tuple[str, str, int], tuple[ParameterVerdict, ...]] | None = None,
    runtime: RuntimeData | None = None,
) -> str:
    """The snapshot text of ``reference`` (see :func:`snapshot_of` and :func:`encode`)."""
    return encode(snapshot_of(reference, verdicts, runtime))


def json_schema_text() -> str:
    """The JSON Schema of the snapshot format, generated from the dataclasses.

    ``snapshot.schema.json`` holds this text for tools that read snapshots;
    a test fails when the file falls behind the dataclasses. Regenerate it
    with ``python -m gendoc.model.snapshot``.
    """
    schema = {"$schema": "https://json-schema.org/draft/2020-12/schema"}
    schema.update(msgspec.json.schema(Snapshot))
    return json.dumps(schema, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


if __name__ == "__main__":
    SCHEMA_FILE.write_text(json_schema_text(), encoding="utf-8")
