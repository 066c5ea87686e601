// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * irdma - the module: it starts following netdev and address changes,
 * then registers the auxiliary driver of each binding (sim_if.c for the
 * software model, ice_if.c for E810, i40e_if.c for X722), whose probes
 * reach main.c.  This is the top of the driver's layers
 * (Documentation/layers.txt).
 */
#include <linux/module.h>

#include "irdma.h"

MODULE_AUTHOR("irdma developers");
MODULE_DESCRIPTION("Intel(R) Ethernet Protocol Driver for RDMA (iWARP)");
MODULE_LICENSE("Dual BSD/GPL");
MODULE_ALIAS("i40iw");
#ifdef IRDMA_VERSION
MODULE_VERSION(IRDMA_VERSION);
#endif

/**
 * irdma_init_module() - register the notifiers and the bindings
 *
 * Return: 0 or a negative errno.
 */
static int __init irdma_init_module(void)
{
	int ret;

	ret = irdma_events_register();
	if (ret)
		return ret;
	ret = irdma_sim_if_register();
	if (ret)
		goto err_events;
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
err_events:
	irdma_events_unregister();
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
	irdma_events_unregister();
}

module_init(irdma_init_module);
module_exit(irdma_exit_module);
