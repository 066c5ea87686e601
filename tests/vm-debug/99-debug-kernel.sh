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

t_debug_lockdep "$P/lockdep-still-on" "lockdep turned itself off: it reported a problem"
t_debug_log "$P/whole-log" "a report in the run's kernel log"
t_exit
