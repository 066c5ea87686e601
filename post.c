// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * irdma - the kernel data path: SQ and RQ work requests of kernel QPs
 * (their WQEs are encoded in wqe.c), polling and arming kernel CQs.
 *
 * SQ rules: WQEs are 1..8 quanta of 32 bytes; one never crosses an
 * 8-quantum chunk (NOPs pad); 258 quanta stay free; the valid bit of the
 * current lap is written last, in the header.  The first three quanta
 * are the connection WQEs the offload writes.  The adapter completes
 * sends in order; a CQE names the first quantum of the WQE it completes
 * and retires the unsignaled ones before it.
 */
#include <linux/irq.h>
#include <rdma/ib_verbs.h>

#include "irdma.h"
#include "ctrl.h"
#include "wqe.h"

/**
 * irdma_sq_wqe() - a quantum of the SQ ring
 * @k: kernel QP state
 * @idx: quantum index
 *
 * Return: the quantum.
 */
static struct irdma_wqe *irdma_sq_wqe(struct irdma_kqp *k, u32 idx)
{
	return &k->sq[idx];
}

/**
 * irdma_sq_used() - quanta between tail and head
 * @k: kernel QP state
 *
 * Return: quanta in use.
 */
static u32 irdma_sq_used(const struct irdma_kqp *k)
{
	return (k->sq_head + k->sq_size - k->sq_tail) % k->sq_size;
}

/**
 * irdma_sq_advance() - move the SQ head past @n quanta
 * @k: kernel QP state
 * @n: quanta
 *
 * The valid bit flips each time the head wraps to 0.
 */
static void irdma_sq_advance(struct irdma_kqp *k, u32 n)
{
	k->sq_head += n;
	if (k->sq_head >= k->sq_size) {
		k->sq_head -= k->sq_size;
		k->sq_pol ^= 1;
	}
}

/**
 * irdma_sq_get() - reserve room for a WQE of @quanta, padding with NOPs
 * @k: kernel QP state
 * @quanta: quanta of the WQE
 *
 * Context: k->lock held.
 * Return: the first quantum's index, or -ENOMEM if the SQ is full.
 */
static int irdma_sq_get(struct irdma_kqp *k, u32 quanta)
{
	u32 pad = 0, idx;

	lockdep_assert_held(&k->lock);
	if (k->sq_head % IRDMA_MAX_QUANTA_PER_WR + quanta > IRDMA_MAX_QUANTA_PER_WR)
		pad = IRDMA_MAX_QUANTA_PER_WR -
		      k->sq_head % IRDMA_MAX_QUANTA_PER_WR;
	if (irdma_sq_used(k) + pad + quanta >= k->sq_size - IRDMA_SQ_RSVD + 2)
		return -ENOMEM;
	while (pad--) {
		struct irdma_wqe *nop = irdma_sq_wqe(k, k->sq_head);
		u64 hdr = irdma_wqe_nop(nop, k->sq_pol);

		k->sq_wrs[k->sq_head] = (struct irdma_sq_wr){
			.quanta = 1, .op = IRDMA_WQE_OP_NOP };
		irdma_wqe_publish(nop, hdr);
		irdma_sq_advance(k, 1);
	}
	idx = k->sq_head;
	return idx;
}

/**
 * irdma_post_one() - build one send WQE
 * @iwqp: kernel QP
 * @wr: the work request
 *
 * Context: k->lock held.
 * Return: 0, -EINVAL for a request the QP cannot carry, -ENOMEM when the
 * SQ is full.
 */
static int irdma_post_one(struct irdma_qp *iwqp, const struct ib_send_wr *wr)
{
	struct irdma_kqp *k = iwqp->k;
	bool signaled = k->sig_all || (wr->send_flags & IB_SEND_SIGNALED);
	struct irdma_wqe_plan plan;
	struct irdma_wqe *wqe;
	u64 hdr = 0;
	int idx, ret;

	ret = irdma_wqe_plan(wr, &plan);
	if (ret)
		return ret;
	idx = irdma_sq_get(k, plan.quanta);
	if (idx < 0)
		return idx;
	wqe = irdma_sq_wqe(k, idx);
	memset(wqe, 0, plan.quanta * sizeof(*wqe));
	if (wr->opcode == IB_WR_REG_MR)
		hdr = irdma_frwqe_fill(iwqp, reg_wr(wr), wqe);
	hdr |= irdma_wqe_send(wqe, wr, &plan, k->sq_pol, signaled);
	k->sq_wrs[idx] = (struct irdma_sq_wr){
		.wr_id = wr->wr_id,
		.len = plan.len,
		.quanta = plan.quanta,
		.op = plan.op,
		.signaled = signaled,
	};
	irdma_wqe_publish(wqe, hdr);
	irdma_sq_advance(k, plan.quanta);
	return 0;
}

