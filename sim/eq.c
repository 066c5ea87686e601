// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * irdma_sim - completion queues, completion event queues and the
 * asynchronous event queue.
 *
 * CQE writer: a CQE is written at the CQ's tail, header word (QW3) last
 * after dma_wmb(), with the valid bit equal to the CQ's lap polarity (1 on
 * the first lap).  A group of CQEs (a UDA receive CQE and its extended
 * CQE) takes consecutive slots and is written last slot first.  The
 * driver's head index in shadow area QW0 tells when the ring is full
 * (size - 1 CQEs outstanding): with check-overflow set the CQE is dropped
 * and an AE CQ_OPERATION_ERROR is posted, otherwise the oldest CQE is
 * overwritten as hardware would.  After a resize (MODIFY_CQ) the consumer
 * first empties its old rings, writing their heads to QW0, and then adds
 * the number of rings it released to SW_CQ_SELECT in the arm word: until
 * SW_CQ_SELECT counts every resize, QW0 is not the new ring's head, and
 * none of the new ring's CQEs has been consumed.
 *
 * CEQE generation.  What is known of the adapter leaves the meaning of the
 * CEQE-mask bit open; the model implements one rule for every CQ: a CQ
 * produces a CEQE only while it is armed.  CQARM latches the request in
 * shadow area QW4: ARM_NEXT arms for the next CQE, ARM_NEXT_SE for the
 * next solicited or error CQE; the driver rings the CQARM register, user
 * space the CQARM word of the user doorbell page (udb.c).  The CEQE is
 * posted right after the CQE that matches, and posting it
 * disarms the CQ: one CEQE per arm request.
 * The CEQE-mask bit of CREATE_CQ is recorded (debugfs) but changes
 * nothing: an unarmed CQ, such as the CCQ during bring-up, is polled.
 *
 * CEQ and AEQ writers: an element is written at the queue's tail with the
 * valid bit of the lap polarity (1 first), then the queue's interrupt
 * cause is raised (irq.c).  CEQ space is accounted with CQACK (one per
 * CEQE consumed, naming the CQ); CEQEs of a destroyed CQ are given back at
 * the destroy because the driver skips them without CQACK.  AEQ space is
 * returned with AEQALLOC.  When only one AEQ slot is left the AE is
 * written with the overflow bit; when none is left it is dropped.  A QP
 * has at most IRDMA_SIM_QP_AE_INFLIGHT AEs in the AEQ (the driver sizes
 * the AEQ for that); its later AEs wait in the QP, in order, and go out as
 * AEQALLOC gives its slots back.
 */

#include <linux/bitfield.h>
#include <linux/slab.h>

#include "sim.h"

/**
 * irdma_sim_cq_get() - a live CQ of the current CQP generation
 * @sim: instance
 * @id: CQ id
 *
 * Return: the CQ, valid while sim->lock is held, or NULL.
 */
struct irdma_sim_cq *irdma_sim_cq_get(struct irdma_sim *sim, u32 id)
{
	struct irdma_sim_cq *cq;

	lockdep_assert_held(&sim->lock);

	cq = xa_load(&sim->cqs, id);
	if (!cq || !cq->live || cq->gen != sim->gen)
		return NULL;
	return cq;
}

/**
 * irdma_sim_ceq_get() - a CEQ of the current CQP generation
 * @sim: instance
 * @id: CEQ id
 *
 * Return: the CEQ, valid while sim->lock is held, or NULL.
 */
static struct irdma_sim_eq *irdma_sim_ceq_get(struct irdma_sim *sim, u32 id)
{
	struct irdma_sim_eq *ceq;

	lockdep_assert_held(&sim->lock);

	if (id >= IRDMA_SIM_MAX_CEQS)
		return NULL;
	ceq = sim->ceqs[id];
	if (!ceq || ceq->gen != sim->gen)
		return NULL;
	return ceq;
}

/**
 * irdma_sim_aeq_get() - the AEQ of the current CQP generation
 * @sim: instance
 *
 * Return: the AEQ, valid while sim->lock is held, or NULL.
 */
static struct irdma_sim_eq *irdma_sim_aeq_get(struct irdma_sim *sim)
{
	lockdep_assert_held(&sim->lock);

	if (!sim->aeq || sim->aeq->gen != sim->gen)
		return NULL;
	return sim->aeq;
}

/**
 * irdma_sim_eq_advance() - move an event queue's tail past one element
 * @eq: CEQ or AEQ
 */
static void irdma_sim_eq_advance(struct irdma_sim_eq *eq)
{
	if (++eq->tail == eq->size) {
		eq->tail = 0;
		eq->polarity ^= 1;
	}
	eq->used++;
	eq->posted++;
}

/**
 * irdma_sim_ceq_post() - write a CEQE for a CQ
 * @sim: instance
 * @cq: CQ that has a new CQE and was armed
 */
static void irdma_sim_ceq_post(struct irdma_sim *sim, struct irdma_sim_cq *cq)
{
	struct irdma_sim_eq *ceq;
	__le64 *slot;
	u64 val;

	lockdep_assert_held(&sim->lock);

	ceq = irdma_sim_ceq_get(sim, cq->ceq_id);
	if (!ceq) {
		/* normal while the driver tears down: CEQs go before CQs */
		sim->stats.ceqe_drops++;
		dev_dbg_ratelimited(&sim->dev,
				    "CEQ %u does not exist: CEQE of CQ %u dropped\n",
				    cq->ceq_id, cq->id);
		return;
	}
	if (ceq->used >= ceq->size) {
		sim->stats.ceqe_drops++;
		ceq->overflows++;
		dev_err_ratelimited(&sim->dev, "CEQ %u full: CEQE of CQ %u dropped\n",
				    cq->ceq_id, cq->id);
		return;
	}
	slot = irdma_sim_qmem_ptr(&ceq->mem, (size_t)ceq->tail * ceq->elem_size);
	val = FIELD_PREP(IRDMA_CEQE_CQCTX, cq->ctx) |
	      (ceq->polarity ? IRDMA_CEQE_VALID : 0);
	/* the CQE must be visible before the CEQE that announces it */
	dma_wmb();
	WRITE_ONCE(*slot, cpu_to_le64(val));
	irdma_sim_eq_advance(ceq);
	cq->ceqe_pending++;
	cq->ceqes++;
	sim->stats.ceqes++;
	irdma_sim_irq_raise(sim, ceq->id);
}

