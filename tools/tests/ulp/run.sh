#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# NVMe over RDMA between two guests (kernel ULPs bind in the initial network
# namespace, so each end is a VM of its own).  The two guests (1 vCPU, 2 GiB
# each) are joined only by a QEMU socket netdev on 127.0.0.1; the target
# (nvmet-rdma over a RAM disk) listens on 198.51.100.1, the host (nvme-rdma)
# is 198.51.100.2.  tools/tests/ulp/nvmeof-guest.sh is what each guest runs.
#
#   tools/tests/ulp/nvmeof.sh [PAIR...]
#
# PAIR is TARGET-HOST with each of irdma or siw; default: irdma-irdma
# irdma-siw siw-irdma, and siw-siw as the reference for the bandwidth.
# NVMEOF_MB (default 64) is the size fio writes and verifies, NVMEOF_CYCLES
# (default 20) the disconnect/reconnect cycles.  Prints the guests' PASS:/
# FAIL:/SKIP: lines and "# " diagnostics (fio's bandwidth per pair); a guest
# that dies or runs out of time is a FAIL.  Exit status 1 if anything failed.
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../../.." && pwd)
run=$repo/tools/vm/run.sh
guest=tools/tests/ulp/nvmeof-guest.sh
mb=${NVMEOF_MB:-64}
cycles=${NVMEOF_CYCLES:-20}
pairs=("$@")
[ "${#pairs[@]}" -gt 0 ] || pairs=(irdma-irdma irdma-siw siw-irdma siw-siw)

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
# results PAIR ROLE FILE RC: the guest's result lines, or why there are none
results() {
	local pair=$1 role=$2 f=$3 rc=$4
	grep -aE '^(PASS|FAIL|SKIP):|^# nvmeof/' "$f" | tr -d '\r'
	if grep -aq '^FAIL:' "$f"; then
		failed=1
	fi
	# a guest that died, ran out of time or said nothing
	if [ "$rc" -ge 124 ] || ! grep -aqE '^(PASS|FAIL|SKIP):' "$f"; then
		echo "FAIL: nvmeof/$pair/$role: the guest exited $rc"
		tail -n 25 "$f" | tr -d '\r' | sed 's/^/#   /'
		failed=1
	fi
}

for pair in "${pairs[@]}"; do
	ts=${pair%-*} hs=${pair#*-}
	case "$ts/$hs" in
	irdma/irdma | irdma/siw | siw/irdma | siw/siw) ;;
	*) echo "nvmeof.sh: bad pair '$pair' (TARGET-HOST of irdma, siw)" >&2; exit 2 ;;
	esac
	port=$((21000 + RANDOM % 2000))
	start=$SECONDS
	echo "# nvmeof: $pair: target $ts, host $hs, ${mb} MiB, $cycles reconnects"
	"$run" --mem 2048 --timeout 1200 --peer-socket "listen:$port" -- \
		env IRDMA_ULP_PAIR="$pair" "$guest" target "$ts" >"$out/t" 2>&1 &
	tpid=$!
	pids=("$tpid")
	# the listening QEMU must be up before the other connects
	sleep 3
	"$run" --mem 2048 --timeout 1100 --peer-socket "connect:$port" -- \
		env IRDMA_ULP_PAIR="$pair" "$guest" host "$hs" "$mb" "$cycles" >"$out/h" 2>&1 &
	hpid=$!
	pids+=("$hpid")
	wait "$hpid"
	hrc=$?
	# the host tells the target when it is done; a host that died cannot
	for _ in $(seq 90); do
		kill -0 "$tpid" 2>/dev/null || break
		sleep 1
	done
	kill "$tpid" 2>/dev/null
	wait "$tpid"
	trc=$?
	pids=()
	results "$pair" target "$out/t" "$trc"
	results "$pair" host "$out/h" "$hrc"
	echo "# nvmeof: $pair: $((SECONDS - start)) s"
done
exit "$failed"
