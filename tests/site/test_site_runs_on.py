"""The "Runs on" tables, the matrix page and the opset pages' coverage, in both languages;
each table says what the export says for the same records, and each cell links to its source."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest

from gendoc.collect.installed import reference as installed_reference
from gendoc.evidence.ort_registry import load_registry
from gendoc.model.reference import Reference
from gendoc.model.snapshot import RuntimeSupport
from gendoc.runtime.operator_support import backend_labels, opset_coverage, runtime_support
from gendoc.runtime.ort_kernels import load_record
from gendoc.runtime.scoreboard import scoreboard
from gendoc.site.pages import SiteContent

# The English label of each answer of the kernel table, as a reader sees it
LABELS = {
    "registered": "registered",
    "runs through its function": "through its function",
    "no kernel for this version": "no kernel",
    "domain unknown to the runtime": "domain unknown",
    "opset newer than the runtime reads": "opset too new",
    "no kernel in this provider: runs on the CPU provider": "on CPU",
    "unknown": "unknown",
}


@pytest.fixture(scope="module")
def detailed() -> Reference:
    """The installed onnx's reference with function bodies, as the site reads it."""
    return installed_reference(with_details=True)


@pytest.fixture(scope="module")
def site(detailed: Reference) -> SiteContent:
    return SiteContent(detailed, [])


class RunsOnTables(HTMLParser):
    """Per version (the heading's ``vN``): the table's rows as (text, link) per cell, the
    "Trains" line as (text, link); and every id on the page."""

    def __init__(self) -> None:
        super().__init__()
        self.version = 0
        self.rows: dict[int, list[list[tuple[str, str]]]] = {}
        self.trains: dict[int, tuple[str, str]] = {}
        self.also: dict[int, tuple[str, str]] = {}
        self.ids: set[str] = set()
        self._cell: list[str] | None = None
        self._href = ""
        self._in_table = self._in_trains = self._in_also = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if found.get("id"):
            self.ids.add(found["id"] or "")
        if tag == "h2" and re.fullmatch(r"v\d+", found.get("id") or ""):
            self.version = int((found["id"] or "")[1:])
        elif tag == "table" and found.get("class") == "gd-runs":
            self._in_table = True
            self.rows[self.version] = []
        elif tag == "tr" and self._in_table:
            self.rows[self.version].append([])
        elif tag == "td" and self._in_table:
            self._cell, self._href = [], ""
        elif tag == "p" and found.get("class") == "gd-trains":
            self._cell, self._href, self._in_trains = [], "", True
        elif tag == "p" and not found and self.version in self.rows:
            self._cell, self._href, self._in_also = [], "", True
        elif tag == "a" and self._cell is not None:
            self._href = found.get("href") or ""

    def handle_endtag(self, tag: str) -> None:
        if tag == "table":
            self._in_table = False
        elif tag == "td" and self._cell is not None and self._in_table:
            self.rows[self.version][-1].append(("".join(self._cell), self._href))
            self._cell = None
        elif tag == "p" and self._in_trains:
            self.trains[self.version] = ("".join(self._cell or []), self._href)
            self._cell, self._in_trains = None, False
        elif tag == "p" and self._in_also:
            text = "".join(self._cell or [])
            if text.startswith("Also registered for: "):
                self.also[self.version] = (text, self._href)
            self._cell, self._in_also = None, False

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)


def _tables(site: SiteContent, name: str) -> RunsOnTables:
    found = RunsOnTables()
    found.feed(site.render(f"operators/ai.onnx/{name}.md", "en").text)
    return found


def test_pages_show_the_table_the_matrix_and_the_opset_coverage(
    detailed: Reference, site: SiteContent
) -> None:
    english, chinese = (
        site.render("operators/ai.onnx/Relu.md", lang).text for lang in ["en", "zh"]
    )
    release = load_record()["onnxruntime"]
    assert "Runs on" in english and "运行于" in chinese
    assert f'>onnxruntime {release} CPU</a></td><td data-label="Kernel"><a href=' in english
    assert ">registered</a></td>" in english
    assert (
        "已注册" in chinese and "Trains: <a href=" in english and ">gradient builder</a>" in english
    )
    matrix = site.render("opsets/ai.onnx/runtimes.md", "en").text
    assert ">Relu-14</a>" in matrix and "registered" in matrix
    # a column per provider, each cell the export's answer for that provider
    _, answers = runtime_support(detailed)
    for name in ("Relu", "Det"):
        version = detailed.operator("", name).versions[-1].since_version
        row = re.search(rf">{name}-{version}</a></td>(.*?)</tr>", matrix)
        assert row is not None
        cells = dict(re.findall(r'<td data-label="([^"]+)">([^<]*)</td>', row.group(1)))
        exported = answers["", name, version].providers
        assert {p: cells[p] for p in ("CUDA", "DirectML")} == {
            p: LABELS[a.status] for p, a in exported.items()
        }
    # checked by hand in onnxruntime's table at the recorded commit: CUDA has Relu-14 and no
    # Det at any version (Det's newest is 22 in onnx 1.23, 11 in onnx 1.16)
    det = detailed.operator("", "Det").versions[-1].since_version
    assert answers["", "Relu", 14].providers["CUDA"].status == "registered"
    assert answers["", "Det", det].providers["CUDA"].status == (
        "no kernel in this provider: runs on the CPU provider"
    )
    newest = max(o.version for o in site.facts.opsets(""))
    coverage = opset_coverage(detailed, site.facts.opsets("")[-1].schemas)
    page = site.render(f"opsets/ai.onnx/{newest}.md", "en").text
    assert f"{coverage.registered} of these {coverage.total} operator versions" in page
    assert coverage.registered + coverage.function + coverage.refused + coverage.unknown == (
        coverage.total
    )


