// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * irdma_sim - the iWARP QP engine: life cycle, the SQ walk, flushes and
 * doorbells.  The wire formats (MPA/DDP/RDMAP) and memory
 * placement are in ddp.c; completions, asynchronous events and the
 * receive WQEs the engine takes in complete.c, which both call; the TCP
 * offload (a kernel socket restored with TCP_REPAIR) in tcp.c; iw.h
 * describes the threading.
 *
 * Life cycle.  CREATE_QP of an iWARP QP maps its SQ and RQ (host context
 * words 1-3, physically contiguous or through PBLEs when the command has
 * VQ) and allocates the engine.  MODIFY_QP to RTS with TOECTXVALID reads
 * the TCP and iWARP words of the context (ports, addresses, sequence
 * numbers, windows and scales, MSS, TTL/TOS, IRD/ORD, CRC, markers) and
 * queues the handoff; from then on the quad belongs to the QP: the
 * rx_handler holds its frames until the socket exists, then lets them
 * pass to the stack.  The SQ starts at quantum 0 with polarity 1: the
 * connection WQEs the driver wrote there (LSMM or RTR, fenced NOP,
 * GEN_RTS_AE) run first.  CLOSING sends FIN once the SQ drained; ERROR
 * stops WQE execution (RESETCON: the socket is aborted with a RST);
 * DESTROY_QP stops the engine, then releases the socket.
 *
 * SQ.  WQEs are taken at the consumer index while their valid bit
 * matches the lap polarity (1 on the first lap); their length comes from
 * the header (inline length, ADDFRAGCNT, or one quantum).  A WQE is
 * refused if it would wrap or cross an 8-quantum chunk.  LOCALFENCE waits
 * for every earlier WQE, READFENCE for earlier reads, a read for a free
 * ORD slot, everything for the peer's first FPDU after an LSMM with
 * WAITFORRCVPDU.  Completions go out in SQ order: a taken WQE waits in a
 * ring until it is done (a read: when its last response arrives); then,
 * if signaled, an SQ CQE with WQEIDX = its first quantum and OP = its
 * opcode.  Connection WQEs are unsignaled and never produce CQEs.
 *
 * Doorbells.  Kernel (privileged) QPs ring the WQEALLOC register, user
 * QPs the WQEALLOC word of the user doorbell page, whose every store the
 * model takes as the adapter takes a posted write (udb.c).  Nothing else
 * wakes an idle QP's engine for its SQ (while the engine runs for other
 * work, an arriving FPDU or a command, it takes every valid WQE at the
 * SQ's tail, announced or not).  The writer of a kernel doorbell runs the
 * engine itself when its context may sleep and no other context runs it
 * (irdma_sim_iw_doorbell()); a user doorbell's storing task runs it on
 * its way back to user space (irdma_sim_iw_run_on_return()), as siw's
 * post_send system call does.  libirdma rings after every post
 * (rdma-core 37 and later; older ones read the SQ tail the adapter keeps
 * in the QP's shadow area and rang only an SQ the adapter had caught up
 * with, so the engine writes that tail as it takes WQEs, as the adapter
 * does).
 */

#include <linux/bitfield.h>
#include <linux/delay.h>
#include <linux/sched.h>
#include <linux/sched/mm.h>
#include <linux/task_work.h>
#include <linux/log2.h>
#include <linux/seq_file.h>
#include <linux/slab.h>

#include "iw.h"

/* engines a runner takes over from the softirqs on its stack, per round */
#define IRDMA_SIM_PICKUP_MAX		4
/* rounds of that: each may hand it more (a stream of read requests) */
#define IRDMA_SIM_PICKUP_ROUNDS		4

/* ------------------------------------------------------------------------ */
/* Rings                                                                    */
/* ------------------------------------------------------------------------ */

/**
 * irdma_sim_iw_sq_word() - a word of an SQ quantum
 * @iw: engine
 * @idx: quantum
 * @w: word
 *
 * Return: the word in CPU order.
 */
static u64 irdma_sim_iw_sq_word(struct irdma_sim_iw *iw, u32 idx, u32 w)
{
	__le64 *q = irdma_sim_qmem_ptr(&iw->sqm, (size_t)idx * IRDMA_WQE_QUANTUM);

	return le64_to_cpu(READ_ONCE(q[w]));
}

/**
 * irdma_sim_iw_sq_ready() - whether a valid WQE waits at the SQ consumer
 * @iw: engine
 *
 * Return: true if so.
 */
static bool irdma_sim_iw_sq_ready(struct irdma_sim_iw *iw)
{
	/* debugfs reads the consumer index while the engine moves it */
	u32 tail = READ_ONCE(iw->sq_tail);

	return tail < iw->sq_size &&
	       FIELD_GET(IRDMA_WQE_HDR_VALID,
			 irdma_sim_iw_sq_word(iw, tail, IRDMA_WQE_HDR)) ==
	       READ_ONCE(iw->sq_pol);
}

/**
 * irdma_sim_iw_ring() - a doorbell announced SQ work of this QP
 * @iw: engine
 *
 * Context: sim->lock held.
 */
static void irdma_sim_iw_ring(struct irdma_sim_iw *iw)
{
	lockdep_assert_held(&iw->sim->lock);
	/* the WQEs the doorbell announces before the count that says so */
	smp_wmb();
	WRITE_ONCE(iw->db_seq, iw->db_seq + 1);
	WRITE_ONCE(iw->sq_armed, true);
}

/**
 * irdma_sim_iw_sq_idle() - the SQ is empty: wait for the next doorbell
 * @iw: engine
 * @seq: @iw->db_seq as read before the engine last looked at the tail
 *
 * A doorbell rung since @seq keeps the SQ armed: the WQE it announced may
 * have been written after the engine looked.
 */
static void irdma_sim_iw_sq_idle(struct irdma_sim_iw *iw, u32 seq)
{
	struct irdma_sim *sim = iw->sim;
	unsigned long flags;

	spin_lock_irqsave(&sim->lock, flags);
	if (iw->db_seq == seq)
		WRITE_ONCE(iw->sq_armed, false);
	spin_unlock_irqrestore(&sim->lock, flags);
}

/* ------------------------------------------------------------------------ */
/* Memory registration WQEs                                                 */
/* ------------------------------------------------------------------------ */

/**
 * irdma_sim_iw_fast_reg() - execute a fast-register WQE
 * @iw: engine
 * @w: the WQE's four words
 *
 * Return: 0 or a negative errno.
 */
static int irdma_sim_iw_fast_reg(struct irdma_sim_iw *iw, const u64 *w)
{
	struct irdma_sim *sim = iw->sim;
	u64 hdr = w[IRDMA_WQE_HDR];
	u64 qw1 = w[IRDMA_FRWQE_QW1];
	u64 qw2 = w[IRDMA_FRWQE_QW2];
	u32 idx = FIELD_GET(IRDMA_FRWQE_HDR_STAGINDEX, hdr);
	u8 level = FIELD_GET(IRDMA_FRWQE_HDR_LPBLSIZE, hdr);
	struct irdma_sim_mr *mr;
	unsigned long flags;
	int ret = 0;

	if (!iw->fastreg)
		return -EPERM;
	if (FIELD_GET(IRDMA_FRWQE_HDR_HPAGESIZE, hdr) > IRDMA_PAGE_SIZE_1G ||
	    level > 1)
		return -EINVAL;
	spin_lock_irqsave(&sim->lock, flags);
	mr = xa_load(&sim->mrs, idx);
	if (!irdma_sim_iw_live(iw) || !mr || !mr->live || mr->gen != sim->gen ||
	    !mr->is_mr) {
		ret = -ENOENT;
	} else if (mr->pd != iw->pd) {
		ret = -EACCES;
	} else if (mr->registered) {
		ret = -EBUSY;
	} else {
		mr->key = FIELD_GET(IRDMA_FRWQE_HDR_STAGKEY, hdr);
		mr->va = w[IRDMA_FRWQE_VA];
		mr->len = FIELD_GET(IRDMA_FRWQE_QW2_STAGLEN, qw2);
		mr->rights = FIELD_GET(IRDMA_FRWQE_HDR_STAGRIGHTS, hdr) |
			     IRDMA_ACCESS_LOCAL_READ;
		mr->page_size = FIELD_GET(IRDMA_FRWQE_HDR_HPAGESIZE, hdr);
		mr->va_based = hdr & IRDMA_FRWQE_HDR_VABASEDTO;
		mr->pbl_level = level;
		if (level) {
			mr->first_pble =
				FIELD_GET(IRDMA_FRWQE_QW2_FIRSTPBLIDXLO, qw2) |
				FIELD_GET(IRDMA_FRWQE_QW1_FIRSTPBLIDXHI, qw1) << 16;
			mr->pa = 0;
		} else {
			mr->pa = (qw1 & IRDMA_FRWQE_QW1_PBLADDR) +
				 (mr->va & (IRDMA_HW_PAGE_SIZE - 1));
		}
		mr->registered = true;
	}
	spin_unlock_irqrestore(&sim->lock, flags);
	return ret;
}

/* ------------------------------------------------------------------------ */
/* The SQ walk                                                              */
/* ------------------------------------------------------------------------ */

/**
 * irdma_sim_iw_wqe_quanta() - quanta of an SQ WQE from its header
 * @hdr: header word
 *
 * Return: 1..8, or 0 for a length the chunk rule forbids.
 */
