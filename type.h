/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * irdma - driver objects.  Hardware formats live in defs.h; the connection
 * manager's own objects live in cm.h.
 */
#ifndef IRDMA_TYPE_H
#define IRDMA_TYPE_H

#include <linux/completion.h>
#include <linux/idr.h>
#include <linux/interrupt.h>
#include <linux/kref.h>
#include <linux/refcount.h>
#include <linux/mutex.h>
#include <linux/netdevice.h>
#include <linux/spinlock.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>
#include <rdma/ib_verbs.h>

#include "defs.h"
#include "cm.h"

struct irdma_pci_f;

/**
 * struct irdma_dma_mem - a coherent DMA buffer shared with the adapter
 * @va: kernel virtual address
 * @pa: DMA address the adapter uses
 * @size: size in bytes
 */
struct irdma_dma_mem {
	void *va;
	dma_addr_t pa;
	size_t size;
};

/**
 * struct irdma_bus_ops - what a binding (ice, i40e, the model) provides
 * @rd32: read a 32-bit register at a BAR0 offset
 * @wr32: write a 32-bit register at a BAR0 offset
 * @request_reset: ask the LAN driver for a function reset (may be NULL)
 * @qset: register (@add) or release the transmit queue set @qs_handle of
 *	traffic class @tc with the LAN driver (may be NULL: nothing to do)
 * @route_vector: route CEQ @ceq (or none, -1) and the AEQ (@aeq) to
 *	vector @vec (may be NULL: the GEN_2 CEQCTL/AEQCTL registers are used)
 * @mmap_db: map the user doorbell page into @vma, one shared page of a
 *	uverbs mapping (may be NULL: the driver maps @db_pfn of struct
 *	irdma_bus_info uncached).  For a binding whose doorbells are not a
 *	BAR page the CPU can write; the mapping is the binding's from then on.
 *
 * @rd32 and @wr32 are called from any context and must not sleep; the
 * others are called in process context and may sleep.  @mmap_db is called
 * from the mmap handler, with the calling task's mm locked for writing: it
 * may not take a lock the mm's lock nests inside.
 */
struct irdma_bus_ops {
	u32 (*rd32)(struct irdma_pci_f *rf, u32 reg);
	void (*wr32)(struct irdma_pci_f *rf, u32 reg, u32 val);
	int (*request_reset)(struct irdma_pci_f *rf);
	int (*qset)(struct irdma_pci_f *rf, u16 qs_handle, u8 tc, bool add);
	int (*route_vector)(struct irdma_pci_f *rf, u32 vec, int ceq, bool aeq);
	int (*mmap_db)(struct irdma_pci_f *rf, struct vm_area_struct *vma);
};

#define IRDMA_MAX_VECTORS	64

/**
 * struct irdma_bus_info - resources a binding hands to irdma_probe_function()
 * @dma_dev: device used for DMA allocations and mappings
 * @parent: device the ib_device is parented to (the auxiliary device)
 * @netdev: netdev of the port
 * @ops: register accessors and LAN-driver services
 * @priv: binding-private pointer, available as rf->bus_priv
 * @gen: hardware generation
 * @pf_id: PCI function number (HMC function id)
 * @part_id: PCI device ID of the function (an E810 has several)
 * @vectors: Linux IRQ number and MSI-X index of each vector
 * @num_vectors: number of entries in @vectors
 * @db_pfn: PFN of the user doorbell page (unless @ops has mmap_db)
 * @ibdev_name: name (or printf pattern) for the ib_device
 * @user_removable: the function was created by the user ("rdma link add")
 *	and may be removed by "rdma link delete"
 */
struct irdma_bus_info {
	struct device *dma_dev;
	struct device *parent;
	struct net_device *netdev;
	const struct irdma_bus_ops *ops;
	void *priv;
	enum irdma_gen gen;
	u8 pf_id;
	u16 part_id;
	struct {
		u32 irq;
		u32 idx;
	} vectors[IRDMA_MAX_VECTORS];
	u32 num_vectors;
	unsigned long db_pfn;
	const char *ibdev_name;
	bool user_removable;
};

