// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * irdma_sim - the data path of UDA queue pairs: the ILQ (QP 1), through
 * which the driver's connection manager receives and sends TCP segments
 * before a connection is offloaded.
 *
 * Rings.  CREATE_QP of a UDA QP maps its SQ and RQ (host context words 1
 * and 2, physically contiguous, sizes from word 3 as log2(quanta) - 2)
 * and its shadow area.  The model consumes WQEs in ring order while a
 * WQE's valid bit (header word 3) equals the ring's lap polarity: 1 on the
 * first lap, flipped at each wrap.  The driver reposts a receive buffer
 * into the slot it came from with the valid bit flipped, which is exactly
 * what the next lap expects.  There is no RQ doorbell.
 *
 * Receive (irdma_sim_uda_rx(), from net.c's rx_handler in softirq
 * context): the frame goes into the buffer of the next RQ WQE in the
 * GEN_2 layout: bytes 0-39 hold the IP header (IPv4 at byte 20 after
 * 20 bytes of zeros, IPv6 at byte 0), the TCP header starts at byte 40,
 * and there is no Ethernet header.  Then a CQE (payload length = bytes
 * written including the 40-byte L3 area, WQE index, IPv4 bit, EXTCQE)
 * and an extended CQE (source MAC, VLAN TCI) in the next slot.  A frame
 * is dropped, and counted, when no WQE is posted, when it does not fit
 * the WQE's buffer (1024 bytes for the ILQ: the handshake and the MPA
 * exchange fit; full-MSS data segments are the offloaded QP's business),
 * or when the CQ has no room for the two CQEs; the WQE is then left for
 * the next frame.  A buffer address that is not RAM completes the WQE
 * with an error CQE.
 *
 * Transmit: WQEALLOC naming a UDA QP puts it on sim->uda_tx and queues
 * uda_work on the instance's ordered workqueue, which takes valid send
 * WQEs one at a time: it checks the WQE (a single-fragment SEND whose
 * buffer starts at the TCP header, L4LEN = the TCP header's data offset,
 * no more than the MTU), the AH and its ARP entry, copies the segment
 * into an skb, writes the SQ tail into the QP's shadow area and, for a
 * signaled or failed WQE, an SQ CQE; then, without sim->lock, net.c adds
 * the Ethernet/VLAN/IP headers and the checksums and sends the frame.  A
 * WQE that fails a check is completed with IRDMA_CQE_QW3_ERROR, major
 * IRDMA_SIM_UDA_ERR_MAJOR and an IRDMA_CQP_MINOR_* minor code, and
 * nothing is sent.  The CQP worker serves pending send WQEs before each
 * command (irdma_sim_cqp_work()): doorbells act in the order they were
 * written, so an AH destroyed right after a send that uses it is still
 * there for that send.  Nothing polls the SQ: a WQE without a doorbell
 * waits for the next one.
 *
 * Locking: everything here runs with sim->lock held (see sim.h), except
 * the transmit loop, which drops it around each frame's transmission.
 */

#include <linux/bitfield.h>
#include <linux/etherdevice.h>
#include <linux/ipv6.h>
#include <linux/log2.h>
#include <linux/skbuff.h>
#include <net/ip.h>

#include "sim.h"

/**
 * irdma_sim_uda_map() - check and map the SQ or RQ of a new UDA QP
 * @sim: instance
 * @cmd: CREATE_QP (failed on error)
 * @qp: QP, for messages
 * @wq: ring to set up
 * @name: "SQ" or "RQ"
 * @pa: ring bus address from the host context
 * @enc: ring size code from the host context: log2(quanta) - 2
 *
 * Context: the CQP worker, before the QP is published.
 * Return: true on success.
 */
static bool irdma_sim_uda_map(struct irdma_sim *sim, struct irdma_sim_cmd *cmd,
			      struct irdma_sim_qp *qp, struct irdma_sim_wq *wq,
			      const char *name, u64 pa, u32 enc)
{
	if (enc > ilog2(IRDMA_GEN2_MAX_WQ_QUANTA) - 2) {
		irdma_sim_cmd_fail(sim, cmd, IRDMA_SIM_CQP_MINOR_BAD_SIZE,
				   "UDA QP %u: %s size code %u\n", qp->id, name,
				   enc);
		return false;
	}
	wq->size = 1U << (enc + 2);
	wq->ring = IS_ALIGNED(pa, IRDMA_WQE_QUANTUM) ?
		irdma_sim_dma_va(sim, pa, (size_t)wq->size * IRDMA_WQE_QUANTUM) :
		NULL;
	if (!wq->ring) {
		irdma_sim_cmd_fail(sim, cmd, IRDMA_SIM_CQP_MINOR_BAD_ADDR,
				   "UDA QP %u: %s of %u WQEs at %#llx not in RAM\n",
				   qp->id, name, wq->size, pa);
		return false;
	}
	wq->tail = 0;
	wq->polarity = 1;
	return true;
}

