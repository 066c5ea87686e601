// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * irdma - memory: physical buffer lists (PBLEs, in the HMC), memory
 * regions, and the user QP/CQ buffers that libirdma registers with REG_MR
 * before creating a QP or CQ.
 *
 * A region whose pages are not one contiguous block is described to the
 * adapter by a one-level PBL: a run of 8-byte PBLEs, each the DMA address
 * of one page, allocated from the HMC's PBLE object and written into the
 * HMC backing pages.
 */
#include <linux/random.h>
#include <rdma/ib_umem.h>
#include <rdma/iter.h>
#include <rdma/irdma-abi.h>
#include <rdma/uverbs_ioctl.h>

#include "irdma.h"
#include "ctrl.h"
#include "wqe.h"

#define IRDMA_PBLE_SIZE		8

/**
 * irdma_pble_init() - the PBLE allocator over the committed HMC PBLEs
 * @rf: RDMA function, HMC set up
 *
 * Return: 0 or -ENOMEM.
 */
int irdma_pble_init(struct irdma_pci_f *rf)
{
	mutex_init(&rf->pble_lock);
	rf->pble_cnt = rf->hmc.obj[IRDMA_HMC_PBLE].cnt;
	rf->pble_map = bitmap_zalloc(rf->pble_cnt, GFP_KERNEL);
	return rf->pble_map ? 0 : -ENOMEM;
}

/**
 * irdma_pble_fini() - free the PBLE allocator
 * @rf: RDMA function
 */
void irdma_pble_fini(struct irdma_pci_f *rf)
{
	if (rf->pble_map && !bitmap_empty(rf->pble_map, rf->pble_cnt))
		dev_warn(rf->dma_dev, "PBLEs still allocated at teardown\n");
	bitmap_free(rf->pble_map);
	rf->pble_map = NULL;
}

/**
 * irdma_pble_entry() - host address of a PBLE
 * @rf: RDMA function
 * @idx: PBLE index
 *
 * Return: the 8-byte entry in the HMC backing pages.
 */
static __le64 *irdma_pble_entry(struct irdma_pci_f *rf, u32 idx)
{
	struct irdma_hmc *hmc = &rf->hmc;
	u64 fpm = hmc->obj[IRDMA_HMC_PBLE].base + (u64)idx * IRDMA_PBLE_SIZE;
	u32 sd = fpm / IRDMA_HMC_SD_SIZE - hmc->first_sd;

	return hmc->sd_pages[sd].va + fpm % IRDMA_HMC_SD_SIZE;
}

/**
 * irdma_pbl_free() - release a region's PBLEs
 * @rf: RDMA function
 * @pbl: placement; cleared
 */
void irdma_pbl_free(struct irdma_pci_f *rf, struct irdma_pbl *pbl)
{
	if (pbl->level && pbl->cnt) {
		mutex_lock(&rf->pble_lock);
		bitmap_clear(rf->pble_map, pbl->first, pbl->cnt);
		mutex_unlock(&rf->pble_lock);
	}
	memset(pbl, 0, sizeof(*pbl));
}

/**
 * irdma_pbl_from_umem() - describe pinned pages to the adapter
 * @rf: RDMA function
 * @umem: the pages
 * @pg_size: page size to describe them in (a size umem supports)
 * @skip: pages at the start to leave out
 * @npages: pages to describe
 * @force_pbl: describe them with a PBL even if they are contiguous
 * @pbl: filled in: contiguous address if the pages are one block, else a
 *	one-level PBL
 *
 * Return: 0, -ENOSPC when no run of PBLEs is free, -EINVAL for a range
 * beyond the umem.
 */
