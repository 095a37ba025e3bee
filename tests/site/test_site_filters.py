"""The site's pages: every filter their templates use is registered, under its function's
name (the site's filters on top of the documents', see ``tests/present/test_filters.py``)."""

from __future__ import annotations

from gendoc.site.pages import environment
from tests.present.test_filters import registered_by_name, used_filters


def test_the_site_filters() -> None:
    env = environment(None, "en", "")
    registered_by_name(env)
    used = list(used_filters(env, "site"))
    assert {"tag_badge", "operator_diffs", "support_of", "md_name"} <= {f for _, f in used}
    assert [(t, f) for t, f in used if f not in env.filters] == []