static u32 irdma_sim_iw_wqe_quanta(u64 hdr)
{
	u32 op = FIELD_GET(IRDMA_WQE_HDR_OPCODE, hdr);
	u32 len;

	if (hdr & IRDMA_WQE_HDR_INLINEDATAFLAG) {
		len = FIELD_GET(IRDMA_WQE_HDR_INLINEDATALEN, hdr);
		if (len <= 8)
			return 1;
		return min_t(u32, 2 + (len - 9) / 31, IRDMA_MAX_QUANTA_PER_WR);
	}
	switch (op) {
	case IRDMA_WQE_OP_NOP:
	case IRDMA_WQE_OP_LOCAL_INVALIDATE:
	case IRDMA_WQE_OP_FAST_REGISTER:
	case IRDMA_WQE_OP_GEN_RTS_AE:
	case IRDMA_WQE_OP_BIND_MW:
		return 1;
	}
	return 1 + (FIELD_GET(IRDMA_WQE_HDR_ADDFRAGCNT, hdr) + 1) / 2;
}

/**
 * irdma_sim_iw_sq_shadow() - publish the SQ tail in the QP's shadow area
 * @iw: engine that just took a WQE
 *
 * Providers before rdma-core 37 read this tail after writing WQEs and
 * rang the doorbell only when the adapter had caught up with every WQE
 * before them (an adapter that is behind takes the new ones on its own);
 * today's libirdma rings at every post and reads no tail.  The barrier
 * pairs with the one such a provider puts between a WQE's valid bit and
 * its read of the tail: either it sees this tail and rings, or the
 * engine, which looks at the SQ again before it stops, sees the WQE.
 */
static void irdma_sim_iw_sq_shadow(struct irdma_sim_iw *iw)
{
	__le64 *shadow = iw->qp->shadow;

	if (shadow)
		WRITE_ONCE(shadow[IRDMA_QP_SHADOW_QW0],
			   cpu_to_le64(FIELD_PREP(IRDMA_QP_SHADOW_QW0_HW_SQ_TAIL,
						  iw->sq_tail)));
	/* the tail store before the next valid-bit load (see above) */
	smp_mb();
}

/**
 * irdma_sim_iw_wqe_sges() - the fragments of an SQ WQE
 * @iw: engine
 * @idx: first quantum
 * @hdr: header
 * @sge: filled (zero-length fragments dropped)
 *
 * With IMMDATAFLAG the fragments start at the second slot: word 0 holds
 * the immediate data.
 *
 * Return: number of SGEs, or -EINVAL.
 */
static int irdma_sim_iw_wqe_sges(struct irdma_sim_iw *iw, u32 idx, u64 hdr,
				 struct irdma_sim_sge *sge)
{
	u32 frags = FIELD_GET(IRDMA_WQE_HDR_ADDFRAGCNT, hdr) + 1;
	u32 i, n = 0, q, w;
	u64 lo, hi;

	/* immediate data takes fragment 0's place (word 0) */
	for (i = !!(hdr & IRDMA_WQE_HDR_IMMDATAFLAG); i < frags; i++) {
		w = irdma_wqe_frag_word(i);
		q = idx + w / IRDMA_WQE_WORDS;
		w %= IRDMA_WQE_WORDS;
		lo = irdma_sim_iw_sq_word(iw, q, w);
		hi = irdma_sim_iw_sq_word(iw, q, w + 1);
		if (!FIELD_GET(IRDMA_WQE_FRAG_LEN, hi))
			continue;
		if (n >= IRDMA_SIM_IW_MAX_SGE)
			return -EINVAL;
		sge[n].to = lo;
		sge[n].stag = FIELD_GET(IRDMA_WQE_FRAG_STAG, hi);
		sge[n].len = FIELD_GET(IRDMA_WQE_FRAG_LEN, hi);
		n++;
	}
	return n;
}

/**
 * irdma_sim_iw_sge_total() - bytes of an SGE list
 * @sge: list
 * @n: entries
 *
 * Return: the sum, or U32_MAX on overflow past 2^31.
 */
static u32 irdma_sim_iw_sge_total(const struct irdma_sim_sge *sge, u32 n)
{
	u64 t = 0;
	u32 i;

	for (i = 0; i < n; i++)
		t += sge[i].len;
	return t > S32_MAX ? U32_MAX : t;
}

/**
 * irdma_sim_iw_inline() - copy a WQE's inline data
 * @iw: engine
 * @idx: first quantum
 * @len: bytes
 * @buf: destination
 */
static void irdma_sim_iw_inline(struct irdma_sim_iw *iw, u32 idx, u32 len,
				u8 *buf)
{
	u32 done = 0, q = 1, n;
	__le64 *p;

	p = irdma_sim_qmem_ptr(&iw->sqm, (size_t)idx * IRDMA_WQE_QUANTUM);
	n = min_t(u32, len, 8);
	memcpy(buf, (u8 *)p + 8, n);
	done = n;
	while (done < len) {
		p = irdma_sim_qmem_ptr(&iw->sqm,
				       (size_t)(idx + q) * IRDMA_WQE_QUANTUM);
		n = min_t(u32, len - done, 31);
		memcpy(buf + done, p, n);
		done += n;
		q++;
	}
}

/**
 * irdma_sim_iw_conn_ok() - whether a WQE may do what only the driver's
 * connection WQEs may
 * @iw: engine
 * @idx: the WQE's first quantum
 * @op: its opcode
 * @hdr: its header
 *
 * The RTS offload arms the first IRDMA_SQ_CONN_QUANTA quanta of the first
 * lap for the connection WQEs the driver wrote there: quantum 0 may be a
 * stream-mode Send (the MPA reply, raw bytes on the stream, perhaps
 * waiting for the peer's first FPDU), and GEN_RTS_AE ends them.  Anywhere
 * else these would let a user write unframed bytes into the connection
 * (forged FPDUs, TERMINATEs) or raise events at will: such a WQE completes
 * in error, as the adapter refuses it.
 *
 * Return: true when @op and @hdr are allowed at @idx.
 */
static bool irdma_sim_iw_conn_ok(struct irdma_sim_iw *iw, u32 idx, u32 op,
				 u64 hdr)
{
	bool stream = hdr & (IRDMA_WQE_HDR_STREAMMODE |
			     IRDMA_WQE_HDR_WAITFORRCVPDU);

	if (!iw->conn_done && (idx >= IRDMA_SQ_CONN_QUANTA || !iw->sq_pol))
		iw->conn_done = true;
	if (op == IRDMA_WQE_OP_GEN_RTS_AE)
		return !iw->conn_done;
	if (!stream)
		return true;
	return !iw->conn_done && !iw->stream_done && idx == 0 &&
	       (op == IRDMA_WQE_OP_SEND || op == IRDMA_WQE_OP_SEND_SOL);
}

/**
 * irdma_sim_iw_sq_one() - take and start the WQE at the SQ consumer
 * @iw: engine, no message in progress
 *
 * Only a WQE some doorbell announced is taken: the engine works while the
 * SQ is armed (irdma_sim_iw_ring()) and stops at the first WQE that is
 * not valid.
 *
 * Return: true when a WQE was taken (or failed), false when the SQ is
 * empty (or not armed) or blocked (iw->sq_blocked says which).
 */
