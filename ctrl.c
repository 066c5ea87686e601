// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * irdma - the control QP (CQP) engine and one typed function per adapter
 * command.
 *
 * Only this file builds CQP descriptors.  Callers describe a command with a
 * parameter struct; the typed function encodes it (defs.h) and hands it to
 * irdma_cqp_exec(), which owns the ring: it bounds the commands in flight,
 * writes the descriptor with the valid bit last, rings the doorbell and
 * waits for the completion with a timeout, in one of three modes (enum
 * irdma_cqp_mode) that follow the bring-up: register polling before the
 * completion queue (CCQ) exists, CCQ polling until the event queues exist,
 * then interrupts with a polling backstop.
 */
#include <linux/delay.h>
#include <linux/dma-mapping.h>
#include <linux/etherdevice.h>
#include <linux/if_vlan.h>
#include <linux/log2.h>
#include <linux/moduleparam.h>
#include <net/inet_ecn.h>

#include "irdma.h"
#include "ctrl.h"
#define CREATE_TRACE_POINTS
#include "hw_trace.h"

/* the retransmit timeout floor an iWARP QP context asks for */
#define IRDMA_QPC_RTO_MIN	5

static unsigned int cqp_timeout_ms = 10000;
module_param(cqp_timeout_ms, uint, 0444);
MODULE_PARM_DESC(cqp_timeout_ms,
		 "Time a control QP command may take before it fails (ms, default 10000)");

static bool cqp_poll;
module_param(cqp_poll, bool, 0444);
MODULE_PARM_DESC(cqp_poll,
		 "Find control QP completions by polling instead of interrupts (default: interrupts)");

static unsigned int cqp_spin_us = 20;
module_param(cqp_spin_us, uint, 0644);
MODULE_PARM_DESC(cqp_spin_us,
		 "Time a control QP command's poster polls for its completion before it sleeps (us, default 20, at most 1000, 0: sleep at once)");

#define IRDMA_CQP_SQ_SIZE		2048
#define IRDMA_CQP_MAX_INFLIGHT		256
#define IRDMA_CQP_POLL_US		10
#define IRDMA_CQP_SPIN_MAX_US		1000U
#define IRDMA_CQP_BACKSTOP_MS		10
#define IRDMA_CQP_HANDSHAKE_TRIES	100000

/**
 * irdma_cqp_req_free() - kref release of a CQP request
 * @kref: the request's reference count
 */
static void irdma_cqp_req_free(struct kref *kref)
{
	kfree(container_of(kref, struct irdma_cqp_request, refcnt));
}

/**
 * irdma_cqp_req_put() - drop a reference on a CQP request
 * @req: request
 */
static void irdma_cqp_req_put(struct irdma_cqp_request *req)
{
	WARN_ON(!kref_read(&req->refcnt));
	kref_put(&req->refcnt, irdma_cqp_req_free);
}

/**
 * irdma_cqp_ring_full() - no slot may be taken right now
 * @cqp: control QP
 *
 * One slot always stays free so that head == tail means empty.
 *
 * Context: cqp->lock held.
 * Return: true if the poster must wait.
 */
static bool irdma_cqp_ring_full(struct irdma_cqp *cqp)
{
	lockdep_assert_held(&cqp->lock);
	return (cqp->head + 1) % cqp->size == cqp->tail ||
	       cqp->inflight >= IRDMA_CQP_MAX_INFLIGHT;
}

/**
 * struct irdma_cqp_result - what the adapter reported for one command
 * @error: the error bit
 * @major: major error code
 * @minor: minor error code
 * @op_ret: command-specific return value
 */
struct irdma_cqp_result {
	bool error;
	u16 major;
	u16 minor;
	u32 op_ret;
};

/**
 * irdma_cqp_complete_slot() - finish the command in a slot
 * @cqp: control QP
 * @slot: SQ index the adapter completed
 * @res: what the adapter reported
 *
 * The adapter completes commands in ring order, so the tail moves past
 * @slot.  The request (if its waiter has not given up) is completed.
 *
 * Context: cqp->lock held.
 */
static void irdma_cqp_complete_slot(struct irdma_cqp *cqp, u32 slot,
				    const struct irdma_cqp_result *res)
{
	struct irdma_cqp_request *req;

	lockdep_assert_held(&cqp->lock);
	req = cqp->reqs[slot];
	cqp->reqs[slot] = NULL;
	cqp->tail = (slot + 1) % cqp->size;
	cqp->stats.completed++;
	if (res->error)
		cqp->stats.errors++;
	if (!req)
		return;
	cqp->inflight--;
	req->error = res->error;
	req->major = res->major;
	req->minor = res->minor;
	req->op_ret = res->op_ret;
	complete(&req->done);
	irdma_cqp_req_put(req);
}

/**
 * irdma_ccq_pending() - is a control completion waiting?
 * @rf: RDMA function
 *
 * A hint read without cqp->lock (the head may move meanwhile): a waiter
 * calls irdma_ccq_process() only when it says yes.
 *
 * Return: true when the CCQ's next CQE is valid.
 */
static bool irdma_ccq_pending(struct irdma_pci_f *rf)
{
	struct irdma_cq_ring *ccq = &rf->cqp.ccq;
	const struct irdma_cqe *cqe;
	u64 hdr;

	if (!READ_ONCE(rf->cqp.ccq_ready))
		return false;
	cqe = (const struct irdma_cqe *)ccq->mem.va + READ_ONCE(ccq->head);
	hdr = le64_to_cpu(READ_ONCE(cqe->qw[IRDMA_CQE_HDR]));
	return FIELD_GET(IRDMA_CCQ_CQE_QW3_VALID, hdr) == READ_ONCE(ccq->polarity);
}

/**
 * irdma_ccq_process() - consume the control completion queue
 * @rf: RDMA function
 *
 * Safe to call from the CEQ's interrupt handler and its thread and from
 * waiters polling as a backstop: all serialise on cqp->lock.
 *
 * Context: any; does not sleep.
 */
void irdma_ccq_process(struct irdma_pci_f *rf)
{
	struct irdma_cqp *cqp = &rf->cqp;
	struct irdma_cq_ring *ccq = &cqp->ccq;
	struct irdma_cqe *ring;
	unsigned long flags;
	bool progressed = false;

	spin_lock_irqsave(&cqp->lock, flags);
	if (!cqp->ccq_ready)
		goto out;
	ring = ccq->mem.va;
	for (;;) {
		struct irdma_cqe *cqe = &ring[ccq->head];
		u64 hdr = le64_to_cpu(READ_ONCE(cqe->qw[IRDMA_CQE_HDR]));
		u32 slot;

		if (FIELD_GET(IRDMA_CCQ_CQE_QW3_VALID, hdr) != ccq->polarity)
			break;
		/* read the rest of the CQE only after seeing it valid */
		dma_rmb();
		slot = FIELD_GET(IRDMA_CCQ_CQE_QW3_WQEIDX, hdr);
		if (slot >= cqp->size) {
			dev_err_ratelimited(rf->dma_dev,
					    "CCQ CQE names CQP slot %u of %u\n",
					    slot, cqp->size);
		} else {
			u64 qw2 = le64_to_cpu(cqe->qw[IRDMA_CCQ_CQE_QW2]);
			struct irdma_cqp_result res = {
				.error = FIELD_GET(IRDMA_CCQ_CQE_QW3_ERROR, hdr),
				.major = FIELD_GET(IRDMA_CCQ_CQE_QW3_MAJOR_ERR, hdr),
				.minor = FIELD_GET(IRDMA_CCQ_CQE_QW3_MINOR_ERR, hdr),
				.op_ret = FIELD_GET(IRDMA_CCQ_CQE_QW2_OP_RET, qw2),
			};

			irdma_cqp_complete_slot(cqp, slot, &res);
		}
		if (++ccq->head == ccq->size) {
			ccq->head = 0;
			ccq->polarity ^= 1;
		}
		progressed = true;
	}
	if (progressed)
		/* tell the adapter how far we consumed */
		WRITE_ONCE(ccq->shadow[IRDMA_CQ_SHADOW_QW0],
			   le64_encode_bits(ccq->head, IRDMA_CQ_SHADOW_QW0_CQEIDX));
out:
	spin_unlock_irqrestore(&cqp->lock, flags);
	if (progressed)
		wake_up(&cqp->slot_wq);
}

/**
 * irdma_cq_ring_arm() - ask for an event on the next completion of a CQ
 * @rf: RDMA function
 * @ring: the CQ
 * @solicited: only for solicited completions and errors
 *
 * Context: any; does not sleep.
 */
void irdma_cq_ring_arm(struct irdma_pci_f *rf, struct irdma_cq_ring *ring,
		       bool solicited)
{
	u64 arm = le64_to_cpu(READ_ONCE(ring->shadow[IRDMA_CQ_SHADOW_ARM]));

	ring->arm_seq++;
	arm &= IRDMA_CQ_SHADOW_ARM_SW_CQ_SEL;
	arm |= FIELD_PREP(IRDMA_CQ_SHADOW_ARM_SEQ_NUM, ring->arm_seq) |
	       (solicited ? IRDMA_CQ_SHADOW_ARM_NEXT_SE :
			    IRDMA_CQ_SHADOW_ARM_NEXT);
	WRITE_ONCE(ring->shadow[IRDMA_CQ_SHADOW_ARM], cpu_to_le64(arm));
	/* the arm word must be visible before the doorbell */
	dma_wmb();
	irdma_wr32(rf, IRDMA_REG_CQARM, ring->id);
}

/**
 * irdma_ccq_arm() - arm the CCQ for its next completion
 * @rf: RDMA function
 */
void irdma_ccq_arm(struct irdma_pci_f *rf)
{
	irdma_cq_ring_arm(rf, &rf->cqp.ccq, false);
}

/**
 * irdma_ccq_irq() - take control completions in the hard interrupt handler
 * @rf: RDMA function
 *
 * A poster sleeping on its command is woken from here rather than from
 * the IRQ thread, which saves it waiting for that thread to be scheduled.
 * The CEQE that announced the completion is still consumed by the thread,
 * which re-arms the CCQ.  At most IRDMA_CQP_MAX_INFLIGHT completions can
 * be waiting, which bounds the work done here.
 *
 * Context: hard IRQ of the vector serving CEQ 0.
 */
void irdma_ccq_irq(struct irdma_pci_f *rf)
{
	if (irdma_ccq_pending(rf))
		irdma_ccq_process(rf);
}

