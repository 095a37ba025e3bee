"""onnx's backend scoreboard: onnx's backend tests passed, failed and skipped per operator.

onnx/backend-scoreboard runs onnx's backend test suite on each backend and keeps the results
on its branch ``benchmark-results`` (``results/<backend>/stable/ops.json``, with the versions
used in ``pip-list.json`` and the run's time in ``metadata.csv``). The record is made from a
clone of that repository (a bare clone works too)::

    python -m gendoc.runtime.scoreboard CHECKOUT [OUTPUT]

It names the branch's commit and that commit's date. The counts are per operator, not per
operator version: the tests run at the newest opset each backend reads.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from gendoc.storage.write import write_documents

DATA_FILE = "backend_scoreboard.json"
BRANCH = "benchmark-results"
REPOSITORY = "onnx/backend-scoreboard"
# The distribution whose version names each backend's release (pip-list.json)
PACKAGES = {
    "ort": "onnxruntime",
    "onnxruntime-openvino": "onnxruntime-ep-openvino",
    "onnx-reference": "onnx",
    "jaxonnxruntime": "jaxonnxruntime",
    "opencv": "opencv-python-headless",
    "tvm": "apache-tvm",
    "tract": "tract",
    "emx-onnx-cgen": "emx-onnx-cgen",
}


@dataclass(frozen=True)
class Score:
    """onnx's backend tests of one operator on one backend."""

    passed: int
    failed: int
    skipped: int

    @property
    def total(self) -> int:
        return self.passed + self.failed + self.skipped


@dataclass(frozen=True)
class Backend:
    """One backend's results: its release, the onnx it ran, when, and the counts."""

    name: str
    release: str
    onnx: str
    updated: str
    scores: dict[tuple[str, str], Score]


@dataclass(frozen=True)
class Scoreboard:
    """The record: the commit it was read at, its date, every backend."""

    commit: str
    date: str
    backends: dict[str, Backend]


def _git(checkout: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", "-C", str(checkout), *args], capture_output=True, text=True, check=False
    )
    if done.returncode:
        raise SystemExit(f"git {' '.join(args)}: {done.stderr.strip()}")
    return done.stdout


def _release(pip_list: list[dict[str, str]], package: str) -> str:
    versions = {row["name"].lower(): row["version"] for row in pip_list}
    return versions.get(package.lower(), "")


def extract(checkout: Path) -> dict[str, Any]:
    """The record from the branch ``benchmark-results`` of a clone of the scoreboard."""
    commit, date = _git(checkout, "log", "-1", "--format=%H %cI", BRANCH).split()
    files = _git(checkout, "ls-tree", "-r", "--name-only", BRANCH, "results/").split()
    backends: dict[str, Any] = {}
    for path in sorted(f for f in files if f.endswith("/stable/ops.json")):
        name = path.split("/")[1]
        folder = path.removesuffix("ops.json")

        def show(file: str, folder: str = folder) -> str:
            return _git(checkout, "show", f"{BRANCH}:{folder}{file}")

        pip_list = json.loads(show("pip-list.json"))
        updated = show("metadata.csv").splitlines()[0].split(",", 1)[1]
        ops = {
            f"{row['domain']}|{row['op_type']}": [
                row["passed_tests"],
                row["failed_tests"],
                row["skipped_tests"],
            ]
            for row in json.loads(show("ops.json"))
        }
        backends[name] = {
            "release": _release(pip_list, PACKAGES.get(name, name)),
            "onnx": _release(pip_list, "onnx"),
            "updated": updated,
            "ops": dict(sorted(ops.items())),
        }
    return {
        "repository": REPOSITORY,
        "branch": BRANCH,
        "commit": commit,
        "date": date,
        "backends": backends,
    }


def from_record(kept: dict[str, Any]) -> Scoreboard:
    backends = {}
    for name, entry in kept["backends"].items():
        scores = {}
        for key, counts in entry["ops"].items():
            domain, op = key.split("|", 1)
            scores[domain, op] = Score(*counts)
        backends[name] = Backend(name, entry["release"], entry["onnx"], entry["updated"], scores)
    return Scoreboard(kept["commit"], kept["date"], backends)


@cache
def scoreboard() -> Scoreboard:
    """The record shipped with gendoc."""
    text = resources.files("gendoc.runtime").joinpath("data", DATA_FILE).read_text("utf-8")
    return from_record(json.loads(text))


def _dump(kept: dict[str, Any]) -> str:
    lines = [f"{json.dumps(name)}: {json.dumps(entry)}" for name, entry in kept["backends"].items()]
    head = {key: value for key, value in kept.items() if key != "backends"}
    return json.dumps(head)[:-1] + ', "backends": {\n' + ",\n".join(lines) + "\n}}\n"


def main(argv: list[str] | None = None) -> int:
    """Write the record from a clone of onnx/backend-scoreboard."""
    parser = argparse.ArgumentParser(prog="python -m gendoc.runtime.scoreboard")
    parser.add_argument("checkout", type=Path, help="a clone of onnx/backend-scoreboard")
    parser.add_argument("output", nargs="?", type=Path)
    args = parser.parse_args(argv)
    kept = extract(args.checkout)
    target = args.output or Path(__file__).parent / "data" / DATA_FILE
    write_documents(target.parent, {target.name: _dump(kept)})
    return 0


if __name__ == "__main__":
    sys.exit(main())
