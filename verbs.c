// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * irdma - the ib_device: registration with ib_core, device and port
 * queries, and the user-space ABI of Debian's stock libirdma (rdma-core
 * 44: uverbs ABI 5, hw_rev GEN_2; Documentation/irdma.rst, "User space").
 */
#include <linux/etherdevice.h>
#include <linux/irq.h>
#include <net/addrconf.h>
#include <rdma/ib_umem.h>
#include <rdma/ib_user_verbs.h>
#include <rdma/iw_cm.h>
#include <rdma/irdma-abi.h>
#include <rdma/uverbs_ioctl.h>

#include "irdma.h"

#define IRDMA_VENDOR_ID			0x8086
#define IRDMA_FEATURE_RTS_AE		BIT(0)
#define IRDMA_FEATURE_CQ_RESIZE		BIT(1)
#define IRDMA_FIRST_USER_PD_ID		3
#define IRDMA_MAX_MSG_SIZE		0x7fffffff
#define IRDMA_USERSPACE_VER_MIN		4
#define IRDMA_USERSPACE_VER_MAX		IRDMA_ABI_VER

/**
 * irdma_max_ird() - inbound RDMA reads per QP the adapter supports
 * @rf: RDMA function
 *
 * Return: IRD limit.
 */
static u32 irdma_max_ird(const struct irdma_pci_f *rf)
{
	return rf->gen == IRDMA_GEN_1 ? IRDMA_GEN1_MAX_IRD : IRDMA_GEN2_MAX_IRD;
}

/**
 * irdma_max_ord() - outbound RDMA reads per QP the adapter supports
 * @rf: RDMA function
 *
 * Return: ORD limit.
 */
static u32 irdma_max_ord(const struct irdma_pci_f *rf)
{
	return rf->gen == IRDMA_GEN_1 ? IRDMA_GEN1_MAX_ORD : IRDMA_GEN2_MAX_ORD;
}

/**
 * irdma_max_wq_quanta() - SQ/RQ depth limit in 32-byte quanta
 * @rf: RDMA function
 *
 * Return: quanta.
 */
static u32 irdma_max_wq_quanta(const struct irdma_pci_f *rf)
{
	return rf->gen == IRDMA_GEN_1 ? IRDMA_GEN1_MAX_WQ_QUANTA :
					IRDMA_GEN2_MAX_WQ_QUANTA;
}

/**
 * irdma_max_frags() - scatter/gather entries per work request
 * @rf: RDMA function
 *
 * Return: SGE limit.
 */
static u32 irdma_max_frags(const struct irdma_pci_f *rf)
{
	return rf->gen == IRDMA_GEN_1 ? IRDMA_GEN1_MAX_WQ_FRAGS :
					IRDMA_GEN2_MAX_WQ_FRAGS;
}

/**
 * irdma_query_device() - report the device's limits
 * @ibdev: device
 * @props: filled in
 * @udata: unused (no driver-specific data)
 *
 * Return: 0 or -EINVAL for unexpected udata.
 */
static int irdma_query_device(struct ib_device *ibdev,
			      struct ib_device_attr *props,
			      struct ib_udata *udata)
{
	struct irdma_device *iwdev = to_iwdev(ibdev);
	struct irdma_pci_f *rf = iwdev->rf;