/**
 * irdma_ccq_event() - the CCQ's CEQE arrived: drain the CCQ and re-arm it
 * @rf: RDMA function
 *
 * A completion written after the drain but before the arm raises no
 * event, and its poster would sleep until its backstop: the CCQ is looked
 * at once more after the arm.
 *
 * Context: the IRQ thread of CEQ 0.
 */
void irdma_ccq_event(struct irdma_pci_f *rf)
{
	irdma_ccq_process(rf);
	irdma_ccq_arm(rf);
	if (irdma_ccq_pending(rf))
		irdma_ccq_process(rf);
}

/**
 * irdma_cqp_use_events() - find completions through the CEQ from now on
 * @rf: RDMA function, with CEQ 0 routed and the CCQ armed
 *
 * With the cqp_poll module parameter the waiters keep polling the CCQ.
 */
void irdma_cqp_use_events(struct irdma_pci_f *rf)
{
	rf->cqp.mode = cqp_poll ? IRDMA_CQP_MODE_CCQ_POLL : IRDMA_CQP_MODE_EVENT;
}

/**
 * irdma_cqp_tail_error() - complete a command CQPTAIL reports as failed
 * @rf: RDMA function
 * @slot: SQ index of the command
 *
 * Return: true if CQPTAIL moved past @slot with its error bit set; the
 * command is then completed with the codes of CQPERRCODES.
 */
static bool irdma_cqp_tail_error(struct irdma_pci_f *rf, u32 slot)
{
	struct irdma_cqp *cqp = &rf->cqp;
	u32 val = irdma_rd32(rf, IRDMA_REG_CQPTAIL);
	struct irdma_cqp_result res = { .error = true };
	unsigned long flags;
	u32 codes;

	if (!(val & IRDMA_CQPTAIL_ERR) ||
	    FIELD_GET(IRDMA_CQPTAIL_WQTAIL, val) != (slot + 1) % cqp->size)
		return false;
	codes = irdma_rd32(rf, IRDMA_REG_CQPERRCODES);
	res.major = FIELD_GET(IRDMA_CQPERRCODES_MAJOR, codes);
	res.minor = FIELD_GET(IRDMA_CQPERRCODES_MINOR, codes);
	spin_lock_irqsave(&cqp->lock, flags);
	if (cqp->reqs[slot])
		irdma_cqp_complete_slot(cqp, slot, &res);
	spin_unlock_irqrestore(&cqp->lock, flags);
	return true;
}

/**
 * irdma_cqp_poll_regs() - wait for a command by watching CQPTAIL
 * @rf: RDMA function
 * @slot: SQ index of the command
 * @req: its request
 *
 * Used before the CCQ exists; commands are serialised by regs_mutex, so
 * the tail moving past @slot completes exactly this command.
 *
 * Return: 0 when completed, -ETIMEDOUT.
 */
static int irdma_cqp_poll_regs(struct irdma_pci_f *rf, u32 slot,
			       struct irdma_cqp_request *req)
{
	struct irdma_cqp *cqp = &rf->cqp;
	unsigned long deadline = jiffies + msecs_to_jiffies(cqp_timeout_ms);
	u32 want = (slot + 1) % cqp->size;
	unsigned long flags;

	do {
		u32 val = irdma_rd32(rf, IRDMA_REG_CQPTAIL);

		if (FIELD_GET(IRDMA_CQPTAIL_WQTAIL, val) == want) {
			struct irdma_cqp_result res = {
				.error = val & IRDMA_CQPTAIL_ERR,
			};

			if (res.error) {
				u32 codes = irdma_rd32(rf, IRDMA_REG_CQPERRCODES);

				res.major = FIELD_GET(IRDMA_CQPERRCODES_MAJOR, codes);
				res.minor = FIELD_GET(IRDMA_CQPERRCODES_MINOR, codes);
			}
			spin_lock_irqsave(&cqp->lock, flags);
			irdma_cqp_complete_slot(cqp, slot, &res);
			spin_unlock_irqrestore(&cqp->lock, flags);
			return 0;
		}
		usleep_range(IRDMA_CQP_POLL_US, 2 * IRDMA_CQP_POLL_US);
	} while (time_before(jiffies, deadline));
	return -ETIMEDOUT;
}

/**
 * irdma_cqp_spin() - poll briefly for a command's completion
 * @rf: RDMA function
 * @req: the command's request
 *
 * Most commands complete within microseconds; taking the completion from
 * the CCQ here spares the poster the round trip through the interrupt
 * and its thread, and a wake-up.  The adapter's interrupt still comes
 * (the CCQ stays armed) and finds the CQE consumed.  Polls for at most
 * cqp_spin_us (1 ms at most), less if the CPU is wanted.
 *
 * Context: process context.
 * Return: true once @req completed.
 */
static bool irdma_cqp_spin(struct irdma_pci_f *rf,
			   struct irdma_cqp_request *req)
{
	u64 end = ktime_get_ns() +
		  min(READ_ONCE(cqp_spin_us), IRDMA_CQP_SPIN_MAX_US) * NSEC_PER_USEC;

	do {
		if (irdma_ccq_pending(rf))
			irdma_ccq_process(rf);
		if (completion_done(&req->done))
			return true;
		cpu_relax();
	} while (!need_resched() && ktime_get_ns() < end);
	return false;
}

/**
 * irdma_cqp_wait() - wait for a command's completion
 * @rf: RDMA function
 * @mode: completion mode the command was posted in
 * @slot: SQ index of the command
 * @req: its request
 *
 * Return: 0 when completed, -ETIMEDOUT.
 */
static int irdma_cqp_wait(struct irdma_pci_f *rf, enum irdma_cqp_mode mode,
			  u32 slot, struct irdma_cqp_request *req)
{
	unsigned long deadline = jiffies + msecs_to_jiffies(cqp_timeout_ms);

	switch (mode) {
	case IRDMA_CQP_MODE_REGS:
		return irdma_cqp_poll_regs(rf, slot, req);
	case IRDMA_CQP_MODE_CCQ_POLL:
		do {
			irdma_ccq_process(rf);
			if (completion_done(&req->done))
				return 0;
			/*
			 * A command the adapter refuses may leave no CQE
			 * (the CCQ's own create): CQPTAIL reports it.
			 */
			if (irdma_cqp_tail_error(rf, slot))
				return 0;
			usleep_range(IRDMA_CQP_POLL_US, 2 * IRDMA_CQP_POLL_US);
		} while (time_before(jiffies, deadline) &&
			 !READ_ONCE(rf->cqp.hung));
		break;
	case IRDMA_CQP_MODE_EVENT:
		if (irdma_cqp_spin(rf, req))
			return 0;
		do {
			unsigned long slice = msecs_to_jiffies(IRDMA_CQP_BACKSTOP_MS);

			if (wait_for_completion_timeout(&req->done, slice))
				return 0;
			/* a lost interrupt must not stall the control path */
			irdma_ccq_process(rf);
		} while (time_before(jiffies, deadline) &&
			 !READ_ONCE(rf->cqp.hung));
		break;
	}
	return completion_done(&req->done) ? 0 : -ETIMEDOUT;
}

/**
 * irdma_cqp_errno() - errno for a command the adapter failed
 * @req: the completed request
 *
 * Return: 0 on success, -EBUSY for "invalid state", -EIO otherwise.
 */
static int irdma_cqp_errno(const struct irdma_cqp_request *req)
{
	if (!req->error)
		return 0;
	if (req->major == IRDMA_CQP_MAJOR_GENERIC &&
	    req->minor == IRDMA_CQP_MINOR_INVALID_STATE)
		return -EBUSY;
	return -EIO;
}

/**
 * irdma_cqp_exec() - post one command on the control QP and wait for it
 * @rf: RDMA function
 * @cmd: the command; @cmd->wqe is fully built except for the valid bit,
 *	@cmd->op_ret/major/minor receive the result
 *
 * At most IRDMA_CQP_MAX_INFLIGHT commands are in flight; a poster waits
 * for a slot.  Each command has cqp_timeout_ms to complete; a command
 * that times out keeps its slot until the adapter completes it.  The
 * first timeout means the adapter stopped answering: the control QP is
 * marked hung, a reset is asked for, the commands still waiting give up
 * within a backstop period, and later ones fail at once, so that tearing
 * down a function with many objects does not wait a timeout per object.
 *
 * Context: process context, may sleep; no locks held.
 * Return: 0, -ETIMEDOUT, -EBUSY (invalid state) or -EIO (adapter error,
 * or the control QP hung), -ENODEV if the control QP is not running.
 */
