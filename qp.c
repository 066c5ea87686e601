// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * irdma - queue pairs: the verbs (create, modify, query, destroy) and the
 * QP half of the hardware layer the connection manager calls (lookup,
 * references, offload of a connection, close, reset, flush).
 *
 * A user QP's SQ, RQ and shadow area are one buffer libirdma registered
 * with REG_MR (type QP) just before create_qp.  libirdma reserves the
 * first three SQ quanta for the connection WQEs (lsmm = 1 with the
 * RTS_AE feature); the offload writes them: the LSMM carrying the MPA
 * reply (passive side) or the RTR (active side), a fenced NOP, and the
 * WQE that makes the adapter raise the "connection established" AE.
 */
#include <linux/etherdevice.h>
#include <linux/if_vlan.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/tcp.h>
#include <linux/highmem.h>
#include <linux/log2.h>
#include <asm/unaligned.h>
#include <rdma/ib_umem.h>
#include <rdma/irdma-abi.h>
#include <rdma/uverbs_ioctl.h>

#include "irdma.h"
#include "ctrl.h"
#include "hw_trace.h"
#include "wqe.h"

#define IRDMA_Q2CTX_SIZE	(IRDMA_Q2_BUF_SIZE + IRDMA_QP_CTX_SIZE)
#define IRDMA_QP_CAP_WRITE_IMM	BIT(0)

/**
 * irdma_wqe_shift() - WQE size, as a shift of 32-byte quanta, libirdma
 * uses for a fragment count and an inline size (GEN_2)
 * @frags: fragments (for the SQ: SGEs + 1)
 * @inline_data: inline bytes
 *
 * Return: 0..3 (32, 64, 128 or 256-byte WQEs).
 */
static u8 irdma_wqe_shift(u32 frags, u32 inline_data)
{
	if (frags <= 1 && inline_data <= 8)
		return 0;
	if (frags < 4 && inline_data <= 39)
		return 1;
	if (frags < 8 && inline_data <= 101)
		return 2;
	return 3;
}

/**
 * irdma_qp_ctx() - the QP host context inside its Q2 allocation
 * @iwqp: QP
 *
 * Return: the context.
 */
static struct irdma_qp_ctx *irdma_qp_ctx(struct irdma_qp *iwqp)
{
	return iwqp->q2ctx.va + IRDMA_Q2_BUF_SIZE;
}

/**
 * irdma_qp_ctx_pa() - DMA address of the QP host context
 * @iwqp: QP
 *
 * Return: the address.
 */
static dma_addr_t irdma_qp_ctx_pa(struct irdma_qp *iwqp)
{
	return iwqp->q2ctx.pa + IRDMA_Q2_BUF_SIZE;
}

/**
 * irdma_qp_fill_ctx() - the QP's host context, for CREATE_QP
 * @iwqp: QP with its rings, CQs and PD set
 *
 * The connection's words are added at offload (irdma_qpc_conn()).
 */
static void irdma_qp_fill_ctx(struct irdma_qp *iwqp)
{
	struct irdma_qpc_params p = {
		.sq_pa = iwqp->sq_pbl.level ? iwqp->sq_pbl.first :
					      iwqp->sq_pbl.pa,
		.rq_pa = iwqp->rq_pbl.level ? iwqp->rq_pbl.first :
					      iwqp->rq_pbl.pa,
		.sq_quanta = iwqp->sq_quanta,
		.rq_quanta = iwqp->rq_quanta,
		.rq_shift = iwqp->rq_shift,
		.pd_id = iwqp->pd_id,
		.send_cq = iwqp->send_cq,
		.recv_cq = iwqp->recv_cq,
		.q2_pa = iwqp->q2ctx.pa,
		.mac = iwqp->iwdev->netdev->dev_addr,
		.compl_ctx = iwqp->compl_ctx,
		.wr_en = iwqp->wr_en,
		.rd_en = iwqp->rd_en,
		/* kernel QPs: STag 0 addresses DMA memory; fast registration */
		.priv = !!iwqp->k,
	};

	irdma_qpc_iwarp(iwqp->iwdev->rf, irdma_qp_ctx(iwqp), &p);
}

/**
 * irdma_qp_cmd_params() - CQP QP command parameters of a QP
 * @iwqp: QP
 * @p: filled in with what every command carries
 */
static void irdma_qp_cmd_params(struct irdma_qp *iwqp,
				struct irdma_qp_cmd_params *p)
{
	*p = (struct irdma_qp_cmd_params){
		.qp_id = iwqp->id,
		.qp_type = IRDMA_QP_TYPE_IWARP,
		.ctx_pa = irdma_qp_ctx_pa(iwqp),
		.shadow_pa = iwqp->shadow_pa,
		.virtual_map = iwqp->sq_pbl.level || iwqp->rq_pbl.level,
	};
}

/**
 * irdma_qp_set_hw_state() - record the state the adapter accepted
 * @iwqp: QP
 * @state: enum irdma_qp_state_hw
 *
 * Emits the irdma_qp_state tracepoint.
 *
 * Context: iwqp->state_lock held, or the QP not yet visible.
 */
static void irdma_qp_set_hw_state(struct irdma_qp *iwqp, u8 state)
{
	trace_irdma_qp_state(&iwqp->iwdev->ibdev.dev, iwqp->id, iwqp->hw_state,
			     state);
	iwqp->hw_state = state;
}

/**
 * irdma_qp_modify_hw() - MODIFY_QP to a new state
 * @iwqp: QP
 * @state: enum irdma_qp_state_hw
 * @reset: send a TCP RST (with @state ERROR)
 *
 * Context: process context, may sleep; iwqp->state_lock held.
 * Return: 0 or a negative errno.
 */
static int irdma_qp_modify_hw(struct irdma_qp *iwqp, u8 state, bool reset)
{
	struct irdma_qp_cmd_params p;
	int ret;

	lockdep_assert_held(&iwqp->state_lock);
	irdma_qp_cmd_params(iwqp, &p);
	p.next_state = state;
	p.cq_num_valid = true;
	p.arp_valid = test_bit(IRDMA_QP_OFFLOADED, &iwqp->flags);
	p.reset_con = reset;
	p.remove_hash = state == IRDMA_QPS_ERROR;
	if (state == IRDMA_QPS_TERMINATE) {
		/* the adapter sends what irdma_qp_term_build() left in Q2 */
		p.term_act = IRDMA_TERM_SEND_TERM_ONLY;
		p.term_len = READ_ONCE(iwqp->term_len);
	}
	ret = irdma_cqp_qp_cmd(iwqp->iwdev->rf, IRDMA_CQP_OP_MODIFY_QP, &p);
	if (!ret)
		irdma_qp_set_hw_state(iwqp, state);
	return ret;
}

