/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * irdma_sim - internal definitions of the software model of the E810 RDMA
 * function.
 *
 * One struct irdma_sim models one PCI function.  Its state is split by
 * responsibility:
 *   main.c    instances, rdma link add/delete, auxiliary device, removal
 *   regs.c    the register window (irdma_sim.h rd32/wr32)
 *   udb.c     the user doorbell page: its mapping, each store decoded and
 *             taken as a doorbell
 *   irq.c     MSI-X vectors as real Linux IRQs, cause routing, re-arm
 *   mem.c     DMA address checking, queue memory, HMC SD/PBLE lookups
 *   cqp.c     the control QP engine: fetch, dispatch, complete
 *   hmc.c     FPM query/commit, segment descriptors
 *   eq.c      CQs, CEQs, the AEQ: create/destroy, CQE/CEQE/AEQE writers
 *   res.c     QPs, STags, AHs, ARP, APBVT, qhash, work scheduler, stats
 *   uda.c     the data path of UDA QPs (the ILQ): RQ fill, SQ transmit
 *   net.c     the netdev: rx_handler and qhash steering, frames built and
 *             sent for UDA send WQEs
 *   qp.c      the iWARP QP engine: life cycle, SQ walk, CQEs, AEs, flush,
 *             doorbells (iw.h: threading and locking)
 *   ddp.c     MPA/DDP/RDMAP framing, receive parsing, memory placement
 *   tcp.c     the TCP offload: a kernel socket restored with TCP_REPAIR
 *   debugfs.c fault injection knobs and read-only state
 *
 * Locking.  sim->lock (a spinlock taken with interrupts disabled, because
 * the driver may touch registers from hard IRQ context) protects the
 * register file, the interrupt state, the CQP ring state and every field
 * that the register window or an interrupt path reads: queue producer
 * indices, arm state, object liveness.  Object tables (xarrays) are only
 * changed by the CQP worker, outside sim->lock; other contexts look objects
 * up under sim->lock and use them only while they hold it.  Freed objects
 * go through kfree_rcu(), because a lookup may race with xa_erase().
 *
 * The data path (uda.c, net.c) follows the same rule: the rx_handler
 * (softirq) and the transmit work look up the QP, CQ, AH and ARP entry and
 * touch the driver's rings and buffers only with sim->lock held, and never
 * hold it across dev_queue_xmit() or netif_rx(): a frame the peer sends in
 * reply can come back through the rx_handler inside either call.
 *
 * Generations.  Every object records the CQP generation it was created
 * in.  Destroying the CQP (driver teardown or reset) bumps the generation,
 * which makes every older object invisible at once: the model never
 * touches their memory again.  The worker frees them later.
 */
#ifndef IRDMA_SIM_H
#define IRDMA_SIM_H

#include <linux/bitmap.h>
#include <linux/device.h>
#include <linux/hashtable.h>
#include <linux/if_ether.h>
#include <linux/irq_work.h>
#include <linux/list.h>
#include <linux/rcupdate.h>
#include <linux/smp.h>
#include <linux/spinlock.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>
#include <rdma/ib_verbs.h>

#include "irdma_sim.h"

/* ------------------------------------------------------------------------ */
/* What the model advertises                                                */
/* ------------------------------------------------------------------------ */

/* CEQs the model implements (FPM query misc word, CEQCTL registers) */
#define IRDMA_SIM_MAX_CEQS		256
/* interrupt causes: one per CEQ, then the AEQ */
#define IRDMA_SIM_AEQ_CAUSE		IRDMA_SIM_MAX_CEQS
#define IRDMA_SIM_NUM_CAUSES		(IRDMA_SIM_MAX_CEQS + 1)
/* HMC segment descriptors the model accepts (2 MiB each) */
#define IRDMA_SIM_MAX_SDS		64
/* work-scheduler node ids (10 bits) and queue-set handles */
#define IRDMA_SIM_WS_NODES		1024
#define IRDMA_SIM_MAX_QSETS		256
/* statistics instances (7-bit index) */
#define IRDMA_SIM_STATS_INSTS		128
/* MANAGE_PUSH_PAGES op return value: no push page available */
#define IRDMA_SIM_NO_PUSH_PAGE		U32_MAX
/* firmware version reported by QUERY_RDMA_FEATURES */
#define IRDMA_SIM_FW_MAJOR		1
#define IRDMA_SIM_FW_MINOR		0
/* opcodes a 6-bit WQE opcode field can name (statistics) */
#define IRDMA_SIM_NUM_OPS		64
/* debugfs fail_opcode value meaning "no injection" */
#define IRDMA_SIM_FAIL_NONE		U32_MAX
/* TCP ports covered by the APBVT */
#define IRDMA_SIM_APBVT_PORTS		65536
/* log2 of the qhash table buckets */
#define IRDMA_SIM_QHASH_BITS		8

/* send WQEs the transmit work takes before it yields the workqueue */
#define IRDMA_SIM_UDA_BUDGET		64
/* send WQEs transmitted before a CQP command executes (doorbell order) */
#define IRDMA_SIM_UDA_CQP_BUDGET	1024
/* L3 area of a GEN_2 UDA receive buffer: IPv4 header at 20, IPv6 at 0 */
#define IRDMA_SIM_UDA_L3_AREA		IRDMA_ILQ_RX_TCP_OFFSET
/*
 * CQE error code of a UDA WQE the model cannot execute: no UDA codes are
 * known, so the model uses its CQP codes (major
 * IRDMA_SIM_CQP_MAJOR_BAD_WQE, minor IRDMA_CQP_MINOR_* naming the reason)
 */
#define IRDMA_SIM_UDA_ERR_MAJOR		IRDMA_SIM_CQP_MAJOR_BAD_WQE

/* ------------------------------------------------------------------------ */
/* Queue memory                                                             */
/* ------------------------------------------------------------------------ */

/**
 * struct irdma_sim_qmem - driver memory holding a ring, as the model sees it
 * @va: kernel address of the whole ring when it is physically contiguous
 * @pages: kernel address of each 4 KiB page when it is mapped through PBLEs
 * @npages: entries in @pages
 * @len: ring length in bytes
 *
 * Every page was checked when the ring was set up; entries never straddle
 * a 4 KiB page because ring elements are 8 to 64 bytes.
 */
struct irdma_sim_qmem {
	void *va;
	void **pages;
	u32 npages;
	size_t len;
};

/* ------------------------------------------------------------------------ */
/* Objects                                                                  */
/* ------------------------------------------------------------------------ */

/**
 * enum irdma_sim_arm - CQ notification request latched by CQARM
 * @IRDMA_SIM_ARM_NONE: no CEQE wanted
 * @IRDMA_SIM_ARM_SOLICITED: CEQE for the next solicited or error CQE
 * @IRDMA_SIM_ARM_ANY: CEQE for the next CQE
 */
enum irdma_sim_arm {
	IRDMA_SIM_ARM_NONE,
	IRDMA_SIM_ARM_SOLICITED,
	IRDMA_SIM_ARM_ANY,
};

