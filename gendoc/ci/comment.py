"""Post the schema diff on a pull request as one comment that later runs update.

``python -I gendoc/ci/comment.py COMMENT.json`` (as the action runs it, from its
own checkout, in the only step that is given the token) reads what the diff
step wrote, ``{"differences": bool, "body": str}``, the pull request number
from the event payload (``GITHUB_EVENT_PATH``) and talks to the REST API at
``GITHUB_API_URL`` with ``GITHUB_TOKEN``. Only the standard library is used and
nothing of the repository is imported, so the script runs with any Python.

The comment starts with a hidden marker. The comment to update is the first
one that starts with it *and* was written by the token's own account: a marker
in anyone else's comment is ignored, so no one can make the action overwrite
their comment. The account is what ``GET /user`` answers; the workflow's own
token may not ask that (GitHub answers 403), and its comments are
``github-actions[bot]``'s. So:

- differences, no comment yet: one is created;
- differences, a comment: it is edited;
- no differences, a comment (an earlier push had some): it is edited to say so;
- no differences, no comment: nothing is posted.

A token that may not write (a pull request from a fork gets a read-only one)
is not an error of the pull request: the script prints a warning, adds a note
to the job summary, and exits 0; the diff stays in the job summary.
"""

from __future__ import annotations

import json
import os
import sys
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

MARKER = "<!-- gendoc-diff -->"
MAX_BODY = 65_000  # GitHub refuses comment bodies over 65,536 characters
PAGE_SIZE = 100
TRUNCATED = "\n\n… cut here: the whole diff is in the job summary of this workflow run.\n"
WORKFLOW_TOKEN_ACCOUNT = "github-actions[bot]"
"""Who the workflow's own token writes as; GitHub refuses it ``GET /user``."""


class CommentError(Exception):
    """A request the API refused, or an event that is not a pull request."""

    def __init__(self, message: str, status: int | None = None) -> None:
        super().__init__(message)
        self.status = status


def comment_body(markdown: str) -> str:
    """The marker, then the diff, cut to what GitHub accepts."""
    body = f"{MARKER}\n{markdown}"
    if len(body) > MAX_BODY:
        body = body[: MAX_BODY - len(TRUNCATED)] + TRUNCATED
    return body


def pull_request_number(event_path: str) -> int:
    event = json.loads(Path(event_path).read_text(encoding="utf-8"))
    number = (event.get("pull_request") or {}).get("number")
    if not isinstance(number, int):
        raise CommentError(f"{event_path} is not a pull_request event")
    return number


class Api:
    """The few REST calls this script needs, with the token of the workflow."""

    def __init__(self, base: str, repository: str, token: str) -> None:
        self.base = base.rstrip("/")
        self.repository = repository
        self.token = token

    def call(self, method: str, path: str, payload: dict[str, str] | None = None) -> Any:
        request = urllib.request.Request(
            f"{self.base}/{path}",
            method=method,
            data=None if payload is None else json.dumps(payload).encode(),
            headers={
                "Accept": "application/vnd.github+json",
                "Authorization": f"Bearer {self.token}",
                "Content-Type": "application/json",
                "X-GitHub-Api-Version": "2022-11-28",
            },
        )
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return json.load(response)
        except urllib.error.HTTPError as exc:
            raise CommentError(f"{method} {path}: HTTP {exc.code} {exc.reason}", exc.code) from exc
        except (urllib.error.URLError, OSError, ValueError) as exc:
            raise CommentError(f"{method} {path}: {exc}") from exc

    def account(self) -> str:
        """The login the token writes as."""
        try:
            return str(self.call("GET", "user")["login"])
        except CommentError as exc:
            if exc.status in (401, 403):
                return WORKFLOW_TOKEN_ACCOUNT
            raise

    def own_comment(self, number: int, login: str) -> int | None:
        """The id of the first comment by ``login`` that starts with the marker, if any."""
        page = 1
        while True:
            comments = self.call(
                "GET",
                f"repos/{self.repository}/issues/{number}/comments"
                f"?per_page={PAGE_SIZE}&page={page}",
            )
            for comment in comments:
                author = (comment.get("user") or {}).get("login")
                if author == login and (comment.get("body") or "").startswith(MARKER):
                    return int(comment["id"])
            if len(comments) < PAGE_SIZE:
                return None
            page += 1


def post_or_update(api: Api, number: int, markdown: str, differences: bool) -> str:
    """Create, edit or leave the comment, as the module says; say which was done."""
    existing = api.own_comment(number, api.account())
    body = {"body": comment_body(markdown)}
    if existing is None:
        if not differences:
            return "no differences and no earlier comment: nothing posted"
        created = api.call("POST", f"repos/{api.repository}/issues/{number}/comments", body)
        return f"created comment {created.get('id')}"
    api.call("PATCH", f"repos/{api.repository}/issues/comments/{existing}", body)
    return f"updated comment {existing}"


def _skipped(reason: str) -> None:
    message = f"gendoc diff comment skipped: {reason}"
    print("::warning::" + message.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A"))
    summary = os.environ.get("GITHUB_STEP_SUMMARY")
    if summary:
        with open(summary, "a", encoding="utf-8") as file:
            file.write(f"\n> Note: the pull-request comment was not posted ({reason}).\n")


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python -I gendoc/ci/comment.py COMMENT.json", file=sys.stderr)
        return 2
    env = os.environ
    try:
        comment = json.loads(Path(argv[0]).read_text(encoding="utf-8"))
        number = pull_request_number(env["GITHUB_EVENT_PATH"])
        api = Api(
            env.get("GITHUB_API_URL", "https://api.github.com"),
            env["GITHUB_REPOSITORY"],
            env["GITHUB_TOKEN"],
        )
        done = post_or_update(api, number, str(comment["body"]), bool(comment["differences"]))
        print(f"gendoc: {done} on pull request #{number}")
    except KeyError as exc:
        _skipped(f"{exc.args[0]} is not set")
    except CommentError as exc:
        hint = " (a pull request from a fork gets a read-only token)" if exc.status == 403 else ""
        _skipped(f"{exc}{hint}")
    except (OSError, ValueError) as exc:
        _skipped(str(exc))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