/**
 * irdma_sim_cq_latch() - take over the arm request in a CQ's shadow area
 * @cq: CQ
 * @arm: shadow area QW4
 */
static void irdma_sim_cq_latch(struct irdma_sim_cq *cq, u64 arm)
{
	cq->arm_seq = FIELD_GET(IRDMA_CQ_SHADOW_ARM_SEQ_NUM, arm);
	if (arm & IRDMA_CQ_SHADOW_ARM_NEXT)
		cq->armed = IRDMA_SIM_ARM_ANY;
	else if ((arm & IRDMA_CQ_SHADOW_ARM_NEXT_SE) &&
		 cq->armed != IRDMA_SIM_ARM_ANY)
		cq->armed = IRDMA_SIM_ARM_SOLICITED;
}

/**
 * irdma_sim_cq_post_n() - write a group of CQEs in consecutive slots
 * @sim: instance
 * @cq: live CQ
 * @cqes: the CQEs (a UDA receive CQE is followed by its extended CQE); the
 *	valid bit of word 3 is set by this function, to the lap polarity of
 *	each CQE's own slot
 * @n: number of CQEs, at least 1
 * @solicited: the group satisfies an ARM_NEXT_SE request (solicited or
 *	error CQE)
 *
 * The CQEs are written last first, each header after its body: once the
 * driver sees the first CQE valid, the whole group is there.  A group
 * that does not fit (the ring keeps one slot free) is dropped with an AE
 * when the CQ checks overflow, and the CQ is in error from then on: later
 * CQEs are dropped without another AE, so a consumer that stopped polling
 * cannot flood the shared AEQ.  Without the check the group overwrites
 * the oldest CQEs as hardware would.  At most one CEQE follows the group.
 *
 * Return: 0, -ENOSPC when the CQ was full and the CQEs were dropped,
 * -ENODEV once the instance is being deleted.
 */
int irdma_sim_cq_post_n(struct irdma_sim *sim, struct irdma_sim_cq *cq,
			const struct irdma_cqe *cqes, u32 n, bool solicited)
{
	u32 head, used, i, idx, w;
	__le64 *slot;
	u64 hdr;
	u8 pol;

	lockdep_assert_held(&sim->lock);

	if (sim->dead)
		return -ENODEV;
	head = FIELD_GET(IRDMA_CQ_SHADOW_QW0_CQEIDX,
			 le64_to_cpu(READ_ONCE(cq->shadow[IRDMA_CQ_SHADOW_QW0])));
	if (FIELD_GET(IRDMA_CQ_SHADOW_ARM_SW_CQ_SEL,
		      le64_to_cpu(READ_ONCE(cq->shadow[IRDMA_CQ_SHADOW_ARM]))) !=
	    cq->select)
		head = 0;	/* the consumer is still on an older ring */
	/* a head index beyond the ring says nothing: treat the ring as empty */
	used = head < cq->size ? (cq->tail + cq->size - head) % cq->size : 0;
	if (cq->overflowed) {
		/* in error since its overflow: reported once, as the adapter */
		cq->overflows++;
		sim->stats.cq_overflows++;
		return -ENOSPC;
	}
	if (used + n > cq->size - 1) {
		cq->overflows++;
		sim->stats.cq_overflows++;
		if (cq->chk_overflow) {
			cq->overflowed = true;
			dev_err_ratelimited(&sim->dev,
					    "CQ %u overflow: %u CQE(s) dropped\n",
					    cq->id, n);
			irdma_sim_aeq_post(sim, cq->ctx,
					   FIELD_PREP(IRDMA_AEQE_QW1_QPCQID_LOW, cq->id) |
					   FIELD_PREP(IRDMA_AEQE_QW1_QPCQID_HI, cq->id >> 18) |
					   FIELD_PREP(IRDMA_AEQE_QW1_AECODE,
						      IRDMA_AE_CQ_OPERATION_ERROR) |
					   FIELD_PREP(IRDMA_AEQE_QW1_AESRC,
						      IRDMA_AE_SOURCE_CQ));
			return -ENOSPC;
		}
	}

	for (i = n; i-- > 0;) {
		idx = cq->tail + i;
		pol = cq->polarity;
		if (idx >= cq->size) {
			idx -= cq->size;
			pol ^= 1;
		}
		slot = irdma_sim_qmem_ptr(&cq->mem, (size_t)idx * cq->cqe_size);
		for (w = 0; w < IRDMA_CQE_HDR; w++)
			WRITE_ONCE(slot[w], cqes[i].qw[w]);
		hdr = le64_to_cpu(cqes[i].qw[IRDMA_CQE_HDR]) & ~IRDMA_CQE_QW3_VALID;
		if (pol)
			hdr |= IRDMA_CQE_QW3_VALID;
		/* the driver reads the body only after seeing the valid bit */
		dma_wmb();
		WRITE_ONCE(slot[IRDMA_CQE_HDR], cpu_to_le64(hdr));
	}
	for (i = 0; i < n; i++) {
		if (++cq->tail == cq->size) {
			cq->tail = 0;
			cq->polarity ^= 1;
		}
	}
	cq->cqes += n;

	if (cq->armed == IRDMA_SIM_ARM_ANY ||
	    (cq->armed == IRDMA_SIM_ARM_SOLICITED && solicited)) {
		cq->armed = IRDMA_SIM_ARM_NONE;
		if (cq->ceq_valid)
			irdma_sim_ceq_post(sim, cq);
	}
	return 0;
}