/**
 * irdma_qp_to_error() - move a QP to ERROR and flush its queues
 * @iwqp: QP
 *
 * A connected QP resets its connection; either way its posted work
 * requests complete with flush errors.
 *
 * Context: iwqp->state_lock held.
 * Return: 0 or a negative errno.
 */
static int irdma_qp_to_error(struct irdma_qp *iwqp)
{
	bool connected = iwqp->hw_state == IRDMA_QPS_RTS ||
			 iwqp->hw_state == IRDMA_QPS_CLOSING ||
			 iwqp->hw_state == IRDMA_QPS_TERMINATE;
	int ret;

	lockdep_assert_held(&iwqp->state_lock);
	if (test_and_set_bit(IRDMA_QP_ERROR, &iwqp->flags))
		return 0;
	ret = irdma_qp_modify_hw(iwqp, IRDMA_QPS_ERROR, connected);
	if (ret)
		return ret;
	ret = irdma_cqp_flush_wqes(iwqp->iwdev->rf, iwqp->id, true, true,
				   IRDMA_FLUSH_GENERAL_ERR);
	if (!ret)
		irdma_kqp_flushed(iwqp);
	return ret;
}

/**
 * irdma_qp_setup_user() - find and map the buffer libirdma registered
 * @iwqp: QP with its ring sizes set
 * @ucontext: the creating context
 * @va: user_wqe_bufs
 *
 * SQ pages first, then RQ pages, then the shadow area at the start of the
 * next page.  If either ring needs a page list, both are given as page
 * lists (the QP has one "virtual map" bit).
 *
 * Return: 0 or a negative errno.
 */
static int irdma_qp_setup_user(struct irdma_qp *iwqp,
			       struct irdma_ucontext *ucontext, u64 va)
{
	struct irdma_pci_f *rf = iwqp->iwdev->rf;
	struct irdma_ubuf *ubuf;
	bool force;
	int ret;

	ubuf = irdma_ubuf_take(ucontext, va, IRDMA_MEMREG_TYPE_QP);
	if (!ubuf)
		return -EINVAL;
	iwqp->ubuf = ubuf;
	if ((u64)iwqp->sq_quanta * IRDMA_WQE_QUANTUM >
	    (u64)ubuf->sq_pages * PAGE_SIZE ||
	    (u64)iwqp->rq_quanta * IRDMA_WQE_QUANTUM >
	    (u64)ubuf->rq_pages * PAGE_SIZE)
		return -EINVAL;
	iwqp->shadow_pa = irdma_umem_page_dma(ubuf->umem,
					      ubuf->sq_pages + ubuf->rq_pages);
	if (!iwqp->shadow_pa)
		return -EINVAL;
	for (force = false;; force = true) {
		ret = irdma_pbl_from_umem(rf, ubuf->umem, PAGE_SIZE, 0,
					  ubuf->sq_pages, force, &iwqp->sq_pbl);
		if (ret)
			return ret;
		ret = irdma_pbl_from_umem(rf, ubuf->umem, PAGE_SIZE,
					  ubuf->sq_pages, ubuf->rq_pages, force,
					  &iwqp->rq_pbl);
		if (ret)
			return ret;
		if (force || iwqp->sq_pbl.level == iwqp->rq_pbl.level)
			return 0;
		irdma_pbl_free(rf, &iwqp->sq_pbl);
		irdma_pbl_free(rf, &iwqp->rq_pbl);
	}
}

/**
 * irdma_qp_release_user() - give the user buffer back to its registration
 * @iwqp: QP
 * @ucontext: its context
 */
static void irdma_qp_release_user(struct irdma_qp *iwqp,
				  struct irdma_ucontext *ucontext)
{
	struct irdma_pci_f *rf = iwqp->iwdev->rf;

	irdma_pbl_free(rf, &iwqp->sq_pbl);
	irdma_pbl_free(rf, &iwqp->rq_pbl);
	if (iwqp->ubuf)
		irdma_ubuf_put(ucontext, iwqp->ubuf);
	iwqp->ubuf = NULL;
}

/**
 * irdma_qp_setup_kernel() - rings of a kernel QP, in driver memory
 * @iwqp: QP
 * @attr: capabilities; the depths granted are written back
 *
 * The same sizing rules as libirdma's: power-of-two rings in quanta, 258
 * SQ quanta kept free, plus the three connection WQEs at the SQ's start.
 * Kernel QPs carry no inline data.
 *
 * Return: 0 or a negative errno.
 */
static int irdma_qp_setup_kernel(struct irdma_qp *iwqp,
				 struct ib_qp_init_attr *attr)
{
	struct irdma_pci_f *rf = iwqp->iwdev->rf;
	u32 sq_shift = irdma_wqe_shift(attr->cap.max_send_sge + 1, 0);
	u32 sq_need = (attr->cap.max_send_wr << sq_shift) + IRDMA_SQ_RSVD +
		      IRDMA_CONN_WQES;
	u32 rq_need, sq_bytes, rq_bytes;
	struct irdma_kqp *k;
	int ret;

	iwqp->rq_shift = irdma_wqe_shift(attr->cap.max_recv_sge, 0);
	rq_need = (attr->cap.max_recv_wr + IRDMA_RQ_RSVD) << iwqp->rq_shift;
	iwqp->sq_quanta = roundup_pow_of_two(max_t(u32, sq_need, 8 << sq_shift));
	iwqp->rq_quanta = roundup_pow_of_two(max_t(u32, rq_need,
						   8 << iwqp->rq_shift));
	if (iwqp->sq_quanta > IRDMA_GEN2_MAX_WQ_QUANTA ||
	    iwqp->rq_quanta > IRDMA_GEN2_MAX_RQ_QUANTA)
		return -EINVAL;
	k = kzalloc(sizeof(*k), GFP_KERNEL);
	if (!k)
		return -ENOMEM;
	iwqp->k = k;
	k->iwqp = iwqp;
	INIT_LIST_HEAD(&k->sq_flush);
	INIT_LIST_HEAD(&k->rq_flush);
	spin_lock_init(&k->lock);
	k->sq_size = iwqp->sq_quanta;
	k->rq_size = iwqp->rq_quanta >> iwqp->rq_shift;
	k->sq_wrs = kcalloc(k->sq_size, sizeof(*k->sq_wrs), GFP_KERNEL);
	k->rq_wrids = kcalloc(k->rq_size, sizeof(*k->rq_wrids), GFP_KERNEL);
	if (!k->sq_wrs || !k->rq_wrids)
		return -ENOMEM;
	sq_bytes = ALIGN(k->sq_size * IRDMA_WQE_QUANTUM, PAGE_SIZE);
	rq_bytes = ALIGN(iwqp->rq_quanta * IRDMA_WQE_QUANTUM, PAGE_SIZE);
	ret = irdma_dma_alloc(rf, &k->mem, sq_bytes + rq_bytes +
			      IRDMA_QP_SHADOW_SIZE, PAGE_SIZE);
	if (ret)
		return ret;
	k->sq = k->mem.va;
	k->rq = k->mem.va + sq_bytes;
	iwqp->sq_pbl.pa = k->mem.pa;
	iwqp->rq_pbl.pa = k->mem.pa + sq_bytes;
	iwqp->shadow_pa = k->mem.pa + sq_bytes + rq_bytes;
	/* the connection WQEs come first; the first lap is valid = 1 */
	k->sq_head = IRDMA_CONN_WQES;
	k->sq_tail = IRDMA_CONN_WQES;
	k->sq_pol = 1;
	k->rq_pol = 1;
	k->sig_all = attr->sq_sig_type == IB_SIGNAL_ALL_WR;
	attr->cap.max_send_wr = (k->sq_size - IRDMA_SQ_RSVD - IRDMA_CONN_WQES) >>
				sq_shift;
	attr->cap.max_recv_wr = k->rq_size - IRDMA_RQ_RSVD;
	attr->cap.max_inline_data = 0;
	return 0;
}

