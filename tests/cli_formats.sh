# SPDX-License-Identifier: MIT
# cli_formats.sh: every command writes every format its writer table has, and each parses:
# --format csv (Python's csv module, a header row and at least one row of as many fields),
# --format json (json.load, with "diagnostics" where the result has them), --format markdown
# (a table: a header row and its rule). A format a command lacks exits 2 with one error line
# listing the formats it has; `--help` lists them too. Covers validate, resolution, info, asm
# (one snippet and a --table), sys, compare, a benchmark program and its --compare.
CMD=formats
NAME=formats
. "$(dirname "$0")/lib_cli.sh"

B="$(dirname "$T")/tests/tks_bench_prog"
[ -x "$B" ] || { echo "FAIL: $B is missing"; exit 1; }

# check NAME FORMAT [JSON-KEY]: $D/NAME.out parses as FORMAT; for JSON, KEY (if given) is a
# member of the document or of an object inside it.
check() {
    python3 - "$D/$1.out" "$2" "${3:-}" <<'PY'
import csv, json, sys
path, fmt, key = sys.argv[1], sys.argv[2], sys.argv[3]
text = open(path, encoding="utf-8").read()
def found(v):
    if isinstance(v, dict):
        return key in v or any(found(x) for x in v.values())
    if isinstance(v, list):
        return any(found(x) for x in v)
    return False
if fmt == "json":
    doc = json.loads(text)
    if key and not found(doc):
        sys.exit("no %r in the JSON document" % key)
elif fmt == "csv":
    rows = list(csv.reader(text.splitlines()))
    if len(rows) < 2:
        sys.exit("%d CSV rows, expected a header and data" % len(rows))
    head = rows[0]
    if len(set(head)) != len(head) or not all(h and h.replace("_", "").isalnum() for h in head):
        sys.exit("the first row is not a header: %r" % head)
    bad = [i for i, r in enumerate(rows[1:], 2) if len(r) != len(head)]
    if bad:
        sys.exit("rows %s have not %d fields" % (bad, len(head)))
elif fmt == "markdown":
    lines = text.splitlines()
    ok = any(lines[i].startswith("|") and lines[i + 1].startswith("|") and
             set(lines[i + 1].replace(" ", "")) <= set("|-:") and "---" in lines[i + 1]
             for i in range(len(lines) - 1))
    if not ok:
        sys.exit("no Markdown table (a header row and its rule)")
PY
}

# formats LABEL JSON-KEY COMMAND...: the command in csv, json and markdown, each parsed.
formats() {
    local label=$1 key=$2
    shift 2
    for f in csv json markdown; do
        run_with "$1" "$label.$f" "${@:2}" --format "$f"
        if [ "$RC" -ne 0 ]; then
            fail "$label --format $f: exit $RC: $(head -n3 "$D/$label.$f.err")"
        elif msg=$(check "$label.$f" "$f" "$([ "$f" = json ] && echo "$key")" 2>&1); then
            pass "$label --format $f parses"
        else
            fail "$label --format $f: $msg"
        fi
    done
}

# bad LABEL PREFIX COMMAND...: --format xml exits 2, one error line naming every format.
bad() {
    local label=$1 prefix=$2
    shift 2
    run_with "$1" "$label.bad" "${@:2}" --format xml
    if [ "$RC" -ne 2 ] || [ -s "$D/$label.bad.out" ]; then
        fail "$label --format xml: exit $RC (expected 2), stdout: $(head -c 200 "$D/$label.bad.out")"
    elif [ "$(grep -c "^$prefix: error: " "$D/$label.bad.err")" -ne 1 ] ||
         ! grep "^$prefix: error: " "$D/$label.bad.err" | grep -q "'xml'.*console, json, csv, markdown"; then
        fail "$label --format xml: not one error line listing the formats: $(cat "$D/$label.bad.err")"
    else
        pass "$label --format xml: exit 2, '$(head -n1 "$D/$label.bad.err")'"
    fi
}

formats info "" "$T" info
formats validate "" "$T" validate --ensembles 3 --samples 200 --budget 0.05 --no-chain
formats resolution "" "$T" resolution --max 4 --samples 200
if [ "${TKS_TARGET_ARCH:-$(uname -m)}" = x86_64 ]; then
    formats asm diagnostics "$T" asm --budget 0.05 'add {r}, 1'
    printf 'add | latency | add {r}, 1\nimul | throughput | imul {r}, {r}\n' >"$D/table.txt"
    formats asmtable diagnostics "$T" asm --budget 0.05 --table "$D/table.txt"
else
    skip "hardware: tickscope asm runs x86-64 code; this build is for ${TKS_TARGET_ARCH:-$(uname -m)}"
fi
formats sys diagnostics "$T" sys cpu --quick --only call_0,overhead
formats bench diagnostics "$B" --filter '^(add40|empty)$' --min-time 0.01
formats paired diagnostics "$B" --min-time 0.05 --compare add40,add40
for f in a b; do
    "$B" --filter '^(add40|empty)$' --min-time 0.02 --repetitions 3 --format json --out "$D/$f.json" \
        --quiet || fail "the benchmark program failed writing $f.json"
done
formats compare "" "$T" compare "$D/a.json" "$D/b.json"

# The synonyms: --json is --format json, and the last word wins.
run json info --format csv --json
python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$D/json.out" 2>/dev/null &&
    pass "info --format csv --json: JSON" || fail "info --format csv --json: not JSON"

for cmd in info validate resolution asm sys compare; do
    bad "$cmd" tickscope "$T" "$cmd"
done
bad bench tks_bench_prog "$B"
bad paired tks_bench_prog "$B" --compare add40,add40
run_with "$B" gbbad --benchmark_format=xml
grep -q "'xml'.*console, json, csv, markdown" "$D/gbbad.err" && [ "$RC" -eq 2 ] &&
    pass "--benchmark_format=xml: exit 2, the formats listed" ||
    fail "--benchmark_format=xml: exit $RC: $(cat "$D/gbbad.err")"
# --disasm writes console and JSON only, and says so.
run disasm validate --disasm --format csv
[ "$RC" -eq 2 ] && grep -q "console, json$" "$D/disasm.err" &&
    pass "validate --disasm --format csv: exit 2, its formats listed" ||
    fail "validate --disasm --format csv: exit $RC: $(cat "$D/disasm.err")"

# Every help lists the formats of its table.
for cmd in info validate resolution asm sys compare; do
    run "help_$cmd" "$cmd" --help
    grep -Eq -- '--format F(ORMAT)? +console, json, csv, markdown' "$D/help_$cmd.out" &&
        pass "$cmd --help lists the formats" || fail "$cmd --help does not list the formats"
done
run_with "$B" help_bench --help
grep -Eq -- '--format FORMAT +console, json, csv, markdown' "$D/help_bench.out" &&
    pass "a benchmark program's --help lists the formats" ||
    fail "a benchmark program's --help does not list the formats"

finish
