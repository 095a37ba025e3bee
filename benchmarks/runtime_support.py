"""Does `gendoc support`'s answer for onnxruntime CPU match what onnxruntime does?

The oracle is the installed onnxruntime itself: for every case of onnx's backend node tests
(``onnx.backend.test.case.node.collect_testcases()``) and every model under
``onnx/backend/test/data/light``, it creates an InferenceSession on the CPU provider. The
session loads, or onnxruntime refuses the model: no kernel for the types, an operator or
domain it does not know, an opset newer than it reads, or another reason (an invalid model).
A model stamped with an IR version newer than onnxruntime reads is asked again at the newest
it reads: the operators are the question. gendoc answers from its shipped record of the same
onnxruntime release's kernel registry (not from the live registry), so the oracle and the
answer come from independent paths. Every disagreement is listed with its reason.

Then the cost rows: the command on a 100 MB model with external data (peak memory of the
process) and on the largest light model (the median of warm runs in one process).

    python benchmarks/runtime_support.py [--runs 5]
"""

from __future__ import annotations

import argparse
import re
import statistics
import subprocess
import sys
import tempfile
import time
import warnings
from collections import Counter
from pathlib import Path

import numpy as np
import onnx
import onnxruntime
from onnx import helper, numpy_helper
from onnx.backend.test.case.node import collect_testcases

from gendoc.collect.model_file import NotAModelError, model_file
from gendoc.runtime.answers import check_nodes
from gendoc.runtime.ort_kernels import from_record, load_record

TARGET = 0.98
_IR = re.compile(r"max supported IR version: (\d+)")


def _refusal(message: str) -> str:
    """onnxruntime's reason for refusing a model, in the benchmark's words."""
    if "Could not find an implementation" in message or "Failed to find kernel" in message:
        return "no kernel"
    if "is not a registered function/op" in message or "No Op registered" in message:
        return "unknown operator"
    if "No opset import for domain" in message or "Unrecognized domain" in message:
        return "unknown domain"
    if "opset" in message.lower() and ("newer" in message or "support" in message):
        return "opset too new"
    return "other: " + message.splitlines()[0][:160]


def oracle(model: onnx.ModelProto) -> str:
    """'loads', or why onnxruntime's CPU provider refuses ``model``."""
    options = onnxruntime.SessionOptions()
    options.log_severity_level = 4
    for _ in range(2):
        try:
            onnxruntime.InferenceSession(
                model.SerializeToString(), options, providers=["CPUExecutionProvider"]
            )
        except Exception as exc:
            message = str(exc)
            newest = _IR.search(message)
            if newest and model.ir_version > int(newest.group(1)):
                model.ir_version = int(newest.group(1))
                continue
            return _refusal(message)
        return "loads"
    return "other: IR version"


def answer(model: onnx.ModelProto, table) -> tuple[bool | None, str]:
    """gendoc's answer: runs (True), refused (False) or unknown (None), with its reason."""
    try:
        read = model_file(model)
    except NotAModelError as exc:
        return False, str(exc)
    refused = []
    unknown = []
    for node, found in check_nodes(table, read.nodes):
        if found.status.runs is False:
            refused.append(f"{node.op}: {found.status} ({found.detail})")
        elif found.status.runs is None:
            unknown.append(f"{node.op}: {found.detail}")
    if refused:
        return False, "; ".join(refused)
    if unknown:
        return None, "; ".join(unknown)
    return True, "every node registered or through its function"


def models() -> list[tuple[str, onnx.ModelProto]]:
    with warnings.catch_warnings():
        # onnx computes the expected outputs of its cases with numpy: overflows are on purpose
        warnings.simplefilter("ignore")
        found = [(f"node/{case.name}", case.model) for case in collect_testcases()]
    light = Path(onnx.__file__).parent / "backend" / "test" / "data" / "light"
    found += [(f"light/{p.stem}", onnx.load(p)) for p in sorted(light.glob("*.onnx"))]
    return found