static bool irdma_sim_iw_sq_one(struct irdma_sim_iw *iw)
{
	struct irdma_sim_iw_msg *m = &iw->msg;
	struct irdma_sim_iw_pend *p;
	struct irdma_sim_iw_rread *rr;
	u32 idx = iw->sq_tail, quanta, slot, op, stag, i, seq;
	u64 w[IRDMA_WQE_WORDS];
	int n, ret;

	/*
	 * WQEs that finished at once (NOP, RTS AE, fast register, local
	 * invalidate) complete now: a fence waits only for unfinished ones
	 */
	irdma_sim_iw_retire(iw);
	if (!READ_ONCE(iw->sq_armed))
		return false;
	seq = READ_ONCE(iw->db_seq);
	/* pairs with irdma_sim_iw_ring(): the count, then the valid bit */
	smp_rmb();
	if (!irdma_sim_iw_sq_ready(iw)) {
		irdma_sim_iw_sq_idle(iw, seq);
		return false;
	}
	dma_rmb();
	w[IRDMA_WQE_HDR] = irdma_sim_iw_sq_word(iw, idx, IRDMA_WQE_HDR);
	op = FIELD_GET(IRDMA_WQE_HDR_OPCODE, w[IRDMA_WQE_HDR]);
	if (iw->wait_rtr) {
		iw->sq_blocked = true;
		return false;
	}
	if ((w[IRDMA_WQE_HDR] & IRDMA_WQE_HDR_LOCALFENCE) && iw->pend_cnt) {
		iw->sq_blocked = true;
		return false;
	}
	if ((w[IRDMA_WQE_HDR] & IRDMA_WQE_HDR_READFENCE) && iw->rr_cnt) {
		iw->sq_blocked = true;
		return false;
	}
	if ((op == IRDMA_WQE_OP_RDMA_READ ||
	     op == IRDMA_WQE_OP_RDMA_READ_LOC_INV) && iw->rr_cnt >= iw->ord) {
		iw->sq_blocked = true;
		return false;
	}
	/* a Read Request is staged at once: it needs room in the buffer */
	if ((op == IRDMA_WQE_OP_RDMA_READ ||
	     op == IRDMA_WQE_OP_RDMA_READ_LOC_INV) && !irdma_sim_iw_room(iw)) {
		irdma_sim_iw_push(iw);
		if (!irdma_sim_iw_room(iw)) {
			iw->sq_blocked = true;
			return false;
		}
	}
	iw->sq_blocked = false;
	quanta = irdma_sim_iw_wqe_quanta(w[IRDMA_WQE_HDR]);
	for (i = 0; i < IRDMA_WQE_HDR; i++)
		w[i] = irdma_sim_iw_sq_word(iw, idx, i);

	slot = (iw->pend_head + iw->pend_cnt) % iw->sq_size;
	p = &iw->pend[slot];
	p->idx = idx;
	p->op = op;
	p->signaled = w[IRDMA_WQE_HDR] & IRDMA_WQE_HDR_SIGCOMPL;
	p->done = false;
	iw->pend_cnt++;
	iw->stats.sq_wqes++;
	if (idx + quanta > iw->sq_size ||
	    (idx % IRDMA_MAX_QUANTA_PER_WR) + quanta > IRDMA_MAX_QUANTA_PER_WR) {
		irdma_sim_iw_wqe_error(iw, slot, IRDMA_FLUSH_LOC_QP_OP_ERR);
		irdma_sim_iw_fail(iw, IRDMA_AE_WQE_UNEXPECTED_OPCODE,
				  IRDMA_AE_SOURCE_SQ);
		return true;
	}
	/* one store of the index: debugfs reads it */
	if (iw->sq_tail + quanta == iw->sq_size) {
		WRITE_ONCE(iw->sq_pol, iw->sq_pol ^ 1);
		WRITE_ONCE(iw->sq_tail, 0);
	} else {
		WRITE_ONCE(iw->sq_tail, iw->sq_tail + quanta);
	}
	irdma_sim_iw_sq_shadow(iw);
	if (!irdma_sim_iw_conn_ok(iw, idx, op, w[IRDMA_WQE_HDR]))
		goto bad_wqe;

	switch (op) {
	case IRDMA_WQE_OP_NOP:
		p->done = true;
		break;
	case IRDMA_WQE_OP_GEN_RTS_AE:
		p->done = true;
		iw->conn_done = true;
		/*
		 * the last of the driver's connection WQEs, which the RTS
		 * offload armed: what follows waits for a doorbell
		 */
		irdma_sim_iw_sq_idle(iw, 0);
		irdma_sim_iw_ae(iw, IRDMA_AE_LLP_CONNECTION_ESTABLISHED,
				IRDMA_AE_SOURCE_RSVD);
		break;
	case IRDMA_WQE_OP_LOCAL_INVALIDATE:
		stag = FIELD_GET(IRDMA_WQE_FRAG_STAG, w[IRDMA_WQE_FRAG0]);
		ret = irdma_sim_iw_invalidate(iw, stag, false);
		if (ret) {
			irdma_sim_iw_wqe_error(iw, slot, IRDMA_FLUSH_PROT_ERR);
			irdma_sim_iw_fail(iw, IRDMA_AE_AMP_INVALID_STAG,
					  IRDMA_AE_SOURCE_SQ);
			return true;
		}
		p->done = true;
		break;
	case IRDMA_WQE_OP_FAST_REGISTER:
		ret = irdma_sim_iw_fast_reg(iw, w);
		if (ret) {
			irdma_sim_iw_wqe_error(iw, slot, ret == -EPERM ?
					       IRDMA_FLUSH_LOC_QP_OP_ERR :
					       IRDMA_FLUSH_PROT_ERR);
			irdma_sim_iw_fail(iw, ret == -EPERM ?
					  IRDMA_AE_WQE_UNEXPECTED_OPCODE :
					  IRDMA_AE_AMP_INVALID_STAG,
					  IRDMA_AE_SOURCE_SQ);
			return true;
		}
		p->done = true;
		break;
	case IRDMA_WQE_OP_RDMA_WRITE:
	case IRDMA_WQE_OP_RDMA_WRITE_SOL:
	case IRDMA_WQE_OP_SEND:
	case IRDMA_WQE_OP_SEND_INV:
	case IRDMA_WQE_OP_SEND_SOL:
	case IRDMA_WQE_OP_SEND_SOL_INV:
		memset(m, 0, offsetof(struct irdma_sim_iw_msg, inl));
		m->pend = slot;
		if (w[IRDMA_WQE_HDR] & IRDMA_WQE_HDR_IMMDATAFLAG) {
			/* iWARP carries immediate data after a Write only */
			if (op != IRDMA_WQE_OP_RDMA_WRITE &&
			    op != IRDMA_WQE_OP_RDMA_WRITE_SOL)
				goto bad_wqe;
			m->imm = true;
			m->imm_se = op == IRDMA_WQE_OP_RDMA_WRITE_SOL;
			m->imm_data = w[IRDMA_WQE_FRAG0_ADDR];
		}
		if (w[IRDMA_WQE_HDR] & IRDMA_WQE_HDR_INLINEDATAFLAG) {
			m->is_inline = true;
			m->total = FIELD_GET(IRDMA_WQE_HDR_INLINEDATALEN,
					     w[IRDMA_WQE_HDR]);
			if (m->total > IRDMA_GEN2_MAX_INLINE)
				goto bad_wqe;
			irdma_sim_iw_inline(iw, idx, m->total, m->inl);
		} else {
			m->is_inline = false;
			n = irdma_sim_iw_wqe_sges(iw, idx, w[IRDMA_WQE_HDR],
						  m->sge);
			if (n < 0)
				goto bad_wqe;
			m->nsge = n;
			m->total = irdma_sim_iw_sge_total(m->sge, n);
			if (m->total == U32_MAX)
				goto bad_len;
		}
		if (op == IRDMA_WQE_OP_RDMA_WRITE ||
		    op == IRDMA_WQE_OP_RDMA_WRITE_SOL) {
			m->rdmap = IRDMA_SIM_RDMAP_WRITE;
			m->tagged = true;
			m->stag = FIELD_GET(IRDMA_WQE_HDR_REMSTAG, w[IRDMA_WQE_HDR]);
			m->to = w[IRDMA_WQE_REMOTE_TO];
		} else if (w[IRDMA_WQE_HDR] & IRDMA_WQE_HDR_STREAMMODE) {
			/* the LSMM: the MPA reply, raw on the stream */
			m->stream = true;
			iw->stream_done = true;
			/*
			 * The RTR may be in already: a loopback peer's MPA
			 * reply does not wait for this LSMM, and the engine
			 * reads the socket before it walks the SQ.
			 */
			if ((w[IRDMA_WQE_HDR] & IRDMA_WQE_HDR_WAITFORRCVPDU) &&
			    !iw->rx_fpdu_seen)
				iw->wait_rtr = true;
		} else {
			static const u8 rdmap[] = {
				[IRDMA_WQE_OP_SEND] = IRDMA_SIM_RDMAP_SEND,
				[IRDMA_WQE_OP_SEND_INV] = IRDMA_SIM_RDMAP_SEND_INV,
				[IRDMA_WQE_OP_SEND_SOL] = IRDMA_SIM_RDMAP_SEND_SE,
				[IRDMA_WQE_OP_SEND_SOL_INV] = IRDMA_SIM_RDMAP_SEND_SE_INV,
			};

			m->rdmap = rdmap[op];
			if (op == IRDMA_WQE_OP_SEND_INV ||
			    op == IRDMA_WQE_OP_SEND_SOL_INV)
				m->stag = FIELD_GET(IRDMA_WQE_HDR_REMSTAG,
						    w[IRDMA_WQE_HDR]);
			m->msn = iw->msn[IRDMA_SIM_QN_SEND]++;
		}
		m->active = true;
		break;
	case IRDMA_WQE_OP_RDMA_READ:
	case IRDMA_WQE_OP_RDMA_READ_LOC_INV:
		if (w[IRDMA_WQE_HDR] & (IRDMA_WQE_HDR_INLINEDATAFLAG |
					IRDMA_WQE_HDR_IMMDATAFLAG))
			goto bad_wqe;
		rr = &iw->rreads[(iw->rr_head + iw->rr_cnt) % iw->ord];
		memset(rr, 0, sizeof(*rr));
		n = irdma_sim_iw_wqe_sges(iw, idx, w[IRDMA_WQE_HDR], rr->sge);
		if (n < 0)
			goto bad_wqe;
		rr->nsge = n;
		rr->total = irdma_sim_iw_sge_total(rr->sge, n);
		if (rr->total == U32_MAX)
			goto bad_len;
		rr->pend = slot;
		/* the RTR's placeholder STag when there is no sink SGE */
		rr->sink_stag = n ? rr->sge[0].stag :
				    FIELD_GET(IRDMA_WQE_FRAG_STAG,
					      w[IRDMA_WQE_FRAG0]);
		rr->sink_to = n ? rr->sge[0].to : w[IRDMA_WQE_FRAG0_ADDR];
		rr->inv = op == IRDMA_WQE_OP_RDMA_READ_LOC_INV && n;
		iw->rr_cnt++;
		irdma_sim_iw_send_rreq(iw, rr,
				       FIELD_GET(IRDMA_WQE_HDR_REMSTAG,
						 w[IRDMA_WQE_HDR]),
				       w[IRDMA_WQE_REMOTE_TO]);
		break;
	default:
		goto bad_wqe;
	}
	return true;

bad_wqe:
	irdma_sim_iw_wqe_error(iw, slot, IRDMA_FLUSH_LOC_QP_OP_ERR);
	irdma_sim_iw_fail(iw, IRDMA_AE_WQE_UNEXPECTED_OPCODE,
			  IRDMA_AE_SOURCE_SQ);
	return true;
bad_len:
	irdma_sim_iw_wqe_error(iw, slot, IRDMA_FLUSH_LOC_LEN_ERR);
	irdma_sim_iw_fail(iw, IRDMA_AE_WQE_UNEXPECTED_OPCODE,
			  IRDMA_AE_SOURCE_SQ);
	return true;
}

/**
 * irdma_sim_iw_sq() - make progress on the transmit side
 * @iw: engine, connection running
 *
 * Read responses go first, then SQ WQEs, while the staging buffer has
 * room for a full FPDU.
 *
 * Return: true on progress.
 */
