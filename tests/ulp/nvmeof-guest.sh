#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# One guest of an NVMe-oF pair (tests/ulp/run.sh runs two of them,
# see tests/ulp/lib.sh): the target is the server, 198.51.100.1.
#
#   nvmeof-guest.sh server STACK     nvmet-rdma on STACK's device over a RAM
#                                    disk; serves the host's control
#                                    commands until it is done
#   nvmeof-guest.sh client STACK MB N  nvme-rdma on STACK's device: fio with
#                                    crc32c verify over MB MiB, N disconnect
#                                    and reconnect cycles, the target's port
#                                    removed mid-I/O and restored, an
#                                    irdma target's and an irdma host's
#                                    function reset (the model's debugfs
#                                    reset), the target's device deleted and
#                                    its modules unloaded while connected,
#                                    then a clean reconnect
#
# STACK is irdma (irdma_sim + irdma) or siw.  Prints PASS:/FAIL:/SKIP:
# lines named nvmeof/<pair>/<what>; "# " lines are diagnostics; the last
# check of each guest is its kernel log (no WARN, BUG, hung task, lockdep
# or refcount report).
set -u

role=$1 stack=$2
pair=${IRDMA_ULP_PAIR:-$stack}
# the server is NVMe's target, the client its host
case "$role" in server) P=nvmeof/$pair/target ;; *) P=nvmeof/$pair/host ;; esac
NQN=nqn.2026-11.org.example:irdma-test
CFG=/sys/kernel/config/nvmet
# shellcheck source=tests/ulp/lib.sh
. "$(dirname "$0")/lib.sh"

# ------------------------------------------------------------- target ---

port_add() {
	mkdir -p "$CFG/ports/1" &&
		echo rdma >"$CFG/ports/1/addr_trtype" &&
		echo ipv4 >"$CFG/ports/1/addr_adrfam" &&
		echo "$SRV4" >"$CFG/ports/1/addr_traddr" &&
		echo 4420 >"$CFG/ports/1/addr_trsvcid" &&
		ln -s "$CFG/subsystems/$NQN" "$CFG/ports/1/subsystems/$NQN"
}

port_remove() {
	rm -f "$CFG/ports/1/subsystems/$NQN" && rmdir "$CFG/ports/1"
}

