// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * irdma_sim - what an iWARP QP's engine tells the driver and takes from
 * it: AEs, CQEs (in SQ order for the send side), the receive WQEs it
 * consumes, STag invalidation, and the close of the connection as TCP
 * reports it.  Both halves of the engine call these: the QP's life cycle
 * and send queue (qp.c) and the wire protocol (ddp.c).
 */

#include <linux/bitfield.h>

#include "iw.h"

/**
 * irdma_sim_iw_ae() - post an AE about the QP
 * @iw: engine
 * @code: AE code
 * @src: AE source
 *
 * The AEQE says whether a frame was copied into the QP's Q2 for the
 * driver (irdma_sim_iw_q2_frame()) since the last AE.
 */
void irdma_sim_iw_ae(struct irdma_sim_iw *iw, u32 code, u32 src)
{
	struct irdma_sim *sim = iw->sim;
	struct irdma_sim_qp *qp = iw->qp;
	unsigned long flags;

	spin_lock_irqsave(&sim->lock, flags);
	if (irdma_sim_iw_live(iw))
		irdma_sim_qp_ae(sim, qp, code, src, iw->q2_data);
	iw->q2_data = false;
	spin_unlock_irqrestore(&sim->lock, flags);
}

/**
 * irdma_sim_iw_fail() - stop the QP on an error and report it in an AE
 * @iw: engine
 * @ae: AE code
 * @src: AE source
 *
 * Nothing goes to the peer here: for an error it must hear of, the driver
 * builds a TERMINATE and moves the QP to TERMINATE.
 */
void irdma_sim_iw_fail(struct irdma_sim_iw *iw, u32 ae, u32 src)
{
	if (iw->err)
		return;
	iw->err = true;
	dev_dbg_ratelimited(&iw->sim->dev, "QP %u: error: AE %#x\n", iw->qpn,
			    ae);
	irdma_sim_iw_ae(iw, ae, src);
}

/**
 * irdma_sim_iw_cqe_ext() - write a CQE for the QP, extended or not
 * @iw: engine
 * @sq: SQ completion (send CQ), else RQ (receive CQ)
 * @qw0: word 0 (payload length)
 * @qw2_extra: word 2 bits besides the QP id (invalidated STag)
 * @hdr: word 3 without the valid bit
 * @solicited: solicited or error CQE (ARM_NEXT_SE)
 * @ext: the extended CQE to follow it in the next slot (EXTCQE), or NULL
 *
 * Return: 0, or a negative errno when the CQE was lost (CQ full or gone).
 */
static int irdma_sim_iw_cqe_ext(struct irdma_sim_iw *iw, bool sq, u64 qw0,
				u64 qw2_extra, u64 hdr, bool solicited,
				const struct irdma_cqe *ext)
{
	struct irdma_sim *sim = iw->sim;
	struct irdma_sim_qp *qp = iw->qp;
	struct irdma_cqe cqe[2] = {};
	struct irdma_sim_cq *cq;
	unsigned long flags;
	int ret = -ENODEV;

	if (ext) {
		hdr |= IRDMA_CQE_QW3_EXTCQE;
		cqe[1] = *ext;
	}
	cqe[0].qw[IRDMA_CQE_QW0] = cpu_to_le64(qw0);
	cqe[0].qw[IRDMA_CQE_COMPCTX] = cpu_to_le64(qp->comp_ctx);
	cqe[0].qw[IRDMA_CQE_QW2] =
		cpu_to_le64(FIELD_PREP(IRDMA_CQE_QW2_QPID, qp->id) | qw2_extra);
	cqe[0].qw[IRDMA_CQE_HDR] = cpu_to_le64(hdr | (sq ? IRDMA_CQE_QW3_SQ : 0));
	spin_lock_irqsave(&sim->lock, flags);
	if (irdma_sim_iw_live(iw)) {
		cq = irdma_sim_cq_get(sim, sq ? qp->txcq : qp->rxcq);
		ret = cq ? irdma_sim_cq_post_n(sim, cq, cqe, ext ? 2 : 1,
					       solicited) : -ENOENT;
	}
	spin_unlock_irqrestore(&sim->lock, flags);
	if (!ret)
		iw->stats.cqes++;
	return ret;
}

/**
 * irdma_sim_iw_cqe() - write a CQE for the QP
 * @iw: engine
 * @sq: SQ completion (send CQ), else RQ (receive CQ)
 * @qw0: word 0 (payload length)
 * @qw2_extra: word 2 bits besides the QP id (invalidated STag)
 * @hdr: word 3 without the valid bit
 * @solicited: solicited or error CQE (ARM_NEXT_SE)
 *
 * Return: 0, or a negative errno when the CQE was lost (CQ full or gone).
 */
