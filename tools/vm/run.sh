#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Run a command inside the test VM and exit with its status.
#
#   tools/vm/run.sh [OPTIONS] -- COMMAND [ARGS...]
#   tools/vm/run.sh               (on a terminal: an interactive shell)
#
# The VM boots /boot/vmlinuz-$KVER with the initramfs of tools/vm/initramfs.sh
# under QEMU/TCG with no network device (-nic none), shares the host root
# read-only over virtio-9p and runs on a tmpfs-backed overlay of it (see
# tools/vm/init).  The guest's /lib/modules/$KVER/updates holds exactly the
# repo's irdma.ko, sim/irdma_sim.ko and the cached siw.ko, with depmod's
# output for them (computed on the host by tools/vm/modules.sh, laid over
# /lib/modules/$KVER by the init), so "modprobe irdma" loads ours.  COMMAND runs as
# root with cwd = this repo; the guest console goes to stdout.
#
# Options:
#   --timeout SEC      kill the VM after SEC seconds (default 900): exit 124
#   --mem MB           guest memory (default 4096)
#   --smp N            vCPUs (default 2; 1 with --peer-socket)
#   --peer-socket listen:PORT | connect:PORT
#                      add a virtio-net NIC whose only link is a QEMU socket
#                      netdev on 127.0.0.1:PORT; run one guest with listen,
#                      another with connect.  In the guest it is "peer0",
#                      198.51.100.1/24 + 2001:db8:78::1 (listen) or .2/2001:db8:78::2
#                      (connect).  IRDMA_VM_PEER=listen|connect is set.
#   --append ARGS      extra kernel command line (e.g. "loglevel=7")
#   --console-log FILE keep the raw console output in FILE as well
#
# Exit status: COMMAND's; 124 on timeout; 125 when the VM died without
# reporting a status (kernel panic, failed boot) or could not start.
#
# Ended by SIGTERM while the guest still runs (a test driver giving up on
# a guest that hangs), the script first has the guest print a backtrace
# of every CPU and its blocked tasks (SysRq 9, l and w, sent as keys
# through QEMU's monitor; the boot enables every SysRq function) and
# gives it 5 s to do so.
#
# Environment: KVER (default tools/kver.sh), CACHE (default
# /var/cache/irdma), QEMU (default qemu-system-x86_64), IRDMA_VM_KSET (boot
# the debug kernel of that set, tools/vm/debug-kernel.sh, instead: its
# modules are the guest's /lib/modules/$KVER, KUnit is off with
# kunit.enable=0, and KVER is the set's release).  In the guest the
# command sees IRDMA_VM=1, REPO, KVER, CACHE, IRDMA_SIW_KO, IRDMA_VM_MODS,
# IRDMA_VM_PEER.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
CACHE=${CACHE:-/var/cache/irdma}
if [ -n "${IRDMA_VM_KSET:-}" ]; then
	KVER=$(cat "$IRDMA_VM_KSET/kernelrelease") || exit 125
fi
KVER=${KVER:-$("$repo/tools/kver.sh")}
QEMU=${QEMU:-qemu-system-x86_64}
export CACHE KVER

usage() {
	sed -n '4,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "${BASH_SOURCE[0]}" >&2
	exit "${1:-2}"
}

timeout=900 mem=4096 smp='' peer='' append='' console_log=''
while [ $# -gt 0 ]; do
	case "$1" in
	--timeout) timeout=${2:?}; shift 2 ;;
	--mem) mem=${2:?}; shift 2 ;;
	--smp) smp=${2:?}; shift 2 ;;
	--peer-socket) peer=${2:?}; shift 2 ;;
	--append) append=${2:?}; shift 2 ;;
	--console-log) console_log=${2:?}; shift 2 ;;
	-h | --help) usage 0 ;;
	--) shift; break ;;
	-*) echo "run.sh: unknown option $1" >&2; usage ;;
	*) break ;;
	esac
done

