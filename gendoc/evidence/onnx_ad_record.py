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

from gendoc.catalogs.i18n import N_, Message, Quoted, listed, quoted, say
from gendoc.evidence.interface import EvidenceSource
from gendoc.evidence.record import (
    RecordedSource,
    Recording,
    message_from_record,
    read_record,
    record_command,
)

DATA_FILE = "onnx_ad_verdicts.json"
NAME = "onnx-ad"
USAGE = "usage: python -m gendoc.evidence.onnx_ad_record [OUTPUT]"


def load_record() -> dict[str, Any]:
    """The record shipped with gendoc: ``onnx`` and ``onnx-ad`` (the releases it was made
    with) and ``verdicts``, by :func:`gendoc.evidence.record.interface_key`."""
    return read_record(DATA_FILE)


# A node name in onnx-ad's words ("(node 'Y'); ...", "... (in 'Y')") says where, not why.
_WHERE = re.compile(r" \(node .*$| \([^()]*\)$")


def _why(reason: Message) -> Message:
    """``reason`` without the test case or node it names: why, not where."""
    args = reason.args
    if reason.id == _CASE_FAILED:
        return _why(quoted(str(args["error"])))
    if reason.id == _SEQUENCE_IN:
        return say(N_("a sequence or absent input"))
    return Message(
        reason.id,
        tuple(
            (k, Quoted(_WHERE.sub("", v)) if isinstance(v, Quoted) else v)
            for k, v in reason.arguments
        ),
    )


_CASE_FAILED = "{case}: {error}"
_SEQUENCE_IN = "a sequence or absent input in {case}"


def unanswered(verdicts: dict[str, dict[str, Any]]) -> dict[Message, list[str]]:
    """Reason -> the operators none of whose recorded versions got an answer."""
    answered: dict[str, bool] = {}
    reasons: dict[str, Message] = {}
    for key, kept in verdicts.items():
        op = key.split(" ", 1)[0].rsplit("-", 1)[0]
        rows = kept["parameters"]
        some = any(row[2] != "unavailable" for row in rows)
        answered[op] = answered.get(op, False) or some
        if rows and not some:
            reasons.setdefault(op, _why(message_from_record(rows[0][3])))
    grouped: dict[Message, list[str]] = {}
    for op in sorted(op for op, ok in answered.items() if not ok and op in reasons):
        grouped.setdefault(reasons[op], []).append(op)
    return dict(sorted(grouped.items(), key=lambda item: item[0].text))


def status_line(kept: dict[str, Any]) -> Message:
    """The source's status: releases, coverage, and every operator it could not answer (the
    reasons said in each language, what they quote from onnx-ad as it is)."""
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
        reasons=listed(
            [
                say(N_("{reason}: {operators}"), reason=why, operators=Quoted(", ".join(ops)))
                for why, ops in missing.items()
            ],
            N_("{items}; {item}"),
        ),
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
