/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * irdma - hardware formats of the Intel E810 (GEN_2) / X722 (GEN_1) RDMA
 * function: registers, control-QP work queue elements, completion and event
 * queue elements, contexts and constants.
 *
 * This header is shared by the driver and by the software model of the
 * adapter (sim/), so both agree on every bit by construction.
 *
 * Conventions: every descriptor is an array of little-endian 64-bit words.
 * A word is named by its index (IRDMA_<OBJ>_QW<n>_...), never by a byte
 * offset; a field mask is a GENMASK_ULL()/BIT_ULL() within that word and is
 * accessed with le64_encode_bits()/le64_get_bits().  The valid bit of a
 * descriptor lives in its header word, which is always written last, after
 * dma_wmb(), so the consumer never sees a half-written descriptor.
 */
#ifndef IRDMA_DEFS_H
#define IRDMA_DEFS_H

#include <linux/bitfield.h>
#include <linux/bits.h>
#include <linux/build_bug.h>
#include <linux/sizes.h>
#include <linux/types.h>

/* ------------------------------------------------------------------------ */
/* Generations                                                              */
/* ------------------------------------------------------------------------ */

/**
 * enum irdma_gen - hardware generation of the RDMA function
 * @IRDMA_GEN_1: X722 (i40iw)
 * @IRDMA_GEN_2: E810 (ice)
 */
enum irdma_gen {
	IRDMA_GEN_1 = 1,
	IRDMA_GEN_2 = 2,
};

/* ------------------------------------------------------------------------ */
/* Registers (BAR0, 32-bit access)                                          */
/* ------------------------------------------------------------------------ */

/**
 * enum irdma_reg - index into a generation's register offset table
 * @IRDMA_REG_CQPTAIL: CQP SQ tail as completed by hardware; bit 31 = error
 * @IRDMA_REG_CQPDB: CQP doorbell: new SQ head index
 * @IRDMA_REG_CCQPSTATUS: CQP create/destroy status: bit 0 done, bit 31 error
 * @IRDMA_REG_CCQPHIGH: CQP host context PA, upper 32 bits (written first)
 * @IRDMA_REG_CCQPLOW: CQP host context PA, lower 32 bits (starts create)
 * @IRDMA_REG_CQARM: CQ arm doorbell: CQ id
 * @IRDMA_REG_CQACK: CQ acknowledge: CQ id, once per CEQE consumed
 * @IRDMA_REG_AEQALLOC: AEQ credit return: number of AEQEs consumed
 * @IRDMA_REG_CQPERRCODES: CQP error codes: 31:16 major, 15:0 minor
 * @IRDMA_REG_WQEALLOC: kernel QP SQ doorbell: QP id
 * @IRDMA_REG_LBARCTRL: doorbell BAR size in bits 5:4
 * @IRDMA_REG_CPUSTATUS0: firmware ready when it reads IRDMA_CPU_READY
 * @IRDMA_REG_CPUSTATUS1: firmware ready when it reads IRDMA_CPU_READY
 * @IRDMA_REG_CPUSTATUS2: firmware ready when it reads IRDMA_CPU_READY
 * @IRDMA_REG_AEQCTL: AEQ interrupt cause routing
 * @IRDMA_REG_CEQCTL0: CEQ interrupt cause routing, CEQ 0 (CEQ n at +4n)
 * @IRDMA_REG_DYN_CTL0: interrupt enable/re-arm, vector 0 (vector n at +4n)
 * @IRDMA_REG_PDINV: HMC page-descriptor invalidate
 * @IRDMA_REG_CRITERR: critical-error cause
 * @IRDMA_REG_NUM: number of entries
 */
enum irdma_reg {
	IRDMA_REG_CQPTAIL,
	IRDMA_REG_CQPDB,
	IRDMA_REG_CCQPSTATUS,
	IRDMA_REG_CCQPHIGH,
	IRDMA_REG_CCQPLOW,
	IRDMA_REG_CQARM,
	IRDMA_REG_CQACK,
	IRDMA_REG_AEQALLOC,
	IRDMA_REG_CQPERRCODES,
	IRDMA_REG_WQEALLOC,
	IRDMA_REG_LBARCTRL,
	IRDMA_REG_CPUSTATUS0,
	IRDMA_REG_CPUSTATUS1,
	IRDMA_REG_CPUSTATUS2,
	IRDMA_REG_AEQCTL,
	IRDMA_REG_CEQCTL0,
	IRDMA_REG_DYN_CTL0,
	IRDMA_REG_PDINV,
	IRDMA_REG_CRITERR,
	IRDMA_REG_NUM
};

/* E810 (GEN_2) PF register offsets. */
#define IRDMA_GEN2_CQPTAIL		0x00500880
#define IRDMA_GEN2_CQPDB		0x00500800
#define IRDMA_GEN2_CCQPSTATUS		0x0050a000
#define IRDMA_GEN2_CCQPHIGH		0x0050a100
#define IRDMA_GEN2_CCQPLOW		0x0050a080
#define IRDMA_GEN2_CQARM		0x00502c00
#define IRDMA_GEN2_CQACK		0x00502c80
#define IRDMA_GEN2_AEQALLOC		0x00502d00
#define IRDMA_GEN2_CQPERRCODES		0x0050a200
#define IRDMA_GEN2_WQEALLOC		0x00504400
#define IRDMA_GEN2_LBARCTRL		0x0009de74
#define IRDMA_GEN2_CPUSTATUS0		0x0050ba5c
#define IRDMA_GEN2_CPUSTATUS1		0x0050ba60
#define IRDMA_GEN2_CPUSTATUS2		0x0050ba64
#define IRDMA_GEN2_AEQCTL		0x0016cb00
#define IRDMA_GEN2_CEQCTL0		0x0015c000
#define IRDMA_GEN2_DYN_CTL0		0x00160000
#define IRDMA_GEN2_PDINV		0x00520300
#define IRDMA_GEN2_CRITERR		0x00534000
/* Start of the user doorbell page inside BAR0 (an offset, not a register). */
#define IRDMA_GEN2_DB_PAGE_OFFSET	0x007f0000
#define IRDMA_GEN2_MAX_VECTORS		2048

/* X722 (GEN_1) PF register offsets. */
#define IRDMA_GEN1_CQPTAIL		0x00008080
#define IRDMA_GEN1_CQPDB		0x00008000
#define IRDMA_GEN1_CCQPSTATUS		0x00008100
#define IRDMA_GEN1_CCQPHIGH		0x00008200
#define IRDMA_GEN1_CCQPLOW		0x00008180
#define IRDMA_GEN1_CQARM		0x00131080
#define IRDMA_GEN1_CQACK		0x00131100
#define IRDMA_GEN1_AEQALLOC		0x00131180
#define IRDMA_GEN1_CQPERRCODES		0x00008880
#define IRDMA_GEN1_WQEALLOC		0x00138c00
#define IRDMA_GEN1_LBARCTRL		0x000be484
#define IRDMA_GEN1_CPUSTATUS0		0x0000d040
#define IRDMA_GEN1_CPUSTATUS1		0x0000d044
#define IRDMA_GEN1_CPUSTATUS2		0x0000d048
#define IRDMA_GEN1_AEQCTL		0x00038700
#define IRDMA_GEN1_CEQCTL0		0x00036800
#define IRDMA_GEN1_DYN_CTL0		0x00034800
#define IRDMA_GEN1_PDINV		0x000c0300
#define IRDMA_GEN1_CRITERR		0x000b4000
#define IRDMA_GEN1_DB_PAGE_OFFSET	0x003f0000

/* CQPTAIL */
#define IRDMA_CQPTAIL_WQTAIL		GENMASK(10, 0)
#define IRDMA_CQPTAIL_ERR		BIT(31)
/* CCQPSTATUS */
#define IRDMA_CCQPSTATUS_DONE		BIT(0)
#define IRDMA_CCQPSTATUS_ERR		BIT(31)
/* CQPERRCODES */
#define IRDMA_CQPERRCODES_MINOR		GENMASK(15, 0)
#define IRDMA_CQPERRCODES_MAJOR		GENMASK(31, 16)
/* LBARCTRL: doorbell BAR size, 1 = 4 MiB, 2 = 8 MiB */
#define IRDMA_LBARCTRL_PE_DB_SIZE	GENMASK(5, 4)
#define IRDMA_PE_DB_SIZE_4M		1
#define IRDMA_PE_DB_SIZE_8M		2
/* CPUSTATUSn: value once firmware is ready */
#define IRDMA_CPU_READY			0x80
/* AEQCTL and CEQCTL(n): route a cause to an MSI-X vector */
#define IRDMA_QCTL_MSIX_INDX		GENMASK(10, 0)
#define IRDMA_QCTL_ITR_INDX		GENMASK(12, 11)
#define IRDMA_QCTL_CAUSE_ENA		BIT(30)
#define IRDMA_ITR_INDX_NONE		3
/* DYN_CTL(n): enable/re-arm a vector */
#define IRDMA_DYN_CTL_INTENA		BIT(0)
#define IRDMA_DYN_CTL_CLEARPBA		BIT(1)
#define IRDMA_DYN_CTL_ITR_INDX		GENMASK(4, 3)
#define IRDMA_DYN_CTL_INTERVAL		GENMASK(16, 5)
/* PDINV */
#define IRDMA_PDINV_SDIDX		GENMASK(11, 0)
#define IRDMA_PDINV_PARTSEL		BIT(15)
#define IRDMA_PDINV_PDIDX		GENMASK(24, 16)
/* CRITERR value that only means "Q1 resource check" */
#define IRDMA_CRITERR_Q1_RESOURCE	0x0001024d
/*
 * The LAN function's interrupt cause (OICR) bits that an error of the RDMA
 * function sets; the LAN driver passes them on (ice: event->reg of its
 * critical-error event).  The cause of a PE_CRITERR is in CRITERR.
 */
#define IRDMA_OICR_HMC_ERR		BIT(26)
#define IRDMA_OICR_PE_PUSH		BIT(27)
#define IRDMA_OICR_PE_CRITERR		BIT(28)
/* User doorbell page: 32-bit stores of an id at these byte offsets */
#define IRDMA_DB_PAGE_WQEALLOC		0x00
#define IRDMA_DB_PAGE_CQARM		0x40

/* ------------------------------------------------------------------------ */
/* CQP host context (written by the driver before the create handshake)     */
/* ------------------------------------------------------------------------ */

#define IRDMA_CQP_CTX_QW0		0
/* disable partial-FPDU handling */
#define IRDMA_CQP_CTX_QW0_DISABLE_PFPDUS	BIT_ULL(1)
/* RoCEv2 RTO policy (GEN_2) */
#define IRDMA_CQP_CTX_QW0_ROCEV2_RTO_POLICY	BIT_ULL(2)
/* protocol used: enum irdma_protocol_used (GEN_2) */
#define IRDMA_CQP_CTX_QW0_PROTOCOL_USED	GENMASK_ULL(4, 3)
/* SQ size, encoded log2(entries) - 1 */
#define IRDMA_CQP_CTX_QW0_SQSIZE	GENMASK_ULL(11, 8)
/* structure version */
#define IRDMA_CQP_CTX_QW0_SVER		GENMASK_ULL(31, 24)
/* CEQs per VF */
#define IRDMA_CQP_CTX_QW0_CEQS_PER_VF	GENMASK_ULL(39, 32)
#define IRDMA_CQP_CTX_QW1		1	/* CQP SQ base PA, 512-byte aligned */
#define IRDMA_CQP_CTX_QW2		2
/* HMC profile: 1 default, 2 favour VF, 3 equal */
#define IRDMA_CQP_CTX_QW2_HMC_PROFILE	GENMASK_ULL(2, 0)
/* number of enabled VFs */
#define IRDMA_CQP_CTX_QW2_ENABLED_VFS	GENMASK_ULL(37, 32)
#define IRDMA_CQP_CTX_QW3		3	/* completion context, echoed in CCQ CQE QW1 */
#define IRDMA_CQP_CTX_QW4		4
/* hardware minor version */
#define IRDMA_CQP_CTX_QW4_HW_MINOR	GENMASK_ULL(15, 0)
/* hardware major version: 0 GEN_1, 1 GEN_2 */
#define IRDMA_CQP_CTX_QW4_HW_MAJOR	GENMASK_ULL(31, 16)
#define IRDMA_CQP_CTX_WORDS		8

