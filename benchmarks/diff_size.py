"""How long ``gendoc diff``'s Markdown is between an older onnx release and the installed one.

A pull request that bumps onnx gets the whole diff as one comment, and GitHub
refuses a comment over 65,536 characters. This script makes a snapshot of the
older release (``onnx==1.22.0`` by default) in a virtualenv of its own, which
pip fills from the package index, exports the installed onnx, and prints the
size of the Markdown diff between them, with how many changes, operators and
versions whose text alone changed it reports. The snapshots are named
``old.json`` and ``new.json``, as the figure in the README counts them.

    python benchmarks/diff_size.py [--old onnx==1.22.0] [--old-snapshot FILE]
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
COMMENT_LIMIT = 65_536


def _gendoc(python: str | Path, *args: str, cwd: Path) -> str:
    result = subprocess.run(
        [str(python), "-m", "gendoc", *args], cwd=cwd, capture_output=True, text=True, check=False
    )
    if result.returncode not in (0, 1):
        sys.exit(f"gendoc {' '.join(args)} failed: {result.stderr.strip()}")
    return result.stdout


def _older_snapshot(requirement: str, folder: Path) -> None:
    env = folder / "older-env"
    subprocess.run([sys.executable, "-m", "venv", str(env)], check=True)
    python = env / "bin" / "python"
    pip = [str(python), "-m", "pip", "install", "--quiet"]
    subprocess.run([*pip, requirement, str(ROOT)], check=True)
    _gendoc(python, "export", "-o", "old.json", cwd=folder)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--old", default="onnx==1.22.0", help="pip requirement of the older onnx")
    parser.add_argument("--old-snapshot", type=Path, help="use this snapshot of the older onnx")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        if args.old_snapshot:
            shutil.copyfile(args.old_snapshot, folder / "old.json")
        else:
            _older_snapshot(args.old, folder)
        _gendoc(sys.executable, "export", "-o", "new.json", cwd=folder)
        markdown = _gendoc(sys.executable, "diff", "old.json", "new.json", cwd=folder)
        data = json.loads(
            _gendoc(sys.executable, "diff", "old.json", "new.json", "--format", "json", cwd=folder)
        )
    kinds: dict[tuple[object, ...], set[str]] = defaultdict(set)
    for change in data["changes"]:
        key = (change["domain"], change["operator"], change["version"], change["compared_with"])
        kinds[key].add(change["kind"])
    text_only = sum(1 for key, found in kinds.items() if found == {"text-changed"} and not key[3])
    operators = len({(c["domain"], c["operator"]) for c in data["changes"]})
    print(f"onnx {data['old']['onnx_version']} -> {data['new']['onnx_version']}")
    print(f"changes: {len(data['changes'])} in {operators} operators")
    print(f"versions whose text alone changed: {text_only}")
    print(f"markdown: {len(markdown):,} characters (one comment holds {COMMENT_LIMIT:,})")
    return 0 if len(markdown) <= COMMENT_LIMIT else 1


if __name__ == "__main__":
    sys.exit(main())
