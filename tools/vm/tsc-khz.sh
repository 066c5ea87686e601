#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Print the host's TSC rate in kHz (tools/vm/tsc-khz.c, built once into
# $CACHE/vm), or nothing when it cannot be measured (not x86, no compiler):
# the guest then calibrates on its own.  The rate is fixed for a host's
# boot: it is measured once per boot and kept beside the program.
#
#   tsc-khz.sh
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
CACHE=${CACHE:-/var/cache/irdma}
src=$here/tsc-khz.c
[ "$(uname -m)" = x86_64 ] || exit 0
bin=$CACHE/vm/tsc-khz-$(sha256sum "$src" | cut -c1-12)
if [ ! -x "$bin" ]; then
	if ! mkdir -p "$CACHE/vm" ||
		! cc -O2 -Wall -o "$bin.tmp.$$" "$src" 2>/dev/null ||
		! mv "$bin.tmp.$$" "$bin"; then
		rm -f "$bin.tmp.$$"
		exit 0
	fi
fi
boot=$(cat /proc/sys/kernel/random/boot_id 2>/dev/null)
saved=$bin.${boot:-none}
if [ ! -s "$saved" ]; then
	khz=$("$bin" 2>/dev/null) || exit 0
	rm -f "$bin".*-*-*-*-*
	echo "$khz" >"$saved.tmp.$$" && mv "$saved.tmp.$$" "$saved"
fi
cat "$saved" 2>/dev/null || true
