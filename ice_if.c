// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * irdma - binding to E810 functions through ice's RDMA auxiliary devices
 * ("ice.iwarp", "ice.roce").
 *
 * This is the only file that knows ice: in 6.1, iidc.h keeps struct
 * ice_pf opaque, so the registers, MSI-X vectors and netdev of the
 * function come from ice's private headers (built with
 * -I drivers/net/ethernet/intel/ice; out of tree, IRDMA_ICE_SRC points at
 * that directory of linux-source-6.1).
 */
#include <linux/auxiliary_bus.h>
#include <linux/io.h>
#include <linux/net/intel/iidc.h>
#include <linux/pci.h>

#include "ice.h"

#include "main.h"

/**
 * irdma_ice_rd32() - register read on the E810 BAR
 * @rf: RDMA function
 * @reg: BAR0 offset
 *
 * Return: register value.
 */
static u32 irdma_ice_rd32(struct irdma_pci_f *rf, u32 reg)
{
	struct ice_pf *pf = rf->bus_priv;

	return readl(pf->hw.hw_addr + reg);
}

/**
 * irdma_ice_wr32() - register write on the E810 BAR
 * @rf: RDMA function
 * @reg: BAR0 offset
 * @val: value
 */
static void irdma_ice_wr32(struct irdma_pci_f *rf, u32 reg, u32 val)
{
	struct ice_pf *pf = rf->bus_priv;

	writel(val, pf->hw.hw_addr + reg);
}

/**
 * irdma_ice_request_reset() - ask ice for a PF reset
 * @rf: RDMA function
 *
 * Return: 0 or a negative errno.
 */
static int irdma_ice_request_reset(struct irdma_pci_f *rf)
{
	return ice_rdma_request_reset(rf->bus_priv, IIDC_PFR);
}

static const struct irdma_bus_ops irdma_ice_bus_ops = {
	.rd32 = irdma_ice_rd32,
	.wr32 = irdma_ice_wr32,
	.request_reset = irdma_ice_request_reset,
};

/**
 * irdma_ice_probe() - bind to an E810 function
 * @adev: ice's auxiliary device
 * @id: matching id-table entry
 *
 * Return: 0 or a negative errno (-EOPNOTSUPP for a function in RoCEv2
 * mode: this driver runs iWARP only).
 */
static int irdma_ice_probe(struct auxiliary_device *adev,
			   const struct auxiliary_device_id *id)
{
	struct iidc_auxiliary_dev *iadev =
		container_of(adev, struct iidc_auxiliary_dev, adev);
	struct ice_pf *pf = iadev->pf;
	struct ice_vsi *vsi = ice_get_main_vsi(pf);
	struct irdma_bus_info *info;
	struct irdma_pci_f *rf;
	u32 i;
	int ret;

	if (!strcmp(id->name, "ice.roce")) {
		dev_info(&adev->dev, "function is in RoCEv2 mode; irdma supports iWARP only\n");
		return -EOPNOTSUPP;
	}
	if (!vsi || !vsi->netdev)
		return -EIO;
	info = kzalloc(sizeof(*info), GFP_KERNEL);
	if (!info)
		return -ENOMEM;
	info->dma_dev = &pf->pdev->dev;
	info->parent = &adev->dev;
	info->netdev = vsi->netdev;
	info->ops = &irdma_ice_bus_ops;
	info->priv = pf;
	info->gen = IRDMA_GEN_2;
	info->pf_id = pf->hw.pf_id;
	info->num_vectors = min_t(u32, pf->num_rdma_msix, IRDMA_MAX_VECTORS);
	for (i = 0; i < info->num_vectors; i++) {
		u32 e = pf->rdma_base_vector + i;

		info->vectors[i].irq = pf->msix_entries[e].vector;
		info->vectors[i].idx = pf->msix_entries[e].entry;
	}
	info->db_pfn = PHYS_PFN(pci_resource_start(pf->pdev, 0) +
				IRDMA_GEN2_DB_PAGE_OFFSET);
	info->db_mem = IRDMA_DB_MEM_IO;
	info->ibdev_name = "irdma%d";

	ret = ice_rdma_update_vsi_filter(pf, vsi->vsi_num, true);
	if (ret)
		goto out_free_info;
	ret = irdma_probe_function(info, &rf);
	if (ret) {
		ice_rdma_update_vsi_filter(pf, vsi->vsi_num, false);
		goto out_free_info;
	}
	auxiliary_set_drvdata(adev, rf);
out_free_info:
	kfree(info);
	return ret;
}

/**
 * irdma_ice_remove() - unbind from an E810 function
 * @adev: ice's auxiliary device
 */
static void irdma_ice_remove(struct auxiliary_device *adev)
{
	struct iidc_auxiliary_dev *iadev =
		container_of(adev, struct iidc_auxiliary_dev, adev);
	struct ice_vsi *vsi = ice_get_main_vsi(iadev->pf);

	irdma_remove_function(auxiliary_get_drvdata(adev));
	if (vsi)
		ice_rdma_update_vsi_filter(iadev->pf, vsi->vsi_num, false);
}

/**
 * irdma_ice_event() - events ice reports for the function
 * @pf: the PF
 * @event: event bitmap and register value
 *
 * A critical error other than the benign "Q1 resource check" asks ice to
 * reset the function.
 */
static void irdma_ice_event(struct ice_pf *pf, struct iidc_event *event)
{
	if (!test_bit(IIDC_EVENT_CRIT_ERR, event->type))
		return;
	if (event->reg == IRDMA_CRITERR_Q1_RESOURCE)
		return;
	dev_err(&pf->pdev->dev, "RDMA critical error 0x%08x: requesting reset\n",
		event->reg);
	ice_rdma_request_reset(pf, IIDC_PFR);
}

static const struct auxiliary_device_id irdma_ice_id_table[] = {
	{ .name = "ice.iwarp" },
	{ .name = "ice.roce" },
	{}
};
MODULE_DEVICE_TABLE(auxiliary, irdma_ice_id_table);

static struct iidc_auxiliary_drv irdma_ice_adrv = {
	.adrv = {
		.name = "ice",
		.id_table = irdma_ice_id_table,
		.probe = irdma_ice_probe,
		.remove = irdma_ice_remove,
	},
	.event_handler = irdma_ice_event,
};

/**
 * irdma_ice_if_register() - register the auxiliary driver for ice
 *
 * Return: 0 or a negative errno.
 */
int irdma_ice_if_register(void)
{
	return auxiliary_driver_register(&irdma_ice_adrv.adrv);
}

/**
 * irdma_ice_if_unregister() - unregister it; unbinds every E810 function
 */
void irdma_ice_if_unregister(void)
{
	auxiliary_driver_unregister(&irdma_ice_adrv.adrv);
}
