// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * irdma - helpers shared by the driver's files: register access, DMA
 * buffers, names for messages.
 */
#include <linux/dma-mapping.h>

#include "irdma.h"

static const u32 irdma_gen2_regs[IRDMA_REG_NUM] = {
	[IRDMA_REG_CQPTAIL] = IRDMA_GEN2_CQPTAIL,
	[IRDMA_REG_CQPDB] = IRDMA_GEN2_CQPDB,
	[IRDMA_REG_CCQPSTATUS] = IRDMA_GEN2_CCQPSTATUS,
	[IRDMA_REG_CCQPHIGH] = IRDMA_GEN2_CCQPHIGH,
	[IRDMA_REG_CCQPLOW] = IRDMA_GEN2_CCQPLOW,
	[IRDMA_REG_CQARM] = IRDMA_GEN2_CQARM,
	[IRDMA_REG_CQACK] = IRDMA_GEN2_CQACK,
	[IRDMA_REG_AEQALLOC] = IRDMA_GEN2_AEQALLOC,
	[IRDMA_REG_CQPERRCODES] = IRDMA_GEN2_CQPERRCODES,
	[IRDMA_REG_WQEALLOC] = IRDMA_GEN2_WQEALLOC,
	[IRDMA_REG_LBARCTRL] = IRDMA_GEN2_LBARCTRL,
	[IRDMA_REG_CPUSTATUS0] = IRDMA_GEN2_CPUSTATUS0,
	[IRDMA_REG_CPUSTATUS1] = IRDMA_GEN2_CPUSTATUS1,
	[IRDMA_REG_CPUSTATUS2] = IRDMA_GEN2_CPUSTATUS2,
	[IRDMA_REG_AEQCTL] = IRDMA_GEN2_AEQCTL,
	[IRDMA_REG_CEQCTL0] = IRDMA_GEN2_CEQCTL0,
	[IRDMA_REG_DYN_CTL0] = IRDMA_GEN2_DYN_CTL0,
	[IRDMA_REG_PDINV] = IRDMA_GEN2_PDINV,
	[IRDMA_REG_CRITERR] = IRDMA_GEN2_CRITERR,
};

static const u32 irdma_gen1_regs[IRDMA_REG_NUM] = {
	[IRDMA_REG_CQPTAIL] = IRDMA_GEN1_CQPTAIL,
	[IRDMA_REG_CQPDB] = IRDMA_GEN1_CQPDB,
	[IRDMA_REG_CCQPSTATUS] = IRDMA_GEN1_CCQPSTATUS,
	[IRDMA_REG_CCQPHIGH] = IRDMA_GEN1_CCQPHIGH,
	[IRDMA_REG_CCQPLOW] = IRDMA_GEN1_CCQPLOW,
	[IRDMA_REG_CQARM] = IRDMA_GEN1_CQARM,
	[IRDMA_REG_CQACK] = IRDMA_GEN1_CQACK,
	[IRDMA_REG_AEQALLOC] = IRDMA_GEN1_AEQALLOC,
	[IRDMA_REG_CQPERRCODES] = IRDMA_GEN1_CQPERRCODES,
	[IRDMA_REG_WQEALLOC] = IRDMA_GEN1_WQEALLOC,
	[IRDMA_REG_LBARCTRL] = IRDMA_GEN1_LBARCTRL,
	[IRDMA_REG_CPUSTATUS0] = IRDMA_GEN1_CPUSTATUS0,
	[IRDMA_REG_CPUSTATUS1] = IRDMA_GEN1_CPUSTATUS1,
	[IRDMA_REG_CPUSTATUS2] = IRDMA_GEN1_CPUSTATUS2,
	[IRDMA_REG_AEQCTL] = IRDMA_GEN1_AEQCTL,
	[IRDMA_REG_CEQCTL0] = IRDMA_GEN1_CEQCTL0,
	[IRDMA_REG_DYN_CTL0] = IRDMA_GEN1_DYN_CTL0,
	[IRDMA_REG_PDINV] = IRDMA_GEN1_PDINV,
	[IRDMA_REG_CRITERR] = IRDMA_GEN1_CRITERR,
};