/**
 * struct irdma_sim_cq - a completion queue
 * @id: CQ id
 * @gen: CQP generation the CQ was created in
 * @live: visible to lookups (sim->lock)
 * @size: number of CQEs
 * @cqe_size: bytes per CQE (32, or 64 with avoid-memory-conflict)
 * @ctx: CQ context from CREATE_CQ QW1, returned in CEQEs and AEQEs
 * @ceq_id: CEQ the CQ reports to
 * @ceq_valid: @ceq_id is meaningful
 * @ceqe_mask: CEQE-mask enable bit as given (recorded, see eq.c)
 * @chk_overflow: drop CQEs and raise an AE instead of overwriting
 * @overflowed: a CQE was dropped: the CQ is in error, takes no more CQEs
 *	and raises no more AEs (sim->lock)
 * @mem: the CQE ring
 * @shadow: the 64-byte shadow area (driver head index, arm word)
 * @shadow_pa: bus address of @shadow, as given
 * @tail: next CQE slot the model writes (sim->lock)
 * @polarity: valid-bit value of the current lap (sim->lock)
 * @armed: latched arm request (sim->lock)
 * @arm_seq: arm sequence number of the last request (sim->lock)
 * @select: resizes so far, modulo 2^14: the consumer's SW_CQ_SELECT (arm
 *	word) equals it once the consumer polls this ring, whose head it
 *	then writes to shadow QW0 (sim->lock)
 * @ceqe_pending: CEQEs posted for this CQ and not yet acknowledged
 * @cqes: CQEs written
 * @overflows: CQEs dropped because the ring was full
 * @ceqes: CEQEs posted for this CQ
 * @rcu: deferred free
 */
struct irdma_sim_cq {
	u32 id;
	u32 gen;
	bool live;
	u32 size;
	u32 cqe_size;
	u64 ctx;
	u16 ceq_id;
	bool ceq_valid;
	bool ceqe_mask;
	bool chk_overflow;
	bool overflowed;
	struct irdma_sim_qmem mem;
	__le64 *shadow;
	u64 shadow_pa;
	u32 tail;
	u8 polarity;
	enum irdma_sim_arm armed;
	u8 arm_seq;
	u16 select;
	u32 ceqe_pending;
	u64 cqes;
	u64 overflows;
	u64 ceqes;
	struct rcu_head rcu;
};

/**
 * struct irdma_sim_eq - a CEQ or the AEQ (event queues written by the model)
 * @id: CEQ id (0 for the AEQ)
 * @gen: CQP generation the queue was created in
 * @size: number of elements
 * @elem_size: bytes per element (8 for CEQEs, 16 for AEQEs)
 * @mem: the ring
 * @tail: next slot the model writes (sim->lock)
 * @polarity: valid-bit value of the current lap (sim->lock)
 * @used: elements written and not yet given back (sim->lock)
 * @posted: elements written
 * @overflows: events dropped (or flagged) because the queue was full
 * @owner: the AEQ: whose AE each slot holds, for the QPs' bound
 */
struct irdma_sim_eq {
	u32 id;
	u32 gen;
	u32 size;
	u32 elem_size;
	struct irdma_sim_qmem mem;
	u32 tail;
	u8 polarity;
	u32 used;
	u64 posted;
	u64 overflows;
	struct irdma_sim_ae_owner *owner;
};

/**
 * struct irdma_sim_wq - an SQ or RQ the model walks (UDA QPs)
 * @ring: the WQEs, one 32-byte quantum each (driver memory, checked when
 *	the QP was created)
 * @size: WQEs in the ring, a power of two
 * @tail: next WQE the model consumes (sim->lock)
 * @polarity: valid-bit value of the current lap: 1 first, flipped at each
 *	wrap (sim->lock)
 */
struct irdma_sim_wq {
	struct irdma_wqe *ring;
	u32 size;
	u32 tail;
	u8 polarity;
};

/*
 * AEs of one QP in the AEQ at a time: the driver sizes its AEQ for two per
 * QP and one per CQ, so no QP can fill it for the others.  Later AEs of
 * the QP wait, up to IRDMA_SIM_QP_AE_HELD of them, until the driver
 * consumed its earlier ones; beyond that they are dropped and counted.
 */
#define IRDMA_SIM_QP_AE_INFLIGHT	2
#define IRDMA_SIM_QP_AE_HELD		8

/**
 * struct irdma_sim_aeqe - an AEQE waiting for room (struct irdma_sim_qp)
 * @ctx: QW0
 * @qw1: QW1 without the valid bit
 */
struct irdma_sim_aeqe {
	u64 ctx;
	u64 qw1;
};

/**
 * struct irdma_sim_ae_owner - whose AE an AEQ slot holds
 * @qpn: QP id
 * @serial: the QP's serial number, 0 for an AE of no QP
 */
struct irdma_sim_ae_owner {
	u32 qpn;
	u32 serial;
};

/**
 * struct irdma_sim_qp - a QP as recorded from CREATE_QP/MODIFY_QP
 * @id: QP id
 * @gen: CQP generation the QP was created in
 * @live: visible to lookups (sim->lock)
 * @type: enum irdma_qp_type_hw
 * @state: current iWARP state, enum irdma_qp_state_hw
 * @tcp_state: TCP state from the context, enum irdma_tcp_state_hw
 * @ctx_pa: bus address of the host context
 * @shadow_pa: bus address of the doorbell shadow area
 * @ctx: copy of the host context taken at the last CREATE/MODIFY
 * @comp_ctx: completion context (context QW21) for CQEs and AEQEs
 * @txcq: send CQ id
 * @rxcq: receive CQ id
 * @sq_doorbells: WQEALLOC writes naming this QP (sim->lock)
 * @flush_sq: FLUSH_WQES asked to flush the SQ
 * @flush_rq: FLUSH_WQES asked to flush the RQ
 * @suspended: SUSPEND_QP seen, RESUME_QP not yet
 * @sq: send queue of a UDA QP (@sq.ring is NULL for other types)
 * @rq: receive queue of a UDA QP
 * @shadow: doorbell shadow area of a UDA QP: the model writes its SQ tail
 *	there
 * @tx_node: link in sim->uda_tx while a doorbell waits to be served
 *	(sim->lock)
 * @iw: the iWARP engine of an iWARP QP (qp.c), NULL for UDA QPs
 * @serial: a number no other QP of the instance had (its AEQ slots name it)
 * @ae_inflight: AEs of this QP in the AEQ, not yet consumed (sim->lock)
 * @ae_nheld: AEs in @ae_held (sim->lock)
 * @ae_held: AEs waiting for @ae_inflight to drop, oldest first
 * @ae_dropped: AEs dropped because @ae_held was full
 * @rcu: deferred free
 */
struct irdma_sim_qp {
	u32 id;
	u32 gen;
	bool live;
	u8 type;
	u8 state;
	u8 tcp_state;
	u64 ctx_pa;
	u64 shadow_pa;
	__le64 ctx[IRDMA_QPC_WORDS];
	u64 comp_ctx;
	u32 txcq;
	u32 rxcq;
	u64 sq_doorbells;
	bool flush_sq;
	bool flush_rq;
	bool suspended;
	struct irdma_sim_wq sq;
	struct irdma_sim_wq rq;
	__le64 *shadow;
	struct list_head tx_node;
	struct irdma_sim_iw *iw;
	u32 serial;
	u8 ae_inflight;
	u8 ae_nheld;
	struct irdma_sim_aeqe ae_held[IRDMA_SIM_QP_AE_HELD];
	u64 ae_dropped;
	struct rcu_head rcu;
};

