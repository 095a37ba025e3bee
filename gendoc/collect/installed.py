"""The reference of the installed onnx, collected once and then read from the cache.

Importing onnx and reading its seven hundred schemas costs more than
everything else a build does, yet the result changes only when onnx is
installed again or rebuilt. So the collected model is stored in the cache
(msgpack, decoded by msgspec straight into the model's dataclasses) under a
fingerprint of the files it comes from: onnx's extension modules and top-level
Python files, the backend test cases the examples are read from, and
gendoc's own modules that shape the model. The fingerprint is taken without
importing onnx, so a build with a warm cache never imports it.

Schema modules (``--schemas``) are code that may register anything, so a run
with them always collects. Like the rest of the cache, this can make a run
faster, never different: any doubt means collecting again.
"""

from __future__ import annotations

import contextlib
import importlib.machinery
from collections.abc import Iterable, Iterator
from pathlib import Path

import gendoc
from gendoc.collect.background import Background
from gendoc.collect.examples import onnx_folder, read_examples, source_files
from gendoc.model.reference import Reference
from gendoc.storage.cache import Codec, cached, fingerprint

# The modules whose code decides what the collected model holds.
_GENDOC_MODULES = (
    "collect/schemas.py",
    "collect/examples.py",
    "model/reference.py",
    "collect/installed.py",
)


# msgspec is imported on first use: a run with the cache off never needs it.
def _encode_reference(reference: Reference) -> bytes:
    import msgspec

    return msgspec.msgpack.encode(reference)


def _decode_reference(data: bytes) -> Reference:
    import msgspec

    try:
        return msgspec.msgpack.decode(data, type=Reference)
    except msgspec.MsgspecError as exc:
        raise ValueError(str(exc)) from None


_REFERENCE: Codec[Reference] = Codec(".msgpack", _encode_reference, _decode_reference)


def _source_files(onnx_dir: Path) -> Iterator[Path]:
    suffixes = (".py", *importlib.machinery.EXTENSION_SUFFIXES)
    for path in onnx_dir.iterdir():
        if path.name.endswith(suffixes):
            yield path
    yield from source_files(onnx_dir)
    package = Path(gendoc.__file__).parent
    for name in _GENDOC_MODULES:
        yield package / name


def _key(onnx_dir: Path, variant: str) -> str | None:
    try:
        return fingerprint(f"{gendoc.__version__} {variant}", _source_files(onnx_dir))
    except OSError:  # a file vanished while looking: onnx is being reinstalled
        return None


def reference(
    schema_modules: Iterable[str] = (), *, with_examples: bool = True, with_details: bool = False
) -> Reference:
    """Every registered schema (all domains, all versions), plus ``schema_modules``'s.

    :func:`gendoc.collect.schemas.collect` with the cache in front of it.
    """
    modules = tuple(schema_modules)

    onnx_dir = onnx_folder()

    def collect() -> Reference:
        # The snippets are read on another core while onnx is imported and read.
        reading = (
            Background(lambda: read_examples(onnx_dir))
            if with_examples and onnx_dir is not None
            else contextlib.nullcontext()
        )
        with reading as examples:
            from gendoc.collect.schemas import (
                collect,  # imports onnx: only when the cache cannot answer
            )

            return collect(
                modules, with_examples=with_examples, with_details=with_details, examples=examples
            )

    variant = f"{'examples' if with_examples else 'bare'}{'.details' if with_details else ''}"
    key = _key(onnx_dir, variant) if onnx_dir is not None and not modules else None
    if key is None:
        return collect()
    name = f"reference.{variant}"
    return cached(name, key, collect, _REFERENCE, only_latest=True)
