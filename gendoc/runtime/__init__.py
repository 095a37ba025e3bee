"""Where each operator runs and trains: runtimes' kernel tables, onnx's backend scoreboard,
onnx's reference evaluator, and the answer they give for one node of a model.

Each outside source is shipped as a record in ``data/`` that a module here re-extracts
(``python -m gendoc.runtime.ort_kernels``, ``python -m gendoc.runtime.scoreboard``),
naming the release or commit it was read from and its date. With onnxruntime installed
(``pip install "gendoc[runtime]"``) its own registry is read live instead.
"""