/**
 * irdma_kcq_kick() - have a kernel CQ's consumer told, where its events go
 * @cq: kernel CQ
 *
 * Completions the driver makes are signalled on the CPU that takes the
 * CQ's vector, as the adapter's are: consumers that map their queues to
 * vectors (ib_get_vector_affinity()) find them there.
 *
 * Context: any.
 */
static void irdma_kcq_kick(struct irdma_cq *cq)
{
	struct irdma_pci_f *rf = to_iwdev(cq->ibcq.device)->rf;
	const struct cpumask *m;
	int cpu = WORK_CPU_UNBOUND;

	m = irq_get_effective_affinity_mask(rf->ceqs[cq->ceq_id].vec->irq);
	if (m) {
		cpu = cpumask_first_and(m, cpu_online_mask);
		if (cpu >= nr_cpu_ids)
			cpu = WORK_CPU_UNBOUND;
	}
	queue_work_on(cpu, system_highpri_wq, &cq->k->notify);
}

/**
 * irdma_kqp_kick() - tell a flushed kernel QP's CQs about new completions
 * @iwqp: kernel QP
 *
 * Context: any.
 */
static void irdma_kqp_kick(struct irdma_qp *iwqp)
{
	struct irdma_cq *scq = to_icq(iwqp->ibqp.send_cq);
	struct irdma_cq *rcq = to_icq(iwqp->ibqp.recv_cq);

	irdma_kcq_kick(scq);
	if (rcq != scq)
		irdma_kcq_kick(rcq);
}

/**
 * irdma_post_send() - post send work requests on a kernel QP
 * @ibqp: QP
 * @wr: the chain
 * @bad_wr: the first request not posted
 *
 * On a flushed QP the requests complete with flush errors
 * (irdma_poll_flushed()).
 *
 * Context: any.
 * Return: 0 or a negative errno.
 */
int irdma_post_send(struct ib_qp *ibqp, const struct ib_send_wr *wr,
		    const struct ib_send_wr **bad_wr)
{
	struct irdma_qp *iwqp = to_iwqp(ibqp);
	struct irdma_kqp *k = iwqp->k;
	bool posted = false, flushed;
	unsigned long flags;
	int ret = 0;

	if (!k) {
		*bad_wr = wr;
		return -EINVAL;
	}
	spin_lock_irqsave(&k->lock, flags);
	for (; wr; wr = wr->next) {
		ret = irdma_post_one(iwqp, wr);
		if (ret) {
			*bad_wr = wr;
			break;
		}
		posted = true;
	}
	flushed = k->flushed;
	spin_unlock_irqrestore(&k->lock, flags);
	if (!posted)
		return ret;
	/*
	 * A QP in ERROR takes work requests and completes them with flush
	 * errors, as the adapter does after a flush; the adapter does not
	 * look at them any more, so the driver does (irdma_poll_flushed()).
	 */
	if (flushed)
		irdma_kqp_kick(iwqp);
	else
		/* the doorbell is ordered after the WQEs by the MMIO write */
		irdma_wr32(iwqp->iwdev->rf, IRDMA_REG_WQEALLOC, iwqp->id);
	return ret;
}

/**
 * irdma_post_recv() - post receive work requests on a kernel QP
 * @ibqp: QP
 * @wr: the chain
 * @bad_wr: the first request not posted
 *
 * No doorbell: the adapter finds RQ WQEs by their valid bit.  On a
 * flushed QP they complete with flush errors (irdma_poll_flushed()).
 *
 * Context: any.
 * Return: 0 or a negative errno.
 */