/**
 * struct irdma_cqp_ctx - CQP host context, 64 bytes
 * @qw: the eight little-endian words, see IRDMA_CQP_CTX_QW*
 */
struct irdma_cqp_ctx {
	__le64 qw[IRDMA_CQP_CTX_WORDS];
};

static_assert(sizeof(struct irdma_cqp_ctx) == 64);

/**
 * enum irdma_protocol_used - QW0 PROTOCOL_USED of the CQP context
 * @IRDMA_PROTOCOL_ANY: iWARP and RoCE
 * @IRDMA_PROTOCOL_IWARP: iWARP only
 * @IRDMA_PROTOCOL_ROCE: RoCE only
 */
enum irdma_protocol_used {
	IRDMA_PROTOCOL_ANY = 0,
	IRDMA_PROTOCOL_IWARP = 1,
	IRDMA_PROTOCOL_ROCE = 2,
};

#define IRDMA_HMC_PROFILE_DEFAULT	1
#define IRDMA_CQP_HW_MAJOR_GEN1		0
#define IRDMA_CQP_HW_MAJOR_GEN2		1

/* ------------------------------------------------------------------------ */
/* CQP work queue element (64 bytes)                                        */
/* ------------------------------------------------------------------------ */

#define IRDMA_CQP_WQE_WORDS		8
#define IRDMA_CQP_WQE_HDR		3	/* header word index */
/* opcode, enum irdma_cqp_op */
#define IRDMA_CQP_HDR_OPCODE		GENMASK_ULL(37, 32)
/* TPH enable (CQ/CEQ ops) */
#define IRDMA_CQP_HDR_TPHEN		BIT_ULL(60)
/* valid: equals the producer's lap polarity */
#define IRDMA_CQP_HDR_VALID		BIT_ULL(63)

/**
 * struct irdma_cqp_wqe - one control-QP work queue element
 * @qw: eight little-endian words; qw[IRDMA_CQP_WQE_HDR] is written last
 */
struct irdma_cqp_wqe {
	__le64 qw[IRDMA_CQP_WQE_WORDS];
};

static_assert(sizeof(struct irdma_cqp_wqe) == 64);

#define IRDMA_CQP_SQ_SIZE_MIN		4
#define IRDMA_CQP_SQ_SIZE_MAX		2048
#define IRDMA_CQP_SQ_ALIGN		512

/**
 * enum irdma_cqp_op - hardware CQP opcodes (QW3 bits 37:32)
 * @IRDMA_CQP_OP_CREATE_QP: create a QP
 * @IRDMA_CQP_OP_MODIFY_QP: change a QP's state and/or context
 * @IRDMA_CQP_OP_DESTROY_QP: destroy a QP
 * @IRDMA_CQP_OP_CREATE_CQ: create a CQ
 * @IRDMA_CQP_OP_MODIFY_CQ: resize a CQ
 * @IRDMA_CQP_OP_DESTROY_CQ: destroy a CQ
 * @IRDMA_CQP_OP_ALLOC_STAG: allocate an MR or MW STag
 * @IRDMA_CQP_OP_REG_MR: register a non-shared MR
 * @IRDMA_CQP_OP_QUERY_STAG: query an STag
 * @IRDMA_CQP_OP_REG_SMR: register a shared MR
 * @IRDMA_CQP_OP_DEALLOC_STAG: deallocate an STag
 * @IRDMA_CQP_OP_MANAGE_LOC_MAC_TABLE: local MAC table entry (GEN_1)
 * @IRDMA_CQP_OP_MANAGE_ARP: ARP cache entry add/delete
 * @IRDMA_CQP_OP_MANAGE_VF_PBLE_BP: VF PBLE backing pages
 * @IRDMA_CQP_OP_MANAGE_PUSH_PAGES: push page allocate/free
 * @IRDMA_CQP_OP_QUERY_RDMA_FEATURES: read the feature list
 * @IRDMA_CQP_OP_UPLOAD_CONTEXT: copy a QP context to host memory
 * @IRDMA_CQP_OP_ALLOC_LOC_MAC_TABLE_ENTRY: allocate a local MAC entry (GEN_1)
 * @IRDMA_CQP_OP_MANAGE_HMC_PM_FUNC_TABLE: HMC function table
 * @IRDMA_CQP_OP_CREATE_CEQ: create a CEQ
 * @IRDMA_CQP_OP_DESTROY_CEQ: destroy a CEQ
 * @IRDMA_CQP_OP_CREATE_AEQ: create the AEQ
 * @IRDMA_CQP_OP_DESTROY_AEQ: destroy the AEQ
 * @IRDMA_CQP_OP_CREATE_ADDR_HANDLE: create an address handle
 * @IRDMA_CQP_OP_MODIFY_ADDR_HANDLE: modify an address handle
 * @IRDMA_CQP_OP_DESTROY_ADDR_HANDLE: destroy an address handle
 * @IRDMA_CQP_OP_UPDATE_PE_SDS: program HMC segment descriptors
 * @IRDMA_CQP_OP_QUERY_FPM_VAL: read HMC object limits and sizes
 * @IRDMA_CQP_OP_COMMIT_FPM_VAL: commit HMC object counts, get bases
 * @IRDMA_CQP_OP_FLUSH_WQES: flush SQ/RQ WQEs, or generate an AE
 * @IRDMA_CQP_OP_MANAGE_APBVT: add/delete a local TCP port
 * @IRDMA_CQP_OP_NOP: no operation
 * @IRDMA_CQP_OP_MANAGE_QHASH: quad-hash steering entry
 * @IRDMA_CQP_OP_CREATE_MCAST_GRP: multicast group create
 * @IRDMA_CQP_OP_MODIFY_MCAST_GRP: multicast group modify
 * @IRDMA_CQP_OP_DESTROY_MCAST_GRP: multicast group destroy
 * @IRDMA_CQP_OP_SUSPEND_QP: suspend a QP
 * @IRDMA_CQP_OP_RESUME_QP: resume a QP
 * @IRDMA_CQP_OP_SHMC_PAGES_ALLOCATED: all bring-up HMC pages are programmed
 * @IRDMA_CQP_OP_WORK_SCHED_NODE: work-scheduler tree node
 * @IRDMA_CQP_OP_MANAGE_STATS: statistics instance allocate/free
 * @IRDMA_CQP_OP_GATHER_STATS: dump statistics into host memory
 * @IRDMA_CQP_OP_UP_MAP: user-priority map
 * @IRDMA_CQP_OP_MAX: first value that is not an opcode
 */
enum irdma_cqp_op {
	IRDMA_CQP_OP_CREATE_QP = 0x00,
	IRDMA_CQP_OP_MODIFY_QP = 0x01,
	IRDMA_CQP_OP_DESTROY_QP = 0x02,
	IRDMA_CQP_OP_CREATE_CQ = 0x03,
	IRDMA_CQP_OP_MODIFY_CQ = 0x04,
	IRDMA_CQP_OP_DESTROY_CQ = 0x05,
	IRDMA_CQP_OP_ALLOC_STAG = 0x09,
	IRDMA_CQP_OP_REG_MR = 0x0a,
	IRDMA_CQP_OP_QUERY_STAG = 0x0b,
	IRDMA_CQP_OP_REG_SMR = 0x0c,
	IRDMA_CQP_OP_DEALLOC_STAG = 0x0d,
	IRDMA_CQP_OP_MANAGE_LOC_MAC_TABLE = 0x0e,
	IRDMA_CQP_OP_MANAGE_ARP = 0x0f,
	IRDMA_CQP_OP_MANAGE_VF_PBLE_BP = 0x10,
	IRDMA_CQP_OP_MANAGE_PUSH_PAGES = 0x11,
	IRDMA_CQP_OP_QUERY_RDMA_FEATURES = 0x12,
	IRDMA_CQP_OP_UPLOAD_CONTEXT = 0x13,
	IRDMA_CQP_OP_ALLOC_LOC_MAC_TABLE_ENTRY = 0x14,
	IRDMA_CQP_OP_MANAGE_HMC_PM_FUNC_TABLE = 0x15,
	IRDMA_CQP_OP_CREATE_CEQ = 0x16,
	IRDMA_CQP_OP_DESTROY_CEQ = 0x18,
	IRDMA_CQP_OP_CREATE_AEQ = 0x19,
	IRDMA_CQP_OP_DESTROY_AEQ = 0x1b,
	IRDMA_CQP_OP_CREATE_ADDR_HANDLE = 0x1c,
	IRDMA_CQP_OP_MODIFY_ADDR_HANDLE = 0x1d,
	IRDMA_CQP_OP_DESTROY_ADDR_HANDLE = 0x1e,
	IRDMA_CQP_OP_UPDATE_PE_SDS = 0x1f,
	IRDMA_CQP_OP_QUERY_FPM_VAL = 0x20,
	IRDMA_CQP_OP_COMMIT_FPM_VAL = 0x21,
	IRDMA_CQP_OP_FLUSH_WQES = 0x22,
	IRDMA_CQP_OP_MANAGE_APBVT = 0x23,
	IRDMA_CQP_OP_NOP = 0x24,
	IRDMA_CQP_OP_MANAGE_QHASH = 0x25,
	IRDMA_CQP_OP_CREATE_MCAST_GRP = 0x26,
	IRDMA_CQP_OP_MODIFY_MCAST_GRP = 0x27,
	IRDMA_CQP_OP_DESTROY_MCAST_GRP = 0x28,
	IRDMA_CQP_OP_SUSPEND_QP = 0x29,
	IRDMA_CQP_OP_RESUME_QP = 0x2a,
	IRDMA_CQP_OP_SHMC_PAGES_ALLOCATED = 0x2b,
	IRDMA_CQP_OP_WORK_SCHED_NODE = 0x2c,
	IRDMA_CQP_OP_MANAGE_STATS = 0x2d,
	IRDMA_CQP_OP_GATHER_STATS = 0x2e,
	IRDMA_CQP_OP_UP_MAP = 0x2f,
	IRDMA_CQP_OP_MAX = 0x30,
};

/* GEN_AE shares the FLUSH_WQES opcode (QW3 GENERATE_AE set, no flush bits). */
#define IRDMA_CQP_OP_GEN_AE		IRDMA_CQP_OP_FLUSH_WQES

/* --- CREATE_CQ / MODIFY_CQ / DESTROY_CQ --------------------------------- */
#define IRDMA_CQP_CQ_QW0		0
#define IRDMA_CQP_CQ_QW0_SIZE		GENMASK_ULL(20, 0)	/* CQ size in CQEs */
#define IRDMA_CQP_CQ_QW1		1
/* CQ context, the host's CQ handle >> 1; returned in CEQEs/AEQEs */
#define IRDMA_CQP_CQ_QW1_CTX		GENMASK_ULL(62, 0)
#define IRDMA_CQP_CQ_QW2		2
#define IRDMA_CQP_CQ_QW2_SHADOW_READ_THRESHOLD	GENMASK_ULL(17, 0)
#define IRDMA_CQP_CQ_RING_PA		4	/* 0 when virtually mapped */
#define IRDMA_CQP_CQ_SHADOW_PA		5
#define IRDMA_CQP_CQ_QW6		6
#define IRDMA_CQP_CQ_QW6_FIRST_PBLE	GENMASK_ULL(27, 0)
#define IRDMA_CQP_QW7_TPHVAL		GENMASK_ULL(7, 0)
#define IRDMA_CQP_QW7_VSIIDX		GENMASK_ULL(17, 8)
/* QW3 */
#define IRDMA_CQP_CQ_QW3_GEN2_CQID	GENMASK_ULL(18, 0)
#define IRDMA_CQP_CQ_QW3_GEN2_CEQID	GENMASK_ULL(31, 22)
#define IRDMA_CQP_CQ_QW3_GEN1_CQID	GENMASK_ULL(15, 0)
#define IRDMA_CQP_CQ_QW3_GEN1_CEQID	GENMASK_ULL(30, 24)
/* MODIFY_CQ: resize */
#define IRDMA_CQP_CQ_QW3_CQRESIZE	BIT_ULL(43)
/* PBL level: 0 contiguous, 1 one level, 3 two level */
#define IRDMA_CQP_QW3_LPBLSIZE		GENMASK_ULL(45, 44)
#define IRDMA_CQP_CQ_QW3_CHKOVERFLOW	BIT_ULL(46)
#define IRDMA_CQP_QW3_VIRTMAP		BIT_ULL(47)
#define IRDMA_CQP_CQ_QW3_ENCEQEMASK	BIT_ULL(48)
#define IRDMA_CQP_CQ_QW3_CEQIDVALID	BIT_ULL(49)
#define IRDMA_CQP_CQ_QW3_AVOIDMEMCNFLCT	BIT_ULL(61)

