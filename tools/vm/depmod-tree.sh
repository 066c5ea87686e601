# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Sourced by tools/vm/modules.sh and tools/vm/dkms.sh.
#
# depmod_tree MDIR TREE: fill TREE (an empty lib/modules/KVER under a
# depmod -b root) with links to the kernel's modules of MDIR and copies of
# the module lists depmod reads, leaving out updates/ (the caller puts the
# guest's own there), the old modules.* output and the build links.  depmod
# -b follows the links, so it sees the kernel's modules plus the caller's
# updates/ only, without a copy of the tree.
depmod_tree() {
	local mdir=$1 tree=$2 f n
	for f in "$mdir"/*; do
		n=${f##*/}
		case "$n" in
		updates | modules.* | build | source) ;;
		*) ln -s "$f" "$tree/$n" ;;
		esac
	done
	for n in modules.order modules.builtin modules.builtin.modinfo; do
		[ ! -f "$mdir/$n" ] || cp "$mdir/$n" "$tree/"
	done
}