/**
 * struct irdma_cqp_request - one control-QP command in flight
 * @refcnt: the waiter and the completion path each hold a reference
 * @done: completed by the completion path
 * @opcode: hardware opcode, for messages
 * @error: the adapter reported an error
 * @major: major error code
 * @minor: minor error code
 * @op_ret: command-specific return value from the CQE
 */
struct irdma_cqp_request {
	struct kref refcnt;
	struct completion done;
	u8 opcode;
	bool error;
	u16 major;
	u16 minor;
	u32 op_ret;
};

/**
 * enum irdma_cqp_mode - how CQP completions are found
 * @IRDMA_CQP_MODE_REGS: poll CQPTAIL (before the CCQ exists); one at a time
 * @IRDMA_CQP_MODE_CCQ_POLL: the waiter polls the CCQ
 * @IRDMA_CQP_MODE_EVENT: the CEQ interrupt processes the CCQ; the waiter
 *	sleeps and polls as a backstop every IRDMA_CQP_BACKSTOP_MS
 */
enum irdma_cqp_mode {
	IRDMA_CQP_MODE_REGS,
	IRDMA_CQP_MODE_CCQ_POLL,
	IRDMA_CQP_MODE_EVENT,
};

/**
 * struct irdma_cq_ring - a hardware completion queue ring and its shadow area
 * @mem: ring (size CQEs of 32 bytes) followed by the 64-byte shadow area
 * @shadow: CPU address of the shadow area inside @mem
 * @shadow_pa: DMA address of the shadow area
 * @size: number of CQEs
 * @head: next CQE to consume
 * @polarity: valid-bit value of the current lap
 * @arm_seq: arm sequence number last written
 * @id: CQ id
 */
struct irdma_cq_ring {
	struct irdma_dma_mem mem;
	__le64 *shadow;
	dma_addr_t shadow_pa;
	u32 size;
	u32 head;
	u8 polarity;
	u8 arm_seq;
	u32 id;
};

/**
 * struct irdma_cqp_stats - control QP counters
 * @posted: commands posted
 * @completed: completions seen
 * @errors: completions with the error bit
 * @timeouts: commands that timed out
 * @refused: commands not posted because the control QP had stopped
 *	answering
 * @queue_full: posts that had to wait for a free slot
 */
struct irdma_cqp_stats {
	u64 posted;
	u64 completed;
	u64 errors;
	u64 timeouts;
	u64 refused;
	u64 queue_full;
};

/**
 * struct irdma_cqp - the control QP and its completion queue (CCQ)
 * @sq: SQ ring of struct irdma_cqp_wqe
 * @ctx: the 64-byte host context read by the create handshake
 * @sd_buf: overflow area for UPDATE_PE_SDS, IRDMA_SD_OVERFLOW_BUF_SIZE per slot
 * @size: SQ entries
 * @head: next slot to fill
 * @tail: oldest slot not yet completed
 * @polarity: valid-bit value for the current lap
 * @reqs: the request waiting on each slot, or NULL
 * @inflight: commands posted and not completed
 * @lock: protects @head, @tail, @polarity, @reqs, @inflight, @ccq and @stats
 * @slot_wq: posters wait here for a free slot
 * @regs_mutex: serialises commands in IRDMA_CQP_MODE_REGS
 * @mode: how completions are found
 * @ccq: the CCQ (CQ id 0), valid once @ccq_ready
 * @ccq_ready: the CCQ exists
 * @created: the create handshake succeeded
 * @hung: a command timed out: the adapter stopped answering, and until the
 *	function is reset every later command fails at once
 * @stats: counters
 */
struct irdma_cqp {
	struct irdma_dma_mem sq;
	struct irdma_dma_mem ctx;
	struct irdma_dma_mem sd_buf;
	u32 size;
	u32 head;
	u32 tail;
	u8 polarity;
	struct irdma_cqp_request **reqs;
	u32 inflight;
	spinlock_t lock;		/* see @lock above */
	wait_queue_head_t slot_wq;
	struct mutex regs_mutex;	/* see @regs_mutex above */
	enum irdma_cqp_mode mode;
	struct irdma_cq_ring ccq;
	bool ccq_ready;
	bool created;
	bool hung;
	struct irdma_cqp_stats stats;
};

