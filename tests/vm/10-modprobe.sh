#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Foundation: our modules are the ones modprobe finds (updates/, not
# Debian's irdma), and irdma loads and unloads 20 times with no kernel
# warning, no module reference left and no slab growth.
# timeout: 300
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
P=modprobe
CYCLES=20

for m in irdma irdma_sim; do
	if t_ko_ours "$m"; then
		t_pass "$P/$m-in-updates"
	else
		t_fail "$P/$m-in-updates" "modinfo -n $m: $(t_ko_path "$m")"
	fi
done

t_need_ours "$P/cycles" irdma
modprobe -r irdma_sim irdma 2>/dev/null
if t_mod_loaded irdma; then
	t_fail "$P/cycles" "irdma is loaded and cannot be removed before the test"
	t_exit
fi
t_dmesg_mark "$P"
# first load outside the measurement: ib_core and friends stay loaded
modprobe irdma && modprobe -r irdma
slab_before=$(mktemp)
t_slab_snap "$slab_before"

ok=1
for ((i = 1; i <= CYCLES; i++)); do
	if ! out=$(timeout 60 modprobe irdma 2>&1); then
		t_fail "$P/cycles" "cycle $i: modprobe irdma: $out"
		ok=0
		break
	fi
	if ! t_mod_loaded irdma; then
		t_fail "$P/cycles" "cycle $i: modprobe irdma succeeded but /sys/module/irdma is missing"
		ok=0
		break
	fi
	ref=$(t_modref irdma)
	if [ "$ref" != 0 ]; then
		t_fail "$P/cycles" "cycle $i: irdma refcnt $ref with no device"
		ok=0
		break
	fi
	if ! out=$(timeout 60 modprobe -r irdma 2>&1); then
		t_fail "$P/cycles" "cycle $i: modprobe -r irdma: $out"
		ok=0
		break
	fi
	if t_mod_loaded irdma; then
		t_fail "$P/cycles" "cycle $i: irdma still loaded after modprobe -r"
		ok=0
		break
	fi
done
[ "$ok" = 0 ] || t_pass "$P/cycles"

slab_after=$(mktemp)
t_slab_snap "$slab_after"
t_slab_cmp "$P/slab" "$slab_before" "$slab_after" '^(kmalloc-|irdma)'
rm -f "$slab_before" "$slab_after"
t_dmesg_check "$P/dmesg"
t_exit
