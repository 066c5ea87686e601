/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * irdma - iWARP connection manager (cm.c): objects and the contract with
 * the rest of the driver.
 *
 * WHAT THE CM DOES
 * The CM runs a small TCP state machine (SYN, SYN-ACK, ACK, FIN, RST,
 * retransmission) and the MPA exchange (RFC 5044, RFC 6581) on segments the
 * adapter steers to the ILQ, then hands the connection to the adapter's TCP
 * offload with a full TCP and iWARP context.  It implements the iw_cm
 * provider calls (irdma_connect, irdma_accept, irdma_reject,
 * irdma_create_listen, irdma_destroy_listen) that verbs.c puts in its
 * const ib_device_ops.  It knows no descriptor format: every adapter action
 * goes through one const table, struct irdma_cm_hw_ops, which hw.c/verbs.c
 * implement and the KUnit tests replace with a fake.
 *
 * EXECUTION MODEL
 * One ordered workqueue per cm_core.  Everything the CM does runs there or
 * in an iw_cm provider call, always under cm_core->mutex, in process
 * context: hw ops may sleep (CQP commands).  Received frames, timers and
 * asynchronous events only queue work; the work dispatcher switches on the
 * work type, then on the node state.  CM events are delivered to iw_cm
 * (cm_id->event_handler) with cm_core->mutex held; iw_cm only queues them.
 *
 * WHAT THE DRIVER CALLS, AND WHEN
 * - probe, before registering the ib_device:
 *	irdma_setup_cm_core(&iwdev->cm_core, &hw_ops, iwdev);
 *   iwdev->netdev and iwdev->ibdev must be set.  The netdev gives the MAC,
 *   MTU, namespace and the VLAN uppers whose addresses wildcard listeners
 *   cover.
 * - remove, after ib_unregister_device() (no provider call can come in
 *   anymore) and before the ILQ and the CQP are destroyed:
 *	irdma_cleanup_cm_core(&iwdev->cm_core);
 *   It resets every live connection, releases listeners, cancels timers,
 *   drains the workqueue; hw ops are still called during it.
 * - ILQ receive completion (any context, the buffer may be reused on
 *   return): irdma_receive_ilq(&iwdev->cm_core, &pkt) with pkt describing
 *   the GEN_2 buffer (struct irdma_cm_rx_pkt).
 * - AE LLP_CONNECTION_ESTABLISHED (0x050E) on a QP the CM offloaded (any
 *   context): irdma_cm_qp_established(iwqp).
 * - Any AE that ends or degrades the connection of an offloaded QP (FIN
 *   received, close complete, connection reset, bad close, reset sent,
 *   terminate, and the AEs of protocol and access errors) (any context):
 *	irdma_cm_disconn(iwqp, ae_code, aeqe_tcp_state);
 *   After ib_modify_qp() has moved an offloaded QP to SQD/CLOSING (FIN
 *   sent): irdma_cm_disconn(iwqp, 0, IRDMA_TCPS_FIN_WAIT_1); after a
 *   modify to ERROR with RESETCON: irdma_cm_disconn(iwqp,
 *   IRDMA_AE_RESET_SENT, IRDMA_TCPS_CLOSED).  The hw layer does not modify
 *   the QP itself on these AEs: the CM decides and calls hw_ops->qp_close /
 *   qp_reset / qp_terminate / qp_flush.  For an error AE the hw layer
 *   builds the TERMINATE before it calls irdma_cm_disconn(); the CM
 *   decides whether it goes out (qp_terminate) and then waits for the
 *   peer's close.
 * - Address and link changes: from the inetaddr, inet6addr and netdevice
 *   notifiers (any context) call
 *	irdma_if_notify(core, netdev, addr, ipv4, up);
 *   with addr in host-order words (one word for IPv4, four for IPv6) for
 *   NETDEV_UP/DOWN of an address, or addr NULL and up false for a link
 *   going down (NETDEV_DOWN).  netdev is the port's netdev or a VLAN on
 *   it (its VLAN id is used).  Wildcard listeners follow the addresses;
 *   connections of a removed address or a downed link are torn down.
 * - QP destroy (verbs.c), before waiting for the QP's references:
 *   irdma_cm_qp_destroy(iwqp); the CM resets and forgets a connection still
 *   bound to the QP and drops its QP references.  It takes cm_core->mutex:
 *   process context, never from inside a hw op.
 * - None of the other entry points above takes cm_core->mutex: they may be
 *   called from inside hw ops, IRQ handlers or notifiers.
 *
 * THE HW OPS (struct irdma_cm_hw_ops; all called in process context with
 * cm_core->mutex held; all may sleep unless noted; all are mandatory)
 * - ah_create(core, info, &ah_id): create an address handle for ILQ
 *   transmit from @info (addresses, MACs, VLAN TCI, TOS, hop limit, ARP
 *   index, loopback).  Returns 0 and an id, or -errno.  An AH pins its
 *   ARP entry (see arp_index).  A connection's AH lives at least as long
 *   as its node, offloaded or not: the QP context names the same ARP
 *   entry, and the AH's reference is what keeps that entry's MAC from
 *   changing.  Nodes that ask for identical AHs share one, and one that
 *   no node uses is kept IRDMA_CM_AH_IDLE before it is destroyed: a
 *   stream of connections to one peer creates one AH, not one each.
 * - ah_destroy(core, ah_id): destroy it.
 * - ilq_send(core, ah_id, seg, len, tcp_hdr_len): transmit one TCP segment
 *   on the ILQ.  @seg starts at the TCP header (checksum 0: the adapter
 *   builds L2/L3 from the AH and computes checksums); @len covers header
 *   and payload; @tcp_hdr_len is the header length in bytes (L4LEN).  The
 *   buffer belongs to the CM: copy it before returning.  Returns 0 or
 *   -errno (the CM treats a failure like a lost segment).
 * - qhash(core, info, add): add or delete a quad-hash steering entry:
 *   IRDMA_QHASH_TYPE_TCP_SYN (listener: local address and port, VLAN) or
 *   IRDMA_QHASH_TYPE_TCP_ESTABLISHED (4-tuple, VLAN).  Deleting an entry
 *   that the hw layer already dropped returns 0.
 * - apbvt(core, port, add): add or delete a local port in the APBVT.  Calls
 *   are balanced; one port may be added several times: keep a count.
 * - arp_index(core, ipv4, ip, mac): add or update the ARP-cache entry
 *   ip -> mac; returns its index (>= 0) or -errno.  The CM passes only
 *   MACs from the kernel's neighbour table (never a received frame's), so
 *   a new MAC for a known address is a neighbour update: the entry is
 *   reprogrammed in place, whoever uses it.
 * - qp_get(core, qpn): the QP with that number, with a reference, or NULL.
 * - qp_ref(iwqp) / qp_put(iwqp): take / drop a QP reference.  Any context.
 * - qp_offload(iwqp, info): write the connection WQEs (LSMM with
 *   info->lsmm/lsmm_len on the passive side; the RTR of info->rtr on the
 *   active side; then the NOP and GEN_RTS_AE pair), the TCP and iWARP
 *   context from @info, and modify the QP to RTS.  Returns 0 once the
 *   modify is issued.  Completion is asynchronous: the AE
 *   LLP_CONNECTION_ESTABLISHED must be reported with
 *   irdma_cm_qp_established() (possibly from inside qp_offload).  The CM
 *   waits for it at most tun.rts_timeout, then resets the QP.
 *   info->lsmm stays valid until that AE is reported or qp_reset is
 *   called; copy it into a registered buffer.  lsmm_len is 0 on the
 *   active side and on a passive loopback connection (the MPA exchange
 *   happened inside the CM; snd_nxt already counts the reply): no LSMM
 *   WQE then, only the NOP and GEN_RTS_AE pair.  rtr is IRDMA_RTR_NONE
 *   for MPA v1 connections: no RTR WQE.  Addresses in @info use the QP
 *   context layout (IPv4 in [3]); everywhere else in this header IPv4
 *   is in [0].  The CM keeps its IRDMA_QHASH_TYPE_TCP_ESTABLISHED
 *   entry for the 4-tuple until the node goes: the QP takes the
 *   connection's frames from the RTS transition on, and deleting the
 *   entry earlier would let frames arriving before the modify reach the
 *   host stack (which answers with a RST).  Once the offload succeeded
 *   the entry is the QP's: its MODIFY to ERROR or its DESTROY (both with
 *   remove-hash) drops it in the adapter, and the node, when it goes,
 *   leaves it alone (a delete then would be a control-QP round trip for
 *   nothing).
 * - qp_close(iwqp): graceful close of an offloaded QP (modify to CLOSING,
 *   the adapter sends FIN).
 * - qp_reset(iwqp): abortive close (modify to ERROR with RESETCON and
 *   removal of the hash entry: the adapter sends RST).
 * - qp_terminate(iwqp): modify to TERMINATE: the adapter sends the
 *   TERMINATE the hw layer built for the error AE it reported last.
 * - qp_flush(iwqp): flush the SQ and RQ with error completions.
 *
 * NETWORK LOOKUPS (struct irdma_cm_net_ops): routing, neighbour and address
 * lookups the CM needs for an active open and for wildcard listeners.  The
 * default table (irdma_cm_kernel_net_ops, set by irdma_setup_cm_core) uses
 * the kernel's routing and neighbour tables through irdma_get_dst_ipv6(),
 * irdma_addr_resolve_neigh(), irdma_get_vlan_ipv4() and their IPv6
 * siblings.  A cm_core's table can be replaced before use: the KUnit
 * suites do, because their two instances have no netdev to route over.
 *
 * LIFETIMES
 * Nodes and listeners are reference counted.  References are held by: the
 * node table entry (until the node is done), each queued work item and
 * each armed timer, the bound QP (iwqp->cm.cm_node), a loopback partner,
 * a CONNECT_REQUEST not yet accepted or rejected (its entry in
 * cm_core->connreqs), and the listener for each child node or child
 * listener.  The CONNECT_REQUEST's provider_data is the entry's index, not
 * the node: accept and reject look it up, so a request the CM released
 * meanwhile (listener destroyed, iw_cm never answering) fails them with
 * -ECONNRESET instead of reaching a freed node.  A node's cm_id
 * reference (cm_id->add_ref) is held while cm_id is set; its QP reference
 * (hw_ops->qp_get/qp_ref) while it is bound to the QP.
 */
