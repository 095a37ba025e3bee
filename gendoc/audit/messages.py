"""Translatable texts of the audit: English templates with named placeholders.

A report is read in English on a terminal and in Chinese on the site, so no
finding, rule title or reason carries a finished sentence. It carries a
:class:`Message`: the English template, which is also its gettext message
id, and the plain values for its placeholders. English output formats the
template as it is; a translated page fills ``gettext(message.id)`` with
the same arguments (:func:`gendoc.catalogs.translated.substitute`: names only, never
``str.format`` on a translator's text).

Every template is written in the source as ``N_("...")``, so that
``pybabel extract -k N_ gendoc/audit`` finds them all without running the
audit. :class:`Message` itself lives in :mod:`gendoc.catalogs.i18n`, below the
audit, because the evidence sources say their status lines with it too.
"""

from __future__ import annotations

from gendoc.catalogs.i18n import N_, Arg, Message, placeholders, say

__all__ = ["N_", "Arg", "Message", "placeholders", "say"]
