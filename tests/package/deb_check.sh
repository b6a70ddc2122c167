#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# deb_check.sh [--extract]: builds the Debian packages from this source tree with
# `dpkg-buildpackage -us -uc -b` (in a temporary copy), checks them with lintian (no errors), then
# installs them (apt-get, so root: CI runs this after make ci; not part of make check) and runs
# `tickscope info`, opens `man tickscope` and compiles and runs a consumer with pkg-config against
# the installed library. The packages are purged again at the end. --extract unpacks the .debs
# into a temporary root instead of installing them (no root-wide change; for a developer's machine).
# TKS_DEB_KEEP=1 keeps the temporary directory (the build, its logs and the .debs).
set -u
S=$(cd "$(dirname "$0")/../.." && pwd)
MODE=install
[ "${1:-}" = "--extract" ] && MODE=extract
missing=""
for tool in dpkg-buildpackage:dpkg-dev dh:debhelper dh_dkms:dh-dkms lintian:lintian cmake:cmake \
            scdoc:scdoc pkg-config:pkg-config cc:gcc man:man-db; do
    command -v "${tool%%:*}" >/dev/null || missing="$missing ${tool#*:}"
done
if [ -n "$missing" ]; then
    echo "SKIP: the package build needs:$missing (apt-get install$missing)"; exit 77
fi
if [ "$MODE" = install ] && [ "$(id -u)" -ne 0 ]; then
    echo "SKIP: installing the packages needs root (or run with --extract)"; exit 77
fi
# debhelper reads /dev/null as an empty file: a /dev/null replaced by a regular file (what
# `--out /dev/null` as root once did) ends up in the packages' maintainer files.
[ -c /dev/null ] || { echo "FAIL: /dev/null is not a character device (restore it: mknod -m 666 /dev/null c 1 3)"; exit 1; }
VERSION=$(dpkg-parsechangelog -l "$S/debian/changelog" -S Version)
D=$(mktemp -d "${TMPDIR:-/tmp}/tks_deb.XXXXXX") || exit 1
INSTALLED=""
cleanup() {
    [ -n "$INSTALLED" ] && dpkg --purge $INSTALLED >"$D/purge.log" 2>&1
    if [ -n "${TKS_DEB_KEEP:-}" ]; then echo "kept: $D"; else rm -rf "$D"; fi
}
trap cleanup EXIT
FAILED=0
fail() { echo "FAIL: $*"; FAILED=1; }
pass() { echo "ok: $*"; }

# A clean copy of the sources: what git tracks, or the tree without its build directories.
mkdir -p "$D/src/tickscope-$VERSION"
if git -C "$S" rev-parse --git-dir >/dev/null 2>&1; then
    (cd "$S" && git ls-files -co --exclude-standard | tar -cf - -T -) | tar -xf - -C "$D/src/tickscope-$VERSION"
else
    tar -C "$S" --exclude='./build*' -cf - . | tar -xf - -C "$D/src/tickscope-$VERSION"
fi
if ! (cd "$D/src/tickscope-$VERSION" && dpkg-buildpackage -us -uc -b) >"$D/build.log" 2>&1; then
    tail -40 "$D/build.log"; echo "FAIL: dpkg-buildpackage"; exit 1
fi
pass "dpkg-buildpackage -us -uc -b"
arch=$(dpkg --print-architecture)
debs=""
for p in tickscope:$arch libtickscope0:$arch libtickscope-dev:$arch tickscope-dkms:all; do
    f="$D/src/${p%%:*}_${VERSION}_${p#*:}.deb"
    if [ -f "$f" ]; then debs="$debs $f"; else fail "no ${p%%:*} package"; fi
done
[ $FAILED -eq 0 ] && pass "4 packages: tickscope libtickscope0 libtickscope-dev tickscope-dkms"
lintian --fail-on error "$D/src/tickscope_${VERSION}_${arch}.changes" >"$D/lintian.log" 2>&1
lrc=$?
grep -E '^[EW]:' "$D/lintian.log"
[ $lrc -ne 0 ] && grep -vE '^[EWIPNX]:|root privileges' "$D/lintian.log" | head -5
if [ $lrc -ne 0 ]; then fail "lintian reports errors"; else pass "lintian: no errors ($(grep -c '^W:' "$D/lintian.log") warnings)"; fi

