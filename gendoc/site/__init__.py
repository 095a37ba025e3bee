"""The bilingual documentation site: an mkdocs plugin that generates the reference.

Nothing generated is committed. On every build the plugin collects the
model, renders the operator reference, the coverage page and the tag audit
in each language, and hands them to mkdocs as in-memory files.
"""