int irdma_pbl_from_umem(struct irdma_pci_f *rf, struct ib_umem *umem,
			unsigned long pg_size, u32 skip, u32 npages,
			bool force_pbl, struct irdma_pbl *pbl)
{
	struct ib_block_iter it;
	dma_addr_t first = 0, expect = 0;
	bool contiguous = true;
	unsigned long start;
	u32 i = 0, n = 0;

	if (!npages || skip + npages > ib_umem_num_dma_blocks(umem, pg_size))
		return -EINVAL;
	memset(pbl, 0, sizeof(*pbl));
	pbl->pg_shift = ilog2(pg_size);
	rdma_umem_for_each_dma_block(umem, &it, pg_size) {
		dma_addr_t a = rdma_block_iter_dma_address(&it);

		if (i++ < skip)
			continue;
		if (n == npages)
			break;
		if (!n)
			first = a;
		else if (a != expect)
			contiguous = false;
		expect = a + pg_size;
		n++;
	}
	if (contiguous && !force_pbl) {
		pbl->pa = first;
		return 0;
	}
	mutex_lock(&rf->pble_lock);
	start = bitmap_find_next_zero_area(rf->pble_map, rf->pble_cnt, 0,
					   npages, 0);
	if (start >= rf->pble_cnt) {
		mutex_unlock(&rf->pble_lock);
		return -ENOSPC;
	}
	bitmap_set(rf->pble_map, start, npages);
	mutex_unlock(&rf->pble_lock);
	pbl->level = 1;
	pbl->first = start;
	pbl->cnt = npages;
	i = 0;
	n = 0;
	rdma_umem_for_each_dma_block(umem, &it, pg_size) {
		if (i++ < skip)
			continue;
		if (n == npages)
			break;
		WRITE_ONCE(*irdma_pble_entry(rf, start + n),
			   cpu_to_le64(rdma_block_iter_dma_address(&it)));
		n++;
	}
	/* the list must be in memory before a command points at it */
	dma_wmb();
	return 0;
}

/**
 * irdma_alloc_stag() - a free STag: index from the MR table, random key
 * @rf: RDMA function
 *
 * Return: the STag, or a negative errno.
 */
static int irdma_alloc_stag(struct irdma_pci_f *rf)
{
	int idx = ida_alloc_range(&rf->mr_ida, 1, rf->max_mr - 1, GFP_KERNEL);

	if (idx < 0)
		return idx;
	return idx << 8 | get_random_u8();
}

/**
 * irdma_free_stag() - return an STag's index
 * @rf: RDMA function
 * @stag: STag from irdma_alloc_stag()
 */
static void irdma_free_stag(struct irdma_pci_f *rf, u32 stag)
{
	ida_free(&rf->mr_ida, stag >> 8);
}

/**
 * irdma_access() - adapter access rights from verbs access flags
 * @acc: IB_ACCESS_* flags
 *
 * Return: IRDMA_ACCESS_* rights (local read always).
 */
static u8 irdma_access(int acc)
{
	u8 a = IRDMA_ACCESS_LOCAL_READ;

	if (acc & IB_ACCESS_LOCAL_WRITE)
		a |= IRDMA_ACCESS_LOCAL_WRITE;
	if (acc & IB_ACCESS_REMOTE_WRITE)
		a |= IRDMA_ACCESS_REMOTE_WRITE | IRDMA_ACCESS_LOCAL_WRITE;
	if (acc & IB_ACCESS_REMOTE_READ)
		a |= IRDMA_ACCESS_REMOTE_READ;
	if (acc & IB_ACCESS_MW_BIND)
		a |= IRDMA_ACCESS_BIND_WINDOW;
	return a;
}

/**
 * irdma_hw_page_size() - the adapter's code for a page size
 * @pg_size: 4 KiB, 2 MiB or 1 GiB
 *
 * Return: IRDMA_PAGE_SIZE_*.
 */
static u8 irdma_hw_page_size(unsigned long pg_size)
{
	if (pg_size == SZ_1G)
		return IRDMA_PAGE_SIZE_1G;
	if (pg_size == SZ_2M)
		return IRDMA_PAGE_SIZE_2M;
	return IRDMA_PAGE_SIZE_4K;
}

/**
 * irdma_reg_phys_mr() - register a kernel DMA buffer as a region
 * @rf: RDMA function
 * @pd_id: PD
 * @mem: the buffer (contiguous)
 * @stag: receives the STag; the tagged offset is the DMA address
 *
 * Used for the LSMM buffer of a passive connection.
 *
 * Return: 0 or a negative errno.
 */
