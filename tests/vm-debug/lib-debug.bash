# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Sourced, after tests/lib.sh, by the debug kernel's own scripts
# (tests/vm-debug/00-debug-kernel.sh, 99-debug-kernel.sh).

# what the debug kernel prints at every boot and tests/lib.sh's
# T_DMESG_BAD would take for a report: lockdep's and RCU's banners
T_DEBUG_BANNERS='rcu:[[:space:]]+RCU lockdep checking is enabled\.$'

# t_debug_reports: the lines of the whole kernel log (from the boot on)
# that T_DMESG_BAD matches, but for the banners; the first 20
t_debug_reports() {
	dmesg | grep -E "$T_DMESG_BAD" | grep -Ev "$T_DEBUG_BANNERS" | head -n 20
}

# t_debug_lockdep NAME WHY: PASS NAME while lockdep is on (it turns itself
# off at its first report), else FAIL NAME with WHY
t_debug_lockdep() {
	if grep -Eq '^ *debug_locks: +1$' /proc/lockdep_stats 2>/dev/null; then
		t_pass "$1"
	else
		t_fail "$1" "$2 (/proc/lockdep_stats: $(grep debug_locks /proc/lockdep_stats 2>&1))"
	fi
}

# t_debug_log NAME WHAT: PASS NAME when the whole kernel log holds no
# report (t_debug_reports), else FAIL NAME naming WHAT and the first one
t_debug_log() {
	local bad
	bad=$(t_debug_reports)
	if [ -z "$bad" ]; then
		t_pass "$1"
	else
		t_indent <<<"$bad"
		t_fail "$1" "$2: $(head -n1 <<<"$bad")"
	fi
}
