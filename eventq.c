// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * irdma - event queues and their interrupts: the MSI-X vectors, the
 * completion event queues (CEQs) and the asynchronous event queue (AEQ),
 * and the routing of each event to its owner: a CQ's completion handler,
 * the ILQ, the control QP, a QP's or CQ's error, the connection manager.
 *
 * irdma_ctrl_init_hw() (hw.c) creates CEQ 0 on the vectors
 * irdma_setup_vectors() recorded; irdma_rt_init_hw() adds the AEQ and
 * the other CEQs.  One IRQ thread per vector consumes its queues.
 */
#include <linux/interrupt.h>

#include "irdma.h"
#include "ctrl.h"
#include "hw_trace.h"

#define IRDMA_CEQ_MIN_SIZE	64
#define IRDMA_AEQ_MIN_SIZE	64

/**
 * irdma_vector_enable() - enable (re-arm) an interrupt vector
 * @rf: RDMA function
 * @vec: vector
 */
static void irdma_vector_enable(struct irdma_pci_f *rf,
				struct irdma_msix_vector *vec)
{
	irdma_wr32_idx(rf, IRDMA_REG_DYN_CTL0, vec->idx,
		       IRDMA_DYN_CTL_INTENA | IRDMA_DYN_CTL_CLEARPBA |
		       FIELD_PREP(IRDMA_DYN_CTL_ITR_INDX,
				  rf->gen == IRDMA_GEN_1 ? IRDMA_ITR_INDX_NONE : 0));
}

/**
 * irdma_process_ceq() - consume a completion event queue
 * @rf: RDMA function
 * @ceq: the CEQ
 *
 * Each CEQE names a CQ by the context given at its creation (its id).
 *
 * Context: the vector's IRQ thread.
 */
static void irdma_process_ceq(struct irdma_pci_f *rf, struct irdma_ceq *ceq)
{
	__le64 *ring = ceq->mem.va;
	bool ccq = false, ilq = false;

	for (;;) {
		u64 v = le64_to_cpu(READ_ONCE(ring[ceq->head]));
		u32 cq_id;

		if (FIELD_GET(IRDMA_CEQE_VALID, v) != ceq->polarity)
			break;
		dma_rmb();
		cq_id = FIELD_GET(IRDMA_CEQE_CQCTX, v);
		if (++ceq->head == ceq->size) {
			ceq->head = 0;
			ceq->polarity ^= 1;
		}
		irdma_wr32(rf, IRDMA_REG_CQACK, cq_id);
		if (cq_id == IRDMA_CCQ_ID)
			ccq = true;
		else if (cq_id == IRDMA_ILQ_ID)
			ilq = true;
		else
			irdma_cq_event(rf, cq_id);
	}
	if (ccq)
		irdma_ccq_event(rf);
	if (ilq)
		irdma_ilq_process(rf);
}

/**
 * irdma_ae_is_cq() - an AE concerns a CQ, not a QP
 * @ae: AE code
 * @src: AE source
 *
 * Return: true for CQ events.
 */
static bool irdma_ae_is_cq(u32 ae, u32 src)
{
	if (ae == IRDMA_AE_LCE_CQ_CATASTROPHIC || ae == IRDMA_AE_CQ_OPERATION_ERROR)
		return true;
	switch (ae) {	/* QP events whatever the source says, by code */
	case IRDMA_AE_RDMAP_ROE_BAD_LLP_CLOSE:
	case IRDMA_AE_LLP_CLOSE_COMPLETE:
	case IRDMA_AE_LLP_CONNECTION_RESET:
	case IRDMA_AE_LLP_FIN_RECEIVED:
	case IRDMA_AE_LLP_SYN_RECEIVED:
	case IRDMA_AE_LLP_TERMINATE_RECEIVED:
		return false;
	}
	return src == IRDMA_AE_SOURCE_CQ || src == IRDMA_AE_SOURCE_CQ_0110 ||
	       src == IRDMA_AE_SOURCE_CQ_1010 || src == IRDMA_AE_SOURCE_CQ_1110;
}

