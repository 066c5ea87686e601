// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * irdma_sim - debugfs: /sys/kernel/debug/irdma_sim/irdma_simN/
 *
 * Fault injection (read-write):
 *   fw_not_ready      CPUSTATUS0..2 read 0: the driver's firmware wait fails
 *   fail_cqp_create   the CQP create handshake reports CCQPSTATUS ERR
 *   fail_opcode       the next WQE with this opcode completes with the error
 *                     fail_major/fail_minor (one shot; 0xffffffff = off)
 *   fail_major        major code of that error (default 0x0001)
 *   fail_minor        minor code of that error (default 0x0005)
 *   drop_interrupts   interrupts are discarded instead of raised
 *   drop_wqealloc     the next N WQEALLOC writes naming an iWARP QP are
 *                     discarded, as if they never reached the adapter: the
 *                     WQEs they announce wait for a later doorbell
 *   drop_user_db      the next N WQEALLOC stores to the user doorbell page
 *                     naming a user QP are discarded the same way: the
 *                     QP's WQEs wait for its next doorbell
 *   stall_cqp         the control QP takes no more commands while set, as a
 *                     hung adapter: the driver's commands time out
 *   fail_iw_bufs      the next N times a connection's engine needs its
 *                     transmit and receive buffers it gets none, as if
 *                     the kernel had no memory: the connection is reset
 *   device_id         the PCI device ID the function presents (default
 *                     0x1592, an E810-C for QSFP; read at "rdma link add")
 *   reset_on_request  when the driver asks for a function reset, the
 *                     function resets ("pfr" below), as ice does it; off
 *                     (the default), requests are only counted (stats:
 *                     reset_requests)
 * State (read-only): info, regs, cqp (per-opcode counts and average
 * execution time; how long the worker took to start after a doorbell that
 * found it idle), hmc, queues, objects, irq, stats, net (the data path:
 * steering and UDA QP counters).
 * Counters (write-only): gstat_advance moves every GATHER_STATS counter
 * forward by the value written, to bring them near their wrap.
 * Errors (write-only): crit_err takes "OICR [CRITERR]" (hex or decimal)
 * and raises a critical error of the function with those interrupt cause
 * bits, GLPE_CRITERR set to CRITERR when PE_CRITERR (bit 28) is among
 * them, as ice reports one (irdma_sim_irq_crit_err()).  raise_ae takes
 * "CODE [COUNT]" and posts COUNT (default 1) AEs of the function with that
 * code in one go, past the AEQ's room if asked: the AEQ overflows
 * (irdma_sim_aeq_raise()).
 * Reset (write-only): reset takes "pfr" (ice's PF reset: the driver lets
 * go of a working function, whose state is then lost) or "lost" (the state
 * is lost first; the driver lets go of a function that no longer
 * answers); then a new function comes up on the same netdev under the same
 * RDMA device name, with the "defaults" knobs and a directory of its own
 * (irdma_sim_reset()).
 *
 * /sys/kernel/debug/irdma_sim/defaults/ holds the same knobs; a new
 * instance starts with their values, which is how a test injects a fault
 * into the driver's probe: the instance's own directory exists before the
 * probe, but "rdma link add" returns only after it, so nobody can write
 * there in time.
 *
 * Return values of debugfs calls are ignored, as debugfs wants.
 */

#include <linux/debugfs.h>
#include <linux/math64.h>
#include <linux/seq_file.h>

#include "sim.h"

static struct dentry *irdma_sim_debugfs_root;

/* knobs a new instance starts with (debugfs "defaults") */
static struct irdma_sim_knobs irdma_sim_default_knobs = {
	.fail_opcode = IRDMA_SIM_FAIL_NONE,
	.fail_major = IRDMA_SIM_CQP_MAJOR_BAD_WQE,
	.fail_minor = IRDMA_SIM_CQP_MINOR_NO_RESOURCE,
	.device_id = IRDMA_SIM_E810_DEVICE_ID,
};

