#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Kernel storage ULPs over RDMA between two guests (kernel ULPs bind in the
# initial network namespace, so each end is a VM of its own).  The two
# guests (1 vCPU, 2 GiB each) are joined only by a QEMU socket netdev on
# 127.0.0.1; the server listens on 198.51.100.1, the client is
# 198.51.100.2.  tests/ulp/ULP-guest.sh is what each guest runs
# (tests/ulp/lib.sh: the client drives, the server obeys).
#
#   tests/ulp/run.sh [ULP[/PAIR]...]
#
# ULP is nvmeof (nvmet-rdma and nvme-rdma), nfs (nfsd and the NFS client
# over RDMA), iser (LIO's iSER target and open-iscsi's iser transport) or
# iwpm (rping with the iWARP port mapper daemon, iwpmd, in both guests:
# running, stopped, restarted).  PAIR is SERVER-CLIENT with each of irdma
# or siw.  Without a pair: NVMe-oF runs irdma-irdma, irdma-siw and
# siw-irdma, NFS runs an irdma server with an irdma and a siw client, iSER
# runs irdma-irdma, iwpm boots one pair and runs irdma-irdma, irdma-siw
# and siw-irdma in it (its guests switch devices).  Default: all of that.
# siw-siw, which runs none of this project's code (the reference for the
# bandwidth), runs only when named (nvmeof/siw-siw).  ULP_MB (default 16) is the size
# written and verified, ULP_CYCLES the disconnect/reconnect (mount, login)
# cycles (default 5 for NVMe-oF, 3 for the others).  The defaults keep
# "make check" inside its time budget: at 64 MiB and 20 cycles an NVMe-oF
# pair took 395 s, about 180 s of it fio; at 32 MiB and 10 cycles, 150 s
# from a cold cache.  The long run is by hand: ULP_MB=64 ULP_CYCLES=20.
# ULP_KEEP=DIR keeps each guest's
# whole console output there (ULP-PAIR-server.log, ULP-PAIR-client.log);
# ULP_APPEND adds to both guests' kernel command line (e.g. "loglevel=7").
# Both guests boot with slab and page poisoning (the Debian kernel has no
# KASAN).  Prints the guests' PASS:/FAIL:/SKIP: lines and "# " diagnostics (the
# bandwidth per pair); a guest that dies, runs out of time, says nothing
# or exits non-zero without a FAIL line is a FAIL.
# Exit status 1 if anything failed.
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
run=$repo/tools/vm/run.sh
# slab and page poisoning, as in the VM suite (tools/vm/tests.sh)
poison='slub_debug=FZP page_poison=1'
[ -z "${ULP_APPEND:-}" ] || poison+=" $ULP_APPEND"
mb=${ULP_MB:-16}
jobs=()
[ $# -gt 0 ] || set -- nvmeof nfs iser iwpm
for u in "$@"; do
	case "$u" in
	*/*) jobs+=("$u") ;;
	nvmeof) jobs+=(nvmeof/irdma-irdma nvmeof/irdma-siw nvmeof/siw-irdma) ;;
	iwpm) jobs+=(iwpm/irdma-irdma) ;;
	nfs) jobs+=(nfs/irdma-irdma nfs/irdma-siw) ;;
	iser) jobs+=(iser/irdma-irdma) ;;
	*) jobs+=("$u/irdma-irdma") ;;
	esac
done

out=$(mktemp -d)
pids=()
# shellcheck disable=SC2317 # called by the traps
stop() {
	local p
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
	rm -rf "$out"
}
trap stop EXIT
trap 'exit 130' INT TERM

failed=0
# results PAIR ROLE FILE RC: the guest's result lines, and a FAIL when the
# guest did not end as it should: it died or ran out of time (RC >= 124),
# said nothing, or exited non-zero without a FAIL line saying why (a
# script that stopped half-way: its remaining checks never ran)
results() {
	local pair=$1 role=$2 f=$3 rc=$4 why=
	grep -aE '^(PASS|FAIL|SKIP):|^# (nvmeof|nfs|iser|iwpm)/' "$f" | tr -d '\r'
	if grep -aq '^FAIL:' "$f"; then
		failed=1
	fi
	if [ "$rc" -ge 124 ]; then
		why="the guest exited $rc (killed, timed out or died)"
	elif ! grep -aqE '^(PASS|FAIL|SKIP):' "$f"; then
		why="the guest exited $rc with no result"
	elif [ "$rc" -ne 0 ] && ! grep -aq '^FAIL:' "$f"; then
		why="the guest exited $rc without a FAIL line"
	fi
	if [ -n "$why" ]; then
		echo "FAIL: $pair/$role: $why"
		tail -n 25 "$f" | tr -d '\r' | sed 's/^/#   /'
		failed=1
	fi
	[ -n "$why" ] || grep -aqE '^FAIL:' "$f" || return 0
	# "#! " lines: make check repeats them at its end, where a log cut
	# in the middle still shows them
	evidence "$pair/$role" "$f"
}

# evidence WHO FILE: the kernel's complaints and the last words of a guest
# whose part failed, in a few lines
evidence() {
	local who=$1 f=$2
	{
		grep -aE '\] (nvmet|nvme|nvme_rdma|nvmet_rdma|rpcrdma|svcrdma|iscsi|iser|isert|irdma|siw|iwpm[a-z_]*|INFO: task|Out of memory|watchdog|rcu:)' "$f" |
			tail -n 6
		# whether frames still came in at the end (tests/ulp/lib.sh)
		grep -a 'link-watch:' "$f" | tail -n 2 | sed 's/^#~ [^ ]* //'
		# what each CPU ran when a hung guest was asked (tools/vm/run.sh)
		grep -aE 'NMI backtrace for cpu|CPU: [0-9]+ PID: [0-9]+ Comm:|RIP: 0010:' "$f" |
			tail -n 6
		grep -avE '^(PASS|SKIP):|link-watch:' "$f" | grep -av '^\[' | tail -n 4
	} | tr -d '\r' | cut -c1-200 | sed "s|^|#! $who: |"
}

for job in "${jobs[@]}"; do
	ulp=${job%%/*} pair=${job#*/}
	ss=${pair%-*} cs=${pair#*-}
	guest=tests/ulp/$ulp-guest.sh
	if [ ! -x "$repo/$guest" ]; then
		echo "run.sh: no test '$ulp' ($guest)" >&2
		exit 2
	fi
	case "$ss/$cs" in
	irdma/irdma | irdma/siw | siw/irdma | siw/siw) ;;
	*) echo "run.sh: bad pair '$pair' (SERVER-CLIENT of irdma, siw)" >&2; exit 2 ;;
	esac
	cycles=${ULP_CYCLES:-3}
	[ "$ulp" != nvmeof ] || cycles=${ULP_CYCLES:-5}
	port=$((21000 + RANDOM % 2000))
	start=$SECONDS
	echo "# $ulp: $pair: server $ss, client $cs, ${mb} MiB, $cycles cycles"
	"$run" --mem 2048 --timeout 1200 --append "$poison" --peer-socket "listen:$port" -- \
		env IRDMA_ULP_PAIR="$pair" "$guest" server "$ss" >"$out/s" 2>&1 &
	spid=$!
	pids=("$spid")
	# the listening QEMU must be up before the other connects
	sleep 3
	"$run" --mem 2048 --timeout 1100 --append "$poison" --peer-socket "connect:$port" -- \
		env IRDMA_ULP_PAIR="$pair" "$guest" client "$cs" "$mb" "$cycles" >"$out/c" 2>&1 &
	cpid=$!
	pids+=("$cpid")
	wait "$cpid"
	crc=$?
	# the client tells the server when it is done; a client that died cannot
	for _ in $(seq 90); do
		kill -0 "$spid" 2>/dev/null || break
		sleep 1
	done
	kill "$spid" 2>/dev/null
	wait "$spid"
	src=$?
	pids=()
	if [ -n "${ULP_KEEP:-}" ]; then
		mkdir -p "$ULP_KEEP" &&
			cp "$out/s" "$ULP_KEEP/$ulp-$pair-server.log" &&
			cp "$out/c" "$ULP_KEEP/$ulp-$pair-client.log"
	fi
	results "$ulp/$pair" server "$out/s" "$src"
	results "$ulp/$pair" client "$out/c" "$crc"
	echo "# $ulp: $pair: $((SECONDS - start)) s"
done
exit "$failed"
