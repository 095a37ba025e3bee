"""Registers a schema whose text tries to end the HTML block it is written in.

GitHub reads a carriage return as a line ending, so ``\\r\\r`` (raw, or as the
references ``&#13;`` and ``&#xD;`` that a Markdown parser decodes) inside a
rendered schema text would be a blank line: the HTML block ends and what
follows is Markdown again: a heading, a tracking image, a link, raw HTML.
Every payload names ``injected`` and the host ``breakout.example``, so a test
can tell anything that got out from what gendoc wrote.
"""

from onnx import defs

DOMAIN = "com.example.breakout"
AFTER = (
    "# injected heading\n\n"
    "![injected image](https://breakout.example/track.png)\n\n"
    "[injected link](https://breakout.example/link)\n\n"
    '<details open><summary>injected raw html</summary><img src="https://breakout.example/i.png">'
    "</details>"
)
BREAKOUTS = {
    "decimal": "Ends with decimal references.&#13;&#13;" + AFTER.replace("\n", "&#13;"),
    "hex": "Ends with hex references.&#xD;&#XD;&#x0d;" + AFTER.replace("\n", "&#x0D;"),
    "raw": "Ends with raw carriage returns.\r\r" + AFTER.replace("\n", "\r"),
    "mixed": "Ends with both.\r\n\r&#10;&NewLine;&#12;\x0c\x0b" + AFTER,
    "setext": "A setext heading?\n===\ninjected heading\n---",
}
PAYLOAD = "\n\n".join(BREAKOUTS.values())

Category = defs.OpSchema.DifferentiationCategory

defs.register_schema(
    defs.OpSchema(
        "Breakout",
        DOMAIN,
        1,
        doc=f"A schema whose text tries to leave its HTML block.\n\n{PAYLOAD}",
        inputs=[
            defs.OpSchema.FormalParameter(
                "X", "T", f"Input.{BREAKOUTS['raw']}", differentiation_category=Category.Unknown
            )
        ],
        outputs=[
            defs.OpSchema.FormalParameter(
                "Y", "T", f"Output.{BREAKOUTS['hex']}", differentiation_category=Category.Unknown
            )
        ],
        type_constraints=[("T", ["tensor(float)"], f"Floats.{BREAKOUTS['decimal']}")],
    )
)