/**
 * struct irdma_sim_mr - an STag (memory region or window)
 * @idx: STag index
 * @gen: CQP generation
 * @live: visible to lookups (sim->lock)
 * @key: STag key (REG_MR)
 * @is_mr: memory region (else memory window)
 * @registered: REG_MR done (else allocated only, for fast registration)
 * @pd: protection domain id
 * @len: length in bytes
 * @va: virtual address or first-byte offset
 * @pa: physical address when no PBL is used
 * @rights: IRDMA_ACCESS_* bits
 * @pbl_level: LPBLSIZE encoding
 * @first_pble: first PBLE index when a PBL is used
 * @page_size: IRDMA_PAGE_SIZE_* encoding
 * @va_based: VA-based tagged offsets
 * @rcu: deferred free
 */
struct irdma_sim_mr {
	u32 idx;
	u32 gen;
	bool live;
	u8 key;
	bool is_mr;
	bool registered;
	u32 pd;
	u64 len;
	u64 va;
	u64 pa;
	u8 rights;
	u8 pbl_level;
	u32 first_pble;
	u8 page_size;
	bool va_based;
	struct rcu_head rcu;
};

/**
 * struct irdma_sim_ah - an address handle
 * @idx: AH index
 * @gen: CQP generation
 * @live: visible to lookups (sim->lock)
 * @mac: source MAC (the destination's comes from the ARP entry)
 * @vlan: VLAN tag
 * @tc: traffic class / TOS
 * @hop_limit: TTL / hop limit
 * @flow_label: IPv6 flow label
 * @pd: protection domain id
 * @arp_idx: destination ARP cache index
 * @ipv4: IPv4 addresses (only word 3 used)
 * @insert_vlan: insert the VLAN tag
 * @loopback: loopback
 * @dst_ip: destination IP, word 0 most significant
 * @src_ip: source IP, word 0 most significant
 * @rcu: deferred free
 */
struct irdma_sim_ah {
	u32 idx;
	u32 gen;
	bool live;
	u8 mac[ETH_ALEN];
	u16 vlan;
	u8 tc;
	u8 hop_limit;
	u32 flow_label;
	u32 pd;
	u16 arp_idx;
	bool ipv4;
	bool insert_vlan;
	bool loopback;
	u32 dst_ip[4];
	u32 src_ip[4];
	struct rcu_head rcu;
};

/**
 * struct irdma_sim_arp - one ARP cache entry
 * @mac: MAC address
 * @valid: entry in use
 * @permanent: permanent entry
 */
struct irdma_sim_arp {
	u8 mac[ETH_ALEN];
	bool valid;
	bool permanent;
};

/**
 * struct irdma_sim_qhash - one quad-hash steering entry
 * @node: bucket link (hashed by local port)
 * @gen: CQP generation
 * @type: enum irdma_qhash_type
 * @ipv4: IPv4 addresses (only word 3 used)
 * @vlan_valid: @vlan is meaningful
 * @vlan: VLAN id
 * @lport: local TCP port
 * @rport: remote TCP port (ESTABLISHED entries)
 * @lip: local IP, word 0 most significant
 * @rip: remote IP (ESTABLISHED entries)
 * @qpn: QP that receives matching frames (the ILQ)
 * @qs_handle: queue set for replies
 * @mac: local MAC
 * @rcu: deferred free
 */
struct irdma_sim_qhash {
	struct hlist_node node;
	u32 gen;
	u8 type;
	bool ipv4;
	bool vlan_valid;
	u16 vlan;
	u16 lport;
	u16 rport;
	u32 lip[4];
	u32 rip[4];
	u32 qpn;
	u16 qs_handle;
	u8 mac[ETH_ALEN];
	struct rcu_head rcu;
};

/**
 * struct irdma_sim_ws_node - one work-scheduler tree node
 * @used: node exists
 * @leaf: leaf (queue set) node
 * @enabled: enabled
 * @parent: parent node id (own id for the root)
 * @tc: traffic class
 * @prio_type: priority type
 * @weight: relative bandwidth
 * @vsi: VSI index
 * @qs_handle: queue-set handle of a leaf
 */
struct irdma_sim_ws_node {
	bool used;
	bool leaf;
	bool enabled;
	u16 parent;
	u8 tc;
	u8 prio_type;
	u8 weight;
	u16 vsi;
	u16 qs_handle;
};

/* ------------------------------------------------------------------------ */
/* HMC                                                                      */
/* ------------------------------------------------------------------------ */

/**
 * struct irdma_sim_hmc_obj - one HMC object type
 * @max: maximum count advertised by QUERY_FPM_VAL
 * @cnt: committed count
 * @size: object size in bytes
 * @base: base in FPM space, bytes
 */
struct irdma_sim_hmc_obj {
	u32 max;
	u32 cnt;
	u32 size;
	u64 base;
};

/**
 * struct irdma_sim_sd - one HMC segment descriptor
 * @pa: backing page (direct) or PD page (paged) bus address
 * @bp_cnt: backing pages of a paged SD
 * @valid: programmed
 * @direct: a direct 2 MiB page (else a 4 KiB page of PD entries)
 */
struct irdma_sim_sd {
	u64 pa;
	u16 bp_cnt;
	bool valid;
	bool direct;
};

/**
 * struct irdma_sim_hmc - the function's private memory (FPM) layout
 * @obj: object types
 * @sd: segment descriptors
 * @sd_cnt: SDs covering the committed FPM space
 * @committed: COMMIT_FPM_VAL succeeded
 * @pages_allocated: SHMC_PAGES_ALLOCATED seen
 * @sd_updates: SD entries programmed or cleared
 * @pdinv: PDINV register writes
 *
 * Written only by the CQP worker, under sim->lock; the worker reads it
 * without the lock, other contexts under it.
 */
struct irdma_sim_hmc {
	struct irdma_sim_hmc_obj obj[IRDMA_HMC_OBJ_NUM];
	struct irdma_sim_sd sd[IRDMA_SIM_MAX_SDS];
	u32 sd_cnt;
	bool committed;
	bool pages_allocated;
	u64 sd_updates;
	u64 pdinv;
};

/* ------------------------------------------------------------------------ */
/* Control QP                                                               */
/* ------------------------------------------------------------------------ */

/**
 * struct irdma_sim_cqp - control QP state (sim->lock)
 * @created: the create handshake succeeded
 * @destroying: a destroy was requested while a WQE was executing
 * @busy: the worker is executing a WQE outside sim->lock
 * @ctx_pa: bus address of the CQP host context
 * @sq_pa: bus address of the SQ
 * @sq: the SQ (WQE ring)
 * @size: SQ entries
 * @tail: next WQE the model processes
 * @head: last head index written to CQPDB
 * @polarity: valid-bit value of the current lap of the SQ
 * @comp_ctx: completion context (host context QW3) for CCQ CQEs
 * @protocol: protocol used (host context QW0)
 * @hmc_profile: HMC profile (host context QW2)
 * @start_pending: a CQPDB write found the worker idle, at @db_ns
 * @db_ns: when (ktime_get_ns())
 */