/**
 * irdma_dispatch_ae() - hand an asynchronous event to its owner
 * @rf: RDMA function
 * @ae: AE code
 * @src: AE source
 * @id: QP or CQ id
 * @tcp_state: TCP state the adapter reported
 * @q2_data: the adapter copied a frame into the QP's Q2 for this AE
 *
 * The connection manager decides what a connection event means (close,
 * reset, flush); the hardware layer only reports.  Errors that end the
 * QP's usefulness are also reported to its consumer.
 *
 * Context: the AEQ's IRQ thread.
 */
static void irdma_dispatch_ae(struct irdma_pci_f *rf, u32 ae, u32 src, u32 id,
			      u8 tcp_state, bool q2_data)
{
	struct irdma_qp *iwqp;

	if (irdma_ae_is_cq(ae, src)) {
		irdma_cq_async_event(rf, id);
		return;
	}
	switch (ae) {
	case IRDMA_AE_RESET_NOT_SENT:
	case IRDMA_AE_LLP_DOUBT_REACHABILITY:
	case IRDMA_AE_QP_SUSPEND_COMPLETE:
		return;
	case IRDMA_AE_RESOURCE_EXHAUSTION:
		dev_warn_ratelimited(rf->dma_dev,
				     "adapter out of resources (AE 0x%04x, id %u)\n",
				     ae, id);
		return;
	case IRDMA_AE_LCE_FUNCTION_CATASTROPHIC:
		/* the whole function, not the QP the id would name */
		dev_err(rf->dma_dev, "catastrophic function error (AE 0x%04x)\n",
			ae);
		irdma_request_reset(rf);
		return;
	}
	iwqp = irdma_qp_get(rf, id);
	if (!iwqp) {
		dev_dbg_ratelimited(rf->dma_dev, "AE 0x%04x for unknown QP %u\n",
				    ae, id);
		return;
	}
	switch (ae) {
	case IRDMA_AE_LLP_CONNECTION_ESTABLISHED:
		irdma_cm_qp_established(iwqp);
		break;
	case IRDMA_AE_LLP_FIN_RECEIVED:
	case IRDMA_AE_LLP_CLOSE_COMPLETE:
	case IRDMA_AE_LLP_CONNECTION_RESET:
	case IRDMA_AE_RDMAP_ROE_BAD_LLP_CLOSE:
	case IRDMA_AE_BAD_CLOSE:
	case IRDMA_AE_RESET_SENT:
	case IRDMA_AE_TERMINATE_SENT:
		irdma_cm_disconn(iwqp, ae, tcp_state);
		break;
	case IRDMA_AE_LLP_TERMINATE_RECEIVED:
		if (q2_data)
			irdma_qp_term_received(iwqp);
		irdma_cm_disconn(iwqp, ae, tcp_state);
		break;
	default:
		dev_err_ratelimited(rf->dma_dev, "QP %u: AE 0x%04x source 0x%x\n",
				    id, ae, src);
		/* memory-protection AEs are access errors, the rest fatal */
		irdma_qp_async_event(iwqp, (ae & 0xff00) == 0x0100 ?
					   IB_EVENT_QP_ACCESS_ERR :
					   IB_EVENT_QP_FATAL);
		/* the CM sends it, unless the connection is already gone */
		irdma_qp_term_build(iwqp, ae, src, q2_data);
		irdma_cm_disconn(iwqp, ae, tcp_state);
		break;
	}
	irdma_qp_put(iwqp);
}

/**
 * irdma_process_aeq() - consume the asynchronous event queue
 * @rf: RDMA function
 *
 * An AEQE with the overflow bit says the adapter found the AEQ full and is
 * dropping events: any connection's close or error may be among them, so
 * the function asks for a reset (once), as for a catastrophic error.
 *
 * Context: the vector's IRQ thread.
 */