/* --- CREATE_CEQ / DESTROY_CEQ ------------------------------------------- */
#define IRDMA_CQP_CEQ_QW2		2
#define IRDMA_CQP_CEQ_QW2_ELEMCNT	GENMASK_ULL(21, 0)
#define IRDMA_CQP_CEQ_RING_PA		4
#define IRDMA_CQP_CEQ_QW6		6
#define IRDMA_CQP_CEQ_QW6_FIRST_PBLE	GENMASK_ULL(27, 0)
#define IRDMA_CQP_CEQ_QW3_CEQID		GENMASK_ULL(9, 0)
#define IRDMA_CQP_CEQ_QW3_ITRNOEXPIRE	BIT_ULL(46)

/* --- CREATE_AEQ / DESTROY_AEQ ------------------------------------------- */
#define IRDMA_CQP_AEQ_QW2		2
#define IRDMA_CQP_AEQ_QW2_ELEMCNT	GENMASK_ULL(18, 0)
#define IRDMA_CQP_AEQ_RING_PA		4
#define IRDMA_CQP_AEQ_QW6		6
#define IRDMA_CQP_AEQ_QW6_FIRST_PBLE	GENMASK_ULL(27, 0)

/* --- QUERY_FPM_VAL / COMMIT_FPM_VAL --------------------------------------- */
#define IRDMA_CQP_FPM_QW2		2
#define IRDMA_CQP_FPM_QW2_HMC_FN_ID	GENMASK_ULL(5, 0)
#define IRDMA_CQP_FPM_BUF_PA		4	/* the 176-byte buffer */
#define IRDMA_CQP_FPM_QW3_BUF_LEN	GENMASK_ULL(31, 0)	/* commit only */
#define IRDMA_FPM_BUF_WORDS		22
#define IRDMA_FPM_BUF_SIZE		(IRDMA_FPM_BUF_WORDS * 8)

/**
 * enum irdma_hmc_obj - HMC object types
 * @IRDMA_HMC_QP: QP contexts
 * @IRDMA_HMC_CQ: CQ contexts
 * @IRDMA_HMC_RSVD: reserved
 * @IRDMA_HMC_HTE: hash table entries
 * @IRDMA_HMC_ARP: ARP cache
 * @IRDMA_HMC_APBVT: TCP port bit vector
 * @IRDMA_HMC_MR: memory regions/windows
 * @IRDMA_HMC_XF: transmit FIFO
 * @IRDMA_HMC_XFFL: transmit FIFO free list
 * @IRDMA_HMC_Q1: inbound RDMA read queue
 * @IRDMA_HMC_Q1FL: Q1 free list
 * @IRDMA_HMC_TIMER: timer buckets
 * @IRDMA_HMC_FSIMC: multicast
 * @IRDMA_HMC_FSIAV: address vectors (AHs)
 * @IRDMA_HMC_PBLE: physical buffer list entries
 * @IRDMA_HMC_RRF: read response FIFO
 * @IRDMA_HMC_RRFFL: RRF free list
 * @IRDMA_HMC_HDR: headers
 * @IRDMA_HMC_MD: metadata
 * @IRDMA_HMC_OOISC: out-of-order iSCSI
 * @IRDMA_HMC_OOISCFFL: OOISC free list
 * @IRDMA_HMC_OBJ_NUM: number of types
 */
enum irdma_hmc_obj {
	IRDMA_HMC_QP = 0,
	IRDMA_HMC_CQ = 1,
	IRDMA_HMC_RSVD = 2,
	IRDMA_HMC_HTE = 3,
	IRDMA_HMC_ARP = 4,
	IRDMA_HMC_APBVT = 5,
	IRDMA_HMC_MR = 6,
	IRDMA_HMC_XF = 7,
	IRDMA_HMC_XFFL = 8,
	IRDMA_HMC_Q1 = 9,
	IRDMA_HMC_Q1FL = 10,
	IRDMA_HMC_TIMER = 11,
	IRDMA_HMC_FSIMC = 12,
	IRDMA_HMC_FSIAV = 13,
	IRDMA_HMC_PBLE = 14,
	IRDMA_HMC_RRF = 15,
	IRDMA_HMC_RRFFL = 16,
	IRDMA_HMC_HDR = 17,
	IRDMA_HMC_MD = 18,
	IRDMA_HMC_OOISC = 19,
	IRDMA_HMC_OOISCFFL = 20,
	IRDMA_HMC_OBJ_NUM
};

/*
 * Query buffer (device -> driver).  Word 0 describes the SD space, word 15
 * misc limits; every other object word holds max count in 31:0 and log2 of
 * the object size in 63:32 (a free-list word holds the block size there).
 */
#define IRDMA_FPM_QUERY_QW0		0
#define IRDMA_FPM_QUERY_QW0_FIRST_SD	GENMASK_ULL(13, 0)
#define IRDMA_FPM_QUERY_QW0_MAX_SDS	GENMASK_ULL(45, 32)
#define IRDMA_FPM_QUERY_MAX_CNT		GENMASK_ULL(31, 0)
#define IRDMA_FPM_QUERY_QP_MAX_CNT	GENMASK_ULL(18, 0)
#define IRDMA_FPM_QUERY_CQ_MAX_CNT	GENMASK_ULL(19, 0)
#define IRDMA_FPM_QUERY_LOG2_SIZE	GENMASK_ULL(63, 32)
#define IRDMA_FPM_QUERY_BLOCK_SIZE	GENMASK_ULL(63, 32)
#define IRDMA_FPM_QUERY_MISC		15
#define IRDMA_FPM_QUERY_MISC_MAX_CEQS	GENMASK_ULL(9, 0)
#define IRDMA_FPM_QUERY_MISC_HTMULT	GENMASK_ULL(19, 16)
#define IRDMA_FPM_QUERY_MISC_TIMER_BKT	GENMASK_ULL(47, 32)
/*
 * Commit buffer (driver -> device, written back by the device).  Each word
 * holds the count in its low bits and, written back, the object's base in
 * FPM space in 512-byte units in 63:32.
 */
#define IRDMA_FPM_COMMIT_QP_CNT		GENMASK_ULL(18, 0)
#define IRDMA_FPM_COMMIT_GEN2_CQ_CNT	GENMASK_ULL(19, 0)
#define IRDMA_FPM_COMMIT_GEN1_CQ_CNT	GENMASK_ULL(17, 0)
#define IRDMA_FPM_COMMIT_CNT		GENMASK_ULL(31, 0)
#define IRDMA_FPM_COMMIT_BASE		GENMASK_ULL(63, 32)
#define IRDMA_FPM_BASE_UNIT		512

/**
 * irdma_fpm_query_word() - index of an object's word in the query buffer
 * @obj: HMC object type (not APBVT, which the buffer does not describe)
 *
 * The query buffer starts with the SD-space word, so QP..ARP sit one word
 * after their type number; MR..PBLE sit at their type number (the APBVT
 * has no word); word 15 is the misc word, so RRF..OOISCFFL sit one word
 * after their type number again.
 *
 * Return: word index.
 */
static inline unsigned int irdma_fpm_query_word(enum irdma_hmc_obj obj)
{
	return obj <= IRDMA_HMC_ARP || obj >= IRDMA_HMC_RRF ? obj + 1 : obj;
}

/**
 * irdma_fpm_commit_word() - index of an object's word in the commit buffer
 * @obj: HMC object type
 *
 * Words follow the type numbers up to PBLE; word 15 is reserved, so
 * RRF..OOISCFFL sit one word after their type number.
 *
 * Return: word index.
 */
static inline unsigned int irdma_fpm_commit_word(enum irdma_hmc_obj obj)
{
	return obj >= IRDMA_HMC_RRF ? obj + 1 : obj;
}

static_assert(IRDMA_HMC_OOISCFFL + 1 == IRDMA_FPM_BUF_WORDS - 1);

/* --- UPDATE_PE_SDS ------------------------------------------------------ */
/* three entries in the descriptor, each a command word and a data word */
#define IRDMA_CQP_SDS_ENTRY0_CMD	0
#define IRDMA_CQP_SDS_ENTRY0_DATA	1
#define IRDMA_CQP_SDS_ENTRY1_CMD	4
#define IRDMA_CQP_SDS_ENTRY1_DATA	5
#define IRDMA_CQP_SDS_ENTRY2_CMD	6
#define IRDMA_CQP_SDS_ENTRY2_DATA	7
#define IRDMA_CQP_SDS_QW2		2
#define IRDMA_CQP_SDS_QW2_HMC_FN_ID	GENMASK_ULL(5, 0)
#define IRDMA_CQP_SDS_QW2_OVERFLOW_PA	GENMASK_ULL(63, 6)
#define IRDMA_CQP_SDS_QW3_OVERFLOW_CNT	GENMASK_ULL(3, 0)
#define IRDMA_CQP_SDS_ENTRY_VALID	BIT_ULL(63)	/* entries 1 and 2 */
#define IRDMA_SD_CMD_IDX		GENMASK_ULL(11, 0)
#define IRDMA_SD_CMD_PARTSEL		BIT_ULL(15)
#define IRDMA_SD_CMD_WRITE		BIT_ULL(31)
#define IRDMA_SD_DATA_VALID		BIT_ULL(0)
#define IRDMA_SD_DATA_DIRECT		BIT_ULL(1)
#define IRDMA_SD_DATA_BP_COUNT		GENMASK_ULL(11, 2)
#define IRDMA_SD_DATA_PA		GENMASK_ULL(63, 12)
#define IRDMA_SDS_PER_WQE_MAX		11
#define IRDMA_SDS_IN_WQE		3
#define IRDMA_SD_OVERFLOW_BUF_SIZE	128	/* per CQP WQE index */
#define IRDMA_HMC_SD_SIZE		SZ_2M
#define IRDMA_HMC_PD_PAGES		512

/* --- SHMC_PAGES_ALLOCATED ------------------------------------------------ */
#define IRDMA_CQP_SHMC_QW2		2
#define IRDMA_CQP_SHMC_QW2_HMC_FN_ID	GENMASK_ULL(5, 0)

/* --- QUERY_RDMA_FEATURES --------------------------------------------------- */
#define IRDMA_CQP_FEAT_BUF_PA		4	/* 8-byte aligned */
#define IRDMA_CQP_FEAT_QW3_BUF_LEN	GENMASK_ULL(31, 0)
#define IRDMA_FEAT_TYPE			GENMASK_ULL(63, 48)
#define IRDMA_FEAT_INFO			GENMASK_ULL(47, 0)
#define IRDMA_FEAT_QW0			0	/* also the first feature */
#define IRDMA_FEAT_QW0_COUNT		GENMASK_ULL(47, 32)
#define IRDMA_FEAT_FW_MAJOR		GENMASK_ULL(31, 16)
#define IRDMA_FEAT_FW_MINOR		GENMASK_ULL(15, 0)
#define IRDMA_FEAT_MAX			27
#define IRDMA_FEAT_TYPE_FW_INFO		0
#define IRDMA_FEAT_TYPE_HW_VERSION	1
#define IRDMA_FEAT_TYPE_MAX_QSETS	26

/* --- MANAGE_APBVT --------------------------------------------------------- */
#define IRDMA_CQP_APBVT_QW2		2
#define IRDMA_CQP_APBVT_QW2_PORT	GENMASK_ULL(15, 0)
#define IRDMA_CQP_APBVT_QW3_ADD		BIT_ULL(62)

