"""Reading onnx into the model."""
