// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * irdma_sim - the function's other objects: QPs, STags, address handles,
 * the ARP cache, the APBVT, quad-hash steering entries, the work scheduler,
 * statistics instances, and the small commands.
 *
 * The model records and validates these objects.  Steering received frames
 * by qhash entries (net.c), the data path of UDA QPs (uda.c) and the iWARP
 * QP engine (qp.c, ddp.c, tcp.c) use the tables kept here.  CREATE,
 * MODIFY and DESTROY_QP of iWARP QPs go through the engine; FLUSH_WQES
 * has it write the flush CQEs before the command completes and, with
 * GENERATE_AE, posts the AE asked for.
 */

#include <linux/bitfield.h>
#include <asm/unaligned.h>
#include <linux/etherdevice.h>
#include <linux/slab.h>

#include "sim.h"

/**
 * irdma_sim_ip_words() - an IP address from two descriptor words
 * @lo: word holding address words 2 (63:32) and 3 (31:0)
 * @hi: word holding address words 0 (63:32) and 1 (31:0)
 * @ipv4: IPv4: only word 3 is used
 * @ip: the address, word 0 most significant
 */
static void irdma_sim_ip_words(u64 lo, u64 hi, bool ipv4, u32 ip[4])
{
	ip[0] = ipv4 ? 0 : FIELD_GET(IRDMA_IP_HI, hi);
	ip[1] = ipv4 ? 0 : FIELD_GET(IRDMA_IP_LO, hi);
	ip[2] = ipv4 ? 0 : FIELD_GET(IRDMA_IP_HI, lo);
	ip[3] = FIELD_GET(IRDMA_IP_LO, lo);
}

/**
 * irdma_sim_mac() - a MAC address from a 48-bit value (first byte highest)
 * @val: the value
 * @mac: the address
 */
static void irdma_sim_mac(u64 val, u8 mac[ETH_ALEN])
{
	int i;

	for (i = 0; i < ETH_ALEN; i++)
		mac[i] = val >> (8 * (ETH_ALEN - 1 - i));
}

/* ------------------------------------------------------------------------ */
/* QPs                                                                      */
/* ------------------------------------------------------------------------ */

/**
 * irdma_sim_qp_lookup() - a QP named by a command
 * @sim: instance
 * @cmd: command (failed when the QP does not exist)
 * @id: QP id
 *
 * Context: the CQP worker (the only one changing the QP table).
 * Return: the QP or NULL.
 */
static struct irdma_sim_qp *irdma_sim_qp_lookup(struct irdma_sim *sim,
						struct irdma_sim_cmd *cmd,
						u32 id)
{
	struct irdma_sim_qp *qp = xa_load(&sim->qps, id);

	if (!qp || !qp->live) {
		irdma_sim_cmd_fail(sim, cmd, IRDMA_SIM_CQP_MINOR_BAD_ID,
				   "QP %u does not exist\n", id);
		return NULL;
	}
	return qp;
}

/**
 * irdma_sim_cq_exists() - whether a CQ exists, for QP checks
 * @sim: instance
 * @id: CQ id
 *
 * Context: the CQP worker.
 * Return: true when the CQ is live.
 */
static bool irdma_sim_cq_exists(struct irdma_sim *sim, u32 id)
{
	struct irdma_sim_cq *cq = xa_load(&sim->cqs, id);

	return cq && cq->live;
}

/**
 * struct irdma_sim_qp_read - what a QP command gives, checked
 * @ctx: copy of the host context
 * @ctx_pa: host context address
 * @shadow_pa: doorbell shadow area address
 * @txcq: send CQ id (when CQNUMVALID)
 * @rxcq: receive CQ id (when CQNUMVALID)
 */
struct irdma_sim_qp_read {
	__le64 ctx[IRDMA_QPC_WORDS];
	u64 ctx_pa;
	u64 shadow_pa;
	u32 txcq;
	u32 rxcq;
};

/**
 * irdma_sim_qp_read() - check the addresses of a QP command, copy the context
 * @sim: instance
 * @cmd: CREATE_QP or MODIFY_QP (failed on a bad address or CQ)
 * @id: QP id, for messages
 * @rd: filled
 *
 * Return: true on success.
 */
static bool irdma_sim_qp_read(struct irdma_sim *sim, struct irdma_sim_cmd *cmd,
			      u32 id, struct irdma_sim_qp_read *rd)
{
	u64 hdr = irdma_sim_qw(cmd, IRDMA_CQP_WQE_HDR);
	__le64 *ctx;
	u64 cqs;
	u32 i;

	rd->ctx_pa = irdma_sim_qw(cmd, IRDMA_CQP_QP_CTX_PA);
	rd->shadow_pa = irdma_sim_qw(cmd, IRDMA_CQP_QP_SHADOW_PA);
	ctx = IS_ALIGNED(rd->ctx_pa, sizeof(u64)) ?
		irdma_sim_dma_va(sim, rd->ctx_pa, IRDMA_QP_CTX_SIZE) : NULL;
	if (!ctx) {
		irdma_sim_cmd_fail(sim, cmd, IRDMA_SIM_CQP_MINOR_BAD_ADDR,
				   "QP %u context %#llx not in RAM\n", id,
				   rd->ctx_pa);
		return false;
	}
	if (!IS_ALIGNED(rd->shadow_pa, sizeof(u64)) ||
	    !irdma_sim_dma_va(sim, rd->shadow_pa, IRDMA_QP_SHADOW_SIZE)) {
		irdma_sim_cmd_fail(sim, cmd, IRDMA_SIM_CQP_MINOR_BAD_ADDR,
				   "QP %u shadow area %#llx not in RAM\n", id,
				   rd->shadow_pa);
		return false;
	}
	for (i = 0; i < IRDMA_QPC_WORDS; i++)
		rd->ctx[i] = READ_ONCE(ctx[i]);
	cqs = le64_to_cpu(rd->ctx[IRDMA_QPC_QW17]);
	rd->txcq = FIELD_GET(IRDMA_QPC_QW17_TXCQNUM, cqs);
	rd->rxcq = FIELD_GET(IRDMA_QPC_QW17_RXCQNUM, cqs);
	if ((hdr & IRDMA_CQP_QP_QW3_CQNUMVALID) &&
	    (!irdma_sim_cq_exists(sim, rd->txcq) ||
	     !irdma_sim_cq_exists(sim, rd->rxcq))) {
		irdma_sim_cmd_fail(sim, cmd, IRDMA_SIM_CQP_MINOR_BAD_ID,
				   "QP %u names CQs %u/%u that do not exist\n",
				   id, rd->txcq, rd->rxcq);
		return false;
	}
	return true;
}

/**
 * irdma_sim_qp_apply() - take over what a checked QP command gives
 * @qp: QP
 * @hdr: WQE header
 * @rd: checked contents
 */
static void irdma_sim_qp_apply(struct irdma_sim_qp *qp, u64 hdr,
			       const struct irdma_sim_qp_read *rd)
{
	u32 next = FIELD_GET(IRDMA_CQP_QP_QW3_NEXTIWSTATE, hdr);

	memcpy(qp->ctx, rd->ctx, sizeof(qp->ctx));
	qp->ctx_pa = rd->ctx_pa;
	qp->shadow_pa = rd->shadow_pa;
	qp->comp_ctx = le64_to_cpu(rd->ctx[IRDMA_QPC_COMPCTX]);
	if (hdr & IRDMA_CQP_QP_QW3_CQNUMVALID) {
		qp->txcq = rd->txcq;
		qp->rxcq = rd->rxcq;
	}
	if (hdr & IRDMA_CQP_QP_QW3_TOECTXVALID)
		qp->tcp_state = FIELD_GET(IRDMA_QPC_QW7_TCPSTATE,
					  le64_to_cpu(rd->ctx[IRDMA_QPC_QW7]));
	if (next != IRDMA_QPS_INVALID)
		qp->state = next;
}

/**
 * irdma_sim_qhash_free() - unlink and free a qhash entry
 * @sim: instance
 * @e: entry
 */
static void irdma_sim_qhash_free(struct irdma_sim *sim,
				 struct irdma_sim_qhash *e)
{
	lockdep_assert_held(&sim->lock);

