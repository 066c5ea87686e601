#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Sourced by the model's selftests (tests/sim/*.sh), which run as root in
# the test VM (tests/vm/50-sim-selftests.sh).
# A selftest starts with
#
#   set -u
#   # shellcheck source=tests/sim/lib.sh
#   . "$(dirname "$0")/lib.sh"
#   sim_require [rdma] [irdma_sim] [irdma]
#
# and ends with sim_exit: "PASS" and exit 0, or "FAILED" and exit 1 after
# any fail.  Exit 4 is kselftest's "skipped".
#   fail MSG       print "FAIL: MSG"; the script will exit 1
#   pass MSG       print "ok: MSG"
#   skip MSG       print "SKIP: MSG" and exit 4
#   load MODULE    modprobe MODULE

ret=0
fail() { echo "FAIL: $*"; ret=1; }
pass() { echo "ok: $*"; }
skip() { echo "SKIP: $*"; exit 4; }

load() {
	[ -z "$(awk -v m="$1" '$1 == m' /proc/modules)" ] || return 0
	modprobe "$1"
}

# sim_require WHAT...: skip unless run as root and every WHAT is there:
# rdma (the iproute2 tool), or an installed module
sim_require() {
	local w
	[ "$(id -u)" = 0 ] || skip "needs root"
	for w in "$@"; do
		case "$w" in
		rdma) command -v rdma >/dev/null || skip "no rdma tool" ;;
		*)
			modinfo "$w" >/dev/null 2>&1 || skip "$w not installed"
			;;
		esac
	done
}

sim_exit() {
	if [ "$ret" = 0 ]; then echo "PASS"; else echo "FAILED"; fi
	exit "$ret"
}
