# SPDX-License-Identifier: MIT
"""window_scan.py: the windows of TKS_MEASURE (tickscope/bench_window.h) in an object file's
machine code, read with objdump, each held to "nothing of ours between the two readings".

Usage: python3 window_scan.py [--i386] [--adds] OBJDUMP_OUTPUT FUNCTION...

Each FUNCTION is a body of tests/window_bodies.c: its block is nothing, or the marker
instruction `nopl 0x7b(%rax)` (`%eax` on i386). A window runs from a begin reading (RDTSC, the
reading kept, and the method's closing LFENCE where it has one) to the next instruction that
starts an end sequence (RDTSCP, MFENCE, LFENCE, CPUID and its leaf, RDTSC, SERIALIZE). Inside it
only the marker may stand, and in a throughput window the repetition loop (its counter loaded,
counted down, a branch back). A begin reading and an end reading look alike for the methods that
read the clock the same way at both ends (cpuid, rdtsc, lfence_rdtsc): what follows an end
reading is the bookkeeping, which subtracts the readings, stores the result, calls out or
branches away; such a stretch is skipped, and counted. (So for those three methods a window
that branches away is not told from bookkeeping: the other four, whose ends differ from their
begins, are held to the letter.) Prints one line per window found wrong; exits 1 if any."""
import re
import sys

insn_re = re.compile(r"^\s*([0-9a-f]+):\s+(\S+)\s*(.*)$")
func_re = re.compile(r"^[0-9a-f]+ <([^>]+)>:$")
MARKER = re.compile(r"^nopl 0x7b\(%[re]ax\)$")
ADD = re.compile(r"^add[lq]? %[re]?[a-z0-9]+,%[re]?[a-z0-9]+$")
READ_TAIL = {"shl", "or", "mov"}
ENDS = {"rdtscp", "mfence", "lfence", "cpuid", "rdtsc", "serialize", "(bad)"}
LEAVES = {"jmp", "ret", "call"}


def parse(path, wanted):
    funcs, cur = {}, None
    for line in open(path):
        line = line.rstrip("\n")
        m = func_re.match(line)
        if m and m.group(1).startswith(".L"):
            continue  # a local label of an i386 object, inside the function
        if m:
            cur = funcs.setdefault(m.group(1), []) if m.group(1) in wanted else None
            continue
        m = insn_re.match(line)
        if m and cur is not None:
            ops = re.sub(r"\s*(#.*|<.*>)$", "", m.group(3)).replace(" ", "")
            cur.append((int(m.group(1), 16), m.group(2), ops))
    return funcs


def begin_end(f, i):
    """f[i] is RDTSC: the index after its reading (the moves that keep it, a closing LFENCE)."""
    j = i + 1
    while j < len(f) and j <= i + 3 and f[j][1] in READ_TAIL and re.search(r"%[re]?[ad]x", f[j][2]):
        j += 1
    if j < len(f) and f[j][1] == "lfence":
        j += 1
    return j


def loop_insn(insn, start, stop):
    """The throughput window's repetition loop: counter moves, the count down, a branch back."""
    mn, ops = insn[1], insn[2]
    if mn.startswith("j") and mn != "jmp":
        try:
            return start <= int(ops.split(",")[0], 16) < stop
        except ValueError:
            return False
    if mn.startswith("mov") and not ops.endswith(")"):  # a load or a copy, never a store
        return True
    if mn in ("sub", "subl", "dec", "decl", "add", "addl") and (
            ops.startswith("$0x1,") or ops.startswith("$0xffffffff,") or mn.startswith("dec")):
        return True
    return mn in ("test", "cmp") or mn.startswith("nop") or (mn == "cs" and ops.startswith("nop")) or \
        (mn == "lea" and re.match(r"^0x0\((%[a-z]+)(,%[er]iz,1)?\),\1$", ops) is not None) or (mn == "xchg" and ops == "%ax,%ax")  # alignment


_index = {}


def index_of(f):
    """Address -> index in function f, built once per function."""
    if id(f) not in _index:
        _index[id(f)] = {x[0]: n for n, x in enumerate(f)}
    return _index[id(f)]