static bool irdma_sim_iw_sq(struct irdma_sim_iw *iw)
{
	bool progress = false;
	u32 n = 0;

	while (!iw->err && n++ < IRDMA_SIM_IW_BUDGET) {
		if (iw->msg.active || iw->rs_cnt) {
			if (!irdma_sim_iw_tx(iw))
				break;
			progress = true;
			continue;
		}
		if (!irdma_sim_iw_sq_one(iw))
			break;
		progress = true;
	}
	return progress;
}

/* ------------------------------------------------------------------------ */
/* Flush                                                                    */
/* ------------------------------------------------------------------------ */

/**
 * irdma_sim_iw_do_flush() - write the flush CQEs asked for
 * @iw: engine
 *
 * One flush CQE per queue that holds work: the provider (and post.c)
 * completes every outstanding WR of that queue from it.
 */
static void irdma_sim_iw_do_flush(struct irdma_sim_iw *iw)
{
	struct irdma_sim *sim = iw->sim;
	bool sq, rq, sq_work, rq_work;
	u16 sqm, rqm;
	unsigned long flags;

	spin_lock_irqsave(&sim->lock, flags);
	sq = iw->flush_sq;
	rq = iw->flush_rq;
	sqm = iw->flush_sq_minor ?: IRDMA_FLUSH_GENERAL_ERR;
	rqm = iw->flush_rq_minor ?: IRDMA_FLUSH_GENERAL_ERR;
	iw->flush_sq = false;
	iw->flush_rq = false;
	spin_unlock_irqrestore(&sim->lock, flags);
	if (!sq && !rq)
		return;
	iw->err = true;
	/* what finished is retired normally first */
	irdma_sim_iw_retire(iw);
	sq_work = sq && (iw->pend_cnt || irdma_sim_iw_sq_ready(iw));
	rq_work = rq && (iw->rq.active || irdma_sim_iw_rq_ready(iw));
	if (sq_work)
		irdma_sim_iw_cqe(iw, true, 0, 0,
				 FIELD_PREP(IRDMA_CQE_QW3_WQEIDX,
					    iw->pend_cnt ?
					    iw->pend[iw->pend_head].idx :
					    iw->sq_tail) |
				 IRDMA_CQE_QW3_ERROR |
				 FIELD_PREP(IRDMA_CQE_QW3_MAJERR,
					    IRDMA_FLUSH_MAJOR_ERR) |
				 FIELD_PREP(IRDMA_CQE_QW3_MINERR, sqm), true);
	if (sq) {
		/* everything taken is gone with the flush */
		iw->pend_cnt = 0;
		iw->rr_cnt = 0;
		iw->msg.active = false;
	}
	if (rq_work)
		irdma_sim_iw_cqe(iw, false, 0, 0,
				 FIELD_PREP(IRDMA_CQE_QW3_WQEIDX,
					    iw->rq_tail << iw->rq_shift) |
				 IRDMA_CQE_QW3_ERROR |
				 FIELD_PREP(IRDMA_CQE_QW3_MAJERR,
					    IRDMA_FLUSH_MAJOR_ERR) |
				 FIELD_PREP(IRDMA_CQE_QW3_MINERR, rqm), true);
	if (rq)
		iw->rq.active = false;
}

/* ------------------------------------------------------------------------ */
/* The engine                                                               */
/* ------------------------------------------------------------------------ */

/**
 * irdma_sim_iw_quad_add() - the quad's frames go to this QP from now on
 * @iw: engine with its connection read from the context
 *
 * Context: sim->lock held.
 */
static void irdma_sim_iw_quad_add(struct irdma_sim_iw *iw)
{
	lockdep_assert_held(&iw->sim->lock);
	hash_add_rcu(iw->sim->iw_quads, &iw->hnode, iw->lport);
}

/**
 * irdma_sim_iw_steal() - the rx_handler's question: does an offloaded QP
 * own this frame's quad?
 * @sim: instance
 * @skb: the frame
 * @f: parsed frame
 *
 * A frame of a quad whose socket is being restored is held (and replayed
 * into the stack once it exists); once the socket exists the frame goes
 * to the stack, where the socket takes it.  A quad whose connection was
 * aborted sends its frames to the stack too, which has no socket for them
 * and answers each with a RST, as TCP answers a closed connection: the
 * peer may have challenged our RST (RFC 5961) because it overtook our last
 * data on the way, and only the answer to the challenge resets the peer.
 * A quad whose connection closed gracefully drops its frames until the QP
 * is destroyed (no RST from the host stack).
 *
 * Context: the rx_handler (RCU read side, softirq).
 * Return: -ENOENT when no QP owns the quad, RX_HANDLER_PASS or
 * RX_HANDLER_CONSUMED.
 */
int irdma_sim_iw_steal(struct irdma_sim *sim, struct sk_buff *skb,
		       const struct irdma_sim_frame *f)
{
	struct irdma_sim_iw *iw, *found = NULL;
	unsigned long flags;
	int ret;

	hash_for_each_possible_rcu(sim->iw_quads, iw, hnode, f->lport) {
		if (iw->lport == f->lport && iw->rport == f->rport &&
		    iw->ipv4 == f->ipv4 && !memcmp(iw->lip, f->lip, sizeof(f->lip)) &&
		    !memcmp(iw->rip, f->rip, sizeof(f->rip))) {
			found = iw;
			break;
		}
	}
	if (!found)
		return -ENOENT;
	iw = found;
	spin_lock_irqsave(&sim->lock, flags);
	if ((iw->ready && iw->sock) || iw->rst_sent) {
		ret = RX_HANDLER_PASS;
	} else if (iw->phase == IRDMA_SIM_IW_HANDOFF && !iw->stopping &&
		   skb_queue_len(&iw->held) < IRDMA_SIM_IW_HELD) {
		__skb_queue_tail(&iw->held, skb);
		iw->stats.held++;
		ret = RX_HANDLER_CONSUMED;
		skb = NULL;
	} else {
		iw->stats.held_dropped++;
		ret = RX_HANDLER_CONSUMED;
	}
	spin_unlock_irqrestore(&sim->lock, flags);
	if (ret == RX_HANDLER_CONSUMED && skb)
		kfree_skb(skb);
	return ret;
}

/**
 * irdma_sim_iw_replay() - give the held frames to the stack
 * @iw: engine whose socket now takes the quad's frames
 */
static void irdma_sim_iw_replay(struct irdma_sim_iw *iw)
{
	struct irdma_sim *sim = iw->sim;
	struct sk_buff_head q;
	struct sk_buff *skb;
	unsigned long flags;

	__skb_queue_head_init(&q);
	spin_lock_irqsave(&sim->lock, flags);
	iw->ready = true;
	skb_queue_splice_init(&iw->held, &q);
	spin_unlock_irqrestore(&sim->lock, flags);
	while ((skb = __skb_dequeue(&q)))
		netif_rx(skb);
}

/**
 * irdma_sim_iw_no_bufs() - end a connection whose buffers could not be had
 * @iw: engine; the caller holds its run bit
 *
 * The connection is aborted with a RST and the driver told with a
 * connection-reset AE, as when the adapter's resources for it run out:
 * nothing else would ever run it again.
 */
static void irdma_sim_iw_no_bufs(struct irdma_sim_iw *iw)
{
	struct irdma_sim *sim = iw->sim;
	unsigned long flags;

	dev_warn_ratelimited(&sim->dev,
			     "QP %u: no memory for its buffers: connection reset\n",
			     iw->qpn);
	irdma_sim_tcp_release(iw, true);
	iw->closed = true;
	spin_lock_irqsave(&sim->lock, flags);
	iw->phase = IRDMA_SIM_IW_DOWN;
	iw->qp->tcp_state = IRDMA_TCPS_CLOSED;
	spin_unlock_irqrestore(&sim->lock, flags);
	irdma_sim_iw_ae(iw, IRDMA_AE_LLP_CONNECTION_RESET, IRDMA_AE_SOURCE_RSVD);
}

/**
 * irdma_sim_iw_step() - the engine of one QP, for one budget
 * @iw: engine; the caller holds its run bit
 *
 * Context: process context, may sleep briefly (socket calls never block).
 * Return: true when the budget ran out with work left.
 */
