"""What the header's search needs besides Pagefind's index: its words, and the glossary's terms.

The search panel is drawn by ``assets/search.js`` (beside the theme's
templates). The plugin gives the theme, per language, the panel's words from
gendoc's message catalogs and the code of the language's index (see
:mod:`gendoc.site.search_words`), and writes the term map the script uses to
search the other language's terms too.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from markupsafe import Markup

from gendoc.site.pages import SiteContent
from gendoc.site.search_words import INDEX_LANGUAGES, glossary_pairs, term_map

# The glossary's terms in both languages, for the search (paths from the site's root).
TERMS = "assets/search-terms.json"
# Operator names (lower case) -> their pages, for the search to put an exact name first.
OPERATOR_NAMES = "assets/operator-names.json"
TEXTS = "site/search.json.j2"


@cache
def panel_attributes(content: SiteContent, lang: str) -> Markup:
    """The search panel's ``data-`` attributes for a page in ``lang`` (made once per language)."""
    texts = content.env(lang).get_template(TEXTS).render().strip()
    return Markup('data-gd-lang="{}" data-gd-index-lang="{}" data-gd-texts="{}"').format(
        lang, INDEX_LANGUAGES.get(lang, lang), texts
    )


def write_terms(site: Path) -> None:
    """The glossary's term map (:func:`gendoc.site.search_words.term_map`) into the site."""
    path = site / TERMS
    path.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(term_map(glossary_pairs()), ensure_ascii=False, sort_keys=True)
    path.write_text(text, encoding="utf-8")


def operator_names(content: SiteContent) -> dict[str, list[str]]:
    """Pagefind ranks "ConvInteger" above "Conv" for the query "conv"; this list lets the
    search put the operator named by the query first (pages relative to a language's root);
    and the operator sets, under "opset N", for the query that names one.
    """
    names: dict[str, set[str]] = {}
    for schema in content.reference.schemas:
        page = content.facts.operator_page(schema.domain, schema.name)
        names.setdefault(schema.name.lower(), set()).add(page.removesuffix(".md") + ".html")
    for domain in content.reference.domains:  # "opset 18" finds the opset's page
        for opset in content.facts.opsets(domain):
            page = content.facts.paths.opset_page(domain, opset.version)
            names.setdefault(f"opset {opset.version}", set()).add(
                page.removesuffix(".md") + ".html"
            )
    return {name: sorted(pages) for name, pages in sorted(names.items())}


def write_operator_names(content: SiteContent, site: Path) -> None:
    """:func:`operator_names` into the site."""
    path = site / OPERATOR_NAMES
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(operator_names(content)), encoding="utf-8")