#ifndef IRDMA_CM_H
#define IRDMA_CM_H

#include <linux/types.h>
#include <linux/atomic.h>
#include <linux/list.h>
#include <linux/hashtable.h>
#include <linux/mutex.h>
#include <linux/refcount.h>
#include <linux/timer.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>
#include <linux/fault-inject.h>
#include <linux/if_ether.h>
#include <linux/socket.h>

struct irdma_device;
struct irdma_qp;
struct irdma_cm_core;
struct iw_cm_id;
struct iw_cm_conn_param;
struct net_device;
struct sockaddr_storage;

/* ---- MPA (RFC 5044, RFC 6581) ---------------------------------------- */
#define IRDMA_MPA_KEY_REQ		"MPA ID Req Frame"
#define IRDMA_MPA_KEY_REP		"MPA ID Rep Frame"
#define IRDMA_MPA_KEY_SIZE		16
#define IRDMA_MPA_V1_HDR_SIZE		20
#define IRDMA_MPA_RTR_SIZE		4
#define IRDMA_MPA_V2_HDR_SIZE		(IRDMA_MPA_V1_HDR_SIZE + IRDMA_MPA_RTR_SIZE)
#define IRDMA_MPA_MAX_PDATA		512	/* PD_Length limit, RFC 5044 */
#define IRDMA_MPA_MAX_FRAME		(IRDMA_MPA_V2_HDR_SIZE + IRDMA_MPA_MAX_PDATA)
/* the iw_cm event carries a u8 length: what a ULP can send or be shown */
#define IRDMA_CM_MAX_ULP_PDATA		255
#define IRDMA_MPA_REV1			1
#define IRDMA_MPA_REV2			2

/**
 * struct irdma_mpa_hdr - the header of an MPA request or reply (RFC 5044)
 * @key: the request or reply key
 * @flags: IRDMA_MPA_FLAG_*
 * @rev: revision
 * @pdlen: bytes of private data after the header (with the RFC 6581
 *	block when the V2 flag is set)
 */
struct irdma_mpa_hdr {
	u8 key[IRDMA_MPA_KEY_SIZE];
	u8 flags;
	u8 rev;
	__be16 pdlen;
} __packed;

/**
 * struct irdma_mpa_v2_hdr - an MPA v2 header: RFC 6581's block follows
 * @v1: the RFC 5044 header (V2 flag set)
 * @ird: IRD, peer-to-peer and Send-RTR bits (IRDMA_MPA_V2_*)
 * @ord: ORD and the Write/Read RTR bits
 */
struct irdma_mpa_v2_hdr {
	struct irdma_mpa_hdr v1;
	__be16 ird;
	__be16 ord;
} __packed;

#define IRDMA_MPA_FLAG_MARKERS		0x80
#define IRDMA_MPA_FLAG_CRC		0x40
#define IRDMA_MPA_FLAG_REJECT		0x20
#define IRDMA_MPA_FLAG_V2		0x10

/* RFC 6581 IRD word */
#define IRDMA_MPA_V2_PEER2PEER		0x8000	/* A */
#define IRDMA_MPA_V2_RTR_SEND		0x4000	/* B: zero-length Send RTR */
/* RFC 6581 ORD word */
#define IRDMA_MPA_V2_RTR_WRITE		0x8000	/* C */
#define IRDMA_MPA_V2_RTR_READ		0x4000	/* D */
#define IRDMA_MPA_V2_IRD_ORD_MASK	0x3FFF
#define IRDMA_MPA_V2_NO_IRD_ORD		0x3FFF	/* "no value" */

/* MPA error codes reported in a TERMINATE / carried as CM status (RFC 6581) */
#define IRDMA_MPA_ERR_CATASTROPHIC	0x05
#define IRDMA_MPA_ERR_INSUFF_IRD	0x06
#define IRDMA_MPA_ERR_NO_MATCH_RTR	0x07

/* ---- TCP ---------------------------------------------------------------- */
#define IRDMA_CM_TCP_HDR_SIZE		20
#define IRDMA_CM_TCP_SYN_OPT_SIZE	8	/* MSS(4) + WS(3) + EOL(1) */
#define IRDMA_CM_TCP_MAX_HDR		60
#define IRDMA_CM_DEFAULT_MSS		536
#define IRDMA_CM_MIN_MTU_V4		576
#define IRDMA_CM_MIN_MTU_V6		1280
#define IRDMA_CM_IPV4_HDR		20
#define IRDMA_CM_IPV6_HDR		40
#define IRDMA_CM_RCV_WSCALE		2
#define IRDMA_CM_RCV_WND		0x3FFFC		/* scaled: field 0xFFFF << 2 */
#define IRDMA_CM_MAX_WSCALE		14
#define IRDMA_CM_DEFAULT_TTL		0x40
#define IRDMA_CM_DEFAULT_RTT_VAR	6
#define IRDMA_CM_DEFAULT_SS_THRESH	0x3FFFFFFF
#define IRDMA_CM_DEFAULT_REXMIT_THRESH	8

/**
 * struct irdma_cm_tcphdr - a TCP header without options, as the CM reads
 * and writes it
 * @sport: source port
 * @dport: destination port
 * @seq: sequence number
 * @ack: acknowledgment number
 * @doff: data offset in 32-bit words, in the high nibble
 * @flags: IRDMA_TCP_* flags
 * @window: receive window (scaled, except in a SYN)
 * @csum: checksum (the adapter computes it)
 * @urg: urgent pointer (never used)
 */