/* --- MANAGE_ARP ----------------------------------------------------------- */
#define IRDMA_CQP_ARP_QW1		1
#define IRDMA_CQP_ARP_QW1_REACHMAX	GENMASK_ULL(31, 0)
#define IRDMA_CQP_ARP_QW2		2
#define IRDMA_CQP_ARP_QW2_MAC		GENMASK_ULL(47, 0)
#define IRDMA_CQP_ARP_QW3_INDEX		GENMASK_ULL(11, 0)
#define IRDMA_CQP_ARP_QW3_VALID		BIT_ULL(42)
#define IRDMA_CQP_ARP_QW3_PERMANENT	BIT_ULL(43)

/* --- MANAGE_QHASH ------------------------------------------------------- */
#define IRDMA_CQP_QHASH_QW0		0
#define IRDMA_CQP_QHASH_QW0_MAC		GENMASK_ULL(47, 0)
#define IRDMA_CQP_QHASH_QW1		1
/* local TCP port */
#define IRDMA_CQP_QHASH_QW1_DEST_PORT	GENMASK_ULL(15, 0)
/* remote TCP port (ESTABLISHED entries) */
#define IRDMA_CQP_QHASH_QW1_SRC_PORT	GENMASK_ULL(31, 16)
#define IRDMA_CQP_QHASH_QW1_QPN		GENMASK_ULL(49, 32)
#define IRDMA_CQP_QHASH_QW2		2
#define IRDMA_CQP_QHASH_QW2_QS_HANDLE	GENMASK_ULL(9, 0)
#define IRDMA_CQP_QHASH_QW2_VLANID	GENMASK_ULL(43, 32)
/* IP addresses in two words each, see irdma_ip_to_words() */
#define IRDMA_CQP_QHASH_REM_IP_LO	4
#define IRDMA_CQP_QHASH_REM_IP_HI	5
#define IRDMA_CQP_QHASH_LOC_IP_LO	6
#define IRDMA_CQP_QHASH_LOC_IP_HI	7
#define IRDMA_CQP_QHASH_QW3_ENTRYTYPE	GENMASK_ULL(44, 42)
#define IRDMA_CQP_QHASH_QW3_VLANVALID	BIT_ULL(59)
#define IRDMA_CQP_QHASH_QW3_IPV4VALID	BIT_ULL(60)
#define IRDMA_CQP_QHASH_QW3_MANAGE	GENMASK_ULL(62, 61)
#define IRDMA_QHASH_MANAGE_DELETE	0
#define IRDMA_QHASH_MANAGE_ADD		1
#define IRDMA_QHASH_MANAGE_MODIFY	2

/**
 * enum irdma_qhash_type - quad-hash entry types
 * @IRDMA_QHASH_TYPE_TCP_ESTABLISHED: full 4-tuple of one connection
 * @IRDMA_QHASH_TYPE_TCP_SYN: listener: local address and port
 * @IRDMA_QHASH_TYPE_UDP_UNICAST: UDP unicast
 * @IRDMA_QHASH_TYPE_UDP_MCAST: UDP multicast
 * @IRDMA_QHASH_TYPE_ROCE_MCAST: RoCE multicast
 * @IRDMA_QHASH_TYPE_ROCEV2_HW: RoCEv2
 */
enum irdma_qhash_type {
	IRDMA_QHASH_TYPE_TCP_ESTABLISHED = 1,
	IRDMA_QHASH_TYPE_TCP_SYN = 2,
	IRDMA_QHASH_TYPE_UDP_UNICAST = 3,
	IRDMA_QHASH_TYPE_UDP_MCAST = 4,
	IRDMA_QHASH_TYPE_ROCE_MCAST = 5,
	IRDMA_QHASH_TYPE_ROCEV2_HW = 6,
};

/* IP address words in QHASH/AH/QP-context descriptors */
#define IRDMA_IP_HI			GENMASK_ULL(63, 32)
#define IRDMA_IP_LO			GENMASK_ULL(31, 0)

/* --- CREATE_ADDR_HANDLE / DESTROY_ADDR_HANDLE ---------------------------- */
#define IRDMA_CQP_AH_QW0		0
#define IRDMA_CQP_AH_QW0_MAC		GENMASK_ULL(63, 16)
#define IRDMA_CQP_AH_QW1		1
#define IRDMA_CQP_AH_QW1_VLANTAG	GENMASK_ULL(15, 0)
#define IRDMA_CQP_AH_QW1_TC		GENMASK_ULL(39, 32)
#define IRDMA_CQP_AH_QW1_PDIDXLO	GENMASK_ULL(63, 48)
#define IRDMA_CQP_AH_QW2		2
#define IRDMA_CQP_AH_QW2_FLOWLABEL	GENMASK_ULL(19, 0)
#define IRDMA_CQP_AH_QW2_PDIDXHI	GENMASK_ULL(21, 20)
#define IRDMA_CQP_AH_QW2_HOPLIMIT	GENMASK_ULL(39, 32)
#define IRDMA_CQP_AH_QW2_ARPINDEX	GENMASK_ULL(63, 48)
/* IP addresses in two words each, see irdma_ip_to_words() */
#define IRDMA_CQP_AH_DEST_IP_LO		4
#define IRDMA_CQP_AH_DEST_IP_HI		5
#define IRDMA_CQP_AH_SRC_IP_LO		6
#define IRDMA_CQP_AH_SRC_IP_HI		7
#define IRDMA_CQP_AH_QW3_AVIDX		GENMASK_ULL(16, 0)
#define IRDMA_CQP_AH_QW3_IPV4VALID	BIT_ULL(59)
#define IRDMA_CQP_AH_QW3_INSERTVLAN	BIT_ULL(60)
#define IRDMA_CQP_AH_QW3_LOOPBACK	BIT_ULL(62)

/* --- CREATE_QP / MODIFY_QP / DESTROY_QP ---------------------------------- */
#define IRDMA_CQP_QP_QW1		1
#define IRDMA_CQP_QP_QW1_NEWMSS		GENMASK_ULL(45, 32)
#define IRDMA_CQP_QP_QW1_TERMLEN	GENMASK_ULL(51, 48)
#define IRDMA_CQP_QP_CTX_PA		2	/* the QP's host context */
#define IRDMA_CQP_QP_SHADOW_PA		5	/* the QP's doorbell shadow area */
#define IRDMA_CQP_QP_QW3_QPID		GENMASK_ULL(23, 0)
#define IRDMA_CQP_QP_QW3_ORDVALID	BIT_ULL(42)
#define IRDMA_CQP_QP_QW3_TOECTXVALID	BIT_ULL(43)
#define IRDMA_CQP_QP_QW3_CACHEDVARVALID	BIT_ULL(44)
#define IRDMA_CQP_QP_QW3_VQ		BIT_ULL(45)
#define IRDMA_CQP_QP_QW3_FORCELOOPBACK	BIT_ULL(46)
#define IRDMA_CQP_QP_QW3_CQNUMVALID	BIT_ULL(47)
#define IRDMA_CQP_QP_QW3_QPTYPE		GENMASK_ULL(50, 48)
#define IRDMA_CQP_QP_QW3_MACVALID	BIT_ULL(51)
#define IRDMA_CQP_QP_QW3_MSSCHANGE	BIT_ULL(52)
#define IRDMA_CQP_QP_QW3_IGNOREMWBOUND	BIT_ULL(54)
#define IRDMA_CQP_QP_QW3_REMOVEHASHENTRY BIT_ULL(55)
#define IRDMA_CQP_QP_QW3_TERMACT	GENMASK_ULL(57, 56)
#define IRDMA_CQP_QP_QW3_RESETCON	BIT_ULL(58)
#define IRDMA_CQP_QP_QW3_ARPTABIDXVALID	BIT_ULL(59)
#define IRDMA_CQP_QP_QW3_NEXTIWSTATE	GENMASK_ULL(62, 60)

/**
 * enum irdma_qp_type_hw - QP type in CQP QP commands
 * @IRDMA_QP_TYPE_IWARP: iWARP RC
 * @IRDMA_QP_TYPE_UDA: privileged UD (ILQ/IEQ)
 * @IRDMA_QP_TYPE_ROCE_RC: RoCE RC
 * @IRDMA_QP_TYPE_ROCE_UD: RoCE UD
 */
enum irdma_qp_type_hw {
	IRDMA_QP_TYPE_IWARP = 1,
	IRDMA_QP_TYPE_UDA = 2,
	IRDMA_QP_TYPE_ROCE_RC = 3,
	IRDMA_QP_TYPE_ROCE_UD = 4,
};

/**
 * enum irdma_qp_state_hw - iWARP QP states (NEXTIWSTATE, AEQE IWSTATE)
 * @IRDMA_QPS_INVALID: no state
 * @IRDMA_QPS_IDLE: created, not connected
 * @IRDMA_QPS_RTS: connected
 * @IRDMA_QPS_CLOSING: graceful close (also SQD)
 * @IRDMA_QPS_RTR: ready to receive
 * @IRDMA_QPS_TERMINATE: terminate in progress
 * @IRDMA_QPS_ERROR: error
 */
enum irdma_qp_state_hw {
	IRDMA_QPS_INVALID = 0,
	IRDMA_QPS_IDLE = 1,
	IRDMA_QPS_RTS = 2,
	IRDMA_QPS_CLOSING = 3,
	IRDMA_QPS_RTR = 4,
	IRDMA_QPS_TERMINATE = 5,
	IRDMA_QPS_ERROR = 6,
};

/* TERMACT */
#define IRDMA_TERM_SEND_TERM_AND_FIN	0
#define IRDMA_TERM_SEND_TERM_ONLY	1
#define IRDMA_TERM_SEND_FIN_ONLY	2
#define IRDMA_TERM_DONOT_SEND_TERM_OR_FIN 3

/* --- ALLOC_STAG / REG_MR / DEALLOC_STAG ---------------------------------- */
#define IRDMA_CQP_STAG_VA		0	/* the region's first virtual address */
#define IRDMA_CQP_STAG_QW1		1
#define IRDMA_CQP_STAG_QW1_LEN		GENMASK_ULL(45, 0)
#define IRDMA_CQP_STAG_QW1_GEN2_PDID	GENMASK_ULL(63, 46)
#define IRDMA_CQP_STAG_QW1_GEN1_PDID	GENMASK_ULL(62, 48)
#define IRDMA_CQP_STAG_QW2		2
#define IRDMA_CQP_STAG_QW2_KEY		GENMASK_ULL(7, 0)
#define IRDMA_CQP_STAG_QW2_IDX		GENMASK_ULL(31, 8)
#define IRDMA_CQP_STAG_PA		4	/* contiguous region; 0 with a PBL */
#define IRDMA_CQP_STAG_QW5		5
#define IRDMA_CQP_STAG_QW5_HMC_FN_ID	GENMASK_ULL(5, 0)
#define IRDMA_CQP_STAG_QW6		6
#define IRDMA_CQP_STAG_QW6_FIRST_PBLE	GENMASK_ULL(27, 0)
#define IRDMA_CQP_STAG_QW3_MWTYPE	BIT_ULL(42)
#define IRDMA_CQP_STAG_QW3_MR		BIT_ULL(43)
#define IRDMA_CQP_STAG_QW3_HPAGESIZE	GENMASK_ULL(47, 46)
#define IRDMA_CQP_STAG_QW3_ARIGHTS	GENMASK_ULL(52, 48)
#define IRDMA_CQP_STAG_QW3_REMACCENABLED BIT_ULL(53)
#define IRDMA_CQP_STAG_QW3_MW1_BIND_DONT_VLDT_KEY BIT_ULL(58)
#define IRDMA_CQP_STAG_QW3_VABASEDTO	BIT_ULL(59)
#define IRDMA_CQP_STAG_QW3_USEHMCFNIDX	BIT_ULL(60)
#define IRDMA_CQP_STAG_QW3_USEPFRID	BIT_ULL(61)
/* access rights */
#define IRDMA_ACCESS_LOCAL_READ		0x01
#define IRDMA_ACCESS_LOCAL_WRITE	0x02
#define IRDMA_ACCESS_REMOTE_READ	0x04
#define IRDMA_ACCESS_REMOTE_WRITE	0x08
#define IRDMA_ACCESS_BIND_WINDOW	0x10
/* page sizes */
#define IRDMA_PAGE_SIZE_4K		0
#define IRDMA_PAGE_SIZE_2M		1
#define IRDMA_PAGE_SIZE_1G		2