static void irdma_process_aeq(struct irdma_pci_f *rf)
{
	struct irdma_aeq *aeq = &rf->aeq;
	struct irdma_aeqe *ring = aeq->mem.va;
	u32 n = 0;

	for (;;) {
		struct irdma_aeqe *e = &ring[aeq->head];
		u64 hdr = le64_to_cpu(READ_ONCE(e->qw[IRDMA_AEQE_HDR]));
		u32 id, ae, src;
		u8 tcp_state;

		if (FIELD_GET(IRDMA_AEQE_QW1_VALID, hdr) != aeq->polarity)
			break;
		dma_rmb();
		id = FIELD_GET(IRDMA_AEQE_QW1_QPCQID_LOW, hdr) |
		     FIELD_GET(IRDMA_AEQE_QW1_QPCQID_HI, hdr) << 18;
		ae = FIELD_GET(IRDMA_AEQE_QW1_AECODE, hdr);
		src = FIELD_GET(IRDMA_AEQE_QW1_AESRC, hdr);
		tcp_state = FIELD_GET(IRDMA_AEQE_QW1_TCPSTATE, hdr);
		if (hdr & IRDMA_AEQE_QW1_OVERFLOW) {
			/*
			 * the events lost may be any connection's close or
			 * error: no QP's state can be trusted any more
			 */
			dev_err_ratelimited(rf->dma_dev,
					    "AEQ full: the adapter lost asynchronous events\n");
			irdma_request_reset(rf);
		}
		dev_dbg_ratelimited(rf->dma_dev, "AE 0x%04x source 0x%x id %u\n",
				    ae, src, id);
		trace_irdma_ae(rf->dma_dev, ae, src, id, tcp_state);
		irdma_hw_stats_ae(rf, ae);
		irdma_dispatch_ae(rf, ae, src, id, tcp_state,
				  FIELD_GET(IRDMA_AEQE_QW1_Q2DATA, hdr));
		if (++aeq->head == aeq->size) {
			aeq->head = 0;
			aeq->polarity ^= 1;
		}
		n++;
	}
	if (n)
		irdma_wr32(rf, IRDMA_REG_AEQALLOC, n);
}

/**
 * irdma_irq_handler() - hard IRQ handler: defer to the IRQ thread
 * @irq: interrupt number
 * @data: the vector
 *
 * Only control-QP completions are taken here (the CCQ is on CEQ 0): their
 * posters wait, and each connection's setup and teardown costs several
 * commands.  Everything else, the CEQ itself included, is the thread's.
 *
 * Return: IRQ_WAKE_THREAD.
 */
static irqreturn_t irdma_irq_handler(int irq, void *data)
{
	struct irdma_msix_vector *vec = data;
	struct irdma_ceq *ceq = READ_ONCE(vec->ceq);

	if (ceq && !ceq->id)
		irdma_ccq_irq(vec->rf);
	return IRQ_WAKE_THREAD;
}

/**
 * irdma_irq_thread() - process the queues a vector serves, then re-arm it
 * @irq: interrupt number
 * @data: the vector
 *
 * The thread never waits for a CQP command: only it may be completing
 * them.
 *
 * Return: IRQ_HANDLED.
 */
static irqreturn_t irdma_irq_thread(int irq, void *data)
{
	struct irdma_msix_vector *vec = data;
	struct irdma_ceq *ceq = READ_ONCE(vec->ceq);
	struct irdma_pci_f *rf = vec->rf;

	if (ceq && READ_ONCE(ceq->created))
		irdma_process_ceq(rf, ceq);
	if (vec->aeq && READ_ONCE(rf->aeq.created))
		irdma_process_aeq(rf);
	irdma_vector_enable(rf, vec);
	return IRQ_HANDLED;
}

/**
 * irdma_route_ceq() - route (or unroute) a CEQ's interrupt cause
 * @rf: RDMA function
 * @ceq: the CEQ
 * @on: route to its vector (else disable the cause)
 *
 * Return: 0 or a negative errno.
 */