int irdma_sim_iw_cqe(struct irdma_sim_iw *iw, bool sq, u64 qw0,
		     u64 qw2_extra, u64 hdr, bool solicited)
{
	return irdma_sim_iw_cqe_ext(iw, sq, qw0, qw2_extra, hdr, solicited,
				    NULL);
}

/**
 * irdma_sim_iw_retire() - write the CQEs of finished WQEs, in SQ order
 * @iw: engine
 *
 * Return: true when something was retired.
 */
bool irdma_sim_iw_retire(struct irdma_sim_iw *iw)
{
	struct irdma_sim_iw_pend *p;
	bool any = false;

	while (iw->pend_cnt) {
		p = &iw->pend[iw->pend_head];
		if (!p->done)
			break;
		if (p->signaled)
			irdma_sim_iw_cqe(iw, true, 0, 0,
					 FIELD_PREP(IRDMA_CQE_QW3_WQEIDX, p->idx) |
					 FIELD_PREP(IRDMA_CQE_QW3_OP, p->op),
					 false);
		iw->pend_head = (iw->pend_head + 1) % iw->sq_size;
		iw->pend_cnt--;
		any = true;
	}
	return any;
}

/**
 * irdma_sim_iw_wqe_error() - complete the WQE being executed in error
 * @iw: engine
 * @slot: its completion-ring slot
 * @minor: flush code
 *
 * Earlier finished WQEs are retired first; the failing one gets a flush
 * CQE (major 1) with @minor, which the provider reports for the oldest
 * outstanding WR.
 */
void irdma_sim_iw_wqe_error(struct irdma_sim_iw *iw, u32 slot, u16 minor)
{
	struct irdma_sim_iw_pend *p = &iw->pend[slot];

	p->done = true;
	p->signaled = false;
	irdma_sim_iw_retire(iw);
	irdma_sim_iw_cqe(iw, true, 0, 0,
			 FIELD_PREP(IRDMA_CQE_QW3_WQEIDX, p->idx) |
			 FIELD_PREP(IRDMA_CQE_QW3_OP, p->op) |
			 IRDMA_CQE_QW3_ERROR |
			 FIELD_PREP(IRDMA_CQE_QW3_MAJERR, IRDMA_FLUSH_MAJOR_ERR) |
			 FIELD_PREP(IRDMA_CQE_QW3_MINERR, minor), true);
}

/**
 * irdma_sim_iw_rq_word() - a word of an RQ WQE
 * @iw: engine
 * @idx: RQ WQE index
 * @off: byte offset in the WQE (below its size)
 *
 * Return: the word in CPU order.
 */
static u64 irdma_sim_iw_rq_word(struct irdma_sim_iw *iw, u32 idx, u32 off)
{
	__le64 *q = irdma_sim_qmem_ptr(&iw->rqm,
				       ((size_t)idx << iw->rq_shift) *
				       IRDMA_WQE_QUANTUM + (off & ~31U));

	return le64_to_cpu(READ_ONCE(q[(off & 31) / 8]));
}

/**
 * irdma_sim_iw_rq_ready() - whether a receive WQE is posted at the consumer
 * @iw: engine
 *
 * Return: true if so.
 */
bool irdma_sim_iw_rq_ready(struct irdma_sim_iw *iw)
{
	/* debugfs reads the consumer index while the engine moves it */
	u32 tail = READ_ONCE(iw->rq_tail);

	return tail < iw->rq_size &&
	       FIELD_GET(IRDMA_WQE_HDR_VALID,
			 irdma_sim_iw_rq_word(iw, tail, 24)) ==
	       READ_ONCE(iw->rq_pol);
}

/**
 * irdma_sim_iw_rq_take() - take the receive WQE at the consumer index
 * @iw: engine
 *
 * Fills iw->rq (its SGEs; zero-length ones dropped) and advances.
 *
 * Return: 0, -EAGAIN when none is posted, -EINVAL for a malformed one.
 */
