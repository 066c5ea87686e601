#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# timeout: 60
#
# First script of the debug kernel's run (tools/vm/debug.sh): the kernel
# is the debug one (KASAN initialized, lockdep on), KUnit did not run at
# boot (kunit.enable=0), and the kernel log of the boot holds no report.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=tests/vm-debug/lib-debug.bash
. "$(dirname "$0")/lib-debug.bash"
P=kernel

if dmesg | grep -q 'KernelAddressSanitizer initialized'; then
	t_pass "$P/kasan"
else
	t_fail "$P/kasan" "no \"KernelAddressSanitizer initialized\" in the log: $(uname -r) is not the debug kernel"
fi
if grep -Eq '^ *debug_locks: +1$' /proc/lockdep_stats 2>/dev/null; then
	t_pass "$P/lockdep-on"
else
	t_fail "$P/lockdep-on" "/proc/lockdep_stats: $(grep debug_locks /proc/lockdep_stats 2>&1)"
fi
if dmesg | grep -q 'kunit: disabled' && ! dmesg | grep -q 'KTAP version'; then
	t_pass "$P/kunit-off"
else
	t_fail "$P/kunit-off" "KUnit ran at boot or did not say it is disabled (kunit.enable=0)"
fi
bad=$(t_debug_reports)
if [ -z "$bad" ]; then
	t_pass "$P/boot-log"
else
	t_indent <<<"$bad"
	t_fail "$P/boot-log" "a report while booting: $(head -n1 <<<"$bad")"
fi
t_exit
