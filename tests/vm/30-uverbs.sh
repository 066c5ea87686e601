#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Foundation: user space opens irdma0 through libibverbs and the stock
# libirdma provider (GET_CONTEXT, doorbell mmap, ALLOC_PD, queries), with
# tests/progs/open_close.  Then the device goes away under an open
# context, by "rdma link delete" and by deleting the netdev: the removal
# must complete while the context is open (disassociation), the program
# must not crash, and afterwards the module reference counts are back at
# their baseline, the modules unload, no slab grew and the kernel log is
# clean.
#
# T_LINK_TYPE=siw T_LINK_MODS=siw runs the same checks against siw (to
# check the test itself: siw has no disassociate_ucontext, so there the
# removals wait for the context).
# timeout: 420
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
P=uverbs
TYPE=${T_LINK_TYPE:-irdma_sim}
read -r -a MODS <<<"${T_LINK_MODS:-irdma_sim irdma}"
DEV=${TYPE%_sim}0
PROG=$T_PROGS/open_close

t_require "$P/tools" rdma ibv_devinfo || t_exit
t_need_ours "$P" "${MODS[@]}"
if [ ! -x "$PROG" ]; then
	t_fail "$P/prog" "$PROG not built (tools/vm/tests.sh builds tests/progs/*.c)"
	t_exit
fi
if ! t_hosts_up; then
	t_fail "$P/hosts" "cannot create netns a/b joined by va/vb"
	t_exit
fi
modprobe -r "${MODS[@]}" 2>/dev/null
modprobe -a rdma_ucm ib_uverbs
t_dmesg_mark "$P"

# load the modules, note their reference counts without a device
if ! out=$(modprobe -a "${MODS[@]}" 2>&1); then
	t_fail "$P/modprobe" "$out"
	t_exit
fi
declare -A base
for m in "${MODS[@]}"; do base[$m]=$(t_modref "$m"); done
t_log "baseline refcnt: $(for m in "${MODS[@]}"; do printf '%s=%s ' "$m" "${base[$m]}"; done)"

link_add() {
	t_in "$T_NS_A" timeout 30 rdma link add "$DEV" type "$TYPE" netdev "$T_IF_A" &&
		t_wait 10 t_rdma_dev_exists "$DEV"
}

# refs_back NAME: every module's refcnt is back at the baseline
refs_back() {
	local m bad=
	for m in "${MODS[@]}"; do
		t_modref_wait "$m" "${base[$m]}" 10 || bad+=" $m=$(t_modref "$m") (baseline ${base[$m]})"
	done
	if [ -z "$bad" ]; then
		t_pass "$1"
	else
		t_fail "$1" "refcnt not back:$bad"
	fi
}

# --- open, allocate a PD, query, close -------------------------------------
if ! link_add; then
	t_fail "$P/add" "rdma link add $DEV type $TYPE netdev $T_IF_A failed"
	t_dmesg_since | tail -n 30 | t_indent
	t_exit
fi
out=$(timeout 30 "$PROG" -d "$DEV" 2>&1)
rc=$?
t_indent <<<"$out"
if [ "$rc" -eq 0 ] && grep -q '^alloc_pd: ok' <<<"$out" && grep -q '^query_port 1: ok' <<<"$out"; then
	t_pass "$P/open-close"
else
	t_fail "$P/open-close" "open_close exited $rc"
fi

# 2 x 500 times: a leak of the open/close path grows a cache in both
# batches (t_slab_per_op)
t_slab_per_op "$P/open-close-slab" timeout 120 "$PROG" -d "$DEV" -n 500
t_check "$P/delete" rdma link delete "$DEV"
refs_back "$P/refcnt"

# the slab snapshots of hold_and_remove: before the device is added, and
# after it is gone (the modules still loaded)
before=$(mktemp)
after=$(mktemp)
t_defer rm -f "$before" "$after"

# hold_and_remove NAME CMD...: open DEV, then run CMD (which removes the
# device) while the context is open; then release the context
hold_and_remove() {
	local name=$1 fifo hpid dpid w rc drc out removed_open=0
	shift
	t_slab_snap "$before"
	if ! link_add; then
		t_fail "$name" "rdma link add failed"
		return
	fi
	fifo=$(mktemp -u /tmp/hold.XXXXXX)
	mkfifo "$fifo"
	timeout 120 "$PROG" -d "$DEV" -H <"$fifo" >/tmp/hold.out 2>&1 &
	hpid=$!
	exec {w}>"$fifo"
	rm -f "$fifo"
	if ! t_wait 20 grep -q '^READY' /tmp/hold.out; then
		t_indent </tmp/hold.out
		t_fail "$name" "open_close -H did not get READY"
		exec {w}>&-
		wait "$hpid"
		return
	fi

	t_dmesg_mark "$name"
	timeout 60 "$@" >/tmp/remove.out 2>&1 &
	dpid=$!
	# the removal must not wait for the context to be closed
	t_wait 15 eval "! kill -0 $dpid" && removed_open=1
	echo release >&"$w"
	exec {w}>&-
	wait "$hpid"
	rc=$?
	wait "$dpid"
	drc=$?
	out=$(cat /tmp/hold.out)
	t_indent <<<"$out"
	if [ "$removed_open" = 1 ]; then
		t_pass "$name/while-open"
	else
		t_fail "$name/while-open" "'$*' waited for the user context to be closed"
	fi
	if [ "$drc" -eq 0 ]; then
		t_pass "$name/removed"
	else
		t_indent </tmp/remove.out
		t_fail "$name/removed" "'$*' exited $drc"
	fi
	if [ "$rc" -lt 128 ] && grep -q '^CLOSED' <<<"$out"; then
		t_pass "$name/program"
	else
		t_fail "$name/program" "open_close -H exited $rc (signal $((rc > 128 ? rc - 128 : 0)))"
	fi
	if t_wait 10 eval "! t_rdma_dev_exists $DEV"; then
		t_pass "$name/gone"
	else
		t_fail "$name/gone" "$DEV still registered"
	fi
	refs_back "$name/refcnt"
	# the hosts as at the baseline (the netdev removal deleted the veth
	# pair): what they hold is in both snapshots
	if ! t_hosts_up; then
		t_fail "$name/hosts" "cannot recreate netns a/b"
	fi
	t_slab_snap "$after"
	t_slab_cmp "$name/slab" "$before" "$after"
	t_dmesg_check "$name/dmesg"
	if out=$(timeout 60 modprobe -r "${MODS[@]}" 2>&1); then
		t_pass "$name/modprobe-r"
	else
		t_fail "$name/modprobe-r" "modprobe -r ${MODS[*]}: $out"
	fi
	rm -f /tmp/hold.out /tmp/remove.out
	modprobe -a "${MODS[@]}"
}

hold_and_remove "$P/link-delete" rdma link delete "$DEV"
hold_and_remove "$P/netdev-delete" ip -n "$T_NS_A" link del "$T_IF_A"
t_dmesg_check "$P/dmesg"
t_exit