static bool irdma_sim_iw_step(struct irdma_sim_iw *iw)
{
	struct irdma_sim *sim = iw->sim;
	bool progress, reset, close, running, term;
	unsigned long flags;
	u8 state, term_act, term_len;
	u32 n;
	int ret;

	for (n = 0; n < IRDMA_SIM_IW_BUDGET; n++) {
		progress = false;
		spin_lock_irqsave(&sim->lock, flags);
		if (!irdma_sim_iw_live(iw)) {
			spin_unlock_irqrestore(&sim->lock, flags);
			return false;
		}
		state = iw->qp->state;
		reset = iw->reset_req;
		iw->reset_req = false;
		close = iw->close_req;
		term = iw->term_req;
		term_act = iw->term_act;
		term_len = iw->term_len;
		iw->term_req = false;
		running = iw->phase == IRDMA_SIM_IW_RUN;
		spin_unlock_irqrestore(&sim->lock, flags);

		if (iw->phase == IRDMA_SIM_IW_HANDOFF && !reset) {
			ret = irdma_sim_tcp_handoff(iw);
			if (ret == -EAGAIN) {
				/* a loopback end waits for the other */
			} else if (ret) {
				iw->phase = IRDMA_SIM_IW_DOWN;
				iw->closed = true;
				irdma_sim_iw_ae(iw, IRDMA_AE_LLP_CONNECTION_RESET,
						IRDMA_AE_SOURCE_RSVD);
			} else {
				spin_lock_irqsave(&sim->lock, flags);
				iw->phase = IRDMA_SIM_IW_RUN;
				spin_unlock_irqrestore(&sim->lock, flags);
				irdma_sim_iw_replay(iw);
			}
			progress = ret != -EAGAIN;
			running = iw->phase == IRDMA_SIM_IW_RUN;
		}
		/* the socket exists by now: the peer gets a RST */
		if (running && !reset && irdma_sim_iw_get_bufs(iw)) {
			irdma_sim_iw_no_bufs(iw);
			return false;
		}
		if (reset && (iw->sock || iw->lpb_sock)) {
			/* MODIFY to ERROR with RESETCON: abort with a RST */
			irdma_sim_tcp_release(iw, true);
			iw->closed = true;
			iw->phase = IRDMA_SIM_IW_DOWN;
			spin_lock_irqsave(&sim->lock, flags);
			iw->qp->tcp_state = IRDMA_TCPS_CLOSED;
			spin_unlock_irqrestore(&sim->lock, flags);
		}
		irdma_sim_iw_do_flush(iw);
		if (state == IRDMA_QPS_ERROR)
			iw->err = true;

		if (running && iw->sock) {
			if (term && (term_act == IRDMA_TERM_SEND_TERM_AND_FIN ||
				     term_act == IRDMA_TERM_SEND_TERM_ONLY))
				irdma_sim_iw_send_term(iw, term_len);
			if (term)
				iw->err = true;
			progress |= irdma_sim_iw_push(iw);
			progress |= irdma_sim_iw_rx(iw);
			if (!iw->err && (state == IRDMA_QPS_RTS ||
					 state == IRDMA_QPS_CLOSING))
				progress |= irdma_sim_iw_sq(iw);
			progress |= irdma_sim_iw_push(iw);
			/* FIN once the SQ drained */
			if (!iw->fin_sent && iw->sock && !iw->closed &&
			    ((close && !iw->msg.active && !iw->rs_cnt &&
			      !iw->rr_cnt && iw->txoff == iw->txlen &&
			      (iw->err || !READ_ONCE(iw->sq_armed) ||
			       !irdma_sim_iw_sq_ready(iw))) ||
			     (term && (term_act == IRDMA_TERM_SEND_TERM_AND_FIN ||
				       term_act == IRDMA_TERM_SEND_FIN_ONLY) &&
			      iw->txoff == iw->txlen))) {
				irdma_sim_tcp_shutdown(iw);
				iw->fin_sent = true;
				progress = true;
			}
			irdma_sim_iw_close_check(iw, false, false);
		}
		if (iw->sock)
			irdma_sim_tcp_count(iw);
		if (!progress)
			return false;
	}
	return true;
}

/**
 * irdma_sim_iw_claim() - post a request to the engine and try to run it
 * @iw: engine
 *
 * Return: true when the caller now holds the run bit and must call
 * irdma_sim_iw_run_held(); false when another context runs the engine:
 * that one queues the work item for the request when it lets go.
 */
static bool irdma_sim_iw_claim(struct irdma_sim_iw *iw)
{
	set_bit(IRDMA_SIM_IW_AGAIN, &iw->run);
	/* the runner's release and our AGAIN: one of us sees the other's */
	smp_mb__after_atomic();
	return !test_and_set_bit_lock(IRDMA_SIM_IW_RUNNING, &iw->run);
}

/**
 * irdma_sim_iw_let_go() - give up the engine's run bit
 * @iw: engine whose run bit the caller holds
 *
 * Wakes a context waiting for the bit (irdma_sim_iw_run_sync()).
 *
 * Return: true when a request came while the bit was held: the caller
 * must queue the work item for it.
 */
static bool irdma_sim_iw_let_go(struct irdma_sim_iw *iw)
{
	clear_bit_unlock(IRDMA_SIM_IW_RUNNING, &iw->run);
	/* the release before the look at AGAIN (irdma_sim_iw_claim()) */
	smp_mb__after_atomic();
	wake_up_var(&iw->run);
	return test_bit(IRDMA_SIM_IW_AGAIN, &iw->run);
}

/**
 * irdma_sim_iw_run_held() - run one budget of the engine, then let go
 * @iw: engine whose run bit the caller holds
 *
 * What is left after the budget, and what was asked while the engine ran,
 * goes to the work item, queued after the run bit is let go: no runner
 * keeps an engine longer than one budget, and a request that found the
 * bit held is served by the work item.  The caller must keep @iw alive
 * until this returns (the work item: cancel_work_sync() in destroy; a
 * doorbell's writer: its pin; the CQP worker: destroy runs there too).
 *
 * Context: process context, no locks held.
 */
static void irdma_sim_iw_run_held(struct irdma_sim_iw *iw)
{
	bool more = false;

	if (test_and_clear_bit(IRDMA_SIM_IW_AGAIN, &iw->run)) {
		more = irdma_sim_iw_step(iw);
		irdma_sim_iw_idle_bufs(iw);
	}
	if (irdma_sim_iw_let_go(iw) || more)
		irdma_sim_iw_kick(iw);
}

/**
 * struct irdma_sim_iw_pickup - a process-context runner that takes over
 * the engines the softirqs on its own stack leave for the work item
 * @node: link in irdma_sim_iw_pickups
 * @task: the runner
 * @n: engines in @iw
 * @iw: engines, each pinned (irdma_sim_iw_pickup())
 *
 * A runner's transmit goes through the stack to the peer's socket in a
 * softirq on the runner's own stack, right after the send: when that
 * peer is a model engine whose data_ready callback cannot finish (a Read
 * Request, whose responses it cannot send from a softirq), the runner
 * runs that engine itself once its own run is done, instead of a work
 * item whose wakeup then competes with the applications for a CPU.
 */
struct irdma_sim_iw_pickup {
	struct hlist_node node;
	struct task_struct *task;
	u32 n;
	struct irdma_sim_iw *iw[IRDMA_SIM_PICKUP_MAX];
};

/* runners that take over engines, few at a time (one per running runner) */
static HLIST_HEAD(irdma_sim_iw_pickups);
static DEFINE_SPINLOCK(irdma_sim_iw_pickup_lock);

/**
 * irdma_sim_iw_pickup() - hand an engine to the runner under this softirq
 * @iw: engine whose data_ready callback left work (the run bit let go)
 *
 * Context: the socket's data_ready callback (softirq).
 * Return: true when a runner of this task will run @iw (pinned for it);
 * false when the caller must queue the work item.
 */
static bool irdma_sim_iw_pickup(struct irdma_sim_iw *iw)
{
	struct irdma_sim *sim = iw->sim;
	struct irdma_sim_iw_pickup *pk;
	unsigned long flags;
	bool taken = false;

	if (!in_serving_softirq())
		return false;
	spin_lock(&irdma_sim_iw_pickup_lock);
	hlist_for_each_entry(pk, &irdma_sim_iw_pickups, node) {
		if (pk->task != current)
			continue;
		if (pk->n == ARRAY_SIZE(pk->iw))
			break;
		/* pinned live, under the lock: a destroy waits for the pin */
		spin_lock_irqsave(&sim->lock, flags);
		if (!READ_ONCE(iw->stopping) && irdma_sim_iw_live(iw)) {
			atomic_inc(&iw->pins);
			pk->iw[pk->n++] = iw;
			taken = true;
		}
		spin_unlock_irqrestore(&sim->lock, flags);
		break;
	}
	spin_unlock(&irdma_sim_iw_pickup_lock);
	return taken;
}

/**
 * irdma_sim_iw_unpin() - drop a pin of irdma_sim_iw_pickup() or a doorbell
 * @iw: engine; not touched after this (wake_up_var() only hashes it)
 */
static void irdma_sim_iw_unpin(struct irdma_sim_iw *iw)
{
	if (atomic_dec_and_test(&iw->pins))
		wake_up_var(&iw->pins);
}

/**
 * irdma_sim_iw_run_picking() - run one budget of an engine, then the
 * engines the softirqs on this stack handed over meanwhile
 * @iw: engine whose run bit the caller holds
 *
 * The engines handed over are run for at most IRDMA_SIM_PICKUP_ROUNDS
 * rounds; those still waiting then go to their work items.
 *
 * Context: process context, no locks held; the caller keeps @iw alive.
 */
static void irdma_sim_iw_run_picking(struct irdma_sim_iw *iw)
{
	struct irdma_sim_iw_pickup pk = { .task = current };
	struct irdma_sim_iw *run[IRDMA_SIM_PICKUP_MAX];
	u32 i, n, rounds;
	bool last;

	spin_lock_bh(&irdma_sim_iw_pickup_lock);
	hlist_add_head(&pk.node, &irdma_sim_iw_pickups);
	spin_unlock_bh(&irdma_sim_iw_pickup_lock);
	irdma_sim_iw_run_held(iw);
	for (rounds = 0;; rounds++) {
		last = rounds == IRDMA_SIM_PICKUP_ROUNDS;
		spin_lock_bh(&irdma_sim_iw_pickup_lock);
		n = pk.n;
		memcpy(run, pk.iw, n * sizeof(run[0]));
		pk.n = 0;
		if (!n || last)
			hlist_del(&pk.node);
		spin_unlock_bh(&irdma_sim_iw_pickup_lock);
		for (i = 0; i < n; i++) {
			if (last)
				irdma_sim_iw_kick(run[i]);
			else if (irdma_sim_iw_claim(run[i]))
				irdma_sim_iw_run_held(run[i]);
			/* not claimed: its runner queues the work item */
			irdma_sim_iw_unpin(run[i]);
		}
		if (!n || last)
			return;
	}
}