/**
 * irdma_qp_release_kernel() - free a kernel QP's rings
 * @iwqp: QP
 */
static void irdma_qp_release_kernel(struct irdma_qp *iwqp)
{
	struct irdma_kqp *k = iwqp->k;

	if (!k)
		return;
	irdma_dma_free(iwqp->iwdev->rf, &k->mem);
	kfree(k->sq_wrs);
	kfree(k->rq_wrids);
	kfree(k);
	iwqp->k = NULL;
}

/**
 * irdma_create_qp() - create an iWARP RC QP
 * @ibqp: the QP to initialise
 * @attr: capabilities and CQs
 * @udata: libirdma's struct irdma_create_qp_req / irdma_create_qp_resp,
 *	or NULL for a kernel QP
 *
 * libirdma sends its ring depths already rounded (cap.max_send_wr/
 * max_recv_wr in WQEs of its chosen size); they come back unchanged.
 * Kernel QPs get rings in driver memory and the depths granted.
 *
 * Return: 0 or a negative errno.
 */
int irdma_create_qp(struct ib_qp *ibqp, struct ib_qp_init_attr *attr,
		    struct ib_udata *udata)
{
	struct irdma_qp *iwqp = to_iwqp(ibqp);
	struct irdma_device *iwdev = to_iwdev(ibqp->device);
	struct irdma_pci_f *rf = iwdev->rf;
	struct irdma_create_qp_resp resp = {};
	struct irdma_create_qp_req req = {};
	struct irdma_ucontext *ucontext;
	struct irdma_qp_cmd_params p;
	u32 sq_shift, max_quanta;
	int id, ret;

	if (attr->qp_type != IB_QPT_RC)
		return -EOPNOTSUPP;
	if (attr->srq || attr->create_flags)
		return -EOPNOTSUPP;
	if (attr->cap.max_send_sge > IRDMA_GEN2_MAX_WQ_FRAGS ||
	    attr->cap.max_recv_sge > IRDMA_GEN2_MAX_WQ_FRAGS ||
	    attr->cap.max_inline_data > IRDMA_GEN2_MAX_INLINE)
		return -EINVAL;
	ucontext = rdma_udata_to_drv_context(udata, struct irdma_ucontext,
					     ibucontext);
	if (udata) {
		if (udata->inlen < sizeof(req) || udata->outlen < sizeof(resp))
			return -EINVAL;
		ret = ib_copy_from_udata(&req, udata, sizeof(req));
		if (ret)
			return ret;
		/* libirdma sends ring depths in WQEs of its chosen size */
		sq_shift = irdma_wqe_shift(attr->cap.max_send_sge + 1,
					   attr->cap.max_inline_data);
		iwqp->rq_shift = irdma_wqe_shift(attr->cap.max_recv_sge, 0);
		iwqp->sq_quanta = attr->cap.max_send_wr << sq_shift;
		iwqp->rq_quanta = attr->cap.max_recv_wr << iwqp->rq_shift;
		max_quanta = IRDMA_GEN2_MAX_WQ_QUANTA;
		if (!is_power_of_2(iwqp->sq_quanta) ||
		    !is_power_of_2(iwqp->rq_quanta) ||
		    iwqp->sq_quanta < 8 || iwqp->rq_quanta < 8 ||
		    iwqp->sq_quanta > max_quanta || iwqp->rq_quanta > max_quanta)
			return -EINVAL;
	}

	iwqp->iwdev = iwdev;
	iwqp->pd_id = container_of(ibqp->pd, struct irdma_pd, ibpd)->pd_id;
	iwqp->send_cq = container_of(attr->send_cq, struct irdma_cq, ibcq)->id;
	iwqp->recv_cq = container_of(attr->recv_cq, struct irdma_cq, ibcq)->id;
	iwqp->compl_ctx = udata ? req.user_compl_ctx : 0;
	/* an iWARP QP starts idle, which the verbs call INIT */
	iwqp->ib_state = IB_QPS_INIT;
	/*
	 * remote reads and writes allowed until a modify with access flags
	 * says otherwise (as the adapter's own driver does: librdmacm never
	 * sets access flags on an iWARP QP; the MRs' rights still apply)
	 */
	iwqp->rd_en = true;
	iwqp->wr_en = true;
	refcount_set(&iwqp->refcnt, 1);	/* the QP table's */
	init_completion(&iwqp->free);
	mutex_init(&iwqp->state_lock);

	id = ida_alloc_range(&rf->qp_ida, IRDMA_FIRST_USER_QP_ID, rf->max_qp - 1,
			     GFP_KERNEL);
	if (id < 0)
		return id;
	iwqp->id = id;
	ibqp->qp_num = id;
	ret = irdma_dma_alloc(rf, &iwqp->q2ctx, IRDMA_Q2CTX_SIZE, 256);
	if (ret)
		goto err_free_id;
	if (udata) {
		ret = irdma_qp_setup_user(iwqp, ucontext, req.user_wqe_bufs);
	} else {
		ret = irdma_qp_setup_kernel(iwqp, attr);
		/* kernel CQEs name their QP by id */
		iwqp->compl_ctx = iwqp->id;
	}
	if (ret)
		goto err_release;
	irdma_qp_fill_ctx(iwqp);

