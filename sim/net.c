// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * irdma_sim - the wire: the instance's netdev.
 *
 * Receive steering.  Until a QP takes its connection over (tcp.c), an
 * rx_handler on the netdev plays the adapter's qhash steering.  A frame
 * addressed to the netdev's MAC that carries an IPv4 or IPv6 TCP segment
 * (not a fragment, no IPv6 extension header) is looked up in the qhash
 * table: first a TCP_ESTABLISHED entry by 4-tuple,
 * then, for a SYN without ACK or RST, a TCP_SYN (listener) entry by local
 * address and port.  Entries match the frame's VLAN: an entry with a VLAN
 * id matches frames tagged with that id, one without matches untagged
 * frames.  A matched frame is consumed: its headers are checked (no IPv4
 * options, IPv4 header checksum; the TCP checksum unless the stack
 * vouches for it: veth delivers CHECKSUM_PARTIAL frames whose checksum
 * field holds only the pseudo-header sum) and it goes to the target QP's
 * receive queue (uda.c), or is dropped and counted.  Every other frame
 * passes to the stack untouched.  The frame is read with skb_copy_bits()
 * and skb_header_pointer(): veth has TSO/GRO, so an skb may be non-linear
 * or larger than the MTU.
 *
 * VLANs: the stack hands a tagged frame to the 802.1Q device of its id
 * before rx_handlers run, with the tag removed.  So the rx_handler is also
 * registered on the netdev's 802.1Q devices (those present at attach time
 * in the netdev's namespace, and those registered later); a frame arriving
 * there carries that device's VLAN id (its priority bits are lost: the TCI
 * reported has PCP 0).  On the netdev itself the rx_handler sees tagged
 * frames only for ids without a VLAN device.
 *
 * Transmit is in xmit.c.
 *
 * Attachment.  The rx_handler is registered when the instance is created
 * (rdma link add runs without rtnl, so the model takes it) and
 * unregistered when the instance stops, or at once when the netdev is
 * unregistered (the netdev notifier, rtnl held).  A netdev has one
 * rx_handler slot: on a bridge, bond, team, macvlan or Open vSwitch port
 * it is taken, and rdma link add fails with -EBUSY; a VLAN device whose
 * slot is taken is left out, with a warning.
 */

#include <linux/etherdevice.h>
#include <linux/if_vlan.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/rtnetlink.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/tcp.h>
#include <net/checksum.h>
#include <net/ip.h>
#include <net/ip6_checksum.h>
#include <net/ipv6.h>
#include <net/tcp.h>

#include "sim.h"

/**
 * irdma_sim_frame_parse() - find the addresses and ports of a TCP frame
 * @skb: received frame, data at the network header
 * @f: filled (addresses in the qhash layout)
 *
 * Return: true for an unfragmented IPv4 or IPv6 TCP segment whose length
 * fields agree with @skb; false sends the frame to the stack.
 */
static bool irdma_sim_frame_parse(const struct sk_buff *skb,
				  struct irdma_sim_frame *f)
{
	const struct ipv6hdr *ip6h;
	const struct iphdr *iph;
	const struct tcphdr *th;
	struct ipv6hdr _ip6h;
	struct tcphdr _th;
	struct iphdr _iph;
	u32 l3_len;
	int i;

