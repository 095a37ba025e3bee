"""The command line: parse options, call the stages, turn failures into exit codes.

Exit codes: 0 success; 1 a check found something (stale docs, differences,
audit findings at the chosen threshold); 2 bad input or usage.
"""

from __future__ import annotations

import argparse
import sys
import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import NoReturn

from gendoc import __version__
from gendoc.errors import GendocError, UsageError
from gendoc.present.render import LANGUAGES, STYLES, UNDEFINED_MODES, RenderOptions


class _Parser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one line, not a usage dump."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{message} (see '{self.prog} --help')")


def _add_schema_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--schemas",
        metavar="MODULE",
        action="append",
        default=[],
        help="import MODULE first; it registers extra schemas with onnx (repeatable)",
    )


def _add_render_options(parser: argparse.ArgumentParser) -> None:
    _add_schema_option(parser)
    parser.add_argument("--out", type=Path, default=Path("docs"), help="output folder")
    parser.add_argument("--style", choices=STYLES, default="gendoc", help="document layout")
    parser.add_argument("--lang", choices=LANGUAGES, default="en", help="language of labels")
    parser.add_argument(
        "--undefined",
        choices=UNDEFINED_MODES,
        default="tag",
        help="'tag' marks undefined parameters; 'statement' only explains them at the top",
    )
    parser.add_argument(
        "--templates", type=Path, metavar="DIR", help="folder of templates that override gendoc's"
    )
    parser.add_argument(
        "--no-schema-translation",
        dest="schema_translation",
        action="store_false",
        help="keep onnx's schema text in English when --lang is not en",
    )


def _add_fail_on(
    parser: argparse.ArgumentParser, choices: Sequence[str], default: str, when: str
) -> None:
    help = f"exit 1 on {when}, or never (default: {default})"
    parser.add_argument("--fail-on", choices=choices, default=default, help=help)