int irdma_cqp_exec(struct irdma_pci_f *rf, struct irdma_cqp_cmd *cmd)
{
	struct irdma_cqp *cqp = &rf->cqp;
	struct irdma_cqp_request *req;
	enum irdma_cqp_mode mode;
	struct irdma_cqp_wqe *wqe;
	unsigned long flags;
	ktime_t start;
	bool hung;
	u64 hdr;
	u8 opcode;
	u32 slot;
	int ret, i;

	might_sleep();
	start = ktime_get();
	hdr = le64_to_cpu(cmd->wqe.qw[IRDMA_CQP_WQE_HDR]);
	opcode = FIELD_GET(IRDMA_CQP_HDR_OPCODE, hdr);
	if (!cqp->created)
		return -ENODEV;
	if (READ_ONCE(cqp->hung)) {
		spin_lock_irqsave(&cqp->lock, flags);
		cqp->stats.refused++;
		spin_unlock_irqrestore(&cqp->lock, flags);
		return -EIO;
	}

	req = kzalloc(sizeof(*req), GFP_KERNEL);
	if (!req)
		return -ENOMEM;
	kref_init(&req->refcnt);	/* the waiter's reference */
	kref_get(&req->refcnt);		/* the completion path's reference */
	init_completion(&req->done);
	req->opcode = opcode;

	/* one mode for the whole command: bring-up may switch it meanwhile */
	mode = READ_ONCE(cqp->mode);
	if (mode == IRDMA_CQP_MODE_REGS)
		mutex_lock(&cqp->regs_mutex);

	spin_lock_irqsave(&cqp->lock, flags);
	while (irdma_cqp_ring_full(cqp)) {
		cqp->stats.queue_full++;
		spin_unlock_irqrestore(&cqp->lock, flags);
		if (mode != IRDMA_CQP_MODE_EVENT)
			irdma_ccq_process(rf);
		if (!wait_event_timeout(cqp->slot_wq,
					!READ_ONCE(cqp->inflight) ||
					READ_ONCE(cqp->inflight) <
						IRDMA_CQP_MAX_INFLIGHT - 1,
					msecs_to_jiffies(IRDMA_CQP_BACKSTOP_MS)))
			irdma_ccq_process(rf);
		spin_lock_irqsave(&cqp->lock, flags);
	}
	slot = cqp->head;
	cqp->head = (cqp->head + 1) % cqp->size;
	if (!slot)
		cqp->polarity ^= 1;
	cqp->reqs[slot] = req;
	cqp->inflight++;
	cqp->stats.posted++;

	wqe = &((struct irdma_cqp_wqe *)cqp->sq.va)[slot];
	if (cmd->prepare) {
		cmd->prepare(rf, cmd, slot, cmd->prepare_arg);
		hdr = le64_to_cpu(cmd->wqe.qw[IRDMA_CQP_WQE_HDR]);
	}
	for (i = 0; i < IRDMA_CQP_WQE_WORDS; i++)
		if (i != IRDMA_CQP_WQE_HDR)
			wqe->qw[i] = cmd->wqe.qw[i];
	/* the adapter may fetch the WQE once the header is valid */
	dma_wmb();
	WRITE_ONCE(wqe->qw[IRDMA_CQP_WQE_HDR],
		   cpu_to_le64(hdr | FIELD_PREP(IRDMA_CQP_HDR_VALID,
						cqp->polarity)));
	irdma_wr32(rf, IRDMA_REG_CQPDB, cqp->head);
	spin_unlock_irqrestore(&cqp->lock, flags);

	ret = irdma_cqp_wait(rf, mode, slot, req);
	if (mode == IRDMA_CQP_MODE_REGS)
		mutex_unlock(&cqp->regs_mutex);
	/* a timed-out request is still the adapter's: read only its slot */
	if (trace_irdma_cqp_cmd_enabled())
		trace_irdma_cqp_cmd(rf->dma_dev, irdma_cqp_op_name(opcode),
				    slot, ret ?: irdma_cqp_errno(req),
				    ret ? 0 : req->major, ret ? 0 : req->minor,
				    ktime_us_delta(ktime_get(), start));
	if (ret) {
		spin_lock_irqsave(&cqp->lock, flags);
		cqp->stats.timeouts++;
		hung = !cqp->hung;
		cqp->hung = true;
		spin_unlock_irqrestore(&cqp->lock, flags);
		if (hung)
			dev_err(rf->dma_dev,
				"CQP %s (slot %u) timed out after %u ms: the control QP stopped answering; later commands fail until a reset\n",
				irdma_cqp_op_name(opcode), slot, cqp_timeout_ms);
		irdma_request_reset(rf);
		irdma_cqp_req_put(req);
		return ret;
	}
	cmd->op_ret = req->op_ret;
	cmd->major = req->major;
	cmd->minor = req->minor;
	ret = irdma_cqp_errno(req);
	if (ret)
		dev_err_ratelimited(rf->dma_dev,
				    "CQP %s failed: major 0x%04x minor 0x%04x\n",
				    irdma_cqp_op_name(opcode), req->major,
				    req->minor);
	irdma_cqp_req_put(req);
	return ret;
}

/**
 * irdma_cqp_hdr() - start a command: clear it and set its opcode
 * @cmd: command to initialise
 * @opcode: hardware opcode
 * @extra: further header-word bits
 */
static void irdma_cqp_hdr(struct irdma_cqp_cmd *cmd, enum irdma_cqp_op opcode,
			  u64 extra)
{
	memset(cmd, 0, sizeof(*cmd));
	cmd->wqe.qw[IRDMA_CQP_WQE_HDR] =
		cpu_to_le64(FIELD_PREP(IRDMA_CQP_HDR_OPCODE, opcode) | extra);
}

/**
 * irdma_cqp_create() - create the control QP with the register handshake
 * @rf: RDMA function
 *
 * Allocates the SQ and host context, writes the context, hands its
 * address to the adapter (high word first, the low word starts the
 * create) and polls CCQPSTATUS.
 *
 * Context: process context, may sleep.
 * Return: 0 or a negative errno.
 */
int irdma_cqp_create(struct irdma_pci_f *rf)
{
	struct irdma_cqp *cqp = &rf->cqp;
	struct irdma_cqp_ctx *ctx;
	u32 status = 0;
	int ret, i;

	cqp->size = IRDMA_CQP_SQ_SIZE;
	spin_lock_init(&cqp->lock);
	mutex_init(&cqp->regs_mutex);
	init_waitqueue_head(&cqp->slot_wq);
	cqp->mode = IRDMA_CQP_MODE_REGS;
	cqp->head = 0;
	cqp->tail = 0;
	cqp->polarity = 0;	/* flips to 1 on the first slot */

	cqp->reqs = kcalloc(cqp->size, sizeof(*cqp->reqs), GFP_KERNEL);
	if (!cqp->reqs)
		return -ENOMEM;
	ret = irdma_dma_alloc(rf, &cqp->sq, cqp->size * sizeof(struct irdma_cqp_wqe),
			      IRDMA_CQP_SQ_ALIGN);
	if (ret)
		goto err_free_reqs;
	ret = irdma_dma_alloc(rf, &cqp->ctx, sizeof(*ctx), 64);
	if (ret)
		goto err_free_sq;
	ret = irdma_dma_alloc(rf, &cqp->sd_buf,
			      cqp->size * IRDMA_SD_OVERFLOW_BUF_SIZE, PAGE_SIZE);
	if (ret)
		goto err_free_ctx;

	irdma_wr32(rf, IRDMA_REG_CQPTAIL, 0);
	irdma_wr32(rf, IRDMA_REG_CQPDB, 0);
	irdma_wr32(rf, IRDMA_REG_CCQPSTATUS, 0);

	ctx = cqp->ctx.va;
	ctx->qw[IRDMA_CQP_CTX_QW0] =
		le64_encode_bits(ilog2(cqp->size) - 1, IRDMA_CQP_CTX_QW0_SQSIZE);
	if (rf->gen >= IRDMA_GEN_2)
		ctx->qw[IRDMA_CQP_CTX_QW0] |=
			le64_encode_bits(IRDMA_PROTOCOL_IWARP,
					 IRDMA_CQP_CTX_QW0_PROTOCOL_USED);
	ctx->qw[IRDMA_CQP_CTX_QW1] = cpu_to_le64(cqp->sq.pa);
	ctx->qw[IRDMA_CQP_CTX_QW2] =
		le64_encode_bits(IRDMA_HMC_PROFILE_DEFAULT,
				 IRDMA_CQP_CTX_QW2_HMC_PROFILE);
	/* echoed in every CCQ CQE; we find requests by slot, not by this */
	ctx->qw[IRDMA_CQP_CTX_QW3] = cpu_to_le64(rf->pf_id);
	ctx->qw[IRDMA_CQP_CTX_QW4] =
		le64_encode_bits(rf->gen == IRDMA_GEN_1 ? IRDMA_CQP_HW_MAJOR_GEN1 :
				 IRDMA_CQP_HW_MAJOR_GEN2,
				 IRDMA_CQP_CTX_QW4_HW_MAJOR);
	/* the context must be in memory before the adapter is told where */
	dma_wmb();
	irdma_wr32(rf, IRDMA_REG_CCQPHIGH, upper_32_bits(cqp->ctx.pa));
	irdma_wr32(rf, IRDMA_REG_CCQPLOW, lower_32_bits(cqp->ctx.pa));

	for (i = 0; i < IRDMA_CQP_HANDSHAKE_TRIES; i++) {
		status = irdma_rd32(rf, IRDMA_REG_CCQPSTATUS);
		if (status)
			break;
		usleep_range(IRDMA_CQP_POLL_US, 2 * IRDMA_CQP_POLL_US);
	}
	if (!(status & IRDMA_CCQPSTATUS_DONE) ||
	    (status & IRDMA_CCQPSTATUS_ERR)) {
		u32 codes = irdma_rd32(rf, IRDMA_REG_CQPERRCODES);

		dev_err(rf->dma_dev,
			"control QP create %s: status 0x%08x major 0x%04lx minor 0x%04lx\n",
			status ? "failed" : "timed out", status,
			FIELD_GET(IRDMA_CQPERRCODES_MAJOR, codes),
			FIELD_GET(IRDMA_CQPERRCODES_MINOR, codes));
		ret = status ? -EIO : -ETIMEDOUT;
		goto err_free_sd;
	}
	cqp->created = true;
	return 0;

err_free_sd:
	irdma_wr32(rf, IRDMA_REG_CCQPHIGH, 0);
	irdma_wr32(rf, IRDMA_REG_CCQPLOW, 0);
	irdma_dma_free(rf, &cqp->sd_buf);
err_free_ctx:
	irdma_dma_free(rf, &cqp->ctx);
err_free_sq:
	irdma_dma_free(rf, &cqp->sq);
err_free_reqs:
	kfree(cqp->reqs);
	cqp->reqs = NULL;
	return ret;
}

/**
 * irdma_cqp_destroy() - destroy the control QP and free its memory
 * @rf: RDMA function
 *
 * Requests still in flight (timed out earlier) are released.
 *
 * Context: process context, may sleep.
 */
void irdma_cqp_destroy(struct irdma_pci_f *rf)
{
	struct irdma_cqp *cqp = &rf->cqp;
	unsigned long flags;
	u32 status = 0;
	int i;

	if (!cqp->reqs)
		return;
	if (cqp->created) {
		irdma_wr32(rf, IRDMA_REG_CCQPHIGH, 0);
		irdma_wr32(rf, IRDMA_REG_CCQPLOW, 0);
		for (i = 0; i < IRDMA_CQP_HANDSHAKE_TRIES; i++) {
			status = irdma_rd32(rf, IRDMA_REG_CCQPSTATUS);
			if (!(status & IRDMA_CCQPSTATUS_DONE))
				break;
			usleep_range(IRDMA_CQP_POLL_US, 2 * IRDMA_CQP_POLL_US);
		}
		cqp->created = false;
		if (status & IRDMA_CCQPSTATUS_DONE) {
			/* it may still fetch from its ring */
			irdma_dma_leak(rf, &cqp->sd_buf, -ETIMEDOUT);
			irdma_dma_leak(rf, &cqp->ctx, -ETIMEDOUT);
			irdma_dma_leak(rf, &cqp->sq, -ETIMEDOUT);
		}
	}
	spin_lock_irqsave(&cqp->lock, flags);
	for (i = 0; i < cqp->size; i++) {
		struct irdma_cqp_request *req = cqp->reqs[i];

		if (!req)
			continue;
		cqp->reqs[i] = NULL;
		req->error = true;
		complete(&req->done);
		irdma_cqp_req_put(req);
	}
	cqp->inflight = 0;
	spin_unlock_irqrestore(&cqp->lock, flags);
	irdma_dma_free(rf, &cqp->sd_buf);
	irdma_dma_free(rf, &cqp->ctx);
	irdma_dma_free(rf, &cqp->sq);
	kfree(cqp->reqs);
	cqp->reqs = NULL;
}

