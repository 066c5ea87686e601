/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Interface between irdma_sim.ko (a software model of the E810 RDMA
 * function) and the irdma driver.  It plays the part that
 * include/linux/net/intel/iidc.h plays for ice: the model publishes one
 * auxiliary device per simulated function, named IRDMA_SIM_ADEV_NAME under
 * the "irdma_sim" module ("irdma_sim.iwarp"), and the driver binds to it.
 *
 * What the driver gets is what a PCI function gives it: a register window
 * (reached through @ops because software cannot trap MMIO), interrupt
 * vectors (real Linux IRQs, raised by the model), a DMA-capable parent
 * device, the user doorbell page, and the netdev it serves.  Since the
 * doorbell page is RAM, the driver also tells the model where a task
 * maps it (@ops->watch_db), so that the model can watch that task's
 * stores to it.  Everything
 * else happens through the same registers, CQP work queue elements,
 * completion and event queue elements the driver uses on silicon
 * (defs.h).
 *
 * Contract:
 * - adev.dev.parent is the DMA device: dma_alloc_coherent() and
 *   dma_map_*() on it give addresses the model can read and write.
 * - The driver sets its ib_device's dev.parent to &adev.dev; the model
 *   recognises "its" ib_device that way (for rdma link delete).
 * - @ops->wr32 and @ops->rd32 may be called from any context, including
 *   hard IRQ, with any spinlock held; they never sleep.
 * - @ops->watch_db and @ops->unwatch_db are called in process context;
 *   watch_db with the calling task's mm locked for writing (from the
 *   driver's mmap handler), unwatch_db possibly with the mapping's mm
 *   locked.
 * - Register offsets are those of enum irdma_gen @gen (defs.h).
 */
#ifndef IRDMA_SIM_PUBLIC_H
#define IRDMA_SIM_PUBLIC_H

#include <linux/auxiliary_bus.h>
#include <linux/netdevice.h>
#include <linux/types.h>

#include "../defs.h"

#define IRDMA_SIM_MODNAME	"irdma_sim"
#define IRDMA_SIM_ADEV_NAME	"iwarp"
#define IRDMA_SIM_MAX_VECTORS	8

/*
 * The model's own CQP error codes for a command it refuses (the adapter's
 * are not documented): one major code, the minor says why.  The driver
 * treats any of them as a failed command; its checker expects them.
 */
#define IRDMA_SIM_CQP_MAJOR_BAD_WQE	0x0001
#define IRDMA_SIM_CQP_MINOR_BAD_OPCODE	0x0001
#define IRDMA_SIM_CQP_MINOR_BAD_ID	0x0002
#define IRDMA_SIM_CQP_MINOR_BAD_ADDR	0x0003
#define IRDMA_SIM_CQP_MINOR_BAD_SIZE	0x0004
#define IRDMA_SIM_CQP_MINOR_NO_RESOURCE	0x0005
#define IRDMA_SIM_CQP_MINOR_BAD_ORDER	0x0006

struct irdma_sim_adev;

/**
 * struct irdma_sim_ops - register window of the simulated function
 * @rd32: read the 32-bit register at BAR0 offset @reg
 * @wr32: write @val to the 32-bit register at BAR0 offset @reg
 * @watch_db: the calling task mapped the user doorbell page at @uaddr:
 *	returns a handle for @unwatch_db, or NULL when the model cannot
 *	watch it (its poller still finds the doorbells)
 * @unwatch_db: end the watch @watch
 */
struct irdma_sim_ops {
	u32 (*rd32)(struct irdma_sim_adev *sadev, u32 reg);
	void (*wr32)(struct irdma_sim_adev *sadev, u32 reg, u32 val);
	void *(*watch_db)(struct irdma_sim_adev *sadev, unsigned long uaddr);
	void (*unwatch_db)(struct irdma_sim_adev *sadev, void *watch);
};

/**
 * struct irdma_sim_vector - one MSI-X vector of the simulated function
 * @irq: Linux IRQ number to request_irq()
 * @idx: vector index: the n of GLINT_DYN_CTL(n) and the MSIX_INDX fields
 */
struct irdma_sim_vector {
	u32 irq;
	u32 idx;
};

/**
 * struct irdma_sim_adev - auxiliary device published by the model
 * @adev: the auxiliary device; its parent is the DMA device
 * @ops: register accessors
 * @netdev: the netdev this function serves (the model holds a reference)
 * @ibdev_name: name requested with "rdma link add NAME ..."
 * @gen: hardware generation being modelled
 * @pf_id: PCI function number / HMC function id
 * @vectors: MSI-X vectors handed to the RDMA driver
 * @num_vectors: number of entries in @vectors
 * @db_page_pfn: PFN of the user doorbell page (BAR0 + DB_PAGE_OFFSET);
 *	ordinary RAM, so user space maps it write-back
 */
struct irdma_sim_adev {
	struct auxiliary_device adev;
	const struct irdma_sim_ops *ops;
	struct net_device *netdev;
	const char *ibdev_name;
	enum irdma_gen gen;
	u8 pf_id;
	struct irdma_sim_vector vectors[IRDMA_SIM_MAX_VECTORS];
	u32 num_vectors;
	unsigned long db_page_pfn;
};

/**
 * to_irdma_sim_adev() - the model's auxiliary device from the generic one
 * @adev: auxiliary device the driver was probed with
 *
 * Return: the containing struct irdma_sim_adev.
 */
static inline struct irdma_sim_adev *
to_irdma_sim_adev(struct auxiliary_device *adev)
{
	return container_of(adev, struct irdma_sim_adev, adev);
}

#endif /* IRDMA_SIM_PUBLIC_H */
