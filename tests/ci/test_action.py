"""The GitHub Action (``action.yml``) run locally, the way runners run its two jobs.

Its ``run:`` steps are executed with bash, as GitHub does for ``shell: bash``,
with the ``if:`` conditions, step outcomes and outputs a runner keeps, and the
runner's files (``GITHUB_ENV``, ``GITHUB_PATH``, ``GITHUB_OUTPUT``) applied to
the later steps of the job as a runner applies them, in a scratch git repository
whose pull request is pushed to. Each job has a runner of its own: the first
(``job: pull-request``) in the repository checked out at the pull request, the
second (``job: compare``) in a clone checked out at the base commit; the
artifact passes between them through a folder, as ``actions/upload-artifact``
and ``download-artifact`` pass it. The API is a fake one: an ``http.server`` on
127.0.0.1 that keeps comments in memory and answers like GitHub (``GET /user``
refused to the workflow's token, a fork's token refused writes), so nothing
leaves the machine.

``actions/setup-python`` is not run, and ``install``, which fetches packages,
runs in one test only, with a ``python`` that logs what pip would install.
Elsewhere its output stands in: the interpreter it names is one of small
virtualenvs made here, outside the repository, whose ``.pth`` file puts this
checkout's gendoc and the test environment's packages on the path. For the onnx
bump the base one also imports ``tests.custom_schemas.older_onnx`` at its start:
a base side whose onnx says it is 1.22.0 and has one operator more (installing
a second onnx needs the network). How ``install`` picks the base's onnx
(``gendoc/ci/base_onnx.py``) is tested on its own, below.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import shutil
import site
import subprocess
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import onnx
import pytest
import yaml

from gendoc.ci import diff_step
from gendoc.ci.diff_step import MAX_SNAPSHOT_BYTES
from gendoc.ci.runner import annotation, append_summary
from gendoc.model.reference import Reference
from gendoc.model.snapshot import dumps
from tests.helpers import ROOT

ACTION = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))
NOT_RUN = {"install"}  # fetches packages; the virtualenvs made here stand in for it
REPOSITORY = "octo-org/opdocs"
WORKFLOW = ".github/workflows/docs.yml"
PR_NUMBER = 7
MARKER = "<!-- gendoc-diff -->"
BOT = "github-actions[bot]"
TOKEN = "ghs-test-token-5f3a9c"
# What tests/custom_schemas/older_onnx.py makes onnx say, and the team loud.py names
# (not imported here: they register schemas, which must stay in the child processes).
OLDER_ONNX = "1.22.0"
MENTION = "@octo-org/admins"
OTHER_COMMENTS = 100  # a full first page, so finding our comment needs page 2
DIFF_STEPS = {"base-checkout", "export-head", "upload", "export-base", "download", "diff", "post"}


# --- the fake API ----------------------------------------------------------------------------


@dataclass
class FakeGitHub:
    """Issue comments of one pull request, and every request received."""

    comments: list[dict[str, Any]] = field(default_factory=list)
    requests: list[tuple[str, str]] = field(default_factory=list)
    tokens: set[str] = field(default_factory=set)
    read_only: bool = False  # the token of a pull request from a fork
    login: str | None = None  # who GET /user says the token is; None: refused (workflow token)
    next_id: int = 1000

    def ours(self) -> list[dict[str, Any]]:
        return [c for c in self.comments if c["user"]["login"] == BOT]

    def writes(self) -> list[tuple[str, str]]:
        return [r for r in self.requests if r[0] in ("POST", "PATCH")]


def comment(comment_id: int, login: str, body: str) -> dict[str, Any]:
    return {"id": comment_id, "user": {"login": login}, "body": body}


def _handler(state: FakeGitHub) -> type[BaseHTTPRequestHandler]:
    comments_path = f"/repos/{REPOSITORY}/issues/{PR_NUMBER}/comments"
    comment_path = re.compile(rf"/repos/{REPOSITORY}/issues/comments/(\d+)")

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: object) -> None:
            pass

        def _reply(self, status: int, payload: object) -> None:
            data = json.dumps(payload).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def _start(self) -> tuple[str, dict[str, list[str]]]:
            url = urlsplit(self.path)
            state.requests.append((self.command, url.path))
            state.tokens.add(self.headers.get("Authorization", ""))
            return url.path, parse_qs(url.query)

        def _body(self) -> str:
            return json.loads(self.rfile.read(int(self.headers["Content-Length"])))["body"]

        def do_GET(self) -> None:
            path, query = self._start()
            if path == "/user" and state.login:
                return self._reply(200, {"login": state.login})
            if path == "/user":  # GitHub refuses it to the workflow's token
                return self._reply(403, {"message": "Resource not accessible by integration"})
            if path != comments_path:
                return self._reply(404, {"message": "Not Found"})
            size, page = int(query["per_page"][0]), int(query["page"][0])
            self._reply(200, state.comments[(page - 1) * size : page * size])

        def do_POST(self) -> None:
            path, _ = self._start()
            if path != comments_path:
                return self._reply(404, {"message": "Not Found"})
            if state.read_only:
                return self._reply(403, {"message": "Resource not accessible by integration"})
            state.next_id += 1
            state.comments.append(comment(state.next_id, state.login or BOT, self._body()))
            self._reply(201, state.comments[-1])

        def do_PATCH(self) -> None:
            path, _ = self._start()
            match = comment_path.fullmatch(path)
            found = [c for c in state.comments if match and c["id"] == int(match[1])]
            if not found:
                return self._reply(404, {"message": "Not Found"})
            if state.read_only or found[0]["user"]["login"] != (state.login or BOT):
                return self._reply(403, {"message": "Resource not accessible by integration"})
            found[0]["body"] = self._body()
            self._reply(200, found[0])

    return Handler


@pytest.fixture
def github() -> Iterator[tuple[FakeGitHub, str]]:
    others = [comment(i, f"reviewer{i}", f"review {i}") for i in range(OTHER_COMMENTS)]
    state = FakeGitHub(comments=others)
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(state))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield state, f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


# --- the interpreters install would make --------------------------------------------------


def make_python(folder: Path, *startup: str) -> Path:
    """A virtualenv outside any repository that sees this checkout's gendoc first.

    ``startup`` lines (``import ...``) run when its interpreter starts, ``-I`` or not.
    """
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(folder)], check=True)
    (site_packages,) = folder.glob("lib/python*/site-packages")
    shared = "; ".join(f"site.addsitedir({p!r})" for p in site.getsitepackages())
    lines = [f"import site, sys; {shared}; sys.path.insert(0, {str(ROOT)!r})", *startup]
    (site_packages / "gendoc_tests.pth").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return folder / "bin" / "python"


@pytest.fixture(scope="module")
def interpreters(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("pythons")
    return {
        "current": make_python(folder / "env"),
        "older": make_python(folder / "older-env", "import tests.custom_schemas.older_onnx"),
    }


@pytest.fixture
def pythons(interpreters: dict[str, Path]) -> dict[str, Path]:
    """What install makes in each job when the pull request keeps the base's onnx."""
    return {"pull-request": interpreters["current"], "compare": interpreters["current"]}


