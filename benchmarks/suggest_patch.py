"""The figures of ``gendoc suggest`` on a real onnx checkout, each checked by another tool.

Needs a checkout of onnx at the installed version (``--onnx-src``, else the
environment's ``ONNX_SRC``: ``make bench ONNX_SRC=DIR``; without either it says so in
one line and measures nothing), for example::

    git clone --depth 1 --branch v1.23.2 https://github.com/onnx/onnx.git /tmp/onnx
    python benchmarks/suggest_patch.py --onnx-src /tmp/onnx [-- SUGGEST OPTIONS]

It runs ``gendoc suggest --out-dir`` as a user would (in a fresh interpreter),
then checks the patch with tools that are not gendoc:

* ``git apply --check`` in the checkout, then ``git apply`` in a copy of it;
* the C++ tokens of every changed source file, old against new, by a
  tokenizer written here: the only tokens added are the defaults
  (``OpSchema::Single``, ``true``, ``1``, commas) and categories, and the only
  token removed is ``OpSchema::Unknown``, so no category onnx set is changed;
* the documents' changed lines: each is a parameter's line as gen_doc.py writes
  it, before without a category and after with one appended to its tags;

and prints the parameters tagged (from ``parameters.csv``), how many of them
contradict onnx's own tag of the same parameter (part and name) in another
version of the operator (read from the installed onnx, split by whether
``parameters.csv`` lists that tag as disputed), the operator versions, the
disputed and partly tagged counts (the latter also as the audit's rule GD004
counts them on the model with the new tags) and the description's length in
characters (GitHub's limit for a pull-request body is 65,536).
"""

from __future__ import annotations

import argparse
import csv
import difflib
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

GITHUB_LIMIT = 65_536
TOKEN = re.compile(
    r'R"(\w*)\([\s\S]*?\)\1"|"(?:[^"\\\n]|\\.)*"|//[^\n]*|/\*[\s\S]*?\*/|\w+(?:::\w+)*|\S'
)
ADDED = {",", "OpSchema::Single", "true", "1", "OpSchema::Differentiable"}
ADDED |= {"OpSchema::NonDifferentiable"}
REMOVED = {"OpSchema::Unknown"}
PARAMETER_LINE = re.compile(r"<dt><tt>([^<]+)</tt>(?: \(([^)]*)\))? : ([^<]*)</dt>")
"""A parameter's line as onnx's gen_doc.py writes it: name, tags (optional, variadic,
heterogeneous, then the category) and type."""


def gains_a_category(before: str, after: str) -> bool:
    """Whether ``after`` is ``before`` with a category appended to its tags, nothing else."""
    old, new = PARAMETER_LINE.fullmatch(before[1:]), PARAMETER_LINE.fullmatch(after[1:])
    if old is None or new is None or (old[1], old[3]) != (new[1], new[3]):
        return False
    tags = [t for t in (old[2] or "").split(", ") if t]
    if {"differentiable", "non-differentiable"} & set(tags):
        return False
    return any(new[2] == ", ".join([*tags, c]) for c in ("differentiable", "non-differentiable"))


def git(cwd: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=False)


def tokens(text: str) -> list[str]:
    return [m[0] for m in TOKEN.finditer(text)]


def _differing(a: list[str], b: list[str]) -> list[tuple[list[str], list[str]]]:
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    return [(a[i1:i2], b[j1:j2]) for op, i1, i2, j1, j2 in matcher.get_opcodes() if op != "equal"]


def source_changes(old: str, new: str) -> tuple[Counter, Counter]:
    """The tokens removed and added between two versions of a C++ file: the changed runs of
    lines first, then the tokens within each run."""
    removed, added = Counter(), Counter()
    for old_lines, new_lines in _differing(old.splitlines(), new.splitlines()):
        for r, a in _differing(tokens("\n".join(old_lines)), tokens("\n".join(new_lines))):
            removed.update(r)
            added.update(a)
    return removed, added


def audit_partial(changed: list[dict[str, str]]) -> int:
    """The touched versions the audit's GD004 finds partly tagged once the tags are set."""
    from gendoc.audit.lints import check_partially_tagged
    from gendoc.collect import installed
    from gendoc.model.reference import Differentiability, Operator, ParameterRef, domain_key
    from gendoc.suggest.docs import retag

    tags = {
        (
            (domain_key(r["domain"]), r["operator"], int(r["version"])),
            ParameterRef.parse(r["parameter"]),
        ): (Differentiability(r["suggested"]))
        for r in changed
    }
    touched = {key for key, _ in tags}
    patched = retag(installed.reference(with_examples=False), tags)
    return sum(
        1
        for s in patched.schemas
        if (s.domain, s.name, s.since_version) in touched
        for _ in check_partially_tagged(Operator(s.domain, s.name, (s,)))
    )