/**
 * irdma_sim_uda_init() - set up the rings of a new UDA QP
 * @sim: instance
 * @cmd: CREATE_QP (failed on error)
 * @qp: QP with its host context copied; not yet published
 *
 * The model takes 32-byte RQ WQEs only (RQWQESIZE 0, as the driver's PUDA
 * context has it).
 *
 * Context: the CQP worker.
 * Return: true on success.
 */
bool irdma_sim_uda_init(struct irdma_sim *sim, struct irdma_sim_cmd *cmd,
			struct irdma_sim_qp *qp)
{
	u64 qw0 = le64_to_cpu(qp->ctx[IRDMA_QPC_QW0]);
	u64 qw3 = le64_to_cpu(qp->ctx[IRDMA_QPC_QW3]);

	if (FIELD_GET(IRDMA_QPC_QW0_RQWQESIZE, qw0)) {
		irdma_sim_cmd_fail(sim, cmd, IRDMA_SIM_CQP_MINOR_BAD_SIZE,
				   "UDA QP %u: RQ WQE size code %llu (the model takes 32-byte WQEs)\n",
				   qp->id, FIELD_GET(IRDMA_QPC_QW0_RQWQESIZE, qw0));
		return false;
	}
	if (!irdma_sim_uda_map(sim, cmd, qp, &qp->sq, "SQ",
			       le64_to_cpu(qp->ctx[IRDMA_QPC_SQ_PA]),
			       FIELD_GET(IRDMA_QPC_QW3_SQSIZE, qw3)) ||
	    !irdma_sim_uda_map(sim, cmd, qp, &qp->rq, "RQ",
			       le64_to_cpu(qp->ctx[IRDMA_QPC_RQ_PA]),
			       FIELD_GET(IRDMA_QPC_QW3_RQSIZE, qw3))) {
		qp->sq.ring = NULL;
		qp->rq.ring = NULL;
		return false;
	}
	/* checked by irdma_sim_qp_read() */
	qp->shadow = irdma_sim_dma_va(sim, qp->shadow_pa, IRDMA_QP_SHADOW_SIZE);
	return true;
}

/**
 * irdma_sim_uda_unlink() - a QP stops being visible: forget its doorbell
 * @sim: instance
 * @qp: QP being destroyed or purged (any type)
 */
void irdma_sim_uda_unlink(struct irdma_sim *sim, struct irdma_sim_qp *qp)
{
	lockdep_assert_held(&sim->lock);

	list_del_init(&qp->tx_node);
}

/**
 * irdma_sim_uda_live() - whether the data path may use a QP
 * @sim: instance
 * @qp: QP
 *
 * Return: true for a live UDA QP of the current CQP generation in RTS.
 */
static bool irdma_sim_uda_live(struct irdma_sim *sim, struct irdma_sim_qp *qp)
{
	lockdep_assert_held(&sim->lock);

	return qp->live && qp->gen == sim->gen &&
	       qp->type == IRDMA_QP_TYPE_UDA && qp->sq.ring &&
	       qp->state == IRDMA_QPS_RTS;
}

/**
 * irdma_sim_uda_doorbell() - WQEALLOC named a UDA QP: serve its SQ
 * @sim: instance, not dead
 * @qp: live QP of the current generation
 */
void irdma_sim_uda_doorbell(struct irdma_sim *sim, struct irdma_sim_qp *qp)
{
	lockdep_assert_held(&sim->lock);

	if (!qp->sq.ring)
		return;
	if (list_empty(&qp->tx_node))
		list_add_tail(&qp->tx_node, &sim->uda_tx);
	queue_work(sim->wq, &sim->uda_work);
}

/**
 * irdma_sim_wq_advance() - move a ring's tail past one WQE
 * @wq: SQ or RQ
 */