int irdma_reg_phys_mr(struct irdma_pci_f *rf, u32 pd_id,
		      const struct irdma_dma_mem *mem, u32 *stag)
{
	struct irdma_pbl pbl = { .pa = mem->pa, .pg_shift = PAGE_SHIFT };
	struct irdma_mr_params p = {
		.pd_id = pd_id,
		.va = mem->pa,
		.len = mem->size,
		.pbl = &pbl,
		.hw_page_size = IRDMA_PAGE_SIZE_4K,
		.access = IRDMA_ACCESS_LOCAL_READ | IRDMA_ACCESS_LOCAL_WRITE,
	};
	int ret;

	ret = irdma_alloc_stag(rf);
	if (ret < 0)
		return ret;
	p.stag = ret;
	ret = irdma_cqp_reg_mr(rf, &p);
	if (ret) {
		irdma_free_stag(rf, p.stag);
		return ret;
	}
	*stag = p.stag;
	return 0;
}

/**
 * irdma_dereg_phys_mr() - undo irdma_reg_phys_mr()
 * @rf: RDMA function
 * @pd_id: PD
 * @stag: STag
 *
 * Return: 0 or a negative errno (then the STag stays allocated).
 */
int irdma_dereg_phys_mr(struct irdma_pci_f *rf, u32 pd_id, u32 stag)
{
	int ret = irdma_cqp_dealloc_stag(rf, stag, pd_id, true);

	if (!ret)
		irdma_free_stag(rf, stag);
	return ret;
}

/**
 * irdma_ubuf_reg() - remember a user QP or CQ buffer
 * @mr: the registration being made
 * @ucontext: the registering context
 * @req: libirdma's request (type and page counts)
 * @start: user address of the buffer
 * @len: its length
 *
 * No STag: the adapter reaches these buffers through the QP/CQ contexts.
 *
 * Return: 0 or a negative errno.
 */
static int irdma_ubuf_reg(struct irdma_mr *mr, struct irdma_ucontext *ucontext,
			  const struct irdma_mem_reg_req *req, u64 start,
			  u64 len)
{
	u32 need = req->reg_type == IRDMA_MEMREG_TYPE_QP ?
		   req->sq_pages + req->rq_pages + 1 : req->cq_pages;
	struct irdma_ubuf *ubuf;

	if (!PAGE_ALIGNED(start) || !need)
		return -EINVAL;
	if (ib_umem_num_dma_blocks(mr->umem, PAGE_SIZE) < need) {
		ibdev_dbg(mr->ibmr.device, "buffer of %zu pages, %u needed\n",
			  ib_umem_num_dma_blocks(mr->umem, PAGE_SIZE), need);
		return -EINVAL;
	}
	ubuf = kzalloc(sizeof(*ubuf), GFP_KERNEL);
	if (!ubuf)
		return -ENOMEM;
	ubuf->va = start;
	ubuf->umem = mr->umem;
	ubuf->type = req->reg_type;
	ubuf->sq_pages = req->sq_pages;
	ubuf->rq_pages = req->rq_pages;
	ubuf->cq_pages = req->cq_pages;
	spin_lock(&ucontext->bufs_lock);
	list_add_tail(&ubuf->list, &ucontext->bufs);
	spin_unlock(&ucontext->bufs_lock);
	mr->ubuf = ubuf;
	return 0;
}

/**
 * irdma_ubuf_take() - take the user buffer registered at an address
 * @ucontext: context
 * @va: user address
 * @type: IRDMA_MEMREG_TYPE_QP or IRDMA_MEMREG_TYPE_CQ
 *
 * Return: the buffer, now in use, or NULL.
 */
struct irdma_ubuf *irdma_ubuf_take(struct irdma_ucontext *ucontext, u64 va,
				   u16 type)
{
	struct irdma_ubuf *ubuf, *found = NULL;

	spin_lock(&ucontext->bufs_lock);
	list_for_each_entry(ubuf, &ucontext->bufs, list) {
		if (ubuf->va == va && ubuf->type == type && !ubuf->in_use) {
			ubuf->in_use = true;
			list_del_init(&ubuf->list);
			found = ubuf;
			break;
		}
	}
	spin_unlock(&ucontext->bufs_lock);
	return found;
}

