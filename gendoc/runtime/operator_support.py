"""Where one operator version runs and trains, for the site's "Runs on" tables, the matrix
pages and the opset pages: the same data as ``gendoc support``, per operator version.

Every answer comes from the shipped records (onnxruntime's kernel table, onnx's backend
scoreboard, the gradient sources), so the site is the same on every machine and says what
``gendoc support`` says for the same onnxruntime release. An operator version with no kernel
but a function body runs through its function when onnxruntime has a kernel (or a function)
for every operator the body calls; a body onnx builds per node from its types is counted as
running through its function (``gendoc support`` checks its operators for a model's types).
Types are onnxruntime's, shortened (``float`` for ``tensor(float)``).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace

from gendoc.collect.schemas import onnx_release
from gendoc.model.reference import Reference, Schema, schema_sort_key
from gendoc.model.snapshot import (
    BackendTests,
    KernelAnswer,
    ProviderSource,
    RuntimeData,
    RuntimeLinks,
    RuntimeSources,
    RuntimeSupport,
)
from gendoc.runtime.answers import Status
from gendoc.runtime.ort_kernel_doc import load_providers_record, provider_table
from gendoc.runtime.ort_kernels import (
    PROVIDER,
    RESOLVED_AT_LOAD,
    KernelTable,
    kernel_table,
    provider_label,
)
from gendoc.runtime.scoreboard import Score, Scoreboard, scoreboard
from gendoc.runtime.training import BUILDER, ONNX_AD, gradients, source_url

# Names and sources of the scoreboard's backends, as the site shows them
BACKENDS = {
    "ort": "onnxruntime",
    "onnx-reference": "onnx.reference",
    "onnxruntime-openvino": "OpenVINO",
    "tvm": "TVM",
    "tract": "tract",
    "opencv": "OpenCV",
    "jaxonnxruntime": "jaxonnxruntime",
    "emx-onnx-cgen": "emx-onnx-cgen",
}
# Where each answer comes from: the file of a backend's counts at the scoreboard's commit; the
# runtime's release and its kernel table (onnxruntime's OperatorKernels.md, generated from the
# same registry the record is read from)
SCOREBOARD_URL = (
    "https://github.com/onnx/backend-scoreboard/blob/{commit}/results/{backend}/stable/ops.json"
)
RELEASE_URL = "https://github.com/microsoft/onnxruntime/releases/tag/{ref}"
COMMIT_URL = "https://github.com/microsoft/onnxruntime/tree/{ref}"
KERNELS_URL = "https://github.com/microsoft/onnxruntime/blob/{ref}/docs/OperatorKernels.md"
_CALL = re.compile(r"=\s*([A-Za-z_][\w.]*)\s*[<(]")
_OPSET = re.compile(r"opset_import: \[([^\]]*)\]")


@dataclass(frozen=True)
class RunsOn:
    """One runtime's row for one operator version."""

    runtime: str
    status: Status
    versions: str
    types: str
    tests: Score | None
    url: str
    """The runtime's release, or the file of the backend's counts at the scoreboard's commit."""
    backend: str = ""
    """The scoreboard's name of the backend, on the rows of onnx's backend tests."""
    source: str = ""
    """The kernel table the status, versions and types come from."""


@dataclass(frozen=True)
class VersionSupport:
    """Every runtime's row for one operator version, and how it trains."""

    rows: tuple[RunsOn, ...]
    trains: str
    trains_url: str = ""
    """The gradient source that answers ``trains`` (none for ``none`` or ``unknown``)."""
    tests_date: str = ""
    """The scoreboard's date, on a version with its backends' rows."""
    tests_onnx: str = ""
    """The onnx the scoreboard's backends ran."""
    tests_older: bool = False
    """Whether that onnx is older than the one documented."""
    providers: tuple[RunsOn, ...] = ()
    """onnxruntime's other providers' rows (CUDA, DirectML...), from their kernel table."""

    @property
    def also_registered(self) -> list[str]:
        """The other providers with a kernel for this version (not those that, like the CPU
        provider, take an operator onnxruntime resolves on loading without one)."""
        return [row.runtime for row in self.providers if row.versions]

    @property
    def onnxruntime(self) -> RunsOn:
        return self.rows[0]


def release_url(table: KernelTable) -> str:
    """The release a table is of, or the commit it was read at."""
    return (RELEASE_URL if table.ref.startswith("v") else COMMIT_URL).format(ref=table.ref)


def kernels_url(table: KernelTable) -> str:
    """onnxruntime's generated kernel table at the table's release or commit; a provider
    other than CPU at its section."""
    url = KERNELS_URL.format(ref=table.ref)
    return url if table.provider == PROVIDER else f"{url}#{table.provider.lower()}"


