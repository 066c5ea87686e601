#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# One guest of an NVMe-oF pair (tools/tests/ulp/nvmeof.sh runs two of them
# joined by a QEMU socket link, "peer0": 198.51.100.1 listens, .2 connects).
#
#   nvmeof-guest.sh target STACK     nvmet-rdma on STACK's device over a RAM
#                                    disk; serves control commands of the
#                                    host on TCP port 5000 until "done"
#   nvmeof-guest.sh host STACK MB N  nvme-rdma on STACK's device: fio with
#                                    crc32c verify over MB MiB, N disconnect
#                                    and reconnect cycles, the target's port
#                                    removed mid-I/O and restored, the
#                                    target's device deleted and its modules
#                                    unloaded while connected, then a clean
#                                    reconnect
#
# STACK is irdma (irdma_sim + irdma) or siw.  Prints PASS:/FAIL:/SKIP:
# lines named nvmeof/<pair>/<what>; "# " lines are diagnostics; the last
# check of each guest is its kernel log (no WARN, BUG, hung task, lockdep
# or refcount report).
set -u

role=$1 stack=$2
pair=${IRDMA_ULP_PAIR:-$stack}
P=nvmeof/$pair/$role
T4=198.51.100.1
NQN=nqn.2026-11.org.example:irdma-test
CTL_PORT=5000
CFG=/sys/kernel/config/nvmet

failed=0
pass() { echo "PASS: $P/$1"; }
fail() { echo "FAIL: $P/$1: $2"; failed=1; }
skip() { echo "SKIP: $P/$1: $2"; }
log() { echo "# $P: $*"; }

dmesg_check() {
	local bad
	# what the kernel said, for a failure's diagnosis
	[ "$failed" = 0 ] || dmesg | tail -n 25 | sed "s|^|# $P: dmesg: |"
	bad=$(dmesg | grep -E 'WARNING:|BUG:|kernel BUG|Oops|INFO: task .* blocked|refcount_t:|possible circular locking|general protection' | head -5)
	if [ -z "$bad" ]; then
		pass dmesg
	else
		echo "$bad" | sed "s|^|# $P: |"
		fail dmesg "kernel reports in the log"
	fi
}

# the RDMA device of this guest on peer0
rdma_up() {
	case "$stack" in
	irdma) modprobe irdma_sim && rdma link add irdma0 type irdma_sim netdev peer0 ;;
	siw) modprobe siw && rdma link add siw0 type siw netdev peer0 ;;
	*) return 1 ;;
	esac
}

rdma_down() {
	case "$stack" in
	irdma) rdma link delete irdma0 && modprobe -r irdma_sim irdma ;;
	siw) rdma link delete siw0 && modprobe -r siw ;;
	esac
}

# ------------------------------------------------------------- target ---

port_add() {
	mkdir -p "$CFG/ports/1" &&
		echo rdma >"$CFG/ports/1/addr_trtype" &&
		echo ipv4 >"$CFG/ports/1/addr_adrfam" &&
		echo "$T4" >"$CFG/ports/1/addr_traddr" &&
		echo 4420 >"$CFG/ports/1/addr_trsvcid" &&
		ln -s "$CFG/subsystems/$NQN" "$CFG/ports/1/subsystems/$NQN"
}

port_remove() {
	rm -f "$CFG/ports/1/subsystems/$NQN" && rmdir "$CFG/ports/1"
}

target_setup() {
	# configfs is a module in Debian's kernel: the VM's init cannot mount it
	modprobe configfs &&
		{ mountpoint -q /sys/kernel/config ||
			mount -t configfs configfs /sys/kernel/config; } &&
		modprobe brd rd_nr=1 rd_size=$((160 * 1024)) rd_partitions=0 &&
		modprobe nvmet-rdma &&
		mkdir "$CFG/subsystems/$NQN" &&
		echo 1 >"$CFG/subsystems/$NQN/attr_allow_any_host" &&
		mkdir "$CFG/subsystems/$NQN/namespaces/1" &&
		echo /dev/ram0 >"$CFG/subsystems/$NQN/namespaces/1/device_path" &&
		echo 1 >"$CFG/subsystems/$NQN/namespaces/1/enable" &&
		port_add
}