int irdma_post_recv(struct ib_qp *ibqp, const struct ib_recv_wr *wr,
		    const struct ib_recv_wr **bad_wr)
{
	struct irdma_qp *iwqp = to_iwqp(ibqp);
	struct irdma_kqp *k = iwqp->k;
	u32 wqe_bytes = IRDMA_WQE_QUANTUM << iwqp->rq_shift;
	bool posted = false, flushed;
	unsigned long flags;
	int ret = 0;

	if (!k) {
		*bad_wr = wr;
		return -EINVAL;
	}
	spin_lock_irqsave(&k->lock, flags);
	for (; wr; wr = wr->next) {
		struct irdma_wqe *wqe = k->rq + k->rq_head * wqe_bytes;
		u64 hdr;

		if (wr->num_sge > (1 << iwqp->rq_shift) * 2 - 1 ||
		    wr->num_sge > IRDMA_GEN2_MAX_WQ_FRAGS) {
			ret = -EINVAL;
			*bad_wr = wr;
			break;
		}
		if ((k->rq_head + 1) % k->rq_size == k->rq_tail) {
			ret = -ENOMEM;
			*bad_wr = wr;
			break;
		}
		memset(wqe, 0, wqe_bytes);
		hdr = irdma_wqe_recv(wqe, wr->sg_list, wr->num_sge, k->rq_pol);
		k->rq_wrids[k->rq_head] = wr->wr_id;
		irdma_wqe_publish(wqe, hdr);
		if (++k->rq_head == k->rq_size) {
			k->rq_head = 0;
			k->rq_pol ^= 1;
		}
		posted = true;
	}
	flushed = k->flushed;
	spin_unlock_irqrestore(&k->lock, flags);
	/* see irdma_post_send() */
	if (posted && flushed)
		irdma_kqp_kick(iwqp);
	return ret;
}

/**
 * irdma_flush_status() - work-completion status of a flush code
 * @minor: MINERR of a flush CQE
 *
 * Return: IB_WC_* status.
 */
static enum ib_wc_status irdma_flush_status(u16 minor)
{
	switch (minor) {
	case IRDMA_FLUSH_GENERAL_ERR:
		return IB_WC_WR_FLUSH_ERR;
	case IRDMA_FLUSH_PROT_ERR:
		return IB_WC_LOC_PROT_ERR;
	case IRDMA_FLUSH_REM_ACCESS_ERR:
		return IB_WC_REM_ACCESS_ERR;
	case IRDMA_FLUSH_LOC_QP_OP_ERR:
		return IB_WC_LOC_QP_OP_ERR;
	case IRDMA_FLUSH_REM_OP_ERR:
		return IB_WC_REM_OP_ERR;
	case IRDMA_FLUSH_LOC_LEN_ERR:
		return IB_WC_LOC_LEN_ERR;
	case IRDMA_FLUSH_RETRY_EXC_ERR:
		return IB_WC_RETRY_EXC_ERR;
	case IRDMA_FLUSH_MW_BIND_ERR:
		return IB_WC_MW_BIND_ERR;
	case IRDMA_FLUSH_REM_INV_REQ_ERR:
		return IB_WC_REM_INV_REQ_ERR;
	default:
		return IB_WC_FATAL_ERR;
	}
}

/**
 * irdma_wc_opcode() - work-completion opcode of a send WQE opcode
 * @op: hardware opcode
 *
 * Return: IB_WC_* opcode.
 */
static enum ib_wc_opcode irdma_wc_opcode(u8 op)
{
	switch (op) {
	case IRDMA_WQE_OP_RDMA_WRITE:
	case IRDMA_WQE_OP_RDMA_WRITE_SOL:
		return IB_WC_RDMA_WRITE;
	case IRDMA_WQE_OP_RDMA_READ:
	case IRDMA_WQE_OP_RDMA_READ_LOC_INV:
		return IB_WC_RDMA_READ;
	case IRDMA_WQE_OP_LOCAL_INVALIDATE:
		return IB_WC_LOCAL_INV;
	case IRDMA_WQE_OP_FAST_REGISTER:
		return IB_WC_REG_MR;
	default:
		return IB_WC_SEND;
	}
}

/**
 * irdma_sq_next_wr() - the oldest real WR in the SQ, skipping padding
 * @k: kernel QP state
 *
 * Context: k->lock held.
 * Return: its quantum index, or -ENOENT if the SQ is empty.
 */
