#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make fresh: run the README's first command (make demo) on a bare Debian 12.
#
# Builds a minimal Debian 12 root with mmdebstrap (only what "minbase" has,
# plus make and git: what a reader needs to clone the tree and type the
# command), copies the committed tree of this checkout into it, and runs
# "make demo" there under chroot as root.  Whatever the project forgot to
# install makes it fail, as it would on a new machine.  The root is made
# anew each run (a few minutes); nothing of it is kept.
#
#   tools/fresh.sh [TARGET]     TARGET defaults to demo
#
# Needs root and the Debian mirror; the caches of the host are not used
# (the root has its own empty /var/cache/irdma), so the run is a cold one.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/.." && pwd)
target=${1:-demo}

[ "$(id -u)" = 0 ] || { echo "fresh.sh: run as root" >&2; exit 1; }
if ! command -v mmdebstrap >/dev/null; then
	DEBIAN_FRONTEND=noninteractive apt-get -y -q install --no-install-recommends mmdebstrap ||
		{ apt-get -q update && DEBIAN_FRONTEND=noninteractive \
			apt-get -y -q install --no-install-recommends mmdebstrap; }
fi

work=$(mktemp -d /var/tmp/irdma-fresh.XXXXXX)
root=$work/root
mounted=()
# shellcheck disable=SC2317 # called by the EXIT trap
cleanup() {
	local m i
	for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do
		m=${mounted[$i]}
		umount -l "$m" 2>/dev/null || true
	done
	rm -rf --one-file-system "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

echo "fresh.sh: building a minimal Debian 12 root in $root"
mmdebstrap --variant=minbase --include=make,git,ca-certificates \
	bookworm "$root" >"$work/mmdebstrap.log" 2>&1 ||
	{ tail -20 "$work/mmdebstrap.log"; exit 1; }

# the committed tree only: what a clone would hold
mkdir -p "$root/root/irdma"
git -C "$repo" archive HEAD | tar -C "$root/root/irdma" -xf -
git -C "$root/root/irdma" init -q
git -C "$root/root/irdma" add -A
git -C "$root/root/irdma" -c user.name=fresh -c user.email=fresh@localhost \
	commit -qm fresh

for m in proc sys dev dev/pts; do
	mount --bind "/$m" "$root/$m"
	mounted+=("$root/$m")
done
mount -t tmpfs tmpfs "$root/tmp"
mounted+=("$root/tmp")

echo "fresh.sh: make $target in the fresh root"
start=$(date +%s)
set +e
chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
	TERM=dumb bash -c "cd /root/irdma && make $target"
rc=$?
set -e
echo "fresh.sh: make $target exited $rc after $(($(date +%s) - start)) s"
exit "$rc"
