// SPDX-License-Identifier: GPL-2.0
/*
 * Driver details for resource tracking: what "rdma resource show qp|cq|mr
 * -dd" prints after ib_core's own attributes.
 *
 * Each callback runs in process context for one object that ib_core keeps
 * alive for the call (a restrack reference); none holds a lock of ib_core,
 * so a callback may take the driver's own locks and sleep.  The values are
 * a snapshot: the adapter and the CM go on while it is taken.
 *
 *   qp  hw_state offloaded [flushed] sq_quanta rq_wqes [sq_head sq_tail
 *       rq_head rq_tail (kernel QPs)] [cm_state side lport rport mpa_rev
 *       ird ord rtr loopback (while a connection is bound)] [last_ae
 *       ae_tcp_state (after a close or reset AE)]
 *   cq  cq_id size ceq kind [armed (kernel CQs)] overflowed placement
 *   mr  kind [page_size placement pbles (regions)] [fr_max fr_npages
 *       (fast-register regions)]
 *
 * No key is printed: in iWARP the STag is all that guards remote access to
 * a region, and any local user may dump these attributes.  ib_core prints
 * lkey and rkey itself, to CAP_NET_ADMIN only.
 */

#include <net/netlink.h>
#include <rdma/irdma-abi.h>
#include <rdma/restrack.h>
#include <uapi/rdma/rdma_netlink.h>

#include "irdma.h"
#include "ctrl.h"
#include "cm.h"

/**
 * irdma_res_qp_state() - name of a QP state the driver asked the adapter for
 * @s: enum irdma_qp_state_hw
 *
 * Return: the name.
 */
static const char *irdma_res_qp_state(u8 s)
{
	switch (s) {
	case IRDMA_QPS_IDLE: return "IDLE";
	case IRDMA_QPS_RTS: return "RTS";
	case IRDMA_QPS_CLOSING: return "CLOSING";
	case IRDMA_QPS_RTR: return "RTR";
	case IRDMA_QPS_TERMINATE: return "TERMINATE";
	case IRDMA_QPS_ERROR: return "ERROR";
	default: return "INVALID";
	}
}

/**
 * irdma_res_tcp_state() - name of a TCP state an AEQE reports
 * @s: enum irdma_tcp_state_hw
 *
 * Return: the name.
 */
static const char *irdma_res_tcp_state(u8 s)
{
	static const char * const names[] = {
		[IRDMA_TCPS_NON_EXISTENT] = "NON_EXISTENT",
		[IRDMA_TCPS_CLOSED] = "CLOSED",
		[IRDMA_TCPS_LISTEN] = "LISTEN",
		[IRDMA_TCPS_SYN_SENT] = "SYN_SENT",
		[IRDMA_TCPS_SYN_RECEIVED] = "SYN_RECEIVED",
		[IRDMA_TCPS_ESTABLISHED] = "ESTABLISHED",
		[IRDMA_TCPS_CLOSE_WAIT] = "CLOSE_WAIT",
		[IRDMA_TCPS_FIN_WAIT_1] = "FIN_WAIT_1",
		[IRDMA_TCPS_CLOSING] = "CLOSING",
		[IRDMA_TCPS_LAST_ACK] = "LAST_ACK",
		[IRDMA_TCPS_FIN_WAIT_2] = "FIN_WAIT_2",
		[IRDMA_TCPS_TIME_WAIT] = "TIME_WAIT",
	};

	return s < ARRAY_SIZE(names) ? names[s] : "?";
}

/**
 * irdma_res_rtr() - name of the negotiated ready-to-receive message
 * @rtr: enum irdma_rtr_type
 *
 * Return: the name.
 */
static const char *irdma_res_rtr(enum irdma_rtr_type rtr)
{
	switch (rtr) {
	case IRDMA_RTR_WRITE: return "write";
	case IRDMA_RTR_READ: return "read";
	default: return "none";
	}
}

/**
 * irdma_res_placement() - how the adapter finds a ring or region
 * @pbl: its placement
 *
 * Return: "contiguous" or "pbl".
 */
static const char *irdma_res_placement(const struct irdma_pbl *pbl)
{
	return pbl->level ? "pbl" : "contiguous";
}

/**
 * irdma_res_qp_cm() - the connection bound to a QP
 * @msg: the netlink message, inside the driver nest
 * @iwqp: QP
 *
 * Return: 0 or -EMSGSIZE.
 */