interactive=0
if [ $# -eq 0 ]; then
	if ! [ -t 0 ] || ! [ -t 1 ]; then
		echo "run.sh: no command given" >&2
		usage
	fi
	interactive=1
	set -- /bin/bash -l
fi

case "$timeout$mem${smp:-1}" in *[!0-9]*) echo "run.sh: --timeout/--mem/--smp take numbers" >&2; exit 2 ;; esac
peer_args=()
peer_mode=
if [ -n "$peer" ]; then
	port=${peer#*:}
	peer_mode=${peer%%:*}
	case "$peer_mode:$port" in
	listen:[0-9]* | connect:[0-9]*) ;;
	*) echo "run.sh: --peer-socket takes listen:PORT or connect:PORT" >&2; exit 2 ;;
	esac
	case "$port" in *[!0-9]*) echo "run.sh: bad port '$port'" >&2; exit 2 ;; esac
	mac=52:54:00:77:78:01
	[ "$peer_mode" = connect ] && mac=52:54:00:77:78:02
	# event_idx=off: guests of storage pairs stopped sending for good,
	# their virtio TX ring unread by QEMU with nothing in flight and the
	# carrier up, as if a notification was lost; without event_idx the
	# guest notifies whenever QEMU has not said it is still reading
	peer_args=(-netdev "socket,id=peer,$peer_mode=127.0.0.1:$port"
		-device "virtio-net-pci,netdev=peer,mac=$mac,event_idx=off")
	smp=${smp:-1}
fi
smp=${smp:-2}

command -v "$QEMU" >/dev/null || { echo "run.sh: $QEMU not found (make deps)" >&2; exit 125; }
siw_ko=$("$repo/tools/siw.sh" --path)
kmods=
if [ -n "${IRDMA_VM_KSET:-}" ]; then
	kmods=$IRDMA_VM_KSET/lib/modules/$KVER
	siw_ko=$kmods/kernel/drivers/infiniband/sw/siw/siw.ko
fi
kernel=$("$here/kernel.sh") || { echo "run.sh: no kernel image" >&2; exit 125; }
initrd=$("$here/initramfs.sh") || { echo "run.sh: cannot build the initramfs" >&2; exit 125; }
mods=$("$here/modules.sh") || { echo "run.sh: cannot prepare the guest's modules" >&2; exit 125; }

rundir=$(mktemp -d /tmp/irdma-vm.XXXXXX)
chmod 755 "$rundir"
# shellcheck disable=SC2317 # called by the trap
cleanup() {
	if [ -s "$rundir/qemu.pid" ]; then
		kill "$(cat "$rundir/qemu.pid")" 2>/dev/null || true
	fi
	rm -rf "$rundir"
}
# shellcheck disable=SC2317 # called by the trap
dump_guest() {
	[ -S "$rundir/monitor" ] && [ -s "$rundir/qemu.pid" ] &&
		kill -0 "$(cat "$rundir/qemu.pid")" 2>/dev/null || return 0
	echo "run.sh: terminated: asking the guest for its CPUs' backtraces and blocked tasks" >&2
	timeout 10 python3 - "$rundir/monitor" <<'PY' || true
import socket, sys, time
s = socket.socket(socket.AF_UNIX)
s.connect(sys.argv[1])
# every message to the console (9), then the dumps
for key in ("9", "l", "w"):
    s.sendall(b"sendkey alt-sysrq-" + key.encode() + b"\n")
    time.sleep(1)
s.close()
PY
	sleep 5
}
trap cleanup EXIT
trap 'exit 130' INT HUP
trap 'dump_guest; exit 143' TERM

# The job (run by the guest's bash): environment, cwd, command.
{
	printf 'export IRDMA_VM=1 REPO=%q KVER=%q CACHE=%q IRDMA_SIW_KO=%q IRDMA_VM_MODS=%q IRDMA_VM_PEER=%q\n' \
		"$repo" "$KVER" "$CACHE" "$siw_ko" "$mods" "$peer_mode"
	printf 'cd %q || exit 125\n' "$repo"
	printf 'exec'
	printf ' %q' "$@"
	echo
} >"$rundir/job.sh"

