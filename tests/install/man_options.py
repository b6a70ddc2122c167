#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""man_options.py: every command has a man page and every page's options are its --help's.

usage: man_options.py TICKSCOPE BENCH_PROG MAN_SOURCE_DIR

- each command `tickscope help` lists has man/tickscope-CMD.1.scd, except the few documented in
  tickscope.1 itself (methods, tour, help, version), which must be items of its COMMANDS section;
- each man/tickscope-CMD.1.scd names a command `tickscope help` lists;
- for each page with an OPTIONS section, every option of `tickscope CMD --help` is an item there,
  and every item there is an option of --help; tickscope-bench.3 is checked the same way against
  a tks_main program's --help;
- every page converts with scdoc, when scdoc is installed (man/generate.sh makes the pages);
- tickscope.1's SEE ALSO names every other page, and every other page's SEE ALSO names
  tickscope(1).
"""
import os
import re
import shutil
import subprocess
import sys

OVERVIEW_ONLY = {"methods", "tour", "help", "version"}
OPTION = re.compile(r"(?<![\w-])(--[a-z0-9][a-z0-9_-]*)")


def run(argv):
    p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       universal_newlines=True, timeout=60)
    return p.returncode, p.stdout


def commands(tickscope):
    rc, text = run([tickscope, "help"])
    if rc != 0:
        raise SystemExit("FAIL: `tickscope help` exited %d" % rc)
    block = text.split("commands:", 1)[1].split("\n\n", 1)[0]
    return [m.group(1) for m in re.finditer(r"^  ([a-z][a-z0-9-]*)\s", block, re.M)]


def sections(scd):
    """{section title: its text} of an scdoc page."""
    out, title = {}, ""
    for line in scd.splitlines():
        m = re.match(r"^# (.+)$", line)
        if m:
            title = m.group(1).strip()
            out[title] = ""
        else:
            out[title] = out.get(title, "") + line + "\n"
    return out


def items(text):
    """Options that are items (terms) of a section: lines starting with *--opt*."""
    found = set()
    for line in text.splitlines():
        if line.startswith("*--"):
            found.update(re.findall(r"\*(--[a-z0-9][a-z0-9_-]*)\*", line))
    return found


def main():
    tickscope, bench_prog, mandir = sys.argv[1:4]
    failures = []
    cmds = commands(tickscope)
    if not cmds:
        raise SystemExit("FAIL: no commands found in `tickscope help`")
    pages = {f[:-4]: open(os.path.join(mandir, f)).read()
             for f in sorted(os.listdir(mandir)) if f.endswith(".scd")}
    overview = pages.get("tickscope.1")
    if overview is None:
        raise SystemExit("FAIL: man/tickscope.1.scd is missing")
    listed = set(re.findall(r"^\*([a-z][a-z0-9-]*)\*", sections(overview).get("COMMANDS", ""), re.M))

    checks = []  # (page name, help text)
    for c in cmds:
        if c not in listed:
            failures.append("tickscope.1 does not list command '%s' under COMMANDS" % c)
        if c in OVERVIEW_ONLY:
            continue
        name = "tickscope-%s.1" % c
        if name not in pages:
            failures.append("command '%s' has no man page (man/%s.scd)" % (c, name))
            continue
        rc, text = run([tickscope, c, "--help"])
        if rc != 0:
            failures.append("`tickscope %s --help` exited %d" % (c, rc))
        checks.append((name, text))
    for name in pages:
        m = re.match(r"^tickscope-(.+)\.1$", name)
        if m and m.group(1) not in cmds:
            failures.append("man/%s.scd documents '%s', which `tickscope help` does not list"
                            % (name, m.group(1)))
    main_help = run([tickscope, "help"])[1] + run([tickscope, "methods", "--help"])[1]
    checks.append(("tickscope.1", main_help))
    if "tickscope-bench.3" not in pages:
        failures.append("man/tickscope-bench.3.scd is missing")
    else:
        checks.append(("tickscope-bench.3", run([bench_prog, "--help"])[1]))

    compared = 0
    for name, help_text in checks:
        page = pages[name]
        in_help = set(OPTION.findall(help_text))
        secs = sections(page)
        if "OPTIONS" in secs:
            in_page = items(secs["OPTIONS"])
            for o in sorted(in_help - in_page):
                failures.append("%s: %s is in --help but not an item of OPTIONS" % (name, o))
            for o in sorted(in_page - in_help):
                failures.append("%s: %s is in OPTIONS but not in --help" % (name, o))
        else:
            for o in sorted(in_help):
                if not re.search(r"(?<![\w-])%s(?![\w-])" % re.escape(o), page):
                    failures.append("%s: %s is in --help but not in the page" % (name, o))
        compared += len(in_help)
        print("ok: %s against its --help (%d options)" % (name, len(in_help)))

    for name in pages:
        see = sections(pages[name]).get("SEE ALSO", "")
        named = set("%s.%s" % m for m in re.findall(r"\*([a-z][a-z0-9-]*)\*\(([1-9])\)", see))
        if name == "tickscope.1":
            for other in sorted(set(pages) - {name} - named):
                failures.append("tickscope.1: SEE ALSO does not name %s" % other)
        elif "tickscope.1" not in named:
            failures.append("%s: SEE ALSO does not name tickscope(1)" % name)

    scdoc = shutil.which("scdoc")
    if scdoc:
        for name, page in pages.items():
            p = subprocess.run([scdoc], input=page, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, universal_newlines=True)
            if p.returncode != 0:
                failures.append("man/%s.scd: scdoc: %s" % (name, p.stderr.strip()))
    else:
        print("note: scdoc not installed, the pages' syntax is not checked (apt-get install scdoc)")

    for f in failures:
        print("FAIL: " + f)
    if failures:
        return 1
    print("ok: %d commands, %d pages, %d options compared" % (len(cmds), len(pages), compared))
    return 0


if __name__ == "__main__":
    sys.exit(main())
