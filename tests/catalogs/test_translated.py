"""Translations are data: a hostile catalog can neither run code nor add markup.

The catalogs here are written the way a pull request would bring them: a
``--templates`` folder's ``locale/zh/LC_MESSAGES/gendoc.po``. A translation
that reaches into an object through a placeholder is refused when the
catalog is loaded (one line naming the file and the entry, exit 2); markup
that its msgid does not have comes out as text in every output.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import write_po

from gendoc.audit.messages import say
from gendoc.catalogs.i18n import catalog_path, translations
from gendoc.catalogs.translated import check, fields, neutralised, substitute
from gendoc.errors import UsageError
from tests.helpers import run_gendoc

SECRET = "gendoc-test-secret-7d1f"
# What a translation once used to read the environment through str.format.
SECRET_READ = (
    "{old.__class__.__init__.__globals__[os].environ[GENDOC_TEST_SECRET]} in {before} to {new}"
)
TAG_CHANGED = "tag changed from {old} in version {before} to {new}"

IMAGE = '<img src="x" onerror="document.title=\'pwned-img\'">'
MARKDOWN = "![t](https://track.example/t.png) [l](https://evil.example/l)"
ADDRESSES = "a@evil.example www.evil.example https://evil.example/x"
HOSTILE_LABELS = {
    "differentiable": f"可微{IMAGE}",
    "Operator": f"算子 {MARKDOWN} {ADDRESSES} <script>document.title='pwned-script'</script>",
    "Contents": "目录\r\n\r\n# injected heading\r\r<div>&#13;",
    "Attributes": "属性<svg onload=\"document.title='pwned-svg'\">",
    "Inputs": '输入](javascript:alert(1)) <a href="javascript:alert(1)">x</a>',
}


def write_catalog(folder: Path, messages: dict[str, str], lang: str = "zh") -> Path:
    """A ``--templates`` folder whose ``gendoc.po`` translates ``messages``."""
    catalog = Catalog(locale="zh_Hans_CN" if lang == "zh" else lang, domain="gendoc")
    for msgid, msgstr in messages.items():
        catalog.add(msgid, msgstr)
    path = catalog_path(folder, lang)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as f:
        write_po(f, catalog)
    return path


# --- placeholders ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("msgid", "msgstr"),
    [
        (TAG_CHANGED, SECRET_READ),
        (TAG_CHANGED, "{old[0]} {before} {new}"),
        (TAG_CHANGED, "{old!r} {before} {new}"),
        (TAG_CHANGED, "{old} {before} {new} {sources}"),
        (TAG_CHANGED, "{old:{before.__class__}} {before} {new}"),
        (TAG_CHANGED, "{old} {before} {new} {"),
        ("zero at all {probes} probes", "{probes:>{probes}}"),
        ("Version %(version)s", "%(version)r"),
        ("Version %(version)s", "%(version)s 100%"),
        ("Version %(version)s", "%(version)s %(domain)s"),
        ("Version %(version)s", "第版"),
        ("Contents", "{params.__class__}"),
        ("Contents", "%(x)s"),
        ("Inputs", '输入 {: onclick="alert(1)" }'),
    ],
)
def test_a_translation_that_is_more_than_text_is_refused(msgid: str, msgstr: str) -> None:
    assert check((msgid,), msgstr) is not None


@pytest.mark.parametrize(
    ("msgid", "msgstr"),
    [
        (TAG_CHANGED, "标签由第 {before} 版的{old}变为{new}"),
        ("at {nonzero} of {probes} (|slope| up to {slope:.3g})", "{probes} {nonzero} {slope:.3g}"),
        ("Version %(version)s", "第 %(version)s 版"),
        ("%(num)s of %(total)s", "%(total)s 中的 %(num)s（100%%）"),
        ("Contents", "目录"),
    ],
)
def test_a_faithful_translation_passes(msgid: str, msgstr: str) -> None:
    assert check((msgid,), msgstr) is None


def test_a_plural_form_may_leave_a_placeholder_out_but_never_add_one() -> None:
    assert check(("one error", "%(num)s errors"), "一个错误") is None
    assert check(("one error", "%(num)s errors"), "%(num)s %(x)s") is not None


def test_substitution_reads_names_and_nothing_else() -> None:
    os.environ["GENDOC_TEST_SECRET"] = SECRET
    message = say(TAG_CHANGED, old="a", before=1, new="b")
    shown = message.format(lambda _: SECRET_READ)
    assert SECRET not in shown
    assert shown == SECRET_READ.replace("{before}", "1").replace("{new}", "b")
    assert substitute("{slope:.3g} {{x}}", {"slope": 1.23456}) == "1.23 {x}"
    # str.format would have followed the attribute: the check above can fail.
    attribute = "{old.__class__.__name__} {before} {new}"
    assert attribute.format(old=message, before=1, new="b") == "Message 1 b"
    assert message.format(lambda _: attribute) == attribute.replace("{before}", "1").replace(
        "{new}", "b"
    )
    assert fields("{a} {b:.3g} {{c}}") == {("a", ""), ("b", ".3g")}


def test_a_hostile_catalog_is_refused_when_loaded(tmp_path: Path) -> None:
    path = write_catalog(tmp_path, {"Contents": "目录", TAG_CHANGED: SECRET_READ})
    with pytest.raises(UsageError) as refused:
        translations("zh", tmp_path)
    message = str(refused.value)
    assert message.startswith(f"{path}:")
    assert "tag changed from" in message and "\n" not in message


def test_build_refuses_a_hostile_user_catalog_in_one_line(tmp_path: Path) -> None:
    templates = tmp_path / "templates"
    path = write_catalog(templates, {"Operator": "算子", TAG_CHANGED: SECRET_READ})
    out = tmp_path / "out"
    result = run_gendoc(
        "build",
        "--lang",
        "zh",
        "--templates",
        str(templates),
        "--out",
        str(out),
        env={"GENDOC_TEST_SECRET": SECRET},
    )
    assert result.returncode == 2
    assert SECRET not in result.stdout + result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and str(path) in lines[0] and "Traceback" not in result.stderr
    assert not out.exists()


# --- markup -----------------------------------------------------------------------------------


def test_markup_the_msgid_lacks_becomes_character_references() -> None:
    shown = neutralised(("differentiable",), f"可微{IMAGE}")
    assert "<" not in shown and ">" not in shown and '"' not in shown
    assert shown.startswith("可微&#60;img")
    assert neutralised(("Contents",), "目\r\n录") == "目  录"
    assert "&#91;" in neutralised(("Operator",), MARKDOWN)
    # What the msgid has, the translation may have: the long statement uses emphasis.
    assert neutralised(("*a* `b`",), "*甲* `乙`") == "*甲* `乙`"


def test_the_shipped_catalogs_are_shown_exactly_as_written() -> None:
    from babel.messages.pofile import read_po

    from gendoc.storage.resources import templates_root

    with catalog_path(templates_root(), "zh").open("rb") as f:
        shipped = read_po(f)
    zh = translations("zh")
    compared = 0
    for message in shipped:
        if message.id and not message.fuzzy and isinstance(message.id, str):
            shown = zh.pgettext(message.context, message.id) if message.context else None
            assert (shown or zh.gettext(message.id)) == message.string
            compared += 1
    assert compared > 100


def test_hostile_labels_are_text_in_the_documents(tmp_path: Path) -> None:
    templates = tmp_path / "templates"
    write_catalog(templates, HOSTILE_LABELS)
    out = tmp_path / "out"
    result = run_gendoc("build", "--lang", "zh", "--templates", str(templates), "--out", str(out))
    assert result.returncode == 0, result.stderr
    text = (out / "Operators.md").read_text(encoding="utf-8")
    assert "可微&#60;img src&#61;" not in text  # '=' is not markup: kept
    shown = "&#60;img src=&#34;x&#34; onerror=&#34;document.title=&#39;pwned-img&#39;&#34;&#62;"
    assert f"可微{shown}" in text
    for raw in (IMAGE, "<script>", "<svg", "![t]", "[l](", "\r", "\n# injected"):
        assert raw not in text


# --- the repository's own catalog, through the audit -----------------------------------------

GD008 = "every floating-point parameter is undefined: {params}"
# Runs the command line with gendoc's own templates folder replaced by argv[1], as a pull
# request that edits templates/locale/zh/LC_MESSAGES/gendoc.po would.
WITH_TEMPLATES_ROOT = """
import sys
from pathlib import Path
import gendoc.storage.resources
gendoc.storage.resources.templates_root = lambda: Path(sys.argv[1])
from gendoc.cli import main
sys.exit(main(sys.argv[2:]))
"""


def _edited_templates(tmp_path: Path, msgid: str, msgstr: str) -> Path:
    """gendoc's templates folder with one translation of its Chinese catalog replaced."""
    from babel.messages.pofile import read_po

    from gendoc.storage.resources import templates_root

    root = tmp_path / "templates"
    for child in templates_root().iterdir():
        if child.name != "locale":
            (root / child.name).parent.mkdir(parents=True, exist_ok=True)
            (root / child.name).symlink_to(child)
    shipped = catalog_path(templates_root(), "zh")
    edited = catalog_path(root, "zh")
    edited.parent.mkdir(parents=True)
    with shipped.open("rb") as f:
        catalog = read_po(f)
    catalog[msgid].string = msgstr
    with edited.open("wb") as f:
        write_po(f, catalog)
    return root


