#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Static checks of the kernel sources (make static; part of make check).
# Each check prints one line: PASS: static.NAME / FAIL: static.NAME: why.
#
#   W=1 build with sparse (C=2) over every file in the same pass (the
#   compiler's findings name their -W option, sparse's do not), the layer
#   check (tools/layers.sh) of its objects, checkpatch
#   --strict, kernel-doc, docutils over Documentation/*.rst, groff over the
#   user's manual pages (Documentation/man4/irdma.4, irdma_sim.4), the
#   manual pages of the CM, and an in-tree build (Kconfig + Kbuild dropped
#   into drivers/infiniband/hw/irdma of linux-source-6.1).
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
CACHE=${CACHE:-/var/cache/irdma}
KVER=${KVER:-$(tools/kver.sh)}
KDIR=${KDIR:-/usr/src/linux-headers-$KVER}
LINUX_SRC=${LINUX_SRC:-$(tools/linux-src.sh)}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

pass() { echo "PASS: static.$1"; }
fail() { echo "FAIL: static.$1: $2"; }

kbuild() {
	make -C "$KDIR" M="$top" IRDMA_OOT=1 CONFIG_INFINIBAND_IRDMA=m \
		CONFIG_IRDMA_SIM=m CONFIG_IRDMA_ICE=y CONFIG_IRDMA_I40E=y \
		IRDMA_ICE_SRC="$LINUX_SRC/drivers/net/ethernet/intel/ice" "$@"
}

# kernel C sources of the project: not tools/, not the user-space fuzzer
# (with its shims of kernel headers), not the test programs and module the
# VM suite builds (tests/progs, tests/kmod)
notours='^(tools|tests/(fuzz|progs|kmod))/'
mapfile -t csrc < <(git ls-files '*.c' '*.h' | grep -Ev "$notours")

# --- W=1 and sparse, one pass ------------------------------------------------
# The objects stay for the layer check and the later stages of make check:
# W=1 changes the warnings only, not the code.
kbuild clean >/dev/null 2>&1
kbuild W=1 C=2 CHECK="sparse -Wno-unknown-attribute" modules >"$out/build" 2>&1
built=$?
# the compiler's: every gcc finding ends with the option that asked for it
grep -E '(warning|error):.*\[-W[^]]*\]$' "$out/build" >"$out/w1"
# sparse's: the rest of the findings at a source line
grep -E '^/.*: (warning|error):' "$out/build" | grep -vE '\[-W[^]]*\]$' >"$out/sparse"
if [ "$built" != 0 ]; then
	grep -E 'warning:|error:' "$out/build" | head -20
	fail w1 "build failed"
	fail sparse "build failed"
else
	n=$(wc -l <"$out/w1")
	if [ "$n" = 0 ]; then pass w1; else
		head -20 "$out/w1"
		fail w1 "$n warnings"
	fi
	n=$(wc -l <"$out/sparse")
	if [ "$n" = 0 ]; then pass sparse; else
		head -20 "$out/sparse"
		fail sparse "$n findings"
	fi
fi

# --- layers ------------------------------------------------------------------
# the W=1 objects: every call goes down Documentation/layers.txt
if out_l=$(tools/layers.sh 2>&1); then
	pass layers
else
	grep -v '^layers: [0-9]* calls' <<<"$out_l" | head -20
	fail layers "$(tail -n1 <<<"$out_l")"
fi
# the model's objects: every call goes down Documentation/sim-layers.txt
if out_l=$(tools/layers.sh sim Documentation/sim-layers.txt 2>&1); then
	pass sim-layers
else
	grep -v '^layers: [0-9]* calls' <<<"$out_l" | head -20
	fail sim-layers "$(tail -n1 <<<"$out_l")"
fi

# --- checkpatch --strict --------------------------------------------------
"$LINUX_SRC/scripts/checkpatch.pl" --strict --no-tree --terse --show-types \
	--ignore FILE_PATH_CHANGES,SPDX_LICENSE_TAG -f "${csrc[@]}" >"$out/cp" 2>&1
n=$(grep -cE ': (ERROR|WARNING|CHECK):' "$out/cp")
if [ "$n" = 0 ]; then pass checkpatch; else
	grep -E ': (ERROR|WARNING|CHECK):' "$out/cp" | head -30
	fail checkpatch "$n findings"
fi

# --- kernel-doc ----------------------------------------------------------------
# 6.1's kernel-doc has no -Wall; -v turns on the same extra checks
# (missing Return: descriptions).  Use -Wall where the script knows it.
kdflags=(-none -v)
if grep -q 'Wall' "$LINUX_SRC/scripts/kernel-doc"; then kdflags=(-none -Wall); fi
"$LINUX_SRC/scripts/kernel-doc" "${kdflags[@]}" "${csrc[@]}" 2>&1 |
	grep -v ': info: ' >"$out/kd"
n=$(grep -c . "$out/kd")
if [ "$n" = 0 ]; then pass kernel-doc; else
	head -30 "$out/kd"
	fail kernel-doc "$n warnings"
fi

