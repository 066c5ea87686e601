/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * irdma - functions shared between the driver's files.
 */
#ifndef IRDMA_IRDMA_H
#define IRDMA_IRDMA_H

#include <linux/auxiliary_bus.h>
#include <rdma/ib_umem.h>

#include "type.h"

#define DRV_NAME	"irdma"

/* main.c: bindings call these */
int irdma_probe_function(const struct irdma_bus_info *info,
			 struct irdma_pci_f **rfp);
void irdma_remove_function(struct irdma_pci_f *rf);

/* bindings (ice_if.c, i40e_if.c, sim_if.c) */
int irdma_sim_if_register(void);
void irdma_sim_if_unregister(void);
#if IS_ENABLED(CONFIG_IRDMA_ICE)
int irdma_ice_if_register(void);
void irdma_ice_if_unregister(void);
#else
static inline int irdma_ice_if_register(void) { return 0; }
static inline void irdma_ice_if_unregister(void) { }
#endif
#if IS_ENABLED(CONFIG_IRDMA_I40E)
int irdma_i40e_if_register(void);
void irdma_i40e_if_unregister(void);
#else
static inline int irdma_i40e_if_register(void) { return 0; }
static inline void irdma_i40e_if_unregister(void) { }
#endif

/* utils.c */
u32 irdma_rd32(struct irdma_pci_f *rf, enum irdma_reg reg);
void irdma_wr32(struct irdma_pci_f *rf, enum irdma_reg reg, u32 val);
void irdma_wr32_idx(struct irdma_pci_f *rf, enum irdma_reg reg, u32 idx,
		    u32 val);
const u32 *irdma_reg_table(enum irdma_gen gen);
int irdma_dma_alloc(struct irdma_pci_f *rf, struct irdma_dma_mem *mem,
		    size_t size, size_t align);
void irdma_dma_free(struct irdma_pci_f *rf, struct irdma_dma_mem *mem);
void irdma_dma_leak(struct irdma_pci_f *rf, struct irdma_dma_mem *mem, int err);
void irdma_request_reset(struct irdma_pci_f *rf);
const char *irdma_cqp_op_name(u8 opcode);
void irdma_ip_to_words(__le64 *hi_word, __le64 *lo_word, const u32 ip[4],
		       bool ipv4);

/* ctrl.c: control QP engine */
/**
 * struct irdma_cqp_cmd - a control-QP command being built and executed
 * @wqe: the descriptor; the engine sets the valid bit of the header word
 * @prepare: optional hook run with the slot index before the header is
 *	written (for slot-indexed side buffers); may set more words
 * @prepare_arg: argument of @prepare
 * @op_ret: command-specific return value (out; CCQ modes only)
 * @major: major error code (out)
 * @minor: minor error code (out)
 */
struct irdma_cqp_cmd {
	struct irdma_cqp_wqe wqe;
	void (*prepare)(struct irdma_pci_f *rf, struct irdma_cqp_cmd *cmd,
			u32 slot, void *arg);
	void *prepare_arg;
	u32 op_ret;
	u16 major;
	u16 minor;
};

int irdma_cqp_create(struct irdma_pci_f *rf);
void irdma_cqp_destroy(struct irdma_pci_f *rf);
int irdma_cqp_exec(struct irdma_pci_f *rf, struct irdma_cqp_cmd *cmd);
void irdma_ccq_process(struct irdma_pci_f *rf);
void irdma_ccq_arm(struct irdma_pci_f *rf);
void irdma_cqp_use_events(struct irdma_pci_f *rf);
void irdma_cq_ring_arm(struct irdma_pci_f *rf, struct irdma_cq_ring *ring,
		       bool solicited);

