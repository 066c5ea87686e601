/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * irdma - the control QP's command interface (ctrl.c): one function per
 * command the driver issues, each building the descriptor and waiting for
 * its completion, and the engine that runs them.
 */
#ifndef IRDMA_CTRL_H
#define IRDMA_CTRL_H

#include "type.h"

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
void irdma_ccq_event(struct irdma_pci_f *rf);
void irdma_ccq_irq(struct irdma_pci_f *rf);
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
int irdma_cqp_resize_cq(struct irdma_pci_f *rf,
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

/**
 * struct irdma_qpc_params - what a QP's host context says before any
 * connection (both QP types)
 * @sq_pa: SQ ring DMA address, or its first PBLE index when it has a PBL
 * @rq_pa: the RQ ring's, the same way
 * @sq_quanta: SQ size in 32-byte quanta, a power of two
 * @rq_quanta: RQ size in quanta
 * @rq_shift: RQ WQE size as a shift of quanta (iWARP)
 * @pd_id: protection domain (iWARP)
 * @send_cq: CQ of the SQ's completions
 * @recv_cq: CQ of the RQ's
 * @q2_pa: the QP's Q2 area, where the adapter puts TERMINATE frames (iWARP)
 * @mac: the local MAC (iWARP)
 * @compl_ctx: completion context, returned in CQEs and AEQEs
 * @mss: the largest frame sent (UDA; an iWARP QP's comes with its
 *	connection)
 * @wr_en: remote writes allowed (iWARP)
 * @rd_en: remote reads allowed (iWARP)
 * @priv: a kernel QP: STag 0 reaches DMA memory; iWARP: fast register
 */
struct irdma_qpc_params {
	u64 sq_pa;
	u64 rq_pa;
	u32 sq_quanta;
	u32 rq_quanta;
	u8 rq_shift;
	u32 pd_id;
	u32 send_cq;
	u32 recv_cq;
	dma_addr_t q2_pa;
	const u8 *mac;
	u64 compl_ctx;
	u16 mss;
	bool wr_en;
	bool rd_en;
	bool priv;
};

void irdma_qpc_iwarp(struct irdma_pci_f *rf, struct irdma_qp_ctx *ctx,
		     const struct irdma_qpc_params *p);
void irdma_qpc_uda(struct irdma_pci_f *rf, struct irdma_qp_ctx *ctx,
		   const struct irdma_qpc_params *p);
void irdma_qpc_conn(struct irdma_qp_ctx *ctx,
		    const struct irdma_cm_offload_info *info, bool wr_en,
		    bool rd_en);
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
void irdma_cqp_alloc_stag_cmd(struct irdma_pci_f *rf, struct irdma_cqp_cmd *cmd,
			      const struct irdma_mr *mr, u32 pd_id);

#endif /* IRDMA_CTRL_H */
