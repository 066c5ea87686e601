#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# DKMS: the package "make dkms-install" registers installs through dkms, and
# modprobe then loads dkms's modules, not the run's copies nor Debian's.
# The host has built it (tools/vm/dkms.sh: the host-setup line) in a dkms
# tree under $CACHE and run depmod over the tree the install gives; here
# "dkms install --no-depmod" copies irdma.ko and irdma_sim.ko from that
# tree into /lib/modules/KVER/updates/dkms, and the host's depmod output
# is put in place (a depmod takes 30-60 s over 9p).
# timeout: 300
# host-setup: tools/vm/dkms.sh
#
# Meanwhile /lib/modules/KVER is a stand-in on tmpfs bind-mounted over it:
# links to the real entries, except that updates/ lacks the run's
# irdma*.ko and the directories down to Debian's kernel/.../irdma.ko are
# real.  Two copies in updates/ would rank the same for depmod (it picks
# one by directory order), and dkms refuses a module of the version and
# srcversion of one in the tree.  Debian's irdma.ko must meet dkms's version
# check and lose to updates/dkms in depmod; walking all of kernel/ for
# dkms's four finds would take minutes over 9p.  The run's copies have
# dkms's srcversion (same sources): the path modprobe loads from and dkms's
# signature tell them apart.  At exit the bind mount goes; the real tree
# was never written.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
P=dkms

t_require "$P/tools" dkms rdma modinfo || t_exit
t_need_ours "$P" irdma irdma_sim
mdir=/lib/modules/$T_KVER
dir=$("$T_REPO/tools/vm/dkms.sh" --last 2>/dev/null)
ver=$(cat "$dir/version" 2>/dev/null)
if [ ! -f "$dir/.done" ] || [ -z "$ver" ]; then
	t_fail "$P/host-build" "no dkms build at $dir (see the host setup's output above)"
	t_exit
fi
t_pass "$P/host-build"
grep -h '^irdma: ' "$dir/tree/irdma/$ver/$T_KVER"/*/log/make.log 2>/dev/null | t_indent
dk=(dkms --dkmstree "$dir/tree" --sourcetree "$dir/src")
debian_irdma=kernel/drivers/infiniband/hw/irdma/irdma.ko

modprobe -r irdma_sim irdma 2>/dev/null
if t_mod_loaded irdma || t_mod_loaded irdma_sim; then
	t_fail "$P/unload" "irdma or irdma_sim is loaded and cannot be removed"
	t_exit
fi

# --- the module tree's stand-in ------------------------------------------------

# mirror DIR ORIG PATH: DIR gets a link to each entry of ORIG, except that
# the directories on the way to ORIG/PATH are made (and mirrored in turn).
# One ln per directory: under TCG every fork counts.
mirror() {
	local d=$1 o=$2 p=$3 first=${3%%/*}
	mkdir -p "$d"
	ln -s "$o"/* "$d/"
	[ "$p" != "$first" ] || return 0
	rm "$d/$first"
	mirror "$d/$first" "$o/$first" "${p#*/}"
}

work=$(mktemp -d /run/dkms-test.XXXXXX)
# not into a bind mount left behind
t_defer rm -rf --one-file-system "$work"
mkdir "$work/orig" "$work/tree"
mount --bind "$mdir" "$work/orig" || { t_fail "$P/tree" "cannot bind $mdir"; t_exit; }
t_defer umount "$work/orig"
# depmod's files come from the host after the install
mirror "$work/tree" "$work/orig" "$debian_irdma"
rm -f "$work/tree"/modules.* "$work/tree/updates"
mkdir "$work/tree/updates"
for u in "$work/orig/updates"/*; do
	case "${u##*/}" in irdma.ko* | irdma_sim.ko* | dkms) ;; *) ln -s "$u" "$work/tree/updates/" ;; esac
done
if [ -e "$work/tree/$debian_irdma" ] && mount --bind "$work/tree" "$mdir"; then
	t_defer umount "$mdir"
	t_pass "$P/tree"
else
	t_fail "$P/tree" "cannot set up the stand-in for $mdir (Debian's irdma.ko: $(ls -l "$work/orig/$debian_irdma" 2>&1))"
	t_exit
fi
t_defer modprobe -r irdma_sim irdma

# --- dkms install ---------------------------------------------------------
t_dmesg_mark "$P"
start=$SECONDS
if out=$(timeout 120 "${dk[@]}" install -m irdma -v "$ver" -k "$T_KVER" --no-depmod 2>&1) &&
	[ -L "$dir/tree/irdma/kernel-$T_KVER-$(uname -m)" ]; then
	t_indent <<<"$out"
	t_pass "$P/install"
else
	t_indent <<<"$out"
	t_fail "$P/install" "dkms install irdma/$ver -k $T_KVER failed"
	t_exit
