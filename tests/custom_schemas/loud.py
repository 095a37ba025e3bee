"""Builder of ``Loud``, an operator whose strings may try to act in a comment or the log.

Hostile, its type-constraint name and doc mention a team, open an HTML
comment and a tag, and an input name carries a line break and a workflow
command. ``hostile_base`` registers it plain and ``hostile_diff`` hostile, so
a diff between the two shows every one of those strings.
"""

from onnx import defs

from tests.custom_schemas.diff_schemas import DOMAIN

MENTION = "@octo-org/admins"


def loud(hostile: bool) -> defs.OpSchema:
    type_name = f"T {MENTION} <!-- hidden" if hostile else "T"
    input_name = "x\n::stop-commands::pwned" if hostile else "x"
    doc = f"Pings {MENTION} <!-- and hides <b>the rest</b>" if hostile else "Pings nobody."
    return defs.OpSchema(
        "Loud",
        DOMAIN,
        1,
        doc,
        inputs=[defs.OpSchema.FormalParameter(input_name, type_name, "An input.")],
        outputs=[defs.OpSchema.FormalParameter("Y", type_name, "An output.")],
        type_constraints=[(type_name, ["tensor(float)"], "Floats.")],
    )
