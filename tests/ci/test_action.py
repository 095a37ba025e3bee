"""The GitHub Action (``action.yml``) run locally, the way a runner runs it.

Its ``run:`` steps are executed with bash, as GitHub does for ``shell: bash``,
with the ``if:`` conditions, ``GITHUB_ENV`` and step outcomes a runner keeps,
in a scratch git repository whose pull request is pushed to. The API is a
fake one: an ``http.server`` on 127.0.0.1 that keeps comments in memory and
answers like GitHub (``GET /user`` refused to the workflow's token, a fork's
token refused writes), so nothing leaves the machine.

``actions/setup-python`` (a ``uses:`` step) is not run, and ``install``, which
fetches packages, runs in one test only, with a ``python`` that logs what pip
would install. Elsewhere its results stand in: the ``GENDOC_PYTHON`` and
``GENDOC_BASE_PYTHON`` that it writes to ``GITHUB_ENV`` are interpreters of small
virtualenvs made here, outside the repository, whose ``.pth`` file puts this
checkout's gendoc and the test environment's packages on the path. For the onnx
bump the base one also imports ``tests.custom_schemas.older_onnx`` at its start:
a base side whose onnx says it is 1.22.0 and has one operator more (installing
a second onnx needs the network). How ``install`` picks the base's onnx
(``gendoc/ci/base_onnx.py``) is tested on its own, below.
"""

from __future__ import annotations

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
DIFF_STEPS = {"base-checkout", "export", "diff", "post", "cleanup"}  # no check: faster


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
    """What install writes when the pull request keeps the base's onnx."""
    return {"GENDOC_PYTHON": interpreters["current"], "GENDOC_BASE_PYTHON": interpreters["current"]}


@pytest.fixture
def bumped(interpreters: dict[str, Path]) -> dict[str, Path]:
    """What install writes when the pull request bumps onnx from the (stand-in) older one."""
    return {"GENDOC_PYTHON": interpreters["current"], "GENDOC_BASE_PYTHON": interpreters["older"]}


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


def commit(repo: Path, message: str, module: str | None, onnx_requirement: str) -> str:
    """Write ``opschemas`` (registering MODULE, or absent), both languages' docs; commit."""
    (repo / ".github" / "workflows").mkdir(parents=True, exist_ok=True)
    (repo / WORKFLOW).write_text(workflow_text(onnx_requirement), encoding="utf-8")
    schemas = repo / "opschemas.py"
    if module is None:
        schemas.unlink(missing_ok=True)
    else:
        schemas.write_text(f"import tests.custom_schemas.{module}  # noqa: F401\n{_ENV_DUMP}")
    args = ["--schemas", "opschemas"] if module else []
    for out, lang in (("docs", "en"), ("docs/zh", "zh")):
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

_CONTEXT = re.compile(r"\b(github|inputs|steps)((?:\.[\w-]+)+)")


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
    text = str(value)
    if "${{" not in text:
        return text
    result = evaluate(text, context)
    return str(result).lower() if isinstance(result, bool) else str(result)