struct irdma_sim_cqp {
	bool created;
	bool destroying;
	bool busy;
	u64 ctx_pa;
	u64 sq_pa;
	struct irdma_cqp_wqe *sq;
	u32 size;
	u32 tail;
	u32 head;
	u8 polarity;
	u64 comp_ctx;
	u8 protocol;
	u8 hmc_profile;
	bool start_pending;
	u64 db_ns;
};

/**
 * struct irdma_sim_cmd - one CQP command being executed
 * @wqe: private copy of the WQE (the driver cannot change it under us)
 * @idx: index of the WQE in the SQ
 * @op: opcode
 * @name: the opcode's name, for messages
 * @major: major error code (0 = success)
 * @minor: minor code, returned also on success
 * @op_ret: op return value for CCQ CQE QW2
 */
struct irdma_sim_cmd {
	struct irdma_cqp_wqe wqe;
	u32 idx;
	u8 op;
	const char *name;
	u16 major;
	u16 minor;
	u32 op_ret;
};

/* ------------------------------------------------------------------------ */
/* Registers, interrupts, knobs, statistics                                 */
/* ------------------------------------------------------------------------ */

/**
 * struct irdma_sim_regs - register values (sim->lock)
 * @cqptail: CQPTAIL
 * @cqpdb: CQPDB
 * @ccqpstatus: CCQPSTATUS
 * @ccqphigh: CCQPHIGH
 * @ccqplow: CCQPLOW
 * @cqperrcodes: CQPERRCODES
 * @aeqctl: PFINT_AEQCTL
 * @criterr: GLPE_CRITERR
 * @ceqctl: GLINT_CEQCTL(n)
 * @dyn_ctl: GLINT_DYN_CTL(n) of the vectors the model has
 */
struct irdma_sim_regs {
	u32 cqptail;
	u32 cqpdb;
	u32 ccqpstatus;
	u32 ccqphigh;
	u32 ccqplow;
	u32 cqperrcodes;
	u32 aeqctl;
	u32 criterr;
	u32 ceqctl[IRDMA_SIM_MAX_CEQS];
	u32 dyn_ctl[IRDMA_SIM_MAX_VECTORS];
};

struct irdma_sim;

/**
 * struct irdma_sim_vec - one MSI-X vector
 * @sim: owning instance
 * @idx: vector index (GLINT_DYN_CTL index, MSIX_INDX value)
 * @virq: Linux IRQ number
 * @work: raises @virq in hard IRQ context
 * @csd: IPI that queues @work on @cpu
 * @cpu: CPU @work runs on (the IRQ's effective affinity), or nr_cpu_ids
 * @enabled: INTENA set and not auto-masked by a firing (sim->lock)
 * @fired: interrupts raised
 * @dropped: interrupts discarded by the drop_interrupts knob
 */
struct irdma_sim_vec {
	struct irdma_sim *sim;
	u32 idx;
	unsigned int virq;
	struct irq_work work;
	call_single_data_t csd;
	unsigned int cpu;
	bool enabled;
	u64 fired;
	u64 dropped;
};

/**
 * struct irdma_sim_irq - interrupt controller of an instance
 * @fwnode: name of @domain
 * @domain: one hwirq per vector
 * @vec: the vectors
 * @nvec: number of vectors
 * @pending: causes with an event not yet signalled (sim->lock)
 */
struct irdma_sim_irq {
	struct fwnode_handle *fwnode;
	struct irq_domain *domain;
	struct irdma_sim_vec vec[IRDMA_SIM_MAX_VECTORS];
	u32 nvec;
	DECLARE_BITMAP(pending, IRDMA_SIM_NUM_CAUSES);
};

/**
 * struct irdma_sim_knobs - debugfs fault injection
 * @fw_not_ready: CPUSTATUSn read 0
 * @fail_cqp_create: the CQP create handshake reports ERR
 * @drop_interrupts: discard interrupts instead of raising them
 * @fail_opcode: the next WQE with this opcode fails (IRDMA_SIM_FAIL_NONE: off)
 * @fail_major: major code of the injected failure
 * @fail_minor: minor code of the injected failure
 * @drop_wqealloc: WQEALLOC writes naming an iWARP QP still to discard
 * @drop_user_db: WQEALLOC stores to the user doorbell page still to
 *	discard
 * @fail_iw_bufs: iWARP engine buffer requests still to fail
 * @stall_cqp: the control QP takes no more commands (a hung adapter)
 * @device_id: the PCI device ID the function presents (set in "defaults"
 *	before "rdma link add": E810s come with several)
 * @reset_on_request: the driver's reset requests reset the function, as
 *	ice does (irdma_sim_reset()); off, they are only counted
 */
struct irdma_sim_knobs {
	bool fw_not_ready;
	bool fail_cqp_create;
	bool drop_interrupts;
	u32 drop_wqealloc;
	u32 drop_user_db;
	u32 fail_iw_bufs;
	bool stall_cqp;
	u32 fail_opcode;
	u16 fail_major;
	u16 fail_minor;
	u16 device_id;
	bool reset_on_request;
};

/**
 * struct irdma_sim_stats - counters (updated under sim->lock or by the worker)
 * @wqes: WQEs completed per opcode
 * @errors: WQEs completed with an error per opcode
 * @exec_ns: time spent executing, per opcode (the handler, without the
 *	wait for the worker)
 * @starts: CQPDB writes that found the worker idle
 * @start_ns: their total wait until the worker took the first WQE
 * @wqes_total: WQEs completed
 * @errors_total: WQEs completed with an error
 * @injected: failures injected with fail_opcode
 * @doorbells: CQPDB writes
 * @stalls: doorbells that found no valid WQE at the tail
 * @ccq_cqes: CCQ CQEs written
 * @cq_overflows: CQEs dropped on full CQs
 * @ceqes: CEQEs written
 * @ceqe_drops: CEQEs not written (no CEQ or CEQ full)
 * @aeqes: AEQEs written
 * @aeqe_drops: AEQEs not written (no AEQ or AEQ full)
 * @aeqe_held: AEQEs that waited for their QP's earlier ones to be consumed
 * @aeqe_qp_drops: AEQEs dropped because their QP had too many waiting
 * @cqarm: CQARM writes
 * @cqack: CQACK writes
 * @aeqalloc: AEQALLOC writes
 * @wqealloc: WQEALLOC writes
 * @wqealloc_dropped: of those, discarded by the drop_wqealloc knob
 * @wqealloc_inline: of those, whose engine ran in the writer's context
 * @user_db: WQEALLOC stores to the user doorbell page (udb.c)
 * @user_db_dropped: of those, discarded by the drop_user_db knob
 * @user_db_ignored: of those, naming no live user QP
 * @user_cqarm: CQARM stores to the user doorbell page
 * @user_db_other: stores to the page outside its two doorbells, or to
 *	the page of a deleted instance
 * @user_db_refused: stores the model could not decode (SIGBUS)
 * @reset_requests: function resets the driver asked for
 * @bad_reg: register accesses the model does not implement
 * @qhash_del_miss: qhash deletes that found no entry
 * @apbvt_anomalies: APBVT adds of set ports or deletes of clear ports
 */
