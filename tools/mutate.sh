#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# tools/mutate.sh [NAME...]: apply each mutation of tools/mutations.txt
# (or only those named) to a copy of the tree, alone, and run the KUnit
# suites on it (tools/kunit.sh, which shares its build cache: one run at
# a time).  Every mutation must make at least one test fail ("killed");
# one that survives is a behaviour no test guards, and one that no longer
# applies (the code it names changed) must be brought up to date.  Each
# run takes as long as an incremental make kunit, about two minutes.
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)
list=$here/mutations.txt
work=$(mktemp -d "${TMPDIR:-/var/tmp}/irdma-mutate.XXXXXX")
trap 'rm -rf "$work"' EXIT
killed=0 failed=0

want() {
	[ $# -le 1 ] && return 0
	local n
	for n in "${@:2}"; do [ "$n" = "$1" ] && return 0; done
	return 1
}

while IFS='|' read -r name file expr; do
	case $name in ''|\#*) continue ;; esac
	want "$name" "$@" || continue
	tree=$work/tree
	rm -rf "$tree"
	mkdir -p "$tree"
	rsync -a --exclude=/.git --exclude='*.o' --exclude='*.ko' \
		--exclude='*.cmd' --exclude='*.mod*' --exclude='tests/progs/build' \
		"$root/" "$tree/"
	before=$(sha256sum <"$tree/$file")
	perl -0pi -e "$expr" "$tree/$file"
	if [ "$(sha256sum <"$tree/$file")" = "$before" ]; then
		echo "FAIL: mutate.$name: does not apply to $file any more"
		failed=$((failed + 1))
		continue
	fi
	log=$work/$name.log
	"$tree/tools/kunit.sh" >"$log" 2>&1
	rc=$?
	fails=$(grep -c '^FAIL: kunit\.' "$log")
	if grep -q '^FAIL: kunit\.\(build\|run\)' "$log"; then
		echo "FAIL: mutate.$name: the mutated tree did not build or run"
		tail -n 20 "$log" | sed 's/^/#   /'
		failed=$((failed + 1))
	elif [ "$rc" -eq 0 ]; then
		echo "FAIL: mutate.$name: survived: every test passes with it"
		failed=$((failed + 1))
	else
		echo "PASS: mutate.$name: killed by $fails failing test(s)"
		grep '^FAIL: kunit\.' "$log" | head -n 3 | sed 's/^/#   /'
		killed=$((killed + 1))
	fi
done <"$list"
echo "$killed passed, $failed failed"
[ "$failed" -eq 0 ]
