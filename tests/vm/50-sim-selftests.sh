#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The model's own selftests for the stock kernel (tests/sim/*.sh, owned by
# the irdma_sim engineers) as part of the suite: one result per script.
# Their output is shown as diagnostics; exit 0 is PASS, 4 SKIP, anything
# else FAIL with the script's first FAIL line.  check.sh's stand-in driver
# (tests/sim/check) is built on the host by tools/vm/tests.sh.  lib.sh is
# sourced by the others.
# timeout: 1260
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
P=sim-selftests

found=0
for s in "$T_REPO"/tests/sim/*.sh; do
	[ "${s##*/}" != lib.sh ] || continue
	[ -f "$s" ] || continue
	found=1
	name=$P/$(basename "$s" .sh)
	start=$SECONDS
	out=$(timeout -k 10 400 bash "$s" </dev/null 2>&1)
	rc=$?
	t_indent <<<"$out"
	t_log "$name: $((SECONDS - start)) s"
	case "$rc" in
	0) t_pass "$name" ;;
	4) t_skip "$name" "$(grep -m1 '^SKIP' <<<"$out" | cut -c1-200)" ;;
	124 | 137) t_fail "$name" "timed out after 400 s" ;;
	*) t_fail "$name" "exit $rc: $(grep -m1 '^FAIL' <<<"$out" | cut -c1-200)" ;;
	esac
	# the next script starts from a clean slate
	rdma link show 2>/dev/null | sed -n 's/^link \([^/]*\)\/.*/\1/p' | sort -u |
		while read -r l; do timeout 20 rdma link delete "$l"; done
	modprobe -r irdma_sim irdma 2>/dev/null
done
[ "$found" = 1 ] || t_fail "$P" "no tests/sim/*.sh"
t_exit
