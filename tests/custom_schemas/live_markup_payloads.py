"""Schema text that runs when onnx's layout writes it raw and mkdocs renders it.

Each vector names its own ``alert`` argument, so a test can tell which one got out. They
are what a hand-made check with Python's ``html.parser`` let through: a tag the layout's
``</dd>`` closes, a comment an HTML5 parser ends at ``<!-->``, a tab inside ``javascript:``
written as a character reference, an entity in a Markdown link's scheme, a reference
definition (used by a link in another text), and an attribute list after an image.
"""

VECTORS = {
    "unterminated": "<img src=x onerror=alert('unterminated')//",
    "comment": "<!--><img src=x onerror=alert('comment')>-->",
    "tab-reference": "<a href=\"java&#9;script:alert('tab-reference')\">x</a>",
    "entity-scheme": "[x](jav&#x61;script:alert('entity-scheme'))",
    "definition": "[r]: javascript:alert('definition')",
    "attribute-list": "![i](x){: onerror=alert('attribute-list') }",
}
USE_OF_DEFINITION = "See [the reference][r]."