struct irdma_cm_tcphdr {
	__be16 sport;
	__be16 dport;
	__be32 seq;
	__be32 ack;
	u8 doff;
	u8 flags;
	__be16 window;
	__be16 csum;
	__be16 urg;
} __packed;

/**
 * struct irdma_cm_iphdr - an IPv4 header without options
 * @ver_ihl: version 4 and header length 5 (0x45)
 * @tos: DSCP and ECN
 * @tot_len: datagram length
 * @id: identification
 * @frag: flags and fragment offset (IRDMA_IP4_MF, IRDMA_IP4_FRAG_OFFSET)
 * @ttl: time to live
 * @proto: IRDMA_IPPROTO_TCP for the CM
 * @csum: header checksum
 * @saddr: source address
 * @daddr: destination address
 */
struct irdma_cm_iphdr {
	u8 ver_ihl;
	u8 tos;
	__be16 tot_len;
	__be16 id;
	__be16 frag;
	u8 ttl;
	u8 proto;
	__be16 csum;
	__be32 saddr;
	__be32 daddr;
} __packed;

/**
 * struct irdma_cm_ipv6hdr - an IPv6 header
 * @vtcfl: version 6, traffic class, flow label
 * @plen: payload length
 * @nexthdr: IRDMA_IPPROTO_TCP for the CM (no extension headers)
 * @hop_limit: hop limit
 * @saddr: source address
 * @daddr: destination address
 */
struct irdma_cm_ipv6hdr {
	__be32 vtcfl;
	__be16 plen;
	u8 nexthdr;
	u8 hop_limit;
	__be32 saddr[4];
	__be32 daddr[4];
} __packed;

/* GEN_2 ILQ receive buffer layout */
#define IRDMA_ILQ_IPV4_OFFSET		20
#define IRDMA_ILQ_TCP_OFFSET		40

#define IRDMA_CM_NO_VLAN		0xFFFF
#define IRDMA_CM_HW_MAX_IRD		127
#define IRDMA_CM_HW_MAX_ORD		255

/* TCP flags as they sit in byte 13 of the header */
#define IRDMA_TCP_FIN			0x01
#define IRDMA_TCP_SYN			0x02
#define IRDMA_TCP_RST			0x04
#define IRDMA_TCP_PSH			0x08
#define IRDMA_TCP_ACK			0x10
#define IRDMA_TCP_ECE			0x40
#define IRDMA_TCP_CWR			0x80

/**
 * enum irdma_cm_state - state of a connection node
 * @IRDMA_CM_STATE_IDLE: created, nothing sent
 * @IRDMA_CM_STATE_SYN_SENT: active: SYN sent
 * @IRDMA_CM_STATE_SYN_RCVD: passive: SYN-ACK sent
 * @IRDMA_CM_STATE_ESTABLISHED: passive: TCP up, waiting for the MPA request
 * @IRDMA_CM_STATE_MPAREQ_SENT: active: MPA request sent, waiting for reply
 * @IRDMA_CM_STATE_MPAREQ_RCVD: passive: request reported, waiting for ULP
 * @IRDMA_CM_STATE_OFFLOADED: handed to the QP (which owns the TCP
 *	connection from then on); waiting for or past the RTS AE
 * @IRDMA_CM_STATE_MPAREJ_RCVD: active: the peer rejected; closing follows
 * @IRDMA_CM_STATE_FIN_WAIT1: our FIN sent, not acknowledged
 * @IRDMA_CM_STATE_FIN_WAIT2: our FIN acknowledged, peer's FIN pending
 * @IRDMA_CM_STATE_LAST_ACK: both FINs sent, ours not acknowledged
 * @IRDMA_CM_STATE_CLOSING: simultaneous close
 * @IRDMA_CM_STATE_TIME_WAIT: both FINs done, waiting before release
 * @IRDMA_CM_STATE_CLOSED: done; the node goes when its last reference does
 */
enum irdma_cm_state {
	IRDMA_CM_STATE_IDLE,
	IRDMA_CM_STATE_SYN_SENT,
	IRDMA_CM_STATE_SYN_RCVD,
	IRDMA_CM_STATE_ESTABLISHED,
	IRDMA_CM_STATE_MPAREQ_SENT,
	IRDMA_CM_STATE_MPAREQ_RCVD,
	IRDMA_CM_STATE_OFFLOADED,
	IRDMA_CM_STATE_MPAREJ_RCVD,
	IRDMA_CM_STATE_FIN_WAIT1,
	IRDMA_CM_STATE_FIN_WAIT2,
	IRDMA_CM_STATE_LAST_ACK,
	IRDMA_CM_STATE_CLOSING,
	IRDMA_CM_STATE_TIME_WAIT,
	IRDMA_CM_STATE_CLOSED,
};

/**
 * enum irdma_cm_ulp_state - what a node has told iw_cm so far
 * @IRDMA_CM_ULP_NONE: nothing
 * @IRDMA_CM_ULP_REQUESTED: passive: CONNECT_REQUEST went to the listener;
 *	the new id waits for accept or reject
 * @IRDMA_CM_ULP_CONNECTED: CONNECT_REPLY(0) (active) or ESTABLISHED
 *	(passive) went out
 * @IRDMA_CM_ULP_DISCONNECTED: DISCONNECT went out after that
 * @IRDMA_CM_ULP_DONE: CLOSE, or a CONNECT_REPLY with an error, went out,
 *	or connect/accept failed (iw_cm expects no event): nothing may follow
 *
 * irdma_send_cm_event() is the only place that moves it, and it refuses
 * (drops, counts in stats.events_dropped) every event iw_cm does not
 * accept in the current state: iw_cm BUG()s on a CLOSE for a passive id
 * that never saw ESTABLISHED, and mis-handles the other orders.
 */
enum irdma_cm_ulp_state {
	IRDMA_CM_ULP_NONE,
	IRDMA_CM_ULP_REQUESTED,
	IRDMA_CM_ULP_CONNECTED,
	IRDMA_CM_ULP_DISCONNECTED,
	IRDMA_CM_ULP_DONE,
};

/**
 * enum irdma_cm_work_type - what a queued CM work item carries
 * @IRDMA_CM_WORK_RX: a received ILQ segment for a node (or a listener)
 * @IRDMA_CM_WORK_REXMIT: the node's retransmit timer fired
 * @IRDMA_CM_WORK_TIMEOUT: the node's state timer fired (TIME_WAIT, close,
 *	RTS wait, FIN_WAIT2)
 * @IRDMA_CM_WORK_ESTABLISHED: the hw layer reported the RTS AE of a QP
 * @IRDMA_CM_WORK_DISCONN: the hw layer reported a close/reset AE of a QP
 * @IRDMA_CM_WORK_IFADDR: a local address or link changed
 */
enum irdma_cm_work_type {
	IRDMA_CM_WORK_RX,
	IRDMA_CM_WORK_REXMIT,
	IRDMA_CM_WORK_TIMEOUT,
	IRDMA_CM_WORK_ESTABLISHED,
	IRDMA_CM_WORK_DISCONN,
	IRDMA_CM_WORK_IFADDR,
};

/**
 * enum irdma_rtr_type - zero-length operation that signals RTR (RFC 6581)
 * @IRDMA_RTR_NONE: none negotiated (MPA v1 or no common type)
 * @IRDMA_RTR_WRITE: zero-length RDMA Write
 * @IRDMA_RTR_READ: zero-length RDMA Read
 */
enum irdma_rtr_type {
	IRDMA_RTR_NONE,
	IRDMA_RTR_WRITE,
	IRDMA_RTR_READ,
};