static void irdma_sim_wq_advance(struct irdma_sim_wq *wq)
{
	if (++wq->tail == wq->size) {
		wq->tail = 0;
		wq->polarity ^= 1;
	}
}

/**
 * irdma_sim_uda_cqe_hdr() - CQE header word without the valid bit
 * @idx: WQE index
 * @sq: SQ completion (else RQ)
 * @minor: 0, or the IRDMA_CQP_MINOR_* reason of an error completion
 *
 * Return: the word in CPU order.
 */
static u64 irdma_sim_uda_cqe_hdr(u32 idx, bool sq, u16 minor)
{
	u64 hdr = FIELD_PREP(IRDMA_CQE_QW3_WQEIDX, idx);

	if (sq)
		hdr |= IRDMA_CQE_QW3_SQ;
	if (minor)
		hdr |= IRDMA_CQE_QW3_ERROR |
		       FIELD_PREP(IRDMA_CQE_QW3_MAJERR, IRDMA_SIM_UDA_ERR_MAJOR) |
		       FIELD_PREP(IRDMA_CQE_QW3_MINERR, minor);
	return hdr;
}

/**
 * irdma_sim_uda_rx() - write a steered frame into a UDA QP's receive queue
 * @sim: instance
 * @qpn: QP the qhash entry names
 * @skb: the frame, data at the IP header
 * @f: what net.c found in it (lengths checked against @skb)
 *
 * Context: softirq (the rx_handler); takes sim->lock.
 * Return: true when the frame was written into a receive buffer, false
 * when it was dropped (counted).
 */