/**
 * irdma_sim_knobs_init() - fault injection settings of a new instance
 * @k: the instance's knobs, set from the "defaults" directory
 */
void irdma_sim_knobs_init(struct irdma_sim_knobs *k)
{
	const struct irdma_sim_knobs *d = &irdma_sim_default_knobs;

	k->fw_not_ready = READ_ONCE(d->fw_not_ready);
	k->fail_cqp_create = READ_ONCE(d->fail_cqp_create);
	k->drop_interrupts = READ_ONCE(d->drop_interrupts);
	k->drop_wqealloc = READ_ONCE(d->drop_wqealloc);
	k->drop_user_db = READ_ONCE(d->drop_user_db);
	k->fail_iw_bufs = READ_ONCE(d->fail_iw_bufs);
	k->stall_cqp = READ_ONCE(d->stall_cqp);
	k->fail_opcode = READ_ONCE(d->fail_opcode);
	k->fail_major = READ_ONCE(d->fail_major);
	k->fail_minor = READ_ONCE(d->fail_minor);
	k->device_id = READ_ONCE(d->device_id);
}

/**
 * irdma_sim_knobs_files() - create the fault injection files of a directory
 * @d: directory
 * @k: knobs the files read and write
 */
static void irdma_sim_knobs_files(struct dentry *d, struct irdma_sim_knobs *k)
{
	debugfs_create_bool("fw_not_ready", 0600, d, &k->fw_not_ready);
	debugfs_create_bool("fail_cqp_create", 0600, d, &k->fail_cqp_create);
	debugfs_create_bool("drop_interrupts", 0600, d, &k->drop_interrupts);
	debugfs_create_u32("drop_wqealloc", 0600, d, &k->drop_wqealloc);
	debugfs_create_u32("drop_user_db", 0600, d, &k->drop_user_db);
	debugfs_create_u32("fail_iw_bufs", 0600, d, &k->fail_iw_bufs);
	debugfs_create_bool("stall_cqp", 0600, d, &k->stall_cqp);
	debugfs_create_x32("fail_opcode", 0600, d, &k->fail_opcode);
	debugfs_create_x16("fail_major", 0600, d, &k->fail_major);
	debugfs_create_x16("fail_minor", 0600, d, &k->fail_minor);
	debugfs_create_x16("device_id", 0600, d, &k->device_id);
	debugfs_create_bool("reset_on_request", 0600, d, &k->reset_on_request);
}

/**
 * irdma_sim_info_show() - "info": identity of the instance
 * @s: seq_file
 * @unused: unused
 *
 * Return: 0.
 */
