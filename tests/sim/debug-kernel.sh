#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Run irdma_sim's selftests under a debug kernel: lockdep, KASAN,
# kmemleak, DMA API debugging, object debugging.
#
#   tests/sim/debug-kernel.sh [--build-only] [TEST...]
#
# TEST is link_nodriver, link_driver or check (default: all three).
#
# The kernel is built once from Debian's linux-source-6.1 (tools/linux-src.sh)
# with x86_64_defconfig plus the debug options and what the test VM needs
# built in (virtio, 9p, overlay, veth, netns, InfiniBand with user access),
# under $CACHE/simdebug (about 40 minutes on 2 cores the first time).
# irdma.ko, irdma_sim.ko and the checker are built against it from a copy
# of this checkout, so the repo's own build products are left alone.  The
# VM is tools/vm/init's, booted with that kernel; the tests load the
# modules with insmod (IRDMA_KO_DIR), as the debug kernel has no
# /lib/modules.  Exit: 0 when every test passed and the kernel log has no
# lockdep, KASAN, kmemleak or WARNING report.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
CACHE=${CACHE:-/var/cache/irdma}
base=$CACHE/simdebug
kb=$base/build
src=$("$repo/tools/linux-src.sh")
build_only=0
tests=()
for a in "$@"; do
	case "$a" in
	--build-only) build_only=1 ;;
	-h | --help) sed -n '2,22p' "$0"; exit 0 ;;
	*) tests+=("$a") ;;
	esac
