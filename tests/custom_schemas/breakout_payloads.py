"""The payloads of ``hostile_breakout``, importable without registering anything with onnx."""

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