bool irdma_sim_uda_rx(struct irdma_sim *sim, u32 qpn,
		      const struct sk_buff *skb,
		      const struct irdma_sim_frame *f)
{
	u32 need = IRDMA_SIM_UDA_L3_AREA + f->tcp_len;
	struct irdma_sim_net_stats *st = &sim->net;
	struct irdma_cqe cqe[2] = {};
	struct irdma_sim_qp *qp;
	struct irdma_sim_cq *cq;
	struct irdma_wqe *wqe;
	bool delivered = false;
	unsigned long flags;
	u32 cap, off, idx;
	u16 minor = 0;
	u64 hdr, ext, addr;
	u8 *buf;

	spin_lock_irqsave(&sim->lock, flags);
	if (sim->dead)
		goto out;
	if (f->bad_hdr || f->bad_csum) {
		if (f->bad_hdr) {
			st->rx_bad_hdr++;
			irdma_sim_gstat_add(sim, f->ipv4 ?
					    IRDMA_GSTAT_IP4_RX_DISCARD :
					    IRDMA_GSTAT_IP6_RX_DISCARD, 1);
		} else {
			st->rx_bad_csum++;
		}
		dev_dbg_ratelimited(&sim->dev,
				    "frame for QP %u dropped: bad %s\n", qpn,
				    f->bad_hdr ? "IP header" : "TCP checksum");
		goto out;
	}
	qp = xa_load(&sim->qps, qpn);
	cq = qp && irdma_sim_uda_live(sim, qp) ?
		irdma_sim_cq_get(sim, qp->rxcq) : NULL;
	if (!cq) {
		st->rx_no_qp++;
		dev_dbg_ratelimited(&sim->dev,
				    "frame for QP %u dropped: no UDA QP in RTS with a CQ\n",
				    qpn);
		goto out;
	}
	idx = qp->rq.tail;
	wqe = &qp->rq.ring[idx];
	hdr = le64_to_cpu(READ_ONCE(wqe->qw[IRDMA_WQE_HDR]));
	if (FIELD_GET(IRDMA_WQE_HDR_VALID, hdr) != qp->rq.polarity) {
		st->rx_no_wqe++;
		dev_dbg_ratelimited(&sim->dev,
				    "frame for QP %u dropped: no receive WQE at %u\n",
				    qpn, idx);
		goto out;
	}
	/* read the WQE body only after seeing the valid bit (written last) */
	dma_rmb();
	cap = FIELD_GET(IRDMA_WQE_FRAG_LEN,
			le64_to_cpu(READ_ONCE(wqe->qw[IRDMA_WQE_FRAG0])));
	if (need > cap) {
		st->rx_too_big++;
		dev_info_ratelimited(&sim->dev,
				     "frame for QP %u dropped: %u bytes with the L3 area, the receive buffer holds %u\n",
				     qpn, need, cap);
		goto out;
	}
	addr = le64_to_cpu(READ_ONCE(wqe->qw[IRDMA_WQE_FRAG0_ADDR]));
	buf = irdma_sim_dma_va(sim, addr, need);
	off = IRDMA_SIM_UDA_L3_AREA - f->l3_hlen;
	if (!buf) {
		minor = IRDMA_SIM_CQP_MINOR_BAD_ADDR;
		need = 0;
	} else {
		memset(buf, 0, off);
		if (skb_copy_bits(skb, 0, buf + off, f->l3_hlen + f->tcp_len)) {
			/* cannot happen: net.c checked the lengths */
			st->rx_bad_hdr++;
			goto out;
		}
	}

	cqe[0].qw[IRDMA_CQE_QW0] =
		cpu_to_le64(FIELD_PREP(IRDMA_CQE_QW0_PAYLDLEN, need));
	cqe[0].qw[IRDMA_CQE_COMPCTX] = cpu_to_le64(qp->comp_ctx);
	cqe[0].qw[IRDMA_CQE_QW2] =
		cpu_to_le64(FIELD_PREP(IRDMA_CQE_QW2_QPID, qp->id));
	hdr = irdma_sim_uda_cqe_hdr(idx, false, minor) | IRDMA_CQE_QW3_EXTCQE;
	if (f->ipv4)
		hdr |= IRDMA_CQE_QW3_STAG;	/* IPV4 on UDA QPs */
	cqe[0].qw[IRDMA_CQE_HDR] = cpu_to_le64(hdr);
	ext = FIELD_PREP(IRDMA_CQE_EXT_QW2_UDSMAC, ether_addr_to_u64(f->smac));
	hdr = IRDMA_CQE_EXT_QW3_UDSMACVALID;
	if (f->vlan_valid) {
		ext |= FIELD_PREP(IRDMA_CQE_EXT_QW2_UDVLAN, f->vlan_tci);
		hdr |= IRDMA_CQE_EXT_QW3_UDVLANVALID;
	}
	cqe[1].qw[IRDMA_CQE_EXT_QW2] = cpu_to_le64(ext);
	cqe[1].qw[IRDMA_CQE_HDR] = cpu_to_le64(hdr);
	if (irdma_sim_cq_post_n(sim, cq, cqe, ARRAY_SIZE(cqe), !!minor)) {
		/* the WQE stays posted: the next frame may use it */
		st->rx_cq_full++;
		goto out;
	}
	irdma_sim_wq_advance(&qp->rq);
	if (minor) {
		st->rx_bad_buf++;
		dev_err_ratelimited(&sim->dev,
				    "QP %u receive WQE %u: buffer not in RAM\n",
				    qpn, idx);
		goto out;
	}
	st->rx_steered++;
	irdma_sim_gstat_ip(sim, f->ipv4, true, f->l3_hlen + f->tcp_len, 1);
	if (f->syn)
		st->rx_syn++;
	st->rx_bytes += need;
	delivered = true;
out:
	spin_unlock_irqrestore(&sim->lock, flags);
	return delivered;
}

/**
 * irdma_sim_uda_complete() - write the SQ CQE of a send WQE
 * @sim: instance
 * @qp: QP
 * @idx: WQE index
 * @minor: 0, or the reason of an error completion
 */
static void irdma_sim_uda_complete(struct irdma_sim *sim,
				   struct irdma_sim_qp *qp, u32 idx, u16 minor)
{
	struct irdma_sim_cq *cq = irdma_sim_cq_get(sim, qp->txcq);
	struct irdma_cqe cqe = {};

	lockdep_assert_held(&sim->lock);

	cqe.qw[IRDMA_CQE_COMPCTX] = cpu_to_le64(qp->comp_ctx);
	cqe.qw[IRDMA_CQE_QW2] =
		cpu_to_le64(FIELD_PREP(IRDMA_CQE_QW2_QPID, qp->id));
	cqe.qw[IRDMA_CQE_HDR] = cpu_to_le64(irdma_sim_uda_cqe_hdr(idx, true,
								  minor));
	if (!cq || irdma_sim_cq_post_n(sim, cq, &cqe, 1, !!minor))
		sim->net.tx_cq_full++;
}