/**
 * struct irdma_cm_rx_pkt - one received ILQ frame (GEN_2 layout)
 * @buf: the receive buffer: IPv4 header at byte 20 (bytes 0-19 are pad)
 *	or IPv6 header at byte 0; TCP header at byte 40; no Ethernet header
 * @len: CQE payload length: bytes written, the 40-byte L3 area included
 * @ipv4: CQE IPV4 bit
 * @smac: source MAC from the extended CQE
 * @smac_valid: @smac is valid
 * @vlan_tci: VLAN TCI from the extended CQE
 * @vlan_valid: @vlan_tci is valid
 */
struct irdma_cm_rx_pkt {
	const u8 *buf;
	u32 len;
	bool ipv4;
	u8 smac[ETH_ALEN];
	bool smac_valid;
	u16 vlan_tci;
	bool vlan_valid;
};

/**
 * struct irdma_cm_seg - a parsed TCP segment (pure data, see
 * irdma_cm_parse_segment())
 * @ipv4: address family
 * @saddr: source address, host order, IPv4 in [0]
 * @daddr: destination address, host order, IPv4 in [0]
 * @sport: source port
 * @dport: destination port
 * @tos: IPv4 TOS or IPv6 traffic class
 * @seq: sequence number
 * @ack: acknowledgment number
 * @flags: IRDMA_TCP_* flags
 * @window: window field, unscaled
 * @opts: TCP options
 * @optlen: length of @opts
 * @data: payload
 * @datalen: payload length
 */
struct irdma_cm_seg {
	bool ipv4;
	u32 saddr[4];
	u32 daddr[4];
	u16 sport;
	u16 dport;
	u8 tos;
	u32 seq;
	u32 ack;
	u8 flags;
	u16 window;
	const u8 *opts;
	u32 optlen;
	const u8 *data;
	u32 datalen;
};

/**
 * struct irdma_cm_ah_info - what the CM asks of an ILQ address handle
 * @ipv4: IPv4 (else IPv6)
 * @loc_addr: local IP, host order; IPv4 in [0], IPv6 [0] most significant
 * @rem_addr: remote IP, same layout
 * @loc_mac: source MAC
 * @rem_mac: next-hop MAC
 * @vlan_tci: VLAN id | priority << 13, valid if @insert_vlan
 * @insert_vlan: insert a VLAN tag
 * @tos: IPv4 TOS / IPv6 traffic class
 * @hop_limit: TTL / hop limit
 * @arp_idx: ARP-cache index of the next hop
 * @loopback: both ends on this adapter
 */
struct irdma_cm_ah_info {
	bool ipv4;
	u32 loc_addr[4];
	u32 rem_addr[4];
	u8 loc_mac[ETH_ALEN];
	u8 rem_mac[ETH_ALEN];
	u16 vlan_tci;
	bool insert_vlan;
	u8 tos;
	u8 hop_limit;
	int arp_idx;
	bool loopback;
};

/**
 * struct irdma_cm_ah - an ILQ address handle, shared by the connections
 * that ask for the same one
 * @list: in cm_core->ahs
 * @info: what it was created from (the key)
 * @id: the hw layer's id
 * @users: nodes using it
 * @idle_since: when @users dropped to 0 (jiffies)
 *
 * All fields are protected by cm_core->mutex.
 */
struct irdma_cm_ah {
	struct list_head list;
	struct irdma_cm_ah_info info;
	u32 id;
	u32 users;
	unsigned long idle_since;
};

/**
 * struct irdma_cm_qhash_info - a quad-hash steering entry
 * @type: IRDMA_QHASH_TYPE_TCP_SYN or IRDMA_QHASH_TYPE_TCP_ESTABLISHED
 * @ipv4: IPv4 (else IPv6)
 * @loc_addr: local IP, host order, IPv4 in [0]
 * @rem_addr: remote IP (ESTABLISHED only)
 * @loc_port: local port
 * @rem_port: remote port (ESTABLISHED only)
 * @vlan_id: VLAN id or IRDMA_CM_NO_VLAN
 * @loc_mac: local MAC
 */
struct irdma_cm_qhash_info {
	int type;
	bool ipv4;
	u32 loc_addr[4];
	u32 rem_addr[4];
	u16 loc_port;
	u16 rem_port;
	u16 vlan_id;
	u8 loc_mac[ETH_ALEN];
};

/**
 * struct irdma_cm_offload_info - TCP and iWARP context of an offloaded
 * connection; the hw layer formats it into the QP context
 * @ipv4: IPv4 (else IPv6)
 * @loc_addr: local IP in QP-context layout: host-order words, IPv4 in [3]
 *	and [0..2] zero, IPv6 [0] most significant
 * @rem_addr: remote IP, same layout
 * @loc_port: local TCP port
 * @rem_port: remote TCP port
 * @loc_mac: local MAC
 * @rem_mac: next-hop MAC
 * @arp_idx: ARP-cache index of the next hop
 * @insert_vlan: insert a VLAN tag
 * @vlan_tci: VLAN id | user priority << 13
 * @user_pri: user priority (queue-set selection)
 * @ttl: TTL / hop limit
 * @tos: TOS / traffic class (its ECN bits are the hw layer's)
 * @ecn: ECN was negotiated: the adapter marks data ECT(0) and answers
 *	congestion marks
 * @mss: send MSS
 * @snd_nxt: next sequence number to send (after every CM byte; the passive
 *	side's MPA reply is not counted: it goes as the LSMM)
 * @snd_una: oldest unacknowledged sequence number (= @snd_nxt)
 * @snd_wnd: peer's window, scaled
 * @max_snd_wnd: largest @snd_wnd seen
 * @snd_wscale: peer's window-scale shift
 * @rcv_nxt: next sequence number expected
 * @rcv_wnd: our receive window, scaled
 * @rcv_wscale: our window-scale shift
 * @cwnd: initial congestion window
 * @ss_thresh: slow-start threshold
 * @rtt_var: initial RTT variance
 * @rexmit_thresh: retransmission threshold
 * @ird: negotiated IRD (responder resources)
 * @ord: negotiated ORD (initiator depth)
 * @rtr: RTR operation: the active side sends it, the passive side expects
 * @crc: MPA CRC in use (always requested by us)
 * @active: this is the active (connecting) side
 * @lsmm: passive side: MPA reply (header and private data) to send as LSMM
 * @lsmm_len: length of @lsmm, 0 on the active side
 */
struct irdma_cm_offload_info {
	bool ipv4;
	u32 loc_addr[4];
	u32 rem_addr[4];
	u16 loc_port;
	u16 rem_port;
	u8 loc_mac[ETH_ALEN];
	u8 rem_mac[ETH_ALEN];
	int arp_idx;
	bool insert_vlan;
	u16 vlan_tci;
	u8 user_pri;
	u8 ttl;
	u8 tos;
	bool ecn;
	u16 mss;
	u32 snd_nxt;
	u32 snd_una;
	u32 snd_wnd;
	u32 max_snd_wnd;
	u8 snd_wscale;
	u32 rcv_nxt;
	u32 rcv_wnd;
	u8 rcv_wscale;
	u32 cwnd;
	u32 ss_thresh;
	u32 rtt_var;
	u8 rexmit_thresh;
	u16 ird;
	u16 ord;
	enum irdma_rtr_type rtr;
	bool crc;
	bool active;
	const u8 *lsmm;
	u32 lsmm_len;
};

