#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The VM integration suite: every tests/vm/*.sh, in order, in one VM.
#
#   tools/vm/tests.sh [--timeout SEC] [PATTERN...]
#   tools/vm/tests.sh --host-only [PATTERN...]
#
# PATTERN selects scripts whose file name contains it (e.g. "05", "siw").
# Without one, every script runs but the reference runs: a script with
# "# reference: WHY" in its first 20 lines tests none of this project's
# code (siw against siw) and runs only when a PATTERN names it.
# Each script prints PASS:/FAIL:/SKIP: lines (tests/lib.sh); they are
# passed through to stdout, with "# " diagnostics and one duration line per
# script.  A script that exits non-zero without a FAIL line counts as
# "FAIL: vm/<script>: exited N"; one that runs longer than its timeout
# (default 300 s, or "# timeout: SEC" in the script's first 20 lines) is
# killed and counted FAIL.  After each script the guest removes what it
# left (RDMA links, namespaces, modules): a removal that fails is
# "FAIL: vm/<script>/cleanup", and a kernel report (tests/lib.sh's
# T_DMESG_BAD) that none of the script's own checks saw (before its first
# mark, after its last check, in this cleanup) is
# "FAIL: vm/<script>/kernel-log".  If the kernel dies or wedges anywhere
# from a script's start to the end of the cleanup after it, that script
# is counted FAIL and a fresh VM runs the rest; a VM that dies after the
# last script, or exits non-zero, is a FAIL too.
# Exit status 1 if anything failed.
#
# First, on the host: the C programs in tests/progs/*.c are compiled into
# tests/progs/build/ (gitignored) with -libverbs -lrdmacm, and the kernel
# test modules of tests/kmod and tests/sim/check for the target kernel.  A
# script with "# host-setup: CMD" in its first 20 lines has CMD (a command
# line, run from the repo) run on the host before the VM boots, for work
# too slow for the guest; its output is shown as "# " diagnostics when it
# fails, and the script itself finds and reports what is missing.
# --host-only does that host part and stops (tools/bench.sh uses it).
#
# The VM is booted with slab_nomerge, so named slab caches stay apart for
# the slab accounting of tests/lib.sh, and with slab and page
# poisoning (slub_debug=FZP page_poison=1: the Debian kernel has no KASAN),
# so a use after free reads poison and a write into freed memory is
# reported at the object's next allocation.  A failed slab comparison
# names the sites of the objects held from its own trace of kmalloc and
# kfree (tests/lib.sh).  VMTEST_APPEND adds kernel parameters:
# VMTEST_APPEND='slub_debug=FZP;FZPU,kmalloc-96' also records who allocated
# each kmalloc-96 object (t_slab_traces), objects older than the test's
# baseline too.  It is not the default: 72-cm-loop and 75-perftest took
# 311 s with it, 250-274 s without, in runs on the same machine.
# VMTEST_DIR replaces tests/vm (a directory the guest sees: not under
# /tmp).  VMTEST_ENV="VAR=VALUE ..." is put in the scripts' environment
# (e.g. CM_LOOP_N=25 for 72-cm-loop).
#
# With IRDMA_VM_KSET and IRDMA_VM_KDIR (tools/vm/debug-kernel.sh; run by
# tools/vm/debug.sh) the VM boots the debug kernel (KASAN, lockdep) and the
# test modules are built against its build directory.  KASAN's redzones
# and quarantine take the place of slab and page poisoning there: the boot
# has slab_nomerge, and a kernel log large enough for the whole run.
#
# Inside the VM the same script runs with --guest (IRDMA_VM=1 is set by
# tools/vm/run.sh).
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
testdir=${VMTEST_DIR:-$repo/tests/vm}
default_timeout=300
# what the cleanup after a script may take before the host stops the VM
cleanup_timeout=120

now() { echo "${EPOCHREALTIME/,/.}"; }
elapsed() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }

# the per-script timeout: "# timeout: SEC" near the top, else the default
script_timeout() {
	local t
	t=$(head -n 20 "$1" | sed -n 's/^# timeout: *\([0-9][0-9]*\).*/\1/p' | head -n1)
	echo "${t:-${override_timeout:-$default_timeout}}"
}

# ---------------------------------------------------------------- guest ---

