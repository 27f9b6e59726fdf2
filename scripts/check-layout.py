#!/usr/bin/env python3
"""Checks the layout rules docs/layout.md states, on a source tree.

- runtime/lib holds no source file at its top level (one folder per concern);
- the runtime's folders include each other without a cycle, graph/ (the
  CUDA-free library) includes no other folder, and no file includes a header
  of its own folder's dependents (a file-level include cycle is a cycle too);
- the compiler (include/, lib/, tools/ but cudnn-run) includes nothing from
  runtime/lib: no #include names it and no CMake line adds it to a path.

Prints one line per broken rule and exits 1, else prints "layout ok".
"""
import os
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def sources(root, exts=(".cpp", ".h", ".def")):
    for dirpath, _, files in os.walk(root):
        for f in files:
            if f.endswith(exts):
                yield os.path.join(dirpath, f)


def find_cycle(graph):
    """A list of nodes forming a cycle in {node: set(successors)}, or None."""
    state = {}
    stack = []

    def visit(n):
        state[n] = 1
        stack.append(n)
        for m in sorted(graph.get(n, ())):
            if state.get(m) == 1:
                return stack[stack.index(m):] + [m]
            if m not in state:
                cycle = visit(m)
                if cycle:
                    return cycle
        stack.pop()
        state[n] = 2
        return None

    for n in sorted(graph):
        if n not in state:
            cycle = visit(n)
            if cycle:
                return cycle
    return None


def main(root):
    errors = []
    lib = os.path.join(root, "runtime", "lib")
    for f in sorted(os.listdir(lib)):
        if f.endswith((".cpp", ".h")):
            errors.append("runtime/lib/%s: expects no source file at the top "
                          "level of runtime/lib, but found one" % f)
    files = {}  # runtime/lib-relative path -> included runtime/lib paths
    for path in sources(lib):
        rel = os.path.relpath(path, lib)
        text = open(path, encoding="utf-8").read()
        files[rel] = {inc for inc in INCLUDE.findall(text)
                      if os.path.exists(os.path.join(lib, inc))}
    folders = {}
    for rel, incs in files.items():
        here = rel.split(os.sep)[0]
        for inc in incs:
            there = inc.split("/")[0]
            if there != here:
                folders.setdefault(here, set()).add(there)
    if folders.get("graph"):
        errors.append("runtime/lib/graph expects to include no other runtime "
                      "folder (it is the CUDA-free library), but includes %s"
                      % ", ".join(sorted(folders["graph"])))
    cycle = find_cycle(folders)
    if cycle:
        errors.append("runtime/lib's folders expect no include cycle, but got "
                      + " -> ".join(cycle))
    cycle = find_cycle({f: {i for i in incs} for f, incs in files.items()})
    if cycle:
        errors.append("runtime/lib's files expect no include cycle, but got "
                      + " -> ".join(cycle))
    compiler = [os.path.join(root, d) for d in ("include", "lib", "tools")]
    for top in compiler:
        for path in sources(top, (".cpp", ".h", "CMakeLists.txt")):
            if os.sep + "cudnn-run" + os.sep in path:
                continue
            text = open(path, encoding="utf-8").read()
            # Include paths: CMake lines that are not comments, and #include
            # lines (comments may name a runtime source file).
            if path.endswith(".txt"):
                lines = [l for l in text.splitlines()
                         if not l.lstrip().startswith("#")]
            else:
                lines = INCLUDE.findall(text)
            if any("runtime/lib" in l for l in lines):
                errors.append("%s: expects the compiler to include "
                              "runtime/include alone, but it uses runtime/lib"
                              % os.path.relpath(path, root))
    for e in errors:
        print(e)
    if errors:
        return 1
    print("layout ok")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else
                  os.path.join(os.path.dirname(__file__), "..")))