/**
 * struct irdma_ceq - a completion event queue
 * @mem: ring of 8-byte CEQEs
 * @size: number of CEQEs
 * @head: next CEQE to consume
 * @polarity: valid-bit value of the current lap
 * @id: CEQ id
 * @vec: vector the CEQ is routed to
 * @created: the adapter accepted CREATE_CEQ
 */
struct irdma_ceq {
	struct irdma_dma_mem mem;
	u32 size;
	u32 head;
	u8 polarity;
	u32 id;
	struct irdma_msix_vector *vec;
	bool created;
};

/**
 * struct irdma_aeq - the asynchronous event queue
 * @mem: ring of 16-byte AEQEs
 * @size: number of AEQEs
 * @head: next AEQE to consume
 * @polarity: valid-bit value of the current lap
 * @created: the adapter accepted CREATE_AEQ
 */
struct irdma_aeq {
	struct irdma_dma_mem mem;
	u32 size;
	u32 head;
	u8 polarity;
	bool created;
};

/**
 * struct irdma_msix_vector - one interrupt vector
 * @rf: owning function
 * @irq: Linux IRQ number
 * @idx: MSI-X index (register index for DYN_CTL / QCTL fields)
 * @ceq: CEQ served by this vector, or NULL
 * @aeq: this vector serves the AEQ
 * @requested: request_irq() succeeded
 * @cpu: CPU of the affinity hint given with the IRQ
 * @name: name shown in /proc/interrupts
 */
struct irdma_msix_vector {
	struct irdma_pci_f *rf;
	u32 irq;
	u32 idx;
	struct irdma_ceq *ceq;
	bool aeq;
	bool requested;
	unsigned int cpu;
	char name[32];
};

/**
 * struct irdma_hmc_obj_info - one HMC object type
 * @max_cnt: maximum count the adapter supports
 * @cnt: committed count
 * @size: object size in bytes
 * @base: base in FPM space, bytes
 */
struct irdma_hmc_obj_info {
	u32 max_cnt;
	u32 cnt;
	u64 size;
	u64 base;
};

/**
 * struct irdma_hmc - host memory cache backing the adapter's objects
 * @obj: per object type limits, counts and placement
 * @first_sd: first SD index of this function
 * @max_sds: SDs the adapter allows this function
 * @max_ceqs: CEQs the adapter supports
 * @sd_cnt: SDs in use
 * @sd_pages: backing page of each SD (2 MiB, direct)
 * @xf_block: XF free-list block size
 * @q1_block: Q1 free-list block size
 * @rrf_block: RRF free-list block size
 * @ooisc_block: OOISC free-list block size
 * @ht_mult: hash-table entries per QP (power of two multiplier)
 * @timer_bucket: timer objects per 512 QPs
 */
struct irdma_hmc {
	struct irdma_hmc_obj_info obj[IRDMA_HMC_OBJ_NUM];
	u32 first_sd;
	u32 max_sds;
	u32 max_ceqs;
	u32 sd_cnt;
	struct irdma_dma_mem *sd_pages;
	u32 xf_block;
	u32 q1_block;
	u32 rrf_block;
	u32 ooisc_block;
	u32 ht_mult;
	u32 timer_bucket;
};

/**
 * struct irdma_ilq_stats - ILQ counters
 * @rx_pkts: frames handed to the CM
 * @rx_dropped: frames dropped (errors, bad length)
 * @tx_pkts: segments posted
 * @tx_full: segments refused because the SQ was full
 */
struct irdma_ilq_stats {
	u64 rx_pkts;
	u64 rx_dropped;
	u64 tx_pkts;
	u64 tx_full;
};

