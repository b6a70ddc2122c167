#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# skips.py: the end of `make check`: every test CTest skipped (exit 77, SKIP_RETURN_CODE) or could
# not run, with the reason the test printed ("SKIP: ..."), from the JUnit file ctest wrote.
# usage: skips.py JUNIT_XML. Exit 0, or 1 when TKS_CI=1 and anything was skipped (CI installs
# everything every test needs, so a skip there is a missing package in .ci/run). The one
# exception is hardware the machine lacks, which no package brings: a test says so with
# "SKIP: hardware: <what is missing>", listed apart and allowed under TKS_CI=1 when every reason
# the test gave is of that kind.
import os
import sys
import xml.etree.ElementTree as ET

path = sys.argv[1]
try:
    cases = ET.parse(path).getroot().iter("testcase")
except (OSError, ET.ParseError) as e:
    print("tickscope: no test results to list skips from (%s)" % e)
    sys.exit(1 if os.environ.get("TKS_CI") == "1" else 0)
skipped = []
for c in cases:
    if c.get("status") not in ("notrun", "disabled"):
        continue  # run: passed or failed, which ctest has reported
    out = c.findtext("system-out") or ""
    reasons = [l[5:].strip() for l in out.splitlines() if l.startswith("SKIP:")]
    why = "; ".join(reasons) if reasons else (c.find("skipped").get("message")
                                              if c.find("skipped") is not None else c.get("status"))
    hardware = bool(reasons) and all(r.startswith("hardware:") for r in reasons)
    skipped.append((c.get("name"), why, hardware))
if not skipped:
    print("Skipped: none.")
    sys.exit(0)
print("Skipped: %d test(s):" % len(skipped))
for name, why, _ in sorted(skipped):
    print("  %-28s %s" % (name, why))
if os.environ.get("TKS_CI") == "1" and all(hw for _, _, hw in skipped):
    print("TKS_CI=1: every skip is hardware this machine lacks (no package brings it)")
elif os.environ.get("TKS_CI") == "1":
    print("FAIL: TKS_CI=1: CI must skip nothing (install what is named above in .ci/run)")
    sys.exit(1)
