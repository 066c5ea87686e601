#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# "make demo": boot the test VM and show irdma (on the irdma_sim model) next
# to soft-iWARP, each on one end of a veth pair between two network
# namespaces:
#
#   netns a: va 192.0.2.1  irdma0 (type irdma_sim)
#   netns b: vb 192.0.2.2  siw0   (type siw)
#
# The demo is a list of scenes, each a function scene_NAME run in order
# (SCENES below); each step inside a scene prints a heading, the command
# and its output, runs under a timeout, and a failed step is reported and
# the demo goes on.  The end is a summary of the failed steps; the exit
# status is 1 if any failed.  To extend the demo, add a scene_* function
# and its name to SCENES.
#
#   tools/demo.sh [SCENE...]     default: all scenes
#
# Inside the VM the same script runs with --guest.
# shellcheck disable=SC2317 # the scenes are called as "scene_$name"
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/.." && pwd)
SCENES=(hosts modules links devices rping)

if [ "${1:-}" != --guest ]; then
	"$here/siw.sh" >/dev/null || { echo "demo: cannot build siw.ko (tools/siw.sh)" >&2; exit 1; }
	for m in irdma.ko sim/irdma_sim.ko; do
		[ -f "$repo/$m" ] || echo "demo: warning: $m is not built (make modules): the irdma part will fail" >&2
	done
	exec "$here/vm/run.sh" --timeout 600 -- "$here/demo.sh" --guest "$@"
fi
shift
[ "$#" -eq 0 ] || SCENES=("$@")

# shellcheck source=tests/lib.sh
. "$repo/tests/lib.sh"

failed=()
heading() { printf '\n==== %s ====\n' "$*"; }

# shown CMD...: the command line as one would type it
shown() {
	local a out=
	for a in "$@"; do
		case "$a" in
		*[!A-Za-z0-9_./:=@%+,-]* | '') out+=" '$a'" ;;
		*) out+=" $a" ;;
		esac
	done
	echo "${out# }"
}

# step TITLE CMD...: show and run CMD (30 s at most); note a failure.  A
# function of tests/lib.sh runs directly (its own waits are bounded).
step() {
	local title=$1 rc=0
	shift
	printf '\n--- %s\n$ %s\n' "$title" "$(shown "$@")"
	if declare -F "$1" >/dev/null; then
		"$@" 2>&1 || rc=$?
	else
		timeout -k 5 30 "$@" 2>&1 || rc=$?
	fi
	if [ "$rc" -ne 0 ]; then
		[ "$rc" -ne 124 ] || echo "(timed out after 30 s)"
		echo "!!! FAILED (exit $rc): $title"
		failed+=("$title")
	fi
	return "$rc"
}

scene_hosts() {
	heading "Two test hosts: netns a and b, veth va <-> vb"
	step "create netns a/b and the veth pair" t_hosts_up
	step "netns a" ip -n "$T_NS_A" -br addr show
	step "netns b" ip -n "$T_NS_B" -br addr show
	step "b reaches a" ip netns exec "$T_NS_B" ping -c 1 -W 2 "$T_IP_A"
}

scene_modules() {
	heading "Modules: ours from updates/, siw built from linux-source-6.1"
	step "irdma is this repo's build" modinfo -n irdma
	step "irdma_sim is this repo's build" modinfo -n irdma_sim
	step "siw (out of tree)" modinfo -n siw
	step "load siw" modprobe siw
}

scene_links() {
	heading "RDMA links: irdma0 on va (netns a), siw0 on vb (netns b)"
	step "rdma link add irdma0 (loads irdma_sim and irdma)" \
		ip netns exec "$T_NS_A" rdma link add irdma0 type irdma_sim netdev "$T_IF_A"
	step "rdma link add siw0" \
		ip netns exec "$T_NS_B" rdma link add siw0 type siw netdev "$T_IF_B"
	step "loaded modules" lsmod
	step "auxiliary devices" ls /sys/bus/auxiliary/devices/
	# shared: every RDMA device is visible in every netns; a port's netdev
	# is named only in the netdev's own netns
	step "rdma system (netns mode)" rdma system show
	step "rdma link (netns a)" ip netns exec "$T_NS_A" rdma link show
	step "rdma link (netns b)" ip netns exec "$T_NS_B" rdma link show
	step "rdma link (initial netns)" rdma link show
}

