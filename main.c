// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * irdma - module init/exit, the auxiliary drivers of each binding, and the
 * common probe/remove of an RDMA function.
 *
 * A binding (ice_if.c for E810, i40e_if.c for X722, sim_if.c for the
 * software model) turns its auxiliary device into a struct irdma_bus_info
 * and calls irdma_probe_function(); from there on every function is
 * driven the same way.
 */
#include <linux/module.h>
#include <linux/netdevice.h>

#include "main.h"

MODULE_AUTHOR("irdma developers");
MODULE_DESCRIPTION("Intel(R) Ethernet Protocol Driver for RDMA (iWARP)");
MODULE_LICENSE("Dual BSD/GPL");
MODULE_ALIAS("i40iw");

/* every probed function, for the netdev notifier */
static LIST_HEAD(irdma_functions);
/* protects irdma_functions; taken under rtnl by the notifier */
static DEFINE_MUTEX(irdma_functions_lock);

/**
 * struct irdma_function_node - list entry of a probed function
 * @list: entry in irdma_functions
 * @rf: the function
 */
struct irdma_function_node {
	struct list_head list;
	struct irdma_pci_f *rf;
};

/**
 * irdma_probe_function() - bring up an RDMA function and register it
 * @info: what the binding provides
 * @rfp: receives the function on success
 *
 * Context: process context, may sleep.
 * Return: 0 or a negative errno; nothing is left behind on failure.
 */
int irdma_probe_function(const struct irdma_bus_info *info,
			 struct irdma_pci_f **rfp)
{
	struct irdma_function_node *node;
	struct irdma_pci_f *rf;
	int ret;

	rf = kzalloc(sizeof(*rf), GFP_KERNEL);
	node = kzalloc(sizeof(*node), GFP_KERNEL);
	if (!rf || !node) {
		ret = -ENOMEM;
		goto err_free;
	}
	mutex_init(&rf->iwdev_lock);
	ida_init(&rf->pd_ida);
	ret = irdma_hw_set_bus(rf, info);
	if (ret)
		goto err_free;
	rf->wq = alloc_ordered_workqueue("irdma-%s", 0, dev_name(info->parent));
	if (!rf->wq) {
		ret = -ENOMEM;
		goto err_free_vectors;
	}
	ret = irdma_ctrl_init_hw(rf);
	if (ret)
		goto err_destroy_wq;
	ret = irdma_rt_init_hw(rf);
	if (ret)
		goto err_ctrl_deinit;
	ret = irdma_ib_register_device(rf);
	if (ret)
		goto err_rt_deinit;

	node->rf = rf;
	mutex_lock(&irdma_functions_lock);
	list_add(&node->list, &irdma_functions);
	mutex_unlock(&irdma_functions_lock);
	*rfp = rf;
	dev_info(rf->dma_dev, "RDMA function up: %u QPs, %u CQs, %u CEQs, firmware %u.%u\n",
		 rf->max_qp, rf->max_cq, rf->num_ceqs, rf->fw_major,
		 rf->fw_minor);
	return 0;

err_rt_deinit:
	irdma_rt_deinit_hw(rf);
err_ctrl_deinit:
	irdma_ctrl_deinit_hw(rf);
err_destroy_wq:
	destroy_workqueue(rf->wq);
err_free_vectors:
	kfree(rf->vectors);
err_free:
	if (rf)
		ida_destroy(&rf->pd_ida);
	kfree(node);
	kfree(rf);
	return ret;
}

/**
 * irdma_remove_function() - unregister and quiesce an RDMA function
 * @rf: function from irdma_probe_function()
 *
 * After this returns the adapter no longer touches host memory of @rf.
 *
 * Context: process context, may sleep; not under rtnl.
 */
void irdma_remove_function(struct irdma_pci_f *rf)
{
	struct irdma_function_node *node, *tmp;

	mutex_lock(&irdma_functions_lock);
	list_for_each_entry_safe(node, tmp, &irdma_functions, list) {
		if (node->rf == rf) {
			list_del(&node->list);
			kfree(node);
		}
	}
	mutex_unlock(&irdma_functions_lock);

	irdma_ib_unregister_device(rf);
	flush_workqueue(rf->wq);
	irdma_rt_deinit_hw(rf);
	irdma_ctrl_deinit_hw(rf);
	destroy_workqueue(rf->wq);
	ida_destroy(&rf->pd_ida);
	kfree(rf);
}

/**
 * irdma_netdev_event() - follow the port netdev's state
 * @nb: notifier block
 * @event: NETDEV_* event
 * @ptr: netdev notifier info
 *
 * Context: process context, rtnl held.
 * Return: NOTIFY_DONE.
 */
static int irdma_netdev_event(struct notifier_block *nb, unsigned long event,
			      void *ptr)
{
	struct net_device *netdev = netdev_notifier_info_to_dev(ptr);
	struct irdma_function_node *node;

	switch (event) {
	case NETDEV_UP:
	case NETDEV_DOWN:
	case NETDEV_CHANGE:
		break;
	default:
		return NOTIFY_DONE;
	}
	mutex_lock(&irdma_functions_lock);
	list_for_each_entry(node, &irdma_functions, list) {
		struct irdma_pci_f *rf = node->rf;

		if (rf->netdev != netdev)
			continue;
		mutex_lock(&rf->iwdev_lock);
		if (rf->iwdev)
			irdma_port_event(rf->iwdev);
		mutex_unlock(&rf->iwdev_lock);
	}
	mutex_unlock(&irdma_functions_lock);
	return NOTIFY_DONE;
}

static struct notifier_block irdma_netdev_nb = {
	.notifier_call = irdma_netdev_event,
};

/**
 * irdma_init_module() - register the netdev notifier and the bindings
 *
 * Return: 0 or a negative errno.
 */
static int __init irdma_init_module(void)
{
	int ret;

	ret = register_netdevice_notifier(&irdma_netdev_nb);
	if (ret)
		return ret;
	ret = irdma_sim_if_register();
	if (ret)
		goto err_netdev_nb;
	ret = irdma_ice_if_register();
	if (ret)
		goto err_sim;
	ret = irdma_i40e_if_register();
	if (ret)
		goto err_ice;
	return 0;

err_ice:
	irdma_ice_if_unregister();
err_sim:
	irdma_sim_if_unregister();
err_netdev_nb:
	unregister_netdevice_notifier(&irdma_netdev_nb);
	return ret;
}

/**
 * irdma_exit_module() - unbind every function and unregister
 */
static void __exit irdma_exit_module(void)
{
	irdma_i40e_if_unregister();
	irdma_ice_if_unregister();
	irdma_sim_if_unregister();
	unregister_netdevice_notifier(&irdma_netdev_nb);
}

module_init(irdma_init_module);
module_exit(irdma_exit_module);