	if (udata && (udata->inlen || udata->outlen))
		return -EINVAL;
	memset(props, 0, sizeof(*props));
	addrconf_addr_eui48((u8 *)&props->sys_image_guid,
			    iwdev->netdev->dev_addr);
	props->fw_ver = (u64)rf->fw_major << 32 | rf->fw_minor;
	props->device_cap_flags = IB_DEVICE_MEM_MGT_EXTENSIONS;
	/* kernel QPs are privileged: STag 0 addresses DMA memory */
	props->kernel_cap_flags = IBK_LOCAL_DMA_LKEY;
	/* ib_core copies these into ibdev->attrs at registration */
	if (rf->user_removable)
		props->kernel_cap_flags |= IBK_ALLOW_USER_UNREG;
	props->vendor_id = IRDMA_VENDOR_ID;
	props->vendor_part_id = rf->part_id;
	props->hw_ver = rf->gen;
	props->page_size_cap = SZ_4K | SZ_2M | SZ_1G;
	props->max_mr_size = IRDMA_MAX_MR_SIZE;
	props->max_qp = rf->max_qp - IRDMA_FIRST_USER_QP_ID;
	props->max_qp_wr = (irdma_max_wq_quanta(rf) - IRDMA_SQ_RSVD) /
			   IRDMA_GEN2_MAX_SQ_CHUNK;
	props->max_send_sge = irdma_max_frags(rf);
	props->max_recv_sge = irdma_max_frags(rf);
	props->max_sge_rd = rf->gen == IRDMA_GEN_1 ? IRDMA_GEN1_MAX_READ_SGES :
						     IRDMA_GEN2_MAX_READ_SGES;
	props->max_cq = rf->max_cq - IRDMA_FIRST_USER_CQ_ID;
	props->max_cqe = irdma_cq_max_cqe();
	props->max_mr = rf->max_mr - 1;
	/* no memory windows (no alloc_mw): advertise none */
	props->max_mw = 0;
	props->max_pd = rf->max_pd - IRDMA_FIRST_USER_PD_ID;
	props->max_qp_rd_atom = irdma_max_ird(rf);
	props->max_qp_init_rd_atom = irdma_max_ord(rf);
	props->max_res_rd_atom = props->max_qp_rd_atom * props->max_qp;
	props->atomic_cap = IB_ATOMIC_NONE;
	props->max_fast_reg_page_list_len = min_t(u32, IRDMA_MAX_FR_PAGES,
						  rf->pble_cnt);
	props->max_pkeys = 1;
	return 0;
}

/**
 * irdma_query_port() - report port attributes
 * @ibdev: device
 * @port: port number (1)
 * @props: prefilled by ib_core for iWARP (state from the netdev's carrier
 *	and addresses); the rest is filled in here
 *
 * Return: 0.
 */
static int irdma_query_port(struct ib_device *ibdev, u32 port,
			    struct ib_port_attr *props)
{
	struct net_device *netdev = to_iwdev(ibdev)->netdev;

	props->max_mtu = IB_MTU_4096;
	props->active_mtu = ib_mtu_int_to_enum(netdev->mtu);
	props->lid = 1;
	props->lmc = 0;
	props->sm_lid = 0;
	props->sm_sl = 0;
	props->gid_tbl_len = 1;
	props->pkey_tbl_len = 1;
	props->port_cap_flags = IB_PORT_CM_SUP | IB_PORT_REINIT_SUP |
				IB_PORT_VENDOR_CLASS_SUP |
				IB_PORT_BOOT_MGMT_SUP;
	props->max_msg_sz = IRDMA_MAX_MSG_SIZE;
	ib_get_eth_speed(ibdev, port, &props->active_speed,
			 &props->active_width);
	return 0;
}

/**
 * irdma_get_port_immutable() - port capabilities fixed for the lifetime
 * @ibdev: device
 * @port: port number
 * @immutable: filled in
 *
 * Return: 0.
 */
static int irdma_get_port_immutable(struct ib_device *ibdev, u32 port,
				    struct ib_port_immutable *immutable)
{
	immutable->core_cap_flags = RDMA_CORE_PORT_IWARP;
	immutable->gid_tbl_len = 1;
	immutable->pkey_tbl_len = 1;
	return 0;
}

/**
 * irdma_query_gid() - the port's single GID: its MAC
 * @ibdev: device
 * @port: port number
 * @index: GID index (0)
 * @gid: filled in
 *
 * Return: 0 or -EINVAL for an index other than 0.
 */
