/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * irdma - the driver-wide declarations: the functions each file offers
 * the others, by file.  The control QP's command API is in ctrl.h.
 */
#ifndef IRDMA_IRDMA_H
#define IRDMA_IRDMA_H

#include <linux/auxiliary_bus.h>
#include <rdma/ib_umem.h>

#include "type.h"

#define DRV_NAME	"irdma"

/* main.c: the bindings and module.c call these */
int irdma_probe_function(const struct irdma_bus_info *info,
			 struct irdma_pci_f **rfp);
void irdma_remove_function(struct irdma_pci_f *rf);
int irdma_events_register(void);
void irdma_events_unregister(void);

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
int irdma_cq_ring_alloc(struct irdma_pci_f *rf, struct irdma_cq_ring *ring,
			u32 id, u32 size);
const char *irdma_cqp_op_name(u8 opcode);
void irdma_ip_to_words(__le64 *hi_word, __le64 *lo_word, const u32 ip[4],
		       bool ipv4);

/* hw.c: bring-up and teardown */
int irdma_hw_set_bus(struct irdma_pci_f *rf, const struct irdma_bus_info *info);
int irdma_ctrl_init_hw(struct irdma_pci_f *rf);
int irdma_rt_init_hw(struct irdma_pci_f *rf);
void irdma_rt_deinit_hw(struct irdma_pci_f *rf);
void irdma_ctrl_deinit_hw(struct irdma_pci_f *rf);

/* eventq.c: interrupt vectors, CEQs, the AEQ and event dispatch */
int irdma_setup_vectors(struct irdma_pci_f *rf,
			const struct irdma_bus_info *info);
void irdma_free_vector(struct irdma_pci_f *rf, struct irdma_msix_vector *vec);
int irdma_ceq_create(struct irdma_pci_f *rf, u32 id);
void irdma_ceq_destroy(struct irdma_pci_f *rf, struct irdma_ceq *ceq);
void irdma_ceqs_destroy_extra(struct irdma_pci_f *rf);
int irdma_aeq_create(struct irdma_pci_f *rf);
void irdma_aeq_destroy(struct irdma_pci_f *rf);
void irdma_crit_err(struct irdma_pci_f *rf, u32 oicr);

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
dma_addr_t irdma_umem_page_dma(struct ib_umem *umem, u32 idx);
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
void irdma_ubuf_leak(struct irdma_ucontext *ucontext, struct irdma_ubuf *ubuf);
struct ib_mr *irdma_reg_user_mr(struct ib_pd *ibpd, u64 start, u64 len,
				u64 virt, int acc, struct ib_udata *udata);
int irdma_dereg_mr(struct ib_mr *ibmr, struct ib_udata *udata);
struct ib_mr *irdma_get_dma_mr(struct ib_pd *ibpd, int acc);
struct ib_mr *irdma_alloc_mr(struct ib_pd *ibpd, enum ib_mr_type type,
			     u32 max_num_sg);
int irdma_map_mr_sg(struct ib_mr *ibmr, struct scatterlist *sg, int sg_nents,
		    unsigned int *sg_offset);
u64 irdma_frwqe_fill(struct irdma_qp *iwqp, const struct ib_reg_wr *wr,
		     struct irdma_wqe *wqe);

/* counters.c: "rdma statistic" */
int irdma_hw_stats_init(struct irdma_pci_f *rf);
void irdma_hw_stats_fini(struct irdma_pci_f *rf);
void irdma_hw_stats_ae(struct irdma_pci_f *rf, u32 ae);
void irdma_hw_stats_crit(struct irdma_pci_f *rf, bool benign);
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
void irdma_kcq_notify_work(struct work_struct *work);
void irdma_kqp_forget(struct irdma_qp *iwqp);

/* cq.c */
u32 irdma_cq_max_cqe(void);
int irdma_create_cq(struct ib_cq *ibcq, const struct ib_cq_init_attr *attr,
		    struct ib_udata *udata);
int irdma_destroy_cq(struct ib_cq *ibcq, struct ib_udata *udata);
int irdma_resize_cq(struct ib_cq *ibcq, int entries, struct ib_udata *udata);
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
int irdma_qp_terminate(struct irdma_qp *iwqp);
void irdma_qp_flush(struct irdma_qp *iwqp);
void irdma_qp_async_event(struct irdma_qp *iwqp, enum ib_event_type type);
void irdma_qp_term_received(struct irdma_qp *iwqp);
void irdma_qp_term_build(struct irdma_qp *iwqp, u16 ae, u32 src, bool q2_data);

/* verbs.c */
int irdma_ib_register_device(struct irdma_pci_f *rf);
void irdma_ib_unregister_device(struct irdma_pci_f *rf);
void irdma_port_event(struct irdma_device *iwdev);

#endif /* IRDMA_IRDMA_H */