# the kernel's reports of a problem (tests/lib.sh's T_DMESG_BAD)
bad_re() {
	# shellcheck source=tests/lib.sh
	(. "$repo/tests/lib.sh" && trap - EXIT && echo "$T_DMESG_BAD")
}

# mark LABEL: a marker line in the kernel log; prints it
mark() {
	local m="irdma-vm-test-mark $$.$RANDOM $1"
	echo "$m" >/dev/kmsg
	echo "$m"
}

# log_unchecked START: the kernel log after the marker START (all of it
# when the marker is gone: a script may clear the log) that no check of
# the script saw: up to the script's first tests/lib.sh marker, and after
# its last one (its last t_dmesg_check, or its exit's); all of it when the
# script wrote none
log_unchecked() {
	dmesg | awk -v m="$1" '
		{ l[++n] = $0 }
		index($0, m) { s = n }
		END {
			for (i = s + 1; i <= n; i++)
				if (l[i] ~ /irdma-test-mark /) {
					if (!first)
						first = i
					last = i
				}
			for (i = s + 1; i <= n; i++)
				if (!first || i < first || i > last)
					print l[i]
		}'
}

# what the cleanup could not remove, blamed on the script that left it:
# the scripts after it are not blamed again for it
stuck=' '

# guest_reset NAME START: put the guest back to a known state after script
# NAME (started after the kernel log marker START).  What the script left
# behind is removed and named; a removal that fails is a FAIL of the
# script, and so is a kernel report that no check of the script saw (its
# teardown's included, and this cleanup's).
guest_reset() {
	local name=$1 start=$2 l left='' failed='' again='' bad
	for l in $(timeout 10 rdma link show 2>/dev/null | sed -n 's/^link \([^/]*\)\/.*/\1/p' | sort -u); do
		left+=" rdma:$l"
		timeout 20 rdma link delete "$l" >/dev/null 2>&1 || failed+=" rdma:$l"
	done
	for l in $(ip netns list 2>/dev/null | cut -d' ' -f1); do
		left+=" netns:$l"
		timeout 20 ip netns del "$l" >/dev/null 2>&1 || failed+=" netns:$l"
	done
	for l in irdma_sim irdma siw rdma_rxe; do
		[ -d "/sys/module/$l" ] || continue
		left+=" module:$l"
		timeout 20 modprobe -r "$l" >/dev/null 2>&1 || failed+=" module:$l"
	done
	[ -z "$left" ] || echo "# vm-test: cleaned up after the script:$left"
	for l in $failed; do
		case $stuck in *" $l "*) again+=" $l" ;; esac
	done
	[ -z "$again" ] || echo "# vm-test: still not removable, left by an earlier script:$again"
	for l in $again; do failed=${failed/ $l/}; done
	if [ -n "$failed" ]; then
		echo "FAIL: vm/$name/cleanup: could not remove what it left:$failed"
		stuck+="${failed# } "
	fi
	bad=$(log_unchecked "$start" | grep -E -m1 "$(bad_re)")
	if [ -n "$bad" ]; then
		log_unchecked "$start" | tail -n 40 | sed 's/^/#   /'
		echo "FAIL: vm/$name/kernel-log: a report no check of the script saw: $bad"
	fi
}