/**
 * irdma_sim_uda_tx_check() - check a send WQE and gather its frame's headers
 * @sim: instance
 * @hdr: WQE word 3
 * @addr: WQE word 0: buffer bus address
 * @frag: WQE word 1: fragment length and valid bit
 * @tx: filled from the AH and its ARP entry
 * @buf: set to the buffer (from the TCP header on)
 * @len: set to the TCP header and payload bytes
 *
 * Return: 0, or the IRDMA_CQP_MINOR_* reason the WQE fails (counted).
 */
static u16 irdma_sim_uda_tx_check(struct irdma_sim *sim, u64 hdr, u64 addr,
				  u64 frag, struct irdma_sim_tx *tx,
				  const u8 **buf, u32 *len)
{
	u32 l4len = FIELD_GET(IRDMA_WQE_HDR_L4LEN, hdr) * 4;
	u32 ah_idx = FIELD_GET(IRDMA_WQE_HDR_AHID, hdr);
	struct irdma_sim_net_stats *st = &sim->net;
	struct irdma_sim_ah *ah;
	u32 l3;

	lockdep_assert_held(&sim->lock);

	if (FIELD_GET(IRDMA_WQE_HDR_OPCODE, hdr) != IRDMA_WQE_OP_SEND ||
	    FIELD_GET(IRDMA_WQE_HDR_ADDFRAGCNT, hdr)) {
		st->tx_bad_op++;
		return IRDMA_SIM_CQP_MINOR_BAD_OPCODE;
	}
	ah = xa_load(&sim->ahs, ah_idx);
	if (!ah || !ah->live || ah->gen != sim->gen ||
	    !is_valid_ether_addr(ah->mac)) {
		st->tx_bad_ah++;
		return IRDMA_SIM_CQP_MINOR_BAD_ID;
	}
	*len = FIELD_GET(IRDMA_WQE_FRAG_LEN, frag);
	l3 = ah->ipv4 ? sizeof(struct iphdr) : sizeof(struct ipv6hdr);
	if (l4len < sizeof(struct tcphdr) || *len < l4len ||
	    *len + l3 > READ_ONCE(sim->netdev->mtu)) {
		st->tx_bad_len++;
		return IRDMA_SIM_CQP_MINOR_BAD_SIZE;
	}
	*buf = irdma_sim_dma_va(sim, addr, *len);
	if (!*buf) {
		st->tx_bad_buf++;
		return IRDMA_SIM_CQP_MINOR_BAD_ADDR;
	}
	/* byte 12 of the TCP header: data offset in 32-bit words, 7:4 */
	if ((READ_ONCE((*buf)[12]) >> 4) * 4 != l4len) {
		st->tx_bad_len++;
		return IRDMA_SIM_CQP_MINOR_BAD_SIZE;
	}
	if (ah->loopback) {
		ether_addr_copy(tx->dmac, sim->netdev->dev_addr);
	} else {
		if (!sim->arp || ah->arp_idx >= sim->narp ||
		    !sim->arp[ah->arp_idx].valid) {
			st->tx_bad_arp++;
			irdma_sim_gstat_add(sim, ah->ipv4 ?
					    IRDMA_GSTAT_IP4_TX_NO_ROUTE :
					    IRDMA_GSTAT_IP6_TX_NO_ROUTE, 1);
			return IRDMA_SIM_CQP_MINOR_BAD_ID;
		}
		ether_addr_copy(tx->dmac, sim->arp[ah->arp_idx].mac);
	}
	ether_addr_copy(tx->smac, ah->mac);
	tx->ipv4 = ah->ipv4;
	tx->insert_vlan = ah->insert_vlan;
	tx->loopback = ah->loopback;
	tx->vlan_tci = ah->vlan;
	tx->tc = ah->tc;
	tx->hop_limit = ah->hop_limit;
	tx->flow_label = ah->flow_label;
	tx->ip_id = sim->ip_id++;
	memcpy(tx->src_ip, ah->src_ip, sizeof(tx->src_ip));
	memcpy(tx->dst_ip, ah->dst_ip, sizeof(tx->dst_ip));
	return 0;
}

/**
 * irdma_sim_uda_tx_one() - take the next send WQE of a QP
 * @sim: instance
 * @qp: live UDA QP
 * @pskb: set to the frame to send (TCP segment only), or left NULL
 * @tx: set to the frame's L2/L3 fields when *@pskb is set
 *
 * Consumes the WQE, writes the SQ tail into the shadow area and the CQE
 * (signaled or failed WQEs), all before the frame is sent.
 *
 * Return: true when a WQE was consumed, false when none is valid.
 */
