// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * irdma - binding to X722 functions through i40e's RDMA auxiliary devices
 * ("i40e.iwarp") and the public client interface
 * (include/linux/net/intel/i40e_client.h).
 */
#include <linux/auxiliary_bus.h>
#include <linux/io.h>
#include <linux/net/intel/i40e_client.h>
#include <linux/pci.h>

#include "irdma.h"

/**
 * struct irdma_i40e_fn - what the binding keeps per X722 function
 * @ldev: i40e's description of the function
 * @rf: the RDMA function, once up
 */
struct irdma_i40e_fn {
	struct i40e_info *ldev;
	struct irdma_pci_f *rf;
};

static struct i40e_client irdma_i40e_client;

/**
 * irdma_i40e_rd32() - register read on the X722 BAR
 * @rf: RDMA function
 * @reg: BAR0 offset
 *
 * Return: register value.
 */
static u32 irdma_i40e_rd32(struct irdma_pci_f *rf, u32 reg)
{
	struct irdma_i40e_fn *fn = rf->bus_priv;

	return readl(fn->ldev->hw_addr + reg);
}

/**
 * irdma_i40e_wr32() - register write on the X722 BAR
 * @rf: RDMA function
 * @reg: BAR0 offset
 * @val: value
 */
static void irdma_i40e_wr32(struct irdma_pci_f *rf, u32 reg, u32 val)
{
	struct irdma_i40e_fn *fn = rf->bus_priv;

	writel(val, fn->ldev->hw_addr + reg);
}

/**
 * irdma_i40e_request_reset() - ask i40e for a function reset
 * @rf: RDMA function
 *
 * Return: 0.
 */
static int irdma_i40e_request_reset(struct irdma_pci_f *rf)
{
	struct irdma_i40e_fn *fn = rf->bus_priv;

	fn->ldev->ops->request_reset(fn->ldev, NULL, 1);
	return 0;
}

/**
 * irdma_i40e_route_vector() - route a CEQ and/or the AEQ to a vector
 * @rf: RDMA function
 * @vec: MSI-X vector index
 * @ceq: CEQ id, or -1 for none
 * @aeq: the AEQ also uses this vector
 *
 * On X722 the interrupt linked lists belong to i40e: it programs them
 * through the client interface.
 *
 * Return: 0 or a negative errno.
 */
static int irdma_i40e_route_vector(struct irdma_pci_f *rf, u32 vec, int ceq,
				   bool aeq)
{
	struct irdma_i40e_fn *fn = rf->bus_priv;
	struct i40e_qvlist_info *qvl;
	int ret;

	qvl = kzalloc(struct_size(qvl, qv_info, 1), GFP_KERNEL);
	if (!qvl)
		return -ENOMEM;
	qvl->num_vectors = 1;
	qvl->qv_info[0].v_idx = vec;
	qvl->qv_info[0].ceq_idx = ceq < 0 ? I40E_QUEUE_INVALID_IDX : ceq;
	qvl->qv_info[0].aeq_idx = aeq ? 0 : I40E_QUEUE_INVALID_IDX;
	qvl->qv_info[0].itr_idx = IRDMA_ITR_INDX_NONE;
	ret = fn->ldev->ops->setup_qvlist(fn->ldev, &irdma_i40e_client, qvl);
	kfree(qvl);
	return ret;
}

static const struct irdma_bus_ops irdma_i40e_bus_ops = {
	.rd32 = irdma_i40e_rd32,
	.wr32 = irdma_i40e_wr32,
	.request_reset = irdma_i40e_request_reset,
	.route_vector = irdma_i40e_route_vector,
};

/**
 * irdma_i40e_open() - i40e client callback: the function is ready
 * @ldev: i40e's description of the function
 * @client: our client
 *
 * Return: 0 or a negative errno.
 */