/**
 * struct irdma_cm_hw_ops - what the CM needs from the hardware layer; the
 * semantics are in the comment at the top of this header
 * @ah_create: create an ILQ address handle
 * @ah_destroy: destroy an ILQ address handle
 * @ilq_send: transmit one TCP segment on the ILQ
 * @qhash: add or delete a quad-hash steering entry
 * @apbvt: add or delete a local TCP port
 * @arp_index: add or update an ARP-cache entry, return its index
 * @qp_get: look a QP up by number, with a reference
 * @qp_ref: take a QP reference (any context)
 * @qp_put: drop a QP reference (any context)
 * @qp_offload: write connection WQEs and context, move the QP to RTS
 * @qp_close: graceful close of an offloaded QP (FIN)
 * @qp_reset: abortive close of an offloaded QP (RST)
 * @qp_terminate: send the TERMINATE the hw layer built for the QP's last
 *	error AE (-EALREADY: the AE was no error to report, or the QP is not
 *	connected)
 * @qp_flush: flush the QP's work queues
 */
struct irdma_cm_hw_ops {
	int (*ah_create)(struct irdma_cm_core *core,
			 const struct irdma_cm_ah_info *info, u32 *ah_id);
	void (*ah_destroy)(struct irdma_cm_core *core, u32 ah_id);
	int (*ilq_send)(struct irdma_cm_core *core, u32 ah_id, const void *seg,
			u32 len, u32 tcp_hdr_len);
	int (*qhash)(struct irdma_cm_core *core,
		     const struct irdma_cm_qhash_info *info, bool add);
	int (*apbvt)(struct irdma_cm_core *core, u16 port, bool add);
	int (*arp_index)(struct irdma_cm_core *core, bool ipv4, const u32 *ip,
			 const u8 *mac);
	struct irdma_qp *(*qp_get)(struct irdma_cm_core *core, u32 qpn);
	void (*qp_ref)(struct irdma_qp *iwqp);
	void (*qp_put)(struct irdma_qp *iwqp);
	int (*qp_offload)(struct irdma_qp *iwqp,
			  const struct irdma_cm_offload_info *info);
	int (*qp_close)(struct irdma_qp *iwqp);
	int (*qp_reset)(struct irdma_qp *iwqp);
	int (*qp_terminate)(struct irdma_qp *iwqp);
	void (*qp_flush)(struct irdma_qp *iwqp);
};

/**
 * struct irdma_cm_route - result of a route lookup for an active open
 * @ipv4: address family (input)
 * @loc_addr: local address, host order, IPv4 in [0] (input)
 * @rem_addr: remote address (input)
 * @tos: TOS / traffic class of the connection (input)
 * @scope_id: ifindex of the interface a link-local IPv6 remote address is
 *	on (input; 0: none, and such an address is refused with -EINVAL)
 * @nh_mac: next-hop MAC (output)
 * @vlan_id: VLAN id of the egress device or IRDMA_CM_NO_VLAN (output)
 * @user_pri: 802.1p priority for @tos on that device (output)
 * @loopback: the remote address is local (output)
 */
struct irdma_cm_route {
	bool ipv4;
	u32 loc_addr[4];
	u32 rem_addr[4];
	u8 tos;
	int scope_id;
	u8 nh_mac[ETH_ALEN];
	u16 vlan_id;
	u8 user_pri;
	bool loopback;
};

#define IRDMA_CM_MAX_ADDRS	64

/**
 * struct irdma_cm_addr - a local address
 * @addr: the address, host order, IPv4 in [0]
 * @vlan_id: VLAN id of the device holding it, or IRDMA_CM_NO_VLAN
 */
struct irdma_cm_addr {
	u32 addr[4];
	u16 vlan_id;
};

/**
 * struct irdma_cm_net_ops - network lookups of the CM (process context)
 * @route: resolve next hop, VLAN and loopback for an active open; 0 or
 *	-errno (-ENETUNREACH, -EHOSTUNREACH)
 * @get_addrs: fill @addrs (room for @max) with the local addresses of
 *	@ipv4's family on the device's netdev and its VLAN uppers; return
 *	how many
 * @mtu: MTU of the egress device for @vlan_id
 */
struct irdma_cm_net_ops {
	int (*route)(struct irdma_cm_core *core, struct irdma_cm_route *rt);
	int (*get_addrs)(struct irdma_cm_core *core, bool ipv4,
			 struct irdma_cm_addr *addrs, int max);
	u32 (*mtu)(struct irdma_cm_core *core, u16 vlan_id);
};

/**
 * struct irdma_cm_tunables - timer and retry constants of a CM instance
 * (jiffies); irdma_setup_cm_core() sets the defaults given here, tests
 * shorten them
 * @rexmit_timeout: first retransmission timeout (1 s)
 * @rexmit_max_timeout: backoff cap (12 s)
 * @max_rexmits: retransmissions before giving up (32): MPA request, and
 *	the FIN of a node whose ULP is still attached
 * @ecn: ECN in the handshake: -1 follows the namespace's
 *	net.ipv4.tcp_ecn (1: ask for it and accept it, 2: accept it when
 *	asked, 0: neither); 0-2 override it (tests)
 * @syn_retries: retransmissions of an active open's SYN (6, as
 *	tcp_syn_retries: with our backoff the connect gives up after about
 *	a minute, and rdma_destroy_id() never waits longer)
 * @synack_retries: retransmissions of a SYN-ACK (5, as tcp_synack_retries)
 * @orphan_retries: retransmissions of the FIN (or MPA reject and FIN) of a
 *	node no ULP is attached to any more (8, what Linux's
 *	tcp_orphan_retries of 0 means)
 * @time_wait: TIME_WAIT of a connection closed before offload (100 ms)
 * @close_timeout: after an offloaded connection sent its FIN, wait this
 *	long for the close to complete (the peer's FIN, or the ACK of ours)
 *	before it is reset (2 s: the peer's FIN often waits for its ULP, and
 *	a lost FIN is retransmitted after an RTO of 200 ms or more)
 * @rts_timeout: wait for the RTS AE after offload (12 s)
 * @term_wait: after our TERMINATE, wait this long for the peer to close
 *	before the connection is reset (1 s)
 * @fin_wait2_timeout: wait for the peer's FIN after ours is acknowledged
 * @mpa_timeout: passive side: wait for the MPA request after the TCP
 *	handshake; active side: wait for the MPA reply after sending the
 *	request (acknowledged or not), and for the FIN after a reject
 * @mpa_v1_fallback: an active open whose MPA v2 request is answered with
 *	RST retries once with MPA v1 (some RFC 5044 peers reset rev 2)
 * @max_rx_queued: received frames queued for the CM at most (1024: twice
 *	the ILQ receive ring); more are dropped (rx_queue_drops)
 * @reply_rate: resets a second that answer segments (stateless RSTs and
 *	RSTs to unacceptable segments); 0: no limit (1000)
 * @reply_burst: bucket size of @reply_rate (1000)
 * @challenge_limit: ACKs a second that answer suspicious segments on
 *	connections (challenge ACKs, RFC 5961 section 7, and ACKs to
 *	unacceptable segments); each second's budget is drawn at random from
 *	[@challenge_limit / 2, @challenge_limit * 3 / 2), so that its use
 *	cannot be counted from outside; 0: no limit (1000)
 * @oow_gap: per node, at most one challenge ACK or ACK to an out-of-window
 *	segment per @oow_gap (500 ms, as tcp_invalid_ratelimit); 0: no gap
 * @max_half_open: SYN_RCVD nodes per listener (256); a SYN beyond it
 *	evicts the listener's oldest half-open node.  Half-open nodes do not
 *	count against the backlog
 * @max_nodes: nodes per CM instance (16384), every state counted; new
 *	SYNs are dropped and connects fail with -ENOBUFS beyond it
 */
struct irdma_cm_tunables {
	unsigned long rexmit_timeout;
	unsigned long rexmit_max_timeout;
	unsigned int max_rexmits;
	unsigned long time_wait;
	unsigned long close_timeout;
	unsigned long rts_timeout;
	unsigned long term_wait;
	unsigned long fin_wait2_timeout;
	unsigned long mpa_timeout;
	bool mpa_v1_fallback;
	unsigned int max_rx_queued;
	unsigned int reply_rate;
	unsigned int reply_burst;
	unsigned int challenge_limit;
	unsigned long oow_gap;
	int ecn;
	unsigned int syn_retries;
	unsigned int synack_retries;
	unsigned int orphan_retries;
	unsigned int max_half_open;
	unsigned int max_nodes;
};

