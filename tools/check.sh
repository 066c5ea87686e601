#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# "make check": every test, in stages, ending with exactly one line
#
#   N passed, N failed, N skipped
#
# Stages, in order (each one's output is shown as it runs):
#   build   make modules                     -> PASS/FAIL: build
#   static  tools/static.sh                  (W=1, sparse, checkpatch, kernel-doc)
#   fuzz    tools/fuzz.sh --smoke            (libFuzzer, short)
#   siw     tools/siw.sh [--crc]             -> PASS/FAIL: siw-build, siw-crc-build
#   vm      tools/vm/tests.sh                (the VM integration suite)
#   ulp     tests/ulp/run.sh                 (kernel storage ULPs, two VMs)
#   kunit   tools/kunit.sh                   (KUnit in a cached debug kernel)
#   vm-debug tools/vm/debug.sh               (the VM suite's lean core on
#                                             the KUnit kernel: KASAN,
#                                             lockdep; "debug/" results)
# The debug kernel that kunit and vm-debug boot takes 10-15 minutes of
# CPU to build from a cold cache.  It is built from the start in the
# background at idle priority (tools/vm/debug-kernel.sh under chrt
# --idle): it takes only the CPU that the other stages leave, and the VM
# stages leave much (their guests wait on timers and on each other).
# The kunit stage waits for it (the KUnit cache's lock), and builds it
# itself if that build failed.
# A stage script that is missing gives "FAIL: <stage>: tools/<x> missing".
# Every "PASS:", "FAIL:" and "SKIP:" line a stage prints is counted.  A
# stage that exits non-zero without printing a FAIL line counts as
# "FAIL: <stage>: exited N"; one that runs past its time limit is killed
# and counted FAIL.  A stage's "#! " lines are evidence for a failure:
# the last 40 are shown again at the end, beside the list of failures.
# When the build fails, the VM suite runs without this repo's modules (no
# stale irdma.ko is tested): the driver's scripts then SKIP (the build's
# FAIL is counted), the rest still run.  Each stage's time and the total
# are printed at the end.
#
# Time limits use "timeout --foreground": the stages stay in this process
# group, so ^C reaches them; each stage passes SIGTERM on to its VMs.
#
# Exit status: 1 if anything failed.  Needs root (modules, QEMU, netns) and
# "make deps" done.  CHECK_STAGES="build vm" runs only the stages named.
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/.." && pwd)
cd "$repo" || exit 1
all_stages="build static fuzz siw vm ulp kunit vm-debug"
stages=${CHECK_STAGES:-$all_stages}
for s in $stages; do
	case " $all_stages " in
	*" $s "*) ;;
	*)
		echo "check.sh: unknown stage '$s' (stages: $all_stages)" >&2
		exit 2
		;;
	esac
done
[ -n "${stages// /}" ] || { echo "check.sh: CHECK_STAGES names no stage" >&2; exit 2; }

results=$(mktemp)
evidence=$(mktemp)
# shellcheck disable=SC2317 # called by the trap
end() {
	# the background build is a process group of its own (setsid)
	[ ! -s "${bg_log:-}.pgid" ] || kill -- "-$(cat "$bg_log.pgid")" 2>/dev/null
	rm -f "$results" "$evidence" "${bg_log:-}" "${bg_log:-}.pgid" "${bg_log:-}.err"
}
trap end EXIT
trap 'exit 130' INT TERM

now() { date +%s; }

# collect: pass stdin through, keep the result lines
collect() {
	local line
	while IFS= read -r line; do
		printf '%s\n' "$line"
		case "$line" in
		PASS:* | FAIL:* | SKIP:*) printf '%s\n' "$line" >>"$results" ;;
		'#! '*) printf '%s\n' "$line" >>"$evidence" ;;
		esac
	done
}

result() { printf '%s\n' "$*" | collect; }

want() { case " $stages " in *" $1 "*) return 0 ;; esac; return 1; }

times=()
# timed NAME START: note the time stage NAME took since START
timed() {
	times+=("$1 $(($(now) - $2)) s")
}

# stage NAME LIMIT_SEC CMD...: run CMD with its output collected
stage() {
	local name=$1 limit=$2 start rc fails_before fails_after
	shift 2
	want "$name" || return 0
	echo "### stage $name: $*"
	start=$(now)
	fails_before=$(grep -c '^FAIL:' "$results")
	timeout --foreground -k 30 "$limit" "$@" 2>&1 | collect
	rc=${PIPESTATUS[0]}
	fails_after=$(grep -c '^FAIL:' "$results")
	if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
		result "FAIL: $name: timed out after ${limit}s"
	elif [ "$rc" -ne 0 ] && [ "$fails_after" -eq "$fails_before" ]; then
		result "FAIL: $name: exited $rc"
	fi
	echo "### stage $name: exit $rc after $(($(now) - start)) s"
	timed "$name" "$start"
	return "$rc"
}

