#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# checks_can_fail.py SOURCE_DIR: two ways a test passes without checking, found in tests/.
#  1. A Python check that compares a value with itself (`assert x["a"] == x["a"]`, `v is v`): true
#     whatever the value, None included (the JSON writer turns NaN into null). Read in every Python
#     file under tests/ and in the Python a shell test runs: heredocs fed to python3
#     (`python3 - <<'PY'`), `python3 -c '...'` and the tests' `py '...'` wrapper.
#  2. A shell test that turns a sub-test's skip (exit 77) into a pass: every place a script tests
#     a status against 77 (a `77)` case arm, `-eq 77`, `== 77`) must pass the skip on (a SKIP line
#     and `exit 77`, the skip helpers of lib_cli.sh, or a SKIPPED flag the script ends on).
# Exit 0 when neither is found, 1 naming each file and line. `--self-test` runs the checks on
# snippets that break each rule (each must be found) and on ones that keep it (none may be).
import ast
import os
import re
import sys

HEREDOC = re.compile(r"(?:python3|\$\{?PY\b\}?\"?)[^\n]*<<-?\s*(['\"]?)(\w+)\1[^\n]*\n(.*?)\n\2[ \t]*(?:\n|$)", re.S)
INLINE = re.compile(r"(?:python3\s+-c|(?:^|[\s;&|(]|\$\()py)\s+'([^']*)'", re.S | re.M)
STATUS77 = re.compile(r"^\s*77\)|-eq\s+77\b|==\s*77\b|\$\?\s*=\s*77\b")
PASSES_ON = re.compile(r"exit 77|exit \"?\$SKIP\"?|\bskip(_rest)?\b|SKIPPED=|CHECK_SKIP")


PARSED = [0, 0]  # pieces of Python read, and those that did not parse (shell text in them)


def self_comparisons(code):
    """(line, text) of each comparison of an expression with itself in Python source code."""
    try:
        tree = ast.parse(code)
        PARSED[0] += 1
    except SyntaxError:
        PARSED[1] += 1
        return []
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Compare):
            continue
        sides = [node.left] + list(node.comparators)
        for op, a, b in zip(node.ops, sides, sides[1:]):
            if isinstance(op, (ast.Eq, ast.Is, ast.LtE, ast.GtE)) and ast.dump(a) == ast.dump(b):
                found.append((node.lineno, ast.unparse(node) if hasattr(ast, "unparse") else "?"))
    return found


def python_in_shell(text):
    """(first line, code) of each piece of Python a shell script runs."""
    out = []
    for m in HEREDOC.finditer(text):
        out.append((text.count("\n", 0, m.start(3)) + 1, m.group(3)))
    for m in INLINE.finditer(text):
        out.append((text.count("\n", 0, m.start(1)) + 1, m.group(1)))
    return out


def skip_swallowed(text):
    """Line numbers where a status of 77 is tested and the skip is not passed on."""
    lines = text.split("\n")
    bad = []
    for i, line in enumerate(lines):
        if line.lstrip().startswith("#") or not STATUS77.search(line):
            continue
        # what follows: a case arm up to its ';;', else the line and the two after it
        if re.match(r"^\s*77\)", line):
            j, body = i, []
            while j < len(lines):
                body.append(lines[j])
                if ";;" in lines[j]:
                    break
                j += 1
            body = "\n".join(body)
        else:
            body = "\n".join(lines[i:i + 3])
        if not PASSES_ON.search(body):
            bad.append(i + 1)
    return bad


def check_file(path, text):
    problems = []
    if path.endswith(".py"):
        for line, what in self_comparisons(text):
            problems.append("%s:%d: compares a value with itself: %s" % (path, line, what))
    elif path.endswith(".sh"):
        for first, code in python_in_shell(text):
            for line, what in self_comparisons(code):
                problems.append("%s:%d: compares a value with itself: %s" % (path, first + line - 1, what))
        for line in skip_swallowed(text):
            problems.append("%s:%d: a sub-test's exit 77 is not passed on as a skip" % (path, line))
    return problems


def self_test():
    bad = {
        "t.sh:nan": "python3 - f <<'PY'\nimport json\nassert x['a'] == x['a']  # not NaN\nPY\n",
        "t.sh:is": "python3 -c 'v = 1; assert v is v'\n",
        "t.sh:py": "py 'import sys; sys.exit(0 if d[\"k\"] == d[\"k\"] else 1)' f\n",
        "t.py:chain": "assert 0 < y == y\n",
        "t.sh:case": "case $rc in\n0) echo ok ;;\n77) echo \"note: skipped\" ;;\nesac\n",
        "t.sh:eq": "if [ $rc -eq 77 ]; then\n    echo ok\nfi\n",
    }
    good = {
        "t.sh:nan": "python3 - f <<'PY'\nimport math\nassert math.isfinite(x['a'])\nPY\n",
        "t.sh:two": "python3 -c 'assert a == b'\n",
        "t.py:x": "assert x['a'] == x['b']\n",
        "t.sh:case": "case $rc in\n77) echo \"SKIP: $n\"; SKIPPED=1 ;;\nesac\n",
        "t.sh:eq": "[ $rc -eq 77 ] && skip \"the part\"\n",
    }
    failed = 0
    for name, text in bad.items():
        if not check_file(name.split(":")[0], text):
            print("FAIL: self-test: not found: %s" % name)
            failed += 1
    for name, text in good.items():
        p = check_file(name.split(":")[0], text)
        if p:
            print("FAIL: self-test: found in a good snippet: %s: %s" % (name, p))
            failed += 1
    print("self-test: %d broken snippets found, %d good ones passed" % (len(bad), len(good))
          if not failed else "self-test: %d wrong" % failed)
    return failed


def main():
    if sys.argv[1:2] == ["--self-test"]:
        sys.exit(1 if self_test() else 0)
    root = sys.argv[1] if len(sys.argv) > 1 else "."
    problems, n = [], 0
    for d, dirs, files in os.walk(os.path.join(root, "tests")):
        dirs[:] = [x for x in dirs if x not in ("fixtures", "corpus")]
        for f in sorted(files):
            if f.endswith((".py", ".sh")):
                path = os.path.join(d, f)
                with open(path, encoding="utf-8", errors="replace") as fh:
                    problems += check_file(os.path.relpath(path, root), fh.read())
                n += 1
    for p in problems:
        print("FAIL: " + p)
    if problems:
        sys.exit(1)
    print("ok: %d test files, %d pieces of Python read (%d that are not Python alone left out): no value "
          "compared with itself, no exit 77 made a pass" % (n, PARSED[0], PARSED[1]))


if __name__ == "__main__":
    main()