/**
 * struct irdma_cm_stats - counters of a CM instance
 * @nodes_created: connection nodes created
 * @nodes_freed: connection nodes freed
 * @rx_segs: segments received
 * @rx_dropped: segments dropped (malformed, out of window, no match)
 * @rx_fragments: IPv4 fragments dropped (also counted in @rx_dropped)
 * @tx_segs: segments sent
 * @rexmits: retransmissions
 * @resets_sent: RSTs sent
 * @resets_rcvd: RSTs accepted
 * @challenge_acks: challenge ACKs sent for in-window RSTs
 * @connects: active opens started (iw_cm connect calls that succeeded)
 * @accepts: connections accepted
 * @rejects: connections rejected
 * @connect_timeouts: active opens that ran out of retransmissions or
 *	got no MPA reply within tun.mpa_timeout
 * @listen_overflows: SYNs (and handshake-completing ACKs) dropped because
 *	the backlog was full
 * @half_open_evictions: half-open nodes dropped for a newer SYN
 *	(tun.max_half_open)
 * @node_limit_drops: SYNs dropped and connects refused at tun.max_nodes
 * @syn_unresolved: SYNs for a listener dropped because the peer's next
 *	hop had no resolved neighbour entry (its resolution was started)
 * @rst_no_route: segments matching no connection left unanswered: no
 *	resolved next hop for the RST
 * @replies_ratelimited: unsolicited replies not sent (tun.reply_rate,
 *	tun.challenge_limit, tun.oow_gap)
 * @rtr_closes: accepted active connections that failed before RTS and
 *	were closed with an RTR sent by the CM (irdma_cm_rtr_close())
 * @events_dropped: iw_cm events refused by irdma_send_cm_event() because
 *	they would break iw_cm's order (see enum irdma_cm_ulp_state)
 * @markers_refused: MPA requests (answered with a reject) and replies
 *	(answered with RST) refused because the peer asked for markers
 * @rx_queue_drops: received segments dropped because the CM's receive
 *	queue was full (a copy of irdma_cm_core.rx_queue_drops)
 */
struct irdma_cm_stats {
	u64 nodes_created;
	u64 nodes_freed;
	u64 rx_segs;
	u64 rx_dropped;
	u64 rx_fragments;
	u64 tx_segs;
	u64 rexmits;
	u64 resets_sent;
	u64 resets_rcvd;
	u64 challenge_acks;
	u64 connects;
	u64 accepts;
	u64 rejects;
	u64 connect_timeouts;
	u64 listen_overflows;
	u64 half_open_evictions;
	u64 node_limit_drops;
	u64 rst_no_route;
	u64 syn_unresolved;
	u64 replies_ratelimited;
	u64 rtr_closes;
	u64 events_dropped;
	u64 markers_refused;
	u64 rx_queue_drops;
};

/**
 * struct irdma_cm_work - one queued unit of CM work
 * @work: the work item on cm_core->wq
 * @type: what it carries
 * @core: CM instance
 * @node: node it is for (a reference is held), or NULL
 * @iwqp: QP it is for (a reference is held), or NULL
 * @ae: AE code (IRDMA_CM_WORK_DISCONN)
 * @tcp_state: AEQE TCP state (IRDMA_CM_WORK_DISCONN)
 * @embedded: part of a node (timer work), not allocated
 * @ifa_ipv4: address family (IRDMA_CM_WORK_IFADDR)
 * @ifa_addr: address (IRDMA_CM_WORK_IFADDR), host order
 * @ifa_vlan: VLAN id (IRDMA_CM_WORK_IFADDR)
 * @ifa_up: added (true) or removed (IRDMA_CM_WORK_IFADDR)
 * @pkt: received frame copy (IRDMA_CM_WORK_RX)
 * @len: bytes in @pkt
 */
struct irdma_cm_work {
	struct work_struct work;
	enum irdma_cm_work_type type;
	struct irdma_cm_core *core;
	struct irdma_cm_node *node;
	struct irdma_qp *iwqp;
	u16 ae;
	u8 tcp_state;
	bool embedded;
	bool ifa_ipv4;
	u32 ifa_addr[4];
	u16 ifa_vlan;
	bool ifa_up;
	struct irdma_cm_rx_pkt pkt;
	u32 len;
};

/**
 * struct irdma_cm_tx - the segment waiting for an acknowledgment
 * @buf: the whole TCP segment (header, options, payload), allocated
 * @len: bytes in @buf
 * @hdr_len: TCP header length
 * @seq_end: sequence number that acknowledges it completely
 * @retries: retransmissions so far
 * @timeout: current timeout (jiffies), doubles on each retransmission
 * @deadline: when the current timeout ends (jiffies)
 * @pending: a segment is waiting
 */
struct irdma_cm_tx {
	u8 *buf;
	u32 len;
	u32 hdr_len;
	u32 seq_end;
	unsigned int retries;
	unsigned long timeout;
	unsigned long deadline;
	bool pending;
};

/**
 * struct irdma_cm_listener - a listening endpoint (iw_cm listen) or a
 * wildcard listener's child for one local address
 * @list: entry in cm_core->listeners (top level) or parent->children
 * @core: CM instance
 * @refcnt: references (table entry, children, child nodes)
 * @cm_id: iw_cm id (top level only; a reference is held)
 * @parent: wildcard listener this child belongs to, or NULL
 * @children: child listeners (wildcard only)
 * @ipv4: address family
 * @loc_addr: local address, host order, IPv4 in [0] (zero: wildcard)
 * @loc_port: local port
 * @vlan_id: VLAN id (children), else IRDMA_CM_NO_VLAN
 * @wildcard: listens on every local address of the device
 * @v6only: IPv6 wildcard that does not take IPv4 (cm_id->afonly)
 * @backlog: maximum connections waiting for accept
 * @pending: connections past the TCP handshake not yet accepted or
 *	rejected (bounded by @backlog)
 * @half_open: nodes in SYN_RCVD (bounded by tun.max_half_open)
 * @half_open_list: those nodes, oldest first
 * @tos: TOS for accepted connections
 * @qhash_set: a SYN steering entry is installed
 * @apbvt_set: the local port is in the APBVT
 * @destroyed: destroy_listen was called; new SYNs are refused
 */
struct irdma_cm_listener {
	struct list_head list;
	struct irdma_cm_core *core;
	refcount_t refcnt;
	struct iw_cm_id *cm_id;
	struct irdma_cm_listener *parent;
	struct list_head children;
	bool ipv4;
	u32 loc_addr[4];
	u16 loc_port;
	u16 vlan_id;
	bool wildcard;
	bool v6only;
	int backlog;
	int pending;
	unsigned int half_open;
	struct list_head half_open_list;
	u8 tos;
	bool qhash_set;
	bool apbvt_set;
	bool destroyed;
};

