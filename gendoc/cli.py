"""The command line: parse options, call the commands, print and write what they return.

The commands return values (:mod:`gendoc.commands`): this module prints them and
writes the files of ``export -o`` and ``suggest --out``/``--description``/``--out-dir``
(``build`` writes its documents itself: writing them is what it is for), and turns
failures into exit codes.

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

STDOUT = "-"
"""The output path that means standard output."""


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
    parser.add_argument(
        "--from",
        dest="snapshot",
        type=Path,
        metavar="FILE",
        help="render from this snapshot (gendoc export) instead of the installed onnx",
    )
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

    export = commands.add_parser("export", help="write the whole reference as one JSON file")
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
        help="onnxruntime[:PROVIDER] (CPU, CUDA, DirectML) or onnx-reference "
        "(repeatable; default: onnxruntime and onnx-reference)",
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
    from gendoc.api import build

    for path in build(
        args.out, _render_options(args), schemas=args.schemas, snapshot=args.snapshot
    ):
        print(f"wrote {path}", file=sys.stderr)
    return 0


def run_check(args: argparse.Namespace) -> int:
    from gendoc.commands.check import check
    from gendoc.present.check_report import format_check

    report = check(args.out, _render_options(args), schemas=args.schemas, snapshot=args.snapshot)
    sys.stdout.write(format_check(report, args.max_diff_lines))
    return report.exit_status()


def run_export(args: argparse.Namespace) -> int:
    from gendoc.commands.export import export
    from gendoc.console import write_stdout_bytes

    text = export(schemas=args.schemas)
    if args.output is None or str(args.output) == STDOUT:
        write_stdout_bytes(text.encode("utf-8"))
        return 0
    written = _write_file(args.output, text)
    print(f"{'wrote' if written else 'unchanged'} {args.output}", file=sys.stderr)
    return 0


def run_diff(args: argparse.Namespace) -> int:
    from gendoc.commands.diff import diff
    from gendoc.model.compare import FailOn
    from gendoc.present.diff_report import format_diff

    report = diff(args.old, args.new, schemas=args.schemas)
    fail_on = FailOn(args.fail_on)
    sys.stdout.write(format_diff(report, args.format, fail_on))
    return report.exit_status(fail_on)


def run_support(args: argparse.Namespace) -> int:
    """``gendoc support``: exit 1 when a runtime asked refuses an operator."""
    from gendoc.commands.support import report
    from gendoc.runtime.support_report import format_support

    found = report(args.model, args.runtime, training=args.training)
    sys.stdout.write(format_support(found, args.format))
    return found.exit_status()


def run_audit(args: argparse.Namespace) -> int:
    from gendoc.audit import AuditOptions
    from gendoc.audit.report import FORMATTERS, ReportFormat
    from gendoc.commands.audit import FAIL_ON
    from gendoc.commands.audit import run as audit_installed

    options = AuditOptions(
        domains=args.domain,
        ops=args.op,
        numeric=args.numeric,
        evidence=args.evidence,
        max_seconds=args.max_seconds,
        jobs=args.jobs,
    )
    report = audit_installed(args.schemas, options)
    sys.stdout.write(FORMATTERS[ReportFormat(args.format)](report, args.lang))
    return report.exit_status(FAIL_ON[args.fail_on])


def run_suggest(args: argparse.Namespace) -> int:
    from gendoc.commands.suggest import run
    from gendoc.console import write_stdout_bytes
    from gendoc.evidence.verdict import Strength
    from gendoc.storage.write import write_documents

    files = [p for p in (args.out, args.description) if p is not None and str(p) != STDOUT]
    _check_outputs(files, args.out_dir)
    result = run(
        args.onnx_src,
        Strength(args.min_evidence),
        newest_only=args.newest_only,
        whole_versions=args.whole_versions,
    )
    written: list[Path] = []
    if args.out_dir is not None:
        written += write_documents(args.out_dir, result.files())
        if result.scripts:
            written += write_documents(args.out_dir / "scripts", result.scripts)
    for path, text in ((args.out, result.patch), (args.description, result.description)):
        if path in files:
            written += _write_file(path, text)
    if str(args.out) == STDOUT or (args.out is None and args.out_dir is None):
        write_stdout_bytes(result.patch.encode("utf-8"))
    for path in written:
        print(f"wrote {path}", file=sys.stderr)
    if not result.patch:
        print(f"gendoc: nothing to change: {result.why_empty()}", file=sys.stderr)
    return 0


def _check_outputs(files: list[Path], out_dir: Path | None) -> None:
    """Refuse outputs that cannot be written before anything slow runs."""
    if len(set(files)) < len(files):
        raise UsageError(f"--out and --description name the same file: {files[0]}")
    for path in files:
        if path.is_dir():
            raise UsageError(f"output is a folder, not a file: {path}")
    if out_dir is not None and out_dir.exists() and not out_dir.is_dir():
        raise UsageError(f"--out-dir is a file, not a folder: {out_dir}")


def _write_file(path: Path, text: str) -> list[Path]:
    """Write ``text`` to ``path`` atomically, untouched if equal; a folder is refused."""
    from gendoc.storage.write import write_documents

    if path.is_dir():
        raise UsageError(f"output is a folder, not a file: {path}")
    return write_documents(path.parent, {path.name: text})


def _show_warning(message, category, filename, lineno, file=None, line=None) -> None:
    from gendoc.present.visible import visible

    print(f"gendoc: warning: {visible(str(message))}", file=sys.stderr)


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
            from gendoc.present.visible import visible

            print(f"gendoc: error: {visible(str(exc))}", file=sys.stderr)
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