/**
 * irdma_reg_table() - register offsets of a hardware generation
 * @gen: hardware generation
 *
 * Return: table indexed by enum irdma_reg.
 */
const u32 *irdma_reg_table(enum irdma_gen gen)
{
	return gen == IRDMA_GEN_1 ? irdma_gen1_regs : irdma_gen2_regs;
}

/**
 * irdma_rd32() - read a function register
 * @rf: RDMA function
 * @reg: register
 *
 * Context: any; does not sleep.
 * Return: the register value.
 */
u32 irdma_rd32(struct irdma_pci_f *rf, enum irdma_reg reg)
{
	return rf->bus_ops->rd32(rf, rf->regs[reg]);
}

/**
 * irdma_wr32() - write a function register
 * @rf: RDMA function
 * @reg: register
 * @val: value
 *
 * Context: any; does not sleep.
 */
void irdma_wr32(struct irdma_pci_f *rf, enum irdma_reg reg, u32 val)
{
	rf->bus_ops->wr32(rf, rf->regs[reg], val);
}

/**
 * irdma_wr32_idx() - write one register of an indexed register array
 * @rf: RDMA function
 * @reg: first register of the array (IRDMA_REG_CEQCTL0, IRDMA_REG_DYN_CTL0)
 * @idx: array index
 * @val: value
 *
 * GEN_1 numbers its DYN_CTL registers from vector 1; GEN_2 from vector 0.
 *
 * Context: any; does not sleep.
 */
void irdma_wr32_idx(struct irdma_pci_f *rf, enum irdma_reg reg, u32 idx,
		    u32 val)
{
	if (rf->gen == IRDMA_GEN_1 && reg == IRDMA_REG_DYN_CTL0 && idx)
		idx--;
	rf->bus_ops->wr32(rf, rf->regs[reg] + 4 * idx, val);
}

/**
 * irdma_dma_alloc() - allocate a zeroed coherent buffer for the adapter
 * @rf: RDMA function
 * @mem: filled with the buffer
 * @size: bytes
 * @align: required alignment (power of two, at most PAGE_SIZE: coherent
 *	allocations are page aligned)
 *
 * Return: 0 or -ENOMEM.
 */
int irdma_dma_alloc(struct irdma_pci_f *rf, struct irdma_dma_mem *mem,
		    size_t size, size_t align)
{
	if (WARN_ON(align > PAGE_SIZE && !IS_ALIGNED(size, align)))
		return -EINVAL;
	mem->size = ALIGN(size, align ?: 1);
	mem->va = dma_alloc_coherent(rf->dma_dev, mem->size, &mem->pa,
				     GFP_KERNEL);
	if (!mem->va)
		return -ENOMEM;
	return 0;
}

/**
 * irdma_dma_free() - free a buffer from irdma_dma_alloc()
 * @rf: RDMA function
 * @mem: buffer; cleared so a second call is harmless
 */
void irdma_dma_free(struct irdma_pci_f *rf, struct irdma_dma_mem *mem)
{
	if (!mem->va)
		return;
	dma_free_coherent(rf->dma_dev, mem->size, mem->va, mem->pa);
	mem->va = NULL;
}

/**
 * irdma_request_reset() - ask the LAN driver to reset the function, once
 * @rf: RDMA function
 *
 * Called when the adapter stops answering the control QP, may still use
 * memory the driver cannot take back, or reports a catastrophic error;
 * the caller has said which.  A bus without resets (the model) can only
 * say so.
 *
 * Context: any.
 */
void irdma_request_reset(struct irdma_pci_f *rf)
{
	if (test_and_set_bit(0, &rf->reset_requested))
		return;
	if (rf->bus_ops->request_reset) {
		dev_err(rf->dma_dev, "requesting a function reset\n");
		rf->bus_ops->request_reset(rf);
	} else {
		dev_err(rf->dma_dev, "the function needs a reset, which its bus cannot do: remove the device\n");
	}
}