	irdma_qp_cmd_params(iwqp, &p);
	p.next_state = IRDMA_QPS_IDLE;
	p.mac_valid = true;
	p.cq_num_valid = true;
	ret = irdma_cqp_qp_cmd(rf, IRDMA_CQP_OP_CREATE_QP, &p);
	if (ret)
		goto err_release;
	set_bit(IRDMA_QP_CREATED, &iwqp->flags);
	irdma_qp_set_hw_state(iwqp, IRDMA_QPS_IDLE);
	iwqp->cap = attr->cap;
	if (udata) {
		resp.qp_id = iwqp->id;
		resp.actual_sq_size = attr->cap.max_send_wr;
		resp.actual_rq_size = attr->cap.max_recv_wr;
		resp.lsmm = 1;
		resp.qp_caps = IRDMA_QP_CAP_WRITE_IMM;
		ret = ib_copy_to_udata(udata, &resp,
				       min(sizeof(resp), udata->outlen));
		if (ret)
			goto err_destroy;
	}
	/*
	 * Published last: iw_cm finds a QP by a number user space chooses
	 * (rdma_connect() names one before this call returns), so a QP that
	 * can still fail here must not be found.
	 */
	ret = xa_insert_irq(&rf->qp_table, iwqp->id, iwqp, GFP_KERNEL);
	if (ret)
		goto err_destroy;
	return 0;

err_destroy:
	irdma_qp_cmd_params(iwqp, &p);
	if (irdma_cqp_qp_cmd(rf, IRDMA_CQP_OP_DESTROY_QP, &p)) {
		/* the adapter still has it: leave everything to it */
		irdma_dma_leak(rf, &iwqp->q2ctx, -EIO);
		return ret;
	}
err_release:
	if (ucontext)
		irdma_qp_release_user(iwqp, ucontext);
	irdma_qp_release_kernel(iwqp);
	irdma_dma_free(rf, &iwqp->q2ctx);
err_free_id:
	ida_free(&rf->qp_ida, iwqp->id);
	return ret;
}

/**
 * irdma_modify_qp() - change a QP's state or attributes
 * @ibqp: QP
 * @attr: new attributes
 * @mask: IB_QP_* attributes to change
 * @udata: libirdma's struct irdma_modify_qp_req (re-flush requests) and
 *	an optional 24-byte response
 *
 * iWARP: INIT and RTR are accepted (repeatedly) before the connection;
 * RTS comes only from the CM; SQD closes the connection gracefully; ERR
 * resets it and flushes the queues (again, on request, if already there).
 * A kernel QP's access flags may change until the connection is
 * offloaded (a change after that is refused with -EOPNOTSUPP); a user QP's
 * only add rights, for librdmacm's sake.
 *
 * Return: 0 or a negative errno.
 */
int irdma_modify_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr, int mask,
		    struct ib_udata *udata)
{
	struct irdma_qp *iwqp = to_iwqp(ibqp);
	struct irdma_modify_qp_resp resp = {};
	struct irdma_modify_qp_req req = {};
	enum ib_qp_state state;
	int ret = 0;

	if (mask & ~IB_QP_ATTR_STANDARD_BITS)
		return -EOPNOTSUPP;
	if (udata && udata->inlen) {
		ret = ib_copy_from_udata(&req, udata, min(sizeof(req),
							  udata->inlen));
		if (ret)
			return ret;
	}
	mutex_lock(&iwqp->state_lock);
	if (mask & IB_QP_ACCESS_FLAGS) {
		/*
		 * One context bit allows inbound RDMA Writes and Read
		 * Responses (so local write, for a Read's sink, sets it too);
		 * another allows inbound Read Requests.  The adapter reads
		 * them when the connection is offloaded: after that they
		 * cannot change.
		 */
		bool rd = attr->qp_access_flags & IB_ACCESS_REMOTE_READ;
		bool wr = attr->qp_access_flags &
			  (IB_ACCESS_REMOTE_WRITE | IB_ACCESS_LOCAL_WRITE);

		/*
		 * librdmacm moves the active side's QP to INIT with no
		 * access flags (rdma_cm has no iWARP connection to ask yet)
		 * and never sets them again, while its users expect RDMA
		 * Reads and Writes to reach the QP: a user QP's flags only
		 * add rights (it has them all from creation).  Kernel
		 * rdma_cm sets them again when it connects, so a kernel
		 * QP's are taken as they are.
		 */
		if (!iwqp->k) {
			rd |= iwqp->rd_en;
			wr |= iwqp->wr_en;
		}
		if (test_bit(IRDMA_QP_OFFLOADED, &iwqp->flags) &&
		    (rd != iwqp->rd_en || wr != iwqp->wr_en)) {
			ret = -EOPNOTSUPP;
			goto out;
		}
		iwqp->rd_en = rd;
		iwqp->wr_en = wr;
	}
	if (!(mask & IB_QP_STATE))
		goto out;
	state = attr->qp_state;
	switch (state) {
	case IB_QPS_INIT:
	case IB_QPS_RTR:
		if (iwqp->ib_state > IB_QPS_RTR) {
			ret = -EINVAL;
			break;
		}
		iwqp->ib_state = state;
		break;
	case IB_QPS_RTS:
		if (!test_bit(IRDMA_QP_OFFLOADED, &iwqp->flags))
			ret = -EINVAL;	/* only the CM connects a QP */
		else
			iwqp->ib_state = state;
		break;
	case IB_QPS_SQD:
		if (iwqp->hw_state == IRDMA_QPS_RTS) {
			ret = irdma_qp_modify_hw(iwqp, IRDMA_QPS_CLOSING, false);
			if (!ret)
				irdma_cm_disconn(iwqp, 0, IRDMA_TCPS_FIN_WAIT_1);
		}
		if (!ret)
			iwqp->ib_state = state;
		break;
	case IB_QPS_ERR:
	case IB_QPS_RESET:
		if (test_bit(IRDMA_QP_ERROR, &iwqp->flags)) {
			/*
			 * libirdma asks again for work posted since; a
			 * kernel QP's is completed by the driver, and the
			 * consumer is told again.
			 */
			if (req.sq_flush || req.rq_flush)
				ret = irdma_cqp_flush_wqes(iwqp->iwdev->rf,
							   iwqp->id, req.sq_flush,
							   req.rq_flush,
							   IRDMA_FLUSH_GENERAL_ERR);
			else if (iwqp->k)
				irdma_kqp_flushed(iwqp);
		} else {
			bool connected = iwqp->hw_state == IRDMA_QPS_RTS ||
					 iwqp->hw_state == IRDMA_QPS_CLOSING;

			ret = irdma_qp_to_error(iwqp);
			if (!ret && connected)
				irdma_cm_disconn(iwqp, IRDMA_AE_RESET_SENT,
						 IRDMA_TCPS_CLOSED);
		}
		if (!ret)
			iwqp->ib_state = state;
		break;
	default:
		ret = -EOPNOTSUPP;
		break;
	}
out:
	mutex_unlock(&iwqp->state_lock);
	if (!ret && udata && udata->outlen)
		ret = ib_copy_to_udata(udata, &resp, min(sizeof(resp),
							 udata->outlen));
	return ret;
}

/**
 * irdma_query_qp() - report a QP's attributes
 * @ibqp: QP
 * @attr: filled in
 * @mask: attributes asked for
 * @init_attr: filled in
 *
 * Return: 0.
 */
