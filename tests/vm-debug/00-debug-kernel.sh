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
t_debug_lockdep "$P/lockdep-on" "lockdep is off"
if dmesg | grep -q 'kunit: disabled' && ! dmesg | grep -q 'KTAP version'; then
	t_pass "$P/kunit-off"
else
	t_fail "$P/kunit-off" "KUnit ran at boot or did not say it is disabled (kunit.enable=0)"
fi
t_debug_log "$P/boot-log" "a report while booting"
t_exit