	hash_del_rcu(&e->node);
	sim->nqhash--;
	kfree_rcu(e, rcu);
}

/**
 * irdma_sim_qp_unhash() - remove the ESTABLISHED qhash entry of a QP
 * @sim: instance
 * @qp: QP whose context holds the connection's addresses and ports
 *
 * Implements "remove hash entry" of MODIFY_QP and DESTROY_QP.
 */
static void irdma_sim_qp_unhash(struct irdma_sim *sim, struct irdma_sim_qp *qp)
{
	u64 qw3 = le64_to_cpu(qp->ctx[IRDMA_QPC_QW3]);
	bool ipv4 = le64_to_cpu(qp->ctx[IRDMA_QPC_QW0]) & IRDMA_QPC_QW0_IPV4;
	u16 lport = FIELD_GET(IRDMA_QPC_QW3_SRCPORT, qw3);
	u16 rport = FIELD_GET(IRDMA_QPC_QW3_DESTPORT, qw3);
	struct irdma_sim_qhash *e;
	struct hlist_node *tmp;
	u32 lip[4], rip[4];
	unsigned long flags;

	irdma_sim_ip_words(le64_to_cpu(qp->ctx[IRDMA_QPC_LOCAL_IP_LO]),
			   le64_to_cpu(qp->ctx[IRDMA_QPC_LOCAL_IP_HI]), ipv4,
			   lip);
	irdma_sim_ip_words(le64_to_cpu(qp->ctx[IRDMA_QPC_DEST_IP_LO]),
			   le64_to_cpu(qp->ctx[IRDMA_QPC_DEST_IP_HI]), ipv4,
			   rip);

	spin_lock_irqsave(&sim->lock, flags);
	hash_for_each_possible_safe(sim->qhash, e, tmp, node, lport) {
		if (e->type == IRDMA_QHASH_TYPE_TCP_ESTABLISHED &&
		    e->ipv4 == ipv4 && e->lport == lport && e->rport == rport &&
		    !memcmp(e->lip, lip, sizeof(lip)) &&
		    !memcmp(e->rip, rip, sizeof(rip)))
			irdma_sim_qhash_free(sim, e);
	}
	spin_unlock_irqrestore(&sim->lock, flags);
}

/**
 * irdma_sim_op_create_qp() - CREATE_QP
 * @sim: instance
 * @cmd: command
 */
void irdma_sim_op_create_qp(struct irdma_sim *sim, struct irdma_sim_cmd *cmd)
{
	u64 hdr = irdma_sim_qw(cmd, IRDMA_CQP_WQE_HDR);
	u32 id = FIELD_GET(IRDMA_CQP_QP_QW3_QPID, hdr);
	u32 type = FIELD_GET(IRDMA_CQP_QP_QW3_QPTYPE, hdr);
	struct irdma_sim_qp_read *rd;
	struct irdma_sim_qp *qp;
	unsigned long flags;
	int err;

	if (!irdma_sim_obj_id_ok(sim, cmd, IRDMA_HMC_QP, id))
		return;
	if (xa_load(&sim->qps, id)) {
		irdma_sim_cmd_fail(sim, cmd, IRDMA_SIM_CQP_MINOR_BAD_ID,
				   "QP %u exists\n", id);
		return;
	}
	if (type != IRDMA_QP_TYPE_IWARP && type != IRDMA_QP_TYPE_UDA) {
		irdma_sim_cmd_fail(sim, cmd, IRDMA_SIM_CQP_MINOR_BAD_ID,
				   "QP %u type %u is not iWARP or UDA\n", id,
				   type);
		return;
	}
	qp = kzalloc(sizeof(*qp), GFP_KERNEL);
	rd = kmalloc(sizeof(*rd), GFP_KERNEL);
	if (!qp || !rd) {
		irdma_sim_cmd_fail(sim, cmd, IRDMA_SIM_CQP_MINOR_NO_RESOURCE,
				   "QP %u: out of memory\n", id);
		goto out;
	}
	if (!irdma_sim_qp_read(sim, cmd, id, rd))
		goto out;
	qp->id = id;
	qp->gen = sim->purged_gen;
	qp->serial = ++sim->qp_serial ?: ++sim->qp_serial;
	qp->type = type;
	qp->state = IRDMA_QPS_IDLE;
	INIT_LIST_HEAD(&qp->tx_node);
	irdma_sim_qp_apply(qp, hdr, rd);
	if (type == IRDMA_QP_TYPE_UDA && !irdma_sim_uda_init(sim, cmd, qp))
		goto out;
	if (type == IRDMA_QP_TYPE_IWARP && !irdma_sim_iw_create(sim, cmd, qp))
		goto out;
	err = xa_insert(&sim->qps, id, qp, GFP_KERNEL);
	if (err) {
		irdma_sim_cmd_fail(sim, cmd, irdma_sim_errno_minor(err),
				   "QP %u: cannot record it (%d)\n", id, err);
		irdma_sim_iw_destroy(sim, qp);
		goto out;
	}
	spin_lock_irqsave(&sim->lock, flags);
	qp->live = true;
	spin_unlock_irqrestore(&sim->lock, flags);
	qp = NULL;
out:
	kfree(rd);
	kfree(qp);
}

/**
 * irdma_sim_op_modify_qp() - MODIFY_QP: new context, state, hash removal
 * @sim: instance
 * @cmd: command
 */
void irdma_sim_op_modify_qp(struct irdma_sim *sim, struct irdma_sim_cmd *cmd)
{
	u64 hdr = irdma_sim_qw(cmd, IRDMA_CQP_WQE_HDR);
	u32 id = FIELD_GET(IRDMA_CQP_QP_QW3_QPID, hdr);
	struct irdma_sim_qp_read *rd;
	struct irdma_sim_qp *qp;
	unsigned long flags;
	u16 minor;

	qp = irdma_sim_qp_lookup(sim, cmd, id);
	if (!qp)
		return;
	rd = kmalloc(sizeof(*rd), GFP_KERNEL);
	if (!rd) {
		irdma_sim_cmd_fail(sim, cmd, IRDMA_SIM_CQP_MINOR_NO_RESOURCE,
				   "QP %u: out of memory\n", id);
		return;
	}
	if (irdma_sim_qp_read(sim, cmd, id, rd)) {
		spin_lock_irqsave(&sim->lock, flags);
		irdma_sim_qp_apply(qp, hdr, rd);
		spin_unlock_irqrestore(&sim->lock, flags);
		minor = irdma_sim_iw_modify(sim, qp, hdr,
					    irdma_sim_qw(cmd, IRDMA_CQP_QP_QW1));
		if (minor)
			irdma_sim_cmd_fail(sim, cmd, minor,
					   "QP %u: the offload cannot start\n",
					   id);
		if (hdr & IRDMA_CQP_QP_QW3_REMOVEHASHENTRY)
			irdma_sim_qp_unhash(sim, qp);
	}
	kfree(rd);
}

/**
 * irdma_sim_op_destroy_qp() - DESTROY_QP
 * @sim: instance
 * @cmd: command
 */
void irdma_sim_op_destroy_qp(struct irdma_sim *sim, struct irdma_sim_cmd *cmd)
{
	u64 hdr = irdma_sim_qw(cmd, IRDMA_CQP_WQE_HDR);
	u32 id = FIELD_GET(IRDMA_CQP_QP_QW3_QPID, hdr);
	struct irdma_sim_qp *qp;
	unsigned long flags;

	qp = irdma_sim_qp_lookup(sim, cmd, id);
	if (!qp)
		return;
	if (hdr & IRDMA_CQP_QP_QW3_REMOVEHASHENTRY)
		irdma_sim_qp_unhash(sim, qp);
	irdma_sim_iw_destroy(sim, qp);
	spin_lock_irqsave(&sim->lock, flags);
	qp->live = false;
	irdma_sim_uda_unlink(sim, qp);
	spin_unlock_irqrestore(&sim->lock, flags);
	xa_erase(&sim->qps, id);
	kfree_rcu(qp, rcu);
}