static int irdma_query_gid(struct ib_device *ibdev, u32 port, int index,
			   union ib_gid *gid)
{
	if (index)
		return -EINVAL;
	memset(gid, 0, sizeof(*gid));
	ether_addr_copy(gid->raw, to_iwdev(ibdev)->netdev->dev_addr);
	return 0;
}

/**
 * irdma_query_pkey() - the default P_Key (iWARP has no partitions)
 * @ibdev: device
 * @port: port number
 * @index: P_Key index (0)
 * @pkey: filled in
 *
 * Return: 0 or -EINVAL.
 */
static int irdma_query_pkey(struct ib_device *ibdev, u32 port, u16 index,
			    u16 *pkey)
{
	if (index)
		return -EINVAL;
	*pkey = 0xffff;
	return 0;
}

/**
 * irdma_get_vector_affinity() - CPUs that take a completion vector's IRQ
 * @ibdev: device
 * @comp_vector: completion vector, below num_comp_vectors (the core checks)
 *
 * Completion vector n is CEQ n; its IRQ's affinity is what the hint set
 * at probe made it, or what an operator set since.
 *
 * Return: the affinity mask of the vector's IRQ.
 */
static const struct cpumask *
irdma_get_vector_affinity(struct ib_device *ibdev, int comp_vector)
{
	struct irdma_pci_f *rf = to_iwdev(ibdev)->rf;

	return irq_get_affinity_mask(rf->ceqs[comp_vector].vec->irq);
}

/**
 * irdma_get_dev_fw_str() - firmware version for sysfs
 * @ibdev: device
 * @str: buffer of IB_FW_VERSION_NAME_MAX bytes
 */
static void irdma_get_dev_fw_str(struct ib_device *ibdev, char *str)
{
	struct irdma_pci_f *rf = to_iwdev(ibdev)->rf;

	snprintf(str, IB_FW_VERSION_NAME_MAX, "%u.%u", rf->fw_major,
		 rf->fw_minor);
}

/**
 * irdma_alloc_ucontext() - open of the device by a user process
 * @uctx: the context to initialise
 * @udata: libirdma's request (8 bytes: userspace_ver) and response buffer
 *
 * The stock provider sends an 8-byte request with garbage in the reserved
 * bytes and no comp_mask, and a 64-byte response buffer.  It reads hw_rev
 * and the limits, then maps the doorbell page at db_mmap_key.
 *
 * Return: 0 or a negative errno.
 */
static int irdma_alloc_ucontext(struct ib_ucontext *uctx,
				struct ib_udata *udata)
{
	struct irdma_ucontext *ucontext = container_of(uctx, struct irdma_ucontext,
						       ibucontext);
	struct irdma_device *iwdev = to_iwdev(uctx->device);
	struct irdma_pci_f *rf = iwdev->rf;
	struct irdma_alloc_ucontext_resp resp = {};
	struct irdma_alloc_ucontext_req req = {};
	struct irdma_user_mmap_entry *entry;
	int ret;

	if (udata->inlen < offsetofend(struct irdma_alloc_ucontext_req, rsvd8) ||
	    udata->outlen < offsetofend(struct irdma_alloc_ucontext_resp, rsvd2))
		return -EINVAL;
	ret = ib_copy_from_udata(&req, udata, min(sizeof(req), udata->inlen));
	if (ret)
		return ret;
	if (req.userspace_ver < IRDMA_USERSPACE_VER_MIN ||
	    req.userspace_ver > IRDMA_USERSPACE_VER_MAX) {
		ibdev_dbg(&iwdev->ibdev, "unsupported provider ABI %u\n",
			  req.userspace_ver);
		return -EINVAL;
	}
	ucontext->iwdev = iwdev;
	ucontext->abi_ver = req.userspace_ver;
	INIT_LIST_HEAD(&ucontext->bufs);
	spin_lock_init(&ucontext->bufs_lock);