static int irdma_sq_next_wr(struct irdma_kqp *k)
{
	lockdep_assert_held(&k->lock);
	while (k->sq_tail != k->sq_head) {
		struct irdma_sq_wr *w = &k->sq_wrs[k->sq_tail];

		if (w->op != IRDMA_WQE_OP_NOP)
			return k->sq_tail;
		k->sq_tail = (k->sq_tail + 1) % k->sq_size;
	}
	return -ENOENT;
}

/**
 * irdma_poll_one() - turn one CQE into a work completion
 * @cq: kernel CQ
 * @cqe: the CQE (valid)
 * @ext: its extended CQE (EXTCQE: the next slot), or NULL
 * @wc: filled in
 * @consume: set to false when the CQE must be reported again (a flush
 *	CQE stands for every WR left in its queue)
 *
 * Context: cq->k->lock held.
 * Return: true if @wc was filled.
 */
static bool irdma_poll_one(struct irdma_cq *cq, struct irdma_cqe *cqe,
			   const struct irdma_cqe *ext, struct ib_wc *wc,
			   bool *consume)
{
	struct irdma_pci_f *rf = to_iwdev(cq->ibcq.device)->rf;
	u64 hdr = le64_to_cpu(cqe->qw[IRDMA_CQE_HDR]);
	u32 qpn = le64_get_bits(cqe->qw[IRDMA_CQE_QW2], IRDMA_CQE_QW2_QPID);
	bool err = FIELD_GET(IRDMA_CQE_QW3_ERROR, hdr);
	u16 major = FIELD_GET(IRDMA_CQE_QW3_MAJERR, hdr);
	u16 minor = FIELD_GET(IRDMA_CQE_QW3_MINERR, hdr);
	u32 idx = FIELD_GET(IRDMA_CQE_QW3_WQEIDX, hdr);
	bool flush = err && major == IRDMA_FLUSH_MAJOR_ERR;
	struct irdma_qp *iwqp;
	struct irdma_kqp *k;
	bool filled = false;

	*consume = true;
	/* a scrubbed CQE of a destroyed QP */
	if (!le64_to_cpu(cqe->qw[IRDMA_CQE_COMPCTX]))
		return false;
	iwqp = xa_load(&rf->qp_table, qpn);
	if (!iwqp || !iwqp->k)
		return false;
	k = iwqp->k;
	memset(wc, 0, sizeof(*wc));
	wc->qp = &iwqp->ibqp;
	wc->status = !err ? IB_WC_SUCCESS :
		     flush ? irdma_flush_status(minor) : IB_WC_GENERAL_ERR;
	wc->vendor_err = err ? (u32)major << 16 | minor : 0;

	spin_lock(&k->lock);
	if (FIELD_GET(IRDMA_CQE_QW3_SQ, hdr)) {
		int at = flush ? irdma_sq_next_wr(k) : idx;
		struct irdma_sq_wr *w;

		if (at < 0 || at >= k->sq_size)
			goto out;
		w = &k->sq_wrs[at];
		wc->wr_id = w->wr_id;
		wc->opcode = irdma_wc_opcode(w->op);
		wc->byte_len = w->len;
		k->sq_tail = (at + w->quanta) % k->sq_size;
		filled = !(!flush && !err && !w->signaled);
		if (flush) {
			/* the rest of the queue: plain flush errors */
			if (irdma_sq_next_wr(k) >= 0) {
				*consume = false;
				cqe->qw[IRDMA_CQE_HDR] = cpu_to_le64((hdr &
					~IRDMA_CQE_QW3_MINERR) |
					FIELD_PREP(IRDMA_CQE_QW3_MINERR,
						   IRDMA_FLUSH_GENERAL_ERR));
			}
		}
	} else {
		u32 at = flush ? k->rq_tail : idx >> iwqp->rq_shift;

		if (flush && k->rq_tail == k->rq_head)
			goto out;
		if (at >= k->rq_size)
			goto out;
		wc->wr_id = k->rq_wrids[at];
		wc->opcode = IB_WC_RECV;
		wc->byte_len = le64_get_bits(cqe->qw[IRDMA_CQE_QW0],
					     IRDMA_CQE_QW0_PAYLDLEN);
		/* iWARP has immediate data after an RDMA Write only */
		if (ext && !err && le64_get_bits(ext->qw[IRDMA_CQE_HDR],
						 IRDMA_CQE_EXT_QW3_IMMVALID)) {
			u64 imm = le64_to_cpu(ext->qw[IRDMA_CQE_EXT_QW0]);

			wc->opcode = IB_WC_RECV_RDMA_WITH_IMM;
			wc->wc_flags |= IB_WC_WITH_IMM;
			wc->ex.imm_data = cpu_to_be32(lower_32_bits(imm));
		}
		if (FIELD_GET(IRDMA_CQE_QW3_STAG, hdr)) {
			wc->wc_flags |= IB_WC_WITH_INVALIDATE;
			wc->ex.invalidate_rkey =
				le64_get_bits(cqe->qw[IRDMA_CQE_QW2],
					      IRDMA_CQE_QW2_INVSTAG);
		}
		k->rq_tail = (at + 1) % k->rq_size;
		filled = true;
		if (flush && k->rq_tail != k->rq_head) {
			*consume = false;
			cqe->qw[IRDMA_CQE_HDR] = cpu_to_le64((hdr &
				~IRDMA_CQE_QW3_MINERR) |
				FIELD_PREP(IRDMA_CQE_QW3_MINERR,
					   IRDMA_FLUSH_GENERAL_ERR));
		}
	}
out:
	spin_unlock(&k->lock);
	return filled;
}