int irdma_sim_iw_rq_take(struct irdma_sim_iw *iw)
{
	u32 i, n, frags, wqe_bytes = IRDMA_WQE_QUANTUM << iw->rq_shift;
	u64 hdr, lo, hi;

	if (!irdma_sim_iw_rq_ready(iw))
		return -EAGAIN;
	dma_rmb();
	hdr = irdma_sim_iw_rq_word(iw, iw->rq_tail, 24);
	frags = FIELD_GET(IRDMA_WQE_HDR_ADDFRAGCNT, hdr) + 1;
	memset(&iw->rq, 0, sizeof(iw->rq));
	iw->rq.idx = iw->rq_tail;
	for (i = 0, n = 0; i < frags; i++) {
		u32 off = i ? 32 + (i - 1) * 16 : 0;

		if (off + 16 > wqe_bytes || n >= IRDMA_SIM_IW_MAX_SGE)
			return -EINVAL;
		lo = irdma_sim_iw_rq_word(iw, iw->rq_tail, off);
		hi = irdma_sim_iw_rq_word(iw, iw->rq_tail, off + 8);
		if (!FIELD_GET(IRDMA_WQE_FRAG_LEN, hi))
			continue;
		iw->rq.sge[n].to = lo;
		iw->rq.sge[n].stag = FIELD_GET(IRDMA_WQE_FRAG_STAG, hi);
		iw->rq.sge[n].len = FIELD_GET(IRDMA_WQE_FRAG_LEN, hi);
		n++;
	}
	iw->rq.nsge = n;
	iw->rq.active = true;
	/* one store of the index: debugfs reads it */
	if (iw->rq_tail + 1 == iw->rq_size) {
		WRITE_ONCE(iw->rq_pol, iw->rq_pol ^ 1);
		WRITE_ONCE(iw->rq_tail, 0);
	} else {
		WRITE_ONCE(iw->rq_tail, iw->rq_tail + 1);
	}
	iw->stats.rq_wqes++;
	return 0;
}

/**
 * irdma_sim_iw_rq_complete() - write the CQE of the receive WQE taken
 * @iw: engine
 * @se: solicited event
 * @inv: the STag invalidated by a Send with Invalidate, or 0
 * @minor: 0, or the flush code of an error completion
 */
void irdma_sim_iw_rq_complete(struct irdma_sim_iw *iw, bool se, u32 inv,
			      u16 minor)
{
	u64 hdr = FIELD_PREP(IRDMA_CQE_QW3_WQEIDX, iw->rq.idx << iw->rq_shift);

	if (se)
		hdr |= IRDMA_CQE_QW3_SOEVENT;
	if (inv)
		hdr |= IRDMA_CQE_QW3_STAG;
	if (minor)
		hdr |= IRDMA_CQE_QW3_ERROR |
		       FIELD_PREP(IRDMA_CQE_QW3_MAJERR, IRDMA_FLUSH_MAJOR_ERR) |
		       FIELD_PREP(IRDMA_CQE_QW3_MINERR, minor);
	irdma_sim_iw_cqe(iw, false,
			 FIELD_PREP(IRDMA_CQE_QW0_PAYLDLEN, iw->rq.len),
			 FIELD_PREP(IRDMA_CQE_QW2_INVSTAG, inv), hdr,
			 se || minor);
	iw->rq.active = false;
}

/**
 * irdma_sim_iw_rq_complete_imm() - complete the receive WQE taken by an
 * Immediate Data message
 * @iw: engine
 * @se: Immediate Data with Solicited Event
 * @imm: the message's 8 bytes, as a big-endian number
 *
 * The CQE is extended: the data in the extension's word 0, IMMVALID in
 * its word 3; the payload length is 0 (the Write's length is not known
 * to this end).
 */
void irdma_sim_iw_rq_complete_imm(struct irdma_sim_iw *iw, bool se, u64 imm)
{
	struct irdma_cqe ext = {};

	ext.qw[IRDMA_CQE_EXT_QW0] = cpu_to_le64(imm);
	ext.qw[IRDMA_CQE_HDR] = cpu_to_le64(IRDMA_CQE_EXT_QW3_IMMVALID);
	irdma_sim_iw_cqe_ext(iw, false, 0, 0,
			     FIELD_PREP(IRDMA_CQE_QW3_WQEIDX,
					iw->rq.idx << iw->rq_shift) |
			     (se ? IRDMA_CQE_QW3_SOEVENT : 0), se, &ext);
	iw->rq.active = false;
}

/**
 * irdma_sim_iw_invalidate() - invalidate an STag of the QP's PD
 * @iw: engine
 * @stag: STag
 * @remote: a Send with Invalidate from the peer (the MR must allow remote
 *	access)
 *
 * Return: 0 or a negative errno.
 */