/**
 * irdma_sim_op_flush_wqes() - FLUSH_WQES and GEN_AE
 * @sim: instance
 * @cmd: command
 *
 * An iWARP QP's engine writes one flush CQE per queue that holds work
 * (irdma_sim_iw_flush()).  With GENERATE_AE the requested AE is posted
 * for the QP.
 */
void irdma_sim_op_flush_wqes(struct irdma_sim *sim, struct irdma_sim_cmd *cmd)
{
	u64 hdr = irdma_sim_qw(cmd, IRDMA_CQP_WQE_HDR);
	u64 qw1 = irdma_sim_qw(cmd, IRDMA_CQP_FLUSH_QW1);
	u32 id = FIELD_GET(IRDMA_CQP_FLUSH_QW3_QPID, hdr);
	u32 code = FIELD_GET(IRDMA_CQP_FLUSH_QW1_AECODE, qw1);
	struct irdma_sim_qp *qp;
	unsigned long flags;

	qp = irdma_sim_qp_lookup(sim, cmd, id);
	if (!qp)
		return;
	if ((hdr & IRDMA_CQP_FLUSH_QW3_GENERATE_AE) &&
	    code > FIELD_MAX(IRDMA_AEQE_QW1_AECODE)) {
		irdma_sim_cmd_fail(sim, cmd, IRDMA_SIM_CQP_MINOR_BAD_ID,
				   "QP %u: AE code %#x\n", id, code);
		return;
	}
	irdma_sim_iw_flush(sim, qp, hdr,
			   irdma_sim_qw(cmd, IRDMA_CQP_FLUSH_QW2));
	spin_lock_irqsave(&sim->lock, flags);
	if (hdr & IRDMA_CQP_FLUSH_QW3_FLUSHSQ)
		qp->flush_sq = true;
	if (hdr & IRDMA_CQP_FLUSH_QW3_FLUSHRQ)
		qp->flush_rq = true;
	if (hdr & IRDMA_CQP_FLUSH_QW3_GENERATE_AE)
		irdma_sim_qp_ae_cmd(sim, qp, code,
				    FIELD_GET(IRDMA_CQP_FLUSH_QW1_AESOURCE, qw1));
	spin_unlock_irqrestore(&sim->lock, flags);
}

/**
 * irdma_sim_op_suspend_qp() - SUSPEND_QP: suspend, then AE QP_SUSPEND_COMPLETE
 * @sim: instance
 * @cmd: command
 */
void irdma_sim_op_suspend_qp(struct irdma_sim *sim, struct irdma_sim_cmd *cmd)
{
	u32 id = FIELD_GET(IRDMA_CQP_QP_QW3_QPID,
			   irdma_sim_qw(cmd, IRDMA_CQP_WQE_HDR));
	struct irdma_sim_qp *qp;
	unsigned long flags;

	qp = irdma_sim_qp_lookup(sim, cmd, id);
	if (!qp)
		return;
	spin_lock_irqsave(&sim->lock, flags);
	qp->suspended = true;
	irdma_sim_qp_ae_cmd(sim, qp, IRDMA_AE_QP_SUSPEND_COMPLETE,
			    IRDMA_AE_SOURCE_RSVD);
	spin_unlock_irqrestore(&sim->lock, flags);
}

/**
 * irdma_sim_op_resume_qp() - RESUME_QP
 * @sim: instance
 * @cmd: command
 */
void irdma_sim_op_resume_qp(struct irdma_sim *sim, struct irdma_sim_cmd *cmd)
{
	u32 id = FIELD_GET(IRDMA_CQP_QP_QW3_QPID,
			   irdma_sim_qw(cmd, IRDMA_CQP_WQE_HDR));
	struct irdma_sim_qp *qp;
	unsigned long flags;

	qp = irdma_sim_qp_lookup(sim, cmd, id);
	if (!qp)
		return;
	spin_lock_irqsave(&sim->lock, flags);
	qp->suspended = false;
	spin_unlock_irqrestore(&sim->lock, flags);
}

/**
 * irdma_sim_wqe_alloc() - WQEALLOC written: kernel SQ doorbell
 * @sim: instance
 * @val: QP id
 * @can_run: the writer's context may run an iWARP QP's engine
 *
 * A UDA QP's send WQEs are transmitted (uda.c); an iWARP QP's engine
 * walks its SQ (qp.c).  The drop_wqealloc knob loses iWARP doorbells.
 *
 * Return: an engine for the writer to run once it has dropped sim->lock
 * (irdma_sim_iw_doorbell()), or NULL.
 */
struct irdma_sim_iw *irdma_sim_wqe_alloc(struct irdma_sim *sim, u32 val,
					 bool can_run)
{
	struct irdma_sim_qp *qp;
	u32 drop;

	lockdep_assert_held(&sim->lock);

	sim->stats.wqealloc++;
	qp = xa_load(&sim->qps, val);
	if (!qp || !qp->live || qp->gen != sim->gen) {
		dev_dbg_ratelimited(&sim->dev, "WQEALLOC of unknown QP %u\n",
				    val);
		return NULL;
	}
	drop = READ_ONCE(sim->knobs.drop_wqealloc);
	if (qp->type != IRDMA_QP_TYPE_UDA && drop) {
		/* debugfs writes the knob without the lock: a test's knob */
		WRITE_ONCE(sim->knobs.drop_wqealloc, drop - 1);
		sim->stats.wqealloc_dropped++;
		return NULL;
	}
	qp->sq_doorbells++;
	if (qp->type == IRDMA_QP_TYPE_UDA) {
		irdma_sim_uda_doorbell(sim, qp);
		return NULL;
	}
	return irdma_sim_iw_doorbell(sim, qp, can_run);
}

/* ------------------------------------------------------------------------ */
/* STags                                                                    */
/* ------------------------------------------------------------------------ */

/**
 * irdma_sim_stag_new() - common checks and fields of ALLOC_STAG and REG_MR
 * @sim: instance
 * @cmd: command (failed on error)
 *
 * Return: a new STag, not yet recorded, or NULL.
 */
static struct irdma_sim_mr *irdma_sim_stag_new(struct irdma_sim *sim,
					       struct irdma_sim_cmd *cmd)
{
	u64 hdr = irdma_sim_qw(cmd, IRDMA_CQP_WQE_HDR);
	u64 qw1 = irdma_sim_qw(cmd, IRDMA_CQP_STAG_QW1);
	u64 qw2 = irdma_sim_qw(cmd, IRDMA_CQP_STAG_QW2);
	u64 qw5 = irdma_sim_qw(cmd, IRDMA_CQP_STAG_QW5);
	u32 idx = FIELD_GET(IRDMA_CQP_STAG_QW2_IDX, qw2);
	struct irdma_sim_mr *mr;
	u8 level;

	if (!irdma_sim_obj_id_ok(sim, cmd, IRDMA_HMC_MR, idx))
		return NULL;
	if (xa_load(&sim->mrs, idx)) {
		irdma_sim_cmd_fail(sim, cmd, IRDMA_SIM_CQP_MINOR_BAD_ID,
				   "STag index %u exists\n", idx);
		return NULL;
	}
	if ((hdr & IRDMA_CQP_STAG_QW3_USEHMCFNIDX) &&
	    !irdma_sim_fn_id_ok(sim, cmd,
				FIELD_GET(IRDMA_CQP_STAG_QW5_HMC_FN_ID, qw5)))
		return NULL;
	if (FIELD_GET(IRDMA_CQP_STAG_QW3_HPAGESIZE, hdr) > IRDMA_PAGE_SIZE_1G) {
		irdma_sim_cmd_fail(sim, cmd, IRDMA_SIM_CQP_MINOR_BAD_SIZE,
				   "STag index %u: page size code %llu\n", idx,
				   FIELD_GET(IRDMA_CQP_STAG_QW3_HPAGESIZE, hdr));
		return NULL;
	}
	level = FIELD_GET(IRDMA_CQP_QW3_LPBLSIZE, hdr);
	if (level == 2) {
		irdma_sim_cmd_fail(sim, cmd, IRDMA_SIM_CQP_MINOR_BAD_SIZE,
				   "STag index %u: PBL level code 2\n", idx);
		return NULL;
	}
	mr = kzalloc(sizeof(*mr), GFP_KERNEL);
	if (!mr) {
		irdma_sim_cmd_fail(sim, cmd, IRDMA_SIM_CQP_MINOR_NO_RESOURCE,
				   "STag index %u: out of memory\n", idx);
		return NULL;
	}
	mr->idx = idx;
	mr->gen = sim->purged_gen;
	mr->is_mr = hdr & IRDMA_CQP_STAG_QW3_MR;
	mr->pd = FIELD_GET(IRDMA_CQP_STAG_QW1_GEN2_PDID, qw1);
	mr->len = FIELD_GET(IRDMA_CQP_STAG_QW1_LEN, qw1);
	mr->rights = FIELD_GET(IRDMA_CQP_STAG_QW3_ARIGHTS, hdr);
	mr->pbl_level = level;
	mr->first_pble = FIELD_GET(IRDMA_CQP_STAG_QW6_FIRST_PBLE,
				   irdma_sim_qw(cmd, IRDMA_CQP_STAG_QW6));
	mr->page_size = FIELD_GET(IRDMA_CQP_STAG_QW3_HPAGESIZE, hdr);
	return mr;
}

