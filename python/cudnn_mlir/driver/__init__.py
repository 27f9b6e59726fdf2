"""The compile driver: cudnn-compile and the artifact cache (compiler.py), a
compiled module bound to its model (runner.py), one module per input
signature (specialize.py). The importer is imported only to compile."""