static int irdma_i40e_open(struct i40e_info *ldev, struct i40e_client *client)
{
	struct irdma_i40e_fn *fn = auxiliary_get_drvdata(ldev->aux_dev);
	struct irdma_bus_info *info;
	u32 i;
	int ret;

	info = kzalloc(sizeof(*info), GFP_KERNEL);
	if (!info)
		return -ENOMEM;
	info->dma_dev = &ldev->pcidev->dev;
	info->parent = &ldev->aux_dev->dev;
	info->netdev = ldev->netdev;
	info->ops = &irdma_i40e_bus_ops;
	info->priv = fn;
	info->gen = IRDMA_GEN_1;
	info->pf_id = ldev->fid;
	info->part_id = ldev->pcidev->device;
	info->num_vectors = min_t(u32, ldev->msix_count, IRDMA_MAX_VECTORS);
	for (i = 0; i < info->num_vectors; i++) {
		info->vectors[i].irq = ldev->msix_entries[i].vector;
		info->vectors[i].idx = ldev->msix_entries[i].entry;
	}
	info->db_pfn = PHYS_PFN(pci_resource_start(ldev->pcidev, 0) +
				IRDMA_GEN1_DB_PAGE_OFFSET);
	info->ibdev_name = "irdma%d";
	ret = irdma_probe_function(info, &fn->rf);
	kfree(info);
	return ret;
}

/**
 * irdma_i40e_close() - i40e client callback: the function goes away
 * @ldev: i40e's description of the function
 * @client: our client
 * @reset: a reset is in progress
 */
static void irdma_i40e_close(struct i40e_info *ldev, struct i40e_client *client,
			     bool reset)
{
	struct irdma_i40e_fn *fn = auxiliary_get_drvdata(ldev->aux_dev);

	if (fn->rf) {
		irdma_remove_function(fn->rf);
		fn->rf = NULL;
	}
}

static const struct i40e_client_ops irdma_i40e_client_ops = {
	.open = irdma_i40e_open,
	.close = irdma_i40e_close,
};

static struct i40e_client irdma_i40e_client = {
	.name = "irdma",
	.ops = &irdma_i40e_client_ops,
	.type = I40E_CLIENT_IWARP,
};

/**
 * irdma_i40e_probe() - bind to an X722 function
 * @adev: i40e's auxiliary device
 * @id: matching id-table entry
 *
 * i40e calls back irdma_i40e_open() when the function is ready.
 *
 * Return: 0 or -ENOMEM.
 */
static int irdma_i40e_probe(struct auxiliary_device *adev,
			    const struct auxiliary_device_id *id)
{
	struct i40e_auxiliary_device *i40e_adev =
		container_of(adev, struct i40e_auxiliary_device, aux_dev);
	struct irdma_i40e_fn *fn;

	fn = kzalloc(sizeof(*fn), GFP_KERNEL);
	if (!fn)
		return -ENOMEM;
	fn->ldev = i40e_adev->ldev;
	auxiliary_set_drvdata(adev, fn);
	i40e_client_device_register(fn->ldev, &irdma_i40e_client);
	return 0;
}

/**
 * irdma_i40e_remove() - unbind from an X722 function
 * @adev: i40e's auxiliary device
 */
static void irdma_i40e_remove(struct auxiliary_device *adev)
{
	struct irdma_i40e_fn *fn = auxiliary_get_drvdata(adev);

	i40e_client_device_unregister(fn->ldev);
	if (fn->rf)
		irdma_remove_function(fn->rf);
	kfree(fn);
}

static const struct auxiliary_device_id irdma_i40e_id_table[] = {
	{ .name = "i40e.iwarp" },
	{}
};
MODULE_DEVICE_TABLE(auxiliary, irdma_i40e_id_table);

static struct auxiliary_driver irdma_i40e_adrv = {
	.name = "i40e",
	.id_table = irdma_i40e_id_table,
	.probe = irdma_i40e_probe,
	.remove = irdma_i40e_remove,
};

/**
 * irdma_i40e_if_register() - register the auxiliary driver for i40e
 *
 * Return: 0 or a negative errno.
 */
int irdma_i40e_if_register(void)
{
	return auxiliary_driver_register(&irdma_i40e_adrv);
}

/**
 * irdma_i40e_if_unregister() - unregister it; unbinds every X722 function
 */
void irdma_i40e_if_unregister(void)
{
	auxiliary_driver_unregister(&irdma_i40e_adrv);
}
