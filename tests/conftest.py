"""Fixtures and hooks shared by the test modules.

Parts of the suite need optional packages: the site tests need the ``site``
extra (mkdocs and its plugins), the browser tests the ``browser`` extra
(Playwright), some guide examples torch. Without them those tests are
skipped, so that ``pytest -m "not browser"`` runs in a venv holding only the
core and ``test`` dependencies. ``make test`` and CI set
``GENDOC_REQUIRE_ALL_TESTS=1``: then every skip is turned into a failure, so
a missing package can never pass for a green run.
"""

from __future__ import annotations

import os
from importlib.util import find_spec

import pytest

from gendoc.collect import collect
from gendoc.model import Reference

REQUIRE_ALL_TESTS = os.environ.get("GENDOC_REQUIRE_ALL_TESTS") == "1"

# Test modules that need an extra, with the modules that extra provides.
NEEDS_EXTRA = {
    "test_site_build.py": ("site", ("mkdocs", "material", "mkdocs_static_i18n", "pagefind")),
}


@pytest.fixture(scope="session")
def reference() -> Reference:
    """The model of the installed onnx, collected once for the whole run."""
    return collect()


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Skip the tests of a module whose extra is not installed, saying which."""
    for item in items:
        extra, modules = NEEDS_EXTRA.get(item.path.name, ("", ()))
        missing = [name for name in modules if find_spec(name) is None]
        if missing:
            reason = f"needs {', '.join(missing)}: pip install 'gendoc[{extra}]'"
            item.add_marker(pytest.mark.skip(reason=reason))


def _as_failure(report: pytest.TestReport | pytest.CollectReport) -> None:
    """With GENDOC_REQUIRE_ALL_TESTS=1, a skip (not an expected failure) fails."""
    if not (REQUIRE_ALL_TESTS and report.skipped) or hasattr(report, "wasxfail"):
        return
    longrepr = report.longrepr
    reason = longrepr[2] if isinstance(longrepr, tuple) else str(longrepr)
    report.outcome = "failed"
    report.longrepr = f"skipped, and GENDOC_REQUIRE_ALL_TESTS=1 forbids skips: {reason}"


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]):
    outcome = yield
    _as_failure(outcome.get_result())


@pytest.hookimpl(hookwrapper=True)
def pytest_make_collect_report(collector: pytest.Collector):
    outcome = yield
    _as_failure(outcome.get_result())
