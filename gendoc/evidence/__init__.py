"""Independent evidence for differentiability tags: frameworks and registries, not the schema.

The guide asks an author to show a tag three ways: a framework differentiates
the operator (Method 1), the math done numerically (Method 2, the finite
differences of :mod:`gendoc.audit`), an autodiff library (Method 3).
onnxruntime's training gradient registry is a fourth, hand-written source.
This package runs them behind one interface; ``gendoc audit --evidence``
(:mod:`gendoc.audit.weigh`) and the site's evidence pages consume it.

Interface
---------
``EvidenceSource`` (:mod:`gendoc.evidence.outcome`)
    Anything with a ``name`` and ``evaluate(schema) -> SourceEvidence``, for a
    :class:`gendoc.model.Schema`. It never raises for an operator it cannot
    judge: it answers ``UNAVAILABLE`` with the reason.
``SourceEvidence(source, domain, op, version, parameters, detail)``
    One ``ParameterEvidence(kind, name, verdict, detail)`` per input, then per
    output, in schema order (``label`` is ``"input X"``/``"output Y"``).
    ``detail`` is what a reviewer re-checks: the torch call as text and the
    torch version, or the builder name with onnxruntime's version and commit.
``Verdict``
    ``GRADIENT`` (nonzero gradient seen, or the registry emits one), ``ZERO``
    (the gradient exists and was zero everywhere probed), ``REFUSED`` (the
    framework explicitly does not differentiate it), ``NOT_APPLICABLE``,
    ``UNAVAILABLE`` (package missing, no mapping, no data).
``default_sources()`` (:mod:`gendoc.evidence.sources`)
    ``[pytorch, onnxruntime, onnx-ad]``. PyTorch is imported only when installed
    (extra ``gendoc[torch]``); otherwise it answers ``UNAVAILABLE`` "torch is
    not installed".
``NumericEvidence(operators)`` (:mod:`gendoc.evidence.numeric`)
    The audit's finite differences, read from ``NumericResult.to_dict()``.
``combine(schema, evidence) -> list[Suggestion]`` (:mod:`gendoc.evidence.verdict`)
    The rule table: a suggested tag per parameter, ``strong``/``weak``/
    ``conflict``/``none``, with the sources for and against;
    ``Suggestion.is_problem`` marks a defined tag the evidence contradicts.
``method1_script(schema, input_name)`` (:mod:`gendoc.evidence.scripts`)
    A standalone torch script a reviewer can paste and run.

Sources
-------
``pytorch`` (:mod:`gendoc.evidence.torch_source`, table in
:mod:`gendoc.evidence.torch_ops`; the site reads its verdicts from the record
:mod:`gendoc.evidence.torch_record` makes), ``onnxruntime``
(:mod:`gendoc.evidence.ort_registry`, data made by
:mod:`gendoc.evidence.ort_extract` from the release tag v1.19.2) and
``onnx-ad`` (:mod:`gendoc.evidence.onnx_ad_source`, the guide's Method 3:
reverse-mode autodiff of the ONNX operator itself on onnx's backend test
cases, no mapping to another framework; answered from the record
:mod:`gendoc.evidence.onnx_ad_record` makes).
"""