int irdma_sim_iw_invalidate(struct irdma_sim_iw *iw, u32 stag, bool remote)
{
	struct irdma_sim *sim = iw->sim;
	struct irdma_sim_mr *mr;
	unsigned long flags;
	int ret = 0;

	spin_lock_irqsave(&sim->lock, flags);
	mr = xa_load(&sim->mrs, stag >> 8);
	if (!irdma_sim_iw_live(iw) || !mr || !mr->live || mr->gen != sim->gen ||
	    mr->key != (stag & 0xff) || !mr->registered)
		ret = -ENOENT;
	else if (mr->pd != iw->pd)
		ret = -EACCES;
	else if (remote && !(mr->rights & (IRDMA_ACCESS_REMOTE_READ |
					   IRDMA_ACCESS_REMOTE_WRITE)))
		ret = -EACCES;
	else
		mr->registered = false;
	spin_unlock_irqrestore(&sim->lock, flags);
	if (!ret)
		irdma_sim_gstat_add(sim, IRDMA_GSTAT_RDMA_INVALIDATES, 1);
	return ret;
}

/**
 * irdma_sim_iw_read_done() - the last response of the oldest read arrived
 * @iw: engine
 */
void irdma_sim_iw_read_done(struct irdma_sim_iw *iw)
{
	struct irdma_sim_iw_rread *rr = &iw->rreads[iw->rr_head];

	/* Read with local invalidate: the sink STag goes with the data */
	if (rr->inv && irdma_sim_iw_invalidate(iw, rr->sink_stag, false)) {
		irdma_sim_iw_wqe_error(iw, rr->pend, IRDMA_FLUSH_PROT_ERR);
		irdma_sim_iw_fail(iw, IRDMA_AE_AMP_INVALID_STAG,
				  IRDMA_AE_SOURCE_SQ);
		return;
	}
	iw->pend[rr->pend].done = true;
	iw->rr_head = (iw->rr_head + 1) % iw->ord;
	iw->rr_cnt--;
	iw->sq_blocked = false;
	irdma_sim_iw_retire(iw);
}

/**
 * irdma_sim_iw_msg_done() - the message in progress is all on the stream
 * @iw: engine
 */
void irdma_sim_iw_msg_done(struct irdma_sim_iw *iw)
{
	struct irdma_sim_iw_msg *m = &iw->msg;

	m->active = false;
	if (m->pend != U32_MAX) {
		iw->pend[m->pend].done = true;
		irdma_sim_iw_retire(iw);
	}
}

/**
 * irdma_sim_iw_close_check() - follow the socket's state: peer FIN, close
 * complete, reset
 * @iw: engine with a socket
 * @eof: recv() returned 0
 * @reset: recv() or send() saw the connection reset
 */
void irdma_sim_iw_close_check(struct irdma_sim_iw *iw, bool eof, bool reset)
{
	struct irdma_sim *sim = iw->sim;
	unsigned long flags;
	bool drained;
	u8 st;

	if (iw->closed || !iw->sock)
		return;
	st = irdma_sim_tcp_state(iw);
	/*
	 * The peer's FIN can close the socket between the engine's last
	 * recv() and this look: that is the close handshake ending, not a
	 * reset.  What came before the FIN is read first.
	 */
	if (st == IRDMA_TCPS_CLOSED && !eof && !reset &&
	    irdma_sim_tcp_fin_closed(iw, &drained)) {
		if (!drained)
			return;
		eof = true;
	}
	spin_lock_irqsave(&sim->lock, flags);
	iw->qp->tcp_state = st;
	spin_unlock_irqrestore(&sim->lock, flags);
	if (reset || (st == IRDMA_TCPS_CLOSED && !(iw->fin_sent && eof))) {
		if (!reset && !iw->fin_sent && !eof)
			return;
		if (reset || !(iw->fin_sent && iw->fin_rcvd)) {
			iw->closed = true;
			iw->phase = IRDMA_SIM_IW_DOWN;
			irdma_sim_iw_ae(iw, IRDMA_AE_LLP_CONNECTION_RESET,
					IRDMA_AE_SOURCE_RSVD);
			return;
		}
	}
	if (eof && !iw->fin_rcvd) {
		iw->fin_rcvd = true;
		if (!iw->fin_sent)
			irdma_sim_iw_ae(iw, IRDMA_AE_LLP_FIN_RECEIVED,
					IRDMA_AE_SOURCE_RSVD);
	}
	if (iw->fin_sent && iw->fin_rcvd &&
	    (st == IRDMA_TCPS_CLOSED || st == IRDMA_TCPS_TIME_WAIT)) {
		iw->closed = true;
		iw->phase = IRDMA_SIM_IW_DOWN;
		irdma_sim_iw_ae(iw, IRDMA_AE_LLP_CLOSE_COMPLETE,
				IRDMA_AE_SOURCE_RSVD);
	}
}
