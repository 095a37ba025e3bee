"""Registers schemas whose text tries to become live HTML on the site.

The doc, the descriptions and one operator's name carry ``<script>``,
``<img onerror>`` and ``javascript:`` links, in raw HTML and in Markdown.
Two versions of ``Hostile`` make the site show a diff of that text too. Every
payload calls ``alert``, so a browser test notices any that runs.
"""

from onnx import defs

DOMAIN = "com.example.hostile"
SCRIPT = "<script>alert('script in schema text')</script>"
IMG = "<img src=x onerror=\"alert('img onerror in schema text')\">"
MARKDOWN_LINK = "[click me](javascript:alert('markdown link'))"
HTML_LINK = "<a href=\"javascript:alert('html link')\">raw link</a>"
AUTOLINK = "<javascript:alert('autolink')>"
PAYLOAD = f"{SCRIPT}\n\n{IMG}\n\n{MARKDOWN_LINK} {HTML_LINK} {AUTOLINK}"
# An operator name that would close <title> and open a script if unescaped.
HOSTILE_NAME = "Evil</title><script>alert('name')</script>"

Category = defs.OpSchema.DifferentiationCategory


def _parameter(name: str, category: Category) -> defs.OpSchema.FormalParameter:
    return defs.OpSchema.FormalParameter(
        name, "T", f"Input {name}. {PAYLOAD}", differentiation_category=category
    )


def _schema(name: str, version: int, category: Category) -> defs.OpSchema:
    return defs.OpSchema(
        name,
        DOMAIN,
        version,
        doc=f"Version {version} of a schema with hostile text.\n\n{PAYLOAD}",
        inputs=[_parameter("X", category), _parameter("mode", Category.NonDifferentiable)],
        outputs=[
            defs.OpSchema.FormalParameter(
                "Y", "T", f"Output. {PAYLOAD}", differentiation_category=category
            )
        ],
        type_constraints=[("T", ["tensor(float)"], f"Float tensors. {PAYLOAD}")],
        attributes=[
            defs.OpSchema.Attribute(
                "alpha", defs.OpSchema.AttrType.FLOAT, f"A factor. {PAYLOAD}", required=False
            )
        ],
    )


# Version 2 tags X and Y: the diff between the versions shows a tag change.
defs.register_schema(_schema("Hostile", 1, Category.Unknown))
defs.register_schema(_schema("Hostile", 2, Category.Differentiable))
defs.register_schema(_schema(HOSTILE_NAME, 1, Category.Unknown))
