"""The GitHub Action (``action.yml``) run locally, the way a runner runs it.

Its ``run:`` steps are executed with bash, as GitHub does for ``shell: bash``,
in a scratch git repository with two pushes to a pull request. The API is a
fake one: an ``http.server`` on 127.0.0.1 that keeps comments in memory, so
nothing leaves the machine. Two steps are not run: ``actions/setup-python``
(a ``uses:`` step) and ``install``, which fetches packages; the gendoc of this
checkout stands in for both, and ``GENDOC_BASE_PYTHON`` is what ``install``
would have written to ``GITHUB_ENV``.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
import yaml

from tests.helpers import ROOT

ACTION = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))
NOT_RUN = {"install"}  # fetches packages; this checkout's gendoc stands in for it
REPOSITORY = "octo-org/opdocs"
PR_NUMBER = 7
MARKER = "<!-- gendoc-diff -->"
OTHER_COMMENTS = 100  # a full first page, so finding the marker needs page 2


@dataclass
class FakeGitHub:
    """Issue comments of one pull request, and every request received."""

    comments: list[dict[str, Any]] = field(default_factory=list)
    requests: list[tuple[str, str]] = field(default_factory=list)
    tokens: set[str] = field(default_factory=set)
    next_id: int = 1000


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
            if path != comments_path:
                return self._reply(404, {"message": "Not Found"})
            size, page = int(query["per_page"][0]), int(query["page"][0])
            self._reply(200, state.comments[(page - 1) * size : page * size])

        def do_POST(self) -> None:
            path, _ = self._start()
            if path != comments_path:
                return self._reply(404, {"message": "Not Found"})
            state.next_id += 1
            state.comments.append({"id": state.next_id, "body": self._body()})
            self._reply(201, state.comments[-1])

        def do_PATCH(self) -> None:
            path, _ = self._start()
            match = comment_path.fullmatch(path)
            found = [c for c in state.comments if match and c["id"] == int(match[1])]
            if not found:
                return self._reply(404, {"message": "Not Found"})
            found[0]["body"] = self._body()
            self._reply(200, found[0])

    return Handler


@pytest.fixture
def github() -> Iterator[tuple[FakeGitHub, str]]:
    state = FakeGitHub(comments=[{"id": i, "body": f"review {i}"} for i in range(OTHER_COMMENTS)])
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(state))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield state, f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


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


def _commit_schemas(repo: Path, module: str) -> str:
    """Make ``opschemas`` register MODULE's state, rebuild docs/, commit; return the sha."""
    (repo / "opschemas.py").write_text(f"import tests.custom_schemas.{module}  # noqa: F401\n")
    build = subprocess.run(
        [sys.executable, "-m", "gendoc", "build", "--out", "docs", "--schemas", "opschemas"],
        cwd=repo,
        env={**os.environ, "PYTHONPATH": f"{repo}{os.pathsep}{ROOT}"},
        capture_output=True,
        text=True,
    )
    assert build.returncode == 0, build.stderr
    git_in(repo, "add", "-A")
    git_in(repo, "commit", "-q", "-m", f"schemas of {module}")
    return git_in(repo, "rev-parse", "HEAD")


_CONTEXT = re.compile(r"\b(github|inputs)((?:\.[\w-]+)+)")


def evaluate(expression: str, context: dict[str, Any]) -> Any:
    """The few GitHub expressions action.yml uses: context values, ==, &&, !cancelled()."""
    inner = expression.strip().removeprefix("${{").removesuffix("}}").strip()

    def lookup(match: re.Match[str]) -> str:
        value: Any = context[match[1]]
        for key in match[2].lstrip(".").split("."):
            value = value[key]
        return repr(value)

    python = _CONTEXT.sub(lookup, inner)
    python = python.replace("!cancelled()", "True").replace("&&", " and ").replace("||", " or ")
    assert not re.search(r"[!]\w", python), f"unsupported expression: {expression}"
    return eval(python, {"__builtins__": {}}, {"True": True, "False": False})


def _env_value(value: Any, context: dict[str, Any]) -> str:
    text = str(value)
    if "${{" not in text:
        return text
    result = evaluate(text, context)
    return str(result).lower() if isinstance(result, bool) else str(result)


def run_action(tmp: Path, repo: Path, api: str, event: dict[str, Any], inputs: dict[str, str]):
    """Run the action's steps for one pull_request event; return (stdout, summary text)."""
    tmp.mkdir()
    event_path = tmp / "event.json"
    event_path.write_text(json.dumps(event), encoding="utf-8")
    github = {"event_name": "pull_request", "event": event, "token": "ghs-test-token"}
    context: dict[str, Any] = {"github": github, "inputs": {}}
    for name, spec in ACTION["inputs"].items():
        default = _env_value(spec.get("default", ""), context)
        context["inputs"][name] = inputs.get(name, default)
    (tmp / "runner").mkdir()
    env_file, summary = tmp / "github_env", tmp / "summary.md"
    env_file.touch()
    env = {
        **os.environ,
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
        "PYTHONPATH": str(ROOT),
        "GITHUB_ACTION_PATH": str(ROOT),
        "GITHUB_WORKSPACE": str(repo),
        "GITHUB_EVENT_NAME": "pull_request",
        "GITHUB_EVENT_PATH": str(event_path),
        "GITHUB_REPOSITORY": REPOSITORY,
        "GITHUB_API_URL": api,
        "GITHUB_ENV": str(env_file),
        "GITHUB_STEP_SUMMARY": str(summary),
        "RUNNER_TEMP": str(tmp / "runner"),
        "GENDOC_BASE_PYTHON": sys.executable,
    }
    output = []
    for step in ACTION["runs"]["steps"]:
        if "uses" in step or step["id"] in NOT_RUN:
            continue
        if "if" in step and not evaluate(step["if"], context):
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
        assert result.returncode == 0, f"step {step['id']}: {result.stderr}"
        output.append(result.stdout)
        for line in env_file.read_text(encoding="utf-8").splitlines():
            key, _, value = line.partition("=")
            env[key] = value
    return "".join(output), summary.read_text(encoding="utf-8")


