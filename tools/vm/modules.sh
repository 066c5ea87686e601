#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Prepare, on the host, the module set of the test VM and print its
# directory.  The VM's init lays it over /lib/modules/$KVER (an overlay),
# so the guest's updates/ holds exactly these modules:
#
#   DIR/updates/irdma.ko        this repo's irdma.ko      (if built)
#   DIR/updates/irdma_sim.ko    this repo's sim/irdma_sim.ko (if built)
#   DIR/updates/siw.ko          tools/siw.sh's cached siw.ko (if built)
#   DIR/modules.*               depmod's output for /lib/modules/$KVER with
#                               exactly that updates/ directory
#
# depmod runs here because in the guest it reads all of /lib/modules over
# 9p under TCG: 30-60 s there, under a second here.  Cached under
# $CACHE/vm/mods-$KVER-<hash of the .ko files and the kernel package>.
#
# With IRDMA_VM_KSET (the debug kernel's set, tools/vm/debug-kernel.sh) the
# kernel's modules are that set's lib/modules/$KVER, whose siw.ko (built
# in the kernel's tree) is the peer: updates/ has no siw.ko then.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
# shellcheck source=tools/vm/depmod-tree.sh
. "$here/depmod-tree.sh"
CACHE=${CACHE:-/var/cache/irdma}
KVER=${KVER:-$("$repo/tools/kver.sh")}
mdir=/lib/modules/$KVER
siw=$("$repo/tools/siw.sh" --path)
if [ -n "${IRDMA_VM_KSET:-}" ]; then
	mdir=$IRDMA_VM_KSET/lib/modules/$KVER
	siw=
fi

# IRDMA_VM_NO_REPO_MODULES=1 (tools/check.sh when the build failed): leave
# this repo's modules out rather than test stale ones
kos=()
ours=("$repo/irdma.ko" "$repo/sim/irdma_sim.ko")
[ "${IRDMA_VM_NO_REPO_MODULES:-0}" = 1 ] && ours=()
for ko in "${ours[@]}" "$siw"; do
	[ -f "$ko" ] && kos+=("$ko")
done

if [ -n "${IRDMA_VM_KSET:-}" ]; then
	kpkg=$(sha256sum <"$mdir/modules.dep" | cut -c1-16)
else
	kpkg=$(dpkg-query -W -f='${Version}' "linux-image-$KVER" 2>/dev/null || echo unknown)
fi
key=$({
	echo "$KVER $kpkg"
	ls "$mdir"
	[ "${#kos[@]}" -eq 0 ] || sha256sum "${kos[@]}" | cut -d' ' -f1
	sha256sum "${BASH_SOURCE[0]}" "$here/depmod-tree.sh" | cut -d' ' -f1
} | sha256sum | cut -c1-16)
out=$CACHE/vm/mods-$KVER-$key
if [ -f "$out/.done" ]; then
	touch "$out"
	echo "$out"
	exit 0
fi

mkdir -p "$CACHE/vm"
stage=$(mktemp -d "$CACHE/vm/.mods.XXXXXX")
trap 'rm -rf "$stage"' EXIT
tree=$stage/root/lib/modules/$KVER
mkdir -p "$tree/updates" "$stage/out/updates"
# updates/ holds only ours
depmod_tree "$mdir" "$tree"
[ "${#kos[@]}" -eq 0 ] || cp "${kos[@]}" "$tree/updates/"
depmod -b "$stage/root" "$KVER"
cp "$tree"/modules.* "$stage/out/"
if [ "${#kos[@]}" -gt 0 ]; then
	cp "$tree"/updates/*.ko "$stage/out/updates/"
	# as INSTALL_MOD_STRIP=1 would: less to read over 9p
	strip --strip-debug "$stage/out/updates/"*.ko
fi
touch "$stage/out/.done"
rm -rf "$out"
mv "$stage/out" "$out"
# sets not used for an hour are stale (a running VM reads its own only
# while it boots)
find "$CACHE/vm" -maxdepth 1 -name "mods-$KVER-*" ! -name "${out##*/}" \
	-mmin +60 -exec rm -rf {} +
echo "$out"
