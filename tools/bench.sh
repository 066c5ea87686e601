#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# "make bench": the model's iWARP data path and connection setup against
# soft-iWARP, all measured in one VM run so that the ratios mean something.
# A benchmark, not a test: it prints numbers and passes no judgement.
#
#   tools/bench.sh [--runs N] [--iters N] [--conns N] [--hold N] [--pairs LIST]
#                  [--tries N] [--retry-failed] [--cells LIST]
#   tools/bench.sh --guest ...     (inside the VM; tests/vm/87-bench.sh)
#
# The reference is siw with MPA CRC required (tools/siw.sh --crc), so that
# both stacks pay for CRC32c on every FPDU; it is loaded instead of the
# plain siw for the whole run.  Pairs, written client/server (the client
# in netns a on va, the server in netns b on vb, over one veth):
#   siw/siw  irdma/irdma  irdma/siw  siw/irdma
# (--pairs "irdma/irdma siw/irdma" runs only those; ratios need siw/siw).
# Cells, each run --runs times (default 3) and shown as the median with the
# number of runs that gave a number ("3/3"); a run that perftest could not
# time is run again, up to --tries times in all (default 3); with
# --retry-failed so is a run that failed, which the cell still counts as
# failed ("1/1, 1 failed": one number, one failure):
#   ib_write_bw, ib_read_bw, ib_send_bw   -R, 64 KiB and 4 KiB messages,
#       each cell moving --iters (default 1000) times 64 KiB (--iters
#       messages of 64 KiB, 16 times as many of 4 KiB): MB/s, and the CPU
#       time of both vCPUs per MB moved (both ends run in this VM, setup
#       included: the same bytes per cell keep perftest's start-up, about a
#       second of CPU, from weighing more in the smaller messages' cells)
#   ib_write_lat, ib_send_lat, ib_read_lat  -R, 8 bytes, --iters messages:
#       typical usec
#   connect rate      tests/progs/cm_loop: --conns (default 200) serial
#       rdma_cm connect + disconnect, connections/s; and, with none held,
#       the mean time of each phase of a connection (cm_loop -T)
#   held rate         the same with --hold (default 1000) idle connections
#       held open next to them, and its ratio to the rate with none
#   idle QPs          ib_write_lat again with --hold minus 1 idle connections
#       (cm_loop -H -W) held open beside its own, and its ratio to
#       ib_write_lat alone, run just before each of those runs (so that
#       both sides of the ratio come from the same minutes: this host's
#       speed drifts); and the kernel memory those connections cost,
#       both ends together, per connection: the growth of used memory
#       (MemTotal - MemFree - Buffers - Cached, caches dropped) less the
#       growth of the two cm_loops' resident memory, and of that the slab
# Below the table, what one doorbell costs this CPU (tests/progs/db_trap):
# a system call (siw's doorbell) against a store to the model's doorbell
# page (and, for comparison, a store under a write watchpoint, how the
# model once saw them), and the kernel work after each.
# --cells runs only the cells named, as in "write_lat:8 rate:0 held idle"
# (held: the rate with --hold held; idle: the idle QPs cells).
# Each cell runs its runs for every pair in turn, on devices made for it
# and deleted after it (one pair's devices at a time).
# The last column of each row is the ratio to siw/siw.  A run that fails
# (a failed connect included) counts as no number: a cell with none says
# "fail", never a value.  Cells that cannot run say "n/a" and the table's
# notes say why.  TCG is slow and noisy: compare ratios within one run.
# The VM has 2 vCPUs and 3 GiB.  Each perftest client's TCP SYNs leave
# T_SYN_DELAY_MS (50) ms late (t_syn_delay in tests/lib.sh: perftest's own
# client/server race); the connect rates and the held connections are
# made without that delay.
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/.." && pwd)
runs=3 iters=1000 conns=200 hold=1000 tries=3 retry_failed=0 guest=0 only=
pairs="siw/siw irdma/irdma irdma/siw siw/irdma"
usage() {
	echo "usage: $0 [--runs N] [--iters N] [--conns N] [--hold N] [--pairs LIST] [--tries N] [--retry-failed] [--cells LIST]" >&2
	exit 2
}
while [ $# -gt 0 ]; do
	case "$1" in
	--runs) runs=${2:?}; shift 2 ;;
	--iters) iters=${2:?}; shift 2 ;;
	--conns) conns=${2:?}; shift 2 ;;
	--hold) hold=${2:?}; shift 2 ;;
	--pairs) pairs=${2:?}; shift 2 ;;
	--tries) tries=${2:?}; shift 2 ;;
	--retry-failed) retry_failed=1; shift ;;
	--cells) only=${2:?}; shift 2 ;;
	--guest) guest=1; shift ;;
	*) usage ;;
	esac
