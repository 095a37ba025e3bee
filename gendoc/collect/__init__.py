"""Reading onnx: its schema registry, the schemas and examples it holds, into the model."""
