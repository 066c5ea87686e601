#!/bin/bash
# Print the kernel release the project targets: the one Debian's
# linux-image-amd64 metapackage depends on (not the running kernel).
set -euo pipefail
dep=$(dpkg-query -W -f='${Depends}' linux-image-amd64 2>/dev/null || true)
kver=$(sed -n 's/^linux-image-\([^ ,]*\).*/\1/p' <<<"$dep")
if [ -z "$kver" ]; then
	# not installed yet: newest installed 6.1 image
	kver=$(ls -1 /lib/modules 2>/dev/null | grep '^6\.1\.' | sort -V | tail -n1)
fi
[ -n "$kver" ] || { echo "linux-image-amd64 is not installed (make deps)" >&2; exit 1; }
echo "$kver"