/**
 * irdma_sim_iw_run_sync() - run the engine in this context, now
 * @iw: engine with a request posted under sim->lock
 *
 * Waits for another context to let go of the engine (one budget at most),
 * so the request is done when this returns (the hardware finishes a flush
 * or a reset before the command's completion).
 *
 * Context: the CQP worker, no locks held.
 */
static void irdma_sim_iw_run_sync(struct irdma_sim_iw *iw)
{
	if (!irdma_sim_iw_claim(iw))
		wait_var_event(&iw->run,
			       !test_and_set_bit_lock(IRDMA_SIM_IW_RUNNING,
						      &iw->run));
	irdma_sim_iw_run_held(iw);
}

/**
 * irdma_sim_iw_data_ready() - place received bytes in the socket's callback
 * @iw: engine whose socket has bytes
 *
 * The receive half of the engine runs here, in the softirq that took the
 * segment from the wire, when no other context runs the engine and the QP
 * is plainly in RTS: a Write lands, a Send's CQE is written, without the
 * wait for a worker thread (under emulation, while applications spin on
 * every CPU, that wait was most of a message's latency).  Whatever needs
 * the socket or the send queue next (Read Responses to send, the SQ a
 * finished Read released, an error, the stream's end) is left to the work
 * item, as is every case this context cannot take.
 *
 * Context: the socket's data_ready callback: softirq or BHs off,
 * sk_callback_lock held for reading, the socket not owned.  Destroy
 * clears the socket's user data under that lock for writing after it
 * stopped the engine, so @iw outlives this call.
 * Return: true when nothing is left for the work item: none was, or the
 * runner whose send this softirq delivers takes it over
 * (irdma_sim_iw_pickup()).
 */
static bool irdma_sim_iw_data_ready(struct irdma_sim_iw *iw)
{
	struct irdma_sim *sim = iw->sim;
	bool more = true, progress = false, ok;
	unsigned long flags;
	u32 rr_cnt;

	if (READ_ONCE(iw->stopping) ||
	    test_and_set_bit_lock(IRDMA_SIM_IW_RUNNING, &iw->run))
		return false;
	spin_lock_irqsave(&sim->lock, flags);
	ok = irdma_sim_iw_live(iw) && iw->phase == IRDMA_SIM_IW_RUN &&
	     iw->qp->state == IRDMA_QPS_RTS && !iw->reset_req &&
	     !iw->close_req && !iw->term_req;
	spin_unlock_irqrestore(&sim->lock, flags);
	if (ok && iw->sock && !iw->err && !iw->wait_rtr && !iw->fin_rcvd &&
	    irdma_sim_iw_spare_rx(iw)) {
		rr_cnt = iw->rr_cnt;
		more = irdma_sim_iw_rx_now(iw, &progress) || iw->err ||
		       iw->rs_cnt || iw->rr_cnt != rr_cnt;
		if (progress) {
			atomic64_inc(&sim->rx_now);
			irdma_sim_tcp_count(iw);
		}
		if (!more)
			irdma_sim_iw_idle_bufs(iw);
	}
	if (irdma_sim_iw_let_go(iw) || more)
		return irdma_sim_iw_pickup(iw);
	return true;
}

/**
 * irdma_sim_iw_work() - the engine's work item
 * @work: iw->work
 *
 * Context: sim->iw_wq.
 */
static void irdma_sim_iw_work(struct work_struct *work)
{
	struct irdma_sim_iw *iw = container_of(work, struct irdma_sim_iw, work);

	if (irdma_sim_iw_claim(iw))
		irdma_sim_iw_run_picking(iw);
}

/* ------------------------------------------------------------------------ */
/* CQP commands                                                             */
/* ------------------------------------------------------------------------ */

/**
 * irdma_sim_iw_create() - map the rings of a new iWARP QP, make its engine
 * @sim: instance
 * @cmd: CREATE_QP (failed on error)
 * @qp: QP with its context copied; not yet published
 *
 * Context: the CQP worker.
 * Return: true on success.
 */
bool irdma_sim_iw_create(struct irdma_sim *sim, struct irdma_sim_cmd *cmd,
			 struct irdma_sim_qp *qp)
{
	u64 hdr = irdma_sim_qw(cmd, IRDMA_CQP_WQE_HDR);
	u64 qw0 = le64_to_cpu(qp->ctx[IRDMA_QPC_QW0]);
	u64 qw3 = le64_to_cpu(qp->ctx[IRDMA_QPC_QW3]);
	u64 qw20 = le64_to_cpu(qp->ctx[IRDMA_QPC_QW20]);
	u64 sq_pa = le64_to_cpu(qp->ctx[IRDMA_QPC_SQ_PA]);
	u64 rq_pa = le64_to_cpu(qp->ctx[IRDMA_QPC_RQ_PA]);
	bool virt = hdr & IRDMA_CQP_QP_QW3_VQ;
	u32 sqq, rqq, enc_sq, enc_rq;
	struct irdma_sim_iw *iw;
	unsigned long flags;
	int err;

	enc_sq = FIELD_GET(IRDMA_QPC_QW3_SQSIZE, qw3);
	enc_rq = FIELD_GET(IRDMA_QPC_QW3_RQSIZE, qw3);
	if (enc_sq > ilog2(IRDMA_GEN2_MAX_WQ_QUANTA) - 2 ||
	    enc_rq > ilog2(IRDMA_GEN2_MAX_RQ_QUANTA) - 2) {
		irdma_sim_cmd_fail(sim, cmd, IRDMA_SIM_CQP_MINOR_BAD_SIZE,
				   "QP %u: ring size codes %u/%u\n", qp->id,
				   enc_sq, enc_rq);
		return false;
	}
	sqq = 1U << (enc_sq + 2);
	rqq = 1U << (enc_rq + 2);
	iw = kzalloc(sizeof(*iw), GFP_KERNEL);
	if (!iw) {
		irdma_sim_cmd_fail(sim, cmd, IRDMA_SIM_CQP_MINOR_NO_RESOURCE,
				   "QP %u: out of memory\n", qp->id);
		return false;
	}
	iw->sim = sim;
	iw->data_ready = irdma_sim_iw_data_ready;
	iw->qp = qp;
	iw->qpn = qp->id;
	INIT_WORK(&iw->work, irdma_sim_iw_work);
	INIT_LIST_HEAD(&iw->node);
	INIT_HLIST_NODE(&iw->hnode);
	skb_queue_head_init(&iw->held);
	iw->sq_size = sqq;
	iw->rq_shift = FIELD_GET(IRDMA_QPC_QW0_RQWQESIZE, qw0);
	iw->rq_size = rqq >> iw->rq_shift;
	iw->sq_pol = 1;
	iw->rq_pol = 1;
	iw->priv = qw20 & IRDMA_QPC_QW20_PRIVEN;
	iw->fastreg = qw20 & IRDMA_QPC_QW20_FASTREGEN;
	iw->pd = FIELD_GET(IRDMA_QPC_QW7_PDIDX,
			   le64_to_cpu(qp->ctx[IRDMA_QPC_QW7])) |
		 FIELD_GET(IRDMA_QPC_QW0_PDIDXHI, qw0) << 16;
	err = irdma_sim_qmem_init(sim, &iw->sqm, sq_pa, virt, 1, sq_pa,
				  (size_t)sqq * IRDMA_WQE_QUANTUM,
				  IRDMA_WQE_QUANTUM);
	if (!err)
		err = irdma_sim_qmem_init(sim, &iw->rqm, rq_pa, virt, 1, rq_pa,
					  (size_t)rqq * IRDMA_WQE_QUANTUM,
					  IRDMA_WQE_QUANTUM);
	if (!err) {
		iw->pend = kvcalloc(sqq, sizeof(*iw->pend), GFP_KERNEL);
		if (!iw->pend)
			err = -ENOMEM;
	}
	if (err) {
		irdma_sim_cmd_fail(sim, cmd, irdma_sim_errno_minor(err),
				   "QP %u: SQ %#llx or RQ %#llx not usable (%d)\n",
				   qp->id, sq_pa, rq_pa, err);
		irdma_sim_qmem_fini(&iw->sqm);
		irdma_sim_qmem_fini(&iw->rqm);
		kvfree(iw->pend);
		kfree(iw);
		return false;
	}
	/* checked by irdma_sim_qp_read(); the engine writes its SQ tail there */
	qp->shadow = irdma_sim_dma_va(sim, qp->shadow_pa, IRDMA_QP_SHADOW_SIZE);
	spin_lock_irqsave(&sim->lock, flags);
	list_add_tail(&iw->node, &sim->iw_list);
	spin_unlock_irqrestore(&sim->lock, flags);
	qp->iw = iw;
	return true;
}

/**
 * irdma_sim_iw_read_ctx() - take the TCP and iWARP words of the context
 * @iw: engine
 * @ctx: the context copied by MODIFY_QP
 */