/**
 * irdma_sim_cq_post() - write a CQE
 * @sim: instance
 * @cq: live CQ
 * @cqe: the four words; the valid bit of word 3 is set by this function
 * @solicited: the CQE satisfies an ARM_NEXT_SE request (solicited or error)
 *
 * Return: as irdma_sim_cq_post_n().
 */
int irdma_sim_cq_post(struct irdma_sim *sim, struct irdma_sim_cq *cq,
		      const __le64 *cqe, bool solicited)
{
	struct irdma_cqe one;

	memcpy(one.qw, cqe, sizeof(one.qw));
	return irdma_sim_cq_post_n(sim, cq, &one, 1, solicited);
}

/**
 * irdma_sim_cq_arm() - CQARM written: latch the arm request of a CQ
 * @sim: instance
 * @id: CQ id written
 */
void irdma_sim_cq_arm(struct irdma_sim *sim, u32 id)
{
	struct irdma_sim_cq *cq;
	u64 arm;

	lockdep_assert_held(&sim->lock);

	sim->stats.cqarm++;
	cq = irdma_sim_cq_get(sim, id);
	if (!cq) {
		dev_dbg_ratelimited(&sim->dev, "CQARM of unknown CQ %u\n", id);
		return;
	}
	arm = le64_to_cpu(READ_ONCE(cq->shadow[IRDMA_CQ_SHADOW_ARM]));
	/*
	 * Every arm request carries a new sequence number; the same number
	 * again is a request already taken (perhaps already fired, when a
	 * CQE was written between the shadow update and this doorbell).
	 */
	if (FIELD_GET(IRDMA_CQ_SHADOW_ARM_SEQ_NUM, arm) != cq->arm_seq)
		irdma_sim_cq_latch(cq, arm);
}

/**
 * irdma_sim_cq_ack() - CQACK written: one CEQE of a CQ was consumed
 * @sim: instance
 * @id: CQ id written
 */
void irdma_sim_cq_ack(struct irdma_sim *sim, u32 id)
{
	struct irdma_sim_eq *ceq;
	struct irdma_sim_cq *cq;

	lockdep_assert_held(&sim->lock);

	sim->stats.cqack++;
	cq = irdma_sim_cq_get(sim, id);
	if (!cq || !cq->ceqe_pending) {
		dev_dbg_ratelimited(&sim->dev,
				    "CQACK of CQ %u without an outstanding CEQE\n",
				    id);
		return;
	}
	cq->ceqe_pending--;
	ceq = irdma_sim_ceq_get(sim, cq->ceq_id);
	if (ceq && ceq->used)
		ceq->used--;
}

/**
 * irdma_sim_aeq_write() - write an AEQE into the AEQ
 * @sim: instance
 * @ctx: QW0: QP completion context or CQ context
 * @qw1: QW1 without the valid bit: ids, AE code and source, states
 * @owner: the QP whose AE it is (@owner.serial 0: none)
 *
 * Return: 0, -ENOENT without an AEQ, -ENOSPC when the AEQ is full,
 * -ENODEV once the instance is being deleted.
 */
static int irdma_sim_aeq_write(struct irdma_sim *sim, u64 ctx, u64 qw1,
			       struct irdma_sim_ae_owner owner)
{
	struct irdma_sim_eq *aeq;
	__le64 *slot;

	lockdep_assert_held(&sim->lock);

	if (sim->dead)
		return -ENODEV;
	aeq = irdma_sim_aeq_get(sim);
	if (!aeq || aeq->used >= aeq->size) {
		sim->stats.aeqe_drops++;
		if (aeq)
			aeq->overflows++;
		dev_err_ratelimited(&sim->dev, "AE %#llx dropped: %s\n",
				    FIELD_GET(IRDMA_AEQE_QW1_AECODE, qw1),
				    aeq ? "AEQ full" : "no AEQ");
		return aeq ? -ENOSPC : -ENOENT;
	}
	if (aeq->used == aeq->size - 1) {
		/* last free slot: tell the driver that events are being lost */
		qw1 |= IRDMA_AEQE_QW1_OVERFLOW;
		aeq->overflows++;
		dev_err_ratelimited(&sim->dev, "AEQ overflow\n");
	}
	qw1 &= ~IRDMA_AEQE_QW1_VALID;
	if (aeq->polarity)
		qw1 |= IRDMA_AEQE_QW1_VALID;
	slot = irdma_sim_qmem_ptr(&aeq->mem, (size_t)aeq->tail * aeq->elem_size);
	WRITE_ONCE(slot[0], cpu_to_le64(ctx));
	/* the valid bit is in QW1: QW0 must be visible first */
	dma_wmb();
	WRITE_ONCE(slot[IRDMA_AEQE_HDR], cpu_to_le64(qw1));
	aeq->owner[aeq->tail] = owner;
	irdma_sim_eq_advance(aeq);
	sim->stats.aeqes++;
	irdma_sim_irq_raise(sim, IRDMA_SIM_AEQ_CAUSE);
	return 0;
}

/**
 * irdma_sim_aeq_post() - write an AEQE of no QP
 * @sim: instance
 * @ctx: QW0: the CQ context
 * @qw1: QW1 without the valid bit
 *
 * Return: as irdma_sim_aeq_write().
 */
int irdma_sim_aeq_post(struct irdma_sim *sim, u64 ctx, u64 qw1)
{
	return irdma_sim_aeq_write(sim, ctx, qw1,
				   (struct irdma_sim_ae_owner){});
}