struct irdma_sim_stats {
	u64 wqes[IRDMA_SIM_NUM_OPS];
	u64 errors[IRDMA_SIM_NUM_OPS];
	u64 exec_ns[IRDMA_SIM_NUM_OPS];
	u64 starts;
	u64 start_ns;
	u64 wqes_total;
	u64 errors_total;
	u64 injected;
	u64 doorbells;
	u64 stalls;
	u64 ccq_cqes;
	u64 cq_overflows;
	u64 ceqes;
	u64 ceqe_drops;
	u64 aeqes;
	u64 aeqe_drops;
	u64 aeqe_held;
	u64 aeqe_qp_drops;
	u64 cqarm;
	u64 cqack;
	u64 aeqalloc;
	u64 wqealloc;
	u64 wqealloc_dropped;
	u64 wqealloc_inline;
	u64 user_db;
	u64 user_db_dropped;
	u64 user_db_ignored;
	u64 user_cqarm;
	u64 user_db_other;
	u64 user_db_refused;
	u64 reset_requests;
	u64 bad_reg;
	u64 qhash_del_miss;
	u64 apbvt_anomalies;
};

/**
 * struct irdma_sim_net_stats - data path counters (sim->lock)
 * @rx_steered: frames written into a UDA QP's receive queue
 * @rx_syn: of these, frames a TCP_SYN (listener) entry matched
 * @rx_bytes: bytes written into receive buffers (40-byte L3 area included)
 * @rx_no_qp: steered frames dropped: the target is not a live UDA QP in
 *	RTS with a CQ (for instance the ILQ does not exist)
 * @rx_no_wqe: steered frames dropped: no receive WQE posted
 * @rx_too_big: steered frames dropped: larger than the receive buffer
 * @rx_bad_hdr: steered frames dropped: IPv4 options (no room in the GEN_2
 *	layout) or a bad IPv4 header checksum
 * @rx_bad_csum: steered frames dropped: bad TCP checksum
 * @rx_bad_buf: receive WQEs completed in error: buffer not in RAM
 * @rx_cq_full: steered frames dropped: no room for the CQEs
 * @tx_sent: frames handed to the netdev
 * @tx_loopback: frames handed to the netdev's receive path (loopback AH)
 * @tx_bytes: bytes of those frames (Ethernet header included)
 * @tx_bad_op: send WQEs completed in error: not a single-fragment SEND
 * @tx_bad_len: send WQEs completed in error: lengths (L4LEN, TCP data
 *	offset, fragment length, MTU)
 * @tx_bad_buf: send WQEs completed in error: buffer not in RAM
 * @tx_bad_ah: send WQEs completed in error: no such AH, or no valid source
 *	MAC in it
 * @tx_bad_arp: send WQEs completed in error: the AH's ARP entry is not
 *	valid
 * @tx_dropped: frames lost after their WQE completed: no memory, netdev
 *	down, transmit queue full
 * @tx_cq_full: send completions lost: CQ full or gone
 */
struct irdma_sim_net_stats {
	u64 rx_steered;
	u64 rx_syn;
	u64 rx_bytes;
	u64 rx_no_qp;
	u64 rx_no_wqe;
	u64 rx_too_big;
	u64 rx_bad_hdr;
	u64 rx_bad_csum;
	u64 rx_bad_buf;
	u64 rx_cq_full;
	u64 tx_sent;
	u64 tx_loopback;
	u64 tx_bytes;
	u64 tx_bad_op;
	u64 tx_bad_len;
	u64 tx_bad_buf;
	u64 tx_bad_ah;
	u64 tx_bad_arp;
	u64 tx_dropped;
	u64 tx_cq_full;
};

/**
 * struct irdma_sim_frame - a received TCP frame, as steering sees it
 * @ipv4: IPv4 (else IPv6)
 * @vlan_valid: the frame carried an 802.1Q tag
 * @vlan_tci: its TCI
 * @smac: source MAC
 * @lip: destination (local) IP, word 0 most significant, IPv4 in word 3
 *	(the qhash layout)
 * @rip: source (remote) IP, same layout
 * @lport: destination (local) TCP port
 * @rport: source (remote) TCP port
 * @flags: TCP flags byte (TCPHDR_*)
 * @l3_hlen: IP header bytes (IPv4 IHL * 4, or 40)
 * @tcp_len: TCP header and payload bytes, from the IP length field
 * @syn: a TCP_SYN (listener) entry matched, not an ESTABLISHED one
 * @bad_hdr: IPv4 options (the GEN_2 layout has no room for them) or a bad
 *	IPv4 header checksum
 * @bad_csum: the TCP checksum is wrong (checked unless the stack vouches
 *	for it: CHECKSUM_PARTIAL or CHECKSUM_UNNECESSARY)
 */
struct irdma_sim_frame {
	bool ipv4;
	bool vlan_valid;
	u16 vlan_tci;
	u8 smac[ETH_ALEN];
	u32 lip[4];
	u32 rip[4];
	u16 lport;
	u16 rport;
	u8 flags;
	u32 l3_hlen;
	u32 tcp_len;
	bool syn;
	bool bad_hdr;
	bool bad_csum;
};

/**
 * struct irdma_sim_vlan - a VLAN device on the instance's netdev that the
 * rx_handler is registered on too (the stack hands a tagged frame to its
 * VLAN device before rx_handlers run)
 * @node: link in sim->vlans (rtnl)
 * @dev: the VLAN device (a reference is held)
 * @tracker: tracker of that reference
 */
struct irdma_sim_vlan {
	struct list_head node;
	struct net_device *dev;
	netdevice_tracker tracker;
};

/**
 * struct irdma_sim_tx - L2/L3 fields of a frame to send, from an AH
 * @ipv4: IPv4 (else IPv6)
 * @insert_vlan: add an 802.1Q tag with @vlan_tci
 * @loopback: deliver to the netdev's own receive path
 * @vlan_tci: VLAN TCI
 * @tc: IPv4 TOS or IPv6 traffic class
 * @hop_limit: TTL or hop limit
 * @flow_label: IPv6 flow label
 * @ip_id: IPv4 identification
 * @smac: source MAC
 * @dmac: destination MAC
 * @src_ip: source IP, word 0 most significant, IPv4 in word 3
 * @dst_ip: destination IP, same layout
 */
struct irdma_sim_tx {
	bool ipv4;
	bool insert_vlan;
	bool loopback;
	u16 vlan_tci;
	u8 tc;
	u8 hop_limit;
	u32 flow_label;
	u16 ip_id;
	u8 smac[ETH_ALEN];
	u8 dmac[ETH_ALEN];
	u32 src_ip[4];
	u32 dst_ip[4];
};

/**
 * enum irdma_sim_state - life cycle of an instance (irdma_sim_list_lock)
 * @IRDMA_SIM_CREATING: rdma link add in progress
 * @IRDMA_SIM_LIVE: created, driver bound
 * @IRDMA_SIM_DEL_QUEUED: deletion requested, queued to the deletion work
 * @IRDMA_SIM_RESET_QUEUED: a function reset requested, queued to the same
 *	work (a deletion requested meanwhile wins)
 *
 * An instance being deleted or reset is no longer on the list.
 */
enum irdma_sim_state {
	IRDMA_SIM_CREATING,
	IRDMA_SIM_LIVE,
	IRDMA_SIM_DEL_QUEUED,
	IRDMA_SIM_RESET_QUEUED,
};