/**
 * irdma_cqp_cq_hdr_ids() - CQ and CEQ id bits of a CQ command header
 * @rf: RDMA function
 * @p: CQ parameters
 *
 * Return: header bits (their position depends on the generation).
 */
static u64 irdma_cqp_cq_hdr_ids(struct irdma_pci_f *rf,
				const struct irdma_cq_params *p)
{
	u32 ceq = p->ceq_valid ? p->ceq_id : 0;

	if (rf->gen == IRDMA_GEN_1)
		return FIELD_PREP(IRDMA_CQP_CQ_QW3_GEN1_CQID, p->id) |
		       FIELD_PREP(IRDMA_CQP_CQ_QW3_GEN1_CEQID, ceq);
	return FIELD_PREP(IRDMA_CQP_CQ_QW3_GEN2_CQID, p->id) |
	       FIELD_PREP(IRDMA_CQP_CQ_QW3_GEN2_CEQID, ceq);
}

/**
 * irdma_cqp_cq_cmd() - build a CQ command
 * @rf: RDMA function
 * @cmd: command to build
 * @op: CREATE_CQ, MODIFY_CQ (a resize: the ring and its size in @p are
 *	the new ones) or DESTROY_CQ
 * @p: CQ parameters
 */
static void irdma_cqp_cq_cmd(struct irdma_pci_f *rf, struct irdma_cqp_cmd *cmd,
			     enum irdma_cqp_op op,
			     const struct irdma_cq_params *p)
{
	__le64 *qw = cmd->wqe.qw;

	irdma_cqp_hdr(cmd, op, irdma_cqp_cq_hdr_ids(rf, p) |
		      FIELD_PREP(IRDMA_CQP_QW3_LPBLSIZE, p->pbl_level) |
		      FIELD_PREP(IRDMA_CQP_CQ_QW3_CHKOVERFLOW, p->check_overflow) |
		      FIELD_PREP(IRDMA_CQP_QW3_VIRTMAP, p->pbl_level ? 1 : 0) |
		      FIELD_PREP(IRDMA_CQP_CQ_QW3_ENCEQEMASK, p->ceqe_mask) |
		      FIELD_PREP(IRDMA_CQP_CQ_QW3_CEQIDVALID, p->ceq_valid) |
		      FIELD_PREP(IRDMA_CQP_CQ_QW3_CQRESIZE,
				 op == IRDMA_CQP_OP_MODIFY_CQ));
	qw[IRDMA_CQP_CQ_QW0] = le64_encode_bits(p->size, IRDMA_CQP_CQ_QW0_SIZE);
	qw[IRDMA_CQP_CQ_QW1] = le64_encode_bits(p->ctx, IRDMA_CQP_CQ_QW1_CTX);
	qw[IRDMA_CQP_CQ_QW2] =
		le64_encode_bits(p->shadow_read_threshold,
				 IRDMA_CQP_CQ_QW2_SHADOW_READ_THRESHOLD);
	qw[IRDMA_CQP_CQ_RING_PA] = cpu_to_le64(p->pbl_level ? 0 : p->ring_pa);
	qw[IRDMA_CQP_CQ_SHADOW_PA] = cpu_to_le64(p->shadow_pa);
	qw[IRDMA_CQP_CQ_QW6] =
		le64_encode_bits(p->pbl_level ? p->first_pble : 0,
				 IRDMA_CQP_CQ_QW6_FIRST_PBLE);
}

/**
 * irdma_cqp_create_cq() - CREATE_CQ
 * @rf: RDMA function
 * @p: CQ parameters
 *
 * Context: process context, may sleep.
 * Return: 0 or a negative errno.
 */
int irdma_cqp_create_cq(struct irdma_pci_f *rf, const struct irdma_cq_params *p)
{
	struct irdma_cqp_cmd cmd;

	irdma_cqp_cq_cmd(rf, &cmd, IRDMA_CQP_OP_CREATE_CQ, p);
	return irdma_cqp_exec(rf, &cmd);
}

/**
 * irdma_cqp_resize_cq() - MODIFY_CQ with the resize bit: a new ring
 * @rf: RDMA function
 * @p: the CQ's parameters with its new size, ring and shadow area
 *
 * Once the command has completed the adapter writes new CQEs into the new
 * ring from its index 0 with valid bit 1, and none into the old one.
 *
 * Context: process context, may sleep.
 * Return: 0 or a negative errno (-ETIMEDOUT: the adapter may use either
 * ring).
 */
int irdma_cqp_resize_cq(struct irdma_pci_f *rf, const struct irdma_cq_params *p)
{
	struct irdma_cqp_cmd cmd;

	irdma_cqp_cq_cmd(rf, &cmd, IRDMA_CQP_OP_MODIFY_CQ, p);
	return irdma_cqp_exec(rf, &cmd);
}

/**
 * irdma_cqp_destroy_cq() - DESTROY_CQ
 * @rf: RDMA function
 * @p: parameters the CQ was created with
 *
 * Context: process context, may sleep.
 * Return: 0 or a negative errno.
 */
int irdma_cqp_destroy_cq(struct irdma_pci_f *rf,
			 const struct irdma_cq_params *p)
{
	struct irdma_cqp_cmd cmd;

	irdma_cqp_cq_cmd(rf, &cmd, IRDMA_CQP_OP_DESTROY_CQ, p);
	return irdma_cqp_exec(rf, &cmd);
}

/**
 * irdma_cqp_ceq_cmd() - CREATE_CEQ or DESTROY_CEQ
 * @rf: RDMA function
 * @ceq: the CEQ
 * @op: opcode
 *
 * Return: 0 or a negative errno.
 */
static int irdma_cqp_ceq_cmd(struct irdma_pci_f *rf,
			     const struct irdma_ceq *ceq, enum irdma_cqp_op op)
{
	struct irdma_cqp_cmd cmd;

	irdma_cqp_hdr(&cmd, op, FIELD_PREP(IRDMA_CQP_CEQ_QW3_CEQID, ceq->id));
	cmd.wqe.qw[IRDMA_CQP_CEQ_QW2] =
		le64_encode_bits(ceq->size, IRDMA_CQP_CEQ_QW2_ELEMCNT);
	if (op == IRDMA_CQP_OP_CREATE_CEQ)
		cmd.wqe.qw[IRDMA_CQP_CEQ_RING_PA] = cpu_to_le64(ceq->mem.pa);
	return irdma_cqp_exec(rf, &cmd);
}

/**
 * irdma_cqp_create_ceq() - CREATE_CEQ
 * @rf: RDMA function
 * @ceq: the CEQ, with its ring allocated
 *
 * Context: process context, may sleep.
 * Return: 0 or a negative errno.
 */
int irdma_cqp_create_ceq(struct irdma_pci_f *rf, const struct irdma_ceq *ceq)
{
	return irdma_cqp_ceq_cmd(rf, ceq, IRDMA_CQP_OP_CREATE_CEQ);
}

/**
 * irdma_cqp_destroy_ceq() - DESTROY_CEQ
 * @rf: RDMA function
 * @ceq: the CEQ
 *
 * Context: process context, may sleep.
 * Return: 0 or a negative errno.
 */
int irdma_cqp_destroy_ceq(struct irdma_pci_f *rf, const struct irdma_ceq *ceq)
{
	return irdma_cqp_ceq_cmd(rf, ceq, IRDMA_CQP_OP_DESTROY_CEQ);
}

/**
 * irdma_cqp_aeq_cmd() - CREATE_AEQ or DESTROY_AEQ
 * @rf: RDMA function
 * @aeq: the AEQ
 * @op: opcode
 *
 * Return: 0 or a negative errno.
 */
static int irdma_cqp_aeq_cmd(struct irdma_pci_f *rf,
			     const struct irdma_aeq *aeq, enum irdma_cqp_op op)
{
	struct irdma_cqp_cmd cmd;

	irdma_cqp_hdr(&cmd, op, 0);
	cmd.wqe.qw[IRDMA_CQP_AEQ_QW2] =
		le64_encode_bits(aeq->size, IRDMA_CQP_AEQ_QW2_ELEMCNT);
	if (op == IRDMA_CQP_OP_CREATE_AEQ)
		cmd.wqe.qw[IRDMA_CQP_AEQ_RING_PA] = cpu_to_le64(aeq->mem.pa);
	return irdma_cqp_exec(rf, &cmd);
}

/**
 * irdma_cqp_create_aeq() - CREATE_AEQ
 * @rf: RDMA function
 * @aeq: the AEQ, with its ring allocated
 *
 * Context: process context, may sleep.
 * Return: 0 or a negative errno.
 */
int irdma_cqp_create_aeq(struct irdma_pci_f *rf, const struct irdma_aeq *aeq)
{
	return irdma_cqp_aeq_cmd(rf, aeq, IRDMA_CQP_OP_CREATE_AEQ);
}

/**
 * irdma_cqp_destroy_aeq() - DESTROY_AEQ
 * @rf: RDMA function
 * @aeq: the AEQ
 *
 * Context: process context, may sleep.
 * Return: 0 or a negative errno.
 */
int irdma_cqp_destroy_aeq(struct irdma_pci_f *rf, const struct irdma_aeq *aeq)
{
	return irdma_cqp_aeq_cmd(rf, aeq, IRDMA_CQP_OP_DESTROY_AEQ);
}

/**
 * irdma_cqp_fpm_cmd() - QUERY_FPM_VAL or COMMIT_FPM_VAL
 * @rf: RDMA function
 * @buf: the 176-byte buffer
 * @op: opcode
 *
 * Return: 0 or a negative errno.
 */