/**
 * struct irdma_ilq - the privileged queue pair carrying CM segments (QP 1)
 * @qmem: SQ, RQ, QP shadow area and QP context, in that order
 * @sq: SQ ring
 * @sq_pa: its DMA address
 * @rq: RQ ring
 * @rq_pa: its DMA address
 * @shadow_pa: QP shadow area DMA address
 * @ctx: QP context
 * @ctx_pa: its DMA address
 * @rx_bufs: one IRDMA_ILQ_BUF_SIZE buffer per RQ slot
 * @tx_bufs: one IRDMA_ILQ_BUF_SIZE buffer per SQ slot
 * @cq: the ILQ's CQ (CQ 1)
 * @size: SQ and RQ entries
 * @sq_head: next SQ slot to fill
 * @sq_tail: oldest SQ slot not completed
 * @sq_polarity: valid bit of the current SQ lap
 * @lock: protects the SQ ring, @tx_bufs, @stats tx counters and @qp_created
 * @cq_created: the CQ exists
 * @qp_created: the QP exists
 * @stats: counters
 */
struct irdma_ilq {
	struct irdma_dma_mem qmem;
	void *sq;
	dma_addr_t sq_pa;
	void *rq;
	dma_addr_t rq_pa;
	dma_addr_t shadow_pa;
	struct irdma_qp_ctx *ctx;
	dma_addr_t ctx_pa;
	struct irdma_dma_mem rx_bufs;
	struct irdma_dma_mem tx_bufs;
	struct irdma_cq_ring cq;
	u32 size;
	u32 sq_head;
	u32 sq_tail;
	u8 sq_polarity;
	spinlock_t lock;	/* see @lock above */
	bool cq_created;
	bool qp_created;
	struct irdma_ilq_stats stats;
};

/**
 * struct irdma_arp_entry - one entry of the adapter's ARP cache
 * @ip: address, host-order words, IPv4 in [3]
 * @mac: MAC
 * @ipv4: IPv4 entry
 * @used: the entry is programmed
 * @refcnt: address handles using the entry
 */
struct irdma_arp_entry {
	u32 ip[4];
	u8 mac[ETH_ALEN];
	bool ipv4;
	bool used;
	unsigned int refcnt;
};

/**
 * struct irdma_apbvt_entry - a local TCP port in the adapter's APBVT
 * @list: entry in rf->apbvt
 * @port: the port
 * @refcnt: users of the port
 */
struct irdma_apbvt_entry {
	struct list_head list;
	u16 port;
	unsigned int refcnt;
};

/**
 * struct irdma_pci_f - one RDMA function (what ice/i40e/the model hand us)
 * @list: entry in the driver's list of functions (main.c)
 * @dma_dev: device for DMA
 * @parent: the auxiliary device
 * @netdev: port netdev
 * @bus_ops: register accessors and LAN services of the binding
 * @bus_priv: binding-private data
 * @gen: hardware generation
 * @pf_id: PCI function number
 * @part_id: PCI device ID of the function, reported as vendor_part_id
 * @regs: register offsets of @gen, indexed by enum irdma_reg
 * @db_pfn: PFN of the user doorbell page
 * @ibdev_name: requested ib_device name
 * @user_removable: may be removed with "rdma link delete"
 * @cqp: control QP
 * @ceqs: completion event queues
 * @num_ceqs: entries in @ceqs that were created
 * @max_ceqs: entries allocated in @ceqs
 * @aeq: asynchronous event queue
 * @vectors: interrupt vectors
 * @num_vectors: entries in @vectors
 * @shared_vector0: vector 0 serves CEQ 0 as well as the AEQ
 * @hmc: host memory cache
 * @fw_major: firmware major version
 * @fw_minor: firmware minor version
 * @max_qp: QPs available (committed HMC count)
 * @max_cq: CQs available
 * @max_mr: MRs available
 * @max_ah: AHs available
 * @max_pd: PDs available
 * @pd_ida: PD ids
 * @iwdev: the registered ib_device, or NULL once it is gone (for event
 *	delivery: received segments, notifier events)
 * @iwdev_lock: protects @iwdev against "rdma link delete" racing remove
 * @reg_iwdev: the device as registered, with a reference held until
 *	remove (for the unregistration fence)
 * @wq: ordered workqueue for deferred work of this function
 * @reset_requested: a function reset was requested (bit 0)
 * @leaked_bytes: DMA memory left to the adapter because it may still use it
 * @hw_stats: the adapter's statistics and the AE counts (counters.c)
 * @ws_up: the transmit scheduler nodes exist
 * @qs_handle: queue set of user priority 0
 * @ilq: the CM's privileged queue pair
 * @ah_ida: address-handle ids
 * @ah_arp: ARP index used by each address handle (xa_mk_value)
 * @arp: the adapter's ARP cache as programmed, @max_arp entries
 * @max_arp: ARP cache entries
 * @apbvt: local TCP ports in the APBVT
 * @tbl_lock: protects @arp, @ah_arp and @apbvt
 * @qp_ida: QP ids
 * @cq_ida: CQ ids
 * @mr_ida: STag indexes
 * @qp_table: QPs by id, for AEs and the CM (xa_lock for readers)
 * @cq_table: CQs by id, for CEQEs and AEs (xa_lock for readers)
 * @pble_map: allocated PBLEs
 * @pble_cnt: PBLEs in the HMC
 * @pble_lock: protects @pble_map
 */