/* the kinds of an engine's buffers (irdma_sim_iw_get_bufs()) */
enum irdma_sim_iw_buf {
	IRDMA_SIM_IW_BUF_TX,
	IRDMA_SIM_IW_BUF_RX,
	IRDMA_SIM_IW_BUF_KINDS,
};

/* buffers of each kind kept for reuse when no engine needs them */
#define IRDMA_SIM_IW_BUF_CACHE		8

/**
 * struct irdma_sim_iw_cache - an instance's spare engine buffers
 * @lock: protects the rest
 * @n: buffers in @free, per kind
 * @free: spare buffers, per kind
 */
struct irdma_sim_iw_cache {
	spinlock_t lock;	/* @n and @free */
	u32 n[IRDMA_SIM_IW_BUF_KINDS];
	void *free[IRDMA_SIM_IW_BUF_KINDS][IRDMA_SIM_IW_BUF_CACHE];
};

/**
 * struct irdma_sim - one simulated E810 RDMA function
 * @sadev: the auxiliary device published to the driver
 * @dev: the DMA-capable parent device on the irdma_sim bus
 * @dma_parms: DMA parameters of @dev
 * @id: instance id (IDA)
 * @ibdev_name: name requested with rdma link add
 * @netdev: the netdev served (a reference is held)
 * @netdev_tracker: tracker of that reference
 * @vlans: VLAN devices on @netdev the rx_handler is registered on (rtnl)
 * @list: link in the instance list
 * @state: life cycle (irdma_sim_list_lock)
 * @del_pending: deletion requested while still being created
 * @reset_lost: the queued reset loses the function's state before the
 *	driver lets go of it (irdma_sim_reset_request())
 * @lock: protects the hardware state, see the top of this file
 * @dead: processing stopped for good (lock)
 * @gen: CQP generation, bumped when the CQP is destroyed (lock)
 * @purged_gen: generation whose leftovers the worker has freed (worker)
 * @qp_serial: serial number of the last QP created (worker)
 * @regs: register file
 * @irq: interrupt controller
 * @cqp: control QP
 * @hmc: FPM layout and SDs
 * @cqs: CQs by id
 * @qps: QPs by id
 * @mrs: STags by index
 * @ahs: address handles by index
 * @ceqs: CEQs by id (lock)
 * @aeq: the AEQ (lock)
 * @arp: ARP cache, committed ARP count entries (lock)
 * @narp: entries in @arp
 * @qhash: qhash entries by local port (lock for changes, RCU for readers)
 * @nqhash: entries in @qhash
 * @apbvt: TCP ports in the APBVT (lock)
 * @ws: work-scheduler nodes (worker)
 * @qsets: allocated queue-set handles (worker)
 * @stats_insts: allocated statistics instances (worker)
 * @up_map: last UP_MAP value
 * @wq: ordered workqueue of the CQP engine and the UDA transmit work
 * @cqp_work: processes the CQP SQ
 * @uda_tx: UDA QPs whose SQ doorbell waits to be served (lock)
 * @uda_work: transmits the send WQEs of the QPs on @uda_tx
 * @reset_work: queues a function reset that was asked for (main.c)
 * @reset_ask_lost: the reset asked for loses the function's state first
 *	(lock)
 * @ip_id: next IPv4 identification of a transmitted frame (lock)
 * @iw_wq: the iWARP engines' workqueue (qp.c)
 * @iw_list: engines of iWARP QPs (lock)
 * @iw_bufs: spare transmit and receive buffers of the engines
 * @iw_quads: engines whose quad is offloaded, by local port (lock for
 *	changes, RCU for the rx_handler)
 * @rx_now: times an iWARP socket's data_ready callback read and placed
 *	received bytes itself (irdma_sim_iw_data_ready()); atomic, so that
 *	the callback takes no instance lock to count
 * @ddir: debugfs directory
 * @knobs: fault injection
 * @stats: counters
 * @net: data path counters (lock)
 * @gstat: the counters GATHER_STATS reports, by 32-bit slot of its buffer
 *	(irdma_sim_gstat_add())
 */
struct irdma_sim {
	struct irdma_sim_adev sadev;
	struct device dev;
	struct device_dma_parameters dma_parms;
	u32 id;
	char ibdev_name[IB_DEVICE_NAME_MAX];
	struct net_device *netdev;
	netdevice_tracker netdev_tracker;
	struct list_head vlans;
	struct list_head list;
	enum irdma_sim_state state;
	bool del_pending;
	bool reset_lost;

	/* hardware state: registers, interrupts, rings, object liveness */
	spinlock_t lock;
	bool dead;
	u32 gen;
	u32 purged_gen;
	u32 qp_serial;
	struct irdma_sim_regs regs;
	struct irdma_sim_irq irq;
	struct irdma_sim_cqp cqp;
	struct irdma_sim_hmc hmc;

	struct xarray cqs;
	struct xarray qps;
	struct xarray mrs;
	struct xarray ahs;
	struct irdma_sim_eq *ceqs[IRDMA_SIM_MAX_CEQS];
	struct irdma_sim_eq *aeq;
	struct irdma_sim_arp *arp;
	u32 narp;
	DECLARE_HASHTABLE(qhash, IRDMA_SIM_QHASH_BITS);
	u32 nqhash;
	unsigned long *apbvt;
	struct irdma_sim_ws_node *ws;
	DECLARE_BITMAP(qsets, IRDMA_SIM_MAX_QSETS);
	DECLARE_BITMAP(stats_insts, IRDMA_SIM_STATS_INSTS);
	u64 up_map;

	struct workqueue_struct *wq;
	struct work_struct cqp_work;
	struct list_head uda_tx;
	struct work_struct uda_work;
	struct work_struct reset_work;
	bool reset_ask_lost;
	u16 ip_id;
	struct workqueue_struct *iw_wq;
	struct list_head iw_list;
	struct irdma_sim_iw_cache iw_bufs;
	DECLARE_HASHTABLE(iw_quads, 6);
	atomic64_t rx_now;
	struct dentry *ddir;
	struct irdma_sim_knobs knobs;
	struct irdma_sim_stats stats;
	struct irdma_sim_net_stats net;
	atomic64_t gstat[IRDMA_GSTAT_LEN / 4];
};

/**
 * irdma_sim_from_sadev() - instance of an auxiliary device
 * @sadev: the device handed to the driver
 *
 * Return: the containing instance.
 */
static inline struct irdma_sim *irdma_sim_from_sadev(struct irdma_sim_adev *sadev)
{
	return container_of(sadev, struct irdma_sim, sadev);
}

/**
 * irdma_sim_gstat_add() - count for GATHER_STATS
 * @sim: instance
 * @code: IRDMA_GSTAT_* counter
 * @n: amount
 *
 * Context: any.
 */
static inline void irdma_sim_gstat_add(struct irdma_sim *sim,
				       enum irdma_gstat code, u64 n)
{
	atomic64_add(n, &sim->gstat[FIELD_GET(IRDMA_GSTAT_OFFSET, code) / 4]);
}

/**
 * irdma_sim_gstat_ip() - count IP packets and the TCP segments they carry
 * @sim: instance
 * @ipv4: IPv4 (else IPv6)
 * @rx: received (else sent)
 * @octets: IP bytes, headers included
 * @pkts: packets
 *
 * Every IP packet the model sends or takes is a TCP segment.
 *
 * Context: any.
 */
