"""Registers schemas whose *names* and attribute defaults try to become live markup.

Every kind of name a schema has (operator, domain, input, output, attribute,
type parameter) and the string default of an attribute carries a payload:
raw HTML, Markdown links and images, attribute lists, code fences behind a
newline, a name spelled like a generated page (``index``), names that differ
only in case, a 300-character name, and a name outside the Basic
Multilingual Plane. A custom domain spelled like the default one gets its own
folder. Every live payload calls ``alert``, so a browser test notices any
that runs.
"""

from onnx import defs, helper

from tests.custom_schemas.hostile_payloads import OPERATOR_NAMES, PAYLOADS

DOMAIN = "com.example.names"
MARKUP_DOMAIN = 'com.x<img src="x" onerror="alert(\'domain\')">'

Category = defs.OpSchema.DifferentiationCategory


def _param(name: str, type_param: str, description: str) -> defs.OpSchema.FormalParameter:
    return defs.OpSchema.FormalParameter(
        name, type_param, description, differentiation_category=Category.Differentiable
    )


def _schema(name: str, domain: str, payload: str) -> defs.OpSchema:
    default = helper.make_attribute("mode", payload)
    t = f"T{payload}"
    return defs.OpSchema(
        name,
        domain,
        1,
        doc=f"Schema named {name!r}. {payload}",
        inputs=[_param(f"in{payload}", t, payload), _param("X", t, "plain")],
        outputs=[_param(f"out{payload}", t, payload)],
        type_constraints=[(t, ["tensor(float)"], payload)],
        attributes=[
            defs.OpSchema.Attribute(f"attr{payload}", defs.OpSchema.AttrType.FLOAT, payload),
            defs.OpSchema.Attribute("mode", default, payload),
        ],
    )


for index, op_name in enumerate(OPERATOR_NAMES):
    defs.register_schema(_schema(op_name, DOMAIN, PAYLOADS[index % len(PAYLOADS)]))
defs.register_schema(_schema("Hidden", MARKUP_DOMAIN, PAYLOADS[0]))
defs.register_schema(_schema("Lookalike", "ai.onnx", PAYLOADS[1]))