# run_one SCRIPT: run it with a timeout, pass its output through, print the
# end marker; return 2 when the script cannot be killed (kernel wedged)
run_one() {
	local s=$1 name limit start fifo pid line rc=0 st state pass=0 fail=0 skip=0
	local timed_out=0 exited_at=
	name=${s##*/}
	limit=$(script_timeout "$s")
	echo "# vm-test: start $name (timeout ${limit}s)"
	start=$(now)
	fifo=$(mktemp -u /tmp/vm-test.XXXXXX)
	mkfifo "$fifo"
	set -m # own process group: kill the script and what it started
	bash "$s" >"$fifo" 2>&1 </dev/null &
	pid=$!
	set +m
	exec {rd}<"$fifo"
	rm -f "$fifo"
	local part=
	while :; do
		if IFS= read -r -t 1 -u "$rd" line; then
			line=$part$line
			part=
		else
			st=$?
			if [ "$st" -le 128 ]; then # end of output
				line=$part$line
				[ -z "$line" ] || echo "$line"
				break
			fi
			# read -t keeps what it got of an unfinished line
			part+=$line
			# a tick: check the clock and whether the script is gone
			if [ "$(elapsed "$start" | cut -d. -f1)" -ge "$limit" ]; then
				timed_out=1
				break
			fi
			read -r _ _ state _ 2>/dev/null <"/proc/$pid/stat" || state=Z
			if [ "$state" = Z ]; then
				# exited, but something it started holds the output
				exited_at=${exited_at:-$SECONDS}
				[ $((SECONDS - exited_at)) -lt 3 ] || break
			fi
			continue
		fi
		echo "$line"
		case "$line" in
		PASS:*) pass=$((pass + 1)) ;;
		FAIL:*) fail=$((fail + 1)) ;;
		SKIP:*) skip=$((skip + 1)) ;;
		esac
	done
	exec {rd}<&-
	kill -TERM -- "-$pid" 2>/dev/null
	# reap; a process stuck in the kernel cannot be
	local i=0
	while :; do
		read -r _ _ state _ 2>/dev/null <"/proc/$pid/stat" || state=Z
		[ "$state" != Z ] || break
		i=$((i + 1))
		[ "$i" -ne 50 ] || kill -KILL -- "-$pid" 2>/dev/null
		if [ "$i" -ge 150 ]; then
			echo "FAIL: vm/$name: cannot be killed (state $state): the kernel is wedged"
			ps -eo pid,stat,wchan:32,args | awk '$2 ~ /D/ { print "# " $0 }'
			echo "# vm-test: end $name rc=wedged pass=$pass fail=$((fail + 1)) skip=$skip time=$(elapsed "$start")s"
			return 2
		fi
		sleep 0.1
	done
	kill -KILL -- "-$pid" 2>/dev/null
	wait "$pid"
	rc=$?
	if [ "$timed_out" = 1 ]; then
		echo "FAIL: vm/$name: timed out after ${limit}s"
		fail=$((fail + 1))
	elif [ "$rc" -ne 0 ] && [ "$fail" -eq 0 ]; then
		if [ "$rc" -eq 4 ]; then # kselftest's "skipped"
			[ "$skip" -gt 0 ] || { echo "SKIP: vm/$name: exited 4 (skipped)"; skip=1; }
		else
			echo "FAIL: vm/$name: exited $rc"
			fail=1
		fi
	elif [ $((pass + fail + skip)) -eq 0 ]; then
		echo "FAIL: vm/$name: printed no PASS/FAIL/SKIP line"
		fail=1
	fi
	echo "# vm-test: end $name rc=$rc pass=$pass fail=$fail skip=$skip time=$(elapsed "$start")s"
	return 0
}

# The guest's protocol with the host, per script: "start NAME", its output,
# "end NAME rc=...", the cleanup after it ("cleanup NAME"), then "done
# NAME".  The host blames NAME for a VM that dies or hangs anywhere between
# its start and its done; after the last one, "all done".
guest_main() {
	local s start
	# a hung test should be reported by the kernel before its timeout
	sysctl -qw kernel.hung_task_timeout_secs=30 2>/dev/null
	for s in "$@"; do
		start=$(mark "start $s")
		run_one "$testdir/$s"
		if [ $? -eq 2 ]; then
			echo "# vm-test: done $s (wedged: no cleanup)"
			exit 2
		fi
		echo "# vm-test: cleanup $s (timeout ${cleanup_timeout}s)"
		guest_reset "$s" "$start"
		echo "# vm-test: done $s"
	done
	echo "# vm-test: all done"
}

# ----------------------------------------------------------------- host ---