/**
 * irdma_sim_stag_add() - record a new STag
 * @sim: instance
 * @cmd: command (failed on error)
 * @mr: STag from irdma_sim_stag_new(); freed on error
 */
static void irdma_sim_stag_add(struct irdma_sim *sim, struct irdma_sim_cmd *cmd,
			       struct irdma_sim_mr *mr)
{
	unsigned long flags;
	int err;

	err = xa_insert(&sim->mrs, mr->idx, mr, GFP_KERNEL);
	if (err) {
		irdma_sim_cmd_fail(sim, cmd, irdma_sim_errno_minor(err),
				   "STag index %u: cannot record it (%d)\n",
				   mr->idx, err);
		kfree(mr);
		return;
	}
	spin_lock_irqsave(&sim->lock, flags);
	mr->live = true;
	spin_unlock_irqrestore(&sim->lock, flags);
}

/**
 * irdma_sim_op_alloc_stag() - ALLOC_STAG: an MR for fast registration, or an MW
 * @sim: instance
 * @cmd: command
 */
void irdma_sim_op_alloc_stag(struct irdma_sim *sim, struct irdma_sim_cmd *cmd)
{
	struct irdma_sim_mr *mr = irdma_sim_stag_new(sim, cmd);

	if (mr)
		irdma_sim_stag_add(sim, cmd, mr);
}

/**
 * irdma_sim_op_reg_mr() - REG_MR: register a non-shared MR
 * @sim: instance
 * @cmd: command
 */
void irdma_sim_op_reg_mr(struct irdma_sim *sim, struct irdma_sim_cmd *cmd)
{
	u64 hdr = irdma_sim_qw(cmd, IRDMA_CQP_WQE_HDR);
	struct irdma_sim_mr *mr = irdma_sim_stag_new(sim, cmd);

	if (!mr)
		return;
	mr->registered = true;
	mr->key = FIELD_GET(IRDMA_CQP_STAG_QW2_KEY,
			    irdma_sim_qw(cmd, IRDMA_CQP_STAG_QW2));
	mr->va = irdma_sim_qw(cmd, IRDMA_CQP_STAG_VA);
	mr->pa = irdma_sim_qw(cmd, IRDMA_CQP_STAG_PA);
	mr->va_based = hdr & IRDMA_CQP_STAG_QW3_VABASEDTO;
	if (!mr->pbl_level && mr->len && !irdma_sim_dma_va(sim, mr->pa, 1)) {
		irdma_sim_cmd_fail(sim, cmd, IRDMA_SIM_CQP_MINOR_BAD_ADDR,
				   "STag index %u: address %#llx not in RAM\n",
				   mr->idx, mr->pa);
		kfree(mr);
		return;
	}
	if (mr->pbl_level &&
	    mr->first_pble >= sim->hmc.obj[IRDMA_HMC_PBLE].cnt) {
		irdma_sim_cmd_fail(sim, cmd, IRDMA_SIM_CQP_MINOR_BAD_ID,
				   "STag index %u: PBLE %u beyond %u\n", mr->idx,
				   mr->first_pble,
				   sim->hmc.obj[IRDMA_HMC_PBLE].cnt);
		kfree(mr);
		return;
	}
	irdma_sim_stag_add(sim, cmd, mr);
}

/**
 * irdma_sim_op_dealloc_stag() - DEALLOC_STAG
 * @sim: instance
 * @cmd: command; PD and MR/MW kind must match the STag
 */
void irdma_sim_op_dealloc_stag(struct irdma_sim *sim, struct irdma_sim_cmd *cmd)
{
	u64 hdr = irdma_sim_qw(cmd, IRDMA_CQP_WQE_HDR);
	u32 idx = FIELD_GET(IRDMA_CQP_STAG_QW2_IDX,
			    irdma_sim_qw(cmd, IRDMA_CQP_STAG_QW2));
	u32 pd = FIELD_GET(IRDMA_CQP_STAG_QW1_GEN2_PDID,
			   irdma_sim_qw(cmd, IRDMA_CQP_STAG_QW1));
	struct irdma_sim_mr *mr = xa_load(&sim->mrs, idx);
	unsigned long flags;

	if (!mr || !mr->live) {
		irdma_sim_cmd_fail(sim, cmd, IRDMA_SIM_CQP_MINOR_BAD_ID,
				   "STag index %u does not exist\n", idx);
		return;
	}
	if (mr->pd != pd || mr->is_mr != !!(hdr & IRDMA_CQP_STAG_QW3_MR)) {
		irdma_sim_cmd_fail(sim, cmd, IRDMA_SIM_CQP_MINOR_BAD_ID,
				   "STag index %u: PD %u/%s, not PD %u/%s\n", idx,
				   mr->pd, mr->is_mr ? "MR" : "MW", pd,
				   hdr & IRDMA_CQP_STAG_QW3_MR ? "MR" : "MW");
		return;
	}
	spin_lock_irqsave(&sim->lock, flags);
	mr->live = false;
	spin_unlock_irqrestore(&sim->lock, flags);
	xa_erase(&sim->mrs, idx);
	kfree_rcu(mr, rcu);
}

/* ------------------------------------------------------------------------ */
/* Address handles, ARP cache, APBVT, qhash                                 */
/* ------------------------------------------------------------------------ */

/**
 * irdma_sim_ah_read() - decode and check an address-handle command
 * @sim: instance
 * @cmd: CREATE/MODIFY_ADDR_HANDLE (failed on error)
 * @ah: filled (index and generation excepted)
 *
 * Return: true on success.
 */
static bool irdma_sim_ah_read(struct irdma_sim *sim, struct irdma_sim_cmd *cmd,
			      struct irdma_sim_ah *ah)
{
	u64 hdr = irdma_sim_qw(cmd, IRDMA_CQP_WQE_HDR);
	u64 qw1 = irdma_sim_qw(cmd, IRDMA_CQP_AH_QW1);
	u64 qw2 = irdma_sim_qw(cmd, IRDMA_CQP_AH_QW2);