def _render_options(args: argparse.Namespace) -> RenderOptions:
    return RenderOptions(
        style=args.style,
        lang=args.lang,
        undefined=args.undefined,
        templates=args.templates,
        schema_translation=args.schema_translation,
    )


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="gendoc", description=__doc__.splitlines()[0])
    parser.add_argument("--version", action="version", version=f"gendoc {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    build = commands.add_parser("build", help="write Operators.md, Changelog.md and the -ml pair")
    _add_render_options(build)
    build.set_defaults(run=run_build)

    check = commands.add_parser("check", help="exit 1 when the documents on disk are stale")
    _add_render_options(check)
    check.add_argument(
        "--max-diff-lines", type=int, default=200, help="diff lines shown per stale file (200)"
    )
    check.set_defaults(run=run_check)

    export = commands.add_parser("export", help="write a JSON snapshot of the model")
    _add_schema_option(export)
    export.add_argument("-o", "--output", type=Path, help="file to write (default: stdout)")
    export.set_defaults(run=run_export)

    diff = commands.add_parser("diff", help="compare two snapshots (or 'installed')")
    _add_schema_option(diff)
    diff.add_argument("old", help="snapshot file, or 'installed'")
    diff.add_argument("new", help="snapshot file, or 'installed'")
    diff.add_argument(
        "--format",
        choices=("markdown", "json", "github"),
        default="markdown",
        help="markdown: a pull-request comment; json: for tools; github: Actions annotations",
    )
    _add_fail_on(
        diff,
        ("tag-change", "any", "never"),
        "never",
        "a changed differentiability tag, on any change",
    )
    diff.set_defaults(run=run_diff)

    audit = commands.add_parser("audit", help="lint the tags and test them numerically")
    _add_schema_option(audit)
    audit.add_argument("--domain", action="append", default=[], help="only this domain")
    audit.add_argument("--op", action="append", default=[], help="only this operator")
    audit.add_argument("--numeric", action="store_true", help="add finite-difference evidence")
    audit.add_argument(
        "--evidence",
        action="store_true",
        help="one verdict per parameter from PyTorch, onnxruntime's registry (and --numeric)",
    )
    audit.add_argument(
        "--format", choices=("text", "json", "markdown"), default="text", help="report format"
    )
    _add_fail_on(audit, ("error", "warning", "never"), "error", "a finding at least this severe")
    audit.add_argument(
        "--max-seconds", type=float, help="time budget of the numeric part (default: none)"
    )
    audit.add_argument("--jobs", type=int, default=0, help="worker processes (0: one per core)")
    audit.add_argument("--lang", choices=LANGUAGES, default="en", help="language of the report")
    audit.set_defaults(run=run_audit)

    support = commands.add_parser(
        "support", help="where a model's operators run (and train): kernels, tests, gradients"
    )
    support.add_argument("model", type=Path, help="an ONNX model file (its weights are not read)")
    support.add_argument(
        "--runtime",
        action="append",
        default=[],
        metavar="NAME",
        help="onnxruntime[:CPU] or onnx-reference (repeatable; default: both)",
    )
    support.add_argument(
        "--format", choices=("text", "json", "markdown"), default="text", help="report format"
    )
    support.add_argument(
        "--training", action="store_true", help="add the gradient sources and the nodes that block"
    )
    support.set_defaults(run=run_support)

    suggest = commands.add_parser("suggest", help="a patch to onnx's sources from the evidence")
    suggest.add_argument(
        "--onnx-src", type=Path, required=True, metavar="DIR", help="onnx checkout to patch"
    )
    suggest.add_argument(
        "--out-dir",
        type=Path,
        metavar="DIR",
        help="write suggest.patch, description.md, parameters.md/.csv and scripts/ here",
    )
    suggest.add_argument(
        "--out",
        type=Path,
        metavar="PATCH",
        help="patch file to write (default: stdout unless --out-dir)",
    )
    suggest.add_argument("--description", type=Path, metavar="FILE", help="pull-request text")
    suggest.add_argument(
        "--newest-only", action="store_true", help="touch only the newest version of each operator"
    )
    suggest.add_argument(
        "--whole-versions",
        action="store_true",
        help="touch only versions the evidence tags completely (none left partly tagged)",
    )
    suggest.add_argument(
        "--min-evidence",
        choices=("strong", "weak"),
        default="strong",
        help="strong: two agreeing sources (default); weak: one is enough",
    )
    suggest.set_defaults(run=run_suggest)
    return parser


def run_build(args: argparse.Namespace) -> int:
    from gendoc.commands.build import build

    for path in build(args.out, _render_options(args), schemas=args.schemas):
        print(f"wrote {path}", file=sys.stderr)
    return 0


def run_check(args: argparse.Namespace) -> int:
    from gendoc.commands.check import check, format_check

    report = check(args.out, _render_options(args), schemas=args.schemas)
    sys.stdout.write(format_check(report, args.max_diff_lines))
    return report.exit_status()


def run_export(args: argparse.Namespace) -> int:
    from gendoc.collect import installed
    from gendoc.model.snapshot import dump_snapshot

    return dump_snapshot(installed.reference(args.schemas, with_examples=False), args.output)


def run_diff(args: argparse.Namespace) -> int:
    from gendoc.commands.diff import FailOn, diff, format_diff

    report = diff(args.old, args.new, schemas=args.schemas)
    fail_on = FailOn(args.fail_on)
    sys.stdout.write(format_diff(report, args.format, fail_on))
    return report.exit_status(fail_on)


def run_support(args: argparse.Namespace) -> int:
    """``gendoc support``: exit 1 when a runtime asked refuses an operator."""
    from gendoc.commands.support import run

    return run(args.model, args.runtime, training=args.training, report_format=args.format)


def run_audit(args: argparse.Namespace) -> int:
    import gendoc.collect.schemas  # noqa: F401 - a one-line error when onnx is missing or too old
    from gendoc.audit import AuditOptions
    from gendoc.commands.audit import FAIL_ON, ReportFormat
    from gendoc.commands.audit import run as run_audit_command

    options = AuditOptions(
        domains=args.domain,
        ops=args.op,
        numeric=args.numeric,
        evidence=args.evidence,
        max_seconds=args.max_seconds,
        jobs=args.jobs,
    )
    return run_audit_command(
        args.schemas,
        options,
        report_format=ReportFormat(args.format),
        fail_on=FAIL_ON[args.fail_on],
        lang=args.lang,
    )


def run_suggest(args: argparse.Namespace) -> int:
    from gendoc.commands.suggest import Outputs, run
    from gendoc.evidence.verdict import Strength

    run(
        args.onnx_src,
        Outputs(args.out, args.description, args.out_dir),
        Strength(args.min_evidence),
        newest_only=args.newest_only,
        whole_versions=args.whole_versions,
    )
    return 0


def _show_warning(message, category, filename, lineno, file=None, line=None) -> None:
    print(f"gendoc: warning: {message}", file=sys.stderr)


def main(argv: Sequence[str] | None = None) -> int:
    from gendoc.console import (
        exit_code_of,
        flush_stdout,
        silence_stdout,
        stop_signals_raise,
        tolerate_unencodable_text,
    )

    warnings.showwarning = _show_warning
    tolerate_unencodable_text()
    with stop_signals_raise():
        try:
            args = build_parser().parse_args(argv)
            code = args.run(args)
            flush_stdout()
            return code
        except GendocError as exc:
            print(f"gendoc: error: {exc}", file=sys.stderr)
            return exc.exit_code
        except KeyboardInterrupt as exc:
            print(f"gendoc: interrupted{f' by {exc}' if str(exc) else ''}", file=sys.stderr)
            return exit_code_of(exc)
        except BrokenPipeError:
            # the reader went away (``gendoc diff ... | head``): not an error of ours
            silence_stdout()
            return 0


if __name__ == "__main__":
    sys.exit(main())
