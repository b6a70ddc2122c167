# SPDX-License-Identifier: MIT
# pty_run.py: runs a command on a pseudo-terminal of a given width, as a user at a terminal would,
# and checks what the terminal showed and when: the table's rows arrived while the command still
# ran (one at least `--early` seconds before its end), a progress line with an ETA was drawn
# (--eta; --no-bar: none at all), never wider than the terminal, and erased before anything else was printed: the final
# screen holds no progress, and no line of a table (from a header matching --table to the next
# blank line) wider than the terminal. Usage:
#   python3 pty_run.py --columns 80 --row REGEX [--table REGEX] [--eta | --no-bar] [--early SECS] -- CMD ARGS...
# Exit 1 with the reason on a failed check. Used by tests/cli_stream.sh.
import argparse
import os
import pty
import re
import select
import subprocess
import sys
import time


def screen(raw):
    """The lines a terminal shows for raw: \\r returns to the line's start, ESC[K erases to its end."""
    lines, cur, col = [], [], 0
    i = 0
    while i < len(raw):
        c = raw[i]
        if raw.startswith("\x1b[K", i):
            del cur[col:]
            i += 3
            continue
        if c == "\r":
            col = 0
        elif c == "\n":
            lines.append("".join(cur))
            cur, col = [], 0
        else:
            if col < len(cur):
                cur[col] = c
            else:
                cur.append(c)
            col += 1
        i += 1
    if cur:
        lines.append("".join(cur))
    return lines


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--columns", type=int, default=80)
    ap.add_argument("--row", required=True)
    ap.add_argument("--eta", action="store_true")
    ap.add_argument("--no-bar", action="store_true",
                    help="no progress line may be drawn (work shorter than the line's threshold)")
    ap.add_argument("--early", type=float, default=0.3)
    ap.add_argument("--table", default=None,
                    help="regex of a table's header line: only the tables' lines (to the next "
                         "blank line) must fit; prose lines wrap as a terminal wraps them")
    ap.add_argument("cmd", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    cmd = a.cmd[1:] if a.cmd and a.cmd[0] == "--" else a.cmd
    master, slave = pty.openpty()
    env = dict(os.environ, COLUMNS=str(a.columns), TERM="xterm")
    start = time.monotonic()
    p = subprocess.Popen(cmd, stdin=slave, stdout=slave, stderr=slave, env=env, close_fds=True)
    os.close(slave)
    chunks = []
    while True:
        r, _, _ = select.select([master], [], [], 0.05)
        if r:
            try:
                data = os.read(master, 65536)
            except OSError:
                data = b""
            if not data:
                break
            chunks.append((time.monotonic() - start, data.decode("utf-8", "replace")))
        elif p.poll() is not None and not r:
            # drain what is left
            try:
                while True:
                    data = os.read(master, 65536)
                    if not data:
                        break
                    chunks.append((time.monotonic() - start, data.decode("utf-8", "replace")))
            except OSError:
                pass
            break
    rc = p.wait()
    end = time.monotonic() - start
    raw = "".join(c for _, c in chunks).replace("\r\n", "\n")
    fails = []
    if rc != 0:
        fails.append(f"exit {rc}")
    row = re.compile(a.row)
    first_row = None
    text = ""
    for t, c in chunks:
        text += c.replace("\r\n", "\n")
        if first_row is None and any(row.search(l) for l in screen(text)):
            first_row = t
    if first_row is None:
        fails.append(f"no row matching {a.row!r}")
    elif end - first_row < a.early:
        fails.append(f"the first row came {end - first_row:.2f} s before the end (the run took {end:.2f} s): not streamed")
    drawn = re.findall(r"\r([^\r\n]*?)\x1b\[K", raw)
    etas = [d for d in drawn if "ETA" in d]
    if a.eta and not etas:
        fails.append("no progress line with an ETA")
    if a.no_bar and drawn:
        fails.append(f"{len(drawn)} progress line(s) drawn on short work: {drawn[0]!r}")
    wide = [d for d in drawn if len(d) >= a.columns]
    if wide:
        fails.append(f"a progress line as wide as the terminal: {wide[0]!r}")
    shown = screen(raw)
    left = [l for l in shown if "ETA" in l]
    if left:
        fails.append(f"a progress line was left on the screen: {left[0]!r}")
    fitted, inside = [], False  # without --table, no line is held to the width (JSON, prose)
    for l in shown:
        if a.table and re.search(a.table, l):
            inside = True
        elif a.table and not l.strip():
            inside = False
        if inside:
            fitted.append(l)
    if a.table and not fitted:
        fails.append(f"no table header matching {a.table!r}")
    over = [l for l in fitted if len(l) > a.columns]
    if over:
        fails.append(f"{len(over)} line(s) wider than {a.columns} columns: {over[0]!r}")
    for f in fails:
        print("FAIL:", f)
    if fails:
        print("--- the screen:")
        print("\n".join(shown))
        sys.exit(1)
    print(f"ok: first row at {first_row:.2f} s of {end:.2f} s; {len(etas)} ETA line(s) drawn and erased; "
          f"{len(shown)} lines within {a.columns} columns")


main()