/* --- FLUSH_WQES / GEN_AE ------------------------------------------------- */
#define IRDMA_CQP_FLUSH_QW1		1
#define IRDMA_CQP_FLUSH_QW1_AECODE	GENMASK_ULL(15, 0)
#define IRDMA_CQP_FLUSH_QW1_AESOURCE	GENMASK_ULL(19, 16)
#define IRDMA_CQP_FLUSH_QW2		2
#define IRDMA_CQP_FLUSH_QW2_RQMNERR	GENMASK_ULL(15, 0)
#define IRDMA_CQP_FLUSH_QW2_RQMJERR	GENMASK_ULL(31, 16)
#define IRDMA_CQP_FLUSH_QW2_SQMNERR	GENMASK_ULL(47, 32)
#define IRDMA_CQP_FLUSH_QW2_SQMJERR	GENMASK_ULL(63, 48)
#define IRDMA_CQP_FLUSH_QW3_QPID	GENMASK_ULL(23, 0)
#define IRDMA_CQP_FLUSH_QW3_GENERATE_AE	BIT_ULL(59)
#define IRDMA_CQP_FLUSH_QW3_USERFLCODE	BIT_ULL(60)
#define IRDMA_CQP_FLUSH_QW3_FLUSHSQ	BIT_ULL(61)
#define IRDMA_CQP_FLUSH_QW3_FLUSHRQ	BIT_ULL(62)
/* flush completion minor codes */
#define IRDMA_FLUSH_MINOR_RQ_FLUSHED	2
#define IRDMA_FLUSH_MINOR_SQ_FLUSHED	3

/* --- WORK_SCHED_NODE ---------------------------------------------------- */
#define IRDMA_CQP_WS_QW4		4
#define IRDMA_CQP_WS_QW4_WEIGHT		GENMASK_ULL(38, 32)
#define IRDMA_CQP_WS_QW4_VSI		GENMASK_ULL(57, 48)
#define IRDMA_CQP_WS_QW3_NODEID		GENMASK_ULL(9, 0)
#define IRDMA_CQP_WS_QW3_PARENTID	GENMASK_ULL(25, 16)
#define IRDMA_CQP_WS_QW3_NODEOP		GENMASK_ULL(53, 52)
#define IRDMA_WS_NODE_ADD		0
#define IRDMA_WS_NODE_MODIFY		1
#define IRDMA_WS_NODE_DELETE		2
#define IRDMA_CQP_WS_QW3_TC		GENMASK_ULL(58, 56)
#define IRDMA_CQP_WS_QW3_PRIOTYPE	GENMASK_ULL(60, 59)
#define IRDMA_CQP_WS_QW3_LEAF		BIT_ULL(61)
#define IRDMA_CQP_WS_QW3_ENABLE		BIT_ULL(62)

/* --- MANAGE_STATS / GATHER_STATS ---------------------------------------- */
#define IRDMA_CQP_STATS_BUF_PA		4	/* GATHER_STATS: IRDMA_GSTAT_LEN bytes */
#define IRDMA_CQP_STATS_QW5		5
#define IRDMA_CQP_STATS_QW5_HMC_FN_ID	GENMASK_ULL(5, 0)
#define IRDMA_CQP_STATS_QW3_INST	GENMASK_ULL(6, 0)
#define IRDMA_CQP_STATS_QW3_USE_FN_ID	BIT_ULL(60)
#define IRDMA_CQP_STATS_QW3_USE_INST	BIT_ULL(61)
#define IRDMA_CQP_STATS_QW3_ALLOC	BIT_ULL(62)

/* --- MANAGE_PUSH_PAGES ------------------------------------------------- */
#define IRDMA_CQP_PUSH_QW3_IDX		GENMASK_ULL(9, 0)
#define IRDMA_CQP_PUSH_QW3_FREE		BIT_ULL(62)

/* --- UP_MAP ------------------------------------------------------------ */
#define IRDMA_CQP_UP_MAP_PRIOS		0	/* the user-priority map */

/*
 * The GATHER_STATS buffer (GEN_2): IRDMA_GSTAT_LEN bytes, little endian.
 * Each code below is a counter's byte offset, with IRDMA_GSTAT_W32 set for
 * the 32-bit counters; the others are 48-bit counters in 64-bit words.
 * Every counter wraps at its width; the reader accumulates differences.
 */
#define IRDMA_GSTAT_LEN			1024
#define IRDMA_GSTAT_W32			BIT(15)
#define IRDMA_GSTAT_OFFSET		GENMASK(9, 0)
#define IRDMA_GSTAT_NUM			46	/* counters below */

enum irdma_gstat {
	IRDMA_GSTAT_RX_VLAN_ERR		= 0x004 | IRDMA_GSTAT_W32,
	IRDMA_GSTAT_IP4_RX_OCTETS	= 0x008,
	IRDMA_GSTAT_IP4_RX_PKTS		= 0x010,
	IRDMA_GSTAT_IP4_RX_TRUNC	= 0x018 | IRDMA_GSTAT_W32,
	IRDMA_GSTAT_IP4_RX_DISCARD	= 0x01c | IRDMA_GSTAT_W32,
	IRDMA_GSTAT_IP4_RX_FRAGS	= 0x020,
	IRDMA_GSTAT_IP4_RX_MC_OCTETS	= 0x028,
	IRDMA_GSTAT_IP4_RX_MC_PKTS	= 0x030,
	IRDMA_GSTAT_IP6_RX_OCTETS	= 0x038,
	IRDMA_GSTAT_IP6_RX_PKTS		= 0x040,
	IRDMA_GSTAT_IP6_RX_TRUNC	= 0x048 | IRDMA_GSTAT_W32,
	IRDMA_GSTAT_IP6_RX_DISCARD	= 0x04c | IRDMA_GSTAT_W32,
	IRDMA_GSTAT_IP6_RX_FRAGS	= 0x050,
	IRDMA_GSTAT_IP6_RX_MC_OCTETS	= 0x058,
	IRDMA_GSTAT_IP6_RX_MC_PKTS	= 0x060,
	IRDMA_GSTAT_IP4_TX_OCTETS	= 0x068,
	IRDMA_GSTAT_IP4_TX_PKTS		= 0x070,
	IRDMA_GSTAT_IP4_TX_FRAGS	= 0x078,
	IRDMA_GSTAT_IP4_TX_MC_OCTETS	= 0x080,
	IRDMA_GSTAT_IP4_TX_MC_PKTS	= 0x088,
	IRDMA_GSTAT_IP6_TX_OCTETS	= 0x090,
	IRDMA_GSTAT_IP6_TX_PKTS		= 0x098,
	IRDMA_GSTAT_IP6_TX_FRAGS	= 0x0a0,
	IRDMA_GSTAT_IP6_TX_MC_OCTETS	= 0x0a8,
	IRDMA_GSTAT_IP6_TX_MC_PKTS	= 0x0b0,
	IRDMA_GSTAT_IP6_TX_NO_ROUTE	= 0x0b8 | IRDMA_GSTAT_W32,
	IRDMA_GSTAT_IP4_TX_NO_ROUTE	= 0x0bc | IRDMA_GSTAT_W32,
	IRDMA_GSTAT_TCP_RX_SEGS		= 0x0c0,
	IRDMA_GSTAT_TCP_RX_PROTO_ERR	= 0x0c8 | IRDMA_GSTAT_W32,
	IRDMA_GSTAT_TCP_RX_OPT_ERR	= 0x0cc | IRDMA_GSTAT_W32,
	IRDMA_GSTAT_TCP_TX_SEGS		= 0x0d0,
	IRDMA_GSTAT_TCP_RETX_SEGS	= 0x0dc | IRDMA_GSTAT_W32,
	IRDMA_GSTAT_UDP_RX_PKTS		= 0x0e0,
	IRDMA_GSTAT_UDP_TX_PKTS		= 0x0e8,
	IRDMA_GSTAT_RDMA_RX_WRITES	= 0x0f0,
	IRDMA_GSTAT_RDMA_RX_READS	= 0x0f8,
	IRDMA_GSTAT_RDMA_RX_SENDS	= 0x100,
	IRDMA_GSTAT_RDMA_TX_WRITES	= 0x108,
	IRDMA_GSTAT_RDMA_TX_READS	= 0x110,
	IRDMA_GSTAT_RDMA_TX_SENDS	= 0x118,
	IRDMA_GSTAT_RDMA_BINDS		= 0x120,
	IRDMA_GSTAT_RDMA_INVALIDATES	= 0x128,
	IRDMA_GSTAT_RX_ECN_MARKED	= 0x130,
	IRDMA_GSTAT_RX_CNP_HANDLED	= 0x138 | IRDMA_GSTAT_W32,
	IRDMA_GSTAT_RX_CNP_IGNORED	= 0x13c | IRDMA_GSTAT_W32,
	IRDMA_GSTAT_TX_CNP_SENT		= 0x140 | IRDMA_GSTAT_W32,
};

/* ------------------------------------------------------------------------ */
/* Completion queue elements                                                */
/* ------------------------------------------------------------------------ */

#define IRDMA_CQE_WORDS			4
#define IRDMA_CQE_HDR			3	/* header word index */

/**
 * struct irdma_cqe - completion queue element, 32 bytes
 * @qw: four little-endian words; qw[IRDMA_CQE_HDR] carries the valid bit
 */
struct irdma_cqe {
	__le64 qw[IRDMA_CQE_WORDS];
};

static_assert(sizeof(struct irdma_cqe) == 32);

/* CCQ CQE */
#define IRDMA_CCQ_CQE_COMPCTX		1	/* CQP host context QW3 */
#define IRDMA_CCQ_CQE_QW2		2
#define IRDMA_CCQ_CQE_QW2_OP_RET	GENMASK_ULL(31, 0)
#define IRDMA_CCQ_CQE_QW3_MINOR_ERR	GENMASK_ULL(15, 0)
#define IRDMA_CCQ_CQE_QW3_MAJOR_ERR	GENMASK_ULL(31, 16)
#define IRDMA_CCQ_CQE_QW3_WQEIDX	GENMASK_ULL(46, 32)
#define IRDMA_CCQ_CQE_QW3_ERROR		BIT_ULL(55)
#define IRDMA_CCQ_CQE_QW3_VALID		BIT_ULL(63)

/* QP CQE (GEN_2) */
#define IRDMA_CQE_QW0			0
#define IRDMA_CQE_QW0_PAYLDLEN		GENMASK_ULL(31, 0)
#define IRDMA_CQE_QW0_RTT		GENMASK_ULL(63, 32)
#define IRDMA_CQE_COMPCTX		1	/* QP context IRDMA_QPC_COMPCTX */
#define IRDMA_CQE_QW2			2
#define IRDMA_CQE_QW2_INVSTAG		GENMASK_ULL(31, 0)
#define IRDMA_CQE_QW2_QPID		GENMASK_ULL(55, 32)
#define IRDMA_CQE_QW3_MINERR		GENMASK_ULL(15, 0)
#define IRDMA_CQE_QW3_MAJERR		GENMASK_ULL(31, 16)
#define IRDMA_CQE_QW3_WQEIDX		GENMASK_ULL(46, 32)
#define IRDMA_CQE_QW3_OP		GENMASK_ULL(61, 56)
#define IRDMA_CQE_QW3_EXTCQE		BIT_ULL(50)
#define IRDMA_CQE_QW3_PSHDROP		BIT_ULL(51)
#define IRDMA_CQE_QW3_STAG		BIT_ULL(53)	/* IPV4 on UDA QPs */
#define IRDMA_CQE_QW3_SOEVENT		BIT_ULL(54)
#define IRDMA_CQE_QW3_ERROR		BIT_ULL(55)
#define IRDMA_CQE_QW3_SQ		BIT_ULL(62)
#define IRDMA_CQE_QW3_VALID		BIT_ULL(63)
/* extended CQE (next slot) */
#define IRDMA_CQE_EXT_QW0		0
#define IRDMA_CQE_EXT_QW0_IMMDATA	GENMASK_ULL(63, 0)
#define IRDMA_CQE_EXT_QW2		2
#define IRDMA_CQE_EXT_QW2_UDSMAC	GENMASK_ULL(47, 0)
#define IRDMA_CQE_EXT_QW2_UDVLAN	GENMASK_ULL(63, 48)
#define IRDMA_CQE_EXT_QW3_IMMVALID	BIT_ULL(62)
#define IRDMA_CQE_EXT_QW3_UDSMACVALID	BIT_ULL(61)
#define IRDMA_CQE_EXT_QW3_UDVLANVALID	BIT_ULL(60)
#define IRDMA_CQE_EXT_QW3_VALID		BIT_ULL(63)
#define IRDMA_FLUSH_MAJOR_ERR		1