static int irdma_cqp_fpm_cmd(struct irdma_pci_f *rf,
			     const struct irdma_dma_mem *buf,
			     enum irdma_cqp_op op)
{
	struct irdma_cqp_cmd cmd;

	irdma_cqp_hdr(&cmd, op, op == IRDMA_CQP_OP_COMMIT_FPM_VAL ?
		      FIELD_PREP(IRDMA_CQP_FPM_QW3_BUF_LEN, IRDMA_FPM_BUF_SIZE) : 0);
	cmd.wqe.qw[IRDMA_CQP_FPM_QW2] =
		le64_encode_bits(rf->pf_id, IRDMA_CQP_FPM_QW2_HMC_FN_ID);
	cmd.wqe.qw[IRDMA_CQP_FPM_BUF_PA] = cpu_to_le64(buf->pa);
	return irdma_cqp_exec(rf, &cmd);
}

/**
 * irdma_cqp_query_fpm() - QUERY_FPM_VAL: read HMC limits into @buf
 * @rf: RDMA function
 * @buf: buffer of IRDMA_FPM_BUF_SIZE bytes
 *
 * Context: process context, may sleep.
 * Return: 0 or a negative errno.
 */
int irdma_cqp_query_fpm(struct irdma_pci_f *rf, const struct irdma_dma_mem *buf)
{
	return irdma_cqp_fpm_cmd(rf, buf, IRDMA_CQP_OP_QUERY_FPM_VAL);
}

/**
 * irdma_cqp_commit_fpm() - COMMIT_FPM_VAL: commit counts, get bases back
 * @rf: RDMA function
 * @buf: buffer of IRDMA_FPM_BUF_SIZE bytes holding the counts
 *
 * Context: process context, may sleep.
 * Return: 0 or a negative errno.
 */
int irdma_cqp_commit_fpm(struct irdma_pci_f *rf,
			 const struct irdma_dma_mem *buf)
{
	return irdma_cqp_fpm_cmd(rf, buf, IRDMA_CQP_OP_COMMIT_FPM_VAL);
}

/**
 * irdma_sd_cmd() - command word of one SD update
 * @e: the update
 *
 * Return: the command word.
 */
static u64 irdma_sd_cmd(const struct irdma_sd_entry *e)
{
	return FIELD_PREP(IRDMA_SD_CMD_IDX, e->idx) | IRDMA_SD_CMD_PARTSEL |
	       IRDMA_SD_CMD_WRITE;
}

/**
 * irdma_sd_data() - data word of one SD update
 * @e: the update
 *
 * Return: the data word.
 */
static u64 irdma_sd_data(const struct irdma_sd_entry *e)
{
	if (!e->valid)
		return 0;
	return (e->pa & IRDMA_SD_DATA_PA) |
	       FIELD_PREP(IRDMA_SD_DATA_BP_COUNT, IRDMA_HMC_PD_PAGES) |
	       IRDMA_SD_DATA_DIRECT | IRDMA_SD_DATA_VALID;
}

/**
 * struct irdma_sds_batch - the entries of one UPDATE_PE_SDS command
 * @e: entries
 * @n: number of entries (1..IRDMA_SDS_PER_WQE_MAX)
 */
struct irdma_sds_batch {
	const struct irdma_sd_entry *e;
	u32 n;
};

/**
 * irdma_cqp_sds_prepare() - write entries beyond the third to the
 * slot's overflow area and point the WQE at it
 * @rf: RDMA function
 * @cmd: the UPDATE_PE_SDS command
 * @slot: CQP slot the command occupies
 * @arg: struct irdma_sds_batch
 *
 * Context: cqp->lock held.
 */
static void irdma_cqp_sds_prepare(struct irdma_pci_f *rf,
				  struct irdma_cqp_cmd *cmd, u32 slot, void *arg)
{
	const struct irdma_sds_batch *b = arg;
	__le64 *ovf = rf->cqp.sd_buf.va + slot * IRDMA_SD_OVERFLOW_BUF_SIZE;
	dma_addr_t ovf_pa = rf->cqp.sd_buf.pa + slot * IRDMA_SD_OVERFLOW_BUF_SIZE;
	u32 i;

	lockdep_assert_held(&rf->cqp.lock);
	if (b->n <= IRDMA_SDS_IN_WQE)
		return;
	for (i = IRDMA_SDS_IN_WQE; i < b->n; i++) {
		*ovf++ = cpu_to_le64(irdma_sd_cmd(&b->e[i]));
		*ovf++ = cpu_to_le64(irdma_sd_data(&b->e[i]));
	}
	cmd->wqe.qw[IRDMA_CQP_SDS_QW2] |=
		cpu_to_le64(ovf_pa & IRDMA_CQP_SDS_QW2_OVERFLOW_PA);
	cmd->wqe.qw[IRDMA_CQP_WQE_HDR] |=
		le64_encode_bits(b->n - IRDMA_SDS_IN_WQE,
				 IRDMA_CQP_SDS_QW3_OVERFLOW_CNT);
}

/**
 * irdma_cqp_update_sds() - UPDATE_PE_SDS, as many commands as needed
 * @rf: RDMA function
 * @e: SD updates
 * @n: number of updates
 *
 * Context: process context, may sleep.
 * Return: 0 or a negative errno.
 */
int irdma_cqp_update_sds(struct irdma_pci_f *rf,
			 const struct irdma_sd_entry *e, u32 n)
{
	struct irdma_cqp_cmd cmd;
	struct irdma_sds_batch b;
	int ret;

	while (n) {
		b.e = e;
		b.n = min_t(u32, n, IRDMA_SDS_PER_WQE_MAX);
		irdma_cqp_hdr(&cmd, IRDMA_CQP_OP_UPDATE_PE_SDS, 0);
		cmd.wqe.qw[IRDMA_CQP_SDS_ENTRY0_CMD] =
			cpu_to_le64(irdma_sd_cmd(&e[0]));
		cmd.wqe.qw[IRDMA_CQP_SDS_ENTRY0_DATA] =
			cpu_to_le64(irdma_sd_data(&e[0]));
		cmd.wqe.qw[IRDMA_CQP_SDS_QW2] =
			le64_encode_bits(rf->pf_id,
					 IRDMA_CQP_SDS_QW2_HMC_FN_ID);
		if (b.n > 1) {
			cmd.wqe.qw[IRDMA_CQP_SDS_ENTRY1_CMD] =
				cpu_to_le64(irdma_sd_cmd(&e[1]) |
					    IRDMA_CQP_SDS_ENTRY_VALID);
			cmd.wqe.qw[IRDMA_CQP_SDS_ENTRY1_DATA] =
				cpu_to_le64(irdma_sd_data(&e[1]));
		}
		if (b.n > 2) {
			cmd.wqe.qw[IRDMA_CQP_SDS_ENTRY2_CMD] =
				cpu_to_le64(irdma_sd_cmd(&e[2]) |
					    IRDMA_CQP_SDS_ENTRY_VALID);
			cmd.wqe.qw[IRDMA_CQP_SDS_ENTRY2_DATA] =
				cpu_to_le64(irdma_sd_data(&e[2]));
		}
		cmd.prepare = irdma_cqp_sds_prepare;
		cmd.prepare_arg = &b;
		ret = irdma_cqp_exec(rf, &cmd);
		if (ret)
			return ret;
		e += b.n;
		n -= b.n;
	}
	return 0;
}

/**
 * irdma_cqp_shmc_pages_allocated() - SHMC_PAGES_ALLOCATED
 * @rf: RDMA function
 *
 * Tells the adapter every bring-up HMC page is programmed.
 *
 * Context: process context, may sleep.
 * Return: 0 or a negative errno.
 */
int irdma_cqp_shmc_pages_allocated(struct irdma_pci_f *rf)
{
	struct irdma_cqp_cmd cmd;

	irdma_cqp_hdr(&cmd, IRDMA_CQP_OP_SHMC_PAGES_ALLOCATED, 0);
	cmd.wqe.qw[IRDMA_CQP_SHMC_QW2] =
		le64_encode_bits(rf->pf_id, IRDMA_CQP_SHMC_QW2_HMC_FN_ID);
	return irdma_cqp_exec(rf, &cmd);
}

/**
 * irdma_cqp_query_features() - QUERY_RDMA_FEATURES into @buf
 * @rf: RDMA function
 * @buf: buffer of IRDMA_FEAT_MAX words
 *
 * Context: process context, may sleep.
 * Return: 0 or a negative errno.
 */
int irdma_cqp_query_features(struct irdma_pci_f *rf,
			     const struct irdma_dma_mem *buf)
{
	struct irdma_cqp_cmd cmd;

	irdma_cqp_hdr(&cmd, IRDMA_CQP_OP_QUERY_RDMA_FEATURES,
		      FIELD_PREP(IRDMA_CQP_FEAT_QW3_BUF_LEN, buf->size));
	cmd.wqe.qw[IRDMA_CQP_FEAT_BUF_PA] = cpu_to_le64(buf->pa);
	return irdma_cqp_exec(rf, &cmd);
}

/**
 * irdma_cqp_gather_stats() - GATHER_STATS of the function into @buf
 * @rf: RDMA function
 * @buf: buffer of IRDMA_GSTAT_LEN bytes
 *
 * The function's own counters: no statistics instance is named.
 *
 * Context: process context, may sleep.
 * Return: 0 or a negative errno.
 */
int irdma_cqp_gather_stats(struct irdma_pci_f *rf,
			   const struct irdma_dma_mem *buf)
{
	struct irdma_cqp_cmd cmd;

	irdma_cqp_hdr(&cmd, IRDMA_CQP_OP_GATHER_STATS,
		      IRDMA_CQP_STATS_QW3_USE_FN_ID);
	cmd.wqe.qw[IRDMA_CQP_STATS_BUF_PA] = cpu_to_le64(buf->pa);
	cmd.wqe.qw[IRDMA_CQP_STATS_QW5] =
		le64_encode_bits(rf->pf_id, IRDMA_CQP_STATS_QW5_HMC_FN_ID);
	return irdma_cqp_exec(rf, &cmd);
}

/**
 * irdma_cqp_manage_apbvt() - MANAGE_APBVT: add or delete a local TCP port
 * @rf: RDMA function
 * @port: local port
 * @add: add (true) or delete (false)
 *
 * Context: process context, may sleep.
 * Return: 0 or a negative errno.
 */
