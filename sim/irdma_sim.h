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
 * device, the user doorbell page, and the netdev it serves.  Software
 * cannot be written to like a BAR either, so the model makes the user
 * doorbell page's mappings itself (@ops->mmap_db) and takes each store to
 * it as a posted write.  Everything else happens through the same
 * registers, CQP work queue elements, completion and event queue elements
 * the driver uses on silicon (defs.h).
 *
 * Contract:
 * - adev.dev.parent is the DMA device: dma_alloc_coherent() and
 *   dma_map_*() on it give addresses the model can read and write.
 * - The driver sets its ib_device's dev.parent to &adev.dev; the model
 *   recognises "its" ib_device that way (for rdma link delete).
 * - @ops->wr32 and @ops->rd32 may be called from any context, including
 *   hard IRQ, with any spinlock held; they never sleep.
 * - @ops->mmap_db is called from the driver's mmap handler of a uverbs
 *   file (process context, the calling task's mm locked for writing); the
 *   mapping is the model's from then on and outlives the driver's
 *   binding: stores to it are ignored once the function is removed.
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
/* the PCI device ID the model's function has: an E810-C for QSFP */
#define IRDMA_SIM_E810_DEVICE_ID	0x1592

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
struct vm_area_struct;

/**
 * struct irdma_sim_ops - register window of the simulated function
 * @rd32: read the 32-bit register at BAR0 offset @reg
 * @wr32: write @val to the 32-bit register at BAR0 offset @reg
 * @mmap_db: map the user doorbell page into @vma (one shared page of a
 *	uverbs file's mapping); 0 or a negative errno
 * @request_reset: the driver asks for a function reset, as it asks ice
 */
struct irdma_sim_ops {
	u32 (*rd32)(struct irdma_sim_adev *sadev, u32 reg);
	void (*wr32)(struct irdma_sim_adev *sadev, u32 reg, u32 val);
	int (*mmap_db)(struct irdma_sim_adev *sadev, struct vm_area_struct *vma);
	int (*request_reset)(struct irdma_sim_adev *sadev);
};

/**
 * struct irdma_sim_adrv - the driver of the model's auxiliary devices
 * @adrv: the auxiliary driver
 * @event: the model reports a critical error of the function as ice does:
 *	@oicr holds the interrupt cause bits (IRDMA_OICR_*).  Called in
 *	process context with the auxiliary device's lock held.
 */
struct irdma_sim_adrv {
	struct auxiliary_driver adrv;
	void (*event)(struct irdma_sim_adev *sadev, u32 oicr);
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
 * @device_id: PCI device ID of the function being modelled
 * @pf_id: PCI function number / HMC function id
 * @vectors: MSI-X vectors handed to the RDMA driver
 * @num_vectors: number of entries in @vectors
 */
struct irdma_sim_adev {
	struct auxiliary_device adev;
	const struct irdma_sim_ops *ops;
	struct net_device *netdev;
	const char *ibdev_name;
	enum irdma_gen gen;
	u16 device_id;
	u8 pf_id;
	struct irdma_sim_vector vectors[IRDMA_SIM_MAX_VECTORS];
	u32 num_vectors;
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
