#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The layer check of make static: every call (an undefined symbol of one
# object that another object of the module defines) must go down the
# layers of a list: Documentation/layers.txt for the driver,
# Documentation/sim-layers.txt for the model.
#
#   tools/layers.sh [DIR [LIST]]
#
# DIR holds the built objects (default: the repository, after make
# modules; sim for the model), LIST the layers (default
# Documentation/layers.txt).  Prints the calls against the layers and,
# last, one line "layers: N calls, M against the layers"; exit status 1 when M > 0, when
# an object is on no line or on two, or when a listed file was not built.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:-$top}
list=${2:-$top/Documentation/layers.txt}

declare -A level
n=0
while read -r line; do
	line=${line%%#*}
	[ -n "${line// /}" ] || continue
	n=$((n + 1))
	for f in $line; do
		if [ -n "${level[$f]:-}" ]; then
			echo "layers: $f is on two lines" >&2
			exit 1
		fi
		level[$f]=$n
	done
done <"$list"

objs=()
for o in "$dir"/*.o; do
	f=${o##*/}
	f=${f%.o}
	case "$f" in irdma | irdma_sim | *.mod) continue ;; esac
	if [ -z "${level[$f]:-}" ]; then
		echo "layers: $f.o is on no line of ${list#"$top"/}" >&2
		exit 1
	fi
	objs+=("$o")
done
for f in "${!level[@]}"; do
	[ -f "$dir/$f.o" ] || { echo "layers: $f is listed but $f.o was not built" >&2; exit 1; }
done

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for o in "${objs[@]}"; do
	f=${o##*/}
	f=${f%.o}
	nm --defined-only "$o" | awk -v f="$f" '$2 ~ /^[TDBR]$/ { print $3, f }'
done | sort >"$tmp/defs"
for o in "${objs[@]}"; do
	f=${o##*/}
	f=${f%.o}
	nm --undefined-only "$o" | awk -v f="$f" '{ print $2, f }'
done | sort >"$tmp/uses"

calls=0 bad=0
while read -r sym from to; do
	[ "$from" != "$to" ] || continue
	calls=$((calls + 1))
	if [ "${level[$from]}" -ge "${level[$to]}" ]; then
		echo "layers: $from calls $sym of $to (line ${level[$from]} -> ${level[$to]})"
		bad=$((bad + 1))
	fi
done < <(join "$tmp/uses" "$tmp/defs")
echo "layers: $calls calls, $bad against the layers"
[ "$bad" = 0 ]