	irdma_sim_mac(FIELD_GET(IRDMA_CQP_AH_QW0_MAC,
				irdma_sim_qw(cmd, IRDMA_CQP_AH_QW0)),
		      ah->mac);
	ah->vlan = FIELD_GET(IRDMA_CQP_AH_QW1_VLANTAG, qw1);
	ah->tc = FIELD_GET(IRDMA_CQP_AH_QW1_TC, qw1);
	ah->pd = FIELD_GET(IRDMA_CQP_AH_QW1_PDIDXLO, qw1) |
		 FIELD_GET(IRDMA_CQP_AH_QW2_PDIDXHI, qw2) << 16;
	ah->flow_label = FIELD_GET(IRDMA_CQP_AH_QW2_FLOWLABEL, qw2);
	ah->hop_limit = FIELD_GET(IRDMA_CQP_AH_QW2_HOPLIMIT, qw2);
	ah->arp_idx = FIELD_GET(IRDMA_CQP_AH_QW2_ARPINDEX, qw2);
	ah->ipv4 = hdr & IRDMA_CQP_AH_QW3_IPV4VALID;
	ah->insert_vlan = hdr & IRDMA_CQP_AH_QW3_INSERTVLAN;
	ah->loopback = hdr & IRDMA_CQP_AH_QW3_LOOPBACK;
	irdma_sim_ip_words(irdma_sim_qw(cmd, IRDMA_CQP_AH_DEST_IP_LO),
			   irdma_sim_qw(cmd, IRDMA_CQP_AH_DEST_IP_HI), ah->ipv4,
			   ah->dst_ip);
	irdma_sim_ip_words(irdma_sim_qw(cmd, IRDMA_CQP_AH_SRC_IP_LO),
			   irdma_sim_qw(cmd, IRDMA_CQP_AH_SRC_IP_HI), ah->ipv4,
			   ah->src_ip);
	if (ah->arp_idx >= sim->hmc.obj[IRDMA_HMC_ARP].cnt) {
		irdma_sim_cmd_fail(sim, cmd, IRDMA_SIM_CQP_MINOR_BAD_ID,
				   "ARP index %u beyond %u\n", ah->arp_idx,
				   sim->hmc.obj[IRDMA_HMC_ARP].cnt);
		return false;
	}
	return true;
}

/**
 * irdma_sim_op_create_ah() - CREATE_ADDR_HANDLE
 * @sim: instance
 * @cmd: command
 */
void irdma_sim_op_create_ah(struct irdma_sim *sim, struct irdma_sim_cmd *cmd)
{
	u32 idx = FIELD_GET(IRDMA_CQP_AH_QW3_AVIDX,
			    irdma_sim_qw(cmd, IRDMA_CQP_WQE_HDR));
	struct irdma_sim_ah *ah;
	unsigned long flags;
	int err;

	if (!irdma_sim_obj_id_ok(sim, cmd, IRDMA_HMC_FSIAV, idx))
		return;
	if (xa_load(&sim->ahs, idx)) {
		irdma_sim_cmd_fail(sim, cmd, IRDMA_SIM_CQP_MINOR_BAD_ID,
				   "AH %u exists\n", idx);
		return;
	}
	ah = kzalloc(sizeof(*ah), GFP_KERNEL);
	if (!ah) {
		irdma_sim_cmd_fail(sim, cmd, IRDMA_SIM_CQP_MINOR_NO_RESOURCE,
				   "AH %u: out of memory\n", idx);
		return;
	}
	ah->idx = idx;
	ah->gen = sim->purged_gen;
	if (!irdma_sim_ah_read(sim, cmd, ah)) {
		kfree(ah);
		return;
	}
	err = xa_insert(&sim->ahs, idx, ah, GFP_KERNEL);
	if (err) {
		irdma_sim_cmd_fail(sim, cmd, irdma_sim_errno_minor(err),
				   "AH %u: cannot record it (%d)\n", idx, err);
		kfree(ah);
		return;
	}
	spin_lock_irqsave(&sim->lock, flags);
	ah->live = true;
	spin_unlock_irqrestore(&sim->lock, flags);
}

/**
 * irdma_sim_ah_lookup() - an AH named by a command
 * @sim: instance
 * @cmd: command (failed when the AH does not exist)
 *
 * Return: the AH or NULL.
 */
static struct irdma_sim_ah *irdma_sim_ah_lookup(struct irdma_sim *sim,
						struct irdma_sim_cmd *cmd)
{
	u32 idx = FIELD_GET(IRDMA_CQP_AH_QW3_AVIDX,
			    irdma_sim_qw(cmd, IRDMA_CQP_WQE_HDR));
	struct irdma_sim_ah *ah = xa_load(&sim->ahs, idx);

	if (!ah || !ah->live) {
		irdma_sim_cmd_fail(sim, cmd, IRDMA_SIM_CQP_MINOR_BAD_ID,
				   "AH %u does not exist\n", idx);
		return NULL;
	}
	return ah;
}

/**
 * irdma_sim_op_modify_ah() - MODIFY_ADDR_HANDLE
 * @sim: instance
 * @cmd: command
 */
void irdma_sim_op_modify_ah(struct irdma_sim *sim, struct irdma_sim_cmd *cmd)
{
	struct irdma_sim_ah *ah = irdma_sim_ah_lookup(sim, cmd);
	struct irdma_sim_ah tmp = {};
	unsigned long flags;

	if (!ah || !irdma_sim_ah_read(sim, cmd, &tmp))
		return;
	spin_lock_irqsave(&sim->lock, flags);
	memcpy(ah->mac, tmp.mac, sizeof(ah->mac));
	ah->vlan = tmp.vlan;
	ah->tc = tmp.tc;
	ah->hop_limit = tmp.hop_limit;
	ah->flow_label = tmp.flow_label;
	ah->pd = tmp.pd;
	ah->arp_idx = tmp.arp_idx;
	ah->ipv4 = tmp.ipv4;
	ah->insert_vlan = tmp.insert_vlan;
	ah->loopback = tmp.loopback;
	memcpy(ah->dst_ip, tmp.dst_ip, sizeof(ah->dst_ip));
	memcpy(ah->src_ip, tmp.src_ip, sizeof(ah->src_ip));
	spin_unlock_irqrestore(&sim->lock, flags);
}

/**
 * irdma_sim_op_destroy_ah() - DESTROY_ADDR_HANDLE
 * @sim: instance
 * @cmd: command
 */
void irdma_sim_op_destroy_ah(struct irdma_sim *sim, struct irdma_sim_cmd *cmd)
{
	struct irdma_sim_ah *ah = irdma_sim_ah_lookup(sim, cmd);
	unsigned long flags;

	if (!ah)
		return;
	spin_lock_irqsave(&sim->lock, flags);
	ah->live = false;
	spin_unlock_irqrestore(&sim->lock, flags);
	xa_erase(&sim->ahs, ah->idx);
	kfree_rcu(ah, rcu);
}

/**
 * irdma_sim_op_manage_arp() - MANAGE_ARP: add or delete an ARP cache entry
 * @sim: instance
 * @cmd: command
 */
void irdma_sim_op_manage_arp(struct irdma_sim *sim, struct irdma_sim_cmd *cmd)
{
	u64 hdr = irdma_sim_qw(cmd, IRDMA_CQP_WQE_HDR);
	u32 idx = FIELD_GET(IRDMA_CQP_ARP_QW3_INDEX, hdr);
	struct irdma_sim_arp *e;
	unsigned long flags;

	if (!irdma_sim_obj_id_ok(sim, cmd, IRDMA_HMC_ARP, idx))
		return;
	spin_lock_irqsave(&sim->lock, flags);
	e = &sim->arp[idx];
	e->valid = hdr & IRDMA_CQP_ARP_QW3_VALID;
	e->permanent = e->valid && (hdr & IRDMA_CQP_ARP_QW3_PERMANENT);
	if (e->valid)
		irdma_sim_mac(FIELD_GET(IRDMA_CQP_ARP_QW2_MAC,
					irdma_sim_qw(cmd, IRDMA_CQP_ARP_QW2)),
			      e->mac);
	else
		eth_zero_addr(e->mac);
	spin_unlock_irqrestore(&sim->lock, flags);
}

/**
 * irdma_sim_op_manage_apbvt() - MANAGE_APBVT: add or delete a local TCP port
 * @sim: instance
 * @cmd: command
 */
void irdma_sim_op_manage_apbvt(struct irdma_sim *sim, struct irdma_sim_cmd *cmd)
{
	u32 port = FIELD_GET(IRDMA_CQP_APBVT_QW2_PORT,
			     irdma_sim_qw(cmd, IRDMA_CQP_APBVT_QW2));
	bool add = irdma_sim_qw(cmd, IRDMA_CQP_WQE_HDR) & IRDMA_CQP_APBVT_QW3_ADD;
	unsigned long flags;
	bool was;

	if (!irdma_sim_obj_id_ok(sim, cmd, IRDMA_HMC_APBVT, 0))
		return;
	spin_lock_irqsave(&sim->lock, flags);
	if (add)
		was = __test_and_set_bit(port, sim->apbvt);
	else
		was = !__test_and_clear_bit(port, sim->apbvt);
	if (was)
		sim->stats.apbvt_anomalies++;
	spin_unlock_irqrestore(&sim->lock, flags);
}