struct irdma_pci_f {
	struct list_head list;
	struct device *dma_dev;
	struct device *parent;
	struct net_device *netdev;
	const struct irdma_bus_ops *bus_ops;
	void *bus_priv;
	enum irdma_gen gen;
	u8 pf_id;
	u16 part_id;
	const u32 *regs;
	unsigned long db_pfn;
	const char *ibdev_name;
	bool user_removable;
	struct irdma_cqp cqp;
	struct irdma_ceq *ceqs;
	u32 num_ceqs;
	u32 max_ceqs;
	struct irdma_aeq aeq;
	struct irdma_msix_vector *vectors;
	u32 num_vectors;
	bool shared_vector0;
	struct irdma_hmc hmc;
	u16 fw_major;
	u16 fw_minor;
	u32 max_qp;
	u32 max_cq;
	u32 max_mr;
	u32 max_ah;
	u32 max_pd;
	struct ida pd_ida;
	struct irdma_device *iwdev;
	struct mutex iwdev_lock;	/* protects @iwdev */
	struct irdma_device *reg_iwdev;
	struct workqueue_struct *wq;
	unsigned long reset_requested;
	atomic64_t leaked_bytes;
	struct irdma_hw_stats *hw_stats;
	bool ws_up;
	u16 qs_handle;
	struct irdma_ilq ilq;
	struct ida ah_ida;
	struct xarray ah_arp;
	struct irdma_arp_entry *arp;
	u32 max_arp;
	struct list_head apbvt;
	struct mutex tbl_lock;	/* protects @arp, @ah_arp and @apbvt */
	struct ida qp_ida;
	struct ida cq_ida;
	struct ida mr_ida;
	struct xarray qp_table;
	struct xarray cq_table;
	unsigned long *pble_map;
	u32 pble_cnt;
	struct mutex pble_lock;	/* protects @pble_map */
};

/**
 * struct irdma_device - one registered ib_device (one port, iWARP)
 * @ibdev: the ib_device; must stay the first member (ib_alloc_device)
 * @rf: the RDMA function this device runs on
 * @netdev: the netdev of the port
 * @cm_core: the connection manager instance of this device (cm.c)
 * @port_active: last port state reported to ib_core
 * @cm_ready: @cm_core is set up
 */
struct irdma_device {
	struct ib_device ibdev;
	struct irdma_pci_f *rf;
	struct net_device *netdev;
	struct irdma_cm_core cm_core;
	bool port_active;
	bool cm_ready;
};

/**
 * struct irdma_ucontext - a user context (one open of the device)
 * @ibucontext: the ib_ucontext; must stay the first member
 * @iwdev: device
 * @db_entry: mmap entry of the doorbell page
 * @abi_ver: ABI version the provider asked for
 * @bufs: QP and CQ buffers registered with REG_MR (struct irdma_ubuf),
 *	waiting to be used by create_qp/create_cq
 * @bufs_lock: protects @bufs
 */
struct irdma_ucontext {
	struct ib_ucontext ibucontext;
	struct irdma_device *iwdev;
	struct rdma_user_mmap_entry *db_entry;
	u8 abi_ver;
	struct list_head bufs;
	spinlock_t bufs_lock;	/* protects @bufs */
};

