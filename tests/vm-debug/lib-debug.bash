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
