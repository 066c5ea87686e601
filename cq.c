// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * irdma - completion queues.
 *
 * A user CQ's ring and shadow area are user memory libirdma registered
 * with REG_MR (type CQ) just before create_cq; the adapter writes CQEs
 * there and the provider polls them.  The kernel only creates and
 * destroys the CQ and relays its events (CEQEs) to the consumer's
 * completion handler.
 */
#include <rdma/ib_umem.h>
#include <rdma/iter.h>
#include <rdma/irdma-abi.h>
#include <rdma/uverbs_ioctl.h>

#include "irdma.h"
#include "ctrl.h"

#define IRDMA_MIN_CQ_SIZE	4

/**
 * irdma_cq_params() - CREATE_CQ / DESTROY_CQ parameters of a CQ
 * @cq: the CQ
 * @p: filled in
 */
static void irdma_cq_params(struct irdma_cq *cq, struct irdma_cq_params *p)
{
	*p = (struct irdma_cq_params){
		.id = cq->id,
		.size = cq->size,
		.ctx = cq->id,
		.ring_pa = cq->ring_pbl.pa,
		.shadow_pa = cq->shadow_pa,
		.ceq_id = cq->ceq_id,
		.ceq_valid = true,
		.ceqe_mask = true,
		.check_overflow = true,
		.shadow_read_threshold = cq->size >> 2,
		.first_pble = cq->ring_pbl.first,
		.pbl_level = cq->ring_pbl.level,
	};
}

/**
 * irdma_cq_setup_user() - find the rings libirdma registered for a CQ
 * @cq: the CQ, with @size set
 * @ucontext: the creating context
 * @req: user_cq_buf and user_shadow_area
 *
 * The shadow area is either the page after the ring in the same
 * registration, or a registration of its own.
 *
 * Return: 0 or a negative errno.
 */
static int irdma_cq_setup_user(struct irdma_cq *cq,
			       struct irdma_ucontext *ucontext,
			       const struct irdma_create_cq_req *req)
{
	struct irdma_pci_f *rf = ucontext->iwdev->rf;
	struct irdma_ubuf *ring;
	u32 pages;
	int ret;

	ring = irdma_ubuf_take(ucontext, req->user_cq_buf, IRDMA_MEMREG_TYPE_CQ);
	if (!ring)
		return -EINVAL;
	cq->ubuf = ring;
	pages = ring->cq_pages;
	if ((u64)cq->size * sizeof(struct irdma_cqe) > (u64)pages * PAGE_SIZE)
		return -EINVAL;
	if (req->user_shadow_area == req->user_cq_buf + (u64)pages * PAGE_SIZE) {
		cq->shadow_pa = irdma_umem_page_dma(ring->umem, pages);
	} else {
		cq->shadow_buf = irdma_ubuf_take(ucontext, req->user_shadow_area,
						 IRDMA_MEMREG_TYPE_CQ);
		if (!cq->shadow_buf)
			return -EINVAL;
		cq->shadow_pa = irdma_umem_page_dma(cq->shadow_buf->umem, 0);
	}
	if (!cq->shadow_pa)
		return -EINVAL;
	ret = irdma_pbl_from_umem(rf, ring->umem, PAGE_SIZE, 0, pages, false,
				  &cq->ring_pbl);
	return ret;
}

/**
 * irdma_cq_release_user() - give the user rings back to their registrations
 * @cq: the CQ
 * @ucontext: its context
 */
static void irdma_cq_release_user(struct irdma_cq *cq,
				  struct irdma_ucontext *ucontext)
{
	irdma_pbl_free(ucontext->iwdev->rf, &cq->ring_pbl);
	if (cq->shadow_buf)
		irdma_ubuf_put(ucontext, cq->shadow_buf);
	if (cq->ubuf)
		irdma_ubuf_put(ucontext, cq->ubuf);
	cq->shadow_buf = NULL;
	cq->ubuf = NULL;
}

/**
 * irdma_cq_setup_kernel() - the ring of a kernel CQ, in driver memory
 * @cq: the CQ, with @size set
 * @rf: RDMA function
 *
 * Return: 0 or -ENOMEM.
 */
