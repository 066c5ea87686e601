// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * irdma - iWARP connection manager.
 *
 * The TCP handshake, the MPA exchange (RFC 5044, RFC 6581) and the close
 * handshake run here on segments the adapter steers to the ILQ; an
 * established connection is handed to the adapter's TCP offload.  The
 * contract with the rest of the driver is described at the top of cm.h.
 *
 * The file has two parts.  The first ("wire formats") holds pure
 * functions over bytes and node fields: segment parsing, TCP options, MPA
 * frame building, parsing and IRD/ORD/RTR negotiation, window checks.  It
 * also compiles in user space (IRDMA_CM_WIRE_ONLY, tests/fuzz) so the
 * parsers run under libFuzzer.  The second part is the state machine.
 *
 * Locking: cm_core->mutex serialises everything that touches nodes,
 * listeners and irdma_qp_cm; the work dispatcher and the iw_cm provider
 * calls hold it.  Received frames, timers and hw-layer events only queue
 * work (cm_core->work_lock guards the "dead" flag for those paths).
 */

#include <linux/kernel.h>
#include <linux/jhash.h>
#include <linux/string.h>
#include <linux/errno.h>
#include <asm/unaligned.h>
#include "cm.h"

#ifndef IRDMA_CM_WIRE_ONLY
#include <linux/slab.h>
#include <linux/jiffies.h>
#include <linux/inetdevice.h>
#include <linux/if_vlan.h>
#include <linux/etherdevice.h>
#include <net/addrconf.h>
#include <net/ip6_route.h>
#include <net/route.h>
#include <net/neighbour.h>
#include <net/arp.h>
#include <net/ndisc.h>
#include <net/secure_seq.h>
#include <rdma/iw_cm.h>

#include "type.h"

#define CREATE_TRACE_POINTS
#include "cm_trace.h"

/**
 * irdma_cm_ibdev() - ib_device of a CM instance, for messages
 * @core: CM instance
 *
 * Return: the ib_device the core belongs to.
 */
static struct ib_device *irdma_cm_ibdev(struct irdma_cm_core *core)
{
	return &core->iwdev->ibdev;
}

/**
 * irdma_qp_cm() - the CM state embedded in a QP
 * @iwqp: QP
 *
 * Return: &iwqp->cm (protected by cm_core->mutex).
 */
static struct irdma_qp_cm *irdma_qp_cm(struct irdma_qp *iwqp)
{
	return &iwqp->cm;
}