int irdma_query_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr, int mask,
		   struct ib_qp_init_attr *init_attr)
{
	struct irdma_qp *iwqp = to_iwqp(ibqp);

	memset(attr, 0, sizeof(*attr));
	memset(init_attr, 0, sizeof(*init_attr));
	attr->qp_state = iwqp->ib_state;
	attr->cur_qp_state = iwqp->ib_state;
	attr->qp_access_flags = (iwqp->rd_en ? IB_ACCESS_REMOTE_READ : 0) |
				(iwqp->wr_en ? IB_ACCESS_REMOTE_WRITE : 0);
	attr->port_num = 1;
	attr->cap = iwqp->cap;
	init_attr->qp_type = IB_QPT_RC;
	init_attr->send_cq = ibqp->send_cq;
	init_attr->recv_cq = ibqp->recv_cq;
	init_attr->cap = iwqp->cap;
	return 0;
}

/**
 * irdma_destroy_qp() - destroy a QP
 * @ibqp: QP
 * @udata: user data
 *
 * The CM forgets the QP first, a live connection is reset, and the QP
 * waits for every reference (iw_cm, the CM's hw calls, AEs being
 * delivered) before the adapter destroys it.
 *
 * Return: 0.
 */
int irdma_destroy_qp(struct ib_qp *ibqp, struct ib_udata *udata)
{
	struct irdma_qp *iwqp = to_iwqp(ibqp);
	struct irdma_pci_f *rf = iwqp->iwdev->rf;
	struct irdma_ucontext *ucontext =
		rdma_udata_to_drv_context(udata, struct irdma_ucontext,
					  ibucontext);
	struct irdma_qp_cmd_params p;
	int ret;

	irdma_cm_qp_destroy(iwqp);
	mutex_lock(&iwqp->state_lock);
	if (iwqp->hw_state == IRDMA_QPS_RTS || iwqp->hw_state == IRDMA_QPS_CLOSING)
		irdma_qp_to_error(iwqp);
	mutex_unlock(&iwqp->state_lock);

	xa_erase_irq(&rf->qp_table, iwqp->id);
	irdma_qp_put(iwqp);
	wait_for_completion(&iwqp->free);
	/* nothing flushes it any more: the CQs forget it */
	irdma_kqp_forget(iwqp);
	/* pollers of kernel CQs are done with it; its old CQEs are skipped */
	irdma_cq_scrub(to_icq(ibqp->send_cq), iwqp->id);
	irdma_cq_scrub(to_icq(ibqp->recv_cq), iwqp->id);

	irdma_qp_cmd_params(iwqp, &p);
	p.remove_hash = true;
	ret = irdma_cqp_qp_cmd(rf, IRDMA_CQP_OP_DESTROY_QP, &p);
	if (ret) {
		/* the adapter may still use the context and the rings */
		irdma_dma_leak(rf, &iwqp->q2ctx, ret);
		irdma_dma_leak(rf, &iwqp->lsmm, ret);
		if (iwqp->k)
			irdma_dma_leak(rf, &iwqp->k->mem, ret);
		if (ucontext && iwqp->ubuf)
			irdma_ubuf_leak(ucontext, iwqp->ubuf);
		return 0;
	}
	if (iwqp->lsmm_stag &&
	    !irdma_dereg_phys_mr(rf, iwqp->pd_id, iwqp->lsmm_stag))
		irdma_dma_free(rf, &iwqp->lsmm);
	else
		irdma_dma_leak(rf, &iwqp->lsmm, -EBUSY);
	if (ucontext)
		irdma_qp_release_user(iwqp, ucontext);
	irdma_qp_release_kernel(iwqp);
	irdma_dma_free(rf, &iwqp->q2ctx);
	ida_free(&rf->qp_ida, iwqp->id);
	return 0;
}

/**
 * irdma_qp_get() - a QP by number, with a reference
 * @rf: RDMA function
 * @qpn: QP id
 *
 * Context: any.
 * Return: the QP or NULL.
 */
struct irdma_qp *irdma_qp_get(struct irdma_pci_f *rf, u32 qpn)
{
	struct irdma_qp *iwqp;
	unsigned long flags;

	xa_lock_irqsave(&rf->qp_table, flags);
	iwqp = xa_load(&rf->qp_table, qpn);
	if (iwqp && !refcount_inc_not_zero(&iwqp->refcnt))
		iwqp = NULL;
	xa_unlock_irqrestore(&rf->qp_table, flags);
	return iwqp;
}

/**
 * irdma_qp_ref() - take a QP reference
 * @iwqp: QP
 *
 * Context: any.
 */
void irdma_qp_ref(struct irdma_qp *iwqp)
{
	refcount_inc(&iwqp->refcnt);
}

/**
 * irdma_qp_put() - drop a QP reference; the last one lets destroy go on
 * @iwqp: QP
 *
 * Context: any.
 */
void irdma_qp_put(struct irdma_qp *iwqp)
{
	if (refcount_dec_and_test(&iwqp->refcnt))
		complete(&iwqp->free);
}

/**
 * irdma_qp_write_conn_wqes() - the three connection WQEs at the SQ's start
 * @iwqp: QP
 * @info: the connection
 *
 * Slot 0: the LSMM (passive: the MPA reply as raw stream bytes, then wait
 * for the peer's first PDU; a loopback passive QP expecting an RTR sends
 * no bytes and waits all the same) or the RTR (active: zero-length Read
 * or Write; a NOP for MPA v1); irdma_wqe_conn() encodes all three.  They
 * are copied into the SQ here, the headers last.
 *
 * Return: 0 or a negative errno.
 */
static int irdma_qp_write_conn_wqes(struct irdma_qp *iwqp,
				    const struct irdma_cm_offload_info *info)
{
	struct irdma_wqe w[IRDMA_CONN_WQES] = {};
	enum irdma_wqe_conn_kind kind;
	void *va;
	int i, j;

	if (info->lsmm_len)
		kind = IRDMA_WQE_CONN_LSMM;
	else if (!info->active && info->rtr != IRDMA_RTR_NONE)
		kind = IRDMA_WQE_CONN_WAIT;
	else if (info->active && info->rtr == IRDMA_RTR_READ)
		kind = IRDMA_WQE_CONN_RTR_READ;
	else if (info->active && info->rtr == IRDMA_RTR_WRITE)
		kind = IRDMA_WQE_CONN_RTR_WRITE;
	else
		kind = IRDMA_WQE_CONN_NOP;
	irdma_wqe_conn(w, kind, iwqp->lsmm.pa, info->lsmm_len,
		       iwqp->lsmm_stag);

	if (iwqp->k) {
		va = iwqp->k->sq;
	} else {
		/* the SQ starts the page-aligned user buffer */
		struct scatterlist *sg = iwqp->ubuf->umem->sgt_append.sgt.sgl;

		if (!sg || sg->length < sizeof(w))
			return -EINVAL;
		va = kmap_local_page(sg_page(sg));
	}
	for (i = 0; i < IRDMA_CONN_WQES; i++) {
		struct irdma_wqe *dst = va + i * sizeof(struct irdma_wqe);

		for (j = 0; j < IRDMA_WQE_HDR; j++)
			dst->qw[j] = w[i].qw[j];
	}
	/* bodies before the valid headers */
	wmb();
	for (i = 0; i < IRDMA_CONN_WQES; i++) {
		struct irdma_wqe *dst = va + i * sizeof(struct irdma_wqe);

		WRITE_ONCE(dst->qw[IRDMA_WQE_HDR], w[i].qw[IRDMA_WQE_HDR]);
	}
	if (!iwqp->k)
		kunmap_local(va);
	return 0;
}

