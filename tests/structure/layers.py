#!/usr/bin/env python3
"""layers.py SOURCE_DIR: every #include in src/ and kmod/ goes up the documented layer order.

The order is read from the README's "Layout" section (the folders named in backquotes in its
table, top to bottom), so the document and the code cannot drift apart: a file may include
headers of its own folder and of the folders listed above it, and the public headers (include/),
never a folder listed below it. Every folder under src/ must be listed.
"""
import os
import re
import sys

root = sys.argv[1]
readme = open(os.path.join(root, "README.md"), encoding="utf-8").read()
m = re.search(r"^## Layout\n(.*?)(?=^## )", readme, re.S | re.M)
if not m:
    print("FAIL: README.md has no '## Layout' section")
    sys.exit(1)
order = []
for line in m.group(1).splitlines():
    cell = re.match(r"^\|\s*`(src/[a-z_]+)/`", line)
    if cell:
        order.append(cell.group(1))
if len(order) < 3:
    print("FAIL: the Layout section lists %d src/ folders in its table" % len(order))
    sys.exit(1)
rank = {folder: i for i, folder in enumerate(order)}

problems = []
present = sorted("src/" + d for d in os.listdir(os.path.join(root, "src"))
                 if os.path.isdir(os.path.join(root, "src", d)))
for folder in present:
    if folder not in rank:
        problems.append("%s/ is not in the README's Layout table" % folder)
for folder in order:
    if folder not in present:
        problems.append("the README's Layout table lists %s/, which does not exist" % folder)
loose = [f for f in os.listdir(os.path.join(root, "src")) if f.endswith((".c", ".h"))]
for f in loose:
    problems.append("src/%s is in no folder (every file belongs to a layer)" % f)

include_re = re.compile(r'^\s*#\s*include\s+"([^"]+)"')
checked = 0
for top in ("src", "kmod"):
    for dirpath, _, files in os.walk(os.path.join(root, top)):
        for name in files:
            if not name.endswith((".c", ".h")):
                continue
            path = os.path.join(dirpath, name)
            rel = os.path.relpath(path, root)
            here = "/".join(os.path.dirname(rel).split(os.sep)[:2])  # src/arch/x86 is src/arch
            for n, line in enumerate(open(path, encoding="utf-8", errors="replace"), 1):
                inc = include_re.match(line)
                if not inc:
                    continue
                target = inc.group(1)
                checked += 1
                if target.startswith("tickscope/") or target == "tickscope.h" or \
                        target.startswith("../tickscope"):
                    continue  # the public headers are for everyone
                beside = os.path.normpath(os.path.join(dirpath, target))
                if os.path.exists(beside) and top == "src":
                    # Beside the file (its folder, or a subfolder of its layer: arch/x86/); the
                    # layer it is in must not come later.
                    target = "/".join(os.path.relpath(beside, os.path.join(root, "src"))
                                      .split(os.sep))
                    if target.split("/")[0] == here.split("/")[1]:
                        continue
                elif "/" not in target:
                    if os.path.exists(os.path.join(dirpath, target)):
                        continue  # its own folder
                    if top == "kmod" and target in ("add_chain.h", "work_cases.h"):
                        continue  # the add chain shared with src/arch (kmod/Kbuild's -I)
                    problems.append("%s:%d: #include \"%s\" is not in its folder" % (rel, n, target))
                    continue
                if top == "kmod":
                    problems.append("%s:%d: the module includes only public headers and the "
                                    "shared add chain, not \"%s\"" % (rel, n, target))
                    continue
                folder = "src/" + target.split("/")[0]
                if folder not in rank:
                    problems.append("%s:%d: \"%s\" is in no listed folder" % (rel, n, target))
                elif rank[folder] > rank[here]:
                    problems.append("%s:%d: %s/ (layer %d) includes \"%s\" from %s/ (layer %d), "
                                    "which comes later" % (rel, n, here, rank[here], target,
                                                          folder, rank[folder]))

for p in problems:
    print("FAIL: " + p)
print("%d includes checked against the order %s" % (checked, " -> ".join(order)))
sys.exit(1 if problems else 0)