/**
 * irdma_dma_leak() - give up a buffer the adapter may still use
 * @rf: RDMA function
 * @mem: buffer; forgotten, not freed
 * @err: why the adapter was not told to stop using it
 *
 * Freeing memory the adapter may still write would corrupt whatever the
 * kernel puts there next; leaking it until a reset is the lesser harm.
 */
void irdma_dma_leak(struct irdma_pci_f *rf, struct irdma_dma_mem *mem, int err)
{
	if (!mem->va)
		return;
	atomic64_add(mem->size, &rf->leaked_bytes);
	dev_err_ratelimited(rf->dma_dev,
			    "leaking %zu bytes of DMA memory the adapter may still use (%d)\n",
			    mem->size, err);
	mem->va = NULL;
	irdma_request_reset(rf);
}

static const char * const irdma_cqp_op_names[IRDMA_CQP_OP_MAX] = {
	[IRDMA_CQP_OP_CREATE_QP] = "CREATE_QP",
	[IRDMA_CQP_OP_MODIFY_QP] = "MODIFY_QP",
	[IRDMA_CQP_OP_DESTROY_QP] = "DESTROY_QP",
	[IRDMA_CQP_OP_CREATE_CQ] = "CREATE_CQ",
	[IRDMA_CQP_OP_MODIFY_CQ] = "MODIFY_CQ",
	[IRDMA_CQP_OP_DESTROY_CQ] = "DESTROY_CQ",
	[IRDMA_CQP_OP_ALLOC_STAG] = "ALLOC_STAG",
	[IRDMA_CQP_OP_REG_MR] = "REG_MR",
	[IRDMA_CQP_OP_QUERY_STAG] = "QUERY_STAG",
	[IRDMA_CQP_OP_REG_SMR] = "REG_SMR",
	[IRDMA_CQP_OP_DEALLOC_STAG] = "DEALLOC_STAG",
	[IRDMA_CQP_OP_MANAGE_LOC_MAC_TABLE] = "MANAGE_LOC_MAC_TABLE",
	[IRDMA_CQP_OP_MANAGE_ARP] = "MANAGE_ARP",
	[IRDMA_CQP_OP_MANAGE_VF_PBLE_BP] = "MANAGE_VF_PBLE_BP",
	[IRDMA_CQP_OP_MANAGE_PUSH_PAGES] = "MANAGE_PUSH_PAGES",
	[IRDMA_CQP_OP_QUERY_RDMA_FEATURES] = "QUERY_RDMA_FEATURES",
	[IRDMA_CQP_OP_UPLOAD_CONTEXT] = "UPLOAD_CONTEXT",
	[IRDMA_CQP_OP_ALLOC_LOC_MAC_TABLE_ENTRY] = "ALLOC_LOC_MAC_TABLE_ENTRY",
	[IRDMA_CQP_OP_MANAGE_HMC_PM_FUNC_TABLE] = "MANAGE_HMC_PM_FUNC_TABLE",
	[IRDMA_CQP_OP_CREATE_CEQ] = "CREATE_CEQ",
	[IRDMA_CQP_OP_DESTROY_CEQ] = "DESTROY_CEQ",
	[IRDMA_CQP_OP_CREATE_AEQ] = "CREATE_AEQ",
	[IRDMA_CQP_OP_DESTROY_AEQ] = "DESTROY_AEQ",
	[IRDMA_CQP_OP_CREATE_ADDR_HANDLE] = "CREATE_ADDR_HANDLE",
	[IRDMA_CQP_OP_MODIFY_ADDR_HANDLE] = "MODIFY_ADDR_HANDLE",
	[IRDMA_CQP_OP_DESTROY_ADDR_HANDLE] = "DESTROY_ADDR_HANDLE",
	[IRDMA_CQP_OP_UPDATE_PE_SDS] = "UPDATE_PE_SDS",
	[IRDMA_CQP_OP_QUERY_FPM_VAL] = "QUERY_FPM_VAL",
	[IRDMA_CQP_OP_COMMIT_FPM_VAL] = "COMMIT_FPM_VAL",
	[IRDMA_CQP_OP_FLUSH_WQES] = "FLUSH_WQES",
	[IRDMA_CQP_OP_MANAGE_APBVT] = "MANAGE_APBVT",
	[IRDMA_CQP_OP_NOP] = "NOP",
	[IRDMA_CQP_OP_MANAGE_QHASH] = "MANAGE_QHASH",
	[IRDMA_CQP_OP_CREATE_MCAST_GRP] = "CREATE_MCAST_GRP",
	[IRDMA_CQP_OP_MODIFY_MCAST_GRP] = "MODIFY_MCAST_GRP",
	[IRDMA_CQP_OP_DESTROY_MCAST_GRP] = "DESTROY_MCAST_GRP",
	[IRDMA_CQP_OP_SUSPEND_QP] = "SUSPEND_QP",
	[IRDMA_CQP_OP_RESUME_QP] = "RESUME_QP",
	[IRDMA_CQP_OP_SHMC_PAGES_ALLOCATED] = "SHMC_PAGES_ALLOCATED",
	[IRDMA_CQP_OP_WORK_SCHED_NODE] = "WORK_SCHED_NODE",
	[IRDMA_CQP_OP_MANAGE_STATS] = "MANAGE_STATS",
	[IRDMA_CQP_OP_GATHER_STATS] = "GATHER_STATS",
	[IRDMA_CQP_OP_UP_MAP] = "UP_MAP",
};

