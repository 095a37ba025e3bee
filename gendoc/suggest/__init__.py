"""Turn differentiability evidence into a patch for onnx's C++ schema sources."""