target_teardown() {
	port_remove 2>/dev/null
	rmdir "$CFG/subsystems/$NQN/namespaces/1" 2>/dev/null
	rmdir "$CFG/subsystems/$NQN" 2>/dev/null
	modprobe -r nvmet-rdma nvmet 2>/dev/null
}

# serve the host's commands, one a connection: a line in, "ok"/"err" out
target_serve() {
	python3 -u - "$CTL_PORT" <<'PY'
import socket, subprocess, sys
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(('0.0.0.0', int(sys.argv[1])))
s.listen(1)
s.settimeout(900)
while True:
    try:
        c, _ = s.accept()
    except socket.timeout:
        print('CTL timeout')
        break
    cmd = c.makefile().readline().strip()
    if cmd.startswith('done'):
        c.sendall(b'ok\n')
        c.close()
        print('CTL ' + cmd)
        break
    rc = subprocess.call(['bash', '-c', 'ctl_' + cmd.replace('-', '_')])
    c.sendall(b'ok\n' if rc == 0 else b'err\n')
    c.close()
    print('CTL %s -> %d' % (cmd, rc))
PY
}

target_main() {
	if ! rdma_up; then
		fail rdma "cannot bring up $stack on peer0"
		return 1
	fi
	if target_setup; then
		pass setup
	else
		fail setup "nvmet configuration failed"
		return 1
	fi
	# what the host may ask for (run by the server in a child bash)
	export -f port_add port_remove rdma_up rdma_down target_setup target_teardown
	export CFG NQN T4 stack
	ctl_ping() { :; }
	ctl_remove_port() { port_remove; }
	ctl_add_port() { port_add; }
	# the device goes with nvmet's queues on it, then comes back
	ctl_link_delete() { rdma_down; }
	ctl_link_add() {
		rdma_up && { port_remove 2>/dev/null; port_add; }
	}
	export -f ctl_ping ctl_remove_port ctl_add_port ctl_link_delete ctl_link_add
	target_serve >/tmp/ctl.log
	sed "s|^|# $P: |" /tmp/ctl.log
	# the host failed somewhere: show this side's kernel log too
	grep -q '^CTL done-failed' /tmp/ctl.log && failed=1
	target_teardown
	rdma_down
	dmesg_check
}

# --------------------------------------------------------------- host ---

ctl() {
	local reply
	reply=$(timeout 60 python3 - "$1" "$T4" "$CTL_PORT" 2>/dev/null <<'PY'
import socket, sys
c = socket.create_connection((sys.argv[2], int(sys.argv[3])), timeout=55)
c.sendall((sys.argv[1] + '\n').encode())
print(c.makefile().readline().strip())
PY
)
	[ "$reply" = ok ]
}

# the namespace's block device (not a per-path node nvmeXcYnZ), or nothing
nvme_dev() {
	local b
	for b in /sys/block/nvme*n*; do
		case "${b##*/}" in *c*n*) continue ;; esac
		[ "$(cat "$b/device/subsysnqn" 2>/dev/null)" = "$NQN" ] || continue
		echo "/dev/${b##*/}"
		return 0
	done
	return 1
}

connect() {
	nvme connect -t rdma -a "$T4" -s 4420 -n "$NQN" \
		--reconnect-delay=1 --ctrl-loss-tmo=30 >/dev/null 2>&1 || return 1
	local i
	for i in $(seq 100); do
		nvme_dev >/dev/null && return 0
		sleep 0.1
	done
	return 1
}

# fio NAME ARGS...: a verified run; logs the bandwidth
run_fio() {
	local name=$1 out
	shift
	out=$(fio --name="$name" --filename="$(nvme_dev)" --ioengine=libaio \
		--direct=1 --verify=crc32c --verify_fatal=1 --do_verify=1 \
		--output-format=normal "$@" 2>&1)
	local rc=$?
	echo "$out" | grep -E '^ *(READ|WRITE):' | sed "s|^ *|# $P: $name: |"
	if [ "$rc" -eq 0 ] && ! echo "$out" | grep -qE 'verify:|bad magic|crc32c.*mismatch'; then
		pass "fio-$name"
	else
		echo "$out" | tail -15 | sed "s|^|# $P: |"
		fail "fio-$name" "fio exited $rc"
	fi
}

