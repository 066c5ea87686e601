#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build the test VM's initramfs (busybox, tools/vm/init, and the modules
# the init needs to reach the host root: virtio_pci, 9pnet_virtio, 9p,
# overlay, with their dependencies, from /lib/modules/$KVER) and print its
# path.  Cached under $CACHE/vm, keyed by KVER, the kernel package version,
# busybox and the hash of this script and of the init.
#
# With IRDMA_VM_KSET (the debug kernel's set, tools/vm/debug-kernel.sh) the
# modules come from that set's lib/modules/$KVER, and the key has its
# modules.dep and modules.builtin instead of the package version; what the
# kernel has built in is not loaded.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
CACHE=${CACHE:-/var/cache/irdma}
KVER=${KVER:-$("$here/../kver.sh")}
busybox=/bin/busybox
mods=(virtio_pci 9pnet_virtio 9p overlay)

[ -x "$busybox" ] || { echo "initramfs.sh: $busybox missing (make deps: busybox-static)" >&2; exit 1; }
modroot=${IRDMA_VM_KSET:-/}
mdir=${modroot%/}/lib/modules/$KVER
[ -d "$mdir/kernel" ] ||
	{ echo "initramfs.sh: no $mdir (make deps)" >&2; exit 1; }

mpargs=()
if [ -n "${IRDMA_VM_KSET:-}" ]; then
	mpargs=(-d "$IRDMA_VM_KSET")
	kpkg=$(cat "$mdir/modules.dep" "$mdir/modules.builtin" | sha256sum | cut -c1-16)
else
	kpkg=$(dpkg-query -W -f='${Version}' "linux-image-$KVER" 2>/dev/null || echo unknown)
fi
key=$({
	echo "$KVER $kpkg ${mods[*]}"
	sha256sum "$here/init" "${BASH_SOURCE[0]}" "$busybox"
} | sha256sum | cut -c1-16)
out=$CACHE/vm/initramfs-$KVER-$key.cpio
if [ -s "$out" ]; then
	echo "$out"
	exit 0
fi

mkdir -p "$CACHE/vm"
stage=$(mktemp -d "$CACHE/vm/.stage.XXXXXX")
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage"/{bin,dev,proc,sys,modules}
cp "$busybox" "$stage/bin/busybox"
install -m 0755 "$here/init" "$stage/init"

# insmod order: each module after its dependencies, each module once
: >"$stage/modules/load.list"
seen=" "
for m in "${mods[@]}"; do
	deps=$(modprobe "${mpargs[@]}" -S "$KVER" --show-depends "$m") ||
		{ echo "initramfs.sh: module $m not found for $KVER" >&2; exit 1; }
	while read -r verb path _; do
		[ "$verb" = insmod ] || continue
		name=$(basename "$path")
		name=${name%.xz}
		name=${name%.zst}
		name=${name%.gz}
		case "$seen" in *" $name "*) continue ;; esac
		seen="$seen$name "
		case "$path" in
		*.xz) xz -dc "$path" >"$stage/modules/$name" ;;
		*.zst) zstd -qdc "$path" >"$stage/modules/$name" ;;
		*.gz) gzip -dc "$path" >"$stage/modules/$name" ;;
		*) cp "$path" "$stage/modules/$name" ;;
		esac
		echo "$name" >>"$stage/modules/load.list"
	done <<<"$deps"
done

(cd "$stage" && find . -mindepth 1 | LC_ALL=C sort | cpio --quiet -o -H newc -R 0:0) >"$stage.cpio"
mv "$stage.cpio" "$out"
# drop initramfs images of older keys for this KVER
find "$CACHE/vm" -maxdepth 1 -name "initramfs-$KVER-*.cpio" ! -name "${out##*/}" -delete
echo "$out"
