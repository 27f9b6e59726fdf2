#!/usr/bin/env python3
"""Checks that every verifier message of our dialects has a negative test.

Collects the first string literal of each `emitOpError("...")` /
`emitError() << "..."` in lib/Dialect and requires it to occur in an
`expected-error` line of some test/**/*invalid*.mlir. Messages whose literal
part is too short to identify them (e.g. a helper's bare "expects ") cannot be
matched this way; they are listed, not failed, and their callers' tests cover
them. A message whose check carries the comment "Unreachable from textual
IR" (a guard for C++ builders) is skipped.
"""
import pathlib
import re
import sys

MESSAGE = re.compile(
    r'emit(?:Op)?Error\(\s*\)?\s*(?:<<\s*)?"((?:[^"\\]|\\.)*)"')
MIN_LEN = 16


def main(src_root):
    root = pathlib.Path(src_root)
    expected = "\n".join(
        line for p in root.glob("test/**/*invalid*.mlir")
        for line in p.read_text().splitlines() if "expected-error" in line)
    missing, vague = [], []
    for cpp in sorted([*root.glob("lib/Dialect/**/*.cpp"),
                       *root.glob("lib/Conversion/**/*.cpp"),
                       *root.glob("lib/Codegen/**/*.cpp")]):
        text = cpp.read_text()
        for m in MESSAGE.finditer(text):
            literal = m.group(1).encode().decode("unicode_escape")
            where = "%s:%d" % (cpp.relative_to(root),
                               text.count("\n", 0, m.start()) + 1)
            previous = text[:m.start()].rsplit("\n", 5)[-5:]
            if any("Unreachable from textual IR" in l for l in previous):
                continue
            if len(literal.strip()) < MIN_LEN:
                vague.append((where, literal))
            elif literal not in expected:
                missing.append((where, literal))
    for where, literal in vague:
        print("note: %s: message %r is too short to match" % (where, literal))
    for where, literal in missing:
        print("MISSING negative test: %s: %r" % (where, literal))
    print("%d verifier messages without a negative test" % len(missing))
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