	entry = kzalloc(sizeof(*entry), GFP_KERNEL);
	if (!entry)
		return -ENOMEM;
	entry->pfn = rf->db_pfn;
	ret = rdma_user_mmap_entry_insert(uctx, &entry->rdma_entry, PAGE_SIZE);
	if (ret) {
		kfree(entry);
		return ret;
	}
	ucontext->db_entry = &entry->rdma_entry;

	resp.kernel_ver = IRDMA_ABI_VER;
	/* three reserved SQ WQEs: LSMM/RTR, fenced NOP, "established" AE */
	resp.feature_flags = IRDMA_FEATURE_RTS_AE | IRDMA_FEATURE_CQ_RESIZE;
	resp.db_mmap_key = rdma_user_mmap_get_offset(ucontext->db_entry);
	resp.max_hw_wq_frags = irdma_max_frags(rf);
	resp.max_hw_read_sges = rf->gen == IRDMA_GEN_1 ? IRDMA_GEN1_MAX_READ_SGES :
							 IRDMA_GEN2_MAX_READ_SGES;
	resp.max_hw_inline = rf->gen == IRDMA_GEN_1 ? IRDMA_GEN1_MAX_INLINE :
						      IRDMA_GEN2_MAX_INLINE;
	resp.max_hw_rq_quanta = rf->gen == IRDMA_GEN_1 ? IRDMA_GEN1_MAX_RQ_QUANTA :
							 IRDMA_GEN2_MAX_RQ_QUANTA;
	resp.max_hw_wq_quanta = irdma_max_wq_quanta(rf);
	resp.min_hw_cq_size = 1;
	/* libirdma refuses larger CQs itself: the same limit as max_cqe */
	resp.max_hw_cq_size = irdma_cq_max_cqe();
	resp.max_hw_sq_chunk = rf->gen == IRDMA_GEN_1 ? IRDMA_GEN1_MAX_SQ_CHUNK :
							IRDMA_GEN2_MAX_SQ_CHUNK;
	resp.hw_rev = rf->gen;
	ret = ib_copy_to_udata(udata, &resp, min(sizeof(resp), udata->outlen));
	if (ret) {
		rdma_user_mmap_entry_remove(ucontext->db_entry);
		return ret;
	}
	return 0;
}

/**
 * irdma_dealloc_ucontext() - close of the device by a user process
 * @uctx: the context
 */
static void irdma_dealloc_ucontext(struct ib_ucontext *uctx)
{
	struct irdma_ucontext *ucontext = container_of(uctx, struct irdma_ucontext,
						       ibucontext);

	rdma_user_mmap_entry_remove(ucontext->db_entry);
}

/**
 * irdma_disassociate_ucontext() - the device goes away under an open context
 * @uctx: the context
 *
 * ib_core zaps the context's mappings; there is nothing the driver holds
 * beyond what the context's destroy path releases.
 */
static void irdma_disassociate_ucontext(struct ib_ucontext *uctx)
{
}

/**
 * irdma_mmap() - map a page handed out as an mmap key
 * @uctx: the context
 * @vma: the user mapping
 *
 * The only such page is the doorbell page: device memory, mapped
 * uncached, or a binding's own page that it maps itself
 * (irdma_bus_ops.mmap_db).
 *
 * Return: 0 or a negative errno.
 */
static int irdma_mmap(struct ib_ucontext *uctx, struct vm_area_struct *vma)
{
	struct irdma_pci_f *rf = to_iwdev(uctx->device)->rf;
	struct irdma_user_mmap_entry *entry;
	struct rdma_user_mmap_entry *rdma_entry;
	int ret;

	rdma_entry = rdma_user_mmap_entry_get(uctx, vma);
	if (!rdma_entry)
		return -EINVAL;
	entry = container_of(rdma_entry, struct irdma_user_mmap_entry,
			     rdma_entry);
	if (rf->bus_ops->mmap_db)
		ret = rf->bus_ops->mmap_db(rf, vma);
	else
		ret = rdma_user_mmap_io(uctx, vma, entry->pfn, PAGE_SIZE,
					pgprot_noncached(vma->vm_page_prot),
					rdma_entry);
	rdma_user_mmap_entry_put(rdma_entry);
	return ret;
}