def _audit(root: Path, fmt: str) -> subprocess.CompletedProcess[str]:
    args = ["audit", "--lang", "zh", "--format", fmt, "--fail-on", "never"]
    return subprocess.run(
        [sys.executable, "-c", WITH_TEMPLATES_ROOT, str(root), *args],
        capture_output=True,
        text=True,
        env={**os.environ, "GENDOC_TEST_SECRET": SECRET},
        timeout=600,
    )


def test_the_audit_refuses_a_catalog_that_reads_secrets(tmp_path: Path) -> None:
    root = _edited_templates(
        tmp_path, GD008, "{params.__init__.__globals__[os].environ[GENDOC_TEST_SECRET]}"
    )
    result = _audit(root, "markdown")
    assert result.returncode == 2
    assert SECRET not in result.stdout + result.stderr
    assert len(result.stderr.strip().splitlines()) == 1 and GD008 in result.stderr


@pytest.mark.parametrize("fmt", ["text", "markdown", "json"])
def test_html_in_the_audits_translation_is_text(tmp_path: Path, fmt: str) -> None:
    root = _edited_templates(tmp_path, GD008, f"{IMAGE}所有浮点参数均未定义：{{params}}")
    result = _audit(root, fmt)
    assert result.returncode == 0, result.stderr
    assert "<img" not in result.stdout and 'onerror="' not in result.stdout
    if fmt != "json":  # the JSON report is English: message ids and arguments
        assert result.stdout.count("所有浮点参数均未定义") > 100
        assert "&#60;img" in result.stdout


def test_a_tag_survives_only_if_the_msgid_has_that_very_tag() -> None:
    msgid = ("Use <code>gendoc build</code> -> done &amp; dusted",)
    shown = neutralised(msgid, "用 <code>gendoc build</code> <script>x</script> <code onclick=x>")
    assert shown.startswith("用 <code>gendoc build</code> &#60;script>x&#60;/script>")
    assert "<code onclick" not in shown
    assert neutralised(msgid, "&amp; &#13; &lt;") == "&amp; &#38;&#35;13; &#38;lt;"


def test_doubled_braces_cannot_open_an_attribute_list_once_filled_in() -> None:
    shown = neutralised((TAG_CHANGED,), "{old} {before} {new} {{: onclick=alert(1) }}")
    assert substitute(shown, {"old": "a", "before": 1, "new": "b"}) == (
        "a 1 b &#123;: onclick=alert&#40;1&#41; &#125;"
    )
