// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * irdma - the hardware layer the connection manager calls (struct
 * irdma_cm_hw_ops, contract in cm.h): address handles, ILQ transmit,
 * quad-hash steering, the APBVT and the ARP cache, and QPs.
 *
 * The CM keeps IPv4 addresses in word 0 of its address arrays; the
 * adapter's descriptors keep them in word 3.  This file converts.
 */
#include <linux/etherdevice.h>

#include "irdma.h"
#include "ctrl.h"

/**
 * irdma_cm_rf() - the RDMA function under a CM instance
 * @core: CM instance
 *
 * Return: the function.
 */
static struct irdma_pci_f *irdma_cm_rf(struct irdma_cm_core *core)
{
	return core->iwdev->rf;
}

/**
 * irdma_hw_ah_put_arp() - an AH no longer uses its ARP entry
 * @rf: RDMA function
 * @ah_id: AH index
 */
static void irdma_hw_ah_put_arp(struct irdma_pci_f *rf, u32 ah_id)
{
	void *v;

	mutex_lock(&rf->tbl_lock);
	v = xa_erase(&rf->ah_arp, ah_id);
	if (v && !WARN_ON(!rf->arp[xa_to_value(v)].refcnt))
		rf->arp[xa_to_value(v)].refcnt--;
	mutex_unlock(&rf->tbl_lock);
}

/**
 * irdma_hw_ah_create() - create an ILQ address handle for a connection
 * @core: CM instance
 * @info: addresses, MACs, VLAN, TOS, ARP index (from irdma_hw_arp_index())
 * @ah_id: receives the AH index
 *
 * The AH holds a reference on its ARP entry until it is destroyed.
 *
 * Return: 0 or a negative errno.
 */
static int irdma_hw_ah_create(struct irdma_cm_core *core,
			      const struct irdma_cm_ah_info *info, u32 *ah_id)
{
	struct irdma_pci_f *rf = irdma_cm_rf(core);
	struct irdma_ah_params p = {
		.ipv4 = info->ipv4,
		.vlan_tci = info->vlan_tci,
		.insert_vlan = info->insert_vlan,
		.tc = info->tos,
		.hop_limit = info->hop_limit,
		.arp_idx = info->arp_idx,
		.loopback = info->loopback,
	};
	int id, ret;

	if (info->arp_idx < 0 || info->arp_idx >= rf->max_arp)
		return -EINVAL;
	id = ida_alloc_range(&rf->ah_ida, 1, rf->max_ah - 1, GFP_KERNEL);
	if (id < 0)
		return id;
	p.ah_id = id;
	/* the source MAC; the next hop's comes from the ARP entry */
	ether_addr_copy(p.mac, info->loc_mac);
	irdma_cm_ip_to_hw(p.dest_ip, info->rem_addr, info->ipv4);
	irdma_cm_ip_to_hw(p.src_ip, info->loc_addr, info->ipv4);
	/* the ARP entry stays while an AH uses it */
	mutex_lock(&rf->tbl_lock);
	ret = xa_insert(&rf->ah_arp, id, xa_mk_value(info->arp_idx), GFP_KERNEL);
	if (!ret)
		rf->arp[info->arp_idx].refcnt++;
	mutex_unlock(&rf->tbl_lock);
	if (ret)
		goto err_free_id;
	ret = irdma_cqp_ah(rf, &p, true);
	if (ret)
		goto err_put_arp;
	*ah_id = id;
	return 0;

err_put_arp:
	irdma_hw_ah_put_arp(rf, id);
err_free_id:
	ida_free(&rf->ah_ida, id);
	return ret;
}

/**
 * irdma_hw_ah_destroy() - destroy an ILQ address handle
 * @core: CM instance
 * @ah_id: AH index from irdma_hw_ah_create()
 */
static void irdma_hw_ah_destroy(struct irdma_cm_core *core, u32 ah_id)
{
	struct irdma_pci_f *rf = irdma_cm_rf(core);
	struct irdma_ah_params p = { .ah_id = ah_id };

	if (irdma_cqp_ah(rf, &p, false)) {
		/* the adapter still has it: keep the id and the ARP entry */
		dev_warn_ratelimited(rf->dma_dev, "AH %u destroy failed\n",
				     ah_id);
		return;
	}
	irdma_hw_ah_put_arp(rf, ah_id);
	ida_free(&rf->ah_ida, ah_id);
}

/**
 * irdma_hw_ilq_send() - transmit one CM segment
 * @core: CM instance
 * @ah_id: address handle
 * @seg: segment from the TCP header on
 * @len: its length
 * @tcp_hdr_len: TCP header length
 *
 * Return: 0 or a negative errno.
 */
static int irdma_hw_ilq_send(struct irdma_cm_core *core, u32 ah_id,
			     const void *seg, u32 len, u32 tcp_hdr_len)
{
	return irdma_ilq_send(irdma_cm_rf(core), ah_id, seg, len, tcp_hdr_len);
}