@dataclass
class Run:
    """What one run of the action left: each step's outcome and output, the summary."""

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
    """Run the action's steps (``steps``: only these) for one pull_request event."""
    tmp.mkdir(exist_ok=True)
    event_path = tmp / "event.json"
    event_path.write_text(json.dumps(event), encoding="utf-8")
    github = {"event_name": "pull_request", "event": event, "token": TOKEN}
    context: dict[str, Any] = {"github": github, "inputs": {}, "steps": {}}
    inputs = {"languages": "en zh", "schemas": "opschemas", **(inputs or {})}
    for name, spec in ACTION["inputs"].items():
        default = _env_value(spec.get("default", ""), context)
        context["inputs"][name] = inputs.get(name, default)
    runner_temp = tmp / "runner"
    runner_temp.mkdir(exist_ok=True)
    dumps = tmp / "env-dumps"
    dumps.mkdir()
    env_file, summary = tmp / "github_env", tmp / "summary.md"
    env_file.touch()
    summary.touch()
    env = {
        **{k: v for k, v in os.environ.items() if k != "GITHUB_TOKEN"},
        "PATH": os.pathsep.join(
            p for p in (path, str(Path(sys.executable).parent), os.environ["PATH"]) if p
        ),
        "GITHUB_ACTION_PATH": str(ROOT),
        "GITHUB_WORKSPACE": str(repo),
        "GITHUB_EVENT_NAME": "pull_request",
        "GITHUB_EVENT_PATH": str(event_path),
        "GITHUB_REPOSITORY": REPOSITORY,
        "GITHUB_WORKFLOW_REF": f"{REPOSITORY}/{WORKFLOW}@refs/pull/{PR_NUMBER}/merge",
        "GITHUB_API_URL": api,
        "GITHUB_ENV": str(env_file),
        "GITHUB_STEP_SUMMARY": str(summary),
        "RUNNER_TEMP": str(runner_temp),
        "RUNNER_OS": runner_os,
        "TOY_ENV_DUMP": str(dumps),
        # The stand-in older onnx has the installed onnx's files, which key the cache: off.
        "GENDOC_CACHE_DIR": "",
        **{name: str(path) for name, path in pythons.items()},  # what install writes
    }
    run = Run({}, {}, {}, "", [])
    for step in ACTION["runs"]["steps"]:
        if "uses" in step:
            continue
        if (steps and step["id"] not in steps) or (not steps and step["id"] in NOT_RUN):
            # Not run here; the interpreters it would make are given instead.
            context["steps"][step["id"]] = {"outcome": "success" if run.succeeded else "skipped"}
            continue
        # Without a status function (always(), !cancelled()) a step needs all before it to pass.
        condition = step.get("if", "true")
        status_free = "always()" not in condition and "!cancelled()" not in condition
        runs = evaluate(condition, context) and not (status_free and not run.succeeded)
        if not runs:
            run.outcomes[step["id"]] = "skipped"
            context["steps"][step["id"]] = {"outcome": "skipped"}
            continue
        assert step["shell"] == "bash"
        step_env = {k: _env_value(v, context) for k, v in step.get("env", {}).items()}
        script = tmp / f"{step['id']}.sh"
        script.write_text(step["run"], encoding="utf-8")
        result = subprocess.run(
            ["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)],
            cwd=repo,
            env={**env, **step_env},
            capture_output=True,
            text=True,
            timeout=600,
        )
        outcome = "success" if result.returncode == 0 else "failure"
        run.outcomes[step["id"]] = outcome
        context["steps"][step["id"]] = {"outcome": outcome}
        run.stdout[step["id"]], run.stderr[step["id"]] = result.stdout, result.stderr
        for line in env_file.read_text(encoding="utf-8").splitlines():
            key, _, value = line.partition("=")
            env[key] = value
    run.summary = summary.read_text(encoding="utf-8")
    run.env_dumps = [json.loads(p.read_text()) for p in sorted(dumps.iterdir())]
    return run


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
    stale = tmp_path / "run1" / "runner" / "gendoc" / "base"
    git_in(repo, "worktree", "add", "--quiet", "--detach", str(stale), base)
    shutil.rmtree(tmp_path / "run1" / "runner")  # the runner wiped its temporary folder
    broken = {"GENDOC_PYTHON": Path("/bin/false"), "GENDOC_BASE_PYTHON": Path("/bin/false")}
    event = pull_request_event(base, base, "opened")
    run = run_action(
        tmp_path / "run1",
        repo,
        api,
        event,
        broken,
        steps={"base-checkout", "export", "diff", "cleanup"},
    )
    assert run.outcomes == {
        "base-checkout": "success",
        "export": "failure",
        "diff": "skipped",
        "cleanup": "success",
    }
    assert git_in(repo, "worktree", "list", "--porcelain").count("worktree ") == 1
    assert not (tmp_path / "run1" / "runner" / "gendoc").exists()


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
    work = tmp_path / "run" / "runner" / "gendoc"
    work.mkdir(parents=True)
    body = "## ONNX operator changes\n\nnew differences\n"
    (work / "comment.json").write_text(json.dumps({"differences": True, "body": body}))
    event = pull_request_event("a" * 40, "b" * 40, "synchronize")
    run = run_action(tmp_path / "run", repo=tmp_path, api=api, event=event, pythons=pythons,
                     steps={"post"})  # fmt: skip
    assert run.succeeded, run.stderr
    assert state.writes() == [("PATCH", f"/repos/{REPOSITORY}/issues/comments/5002")]
    assert state.comments[-1]["body"] == f"{MARKER}\n{body}"
    assert state.comments[-2]["body"].endswith("another workflow")
    assert run.stdout["post"] == f"gendoc: updated comment 5002 on pull request #{PR_NUMBER}\n"


_PYTHON_STUB = """#!/bin/bash
# python for the install step: makes virtualenvs of itself, logs what pip would install.
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
    work = tmp_path / "run" / "runner" / "gendoc"
    assert log.read_text().splitlines() == [
        f"{work}/env/bin/python install --quiet onnx=={onnx.__version__} {ROOT}",
        f"{work}/env/bin/python install --quiet -r {repo}/requirements.txt",
        f"{work}/base-env/bin/python install --quiet onnx==1.22.0 {ROOT}",
        f"{work}/base-env/bin/python install --quiet -r {work}/base/requirements.txt",
    ]
    assert (work / "base" / "requirements.txt").read_text() == "numpy<3\n"
    assert "onnx for the base commit: the base workflow's onnx input" in run.stderr["install"]
    written = (tmp_path / "run" / "github_env").read_text().splitlines()
    assert written == [
        f"GENDOC_PYTHON={work}/env/bin/python",
        f"GENDOC_BASE_PYTHON={work}/base-env/bin/python",
    ]


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
    with_token = [s["id"] for s in steps if "token" in json.dumps(s.get("env", {}))]
    assert with_token == ["post"]
    runs = "\n".join(s.get("run", "") for s in steps)
    assert "PYTHONPATH" not in runs
    gendoc_calls = re.findall(r"\"\$\{GENDOC_[^\n]*", runs)
    assert len(gendoc_calls) == 4 and all(" -I -m gendoc.ci." in c for c in gendoc_calls)
    assert "sed -i" not in runs and "readlink -f" not in runs  # GNU-only, not on macOS


def test_example_workflow_uses_the_action_with_its_inputs() -> None:
    """examples/docs-check.yml: this action, declared inputs only, no secret."""
    text = (ROOT / "examples" / "docs-check.yml").read_text(encoding="utf-8")
    workflow = yaml.safe_load(text)
    assert {"pull_request", "push"} <= set(workflow[True])  # YAML 1.1 reads `on` as true
    assert workflow["permissions"] == {"contents": "read", "pull-requests": "write"}
    assert "secrets." not in text
    steps = workflow["jobs"]["docs"]["steps"]
    assert steps[0]["uses"].startswith("actions/checkout@")
    assert steps[0]["with"]["persist-credentials"] is False  # no token left in .git/config
    ours = [step for step in steps if step.get("uses") == "./"]
    assert len(ours) == 1 and "<owner>/gendoc@v1" in text
    assert set(ours[0]["with"]) <= set(ACTION["inputs"])
    committed = {"en": ROOT / "docs" / "Operators.md", "zh": ROOT / "docs" / "zh" / "Operators.md"}
    assert ours[0]["with"]["languages"].split() == list(committed)
    assert all(path.is_file() for path in committed.values())