static int irdma_cq_setup_kernel(struct irdma_cq *cq, struct irdma_pci_f *rf)
{
	struct irdma_kcq *kcq;
	int ret;

	kcq = kzalloc(sizeof(*kcq), GFP_KERNEL);
	if (!kcq)
		return -ENOMEM;
	spin_lock_init(&kcq->lock);
	kcq->cq = cq;
	INIT_WORK(&kcq->notify, irdma_kcq_notify_work);
	INIT_LIST_HEAD(&kcq->flushed_sq);
	INIT_LIST_HEAD(&kcq->flushed_rq);
	ret = irdma_cq_ring_alloc(rf, &kcq->ring, cq->id, cq->size);
	if (ret) {
		kfree(kcq);
		return ret;
	}
	cq->k = kcq;
	cq->ring_pbl.pa = kcq->ring.mem.pa;
	cq->shadow_pa = kcq->ring.shadow_pa;
	return 0;
}

/**
 * irdma_cq_release() - free what a CQ's rings took
 * @cq: the CQ
 * @rf: RDMA function
 * @ucontext: its context (user CQs) or NULL
 */
static void irdma_cq_release(struct irdma_cq *cq, struct irdma_pci_f *rf,
			     struct irdma_ucontext *ucontext)
{
	if (cq->k) {
		cancel_work_sync(&cq->k->notify);
		irdma_dma_free(rf, &cq->k->ring.mem);
		irdma_dma_free(rf, &cq->k->old.mem);
		kfree(cq->k);
		cq->k = NULL;
	} else if (ucontext) {
		irdma_cq_release_user(cq, ucontext);
	}
}

/**
 * irdma_cq_max_cqe() - the most CQEs a consumer may ask of one CQ
 *
 * Return: the smaller of the kernel and the user limit, so that what the
 * device advertises works for every consumer.  A kernel CQ's ring is one
 * coherent DMA allocation, so at most one buddy block with the shadow
 * area behind the ring, and it has two ring entries per CQE asked for and
 * two more; a user CQ's ring is pinned user memory and may hold up to
 * IRDMA_GEN2_MAX_CQ_SIZE entries.
 */
u32 irdma_cq_max_cqe(void)
{
	size_t bytes = (PAGE_SIZE << (MAX_ORDER - 1)) -
		       IRDMA_CQ_SHADOW_WORDS * sizeof(__le64);
	u32 ring = rounddown(bytes, IRDMA_CQ_SHADOW_ALIGN) /
		   sizeof(struct irdma_cqe);

	return min_t(u32, ring, IRDMA_GEN2_MAX_CQ_SIZE) / 2 - 1;
}

/**
 * irdma_cq_ring_size() - the ring a consumer's CQ size asks for
 * @entries: what the consumer asked for
 * @user: a user CQ (libirdma sends the final ring size)
 *
 * Return: the ring size in CQEs, or 0 when @entries is out of range.
 */
static u32 irdma_cq_ring_size(int entries, bool user)
{
	u32 size;

	if (entries < 1 ||
	    entries > (user ? IRDMA_GEN2_MAX_CQ_SIZE : irdma_cq_max_cqe()))
		return 0;
	/* a kernel ring leaves room for extended CQEs, as libirdma does */
	size = user ? max_t(u32, entries, IRDMA_MIN_CQ_SIZE) : (entries + 1) * 2;
	return size > IRDMA_GEN2_MAX_CQ_SIZE ? 0 : size;
}

/**
 * irdma_create_cq() - create a completion queue
 * @ibcq: the CQ to initialise
 * @attr: size and completion vector
 * @udata: libirdma's struct irdma_create_cq_req / irdma_create_cq_resp,
 *	or NULL for a kernel CQ
 *
 * A kernel CQ's ring is driver memory polled by irdma_poll_cq().
 *
 * Return: 0 or a negative errno.
 */
