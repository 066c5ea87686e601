#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Sourced by the model's selftests (tests/sim/*.sh), which run as root in
# the test VM (tests/vm/50-sim-selftests.sh) or under the debug kernel of
# tests/sim/debug-kernel.sh.  That kernel has no /lib/modules for irdma
# and irdma_sim: IRDMA_KO_DIR then names a build tree to insmod them from.
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
#   load MODULE    modprobe MODULE, or insmod it from IRDMA_KO_DIR

ret=0
fail() { echo "FAIL: $*"; ret=1; }
pass() { echo "ok: $*"; }
skip() { echo "SKIP: $*"; exit 4; }

load() {
	[ -z "$(awk -v m="$1" '$1 == m' /proc/modules)" ] || return 0
	case "${IRDMA_KO_DIR:+set}:$1" in
	set:irdma_sim) insmod "$IRDMA_KO_DIR/sim/irdma_sim.ko" ;;
	set:irdma) insmod "$IRDMA_KO_DIR/irdma.ko" ;;
	*) modprobe "$1" ;;
	esac
}

# sim_require WHAT...: skip unless run as root and every WHAT is there:
# rdma (the iproute2 tool), or a module, installed or in IRDMA_KO_DIR
sim_require() {
	local w
	[ "$(id -u)" = 0 ] || skip "needs root"
	for w in "$@"; do
		case "$w" in
		rdma) command -v rdma >/dev/null || skip "no rdma tool" ;;
		*)
			[ -n "${IRDMA_KO_DIR:-}" ] || modinfo "$w" >/dev/null 2>&1 ||
				skip "$w not installed"
			;;
		esac
	done
}

sim_exit() {
	if [ "$ret" = 0 ]; then echo "PASS"; else echo "FAILED"; fi
	exit "$ret"
}
