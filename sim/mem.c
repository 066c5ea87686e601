// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * irdma_sim - reaching the driver's memory.
 *
 * The model's bus device uses dma-direct with a 64-bit mask, so a bus
 * address the driver hands over is (after dma_to_phys()) a physical
 * address.  Nothing the driver gives is trusted: every range is checked
 * page by page to be online, ordinary RAM in the kernel's direct map
 * before the model reads or writes it.  Rings that are not physically
 * contiguous are described by physical buffer list entries (PBLEs) that
 * live in HMC memory; their pages are resolved and checked once, when the
 * queue is created.
 */

#include <linux/dma-direct.h>
#include <linux/memory_hotplug.h>
#include <linux/mm.h>
#include <linux/slab.h>

#include "sim.h"

/* PD entry of a paged SD: 4 KiB page address | valid */
#define IRDMA_SIM_PDE_VALID		BIT_ULL(0)
#define IRDMA_SIM_PDE_PA		GENMASK_ULL(63, 12)
/* PBLEs per level-2 leaf */
#define IRDMA_SIM_PBLES_PER_LEAF	512

/**
 * irdma_sim_dma_map() - kernel address of a driver DMA buffer
 * @sim: instance (its bus device translates bus addresses)
 * @addr: bus address given by the driver
 * @len: bytes the model will access
 * @read_only: the model only reads the bytes
 *
 * Reserved pages are refused, except the shared zero page as a source: it
 * belongs to the kernel image, yet the block layer sends it as data (a
 * disk without Write Zeroes is zeroed with bios of ZERO_PAGE(0)), and an
 * adapter reads it like any page.
 *
 * Return: the kernel virtual address of @addr, or NULL when any page of
 * [@addr, @addr + @len) is not online RAM in the direct map.
 */
static void *irdma_sim_dma_map(struct irdma_sim *sim, u64 addr, size_t len,
			       bool read_only)
{
	phys_addr_t phys, last;
	unsigned long pfn;
	struct page *page;

	if (!len || addr + len - 1 < addr)
		return NULL;
	phys = dma_to_phys(&sim->dev, addr);
	last = phys + len - 1;
	if (last < phys)
		return NULL;
	for (pfn = PHYS_PFN(phys); pfn <= PHYS_PFN(last); pfn++) {
		page = pfn_to_online_page(pfn);
		if (!page || PageHighMem(page))
			return NULL;
		if (PageReserved(page) && !(read_only && is_zero_pfn(pfn)))
			return NULL;
	}
	return phys_to_virt(phys);
}

/**
 * irdma_sim_dma_va() - kernel address of a driver DMA buffer the model
 * writes (or reads and writes)
 * @sim: instance
 * @addr: bus address given by the driver
 * @len: bytes the model will access
 *
 * Return: the kernel virtual address of @addr, or NULL (see
 * irdma_sim_dma_map()).
 */
void *irdma_sim_dma_va(struct irdma_sim *sim, u64 addr, size_t len)
{
	return irdma_sim_dma_map(sim, addr, len, false);
}

/**
 * irdma_sim_dma_src_va() - kernel address of a buffer the model only reads
 * (the data of a Send, a Write or a Read Response)
 * @sim: instance
 * @addr: bus address given by the driver
 * @len: bytes the model will read
 *
 * Return: the kernel virtual address of @addr, or NULL (see
 * irdma_sim_dma_map()).
 */
void *irdma_sim_dma_src_va(struct irdma_sim *sim, u64 addr, size_t len)
{
	return irdma_sim_dma_map(sim, addr, len, true);
}

/**
 * irdma_sim_fpm_pa() - bus address of a byte of FPM (HMC) space
 * @sim: instance
 * @fpm: FPM address
 * @pa: the bus address
 *
 * Context: the CQP worker, or sim->lock held.
 * Return: 0, or -ERANGE/-ENOENT/-EFAULT when @fpm has no valid backing.
 */
static int irdma_sim_fpm_pa(struct irdma_sim *sim, u64 fpm, u64 *pa)
{
	const struct irdma_sim_sd *sd;
	u64 sdi = fpm / IRDMA_HMC_SD_SIZE;
	u64 off = fpm % IRDMA_HMC_SD_SIZE;
	__le64 *pde;
	u64 val;
	u32 pdi;

	if (sdi >= sim->hmc.sd_cnt)
		return -ERANGE;
	sd = &sim->hmc.sd[sdi];
	if (!sd->valid)
		return -ENOENT;
	if (sd->direct) {
		*pa = sd->pa + off;
		return 0;
	}
	pdi = off / IRDMA_HW_PAGE_SIZE;
	if (pdi >= sd->bp_cnt)
		return -ENOENT;
	pde = irdma_sim_dma_va(sim, sd->pa + pdi * sizeof(*pde), sizeof(*pde));
	if (!pde)
		return -EFAULT;
	val = le64_to_cpu(READ_ONCE(*pde));
	if (!(val & IRDMA_SIM_PDE_VALID))
		return -ENOENT;
	*pa = (val & IRDMA_SIM_PDE_PA) + off % IRDMA_HW_PAGE_SIZE;
	return 0;
}

/**
 * irdma_sim_pble_read() - read one PBLE
 * @sim: instance
 * @idx: PBLE index
 * @val: its value
 *
 * Context: the CQP worker, or sim->lock held.
 * Return: 0 or a negative errno when @idx is not committed or not backed.
 */