/**
 * struct irdma_cq_params - CREATE_CQ / DESTROY_CQ / MODIFY_CQ parameters
 * @id: CQ id
 * @size: CQEs in the ring
 * @ctx: value returned in CEQEs and AEQEs for this CQ
 * @ring_pa: ring DMA address (contiguous rings only)
 * @shadow_pa: shadow area DMA address
 * @ceq_id: CEQ that receives this CQ's events
 * @ceq_valid: @ceq_id is valid
 * @ceqe_mask: only generate CEQEs when armed
 * @check_overflow: report CQ overflow
 * @shadow_read_threshold: shadow area read threshold
 * @first_pble: first PBLE of a virtually mapped ring
 * @pbl_level: 0 contiguous, 1 one-level, 3 two-level PBL
 */
struct irdma_cq_params {
	u32 id;
	u32 size;
	u64 ctx;
	dma_addr_t ring_pa;
	dma_addr_t shadow_pa;
	u32 ceq_id;
	bool ceq_valid;
	bool ceqe_mask;
	bool check_overflow;
	u32 shadow_read_threshold;
	u32 first_pble;
	u8 pbl_level;
};

int irdma_cqp_create_cq(struct irdma_pci_f *rf,
			const struct irdma_cq_params *p);
int irdma_cqp_destroy_cq(struct irdma_pci_f *rf,
			 const struct irdma_cq_params *p);
int irdma_cqp_create_ceq(struct irdma_pci_f *rf, const struct irdma_ceq *ceq);
int irdma_cqp_destroy_ceq(struct irdma_pci_f *rf,
			  const struct irdma_ceq *ceq);
int irdma_cqp_create_aeq(struct irdma_pci_f *rf, const struct irdma_aeq *aeq);
int irdma_cqp_destroy_aeq(struct irdma_pci_f *rf,
			  const struct irdma_aeq *aeq);
int irdma_cqp_query_fpm(struct irdma_pci_f *rf,
			const struct irdma_dma_mem *buf);
int irdma_cqp_commit_fpm(struct irdma_pci_f *rf,
			 const struct irdma_dma_mem *buf);

/**
 * struct irdma_sd_entry - one HMC segment descriptor update
 * @idx: SD index
 * @pa: backing page DMA address (direct 2 MiB page)
 * @valid: program (true) or clear (false)
 */
struct irdma_sd_entry {
	u32 idx;
	dma_addr_t pa;
	bool valid;
};

int irdma_cqp_update_sds(struct irdma_pci_f *rf,
			 const struct irdma_sd_entry *e, u32 n);
int irdma_cqp_shmc_pages_allocated(struct irdma_pci_f *rf);
int irdma_cqp_query_features(struct irdma_pci_f *rf,
			     const struct irdma_dma_mem *buf);
int irdma_cqp_gather_stats(struct irdma_pci_f *rf,
			   const struct irdma_dma_mem *buf);
int irdma_cqp_manage_apbvt(struct irdma_pci_f *rf, u16 port, bool add);
int irdma_cqp_manage_arp(struct irdma_pci_f *rf, u32 idx, const u8 *mac,
			 bool add);

/**
 * struct irdma_qhash_params - MANAGE_QHASH parameters
 * @type: entry type
 * @add: add (true) or delete (false)
 * @ipv4: addresses are IPv4 (in word 3)
 * @mac: local MAC
 * @loc_addr: local IP, host-order words, [0] most significant
 * @rem_addr: remote IP (ESTABLISHED entries)
 * @loc_port: local TCP port
 * @rem_port: remote TCP port (ESTABLISHED entries)
 * @vlan_id: VLAN id, or a value >= VLAN_N_VID for none
 * @qs_handle: queue-set handle of the user priority
 * @qpn: QP that receives the matching frames (the ILQ)
 */
struct irdma_qhash_params {
	enum irdma_qhash_type type;
	bool add;
	bool ipv4;
	u8 mac[ETH_ALEN];
	u32 loc_addr[4];
	u32 rem_addr[4];
	u16 loc_port;
	u16 rem_port;
	u16 vlan_id;
	u16 qs_handle;
	u32 qpn;
};

int irdma_cqp_manage_qhash(struct irdma_pci_f *rf,
			   const struct irdma_qhash_params *p);

