"""Which onnx the base commit's documents were made with: its workflow's ``onnx:`` input.

A pull request may bump the action's ``onnx:`` input; the base side must then be
exported with the base's onnx, or the diff compares the new onnx with itself.
The workflow that runs (``GITHUB_WORKFLOW_REF`` names its file) is read as it
is at the base commit (``git show BASE:path``), and its ``onnx:`` line is the
answer when there is exactly one, with a literal value (without
``GITHUB_WORKFLOW_REF``, every workflow of the base commit that has such a line
is read). Otherwise the pull
request's own input is used, and a notice says why: the workflow is new, or it
gives several ``onnx:`` values or an expression (``${{ matrix.onnx }}``). No
``onnx:`` line at all means the input's default (empty: ``gendoc[onnx]``).
The base commit's requirements file (the ``requirements`` input) is installed
after this onnx, so a pin there wins on the base side as on the other.

Run with the runner's Python, by path and without gendoc installed
(``python -I base_onnx.py BASE_TREE``; standard library only); it prints the
pip requirement of the base's onnx (maybe empty) on stdout. Environment:
``ONNX`` (the pull request's input), ``GITHUB_WORKFLOW_REF``, ``GITHUB_REPOSITORY``.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys

_ONNX_INPUT = re.compile(r"^\s*onnx\s*:(.*)$")
_COMMENT = re.compile(r"\s+#.*$")


def workflow_path(workflow_ref: str, repository: str) -> str | None:
    """``.github/workflows/docs.yml`` from ``owner/repo/.github/workflows/docs.yml@refs/...``."""
    path = workflow_ref.rsplit("@", 1)[0]
    prefix = f"{repository}/"
    return path[len(prefix) :] if repository and path.startswith(prefix) else None


def onnx_inputs(workflow: str) -> list[str]:
    """Every value given to an ``onnx:`` key, comments and quotes removed."""
    values = []
    for line in workflow.splitlines():
        match = _ONNX_INPUT.match(line)
        if match:
            value = _COMMENT.sub("", match[1]).strip()
            if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
                value = value[1:-1]
            values.append(value)
    return values


def resolve(workflow: str | None, head_onnx: str) -> tuple[str, str]:
    """The base's onnx requirement, and where it comes from."""
    if workflow is None:
        return head_onnx, "the workflow is not in the base commit: the pull request's onnx input"
    values = set(onnx_inputs(workflow))
    if not values:
        return "", "the base workflow gives no onnx input: its default"
    if len(values) > 1 or any("${{" in v or v.startswith(("[", "{")) for v in values):
        return (
            head_onnx,
            "the base workflow's onnx input is not one literal value: the pull request's",
        )
    value = values.pop()
    return value, f"the base workflow's onnx input ({value or 'empty'})"


def _git(tree: str, *args: str) -> str | None:
    shown = subprocess.run(["git", "-C", tree, *args], capture_output=True, text=True, check=False)
    return shown.stdout if shown.returncode == 0 else None


def read_workflow(tree: str) -> str | None:
    """The running workflow's file as the base commit has it, if it has it.

    Without ``GITHUB_WORKFLOW_REF`` (an older runner), every workflow file of the
    base commit that gives an ``onnx:`` input, one after the other.
    """
    env = os.environ
    path = workflow_path(env.get("GITHUB_WORKFLOW_REF", ""), env.get("GITHUB_REPOSITORY", ""))
    if path is not None:
        return _git(tree, "show", f"HEAD:{path}")
    names = (_git(tree, "ls-tree", "--name-only", "HEAD", ".github/workflows/") or "").split("\n")
    texts = (_git(tree, "show", f"HEAD:{n}") for n in names if n.endswith((".yml", ".yaml")))
    found = [text for text in texts if text and onnx_inputs(text)]
    return "\n".join(found) if found else None


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python -I base_onnx.py BASE_TREE", file=sys.stderr)
        return 2
    spec, reason = resolve(read_workflow(argv[0]), os.environ.get("ONNX", ""))
    reason = reason.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    print(f"::notice title=gendoc base side::onnx for the base commit: {reason}", file=sys.stderr)
    print(spec)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
