"""A damaged cache is a miss: rebuilt, replaced, and never a traceback or a lasting failure.

Every kind of entry gendoc keeps (the collected model, the examples, the
schema-text HTML, compiled templates, the site's pages and conversions) is
damaged here the ways a disk, a killed process or a hostile neighbour would:
cut short, overwritten with noise, or replaced by a value of the wrong shape.
A compiled template that Jinja's own file cache would have unpickled is one
of them: loading it would have created a file.
"""

from __future__ import annotations

import json
import os
import pickle
import stat
from pathlib import Path

import msgspec
import pytest
from jinja2.bccache import bc_magic

from gendoc.site.build_cache import Store, _is_snapshot, source_key, stored_render
from gendoc.site.rendered import Rendered
from gendoc.storage.cache import TemplateCache, cached_json
from tests.helpers import run_gendoc

DOCUMENTS = ("Operators.md", "Changelog.md", "Operators-ml.md", "Changelog-ml.md")


class Plant:
    """Unpickling this creates ``path``: what a planted compiled template could do."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def __reduce__(self):
        return (open, (str(self.path), "w"))


def _build(out: Path, cache: Path, *args: str) -> dict[str, bytes]:
    result = run_gendoc("build", "--out", str(out), *args, env={"GENDOC_CACHE_DIR": str(cache)})
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    return {name: (out / name).read_bytes() for name in DOCUMENTS}


def _entries(cache: Path) -> list[Path]:
    return sorted(p for p in cache.rglob("*") if p.is_file())


def _damage(path: Path, how: str, planted: Path) -> None:
    data = path.read_bytes()
    if how == "truncated":
        path.write_bytes(data[: len(data) // 2])
    elif how == "noise":
        path.write_bytes(bytes(range(256)) * 4)
    elif path.suffix == ".json":  # wrong shape: valid JSON, not what was stored
        path.write_text(json.dumps({"Abs": [[1, 2]], "x": {"y": None}}))
    else:  # a header Jinja's own cache would unpickle, then anything
        path.write_bytes(bc_magic + pickle.dumps(Plant(planted), 2) + b"junk")


@pytest.mark.parametrize("how", ["truncated", "noise", "wrong shape"])
def test_every_damaged_entry_is_rebuilt_and_replaced(tmp_path: Path, how: str) -> None:
    cache = tmp_path / "cache"
    expected = _build(tmp_path / "cold", cache, "--lang", "zh")
    entries = _entries(cache)
    kinds = {p.name.split("-")[0] for p in entries}
    assert {"reference.examples", "examples", "schema"} <= kinds
    assert any(p.parent.name.startswith("templates-") for p in entries)
    planted = tmp_path / "planted"
    for path in entries:
        _damage(path, how, planted)
    damaged = {p: p.read_bytes() for p in entries}
    assert _build(tmp_path / "damaged", cache, "--lang", "zh") == expected
    assert not planted.exists()
    # Healed: each damaged entry was replaced, and the next run reads them as a warm cache.
    for path, data in damaged.items():
        if path.exists():
            assert path.read_bytes() != data, path
    assert _build(tmp_path / "healed", cache, "--lang", "zh") == expected


def test_the_cache_folder_is_private(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    _build(tmp_path / "out", cache, "--style", "onnx")
    for folder in [cache, *(p for p in cache.rglob("*") if p.is_dir())]:
        assert stat.S_IMODE(folder.stat().st_mode) & 0o077 == 0, folder


def test_compiled_templates_are_not_read_from_a_folder_others_can_write(tmp_path: Path) -> None:
    from jinja2 import DictLoader, Environment

    folder = tmp_path / "templates-x"
    env = Environment(loader=DictLoader({"t": "{{ 1 + 1 }}"}), bytecode_cache=TemplateCache(folder))
    assert env.get_template("t").render() == "2"
    stored = next(folder.iterdir())
    bucket = env.bytecode_cache.get_bucket(env, "t", None, "{{ 1 + 1 }}")
    assert bucket.code is not None  # private: read back
    os.chmod(folder, 0o777)
    bucket = env.bytecode_cache.get_bucket(env, "t", None, "{{ 1 + 1 }}")
    assert bucket.code is None and stored.exists()


def test_an_example_cache_of_the_wrong_shape_is_computed_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GENDOC_CACHE_DIR", str(tmp_path))
    (tmp_path / "examples-k.json").write_text('{"Abs": "not a list"}')
    value = {"Abs": [["abs", "code", False]]}
    assert cached_json("examples", "k", lambda: value, lambda v: v == value) == value
    assert json.loads((tmp_path / "examples-k.json").read_text()) == value


_DEEP = b"\x81\xa1k" + b"\x91" * 50_000 + b"\x90"  # {"k": [[[...]]]}, 50,000 deep


@pytest.mark.parametrize(
    "stored",
    [
        msgspec.msgpack.encode([1, 2]),
        msgspec.msgpack.encode({"k": [1]}),
        msgspec.msgpack.encode({"k": ["text", [{"level": 1}]]}),
        msgspec.msgpack.encode({"k": ["text", "toc"]}),
        msgspec.msgpack.encode({"k": ["text", None]}),
        msgspec.msgpack.encode({"k": ["text", None, [["name"]]]}),
        _DEEP,
        b"\x00\xff",
        b'{"k": ["page", null, []]}',  # an earlier gendoc's JSON under the new name
    ],
)
def test_a_site_store_of_the_wrong_shape_renders_again(tmp_path: Path, stored: bytes) -> None:
    path = tmp_path / "pages-zh.msgpack"
    path.write_bytes(stored)
    store = Store(path)
    rendered = stored_render(store, "k", lambda: Rendered("page", None))
    assert rendered == Rendered("page", None)
    earlier = path.with_suffix(".json")  # an earlier gendoc's store, removed on saving
    earlier.write_text("{}")
    store.save()
    assert msgspec.msgpack.decode(path.read_bytes()) == {"k": ["page", None, []]}
    assert not earlier.exists()


def test_a_stored_conversion_is_checked_whole() -> None:
    good = {"content": "<p>x</p>", "toc": [], "title": None, "anchors": ["a"], "links": None}
    assert _is_snapshot(good)
    assert not _is_snapshot({**good, "toc": [{"level": 1, "id": "a", "name": "A"}]})
    assert not _is_snapshot({**good, "links": [["a.md", {"x": 1}]]})
    assert not _is_snapshot({**good, "anchors": "a"})
    assert not _is_snapshot([good])


@pytest.mark.parametrize("kind", ["fifo", "symlink", "folder"])
def test_an_entry_that_is_not_a_regular_file_is_a_miss(tmp_path: Path, kind: str) -> None:
    """A named pipe would block the read for ever; a link could point anywhere."""
    cache = tmp_path / "cache"
    expected = _build(tmp_path / "cold", cache, "--lang", "zh")
    secret = tmp_path / "elsewhere.json"
    secret.write_text('{"not": "an entry"}')
    for path in _entries(cache):
        path.unlink()
        if kind == "fifo":
            os.mkfifo(path)
        elif kind == "symlink":
            path.symlink_to(secret)
        else:
            path.mkdir()
    assert _build(tmp_path / "again", cache, "--lang", "zh") == expected
    assert secret.read_text() == '{"not": "an entry"}'


def test_the_sites_key_covers_the_data_gendoc_ships(tmp_path: Path) -> None:
    """A re-recorded evidence record changes the verdicts a page shows: the key changes."""
    (tmp_path / "evidence" / "data").mkdir(parents=True)
    (tmp_path / "evidence" / "verdict.py").write_text("RULES = ()\n")
    record = tmp_path / "evidence" / "data" / "torch_verdicts.json"
    record.write_text("{}\n")
    before = source_key(tmp_path)
    record.write_text('{"torch": "2.13.0"}\n')
    assert source_key(tmp_path) != before