/**
 * irdma_sim_qhash_find() - the qhash entry with the key of @key
 * @sim: instance
 * @key: entry holding the key fields
 *
 * Context: the CQP worker (the only one changing the table).
 * Return: the entry or NULL.
 */
static struct irdma_sim_qhash *irdma_sim_qhash_find(struct irdma_sim *sim,
						    const struct irdma_sim_qhash *key)
{
	struct irdma_sim_qhash *e;

	hash_for_each_possible(sim->qhash, e, node, key->lport) {
		if (e->type != key->type || e->ipv4 != key->ipv4 ||
		    e->vlan_valid != key->vlan_valid ||
		    (e->vlan_valid && e->vlan != key->vlan) ||
		    e->lport != key->lport ||
		    memcmp(e->lip, key->lip, sizeof(e->lip)))
			continue;
		if (e->type == IRDMA_QHASH_TYPE_TCP_ESTABLISHED &&
		    (e->rport != key->rport ||
		     memcmp(e->rip, key->rip, sizeof(e->rip))))
			continue;
		return e;
	}
	return NULL;
}

/**
 * irdma_sim_op_manage_qhash() - MANAGE_QHASH: add, modify or delete an entry
 * @sim: instance
 * @cmd: command
 *
 * Entries are recorded for steering received TCP segments to the ILQ (a
 * later step of the model).  Deleting an entry that is gone (for example
 * removed by a QP's "remove hash entry") succeeds and is counted.
 */
void irdma_sim_op_manage_qhash(struct irdma_sim *sim, struct irdma_sim_cmd *cmd)
{
	u64 hdr = irdma_sim_qw(cmd, IRDMA_CQP_WQE_HDR);
	u64 qw1 = irdma_sim_qw(cmd, IRDMA_CQP_QHASH_QW1);
	u64 qw2 = irdma_sim_qw(cmd, IRDMA_CQP_QHASH_QW2);
	u32 manage = FIELD_GET(IRDMA_CQP_QHASH_QW3_MANAGE, hdr);
	struct irdma_sim_qhash key = {}, *e;
	unsigned long flags;

	key.type = FIELD_GET(IRDMA_CQP_QHASH_QW3_ENTRYTYPE, hdr);
	key.ipv4 = hdr & IRDMA_CQP_QHASH_QW3_IPV4VALID;
	key.vlan_valid = hdr & IRDMA_CQP_QHASH_QW3_VLANVALID;
	key.vlan = key.vlan_valid ? FIELD_GET(IRDMA_CQP_QHASH_QW2_VLANID, qw2) : 0;
	key.lport = FIELD_GET(IRDMA_CQP_QHASH_QW1_DEST_PORT, qw1);
	key.qpn = FIELD_GET(IRDMA_CQP_QHASH_QW1_QPN, qw1);
	key.qs_handle = FIELD_GET(IRDMA_CQP_QHASH_QW2_QS_HANDLE, qw2);
	irdma_sim_mac(FIELD_GET(IRDMA_CQP_QHASH_QW0_MAC,
				irdma_sim_qw(cmd, IRDMA_CQP_QHASH_QW0)),
		      key.mac);
	irdma_sim_ip_words(irdma_sim_qw(cmd, IRDMA_CQP_QHASH_LOC_IP_LO),
			   irdma_sim_qw(cmd, IRDMA_CQP_QHASH_LOC_IP_HI),
			   key.ipv4, key.lip);
	if (key.type == IRDMA_QHASH_TYPE_TCP_ESTABLISHED) {
		key.rport = FIELD_GET(IRDMA_CQP_QHASH_QW1_SRC_PORT, qw1);
		irdma_sim_ip_words(irdma_sim_qw(cmd, IRDMA_CQP_QHASH_REM_IP_LO),
				   irdma_sim_qw(cmd, IRDMA_CQP_QHASH_REM_IP_HI),
				   key.ipv4, key.rip);
	}

	if (key.type != IRDMA_QHASH_TYPE_TCP_ESTABLISHED &&
	    key.type != IRDMA_QHASH_TYPE_TCP_SYN) {
		irdma_sim_cmd_fail(sim, cmd, IRDMA_SIM_CQP_MINOR_BAD_ID,
				   "entry type %u is not TCP\n", key.type);
		return;
	}
	if (manage > IRDMA_QHASH_MANAGE_MODIFY) {
		irdma_sim_cmd_fail(sim, cmd, IRDMA_SIM_CQP_MINOR_BAD_OPCODE,
				   "manage code %u\n", manage);
		return;
	}
	if (!sim->hmc.committed || key.qpn >= sim->hmc.obj[IRDMA_HMC_QP].cnt) {
		irdma_sim_cmd_fail(sim, cmd, IRDMA_SIM_CQP_MINOR_BAD_ID,
				   "target QP %u beyond the committed QPs\n",
				   key.qpn);
		return;
	}
	if (key.qs_handle >= IRDMA_SIM_MAX_QSETS) {
		irdma_sim_cmd_fail(sim, cmd, IRDMA_SIM_CQP_MINOR_BAD_ID,
				   "QS handle %u\n", key.qs_handle);
		return;
	}

	e = irdma_sim_qhash_find(sim, &key);
	if (manage == IRDMA_QHASH_MANAGE_DELETE) {
		spin_lock_irqsave(&sim->lock, flags);
		if (e)
			irdma_sim_qhash_free(sim, e);
		else
			sim->stats.qhash_del_miss++;
		spin_unlock_irqrestore(&sim->lock, flags);
		return;
	}
	if (e) {
		spin_lock_irqsave(&sim->lock, flags);
		e->qpn = key.qpn;
		e->qs_handle = key.qs_handle;
		memcpy(e->mac, key.mac, sizeof(e->mac));
		spin_unlock_irqrestore(&sim->lock, flags);
		return;
	}
	e = kmemdup(&key, sizeof(key), GFP_KERNEL);
	if (!e) {
		irdma_sim_cmd_fail(sim, cmd, IRDMA_SIM_CQP_MINOR_NO_RESOURCE,
				   "out of memory\n");
		return;
	}
	e->gen = sim->purged_gen;
	spin_lock_irqsave(&sim->lock, flags);
	hash_add_rcu(sim->qhash, &e->node, e->lport);
	sim->nqhash++;
	spin_unlock_irqrestore(&sim->lock, flags);
}

/* ------------------------------------------------------------------------ */
/* Work scheduler, push pages, statistics, features, small commands         */
/* ------------------------------------------------------------------------ */

/**
 * irdma_sim_op_ws_node() - WORK_SCHED_NODE: add, modify or delete a node
 * @sim: instance
 * @cmd: command; for a leaf the op return value is its QS handle
 */