/**
 * irdma_sim_aeq_raise() - post function-level AEs on demand (debugfs)
 * @sim: instance
 * @code: AE code (catastrophic, resource exhaustion, ...)
 * @count: how many, in one go: more than the AEQ has room for overflows it
 *	(the last free slot carries the overflow bit, the rest are dropped)
 *
 * The AEs name no QP or CQ (id 0, source 0), as the adapter's function
 * errors do.  All are written under one hold of the lock, so the driver
 * consumes none in between.
 *
 * Return: how many were written, or a negative errno (-ENOENT without an
 * AEQ, -ENODEV once the instance is being deleted, -EINVAL for a code
 * that does not fit).
 */
int irdma_sim_aeq_raise(struct irdma_sim *sim, u32 code, u32 count)
{
	u64 qw1 = FIELD_PREP(IRDMA_AEQE_QW1_AECODE, code) |
		  FIELD_PREP(IRDMA_AEQE_QW1_AESRC, IRDMA_AE_SOURCE_RSVD);
	unsigned long flags;
	int ret = 0, n = 0;

	if (code > FIELD_MAX(IRDMA_AEQE_QW1_AECODE))
		return -EINVAL;
	spin_lock_irqsave(&sim->lock, flags);
	while (count-- && !ret) {
		ret = irdma_sim_aeq_post(sim, 0, qw1);
		if (!ret)
			n++;
	}
	spin_unlock_irqrestore(&sim->lock, flags);
	if (ret == -ENOSPC)
		ret = 0;	/* the overflow asked for */
	return n ? n : ret;
}

/**
 * irdma_sim_qp_ae_write() - write an AEQE of a QP, counting it in flight
 * @sim: instance
 * @qp: QP
 * @e: the AEQE
 *
 * Return: as irdma_sim_aeq_write().
 */
static int irdma_sim_qp_ae_write(struct irdma_sim *sim,
				 struct irdma_sim_qp *qp,
				 const struct irdma_sim_aeqe *e)
{
	struct irdma_sim_ae_owner owner = {
		.qpn = qp->id,
		.serial = qp->serial,
	};
	int ret = irdma_sim_aeq_write(sim, e->ctx, e->qw1, owner);

	if (!ret)
		qp->ae_inflight++;
	return ret;
}

/**
 * irdma_sim_qp_ae_post() - post an AE about a QP, or hold it in the QP
 * @sim: instance
 * @qp: QP
 * @code: AE code
 * @src: AE source
 * @q2_data: a frame was copied into the QP's Q2 for this AE
 * @bounded: hold the AE while IRDMA_SIM_QP_AE_INFLIGHT of the QP's AEs are
 *	in the AEQ (false: only while older ones of the QP wait, to keep
 *	them in order)
 *
 * A held AE waits in the QP (irdma_sim_aeq_credit() posts it); with
 * IRDMA_SIM_QP_AE_HELD waiting, it is dropped.
 *
 * Context: sim->lock held.
 * Return: as irdma_sim_aeq_write(), or -EBUSY when the AE was dropped.
 */
static int irdma_sim_qp_ae_post(struct irdma_sim *sim, struct irdma_sim_qp *qp,
				u32 code, u32 src, bool q2_data, bool bounded)
{
	struct irdma_sim_aeqe e = {
		.ctx = qp->comp_ctx,
		.qw1 = FIELD_PREP(IRDMA_AEQE_QW1_QPCQID_LOW, qp->id) |
		       FIELD_PREP(IRDMA_AEQE_QW1_QPCQID_HI, qp->id >> 18) |
		       FIELD_PREP(IRDMA_AEQE_QW1_AECODE, code) |
		       FIELD_PREP(IRDMA_AEQE_QW1_AESRC, src) |
		       FIELD_PREP(IRDMA_AEQE_QW1_IWSTATE, qp->state) |
		       FIELD_PREP(IRDMA_AEQE_QW1_TCPSTATE, qp->tcp_state) |
		       FIELD_PREP(IRDMA_AEQE_QW1_Q2DATA, q2_data),
	};

	lockdep_assert_held(&sim->lock);
	if (!qp->ae_nheld &&
	    (!bounded || qp->ae_inflight < IRDMA_SIM_QP_AE_INFLIGHT))
		return irdma_sim_qp_ae_write(sim, qp, &e);
	if (qp->ae_nheld == IRDMA_SIM_QP_AE_HELD) {
		qp->ae_dropped++;
		sim->stats.aeqe_qp_drops++;
		dev_err_ratelimited(&sim->dev,
				    "QP %u: AE %#x dropped: %u of its AEs wait for the driver\n",
				    qp->id, code, qp->ae_nheld);
		return -EBUSY;
	}
	qp->ae_held[qp->ae_nheld++] = e;
	sim->stats.aeqe_held++;
	return 0;
}

/**
 * irdma_sim_qp_ae() - post an AE the QP's own traffic raised
 * @sim: instance
 * @qp: QP
 * @code: AE code
 * @src: AE source
 * @q2_data: a frame was copied into the QP's Q2 for this AE
 *
 * What a QP's traffic raises, user space drives (its WQEs, its peer), so
 * it is held to the QP's in-flight bound: one QP's burst cannot fill the
 * function's AEQ and cost other QPs their events.
 *
 * Context: sim->lock held.
 * Return: as irdma_sim_qp_ae_post().
 */
int irdma_sim_qp_ae(struct irdma_sim *sim, struct irdma_sim_qp *qp, u32 code,
		    u32 src, bool q2_data)
{
	return irdma_sim_qp_ae_post(sim, qp, code, src, q2_data, true);
}

/**
 * irdma_sim_qp_ae_cmd() - post an AE a control-QP command asked for
 * @sim: instance
 * @qp: QP
 * @code: AE code
 * @src: AE source
 *
 * The driver's own commands (FLUSH_WQES with GENERATE_AE, SUSPEND_QP) are
 * not held to the in-flight bound: the AE meets only the AEQ's own room,
 * as on the adapter, unless older AEs of the QP wait (it waits behind
 * them, in order).
 *
 * Context: sim->lock held.
 * Return: as irdma_sim_qp_ae_post().
 */
