// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * irdma - the ILQ: the privileged UDA queue pair (QP 1, CQ 1) that carries
 * the connection manager's TCP segments before a connection is offloaded.
 *
 * The adapter steers frames matching a quad-hash entry into the ILQ's
 * receive queue (GEN_2 layout: IPv4 header at byte 20 or IPv6 header at
 * byte 0, TCP header at byte 40, no Ethernet header; source MAC and VLAN
 * in an extended CQE).  Transmit takes a buffer starting at the TCP
 * header and an address handle; the adapter builds L2/L3 and checksums.
 *
 * Receive buffers are reposted into the slot they came from, with the
 * valid bit flipped; transmit buffers are one per SQ slot.
 */
#include <linux/etherdevice.h>

#include "irdma.h"
#include "ctrl.h"
#include "wqe.h"

#define IRDMA_ILQ_SIZE		512	/* SQ and RQ entries */

/**
 * irdma_ilq_wqe() - a WQE slot of the ILQ's SQ or RQ
 * @ring: first WQE of the ring
 * @idx: slot
 *
 * Return: the WQE.
 */
static struct irdma_wqe *irdma_ilq_wqe(void *ring, u32 idx)
{
	return &((struct irdma_wqe *)ring)[idx];
}

/**
 * irdma_ilq_post_rx() - (re)post receive buffer @idx
 * @ilq: the ILQ
 * @idx: RQ slot; its buffer is rx_bufs + idx * IRDMA_ILQ_BUF_SIZE
 * @first: first posting: valid = 1; else flip the slot's valid bit
 */
static void irdma_ilq_post_rx(struct irdma_ilq *ilq, u32 idx, bool first)
{
	struct irdma_wqe *wqe = irdma_ilq_wqe(ilq->rq, idx);
	u8 valid = first ? 1 :
		   !le64_get_bits(wqe->qw[IRDMA_WQE_HDR], IRDMA_WQE_HDR_VALID);
	struct ib_sge sge = {
		.addr = ilq->rx_bufs.pa + idx * IRDMA_ILQ_BUF_SIZE,
		.length = IRDMA_ILQ_BUF_SIZE,
	};

	irdma_wqe_publish(wqe, irdma_wqe_recv(wqe, &sge, 1, valid));
}

/**
 * irdma_ilq_fill_ctx() - the UDA QP context of the ILQ
 * @rf: RDMA function
 * @ilq: the ILQ
 */
static void irdma_ilq_fill_ctx(struct irdma_pci_f *rf, struct irdma_ilq *ilq)
{
	struct irdma_qpc_params p = {
		.sq_pa = ilq->sq_pa,
		.rq_pa = ilq->rq_pa,
		.sq_quanta = ilq->size,
		.rq_quanta = ilq->size,
		.send_cq = IRDMA_ILQ_ID,
		.recv_cq = IRDMA_ILQ_ID,
		.compl_ctx = IRDMA_ILQ_ID,
		.mss = IRDMA_ILQ_BUF_SIZE,
		.priv = true,
	};

	irdma_qpc_uda(rf, ilq->ctx, &p);
}

/**
 * irdma_ilq_cq_params() - CREATE_CQ parameters of the ILQ's CQ
 * @ilq: the ILQ
 * @p: filled in
 */
static void irdma_ilq_cq_params(struct irdma_ilq *ilq, struct irdma_cq_params *p)
{
	*p = (struct irdma_cq_params){
		.id = IRDMA_ILQ_ID,
		.size = ilq->cq.size,
		.ctx = IRDMA_ILQ_ID,
		.ring_pa = ilq->cq.mem.pa,
		.shadow_pa = ilq->cq.shadow_pa,
		.ceq_id = 0,
		.ceq_valid = true,
		.ceqe_mask = true,
		.check_overflow = true,
		.shadow_read_threshold = ilq->cq.size >> 2,
	};
}

/**
 * irdma_ilq_qp_params() - CREATE_QP / DESTROY_QP parameters of the ILQ
 * @ilq: the ILQ
 * @p: filled in
 */
static void irdma_ilq_qp_params(struct irdma_ilq *ilq,
				struct irdma_qp_cmd_params *p)
{
	*p = (struct irdma_qp_cmd_params){
		.qp_id = IRDMA_ILQ_ID,
		.qp_type = IRDMA_QP_TYPE_UDA,
		.ctx_pa = ilq->ctx_pa,
		.shadow_pa = ilq->shadow_pa,
		.next_state = IRDMA_QPS_RTS,
		.cq_num_valid = true,
	};
}

/**
 * irdma_ilq_create() - create the ILQ's CQ and QP and post its receives
 * @rf: RDMA function, control path up
 *
 * Context: process context, may sleep.
 * Return: 0 or a negative errno.
 */