void irdma_sim_op_ws_node(struct irdma_sim *sim, struct irdma_sim_cmd *cmd)
{
	u64 hdr = irdma_sim_qw(cmd, IRDMA_CQP_WQE_HDR);
	u64 qw4 = irdma_sim_qw(cmd, IRDMA_CQP_WS_QW4);
	u32 id = FIELD_GET(IRDMA_CQP_WS_QW3_NODEID, hdr);
	u32 parent = FIELD_GET(IRDMA_CQP_WS_QW3_PARENTID, hdr);
	u32 op = FIELD_GET(IRDMA_CQP_WS_QW3_NODEOP, hdr);
	struct irdma_sim_ws_node *n = &sim->ws[id];
	u32 i, qs;

	switch (op) {
	case IRDMA_WS_NODE_ADD:
		if (n->used) {
			irdma_sim_cmd_fail(sim, cmd, IRDMA_SIM_CQP_MINOR_BAD_ID,
					   "node %u exists\n", id);
			return;
		}
		if (parent != id &&
		    (!sim->ws[parent].used || sim->ws[parent].leaf)) {
			irdma_sim_cmd_fail(sim, cmd, IRDMA_SIM_CQP_MINOR_BAD_ID,
					   "node %u: parent %u is not a node\n",
					   id, parent);
			return;
		}
		if (hdr & IRDMA_CQP_WS_QW3_LEAF) {
			qs = find_first_zero_bit(sim->qsets, IRDMA_SIM_MAX_QSETS);
			if (qs >= IRDMA_SIM_MAX_QSETS) {
				irdma_sim_cmd_fail(sim, cmd,
						   IRDMA_SIM_CQP_MINOR_NO_RESOURCE,
						   "node %u: no queue set left\n",
						   id);
				return;
			}
			__set_bit(qs, sim->qsets);
			n->qs_handle = qs;
		}
		n->used = true;
		n->leaf = hdr & IRDMA_CQP_WS_QW3_LEAF;
		n->parent = parent;
		break;
	case IRDMA_WS_NODE_MODIFY:
		if (!n->used) {
			irdma_sim_cmd_fail(sim, cmd, IRDMA_SIM_CQP_MINOR_BAD_ID,
					   "node %u does not exist\n", id);
			return;
		}
		break;
	case IRDMA_WS_NODE_DELETE:
		if (!n->used) {
			irdma_sim_cmd_fail(sim, cmd, IRDMA_SIM_CQP_MINOR_BAD_ID,
					   "node %u does not exist\n", id);
			return;
		}
		for (i = 0; i < IRDMA_SIM_WS_NODES; i++) {
			if (i != id && sim->ws[i].used && sim->ws[i].parent == id) {
				irdma_sim_cmd_fail(sim, cmd,
						   IRDMA_SIM_CQP_MINOR_BAD_ORDER,
						   "node %u still has child %u\n",
						   id, i);
				return;
			}
		}
		if (n->leaf)
			__clear_bit(n->qs_handle, sim->qsets);
		memset(n, 0, sizeof(*n));
		return;
	default:
		irdma_sim_cmd_fail(sim, cmd, IRDMA_SIM_CQP_MINOR_BAD_OPCODE,
				   "node operation %u\n", op);
		return;
	}
	n->enabled = hdr & IRDMA_CQP_WS_QW3_ENABLE;
	n->tc = FIELD_GET(IRDMA_CQP_WS_QW3_TC, hdr);
	n->prio_type = FIELD_GET(IRDMA_CQP_WS_QW3_PRIOTYPE, hdr);
	n->weight = FIELD_GET(IRDMA_CQP_WS_QW4_WEIGHT, qw4);
	n->vsi = FIELD_GET(IRDMA_CQP_WS_QW4_VSI, qw4);
	if (n->leaf)
		cmd->op_ret = n->qs_handle;
}

/**
 * irdma_sim_op_push_pages() - MANAGE_PUSH_PAGES
 * @sim: instance
 * @cmd: command
 *
 * The model offers no push pages: an allocation succeeds with the op
 * return value IRDMA_SIM_NO_PUSH_PAGE (no page); freeing a page fails.
 */
void irdma_sim_op_push_pages(struct irdma_sim *sim, struct irdma_sim_cmd *cmd)
{
	u64 hdr = irdma_sim_qw(cmd, IRDMA_CQP_WQE_HDR);

	if (hdr & IRDMA_CQP_PUSH_QW3_FREE) {
		irdma_sim_cmd_fail(sim, cmd, IRDMA_SIM_CQP_MINOR_BAD_ID,
				   "push page %llu was never allocated\n",
				   FIELD_GET(IRDMA_CQP_PUSH_QW3_IDX, hdr));
		return;
	}
	cmd->op_ret = IRDMA_SIM_NO_PUSH_PAGE;
}

/**
 * irdma_sim_op_manage_stats() - MANAGE_STATS: allocate or free an instance
 * @sim: instance
 * @cmd: command; an allocation returns the instance as op return value
 */
void irdma_sim_op_manage_stats(struct irdma_sim *sim, struct irdma_sim_cmd *cmd)
{
	u64 hdr = irdma_sim_qw(cmd, IRDMA_CQP_WQE_HDR);
	u64 qw5 = irdma_sim_qw(cmd, IRDMA_CQP_STATS_QW5);
	u32 inst = FIELD_GET(IRDMA_CQP_STATS_QW3_INST, hdr);

	if ((hdr & IRDMA_CQP_STATS_QW3_USE_FN_ID) &&
	    !irdma_sim_fn_id_ok(sim, cmd,
				FIELD_GET(IRDMA_CQP_STATS_QW5_HMC_FN_ID, qw5)))
		return;
	if (hdr & IRDMA_CQP_STATS_QW3_ALLOC) {
		inst = find_first_zero_bit(sim->stats_insts,
					   IRDMA_SIM_STATS_INSTS);
		if (inst >= IRDMA_SIM_STATS_INSTS) {
			irdma_sim_cmd_fail(sim, cmd, IRDMA_SIM_CQP_MINOR_NO_RESOURCE,
					   "no statistics instance left\n");
			return;
		}
		__set_bit(inst, sim->stats_insts);
		cmd->op_ret = inst;
		return;
	}
	if (!__test_and_clear_bit(inst, sim->stats_insts))
		irdma_sim_cmd_fail(sim, cmd, IRDMA_SIM_CQP_MINOR_BAD_ID,
				   "statistics instance %u is not allocated\n",
				   inst);
}

/* the counters the model keeps; the rest of the buffer reads zero */
static const enum irdma_gstat irdma_sim_gstats[] = {
	IRDMA_GSTAT_IP4_RX_OCTETS, IRDMA_GSTAT_IP4_RX_PKTS,
	IRDMA_GSTAT_IP4_RX_DISCARD, IRDMA_GSTAT_IP6_RX_OCTETS,
	IRDMA_GSTAT_IP6_RX_PKTS, IRDMA_GSTAT_IP4_TX_OCTETS,
	IRDMA_GSTAT_IP4_TX_PKTS, IRDMA_GSTAT_IP6_TX_OCTETS,
	IRDMA_GSTAT_IP6_TX_PKTS, IRDMA_GSTAT_IP4_TX_NO_ROUTE,
	IRDMA_GSTAT_IP6_TX_NO_ROUTE, IRDMA_GSTAT_TCP_RX_SEGS,
	IRDMA_GSTAT_TCP_TX_SEGS, IRDMA_GSTAT_TCP_RETX_SEGS,
	IRDMA_GSTAT_RDMA_RX_WRITES, IRDMA_GSTAT_RDMA_RX_READS,
	IRDMA_GSTAT_RDMA_RX_SENDS, IRDMA_GSTAT_RDMA_TX_WRITES,
	IRDMA_GSTAT_RDMA_TX_READS, IRDMA_GSTAT_RDMA_TX_SENDS,
	IRDMA_GSTAT_RDMA_INVALIDATES,
};

/**
 * irdma_sim_gstat_advance() - move every counter the model keeps forward
 * @sim: instance
 * @n: amount
 *
 * For tests of the reader's wrap handling: a counter brought close to
 * its width wraps with the next traffic.
 */
void irdma_sim_gstat_advance(struct irdma_sim *sim, u64 n)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(irdma_sim_gstats); i++)
		irdma_sim_gstat_add(sim, irdma_sim_gstats[i], n);
}

/**
 * irdma_sim_op_gather_stats() - GATHER_STATS: dump counters to host memory
 * @sim: instance
 * @cmd: command
 *
 * Writes each counter the model keeps at its place, cut to its width as
 * the adapter's wrapping counters are; the function's counters whether
 * the command names the function or one of its statistics instances.
 */
