// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * irdma_sim - transmit of the frames the model builds (the ILQ's, through
 * its UDA QP).
 *
 * irdma_sim_net_xmit() completes a segment taken from a UDA
 * send WQE into a frame, as the adapter does from the AH and its ARP
 * entry: Ethernet header (ARP entry's MAC to, AH's source MAC from), an
 * 802.1Q tag when the AH says so, an IPv4 header (TOS, TTL, DF, an
 * identification, header checksum) or an IPv6 header (traffic class, flow
 * label, hop limit), and the TCP checksum (the driver leaves the field 0).
 * The frame leaves through dev_queue_xmit(); a loopback AH's frame goes to
 * the netdev's own receive path (netif_rx()), where steering finds it
 * like any other.  Neither is called with sim->lock held: on veth the
 * peer's reply can run through the rx_handler inside them.
 */

#include <linux/etherdevice.h>
#include <linux/if_vlan.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/tcp.h>
#include <net/checksum.h>
#include <net/ip.h>
#include <net/ip6_checksum.h>
#include <net/ipv6.h>
#include <net/tcp.h>

#include "sim.h"

/**
 * irdma_sim_net_alloc() - an skb for a segment to send
 * @sim: instance
 * @len: TCP header and payload bytes
 *
 * The skb has room in front for the Ethernet, VLAN and IP headers.
 *
 * Context: any; does not sleep.
 * Return: the skb, @len bytes long, or NULL.
 */
struct sk_buff *irdma_sim_net_alloc(struct irdma_sim *sim, u32 len)
{
	struct net_device *ndev = sim->netdev;
	u32 head = LL_RESERVED_SPACE(ndev) + VLAN_HLEN + sizeof(struct ipv6hdr);
	struct sk_buff *skb;

	skb = alloc_skb(head + len + ndev->needed_tailroom, GFP_ATOMIC);
	if (!skb)
		return NULL;
	skb_reserve(skb, head);
	skb_put(skb, len);
	return skb;
}

/**
 * irdma_sim_net_xmit() - complete a segment into a frame and send it
 * @sim: instance
 * @skb: from irdma_sim_net_alloc(), holding the TCP segment; consumed
 * @tx: L2/L3 fields from the AH and its ARP entry
 *
 * Context: process context (the instance's workqueue), sim->lock not
 * held: the reply may come back through the rx_handler in here.
 */
void irdma_sim_net_xmit(struct irdma_sim *sim, struct sk_buff *skb,
			const struct irdma_sim_tx *tx)
{
	struct net_device *ndev = sim->netdev;
	struct in6_addr saddr, daddr;
	struct ipv6hdr *ip6h;
	unsigned long flags;
	struct ethhdr *eth;
	struct iphdr *iph;
	struct tcphdr *th;
	u32 len = skb->len;
	__be16 proto;
	__wsum csum;
	u32 ip_len;
	bool ok;
	int rc;

	skb_reset_transport_header(skb);
	th = tcp_hdr(skb);
	th->check = 0;
	csum = csum_partial(th, len, 0);
	if (tx->ipv4) {
		iph = skb_push(skb, sizeof(*iph));
		skb_reset_network_header(skb);
		memset(iph, 0, sizeof(*iph));
		iph->version = 4;
		iph->ihl = sizeof(*iph) / 4;
		iph->tos = tx->tc;
		iph->tot_len = htons(sizeof(*iph) + len);
		iph->id = htons(tx->ip_id);
		iph->frag_off = htons(IP_DF);
		iph->ttl = tx->hop_limit;
		iph->protocol = IPPROTO_TCP;
		iph->saddr = htonl(tx->src_ip[3]);
		iph->daddr = htonl(tx->dst_ip[3]);
		ip_send_check(iph);
		th->check = csum_tcpudp_magic(iph->saddr, iph->daddr, len,
					      IPPROTO_TCP, csum);
		proto = htons(ETH_P_IP);
	} else {
		irdma_sim_ip_be(&saddr, tx->src_ip);
		irdma_sim_ip_be(&daddr, tx->dst_ip);
		ip6h = skb_push(skb, sizeof(*ip6h));
		skb_reset_network_header(skb);
		ip6_flow_hdr(ip6h, tx->tc,
			     htonl(tx->flow_label) & IPV6_FLOWLABEL_MASK);
		ip6h->payload_len = htons(len);
		ip6h->nexthdr = IPPROTO_TCP;
		ip6h->hop_limit = tx->hop_limit;
		ip6h->saddr = saddr;
		ip6h->daddr = daddr;
		th->check = csum_ipv6_magic(&saddr, &daddr, len, IPPROTO_TCP,
					    csum);
		proto = htons(ETH_P_IPV6);
	}
	ip_len = skb->len;
	eth = skb_push(skb, ETH_HLEN);
	skb_reset_mac_header(skb);
	ether_addr_copy(eth->h_dest, tx->dmac);
	ether_addr_copy(eth->h_source, tx->smac);
	eth->h_proto = proto;
	if (tx->insert_vlan)
		__vlan_hwaccel_put_tag(skb, htons(ETH_P_8021Q), tx->vlan_tci);
	skb->protocol = proto;
	skb->dev = ndev;
	skb->ip_summed = CHECKSUM_NONE;
	len = skb->len;

	if (tx->loopback) {
		skb->protocol = eth_type_trans(skb, ndev);
		ok = netif_rx(skb) == NET_RX_SUCCESS;
	} else if (!netif_running(ndev)) {
		kfree_skb(skb);
		ok = false;
	} else {
		/* net_xmit_eval() evaluates its argument twice */
		rc = dev_queue_xmit(skb);
		ok = !net_xmit_eval(rc);
	}

	spin_lock_irqsave(&sim->lock, flags);
	if (!ok) {
		sim->net.tx_dropped++;
	} else {
		irdma_sim_gstat_ip(sim, tx->ipv4, false, ip_len, 1);
		if (tx->loopback)
			sim->net.tx_loopback++;
		else
			sim->net.tx_sent++;
		sim->net.tx_bytes += len;
	}
	spin_unlock_irqrestore(&sim->lock, flags);
}
