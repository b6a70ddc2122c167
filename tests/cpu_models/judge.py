#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# judge.py: the verdict of the CPU-model boots (run_qemu.sh). For each model booted, the truth is
# QEMU's definition of it (MODEL.qmp.json: query-cpu-model-expansion) less the features QEMU
# warned TCG cannot give (MODEL.stderr), checked against expected.py's identity and against the
# raw CPUID the VM printed (cpuid_raw.c); then tickscope's own outputs in the VM (MODEL.console:
# `methods`, `info --format json`, the catalogue's forms, `asm --table --only`) are held to it.
#   judge.py WORK_DIR MODEL...
# Prints a FAIL line for every difference, naming the model, what differed, and both values;
# a table of what each model was expected to be; exit 0 when nothing differed, else 1.
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import expected  # noqa: E402

work, models = sys.argv[1], sys.argv[2:]
failures = []
table = []


def fail(model, what):
    failures.append("FAIL: %s: %s" % (model, what))


def parts_of(console):
    """The outputs between "TKS-BEGIN name" and "TKS-END name rc=N": {name: (rc, lines)}."""
    parts, name, lines = {}, None, []
    # The firmware's terminal resets (ESC c, ESC [2J) and its last dots share the line of the
    # first marker: a marker is found anywhere in its line.
    for line in console.splitlines():
        m = re.search(r"TKS-END (.*) rc=(\d+)$", line)
        if name is not None and m and m.group(1) == name:
            parts[name] = (int(m.group(2)), lines)
            name = None
        elif "TKS-BEGIN " in line:
            name, lines = line[line.index("TKS-BEGIN ") + len("TKS-BEGIN "):], []
        elif name is not None:
            lines.append(line)
    return parts


def tcg_removed(stderr):
    """QEMU's names of the features it warned TCG cannot give this model."""
    return set(re.findall(r"TCG doesn't support requested feature: CPUID\.[0-9A-F]+H:[A-Z]+\.(\S+)",
                          stderr))


def read(path):
    with open(path, errors="replace") as f:
        return f.read()


def truth_of(model, qmp, removed, cpuid):
    """The CPU the VM should be: identity from expected.py (checked against QMP and CPUID), and
    each CPUID bit from QEMU's definition less what TCG removed (checked against CPUID)."""
    if model not in expected.IDENTITY:
        fail(model, "expected.py has no identity for this model (add it from QEMU's builtin_x86_defs)")
        return None
    vendor, family, mod, stepping = expected.IDENTITY[model]
    for key, want in (("vendor", vendor), ("family", family), ("model", mod), ("stepping", stepping)):
        if qmp.get(key) != want:
            fail(model, "expected.py says %s %r, this QEMU's definition %r" % (key, want, qmp.get(key)))
        if cpuid.get(key) != str(want):
            fail(model, "expected.py says %s %r, CPUID in the VM %r" % (key, want, cpuid.get(key)))
    truth = {"vendor": vendor, "family": str(family), "model": str(mod), "stepping": str(stepping)}
    for ours, qname in expected.QEMU_NAME.items():
        bit = bool(qmp.get(qname)) and qname not in removed
        truth[ours] = "1" if bit else "0"
        if cpuid.get(ours) != truth[ours]:
            fail(model, "CPUID bit %s: QEMU's definition less TCG's warnings says %s, CPUID in the VM %s"
                 % (ours, truth[ours], cpuid.get(ours)))
    # The brand string is the model's model-id in QEMU's definition.
    truth["brand"] = str(qmp.get("model-id", "")).strip()
    for k in ("xcr0_avx", "xcr0_avx512", "hypervisor_vendor"):
        truth[k] = cpuid.get(k, "?")  # the guest kernel's choice: it enables what CPUID offers
    return truth


def check_info(model, t, lines):
    try:
        doc = json.loads("\n".join(lines))
        cpu = doc["cpu"]
    except (ValueError, KeyError, TypeError) as e:
        fail(model, "info --format json is not a JSON document with cpu (%s)" % e)
        return
    for key in ("vendor", "family", "model", "stepping"):
        if str(cpu.get(key)) != t[key]:
            fail(model, "info cpu.%s is %r, QEMU's model says %s" % (key, cpu.get(key), t[key]))
    want = {"rdtscp": t["rdtscp"] == "1", "serialize": t["serialize"] == "1",
            "invariant_tsc": t["invariant_tsc"] == "1", "rdpid": t["rdpid"] == "1",
            "lfence_serializing": expected.lfence_serialising(t)}
    got = cpu.get("features", {})
    for key, w in want.items():
        if got.get(key) is not w:
            fail(model, "info cpu.features.%s is %r, the truth is %r" % (key, got.get(key), w))
    if cpu.get("brand") != t["brand"]:
        fail(model, "info cpu.brand is %r, QEMU's model-id %r" % (cpu.get("brand"), t["brand"]))
    hv = doc.get("hypervisor", {})
    if hv.get("present") is not (t["hypervisor"] == "1"):
        fail(model, "info hypervisor.present is %r, CPUID.1:ECX[31] is %s" % (hv.get("present"), t["hypervisor"]))
    if t["hypervisor"] == "1" and hv.get("vendor") != t["hypervisor_vendor"]:
        fail(model, "info hypervisor.vendor is %r, CPUID 0x40000000 says %r"
             % (hv.get("vendor"), t["hypervisor_vendor"]))