# A kernel, a function body, onnx-ad's rule and a refusal among their versions
OPERATORS = ("Relu", "Mish", "HardSwish", "Softsign")


def test_each_table_is_the_exports_answer_and_links_its_sources(
    detailed: Reference, site: SiteContent
) -> None:
    """The page and ``gendoc export`` (its ``runtime_support``) answer alike for the same
    records, and each cell links to the source its answer comes from."""
    sources, answers = runtime_support(detailed)
    board = scoreboard()
    labels = {label: key for key, label in backend_labels(board)}
    kernels = f"https://github.com/microsoft/onnxruntime/blob/v{sources.onnxruntime}/"
    builders = load_registry()["onnxruntime"]["commit"]
    seen = set()
    for name in OPERATORS:
        page = _tables(site, name)
        for schema in detailed.operator("", name).versions:
            exported: RuntimeSupport = answers["", name, schema.since_version]
            (ort, *backends) = [row for row in page.rows[schema.since_version] if row]
            runtime, kernel, versions, types, _ = ort
            assert runtime == (f"onnxruntime {sources.onnxruntime} CPU", runtime[1])
            assert runtime[1].endswith(f"/releases/tag/v{sources.onnxruntime}")
            # the export carries the links the cells have (sources.links)
            assert sources.links is not None and runtime[1] == sources.links.onnxruntime
            status = exported.onnxruntime.status
            assert kernel[0] == LABELS[status], (name, schema.since_version)
            seen.add(status)
            if status == "runs through its function":
                assert kernel[1] == f"#v{schema.since_version}-function"
                assert kernel[1][1:] in page.ids
            else:
                assert kernel[1].startswith(kernels) and kernel[1].endswith("OperatorKernels.md")
                assert kernel[1] == sources.links.kernels
            # the versions and types beside the kernel answer come from the table it links
            for cell, value in (
                (versions, exported.onnxruntime.versions),
                (types, exported.onnxruntime.types),
            ):
                assert cell == ((value, "") if value else ("–", ""))
            shown = {}
            for label, _, tests in backends:
                assert label[1] == ""
                backend = labels[label[0]]
                passed, failed, skipped = map(int, re.findall(r"\d+", tests[0]))
                shown[backend] = (passed, failed, skipped)
                assert tests[1] == (
                    f"https://github.com/onnx/backend-scoreboard/blob/{sources.scoreboard_commit}"
                    f"/results/{backend}/stable/ops.json"
                )
                assert tests[1] == sources.links.tests[backend]
            assert shown == {b: (t.passed, t.failed, t.skipped) for b, t in exported.tests.items()}
            trains, link = page.trains[schema.since_version]
            assert trains == f"Trains: {exported.trains}"
            assert link == sources.links.trains.get(exported.trains, "")
            # the other providers with a kernel in their table: one line, to the matrix
            also = [name for name, a in exported.providers.items() if a.versions]
            assert set(exported.providers) == set(sources.providers) == {"CUDA", "DirectML"}
            if also:
                text, href = page.also[schema.since_version]
                assert text == f"Also registered for: {', '.join(also)}"
                assert href.startswith("../../opsets/ai.onnx/runtimes.html")
            else:
                assert schema.since_version not in page.also
            seen.add(exported.trains)
            if exported.trains == "gradient builder":
                assert f"/onnxruntime/blob/{builders}/" in link
            elif exported.trains == "onnx-ad rule":
                assert link.startswith("https://pypi.org/project/onnx-ad/")
            else:
                assert link == ""
    assert {"registered", "runs through its function", "gradient builder", "onnx-ad rule"} <= seen