static int irdma_res_qp_cm(struct sk_buff *msg, struct irdma_qp *iwqp)
{
	struct irdma_cm_qp_res c;

	irdma_cm_qp_res(iwqp, &c);
	if (c.bound &&
	    (rdma_nl_put_driver_string(msg, "cm_state",
				       irdma_cm_state_name(c.state)) ||
	     rdma_nl_put_driver_string(msg, "side",
				       c.active ? "active" : "passive") ||
	     rdma_nl_put_driver_u32(msg, "lport", c.loc_port) ||
	     rdma_nl_put_driver_u32(msg, "rport", c.rem_port) ||
	     rdma_nl_put_driver_u32(msg, "mpa_rev", c.mpa_rev) ||
	     rdma_nl_put_driver_u32(msg, "ird", c.ird) ||
	     rdma_nl_put_driver_u32(msg, "ord", c.ord) ||
	     rdma_nl_put_driver_string(msg, "rtr", irdma_res_rtr(c.rtr)) ||
	     rdma_nl_put_driver_u32(msg, "loopback", c.loopback)))
		return -EMSGSIZE;
	if (c.last_ae &&
	    (rdma_nl_put_driver_u32_hex(msg, "last_ae", c.last_ae) ||
	     rdma_nl_put_driver_string(msg, "ae_tcp_state",
				       irdma_res_tcp_state(c.ae_tcp_state))))
		return -EMSGSIZE;
	return 0;
}

/**
 * irdma_res_kqp_rings() - producer and consumer indices of a kernel QP
 * @msg: the netlink message, inside the driver nest
 * @k: kernel QP state
 *
 * Return: 0 or -EMSGSIZE.
 */
static int irdma_res_kqp_rings(struct sk_buff *msg, struct irdma_kqp *k)
{
	u32 sq_head, sq_tail, rq_head, rq_tail;
	unsigned long flags;
	bool flushed;

	spin_lock_irqsave(&k->lock, flags);
	sq_head = k->sq_head;
	sq_tail = k->sq_tail;
	rq_head = k->rq_head;
	rq_tail = k->rq_tail;
	flushed = k->flushed;
	spin_unlock_irqrestore(&k->lock, flags);
	if (rdma_nl_put_driver_u32(msg, "flushed", flushed) ||
	    rdma_nl_put_driver_u32(msg, "sq_head", sq_head) ||
	    rdma_nl_put_driver_u32(msg, "sq_tail", sq_tail) ||
	    rdma_nl_put_driver_u32(msg, "rq_head", rq_head) ||
	    rdma_nl_put_driver_u32(msg, "rq_tail", rq_tail))
		return -EMSGSIZE;
	return 0;
}

/**
 * irdma_res_nest() - put an object's details in the driver's nest
 * @msg: the netlink message
 * @put: puts the attributes; 0 or -EMSGSIZE
 * @obj: the object, for @put
 *
 * Return: 0, or -EMSGSIZE with the message as it was.
 */