/**
 * struct irdma_user_mmap_entry - an mmap offset handed to user space
 * @rdma_entry: core entry; must stay the first member
 * @pfn: page frame mapped at that offset
 */
struct irdma_user_mmap_entry {
	struct rdma_user_mmap_entry rdma_entry;
	unsigned long pfn;
};

/**
 * struct irdma_pd - a protection domain
 * @ibpd: the ib_pd; must stay the first member
 * @pd_id: adapter PD id
 */
struct irdma_pd {
	struct ib_pd ibpd;
	u32 pd_id;
};

/**
 * struct irdma_pbl - where a ring or region sits for the adapter
 * @pa: DMA address of the first byte when @level is 0 (contiguous)
 * @first: first PBLE when @level is 1
 * @cnt: PBLEs used
 * @level: 0 contiguous, 1 one-level PBL
 * @pg_shift: log2 of the page size the PBLEs describe
 */
struct irdma_pbl {
	dma_addr_t pa;
	u32 first;
	u32 cnt;
	u8 level;
	u8 pg_shift;
};

/**
 * struct irdma_ubuf - a user QP or CQ buffer (REG_MR of type QP or CQ)
 * @list: entry in ucontext->bufs while unused
 * @va: user address, the key create_qp/create_cq look it up by
 * @umem: the pinned pages
 * @type: IRDMA_MEMREG_TYPE_QP or IRDMA_MEMREG_TYPE_CQ
 * @sq_pages: QP: SQ pages
 * @rq_pages: QP: RQ pages
 * @cq_pages: CQ: ring pages
 * @in_use: taken by a QP or CQ (then off the list)
 * @leaked: the QP or CQ that used it could not be destroyed, so the
 *	adapter may still write it: its DEREG_MR keeps the pages pinned
 */
struct irdma_ubuf {
	struct list_head list;
	u64 va;
	struct ib_umem *umem;
	u16 type;
	u16 sq_pages;
	u16 rq_pages;
	u16 cq_pages;
	bool in_use;
	bool leaked;
};

/**
 * struct irdma_mr - a memory region, or a user QP/CQ buffer registration
 * @ibmr: the ib_mr; must stay the first member
 * @umem: pinned user pages (regions)
 * @ubuf: the QP/CQ buffer this registration stands for, or NULL
 * @stag: adapter STag (0 for QP/CQ buffers)
 * @pbl: where the region's pages are listed
 * @page_size: page size of the region's mapping
 * @hw: the STag is registered with the adapter
 * @fr_max: fast-register regions: pages the PBL holds
 * @fr_npages: fast-register regions: pages mapped by map_mr_sg
 */
struct irdma_mr {
	struct ib_mr ibmr;
	struct ib_umem *umem;
	struct irdma_ubuf *ubuf;
	u32 stag;
	struct irdma_pbl pbl;
	u64 page_size;
	bool hw;
	u32 fr_max;
	u32 fr_npages;
};

/**
 * struct irdma_kcq - the driver-side state of a kernel CQ
 * @ring: the ring and its shadow area (driver memory)
 * @flushed_sq: kernel QPs whose flushed SQ completes on this CQ
 *	(struct irdma_kqp.sq_flush)
 * @flushed_rq: kernel QPs whose flushed RQ completes on this CQ
 *	(struct irdma_kqp.rq_flush)
 * @old: the ring before the last resize, whose CQEs are polled before
 *	@ring's; its memory is freed at the next resize or at destroy
 *	(process context)
 * @old_live: @old may still hold CQEs not polled
 * @armed: the consumer asked for an event and none came since
 * @arm_solicited: that request was for solicited completions only
 * @cq: the CQ this is the state of
 * @notify: tells the consumer about completions the driver makes for a
 *	flushed QP (irdma_kcq_notify_work()), on the CPU of the CQ's vector
 * @lock: protects @ring's and @old's consumer state, polling, the two
 *	lists, @old_live, @armed and @arm_solicited
 */