int irdma_ilq_create(struct irdma_pci_f *rf)
{
	struct irdma_ilq *ilq = &rf->ilq;
	struct irdma_qp_cmd_params qp;
	struct irdma_cq_params cq;
	size_t ring = IRDMA_ILQ_SIZE * sizeof(struct irdma_wqe);
	u32 i;
	int ret;

	spin_lock_init(&ilq->lock);
	ilq->size = IRDMA_ILQ_SIZE;
	ret = irdma_dma_alloc(rf, &ilq->qmem, 2 * ring + IRDMA_QP_SHADOW_SIZE +
			      IRDMA_QP_CTX_SIZE, PAGE_SIZE);
	if (ret)
		return ret;
	ilq->sq = ilq->qmem.va;
	ilq->sq_pa = ilq->qmem.pa;
	ilq->rq = ilq->qmem.va + ring;
	ilq->rq_pa = ilq->qmem.pa + ring;
	ilq->shadow_pa = ilq->rq_pa + ring;
	ilq->ctx = ilq->qmem.va + 2 * ring + IRDMA_QP_SHADOW_SIZE;
	ilq->ctx_pa = ilq->shadow_pa + IRDMA_QP_SHADOW_SIZE;
	ilq->sq_head = 0;
	ilq->sq_tail = 0;
	ilq->sq_polarity = 0;	/* flips to 1 on slot 0 */

	ret = irdma_dma_alloc(rf, &ilq->rx_bufs, ilq->size * IRDMA_ILQ_BUF_SIZE,
			      PAGE_SIZE);
	if (ret)
		goto err_free_qmem;
	ret = irdma_dma_alloc(rf, &ilq->tx_bufs, ilq->size * IRDMA_ILQ_BUF_SIZE,
			      PAGE_SIZE);
	if (ret)
		goto err_free_rx;
	/* room for an extended CQE after every receive */
	ret = irdma_cq_ring_alloc(rf, &ilq->cq, IRDMA_ILQ_ID, 3 * ilq->size);
	if (ret)
		goto err_free_tx;

	irdma_ilq_cq_params(ilq, &cq);
	ret = irdma_cqp_create_cq(rf, &cq);
	if (ret)
		goto err_free_cq;
	ilq->cq_created = true;

	for (i = 0; i < ilq->size; i++)
		irdma_ilq_post_rx(ilq, i, true);
	irdma_ilq_fill_ctx(rf, ilq);
	irdma_ilq_qp_params(ilq, &qp);
	ret = irdma_cqp_qp_cmd(rf, IRDMA_CQP_OP_CREATE_QP, &qp);
	if (ret)
		goto err_destroy_cq;
	ilq->qp_created = true;
	irdma_cq_ring_arm(rf, &ilq->cq, false);
	return 0;

err_destroy_cq:
	WRITE_ONCE(ilq->cq_created, false);
	synchronize_irq(rf->ceqs[0].vec->irq);
	if (irdma_cqp_destroy_cq(rf, &cq)) {
		irdma_dma_leak(rf, &ilq->cq.mem, -EIO);
		irdma_dma_leak(rf, &ilq->rx_bufs, -EIO);
	}
err_free_cq:
	irdma_dma_free(rf, &ilq->cq.mem);
err_free_tx:
	irdma_dma_free(rf, &ilq->tx_bufs);
err_free_rx:
	irdma_dma_free(rf, &ilq->rx_bufs);
err_free_qmem:
	irdma_dma_free(rf, &ilq->qmem);
	return ret;
}

/**
 * irdma_ilq_destroy() - destroy the ILQ and free its memory
 * @rf: RDMA function
 *
 * Context: process context, may sleep; the CM no longer transmits.
 */
void irdma_ilq_destroy(struct irdma_pci_f *rf)
{
	struct irdma_ilq *ilq = &rf->ilq;
	struct irdma_qp_cmd_params qp;
	struct irdma_cq_params cq;
	unsigned long flags;

	int qp_ret = 0, cq_ret = 0;

	if (ilq->qp_created) {
		spin_lock_irqsave(&ilq->lock, flags);
		ilq->qp_created = false;
		spin_unlock_irqrestore(&ilq->lock, flags);
		irdma_ilq_qp_params(ilq, &qp);
		qp_ret = irdma_cqp_qp_cmd(rf, IRDMA_CQP_OP_DESTROY_QP, &qp);
	}
	if (ilq->cq_created) {
		WRITE_ONCE(ilq->cq_created, false);
		/* no CQ processing may run past this point */
		synchronize_irq(rf->ceqs[0].vec->irq);
		irdma_ilq_cq_params(ilq, &cq);
		cq_ret = irdma_cqp_destroy_cq(rf, &cq);
	}
	/* what the adapter may still use is left to it */
	if (cq_ret)
		irdma_dma_leak(rf, &ilq->cq.mem, cq_ret);
	irdma_dma_free(rf, &ilq->cq.mem);
	if (qp_ret) {
		irdma_dma_leak(rf, &ilq->tx_bufs, qp_ret);
		irdma_dma_leak(rf, &ilq->rx_bufs, qp_ret);
		irdma_dma_leak(rf, &ilq->qmem, qp_ret);
	}
	irdma_dma_free(rf, &ilq->tx_bufs);
	irdma_dma_free(rf, &ilq->rx_bufs);
	irdma_dma_free(rf, &ilq->qmem);
}