static int irdma_route_ceq(struct irdma_pci_f *rf, struct irdma_ceq *ceq,
			   bool on)
{
	if (rf->bus_ops->route_vector)
		return on ? rf->bus_ops->route_vector(rf, ceq->vec->idx, ceq->id,
						      ceq->vec->aeq) : 0;
	irdma_wr32_idx(rf, IRDMA_REG_CEQCTL0, ceq->id, !on ? 0 :
		       IRDMA_QCTL_CAUSE_ENA |
		       FIELD_PREP(IRDMA_QCTL_MSIX_INDX, ceq->vec->idx) |
		       FIELD_PREP(IRDMA_QCTL_ITR_INDX, IRDMA_ITR_INDX_NONE));
	return 0;
}

/**
 * irdma_route_aeq() - route (or unroute) the AEQ's interrupt cause
 * @rf: RDMA function
 * @on: route to vector 0 (else disable the cause)
 *
 * Return: 0 or a negative errno.
 */
static int irdma_route_aeq(struct irdma_pci_f *rf, bool on)
{
	struct irdma_msix_vector *vec = &rf->vectors[0];

	if (rf->bus_ops->route_vector)
		return on ? rf->bus_ops->route_vector(rf, vec->idx,
						      vec->ceq ? vec->ceq->id : -1,
						      true) : 0;
	irdma_wr32(rf, IRDMA_REG_AEQCTL, !on ? 0 : IRDMA_QCTL_CAUSE_ENA |
		   FIELD_PREP(IRDMA_QCTL_MSIX_INDX, vec->idx) |
		   FIELD_PREP(IRDMA_QCTL_ITR_INDX, IRDMA_ITR_INDX_NONE));
	return 0;
}

/**
 * irdma_request_vector() - request the IRQ of a vector and place it
 * @rf: RDMA function
 * @vec: vector
 *
 * The vector of CEQ n goes to the n-th CPU counted from the function's
 * NUMA node (the AEQ's own vector to the first), so that completion
 * vectors spread over CPUs as ULPs mapping their queues to vectors expect
 * (ib_get_vector_affinity()).  It is a hint and the IRQ's initial
 * affinity; an operator or irqbalance may move the IRQ later.
 *
 * Return: 0 or a negative errno.
 */
static int irdma_request_vector(struct irdma_pci_f *rf,
				struct irdma_msix_vector *vec)
{
	int ret;

	if (vec->requested)
		return 0;
	snprintf(vec->name, sizeof(vec->name), "irdma-%s-%s%u",
		 dev_name(rf->parent), vec->aeq ? "aeq" : "ceq",
		 vec->ceq ? vec->ceq->id : 0);
	ret = request_threaded_irq(vec->irq, irdma_irq_handler, irdma_irq_thread,
				   0, vec->name, vec);
	if (ret) {
		dev_err(rf->dma_dev, "request_irq %u failed: %d\n", vec->irq, ret);
		return ret;
	}
	vec->requested = true;
	vec->cpu = cpumask_local_spread(vec->ceq ? vec->ceq->id : 0,
					dev_to_node(rf->parent));
	irq_set_affinity_and_hint(vec->irq, cpumask_of(vec->cpu));
	return 0;
}

/**
 * irdma_free_vector() - disable a vector and free its IRQ
 * @rf: RDMA function
 * @vec: vector
 */
void irdma_free_vector(struct irdma_pci_f *rf, struct irdma_msix_vector *vec)
{
	if (!vec->requested)
		return;
	irdma_wr32_idx(rf, IRDMA_REG_DYN_CTL0, vec->idx, 0);
	irq_update_affinity_hint(vec->irq, NULL);
	free_irq(vec->irq, vec);
	vec->requested = false;
}

/**
 * irdma_ceq_vector() - the vector serving CEQ @id
 * @rf: RDMA function
 * @id: CEQ id
 *
 * With vector 0 shared (at most one vector per CPU at probe), vector 0
 * serves the AEQ and CEQ 0 and vector n serves CEQ n; otherwise vector 0
 * serves only the AEQ and vector n serves CEQ n - 1.
 *
 * Return: the vector.
 */
static struct irdma_msix_vector *irdma_ceq_vector(struct irdma_pci_f *rf,
						  u32 id)
{
	return &rf->vectors[rf->shared_vector0 ? id : id + 1];
}

