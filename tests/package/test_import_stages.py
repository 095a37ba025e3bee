"""The package's imports follow its stages: no cycle, and no stage imports a later one.

Every ``import gendoc.x`` and ``from gendoc.x import ...`` of every module is
read from the source (those inside functions too: a lazy import is still a
dependency), so the test sees what a reviewer would, without importing
anything. ``gendoc`` itself (the root package, whose attributes load their
modules lazily) is the version and the public API, not a stage.
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "gendoc"

STAGES: tuple[frozenset[str], ...] = (
    frozenset({"errors", "console", "storage"}),
    frozenset({"model"}),
    frozenset({"collect"}),
    frozenset({"catalogs"}),
    frozenset({"present"}),
    frozenset({"evidence"}),
    frozenset({"audit", "runtime"}),
    frozenset({"suggest", "site"}),
    frozenset({"commands"}),
    frozenset({"api", "ci", "cli", "__main__"}),
)
"""Earliest first: a module may import its own stage and earlier ones. The utilities come
first; onnx is read into the model (collect), presented (catalogs, present); the evidence
feeds the audit and the runtime support (where operators run and train); suggest and the
site build on those, the commands on all of them. Above the commands, which return values
and write nothing, is what does their I/O: ``api`` (``gendoc.build``, the build command's
documents written), the command line and the Action."""

RANK = {name: rank for rank, stage in enumerate(STAGES) for name in stage}


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path: Path) -> set[str]:
    """The gendoc modules ``path`` imports (a ``from gendoc.x import y`` names ``gendoc.x``,
    or ``gendoc.x.y`` when that is a module)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name.startswith("gendoc.")}
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("gendoc."):
            assert node.module is not None
            found.add(node.module)
            found |= {f"{node.module}.{a.name}" for a in node.names}
    return found


@cache
def graph() -> dict[str, set[str]]:
    paths = [p for p in PACKAGE.rglob("*.py") if "__pycache__" not in p.parts]
    names = {module_name(p) for p in paths}
    return {module_name(p): (imports(p) & names) - {module_name(p)} for p in paths}


def stage(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def test_every_stage_is_ranked() -> None:
    assert {stage(m) for m in graph()} - {"__init__"} <= set(RANK)


def test_no_stage_imports_a_later_one() -> None:
    against = sorted(
        f"{module} imports {target}"
        for module, targets in graph().items()
        for target in targets
        if stage(module) != "__init__" and RANK[stage(target)] > RANK[stage(module)]
    )
    assert against == []


def test_the_imports_have_no_cycle() -> None:
    edges = graph()
    done: set[str] = set()
    path: list[str] = []

    def visit(module: str) -> list[str] | None:
        if module in path:
            return [*path[path.index(module) :], module]
        if module in done:
            return None
        path.append(module)
        for target in sorted(edges[module]):
            if (cycle := visit(target)) is not None:
                return cycle
        path.pop()
        done.add(module)
        return None

    cycles = [c for m in sorted(edges) if (c := visit(m)) is not None]
    assert cycles == []


def test_the_checks_see_a_stage_import_against_the_order(tmp_path: Path) -> None:
    """The reading of imports itself: a later stage's module, imported in a function body."""
    module = tmp_path / "evidence_module.py"
    module.write_text("def f():\n    from gendoc.audit.weigh import weigh\n")
    assert "gendoc.audit.weigh" in imports(module)
    assert RANK["audit"] > RANK["evidence"]