done
case "$runs$iters$conns$hold$tries" in *[!0-9]*) usage ;; esac
for p in $pairs; do
	case $p in siw/siw | irdma/irdma | irdma/siw | siw/irdma) ;; *) usage ;; esac
done
if [ "$runs" -lt 1 ] || [ "$iters" -lt 1 ] || [ "$conns" -lt 1 ] || [ "$hold" -lt 1 ] ||
	[ "$tries" -lt 1 ]; then
	usage
fi

if [ "$guest" = 0 ]; then
	make -C "$repo" modules >/dev/null || exit 1
	# the test programs (cm_loop) and the CRC siw, as for 87-bench
	"$repo/tools/vm/tests.sh" --host-only 87-bench || exit 1
	more=()
	[ "$retry_failed" = 0 ] || more+=(--retry-failed)
	[ -z "$only" ] || more+=(--cells "$only")
	# a generous bound: about 40 runs per pair of up to 60 s each
	exec "$here/vm/run.sh" --mem 3072 --timeout $((600 + runs * 4 * 40 * 60)) -- \
		"$here/bench.sh" --guest --runs "$runs" --iters "$iters" \
		--conns "$conns" --hold "$hold" --pairs "$pairs" --tries "$tries" "${more[@]}"
fi

# ---------------------------------------------------------------- guest ---
# shellcheck source=tests/lib.sh
. "$repo/tests/lib.sh"
exec 3>&1 >/dev/null 2>&1
out() { echo "$@" >&3; }
die() {
	out "bench: $*"
	exit 1
}
crc_ko=$("$repo/tools/siw.sh" --crc --path)
[ -f "$crc_ko" ] || die "no siw with MPA CRC required at $crc_ko (tools/siw.sh --crc)"
modprobe -r siw
modprobe -a ib_core libcrc32c rdma_ucm ib_uverbs irdma_sim || die "modprobe failed"
insmod "$crc_ko" || die "insmod $crc_ko failed"
t_defer rmmod siw
[ "$(cat /sys/module/siw/srcversion)" = "$(modinfo -F srcversion "$crc_ko")" ] ||
	die "the siw loaded is not the CRC build"
t_hosts_up || die "cannot set up netns $T_NS_A/$T_NS_B"
work=$(mktemp -d /var/tmp/bench.XXXXXX)
t_defer rm -rf "$work"
hz=$(getconf CLK_TCK)

# msgs TOOL SIZE: the messages a run sends: --iters, or for a bandwidth
# test as many as make --iters times 64 KiB
msgs() {
	case $1 in
	*_bw) echo $((iters * 65536 / $2 > iters ? iters * 65536 / $2 : iters)) ;;
	*) echo "$iters" ;;
	esac
}

# busy_ticks: clock ticks all CPUs spent busy so far
busy_ticks() { awk '/^cpu / { print $2 + $3 + $4 + $7 + $8 }' /proc/stat; }