/**
 * irdma_qp_offload() - hand an established connection to a QP
 * @iwqp: QP
 * @info: TCP and iWARP context from the CM
 *
 * Writes the connection WQEs and the context, then moves the QP to RTS.
 * The adapter reports LLP_CONNECTION_ESTABLISHED when it reaches the
 * third WQE; the AE path calls irdma_cm_qp_established().
 *
 * Context: process context, may sleep.
 * Return: 0 or a negative errno.
 */
int irdma_qp_offload(struct irdma_qp *iwqp,
		     const struct irdma_cm_offload_info *info)
{
	struct irdma_pci_f *rf = iwqp->iwdev->rf;
	struct irdma_qp_cmd_params p;
	int ret;

	mutex_lock(&iwqp->state_lock);
	if (iwqp->hw_state != IRDMA_QPS_IDLE || (!iwqp->ubuf && !iwqp->k)) {
		ret = -EINVAL;
		goto out;
	}
	if (info->lsmm_len && !iwqp->lsmm_stag) {
		ret = irdma_dma_alloc(rf, &iwqp->lsmm, info->lsmm_len, 8);
		if (ret)
			goto out;
		memcpy(iwqp->lsmm.va, info->lsmm, info->lsmm_len);
		ret = irdma_reg_phys_mr(rf, iwqp->pd_id, &iwqp->lsmm,
					&iwqp->lsmm_stag);
		if (ret) {
			irdma_dma_free(rf, &iwqp->lsmm);
			goto out;
		}
	}
	ret = irdma_qp_write_conn_wqes(iwqp, info);
	if (ret)
		goto out;
	irdma_qpc_conn(irdma_qp_ctx(iwqp), info, iwqp->wr_en, iwqp->rd_en);
	/* the context must be in memory before the modify points at it */
	dma_wmb();

	irdma_qp_cmd_params(iwqp, &p);
	p.next_state = IRDMA_QPS_RTS;
	p.tcp_ctx_valid = true;
	p.ord_valid = true;
	p.arp_valid = true;
	p.cq_num_valid = true;
	p.mac_valid = true;
	ret = irdma_cqp_qp_cmd(rf, IRDMA_CQP_OP_MODIFY_QP, &p);
	if (ret)
		goto out;
	set_bit(IRDMA_QP_OFFLOADED, &iwqp->flags);
	irdma_qp_set_hw_state(iwqp, IRDMA_QPS_RTS);
	iwqp->ib_state = IB_QPS_RTS;
out:
	mutex_unlock(&iwqp->state_lock);
	return ret;
}

/**
 * irdma_qp_close() - graceful close of an offloaded QP (the adapter sends
 * FIN)
 * @iwqp: QP
 *
 * Context: process context, may sleep.
 * Return: 0 or a negative errno.
 */
int irdma_qp_close(struct irdma_qp *iwqp)
{
	int ret = 0;

	mutex_lock(&iwqp->state_lock);
	if (iwqp->hw_state == IRDMA_QPS_RTS)
		ret = irdma_qp_modify_hw(iwqp, IRDMA_QPS_CLOSING, false);
	mutex_unlock(&iwqp->state_lock);
	return ret;
}

/**
 * irdma_qp_reset() - abortive close of a QP (the adapter sends RST)
 * @iwqp: QP
 *
 * Context: process context, may sleep.
 * Return: 0 or a negative errno.
 */
int irdma_qp_reset(struct irdma_qp *iwqp)
{
	int ret;

	mutex_lock(&iwqp->state_lock);
	ret = irdma_qp_to_error(iwqp);
	if (!ret)
		iwqp->ib_state = IB_QPS_ERR;
	mutex_unlock(&iwqp->state_lock);
	return ret;
}

/**
 * irdma_qp_terminate() - send the TERMINATE built for the QP's last error
 * @iwqp: QP
 *
 * Moves a connected QP to TERMINATE; the adapter sends the message
 * irdma_qp_term_build() left in Q2 and nothing else (no FIN): the peer
 * closes, or the CM resets the connection when it does not.
 *
 * Context: process context, may sleep.
 * Return: 0, -EALREADY when the QP is not connected or has nothing to
 * send (no error AE since the last call), or a negative errno of the
 * command.
 */
int irdma_qp_terminate(struct irdma_qp *iwqp)
{
	int ret = -EALREADY;

	mutex_lock(&iwqp->state_lock);
	if (iwqp->hw_state == IRDMA_QPS_RTS && READ_ONCE(iwqp->term_len))
		ret = irdma_qp_modify_hw(iwqp, IRDMA_QPS_TERMINATE, false);
	WRITE_ONCE(iwqp->term_len, 0);	/* one TERMINATE per error */
	mutex_unlock(&iwqp->state_lock);
	return ret;
}

/**
 * irdma_qp_flush() - complete the QP's posted work in error
 * @iwqp: QP
 *
 * Context: process context, may sleep.
 */
void irdma_qp_flush(struct irdma_qp *iwqp)
{
	mutex_lock(&iwqp->state_lock);
	if (!test_bit(IRDMA_QP_ERROR, &iwqp->flags))
		irdma_qp_to_error(iwqp);
	else if (!irdma_cqp_flush_wqes(iwqp->iwdev->rf, iwqp->id, true, true,
				       IRDMA_FLUSH_GENERAL_ERR))
		irdma_kqp_flushed(iwqp);
	iwqp->ib_state = IB_QPS_ERR;
	mutex_unlock(&iwqp->state_lock);
}

/**
 * irdma_qp_term_mpa() - find the FPDU of the frame the adapter put in Q2
 * @frame: the frame, from its Ethernet header
 * @len: bytes of @frame
 *
 * Return: the offset of the FPDU's MPA length field, or -EINVAL when the
 * headers do not fit or are not IP/TCP.
 */