# Install (or unpack) them.
if [ "$MODE" = install ]; then
    export DEBIAN_FRONTEND=noninteractive
    # Purged at exit even when the install fails half-way (unpacked, not configured).
    INSTALLED="tickscope libtickscope0 libtickscope-dev tickscope-dkms"
    if apt-get install -y --no-install-recommends $debs >"$D/install.log" 2>&1; then
        pass "apt-get install of the .debs"
    else
        tail -20 "$D/install.log"; echo "FAIL: apt-get install"; exit 1
    fi
    R=""
    TICKSCOPE=/usr/bin/tickscope
else
    R="$D/root"
    for f in $debs; do dpkg-deb -x "$f" "$R"; done
    pass "dpkg-deb -x of the .debs into $R"
    TICKSCOPE="$R/usr/bin/tickscope"
    export PKG_CONFIG_SYSROOT_DIR="$R" PKG_CONFIG_LIBDIR="$R/usr/lib/$(dpkg-architecture -qDEB_HOST_MULTIARCH)/pkgconfig"
    export LD_LIBRARY_PATH="$R/usr/lib/$(dpkg-architecture -qDEB_HOST_MULTIARCH)"
fi

# The command.
if TICKSCOPE_CACHE_DIR="$D/cache" "$TICKSCOPE" info --quiet >"$D/info.txt" 2>"$D/info.err" &&
   grep -q '^TSC rate' "$D/info.txt"; then
    pass "tickscope info: $(grep '^TSC rate' "$D/info.txt" | cut -c1-70)"
else
    fail "tickscope info: $(head -3 "$D/info.err")"
fi
# The man pages and the completion.
if [ "$MODE" = install ]; then
    man -w tickscope 2>/dev/null | grep -q '^/usr/share/man/man1/tickscope.1' || fail "man -w tickscope"
    MANPAGER=cat man tickscope 2>/dev/null | grep -q 'tickscope - measure clock cycles' || fail "man tickscope"
    MANPAGER=cat man 3 tickscope-bench 2>/dev/null | grep -q TKS_MEASURE || fail "man 3 tickscope-bench"
else
    MANPATH="$R/usr/share/man" MANPAGER=cat man tickscope 2>/dev/null | grep -q 'tickscope - measure clock cycles' ||
        fail "man tickscope"
fi
[ -s "$R/usr/share/bash-completion/completions/tickscope" ] || fail "no bash completion"
[ -s "$R/usr/share/zsh/vendor-completions/_tickscope" ] || fail "no zsh completion"
[ $FAILED -eq 0 ] && pass "man tickscope, man 3 tickscope-bench, bash and zsh completions"

# A consumer built with pkg-config against the installed library, and run.
flags=$(pkg-config --cflags --libs tickscope) || fail "pkg-config knows no tickscope"
if cc -O2 "$S/tests/package/consumer.c" $flags -o "$D/consumer" 2>"$D/cc.err"; then
    lib=$(ldd "$D/consumer" | awk '/libtickscope\.so\.0/ {print $3}')
    case $lib in */libtickscope.so.0) pass "consumer built with: cc consumer.c $flags (links $lib)" ;;
                 *) fail "consumer does not link libtickscope.so.0" ;; esac
    if TICKSCOPE_CACHE_DIR="$D/cache" "$D/consumer" --min-time 0.05 --format json --out "$D/c.json" \
            --quiet >"$D/c.out" 2>&1 && grep -q '"name": *"bm_add/1"' "$D/c.json"; then
        pass "consumer runs its benchmark"
    else
        fail "consumer: $(head -3 "$D/c.out")"
    fi
else
    fail "consumer does not compile: $(head -5 "$D/cc.err")"
fi
# The module's DKMS source (built by DKMS for each installed kernel with headers).
[ -s "$R/usr/src/tickscope-$VERSION/dkms.conf" ] || fail "no /usr/src/tickscope-$VERSION/dkms.conf"
if [ "$MODE" = install ]; then
    dkms status tickscope 2>/dev/null | grep -q "tickscope/$VERSION" || fail "dkms does not know tickscope/$VERSION"
fi
[ $FAILED -eq 0 ] && pass "the .debs install and work"
exit $FAILED