/**
 * irdma_cqp_op_name() - printable name of a CQP opcode
 * @opcode: hardware opcode
 *
 * Return: the name, or "UNKNOWN".
 */
const char *irdma_cqp_op_name(u8 opcode)
{
	if (opcode < IRDMA_CQP_OP_MAX && irdma_cqp_op_names[opcode])
		return irdma_cqp_op_names[opcode];
	return "UNKNOWN";
}

/**
 * irdma_ip_to_words() - place an IP address into two descriptor words
 * @hi_word: word receiving address words 0 and 1 (63:32 and 31:0)
 * @lo_word: word receiving address words 2 and 3
 * @ip: address as host-order words, [0] most significant (IPv4 in [3])
 * @ipv4: the address is IPv4: only @lo_word bits 31:0 are used
 *
 * This is the layout of the QHASH, address-handle and QP-context address
 * fields.
 */
void irdma_ip_to_words(__le64 *hi_word, __le64 *lo_word, const u32 ip[4],
		       bool ipv4)
{
	if (ipv4) {
		*lo_word = le64_encode_bits(ip[3], IRDMA_IP_LO);
		return;
	}
	*hi_word = le64_encode_bits(ip[0], IRDMA_IP_HI) |
		   le64_encode_bits(ip[1], IRDMA_IP_LO);
	*lo_word = le64_encode_bits(ip[2], IRDMA_IP_HI) |
		   le64_encode_bits(ip[3], IRDMA_IP_LO);
}

/**
 * irdma_cq_ring_alloc() - allocate a CQ ring and its shadow area
 * @rf: RDMA function
 * @ring: ring to fill
 * @id: CQ id
 * @size: CQEs
 *
 * Return: 0 or -ENOMEM.
 */
int irdma_cq_ring_alloc(struct irdma_pci_f *rf, struct irdma_cq_ring *ring,
			u32 id, u32 size)
{
	size_t ring_bytes = ALIGN(size * sizeof(struct irdma_cqe),
				  IRDMA_CQ_SHADOW_ALIGN);
	int ret;

	ret = irdma_dma_alloc(rf, &ring->mem, ring_bytes +
			      IRDMA_CQ_SHADOW_WORDS * sizeof(__le64),
			      IRDMA_RING_ALIGN);
	if (ret)
		return ret;
	ring->shadow = ring->mem.va + ring_bytes;
	ring->shadow_pa = ring->mem.pa + ring_bytes;
	ring->size = size;
	ring->head = 0;
	ring->polarity = 1;
	ring->id = id;
	return 0;
}
