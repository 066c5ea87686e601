#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build soft-iWARP (siw.ko), the independent iWARP peer of the tests, out of
# tree from Debian's linux-source-6.1 against the target kernel's headers
# (Debian's kernel has CONFIG_RDMA_SIW unset), and print its path.
#
#   siw.sh [--crc]          build if not cached, print the path
#   siw.sh [--crc] --path   print the path only (it may not exist yet)
#
# --crc builds the benchmark's reference: the same source with MPA CRC
# required (siw's compile-time mpa_crc_required set), so that siw<->siw
# pays for CRC32c as irdma does.  It is still a module named siw; load it
# with insmod by path instead of the plain one.
#
# Cached at $CACHE/siw[-crc]-<linux-source-6.1 version>-<KVER>/siw.ko.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
CACHE=${CACHE:-/var/cache/irdma}
KVER=${KVER:-$("$here/kver.sh")}
KDIR=${KDIR:-/usr/src/linux-headers-$KVER}
srcver=$(dpkg-query -W -f='${Version}' linux-source-6.1 2>/dev/null || echo none)
crc=''
if [ "${1:-}" = --crc ]; then
	crc=-crc
	shift
fi
dir=$CACHE/siw$crc-$srcver-$KVER
ko=$dir/siw.ko

if [ "${1:-}" = --path ]; then
	echo "$ko"
	exit 0
fi
if [ -s "$ko" ]; then
	echo "$ko"
	exit 0
fi

[ "$srcver" != none ] || { echo "siw.sh: linux-source-6.1 is not installed (make deps)" >&2; exit 1; }
[ -d "$KDIR" ] || { echo "siw.sh: no kernel headers at $KDIR (make deps)" >&2; exit 1; }
src=$("$here/linux-src.sh")/drivers/infiniband/sw/siw
[ -f "$src/Makefile" ] || { echo "siw.sh: $src missing" >&2; exit 1; }

mkdir -p "$CACHE"
build=$(mktemp -d "$CACHE/.siw-build.XXXXXX")
trap 'rm -rf "$build"' EXIT
cp -a "$src/." "$build/"
if [ -n "$crc" ]; then
	sed -i 's/^const bool mpa_crc_required;$/const bool mpa_crc_required = true;/' "$build/siw_main.c"
	grep -q '^const bool mpa_crc_required = true;$' "$build/siw_main.c" || {
		echo "siw.sh: siw_main.c has no mpa_crc_required to set" >&2
		exit 1
	}
fi
log=$build/build.log
if ! make -C "$KDIR" M="$build" CONFIG_RDMA_SIW=m -j"$(nproc)" modules >"$log" 2>&1; then
	cat "$log" >&2
	echo "siw.sh: building siw.ko failed" >&2
	exit 1
fi
mkdir -p "$dir"
cp "$build/siw.ko" "$dir/siw.ko.tmp"
mv "$dir/siw.ko.tmp" "$ko"
echo "$ko"
