#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The VM suite's lean core on the debug kernel (KASAN, lockdep with
# PROVE_RCU, debug objects, atomic-sleep checks): the vm-debug stage of
# tools/check.sh.
#
#   tools/vm/debug.sh [PATTERN...]
#
# The scripts are those of tests/vm-debug/: links to the tests/vm scripts
# chosen, between a first and a last script of its own, which check that
# the kernel is the debug one, that lockdep is still on, and that the
# kernel log of the whole boot holds no report.  The links: the hostile
# users (vm/36, vm/37: the latter's bystander is rping rounds and one
# ib_write_bw run, and one seed of its ring fuzzer, HOSTILE_SEEDS=1, of
# the stock kernel's three), the CM loops (vm/72, CM_LOOP_N=10
# connections a run instead of 125: every pairing, both directions, fewer
# of each).  On this machine (2 cores, TCG) that is about 5 minutes;
# vm/70 (rping) and vm/75 (perftest) would add 90 and 210 s.  The kernel
# verbs (vm/85, KV_SIW=0): irdma0 against irdma1 only, as siw 6.1's own
# inconsistent lock state (its socket callback lock taken without
# blocking softirqs in process context) would turn lockdep off for the
# rest of the run; its siw cases run on the stock kernel.
# PATTERN selects among them as in tools/vm/tests.sh; VMTEST_ENV adds to
# the scripts' environment.  The kernel is the KUnit kernel
# (tools/kunit.sh), and the modules are built for it in a copy of this
# checkout (tools/vm/debug-kernel.sh); the copy's tools/vm/tests.sh runs
# them.
#
# Output: tools/vm/tests.sh's, with "debug/" put in front of the name of
# every PASS:, FAIL: and SKIP: line, so that they are told apart from the
# stock kernel's; and first "PASS: debug/report-patterns" when
# tests/lib.sh's T_DMESG_BAD matches the first line of each kind of
# report this kernel can print (else a FAIL naming the line it misses).
# A debug kernel that cannot be built or prepared is
# "FAIL: debug/kernel", never a skip.  Exit status 1 if anything failed.
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)

# the first line of each kind of report, as the debug kernel prints it
# (6.1: mm/kasan/report.c, kernel/locking/lockdep.c, kernel/sched/core.c,
# lib/debugobjects.c, kernel/rcu/update.c; ODEBUG and DEBUG_LOCKS_WARN_ON
# report through WARN)
reports=(
	'BUG: KASAN: use-after-free in irdma_cm_close+0x1c/0x80 [irdma]'
	'BUG: KASAN: slab-out-of-bounds in irdma_post_send+0x2a/0x90 [irdma]'
	'BUG: KASAN: double-free or invalid-free in kfree+0x8a/0x220'
	'WARNING: possible circular locking dependency detected'
	'WARNING: possible recursive locking detected'
	'WARNING: inconsistent lock state'
	'WARNING: possible irq lock inversion dependency detected'
	'WARNING: bad unlock balance detected!'
	'WARNING: held lock freed!'
	'WARNING: lock held when returning to user space!'
	'WARNING: suspicious RCU usage'
	'BUG: sleeping function called from invalid context at kernel/locking/mutex.c:580'
	'BUG: scheduling while atomic: kworker/0:1/25/0x00000002'
	'WARNING: CPU: 1 PID: 25 at lib/debugobjects.c:505 debug_print_object+0x8c/0xb0'
	'WARNING: CPU: 0 PID: 1 at kernel/locking/lockdep.c:232 __lock_acquire+0x12b/0x2100'
)

check_patterns() {
	local bad l missed=''
	# shellcheck source=tests/lib.sh
	bad=$(. "$repo/tests/lib.sh" && trap - EXIT && echo "$T_DMESG_BAD")
	for l in "${reports[@]}"; do
		grep -Eq "$bad" <<<"$l" || missed=${missed:-$l}
	done
	# lockdep's "INFO: trying to register non-static key." is followed by
	# a stack dump
	grep -Eq "$bad" <<<'Call Trace:' || missed=${missed:-Call Trace:}
	if [ -n "$missed" ]; then
		echo "FAIL: debug/report-patterns: tests/lib.sh's T_DMESG_BAD does not match \"$missed\""
		return 1
	fi
	echo "PASS: debug/report-patterns"
}

rc=0
check_patterns || rc=1

if ! env=$("$here/debug-kernel.sh"); then
	echo "FAIL: debug/kernel: the debug kernel or the modules for it could not be prepared (tools/vm/debug-kernel.sh)"
	exit 1
fi
eval "$env"
export IRDMA_VM_KSET IRDMA_VM_KDIR KVER
echo "# vm-debug: kernel $KVER from $IRDMA_VM_KSET, tree $IRDMA_VM_REPO"

# the copy's tests.sh, on the copy's tests/vm-debug; in the background,
# so that a SIGTERM (tools/check.sh's time limit) is passed on to it at
# once: it stops its VM
VMTEST_ENV="CM_LOOP_N=10 HOSTILE_SEEDS=1 KV_SIW=0 ${VMTEST_ENV:-}" VMTEST_DIR=$IRDMA_VM_REPO/tests/vm-debug \
	"$IRDMA_VM_REPO/tools/vm/tests.sh" "$@" \
	> >(sed -u -E 's/^(PASS|FAIL|SKIP): /\1: debug\//') 2>&1 &
pid=$!
trap 'kill -TERM "$pid" 2>/dev/null' TERM INT HUP
while :; do
	wait "$pid"
	st=$?
	# a trap ended the wait: wait for the suite to stop
	kill -0 "$pid" 2>/dev/null || break
done
[ "$st" -eq 0 ] || rc=1
# the last lines through sed
wait
exit "$rc"