/**
 * irdma_hw_qhash() - add or delete a steering entry pointing at the ILQ
 * @core: CM instance
 * @info: the entry
 * @add: add (true) or delete (false)
 *
 * A delete the adapter refuses (the entry went with its QP) is not an
 * error.
 *
 * Return: 0 or a negative errno.
 */
static int irdma_hw_qhash(struct irdma_cm_core *core,
			  const struct irdma_cm_qhash_info *info, bool add)
{
	struct irdma_pci_f *rf = irdma_cm_rf(core);
	struct irdma_qhash_params p = {
		.type = info->type,
		.add = add,
		.ipv4 = info->ipv4,
		.loc_port = info->loc_port,
		.rem_port = info->rem_port,
		.vlan_id = info->vlan_id,
		.qs_handle = rf->qs_handle,
		.qpn = IRDMA_ILQ_ID,
	};
	int ret;

	ether_addr_copy(p.mac, info->loc_mac);
	irdma_cm_ip_to_hw(p.loc_addr, info->loc_addr, info->ipv4);
	irdma_cm_ip_to_hw(p.rem_addr, info->rem_addr, info->ipv4);
	ret = irdma_cqp_manage_qhash(rf, &p);
	if (ret && !add) {
		dev_dbg(rf->dma_dev, "qhash delete: %d (entry already gone)\n",
			ret);
		return 0;
	}
	return ret;
}

/**
 * irdma_hw_apbvt() - count a local TCP port in or out of the APBVT
 * @core: CM instance
 * @port: local port
 * @add: add (true) or delete (false)
 *
 * The adapter sees the first add and the last delete of a port.
 *
 * Return: 0 or a negative errno.
 */
static int irdma_hw_apbvt(struct irdma_cm_core *core, u16 port, bool add)
{
	struct irdma_pci_f *rf = irdma_cm_rf(core);
	struct irdma_apbvt_entry *e, *found = NULL;
	int ret = 0;

	mutex_lock(&rf->tbl_lock);
	list_for_each_entry(e, &rf->apbvt, list) {
		if (e->port == port) {
			found = e;
			break;
		}
	}
	if (add) {
		if (found) {
			found->refcnt++;
			goto out;
		}
		found = kzalloc(sizeof(*found), GFP_KERNEL);
		if (!found) {
			ret = -ENOMEM;
			goto out;
		}
		ret = irdma_cqp_manage_apbvt(rf, port, true);
		if (ret) {
			kfree(found);
			goto out;
		}
		found->port = port;
		found->refcnt = 1;
		list_add(&found->list, &rf->apbvt);
	} else {
		if (WARN_ON(!found))
			goto out;
		if (--found->refcnt)
			goto out;
		list_del(&found->list);
		kfree(found);
		ret = irdma_cqp_manage_apbvt(rf, port, false);
	}
out:
	mutex_unlock(&rf->tbl_lock);
	return ret;
}

/**
 * irdma_hw_arp_index() - the adapter ARP-cache entry for a neighbour
 * @core: CM instance
 * @ipv4: address family
 * @ip: neighbour address, CM layout (IPv4 in [0])
 * @mac: its MAC
 *
 * An entry is found by address.  @mac always comes from the kernel's
 * neighbour table (the CM never takes one from a received frame), so a
 * different MAC is a neighbour update: the entry is reprogrammed in
 * place, and every connection to that neighbour follows it, as the host
 * stack's sockets do.  Entries no AH uses are reused when the table is
 * full, so a flood of source addresses cannot exhaust it.
 *
 * Context: cm_core->mutex held (calls are serialised per function).
 * Return: the index, or -ENOSPC / a CQP error.
 */
static int irdma_hw_arp_index(struct irdma_cm_core *core, bool ipv4,
			      const u32 *ip, const u8 *mac)
{
	struct irdma_pci_f *rf = irdma_cm_rf(core);
	u32 hw_ip[4], i, victim = rf->max_arp;
	struct irdma_arp_entry *e;
	int ret;

	irdma_cm_ip_to_hw(hw_ip, ip, ipv4);
	mutex_lock(&rf->tbl_lock);
	for (i = 0; i < rf->max_arp; i++) {
		e = &rf->arp[i];
		if (!e->used || e->ipv4 != ipv4 ||
		    memcmp(e->ip, hw_ip, sizeof(hw_ip))) {
			/* prefer a never-used slot, else an idle one */
			if (!e->refcnt && (victim == rf->max_arp ||
					   (!e->used && rf->arp[victim].used)))
				victim = i;
			continue;
		}
		ret = i;
		if (ether_addr_equal(e->mac, mac))
			goto out;
		dev_dbg_ratelimited(rf->dma_dev,
				    "ARP entry %u: neighbour MAC changed to %pM\n",
				    i, mac);
		victim = i;
		break;
	}
	ret = -ENOSPC;
	if (victim == rf->max_arp)
		goto out;
	ret = irdma_cqp_manage_arp(rf, victim, mac, true);
	if (ret)
		goto out;
	e = &rf->arp[victim];
	e->ipv4 = ipv4;
	e->used = true;
	memcpy(e->ip, hw_ip, sizeof(hw_ip));
	ether_addr_copy(e->mac, mac);
	ret = victim;
out:
	mutex_unlock(&rf->tbl_lock);
	return ret;
}