/**
 * irdma_ubuf_put() - a QP or CQ no longer uses a user buffer
 * @ucontext: context
 * @ubuf: the buffer; it goes back on the list until its DEREG_MR
 */
void irdma_ubuf_put(struct irdma_ucontext *ucontext, struct irdma_ubuf *ubuf)
{
	spin_lock(&ucontext->bufs_lock);
	ubuf->in_use = false;
	list_add_tail(&ubuf->list, &ucontext->bufs);
	spin_unlock(&ucontext->bufs_lock);
}

/**
 * irdma_ubuf_leak() - a QP or CQ that could not be destroyed gives up its
 * user buffer
 * @ucontext: context
 * @ubuf: the buffer; it goes back on the list, marked leaked, so that its
 *	DEREG_MR succeeds but keeps the pages pinned (irdma_dereg_mr())
 */
void irdma_ubuf_leak(struct irdma_ucontext *ucontext, struct irdma_ubuf *ubuf)
{
	ubuf->leaked = true;
	irdma_ubuf_put(ucontext, ubuf);
}

/**
 * irdma_umem_leak() - keep pages pinned that the adapter may still write
 * @rf: RDMA function
 * @umem: the pages; forgotten, never released
 * @why: what could not be destroyed
 *
 * Releasing them would let the adapter write into memory the kernel gives
 * to someone else; keeping them pinned until the function is reset, and
 * the process's memory with them, is the lesser harm.
 */
static void irdma_umem_leak(struct irdma_pci_f *rf, struct ib_umem *umem,
			    const char *why)
{
	if (!umem)
		return;
	atomic64_add(umem->length, &rf->leaked_bytes);
	dev_err_ratelimited(rf->dma_dev,
			    "keeping %zu bytes of user memory pinned: %s\n",
			    umem->length, why);
}

/**
 * irdma_reg_user_mr() - register user memory
 * @ibpd: PD
 * @start: user address
 * @len: length
 * @virt: IO virtual address (tagged offset of @start)
 * @acc: IB_ACCESS_* flags
 * @udata: libirdma's struct irdma_mem_reg_req
 *
 * Type MEM makes a region with an STag; types QP and CQ pin a ring buffer
 * for a following create_qp/create_cq (libirdma registers each ring this
 * way just before it creates the QP or CQ).
 *
 * Return: the region or an ERR_PTR().
 */