# perf TOOL SIZE SDEV CDEV PORT: one perftest run; prints "ok VALUE TICKS",
# "clock" when both ends completed but perftest could not time the run
# (its TSC calibration fails now and then under TCG: "Correlation
# coefficient r^2 < 0.9", then it prints 0.00 MB/s or inf usec), or
# "fail" (the output of both ends is kept in $work/fail.*)
perf() {
	local tool=$1 size=$2 sdev=$3 cdev=$4 port=$5
	local n sargs cargs b0 b1 v spid rc=0 src=0
	n=$(msgs "$tool" "$size")
	sargs=(-R -F -d "$sdev" -p "$port" -s "$size" -n "$n")
	cargs=(-R -F -d "$cdev" -p "$port" -s "$size" -n "$n")
	# Debian's perftest asks 220 bytes of inline data on any Intel
	# device in its Send/Write latency tests; the E810 has 101
	case $tool in
	ib_write_lat | ib_send_lat)
		case $sdev in irdma*) sargs+=(-I 101) ;; esac
		case $cdev in irdma*) cargs+=(-I 101) ;; esac
		;;
	esac
	ip netns exec "$T_NS_B" timeout 60 "$tool" "${sargs[@]}" >"$work/srv" 2>&1 &
	spid=$!
	t_wait 10 t_listen_ready "$T_NS_B" "$port" "$sdev"
	b0=$(busy_ticks)
	ip netns exec "$T_NS_A" timeout 50 "$tool" "${cargs[@]}" "$T_IP_B" >"$work/cli" 2>&1 || rc=$?
	b1=$(busy_ticks)
	wait "$spid" || src=$?
	case $tool in
	*_lat) v=$(awk -v s="$size" '$1 == s && NF >= 7 { print $5 }' "$work/cli" | tail -n1) ;;
	*) v=$(awk -v s="$size" '$1 == s && NF >= 5 { print $4 }' "$work/cli" | tail -n1) ;;
	esac
	if [ "$rc" -ne 0 ] || [ "$src" -ne 0 ] || [ -z "$v" ]; then
		{
			echo "client exited $rc, server $src"
			cat "$work/cli" "$work/srv"
			dmesg | grep -E 'irdma|siw' | tail -n 5
		} >"$work/fail.$tool.$size.$sdev.$cdev"
		echo fail
	elif awk -v v="$v" 'BEGIN { exit !(v + 0 > 0 && v + 0 < 1e9) }'; then
		echo "ok $v $((b1 - b0))"
	else
		echo clock
	fi
}

# rate HOLD SDEV CDEV PORT: one cm_loop run of $conns connections with HOLD
# held; prints "ok RATE RESOLVE QP CONNECT DISCONNECT DESTROY" (the mean
# usec of each phase of a connection, cm_loop -T) or "fail"
rate() {
	local held=$1 port=$4 spid v='' ph args=(-T)
	[ "$held" -gt 0 ] && args+=(-H "$held")
	ip netns exec "$T_NS_B" "$T_PROGS/cm_loop" -s -a "$T_IP_B" -p "$port" -n 0 -t 30 >"$work/srv" 2>&1 &
	spid=$!
	t_wait 10 t_listen_ready "$T_NS_B" "$port" "$2"
	# one connection first, untimed: neither ARP nor a first use of
	# anything goes into the rate, whichever cell ran before
	ip netns exec "$T_NS_A" timeout 30 "$T_PROGS/cm_loop" -c -a "$T_IP_B" -p "$port" -n 1 -t 30 \
		>/dev/null 2>&1
	ip netns exec "$T_NS_A" timeout $((120 + held / 5)) "$T_PROGS/cm_loop" -c -a "$T_IP_B" -p "$port" \
		-n "$conns" -t 30 "${args[@]}" >"$work/cli" 2>&1 &&
		v=$(sed -n 's/^cm_loop: [0-9]* connections in .* s (\([0-9.]*\)\/s), 0 failed.*/\1/p' "$work/cli")
	kill "$spid" 2>/dev/null
	wait
	if [ -z "$v" ]; then
		cat "$work/cli" "$work/srv" >"$work/fail.cm_loop.$held.$2.$3"
		echo fail
		return
	fi
	ph=$(sed -n 's/^cm_loop: phases (us): resolve \([0-9]*\) qp \([0-9]*\) connect \([0-9]*\) disconnect \([0-9]*\) destroy \([0-9]*\)$/\1 \2 \3 \4 \5/p' "$work/cli")
	echo "ok $v $ph"
}