int irdma_sim_qp_ae_cmd(struct irdma_sim *sim, struct irdma_sim_qp *qp,
			u32 code, u32 src)
{
	return irdma_sim_qp_ae_post(sim, qp, code, src, false, false);
}

/**
 * irdma_sim_aeq_release() - an AEQ slot was consumed: its QP may post more
 * @sim: instance
 * @owner: whose AE the slot held
 *
 * Context: sim->lock held.
 */
static void irdma_sim_aeq_release(struct irdma_sim *sim,
				  struct irdma_sim_ae_owner owner)
{
	struct irdma_sim_qp *qp;

	if (!owner.serial)
		return;
	qp = xa_load(&sim->qps, owner.qpn);
	if (!qp || qp->serial != owner.serial || WARN_ON_ONCE(!qp->ae_inflight))
		return;
	qp->ae_inflight--;
	if (!qp->ae_nheld || irdma_sim_qp_ae_write(sim, qp, &qp->ae_held[0]))
		return;
	memmove(&qp->ae_held[0], &qp->ae_held[1],
		--qp->ae_nheld * sizeof(qp->ae_held[0]));
}

/**
 * irdma_sim_aeq_credit() - AEQALLOC written: AEQEs consumed
 * @sim: instance
 * @n: number of AEQEs the driver consumed
 */
void irdma_sim_aeq_credit(struct irdma_sim *sim, u32 n)
{
	struct irdma_sim_eq *aeq;
	u32 head;

	lockdep_assert_held(&sim->lock);

	sim->stats.aeqalloc++;
	aeq = irdma_sim_aeq_get(sim);
	if (!aeq)
		return;
	if (n > aeq->used) {
		dev_dbg_ratelimited(&sim->dev,
				    "AEQALLOC %u with %u AEQEs outstanding\n",
				    n, aeq->used);
		n = aeq->used;
	}
	/* the oldest n slots, from the one before the outstanding ones */
	head = (aeq->tail + aeq->size - aeq->used) % aeq->size;
	aeq->used -= n;
	while (n--) {
		irdma_sim_aeq_release(sim, aeq->owner[head]);
		head = (head + 1) % aeq->size;
	}
}

/**
 * irdma_sim_cq_free() - free a CQ nobody can look up any more
 * @cq: CQ erased from the table, not live
 */
static void irdma_sim_cq_free(struct irdma_sim_cq *cq)
{
	irdma_sim_qmem_fini(&cq->mem);
	kfree_rcu(cq, rcu);
}

/**
 * irdma_sim_eq_free() - free a CEQ or the AEQ nobody can reach any more
 * @eq: queue detached under sim->lock
 */
static void irdma_sim_eq_free(struct irdma_sim_eq *eq)
{
	irdma_sim_qmem_fini(&eq->mem);
	kvfree(eq->owner);
	kfree(eq);
}

/**
 * irdma_sim_cq_ring() - set up the ring and shadow area of a CQ
 * @sim: instance
 * @cmd: CREATE_CQ or MODIFY_CQ
 * @cq: CQ whose size and CQE size are set
 * @mem: ring memory to fill
 * @shadow: shadow area address to fill
 *
 * Return: true on success; on failure @cmd is failed.
 */
static bool irdma_sim_cq_ring(struct irdma_sim *sim, struct irdma_sim_cmd *cmd,
			      struct irdma_sim_cq *cq,
			      struct irdma_sim_qmem *mem, __le64 **shadow)
{
	u64 hdr = irdma_sim_qw(cmd, IRDMA_CQP_WQE_HDR);
	u64 shadow_pa = irdma_sim_qw(cmd, IRDMA_CQP_CQ_SHADOW_PA);
	u64 ring_pa = irdma_sim_qw(cmd, IRDMA_CQP_CQ_RING_PA);
	u64 qw6 = irdma_sim_qw(cmd, IRDMA_CQP_CQ_QW6);
	int err;

	err = irdma_sim_qmem_init(sim, mem, ring_pa,
				  hdr & IRDMA_CQP_QW3_VIRTMAP,
				  FIELD_GET(IRDMA_CQP_QW3_LPBLSIZE, hdr),
				  FIELD_GET(IRDMA_CQP_CQ_QW6_FIRST_PBLE, qw6),
				  (size_t)cq->size * cq->cqe_size,
				  IRDMA_RING_ALIGN);
	if (err) {
		irdma_sim_cmd_fail(sim, cmd, irdma_sim_errno_minor(err),
				   "CQ %u ring (%u CQEs) not usable: %d\n",
				   cq->id, cq->size, err);
		return false;
	}
	*shadow = IS_ALIGNED(shadow_pa, sizeof(u64)) ?
		irdma_sim_dma_va(sim, shadow_pa,
				 IRDMA_CQ_SHADOW_WORDS * sizeof(u64)) : NULL;
	if (!*shadow) {
		irdma_sim_qmem_fini(mem);
		irdma_sim_cmd_fail(sim, cmd, IRDMA_SIM_CQP_MINOR_BAD_ADDR,
				   "CQ %u shadow area %#llx not in RAM\n",
				   cq->id, shadow_pa);
		return false;
	}
	cq->shadow_pa = shadow_pa;
	return true;
}

/**
 * irdma_sim_op_create_cq() - CREATE_CQ
 * @sim: instance
 * @cmd: command
 *
 * CQ 0 is the CCQ: the completion of its own creation goes into it.
 */
