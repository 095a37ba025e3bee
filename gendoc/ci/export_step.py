"""The action's export step: a snapshot of one side of a pull request, from that side's tree.

``python -I -m gendoc.ci.export_step SNAPSHOT SIDE`` runs in the side's tree (the
workspace for the pull request, in the first job; the base worktree for the base,
in the second) with that side's virtualenv, so each side is documented with its
own onnx and its own schema modules. A module of the ``schemas`` input that does
not exist on this side (the pull request adds the first one, or renames one)
registers nothing here: the snapshot is made without it, and the names of such
modules are written beside it (:func:`~gendoc.ci.runner.missing_file`, a JSON
list), which the diff step reads as data and turns into notes of the comment
and the job summary. A module that exists but fails to import is an error, as
for ``gendoc export``.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

from gendoc.ci.runner import annotation, missing_file, missing_note, schema_modules, workspace_last
from gendoc.errors import GendocError


def exists(module: str) -> bool:
    """Whether ``module`` can be found; a missing parent package means it cannot."""
    try:
        return importlib.util.find_spec(module) is not None
    except ModuleNotFoundError:
        return False


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print("usage: python -I -m gendoc.ci.export_step SNAPSHOT SIDE", file=sys.stderr)
        return 2
    snapshot, side = Path(argv[0]), argv[1]
    workspace_last()
    modules = schema_modules()
    present = [m for m in modules if exists(m)]
    missing = [m for m in modules if m not in present]
    try:
        from gendoc.commands.export import export

        text = export(schemas=present)
    except GendocError as exc:
        print(annotation("error", f"{side}: {exc}", title="gendoc export"))
        return 2
    for path, content in ((missing_file(snapshot), json.dumps(missing)), (snapshot, text)):
        partial = path.with_name(path.name + ".partial")
        partial.write_text(content, encoding="utf-8")
        partial.replace(path)
    for module in missing:
        print(annotation("notice", missing_note(module, side), title="gendoc export"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