# build_progs: compile tests/progs/*.c; returns the number of failures
build_progs() {
	local out=$repo/tests/progs/build c bin n=0
	mkdir -p "$out"
	for c in "$repo"/tests/progs/*.c; do
		[ -f "$c" ] || continue
		bin=$out/$(basename "$c" .c)
		# rebuilt when the program or a shared header changed
		if [ "$bin" -nt "$c" ] &&
			! find "$repo"/tests/progs -maxdepth 1 -name '*.h' -newer "$bin" | grep -q .; then
			continue
		fi
		if ! gcc -O2 -g -Wall -Wextra -o "$bin" "$c" -libverbs -lrdmacm 2>"$out/.err"; then
			sed 's/^/# /' "$out/.err"
			echo "FAIL: vm/progs: $(basename "$c") does not compile"
			rm -f "$bin"
			n=$((n + 1))
		fi
	done
	rm -f "$out/.err"
	# kernel test modules (tests/kmod, the model's stand-in driver
	# tests/sim/check), for the target kernel
	local kdir=${IRDMA_VM_KDIR:-/usr/src/linux-headers-${KVER:-$("$repo/tools/kver.sh")}} m
	for m in tests/kmod tests/sim/check; do
		if ! make -s -C "$kdir" M="$repo/$m" modules >"$out/.kerr" 2>&1; then
			sed 's/^/# /' "$out/.kerr"
			echo "FAIL: vm/progs: $m does not build"
			n=$((n + 1))
		fi
	done
	rm -f "$out/.kerr"
	return "$n"
}

# host_setup SCRIPT...: run the "# host-setup: CMD" of each script that has one
host_setup() {
	local s cmd out t0 line
	for s in "$@"; do
		cmd=$(head -n 20 "$testdir/$s" | sed -n 's/^# host-setup: *//p' | head -n1)
		[ -n "$cmd" ] || continue
		t0=$(now)
		if out=$(cd "$repo" && bash -c "$cmd" 2>&1); then
			echo "# vm-test: host setup of $s: $cmd ($(elapsed "$t0") s)"
		else
			echo "# vm-test: host setup of $s failed: $cmd"
			while IFS= read -r line; do echo "# $line"; done <<<"$out"
		fi
	done
}

vm_pid=
# shellcheck disable=SC2317 # called by the trap
host_stop() {
	[ -z "$vm_pid" ] || kill "$vm_pid" 2>/dev/null
	exit 130
}