void irdma_sim_op_create_cq(struct irdma_sim *sim, struct irdma_sim_cmd *cmd)
{
	u64 hdr = irdma_sim_qw(cmd, IRDMA_CQP_WQE_HDR);
	u32 id = FIELD_GET(IRDMA_CQP_CQ_QW3_GEN2_CQID, hdr);
	u32 size = FIELD_GET(IRDMA_CQP_CQ_QW0_SIZE,
			     irdma_sim_qw(cmd, IRDMA_CQP_CQ_QW0));
	u32 ceq_id = FIELD_GET(IRDMA_CQP_CQ_QW3_GEN2_CEQID, hdr);
	struct irdma_sim_cq *cq;
	unsigned long flags;
	int err;

	if (!irdma_sim_obj_id_ok(sim, cmd, IRDMA_HMC_CQ, id))
		return;
	if (xa_load(&sim->cqs, id)) {
		irdma_sim_cmd_fail(sim, cmd, IRDMA_SIM_CQP_MINOR_BAD_ID,
				   "CQ %u exists\n", id);
		return;
	}
	if (size < 2 || size > IRDMA_GEN2_MAX_CQ_SIZE) {
		irdma_sim_cmd_fail(sim, cmd, IRDMA_SIM_CQP_MINOR_BAD_SIZE,
				   "CQ %u size %u\n", id, size);
		return;
	}
	if ((hdr & IRDMA_CQP_CQ_QW3_CEQIDVALID) && ceq_id >= IRDMA_SIM_MAX_CEQS) {
		irdma_sim_cmd_fail(sim, cmd, IRDMA_SIM_CQP_MINOR_BAD_ID,
				   "CQ %u names CEQ %u\n", id, ceq_id);
		return;
	}
	cq = kzalloc(sizeof(*cq), GFP_KERNEL);
	if (!cq) {
		irdma_sim_cmd_fail(sim, cmd, IRDMA_SIM_CQP_MINOR_NO_RESOURCE,
				   "CQ %u: out of memory\n", id);
		return;
	}
	cq->id = id;
	cq->gen = sim->purged_gen;
	cq->size = size;
	cq->cqe_size = hdr & IRDMA_CQP_CQ_QW3_AVOIDMEMCNFLCT ? 64 : 32;
	cq->ctx = FIELD_GET(IRDMA_CQP_CQ_QW1_CTX,
			    irdma_sim_qw(cmd, IRDMA_CQP_CQ_QW1));
	cq->ceq_valid = hdr & IRDMA_CQP_CQ_QW3_CEQIDVALID;
	cq->ceq_id = cq->ceq_valid ? ceq_id : 0;
	cq->ceqe_mask = hdr & IRDMA_CQP_CQ_QW3_ENCEQEMASK;
	cq->chk_overflow = hdr & IRDMA_CQP_CQ_QW3_CHKOVERFLOW;
	cq->polarity = 1;
	if (!irdma_sim_cq_ring(sim, cmd, cq, &cq->mem, &cq->shadow)) {
		kfree(cq);
		return;
	}
	/* only a later change of the sequence number is an arm request */
	cq->arm_seq = FIELD_GET(IRDMA_CQ_SHADOW_ARM_SEQ_NUM,
				le64_to_cpu(READ_ONCE(cq->shadow[IRDMA_CQ_SHADOW_ARM])));
	err = xa_insert(&sim->cqs, id, cq, GFP_KERNEL);
	if (err) {
		irdma_sim_qmem_fini(&cq->mem);
		kfree(cq);
		irdma_sim_cmd_fail(sim, cmd, irdma_sim_errno_minor(err),
				   "CQ %u: cannot record it (%d)\n", id, err);
		return;
	}
	spin_lock_irqsave(&sim->lock, flags);
	cq->live = true;
	spin_unlock_irqrestore(&sim->lock, flags);
}

/**
 * irdma_sim_cq_lookup() - a CQ named by a command
 * @sim: instance
 * @cmd: command (failed when the CQ does not exist)
 * @id: CQ id
 *
 * Context: the CQP worker (the only one changing the CQ table).
 * Return: the CQ or NULL.
 */
static struct irdma_sim_cq *irdma_sim_cq_lookup(struct irdma_sim *sim,
						struct irdma_sim_cmd *cmd,
						u32 id)
{
	struct irdma_sim_cq *cq = xa_load(&sim->cqs, id);

	if (!cq || !cq->live) {
		irdma_sim_cmd_fail(sim, cmd, IRDMA_SIM_CQP_MINOR_BAD_ID,
				   "CQ %u does not exist\n", id);
		return NULL;
	}
	return cq;
}

/**
 * irdma_sim_op_modify_cq() - MODIFY_CQ: resize (new ring) and/or settings
 * @sim: instance
 * @cmd: command
 *
 * After a resize the model writes the new ring from index 0, polarity 1,
 * and counts the resize for SW_CQ_SELECT (see the top of this file).
 */