# --- Documentation: reStructuredText without warnings -----------------------
n=0
for f in Documentation/*.rst; do
	if ! /usr/bin/python3 -m docutils --report=warning --exit-status=warning \
		"$f" /dev/null >"$out/rst" 2>&1; then
		head -5 "$out/rst"
		n=$((n + 1))
	fi
done
if [ "$n" = 0 ]; then pass rst; else fail rst "$n of Documentation/*.rst have warnings"; fi

# --- section 4 manual pages: groff without warnings --------------------------
# -ww: every warning; -t: tbl; once as typeset (-z) and once for a terminal,
# as man(1) shows them.  Any output is a finding.
n=0
pages=(Documentation/man4/*.4)
for f in "${pages[@]}"; do
	[ -f "$f" ] || continue
	if ! { groff -ww -z -man -t "$f" && groff -ww -z -man -t -Tutf8 "$f"; } \
		>"$out/man4" 2>&1 || [ -s "$out/man4" ]; then
		head -5 "$out/man4"
		n=$((n + 1))
	fi
done
if [ ! -f "${pages[0]}" ]; then fail man4 "no pages in Documentation/man4"
elif [ "$n" = 0 ]; then pass "man4 (${#pages[@]} pages)"
else fail man4 "$n of Documentation/man4/*.4 have warnings"; fi

# --- one manual page per CM function the manual names ---------------------
# the list of functions the manual names, one a line, kept in the tree
manual=Documentation/cm-functions.txt
if [ -f cm.c ] && [ -f "$manual" ]; then
	"$LINUX_SRC/scripts/kernel-doc" -man cm.c 2>/dev/null >"$out/man"
	missing=0
	while read -r fn; do
		[ -n "$fn" ] || continue
		grep -q "^\.TH \"$fn\"" "$out/man" || { echo "no page: $fn"; missing=$((missing + 1)); }
	done <"$manual"
	total=$(grep -c . "$manual")
	if [ "$missing" = 0 ]; then pass "cm-manual-pages ($total pages)"; else
		fail cm-manual-pages "$missing of $total functions have no page"
	fi
else
	fail cm-manual-pages "cm.c or the function list is missing"
fi

# --- in-tree build ---------------------------------------------------------------
# A hard-linked copy of linux-source with Debian's config, our tree in
# drivers/infiniband/hw/irdma, olddefconfig (checks our Kconfig), then the
# directory compiled as part of the tree (objects; linking modules would
# need a built vmlinux).  Cached by source version.
tree=$CACHE/intree-$(basename "$(dirname "$LINUX_SRC")")
# one in-tree build at a time on this machine (the tree is shared)
exec 9>"$CACHE/intree.lock"
flock 9
if [ ! -f "$tree/.prepared" ]; then
	rm -rf "$tree"
	cp -al "$LINUX_SRC" "$tree" &&
		cp "/boot/config-$KVER" "$tree/.config" &&
		make -C "$tree" olddefconfig >/dev/null 2>&1 &&
		make -C "$tree" -j"$(nproc)" modules_prepare >"$out/prep" 2>&1 &&
		touch "$tree/.prepared" || { tail -5 "$out/prep" 2>/dev/null; }
fi
if [ -f "$tree/.prepared" ]; then
	dst=$tree/drivers/infiniband/hw/irdma
	# On a cold tree the build also makes host tools (genksyms, fixdep);
	# their warnings (bison's conflicts) are not ours: count only
	# diagnostics that name a file of our directory.
	ours='^drivers/infiniband/hw/irdma/'
	rm -rf "$dst"
	mkdir -p "$dst"
	git ls-files | grep -E '(^|/)(Kbuild|Kconfig)$|\.[ch]$' | grep -Ev "$notours" |
		while read -r f; do
			mkdir -p "$dst/$(dirname "$f")"
			cp "$f" "$dst/$f"
		done
	# upstream's Makefile would shadow our Kbuild; ours is Kbuild only
	rm -f "$dst/Makefile"
	cfg=$tree/.config
	sed -i '/CONFIG_INFINIBAND_IRDMA=/d;/CONFIG_IRDMA_/d' "$cfg"
	printf 'CONFIG_INFINIBAND_IRDMA=m\nCONFIG_IRDMA_ICE=y\nCONFIG_IRDMA_I40E=y\nCONFIG_IRDMA_SIM=m\n' >>"$cfg"
	if make -C "$tree" olddefconfig >"$out/cfg" 2>&1 &&
		grep -q '^CONFIG_IRDMA_SIM=m' "$cfg" &&
		grep -q '^CONFIG_IRDMA_ICE=y' "$cfg" &&
		make -C "$tree" -j"$(nproc)" W=1 drivers/infiniband/hw/irdma/ >"$out/intree" 2>&1 &&
		! grep -E 'warning:|error:' "$out/intree" | grep -q "$ours" &&
		[ -f "$dst/irdma.o" ] && [ -f "$dst/sim/irdma_sim.o" ]; then
		pass intree
	else
		grep -E "$ours.*(error|warning):" "$out/intree" 2>/dev/null | head -20
		grep -E '^make.*(Error|\*\*\* No rule)' "$out/intree" "$out/cfg" 2>/dev/null | head -5
		fail intree "in-tree configuration or build failed"
	fi
else
	fail intree "could not prepare the kernel tree"
fi

flock -u 9

exit 0