int irdma_cqp_manage_apbvt(struct irdma_pci_f *rf, u16 port, bool add)
{
	struct irdma_cqp_cmd cmd;

	irdma_cqp_hdr(&cmd, IRDMA_CQP_OP_MANAGE_APBVT,
		      FIELD_PREP(IRDMA_CQP_APBVT_QW3_ADD, add));
	cmd.wqe.qw[IRDMA_CQP_APBVT_QW2] =
		le64_encode_bits(port, IRDMA_CQP_APBVT_QW2_PORT);
	return irdma_cqp_exec(rf, &cmd);
}

/**
 * irdma_mac_to_u64() - a MAC as the 48-bit value descriptors use
 * @mac: MAC address
 *
 * Return: the MAC with its first byte most significant.
 */
static u64 irdma_mac_to_u64(const u8 *mac)
{
	return ether_addr_to_u64(mac);
}

/**
 * irdma_cqp_manage_arp() - MANAGE_ARP: add or delete an ARP cache entry
 * @rf: RDMA function
 * @idx: ARP cache index
 * @mac: MAC of the neighbour (ignored for delete)
 * @add: add (true) or delete (false)
 *
 * Context: process context, may sleep.
 * Return: 0 or a negative errno.
 */
int irdma_cqp_manage_arp(struct irdma_pci_f *rf, u32 idx, const u8 *mac,
			 bool add)
{
	struct irdma_cqp_cmd cmd;

	irdma_cqp_hdr(&cmd, IRDMA_CQP_OP_MANAGE_ARP,
		      FIELD_PREP(IRDMA_CQP_ARP_QW3_INDEX, idx) |
		      FIELD_PREP(IRDMA_CQP_ARP_QW3_VALID, add) |
		      FIELD_PREP(IRDMA_CQP_ARP_QW3_PERMANENT, add));
	if (add)
		cmd.wqe.qw[IRDMA_CQP_ARP_QW2] =
			le64_encode_bits(irdma_mac_to_u64(mac),
					 IRDMA_CQP_ARP_QW2_MAC);
	return irdma_cqp_exec(rf, &cmd);
}

/**
 * irdma_cqp_manage_qhash() - MANAGE_QHASH: steer matching TCP frames
 * @rf: RDMA function
 * @p: entry
 *
 * Context: process context, may sleep.
 * Return: 0 or a negative errno.
 */
int irdma_cqp_manage_qhash(struct irdma_pci_f *rf,
			   const struct irdma_qhash_params *p)
{
	bool vlan = p->vlan_id < VLAN_N_VID;
	struct irdma_cqp_cmd cmd;
	__le64 *qw = cmd.wqe.qw;

	irdma_cqp_hdr(&cmd, IRDMA_CQP_OP_MANAGE_QHASH,
		      FIELD_PREP(IRDMA_CQP_QHASH_QW3_ENTRYTYPE, p->type) |
		      FIELD_PREP(IRDMA_CQP_QHASH_QW3_VLANVALID, vlan) |
		      FIELD_PREP(IRDMA_CQP_QHASH_QW3_IPV4VALID, p->ipv4) |
		      FIELD_PREP(IRDMA_CQP_QHASH_QW3_MANAGE,
				 p->add ? IRDMA_QHASH_MANAGE_ADD :
					  IRDMA_QHASH_MANAGE_DELETE));
	qw[IRDMA_CQP_QHASH_QW0] = le64_encode_bits(irdma_mac_to_u64(p->mac),
						   IRDMA_CQP_QHASH_QW0_MAC);
	qw[IRDMA_CQP_QHASH_QW1] =
		le64_encode_bits(p->loc_port, IRDMA_CQP_QHASH_QW1_DEST_PORT) |
		le64_encode_bits(p->qpn, IRDMA_CQP_QHASH_QW1_QPN);
	qw[IRDMA_CQP_QHASH_QW2] =
		le64_encode_bits(p->qs_handle, IRDMA_CQP_QHASH_QW2_QS_HANDLE);
	if (vlan)
		qw[IRDMA_CQP_QHASH_QW2] |=
			le64_encode_bits(p->vlan_id, IRDMA_CQP_QHASH_QW2_VLANID);
	irdma_ip_to_words(&qw[IRDMA_CQP_QHASH_LOC_IP_HI],
			  &qw[IRDMA_CQP_QHASH_LOC_IP_LO], p->loc_addr, p->ipv4);
	if (p->type == IRDMA_QHASH_TYPE_TCP_ESTABLISHED) {
		qw[IRDMA_CQP_QHASH_QW1] |=
			le64_encode_bits(p->rem_port,
					 IRDMA_CQP_QHASH_QW1_SRC_PORT);
		irdma_ip_to_words(&qw[IRDMA_CQP_QHASH_REM_IP_HI],
				  &qw[IRDMA_CQP_QHASH_REM_IP_LO], p->rem_addr,
				  p->ipv4);
	}
	return irdma_cqp_exec(rf, &cmd);
}

/**
 * irdma_cqp_ws_node() - WORK_SCHED_NODE: add, modify or delete a node of
 * the transmit scheduler tree
 * @rf: RDMA function
 * @p: node
 * @qs_handle: receives the queue-set handle for a leaf add (may be NULL)
 *
 * Context: process context, may sleep.
 * Return: 0 or a negative errno.
 */
int irdma_cqp_ws_node(struct irdma_pci_f *rf, const struct irdma_ws_params *p,
		      u16 *qs_handle)
{
	struct irdma_cqp_cmd cmd;
	int ret;

	irdma_cqp_hdr(&cmd, IRDMA_CQP_OP_WORK_SCHED_NODE,
		      FIELD_PREP(IRDMA_CQP_WS_QW3_NODEID, p->id) |
		      FIELD_PREP(IRDMA_CQP_WS_QW3_PARENTID, p->parent) |
		      FIELD_PREP(IRDMA_CQP_WS_QW3_NODEOP, p->op) |
		      FIELD_PREP(IRDMA_CQP_WS_QW3_TC, p->tc) |
		      FIELD_PREP(IRDMA_CQP_WS_QW3_PRIOTYPE, p->prio_type) |
		      FIELD_PREP(IRDMA_CQP_WS_QW3_LEAF, p->leaf) |
		      FIELD_PREP(IRDMA_CQP_WS_QW3_ENABLE, p->enable));
	cmd.wqe.qw[IRDMA_CQP_WS_QW4] =
		le64_encode_bits(p->weight, IRDMA_CQP_WS_QW4_WEIGHT) |
		le64_encode_bits(p->vsi, IRDMA_CQP_WS_QW4_VSI);
	ret = irdma_cqp_exec(rf, &cmd);
	if (!ret && qs_handle)
		*qs_handle = cmd.op_ret;
	return ret;
}

/**
 * irdma_qpc_common() - the context words every QP type has
 * @rf: RDMA function
 * @ctx: the context, zeroed here
 * @p: the QP
 */
static void irdma_qpc_common(struct irdma_pci_f *rf, struct irdma_qp_ctx *ctx,
			     const struct irdma_qpc_params *p)
{
	__le64 *qw = ctx->qw;

	memset(ctx, 0, sizeof(*ctx));
	qw[IRDMA_QPC_SQ_PA] = cpu_to_le64(p->sq_pa);
	qw[IRDMA_QPC_RQ_PA] = cpu_to_le64(p->rq_pa);
	/* ring sizes in 32-byte quanta, encoded log2 - 2 */
	qw[IRDMA_QPC_QW3] =
		le64_encode_bits(ilog2(p->rq_quanta) - 2, IRDMA_QPC_QW3_RQSIZE) |
		le64_encode_bits(ilog2(p->sq_quanta) - 2, IRDMA_QPC_QW3_SQSIZE);
	qw[IRDMA_QPC_QW17] =
		le64_encode_bits(p->send_cq, IRDMA_QPC_QW17_TXCQNUM) |
		le64_encode_bits(p->recv_cq, IRDMA_QPC_QW17_RXCQNUM);
	if (p->priv)
		qw[IRDMA_QPC_QW20] = cpu_to_le64(IRDMA_QPC_QW20_PRIVEN);
	qw[IRDMA_QPC_COMPCTX] = cpu_to_le64(p->compl_ctx);
	qw[IRDMA_QPC_QW22] =
		le64_encode_bits(rf->qs_handle, IRDMA_QPC_QW22_QSHANDLE);
}

/**
 * irdma_qpc_iwarp() - the host context of an iWARP QP, for CREATE_QP
 * @rf: RDMA function
 * @ctx: the context
 * @p: the QP
 *
 * The TCP and connection words follow at offload: irdma_qpc_conn().
 */
void irdma_qpc_iwarp(struct irdma_pci_f *rf, struct irdma_qp_ctx *ctx,
		     const struct irdma_qpc_params *p)
{
	__le64 *qw = ctx->qw;

	irdma_qpc_common(rf, ctx, p);
	qw[IRDMA_QPC_QW0] =
		le64_encode_bits(1, IRDMA_QPC_QW0_DDP_VER) |
		le64_encode_bits(1, IRDMA_QPC_QW0_RDMAP_VER) |
		le64_encode_bits(p->rq_shift, IRDMA_QPC_QW0_RQWQESIZE) |
		le64_encode_bits(p->pd_id >> 16, IRDMA_QPC_QW0_PDIDXHI) |
		le64_encode_bits(rf->gen >= IRDMA_GEN_2, IRDMA_QPC_QW0_IBRDENABLE);
	qw[IRDMA_QPC_QW7] = le64_encode_bits(p->pd_id & 0xffff,
					     IRDMA_QPC_QW7_PDIDX);
	qw[IRDMA_QPC_QW16] = le64_encode_bits(IRDMA_QPC_RTO_MIN,
					      IRDMA_QPC_QW16_RTOMIN);
	qw[IRDMA_QPC_QW18] = cpu_to_le64(p->q2_pa & IRDMA_QPC_QW18_Q2ADDR);
	qw[IRDMA_QPC_QW19] = le64_encode_bits(ether_addr_to_u64(p->mac),
					      IRDMA_QPC_QW19_MACADDRESS);
	qw[IRDMA_QPC_QW20] |=
		le64_encode_bits(p->wr_en, IRDMA_QPC_QW20_WRRDRSPOK) |
		le64_encode_bits(p->rd_en, IRDMA_QPC_QW20_RDOK) |
		cpu_to_le64(IRDMA_QPC_QW20_BINDEN | IRDMA_QPC_QW20_IWARPMODE);
	if (p->priv)
		qw[IRDMA_QPC_QW20] |= cpu_to_le64(IRDMA_QPC_QW20_FASTREGEN);
	qw[IRDMA_QPC_QW22] |= le64_encode_bits(IRDMA_IEQ_ID,
					       IRDMA_QPC_QW22_EXCEPTION_LAN_QUEUE);
}

