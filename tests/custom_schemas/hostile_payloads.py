"""The payloads of ``hostile_names``, importable without registering anything with onnx."""

PAYLOADS = [
    '<img src="x" onerror="alert(\'img\')">',
    "<script>alert('script')</script>",
    "[link](javascript:alert('md-link'))",
    "![image](x){: onerror=alert('attr-list') }",
    "<a href=\"javascript:alert('a')\">a</a>",
    "`code` *em* __strong__ ~~del~~",
    "x\n```\nfenced\n```",
    'x\n\n<img src="x" onerror="alert(\'after-blank-line\')">',
    "{#id .class onclick=alert('attr')}",
    "&lt;img src=x onerror=alert('entity')&gt;",
    "<javascript:alert('autolink')>",
    "| cell | break |",
]
OPERATOR_NAMES = [
    "index",
    "Index",
    "INDEX",
    "Conv",
    "conv",
    "A" * 300,
    "Smile\U0001f642",
    "Op<svg onload=\"alert('op')\">",
    "Op[x](javascript:alert('op-link'))",
    "Op\n# heading",
    "Op/../../escape",
]