def aux_read(f, k):
    """f[k] is RDTSCP: whether it only reads TSC_AUX (tks_cpu_aux) rather than ending a window.
    An end reading's counter in EDX:EAX is read on some path after it (the branches followed,
    up to 12 instructions each); TSC_AUX's read leaves them to be overwritten unread."""
    at = index_of(f)
    todo, seen = [(k + 1, frozenset("ad"), 0)], set()
    while todo:
        n, live, depth = todo.pop()
        while n < len(f) and depth < 12 and live and (n, live) not in seen:
            seen.add((n, live))
            x = f[n]
            if x[1] in ("call", "ret", "rdtsc", "rdtscp", "cpuid") or x[1].startswith("jmp*"):
                break
            ops = x[2].split(",")
            reg = lambda o: set(re.findall(r"%[re]?([ad])x\b", o)) & live
            zero = x[1].startswith("xor") and len(ops) == 2 and ops[0] == ops[1]
            if not zero and any(reg(o) for o in ops[:-1]):
                return False  # the counter read: an end reading
            if ops and reg(ops[-1]):
                if not (zero or x[1].startswith(("mov", "lea", "set"))):
                    return False  # shifted, combined or subtracted in place
                live = live - reg(ops[-1])  # overwritten unread
            if x[1].startswith("j"):
                try:
                    target = at.get(int(ops[0], 16))
                except ValueError:
                    target = None
                if target is not None:
                    todo.append((target, live, depth + 1))
                if x[1] == "jmp":
                    break
            n, depth = n + 1, depth + 1
    return True


def bookkeeping(seg):
    return any(x[1].startswith(("sub", "sbb", "call")) or
               (x[1].startswith("mov") and x[2].endswith(")") and "%rsp" not in x[2] and "%esp" not in x[2])
               for x in seg)


def spill(insn):
    """i386: a move of the readings between registers and the stack (clock.h's note)."""
    return insn[1] in ("mov", "movl") and re.match(
        r"^(%e[a-z]{2}|(0x[0-9a-f]+)?\(%esp\)),(%e[a-z]{2}|(0x[0-9a-f]+)?\(%esp\))$", insn[2]) is not None


def cpuid_setup(insn, i386):
    """CPUID's leaf and subleaf set just before it (and on i386 EBX, the PIC register, kept in
    ESI by the asm itself): the end sequence's, not the window's."""
    if i386 and spill(insn):
        return True
    return insn[1] in ("xor", "mov") and (re.search(r",%e?(ax|cx)$", insn[2]) is not None or
                                          insn[2] == "%ebx,%esi")


def main():
    args = sys.argv[1:]
    i386 = "--i386" in args
    adds = "--adds" in args  # the sampling loops' work: a dependent add chain (add_chain.h)
    args = [a for a in args if a not in ("--i386", "--adds")]
    path, names = args[0], args[1:]
    funcs = parse(path, set(names))
    bad = 0
    for name in names:
        f = funcs.get(name)
        if not f:
            print("FAIL: no function %s in the disassembly" % name)
            bad += 1
            continue
        windows = skipped = 0
        for i, insn in enumerate(f):
            if insn[1] != "rdtsc":
                continue
            start = begin_end(f, i)
            k = start
            while k < len(f) and f[k][1] not in ENDS and f[k][1] not in LEAVES:
                k += 1
            if k == len(f) or f[k][1] in LEAVES:
                skipped += 1
                continue
            stop = k
            if f[k][1] == "cpuid":  # its leaf and subleaf are set just before it
                while stop > start and cpuid_setup(f[stop - 1], i386):
                    stop -= 1
            seg = f[start:stop]
            lo, hi = (seg[0][0], f[stop][0]) if seg else (0, 0)
            foreign = [x for x in seg if not MARKER.match(x[1] + " " + x[2]) and not (i386 and spill(x)) and
                       not (adds and ADD.match(x[1] + " " + x[2])) and not
                       (any(y[1].startswith("j") and y[1] != "jmp" for y in seg) and loop_insn(x, lo, hi))]
            if f[k][1] == "rdtscp" and aux_read(f, k):
                skipped += 1  # an end reading's bookkeeping: TSC_AUX read after it
                continue
            leaves = any(x[1].startswith("j") and x[1] != "jmp" and not loop_insn(x, lo, hi) for x in seg)
            if foreign and f[k][1] not in ("rdtscp", "mfence") and (bookkeeping(seg) or leaves):
                skipped += 1  # an end reading's bookkeeping (see above)
                continue
            windows += 1
            if foreign:
                bad += 1
                print("FAIL: %s: window at 0x%x (to %s at 0x%x) holds %s" % (name, insn[0], f[k][1], f[k][0], "; ".join(
                    "%s %s" % (x[1], x[2]) for x in foreign[:8])))
        print("%s: %d windows, %d end readings' bookkeeping skipped" % (name, windows, skipped))
        if windows == 0:
            print("FAIL: %s: no window found" % name)
            bad += 1
    sys.exit(1 if bad else 0)


main()
