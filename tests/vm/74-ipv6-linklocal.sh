#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# timeout: 420
#
# IPv6 link-local addresses (fe80::/10) mean something only together with
# an interface: "fe80::b%va".  Netns a gets a second interface (a dummy,
# ll0) whose fe80::/64 route comes before va's, so a lookup that ignores
# the address's scope leaves through ll0 and the connect fails; the CM
# must route on the interface sin6_scope_id names.  rping both ways
# between irdma0 (va) and siw0 (vb) on link-local addresses, the data
# verified.  Before the CM took the scope, the irdma client failed.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
P=ipv6-ll
LL_A=fe80::a:1
LL_B=fe80::b:2

t_require "$P/tools" rdma rping || t_exit
t_need_ours "$P" irdma irdma_sim
t_iw_setup "$P"
# ll0 first, then va taken down and up: va's fe80::/64 route now comes
# after ll0's, the one a scope-blind lookup takes
if ! t_check "$P/addrs" t_in "$T_NS_A" sh -c "
	ip link add ll0 type dummy &&
	ip addr add fe80::d:1/64 dev ll0 nodad &&
	ip link set ll0 up &&
	ip link set $T_IF_A down && ip link set $T_IF_A up &&
	ip addr add $LL_A/64 dev $T_IF_A nodad" ||
   ! t_check "$P/addrs-b" t_in "$T_NS_B" ip addr add "$LL_B/64" dev "$T_IF_B" nodad; then
	t_exit
fi
t_wait 5 t_carrier "$T_NS_A" "$T_IF_A"
t_wait 5 t_carrier "$T_NS_B" "$T_IF_B"
t_log "netns a, link-local routes: $(t_in "$T_NS_A" ip -6 route show fe80::/64 | tr '\n' ';')"
t_check "$P/link-add-siw" t_in "$T_NS_B" rdma link add siw0 type siw netdev "$T_IF_B"
t_defer rdma link delete siw0
# the neighbour, once, outside rping's timeouts
t_in "$T_NS_A" ping -c 1 -W 5 "$LL_B%$T_IF_A" >/dev/null 2>&1

# irdma active: the route and the neighbour on va, as the scope says
t_rping "$P/irdma-client-siw" "$T_NS_B" "$T_NS_A" "$LL_B%$T_IF_A" 7401 "$LL_B%$T_IF_B"
# irdma passive: the listener on a scoped address, siw connects
t_rping "$P/siw-client-irdma" "$T_NS_A" "$T_NS_B" "$LL_A%$T_IF_B" 7402 "$LL_A%$T_IF_A"

t_check "$P/link-delete-siw" rdma link delete siw0
t_dmesg_check "$P/dmesg"
t_exit