def provider_tables() -> tuple[KernelTable, ...]:
    """The recorded providers other than CPU (onnxruntime's generated kernel table)."""
    return tuple(provider_table(p) for p in load_providers_record()["providers"])


def _short(kind: str) -> str:
    return kind.removeprefix("tensor(").removesuffix(")") if kind.startswith("tensor(") else kind


def _span(start: int, end: int | None) -> str:
    return f"{start}+" if end is None else f"{start}–{end}" if end != start else str(start)


def _calls(text: str) -> list[tuple[str, str, int]]:
    """The operators a function body calls: (domain, name, opset) from onnx's printer text."""
    imports = {}
    for found in _OPSET.findall(text):
        for part in found.split(","):
            if ":" in part:
                domain, version = part.rsplit(":", 1)
                imports[domain.strip().strip('"')] = int(version)
    calls = []
    for name in _CALL.findall(text.split("{", 1)[-1]):
        domain, _, op = name.rpartition(".")
        calls.append((domain, op, imports.get(domain, imports.get("", 0))))
    return calls


def backend_labels(board: Scoreboard) -> list[tuple[str, str]]:
    """The scoreboard's backends the site shows, each with its label and release."""
    return [
        (key, f"{label} {board.backends[key].release}".strip())
        for key, label in BACKENDS.items()
        if key in board.backends
    ]


class SupportTable:
    """The answers for every operator version of one reference."""

    def __init__(self, reference: Reference, table: KernelTable | None = None) -> None:
        self.reference = reference
        self.table = table or kernel_table(prefer_installed=False)
        self.board = scoreboard()
        self.providers = provider_tables()
        self._schemas = {(s.domain, s.name, s.since_version): s for s in reference.schemas}
        self._answers: dict[tuple[int, bool], tuple[Schema, VersionSupport]] = {}

    def _kernels(self, domain: str, op: str, version: int, table: KernelTable | None = None):
        found = (table or self.table).kernels.get((domain, op), ())
        return [k for k in found if k.covers(version)]

    def _runs(
        self, domain: str, op: str, opset: int, depth: int = 0, table: KernelTable | None = None
    ) -> bool | None:
        """Whether onnxruntime runs ``op`` at ``opset`` for some types (None: unknown), on
        the CPU provider or ``table``'s."""
        if (domain, op) in RESOLVED_AT_LOAD:
            return True
        since = (table or self.table).since_version(domain, op, opset)
        if since is None:
            return False
        if self._kernels(domain, op, since, table):
            return True
        schema = self._schemas.get((domain, op, since))
        if schema and depth < 4:
            return self._through_function(schema, depth + 1, table)
        return False

    def _through_function(
        self, schema: Schema, depth: int = 0, table: KernelTable | None = None
    ) -> bool | None:
        details = self.reference.details_of(schema)
        if not details.function_bodies:
            return details.context_dependent
        body = max(details.function_bodies, key=lambda b: max(b.opset_versions))
        answers = [self._runs(d, op, v, depth, table) for d, op, v in _calls(body.text)]
        if False in answers:
            return False
        return None if None in answers else True

    def _onnxruntime(self, schema: Schema, table: KernelTable | None = None) -> RunsOn:
        """The CPU table's row for ``schema``, or another provider's (``table``): with no
        kernel there, its function body where the provider has kernels for every operator it
        calls, else onnxruntime runs the node on its CPU provider (when that runs it)."""
        cpu = table is None
        table = table or self.table
        label = f"{table.runtime} {table.version} CPU" if cpu else provider_label(table.provider)
        row = RunsOn(
            label, Status.UNKNOWN, "", "", None, release_url(table), source=kernels_url(table)
        )
        key = (schema.domain, schema.name)
        if schema.domain not in table.opsets:
            return replace(row, status=Status.UNKNOWN_DOMAIN)
        if schema.since_version > table.opsets[schema.domain]:
            return replace(row, status=Status.OPSET_TOO_NEW)
        if key in RESOLVED_AT_LOAD:
            return replace(row, status=Status.REGISTERED)
        if schema.since_version not in table.schema_versions.get(key, ()):
            return row
        kernels = self._kernels(schema.domain, schema.name, schema.since_version, table)
        if kernels:
            spans = sorted({(k.start, k.end) for k in kernels}, key=lambda s: (s[0], s[1] or 0))
            kinds = sorted({_short(t) for k in kernels for _, types in k.types for t in types})
            versions = ", ".join(_span(*s) for s in spans)
            return replace(row, status=Status.REGISTERED, versions=versions, types=", ".join(kinds))
        through = self._through_function(schema, table=None if cpu else table)
        if not cpu and not through:
            on_cpu = self._onnxruntime(schema).status
            return replace(row, status=Status.ON_CPU if on_cpu.runs else on_cpu)
        status = {True: Status.FUNCTION, None: Status.UNKNOWN}.get(through, Status.NO_VERSION)
        return replace(row, status=status)

    def _score(self, backend: str, key: tuple[str, str]) -> Score | None:
        found = self.board.backends.get(backend)
        return found.scores.get(key) if found else None

    def of(self, schema: Schema, newest: bool) -> VersionSupport:
        """The rows for ``schema``; the scoreboard's backends on its operator's newest version
        alone, since onnx's tests run at the newest opset. Kept per operator version, found
        by identity: a version's hash goes through every field of it, and the site asks
        some 6,000 times per language."""
        key = (id(schema), newest)
        found = self._answers.get(key)
        if found is None or found[0] is not schema:
            found = self._answers[key] = (schema, self._answer(schema, newest))
        return found[1]

    def _answer(self, schema: Schema, newest: bool) -> VersionSupport:
        rows = [self._onnxruntime(schema)]
        trains = gradients(schema).trains
        providers = tuple(self._onnxruntime(schema, table) for table in self.providers)
        if not newest:
            return VersionSupport(tuple(rows), trains, source_url(trains), providers=providers)
        commit = self.board.commit
        for backend, label in backend_labels(self.board):
            score = self._score(backend, (schema.domain, schema.name))
            if score is not None and score.total:
                url = SCOREBOARD_URL.format(commit=commit, backend=backend)
                rows.append(RunsOn(label, Status.UNKNOWN, "", "", score, url, backend))
        onnx = sorted({b.onnx for b in self.board.backends.values()})
        documented = onnx_release(self.reference.onnx_version)
        older = any(onnx_release(v) < documented for v in onnx)
        date = self.board.date[:10]
        return VersionSupport(
            tuple(rows), trains, source_url(trains), date, ", ".join(onnx), older, providers
        )