static void irdma_sim_iw_read_ctx(struct irdma_sim_iw *iw, const __le64 *ctx)
{
	u64 qw0 = le64_to_cpu(ctx[IRDMA_QPC_QW0]);
	u64 qw3 = le64_to_cpu(ctx[IRDMA_QPC_QW3]);
	u64 qw6 = le64_to_cpu(ctx[IRDMA_QPC_QW6]);
	u64 qw7 = le64_to_cpu(ctx[IRDMA_QPC_QW7]);
	u64 qw20 = le64_to_cpu(ctx[IRDMA_QPC_QW20]);
	u64 w;
	u32 ird;

	iw->ipv4 = qw0 & IRDMA_QPC_QW0_IPV4;
	iw->lport = FIELD_GET(IRDMA_QPC_QW3_SRCPORT, qw3);
	iw->rport = FIELD_GET(IRDMA_QPC_QW3_DESTPORT, qw3);
	iw->ttl = FIELD_GET(IRDMA_QPC_QW3_TTL, qw3);
	iw->tos = FIELD_GET(IRDMA_QPC_QW3_TOS, qw3);
	iw->ecn = qw0 & IRDMA_QPC_QW0_ECN_EN;
	w = le64_to_cpu(ctx[IRDMA_QPC_DEST_IP_LO]);
	iw->rip[2] = iw->ipv4 ? 0 : upper_32_bits(w);
	iw->rip[3] = lower_32_bits(w);
	w = le64_to_cpu(ctx[IRDMA_QPC_DEST_IP_HI]);
	iw->rip[0] = iw->ipv4 ? 0 : upper_32_bits(w);
	iw->rip[1] = iw->ipv4 ? 0 : lower_32_bits(w);
	w = le64_to_cpu(ctx[IRDMA_QPC_LOCAL_IP_LO]);
	iw->lip[2] = iw->ipv4 ? 0 : upper_32_bits(w);
	iw->lip[3] = lower_32_bits(w);
	w = le64_to_cpu(ctx[IRDMA_QPC_LOCAL_IP_HI]);
	iw->lip[0] = iw->ipv4 ? 0 : upper_32_bits(w);
	iw->lip[1] = iw->ipv4 ? 0 : lower_32_bits(w);
	iw->mss = FIELD_GET(IRDMA_QPC_QW6_SNDMSS, qw6);
	iw->snd_ws = FIELD_GET(IRDMA_QPC_QW7_SNDSCALE, qw7);
	iw->rcv_ws = FIELD_GET(IRDMA_QPC_QW7_RCVSCALE, qw7);
	w = le64_to_cpu(ctx[IRDMA_QPC_QW10]);
	iw->snd_nxt = FIELD_GET(IRDMA_QPC_QW10_SNDNXT, w);
	iw->snd_wnd = FIELD_GET(IRDMA_QPC_QW10_SNDWND, w);
	w = le64_to_cpu(ctx[IRDMA_QPC_QW11]);
	iw->rcv_nxt = FIELD_GET(IRDMA_QPC_QW11_RCVNXT, w);
	iw->rcv_wnd = FIELD_GET(IRDMA_QPC_QW11_RCVWND, w);
	iw->max_snd_wnd = FIELD_GET(IRDMA_QPC_QW16_MAXSNDWND,
				    le64_to_cpu(ctx[IRDMA_QPC_QW16]));
	iw->crc = !(qw20 & IRDMA_QPC_QW20_RCVNOMPACRC);
	iw->ord = clamp_t(u32, FIELD_GET(IRDMA_QPC_QW20_ORDSIZE, qw20), 1,
			  IRDMA_GEN2_MAX_ORD);
	/* IRDSIZE: 4, 16, 64, 128 or 256 entries (2 x IRD rounded up) */
	ird = FIELD_GET(IRDMA_QPC_QW20_IRDSIZE, qw20);
	iw->ird = ird < 3 ? 4U << (2 * ird) : 128U << min_t(u32, ird - 3, 1);
	iw->priv = qw20 & IRDMA_QPC_QW20_PRIVEN;
	iw->fastreg = qw20 & IRDMA_QPC_QW20_FASTREGEN;
	iw->rd_ok = qw20 & IRDMA_QPC_QW20_RDOK;
	iw->wr_ok = qw20 & IRDMA_QPC_QW20_WRRDRSPOK;
	/* the MSS may not be below what a frame needs */
	if (iw->mss < 128)
		iw->mss = 128;
}

/**
 * irdma_sim_arp_programmed() - is an ARP-cache index a programmed entry
 * @sim: instance
 * @idx: index from a QP context
 *
 * Return: true when MANAGE_ARP made entry @idx valid.
 */
static bool irdma_sim_arp_programmed(struct irdma_sim *sim, u32 idx)
{
	unsigned long flags;
	bool ok;

	spin_lock_irqsave(&sim->lock, flags);
	ok = sim->arp && idx < sim->narp && sim->arp[idx].valid;
	spin_unlock_irqrestore(&sim->lock, flags);
	return ok;
}

/**
 * irdma_sim_iw_modify() - MODIFY_QP of an iWARP QP, after the model took
 * over the new context and state
 * @sim: instance
 * @qp: QP
 * @hdr: command header
 * @qw1: its word 1 (TERMLEN)
 *
 * Context: the CQP worker.
 * Return: 0, or the CQP minor code of a refused transition.
 */
u16 irdma_sim_iw_modify(struct irdma_sim *sim, struct irdma_sim_qp *qp, u64 hdr,
			u64 qw1)
{
	u32 next = FIELD_GET(IRDMA_CQP_QP_QW3_NEXTIWSTATE, hdr);
	struct irdma_sim_iw *iw = qp->iw;
	unsigned long flags;
	u64 qw20;
	u32 arp;

	if (!iw)
		return 0;
	if (next == IRDMA_QPS_RTS && (hdr & IRDMA_CQP_QP_QW3_TOECTXVALID) &&
	    iw->phase == IRDMA_SIM_IW_IDLE) {
		qw20 = le64_to_cpu(qp->ctx[IRDMA_QPC_QW20]);
		if (qw20 & (IRDMA_QPC_QW20_SNDMARKERS | IRDMA_QPC_QW20_RCVMARKERS)) {
			dev_info_ratelimited(&sim->dev,
					     "QP %u: MPA markers are not supported\n",
					     qp->id);
			return IRDMA_CQP_MINOR_INVALID_STATE;
		}
		arp = FIELD_GET(IRDMA_QPC_QW6_ARPIDX,
				le64_to_cpu(qp->ctx[IRDMA_QPC_QW6]));
		if (!irdma_sim_arp_programmed(sim, arp)) {
			dev_info_ratelimited(&sim->dev,
					     "QP %u: ARP index %u is not a programmed entry\n",
					     qp->id, arp);
			return IRDMA_SIM_CQP_MINOR_BAD_ID;
		}
		irdma_sim_iw_read_ctx(iw, qp->ctx);
		iw->rreads = kvcalloc(iw->ord, sizeof(*iw->rreads), GFP_KERNEL);
		iw->rresps = kvcalloc(iw->ird, sizeof(*iw->rresps), GFP_KERNEL);
		if (!iw->rreads || !iw->rresps) {
			kvfree(iw->rreads);
			kvfree(iw->rresps);
			iw->rreads = NULL;
			iw->rresps = NULL;
			return IRDMA_SIM_CQP_MINOR_NO_RESOURCE;
		}
		iw->msn[IRDMA_SIM_QN_SEND] = 1;
		iw->msn[IRDMA_SIM_QN_RREQ] = 1;
		iw->msn[IRDMA_SIM_QN_TERM] = 1;
		iw->rx_msn[IRDMA_SIM_QN_SEND] = 1;
		iw->rx_msn[IRDMA_SIM_QN_RREQ] = 1;
		iw->rx_msn[IRDMA_SIM_QN_TERM] = 1;
		spin_lock_irqsave(&sim->lock, flags);
		iw->phase = IRDMA_SIM_IW_HANDOFF;
		/*
		 * the driver wrote its connection WQEs (LSMM or RTR, NOP,
		 * RTS AE) before this command and rings no doorbell for them
		 */
		WRITE_ONCE(iw->sq_armed, true);
		irdma_sim_iw_quad_add(iw);
		spin_unlock_irqrestore(&sim->lock, flags);
	}
	spin_lock_irqsave(&sim->lock, flags);
	switch (next) {
	case IRDMA_QPS_CLOSING:
		iw->close_req = true;
		break;
	case IRDMA_QPS_ERROR:
		if (hdr & IRDMA_CQP_QP_QW3_RESETCON)
			iw->reset_req = true;
		break;
	case IRDMA_QPS_TERMINATE:
		iw->term_req = true;
		iw->term_act = FIELD_GET(IRDMA_CQP_QP_QW3_TERMACT, hdr);
		iw->term_len = FIELD_GET(IRDMA_CQP_QP_QW1_TERMLEN, qw1);
		break;
	}
	spin_unlock_irqrestore(&sim->lock, flags);
	/* a reset is done when the command completes */
	if (next == IRDMA_QPS_ERROR)
		irdma_sim_iw_run_sync(iw);
	else
		irdma_sim_iw_kick(iw);
	return 0;
}

/**
 * irdma_sim_iw_flush() - FLUSH_WQES of an iWARP QP
 * @sim: instance
 * @qp: QP
 * @hdr: command header
 * @qw2: flush codes
 *
 * The flush CQEs are written before the command completes.
 *
 * Context: the CQP worker.
 */
void irdma_sim_iw_flush(struct irdma_sim *sim, struct irdma_sim_qp *qp,
			u64 hdr, u64 qw2)
{
	struct irdma_sim_iw *iw = qp->iw;
	bool user = hdr & IRDMA_CQP_FLUSH_QW3_USERFLCODE;
	unsigned long flags;

	if (!iw || !(hdr & (IRDMA_CQP_FLUSH_QW3_FLUSHSQ |
			    IRDMA_CQP_FLUSH_QW3_FLUSHRQ)))
		return;
	spin_lock_irqsave(&sim->lock, flags);
	if (hdr & IRDMA_CQP_FLUSH_QW3_FLUSHSQ) {
		iw->flush_sq = true;
		iw->flush_sq_minor = user ?
			FIELD_GET(IRDMA_CQP_FLUSH_QW2_SQMNERR, qw2) : 0;
	}
	if (hdr & IRDMA_CQP_FLUSH_QW3_FLUSHRQ) {
		iw->flush_rq = true;
		iw->flush_rq_minor = user ?
			FIELD_GET(IRDMA_CQP_FLUSH_QW2_RQMNERR, qw2) : 0;
	}
	spin_unlock_irqrestore(&sim->lock, flags);
	irdma_sim_iw_run_sync(iw);
}

