"""Registers a schema whose text tries to end the HTML block it is written in.

GitHub reads a carriage return as a line ending, so ``\\r\\r`` (raw, or as the
references ``&#13;`` and ``&#xD;`` that a Markdown parser decodes) inside a
rendered schema text would be a blank line: the HTML block ends and what
follows is Markdown again: a heading, a tracking image, a link, raw HTML.
Every payload names ``injected`` and the host ``breakout.example``, so a test
can tell anything that got out from what gendoc wrote.
"""

from onnx import defs

from tests.custom_schemas.breakout_payloads import BREAKOUTS, DOMAIN, PAYLOAD

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