_TABLES: dict[int, SupportTable] = {}


def support_of(reference: Reference, schema: Schema, newest: bool) -> VersionSupport:
    """``schema``'s rows, from the one :class:`SupportTable` kept per reference."""
    table = _TABLES.get(id(reference))
    if table is None or table.reference is not reference:
        _TABLES.clear()
        table = _TABLES[id(reference)] = SupportTable(reference)
    return table.of(schema, newest)


@dataclass(frozen=True)
class OpsetCoverage:
    """How many operator versions of an operator set onnxruntime runs."""

    runtime: str
    total: int
    registered: int
    function: int
    refused: int
    unknown: int


def opset_coverage(reference: Reference, schemas: Sequence[Schema]) -> OpsetCoverage:
    """onnxruntime's answers for the operator versions ``schemas`` (one operator set's)."""
    rows = [support_of(reference, s, False).onnxruntime for s in schemas]
    counts = Counter(row.status.runs if row.status is not Status.FUNCTION else "f" for row in rows)
    label = rows[0].runtime if rows else ""
    return OpsetCoverage(label, len(rows), counts[True], counts["f"], counts[False], counts[None])


def runtime_support(reference: Reference) -> RuntimeData:
    """Every operator version's rows as :func:`gendoc.model.snapshot.snapshot_of` records
    them for ``gendoc export`` and the site's published data: the records the answers come
    from, then one entry per operator version, by schema key."""
    table = kernel_table(prefer_installed=False)
    board = scoreboard()
    newest = {(s.domain, s.name): s.since_version for s in reference.schemas}
    answers = {}
    for schema in reference.schemas:
        key = (schema.domain, schema.name)
        found = support_of(reference, schema, newest[key] == schema.since_version)
        ort = found.onnxruntime
        answers[schema_sort_key(schema)] = RuntimeSupport(
            onnxruntime=KernelAnswer(ort.status.value, ort.versions, ort.types),
            trains=found.trains,
            tests={
                row.backend: BackendTests(row.tests.passed, row.tests.failed, row.tests.skipped)
                for row in found.rows
                if row.tests is not None
            },
            providers={
                row.runtime: KernelAnswer(row.status.value, row.versions, row.types)
                for row in found.providers
            },
        )
    links = RuntimeLinks(
        onnxruntime=release_url(table),
        kernels=kernels_url(table),
        tests={
            key: SCOREBOARD_URL.format(commit=board.commit, backend=key)
            for key, _ in backend_labels(board)
        },
        trains={trains: source_url(trains) for trains in (BUILDER, ONNX_AD)},
    )
    providers = {
        provider_label(t.provider): ProviderSource(t.version, t.commit, t.released, kernels_url(t))
        for t in provider_tables()
    }
    sources = RuntimeSources(
        onnxruntime=table.version,
        onnxruntime_commit=table.commit,
        onnxruntime_released=table.released,
        provider=table.provider,
        scoreboard_commit=board.commit,
        scoreboard_date=board.date,
        links=links,
        providers=providers,
    )
    return sources, answers
