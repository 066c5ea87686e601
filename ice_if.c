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

#include "irdma.h"

/**
 * struct irdma_ice_fn - what the binding keeps per E810 function
 * @pf: ice's PF
 * @vsi_num: number of the PF's main VSI
 * @qset_teid: scheduler node ice made for the RDMA queue set
 * @rf: the RDMA function
 */
struct irdma_ice_fn {
	struct ice_pf *pf;
	u16 vsi_num;
	u32 qset_teid;
	struct irdma_pci_f *rf;
};

/**
 * irdma_ice_rd32() - register read on the E810 BAR
 * @rf: RDMA function
 * @reg: BAR0 offset
 *
 * Return: register value.
 */
static u32 irdma_ice_rd32(struct irdma_pci_f *rf, u32 reg)
{
	struct irdma_ice_fn *fn = rf->bus_priv;

	return readl(fn->pf->hw.hw_addr + reg);
}

/**
 * irdma_ice_wr32() - register write on the E810 BAR
 * @rf: RDMA function
 * @reg: BAR0 offset
 * @val: value
 */
static void irdma_ice_wr32(struct irdma_pci_f *rf, u32 reg, u32 val)
{
	struct irdma_ice_fn *fn = rf->bus_priv;

	writel(val, fn->pf->hw.hw_addr + reg);
}

/**
 * irdma_ice_request_reset() - ask ice for a PF reset
 * @rf: RDMA function
 *
 * Return: 0 or a negative errno.
 */
static int irdma_ice_request_reset(struct irdma_pci_f *rf)
{
	struct irdma_ice_fn *fn = rf->bus_priv;

	return ice_rdma_request_reset(fn->pf, IIDC_PFR);
}

/**
 * irdma_ice_qset() - attach or detach the RDMA queue set in ice's tree
 * @rf: RDMA function
 * @qs_handle: queue set the adapter returned for the scheduler leaf
 * @tc: traffic class
 * @add: attach (true) or detach (false)
 *
 * Return: 0 or a negative errno.
 */
static int irdma_ice_qset(struct irdma_pci_f *rf, u16 qs_handle, u8 tc,
			  bool add)
{
	struct irdma_ice_fn *fn = rf->bus_priv;
	struct iidc_rdma_qset_params qset = {
		.qs_handle = qs_handle,
		.vport_id = fn->vsi_num,
		.tc = tc,
		.teid = fn->qset_teid,
	};
	int ret;

	if (!add)
		return ice_del_rdma_qset(fn->pf, &qset);
	ret = ice_add_rdma_qset(fn->pf, &qset);
	if (!ret)
		fn->qset_teid = qset.teid;
	return ret;
}

static const struct irdma_bus_ops irdma_ice_bus_ops = {
	.rd32 = irdma_ice_rd32,
	.wr32 = irdma_ice_wr32,
	.request_reset = irdma_ice_request_reset,
	.qset = irdma_ice_qset,
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
	struct irdma_ice_fn *fn;
	u32 i;
	int ret;

	if (!strcmp(id->name, "ice.roce")) {
		const char *pci = pci_name(pf->pdev);

		/* RoCEv2 is ice's default: say how to switch, once per probe */
		dev_warn(&adev->dev,
			 "function is in RoCEv2 mode (ice's default); this irdma serves iWARP only.  To switch: devlink dev param set pci/%s name enable_roce value false cmode runtime; devlink dev param set pci/%s name enable_iwarp value true cmode runtime\n",
			 pci, pci);
		return -EOPNOTSUPP;
	}
	if (!vsi || !vsi->netdev)
		return -EIO;
	fn = kzalloc(sizeof(*fn), GFP_KERNEL);
	info = kzalloc(sizeof(*info), GFP_KERNEL);
	if (!fn || !info) {
		ret = -ENOMEM;
		goto out_free_info;
	}
	fn->pf = pf;
	fn->vsi_num = vsi->vsi_num;
	info->dma_dev = &pf->pdev->dev;
	info->parent = &adev->dev;
	info->netdev = vsi->netdev;
	info->ops = &irdma_ice_bus_ops;
	info->priv = fn;
	info->gen = IRDMA_GEN_2;
	info->pf_id = pf->hw.pf_id;
	info->part_id = pf->pdev->device;
	info->num_vectors = min_t(u32, pf->num_rdma_msix, IRDMA_MAX_VECTORS);
	for (i = 0; i < info->num_vectors; i++) {
		u32 e = pf->rdma_base_vector + i;

		info->vectors[i].irq = pf->msix_entries[e].vector;
		info->vectors[i].idx = pf->msix_entries[e].entry;
	}
	info->db_pfn = PHYS_PFN(pci_resource_start(pf->pdev, 0) +
				IRDMA_GEN2_DB_PAGE_OFFSET);
	info->ibdev_name = "irdma%d";

	ret = ice_rdma_update_vsi_filter(pf, vsi->vsi_num, true);
	if (ret)
		goto out_free_info;
	ret = irdma_probe_function(info, &fn->rf);
	if (ret) {
		ice_rdma_update_vsi_filter(pf, vsi->vsi_num, false);
		goto out_free_info;
	}
	auxiliary_set_drvdata(adev, fn);
	fn = NULL;
out_free_info:
	kfree(info);
	kfree(fn);
	return ret;
}

/**
 * irdma_ice_remove() - unbind from an E810 function
 * @adev: ice's auxiliary device
 */
static void irdma_ice_remove(struct auxiliary_device *adev)
{
	struct irdma_ice_fn *fn = auxiliary_get_drvdata(adev);

	irdma_remove_function(fn->rf);
	ice_rdma_update_vsi_filter(fn->pf, fn->vsi_num, false);
	kfree(fn);
}

/**
 * irdma_ice_event() - events ice reports for the function
 * @pf: the PF
 * @event: event bitmap; for a critical error, the OICR bits ice saw
 *
 * Context: ice's service task, the auxiliary device's lock held.
 */
static void irdma_ice_event(struct ice_pf *pf, struct iidc_event *event)
{
	struct irdma_ice_fn *fn = auxiliary_get_drvdata(pf->adev);

	if (test_bit(IIDC_EVENT_CRIT_ERR, event->type) && fn)
		irdma_crit_err(fn->rf, event->reg);
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