static int irdma_res_nest(struct sk_buff *msg,
			  int (*put)(struct sk_buff *msg, void *obj), void *obj)
{
	struct nlattr *nest;

	nest = nla_nest_start_noflag(msg, RDMA_NLDEV_ATTR_DRIVER);
	if (!nest)
		return -EMSGSIZE;
	if (put(msg, obj)) {
		nla_nest_cancel(msg, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(msg, nest);
	return 0;
}

/**
 * irdma_res_qp_put() - the attributes of a QP
 * @msg: the netlink message, inside the driver nest
 * @obj: struct irdma_qp
 *
 * Return: 0 or -EMSGSIZE.
 */
static int irdma_res_qp_put(struct sk_buff *msg, void *obj)
{
	struct irdma_qp *iwqp = obj;
	u8 hw_state;

	mutex_lock(&iwqp->state_lock);
	hw_state = iwqp->hw_state;
	mutex_unlock(&iwqp->state_lock);
	if (rdma_nl_put_driver_string(msg, "hw_state",
				      irdma_res_qp_state(hw_state)) ||
	    rdma_nl_put_driver_u32(msg, "offloaded",
				   test_bit(IRDMA_QP_OFFLOADED, &iwqp->flags)) ||
	    rdma_nl_put_driver_u32(msg, "sq_quanta", iwqp->sq_quanta) ||
	    rdma_nl_put_driver_u32(msg, "rq_wqes",
				   iwqp->rq_quanta >> iwqp->rq_shift))
		return -EMSGSIZE;
	if (iwqp->k && irdma_res_kqp_rings(msg, iwqp->k))
		return -EMSGSIZE;
	return irdma_res_qp_cm(msg, iwqp);
}

/**
 * irdma_fill_res_qp_entry() - driver details of a QP
 * @msg: the netlink message
 * @ibqp: QP
 *
 * Context: process context; takes the QP's state_lock and the CM's mutex.
 * Return: 0 or -EMSGSIZE.
 */
int irdma_fill_res_qp_entry(struct sk_buff *msg, struct ib_qp *ibqp)
{
	return irdma_res_nest(msg, irdma_res_qp_put, to_iwqp(ibqp));
}

/**
 * irdma_res_cq_put() - the attributes of a CQ
 * @msg: the netlink message, inside the driver nest
 * @obj: struct irdma_cq
 *
 * Return: 0 or -EMSGSIZE.
 */
static int irdma_res_cq_put(struct sk_buff *msg, void *obj)
{
	struct irdma_cq *cq = obj;
	unsigned long flags;
	bool armed;

	if (rdma_nl_put_driver_u32(msg, "cq_id", cq->id) ||
	    rdma_nl_put_driver_u32(msg, "size", cq->size) ||
	    rdma_nl_put_driver_u32(msg, "ceq", cq->ceq_id) ||
	    rdma_nl_put_driver_string(msg, "kind", cq->k ? "kernel" : "user") ||
	    rdma_nl_put_driver_u32(msg, "overflowed", READ_ONCE(cq->err_reported)) ||
	    rdma_nl_put_driver_string(msg, "placement",
				      irdma_res_placement(&cq->ring_pbl)))
		return -EMSGSIZE;
	if (!cq->k)
		return 0;
	spin_lock_irqsave(&cq->k->lock, flags);
	armed = cq->k->armed;
	spin_unlock_irqrestore(&cq->k->lock, flags);
	return rdma_nl_put_driver_u32(msg, "armed", armed);
}

/**
 * irdma_fill_res_cq_entry() - driver details of a CQ
 * @msg: the netlink message
 * @ibcq: CQ
 *
 * Context: process context.
 * Return: 0 or -EMSGSIZE.
 */
int irdma_fill_res_cq_entry(struct sk_buff *msg, struct ib_cq *ibcq)
{
	return irdma_res_nest(msg, irdma_res_cq_put, to_icq(ibcq));
}

/**
 * irdma_res_mr_put() - the attributes of a memory region
 * @msg: the netlink message, inside the driver nest
 * @obj: struct irdma_mr
 *
 * Return: 0 or -EMSGSIZE.
 */
static int irdma_res_mr_put(struct sk_buff *msg, void *obj)
{
	struct irdma_mr *mr = obj;
	const char *kind;

	if (mr->ubuf)
		kind = mr->ubuf->type == IRDMA_MEMREG_TYPE_QP ? "qp_ring" :
								  "cq_ring";
	else if (mr->fr_max)
		kind = "fast_reg";
	else if (mr->umem)
		kind = "user";
	else
		kind = "dma";	/* the local DMA lkey: all of memory */
	if (rdma_nl_put_driver_string(msg, "kind", kind))
		return -EMSGSIZE;
	if (mr->hw &&
	    (rdma_nl_put_driver_u64(msg, "page_size", mr->page_size) ||
	     rdma_nl_put_driver_string(msg, "placement",
				       irdma_res_placement(&mr->pbl)) ||
	     rdma_nl_put_driver_u32(msg, "pbles", mr->pbl.cnt)))
		return -EMSGSIZE;
	if (mr->fr_max &&
	    (rdma_nl_put_driver_u32(msg, "fr_max", mr->fr_max) ||
	     rdma_nl_put_driver_u32(msg, "fr_npages", READ_ONCE(mr->fr_npages))))
		return -EMSGSIZE;
	return 0;
}

/**
 * irdma_fill_res_mr_entry() - driver details of a memory region
 * @msg: the netlink message
 * @ibmr: region, or a user QP/CQ ring registration
 *
 * Context: process context.
 * Return: 0 or -EMSGSIZE.
 */
int irdma_fill_res_mr_entry(struct sk_buff *msg, struct ib_mr *ibmr)
{
	return irdma_res_nest(msg, irdma_res_mr_put,
			      container_of(ibmr, struct irdma_mr, ibmr));
}