/**
 * struct irdma_ws_params - WORK_SCHED_NODE parameters
 * @id: node id
 * @parent: parent node id (the root names itself)
 * @op: 0 add, 1 modify, 2 delete
 * @tc: traffic class (leaves)
 * @prio_type: 1 weighted round robin, 2 strict, 3 weighted strict
 * @leaf: the node is a leaf (a queue set)
 * @enable: the node is enabled
 * @weight: relative bandwidth, at least 1
 * @vsi: VSI index
 */
struct irdma_ws_params {
	u16 id;
	u16 parent;
	u8 op;
	u8 tc;
	u8 prio_type;
	bool leaf;
	bool enable;
	u8 weight;
	u16 vsi;
};

#define IRDMA_WS_NODE_ADD	0
#define IRDMA_WS_NODE_MODIFY	1
#define IRDMA_WS_NODE_DELETE	2
#define IRDMA_WS_PRIO_WRR	1

int irdma_cqp_ws_node(struct irdma_pci_f *rf, const struct irdma_ws_params *p,
		      u16 *qs_handle);

/**
 * struct irdma_qp_cmd_params - CREATE_QP / MODIFY_QP / DESTROY_QP parameters
 * @qp_id: QP id
 * @qp_type: enum irdma_qp_type_hw
 * @ctx_pa: QP host context DMA address
 * @shadow_pa: QP doorbell shadow area DMA address
 * @next_state: enum irdma_qp_state_hw (create/modify)
 * @ord_valid: the context's ORD is valid
 * @tcp_ctx_valid: the context's TCP part is valid
 * @virtual_map: SQ/RQ addresses are PBLE indices
 * @cq_num_valid: the context's CQ numbers are valid
 * @mac_valid: the context's MAC is valid
 * @arp_valid: the context's ARP index is valid
 * @remove_hash: remove the QP's quad-hash entry
 * @term_act: TERMINATE/FIN actions (modify to TERMINATE)
 * @term_len: length of the TERMINATE message in Q2
 * @reset_con: reset the TCP connection (send RST)
 */
struct irdma_qp_cmd_params {
	u32 qp_id;
	u8 qp_type;
	dma_addr_t ctx_pa;
	dma_addr_t shadow_pa;
	u8 next_state;
	bool ord_valid;
	bool tcp_ctx_valid;
	bool virtual_map;
	bool cq_num_valid;
	bool mac_valid;
	bool arp_valid;
	bool remove_hash;
	u8 term_act;
	u8 term_len;
	bool reset_con;
};

int irdma_cqp_qp_cmd(struct irdma_pci_f *rf, enum irdma_cqp_op op,
		     const struct irdma_qp_cmd_params *p);

/**
 * struct irdma_ah_params - CREATE_ADDR_HANDLE / DESTROY_ADDR_HANDLE
 * @ah_id: AH index
 * @ipv4: IPv4 (addresses in word 3)
 * @dest_ip: destination IP, host-order words, [0] most significant
 * @src_ip: source IP
 * @mac: destination (next-hop) MAC
 * @vlan_tci: VLAN tag with priority
 * @insert_vlan: insert @vlan_tci
 * @tc: TOS / traffic class
 * @hop_limit: TTL / hop limit
 * @flow_label: IPv6 flow label
 * @pd_id: PD
 * @arp_idx: ARP-cache index of the next hop
 * @loopback: the destination is local
 */
struct irdma_ah_params {
	u32 ah_id;
	bool ipv4;
	u32 dest_ip[4];
	u32 src_ip[4];
	u8 mac[ETH_ALEN];
	u16 vlan_tci;
	bool insert_vlan;
	u8 tc;
	u8 hop_limit;
	u32 flow_label;
	u32 pd_id;
	u32 arp_idx;
	bool loopback;
};

int irdma_cqp_ah(struct irdma_pci_f *rf, const struct irdma_ah_params *p,
		 bool create);