@pytest.fixture
def bumped(interpreters: dict[str, Path]) -> dict[str, Path]:
    """What install makes in each job when the pull request bumps onnx from the older one."""
    return {"pull-request": interpreters["current"], "compare": interpreters["older"]}


# --- the toy repository ----------------------------------------------------------------------


def git_in(repo: Path, *args: str) -> str:
    """Run git in REPO with a fixed author (none may be configured); return its output."""
    env = {
        **os.environ,
        **{f"GIT_{who}_{what}": value for who in ("AUTHOR", "COMMITTER")
           for what, value in (("NAME", "Test"), ("EMAIL", "test@example.com"))},
    }  # fmt: skip
    result = subprocess.run(
        ["git", *args], cwd=repo, env=env, check=True, capture_output=True, text=True
    )
    return result.stdout.strip()


def workflow_text(onnx_requirement: str) -> str:
    return (
        "on: pull_request\njobs:\n  docs:\n    runs-on: ubuntu-latest\n    steps:\n"
        "      - uses: actions/checkout@v4\n"
        "      - uses: octo-org/gendoc@v1\n"
        "        with:\n"
        "          languages: en zh\n"
        "          schemas: opschemas\n"
        f"          onnx: {onnx_requirement}  # pinned\n"
    )


_ENV_DUMP = """
import json, os, pathlib
_dump = os.environ.get("TOY_ENV_DUMP")
if _dump:
    pathlib.Path(_dump, f"{os.getpid()}.json").write_text(json.dumps(dict(os.environ)))
"""


def commit(
    repo: Path, message: str, module: str | None, onnx_requirement: str, docs: bool = True
) -> str:
    """Write ``opschemas`` (registering MODULE, or absent), both languages' docs
    (``docs``: else none); commit."""
    (repo / ".github" / "workflows").mkdir(parents=True, exist_ok=True)
    (repo / WORKFLOW).write_text(workflow_text(onnx_requirement), encoding="utf-8")
    schemas = repo / "opschemas.py"
    if module is None:
        schemas.unlink(missing_ok=True)
    else:
        schemas.write_text(f"import tests.custom_schemas.{module}  # noqa: F401\n{_ENV_DUMP}")
    args = ["--schemas", "opschemas"] if module else []
    for out, lang in (("docs", "en"), ("docs/zh", "zh")) if docs else ():
        build = subprocess.run(
            [sys.executable, "-m", "gendoc", "build", "--out", out, "--lang", lang, *args],
            cwd=repo,
            env={**os.environ, "PYTHONPATH": f"{repo}{os.pathsep}{ROOT}"},
            capture_output=True,
            text=True,
        )
        assert build.returncode == 0, build.stderr
    git_in(repo, "add", "-A")
    git_in(repo, "commit", "-q", "-m", message)
    return git_in(repo, "rev-parse", "HEAD")


def new_repo(tmp: Path) -> Path:
    repo = tmp / "repo"
    repo.mkdir()
    git_in(repo, "init", "-q", "-b", "main")
    return repo


# --- the runner --------------------------------------------------------------------------------

_CONTEXT = re.compile(r"\b(github|inputs|steps|runner)((?:\.[\w-]+)+)")
_EXPRESSION = re.compile(r"\$\{\{(.*?)\}\}")


def evaluate(expression: str, context: dict[str, Any]) -> Any:
    """The GitHub expressions action.yml uses: context values, ==, &&, ||, status functions."""
    inner = expression.strip().removeprefix("${{").removesuffix("}}").strip()

    def lookup(match: re.Match[str]) -> str:
        value: Any = context[match[1]]
        for key in match[2].lstrip(".").split("."):
            value = value.get(key, "") if isinstance(value, dict) else ""
        return repr(value)

    python = _CONTEXT.sub(lookup, inner)
    for function, value in (("!cancelled()", "True"), ("always()", "True")):
        python = python.replace(function, value)
    python = python.replace("&&", " and ").replace("||", " or ")
    assert not re.search(r"!\w|\w\(", python), f"unsupported expression: {expression}"
    return eval(python, {"__builtins__": {}}, {"True": True, "False": False, "true": True})


