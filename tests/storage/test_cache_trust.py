"""A cache entry someone else could have written is a miss, and nothing is written there.

A cache folder on a shared or restored disk (``GENDOC_CACHE_DIR``) can hold entries
another user replaced: a schema text's HTML with a handler in it would end up in the
documents, a kept search script on the site. Each way an entry can be another's is tried
on every kind of store: the entry writable by others, a folder above it writable by
others, and both owned by another user (the process's user id changed instead, since
giving a file away needs root).
"""

from __future__ import annotations

import json
import os
from dataclasses import replace
from pathlib import Path

import msgspec
import pytest

from gendoc.collect.installed import _decode_reference, _encode_reference
from gendoc.site.build_cache import Store
from gendoc.storage.cache import cached_json
from tests.helpers import run_gendoc

DOCUMENTS = ("Operators.md", "Changelog.md")
HOSTILE = "<img src=x onerror=alert('cache')>"


def _make_foreign(how: str, entry: Path, cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    if how == "entry writable by others":
        entry.chmod(0o666)
    elif how == "folder writable by others":
        cache.chmod(0o777)
    else:
        real = os.getuid()
        monkeypatch.setattr(os, "getuid", lambda: real + 1)


WAYS = ["entry writable by others", "folder writable by others", "another owner"]


@pytest.mark.parametrize("how", WAYS)
def test_a_json_entry_of_another_is_computed_again_and_left_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, how: str
) -> None:
    cache = tmp_path / "cache"
    monkeypatch.setenv("GENDOC_CACHE_DIR", str(cache))
    assert cached_json("examples", "k", lambda: ["mine"], lambda v: True) == ["mine"]
    entry = cache / "examples-k.json"
    assert cached_json("examples", "k", lambda: ["again"], lambda v: True) == ["mine"]  # read
    entry.write_text(json.dumps([HOSTILE]))
    _make_foreign(how, entry, cache, monkeypatch)
    assert cached_json("examples", "k", lambda: ["mine"], lambda v: True) == ["mine"]
    if how != "entry writable by others":  # a private folder heals its entry; others not
        assert json.loads(entry.read_text()) == [HOSTILE]
        assert sorted(p.name for p in cache.iterdir()) == ["examples-k.json"]


@pytest.mark.parametrize("how", WAYS)
def test_a_page_store_of_another_is_not_read_nor_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, how: str
) -> None:
    cache = tmp_path / "cache"
    monkeypatch.setenv("GENDOC_CACHE_DIR", str(cache))
    store = Store(cache / "site-x" / "pages-en.msgpack")
    store.put("k", ["page", None, []])
    store.save()
    entry = cache / "site-x" / "pages-en.msgpack"
    entry.write_bytes(msgspec.msgpack.encode({"k": [HOSTILE, None, []]}))
    assert Store(entry).get("k", lambda v: True) == [HOSTILE, None, []]  # read when trusted
    _make_foreign(how, entry, cache / "site-x", monkeypatch)
    again = Store(entry)
    assert again.get("k", lambda v: True) is None
    again.put("k", ["page", None, []])
    again.save()
    if how != "entry writable by others":
        assert HOSTILE.encode() in entry.read_bytes()


@pytest.mark.parametrize("how", ["entry writable by others", "folder writable by others"])
def test_documents_never_show_what_another_put_in_the_cache(tmp_path: Path, how: str) -> None:
    """The schema text's HTML and the collected model of a real build, each replaced with
    a handler in a text: the next build writes the documents of an empty cache."""
    cache = tmp_path / "cache"
    env = {"GENDOC_CACHE_DIR": str(cache)}

    def build(out: Path) -> dict[str, str]:
        result = run_gendoc("build", "--out", str(out), env=env)
        assert result.returncode == 0, result.stderr
        return {name: (out / name).read_text("utf-8") for name in DOCUMENTS}

    expected = build(tmp_path / "cold")
    (table,) = cache.glob("schema-html-*.json")
    texts = json.loads(table.read_text())
    texts = {key: f"{HOSTILE}{html}" for key, html in texts.items()}
    table.write_text(json.dumps(texts))
    (model,) = cache.glob("reference.*")
    reference = _decode_reference(model.read_bytes())
    first = replace(reference.schemas[0], doc=f"{HOSTILE} {reference.schemas[0].doc}")
    model.write_bytes(
        _encode_reference(replace(reference, schemas=(first, *reference.schemas[1:])))
    )
    model.chmod(0o666 if how.startswith("entry") else 0o600)
    table.chmod(0o666 if how.startswith("entry") else 0o600)
    if how.startswith("folder"):
        cache.chmod(0o777)
    assert build(tmp_path / "warm") == expected
    if how.startswith("folder"):
        assert json.loads(table.read_text()) == texts  # nothing written there
