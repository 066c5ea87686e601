#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tools/mutate.sh [NAME...]: apply each mutation of tools/mutations.txt (or
# only those named) to a copy of the tree, alone, and run the KUnit suites
# on it (tools/kunit.sh, which shares its build cache: one run at a time).
#
# First the copy runs unmutated: every case must pass, or nothing after it
# would mean anything ("FAIL: mutate.baseline" and exit).  Then each
# mutation must make at least one KUnit case fail, "FAIL: kunit.<suite>.
# <case>", and so be killed.  What is not a kill: a mutation that no longer
# applies (the code it names changed: bring it up to date), a mutated tree
# that does not build, and a run that fails only in the harness (a crash,
# a timeout, missing cases, a dirty kernel log) without a failing case;
# each of those is a FAIL here, as is a mutation that survives (a rule no
# test guards).  Each run takes as long as an incremental make kunit.
#
# Output: "PASS: mutate.NAME: killed by N failing case(s)" (and the first
# of them), or "FAIL: mutate.NAME: why"; at the end "N passed, N failed"
# and the time taken.  Exit status 1 if anything failed.
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)
list=$here/mutations.txt
work=$(mktemp -d "${TMPDIR:-/var/tmp}/irdma-mutate.XXXXXX")
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT TERM
killed=0 failed=0 t0=$SECONDS

want() {
	[ $# -le 1 ] && return 0
	local n
	for n in "${@:2}"; do [ "$n" = "$1" ] && return 0; done
	return 1
}

# a failing KUnit case, as tools/kunit.sh prints it: a suite of ours and a
# case, not the harness' own lines (kunit.build, kunit.run, kunit.dmesg...)
case_fail='^FAIL: kunit\.irdma[a-z0-9_]*\.[^:]+'

# fresh_tree: the checkout, without its build products, at $work/tree
fresh_tree() {
	tree=$work/tree
	rm -rf "$tree"
	mkdir -p "$tree"
	rsync -a --exclude=/.git --exclude='*.o' --exclude='*.ko' \
		--exclude='*.cmd' --exclude='*.mod*' --exclude='tests/progs/build' \
		"$root/" "$tree/"
}

# run_kunit LOG: tools/kunit.sh of the copy; its exit status
run_kunit() {
	"$tree/tools/kunit.sh" >"$1" 2>&1
}

fresh_tree
log=$work/baseline.log
run_kunit "$log"
rc=$?
ncase=$(grep -cE '^(PASS|FAIL|SKIP): kunit\.irdma' "$log")
if [ "$rc" -ne 0 ] || grep -q '^FAIL:' "$log" || [ "$ncase" -eq 0 ]; then
	grep '^FAIL:' "$log" | head -n 10 | sed 's/^/#   /'
	tail -n 20 "$log" | sed 's/^/#   /'
	echo "FAIL: mutate.baseline: the unmutated tree does not pass make kunit (exit $rc, $ncase cases)"
	echo "0 passed, 1 failed"
	exit 1
fi
echo "# mutate: baseline: $ncase cases pass unmutated ($((SECONDS - t0)) s)"

while IFS='|' read -r name file expr; do
	case $name in '' | \#*) continue ;; esac
	want "$name" "$@" || continue
	t1=$SECONDS
	fresh_tree
	before=$(sha256sum <"$tree/$file")
	perl -0pi -e "$expr" "$tree/$file"
	if [ "$(sha256sum <"$tree/$file")" = "$before" ]; then
		echo "FAIL: mutate.$name: does not apply to $file any more"
		failed=$((failed + 1))
		continue
	fi
	log=$work/$name.log
	run_kunit "$log"
	rc=$?
	fails=$(grep -cE "$case_fail" "$log")
	if grep -q '^FAIL: kunit\.build' "$log"; then
		echo "FAIL: mutate.$name: the mutated tree does not build"
		grep -E 'error:' "$log" | head -n 5 | sed 's/^/#   /'
		failed=$((failed + 1))
	elif [ "$fails" -gt 0 ]; then
		echo "PASS: mutate.$name: killed by $fails failing case(s) ($((SECONDS - t1)) s)"
		grep -E "$case_fail" "$log" | head -n 3 | cut -c1-200 | sed 's/^/#   /'
		killed=$((killed + 1))
	elif [ "$rc" -ne 0 ]; then
		echo "FAIL: mutate.$name: no case failed, only the harness (exit $rc): not a kill"
		grep '^FAIL:' "$log" | head -n 3 | cut -c1-200 | sed 's/^/#   /'
		failed=$((failed + 1))
	else
		echo "FAIL: mutate.$name: survived: every case passes with it"
		failed=$((failed + 1))
	fi
done <"$list"
echo "# mutate: $((SECONDS - t0)) s"
echo "$killed passed, $failed failed"
[ "$failed" -eq 0 ]
