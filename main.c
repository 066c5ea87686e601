// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * irdma - the common probe/remove of an RDMA function, and the netdev and
 * address notifiers that feed every probed function.
 *
 * A binding (ice_if.c for E810, i40e_if.c for X722, sim_if.c for the
 * software model) turns its auxiliary device into a struct irdma_bus_info
 * and calls irdma_probe_function(); from there on every function is
 * driven the same way.
 */
#include <linux/if_vlan.h>
#include <linux/inetdevice.h>
#include <linux/module.h>
#include <linux/netdevice.h>
#include <net/addrconf.h>

#include "irdma.h"

/* every probed function, for the notifiers */
static LIST_HEAD(irdma_functions);
/* protects irdma_functions; notifiers may run in atomic context */
static DEFINE_SPINLOCK(irdma_functions_lock);

/**
 * struct irdma_if_event - a netdev or address change, for the function's
 * workqueue
 * @work: work item on rf->wq
 * @rf: function it concerns
 * @netdev: the netdev (the port's or a VLAN on it); a reference is held
 * @tracker: tracks that reference
 * @link: a link change (else an address change)
 * @ipv4: address family (address changes)
 * @addr: the address, host-order words, IPv4 in [0]
 * @up: link administratively up (carrier aside) / address added
 */
struct irdma_if_event {
	struct work_struct work;
	struct irdma_pci_f *rf;
	struct net_device *netdev;
	netdevice_tracker tracker;
	bool link;
	bool ipv4;
	u32 addr[4];
	bool up;
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
	struct irdma_pci_f *rf;
	int ret;

	rf = kzalloc(sizeof(*rf), GFP_KERNEL);
	if (!rf)
		return -ENOMEM;
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
	ret = irdma_hw_stats_init(rf);
	if (ret)
		goto err_rt_deinit;
	/* listed first: link changes during registration are not lost */
	spin_lock_irq(&irdma_functions_lock);
	list_add(&rf->list, &irdma_functions);
	spin_unlock_irq(&irdma_functions_lock);
	ret = irdma_ib_register_device(rf);
	if (ret)
		goto err_unlist;
	*rfp = rf;
	dev_info(rf->dma_dev, "RDMA function up: %u QPs, %u CQs, %u CEQs, firmware %u.%u\n",
		 rf->max_qp, rf->max_cq, rf->num_ceqs, rf->fw_major,
		 rf->fw_minor);
	return 0;

err_unlist:
	spin_lock_irq(&irdma_functions_lock);
	list_del(&rf->list);
	spin_unlock_irq(&irdma_functions_lock);
	flush_workqueue(rf->wq);
err_rt_deinit:
	irdma_rt_deinit_hw(rf);
	irdma_hw_stats_fini(rf);
err_ctrl_deinit:
	irdma_ctrl_deinit_hw(rf);
err_destroy_wq:
	destroy_workqueue(rf->wq);
err_free_vectors:
	kfree(rf->vectors);
err_free:
	ida_destroy(&rf->pd_ida);
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
	/* no notifier queues work for @rf once it is off the list */
	spin_lock_irq(&irdma_functions_lock);
	list_del(&rf->list);
	spin_unlock_irq(&irdma_functions_lock);
	flush_workqueue(rf->wq);

	irdma_ib_unregister_device(rf);
	flush_workqueue(rf->wq);
	/* the AEQ counts into the statistics until it is gone */
	irdma_rt_deinit_hw(rf);
	irdma_hw_stats_fini(rf);
	irdma_ctrl_deinit_hw(rf);
	destroy_workqueue(rf->wq);
	ida_destroy(&rf->pd_ida);
	kfree(rf);
}

/**
 * irdma_if_event_work() - deliver a netdev or address change
 * @work: the event's work item
 *
 * Context: process context on rf->wq.
 */
static void irdma_if_event_work(struct work_struct *work)
{
	struct irdma_if_event *ev = container_of(work, struct irdma_if_event,
						 work);
	struct irdma_pci_f *rf = ev->rf;

	mutex_lock(&rf->iwdev_lock);
	if (rf->iwdev) {
		if (ev->link && ev->netdev == rf->netdev)
			irdma_port_event(rf->iwdev);
		irdma_if_notify(&rf->iwdev->cm_core, ev->netdev,
				ev->link ? NULL : ev->addr, ev->ipv4, ev->up);
	}
	mutex_unlock(&rf->iwdev_lock);
	netdev_put(ev->netdev, &ev->tracker);
	kfree(ev);
}

/**
 * irdma_if_event_post() - queue a change for every function it concerns
 * @netdev: netdev that changed
 * @tmpl: the event (rf, work and netdev are filled in here)
 *
 * A function is concerned when @netdev is its port or a VLAN on it.
 *
 * Context: any.
 */