# meminfo: "USED SLAB" in KiB, caches dropped first (see idle)
meminfo() {
	sync
	echo 3 >/proc/sys/vm/drop_caches
	awk '{ m[$1] = $2 } END { print m["MemTotal:"] - m["MemFree:"] - m["Buffers:"] - m["Cached:"], m["Slab:"] }' /proc/meminfo
}

# rss PID...: the resident KiB of these processes together
rss() {
	local p t=0 v
	for p in "$@"; do
		v=$(awk '/^VmRSS:/ { print $2 }' "/proc/$p/status" 2>/dev/null)
		t=$((t + ${v:-0}))
	done
	echo "$t"
}

# holding: the holder (cm_loop -W) says it holds them all
holding() { grep -q '^cm_loop: holding, waiting' "$work/hcli"; }

# held_or_gone PID: holding, or the holder has exited
# shellcheck disable=SC2317 # called through t_wait
held_or_gone() { holding || ! kill -0 "$1"; }

# write_lat SDEV CDEV PORT: perf's ib_write_lat of 8 bytes with the SYN
# delay perftest needs, in the idle cell (which runs without it)
write_lat() {
	t_syn_delay "$T_NS_A" "$T_IF_A" "$T_SYN_DELAY_MS"
	perf ib_write_lat 8 "$@"
	t_syn_delay "$T_NS_A" "$T_IF_A" 0
}

# idle HELD SDEV CDEV PORT: run ib_write_lat alone (on PORT + 2), then hold
# HELD idle connections (cm_loop -H -W, on PORT + 1), measure the kernel
# memory they cost, run ib_write_lat beside them on PORT, then close them;
# prints "ok USEC KIB SLAB_KIB ALONE" (KiB per held connection, both ends;
# ALONE: the usec alone, "-" when perftest could not time that run, "x"
# when it failed), "clock - KIB SLAB_KIB ALONE" (perftest could not time
# its run beside them) or "fail"
idle() {
	local held=$1 sdev=$2 cdev=$3 port=$4 hport=$(($4 + 1)) aport=$(($4 + 2))
	local spid cpid m0 m1 r1 res ok=1 alone
	# the memory baseline comes before the run alone, where it was
	# before that run was added: the KiB per connection compare with
	# earlier benches
	read -r -a m0 <<<"$(meminfo)"
	alone=$(write_lat "$sdev" "$cdev" "$aport")
	case $alone in
	ok*) read -r _ alone _ <<<"$alone" ;;
	clock) alone=- ;;
	*) alone=x ;;
	esac
	ip netns exec "$T_NS_B" "$T_PROGS/cm_loop" -s -a "$T_IP_B" -p "$hport" -n 0 -t 30 >"$work/hsrv" 2>&1 &
	spid=$!
	t_wait 10 t_listen_ready "$T_NS_B" "$hport" "$sdev"
	ip netns exec "$T_NS_A" timeout $((300 + held / 2)) "$T_PROGS/cm_loop" -c -a "$T_IP_B" -p "$hport" \
		-n 0 -t 30 -H "$held" -W >"$work/hcli" 2>&1 &
	cpid=$!
	# the client's pid is timeout's; cm_loop is its child.  The held
	# connections are made without the SYN delay, perftest's with it
	t_wait $((240 + held / 2)) held_or_gone "$cpid" || ok=0
	holding || ok=0
	if [ "$ok" = 1 ]; then
		# shellcheck disable=SC2046 # one pid per word
		r1=$(rss "$spid" $(pgrep -P "$cpid"))
		read -r -a m1 <<<"$(meminfo)"
		res=$(write_lat "$sdev" "$cdev" "$port")
	fi
	pkill -TERM -P "$cpid"
	wait "$cpid" || ok=0
	kill "$spid" 2>/dev/null
	wait "$spid"
	if [ "$ok" = 0 ]; then
		cat "$work/hcli" "$work/hsrv" >"$work/fail.idle.$held.$sdev.$cdev"
		echo fail
		return
	fi
	case $res in
	ok* | clock)
		read -r st v _ <<<"$res"
		awk -v st="$st" -v v="${v:--}" -v n="$held" -v u="$((m1[0] - m0[0] - r1))" \
			-v sl="$((m1[1] - m0[1]))" -v a="$alone" \
			'BEGIN { printf "%s %s %.1f %.1f %s\n", st, v, u / n, sl / n, a }'
		;;
	*) echo "$res" ;;
	esac
}