/**
 * irdma_flush_wc() - a flush-error work completion
 * @wc: filled in
 * @iwqp: the QP
 * @wr_id: the work request's id
 * @opcode: IB_WC_* opcode of the work request
 */
static void irdma_flush_wc(struct ib_wc *wc, struct irdma_qp *iwqp, u64 wr_id,
			   enum ib_wc_opcode opcode)
{
	memset(wc, 0, sizeof(*wc));
	wc->wr_id = wr_id;
	wc->qp = &iwqp->ibqp;
	wc->opcode = opcode;
	wc->status = IB_WC_WR_FLUSH_ERR;
	wc->vendor_err = (u32)IRDMA_FLUSH_MAJOR_ERR << 16 |
			 IRDMA_FLUSH_GENERAL_ERR;
}

/**
 * irdma_poll_flushed() - flush completions of the flushed QPs of a CQ
 * @cq: kernel CQ whose ring is empty
 * @wc: completions
 * @max: capacity of @wc
 *
 * The adapter completes what a QP held when it was flushed; work requests
 * posted later (or left by the flush) are the driver's to complete, oldest
 * first.  Called only once the ring is empty, so they come after every
 * completion the adapter wrote for the QP.
 *
 * Context: cq->k->lock held.
 * Return: completions written.
 */
static int irdma_poll_flushed(struct irdma_cq *cq, struct ib_wc *wc, int max)
{
	struct irdma_kcq *kcq = cq->k;
	struct irdma_kqp *k;
	int n = 0;

	lockdep_assert_held(&kcq->lock);
	list_for_each_entry(k, &kcq->flushed_sq, sq_flush) {
		spin_lock(&k->lock);
		while (n < max) {
			int at = irdma_sq_next_wr(k);
			struct irdma_sq_wr *w;

			if (at < 0)
				break;
			w = &k->sq_wrs[at];
			irdma_flush_wc(&wc[n++], k->iwqp, w->wr_id,
				       irdma_wc_opcode(w->op));
			k->sq_tail = (at + w->quanta) % k->sq_size;
		}
		spin_unlock(&k->lock);
	}
	list_for_each_entry(k, &kcq->flushed_rq, rq_flush) {
		spin_lock(&k->lock);
		while (n < max && k->rq_tail != k->rq_head) {
			irdma_flush_wc(&wc[n++], k->iwqp, k->rq_wrids[k->rq_tail],
				       IB_WC_RECV);
			k->rq_tail = (k->rq_tail + 1) % k->rq_size;
		}
		spin_unlock(&k->lock);
	}
	return n;
}

/**
 * irdma_cqe_ready() - the adapter has written the CQE at a ring's head
 * @r: ring
 *
 * Return: true if the CQE's valid bit is the current lap's.
 */
static bool irdma_cqe_ready(const struct irdma_cq_ring *r)
{
	const struct irdma_cqe *cqe = (struct irdma_cqe *)r->mem.va + r->head;

	return le64_get_bits(READ_ONCE(cqe->qw[IRDMA_CQE_HDR]),
			     IRDMA_CQE_QW3_VALID) == r->polarity;
}