void irdma_sim_op_gather_stats(struct irdma_sim *sim, struct irdma_sim_cmd *cmd)
{
	u64 hdr = irdma_sim_qw(cmd, IRDMA_CQP_WQE_HDR);
	u64 qw5 = irdma_sim_qw(cmd, IRDMA_CQP_STATS_QW5);
	u32 inst = FIELD_GET(IRDMA_CQP_STATS_QW3_INST, hdr);
	u64 pa = irdma_sim_qw(cmd, IRDMA_CQP_STATS_BUF_PA);
	unsigned int i;
	u8 *buf;

	if ((hdr & IRDMA_CQP_STATS_QW3_USE_FN_ID) &&
	    !irdma_sim_fn_id_ok(sim, cmd,
				FIELD_GET(IRDMA_CQP_STATS_QW5_HMC_FN_ID, qw5)))
		return;
	if ((hdr & IRDMA_CQP_STATS_QW3_USE_INST) &&
	    !test_bit(inst, sim->stats_insts)) {
		irdma_sim_cmd_fail(sim, cmd, IRDMA_SIM_CQP_MINOR_BAD_ID,
				   "statistics instance %u is not allocated\n",
				   inst);
		return;
	}
	buf = IS_ALIGNED(pa, sizeof(u64)) ?
		irdma_sim_dma_va(sim, pa, IRDMA_GSTAT_LEN) : NULL;
	if (!buf) {
		irdma_sim_cmd_fail(sim, cmd, IRDMA_SIM_CQP_MINOR_BAD_ADDR,
				   "buffer %#llx not in RAM\n", pa);
		return;
	}
	memset(buf, 0, IRDMA_GSTAT_LEN);
	for (i = 0; i < ARRAY_SIZE(irdma_sim_gstats); i++) {
		u32 code = irdma_sim_gstats[i];
		u32 off = FIELD_GET(IRDMA_GSTAT_OFFSET, code);
		u64 v = atomic64_read(&sim->gstat[off / 4]);

		if (code & IRDMA_GSTAT_W32)
			put_unaligned_le32(lower_32_bits(v), buf + off);
		else
			put_unaligned_le64(v & GENMASK_ULL(47, 0), buf + off);
	}
}

/**
 * irdma_sim_op_query_features() - QUERY_RDMA_FEATURES
 * @sim: instance
 * @cmd: command
 *
 * Three features: FW info (type 0, carrying the count), HW version
 * (type 1) and the number of queue sets (type 26).  Entries that do not
 * fit the buffer are left out; the count tells the driver.
 */
void irdma_sim_op_query_features(struct irdma_sim *sim,
				 struct irdma_sim_cmd *cmd)
{
	u32 len = FIELD_GET(IRDMA_CQP_FEAT_QW3_BUF_LEN,
			    irdma_sim_qw(cmd, IRDMA_CQP_WQE_HDR));
	u64 pa = irdma_sim_qw(cmd, IRDMA_CQP_FEAT_BUF_PA);
	u64 feat[3];
	__le64 *buf;
	u32 i, n;

	feat[0] = FIELD_PREP(IRDMA_FEAT_TYPE, IRDMA_FEAT_TYPE_FW_INFO) |
		  FIELD_PREP(IRDMA_FEAT_QW0_COUNT, ARRAY_SIZE(feat)) |
		  FIELD_PREP(IRDMA_FEAT_FW_MAJOR, IRDMA_SIM_FW_MAJOR) |
		  FIELD_PREP(IRDMA_FEAT_FW_MINOR, IRDMA_SIM_FW_MINOR);
	feat[1] = FIELD_PREP(IRDMA_FEAT_TYPE, IRDMA_FEAT_TYPE_HW_VERSION) |
		  FIELD_PREP(IRDMA_FEAT_INFO, IRDMA_GEN_2);
	feat[2] = FIELD_PREP(IRDMA_FEAT_TYPE, IRDMA_FEAT_TYPE_MAX_QSETS) |
		  FIELD_PREP(IRDMA_FEAT_INFO, IRDMA_SIM_MAX_QSETS);

	n = min_t(u32, len / sizeof(u64), ARRAY_SIZE(feat));
	buf = n && IS_ALIGNED(pa, sizeof(u64)) ?
		irdma_sim_dma_va(sim, pa, n * sizeof(u64)) : NULL;
	if (!buf) {
		irdma_sim_cmd_fail(sim, cmd, IRDMA_SIM_CQP_MINOR_BAD_ADDR,
				   "buffer %#llx (%u bytes) not usable\n", pa,
				   len);
		return;
	}
	for (i = 0; i < n; i++)
		buf[i] = cpu_to_le64(feat[i]);
}

/**
 * irdma_sim_op_up_map() - UP_MAP: record the user-priority map
 * @sim: instance
 * @cmd: command
 */
void irdma_sim_op_up_map(struct irdma_sim *sim, struct irdma_sim_cmd *cmd)
{
	sim->up_map = irdma_sim_qw(cmd, IRDMA_CQP_UP_MAP_PRIOS);
}

/**
 * irdma_sim_op_nop() - NOP
 * @sim: instance
 * @cmd: command
 */
void irdma_sim_op_nop(struct irdma_sim *sim, struct irdma_sim_cmd *cmd)
{
}

/* ------------------------------------------------------------------------ */
/* Tables                                                                   */
/* ------------------------------------------------------------------------ */

/**
 * irdma_sim_res_init() - allocate the fixed-size tables
 * @sim: new instance
 *
 * Return: 0 or -ENOMEM (nothing left allocated).
 */
int irdma_sim_res_init(struct irdma_sim *sim)
{
	sim->apbvt = bitmap_zalloc(IRDMA_SIM_APBVT_PORTS, GFP_KERNEL);
	sim->ws = kcalloc(IRDMA_SIM_WS_NODES, sizeof(*sim->ws), GFP_KERNEL);
	if (!sim->apbvt || !sim->ws) {
		bitmap_free(sim->apbvt);
		kfree(sim->ws);
		sim->apbvt = NULL;
		sim->ws = NULL;
		return -ENOMEM;
	}
	return 0;
}

/**
 * irdma_sim_res_purge() - forget every object kept in this file
 * @sim: instance whose CQP generation moved on, or that is being deleted
 *
 * Context: the CQP worker, or teardown after processing stopped.
 */
void irdma_sim_res_purge(struct irdma_sim *sim)
{
	struct irdma_sim_qhash *e;
	struct irdma_sim_arp *arp;
	struct irdma_sim_qp *qp;
	struct irdma_sim_mr *mr;
	struct irdma_sim_ah *ah;
	struct hlist_node *tmp;
	unsigned long flags, idx;
	int bkt;

	xa_for_each(&sim->qps, idx, qp) {
		irdma_sim_iw_destroy(sim, qp);
		spin_lock_irqsave(&sim->lock, flags);
		qp->live = false;
		irdma_sim_uda_unlink(sim, qp);
		spin_unlock_irqrestore(&sim->lock, flags);
		xa_erase(&sim->qps, idx);
		kfree_rcu(qp, rcu);
	}
	xa_for_each(&sim->mrs, idx, mr) {
		spin_lock_irqsave(&sim->lock, flags);
		mr->live = false;
		spin_unlock_irqrestore(&sim->lock, flags);
		xa_erase(&sim->mrs, idx);
		kfree_rcu(mr, rcu);
	}
	xa_for_each(&sim->ahs, idx, ah) {
		spin_lock_irqsave(&sim->lock, flags);
		ah->live = false;
		spin_unlock_irqrestore(&sim->lock, flags);
		xa_erase(&sim->ahs, idx);
		kfree_rcu(ah, rcu);
	}

	spin_lock_irqsave(&sim->lock, flags);
	hash_for_each_safe(sim->qhash, bkt, tmp, e, node)
		irdma_sim_qhash_free(sim, e);
	arp = sim->arp;
	sim->arp = NULL;
	sim->narp = 0;
	if (sim->apbvt)
		bitmap_zero(sim->apbvt, IRDMA_SIM_APBVT_PORTS);
	spin_unlock_irqrestore(&sim->lock, flags);
	kvfree(arp);

	if (sim->ws)
		memset(sim->ws, 0, IRDMA_SIM_WS_NODES * sizeof(*sim->ws));
	bitmap_zero(sim->qsets, IRDMA_SIM_MAX_QSETS);
	bitmap_zero(sim->stats_insts, IRDMA_SIM_STATS_INSTS);
	sim->up_map = 0;
}

/**
 * irdma_sim_res_fini() - free the tables of an instance
 * @sim: instance being deleted, processing stopped
 */
void irdma_sim_res_fini(struct irdma_sim *sim)
{
	irdma_sim_res_purge(sim);
	bitmap_free(sim->apbvt);
	kfree(sim->ws);
	sim->apbvt = NULL;
	sim->ws = NULL;
	xa_destroy(&sim->qps);
	xa_destroy(&sim->mrs);
	xa_destroy(&sim->ahs);
	xa_destroy(&sim->cqs);
}
