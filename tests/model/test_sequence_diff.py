"""The diff engine: difflib's matches where onnx's texts are, bounded work on hostile ones.

Its cost is checked by counting the Python lines the engine and the diffs built on it run
(their work, independent of the clock); ``benchmarks/diff_bounds.py`` shows the seconds.
"""

from __future__ import annotations

import difflib
import random
from collections.abc import Callable
from itertools import combinations, pairwise

import pytest

from gendoc.catalogs.i18n import ENGLISH
from gendoc.collect import installed
from gendoc.model import sequence_diff, text_changes
from gendoc.model.reference import Schema
from gendoc.model.sequence_diff import EXACT_CELLS, Matcher, encoded
from gendoc.present.display import Display
from gendoc.site import versions_diff
from tests.helpers import lines_run


def _hostile_words(count: int, seed: int, vocabulary: int) -> list[str]:
    rng = random.Random(seed)
    return [f"w{rng.randrange(vocabulary)}" for _ in range(count)]


def _reworded(words: list[str], seed: int, vocabulary: int) -> list[str]:
    rng = random.Random(seed)
    return [f"w{rng.randrange(vocabulary)}" if n % 7 == 3 else w for n, w in enumerate(words)]


def _checked(a: str, b: str) -> None:
    """The matching blocks are matches, in order, apart (adjacent ones merged), then the end."""
    blocks = Matcher(a, b).get_matching_blocks()
    assert blocks[-1] == (len(a), len(b), 0)
    for (i, j, k), (next_i, next_j, next_k) in pairwise(blocks):
        assert k > 0 and a[i : i + k] == b[j : j + k]
        assert i + k <= next_i and j + k <= next_j
        assert (i + k, j + k) != (next_i, next_j) or not next_k


def test_above_the_exact_bound_every_block_is_a_match_in_order() -> None:
    rng = random.Random(4)
    for vocabulary in (2, 10, 300, 5000):
        for _ in range(3):
            old = _hostile_words(1500, rng.randrange(99), vocabulary)
            if rng.random() < 0.5:
                new = _reworded(old, rng.randrange(99), vocabulary)
            else:
                new = rng.sample(old, len(old))
            a, b = encoded(old, new)
            assert len(a) * len(b) > EXACT_CELLS
            _checked(a, b)


def test_a_few_changes_in_a_long_text_are_found_as_few_changes() -> None:
    words = _hostile_words(6000, 1, 5000)
    new = words[:]
    new[100], new[3000] = "changed", "also-changed"
    del new[4000:4010]
    a, b = encoded(words, new)
    matcher = Matcher(a, b)
    assert [op for op in matcher.get_opcodes() if op[0] != "equal"] == [
        ("replace", 100, 101, 100, 101),
        ("replace", 3000, 3001, 3000, 3001),
        ("delete", 4000, 4010, 4000, 4000),
    ]


def test_a_long_text_with_no_anchor_is_shown_replaced() -> None:
    """Two words in random order: no word, no run of three, is found once on each side."""
    old, new = _hostile_words(3000, 1, 2), _hostile_words(3000, 2, 2)
    changed = [op for op in Matcher(*encoded(old, new)).get_opcodes() if op[0] != "equal"]
    assert len(changed) == 1 and changed[0][0] == "replace"
    shown = text_changes.word_diff([" ".join(old)], [" ".join(new)], 10_000).split("\n\n")
    assert [(block[:3], block[-3:]) for block in shown] == [("[-w", "…-]"), ("{+w", "…+}")]


def test_onnx_texts_stay_within_the_exact_bound() -> None:
    """Where every diff of onnx's schemas stays, the engine's answer is difflib's (as
    ``tests/site/test_versions_diff.py`` checks), so no output of theirs changed."""
    display = Display(ENGLISH)
    largest = {"paragraphs": 0, "words": 0, "lines": 0, "line words": 0}
    for op in installed.reference([], with_examples=False).operators():
        prose = [text_changes.headed(text_changes.prose(v)) for v in op.versions]
        lines = [[x.text for x in versions_diff.version_lines(v, display)] for v in op.versions]
        for a, b in combinations(prose, 2):
            largest["paragraphs"] = max(largest["paragraphs"], len(a) * len(b))
            for x in set(a) - set(b):
                for y in set(b) - set(a):
                    words = len(x.split(" ")) * len(y.split(" "))
                    largest["words"] = max(largest["words"], words)
        for a, b in combinations(lines, 2):
            largest["lines"] = max(largest["lines"], len(a) * len(b))
        for line in {x for version in lines for x in version}:
            largest["line words"] = max(
                largest["line words"], len(versions_diff._WORD.findall(line)) ** 2
            )
    assert max(largest.values()) <= EXACT_CELLS, largest
    assert largest["words"] > EXACT_CELLS // 100, largest  # the scan did reach the texts


def _steps(call: Callable[[], object]) -> int:
    """The Python lines ``call`` runs in the engine, the diffs on it and difflib."""
    files = {
        sequence_diff.__file__,
        text_changes.__file__,
        versions_diff.__file__,
        difflib.__file__,
    }
    return lines_run(files, call)


def _paragraph_diff(old: list[str], new: list[str]) -> Callable[[], object]:
    return lambda: (
        text_changes.changed_paragraphs(old, new),
        text_changes.word_diff(old, new, 1500),
    )


def _reworded_paragraph(words: int) -> Callable[[], object]:
    old = _hostile_words(words, 1, 1000)
    return _paragraph_diff([" ".join(old)], [" ".join(_reworded(old, 2, 1000))])


def _reordered_paragraphs(count: int) -> Callable[[], object]:
    old = [f"p{n}" for n in range(count)]
    return _paragraph_diff(old, random.Random(3).sample(old, count))


def _few_words_paragraph(words: int) -> Callable[[], object]:
    old = _hostile_words(words, 1, 3)
    return _paragraph_diff([" ".join(old)], [" ".join(_reworded(old, 2, 3))])


def _reworded_site_line(words: int) -> Callable[[], object]:
    old = _hostile_words(words, 1, 1000)
    line = " ".join(old), " ".join(_reworded(old, 2, 1000))
    return lambda: versions_diff.word_diff.__wrapped__(*line)


def _reordered_site_paragraphs(count: int) -> Callable[[], object]:
    """Paragraphs reordered in a version's doc: lines, a blank line between each two."""
    old = [f"p{n}" for n in range(count)]
    docs = ["\n\n".join(old), "\n\n".join(random.Random(3).sample(old, count))]
    old_schema, new_schema = (Schema(domain="", name="H", since_version=1, doc=d) for d in docs)
    return lambda: versions_diff.diff_versions(old_schema, new_schema, Display(ENGLISH))


HOSTILE = {
    "reworded paragraph": (_reworded_paragraph, 2000),
    "reordered paragraphs": (_reordered_paragraphs, 1500),
    "three words reworded": (_few_words_paragraph, 2000),
    "reworded site line": (_reworded_site_line, 2000),
    "reordered site paragraphs": (_reordered_site_paragraphs, 1500),
}


@pytest.mark.parametrize(("make", "size"), HOSTILE.values(), ids=HOSTILE.keys())
def test_the_diffs_do_near_linear_work(make, size) -> None:
    steps = [_steps(make(size)), _steps(make(2 * size))]
    assert steps[0] > 0
    # twice the input, at most about twice the work (a sort's log n: 2.5 times)
    assert steps[1] <= 2.5 * steps[0], steps