void irdma_sim_op_modify_cq(struct irdma_sim *sim, struct irdma_sim_cmd *cmd)
{
	u64 hdr = irdma_sim_qw(cmd, IRDMA_CQP_WQE_HDR);
	u32 id = FIELD_GET(IRDMA_CQP_CQ_QW3_GEN2_CQID, hdr);
	u32 size = FIELD_GET(IRDMA_CQP_CQ_QW0_SIZE,
			     irdma_sim_qw(cmd, IRDMA_CQP_CQ_QW0));
	struct irdma_sim_qmem mem, old;
	struct irdma_sim_cq *cq, tmp;
	unsigned long flags;
	__le64 *shadow;

	cq = irdma_sim_cq_lookup(sim, cmd, id);
	if (!cq)
		return;
	if (!(hdr & IRDMA_CQP_CQ_QW3_CQRESIZE)) {
		spin_lock_irqsave(&sim->lock, flags);
		cq->chk_overflow = hdr & IRDMA_CQP_CQ_QW3_CHKOVERFLOW;
		cq->ceqe_mask = hdr & IRDMA_CQP_CQ_QW3_ENCEQEMASK;
		spin_unlock_irqrestore(&sim->lock, flags);
		return;
	}
	if (size < 2 || size > IRDMA_GEN2_MAX_CQ_SIZE) {
		irdma_sim_cmd_fail(sim, cmd, IRDMA_SIM_CQP_MINOR_BAD_SIZE,
				   "CQ %u new size %u\n", id, size);
		return;
	}
	tmp.id = id;
	tmp.size = size;
	tmp.cqe_size = hdr & IRDMA_CQP_CQ_QW3_AVOIDMEMCNFLCT ? 64 : 32;
	if (!irdma_sim_cq_ring(sim, cmd, &tmp, &mem, &shadow))
		return;

	spin_lock_irqsave(&sim->lock, flags);
	old = cq->mem;
	cq->mem = mem;
	cq->shadow = shadow;
	cq->shadow_pa = tmp.shadow_pa;
	cq->size = size;
	cq->cqe_size = tmp.cqe_size;
	cq->tail = 0;
	cq->polarity = 1;
	cq->select = (cq->select + 1) &
		     FIELD_MAX(IRDMA_CQ_SHADOW_ARM_SW_CQ_SEL);
	cq->chk_overflow = hdr & IRDMA_CQP_CQ_QW3_CHKOVERFLOW;
	cq->ceqe_mask = hdr & IRDMA_CQP_CQ_QW3_ENCEQEMASK;
	spin_unlock_irqrestore(&sim->lock, flags);
	irdma_sim_qmem_fini(&old);
}

/**
 * irdma_sim_op_destroy_cq() - DESTROY_CQ
 * @sim: instance
 * @cmd: command
 *
 * From now on the model never touches the CQ's memory.  Destroying the
 * CCQ means the completion of this command is reported by CQPTAIL only.
 */
void irdma_sim_op_destroy_cq(struct irdma_sim *sim, struct irdma_sim_cmd *cmd)
{
	u64 hdr = irdma_sim_qw(cmd, IRDMA_CQP_WQE_HDR);
	u32 id = FIELD_GET(IRDMA_CQP_CQ_QW3_GEN2_CQID, hdr);
	struct irdma_sim_eq *ceq;
	struct irdma_sim_cq *cq;
	unsigned long flags;

	cq = irdma_sim_cq_lookup(sim, cmd, id);
	if (!cq)
		return;
	spin_lock_irqsave(&sim->lock, flags);
	cq->live = false;
	/* the driver skips this CQ's CEQEs without CQACK: give them back */
	ceq = irdma_sim_ceq_get(sim, cq->ceq_id);
	if (ceq && cq->ceqe_pending)
		ceq->used -= min(ceq->used, cq->ceqe_pending);
	spin_unlock_irqrestore(&sim->lock, flags);
	xa_erase(&sim->cqs, id);
	irdma_sim_cq_free(cq);
}

/* CREATE_CEQ and CREATE_AEQ place the ring in the same words */
static_assert(IRDMA_CQP_CEQ_RING_PA == IRDMA_CQP_AEQ_RING_PA);
static_assert(IRDMA_CQP_CEQ_QW6 == IRDMA_CQP_AEQ_QW6);

/**
 * irdma_sim_eq_create() - common part of CREATE_CEQ and CREATE_AEQ
 * @sim: instance
 * @cmd: command
 * @id: CEQ id (0 for the AEQ)
 * @size: element count
 * @elem_size: bytes per element
 *
 * Return: the new queue (not yet published) or NULL with @cmd failed.
 */
static struct irdma_sim_eq *irdma_sim_eq_create(struct irdma_sim *sim,
						struct irdma_sim_cmd *cmd,
						u32 id, u32 size, u32 elem_size)
{
	u64 hdr = irdma_sim_qw(cmd, IRDMA_CQP_WQE_HDR);
	struct irdma_sim_eq *eq;
	int err;

	eq = kzalloc(sizeof(*eq), GFP_KERNEL);
	if (!eq) {
		irdma_sim_cmd_fail(sim, cmd, IRDMA_SIM_CQP_MINOR_NO_RESOURCE,
				   "out of memory\n");
		return NULL;
	}
	eq->id = id;
	eq->gen = sim->purged_gen;
	eq->size = size;
	eq->elem_size = elem_size;
	eq->polarity = 1;
	err = irdma_sim_qmem_init(sim, &eq->mem,
				  irdma_sim_qw(cmd, IRDMA_CQP_CEQ_RING_PA),
				  hdr & IRDMA_CQP_QW3_VIRTMAP,
				  FIELD_GET(IRDMA_CQP_QW3_LPBLSIZE, hdr),
				  FIELD_GET(IRDMA_CQP_CEQ_QW6_FIRST_PBLE,
					    irdma_sim_qw(cmd, IRDMA_CQP_CEQ_QW6)),
				  (size_t)size * elem_size, IRDMA_RING_ALIGN);
	if (err) {
		kfree(eq);
		irdma_sim_cmd_fail(sim, cmd, irdma_sim_errno_minor(err),
				   "ring of %u elements not usable: %d\n", size,
				   err);
		return NULL;
	}
	return eq;
}

/**
 * irdma_sim_op_create_ceq() - CREATE_CEQ
 * @sim: instance
 * @cmd: command
 */