/**
 * irdma_ilq_send() - transmit one TCP segment
 * @rf: RDMA function
 * @ah_id: address handle giving L2/L3 headers
 * @seg: the segment, starting at the TCP header
 * @len: header and payload bytes
 * @tcp_hdr_len: TCP header bytes (a multiple of 4)
 *
 * The segment is copied; the caller keeps its buffer.
 *
 * Context: any; does not sleep.
 * Return: 0, -EINVAL for a bad length, -ENOBUFS if the SQ is full,
 * -ENODEV once the ILQ is gone.
 */
int irdma_ilq_send(struct irdma_pci_f *rf, u32 ah_id, const void *seg,
		   u32 len, u32 tcp_hdr_len)
{
	struct irdma_ilq *ilq = &rf->ilq;
	struct irdma_wqe *wqe;
	unsigned long flags;
	u32 slot;
	u64 hdr;

	if (!len || len > IRDMA_ILQ_BUF_SIZE || tcp_hdr_len > len ||
	    tcp_hdr_len % 4)
		return -EINVAL;
	spin_lock_irqsave(&ilq->lock, flags);
	if (!ilq->qp_created) {
		spin_unlock_irqrestore(&ilq->lock, flags);
		return -ENODEV;
	}
	if ((ilq->sq_head + 1) % ilq->size == ilq->sq_tail) {
		ilq->stats.tx_full++;
		spin_unlock_irqrestore(&ilq->lock, flags);
		return -ENOBUFS;
	}
	slot = ilq->sq_head;
	ilq->sq_head = (slot + 1) % ilq->size;
	if (!slot)
		ilq->sq_polarity ^= 1;
	memcpy(ilq->tx_bufs.va + slot * IRDMA_ILQ_BUF_SIZE, seg, len);

	wqe = irdma_ilq_wqe(ilq->sq, slot);
	hdr = irdma_wqe_ilq_send(wqe, ilq->tx_bufs.pa + slot * IRDMA_ILQ_BUF_SIZE,
				 len, ah_id, tcp_hdr_len, ilq->sq_polarity);
	/* the buffer and the WQE body before the valid header */
	irdma_wqe_publish(wqe, hdr);
	ilq->stats.tx_pkts++;
	spin_unlock_irqrestore(&ilq->lock, flags);
	/* the doorbell is ordered after the WQE by the MMIO write barrier */
	irdma_wr32(rf, IRDMA_REG_WQEALLOC, IRDMA_ILQ_ID);
	return 0;
}

/**
 * irdma_ilq_rx() - hand one received frame to the connection manager
 * @rf: RDMA function
 * @cqe: the CQE
 * @ext: the extended CQE, or NULL
 * @idx: RQ slot
 *
 * Context: IRQ thread.
 */
static void irdma_ilq_rx(struct irdma_pci_f *rf, const struct irdma_cqe *cqe,
			 const struct irdma_cqe *ext, u32 idx)
{
	struct irdma_ilq *ilq = &rf->ilq;
	u64 hdr = le64_to_cpu(cqe->qw[IRDMA_CQE_HDR]);
	struct irdma_cm_rx_pkt pkt = {
		.buf = ilq->rx_bufs.va + idx * IRDMA_ILQ_BUF_SIZE,
		.len = le64_get_bits(cqe->qw[IRDMA_CQE_QW0],
				     IRDMA_CQE_QW0_PAYLDLEN),
		.ipv4 = FIELD_GET(IRDMA_CQE_QW3_STAG, hdr),
	};

	if (ext) {
		u64 w2 = le64_to_cpu(ext->qw[IRDMA_CQE_EXT_QW2]);
		u64 w3 = le64_to_cpu(ext->qw[IRDMA_CQE_HDR]);

		pkt.smac_valid = FIELD_GET(IRDMA_CQE_EXT_QW3_UDSMACVALID, w3);
		u64_to_ether_addr(FIELD_GET(IRDMA_CQE_EXT_QW2_UDSMAC, w2),
				  pkt.smac);
		pkt.vlan_valid = FIELD_GET(IRDMA_CQE_EXT_QW3_UDVLANVALID, w3);
		pkt.vlan_tci = FIELD_GET(IRDMA_CQE_EXT_QW2_UDVLAN, w2);
	}
	if (FIELD_GET(IRDMA_CQE_QW3_ERROR, hdr) ||
	    pkt.len > IRDMA_ILQ_BUF_SIZE || pkt.len < IRDMA_ILQ_RX_TCP_OFFSET) {
		ilq->stats.rx_dropped++;
		return;
	}
	ilq->stats.rx_pkts++;
	mutex_lock(&rf->iwdev_lock);
	if (rf->iwdev)
		irdma_receive_ilq(&rf->iwdev->cm_core, &pkt);
	mutex_unlock(&rf->iwdev_lock);
}