fi
t_log "dkms install took $((SECONDS - start)) s"
# dkms's checks met Debian's irdma.ko, one module of the name and without
# a version, and let ours in: it says nothing then, but it would say "No
# original module" for none and "Multiple same named modules" for several
sect=$(awk '/^irdma\.ko:/ { f = 1; next } /^irdma_sim\.ko:/ { f = 0 } f' <<<"$out")
if [ -n "$sect" ] && ! grep -qE 'No original module|Multiple same named' <<<"$sect"; then
	t_pass "$P/version-check"
else
	t_fail "$P/version-check" "dkms did not meet exactly one irdma.ko (Debian's) in the tree"
fi
ln -s "$dir"/depmod/modules.* "$mdir/"

# --- modinfo: depmod resolves both names to dkms's files --------------------
for m in irdma irdma_sim; do
	f=$mdir/updates/dkms/$m.ko
	got=$(t_ko_path "$m")
	if [ "$got" = "$f" ] && [ -f "$f" ]; then
		t_pass "$P/modinfo-$m"
	else
		t_fail "$P/modinfo-$m" "modinfo -n $m: '$got', want $f (there: $(ls "$mdir/updates/dkms" 2>&1))"
	fi
	v=$(modinfo -F version "$f" 2>&1)
	signer=$(modinfo -F signer "$f" 2>&1)
	if [ "$v" = "$ver" ] && [ "$signer" = "DKMS module signing key" ]; then
		t_pass "$P/signed-$m"
	else
		t_fail "$P/signed-$m" "$f: version '$v' (want $ver), signer '$signer' (want dkms's key)"
	fi
done

# --- modprobe loads them ----------------------------------------------------
# modprobe irdma_sim, then the device's creation loads irdma (request_module)
ok=1
if out=$(timeout 60 modprobe -v irdma_sim 2>&1) && t_mod_loaded irdma_sim; then
	t_indent <<<"$out"
	if grep -q "^insmod $mdir/updates/dkms/irdma_sim.ko " <<<"$out "; then
		t_pass "$P/modprobe"
	else
		t_fail "$P/modprobe" "modprobe -v irdma_sim did not insmod updates/dkms/irdma_sim.ko"
	fi
else
	t_indent <<<"$out"
	t_fail "$P/modprobe" "modprobe irdma_sim failed"
	ok=0
fi

# --- a device on dkms's modules ---------------------------------------------
if [ "$ok" = 1 ]; then
	if ! t_hosts_up; then
		t_fail "$P/hosts" "cannot create netns a/b joined by va/vb"
		ok=0
	elif t_in "$T_NS_A" timeout 30 rdma link add irdma0 type irdma_sim netdev "$T_IF_A" &&
		t_wait 10 t_rdma_dev_exists irdma0 && t_wait 10 t_port_state_is irdma0 PORT_ACTIVE; then
		t_pass "$P/device"
	else
		t_dmesg_since | tail -n 20 | t_indent
		t_fail "$P/device" "rdma link add irdma0 on va: no active irdma0"
		ok=0
	fi
fi

# what runs is dkms's build: the run's copies are out of the tree, and
# Debian's irdma has neither version nor srcversion
if [ "$ok" = 1 ]; then
	for m in irdma irdma_sim; do
		f=$mdir/updates/dkms/$m.ko
		want=$(modinfo -F srcversion "$f" 2>/dev/null)
		got=$(cat "/sys/module/$m/srcversion" 2>/dev/null)
		v=$(cat "/sys/module/$m/version" 2>/dev/null)
		if [ -n "$want" ] && [ "$got" = "$want" ] && [ "$v" = "$ver" ]; then
			t_pass "$P/loaded-$m"
		else
			t_fail "$P/loaded-$m" "/sys/module/$m: srcversion '$got' version '$v'; $f: srcversion '$want' version $ver"
		fi
	done
	t_log "srcversion irdma $(cat /sys/module/irdma/srcversion 2>/dev/null), irdma_sim $(cat /sys/module/irdma_sim/srcversion 2>/dev/null)"
	t_check "$P/device-delete" rdma link delete irdma0
fi
rdma link delete irdma0 2>/dev/null
t_hosts_down
t_check "$P/unload" modprobe -r irdma_sim irdma

# --- dkms remove --------------------------------------------------------------
if out=$(timeout 60 "${dk[@]}" remove -m irdma -v "$ver" --all --no-depmod 2>&1) &&
	[ ! -e "$mdir/updates/dkms/irdma.ko" ] && [ ! -e "$mdir/updates/dkms/irdma_sim.ko" ]; then
	t_pass "$P/remove"
else
	t_indent <<<"$out"
	t_fail "$P/remove" "dkms remove failed or left updates/dkms/irdma*.ko"
fi

# --- the run's module tree again ----------------------------------------------
t_run_deferred
if [ "$(t_ko_path irdma)" = "$mdir/updates/irdma.ko" ] &&
	[ "$(t_ko_path irdma_sim)" = "$mdir/updates/irdma_sim.ko" ]; then
	t_pass "$P/restored"
else
	t_fail "$P/restored" "modinfo -n irdma: $(t_ko_path irdma), irdma_sim: $(t_ko_path irdma_sim)"
fi
t_dmesg_check "$P/dmesg"
t_exit
