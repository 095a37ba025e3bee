"""Builds that are killed or run side by side, as real processes.

The writer promises that a document is always either its old or its new
bytes, that the next build leaves no debris behind, and that concurrent
builds into one folder take turns. These tests stop real ``python -m
gendoc build`` processes at random moments (a fixed seed, so a failure can
be replayed) and run several at once.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from gendoc.storage.write import JOURNAL
from tests.helpers import ROOT, run_gendoc

DOCUMENTS = ("Changelog-ml.md", "Changelog.md", "Operators-ml.md", "Operators.md")
LANGS = ("en", "zh")


@pytest.fixture(scope="module")
def expected(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, bytes]]:
    """The bytes each language's build writes, built once in folders of their own."""
    documents = {}
    for lang in LANGS:
        out = tmp_path_factory.mktemp(lang)
        result = run_gendoc("build", "--out", str(out), "--lang", lang)
        assert result.returncode == 0, result.stderr
        documents[lang] = {name: (out / name).read_bytes() for name in DOCUMENTS}
    assert all(documents["en"][n] != documents["zh"][n] for n in DOCUMENTS)
    return documents


def _start_build(out: Path, lang: str) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "gendoc", "build", "--out", str(out), "--lang", lang],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )


def _leftovers(out: Path) -> list[str]:
    return sorted(p.name for p in out.iterdir() if p.name not in DOCUMENTS)


def _language_of_each(out: Path, expected: dict[str, dict[str, bytes]]) -> dict[str, str]:
    """Which language's bytes each document holds; fails on any other bytes."""
    found = {}
    for name in DOCUMENTS:
        data = (out / name).read_bytes()
        matches = [lang for lang in LANGS if expected[lang][name] == data]
        assert matches, f"{name} holds neither the English nor the Chinese bytes"
        found[name] = matches[0]
    return found


def _wait_for_writing(out: Path, process: subprocess.Popen, limit: float) -> None:
    """Return once the build made a temporary file in ``out`` (it is writing), or has ended.

    Temporary files left by an earlier kill do not count. Staging and
    renaming the four documents takes some 10 to 30 ms.
    """
    old = set(os.listdir(out))
    deadline = time.monotonic() + limit
    while process.poll() is None and time.monotonic() < deadline:
        if any(name.endswith(".tmp") for name in set(os.listdir(out)) - old):
            return
        time.sleep(0.0005)


def _build_seconds(out: Path) -> float:
    start = time.monotonic()
    result = run_gendoc("build", "--out", str(out), "--lang", "en")
    assert result.returncode == 0, result.stderr
    return time.monotonic() - start


@pytest.mark.slow
def test_kill_9_at_random_moments_leaves_old_or_new_bytes(
    tmp_path: Path, expected: dict[str, dict[str, bytes]]
) -> None:
    """20 builds killed at random moments, alternating the language so each one writes.

    Even trials die after a random share of a build's time; odd ones a few
    random milliseconds after their first temporary file appears, so that
    the kills also land while documents are staged and renamed.
    """
    seconds = _build_seconds(tmp_path)
    rng = random.Random(20240601)
    interrupted = 0
    for trial in range(20):
        before = _language_of_each(tmp_path, expected)
        process = _start_build(tmp_path, LANGS[(trial + 1) % 2])
        if trial % 2:
            _wait_for_writing(tmp_path, process, limit=10 * seconds)
            time.sleep(rng.uniform(0, 0.03))
        else:
            time.sleep(rng.uniform(0.2, 1.1) * seconds)
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=60)
        after = _language_of_each(tmp_path, expected)  # every document whole, old or new
        assert set(after.values()) <= {*before.values(), LANGS[(trial + 1) % 2]}
        if _leftovers(tmp_path):
            interrupted += 1
        if _leftovers(tmp_path) and interrupted <= 4:  # a few checks show it; each costs a run
            lang = after["Operators.md"]
            check = run_gendoc("check", "--out", str(tmp_path), "--lang", lang)
            assert check.returncode != 0, "check called a folder with leftovers up to date"
            assert "was interrupted" in check.stderr
    final = run_gendoc("build", "--out", str(tmp_path), "--lang", "zh")
    assert final.returncode == 0, final.stderr
    assert _leftovers(tmp_path) == []
    assert set(_language_of_each(tmp_path, expected).values()) == {"zh"}
    print(f"{interrupted} of 20 kills left temporary files or a journal behind")


@pytest.mark.slow
def test_sigterm_and_sighup_remove_temp_files(
    tmp_path: Path, expected: dict[str, dict[str, bytes]]
) -> None:
    """A catchable signal runs every ``finally``: nothing is left, not even a mixed set."""
    seconds = _build_seconds(tmp_path)
    rng = random.Random(7)  # each signal arrives a few random milliseconds into the writing
    for trial, signum in enumerate([signal.SIGTERM, signal.SIGHUP] * 2):
        process = _start_build(tmp_path, LANGS[(trial + 1) % 2])
        _wait_for_writing(tmp_path, process, limit=10 * seconds)
        time.sleep(rng.uniform(0, 0.01))
        process.send_signal(signum)
        _, err = process.communicate(timeout=60)
        # -signum: the signal came after the writer had finished and given the default
        # handling back; what matters is what the assertions below check.
        assert process.returncode in (0, 128 + signum, -signum), err
        assert b"Traceback" not in err
        assert _leftovers(tmp_path) == []
        assert len(set(_language_of_each(tmp_path, expected).values())) == 1


@pytest.mark.slow
def test_concurrent_builds_into_one_folder_never_mix(
    tmp_path: Path, expected: dict[str, dict[str, bytes]]
) -> None:
    """10 rounds of 4 builds at once, two per language: each round ends with one build's set."""
    for _ in range(10):
        processes = [_start_build(tmp_path, lang) for lang in LANGS * 2]
        for process in processes:
            _, err = process.communicate(timeout=120)
            assert process.returncode == 0, err
        assert len(set(_language_of_each(tmp_path, expected).values())) == 1
        assert _leftovers(tmp_path) == []


def test_journal_left_by_a_kill_between_renames_is_rolled_forward(
    tmp_path: Path, expected: dict[str, dict[str, bytes]]
) -> None:
    """The state ``kill -9`` leaves after the first of four renames, made exactly."""
    for name in DOCUMENTS:
        (tmp_path / name).write_bytes(expected["en"][name])
    (tmp_path / "Changelog-ml.md").write_bytes(expected["zh"]["Changelog-ml.md"])
    staged = []
    for name in DOCUMENTS[1:]:
        tmp = f".{name}.k9k9k9k9.tmp"
        (tmp_path / tmp).write_bytes(expected["zh"][name])
        staged.append(f'["{tmp}", "{name}"]')
    (tmp_path / JOURNAL).write_text(f"[{', '.join(staged)}]")
    check = run_gendoc("check", "--out", str(tmp_path), "--lang", "zh")
    assert check.returncode == 1
    assert check.stderr.startswith(f"gendoc: error: a build into {tmp_path} was interrupted")
    build = run_gendoc("build", "--out", str(tmp_path), "--lang", "zh")
    assert build.returncode == 0, build.stderr
    assert build.stderr == ""  # everything was rolled forward: nothing left to write
    assert _leftovers(tmp_path) == []
    assert set(_language_of_each(tmp_path, expected).values()) == {"zh"}