host_main() {
	trap host_stop INT TERM HUP
	local patterns=() scripts=() s p t total=0 start host_only=0 why
	while [ $# -gt 0 ]; do
		case "$1" in
		--timeout) override_timeout=${2:?}; shift 2 ;;
		--host-only) host_only=1; shift ;;
		-h | --help) sed -n '4,/^set -uo/{/^set -uo/d;s/^# \{0,1\}//;p}' "$0"; exit 0 ;;
		*) patterns+=("$1"); shift ;;
		esac
	done
	for s in "$testdir"/*.sh; do
		[ -f "$s" ] || continue
		s=${s##*/}
		if [ "${#patterns[@]}" -gt 0 ]; then
			local hit=0
			for p in "${patterns[@]}"; do
				case "$s" in *"$p"*) hit=1 ;; esac
			done
			[ "$hit" = 1 ] || continue
		else
			why=$(head -n 20 "$testdir/$s" | sed -n 's/^# reference: *//p' | head -n1)
			if [ -n "$why" ]; then
				echo "# vm-test: $s is a reference run, not run by default ($why); tools/vm/tests.sh ${s%%-*} runs it"
				continue
			fi
		fi
		scripts+=("$s")
	done
	if [ "${#scripts[@]}" -eq 0 ]; then
		echo "FAIL: vm: no test scripts in $testdir${patterns[*]:+ matching ${patterns[*]}}"
		return 1
	fi
	local failed=0 pass=0 fail=0 skip=0 current='' line
	local boot="slab_nomerge slub_debug=FZP page_poison=1" guest_env=() v
	[ -z "${IRDMA_VM_KSET:-}" ] || boot="slab_nomerge log_buf_len=16M"
	read -ra guest_env <<<"${VMTEST_ENV:-}"
	for v in "${guest_env[@]}"; do
		[[ "$v" =~ ^[A-Z_][A-Z0-9_]*= ]] || { echo "FAIL: vm: VMTEST_ENV: '$v' is not VAR=VALUE"; return 1; }
	done
	start=$(now)
	build_progs || fail=$((fail + $?))
	host_setup "${scripts[@]}"
	if [ "$host_only" = 1 ]; then
		[ "$fail" = 0 ]
		return
	fi
	local todo=("${scripts[@]}")
	while [ "${#todo[@]}" -gt 0 ]; do
		total=120 # boot and margin
		for s in "${todo[@]}"; do
			t=$(script_timeout "$testdir/$s")
			total=$((total + t + 20))
		done
		current=
		local done_list=() all_done=0 fifo cur_start=0 cur_limit=0 part='' st phase=''
		local vm_rc wedged=0
		echo "# vm-test: booting a VM for ${#todo[@]} script(s)"
		fifo=$(mktemp -u /tmp/vm-tests.XXXXXX)
		mkfifo "$fifo"
		"$here/run.sh" --timeout "$total" --append "$boot ${VMTEST_APPEND:-}" -- \
			env override_timeout="${override_timeout:-}" VMTEST_DIR="$testdir" \
			IRDMA_VM_NO_REPO_MODULES="${IRDMA_VM_NO_REPO_MODULES:-0}" "${guest_env[@]}" \
			"$here/tests.sh" --guest "${todo[@]}" >"$fifo" 2>&1 &
		vm_pid=$!
		exec {vm_out}<"$fifo"
		rm -f "$fifo"
		while :; do
			st=0
			IFS= read -r -t 5 -u "$vm_out" line || st=$?
			if [ "$st" -ne 0 ]; then
				if [ "$st" -le 128 ]; then # end of output
					[ -z "$part$line" ] || echo "$part$line"
					break
				fi
				part+=$line
				# the guest enforces each script's limit; if the guest
				# itself is stuck (in the script or in the cleanup after
				# it), stop the VM a minute after that
				if [ -n "$current" ] && [ $((SECONDS - cur_start)) -gt $((cur_limit + 60)) ]; then
					echo "# vm-test: $current: $phase not over $((cur_limit + 60)) s after it began: stopping the VM"
					kill "$vm_pid" 2>/dev/null
					cur_start=$SECONDS
				fi
				continue
			fi
			line=$part$line
			part=
			echo "$line"
			case "$line" in
			"# vm-test: start "*)
				current=${line#\# vm-test: start }
				cur_limit=${current##*timeout }
				cur_limit=${cur_limit%%s)*}
				[[ "$cur_limit" =~ ^[0-9]+$ ]] || cur_limit=$default_timeout
				current=${current%% *}
				cur_start=$SECONDS
				phase=run
				;;
			"# vm-test: end "*rc=wedged*) wedged=1 ;;
			"# vm-test: cleanup "*)
				cur_limit=$cleanup_timeout
				cur_start=$SECONDS
				phase=cleanup
				;;
			"# vm-test: done "*) done_list+=("$current"); current= ;;
			"# vm-test: all done") all_done=1 ;;
			PASS:*) pass=$((pass + 1)) ;;
			FAIL:*) fail=$((fail + 1)) ;;
			SKIP:*) skip=$((skip + 1)) ;;
			esac
		done
		exec {vm_out}<&-
		wait "$vm_pid"
		vm_rc=$?
		vm_pid=
		if [ "$all_done" = 1 ]; then
			# nothing may go wrong after the last script either
			if [ "$vm_rc" -ne 0 ]; then
				echo "FAIL: vm: the VM exited $vm_rc after the last script (kernel panic or hang at shutdown)"
				fail=$((fail + 1))
			fi
			break
		fi
		# the VM died or wedged: blame the script it ran or cleaned up
		# after, go on with a new VM
		if [ -n "$current" ]; then
			echo "FAIL: vm/$current: the VM died or hung (exit $vm_rc) ${phase:+in the ${phase/run/script}} (kernel panic, hang or VM timeout)"
			fail=$((fail + 1))
			done_list+=("$current")
		fi
		local rest=()
		for s in "${todo[@]}"; do
			local d hit=0
			for d in "${done_list[@]}"; do [ "$d" != "$s" ] || hit=1; done
			[ "$hit" = 1 ] || rest+=("$s")
		done
		if [ "${#rest[@]}" -eq "${#todo[@]}" ]; then
			echo "FAIL: vm: the VM did not run any test script (exit $vm_rc: boot failure?)"
			fail=$((fail + 1))
			break
		fi
		if [ "${#rest[@]}" -eq 0 ] && [ -z "$current" ] && [ "$wedged" = 0 ]; then
			echo "FAIL: vm: the VM died (exit $vm_rc) after its last script, before it said it was done"
			fail=$((fail + 1))
		fi
		todo=("${rest[@]}")
	done
	echo "# vmtest: $pass passed, $fail failed, $skip skipped in $(elapsed "$start") s"
	[ "$fail" -eq 0 ] || failed=1
	return "$failed"
}

if [ "${1:-}" = --guest ]; then
	shift
	[ "${IRDMA_VM:-}" = 1 ] || { echo "tests.sh: --guest runs inside the VM only" >&2; exit 2; }
	guest_main "$@"
else
	host_main "$@"
fi
