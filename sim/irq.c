// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * irdma_sim - interrupts.
 *
 * Each MSI-X vector of the model is a real Linux IRQ in a small linear
 * irq_domain of the instance's own (Debian's kernel lacks CONFIG_IRQ_SIM,
 * so this is the equivalent).  An interrupt is raised with an irq_work,
 * which runs in hard IRQ context and calls generic_handle_irq() the way an
 * interrupt controller's handler would.  The flow handler is
 * handle_edge_irq(), as for MSI: an interrupt raised on one CPU while the
 * hard handler of the same vector still runs on another is replayed when
 * that handler finishes.  (handle_simple_irq() would drop it, and the
 * vector would stay auto-masked: the driver's IRQ thread can re-arm the
 * vector, and a new event fire it, before the CPU that delivered the
 * previous interrupt has left handle_irq_event().)
 *
 * Behaviour modelled:
 * - GLINT_CEQCTL(c) and PFINT_AEQCTL route a cause (CEQ c, the AEQ) to the
 *   vector in MSIX_INDX when CAUSE_ENA is set.
 * - A cause becomes pending when the model writes an element to its queue.
 * - A vector fires when it is enabled (GLINT_DYN_CTL with INTENA) and a
 *   cause routed to it is pending.  Firing clears those causes and masks
 *   the vector until the driver writes INTENA again; a cause that became
 *   pending in between fires at that re-arm.  GLINT_DYN_CTL without
 *   INTENA (the driver writes 0) masks the vector.
 * - CLEARPBA, the ITR index and the interval are accepted and ignored: no
 *   throttling is modelled, and pending causes survive CLEARPBA (they are
 *   queue state, not a PBA bit).
 * - A vector's interrupt is delivered on the first online CPU of the
 *   affinity its IRQ was given (the effective affinity, one CPU as an
 *   MSI-X message names one): an IPI to that CPU queues the vector's
 *   irq_work there.  Until an affinity is set, or when that CPU is offline,
 *   the interrupt is taken on the CPU that produced the event.
 * - With the drop_interrupts knob set, a firing is discarded: its causes
 *   are consumed and the vector stays enabled, as if the message was lost
 *   on the way; the events stay in their queues for the driver's polling
 *   or the next interrupt.
 * - A critical error of the function is not an RDMA vector's: on the
 *   adapter it sets interrupt cause bits of the LAN function, whose driver
 *   tells the RDMA driver (ice's critical-error event).  The model raises
 *   one on demand (debugfs "crit_err"): it sets GLPE_CRITERR and calls the
 *   bound driver's event handler with the cause bits, as ice does.
 */

#include <linux/bitfield.h>
#include <linux/irq.h>
#include <linux/irqdomain.h>

#include "sim.h"

static void irdma_sim_irq_work(struct irq_work *work);

/**
 * irdma_sim_irq_ack() - irq_chip.irq_ack: nothing to acknowledge
 * @d: the vector's irq_data
 *
 * handle_edge_irq() calls it; the model's masking is GLINT_DYN_CTL's.
 */
static void irdma_sim_irq_ack(struct irq_data *d)
{
}

/**
 * irdma_sim_irq_set_affinity() - irq_chip.irq_set_affinity: aim a vector
 * @d: the vector's irq_data
 * @mask: CPUs allowed
 * @force: take @mask's first CPU even if it is offline
 *
 * The vector's later interrupts are delivered on one CPU of @mask.
 *
 * Return: IRQ_SET_MASK_OK_DONE, or -EINVAL when no CPU of @mask is online.
 */
static int irdma_sim_irq_set_affinity(struct irq_data *d,
				      const struct cpumask *mask, bool force)
{
	struct irdma_sim_vec *vec = irq_data_get_irq_chip_data(d);
	unsigned int cpu;

	cpu = force ? cpumask_first(mask) : cpumask_first_and(mask,
							      cpu_online_mask);
	if (cpu >= nr_cpu_ids)
		return -EINVAL;
	WRITE_ONCE(vec->cpu, cpu);
	irq_data_update_effective_affinity(d, cpumask_of(cpu));
	return IRQ_SET_MASK_OK_DONE;
}

static struct irq_chip irdma_sim_irq_chip = {
	.name = IRDMA_SIM_MODNAME,
	.irq_ack = irdma_sim_irq_ack,
	.irq_set_affinity = irdma_sim_irq_set_affinity,
};

/* copied into each vector: raise in hard IRQ context, also on PREEMPT_RT */
static const struct irq_work irdma_sim_irq_work_init =
	IRQ_WORK_INIT_HARD(irdma_sim_irq_work);

/**
 * irdma_sim_irq_work() - deliver a vector's interrupt
 * @work: the vector's irq_work
 *
 * Context: hard IRQ.
 */
static void irdma_sim_irq_work(struct irq_work *work)
{
	struct irdma_sim_vec *vec = container_of(work, struct irdma_sim_vec,
						 work);

	generic_handle_irq(vec->virq);
}

/**
 * irdma_sim_irq_remote() - take a vector's interrupt on this CPU
 * @info: the vector
 *
 * Context: hard IRQ (the IPI of smp_call_function_single_async()).
 */
static void irdma_sim_irq_remote(void *info)
{
	struct irdma_sim_vec *vec = info;

	irq_work_queue(&vec->work);
}

/**
 * irdma_sim_irq_map() - irq_domain_ops.map: set up one vector's IRQ
 * @d: the instance's domain
 * @virq: Linux IRQ number
 * @hw: vector index
 *
 * Return: 0.
 */
static int irdma_sim_irq_map(struct irq_domain *d, unsigned int virq,
			     irq_hw_number_t hw)
{
	struct irdma_sim *sim = d->host_data;

	irq_set_chip_data(virq, &sim->irq.vec[hw]);
	irq_set_chip_and_handler(virq, &irdma_sim_irq_chip, handle_edge_irq);
	/* affinity is a store to the vector: movable from process context */
	irq_modify_status(virq, IRQ_NOREQUEST | IRQ_NOAUTOEN,
			  IRQ_NOPROBE | IRQ_MOVE_PCNTXT);
	return 0;
}

/**
 * irdma_sim_irq_unmap() - irq_domain_ops.unmap: undo irdma_sim_irq_map()
 * @d: the instance's domain
 * @virq: Linux IRQ number
 */
static void irdma_sim_irq_unmap(struct irq_domain *d, unsigned int virq)
{
	irq_set_chip_and_handler(virq, NULL, NULL);
	irq_set_chip_data(virq, NULL);
}

static const struct irq_domain_ops irdma_sim_irq_domain_ops = {
	.map = irdma_sim_irq_map,
	.unmap = irdma_sim_irq_unmap,
};

/**
 * irdma_sim_irq_init() - create the vectors of an instance
 * @sim: new instance (its bus device is named)
 * @nvec: number of vectors, at most IRDMA_SIM_MAX_VECTORS
 *
 * Return: 0 or a negative errno (nothing left allocated).
 */
int irdma_sim_irq_init(struct irdma_sim *sim, u32 nvec)
{
	struct irdma_sim_irq *irq = &sim->irq;
	u32 i;

	irq->fwnode = irq_domain_alloc_named_fwnode(dev_name(&sim->dev));
	if (!irq->fwnode)
		return -ENOMEM;
	irq->domain = irq_domain_create_linear(irq->fwnode, nvec,
					       &irdma_sim_irq_domain_ops, sim);
	if (!irq->domain) {
		irq_domain_free_fwnode(irq->fwnode);
		return -ENOMEM;
	}
	for (i = 0; i < nvec; i++) {
		struct irdma_sim_vec *vec = &irq->vec[i];

		vec->sim = sim;
		vec->idx = i;
		vec->work = irdma_sim_irq_work_init;
		INIT_CSD(&vec->csd, irdma_sim_irq_remote, vec);
		vec->cpu = nr_cpu_ids;
		vec->virq = irq_create_mapping(irq->domain, i);
		if (!vec->virq) {
			irdma_sim_irq_fini(sim);
			return -ENOMEM;
		}
		irq->nvec = i + 1;
	}
	return 0;
}

/**
 * irdma_sim_irq_sync() - wait for interrupts being delivered
 * @sim: instance marked dead (no new interrupt can be raised)
 *
 * Context: process context.
 */
void irdma_sim_irq_sync(struct irdma_sim *sim)
{
	u32 i;

	for (i = 0; i < sim->irq.nvec; i++) {
		struct irdma_sim_vec *vec = &sim->irq.vec[i];

		/* an IPI on its way queues the irq_work, then unlocks the csd */
		while (smp_load_acquire(&vec->csd.node.u_flags) & CSD_FLAG_LOCK)
			cpu_relax();
		irq_work_sync(&vec->work);
	}
}

/**
 * irdma_sim_irq_fini() - remove the vectors of an instance
 * @sim: instance after irdma_sim_irq_sync(), its driver unbound (IRQs freed)
 */
void irdma_sim_irq_fini(struct irdma_sim *sim)
{
	struct irdma_sim_irq *irq = &sim->irq;
	u32 i;

	for (i = 0; i < irq->nvec; i++)
		irq_dispose_mapping(irq->vec[i].virq);
	irq->nvec = 0;
	irq_domain_remove(irq->domain);
	irq_domain_free_fwnode(irq->fwnode);
}

/**
 * irdma_sim_irq_target() - vector a cause is routed to
 * @sim: instance
 * @cause: CEQ id or IRDMA_SIM_AEQ_CAUSE
 *
 * Return: the vector index, or -1 when the cause is not enabled.
 */
static int irdma_sim_irq_target(struct irdma_sim *sim, u32 cause)
{
	u32 ctl;

	lockdep_assert_held(&sim->lock);

	if (cause == IRDMA_SIM_AEQ_CAUSE)
		ctl = sim->regs.aeqctl;
	else
		ctl = sim->regs.ceqctl[cause];
	if (!(ctl & IRDMA_QCTL_CAUSE_ENA))
		return -1;
	return FIELD_GET(IRDMA_QCTL_MSIX_INDX, ctl);
}

/**
 * irdma_sim_irq_eval() - fire a vector if it is enabled and has a cause
 * @sim: instance
 * @v: vector index (any value the driver wrote)
 */
static void irdma_sim_irq_eval(struct irdma_sim *sim, u32 v)
{
	struct irdma_sim_vec *vec;
	bool fire = false;
	unsigned int cpu;
	u32 c;

	lockdep_assert_held(&sim->lock);

	if (v >= sim->irq.nvec || sim->dead)
		return;
	vec = &sim->irq.vec[v];
	if (!vec->enabled)
		return;
	for_each_set_bit(c, sim->irq.pending, IRDMA_SIM_NUM_CAUSES) {
		if (irdma_sim_irq_target(sim, c) == v) {
			__clear_bit(c, sim->irq.pending);
			fire = true;
		}
	}
	if (!fire)
		return;
	if (READ_ONCE(sim->knobs.drop_interrupts)) {
		vec->dropped++;
		return;
	}
	/* auto-mask until the driver re-arms with GLINT_DYN_CTL */
	vec->enabled = false;
	vec->fired++;
	cpu = READ_ONCE(vec->cpu);
	/* offline CPU, or the previous IPI not yet taken: deliver here */
	if (cpu >= nr_cpu_ids || smp_call_function_single_async(cpu, &vec->csd))
		irq_work_queue(&vec->work);
}

/**
 * irdma_sim_irq_raise() - an event was written to a cause's queue
 * @sim: instance
 * @cause: CEQ id or IRDMA_SIM_AEQ_CAUSE
 */
void irdma_sim_irq_raise(struct irdma_sim *sim, u32 cause)
{
	int v;

	lockdep_assert_held(&sim->lock);

	__set_bit(cause, sim->irq.pending);
	v = irdma_sim_irq_target(sim, cause);
	if (v >= 0)
		irdma_sim_irq_eval(sim, v);
}

/**
 * irdma_sim_irq_route() - write GLINT_CEQCTL(cause) or PFINT_AEQCTL
 * @sim: instance
 * @cause: CEQ id or IRDMA_SIM_AEQ_CAUSE
 * @val: register value
 */
void irdma_sim_irq_route(struct irdma_sim *sim, u32 cause, u32 val)
{
	int v;

	lockdep_assert_held(&sim->lock);

	if (cause == IRDMA_SIM_AEQ_CAUSE)
		sim->regs.aeqctl = val;
	else
		sim->regs.ceqctl[cause] = val;
	v = irdma_sim_irq_target(sim, cause);
	if (v >= 0)
		irdma_sim_irq_eval(sim, v);
}

/**
 * irdma_sim_irq_dyn_ctl() - write GLINT_DYN_CTL(v)
 * @sim: instance
 * @v: vector index
 * @val: register value; INTENA enables (re-arms) the vector, else masks it
 */
void irdma_sim_irq_dyn_ctl(struct irdma_sim *sim, u32 v, u32 val)
{
	struct irdma_sim_vec *vec;

	lockdep_assert_held(&sim->lock);

	if (v >= sim->irq.nvec) {
		sim->stats.bad_reg++;
		dev_dbg_ratelimited(&sim->dev,
				    "GLINT_DYN_CTL(%u) of a vector the function does not have\n",
				    v);
		return;
	}
	vec = &sim->irq.vec[v];
	sim->regs.dyn_ctl[v] = val;
	vec->enabled = val & IRDMA_DYN_CTL_INTENA;
	if (vec->enabled)
		irdma_sim_irq_eval(sim, v);
}

/**
 * irdma_sim_irq_crit_err() - raise a critical error of the function
 * @sim: instance
 * @oicr: the LAN function's interrupt cause bits (IRDMA_OICR_*)
 * @cause: GLPE_CRITERR's new value, with IRDMA_OICR_PE_CRITERR
 *
 * Context: process context (debugfs).
 * Return: 0, or -ENODEV when no driver is bound.
 */
int irdma_sim_irq_crit_err(struct irdma_sim *sim, u32 oicr, u32 cause)
{
	struct device *dev = &sim->sadev.adev.dev;
	struct irdma_sim_adrv *adrv;
	unsigned long flags;
	int ret = -ENODEV;

	if (oicr & IRDMA_OICR_PE_CRITERR) {
		spin_lock_irqsave(&sim->lock, flags);
		sim->regs.criterr = cause;
		spin_unlock_irqrestore(&sim->lock, flags);
	}
	device_lock(dev);
	if (dev->driver) {
		adrv = container_of(to_auxiliary_drv(dev->driver),
				    struct irdma_sim_adrv, adrv);
		adrv->event(&sim->sadev, oicr);
		ret = 0;
	}
	device_unlock(dev);
	return ret;
}

/**
 * irdma_sim_ask_reset() - ask for a function reset, which runs later
 * @sim: instance
 * @lost: the function's state is lost first (irdma_sim_reset())
 *
 * A reset asked for while the instance is being created, deleted or reset
 * already is dropped, and logged.
 *
 * Context: any.
 */
void irdma_sim_ask_reset(struct irdma_sim *sim, bool lost)
{
	unsigned long flags;

	spin_lock_irqsave(&sim->lock, flags);
	sim->reset_ask_lost = lost;
	if (!sim->dead)
		queue_work(system_wq, &sim->reset_work);
	spin_unlock_irqrestore(&sim->lock, flags);
}