/**
 * irdma_mmap_free() - free an mmap entry once nothing references it
 * @rdma_entry: the entry
 *
 * Context: process; an munmap calls it with the mm locked.
 */
static void irdma_mmap_free(struct rdma_user_mmap_entry *rdma_entry)
{
	kfree(container_of(rdma_entry, struct irdma_user_mmap_entry,
			   rdma_entry));
}

/**
 * irdma_alloc_pd() - allocate a protection domain
 * @ibpd: the PD to initialise
 * @udata: user response (pd_id) or NULL for kernel PDs
 *
 * Return: 0 or a negative errno.
 */
static int irdma_alloc_pd(struct ib_pd *ibpd, struct ib_udata *udata)
{
	struct irdma_pd *pd = container_of(ibpd, struct irdma_pd, ibpd);
	struct irdma_pci_f *rf = to_iwdev(ibpd->device)->rf;
	struct irdma_alloc_pd_resp resp = {};
	int id, ret;

	id = ida_alloc_range(&rf->pd_ida, IRDMA_FIRST_USER_PD_ID,
			     rf->max_pd - 1, GFP_KERNEL);
	if (id < 0)
		return id;
	pd->pd_id = id;
	if (udata) {
		resp.pd_id = id;
		ret = ib_copy_to_udata(udata, &resp,
				       min(sizeof(resp), udata->outlen));
		if (ret) {
			ida_free(&rf->pd_ida, id);
			return ret;
		}
	}
	return 0;
}

/**
 * irdma_dealloc_pd() - free a protection domain
 * @ibpd: the PD
 * @udata: unused
 *
 * Return: 0.
 */
static int irdma_dealloc_pd(struct ib_pd *ibpd, struct ib_udata *udata)
{
	struct irdma_pd *pd = container_of(ibpd, struct irdma_pd, ibpd);

	ida_free(&to_iwdev(ibpd->device)->rf->pd_ida, pd->pd_id);
	return 0;
}

/**
 * irdma_iw_add_ref() - iw_cm takes a QP reference
 * @ibqp: QP
 *
 * The reference irdma_iw_get_qp() handed over, when one is waiting.
 */
static void irdma_iw_add_ref(struct ib_qp *ibqp)
{
	struct irdma_qp *iwqp = to_iwqp(ibqp);

	if (atomic_add_unless(&iwqp->iw_handed, -1, 0))
		return;
	irdma_qp_ref(iwqp);
}

/**
 * irdma_iw_rem_ref() - iw_cm drops a QP reference
 * @ibqp: QP
 */
static void irdma_iw_rem_ref(struct ib_qp *ibqp)
{
	irdma_qp_put(to_iwqp(ibqp));
}

/**
 * irdma_iw_get_qp() - QP lookup for iw_cm
 * @ibdev: device
 * @qpn: QP number (user space chooses it: rdma_connect()'s qp_num)
 *
 * iw_cm looks a QP up, then takes its reference with iw_add_ref() under
 * the same spinlock (iw_cm_connect(), iw_cm_accept()).  A destroy between
 * the two would free the QP under it, so the lookup's reference is kept
 * and handed to the irdma_iw_add_ref() that follows.
 *
 * Return: the QP, its reference waiting for iw_add_ref(), or NULL.
 */
static struct ib_qp *irdma_iw_get_qp(struct ib_device *ibdev, int qpn)
{
	struct irdma_qp *iwqp = irdma_qp_get(to_iwdev(ibdev)->rf, qpn);

	if (!iwqp)
		return NULL;
	atomic_inc(&iwqp->iw_handed);
	return &iwqp->ibqp;
}

