#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Prepare the debug kernel of the test VM and print the environment that
# makes tools/vm/{run,tests}.sh use it, as shell assignments:
#
#   tools/vm/debug-kernel.sh          e.g. eval "$(tools/vm/debug-kernel.sh)"
#
# The debug kernel is the KUnit kernel of tools/kunit.sh (KASAN, lockdep
# with PROVE_RCU, debug objects, atomic-sleep checks): its configuration,
# tests/kunit/.kunitconfig, is also what the VM needs, so there is one
# kernel build for both.  Under the KUnit cache's lock ($CACHE/kunit/lock),
# this script
#
#   - has tools/kunit.sh build the kernel (nothing to do when the kunit
#     stage built it already);
#   - copies its bzImage and installs its modules (siw among them) into a
#     kernel set, $CACHE/debug-kernel/<release>-<hash of the bzImage, the
#     modules and this script>/{bzImage,kernelrelease,lib/modules/...};
#   - copies this checkout (no .git, no build products) to
#     $CACHE/debug-kernel/repo-<hash of the checkout's path> and builds
#     there, against the kernel's build directory, irdma.ko,
#     sim/irdma_sim.ko and the test modules of tests/kmod and
#     tests/sim/check: the stock kernel's modules in this checkout stay as
#     they are.
#
# It prints IRDMA_VM_KSET (the kernel set: tools/vm/kernel.sh,
# initramfs.sh, modules.sh and run.sh take the kernel, its release and its
# modules from there), IRDMA_VM_KDIR (the build directory, for the test
# modules of tools/vm/tests.sh), KVER and IRDMA_VM_REPO (the copy, whose
# tools/vm/tests.sh is the one to run).  Progress goes to stderr; exit
# status 1 when something could not be built.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
CACHE=${CACHE:-/var/cache/irdma}
base=$CACHE/debug-kernel
mkdir -p "$base" "$CACHE/kunit"

say() { echo "debug-kernel.sh: $*" >&2; }

# the KUnit build directory is shared with tools/kunit.sh and
# tools/mutate.sh: hold its lock from the build to the last module built
# against it
exec 9>"$CACHE/kunit/lock"
flock -w 3600 9 || { say "could not lock $CACHE/kunit/lock"; exit 1; }

if ! out=$(IRDMA_KUNIT_LOCKED=1 "$repo/tools/kunit.sh" --build-dir); then
	# kunit.sh's FAIL line and the end of the build log, as diagnostics
	printf 'debug-kernel.sh: %s\n' "$out" >&2
	say "the kernel did not build"
	exit 1
fi
bdir=$(tail -n1 <<<"$out")
bz=$bdir/arch/x86/boot/bzImage
if [ ! -s "$bz" ] || [ ! -f "$bdir/Module.symvers" ]; then
	say "no bzImage or Module.symvers in $bdir"
	exit 1
fi
grep -q '^CONFIG_MODULES=y' "$bdir/.config" ||
	{ say "$bdir/.config has no CONFIG_MODULES: tests/kunit/.kunitconfig is not the VM's"; exit 1; }
krel=$(cat "$bdir/include/config/kernel.release")

# the kernel set, keyed by what is in it
key=$({
	echo "$krel"
	sha256sum "$bz" "$bdir/modules.order" "${BASH_SOURCE[0]}" | cut -d' ' -f1
} | sha256sum | cut -c1-12)
kset=$base/$krel-$key
if [ ! -f "$kset/.done" ]; then
	say "installing the kernel and its modules in $kset"
	rm -rf "$kset" "$kset.tmp"
	mkdir -p "$kset.tmp"
	cp "$bz" "$kset.tmp/bzImage"
	echo "$krel" >"$kset.tmp/kernelrelease"
	nice make -s -C "$bdir" INSTALL_MOD_PATH="$kset.tmp" INSTALL_MOD_STRIP=1 \
		modules_install >"$kset.tmp/install.log" 2>&1 ||
		{ cat "$kset.tmp/install.log" >&2; say "modules_install failed"; exit 1; }
	rm -f "$kset.tmp/lib/modules/$krel/build" "$kset.tmp/lib/modules/$krel/source"
	touch "$kset.tmp/.done"
	mv "$kset.tmp" "$kset"
	# sets of older builds, unused for a day
	find "$base" -maxdepth 1 -name "*-irdma-debug-*" ! -name "${kset##*/}" \
		-mtime +0 -exec rm -rf {} +
fi
touch "$kset"

# this checkout, built for the debug kernel in a copy of its own; a file
# is rewritten only when its bytes changed (as tools/kunit.sh does), so
# make rebuilds only what changed, and the test programs already built
# there stay
copy=$base/repo-$(echo "$repo" | sha256sum | cut -c1-12)
mkdir -p "$copy"
rsync -r --checksum --delete --no-times --links --perms \
	--exclude=/.git --exclude=/tests/progs/build \
	--exclude='*.o' --exclude='*.ko' --exclude='.*.cmd' --exclude='*.mod' \
	--exclude='*.mod.c' --exclude='.*.d' --exclude='*.a' --exclude='*.symvers' \
	--exclude='*.order' --exclude=/.ice --exclude=/tests/fuzz/out \
	"$repo/" "$copy/"
# the E810 and X722 bindings need ice and i40e, which this kernel has not:
# irdma with the model's binding only
for m in . tests/kmod tests/sim/check; do
	args=()
	[ "$m" != . ] || args=(IRDMA_OOT=1 CONFIG_INFINIBAND_IRDMA=m CONFIG_IRDMA_SIM=m)
	if ! nice make -s -C "$bdir" M="$copy/$m" "${args[@]}" -j"$(nproc)" modules \
		>"$copy/.debug-build.log" 2>&1; then
		cat "$copy/.debug-build.log" >&2
		say "$m does not build against $bdir"
		exit 1
	fi
done
rm -f "$copy/.debug-build.log"

printf 'IRDMA_VM_KSET=%q IRDMA_VM_KDIR=%q KVER=%q IRDMA_VM_REPO=%q\n' \
	"$kset" "$bdir" "$krel" "$copy"