	memset(f, 0, sizeof(*f));
	switch (skb->protocol) {
	case htons(ETH_P_IP):
		iph = skb_header_pointer(skb, 0, sizeof(_iph), &_iph);
		if (!iph || iph->version != 4 || iph->ihl < 5 ||
		    iph->protocol != IPPROTO_TCP ||
		    (iph->frag_off & htons(IP_MF | IP_OFFSET)))
			return false;
		f->ipv4 = true;
		f->l3_hlen = iph->ihl * 4;
		l3_len = ntohs(iph->tot_len);
		f->lip[3] = ntohl(iph->daddr);
		f->rip[3] = ntohl(iph->saddr);
		break;
	case htons(ETH_P_IPV6):
		ip6h = skb_header_pointer(skb, 0, sizeof(_ip6h), &_ip6h);
		if (!ip6h || ip6h->version != 6 || ip6h->nexthdr != IPPROTO_TCP)
			return false;
		f->l3_hlen = sizeof(*ip6h);
		l3_len = sizeof(*ip6h) + ntohs(ip6h->payload_len);
		for (i = 0; i < 4; i++) {
			f->lip[i] = ntohl(ip6h->daddr.s6_addr32[i]);
			f->rip[i] = ntohl(ip6h->saddr.s6_addr32[i]);
		}
		break;
	default:
		return false;
	}
	if (l3_len < f->l3_hlen + sizeof(*th) || l3_len > skb->len)
		return false;
	f->tcp_len = l3_len - f->l3_hlen;
	th = skb_header_pointer(skb, f->l3_hlen, sizeof(_th), &_th);
	if (!th || th->doff < 5 || th->doff * 4 > f->tcp_len)
		return false;
	f->lport = ntohs(th->dest);
	f->rport = ntohs(th->source);
	f->flags = tcp_flag_byte(th);
	if (!skb_mac_header_was_set(skb) ||
	    skb_network_header(skb) - skb_mac_header(skb) < ETH_HLEN)
		return false;
	ether_addr_copy(f->smac, eth_hdr(skb)->h_source);
	if (skb_vlan_tag_present(skb)) {
		f->vlan_valid = true;
		f->vlan_tci = skb_vlan_tag_get(skb);
	}
	return true;
}

/**
 * irdma_sim_steer() - the qhash entry a frame matches
 * @sim: instance
 * @f: the frame; @f->syn is set when a TCP_SYN entry matched
 *
 * An entry without a VLAN takes untagged and priority-tagged (VLAN id 0)
 * frames, as IEEE 802.1Q puts both on the port's untagged network.
 *
 * Context: RCU read side (the rx_handler).
 * Return: the target QP id, or -ENOENT when no entry matches.
 */
static int irdma_sim_steer(struct irdma_sim *sim, struct irdma_sim_frame *f)
{
	bool pure_syn = (f->flags & (TCPHDR_SYN | TCPHDR_ACK | TCPHDR_RST)) ==
			TCPHDR_SYN;
	/* VLAN id 0 is a priority tag: the frame is on the untagged network */
	u16 vid = f->vlan_valid ? f->vlan_tci & VLAN_VID_MASK : 0;
	u32 gen = READ_ONCE(sim->gen);
	struct irdma_sim_qhash *e;
	int syn_qpn = -ENOENT;

	hash_for_each_possible_rcu(sim->qhash, e, node, f->lport) {
		if (e->gen != gen || e->ipv4 != f->ipv4 ||
		    e->lport != f->lport || e->vlan != vid ||
		    memcmp(e->lip, f->lip, sizeof(f->lip)))
			continue;
		if (e->type == IRDMA_QHASH_TYPE_TCP_ESTABLISHED) {
			if (e->rport == f->rport &&
			    !memcmp(e->rip, f->rip, sizeof(f->rip)))
				return READ_ONCE(e->qpn);
		} else if (e->type == IRDMA_QHASH_TYPE_TCP_SYN && pure_syn) {
			syn_qpn = READ_ONCE(e->qpn);
		}
	}
	f->syn = syn_qpn >= 0;
	return syn_qpn;
}

/**
 * irdma_sim_frame_check() - check the headers of a steered frame
 * @skb: the frame
 * @f: parsed by irdma_sim_frame_parse(); bad_hdr and bad_csum are set
 */
static void irdma_sim_frame_check(const struct sk_buff *skb,
				  struct irdma_sim_frame *f)
{
	struct in6_addr saddr, daddr;
	const struct iphdr *iph;
	struct iphdr _iph;
	__wsum csum;

	if (f->ipv4) {
		/* the GEN_2 buffer has room for a 20-byte IPv4 header only */
		iph = f->l3_hlen == sizeof(*iph) ?
			skb_header_pointer(skb, 0, sizeof(_iph), &_iph) : NULL;
		if (!iph || ip_fast_csum(iph, iph->ihl)) {
			f->bad_hdr = true;
			return;
		}
	}
	/* locally made (veth: only the pseudo-header sum) or already checked */
	if (skb->ip_summed == CHECKSUM_PARTIAL ||
	    skb->ip_summed == CHECKSUM_UNNECESSARY)
		return;
	csum = skb_checksum(skb, f->l3_hlen, f->tcp_len, 0);
	if (f->ipv4) {
		f->bad_csum = csum_tcpudp_magic(htonl(f->rip[3]),
						htonl(f->lip[3]), f->tcp_len,
						IPPROTO_TCP, csum) != 0;
	} else {
		irdma_sim_ip_be(&saddr, f->rip);
		irdma_sim_ip_be(&daddr, f->lip);
		f->bad_csum = csum_ipv6_magic(&saddr, &daddr, f->tcp_len,
					      IPPROTO_TCP, csum) != 0;
	}
}