/**
 * irdma_ring_step() - move a ring's head past one slot
 * @r: ring
 */
static void irdma_ring_step(struct irdma_cq_ring *r)
{
	if (++r->head == r->size) {
		r->head = 0;
		r->polarity ^= 1;
	}
}

/**
 * irdma_cqe_ext() - the extended CQE that follows the one at a ring's head
 * @r: ring, its head CQE valid
 * @cqe: that CQE
 *
 * The adapter writes a CQE with EXTCQE and its extension in the next slot
 * together (the first one's header last), so the extension is valid once
 * the CQE is; its valid bit is that of its own slot's lap.
 *
 * Return: the extension, NULL without EXTCQE or when it is not valid.
 */
static const struct irdma_cqe *irdma_cqe_ext(const struct irdma_cq_ring *r,
					     const struct irdma_cqe *cqe)
{
	const struct irdma_cqe *ext;
	u32 at = r->head + 1;
	u8 pol = r->polarity;

	if (!le64_get_bits(cqe->qw[IRDMA_CQE_HDR], IRDMA_CQE_QW3_EXTCQE))
		return NULL;
	if (at == r->size) {
		at = 0;
		pol ^= 1;
	}
	ext = (struct irdma_cqe *)r->mem.va + at;
	if (le64_get_bits(READ_ONCE(ext->qw[IRDMA_CQE_HDR]),
			  IRDMA_CQE_EXT_QW3_VALID) != pol)
		return NULL;
	return ext;
}

/**
 * irdma_poll_ring() - reap the completions of one ring of a kernel CQ
 * @cq: CQ
 * @r: its current ring, or the ring before its last resize
 * @num_entries: capacity of @wc
 * @wc: completions
 * @empty: set when polling stopped at a CQE not yet written
 *
 * The adapter reads the consumer's index from the shadow area of the
 * current ring only.
 *
 * Context: cq->k->lock held.
 * Return: completions reaped.
 */
static int irdma_poll_ring(struct irdma_cq *cq, struct irdma_cq_ring *r,
			   int num_entries, struct ib_wc *wc, bool *empty)
{
	struct irdma_cqe *ring = r->mem.va;
	bool shadowed = r == &cq->k->ring;
	int n = 0;

	lockdep_assert_held(&cq->k->lock);
	*empty = false;
	while (n < num_entries) {
		struct irdma_cqe *cqe = &ring[r->head];
		const struct irdma_cqe *ext;
		bool consume;

		if (!irdma_cqe_ready(r)) {
			*empty = true;
			break;
		}
		/* read the CQE body only after seeing it valid */
		dma_rmb();
		ext = irdma_cqe_ext(r, cqe);
		if (irdma_poll_one(cq, cqe, ext, &wc[n], &consume))
			n++;
		if (!consume)
			continue;
		if (le64_get_bits(cqe->qw[IRDMA_CQE_HDR], IRDMA_CQE_QW3_EXTCQE))
			irdma_ring_step(r);
		irdma_ring_step(r);
		if (shadowed)
			WRITE_ONCE(r->shadow[IRDMA_CQ_SHADOW_QW0],
				   le64_encode_bits(r->head,
						    IRDMA_CQ_SHADOW_QW0_CQEIDX));
	}
	return n;
}

/**
 * irdma_poll_cq() - reap completions of a kernel CQ
 * @ibcq: CQ
 * @num_entries: capacity of @wc
 * @wc: completions
 *
 * After a resize, what the adapter wrote into the old ring comes first.
 *
 * Context: any.
 * Return: completions reaped.
 */
int irdma_poll_cq(struct ib_cq *ibcq, int num_entries, struct ib_wc *wc)
{
	struct irdma_cq *cq = container_of(ibcq, struct irdma_cq, ibcq);
	struct irdma_kcq *kcq = cq->k;
	unsigned long flags;
	bool empty;
	int n = 0;

	if (!kcq)
		return -EINVAL;
	spin_lock_irqsave(&kcq->lock, flags);
	if (kcq->old_live) {
		n = irdma_poll_ring(cq, &kcq->old, num_entries, wc, &empty);
		/* the adapter writes there no more */
		kcq->old_live = !empty;
	}
	if (n < num_entries)
		n += irdma_poll_ring(cq, &kcq->ring, num_entries - n, wc + n,
				     &empty);
	if (n < num_entries)
		n += irdma_poll_flushed(cq, wc + n, num_entries - n);
	spin_unlock_irqrestore(&kcq->lock, flags);
	return n;
}

