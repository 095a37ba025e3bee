"""What the templates ask about the site (gendoc.site.site_facts): one object per content,
its costly answers computed before the build's languages part and read by both."""

from __future__ import annotations

from gendoc.model.reference import Reference
from gendoc.site import evidence_pages
from gendoc.site.pages import SiteContent

COMPUTED = ("verdicts", "translation_coverage", "version_tag_changes")


def test_prepare_computes_the_answers_both_languages_render_with(reference: Reference) -> None:
    content = SiteContent(reference, [])
    facts = content.facts
    content.prepare()
    computed = {name: vars(facts)[name] for name in COMPUTED}  # KeyError: not computed
    scripts = dict(facts._scripts)
    assert sorted(scripts) == sorted(
        (op.domain, op.name) for op in evidence_pages.operators(reference)
    )
    for lang in ("en", "zh"):
        for page in ("evidence/ai.onnx/Clip.md", "operators/ai.onnx/Clip.md"):
            assert content.render(page, lang).text
    assert content.facts is facts
    assert all(vars(facts)[name] is value for name, value in computed.items())
    assert all(facts._scripts[key] is value for key, value in scripts.items())
