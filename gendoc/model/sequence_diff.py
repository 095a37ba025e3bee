"""Sequence diff: ``difflib``'s answer for what a document holds, bounded work for any input.

Both diffs of gendoc compare sequences: ``gendoc diff`` the paragraphs of two
versions and the words of two paragraphs (:mod:`gendoc.model.text_changes`),
the site the lines of two versions and the words of two lines
(:mod:`gendoc.site.versions_diff`). ``difflib`` finds the longest matching
block and recurses on each side of it: its work grows with the product of the
lengths, and more than that when the blocks are many, so a reworded paragraph
of 30 KB takes seconds and one of 100 KB minutes. :class:`Matcher` gives
``difflib``'s own matches (and so its opcodes and ratio) whenever the product
of the lengths is at most :data:`EXACT_CELLS`, which every operator onnx has
published stays far below; a larger pair is first cut at anchors, as a
patience diff does:

- the common start and end are matched as they are;
- in between, an item (or a run of :data:`GRAM` items) found exactly once on
  each side anchors the two places to each other; of those pairs, the longest
  chain in the same order on both sides is kept (a longest increasing
  subsequence, ``n log n``);
- the stretches between anchors are compared again, with ``difflib``'s search
  when at most :data:`STRETCH_CELLS`, else cut at anchors again, at most
  :data:`MAX_DEPTH` times; a stretch that is still too large is shown as
  replaced as a whole.

Each level of cutting reads every item once, and a stretch of ``k`` items
compared by ``difflib``'s search costs at most ``k`` times ``sqrt(STRETCH_CELLS)``
searches, however many matches it holds: the work grows with the length, not
its square.

Items are compared as characters (:func:`encoded`), so that finding whether a
block of one side occurs in the other is one ``str.find``.
"""

from __future__ import annotations

import bisect
import difflib
from collections import Counter
from collections.abc import Iterator, Sequence
from itertools import chain

EXACT_CELLS = 1_000_000
"""Largest product of two lengths compared by ``difflib``'s search (1,000 items by 1,000)."""

STRETCH_CELLS = 10_000
"""Largest product of two lengths compared by ``difflib``'s search between two anchors
(100 items by 100): a stretch costs at most this, however many matches it holds."""

GRAM = 3
"""Items in a run that can anchor a match when no single item is unique on both sides."""

MAX_DEPTH = 4
"""Times a stretch is cut at anchors before, still too large, it is shown as replaced."""


def encoded(*sequences: Sequence[str]) -> list[str]:
    """Each sequence as one string, a character for each item; equal items, equal characters."""
    unique = dict.fromkeys(chain.from_iterable(sequences))
    codes = dict(zip(unique, map(chr, range(len(unique))), strict=True))
    return ["".join(map(codes.__getitem__, items)) for items in sequences]


def _unique_places(text: str, lo: int, hi: int, size: int) -> dict[str, int]:
    """Each run of ``size`` characters found once in ``text[lo:hi]``, with its place."""
    grams = [text[i : i + size] for i in range(lo, hi - size + 1)]
    counts = Counter(grams)
    return {gram: lo + n for n, gram in enumerate(grams) if counts[gram] == 1}


