"""The plain data model of an operator reference.

Everything downstream of collection (rendering, snapshots, diffs, audits,
the site) works on these dataclasses alone. They hold no onnx objects, so
they can be built by hand in tests, serialised to JSON and compared between
two onnx releases.
"""

from __future__ import annotations

import enum
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from gendoc.errors import UsageError

ML_DOMAIN = "ai.onnx.ml"
DEFAULT_DOMAIN = "ai.onnx"
"""How users name the default domain, which schemas spell as the empty string."""


def domain_label(domain: str) -> str:
    """The name a reader knows a domain by: the default one is ``ai.onnx``."""
    return domain or DEFAULT_DOMAIN


def domain_key(name: str) -> str:
    """The domain as schemas spell it: ``ai.onnx`` (or ``""``) is the default one."""
    return "" if name in ("", DEFAULT_DOMAIN) else name


class Differentiability(enum.Enum):
    """The differentiability tag of one input or output.

    ``UNDEFINED`` is onnx's ``Unknown``: the schema makes no claim either way.
    """

    DIFFERENTIABLE = "differentiable"
    NON_DIFFERENTIABLE = "non-differentiable"
    UNDEFINED = "undefined"


class Option(enum.Enum):
    """How many values a formal parameter takes."""

    SINGLE = "single"
    OPTIONAL = "optional"
    VARIADIC = "variadic"


@dataclass(frozen=True)
class Parameter:
    """One formal input or output of an operator version."""

    name: str
    type_str: str
    description: str
    option: Option
    differentiability: Differentiability
    is_homogeneous: bool = True
    min_arity: int = 1

    @property
    def is_heterogeneous(self) -> bool:
        return self.option is Option.VARIADIC and not self.is_homogeneous


class Part(enum.StrEnum):
    """The two kinds of formal parameter, in the order documents show them."""

    INPUT = "input"
    OUTPUT = "output"


@dataclass(frozen=True, order=True)
class ParameterRef:
    """Which formal parameter of an operator version: its part and its name.

    The one identity of a parameter wherever one is looked up (evidence, verdicts,
    findings, suggestions, the site's rows). Inputs sort before outputs, then by name:
    the order of the ``input X`` text :meth:`__str__` shows, for display only.
    """

    part: Part
    name: str

    def __str__(self) -> str:
        return f"{self.part.value} {self.name}"

    @classmethod
    def parse(cls, text: str) -> ParameterRef:
        """The parameter a written form names as ``input X`` (a column of a CSV table):
        the inverse of :meth:`__str__`, for reading such a file, never a displayed string."""
        part, _, name = text.partition(" ")
        return cls(Part(part), name)


@dataclass(frozen=True)
class Attribute:
    """One attribute; ``default`` is the value as onnx displays it, if any."""

    name: str
    type: str
    description: str
    required: bool
    default: str | None = None


@dataclass(frozen=True)
class TypeConstraint:
    """A type parameter such as ``T`` and the tensor types it may stand for."""

    name: str
    allowed_types: tuple[str, ...]
    description: str


@dataclass(frozen=True)
class Schema:
    """One version of one operator: what ``onnx.defs.OpSchema`` describes.

    ``max_inputs``/``max_outputs`` are ``None`` when unbounded.
    ``function_versions`` lists the opset versions for which the operator
    has a function body; it is non-empty only for function operators.
    """

    domain: str
    name: str
    since_version: int
    doc: str = ""
    deprecated: bool = False
    experimental: bool = False
    is_function: bool = False
    function_versions: tuple[int, ...] = ()
    attributes: tuple[Attribute, ...] = ()
    inputs: tuple[Parameter, ...] = ()
    outputs: tuple[Parameter, ...] = ()
    type_constraints: tuple[TypeConstraint, ...] = ()
    min_inputs: int = 0
    max_inputs: int | None = 0
    min_outputs: int = 0
    max_outputs: int | None = 0

    @property
    def qualified_name(self) -> str:
        return f"{self.domain}.{self.name}" if self.domain else self.name

    @property
    def versioned_name(self) -> str:
        return f"{self.qualified_name}-{self.since_version}"

    @property
    def parameters(self) -> tuple[Parameter, ...]:
        return self.inputs + self.outputs


def labelled(schema: Schema) -> Iterator[tuple[ParameterRef, Parameter]]:
    """Every formal parameter of ``schema`` with its identity, inputs first, in schema order."""
    for param in schema.inputs:
        yield ParameterRef(Part.INPUT, param.name), param
    for param in schema.outputs:
        yield ParameterRef(Part.OUTPUT, param.name), param


@dataclass(frozen=True)
class Operator:
    """All versions of one operator in one domain, oldest first."""

    domain: str
    name: str
    versions: tuple[Schema, ...]

    @property
    def latest(self) -> Schema:
        return self.versions[-1]

    @property
    def qualified_name(self) -> str:
        return self.latest.qualified_name