/**
 * struct irdma_cm_node - one connection being set up or torn down
 * @hnode: entry in cm_core->nodes (hashed by 4-tuple)
 * @tmp: entry in a private list built by the *_list_prep helpers
 * @core: CM instance
 * @refcnt: references (see LIFETIMES above)
 * @state: protocol state; changed only by irdma_cm_set_state()
 * @hashed: the node is in cm_core->nodes
 * @active: we connect (else we accept)
 * @ipv4: address family
 * @loc_addr: local (wire, iwpm-mapped) address, host order, IPv4 in [0]
 * @rem_addr: remote (wire) address
 * @loc_port: local (wire) port
 * @rem_port: remote (wire) port
 * @vlan_id: VLAN id or IRDMA_CM_NO_VLAN
 * @user_pri: 802.1p priority
 * @tos: TOS / traffic class
 * @loc_mac: local MAC
 * @rem_mac: next-hop MAC
 * @arp_idx: ARP-cache index
 * @ah: ILQ address handle (shared, see irdma_cm_ah_get()) or NULL
 * @qhash_set: a per-connection steering entry is installed
 * @apbvt_set: the local port was added to the APBVT for this node
 * @iss: our initial sequence number
 * @snd_nxt: next sequence number we send
 * @snd_una: oldest unacknowledged sequence number
 * @snd_wnd: peer's window, scaled
 * @max_snd_wnd: largest @snd_wnd seen
 * @snd_wscale: peer's window-scale shift (0 if none offered)
 * @rcv_nxt: next sequence number expected
 * @rcv_wnd: our window, scaled
 * @rcv_wscale: our window-scale shift
 * @mss: send MSS
 * @peer_ws_ok: the peer offered window scaling
 * @ecn_asked: active: our SYN asked for ECN (ECE and CWR)
 * @ecn: ECN negotiated in the handshake (RFC 3168): the connection's
 *	data may carry ECT
 * @mpa_rev: MPA revision in use (2, or 1 after fallback or a v1 peer)
 * @mpa_v1_only: active: do not offer v2 (after a reset to a v2 request)
 * @ird: IRD we offer / end with
 * @ord: ORD we offer / end with
 * @rtr: negotiated RTR operation
 * @p2p: the peer set flag A (enhanced peer-to-peer mode)
 * @fin_deferred: our FIN waits until the data before it (an MPA reject,
 *	or the RTR of irdma_cm_rtr_close()) is acknowledged
 *	(irdma_cm_ack_advance())
 * @rtr_closing: active: the CM sent the RTR itself and closes (the peer
 *	accepted, the connection never reached RTS); FPDUs answering the
 *	RTR are acknowledged and dropped
 * @rtr_sent: FPDUs irdma_cm_rtr_close() sent so far
 * @peer_markers: the peer's MPA frame asked for markers (M), which we
 *	refuse (irdma_cm_mpa_request_rcvd(), irdma_cm_mpa_reply_rcvd())
 * @mpa_enhanced: the MPA exchange carries the RFC 6581 block
 * @peer_rev: MPA revision of the peer's frame
 * @peer_flags: flags byte of the peer's frame
 * @peer_ird: IRD in the peer's block (0x3FFF: none)
 * @peer_ord: ORD in the peer's block (0x3FFF: none)
 * @peer_rtr_read: the peer offered/chose a zero-length Read RTR
 * @peer_rtr_write: the peer offered/chose a zero-length Write RTR
 * @peer_rtr_send: the peer offered a zero-length Send RTR (never taken)
 * @peer_no_ird_ord: the peer sent "no value" for both IRD and ORD
 * @pdata: private data received from the peer (v2 block removed)
 * @pdata_len: bytes in @pdata
 * @mpa_rx: MPA frame being reassembled from the peer's segments
 * @mpa_rx_len: bytes in @mpa_rx
 * @mpa_frame: our MPA frame (request, reply or reject) with private data
 * @mpa_frame_len: bytes in @mpa_frame
 * @ulp_pdata_len: bytes of the ULP's private data at the end of @mpa_frame
 * @mpa_err: MPA error code when the exchange failed
 * @tx: the segment awaiting acknowledgment
 * @rexmit_timer: retransmission timer
 * @state_timer: TIME_WAIT / close / RTS / MPA-wait timer
 * @state_deadline: when @state_timer's current period ends (jiffies)
 * @lsmm: passive: MPA reply handed to qp_offload as the LSMM, kept until
 *	the RTS AE
 * @rexmit_work: work queued by @rexmit_timer
 * @tmo_work: work queued by @state_timer
 * @listener: passive: the top-level listener (a reference is held)
 * @half_open_entry: passive, in SYN_RCVD: entry in @listener's
 *	half_open_list (kept by irdma_cm_set_state())
 * @counted: passive: counted in @listener's pending (from the end of the
 *	TCP handshake to accept or reject)
 * @connreq_id: passive: index of the node in cm_core->connreqs (the
 *	CONNECT_REQUEST's provider_data) while the request holds a
 *	reference, released by accept, reject or the CM; 0: none
 * @cm_id: iw_cm id (a reference is held while set)
 * @iwqp: QP bound by connect/accept (a reference is held while set)
 * @lpb_peer: loopback: the node at the other end (a reference is held)
 * @loopback: both ends on this device, joined without the wire
 * @offloaded: handed to the QP; iwqp->cm.cm_node holds a reference
 * @connect_reported: active: CONNECT_REPLY sent
 * @established_reported: passive: ESTABLISHED sent
 * @close_reported: CLOSE (or connect error) sent to iw_cm
 * @disconnect_reported: DISCONNECT sent to iw_cm
 * @ulp_state: the events iw_cm was given, in order; enforced by
 *	irdma_send_cm_event() (the *_reported flags above only say what the
 *	state machine still means to report)
 * @rts_rcvd: the RTS AE arrived
 * @oow_stamp: when the last challenge ACK or ACK to an out-of-window
 *	segment went out (jiffies; valid when @oow_sent)
 * @oow_sent: @oow_stamp is set
 */
struct irdma_cm_node {
	struct hlist_node hnode;
	struct list_head tmp;
	struct irdma_cm_core *core;
	refcount_t refcnt;
	enum irdma_cm_state state;
	bool hashed;
	bool active;
	bool ipv4;
	u32 loc_addr[4];
	u32 rem_addr[4];
	u16 loc_port;
	u16 rem_port;
	u16 vlan_id;
	u8 user_pri;
	u8 tos;
	u8 loc_mac[ETH_ALEN];
	u8 rem_mac[ETH_ALEN];
	int arp_idx;
	struct irdma_cm_ah *ah;
	bool qhash_set;
	bool apbvt_set;
	u32 iss;
	u32 snd_nxt;
	u32 snd_una;
	u32 snd_wnd;
	u32 max_snd_wnd;
	u8 snd_wscale;
	u32 rcv_nxt;
	u32 rcv_wnd;
	u8 rcv_wscale;
	u16 mss;
	bool peer_ws_ok;
	bool ecn_asked;
	bool ecn;
	u8 mpa_rev;
	bool mpa_v1_only;
	u16 ird;
	u16 ord;
	enum irdma_rtr_type rtr;
	bool p2p;
	bool fin_deferred;
	bool rtr_closing;
	u8 rtr_sent;
	bool peer_markers;
	bool mpa_enhanced;
	u8 peer_rev;
	u8 peer_flags;
	u16 peer_ird;
	u16 peer_ord;
	bool peer_rtr_read;
	bool peer_rtr_write;
	bool peer_rtr_send;
	bool peer_no_ird_ord;
	u8 pdata[IRDMA_MPA_MAX_PDATA];
	u16 pdata_len;
	u8 mpa_rx[IRDMA_MPA_MAX_FRAME];
	u16 mpa_rx_len;
	u8 mpa_frame[IRDMA_MPA_MAX_FRAME];
	u16 mpa_frame_len;
	u16 ulp_pdata_len;
	u8 mpa_err;
	struct irdma_cm_tx tx;
	struct timer_list rexmit_timer;
	struct timer_list state_timer;
	unsigned long state_deadline;
	u8 *lsmm;
	struct irdma_cm_work rexmit_work;
	struct irdma_cm_work tmo_work;
	struct irdma_cm_listener *listener;
	struct list_head half_open_entry;
	bool counted;
	u32 connreq_id;
	struct iw_cm_id *cm_id;
	struct irdma_qp *iwqp;
	struct irdma_cm_node *lpb_peer;
	bool loopback;
	bool offloaded;
	bool connect_reported;
	bool established_reported;
	bool close_reported;
	bool disconnect_reported;
	enum irdma_cm_ulp_state ulp_state;
	bool rts_rcvd;
	unsigned long oow_stamp;
	bool oow_sent;
};

