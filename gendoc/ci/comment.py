"""Post the schema diff on a pull request as one comment that later runs update.

``python gendoc/ci/comment.py DIFF.md`` (as the action runs it, from its own
checkout) or ``python -m gendoc.ci.comment DIFF.md`` reads the pull request number from the
event payload (``GITHUB_EVENT_PATH``) and talks to the REST API at
``GITHUB_API_URL`` with ``GITHUB_TOKEN``: the workflow's own token is enough.
The comment carries a hidden marker; a comment that has it is edited (PATCH)
instead of adding another one, so a pull request shows one current diff
however often it is pushed to. Only the standard library is used, so the
script runs with any Python, whatever is installed.

A token that may not write (a pull request from a fork gets a read-only
one) is not an error of the pull request: the script prints a warning
annotation and exits 0, and the diff stays in the job summary.
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


class CommentError(Exception):
    """A request the API refused, or an event that is not a pull request."""


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
            f"{self.base}/repos/{self.repository}/{path}",
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
            raise CommentError(f"{method} {path}: HTTP {exc.code} {exc.reason}") from exc
        except (urllib.error.URLError, OSError) as exc:
            raise CommentError(f"{method} {path}: {exc}") from exc

    def marked_comment(self, number: int) -> int | None:
        """The id of the first comment that carries the marker, if any."""
        page = 1
        while True:
            comments = self.call(
                "GET", f"issues/{number}/comments?per_page={PAGE_SIZE}&page={page}"
            )
            for comment in comments:
                if MARKER in (comment.get("body") or ""):
                    return int(comment["id"])
            if len(comments) < PAGE_SIZE:
                return None
            page += 1


def post_or_update(api: Api, number: int, markdown: str) -> str:
    """Edit the marked comment, or create it; say which was done."""
    body = {"body": comment_body(markdown)}
    existing = api.marked_comment(number)
    if existing is None:
        created = api.call("POST", f"issues/{number}/comments", body)
        return f"created comment {created.get('id')}"
    api.call("PATCH", f"issues/comments/{existing}", body)
    return f"updated comment {existing}"


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python -m gendoc.ci.comment DIFF.md", file=sys.stderr)
        return 2
    env = os.environ
    try:
        markdown = Path(argv[0]).read_text(encoding="utf-8")
        number = pull_request_number(env["GITHUB_EVENT_PATH"])
        api = Api(
            env.get("GITHUB_API_URL", "https://api.github.com"),
            env["GITHUB_REPOSITORY"],
            env["GITHUB_TOKEN"],
        )
        print(f"gendoc: {post_or_update(api, number, markdown)} on pull request #{number}")
    except KeyError as exc:
        print(f"::warning::gendoc diff comment skipped: {exc.args[0]} is not set")
    except (CommentError, OSError) as exc:
        print(f"::warning::gendoc diff comment skipped: {exc}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
