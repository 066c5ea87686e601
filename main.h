/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * irdma - functions shared between the driver's files.
 */
#ifndef IRDMA_MAIN_H
#define IRDMA_MAIN_H

#include <linux/auxiliary_bus.h>

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

/* hw.c: bring-up, interrupts, event queues */
int irdma_hw_set_bus(struct irdma_pci_f *rf, const struct irdma_bus_info *info);
int irdma_ctrl_init_hw(struct irdma_pci_f *rf);
int irdma_rt_init_hw(struct irdma_pci_f *rf);
void irdma_rt_deinit_hw(struct irdma_pci_f *rf);
void irdma_ctrl_deinit_hw(struct irdma_pci_f *rf);

/* verbs.c */
int irdma_ib_register_device(struct irdma_pci_f *rf);
void irdma_ib_unregister_device(struct irdma_pci_f *rf);
void irdma_port_event(struct irdma_device *iwdev);

#endif /* IRDMA_MAIN_H */
