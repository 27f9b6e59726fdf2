"""Compiles the subgraphs a machine without the compiler exported
(CUDNN_MLIR_EXPORT_DIR, see dynamo.py) into an artifact cache:

    python3 -m cudnn_mlir.compile_exported EXPORT_DIR --cache CACHE_DIR
"""

import argparse
import sys

from .driver.compiler import compile_exported, default_cache_dir


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python3 -m cudnn_mlir.compile_exported")
    parser.add_argument("export_dir")
    parser.add_argument("--cache", default=None,
                        help="artifact cache (default: %s)" % default_cache_dir())
    args = parser.parse_args(argv)
    for folder in compile_exported(args.export_dir, args.cache):
        print(folder)
    return 0


if __name__ == "__main__":
    sys.exit(main())