/* CQ shadow area (64 bytes, 128-byte aligned) */
#define IRDMA_CQ_SHADOW_WORDS		8
#define IRDMA_CQ_SHADOW_ALIGN		128
#define IRDMA_CQ_SHADOW_QW0		0
#define IRDMA_CQ_SHADOW_QW0_CQEIDX	GENMASK_ULL(19, 0)
#define IRDMA_CQ_SHADOW_ARM		4
#define IRDMA_CQ_SHADOW_ARM_SW_CQ_SEL	GENMASK_ULL(13, 0)
#define IRDMA_CQ_SHADOW_ARM_NEXT	BIT_ULL(14)
#define IRDMA_CQ_SHADOW_ARM_NEXT_SE	BIT_ULL(15)
#define IRDMA_CQ_SHADOW_ARM_SEQ_NUM	GENMASK_ULL(17, 16)

/* QP doorbell shadow area: the adapter's SQ tail, which libirdma reads */
#define IRDMA_QP_SHADOW_QW0		0
#define IRDMA_QP_SHADOW_QW0_HW_SQ_TAIL	GENMASK_ULL(14, 0)
#define IRDMA_QP_SHADOW_SIZE		64

/* ------------------------------------------------------------------------ */
/* Event queue elements                                                     */
/* ------------------------------------------------------------------------ */

/* CEQE: 8 bytes */
#define IRDMA_CEQE_CQCTX		GENMASK_ULL(62, 0)
#define IRDMA_CEQE_VALID		BIT_ULL(63)
#define IRDMA_CEQE_SIZE			8
#define IRDMA_CEQ_MAX_COUNT		262143

/* AEQE: 16 bytes; QW0 = completion context */
#define IRDMA_AEQE_WORDS		2
#define IRDMA_AEQE_HDR			1
#define IRDMA_AEQE_QW1_QPCQID_LOW	GENMASK_ULL(17, 0)
#define IRDMA_AEQE_QW1_WQDESCIDX	GENMASK_ULL(32, 18)
#define IRDMA_AEQE_QW1_OVERFLOW		BIT_ULL(33)
#define IRDMA_AEQE_QW1_AECODE		GENMASK_ULL(45, 34)
#define IRDMA_AEQE_QW1_QPCQID_HI	BIT_ULL(46)
#define IRDMA_AEQE_QW1_AESRC		GENMASK_ULL(53, 50)
#define IRDMA_AEQE_QW1_IWSTATE		GENMASK_ULL(56, 54)
#define IRDMA_AEQE_QW1_TCPSTATE		GENMASK_ULL(60, 57)
#define IRDMA_AEQE_QW1_Q2DATA		GENMASK_ULL(62, 61)
#define IRDMA_AEQE_QW1_VALID		BIT_ULL(63)
#define IRDMA_AEQ_MAX_COUNT		524287

/**
 * struct irdma_aeqe - asynchronous event queue element, 16 bytes
 * @qw: two little-endian words; qw[IRDMA_AEQE_HDR] carries the valid bit
 */
struct irdma_aeqe {
	__le64 qw[IRDMA_AEQE_WORDS];
};

static_assert(sizeof(struct irdma_aeqe) == 16);

/* AE sources */
#define IRDMA_AE_SOURCE_RSVD		0x0
#define IRDMA_AE_SOURCE_RQ		0x1
#define IRDMA_AE_SOURCE_RQ_0011		0x3
#define IRDMA_AE_SOURCE_CQ		0x2
#define IRDMA_AE_SOURCE_CQ_0110		0x6
#define IRDMA_AE_SOURCE_CQ_1010		0xa
#define IRDMA_AE_SOURCE_CQ_1110		0xe
#define IRDMA_AE_SOURCE_SQ		0x5
#define IRDMA_AE_SOURCE_SQ_0111		0x7
#define IRDMA_AE_SOURCE_IN_RR_WR	0x9
#define IRDMA_AE_SOURCE_IN_RR_WR_1011	0xb
#define IRDMA_AE_SOURCE_OUT_RR		0xd
#define IRDMA_AE_SOURCE_OUT_RR_1111	0xf

/* AE codes the driver acts on (the full list is in the hardware manual) */
#define IRDMA_AE_AMP_INVALID_STAG			0x0103
#define IRDMA_AE_AMP_BAD_PD				0x0105
#define IRDMA_AE_AMP_BOUNDS_VIOLATION			0x0108
#define IRDMA_AE_AMP_RIGHTS_VIOLATION			0x0109
#define IRDMA_AE_BAD_CLOSE				0x0201
#define IRDMA_AE_RDMAP_ROE_BAD_LLP_CLOSE		0x0202
#define IRDMA_AE_CQ_OPERATION_ERROR			0x0203
#define IRDMA_AE_RDMA_READ_WHILE_ORD_ZERO		0x0205
#define IRDMA_AE_STAG_ZERO_INVALID			0x0206
#define IRDMA_AE_WQE_UNEXPECTED_OPCODE			0x020a
#define IRDMA_AE_DDP_INVALID_MSN_GAP_IN_MSN		0x0301
#define IRDMA_AE_DDP_UBE_DDP_MESSAGE_TOO_LONG_FOR_AVAILABLE_BUFFER 0x0303
#define IRDMA_AE_DDP_UBE_INVALID_DDP_VERSION		0x0304
#define IRDMA_AE_DDP_UBE_INVALID_MO			0x0305
#define IRDMA_AE_DDP_UBE_INVALID_MSN_NO_BUFFER_AVAILABLE 0x0306
#define IRDMA_AE_DDP_UBE_INVALID_QN			0x0307
#define IRDMA_AE_RDMAP_ROE_INVALID_RDMAP_VERSION	0x0311
#define IRDMA_AE_RDMAP_ROE_UNEXPECTED_OPCODE		0x0312
#define IRDMA_AE_LLP_CLOSE_COMPLETE			0x0501
#define IRDMA_AE_LLP_CONNECTION_RESET			0x0502
#define IRDMA_AE_LLP_FIN_RECEIVED			0x0503
#define IRDMA_AE_LLP_RECEIVED_MPA_CRC_ERROR		0x0505
#define IRDMA_AE_LLP_SEGMENT_TOO_SMALL			0x0507
#define IRDMA_AE_LLP_SYN_RECEIVED			0x0508
#define IRDMA_AE_LLP_TERMINATE_RECEIVED			0x0509
#define IRDMA_AE_LLP_TOO_MANY_RETRIES			0x050a
#define IRDMA_AE_LLP_TOO_MANY_KEEPALIVE_RETRIES		0x050b
#define IRDMA_AE_LLP_DOUBT_REACHABILITY			0x050c
#define IRDMA_AE_LLP_CONNECTION_ESTABLISHED		0x050e
#define IRDMA_AE_LLP_TOO_MANY_RNRS			0x050f
#define IRDMA_AE_RESOURCE_EXHAUSTION			0x0520
#define IRDMA_AE_RESET_SENT				0x0601
#define IRDMA_AE_TERMINATE_SENT				0x0602
#define IRDMA_AE_RESET_NOT_SENT				0x0603
#define IRDMA_AE_LCE_QP_CATASTROPHIC			0x0700
#define IRDMA_AE_LCE_FUNCTION_CATASTROPHIC		0x0701
#define IRDMA_AE_LCE_CQ_CATASTROPHIC			0x0702
#define IRDMA_AE_QP_SUSPEND_COMPLETE			0x0900

/**
 * enum irdma_tcp_state_hw - TCP states (QP context TCPSTATE, AEQE TCPSTATE)
 * @IRDMA_TCPS_NON_EXISTENT: no connection
 * @IRDMA_TCPS_CLOSED: closed
 * @IRDMA_TCPS_LISTEN: listen
 * @IRDMA_TCPS_SYN_SENT: SYN sent
 * @IRDMA_TCPS_SYN_RECEIVED: SYN received
 * @IRDMA_TCPS_ESTABLISHED: established
 * @IRDMA_TCPS_CLOSE_WAIT: peer closed
 * @IRDMA_TCPS_FIN_WAIT_1: FIN sent
 * @IRDMA_TCPS_CLOSING: simultaneous close
 * @IRDMA_TCPS_LAST_ACK: FIN sent after peer's FIN
 * @IRDMA_TCPS_FIN_WAIT_2: our FIN acknowledged
 * @IRDMA_TCPS_TIME_WAIT: time wait
 */
enum irdma_tcp_state_hw {
	IRDMA_TCPS_NON_EXISTENT = 0,
	IRDMA_TCPS_CLOSED = 1,
	IRDMA_TCPS_LISTEN = 2,
	IRDMA_TCPS_SYN_SENT = 3,
	IRDMA_TCPS_SYN_RECEIVED = 4,
	IRDMA_TCPS_ESTABLISHED = 5,
	IRDMA_TCPS_CLOSE_WAIT = 6,
	IRDMA_TCPS_FIN_WAIT_1 = 7,
	IRDMA_TCPS_CLOSING = 8,
	IRDMA_TCPS_LAST_ACK = 9,
	IRDMA_TCPS_FIN_WAIT_2 = 10,
	IRDMA_TCPS_TIME_WAIT = 11,
};

/* ------------------------------------------------------------------------ */
/* CQP major/minor error codes                                              */
/* ------------------------------------------------------------------------ */
#define IRDMA_CQP_MAJOR_GENERIC		0xffff
#define IRDMA_CQP_MINOR_INVALID_STATE	0x8002
#define IRDMA_CQP_MINOR_FLUSH_NO_WQE	0x8006
#define IRDMA_CQP_MINOR_BAD_CLOSE	0x8007
#define IRDMA_CQP_MINOR_LLP_CLOSED	0x8009
#define IRDMA_CQP_MINOR_RESET_NOT_SENT	0x800a
#define IRDMA_CQP_MINOR_NEEDS_RESET	0x8029

/* ------------------------------------------------------------------------ */
/* QP host context (256 bytes)                                              */
/* ------------------------------------------------------------------------ */

