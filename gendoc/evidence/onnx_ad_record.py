"""onnx-ad's verdicts recorded with one onnx-ad and onnx release, shipped for the audit and site.

Running onnx-ad on every operator version's backend test cases takes minutes
(collecting the cases alone takes seconds), while its answer depends only
on the onnx-ad release, on the schema (its inputs, outputs and types) and
on onnx's test cases. So the verdicts are recorded once, with the onnx and
onnx-ad releases the project pins, in ``data/onnx_ad_verdicts.json``
(:mod:`gendoc.evidence.record`, the record every recorded source shares):

    python -m gendoc.evidence.onnx_ad_record [OUTPUT]

:class:`RecordedOnnxAdSource` answers from the record when it holds the same
operator version with the same interface, and asks the installed onnx-ad
otherwise (a newer onnx's new versions), or says it is not installed. Its
status line names the onnx-ad and onnx releases of the record and every
operator it could not answer for, with onnx-ad's reason.
"""

from __future__ import annotations

import re
import sys
from typing import Any

from gendoc.catalogs.i18n import N_, Message, say
from gendoc.evidence.interface import EvidenceSource
from gendoc.evidence.record import RecordedSource, Recording, read_record, record_command

DATA_FILE = "onnx_ad_verdicts.json"
NAME = "onnx-ad"
USAGE = "usage: python -m gendoc.evidence.onnx_ad_record [OUTPUT]"


def load_record() -> dict[str, Any]:
    """The record shipped with gendoc: ``onnx`` and ``onnx-ad`` (the releases it was made
    with) and ``verdicts``, by :func:`gendoc.evidence.record.interface_key`."""
    return read_record(DATA_FILE)


# A case or node name in a reason ("(test_x at opset 7)", "(node 'Y'); ...") says where,
# not why.
_WHERE = re.compile(r" \(node .*$| \([^()]*\)$|: test_\w+.*$| in test_\w+.*$")


def unanswered(verdicts: dict[str, dict[str, Any]]) -> dict[str, list[str]]:
    """Reason -> the operators none of whose recorded versions got an answer."""
    answered: dict[str, bool] = {}
    reasons: dict[str, str] = {}
    for key, kept in verdicts.items():
        op = key.split(" ", 1)[0].rsplit("-", 1)[0]
        rows = kept["parameters"]
        some = any(row[2] != "unavailable" for row in rows)
        answered[op] = answered.get(op, False) or some
        if rows and not some:
            reasons.setdefault(op, _WHERE.sub("", rows[0][3]))
    grouped: dict[str, list[str]] = {}
    for op in sorted(op for op, ok in answered.items() if not ok and op in reasons):
        grouped.setdefault(reasons[op], []).append(op)
    return dict(sorted(grouped.items()))


def status_line(kept: dict[str, Any]) -> Message:
    """The source's status: releases, coverage, and every operator it could not answer (the
    reasons as the record keeps them, in English)."""
    verdicts = kept["verdicts"]
    missing = unanswered(verdicts)
    line = say(
        N_(
            "onnx-ad {version}, reverse mode on the backend test cases of onnx {onnx} "
            "(recorded for {count} operator versions)"
        ),
        version=kept["onnx-ad"],
        onnx=kept["onnx"],
        count=len(verdicts),
    )
    if not missing:
        return line
    return say(
        N_("{line}; no answer for {count} operators: {reasons}"),
        line=line,
        count=sum(len(ops) for ops in missing.values()),
        reasons="; ".join(f"{why}: {', '.join(ops)}" for why, ops in missing.items()),
    )


def _live_onnx_ad() -> EvidenceSource:
    from gendoc.evidence.sources import live_onnx_ad_source

    return live_onnx_ad_source()


class RecordedOnnxAdSource(RecordedSource):
    """onnx-ad as an evidence source, answering from the record where it can, run live (or
    said to be missing) otherwise."""

    def __init__(self, kept: dict[str, Any] | None = None) -> None:
        self.kept = load_record() if kept is None else kept
        super().__init__(NAME, self.kept["verdicts"], _live_onnx_ad)
        self.status = status_line(self.kept)


def _onnx_ad_recording(reference: Any) -> Recording:
    from gendoc.evidence.cases import is_onnx_domain
    from gendoc.evidence.onnx_ad_source import OnnxAdSource

    source = OnnxAdSource()
    made_with = {"onnx": reference.onnx_version, "onnx-ad": source.version}
    return [s for s in reference.schemas if is_onnx_domain(s.domain)], source, made_with


def main(argv: list[str] | None = None) -> int:
    """Record the installed onnx-ad's verdicts on every schema of the installed onnx."""
    return record_command(argv, USAGE, DATA_FILE, _onnx_ad_recording)


if __name__ == "__main__":
    sys.exit(main())
