"""Message catalogs: gendoc's labels and onnx's schema text, per language, as data."""
