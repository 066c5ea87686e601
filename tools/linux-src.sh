#!/bin/bash
# Extract Debian's linux-source-6.1 into the cache, keyed by its version.
#   linux-src.sh          extract if needed, print the path
#   linux-src.sh --path   only print the path
set -euo pipefail
CACHE=${CACHE:-/var/cache/irdma}
ver=$(dpkg-query -W -f='${Version}' linux-source-6.1 2>/dev/null || echo none)
dir=$CACHE/src-$ver/linux-source-6.1
if [ "${1:-}" = --path ]; then
	echo "$dir"
	exit 0
fi
[ "$ver" != none ] || { echo "linux-source-6.1 is not installed (make deps)" >&2; exit 1; }
if [ ! -f "$dir/.extracted" ]; then
	rm -rf "$CACHE/src-$ver"
	mkdir -p "$CACHE/src-$ver"
	tar -C "$CACHE/src-$ver" -xJf /usr/src/linux-source-6.1.tar.xz
	touch "$dir/.extracted"
fi
echo "$dir"