def _env_value(value: Any, context: dict[str, Any]) -> str:
    """A value with ``${{ }}`` expressions in it, as the runner writes it."""

    def one(match: re.Match[str]) -> str:
        result = evaluate(match[1], context)
        return str(result).lower() if isinstance(result, bool) else str(result)

    return _EXPRESSION.sub(one, str(value))


def _file_commands(path: Path) -> dict[str, str]:
    """``NAME=value`` lines a step appended to GITHUB_ENV or GITHUB_OUTPUT."""
    lines = path.read_text(encoding="utf-8").splitlines() if path.exists() else []
    return dict(line.partition("=")[::2] for line in lines if "=" in line)


@dataclass
class Run:
    """What the action's jobs left: each step's outcome and output, the job summaries."""

    outcomes: dict[str, str]
    stdout: dict[str, str]
    stderr: dict[str, str]
    summary: str
    env_dumps: list[dict[str, str]]

    @property
    def succeeded(self) -> bool:
        return "failure" not in self.outcomes.values()

    @property
    def log(self) -> str:
        return "".join(self.stdout.values())

    def then(self, later: Run) -> Run:
        """Both jobs' results; a step both run (preflight, cleanup) has the later one's."""
        ran = {step: outcome for step, outcome in later.outcomes.items() if outcome != "skipped"}
        return Run(
            {**later.outcomes, **self.outcomes, **ran},
            {**self.stdout, **later.stdout},
            {**self.stderr, **later.stderr},
            self.summary + later.summary,
            self.env_dumps + later.env_dumps,
        )


def _artifact(step: dict[str, Any], context: dict[str, Any], store: Path) -> bool:
    """actions/upload-artifact and download-artifact, with a folder as the store."""
    settings = {k: _env_value(v, context) for k, v in step.get("with", {}).items()}
    kept = store / settings["name"]
    if step["uses"].startswith("actions/upload-artifact@"):
        files = [p for p in Path(settings["path"]).iterdir() if p.is_file()]
        if kept.exists() or not files:  # artifacts v4 cannot be overwritten
            return False
        kept.mkdir(parents=True)
        for file in files:
            shutil.copyfile(file, kept / file.name)
        return True
    assert step["uses"].startswith("actions/download-artifact@"), step["uses"]
    if not kept.is_dir():
        return False
    shutil.copytree(kept, settings["path"], dirs_exist_ok=True)
    return True