/**
 * irdma_sim_rx_handler() - the netdev's rx_handler: qhash steering
 * @pskb: the received frame
 *
 * Context: softirq (or process context with BHs off), RCU read side.
 * Return: RX_HANDLER_CONSUMED for a frame a qhash entry matched (it went
 * to the ILQ or was dropped), RX_HANDLER_PASS for every other frame.
 */
static rx_handler_result_t irdma_sim_rx_handler(struct sk_buff **pskb)
{
	struct sk_buff *skb = *pskb;
	struct irdma_sim *sim = rcu_dereference(skb->dev->rx_handler_data);
	struct irdma_sim_frame f;
	int qpn;

	if (skb->pkt_type != PACKET_HOST || !irdma_sim_frame_parse(skb, &f))
		return RX_HANDLER_PASS;
	if (is_vlan_dev(skb->dev)) {
		/* an 802.1Q device of the netdev: the stack took the tag off */
		f.vlan_valid = true;
		f.vlan_tci = vlan_dev_priv(skb->dev)->vlan_id;
	}
	/* a quad an offloaded QP owns: its socket's, or held meanwhile */
	qpn = irdma_sim_iw_steal(sim, skb, &f);
	if (qpn >= 0)
		return qpn;
	qpn = irdma_sim_steer(sim, &f);
	if (qpn < 0)
		return RX_HANDLER_PASS;
	irdma_sim_frame_check(skb, &f);
	if (irdma_sim_uda_rx(sim, qpn, skb, &f))
		consume_skb(skb);
	else
		kfree_skb(skb);
	return RX_HANDLER_CONSUMED;
}

/**
 * irdma_sim_is_vlan_of() - whether a netdev is an 802.1Q device on ours
 * @sim: instance
 * @dev: netdev
 *
 * Return: true for a VLAN device whose lower device is @sim->netdev.
 */
static bool irdma_sim_is_vlan_of(struct irdma_sim *sim, struct net_device *dev)
{
	return is_vlan_dev(dev) && vlan_dev_priv(dev)->real_dev == sim->netdev &&
	       vlan_dev_priv(dev)->vlan_proto == htons(ETH_P_8021Q);
}

/**
 * irdma_sim_vlan_add() - register the rx_handler on a VLAN device too
 * @sim: instance
 * @dev: 802.1Q device on @sim->netdev
 *
 * Context: rtnl held; may sleep.
 */
static void irdma_sim_vlan_add(struct irdma_sim *sim, struct net_device *dev)
{
	struct irdma_sim_vlan *v;
	int err;

	ASSERT_RTNL();

	list_for_each_entry(v, &sim->vlans, node)
		if (v->dev == dev)
			return;
	v = kzalloc(sizeof(*v), GFP_KERNEL);
	if (!v)
		return;
	err = netdev_rx_handler_register(dev, irdma_sim_rx_handler, sim);
	if (err) {
		dev_warn_ratelimited(&sim->dev,
				     "VLAN device %s: no receive handler (%d): its TCP frames are not steered\n",
				     netdev_name(dev), err);
		kfree(v);
		return;
	}
	v->dev = dev;
	netdev_hold(dev, &v->tracker, GFP_KERNEL);
	list_add_tail(&v->node, &sim->vlans);
}

/**
 * irdma_sim_vlan_del() - unregister the rx_handler from a VLAN device
 * @sim: instance
 * @v: the device's entry
 *
 * Context: rtnl held; may sleep.
 */
static void irdma_sim_vlan_del(struct irdma_sim *sim, struct irdma_sim_vlan *v)
{
	ASSERT_RTNL();

	if (rtnl_dereference(v->dev->rx_handler) == irdma_sim_rx_handler &&
	    rtnl_dereference(v->dev->rx_handler_data) == sim)
		netdev_rx_handler_unregister(v->dev);
	list_del(&v->node);
	netdev_put(v->dev, &v->tracker);
	kfree(v);
}