int irdma_create_cq(struct ib_cq *ibcq, const struct ib_cq_init_attr *attr,
		    struct ib_udata *udata)
{
	struct irdma_cq *cq = container_of(ibcq, struct irdma_cq, ibcq);
	struct irdma_device *iwdev = to_iwdev(ibcq->device);
	struct irdma_pci_f *rf = iwdev->rf;
	struct irdma_create_cq_resp resp = {};
	struct irdma_create_cq_req req = {};
	struct irdma_ucontext *ucontext;
	struct irdma_cq_params p;
	int id, ret;

	if (attr->flags & ~IB_UVERBS_CQ_FLAGS_TIMESTAMP_COMPLETION)
		return -EOPNOTSUPP;
	mutex_init(&cq->resize_lock);
	cq->size = irdma_cq_ring_size(attr->cqe, udata);
	if (!cq->size)
		return -EINVAL;
	if (udata) {
		if (udata->inlen < sizeof(req))
			return -EINVAL;
		ret = ib_copy_from_udata(&req, udata, sizeof(req));
		if (ret)
			return ret;
	}
	ucontext = rdma_udata_to_drv_context(udata, struct irdma_ucontext,
					     ibucontext);
	cq->ceq_id = attr->comp_vector % rf->num_ceqs;

	id = ida_alloc_range(&rf->cq_ida, IRDMA_FIRST_USER_CQ_ID, rf->max_cq - 1,
			     GFP_KERNEL);
	if (id < 0)
		return id;
	cq->id = id;
	if (udata)
		ret = irdma_cq_setup_user(cq, ucontext, &req);
	else
		ret = irdma_cq_setup_kernel(cq, rf);
	if (ret)
		goto err_release;
	ret = xa_insert(&rf->cq_table, cq->id, cq, GFP_KERNEL);
	if (ret)
		goto err_release;
	irdma_cq_params(cq, &p);
	ret = irdma_cqp_create_cq(rf, &p);
	if (ret)
		goto err_erase;
	cq->created = true;
	/*
	 * What the consumer may have outstanding: ib_cq_pool_get() packs
	 * ULPs' QPs into CQs by it, and uverbs tells user space.  A kernel
	 * ring has room for twice that (the extended CQE layout); a user
	 * ring is what libirdma sized.
	 */
	ibcq->cqe = udata ? cq->size : attr->cqe;

	if (!udata)
		return 0;
	resp.cq_id = cq->id;
	resp.cq_size = cq->size;
	ret = ib_copy_to_udata(udata, &resp, min(sizeof(resp), udata->outlen));
	if (ret)
		goto err_destroy;
	return 0;

err_destroy:
	if (irdma_cqp_destroy_cq(rf, &p)) {
		/* the adapter still writes there: keep the pages pinned */
		xa_erase(&rf->cq_table, cq->id);
		return ret;
	}
err_erase:
	xa_erase(&rf->cq_table, cq->id);
err_release:
	irdma_cq_release(cq, rf, ucontext);
	ida_free(&rf->cq_ida, cq->id);
	return ret;
}

/**
 * irdma_cq_leak() - give up a CQ the adapter may still write
 * @cq: the CQ; its ring is leaked or kept pinned, its id stays taken
 * @rf: RDMA function
 * @ucontext: its user context, or NULL for a kernel CQ
 * @err: why DESTROY_CQ failed
 */
static void irdma_cq_leak(struct irdma_cq *cq, struct irdma_pci_f *rf,
			  struct irdma_ucontext *ucontext, int err)
{
	xa_erase(&rf->cq_table, cq->id);
	synchronize_irq(rf->ceqs[cq->ceq_id].vec->irq);
	synchronize_irq(rf->vectors[0].irq);
	if (cq->k) {
		cancel_work_sync(&cq->k->notify);
		irdma_dma_leak(rf, &cq->k->ring.mem, err);
		/* the ring before a resize is no longer the adapter's */
		irdma_dma_free(rf, &cq->k->old.mem);
		kfree(cq->k);
		cq->k = NULL;
		return;
	}
	if (!ucontext)
		return;
	/* the page list is the adapter's too: not freed */
	if (cq->shadow_buf)
		irdma_ubuf_leak(ucontext, cq->shadow_buf);
	if (cq->ubuf)
		irdma_ubuf_leak(ucontext, cq->ubuf);
	cq->shadow_buf = NULL;
	cq->ubuf = NULL;
	irdma_request_reset(rf);
}