/**
 * irdma_ceq_create() - create CEQ @id, route it and enable its vector
 * @rf: RDMA function
 * @id: CEQ id
 *
 * Return: 0 or a negative errno.
 */
int irdma_ceq_create(struct irdma_pci_f *rf, u32 id)
{
	struct irdma_ceq *ceq = &rf->ceqs[id];
	u32 size = clamp_t(u32, rf->max_cq, IRDMA_CEQ_MIN_SIZE,
			   IRDMA_CEQ_MAX_COUNT);
	int ret, ret2;

	ceq->id = id;
	ceq->size = size;
	ceq->head = 0;
	ceq->polarity = 1;
	ceq->vec = irdma_ceq_vector(rf, id);
	ceq->vec->ceq = ceq;
	ret = irdma_dma_alloc(rf, &ceq->mem, size * IRDMA_CEQE_SIZE,
			      IRDMA_RING_ALIGN);
	if (ret)
		return ret;
	ret = irdma_cqp_create_ceq(rf, ceq);
	if (ret)
		goto err_free_ring;
	ceq->created = true;
	ret = irdma_request_vector(rf, ceq->vec);
	if (ret)
		goto err_destroy_ceq;
	ret = irdma_route_ceq(rf, ceq, true);
	if (ret)
		goto err_free_vector;
	irdma_vector_enable(rf, ceq->vec);
	return 0;

err_free_vector:
	if (!ceq->vec->aeq)
		irdma_free_vector(rf, ceq->vec);
err_destroy_ceq:
	WRITE_ONCE(ceq->created, false);
	ret2 = irdma_cqp_destroy_ceq(rf, ceq);
	if (ret2)
		irdma_dma_leak(rf, &ceq->mem, ret2);
err_free_ring:
	irdma_dma_free(rf, &ceq->mem);
	ceq->vec->ceq = NULL;
	return ret;
}

/**
 * irdma_ceq_destroy() - unroute and destroy a CEQ
 * @rf: RDMA function
 * @ceq: the CEQ
 */
void irdma_ceq_destroy(struct irdma_pci_f *rf, struct irdma_ceq *ceq)
{
	int ret;

	if (!ceq->created)
		return;
	irdma_route_ceq(rf, ceq, false);
	/* the IRQ thread checks this before touching the ring */
	WRITE_ONCE(ceq->created, false);
	if (!ceq->vec->aeq)
		irdma_free_vector(rf, ceq->vec);
	else
		synchronize_irq(ceq->vec->irq);
	ret = irdma_cqp_destroy_ceq(rf, ceq);
	if (ret)
		irdma_dma_leak(rf, &ceq->mem, ret);
	else
		irdma_dma_free(rf, &ceq->mem);
	WRITE_ONCE(ceq->vec->ceq, NULL);
}

/**
 * irdma_setup_vectors() - describe the vectors the binding handed over
 * @rf: RDMA function
 * @info: binding resources
 *
 * Return: 0 or a negative errno.
 */
int irdma_setup_vectors(struct irdma_pci_f *rf,
			const struct irdma_bus_info *info)
{
	u32 i;

	if (!info->num_vectors) {
		dev_err(rf->dma_dev, "no interrupt vectors\n");
		return -EINVAL;
	}
	rf->num_vectors = min_t(u32, info->num_vectors, IRDMA_MAX_VECTORS);
	rf->vectors = kcalloc(rf->num_vectors, sizeof(*rf->vectors), GFP_KERNEL);
	if (!rf->vectors)
		return -ENOMEM;
	for (i = 0; i < rf->num_vectors; i++) {
		rf->vectors[i].rf = rf;
		rf->vectors[i].irq = info->vectors[i].irq;
		rf->vectors[i].idx = info->vectors[i].idx;
	}
	rf->vectors[0].aeq = true;
	/* decided once: CPU hotplug must not remap CEQs to vectors */
	rf->shared_vector0 = rf->num_vectors <= num_online_cpus();
	return 0;
}

/**
 * irdma_aeq_create() - create the AEQ and route it to vector 0
 * @rf: RDMA function
 *
 * Return: 0 or a negative errno.
 */