/**
 * irdma_sim_net_attach() - register the rx_handler on the netdev
 * @sim: instance being created
 *
 * Also on the netdev's 802.1Q devices in its namespace.
 *
 * Context: rtnl held; may sleep.
 * Return: 0, -EBUSY when the netdev's rx_handler slot is taken, or
 * another negative errno.
 */
int irdma_sim_net_attach(struct irdma_sim *sim)
{
	struct net_device *dev;
	int err;

	ASSERT_RTNL();

	err = netdev_rx_handler_register(sim->netdev, irdma_sim_rx_handler, sim);
	if (!err) {
		for_each_netdev(dev_net(sim->netdev), dev)
			if (irdma_sim_is_vlan_of(sim, dev))
				irdma_sim_vlan_add(sim, dev);
	} else if (err == -EBUSY)
		dev_err_ratelimited(&sim->dev,
				    "%s already has a receive handler (a bridge, bond, team, macvlan or Open vSwitch port?): the model cannot steer its TCP frames\n",
				    netdev_name(sim->netdev));
	else if (err)
		dev_err_ratelimited(&sim->dev,
				    "cannot register a receive handler on %s: %d\n",
				    netdev_name(sim->netdev), err);
	return err;
}

/**
 * irdma_sim_net_detach() - unregister the rx_handler wherever it is
 * @sim: instance
 *
 * When this returns, no rx_handler call uses @sim any more.
 *
 * Context: rtnl held; may sleep.
 */
void irdma_sim_net_detach(struct irdma_sim *sim)
{
	struct net_device *ndev = sim->netdev;
	struct irdma_sim_vlan *v, *tmp;

	ASSERT_RTNL();

	list_for_each_entry_safe(v, tmp, &sim->vlans, node)
		irdma_sim_vlan_del(sim, v);
	if (rtnl_dereference(ndev->rx_handler) == irdma_sim_rx_handler &&
	    rtnl_dereference(ndev->rx_handler_data) == sim)
		netdev_rx_handler_unregister(ndev);
}

/**
 * irdma_sim_net_event() - follow the netdev and its VLAN devices
 * @sim: instance on the instance list
 * @event: NETDEV_* event
 * @dev: netdev it is about
 *
 * A new 802.1Q device on the netdev gets the rx_handler; a VLAN device
 * going away loses it; the netdev going away detaches the instance.
 *
 * Context: the netdev notifier, rtnl held; may sleep.
 */
void irdma_sim_net_event(struct irdma_sim *sim, unsigned long event,
			 struct net_device *dev)
{
	struct irdma_sim_vlan *v;

	ASSERT_RTNL();

	switch (event) {
	case NETDEV_REGISTER:
		if (irdma_sim_is_vlan_of(sim, dev) && irdma_sim_net_attached(sim))
			irdma_sim_vlan_add(sim, dev);
		break;
	case NETDEV_UNREGISTER:
		if (dev == sim->netdev) {
			irdma_sim_net_detach(sim);
			break;
		}
		list_for_each_entry(v, &sim->vlans, node) {
			if (v->dev == dev) {
				irdma_sim_vlan_del(sim, v);
				break;
			}
		}
		break;
	}
}

/**
 * irdma_sim_net_show_vlans() - debugfs: the VLAN devices steered too
 * @sim: instance
 * @s: seq_file
 *
 * Context: process context; takes rtnl.
 */
void irdma_sim_net_show_vlans(struct irdma_sim *sim, struct seq_file *s)
{
	struct irdma_sim_vlan *v;

	rtnl_lock();
	list_for_each_entry(v, &sim->vlans, node)
		seq_printf(s, "vlan_dev %s id %u\n", netdev_name(v->dev),
			   vlan_dev_priv(v->dev)->vlan_id);
	rtnl_unlock();
}

/**
 * irdma_sim_net_attached() - whether the rx_handler is registered
 * @sim: instance
 *
 * Return: true while frames are steered (a snapshot, for debugfs).
 */
bool irdma_sim_net_attached(struct irdma_sim *sim)
{
	return rcu_access_pointer(sim->netdev->rx_handler) == irdma_sim_rx_handler &&
	       rcu_access_pointer(sim->netdev->rx_handler_data) == sim;
}