/**
 * irdma_destroy_cq() - destroy a completion queue
 * @ibcq: the CQ
 * @udata: user data
 *
 * Once DESTROY_CQ has completed the adapter writes no more CQEs, CEQEs or
 * AEQEs for it; synchronize_irq() waits for an event being delivered.
 * When the command fails the adapter may still write the ring: it is
 * leaked (driver memory) or kept pinned (a user ring), and its id stays
 * taken, but the CQ is gone for ib_core, which cannot tear down a context
 * with objects that refuse to go.
 *
 * Return: 0.
 */
int irdma_destroy_cq(struct ib_cq *ibcq, struct ib_udata *udata)
{
	struct irdma_cq *cq = container_of(ibcq, struct irdma_cq, ibcq);
	struct irdma_pci_f *rf = to_iwdev(ibcq->device)->rf;
	struct irdma_ucontext *ucontext =
		rdma_udata_to_drv_context(udata, struct irdma_ucontext,
					  ibucontext);
	struct irdma_cq_params p;
	int ret;

	if (cq->created) {
		irdma_cq_params(cq, &p);
		ret = irdma_cqp_destroy_cq(rf, &p);
		if (ret) {
			irdma_cq_leak(cq, rf, ucontext, ret);
			return 0;
		}
		cq->created = false;
	}
	xa_erase(&rf->cq_table, cq->id);
	/*
	 * A CEQE or an AEQE naming the CQ may be in hand: the CEQ's and the
	 * AEQ's IRQ threads looked it up before the erase.  Wait for both.
	 */
	synchronize_irq(rf->ceqs[cq->ceq_id].vec->irq);
	synchronize_irq(rf->vectors[0].irq);
	irdma_cq_release(cq, rf, ucontext);
	ida_free(&rf->cq_ida, cq->id);
	return 0;
}

/**
 * irdma_cq_event() - a CEQE names a CQ: run its completion handler
 * @rf: RDMA function
 * @cq_id: the CQ
 *
 * Context: the CEQ's IRQ thread; irdma_destroy_cq() waits for it.
 */
void irdma_cq_event(struct irdma_pci_f *rf, u32 cq_id)
{
	struct irdma_cq *cq = xa_load(&rf->cq_table, cq_id);
	struct ib_cq *ibcq;

	if (!cq) {
		dev_dbg_ratelimited(rf->dma_dev, "event for unknown CQ %u\n",
				    cq_id);
		return;
	}
	ibcq = &cq->ibcq;
	if (cq->k) {
		unsigned long flags;

		/* the arm this event answers is used up */
		spin_lock_irqsave(&cq->k->lock, flags);
		cq->k->armed = false;
		spin_unlock_irqrestore(&cq->k->lock, flags);
	}
	if (ibcq->comp_handler)
		ibcq->comp_handler(ibcq, ibcq->cq_context);
}

/**
 * irdma_cq_async_event() - report a CQ error to the consumer
 * @rf: RDMA function
 * @cq_id: the CQ
 *
 * Context: the AEQ's IRQ thread.
 */
void irdma_cq_async_event(struct irdma_pci_f *rf, u32 cq_id)
{
	struct irdma_cq *cq = xa_load(&rf->cq_table, cq_id);
	struct ib_event ev = { .event = IB_EVENT_CQ_ERR };
	struct ib_cq *ibcq;

	if (!cq)
		return;
	/* an overflowed CQ is in error for good: its consumer hears it once */
	if (cq->err_reported)
		return;
	cq->err_reported = true;
	ibcq = &cq->ibcq;
	if (!ibcq->event_handler)
		return;
	ev.device = ibcq->device;
	ev.element.cq = ibcq;
	ibcq->event_handler(&ev, ibcq->cq_context);
}

