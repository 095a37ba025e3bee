"""A new kind of site page is one entry of the table of outputs and one template.

The test adds a JSON file per operator, the same in every language: the entry (its name,
template, page list and ``per_language=False``) is registered for the test, its template
sits in a user's template folder, and nothing else changes. The files are checked against
``onnx.defs`` directly, not gendoc's model.
"""

from __future__ import annotations

import json
from pathlib import Path

from onnx import defs

from gendoc.collect import installed
from gendoc.present.outputs import OUTPUTS, Group, Output
from gendoc.site.compiled import PAGES_BYTECODE
from gendoc.site.page_table import page_templates, write_site_wide
from gendoc.site.pages import SiteContent

DOMAIN = "ai.onnx.preview.training"  # a handful of operators, in every onnx gendoc supports
TEMPLATE = "{{ data | tojson }}\n"


def operator_json(site) -> list[tuple[str, dict]]:
    """The new entry's page list: beside each operator's page, its versions and text."""
    return [
        (
            site.operator_page(domain, op.name).removesuffix(".md") + ".json",
            {
                "data": {
                    "domain": domain,
                    "name": op.name,
                    "versions": [s.since_version for s in op.versions],
                    "doc": op.latest.doc,
                }
            },
        )
        for domain in site.reference.domains
        for op in site.reference.operators(domain)
    ]


def test_a_json_page_per_operator_is_one_entry_and_one_template(tmp_path: Path) -> None:
    templates = tmp_path / "templates"
    (templates / "site").mkdir(parents=True)
    (templates / "site" / "operator.json.j2").write_text(TEMPLATE, encoding="utf-8")
    entry = Output("operator json", Group.SITE, "site/operator.json.j2", operator_json, False)
    reference = installed.reference(with_details=True).scope((DOMAIN,))
    with OUTPUTS.registered(entry):
        content = SiteContent(reference, [], templates)
        written = write_site_wide(content, tmp_path / "site", "en")
    expected: dict[str, dict[str, object]] = {}
    for schema in defs.get_all_schemas_with_history():
        if schema.domain == DOMAIN:
            found = expected.setdefault(schema.name, {"versions": [], "doc": ""})
            found["versions"].append(schema.since_version)
            newest = max(found["versions"])
            if schema.since_version == newest:
                found["doc"] = schema.doc
    assert len(expected) >= 3
    assert any(set("<>&'\"") & set(str(found["doc"])) for found in expected.values())
    pages = {path: spec for path, spec in content.pages.items() if path.endswith(".json")}
    assert len(pages) == len(expected)
    assert not any(spec.per_language for spec in pages.values())
    assert sorted(written) == sorted(tmp_path / "site" / path for path in pages)
    for path in written:
        data = json.loads(path.read_text(encoding="utf-8"))
        assert path.name == f"{data['name']}.json"
        assert data["domain"] == DOMAIN
        assert sorted(data["versions"]) == sorted(expected[data["name"]]["versions"])
        # the site's templates escape HTML; tojson's output is left as it is, and reads back
        assert data["doc"].split() == str(expected[data["name"]]["doc"]).split()
    others = [spec for path, spec in content.pages.items() if path not in pages]
    assert others and all(spec.per_language for spec in others)
    assert "operator json" not in [o.name for o in OUTPUTS.group(Group.SITE)]


def test_the_templates_compiled_ahead_are_every_pages_without_listing_them() -> None:
    """What the build compiles before its languages part (in a process of its own, beside
    the one reading the model) is every page's template, named by the table: listing the
    pages there would read the evidence and the runtimes' records for nothing."""
    reference = installed.reference(with_details=True).scope((DOMAIN,))
    content = SiteContent(reference, [])
    env = content.env("en")
    env.bytecode_cache = PAGES_BYTECODE.layered(None)
    kept = dict(PAGES_BYTECODE.store)
    PAGES_BYTECODE.store.clear()
    try:
        content.compile_templates("en")
        assert "pages" not in vars(content)  # the cached property was never computed
        compiled = set(PAGES_BYTECODE.store)
        used = {spec.template for spec in content.pages.values()}
        assert "site/operator.html.j2" in used <= page_templates()
        for name in page_templates():
            source, filename, _ = env.loader.get_source(env, name)
            assert env.bytecode_cache.get_bucket(env, name, filename, source).key in compiled
    finally:
        PAGES_BYTECODE.store.clear()
        PAGES_BYTECODE.store.update(kept)
