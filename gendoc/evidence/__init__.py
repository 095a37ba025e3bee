"""Independent evidence for differentiability tags: frameworks and registries, not the schema.

The guide asks an author to show a tag three ways: a framework differentiates
the operator (Method 1), the math done numerically (Method 2, the finite
differences of :mod:`gendoc.audit`), an autodiff library (Method 3).
onnxruntime's training gradient registry is a fourth, hand-written source.
This package runs them behind one interface; ``gendoc audit --evidence``
(:mod:`gendoc.audit.weigh`) and the site's evidence pages consume it.

Interface
---------
``EvidenceSource`` (:mod:`gendoc.evidence.interface`)
    Anything with a ``name``, a ``status`` line and ``evaluate(schema) ->
    SourceEvidence``, for a :class:`gendoc.model.reference.Schema`. It never raises for
    an operator it cannot judge: it answers ``unavailable(source, schema,
    reason)``, every parameter ``UNAVAILABLE`` with the reason. The status and
    the reason are :class:`gendoc.catalogs.i18n.Message` objects (``say(N_("..."),
    ...)``), so that a Chinese report says them in Chinese.
``SourceEvidence(source, domain, op, version, parameters, detail, unanswered)``
    One ``ParameterEvidence(parameter, verdict, detail, basis)`` per input, then
    per output, in schema order; ``parameter`` is a
    :class:`gendoc.model.reference.ParameterRef` (``str()`` gives ``"input X"``),
    and ``verdict_of(parameter)`` finds one.
    ``detail`` is what a reviewer re-checks: the torch call as text and the
    torch version, or the builder name with onnxruntime's version and commit.
``Verdict``
    ``GRADIENT`` (nonzero gradient seen, or the registry emits one), ``ZERO``
    (the gradient exists and was zero everywhere probed), ``REFUSED`` (the
    source does not differentiate it), ``NOT_MEASURED`` (our torch mapping
    passes it as a Python scalar: autograd never sees it), ``NOT_APPLICABLE``,
    ``UNAVAILABLE`` (package missing, no mapping, no data). Each verdict has a
    ``Basis`` (autograd, composite, builder, policy, slope) that sets its weight.
``default_sources()`` (:mod:`gendoc.evidence.sources`)
    ``[pytorch, onnxruntime, onnx-ad]``, made from their lines in
    :mod:`gendoc.evidence.source_registry` (name, label, role, coverage,
    weight; a new source is its module and one line there). PyTorch and
    onnx-ad answer from the record shipped with gendoc
    (:mod:`gendoc.evidence.record`) where it holds the operator version's
    interface, the installed library otherwise (without it: ``UNAVAILABLE``
    with the reason); the site, the audit and ``gendoc suggest`` all use them,
    so their verdicts do not depend on what is installed.
``NumericEvidence(operators)`` (:mod:`gendoc.evidence.numeric_source`)
    The finite differences (probed here: ``cases``, ``probe_plan``, ``probe``,
    ``pool``, their types in ``numeric``), read from their typed
    ``OperatorEvidence`` by ``read_slopes``, the one reading of finite-difference
    results; the audit runs the probe and judges its pairs.
``combine(schema, evidence) -> list[Suggestion]`` (:mod:`gendoc.evidence.verdict`)
    The rule registry ``VERDICT_RULES``: a suggested tag per parameter, ``strong``/
    ``weak``/``conflict``/``none``, or ``disputed`` for a tag onnx set that
    the evidence contradicts (never a change), with the votes for and against
    as data, and a dispute's kind (the mathematics, or a convention); the
    finding each rule raises, with its message, is in
    :mod:`gendoc.evidence.verdict_text`, with a verdict said in one line.
``settle(weighed) -> list[list[Suggestion]]`` (:mod:`gendoc.evidence.history`)
    Over every version in scope: the decisions the schema makes, one verdict
    per history and family, no suggestion against onnx's tag elsewhere.
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