/**
 * struct irdma_mr_params - REG_MR parameters
 * @stag: STag (index << 8 | key)
 * @pd_id: PD
 * @va: tagged offset of the first byte (VA-based)
 * @len: length in bytes
 * @pbl: where the pages are
 * @hw_page_size: IRDMA_PAGE_SIZE_4K, _2M or _1G
 * @access: IRDMA_ACCESS_* rights
 */
struct irdma_mr_params {
	u32 stag;
	u32 pd_id;
	u64 va;
	u64 len;
	const struct irdma_pbl *pbl;
	u8 hw_page_size;
	u8 access;
};

int irdma_cqp_reg_mr(struct irdma_pci_f *rf, const struct irdma_mr_params *p);
int irdma_cqp_dealloc_stag(struct irdma_pci_f *rf, u32 stag, u32 pd_id,
			   bool mr);
int irdma_cqp_flush_wqes(struct irdma_pci_f *rf, u32 qp_id, bool sq, bool rq,
			 u16 minor);

/* hw.c: bring-up, interrupts, event queues */
int irdma_hw_set_bus(struct irdma_pci_f *rf, const struct irdma_bus_info *info);
int irdma_cq_ring_alloc(struct irdma_pci_f *rf, struct irdma_cq_ring *ring,
			u32 id, u32 size);
int irdma_ctrl_init_hw(struct irdma_pci_f *rf);
int irdma_rt_init_hw(struct irdma_pci_f *rf);
void irdma_rt_deinit_hw(struct irdma_pci_f *rf);
void irdma_ctrl_deinit_hw(struct irdma_pci_f *rf);

/* ilq.c */
int irdma_ilq_create(struct irdma_pci_f *rf);
void irdma_ilq_destroy(struct irdma_pci_f *rf);
int irdma_ilq_send(struct irdma_pci_f *rf, u32 ah_id, const void *seg,
		   u32 len, u32 tcp_hdr_len);
void irdma_ilq_process(struct irdma_pci_f *rf);

/* cm_hw.c: the hardware layer the connection manager calls */
extern const struct irdma_cm_hw_ops irdma_cm_hw_ops;
void irdma_hw_tables_init(struct irdma_pci_f *rf);
int irdma_hw_tables_alloc(struct irdma_pci_f *rf);
void irdma_hw_tables_free(struct irdma_pci_f *rf);

/* mr.c */
int irdma_pble_init(struct irdma_pci_f *rf);
void irdma_pble_fini(struct irdma_pci_f *rf);
int irdma_pbl_from_umem(struct irdma_pci_f *rf, struct ib_umem *umem,
			unsigned long pg_size, u32 skip, u32 npages,
			bool force_pbl, struct irdma_pbl *pbl);
void irdma_pbl_free(struct irdma_pci_f *rf, struct irdma_pbl *pbl);
int irdma_reg_phys_mr(struct irdma_pci_f *rf, u32 pd_id,
		      const struct irdma_dma_mem *mem, u32 *stag);
int irdma_dereg_phys_mr(struct irdma_pci_f *rf, u32 pd_id, u32 stag);
struct irdma_ubuf *irdma_ubuf_take(struct irdma_ucontext *ucontext, u64 va,
				   u16 type);
void irdma_ubuf_put(struct irdma_ucontext *ucontext, struct irdma_ubuf *ubuf);
struct ib_mr *irdma_reg_user_mr(struct ib_pd *ibpd, u64 start, u64 len,
				u64 virt, int acc, struct ib_udata *udata);
int irdma_dereg_mr(struct ib_mr *ibmr, struct ib_udata *udata);
struct ib_mr *irdma_get_dma_mr(struct ib_pd *ibpd, int acc);
struct ib_mr *irdma_alloc_mr(struct ib_pd *ibpd, enum ib_mr_type type,
			     u32 max_num_sg);
int irdma_map_mr_sg(struct ib_mr *ibmr, struct scatterlist *sg, int sg_nents,
		    unsigned int *sg_offset);
