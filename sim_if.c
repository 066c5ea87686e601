// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * irdma - binding to the software model of the E810 RDMA function
 * (irdma_sim.ko, sim/irdma_sim.h).  The model publishes an auxiliary device
 * per simulated function, as ice does per PCI function; this file turns
 * it into the common struct irdma_bus_info.  Everything past probe is the
 * same code path silicon takes.
 */
#include <linux/auxiliary_bus.h>

#include "irdma.h"
#include "sim/irdma_sim.h"

/**
 * irdma_sim_rd32() - register read through the model's window
 * @rf: RDMA function
 * @reg: BAR0 offset
 *
 * Return: register value.
 */
static u32 irdma_sim_rd32(struct irdma_pci_f *rf, u32 reg)
{
	struct irdma_sim_adev *sadev = rf->bus_priv;

	return sadev->ops->rd32(sadev, reg);
}

/**
 * irdma_sim_wr32() - register write through the model's window
 * @rf: RDMA function
 * @reg: BAR0 offset
 * @val: value
 */
static void irdma_sim_wr32(struct irdma_pci_f *rf, u32 reg, u32 val)
{
	struct irdma_sim_adev *sadev = rf->bus_priv;

	sadev->ops->wr32(sadev, reg, val);
}

/**
 * irdma_sim_mmap_db() - let the model map the user doorbell page
 * @rf: RDMA function
 * @vma: the mapping
 *
 * Return: 0 or a negative errno.
 */
static int irdma_sim_mmap_db(struct irdma_pci_f *rf, struct vm_area_struct *vma)
{
	struct irdma_sim_adev *sadev = rf->bus_priv;

	return sadev->ops->mmap_db(sadev, vma);
}

/**
 * irdma_sim_request_reset() - ask the model for a function reset
 * @rf: RDMA function
 *
 * Return: 0 or a negative errno.
 */
static int irdma_sim_request_reset(struct irdma_pci_f *rf)
{
	struct irdma_sim_adev *sadev = rf->bus_priv;

	return sadev->ops->request_reset(sadev);
}

static const struct irdma_bus_ops irdma_sim_bus_ops = {
	.rd32 = irdma_sim_rd32,
	.wr32 = irdma_sim_wr32,
	.mmap_db = irdma_sim_mmap_db,
	.request_reset = irdma_sim_request_reset,
};

/**
 * irdma_sim_probe() - bind to a simulated function
 * @adev: the model's auxiliary device
 * @id: matching id-table entry
 *
 * Return: 0 or a negative errno.
 */
static int irdma_sim_probe(struct auxiliary_device *adev,
			   const struct auxiliary_device_id *id)
{
	struct irdma_sim_adev *sadev = to_irdma_sim_adev(adev);
	struct irdma_bus_info *info;
	struct irdma_pci_f *rf;
	u32 i;
	int ret;

	info = kzalloc(sizeof(*info), GFP_KERNEL);
	if (!info)
		return -ENOMEM;
	info->dma_dev = adev->dev.parent;
	info->parent = &adev->dev;
	info->netdev = sadev->netdev;
	info->ops = &irdma_sim_bus_ops;
	info->priv = sadev;
	info->gen = sadev->gen;
	info->pf_id = sadev->pf_id;
	info->part_id = sadev->device_id;
	info->num_vectors = min_t(u32, sadev->num_vectors, IRDMA_MAX_VECTORS);
	for (i = 0; i < info->num_vectors; i++) {
		info->vectors[i].irq = sadev->vectors[i].irq;
		info->vectors[i].idx = sadev->vectors[i].idx;
	}
	info->ibdev_name = sadev->ibdev_name;
	info->user_removable = true;
	ret = irdma_probe_function(info, &rf);
	kfree(info);
	if (ret)
		return ret;
	auxiliary_set_drvdata(adev, rf);
	return 0;
}

/**
 * irdma_sim_remove() - unbind from a simulated function
 * @adev: the model's auxiliary device
 */
static void irdma_sim_remove(struct auxiliary_device *adev)
{
	irdma_remove_function(auxiliary_get_drvdata(adev));
}

/**
 * irdma_sim_event() - the model reports a critical error of the function
 * @sadev: the model's auxiliary device
 * @oicr: interrupt cause bits
 *
 * Context: process context, the auxiliary device's lock held.
 */
static void irdma_sim_event(struct irdma_sim_adev *sadev, u32 oicr)
{
	struct irdma_pci_f *rf = auxiliary_get_drvdata(&sadev->adev);

	if (rf)
		irdma_crit_err(rf, oicr);
}

static const struct auxiliary_device_id irdma_sim_id_table[] = {
	{ .name = IRDMA_SIM_MODNAME "." IRDMA_SIM_ADEV_NAME },
	{}
};
MODULE_DEVICE_TABLE(auxiliary, irdma_sim_id_table);

static struct irdma_sim_adrv irdma_sim_adrv = {
	.adrv = {
		.name = "sim",
		.id_table = irdma_sim_id_table,
		.probe = irdma_sim_probe,
		.remove = irdma_sim_remove,
	},
	.event = irdma_sim_event,
};

/**
 * irdma_sim_if_register() - register the auxiliary driver for the model
 *
 * Return: 0 or a negative errno.
 */
int irdma_sim_if_register(void)
{
	return auxiliary_driver_register(&irdma_sim_adrv.adrv);
}

/**
 * irdma_sim_if_unregister() - unregister it; unbinds every model function
 */
void irdma_sim_if_unregister(void)
{
	auxiliary_driver_unregister(&irdma_sim_adrv.adrv);
}