#define IRDMA_QPC_WORDS			32
#define IRDMA_QPC_QW0			0
#define IRDMA_QPC_QW0_DDP_VER		GENMASK_ULL(1, 0)	/* 1 */
#define IRDMA_QPC_QW0_IBRDENABLE	BIT_ULL(2)	/* IB-style read (GEN_2) */
#define IRDMA_QPC_QW0_IPV4		BIT_ULL(3)
#define IRDMA_QPC_QW0_NONAGLE		BIT_ULL(4)
#define IRDMA_QPC_QW0_INSERTVLANTAG	BIT_ULL(5)
#define IRDMA_QPC_QW0_TIMESTAMP		BIT_ULL(7)	/* TCP timestamps */
#define IRDMA_QPC_QW0_RQWQESIZE		GENMASK_ULL(9, 8)	/* rq shift */
#define IRDMA_QPC_QW0_LIMIT		GENMASK_ULL(13, 12)	/* cwnd inc limit */
#define IRDMA_QPC_QW0_ECN_EN		BIT_ULL(14)
#define IRDMA_QPC_QW0_DROPOOOSEG	BIT_ULL(15)
#define IRDMA_QPC_QW0_DUPACK_THRESH	GENMASK_ULL(18, 16)
#define IRDMA_QPC_QW0_ERR_RQ_IDX_VALID	BIT_ULL(19)
#define IRDMA_QPC_QW0_PDIDXHI		GENMASK_ULL(21, 20)	/* PD id 17:16 */
#define IRDMA_QPC_QW0_DC_TCP_EN		BIT_ULL(25)
#define IRDMA_QPC_QW0_RCVTPHEN		BIT_ULL(28)
#define IRDMA_QPC_QW0_XMITTPHEN		BIT_ULL(29)
#define IRDMA_QPC_QW0_RQTPHEN		BIT_ULL(30)
#define IRDMA_QPC_QW0_SQTPHEN		BIT_ULL(31)
#define IRDMA_QPC_QW0_PPIDX		GENMASK_ULL(41, 32)	/* push page */
#define IRDMA_QPC_QW0_PMENA		BIT_ULL(47)	/* push mode */
#define IRDMA_QPC_QW0_RDMAP_VER		GENMASK_ULL(63, 62)	/* 1 */
#define IRDMA_QPC_SQ_PA			1	/* SQ PA or PBLE index */
#define IRDMA_QPC_RQ_PA			2	/* RQ PA or PBLE index */
#define IRDMA_QPC_QW3			3
#define IRDMA_QPC_QW3_TTL		GENMASK_ULL(7, 0)
#define IRDMA_QPC_QW3_RQSIZE		GENMASK_ULL(11, 8)	/* log2(quanta)-2 */
#define IRDMA_QPC_QW3_SQSIZE		GENMASK_ULL(15, 12)	/* log2(quanta)-2 */
#define IRDMA_QPC_QW3_GEN1_SRCMACIDX	GENMASK_ULL(21, 16)
#define IRDMA_QPC_QW3_AVOIDSTRETCHACK	BIT_ULL(23)
#define IRDMA_QPC_QW3_TOS		GENMASK_ULL(31, 24)
#define IRDMA_QPC_QW3_SRCPORT		GENMASK_ULL(47, 32)	/* local port */
#define IRDMA_QPC_QW3_DESTPORT		GENMASK_ULL(63, 48)	/* remote port */
#define IRDMA_QPC_DEST_IP_LO		4	/* remote IP words 2 (63:32), 3 */
#define IRDMA_QPC_DEST_IP_HI		5	/* remote IP words 0 (63:32), 1 */
#define IRDMA_QPC_QW6			6
#define IRDMA_QPC_QW6_SNDMSS		GENMASK_ULL(29, 16)
#define IRDMA_QPC_QW6_SYN_RST_HANDLING	GENMASK_ULL(31, 30)
#define IRDMA_QPC_QW6_VLANTAG		GENMASK_ULL(47, 32)	/* 802.1Q TCI */
#define IRDMA_QPC_QW6_ARPIDX		GENMASK_ULL(63, 48)
#define IRDMA_QPC_QW7			7
#define IRDMA_QPC_QW7_FLOWLABEL		GENMASK_ULL(19, 0)
#define IRDMA_QPC_QW7_WSCALE		BIT_ULL(20)
#define IRDMA_QPC_QW7_IGNORE_TCP_OPT	BIT_ULL(22)
#define IRDMA_QPC_QW7_IGNORE_TCP_UNS_OPT BIT_ULL(23)
#define IRDMA_QPC_QW7_TCPSTATE		GENMASK_ULL(31, 28)
#define IRDMA_QPC_QW7_RCVSCALE		GENMASK_ULL(35, 32)
#define IRDMA_QPC_QW7_SNDSCALE		GENMASK_ULL(43, 40)
#define IRDMA_QPC_QW7_PDIDX		GENMASK_ULL(63, 48)	/* PD id 15:0 */
#define IRDMA_QPC_QW9			9
#define IRDMA_QPC_QW9_TS_RECENT		GENMASK_ULL(31, 0)
#define IRDMA_QPC_QW9_TS_AGE		GENMASK_ULL(63, 32)
#define IRDMA_QPC_QW10			10
#define IRDMA_QPC_QW10_SNDNXT		GENMASK_ULL(31, 0)
#define IRDMA_QPC_QW10_SNDWND		GENMASK_ULL(63, 32)
#define IRDMA_QPC_QW11			11
#define IRDMA_QPC_QW11_RCVNXT		GENMASK_ULL(31, 0)
#define IRDMA_QPC_QW11_RCVWND		GENMASK_ULL(63, 32)
#define IRDMA_QPC_QW12			12
#define IRDMA_QPC_QW12_SNDMAX		GENMASK_ULL(31, 0)
#define IRDMA_QPC_QW12_SNDUNA		GENMASK_ULL(63, 32)
#define IRDMA_QPC_QW13			13
#define IRDMA_QPC_QW13_SRTT		GENMASK_ULL(31, 0)
#define IRDMA_QPC_QW13_RTTVAR		GENMASK_ULL(63, 32)
#define IRDMA_QPC_QW14			14
#define IRDMA_QPC_QW14_SSTHRESH		GENMASK_ULL(31, 0)
#define IRDMA_QPC_QW14_CWND		GENMASK_ULL(63, 32)
#define IRDMA_QPC_QW15			15
#define IRDMA_QPC_QW15_SNDWL1		GENMASK_ULL(31, 0)
#define IRDMA_QPC_QW15_SNDWL2		GENMASK_ULL(63, 32)
#define IRDMA_QPC_QW16			16
#define IRDMA_QPC_QW16_MAXSNDWND	GENMASK_ULL(31, 0)
#define IRDMA_QPC_QW16_ERR_RQ_IDX	GENMASK_ULL(45, 32)
#define IRDMA_QPC_QW16_REXMIT_THRESH	GENMASK_ULL(53, 48)
#define IRDMA_QPC_QW16_RTOMIN		GENMASK_ULL(63, 57)
#define IRDMA_QPC_QW17			17
#define IRDMA_QPC_QW17_TXCQNUM		GENMASK_ULL(18, 0)
#define IRDMA_QPC_QW17_RXCQNUM		GENMASK_ULL(50, 32)
#define IRDMA_QPC_QW18			18
#define IRDMA_QPC_QW18_STAT_INDEX	GENMASK_ULL(6, 0)
#define IRDMA_QPC_QW18_Q2ADDR		GENMASK_ULL(63, 8)	/* 256-byte aligned PA */
#define IRDMA_QPC_QW19			19
#define IRDMA_QPC_QW19_LASTBYTESENT	GENMASK_ULL(7, 0)
#define IRDMA_QPC_QW19_MACADDRESS	GENMASK_ULL(63, 16)	/* GEN_2 */
#define IRDMA_QPC_QW20			20
#define IRDMA_QPC_QW20_ORDSIZE		GENMASK_ULL(7, 0)
#define IRDMA_QPC_QW20_IRDSIZE		GENMASK_ULL(18, 16)	/* encoded */
#define IRDMA_QPC_QW20_WRRDRSPOK	BIT_ULL(20)
#define IRDMA_QPC_QW20_RDOK		BIT_ULL(21)
#define IRDMA_QPC_QW20_SNDMARKERS	BIT_ULL(22)
#define IRDMA_QPC_QW20_BINDEN		BIT_ULL(23)
#define IRDMA_QPC_QW20_FASTREGEN	BIT_ULL(24)
#define IRDMA_QPC_QW20_PRIVEN		BIT_ULL(25)
#define IRDMA_QPC_QW20_USESTATSINSTANCE	BIT_ULL(26)
#define IRDMA_QPC_QW20_TIMELYENABLE	BIT_ULL(27)
#define IRDMA_QPC_QW20_IWARPMODE	BIT_ULL(28)
#define IRDMA_QPC_QW20_RCVMARKERS	BIT_ULL(29)
#define IRDMA_QPC_QW20_ALIGNHDRS	BIT_ULL(30)
#define IRDMA_QPC_QW20_RCVNOMPACRC	BIT_ULL(31)
#define IRDMA_QPC_QW20_RCVMARKOFFSET	GENMASK_ULL(40, 32)
#define IRDMA_QPC_QW20_SNDMARKOFFSET	GENMASK_ULL(56, 48)
#define IRDMA_QPC_COMPCTX		21	/* returned in CQEs and AEQEs */
#define IRDMA_QPC_QW22			22
#define IRDMA_QPC_QW22_SQTPHVAL		GENMASK_ULL(7, 0)
#define IRDMA_QPC_QW22_RQTPHVAL		GENMASK_ULL(15, 8)
#define IRDMA_QPC_QW22_QSHANDLE		GENMASK_ULL(25, 16)
#define IRDMA_QPC_QW22_EXCEPTION_LAN_QUEUE GENMASK_ULL(43, 32)
#define IRDMA_QPC_LOCAL_IP_LO		23	/* local IP words 3 (31:0), 2 */
#define IRDMA_QPC_LOCAL_IP_HI		24	/* local IP words 1 (31:0), 0 */
#define IRDMA_QPC_QW25			25
#define IRDMA_QPC_QW25_TLOW		GENMASK_ULL(39, 32)
#define IRDMA_QPC_QW25_THIGH		GENMASK_ULL(63, 52)
#define IRDMA_QPC_QW26			26
#define IRDMA_QPC_QW26_REMENDPOINTIDX	GENMASK_ULL(16, 0)

/**
 * struct irdma_qp_ctx - QP host context, 256 bytes
 * @qw: the little-endian words, see IRDMA_QPC_*
 */
struct irdma_qp_ctx {
	__le64 qw[IRDMA_QPC_WORDS];
};

static_assert(sizeof(struct irdma_qp_ctx) == 256);

/* IRDSIZE encoding: round 2 x IRD up to a power of two */
#define IRDMA_IRD_HW_SIZE_4		0
#define IRDMA_IRD_HW_SIZE_16		1
#define IRDMA_IRD_HW_SIZE_64		2
#define IRDMA_IRD_HW_SIZE_128		3
#define IRDMA_IRD_HW_SIZE_256		4
/* SYN/RST handling of an offloaded QP */
#define IRDMA_SYN_RST_HW_TCP_SECURE	0

/* ------------------------------------------------------------------------ */
/* SQ/RQ work queue elements (32-byte quanta, GEN_2)                         */
/* ------------------------------------------------------------------------ */

#define IRDMA_WQE_WORDS			4
#define IRDMA_WQE_HDR			3	/* header word index */
#define IRDMA_WQE_QUANTUM		32
/*
 * The connection WQEs at the start of every iWARP SQ (the RTS feature:
 * libirdma leaves these quanta free): the only place the adapter takes
 * stream mode, wait-for-receive and GEN_RTS_AE.
 */
#define IRDMA_SQ_CONN_QUANTA		3
#define IRDMA_WQE_HDR_REMSTAG		GENMASK_ULL(31, 0)	/* also inval STag */
#define IRDMA_WQE_HDR_AHID		GENMASK_ULL(16, 0)	/* UD/UDA */
#define IRDMA_WQE_HDR_OPCODE		GENMASK_ULL(37, 32)
#define IRDMA_WQE_HDR_ADDFRAGCNT	GENMASK_ULL(41, 38)
#define IRDMA_WQE_HDR_L4LEN		GENMASK_ULL(45, 42)	/* UDA: TCP hdr words */
#define IRDMA_WQE_HDR_REPORTRTT		BIT_ULL(46)
#define IRDMA_WQE_HDR_IMMDATAFLAG	BIT_ULL(47)
#define IRDMA_WQE_HDR_INLINEDATALEN	GENMASK_ULL(55, 48)
#define IRDMA_WQE_HDR_PUSHWQE		BIT_ULL(56)
#define IRDMA_WQE_HDR_INLINEDATAFLAG	BIT_ULL(57)
#define IRDMA_WQE_HDR_STREAMMODE	BIT_ULL(58)	/* LSMM */
#define IRDMA_WQE_HDR_WAITFORRCVPDU	BIT_ULL(59)	/* LSMM */
#define IRDMA_WQE_HDR_READFENCE		BIT_ULL(60)
#define IRDMA_WQE_HDR_LOCALFENCE	BIT_ULL(61)
#define IRDMA_WQE_HDR_SIGCOMPL		BIT_ULL(62)
#define IRDMA_WQE_HDR_VALID		BIT_ULL(63)
/*
 * Body words.  The first fragment (SGE) sits in words 0 and 1; fragments
 * after it fill the following quanta from word IRDMA_WQE_FRAGS on, two
 * words each.  A fragment is an address (or tagged offset) word, then a
 * word of the IRDMA_WQE_FRAG_* fields.
 */