@dataclass(frozen=True)
class Example:
    """A snippet from onnx's backend test cases, shown under an operator."""

    summary: str
    code: str


@dataclass(frozen=True)
class FunctionBody:
    """A function operator's body as ``onnx.printer`` writes it, and the opset versions it is for.

    onnx may define a different body for some operator set versions of one schema version;
    ``opset_versions`` are the versions that share this text, oldest first.
    """

    opset_versions: tuple[int, ...]
    text: str


@dataclass(frozen=True)
class SchemaDetails:
    """What a reader of one version may want beyond its interface, for the site.

    ``source`` is the file that defines the schema, relative to onnx's repository
    (``onnx/defs/math/defs.cc``), with its line; ``None`` for a schema defined outside
    onnx. ``context_dependent`` marks a function whose body onnx builds for each node
    (from its attributes and input types), so there is no one text to show.
    """

    has_inference: bool = False
    source: tuple[str, int] | None = None
    function_bodies: tuple[FunctionBody, ...] = ()
    context_dependent: bool = False


SchemaKey = tuple[str, str, int]
"""(domain, name, since_version): one version of one operator, as :func:`schema_sort_key`."""


@dataclass(frozen=True)
class Reference:
    """The whole operator reference of one onnx installation.

    ``schemas`` is sorted by (domain, name, since_version). ``examples`` maps
    an operator name to its snippets, ``samples`` an operator name in lower
    case to the source of its sample implementation. ``details`` maps a
    :func:`schema_sort_key` to its :class:`SchemaDetails` when they were collected
    (for the site and snapshots; documents leave them out). ``onnx_own`` holds the
    :func:`schema_sort_key` of every schema onnx itself registered, not a ``--schemas``
    module, sorted (the model's ``repr`` keys the site's cache): their text is what
    onnx's own documents print. It is empty where that is not
    known (a snapshot, a reference made by hand); snapshots leave it out, so that a
    snapshot, which is data, cannot exempt a text from the onnx layout's sanitizer.
    """

    onnx_version: str
    schemas: tuple[Schema, ...]
    examples: dict[str, tuple[Example, ...]] = field(default_factory=dict)
    samples: dict[str, str] = field(default_factory=dict)
    details: dict[SchemaKey, SchemaDetails] = field(default_factory=dict)
    onnx_own: tuple[SchemaKey, ...] = ()

    def details_of(self, schema: Schema) -> SchemaDetails:
        """The details of one version; empty ones when they were not collected."""
        return self.details.get(schema_sort_key(schema), _NO_DETAILS)

    @property
    def domains(self) -> list[str]:
        return sorted({s.domain for s in self.schemas})

    def operators(self, domain: str | None = None) -> Iterator[Operator]:
        """Group schemas into operators, ordered by domain then name.

        Versions of one name stay together even when their support level
        differs; views that need onnx's grouping regroup themselves.
        """
        current: list[Schema] = []
        for schema in self.schemas:
            if domain is not None and schema.domain != domain:
                continue
            if current and (current[0].domain, current[0].name) != (schema.domain, schema.name):
                yield Operator(current[0].domain, current[0].name, tuple(current))
                current = []
            current.append(schema)
        if current:
            yield Operator(current[0].domain, current[0].name, tuple(current))

    def operator(self, domain: str, name: str) -> Operator | None:
        return next(
            (op for op in self.operators(domain) if op.name == name),
            None,
        )

    def scope(self, domains: Sequence[str] = (), ops: Sequence[str] = ()) -> Reference:
        """The part in ``domains`` (all if empty) named in ``ops`` (all if empty).

        A domain or operator that is not there is a usage error, naming it.
        """
        known = set(self.domains)
        wanted = {domain_key(d) for d in domains} or known
        unknown = sorted(wanted - known)
        if unknown:
            shown = ", ".join(domain_label(d) for d in sorted(known))
            raise UsageError(f"unknown domain {domain_label(unknown[0])!r} (known: {shown})")
        in_domains = [s for s in self.schemas if s.domain in wanted]
        names = set(ops)
        missing = sorted(names - {s.name for s in in_domains})
        if missing:
            raise UsageError(f"no operator {missing[0]!r} in the selected domains")
        return Reference(
            onnx_version=self.onnx_version,
            schemas=tuple(s for s in in_domains if not names or s.name in names),
            examples=self.examples,
            samples=self.samples,
            details=self.details,
            onnx_own=self.onnx_own,
        )

    def select(self, *, ml: bool) -> Reference:
        """The part onnx writes to the ``-ml`` documents, or the rest."""
        return Reference(
            onnx_version=self.onnx_version,
            schemas=tuple(s for s in self.schemas if (s.domain == ML_DOMAIN) == ml),
            examples=self.examples,
            samples=self.samples,
            details=self.details,
            onnx_own=self.onnx_own,
        )


_NO_DETAILS = SchemaDetails()


def schema_sort_key(schema: Schema) -> SchemaKey:
    return (schema.domain, schema.name, schema.since_version)