void irdma_frwqe_fill(struct irdma_qp *iwqp, const struct ib_reg_wr *wr,
		      struct irdma_wqe *wqe, u64 *hdr);
void irdma_cqp_alloc_stag_cmd(struct irdma_pci_f *rf, struct irdma_cqp_cmd *cmd,
			      const struct irdma_mr *mr, u32 pd_id);

/* counters.c: "rdma statistic" */
int irdma_hw_stats_init(struct irdma_pci_f *rf);
void irdma_hw_stats_fini(struct irdma_pci_f *rf);
void irdma_hw_stats_ae(struct irdma_pci_f *rf, u32 ae);
struct rdma_hw_stats *irdma_alloc_hw_port_stats(struct ib_device *ibdev,
						u32 port_num);
int irdma_get_hw_stats(struct ib_device *ibdev, struct rdma_hw_stats *stats,
		       u32 port_num, int index);

/* restrack.c: "rdma resource show -dd" */
int irdma_fill_res_qp_entry(struct sk_buff *msg, struct ib_qp *ibqp);
int irdma_fill_res_cq_entry(struct sk_buff *msg, struct ib_cq *ibcq);
int irdma_fill_res_mr_entry(struct sk_buff *msg, struct ib_mr *ibmr);

/* post.c: the kernel data path */
int irdma_post_send(struct ib_qp *ibqp, const struct ib_send_wr *wr,
		    const struct ib_send_wr **bad_wr);
int irdma_post_recv(struct ib_qp *ibqp, const struct ib_recv_wr *wr,
		    const struct ib_recv_wr **bad_wr);
void irdma_cq_scrub(struct irdma_cq *cq, u32 qpn);
void irdma_kqp_flushed(struct irdma_qp *iwqp);
void irdma_kqp_flush_work(struct work_struct *work);
void irdma_kqp_forget(struct irdma_qp *iwqp);

/* cq.c */
dma_addr_t irdma_umem_page_dma(struct ib_umem *umem, u32 idx);
u32 irdma_cq_max_cqe(void);
int irdma_create_cq(struct ib_cq *ibcq, const struct ib_cq_init_attr *attr,
		    struct ib_udata *udata);
int irdma_destroy_cq(struct ib_cq *ibcq, struct ib_udata *udata);
void irdma_cq_event(struct irdma_pci_f *rf, u32 cq_id);
void irdma_cq_async_event(struct irdma_pci_f *rf, u32 cq_id);
int irdma_poll_cq(struct ib_cq *ibcq, int num_entries, struct ib_wc *wc);
int irdma_req_notify_cq(struct ib_cq *ibcq, enum ib_cq_notify_flags flags);

/* qp.c */
int irdma_create_qp(struct ib_qp *ibqp, struct ib_qp_init_attr *attr,
		    struct ib_udata *udata);
int irdma_modify_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr, int mask,
		    struct ib_udata *udata);
int irdma_query_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr, int mask,
		   struct ib_qp_init_attr *init_attr);
int irdma_destroy_qp(struct ib_qp *ibqp, struct ib_udata *udata);
struct irdma_qp *irdma_qp_get(struct irdma_pci_f *rf, u32 qpn);
void irdma_qp_ref(struct irdma_qp *iwqp);
void irdma_qp_put(struct irdma_qp *iwqp);
int irdma_qp_offload(struct irdma_qp *iwqp,
		     const struct irdma_cm_offload_info *info);
int irdma_qp_close(struct irdma_qp *iwqp);
int irdma_qp_reset(struct irdma_qp *iwqp);
void irdma_qp_flush(struct irdma_qp *iwqp);
void irdma_qp_async_event(struct irdma_qp *iwqp, enum ib_event_type type);

/* verbs.c */
int irdma_ib_register_device(struct irdma_pci_f *rf);
void irdma_ib_unregister_device(struct irdma_pci_f *rf);
void irdma_port_event(struct irdma_device *iwdev);

#endif /* IRDMA_IRDMA_H */
