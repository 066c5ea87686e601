#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# One guest of an NFS-over-RDMA pair (tests/ulp/run.sh runs two of
# them, see tests/ulp/lib.sh).
#
#   nfs-guest.sh server STACK       nfsd with the RDMA port 20049 on STACK's
#                                   device, exporting a tmpfs
#   nfs-guest.sh client STACK MB N  mount -o rdma,port=20049 (NFSv4.1 and
#                                   NFSv3) on STACK's device: write MB MiB,
#                                   drop the page cache, read back and
#                                   compare; N mount/umount cycles; umount
#
# STACK is irdma (irdma_sim + irdma) or siw.  Prints PASS:/FAIL:/SKIP:
# lines named nfs/<pair>/<what>; the last check of each guest is its kernel
# log.  The daemons (rpcbind, rpc.mountd, nfsd) run in the guest only.
set -u

role=$1 stack=$2
pair=${IRDMA_ULP_PAIR:-$stack}
P=nfs/$pair/$role
EXPORT=/srv/irdma-nfs
# a hard mount waits for its server forever: an I/O that takes longer than
# this (seconds) is a failure, with the kernel log shown, not a guest that
# runs out of time
IO_LIMIT=300
# shellcheck source=tests/ulp/lib.sh
. "$(dirname "$0")/lib.sh"

# ------------------------------------------------------------- server ---

server_setup() {
	modprobe nfsd && modprobe rpcrdma &&
		{ mountpoint -q /proc/fs/nfsd || mount -t nfsd nfsd /proc/fs/nfsd; } &&
		mkdir -p "$EXPORT" /var/lib/nfs/rpc_pipefs /run/rpcbind &&
		mount -t tmpfs -o size=256m tmpfs "$EXPORT" &&
		echo "$EXPORT 198.51.100.0/24(rw,no_root_squash,insecure,no_subtree_check,fsid=0)" \
			>/etc/exports &&
		rpcbind -w &&
		exportfs -ra &&
		# NFSv4's grace period would hold the first OPEN for 90 s
		echo 10 >/proc/fs/nfsd/nfsv4leasetime &&
		echo 10 >/proc/fs/nfsd/nfsv4gracetime &&
		rpc.mountd &&
		rpc.nfsd 4 &&
		echo "rdma 20049" >/proc/fs/nfsd/portlist
}

server_main() {
	ulp_server_start "nfsd with the RDMA port failed" || return 1
	log "nfsd ports: $(tr '\n' ' ' </proc/fs/nfsd/portlist)"
	# the actions run in a child bash
	export EXPORT
	ulp_server_run
	rpc.nfsd 0
	exportfs -ua
	pkill rpc.mountd
	pkill rpcbind
	umount "$EXPORT"
	ulp_unload
	dmesg_check
}

# ------------------------------------------------------------- client ---

# nfs_mount VERS: mount the export over RDMA at /mnt/nfs
nfs_mount() {
	local what=$SRV4:/ opts
	opts="vers=$1,proto=rdma,port=20049,timeo=100,retrans=2"
	# no lock manager in the guests: v3 locks stay local
	[ "$1" = 3 ] && what=$SRV4:$EXPORT opts+=,nolock
	timeout 120 mount -t nfs -o "$opts" "$what" /mnt/nfs
}

# one pass: write, read back uncached, compare
nfs_pass() {
	local vers=$1 mb=$2 t0 t1
	if ! nfs_mount "$vers"; then
		fail "v$vers-mount" "mount -o rdma,port=20049 failed"
		return 1
	fi
	pass "v$vers-mount"
	t0=$(date +%s.%N)
	if ! timeout -k 10 "$IO_LIMIT" dd if=/tmp/nfs-src of=/mnt/nfs/data bs=1M \
		conv=fsync status=none; then
		fail "v$vers-write" "dd to the export failed or hung"
		timeout 60 umount -f /mnt/nfs
		return 1
	fi
	t1=$(date +%s.%N)
	log "v$vers: wrote $mb MiB in $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }') s"
	# read back through the wire, not the page cache
	if ! timeout 60 umount /mnt/nfs; then
		fail "v$vers-umount" "umount after the write failed or hung"
		return 1
	fi
	nfs_mount "$vers" || { fail "v$vers-remount" "second mount failed"; return 1; }
	echo 3 >/proc/sys/vm/drop_caches
	t0=$(date +%s.%N)
	if timeout -k 10 "$IO_LIMIT" cmp -s /tmp/nfs-src /mnt/nfs/data; then
		t1=$(date +%s.%N)
		log "v$vers: read and compared $mb MiB in $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }') s"
		pass "v$vers-write-read-compare"
	else
		fail "v$vers-write-read-compare" "the data read back differs, or the read failed or hung"
	fi
	timeout -k 10 60 rm -f /mnt/nfs/data
	if timeout 60 umount /mnt/nfs; then
		pass "v$vers-umount"
	else
		fail "v$vers-umount" "umount failed or hung"
	fi
}

client_main() {
	local mb=$1 cycles=$2 i ok=0
	if ! rdma_up || ! modprobe rpcrdma; then
		fail rdma "cannot bring up $stack on peer0, or rpcrdma"
		return 1
	fi
	ulp_wait_server || return 1
	mkdir -p /mnt/nfs
	head -c "$((mb * 1024 * 1024))" /dev/urandom >/tmp/nfs-src
	nfs_pass 4.1 "$mb"
	nfs_pass 3 "$mb"
	for i in $(seq "$cycles"); do
		nfs_mount 4.1 || break
		timeout 60 umount /mnt/nfs || break
		ok=$i
	done
	if [ "$ok" = "$cycles" ]; then
		pass "mount-cycles-$cycles"
	else
		fail "mount-cycles-$cycles" "cycle $((ok + 1)) failed"
	fi
	ulp_client_end
	ulp_unload rpcrdma nfsv4 nfsv3 nfs
	dmesg_check
}

ulp_main server_main client_main "$@"