# optional_stage NAME LIMIT SCRIPT ARGS...: a stage another engineer owns
optional_stage() {
	local name=$1 limit=$2 script=$3
	want "$name" || return 0
	if [ ! -x "$repo/$script" ]; then
		result "FAIL: $name: $script missing"
		return 0
	fi
	shift 3
	stage "$name" "$limit" "$repo/$script" "$@"
}

start_all=$(now)

# the debug kernel, in the background at idle priority (see the top)
bg_pid=
bg_log=$results.bg
if want kunit || want vm-debug; then
	(
		t0=$(now)
		if want vm-debug; then
			prep=("$repo/tools/vm/debug-kernel.sh")
		else
			prep=("$repo/tools/kunit.sh" --build-only)
		fi
		setsid chrt --idle 0 ionice -c 3 "${prep[@]}" >/dev/null 2>"$bg_log.err" &
		echo $! >"$bg_log.pgid"
		if wait $!; then
			echo "### background: the debug kernel was ready after $(($(now) - t0)) s" >"$bg_log"
		else
			{
				echo "### background: preparing the debug kernel failed after $(($(now) - t0)) s:"
				tail -n 5 "$bg_log.err"
			} >"$bg_log"
		fi
		rm -f "$bg_log.err" "$bg_log.pgid"
	) &
	bg_pid=$!
fi
# bg_wait: the background build is over; say how it went
bg_wait() {
	local t0
	[ -n "$bg_pid" ] || return 0
	t0=$(now)
	# from here it has the CPU to itself: 45 minutes at most
	while kill -0 "$bg_pid" 2>/dev/null && [ $(($(now) - t0)) -lt 2700 ]; do
		sleep 5
	done
	if kill -0 "$bg_pid" 2>/dev/null; then
		echo "### background: still not done after 2700 s; stopped (the kunit stage builds it)"
		[ ! -s "$bg_log.pgid" ] || kill -- "-$(cat "$bg_log.pgid")" 2>/dev/null
	fi
	wait "$bg_pid"
	bg_pid=
	cat "$bg_log"
	echo "### background: waited $(($(now) - t0)) s for it"
	timed debug-kernel-wait "$t0"
}
built=1
if want build; then
	echo "### stage build: make modules"
	start=$(now)
	if timeout --foreground -k 30 1200 make -C "$repo" modules 2>&1; then
		result "PASS: build"
	else
		built=0
		result "FAIL: build: make modules failed"
	fi
	echo "### stage build: $(($(now) - start)) s"
	timed build "$start"
fi

optional_stage static 1800 tools/static.sh
optional_stage fuzz 900 tools/fuzz.sh --smoke

if want siw; then
	start=$(now)
	# the peer of the tests, and the benchmark's reference (MPA CRC required)
	for v in '' --crc; do
		echo "### stage siw: tools/siw.sh${v:+ $v}"
		if out=$(timeout --foreground -k 30 600 "$repo/tools/siw.sh" ${v:+"$v"} 2>&1); then
			echo "$out"
			result "PASS: siw${v:+-crc}-build"
		else
			echo "$out"
			result "FAIL: siw${v:+-crc}-build: tools/siw.sh $v failed"
		fi
	done
	timed siw "$start"
fi

if want vm; then
	if [ "$built" = 1 ]; then
		stage vm 3600 "$repo/tools/vm/tests.sh"
	else
		IRDMA_VM_NO_REPO_MODULES=1 stage vm 3600 "$repo/tools/vm/tests.sh"
	fi
fi

# kernel ULPs between two guests: they need this repo's modules
if want ulp; then
	if [ "$built" = 1 ]; then
		stage ulp 2700 "$repo/tests/ulp/run.sh"
	else
		result "SKIP: ulp: the modules did not build"
	fi
fi

bg_wait
optional_stage kunit 2700 tools/kunit.sh

# the hostile users and a lean core of the VM suite on the debug kernel
# (the KUnit kernel: tools/kunit.sh built it, or builds it now); they
# need this repo's modules
if want vm-debug; then
	if [ "$built" = 1 ]; then
		stage vm-debug 2700 "$repo/tools/vm/debug.sh"
	else
		result "SKIP: vm-debug: the modules did not build"
	fi
fi

pass=$(grep -c '^PASS:' "$results")
fail=$(grep -c '^FAIL:' "$results")
skip=$(grep -c '^SKIP:' "$results")
t=
for x in "${times[@]}"; do t+="$x, "; done
echo "### times: ${t}total $(($(now) - start_all)) s"
if [ "$fail" -gt 0 ] && [ -s "$evidence" ]; then
	echo "### evidence (the last 40 \"#! \" lines of the failures):"
	tail -n 40 "$evidence" | sed 's/^#! /###   /'
fi
if [ "$fail" -gt 0 ]; then
	echo "### failed:"
	grep '^FAIL:' "$results" | sed 's/^/###   /'
fi
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