/**
 * irdma_kcq_flush_pending() - a flushed QP of the CQ holds work requests
 * @kcq: kernel CQ
 *
 * Context: kcq->lock held.
 * Return: true if irdma_poll_flushed() would complete something.
 */
static bool irdma_kcq_flush_pending(struct irdma_kcq *kcq)
{
	struct irdma_kqp *k;
	bool more = false;

	lockdep_assert_held(&kcq->lock);
	list_for_each_entry(k, &kcq->flushed_sq, sq_flush) {
		spin_lock(&k->lock);
		more = irdma_sq_next_wr(k) >= 0;
		spin_unlock(&k->lock);
		if (more)
			return true;
	}
	list_for_each_entry(k, &kcq->flushed_rq, rq_flush) {
		spin_lock(&k->lock);
		more = k->rq_tail != k->rq_head;
		spin_unlock(&k->lock);
		if (more)
			return true;
	}
	return false;
}

/**
 * irdma_kcq_notify() - run an armed kernel CQ's completion handler
 * @cq: kernel CQ
 *
 * For completions the driver makes (a flushed QP): the adapter raises no
 * event for those.  The handler runs only if the consumer armed the CQ
 * since the last event, as with the adapter's events.
 *
 * Context: process context (the CQ's notify work).
 */
static void irdma_kcq_notify(struct irdma_cq *cq)
{
	struct irdma_kcq *kcq = cq->k;
	unsigned long flags;
	bool armed;

	spin_lock_irqsave(&kcq->lock, flags);
	armed = kcq->armed && irdma_kcq_flush_pending(kcq);
	if (armed)
		kcq->armed = false;
	spin_unlock_irqrestore(&kcq->lock, flags);
	if (armed && cq->ibcq.comp_handler)
		cq->ibcq.comp_handler(&cq->ibcq, cq->ibcq.cq_context);
}

/**
 * irdma_kcq_notify_work() - a kernel CQ's notify work
 * @work: the CQ's notify
 *
 * Context: process context (system_highpri_wq, on the CPU of the CQ's
 * vector); the CQ's destroy cancels it.
 */
void irdma_kcq_notify_work(struct work_struct *work)
{
	irdma_kcq_notify(container_of(work, struct irdma_kcq, notify)->cq);
}

/**
 * irdma_kqp_list_flushed() - put one queue of a flushed QP on its CQ's list
 * @cq: the send or receive CQ
 * @node: the QP's sq_flush or rq_flush
 * @head: the CQ's flushed_sq or flushed_rq
 * @k: the QP's kernel state
 */
static void irdma_kqp_list_flushed(struct irdma_cq *cq, struct list_head *node,
				   struct list_head *head, struct irdma_kqp *k)
{
	unsigned long flags;

	spin_lock_irqsave(&cq->k->lock, flags);
	spin_lock(&k->lock);
	k->flushed = true;
	spin_unlock(&k->lock);
	if (list_empty(node))
		list_add_tail(node, head);
	spin_unlock_irqrestore(&cq->k->lock, flags);
}

/**
 * irdma_kqp_flushed() - the adapter has flushed a kernel QP
 * @iwqp: QP in ERROR; FLUSH_WQES has completed
 *
 * From now on the driver completes the QP's work requests with flush
 * errors: what the adapter's flush did not cover and all that is posted
 * later, as ib_drain_qp() and every ULP's teardown expect.  Idempotent.
 *
 * Context: process context; iwqp->state_lock held.
 */
void irdma_kqp_flushed(struct irdma_qp *iwqp)
{
	struct irdma_kqp *k = iwqp->k;

	lockdep_assert_held(&iwqp->state_lock);
	if (!k)
		return;
	irdma_kqp_list_flushed(to_icq(iwqp->ibqp.send_cq), &k->sq_flush,
			       &to_icq(iwqp->ibqp.send_cq)->k->flushed_sq, k);
	irdma_kqp_list_flushed(to_icq(iwqp->ibqp.recv_cq), &k->rq_flush,
			       &to_icq(iwqp->ibqp.recv_cq)->k->flushed_rq, k);
	irdma_kqp_kick(iwqp);
}