struct irdma_kcq {
	struct irdma_cq_ring ring;
	struct irdma_cq_ring old;
	bool old_live;
	struct list_head flushed_sq;
	struct list_head flushed_rq;
	bool armed;
	bool arm_solicited;
	struct irdma_cq *cq;
	struct work_struct notify;
	spinlock_t lock;	/* see @lock above */
};

/**
 * struct irdma_cq - a completion queue
 * @ibcq: the ib_cq; must stay the first member
 * @id: adapter CQ id
 * @size: CQEs in the ring
 * @ceq_id: CEQ that receives its events
 * @ubuf: the user ring registration (user CQs)
 * @shadow_buf: the user shadow-area registration, if separate
 * @ring_pbl: the ring's placement
 * @shadow_pa: DMA address of the shadow area
 * @created: the adapter accepted CREATE_CQ
 * @err_reported: IB_EVENT_CQ_ERR was delivered (the AEQ's IRQ thread only)
 * @k: kernel CQ state, or NULL for a user CQ
 * @resize_lock: serialises resizes (uverbs runs them under a shared lock)
 */
struct irdma_cq {
	struct ib_cq ibcq;
	struct mutex resize_lock;	/* see @resize_lock above */
	u32 id;
	u32 size;
	u32 ceq_id;
	struct irdma_ubuf *ubuf;
	struct irdma_ubuf *shadow_buf;
	struct irdma_pbl ring_pbl;
	dma_addr_t shadow_pa;
	bool created;
	bool err_reported;
	struct irdma_kcq *k;
};

/**
 * struct irdma_sq_wr - what the driver remembers of a posted kernel send
 * @wr_id: consumer's id
 * @len: bytes (for the completion)
 * @quanta: quanta the WQE took
 * @op: hardware opcode (IRDMA_WQE_OP_NOP for padding)
 * @signaled: the consumer asked for a completion
 */
struct irdma_sq_wr {
	u64 wr_id;
	u32 len;
	u8 quanta;
	u8 op;
	bool signaled;
};

/**
 * struct irdma_kqp - the driver-side state of a kernel QP
 * @mem: SQ ring, RQ ring and shadow area, in that order
 * @sq: the SQ ring
 * @rq: the RQ ring
 * @sq_size: SQ quanta
 * @sq_head: next free SQ quantum
 * @sq_tail: oldest quantum not yet retired
 * @sq_pol: valid bit of the current SQ lap
 * @rq_size: RQ WQEs
 * @rq_head: next free RQ WQE
 * @rq_tail: oldest RQ WQE not yet completed
 * @rq_pol: valid bit of the current RQ lap
 * @sq_wrs: per SQ quantum: the WR that starts there
 * @rq_wrids: per RQ WQE: its wr_id
 * @sig_all: every send is signaled
 * @flushed: the QP is in ERROR and the adapter's flush is done: the
 *	driver completes every work request posted since, and any the
 *	flush left, with IB_WC_WR_FLUSH_ERR (irdma_poll_cq())
 * @sq_flush: on the send CQ's list of flushed queues
 * @rq_flush: on the receive CQ's list of flushed queues
 * @iwqp: the QP this state belongs to
 * @lock: protects the rings' producer and consumer state and @flushed
 */
struct irdma_kqp {
	struct irdma_dma_mem mem;
	struct irdma_wqe *sq;
	void *rq;
	u32 sq_size;
	u32 sq_head;
	u32 sq_tail;
	u8 sq_pol;
	u32 rq_size;
	u32 rq_head;
	u32 rq_tail;
	u8 rq_pol;
	struct irdma_sq_wr *sq_wrs;
	u64 *rq_wrids;
	bool sig_all;
	bool flushed;
	struct list_head sq_flush;
	struct list_head rq_flush;
	struct irdma_qp *iwqp;
	spinlock_t lock;	/* see @lock above */
};

/**
 * enum irdma_qp_flags - QP state bits
 * @IRDMA_QP_CREATED: the adapter accepted CREATE_QP
 * @IRDMA_QP_OFFLOADED: a connection was handed to the QP
 * @IRDMA_QP_ERROR: moved to ERROR
 */