int irdma_sim_pble_read(struct irdma_sim *sim, u64 idx, u64 *val)
{
	const struct irdma_sim_hmc_obj *o = &sim->hmc.obj[IRDMA_HMC_PBLE];
	__le64 *p;
	u64 pa;
	int err;

	if (!sim->hmc.committed || idx >= o->cnt)
		return -ERANGE;
	err = irdma_sim_fpm_pa(sim, o->base + idx * sizeof(*p), &pa);
	if (err)
		return err;
	p = irdma_sim_dma_va(sim, pa, sizeof(*p));
	if (!p)
		return -EFAULT;
	*val = le64_to_cpu(READ_ONCE(*p));
	return 0;
}

/**
 * irdma_sim_pbl_page() - bus address of page @n of a PBL-described buffer
 * @sim: instance
 * @level: LPBLSIZE: 1 (list of page addresses) or 3 (two levels)
 * @first: first PBLE index
 * @n: page number
 * @pa: the page's bus address
 *
 * A level-2 root entry holds the PBLE index of a leaf of up to 512 page
 * addresses.
 *
 * Return: 0 or a negative errno.
 */
int irdma_sim_pbl_page(struct irdma_sim *sim, u8 level, u32 first, u32 n,
		       u64 *pa)
{
	u64 leaf;
	int err;

	if (level == 1)
		return irdma_sim_pble_read(sim, (u64)first + n, pa);
	err = irdma_sim_pble_read(sim, (u64)first + n / IRDMA_SIM_PBLES_PER_LEAF,
				  &leaf);
	if (err)
		return err;
	return irdma_sim_pble_read(sim, leaf + n % IRDMA_SIM_PBLES_PER_LEAF, pa);
}

/**
 * irdma_sim_qmem_init() - check and map the memory of a ring
 * @sim: instance
 * @q: ring memory to fill
 * @pa: bus address of a contiguous ring
 * @virt: the ring is described by PBLEs instead
 * @level: LPBLSIZE of a PBL-described ring (1 or 3)
 * @first_pble: first PBLE index of a PBL-described ring
 * @len: ring length in bytes
 * @align: required alignment of a contiguous ring
 *
 * Context: the CQP worker (may sleep).
 * Return: 0, -EINVAL for bad alignment or PBL level, -EFAULT for memory
 * that is not RAM or PBLEs without backing, -ENOMEM.
 */
int irdma_sim_qmem_init(struct irdma_sim *sim, struct irdma_sim_qmem *q,
			u64 pa, bool virt, u8 level, u32 first_pble,
			size_t len, u32 align)
{
	u64 page_pa;
	u32 i;
	int err;

	memset(q, 0, sizeof(*q));
	q->len = len;
	if (!virt) {
		if (!IS_ALIGNED(pa, align))
			return -EINVAL;
		q->va = irdma_sim_dma_va(sim, pa, len);
		return q->va ? 0 : -EFAULT;
	}
	if (level != 1 && level != 3)
		return -EINVAL;
	q->npages = DIV_ROUND_UP(len, IRDMA_HW_PAGE_SIZE);
	q->pages = kvcalloc(q->npages, sizeof(*q->pages), GFP_KERNEL);
	if (!q->pages)
		return -ENOMEM;
	for (i = 0; i < q->npages; i++) {
		err = irdma_sim_pbl_page(sim, level, first_pble, i, &page_pa);
		if (err || !IS_ALIGNED(page_pa, IRDMA_HW_PAGE_SIZE)) {
			irdma_sim_qmem_fini(q);
			return -EFAULT;
		}
		q->pages[i] = irdma_sim_dma_va(sim, page_pa, IRDMA_HW_PAGE_SIZE);
		if (!q->pages[i]) {
			irdma_sim_qmem_fini(q);
			return -EFAULT;
		}
	}
	return 0;
}

/**
 * irdma_sim_qmem_fini() - forget the memory of a ring
 * @q: ring memory
 */
void irdma_sim_qmem_fini(struct irdma_sim_qmem *q)
{
	kvfree(q->pages);
	memset(q, 0, sizeof(*q));
}

/**
 * irdma_sim_qmem_ptr() - kernel address of a ring element
 * @q: ring memory set up by irdma_sim_qmem_init()
 * @off: byte offset of the element, below @q->len; an element never
 *	straddles a 4 KiB page
 *
 * Return: the element's address.
 */
void *irdma_sim_qmem_ptr(const struct irdma_sim_qmem *q, size_t off)
{
	if (q->va)
		return q->va + off;
	return q->pages[off / IRDMA_HW_PAGE_SIZE] + off % IRDMA_HW_PAGE_SIZE;
}

/**
 * irdma_sim_hmc_backed() - whether an HMC object has backing memory
 * @sim: instance
 * @type: object type
 * @idx: object index
 *
 * Context: the CQP worker, or sim->lock held.
 * Return: true when @idx is below the committed count and every SD the
 * object occupies is programmed.
 */
bool irdma_sim_hmc_backed(struct irdma_sim *sim, enum irdma_hmc_obj type,
			  u32 idx)
{
	const struct irdma_sim_hmc_obj *o = &sim->hmc.obj[type];
	u64 first, last, sdi;

	if (!sim->hmc.committed || idx >= o->cnt || !o->size)
		return false;
	first = o->base + (u64)idx * o->size;
	last = first + o->size - 1;
	for (sdi = first / IRDMA_HMC_SD_SIZE; sdi <= last / IRDMA_HMC_SD_SIZE;
	     sdi++)
		if (sdi >= sim->hmc.sd_cnt || !sim->hmc.sd[sdi].valid)
			return false;
	return true;
}