struct ib_mr *irdma_reg_user_mr(struct ib_pd *ibpd, u64 start, u64 len,
				u64 virt, int acc, struct ib_udata *udata)
{
	struct irdma_device *iwdev = to_iwdev(ibpd->device);
	struct irdma_ucontext *ucontext =
		rdma_udata_to_drv_context(udata, struct irdma_ucontext,
					  ibucontext);
	struct irdma_pci_f *rf = iwdev->rf;
	struct irdma_mem_reg_req req = {};
	struct irdma_mr_params p = {};
	struct irdma_pbl direct;
	unsigned long pg_size;
	struct irdma_mr *mr;
	int ret;

	if (!udata || udata->inlen < sizeof(req))
		return ERR_PTR(-EINVAL);
	if (!len || len > IRDMA_MAX_MR_SIZE)
		return ERR_PTR(-EINVAL);
	ret = ib_copy_from_udata(&req, udata, sizeof(req));
	if (ret)
		return ERR_PTR(ret);
	if (req.reg_type != IRDMA_MEMREG_TYPE_MEM &&
	    req.reg_type != IRDMA_MEMREG_TYPE_QP &&
	    req.reg_type != IRDMA_MEMREG_TYPE_CQ)
		return ERR_PTR(-EINVAL);

	mr = kzalloc(sizeof(*mr), GFP_KERNEL);
	if (!mr)
		return ERR_PTR(-ENOMEM);
	/*
	 * The adapter writes QP and CQ rings (CQEs, shadow areas, the RQ's
	 * consumed WQEs) whatever access the caller asked for: pin them
	 * writable, so a read-only mapping is refused here rather than
	 * written behind the kernel's back.
	 */
	if (req.reg_type != IRDMA_MEMREG_TYPE_MEM)
		acc |= IB_ACCESS_LOCAL_WRITE;
	mr->umem = ib_umem_get(ibpd->device, start, len, acc);
	if (IS_ERR(mr->umem)) {
		ret = PTR_ERR(mr->umem);
		goto err_free_mr;
	}
	if (req.reg_type != IRDMA_MEMREG_TYPE_MEM) {
		ret = irdma_ubuf_reg(mr, ucontext, &req, start, len);
		if (ret)
			goto err_release;
		return &mr->ibmr;
	}

	pg_size = ib_umem_find_best_pgsz(mr->umem, SZ_4K | SZ_2M | SZ_1G, virt);
	if (!pg_size) {
		ret = -EINVAL;
		goto err_release;
	}
	mr->page_size = pg_size;
	/* the adapter counts a region's pages in 32 bits */
	if (ib_umem_num_dma_blocks(mr->umem, pg_size) > U32_MAX) {
		ret = -EINVAL;
		goto err_release;
	}
	ret = irdma_pbl_from_umem(rf, mr->umem, pg_size, 0,
				  ib_umem_num_dma_blocks(mr->umem, pg_size),
				  false, &mr->pbl);
	if (ret)
		goto err_release;
	ret = irdma_alloc_stag(rf);
	if (ret < 0)
		goto err_free_pbl;
	mr->stag = ret;
	p.stag = mr->stag;
	p.pd_id = container_of(ibpd, struct irdma_pd, ibpd)->pd_id;
	/* the PBL lists whole pages: the offset is into the first one */
	p.va = virt;
	p.len = len;
	p.pbl = &mr->pbl;
	if (!mr->pbl.level) {
		direct = mr->pbl;
		direct.pa += virt & (pg_size - 1);
		p.pbl = &direct;
	}
	p.hw_page_size = irdma_hw_page_size(pg_size);
	p.access = irdma_access(acc);
	ret = irdma_cqp_reg_mr(rf, &p);
	if (ret)
		goto err_free_stag;
	mr->hw = true;
	mr->ibmr.lkey = mr->stag;
	mr->ibmr.rkey = mr->stag;
	mr->ibmr.page_size = pg_size;
	return &mr->ibmr;

err_free_stag:
	irdma_free_stag(rf, mr->stag);
err_free_pbl:
	irdma_pbl_free(rf, &mr->pbl);
err_release:
	ib_umem_release(mr->umem);
err_free_mr:
	kfree(mr);
	return ERR_PTR(ret);
}

/**
 * irdma_dereg_mr() - deregister a region or a user QP/CQ buffer
 * @ibmr: the registration
 * @udata: user data
 *
 * A QP/CQ buffer is deregistered after its QP/CQ is destroyed (or after
 * a failed create), so it is back on the context's list.  One that a QP
 * or CQ still uses is refused with -EBUSY (a user can ask for that with
 * one call: it is not a driver error).  When the adapter may still use
 * the memory (DEALLOC_STAG failed, or the QP or CQ of a buffer could not
 * be destroyed), the pages stay pinned and the STag taken, but the
 * registration is gone for ib_core.
 *
 * Return: 0, or -EBUSY for a buffer still in use.
 */