enum irdma_qp_flags {
	IRDMA_QP_CREATED,
	IRDMA_QP_OFFLOADED,
	IRDMA_QP_ERROR,
};

/**
 * struct irdma_qp - an iWARP QP
 * @ibqp: the ib_qp; must stay the first member
 * @iwdev: device the QP belongs to
 * @cm: connection-manager state of the QP, owned by cm.c
 * @id: adapter QP id
 * @pd_id: PD
 * @refcnt: references: the QP table, iw_cm, the CM's hw ops
 * @free: completed when @refcnt drops to zero
 * @iw_handed: references irdma_iw_get_qp() took and the next iw_add_ref()
 *	takes over
 * @q2ctx: Q2 buffer (256 bytes) followed by the QP host context
 * @ubuf: the user QP buffer registration
 * @sq_pbl: the SQ ring's placement
 * @rq_pbl: the RQ ring's placement
 * @shadow_pa: DMA address of the doorbell shadow area
 * @sq_quanta: SQ ring size in 32-byte quanta
 * @rq_quanta: RQ ring size in 32-byte quanta
 * @rq_shift: log2 of the RQ WQE size in quanta
 * @cap: the capacities granted at create, as query_qp reports them
 * @compl_ctx: completion context the adapter echoes in CQEs
 * @send_cq: send CQ id
 * @recv_cq: receive CQ id
 * @lsmm: the MPA reply sent by the LSMM WQE (passive side)
 * @lsmm_stag: STag registered over @lsmm
 * @ib_state: state as seen by the verbs
 * @hw_state: enum irdma_qp_state_hw last requested
 * @term_len: 32-bit words of the TERMINATE irdma_qp_term_build() left at
 *	the start of Q2, 0 for none; written by the AEQ's IRQ thread before
 *	it tells the CM, read by the modify to TERMINATE
 * @flags: enum irdma_qp_flags bits
 * @rd_en: remote reads allowed (access flags)
 * @wr_en: remote writes allowed (access flags)
 * @state_lock: serialises modify_qp, the offload and destroy
 * @k: kernel QP state, or NULL for a user QP
 */
struct irdma_qp {
	struct ib_qp ibqp;
	struct irdma_device *iwdev;
	struct irdma_qp_cm cm;
	u32 id;
	u32 pd_id;
	refcount_t refcnt;
	struct completion free;
	atomic_t iw_handed;
	struct irdma_dma_mem q2ctx;
	struct irdma_ubuf *ubuf;
	struct irdma_pbl sq_pbl;
	struct irdma_pbl rq_pbl;
	dma_addr_t shadow_pa;
	u32 sq_quanta;
	u32 rq_quanta;
	u8 rq_shift;
	struct ib_qp_cap cap;
	u64 compl_ctx;
	u32 send_cq;
	u32 recv_cq;
	struct irdma_dma_mem lsmm;
	u32 lsmm_stag;
	enum ib_qp_state ib_state;
	u8 hw_state;
	u8 term_len;
	unsigned long flags;
	bool rd_en;
	bool wr_en;
	struct mutex state_lock;	/* see @state_lock above */
	struct irdma_kqp *k;
};

/**
 * to_iwdev() - irdma device from an ib_device
 * @ibdev: ib_device embedded in a struct irdma_device
 *
 * Return: the containing irdma device.
 */
static inline struct irdma_device *to_iwdev(struct ib_device *ibdev)
{
	return container_of(ibdev, struct irdma_device, ibdev);
}

/**
 * to_iwqp() - irdma QP from an ib_qp
 * @ibqp: ib_qp embedded in a struct irdma_qp
 *
 * Return: the containing irdma QP.
 */
static inline struct irdma_qp *to_iwqp(struct ib_qp *ibqp)
{
	return container_of(ibqp, struct irdma_qp, ibqp);
}

/**
 * to_icq() - irdma CQ from an ib_cq
 * @ibcq: ib_cq embedded in a struct irdma_cq
 *
 * Return: the containing irdma CQ.
 */
static inline struct irdma_cq *to_icq(struct ib_cq *ibcq)
{
	return container_of(ibcq, struct irdma_cq, ibcq);
}

#endif /* IRDMA_TYPE_H */
