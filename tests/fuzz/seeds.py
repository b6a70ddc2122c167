#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""seeds.py SOURCE_DIR OUT_DIR [TICKSCOPE]: starting inputs for each fuzz harness, in OUT_DIR/NAME/.

numbers: the spellings the README and --help show; options: every option of each parser's --help
with a value; procfs: the fixture trees (tests/fixtures) and this machine's own files, once per
reader; kmsg: the fixture log and this machine's (dmesg, when readable); cache: a real cache file
written by TICKSCOPE (tickscope info), its key first; env: the variables' documented values.
"""
import os
import re
import subprocess
import sys
import tempfile

src, out = sys.argv[1], sys.argv[2]
tickscope = sys.argv[3] if len(sys.argv) > 3 else None
count = {}


def seed(name, data):
    if isinstance(data, str):
        data = data.encode()
    d = os.path.join(out, name)
    os.makedirs(d, exist_ok=True)
    count[name] = count.get(name, 0) + 1
    with open(os.path.join(d, "seed-%04d" % count[name]), "wb") as f:
        f.write(data)


def run(argv, **kw):
    try:
        return subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                              timeout=120, **kw).stdout.decode(errors="replace")
    except (OSError, subprocess.SubprocessError):
        return ""


# numbers
for v in ["0", "1", "2", "100", "10000", "4294967295", "4294967296", "-1", "+1", "1e99", "2.3GHz",
          "2300M", "2300000000", "2.3ghz", "2.3 GHz", "0.4", "0.5s", "60", "86400", "86401", "nan",
          "inf", "0x10", "", " ", "1k", "9999999999999G", "0-3,8,10-11", "(null)", "0-1", "3",
          "1-0", "0,,1", "4095", "0-4095"]:
    seed("numbers", v)

# options: the first byte picks the parser (0 tks_main, 1 validate, 2 resolution, 3 info, 4 asm,
# 5 sys, 6 compare).
values = {"FILE": "out.json", "DIR": "plots", "HZ": "2.3GHz", "CPU": "1", "LIST": "lfence,rdtsc",
          "M": "lfence", "N": "60", "S": "5000", "E": "50", "SECS": "0.3", "SECONDS": "0.2",
          "MODE": "latency", "NAME": "lfence", "REGEX": "^bm_", "FORMAT": "json", "PATH": "/dev/tickscope"}
gb = ["--benchmark_filter=x", "--benchmark_format=json", "--benchmark_out=o.json",
      "--benchmark_repetitions=3", "--benchmark_min_time=0.5s", "--benchmark_list_tests"]
for sel, cmd in enumerate([None, "validate", "resolution", "info", "asm", "sys", "compare"]):
    text = ""
    if tickscope:
        text = run([tickscope, cmd, "--help"]) if cmd else ""
    if not cmd:
        text = "\n".join("  %s %s" % (o, m) for o, m in [
            ("--filter", "REGEX"), ("--method", "NAME"), ("--mode", "MODE"), ("--min-time", "SECONDS"),
            ("--repetitions", "N"), ("--pin", "CPU"), ("--format", "FORMAT"), ("--out", "FILE"),
            ("--raw", "FILE"), ("--plot", "DIR"), ("--tsc-hz", "HZ"), ("--fifo", ""), ("--list", ""),
            ("--isolate", ""), ("--histogram", ""), ("--quiet", ""), ("--recalibrate", "")])
    args = []
    for m in re.finditer(r"^ {1,4}(--[a-z0-9-]+)(?: ([A-Z]+))?", text, re.M):
        opt, meta = m.group(1), m.group(2)
        if opt == "--help":
            continue
        args.append([opt, values.get(meta, "1")] if meta else [opt])
        seed("options", bytes([sel]) + "\n".join(args[-1]).encode())
    seed("options", bytes([sel]) + "\n".join(a for arg in args for a in arg).encode())
    if not cmd:
        seed("options", bytes([sel]) + "\n".join(gb).encode())

# procfs: the paths the harness knows, read from its own table.
harness = open(os.path.join(src, "tests/fuzz/fuzz_procfs.c")).read()
table = harness[harness.index("paths[] = {"):harness.index("};", harness.index("paths[] = {"))]
paths = re.findall(r'"(/[^"]+)"', table)
nreaders = 14 + 4
trees = [os.path.join(src, "tests/fixtures/env", t) for t in sorted(os.listdir(os.path.join(src, "tests/fixtures/env")))]
trees += [os.path.join(src, "tests/fixtures/boot"), "/"]
for tree in trees:
    records = b""
    for i, p in enumerate(paths):
        f = os.path.join(tree, p.lstrip("/"))
        if p == "/dev/kmsg" and tree == "/":
            continue  # a character device: read by the kmsg seeds below instead
        try:
            with open(f, "rb") as fh:
                data = fh.read(4096)
        except OSError:
            continue
        records += bytes([i, len(data) & 0xff, len(data) >> 8]) + data
    for which in range(nreaders):
        seed("procfs", bytes([which]) + records)
        seed("procfs", bytes([which | 0x80]) + records)

# kmsg
with open(os.path.join(src, "tests/fixtures/boot/dev/kmsg"), "rb") as f:
    seed("kmsg", f.read())
seed("kmsg", "6,1,0,-;tsc: Detected 2300.000 MHz processor\n6,2,1,-;tsc: Refined TSC clocksource calibration: 2299.999 MHz\n")
log = run(["dmesg"])
if log:
    seed("kmsg", log[-16384:])

# cache: a real file; the harness reads its first line as the key to match.
if tickscope:
    with tempfile.TemporaryDirectory() as d:
        env = dict(os.environ, TICKSCOPE_CACHE_DIR=d)
        run([tickscope, "info", "--quiet"], env=env)
        for name in os.listdir(d):
            with open(os.path.join(d, name), "rb") as f:
                data = f.read()
            m = re.search(rb"^key (.*)$", data, re.M)
            seed("cache", (m.group(1) if m else b"") + b"\n" + data)
seed("cache", b"k\ntickscope-calibration 1\nkey k\ndeclared 0 2300000000 x\nend\n")

# env: OUT, FORMAT, RESERVOIR, METHOD, SIGNAL, TICKSCOPE_CACHE_DIR, XDG_CACHE_HOME, HOME
for v in [["stderr", "text", "0", "lfence", "USR1", "/tmp/c", "/tmp/x", "/root"],
          ["stdout", "json", "1000", "rdtscp", "USR2", "", "", ""],
          ["none", "csv", "100000000", "cpuid", "SIGUSR1", "/c", "", "/home/u"],
          ["report.txt", "txt", "100000001", "cr0", "10", "", "/x", ""],
          ["", "markdown", "-1", "nosuch", "0"]]:
    seed("env", "\n".join(v))

# json: result files of ours (a tks_main program's, written by the build's test program when it is
# there) and of Google Benchmark, and shapes the reader must take or refuse.
prog = os.path.join(os.path.dirname(tickscope), "tests", "tks_bench_prog") if tickscope else ""
if prog and os.access(prog, os.X_OK):
    for extra in [[], ["--repetitions", "2"], ["--mode", "throughput"]]:
        out = run([prog, "--filter", "^(add40|empty)$", "--min-time", "0.01", "--format", "json",
                   "--quiet"] + extra)
        if out:
            seed("json", out)
for text in ['{"context": {"host_name": "h", "num_cpus": 2}, "benchmarks": [{"name": "b", '
             '"run_type": "iteration", "real_time": 1.5, "time_unit": "us"}]}',
             '{"benchmarks": []}', '[1, 2.5e300, -0, "\\u0041", true, null]', '{"a": {"b": {"c": [[]]}}}',
             '{"benchmarks": [', '"unterminated', '{"x": NaN, "y": Infinity, "z": -Infinity}']:
    seed("json", text)

# recording: the container's start and one empty section of each kind, a benchmark program's,
# validate's (M, V), resolution's (S) and asm's (A) (the real recordings are the saved inputs of
# tests/fuzz/corpus/recording/).
for tail in [b"", b"P\x00", b"P\x00O\x00", b"P\x00O\x0b\x08instance\x73\x01a", b"\x02",
             b"P\x00M\x00V\x00", b"P\x00M\x0a\x06method\x73\x02cr", b"P\x00S\x00", b"P\x00A\x00"]:
    seed("recording", b"tickscope-recording\n\x01" + tail)

for name in sorted(count):
    print("seeds: %-8s %d" % (name, count[name]))