/**
 * irdma_cq_ring_advance() - consume one CQE slot
 * @cq: the ring
 *
 * The valid-bit polarity flips each time the head wraps.
 */
static void irdma_cq_ring_advance(struct irdma_cq_ring *cq)
{
	if (++cq->head == cq->size) {
		cq->head = 0;
		cq->polarity ^= 1;
	}
}

/**
 * irdma_ilq_drain() - consume every CQE the ILQ's CQ holds
 * @rf: RDMA function
 *
 * Context: the IRQ thread of CEQ 0.
 */
static void irdma_ilq_drain(struct irdma_pci_f *rf)
{
	struct irdma_ilq *ilq = &rf->ilq;
	struct irdma_cq_ring *cq = &ilq->cq;
	struct irdma_cqe *ring = cq->mem.va;
	unsigned long flags;

	for (;;) {
		struct irdma_cqe *cqe = &ring[cq->head], *ext = NULL;
		u64 hdr = le64_to_cpu(READ_ONCE(cqe->qw[IRDMA_CQE_HDR]));
		u32 idx;

		if (FIELD_GET(IRDMA_CQE_QW3_VALID, hdr) != cq->polarity)
			break;
		dma_rmb();
		if (FIELD_GET(IRDMA_CQE_QW3_EXTCQE, hdr)) {
			u32 next = cq->head + 1;
			u8 pol = cq->polarity;
			u64 ehdr;

			if (next == cq->size) {
				next = 0;
				pol ^= 1;
			}
			ext = &ring[next];
			ehdr = le64_to_cpu(READ_ONCE(ext->qw[IRDMA_CQE_HDR]));
			if (FIELD_GET(IRDMA_CQE_EXT_QW3_VALID, ehdr) != pol)
				break;	/* the extension is not written yet */
			dma_rmb();
		}
		idx = FIELD_GET(IRDMA_CQE_QW3_WQEIDX, hdr);
		if (idx >= ilq->size) {
			dev_err_ratelimited(rf->dma_dev,
					    "ILQ CQE names WQE %u of %u\n", idx,
					    ilq->size);
		} else if (FIELD_GET(IRDMA_CQE_QW3_SQ, hdr)) {
			spin_lock_irqsave(&ilq->lock, flags);
			ilq->sq_tail = (idx + 1) % ilq->size;
			spin_unlock_irqrestore(&ilq->lock, flags);
		} else {
			irdma_ilq_rx(rf, cqe, ext, idx);
			irdma_ilq_post_rx(ilq, idx, false);
		}
		irdma_cq_ring_advance(cq);
		if (ext)
			irdma_cq_ring_advance(cq);
		/* tell the adapter how far we consumed */
		WRITE_ONCE(cq->shadow[IRDMA_CQ_SHADOW_QW0],
			   le64_encode_bits(cq->head, IRDMA_CQ_SHADOW_QW0_CQEIDX));
	}
}

/**
 * irdma_ilq_process() - drain the ILQ's CQ and re-arm it
 * @rf: RDMA function
 *
 * The adapter posts a CEQE only for a CQE written while the CQ is armed,
 * so a frame that lands between the last look and the arm would wait for
 * the next one (and the peer's retransmission).  The ring is looked at
 * once more after the arm; a CQE found there also raised an event, which
 * finds nothing left and arms again.
 *
 * Context: the IRQ thread of CEQ 0.
 */
void irdma_ilq_process(struct irdma_pci_f *rf)
{
	struct irdma_ilq *ilq = &rf->ilq;

	if (!READ_ONCE(ilq->cq_created))
		return;
	irdma_ilq_drain(rf);
	irdma_cq_ring_arm(rf, &ilq->cq, false);
	irdma_ilq_drain(rf);
}