/**
 * irdma_hw_qp_get() - look a QP up by number, with a reference
 * @core: CM instance
 * @qpn: QP number
 *
 * Return: the QP or NULL.
 */
static struct irdma_qp *irdma_hw_qp_get(struct irdma_cm_core *core, u32 qpn)
{
	return irdma_qp_get(irdma_cm_rf(core), qpn);
}

/**
 * irdma_hw_qp_flush() - flush an offloaded QP's queues
 * @iwqp: QP
 */
static void irdma_hw_qp_flush(struct irdma_qp *iwqp)
{
	irdma_qp_flush(iwqp);
}

const struct irdma_cm_hw_ops irdma_cm_hw_ops = {
	.ah_create = irdma_hw_ah_create,
	.ah_destroy = irdma_hw_ah_destroy,
	.ilq_send = irdma_hw_ilq_send,
	.qhash = irdma_hw_qhash,
	.apbvt = irdma_hw_apbvt,
	.arp_index = irdma_hw_arp_index,
	.qp_get = irdma_hw_qp_get,
	.qp_ref = irdma_qp_ref,
	.qp_put = irdma_qp_put,
	.qp_offload = irdma_qp_offload,
	.qp_close = irdma_qp_close,
	.qp_reset = irdma_qp_reset,
	.qp_terminate = irdma_qp_terminate,
	.qp_flush = irdma_hw_qp_flush,
};

/*
 * The QP table's lock is taken with interrupts off, under iw_cm's
 * cm_id lock (irdma_iw_get_qp()); the other tables' locks only in process
 * context.  xa_init() gives every table initialised in this file one
 * lockdep class, so the QP table gets a class of its own.
 */
static struct lock_class_key irdma_qp_table_key;

/**
 * irdma_hw_tables_alloc() - the driver's tables of adapter objects
 * @rf: RDMA function, HMC committed
 *
 * Return: 0 or -ENOMEM.
 */
int irdma_hw_tables_alloc(struct irdma_pci_f *rf)
{
	mutex_init(&rf->tbl_lock);
	INIT_LIST_HEAD(&rf->apbvt);
	ida_init(&rf->ah_ida);
	xa_init(&rf->ah_arp);
	ida_init(&rf->qp_ida);
	ida_init(&rf->cq_ida);
	ida_init(&rf->mr_ida);
	xa_init_flags(&rf->qp_table, XA_FLAGS_LOCK_IRQ);
	lockdep_set_class(&rf->qp_table.xa_lock, &irdma_qp_table_key);
	xa_init(&rf->cq_table);
	if (irdma_pble_init(rf))
		return -ENOMEM;
	rf->max_arp = min_t(u32, rf->hmc.obj[IRDMA_HMC_ARP].cnt,
			    FIELD_MAX(IRDMA_CQP_ARP_QW3_INDEX) + 1);
	rf->arp = kcalloc(rf->max_arp, sizeof(*rf->arp), GFP_KERNEL);
	if (!rf->arp) {
		irdma_pble_fini(rf);
		return -ENOMEM;
	}
	return 0;
}

/**
 * irdma_hw_tables_free() - remove what is left in the adapter tables
 * @rf: RDMA function
 *
 * Context: process context, may sleep; the CM is gone.
 */
void irdma_hw_tables_free(struct irdma_pci_f *rf)
{
	struct irdma_apbvt_entry *e, *tmp;
	u32 i;

	list_for_each_entry_safe(e, tmp, &rf->apbvt, list) {
		dev_warn(rf->dma_dev, "port %u still in the APBVT\n", e->port);
		irdma_cqp_manage_apbvt(rf, e->port, false);
		list_del(&e->list);
		kfree(e);
	}
	for (i = 0; rf->arp && i < rf->max_arp; i++)
		if (rf->arp[i].used)
			irdma_cqp_manage_arp(rf, i, NULL, false);
	kfree(rf->arp);
	rf->arp = NULL;
	xa_destroy(&rf->ah_arp);
	ida_destroy(&rf->ah_ida);
	WARN_ON(!xa_empty(&rf->qp_table) || !xa_empty(&rf->cq_table));
	xa_destroy(&rf->qp_table);
	xa_destroy(&rf->cq_table);
	ida_destroy(&rf->qp_ida);
	ida_destroy(&rf->cq_ida);
	ida_destroy(&rf->mr_ida);
	irdma_pble_fini(rf);
}