# median of the numbers on stdin (one per line); nothing when none
median() {
	sort -g | awk '{ v[NR] = $1 } END { if (NR) print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

cells="write_bw:65536 read_bw:65536 send_bw:65536 write_bw:4096 read_bw:4096 send_bw:4096 write_lat:8 send_lat:8 read_lat:8 rate:0 rate:$hold idle:$hold"
if [ -n "$only" ]; then
	want=" ${only//held/rate:$hold} "
	want=${want// idle / idle:$hold }
	picked=''
	for cell in $cells; do
		case $want in *" $cell "*) picked+=" $cell" ;; esac
	done
	[ -n "$picked" ] || die "--cells '$only' names no cell"
	cells=${picked# }
fi
declare -A V CPU KIB SLAB N F
clock_retries=0
port=19000
# One pair's devices at a time: two iWARP devices on one netdev both take
# a listener on a wildcard address, and the model's would take siw's SYNs.
# Each cell runs every pair in turn, each with fresh devices, so that a
# cell's ratios compare runs made minutes, not a whole bench, apart: this
# host's speed drifts.
links=''
# links_down: delete the devices link_add made
links_down() {
	local d
	for d in $links; do
		rdma link delete "$d" || out "bench: rdma link delete $d failed"
	done
	links=''
}
t_defer links_down
# link_add NS IF DEV STACK: device DEV of STACK (siw or irdma) on IF in NS
link_add() {
	t_in "$1" rdma link add "$3" type "${4/irdma/irdma_sim}" netdev "$2" ||
		die "rdma link add $3 failed"
	links+=" $3"
}
for cell in $cells; do
	for pair in $pairs; do
		cstack=${pair%/*} sstack=${pair#*/}
		cdev=${cstack}0 sdev=${sstack}1
		t=${cell%:*} size=${cell#*:} key=$pair.$cell
		# siw as the MPA initiator of irdma runs MPA's client-server
		# mode (no RTR): the responder may not send first, and
		# ib_write_lat's server does
		if [ "$pair" = siw/irdma ] && [ "$t" = write_lat ]; then
			V[$key]=n/a
			continue
		fi
		if [ "$pair" = siw/irdma ] && [ "$t" = idle ]; then
			V[$key]=n/a KIB[$pair.mem:$size]=n/a SLAB[$pair.mem:$size]=n/a
			V[$pair.alone:$size]=n/a
			continue
		fi
		# perftest's client connects the moment it has the test's
		# parameters, maybe before its server listens (t_syn_delay)
		case $t in
		rate | idle) t_syn_delay "$T_NS_A" "$T_IF_A" 0 ;;
		*) t_syn_delay "$T_NS_A" "$T_IF_A" "$T_SYN_DELAY_MS" ;;
		esac || die "tc on $T_IF_A failed"
		link_add "$T_NS_A" "$T_IF_A" "$cdev" "$cstack"
		link_add "$T_NS_B" "$T_IF_B" "$sdev" "$sstack"
		: >"$work/vals"
		: >"$work/ticks"
		: >"$work/kib"
		: >"$work/slab"
		: >"$work/alone"
		for ((i = 1; i <= 5; i++)); do : >"$work/ph$i"; done
		F[$key]=0
		for ((r = 0; r < runs; r++)); do
			# a run perftest could not time is run again, and
			# with --retry-failed a failed one too (still
			# counted as failed)
			for ((try = 1; try <= tries; try++)); do
				# a port no earlier run used: no listener of
				# an earlier run can still be going away on it
				port=$((port + 1))
				case $t in
				rate) res=$(rate "$size" "$sdev" "$cdev" "$port") ;;
				idle)
					res=$(idle "$((size - 1))" "$sdev" "$cdev" "$port")
					port=$((port + 2))
					;;
				*) res=$(perf "ib_$t" "$size" "$sdev" "$cdev" "$port") ;;
				esac
				case ${res%% *} in
				fail)
					F[$key]=$((F[$key] + 1))
					[ "$retry_failed" = 1 ] || break
					;;
				clock) [ "$try" -eq "$tries" ] || clock_retries=$((clock_retries + 1)) ;;
				*) break ;;
				esac
			done
			case $t.$res in
			idle.ok* | idle.clock*)
				read -r st val kib slab alone <<<"$res"
				[ "$st" = clock ] || echo "$val" >>"$work/vals"
				echo "$kib" >>"$work/kib"
				echo "$slab" >>"$work/slab"
				echo "$alone" >>"$work/alone"
				;;
			rate.ok*)
				read -r -a ph <<<"$res"
				echo "${ph[1]}" >>"$work/vals"
				for ((i = 1; i <= 5 && i + 1 < ${#ph[@]}; i++)); do
					echo "${ph[i + 1]}" >>"$work/ph$i"
				done
				;;
			*.ok*)
				read -r _ val tk <<<"$res"
				echo "$val" >>"$work/vals"
				[ -z "$tk" ] || echo "$tk" >>"$work/ticks"
				;;
			esac
		done
		N[$key]=$(wc -l <"$work/vals")
		V[$key]=$(median <"$work/vals")
		# the idle cell's kernel KiB per connection held (and slab);
		# CPU ms per MB moved: median ticks over messages x size bytes
		# shellcheck disable=SC2034 # read through row's nameref
		case $t in
		rate)
			# the phases of a connection: V and N of "ph1:0".."ph5:0"
			for ((i = 1; i <= 5; i++)); do
				V[$pair.ph$i:$size]=$(median <"$work/ph$i")
				N[$pair.ph$i:$size]=$(wc -l <"$work/ph$i")
				F[$pair.ph$i:$size]=${F[$key]}
			done
			;;
		idle)
			KIB[$pair.mem:$size]=$(median <"$work/kib")
			SLAB[$pair.mem:$size]=$(median <"$work/slab")
			N[$pair.mem:$size]=$(wc -l <"$work/kib")
			F[$pair.mem:$size]=${F[$key]}
			# ib_write_lat alone before each run (see idle)
			V[$pair.alone:$size]=$(grep -vxE -- '[-x]' "$work/alone" | median)
			N[$pair.alone:$size]=$(grep -cvxE -- '[-x]' "$work/alone")
			F[$pair.alone:$size]=$((F[$key] + $(grep -cx x "$work/alone")))
			;;
		*_bw) CPU[$key]=$(median <"$work/ticks" | awk -v hz="$hz" -v n="$(msgs "$t" "$size")" -v s="$size" \
			'NF { printf "%.1f", $1 * 1000 / hz / (n * s / 1e6) }') ;;
		esac
		links_down
	done
