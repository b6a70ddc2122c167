# SPDX-License-Identifier: MIT
# cli_outputs.sh: where --out and --raw may point, for the commands and for a benchmark program:
# a directory is refused before measuring with "Is a directory", a missing directory and a full
# device say so, stdout on a full device says so, a symbolic link is written through, a FIFO's
# reader gets the report, device nodes stay devices, and SIGINT/SIGTERM leave no temporary behind.
# Usage: bash cli_outputs.sh /path/to/tickscope
set -u
CMD=info
NAME=cli_outputs
# shellcheck source=lib_cli.sh
. "$(dirname "$0")/lib_cli.sh"
B="$(dirname "$T")/tests/tks_bench_prog"
[ -x "$B" ] || { echo "FAIL: $B is missing"; exit 1; }

# expect_fail NAME WORD CMD...: exit 1, one 'tickscope: error:' line naming WORD (the bench
# runner prints its own program name), nothing on stdout.
expect_fail() {
    local name=$1 word=$2
    shift 2
    "$@" >"$D/$name.out" 2>"$D/$name.err"
    RC=$?
    if [ "$RC" -ne 1 ]; then
        fail "$name: exit $RC, expected 1: $(cat "$D/$name.err")"
    elif [ "$(grep -c 'error:' "$D/$name.err")" -ne 1 ] || ! grep -qF -- "$word" "$D/$name.err"; then
        fail "$name: the error does not say '$word': $(cat "$D/$name.err")"
    elif [ -s "$D/$name.out" ]; then
        fail "$name: printed on stdout"
    else
        pass "$name: exit 1, $(grep 'error:' "$D/$name.err")"
    fi
    no_temps "$name"
}

# ---- a directory as the output: refused before measuring. Measuring writes the calibration cache,
# so an empty cache directory afterwards shows nothing was measured.
mkdir -p "$D/outdir"
for cmd in info validate resolution; do
    export TICKSCOPE_CACHE_DIR="$D/cache-$cmd"
    expect_fail "dir-$cmd" "Is a directory" "$T" $cmd --out "$D/outdir"
    [ -e "$D/cache-$cmd" ] && fail "dir-$cmd: measured (wrote the cache) before refusing" ||
        pass "dir-$cmd: refused before measuring"
    [ "$cmd" = info ] && continue # info takes no samples
    expect_fail "rawdir-$cmd" "Is a directory" "$T" $cmd --raw "$D/outdir"
done
export TICKSCOPE_CACHE_DIR="$D/cache"
[ -z "$(ls -A "$D/outdir")" ] && pass "nothing written into the directory" || fail "files in outdir"
expect_fail dir-bench "Is a directory" "$B" --out "$D/outdir"
expect_fail rawdir-bench "Is a directory" "$B" --raw "$D/outdir"
expect_fail missing "No such file or directory" "$T" info --out "$D/no/such/dir/x.json"
expect_fail missing-bench "No such file or directory" "$B" --out "$D/no/such/dir/x.json"

# ---- a full device on stdout: the real cause, not "input/output error"
if [ -c /dev/full ]; then
    "$T" info >/dev/full 2>"$D/stdout-full.err"
    RC=$?
    if [ "$RC" -eq 1 ] && grep -q 'No space left on device' "$D/stdout-full.err"; then
        pass "stdout on /dev/full: $(cat "$D/stdout-full.err")"
    else
        fail "stdout on /dev/full: exit $RC: $(cat "$D/stdout-full.err")"
    fi
    "$B" --filter add40 --min-time 0.01 >/dev/full 2>"$D/bench-full.err"
    RC=$?
    [ "$RC" -eq 1 ] && grep -q 'No space left on device' "$D/bench-full.err" &&
        pass "bench stdout on /dev/full" || fail "bench stdout on /dev/full: exit $RC: $(cat "$D/bench-full.err")"
else
    skip "stdout on a full device: /dev/full is not a character device here"
fi

# ---- a full device as --out: every command, and a benchmark program, names the path and the
# cause in one line, whether the writer saw the failure (a long report) or the commit did.
if [ -c /dev/full ]; then
    full="cannot write '/dev/full': No space left on device"
    expect_fail full-info-json "$full" "$T" info --json --out /dev/full
    expect_fail full-info-text "$full" "$T" info --out /dev/full
    expect_fail full-validate "$full" "$T" validate --json --ensembles 2 --samples 100 --out /dev/full
    expect_fail full-resolution "$full" "$T" resolution --json --max 4 --samples 200 --out /dev/full
    # Without binutils these parts cannot run: a skip with the package (a failure under TKS_CI=1,
    # which installs it), never a silent pass.
    if command -v objdump >/dev/null; then
        expect_fail full-disasm "$full" "$T" validate --disasm --json --out /dev/full
        expect_fail full-bench-disasm "$full" "$B" --disasm --format json --out /dev/full
    else
        skip "--disasm on a full device: objdump is not installed (Debian package binutils)"
    fi
    # asm runs x86-64 snippets only (the build's target, not what the command says of itself).
    arch=${TKS_TARGET_ARCH:-$(uname -m)}
    if [ "$arch" != x86_64 ]; then
        skip "hardware: asm on a full device: its snippets are x86-64 instructions; this build is for $arch"
    elif ! command -v as >/dev/null || ! command -v objdump >/dev/null; then
        skip "asm on a full device: as and objdump are not installed (Debian package binutils)"
    else
        expect_fail full-asm "$full" "$T" asm --budget 0.05 --json --out /dev/full 'add {r}, {r}'
        printf 'add | latency | add {r}, {r}\n' >"$D/one.tbl"
        expect_fail full-asm-table "$full" "$T" asm --budget 0.05 --table "$D/one.tbl" --out /dev/full
    fi
    expect_fail full-sys "$full" "$T" sys --only overhead --time 0.01 --json --out /dev/full
    "$B" --filter add40 --min-time 0.01 --format json --out "$D/a.json" >/dev/null 2>&1 &&
        cp "$D/a.json" "$D/b.json" || fail "no result file for compare"
    expect_fail full-compare "$full" "$T" compare --json --out /dev/full "$D/a.json" "$D/b.json"
    expect_fail full-save-baseline "$full" "$T" compare --quiet --save-baseline /dev/full "$D/a.json"
    expect_fail full-bench "$full" "$B" --filter add40 --min-time 0.01 --format json --out /dev/full
    expect_fail full-bench-raw "$full" "$B" --filter add40 --min-time 0.01 --out "$D/bench.txt" --raw /dev/full