static int irdma_qp_term_mpa(const u8 *frame, u32 len)
{
	const struct ethhdr *eth = (const void *)frame;
	const struct iphdr *ip4;
	const struct tcphdr *tcp;
	u32 off = sizeof(*eth);
	__be16 proto = eth->h_proto;

	if (proto == htons(ETH_P_8021Q)) {
		proto = *(const __be16 *)(frame + off + 2);
		off += VLAN_HLEN;
	}
	if (proto == htons(ETH_P_IP)) {
		ip4 = (const void *)(frame + off);
		if (ip4->ihl < 5)
			return -EINVAL;
		off += ip4->ihl * 4;
	} else if (proto == htons(ETH_P_IPV6)) {
		off += sizeof(struct ipv6hdr);
	} else {
		return -EINVAL;
	}
	if (off + sizeof(*tcp) > len)
		return -EINVAL;
	tcp = (const void *)(frame + off);
	if (tcp->doff < 5)
		return -EINVAL;
	off += tcp->doff * 4;
	return off < len ? off : -EINVAL;
}

/**
 * irdma_qp_term_received() - tell what a peer's TERMINATE says
 * @iwqp: QP whose AE (LLP_TERMINATE_RECEIVED) said the frame is in Q2
 *
 * The adapter copies the received TERMINATE, as a frame, to offset
 * IRDMA_Q2_FRAME_OFF of the QP's Q2 buffer.  Its layer, error type, code
 * and header-control bits (RFC 5040 section 4.8) are logged, and the
 * consumer gets IB_EVENT_QP_FATAL: the connection ends for the peer's
 * reason.
 *
 * Context: the AEQ's IRQ thread, after the AEQE's valid bit was read.
 */
void irdma_qp_term_received(struct irdma_qp *iwqp)
{
	const u8 *frame = (const u8 *)iwqp->q2ctx.va + IRDMA_Q2_FRAME_OFF;
	u32 len = IRDMA_Q2_BUF_SIZE - IRDMA_Q2_FRAME_OFF;
	const u8 *ulpdu, *w;
	int off;

	off = irdma_qp_term_mpa(frame, len);
	/* MPA length, the untagged DDP header, the TERMINATE's first word */
	if (off < 0 || off + IRDMA_MPA_HLEN + IRDMA_DDP_UNTAGGED_HLEN + 4 > len) {
		dev_info_ratelimited(iwqp->iwdev->rf->dma_dev,
				     "QP %u: TERMINATE received; its frame cannot be read\n",
				     iwqp->id);
	} else {
		ulpdu = frame + off + IRDMA_MPA_HLEN;
		w = ulpdu + IRDMA_DDP_UNTAGGED_HLEN;
		dev_info_ratelimited(iwqp->iwdev->rf->dma_dev,
				     "QP %u: TERMINATE received: layer %u, error type %u, code 0x%02x, headers%s%s%s (RDMAP opcode %u)\n",
				     iwqp->id, w[0] >> 4, w[0] & 0xf, w[1],
				     w[2] & 0x80 ? " M" : "", w[2] & 0x40 ? " D" : "",
				     w[2] & 0x20 ? " R" : "", ulpdu[1] & 0xf);
	}
	irdma_qp_async_event(iwqp, IB_EVENT_QP_FATAL);
}

/**
 * struct irdma_term_cause - the TERMINATE an error AE calls for
 * @ae: AE code
 * @layer_type: layer (high nibble) and error type
 * @code: error code
 */
struct irdma_term_cause {
	u16 ae;
	u8 layer_type;
	u8 code;
};

/* errors whose AE alone names layer, type and code (RFC 5040/5041/5044) */
static const struct irdma_term_cause irdma_term_causes[] = {
	{ IRDMA_AE_DDP_UBE_INVALID_QN,
	  IRDMA_TERM_LAYER_DDP | IRDMA_TERM_DDP_UNTAGGED, 0x01 },
	{ IRDMA_AE_DDP_UBE_INVALID_MSN_NO_BUFFER_AVAILABLE,
	  IRDMA_TERM_LAYER_DDP | IRDMA_TERM_DDP_UNTAGGED, 0x02 },
	{ IRDMA_AE_DDP_INVALID_MSN_GAP_IN_MSN,
	  IRDMA_TERM_LAYER_DDP | IRDMA_TERM_DDP_UNTAGGED, 0x03 },
	{ IRDMA_AE_DDP_UBE_INVALID_MO,
	  IRDMA_TERM_LAYER_DDP | IRDMA_TERM_DDP_UNTAGGED, 0x04 },
	{ IRDMA_AE_DDP_UBE_DDP_MESSAGE_TOO_LONG_FOR_AVAILABLE_BUFFER,
	  IRDMA_TERM_LAYER_DDP | IRDMA_TERM_DDP_UNTAGGED, 0x05 },
	{ IRDMA_AE_LLP_SEGMENT_TOO_SMALL,
	  IRDMA_TERM_LAYER_DDP | IRDMA_TERM_DDP_CATASTROPHIC, 0x00 },
	{ IRDMA_AE_RDMAP_ROE_INVALID_RDMAP_VERSION,
	  IRDMA_TERM_LAYER_RDMAP | IRDMA_TERM_RDMAP_OP, 0x05 },
	{ IRDMA_AE_RDMAP_ROE_UNEXPECTED_OPCODE,
	  IRDMA_TERM_LAYER_RDMAP | IRDMA_TERM_RDMAP_OP, 0x06 },
	{ IRDMA_AE_LLP_RECEIVED_MPA_CRC_ERROR, IRDMA_TERM_LAYER_MPA, 0x02 },
};

/**
 * irdma_term_prot_code() - error code of a memory-protection AE
 * @ae: AE code
 * @ddp: a DDP tagged-buffer error (else an RDMAP remote protection one)
 *
 * Return: the code, or -EINVAL when @ae is not a protection AE.
 */
static int irdma_term_prot_code(u16 ae, bool ddp)
{
	switch (ae) {
	case IRDMA_AE_AMP_INVALID_STAG:
	case IRDMA_AE_STAG_ZERO_INVALID:
		return 0x00;	/* invalid STag */
	case IRDMA_AE_AMP_BOUNDS_VIOLATION:
		return 0x01;	/* base or bounds */
	case IRDMA_AE_AMP_RIGHTS_VIOLATION:
		return 0x02;	/* access rights (RDMAP's to check) */
	case IRDMA_AE_AMP_BAD_PD:
		/* the STag is not this stream's: DDP 0x02, RDMAP 0x03 */
		return ddp ? 0x02 : 0x03;
	default:
		return -EINVAL;
	}
}

/**
 * enum irdma_term_seg - the offending segment the adapter copied to Q2
 * @IRDMA_TERM_SEG_NONE: none (this end's own error, or a segment that
 *	could not be trusted)
 * @IRDMA_TERM_SEG_TAGGED: a tagged segment (Write or Read Response)
 * @IRDMA_TERM_SEG_RREQ: a Read Request
 * @IRDMA_TERM_SEG_UNTAGGED: another untagged segment (a Send)
 */
