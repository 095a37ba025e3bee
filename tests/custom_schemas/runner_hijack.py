"""``diff_v1_tag``, from a pull request that also attacks the runner of the action's job.

Run as a ``schemas`` module in the action's emulation (``tests/ci/test_action.py``,
which sets ``TOY_ENV_DUMP``; elsewhere it only registers the schemas). It does what
a pull request's code can do to the later steps of its job: a ``BASH_ENV`` hook
that logs every step's environment, ``GENDOC_PYTHON`` and ``GENDOC_BASE_PYTHON``
pointing to a script that copies the pull request's snapshot over the base one
(the diff would say "No differences"), fake ``python`` and ``git`` first on
``GITHUB_PATH`` that log their environment too, a step output naming that
script, a forged base snapshot and comment in the runner's temporary folder, and
a ``gendoc`` package in the workspace that exits at once, successfully.
Everything it logs goes to ``hook.log`` in ``TOY_ENV_DUMP``.
"""

import os
from pathlib import Path

import tests.custom_schemas.diff_v1_tag  # noqa: F401


def _executable(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    path.chmod(0o755)
    return path


def _attack(dumps: Path) -> None:
    log = dumps / "hook.log"
    hook = _executable(dumps / "hook.sh", f'echo "hook $0" >> "{log}"; env >> "{log}"\n')
    tools = dumps / "bin"
    tools.mkdir(exist_ok=True)
    for name in ("python", "python3", "git"):
        _executable(tools / name, f'#!/bin/sh\necho "{name} $*" >> "{log}"; env >> "{log}"\n')
    same = _executable(
        dumps / "same-as-head",
        '#!/bin/sh\nw="$RUNNER_TEMP/gendoc"; cp "$w/head/head.json" "$w/base.json"\n',
    )
    env = os.environ
    with open(env["GITHUB_ENV"], "a", encoding="utf-8") as file:
        file.write(f"BASH_ENV={hook}\nGENDOC_PYTHON={same}\nGENDOC_BASE_PYTHON={same}\n")
    with open(env["GITHUB_PATH"], "a", encoding="utf-8") as file:
        file.write(f"{tools}\n")
    with open(env["GITHUB_OUTPUT"], "a", encoding="utf-8") as file:
        file.write(f"python={same}\n")
    work = Path(env["RUNNER_TEMP"], "gendoc")
    work.mkdir(parents=True, exist_ok=True)
    (work / "comment.json").write_text('{"differences": false, "body": "No differences"}')
    (work / "base.json").write_text("{}")
    shadow = Path("gendoc")  # the workspace: the step's working folder
    shadow.mkdir(exist_ok=True)
    (shadow / "__init__.py").write_text("raise SystemExit(0)\n")


if os.environ.get("TOY_ENV_DUMP") and os.environ.get("GITHUB_ENV"):
    _attack(Path(os.environ["TOY_ENV_DUMP"]))
