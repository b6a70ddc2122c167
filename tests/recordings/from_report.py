#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# from_report.py REPORT.json RAW.csv[.xz] OUT.rec: a recording (docs/recording.md) made from what a
# benchmark program wrote before recordings existed: its JSON report and its --raw windows. What
# they hold goes in: the machine's facts from the report's context, each run's windows (block and
# empty, with k), the windows it discarded, its repetition counts, the core clock the run measured
# (as the rate the run falls back on: the reference chains themselves were not written) and the
# figures of its add check (which the replay judges from them). What they lack stays out: the
# reference chains (so no harness gap or loop floor is measured again), the stream alongside, the
# block timed once and twice. Written here, independently of the C writer, from the format as
# docs/recording.md states it.
import csv
import io
import json
import struct
import subprocess
import sys


def varint(v):
    if v < 0:
        raise ValueError("a varint is unsigned: %d" % v)
    out = bytearray()
    while True:
        b = v & 0x7F
        v >>= 7
        out.append(b | (0x80 if v else 0))
        if not v:
            return bytes(out)


def name_type(name, t):
    n = name.encode()
    return varint(len(n)) + n + t.encode()


def f_u(name, v):
    return name_type(name, "u") + varint(int(v))


def f_i(name, v):
    v = int(v)
    return name_type(name, "i") + varint(((v << 1) ^ (v >> 63)) & ((1 << 64) - 1))


def f_d(name, v):
    return name_type(name, "d") + struct.pack("<d", float(v))


def f_s(name, s):
    b = (s or "").encode()
    return name_type(name, "s") + varint(len(b)) + b


def f_varints(name, vs):
    return name_type(name, "V") + varint(len(vs)) + b"".join(varint(int(v)) for v in vs)


def section(kind, body):
    return kind.encode() + varint(len(body)) + body


def platform(ctx):
    cpu, tsc, core = ctx["cpu"], ctx["tsc"], ctx["core"]
    feats = cpu.get("features", {})
    hv = ctx.get("hypervisor", {})
    b = f_s("vendor", cpu.get("vendor", "")) + f_s("brand", cpu.get("brand", ""))
    b += f_u("family", cpu.get("family", 0)) + f_u("model", cpu.get("model", 0))
    b += f_u("stepping", cpu.get("stepping", 0)) + f_i("logical_cpus", cpu.get("logical_cpus", 0))
    b += f_i("hypervisor", 1 if hv.get("present") else 0)
    b += f_s("hypervisor_vendor", hv.get("vendor", ""))
    for k in ("invariant_tsc", "rdtscp", "serialize", "lfence_serializing", "rdpid"):
        b += f_u("feature_" + k, 1 if feats.get(k) else 0)
    b += f_u("feature_tsc", 1) + f_u("feature_sse2", 1)
    b += f_i("invariant_tsc", 1 if tsc.get("invariant") else 0)
    b += f_d("tsc_hz", tsc["hz"]) + f_s("tsc_hz_source", tsc.get("hz_source", "measured"))
    b += f_u("quantum", tsc.get("quantum_ticks", 1))
    b += f_d("core_cycles_per_tick", core.get("cycles_per_tick", 0))
    b += f_d("core_hz", core.get("hz", 0))
    if hv.get("cpuid_ticks"):
        b += f_d("cpuid_median_ticks", hv["cpuid_ticks"]) + f_d("cpuid_min_ticks", hv.get("cpuid_ticks_min", 0))
        b += f_i("cpuid_traps", 1 if hv.get("cpuid_traps") else 0) + f_i("cpuid_available", 1)
    return section("P", b)


def windows(raw_path):
    if raw_path.endswith(".xz"):
        text = subprocess.run(["xz", "-dc", raw_path], check=True, stdout=subprocess.PIPE).stdout.decode()
    else:
        text = open(raw_path).read()
    runs = {}
    for row in csv.DictReader(io.StringIO(text)):
        w = runs.setdefault((row["benchmark"], int(row["repetition"])), ([], [], []))
        w[0].append(int(row["ticks"]))
        w[1].append(int(row["empty_ticks"]))
        w[2].append(int(row["k"]))
    return runs


def main(report, raw, out):
    doc = json.load(open(report))
    ctx = doc["context"]
    rows = [b for b in doc["benchmarks"] if b.get("run_type", "iteration") == "iteration"]
    runs = windows(raw)
    mode = 1 if ctx.get("mode") == "throughput" else 0
    prog = f_s("prog", ctx.get("executable", "")) + f_i("mode", mode) + f_i("method", -1)
    prog += f_d("min_time", ctx.get("min_time", 0.2)) + f_u("repetitions", ctx.get("repetitions", 1))
    seen = []
    for b in rows:
        if b["name"] not in seen:
            seen.append(b["name"])
            prog += f_s("instance", b["name"]) + f_u("instance_family", b.get("family_index", 0))
            prog += f_u("instance_index", b.get("per_family_instance_index", 0))
    data = b"tickscope-recording\n" + varint(1) + platform(ctx) + section("O", prog)
    for b in rows:
        real, empty, k = runs[(b["name"], b.get("repetition_index", 0))]
        clock = b.get("core_clock", {})
        check = clock.get("add_check", {})
        disc = b.get("discarded", {})
        r = f_s("role", "run") + f_s("name", b["name"]) + f_s("family", b["name"].split("/")[0])
        r += f_u("mode", mode) + f_s("method", b.get("method", ctx.get("method")))
        r += f_i("optimized", 1 if b.get("optimized", True) else 0)
        r += f_u("quantum", b.get("quantum_ticks", 1)) + f_d("tsc_hz", ctx["tsc"]["hz"])
        r += f_d("calibrated", clock.get("cycles_per_tick", ctx["core"]["cycles_per_tick"]))
        r += f_d("seconds", b.get("seconds", 0)) + f_i("entered", 1)
        for key in ("migrated", "negative", "warmup"):
            r += f_u(key, disc.get(key, 0))
        r += f_varints("ks", b.get("ks", [])) + f_varints("real", real)
        r += f_varints("empty", empty) + f_varints("k", k)
        if check.get("mul_adds") and check.get("fp_adds"):
            r += f_d("check_mul_adds", check["mul_adds"]) + f_d("check_fp_adds", check["fp_adds"])
            r += f_d("check_mul_se", 0) + f_d("check_fp_se", 0)
        data += section("R", r)
    open(out, "wb").write(data)


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit("usage: from_report.py REPORT.json RAW.csv[.xz] OUT.rec")
    main(*sys.argv[1:])