def _longest_chain(pairs: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The longest run of ``pairs`` (sorted by their first place) rising in the second too."""
    tails: list[int] = []  # the smallest last b-place of a chain of each length
    ends: list[int] = []  # the pair that ends it
    before: list[int] = []  # for each pair, the pair before it in its chain
    for index, (_, j) in enumerate(pairs):
        length = bisect.bisect_left(tails, j)
        before.append(ends[length - 1] if length else -1)
        if length == len(tails):
            tails.append(j)
            ends.append(index)
        else:
            tails[length], ends[length] = j, index
    chain_: list[tuple[int, int]] = []
    index = ends[-1] if ends else -1
    while index >= 0:
        chain_.append(pairs[index])
        index = before[index]
    return chain_[::-1]


class Matcher(difflib.SequenceMatcher):
    """``difflib.SequenceMatcher`` (no junk) on two strings, bounded as the module says.

    ``difflib`` finds the longest matching block by walking, for each item of ``a``, every
    place of it in ``b``: slow when items repeat, as the spaces and commas of a list of
    types do. Here the items are characters (:func:`encoded`), so whether a block of ``a``
    occurs in ``b`` is one ``str.find``. ``find_longest_match`` answers exactly as
    ``difflib``'s does with no junk: the longest block, of those the one that starts first
    in ``a``, then first in ``b``; so up to :data:`EXACT_CELLS` every block, opcode and
    ratio is ``difflib``'s.
    """

    def __init__(self, a: str, b: str) -> None:
        super().__init__(None, a, b, autojunk=False)

    def set_seq2(self, b: str) -> None:
        # difflib's version also indexes where each item of b is, which only its own
        # find_longest_match reads: not worth its time here.
        if b is not self.b:
            self.b = b
            self.matching_blocks = self.opcodes = self.fullbcount = None

    def find_longest_match(
        self, alo: int = 0, ahi: int | None = None, blo: int = 0, bhi: int | None = None
    ) -> difflib.Match:
        a, find = self.a, self.b.find
        ahi = len(a) if ahi is None else ahi
        bhi = len(self.b) if bhi is None else bhi
        besti, bestj, bestsize = alo, blo, 0
        i = alo
        # Each i in order: does a block longer than the best so far start there? Only a
        # strictly longer one replaces the best, as in difflib, so ties go to the first i.
        while i + bestsize < ahi:
            j = find(a[i : i + bestsize + 1], blo, bhi)
            if j >= 0:
                # It does; find its length by doubling, then halving. The first place in b
                # of a longer block is never before that of a shorter one (it starts with
                # it), so each search starts from the last place found, which stays the
                # first place in b of the longest block found.
                good, bad, step = bestsize + 1, min(ahi - i, bhi - blo) + 1, 1
                doubling = True
                while good + 1 < bad:
                    size = min(good + step, bad - 1) if doubling else (good + bad) // 2
                    k = find(a[i : i + size], j, bhi)
                    if k < 0:
                        bad, doubling = size, False
                    else:
                        good, j, step = size, k, step * 2
                besti, bestj, bestsize = i, j, good
            i += 1
        return difflib.Match(besti, bestj, bestsize)

    def get_matching_blocks(self) -> list[difflib.Match]:
        if self.matching_blocks is not None:
            return self.matching_blocks
        if len(self.a) * len(self.b) <= EXACT_CELLS:
            return super().get_matching_blocks()
        blocks = sorted(self._blocks(0, len(self.a), 0, len(self.b), 0))
        merged: list[list[int]] = []
        for i, j, k in blocks:  # adjacent blocks become one, as in difflib
            if merged and merged[-1][0] + merged[-1][2] == i and merged[-1][1] + merged[-1][2] == j:
                merged[-1][2] += k
            elif k:
                merged.append([i, j, k])
        ends = [difflib.Match(len(self.a), len(self.b), 0)]
        self.matching_blocks = [difflib.Match(*m) for m in merged] + ends
        return self.matching_blocks

    def _exact(self, alo: int, ahi: int, blo: int, bhi: int) -> Iterator[tuple[int, int, int]]:
        """``difflib``'s matching blocks of one stretch (its recursion, as a queue)."""
        queue = [(alo, ahi, blo, bhi)]
        while queue:
            alo, ahi, blo, bhi = queue.pop()
            i, j, k = self.find_longest_match(alo, ahi, blo, bhi)
            if k:
                yield i, j, k
                if alo < i and blo < j:
                    queue.append((alo, i, blo, j))
                if i + k < ahi and j + k < bhi:
                    queue.append((i + k, ahi, j + k, bhi))

    def _blocks(
        self, alo: int, ahi: int, blo: int, bhi: int, depth: int
    ) -> Iterator[tuple[int, int, int]]:
        """Matching blocks of one stretch: exact when small, else cut at anchors."""
        a, b = self.a, self.b
        if (ahi - alo) * (bhi - blo) <= (EXACT_CELLS if depth == 0 else STRETCH_CELLS):
            yield from self._exact(alo, ahi, blo, bhi)
            return
        start = 0
        while alo + start < ahi and blo + start < bhi and a[alo + start] == b[blo + start]:
            start += 1
        end = 0
        while (
            ahi - end > alo + start
            and bhi - end > blo + start
            and a[ahi - end - 1] == b[bhi - end - 1]
        ):
            end += 1
        yield alo, blo, start
        yield ahi - end, bhi - end, end
        alo, ahi, blo, bhi = alo + start, ahi - end, blo + start, bhi - end
        if depth == MAX_DEPTH or alo == ahi or blo == bhi:
            return
        anchors = self._anchors(alo, ahi, blo, bhi)
        if not anchors:  # nothing to cut at: cutting again would find nothing either
            return
        for (i, j), (next_i, next_j) in zip(
            [(alo - 1, blo - 1), *anchors], [*anchors, (ahi, bhi)], strict=True
        ):
            if i >= alo:
                yield i, j, 1
            if i + 1 < next_i and j + 1 < next_j:
                yield from self._blocks(i + 1, next_i, j + 1, next_j, depth + 1)

    def _anchors(self, alo: int, ahi: int, blo: int, bhi: int) -> list[tuple[int, int]]:
        """Places matched by an item, or a run of :data:`GRAM` items, once on each side."""
        pairs: dict[int, int] = {}
        for size in (1, GRAM):
            in_b = _unique_places(self.b, blo, bhi, size)
            for gram, i in _unique_places(self.a, alo, ahi, size).items():
                if gram in in_b:
                    pairs.setdefault(i, in_b[gram])
        return _longest_chain(sorted(pairs.items()))