/**
 * irdma_dealloc_driver() - ib_core is about to free the ib_device
 * @ibdev: device
 *
 * Called once the device is unregistered, whether by the driver's remove
 * or by "rdma link delete"; the function itself stays up until remove.
 */
static void irdma_dealloc_driver(struct ib_device *ibdev)
{
	struct irdma_device *iwdev = to_iwdev(ibdev);
	struct irdma_pci_f *rf = iwdev->rf;

	/* received segments and notifier events stop reaching the CM */
	mutex_lock(&rf->iwdev_lock);
	if (rf->iwdev == iwdev)
		rf->iwdev = NULL;
	mutex_unlock(&rf->iwdev_lock);
	if (iwdev->cm_ready)
		irdma_cleanup_cm_core(&iwdev->cm_core);
	iwdev->cm_ready = false;
}

static const struct ib_device_ops irdma_dev_ops = {
	.owner = THIS_MODULE,
	.driver_id = RDMA_DRIVER_IRDMA,
	.uverbs_abi_ver = IRDMA_ABI_VER,

	.alloc_hw_port_stats = irdma_alloc_hw_port_stats,
	.alloc_mr = irdma_alloc_mr,
	.alloc_pd = irdma_alloc_pd,
	.alloc_ucontext = irdma_alloc_ucontext,
	.create_cq = irdma_create_cq,
	.resize_cq = irdma_resize_cq,
	.create_qp = irdma_create_qp,
	.dealloc_driver = irdma_dealloc_driver,
	.dealloc_pd = irdma_dealloc_pd,
	.dealloc_ucontext = irdma_dealloc_ucontext,
	.dereg_mr = irdma_dereg_mr,
	.destroy_cq = irdma_destroy_cq,
	.destroy_qp = irdma_destroy_qp,
	.disassociate_ucontext = irdma_disassociate_ucontext,
	.fill_res_cq_entry = irdma_fill_res_cq_entry,
	.fill_res_mr_entry = irdma_fill_res_mr_entry,
	.fill_res_qp_entry = irdma_fill_res_qp_entry,
	.get_dev_fw_str = irdma_get_dev_fw_str,
	.get_dma_mr = irdma_get_dma_mr,
	.get_vector_affinity = irdma_get_vector_affinity,
	.get_hw_stats = irdma_get_hw_stats,
	.get_port_immutable = irdma_get_port_immutable,
	.iw_accept = irdma_accept,
	.iw_add_ref = irdma_iw_add_ref,
	.iw_connect = irdma_connect,
	.iw_create_listen = irdma_create_listen,
	.iw_destroy_listen = irdma_destroy_listen,
	.iw_get_qp = irdma_iw_get_qp,
	.iw_reject = irdma_reject,
	.iw_rem_ref = irdma_iw_rem_ref,
	.map_mr_sg = irdma_map_mr_sg,
	.mmap = irdma_mmap,
	.mmap_free = irdma_mmap_free,
	.modify_qp = irdma_modify_qp,
	.poll_cq = irdma_poll_cq,
	.post_recv = irdma_post_recv,
	.post_send = irdma_post_send,
	.query_device = irdma_query_device,
	.query_gid = irdma_query_gid,
	.query_pkey = irdma_query_pkey,
	.query_port = irdma_query_port,
	.query_qp = irdma_query_qp,
	.reg_user_mr = irdma_reg_user_mr,
	.req_notify_cq = irdma_req_notify_cq,

	INIT_RDMA_OBJ_SIZE(ib_cq, irdma_cq, ibcq),
	INIT_RDMA_OBJ_SIZE(ib_pd, irdma_pd, ibpd),
	INIT_RDMA_OBJ_SIZE(ib_qp, irdma_qp, ibqp),
	INIT_RDMA_OBJ_SIZE(ib_ucontext, irdma_ucontext, ibucontext),
};