enum irdma_term_seg {
	IRDMA_TERM_SEG_NONE,
	IRDMA_TERM_SEG_TAGGED,
	IRDMA_TERM_SEG_RREQ,
	IRDMA_TERM_SEG_UNTAGGED,
};

/**
 * irdma_term_cause() - layer, type and code of the TERMINATE for an AE
 * @ae: AE code
 * @src: AE source
 * @seg: what the offending segment was
 *
 * Return: layer and error type in bits 15:8, the code in 7:0.
 */
static u16 irdma_term_cause(u16 ae, u32 src, enum irdma_term_seg seg)
{
	bool tagged = seg == IRDMA_TERM_SEG_TAGGED;
	u8 rdmap_prot = IRDMA_TERM_LAYER_RDMAP | IRDMA_TERM_RDMAP_PROT;
	u8 ddp_tagged = IRDMA_TERM_LAYER_DDP | IRDMA_TERM_DDP_TAGGED;
	int code, i;

	code = irdma_term_prot_code(ae, tagged);
	if (code >= 0) {
		switch (seg) {
		case IRDMA_TERM_SEG_TAGGED:
			if (ae == IRDMA_AE_AMP_RIGHTS_VIOLATION)
				return rdmap_prot << 8 | code;
			return ddp_tagged << 8 | code;
		case IRDMA_TERM_SEG_RREQ:
			return rdmap_prot << 8 | code;
		case IRDMA_TERM_SEG_UNTAGGED:
			/* a Send with Invalidate of a foreign STag */
			return (IRDMA_TERM_LAYER_RDMAP |
				IRDMA_TERM_RDMAP_OP) << 8 | 0x09;
		case IRDMA_TERM_SEG_NONE:
			/* our source region failed a Read we had accepted */
			if (src == IRDMA_AE_SOURCE_OUT_RR)
				return rdmap_prot << 8 | code;
			break;	/* a local error */
		}
		return (IRDMA_TERM_LAYER_RDMAP | IRDMA_TERM_RDMAP_LOCAL) << 8;
	}
	if (ae == IRDMA_AE_DDP_UBE_INVALID_DDP_VERSION)
		return tagged ? ddp_tagged << 8 | 0x04 :
		       (IRDMA_TERM_LAYER_DDP | IRDMA_TERM_DDP_UNTAGGED) << 8 |
		       0x06;
	for (i = 0; i < ARRAY_SIZE(irdma_term_causes); i++)
		if (irdma_term_causes[i].ae == ae)
			return irdma_term_causes[i].layer_type << 8 |
			       irdma_term_causes[i].code;
	/* RDMAP local catastrophic error */
	return (IRDMA_TERM_LAYER_RDMAP | IRDMA_TERM_RDMAP_LOCAL) << 8;
}

/**
 * irdma_qp_term_build() - build the TERMINATE for an error AE in Q2
 * @iwqp: QP the AE is about
 * @ae: AE code
 * @src: AE source
 * @q2_data: the adapter copied the offending frame to Q2
 *
 * Writes, at the start of Q2, the word of layer, type, code and
 * header-control bits (RFC 5040 section 4.8) and, when the adapter copied
 * the offending segment, its DDP segment length and DDP header, plus a
 * Read Request's RDMAP header.  irdma_qp_terminate() later asks the
 * adapter to send it.  Errors of the QP's own send queue are not the
 * peer's doing: they get none (the connection is reset).
 *
 * Context: the AEQ's IRQ thread, before the CM learns of the AE.
 */
void irdma_qp_term_build(struct irdma_qp *iwqp, u16 ae, u32 src, bool q2_data)
{
	u8 *term = iwqp->q2ctx.va;
	const u8 *frame = term + IRDMA_Q2_FRAME_OFF;
	u32 room = IRDMA_Q2_BUF_SIZE - IRDMA_Q2_FRAME_OFF;
	enum irdma_term_seg seg = IRDMA_TERM_SEG_NONE;
	const u8 *fpdu = NULL;
	u32 len = 4, hlen = 0;
	u16 cause;
	int off;

	WRITE_ONCE(iwqp->term_len, 0);
	if (src == IRDMA_AE_SOURCE_SQ || src == IRDMA_AE_SOURCE_SQ_0111)
		return;
	if (q2_data) {
		off = irdma_qp_term_mpa(frame, room);
		/* the shorter (tagged) DDP header must be there to be read */
		if (off >= 0 && off + IRDMA_MPA_HLEN + IRDMA_DDP_TAGGED_HLEN <= room)
			fpdu = frame + off;
	}
	if (fpdu && (fpdu[IRDMA_MPA_HLEN] & IRDMA_DDP_FLAG_TAGGED)) {
		seg = IRDMA_TERM_SEG_TAGGED;
		hlen = IRDMA_DDP_TAGGED_HLEN;
	} else if (fpdu && get_unaligned_be32(fpdu + IRDMA_MPA_HLEN +
					      IRDMA_DDP_QN_OFF) ==
		   IRDMA_DDP_QN_RREQ) {
		seg = IRDMA_TERM_SEG_RREQ;
		hlen = IRDMA_DDP_UNTAGGED_HLEN + IRDMA_RDMAP_RREQ_HLEN;
	} else if (fpdu) {
		seg = IRDMA_TERM_SEG_UNTAGGED;
		hlen = IRDMA_DDP_UNTAGGED_HLEN;
	}
	memset(term, 0, IRDMA_TERM_MAX_LEN);
	cause = irdma_term_cause(ae, src, seg);
	term[0] = cause >> 8;
	term[1] = cause & 0xff;
	if (fpdu) {
		term[2] = IRDMA_TERM_HDRCT_M | IRDMA_TERM_HDRCT_D |
			  (seg == IRDMA_TERM_SEG_RREQ ? IRDMA_TERM_HDRCT_R : 0);
		/* no more than the segment had, and Q2 holds */
		hlen = min3(hlen, (u32)get_unaligned_be16(fpdu),
			    room - (u32)off - IRDMA_MPA_HLEN);
		memcpy(term + 4, fpdu, IRDMA_MPA_HLEN + hlen);
		len += IRDMA_MPA_HLEN + hlen;
	}
	WRITE_ONCE(iwqp->term_len, DIV_ROUND_UP(len, 4));
}

/**
 * irdma_qp_async_event() - report a QP event to the consumer
 * @iwqp: QP
 * @type: IB_EVENT_*
 *
 * Context: any.
 */
void irdma_qp_async_event(struct irdma_qp *iwqp, enum ib_event_type type)
{
	struct ib_qp *ibqp = &iwqp->ibqp;
	struct ib_event ev = {
		.device = ibqp->device,
		.element.qp = ibqp,
		.event = type,
	};

	if (ibqp->event_handler)
		ibqp->event_handler(&ev, ibqp->qp_context);
}
