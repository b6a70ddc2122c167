# SPDX-License-Identifier: MIT
# cli_window.sh: "nothing between the two reads but the code under test" (docs/ARCHITECTURE.md), checked on
# the machine code of the built library with objdump -d. For every sampling loop of every x86
# method, the window runs from the end of the begin sequence to the first instruction of the end
# sequence; it must hold nothing but the dependent `add %reg,%reg` chain (no spill of the first
# reading, no call, no branch, no load or store), and the chains found must cover every amount of
# work the sampler offers, 0..TKS_WORK_MAX. Usage: bash cli_window.sh /path/to/tickscope
set -u

T=${1:?usage: cli_window.sh /path/to/tickscope}
LIB="$(dirname "$T")/libtickscope.a"

# A skip is exit 77 (SKIP_RETURN_CODE in tests/CMakeLists.txt), so CTest counts it as skipped.
case "${TKS_TARGET_ARCH:-$(uname -m)}" in
x86_64 | amd64 | AMD64) ;;
*) echo "SKIP: hardware: the window check reads x86-64 code; this build is for ${TKS_TARGET_ARCH:-$(uname -m)}"; exit 77 ;;
esac
command -v objdump >/dev/null || { echo "SKIP: objdump is not installed (Debian package binutils)"; exit 77; }
command -v python3 >/dev/null || { echo "SKIP: python3 is needed to parse the disassembly (Debian package python3)"; exit 77; }
[ -f "$LIB" ] || { echo "FAIL: no static library at $LIB (expected next to the tickscope binary)"; exit 1; }
if ! objdump -f "$LIB" 2>/dev/null | grep -q 'x86-64'; then
    echo "SKIP: hardware: $LIB is not x86-64 code (an i386 build: its windows are not clean, see clock.h)"
    exit 77
fi

DIS=$(mktemp "${TMPDIR:-/tmp}/tks_cli_window.XXXXXX") || exit 1
trap 'rm -f "$DIS"' EXIT
objdump -d --no-show-raw-insn "$LIB" >"$DIS" || { echo "FAIL: objdump -d $LIB failed"; exit 1; }

python3 - "$DIS" <<'EOF'
import re, sys

WORK_MAX = 200
# method -> how its begin sequence opens (before RDTSC) and closes, and what starts its end.
#   fenced: the begin closes with "mov %rax,%REG; lfence"; the window ends at `end`.
#   cpuid/rdtscp: the begin is "CPUID; RDTSC; shl; or; mov %rax,%REG", no closing fence.
METHODS = {
    "lfence":    dict(pre=[["lfence"]], fenced=True, end=["rdtscp"]),
    "mfence":    dict(pre=[["mfence"], ["lfence"]], fenced=True, end=["mfence", "rdtscp"]),
    # objdumps older than SERIALIZE print "(bad)" for 0f 01 e8.
    "serialize": dict(pre=[["serialize", "(bad)"]], fenced=True, end=["rdtscp"]),
    "rdtscp":    dict(pre=[["cpuid"]], fenced=False, end=["rdtscp"]),
    "cpuid":     dict(pre=[["cpuid"]], fenced=False, end=["cpuid"], sym=True),
    # The methods whose end reading is their begin reading: what follows an end reading (a
    # branch, a call) is recognised and skipped; every count of adds must still be found.
    "lfence_rdtsc": dict(pre=[["lfence"]], fenced=True, end=["lfence", "rdtsc"], sym=True),
    "rdtsc":     dict(pre=[], fenced=False, end=["rdtsc"], sym=True),
}

func_re = re.compile(r"^[0-9a-f]+ <([^>]+)>:$")
insn_re = re.compile(r"^\s*([0-9a-f]+):\s+(\S+)\s*(.*)$")
funcs, cur = {}, None
for line in open(sys.argv[1]):
    line = line.rstrip("\n")
    m = func_re.match(line)
    if m:
        cur = funcs.setdefault(m.group(1), [])
        continue
    m = insn_re.match(line)
    if m and cur is not None:
        ops = re.sub(r"\s*(#.*|<.*>)$", "", m.group(3)).replace(" ", "")
        cur.append((m.group(1), m.group(2), ops))

R64 = r"%r(?:[a-d]x|[sd]i|bp|sp|[89]|1[0-5])"
ADD = re.compile(r"^add[q]?$")
REGREG = re.compile(r"^(%s),(%s)$" % (R64, R64))
# CPUID takes its leaf in EAX (and ECX): the compiler loads them just before it.
SETUP = re.compile(r"^(mov|xor)[lq]?$")
SETUP_OPS = re.compile(r"^(\$0x0|%[a-z0-9]+),%(e|r)(ax|cx)$")

def is_(insn, *names):
    return insn[1] in names
def txt(insn):
    return "%s: %s %s" % insn

