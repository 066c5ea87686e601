// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * irdma_sim - instances of the E810 RDMA function model.
 *
 * "rdma link add NAME type irdma_sim netdev DEV" creates an instance: a
 * device on the model's own "irdma_sim" bus (the DMA parent), a register
 * file, a user doorbell page, MSI-X vectors, and the auxiliary device
 * "irdma_sim.iwarp.N" the irdma driver binds to.  An instance goes away
 * when its ib_device is unregistered (rdma link delete, or irdma unbinding),
 * when its netdev is unregistered, or when the module is removed.  The
 * first two only queue the deletion; it runs from a work item, because
 * both notifications arrive in contexts (ib_core's unregistration, rtnl)
 * where unbinding the driver would deadlock or nest badly.
 *
 * An instance attaches to its netdev (net.c's rx_handler) when it is
 * created and detaches when it stops; the netdev notifier detaches it at
 * once when the netdev goes.  Lock order: irdma_sim_link_lock, then rtnl,
 * then irdma_sim_list_lock.
 */

#include <linux/atomic.h>
#include <linux/dma-mapping.h>
#include <linux/idr.h>
#include <linux/if_arp.h>
#include <linux/kmod.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <linux/slab.h>
#include <linux/wait.h>
#include <rdma/rdma_netlink.h>

#include "sim.h"

/*
 * Serialises creation and deletion of instances.  Held across the driver's
 * probe and remove, so nothing the driver can call back into may take it.
 */
static DEFINE_MUTEX(irdma_sim_link_lock);
/*
 * Protects irdma_sim_list and each instance's state and del_pending.
 * Taken from ib_core client callbacks and the netdev notifier (under rtnl);
 * never held while calling out of the model.
 */
static DEFINE_MUTEX(irdma_sim_list_lock);
static LIST_HEAD(irdma_sim_list);
static DEFINE_IDA(irdma_sim_ida);
/* instances whose memory is not yet released; module exit waits for 0 */
static atomic_t irdma_sim_nr_structs = ATOMIC_INIT(0);
static DECLARE_WAIT_QUEUE_HEAD(irdma_sim_release_wq);

static void irdma_sim_del_work_fn(struct work_struct *work);
static DECLARE_WORK(irdma_sim_del_work, irdma_sim_del_work_fn);

static struct bus_type irdma_sim_bus = {
	.name = IRDMA_SIM_MODNAME,
};

/**
 * irdma_sim_dev_release() - free an instance once its bus device is unused
 * @dev: the bus device
 */
static void irdma_sim_dev_release(struct device *dev)
{
	struct irdma_sim *sim = container_of(dev, struct irdma_sim, dev);
	int left;

	kfree(sim);
	left = atomic_dec_return(&irdma_sim_nr_structs);
	WARN_ON_ONCE(left < 0);
	if (left <= 0)
		wake_up(&irdma_sim_release_wq);
}

static const struct device_type irdma_sim_dev_type = {
	.name = IRDMA_SIM_MODNAME,
	.release = irdma_sim_dev_release,
};

/**
 * irdma_sim_adev_release() - the auxiliary device is unused
 * @dev: device embedded in the auxiliary device
 *
 * Drops the reference the auxiliary device holds on the instance.
 */
static void irdma_sim_adev_release(struct device *dev)
{
	struct irdma_sim *sim = container_of(dev, struct irdma_sim,
					     sadev.adev.dev);

	put_device(&sim->dev);
}

/**
 * irdma_sim_request_del() - ask for an instance to be deleted
 * @sim: instance
 *
 * A LIVE instance is queued to the deletion work; one being created is
 * deleted by rdma link add itself when it finishes.
 */
static void irdma_sim_request_del(struct irdma_sim *sim)
{
	lockdep_assert_held(&irdma_sim_list_lock);

	switch (sim->state) {
	case IRDMA_SIM_CREATING:
		sim->del_pending = true;
		break;
	case IRDMA_SIM_LIVE:
		sim->state = IRDMA_SIM_DEL_QUEUED;
		schedule_work(&irdma_sim_del_work);
		break;
	case IRDMA_SIM_RESET_QUEUED:
		sim->state = IRDMA_SIM_DEL_QUEUED;
		break;
	case IRDMA_SIM_DEL_QUEUED:
		break;
	}
}

/**
 * irdma_sim_reset_request() - queue a function reset of an instance
 * @sim: instance (its reset_work is running, so it is not freed)
 * @lost: the function's state is gone before the driver hears of the
 *	reset (a reset the adapter or another function began): the model
 *	stops first, and the driver lets go of a function that no longer
 *	answers.  Otherwise the function keeps working until the driver has
 *	let go of it, as in ice's own PF reset.
 *
 * Return: 0, or -EBUSY when the instance is being created, deleted or
 * reset already.
 */
static int irdma_sim_reset_request(struct irdma_sim *sim, bool lost)
{
	int ret = -EBUSY;

	mutex_lock(&irdma_sim_list_lock);
	if (sim->state == IRDMA_SIM_LIVE) {
		sim->state = IRDMA_SIM_RESET_QUEUED;
		sim->reset_lost = lost;
		schedule_work(&irdma_sim_del_work);
		ret = 0;
	}
	mutex_unlock(&irdma_sim_list_lock);
	return ret;
}

/**
 * irdma_sim_stop() - stop all processing of an instance
 * @sim: instance whose driver has been unbound
 *
 * After this the model touches no driver memory, raises no interrupt and
 * takes no frame from its netdev.
 *
 * Context: process context, rtnl not held.
 */
static void irdma_sim_stop(struct irdma_sim *sim)
{
	unsigned long flags;

	spin_lock_irqsave(&sim->lock, flags);
	sim->dead = true;
	spin_unlock_irqrestore(&sim->lock, flags);
	cancel_work_sync(&sim->reset_work);
	drain_workqueue(sim->wq);
	irdma_sim_irq_sync(sim);
	rtnl_lock();
	irdma_sim_net_detach(sim);
	rtnl_unlock();
}

/**
 * irdma_sim_free() - release what an instance owns, after irdma_sim_stop()
 * @sim: instance; its auxiliary device is already uninitialised
 *
 * Drops the netdev reference last, then the initial device reference.
 */
static void irdma_sim_free(struct irdma_sim *sim)
{
	irdma_sim_debugfs_del(sim);
	irdma_sim_eq_purge(sim);
	irdma_sim_res_fini(sim);
	irdma_sim_iw_fini(sim);
	irdma_sim_irq_fini(sim);
	destroy_workqueue(sim->wq);
	device_del(&sim->dev);
	ida_free(&irdma_sim_ida, sim->id);
	netdev_put(sim->netdev, &sim->netdev_tracker);
	put_device(&sim->dev);
}

/**
 * irdma_sim_destroy() - delete an instance synchronously
 * @sim: instance, already removed from the list
 *
 * Unbinds the driver (its remove quiesces the function), then stops the
 * model and frees everything.
 */
static void irdma_sim_destroy(struct irdma_sim *sim)
{
	lockdep_assert_held(&irdma_sim_link_lock);

	dev_info(&sim->dev, "deleting %s\n", sim->ibdev_name);
	auxiliary_device_delete(&sim->sadev.adev);
	irdma_sim_stop(sim);
	auxiliary_device_uninit(&sim->sadev.adev);
	irdma_sim_free(sim);
}

/**
 * irdma_sim_reset_work() - reset_work: a reset was asked for
 * @work: the instance's reset_work (irdma_sim_ask_reset())
 *
 * irdma_sim_stop() cancels it, so the instance outlives it.
 */
static void irdma_sim_reset_work(struct work_struct *work)
{
	struct irdma_sim *sim = container_of(work, struct irdma_sim,
					     reset_work);
	unsigned long flags;
	bool lost;

	spin_lock_irqsave(&sim->lock, flags);
	lost = sim->reset_ask_lost;
	spin_unlock_irqrestore(&sim->lock, flags);
	if (irdma_sim_reset_request(sim, lost))
		dev_info(&sim->dev, "no reset: the function is being created, deleted or reset\n");
}

static int irdma_sim_create(const char *name, struct net_device *ndev);
static int irdma_sim_check_new(const char *name, struct net_device *ndev);

/**
 * irdma_sim_reset() - a function reset: the device goes, and a new one comes
 * @sim: instance, already removed from the list
 *
 * As ice does it: the auxiliary device is deleted (the driver's remove
 * runs, and ib_core disassociates every open context), the function's
 * state is lost, and a new auxiliary device is added for the same netdev,
 * under the same ib_device name.  The new function starts from the
 * "defaults" knobs, as after "rdma link add".  With @sim->reset_lost the
 * model stops before the driver is told, so no command completes and no
 * frame moves while the driver lets go.
 */
static void irdma_sim_reset(struct irdma_sim *sim)
{
	struct net_device *ndev = sim->netdev;
	char name[IB_DEVICE_NAME_MAX];
	netdevice_tracker tracker;
	int err;

	lockdep_assert_held(&irdma_sim_link_lock);

	strscpy(name, sim->ibdev_name, sizeof(name));
	dev_info(&sim->dev, "function reset of %s%s\n", name,
		 sim->reset_lost ? ", its state lost first" : "");
	if (sim->reset_lost)
		irdma_sim_stop(sim);
	netdev_hold(ndev, &tracker, GFP_KERNEL);
	irdma_sim_destroy(sim);

	err = READ_ONCE(ndev->reg_state) == NETREG_REGISTERED ? 0 : -ENODEV;
	if (!err)
		err = irdma_sim_check_new(name, ndev);
	if (!err)
		err = irdma_sim_create(name, ndev);
	if (err)
		pr_err("%s: %s did not come back after its reset: %d\n",
		       IRDMA_SIM_MODNAME, name, err);
	netdev_put(ndev, &tracker);
}

/**
 * irdma_sim_reap() - delete or reset every instance whose turn is queued
 */
static void irdma_sim_reap(void)
{
	struct irdma_sim *sim, *iter;
	bool reset;

	lockdep_assert_held(&irdma_sim_link_lock);

	for (;;) {
		sim = NULL;
		mutex_lock(&irdma_sim_list_lock);
		list_for_each_entry(iter, &irdma_sim_list, list) {
			if (iter->state == IRDMA_SIM_DEL_QUEUED ||
			    iter->state == IRDMA_SIM_RESET_QUEUED) {
				sim = iter;
				reset = sim->state == IRDMA_SIM_RESET_QUEUED;
				list_del(&sim->list);
				break;
			}
		}
		mutex_unlock(&irdma_sim_list_lock);
		if (!sim)
			break;
		if (reset)
			irdma_sim_reset(sim);
		else
			irdma_sim_destroy(sim);
	}
}

/**
 * irdma_sim_del_work_fn() - run queued deletions
 * @work: irdma_sim_del_work
 */
static void irdma_sim_del_work_fn(struct work_struct *work)
{
	mutex_lock(&irdma_sim_link_lock);
	irdma_sim_reap();
	mutex_unlock(&irdma_sim_link_lock);
}

/**
 * irdma_sim_check_new() - reject an rdma link add that cannot succeed
 * @name: requested ib_device name
 * @ndev: netdev
 *
 * Return: 0, -EINVAL for a netdev that is not Ethernet, -EEXIST when the
 * netdev already has an instance or @name is taken.
 */
static int irdma_sim_check_new(const char *name, struct net_device *ndev)
{
	struct ib_device *ibdev;
	struct irdma_sim *sim;
	int err = 0;

	lockdep_assert_held(&irdma_sim_link_lock);

	if (ndev->type != ARPHRD_ETHER) {
		pr_err_ratelimited("%s: %s is not an Ethernet device\n",
				   IRDMA_SIM_MODNAME, netdev_name(ndev));
		return -EINVAL;
	}

	mutex_lock(&irdma_sim_list_lock);
	list_for_each_entry(sim, &irdma_sim_list, list) {
		if (sim->netdev == ndev) {
			err = -EEXIST;
			break;
		}
	}
	mutex_unlock(&irdma_sim_list_lock);
	if (err) {
		pr_err_ratelimited("%s: %s already has an instance\n",
				   IRDMA_SIM_MODNAME, netdev_name(ndev));
		return err;
	}

	ibdev = ib_device_get_by_name(name, RDMA_DRIVER_UNKNOWN);
	if (ibdev) {
		ib_device_put(ibdev);
		pr_err_ratelimited("%s: RDMA device %s already exists\n",
				   IRDMA_SIM_MODNAME, name);
		return -EEXIST;
	}
	return 0;
}

/**
 * irdma_sim_bound() - whether the driver registered the requested device
 * @sim: instance whose auxiliary device was added
 *
 * Return: true when an ib_device named @sim->ibdev_name exists and its
 * parent is this instance's auxiliary device.
 */
static bool irdma_sim_bound(struct irdma_sim *sim)
{
	struct ib_device *ibdev;
	bool ours;

	ibdev = ib_device_get_by_name(sim->ibdev_name, RDMA_DRIVER_UNKNOWN);
	if (!ibdev)
		return false;
	ours = ibdev->dev.parent == &sim->sadev.adev.dev;
	ib_device_put(ibdev);
	return ours;
}

/**
 * irdma_sim_init_dev() - set up and add the DMA-capable bus device
 * @sim: new instance with its id assigned
 *
 * DMA addresses of this device are physical addresses (dma-direct with a
 * 64-bit mask), which is what lets the model find the driver's memory.
 * From here on put_device(&sim->dev) frees the instance.
 *
 * Return: 0 or a negative errno; on error the device is not added.
 */
static int irdma_sim_init_dev(struct irdma_sim *sim)
{
	struct device *dev = &sim->dev;
	int err;

	device_initialize(dev);
	atomic_inc(&irdma_sim_nr_structs);
	dev->bus = &irdma_sim_bus;
	dev->type = &irdma_sim_dev_type;
	dev->dma_mask = &dev->coherent_dma_mask;
	dev->dma_parms = &sim->dma_parms;
	err = dma_set_mask_and_coherent(dev, DMA_BIT_MASK(64));
	if (err)
		return err;
	err = dma_set_max_seg_size(dev, UINT_MAX);
	if (err)
		return err;
	err = dev_set_name(dev, "%s%u", IRDMA_SIM_MODNAME, sim->id);
	if (err)
		return err;
	return device_add(dev);
}

/**
 * irdma_sim_init_adev() - fill and initialise the auxiliary device
 * @sim: instance with its vectors and doorbell page
 *
 * Return: 0 or a negative errno.  On success the auxiliary device holds a
 * reference on @sim->dev and must be released with auxiliary_device_uninit().
 */
static int irdma_sim_init_adev(struct irdma_sim *sim)
{
	struct irdma_sim_adev *sadev = &sim->sadev;
	u32 i;
	int err;

	sadev->ops = &irdma_sim_reg_ops;
	sadev->netdev = sim->netdev;
	sadev->ibdev_name = sim->ibdev_name;
	sadev->gen = IRDMA_GEN_2;
	sadev->device_id = sim->knobs.device_id;
	sadev->pf_id = 0;
	for (i = 0; i < sim->irq.nvec; i++) {
		sadev->vectors[i].irq = sim->irq.vec[i].virq;
		sadev->vectors[i].idx = sim->irq.vec[i].idx;
	}
	sadev->num_vectors = sim->irq.nvec;

	sadev->adev.name = IRDMA_SIM_ADEV_NAME;
	sadev->adev.id = sim->id;
	sadev->adev.dev.parent = &sim->dev;
	sadev->adev.dev.release = irdma_sim_adev_release;
	err = auxiliary_device_init(&sadev->adev);
	if (err)
		return err;
	get_device(&sim->dev);
	return 0;
}

/**
 * irdma_sim_create() - create, publish and bind a new instance
 * @name: requested ib_device name
 * @ndev: netdev to serve
 *
 * Return: 0 once irdma has registered @name on the instance, else a
 * negative errno with nothing left behind.
 */
static int irdma_sim_create(const char *name, struct net_device *ndev)
{
	u32 nvec = min_t(u32, num_online_cpus() + 1, IRDMA_SIM_MAX_VECTORS);
	struct irdma_sim *sim;
	bool bound, del;
	int err;

	lockdep_assert_held(&irdma_sim_link_lock);

	sim = kzalloc(sizeof(*sim), GFP_KERNEL);
	if (!sim)
		return -ENOMEM;
	err = ida_alloc(&irdma_sim_ida, GFP_KERNEL);
	if (err < 0) {
		kfree(sim);
		return err;
	}
	sim->id = err;
	strscpy(sim->ibdev_name, name, sizeof(sim->ibdev_name));
	spin_lock_init(&sim->lock);
	xa_init(&sim->cqs);
	xa_init(&sim->qps);
	xa_init(&sim->mrs);
	xa_init(&sim->ahs);
	hash_init(sim->qhash);
	INIT_LIST_HEAD(&sim->vlans);
	INIT_WORK(&sim->cqp_work, irdma_sim_cqp_work);
	INIT_LIST_HEAD(&sim->uda_tx);
	INIT_WORK(&sim->uda_work, irdma_sim_uda_work);
	INIT_WORK(&sim->reset_work, irdma_sim_reset_work);
	irdma_sim_knobs_init(&sim->knobs);
	irdma_sim_regs_init(sim);

	err = irdma_sim_init_dev(sim);
	if (err)
		goto err_put_dev;
	err = irdma_sim_res_init(sim);
	if (err)
		goto err_del_dev;
	sim->wq = alloc_ordered_workqueue("%s%u", WQ_MEM_RECLAIM,
					  IRDMA_SIM_MODNAME, sim->id);
	if (!sim->wq) {
		err = -ENOMEM;
		goto err_res_fini;
	}
	err = irdma_sim_iw_init(sim);
	if (err)
		goto err_destroy_wq;
	err = irdma_sim_irq_init(sim, nvec);
	if (err)
		goto err_iw_fini;
	netdev_hold(ndev, &sim->netdev_tracker, GFP_KERNEL);
	sim->netdev = ndev;
	irdma_sim_debugfs_add(sim);

	rtnl_lock();
	err = irdma_sim_net_attach(sim);
	rtnl_unlock();
	if (err)
		goto err_free_all;
	err = irdma_sim_init_adev(sim);
	if (err)
		goto err_free_all;

	mutex_lock(&irdma_sim_list_lock);
	sim->state = IRDMA_SIM_CREATING;
	list_add_tail(&sim->list, &irdma_sim_list);
	mutex_unlock(&irdma_sim_list_lock);

	err = auxiliary_device_add(&sim->sadev.adev);
	if (err) {
		mutex_lock(&irdma_sim_list_lock);
		list_del(&sim->list);
		mutex_unlock(&irdma_sim_list_lock);
		irdma_sim_stop(sim);
		auxiliary_device_uninit(&sim->sadev.adev);
		irdma_sim_free(sim);
		return err;
	}

	/* creating a device loads irdma: nothing bound means it is not loaded */
	if (!READ_ONCE(sim->sadev.adev.dev.driver))
		request_module("irdma");

	/* outside irdma_sim_list_lock: ib_core calls .add with its locks held */
	bound = irdma_sim_bound(sim);
	if (!bound)
		dev_err_ratelimited(&sim->dev, "irdma did not bind to %s\n",
				    name);

	mutex_lock(&irdma_sim_list_lock);
	del = sim->del_pending || !bound;
	if (del)
		list_del(&sim->list);
	else
		sim->state = IRDMA_SIM_LIVE;
	mutex_unlock(&irdma_sim_list_lock);
	if (del) {
		irdma_sim_destroy(sim);
		return -ENODEV;
	}

	dev_info(&sim->dev, "%s on %s, %u vectors\n", name, netdev_name(ndev),
		 nvec);
	return 0;

err_free_all:
	irdma_sim_stop(sim);
	irdma_sim_free(sim);
	return err;
err_iw_fini:
	irdma_sim_iw_fini(sim);
err_destroy_wq:
	destroy_workqueue(sim->wq);
err_res_fini:
	irdma_sim_res_fini(sim);
err_del_dev:
	device_del(&sim->dev);
err_put_dev:
	ida_free(&irdma_sim_ida, sim->id);
	put_device(&sim->dev);
	return err;
}

/**
 * irdma_sim_newlink() - rdma_link_ops.newlink: "rdma link add ... type irdma_sim"
 * @ibdev_name: requested ib_device name
 * @ndev: netdev (ib_core holds a reference for the duration of the call)
 *
 * Return: 0 or a negative errno; on error nothing changed.
 */
static int irdma_sim_newlink(const char *ibdev_name, struct net_device *ndev)
{
	int err;

	mutex_lock(&irdma_sim_link_lock);
	/* finish deletions still queued, so "delete; add" on one netdev works */
	irdma_sim_reap();
	err = irdma_sim_check_new(ibdev_name, ndev);
	if (!err)
		err = irdma_sim_create(ibdev_name, ndev);
	mutex_unlock(&irdma_sim_link_lock);
	return err;
}

static struct rdma_link_ops irdma_sim_link_ops = {
	.type = IRDMA_SIM_MODNAME,
	.newlink = irdma_sim_newlink,
};

/**
 * irdma_sim_find_parent() - instance whose auxiliary device is @parent
 * @parent: parent of an ib_device
 *
 * Return: the instance on the list, or NULL.
 */
static struct irdma_sim *irdma_sim_find_parent(struct device *parent)
{
	struct irdma_sim *sim;

	lockdep_assert_held(&irdma_sim_list_lock);

	list_for_each_entry(sim, &irdma_sim_list, list)
		if (&sim->sadev.adev.dev == parent)
			return sim;
	return NULL;
}

/**
 * irdma_sim_ib_add() - ib_client.add: follow only our own ib_devices
 * @ibdev: newly registered ib_device
 *
 * Return: 0 for an ib_device of an instance, -EOPNOTSUPP otherwise (ib_core
 * then never calls .remove for it).
 */
static int irdma_sim_ib_add(struct ib_device *ibdev)
{
	struct irdma_sim *sim;

	mutex_lock(&irdma_sim_list_lock);
	sim = irdma_sim_find_parent(ibdev->dev.parent);
	mutex_unlock(&irdma_sim_list_lock);
	return sim ? 0 : -EOPNOTSUPP;
}

/**
 * irdma_sim_ib_remove() - ib_client.remove: an instance's ib_device is going
 * @ibdev: ib_device being unregistered
 * @client_data: unused
 *
 * Queues the deletion of the instance ("rdma link delete", or irdma
 * unbinding).  Never deletes here: this runs inside ib_core's unregistration.
 */
static void irdma_sim_ib_remove(struct ib_device *ibdev, void *client_data)
{
	struct irdma_sim *sim;

	mutex_lock(&irdma_sim_list_lock);
	sim = irdma_sim_find_parent(ibdev->dev.parent);
	if (sim)
		irdma_sim_request_del(sim);
	mutex_unlock(&irdma_sim_list_lock);
}

static struct ib_client irdma_sim_ib_client = {
	.name = IRDMA_SIM_MODNAME,
	.add = irdma_sim_ib_add,
	.remove = irdma_sim_ib_remove,
};

/**
 * irdma_sim_netdev_event() - follow the netdevs of the instances
 * @nb: notifier block
 * @event: NETDEV_* event
 * @ptr: netdev notifier info
 *
 * Queues the deletion of the instances of a vanishing netdev, which stop
 * taking frames from it at once; attaches to and detaches from VLAN
 * devices on an instance's netdev (net.c).
 *
 * Context: process context, rtnl held.
 * Return: NOTIFY_DONE.
 */
static int irdma_sim_netdev_event(struct notifier_block *nb,
				  unsigned long event, void *ptr)
{
	struct net_device *ndev = netdev_notifier_info_to_dev(ptr);
	struct irdma_sim *sim;

	if (event != NETDEV_UNREGISTER && event != NETDEV_REGISTER)
		return NOTIFY_DONE;

	mutex_lock(&irdma_sim_list_lock);
	list_for_each_entry(sim, &irdma_sim_list, list) {
		irdma_sim_net_event(sim, event, ndev);
		if (event == NETDEV_UNREGISTER && sim->netdev == ndev)
			irdma_sim_request_del(sim);
	}
	mutex_unlock(&irdma_sim_list_lock);
	return NOTIFY_DONE;
}

static struct notifier_block irdma_sim_netdev_nb = {
	.notifier_call = irdma_sim_netdev_event,
};

/**
 * irdma_sim_init() - module init
 *
 * Return: 0 or a negative errno.
 */
static int __init irdma_sim_init(void)
{
	int err;

	irdma_sim_crc_select();
	err = bus_register(&irdma_sim_bus);
	if (err)
		return err;
	irdma_sim_debugfs_init();
	err = ib_register_client(&irdma_sim_ib_client);
	if (err)
		goto err_bus_unregister;
	err = register_netdevice_notifier(&irdma_sim_netdev_nb);
	if (err)
		goto err_client_unregister;
	rdma_link_register(&irdma_sim_link_ops);
	return 0;

err_client_unregister:
	ib_unregister_client(&irdma_sim_ib_client);
err_bus_unregister:
	irdma_sim_debugfs_exit();
	bus_unregister(&irdma_sim_bus);
	return err;
}

/**
 * irdma_sim_exit() - module exit: delete every instance synchronously
 */
static void __exit irdma_sim_exit(void)
{
	struct irdma_sim *sim;

	rdma_link_unregister(&irdma_sim_link_ops);
	unregister_netdevice_notifier(&irdma_sim_netdev_nb);

	mutex_lock(&irdma_sim_link_lock);
	for (;;) {
		mutex_lock(&irdma_sim_list_lock);
		sim = list_first_entry_or_null(&irdma_sim_list,
					       struct irdma_sim, list);
		if (sim)
			list_del(&sim->list);
		mutex_unlock(&irdma_sim_list_lock);
		if (!sim)
			break;
		irdma_sim_destroy(sim);
	}
	mutex_unlock(&irdma_sim_link_lock);

	ib_unregister_client(&irdma_sim_ib_client);
	cancel_work_sync(&irdma_sim_del_work);
	wait_event(irdma_sim_release_wq, atomic_read(&irdma_sim_nr_structs) <= 0);
	irdma_sim_udb_exit();
	irdma_sim_debugfs_exit();
	bus_unregister(&irdma_sim_bus);
	ida_destroy(&irdma_sim_ida);
}

module_init(irdma_sim_init);
module_exit(irdma_sim_exit);

MODULE_DESCRIPTION("Software model of the Intel E810 RDMA function");
MODULE_LICENSE("Dual BSD/GPL");
MODULE_ALIAS_RDMA_LINK(IRDMA_SIM_MODNAME);
#ifdef IRDMA_VERSION
MODULE_VERSION(IRDMA_VERSION);
#endif