int irdma_aeq_create(struct irdma_pci_f *rf)
{
	struct irdma_aeq *aeq = &rf->aeq;
	struct irdma_msix_vector *vec = &rf->vectors[0];
	int ret, ret2;

	aeq->size = clamp_t(u32, 2 * rf->max_qp + rf->max_cq,
			    IRDMA_AEQ_MIN_SIZE, IRDMA_AEQ_MAX_COUNT);
	aeq->head = 0;
	aeq->polarity = 1;
	ret = irdma_dma_alloc(rf, &aeq->mem, aeq->size * sizeof(struct irdma_aeqe),
			      IRDMA_RING_ALIGN);
	if (ret)
		return ret;
	ret = irdma_cqp_create_aeq(rf, aeq);
	if (ret)
		goto err_free_ring;
	aeq->created = true;
	ret = irdma_request_vector(rf, vec);
	if (ret)
		goto err_destroy_aeq;
	ret = irdma_route_aeq(rf, true);
	if (ret)
		goto err_destroy_aeq;
	irdma_vector_enable(rf, vec);
	return 0;

err_destroy_aeq:
	WRITE_ONCE(aeq->created, false);
	ret2 = irdma_cqp_destroy_aeq(rf, aeq);
	if (ret2)
		irdma_dma_leak(rf, &aeq->mem, ret2);
err_free_ring:
	irdma_dma_free(rf, &aeq->mem);
	return ret;
}

/**
 * irdma_aeq_destroy() - unroute and destroy the AEQ
 * @rf: RDMA function
 */
void irdma_aeq_destroy(struct irdma_pci_f *rf)
{
	struct irdma_aeq *aeq = &rf->aeq;
	int ret;

	if (!aeq->created)
		return;
	irdma_route_aeq(rf, false);
	/* the IRQ thread checks this before touching the ring */
	WRITE_ONCE(aeq->created, false);
	synchronize_irq(rf->vectors[0].irq);
	ret = irdma_cqp_destroy_aeq(rf, aeq);
	if (ret)
		irdma_dma_leak(rf, &aeq->mem, ret);
	else
		irdma_dma_free(rf, &aeq->mem);
}

/**
 * irdma_ceqs_destroy_extra() - destroy every CEQ but CEQ 0
 * @rf: RDMA function
 */
void irdma_ceqs_destroy_extra(struct irdma_pci_f *rf)
{
	while (rf->num_ceqs > 1)
		irdma_ceq_destroy(rf, &rf->ceqs[--rf->num_ceqs]);
}

/**
 * irdma_crit_err() - the LAN driver saw a critical error of the function
 * @rf: RDMA function
 * @oicr: the interrupt cause bits it saw (IRDMA_OICR_*)
 *
 * A PE critical error's cause is read from CRITERR: the "Q1 resource
 * check" only counts and is logged; any other cause, an HMC error or a
 * push error asks for a function reset (once).
 *
 * Context: process context (the LAN driver's event work).
 */
void irdma_crit_err(struct irdma_pci_f *rf, u32 oicr)
{
	bool reset = false;
	u32 cause;

	if (oicr & IRDMA_OICR_PE_CRITERR) {
		cause = irdma_rd32(rf, IRDMA_REG_CRITERR);
		if (cause == IRDMA_CRITERR_Q1_RESOURCE) {
			irdma_hw_stats_crit(rf, true);
			dev_warn_ratelimited(rf->dma_dev,
					     "critical error 0x%08x (Q1 resource check): no action\n",
					     cause);
		} else {
			dev_err(rf->dma_dev, "critical error 0x%08x\n", cause);
			reset = true;
		}
	}
	if (oicr & IRDMA_OICR_HMC_ERR) {
		dev_err(rf->dma_dev, "HMC error\n");
		reset = true;
	}
	if (oicr & IRDMA_OICR_PE_PUSH) {
		dev_err(rf->dma_dev, "push error\n");
		reset = true;
	}
	if (!reset)
		return;
	irdma_hw_stats_crit(rf, false);
	irdma_request_reset(rf);
}