static bool irdma_sim_uda_tx_one(struct irdma_sim *sim, struct irdma_sim_qp *qp,
				 struct sk_buff **pskb, struct irdma_sim_tx *tx)
{
	struct irdma_sim_wq *sq = &qp->sq;
	struct irdma_wqe *wqe = &sq->ring[sq->tail];
	const u8 *buf = NULL;
	u64 hdr, addr, frag;
	struct sk_buff *skb;
	u32 idx, len = 0;
	u16 minor;

	lockdep_assert_held(&sim->lock);

	hdr = le64_to_cpu(READ_ONCE(wqe->qw[IRDMA_WQE_HDR]));
	if (FIELD_GET(IRDMA_WQE_HDR_VALID, hdr) != sq->polarity)
		return false;
	/* read the WQE body only after seeing the valid bit (written last) */
	dma_rmb();
	addr = le64_to_cpu(READ_ONCE(wqe->qw[IRDMA_WQE_FRAG0_ADDR]));
	frag = le64_to_cpu(READ_ONCE(wqe->qw[IRDMA_WQE_FRAG0]));
	idx = sq->tail;
	irdma_sim_wq_advance(sq);
	if (qp->shadow)
		WRITE_ONCE(qp->shadow[IRDMA_QP_SHADOW_QW0],
			   cpu_to_le64(FIELD_PREP(IRDMA_QP_SHADOW_QW0_HW_SQ_TAIL,
						  sq->tail)));

	minor = irdma_sim_uda_tx_check(sim, hdr, addr, frag, tx, &buf, &len);
	if (minor) {
		dev_dbg_ratelimited(&sim->dev,
				    "QP %u send WQE %u failed: minor %#x\n",
				    qp->id, idx, minor);
	} else {
		skb = irdma_sim_net_alloc(sim, len);
		if (skb)
			memcpy(skb->data, buf, len);
		else
			sim->net.tx_dropped++;
		*pskb = skb;
	}
	if (minor || (hdr & IRDMA_WQE_HDR_SIGCOMPL))
		irdma_sim_uda_complete(sim, qp, idx, minor);
	return true;
}

/**
 * irdma_sim_uda_flush() - transmit the send WQEs of QPs with a doorbell
 * @sim: instance
 * @budget: WQEs to take at most
 *
 * QPs take turns, one WQE each.  sim->lock is dropped around each
 * frame's transmission.
 *
 * Context: the instance's workqueue (uda_work or the CQP worker).
 * Return: true when no doorbell is left to serve.
 */
bool irdma_sim_uda_flush(struct irdma_sim *sim, u32 budget)
{
	struct irdma_sim_qp *qp;
	struct irdma_sim_tx tx;
	struct sk_buff *skb;
	unsigned long flags;
	u32 n = 0;

	while (n < budget) {
		skb = NULL;
		spin_lock_irqsave(&sim->lock, flags);
		qp = list_first_entry_or_null(&sim->uda_tx, struct irdma_sim_qp,
					      tx_node);
		if (!qp || sim->dead) {
			spin_unlock_irqrestore(&sim->lock, flags);
			return true;
		}
		if (irdma_sim_uda_live(sim, qp) &&
		    irdma_sim_uda_tx_one(sim, qp, &skb, &tx)) {
			list_move_tail(&qp->tx_node, &sim->uda_tx);
			n++;
		} else {
			list_del_init(&qp->tx_node);
		}
		spin_unlock_irqrestore(&sim->lock, flags);
		/* the reply may come back through the rx_handler in here */
		if (skb)
			irdma_sim_net_xmit(sim, skb, &tx);
	}
	return false;
}

/**
 * irdma_sim_uda_work() - the transmit engine of UDA QPs
 * @work: the instance's uda_work
 *
 * Takes up to IRDMA_SIM_UDA_BUDGET WQEs, then queues itself again if
 * more wait, so the CQP worker on the same ordered workqueue gets its
 * turn.
 *
 * Context: the instance's ordered workqueue.
 */
void irdma_sim_uda_work(struct work_struct *work)
{
	struct irdma_sim *sim = container_of(work, struct irdma_sim, uda_work);

	if (!irdma_sim_uda_flush(sim, IRDMA_SIM_UDA_BUDGET))
		queue_work(sim->wq, &sim->uda_work);
}