def agreement() -> None:
    table = from_record(load_record())
    if table.version != onnxruntime.__version__:
        sys.exit(f"record of onnxruntime {table.version}, installed {onnxruntime.__version__}")
    results = Counter()
    disagreements = []
    for name, model in models():
        said, why = answer(model, table)
        did = oracle(model)
        agree = (did == "loads") == (said is not False)
        results["agree" if agree else "disagree"] += 1
        results[f"said {'unknown' if said is None else 'runs' if said else 'refused'}"] += 1
        results[f"onnxruntime: {did.split(':')[0]}"] += 1
        if not agree:
            disagreements.append(f"  {name}: onnxruntime {did}; gendoc: {why}")
    total = results["agree"] + results["disagree"]
    share = results["agree"] / total
    print(f"onnxruntime {onnxruntime.__version__} CPU, onnx {onnx.__version__}: {total} models")
    print("  " + ", ".join(f"{key} {value}" for key, value in sorted(results.items())))
    print(f"agreement: {results['agree']}/{total} = {share:.2%} (target >= {TARGET:.0%})")
    print(f"disagreements ({len(disagreements)}):")
    print("\n".join(disagreements))
    if share < TARGET:
        sys.exit("agreement below target")


def _big_model(folder: Path) -> Path:
    """A 100 MB model: 25 float initializers of 1M values each, stored as external data."""
    rng = np.random.default_rng(0)
    inits, nodes, last = [], [], "x"
    for index in range(25):
        weight = rng.standard_normal((1000, 1000), dtype=np.float32)
        inits.append(numpy_helper.from_array(weight, f"w{index}"))
        nodes.append(helper.make_node("MatMul", [last, f"w{index}"], [f"y{index}"]))
        last = f"y{index}"
    graph = helper.make_graph(
        nodes,
        "big",
        [helper.make_tensor_value_info("x", onnx.TensorProto.FLOAT, [1, 1000])],
        [helper.make_tensor_value_info(last, onnx.TensorProto.FLOAT, [1, 1000])],
        inits,
    )
    path = folder / "big.onnx"
    onnx.save(helper.make_model(graph), path, save_as_external_data=True, location="big.data")
    return path


# The peak resident memory of a fresh process (VmHWM: getrusage's maximum would count the
# pages of the benchmark the child was forked from).
_MEMORY = """
import re, sys
from gendoc.commands.support import report
from gendoc.runtime.support_report import format_support
format_support(report(sys.argv[1], ["onnxruntime"]), "text")
status = open("/proc/self/status").read()
print(int(re.search(r"VmHWM:\\s+(\\d+) kB", status).group(1)) // 1024)
"""


def support_text(model: Path) -> str:
    """What ``gendoc support MODEL --runtime onnxruntime`` prints."""
    from gendoc.commands.support import report
    from gendoc.runtime.support_report import format_support

    return format_support(report(model, ["onnxruntime"]), "text")


def costs(runs: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = _big_model(Path(tmp))
        size = sum(p.stat().st_size for p in Path(tmp).iterdir()) / 1e6
        done = subprocess.run(
            [sys.executable, "-c", _MEMORY, str(path)], capture_output=True, text=True, check=True
        )
        peak = int(done.stdout.split()[-1])
        print(
            f"100 MB model ({size:.0f} MB with its external data): peak memory {peak} MB "
            "(target < 200 MB)"
        )
    light = Path(onnx.__file__).parent / "backend" / "test" / "data" / "light"
    largest = max(light.glob("*.onnx"), key=lambda p: p.stat().st_size)
    support_text(largest)
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        support_text(largest)
        times.append(time.perf_counter() - start)
    print(
        f"largest light model ({largest.name}, {largest.stat().st_size // 1000} KB), warm: "
        f"median {statistics.median(times):.3f} s over {runs} runs (target < 1 s)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    agreement()
    costs(args.runs)


if __name__ == "__main__":
    main()
