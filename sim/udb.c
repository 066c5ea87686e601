// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * irdma_sim - the user doorbell page: a write-only window onto WQEALLOC
 * and CQARM, as on silicon.  The model maps it itself, read-only; every
 * store faults into irdma_sim_udb_mkwrite(), which decodes the storing
 * 32-bit MOV, takes its value as one doorbell and steps the task over it.
 * The announced work runs as task work of the storing task, outside the
 * fault (which holds the mm's lock).  Documentation/hw-interface.rst,
 * "Doorbells", has the whole contract.
 */

#include <linux/anon_inodes.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/ptrace.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <asm/ptrace.h>
#include <asm/unaligned.h>

#include "sim.h"

/* longest x86 instruction */
#define IRDMA_SIM_INSN_MAX	15

/* a doorbell mapping was ever made: the module's exit waits for its runs */
static bool irdma_sim_udb_used;

/**
 * struct irdma_sim_udb - one mapping of the user doorbell page
 * @sim: the instance (a reference to its device keeps the memory)
 * @ufile: the uverbs file the page was mapped through (a reference)
 */
struct irdma_sim_udb {
	struct irdma_sim *sim;
	struct file *ufile;
};

/**
 * struct irdma_sim_store - a decoded 32-bit store
 * @val: the value stored
 * @len: the instruction's length in bytes
 */
struct irdma_sim_store {
	u32 val;
	u8 len;
};

/* pt_regs offsets of the general registers, by their encoding 0-15 */
static const u16 irdma_sim_gpr[16] = {
	offsetof(struct pt_regs, ax), offsetof(struct pt_regs, cx),
	offsetof(struct pt_regs, dx), offsetof(struct pt_regs, bx),
	offsetof(struct pt_regs, sp), offsetof(struct pt_regs, bp),
	offsetof(struct pt_regs, si), offsetof(struct pt_regs, di),
	offsetof(struct pt_regs, r8), offsetof(struct pt_regs, r9),
	offsetof(struct pt_regs, r10), offsetof(struct pt_regs, r11),
	offsetof(struct pt_regs, r12), offsetof(struct pt_regs, r13),
	offsetof(struct pt_regs, r14), offsetof(struct pt_regs, r15),
};

/**
 * irdma_sim_fetch() - the bytes of the instruction at the task's IP
 * @regs: the task's user registers
 * @b: IRDMA_SIM_INSN_MAX + 1 bytes
 *
 * Two 8-byte loads (x86 allows them unaligned), without the checks of
 * copy_from_user(): this is the cost of every doorbell.  Near the end of
 * a page whose next page is not present, the bytes up to the page's end.
 *
 * Context: a page fault, the mm's lock held: no fault may be taken here.
 * Return: bytes read, or -EAGAIN when none could be read.
 */
static int irdma_sim_fetch(struct pt_regs *regs, u8 *b)
{
	const u64 __user *ip = (const u64 __user *)regs->ip;
	size_t n, i;
	u64 w[2];
	int ret;

	/* the task executed it in user mode: a user address */
	if (!access_ok(ip, sizeof(w)))
		return -EAGAIN;
	pagefault_disable();
	ret = __get_user(w[0], ip) ?: __get_user(w[1], ip + 1);
	if (!ret) {
		pagefault_enable();
		memcpy(b, w, sizeof(w));
		return sizeof(w);
	}
	n = PAGE_SIZE - offset_in_page(regs->ip);
	for (i = 0; i < n && i < sizeof(w); i++)
		if (__get_user(b[i], (const u8 __user *)regs->ip + i))
			break;
	pagefault_enable();
	return i ? i : -EAGAIN;
}

/**
 * irdma_sim_decode() - decode the 32-bit store that faulted
 * @regs: the task's user registers
 * @st: the store
 *
 * Context: a page fault, the mm's lock held.
 * Return: 0, -EAGAIN when the instruction's bytes are not in memory now
 * (the task retries it, and its fetch brings them in), -EOPNOTSUPP for an
 * instruction that is not a 32-bit MOV to memory.
 */
static int irdma_sim_decode(struct pt_regs *regs, struct irdma_sim_store *st)
{
	u8 b[IRDMA_SIM_INSN_MAX + 1], rex = 0, op, modrm, mod, reg, rm;
	int n, i = 0, disp = 0;

	if (!user_64bit_mode(regs))
		return -EOPNOTSUPP;
	n = irdma_sim_fetch(regs, b);
	if (n < 0)
		return n;
	if ((b[i] & 0xf0) == 0x40)
		rex = b[i++];
	/* REX.W: a 64-bit store */
	if (rex & 0x08)
		return -EOPNOTSUPP;
	if (i + 2 > n)
		return -EAGAIN;
	op = b[i++];
	modrm = b[i++];
	mod = modrm >> 6;
	reg = (modrm >> 3) & 7;
	rm = modrm & 7;
	if ((op != 0x89 && op != 0xc7) || mod == 3 || (op == 0xc7 && reg))
		return -EOPNOTSUPP;
	if (rm == 4) {
		/* SIB; base 101 without displacement bits means disp32 */
		if (i + 1 > n)
			return -EAGAIN;
		if (mod == 0 && (b[i] & 7) == 5)
			disp = 4;
		i++;
	} else if (mod == 0 && rm == 5) {
		/* RIP-relative */
		disp = 4;
	}
	if (mod == 1)
		disp = 1;
	else if (mod == 2)
		disp = 4;
	i += disp;
	if (op == 0xc7) {
		if (i + 4 > n)
			return -EAGAIN;
		st->val = get_unaligned_le32(&b[i]);
		i += 4;
	} else {
		if (i > n)
			return -EAGAIN;
		st->val = regs_get_register(regs,
					    irdma_sim_gpr[reg | (rex & 4 ? 8 : 0)]);
	}
	st->len = i;
	return 0;
}

/**
 * irdma_sim_user_db() - a 32-bit store to the user doorbell page
 * @sim: instance (perhaps deleted: its memory is kept by the mapping)
 * @off: offset of the store in the page
 * @val: value stored
 *
 * The page is a window onto two doorbells, WQEALLOC (user QPs only) and
 * CQARM; a store anywhere else in it, or to the page of a deleted
 * instance, is ignored.  A QP's engine claimed by the doorbell runs in the
 * storing task before it returns to user space.
 *
 * Context: the storing task's page fault.
 */
static void irdma_sim_user_db(struct irdma_sim *sim, u32 off, u32 val)
{
	struct irdma_sim_iw *run = NULL;
	unsigned long flags;

	spin_lock_irqsave(&sim->lock, flags);
	if (sim->dead) {
		sim->stats.user_db_other++;
	} else if (off == IRDMA_DB_PAGE_WQEALLOC) {
		run = irdma_sim_iw_user_doorbell(sim, val);
	} else if (off == IRDMA_DB_PAGE_CQARM) {
		sim->stats.user_cqarm++;
		irdma_sim_cq_arm(sim, val);
	} else {
		sim->stats.user_db_other++;
	}
	spin_unlock_irqrestore(&sim->lock, flags);
	if (run)
		irdma_sim_iw_run_on_return(run);
}

/**
 * irdma_sim_user_db_refused() - count a store the model could not decode
 * @sim: instance
 */
static void irdma_sim_user_db_refused(struct irdma_sim *sim)
{
	unsigned long flags;

	spin_lock_irqsave(&sim->lock, flags);
	sim->stats.user_db_refused++;
	spin_unlock_irqrestore(&sim->lock, flags);
}

/**
 * irdma_sim_udb_mkwrite() - a store to the doorbell page
 * @vmf: the write fault on the read-only entry
 *
 * Context: the storing task's page fault, its mm's lock held for reading.
 * Return: VM_FAULT_NOPAGE (the entry stays read-only; the task resumes
 * after the store, or retries it), VM_FAULT_SIGBUS for a store the model
 * cannot take.
 */
static vm_fault_t irdma_sim_udb_mkwrite(struct vm_fault *vmf)
{
	struct irdma_sim_udb *udb = vmf->vma->vm_private_data;
	struct pt_regs *regs = current_pt_regs();
	struct irdma_sim_store st;
	int ret;

	/* a kernel access (a system call's copy_to_user): EFAULT */
	if (!(vmf->flags & FAULT_FLAG_USER))
		return VM_FAULT_SIGBUS;
	ret = irdma_sim_decode(regs, &st);
	if (ret == -EAGAIN)
		return VM_FAULT_NOPAGE;
	if (ret) {
		irdma_sim_user_db_refused(udb->sim);
		dev_err_ratelimited(&udb->sim->dev,
				    "%s[%d]: store to the doorbell page at ip %#lx is not a 32-bit MOV: SIGBUS\n",
				    current->comm, task_pid_nr(current),
				    regs->ip);
		return VM_FAULT_SIGBUS;
	}
	irdma_sim_user_db(udb->sim, offset_in_page(vmf->real_address),
			  st.val);
	regs->ip += st.len;
	return VM_FAULT_NOPAGE;
}

/**
 * irdma_sim_udb_fault() - a page fault with no entry: never happens
 * @vmf: the fault
 *
 * The entry is made at mmap time and stays; a fault finding none (after
 * a madvise(MADV_DONTNEED), say) is answered with the zero page again.
 *
 * Return: VM_FAULT_NOPAGE, or VM_FAULT_SIGBUS when no entry can be made.
 */
static vm_fault_t irdma_sim_udb_fault(struct vm_fault *vmf)
{
	return vmf_insert_pfn_prot(vmf->vma, vmf->address,
				   my_zero_pfn(vmf->address),
				   vmf->vma->vm_page_prot);
}

static const struct vm_operations_struct irdma_sim_udb_vm_ops = {
	.fault = irdma_sim_udb_fault,
	.pfn_mkwrite = irdma_sim_udb_mkwrite,
};

/**
 * irdma_sim_udb_release() - the last mapping of a doorbell page went away
 * @inode: the anonymous inode
 * @file: the mapping's file
 *
 * Return: 0.
 */
static int irdma_sim_udb_release(struct inode *inode, struct file *file)
{
	struct irdma_sim_udb *udb = file->private_data;

	fput(udb->ufile);
	put_device(&udb->sim->dev);
	kfree(udb);
	return 0;
}

static const struct file_operations irdma_sim_udb_fops = {
	.owner = THIS_MODULE,
	.release = irdma_sim_udb_release,
};

/**
 * irdma_sim_mmap_db() - irdma_sim.h mmap_db: map the user doorbell page
 * @sadev: the model's auxiliary device
 * @vma: the mapping, one shared page, made through a uverbs file
 *
 * Context: process (the driver's mmap handler, the mm's lock held for
 * writing).
 * Return: 0 or a negative errno.
 */
int irdma_sim_mmap_db(struct irdma_sim_adev *sadev, struct vm_area_struct *vma)
{
	struct irdma_sim *sim = container_of(sadev, struct irdma_sim, sadev);
	struct irdma_sim_udb *udb;
	struct file *file;
	pgprot_t prot;
	int ret;

	if (vma->vm_end - vma->vm_start != PAGE_SIZE ||
	    !(vma->vm_flags & VM_SHARED) || !vma->vm_file)
		return -EINVAL;
	udb = kzalloc(sizeof(*udb), GFP_KERNEL);
	if (!udb)
		return -ENOMEM;
	udb->sim = sim;
	get_device(&sim->dev);
	udb->ufile = get_file(vma->vm_file);
	file = anon_inode_getfile("[irdma_sim_db]", &irdma_sim_udb_fops, udb,
				  O_RDWR);
	if (IS_ERR(file)) {
		fput(udb->ufile);
		put_device(&sim->dev);
		kfree(udb);
		return PTR_ERR(file);
	}
	/* every store must fault: the entry is never writable */
	prot = vm_get_page_prot(vma->vm_flags & ~VM_WRITE);
	vma->vm_page_prot = prot;
	ret = remap_pfn_range(vma, vma->vm_start, my_zero_pfn(vma->vm_start),
			      PAGE_SIZE, prot);
	if (ret) {
		/* the release frees udb */
		fput(file);
		return ret;
	}
	vma->vm_ops = &irdma_sim_udb_vm_ops;
	vma->vm_private_data = udb;
	vma_set_file(vma, file);
	fput(file);
	WRITE_ONCE(irdma_sim_udb_used, true);
	return 0;
}

/**
 * irdma_sim_udb_exit() - the module goes: wait for the runs' last steps
 *
 * Context: module exit, every instance destroyed.  A doorbell's task work
 * unpins its engine as its last step; an RCU-tasks grace period ends only
 * after each task left the kernel or switched voluntarily, so none is
 * still returning from such a run.
 */
void irdma_sim_udb_exit(void)
{
	if (READ_ONCE(irdma_sim_udb_used))
		synchronize_rcu_tasks();
}
