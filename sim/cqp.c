// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * irdma_sim - the control QP engine.
 *
 * Bring-up handshake: the driver writes the host context address to
 * CCQPHIGH, then CCQPLOW; the second write creates the CQP at once (in the
 * caller's context, it only checks and records) and sets CCQPSTATUS to
 * DONE or ERR.  Writing 0 to both destroys it.
 *
 * Processing: a CQPDB write records the head and queues the worker on the
 * instance's ordered workqueue.  The worker takes WQEs from the tail while
 * the tail differs from the head and the WQE's valid bit equals the lap
 * polarity (1 on the first lap, flipped at each wrap), copies each WQE
 * (the driver cannot change it under the model), executes it without
 * sim->lock, then completes it under sim->lock: CQPTAIL advances (bit 31
 * and CQPERRCODES on error) and, once the CCQ (CQ 0) exists, a CCQ CQE is
 * written; CQ arming then decides whether a CEQE and an interrupt follow
 * (eq.c).  Before a command executes, the worker transmits the UDA send
 * WQEs whose doorbell is pending (uda.c), so a command never overtakes a
 * send rung before it.
 *
 * Destroying the CQP while a WQE executes waits for that WQE: CCQPSTATUS
 * keeps DONE until the worker has finished with the SQ, and the driver
 * polls for DONE to clear before freeing it.
 */

#include <linux/bitfield.h>
#include <linux/ktime.h>
#include <linux/sched.h>

#include "sim.h"

/**
 * struct irdma_sim_op_desc - what the model does with an opcode
 * @name: opcode name for messages and debugfs
 * @exec: handler, NULL when the model does not implement the opcode
 */
struct irdma_sim_op_desc {
	const char *name;
	void (*exec)(struct irdma_sim *sim, struct irdma_sim_cmd *cmd);
};

#define IRDMA_SIM_OP(_op, _fn) \
	[IRDMA_CQP_OP_##_op] = { .name = #_op, .exec = _fn }

static const struct irdma_sim_op_desc irdma_sim_op_table[IRDMA_CQP_OP_MAX] = {
	IRDMA_SIM_OP(CREATE_QP, irdma_sim_op_create_qp),
	IRDMA_SIM_OP(MODIFY_QP, irdma_sim_op_modify_qp),
	IRDMA_SIM_OP(DESTROY_QP, irdma_sim_op_destroy_qp),
	IRDMA_SIM_OP(CREATE_CQ, irdma_sim_op_create_cq),
	IRDMA_SIM_OP(MODIFY_CQ, irdma_sim_op_modify_cq),
	IRDMA_SIM_OP(DESTROY_CQ, irdma_sim_op_destroy_cq),
	IRDMA_SIM_OP(ALLOC_STAG, irdma_sim_op_alloc_stag),
	IRDMA_SIM_OP(REG_MR, irdma_sim_op_reg_mr),
	IRDMA_SIM_OP(QUERY_STAG, NULL),
	IRDMA_SIM_OP(REG_SMR, NULL),
	IRDMA_SIM_OP(DEALLOC_STAG, irdma_sim_op_dealloc_stag),
	IRDMA_SIM_OP(MANAGE_LOC_MAC_TABLE, NULL),
	IRDMA_SIM_OP(MANAGE_ARP, irdma_sim_op_manage_arp),
	IRDMA_SIM_OP(MANAGE_VF_PBLE_BP, NULL),
	IRDMA_SIM_OP(MANAGE_PUSH_PAGES, irdma_sim_op_push_pages),
	IRDMA_SIM_OP(QUERY_RDMA_FEATURES, irdma_sim_op_query_features),
	IRDMA_SIM_OP(UPLOAD_CONTEXT, NULL),
	IRDMA_SIM_OP(ALLOC_LOC_MAC_TABLE_ENTRY, NULL),
	IRDMA_SIM_OP(MANAGE_HMC_PM_FUNC_TABLE, NULL),
	IRDMA_SIM_OP(CREATE_CEQ, irdma_sim_op_create_ceq),
	IRDMA_SIM_OP(DESTROY_CEQ, irdma_sim_op_destroy_ceq),
	IRDMA_SIM_OP(CREATE_AEQ, irdma_sim_op_create_aeq),
	IRDMA_SIM_OP(DESTROY_AEQ, irdma_sim_op_destroy_aeq),
	IRDMA_SIM_OP(CREATE_ADDR_HANDLE, irdma_sim_op_create_ah),
	IRDMA_SIM_OP(MODIFY_ADDR_HANDLE, irdma_sim_op_modify_ah),
	IRDMA_SIM_OP(DESTROY_ADDR_HANDLE, irdma_sim_op_destroy_ah),
	IRDMA_SIM_OP(UPDATE_PE_SDS, irdma_sim_op_update_sds),
	IRDMA_SIM_OP(QUERY_FPM_VAL, irdma_sim_op_query_fpm),
	IRDMA_SIM_OP(COMMIT_FPM_VAL, irdma_sim_op_commit_fpm),
	IRDMA_SIM_OP(FLUSH_WQES, irdma_sim_op_flush_wqes),
	IRDMA_SIM_OP(MANAGE_APBVT, irdma_sim_op_manage_apbvt),
	IRDMA_SIM_OP(NOP, irdma_sim_op_nop),
	IRDMA_SIM_OP(MANAGE_QHASH, irdma_sim_op_manage_qhash),
	IRDMA_SIM_OP(CREATE_MCAST_GRP, NULL),
	IRDMA_SIM_OP(MODIFY_MCAST_GRP, NULL),
	IRDMA_SIM_OP(DESTROY_MCAST_GRP, NULL),
	IRDMA_SIM_OP(SUSPEND_QP, irdma_sim_op_suspend_qp),
	IRDMA_SIM_OP(RESUME_QP, irdma_sim_op_resume_qp),
	IRDMA_SIM_OP(SHMC_PAGES_ALLOCATED, irdma_sim_op_shmc_pages),
	IRDMA_SIM_OP(WORK_SCHED_NODE, irdma_sim_op_ws_node),
	IRDMA_SIM_OP(MANAGE_STATS, irdma_sim_op_manage_stats),
	IRDMA_SIM_OP(GATHER_STATS, irdma_sim_op_gather_stats),
	IRDMA_SIM_OP(UP_MAP, irdma_sim_op_up_map),
};

/**
 * irdma_sim_op_name() - name of a CQP opcode
 * @op: opcode
 *
 * Return: the name, or "UNKNOWN".
 */
const char *irdma_sim_op_name(u8 op)
{
	if (op < IRDMA_CQP_OP_MAX && irdma_sim_op_table[op].name)
		return irdma_sim_op_table[op].name;
	return "UNKNOWN";
}

/**
 * irdma_sim_cqp_create() - CCQPLOW written with a host context address
 * @sim: instance
 *
 * Checks the host context (SQ size encoding 1..10, hardware major version
 * GEN_2, 512-byte aligned SQ in RAM) and starts the CQP, or reports ERR.
 */
void irdma_sim_cqp_create(struct irdma_sim *sim)
{
	struct irdma_sim_cqp *cqp = &sim->cqp;
	u64 pa = (u64)sim->regs.ccqphigh << 32 | sim->regs.ccqplow;
	u32 enc, size, protocol, profile;
	u64 qw0, qw1, qw2, qw4;
	struct irdma_cqp_ctx *ctx;
	struct irdma_cqp_wqe *sq;
	const char *why;
	u16 minor;

	lockdep_assert_held(&sim->lock);

	if (cqp->created) {
		dev_err_ratelimited(&sim->dev,
				    "CQP create (context %#llx) while the CQP exists: ignored\n",
				    pa);
		return;
	}
	if (READ_ONCE(sim->knobs.fail_cqp_create)) {
		minor = IRDMA_SIM_CQP_MINOR_NO_RESOURCE;
		why = "injected failure";
		goto fail;
	}
	ctx = IS_ALIGNED(pa, 4) ? irdma_sim_dma_va(sim, pa, sizeof(*ctx)) : NULL;
	if (!ctx) {
		minor = IRDMA_SIM_CQP_MINOR_BAD_ADDR;
		why = "host context not in RAM";
		goto fail;
	}
	qw0 = le64_to_cpu(READ_ONCE(ctx->qw[IRDMA_CQP_CTX_QW0]));
	qw1 = le64_to_cpu(READ_ONCE(ctx->qw[IRDMA_CQP_CTX_QW1]));
	qw2 = le64_to_cpu(READ_ONCE(ctx->qw[IRDMA_CQP_CTX_QW2]));
	qw4 = le64_to_cpu(READ_ONCE(ctx->qw[IRDMA_CQP_CTX_QW4]));

	minor = IRDMA_SIM_CQP_MINOR_BAD_ID;
	enc = FIELD_GET(IRDMA_CQP_CTX_QW0_SQSIZE, qw0);
	protocol = FIELD_GET(IRDMA_CQP_CTX_QW0_PROTOCOL_USED, qw0);
	profile = FIELD_GET(IRDMA_CQP_CTX_QW2_HMC_PROFILE, qw2);
	if (enc < 1 || enc > 10) {
		minor = IRDMA_SIM_CQP_MINOR_BAD_SIZE;
		why = "SQ size encoding not in 1..10";
		goto fail;
	}
	if (FIELD_GET(IRDMA_CQP_CTX_QW4_HW_MAJOR, qw4) != IRDMA_CQP_HW_MAJOR_GEN2) {
		why = "hardware major version is not GEN_2";
		goto fail;
	}
	if (protocol > IRDMA_PROTOCOL_ROCE) {
		why = "unknown protocol";
		goto fail;
	}
	if (profile < 1 || profile > 3) {
		why = "unknown HMC profile";
		goto fail;
	}
	size = 1U << (enc + 1);
	sq = IS_ALIGNED(qw1, IRDMA_CQP_SQ_ALIGN) ?
		irdma_sim_dma_va(sim, qw1, size * sizeof(*sq)) : NULL;
	if (!sq) {
		minor = IRDMA_SIM_CQP_MINOR_BAD_ADDR;
		why = "SQ not 512-byte aligned or not in RAM";
		goto fail;
	}

	cqp->ctx_pa = pa;
	cqp->sq_pa = qw1;
	cqp->sq = sq;
	cqp->size = size;
	cqp->tail = 0;
	cqp->head = 0;
	cqp->polarity = 1;
	cqp->comp_ctx = le64_to_cpu(READ_ONCE(ctx->qw[IRDMA_CQP_CTX_QW3]));
	cqp->protocol = protocol;
	cqp->hmc_profile = profile;
	cqp->destroying = false;
	cqp->created = true;
	sim->regs.cqptail = 0;
	sim->regs.cqperrcodes = 0;
	sim->regs.ccqpstatus = IRDMA_CCQPSTATUS_DONE;
	dev_dbg(&sim->dev, "CQP created: %u WQEs at %#llx\n", size, qw1);
	return;

fail:
	sim->regs.ccqpstatus = IRDMA_CCQPSTATUS_ERR;
	sim->regs.cqperrcodes =
		FIELD_PREP(IRDMA_CQPERRCODES_MAJOR, IRDMA_SIM_CQP_MAJOR_BAD_WQE) |
		FIELD_PREP(IRDMA_CQPERRCODES_MINOR, minor);
	dev_err_ratelimited(&sim->dev, "CQP create (context %#llx) failed: %s\n",
			    pa, why);
}

/**
 * irdma_sim_cqp_finish_destroy() - the CQP is gone
 * @sim: instance
 *
 * Every object created under this CQP becomes invisible (the generation
 * moves on); the worker frees them before it processes another WQE.
 */
static void irdma_sim_cqp_finish_destroy(struct irdma_sim *sim)
{
	struct irdma_sim_cqp *cqp = &sim->cqp;

	lockdep_assert_held(&sim->lock);

	cqp->created = false;
	cqp->destroying = false;
	cqp->sq = NULL;
	sim->gen++;
	bitmap_zero(sim->irq.pending, IRDMA_SIM_NUM_CAUSES);
	sim->regs.ccqpstatus = 0;
	if (!sim->dead)
		queue_work(sim->wq, &sim->cqp_work);
	dev_dbg(&sim->dev, "CQP destroyed\n");
}

/**
 * irdma_sim_cqp_destroy() - CCQPHIGH and CCQPLOW written with 0
 * @sim: instance
 */
void irdma_sim_cqp_destroy(struct irdma_sim *sim)
{
	struct irdma_sim_cqp *cqp = &sim->cqp;

	lockdep_assert_held(&sim->lock);

	if (!cqp->created) {
		sim->regs.ccqpstatus = 0;
		return;
	}
	if (cqp->busy) {
		/* the worker finishes the destroy after the current WQE */
		cqp->destroying = true;
		return;
	}
	irdma_sim_cqp_finish_destroy(sim);
}

/**
 * irdma_sim_cqp_doorbell() - CQPDB written
 * @sim: instance
 * @head: new SQ head index (next free slot)
 */
void irdma_sim_cqp_doorbell(struct irdma_sim *sim, u32 head)
{
	struct irdma_sim_cqp *cqp = &sim->cqp;

	lockdep_assert_held(&sim->lock);

	sim->regs.cqpdb = head;
	sim->stats.doorbells++;
	if (!cqp->created)
		return;
	if (head >= cqp->size) {
		dev_err_ratelimited(&sim->dev,
				    "CQPDB %u beyond the SQ (%u WQEs): ignored\n",
				    head, cqp->size);
		return;
	}
	/* the worker's wakeup is part of every command's cost: measure it */
	if (cqp->tail == cqp->head && !cqp->busy && !cqp->start_pending) {
		cqp->start_pending = true;
		cqp->db_ns = ktime_get_ns();
	}
	cqp->head = head;
	queue_work(sim->wq, &sim->cqp_work);
}

/**
 * irdma_sim_cqp_exec() - execute one command
 * @sim: instance
 * @cmd: command; the handler fills the result fields
 *
 * Context: the CQP worker, sim->lock not held.
 */
static void irdma_sim_cqp_exec(struct irdma_sim *sim, struct irdma_sim_cmd *cmd)
{
	u32 fail = READ_ONCE(sim->knobs.fail_opcode);

	if (fail == cmd->op &&
	    cmpxchg(&sim->knobs.fail_opcode, fail, IRDMA_SIM_FAIL_NONE) == fail) {
		cmd->major = READ_ONCE(sim->knobs.fail_major);
		cmd->minor = READ_ONCE(sim->knobs.fail_minor);
		sim->stats.injected++;
		dev_info(&sim->dev, "CQP %s at WQE %u: injected error %#x/%#x\n",
			 irdma_sim_op_name(cmd->op), cmd->idx, cmd->major,
			 cmd->minor);
		return;
	}
	if (cmd->op >= IRDMA_CQP_OP_MAX || !irdma_sim_op_table[cmd->op].exec) {
		irdma_sim_cmd_fail(sim, cmd, IRDMA_SIM_CQP_MINOR_BAD_OPCODE,
				   "opcode not implemented by the model\n");
		return;
	}
	irdma_sim_op_table[cmd->op].exec(sim, cmd);
}

/**
 * irdma_sim_cqp_complete() - report the completion of a command
 * @sim: instance
 * @cmd: executed command
 *
 * Advances CQPTAIL and, when the CCQ exists, writes a CCQ CQE: QW1 the
 * CQP completion context, QW2 the op return value, QW3 codes, WQE index,
 * error and valid bits.
 */
static void irdma_sim_cqp_complete(struct irdma_sim *sim,
				   struct irdma_sim_cmd *cmd)
{
	struct irdma_sim_cqp *cqp = &sim->cqp;
	bool err = cmd->major != 0;
	__le64 cqe[IRDMA_CQE_WORDS] = {};
	struct irdma_sim_cq *ccq;

	lockdep_assert_held(&sim->lock);

	sim->stats.wqes[cmd->op]++;
	sim->stats.wqes_total++;
	if (err) {
		sim->stats.errors[cmd->op]++;
		sim->stats.errors_total++;
		sim->regs.cqperrcodes =
			FIELD_PREP(IRDMA_CQPERRCODES_MAJOR, cmd->major) |
			FIELD_PREP(IRDMA_CQPERRCODES_MINOR, cmd->minor);
	}
	cqp->tail = (cmd->idx + 1) % cqp->size;
	if (!cqp->tail)
		cqp->polarity ^= 1;
	sim->regs.cqptail = FIELD_PREP(IRDMA_CQPTAIL_WQTAIL, cqp->tail) |
			    (err ? IRDMA_CQPTAIL_ERR : 0);

	ccq = irdma_sim_cq_get(sim, IRDMA_CCQ_ID);
	if (!ccq || sim->dead)
		return;
	cqe[IRDMA_CCQ_CQE_COMPCTX] = cpu_to_le64(cqp->comp_ctx);
	cqe[IRDMA_CCQ_CQE_QW2] =
		cpu_to_le64(FIELD_PREP(IRDMA_CCQ_CQE_QW2_OP_RET, cmd->op_ret));
	cqe[IRDMA_CQE_HDR] =
		cpu_to_le64(FIELD_PREP(IRDMA_CCQ_CQE_QW3_MINOR_ERR, cmd->minor) |
			    FIELD_PREP(IRDMA_CCQ_CQE_QW3_MAJOR_ERR, cmd->major) |
			    FIELD_PREP(IRDMA_CCQ_CQE_QW3_WQEIDX, cmd->idx) |
			    (err ? IRDMA_CCQ_CQE_QW3_ERROR : 0));
	if (!irdma_sim_cq_post(sim, ccq, cqe, err))
		sim->stats.ccq_cqes++;
}

/**
 * irdma_sim_cqp_next() - fetch the WQE at the tail if there is one
 * @sim: instance
 * @cmd: filled with a copy of the WQE
 *
 * Return: true when @cmd holds a WQE to execute.
 */
static bool irdma_sim_cqp_next(struct irdma_sim *sim, struct irdma_sim_cmd *cmd)
{
	struct irdma_sim_cqp *cqp = &sim->cqp;
	struct irdma_cqp_wqe *wqe;
	u64 hdr;
	u32 i;

	lockdep_assert_held(&sim->lock);

	if (sim->dead || !cqp->created || cqp->destroying ||
	    sim->purged_gen != sim->gen || cqp->tail == cqp->head ||
	    READ_ONCE(sim->knobs.stall_cqp))
		return false;
	wqe = &cqp->sq[cqp->tail];
	hdr = le64_to_cpu(READ_ONCE(wqe->qw[IRDMA_CQP_WQE_HDR]));
	if (FIELD_GET(IRDMA_CQP_HDR_VALID, hdr) != cqp->polarity) {
		sim->stats.stalls++;
		dev_err_ratelimited(&sim->dev,
				    "CQPDB says head %u but WQE %u is not valid\n",
				    cqp->head, cqp->tail);
		return false;
	}
	/* read the body only after seeing the valid bit (written last) */
	dma_rmb();
	for (i = 0; i < IRDMA_CQP_WQE_WORDS; i++)
		cmd->wqe.qw[i] = READ_ONCE(wqe->qw[i]);
	cmd->wqe.qw[IRDMA_CQP_WQE_HDR] = cpu_to_le64(hdr);
	cmd->idx = cqp->tail;
	cmd->op = FIELD_GET(IRDMA_CQP_HDR_OPCODE, hdr);
	cmd->name = irdma_sim_op_name(cmd->op);
	cmd->major = 0;
	cmd->minor = 0;
	cmd->op_ret = 0;
	return true;
}

/**
 * irdma_sim_purge() - free what older CQP generations left behind
 * @sim: instance
 *
 * Context: the CQP worker.
 */
static void irdma_sim_purge(struct irdma_sim *sim)
{
	unsigned long flags;
	u32 gen;

	spin_lock_irqsave(&sim->lock, flags);
	gen = sim->gen;
	spin_unlock_irqrestore(&sim->lock, flags);
	if (gen == sim->purged_gen)
		return;
	irdma_sim_eq_purge(sim);
	irdma_sim_res_purge(sim);
	spin_lock_irqsave(&sim->lock, flags);
	irdma_sim_hmc_reset(sim);
	sim->purged_gen = gen;
	spin_unlock_irqrestore(&sim->lock, flags);
}

/**
 * irdma_sim_cqp_work() - the CQP engine
 * @work: the instance's cqp_work
 *
 * Context: the instance's ordered workqueue; may sleep.
 */
void irdma_sim_cqp_work(struct work_struct *work)
{
	struct irdma_sim *sim = container_of(work, struct irdma_sim, cqp_work);
	struct irdma_sim_cmd cmd;
	unsigned long flags;
	bool stale;
	u64 t0;

	for (;;) {
		irdma_sim_purge(sim);

		spin_lock_irqsave(&sim->lock, flags);
		if (!irdma_sim_cqp_next(sim, &cmd)) {
			stale = !sim->dead && sim->purged_gen != sim->gen;
			spin_unlock_irqrestore(&sim->lock, flags);
			if (stale)
				continue;
			break;
		}
		sim->cqp.busy = true;
		t0 = ktime_get_ns();
		if (sim->cqp.start_pending) {
			sim->cqp.start_pending = false;
			sim->stats.starts++;
			sim->stats.start_ns += t0 - sim->cqp.db_ns;
		}
		spin_unlock_irqrestore(&sim->lock, flags);

		/* doorbells act in order: send WQEs rung before go out first */
		irdma_sim_uda_flush(sim, IRDMA_SIM_UDA_CQP_BUDGET);
		irdma_sim_cqp_exec(sim, &cmd);

		spin_lock_irqsave(&sim->lock, flags);
		sim->cqp.busy = false;
		sim->stats.exec_ns[cmd.op] += ktime_get_ns() - t0;
		irdma_sim_cqp_complete(sim, &cmd);
		if (sim->cqp.destroying)
			irdma_sim_cqp_finish_destroy(sim);
		spin_unlock_irqrestore(&sim->lock, flags);
		cond_resched();
	}
}
