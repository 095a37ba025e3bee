"""``gendoc support``: where a model's operators run and train, and the exit status for CI.

The command line parses its options into these typed arguments; the same call works from
Python. Exit status: 0 when every runtime asked runs every operator (or cannot tell), 1 when
one refuses an operator, 2 for a file that is not a model or an unknown runtime.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from gendoc.errors import UsageError
from gendoc.runtime.model_report import (
    Runtime,
    SupportReport,
    build_report,
    onnxruntime_runtime,
    provider_runtime,
    reference_runtime,
)

__all__ = ["RUNTIMES", "report"]

RUNTIMES = ("onnxruntime", "onnxruntime:CPU", "onnxruntime:<provider>", "onnx-reference")
"""The ``--runtime`` choices: ``<provider>`` is one that onnxruntime's generated kernel table
lists (:func:`gendoc.runtime.ort_kernel_doc.provider_names`: CUDA, DirectML...)."""


def _runtimes(names: Sequence[str], onnx_version: str, newest_opset: int) -> list[Runtime]:
    from gendoc.runtime.ort_kernel_doc import find_provider, provider_names, provider_table
    from gendoc.runtime.ort_kernels import kernel_table

    found = []
    for name in names or ("onnxruntime", "onnx-reference"):
        runtime, _, provider = name.partition(":")
        recorded = find_provider(provider) if runtime == "onnxruntime" and provider else None
        if runtime == "onnxruntime" and provider.removesuffix("ExecutionProvider") in ("", "CPU"):
            found.append(onnxruntime_runtime(kernel_table(), onnx_version, newest_opset))
        elif recorded is not None:
            found.append(provider_runtime(provider_table(recorded), kernel_table()))
        elif runtime in ("onnx-reference", "onnx.reference") and not provider:
            found.append(reference_runtime(onnx_version))
        else:
            providers = ", ".join(f"onnxruntime:{p}" for p in provider_names())
            raise UsageError(
                f"no kernel table for runtime {name!r}: choose from onnxruntime, "
                f"onnxruntime:CPU, {providers}, onnx-reference"
            )
    return found


def report(
    model: Path | str, runtimes: Sequence[str] = (), *, training: bool = False
) -> SupportReport:
    """The report for the model file at ``model`` (read without its external data)."""
    import onnx

    import gendoc.collect.schemas  # noqa: F401  (stops with one line without onnx >= 1.16)
    from gendoc.collect.model_file import read_model
    from gendoc.runtime.scoreboard import scoreboard

    chosen = _runtimes(runtimes, onnx.__version__, onnx.defs.onnx_opset_version())
    read = read_model(Path(model))
    return build_report(read, chosen, scoreboard(), onnx.__version__, training)
