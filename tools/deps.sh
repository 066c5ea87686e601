#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Install every Debian 12 package the project needs, then extract the
# kernel source (tools/linux-src.sh).  Idempotent: when everything is
# present it only asks dpkg (one dpkg-query call) and returns in well under
# a second.  Installing needs root; checking does not.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

pkgs=(
	# target kernel, its headers and its source (siw, KUnit, ice headers)
	linux-image-amd64 linux-headers-amd64 linux-source-6.1
	# kernel builds (modules, the KUnit kernel)
	gcc make libc6-dev flex bison bc libelf-dev libssl-dev xz-utils cpio
	kmod dwarves python3
	# static analysis, fuzzing (clang/libFuzzer), shell lint, manual pages
	sparse clang lld llvm shellcheck libclang-rt-14-dev python3-docutils
	groff-base
	# the test VM: QEMU and the initramfs' busybox
	qemu-system-x86 busybox-static
	# RDMA user space: stock libirdma, verbs/CM tools, perftest
	rdma-core ibverbs-providers ibverbs-utils rdmacm-utils perftest
	libibverbs-dev librdmacm-dev
	# make dkms-install and the VM's dkms test (openssl: dkms's signing key)
	dkms openssl
	# networking and inspection inside the guest
	iproute2 iputils-ping ethtool procps util-linux coreutils tshark
	# kernel storage ULPs over RDMA between two guests: NVMe-oF, NFS, iSER
	nvme-cli fio nfs-kernel-server nfs-common rpcbind targetcli-fb open-iscsi
	e2fsprogs
	git rsync
)

missing=()
# dpkg-query exits non-zero when a name is unknown to dpkg; its output
# still lists every package it knows, so read the output, not the status.
status=$(dpkg-query -W -f='${db:Status-Abbrev} ${Package}\n' "${pkgs[@]}" 2>/dev/null || true)
for p in "${pkgs[@]}"; do
	grep -qx "ii  $p" <<<"$status" || missing+=("$p")
done

if [ "${#missing[@]}" -gt 0 ]; then
	if [ "$(id -u)" -ne 0 ]; then
		echo "deps.sh: missing packages: ${missing[*]}" >&2
		echo "deps.sh: run as root (or: sudo apt-get install ${missing[*]})" >&2
		exit 1
	fi
	echo "deps.sh: installing: ${missing[*]}"
	export DEBIAN_FRONTEND=noninteractive
	# tshark asks whether non-root users may capture; answer no.
	echo 'wireshark-common wireshark-common/install-setuid boolean false' |
		debconf-set-selections
	apt_get() { apt-get -y -q -o Dpkg::Use-Pty=0 "$@"; }
	# The NFS, iSCSI and rpcbind servers are for the test guests only:
	# keep their services from starting on this machine (policy-rc.d is
	# what Debian's maintainer scripts ask before starting one).
	prc=/usr/sbin/policy-rc.d
	if [ ! -e "$prc" ]; then
		printf '#!/bin/sh\nexit 101\n' >"$prc"
		chmod 755 "$prc"
		trap 'rm -f "$prc"' EXIT
	fi
	if ! apt_get install --no-install-recommends "${missing[@]}"; then
		# a fresh image usually has no package lists yet
		apt_get update
		apt_get install --no-install-recommends "${missing[@]}"
	fi
	rm -f "$prc"
	trap - EXIT
fi

"$here/linux-src.sh" >/dev/null