#define IRDMA_CM_HASH_BITS	8

/**
 * struct irdma_cm_core - one CM instance (per ib_device)
 * @iwdev: the device (container of this core)
 * @netdev: its netdev
 * @ops: hardware layer
 * @net: network lookups (default: the kernel's tables)
 * @wq: ordered workqueue running every CM work item
 * @mutex: protects @nodes, @listeners, every node and listener field and
 *	every irdma_qp_cm; held by the work dispatcher and the iw_cm calls
 * @nodes: connection nodes by 4-tuple
 * @listeners: top-level listeners
 * @connreqs: nodes whose CONNECT_REQUEST awaits accept or reject, by
 *	the handle given to iw_cm (allocated cyclically from 1)
 * @connreq_next: next handle to try in @connreqs
 * @node_cnt: nodes alive (allocated, not yet freed)
 * @tun: timer constants
 * @stats: counters (@mutex; irdma_cm_get_stats() reads a snapshot)
 * @reply_tokens: tokens left for resets (tun.reply_rate)
 * @reply_stamp: when @reply_tokens was last refilled (jiffies)
 * @challenge_left: challenge ACKs left in this second (tun.challenge_limit)
 * @challenge_sec: the second @challenge_left was drawn for (jiffies / HZ)
 * @rx_queued: received frames queued or being handled (any context)
 * @rx_queue_drops: frames dropped because @rx_queued reached
 *	tun.max_rx_queued (any context)
 * @dead: irdma_cleanup_cm_core() started: no new work is accepted
 * @work_lock: protects @dead against the queueing paths (any context)
 * @fail_tx: fault injection (CONFIG_FAULT_INJECTION) of the allocation
 *	of a segment to send; off unless a test arms it
 * @ahs: ILQ address handles in use or idle (struct irdma_cm_ah, @mutex)
 * @ahs_idle: how many of @ahs no node uses (@mutex)
 * @ah_reap: destroys the address handles idle for IRDMA_CM_AH_IDLE
 */
struct irdma_cm_core {
	struct irdma_device *iwdev;
	struct net_device *netdev;
	const struct irdma_cm_hw_ops *ops;
	const struct irdma_cm_net_ops *net;
	struct workqueue_struct *wq;
	struct mutex mutex; /* see above */
	DECLARE_HASHTABLE(nodes, IRDMA_CM_HASH_BITS);
	struct list_head listeners;
	struct xarray connreqs;
	u32 connreq_next;
	u32 node_cnt;
	struct irdma_cm_tunables tun;
	struct irdma_cm_stats stats;
	u32 reply_tokens;
	unsigned long reply_stamp;
	u32 challenge_left;
	unsigned long challenge_sec;
	atomic_t rx_queued;
	atomic_long_t rx_queue_drops;
	bool dead;
	spinlock_t work_lock; /* protects @dead for the queueing paths */
#ifdef CONFIG_FAULT_INJECTION
	struct fault_attr fail_tx;
#endif
	struct list_head ahs;
	u32 ahs_idle;
	struct delayed_work ah_reap;
};

/**
 * struct irdma_qp_cm - connection-manager state of a QP (in struct irdma_qp)
 * @cm_node: the node of the connection bound to the QP by connect or
 *	accept (a reference is held)
 * @last_ae: last AE reported through irdma_cm_disconn()
 * @hw_tcp_state: TCP state from that AE (enum irdma_tcp_state_hw)
 * @close_armed: the close timer of the node runs for this QP
 * @term_sent: a TERMINATE went out for an error; the next AE or the close
 *	timer ends the connection
 * @disconn_done: the final CLOSE was reported
 *
 * All fields are protected by the owning cm_core's mutex.
 */
struct irdma_qp_cm {
	struct irdma_cm_node *cm_node;
	u16 last_ae;
	u8 hw_tcp_state;
	bool close_armed;
	bool term_sent;
	bool disconn_done;
};

/**
 * struct irdma_cm_qp_res - a QP's connection as resource tracking shows it
 * @bound: a connection node is bound to the QP (the fields below it are
 *	valid only then)
 * @last_ae: last close/reset AE the CM was told of, 0 if none
 * @ae_tcp_state: TCP state that AE reported (enum irdma_tcp_state_hw)
 * @state: the node's state
 * @active: the QP's side connected; passive: it accepted
 * @loopback: both ends on this device
 * @offloaded: TCP is in the QP context
 * @mpa_rev: MPA revision in use
 * @ird: inbound RDMA Reads the QP takes
 * @ord: outbound RDMA Reads the QP issues
 * @rtr: ready-to-receive message negotiated
 * @loc_port: local TCP port
 * @rem_port: remote TCP port
 */
struct irdma_cm_qp_res {
	bool bound;
	u16 last_ae;
	u8 ae_tcp_state;
	enum irdma_cm_state state;
	bool active;
	bool loopback;
	bool offloaded;
	u8 mpa_rev;
	u16 ird;
	u16 ord;
	enum irdma_rtr_type rtr;
	u16 loc_port;
	u16 rem_port;
};

/* the CM's interface to the rest of the driver (see the top of this file) */
extern const struct irdma_cm_net_ops irdma_cm_kernel_net_ops;

int irdma_setup_cm_core(struct irdma_cm_core *core,
			const struct irdma_cm_hw_ops *ops,
			struct irdma_device *iwdev);
void irdma_cleanup_cm_core(struct irdma_cm_core *core);
void irdma_receive_ilq(struct irdma_cm_core *core,
		       const struct irdma_cm_rx_pkt *pkt);
void irdma_cm_qp_established(struct irdma_qp *iwqp);
void irdma_cm_disconn(struct irdma_qp *iwqp, u16 ae, u8 tcp_state);
void irdma_cm_qp_destroy(struct irdma_qp *iwqp);
void irdma_cm_qp_res(struct irdma_qp *iwqp, struct irdma_cm_qp_res *res);
void irdma_cm_node_addrs(const struct irdma_cm_node *cm_node,
			 struct sockaddr_storage *loc,
			 struct sockaddr_storage *rem);
u32 irdma_cm_node_qpn(const struct irdma_cm_node *cm_node);
void irdma_cm_get_stats(struct irdma_cm_core *cm_core,
			struct irdma_cm_stats *stats);
const char *irdma_cm_state_name(enum irdma_cm_state state);
void irdma_if_notify(struct irdma_cm_core *core, struct net_device *netdev,
		     const u32 *ipaddr, bool ipv4, bool ifup);

int irdma_connect(struct iw_cm_id *cm_id, struct iw_cm_conn_param *conn_param);
int irdma_accept(struct iw_cm_id *cm_id, struct iw_cm_conn_param *conn_param);
int irdma_reject(struct iw_cm_id *cm_id, const void *pdata, u8 pdata_len);
int irdma_create_listen(struct iw_cm_id *cm_id, int backlog);
int irdma_destroy_listen(struct iw_cm_id *cm_id);

/**
 * irdma_cm_ip_to_hw() - an address from the CM's layout to the adapter's
 * @dst: receives four host-order words, IPv4 in [3] (QP context,
 *	descriptors)
 * @src: four host-order words, IPv4 in [0] (the CM's nodes and infos)
 * @ipv4: address family
 *
 * The one converter between the two layouts; cm.c and cm_hw.c share it.
 */
static inline void irdma_cm_ip_to_hw(u32 dst[4], const u32 src[4], bool ipv4)
{
	if (ipv4) {
		dst[0] = 0;
		dst[1] = 0;
		dst[2] = 0;
		dst[3] = src[0];
	} else {
		memcpy(dst, src, 4 * sizeof(u32));
	}
}

#endif /* IRDMA_CM_H */