static int irdma_sim_info_show(struct seq_file *s, void *unused)
{
	struct irdma_sim *sim = s->private;

	seq_printf(s, "ibdev: %s\nnetdev: %s\nauxdev: %s\nvectors: %u\n",
		   sim->ibdev_name, netdev_name(sim->netdev),
		   dev_name(&sim->sadev.adev.dev), sim->irq.nvec);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(irdma_sim_info);

/**
 * irdma_sim_regs_show() - "regs": the register file
 * @s: seq_file
 * @unused: unused
 *
 * Return: 0.
 */
static int irdma_sim_regs_show(struct seq_file *s, void *unused)
{
	struct irdma_sim *sim = s->private;
	struct irdma_sim_regs *r = &sim->regs;
	unsigned long flags;
	u32 i;

	spin_lock_irqsave(&sim->lock, flags);
	seq_printf(s, "CQPTAIL     %#010x\nCQPDB       %#010x\n", r->cqptail,
		   r->cqpdb);
	seq_printf(s, "CCQPSTATUS  %#010x\nCCQPHIGH    %#010x\nCCQPLOW     %#010x\n",
		   r->ccqpstatus, r->ccqphigh, r->ccqplow);
	seq_printf(s, "CQPERRCODES %#010x\nAEQCTL      %#010x\n",
		   r->cqperrcodes, r->aeqctl);
	for (i = 0; i < IRDMA_SIM_MAX_CEQS; i++)
		if (r->ceqctl[i])
			seq_printf(s, "CEQCTL(%u)   %#010x\n", i, r->ceqctl[i]);
	for (i = 0; i < sim->irq.nvec; i++)
		seq_printf(s, "DYN_CTL(%u)  %#010x\n", i, r->dyn_ctl[i]);
	spin_unlock_irqrestore(&sim->lock, flags);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(irdma_sim_regs);

/**
 * irdma_sim_cqp_show() - "cqp": CQP state and WQEs per opcode
 * @s: seq_file
 * @unused: unused
 *
 * Return: 0.
 */
static int irdma_sim_cqp_show(struct seq_file *s, void *unused)
{
	struct irdma_sim *sim = s->private;
	struct irdma_sim_cqp *cqp = &sim->cqp;
	struct irdma_sim_stats *st = &sim->stats;
	unsigned long flags;
	u32 op;

	spin_lock_irqsave(&sim->lock, flags);
	seq_printf(s, "created %d size %u tail %u head %u polarity %u generation %u\n",
		   cqp->created, cqp->size, cqp->tail, cqp->head, cqp->polarity,
		   sim->gen);
	seq_printf(s, "context %#llx sq %#llx protocol %u hmc_profile %u\n",
		   cqp->ctx_pa, cqp->sq_pa, cqp->protocol, cqp->hmc_profile);
	seq_printf(s, "wqes %llu errors %llu injected %llu doorbells %llu stalls %llu ccq_cqes %llu\n",
		   st->wqes_total, st->errors_total, st->injected,
		   st->doorbells, st->stalls, st->ccq_cqes);
	seq_printf(s, "starts %llu start_wait_us_avg %llu\n", st->starts,
		   st->starts ? div64_u64(st->start_ns, st->starts * 1000) : 0);
	seq_puts(s, "opcode                     wqes   errors exec_us_avg\n");
	for (op = 0; op < IRDMA_SIM_NUM_OPS; op++)
		if (st->wqes[op] || st->errors[op])
			seq_printf(s, "%#04x %-20s %8llu %8llu %11llu\n", op,
				   irdma_sim_op_name(op), st->wqes[op],
				   st->errors[op],
				   st->wqes[op] ?
				   div64_u64(st->exec_ns[op],
					     st->wqes[op] * 1000) : 0);
	spin_unlock_irqrestore(&sim->lock, flags);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(irdma_sim_cqp);

static const char * const irdma_sim_hmc_names[IRDMA_HMC_OBJ_NUM] = {
	"QP", "CQ", "RSVD", "HTE", "ARP", "APBVT", "MR", "XF", "XFFL", "Q1",
	"Q1FL", "TIMER", "FSIMC", "FSIAV", "PBLE", "RRF", "RRFFL", "HDR", "MD",
	"OOISC", "OOISCFFL",
};

/**
 * irdma_sim_hmc_show() - "hmc": committed counts, bases and SDs
 * @s: seq_file
 * @unused: unused
 *
 * Return: 0.
 */
static int irdma_sim_hmc_show(struct seq_file *s, void *unused)
{
	struct irdma_sim *sim = s->private;
	struct irdma_sim_hmc *hmc = &sim->hmc;
	unsigned long flags;
	u32 i;

	spin_lock_irqsave(&sim->lock, flags);
	seq_printf(s, "committed %d pages_allocated %d sd_cnt %u sd_updates %llu pdinv %llu\n",
		   hmc->committed, hmc->pages_allocated, hmc->sd_cnt,
		   hmc->sd_updates, hmc->pdinv);
	seq_puts(s, "object        count       max    size          base\n");
	for (i = 0; i < IRDMA_HMC_OBJ_NUM; i++)
		seq_printf(s, "%-8s %10u %10u %7u %#13llx\n",
			   irdma_sim_hmc_names[i], hmc->obj[i].cnt,
			   hmc->obj[i].max, hmc->obj[i].size, hmc->obj[i].base);
	for (i = 0; i < hmc->sd_cnt && i < IRDMA_SIM_MAX_SDS; i++)
		if (hmc->sd[i].valid)
			seq_printf(s, "SD %u %s %#llx bp %u\n", i,
				   hmc->sd[i].direct ? "direct" : "paged",
				   hmc->sd[i].pa, hmc->sd[i].bp_cnt);
	spin_unlock_irqrestore(&sim->lock, flags);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(irdma_sim_hmc);

/**
 * irdma_sim_queues_show() - "queues": CQs, CEQs and the AEQ
 * @s: seq_file
 * @unused: unused
 *
 * Return: 0.
 */
static int irdma_sim_queues_show(struct seq_file *s, void *unused)
{
	static const char * const arm[] = { "no", "se", "any" };
	struct irdma_sim *sim = s->private;
	struct irdma_sim_eq *eq;
	struct irdma_sim_cq *cq;
	unsigned long flags, idx;
	u32 i;

	rcu_read_lock();
	xa_for_each(&sim->cqs, idx, cq)
		seq_printf(s, "CQ %lu size %u cqe %u ceq %d%s tail %u pol %u armed %s seq %u cqes %llu ceqes %llu pending %u overflows %llu%s%s\n",
			   idx, cq->size, cq->cqe_size,
			   cq->ceq_valid ? cq->ceq_id : -1,
			   cq->ceqe_mask ? " masked" : "", cq->tail,
			   cq->polarity, arm[cq->armed], cq->arm_seq, cq->cqes,
			   cq->ceqes, cq->ceqe_pending, cq->overflows,
			   cq->chk_overflow ? " chk" : "",
			   cq->live ? "" : " dead");
	rcu_read_unlock();

	spin_lock_irqsave(&sim->lock, flags);
	for (i = 0; i <= IRDMA_SIM_MAX_CEQS; i++) {
		eq = i < IRDMA_SIM_MAX_CEQS ? sim->ceqs[i] : sim->aeq;
		if (!eq)
			continue;
		seq_printf(s, "%s %u size %u tail %u pol %u used %u posted %llu overflows %llu%s\n",
			   i < IRDMA_SIM_MAX_CEQS ? "CEQ" : "AEQ", eq->id,
			   eq->size, eq->tail, eq->polarity, eq->used,
			   eq->posted, eq->overflows,
			   eq->gen == sim->gen ? "" : " stale");
	}
	spin_unlock_irqrestore(&sim->lock, flags);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(irdma_sim_queues);

/**
 * irdma_sim_objects_show() - "objects": QPs, STags, AHs, ARP, qhash, ...
 * @s: seq_file
 * @unused: unused
 *
 * Return: 0.
 */
static int irdma_sim_objects_show(struct seq_file *s, void *unused)
{
	struct irdma_sim *sim = s->private;
	struct irdma_sim_qhash *e;
	struct irdma_sim_qp *qp;
	struct irdma_sim_mr *mr;
	struct irdma_sim_ah *ah;
	unsigned long flags, idx;
	u32 i, n;
	int bkt;

	rcu_read_lock();
	xa_for_each(&sim->qps, idx, qp) {
		seq_printf(s, "QP %lu type %u state %u tcp %u cqs %u/%u sq_doorbells %llu%s%s%s\n",
			   idx, qp->type, qp->state, qp->tcp_state, qp->txcq,
			   qp->rxcq, qp->sq_doorbells,
			   qp->flush_sq ? " flush_sq" : "",
			   qp->flush_rq ? " flush_rq" : "",
			   qp->suspended ? " suspended" : "");
		if (qp->sq.ring)
			seq_printf(s, "  UDA sq %u tail %u pol %u rq %u tail %u pol %u\n",
				   qp->sq.size, qp->sq.tail, qp->sq.polarity,
				   qp->rq.size, qp->rq.tail, qp->rq.polarity);
	}
	xa_for_each(&sim->mrs, idx, mr)
		seq_printf(s, "STAG %#lx%02x %s pd %u len %llu rights %#x pbl %u%s\n",
			   idx, mr->key, mr->is_mr ? "MR" : "MW", mr->pd,
			   mr->len, mr->rights, mr->pbl_level,
			   mr->registered ? " registered" : "");
	xa_for_each(&sim->ahs, idx, ah)
		seq_printf(s, "AH %lu %pM %s arp %u pd %u\n", idx, ah->mac,
			   ah->ipv4 ? "ipv4" : "ipv6", ah->arp_idx, ah->pd);
	rcu_read_unlock();

	spin_lock_irqsave(&sim->lock, flags);
	for (i = 0; i < sim->narp; i++)
		if (sim->arp[i].valid)
			seq_printf(s, "ARP %u %pM%s\n", i, sim->arp[i].mac,
				   sim->arp[i].permanent ? " permanent" : "");
	hash_for_each(sim->qhash, bkt, e, node) {
		if (e->ipv4)
			seq_printf(s, "QHASH %s %pI4h:%u %pI4h:%u qp %u qs %u vlan %d\n",
				   e->type == IRDMA_QHASH_TYPE_TCP_SYN ? "syn" : "est",
				   &e->lip[3], e->lport, &e->rip[3], e->rport,
				   e->qpn, e->qs_handle,
				   e->vlan_valid ? e->vlan : -1);
		else
			seq_printf(s, "QHASH %s [%08x:%08x:%08x:%08x]:%u [%08x:%08x:%08x:%08x]:%u qp %u qs %u vlan %d\n",
				   e->type == IRDMA_QHASH_TYPE_TCP_SYN ? "syn" : "est",
				   e->lip[0], e->lip[1], e->lip[2], e->lip[3],
				   e->lport, e->rip[0], e->rip[1], e->rip[2],
				   e->rip[3], e->rport, e->qpn, e->qs_handle,
				   e->vlan_valid ? e->vlan : -1);
	}
	n = bitmap_weight(sim->apbvt, IRDMA_SIM_APBVT_PORTS);
	spin_unlock_irqrestore(&sim->lock, flags);
	seq_printf(s, "APBVT ports %u\n", n);
	for (i = 0; i < IRDMA_SIM_WS_NODES; i++)
		if (sim->ws[i].used)
			seq_printf(s, "WS node %u parent %u%s%s tc %u qs %u\n", i,
				   sim->ws[i].parent,
				   sim->ws[i].leaf ? " leaf" : "",
				   sim->ws[i].enabled ? " enabled" : "",
				   sim->ws[i].tc, sim->ws[i].qs_handle);
	seq_printf(s, "stats instances %u up_map %#llx\n",
		   bitmap_weight(sim->stats_insts, IRDMA_SIM_STATS_INSTS),
		   sim->up_map);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(irdma_sim_objects);

/**
 * irdma_sim_irq_show() - "irq": vectors and pending causes
 * @s: seq_file
 * @unused: unused
 *
 * Return: 0.
 */
static int irdma_sim_irq_show(struct seq_file *s, void *unused)
{
	struct irdma_sim *sim = s->private;
	struct irdma_sim_vec *vec;
	unsigned long flags;
	u32 i;

	spin_lock_irqsave(&sim->lock, flags);
	for (i = 0; i < sim->irq.nvec; i++) {
		vec = &sim->irq.vec[i];
		seq_printf(s, "vector %u irq %u %s fired %llu dropped %llu\n",
			   vec->idx, vec->virq,
			   vec->enabled ? "enabled" : "masked", vec->fired,
			   vec->dropped);
	}
	seq_printf(s, "pending causes: %*pbl\n", IRDMA_SIM_NUM_CAUSES,
		   sim->irq.pending);
	spin_unlock_irqrestore(&sim->lock, flags);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(irdma_sim_irq);

/**
 * irdma_sim_stats_show() - "stats": event and doorbell counters
 * @s: seq_file
 * @unused: unused
 *
 * Return: 0.
 */
static int irdma_sim_stats_show(struct seq_file *s, void *unused)
{
	struct irdma_sim *sim = s->private;
	struct irdma_sim_stats *st = &sim->stats;

	seq_printf(s, "cq_overflows %llu\nceqes %llu\nceqe_drops %llu\n",
		   st->cq_overflows, st->ceqes, st->ceqe_drops);
	seq_printf(s, "aeqes %llu\naeqe_drops %llu\naeqe_held %llu\naeqe_qp_drops %llu\n",
		   st->aeqes, st->aeqe_drops, st->aeqe_held, st->aeqe_qp_drops);
	seq_printf(s, "cqarm %llu\ncqack %llu\naeqalloc %llu\nwqealloc %llu\nwqealloc_dropped %llu\nwqealloc_inline %llu\n",
		   st->cqarm, st->cqack, st->aeqalloc, st->wqealloc,
		   st->wqealloc_dropped, st->wqealloc_inline);
	seq_printf(s, "user_db %llu\nuser_db_dropped %llu\nuser_db_ignored %llu\nuser_cqarm %llu\nuser_db_other %llu\nuser_db_refused %llu\nrx_now %llu\n",
		   st->user_db, st->user_db_dropped, st->user_db_ignored,
		   st->user_cqarm, st->user_db_other, st->user_db_refused,
		   (u64)atomic64_read(&sim->rx_now));
	seq_printf(s, "reset_requests %llu\nbad_reg %llu\nqhash_del_miss %llu\napbvt_anomalies %llu\n",
		   st->reset_requests, st->bad_reg, st->qhash_del_miss,
		   st->apbvt_anomalies);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(irdma_sim_stats);

/**
 * irdma_sim_net_show() - "net": steering and UDA QP data path counters
 * @s: seq_file
 * @unused: unused
 *
 * Return: 0.
 */
static int irdma_sim_net_show(struct seq_file *s, void *unused)
{
	struct irdma_sim *sim = s->private;
	struct irdma_sim_net_stats st;
	unsigned long flags;

	spin_lock_irqsave(&sim->lock, flags);
	st = sim->net;
	spin_unlock_irqrestore(&sim->lock, flags);
	seq_printf(s, "attached %d\n", irdma_sim_net_attached(sim));
	irdma_sim_net_show_vlans(sim, s);
	seq_printf(s, "rx_steered %llu\nrx_syn %llu\nrx_bytes %llu\n",
		   st.rx_steered, st.rx_syn, st.rx_bytes);
	seq_printf(s, "rx_no_qp %llu\nrx_no_wqe %llu\nrx_too_big %llu\n",
		   st.rx_no_qp, st.rx_no_wqe, st.rx_too_big);
	seq_printf(s, "rx_bad_hdr %llu\nrx_bad_csum %llu\nrx_bad_buf %llu\nrx_cq_full %llu\n",
		   st.rx_bad_hdr, st.rx_bad_csum, st.rx_bad_buf, st.rx_cq_full);
	seq_printf(s, "tx_sent %llu\ntx_loopback %llu\ntx_bytes %llu\n",
		   st.tx_sent, st.tx_loopback, st.tx_bytes);
	seq_printf(s, "tx_bad_op %llu\ntx_bad_len %llu\ntx_bad_buf %llu\ntx_bad_ah %llu\ntx_bad_arp %llu\n",
		   st.tx_bad_op, st.tx_bad_len, st.tx_bad_buf, st.tx_bad_ah,
		   st.tx_bad_arp);
	seq_printf(s, "tx_dropped %llu\ntx_cq_full %llu\n", st.tx_dropped,
		   st.tx_cq_full);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(irdma_sim_net);

/**
 * irdma_sim_iw_file_show() - "iw": the iWARP QP engines
 * @s: seq_file
 * @unused: unused
 *
 * Return: 0.
 */
static int irdma_sim_iw_file_show(struct seq_file *s, void *unused)
{
	irdma_sim_iw_show(s->private, s);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(irdma_sim_iw_file);

/**
 * irdma_sim_gstat_advance_set() - write of "gstat_advance"
 * @data: instance
 * @val: amount every GATHER_STATS counter moves forward
 *
 * Return: 0.
 */
static int irdma_sim_gstat_advance_set(void *data, u64 val)
{
	irdma_sim_gstat_advance(data, val);
	return 0;
}
DEFINE_DEBUGFS_ATTRIBUTE(irdma_sim_gstat_advance_fops, NULL,
			 irdma_sim_gstat_advance_set, "%llu\n");

/**
 * irdma_sim_debugfs_ints() - parse "A [B]" (hex or decimal) from user space
 * @buf: user buffer
 * @count: its length
 * @a: first number
 * @b: second number, left as it is when not given
 *
 * Return: 0, or a negative errno.
 */
static int irdma_sim_debugfs_ints(const char __user *buf, size_t count,
				  u32 *a, u32 *b)
{
	char kbuf[48];

	if (count >= sizeof(kbuf))
		return -EINVAL;
	if (copy_from_user(kbuf, buf, count))
		return -EFAULT;
	kbuf[count] = 0;
	return sscanf(kbuf, "%i %i", a, b) < 1 ? -EINVAL : 0;
}

/**
 * irdma_sim_crit_err_write() - write of "crit_err": "OICR [CRITERR]"
 * @file: the file
 * @buf: user buffer
 * @count: its length
 * @ppos: position (ignored)
 *
 * Return: @count, or a negative errno (-ENODEV: no driver bound).
 */
static ssize_t irdma_sim_crit_err_write(struct file *file,
					const char __user *buf, size_t count,
					loff_t *ppos)
{
	struct irdma_sim *sim = file->private_data;
	u32 oicr, cause = 0;
	int ret;

	ret = irdma_sim_debugfs_ints(buf, count, &oicr, &cause);
	if (!ret)
		ret = irdma_sim_irq_crit_err(sim, oicr, cause);
	return ret ? ret : count;
}

static const struct file_operations irdma_sim_crit_err_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = irdma_sim_crit_err_write,
	.llseek = noop_llseek,
};

/**
 * irdma_sim_raise_ae_write() - write of "raise_ae": "CODE [COUNT]"
 * @file: the file
 * @buf: user buffer
 * @count: its length
 * @ppos: position (ignored)
 *
 * Return: @count, or a negative errno (-ENOSPC: no AE could be written).
 */
static ssize_t irdma_sim_raise_ae_write(struct file *file,
					const char __user *buf, size_t count,
					loff_t *ppos)
{
	struct irdma_sim *sim = file->private_data;
	u32 code, n = 1;
	int ret;

	ret = irdma_sim_debugfs_ints(buf, count, &code, &n);
	if (ret)
		return ret;
	if (!n)
		return -EINVAL;
	ret = irdma_sim_aeq_raise(sim, code, n);
	if (!ret)
		return -ENOSPC;
	return ret < 0 ? ret : count;
}

static const struct file_operations irdma_sim_raise_ae_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = irdma_sim_raise_ae_write,
	.llseek = noop_llseek,
};

/**
 * irdma_sim_reset_write() - write of "reset": "pfr" or "lost"
 * @file: the file
 * @buf: user buffer
 * @count: its length
 * @ppos: position (ignored)
 *
 * Asks for a function reset (irdma_sim_ask_reset()): "pfr" as ice's PF
 * reset, "lost" with the function's state gone before the driver is
 * told.  The reset runs after the write returns; the instance's debugfs
 * directory goes with it, and the new function gets a directory of its
 * own.
 *
 * Return: @count, or a negative errno.
 */
static ssize_t irdma_sim_reset_write(struct file *file, const char __user *buf,
				     size_t count, loff_t *ppos)
{
	struct irdma_sim *sim = file->private_data;
	char kbuf[8];

	if (count >= sizeof(kbuf))
		return -EINVAL;
	if (copy_from_user(kbuf, buf, count))
		return -EFAULT;
	kbuf[count] = 0;
	if (sysfs_streq(kbuf, "pfr"))
		irdma_sim_ask_reset(sim, false);
	else if (sysfs_streq(kbuf, "lost"))
		irdma_sim_ask_reset(sim, true);
	else
		return -EINVAL;
	return count;
}

static const struct file_operations irdma_sim_reset_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = irdma_sim_reset_write,
	.llseek = noop_llseek,
};

/**
 * irdma_sim_debugfs_add() - create the instance's debugfs directory
 * @sim: instance with its netdev and vectors set
 */
void irdma_sim_debugfs_add(struct irdma_sim *sim)
{
	struct dentry *d;

	d = debugfs_create_dir(dev_name(&sim->dev), irdma_sim_debugfs_root);
	sim->ddir = d;
	irdma_sim_knobs_files(d, &sim->knobs);
	debugfs_create_file("info", 0400, d, sim, &irdma_sim_info_fops);
	debugfs_create_file("regs", 0400, d, sim, &irdma_sim_regs_fops);
	debugfs_create_file("cqp", 0400, d, sim, &irdma_sim_cqp_fops);
	debugfs_create_file("hmc", 0400, d, sim, &irdma_sim_hmc_fops);
	debugfs_create_file("queues", 0400, d, sim, &irdma_sim_queues_fops);
	debugfs_create_file("objects", 0400, d, sim, &irdma_sim_objects_fops);
	debugfs_create_file("irq", 0400, d, sim, &irdma_sim_irq_fops);
	debugfs_create_file("stats", 0400, d, sim, &irdma_sim_stats_fops);
	debugfs_create_file("net", 0400, d, sim, &irdma_sim_net_fops);
	debugfs_create_file("iw", 0400, d, sim, &irdma_sim_iw_file_fops);
	debugfs_create_file_unsafe("gstat_advance", 0200, d, sim,
				   &irdma_sim_gstat_advance_fops);
	debugfs_create_file("crit_err", 0200, d, sim, &irdma_sim_crit_err_fops);
	debugfs_create_file("raise_ae", 0200, d, sim, &irdma_sim_raise_ae_fops);
	debugfs_create_file("reset", 0200, d, sim, &irdma_sim_reset_fops);
}

/**
 * irdma_sim_debugfs_del() - remove the instance's debugfs directory
 * @sim: instance
 *
 * Waits for readers, so the state they print stays valid.
 */
void irdma_sim_debugfs_del(struct irdma_sim *sim)
{
	debugfs_remove_recursive(sim->ddir);
	sim->ddir = NULL;
}

/**
 * irdma_sim_debugfs_init() - create /sys/kernel/debug/irdma_sim and defaults/
 */
void irdma_sim_debugfs_init(void)
{
	irdma_sim_debugfs_root = debugfs_create_dir(IRDMA_SIM_MODNAME, NULL);
	irdma_sim_knobs_files(debugfs_create_dir("defaults",
						 irdma_sim_debugfs_root),
			      &irdma_sim_default_knobs);
}

/**
 * irdma_sim_debugfs_exit() - remove /sys/kernel/debug/irdma_sim
 */
void irdma_sim_debugfs_exit(void)
{
	debugfs_remove_recursive(irdma_sim_debugfs_root);
}
