"""What the site publishes for tools beside its pages: the reference as data and as Markdown.

At the site's root, the same for every language, under ``reference/``:

- ``reference.json``: what ``gendoc export`` writes for the site's reference;
- ``domains/<domain>.json``: the same for one domain alone (``ai.onnx.json``,
  ``ai.onnx.ml.json``, named as the domain's folder of pages), so that a tool needs not
  fetch every domain;
- ``snapshot.schema.json``: the JSON Schema of both (:mod:`gendoc.model.snapshot`).

In each language's folder:

- beside every operator page its Markdown (``Reshape.md`` next to ``Reshape.html``): the
  page's content without the site around it (``site/operator.md.j2``), which the page's
  "copy as Markdown" button fetches;
- ``llms.txt`` (the llmstxt.org layout: a title, a summary, then lists of links to the
  Markdown) and ``llms-full.txt``, every operator's Markdown in one file.

Each file is written by the process that built its language, once the pages are written;
nothing here is an mkdocs page, so the files cost mkdocs nothing.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cached_property, partial
from pathlib import Path

import jinja2

from gendoc.audit.snapshot_verdicts import export_snapshot
from gendoc.model.reference import Operator
from gendoc.model.snapshot import SCHEMA_FILE, domain_part, encode_utf8
from gendoc.present import render
from gendoc.present.render import template_errors
from gendoc.runtime.operator_support import runtime_support
from gendoc.site.onnx_links import source_url
from gendoc.site.pages import SiteContent
from gendoc.site.paths import markdown_url
from gendoc.site.site_facts import url_of
from gendoc.storage.kept_files import keep, restore, write_files

DATA_FOLDER = "reference"
WHOLE = "reference.json"
SCHEMA = "snapshot.schema.json"
DOMAINS = "domains"
"""The folder of the per-domain files, apart so that no domain's name can be another file's."""
LLMS = "llms.txt"
LLMS_FULL = "llms-full.txt"


@dataclass(eq=False)
class Published:
    """The files of :mod:`gendoc.site.published` for one site's content.

    ``site_url`` is mkdocs' ``site_url`` (empty when not set): the links of ``llms.txt``
    are absolute under it, as llmstxt.org asks, and relative to the file without it.
    ``key`` is what the content is made from (the plugin's key of the generated pages):
    the files are kept in the cache under it, so that a rebuild with nothing changed
    only copies them into its site.
    """

    content: SiteContent
    site_url: str = ""
    key: str = ""

    def _publish(
        self,
        folder: Path,
        name: str,
        names: set[str],
        make: Callable[[], Mapping[str, str | bytes]],
        *more: str,
    ) -> None:
        """Write into ``folder`` the files ``make()`` gives, or those an earlier build of the
        same content wrote (``more`` says what else they depend on), kept in the cache as
        links to themselves (:mod:`gendoc.storage.kept_files`). ``names``: the files
        ``make()`` gives, the only ones a kept entry may put in ``folder``."""
        if not self.key:
            write_files(folder, make())
            return
        key = hashlib.sha256("\0".join((self.key, self.site_url, *more)).encode()).hexdigest()
        if not restore(f"published-{name}", key[:40], folder, names):
            keep(f"published-{name}", key[:40], folder, write_files(folder, make()))

    def data(self) -> dict[str, bytes]:
        """The files of ``reference/``, by name, as the bytes written."""
        reference = self.content.reference
        runtime = runtime_support(reference)
        snapshot = export_snapshot(reference, self.content.facts.verdicts, runtime)
        files = {WHOLE: encode_utf8(snapshot), SCHEMA: SCHEMA_FILE.read_bytes()}
        for domain in self.content.reference.domains:
            files[self.domain_file(domain)] = encode_utf8(domain_part(snapshot, domain))
        return files

    def markdown_path(self, op: Operator) -> str:
        """The Markdown of an operator, relative to its language's root."""
        page = self.content.facts.operator_page(op.domain, op.name)
        return markdown_url(url_of(page, self.content.directory_urls))

    def domain_file(self, domain: str) -> str:
        """``ai.onnx.json``: a domain's data file, named as its folder of pages is."""
        return f"{DOMAINS}/{self.content.facts.paths.domain_segment(domain)}.json"

    @cached_property
    def _operators(self) -> list[Operator]:
        return list(self.content.reference.operators())

    def _env(self, lang: str) -> jinja2.Environment:
        reference = self.content.reference
        options = render.RenderOptions(lang=lang, templates=self.content.templates)
        return render.environment(options, reference.onnx_version)

    def operator_markdown(self, lang: str) -> dict[str, str]:
        """Every operator's Markdown in ``lang``, by its path under the language's root."""
        reference = self.content.reference
        env = self._env(lang)
        with template_errors():
            template = env.get_template("site/operator.md.j2")
            return {
                self.markdown_path(op): template.render(
                    op=op,
                    reference=reference,
                    examples=reference.examples.get(op.name, ()),
                    source_url=lambda source: source_url(reference.onnx_version, source),
                )
                for op in self._operators
            }

    def llms(self, lang: str, prefix: str, markdown: dict[str, str]) -> dict[str, str]:
        """``llms.txt`` and ``llms-full.txt`` of a language whose root is ``prefix`` under the
        site's root (``""`` or ``"zh/"``)."""
        # Absolute under the site's URL; without one, relative to the language's root.
        base = f"{self.site_url.rstrip('/')}/" if self.site_url else ""
        here = f"{base}{prefix}" if base else ""
        data = f"{base}{DATA_FOLDER}/" if base else f"{'../' * prefix.count('/')}{DATA_FOLDER}/"
        reference = self.content.reference
        context = {
            "reference": reference,
            "domains": [
                (domain, list(reference.operators(domain))) for domain in reference.domains
            ],
            "url": lambda op: f"{here}{self.markdown_path(op)}",
            "data": data,
            "domain_file": self.domain_file,
            "files": {"whole": WHOLE, "schema": SCHEMA, "full": f"{here}{LLMS_FULL}"},
        }
        env = self._env(lang)
        with template_errors():
            index = env.get_template("site/llms.txt.j2").render(context, full=False)
            head = env.get_template("site/llms.txt.j2").render(context, full=True)
        body = "\n".join(markdown[self.markdown_path(op)] for op in self._operators)
        return {LLMS: index, LLMS_FULL: f"{head}\n{body}"}

    def language_files(self, lang: str, prefix: str) -> dict[str, str]:
        """A language's Markdown and its ``llms.txt`` pair, by path under its root."""
        markdown = self.operator_markdown(lang)
        return {**markdown, **self.llms(lang, prefix, markdown)}

    def write_language(self, root: Path, lang: str, prefix: str) -> None:
        """Write a language's Markdown and its ``llms.txt`` pair into its ``root`` folder."""
        names = {LLMS, LLMS_FULL, *(self.markdown_path(op) for op in self._operators)}
        make = partial(self.language_files, lang, prefix)
        self._publish(root, f"markdown-{lang}", names, make, lang, prefix)

    def write_data(self, site: Path) -> None:
        """Write ``reference/`` at the site's root."""
        domains = {self.domain_file(domain) for domain in self.content.reference.domains}
        self._publish(site / DATA_FOLDER, "data", {WHOLE, SCHEMA, *domains}, self.data)