/**
 * irdma_qpc_uda() - the host context of a privileged UD QP (the ILQ)
 * @rf: RDMA function
 * @ctx: the context
 * @p: the QP
 */
void irdma_qpc_uda(struct irdma_pci_f *rf, struct irdma_qp_ctx *ctx,
		   const struct irdma_qpc_params *p)
{
	irdma_qpc_common(rf, ctx, p);
	ctx->qw[IRDMA_QPC_QW6] = le64_encode_bits(p->mss, IRDMA_QPC_QW6_SNDMSS);
}

/**
 * irdma_qpc_ird_code() - IRDSIZE encoding of an IRD
 * @ird: inbound reads
 *
 * Return: the code for the power of two that holds 2 x @ird.
 */
static u8 irdma_qpc_ird_code(u32 ird)
{
	u32 n = roundup_pow_of_two(max_t(u32, 2 * ird, 4));

	if (n >= 256)
		return IRDMA_IRD_HW_SIZE_256;
	if (n >= 128)
		return IRDMA_IRD_HW_SIZE_128;
	if (n >= 32)
		return IRDMA_IRD_HW_SIZE_64;
	if (n >= 8)
		return IRDMA_IRD_HW_SIZE_16;
	return IRDMA_IRD_HW_SIZE_4;
}

/**
 * irdma_qpc_conn() - add an offloaded connection's TCP and iWARP words to
 * an iWARP QP's host context, for the MODIFY_QP to RTS
 * @ctx: the context irdma_qpc_iwarp() wrote
 * @info: the connection, from the CM
 * @wr_en: remote writes allowed, as modify_qp left them
 * @rd_en: remote reads allowed, the same way
 */
void irdma_qpc_conn(struct irdma_qp_ctx *ctx,
		    const struct irdma_cm_offload_info *info, bool wr_en,
		    bool rd_en)
{
	__le64 *qw = ctx->qw;
	u8 tos = info->tos & ~INET_ECN_MASK;

	/* ECT(0) and ECN handling only where the handshake negotiated it */
	if (info->ecn)
		tos |= INET_ECN_ECT_0;
	qw[IRDMA_QPC_QW0] |=
		le64_encode_bits(info->ipv4, IRDMA_QPC_QW0_IPV4) |
		le64_encode_bits(info->insert_vlan, IRDMA_QPC_QW0_INSERTVLANTAG) |
		le64_encode_bits(info->ecn, IRDMA_QPC_QW0_ECN_EN) |
		le64_encode_bits(1, IRDMA_QPC_QW0_DROPOOOSEG);
	qw[IRDMA_QPC_QW3] |=
		le64_encode_bits(info->ttl, IRDMA_QPC_QW3_TTL) |
		le64_encode_bits(tos, IRDMA_QPC_QW3_TOS) |
		le64_encode_bits(info->loc_port, IRDMA_QPC_QW3_SRCPORT) |
		le64_encode_bits(info->rem_port, IRDMA_QPC_QW3_DESTPORT);
	irdma_ip_to_words(&qw[IRDMA_QPC_DEST_IP_HI], &qw[IRDMA_QPC_DEST_IP_LO],
			  info->rem_addr, info->ipv4);
	qw[IRDMA_QPC_QW6] =
		le64_encode_bits(info->mss, IRDMA_QPC_QW6_SNDMSS) |
		le64_encode_bits(IRDMA_SYN_RST_HW_TCP_SECURE,
				 IRDMA_QPC_QW6_SYN_RST_HANDLING) |
		le64_encode_bits(info->insert_vlan ? info->vlan_tci : 0,
				 IRDMA_QPC_QW6_VLANTAG) |
		le64_encode_bits(info->arp_idx, IRDMA_QPC_QW6_ARPIDX);
	qw[IRDMA_QPC_QW7] |=
		le64_encode_bits(1, IRDMA_QPC_QW7_WSCALE) |
		le64_encode_bits(1, IRDMA_QPC_QW7_IGNORE_TCP_OPT) |
		le64_encode_bits(1, IRDMA_QPC_QW7_IGNORE_TCP_UNS_OPT) |
		le64_encode_bits(IRDMA_TCPS_ESTABLISHED, IRDMA_QPC_QW7_TCPSTATE) |
		le64_encode_bits(info->rcv_wscale, IRDMA_QPC_QW7_RCVSCALE) |
		le64_encode_bits(info->snd_wscale, IRDMA_QPC_QW7_SNDSCALE);
	qw[IRDMA_QPC_QW10] = le64_encode_bits(info->snd_nxt, IRDMA_QPC_QW10_SNDNXT) |
			     le64_encode_bits(info->snd_wnd, IRDMA_QPC_QW10_SNDWND);
	qw[IRDMA_QPC_QW11] = le64_encode_bits(info->rcv_nxt, IRDMA_QPC_QW11_RCVNXT) |
			     le64_encode_bits(info->rcv_wnd, IRDMA_QPC_QW11_RCVWND);
	qw[IRDMA_QPC_QW12] = le64_encode_bits(info->snd_nxt, IRDMA_QPC_QW12_SNDMAX) |
			     le64_encode_bits(info->snd_una, IRDMA_QPC_QW12_SNDUNA);
	qw[IRDMA_QPC_QW13] = le64_encode_bits(info->rtt_var, IRDMA_QPC_QW13_RTTVAR);
	qw[IRDMA_QPC_QW14] = le64_encode_bits(info->ss_thresh, IRDMA_QPC_QW14_SSTHRESH) |
			     le64_encode_bits(info->cwnd, IRDMA_QPC_QW14_CWND);
	qw[IRDMA_QPC_QW15] = le64_encode_bits(info->rcv_nxt, IRDMA_QPC_QW15_SNDWL1) |
			     le64_encode_bits(info->snd_nxt, IRDMA_QPC_QW15_SNDWL2);
	qw[IRDMA_QPC_QW16] |=
		le64_encode_bits(info->max_snd_wnd, IRDMA_QPC_QW16_MAXSNDWND) |
		le64_encode_bits(info->rexmit_thresh, IRDMA_QPC_QW16_REXMIT_THRESH);
	qw[IRDMA_QPC_QW20] &= ~cpu_to_le64(IRDMA_QPC_QW20_WRRDRSPOK |
					   IRDMA_QPC_QW20_RDOK);
	qw[IRDMA_QPC_QW20] |=
		le64_encode_bits(wr_en, IRDMA_QPC_QW20_WRRDRSPOK) |
		le64_encode_bits(rd_en, IRDMA_QPC_QW20_RDOK) |
		le64_encode_bits(info->ord, IRDMA_QPC_QW20_ORDSIZE) |
		le64_encode_bits(irdma_qpc_ird_code(info->ird),
				 IRDMA_QPC_QW20_IRDSIZE) |
		le64_encode_bits(!info->crc, IRDMA_QPC_QW20_RCVNOMPACRC) |
		le64_encode_bits(info->snd_nxt, IRDMA_QPC_QW20_SNDMARKOFFSET) |
		le64_encode_bits(info->rcv_nxt, IRDMA_QPC_QW20_RCVMARKOFFSET);
	irdma_ip_to_words(&qw[IRDMA_QPC_LOCAL_IP_HI], &qw[IRDMA_QPC_LOCAL_IP_LO],
			  info->loc_addr, info->ipv4);
	qw[IRDMA_QPC_QW26] = le64_encode_bits(info->arp_idx,
					      IRDMA_QPC_QW26_REMENDPOINTIDX);
}

/**
 * irdma_cqp_qp_cmd() - CREATE_QP, MODIFY_QP or DESTROY_QP
 * @rf: RDMA function
 * @op: opcode
 * @p: parameters
 *
 * Context: process context, may sleep.
 * Return: 0 or a negative errno.
 */
int irdma_cqp_qp_cmd(struct irdma_pci_f *rf, enum irdma_cqp_op op,
		     const struct irdma_qp_cmd_params *p)
{
	struct irdma_cqp_cmd cmd;

	irdma_cqp_hdr(&cmd, op,
		      FIELD_PREP(IRDMA_CQP_QP_QW3_QPID, p->qp_id) |
		      FIELD_PREP(IRDMA_CQP_QP_QW3_QPTYPE, p->qp_type) |
		      FIELD_PREP(IRDMA_CQP_QP_QW3_ORDVALID, p->ord_valid) |
		      FIELD_PREP(IRDMA_CQP_QP_QW3_TOECTXVALID, p->tcp_ctx_valid) |
		      FIELD_PREP(IRDMA_CQP_QP_QW3_VQ, p->virtual_map) |
		      FIELD_PREP(IRDMA_CQP_QP_QW3_CQNUMVALID, p->cq_num_valid) |
		      FIELD_PREP(IRDMA_CQP_QP_QW3_MACVALID, p->mac_valid) |
		      FIELD_PREP(IRDMA_CQP_QP_QW3_REMOVEHASHENTRY, p->remove_hash) |
		      FIELD_PREP(IRDMA_CQP_QP_QW3_TERMACT, p->term_act) |
		      FIELD_PREP(IRDMA_CQP_QP_QW3_RESETCON, p->reset_con) |
		      FIELD_PREP(IRDMA_CQP_QP_QW3_ARPTABIDXVALID, p->arp_valid) |
		      FIELD_PREP(IRDMA_CQP_QP_QW3_NEXTIWSTATE, p->next_state));
	cmd.wqe.qw[IRDMA_CQP_QP_QW1] =
		le64_encode_bits(p->term_len, IRDMA_CQP_QP_QW1_TERMLEN);
	cmd.wqe.qw[IRDMA_CQP_QP_CTX_PA] = cpu_to_le64(p->ctx_pa);
	cmd.wqe.qw[IRDMA_CQP_QP_SHADOW_PA] = cpu_to_le64(p->shadow_pa);
	return irdma_cqp_exec(rf, &cmd);
}

