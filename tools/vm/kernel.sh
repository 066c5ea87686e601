#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Print the kernel image the test VM boots.  /boot/vmlinuz-$KVER is an
# xz-compressed bzImage: under TCG its decompressor and the real-mode entry
# cost about 3.5 s per boot.  The kernel has CONFIG_PVH, so QEMU can enter
# the uncompressed vmlinux directly; extract it once (scripts/extract-vmlinux
# of linux-source-6.1) into $CACHE/vm, keyed by KVER and the package
# version.  Falls back to the bzImage when that is not possible.
#
# With IRDMA_VM_KSET (the debug kernel's set, tools/vm/debug-kernel.sh):
# that set's bzImage.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
if [ -n "${IRDMA_VM_KSET:-}" ]; then
	[ -s "$IRDMA_VM_KSET/bzImage" ] || { echo "kernel.sh: no $IRDMA_VM_KSET/bzImage" >&2; exit 1; }
	echo "$IRDMA_VM_KSET/bzImage"
	exit 0
fi
CACHE=${CACHE:-/var/cache/irdma}
KVER=${KVER:-$("$here/../kver.sh")}
bz=/boot/vmlinuz-$KVER
kpkg=$(dpkg-query -W -f='${Version}' "linux-image-$KVER" 2>/dev/null || echo unknown)
out=$CACHE/vm/vmlinux-$KVER-$kpkg

if [ -s "$out" ]; then
	echo "$out"
	exit 0
fi
[ -r "$bz" ] || { echo "kernel.sh: cannot read $bz (make deps)" >&2; exit 1; }

extract=$("$here/../linux-src.sh" --path)/scripts/extract-vmlinux
if [ -f "$extract" ] && mkdir -p "$CACHE/vm" &&
	sh "$extract" "$bz" >"$out.tmp" 2>/dev/null &&
	# the PVH entry point note (XEN_ELFNOTE_PHYS32_ENTRY, type 18)
	readelf -n "$out.tmp" 2>/dev/null | grep -q 'Xen.*(0x00000012)'; then
	mv "$out.tmp" "$out"
	find "$CACHE/vm" -maxdepth 1 -name "vmlinux-$KVER-*" ! -name "${out##*/}" -delete
	echo "$out"
else
	rm -f "$out.tmp"
	echo "$bz"
fi
