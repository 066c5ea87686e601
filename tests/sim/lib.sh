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
#   skip MSG       print "SKIP: MSG" and exit 4: only for what the machine
#                  cannot have (tests/vm/50-sim-selftests.sh counts it)
#   load MODULE    modprobe MODULE
# A check that cannot run where it should (a tool or module the VM has, a
# step that did not happen) is a fail, not a skip.

ret=0
fail() { echo "FAIL: $*"; ret=1; }
pass() { echo "ok: $*"; }
skip() { echo "SKIP: $*"; exit 4; }

# entries DIR [MATCH [EXCEPT]]: how many names in DIR match the extended
# regex MATCH (default: any) and not EXCEPT; 0 when DIR does not exist
entries() {
	local f n=0 name
	for f in "$1"/*; do
		[ -e "$f" ] || continue
		name=${f##*/}
		[[ $name =~ ${2:-.} ]] || continue
		[ -z "${3:-}" ] || ! [[ $name =~ $3 ]] || continue
		n=$((n + 1))
	done
	echo "$n"
}

load() {
	[ -z "$(awk -v m="$1" '$1 == m' /proc/modules)" ] || return 0
	modprobe "$1"
}

# sim_require WHAT...: skip unless run as root; fail and exit unless
# every WHAT is there: rdma (the iproute2 tool, which make deps installs),
# or an installed module (this repo's build; a skip only when the suite
# runs without it because the build failed, IRDMA_VM_NO_REPO_MODULES=1)
sim_require() {
	local w
	[ "$(id -u)" = 0 ] || skip "needs root"
	for w in "$@"; do
		case "$w" in
		rdma)
			command -v rdma >/dev/null && continue
			fail "no rdma tool (make deps installs it)"
			exit 1
			;;
		*)
			modinfo "$w" >/dev/null 2>&1 && continue
			[ "${IRDMA_VM_NO_REPO_MODULES:-0}" != 1 ] || skip "the build failed: no $w"
			fail "$w is not installed"
			exit 1
			;;
		esac
	done
}

sim_exit() {
	if [ "$ret" = 0 ]; then echo "PASS"; else echo "FAILED"; fi
	exit "$ret"
}