/**
 * irdma_cqp_ah() - CREATE_ADDR_HANDLE or DESTROY_ADDR_HANDLE
 * @rf: RDMA function
 * @p: address handle
 * @create: create (true) or destroy (false)
 *
 * Context: process context, may sleep.
 * Return: 0 or a negative errno.
 */
int irdma_cqp_ah(struct irdma_pci_f *rf, const struct irdma_ah_params *p,
		 bool create)
{
	struct irdma_cqp_cmd cmd;
	__le64 *qw = cmd.wqe.qw;

	irdma_cqp_hdr(&cmd, create ? IRDMA_CQP_OP_CREATE_ADDR_HANDLE :
				     IRDMA_CQP_OP_DESTROY_ADDR_HANDLE,
		      FIELD_PREP(IRDMA_CQP_AH_QW3_AVIDX, p->ah_id) |
		      FIELD_PREP(IRDMA_CQP_AH_QW3_IPV4VALID, p->ipv4) |
		      FIELD_PREP(IRDMA_CQP_AH_QW3_INSERTVLAN, p->insert_vlan) |
		      FIELD_PREP(IRDMA_CQP_AH_QW3_LOOPBACK, p->loopback));
	if (create) {
		qw[IRDMA_CQP_AH_QW0] =
			le64_encode_bits(irdma_mac_to_u64(p->mac),
					 IRDMA_CQP_AH_QW0_MAC);
		qw[IRDMA_CQP_AH_QW1] =
			le64_encode_bits(p->vlan_tci,
					 IRDMA_CQP_AH_QW1_VLANTAG) |
			le64_encode_bits(p->tc, IRDMA_CQP_AH_QW1_TC) |
			le64_encode_bits(p->pd_id & 0xffff,
					 IRDMA_CQP_AH_QW1_PDIDXLO);
		qw[IRDMA_CQP_AH_QW2] =
			le64_encode_bits(p->flow_label,
					 IRDMA_CQP_AH_QW2_FLOWLABEL) |
			le64_encode_bits(p->pd_id >> 16,
					 IRDMA_CQP_AH_QW2_PDIDXHI) |
			le64_encode_bits(p->hop_limit,
					 IRDMA_CQP_AH_QW2_HOPLIMIT) |
			le64_encode_bits(p->arp_idx, IRDMA_CQP_AH_QW2_ARPINDEX);
		irdma_ip_to_words(&qw[IRDMA_CQP_AH_DEST_IP_HI],
				  &qw[IRDMA_CQP_AH_DEST_IP_LO], p->dest_ip,
				  p->ipv4);
		irdma_ip_to_words(&qw[IRDMA_CQP_AH_SRC_IP_HI],
				  &qw[IRDMA_CQP_AH_SRC_IP_LO], p->src_ip,
				  p->ipv4);
	}
	return irdma_cqp_exec(rf, &cmd);
}

/**
 * irdma_cqp_stag_pd() - PD id bits of a STag command
 * @rf: RDMA function
 * @pd_id: PD
 *
 * Return: word-1 bits (the field moved between generations).
 */
static __le64 irdma_cqp_stag_pd(struct irdma_pci_f *rf, u32 pd_id)
{
	if (rf->gen == IRDMA_GEN_1)
		return le64_encode_bits(pd_id, IRDMA_CQP_STAG_QW1_GEN1_PDID);
	return le64_encode_bits(pd_id, IRDMA_CQP_STAG_QW1_GEN2_PDID);
}

/**
 * irdma_cqp_reg_mr() - REG_MR: register a (non-shared) memory region
 * @rf: RDMA function
 * @p: the region
 *
 * Context: process context, may sleep.
 * Return: 0 or a negative errno.
 */
int irdma_cqp_reg_mr(struct irdma_pci_f *rf, const struct irdma_mr_params *p)
{
	struct irdma_cqp_cmd cmd;
	__le64 *qw = cmd.wqe.qw;

	irdma_cqp_hdr(&cmd, IRDMA_CQP_OP_REG_MR,
		      IRDMA_CQP_STAG_QW3_MR |
		      FIELD_PREP(IRDMA_CQP_QW3_LPBLSIZE, p->pbl->level) |
		      FIELD_PREP(IRDMA_CQP_STAG_QW3_HPAGESIZE, p->hw_page_size) |
		      FIELD_PREP(IRDMA_CQP_STAG_QW3_ARIGHTS, p->access) |
		      FIELD_PREP(IRDMA_CQP_STAG_QW3_REMACCENABLED,
				 p->access & (IRDMA_ACCESS_REMOTE_READ |
					      IRDMA_ACCESS_REMOTE_WRITE) ? 1 : 0) |
		      FIELD_PREP(IRDMA_CQP_STAG_QW3_VABASEDTO, 1));
	qw[IRDMA_CQP_STAG_VA] = cpu_to_le64(p->va);
	qw[IRDMA_CQP_STAG_QW1] =
		le64_encode_bits(p->len, IRDMA_CQP_STAG_QW1_LEN) |
		irdma_cqp_stag_pd(rf, p->pd_id);
	qw[IRDMA_CQP_STAG_QW2] =
		le64_encode_bits(p->stag & 0xff, IRDMA_CQP_STAG_QW2_KEY) |
		le64_encode_bits(p->stag >> 8, IRDMA_CQP_STAG_QW2_IDX);
	qw[IRDMA_CQP_STAG_PA] = cpu_to_le64(p->pbl->level ? 0 : p->pbl->pa);
	qw[IRDMA_CQP_STAG_QW5] =
		le64_encode_bits(rf->pf_id, IRDMA_CQP_STAG_QW5_HMC_FN_ID);
	qw[IRDMA_CQP_STAG_QW6] =
		le64_encode_bits(p->pbl->level ? p->pbl->first : 0,
				 IRDMA_CQP_STAG_QW6_FIRST_PBLE);
	return irdma_cqp_exec(rf, &cmd);
}

/**
 * irdma_cqp_dealloc_stag() - DEALLOC_STAG
 * @rf: RDMA function
 * @stag: the STag
 * @pd_id: its PD
 * @mr: it is a memory region (not a window)
 *
 * Context: process context, may sleep.
 * Return: 0 or a negative errno.
 */
int irdma_cqp_dealloc_stag(struct irdma_pci_f *rf, u32 stag, u32 pd_id,
			   bool mr)
{
	struct irdma_cqp_cmd cmd;

	irdma_cqp_hdr(&cmd, IRDMA_CQP_OP_DEALLOC_STAG,
		      FIELD_PREP(IRDMA_CQP_STAG_QW3_MR, mr));
	cmd.wqe.qw[IRDMA_CQP_STAG_QW1] = irdma_cqp_stag_pd(rf, pd_id);
	cmd.wqe.qw[IRDMA_CQP_STAG_QW2] =
		le64_encode_bits(stag >> 8, IRDMA_CQP_STAG_QW2_IDX);
	return irdma_cqp_exec(rf, &cmd);
}

/**
 * irdma_cqp_flush_wqes() - FLUSH_WQES: complete a QP's posted WQEs in error
 * @rf: RDMA function
 * @qp_id: QP
 * @sq: flush the SQ
 * @rq: flush the RQ
 * @minor: flush code (major IRDMA_FLUSH_MAJOR_ERR)
 *
 * Context: process context, may sleep.
 * Return: 0 or a negative errno.
 */
int irdma_cqp_flush_wqes(struct irdma_pci_f *rf, u32 qp_id, bool sq, bool rq,
			 u16 minor)
{
	struct irdma_cqp_cmd cmd;

	irdma_cqp_hdr(&cmd, IRDMA_CQP_OP_FLUSH_WQES,
		      FIELD_PREP(IRDMA_CQP_FLUSH_QW3_QPID, qp_id) |
		      IRDMA_CQP_FLUSH_QW3_USERFLCODE |
		      FIELD_PREP(IRDMA_CQP_FLUSH_QW3_FLUSHSQ, sq) |
		      FIELD_PREP(IRDMA_CQP_FLUSH_QW3_FLUSHRQ, rq));
	cmd.wqe.qw[IRDMA_CQP_FLUSH_QW2] =
		le64_encode_bits(minor, IRDMA_CQP_FLUSH_QW2_RQMNERR) |
		le64_encode_bits(IRDMA_FLUSH_MAJOR_ERR,
				 IRDMA_CQP_FLUSH_QW2_RQMJERR) |
		le64_encode_bits(minor, IRDMA_CQP_FLUSH_QW2_SQMNERR) |
		le64_encode_bits(IRDMA_FLUSH_MAJOR_ERR,
				 IRDMA_CQP_FLUSH_QW2_SQMJERR);
	return irdma_cqp_exec(rf, &cmd);
}

/**
 * irdma_cqp_alloc_stag_cmd() - build ALLOC_STAG for a fast-register region
 * @rf: RDMA function
 * @cmd: command to build
 * @mr: the region, with its STag and page list allocated
 * @pd_id: its PD
 */
void irdma_cqp_alloc_stag_cmd(struct irdma_pci_f *rf, struct irdma_cqp_cmd *cmd,
			      const struct irdma_mr *mr, u32 pd_id)
{
	irdma_cqp_hdr(cmd, IRDMA_CQP_OP_ALLOC_STAG,
		      IRDMA_CQP_STAG_QW3_MR |
		      FIELD_PREP(IRDMA_CQP_QW3_LPBLSIZE, mr->pbl.level) |
		      FIELD_PREP(IRDMA_CQP_STAG_QW3_HPAGESIZE, IRDMA_PAGE_SIZE_4K) |
		      IRDMA_CQP_STAG_QW3_REMACCENABLED);
	cmd->wqe.qw[IRDMA_CQP_STAG_QW1] =
		le64_encode_bits((u64)mr->fr_max << PAGE_SHIFT,
				 IRDMA_CQP_STAG_QW1_LEN) |
		irdma_cqp_stag_pd(rf, pd_id);
	cmd->wqe.qw[IRDMA_CQP_STAG_QW2] =
		le64_encode_bits(mr->stag >> 8, IRDMA_CQP_STAG_QW2_IDX);
	cmd->wqe.qw[IRDMA_CQP_STAG_QW5] =
		le64_encode_bits(rf->pf_id, IRDMA_CQP_STAG_QW5_HMC_FN_ID);
	cmd->wqe.qw[IRDMA_CQP_STAG_QW6] =
		le64_encode_bits(mr->pbl.first, IRDMA_CQP_STAG_QW6_FIRST_PBLE);
}
