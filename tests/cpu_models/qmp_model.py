#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# qmp_model.py: QEMU's own definition of a CPU model, for the CPU-model boots (run_qemu.sh): the
# QMP command query-cpu-model-expansion (type "full") asked of the emulator stopped before it runs
# anything, under TCG, with the machine type the boots use (which resolves a model alias such as
# Skylake-Server to a version). Prints the model's properties as one JSON object (vendor,
# family, model, stepping, and every feature as true/false, under QEMU's names: "rdtscp",
# "invtsc", "avx512f", ...).
#   qmp_model.py QEMU MODEL
import json
import subprocess
import sys

qemu, model = sys.argv[1], sys.argv[2]
cmds = [{"execute": "qmp_capabilities"},
        {"execute": "query-cpu-model-expansion",
         "arguments": {"type": "full", "model": {"name": model}}},
        {"execute": "quit"}]
out = subprocess.run([qemu, "-machine", "pc", "-accel", "tcg", "-S", "-nodefaults", "-display", "none",
                      "-qmp", "stdio"], input="".join(json.dumps(c) + "\n" for c in cmds),
                     capture_output=True, text=True, timeout=60).stdout
for line in out.splitlines():
    try:
        reply = json.loads(line)
    except ValueError:
        continue
    ret = reply.get("return")
    if isinstance(ret, dict) and "model" in ret:
        json.dump(ret["model"]["props"], sys.stdout, sort_keys=True)
        print()
        sys.exit(0)
    if "error" in reply:
        sys.exit("qmp_model.py: %s: %s" % (model, reply["error"].get("desc")))
sys.exit("qmp_model.py: no expansion of %s in QEMU's answer" % model)