def history_contradictions(rows: list[dict[str, str]]) -> tuple[int, int]:
    """Changed tags that contradict onnx's own tag of the same parameter in another version
    of the operator: (where that tag is not disputed, where it is)."""
    from gendoc.collect import installed
    from gendoc.model.reference import Differentiability, domain_key, labelled

    tags: dict[tuple[str, str, str], dict[int, Differentiability]] = {}
    for schema in installed.reference(with_examples=False).schemas:
        for ref, param in labelled(schema):
            if param.differentiability is not Differentiability.UNDEFINED:
                key = (schema.domain, schema.name, str(ref))
                tags.setdefault(key, {})[schema.since_version] = param.differentiability
    disputed = {
        (domain_key(r["domain"]), r["operator"], r["parameter"], int(r["version"]))
        for r in rows
        if r["outcome"] == "disputed"
    }
    plain = contested = 0
    for r in (r for r in rows if r["outcome"] == "changed"):
        key = (domain_key(r["domain"]), r["operator"], r["parameter"])
        against = [v for v, tag in tags.get(key, {}).items() if tag.value != r["suggested"]]
        if not against:
            continue
        if all((*key, v) in disputed for v in against):
            contested += 1
        else:
            plain += 1
    return plain, contested


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--onnx-src", default=os.environ.get("ONNX_SRC"), help="onnx checkout (git)"
    )
    parser.add_argument("suggest_options", nargs="*", help="more options for gendoc suggest")
    args = parser.parse_args()
    if not args.onnx_src:
        print("no onnx checkout given (--onnx-src or ONNX_SRC): the patch figures are not measured")
        return 0
    src = Path(args.onnx_src).resolve()
    if not (src / "onnx" / "defs" / "schema.h").is_file():
        print(f"not an onnx checkout: {src}", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "out"
        began = time.perf_counter()
        command = [sys.executable, "-m", "gendoc", "suggest", "--onnx-src", str(src)]
        run = subprocess.run(
            [*command, "--out-dir", str(out), *args.suggest_options],
            capture_output=True,
            text=True,
            check=False,
        )
        seconds = time.perf_counter() - began
        if run.returncode != 0:
            print(run.stderr.strip().splitlines()[-1], file=sys.stderr)
            return run.returncode
        patch = out / "suggest.patch"
        check = git(src, "apply", "--check", str(patch))
        copy = Path(tmp) / "onnx"
        shutil.copytree(src, copy, ignore=shutil.ignore_patterns(".git"))
        git(copy, "init", "-q")
        applied = git(copy, "apply", str(patch))
        paths = re.findall(r"^\+\+\+ b/(\S+)$", patch.read_text(encoding="utf-8"), re.M)
        removed, added = Counter(), Counter()
        for path in (p for p in paths if p.startswith("onnx/")):
            r, a = source_changes(
                (src / path).read_text(encoding="utf-8"), (copy / path).read_text(encoding="utf-8")
            )
            removed += r
            added += a
        doc_lines = [
            line
            for line in patch.read_text(encoding="utf-8").splitlines()
            if line[:1] in "+-" and not line.startswith(("+++", "---"))
        ]
        docs_removed = [x for x in doc_lines if x.startswith("-<dt>")]
        docs_added = [x for x in doc_lines if x.startswith("+<dt>")]
        with (out / "parameters.csv").open(encoding="utf-8", newline="") as f:
            rows = list(csv.DictReader(f))
        changed = [r for r in rows if r["outcome"] == "changed"]
        versions = {(r["domain"], r["operator"], r["version"]) for r in changed}
        disputed = [r for r in rows if r["outcome"] == "disputed"]
        description = (out / "description.md").read_text(encoding="utf-8")
        partial = re.search(r"^## Versions left partly tagged \((\d+)\)$", description, re.M)
        scripts = len(list((out / "scripts").glob("*.py")))
    import onnx

    only_tags = set(removed) <= REMOVED and set(added) <= ADDED
    docs_ok = len(docs_added) == len(docs_removed) and all(
        gains_a_category(a, b) for a, b in zip(docs_removed, docs_added, strict=False)
    )
    print(
        f"onnx {onnx.__version__} checkout {src}: gendoc suggest {' '.join(args.suggest_options)}"
    )
    print(f"  run: {seconds:.1f} s")
    print(f"  parameters tagged: {len(changed)} in {len(versions)} operator versions")
    plain, contested = history_contradictions(rows)
    print(
        f"  tags against onnx's tag of the same parameter in another version: {plain} "
        f"(and {contested} where that tag is disputed)"
    )
    print(
        f"  categories added: {added['OpSchema::Differentiable']} Differentiable, "
        f"{added['OpSchema::NonDifferentiable']} NonDifferentiable; "
        f"OpSchema::Unknown replaced: {removed['OpSchema::Unknown']}"
    )
    print(
        f"  source files changed: {sum(p.startswith('onnx/') for p in paths)}; "
        f"documents: {', '.join(p for p in paths if p.startswith('docs/')) or 'none'}"
    )
    print(f"  only differentiation arguments changed: {'yes' if only_tags else 'NO'}")
    print(
        f"  documents: {len(docs_added)} parameter lines gain a category: "
        f"{'yes' if docs_ok else 'NO'}"
    )
    print(
        f"  disputed (onnx's tag kept): {len(disputed)}; "
        f"versions left partly tagged: {partial[1] if partial else '?'}"
    )
    print(f"  touched versions the audit's GD004 finds partly tagged: {audit_partial(changed)}")
    print(f"  Method 1 scripts: {scripts}")
    print(f"  description: {len(description)} characters (GitHub's limit {GITHUB_LIMIT})")
    print(f"  git apply --check: {'passes' if check.returncode == 0 else check.stderr.strip()}")
    print(
        f"  git apply in a copy: {'passes' if applied.returncode == 0 else applied.stderr.strip()}"
    )
    ok = check.returncode == applied.returncode == 0 and only_tags and docs_ok and not plain
    return 0 if ok and len(description) <= GITHUB_LIMIT else 1


if __name__ == "__main__":
    sys.exit(main())