def _pull_request_event(base: str, head: str, action: str) -> dict[str, Any]:
    """The fields of GitHub's pull_request event payload that the action reads."""
    return {
        "action": action,
        "number": PR_NUMBER,
        "pull_request": {
            "number": PR_NUMBER,
            "base": {"ref": "main", "sha": base},
            "head": {"ref": "relax-foo", "sha": head},
        },
        "repository": {"full_name": REPOSITORY},
    }


def test_pull_request_gets_one_comment_updated_on_each_push(tmp_path: Path, github) -> None:
    state, api = github
    repo = tmp_path / "repo"
    repo.mkdir()
    git_in(repo, "init", "-q", "-b", "main")
    base = _commit_schemas(repo, "diff_v1")
    git_in(repo, "checkout", "-q", "-b", "relax-foo")
    inputs = {"schemas": "opschemas"}

    head = _commit_schemas(repo, "diff_v1_tag")
    event = _pull_request_event(base, head, "opened")
    output, summary = run_action(tmp_path / "push1", repo, api, event, inputs)

    ours = [c for c in state.comments if MARKER in c["body"]]
    assert len(ours) == 1 and len(state.comments) == OTHER_COMMENTS + 1
    first = ours[0]
    assert first["body"].startswith(MARKER + "\n")
    assert "non-differentiable" in first["body"] and "Foo" in first["body"]
    assert first["body"].removeprefix(MARKER + "\n") in summary
    assert ("POST", f"/repos/{REPOSITORY}/issues/{PR_NUMBER}/comments") in state.requests
    assert not [r for r in state.requests if r[0] == "PATCH"]
    assert state.tokens == {"Bearer ghs-test-token"}
    annotations = [line for line in output.splitlines() if line.startswith("::")]
    assert annotations and all("title=Differentiability tag change::" in a for a in annotations)
    assert "com.example" in annotations[0] and "Foo" in annotations[0]

    state.requests.clear()
    head = _commit_schemas(repo, "diff_v2")  # the same tag change, and an input added
    event = _pull_request_event(base, head, "synchronize")
    output, summary = run_action(tmp_path / "push2", repo, api, event, inputs)

    ours = [c for c in state.comments if MARKER in c["body"]]
    assert ours == [first] and len(state.comments) == OTHER_COMMENTS + 1
    assert ("PATCH", f"/repos/{REPOSITORY}/issues/comments/{first['id']}") in state.requests
    assert not [r for r in state.requests if r[0] == "POST"]
    assert "scale" in first["body"]  # the added input shows in the updated comment
    assert first["body"].removeprefix(MARKER + "\n") in summary
    assert any(a.startswith("::") and "Operator change" in a for a in output.splitlines())


def test_read_only_token_warns_and_keeps_the_job_green(tmp_path: Path) -> None:
    """A fork's pull request gets a token that may not comment: a warning, exit 0."""

    class Refuse(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: object) -> None:
            pass

        def do_GET(self) -> None:
            self.send_response(403)
            self.send_header("Content-Length", "2")
            self.end_headers()
            self.wfile.write(b"{}")

    server = ThreadingHTTPServer(("127.0.0.1", 0), Refuse)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    event = tmp_path / "event.json"
    event.write_text(json.dumps(_pull_request_event("a" * 40, "b" * 40, "opened")))
    diff = tmp_path / "diff.md"
    diff.write_text("No differences.\n")
    try:
        result = subprocess.run(
            [sys.executable, str(ROOT / "gendoc" / "ci" / "comment.py"), str(diff)],
            env={
                **os.environ,
                "GITHUB_API_URL": f"http://127.0.0.1:{server.server_address[1]}",
                "GITHUB_EVENT_PATH": str(event),
                "GITHUB_REPOSITORY": REPOSITORY,
                "GITHUB_TOKEN": "read-only",
            },
            capture_output=True,
            text=True,
            timeout=60,
        )
    finally:
        server.shutdown()
        server.server_close()
        thread.join()
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("::warning::gendoc diff comment skipped: GET ")
    assert "HTTP 403" in result.stdout and result.stdout.count("\n") == 1


def test_example_workflow_uses_the_action_with_its_inputs() -> None:
    """examples/docs-check.yml: this action, declared inputs only, no secret."""
    text = (ROOT / "examples" / "docs-check.yml").read_text(encoding="utf-8")
    workflow = yaml.safe_load(text)
    assert {"pull_request", "push"} <= set(workflow[True])  # YAML 1.1 reads `on` as true
    assert workflow["permissions"] == {"contents": "read", "pull-requests": "write"}
    assert "secrets." not in text
    steps = workflow["jobs"]["docs"]["steps"]
    assert steps[0]["uses"].startswith("actions/checkout@")
    ours = [step for step in steps if step.get("uses") == "./"]
    assert len(ours) == 1 and "<owner>/gendoc@v1" in text
    assert set(ours[0]["with"]) <= set(ACTION["inputs"])
    committed = {"en": ROOT / "docs" / "Operators.md", "zh": ROOT / "docs" / "zh" / "Operators.md"}
    assert ours[0]["with"]["languages"].split() == list(committed)
    assert all(path.is_file() for path in committed.values())