/**
 * irdma_cq_resize_user() - move a user CQ to the ring libirdma registered
 * @cq: the CQ
 * @size: the new ring size in CQEs
 * @ucontext: its context
 * @udata: struct irdma_resize_cq_req (the new ring's address)
 *
 * libirdma polls the old ring until it is empty, then the new one from
 * index 0; the old registration goes back on the context's list for its
 * DEREG_MR.  The shadow area stays: a CQ whose shadow area lives in its
 * ring's registration (a provider without the CQ_RESIZE feature) cannot
 * be resized.
 *
 * Return: 0 or a negative errno.
 */
static int irdma_cq_resize_user(struct irdma_cq *cq, u32 size,
				struct irdma_ucontext *ucontext,
				struct ib_udata *udata)
{
	struct irdma_pci_f *rf = ucontext->iwdev->rf;
	struct irdma_resize_cq_req req = {};
	struct irdma_cq_params p;
	struct irdma_ubuf *ring;
	struct irdma_pbl pbl;
	int ret;

	if (!cq->shadow_buf)
		return -EOPNOTSUPP;
	if (udata->inlen < sizeof(req))
		return -EINVAL;
	ret = ib_copy_from_udata(&req, udata, sizeof(req));
	if (ret)
		return ret;
	ring = irdma_ubuf_take(ucontext, req.user_cq_buffer,
			       IRDMA_MEMREG_TYPE_CQ);
	if (!ring)
		return -EINVAL;
	ret = -EINVAL;
	if ((u64)size * sizeof(struct irdma_cqe) >
	    (u64)ring->cq_pages * PAGE_SIZE)
		goto err_put;
	ret = irdma_pbl_from_umem(rf, ring->umem, PAGE_SIZE, 0, ring->cq_pages,
				  false, &pbl);
	if (ret)
		goto err_put;
	irdma_cq_params(cq, &p);
	p.size = size;
	p.shadow_read_threshold = size >> 2;
	p.ring_pa = pbl.pa;
	p.first_pble = pbl.first;
	p.pbl_level = pbl.level;
	ret = irdma_cqp_resize_cq(rf, &p);
	if (ret == -ETIMEDOUT) {
		/* the adapter may write either ring: both stay pinned */
		irdma_ubuf_leak(ucontext, ring);
		return ret;
	}
	if (ret) {
		irdma_pbl_free(rf, &pbl);
		goto err_put;
	}
	irdma_pbl_free(rf, &cq->ring_pbl);
	irdma_ubuf_put(ucontext, cq->ubuf);
	cq->ubuf = ring;
	cq->ring_pbl = pbl;
	cq->size = size;
	return 0;

err_put:
	irdma_ubuf_put(ucontext, ring);
	return ret;
}

/**
 * irdma_cq_arm_word_move() - a new ring's shadow area takes the arm word
 * @to: the new ring
 * @from: the current ring
 *
 * With SW_CQ_SELECT one higher: the new shadow area's head index (word 0)
 * is the new ring's from the start, since the old ring's consumer index
 * is never written there.
 *
 * Context: the CQ's kcq->lock held.
 */
static void irdma_cq_arm_word_move(struct irdma_cq_ring *to,
				   const struct irdma_cq_ring *from)
{
	u64 arm = le64_to_cpu(READ_ONCE(from->shadow[IRDMA_CQ_SHADOW_ARM]));
	u64 sel = FIELD_GET(IRDMA_CQ_SHADOW_ARM_SW_CQ_SEL, arm) + 1;

	arm &= ~IRDMA_CQ_SHADOW_ARM_SW_CQ_SEL;
	arm |= FIELD_PREP(IRDMA_CQ_SHADOW_ARM_SW_CQ_SEL,
			  sel & FIELD_MAX(IRDMA_CQ_SHADOW_ARM_SW_CQ_SEL));
	WRITE_ONCE(to->shadow[IRDMA_CQ_SHADOW_ARM], cpu_to_le64(arm));
	to->arm_seq = from->arm_seq;
}