def run_job(
    tmp: Path,
    workspace: Path,
    api: str,
    event: dict[str, Any],
    python: Path,
    job: str,
    inputs: dict[str, str] | None = None,
    steps: set[str] | None = None,
    runner_os: str = "Linux",
    path: str = "",
) -> Run:
    """Run the steps of one job of the action (``steps``: only these) on a runner of its own.

    Each job has its own temporary folder, job summary and runner files (``tmp/<job>``),
    as each runs on a fresh machine; the artifacts are kept in ``tmp/artifacts``.
    """
    folder = tmp / job
    folder.mkdir(parents=True, exist_ok=True)
    event_path = folder / "event.json"
    event_path.write_text(json.dumps(event), encoding="utf-8")
    runner_temp = folder / "runner"
    runner_temp.mkdir(exist_ok=True)
    github = {"event_name": "pull_request", "event": event, "token": TOKEN}
    context: dict[str, Any] = {
        "github": github,
        "inputs": {},
        "steps": {},
        "runner": {"temp": str(runner_temp)},
    }
    inputs = {"languages": "en zh", "schemas": "opschemas", "job": job, **(inputs or {})}
    for name, spec in ACTION["inputs"].items():
        default = _env_value(spec.get("default", ""), context)
        context["inputs"][name] = inputs.get(name, default)
    dumps = tmp / "env-dumps"
    dumps.mkdir(exist_ok=True)
    summary = folder / "summary.md"
    summary.touch()
    env = {
        **{k: v for k, v in os.environ.items() if k != "GITHUB_TOKEN"},
        "PATH": os.pathsep.join(
            p for p in (path, str(Path(sys.executable).parent), os.environ["PATH"]) if p
        ),
        "GITHUB_ACTION_PATH": str(ROOT),
        "GITHUB_WORKSPACE": str(workspace),
        "GITHUB_EVENT_NAME": "pull_request",
        "GITHUB_EVENT_PATH": str(event_path),
        "GITHUB_REPOSITORY": REPOSITORY,
        "GITHUB_WORKFLOW_REF": f"{REPOSITORY}/{WORKFLOW}@refs/pull/{PR_NUMBER}/merge",
        "GITHUB_API_URL": api,
        "GITHUB_STEP_SUMMARY": str(summary),
        "RUNNER_TEMP": str(runner_temp),
        "RUNNER_OS": runner_os,
        "TOY_ENV_DUMP": str(dumps),
        # The stand-in older onnx has the installed onnx's files, which key the cache: off.
        "GENDOC_CACHE_DIR": "",
    }
    run = Run({}, {}, {}, "", [])
    for step in ACTION["runs"]["steps"]:
        if step.get("id") is None:  # actions/setup-python: the test's python stands in
            continue
        if (steps and step["id"] not in steps) or (not steps and step["id"] in NOT_RUN):
            # Not run here; what install would make is given instead.
            outputs = {"python": str(python)} if step["id"] == "install" else {}
            outcome = "success" if run.succeeded else "skipped"
            context["steps"][step["id"]] = {"outcome": outcome, "outputs": outputs}
            continue
        # Without a status function (always(), !cancelled()) a step needs all before it to pass.
        condition = step.get("if", "true")
        status_free = "always()" not in condition and "!cancelled()" not in condition
        runs = evaluate(condition, context) and not (status_free and not run.succeeded)
        if not runs:
            run.outcomes[step["id"]] = "skipped"
            context["steps"][step["id"]] = {"outcome": "skipped"}
            continue
        if "uses" in step:
            done = _artifact(step, context, tmp / "artifacts")
            run.outcomes[step["id"]] = outcome = "success" if done else "failure"
            context["steps"][step["id"]] = {"outcome": outcome}
            continue
        assert step["shell"] == "bash"
        # The runner's files of this step: what it appends is applied to the later steps.
        files = {name: folder / f"{step['id']}.{name}" for name in ("ENV", "PATH", "OUTPUT")}
        for file in files.values():
            file.write_text("", encoding="utf-8")
        step_env = {k: _env_value(v, context) for k, v in step.get("env", {}).items()}
        script = folder / f"{step['id']}.sh"
        script.write_text(step["run"], encoding="utf-8")
        result = subprocess.run(
            ["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)],
            cwd=workspace,
            env={**env, **{f"GITHUB_{n}": str(f) for n, f in files.items()}, **step_env},
            capture_output=True,
            text=True,
            timeout=600,
        )
        outcome = "success" if result.returncode == 0 else "failure"
        run.outcomes[step["id"]] = outcome
        outputs = _file_commands(files["OUTPUT"])
        context["steps"][step["id"]] = {"outcome": outcome, "outputs": outputs}
        run.stdout[step["id"]], run.stderr[step["id"]] = result.stdout, result.stderr
        env.update(_file_commands(files["ENV"]))
        added = files["PATH"].read_text(encoding="utf-8").splitlines()
        env["PATH"] = os.pathsep.join([*reversed(added), env["PATH"]])
    run.summary = summary.read_text(encoding="utf-8")
    return run


def run_action(
    tmp: Path,
    repo: Path,
    api: str,
    event: dict[str, Any],
    pythons: dict[str, Path],
    inputs: dict[str, str] | None = None,
    steps: set[str] | None = None,
    runner_os: str = "Linux",
    path: str = "",
) -> Run:
    """Both jobs of a pull request's workflow: ``pull-request`` in REPO (checked out at the
    pull request), then ``compare`` in a fresh clone checked out at the base commit."""
    first = run_job(
        tmp, repo, api, event, pythons["pull-request"], "pull-request", inputs, steps, runner_os,
        path,
    )  # fmt: skip
    workspace = tmp / "base-workspace"
    git_in(tmp, "clone", "-q", "--shared", "--no-checkout", str(repo), str(workspace))
    git_in(workspace, "checkout", "-q", "--detach", event["pull_request"]["base"]["sha"])
    second = run_job(
        tmp, workspace, api, event, pythons["compare"], "compare", inputs, steps, runner_os, path
    )
    dumps = tmp / "env-dumps"
    first.env_dumps = [json.loads(p.read_text()) for p in sorted(dumps.glob("*.json"))]
    return first.then(second)


def pull_request_event(base: str, head: str, action: str) -> dict[str, Any]:
    """The fields of GitHub's pull_request event payload that the action reads."""
    return {
        "action": action,
        "number": PR_NUMBER,
        "pull_request": {
            "number": PR_NUMBER,
            "base": {"ref": "main", "sha": base},
            "head": {"ref": "bump", "sha": head},
        },
        "repository": {"full_name": REPOSITORY},
    }


def annotations(run: Run) -> list[str]:
    return [line for line in run.log.splitlines() if re.match(r"::(error|warning|notice) ", line)]


def commands_stopped_and_resumed(log: str) -> bool:
    """Every ``::stop-commands::TOKEN`` in the log is ended by its ``::TOKEN::``."""
    tokens = re.findall(r"^::stop-commands::(.*)$", log, re.M)
    return all(log.count(f"\n::{token}::") == 1 for token in tokens)


# --- whole runs ------------------------------------------------------------------------------


def test_onnx_bump_and_first_schema_module_then_a_push(
    tmp_path: Path, github, bumped: dict[str, Path]
) -> None:
    """Two languages, the base on its own (older) onnx, a first schema module, a push."""
    state, api = github
    state.comments.insert(0, comment(4999, "mallory", f"{MARKER}\nnot the action's comment"))
    repo = new_repo(tmp_path)
    base = commit(repo, "docs", None, "onnx==1.22.0")
    git_in(repo, "checkout", "-q", "-b", "bump")
    head = commit(repo, "bump onnx, add schemas", "diff_v1", f"onnx=={onnx.__version__}")

    run = run_action(
        tmp_path / "push1", repo, api, pull_request_event(base, head, "opened"), bumped
    )
    assert run.succeeded, run.stderr
    assert run.outcomes["check"] == "success"
    assert "`en` in `docs`: 4 documents up to date" in run.summary
    assert "`zh` in `docs/zh`: 4 documents up to date" in run.summary

    (ours,) = state.ours()
    body = ours["body"]
    assert state.comments[0]["body"] == f"{MARKER}\nnot the action's comment"  # left alone
    assert [r for r in state.writes()] == [("POST", f"/repos/{REPOSITORY}/issues/7/comments")]
    assert body.startswith(MARKER + "\n")
    assert f"`{base[:12]}` (onnx {OLDER_ONNX})" in body  # both commits, both onnx versions
    assert f"`{head[:12]}` (onnx {onnx.__version__})" in body
    assert "- `com.example.Foo` added (versions 1, 2)" in body
    assert "- `com.example.old.OldOnly` removed (version 1)" in body
    assert "`opschemas` does not exist on the base side: no schemas from it there." in body
    assert body.removeprefix(MARKER + "\n") in run.summary
    assert state.tokens == {f"Bearer {TOKEN}"}

    # The token reached the posting step only: not the steps that import schema modules.
    assert len(run.env_dumps) == 2  # check, export of the pull request's side
    assert not [k for dump in run.env_dumps for k, v in dump.items() if TOKEN in v]
    assert not [step for step, text in run.stderr.items() if TOKEN in text]

    state.requests.clear()
    head = commit(repo, "fix a tag", "diff_v1_tag", f"onnx=={onnx.__version__}")
    event = pull_request_event(base, head, "synchronize")
    run = run_action(tmp_path / "push2", repo, api, event, bumped, {"fail-on": "any"})
    assert run.outcomes["diff"] == "failure" and not run.succeeded  # fail-on: any
    assert run.outcomes["post"] == "success"  # the comment is updated all the same
    assert state.writes() == [("PATCH", f"/repos/{REPOSITORY}/issues/comments/{ours['id']}")]
    assert state.ours() == [ours] and f"`{head[:12]}`" in ours["body"]
    assert "- `com.example.Foo` added (versions 1, 2)" in ours["body"]
    added = "::error title=Operator change::com.example.Foo added (versions 1, 2)"
    assert added in annotations(run)

    state.requests.clear()
    run = run_action(tmp_path / "push3", repo, api, event, bumped, {"comment": "false"})
    assert run.outcomes["post"] == "skipped" and state.requests == []


def test_stale_second_language_no_differences_and_a_shadowing_gendoc_folder(
    tmp_path: Path, github, pythons: dict[str, Path]
) -> None:
    state, api = github
    repo = new_repo(tmp_path)
    base = commit(repo, "docs", "diff_v1", "onnx==1.23.2")
    git_in(repo, "checkout", "-q", "-b", "bump")
    # The pull request changes no schema, but edits a Chinese document by hand and adds a
    # gendoc/ package that would report everything current if it were imported.
    stale = repo / "docs" / "zh" / "Changelog.md"
    stale.write_text(stale.read_text(encoding="utf-8") + "edited\n", encoding="utf-8")
    fake = repo / "gendoc"
    (fake / "ci").mkdir(parents=True)
    (fake / "__init__.py").write_text(
        "import pathlib; pathlib.Path(__file__).with_name('IMPORTED').touch()\n"
    )
    (fake / "ci" / "__init__.py").write_text("")
    (fake / "ci" / "check_step.py").write_text("raise SystemExit(0)  # all current, it says\n")
    git_in(repo, "add", "-A")
    git_in(repo, "commit", "-q", "-m", "hand edit")
    head = git_in(repo, "rev-parse", "HEAD")

    run = run_action(
        tmp_path / "push1", repo, api, pull_request_event(base, head, "opened"), pythons
    )
    assert not (fake / "IMPORTED").exists()
    assert run.outcomes["check"] == "failure" and not run.succeeded
    fix = "gendoc build --schemas opschemas --out docs/zh --style gendoc --lang zh"
    assert annotations(run)[0] == (
        "::error file=docs/zh/Changelog.md,title=Stale document::"
        f"docs/zh/Changelog.md is stale; regenerate with: {fix}"
    )
    assert "`docs/zh/Changelog.md`: stale" in run.summary and fix in run.summary
    assert "`en` in `docs`: 4 documents up to date" in run.summary
    assert commands_stopped_and_resumed(run.log)
    # The diff still ran: no differences, so no comment.
    assert run.outcomes["diff"] == run.outcomes["post"] == "success"
    assert f"No differences between `{base[:12]}`" in run.summary
    assert state.writes() == [] and state.ours() == []

    # Our comment from an earlier push that had differences is updated to say there are none.
    state.comments.append(comment(5000, BOT, f"{MARKER}\nold differences"))
    run = run_action(
        tmp_path / "push2",
        repo,
        api,
        pull_request_event(base, head, "synchronize"),
        pythons,
        steps=DIFF_STEPS,
    )
    assert run.succeeded, run.stderr
    assert state.writes() == [("PATCH", f"/repos/{REPOSITORY}/issues/comments/5000")]
    assert state.comments[-1]["body"].startswith(f"{MARKER}\nNo differences between `{base[:12]}`")


def test_hostile_schema_strings_and_a_fork_token(
    tmp_path: Path, github, pythons: dict[str, Path]
) -> None:
    state, api = github
    state.read_only = True
    repo = new_repo(tmp_path)
    base = commit(repo, "docs", "hostile_base", "onnx==1.23.2")
    git_in(repo, "checkout", "-q", "-b", "bump")
    head = commit(repo, "loud", "hostile_diff", "onnx==1.23.2")
    run = run_action(
        tmp_path / "push1",
        repo,
        api,
        pull_request_event(base, head, "opened"),
        pythons,
        steps=DIFF_STEPS,
    )

    # the fork's read-only token: a note, not a failure
    assert run.succeeded, (run.stderr, run.stdout)
    assert ("POST", f"/repos/{REPOSITORY}/issues/7/comments") in state.requests
    assert state.ours() == []
    (warning,) = [line for line in run.stdout["post"].splitlines() if line.startswith("::")]
    assert warning.startswith("::warning::gendoc diff comment skipped: POST ")
    assert "HTTP 403" in warning and "fork" in warning
    assert "> Note: the pull-request comment was not posted" in run.summary

    diff_part = run.summary.split("> Note:")[0]
    assert "com.example.Loud-1" in diff_part and "<details><summary>Word diff" in diff_part
    assert MENTION not in diff_part and "<!--" not in diff_part and "<b>" not in diff_part
    log_lines = run.stdout["diff"].splitlines()
    assert all(line.startswith("::") for line in log_lines[:-1]) and log_lines[-1][:7] == "gendoc "
    assert not [line for line in log_lines if line.startswith("::stop-commands")]
    assert "x%0A::stop-commands::pwned" in run.stdout["diff"]


def test_self_hosted_runner_keeps_no_stale_worktree(
    tmp_path: Path, github, pythons: dict[str, Path]
) -> None:
    """A registration left by a wiped temp folder is pruned; a failed run still cleans up."""
    _, api = github
    repo = new_repo(tmp_path)
    base = commit(repo, "docs", None, "onnx==1.23.2")
    runner_temp = tmp_path / "run1" / "compare" / "runner"
    git_in(
        repo, "worktree", "add", "--quiet", "--detach", str(runner_temp / "gendoc" / "base"), base
    )
    shutil.rmtree(runner_temp)  # the runner wiped its temporary folder
    event = pull_request_event(base, base, "opened")
    steps = {"base-checkout", "export-base", "diff", "cleanup"}
    run = run_job(tmp_path / "run1", repo, api, event, Path("/bin/false"), "compare", None, steps)
    assert run.outcomes == {
        "base-checkout": "success",
        "export-base": "failure",
        "diff": "skipped",
        "cleanup": "success",
    }
    assert git_in(repo, "worktree", "list", "--porcelain").count("worktree ") == 1
    assert not (runner_temp / "gendoc").exists()


def test_windows_runner_stops_in_the_first_step_with_a_clear_error(
    tmp_path: Path, github, pythons: dict[str, Path]
) -> None:
    _, api = github
    repo = new_repo(tmp_path)
    base = commit(repo, "docs", None, "onnx==1.23.2")
    event = pull_request_event(base, base, "opened")
    run = run_action(tmp_path / "run", repo, api, event, pythons, runner_os="Windows")
    assert ACTION["runs"]["steps"][0]["id"] == "preflight"
    assert run.outcomes["preflight"] == "failure"
    assert run.stdout["preflight"].startswith("::error title=gendoc::The gendoc action runs on ")
    assert run.outcomes["check"] == "skipped" and run.outcomes["cleanup"] == "success"


def test_an_unknown_job_stops_in_the_first_step(tmp_path: Path, github) -> None:
    _, api = github
    event = pull_request_event("a" * 40, "b" * 40, "opened")
    run = run_job(tmp_path, tmp_path, api, event, Path("/bin/false"), "both", steps={"preflight"})
    assert run.outcomes == {"preflight": "failure"}
    assert run.stdout["preflight"] == (
        "::error title=gendoc::The job input is pull-request or compare.\n"
    )


def test_a_personal_token_edits_only_its_own_accounts_comment(
    tmp_path: Path, github, pythons: dict[str, Path]
) -> None:
    """A token GitHub answers GET /user for: its login, not github-actions[bot], is "own"."""
    state, api = github
    state.login = "docs-bot"
    state.comments += [
        comment(5001, BOT, f"{MARKER}\nwritten by the workflow token of another workflow"),
        comment(5002, "docs-bot", f"{MARKER}\nold differences"),
    ]
    work = tmp_path / "run" / "compare" / "runner" / "gendoc"
    work.mkdir(parents=True)
    body = "## ONNX operator changes\n\nnew differences\n"
    (work / "comment.json").write_text(json.dumps({"differences": True, "body": body}))
    event = pull_request_event("a" * 40, "b" * 40, "synchronize")
    run = run_job(tmp_path / "run", tmp_path, api, event, pythons["compare"], "compare",
                  steps={"post"})  # fmt: skip
    assert run.succeeded, run.stderr
    assert state.writes() == [("PATCH", f"/repos/{REPOSITORY}/issues/comments/5002")]
    assert state.comments[-1]["body"] == f"{MARKER}\n{body}"
    assert state.comments[-2]["body"].endswith("another workflow")
    assert run.stdout["post"] == f"gendoc: updated comment 5002 on pull request #{PR_NUMBER}\n"


_PYTHON_STUB = """#!/bin/bash
# python for the install step: makes virtualenvs of itself, logs what pip would install.
if [ "$1" = -I ]; then shift; fi
if [ "$1" = -m ] && [ "$2" = venv ]; then mkdir -p "$3/bin" && cp "$0" "$3/bin/python"; exit; fi
if [ "$1" = -m ] && [ "$2" = pip ]; then echo "$0 ${*:3}" >> "$PIP_LOG"; exit; fi
exec REAL "$@"
"""


def test_install_gives_each_side_its_onnx_and_requirements(
    tmp_path: Path, github, pythons: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The install step, with a python that logs pip instead of fetching packages."""
    _, api = github
    repo = new_repo(tmp_path)
    (repo / "requirements.txt").write_text("numpy<3\n")
    base = commit(repo, "docs", None, "onnx==1.22.0")
    git_in(repo, "checkout", "-q", "-b", "bump")
    (repo / "requirements.txt").write_text("numpy<3\nmsgspec\n")
    head = commit(repo, "bump", None, f"onnx=={onnx.__version__}")
    stub = tmp_path / "stub"
    stub.mkdir()
    (stub / "python").write_text(_PYTHON_STUB.replace("REAL", sys.executable))
    (stub / "python").chmod(0o755)
    log = tmp_path / "pip.log"
    inputs = {"onnx": f"onnx=={onnx.__version__}", "requirements": "requirements.txt"}
    monkeypatch.setenv("PIP_LOG", str(log))
    event = pull_request_event(base, head, "opened")
    steps = {"base-checkout", "install"}
    run = run_action(tmp_path / "run", repo, api, event, pythons, inputs, steps, path=str(stub))
    assert run.succeeded, run.stderr
    head_work = tmp_path / "run" / "pull-request" / "runner" / "gendoc"
    base_work = tmp_path / "run" / "compare" / "runner" / "gendoc"
    assert log.read_text().splitlines() == [
        f"{head_work}/env/bin/python install --quiet onnx=={onnx.__version__} {ROOT}",
        f"{head_work}/env/bin/python install --quiet -r {repo}/requirements.txt",
        f"{base_work}/env/bin/python install --quiet onnx==1.22.0 {ROOT}",
        f"{base_work}/env/bin/python install --quiet -r {base_work}/base/requirements.txt",
    ]
    assert (base_work / "base" / "requirements.txt").read_text() == "numpy<3\n"
    assert "onnx for the base commit: the base workflow's onnx input" in run.stderr["install"]
    # Each job's interpreter is the install step's output, not a variable of GITHUB_ENV.
    for job, work in (("pull-request", head_work), ("compare", base_work)):
        folder = tmp_path / "run" / job
        assert (folder / "install.OUTPUT").read_text() == f"python={work}/env/bin/python\n"
        assert (folder / "install.ENV").read_text() == ""


# --- the base side's onnx ------------------------------------------------------------------


def base_onnx(tree: Path, head_onnx: str, ref: bool = True) -> subprocess.CompletedProcess[str]:
    """Run the script as the install step does: by path, isolated, with the runner's python.

    ``ref``: whether the runner names the workflow file (``GITHUB_WORKFLOW_REF``).
    """
    workflow_ref = f"{REPOSITORY}/{WORKFLOW}@refs/pull/{PR_NUMBER}/merge" if ref else ""
    return subprocess.run(
        [sys.executable, "-I", str(ROOT / "gendoc" / "ci" / "base_onnx.py"), str(tree)],
        env={
            **os.environ,
            "ONNX": head_onnx,
            "GITHUB_REPOSITORY": REPOSITORY,
            "GITHUB_WORKFLOW_REF": workflow_ref,
        },
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("          onnx: onnx==1.22.0  # pinned\n", "onnx==1.22.0"),
        ("          onnx: 'onnx-weekly==1.24.0.dev20261026'\n", "onnx-weekly==1.24.0.dev20261026"),
        ("          onnx: ${{ matrix.onnx }}\n", "onnx==1.23.2"),  # not literal: the PR's
        ("", ""),  # no onnx input: its default
        (None, "onnx==1.23.2"),  # no workflow on the base: the PR's
    ],
)
def test_base_onnx_is_the_base_workflows_input(
    tmp_path: Path, line: str | None, expected: str
) -> None:
    repo = new_repo(tmp_path)
    (repo / "README").write_text("toy\n")
    if line is not None:
        workflow = "\n".join(x for x in workflow_text("X").splitlines() if "onnx:" not in x)
        (repo / ".github" / "workflows").mkdir(parents=True)
        (repo / WORKFLOW).write_text(workflow + "\n" + line, encoding="utf-8")
    git_in(repo, "add", "-A")
    git_in(repo, "commit", "-q", "-m", "base")
    result = base_onnx(repo, "onnx==1.23.2")
    assert result.returncode == 0, result.stderr
    assert result.stdout == f"{expected}\n"
    assert result.stderr.startswith("::notice title=gendoc base side::onnx for the base commit: ")
    # A runner that does not name the workflow: the base's workflows that give onnx are read.
    unnamed = base_onnx(repo, "onnx==1.23.2", ref=False)
    assert unnamed.stdout == ("onnx==1.23.2\n" if expected == "" else f"{expected}\n")


# --- the action's text ---------------------------------------------------------------------


def test_token_is_given_to_the_posting_step_only_and_gendoc_runs_isolated() -> None:
    steps = ACTION["runs"]["steps"]
    with_token = [s.get("id") for s in steps if "token" in json.dumps(s.get("env", {}))]
    assert with_token == ["post"]
    # ... of the compare job, after every step that runs code of the pull request.
    post = next(s for s in steps if s.get("id") == "post")
    assert "inputs.job == 'compare'" in post["if"]
    runs = "\n".join(s.get("run", "") for s in steps)
    assert "PYTHONPATH" not in runs
    assert "GITHUB_ENV" not in runs and "GITHUB_PATH" not in runs  # outputs name interpreters
    gendoc_calls = re.findall(r"\"\$GENDOC_PYTHON\"[^\n]*", runs)
    assert len(gendoc_calls) == 4 and all(" -I -m gendoc.ci." in c for c in gendoc_calls)
    named = [s["env"]["GENDOC_PYTHON"] for s in steps if "GENDOC_PYTHON" in s.get("env", {})]
    assert named == ["${{ steps.install.outputs.python }}"] * 4
    assert "sed -i" not in runs and "readlink -f" not in runs  # GNU-only, not on macOS


def test_example_workflow_uses_the_action_in_two_jobs() -> None:
    """examples/docs-check.yml: the pull request's code where the token may only read."""
    text = (ROOT / "examples" / "docs-check.yml").read_text(encoding="utf-8")
    workflow = yaml.safe_load(text)
    assert {"pull_request", "push"} <= set(workflow[True])  # YAML 1.1 reads `on` as true
    assert workflow["permissions"] == {}
    assert "secrets." not in text and "<owner>/gendoc@v1" in text
    docs, compare = workflow["jobs"]["docs"], workflow["jobs"]["schema-diff"]
    assert docs["permissions"] == {"contents": "read"}
    assert compare["permissions"] == {"contents": "read", "pull-requests": "write"}
    assert compare["needs"] == "docs" and "pull_request" in compare["if"]
    for job, ref in ((docs, None), (compare, "${{ github.event.pull_request.base.sha }}")):
        checkout, ours = job["steps"]
        assert checkout["uses"].startswith("actions/checkout@")
        assert checkout["with"]["persist-credentials"] is False  # no token in .git/config
        assert checkout["with"].get("ref") == ref
        assert ours["uses"] == "./" and set(ours["with"]) <= set(ACTION["inputs"])
        assert ours["with"].get("job", "pull-request") == ("compare" if ref else "pull-request")
        assert ours["with"]["schemas"] == docs["steps"][1]["with"]["schemas"]
    committed = {"en": ROOT / "docs" / "Operators.md", "zh": ROOT / "docs" / "zh" / "Operators.md"}
    assert docs["steps"][1]["with"]["languages"].split() == list(committed)
    assert all(path.is_file() for path in committed.values())


def test_pull_request_code_that_takes_over_its_job_gets_no_token_and_hides_nothing(
    tmp_path: Path, github, pythons: dict[str, Path]
) -> None:
    """The schema module plants BASH_ENV, overrides the interpreters, prepends to PATH."""
    state, api = github
    repo = new_repo(tmp_path)
    base = commit(repo, "schemas", "diff_v1", "onnx==1.23.2", docs=False)
    git_in(repo, "checkout", "-q", "-b", "bump")
    head = commit(repo, "change a tag", "runner_hijack", "onnx==1.23.2", docs=False)
    event = pull_request_event(base, head, "opened")
    run = run_action(tmp_path / "run", repo, api, event, pythons, {"fail-on": "tag-change"})
    assert run.outcomes["check"] == "failure"  # no documents committed; the module ran

    # The attack was live: every later step of the first job ran the hook and the fake git.
    log = (tmp_path / "run" / "env-dumps" / "hook.log").read_text(encoding="utf-8")
    assert log.count("\nhook ") + log.startswith("hook ") >= 2  # export-head, cleanup
    assert "\ngit worktree remove" in log
    # It saw no token, and it never ran in the second job.
    assert TOKEN not in log
    assert str(tmp_path / "run" / "compare") not in log
    assert not [k for dump in run.env_dumps for k, v in dump.items() if TOKEN in v]
    assert state.tokens == {f"Bearer {TOKEN}"}  # the posting step's requests only
    # The tag change is shown, fails the job, and is posted.
    change = "- `com.example.Foo-2` input `Y`: undefined -> non-differentiable"
    assert run.outcomes["diff"] == "failure" and run.outcomes["post"] == "success"
    (ours,) = state.ours()
    assert change in ours["body"] and change in run.summary
    tag_error = "::error title=Differentiability tag change::com.example.Foo-2 input Y: "
    assert tag_error in run.stdout["diff"]


def _relink(path: Path, target: Path) -> None:
    path.unlink()
    path.symlink_to(target)


@pytest.mark.parametrize(
    ("make", "error"),
    [
        (lambda head: _relink(head, head.with_name("elsewhere.json")), "is not a regular file"),
        (lambda head: head.write_bytes(b" " * (MAX_SNAPSHOT_BYTES + 1)), "more than"),
        (lambda head: head.write_text('{"format": "gendoc-snapshot"'), "truncated"),
        (lambda head: head.with_name("head.missing.json").write_text('["os"]'), "not a list"),
    ],
)
def test_a_bad_artifact_is_one_error_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, make: Any, error: str
) -> None:
    """The compare job reads the first job's files as data: anything else is one error."""
    work = tmp_path / "gendoc"
    (work / "head").mkdir(parents=True)
    empty = dumps(Reference(onnx_version="1.23.2", schemas=()))
    for snapshot in (work / "base.json", work / "head" / "head.json"):
        snapshot.write_text(empty, encoding="utf-8")
        snapshot.with_name(snapshot.stem + ".missing.json").write_text("[]", encoding="utf-8")
    (work / "head" / "elsewhere.json").write_text(empty, encoding="utf-8")
    make(work / "head" / "head.json")
    for name, value in (("RUNNER_TEMP", str(tmp_path)), ("SCHEMAS", "opschemas")):
        monkeypatch.setenv(name, value)
    monkeypatch.delenv("GITHUB_STEP_SUMMARY", raising=False)
    output = io.StringIO()
    with contextlib.redirect_stdout(output):
        assert diff_step.main() == 2
    (line,) = output.getvalue().splitlines()
    assert line.startswith("::error title=gendoc diff::") and error in line
    assert not (work / "comment.json").exists()


def test_annotations_and_the_summary_show_control_and_bidi_characters_as_escapes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A stale document's path or a module's name from the pull request, as the steps write it."""
    name = "docs/\u202eOperators.md\x1b]0;t\x07"
    assert annotation("error", f"{name} is stale", title="Stale document", file=name) == (
        r"::error file=docs/\u202eOperators.md\x1b]0;t\x07,title=Stale document::"
        r"docs/\u202eOperators.md\x1b]0;t\x07 is stale"
    )
    summary = tmp_path / "summary.md"
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    append_summary(f"- `{name}`: stale")
    shown = r"- `docs/\u202eOperators.md\x1b]0;t\x07`: stale"
    assert summary.read_text(encoding="utf-8") == shown + "\n"