/**
 * irdma_kqp_forget() - take a kernel QP being destroyed off its CQs' lists
 * @iwqp: QP; nothing posts any more
 */
void irdma_kqp_forget(struct irdma_qp *iwqp)
{
	struct irdma_cq *scq = to_icq(iwqp->ibqp.send_cq);
	struct irdma_cq *rcq = to_icq(iwqp->ibqp.recv_cq);
	struct irdma_kqp *k = iwqp->k;
	unsigned long flags;

	if (!k)
		return;
	spin_lock_irqsave(&scq->k->lock, flags);
	list_del_init(&k->sq_flush);
	spin_unlock_irqrestore(&scq->k->lock, flags);
	spin_lock_irqsave(&rcq->k->lock, flags);
	list_del_init(&k->rq_flush);
	spin_unlock_irqrestore(&rcq->k->lock, flags);
}

/**
 * irdma_req_notify_cq() - ask for a completion event on a kernel CQ
 * @ibcq: CQ
 * @flags: IB_CQ_SOLICITED or IB_CQ_NEXT_COMP, IB_CQ_REPORT_MISSED_EVENTS
 *
 * Context: any.
 * Return: 0, or 1 if completions are already waiting and the caller asked
 * to know (IB_CQ_REPORT_MISSED_EVENTS), -EINVAL for a user CQ.
 */
int irdma_req_notify_cq(struct ib_cq *ibcq, enum ib_cq_notify_flags flags)
{
	struct irdma_cq *cq = container_of(ibcq, struct irdma_cq, ibcq);
	struct irdma_kcq *kcq = cq->k;
	unsigned long irqflags;
	int ret = 0;

	if (!kcq)
		return -EINVAL;
	spin_lock_irqsave(&kcq->lock, irqflags);
	kcq->armed = true;
	kcq->arm_solicited = (flags & IB_CQ_SOLICITED_MASK) == IB_CQ_SOLICITED;
	irdma_cq_ring_arm(to_iwdev(ibcq->device)->rf, &kcq->ring,
			  kcq->arm_solicited);
	if ((flags & IB_CQ_REPORT_MISSED_EVENTS) &&
	    ((kcq->old_live && irdma_cqe_ready(&kcq->old)) ||
	     irdma_cqe_ready(&kcq->ring) || irdma_kcq_flush_pending(kcq)))
		ret = 1;
	spin_unlock_irqrestore(&kcq->lock, irqflags);
	return ret;
}

/**
 * irdma_ring_scrub() - zero the context of a QP's CQEs in one ring
 * @r: ring
 * @qpn: the QP
 *
 * Context: the CQ's kcq->lock held.
 */
static void irdma_ring_scrub(struct irdma_cq_ring *r, u32 qpn)
{
	struct irdma_cqe *ring = r->mem.va;
	u32 i, head = r->head;
	u8 pol = r->polarity;

	for (i = 0; i < r->size; i++) {
		struct irdma_cqe *cqe = &ring[head];
		u64 hdr = le64_to_cpu(cqe->qw[IRDMA_CQE_HDR]);

		if (FIELD_GET(IRDMA_CQE_QW3_VALID, hdr) != pol)
			break;
		if (le64_get_bits(cqe->qw[IRDMA_CQE_QW2],
				  IRDMA_CQE_QW2_QPID) == qpn)
			cqe->qw[IRDMA_CQE_COMPCTX] = 0;
		if (++head == r->size) {
			head = 0;
			pol ^= 1;
		}
	}
}

/**
 * irdma_cq_scrub() - forget the CQEs of a QP being destroyed
 * @cq: kernel CQ
 * @qpn: the QP
 *
 * Completions already written for it, in the ring and in the one before
 * the last resize, are left in place with a zero context, which polling
 * skips.
 */
void irdma_cq_scrub(struct irdma_cq *cq, u32 qpn)
{
	struct irdma_kcq *kcq = cq->k;
	unsigned long flags;

	if (!kcq)
		return;
	spin_lock_irqsave(&kcq->lock, flags);
	if (kcq->old_live)
		irdma_ring_scrub(&kcq->old, qpn);
	irdma_ring_scrub(&kcq->ring, qpn);
	spin_unlock_irqrestore(&kcq->lock, flags);
}