scene_devices() {
	heading "The devices through rdma and libibverbs"
	step "rdma dev" rdma dev show
	step "ibv_devices" ibv_devices
	step "ibv_devinfo -v -d irdma0" ibv_devinfo -v -d irdma0
	step "ibv_devinfo -v -d siw0" ibv_devinfo -v -d siw0
}

# demo_rping SDEV SNS SADDR PORT CDEV CNS OUT: an rping server on SDEV
# (netns SNS, SADDR:PORT) in the background, output to OUT; a client on
# CDEV in CNS, 5 pings with the data verified; then the server's output
demo_rping() {
	local sdev=$1 sns=$2 saddr=$3 port=$4 cdev=$5 cns=$6 out=$7 srv_pid
	echo
	echo "--- server on $sdev ($saddr:$port), in the background"
	shown ip netns exec "$sns" rping -s -a "$saddr" -p "$port" -C 5 -v
	ip netns exec "$sns" timeout 30 rping -s -a "$saddr" -p "$port" -C 5 -v >"$out" 2>&1 &
	srv_pid=$!
	step "the $sdev server listens (rdma res show cm_id)" t_wait 20 t_rdma_listening "$port"
	step "$cdev is the client: 5 pings, data verified" \
		ip netns exec "$cns" rping -c -a "$saddr" -p "$port" -C 5 -v -V
	wait "$srv_pid"
	echo "--- what the $sdev server printed"
	cat "$out"
}

# iWARP traffic against a real peer: rping (Send/Recv, RDMA Read and
# Write, verified data) between irdma0 and soft-iWARP, each side once as
# the client.  irdma's CM sets the connection up over the model's ILQ
# (TCP handshake, MPA v2) and hands it to the model's TCP offload; a
# capture on vb shows the MPA exchange and the FPDUs that follow.
scene_rping() {
	local work cap cap_pid
	heading "rping between irdma0 and siw0: iWARP through irdma's CM and the model's QP engine"
	step "load the rdma_cm user interface" modprobe rdma_ucm
	work=$(mktemp -d /var/tmp/demo.XXXXXX)
	cap=$work/vb.pcap
	if command -v dumpcap >/dev/null; then
		ip netns exec "$T_NS_B" dumpcap -q -i "$T_IF_B" -f tcp -w "$cap" >/dev/null 2>&1 &
		cap_pid=$!
		t_wait 20 test -s "$cap"
	fi

	demo_rping irdma0 "$T_NS_A" "$T_IP_A" 7201 siw0 "$T_NS_B" "$work/srv1"
	demo_rping siw0 "$T_NS_B" "$T_IP_B" 7202 irdma0 "$T_NS_A" "$work/srv2"

	if [ -n "${cap_pid:-}" ]; then
		sleep 1
		kill -INT "$cap_pid" 2>/dev/null
		wait "$cap_pid"
		# (not port 7000: tshark gives it to the Gryphon dissector)
		step "the first connection on the wire (tshark: TCP, MPA, DDP/RDMAP)" \
			bash -c "tshark -r '$cap' -Y 'tcp.port == 7201' 2>/dev/null | head -n 30"
		step "the MPA request (siw0) and reply (irdma0), decoded" \
			bash -c "tshark -r '$cap' -Y 'tcp.port == 7201 && iwarp_mpa && !iwarp_ddp' -O iwarp_mpa 2>/dev/null | grep -v '^ *\\[' | head -n 60"
	fi
	rm -rf "$work"
}

for s in "${SCENES[@]}"; do
	if declare -F "scene_$s" >/dev/null; then
		"scene_$s"
	else
		echo "demo: no scene '$s' (scenes: ${SCENES[*]})"
		failed+=("scene $s")
	fi
done

heading "Summary"
if [ "${#failed[@]}" -eq 0 ]; then
	echo "every step succeeded"
	exit 0
fi
echo "${#failed[@]} step(s) failed:"
printf '  - %s\n' "${failed[@]}"
exit 1
