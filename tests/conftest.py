"""Fixtures shared by the test modules."""

from __future__ import annotations

import pytest

from gendoc.collect import collect
from gendoc.model import Reference


@pytest.fixture(scope="session")
def reference() -> Reference:
    """The model of the installed onnx, collected once for the whole run."""
    return collect()