fi

# ---- our own device nodes (root only): written directly, never replaced
if [ "$(id -u)" -eq 0 ] && mknod "$D/full" c 1 7 2>/dev/null && mknod "$D/null" c 1 3 2>/dev/null; then
    expect_fail dev-full "No space left on device" "$T" info --out "$D/full"
    [ -c "$D/full" ] && pass "the full device is still a device" || fail "the full device was replaced"
    run dev-null info --json --out "$D/null"
    [ "$RC" -eq 0 ] && [ -c "$D/null" ] && pass "--out to a null device: exit 0, still a device" ||
        fail "--out to a null device: exit $RC, $(ls -l "$D/null")"
    "$B" --filter add40 --min-time 0.01 --out "$D/full" >/dev/null 2>"$D/bench-dev.err"
    [ $? -eq 1 ] && grep -q 'No space left on device' "$D/bench-dev.err" && [ -c "$D/full" ] &&
        pass "bench --out to a full device" || fail "bench --out full device: $(cat "$D/bench-dev.err")"
else
    skip "the device-node checks: they need root and mknod (this is uid $(id -u))"
fi

# ---- a symbolic link: written through; it stays a link
mkdir -p "$D/real"
ln -s real/info.json "$D/info.link"
run link info --json --out "$D/info.link"
if [ "$RC" -eq 0 ] && [ -L "$D/info.link" ] && python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$D/real/info.json"; then
    pass "--out through a symbolic link: the link stays, its target has the JSON"
else
    fail "--out through a link: exit $RC, $(ls -l "$D/info.link" "$D/real" 2>&1)"
fi

# ---- a FIFO: its reader gets the whole report; the FIFO stays
mkfifo "$D/fifo"
cat "$D/fifo" >"$D/fifo.copy" &
reader=$!
run fifo info --json --out "$D/fifo"
wait "$reader"
if [ "$RC" -eq 0 ] && [ -p "$D/fifo" ] && python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$D/fifo.copy"; then
    pass "--out to a FIFO: the reader got the JSON, the FIFO stays"
else
    fail "--out to a FIFO: exit $RC"
fi
cat "$D/fifo" >"$D/fifo2.copy" &
reader=$!
"$B" --filter add40 --min-time 0.01 --format json --out "$D/fifo" >/dev/null 2>"$D/bench-fifo.err"
RC=$?
wait "$reader"
[ "$RC" -eq 0 ] && python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$D/fifo2.copy" &&
    pass "bench --out to a FIFO" || fail "bench --out to a FIFO: exit $RC $(cat "$D/bench-fifo.err")"

# ---- SIGINT and SIGTERM while the temporaries exist: none left behind. We wait (at most 60 s)
# until the temporary appears (one that never does fails the check), then signal; the process
# dies by the signal. A background job of a script starts with SIGINT ignored, so python puts the
# default back first, as a terminal has it.
interrupt() { # interrupt NAME SIGNAL CMD...
    local name=$1 sig=$2 pid i st seen
    shift 2
    python3 -c 'import os, signal, sys
signal.signal(signal.SIGINT, signal.SIG_DFL)
os.execv(sys.argv[1], sys.argv[1:])' "$@" >/dev/null 2>&1 &
    pid=$!
    seen=0
    for i in $(seq 600); do
        [ -n "$(find "$D/sig" -name '.*.tmp.*' 2>/dev/null)" ] && { seen=1; break; }
        sleep 0.1
    done
    kill -s "$sig" "$pid"
    wait "$pid"
    st=$?
    left=$(find "$D/sig" -name '.*.tmp.*')
    if [ "$seen" -eq 0 ]; then
        # The signal then came at no particular moment: nothing left proves nothing.
        fail "$name: no temporary appeared within 60 s, so the signal did not land while one existed"
    elif [ "$st" -ne $((128 + $(kill -l "$sig"))) ]; then
        fail "$name: exit status $st, expected death by SIG$sig"
    elif [ -n "$left" ]; then
        fail "$name: SIG$sig left $left"
    elif [ -n "$(ls -A "$D/sig")" ]; then
        fail "$name: SIG$sig left $(ls -A "$D/sig")"
    else
        pass "$name: SIG$sig, no temporary left"
    fi
}
mkdir -p "$D/sig"
interrupt validate-int INT "$T" validate --ensembles 100000 --samples 1000 --budget 0 --out "$D/sig/v.json" --raw "$D/sig/v.csv"
interrupt validate-term TERM "$T" validate --ensembles 100000 --samples 1000 --budget 0 --out "$D/sig/v.json" --raw "$D/sig/v.csv"
interrupt bench-int INT "$B" --filter add40 --repetitions 10000 --out "$D/sig/b.json" --raw "$D/sig/b.csv"
interrupt bench-term TERM "$B" --filter add40 --repetitions 10000 --out "$D/sig/b.json" --raw "$D/sig/b.csv"
finish
