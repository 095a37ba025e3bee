"""A new evidence source is its module and one registry line: the audit, the site and
``gendoc suggest``'s description all find it there, with no other edit."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

import gendoc.suggest.installed_facts as installed_facts
from gendoc.audit import AuditOptions, audit
from gendoc.catalogs.i18n import quoted, say
from gendoc.cli import main
from gendoc.evidence.interface import ParameterEvidence, SourceEvidence, Verdict
from gendoc.evidence.source_registry import SOURCES, Role, SourceInfo, info
from gendoc.model.reference import Reference, Schema, labelled
from gendoc.site import evidence_pages
from gendoc.site.pages import SiteContent
from tests.suggest.test_suggest import _cli_checkout, _suggestions

STATUS = "fake 1.0, answers by hand"


class FakeSource:
    """Finds a gradient everywhere: not a source to trust, a source to find."""

    name = "fake"
    status = say(STATUS)

    def evaluate(self, schema: Schema) -> SourceEvidence:
        params = tuple(
            ParameterEvidence(ref, Verdict.GRADIENT, quoted("by hand"))
            for ref, _ in labelled(schema)
        )
        return SourceEvidence(
            self.name, schema.domain, schema.name, schema.since_version, params, quoted("fake 1.0")
        )


@pytest.fixture
def registered(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The one registry line; the site's sources are made again from the registry."""
    line = SourceInfo("fake", "Fake autodiff", Role.MATHEMATICS, "every operator", make=FakeSource)
    monkeypatch.setitem(SOURCES, "fake", line)
    evidence_pages._sources.cache_clear()
    yield
    evidence_pages._sources.cache_clear()


def test_the_audit_asks_a_registered_source(registered: None, reference: Reference) -> None:
    report = audit(reference, AuditOptions(ops=["Abs"], evidence=True))
    assert ("fake", STATUS) in [(s.source, s.status.text) for s in report.sources]
    votes = {v.source: v.verdict for f in report.findings for v in f.evidence}
    assert votes["fake"] == "gradient"
    assert info("fake").role is Role.MATHEMATICS


def test_the_site_shows_a_registered_source(registered: None, reference: Reference) -> None:
    site = SiteContent(reference, [])
    page = site.render("evidence/ai.onnx/Abs.md", "en").text
    assert "<th>fake</th>" in page and "by hand" in page
    index = site.render("evidence/index.md", "en").text
    assert "- **Fake autodiff**: every operator" in index


def test_the_patch_description_names_a_registered_source(
    registered: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source_lines, default_sources = installed_facts.source_lines, installed_facts.default_sources
    root = _cli_checkout(tmp_path, monkeypatch, _suggestions())
    monkeypatch.setattr(installed_facts, "default_sources", default_sources)
    monkeypatch.setattr(installed_facts, "source_lines", source_lines)
    out = tmp_path / "out"
    assert main(["suggest", "--onnx-src", str(root), "--out-dir", str(out)]) == 0
    assert f"- Fake autodiff: {STATUS}\n" in (out / "description.md").read_text()