done

# show VALUE REF N FAILED: "value (n/runs[, k failed]) ratio", "fail
# (0/runs)" when no run completed, "no time (0/runs)" when runs completed
# but perftest could not time any
show() {
	local v=$1 ref=$2 n=$3 failed=$4 note=''
	[ "$failed" -eq 0 ] || note=", $failed failed"
	case $v in
	n/a) printf 'n/a' ;;
	'')
		if [ "$failed" -gt 0 ]; then
			printf 'fail (0/%s%s)' "$runs" "$note"
		else
			printf 'no time (0/%s)' "$runs"
		fi
		;;
	*)
		printf '%s (%s/%s%s)' "$v" "$n" "$runs" "$note"
		awk -v v="$v" -v r="$ref" 'BEGIN { if (r + 0 > 0) printf " %.2fx", v / r }'
		;;
	esac
}

# row LABEL ARRAY CELL: one table row of ARRAY's (V or CPU) values of CELL
row() {
	local -n a=$2
	local line="| $1 |" p
	for p in $pairs; do
		line+=" $(show "${a[$p.$3]:-}" "${a[siw/siw.$3]:-}" "${N[$p.$3]:-0}" "${F[$p.$3]:-0}") |"
	done
	out "$line"
}

out "## iWARP benchmark, $(date -u +%Y-%m-%d), $(nproc) vCPUs under QEMU/TCG"
out ""
out "Runs per cell: $runs; perftest -R, $iters messages of 64 KiB or 8 B, $((iters * 16)) of 4 KiB, client SYNs delayed $T_SYN_DELAY_MS ms (perftest's listen race); connect rate: $conns serial connections."
out "siw is built with MPA CRC required.  Each cell: median (runs with a number/runs) and its ratio to siw/siw."
out ""
out "| test | ${pairs// / | } |"
out "|---|$(for p in $pairs; do printf -- '---|'; done)"
for cell in $cells; do
	t=${cell%:*} size=${cell#*:}
	case $t in
	*_bw) label="ib_$t $((size / 1024)) KiB, MB/s" ;;
	*_lat) label="ib_$t 8 B, typical usec" ;;
	rate) label="connect+disconnect/s, $size held" ;;
	idle) label="ib_write_lat 8 B beside $((size - 1)) idle held, typical usec" ;;
	esac
	row "$label" V "$cell"
	case $t in
	*_bw) row "ib_$t $((size / 1024)) KiB, CPU ms/MB" CPU "$cell" ;;
	rate)
		i=0
		for ph in "rdma_create_id() to ROUTE_RESOLVED" "rdma_create_qp()" \
			"rdma_connect() to ESTABLISHED" "rdma_disconnect() to DISCONNECTED" \
			"rdma_destroy_qp() and rdma_destroy_id()"; do
			i=$((i + 1))
			[ "$size" = 0 ] && row "of a connection: $ph, usec" V "ph$i:$size"
		done
		;;
	idle)
		row "ib_write_lat 8 B alone, just before each of those, typical usec" V "alone:$size"
		row "kernel KiB per idle connection held (both ends)" KIB "mem:$size"
		row "of which slab, KiB" SLAB "mem:$size"
		;;
	esac