def begin_tail(f, i):
    """f[i] is `rdtsc`: does it start "rdtsc; shl $0x20,%rdx; or %rdx,%rax; mov %rax,%REG"?"""
    if i + 3 >= len(f):
        return False
    a, b, c = f[i + 1], f[i + 2], f[i + 3]
    return (a[1] in ("shl", "shlq") and a[2] == "$0x20,%rdx" and
            b[1] in ("or", "orq") and b[2] == "%rdx,%rax" and
            c[1] in ("mov", "movq") and re.match(r"^%rax," + R64 + "$", c[2]) is not None)

def check_adds(name, body, problems):
    """body: the instructions of one window. Nothing but one dependent add chain."""
    chain = None
    for insn in body:
        if not ADD.match(insn[1]) or not REGREG.match(insn[2]):
            problems.append("%s: not an add %%reg,%%reg inside the window: %s" % (name, txt(insn)))
            return False
        if chain is None:
            chain = insn[2]
        elif insn[2] != chain:
            problems.append("%s: the add chain changes registers inside the window: %s" % (name, txt(insn)))
            return False
    return True

failed = 0
for meth, spec in METHODS.items():
    fname = "ensemble_" + meth
    f = funcs.get(fname)
    if f is None:
        print("FAIL: no function %s in the library" % fname)
        failed += 1
        continue
    counts, problems, windows, skipped_end_reads = {}, [], 0, 0
    for i, insn in enumerate(f):
        if not is_(insn, "rdtsc") or not begin_tail(f, i):
            continue
        # What precedes RDTSC must be the method's own opening.
        pre = spec["pre"]
        if i < len(pre) or any(f[i - len(pre) + k][1] not in pre[k] for k in range(len(pre))):
            problems.append("%s: RDTSC at %s is not preceded by %s" %
                            (fname, insn[0], "; ".join("/".join(p) for p in pre)))
            continue
        j = i + 4
        if spec["fenced"]:
            if j >= len(f) or not is_(f[j], "lfence"):
                problems.append("%s: the begin sequence at %s does not close with LFENCE" % (fname, insn[0]))
                continue
            j += 1
        start = j
        end = spec["end"]
        # Find where the end sequence starts.
        k = start
        stop = None
        while k < len(f):
            if f[k][1] == end[0] and all(k + n < len(f) and f[k + n][1] == end[n] for n in range(len(end))):
                stop = k
                break
            if spec.get("sym") and (f[k][1].startswith("j") or f[k][1] in ("call", "ret", "rdtscp", "rdtsc", "lfence", "cpuid")):
                break  # the reading was an end reading: its result is being compared or used
            if not spec.get("sym") and not ADD.match(f[k][1]):
                break  # caught below as a stray instruction
            k += 1
        if spec.get("sym"):
            if stop is None:
                skipped_end_reads += 1
                continue
            # The CPUID's leaf is loaded just before it: part of the end sequence.
            s = stop
            while meth == "cpuid" and s > start and stop - s < 2 and SETUP.match(f[s - 1][1]) and SETUP_OPS.match(f[s - 1][2]):
                s -= 1
            body = f[start:s]
        else:
            if stop is None:
                bad = f[k] if k < len(f) else ("end", "of", "function")
                problems.append("%s: window from %s does not reach %s; found %s" %
                                (fname, f[start - 1][0], "; ".join(end), txt(bad)))
                continue
            body = f[start:stop]
        windows += 1
        if check_adds(fname, body, problems):
            counts[len(body)] = counts.get(len(body), 0) + 1
    missing = [n for n in range(WORK_MAX + 1) if n not in counts]
    extra = sorted(n for n in counts if n > WORK_MAX)
    if windows == 0:
        problems.append("%s: found no measurement window at all (has the begin sequence changed?)" % fname)
    if missing and windows:
        problems.append("%s: no window with %s dependent adds (%d counts missing)" %
                        (fname, ",".join(map(str, missing[:20])) + ("..." if len(missing) > 20 else ""),
                         len(missing)))
    if extra:
        problems.append("%s: windows with more than %d adds: %r" % (fname, WORK_MAX, extra))
    if problems:
        failed += 1
        print("FAIL: %s: %d windows checked" % (fname, windows))
        for p in problems[:15]:
            print("  " + p)
        if len(problems) > 15:
            print("  ... and %d more" % (len(problems) - 15))
    else:
        note = " (%d end readings recognised and skipped)" % skipped_end_reads if spec.get("sym") else ""
        print("ok: %s: %d windows, adds only, chains of 0..%d adds all present%s" %
              (fname, windows, WORK_MAX, note))
sys.exit(1 if failed else 0)
EOF
RC=$?
[ "$RC" -eq 0 ] && echo "all checks passed"
exit "$RC"