void irdma_sim_op_create_ceq(struct irdma_sim *sim, struct irdma_sim_cmd *cmd)
{
	u32 id = FIELD_GET(IRDMA_CQP_CEQ_QW3_CEQID,
			   irdma_sim_qw(cmd, IRDMA_CQP_WQE_HDR));
	u32 size = FIELD_GET(IRDMA_CQP_CEQ_QW2_ELEMCNT,
			     irdma_sim_qw(cmd, IRDMA_CQP_CEQ_QW2));
	struct irdma_sim_eq *ceq;
	unsigned long flags;

	if (id >= IRDMA_SIM_MAX_CEQS || sim->ceqs[id]) {
		irdma_sim_cmd_fail(sim, cmd, IRDMA_SIM_CQP_MINOR_BAD_ID,
				   "CEQ %u %s\n", id,
				   id >= IRDMA_SIM_MAX_CEQS ? "beyond the maximum" :
							      "exists");
		return;
	}
	if (size < 2 || size > IRDMA_CEQ_MAX_COUNT) {
		irdma_sim_cmd_fail(sim, cmd, IRDMA_SIM_CQP_MINOR_BAD_SIZE,
				   "CEQ %u size %u\n", id, size);
		return;
	}
	ceq = irdma_sim_eq_create(sim, cmd, id, size, IRDMA_CEQE_SIZE);
	if (!ceq)
		return;
	spin_lock_irqsave(&sim->lock, flags);
	sim->ceqs[id] = ceq;
	spin_unlock_irqrestore(&sim->lock, flags);
}

/**
 * irdma_sim_op_destroy_ceq() - DESTROY_CEQ
 * @sim: instance
 * @cmd: command
 */
void irdma_sim_op_destroy_ceq(struct irdma_sim *sim, struct irdma_sim_cmd *cmd)
{
	u32 id = FIELD_GET(IRDMA_CQP_CEQ_QW3_CEQID,
			   irdma_sim_qw(cmd, IRDMA_CQP_WQE_HDR));
	struct irdma_sim_eq *ceq;
	unsigned long flags;

	if (id >= IRDMA_SIM_MAX_CEQS || !sim->ceqs[id]) {
		irdma_sim_cmd_fail(sim, cmd, IRDMA_SIM_CQP_MINOR_BAD_ID,
				   "CEQ %u does not exist\n", id);
		return;
	}
	spin_lock_irqsave(&sim->lock, flags);
	ceq = sim->ceqs[id];
	sim->ceqs[id] = NULL;
	__clear_bit(id, sim->irq.pending);
	spin_unlock_irqrestore(&sim->lock, flags);
	irdma_sim_eq_free(ceq);
}

/**
 * irdma_sim_op_create_aeq() - CREATE_AEQ
 * @sim: instance
 * @cmd: command
 */
void irdma_sim_op_create_aeq(struct irdma_sim *sim, struct irdma_sim_cmd *cmd)
{
	u32 size = FIELD_GET(IRDMA_CQP_AEQ_QW2_ELEMCNT,
			     irdma_sim_qw(cmd, IRDMA_CQP_AEQ_QW2));
	struct irdma_sim_eq *aeq;
	unsigned long flags;

	if (sim->aeq) {
		irdma_sim_cmd_fail(sim, cmd, IRDMA_SIM_CQP_MINOR_BAD_ORDER,
				   "the AEQ exists\n");
		return;
	}
	if (size < 2 || size > IRDMA_AEQ_MAX_COUNT) {
		irdma_sim_cmd_fail(sim, cmd, IRDMA_SIM_CQP_MINOR_BAD_SIZE,
				   "AEQ size %u\n", size);
		return;
	}
	aeq = irdma_sim_eq_create(sim, cmd, 0, size, sizeof(struct irdma_aeqe));
	if (!aeq)
		return;
	aeq->owner = kvcalloc(size, sizeof(*aeq->owner), GFP_KERNEL);
	if (!aeq->owner) {
		irdma_sim_eq_free(aeq);
		irdma_sim_cmd_fail(sim, cmd, IRDMA_SIM_CQP_MINOR_NO_RESOURCE,
				   "out of memory\n");
		return;
	}
	spin_lock_irqsave(&sim->lock, flags);
	sim->aeq = aeq;
	spin_unlock_irqrestore(&sim->lock, flags);
}

/**
 * irdma_sim_op_destroy_aeq() - DESTROY_AEQ
 * @sim: instance
 * @cmd: command
 */
void irdma_sim_op_destroy_aeq(struct irdma_sim *sim, struct irdma_sim_cmd *cmd)
{
	struct irdma_sim_eq *aeq;
	unsigned long flags;

	if (!sim->aeq) {
		irdma_sim_cmd_fail(sim, cmd, IRDMA_SIM_CQP_MINOR_BAD_ORDER,
				   "there is no AEQ\n");
		return;
	}
	spin_lock_irqsave(&sim->lock, flags);
	aeq = sim->aeq;
	sim->aeq = NULL;
	__clear_bit(IRDMA_SIM_AEQ_CAUSE, sim->irq.pending);
	spin_unlock_irqrestore(&sim->lock, flags);
	irdma_sim_eq_free(aeq);
}

/**
 * irdma_sim_eq_purge() - free every CQ, CEQ and the AEQ
 * @sim: instance whose CQP generation moved on, or that is being deleted
 *
 * Context: the CQP worker, or teardown after processing stopped.
 */
void irdma_sim_eq_purge(struct irdma_sim *sim)
{
	struct irdma_sim_eq *eq;
	struct irdma_sim_cq *cq;
	unsigned long flags, idx;
	u32 i;

	xa_for_each(&sim->cqs, idx, cq) {
		spin_lock_irqsave(&sim->lock, flags);
		cq->live = false;
		spin_unlock_irqrestore(&sim->lock, flags);
		xa_erase(&sim->cqs, idx);
		irdma_sim_cq_free(cq);
	}
	for (i = 0; i <= IRDMA_SIM_MAX_CEQS; i++) {
		spin_lock_irqsave(&sim->lock, flags);
		if (i < IRDMA_SIM_MAX_CEQS) {
			eq = sim->ceqs[i];
			sim->ceqs[i] = NULL;
		} else {
			eq = sim->aeq;
			sim->aeq = NULL;
		}
		spin_unlock_irqrestore(&sim->lock, flags);
		if (eq)
			irdma_sim_eq_free(eq);
	}
}