int irdma_dereg_mr(struct ib_mr *ibmr, struct ib_udata *udata)
{
	struct irdma_mr *mr = container_of(ibmr, struct irdma_mr, ibmr);
	struct irdma_pci_f *rf = to_iwdev(ibmr->device)->rf;
	int ret;

	if (mr->ubuf) {
		struct irdma_ucontext *ucontext =
			rdma_udata_to_drv_context(udata, struct irdma_ucontext,
						  ibucontext);

		/*
		 * Test and unlist under the lock irdma_ubuf_take() holds: once
		 * off the list no create_qp/create_cq can take the buffer, and
		 * one that took it first keeps the registration alive.
		 */
		bool leaked;

		spin_lock(&ucontext->bufs_lock);
		if (mr->ubuf->in_use) {
			spin_unlock(&ucontext->bufs_lock);
			ibdev_dbg(ibmr->device,
				  "buffer at 0x%llx still holds a QP or CQ\n",
				  mr->ubuf->va);
			return -EBUSY;
		}
		list_del(&mr->ubuf->list);
		spin_unlock(&ucontext->bufs_lock);
		leaked = mr->ubuf->leaked;
		kfree(mr->ubuf);
		mr->ubuf = NULL;
		if (leaked) {
			irdma_umem_leak(rf, mr->umem,
					"a ring of a QP or CQ not destroyed");
			kfree(mr);
			return 0;
		}
	}
	if (mr->hw) {
		ret = irdma_cqp_dealloc_stag(rf, mr->stag,
					     container_of(ibmr->pd, struct irdma_pd,
							  ibpd)->pd_id, true);
		if (ret) {
			/*
			 * The STag may still be valid in the adapter: its
			 * index, page list and pages stay taken.
			 */
			irdma_umem_leak(rf, mr->umem, "a region not deregistered");
			kfree(mr);
			return 0;
		}
		irdma_free_stag(rf, mr->stag);
	}
	irdma_pbl_free(rf, &mr->pbl);
	ib_umem_release(mr->umem);
	kfree(mr);
	return 0;
}

/**
 * irdma_get_dma_mr() - a region covering all of memory, for kernel QPs
 * @ibpd: PD
 * @acc: access flags
 *
 * Kernel QPs are privileged: STag 0 addresses DMA memory directly, which
 * is also the device's local_dma_lkey.  Remote access to all of memory is
 * not offered.
 *
 * Return: the region or an ERR_PTR().
 */
struct ib_mr *irdma_get_dma_mr(struct ib_pd *ibpd, int acc)
{
	struct irdma_mr *mr;

	if (acc & (IB_ACCESS_REMOTE_READ | IB_ACCESS_REMOTE_WRITE |
		   IB_ACCESS_MW_BIND))
		return ERR_PTR(-EOPNOTSUPP);
	mr = kzalloc(sizeof(*mr), GFP_KERNEL);
	if (!mr)
		return ERR_PTR(-ENOMEM);
	mr->ibmr.lkey = 0;
	mr->ibmr.rkey = 0;
	return &mr->ibmr;
}

/**
 * irdma_alloc_mr() - a region for fast registration by kernel QPs
 * @ibpd: PD
 * @type: IB_MR_TYPE_MEM_REG
 * @max_num_sg: pages the region may map
 *
 * The STag is allocated in the adapter with a page list of @max_num_sg
 * PBLEs; map_mr_sg fills the list and an IB_WR_REG_MR work request makes
 * the mapping valid.
 *
 * Return: the region or an ERR_PTR().
 */
struct ib_mr *irdma_alloc_mr(struct ib_pd *ibpd, enum ib_mr_type type,
			     u32 max_num_sg)
{
	struct irdma_pci_f *rf = to_iwdev(ibpd->device)->rf;
	u32 pd_id = container_of(ibpd, struct irdma_pd, ibpd)->pd_id;
	struct irdma_cqp_cmd cmd;
	unsigned long start;
	struct irdma_mr *mr;
	int ret;

	if (type != IB_MR_TYPE_MEM_REG)
		return ERR_PTR(-EOPNOTSUPP);
	if (!max_num_sg || max_num_sg > rf->pble_cnt)
		return ERR_PTR(-EINVAL);
	mr = kzalloc(sizeof(*mr), GFP_KERNEL);
	if (!mr)
		return ERR_PTR(-ENOMEM);
	mutex_lock(&rf->pble_lock);
	start = bitmap_find_next_zero_area(rf->pble_map, rf->pble_cnt, 0,
					   max_num_sg, 0);
	if (start < rf->pble_cnt)
		bitmap_set(rf->pble_map, start, max_num_sg);
	mutex_unlock(&rf->pble_lock);
	if (start >= rf->pble_cnt) {
		ret = -ENOSPC;
		goto err_free_mr;
	}
	mr->pbl = (struct irdma_pbl){ .level = 1, .first = start,
		.cnt = max_num_sg, .pg_shift = PAGE_SHIFT };
	mr->fr_max = max_num_sg;
	ret = irdma_alloc_stag(rf);
	if (ret < 0)
		goto err_free_pbl;
	mr->stag = ret;

	irdma_cqp_alloc_stag_cmd(rf, &cmd, mr, pd_id);
	ret = irdma_cqp_exec(rf, &cmd);
	if (ret)
		goto err_free_stag;
	mr->hw = true;
	mr->page_size = PAGE_SIZE;
	mr->ibmr.lkey = mr->stag;
	mr->ibmr.rkey = mr->stag;
	return &mr->ibmr;

err_free_stag:
	irdma_free_stag(rf, mr->stag);
err_free_pbl:
	irdma_pbl_free(rf, &mr->pbl);
err_free_mr:
	kfree(mr);
	return ERR_PTR(ret);
}

