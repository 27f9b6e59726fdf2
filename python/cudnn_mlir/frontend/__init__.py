"""The PyTorch front end: torch.fx graphs to TCP (docs/frontend.md)."""

from ..artifact import ArgSpec, ImportedModule
from .importer import (TorchImportError, decompose_exported, import_exported,
                       import_failures, import_graph, import_model, trace)

__all__ = ["ArgSpec", "ImportedModule", "TorchImportError",
           "decompose_exported", "import_exported", "import_failures",
           "import_graph",
           "import_model", "trace"]
