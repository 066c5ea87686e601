#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# For a DKMS build (the Makefile's dkms-modules target): find ice's
# private headers for kernel KVER and print their directory, or print
# nothing when there are none that certainly match KVER.
#
#   tools/dkms-ice.sh KVER DIR
#
# The E810 binding (ice_if.c) reads struct ice_pf and friends, which are
# not part of any kernel ABI: headers of another kernel build compile fine
# and give wrong offsets.  So the headers are taken from Debian's
# linux-source-X.Y package only when its version is exactly that of the
# package of KVER's image (linux-image-KVER or linux-image-KVER-unsigned),
# and extracted from /usr/src/linux-source-X.Y.tar.xz into DIR/ (about 10 s:
# xz reads the whole archive).  In every other case (no linux-source
# package, another version, a kernel that dpkg does not know) the script
# explains why on stderr, which goes to dkms's make.log, and the build goes
# on without the E810 binding: X722 and the model are not affected.
#
# With IRDMA_ICE_SRC set (in dkms's environment or on the make command
# line) the Makefile does not run this script and uses that directory as
# it is.
set -euo pipefail

[ $# -eq 2 ] || { echo "usage: $0 KVER DIR" >&2; exit 2; }
kver=$1
dir=$2
# 6.1.0-57-amd64 -> 6.1
series=$(sed -n 's/^\([0-9]*\.[0-9]*\).*/\1/p' <<<"$kver")
pkg=linux-source-$series
tarball=/usr/src/$pkg.tar.xz
member=$pkg/drivers/net/ethernet/intel/ice

without() {
	echo "irdma: building without the E810 binding: $*" >&2
	exit 0
}

version() { dpkg-query -W -f='${Version}' "$1" 2>/dev/null || true; }

img=$(version "linux-image-$kver")
[ -n "$img" ] || img=$(version "linux-image-$kver-unsigned")
[ -n "$img" ] || without "no Debian package owns kernel $kver; set IRDMA_ICE_SRC to its ice sources"
src=$(version "$pkg")
[ -n "$src" ] || without "$pkg is not installed (apt-get install $pkg, then rebuild)"
[ "$src" = "$img" ] ||
	without "$pkg is $src, kernel $kver is $img: install $pkg $img, then rebuild"
[ -f "$tarball" ] || without "$tarball is missing (reinstall $pkg)"

if [ "$(cat "$dir/.version" 2>/dev/null)" != "$src" ]; then
	rm -rf "$dir"
	mkdir -p "$dir"
	tar -C "$dir" -xJf "$tarball" --wildcards "$member/*.h" ||
		without "cannot extract $member from $tarball"
	echo "$src" >"$dir/.version"
fi
[ -f "$dir/$member/ice.h" ] || without "no ice.h in $tarball"
echo "irdma: the E810 binding is built against ice's headers of $pkg $src" >&2
echo "$dir/$member"
