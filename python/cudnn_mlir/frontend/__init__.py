"""The PyTorch front end: torch.fx graphs to TCP (docs/frontend.md)."""

from .importer import (ArgSpec, ImportedModule, TorchImportError,
                       decompose_exported, import_exported, import_graph,
                       import_model, trace)

__all__ = ["ArgSpec", "ImportedModule", "TorchImportError",
           "decompose_exported", "import_exported", "import_graph",
           "import_model", "trace"]