static inline void irdma_sim_gstat_ip(struct irdma_sim *sim, bool ipv4,
				      bool rx, u64 octets, u64 pkts)
{
	if (rx) {
		irdma_sim_gstat_add(sim, ipv4 ? IRDMA_GSTAT_IP4_RX_OCTETS :
					 IRDMA_GSTAT_IP6_RX_OCTETS, octets);
		irdma_sim_gstat_add(sim, ipv4 ? IRDMA_GSTAT_IP4_RX_PKTS :
					 IRDMA_GSTAT_IP6_RX_PKTS, pkts);
		irdma_sim_gstat_add(sim, IRDMA_GSTAT_TCP_RX_SEGS, pkts);
	} else {
		irdma_sim_gstat_add(sim, ipv4 ? IRDMA_GSTAT_IP4_TX_OCTETS :
					 IRDMA_GSTAT_IP6_TX_OCTETS, octets);
		irdma_sim_gstat_add(sim, ipv4 ? IRDMA_GSTAT_IP4_TX_PKTS :
					 IRDMA_GSTAT_IP6_TX_PKTS, pkts);
		irdma_sim_gstat_add(sim, IRDMA_GSTAT_TCP_TX_SEGS, pkts);
	}
}

/**
 * irdma_sim_ip_be() - an IPv6 address from host-order words
 * @a: the address
 * @w: words, word 0 most significant
 */
static inline void irdma_sim_ip_be(struct in6_addr *a, const u32 w[4])
{
	int i;

	for (i = 0; i < 4; i++)
		a->s6_addr32[i] = htonl(w[i]);
}

/**
 * irdma_sim_qw() - read one word of a CQP WQE copy
 * @cmd: command being executed
 * @i: word index
 *
 * Return: the word in CPU order.
 */
static inline u64 irdma_sim_qw(const struct irdma_sim_cmd *cmd, unsigned int i)
{
	return le64_to_cpu(cmd->wqe.qw[i]);
}

/**
 * irdma_sim_errno_minor() - CQP minor error code for a memory set-up failure
 * @err: negative errno from irdma_sim_qmem_init() or an allocation
 *
 * Return: IRDMA_SIM_CQP_MINOR_NO_RESOURCE for -ENOMEM, else
 * IRDMA_SIM_CQP_MINOR_BAD_ADDR.
 */
static inline u16 irdma_sim_errno_minor(int err)
{
	return err == -ENOMEM ? IRDMA_SIM_CQP_MINOR_NO_RESOURCE :
				IRDMA_SIM_CQP_MINOR_BAD_ADDR;
}

struct seq_file;

/* regs.c */
extern const struct irdma_sim_ops irdma_sim_reg_ops;
void irdma_sim_regs_init(struct irdma_sim *sim);

/* irq.c */
int irdma_sim_irq_init(struct irdma_sim *sim, u32 nvec);
int irdma_sim_irq_crit_err(struct irdma_sim *sim, u32 oicr, u32 cause);
void irdma_sim_irq_sync(struct irdma_sim *sim);
void irdma_sim_irq_fini(struct irdma_sim *sim);
void irdma_sim_irq_raise(struct irdma_sim *sim, u32 cause);
void irdma_sim_irq_route(struct irdma_sim *sim, u32 cause, u32 val);
void irdma_sim_irq_dyn_ctl(struct irdma_sim *sim, u32 v, u32 val);

/* mem.c */
void *irdma_sim_dma_va(struct irdma_sim *sim, u64 addr, size_t len);
void *irdma_sim_dma_src_va(struct irdma_sim *sim, u64 addr, size_t len);
int irdma_sim_qmem_init(struct irdma_sim *sim, struct irdma_sim_qmem *q,
			u64 pa, bool virt, u8 level, u32 first_pble,
			size_t len, u32 align);
void irdma_sim_qmem_fini(struct irdma_sim_qmem *q);
void *irdma_sim_qmem_ptr(const struct irdma_sim_qmem *q, size_t off);
int irdma_sim_pble_read(struct irdma_sim *sim, u64 idx, u64 *val);
int irdma_sim_pbl_page(struct irdma_sim *sim, u8 level, u32 first, u32 n,
		       u64 *pa);
bool irdma_sim_hmc_backed(struct irdma_sim *sim, enum irdma_hmc_obj type,
			  u32 idx);

/* cqp.c */
void irdma_sim_cqp_create(struct irdma_sim *sim);
void irdma_sim_cqp_destroy(struct irdma_sim *sim);
void irdma_sim_cqp_doorbell(struct irdma_sim *sim, u32 head);
void irdma_sim_cqp_work(struct work_struct *work);
const char *irdma_sim_op_name(u8 op);

/* cmd.c */
__printf(4, 5)
void irdma_sim_cmd_fail(struct irdma_sim *sim, struct irdma_sim_cmd *cmd,
			u16 minor, const char *fmt, ...);
bool irdma_sim_fn_id_ok(struct irdma_sim *sim, struct irdma_sim_cmd *cmd,
			u32 fn_id);

/* hmc.c */
void irdma_sim_op_query_fpm(struct irdma_sim *sim, struct irdma_sim_cmd *cmd);
void irdma_sim_op_commit_fpm(struct irdma_sim *sim, struct irdma_sim_cmd *cmd);
void irdma_sim_op_update_sds(struct irdma_sim *sim, struct irdma_sim_cmd *cmd);
void irdma_sim_op_shmc_pages(struct irdma_sim *sim, struct irdma_sim_cmd *cmd);
void irdma_sim_hmc_reset(struct irdma_sim *sim);
bool irdma_sim_obj_id_ok(struct irdma_sim *sim, struct irdma_sim_cmd *cmd,
			 enum irdma_hmc_obj type, u32 id);
void irdma_sim_pdinv(struct irdma_sim *sim, u32 val);

/* eq.c */
void irdma_sim_op_create_cq(struct irdma_sim *sim, struct irdma_sim_cmd *cmd);
void irdma_sim_op_modify_cq(struct irdma_sim *sim, struct irdma_sim_cmd *cmd);
void irdma_sim_op_destroy_cq(struct irdma_sim *sim, struct irdma_sim_cmd *cmd);
void irdma_sim_op_create_ceq(struct irdma_sim *sim, struct irdma_sim_cmd *cmd);
void irdma_sim_op_destroy_ceq(struct irdma_sim *sim, struct irdma_sim_cmd *cmd);
void irdma_sim_op_create_aeq(struct irdma_sim *sim, struct irdma_sim_cmd *cmd);
void irdma_sim_op_destroy_aeq(struct irdma_sim *sim, struct irdma_sim_cmd *cmd);
struct irdma_sim_cq *irdma_sim_cq_get(struct irdma_sim *sim, u32 id);
int irdma_sim_cq_post(struct irdma_sim *sim, struct irdma_sim_cq *cq,
		      const __le64 *cqe, bool solicited);
int irdma_sim_cq_post_n(struct irdma_sim *sim, struct irdma_sim_cq *cq,
			const struct irdma_cqe *cqes, u32 n, bool solicited);