done
# ratio_row LABEL CELL BASE: each pair's V of CELL over its V of BASE
ratio_row() {
	local line="| $1 |" p
	for p in $pairs; do
		line+=" $(awk -v h="${V[$p.$2]:-}" -v z="${V[$p.$3]:-}" 'BEGIN { if (h + 0 > 0 && z + 0 > 0) printf "%.2f", h / z; else printf "-" }') |"
	done
	out "$line"
}
ratio_row "latency beside idle / alone just before" "idle:$hold" "alone:$hold"
ratio_row "held rate / rate with none" "rate:$hold" rate:0
# what one doorbell costs here: siw rings with a system call, the model
# takes each store to its doorbell page in a page fault (tests/progs/db_trap)
out ""
links_down
link_add "$T_NS_A" "$T_IF_A" irdma0 irdma
if db=$("$T_PROGS/db_trap" -d irdma0 2>&1); then
	out "One doorbell on this CPU (tests/progs/db_trap): $db."
else
	out "One doorbell on this CPU: db_trap failed: $db"
fi
links_down
out ""
out "Bandwidth, rates: higher is better; latency, CPU: lower is better."
out "n/a: siw/irdma ib_write_lat (and the idle rows, which run it): siw starts MPA in client-server mode (no RTR), where the responder may not send first; ib_write_lat's server does."
out "Runs perftest could not time (TSC calibration under TCG), run again: $clock_retries."
fails=0
for k in "${!F[@]}"; do fails=$((fails + F[$k])); done
if [ "$fails" -gt 0 ]; then
	out ""
	out "Failed runs: $fails; the last failure of each cell:"
	for f in "$work"/fail.*; do
		out "  ${f##*/fail.}:"
		{
			head -n 1 "$f"
			grep -v '^ *\(local\|remote\) address\|^-*$' "$f" | tail -n 10
		} | sed 's/^/    /' >&3
	done
fi
exit 0