host_main() {
	local mb=$1 cycles=$2 i ok dev
	if ! rdma_up || ! modprobe nvme-rdma; then
		fail rdma "cannot bring up $stack on peer0, or nvme-rdma"
		return 1
	fi
	for i in $(seq 120); do
		ctl ping && break
		sleep 1
	done
	if ! ctl ping; then
		fail target "the target does not answer"
		return 1
	fi
	if connect; then
		pass connect
	else
		fail connect "nvme connect -t rdma failed"
		ctl done-failed
		dmesg_check
		return 1
	fi
	dev=$(nvme_dev)
	log "connected: $dev"

	run_fio randwrite-4k --rw=randwrite --bs=4k --iodepth=16 --size="${mb}M"
	run_fio seqwrite-128k --rw=write --bs=128k --iodepth=8 --size="${mb}M"
	# what the sequential job wrote, read back and checked once more
	run_fio seqread-128k --rw=write --bs=128k --iodepth=8 --size="${mb}M" \
		--verify_only=1

	# disconnect and reconnect
	ok=0
	for i in $(seq "$cycles"); do
		nvme disconnect -n "$NQN" >/dev/null 2>&1 || break
		connect || break
		ok=$i
	done
	if [ "$ok" = "$cycles" ]; then
		pass "reconnect-$cycles"
	else
		fail "reconnect-$cycles" "cycle $((ok + 1)) failed"
	fi

	# the target's port goes away under I/O and comes back
	if nvme_dev >/dev/null; then
		fio --name=portloss --filename="$(nvme_dev)" --ioengine=libaio \
			--direct=1 --rw=randwrite --bs=4k --iodepth=8 --size=16M \
			--time_based --runtime=20 --verify=crc32c --verify_fatal=1 \
			>/tmp/portloss.out 2>&1 &
		local fpid=$!
		sleep 4
		if ctl remove-port; then
			sleep 3
			ctl add-port || fail port-restore "cannot restore the port"
		else
			fail port-remove "cannot remove the port"
		fi
		if wait "$fpid"; then
			pass port-loss-io-resumes
		else
			tail -15 /tmp/portloss.out | sed "s|^|# $P: |"
			fail port-loss-io-resumes "fio failed across the port loss"
		fi
	fi

	# the target's device and modules go while we are connected
	if ctl link-delete; then
		pass target-link-delete
	else
		fail target-link-delete "rdma link delete / rmmod on the target failed"
	fi
	# I/O now fails or waits for the controller; it must not hang
	timeout 60 dd if="$(nvme_dev 2>/dev/null || echo /dev/null)" of=/dev/null \
		bs=4k count=16 iflag=direct >/dev/null 2>&1
	if timeout 90 nvme disconnect -n "$NQN" >/dev/null 2>&1 || ! nvme_dev >/dev/null; then
		pass disconnect-after-target-loss
	else
		fail disconnect-after-target-loss "nvme disconnect did not finish"
	fi
	# nvmet listens again once it sees the device come back
	ok=0
	if ctl link-add; then
		for i in $(seq 15); do
			connect && { ok=1; break; }
			sleep 2
		done
	fi
	if [ "$ok" = 1 ]; then
		pass reconnect-after-reload
		run_fio after-reload --rw=randrw --bs=4k --iodepth=8 --size=8M
		nvme disconnect -n "$NQN" >/dev/null 2>&1
	else
		fail reconnect-after-reload "no connection after the target reloaded"
	fi
	if [ "$failed" = 0 ]; then ctl "done"; else ctl done-failed; fi
	modprobe -r nvme-rdma 2>/dev/null
	if rdma_down; then
		pass unload
	else
		fail unload "cannot delete the device or unload $stack"
	fi
	dmesg_check
}

case "$role" in
target) target_main ;;
host) host_main "${3:-64}" "${4:-20}" ;;
*) echo "usage: $0 target|host STACK [MB CYCLES]" >&2; exit 2 ;;
esac