void irdma_sim_cq_arm(struct irdma_sim *sim, u32 id);
void irdma_sim_cq_ack(struct irdma_sim *sim, u32 id);
int irdma_sim_aeq_post(struct irdma_sim *sim, u64 ctx, u64 qw1);
int irdma_sim_aeq_raise(struct irdma_sim *sim, u32 code, u32 count);
int irdma_sim_qp_ae(struct irdma_sim *sim, struct irdma_sim_qp *qp, u32 code,
		    u32 src, bool q2_data);
int irdma_sim_qp_ae_cmd(struct irdma_sim *sim, struct irdma_sim_qp *qp,
			u32 code, u32 src);
void irdma_sim_aeq_credit(struct irdma_sim *sim, u32 n);
void irdma_sim_eq_purge(struct irdma_sim *sim);

/* res.c */
void irdma_sim_op_create_qp(struct irdma_sim *sim, struct irdma_sim_cmd *cmd);
void irdma_sim_op_modify_qp(struct irdma_sim *sim, struct irdma_sim_cmd *cmd);
void irdma_sim_op_destroy_qp(struct irdma_sim *sim, struct irdma_sim_cmd *cmd);
void irdma_sim_op_flush_wqes(struct irdma_sim *sim, struct irdma_sim_cmd *cmd);
void irdma_sim_op_suspend_qp(struct irdma_sim *sim, struct irdma_sim_cmd *cmd);
void irdma_sim_op_resume_qp(struct irdma_sim *sim, struct irdma_sim_cmd *cmd);
void irdma_sim_op_alloc_stag(struct irdma_sim *sim, struct irdma_sim_cmd *cmd);
void irdma_sim_op_reg_mr(struct irdma_sim *sim, struct irdma_sim_cmd *cmd);
void irdma_sim_op_dealloc_stag(struct irdma_sim *sim, struct irdma_sim_cmd *cmd);
void irdma_sim_op_manage_arp(struct irdma_sim *sim, struct irdma_sim_cmd *cmd);
void irdma_sim_op_manage_apbvt(struct irdma_sim *sim, struct irdma_sim_cmd *cmd);
void irdma_sim_op_manage_qhash(struct irdma_sim *sim, struct irdma_sim_cmd *cmd);
void irdma_sim_op_create_ah(struct irdma_sim *sim, struct irdma_sim_cmd *cmd);
void irdma_sim_op_modify_ah(struct irdma_sim *sim, struct irdma_sim_cmd *cmd);
void irdma_sim_op_destroy_ah(struct irdma_sim *sim, struct irdma_sim_cmd *cmd);
void irdma_sim_op_ws_node(struct irdma_sim *sim, struct irdma_sim_cmd *cmd);
void irdma_sim_op_push_pages(struct irdma_sim *sim, struct irdma_sim_cmd *cmd);
void irdma_sim_op_manage_stats(struct irdma_sim *sim, struct irdma_sim_cmd *cmd);
void irdma_sim_op_gather_stats(struct irdma_sim *sim, struct irdma_sim_cmd *cmd);
void irdma_sim_gstat_advance(struct irdma_sim *sim, u64 n);
void irdma_sim_op_query_features(struct irdma_sim *sim,
				 struct irdma_sim_cmd *cmd);
void irdma_sim_op_up_map(struct irdma_sim *sim, struct irdma_sim_cmd *cmd);
void irdma_sim_op_nop(struct irdma_sim *sim, struct irdma_sim_cmd *cmd);
struct irdma_sim_iw *irdma_sim_wqe_alloc(struct irdma_sim *sim, u32 val,
					 bool can_run);
int irdma_sim_res_init(struct irdma_sim *sim);
void irdma_sim_res_purge(struct irdma_sim *sim);
void irdma_sim_res_fini(struct irdma_sim *sim);

/* uda.c */
bool irdma_sim_uda_init(struct irdma_sim *sim, struct irdma_sim_cmd *cmd,
			struct irdma_sim_qp *qp);
void irdma_sim_uda_unlink(struct irdma_sim *sim, struct irdma_sim_qp *qp);
void irdma_sim_uda_doorbell(struct irdma_sim *sim, struct irdma_sim_qp *qp);
bool irdma_sim_uda_flush(struct irdma_sim *sim, u32 budget);
void irdma_sim_uda_work(struct work_struct *work);
bool irdma_sim_uda_rx(struct irdma_sim *sim, u32 qpn,
		      const struct sk_buff *skb,
		      const struct irdma_sim_frame *f);

/* ddp.c (framing; iw.h) */
void irdma_sim_crc_select(void);

/* qp.c (the iWARP engine; iw.h) */
struct irdma_sim_iw;
bool irdma_sim_iw_create(struct irdma_sim *sim, struct irdma_sim_cmd *cmd,
			 struct irdma_sim_qp *qp);
u16 irdma_sim_iw_modify(struct irdma_sim *sim, struct irdma_sim_qp *qp,
			u64 hdr, u64 qw1);
void irdma_sim_iw_flush(struct irdma_sim *sim, struct irdma_sim_qp *qp,
			u64 hdr, u64 qw2);
struct irdma_sim_iw *irdma_sim_iw_doorbell(struct irdma_sim *sim,
					   struct irdma_sim_qp *qp,
					   bool can_run);
void irdma_sim_iw_run_pinned(struct irdma_sim_iw *iw);
void irdma_sim_iw_destroy(struct irdma_sim *sim, struct irdma_sim_qp *qp);
int irdma_sim_iw_steal(struct irdma_sim *sim, struct sk_buff *skb,
		       const struct irdma_sim_frame *f);
struct irdma_sim_iw *irdma_sim_iw_user_doorbell(struct irdma_sim *sim, u32 id);
void irdma_sim_iw_run_on_return(struct irdma_sim_iw *iw);
int irdma_sim_iw_init(struct irdma_sim *sim);
void irdma_sim_iw_fini(struct irdma_sim *sim);
void irdma_sim_iw_show(struct irdma_sim *sim, struct seq_file *s);

/* udb.c */
int irdma_sim_mmap_db(struct irdma_sim_adev *sadev, struct vm_area_struct *vma);
void irdma_sim_udb_exit(void);

/* net.c */
int irdma_sim_net_attach(struct irdma_sim *sim);
void irdma_sim_net_detach(struct irdma_sim *sim);
void irdma_sim_net_event(struct irdma_sim *sim, unsigned long event,
			 struct net_device *dev);
bool irdma_sim_net_attached(struct irdma_sim *sim);
void irdma_sim_net_show_vlans(struct irdma_sim *sim, struct seq_file *s);

/* xmit.c */
struct sk_buff *irdma_sim_net_alloc(struct irdma_sim *sim, u32 len);
void irdma_sim_net_xmit(struct irdma_sim *sim, struct sk_buff *skb,
			const struct irdma_sim_tx *tx);

/* debugfs.c */
void irdma_sim_debugfs_init(void);
void irdma_sim_debugfs_exit(void);
void irdma_sim_knobs_init(struct irdma_sim_knobs *k);
void irdma_sim_ask_reset(struct irdma_sim *sim, bool lost);
void irdma_sim_debugfs_add(struct irdma_sim *sim);
void irdma_sim_debugfs_del(struct irdma_sim *sim);

#endif /* IRDMA_SIM_H */
