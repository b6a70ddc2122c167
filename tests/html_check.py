# SPDX-License-Identifier: MIT
# html_check.py: checks one HTML report as Chromium left it (--dump-dom, after its scripts ran)
# against the JSON of the same run: every <svg> has drawn elements, nothing is fetched from
# anywhere (no src, no href, no url(), no @import, no http(s) outside the SVG namespace), and the
# numbers in the rows' data attributes equal the JSON's. Usage:
#   python3 html_check.py KIND PAGE.dom JSON      (KIND: bench, compare, sys, asm)
# Prints what it checked; exit 1 on the first mismatch. Used by tests/cli_html.sh.
import json
import math
import re
import sys
from html.parser import HTMLParser

DRAWN = {"path", "circle", "rect", "line", "polyline", "text"}


class Page(HTMLParser):
    def __init__(self):
        super().__init__()
        self.svgs = []        # drawn elements per <svg>
        self.in_svg = 0
        self.rows = {}        # table id -> [attrs of each <tr> with data-*]
        self.table = None
        self.fetches = []
        self.marks = []       # data-bytes of the knees' marks

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        for k in ("src", "href"):
            if k in a:
                self.fetches.append(f"<{tag} {k}={a[k]}>")
        if tag == "svg":
            self.in_svg += 1
            self.svgs.append(0)
        elif self.in_svg and tag in DRAWN:
            d = a.get("d", "x")
            if d.strip() not in ("", "M"):
                self.svgs[-1] += 1
        if tag == "table":
            self.table = a.get("id")
            self.rows.setdefault(self.table, [])
        if tag == "tr" and self.table and any(k.startswith("data-") for k in a):
            self.rows[self.table].append(a)
        if tag == "g" and a.get("class") == "knee-mark":
            self.marks.append(int(a["data-bytes"]))

    def handle_endtag(self, tag):
        if tag == "svg":
            self.in_svg -= 1
        if tag == "table":
            self.table = None


def num(a, key):
    v = a.get("data-" + key)
    return None if v in (None, "") else float(v)


def same(x, y):
    if x is None or y is None:
        return x is None and (y is None or (isinstance(y, float) and not math.isfinite(y)))
    return x == y or abs(x - y) <= 1e-12 * max(abs(x), abs(y))


def need(ok, what):
    if not ok:
        print("FAIL:", what)
        sys.exit(1)


def main():
    kind, dom, doc_path = sys.argv[1:4]
    text = open(dom, encoding="utf-8").read()
    doc = json.load(open(doc_path))
    p = Page()
    p.feed(text)
    need(p.svgs or kind == "asm", f"{kind}: no <svg> on the page")
    need(all(n > 0 for n in p.svgs), f"{kind}: an <svg> with nothing drawn: {p.svgs}")
    need(not p.fetches, f"{kind}: the page fetches something: {p.fetches[:3]}")
    outside = re.sub(r'xmlns="http://www.w3.org/2000/svg"', "", text)
    need(not re.search(r"https?://|url\(|@import", outside), f"{kind}: a network reference")
    checked = 0
    if kind == "bench":
        rows = p.rows.get("benchmarks", [])
        runs = [b for b in doc["benchmarks"] if b.get("run_type") == "iteration"]
        need(len(rows) == len(runs), f"bench: {len(rows)} rows on the page, {len(runs)} in the JSON")
        for a, b in zip(rows, runs):
            need(a["data-name"] == b["name"], f"bench: name {a['data-name']} vs {b['name']}")
            if "ticks" not in b:
                continue
            for key, want in (("ticks", b["ticks"]), ("ticks-lo", b["ticks_ci"][0]),
                              ("ticks-hi", b["ticks_ci"][1]), ("core-cycles", b.get("core_cycles"))):
                need(same(num(a, key), want), f"bench {b['name']}: {key} {num(a, key)} vs {want}")
                checked += 1
    elif kind == "compare":
        rows = p.rows.get("compare", [])
        need(len(rows) == len(doc["benchmarks"]), "compare: row count")
        for a, b in zip(rows, doc["benchmarks"]):
            need(a["data-name"] == b["name"] and a["data-verdict"] == b["verdict"],
                 f"compare: {a['data-name']} {a['data-verdict']} vs {b['name']} {b['verdict']}")
            for key, want in (("old", b["old"]), ("new", b["new"]), ("change", b["change"]),
                              ("change-lo", b["change_ci"][0]), ("change-hi", b["change_ci"][1])):
                need(same(num(a, key), want), f"compare {b['name']}: {key} {num(a, key)} vs {want}")
                checked += 1
    elif kind == "sys":
        for s in doc["suites"]:
            rows = p.rows.get("ops-" + s["suite"], [])
            need(len(rows) == len(s["operations"]), f"sys {s['suite']}: row count")
            for a, o in zip(rows, s["operations"]):
                need(a["data-id"] == o["id"], f"sys: id {a['data-id']} vs {o['id']}")
                if not o["ok"]:
                    continue
                for key, want in (("ticks", o["ticks"]["value"]), ("ticks-lo", o["ticks"]["lo"]),
                                  ("ticks-hi", o["ticks"]["hi"]),
                                  ("core-cycles", o["core_cycles"]["value"]), ("ns", o["ns"]["value"])):
                    need(same(num(a, key), want), f"sys {o['id']}: {key} {num(a, key)} vs {want}")
                    checked += 1
            if s["suite"] == "mem" and s.get("curve"):
                rows = p.rows.get("curve", [])
                need(len(rows) == len(s["curve"]), "sys: curve points")
                for a, c in zip(rows, s["curve"]):
                    need(int(a["data-bytes"]) == c["bytes"], "sys: curve bytes")
                    need(same(num(a, "core-cycles"), c["core_cycles"]) and same(num(a, "ticks"), c["ticks"]),
                         f"sys: curve at {c['bytes']}")
                    checked += 2
                need(p.marks == s["knees"], f"sys: knees drawn {p.marks} vs {s['knees']}")
    elif kind == "asm":
        rows = p.rows.get("forms", [])
        need(len(rows) == len(doc["rows"]), "asm: row count")
        for a, r in zip(rows, doc["rows"]):
            need(a["data-name"] == (r.get("name") or ""), f"asm: name {a['data-name']}")
            if r.get("error"):
                continue
            for key, jkey in (("ticks", "ticks_per_copy"), ("core-cycles", "core_cycles")):
                want = r[jkey]["value"] if isinstance(r[jkey], dict) else r[jkey]
                need(same(num(a, key), want), f"asm {a['data-name']}: {key} {num(a, key)} vs {want}")
                checked += 1
    need(checked > 0, f"{kind}: no number was compared")
    print(f"ok: {kind}: {len(p.svgs)} figure(s) drawn, {checked} numbers equal the JSON")


main()
