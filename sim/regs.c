// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * irdma_sim - the register window (E810 PF BAR0, GEN_2 offsets of defs.h).
 *
 * Software cannot trap MMIO, so the driver reaches the registers through
 * irdma_sim.h's rd32/wr32.  Both may be called from any context, including
 * hard IRQ with spinlocks held: they take sim->lock with interrupts
 * disabled, never sleep, and leave anything slow (CQP processing) to the
 * model's workqueue.  Unknown registers read 0; writes to them, and to
 * read-only registers, are ignored.
 */

#include <linux/bitfield.h>
#include <linux/preempt.h>
#include <linux/rcupdate.h>

#include "sim.h"

/**
 * irdma_sim_reg_index() - index of an indexed register (REG(n) = base + 4n)
 * @reg: BAR0 offset accessed
 * @base: offset of REG(0)
 * @n: number of registers
 * @idx: the index, when @reg is one of them
 *
 * Return: true when @reg is REG(*@idx).
 */
static bool irdma_sim_reg_index(u32 reg, u32 base, u32 n, u32 *idx)
{
	if (reg < base || reg - base >= 4 * n || (reg - base) % 4)
		return false;
	*idx = (reg - base) / 4;
	return true;
}

/**
 * irdma_sim_rd32() - irdma_sim.h rd32: read a register
 * @sadev: device the driver was probed with
 * @reg: BAR0 offset
 *
 * Context: any; does not sleep.
 * Return: the register value, 0 for registers the model does not have.
 */
static u32 irdma_sim_rd32(struct irdma_sim_adev *sadev, u32 reg)
{
	struct irdma_sim *sim = irdma_sim_from_sadev(sadev);
	struct irdma_sim_regs *regs = &sim->regs;
	unsigned long flags;
	u32 val = 0, i;

	spin_lock_irqsave(&sim->lock, flags);
	switch (reg) {
	case IRDMA_GEN2_CQPTAIL:
		val = regs->cqptail;
		break;
	case IRDMA_GEN2_CQPDB:
		val = regs->cqpdb;
		break;
	case IRDMA_GEN2_CCQPSTATUS:
		val = regs->ccqpstatus;
		break;
	case IRDMA_GEN2_CCQPHIGH:
		val = regs->ccqphigh;
		break;
	case IRDMA_GEN2_CCQPLOW:
		val = regs->ccqplow;
		break;
	case IRDMA_GEN2_CQPERRCODES:
		val = regs->cqperrcodes;
		break;
	case IRDMA_GEN2_LBARCTRL:
		val = FIELD_PREP(IRDMA_LBARCTRL_PE_DB_SIZE, IRDMA_PE_DB_SIZE_8M);
		break;
	case IRDMA_GEN2_CPUSTATUS0:
	case IRDMA_GEN2_CPUSTATUS1:
	case IRDMA_GEN2_CPUSTATUS2:
		val = READ_ONCE(sim->knobs.fw_not_ready) ? 0 : IRDMA_CPU_READY;
		break;
	case IRDMA_GEN2_AEQCTL:
		val = regs->aeqctl;
		break;
	case IRDMA_GEN2_CRITERR:
		val = regs->criterr;
		break;
	default:
		if (irdma_sim_reg_index(reg, IRDMA_GEN2_CEQCTL0,
					IRDMA_SIM_MAX_CEQS, &i)) {
			val = regs->ceqctl[i];
		} else if (irdma_sim_reg_index(reg, IRDMA_GEN2_DYN_CTL0,
					       IRDMA_GEN2_MAX_VECTORS, &i)) {
			if (i < sim->irq.nvec)
				val = regs->dyn_ctl[i];
		} else {
			sim->stats.bad_reg++;
			dev_dbg_ratelimited(&sim->dev,
					    "read of unknown register %#x\n",
					    reg);
		}
		break;
	}
	spin_unlock_irqrestore(&sim->lock, flags);
	return val;
}

/**
 * irdma_sim_wr_ignored() - note a write the model ignores
 * @sim: instance
 * @reg: BAR0 offset
 * @val: value written
 * @why: reason
 */
static void irdma_sim_wr_ignored(struct irdma_sim *sim, u32 reg, u32 val,
				 const char *why)
{
	lockdep_assert_held(&sim->lock);

	sim->stats.bad_reg++;
	dev_dbg_ratelimited(&sim->dev, "write %#x to register %#x ignored: %s\n",
			    val, reg, why);
}

/**
 * irdma_sim_wr32() - irdma_sim.h wr32: write a register
 * @sadev: device the driver was probed with
 * @reg: BAR0 offset
 * @val: value
 *
 * A WQEALLOC of a kernel iWARP QP written from a context that may sleep
 * (no lock, no RCU read side, interrupts and preemption on) runs the QP's
 * engine right here, after sim->lock is dropped: the poster pays for its
 * own WQEs as with a software iWARP stack, and the work item's wakeup is
 * saved.  From any other context the work item runs it.
 *
 * Context: any; sleeps only when the writer's context allows it.
 */