/**
 * irdma_cq_resize_kernel() - move a kernel CQ to a new ring
 * @cq: the CQ
 * @size: the new ring size in CQEs
 * @rf: RDMA function
 *
 * The CQEs the adapter wrote before the resize stay in the old ring,
 * which irdma_poll_cq() empties first; a resize waits for nothing, but a
 * second one while the first one's ring still holds CQEs is refused.  The
 * new shadow area starts with the old one's arm word, and an armed CQ is
 * armed again on the new ring, since the adapter may have read the arm
 * word before the consumer's last arm reached it.
 *
 * Return: 0 or a negative errno (-EBUSY: the last resize's ring still
 * holds CQEs).
 */
static int irdma_cq_resize_kernel(struct irdma_cq *cq, u32 size,
				  struct irdma_pci_f *rf)
{
	struct irdma_kcq *kcq = cq->k;
	struct irdma_cq_ring ring;
	struct irdma_cq_params p;
	unsigned long flags;
	bool busy;
	int ret;

	spin_lock_irqsave(&kcq->lock, flags);
	busy = kcq->old_live;
	spin_unlock_irqrestore(&kcq->lock, flags);
	if (busy)
		return -EBUSY;
	irdma_dma_free(rf, &kcq->old.mem);
	ret = irdma_cq_ring_alloc(rf, &ring, cq->id, size);
	if (ret)
		return ret;
	irdma_cq_params(cq, &p);
	p.size = size;
	p.shadow_read_threshold = size >> 2;
	p.ring_pa = ring.mem.pa;
	p.shadow_pa = ring.shadow_pa;
	spin_lock_irqsave(&kcq->lock, flags);
	irdma_cq_arm_word_move(&ring, &kcq->ring);
	spin_unlock_irqrestore(&kcq->lock, flags);

	ret = irdma_cqp_resize_cq(rf, &p);
	if (ret == -ETIMEDOUT) {
		irdma_dma_leak(rf, &ring.mem, ret);
		return ret;
	}
	if (ret) {
		irdma_dma_free(rf, &ring.mem);
		return ret;
	}
	spin_lock_irqsave(&kcq->lock, flags);
	/* once more: an arm since the first copy went to the old shadow area */
	irdma_cq_arm_word_move(&ring, &kcq->ring);
	kcq->old = kcq->ring;
	kcq->old_live = true;
	kcq->ring = ring;
	cq->size = size;
	cq->ring_pbl.pa = ring.mem.pa;
	cq->shadow_pa = ring.shadow_pa;
	if (kcq->armed)
		irdma_cq_ring_arm(rf, &kcq->ring, kcq->arm_solicited);
	spin_unlock_irqrestore(&kcq->lock, flags);
	return 0;
}

/**
 * irdma_resize_cq() - give a completion queue a ring of another size
 * @ibcq: the CQ
 * @entries: CQEs the consumer wants room for (libirdma: the ring size)
 * @udata: libirdma's struct irdma_resize_cq_req, or NULL for a kernel CQ
 *
 * Completions queued before the resize are not lost: they stay in the old
 * ring, which the consumer empties first (libirdma for a user CQ,
 * irdma_poll_cq() for a kernel one).
 *
 * Context: process context, may sleep.
 * Return: 0 or a negative errno.
 */
int irdma_resize_cq(struct ib_cq *ibcq, int entries, struct ib_udata *udata)
{
	struct irdma_cq *cq = container_of(ibcq, struct irdma_cq, ibcq);
	struct irdma_pci_f *rf = to_iwdev(ibcq->device)->rf;
	struct irdma_ucontext *ucontext =
		rdma_udata_to_drv_context(udata, struct irdma_ucontext,
					  ibucontext);
	u32 size = irdma_cq_ring_size(entries, udata);
	int ret;

	if (!size)
		return -EINVAL;
	mutex_lock(&cq->resize_lock);
	if (size == cq->size)
		ret = 0;
	else if (udata)
		ret = irdma_cq_resize_user(cq, size, ucontext, udata);
	else
		ret = irdma_cq_resize_kernel(cq, size, rf);
	if (!ret)
		ibcq->cqe = udata ? size : entries;
	mutex_unlock(&cq->resize_lock);
	return ret;
}
