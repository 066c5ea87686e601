#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Proof of the test rig with soft-iWARP (tools/siw.sh's siw.ko): two netns
# hosts joined by a veth pair, siw on each end, rping and ucmatose between
# them over IPv4 and IPv6, then teardown with a clean kernel log, module
# reference counts back to zero and no slab growth.  It runs none of this
# project's code, so it is not part of the suite's default run (by hand:
# tools/vm/tests.sh 05): when the scripts that pair irdma with siw fail,
# it tells whether siw and the rig work on their own.
# reference: siw against siw, the test rig's own proof
# timeout: 240
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
P=siw-smoke

t_require "$P/tools" rdma ibv_devinfo rping ucmatose || t_exit
t_dmesg_mark "$P"

if ! t_hosts_up; then
	t_fail "$P/hosts" "cannot create netns a/b joined by va/vb"
	t_exit
fi
t_check "$P/hosts-ping" t_in "$T_NS_B" ping -c 1 -W 2 "$T_IP_A"

if ! t_check "$P/modprobe" modprobe siw; then
	t_exit
fi
path=$(modinfo -n siw 2>&1)
case "$path" in
"/lib/modules/$T_KVER/updates/"*) t_pass "$P/modinfo-updates" ;;
*) t_fail "$P/modinfo-updates" "modinfo -n siw: $path" ;;
esac
# the modules rping/ucmatose pull in are loaded before the slab baseline
modprobe -a rdma_ucm ib_uverbs
slab_before=$(mktemp)
t_slab_snap "$slab_before"

t_check "$P/link-add-a" t_in "$T_NS_A" rdma link add siw0 type siw netdev "$T_IF_A"
t_check "$P/link-add-b" t_in "$T_NS_B" rdma link add siw1 type siw netdev "$T_IF_B"
t_defer rdma link delete siw0
t_defer rdma link delete siw1

# rdma link names a port's netdev only in the netdev's netns
t_log "rdma system: $(rdma system show 2>&1)"
links_a=$(t_in "$T_NS_A" rdma link show 2>&1)
links_b=$(t_in "$T_NS_B" rdma link show 2>&1)
t_indent <<<"$links_a"
if grep -q "^link siw0/1 .*netdev $T_IF_A" <<<"$links_a" &&
	grep -q "^link siw1/1 .*netdev $T_IF_B" <<<"$links_b"; then
	t_pass "$P/rdma-link"
else
	t_indent <<<"$links_b"
	t_fail "$P/rdma-link" "rdma link does not list siw0 on $T_IF_A and siw1 on $T_IF_B"
fi

info=$(timeout 10 ibv_devinfo -d siw0 2>&1)
t_indent <<<"$info"
if grep -q 'transport:.*iWARP' <<<"$info" && grep -q 'state:.*PORT_ACTIVE' <<<"$info"; then
	t_pass "$P/ibv_devinfo"
else
	t_fail "$P/ibv_devinfo" "siw0 is not an active iWARP port"
fi

t_rping "$P/rping-ipv4" "$T_NS_A" "$T_NS_B" "$T_IP_A" 7174
t_rping "$P/rping-ipv6" "$T_NS_A" "$T_NS_B" "$T_IP6_A" 7176

# ucmatose: 2 connections, 100 messages of 4 KiB each way
ucm_rc=0 ucm_src=0
ip netns exec "$T_NS_A" timeout 60 ucmatose -b "$T_IP_A" -c 2 -C 100 -S 4096 >/tmp/ucm-s 2>&1 &
spid=$!
if t_wait 10 t_rdma_listening 7471; then
	out=$(t_in "$T_NS_B" timeout 60 ucmatose -s "$T_IP_A" -c 2 -C 100 -S 4096 2>&1) || ucm_rc=$?
	wait "$spid" || ucm_src=$?
	if [ "$ucm_rc" -eq 0 ] && [ "$ucm_src" -eq 0 ] && grep -q 'test complete' <<<"$out"; then
		t_pass "$P/ucmatose"
	else
		t_indent <<<"$out"
		t_indent </tmp/ucm-s
		t_fail "$P/ucmatose" "client exited $ucm_rc, server $ucm_src"
	fi
else
	kill "$spid" 2>/dev/null
	t_indent </tmp/ucm-s
	t_fail "$P/ucmatose" "the ucmatose server does not listen"
fi
rm -f /tmp/ucm-s

t_check "$P/link-delete" rdma link delete siw0
t_check "$P/netdev-delete" ip -n "$T_NS_B" link del "$T_IF_B"
if t_wait 5 eval '! t_rdma_dev_exists siw0 && ! t_rdma_dev_exists siw1'; then
	t_pass "$P/devices-gone"
else
	t_fail "$P/devices-gone" "$(ls /sys/class/infiniband)"
fi
if t_modref_wait siw 0 5; then
	t_pass "$P/refcnt"
else
	t_fail "$P/refcnt" "siw refcnt $(t_modref siw)"
fi
slab_after=$(mktemp)
t_slab_snap "$slab_after"
t_slab_cmp "$P/slab" "$slab_before" "$slab_after" '^(kmalloc-|siw)'
rm -f "$slab_before" "$slab_after"
t_check "$P/modprobe-r" modprobe -r siw
t_dmesg_check "$P/dmesg"
t_exit