static void irdma_if_event_post(struct net_device *netdev,
				const struct irdma_if_event *tmpl)
{
	struct net_device *real = is_vlan_dev(netdev) ?
				  vlan_dev_real_dev(netdev) : netdev;
	struct irdma_pci_f *rf;
	unsigned long flags;

	spin_lock_irqsave(&irdma_functions_lock, flags);
	list_for_each_entry(rf, &irdma_functions, list) {
		struct irdma_if_event *ev;

		if (rf->netdev != real)
			continue;
		ev = kmemdup(tmpl, sizeof(*ev), GFP_ATOMIC);
		if (!ev)
			break;
		INIT_WORK(&ev->work, irdma_if_event_work);
		ev->rf = rf;
		ev->netdev = netdev;
		netdev_hold(netdev, &ev->tracker, GFP_ATOMIC);
		queue_work(rf->wq, &ev->work);
	}
	spin_unlock_irqrestore(&irdma_functions_lock, flags);
}

/**
 * irdma_netdev_event() - follow the link state of ports and their VLANs
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
	struct irdma_if_event ev = { .link = true };

	switch (event) {
	case NETDEV_UP:
	case NETDEV_DOWN:
	case NETDEV_CHANGE:
		/*
		 * Only an administrative down ends the connections.  A carrier
		 * loss does not: TCP, the adapter's offload included, keeps
		 * retransmitting through a blip and gives up by its own
		 * timeouts if the link stays away.  The port state follows the
		 * carrier (irdma_port_event()).
		 */
		ev.up = netif_running(netdev);
		irdma_if_event_post(netdev, &ev);
		break;
	}
	return NOTIFY_DONE;
}

/**
 * irdma_inetaddr_event() - follow IPv4 addresses of ports and their VLANs
 * @nb: notifier block
 * @event: NETDEV_UP (added) or NETDEV_DOWN (removed)
 * @ptr: the struct in_ifaddr
 *
 * Context: process context.
 * Return: NOTIFY_DONE.
 */
static int irdma_inetaddr_event(struct notifier_block *nb, unsigned long event,
				void *ptr)
{
	struct in_ifaddr *ifa = ptr;
	struct irdma_if_event ev = { .ipv4 = true };

	if (event != NETDEV_UP && event != NETDEV_DOWN)
		return NOTIFY_DONE;
	ev.up = event == NETDEV_UP;
	ev.addr[0] = ntohl(ifa->ifa_address);
	irdma_if_event_post(ifa->ifa_dev->dev, &ev);
	return NOTIFY_DONE;
}

/**
 * irdma_inet6addr_event() - follow IPv6 addresses of ports and their VLANs
 * @nb: notifier block
 * @event: NETDEV_UP (added) or NETDEV_DOWN (removed)
 * @ptr: the struct inet6_ifaddr
 *
 * Context: atomic (the inet6addr chain).
 * Return: NOTIFY_DONE.
 */
static int irdma_inet6addr_event(struct notifier_block *nb,
				 unsigned long event, void *ptr)
{
	struct inet6_ifaddr *ifa = ptr;
	struct irdma_if_event ev = {};
	int i;

	if (event != NETDEV_UP && event != NETDEV_DOWN)
		return NOTIFY_DONE;
	ev.up = event == NETDEV_UP;
	for (i = 0; i < 4; i++)
		ev.addr[i] = ntohl(ifa->addr.s6_addr32[i]);
	irdma_if_event_post(ifa->idev->dev, &ev);
	return NOTIFY_DONE;
}

static struct notifier_block irdma_netdev_nb = {
	.notifier_call = irdma_netdev_event,
};

static struct notifier_block irdma_inetaddr_nb = {
	.notifier_call = irdma_inetaddr_event,
};

static struct notifier_block irdma_inet6addr_nb = {
	.notifier_call = irdma_inet6addr_event,
};

/**
 * irdma_events_register() - start following netdev and address changes
 *
 * Return: 0 or a negative errno; nothing is registered on failure.
 */
int irdma_events_register(void)
{
	int ret;

	ret = register_netdevice_notifier(&irdma_netdev_nb);
	if (ret)
		return ret;
	ret = register_inetaddr_notifier(&irdma_inetaddr_nb);
	if (ret)
		goto err_netdev_nb;
	ret = register_inet6addr_notifier(&irdma_inet6addr_nb);
	if (ret)
		goto err_inetaddr_nb;
	return 0;

err_inetaddr_nb:
	unregister_inetaddr_notifier(&irdma_inetaddr_nb);
err_netdev_nb:
	unregister_netdevice_notifier(&irdma_netdev_nb);
	return ret;
}

/**
 * irdma_events_unregister() - stop following netdev and address changes
 */
void irdma_events_unregister(void)
{
	unregister_inet6addr_notifier(&irdma_inet6addr_nb);
	unregister_inetaddr_notifier(&irdma_inetaddr_nb);
	unregister_netdevice_notifier(&irdma_netdev_nb);
}