server_setup() {
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

target_main() {
	ulp_server_start "nvmet configuration failed" || return 1
	# what the host may ask for (run by ulp_server_run)
	# shellcheck disable=SC2317
	ctl_remove_port() { port_remove; }
	# shellcheck disable=SC2317
	ctl_add_port() { port_add; }
	# the device goes with nvmet's queues on it, then comes back
	# shellcheck disable=SC2317
	ctl_link_delete() { rdma_down; }
	# shellcheck disable=SC2317
	ctl_link_add() {
		rdma_up && { port_remove 2>/dev/null; port_add; }
	}
	# the target's RDMA function is reset (ice's PF reset): nvmet loses
	# its queues and its listener with the old device, and listens again
	# when the port is set up anew
	# shellcheck disable=SC2317
	ctl_reset_function() {
		rdma_reset pfr && { port_remove 2>/dev/null; port_add; }
	}
	# the actions run in a child bash
	export CFG NQN
	ulp_server_run
	target_teardown
	ulp_unload
	dmesg_check
}

# --------------------------------------------------------------- host ---

# the namespace's block device (not a per-path node nvmeXcYnZ), or nothing
# blk_writes: writes completed on the NVMe block devices so far (the
# paths' own devices count them: a multipath head may not)
blk_writes() {
	cat /sys/block/nvme*/stat 2>/dev/null | awk '{ n += $5 } END { print n + 0 }'
}

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
	# keep-alive: NVMe's 5 s default is tight for two emulated (TCG)
	# guests under fio; a host whose keep-alive was late once in four runs
	# then hung in its I/O, which is not understood yet (fio's timeout
	# below turns such a hang into a failure)
	local i try mark
	for try in 1 2; do
		mark=$(dmesg | wc -l)
		nvme connect -t rdma -a "$SRV4" -s 4420 -n "$NQN" --keep-alive-tmo=30 \
			--reconnect-delay=1 --ctrl-loss-tmo=30 >/dev/null 2>&1 && break
		# siw binds the local port rdma_cm chose for the id, and its
		# connect fails with EADDRNOTAVAIL when that 4-tuple is still in
		# TIME_WAIT from one of this host's earlier connections: siw's own
		# doing, before a frame leaves (cm_loop retries it too).  Once
		# more, and said.
		if [ "$stack" = siw ] && [ "$try" = 1 ] &&
			dmesg | tail -n +"$((mark + 1))" | grep -q 'rdma_connect_locked failed (-99)'; then
			log "connect retried: siw's local port met its own TIME_WAIT (-99)"
			continue
		fi
		return 1
	done
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
	out=$(timeout 600 fio --name="$name" --filename="$(nvme_dev)" --ioengine=libaio \
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

# port_loss: the target's port goes for 3 s
port_loss() {
	ctl remove-port || return 1
	sleep 3
	ctl add-port
}

# io_across NAME CMD: a verified time-based write job, and CMD (which must
# succeed) once it runs; the job must end well
io_across() {
	local name=$1 cmd=$2 dev w0 i fpid
	dev=$(nvme_dev)
	w0=$(blk_writes)
	timeout 300 fio --name="$name" --filename="$dev" --ioengine=libaio \
		--direct=1 --rw=randwrite --bs=4k --iodepth=8 --size=16M \
		--time_based --runtime=20 --verify=crc32c --verify_fatal=1 \
		--verify_backlog=256 >"/tmp/$name.out" 2>&1 &
	fpid=$!
	for i in $(seq 100); do
		[ "$(blk_writes)" -gt $((w0 + 64)) ] && break
		sleep 0.2
	done
	if [ "$i" -lt 100 ]; then
		pass "$name-io-started"
	else
		fail "$name-io-started" "no write reached the device in 20 s"
	fi
	if $cmd; then
		pass "$name"
	else
		fail "$name" "'$cmd' failed"
	fi
	if wait "$fpid"; then
		pass "$name-io-resumes"
	else
		tail -15 "/tmp/$name.out" | sed "s|^|# $P: |"
		fail "$name-io-resumes" "fio failed across $name"
	fi
}

# host_reset: this host's function is reset with a controller on it; its
# I/O ends (an error, not a hang), the controller goes, and a connection
# over the new device carries verified I/O
host_reset() {
	local dev rc=0 i
	dev=$(nvme_dev)
	timeout 120 dd if="$dev" of=/dev/null bs=4k count=262144 iflag=direct \
		>/dev/null 2>&1 &
	local dpid=$!
	if rdma_reset pfr; then
		pass host-reset
	else
		fail host-reset "irdma0 did not come back after its reset"
	fi
	wait "$dpid" || rc=$?
	if [ "$rc" -lt 124 ]; then
		pass host-reset-io-ends
	else
		fail host-reset-io-ends "a read on the reset device hung for 120 s"
	fi
	for i in $(seq 300); do
		nvme_dev >/dev/null || break
		sleep 0.1
	done
	if nvme_dev >/dev/null; then
		fail host-reset-ctrl-gone "the controller on the old device is still there after 30 s"
		nvme disconnect -n "$NQN" >/dev/null 2>&1
	else
		pass host-reset-ctrl-gone
	fi
	if connect; then
		pass host-reset-reconnect
		run_fio after-host-reset --rw=randrw --bs=4k --iodepth=8 --size=8M
	else
		fail host-reset-reconnect "no connection over the new device"
	fi
}

host_main() {
	local mb=$1 cycles=$2 i ok dev
	if ! rdma_up || ! modprobe nvme-rdma; then
		fail rdma "cannot bring up $stack on peer0, or nvme-rdma"
		return 1
	fi
	ulp_wait_server || return 1
	if connect; then
		pass connect
	else
		fail connect "nvme connect -t rdma failed"
		ulp_client_end
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

	# the target's port goes away under I/O and comes back; what was
	# written is read back and checked as the run goes (verify_backlog:
	# a time-based write job never reaches fio's verify phase)
	if nvme_dev >/dev/null; then
		io_across port-loss port_loss
	fi
	# the target's RDMA function is reset under I/O: the host's queues
	# fail, it reconnects once the target listens again, and the I/O
	# goes on, verified
	if [ "${pair%%-*}" = irdma ] && nvme_dev >/dev/null; then
		io_across target-reset "ctl reset-function"
	fi
	# this host's own RDMA function is reset: nvme-rdma deletes the
	# controller on the device that went (I/O fails, nothing hangs), and
	# a new connection over the new device works
	if [ "$stack" = irdma ] && nvme_dev >/dev/null; then
		host_reset
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
	if [ $? -ge 124 ]; then
		fail io-after-target-loss "a read hung for 60 s after the target went"
	else
		pass io-after-target-loss
	fi
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
	ulp_client_end
	ulp_unload nvme-rdma
	dmesg_check
}

ulp_main target_main host_main "$@"