#define irdma_cm_dbg(core, fmt, ...) \
	ibdev_dbg(irdma_cm_ibdev(core), "CM: " fmt, ##__VA_ARGS__)
#define irdma_cm_err(core, fmt, ...) \
	ibdev_err_ratelimited(irdma_cm_ibdev(core), "CM: " fmt, ##__VA_ARGS__)
#endif /* !IRDMA_CM_WIRE_ONLY */

/* largest ILQ frame taken (GEN_2 ILQ buffers are 1024 bytes) */
#define IRDMA_CM_MAX_RX_LEN	4096

/* TCP options */
#define IRDMA_TCPOPT_EOL	0
#define IRDMA_TCPOPT_NOP	1
#define IRDMA_TCPOPT_MSS	2
#define IRDMA_TCPOPT_WS		3
#define IRDMA_TCPOLEN_MSS	4
#define IRDMA_TCPOLEN_WS	3

/* IPv4 flags and fragment offset; the CM's protocol */
#define IRDMA_IP4_MF		0x2000	/* more fragments */
#define IRDMA_IP4_FRAG_OFFSET	0x1FFF
#define IRDMA_IPPROTO_TCP	6

/*
 * ------------------------------------------------------------------------
 * Wire formats (pure; also built in user space for the fuzzer)
 * ------------------------------------------------------------------------
 */

/**
 * irdma_seq_before() - serial-number comparison of TCP sequence numbers
 * @a: first sequence number
 * @b: second sequence number
 *
 * Return: true if @a comes before @b modulo 2^32.
 */
static inline bool irdma_seq_before(u32 a, u32 b)
{
	return (s32)(a - b) < 0;
}

/**
 * irdma_copy_ip_ntohl() - copy an IPv6 address from network to host words
 * @dst: four host-order words, [0] most significant
 * @src: four network-order words
 */
static void irdma_copy_ip_ntohl(u32 *dst, const __be32 *src)
{
	int i;

	for (i = 0; i < 4; i++)
		dst[i] = be32_to_cpu(src[i]);
}

/**
 * irdma_copy_ip_htonl() - copy an IPv6 address from host to network words
 * @dst: four network-order words
 * @src: four host-order words, [0] most significant
 */
static void irdma_copy_ip_htonl(__be32 *dst, const u32 *src)
{
	int i;

	for (i = 0; i < 4; i++)
		dst[i] = cpu_to_be32(src[i]);
}

/**
 * irdma_cm_parse_segment() - validate a GEN_2 ILQ buffer and describe it
 * @buf: receive buffer (L3 area of 40 bytes, then the TCP header)
 * @len: bytes written by the adapter (CQE payload length)
 * @ipv4: the CQE says IPv4
 * @seg: filled with addresses, ports, header fields, options and payload
 *
 * Checks the IP version and protocol, the IP length against @len, the TCP
 * data offset and the option area.  IPv4 options and IPv6 extension
 * headers do not fit the GEN_2 layout and are refused.  An IPv4 fragment
 * (MF set or a fragment offset) is refused: the CM does not reassemble,
 * and a first fragment would pass a truncated segment off as whole.
 * Pointers in @seg point into @buf.
 *
 * Context: any; pure function.
 * Return: 0, -EMSGSIZE for an IPv4 fragment, or -EINVAL for a malformed
 * or truncated frame.
 */
static int irdma_cm_parse_segment(const u8 *buf, u32 len, bool ipv4,
				  struct irdma_cm_seg *seg)
{
	const struct irdma_cm_tcphdr *th;
	u32 seglen, hlen;

	memset(seg, 0, sizeof(*seg));
	if (!buf || len < IRDMA_ILQ_TCP_OFFSET + IRDMA_CM_TCP_HDR_SIZE)
		return -EINVAL;

	seg->ipv4 = ipv4;
	if (ipv4) {
		const struct irdma_cm_iphdr *iph =
			(const void *)(buf + IRDMA_ILQ_IPV4_OFFSET);
		u32 totlen = be16_to_cpu(iph->tot_len);

		if (iph->ver_ihl != 0x45 || iph->proto != IRDMA_IPPROTO_TCP)
			return -EINVAL;
		if (be16_to_cpu(iph->frag) &
		    (IRDMA_IP4_MF | IRDMA_IP4_FRAG_OFFSET))
			return -EMSGSIZE;
		if (totlen < IRDMA_CM_IPV4_HDR + IRDMA_CM_TCP_HDR_SIZE ||
		    totlen > len - IRDMA_ILQ_IPV4_OFFSET)
			return -EINVAL;
		seglen = totlen - IRDMA_CM_IPV4_HDR;
		seg->tos = iph->tos;
		seg->saddr[0] = be32_to_cpu(iph->saddr);
		seg->daddr[0] = be32_to_cpu(iph->daddr);
	} else {
		const struct irdma_cm_ipv6hdr *ip6h = (const void *)buf;
		u32 vtcfl = be32_to_cpu(ip6h->vtcfl);
		u32 plen = be16_to_cpu(ip6h->plen);
		int i;

		if ((vtcfl >> 28) != 6 || ip6h->nexthdr != IRDMA_IPPROTO_TCP)
			return -EINVAL;
		if (plen < IRDMA_CM_TCP_HDR_SIZE ||
		    plen > len - IRDMA_ILQ_TCP_OFFSET)
			return -EINVAL;
		seglen = plen;
		seg->tos = (vtcfl >> 20) & 0xff;
		for (i = 0; i < 4; i++) {
			seg->saddr[i] = be32_to_cpu(ip6h->saddr[i]);
			seg->daddr[i] = be32_to_cpu(ip6h->daddr[i]);
		}
	}

	th = (const void *)(buf + IRDMA_ILQ_TCP_OFFSET);
	hlen = (th->doff >> 4) * 4;
	if (hlen < IRDMA_CM_TCP_HDR_SIZE || hlen > seglen)
		return -EINVAL;

	seg->sport = be16_to_cpu(th->sport);
	seg->dport = be16_to_cpu(th->dport);
	seg->seq = be32_to_cpu(th->seq);
	seg->ack = be32_to_cpu(th->ack);
	seg->flags = th->flags &
		     (IRDMA_TCP_FIN | IRDMA_TCP_SYN | IRDMA_TCP_RST |
		      IRDMA_TCP_PSH | IRDMA_TCP_ACK | IRDMA_TCP_ECE |
		      IRDMA_TCP_CWR);
	seg->window = be16_to_cpu(th->window);
	seg->opts = (const u8 *)(th + 1);
	seg->optlen = hlen - IRDMA_CM_TCP_HDR_SIZE;
	seg->data = (const u8 *)th + hlen;
	seg->datalen = seglen - hlen;
	if (!seg->sport || !seg->dport)
		return -EINVAL;
	return 0;
}

/**
 * irdma_cm_our_mss() - the MSS we advertise for an MTU
 * @ipv4: address family
 * @mtu: MTU of the egress device
 *
 * Return: MTU minus the IP and TCP headers.
 */
static u16 irdma_cm_our_mss(bool ipv4, u32 mtu)
{
	u32 hdrs = (ipv4 ? IRDMA_CM_IPV4_HDR : IRDMA_CM_IPV6_HDR) +
		   IRDMA_CM_TCP_HDR_SIZE;

	if (mtu < hdrs + IRDMA_CM_DEFAULT_MSS)
		return IRDMA_CM_DEFAULT_MSS;
	return min_t(u32, mtu - hdrs, 0x3FFF);
}

/**
 * irdma_process_options() - parse the TCP options of a SYN or SYN-ACK
 * @cm_node: connection; its send MSS and peer window scale are set
 * @optionsloc: first option byte
 * @optionsize: bytes of options
 * @syn_pkt: the segment carries SYN (options are only honoured then)
 *
 * Reads MSS and window scale; skips other options by their length (NOP
 * and EOL are one byte).  An absent MSS means 536 (IPv4) or 1220 (IPv6).
 * A smaller peer MSS is raised to those values: every IPv4 host takes
 * 576-byte datagrams (RFC 1122) and every IPv6 link 1280-byte ones (RFC
 * 8200), so the peer can receive them, and a tiny MSS would otherwise cut
 * every FPDU of the connection into tiny pieces (the kernel's TCP keeps a
 * floor too, tcp_min_snd_mss).  The window-scale shift is capped at 14
 * (RFC 7323).
 *
 * Context: pure, callable from the fuzzer.
 * Return: 0, or -EINVAL for a malformed option list.
 */
static int irdma_process_options(struct irdma_cm_node *cm_node, const u8 *optionsloc,
				 u32 optionsize, bool syn_pkt)
{
	u32 offset = 0;
	u32 peer_mss = 0, min_mss;
	bool got_mss = false;
	u8 ws = 0;
	bool got_ws = false;

	while (offset < optionsize) {
		u8 kind = optionsloc[offset];
		u8 olen;

		if (kind == IRDMA_TCPOPT_EOL)
			break;
		if (kind == IRDMA_TCPOPT_NOP) {
			offset++;
			continue;
		}
		if (offset + 1 >= optionsize)
			return -EINVAL;
		olen = optionsloc[offset + 1];
		if (olen < 2 || offset + olen > optionsize)
			return -EINVAL;
		switch (kind) {
		case IRDMA_TCPOPT_MSS:
			if (olen != IRDMA_TCPOLEN_MSS)
				return -EINVAL;
			peer_mss = get_unaligned_be16(optionsloc + offset + 2);
			got_mss = true;
			break;
		case IRDMA_TCPOPT_WS:
			if (olen != IRDMA_TCPOLEN_WS)
				return -EINVAL;
			ws = min_t(u8, optionsloc[offset + 2], IRDMA_CM_MAX_WSCALE);
			got_ws = true;
			break;
		default:
			/* timestamps, SACK and the rest: not used by the CM */
			break;
		}
		offset += olen;
	}

	if (!syn_pkt)
		return 0;

	min_mss = cm_node->ipv4 ?
		  IRDMA_CM_MIN_MTU_V4 - IRDMA_CM_IPV4_HDR - IRDMA_CM_TCP_HDR_SIZE :
		  IRDMA_CM_MIN_MTU_V6 - IRDMA_CM_IPV6_HDR - IRDMA_CM_TCP_HDR_SIZE;
	if (!got_mss || peer_mss < min_mss)
		peer_mss = min_mss;
	if (!cm_node->mss || peer_mss < cm_node->mss)
		cm_node->mss = peer_mss;
	cm_node->peer_ws_ok = got_ws;
	cm_node->snd_wscale = got_ws ? ws : 0;
	/* RFC 7323: scaling is on only if both sides offered it */
	cm_node->rcv_wscale = got_ws ? IRDMA_CM_RCV_WSCALE : 0;
	cm_node->rcv_wnd = got_ws ? IRDMA_CM_RCV_WND : 0xFFFF;
	return 0;
}

/**
 * irdma_handle_tcp_options() - apply the TCP header of a received segment
 * @cm_node: connection
 * @seg: the segment
 *
 * On a SYN, parses the options (irdma_process_options()).  Then records
 * the peer's window: unscaled on a SYN (RFC 7323), scaled by the peer's
 * shift otherwise; tracks the largest window seen.
 *
 * Context: pure, callable from the fuzzer.
 * Return: 0, or -EINVAL if the options of a SYN are refused.
 */
static int irdma_handle_tcp_options(struct irdma_cm_node *cm_node,
				    const struct irdma_cm_seg *seg)
{
	bool syn = seg->flags & IRDMA_TCP_SYN;
	int ret;

	if (syn) {
		ret = irdma_process_options(cm_node, seg->opts, seg->optlen,
					    true);
		if (ret)
			return ret;
		cm_node->snd_wnd = seg->window;
	} else {
		cm_node->snd_wnd = (u32)seg->window << cm_node->snd_wscale;
	}
	if (cm_node->snd_wnd > cm_node->max_snd_wnd)
		cm_node->max_snd_wnd = cm_node->snd_wnd;
	return 0;
}

/**
 * irdma_check_seq() - check a segment against the receive window
 * @cm_node: connection in a synchronised state
 * @seg: the segment
 *
 * RFC 793 acceptability: a segment with no payload must start inside
 * [rcv_nxt, rcv_nxt + rcv_wnd); one with payload must overlap it.  Its ACK,
 * when present, must not acknowledge data we did not send, nor fall
 * before snd_una.  Duplicates (wholly before rcv_nxt) are out of window
 * too: the caller answers them with an ACK so the peer stops
 * retransmitting.
 *
 * Context: pure, callable from the fuzzer.
 * Return: 0 if acceptable, -ERANGE if the sequence number is outside the
 * window, -EBADMSG if the acknowledgment number is not acceptable.
 */
static int irdma_check_seq(struct irdma_cm_node *cm_node,
			   const struct irdma_cm_seg *seg)
{
	u32 wnd = cm_node->rcv_wnd ? cm_node->rcv_wnd : 1;
	u32 seq = seg->seq;
	u32 end = seq + seg->datalen + ((seg->flags & IRDMA_TCP_FIN) ? 1 : 0);
	u32 rcv_nxt = cm_node->rcv_nxt;

	if (end == seq) {
		if (irdma_seq_before(seq, rcv_nxt) ||
		    !irdma_seq_before(seq, rcv_nxt + wnd))
			return -ERANGE;
	} else {
		/* some byte of [seq, end) inside [rcv_nxt, rcv_nxt + wnd) */
		if (!irdma_seq_before(rcv_nxt, end) ||
		    !irdma_seq_before(seq, rcv_nxt + wnd))
			return -ERANGE;
	}
	if (seg->flags & IRDMA_TCP_ACK) {
		if (irdma_seq_before(cm_node->snd_nxt, seg->ack) ||
		    irdma_seq_before(seg->ack, cm_node->snd_una))
			return -EBADMSG;
	}
	return 0;
}

/**
 * irdma_form_ah_cm_frame() - build one TCP segment of a connection
 * @cm_node: connection; its snd_nxt advances by the payload, SYN and FIN
 * @buf: output buffer, at least IRDMA_CM_TCP_MAX_HDR + @plen bytes
 * @options: TCP options (a multiple of 4 bytes) or NULL
 * @optlen: bytes of @options
 * @payload: payload (an MPA frame) or NULL
 * @plen: bytes of @payload
 * @flags: IRDMA_TCP_* flags to set
 * @hdr_len: set to the TCP header length
 *
 * The segment starts at the TCP header, as the GEN_2 ILQ transmits it:
 * the adapter adds L2/L3 headers from the address handle and computes the
 * checksums, so the checksum field is left 0.  The window field carries
 * rcv_wnd >> rcv_wscale (never scaled in a SYN).
 *
 * Context: pure.
 * Return: the segment length in bytes.
 */
static u32 irdma_form_ah_cm_frame(struct irdma_cm_node *cm_node, u8 *buf,
				  const u8 *options, u32 optlen, const u8 *payload,
				  u32 plen, u8 flags, u32 *hdr_len)
{
	struct irdma_cm_tcphdr *th = (void *)buf;
	u32 hlen = IRDMA_CM_TCP_HDR_SIZE + optlen;
	u32 win;

	memset(buf, 0, hlen);
	th->sport = cpu_to_be16(cm_node->loc_port);
	th->dport = cpu_to_be16(cm_node->rem_port);
	th->seq = cpu_to_be32(cm_node->snd_nxt);
	if (flags & IRDMA_TCP_ACK)
		th->ack = cpu_to_be32(cm_node->rcv_nxt);
	th->doff = (hlen / 4) << 4;
	th->flags = flags;
	if (flags & IRDMA_TCP_SYN)
		win = min_t(u32, cm_node->rcv_wnd, 0xFFFF);
	else
		win = min_t(u32, cm_node->rcv_wnd >> cm_node->rcv_wscale,
			    0xFFFF);
	th->window = cpu_to_be16(win);
	if (optlen)
		memcpy(th + 1, options, optlen);
	if (plen)
		memcpy(buf + hlen, payload, plen);

	cm_node->snd_nxt += plen;
	if (flags & IRDMA_TCP_SYN)
		cm_node->snd_nxt++;
	if (flags & IRDMA_TCP_FIN)
		cm_node->snd_nxt++;
	*hdr_len = hlen;
	return hlen + plen;
}

/**
 * irdma_form_uda_cm_frame() - build a stateless reset for a segment that
 * matches no connection
 * @seg: the received segment
 * @buf: output buffer of at least IRDMA_CM_TCP_HDR_SIZE bytes
 *
 * RFC 793 reset generation: if the segment carries an ACK, the RST takes
 * its sequence number from that ACK; otherwise the RST has sequence 0 and
 * acknowledges everything the segment occupied.  Nothing is sent in reply
 * to a RST.  Ports are swapped.
 *
 * Context: pure.
 * Return: the segment length (20), or 0 if no reset must be sent.
 */
static u32 irdma_form_uda_cm_frame(const struct irdma_cm_seg *seg, u8 *buf)
{
	struct irdma_cm_tcphdr *th = (void *)buf;
	u32 occupied;

	if (seg->flags & IRDMA_TCP_RST)
		return 0;
	memset(buf, 0, IRDMA_CM_TCP_HDR_SIZE);
	th->sport = cpu_to_be16(seg->dport);
	th->dport = cpu_to_be16(seg->sport);
	th->doff = (IRDMA_CM_TCP_HDR_SIZE / 4) << 4;
	if (seg->flags & IRDMA_TCP_ACK) {
		th->seq = cpu_to_be32(seg->ack);
		th->flags = IRDMA_TCP_RST;
	} else {
		occupied = seg->datalen +
			   ((seg->flags & IRDMA_TCP_SYN) ? 1 : 0) +
			   ((seg->flags & IRDMA_TCP_FIN) ? 1 : 0);
		th->ack = cpu_to_be32(seg->seq + occupied);
		th->flags = IRDMA_TCP_RST | IRDMA_TCP_ACK;
	}
	return IRDMA_CM_TCP_HDR_SIZE;
}

/**
 * irdma_mpa_ird_ord_wire() - a 14-bit IRD/ORD value for the wire
 * @val: value
 *
 * Always our value, also when the peer sent "no value" (0x3FFF): echoing
 * that would hide from the peer what this side can take.
 *
 * Return: @val capped at 0x3FFF.
 */
static u16 irdma_mpa_ird_ord_wire(u16 val)
{
	return min_t(u16, val, IRDMA_MPA_V2_IRD_ORD_MASK);
}

/**
 * irdma_build_mpa_v1() - write an MPA v1 header (RFC 5044)
 * @cm_node: connection (flags and revision in use)
 * @start_addr: where the 20-byte header goes
 * @mpa_key: true for a request key, false for a reply key
 *
 * Writes key, flags (CRC always; markers never requested; reject and v2
 * flags are added by the caller) and revision.  PD_Length is written as
 * 0: the caller stores it once the private data (and, for v2, the RTR
 * block) is in place.
 */
static void irdma_build_mpa_v1(struct irdma_cm_node *cm_node, void *start_addr,
			       bool mpa_key)
{
	struct irdma_mpa_hdr *h = start_addr;

	memcpy(h->key, mpa_key ? IRDMA_MPA_KEY_REQ : IRDMA_MPA_KEY_REP,
	       IRDMA_MPA_KEY_SIZE);
	h->flags = IRDMA_MPA_FLAG_CRC;
	h->rev = cm_node->mpa_rev;
	h->pdlen = 0;
}

/**
 * irdma_build_mpa_v2() - write an MPA v2 header with the RTR block
 * @cm_node: connection: IRD, ORD, RTR choice
 * @start_addr: where the 24-byte header goes
 * @mpa_key: true for a request (offers Write and, if our ORD allows it,
 *	Read RTR), false for a reply (carries the one RTR chosen)
 *
 * Flag A (peer-to-peer) is always set in a request; a reply echoes it
 * when the request had it and then carries the RTR chosen, else neither
 * (the client-server model).
 */
static void irdma_build_mpa_v2(struct irdma_cm_node *cm_node, void *start_addr,
			       bool mpa_key)
{
	struct irdma_mpa_v2_hdr *h = start_addr;
	u16 ird, ord;

	irdma_build_mpa_v1(cm_node, &h->v1, mpa_key);
	h->v1.flags |= IRDMA_MPA_FLAG_V2;

	ird = irdma_mpa_ird_ord_wire(cm_node->ird);
	ord = irdma_mpa_ird_ord_wire(cm_node->ord);
	if (mpa_key || cm_node->p2p)
		ird |= IRDMA_MPA_V2_PEER2PEER;
	if (mpa_key) {
		ord |= IRDMA_MPA_V2_RTR_WRITE;
		if (cm_node->ord)
			ord |= IRDMA_MPA_V2_RTR_READ;
	} else if (cm_node->rtr == IRDMA_RTR_READ) {
		ord |= IRDMA_MPA_V2_RTR_READ;
	} else if (cm_node->rtr == IRDMA_RTR_WRITE) {
		ord |= IRDMA_MPA_V2_RTR_WRITE;
	}
	h->ird = cpu_to_be16(ird);
	h->ord = cpu_to_be16(ord);
}

/**
 * irdma_cm_build_mpa_frame() - build our MPA request, reply or reject
 * @cm_node: connection; the frame goes to cm_node->mpa_frame
 * @request: build a request (else a reply)
 * @reject: set the R flag (reply only)
 * @pdata: private data from the ULP
 * @plen: bytes of @pdata (at most IRDMA_MPA_MAX_PDATA)
 *
 * MPA v2 (cm_node->mpa_rev 2 and the enhanced mode in use) puts the
 * 4-byte IRD/ORD block first; PD_Length counts it (RFC 6581).
 *
 * Context: pure.
 * Return: the frame length, or 0 if @plen is too long.
 */
static u16 irdma_cm_build_mpa_frame(struct irdma_cm_node *cm_node, bool request,
				    bool reject, const void *pdata, u16 plen)
{
	u8 *p = cm_node->mpa_frame;
	struct irdma_mpa_hdr *h = (void *)p;
	bool v2 = cm_node->mpa_rev == IRDMA_MPA_REV2 && cm_node->mpa_enhanced;
	u16 hdr = v2 ? IRDMA_MPA_V2_HDR_SIZE : IRDMA_MPA_V1_HDR_SIZE;
	u16 pdlen = plen + (v2 ? IRDMA_MPA_RTR_SIZE : 0);

	if (plen > IRDMA_MPA_MAX_PDATA || pdlen > IRDMA_MPA_MAX_PDATA)
		return 0;
	if (v2)
		irdma_build_mpa_v2(cm_node, p, request);
	else
		irdma_build_mpa_v1(cm_node, p, request);
	if (reject)
		h->flags |= IRDMA_MPA_FLAG_REJECT;
	h->pdlen = cpu_to_be16(pdlen);
	if (plen)
		memmove(p + hdr, pdata, plen);	/* @pdata may sit in the frame */
	cm_node->mpa_frame_len = hdr + plen;
	return cm_node->mpa_frame_len;
}

/**
 * irdma_record_ird_ord() - take the ULP's IRD and ORD for a connection
 * @cm_node: connection
 * @conn_ird: IRD the ULP asked for (responder resources)
 * @conn_ord: ORD the ULP asked for (initiator depth)
 *
 * Caps both at what the adapter supports (IRD 127, ORD 255).
 */
static void irdma_record_ird_ord(struct irdma_cm_node *cm_node, u32 conn_ird,
				 u32 conn_ord)
{
	cm_node->ird = min_t(u32, conn_ird, IRDMA_CM_HW_MAX_IRD);
	cm_node->ord = min_t(u32, conn_ord, IRDMA_CM_HW_MAX_ORD);
}

/**
 * irdma_negotiate_mpa_v2_ird_ord() - settle IRD, ORD and RTR (RFC 6581)
 * @cm_node: connection: our IRD/ORD on entry, the agreed values on return;
 *	the peer's block was stored by irdma_parse_mpa()
 * @responder: we are the passive side answering a request (else we are
 *	the initiator reading the reply)
 *
 * Rules (0x3FFF from the peer means "no value": it does not limit us):
 * Responder:
 *  - without flag A (peer-to-peer) the request asks for the client-server
 *    model of RFC 5044: no RTR, the initiator sends the first FPDU (our
 *    LSMM waits for it); RTR bits without flag A mean nothing.  soft-iWARP
 *    asks this way;
 *  - with flag A, RTR: Read if offered, the initiator's ORD >= 1 and our
 *    IRD >= 1; else Write if offered; else no matching RTR (0x07), except
 *    that a Read offer we could take but for our IRD 0 is "insufficient
 *    IRD" (0x06);
 *  - our ORD is capped at the initiator's IRD.
 * Initiator (our request always sets flag A and offers Write, and Read
 * if our ORD >= 1):
 *  - a reply without flag A and without RTR bits takes the client-server
 *    model (no RTR; we send first anyway); one without flag A but with
 *    RTR bits is inconsistent: no matching RTR (0x07);
 *  - a reply with flag A must pick exactly one RTR we offered (Read only
 *    if our ORD >= 1); else no matching RTR (0x07);
 *  - the responder's ORD must not exceed our IRD: insufficient IRD (0x06);
 *  - our ORD is capped at the responder's IRD.
 * On failure cm_node->mpa_err holds the MPA error code.
 *
 * Context: pure.
 * Return: 0, or -EINVAL when the connection cannot be made.
 */
static int irdma_negotiate_mpa_v2_ird_ord(struct irdma_cm_node *cm_node,
					  bool responder)
{
	u16 peer_ird = cm_node->peer_ird;
	u16 peer_ord = cm_node->peer_ord;
	bool no_ird = peer_ird == IRDMA_MPA_V2_NO_IRD_ORD;
	bool no_ord = peer_ord == IRDMA_MPA_V2_NO_IRD_ORD;

	cm_node->mpa_err = 0;
	if (!cm_node->p2p) {
		cm_node->rtr = IRDMA_RTR_NONE;
		if (!responder &&
		    (cm_node->peer_rtr_read || cm_node->peer_rtr_write)) {
			cm_node->mpa_err = IRDMA_MPA_ERR_NO_MATCH_RTR;
			return -EINVAL;
		}
		if (!responder && !no_ord && peer_ord > cm_node->ird) {
			cm_node->mpa_err = IRDMA_MPA_ERR_INSUFF_IRD;
			return -EINVAL;
		}
		if (!no_ird && cm_node->ord > peer_ird)
			cm_node->ord = peer_ird;
		return 0;
	}

	if (responder) {
		bool read_ok = cm_node->peer_rtr_read &&
			       (no_ord || peer_ord >= 1);

		if (read_ok && cm_node->ird >= 1) {
			cm_node->rtr = IRDMA_RTR_READ;
		} else if (cm_node->peer_rtr_write) {
			cm_node->rtr = IRDMA_RTR_WRITE;
		} else {
			cm_node->rtr = IRDMA_RTR_NONE;
			cm_node->mpa_err = read_ok ? IRDMA_MPA_ERR_INSUFF_IRD :
					   IRDMA_MPA_ERR_NO_MATCH_RTR;
			return -EINVAL;
		}
		if (!no_ird && cm_node->ord > peer_ird)
			cm_node->ord = peer_ird;
		return 0;
	}

	if (cm_node->peer_rtr_read == cm_node->peer_rtr_write ||
	    (cm_node->peer_rtr_read && !cm_node->ord)) {
		cm_node->rtr = IRDMA_RTR_NONE;
		cm_node->mpa_err = IRDMA_MPA_ERR_NO_MATCH_RTR;
		return -EINVAL;
	}
	if (!no_ord && peer_ord > cm_node->ird) {
		cm_node->mpa_err = IRDMA_MPA_ERR_INSUFF_IRD;
		return -EINVAL;
	}
	cm_node->rtr = cm_node->peer_rtr_read ? IRDMA_RTR_READ : IRDMA_RTR_WRITE;
	if (!no_ird && cm_node->ord > peer_ird)
		cm_node->ord = peer_ird;
	return 0;
}

/**
 * irdma_parse_mpa() - validate a received MPA request or reply
 * @cm_node: connection; the peer's flags, revision, IRD/ORD block and
 *	private data are stored in it
 * @buf: the frame
 * @len: bytes available (at least one whole frame, see
 *	irdma_mpa_frame_len())
 * @request: a request is expected (else a reply)
 *
 * Checks the key for the direction, the revision (1 or 2, and not above
 * the one we sent when we are the initiator), the reject flag (only in a
 * reply), PD_Length (at most 512) against @len, and for an enhanced v2
 * frame that PD_Length holds the 4-byte block.  The private data reported
 * to the ULP excludes that block.  The M flag sets peer_markers (the
 * callers refuse it).
 *
 * Context: pure, callable from the fuzzer.
 * Return: 0 for an acceptable frame, 1 for a valid reject reply, or
 * -EINVAL for a malformed frame.
 */
static int irdma_parse_mpa(struct irdma_cm_node *cm_node, const u8 *buf, u32 len,
			   bool request)
{
	const struct irdma_mpa_v2_hdr *h = (const void *)buf;
	u8 flags, rev;
	u32 pdlen, hdr = IRDMA_MPA_V1_HDR_SIZE;
	bool enhanced;

	if (len < IRDMA_MPA_V1_HDR_SIZE)
		return -EINVAL;
	if (memcmp(h->v1.key, request ? IRDMA_MPA_KEY_REQ : IRDMA_MPA_KEY_REP,
		   IRDMA_MPA_KEY_SIZE))
		return -EINVAL;
	flags = h->v1.flags;
	rev = h->v1.rev;
	pdlen = be16_to_cpu(h->v1.pdlen);
	if (rev != IRDMA_MPA_REV1 && rev != IRDMA_MPA_REV2)
		return -EINVAL;
	if (!request && rev > cm_node->mpa_rev)
		return -EINVAL;
	if (request && (flags & IRDMA_MPA_FLAG_REJECT))
		return -EINVAL;
	if (pdlen > IRDMA_MPA_MAX_PDATA || len < IRDMA_MPA_V1_HDR_SIZE + pdlen)
		return -EINVAL;

	enhanced = rev == IRDMA_MPA_REV2 && (flags & IRDMA_MPA_FLAG_V2);
	cm_node->peer_rev = rev;
	cm_node->peer_flags = flags;
	cm_node->mpa_enhanced = enhanced;
	cm_node->peer_markers = !!(flags & IRDMA_MPA_FLAG_MARKERS);
	cm_node->p2p = false;
	cm_node->peer_rtr_read = false;
	cm_node->peer_rtr_write = false;
	cm_node->peer_rtr_send = false;
	cm_node->peer_ird = IRDMA_MPA_V2_NO_IRD_ORD;
	cm_node->peer_ord = IRDMA_MPA_V2_NO_IRD_ORD;
	cm_node->peer_no_ird_ord = false;

	if (enhanced) {
		u16 ird, ord;

		if (pdlen < IRDMA_MPA_RTR_SIZE)
			return -EINVAL;
		/* PD_Length covers the block: it is within @len */
		ird = be16_to_cpu(h->ird);
		ord = be16_to_cpu(h->ord);
		cm_node->p2p = !!(ird & IRDMA_MPA_V2_PEER2PEER);
		cm_node->peer_rtr_send = !!(ird & IRDMA_MPA_V2_RTR_SEND);
		cm_node->peer_rtr_write = !!(ord & IRDMA_MPA_V2_RTR_WRITE);
		cm_node->peer_rtr_read = !!(ord & IRDMA_MPA_V2_RTR_READ);
		cm_node->peer_ird = ird & IRDMA_MPA_V2_IRD_ORD_MASK;
		cm_node->peer_ord = ord & IRDMA_MPA_V2_IRD_ORD_MASK;
		cm_node->peer_no_ird_ord =
			cm_node->peer_ird == IRDMA_MPA_V2_NO_IRD_ORD &&
			cm_node->peer_ord == IRDMA_MPA_V2_NO_IRD_ORD;
		hdr = IRDMA_MPA_V2_HDR_SIZE;
		pdlen -= IRDMA_MPA_RTR_SIZE;
	}
	memcpy(cm_node->pdata, buf + hdr, pdlen);
	cm_node->pdata_len = pdlen;
	/* we answer with the peer's revision (ours is the highest we accept) */
	if (request)
		cm_node->mpa_rev = min_t(u8, rev, cm_node->mpa_rev);
	else
		cm_node->mpa_rev = rev;

	if (!request && (flags & IRDMA_MPA_FLAG_REJECT))
		return 1;
	return 0;
}

/**
 * irdma_mpa_frame_len() - length of the MPA frame at the start of a buffer
 * @buf: received bytes
 * @len: bytes in @buf
 *
 * Return: the whole frame length (header + PD_Length) once the header is
 * in, 0 if more bytes are needed to know, or -EINVAL if PD_Length exceeds
 * 512.
 */
static int irdma_mpa_frame_len(const u8 *buf, u32 len)
{
	const struct irdma_mpa_hdr *h = (const void *)buf;
	u32 pdlen;

	if (len < IRDMA_MPA_V1_HDR_SIZE)
		return 0;
	pdlen = be16_to_cpu(h->pdlen);
	if (pdlen > IRDMA_MPA_MAX_PDATA)
		return -EINVAL;
	return IRDMA_MPA_V1_HDR_SIZE + pdlen;
}

#ifndef IRDMA_CM_WIRE_ONLY

/**
 * irdma_cm_mpa_out() - build an MPA frame to send, and trace it
 * @cm_node: connection; the frame goes to cm_node->mpa_frame
 * @request: a request (else a reply)
 * @reject: set the R flag
 * @pdata: private data from the ULP
 * @plen: bytes of @pdata
 *
 * Return: the frame length, or 0 (see irdma_cm_build_mpa_frame()).
 */
static u16 irdma_cm_mpa_out(struct irdma_cm_node *cm_node, bool request,
			    bool reject, const void *pdata, u16 plen)
{
	u16 len = irdma_cm_build_mpa_frame(cm_node, request, reject, pdata,
					   plen);

	if (len)
		trace_irdma_mpa(cm_node, (const void *)cm_node->mpa_frame, len, true);
	return len;
}

/**
 * irdma_cm_mpa_in() - trace and parse the MPA frame a node received
 * @cm_node: connection, with the frame in mpa_rx
 * @request: a request is expected (else a reply)
 *
 * Return: as irdma_parse_mpa().
 */
static int irdma_cm_mpa_in(struct irdma_cm_node *cm_node, bool request)
{
	trace_irdma_mpa(cm_node, (const void *)cm_node->mpa_rx, cm_node->mpa_rx_len, false);
	return irdma_parse_mpa(cm_node, cm_node->mpa_rx, cm_node->mpa_rx_len,
			       request);
}

/*
 * ------------------------------------------------------------------------
 * Node state, references, work and timers
 * ------------------------------------------------------------------------
 */

/**
 * struct irdma_cm_info - addresses and ports of a connection being made
 * @ipv4: address family
 * @loc_addr: local address, host order, IPv4 in [0]
 * @rem_addr: remote address
 * @loc_port: local port
 * @rem_port: remote port
 * @vlan_id: VLAN id or IRDMA_CM_NO_VLAN
 * @user_pri: 802.1p priority
 * @tos: TOS / traffic class
 * @rem_mac: next-hop MAC
 */
struct irdma_cm_info {
	bool ipv4;
	u32 loc_addr[4];
	u32 rem_addr[4];
	u16 loc_port;
	u16 rem_port;
	u16 vlan_id;
	u8 user_pri;
	u8 tos;
	u8 rem_mac[ETH_ALEN];
};

/* the RTR FPDUs (RFC 5044 framing, RFC 5040/5041 headers, no markers) */
#define IRDMA_CM_DDP_TAGGED_HDR		14	/* DDP tagged + RDMAP control */
#define IRDMA_CM_DDP_UNTAGGED_HDR	18	/* DDP untagged + RDMAP control */
#define IRDMA_CM_RDMAP_RREQ_HDR		28	/* Read Request header */
#define IRDMA_CM_DDP_CTL_TAGGED		0xC1	/* T, L, DV 1 */
#define IRDMA_CM_DDP_CTL_UNTAGGED	0x41	/* L, DV 1 */
#define IRDMA_CM_RDMAP_WRITE		0x40	/* RV 1, opcode 0 */
#define IRDMA_CM_RDMAP_READ_REQ		0x41	/* RV 1, opcode 1 */
#define IRDMA_CM_DDP_QN_READ_REQ	1
#define IRDMA_CM_RDMAP_TERMINATE	0x47	/* RV 1, opcode 7 */
#define IRDMA_CM_DDP_QN_TERMINATE	2
#define IRDMA_CM_TERM_LAYER_MPA		0x20	/* layer LLP, error type MPA */
#define IRDMA_CM_MPA_CRC_LEN		4
#define IRDMA_CM_RTR_MAX_FPDU		64
/* FPDUs irdma_cm_rtr_close() sends before its FIN: the RTR and a nudge */
#define IRDMA_CM_RTR_FPDUS		2

static void irdma_cm_event_handler(struct work_struct *w);
static u32 irdma_cm_build_mpa_term(u8 code, u8 *buf);
static void irdma_cm_node_finish(struct irdma_cm_node *cm_node);
static void irdma_cm_report_fail(struct irdma_cm_node *cm_node, int status);
static void irdma_dec_refcnt_listen(struct irdma_cm_core *cm_core,
				    struct irdma_cm_listener *listener);
static void irdma_free_lsmm_rsrc(struct irdma_cm_node *cm_node);
static int irdma_cm_node_qhash(struct irdma_cm_node *cm_node, bool add);
static void irdma_cm_free_ah(struct irdma_cm_node *cm_node);
static void irdma_cm_event_connected(struct irdma_cm_node *cm_node);
static void irdma_cm_disconn_true(struct irdma_qp *iwqp);
static void irdma_cm_rtr_step(struct irdma_cm_node *cm_node);
static bool irdma_cm_peer_awaits_rtr(const struct irdma_cm_node *cm_node);
static void irdma_cm_active_fail_accepted(struct irdma_cm_node *cm_node,
					  int status);

/**
 * irdma_cm_half_open_del() - a passive node is no longer half-open
 * @cm_node: node
 *
 * Context: cm_core->mutex held.
 */
static void irdma_cm_half_open_del(struct irdma_cm_node *cm_node)
{
	lockdep_assert_held(&cm_node->core->mutex);
	if (list_empty(&cm_node->half_open_entry))
		return;
	list_del_init(&cm_node->half_open_entry);
	cm_node->listener->half_open--;
}

/**
 * irdma_cm_set_state() - the one place a node's state changes
 * @cm_node: node
 * @state: new state
 *
 * Emits the irdma_cm_state tracepoint.  Keeps the listener's list of
 * half-open (SYN_RCVD) nodes, oldest first, for the SYN-flood bound.
 *
 * Context: cm_core->mutex held.
 */
static void irdma_cm_set_state(struct irdma_cm_node *cm_node,
			       enum irdma_cm_state state)
{
	struct irdma_cm_listener *listener = cm_node->listener;

	lockdep_assert_held(&cm_node->core->mutex);
	trace_irdma_cm_state(cm_node, cm_node->state, state);
	if (state != IRDMA_CM_STATE_SYN_RCVD) {
		irdma_cm_half_open_del(cm_node);
	} else if (listener && list_empty(&cm_node->half_open_entry)) {
		list_add_tail(&cm_node->half_open_entry,
			      &listener->half_open_list);
		listener->half_open++;
	}
	cm_node->state = state;
}

/**
 * irdma_cm_node_get() - take a node reference
 * @cm_node: node (the caller already holds a reference or the mutex)
 */
static void irdma_cm_node_get(struct irdma_cm_node *cm_node)
{
	refcount_inc(&cm_node->refcnt);
}

/**
 * irdma_cm_node_put_nonlast() - drop a reference that cannot be the last
 * @cm_node: node
 *
 * Used where the mutex cannot be taken (timer callbacks): the reference
 * dropped there is never the last, because a queued work holds another.
 *
 * Context: any.
 */
static void irdma_cm_node_put_nonlast(struct irdma_cm_node *cm_node)
{
	WARN_ON_ONCE(refcount_dec_and_test(&cm_node->refcnt));
}

/**
 * irdma_free_sqbuf() - free a transmit buffer
 * @buf: buffer from irdma_cm_get_sqbuf(), or NULL
 *
 * The hw layer copies a segment in ilq_send, so buffers of segments that
 * are not retransmitted go right after sending; a retransmittable one
 * goes when it is acknowledged or abandoned.
 */
static void irdma_free_sqbuf(u8 *buf)
{
	kfree(buf);
}

/**
 * irdma_cm_get_sqbuf() - allocate a transmit buffer
 * @cm_core: CM instance (its fail_tx fault injection point)
 * @plen: payload bytes the segment will carry
 *
 * Context: process context.
 * Return: a buffer for a TCP header with options and @plen bytes, or NULL.
 */
static u8 *irdma_cm_get_sqbuf(struct irdma_cm_core *cm_core, u32 plen)
{
#ifdef CONFIG_FAULT_INJECTION
	if (should_fail(&cm_core->fail_tx, 1))
		return NULL;
#endif
	return kmalloc(IRDMA_CM_TCP_MAX_HDR + plen, GFP_KERNEL);
}

/**
 * irdma_free_retrans_entry() - abandon the segment awaiting an ACK
 * @cm_node: node
 *
 * Frees the stored segment and stops the retransmit timer (dropping the
 * timer's reference).
 *
 * Context: cm_core->mutex held; the caller holds a node reference.
 */
static void irdma_free_retrans_entry(struct irdma_cm_node *cm_node)
{
	lockdep_assert_held(&cm_node->core->mutex);
	/* sync: a running callback has queued its work (with its reference)
	 * by the time this returns; nothing fires later
	 */
	if (del_timer_sync(&cm_node->rexmit_timer))
		irdma_cm_node_put_nonlast(cm_node);
	irdma_free_sqbuf(cm_node->tx.buf);
	cm_node->tx.buf = NULL;
	cm_node->tx.pending = false;
}

/**
 * irdma_cleanup_retrans_entry() - apply an acknowledgment to the segment
 * awaiting one
 * @cm_node: node
 * @ack: acknowledgment number received
 *
 * When @ack covers the whole stored segment it is freed and the
 * retransmit timer stopped; a partial ACK keeps it.
 *
 * Context: cm_core->mutex held.
 */
static void irdma_cleanup_retrans_entry(struct irdma_cm_node *cm_node, u32 ack)
{
	lockdep_assert_held(&cm_node->core->mutex);
	if (cm_node->tx.pending &&
	    !irdma_seq_before(ack, cm_node->tx.seq_end))
		irdma_free_retrans_entry(cm_node);
}

/**
 * irdma_cm_arm() - arm one of a node's timers
 * @cm_node: node
 * @timer: &cm_node->rexmit_timer or &cm_node->state_timer
 * @delay: jiffies from now
 *
 * A newly armed timer takes a node reference (an already pending one
 * keeps its own).  Nothing is armed once the core is being torn down.
 *
 * Context: cm_core->mutex held.
 */
static void irdma_cm_arm(struct irdma_cm_node *cm_node,
			 struct timer_list *timer, unsigned long delay)
{
	lockdep_assert_held(&cm_node->core->mutex);
	if (cm_node->core->dead)
		return;
	if (!mod_timer(timer, jiffies + delay))
		irdma_cm_node_get(cm_node);
}

/**
 * irdma_cm_arm_state_timer() - arm the state timer of a node
 * @cm_node: node
 * @delay: jiffies from now
 *
 * Context: cm_core->mutex held.
 */
static void irdma_cm_arm_state_timer(struct irdma_cm_node *cm_node,
				     unsigned long delay)
{
	lockdep_assert_held(&cm_node->core->mutex);
	cm_node->state_deadline = jiffies + delay;
	irdma_cm_arm(cm_node, &cm_node->state_timer, delay);
}

/**
 * irdma_cm_stop_state_timer() - stop the state timer of a node
 * @cm_node: node (the caller holds a reference)
 *
 * Context: cm_core->mutex held.
 */
static void irdma_cm_stop_state_timer(struct irdma_cm_node *cm_node)
{
	lockdep_assert_held(&cm_node->core->mutex);
	if (del_timer_sync(&cm_node->state_timer))
		irdma_cm_node_put_nonlast(cm_node);
	if (cm_node->iwqp)
		irdma_qp_cm(cm_node->iwqp)->close_armed = false;
}

/**
 * irdma_schedule_cm_timer() - keep a sent segment for retransmission
 * @cm_node: node
 * @buf: the segment (ownership passes to the node)
 * @len: segment length
 * @hdr_len: TCP header length
 *
 * Arms the node's own retransmit timer: the cost is O(1) per armed timer,
 * there is no periodic scan.  The first timeout is tun.rexmit_timeout; it
 * doubles on each retransmission up to tun.rexmit_max_timeout.
 *
 * Context: cm_core->mutex held.
 */
static void irdma_schedule_cm_timer(struct irdma_cm_node *cm_node, u8 *buf,
				    u32 len, u32 hdr_len)
{
	struct irdma_cm_tx *tx = &cm_node->tx;

	lockdep_assert_held(&cm_node->core->mutex);
	if (tx->pending)
		irdma_free_retrans_entry(cm_node);
	tx->buf = buf;
	tx->len = len;
	tx->hdr_len = hdr_len;
	tx->seq_end = cm_node->snd_nxt;
	tx->retries = 0;
	tx->timeout = cm_node->core->tun.rexmit_timeout;
	tx->deadline = jiffies + tx->timeout;
	tx->pending = true;
	irdma_cm_arm(cm_node, &cm_node->rexmit_timer, tx->timeout);
}

/**
 * irdma_cm_queue_timer_work() - hand a timer's reference to its work item
 * @cm_node: node
 * @work: the node's embedded work for this timer
 *
 * Context: timer (softirq).
 */
static void irdma_cm_queue_timer_work(struct irdma_cm_node *cm_node,
				      struct irdma_cm_work *work)
{
	if (!queue_work(cm_node->core->wq, &work->work))
		irdma_cm_node_put_nonlast(cm_node);
}

/**
 * irdma_cm_timer_tick() - retransmit timer callback of a node
 * @t: the node's rexmit_timer
 *
 * Only queues IRDMA_CM_WORK_REXMIT; the work does the rest.
 *
 * Context: timer (softirq).
 */
static void irdma_cm_timer_tick(struct timer_list *t)
{
	struct irdma_cm_node *cm_node = from_timer(cm_node, t, rexmit_timer);

	irdma_cm_queue_timer_work(cm_node, &cm_node->rexmit_work);
}

/**
 * irdma_cm_state_timer_fn() - state timer callback of a node
 * @t: the node's state_timer
 *
 * Only queues IRDMA_CM_WORK_TIMEOUT.
 *
 * Context: timer (softirq).
 */
static void irdma_cm_state_timer_fn(struct timer_list *t)
{
	struct irdma_cm_node *cm_node = from_timer(cm_node, t, state_timer);

	irdma_cm_queue_timer_work(cm_node, &cm_node->tmo_work);
}

/**
 * irdma_create_event() - allocate a work item for an outside event
 * @cm_core: CM instance
 * @type: work type
 * @iwqp: QP the event is about (a reference is taken), or NULL
 * @gfp: allocation flags of the caller's context
 *
 * Work items allocated here never carry a node: they are queued from
 * contexts that cannot take the mutex to find one.
 *
 * Return: the work item, or NULL on allocation failure.
 */
static struct irdma_cm_work *irdma_create_event(struct irdma_cm_core *cm_core,
						enum irdma_cm_work_type type,
						struct irdma_qp *iwqp,
						gfp_t gfp)
{
	struct irdma_cm_work *work = kzalloc(sizeof(*work), gfp);

	if (!work)
		return NULL;
	INIT_WORK(&work->work, irdma_cm_event_handler);
	work->type = type;
	work->core = cm_core;
	if (iwqp) {
		cm_core->ops->qp_ref(iwqp);
		work->iwqp = iwqp;
	}
	return work;
}

/**
 * irdma_cm_free_work() - free an allocated work item and its references
 * @work: work item from irdma_create_event()
 *
 * A received frame stops counting against tun.max_rx_queued.
 *
 * Context: any.
 */
static void irdma_cm_free_work(struct irdma_cm_work *work)
{
	if (work->type == IRDMA_CM_WORK_RX)
		atomic_dec(&work->core->rx_queued);
	if (work->iwqp)
		work->core->ops->qp_put(work->iwqp);
	kfree(work->pkt.buf);
	kfree(work);
}

/**
 * irdma_cm_post_event() - queue an allocated work item
 * @cm_core: CM instance
 * @work: work item from irdma_create_event()
 *
 * Once irdma_cleanup_cm_core() has started, the item is dropped.
 *
 * Context: any.
 */
static void irdma_cm_post_event(struct irdma_cm_core *cm_core,
				struct irdma_cm_work *work)
{
	unsigned long flags;
	bool queued = false;

	spin_lock_irqsave(&cm_core->work_lock, flags);
	if (!cm_core->dead)
		queued = queue_work(cm_core->wq, &work->work);
	spin_unlock_irqrestore(&cm_core->work_lock, flags);
	if (!queued)
		irdma_cm_free_work(work);
}

/*
 * ------------------------------------------------------------------------
 * Node table and node lifetime
 * ------------------------------------------------------------------------
 */

/**
 * irdma_cm_node_hash() - hash of a 4-tuple
 * @loc_addr: local address
 * @loc_port: local port
 * @rem_addr: remote address
 * @rem_port: remote port
 *
 * Return: the hash key for cm_core->nodes.
 */
static u32 irdma_cm_node_hash(const u32 *loc_addr, u16 loc_port,
			      const u32 *rem_addr, u16 rem_port)
{
	u32 key[9];

	memcpy(key, loc_addr, 16);
	memcpy(key + 4, rem_addr, 16);
	key[8] = (u32)loc_port << 16 | rem_port;
	return jhash2(key, ARRAY_SIZE(key), 0);
}

/**
 * irdma_cm_same_vlan() - do two VLAN ids name the same network
 * @a: VLAN id or IRDMA_CM_NO_VLAN
 * @b: VLAN id or IRDMA_CM_NO_VLAN
 *
 * VLAN id 0 is IEEE 802.1Q's priority tag: such a frame (or a VLAN
 * device with id 0) belongs to the untagged network and carries only a
 * priority.
 *
 * Return: true when @a and @b are the same VLAN, or both untagged.
 */
static bool irdma_cm_same_vlan(u16 a, u16 b)
{
	return (a ?: IRDMA_CM_NO_VLAN) == (b ?: IRDMA_CM_NO_VLAN);
}

/**
 * irdma_cm_pkt_vlan() - the VLAN a received frame belongs to
 * @pkt: the frame
 *
 * Return: its VLAN id, or IRDMA_CM_NO_VLAN when it is untagged or
 * priority-tagged (VLAN id 0; the priority is the node's user_pri).
 */
static u16 irdma_cm_pkt_vlan(const struct irdma_cm_rx_pkt *pkt)
{
	u16 vid = pkt->vlan_tci & VLAN_VID_MASK;

	return pkt->vlan_valid && vid ? vid : IRDMA_CM_NO_VLAN;
}

/**
 * irdma_find_node() - find the node of a 4-tuple
 * @cm_core: CM instance
 * @rem_port: remote port
 * @rem_addr: remote address, host order
 * @loc_port: local port
 * @loc_addr: local address
 * @vlan_id: VLAN id of the segment or IRDMA_CM_NO_VLAN
 *
 * Context: cm_core->mutex held.
 * Return: the node with a reference, or NULL.
 */
static struct irdma_cm_node *irdma_find_node(struct irdma_cm_core *cm_core,
					     u16 rem_port, const u32 *rem_addr,
					     u16 loc_port, const u32 *loc_addr,
					     u16 vlan_id)
{
	struct irdma_cm_node *cm_node;
	u32 key = irdma_cm_node_hash(loc_addr, loc_port, rem_addr, rem_port);

	lockdep_assert_held(&cm_core->mutex);
	hash_for_each_possible(cm_core->nodes, cm_node, hnode, key) {
		if (cm_node->loc_port == loc_port &&
		    cm_node->rem_port == rem_port &&
		    !memcmp(cm_node->loc_addr, loc_addr, 16) &&
		    !memcmp(cm_node->rem_addr, rem_addr, 16) &&
		    (irdma_cm_same_vlan(cm_node->vlan_id, vlan_id) ||
		     cm_node->loopback)) {
			irdma_cm_node_get(cm_node);
			return cm_node;
		}
	}
	return NULL;
}

/**
 * irdma_add_hte_node() - put a node in the node table
 * @cm_core: CM instance
 * @cm_node: node; the table takes a reference
 *
 * Context: cm_core->mutex held.
 */
static void irdma_add_hte_node(struct irdma_cm_core *cm_core,
			       struct irdma_cm_node *cm_node)
{
	lockdep_assert_held(&cm_core->mutex);
	irdma_cm_node_get(cm_node);
	hash_add(cm_core->nodes, &cm_node->hnode,
		 irdma_cm_node_hash(cm_node->loc_addr, cm_node->loc_port,
				    cm_node->rem_addr, cm_node->rem_port));
	cm_node->hashed = true;
}

/**
 * irdma_make_cm_node() - allocate and initialise a connection node
 * @cm_core: CM instance
 * @info: addresses, ports, VLAN, priority, TOS, next-hop MAC
 * @listener: passive: the top-level listener (a reference is taken; the
 *	node counts against its backlog from the end of the handshake on,
 *	irdma_cm_count()), or NULL for an active node
 *
 * The node starts IDLE with one reference (the caller's), is not in the
 * table, and has an initial sequence number from secure_tcp_seq() /
 * secure_tcpv6_seq() over the 4-tuple (RFC 6528), which also keeps ISNs of
 * a reused 4-tuple moving forward.
 *
 * Context: cm_core->mutex held.
 * Return: the node, or NULL on allocation failure.
 */
static struct irdma_cm_node *irdma_make_cm_node(struct irdma_cm_core *cm_core,
						const struct irdma_cm_info *info,
						struct irdma_cm_listener *listener)
{
	struct irdma_cm_node *cm_node;
	u32 mtu;

	lockdep_assert_held(&cm_core->mutex);
	cm_node = kzalloc(sizeof(*cm_node), GFP_KERNEL);
	if (!cm_node)
		return NULL;

	cm_node->core = cm_core;
	refcount_set(&cm_node->refcnt, 1);
	INIT_LIST_HEAD(&cm_node->tmp);
	INIT_LIST_HEAD(&cm_node->half_open_entry);
	cm_node->state = IRDMA_CM_STATE_IDLE;
	cm_node->active = !listener;
	cm_node->ipv4 = info->ipv4;
	memcpy(cm_node->loc_addr, info->loc_addr, sizeof(cm_node->loc_addr));
	memcpy(cm_node->rem_addr, info->rem_addr, sizeof(cm_node->rem_addr));
	cm_node->loc_port = info->loc_port;
	cm_node->rem_port = info->rem_port;
	cm_node->vlan_id = info->vlan_id;
	cm_node->user_pri = info->user_pri;
	cm_node->tos = info->tos;
	ether_addr_copy(cm_node->loc_mac, cm_core->netdev->dev_addr);
	ether_addr_copy(cm_node->rem_mac, info->rem_mac);
	cm_node->arp_idx = -1;

	mtu = cm_core->net->mtu(cm_core, info->vlan_id);
	cm_node->mss = irdma_cm_our_mss(info->ipv4, mtu);
	cm_node->rcv_wnd = IRDMA_CM_RCV_WND;
	cm_node->rcv_wscale = IRDMA_CM_RCV_WSCALE;
	cm_node->mpa_rev = IRDMA_MPA_REV2;
	cm_node->mpa_enhanced = true;
	cm_node->ird = IRDMA_CM_HW_MAX_IRD;
	cm_node->ord = IRDMA_CM_HW_MAX_ORD;

	if (info->ipv4) {
		cm_node->iss = secure_tcp_seq(htonl(info->loc_addr[0]),
					      htonl(info->rem_addr[0]),
					      htons(info->loc_port),
					      htons(info->rem_port));
	} else {
		__be32 loc[4], rem[4];

		irdma_copy_ip_htonl(loc, info->loc_addr);
		irdma_copy_ip_htonl(rem, info->rem_addr);
		cm_node->iss = secure_tcpv6_seq(loc, rem, htons(info->loc_port),
						htons(info->rem_port));
	}
	cm_node->snd_nxt = cm_node->iss;
	cm_node->snd_una = cm_node->iss;

	timer_setup(&cm_node->rexmit_timer, irdma_cm_timer_tick, 0);
	timer_setup(&cm_node->state_timer, irdma_cm_state_timer_fn, 0);
	INIT_WORK(&cm_node->rexmit_work.work, irdma_cm_event_handler);
	cm_node->rexmit_work.type = IRDMA_CM_WORK_REXMIT;
	cm_node->rexmit_work.core = cm_core;
	cm_node->rexmit_work.node = cm_node;
	cm_node->rexmit_work.embedded = true;
	INIT_WORK(&cm_node->tmo_work.work, irdma_cm_event_handler);
	cm_node->tmo_work.type = IRDMA_CM_WORK_TIMEOUT;
	cm_node->tmo_work.core = cm_core;
	cm_node->tmo_work.node = cm_node;
	cm_node->tmo_work.embedded = true;

	if (listener) {
		refcount_inc(&listener->refcnt);
		cm_node->listener = listener;
	}
	cm_core->node_cnt++;
	cm_core->stats.nodes_created++;
	return cm_node;
}

/**
 * irdma_cm_unlink_qp() - break the link between a node and its QP
 * @cm_node: node
 *
 * Drops the QP's reference on the node and the node's reference on the
 * QP.
 *
 * Context: cm_core->mutex held; the caller holds a node reference.
 */
static void irdma_cm_unlink_qp(struct irdma_cm_node *cm_node)
{
	struct irdma_qp *iwqp = cm_node->iwqp;

	lockdep_assert_held(&cm_node->core->mutex);
	if (!iwqp)
		return;
	cm_node->iwqp = NULL;
	if (irdma_qp_cm(iwqp)->cm_node == cm_node) {
		irdma_qp_cm(iwqp)->cm_node = NULL;
		irdma_qp_cm(iwqp)->close_armed = false;
		irdma_cm_node_put_nonlast(cm_node);
	}
	cm_node->core->ops->qp_put(iwqp);
}

/**
 * irdma_cm_unbind_cm_id() - drop the node's iw_cm id
 * @cm_node: node
 *
 * Context: cm_core->mutex held.
 */
static void irdma_cm_unbind_cm_id(struct irdma_cm_node *cm_node)
{
	struct iw_cm_id *cm_id = cm_node->cm_id;

	lockdep_assert_held(&cm_node->core->mutex);
	if (!cm_id)
		return;
	cm_node->cm_id = NULL;
	cm_id->rem_ref(cm_id);
}

/**
 * irdma_cm_node_room() - may the CM instance take one more node
 * @cm_core: CM instance
 *
 * Counts a refusal in stats.node_limit_drops.
 *
 * Context: cm_core->mutex held.
 * Return: true below tun.max_nodes.
 */
static bool irdma_cm_node_room(struct irdma_cm_core *cm_core)
{
	lockdep_assert_held(&cm_core->mutex);
	if (cm_core->node_cnt < cm_core->tun.max_nodes)
		return true;
	cm_core->stats.node_limit_drops++;
	return false;
}

/**
 * irdma_cm_count() - count a passive node against the backlog
 * @cm_node: passive node whose TCP handshake just ended
 *
 * Context: cm_core->mutex held.
 */
static void irdma_cm_count(struct irdma_cm_node *cm_node)
{
	lockdep_assert_held(&cm_node->core->mutex);
	if (!cm_node->listener || cm_node->counted)
		return;
	cm_node->counted = true;
	cm_node->listener->pending++;
}

/**
 * irdma_cm_uncount() - stop counting a passive node against the backlog
 * @cm_node: node
 *
 * Context: cm_core->mutex held.
 */
static void irdma_cm_uncount(struct irdma_cm_node *cm_node)
{
	lockdep_assert_held(&cm_node->core->mutex);
	if (cm_node->counted) {
		cm_node->counted = false;
		cm_node->listener->pending--;
	}
}

/**
 * irdma_rem_ref_cm_node() - drop a node reference; free on the last
 * @cm_node: node
 *
 * WARNs on underflow.  Freeing releases what the node still holds: the
 * stored segment, the LSMM copy, the steering entry, the APBVT port, the
 * address handle, the listener, the loopback partner, the QP and the
 * iw_cm id.  No timer can be armed then (each holds a reference).
 *
 * Context: cm_core->mutex held (hw ops are called); process context.
 */
static void irdma_rem_ref_cm_node(struct irdma_cm_node *cm_node)
{
	struct irdma_cm_core *cm_core = cm_node->core;

	lockdep_assert_held(&cm_core->mutex);
	if (WARN_ON(!refcount_read(&cm_node->refcnt)))
		return;
	if (!refcount_dec_and_test(&cm_node->refcnt))
		return;

	WARN_ON(cm_node->hashed);
	WARN_ON(timer_pending(&cm_node->rexmit_timer) ||
		timer_pending(&cm_node->state_timer));
	irdma_free_sqbuf(cm_node->tx.buf);
	irdma_free_lsmm_rsrc(cm_node);
	/* an offloaded QP removes the entry itself (qp_offload in cm.h) */
	if (cm_node->qhash_set && !cm_node->offloaded)
		irdma_cm_node_qhash(cm_node, false);
	if (cm_node->apbvt_set)
		cm_core->ops->apbvt(cm_core, cm_node->loc_port, false);
	irdma_cm_free_ah(cm_node);
	if (cm_node->listener) {
		irdma_cm_uncount(cm_node);
		irdma_cm_half_open_del(cm_node);
		irdma_dec_refcnt_listen(cm_core, cm_node->listener);
	}
	if (cm_node->lpb_peer) {
		struct irdma_cm_node *peer = cm_node->lpb_peer;

		cm_node->lpb_peer = NULL;
		irdma_rem_ref_cm_node(peer);
	}
	if (cm_node->iwqp)
		cm_core->ops->qp_put(cm_node->iwqp);
	irdma_cm_unbind_cm_id(cm_node);
	cm_core->node_cnt--;
	cm_core->stats.nodes_freed++;
	kfree(cm_node);
}

/*
 * ------------------------------------------------------------------------
 * Steering, address handles and transmission
 * ------------------------------------------------------------------------
 */

/**
 * irdma_qhash_ctrl() - add or delete a quad-hash steering entry
 * @cm_core: CM instance
 * @info: the entry (the local MAC is filled in here)
 * @add: add (else delete)
 *
 * Context: cm_core->mutex held; may sleep (CQP command).
 * Return: 0 or the hw layer's -errno.
 */
static int irdma_qhash_ctrl(struct irdma_cm_core *cm_core,
			    struct irdma_cm_qhash_info *info, bool add)
{
	int ret;

	lockdep_assert_held(&cm_core->mutex);
	ether_addr_copy(info->loc_mac, cm_core->netdev->dev_addr);
	ret = cm_core->ops->qhash(cm_core, info, add);
	if (ret)
		irdma_cm_dbg(cm_core, "qhash %s type %d port %u failed %d\n",
			     add ? "add" : "del", info->type, info->loc_port,
			     ret);
	return ret;
}

/**
 * irdma_cm_node_qhash() - steer (or stop steering) a connection's 4-tuple
 * to the ILQ
 * @cm_node: node
 * @add: add (else delete)
 *
 * Context: cm_core->mutex held; may sleep.
 * Return: 0 or -errno.
 */
static int irdma_cm_node_qhash(struct irdma_cm_node *cm_node, bool add)
{
	struct irdma_cm_qhash_info info = {
		.type = IRDMA_QHASH_TYPE_TCP_ESTABLISHED,
		.ipv4 = cm_node->ipv4,
		.loc_port = cm_node->loc_port,
		.rem_port = cm_node->rem_port,
		.vlan_id = cm_node->vlan_id,
	};
	int ret;

	lockdep_assert_held(&cm_node->core->mutex);
	if (add == cm_node->qhash_set)
		return 0;
	memcpy(info.loc_addr, cm_node->loc_addr, sizeof(info.loc_addr));
	memcpy(info.rem_addr, cm_node->rem_addr, sizeof(info.rem_addr));
	ret = irdma_qhash_ctrl(cm_node->core, &info, add);
	if (!ret || !add)
		cm_node->qhash_set = add;
	return ret;
}

/* an address handle no node uses is kept this long (jiffies) */
#define IRDMA_CM_AH_IDLE	HZ
/* ... and at most this many of them */
#define IRDMA_CM_AH_IDLE_MAX	16

/**
 * irdma_cm_ah_info_eq() - do two address handle requests ask the same?
 * @a: one
 * @b: the other
 *
 * Return: true when every field is equal.
 */
static bool irdma_cm_ah_info_eq(const struct irdma_cm_ah_info *a,
				const struct irdma_cm_ah_info *b)
{
	return a->ipv4 == b->ipv4 &&
	       !memcmp(a->loc_addr, b->loc_addr, sizeof(a->loc_addr)) &&
	       !memcmp(a->rem_addr, b->rem_addr, sizeof(a->rem_addr)) &&
	       ether_addr_equal(a->loc_mac, b->loc_mac) &&
	       ether_addr_equal(a->rem_mac, b->rem_mac) &&
	       a->insert_vlan == b->insert_vlan &&
	       (!a->insert_vlan || a->vlan_tci == b->vlan_tci) &&
	       a->tos == b->tos && a->hop_limit == b->hop_limit &&
	       a->arp_idx == b->arp_idx && a->loopback == b->loopback;
}

/**
 * irdma_cm_ah_free() - destroy an address handle no node uses
 * @cm_core: CM instance
 * @ah: the handle, idle
 *
 * Context: cm_core->mutex held; may sleep.
 */
static void irdma_cm_ah_free(struct irdma_cm_core *cm_core,
			     struct irdma_cm_ah *ah)
{
	lockdep_assert_held(&cm_core->mutex);
	WARN_ON(ah->users);
	list_del(&ah->list);
	cm_core->ahs_idle--;
	cm_core->ops->ah_destroy(cm_core, ah->id);
	kfree(ah);
}

/**
 * irdma_cm_ah_get() - an address handle for @info, shared when one exists
 * @cm_core: CM instance
 * @info: what the connection needs
 *
 * Context: cm_core->mutex held; may sleep.
 * Return: the handle with a use taken, or an ERR_PTR().
 */
static struct irdma_cm_ah *irdma_cm_ah_get(struct irdma_cm_core *cm_core,
					   const struct irdma_cm_ah_info *info)
{
	struct irdma_cm_ah *ah;
	int ret;

	lockdep_assert_held(&cm_core->mutex);
	list_for_each_entry(ah, &cm_core->ahs, list) {
		if (!irdma_cm_ah_info_eq(&ah->info, info))
			continue;
		if (!ah->users++)
			cm_core->ahs_idle--;
		return ah;
	}
	ah = kzalloc(sizeof(*ah), GFP_KERNEL);
	if (!ah)
		return ERR_PTR(-ENOMEM);
	ret = cm_core->ops->ah_create(cm_core, info, &ah->id);
	if (ret) {
		kfree(ah);
		return ERR_PTR(ret);
	}
	ah->info = *info;
	ah->users = 1;
	list_add(&ah->list, &cm_core->ahs);
	return ah;
}

/**
 * irdma_cm_ah_put() - a node is done with its address handle
 * @cm_core: CM instance
 * @ah: the handle
 *
 * The last user leaves it idle for the next connection that asks the
 * same; the reaper destroys it after IRDMA_CM_AH_IDLE.  Past
 * IRDMA_CM_AH_IDLE_MAX idle handles the one idle longest is destroyed at
 * once, and once the instance is going this one is.
 *
 * Context: cm_core->mutex held; may sleep.
 */
static void irdma_cm_ah_put(struct irdma_cm_core *cm_core,
			    struct irdma_cm_ah *ah)
{
	lockdep_assert_held(&cm_core->mutex);
	if (WARN_ON(!ah->users) || --ah->users)
		return;
	ah->idle_since = jiffies;
	cm_core->ahs_idle++;
	/* most recently used first */
	list_move(&ah->list, &cm_core->ahs);
	if (READ_ONCE(cm_core->dead)) {
		irdma_cm_ah_free(cm_core, ah);
		return;
	}
	if (cm_core->ahs_idle > IRDMA_CM_AH_IDLE_MAX) {
		/* the one idle longest makes room */
		list_for_each_entry_reverse(ah, &cm_core->ahs, list) {
			if (!ah->users) {
				irdma_cm_ah_free(cm_core, ah);
				break;
			}
		}
	}
	/* no-op while a run is already queued */
	queue_delayed_work(cm_core->wq, &cm_core->ah_reap, IRDMA_CM_AH_IDLE);
}

/**
 * irdma_cm_ah_reap() - destroy the address handles idle for long enough
 * @work: cm_core->ah_reap
 *
 * Context: the CM workqueue; takes cm_core->mutex.
 */
static void irdma_cm_ah_reap(struct work_struct *work)
{
	struct irdma_cm_core *cm_core =
		container_of(to_delayed_work(work), struct irdma_cm_core,
			     ah_reap);
	struct irdma_cm_ah *ah, *tmp;
	unsigned long first = 0;
	bool left = false;

	mutex_lock(&cm_core->mutex);
	list_for_each_entry_safe(ah, tmp, &cm_core->ahs, list) {
		if (ah->users)
			continue;
		if (time_before(jiffies, ah->idle_since + IRDMA_CM_AH_IDLE)) {
			/* the earliest to expire sets the next run */
			if (!left || time_before(ah->idle_since, first))
				first = ah->idle_since;
			left = true;
			continue;
		}
		irdma_cm_ah_free(cm_core, ah);
	}
	if (left && !READ_ONCE(cm_core->dead)) {
		unsigned long now = jiffies;

		queue_delayed_work(cm_core->wq, &cm_core->ah_reap,
				   time_after(first + IRDMA_CM_AH_IDLE, now) ?
				   first + IRDMA_CM_AH_IDLE - now : 0);
	}
	mutex_unlock(&cm_core->mutex);
}

/**
 * irdma_cm_create_ah() - get the ILQ address handle of a connection
 * @cm_node: node (remote MAC, VLAN, priority, TOS known)
 *
 * Adds or refreshes the ARP-cache entry of the next hop first; its index
 * goes into the address handle and later into the QP context.
 *
 * Context: cm_core->mutex held; may sleep.
 * Return: 0 or -errno.
 */
static int irdma_cm_create_ah(struct irdma_cm_node *cm_node)
{
	struct irdma_cm_core *cm_core = cm_node->core;
	struct irdma_cm_ah_info info = {};
	struct irdma_cm_ah *ah;
	int ret;

	lockdep_assert_held(&cm_core->mutex);
	if (cm_node->ah)
		return 0;
	ret = cm_core->ops->arp_index(cm_core, cm_node->ipv4, cm_node->rem_addr,
				      cm_node->rem_mac);
	if (ret < 0)
		return ret;
	cm_node->arp_idx = ret;

	info.ipv4 = cm_node->ipv4;
	memcpy(info.loc_addr, cm_node->loc_addr, sizeof(info.loc_addr));
	memcpy(info.rem_addr, cm_node->rem_addr, sizeof(info.rem_addr));
	ether_addr_copy(info.loc_mac, cm_node->loc_mac);
	ether_addr_copy(info.rem_mac, cm_node->rem_mac);
	if (cm_node->vlan_id < VLAN_N_VID) {
		info.insert_vlan = true;
		info.vlan_tci = cm_node->vlan_id |
				(u16)cm_node->user_pri << VLAN_PRIO_SHIFT;
	}
	info.tos = cm_node->tos;
	info.hop_limit = IRDMA_CM_DEFAULT_TTL;
	info.arp_idx = cm_node->arp_idx;
	info.loopback = cm_node->loopback ||
			!memcmp(cm_node->loc_addr, cm_node->rem_addr, 16);
	ah = irdma_cm_ah_get(cm_core, &info);
	if (IS_ERR(ah))
		return PTR_ERR(ah);
	cm_node->ah = ah;
	return 0;
}

/**
 * irdma_cm_free_ah() - let go of the ILQ address handle of a connection
 * @cm_node: node
 *
 * Context: cm_core->mutex held; may sleep.
 */
static void irdma_cm_free_ah(struct irdma_cm_node *cm_node)
{
	lockdep_assert_held(&cm_node->core->mutex);
	if (!cm_node->ah)
		return;
	irdma_cm_ah_put(cm_node->core, cm_node->ah);
	cm_node->ah = NULL;
}

/**
 * irdma_cm_send_seg() - build, send and optionally keep a segment
 * @cm_node: node
 * @opts: TCP options or NULL
 * @optlen: bytes of @opts
 * @payload: payload or NULL
 * @plen: bytes of @payload
 * @flags: IRDMA_TCP_* flags
 * @rexmit: keep the segment until acknowledged and retransmit it
 *
 * A send failure of the hw layer is treated like a loss: a kept segment
 * is retransmitted.  Loopback nodes and nodes without an address handle
 * send nothing (their sequence numbers still advance).
 *
 * Context: cm_core->mutex held; may sleep.
 * Return: 0, or -ENOMEM.
 */
static int irdma_cm_send_seg(struct irdma_cm_node *cm_node, const u8 *opts,
			     u32 optlen, const u8 *payload, u32 plen, u8 flags,
			     bool rexmit)
{
	struct irdma_cm_core *cm_core = cm_node->core;
	u32 len, hdr_len;
	u8 *buf;

	lockdep_assert_held(&cm_core->mutex);
	buf = irdma_cm_get_sqbuf(cm_core, plen);
	if (!buf)
		return -ENOMEM;
	len = irdma_form_ah_cm_frame(cm_node, buf, opts, optlen, payload, plen,
				     flags, &hdr_len);
	if (cm_node->ah && !cm_node->loopback) {
		if (!cm_core->ops->ilq_send(cm_core, cm_node->ah->id, buf, len,
					    hdr_len))
			cm_core->stats.tx_segs++;
	}
	if (rexmit)
		irdma_schedule_cm_timer(cm_node, buf, len, hdr_len);
	else
		irdma_free_sqbuf(buf);
	return 0;
}

/**
 * irdma_send_syn() - send our SYN or SYN-ACK
 * @cm_node: node
 * @sendack: SYN-ACK (passive) rather than SYN (active)
 *
 * Options: MSS (our MTU minus headers) and window scale (shift 2),
 * padded with EOL to a 28-byte header.  A SYN-ACK offers window scaling
 * only if the SYN did (RFC 7323).  The segment is retransmitted until
 * acknowledged.
 *
 * Context: cm_core->mutex held.
 * Return: 0 or -ENOMEM.
 */
static int irdma_send_syn(struct irdma_cm_node *cm_node, bool sendack)
{
	u8 opts[IRDMA_CM_TCP_SYN_OPT_SIZE] = {};
	u32 mtu = cm_node->core->net->mtu(cm_node->core, cm_node->vlan_id);
	u8 flags = IRDMA_TCP_SYN;

	lockdep_assert_held(&cm_node->core->mutex);
	opts[0] = IRDMA_TCPOPT_MSS;
	opts[1] = IRDMA_TCPOLEN_MSS;
	put_unaligned_be16(irdma_cm_our_mss(cm_node->ipv4, mtu), opts + 2);
	if (!sendack || cm_node->peer_ws_ok) {
		opts[4] = IRDMA_TCPOPT_WS;
		opts[5] = IRDMA_TCPOLEN_WS;
		opts[6] = IRDMA_CM_RCV_WSCALE;
	}
	opts[7] = IRDMA_TCPOPT_EOL;
	if (sendack)
		flags |= IRDMA_TCP_ACK;
	/* RFC 3168: an ECN-setup SYN carries ECE and CWR, its SYN-ACK ECE */
	if (!sendack && cm_node->ecn_asked)
		flags |= IRDMA_TCP_ECE | IRDMA_TCP_CWR;
	if (sendack && cm_node->ecn)
		flags |= IRDMA_TCP_ECE;
	return irdma_cm_send_seg(cm_node, opts, sizeof(opts), NULL, 0, flags,
				 true);
}

/**
 * irdma_send_ack() - send a pure ACK
 * @cm_node: node
 *
 * Context: cm_core->mutex held.
 * Return: 0 or -ENOMEM.
 */
static int irdma_send_ack(struct irdma_cm_node *cm_node)
{
	lockdep_assert_held(&cm_node->core->mutex);
	return irdma_cm_send_seg(cm_node, NULL, 0, NULL, 0, IRDMA_TCP_ACK,
				 false);
}

/**
 * irdma_send_reset() - send RST|ACK and stop retransmitting
 * @cm_node: node
 *
 * Context: cm_core->mutex held.
 * Return: 0 or -ENOMEM.
 */
static int irdma_send_reset(struct irdma_cm_node *cm_node)
{
	u8 flags = IRDMA_TCP_RST;

	lockdep_assert_held(&cm_node->core->mutex);
	irdma_free_retrans_entry(cm_node);
	if (cm_node->state != IRDMA_CM_STATE_SYN_SENT)
		flags |= IRDMA_TCP_ACK;
	cm_node->core->stats.resets_sent++;
	return irdma_cm_send_seg(cm_node, NULL, 0, NULL, 0, flags, false);
}

/**
 * irdma_send_fin() - send our FIN (with ACK)
 * @cm_node: node
 *
 * Data we sent that is still unacknowledged would leave a hole behind
 * the FIN; the connection is aborted with RST instead and -ECONNABORTED
 * returned.  The FIN is retransmitted until acknowledged.
 *
 * Context: cm_core->mutex held.
 * Return: 0, -ECONNABORTED or -ENOMEM.
 */
static int irdma_send_fin(struct irdma_cm_node *cm_node)
{
	lockdep_assert_held(&cm_node->core->mutex);
	if (cm_node->tx.pending && cm_node->tx.len > cm_node->tx.hdr_len) {
		irdma_send_reset(cm_node);
		return -ECONNABORTED;
	}
	irdma_free_retrans_entry(cm_node);
	return irdma_cm_send_seg(cm_node, NULL, 0, NULL, 0,
				 IRDMA_TCP_FIN | IRDMA_TCP_ACK, true);
}

/**
 * irdma_send_mpa_request() - the active node sends the MPA request to the
 * passive node
 * @cm_node: active node; its MPA request was built at connect time
 *	(irdma_cm_build_mpa_frame()) and is rebuilt here for the revision
 *	in use
 *
 * The request rides on the ACK of the SYN-ACK and is retransmitted until
 * acknowledged.  The node moves to MPAREQ_SENT and its state timer waits
 * tun.mpa_timeout for the reply (irdma_handle_close_entry()).
 *
 * Context: cm_core->mutex held.
 * Return: 0, -EINVAL if the frame cannot be built, or -ENOMEM.
 */
static int irdma_send_mpa_request(struct irdma_cm_node *cm_node)
{
	u16 old_hdr = cm_node->mpa_frame_len - cm_node->ulp_pdata_len;
	int ret;

	lockdep_assert_held(&cm_node->core->mutex);
	/* private data sits behind whichever header was built last */
	if (!irdma_cm_mpa_out(cm_node, true, false,
			      cm_node->mpa_frame + old_hdr,
			      cm_node->ulp_pdata_len))
		return -EINVAL;
	ret = irdma_cm_send_seg(cm_node, NULL, 0, cm_node->mpa_frame,
				cm_node->mpa_frame_len,
				IRDMA_TCP_ACK | IRDMA_TCP_PSH, true);
	if (ret)
		return ret;
	irdma_cm_set_state(cm_node, IRDMA_CM_STATE_MPAREQ_SENT);
	/* an acknowledged request stops the retransmissions, not the wait */
	irdma_cm_arm_state_timer(cm_node, cm_node->core->tun.mpa_timeout);
	return 0;
}

/**
 * irdma_send_mpa_reject() - refuse a connection request: MPA reply with
 * the R flag, then FIN
 * @cm_node: passive node
 * @pdata: private data for the peer, or NULL
 * @plen: bytes of @pdata
 *
 * The reply is retransmitted until acknowledged; the FIN follows once it
 * is (irdma_cm_ack_advance()), in a segment of its own: a peer that
 * handles data and close in separate work items (soft-iWARP) could see
 * the close first and lose the reject's private data.  The node moves to
 * FIN_WAIT1 at once.  (A FIN from the peer before the reject ends the
 * request first, irdma_handle_fin_pkt(), and the reject then finds no
 * request: irdma_cm_reject().)
 *
 * Context: cm_core->mutex held.
 * Return: 0, -EINVAL or -ENOMEM.
 */
static int irdma_send_mpa_reject(struct irdma_cm_node *cm_node,
				 const void *pdata, u8 plen)
{
	int ret;

	lockdep_assert_held(&cm_node->core->mutex);
	if (!irdma_cm_mpa_out(cm_node, false, true, pdata, plen))
		return -EINVAL;
	irdma_free_retrans_entry(cm_node);
	ret = irdma_cm_send_seg(cm_node, NULL, 0, cm_node->mpa_frame,
				cm_node->mpa_frame_len,
				IRDMA_TCP_ACK | IRDMA_TCP_PSH, true);
	if (ret)
		return ret;
	cm_node->fin_deferred = true;
	irdma_cm_set_state(cm_node, IRDMA_CM_STATE_FIN_WAIT1);
	return 0;
}

/*
 * ------------------------------------------------------------------------
 * Events to iw_cm
 * ------------------------------------------------------------------------
 */

/**
 * irdma_cm_sockaddr() - one end of a connection as a sockaddr
 * @ipv4: an IPv4 address (else IPv6)
 * @addr: the address, in host-order words
 * @port: the TCP port
 * @ss: receives a sockaddr_in or sockaddr_in6 (the rest is left as is)
 */
static void irdma_cm_sockaddr(bool ipv4, const u32 *addr, u16 port,
			      struct sockaddr_storage *ss)
{
	struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)ss;
	struct sockaddr_in *sin = (struct sockaddr_in *)ss;

	ss->ss_family = ipv4 ? AF_INET : AF_INET6;
	if (ipv4) {
		sin->sin_port = htons(port);
		sin->sin_addr.s_addr = htonl(addr[0]);
		return;
	}
	sin6->sin6_port = htons(port);
	irdma_copy_ip_htonl(sin6->sin6_addr.s6_addr32, addr);
}

/**
 * irdma_fill_sockaddr4() - IPv4 addresses of a node into an iw_cm event
 * @cm_node: node (wire addresses: iw_cm maps them back for iwpm)
 * @event: event
 */
static void irdma_fill_sockaddr4(struct irdma_cm_node *cm_node,
				 struct iw_cm_event *event)
{
	irdma_cm_sockaddr(true, cm_node->loc_addr, cm_node->loc_port,
			  &event->local_addr);
	irdma_cm_sockaddr(true, cm_node->rem_addr, cm_node->rem_port,
			  &event->remote_addr);
}

/**
 * irdma_fill_sockaddr6() - IPv6 addresses of a node into an iw_cm event
 * @cm_node: node (wire addresses)
 * @event: event
 */
static void irdma_fill_sockaddr6(struct irdma_cm_node *cm_node,
				 struct iw_cm_event *event)
{
	irdma_cm_sockaddr(false, cm_node->loc_addr, cm_node->loc_port,
			  &event->local_addr);
	irdma_cm_sockaddr(false, cm_node->rem_addr, cm_node->rem_port,
			  &event->remote_addr);
}

/**
 * irdma_cm_node_addrs() - a node's wire addresses and ports as sockaddrs
 * @cm_node: node
 * @loc: receives the local end
 * @rem: receives the remote end
 *
 * For the tracepoints: the wire addresses, as in the iw_cm events.
 */
void irdma_cm_node_addrs(const struct irdma_cm_node *cm_node,
			 struct sockaddr_storage *loc,
			 struct sockaddr_storage *rem)
{
	irdma_cm_sockaddr(cm_node->ipv4, cm_node->loc_addr, cm_node->loc_port,
			  loc);
	irdma_cm_sockaddr(cm_node->ipv4, cm_node->rem_addr, cm_node->rem_port,
			  rem);
}

/**
 * irdma_cm_node_qpn() - the QP number of a node's connection
 * @cm_node: node
 *
 * Return: the QP bound by connect or accept, 0 before that.
 */
u32 irdma_cm_node_qpn(const struct irdma_cm_node *cm_node)
{
	return cm_node->iwqp ? cm_node->iwqp->id : 0;
}

/**
 * irdma_get_cmevent_info() - fill an iw_cm event from a node
 * @cm_node: node
 * @cm_id: iw_cm id the event goes to
 * @event: event with its type set
 *
 * Addresses are the wire (mapped) ones; private data is the peer's
 * without the RFC 6581 block.  For CONNECT_REQUEST, ird/ord tell the ULP
 * what the initiator offered: ird = the ORD we may use (the peer's IRD),
 * ord = the IRD we need (the peer's ORD), both capped at the adapter's
 * limits; for the other events they are the negotiated values.
 */
static void irdma_get_cmevent_info(struct irdma_cm_node *cm_node,
				   struct iw_cm_id *cm_id,
				   struct iw_cm_event *event)
{
	if (cm_node->ipv4)
		irdma_fill_sockaddr4(cm_node, event);
	else
		irdma_fill_sockaddr6(cm_node, event);

	switch (event->event) {
	case IW_CM_EVENT_CONNECT_REQUEST:
		/* a handle, not the node: see irdma_cm_connreq_take() */
		event->provider_data = (void *)(unsigned long)cm_node->connreq_id;
		event->private_data = cm_node->pdata;
		event->private_data_len = min_t(u16, cm_node->pdata_len,
						IRDMA_CM_MAX_ULP_PDATA);
		event->ird = min_t(u16, cm_node->peer_ird, IRDMA_CM_HW_MAX_ORD);
		event->ord = min_t(u16, cm_node->peer_ord, IRDMA_CM_HW_MAX_IRD);
		break;
	case IW_CM_EVENT_CONNECT_REPLY:
		event->private_data = cm_node->pdata;
		event->private_data_len = min_t(u16, cm_node->pdata_len,
						IRDMA_CM_MAX_ULP_PDATA);
		fallthrough;
	default:
		event->ird = min_t(u16, cm_node->ird, U8_MAX);
		event->ord = min_t(u16, cm_node->ord, U8_MAX);
		break;
	}
}

/**
 * irdma_cm_event_name() - an iw_cm event's name, for messages
 * @type: event type
 *
 * Return: a constant string.
 */
static const char *irdma_cm_event_name(enum iw_cm_event_type type)
{
	switch (type) {
	case IW_CM_EVENT_CONNECT_REQUEST:
		return "CONNECT_REQUEST";
	case IW_CM_EVENT_CONNECT_REPLY:
		return "CONNECT_REPLY";
	case IW_CM_EVENT_ESTABLISHED:
		return "ESTABLISHED";
	case IW_CM_EVENT_DISCONNECT:
		return "DISCONNECT";
	case IW_CM_EVENT_CLOSE:
		return "CLOSE";
	default:
		return "?";
	}
}

/**
 * irdma_cm_event_next() - where an event would take a node's iw_cm state
 * @cm_node: node
 * @type: event type
 * @status: 0 or -errno
 * @next: set to the state after the event when it is allowed
 *
 * iw_cm's order, per connection: passive CONNECT_REQUEST (to the
 * listener), then ESTABLISHED once accepted; active CONNECT_REPLY, whose
 * error status ends everything; then at most one DISCONNECT; then one
 * CLOSE, after which nothing.  iw_cm BUG()s on a CLOSE for a passive id
 * still waiting for ESTABLISHED (cm_close_handler()) and gets confused by
 * the other orders (a CONNECT_REPLY after a failed one drops a QP
 * reference twice).
 *
 * Return: true when iw_cm accepts @type now.
 */
static bool irdma_cm_event_next(const struct irdma_cm_node *cm_node,
				enum iw_cm_event_type type, int status,
				enum irdma_cm_ulp_state *next)
{
	enum irdma_cm_ulp_state cur = cm_node->ulp_state;

	switch (type) {
	case IW_CM_EVENT_CONNECT_REQUEST:
		*next = IRDMA_CM_ULP_REQUESTED;
		return !cm_node->active && cur == IRDMA_CM_ULP_NONE;
	case IW_CM_EVENT_CONNECT_REPLY:
		*next = status ? IRDMA_CM_ULP_DONE : IRDMA_CM_ULP_CONNECTED;
		return cm_node->active && cur == IRDMA_CM_ULP_NONE;
	case IW_CM_EVENT_ESTABLISHED:
		*next = IRDMA_CM_ULP_CONNECTED;
		return !cm_node->active && cur == IRDMA_CM_ULP_REQUESTED;
	case IW_CM_EVENT_DISCONNECT:
		*next = IRDMA_CM_ULP_DISCONNECTED;
		return cur == IRDMA_CM_ULP_CONNECTED;
	case IW_CM_EVENT_CLOSE:
		*next = IRDMA_CM_ULP_DONE;
		return cur == IRDMA_CM_ULP_CONNECTED ||
		       cur == IRDMA_CM_ULP_DISCONNECTED;
	default:
		return false;
	}
}

/**
 * irdma_cm_ulp_done() - iw_cm expects no more events for this node
 * @cm_node: node whose connect or accept failed synchronously
 *
 * Context: cm_core->mutex held.
 */
static void irdma_cm_ulp_done(struct irdma_cm_node *cm_node)
{
	lockdep_assert_held(&cm_node->core->mutex);
	cm_node->ulp_state = IRDMA_CM_ULP_DONE;
}

/**
 * irdma_send_cm_event() - deliver one event to an iw_cm id, in iw_cm's
 * order
 * @cm_node: node the event is about
 * @cm_id: iw_cm id
 * @type: event type
 * @status: 0 or -errno
 *
 * The one place events leave the CM.  An event iw_cm does not accept in
 * the node's state (irdma_cm_event_next()) is a bug of the CM: it is
 * dropped, counted in stats.events_dropped and reported (rate limited),
 * never delivered.
 *
 * Context: cm_core->mutex held; iw_cm only queues the event.
 * Return: the event handler's return value, or -EPROTO for a dropped
 * event.
 */
static int irdma_send_cm_event(struct irdma_cm_node *cm_node,
			       struct iw_cm_id *cm_id,
			       enum iw_cm_event_type type, int status)
{
	struct iw_cm_event event = {
		.event = type,
		.status = status,
	};
	enum irdma_cm_ulp_state next;

	lockdep_assert_held(&cm_node->core->mutex);
	if (!irdma_cm_event_next(cm_node, type, status, &next)) {
		cm_node->core->stats.events_dropped++;
		irdma_cm_err(cm_node->core,
			     "%s node %u->%u: %s(%d) out of order (iw_cm state %d), dropped\n",
			     cm_node->active ? "active" : "passive",
			     cm_node->loc_port, cm_node->rem_port,
			     irdma_cm_event_name(type), status,
			     cm_node->ulp_state);
		return -EPROTO;
	}
	cm_node->ulp_state = next;
	irdma_get_cmevent_info(cm_node, cm_id, &event);
	trace_irdma_cm_event(cm_node, cm_id, type, status);
	irdma_cm_dbg(cm_node->core, "node %p event %d status %d\n", cm_node,
		     type, status);
	return cm_id->event_handler(cm_id, &event);
}

/**
 * irdma_event_connect_error() - fail an active open towards the ULP
 * @cm_node: active node
 * @status: -errno for CONNECT_REPLY (-ECONNREFUSED, -ECONNRESET,
 *	-ETIMEDOUT, ...)
 *
 * Sends CONNECT_REPLY with @status once, then drops the iw_cm id and the
 * QP binding (iw_cm drops its own QP reference on a failed reply).
 *
 * Context: cm_core->mutex held.
 */
static void irdma_event_connect_error(struct irdma_cm_node *cm_node,
				      int status)
{
	lockdep_assert_held(&cm_node->core->mutex);
	if (cm_node->cm_id && !cm_node->connect_reported) {
		cm_node->connect_reported = true;
		cm_node->close_reported = true;
		irdma_send_cm_event(cm_node, cm_node->cm_id,
				    IW_CM_EVENT_CONNECT_REPLY, status);
	}
	irdma_cm_unlink_qp(cm_node);
	irdma_cm_unbind_cm_id(cm_node);
}

/**
 * irdma_cm_report_fail() - tell the ULP a connection is gone, whatever
 * it was told so far
 * @cm_node: node
 * @status: -errno
 *
 * Active, before CONNECT_REPLY: CONNECT_REPLY(@status).  Passive after
 * accept, before ESTABLISHED: ESTABLISHED then CLOSE(@status), because
 * iw_cm accepts no CLOSE before ESTABLISHED on a passive id.  Otherwise
 * CLOSE(@status) once.  Then the iw_cm id and the QP are let go.
 *
 * Context: cm_core->mutex held.
 */
static void irdma_cm_report_fail(struct irdma_cm_node *cm_node, int status)
{
	struct iw_cm_id *cm_id = cm_node->cm_id;

	lockdep_assert_held(&cm_node->core->mutex);
	if (!cm_id)
		goto unlink;
	if (cm_node->active && !cm_node->connect_reported) {
		irdma_event_connect_error(cm_node, status);
		return;
	}
	if (!cm_node->active && !cm_node->established_reported) {
		cm_node->established_reported = true;
		irdma_send_cm_event(cm_node, cm_id, IW_CM_EVENT_ESTABLISHED, 0);
	}
	if (!cm_node->close_reported) {
		cm_node->close_reported = true;
		irdma_send_cm_event(cm_node, cm_id, IW_CM_EVENT_CLOSE, status);
	}
unlink:
	irdma_cm_unlink_qp(cm_node);
	irdma_cm_unbind_cm_id(cm_node);
}

/**
 * irdma_cm_event_reset() - the peer reset a connection: tell the ULP and
 * end the node
 * @cm_node: node (the caller holds a reference)
 *
 * Context: cm_core->mutex held.
 */
static void irdma_cm_event_reset(struct irdma_cm_node *cm_node)
{
	lockdep_assert_held(&cm_node->core->mutex);
	cm_node->core->stats.resets_rcvd++;
	irdma_cm_report_fail(cm_node, cm_node->active &&
			     cm_node->state == IRDMA_CM_STATE_SYN_SENT ?
			     -ECONNREFUSED : -ECONNRESET);
	irdma_cm_node_finish(cm_node);
}

/**
 * irdma_active_open_err() - an active open failed before offload
 * @cm_node: active node (the caller holds a reference)
 * @reset: send RST to the peer
 * @status: -errno for the ULP's CONNECT_REPLY
 *
 * Context: cm_core->mutex held.
 */
static void irdma_active_open_err(struct irdma_cm_node *cm_node, bool reset,
				  int status)
{
	lockdep_assert_held(&cm_node->core->mutex);
	if (reset)
		irdma_send_reset(cm_node);
	irdma_event_connect_error(cm_node, status);
	irdma_cm_node_finish(cm_node);
}

/**
 * irdma_passive_open_err() - a passive open failed before offload
 * @cm_node: passive node (the caller holds a reference)
 * @reset: send RST to the peer
 *
 * The ULP knows nothing of the connection unless a CONNECT_REQUEST went
 * out; then accept or reject finds the node closed.
 *
 * Context: cm_core->mutex held.
 */
static void irdma_passive_open_err(struct irdma_cm_node *cm_node, bool reset)
{
	lockdep_assert_held(&cm_node->core->mutex);
	if (reset)
		irdma_send_reset(cm_node);
	irdma_cm_report_fail(cm_node, -ECONNRESET);
	irdma_cm_node_finish(cm_node);
}

/**
 * irdma_cm_node_finish() - a node is done: CLOSED, timers off, out of the
 * table, links to the QP, the loopback partner and the iw_cm id dropped
 * @cm_node: node (the caller holds a reference; the node is freed when
 *	that reference goes)
 *
 * Context: cm_core->mutex held.
 */
static void irdma_cm_node_finish(struct irdma_cm_node *cm_node)
{
	lockdep_assert_held(&cm_node->core->mutex);
	if (cm_node->state != IRDMA_CM_STATE_CLOSED)
		irdma_cm_set_state(cm_node, IRDMA_CM_STATE_CLOSED);
	irdma_free_retrans_entry(cm_node);
	irdma_cm_stop_state_timer(cm_node);
	irdma_cm_uncount(cm_node);
	irdma_cm_unlink_qp(cm_node);
	irdma_cm_unbind_cm_id(cm_node);
	if (cm_node->lpb_peer) {
		struct irdma_cm_node *peer = cm_node->lpb_peer;

		cm_node->lpb_peer = NULL;
		irdma_rem_ref_cm_node(peer);
	}
	if (cm_node->hashed) {
		hash_del(&cm_node->hnode);
		cm_node->hashed = false;
		irdma_rem_ref_cm_node(cm_node);
	}
}

/*
 * ------------------------------------------------------------------------
 * Received segments
 * ------------------------------------------------------------------------
 */

/**
 * irdma_cm_take_token() - take one token of a reply budget
 * @cm_core: CM instance
 * @left: tokens left in the budget
 *
 * Context: cm_core->mutex held.
 * Return: true if a token was taken; false (counted in
 * stats.replies_ratelimited) if the budget is spent.
 */
static bool irdma_cm_take_token(struct irdma_cm_core *cm_core, u32 *left)
{
	lockdep_assert_held(&cm_core->mutex);
	if (!*left) {
		cm_core->stats.replies_ratelimited++;
		return false;
	}
	(*left)--;
	return true;
}

/**
 * irdma_cm_reply_allowed() - may one more reset answering a segment go out
 * @cm_core: CM instance
 *
 * A token bucket per CM instance for stateless RSTs and RSTs to
 * unacceptable segments: tun.reply_rate tokens a second, at most
 * tun.reply_burst.  A spoofed flood then costs neither unbounded
 * transmissions (nor, for stateless RSTs, the AH each one takes) nor a
 * reflected storm towards a victim.  Challenge ACKs draw from a budget of
 * their own (irdma_cm_challenge_allowed()), so that probing with resets
 * tells nothing of it.  Refusals are counted in stats.replies_ratelimited.
 *
 * Context: cm_core->mutex held.
 * Return: true if the reply may be sent (a token was taken).
 */
static bool irdma_cm_reply_allowed(struct irdma_cm_core *cm_core)
{
	unsigned long now = jiffies;
	u64 add;

	lockdep_assert_held(&cm_core->mutex);
	if (!cm_core->tun.reply_rate)
		return true;
	/* whole tokens earned since the last refill (a second's worth at most) */
	add = div_u64((u64)min_t(unsigned long, now - cm_core->reply_stamp, HZ) *
		      cm_core->tun.reply_rate, HZ);
	if (add) {
		cm_core->reply_tokens = min_t(u64, cm_core->reply_tokens + add,
					      cm_core->tun.reply_burst);
		cm_core->reply_stamp = now;
	}
	return irdma_cm_take_token(cm_core, &cm_core->reply_tokens);
}

/**
 * irdma_cm_challenge_budget() - take one ACK from this second's budget
 * @cm_core: CM instance
 *
 * RFC 5961 section 7 bounds challenge ACKs per interval.  A fixed budget
 * shared by every connection is itself a side channel (CVE-2016-5696: an
 * off-path sender that exhausts it and counts the ACKs it gets back learns
 * whether its spoofed segments hit a victim's window), so each second's
 * budget is drawn at random from [limit / 2, limit * 3 / 2), as the
 * kernel's TCP does, and the per-node gap of irdma_cm_challenge_allowed()
 * keeps one connection from spending it.
 *
 * Context: cm_core->mutex held.
 * Return: true if an ACK was taken from the budget.
 */
static bool irdma_cm_challenge_budget(struct irdma_cm_core *cm_core)
{
	unsigned int limit = cm_core->tun.challenge_limit;
	unsigned long sec = jiffies / HZ;

	lockdep_assert_held(&cm_core->mutex);
	if (!limit)
		return true;
	if (sec != cm_core->challenge_sec) {
		cm_core->challenge_sec = sec;
		cm_core->challenge_left = (limit + 1) / 2 +
					  get_random_u32_below(limit);
	}
	return irdma_cm_take_token(cm_core, &cm_core->challenge_left);
}

/**
 * irdma_cm_challenge_allowed() - may a node answer a suspicious or
 * out-of-window segment with an ACK now
 * @cm_node: node in a synchronised state
 *
 * At most one such ACK per node per tun.oow_gap (a forged flood aimed at
 * one connection is answered a few times a second, as the kernel's
 * tcp_invalid_ratelimit does), and within the instance's randomised
 * budget (irdma_cm_challenge_budget()).
 *
 * Context: cm_core->mutex held.
 * Return: true if the ACK may be sent.
 */
static bool irdma_cm_challenge_allowed(struct irdma_cm_node *cm_node)
{
	struct irdma_cm_core *cm_core = cm_node->core;
	unsigned long now = jiffies;

	lockdep_assert_held(&cm_core->mutex);
	if (cm_core->tun.oow_gap && cm_node->oow_sent &&
	    time_before(now, cm_node->oow_stamp + cm_core->tun.oow_gap)) {
		cm_core->stats.replies_ratelimited++;
		return false;
	}
	if (!irdma_cm_challenge_budget(cm_core))
		return false;
	cm_node->oow_stamp = now;
	cm_node->oow_sent = true;
	return true;
}

/**
 * irdma_cm_challenge_ack() - answer a suspicious RST or SYN with an ACK
 * (RFC 5961 sections 3.2 and 4.2)
 * @cm_node: node in a synchronised state
 *
 * Rate-limited per node and per instance (irdma_cm_challenge_allowed()).
 *
 * Context: cm_core->mutex held.
 */
static void irdma_cm_challenge_ack(struct irdma_cm_node *cm_node)
{
	lockdep_assert_held(&cm_node->core->mutex);
	if (!irdma_cm_challenge_allowed(cm_node))
		return;
	cm_node->core->stats.challenge_acks++;
	irdma_send_ack(cm_node);
}

/**
 * irdma_cm_oow_ack() - answer an out-of-window segment with an ACK
 * @cm_node: node in a synchronised state
 *
 * RFC 9293 answers an unacceptable segment with an ACK; the segment may be
 * forged, so the answer is rate-limited per node and per instance
 * (irdma_cm_challenge_allowed()).
 *
 * Context: cm_core->mutex held.
 */
static void irdma_cm_oow_ack(struct irdma_cm_node *cm_node)
{
	lockdep_assert_held(&cm_node->core->mutex);
	if (irdma_cm_challenge_allowed(cm_node))
		irdma_send_ack(cm_node);
}

/**
 * irdma_cm_dup_ack() - answer an in-window segment beyond rcv_nxt with an
 * ACK for rcv_nxt
 * @cm_node: node in a synchronised state
 *
 * The duplicate ACK asks the peer to resend the gap; successive ones drive
 * its fast retransmit, so they have no per-node gap, only the instance's
 * budget (irdma_cm_challenge_budget()).
 *
 * Context: cm_core->mutex held.
 */
static void irdma_cm_dup_ack(struct irdma_cm_node *cm_node)
{
	lockdep_assert_held(&cm_node->core->mutex);
	if (irdma_cm_challenge_budget(cm_node->core))
		irdma_send_ack(cm_node);
}

/**
 * irdma_cm_mpa_v1_fallback() - restart an active open with MPA v1
 * @cm_node: active node whose v2 request was answered with RST
 *
 * Some MPA v1 peers reset a v2 request.  The node is reused: a new
 * initial sequence number well ahead of the old one, a SYN, and a v1
 * request later.  Only one fallback per connect.
 *
 * Context: cm_core->mutex held.
 */
static void irdma_cm_mpa_v1_fallback(struct irdma_cm_node *cm_node)
{
	lockdep_assert_held(&cm_node->core->mutex);
	irdma_cm_dbg(cm_node->core, "node %p: reset to MPA v2, retrying v1\n",
		     cm_node);
	irdma_free_retrans_entry(cm_node);
	irdma_cm_stop_state_timer(cm_node);
	cm_node->mpa_v1_only = true;
	cm_node->mpa_rev = IRDMA_MPA_REV1;
	cm_node->mpa_enhanced = false;
	cm_node->iss += 0x10000 + cm_node->mpa_frame_len;
	cm_node->snd_nxt = cm_node->iss;
	cm_node->snd_una = cm_node->iss;
	cm_node->rcv_nxt = 0;
	cm_node->mpa_rx_len = 0;
	irdma_cm_set_state(cm_node, IRDMA_CM_STATE_SYN_SENT);
	if (irdma_send_syn(cm_node, false))
		irdma_active_open_err(cm_node, false, -ENOMEM);
}

/**
 * irdma_cm_reset_seg() - answer one unacceptable segment with a reset,
 * leaving the node as it is (RFC 793)
 * @cm_node: node whose address handle carries the reset
 * @seg: the segment
 *
 * Rate-limited (irdma_cm_reply_allowed()).
 *
 * Context: cm_core->mutex held.
 */
static void irdma_cm_reset_seg(struct irdma_cm_node *cm_node,
			       const struct irdma_cm_seg *seg)
{
	u8 buf[IRDMA_CM_TCP_HDR_SIZE];
	u32 len = irdma_form_uda_cm_frame(seg, buf);

	lockdep_assert_held(&cm_node->core->mutex);
	if (!len || !cm_node->ah || cm_node->loopback ||
	    !irdma_cm_reply_allowed(cm_node->core))
		return;
	cm_node->core->stats.resets_sent++;
	cm_node->core->ops->ilq_send(cm_node->core, cm_node->ah->id, buf, len,
				     len);
}

/**
 * irdma_handle_rst_pkt() - a RST for a node
 * @cm_node: node
 * @seg: the segment
 *
 * SYN_SENT: acceptable only if it acknowledges our SYN.  Elsewhere
 * (RFC 5961 section 3.2): accepted if its sequence number is exactly
 * rcv_nxt; answered with a challenge ACK if it is merely in the window;
 * dropped otherwise.  An accepted RST ends the node and tells the ULP; a
 * RST to our MPA v2 request restarts the open with v1 once.
 *
 * Context: cm_core->mutex held.
 */
static void irdma_handle_rst_pkt(struct irdma_cm_node *cm_node,
				 const struct irdma_cm_seg *seg)
{
	struct irdma_cm_core *cm_core = cm_node->core;

	lockdep_assert_held(&cm_node->core->mutex);
	if (cm_node->state == IRDMA_CM_STATE_SYN_SENT) {
		if (!(seg->flags & IRDMA_TCP_ACK) || seg->ack != cm_node->snd_nxt) {
			cm_core->stats.rx_dropped++;
			return;
		}
		irdma_cm_event_reset(cm_node);
		return;
	}
	if (seg->seq != cm_node->rcv_nxt) {
		if (!irdma_seq_before(seg->seq, cm_node->rcv_nxt) &&
		    irdma_seq_before(seg->seq, cm_node->rcv_nxt + cm_node->rcv_wnd))
			irdma_cm_challenge_ack(cm_node);
		else
			cm_core->stats.rx_dropped++;
		return;
	}

	switch (cm_node->state) {
	case IRDMA_CM_STATE_MPAREQ_SENT:
		if (cm_node->mpa_rev == IRDMA_MPA_REV2 && !cm_node->mpa_v1_only &&
		    cm_core->tun.mpa_v1_fallback) {
			cm_core->stats.resets_rcvd++;
			irdma_cm_mpa_v1_fallback(cm_node);
			return;
		}
		irdma_cm_event_reset(cm_node);
		return;
	case IRDMA_CM_STATE_OFFLOADED:
	case IRDMA_CM_STATE_CLOSED:
		return;
	default:
		irdma_cm_event_reset(cm_node);
		return;
	}
}

/**
 * irdma_check_syn_rcvd() - a SYN for a half-open passive node
 * @cm_node: node in SYN_RCVD
 * @seg: the SYN
 *
 * RFC 9293 section 3.10.7.4, with Linux's window test in front of it:
 * the same initial sequence again means our SYN-ACK was lost, and it goes
 * again now.  A SYN outside the receive window is answered with an ACK
 * (rate-limited) and dropped; a peer that restarted with a new initial
 * sequence answers that ACK with a RST, which ends this node.  A SYN
 * inside the window returns the 4-tuple to the listener: the node goes,
 * silently, and the peer's retransmitted SYN opens a fresh one.
 *
 * Context: cm_core->mutex held.
 * Return: 0 if the SYN was a retransmission, -EALREADY otherwise.
 */
static int irdma_check_syn_rcvd(struct irdma_cm_node *cm_node,
				const struct irdma_cm_seg *seg)
{
	struct irdma_cm_core *cm_core = cm_node->core;
	struct irdma_cm_tx *tx = &cm_node->tx;

	lockdep_assert_held(&cm_core->mutex);
	if (seg->seq + 1 == cm_node->rcv_nxt && !(seg->flags & IRDMA_TCP_ACK)) {
		if (tx->pending) {
			cm_core->stats.rexmits++;
			cm_core->ops->ilq_send(cm_core, cm_node->ah->id, tx->buf,
					       tx->len, tx->hdr_len);
		}
		return 0;
	}
	cm_core->stats.rx_dropped++;
	if (irdma_check_seq(cm_node, seg) == -ERANGE) {
		irdma_cm_oow_ack(cm_node);
		return -EALREADY;
	}
	irdma_cm_dbg(cm_core, "node %p: new SYN from port %u, back to listen\n",
		     cm_node, cm_node->rem_port);
	irdma_passive_open_err(cm_node, false);
	return -EALREADY;
}

/**
 * irdma_check_syn() - a SYN for a node that already exists
 * @cm_node: node
 * @seg: the SYN
 *
 * A half-open passive node: irdma_check_syn_rcvd().  Any SYN on a
 * synchronised connection gets a challenge ACK (RFC 5961 section 4.2)
 * and is dropped.
 *
 * Context: cm_core->mutex held.
 * Return: 0 if the SYN was a retransmission, -EALREADY otherwise.
 */
static int irdma_check_syn(struct irdma_cm_node *cm_node,
			   const struct irdma_cm_seg *seg)
{
	lockdep_assert_held(&cm_node->core->mutex);
	if (cm_node->state == IRDMA_CM_STATE_SYN_RCVD && !cm_node->active)
		return irdma_check_syn_rcvd(cm_node, seg);
	if (cm_node->state != IRDMA_CM_STATE_SYN_SENT &&
	    cm_node->state != IRDMA_CM_STATE_CLOSED)
		irdma_cm_challenge_ack(cm_node);
	return -EALREADY;
}

/**
 * irdma_cm_ecn_mode() - what the handshake does about ECN
 * @cm_core: CM instance
 *
 * As the namespace's TCP sockets (net.ipv4.tcp_ecn, which covers IPv6
 * too), unless tun.ecn overrides it.
 *
 * Return: 1 to ask for ECN in an active open's SYN (and accept it), 2 to
 * accept it when a peer asks, 0 for neither.
 */
static int irdma_cm_ecn_mode(struct irdma_cm_core *cm_core)
{
	int mode = cm_core->tun.ecn;

	if (mode < 0)
		mode = READ_ONCE(dev_net(cm_core->netdev)->ipv4.sysctl_tcp_ecn);
	return mode == 1 || mode == 2 ? mode : 0;
}

/**
 * irdma_handle_syn_pkt() - a SYN (without ACK)
 * @cm_node: node; a fresh passive node is IDLE
 * @seg: the SYN
 *
 * For a new passive node: parse the options (a refused MSS ends it with
 * RST), create the address handle and the 4-tuple steering entry, send
 * the SYN-ACK (retransmitted), SYN_RCVD.  For an existing node see
 * irdma_check_syn().
 *
 * Context: cm_core->mutex held.
 */
static void irdma_handle_syn_pkt(struct irdma_cm_node *cm_node,
				 const struct irdma_cm_seg *seg)
{
	lockdep_assert_held(&cm_node->core->mutex);
	if (cm_node->state != IRDMA_CM_STATE_IDLE) {
		irdma_check_syn(cm_node, seg);
		return;
	}
	cm_node->rcv_nxt = seg->seq + 1;
	if (irdma_cm_create_ah(cm_node)) {
		irdma_passive_open_err(cm_node, false);
		return;
	}
	if (irdma_handle_tcp_options(cm_node, seg)) {
		irdma_cm_err(cm_node->core, "SYN with refused options from port %u\n",
			     seg->sport);
		irdma_passive_open_err(cm_node, true);
		return;
	}
	if (irdma_cm_node_qhash(cm_node, true)) {
		irdma_passive_open_err(cm_node, true);
		return;
	}
	/* RFC 3168 6.1.1: an ECN-setup SYN, and ECN allowed here */
	cm_node->ecn = (seg->flags & (IRDMA_TCP_ECE | IRDMA_TCP_CWR)) ==
		       (IRDMA_TCP_ECE | IRDMA_TCP_CWR) &&
		       irdma_cm_ecn_mode(cm_node->core) != 0;
	irdma_cm_set_state(cm_node, IRDMA_CM_STATE_SYN_RCVD);
	/* without its SYN-ACK kept for retransmission the node would linger */
	if (irdma_send_syn(cm_node, true))
		irdma_passive_open_err(cm_node, false);
}

/**
 * irdma_handle_synack_pkt() - a SYN-ACK
 * @cm_node: node
 * @seg: the segment
 *
 * SYN_SENT: the ACK must be our SYN's, else the segment gets a reset
 * and is dropped (RFC 793); options are parsed (a refused MSS fails the
 * connect); then the MPA request goes out, acknowledging the SYN-ACK.
 * A duplicate SYN-ACK later is acknowledged again.
 *
 * Context: cm_core->mutex held.
 */
static void irdma_handle_synack_pkt(struct irdma_cm_node *cm_node,
				    const struct irdma_cm_seg *seg)
{
	lockdep_assert_held(&cm_node->core->mutex);
	if (cm_node->state != IRDMA_CM_STATE_SYN_SENT) {
		if (seg->seq + 1 == cm_node->rcv_nxt &&
		    cm_node->state == IRDMA_CM_STATE_MPAREQ_SENT)
			irdma_send_ack(cm_node);
		else
			irdma_check_syn(cm_node, seg);
		return;
	}
	if (seg->ack != cm_node->snd_nxt) {
		cm_node->core->stats.rx_dropped++;
		irdma_cm_reset_seg(cm_node, seg);
		return;
	}
	cm_node->rcv_nxt = seg->seq + 1;
	cm_node->snd_una = seg->ack;
	irdma_cleanup_retrans_entry(cm_node, seg->ack);
	if (irdma_handle_tcp_options(cm_node, seg)) {
		irdma_active_open_err(cm_node, true, -ECONNREFUSED);
		return;
	}
	/* RFC 3168 6.1.1: an ECN-setup SYN-ACK has ECE without CWR */
	cm_node->ecn = cm_node->ecn_asked &&
		       (seg->flags & (IRDMA_TCP_ECE | IRDMA_TCP_CWR)) ==
		       IRDMA_TCP_ECE;
	if (irdma_send_mpa_request(cm_node))
		irdma_active_open_err(cm_node, true, -ENOMEM);
}

/**
 * irdma_cm_connreq_add() - give a CONNECT_REQUEST its handle and reference
 * @cm_node: passive node about to report CONNECT_REQUEST
 *
 * The node goes into cm_core->connreqs under a new index (cyclic, from 1,
 * so a stale handle is unlikely to meet a new request); the entry holds a
 * node reference.  The index is what iw_cm gets as provider_data.
 *
 * Context: cm_core->mutex held; may sleep.
 * Return: 0 or -ENOMEM / -EBUSY.
 */
static int irdma_cm_connreq_add(struct irdma_cm_node *cm_node)
{
	struct irdma_cm_core *cm_core = cm_node->core;
	u32 id;
	int ret;

	lockdep_assert_held(&cm_core->mutex);
	ret = xa_alloc_cyclic(&cm_core->connreqs, &id, cm_node, xa_limit_32b,
			      &cm_core->connreq_next, GFP_KERNEL);
	if (ret < 0)
		return ret;
	irdma_cm_node_get(cm_node);
	cm_node->connreq_id = id;
	return 0;
}

/**
 * irdma_cm_release_connreq() - drop the reference CONNECT_REQUEST gave
 * @cm_node: passive node
 *
 * The handle goes out of cm_core->connreqs: a later accept or reject with
 * it gets -ECONNRESET.  The node is freed if that was its last reference.
 *
 * Context: cm_core->mutex held.
 */
static void irdma_cm_release_connreq(struct irdma_cm_node *cm_node)
{
	lockdep_assert_held(&cm_node->core->mutex);
	if (!cm_node->connreq_id)
		return;
	xa_erase(&cm_node->core->connreqs, cm_node->connreq_id);
	cm_node->connreq_id = 0;
	irdma_rem_ref_cm_node(cm_node);
}

/**
 * irdma_cm_connreq_take() - the node behind a CONNECT_REQUEST's handle
 * @cm_core: CM instance
 * @cm_id: iw_cm id of the request; provider_data holds the handle
 * @cm_node: set to the node on success
 *
 * The handle is looked up, never dereferenced: a request the CM already
 * released (listener destroyed, iw_cm never answering) is simply gone.
 * On success the request's reference passes to the caller, who drops it
 * with irdma_rem_ref_cm_node(); the id forgets the handle either way.
 *
 * Context: cm_core->mutex held.
 * Return: 0, -EINVAL if the id carries no handle, or -ECONNRESET if the
 * request was released.
 */
static int irdma_cm_connreq_take(struct irdma_cm_core *cm_core,
				 struct iw_cm_id *cm_id,
				 struct irdma_cm_node **cm_node)
{
	unsigned long id = (unsigned long)cm_id->provider_data;
	struct irdma_cm_node *node;

	lockdep_assert_held(&cm_core->mutex);
	if (!id)
		return -EINVAL;
	cm_id->provider_data = NULL;
	node = xa_erase(&cm_core->connreqs, id);
	if (!node)
		return -ECONNRESET;
	node->connreq_id = 0;
	*cm_node = node;
	return 0;
}

/**
 * irdma_cm_mpa_request_rcvd() - a whole MPA request arrived (passive)
 * @cm_node: passive node in ESTABLISHED
 *
 * A malformed request ends the connection with RST.  A request for
 * markers is refused with an MPA reject and FIN, without asking the ULP
 * (we send no markers; see Documentation/cm.rst).  A v2 request without
 * flag A is taken in the client-server model (irdma_accept()).
 * Otherwise CONNECT_REQUEST goes to the listener's iw_cm id with the
 * private data; the request holds a node reference (an entry in
 * cm_core->connreqs) until the ULP accepts or rejects.  If iw_cm does not
 * take the event (its handler fails), no answer will come: the reference
 * is dropped, the backlog slot freed and the connection reset.
 *
 * Context: cm_core->mutex held.
 */
static void irdma_cm_mpa_request_rcvd(struct irdma_cm_node *cm_node)
{
	struct irdma_cm_listener *listener = cm_node->listener;
	int ret;

	lockdep_assert_held(&cm_node->core->mutex);
	ret = irdma_cm_mpa_in(cm_node, true);
	irdma_cm_stop_state_timer(cm_node);
	if (ret) {
		irdma_cm_err(cm_node->core, "bad MPA request from port %u\n",
			     cm_node->rem_port);
		irdma_passive_open_err(cm_node, true);
		return;
	}
	if (cm_node->peer_markers) {
		cm_node->core->stats.markers_refused++;
		irdma_cm_err(cm_node->core,
			     "MPA request from port %u asks for markers: refused\n",
			     cm_node->rem_port);
		irdma_cm_uncount(cm_node);
		if (irdma_send_mpa_reject(cm_node, NULL, 0))
			irdma_passive_open_err(cm_node, true);
		return;
	}
	if (!listener || listener->destroyed || !listener->cm_id) {
		irdma_passive_open_err(cm_node, true);
		return;
	}
	irdma_cm_set_state(cm_node, IRDMA_CM_STATE_MPAREQ_RCVD);
	if (irdma_cm_connreq_add(cm_node)) {
		irdma_passive_open_err(cm_node, true);
		return;
	}
	ret = irdma_send_cm_event(cm_node, listener->cm_id,
				  IW_CM_EVENT_CONNECT_REQUEST, 0);
	if (ret) {
		irdma_cm_err(cm_node->core,
			     "CONNECT_REQUEST not taken by iw_cm: %d\n", ret);
		irdma_cm_release_connreq(cm_node);
		irdma_cm_uncount(cm_node);
		irdma_passive_open_err(cm_node, true);
	}
}

/**
 * irdma_cm_mpa_reply_rcvd() - a whole MPA reply arrived (active)
 * @cm_node: active node in MPAREQ_SENT
 *
 * A reject is reported as CONNECT_REPLY(-ECONNREFUSED) with the peer's
 * private data; the peer's FIN follows.  A malformed reply, one asking
 * for markers (we send none), or one that fails the RFC 6581 negotiation
 * ends the connection with RST and CONNECT_REPLY(-ECONNREFUSED); a failed
 * negotiation is first told to the responder in a TERMINATE carrying the
 * MPA error code.  An acceptable reply offloads the connection
 * (irdma_cm_event_connected()).
 *
 * Context: cm_core->mutex held.
 */
static void irdma_cm_mpa_reply_rcvd(struct irdma_cm_node *cm_node)
{
	u8 term[IRDMA_CM_RTR_MAX_FPDU];
	u32 len;
	int ret;

	lockdep_assert_held(&cm_node->core->mutex);
	ret = irdma_cm_mpa_in(cm_node, false);
	if (ret < 0) {
		irdma_cm_err(cm_node->core, "bad MPA reply from port %u\n",
			     cm_node->rem_port);
		irdma_active_open_err(cm_node, true, -ECONNREFUSED);
		return;
	}
	if (ret == 1) {
		irdma_cm_set_state(cm_node, IRDMA_CM_STATE_MPAREJ_RCVD);
		irdma_event_connect_error(cm_node, -ECONNREFUSED);
		irdma_cm_arm_state_timer(cm_node, cm_node->core->tun.mpa_timeout);
		return;
	}
	if (cm_node->peer_markers) {
		cm_node->core->stats.markers_refused++;
		irdma_cm_err(cm_node->core,
			     "MPA reply from port %u asks for markers: refused\n",
			     cm_node->rem_port);
		irdma_active_open_err(cm_node, true, -ECONNREFUSED);
		return;
	}
	if (cm_node->mpa_enhanced) {
		if (irdma_negotiate_mpa_v2_ird_ord(cm_node, false)) {
			irdma_cm_err(cm_node->core,
				     "MPA negotiation failed, error %u\n",
				     cm_node->mpa_err);
			/* the responder learns why before the reset */
			len = irdma_cm_build_mpa_term(cm_node->mpa_err, term);
			irdma_cm_send_seg(cm_node, NULL, 0, term, len,
					  IRDMA_TCP_ACK | IRDMA_TCP_PSH, false);
			irdma_active_open_err(cm_node, true, -ECONNREFUSED);
			return;
		}
	} else {
		cm_node->rtr = IRDMA_RTR_NONE;
	}
	irdma_cm_event_connected(cm_node);
}

/**
 * irdma_handle_rcv_mpa() - payload received while an MPA frame is expected
 * @cm_node: node in ESTABLISHED (passive) or MPAREQ_SENT (active)
 * @data: in-order payload
 * @len: bytes of @data
 *
 * Reassembles the frame across segments.  A PD_Length above 512, or
 * bytes beyond the frame (the peer must wait for our answer), end the
 * connection.
 *
 * Context: cm_core->mutex held.
 */
static void irdma_handle_rcv_mpa(struct irdma_cm_node *cm_node,
				 const u8 *data, u32 len)
{
	u32 room = sizeof(cm_node->mpa_rx) - cm_node->mpa_rx_len;
	int flen;

	lockdep_assert_held(&cm_node->core->mutex);
	if (len > room)
		goto bad;
	memcpy(cm_node->mpa_rx + cm_node->mpa_rx_len, data, len);
	cm_node->mpa_rx_len += len;
	flen = irdma_mpa_frame_len(cm_node->mpa_rx, cm_node->mpa_rx_len);
	if (flen < 0 || (flen && cm_node->mpa_rx_len > flen))
		goto bad;
	if (!flen || cm_node->mpa_rx_len < flen)
		return;		/* truncated so far: wait for the rest */

	if (cm_node->state == IRDMA_CM_STATE_ESTABLISHED)
		irdma_cm_mpa_request_rcvd(cm_node);
	else
		irdma_cm_mpa_reply_rcvd(cm_node);
	return;
bad:
	irdma_cm_err(cm_node->core, "bad MPA frame from port %u\n",
		     cm_node->rem_port);
	if (cm_node->active)
		irdma_active_open_err(cm_node, true, -ECONNREFUSED);
	else
		irdma_passive_open_err(cm_node, true);
}

/**
 * irdma_handle_fin_pkt() - the peer's FIN, in order
 * @cm_node: node; rcv_nxt already covers the FIN
 *
 * Before offload a FIN ends the setup: the ULP is told (connect error or,
 * after CONNECT_REQUEST, the node is closed under it) and we answer with
 * our FIN (LAST_ACK).  In the close states it drives FIN_WAIT1 ->
 * CLOSING or TIME_WAIT, FIN_WAIT2 -> TIME_WAIT.
 *
 * Context: cm_core->mutex held.
 */
static void irdma_handle_fin_pkt(struct irdma_cm_node *cm_node)
{
	struct irdma_cm_core *cm_core = cm_node->core;

	lockdep_assert_held(&cm_node->core->mutex);
	switch (cm_node->state) {
	case IRDMA_CM_STATE_SYN_RCVD:
	case IRDMA_CM_STATE_ESTABLISHED:
	case IRDMA_CM_STATE_MPAREQ_SENT:
	case IRDMA_CM_STATE_MPAREQ_RCVD:
		irdma_cm_report_fail(cm_node, -ECONNRESET);
		irdma_cm_uncount(cm_node);
		fallthrough;
	case IRDMA_CM_STATE_MPAREJ_RCVD:
		irdma_cm_stop_state_timer(cm_node);
		irdma_cm_set_state(cm_node, IRDMA_CM_STATE_LAST_ACK);
		if (irdma_send_fin(cm_node))
			irdma_cm_node_finish(cm_node);
		break;
	case IRDMA_CM_STATE_FIN_WAIT1:
		irdma_send_ack(cm_node);
		if (cm_node->snd_una == cm_node->snd_nxt &&
		    !cm_node->fin_deferred) {
			irdma_cm_set_state(cm_node, IRDMA_CM_STATE_TIME_WAIT);
			irdma_cm_arm_state_timer(cm_node, cm_core->tun.time_wait);
		} else {
			irdma_cm_set_state(cm_node, IRDMA_CM_STATE_CLOSING);
		}
		break;
	case IRDMA_CM_STATE_FIN_WAIT2:
		irdma_send_ack(cm_node);
		irdma_cm_stop_state_timer(cm_node);
		irdma_cm_set_state(cm_node, IRDMA_CM_STATE_TIME_WAIT);
		irdma_cm_arm_state_timer(cm_node, cm_core->tun.time_wait);
		break;
	default:
		irdma_send_ack(cm_node);
		break;
	}
}

/**
 * irdma_cm_ack_advance() - what an acceptable ACK does to the close states
 * @cm_node: node
 *
 * A deferred FIN (irdma_send_mpa_reject()) goes out when everything
 * before it is acknowledged; the close states advance only after it.
 *
 * Context: cm_core->mutex held.
 */
static void irdma_cm_ack_advance(struct irdma_cm_node *cm_node)
{
	struct irdma_cm_core *cm_core = cm_node->core;
	bool all_acked = cm_node->snd_una == cm_node->snd_nxt;

	lockdep_assert_held(&cm_node->core->mutex);
	if (cm_node->fin_deferred) {
		if (!all_acked)
			return;
		if (cm_node->rtr_closing) {
			irdma_cm_rtr_step(cm_node);
			return;
		}
		cm_node->fin_deferred = false;
		if (irdma_send_fin(cm_node))
			irdma_cm_node_finish(cm_node);
		return;
	}
	switch (cm_node->state) {
	case IRDMA_CM_STATE_SYN_RCVD:
		if (!all_acked)
			break;
		irdma_cm_set_state(cm_node, IRDMA_CM_STATE_ESTABLISHED);
		irdma_cm_count(cm_node);
		irdma_cm_arm_state_timer(cm_node, cm_core->tun.mpa_timeout);
		break;
	case IRDMA_CM_STATE_FIN_WAIT1:
		if (!all_acked)
			break;
		irdma_cm_set_state(cm_node, IRDMA_CM_STATE_FIN_WAIT2);
		irdma_cm_arm_state_timer(cm_node, cm_core->tun.fin_wait2_timeout);
		break;
	case IRDMA_CM_STATE_CLOSING:
		if (!all_acked)
			break;
		irdma_cm_set_state(cm_node, IRDMA_CM_STATE_TIME_WAIT);
		irdma_cm_arm_state_timer(cm_node, cm_core->tun.time_wait);
		break;
	case IRDMA_CM_STATE_LAST_ACK:
		if (all_acked)
			irdma_cm_node_finish(cm_node);
		break;
	default:
		break;
	}
}

/**
 * irdma_handle_ack_pkt() - a segment with ACK and without SYN or RST
 * @cm_node: node
 * @seg: the segment
 *
 * Window check first (irdma_check_seq()): an old duplicate or an
 * out-of-window segment is answered with an ACK (rate-limited) and
 * dropped; in SYN_RCVD any ACK but that of our SYN gets a reset
 * <SEQ=SEG.ACK> (RFC 9293 section 3.10.7.4).  The ACK that would end a
 * passive handshake while the listener's backlog is full is dropped (the
 * node stays half-open).  Then the ACK (state
 * changes of the handshake and the close), the payload (in order only:
 * a segment starting past rcv_nxt is dropped and a duplicate ACK sent, so
 * reordering costs one retransmission; a partial overlap is trimmed),
 * and the FIN.
 *
 * Context: cm_core->mutex held.
 */
static void irdma_handle_ack_pkt(struct irdma_cm_node *cm_node,
				 const struct irdma_cm_seg *seg)
{
	struct irdma_cm_core *cm_core = cm_node->core;
	const u8 *data = seg->data;
	u32 len = seg->datalen;
	bool fin = seg->flags & IRDMA_TCP_FIN;
	bool expect_mpa;
	int ret;

	lockdep_assert_held(&cm_node->core->mutex);
	if (cm_node->state == IRDMA_CM_STATE_SYN_SENT) {
		/* RFC 793: no SYN yet; a bad ACK gets a reset, any is dropped */
		cm_core->stats.rx_dropped++;
		if (seg->ack != cm_node->snd_nxt)
			irdma_cm_reset_seg(cm_node, seg);
		return;
	}
	ret = irdma_check_seq(cm_node, seg);
	/* RFC 9293: in SYN_RCVD only an ACK of our SYN is acceptable */
	if (!ret && cm_node->state == IRDMA_CM_STATE_SYN_RCVD &&
	    seg->ack != cm_node->snd_nxt)
		ret = -EBADMSG;
	if (ret) {
		cm_core->stats.rx_dropped++;
		if (ret == -EBADMSG && cm_node->state == IRDMA_CM_STATE_SYN_RCVD)
			irdma_cm_reset_seg(cm_node, seg);
		else
			irdma_cm_oow_ack(cm_node);
		return;
	}
	if (cm_node->state == IRDMA_CM_STATE_SYN_RCVD && cm_node->listener &&
	    seg->ack == cm_node->snd_nxt &&
	    cm_node->listener->pending >= cm_node->listener->backlog) {
		/* as Linux: drop the ACK, the peer's retransmission retries */
		cm_core->stats.listen_overflows++;
		cm_core->stats.rx_dropped++;
		return;
	}

	if (irdma_seq_before(cm_node->snd_una, seg->ack)) {
		cm_node->snd_una = seg->ack;
		irdma_cleanup_retrans_entry(cm_node, seg->ack);
	}
	irdma_handle_tcp_options(cm_node, seg);
	irdma_cm_ack_advance(cm_node);
	if (cm_node->state == IRDMA_CM_STATE_CLOSED)
		return;

	/* trim what we already have; keep only in-order bytes */
	if (irdma_seq_before(seg->seq, cm_node->rcv_nxt)) {
		u32 skip = cm_node->rcv_nxt - seg->seq;

		if (skip > len) {
			skip = len;
			fin = false;
		}
		data += skip;
		len -= skip;
	} else if (seg->seq != cm_node->rcv_nxt) {
		cm_core->stats.rx_dropped++;
		irdma_cm_dup_ack(cm_node);
		return;
	}

	expect_mpa = cm_node->state == IRDMA_CM_STATE_ESTABLISHED ||
		     cm_node->state == IRDMA_CM_STATE_MPAREQ_SENT;
	if (len && !expect_mpa && cm_node->rtr_closing) {
		/* FPDUs answering the RTR we sent (a Read Response): dropped */
		cm_node->rcv_nxt += len;
		if (!fin)
			irdma_send_ack(cm_node);
	} else if (len) {
		if (!expect_mpa) {
			/* nothing may come before our MPA answer or after FIN */
			if (cm_node->active)
				irdma_active_open_err(cm_node, true, -ECONNRESET);
			else
				irdma_passive_open_err(cm_node, true);
			return;
		}
		cm_node->rcv_nxt += len;
		if (!fin)
			irdma_send_ack(cm_node);
		irdma_handle_rcv_mpa(cm_node, data, len);
		if (cm_node->state == IRDMA_CM_STATE_CLOSED ||
		    cm_node->state == IRDMA_CM_STATE_OFFLOADED)
			return;
	}
	if (fin) {
		cm_node->rcv_nxt++;
		irdma_handle_fin_pkt(cm_node);
	}
}

/**
 * irdma_process_pkt() - run one received segment through a node
 * @cm_node: node (the caller holds a reference)
 * @seg: the segment
 *
 * Dispatches on the segment's flags; the handlers switch on the state.
 * Segments for an offloaded or closed node are dropped: the QP owns the
 * connection, or the node is going.
 *
 * Context: cm_core->mutex held.
 */
static void irdma_process_pkt(struct irdma_cm_node *cm_node,
			      const struct irdma_cm_seg *seg)
{
	lockdep_assert_held(&cm_node->core->mutex);
	switch (cm_node->state) {
	case IRDMA_CM_STATE_OFFLOADED:
	case IRDMA_CM_STATE_CLOSED:
		cm_node->core->stats.rx_dropped++;
		return;
	default:
		break;
	}

	if (seg->flags & IRDMA_TCP_RST)
		irdma_handle_rst_pkt(cm_node, seg);
	else if ((seg->flags & IRDMA_TCP_SYN) && !(seg->flags & IRDMA_TCP_ACK))
		irdma_handle_syn_pkt(cm_node, seg);
	else if (seg->flags & IRDMA_TCP_SYN)
		irdma_handle_synack_pkt(cm_node, seg);
	else if (seg->flags & IRDMA_TCP_ACK)
		irdma_handle_ack_pkt(cm_node, seg);
	else
		cm_node->core->stats.rx_dropped++;
}

/*
 * ------------------------------------------------------------------------
 * Timers' work
 * ------------------------------------------------------------------------
 */

/**
 * irdma_retrans_expired() - a segment ran out of retransmissions
 * @cm_node: node (the caller holds a reference)
 *
 * Active open: RST and CONNECT_REPLY(-ETIMEDOUT).  Passive open: the node
 * goes silently.  A close handshake: RST, and the node goes.
 *
 * Context: cm_core->mutex held.
 */
static void irdma_retrans_expired(struct irdma_cm_node *cm_node)
{
	struct irdma_cm_core *cm_core = cm_node->core;

	lockdep_assert_held(&cm_node->core->mutex);
	irdma_cm_dbg(cm_core, "node %p state %d: retransmissions exhausted\n",
		     cm_node, cm_node->state);
	switch (cm_node->state) {
	case IRDMA_CM_STATE_SYN_SENT:
	case IRDMA_CM_STATE_MPAREQ_SENT:
		cm_core->stats.connect_timeouts++;
		irdma_active_open_err(cm_node, true, -ETIMEDOUT);
		break;
	case IRDMA_CM_STATE_SYN_RCVD:
		irdma_passive_open_err(cm_node, false);
		break;
	default:
		irdma_send_reset(cm_node);
		irdma_cm_report_fail(cm_node, -ETIMEDOUT);
		irdma_cm_node_finish(cm_node);
		break;
	}
}

/**
 * irdma_cm_max_retries() - how often a node's segment is retransmitted
 * @cm_node: node with a segment awaiting acknowledgment
 *
 * A SYN: tun.syn_retries (a connect to a dead peer ends in about a
 * minute, as the kernel's TCP connect does).  A SYN-ACK:
 * tun.synack_retries (a half-open node holds an AH and a steering entry;
 * a spoofed SYN must not keep them for minutes).  The
 * FIN of a node no ULP is attached to (orphaned: rejected, failed or
 * closed before offload): tun.orphan_retries.  Otherwise (MPA request,
 * FIN) tun.max_rexmits.
 *
 * Context: cm_core->mutex held.
 * Return: the number of retransmissions allowed.
 */
static unsigned int irdma_cm_max_retries(struct irdma_cm_node *cm_node)
{
	const struct irdma_cm_tunables *tun = &cm_node->core->tun;

	lockdep_assert_held(&cm_node->core->mutex);
	switch (cm_node->state) {
	case IRDMA_CM_STATE_SYN_SENT:
		return tun->syn_retries;
	case IRDMA_CM_STATE_SYN_RCVD:
		return tun->synack_retries;
	case IRDMA_CM_STATE_FIN_WAIT1:
	case IRDMA_CM_STATE_CLOSING:
	case IRDMA_CM_STATE_LAST_ACK:
		if (!cm_node->cm_id)
			return tun->orphan_retries;
		break;
	default:
		break;
	}
	return tun->max_rexmits;
}

/**
 * irdma_cm_rexmit() - the retransmit timer of a node expired
 * @cm_node: node (the work holds a reference)
 *
 * Stale expiries (segment acknowledged, timer re-armed) are ignored.
 * Otherwise the stored segment goes again with the current ACK number
 * and the timeout doubles, capped at tun.rexmit_max_timeout; after
 * irdma_cm_max_retries() retransmissions irdma_retrans_expired() runs.
 *
 * Context: cm_core->mutex held.
 */
static void irdma_cm_rexmit(struct irdma_cm_node *cm_node)
{
	struct irdma_cm_core *cm_core = cm_node->core;
	struct irdma_cm_tx *tx = &cm_node->tx;
	struct irdma_cm_tcphdr *th;

	lockdep_assert_held(&cm_node->core->mutex);
	if (!tx->pending || time_before(jiffies, tx->deadline) ||
	    cm_node->state == IRDMA_CM_STATE_CLOSED)
		return;
	if (tx->retries >= irdma_cm_max_retries(cm_node)) {
		irdma_retrans_expired(cm_node);
		return;
	}
	tx->retries++;
	tx->timeout = min(tx->timeout * 2, cm_core->tun.rexmit_max_timeout);
	tx->deadline = jiffies + tx->timeout;
	th = (void *)tx->buf;
	if (th->flags & IRDMA_TCP_ACK)
		th->ack = cpu_to_be32(cm_node->rcv_nxt);
	cm_core->stats.rexmits++;
	if (cm_node->ah && !cm_node->loopback)
		cm_core->ops->ilq_send(cm_core, cm_node->ah->id, tx->buf, tx->len,
				       tx->hdr_len);
	irdma_cm_arm(cm_node, &cm_node->rexmit_timer, tx->timeout);
}

/**
 * irdma_cm_mpa_reply_timeout() - an active open got no MPA reply in time
 * @cm_node: active node in MPAREQ_SENT (the caller holds a reference)
 *
 * The peer acknowledged the request (or never did, and the
 * retransmissions still run) but did not answer within tun.mpa_timeout:
 * RST, CONNECT_REPLY(-ETIMEDOUT), the node ends.  iw_cm keeps the id's
 * connect pending until CONNECT_REPLY, and destroying the id waits for
 * it, so this wait must end.  A loopback partner still waiting for its
 * ULP's answer is reset as the wire's RST would.
 *
 * Context: cm_core->mutex held.
 */
static void irdma_cm_mpa_reply_timeout(struct irdma_cm_node *cm_node)
{
	struct irdma_cm_core *cm_core = cm_node->core;
	struct irdma_cm_node *peer = cm_node->lpb_peer;

	lockdep_assert_held(&cm_core->mutex);
	irdma_cm_dbg(cm_core, "node %p: no MPA reply from port %u\n", cm_node,
		     cm_node->rem_port);
	cm_core->stats.connect_timeouts++;
	if (peer && peer->state != IRDMA_CM_STATE_CLOSED && !peer->offloaded) {
		irdma_cm_node_get(peer);
		irdma_passive_open_err(peer, false);
		irdma_rem_ref_cm_node(peer);
	}
	irdma_active_open_err(cm_node, !cm_node->loopback, -ETIMEDOUT);
}

/**
 * irdma_handle_close_entry() - the state timer of a node expired
 * @cm_node: node (the work holds a reference)
 *
 * TIME_WAIT and FIN_WAIT2 end the node; FIN_WAIT1 of an RTR close
 * (irdma_cm_rtr_step()) sends its next segment.  A passive node still waiting
 * for the MPA request, or an active one waiting for the FIN after a
 * reject, is reset.  An active node still waiting for the MPA reply
 * fails its connect (irdma_cm_mpa_reply_timeout()).  An offloaded node
 * either never got its RTS AE (the QP is reset and the ULP told
 * -ETIMEDOUT) or ran its close timer (the QP is reset and the disconnect
 * completes as if RESET_SENT was seen).
 *
 * Context: cm_core->mutex held.
 */
static void irdma_handle_close_entry(struct irdma_cm_node *cm_node)
{
	struct irdma_qp *iwqp = cm_node->iwqp;

	lockdep_assert_held(&cm_node->core->mutex);
	if (time_before(jiffies, cm_node->state_deadline))
		return;
	switch (cm_node->state) {
	case IRDMA_CM_STATE_TIME_WAIT:
	case IRDMA_CM_STATE_FIN_WAIT2:
		irdma_cm_node_finish(cm_node);
		break;
	case IRDMA_CM_STATE_ESTABLISHED:
		irdma_passive_open_err(cm_node, true);
		break;
	case IRDMA_CM_STATE_MPAREQ_SENT:
		irdma_cm_mpa_reply_timeout(cm_node);
		break;
	case IRDMA_CM_STATE_MPAREJ_RCVD:
		irdma_send_reset(cm_node);
		irdma_cm_node_finish(cm_node);
		break;
	case IRDMA_CM_STATE_FIN_WAIT1:
		if (cm_node->rtr_closing && cm_node->fin_deferred)
			irdma_cm_rtr_step(cm_node);
		break;
	case IRDMA_CM_STATE_OFFLOADED:
		if (!iwqp)
			break;
		if (!cm_node->rts_rcvd && !irdma_qp_cm(iwqp)->term_sent) {
			irdma_cm_err(cm_node->core, "no RTS AE for QP %u\n",
				     iwqp->ibqp.qp_num);
			cm_node->core->ops->qp_reset(iwqp);
			irdma_cm_report_fail(cm_node, -ETIMEDOUT);
			irdma_cm_node_finish(cm_node);
			break;
		}
		if (irdma_qp_cm(iwqp)->close_armed) {
			irdma_qp_cm(iwqp)->close_armed = false;
			irdma_qp_cm(iwqp)->hw_tcp_state = IRDMA_TCPS_CLOSED;
			irdma_qp_cm(iwqp)->last_ae = IRDMA_AE_RESET_SENT;
			cm_node->core->ops->qp_reset(iwqp);
			irdma_cm_disconn_true(iwqp);
		}
		break;
	default:
		break;
	}
}

/*
 * ------------------------------------------------------------------------
 * Offload
 * ------------------------------------------------------------------------
 */

/**
 * irdma_init_tcp_ctx() - the TCP half of the offload context
 * @cm_node: node
 * @info: offload info to fill
 *
 * Sequence numbers: snd_nxt/snd_una/snd_max are the CM's next sequence
 * (the passive MPA reply is not counted unless it was already "sent" over
 * loopback: the adapter sends it as the LSMM); rcv_nxt is past the peer's
 * MPA frame; windows and scales as negotiated in the SYNs; cwnd 2 MSS;
 * TTL 64; the VLAN tag with the priority when the connection has a VLAN.
 */
static void irdma_init_tcp_ctx(struct irdma_cm_node *cm_node,
			       struct irdma_cm_offload_info *info)
{
	info->ipv4 = cm_node->ipv4;
	irdma_cm_ip_to_hw(info->loc_addr, cm_node->loc_addr, cm_node->ipv4);
	irdma_cm_ip_to_hw(info->rem_addr, cm_node->rem_addr, cm_node->ipv4);
	info->loc_port = cm_node->loc_port;
	info->rem_port = cm_node->rem_port;
	ether_addr_copy(info->loc_mac, cm_node->loc_mac);
	ether_addr_copy(info->rem_mac, cm_node->rem_mac);
	info->arp_idx = cm_node->arp_idx;
	if (cm_node->vlan_id < VLAN_N_VID) {
		info->insert_vlan = true;
		info->vlan_tci = cm_node->vlan_id |
				 (u16)cm_node->user_pri << VLAN_PRIO_SHIFT;
	}
	info->user_pri = cm_node->user_pri;
	info->ttl = IRDMA_CM_DEFAULT_TTL;
	info->tos = cm_node->tos;
	info->ecn = cm_node->ecn;
	info->mss = cm_node->mss;
	info->snd_nxt = cm_node->snd_nxt;
	info->snd_una = cm_node->snd_nxt;
	info->snd_wnd = cm_node->snd_wnd;
	info->max_snd_wnd = max(cm_node->max_snd_wnd, cm_node->snd_wnd);
	info->snd_wscale = cm_node->snd_wscale;
	info->rcv_nxt = cm_node->rcv_nxt;
	info->rcv_wnd = cm_node->rcv_wnd;
	info->rcv_wscale = cm_node->rcv_wscale;
	info->cwnd = 2 * (u32)cm_node->mss;
	info->ss_thresh = IRDMA_CM_DEFAULT_SS_THRESH;
	info->rtt_var = IRDMA_CM_DEFAULT_RTT_VAR;
	info->rexmit_thresh = IRDMA_CM_DEFAULT_REXMIT_THRESH;
}

/**
 * irdma_free_lsmm_rsrc() - free the copy of the MPA reply kept for LSMM
 * @cm_node: node
 *
 * The hw layer may read the LSMM buffer until the QP reaches RTS; the
 * copy goes when the RTS AE arrives or the connection dies.
 */
static void irdma_free_lsmm_rsrc(struct irdma_cm_node *cm_node)
{
	kfree(cm_node->lsmm);
	cm_node->lsmm = NULL;
}

/**
 * irdma_cm_init_tsa_conn() - hand a connection to the adapter
 * @cm_node: node after a successful MPA exchange
 * @iwqp: its QP
 *
 * Fills the TCP half (irdma_init_tcp_ctx()) and the iWARP half (IRD/ORD,
 * RTR, CRC, the LSMM on the passive side; never markers, refused in the
 * MPA exchange) and calls hw_ops->qp_offload.  The CM's 4-tuple steering entry
 * becomes the QP's, which removes it when it leaves RTS, and the node's
 * address handle stays until the node goes (see qp_offload and ah_create
 * in cm.h): deleting the entry now would let frames that arrive before
 * the modify reach the host stack, and the AH keeps the QP's ARP entry
 * pinned.  On success the node is OFFLOADED and waits
 * tun.rts_timeout for the RTS AE, unless it is a passive node without
 * RTR: its RTS AE waits for the initiator's first FPDU.
 *
 * Context: cm_core->mutex held; may sleep.
 * Return: 0 or -errno from the hw layer.
 */
static int irdma_cm_init_tsa_conn(struct irdma_cm_node *cm_node,
				  struct irdma_qp *iwqp)
{
	struct irdma_cm_core *cm_core = cm_node->core;
	struct irdma_cm_offload_info info = {};
	int ret;

	lockdep_assert_held(&cm_core->mutex);
	irdma_init_tcp_ctx(cm_node, &info);
	info.ird = cm_node->ird;
	info.ord = cm_node->ord;
	info.rtr = cm_node->rtr;
	info.crc = true;
	info.active = cm_node->active;
	if (cm_node->lsmm) {
		info.lsmm = cm_node->lsmm;
		info.lsmm_len = cm_node->mpa_frame_len;
	}
	/* the steering entry is the QP's from now on: qp_offload in cm.h */
	ret = cm_core->ops->qp_offload(iwqp, &info);
	if (ret) {
		irdma_cm_err(cm_core, "offload of QP %u failed %d\n",
			     iwqp->ibqp.qp_num, ret);
		return ret;
	}
	cm_node->offloaded = true;
	irdma_free_retrans_entry(cm_node);
	irdma_cm_stop_state_timer(cm_node);
	irdma_cm_set_state(cm_node, IRDMA_CM_STATE_OFFLOADED);
	/*
	 * A passive node without RTR (MPA v1, or v2 in the client-server
	 * model) gets its RTS AE only once the initiator sends its first
	 * FPDU, which it may do whenever it likes: no timeout then.
	 */
	if (!cm_node->rts_rcvd &&
	    (cm_node->active || cm_node->rtr != IRDMA_RTR_NONE))
		irdma_cm_arm_state_timer(cm_node, cm_core->tun.rts_timeout);
	return 0;
}

/**
 * irdma_cm_crc32c() - CRC32c of an FPDU (RFC 5044 section 4.5)
 * @p: bytes
 * @len: count
 *
 * Bitwise: the CM builds at most one short FPDU per connection (the RTR
 * it sends itself, see irdma_cm_rtr_close()), so no table and no
 * dependency on the crypto layer.
 *
 * Return: the CRC, final complement included.
 */
static u32 irdma_cm_crc32c(const u8 *p, u32 len)
{
	u32 crc = ~0U;
	int i;

	while (len--) {
		crc ^= *p++;
		for (i = 0; i < 8; i++)
			crc = (crc >> 1) ^ (0x82F63B78 & -(crc & 1));
	}
	return ~crc;
}

/**
 * irdma_cm_fpdu_seal() - frame a ULPDU built at @buf + 2 as an MPA FPDU
 * @buf: the FPDU: its length field, then the ULPDU, then room for the pad
 *	(zeroed by the caller) and the CRC
 * @ulpdu: bytes of the ULPDU
 *
 * Writes the length field and the CRC (always negotiated, see
 * irdma_cm_init_tsa_conn()).
 *
 * Context: pure.
 * Return: the FPDU length.
 */
static u32 irdma_cm_fpdu_seal(u8 *buf, u32 ulpdu)
{
	u32 len = ALIGN(2 + ulpdu, 4);

	put_unaligned_be16(ulpdu, buf);
	put_unaligned_le32(irdma_cm_crc32c(buf, len), buf + len);
	return len + IRDMA_CM_MPA_CRC_LEN;
}

/**
 * irdma_cm_build_rtr() - the zero-length RTR operation as one FPDU
 * @cm_node: active node; cm_node->rtr says which operation
 * @buf: room for IRDMA_CM_RTR_MAX_FPDU bytes
 *
 * A zero-length RDMA Write (tagged, STag and TO 0) or, for the first
 * one of a Read RTR, a zero-length RDMA Read Request (queue 1, MSN 1,
 * size 0), framed by MPA with the CRC (always negotiated, see
 * irdma_cm_init_tsa_conn()).
 *
 * Context: pure.
 * Return: the FPDU length.
 */
static u32 irdma_cm_build_rtr(const struct irdma_cm_node *cm_node, u8 *buf)
{
	u32 ulpdu;

	memset(buf, 0, IRDMA_CM_RTR_MAX_FPDU);
	if (cm_node->rtr == IRDMA_RTR_READ && !cm_node->rtr_sent) {
		ulpdu = IRDMA_CM_DDP_UNTAGGED_HDR + IRDMA_CM_RDMAP_RREQ_HDR;
		buf[2] = IRDMA_CM_DDP_CTL_UNTAGGED;
		buf[3] = IRDMA_CM_RDMAP_READ_REQ;
		/* bytes 4-7 reserved for the ULP */
		put_unaligned_be32(IRDMA_CM_DDP_QN_READ_REQ, buf + 8);
		put_unaligned_be32(1, buf + 12);	/* MSN */
		/* MO 0; sink STag, TO, size 0; source STag, TO 0 */
	} else {
		ulpdu = IRDMA_CM_DDP_TAGGED_HDR;
		buf[2] = IRDMA_CM_DDP_CTL_TAGGED;
		buf[3] = IRDMA_CM_RDMAP_WRITE;
		/* sink STag and TO 0: nothing is placed */
	}
	return irdma_cm_fpdu_seal(buf, ulpdu);
}

/**
 * irdma_cm_build_mpa_term() - the TERMINATE that refuses an MPA reply
 * @code: MPA error code (IRDMA_MPA_ERR_*)
 * @buf: room for IRDMA_CM_RTR_MAX_FPDU bytes
 *
 * An initiator that cannot take the responder's reply (no matching RTR,
 * insufficient IRD: RFC 6581) tells it in a TERMINATE before the
 * connection goes: the first message of the Terminate queue (queue 2,
 * MSN 1), layer LLP, error type MPA, @code, no offending headers, framed
 * by MPA with the CRC.
 *
 * Context: pure.
 * Return: the FPDU length.
 */
static u32 irdma_cm_build_mpa_term(u8 code, u8 *buf)
{
	u32 ulpdu = IRDMA_CM_DDP_UNTAGGED_HDR + 4;
	u8 *term = buf + 2 + IRDMA_CM_DDP_UNTAGGED_HDR;

	memset(buf, 0, IRDMA_CM_RTR_MAX_FPDU);
	buf[2] = IRDMA_CM_DDP_CTL_UNTAGGED;
	buf[3] = IRDMA_CM_RDMAP_TERMINATE;
	put_unaligned_be32(IRDMA_CM_DDP_QN_TERMINATE, buf + 8);
	put_unaligned_be32(1, buf + 12);	/* MSN; MO 0 */
	term[0] = IRDMA_CM_TERM_LAYER_MPA;
	term[1] = code;				/* no M, D, R: nothing follows */
	return irdma_cm_fpdu_seal(buf, ulpdu);
}

/**
 * irdma_cm_peer_awaits_rtr() - the peer accepted our request and waits
 * for our RTR before it tells its ULP
 * @cm_node: active node whose MPA reply was accepted, not established
 *
 * In the peer-to-peer mode of RFC 6581 the responder reports the
 * connection established only when the initiator's first FPDU (the RTR)
 * arrives.  soft-iWARP reports a close that comes before it as
 * DISCONNECT and CLOSE of an id iw_cm still holds in CONN_RECV, and
 * iw_cm BUG()s (cm_close_handler() of the iw_cm core).
 *
 * Return: true when the RTR has to reach the peer before our close.
 */
static bool irdma_cm_peer_awaits_rtr(const struct irdma_cm_node *cm_node)
{
	return cm_node->active && !cm_node->loopback && !cm_node->rts_rcvd &&
	       cm_node->mpa_enhanced && cm_node->p2p &&
	       cm_node->rtr != IRDMA_RTR_NONE;
}

/**
 * irdma_cm_rtr_step() - the next segment of irdma_cm_rtr_close()
 * @cm_node: node closing with rtr_closing set
 *
 * Sends the next FPDU (the RTR, then a zero-length RDMA Write) and waits
 * for its acknowledgment (cm_node->fin_deferred, irdma_cm_ack_advance())
 * or tun.rexmit_timeout, whichever comes first (the state timer,
 * irdma_handle_close_entry()): the peer's acknowledgments may not reach
 * the ILQ after the QP went (its reset and destroy remove the steering
 * entry).  After the last FPDU, the FIN, retransmitted as usual.  Each
 * segment stands alone, so the peer's TCP hands them over in order:
 * its RTR processing (ESTABLISHED) comes before it sees the FIN.
 *
 * Context: cm_core->mutex held.
 */
static void irdma_cm_rtr_step(struct irdma_cm_node *cm_node)
{
	u8 fpdu[IRDMA_CM_RTR_MAX_FPDU];
	u32 len;

	lockdep_assert_held(&cm_node->core->mutex);
	irdma_cm_stop_state_timer(cm_node);
	if (cm_node->rtr_sent >= IRDMA_CM_RTR_FPDUS) {
		cm_node->fin_deferred = false;
		if (irdma_send_fin(cm_node))
			irdma_cm_node_finish(cm_node);
		return;
	}
	len = irdma_cm_build_rtr(cm_node, fpdu);
	if (irdma_cm_send_seg(cm_node, NULL, 0, fpdu, len,
			      IRDMA_TCP_ACK | IRDMA_TCP_PSH, true)) {
		irdma_send_reset(cm_node);
		irdma_cm_node_finish(cm_node);
		return;
	}
	cm_node->rtr_sent++;
	cm_node->fin_deferred = true;
	irdma_cm_arm_state_timer(cm_node, cm_node->core->tun.rexmit_timeout);
}

/**
 * irdma_cm_rtr_close() - close an accepted active connection that never
 * reached RTS: the RTR first, then our FIN
 * @cm_node: active node (the caller holds a reference) whose ULP was
 *	told (CONNECT_REPLY with an error) and let go, QP unlinked
 * @resteer: the QP was reset, which dropped the connection's steering
 *	entry in the adapter: add it again so the peer's answers reach the
 *	ILQ
 *
 * The adapter did not (or may not have) put our RTR on the wire: the
 * offload failed, or the QP lost the connection before RTS (the model's
 * TCP handoff failing, say).  Resetting or closing now would leave a peer
 * that waits for the RTR (irdma_cm_peer_awaits_rtr()) with a close before
 * ESTABLISHED, or, if we stayed silent, waiting forever (soft-iWARP has
 * no timer there).  So the CM sends the RTR itself at snd_nxt (a
 * duplicate of one the QP did send is dropped by the peer's TCP); once
 * it is acknowledged (or after a while) a zero-length RDMA Write; then
 * the FIN in a segment of its own (irdma_cm_rtr_step()).  The second
 * FPDU is new data, so it wakes a peer that missed the first one:
 * soft-iWARP installs its RTR receive hook only after its MPA reply is
 * sent (siw_accept()), and an RTR arriving in between stays unread in
 * its socket until more data comes.  The peer has processed the RTR (and
 * reported ESTABLISHED) before it sees our FIN.  The node then closes
 * like an orphan (tun.orphan_retries).
 *
 * Context: cm_core->mutex held.
 */
static void irdma_cm_rtr_close(struct irdma_cm_node *cm_node, bool resteer)
{
	lockdep_assert_held(&cm_node->core->mutex);
	irdma_cm_stop_state_timer(cm_node);
	irdma_free_retrans_entry(cm_node);
	/* the QP is let go: from now on the CM alone owns the connection */
	cm_node->offloaded = false;
	cm_node->rtr_closing = true;
	cm_node->rtr_sent = 0;
	if (resteer) {
		/* the reset removed it: nothing to delete first */
		cm_node->qhash_set = false;
		irdma_cm_node_qhash(cm_node, true);
	}
	irdma_cm_set_state(cm_node, IRDMA_CM_STATE_FIN_WAIT1);
	cm_node->core->stats.rtr_closes++;
	irdma_cm_rtr_step(cm_node);
}

/**
 * irdma_cm_active_fail_accepted() - an active connection the peer
 * accepted fails before RTS
 * @cm_node: active node (the caller holds a reference)
 * @status: -errno for CONNECT_REPLY
 *
 * The ULP gets CONNECT_REPLY(@status) and the QP is flushed and let go
 * (an offloaded QP was reset by the caller); the peer gets our RTR and
 * FIN when it waits for the RTR (irdma_cm_rtr_close()), else a RST.
 *
 * Context: cm_core->mutex held.
 */
static void irdma_cm_active_fail_accepted(struct irdma_cm_node *cm_node,
					  int status)
{
	struct irdma_qp *iwqp = cm_node->iwqp;
	bool rtr = irdma_cm_peer_awaits_rtr(cm_node);
	bool resteer = cm_node->offloaded;

	lockdep_assert_held(&cm_node->core->mutex);
	if (iwqp && irdma_qp_cm(iwqp)->cm_node == cm_node) {
		irdma_qp_cm(iwqp)->disconn_done = true;
		if (cm_node->offloaded)
			cm_node->core->ops->qp_flush(iwqp);
	}
	irdma_cm_report_fail(cm_node, status);
	if (rtr) {
		irdma_cm_rtr_close(cm_node, resteer);
		return;
	}
	if (!cm_node->loopback)
		irdma_send_reset(cm_node);
	irdma_cm_node_finish(cm_node);
}

/**
 * irdma_cm_event_connected() - the active side's MPA reply was accepted:
 * offload the connection
 * @cm_node: active node
 *
 * CONNECT_REPLY(0) follows the RTS AE (irdma_cm_rts_rcvd()).  An offload
 * failure resets the peer and fails the connect.
 *
 * Context: cm_core->mutex held.
 */
static void irdma_cm_event_connected(struct irdma_cm_node *cm_node)
{
	int ret;

	lockdep_assert_held(&cm_node->core->mutex);
	if (!cm_node->iwqp) {
		irdma_active_open_err(cm_node, true, -ECONNRESET);
		return;
	}
	ret = irdma_cm_init_tsa_conn(cm_node, cm_node->iwqp);
	if (ret)
		irdma_cm_active_fail_accepted(cm_node, ret);
}

/**
 * irdma_cm_rts_rcvd() - the RTS AE of an offloaded QP arrived
 * @iwqp: the QP (the work holds a reference)
 *
 * Reports CONNECT_REPLY(0) (active) or ESTABLISHED (passive) and frees
 * the LSMM copy.  The address handle stays until the node goes: its
 * reference keeps the ARP entry the QP context names allocated while the
 * QP owns the connection.
 *
 * Context: cm_core->mutex held.
 */
static void irdma_cm_rts_rcvd(struct irdma_qp *iwqp)
{
	struct irdma_cm_node *cm_node = irdma_qp_cm(iwqp)->cm_node;

	lockdep_assert_held(&iwqp->iwdev->cm_core.mutex);
	if (!cm_node || cm_node->rts_rcvd)
		return;
	cm_node->rts_rcvd = true;
	if (cm_node->state != IRDMA_CM_STATE_OFFLOADED)
		return;	/* reported while qp_offload runs: handled there */
	irdma_cm_stop_state_timer(cm_node);
	irdma_free_lsmm_rsrc(cm_node);
	if (!cm_node->cm_id)
		return;
	if (cm_node->active) {
		cm_node->connect_reported = true;
		irdma_send_cm_event(cm_node, cm_node->cm_id,
				    IW_CM_EVENT_CONNECT_REPLY, 0);
	} else {
		cm_node->established_reported = true;
		irdma_send_cm_event(cm_node, cm_node->cm_id,
				    IW_CM_EVENT_ESTABLISHED, 0);
	}
}

/*
 * ------------------------------------------------------------------------
 * Disconnect of offloaded connections
 * ------------------------------------------------------------------------
 */

/**
 * irdma_qp_disconnect() - the last step of an offloaded connection
 * @iwqp: QP
 * @status: status of the CLOSE event
 *
 * Reports CLOSE (once), flushes the QP's work queues and releases the
 * node.
 *
 * Context: cm_core->mutex held.
 */
static void irdma_qp_disconnect(struct irdma_qp *iwqp, int status)
{
	struct irdma_cm_node *cm_node = irdma_qp_cm(iwqp)->cm_node;

	lockdep_assert_held(&iwqp->iwdev->cm_core.mutex);
	if (!cm_node)
		return;
	irdma_cm_node_get(cm_node);
	irdma_qp_cm(iwqp)->disconn_done = true;
	irdma_cm_report_fail(cm_node, status);
	cm_node->core->ops->qp_flush(iwqp);
	irdma_cm_node_finish(cm_node);
	irdma_rem_ref_cm_node(cm_node);
}

/**
 * irdma_cm_qp_failed() - an offloaded connection ends on an error
 * @iwqp: QP, already reset
 *
 * A connection the ULP was not told of yet fails as a connect or accept
 * would; an established one reports CLOSE(-ECONNRESET).
 *
 * Context: cm_core->mutex held.
 */
static void irdma_cm_qp_failed(struct irdma_qp *iwqp)
{
	struct irdma_cm_node *cm_node = irdma_qp_cm(iwqp)->cm_node;

	lockdep_assert_held(&iwqp->iwdev->cm_core.mutex);
	if (!cm_node->rts_rcvd && irdma_cm_peer_awaits_rtr(cm_node)) {
		irdma_cm_node_get(cm_node);
		irdma_cm_active_fail_accepted(cm_node, -ECONNRESET);
		irdma_rem_ref_cm_node(cm_node);
		return;
	}
	irdma_qp_disconnect(iwqp, -ECONNRESET);
}

/**
 * irdma_cm_disconn_true() - decide what an AE means for an offloaded QP
 * @iwqp: QP; irdma_qp_cm(iwqp)->last_ae and hw_tcp_state hold the AE
 *
 * - FIN received (or a bad LLP close) in CLOSE_WAIT: DISCONNECT(0) to the
 *   ULP, graceful close of the QP (our FIN), close timer armed;
 * - our FIN sent by a modify to CLOSING (no AE): close timer armed;
 * - close complete or TIME_WAIT/CLOSED: CLOSE(0), flush, release;
 * - reset, bad close, reset sent: DISCONNECT and CLOSE(-ECONNRESET);
 * - an error AE the hw layer built a TERMINATE for: the QP goes to
 *   TERMINATE (the adapter sends it) and the close timer waits
 *   tun.term_wait for the peer to close; the next AE, or the timer,
 *   resets the QP and reports CLOSE(-ECONNRESET) (RFC 5040 section 5.4:
 *   the TERMINATE is the stream's last message);
 * - a TERMINATE received and the other ("abnormal") AEs: QP reset,
 *   CLOSE(-ECONNRESET);
 * - an RTS AE not seen yet: the QP is reset and the connection fails.
 *
 * Context: cm_core->mutex held.
 */
static void irdma_cm_disconn_true(struct irdma_qp *iwqp)
{
	struct irdma_cm_node *cm_node = irdma_qp_cm(iwqp)->cm_node;
	struct irdma_cm_core *cm_core;
	u16 ae = irdma_qp_cm(iwqp)->last_ae;
	u8 tcp = irdma_qp_cm(iwqp)->hw_tcp_state;
	bool reset, graceful;

	lockdep_assert_held(&iwqp->iwdev->cm_core.mutex);
	if (!cm_node || irdma_qp_cm(iwqp)->disconn_done)
		return;
	cm_core = cm_node->core;
	reset = ae == IRDMA_AE_LLP_CONNECTION_RESET ||
		ae == IRDMA_AE_BAD_CLOSE || ae == IRDMA_AE_RESET_SENT;

	if (irdma_qp_cm(iwqp)->term_sent) {
		/* the peer answered our TERMINATE, or the wait is over */
		irdma_cm_stop_state_timer(cm_node);
		if (!reset)
			cm_core->ops->qp_reset(iwqp);
		irdma_cm_qp_failed(iwqp);
		return;
	}
	/* the hw layer built a TERMINATE if the AE was an error to report */
	if (cm_node->state == IRDMA_CM_STATE_OFFLOADED &&
	    !cm_core->ops->qp_terminate(iwqp)) {
		irdma_qp_cm(iwqp)->term_sent = true;
		irdma_qp_cm(iwqp)->close_armed = true;
		irdma_cm_arm_state_timer(cm_node, cm_core->tun.term_wait);
		return;
	}
	if (!cm_node->rts_rcvd && cm_node->state == IRDMA_CM_STATE_OFFLOADED) {
		cm_core->ops->qp_reset(iwqp);
		irdma_cm_qp_failed(iwqp);
		return;
	}

	if ((ae == IRDMA_AE_LLP_FIN_RECEIVED ||
	     ae == IRDMA_AE_RDMAP_ROE_BAD_LLP_CLOSE) &&
	    tcp != IRDMA_TCPS_CLOSED && tcp != IRDMA_TCPS_TIME_WAIT) {
		if (!cm_node->disconnect_reported && cm_node->cm_id) {
			cm_node->disconnect_reported = true;
			irdma_send_cm_event(cm_node, cm_node->cm_id,
					    IW_CM_EVENT_DISCONNECT, 0);
		}
		if (!irdma_qp_cm(iwqp)->close_armed) {
			cm_core->ops->qp_close(iwqp);
			irdma_qp_cm(iwqp)->close_armed = true;
			irdma_cm_arm_state_timer(cm_node,
						 cm_core->tun.close_timeout);
		}
		return;
	}
	if (!ae && tcp == IRDMA_TCPS_FIN_WAIT_1) {
		cm_node->disconnect_reported = true;	/* the ULP asked */
		if (!irdma_qp_cm(iwqp)->close_armed) {
			irdma_qp_cm(iwqp)->close_armed = true;
			irdma_cm_arm_state_timer(cm_node,
						 cm_core->tun.close_timeout);
		}
		return;
	}
	if (reset && !cm_node->disconnect_reported && cm_node->cm_id &&
	    cm_node->rts_rcvd) {
		cm_node->disconnect_reported = true;
		irdma_send_cm_event(cm_node, cm_node->cm_id,
				    IW_CM_EVENT_DISCONNECT, -ECONNRESET);
	}
	graceful = ae == IRDMA_AE_LLP_CLOSE_COMPLETE ||
		   tcp == IRDMA_TCPS_CLOSED || tcp == IRDMA_TCPS_TIME_WAIT;
	if (!reset && !graceful)
		cm_core->ops->qp_reset(iwqp);	/* terminate or abnormal AE */
	irdma_cm_stop_state_timer(cm_node);
	irdma_qp_disconnect(iwqp, reset || !graceful ? -ECONNRESET : 0);
}

/**
 * irdma_disconnect_worker() - record a QP's AE and run the decision
 * @work: IRDMA_CM_WORK_DISCONN work item with the QP, AE and TCP state
 *
 * Context: cm_core->mutex held.
 */
static void irdma_disconnect_worker(struct irdma_cm_work *work)
{
	struct irdma_qp *iwqp = work->iwqp;

	lockdep_assert_held(&work->core->mutex);
	irdma_qp_cm(iwqp)->last_ae = work->ae;
	irdma_qp_cm(iwqp)->hw_tcp_state = work->tcp_state;
	irdma_cm_disconn_true(iwqp);
}

/**
 * irdma_cm_state_name() - the name of a connection node state
 * @state: the state
 *
 * Return: its name as the tracepoints print it, "?" for no state.
 */
const char *irdma_cm_state_name(enum irdma_cm_state state)
{
	static const char * const names[] = {
		[IRDMA_CM_STATE_IDLE] = "IDLE",
		[IRDMA_CM_STATE_SYN_SENT] = "SYN_SENT",
		[IRDMA_CM_STATE_SYN_RCVD] = "SYN_RCVD",
		[IRDMA_CM_STATE_ESTABLISHED] = "ESTABLISHED",
		[IRDMA_CM_STATE_MPAREQ_SENT] = "MPAREQ_SENT",
		[IRDMA_CM_STATE_MPAREQ_RCVD] = "MPAREQ_RCVD",
		[IRDMA_CM_STATE_OFFLOADED] = "OFFLOADED",
		[IRDMA_CM_STATE_MPAREJ_RCVD] = "MPAREJ_RCVD",
		[IRDMA_CM_STATE_FIN_WAIT1] = "FIN_WAIT1",
		[IRDMA_CM_STATE_FIN_WAIT2] = "FIN_WAIT2",
		[IRDMA_CM_STATE_LAST_ACK] = "LAST_ACK",
		[IRDMA_CM_STATE_CLOSING] = "CLOSING",
		[IRDMA_CM_STATE_TIME_WAIT] = "TIME_WAIT",
		[IRDMA_CM_STATE_CLOSED] = "CLOSED",
	};

	if ((unsigned int)state >= ARRAY_SIZE(names) || !names[state])
		return "?";
	return names[state];
}

/**
 * irdma_cm_qp_res() - copy out a QP's connection for resource tracking
 * @iwqp: QP (the caller holds it: a restrack reference)
 * @res: filled in; zeroed first
 *
 * Context: process context; takes cm_core->mutex.
 */
void irdma_cm_qp_res(struct irdma_qp *iwqp, struct irdma_cm_qp_res *res)
{
	struct irdma_cm_core *cm_core = &iwqp->iwdev->cm_core;
	struct irdma_cm_node *n;

	memset(res, 0, sizeof(*res));
	mutex_lock(&cm_core->mutex);
	res->last_ae = irdma_qp_cm(iwqp)->last_ae;
	res->ae_tcp_state = irdma_qp_cm(iwqp)->hw_tcp_state;
	n = irdma_qp_cm(iwqp)->cm_node;
	if (n) {
		res->bound = true;
		res->state = n->state;
		res->active = n->active;
		res->loopback = n->loopback;
		res->offloaded = n->offloaded;
		res->mpa_rev = n->mpa_rev;
		res->ird = n->ird;
		res->ord = n->ord;
		res->rtr = n->rtr;
		res->loc_port = n->loc_port;
		res->rem_port = n->rem_port;
	}
	mutex_unlock(&cm_core->mutex);
}

/**
 * irdma_cm_get_stats() - a snapshot of a CM instance's counters
 * @cm_core: CM instance
 * @stats: receives the counters
 *
 * Context: process context; takes cm_core->mutex.
 */
void irdma_cm_get_stats(struct irdma_cm_core *cm_core,
			struct irdma_cm_stats *stats)
{
	mutex_lock(&cm_core->mutex);
	*stats = cm_core->stats;
	mutex_unlock(&cm_core->mutex);
	stats->rx_queue_drops = atomic_long_read(&cm_core->rx_queue_drops);
}

/**
 * irdma_cm_disconn() - the hw layer reports a close, reset or error of a
 * QP the CM bound
 * @iwqp: QP (the caller holds a reference for the call)
 * @ae: AE code, or 0 after a local modify to CLOSING
 * @tcp_state: AEQE TCP state (enum irdma_tcp_state_hw)
 *
 * Only queues IRDMA_CM_WORK_DISCONN; see irdma_cm_disconn_true().
 *
 * Context: any.
 */
void irdma_cm_disconn(struct irdma_qp *iwqp, u16 ae, u8 tcp_state)
{
	struct irdma_cm_core *cm_core = &iwqp->iwdev->cm_core;
	struct irdma_cm_work *work;

	work = irdma_create_event(cm_core, IRDMA_CM_WORK_DISCONN, iwqp,
				  GFP_ATOMIC);
	if (!work)
		return;
	work->ae = ae;
	work->tcp_state = tcp_state;
	irdma_cm_post_event(cm_core, work);
}

/**
 * irdma_cm_qp_established() - the hw layer reports the RTS AE
 * (LLP_CONNECTION_ESTABLISHED) of a QP the CM offloaded
 * @iwqp: QP (the caller holds a reference for the call)
 *
 * Only queues IRDMA_CM_WORK_ESTABLISHED.  May be called from inside
 * hw_ops->qp_offload.
 *
 * Context: any.
 */
void irdma_cm_qp_established(struct irdma_qp *iwqp)
{
	struct irdma_cm_core *cm_core = &iwqp->iwdev->cm_core;
	struct irdma_cm_work *work;

	work = irdma_create_event(cm_core, IRDMA_CM_WORK_ESTABLISHED, iwqp,
				  GFP_ATOMIC);
	if (work)
		irdma_cm_post_event(cm_core, work);
}

/**
 * irdma_cm_qp_destroy() - a QP is being destroyed: the CM lets go of it
 * @iwqp: QP
 *
 * A connection still bound to the QP is reset and reported closed.  Call
 * from process context, not from inside a hw op (takes cm_core->mutex).
 *
 * Context: process context; takes cm_core->mutex.
 */
void irdma_cm_qp_destroy(struct irdma_qp *iwqp)
{
	struct irdma_cm_core *cm_core = &iwqp->iwdev->cm_core;
	struct irdma_cm_node *cm_node;

	mutex_lock(&cm_core->mutex);
	cm_node = irdma_qp_cm(iwqp)->cm_node;
	if (cm_node) {
		irdma_cm_node_get(cm_node);
		if (!cm_node->offloaded && cm_node->state != IRDMA_CM_STATE_CLOSED)
			irdma_send_reset(cm_node);
		irdma_cm_report_fail(cm_node, -ECONNRESET);
		irdma_cm_node_finish(cm_node);
		irdma_rem_ref_cm_node(cm_node);
	}
	mutex_unlock(&cm_core->mutex);
}

/*
 * ------------------------------------------------------------------------
 * Kernel network lookups (the default struct irdma_cm_net_ops)
 * ------------------------------------------------------------------------
 */

/**
 * irdma_cm_net() - network namespace of a CM instance
 * @cm_core: CM instance
 *
 * Return: the namespace of the device's netdev.
 */
static struct net *irdma_cm_net(struct irdma_cm_core *cm_core)
{
	return dev_net(cm_core->netdev);
}

/**
 * irdma_ipv4_is_lpb() - is an IPv4 connection a loopback one
 * @loc_addr: local address, host order
 * @rem_addr: remote address, host order
 *
 * Return: true if the remote address is 127/8 or equals the local one.
 */
static bool irdma_ipv4_is_lpb(u32 loc_addr, u32 rem_addr)
{
	return ipv4_is_loopback(htonl(rem_addr)) || loc_addr == rem_addr;
}

/**
 * irdma_ipv6_is_lpb() - is an IPv6 connection a loopback one
 * @loc_addr: local address, host-order words
 * @rem_addr: remote address, host-order words
 *
 * Return: true if the remote address is ::1 or equals the local one.
 */
static bool irdma_ipv6_is_lpb(const u32 *loc_addr, const u32 *rem_addr)
{
	struct in6_addr raddr6;

	irdma_copy_ip_htonl(raddr6.in6_u.u6_addr32, rem_addr);
	return !memcmp(loc_addr, rem_addr, 16) || ipv6_addr_loopback(&raddr6);
}

/**
 * irdma_cm_ipv6_link_local() - is an IPv6 address link-local (fe80::/10)
 * @addr: address, host-order words
 *
 * Return: true if @addr is only meaningful with an interface (a scope).
 */
static bool irdma_cm_ipv6_link_local(const u32 *addr)
{
	return (addr[0] & 0xffc00000) == 0xfe800000;
}

/**
 * irdma_cm_egress_prio() - 802.1p priority a VLAN device gives a TOS
 * @dev: egress device
 * @tos: IP TOS of the connection
 *
 * The TOS maps to an skb priority (rt_tos2priority()), which the VLAN
 * device's egress map turns into a PCP, as for the host stack's packets.
 *
 * Return: the priority (0 for a device without VLAN).
 */
static u8 irdma_cm_egress_prio(struct net_device *dev, u8 tos)
{
	if (!is_vlan_dev(dev))
		return 0;
	return (vlan_dev_get_egress_qos_mask(dev, rt_tos2priority(tos)) &
		VLAN_PRIO_MASK) >> VLAN_PRIO_SHIFT;
}

/**
 * irdma_get_vlan_ipv4() - VLAN id of the device holding an IPv4 address
 * @net: namespace
 * @addr: address, host order
 * @tos: TOS of the connection, for @prio
 * @prio: set to the 802.1p priority for @tos, if not NULL
 *
 * Return: the VLAN id, or IRDMA_CM_NO_VLAN (also when no device has it).
 */
static u16 irdma_get_vlan_ipv4(struct net *net, u32 addr, u8 tos, u8 *prio)
{
	struct net_device *netdev;
	u16 vlan_id = IRDMA_CM_NO_VLAN;

	netdev = ip_dev_find(net, htonl(addr));
	if (netdev) {
		if (is_vlan_dev(netdev))
			vlan_id = vlan_dev_vlan_id(netdev);
		if (prio)
			*prio = irdma_cm_egress_prio(netdev, tos);
		dev_put(netdev);
	}
	return vlan_id;
}

/**
 * irdma_get_vlan_mac_ipv6() - VLAN id, priority and MAC of the device
 * holding an IPv6 address
 * @net: namespace
 * @addr: address, host-order words
 * @scope_id: ifindex of the interface a link-local @addr is scoped to (the
 *	same link-local address is on a device and each of its VLANs), or 0
 * @vlan_id: set to the VLAN id or IRDMA_CM_NO_VLAN
 * @mac: set to the device's MAC if not NULL
 * @tos: traffic class of the connection, for @prio
 * @prio: set to the 802.1p priority for @tos, if not NULL
 *
 * Context: process context (takes the RCU read lock).
 */
static void irdma_get_vlan_mac_ipv6(struct net *net, const u32 *addr,
				    int scope_id, u16 *vlan_id, u8 *mac, u8 tos,
				    u8 *prio)
{
	struct net_device *netdev;
	struct in6_addr laddr6;
	bool scoped;

	irdma_copy_ip_htonl(laddr6.in6_u.u6_addr32, addr);
	scoped = scope_id && ipv6_addr_type(&laddr6) & IPV6_ADDR_LINKLOCAL;
	*vlan_id = IRDMA_CM_NO_VLAN;
	rcu_read_lock();
	for_each_netdev_rcu(net, netdev) {
		if ((scoped && netdev->ifindex != scope_id) ||
		    !ipv6_chk_addr(net, &laddr6, netdev, 1))
			continue;
		if (is_vlan_dev(netdev))
			*vlan_id = vlan_dev_vlan_id(netdev);
		if (mac)
			ether_addr_copy(mac, netdev->dev_addr);
		if (prio)
			*prio = irdma_cm_egress_prio(netdev, tos);
		break;
	}
	rcu_read_unlock();
}

/**
 * irdma_cm_ours() - is a netdev the device's or one of its VLANs
 * @cm_core: CM instance
 * @dev: netdev
 *
 * Return: true if @dev is the device's netdev or a VLAN on it.
 */
static bool irdma_cm_ours(struct irdma_cm_core *cm_core, struct net_device *dev)
{
	if (dev == cm_core->netdev)
		return true;
	return is_vlan_dev(dev) && vlan_dev_real_dev(dev) == cm_core->netdev;
}

/**
 * irdma_cm_vlan_dev_rcu() - the device's netdev or its VLAN device
 * @cm_core: CM instance
 * @vlan_id: VLAN id, or IRDMA_CM_NO_VLAN for the netdev itself
 *
 * Context: RCU read lock held.
 * Return: the device, or NULL if no VLAN device has @vlan_id.
 */
static struct net_device *irdma_cm_vlan_dev_rcu(struct irdma_cm_core *cm_core,
						u16 vlan_id)
{
	RCU_LOCKDEP_WARN(!rcu_read_lock_held(), "irdma: RCU read lock needed");
	if (vlan_id >= VLAN_N_VID)
		return cm_core->netdev;
	return __vlan_find_dev_deep_rcu(cm_core->netdev, htons(ETH_P_8021Q),
					vlan_id);
}

/**
 * irdma_cm_vlan_ifindex() - interface a frame of a VLAN arrived on
 * @cm_core: CM instance
 * @vlan_id: VLAN id, or IRDMA_CM_NO_VLAN
 *
 * The scope of a link-local address such a frame came from.
 *
 * Return: the ifindex, or 0 if no VLAN device has @vlan_id.
 */
static int irdma_cm_vlan_ifindex(struct irdma_cm_core *cm_core, u16 vlan_id)
{
	struct net_device *dev;
	int ifindex = 0;

	rcu_read_lock();
	dev = irdma_cm_vlan_dev_rcu(cm_core, vlan_id);
	if (dev)
		ifindex = dev->ifindex;
	rcu_read_unlock();
	return ifindex;
}

/**
 * irdma_addr_resolve_neigh() - next-hop MAC towards an IPv4 address
 * @cm_core: CM instance
 * @src_ip: local address, host order
 * @dst_ip: remote address, host order
 * @mac: set to the next hop's MAC
 * @local: set if the route is local (loopback connection)
 *
 * Connect never blocks: an unresolved neighbour is kicked and the call
 * fails with -EHOSTUNREACH (rdma_cm resolves addresses before connect).
 *
 * Return: 0, -ENETUNREACH or -EHOSTUNREACH.
 */
static int irdma_addr_resolve_neigh(struct irdma_cm_core *cm_core, u32 src_ip,
				    u32 dst_ip, u8 *mac, bool *local)
{
	__be32 dst_be = htonl(dst_ip);
	struct neighbour *neigh;
	struct rtable *rt;
	int ret = -EHOSTUNREACH;

	rt = ip_route_output(irdma_cm_net(cm_core), dst_be, htonl(src_ip), 0, 0);
	if (IS_ERR(rt))
		return -ENETUNREACH;
	*local = rt->rt_type == RTN_LOCAL;
	if (*local) {
		ether_addr_copy(mac, cm_core->netdev->dev_addr);
		ip_rt_put(rt);
		return 0;
	}
	if (!rt->dst.dev || !irdma_cm_ours(cm_core, rt->dst.dev)) {
		ip_rt_put(rt);
		return -ENETUNREACH;	/* leaves through another port */
	}
	neigh = dst_neigh_lookup(&rt->dst, &dst_be);
	if (neigh) {
		if (neigh->nud_state & NUD_VALID) {
			neigh_ha_snapshot(mac, neigh, neigh->dev);
			ret = 0;
		} else {
			neigh_event_send(neigh, NULL);
		}
		neigh_release(neigh);
	}
	ip_rt_put(rt);
	return ret;
}

/**
 * irdma_get_dst_ipv6() - route to an IPv6 address
 * @net: namespace
 * @src_addr: local address
 * @dst_addr: remote address; a link-local one is looked up on the
 *	interface its sin6_scope_id names
 *
 * Return: the route (release with dst_release()), or an ERR_PTR.
 */
static struct dst_entry *irdma_get_dst_ipv6(struct net *net,
					    const struct sockaddr_in6 *src_addr,
					    const struct sockaddr_in6 *dst_addr)
{
	struct flowi6 fl6 = {};
	struct dst_entry *dst;

	fl6.daddr = dst_addr->sin6_addr;
	fl6.saddr = src_addr->sin6_addr;
	if (ipv6_addr_type(&fl6.daddr) & IPV6_ADDR_LINKLOCAL)
		fl6.flowi6_oif = dst_addr->sin6_scope_id;
	dst = ip6_route_output(net, NULL, &fl6);
	if (dst->error) {
		int err = dst->error;

		dst_release(dst);
		return ERR_PTR(err);
	}
	return dst;
}

/**
 * irdma_addr_resolve_neigh_ipv6() - next-hop MAC towards an IPv6 address
 * @cm_core: CM instance
 * @src: local address, host-order words
 * @dest: remote address, host-order words
 * @scope_id: ifindex of the interface a link-local @dest is on
 * @mac: set to the next hop's MAC
 * @local: set if the route is local
 *
 * Return: 0, -ENETUNREACH or -EHOSTUNREACH (never waits).
 */
static int irdma_addr_resolve_neigh_ipv6(struct irdma_cm_core *cm_core,
					 const u32 *src, const u32 *dest,
					 int scope_id, u8 *mac, bool *local)
{
	struct sockaddr_in6 src6 = { .sin6_family = AF_INET6 };
	struct sockaddr_in6 dst6 = { .sin6_family = AF_INET6,
				     .sin6_scope_id = scope_id };
	struct neighbour *neigh;
	struct dst_entry *dst;
	int ret = -EHOSTUNREACH;

	irdma_copy_ip_htonl(src6.sin6_addr.in6_u.u6_addr32, src);
	irdma_copy_ip_htonl(dst6.sin6_addr.in6_u.u6_addr32, dest);
	dst = irdma_get_dst_ipv6(irdma_cm_net(cm_core), &src6, &dst6);
	if (IS_ERR(dst))
		return -ENETUNREACH;
	*local = dst->dev && (dst->dev->flags & IFF_LOOPBACK);
	if (*local) {
		ether_addr_copy(mac, cm_core->netdev->dev_addr);
		dst_release(dst);
		return 0;
	}
	if (!dst->dev || !irdma_cm_ours(cm_core, dst->dev)) {
		dst_release(dst);
		return -ENETUNREACH;	/* leaves through another port */
	}
	neigh = dst_neigh_lookup(dst, &dst6.sin6_addr);
	if (neigh) {
		if (neigh->nud_state & NUD_VALID) {
			neigh_ha_snapshot(mac, neigh, neigh->dev);
			ret = 0;
		} else {
			neigh_event_send(neigh, NULL);
		}
		neigh_release(neigh);
	}
	dst_release(dst);
	return ret;
}

/**
 * irdma_cm_kernel_route() - route op of the kernel network lookups
 * @cm_core: CM instance
 * @rt: in: family, addresses and scope; out: next-hop MAC, VLAN, loopback
 *
 * A link-local IPv6 remote address is routed on the interface
 * rt->scope_id names, and the local address is looked for there: the same
 * link-local address is on the device and on each of its VLANs.
 *
 * Return: 0, -EINVAL (link-local remote without a scope) or another
 * -errno.
 */
static int irdma_cm_kernel_route(struct irdma_cm_core *cm_core,
				 struct irdma_cm_route *rt)
{
	struct net *net = irdma_cm_net(cm_core);
	bool local = false;
	int ret;

	if (rt->ipv4) {
		rt->loopback = irdma_ipv4_is_lpb(rt->loc_addr[0], rt->rem_addr[0]);
		rt->vlan_id = irdma_get_vlan_ipv4(net, rt->loc_addr[0], rt->tos,
						  &rt->user_pri);
		if (rt->loopback) {
			ether_addr_copy(rt->nh_mac, cm_core->netdev->dev_addr);
			return 0;
		}
		ret = irdma_addr_resolve_neigh(cm_core, rt->loc_addr[0],
					       rt->rem_addr[0], rt->nh_mac, &local);
	} else {
		if (irdma_cm_ipv6_link_local(rt->rem_addr) && !rt->scope_id)
			return -EINVAL;	/* as connect(2): a scope is needed */
		rt->loopback = irdma_ipv6_is_lpb(rt->loc_addr, rt->rem_addr);
		irdma_get_vlan_mac_ipv6(net, rt->loc_addr, rt->scope_id,
					&rt->vlan_id, NULL, rt->tos,
					&rt->user_pri);
		if (rt->loopback) {
			ether_addr_copy(rt->nh_mac, cm_core->netdev->dev_addr);
			return 0;
		}
		ret = irdma_addr_resolve_neigh_ipv6(cm_core, rt->loc_addr,
						    rt->rem_addr, rt->scope_id,
						    rt->nh_mac, &local);
	}
	rt->loopback = local;
	return ret;
}

/**
 * irdma_cm_kernel_get_addrs() - get_addrs op of the kernel lookups
 * @cm_core: CM instance
 * @ipv4: family
 * @addrs: array to fill
 * @max: room in @addrs
 *
 * Walks the device's netdev and its VLAN uppers under RCU.
 *
 * Return: the number of addresses stored.
 */
static int irdma_cm_kernel_get_addrs(struct irdma_cm_core *cm_core, bool ipv4,
				     struct irdma_cm_addr *addrs, int max)
{
	struct net_device *dev;
	int n = 0;

	rcu_read_lock();
	for_each_netdev_rcu(irdma_cm_net(cm_core), dev) {
		u16 vlan;

		if (!irdma_cm_ours(cm_core, dev) || !(dev->flags & IFF_UP))
			continue;
		vlan = is_vlan_dev(dev) ? vlan_dev_vlan_id(dev) :
		       IRDMA_CM_NO_VLAN;
		if (ipv4) {
			struct in_device *idev = __in_dev_get_rcu(dev);
			const struct in_ifaddr *ifa;

			if (!idev)
				continue;
			in_dev_for_each_ifa_rcu(ifa, idev) {
				if (n == max)
					break;
				memset(&addrs[n], 0, sizeof(addrs[n]));
				addrs[n].addr[0] = ntohl(ifa->ifa_address);
				addrs[n++].vlan_id = vlan;
			}
		} else {
			struct inet6_dev *idev = __in6_dev_get(dev);
			struct inet6_ifaddr *ifp;

			if (!idev)
				continue;
			read_lock_bh(&idev->lock);
			list_for_each_entry(ifp, &idev->addr_list, if_list) {
				if (n == max)
					break;
				irdma_copy_ip_ntohl(addrs[n].addr,
						    ifp->addr.in6_u.u6_addr32);
				addrs[n++].vlan_id = vlan;
			}
			read_unlock_bh(&idev->lock);
		}
	}
	rcu_read_unlock();
	return n;
}

/**
 * irdma_cm_kernel_mtu() - mtu op of the kernel lookups
 * @cm_core: CM instance
 * @vlan_id: VLAN of the connection, or IRDMA_CM_NO_VLAN
 *
 * A VLAN device may have a smaller MTU than the netdev under it; the
 * connection's segments leave through the VLAN device.
 *
 * Return: the MTU of the connection's device, never above the netdev's.
 */
static u32 irdma_cm_kernel_mtu(struct irdma_cm_core *cm_core, u16 vlan_id)
{
	u32 mtu = READ_ONCE(cm_core->netdev->mtu);
	struct net_device *dev;

	rcu_read_lock();
	dev = irdma_cm_vlan_dev_rcu(cm_core, vlan_id);
	if (dev)
		mtu = min(mtu, READ_ONCE(dev->mtu));
	rcu_read_unlock();
	return mtu;
}

const struct irdma_cm_net_ops irdma_cm_kernel_net_ops = {
	.route = irdma_cm_kernel_route,
	.get_addrs = irdma_cm_kernel_get_addrs,
	.mtu = irdma_cm_kernel_mtu,
};

/*
 * ------------------------------------------------------------------------
 * Listeners
 * ------------------------------------------------------------------------
 */

/**
 * irdma_cm_addr_is_any() - is an address the wildcard
 * @addr: host-order words
 *
 * Return: true if all zero.
 */
static bool irdma_cm_addr_is_any(const u32 *addr)
{
	return !(addr[0] | addr[1] | addr[2] | addr[3]);
}

/**
 * irdma_cm_listener_family_ok() - may a listener take a family
 * @listener: top-level listener
 * @ipv4: family of the connection
 *
 * Return: true for the listener's own family, and for IPv4 on an IPv6
 * wildcard listener that is not IPv6-only.
 */
static bool irdma_cm_listener_family_ok(struct irdma_cm_listener *listener,
					bool ipv4)
{
	if (listener->ipv4 == ipv4)
		return true;
	return ipv4 && listener->wildcard && !listener->v6only;
}

/**
 * irdma_find_listener() - the listener for a local address and port
 * @cm_core: CM instance
 * @ipv4: family
 * @dst_addr: local address, host order
 * @dst_port: local port
 * @vlan_id: VLAN id of the segment or IRDMA_CM_NO_VLAN
 * @any_child: a wildcard listener matches even without a child for
 *	@dst_addr (loopback connects to addresses it has no entry for)
 *
 * Specific listeners match on address and port; wildcard listeners
 * through their children (one per local address and VLAN).
 *
 * Context: cm_core->mutex held.
 * Return: the top-level listener with a reference, or NULL.
 */
static struct irdma_cm_listener *
irdma_find_listener(struct irdma_cm_core *cm_core, bool ipv4,
		    const u32 *dst_addr, u16 dst_port, u16 vlan_id,
		    bool any_child)
{
	struct irdma_cm_listener *listener, *child;

	lockdep_assert_held(&cm_core->mutex);
	list_for_each_entry(listener, &cm_core->listeners, list) {
		if (listener->destroyed || listener->loc_port != dst_port ||
		    !irdma_cm_listener_family_ok(listener, ipv4))
			continue;
		if (!listener->wildcard) {
			if (memcmp(listener->loc_addr, dst_addr, 16))
				continue;
			refcount_inc(&listener->refcnt);
			return listener;
		}
		if (any_child)
			goto found;
		list_for_each_entry(child, &listener->children, list) {
			if (child->ipv4 == ipv4 &&
			    !memcmp(child->loc_addr, dst_addr, 16) &&
			    (irdma_cm_same_vlan(child->vlan_id, vlan_id) ||
			     child->vlan_id == IRDMA_CM_NO_VLAN))
				goto found;
		}
		continue;
found:
		refcount_inc(&listener->refcnt);
		return listener;
	}
	return NULL;
}

/**
 * irdma_cm_listener_qhash() - the SYN steering entry of a (child) listener
 * @listener: listener with a specific address
 * @add: add (else delete)
 *
 * Context: cm_core->mutex held; may sleep.
 * Return: 0 or -errno.
 */
static int irdma_cm_listener_qhash(struct irdma_cm_listener *listener, bool add)
{
	struct irdma_cm_qhash_info info = {
		.type = IRDMA_QHASH_TYPE_TCP_SYN,
		.ipv4 = listener->ipv4,
		.loc_port = listener->loc_port,
		.vlan_id = listener->vlan_id,
	};
	int ret;

	lockdep_assert_held(&listener->core->mutex);
	if (add == listener->qhash_set)
		return 0;
	memcpy(info.loc_addr, listener->loc_addr, sizeof(info.loc_addr));
	ret = irdma_qhash_ctrl(listener->core, &info, add);
	if (!ret || !add)
		listener->qhash_set = add;
	return ret;
}

/**
 * irdma_dec_refcnt_listen() - drop a listener reference; free on the last
 * @cm_core: CM instance
 * @listener: listener or child
 *
 * WARNs on underflow.  A child drops its parent's reference when it goes.
 *
 * Context: cm_core->mutex held.
 */
static void irdma_dec_refcnt_listen(struct irdma_cm_core *cm_core,
				    struct irdma_cm_listener *listener)
{
	struct irdma_cm_listener *parent;

	lockdep_assert_held(&cm_core->mutex);
	if (WARN_ON(!refcount_read(&listener->refcnt)))
		return;
	if (!refcount_dec_and_test(&listener->refcnt))
		return;
	WARN_ON(!list_empty(&listener->children));
	parent = listener->parent;
	kfree(listener);
	if (parent)
		irdma_dec_refcnt_listen(cm_core, parent);
}

/**
 * irdma_cm_add_child() - child listener and SYN steering entry for one
 * local address of a wildcard listener
 * @cm_core: CM instance
 * @listener: wildcard listener
 * @ipv4: family of the address
 * @addr: the address, host order
 * @vlan_id: VLAN id of its device
 *
 * Context: cm_core->mutex held; may sleep.
 * Return: 0 (also when the child exists) or -errno.
 */
static int irdma_cm_add_child(struct irdma_cm_core *cm_core,
			      struct irdma_cm_listener *listener, bool ipv4,
			      const u32 *addr, u16 vlan_id)
{
	struct irdma_cm_listener *child;
	int ret;

	lockdep_assert_held(&cm_core->mutex);
	list_for_each_entry(child, &listener->children, list)
		if (child->ipv4 == ipv4 && child->vlan_id == vlan_id &&
		    !memcmp(child->loc_addr, addr, 16))
			return 0;
	child = kzalloc(sizeof(*child), GFP_KERNEL);
	if (!child)
		return -ENOMEM;
	child->core = cm_core;
	refcount_set(&child->refcnt, 1);
	INIT_LIST_HEAD(&child->children);
	INIT_LIST_HEAD(&child->half_open_list);
	child->ipv4 = ipv4;
	memcpy(child->loc_addr, addr, sizeof(child->loc_addr));
	child->loc_port = listener->loc_port;
	child->vlan_id = vlan_id;
	ret = irdma_cm_listener_qhash(child, true);
	if (ret) {
		kfree(child);
		return ret;
	}
	refcount_inc(&listener->refcnt);
	child->parent = listener;
	list_add_tail(&child->list, &listener->children);
	return 0;
}

/**
 * irdma_cm_del_child() - remove one child listener and its steering entry
 * @cm_core: CM instance
 * @child: child listener
 *
 * Context: cm_core->mutex held; may sleep.
 */
static void irdma_cm_del_child(struct irdma_cm_core *cm_core,
			       struct irdma_cm_listener *child)
{
	lockdep_assert_held(&cm_core->mutex);
	irdma_cm_listener_qhash(child, false);
	list_del_init(&child->list);
	irdma_dec_refcnt_listen(cm_core, child);
}

/**
 * irdma_add_mqh_4() - child listeners for the IPv4 addresses
 * @cm_core: CM instance
 * @listener: wildcard listener
 * @addrs: scratch array of IRDMA_CM_MAX_ADDRS entries
 *
 * Context: cm_core->mutex held; may sleep.
 */
static void irdma_add_mqh_4(struct irdma_cm_core *cm_core,
			    struct irdma_cm_listener *listener,
			    struct irdma_cm_addr *addrs)
{
	int i, n = cm_core->net->get_addrs(cm_core, true, addrs,
					    IRDMA_CM_MAX_ADDRS);

	lockdep_assert_held(&cm_core->mutex);
	for (i = 0; i < n; i++)
		if (irdma_cm_add_child(cm_core, listener, true, addrs[i].addr,
				       addrs[i].vlan_id))
			irdma_cm_dbg(cm_core, "no child listener for %pI4h\n",
				     addrs[i].addr);
}

/**
 * irdma_add_mqh_6() - child listeners for the IPv6 addresses
 * @cm_core: CM instance
 * @listener: wildcard listener
 * @addrs: scratch array of IRDMA_CM_MAX_ADDRS entries
 *
 * Context: cm_core->mutex held; may sleep.
 */
static void irdma_add_mqh_6(struct irdma_cm_core *cm_core,
			    struct irdma_cm_listener *listener,
			    struct irdma_cm_addr *addrs)
{
	int i, n = cm_core->net->get_addrs(cm_core, false, addrs,
					    IRDMA_CM_MAX_ADDRS);

	lockdep_assert_held(&cm_core->mutex);
	for (i = 0; i < n; i++)
		if (irdma_cm_add_child(cm_core, listener, false, addrs[i].addr,
				       addrs[i].vlan_id))
			irdma_cm_dbg(cm_core, "no child listener for an IPv6 address\n");
}

/**
 * irdma_add_mqh() - child listeners for every local address a wildcard
 * listener covers
 * @cm_core: CM instance
 * @listener: wildcard listener
 *
 * IPv4 wildcard: the IPv4 addresses; IPv6 wildcard: the IPv6 addresses,
 * and the IPv4 ones unless the id is IPv6-only.  Addresses that come
 * later are added by irdma_if_notify().
 *
 * Context: cm_core->mutex held; may sleep.
 */
static void irdma_add_mqh(struct irdma_cm_core *cm_core,
			  struct irdma_cm_listener *listener)
{
	struct irdma_cm_addr *addrs;

	lockdep_assert_held(&cm_core->mutex);
	addrs = kcalloc(IRDMA_CM_MAX_ADDRS, sizeof(*addrs), GFP_KERNEL);
	if (!addrs)
		return;
	if (listener->ipv4 || !listener->v6only)
		irdma_add_mqh_4(cm_core, listener, addrs);
	if (!listener->ipv4)
		irdma_add_mqh_6(cm_core, listener, addrs);
	kfree(addrs);
}

/**
 * irdma_del_multiple_qhash() - remove all child listeners of a wildcard
 * listener, or those of one address
 * @cm_core: CM instance
 * @listener: wildcard listener
 * @addr: only children for this address (host order), or NULL for all
 * @ipv4: family of @addr
 *
 * Context: cm_core->mutex held; may sleep.
 */
static void irdma_del_multiple_qhash(struct irdma_cm_core *cm_core,
				     struct irdma_cm_listener *listener,
				     const u32 *addr, bool ipv4)
{
	struct irdma_cm_listener *child, *tmp;

	lockdep_assert_held(&cm_core->mutex);
	list_for_each_entry_safe(child, tmp, &listener->children, list) {
		if (addr && (child->ipv4 != ipv4 ||
			     memcmp(child->loc_addr, addr, 16)))
			continue;
		irdma_cm_del_child(cm_core, child);
	}
}

/**
 * irdma_reset_list_prep() - collect the nodes of a listener that have not
 * been accepted yet
 * @cm_core: CM instance
 * @listener: top-level listener
 * @reset_list: list to fill (through node->tmp; each node referenced)
 *
 * Context: cm_core->mutex held.
 */
static void irdma_reset_list_prep(struct irdma_cm_core *cm_core,
				  struct irdma_cm_listener *listener,
				  struct list_head *reset_list)
{
	struct irdma_cm_node *cm_node;
	int bkt;

	lockdep_assert_held(&cm_core->mutex);
	hash_for_each(cm_core->nodes, bkt, cm_node, hnode) {
		if (cm_node->listener != listener || cm_node->cm_id ||
		    cm_node->state == IRDMA_CM_STATE_CLOSED ||
		    cm_node->offloaded)
			continue;
		irdma_cm_node_get(cm_node);
		list_add(&cm_node->tmp, reset_list);
	}
}

/**
 * irdma_cm_del_listen() - take a listener down
 * @cm_core: CM instance
 * @listener: top-level listener
 * @apbvt_del: remove its port from the APBVT
 *
 * New SYNs are refused from now on; children and steering entries go;
 * connections not yet accepted are reset (a loopback partner fails its
 * connect) and their CONNECT_REQUESTs released: iw_cm drops the events
 * of a listener being destroyed, so no accept or reject may ever come (a
 * late one gets -ECONNRESET).  The iw_cm id reference is dropped.
 *
 * Context: cm_core->mutex held; may sleep.
 */
static void irdma_cm_del_listen(struct irdma_cm_core *cm_core,
				struct irdma_cm_listener *listener,
				bool apbvt_del)
{
	struct irdma_cm_node *cm_node, *tmp;
	LIST_HEAD(reset_list);
	unsigned long idx;

	lockdep_assert_held(&cm_core->mutex);
	listener->destroyed = true;
	list_del_init(&listener->list);
	irdma_del_multiple_qhash(cm_core, listener, NULL, false);
	irdma_cm_listener_qhash(listener, false);
	if (apbvt_del && listener->apbvt_set) {
		cm_core->ops->apbvt(cm_core, listener->loc_port, false);
		listener->apbvt_set = false;
	}

	irdma_reset_list_prep(cm_core, listener, &reset_list);
	list_for_each_entry_safe(cm_node, tmp, &reset_list, tmp) {
		struct irdma_cm_node *peer = cm_node->lpb_peer;

		list_del_init(&cm_node->tmp);
		if (peer && !peer->offloaded &&
		    peer->state != IRDMA_CM_STATE_CLOSED) {
			irdma_cm_node_get(peer);
			irdma_active_open_err(peer, false, -ECONNRESET);
			irdma_rem_ref_cm_node(peer);
		}
		if (cm_node->state != IRDMA_CM_STATE_CLOSED) {
			irdma_send_reset(cm_node);
			irdma_cm_node_finish(cm_node);
		}
		irdma_cm_release_connreq(cm_node);
		irdma_rem_ref_cm_node(cm_node);
	}
	/* requests whose connection already ended (reset, timed out) */
	xa_for_each(&cm_core->connreqs, idx, cm_node)
		if (cm_node->listener == listener)
			irdma_cm_release_connreq(cm_node);

	if (listener->cm_id) {
		struct iw_cm_id *cm_id = listener->cm_id;

		listener->cm_id = NULL;
		cm_id->provider_data = NULL;
		cm_id->rem_ref(cm_id);
	}
	irdma_dec_refcnt_listen(cm_core, listener);
}

/**
 * irdma_cm_addr_vlan() - VLAN of the device holding a local address
 * @cm_core: CM instance
 * @ipv4: family of @addr
 * @addr: the address, host order
 *
 * A listener on one address steers SYNs by address and VLAN, so it needs
 * the VLAN of the device the address lives on (the netdev itself or one of
 * its VLAN uppers), found through the get_addrs lookup.
 *
 * Context: cm_core->mutex held; may sleep.
 * Return: the VLAN id, or IRDMA_CM_NO_VLAN if the address is on the netdev
 * itself or on none of the devices (or memory is short).
 */
static u16 irdma_cm_addr_vlan(struct irdma_cm_core *cm_core, bool ipv4,
			      const u32 *addr)
{
	struct irdma_cm_addr *addrs;
	u16 vlan_id = IRDMA_CM_NO_VLAN;
	int i, n;

	lockdep_assert_held(&cm_core->mutex);
	addrs = kcalloc(IRDMA_CM_MAX_ADDRS, sizeof(*addrs), GFP_KERNEL);
	if (!addrs)
		return vlan_id;
	n = cm_core->net->get_addrs(cm_core, ipv4, addrs, IRDMA_CM_MAX_ADDRS);
	for (i = 0; i < n; i++) {
		if (ipv4 ? addrs[i].addr[0] == addr[0] :
			   !memcmp(addrs[i].addr, addr, sizeof(addrs[i].addr))) {
			vlan_id = addrs[i].vlan_id;
			break;
		}
	}
	kfree(addrs);
	return vlan_id;
}

/**
 * irdma_make_listen_node() - create a listener for an iw_cm id
 * @cm_core: CM instance
 * @cm_id: iw_cm id (a reference is taken)
 * @info: local address and port (wildcard if the address is zero)
 * @backlog: maximum connections awaiting accept
 *
 * Context: cm_core->mutex held; may sleep.
 * Return: the listener (in cm_core->listeners), or an ERR_PTR:
 * -EADDRINUSE if another listener has the same address and port.
 */
static struct irdma_cm_listener *
irdma_make_listen_node(struct irdma_cm_core *cm_core, struct iw_cm_id *cm_id,
		       const struct irdma_cm_info *info, int backlog)
{
	struct irdma_cm_listener *listener;
	int ret;

	lockdep_assert_held(&cm_core->mutex);
	list_for_each_entry(listener, &cm_core->listeners, list) {
		if (!listener->destroyed && listener->loc_port == info->loc_port &&
		    listener->ipv4 == info->ipv4 &&
		    !memcmp(listener->loc_addr, info->loc_addr, 16))
			return ERR_PTR(-EADDRINUSE);
	}
	listener = kzalloc(sizeof(*listener), GFP_KERNEL);
	if (!listener)
		return ERR_PTR(-ENOMEM);
	listener->core = cm_core;
	refcount_set(&listener->refcnt, 1);
	INIT_LIST_HEAD(&listener->children);
	INIT_LIST_HEAD(&listener->half_open_list);
	listener->ipv4 = info->ipv4;
	memcpy(listener->loc_addr, info->loc_addr, sizeof(listener->loc_addr));
	listener->loc_port = info->loc_port;
	listener->wildcard = irdma_cm_addr_is_any(info->loc_addr);
	listener->vlan_id = listener->wildcard ? IRDMA_CM_NO_VLAN :
			    irdma_cm_addr_vlan(cm_core, info->ipv4,
					       info->loc_addr);
	listener->v6only = cm_id->afonly;
	listener->backlog = backlog > 0 ? backlog : 1;
	listener->tos = cm_id->tos;

	ret = cm_core->ops->apbvt(cm_core, listener->loc_port, true);
	if (ret) {
		kfree(listener);
		return ERR_PTR(ret);
	}
	listener->apbvt_set = true;
	if (listener->wildcard) {
		irdma_add_mqh(cm_core, listener);
	} else {
		ret = irdma_cm_listener_qhash(listener, true);
		if (ret) {
			cm_core->ops->apbvt(cm_core, listener->loc_port, false);
			kfree(listener);
			return ERR_PTR(ret);
		}
	}
	cm_id->add_ref(cm_id);
	listener->cm_id = cm_id;
	list_add_tail(&listener->list, &cm_core->listeners);
	return listener;
}

/*
 * ------------------------------------------------------------------------
 * Opening, accepting, rejecting, closing
 * ------------------------------------------------------------------------
 */

/**
 * irdma_get_addr_info() - addresses and ports of an iw_cm id
 * @laddr: local socket address (cm_id->m_local_addr: iwpm-mapped)
 * @raddr: remote socket address (cm_id->m_remote_addr), or NULL
 * @info: filled: family, host-order addresses, ports
 *
 * Return: 0, or -EAFNOSUPPORT for a family other than IPv4/IPv6, or
 * -EINVAL if the families differ.
 */
static int irdma_get_addr_info(const struct sockaddr_storage *laddr,
			       const struct sockaddr_storage *raddr,
			       struct irdma_cm_info *info)
{
	memset(info, 0, sizeof(*info));
	info->vlan_id = IRDMA_CM_NO_VLAN;
	if (raddr && raddr->ss_family != laddr->ss_family)
		return -EINVAL;
	if (laddr->ss_family == AF_INET) {
		const struct sockaddr_in *l4 = (const struct sockaddr_in *)laddr;
		const struct sockaddr_in *r4 = (const struct sockaddr_in *)raddr;

		info->ipv4 = true;
		info->loc_addr[0] = ntohl(l4->sin_addr.s_addr);
		info->loc_port = ntohs(l4->sin_port);
		if (r4) {
			info->rem_addr[0] = ntohl(r4->sin_addr.s_addr);
			info->rem_port = ntohs(r4->sin_port);
		}
		return 0;
	}
	if (laddr->ss_family == AF_INET6) {
		const struct sockaddr_in6 *l6 = (const struct sockaddr_in6 *)laddr;
		const struct sockaddr_in6 *r6 = (const struct sockaddr_in6 *)raddr;

		irdma_copy_ip_ntohl(info->loc_addr, l6->sin6_addr.in6_u.u6_addr32);
		info->loc_port = ntohs(l6->sin6_port);
		if (r6) {
			irdma_copy_ip_ntohl(info->rem_addr,
					    r6->sin6_addr.in6_u.u6_addr32);
			info->rem_port = ntohs(r6->sin6_port);
		}
		return 0;
	}
	return -EAFNOSUPPORT;
}

/**
 * irdma_cm_scope_of() - the interface an IPv6 connection is scoped to
 * @laddr: local address of the iw_cm id
 * @raddr: remote address
 *
 * rdma_cm gives a link-local remote address the scope of the user's
 * "fe80::1%eth0" and copies it to the local address.
 *
 * Return: the remote address's sin6_scope_id, else the local one's, else
 * 0 (and 0 for IPv4).
 */
static int irdma_cm_scope_of(const struct sockaddr_storage *laddr,
			     const struct sockaddr_storage *raddr)
{
	const struct sockaddr_in6 *l6 = (const struct sockaddr_in6 *)laddr;
	const struct sockaddr_in6 *r6 = (const struct sockaddr_in6 *)raddr;

	if (raddr->ss_family != AF_INET6)
		return 0;
	return r6->sin6_scope_id ? r6->sin6_scope_id : l6->sin6_scope_id;
}

/**
 * irdma_cm_bind() - bind an iw_cm id and a QP to a node
 * @cm_node: node
 * @cm_id: iw_cm id (a reference is taken; provider_data is not used)
 * @iwqp: QP (the caller's reference passes to the node; the QP takes a
 *	node reference)
 *
 * Context: cm_core->mutex held.
 */
static void irdma_cm_bind(struct irdma_cm_node *cm_node, struct iw_cm_id *cm_id,
			  struct irdma_qp *iwqp)
{
	lockdep_assert_held(&cm_node->core->mutex);
	cm_id->add_ref(cm_id);
	cm_node->cm_id = cm_id;
	cm_node->iwqp = iwqp;
	irdma_cm_node_get(cm_node);
	irdma_qp_cm(iwqp)->cm_node = cm_node;
	irdma_qp_cm(iwqp)->disconn_done = false;
	irdma_qp_cm(iwqp)->close_armed = false;
	irdma_qp_cm(iwqp)->last_ae = 0;
	irdma_qp_cm(iwqp)->hw_tcp_state = IRDMA_TCPS_NON_EXISTENT;
}

/**
 * irdma_cm_loopback_connect() - join an active node to a listener on this
 * device without the wire
 * @cm_node: active node (loopback)
 *
 * The passive node is made from the listener as if a SYN had come; both
 * nodes take windows, scales and MSS from this device and sequence
 * numbers from their ISNs; the MPA request is built by the active node
 * and parsed by the passive one exactly as on the wire, so both TCP
 * contexts agree when the QPs are offloaded.  Each node gets an address
 * handle, so each QP context names a programmed ARP entry (this device's
 * MAC), as the adapter needs to send the QP's segments to itself.  The
 * listener then gets CONNECT_REQUEST.
 *
 * Context: cm_core->mutex held; may sleep (hw ops).
 * Return: 0, -ECONNREFUSED (no listener, backlog full, bad request),
 * -ENOBUFS (tun.max_nodes), -ENOMEM, or the address handle's error.
 */
static int irdma_cm_loopback_connect(struct irdma_cm_node *cm_node)
{
	struct irdma_cm_core *cm_core = cm_node->core;
	struct irdma_cm_listener *listener;
	struct irdma_cm_node *peer;
	struct irdma_cm_info info = {};
	int ret = -ECONNREFUSED;

	lockdep_assert_held(&cm_node->core->mutex);
	listener = irdma_find_listener(cm_core, cm_node->ipv4, cm_node->rem_addr,
				       cm_node->rem_port, cm_node->vlan_id, true);
	if (!listener)
		return -ECONNREFUSED;
	if (listener->pending >= listener->backlog) {
		cm_core->stats.listen_overflows++;
		goto out;
	}
	ret = -ENOBUFS;
	if (!irdma_cm_node_room(cm_core))
		goto out;
	info.ipv4 = cm_node->ipv4;
	memcpy(info.loc_addr, cm_node->rem_addr, sizeof(info.loc_addr));
	memcpy(info.rem_addr, cm_node->loc_addr, sizeof(info.rem_addr));
	info.loc_port = cm_node->rem_port;
	info.rem_port = cm_node->loc_port;
	info.vlan_id = cm_node->vlan_id;
	info.user_pri = cm_node->user_pri;
	info.tos = cm_node->tos;
	ether_addr_copy(info.rem_mac, cm_node->loc_mac);
	peer = irdma_make_cm_node(cm_core, &info, listener);
	ret = -ENOMEM;
	if (!peer)
		goto out;
	peer->loopback = true;
	cm_node->loopback = true;
	irdma_add_hte_node(cm_core, peer);
	irdma_cm_node_get(peer);
	cm_node->lpb_peer = peer;
	irdma_cm_node_get(cm_node);
	peer->lpb_peer = cm_node;

	/* both QP contexts name an ARP entry: our own address and MAC */
	ret = irdma_cm_create_ah(cm_node);
	if (!ret)
		ret = irdma_cm_create_ah(peer);
	if (ret)
		goto err_peer;

	/* the handshake, without segments: SYN and SYN-ACK consume one each */
	cm_node->snd_nxt = cm_node->iss + 1;
	peer->snd_nxt = peer->iss + 1;
	cm_node->snd_una = cm_node->snd_nxt;
	peer->snd_una = peer->snd_nxt;
	cm_node->rcv_nxt = peer->snd_nxt;
	peer->rcv_nxt = cm_node->snd_nxt;
	cm_node->snd_wnd = peer->rcv_wnd;
	peer->snd_wnd = cm_node->rcv_wnd;
	cm_node->max_snd_wnd = cm_node->snd_wnd;
	peer->max_snd_wnd = peer->snd_wnd;
	cm_node->snd_wscale = peer->rcv_wscale;
	peer->snd_wscale = cm_node->rcv_wscale;
	cm_node->peer_ws_ok = true;
	peer->peer_ws_ok = true;
	cm_node->mss = min(cm_node->mss, peer->mss);
	peer->mss = cm_node->mss;

	/* the MPA request, as on the wire */
	trace_irdma_mpa(cm_node, (const void *)cm_node->mpa_frame, cm_node->mpa_frame_len,
			true);
	cm_node->snd_nxt += cm_node->mpa_frame_len;
	peer->rcv_nxt += cm_node->mpa_frame_len;
	irdma_cm_set_state(cm_node, IRDMA_CM_STATE_MPAREQ_SENT);
	irdma_cm_arm_state_timer(cm_node, cm_core->tun.mpa_timeout);
	irdma_cm_set_state(peer, IRDMA_CM_STATE_ESTABLISHED);
	irdma_cm_count(peer);
	memcpy(peer->mpa_rx, cm_node->mpa_frame, cm_node->mpa_frame_len);
	peer->mpa_rx_len = cm_node->mpa_frame_len;
	irdma_cm_mpa_request_rcvd(peer);
	ret = peer->state == IRDMA_CM_STATE_MPAREQ_RCVD ? 0 : -ECONNREFUSED;
err_peer:
	if (ret) {
		irdma_cm_node_finish(peer);
		cm_node->lpb_peer = NULL;
		irdma_rem_ref_cm_node(peer);
	}
	irdma_rem_ref_cm_node(peer);
out:
	irdma_dec_refcnt_listen(cm_core, listener);
	return ret;
}

/**
 * irdma_create_cm_node() - start an active open
 * @cm_core: CM instance
 * @cm_id: iw_cm id
 * @conn_param: ULP's private data, IRD and ORD
 * @rt: addresses, next hop, VLAN and loopback from the route lookup
 * @info: addresses and ports
 * @iwqp: QP (the caller's reference passes to this function: it goes to
 *	the node, or is dropped on failure)
 *
 * Builds the MPA request now (IRD/ORD from the ULP, capped), binds the id
 * and the QP, then either joins a local listener (loopback) or adds the
 * APBVT port, the address handle and the 4-tuple steering entry and sends
 * the SYN.  Never waits for the network.
 *
 * Context: cm_core->mutex held; may sleep (hw ops).
 * Return: 0 or -errno.
 */
static int irdma_create_cm_node(struct irdma_cm_core *cm_core,
				struct iw_cm_id *cm_id,
				struct iw_cm_conn_param *conn_param,
				const struct irdma_cm_route *rt,
				struct irdma_cm_info *info,
				struct irdma_qp *iwqp)
{
	struct irdma_cm_node *cm_node;
	int ret;

	lockdep_assert_held(&cm_core->mutex);
	info->vlan_id = rt->vlan_id;
	info->tos = cm_id->tos_set ? cm_id->tos : 0;
	info->user_pri = rt->user_pri;
	ether_addr_copy(info->rem_mac, rt->nh_mac);

	cm_node = irdma_find_node(cm_core, info->rem_port, info->rem_addr,
				  info->loc_port, info->loc_addr, info->vlan_id);
	if (cm_node) {
		irdma_rem_ref_cm_node(cm_node);
		cm_core->ops->qp_put(iwqp);
		return -EADDRINUSE;
	}
	if (!irdma_cm_node_room(cm_core)) {
		cm_core->ops->qp_put(iwqp);
		return -ENOBUFS;
	}
	cm_node = irdma_make_cm_node(cm_core, info, NULL);
	if (!cm_node) {
		cm_core->ops->qp_put(iwqp);
		return -ENOMEM;
	}
	irdma_record_ird_ord(cm_node, conn_param->ird, conn_param->ord);
	cm_node->ulp_pdata_len = conn_param->private_data_len;
	/* kept for the wire (irdma_send_mpa_request() rebuilds and traces
	 * it) or handed to a loopback peer (irdma_cm_loopback_connect())
	 */
	if (!irdma_cm_build_mpa_frame(cm_node, true, false,
				      conn_param->private_data,
				      conn_param->private_data_len)) {
		irdma_rem_ref_cm_node(cm_node);
		cm_core->ops->qp_put(iwqp);
		return -EINVAL;
	}
	irdma_add_hte_node(cm_core, cm_node);
	irdma_cm_bind(cm_node, cm_id, iwqp);

	if (rt->loopback) {
		ret = irdma_cm_loopback_connect(cm_node);
		if (ret)
			goto err_finish;
		irdma_rem_ref_cm_node(cm_node);
		return 0;
	}

	ret = cm_core->ops->apbvt(cm_core, cm_node->loc_port, true);
	if (ret)
		goto err_finish;
	cm_node->apbvt_set = true;
	ret = irdma_cm_create_ah(cm_node);
	if (ret)
		goto err_finish;
	ret = irdma_cm_node_qhash(cm_node, true);
	if (ret)
		goto err_finish;
	cm_node->ecn_asked = irdma_cm_ecn_mode(cm_core) == 1;
	irdma_cm_set_state(cm_node, IRDMA_CM_STATE_SYN_SENT);
	ret = irdma_send_syn(cm_node, false);
	if (ret)
		goto err_finish;
	irdma_rem_ref_cm_node(cm_node);
	return 0;

err_finish:
	/* no event: connect itself fails; iw_cm keeps its own QP reference */
	cm_node->connect_reported = true;
	irdma_cm_ulp_done(cm_node);
	irdma_cm_node_finish(cm_node);
	irdma_rem_ref_cm_node(cm_node);
	return ret;
}

/**
 * irdma_cm_reject() - the ULP refuses a connection request
 * @cm_node: passive node that reported CONNECT_REQUEST
 * @pdata: private data for the peer, or NULL
 * @plen: bytes of @pdata
 *
 * Wire: MPA reply with the R flag and FIN (irdma_send_mpa_reject()).
 * Loopback: the active node parses the same reject and reports
 * CONNECT_REPLY(-ECONNREFUSED); both nodes end.  A node that already
 * went (reset, timeout) is left alone.
 *
 * Context: cm_core->mutex held.
 * Return: 0, or -ECONNRESET if the connection is already gone.
 */
static int irdma_cm_reject(struct irdma_cm_node *cm_node, const void *pdata,
			   u8 plen)
{
	struct irdma_cm_node *peer = cm_node->lpb_peer;

	lockdep_assert_held(&cm_node->core->mutex);
	irdma_cm_uncount(cm_node);
	if (cm_node->state != IRDMA_CM_STATE_MPAREQ_RCVD)
		return -ECONNRESET;
	cm_node->core->stats.rejects++;
	if (!cm_node->loopback)
		return irdma_send_mpa_reject(cm_node, pdata, plen);

	if (!irdma_cm_mpa_out(cm_node, false, true, pdata, plen))
		return -EINVAL;
	if (peer) {
		irdma_cm_node_get(peer);
		memcpy(peer->mpa_rx, cm_node->mpa_frame, cm_node->mpa_frame_len);
		peer->mpa_rx_len = cm_node->mpa_frame_len;
		irdma_cm_mpa_in(peer, false);
		irdma_event_connect_error(peer, -ECONNREFUSED);
		irdma_cm_node_finish(peer);
		irdma_rem_ref_cm_node(peer);
	}
	irdma_cm_node_finish(cm_node);
	return 0;
}

/**
 * irdma_cm_close() - close a node on the ULP's or the driver's behalf
 * @cm_node: node (the caller holds a reference)
 *
 * Before the TCP handshake completes: RST.  After it and before offload:
 * our FIN (FIN_WAIT1, or LAST_ACK after the peer's FIN).  Offloaded
 * nodes belong to the QP: they are only released.  Closing nodes are
 * left to finish.
 *
 * Context: cm_core->mutex held.
 */
static void irdma_cm_close(struct irdma_cm_node *cm_node)
{
	lockdep_assert_held(&cm_node->core->mutex);
	switch (cm_node->state) {
	case IRDMA_CM_STATE_IDLE:
	case IRDMA_CM_STATE_SYN_SENT:
	case IRDMA_CM_STATE_SYN_RCVD:
		irdma_send_reset(cm_node);
		irdma_cm_node_finish(cm_node);
		break;
	case IRDMA_CM_STATE_ESTABLISHED:
	case IRDMA_CM_STATE_MPAREQ_SENT:
	case IRDMA_CM_STATE_MPAREQ_RCVD:
	case IRDMA_CM_STATE_MPAREJ_RCVD:
		irdma_cm_uncount(cm_node);
		irdma_cm_stop_state_timer(cm_node);
		if (cm_node->loopback) {
			irdma_cm_node_finish(cm_node);
			break;
		}
		irdma_cm_set_state(cm_node, IRDMA_CM_STATE_FIN_WAIT1);
		if (irdma_send_fin(cm_node))
			irdma_cm_node_finish(cm_node);
		break;
	case IRDMA_CM_STATE_OFFLOADED:
		irdma_cm_node_finish(cm_node);
		break;
	default:
		break;
	}
}

/**
 * irdma_cm_abort_node() - tear a connection down now (address removed,
 * link down, unload)
 * @cm_node: node (the caller holds a reference)
 *
 * Offloaded: the QP is reset, the ULP told CLOSE(-ECONNRESET).  Before
 * offload: RST and the ULP told the connection failed.
 *
 * Context: cm_core->mutex held.
 */
static void irdma_cm_abort_node(struct irdma_cm_node *cm_node)
{
	struct irdma_qp *iwqp = cm_node->iwqp;

	lockdep_assert_held(&cm_node->core->mutex);
	if (cm_node->state == IRDMA_CM_STATE_CLOSED)
		return;
	if (cm_node->offloaded && iwqp) {
		if (irdma_qp_cm(iwqp)->cm_node == cm_node) {
			cm_node->core->ops->qp_reset(iwqp);
			irdma_qp_cm(iwqp)->last_ae = IRDMA_AE_RESET_SENT;
			irdma_qp_cm(iwqp)->hw_tcp_state = IRDMA_TCPS_CLOSED;
			irdma_qp_disconnect(iwqp, -ECONNRESET);
		}
		irdma_cm_node_finish(cm_node);
		return;
	}
	if (!cm_node->offloaded)
		irdma_send_reset(cm_node);
	irdma_cm_report_fail(cm_node, -ECONNRESET);
	irdma_cm_node_finish(cm_node);
}

/**
 * irdma_teardown_list_prep() - collect the nodes an address or link
 * change takes down
 * @cm_core: CM instance
 * @teardown_list: list to fill (through node->tmp; each node referenced)
 * @ipaddr: local address that went away (host order), or NULL
 * @ipv4: family of @ipaddr
 * @vlan_id: VLAN id of the device that went down
 * @disconnect_all: every node on @vlan_id (link down), not just @ipaddr's
 *
 * Context: cm_core->mutex held.
 */
static void irdma_teardown_list_prep(struct irdma_cm_core *cm_core,
				     struct list_head *teardown_list,
				     const u32 *ipaddr, bool ipv4, u16 vlan_id,
				     bool disconnect_all)
{
	struct irdma_cm_node *cm_node;
	int bkt;

	lockdep_assert_held(&cm_core->mutex);
	hash_for_each(cm_core->nodes, bkt, cm_node, hnode) {
		bool match;

		if (disconnect_all)
			match = cm_node->vlan_id == vlan_id;
		else
			match = cm_node->ipv4 == ipv4 && ipaddr &&
				!memcmp(cm_node->loc_addr, ipaddr, 16);
		if (!match)
			continue;
		irdma_cm_node_get(cm_node);
		list_add(&cm_node->tmp, teardown_list);
	}
}

/**
 * irdma_cm_teardown_connections() - tear down the connections of an
 * address or of a downed link
 * @cm_core: CM instance
 * @ipaddr: address (host order) or NULL
 * @ipv4: family of @ipaddr
 * @vlan_id: VLAN id of the device
 * @disconnect_all: all connections on @vlan_id
 *
 * Context: cm_core->mutex held.
 */
static void irdma_cm_teardown_connections(struct irdma_cm_core *cm_core,
					  const u32 *ipaddr, bool ipv4,
					  u16 vlan_id, bool disconnect_all)
{
	struct irdma_cm_node *cm_node, *tmp;
	LIST_HEAD(teardown_list);

	lockdep_assert_held(&cm_core->mutex);
	irdma_teardown_list_prep(cm_core, &teardown_list, ipaddr, ipv4, vlan_id,
				 disconnect_all);
	list_for_each_entry_safe(cm_node, tmp, &teardown_list, tmp) {
		list_del_init(&cm_node->tmp);
		irdma_cm_abort_node(cm_node);
		irdma_rem_ref_cm_node(cm_node);
	}
}

/**
 * irdma_cm_ifaddr() - an address or link change (IRDMA_CM_WORK_IFADDR)
 * @cm_core: CM instance
 * @work: the change
 *
 * Address added: a child listener for it on every wildcard listener of
 * its family.  Address removed: those children go and its connections are
 * torn down.  Link set down (no address; a carrier loss is not reported
 * here): every connection on that VLAN.
 *
 * Context: cm_core->mutex held.
 */
static void irdma_cm_ifaddr(struct irdma_cm_core *cm_core,
			    struct irdma_cm_work *work)
{
	struct irdma_cm_listener *listener;
	bool link = irdma_cm_addr_is_any(work->ifa_addr);

	lockdep_assert_held(&cm_core->mutex);
	if (link) {
		if (!work->ifa_up)
			irdma_cm_teardown_connections(cm_core, NULL, work->ifa_ipv4,
						      work->ifa_vlan, true);
		return;
	}
	list_for_each_entry(listener, &cm_core->listeners, list) {
		if (!listener->wildcard ||
		    !irdma_cm_listener_family_ok(listener, work->ifa_ipv4))
			continue;
		if (work->ifa_up)
			irdma_cm_add_child(cm_core, listener, work->ifa_ipv4,
					   work->ifa_addr, work->ifa_vlan);
		else
			irdma_del_multiple_qhash(cm_core, listener,
						 work->ifa_addr, work->ifa_ipv4);
	}
	if (!work->ifa_up)
		irdma_cm_teardown_connections(cm_core, work->ifa_addr,
					      work->ifa_ipv4, work->ifa_vlan,
					      false);
}

/**
 * irdma_if_notify() - a local address or link of the device changed
 * @cm_core: CM instance
 * @netdev: the device (the port's netdev or a VLAN on it), or NULL for
 *	the port's own
 * @ipaddr: the address, host-order words (IPv4 in [0]); NULL for a
 *	link event
 * @ipv4: family of @ipaddr
 * @ifup: added / up (else removed / down)
 *
 * Called from the inetaddr, inet6addr and netdevice notifiers; only
 * queues IRDMA_CM_WORK_IFADDR (see irdma_cm_ifaddr()).
 *
 * Context: any (the inet6addr chain is atomic).
 */
void irdma_if_notify(struct irdma_cm_core *cm_core, struct net_device *netdev,
		     const u32 *ipaddr, bool ipv4, bool ifup)
{
	struct irdma_cm_work *work;

	work = irdma_create_event(cm_core, IRDMA_CM_WORK_IFADDR, NULL,
				  GFP_ATOMIC);
	if (!work)
		return;
	work->ifa_ipv4 = ipv4;
	work->ifa_up = ifup;
	work->ifa_vlan = netdev && is_vlan_dev(netdev) ?
			 vlan_dev_vlan_id(netdev) : IRDMA_CM_NO_VLAN;
	if (ipaddr)
		memcpy(work->ifa_addr, ipaddr, ipv4 ? 4 : 16);
	irdma_cm_post_event(cm_core, work);
}

/*
 * ------------------------------------------------------------------------
 * Receive path and the dispatcher
 * ------------------------------------------------------------------------
 */

/**
 * irdma_cm_route_back() - the route back to a segment's sender
 * @cm_core: CM instance
 * @seg: the segment
 * @vlan_id: VLAN it came on (the scope of a link-local source)
 * @rt: filled: next hop, its MAC, the VLAN and priority of our address
 *
 * Every answer to the wire goes where the host stack would send it:
 * net_ops->route, the kernel's routing and neighbour tables, never the
 * segment's frame.  A frame is unauthenticated, and the adapter keeps one
 * ARP entry per neighbour address, shared by every connection to it: a
 * MAC taken from a spoofed segment would point that entry, and those
 * connections, at another station.  An unresolved neighbour fails the
 * lookup and starts its resolution (the peer's retransmission finds it).
 *
 * Context: cm_core->mutex held; may sleep.
 * Return: 0, -EINVAL for a sender that is one of our own addresses, or
 * the lookup's -errno.
 */
static int irdma_cm_route_back(struct irdma_cm_core *cm_core,
			       const struct irdma_cm_seg *seg, u16 vlan_id,
			       struct irdma_cm_route *rt)
{
	int ret;

	lockdep_assert_held(&cm_core->mutex);
	memset(rt, 0, sizeof(*rt));
	rt->ipv4 = seg->ipv4;
	rt->tos = seg->tos;
	memcpy(rt->loc_addr, seg->daddr, sizeof(rt->loc_addr));
	memcpy(rt->rem_addr, seg->saddr, sizeof(rt->rem_addr));
	if (!seg->ipv4 && irdma_cm_ipv6_link_local(seg->saddr))
		rt->scope_id = irdma_cm_vlan_ifindex(cm_core, vlan_id);
	ret = cm_core->net->route(cm_core, rt);
	if (ret)
		return ret;
	return rt->loopback ? -EINVAL : 0;
}

/**
 * irdma_cm_reset_unknown() - answer a segment that matches no connection
 * @cm_core: CM instance
 * @seg: the segment
 * @vlan_id: VLAN the segment came on (the scope of a link-local source)
 *
 * The RST goes back the way irdma_cm_route_back() finds, never to the
 * segment's frame's MAC.  Without a resolved next hop (or for a "remote"
 * address that is local) nothing is sent; the segment is counted in
 * stats.rst_no_route.  Rate-limited before any lookup
 * (irdma_cm_reply_allowed()): each RST costs a route lookup and an AH.
 *
 * Context: cm_core->mutex held; may sleep.
 */
static void irdma_cm_reset_unknown(struct irdma_cm_core *cm_core,
				   const struct irdma_cm_seg *seg, u16 vlan_id)
{
	struct irdma_cm_ah_info info = {};
	struct irdma_cm_route rt;
	u8 buf[IRDMA_CM_TCP_HDR_SIZE];
	u32 len, ah_id;
	int idx;

	lockdep_assert_held(&cm_core->mutex);
	cm_core->stats.rx_dropped++;
	len = irdma_form_uda_cm_frame(seg, buf);
	if (!len || !irdma_cm_reply_allowed(cm_core))
		return;
	if (irdma_cm_route_back(cm_core, seg, vlan_id, &rt)) {
		cm_core->stats.rst_no_route++;
		return;
	}
	idx = cm_core->ops->arp_index(cm_core, seg->ipv4, seg->saddr, rt.nh_mac);
	if (idx < 0)
		return;
	info.ipv4 = seg->ipv4;
	memcpy(info.loc_addr, seg->daddr, sizeof(info.loc_addr));
	memcpy(info.rem_addr, seg->saddr, sizeof(info.rem_addr));
	ether_addr_copy(info.loc_mac, cm_core->netdev->dev_addr);
	ether_addr_copy(info.rem_mac, rt.nh_mac);
	if (rt.vlan_id < VLAN_N_VID) {
		info.insert_vlan = true;
		info.vlan_tci = rt.vlan_id |
				(u16)rt.user_pri << VLAN_PRIO_SHIFT;
	}
	info.tos = seg->tos;
	info.hop_limit = IRDMA_CM_DEFAULT_TTL;
	info.arp_idx = idx;
	if (cm_core->ops->ah_create(cm_core, &info, &ah_id))
		return;
	cm_core->ops->ilq_send(cm_core, ah_id, buf, len, len);
	cm_core->stats.resets_sent++;
	cm_core->ops->ah_destroy(cm_core, ah_id);
}

/**
 * irdma_cm_evict_half_open() - drop a listener's oldest half-open node
 * @listener: top-level listener with half-open nodes
 *
 * No RST: the SYN may have been spoofed, and a real peer's next segment
 * gets one from irdma_cm_reset_unknown().
 *
 * Context: cm_core->mutex held.
 */
static void irdma_cm_evict_half_open(struct irdma_cm_listener *listener)
{
	struct irdma_cm_node *oldest;

	lockdep_assert_held(&listener->core->mutex);
	oldest = list_first_entry(&listener->half_open_list,
				  struct irdma_cm_node, half_open_entry);
	irdma_cm_node_get(oldest);
	listener->core->stats.half_open_evictions++;
	irdma_cm_node_finish(oldest);
	irdma_rem_ref_cm_node(oldest);
}

/**
 * irdma_cm_new_passive() - a SYN for a listener: make the passive node
 * @cm_core: CM instance
 * @seg: the SYN
 * @pkt: its frame (VLAN priority)
 * @vlan_id: VLAN id of the frame
 *
 * A full backlog drops the SYN (the peer retransmits, as with Linux
 * sockets); no listener or a destroyed one answers with RST.  Half-open
 * nodes have their own bound (tun.max_half_open per listener): at the
 * bound the listener's oldest half-open node goes, silently (a SYN flood
 * then cannot starve the backlog, and a real peer's ACK usually beats
 * the flood).  At tun.max_nodes the SYN is dropped, and so is a SYN
 * whose next hop is not resolved yet (irdma_cm_route_back(): the MAC
 * comes from the neighbour table, never from the SYN's frame).
 *
 * Context: cm_core->mutex held.
 */
static void irdma_cm_new_passive(struct irdma_cm_core *cm_core,
				 const struct irdma_cm_seg *seg,
				 const struct irdma_cm_rx_pkt *pkt, u16 vlan_id)
{
	struct irdma_cm_listener *listener;
	struct irdma_cm_node *cm_node;
	struct irdma_cm_info info = {};
	struct irdma_cm_route rt;

	lockdep_assert_held(&cm_core->mutex);
	listener = irdma_find_listener(cm_core, seg->ipv4, seg->daddr, seg->dport,
				       vlan_id, false);
	if (!listener) {
		irdma_cm_reset_unknown(cm_core, seg, vlan_id);
		return;
	}
	if (listener->pending >= listener->backlog) {
		cm_core->stats.listen_overflows++;
		cm_core->stats.rx_dropped++;
		goto out;
	}
	if (listener->half_open >= cm_core->tun.max_half_open &&
	    !list_empty(&listener->half_open_list))
		irdma_cm_evict_half_open(listener);
	if (!irdma_cm_node_room(cm_core)) {
		cm_core->stats.rx_dropped++;
		goto out;
	}
	if (irdma_cm_route_back(cm_core, seg, vlan_id, &rt)) {
		cm_core->stats.syn_unresolved++;
		cm_core->stats.rx_dropped++;
		goto out;
	}
	ether_addr_copy(info.rem_mac, rt.nh_mac);
	info.ipv4 = seg->ipv4;
	memcpy(info.loc_addr, seg->daddr, sizeof(info.loc_addr));
	memcpy(info.rem_addr, seg->saddr, sizeof(info.rem_addr));
	info.loc_port = seg->dport;
	info.rem_port = seg->sport;
	info.vlan_id = vlan_id;
	info.user_pri = pkt->vlan_valid ? pkt->vlan_tci >> VLAN_PRIO_SHIFT : 0;
	info.tos = listener->tos ? listener->tos : seg->tos;
	cm_node = irdma_make_cm_node(cm_core, &info, listener);
	if (!cm_node)
		goto out;
	irdma_add_hte_node(cm_core, cm_node);
	irdma_handle_syn_pkt(cm_node, seg);
	irdma_rem_ref_cm_node(cm_node);
out:
	irdma_dec_refcnt_listen(cm_core, listener);
}

/**
 * irdma_cm_timewait_reuse() - may a SYN reopen a 4-tuple in TIME_WAIT
 * @cm_node: node of the 4-tuple
 * @seg: the segment
 *
 * As Linux does for sockets (RFC 1122 4.2.2.13): a pure SYN whose
 * sequence number is beyond what the old incarnation used ends the
 * TIME_WAIT of a passive node early, and the SYN opens a new connection.
 *
 * Return: true if @cm_node is to be ended and @seg handled as new.
 */
static bool irdma_cm_timewait_reuse(struct irdma_cm_node *cm_node,
				    const struct irdma_cm_seg *seg)
{
	return cm_node->state == IRDMA_CM_STATE_TIME_WAIT && !cm_node->active &&
	       (seg->flags & (IRDMA_TCP_SYN | IRDMA_TCP_ACK | IRDMA_TCP_RST |
			      IRDMA_TCP_FIN)) == IRDMA_TCP_SYN &&
	       irdma_seq_before(cm_node->rcv_nxt, seg->seq);
}

/**
 * irdma_cm_rx() - a received frame (IRDMA_CM_WORK_RX)
 * @cm_core: CM instance
 * @work: the frame's copy
 *
 * Malformed frames and IPv4 fragments are dropped (and counted); a frame
 * for a known 4-tuple goes to its
 * node; a pure SYN may make a passive node; anything else gets a reset.
 *
 * Context: cm_core->mutex held.
 */
static void irdma_cm_rx(struct irdma_cm_core *cm_core, struct irdma_cm_work *work)
{
	const struct irdma_cm_rx_pkt *pkt = &work->pkt;
	struct irdma_cm_node *cm_node;
	struct irdma_cm_seg seg;
	u16 vlan_id;
	int ret;

	lockdep_assert_held(&cm_core->mutex);
	ret = irdma_cm_parse_segment(pkt->buf, pkt->len, pkt->ipv4, &seg);
	if (ret) {
		if (ret == -EMSGSIZE)
			cm_core->stats.rx_fragments++;
		cm_core->stats.rx_dropped++;
		return;
	}
	cm_core->stats.rx_segs++;
	vlan_id = irdma_cm_pkt_vlan(pkt);
	cm_node = irdma_find_node(cm_core, seg.sport, seg.saddr, seg.dport,
				  seg.daddr, vlan_id);
	if (cm_node && irdma_cm_timewait_reuse(cm_node, &seg)) {
		irdma_cm_node_finish(cm_node);
		irdma_rem_ref_cm_node(cm_node);
		cm_node = NULL;
	}
	if (cm_node) {
		irdma_process_pkt(cm_node, &seg);
		irdma_rem_ref_cm_node(cm_node);
		return;
	}
	if ((seg.flags & (IRDMA_TCP_SYN | IRDMA_TCP_ACK | IRDMA_TCP_RST |
			  IRDMA_TCP_FIN)) == IRDMA_TCP_SYN)
		irdma_cm_new_passive(cm_core, &seg, pkt, vlan_id);
	else
		irdma_cm_reset_unknown(cm_core, &seg, vlan_id);
}

/**
 * irdma_receive_ilq() - a frame arrived on the ILQ
 * @cm_core: CM instance
 * @pkt: the frame (GEN_2 layout; copied, the buffer may be reused on
 *	return)
 *
 * Only copies the frame and queues IRDMA_CM_WORK_RX.  At most
 * tun.max_rx_queued frames wait (or are being handled) at a time; beyond
 * that a frame is dropped and counted in rx_queue_drops, so a flood costs
 * bounded memory (each frame is a GFP_ATOMIC work item and a copy) and
 * the TCP peers of the CM retransmit what was lost.
 *
 * Context: any.
 */
void irdma_receive_ilq(struct irdma_cm_core *cm_core,
		       const struct irdma_cm_rx_pkt *pkt)
{
	struct irdma_cm_work *work;
	u8 *copy;

	if (!pkt->buf || pkt->len < IRDMA_ILQ_TCP_OFFSET + IRDMA_CM_TCP_HDR_SIZE ||
	    pkt->len > IRDMA_CM_MAX_RX_LEN)
		return;
	if (atomic_inc_return(&cm_core->rx_queued) >
	    READ_ONCE(cm_core->tun.max_rx_queued)) {
		atomic_long_inc(&cm_core->rx_queue_drops);
		goto uncount;
	}
	work = irdma_create_event(cm_core, IRDMA_CM_WORK_RX, NULL, GFP_ATOMIC);
	if (!work)
		goto uncount;
	copy = kmemdup(pkt->buf, pkt->len, GFP_ATOMIC);
	if (!copy) {
		kfree(work);
		goto uncount;
	}
	work->pkt = *pkt;
	work->pkt.buf = copy;
	work->len = pkt->len;
	/* from here irdma_cm_free_work() uncounts it */
	irdma_cm_post_event(cm_core, work);
	return;

uncount:
	atomic_dec(&cm_core->rx_queued);
}

/**
 * irdma_cm_event_handler() - the dispatcher: every CM work item runs here
 * @w: work_struct of a struct irdma_cm_work
 *
 * Takes cm_core->mutex, switches on the work type (the handlers switch on
 * the node state), then drops the item's node and QP references.  Once
 * the core is dead only the references are dropped.
 *
 * Context: process context (cm_core->wq, ordered).
 */
static void irdma_cm_event_handler(struct work_struct *w)
{
	struct irdma_cm_work *work = container_of(w, struct irdma_cm_work, work);
	struct irdma_cm_core *cm_core = work->core;
	struct irdma_cm_node *cm_node = work->node;
	struct irdma_qp *iwqp = work->iwqp;
	bool embedded = work->embedded;

	mutex_lock(&cm_core->mutex);
	switch (work->type) {
	case IRDMA_CM_WORK_RX:
		if (!cm_core->dead)
			irdma_cm_rx(cm_core, work);
		break;
	case IRDMA_CM_WORK_REXMIT:
		irdma_cm_rexmit(cm_node);
		break;
	case IRDMA_CM_WORK_TIMEOUT:
		irdma_handle_close_entry(cm_node);
		break;
	case IRDMA_CM_WORK_ESTABLISHED:
		irdma_cm_rts_rcvd(iwqp);
		break;
	case IRDMA_CM_WORK_DISCONN:
		irdma_disconnect_worker(work);
		break;
	case IRDMA_CM_WORK_IFADDR:
		irdma_cm_ifaddr(cm_core, work);
		break;
	}
	if (embedded) {
		/* the timer's reference; the item lives in the node */
		irdma_rem_ref_cm_node(cm_node);
		mutex_unlock(&cm_core->mutex);
		return;
	}
	mutex_unlock(&cm_core->mutex);
	irdma_cm_free_work(work);
}

/*
 * ------------------------------------------------------------------------
 * iw_cm provider calls
 * ------------------------------------------------------------------------
 */

/**
 * irdma_cm_core_of() - CM instance of an iw_cm id
 * @cm_id: iw_cm id
 *
 * Return: the core of the id's device.
 */
static struct irdma_cm_core *irdma_cm_core_of(struct iw_cm_id *cm_id)
{
	return &to_iwdev(cm_id->device)->cm_core;
}

/**
 * irdma_connect() - iw_cm connect: start an active open
 * @cm_id: iw_cm id; m_local_addr/m_remote_addr (iwpm-mapped) go on the wire
 * @conn_param: QP number, IRD, ORD, private data (at most 255 bytes)
 *
 * Returns as soon as the SYN is out (or the loopback partner reached);
 * the result comes as CONNECT_REPLY.
 *
 * Context: process context; takes cm_core->mutex; never waits for the
 * network.
 * Return: 0, or -EINVAL (bad QP, length or addresses), -EAFNOSUPPORT,
 * -ENETUNREACH/-EHOSTUNREACH (no route or neighbour), -ECONNREFUSED
 * (loopback without a listener), -EADDRINUSE, -ENOBUFS (the CM's node
 * limit, tun.max_nodes), -ENOMEM, or a hw error.
 */
int irdma_connect(struct iw_cm_id *cm_id, struct iw_cm_conn_param *conn_param)
{
	struct irdma_cm_core *cm_core = irdma_cm_core_of(cm_id);
	struct irdma_cm_route rt = {};
	struct irdma_cm_info info;
	struct irdma_qp *iwqp;
	int ret;

	if (conn_param->private_data_len > IRDMA_CM_MAX_ULP_PDATA ||
	    (conn_param->private_data_len && !conn_param->private_data))
		return -EINVAL;
	ret = irdma_get_addr_info(&cm_id->m_local_addr, &cm_id->m_remote_addr,
				  &info);
	if (ret)
		return ret;
	if (!info.loc_port || !info.rem_port ||
	    irdma_cm_addr_is_any(info.rem_addr))
		return -EINVAL;

	rt.ipv4 = info.ipv4;
	rt.tos = cm_id->tos_set ? cm_id->tos : 0;
	rt.scope_id = irdma_cm_scope_of(&cm_id->m_local_addr,
					&cm_id->m_remote_addr);
	memcpy(rt.loc_addr, info.loc_addr, sizeof(rt.loc_addr));
	memcpy(rt.rem_addr, info.rem_addr, sizeof(rt.rem_addr));

	mutex_lock(&cm_core->mutex);
	iwqp = cm_core->ops->qp_get(cm_core, conn_param->qpn);
	if (!iwqp) {
		ret = -EINVAL;
		goto out;
	}
	if (irdma_qp_cm(iwqp)->cm_node) {
		cm_core->ops->qp_put(iwqp);
		ret = -EBUSY;
		goto out;
	}
	ret = cm_core->net->route(cm_core, &rt);
	if (ret) {
		cm_core->ops->qp_put(iwqp);
		goto out;
	}
	ret = irdma_create_cm_node(cm_core, cm_id, conn_param, &rt, &info, iwqp);
	if (!ret)
		cm_core->stats.connects++;
out:
	mutex_unlock(&cm_core->mutex);
	irdma_cm_dbg(cm_core, "connect qpn %u: %d\n", conn_param->qpn, ret);
	return ret;
}

/**
 * irdma_cm_loopback_accept() - finish an accepted loopback connection
 * @cm_node: passive node; its MPA reply is built
 *
 * The active partner parses the reply as it would from the wire and is
 * offloaded after the passive QP; the reply counts as sent on the passive
 * side (no LSMM), received on the active side.
 *
 * Context: cm_core->mutex held.
 * Return: 0 or -ECONNRESET if the partner is gone.
 */
static int irdma_cm_loopback_accept(struct irdma_cm_node *cm_node)
{
	struct irdma_cm_node *peer = cm_node->lpb_peer;

	lockdep_assert_held(&cm_node->core->mutex);
	if (!peer || peer->state != IRDMA_CM_STATE_MPAREQ_SENT)
		return -ECONNRESET;
	cm_node->snd_nxt += cm_node->mpa_frame_len;
	peer->rcv_nxt += cm_node->mpa_frame_len;
	memcpy(peer->mpa_rx, cm_node->mpa_frame, cm_node->mpa_frame_len);
	peer->mpa_rx_len = cm_node->mpa_frame_len;
	return 0;
}

/**
 * irdma_accept() - iw_cm accept: answer a connection request
 * @cm_id: the new iw_cm id (provider_data: the CONNECT_REQUEST's handle)
 * @conn_param: QP number, IRD, ORD, private data (at most 255 bytes)
 *
 * Runs the RFC 6581 negotiation with the ULP's IRD/ORD (a refusal sends
 * an MPA reject with FIN), builds the MPA reply, and offloads the QP with
 * the reply as its LSMM.  ESTABLISHED follows the RTS AE.  On any error
 * the connection is closed towards the peer.
 *
 * Context: process context; takes cm_core->mutex.
 * Return: 0, -EINVAL, -ECONNRESET (the peer went away, or the CM released
 * the request), -ECONNREFUSED (negotiation failed), or a hw error.
 */
int irdma_accept(struct iw_cm_id *cm_id, struct iw_cm_conn_param *conn_param)
{
	struct irdma_cm_core *cm_core = irdma_cm_core_of(cm_id);
	struct irdma_cm_node *cm_node;
	struct irdma_cm_node *peer;
	struct irdma_qp *iwqp = NULL;
	int ret;

	mutex_lock(&cm_core->mutex);
	ret = irdma_cm_connreq_take(cm_core, cm_id, &cm_node);
	if (ret) {
		mutex_unlock(&cm_core->mutex);
		return ret;
	}

	if (cm_node->state != IRDMA_CM_STATE_MPAREQ_RCVD) {
		ret = -ECONNRESET;
		goto out;
	}
	if (conn_param->private_data_len > IRDMA_CM_MAX_ULP_PDATA ||
	    (conn_param->private_data_len && !conn_param->private_data)) {
		ret = -EINVAL;
		goto err_close;
	}
	iwqp = cm_core->ops->qp_get(cm_core, conn_param->qpn);
	if (!iwqp || irdma_qp_cm(iwqp)->cm_node) {
		ret = -EINVAL;
		goto err_close;
	}

	irdma_record_ird_ord(cm_node, conn_param->ird, conn_param->ord);
	if (cm_node->mpa_enhanced &&
	    irdma_negotiate_mpa_v2_ird_ord(cm_node, true)) {
		irdma_cm_err(cm_core, "accept: MPA negotiation failed, error %u\n",
			     cm_node->mpa_err);
		ret = -ECONNREFUSED;
		goto err_close;
	}
	if (!cm_node->mpa_enhanced)
		cm_node->rtr = IRDMA_RTR_NONE;
	if (!irdma_cm_mpa_out(cm_node, false, false,
			      conn_param->private_data,
			      conn_param->private_data_len)) {
		ret = -EINVAL;
		goto err_close;
	}
	irdma_cm_bind(cm_node, cm_id, iwqp);
	iwqp = NULL;
	irdma_cm_uncount(cm_node);

	peer = cm_node->lpb_peer;
	if (cm_node->loopback) {
		ret = irdma_cm_loopback_accept(cm_node);
	} else {
		cm_node->lsmm = kmemdup(cm_node->mpa_frame,
					cm_node->mpa_frame_len, GFP_KERNEL);
		ret = cm_node->lsmm ? 0 : -ENOMEM;
		/* the offloaded connection keeps its port accelerated even
		 * if the listener goes first
		 */
		if (!ret)
			ret = cm_core->ops->apbvt(cm_core, cm_node->loc_port, true);
		if (!ret)
			cm_node->apbvt_set = true;
	}
	if (!ret)
		ret = irdma_cm_init_tsa_conn(cm_node, cm_node->iwqp);
	if (ret) {
		/* accept fails: iw_cm goes idle and expects no event */
		cm_node->established_reported = true;
		cm_node->close_reported = true;
		irdma_cm_ulp_done(cm_node);
		if (!cm_node->loopback)
			irdma_send_reset(cm_node);
		if (peer && peer->state != IRDMA_CM_STATE_CLOSED) {
			irdma_cm_node_get(peer);
			irdma_active_open_err(peer, false, -ECONNRESET);
			irdma_rem_ref_cm_node(peer);
		}
		irdma_cm_node_finish(cm_node);
		goto out;
	}
	cm_core->stats.accepts++;
	if (peer) {
		irdma_cm_node_get(peer);
		irdma_cm_mpa_reply_rcvd(peer);
		irdma_rem_ref_cm_node(peer);
	}
	ret = 0;
	goto out;

err_close:
	if (iwqp)
		cm_core->ops->qp_put(iwqp);
	irdma_cm_ulp_done(cm_node);
	/* the backlog slot goes now, as in irdma_cm_reject() */
	irdma_cm_uncount(cm_node);
	if (cm_node->mpa_err && !cm_node->loopback)
		irdma_send_mpa_reject(cm_node, NULL, 0);
	else if (cm_node->loopback)
		irdma_cm_reject(cm_node, NULL, 0);
	else
		irdma_cm_close(cm_node);
out:
	irdma_rem_ref_cm_node(cm_node);
	mutex_unlock(&cm_core->mutex);
	return ret;
}

/**
 * irdma_reject() - iw_cm reject: refuse a connection request
 * @cm_id: the new iw_cm id (provider_data: the CONNECT_REQUEST's handle)
 * @pdata: private data for the peer, or NULL
 * @pdata_len: its length (at most 255)
 *
 * iw_cm also calls this when an id is destroyed without an answer.
 *
 * Context: process context; takes cm_core->mutex.
 * Return: 0, -EINVAL, or -ECONNRESET if the connection already went.
 */
int irdma_reject(struct iw_cm_id *cm_id, const void *pdata, u8 pdata_len)
{
	struct irdma_cm_core *cm_core = irdma_cm_core_of(cm_id);
	struct irdma_cm_node *cm_node;
	int ret;

	mutex_lock(&cm_core->mutex);
	ret = irdma_cm_connreq_take(cm_core, cm_id, &cm_node);
	if (ret) {
		mutex_unlock(&cm_core->mutex);
		return ret;
	}
	if (pdata_len && !pdata)
		pdata_len = 0;
	ret = irdma_cm_reject(cm_node, pdata, pdata_len);
	irdma_rem_ref_cm_node(cm_node);
	mutex_unlock(&cm_core->mutex);
	return ret;
}

/**
 * irdma_create_listen() - iw_cm listen
 * @cm_id: iw_cm id; m_local_addr is the (iwpm-mapped) address to listen on,
 *	the wildcard covers every address of the device and its VLANs
 * @backlog: connections that may wait for accept
 *
 * Context: process context; takes cm_core->mutex.
 * Return: 0, -EADDRINUSE, -EAFNOSUPPORT, -ENOMEM or a hw error.
 */
int irdma_create_listen(struct iw_cm_id *cm_id, int backlog)
{
	struct irdma_cm_core *cm_core = irdma_cm_core_of(cm_id);
	struct irdma_cm_listener *listener;
	struct irdma_cm_info info;
	int ret;

	ret = irdma_get_addr_info(&cm_id->m_local_addr, NULL, &info);
	if (ret)
		return ret;
	if (!info.loc_port)
		return -EINVAL;
	mutex_lock(&cm_core->mutex);
	listener = irdma_make_listen_node(cm_core, cm_id, &info, backlog);
	if (IS_ERR(listener)) {
		ret = PTR_ERR(listener);
	} else {
		cm_id->provider_data = listener;
		ret = 0;
	}
	mutex_unlock(&cm_core->mutex);
	irdma_cm_dbg(cm_core, "listen port %u: %d\n", info.loc_port, ret);
	return ret;
}

/**
 * irdma_destroy_listen() - iw_cm destroy listen
 * @cm_id: iw_cm id of the listener
 *
 * Context: process context; takes cm_core->mutex.
 * Return: 0, or -EINVAL if the id does not listen.
 */
int irdma_destroy_listen(struct iw_cm_id *cm_id)
{
	struct irdma_cm_core *cm_core = irdma_cm_core_of(cm_id);
	struct irdma_cm_listener *listener;

	mutex_lock(&cm_core->mutex);
	listener = cm_id->provider_data;
	if (!listener || listener->cm_id != cm_id) {
		mutex_unlock(&cm_core->mutex);
		return -EINVAL;
	}
	irdma_cm_del_listen(cm_core, listener, true);
	mutex_unlock(&cm_core->mutex);
	return 0;
}

/*
 * ------------------------------------------------------------------------
 * Setup and teardown
 * ------------------------------------------------------------------------
 */

/**
 * irdma_setup_cm_core() - set a CM instance up (probe)
 * @cm_core: the core embedded in @iwdev
 * @ops: hardware layer (const, lives as long as the core)
 * @iwdev: device; iwdev->netdev and iwdev->ibdev must be set
 *
 * Sets the default timer constants (struct irdma_cm_tunables) and the
 * kernel network lookups, and creates the ordered workqueue.
 *
 * Context: process context.
 * Return: 0 or -ENOMEM.
 */
int irdma_setup_cm_core(struct irdma_cm_core *cm_core,
			const struct irdma_cm_hw_ops *ops,
			struct irdma_device *iwdev)
{
	memset(cm_core, 0, sizeof(*cm_core));
	cm_core->iwdev = iwdev;
	cm_core->netdev = iwdev->netdev;
	cm_core->ops = ops;
	cm_core->net = &irdma_cm_kernel_net_ops;
	mutex_init(&cm_core->mutex);
	spin_lock_init(&cm_core->work_lock);
	hash_init(cm_core->nodes);
	INIT_LIST_HEAD(&cm_core->listeners);
	xa_init_flags(&cm_core->connreqs, XA_FLAGS_ALLOC1);
	INIT_LIST_HEAD(&cm_core->ahs);
	INIT_DELAYED_WORK(&cm_core->ah_reap, irdma_cm_ah_reap);
	cm_core->tun.rexmit_timeout = HZ;
	cm_core->tun.rexmit_max_timeout = 12 * HZ;
	cm_core->tun.max_rexmits = 32;
	cm_core->tun.time_wait = HZ / 10;
	cm_core->tun.close_timeout = 2 * HZ;
	cm_core->tun.rts_timeout = 12 * HZ;
	cm_core->tun.term_wait = HZ;
	cm_core->tun.fin_wait2_timeout = 60 * HZ;
	cm_core->tun.mpa_timeout = 30 * HZ;
	cm_core->tun.mpa_v1_fallback = true;
	cm_core->tun.syn_retries = 6;
	cm_core->tun.synack_retries = 5;
	cm_core->tun.orphan_retries = 8;
	cm_core->tun.max_half_open = 256;
	cm_core->tun.max_nodes = 16384;
	cm_core->tun.max_rx_queued = 2 * 512;
	cm_core->tun.reply_rate = 1000;
	cm_core->tun.reply_burst = 1000;
	cm_core->reply_tokens = cm_core->tun.reply_burst;
	cm_core->reply_stamp = jiffies;
	cm_core->tun.ecn = -1;
	cm_core->tun.challenge_limit = 1000;
	cm_core->tun.oow_gap = msecs_to_jiffies(500);
	cm_core->challenge_sec = jiffies / HZ - 1;
#ifdef CONFIG_FAULT_INJECTION
	cm_core->fail_tx = (struct fault_attr)FAULT_ATTR_INITIALIZER;
#endif
	atomic_set(&cm_core->rx_queued, 0);
	atomic_long_set(&cm_core->rx_queue_drops, 0);
	cm_core->wq = alloc_ordered_workqueue("irdma-cm-%s", WQ_MEM_RECLAIM,
					      dev_name(&iwdev->ibdev.dev));
	if (!cm_core->wq)
		return -ENOMEM;
	return 0;
}

/**
 * irdma_timer_list_prep() - collect every node of the table for a sweep
 * @cm_core: CM instance
 * @timer_list: list to fill (through node->tmp; each node referenced)
 *
 * The sweep (irdma_cleanup_cm_core()) ends each node, which stops its
 * timers and takes it out of the table, so the table cannot be walked
 * while it runs.
 *
 * Context: cm_core->mutex held.
 */
static void irdma_timer_list_prep(struct irdma_cm_core *cm_core,
				  struct list_head *timer_list)
{
	struct irdma_cm_node *cm_node;
	int bkt;

	lockdep_assert_held(&cm_core->mutex);
	hash_for_each(cm_core->nodes, bkt, cm_node, hnode) {
		irdma_cm_node_get(cm_node);
		list_add(&cm_node->tmp, timer_list);
	}
}

/**
 * irdma_cleanup_cm_core() - take a CM instance down (remove)
 * @cm_core: CM instance
 *
 * Stops new work, takes every listener down, aborts every connection
 * (RST before offload, QP reset after, the ULP told), stops every timer,
 * drains the workqueue and destroys it.  Nodes still referenced from
 * outside (a QP that was never destroyed) are reported.
 *
 * Context: process context; after ib_unregister_device().
 */
void irdma_cleanup_cm_core(struct irdma_cm_core *cm_core)
{
	struct irdma_cm_listener *listener, *ltmp;
	struct irdma_cm_node *cm_node, *tmp;
	struct irdma_cm_ah *ah, *ahtmp;
	LIST_HEAD(all);
	unsigned long flags, idx;

	if (!cm_core->wq)
		return;
	mutex_lock(&cm_core->mutex);
	spin_lock_irqsave(&cm_core->work_lock, flags);
	cm_core->dead = true;
	spin_unlock_irqrestore(&cm_core->work_lock, flags);

	irdma_timer_list_prep(cm_core, &all);
	list_for_each_entry_safe(cm_node, tmp, &all, tmp) {
		list_del_init(&cm_node->tmp);
		irdma_cm_abort_node(cm_node);
		irdma_cm_node_finish(cm_node);
		irdma_rem_ref_cm_node(cm_node);
	}
	list_for_each_entry_safe(listener, ltmp, &cm_core->listeners, list)
		irdma_cm_del_listen(cm_core, listener, true);
	/* no iw_cm id can accept or reject after unregistration */
	xa_for_each(&cm_core->connreqs, idx, cm_node)
		irdma_cm_release_connreq(cm_node);
	mutex_unlock(&cm_core->mutex);

	/* every node is out of the table with its timers stopped */
	cancel_delayed_work_sync(&cm_core->ah_reap);
	drain_workqueue(cm_core->wq);

	mutex_lock(&cm_core->mutex);
	if (cm_core->node_cnt)
		irdma_cm_err(cm_core, "%u connection nodes still referenced\n",
			     cm_core->node_cnt);
	/* the idle address handles; a node still referenced frees its own */
	list_for_each_entry_safe(ah, ahtmp, &cm_core->ahs, list)
		if (!ah->users)
			irdma_cm_ah_free(cm_core, ah);
	xa_destroy(&cm_core->connreqs);
	mutex_unlock(&cm_core->mutex);
	destroy_workqueue(cm_core->wq);
	cm_core->wq = NULL;
}

#endif /* !IRDMA_CM_WIRE_ONLY */