/**
 * irdma_port_event() - tell ib_core the port went up or down
 * @iwdev: device
 *
 * Context: process context (the function's workqueue), rf->iwdev_lock held.
 */
void irdma_port_event(struct irdma_device *iwdev)
{
	struct net_device *netdev = iwdev->netdev;
	bool active = netif_running(netdev) && netif_carrier_ok(netdev);
	struct ib_event event = {
		.device = &iwdev->ibdev,
		.element.port_num = 1,
	};

	if (active == iwdev->port_active)
		return;
	iwdev->port_active = active;
	event.event = active ? IB_EVENT_PORT_ACTIVE : IB_EVENT_PORT_ERR;
	ib_dispatch_event(&event);
}

/**
 * irdma_ib_register_device() - create and register the ib_device
 * @rf: RDMA function, with its control path up
 *
 * Context: process context, may sleep.
 * Return: 0 or a negative errno.
 */
int irdma_ib_register_device(struct irdma_pci_f *rf)
{
	struct irdma_device *iwdev;
	struct ib_device *ibdev;
	int ret;

	iwdev = ib_alloc_device(irdma_device, ibdev);
	if (!iwdev)
		return -ENOMEM;
	ibdev = &iwdev->ibdev;
	iwdev->rf = rf;
	iwdev->netdev = rf->netdev;
	iwdev->port_active = netif_running(rf->netdev) &&
			     netif_carrier_ok(rf->netdev);

	ibdev->node_type = RDMA_NODE_RNIC;
	ibdev->phys_port_cnt = 1;
	ibdev->num_comp_vectors = rf->num_ceqs;
	ibdev->dev.parent = rf->parent;
	addrconf_addr_eui48((u8 *)&ibdev->node_guid, rf->netdev->dev_addr);
	strscpy(ibdev->node_desc, "irdma iWARP", sizeof(ibdev->node_desc));
	memcpy(ibdev->iw_ifname, rf->netdev->name, sizeof(ibdev->iw_ifname));
	ib_set_device_ops(ibdev, &irdma_dev_ops);

	ret = ib_device_set_netdev(ibdev, rf->netdev, 1);
	if (ret)
		goto err_dealloc;
	ret = irdma_setup_cm_core(&iwdev->cm_core, &irdma_cm_hw_ops, iwdev);
	if (ret)
		goto err_dealloc;
	iwdev->cm_ready = true;

	/* publish before registering: dealloc_driver may run from here on */
	mutex_lock(&rf->iwdev_lock);
	rf->iwdev = iwdev;
	mutex_unlock(&rf->iwdev_lock);
	ret = ib_register_device(ibdev, rf->ibdev_name, rf->dma_dev);
	if (ret) {
		mutex_lock(&rf->iwdev_lock);
		rf->iwdev = NULL;
		mutex_unlock(&rf->iwdev_lock);
		goto err_dealloc;
	}
	/* keeps the memory for irdma_ib_unregister_device(), whoever wins */
	get_device(&ibdev->dev);
	rf->reg_iwdev = iwdev;
	return 0;

err_dealloc:
	ib_dealloc_device(ibdev);
	return ret;
}

/**
 * irdma_ib_unregister_device() - unregister the ib_device, or wait until a
 * concurrent "rdma link delete" has done so
 * @rf: RDMA function
 *
 * ib_unregister_device() serialises on the device's unregistration lock,
 * under which dealloc_driver (and with it the CM cleanup) runs: when it
 * returns, nothing of the ib_device uses @rf anymore, whichever caller
 * unregistered it.  The reference taken at registration keeps the memory
 * valid for the call.
 *
 * Context: process context, may sleep.
 */
void irdma_ib_unregister_device(struct irdma_pci_f *rf)
{
	struct irdma_device *iwdev = rf->reg_iwdev;

	if (!iwdev)
		return;
	ib_unregister_device(&iwdev->ibdev);
	put_device(&iwdev->ibdev.dev);
	rf->reg_iwdev = NULL;
}
