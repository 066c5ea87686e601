#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# One guest of an iSER pair (tests/ulp/run.sh runs two of them, see
# tests/ulp/lib.sh).
#
#   iser-guest.sh server STACK       LIO (rtslib-fb) with an iSER portal on
#                                    STACK's device over a RAM disk
#   iser-guest.sh client STACK MB N  open-iscsi's iser transport on STACK's
#                                    device: log in, mkfs, write MB MiB,
#                                    remount, read back and compare, log
#                                    out; N more login/logout cycles
#
# STACK is irdma (irdma_sim + irdma) or siw.  Prints PASS:/FAIL:/SKIP:
# lines named iser/<pair>/<what>; the last check of each guest is its
# kernel log.  iscsid runs in the guest only.
set -u

role=$1 stack=$2
pair=${IRDMA_ULP_PAIR:-$stack}
P=iser/$pair/$role
IQN=iqn.2026-11.org.example:irdma-iser
# shellcheck source=tests/ulp/lib.sh
. "$(dirname "$0")/lib.sh"

# ------------------------------------------------------------- server ---

# LIO through rtslib-fb, the library under targetcli (targetcli itself
# wants a D-Bus session the guests do not run): a RAM disk, a target, its
# LUN and an iSER portal on our address, no authentication
lio() {
	/usr/bin/python3 - "$@" >/tmp/lio.out 2>&1 <<'PY'
import sys
from rtslib_fb import (FabricModule, LUN, NetworkPortal, RDMCPStorageObject,
                       RTSRoot, Target, TPG)
what, iqn, addr = sys.argv[1:4]
if what == 'setup':
    so = RDMCPStorageObject('rd0', size=160 * 1024 * 1024)
    tpg = TPG(Target(FabricModule('iscsi'), iqn), 1)
    LUN(tpg, 0, so)
    portal = NetworkPortal(tpg, addr, 3260)
    portal.iser = True
    for k, v in (('authentication', '0'), ('demo_mode_write_protect', '0'),
                 ('generate_node_acls', '1'), ('cache_dynamic_acls', '1')):
        tpg.set_attribute(k, v)
    tpg.enable = True
else:
    RTSRoot().clear_existing(confirm=True)
PY
	local rc=$?
	[ "$rc" = 0 ] || sed "s|^|# $P: rtslib: |" /tmp/lio.out
	return "$rc"
}

server_setup() {
	modprobe configfs &&
		{ mountpoint -q /sys/kernel/config ||
			mount -t configfs configfs /sys/kernel/config; } &&
		modprobe iscsi_target_mod && modprobe ib_isert &&
		modprobe target_core_mod && lio setup "$IQN" "$SRV4"
}

server_main() {
	ulp_server_start "LIO with an iSER portal failed" || return 1
	# the actions run in a child bash
	export IQN
	ulp_server_run
	lio clear "$IQN" "$SRV4" || fail teardown "LIO's configuration cannot be cleared"
	modprobe -r ib_isert iscsi_target_mod 2>/dev/null
	ulp_unload
	dmesg_check
}

# ------------------------------------------------------------- client ---

# the SCSI disk of our session, or nothing
iser_dev() {
	local b
	for b in /sys/class/iscsi_session/session*/device/target*/*/block/*; do
		[ -e "$b" ] && { echo "/dev/${b##*/}"; return 0; }
	done
	return 1
}

login() {
	local _
	iscsiadm -m node -T "$IQN" -p "$SRV4:3260" -I iser --login >/tmp/iscsiadm.out 2>&1 ||
		{ sed "s|^|# $P: iscsiadm: |" /tmp/iscsiadm.out; return 1; }
	for _ in $(seq 300); do
		iser_dev >/dev/null && return 0
		sleep 0.1
	done
	log "logged in, but no disk appeared"
	return 1
}

logout() {
	timeout 60 iscsiadm -m node -T "$IQN" -p "$SRV4:3260" -I iser --logout >/dev/null 2>&1
}

client_main() {
	local mb=$1 cycles=$2 i ok=0 dev t0 t1
	# no udev in the guests to load the disk driver for the new LUN
	if ! rdma_up || ! modprobe ib_iser || ! modprobe sd_mod; then
		fail rdma "cannot bring up $stack on peer0, or ib_iser, sd_mod"
		return 1
	fi
	ulp_wait_server || return 1
	# what the package's service would have made: its database and lock
	mkdir -p /etc/iscsi /mnt/iser /var/lib/iscsi /run/lock/iscsi
	echo "InitiatorName=iqn.2026-11.org.example:irdma-client" >/etc/iscsi/initiatorname.iscsi
	iscsid || { fail iscsid "iscsid does not start"; ulp_client_end; return 1; }
	sleep 1
	if ! iscsiadm -m node -o new -T "$IQN" -p "$SRV4:3260" -I iser >/tmp/iscsiadm.out 2>&1; then
		sed "s|^|# $P: iscsiadm: |" /tmp/iscsiadm.out
		fail node "cannot record the target"
	fi
	if login; then
		pass login
	else
		fail login "iscsiadm --login over iser failed"
		ulp_client_end
		dmesg_check
		return 1
	fi
	dev=$(iser_dev)
	log "session disk: $dev"
	head -c "$((mb * 1024 * 1024))" /dev/urandom >/tmp/iser-src
	if mkfs.ext4 -q -F "$dev" >/tmp/mkfs.out 2>&1 &&
		mount -t ext4 "$dev" /mnt/iser >>/tmp/mkfs.out 2>&1; then
		pass mkfs-mount
		t0=$(date +%s.%N)
		if dd if=/tmp/iser-src of=/mnt/iser/data bs=1M conv=fsync status=none &&
			umount /mnt/iser && echo 3 >/proc/sys/vm/drop_caches &&
			mount "$dev" /mnt/iser && cmp -s /tmp/iser-src /mnt/iser/data; then
			t1=$(date +%s.%N)
			log "wrote, remounted, read and compared $mb MiB in $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }') s"
			pass write-read-compare
		else
			fail write-read-compare "write, remount or compare failed"
		fi
		umount /mnt/iser 2>/dev/null
	else
		sed "s|^|# $P: |" /tmp/mkfs.out
		fail mkfs-mount "mkfs.ext4 or mount of $dev failed"
	fi
	if logout; then
		pass logout
	else
		fail logout "iscsiadm --logout failed"
	fi
	for i in $(seq "$cycles"); do
		login || break
		logout || break
		ok=$i
	done
	if [ "$ok" = "$cycles" ]; then
		pass "login-cycles-$cycles"
	else
		fail "login-cycles-$cycles" "cycle $((ok + 1)) failed"
	fi
	ulp_client_end
	iscsiadm -m node -o delete >/dev/null 2>&1
	pkill iscsid
	sleep 1
	ulp_unload ib_iser sd_mod
	dmesg_check
}

ulp_main server_main client_main "$@"