done
[ ${#tests[@]} -gt 0 ] || tests=(link_nodriver link_driver check)
mkdir -p "$base"

if [ ! -f "$kb/arch/x86/boot/bzImage" ]; then
	echo "debug-kernel.sh: building the debug kernel in $kb" >&2
	mkdir -p "$kb"
	make -C "$src" O="$kb" x86_64_defconfig >/dev/null
	"$src/scripts/config" --file "$kb/.config" \
		-e DEBUG_KERNEL -e PROVE_LOCKING -e DEBUG_ATOMIC_SLEEP \
		-e DEBUG_OBJECTS -e DEBUG_OBJECTS_WORK -e DEBUG_OBJECTS_TIMERS \
		-e DEBUG_OBJECTS_RCU_HEAD -e KASAN -e KASAN_GENERIC \
		-e KASAN_INLINE -e DEBUG_LIST -e DEBUG_KMEMLEAK -e DMA_API_DEBUG \
		-e DEBUG_IRQFLAGS -e KALLSYMS_ALL \
		-e VIRTIO_PCI -e VIRTIO_NET -e NET_9P -e NET_9P_VIRTIO -e 9P_FS \
		-e 9P_FS_POSIX_ACL -e OVERLAY_FS -e TMPFS -e TMPFS_POSIX_ACL \
		-e DEVTMPFS -e DEVTMPFS_MOUNT -e NET_NS -e VETH -e IPV6 \
		-e INFINIBAND -e INFINIBAND_USER_ACCESS -e INFINIBAND_USER_MEM \
		-e INFINIBAND_ADDR_TRANS -e RDMA_SIW -e NET_VENDOR_MICROSOFT \
		-m MICROSOFT_MANA -e PCI_MSI -e DEBUG_FS -e MODULES \
		-e MODULE_UNLOAD -d MODULE_SIG -e CONFIGFS_FS -d DEBUG_INFO \
		-e DEBUG_INFO_NONE --set-str LOCALVERSION "-simdebug" \
		-d LOCALVERSION_AUTO --set-str SYSTEM_TRUSTED_KEYS "" \
		-e BLK_DEV_INITRD -e PACKET -e UNIX -e INET
	make -C "$src" O="$kb" olddefconfig >/dev/null
	grep -q '^CONFIG_AUXILIARY_BUS=y' "$kb/.config" ||
		{ echo "debug-kernel.sh: no AUXILIARY_BUS" >&2; exit 1; }
	nice make -C "$src" O="$kb" -j"$(nproc)" bzImage modules >"$base/build.log" 2>&1 ||
		{ tail -20 "$base/build.log" >&2; exit 1; }
fi

# the modules, from a copy of the checkout
mods=$base/src
rm -rf "$mods"
mkdir -p "$mods"
tar -C "$repo" --exclude=.git --exclude='*.o' --exclude='*.ko' \
	--exclude='*.mod' --exclude='*.mod.c' --exclude='.*.cmd' \
	--exclude=modules.order --exclude=Module.symvers --exclude=./tools \
	-cf - . | tar -C "$mods" -xf -
make -C "$kb" M="$mods" IRDMA_OOT=1 CONFIG_INFINIBAND_IRDMA=m \
	CONFIG_IRDMA_SIM=m modules >"$base/modules.log" 2>&1 ||
	{ tail -20 "$base/modules.log" >&2; exit 1; }
make -C "$kb" M="$mods/tests/sim/check" modules >>"$base/modules.log" 2>&1 ||
	{ tail -20 "$base/modules.log" >&2; exit 1; }
[ "$build_only" = 0 ] || exit 0

# initramfs: tools/vm/init, busybox, nothing to insmod (all built in)
initrd=$base/initramfs.cpio
stage=$(mktemp -d "$base/.stage.XXXXXX")
rundir=$(mktemp -d "$base/.run.XXXXXX")
trap 'rm -rf "$stage" "$rundir"' EXIT
mkdir -p "$stage"/{bin,dev,proc,sys,modules}
cp /bin/busybox "$stage/bin/busybox"
install -m 0755 "$repo/tools/vm/init" "$stage/init"
: >"$stage/modules/load.list"
(cd "$stage" && find . | cpio -o -H newc --quiet) >"$initrd"

{
	printf 'export IRDMA_VM=1 IRDMA_KO_DIR=%q REPO=%q\n' "$mods" "$repo"
	printf 'cd %q || exit 125\n' "$repo"
	echo 'ret=0'
	for t in "${tests[@]}"; do
		printf 'echo "=== %s"; bash tests/sim/%s.sh || ret=1\n' "$t" "$t"
	done
	cat <<'EOF'
if [ -w /sys/kernel/debug/kmemleak ]; then
	echo scan >/sys/kernel/debug/kmemleak; sleep 6
	echo scan >/sys/kernel/debug/kmemleak
	leaks=$(grep -c 'unreferenced object' /sys/kernel/debug/kmemleak)
	echo "kmemleak: $leaks unreferenced objects"
	[ "$leaks" = 0 ] || { head -60 /sys/kernel/debug/kmemleak; ret=1; }
fi
exit $ret
EOF
} >"$rundir/job.sh"
chmod 755 "$rundir" "$rundir/job.sh"

log=$base/console.log
set +e
timeout -k 10 3600 qemu-system-x86_64 -nodefaults -no-user-config -machine pc \
	-accel tcg,thread=multi -cpu max -smp 2 -m 4096 -display none -nic none \
	-no-reboot -kernel "$kb/arch/x86/boot/bzImage" -initrd "$initrd" \
	-append "console=ttyS0,115200 panic=-1 kmemleak=on irdmavm_run=$rundir irdmavm_keep=$repo,$CACHE" \
	-fsdev "local,id=hostroot,path=/,security_model=none,readonly=on,multidevs=remap" \
	-device virtio-9p-pci,fsdev=hostroot,mount_tag=hostroot \
	-chardev stdio,id=con,signal=off -serial chardev:con -monitor none \
	</dev/null 2>&1 | sed -u 's/\r$//' | tee "$log" | grep --line-buffered -v '@@IRDMA-VM-RC='
set -e
rc=$(sed -n 's/.*@@IRDMA-VM-RC=\([0-9]*\)@@.*/\1/p' "$log" | tail -n1)
[ -n "$rc" ] || { echo "debug-kernel.sh: the VM reported no status" >&2; exit 125; }
# the tests clear dmesg: look at the whole console log instead
if grep -E "WARNING:|BUG:|KASAN|circular locking|inconsistent lock state|possible recursive locking|sleeping function called|ODEBUG|DMA-API: .*device driver|list_add corruption|list_del corruption|Oops" "$log"; then
	echo "debug-kernel.sh: FAIL: debug kernel reports (see $log)"
	[ "$rc" != 0 ] || rc=1
else
	echo "debug-kernel.sh: no lockdep, KASAN, object-debug or DMA-API report"
fi
exit "$rc"