static void irdma_sim_wr32(struct irdma_sim_adev *sadev, u32 reg, u32 val)
{
	struct irdma_sim *sim = irdma_sim_from_sadev(sadev);
	struct irdma_sim_regs *regs = &sim->regs;
	bool can_run = preemptible() && !rcu_preempt_depth();
	struct irdma_sim_iw *run = NULL;
	unsigned long flags;
	u32 i;

	spin_lock_irqsave(&sim->lock, flags);
	if (sim->dead) {
		irdma_sim_wr_ignored(sim, reg, val, "function removed");
		goto out;
	}
	switch (reg) {
	case IRDMA_GEN2_CQPTAIL:
		/* the driver clears it before creating the CQP */
		if (sim->cqp.created)
			irdma_sim_wr_ignored(sim, reg, val, "CQP is running");
		else
			regs->cqptail = val & (IRDMA_CQPTAIL_WQTAIL |
					       IRDMA_CQPTAIL_ERR);
		break;
	case IRDMA_GEN2_CQPDB:
		irdma_sim_cqp_doorbell(sim, val);
		break;
	case IRDMA_GEN2_CCQPSTATUS:
		if (sim->cqp.created)
			irdma_sim_wr_ignored(sim, reg, val, "CQP is running");
		else
			regs->ccqpstatus = val;
		break;
	case IRDMA_GEN2_CCQPHIGH:
		regs->ccqphigh = val;
		break;
	case IRDMA_GEN2_CCQPLOW:
		/* the low half, written second, starts a create or destroy */
		regs->ccqplow = val;
		if (!regs->ccqphigh && !regs->ccqplow)
			irdma_sim_cqp_destroy(sim);
		else
			irdma_sim_cqp_create(sim);
		break;
	case IRDMA_GEN2_CQARM:
		irdma_sim_cq_arm(sim, val);
		break;
	case IRDMA_GEN2_CQACK:
		irdma_sim_cq_ack(sim, val);
		break;
	case IRDMA_GEN2_AEQALLOC:
		irdma_sim_aeq_credit(sim, val);
		break;
	case IRDMA_GEN2_WQEALLOC:
		run = irdma_sim_wqe_alloc(sim, val, can_run);
		break;
	case IRDMA_GEN2_AEQCTL:
		irdma_sim_irq_route(sim, IRDMA_SIM_AEQ_CAUSE, val);
		break;
	case IRDMA_GEN2_PDINV:
		irdma_sim_pdinv(sim, val);
		break;
	case IRDMA_GEN2_CQPERRCODES:
	case IRDMA_GEN2_LBARCTRL:
	case IRDMA_GEN2_CPUSTATUS0:
	case IRDMA_GEN2_CPUSTATUS1:
	case IRDMA_GEN2_CPUSTATUS2:
	case IRDMA_GEN2_CRITERR:
		irdma_sim_wr_ignored(sim, reg, val, "read-only");
		break;
	default:
		if (irdma_sim_reg_index(reg, IRDMA_GEN2_CEQCTL0,
					IRDMA_SIM_MAX_CEQS, &i))
			irdma_sim_irq_route(sim, i, val);
		else if (irdma_sim_reg_index(reg, IRDMA_GEN2_DYN_CTL0,
					     IRDMA_GEN2_MAX_VECTORS, &i))
			irdma_sim_irq_dyn_ctl(sim, i, val);
		else
			irdma_sim_wr_ignored(sim, reg, val, "unknown register");
		break;
	}
out:
	spin_unlock_irqrestore(&sim->lock, flags);
	if (run)
		irdma_sim_iw_run_pinned(run);
}

/**
 * irdma_sim_request_reset() - irdma_sim.h request_reset: counted, and
 * performed when the reset_on_request knob is set
 * @sadev: device the driver was probed with
 *
 * As ice, the reset itself runs later, from a work item.
 *
 * Context: any.
 * Return: 0.
 */
static int irdma_sim_request_reset(struct irdma_sim_adev *sadev)
{
	struct irdma_sim *sim = irdma_sim_from_sadev(sadev);
	unsigned long flags;
	bool reset;

	spin_lock_irqsave(&sim->lock, flags);
	sim->stats.reset_requests++;
	reset = sim->knobs.reset_on_request;
	spin_unlock_irqrestore(&sim->lock, flags);
	dev_info(&sim->dev, "the driver asks for a function reset%s\n",
		 reset ? ": the function resets" : "");
	if (reset)
		irdma_sim_ask_reset(sim, false);
	return 0;
}

const struct irdma_sim_ops irdma_sim_reg_ops = {
	.rd32 = irdma_sim_rd32,
	.wr32 = irdma_sim_wr32,
	.mmap_db = irdma_sim_mmap_db,
	.request_reset = irdma_sim_request_reset,
};

/**
 * irdma_sim_regs_init() - reset values of the register file
 * @sim: new instance
 */
void irdma_sim_regs_init(struct irdma_sim *sim)
{
	memset(&sim->regs, 0, sizeof(sim->regs));
}