/**
 * irdma_set_page() - ib_sg_to_pages() callback: list one page
 * @ibmr: the region
 * @addr: DMA address of the page
 *
 * Return: 0, or -ENOMEM when the region's page list is full.
 */
static int irdma_set_page(struct ib_mr *ibmr, u64 addr)
{
	struct irdma_mr *mr = container_of(ibmr, struct irdma_mr, ibmr);
	struct irdma_pci_f *rf = to_iwdev(ibmr->device)->rf;

	if (mr->fr_npages == mr->fr_max)
		return -ENOMEM;
	WRITE_ONCE(*irdma_pble_entry(rf, mr->pbl.first + mr->fr_npages),
		   cpu_to_le64(addr));
	mr->fr_npages++;
	return 0;
}

/**
 * irdma_map_mr_sg() - list a scatterlist's pages in a fast-register region
 * @ibmr: the region
 * @sg: scatterlist
 * @sg_nents: entries
 * @sg_offset: offset into the first entry
 *
 * Return: entries mapped.
 */
int irdma_map_mr_sg(struct ib_mr *ibmr, struct scatterlist *sg, int sg_nents,
		    unsigned int *sg_offset)
{
	struct irdma_mr *mr = container_of(ibmr, struct irdma_mr, ibmr);
	int n;

	mr->fr_npages = 0;
	n = ib_sg_to_pages(ibmr, sg, sg_nents, sg_offset, irdma_set_page);
	/* the list must be in memory before the REG_MR WQE names it */
	dma_wmb();
	return n;
}

/**
 * irdma_frwqe_fill() - the body of a fast-register WQE
 * @iwqp: the posting QP
 * @wr: the IB_WR_REG_MR request
 * @wqe: the WQE quantum (zeroed)
 *
 * Return: the header bits that describe the region.
 */
u64 irdma_frwqe_fill(struct irdma_qp *iwqp, const struct ib_reg_wr *wr,
		     struct irdma_wqe *wqe)
{
	struct irdma_mr *mr = container_of(wr->mr, struct irdma_mr, ibmr);
	struct irdma_pci_f *rf = iwqp->iwdev->rf;
	struct irdma_wqe_fastreg fr = {
		.iova = mr->ibmr.iova,
		.len = mr->ibmr.length,
		.first_pble = mr->pbl.first,
		.first_page = le64_to_cpu(*irdma_pble_entry(rf, mr->pbl.first)),
		.key = wr->key,
		.pbl_list = mr->fr_npages > 1,
		.page_size = irdma_hw_page_size(mr->ibmr.page_size),
		.rights = irdma_access(wr->access),
	};

	return irdma_wqe_fastreg(wqe, &fr);
}

/**
 * irdma_umem_page_dma() - DMA address of one page of a umem
 * @umem: pinned pages
 * @idx: page index (PAGE_SIZE pages)
 *
 * Return: the address, or 0 if @idx is beyond the umem.
 */
dma_addr_t irdma_umem_page_dma(struct ib_umem *umem, u32 idx)
{
	struct ib_block_iter it;
	u32 i = 0;

	rdma_umem_for_each_dma_block(umem, &it, PAGE_SIZE)
		if (i++ == idx)
			return rdma_block_iter_dma_address(&it);
	return 0;
}
