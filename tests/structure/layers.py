#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""layers.py ROOT: the code's dependencies go one way, down the layer order of
docs/ARCHITECTURE.md ("## Layers": the src/ folders named in backquotes in its table, lowest
first).

Every folder under src/ is a layer and must be listed. A public header (include/tickscope/*.h)
belongs to the layer whose folder defines most of its TKS_API functions (a header that declares
none, such as the freestanding clock.h, belongs to no layer: anyone may include it). Then:

  - a source file may include headers of its own folder and of folders listed before it;
  - a source file may include a public header of its own layer or of one before it;
  - a public header may include public headers of its own layer or of layers before it;
  - a source file may call a TKS_API function only if the folder defining it comes no later
    than its own (what a header's types cannot show: a report calling the runner);
  - kmod/ (the kernel module) includes only public headers and src/arch's shared add chain.

Run on tests/structure/fixtures/layers_* by tests/structure/layers_fixture.sh, which shows that
each rule can fail.
"""
import glob
import os
import re
import sys

root = sys.argv[1]
problems = []

doc_path = os.path.join(root, "docs", "ARCHITECTURE.md")
if not os.path.exists(doc_path):
    print("FAIL: docs/ARCHITECTURE.md is missing")
    sys.exit(1)
doc = open(doc_path, encoding="utf-8").read()
m = re.search(r"^## Layers\n(.*?)(?=^## |\Z)", doc, re.S | re.M)
if not m:
    print("FAIL: docs/ARCHITECTURE.md has no '## Layers' section")
    sys.exit(1)
order = [c.group(1) for c in (re.match(r"^\|\s*`(src/[a-z0-9_]+)/`", line)
                              for line in m.group(1).splitlines()) if c]
if len(order) < 2:
    print("FAIL: the Layers table lists %d src/ folders" % len(order))
    sys.exit(1)
rank = {folder: i for i, folder in enumerate(order)}

src = os.path.join(root, "src")
present = sorted("src/" + d for d in os.listdir(src) if os.path.isdir(os.path.join(src, d)))
for folder in present:
    if folder not in rank:
        problems.append("%s/ is not in docs/ARCHITECTURE.md's Layers table" % folder)
for folder in order:
    if folder not in present:
        problems.append("the Layers table lists %s/, which does not exist" % folder)
for f in os.listdir(src):
    if f.endswith((".c", ".h")):
        problems.append("src/%s is in no folder (every file belongs to a layer)" % f)


def layer_of(rel):
    """'src/report/common/json.c' -> 'src/report' (a layer's subfolders are the layer)."""
    parts = rel.split(os.sep)
    return "/".join(parts[:2]) if parts[0] == "src" and len(parts) > 2 else None


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", " ", text)


sources = []
for dirpath, _, files in os.walk(src):
    for name in files:
        if name.endswith((".c", ".h")):
            sources.append(os.path.relpath(os.path.join(dirpath, name), root))
sources.sort()

# The public headers' functions, and where each is defined.
public = {}
declared = {}
for h in sorted(glob.glob(os.path.join(root, "include", "tickscope", "*.h"))):
    name = os.path.basename(h)
    public[name] = strip_comments(open(h, encoding="utf-8", errors="replace").read())
    for fn in re.finditer(r"TKS_API\s+[^;(]*?([A-Za-z_]\w*)\s*\(", public[name]):
        declared[fn.group(1)] = name
defined = {}
def_re = re.compile(r"^[A-Za-z_][^;{}()]*?\b([a-z_][a-z0-9_]*)\s*\([^;]*$", re.M)
for rel in sources:
    if not rel.endswith(".c"):
        continue
    text = strip_comments(open(os.path.join(root, rel), encoding="utf-8", errors="replace").read())
    for d in def_re.finditer(text):
        if d.group(1) in declared and layer_of(rel):
            defined.setdefault(d.group(1), layer_of(rel))
header_layer = {}
for name in public:
    votes = {}
    for fn, h in declared.items():
        if h == name and fn in defined and defined[fn] in rank:
            votes[defined[fn]] = votes.get(defined[fn], 0) + 1
    if votes:
        header_layer[name] = max(votes, key=lambda f: (votes[f], -rank[f]))

include_re = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def public_name(target):
    if target.startswith("tickscope/"):
        return target[len("tickscope/"):]
    if target.startswith("../tickscope/"):
        return target[len("../tickscope/"):]
    return None


# Public headers among themselves.
for name, text in public.items():
    for inc in include_re.finditer(text):
        target = inc.group(1)
        other = public_name(target) or (target if target in public else None)
        if not other or other not in public:
            continue
        a, b = header_layer.get(name), header_layer.get(other)
        if a and b and rank[b] > rank[a]:
            problems.append("include/tickscope/%s (layer %s) includes %s of %s, which comes later"
                            % (name, a, other, b))

call_re = re.compile(r"\b(tks_[a-z0-9_]+)\s*\(")
checked = 0
for rel in sources:
    here = layer_of(rel)
    path = os.path.join(root, rel)
    raw = open(path, encoding="utf-8", errors="replace").read()
    for n, line in enumerate(raw.splitlines(), 1):
        inc = include_re.match(line)
        if not inc:
            continue
        target = inc.group(1)
        checked += 1
        pub = public_name(target)
        if pub is not None or target == "tickscope.h":
            h = header_layer.get(pub) if pub else None
            if h and here in rank and rank[h] > rank[here]:
                problems.append("%s:%d: %s (layer %d) includes tickscope/%s of %s (layer %d), "
                                "which comes later" % (rel, n, here, rank[here], pub, h, rank[h]))
            continue
        beside = os.path.normpath(os.path.join(os.path.dirname(path), target))
        if "/" in target and os.path.exists(beside) and \
                layer_of(os.path.relpath(beside, root)) == here:
            continue  # a subfolder of its own layer (arch/x86/)
        if "/" not in target:
            if not os.path.exists(os.path.join(os.path.dirname(path), target)):
                problems.append("%s:%d: #include \"%s\" is not in its folder" % (rel, n, target))
            continue
        folder = "src/" + target.split("/")[0]
        if folder not in rank:
            problems.append("%s:%d: \"%s\" is in no listed folder" % (rel, n, target))
        elif here in rank and rank[folder] > rank[here]:
            problems.append("%s:%d: %s (layer %d) includes \"%s\" from %s (layer %d), which "
                            "comes later" % (rel, n, here, rank[here], target, folder, rank[folder]))
    if rel.endswith(".c") and here in rank:
        for call in set(call_re.findall(strip_comments(raw))):
            there = defined.get(call)
            if there and rank[there] > rank[here]:
                problems.append("%s: %s (layer %d) calls %s, defined in %s (layer %d), which "
                                "comes later" % (rel, here, rank[here], call, there, rank[there]))

kmod = os.path.join(root, "kmod")
for dirpath, _, files in os.walk(kmod) if os.path.isdir(kmod) else []:
    for name in files:
        if not name.endswith((".c", ".h")):
            continue
        rel = os.path.relpath(os.path.join(dirpath, name), root)
        for n, line in enumerate(open(os.path.join(dirpath, name), encoding="utf-8",
                                      errors="replace"), 1):
            inc = include_re.match(line)
            if not inc:
                continue
            target = inc.group(1)
            checked += 1
            if public_name(target) is not None or os.path.exists(os.path.join(dirpath, target)):
                continue
            if target in ("add_chain.h",) or target.startswith("arch/"):
                continue  # the add chain shared with the library (kmod/Kbuild's -I)
            problems.append("%s:%d: the module includes only public headers and the shared add "
                            "chain, not \"%s\"" % (rel, n, target))

for p in problems:
    print("FAIL: " + p)
print("%d includes and the calls of %d files checked against the order %s"
      % (checked, len(sources), " -> ".join(order)))
sys.exit(1 if problems else 0)
