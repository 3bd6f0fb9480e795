"""Library behind models/generate.py: deterministic int8 ONNX networks with golden data."""
