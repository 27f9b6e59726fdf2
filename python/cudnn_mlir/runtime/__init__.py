"""Running compiled modules (model.so) from Python: the manifest parser, the
ctypes loader, the RNN entry points and CUDA-graph replay. Needs no MLIR and
no importer; torch only once an entry is called (cuda_graph.py excepted)."""
