#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build this repo's DKMS package on the host for the VM test
# tests/vm/90-dkms.sh and print the directory that holds it.
#
#   tools/vm/dkms.sh          build it unless cached, print DIR
#   tools/vm/dkms.sh --path   print DIR only (it may not exist yet)
#   tools/vm/dkms.sh --last   print the DIR this checkout last built or
#                             found (for the guest: --path copies and hashes
#                             the sources, slow over 9p)
#
#   DIR/src/irdma-VERSION   the source as "make dkms-install" copies it
#                           (make dkms-src)
#   DIR/tree                a dkms tree (dkms --dkmstree) in which
#                           irdma/VERSION is added and built for KVER
#   DIR/mok.key, mok.pub    the key dkms signed the modules with, made by
#                           dkms for this DIR (an installed system's dkms
#                           uses /var/lib/dkms/mok.key and mok.pub)
#   DIR/depmod/modules.*    depmod's output for /lib/modules/KVER as the
#                           guest has it after "dkms install": the kernel's
#                           modules, updates/siw.ko (tools/siw.sh) and
#                           dkms's updates/dkms/irdma.ko and irdma_sim.ko
#   DIR/version             VERSION
#   DIR/dkms.log            what dkms printed
#
# The build runs here because under TCG it would take the guest many
# minutes, and depmod for the reason tools/vm/modules.sh gives (a minute
# over 9p in the guest, a second here).  The guest runs "dkms install
# --no-depmod" from DIR/tree into its own /lib/modules (an overlay, gone at
# power-off) and takes DIR/depmod's files.  tools/vm/tests.sh runs this
# script before it boots the VM, as the test's "# host-setup:" line asks.
# Cached under $CACHE/vm/dkms-$KVER-<hash of the package's files, siw.ko,
# this script and the versions of dkms, the kernel and linux-source>.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
# shellcheck source=tools/vm/depmod-tree.sh
. "$here/depmod-tree.sh"
CACHE=${CACHE:-/var/cache/irdma}
KVER=${KVER:-$("$repo/tools/kver.sh")}
export CACHE KVER

# where the last DIR of this checkout is noted
last=$CACHE/vm/dkms-last-$KVER-$(echo "$repo" | sha256sum | cut -c1-16)
path_only=0
case "${1:-}" in
--path) path_only=1 ;;
--last)
	cat "$last" 2>/dev/null || { echo "dkms.sh: no build noted in $last" >&2; exit 1; }
	exit 0
	;;
'') ;;
*) sed -n '4,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0" >&2; exit 2 ;;
esac

ver=$(sed -n 's/^PACKAGE_VERSION="\([^"]*\)".*/\1/p' "$repo/dkms.conf")
[ -n "$ver" ] || { echo "dkms.sh: no PACKAGE_VERSION in dkms.conf" >&2; exit 1; }

# the package's files, copied the way make dkms-install copies them; the
# guest (--path) copies them as well, to find the same hash
mkdir -p "$CACHE/vm"
tmp=$(mktemp -d "$CACHE/vm/.dkms.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
make -s -C "$repo" --no-print-directory dkms-src DKMS_SRC="$tmp/irdma-$ver" >/dev/null
pkgver() { dpkg-query -W -f='${Version}' "$1" 2>/dev/null || echo none; }
siw=$("$repo/tools/siw.sh" --path)
key=$({
	echo "$KVER $ver"
	[ ! -f "$siw" ] || sha256sum "$siw" | cut -d' ' -f1
	pkgver dkms
	pkgver "linux-image-$KVER"
	pkgver "linux-headers-$KVER"
	pkgver linux-source-6.1
	(cd "$tmp" && find . -type f | LC_ALL=C sort | xargs sha256sum)
	sha256sum "${BASH_SOURCE[0]}" "$here/depmod-tree.sh" | cut -d' ' -f1
} | sha256sum | cut -c1-16)
out=$CACHE/vm/dkms-$KVER-$key
if [ "$path_only" = 1 ]; then
	echo "$out"
	exit 0
fi
# noted again when the build is there: a failed one leaves no note
rm -f "$last"

# one build of a DIR at a time (two clones may test the same sources)
exec 9>"$CACHE/vm/dkms.lock"
flock 9
if [ -f "$out/.done" ]; then
	touch "$out"
	echo "$out" >"$last"
	echo "$out"
	exit 0
fi
command -v dkms >/dev/null || { echo "dkms.sh: dkms is not installed (make deps)" >&2; exit 1; }
# built in place: dkms's tree links to the source by its absolute path
rm -rf "$out"
mkdir -p "$out/src" "$out/tree"
mv "$tmp/irdma-$ver" "$out/src/"
echo "$ver" >"$out/version"
# dkms reads the signing key's paths from framework.conf or, failing that,
# from its environment, and makes the key when it is missing
export mok_signing_key=$out/mok.key mok_certificate=$out/mok.pub
dk=(dkms --dkmstree "$out/tree" --sourcetree "$out/src")
if ! { "${dk[@]}" add -m irdma -v "$ver" &&
	"${dk[@]}" build -m irdma -v "$ver" -k "$KVER"; } >"$out/dkms.log" 2>&1; then
	echo "dkms.sh: dkms build failed:" >&2
	cat "$out/dkms.log" >&2
	for f in "$out/tree/irdma/$ver/build/make.log" "$out/tree/irdma/$ver/$KVER"/*/log/make.log; do
		[ ! -f "$f" ] || tail -n 40 "$f" >&2
	done
	exit 1
fi

# depmod -b follows symbolic links: a tree of links to the kernel's
# modules, with updates/ as the guest's will be (the host's own updates/,
# from "make install" or dkms, left out)
mdir=/lib/modules/$KVER
tree=$tmp/root/lib/modules/$KVER
mkdir -p "$tree/updates/dkms" "$out/depmod"
depmod_tree "$mdir" "$tree"
[ ! -f "$siw" ] || ln -s "$siw" "$tree/updates/siw.ko"
for m in irdma irdma_sim; do
	ln -s "$out/tree/irdma/$ver/$KVER/$(uname -m)/module/$m.ko" "$tree/updates/dkms/"
done
depmod -b "$tmp/root" "$KVER"
cp "$tree"/modules.* "$out/depmod/"
touch "$out/.done"
echo "$out" >"$last"
# entries not used for an hour are stale
find "$CACHE/vm" -maxdepth 1 -name "dkms-$KVER-*" ! -name "${out##*/}" \
	-mmin +60 -exec rm -rf {} +
echo "$out"
