#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# timeout: 60
#
# Last script of the debug kernel's run (tools/vm/debug.sh): lockdep is
# still on (it turns itself off at its first report, whether or not a
# pattern of tests/lib.sh's T_DMESG_BAD matched that report), and the
# kernel log of the whole run, boot to here, holds no report: the scripts'
# own checks and tools/vm/tests.sh's cover each script's time, this covers
# what lies between.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=tests/vm-debug/lib-debug.bash
. "$(dirname "$0")/lib-debug.bash"
P=kernel

if grep -Eq '^ *debug_locks: +1$' /proc/lockdep_stats 2>/dev/null; then
	t_pass "$P/lockdep-still-on"
else
	t_fail "$P/lockdep-still-on" "lockdep turned itself off: it reported a problem (/proc/lockdep_stats: $(grep debug_locks /proc/lockdep_stats 2>&1))"
fi
bad=$(t_debug_reports)
if [ -z "$bad" ]; then
	t_pass "$P/whole-log"
else
	t_indent <<<"$bad"
	t_fail "$P/whole-log" "a report in the run's kernel log: $(head -n1 <<<"$bad")"
fi
t_exit