def check_methods(model, t, lines):
    want = expected.methods_here(t)
    got = {}
    for line in lines:
        m = re.match(r"^(\w+)\s.*?\s(yes \(the default\)|yes|no|kernel only)\s*$", line)
        if m:
            got[m.group(1)] = m.group(2)
    for method, w in sorted(want.items()):
        if got.get(method) != w:
            fail(model, "methods says %s is %r here, the documented rule says %r"
                 % (method, got.get(method), w))


def check_forms(model, t, lines):
    usable = expected.usable_extensions(t)
    named = set()
    for line in lines:
        if line.startswith("FORM "):
            feats, name = line[5:].split(" ", 1)
            need = {f.lower() for f in feats.split("+")} - {"x86-64"}
            named |= need
            if not need <= usable:
                fail(model, "the catalogue chose %r, which needs %s, not offered here"
                     % (name, ",".join(sorted(need - usable))))
    if not any(l.startswith("FORMS ") for l in lines):
        fail(model, "forms_list printed no FORMS count")
    for e in sorted(usable - named):
        fail(model, "the CPU offers %s but the catalogue chose no form of it" % e)
    return usable


def check_probes(model, usable, parts):
    for form, need in expected.PROBE_FORMS.items():
        rc, lines = parts.get("asm-only " + form, (None, []))
        text = "\n".join(lines)
        if need <= usable:
            # Chosen: it goes on to be assembled, and the VM has no assembler: nothing measured.
            ok = rc == 1 and "the assembler `as` is not installed" in text
            what = "chosen (stopping at the missing assembler)"
        else:
            ok = rc == 2 and "no form of the catalogue on this CPU holds it" in text
            what = "refused (no form of the catalogue on this CPU holds it)"
        if not ok:
            fail(model, "asm --table --only %r should be %s; status %s: %s"
                 % (form, what, rc, text.strip()[:200] or "(nothing)"))


for model in models:
    base = os.path.join(work, model)
    try:
        qmp = json.loads(read(base + ".qmp.json"))
    except (OSError, ValueError) as e:
        fail(model, "no QMP expansion of the model (%s; %s)" % (e, read(base + ".qmp.err").strip()))
        continue
    console, stderr = read(base + ".console"), read(base + ".stderr")
    qrc = read(base + ".rc").strip()
    parts = parts_of(console)
    if qrc != "0" or "TKS-DONE" not in console:
        fail(model, "the VM did not run to its end (qemu status %s, 124: timed out); console tail: %s"
             % (qrc, " | ".join(console.splitlines()[-8:])))
    for name in ("cpuid", "methods", "forms", "info"):
        if parts.get(name, (None,))[0] != 0:
            fail(model, "%s in the VM: status %s: %s" % (name, parts.get(name, (None,))[0],
                 " | ".join(parts.get(name, (None, []))[1][-5:]) or "(no output)"))
    cpuid = {}
    for line in parts.get("cpuid", (0, []))[1]:
        f = line.split()
        if len(f) == 3 and f[0] == "CPUID":
            cpuid[f[1]] = f[2]
    if "vendor" not in cpuid:
        fail(model, "cpuid_raw printed nothing in the VM: no truth to hold tickscope to")
        continue
    removed = tcg_removed(stderr)
    t = truth_of(model, qmp, removed, cpuid)
    if t is None:
        continue
    check_info(model, t, parts.get("info", (0, []))[1])
    check_methods(model, t, parts.get("methods", (0, []))[1])
    usable = check_forms(model, t, parts.get("forms", (0, []))[1])
    check_probes(model, usable, parts)
    default = [m for m, h in expected.methods_here(t).items() if h.endswith("(the default)")][0]
    lost = sorted(q for q in removed if q in expected.QEMU_NAME.values() and qmp.get(q))
    table.append((model, "%s %s/%s/%s" % (t["vendor"], t["family"], t["model"], t["stepping"]),
                  "rdtscp=%s serialize=%s invtsc=%s lfence_ser=%d" % (
                      t["rdtscp"], t["serialize"], t["invariant_tsc"], expected.lfence_serialising(t)),
                  default, "avx512=%s avx2=%s" % ("avx512f" in usable, "avx2" in usable),
                  "TCG removed: " + (",".join(lost) or "-")))

print("---- expected, per model (QEMU's definition less TCG's warnings; documented rules)")
for row in table:
    print("%-15s %-22s %-52s default=%-13s %-25s %s" % row)
for f in failures:
    print(f)
if failures:
    sys.exit(1)
print("PASS: %d CPU models: tickscope's identity, features, methods and catalogue forms match QEMU's models"
      % len(table))