#define IRDMA_WQE_FRAG0_ADDR		0
#define IRDMA_WQE_FRAG0			1
#define IRDMA_WQE_REMOTE_TO		2	/* Write, Read; else 0 */
#define IRDMA_WQE_FRAGS			4
#define IRDMA_WQE_FRAG_WORDS		2
#define IRDMA_WQE_FRAG_STAG		GENMASK_ULL(31, 0)
#define IRDMA_WQE_FRAG_LEN		GENMASK_ULL(62, 32)
#define IRDMA_WQE_FRAG_VALID		BIT_ULL(63)

/**
 * struct irdma_wqe - one 32-byte SQ/RQ quantum
 * @qw: four little-endian words; qw[IRDMA_WQE_HDR] carries the valid bit
 */
struct irdma_wqe {
	__le64 qw[IRDMA_WQE_WORDS];
};

static_assert(sizeof(struct irdma_wqe) == IRDMA_WQE_QUANTUM);

/**
 * irdma_wqe_frag_word() - where a fragment of an SQ WQE starts
 * @i: the fragment, 0 for the first
 *
 * Return: index of the fragment's address word, counted in words from the
 * start of the WQE's first quantum (so it may lie in a later quantum).
 */
static inline u32 irdma_wqe_frag_word(u32 i)
{
	return i ? IRDMA_WQE_FRAGS + IRDMA_WQE_FRAG_WORDS * (i - 1) :
		   IRDMA_WQE_FRAG0_ADDR;
}

/**
 * enum irdma_wqe_op - SQ WQE opcodes
 * @IRDMA_WQE_OP_RDMA_WRITE: RDMA Write
 * @IRDMA_WQE_OP_RDMA_READ: RDMA Read
 * @IRDMA_WQE_OP_SEND: Send (also the UDA send of the ILQ)
 * @IRDMA_WQE_OP_SEND_INV: Send with Invalidate
 * @IRDMA_WQE_OP_SEND_SOL: solicited Send
 * @IRDMA_WQE_OP_SEND_SOL_INV: solicited Send with Invalidate
 * @IRDMA_WQE_OP_BIND_MW: bind a memory window
 * @IRDMA_WQE_OP_FAST_REGISTER: fast-register an MR
 * @IRDMA_WQE_OP_LOCAL_INVALIDATE: invalidate an STag
 * @IRDMA_WQE_OP_RDMA_READ_LOC_INV: RDMA Read with local invalidate
 * @IRDMA_WQE_OP_NOP: no operation
 * @IRDMA_WQE_OP_RDMA_WRITE_SOL: solicited RDMA Write
 * @IRDMA_WQE_OP_GEN_RTS_AE: raise the LLP_CONNECTION_ESTABLISHED AE
 */
enum irdma_wqe_op {
	IRDMA_WQE_OP_RDMA_WRITE = 0x00,
	IRDMA_WQE_OP_RDMA_READ = 0x01,
	IRDMA_WQE_OP_SEND = 0x03,
	IRDMA_WQE_OP_SEND_INV = 0x04,
	IRDMA_WQE_OP_SEND_SOL = 0x05,
	IRDMA_WQE_OP_SEND_SOL_INV = 0x06,
	IRDMA_WQE_OP_BIND_MW = 0x08,
	IRDMA_WQE_OP_FAST_REGISTER = 0x09,
	IRDMA_WQE_OP_LOCAL_INVALIDATE = 0x0a,
	IRDMA_WQE_OP_RDMA_READ_LOC_INV = 0x0b,
	IRDMA_WQE_OP_NOP = 0x0c,
	IRDMA_WQE_OP_RDMA_WRITE_SOL = 0x0d,
	IRDMA_WQE_OP_GEN_RTS_AE = 0x30,
};

/* fast-register WQE (kernel) */
#define IRDMA_FRWQE_VA			0	/* the region's first address */
#define IRDMA_FRWQE_QW1			1
#define IRDMA_FRWQE_QW1_FIRSTPBLIDXHI	GENMASK_ULL(11, 0)	/* PBLE index 27:16 */
#define IRDMA_FRWQE_QW1_PBLADDR		GENMASK_ULL(63, 12)	/* first page */
#define IRDMA_FRWQE_QW2			2
#define IRDMA_FRWQE_QW2_STAGLEN		GENMASK_ULL(40, 0)
#define IRDMA_FRWQE_QW2_FIRSTPBLIDXLO	GENMASK_ULL(63, 48)	/* PBLE index 15:0 */
#define IRDMA_FRWQE_HDR_STAGKEY		GENMASK_ULL(7, 0)
#define IRDMA_FRWQE_HDR_STAGINDEX	GENMASK_ULL(31, 8)
#define IRDMA_FRWQE_HDR_LPBLSIZE	GENMASK_ULL(45, 44)
#define IRDMA_FRWQE_HDR_HPAGESIZE	GENMASK_ULL(47, 46)
#define IRDMA_FRWQE_HDR_STAGRIGHTS	GENMASK_ULL(52, 48)
#define IRDMA_FRWQE_HDR_VABASEDTO	BIT_ULL(53)
/* SQ ring rules */
#define IRDMA_SQ_RSVD			258	/* quanta kept free */
#define IRDMA_RQ_RSVD			1
#define IRDMA_MAX_QUANTA_PER_WR		8	/* a WQE never crosses 8 quanta */

/**
 * enum irdma_flush_code - MINERR of a flush CQE (MAJERR 1)
 * @IRDMA_FLUSH_GENERAL_ERR: flushed
 * @IRDMA_FLUSH_PROT_ERR: local protection error
 * @IRDMA_FLUSH_REM_ACCESS_ERR: remote access error
 * @IRDMA_FLUSH_LOC_QP_OP_ERR: local QP operation error
 * @IRDMA_FLUSH_REM_OP_ERR: remote operation error
 * @IRDMA_FLUSH_LOC_LEN_ERR: local length error
 * @IRDMA_FLUSH_FATAL_ERR: fatal error
 * @IRDMA_FLUSH_RETRY_EXC_ERR: retries exceeded
 * @IRDMA_FLUSH_MW_BIND_ERR: memory window bind error
 * @IRDMA_FLUSH_REM_INV_REQ_ERR: remote invalid request
 */
enum irdma_flush_code {
	IRDMA_FLUSH_GENERAL_ERR = 1,
	IRDMA_FLUSH_PROT_ERR = 2,
	IRDMA_FLUSH_REM_ACCESS_ERR = 3,
	IRDMA_FLUSH_LOC_QP_OP_ERR = 4,
	IRDMA_FLUSH_REM_OP_ERR = 5,
	IRDMA_FLUSH_LOC_LEN_ERR = 6,
	IRDMA_FLUSH_FATAL_ERR = 7,
	IRDMA_FLUSH_RETRY_EXC_ERR = 8,
	IRDMA_FLUSH_MW_BIND_ERR = 9,
	IRDMA_FLUSH_REM_INV_REQ_ERR = 10,
};

/* CQP ALLOC_STAG: PBL for fast-registered regions */
#define IRDMA_CQP_STAG_QW0_VA		GENMASK_ULL(63, 0)

/* ILQ (privileged UDA QP) buffers */
#define IRDMA_ILQ_BUF_SIZE		1024
#define IRDMA_ILQ_RX_IPV4_PAD		20	/* IPv4 header at byte 20 */
#define IRDMA_ILQ_RX_TCP_OFFSET		40	/* TCP header at byte 40 */

/* ------------------------------------------------------------------------ */
/* Reserved object ids and sizes                                            */
/* ------------------------------------------------------------------------ */
#define IRDMA_CCQ_ID			0
#define IRDMA_ILQ_ID			1	/* QP and CQ id of the ILQ */
#define IRDMA_IEQ_ID			2	/* QP and CQ id of the IEQ */
#define IRDMA_FIRST_USER_QP_ID		3
#define IRDMA_FIRST_USER_CQ_ID		3
#define IRDMA_QP_CTX_SIZE		256
#define IRDMA_Q2_BUF_SIZE		256
/* where in Q2 the adapter copies a received TERMINATE (or bad frame) */
#define IRDMA_Q2_FRAME_OFF		72
/* iWARP header sizes: MPA length field, DDP tagged and untagged headers */
#define IRDMA_MPA_HLEN			2
#define IRDMA_DDP_TAGGED_HLEN		14
#define IRDMA_DDP_UNTAGGED_HLEN		18
#define IRDMA_RDMAP_RREQ_HLEN		28	/* a Read Request's header */
#define IRDMA_DDP_FLAG_TAGGED		0x80	/* first DDP byte: T */
#define IRDMA_DDP_QN_RREQ		1	/* untagged queue of Read Requests */
#define IRDMA_DDP_QN_OFF		6	/* QN in an untagged header */
/*
 * A TERMINATE (RFC 5040 section 4.8) the driver builds at offset 0 of Q2
 * for MODIFY_QP to TERMINATE: a word of layer and error type (one byte),
 * error code and header-control bits, then the offending segment's DDP
 * segment length (M), DDP header (D) and Read Request header (R).  The
 * adapter puts it behind an untagged DDP header of queue 2.  TERMLEN
 * counts its 32-bit words.
 */
#define IRDMA_TERM_LAYER_RDMAP		0x00
#define IRDMA_TERM_LAYER_DDP		0x10
#define IRDMA_TERM_LAYER_MPA		0x20
#define IRDMA_TERM_RDMAP_LOCAL		0x00	/* local catastrophic */
#define IRDMA_TERM_RDMAP_PROT		0x01	/* remote protection */
#define IRDMA_TERM_RDMAP_OP		0x02	/* remote operation */
#define IRDMA_TERM_DDP_CATASTROPHIC	0x00
#define IRDMA_TERM_DDP_TAGGED		0x01
#define IRDMA_TERM_DDP_UNTAGGED		0x02
#define IRDMA_TERM_HDRCT_M		0x80	/* DDP segment length valid */
#define IRDMA_TERM_HDRCT_D		0x40	/* DDP header included */
#define IRDMA_TERM_HDRCT_R		0x20	/* RDMAP header included */
#define IRDMA_TERM_MAX_LEN		(4 + IRDMA_MPA_HLEN + \
					 IRDMA_DDP_UNTAGGED_HLEN + \
					 IRDMA_RDMAP_RREQ_HLEN)
#define IRDMA_CCQ_SIZE			2049
#define IRDMA_RING_ALIGN		256
#define IRDMA_HW_PAGE_SIZE		4096

/* GEN_2 limits */
#define IRDMA_MAX_MR_SIZE		0x200000000000ULL
#define IRDMA_GEN2_MAX_IRD		127
#define IRDMA_GEN2_MAX_ORD		255
#define IRDMA_GEN2_MAX_WQ_FRAGS		13
#define IRDMA_GEN2_MAX_READ_SGES	13
#define IRDMA_GEN2_MAX_INLINE		101
#define IRDMA_GEN2_MAX_WQ_QUANTA	32768
#define IRDMA_GEN2_MAX_RQ_QUANTA	32768
#define IRDMA_GEN2_MAX_CQ_SIZE		1048575
#define IRDMA_MAX_FR_PAGES		262144	/* pages of one fast-register list */
#define IRDMA_GEN2_MAX_SQ_CHUNK		8
#define IRDMA_GEN2_MAX_PUSH_PAGES	1024
/* GEN_1 limits */
#define IRDMA_GEN1_MAX_IRD		63
#define IRDMA_GEN1_MAX_ORD		127
#define IRDMA_GEN1_MAX_WQ_FRAGS		3
#define IRDMA_GEN1_MAX_READ_SGES	1
#define IRDMA_GEN1_MAX_INLINE		48
#define IRDMA_GEN1_MAX_WQ_QUANTA	2048
#define IRDMA_GEN1_MAX_RQ_QUANTA	16384
#define IRDMA_GEN1_MAX_SQ_CHUNK		2

#endif /* IRDMA_DEFS_H */
