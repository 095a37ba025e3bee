"""Every filter a template uses is registered, and under the name of its function.

The templates are parsed, not rendered, so a filter of a branch no test renders (a report
format, a rare case of a page) is checked too: a filter renamed in the registry but not in
a template would otherwise fail only when that branch first runs.
"""

from __future__ import annotations

from collections.abc import Iterator

import jinja2
import pytest
from jinja2 import nodes

from gendoc.present import render
from gendoc.present.filters import bound, by_name
from gendoc.storage.resources import templates_root

BUILTIN = frozenset(jinja2.Environment().filters)


def used_filters(env: jinja2.Environment, folder: str) -> Iterator[tuple[str, str]]:
    """``(template, filter)`` for every filter the templates under ``folder`` apply,
    those named to ``map`` included."""
    for path in sorted((templates_root() / folder).rglob("*.j2")):
        source = path.read_text(encoding="utf-8")
        name = path.relative_to(templates_root()).as_posix()
        for node in env.parse(source).find_all(nodes.Filter):
            yield name, node.name
            if node.name == "map" and node.args and isinstance(node.args[0], nodes.Const):
                yield name, node.args[0].value


def registered_by_name(env: jinja2.Environment) -> None:
    """Each of gendoc's filters in ``env`` is the function of the same name."""
    for name, function in env.filters.items():
        if name not in BUILTIN:
            assert function.__name__ == name


@pytest.mark.parametrize(
    ("style", "folders"), [("gendoc", ("gendoc", "cli", "shared")), ("onnx", ("onnx",))]
)
def test_the_documents_filters(style: str, folders: tuple[str, ...]) -> None:
    env = render.environment(render.RenderOptions(style=style))
    registered_by_name(env)
    used = [(t, f) for folder in folders for t, f in used_filters(env, folder)]
    assert used  # the templates were found and apply filters
    assert [(t, f) for t, f in used if f not in env.filters] == []


def test_a_filter_has_one_name() -> None:
    def shout(text: str, mark: str = "!") -> str:
        return text.upper() + mark

    with pytest.raises(ValueError, match="two filters named 'shout'"):
        by_name(shout, bound(shout, mark="?"))  # the bound one keeps the name "shout"
    assert by_name(bound(shout, mark="?"))["shout"]("a") == "A?"