/**
 * irdma_sim_iw_doorbell() - WQEALLOC named an iWARP QP
 * @sim: instance
 * @qp: live QP
 * @can_run: the writer's context may run the engine once it has dropped
 *	sim->lock (irdma_sim_iw_run_pinned())
 *
 * A kernel QP's post starts its WQEs in the poster's context when no
 * other context runs the engine, as siw does in its post_send: the work
 * item's wakeup is saved on every post.  Otherwise the work item runs it.
 *
 * Context: sim->lock held.
 * Return: the engine, claimed and pinned, for the writer to run, or NULL.
 */
struct irdma_sim_iw *irdma_sim_iw_doorbell(struct irdma_sim *sim,
					   struct irdma_sim_qp *qp,
					   bool can_run)
{
	struct irdma_sim_iw *iw = qp->iw;

	lockdep_assert_held(&sim->lock);
	if (!iw)
		return NULL;
	irdma_sim_iw_ring(iw);
	if (iw->phase != IRDMA_SIM_IW_RUN)
		return NULL;
	if (!can_run || READ_ONCE(iw->stopping)) {
		irdma_sim_iw_kick(iw);
		return NULL;
	}
	/* not claimed: its runner queues the work item for the ring */
	if (!irdma_sim_iw_claim(iw))
		return NULL;
	/* pinned live, under the lock: a destroy waits for the pin */
	atomic_inc(&iw->pins);
	sim->stats.wqealloc_inline++;
	return iw;
}

/**
 * irdma_sim_iw_run_pinned() - run an engine claimed and pinned under
 * sim->lock, then unpin it
 * @iw: engine
 *
 * The caller may be a poster in the I/O path of a block device (a
 * storage ULP's post): the engine's allocations then must not start I/O.
 *
 * Context: process context, sim->lock not held.
 */
void irdma_sim_iw_run_pinned(struct irdma_sim_iw *iw)
{
	unsigned int noio = memalloc_noio_save();

	irdma_sim_iw_run_picking(iw);
	memalloc_noio_restore(noio);
	irdma_sim_iw_unpin(iw);
}

/**
 * irdma_sim_iw_user_doorbell() - a QP id stored to the user doorbell page
 * @sim: instance
 * @id: the value stored (any: the page is the user's to write)
 *
 * The page rings user QPs only: an id that names no live iWARP QP, or a
 * privileged one, is ignored and counted.  The drop_user_db knob loses
 * doorbells here.
 *
 * Context: sim->lock held; the storing task's page fault.
 * Return: the engine, claimed and pinned, for the storing task to run on
 * its way back to user space (irdma_sim_iw_run_on_return()), or NULL.
 */
struct irdma_sim_iw *irdma_sim_iw_user_doorbell(struct irdma_sim *sim, u32 id)
{
	struct irdma_sim_qp *qp = xa_load(&sim->qps, id);
	struct irdma_sim_iw *iw;
	u32 drop;

	lockdep_assert_held(&sim->lock);
	sim->stats.user_db++;
	iw = qp && qp->live && qp->gen == sim->gen ? qp->iw : NULL;
	if (!iw || iw->priv) {
		sim->stats.user_db_ignored++;
		dev_dbg_ratelimited(&sim->dev,
				    "user doorbell of %s QP %u ignored\n",
				    iw ? "privileged" : "unknown", id);
		return NULL;
	}
	drop = READ_ONCE(sim->knobs.drop_user_db);
	if (drop) {
		/* debugfs writes the knob without the lock: a test's knob */
		WRITE_ONCE(sim->knobs.drop_user_db, drop - 1);
		sim->stats.user_db_dropped++;
		return NULL;
	}
	qp->sq_doorbells++;
	return irdma_sim_iw_doorbell(sim, qp, true);
}

/**
 * irdma_sim_iw_db_task_work() - run the engine a user doorbell claimed
 * @cb: the engine's db_cb
 *
 * Context: task work of the storing task, on its way back to user space
 * (or out of the kernel, when it exits).
 */
static void irdma_sim_iw_db_task_work(struct callback_head *cb)
{
	irdma_sim_iw_run_pinned(container_of(cb, struct irdma_sim_iw, db_cb));
}

/**
 * irdma_sim_iw_run_on_return() - have the current task run an engine
 * before it returns to user space
 * @iw: engine claimed and pinned by irdma_sim_iw_user_doorbell(); its
 *	run bit makes @iw->db_cb the caller's
 *
 * A task past its task work (exiting) hands the engine to the work item.
 *
 * Context: process, sim->lock not held.
 */
void irdma_sim_iw_run_on_return(struct irdma_sim_iw *iw)
{
	init_task_work(&iw->db_cb, irdma_sim_iw_db_task_work);
	if (!task_work_add(current, &iw->db_cb, TWA_RESUME))
		return;
	irdma_sim_iw_let_go(iw);
	irdma_sim_iw_kick(iw);
	irdma_sim_iw_unpin(iw);
}

/**
 * irdma_sim_iw_destroy() - stop the engine of a QP and free it
 * @sim: instance
 * @qp: QP being destroyed or purged
 *
 * After this the model never touches the QP's memory again; the socket is
 * closed (aborted with a RST if the connection was still up).
 *
 * Context: process context (the CQP worker or teardown); sim->lock not
 * held.
 */
void irdma_sim_iw_destroy(struct irdma_sim *sim, struct irdma_sim_qp *qp)
{
	struct irdma_sim_iw *iw = qp->iw;
	unsigned long flags;

	if (!iw)
		return;
	spin_lock_irqsave(&sim->lock, flags);
	WRITE_ONCE(iw->stopping, true);
	list_del_init(&iw->node);
	if (!hlist_unhashed(&iw->hnode))
		hash_del_rcu(&iw->hnode);
	spin_unlock_irqrestore(&sim->lock, flags);
	/*
	 * Doorbells pin only live engines, under the lock: once their pins
	 * are gone they are done with this one (their last act may have been
	 * to queue the work item, cancelled next).  The CQP worker is ours.
	 */
	wait_var_event(&iw->pins, !atomic_read(&iw->pins));
	cancel_work_sync(&iw->work);
	irdma_sim_tcp_release(iw, !iw->closed);
	cancel_work_sync(&iw->work);
	WARN_ON_ONCE(test_bit(IRDMA_SIM_IW_RUNNING, &iw->run));
	skb_queue_purge(&iw->held);
	irdma_sim_qmem_fini(&iw->sqm);
	irdma_sim_qmem_fini(&iw->rqm);
	irdma_sim_iw_free_bufs(iw);
	kvfree(iw->pend);
	kvfree(iw->rreads);
	kvfree(iw->rresps);
	qp->iw = NULL;
	kfree_rcu(iw, rcu);
}

/**
 * irdma_sim_iw_init() - the engine's per-instance parts
 * @sim: instance being created
 *
 * Return: 0 or a negative errno.
 */
int irdma_sim_iw_init(struct irdma_sim *sim)
{
	INIT_LIST_HEAD(&sim->iw_list);
	spin_lock_init(&sim->iw_bufs.lock);
	hash_init(sim->iw_quads);
	/*
	 * High priority: the applications of a latency test spin on both
	 * CPUs; a normal kworker would wait for their time slice to end.
	 */
	sim->iw_wq = alloc_workqueue("%s%u_iw", WQ_UNBOUND | WQ_MEM_RECLAIM |
				     WQ_HIGHPRI, 0, IRDMA_SIM_MODNAME, sim->id);
	if (!sim->iw_wq)
		return -ENOMEM;
	return 0;
}

/**
 * irdma_sim_iw_fini() - undo irdma_sim_iw_init()
 * @sim: instance whose QPs are all destroyed
 */
void irdma_sim_iw_fini(struct irdma_sim *sim)
{
	destroy_workqueue(sim->iw_wq);
	irdma_sim_iw_bufs_fini(sim);
}

/**
 * irdma_sim_iw_show() - debugfs: the engines
 * @sim: instance
 * @s: seq_file
 */
void irdma_sim_iw_show(struct irdma_sim *sim, struct seq_file *s)
{
	struct irdma_sim_iw *iw;
	unsigned long flags;

	spin_lock_irqsave(&sim->lock, flags);
	list_for_each_entry(iw, &sim->iw_list, node)
		seq_printf(s,
			   "qp %u phase %d err %d sq %u/%u armed %d doorbells %u rq %u/%u pend %u rr %u rs %u tx_fpdus %llu tx_bytes %llu rx_fpdus %llu rx_bytes %llu sq_wqes %llu rq_wqes %llu cqes %llu crc_errors %llu terms %llu imm_sent %llu imm_recv %llu held %llu held_dropped %llu\n",
			   iw->qpn, iw->phase, iw->err, iw->sq_tail, iw->sq_size,
			   iw->sq_armed, iw->db_seq, iw->rq_tail, iw->rq_size,
			   iw->pend_cnt, iw->rr_cnt,
			   iw->rs_cnt, iw->stats.tx_fpdus, iw->stats.tx_bytes,
			   iw->stats.rx_fpdus, iw->stats.rx_bytes,
			   iw->stats.sq_wqes, iw->stats.rq_wqes, iw->stats.cqes,
			   iw->stats.crc_errors, iw->stats.terms_sent,
			   iw->stats.imm_sent, iw->stats.imm_recv,
			   iw->stats.held, iw->stats.held_dropped);
	spin_unlock_irqrestore(&sim->lock, flags);
}
