"""Fixtures and hooks shared by the test modules.

Parts of the suite need optional packages: the site tests need the ``site``
extra (mkdocs and its plugins), the browser tests the ``browser`` extra
(Playwright), PyTorch's live answers the ``torch`` extra. Without them those
tests are skipped, each saying which extra to install, so that ``pytest -m "not
browser"`` runs in a venv holding only the core and ``test`` dependencies.
``make test`` and CI set ``GENDOC_REQUIRE_ALL_TESTS=1``: then every skip is
turned into a failure, so a missing package can never pass for a green run.
"""

from __future__ import annotations

import os
from importlib.util import find_spec
from pathlib import Path

import pytest

from gendoc.collect.schemas import collect
from gendoc.model.reference import Reference

REQUIRE_ALL_TESTS = os.environ.get("GENDOC_REQUIRE_ALL_TESTS") == "1"

# The optional packages tests may need, each with the extra that installs it.
EXTRA_OF_MODULE = {
    "markdown": "site",
    "mkdocs": "site",
    "material": "site",
    "mkdocs_static_i18n": "site",
    "pagefind": "site",
    "jieba": "site",
    "onnx_ad": "evidence",
    "onnxruntime": "runtime",
    "playwright": "browser",
    "torch": "torch",
}

# Test modules that need an extra without importing it (they run it in a subprocess).
NEEDS_MODULES = {
    "test_site_build.py": ("mkdocs", "material", "mkdocs_static_i18n", "pagefind"),
}


def _needs(missing: str) -> str:
    return f"needs {missing}: pip install 'gendoc[{EXTRA_OF_MODULE[missing]}]'"


@pytest.fixture(scope="session")
def reference() -> Reference:
    """The model of the installed onnx, collected once for the whole run."""
    return collect()


@pytest.fixture(scope="session")
def exported(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The file ``gendoc export`` writes for the installed onnx, made once for the whole run."""
    from gendoc.commands.export import export

    path = tmp_path_factory.mktemp("export") / "reference.json"
    path.write_text(export(), encoding="utf-8")
    return path


class _ModuleNeedingExtras(pytest.Module):
    """A test module whose import stops on a missing optional package is skipped, saying which.

    Without this, ``pytest -m "not browser"`` in a venv without the ``site`` extra would stop
    at the collection of every module that imports :mod:`gendoc.site` (which imports mkdocs).
    """

    def _getobj(self):
        try:
            return super()._getobj()
        except pytest.Collector.CollectError as error:
            cause = error.__cause__
            name = (getattr(cause, "name", None) or "").partition(".")[0]
            if isinstance(cause, ModuleNotFoundError) and name in EXTRA_OF_MODULE:
                pytest.skip(_needs(name), allow_module_level=True)
            raise


def pytest_pycollect_makemodule(module_path, parent) -> pytest.Module:
    return _ModuleNeedingExtras.from_parent(parent, path=module_path)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Skip the tests of a module whose extra is not installed, saying which."""
    for item in items:
        modules = NEEDS_MODULES.get(item.path.name, ())
        missing = [name for name in modules if find_spec(name) is None]
        if missing:
            item.add_marker(pytest.mark.skip(reason=_needs(missing[0])))


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