for p in "$repo" "$CACHE"; do
	case "$p" in *[[:space:],]*)
		echo "run.sh: warning: '$p' contains a space or comma; under /tmp the guest will not see it" >&2 ;;
	esac
done

# tsc=reliable: under TCG the guest kernel finds the vCPUs' TSCs out of
# step at boot and falls back to the HPET, whose every read is an emulated
# MMIO access that takes QEMU's global lock; each clock read (the model's
# poller, perftest's timing, the TCP stack) then cost microseconds and
# stalled the other vCPU.  QEMU derives every vCPU's TSC from the one host
# counter, so the guest can trust it.  Its rate, though, the guest
# calibrates against emulated timers, and on a loaded host that missed:
# a guest that ran 1,100 s logged 1,339, its TCP and NFS timers fast.  The
# rate measured here (tools/vm/tsc-khz.sh) replaces the calibration.
cmdline="console=ttyS0,115200 quiet panic=-1 tsc=reliable sysrq_always_enabled"
tsc_khz=$("$here/tsc-khz.sh")
[ -z "$tsc_khz" ] || cmdline+=" tsc_early_khz=$tsc_khz"
cmdline+=" irdmavm_run=$rundir irdmavm_keep=$repo,$CACHE"
[ -z "$mods" ] || cmdline+=" irdmavm_mods=$mods"
[ -z "$kmods" ] || cmdline+=" irdmavm_kmods=$kmods kunit.enable=0"
[ -z "$peer_mode" ] || cmdline+=" irdmavm_peer=$peer_mode"
[ "$interactive" = 0 ] || cmdline+=" irdmavm_tty=1"
[ -z "$append" ] || cmdline+=" $append"

# shellcheck disable=SC2054 # QEMU's option values have commas
qemu=("$QEMU" -nodefaults -no-user-config -machine pc
	-accel tcg,thread=multi -cpu max -smp "$smp" -m "$mem"
	-display none -nic none -no-reboot
	-kernel "$kernel" -initrd "$initrd" -append "$cmdline"
	-fsdev "local,id=hostroot,path=/,security_model=none,readonly=on,multidevs=remap"
	-device virtio-9p-pci,fsdev=hostroot,mount_tag=hostroot
	"${peer_args[@]}"
	-pidfile "$rundir/qemu.pid")

if [ "$interactive" = 1 ]; then
	qemu+=(-serial mon:stdio)
	timeout --foreground -k 10 "$timeout" "${qemu[@]}" || true
	exit 0
fi

# shellcheck disable=SC2054
qemu+=(-chardev stdio,id=con,signal=off -serial chardev:con
	-monitor "unix:$rundir/monitor,server=on,wait=off")
log=${console_log:-$rundir/console.log}
# In the background, so that a signal to this script is handled at once
# (bash runs traps only after a foreground pipeline ends): the trap ends
# QEMU.
set +e
{
	timeout --foreground -k 10 "$timeout" "${qemu[@]}" </dev/null 2>&1
	echo $? >"$rundir/qemu.rc"
} | sed -u 's/\r$//' | tee "$log" |
	grep --line-buffered -Ev '@@IRDMA-VM-RC=|\] reboot: Power down$' &
wait $!
set -e
qemu_rc=$(cat "$rundir/qemu.rc" 2>/dev/null || echo 125)
rc=$(sed -n 's/.*@@IRDMA-VM-RC=\([0-9]*\)@@.*/\1/p' "$log" | tail -n1)
if [ "$qemu_rc" = 124 ] || [ "$qemu_rc" = 137 ]; then
	echo "run.sh: timeout: the VM ran longer than $timeout s and was killed" >&2
	exit 124
fi
if [ -z "$rc" ]; then
	echo "run.sh: the VM stopped without reporting a status (QEMU exit $qemu_rc; kernel panic or boot failure?)" >&2
	exit 125
fi
exit "$rc"
