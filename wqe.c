// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * irdma - work queue entries: every SQ and RQ WQE the driver writes is
 * encoded here (GEN_2 formats, the same the stock provider writes from
 * user space).  The encoders fill a WQE's body and return its header word;
 * the caller, which owns the ring, makes the WQE valid with
 * irdma_wqe_publish() once it has done its own bookkeeping.
 *
 * A WQE is 1 to 8 quanta of 32 bytes.  Fragment 0 is in words 0 and 1,
 * word 2 holds the remote address of an RDMA operation, word 3 of the
 * first quantum is the header; further fragments follow from byte 32,
 * two per quantum, padded to an even count with a null fragment.
 */
#include <linux/bitfield.h>

#include "wqe.h"

/**
 * irdma_wqe_quanta() - quanta of a WQE with @frags fragments
 * @frags: fragments (SGEs)
 *
 * Return: 1 + (ADDFRAGCNT, padded to even) / 2.
 */
u32 irdma_wqe_quanta(u32 frags)
{
	return frags <= 1 ? 1 : 1 + frags / 2;
}

/**
 * irdma_wqe_frag() - write one fragment
 * @w: word pair (address, STag/length/valid)
 * @sge: the SGE, or NULL for the null padding fragment
 * @pol: valid bit
 */
static void irdma_wqe_frag(__le64 *w, const struct ib_sge *sge, u8 pol)
{
	w[0] = cpu_to_le64(sge ? sge->addr : 0);
	w[1] = le64_encode_bits(sge ? sge->lkey : 0, IRDMA_WQE_FRAG_STAG) |
	       le64_encode_bits(sge ? sge->length : 0, IRDMA_WQE_FRAG_LEN) |
	       le64_encode_bits(pol, IRDMA_WQE_FRAG_VALID);
}

/**
 * irdma_wqe_frags() - the fragments of a WQE
 * @wqe: first quantum of the WQE
 * @sg: SGEs
 * @n: how many
 * @first: fragment slot of the first SGE: 1 when word 0 holds immediate
 *	data, else 0
 * @pol: valid bit
 *
 * Return: ADDFRAGCNT (fragment slots after the first, padding included).
 */
static u32 irdma_wqe_frags(struct irdma_wqe *wqe, const struct ib_sge *sg,
			   u32 n, u32 first, u8 pol)
{
	u32 slots = n + first, i, add;
	__le64 *w = wqe->qw;

	/* slot 0 is written even without an SGE: a null fragment */
	for (i = first; i < max(slots, 1U); i++)
		irdma_wqe_frag(&w[irdma_wqe_frag_word(i)],
			       i < slots ? &sg[i - first] : NULL, pol);
	add = slots > 1 ? slots - 1 : 0;
	/* GEN_2: an even number of fragments gets a null one */
	if (slots && !(slots & 1)) {
		irdma_wqe_frag(&w[irdma_wqe_frag_word(slots)], NULL, pol);
		add++;
	}
	return add;
}

/**
 * irdma_wqe_sge_len() - bytes of a scatter list
 * @sg: SGEs
 * @n: how many
 *
 * Return: the sum of the lengths.
 */
static u32 irdma_wqe_sge_len(const struct ib_sge *sg, int n)
{
	u32 len = 0;

	while (n--)
		len += sg[n].length;
	return len;
}

/**
 * irdma_wqe_plan() - the opcode, size and fixed header bits of a send WR
 * @wr: the work request
 * @p: filled in
 *
 * Context: any; pure function.
 * Return: 0, or -EINVAL for a request a kernel QP cannot carry.
 */
int irdma_wqe_plan(const struct ib_send_wr *wr, struct irdma_wqe_plan *p)
{
	bool sol = wr->send_flags & IB_SEND_SOLICITED;

	memset(p, 0, sizeof(*p));
	if (wr->num_sge > IRDMA_GEN2_MAX_WQ_FRAGS)
		return -EINVAL;
	switch (wr->opcode) {
	case IB_WR_SEND_WITH_INV:
		p->op = sol ? IRDMA_WQE_OP_SEND_SOL_INV : IRDMA_WQE_OP_SEND_INV;
		p->hdr = FIELD_PREP(IRDMA_WQE_HDR_REMSTAG,
				    wr->ex.invalidate_rkey);
		break;
	case IB_WR_SEND:
		p->op = sol ? IRDMA_WQE_OP_SEND_SOL : IRDMA_WQE_OP_SEND;
		break;
	case IB_WR_RDMA_READ_WITH_INV:
		/*
		 * The adapter invalidates the sink's STag once the data is
		 * placed: the one of the first fragment.  It must be the
		 * region the caller names; rdma_rw names it by the key it had
		 * before its last fast-register, so only the index counts.
		 */
		if (!wr->num_sge ||
		    wr->sg_list[0].lkey >> 8 != wr->ex.invalidate_rkey >> 8)
			return -EINVAL;
		p->op = IRDMA_WQE_OP_RDMA_READ_LOC_INV;
		break;
	case IB_WR_RDMA_READ:
		p->op = IRDMA_WQE_OP_RDMA_READ;
		break;
	case IB_WR_RDMA_WRITE_WITH_IMM:
		/* the immediate data takes fragment slot 0 */
		p->imm = true;
		fallthrough;
	case IB_WR_RDMA_WRITE:
		p->op = sol ? IRDMA_WQE_OP_RDMA_WRITE_SOL :
			IRDMA_WQE_OP_RDMA_WRITE;
		break;
	case IB_WR_LOCAL_INV:
		p->op = IRDMA_WQE_OP_LOCAL_INVALIDATE;
		p->quanta = 1;
		return 0;
	case IB_WR_REG_MR:
		p->op = IRDMA_WQE_OP_FAST_REGISTER;
		p->quanta = 1;
		return 0;
	default:
		return -EINVAL;
	}
	if (wr->opcode != IB_WR_SEND && wr->opcode != IB_WR_SEND_WITH_INV) {
		if (p->op != IRDMA_WQE_OP_RDMA_WRITE &&
		    p->op != IRDMA_WQE_OP_RDMA_WRITE_SOL &&
		    wr->num_sge > IRDMA_GEN2_MAX_READ_SGES)
			return -EINVAL;
		p->hdr = FIELD_PREP(IRDMA_WQE_HDR_REMSTAG, rdma_wr(wr)->rkey);
		p->qw2 = rdma_wr(wr)->remote_addr;
	}
	if (p->imm)
		p->hdr |= IRDMA_WQE_HDR_IMMDATAFLAG;
	p->quanta = irdma_wqe_quanta(wr->num_sge + p->imm);
	p->len = irdma_wqe_sge_len(wr->sg_list, wr->num_sge);
	return 0;
}

/**
 * irdma_wqe_send() - the body of an SQ WQE for a send work request
 * @wqe: first quantum, @p->quanta of them zeroed
 * @wr: the work request; not IB_WR_REG_MR (irdma_wqe_fastreg() has the
 *	body of that)
 * @p: its plan (irdma_wqe_plan())
 * @pol: the lap's valid bit
 * @signaled: the WQE completes with a CQE
 *
 * Return: the header word, valid bit included.
 */
u64 irdma_wqe_send(struct irdma_wqe *wqe, const struct ib_send_wr *wr,
		   const struct irdma_wqe_plan *p, u8 pol, bool signaled)
{
	bool fence = wr->send_flags & IB_SEND_FENCE;
	u64 hdr = p->hdr;
	u32 add = 0;

	if (wr->opcode == IB_WR_LOCAL_INV) {
		/* the STag to invalidate, as a fragment with valid bit 0 */
		wqe->qw[IRDMA_WQE_FRAG0] =
			le64_encode_bits(wr->ex.invalidate_rkey,
					 IRDMA_WQE_FRAG_STAG);
		if (fence)
			hdr |= IRDMA_WQE_HDR_LOCALFENCE;
	} else if (wr->opcode != IB_WR_REG_MR) {
		if (p->imm)
			wqe->qw[IRDMA_WQE_FRAG0_ADDR] =
				cpu_to_le64(be32_to_cpu(wr->ex.imm_data));
		add = irdma_wqe_frags(wqe, wr->sg_list, wr->num_sge, p->imm,
				      pol);
		wqe->qw[IRDMA_WQE_REMOTE_TO] = cpu_to_le64(p->qw2);
	}
	return hdr | FIELD_PREP(IRDMA_WQE_HDR_OPCODE, p->op) |
	       FIELD_PREP(IRDMA_WQE_HDR_ADDFRAGCNT, add) |
	       FIELD_PREP(IRDMA_WQE_HDR_READFENCE, fence) |
	       FIELD_PREP(IRDMA_WQE_HDR_SIGCOMPL, signaled) |
	       FIELD_PREP(IRDMA_WQE_HDR_VALID, pol);
}

/**
 * irdma_wqe_fastreg() - the body of a fast-register WQE
 * @wqe: the WQE quantum (zeroed)
 * @fr: the region
 *
 * Word 0 the region's VA, words 1 and 2 the first PBLE's index (split)
 * and content, word 2 the length.  A fast register always waits for the
 * WQEs before it (local fence).
 *
 * Return: the header bits of the region (opcode, valid and signaled are
 * irdma_wqe_send()'s).
 */
u64 irdma_wqe_fastreg(struct irdma_wqe *wqe, const struct irdma_wqe_fastreg *fr)
{
	wqe->qw[IRDMA_FRWQE_VA] = cpu_to_le64(fr->iova);
	wqe->qw[IRDMA_FRWQE_QW1] =
		le64_encode_bits(fr->first_pble >> 16,
				 IRDMA_FRWQE_QW1_FIRSTPBLIDXHI) |
		cpu_to_le64(fr->first_page & IRDMA_FRWQE_QW1_PBLADDR);
	wqe->qw[IRDMA_FRWQE_QW2] =
		le64_encode_bits(fr->len, IRDMA_FRWQE_QW2_STAGLEN) |
		le64_encode_bits(fr->first_pble & 0xffff,
				 IRDMA_FRWQE_QW2_FIRSTPBLIDXLO);
	return FIELD_PREP(IRDMA_FRWQE_HDR_STAGKEY, fr->key & 0xff) |
	       FIELD_PREP(IRDMA_FRWQE_HDR_STAGINDEX, fr->key >> 8) |
	       FIELD_PREP(IRDMA_FRWQE_HDR_LPBLSIZE, fr->pbl_list) |
	       FIELD_PREP(IRDMA_FRWQE_HDR_HPAGESIZE, fr->page_size) |
	       FIELD_PREP(IRDMA_FRWQE_HDR_STAGRIGHTS, fr->rights) |
	       IRDMA_FRWQE_HDR_VABASEDTO | IRDMA_WQE_HDR_LOCALFENCE;
}

/**
 * irdma_wqe_recv() - an RQ WQE
 * @wqe: the WQE (zeroed)
 * @sg: buffers
 * @n: how many
 * @pol: the lap's valid bit
 *
 * Return: the header word.
 */
u64 irdma_wqe_recv(struct irdma_wqe *wqe, const struct ib_sge *sg, u32 n,
		   u8 pol)
{
	u32 add = irdma_wqe_frags(wqe, sg, n, 0, pol);

	return FIELD_PREP(IRDMA_WQE_HDR_ADDFRAGCNT, add) |
	       FIELD_PREP(IRDMA_WQE_HDR_VALID, pol);
}

/**
 * irdma_wqe_nop() - a NOP quantum, as padding
 * @wqe: the quantum
 * @pol: the lap's valid bit
 *
 * Return: the header word.
 */
u64 irdma_wqe_nop(struct irdma_wqe *wqe, u8 pol)
{
	wqe->qw[IRDMA_WQE_FRAG0_ADDR] = 0;
	wqe->qw[IRDMA_WQE_FRAG0] = 0;
	wqe->qw[IRDMA_WQE_REMOTE_TO] = 0;
	return FIELD_PREP(IRDMA_WQE_HDR_OPCODE, IRDMA_WQE_OP_NOP) |
	       FIELD_PREP(IRDMA_WQE_HDR_VALID, pol);
}

/**
 * irdma_wqe_conn() - the three connection WQEs an iWARP SQ starts with
 * @w: IRDMA_CONN_WQES quanta (zeroed), headers included
 * @kind: what slot 0 does
 * @lsmm_pa: DMA address of the MPA reply (@kind IRDMA_WQE_CONN_LSMM)
 * @lsmm_len: its length
 * @lsmm_stag: the STag that covers it
 *
 * Slot 0 per @kind; slot 1 a NOP with local fence, so nothing overtakes
 * it; slot 2 has the adapter raise "connection established".  They are
 * first-lap WQEs (valid bit 1), unsignaled.  Unlike the other encoders
 * this one writes the header words too: the caller copies the quanta into
 * the SQ, headers last.
 */
void irdma_wqe_conn(struct irdma_wqe *w, enum irdma_wqe_conn_kind kind,
		    dma_addr_t lsmm_pa, u32 lsmm_len, u32 lsmm_stag)
{
	u64 hdr0;

	switch (kind) {
	case IRDMA_WQE_CONN_LSMM:
		w[0].qw[IRDMA_WQE_FRAG0_ADDR] = cpu_to_le64(lsmm_pa);
		w[0].qw[IRDMA_WQE_FRAG0] =
			le64_encode_bits(lsmm_len, IRDMA_WQE_FRAG_LEN) |
			le64_encode_bits(lsmm_stag, IRDMA_WQE_FRAG_STAG) |
			cpu_to_le64(IRDMA_WQE_FRAG_VALID);
		fallthrough;
	case IRDMA_WQE_CONN_WAIT:
		hdr0 = FIELD_PREP(IRDMA_WQE_HDR_OPCODE, IRDMA_WQE_OP_SEND) |
		       IRDMA_WQE_HDR_STREAMMODE | IRDMA_WQE_HDR_WAITFORRCVPDU;
		break;
	case IRDMA_WQE_CONN_RTR_READ:
		w[0].qw[IRDMA_WQE_FRAG0] =
			le64_encode_bits(IRDMA_RTR_READ_LSTAG,
					 IRDMA_WQE_FRAG_STAG) |
			cpu_to_le64(IRDMA_WQE_FRAG_VALID);
		hdr0 = FIELD_PREP(IRDMA_WQE_HDR_OPCODE, IRDMA_WQE_OP_RDMA_READ) |
		       FIELD_PREP(IRDMA_WQE_HDR_REMSTAG, IRDMA_RTR_READ_RSTAG);
		break;
	case IRDMA_WQE_CONN_RTR_WRITE:
		w[0].qw[IRDMA_WQE_FRAG0] = cpu_to_le64(IRDMA_WQE_FRAG_VALID);
		hdr0 = FIELD_PREP(IRDMA_WQE_HDR_OPCODE, IRDMA_WQE_OP_RDMA_WRITE);
		break;
	default:
		hdr0 = FIELD_PREP(IRDMA_WQE_HDR_OPCODE, IRDMA_WQE_OP_NOP);
		break;
	}
	w[0].qw[IRDMA_WQE_HDR] = cpu_to_le64(hdr0 | IRDMA_WQE_HDR_VALID);
	w[1].qw[IRDMA_WQE_HDR] =
		cpu_to_le64(FIELD_PREP(IRDMA_WQE_HDR_OPCODE, IRDMA_WQE_OP_NOP) |
			    IRDMA_WQE_HDR_LOCALFENCE | IRDMA_WQE_HDR_VALID);
	w[2].qw[IRDMA_WQE_HDR] =
		cpu_to_le64(FIELD_PREP(IRDMA_WQE_HDR_OPCODE,
				       IRDMA_WQE_OP_GEN_RTS_AE) |
			    IRDMA_WQE_HDR_VALID);
}

/**
 * irdma_wqe_ilq_send() - the ILQ's send WQE: one TCP segment
 * @wqe: the quantum
 * @pa: DMA address of the segment (it starts at the TCP header)
 * @len: its length
 * @ah_id: the address handle the adapter builds the L2/L3 headers from
 * @tcp_hdr_len: bytes of TCP header, a multiple of 4
 * @pol: the lap's valid bit
 *
 * Signaled: the ILQ frees the buffer at the CQE.
 *
 * Return: the header word.
 */
u64 irdma_wqe_ilq_send(struct irdma_wqe *wqe, dma_addr_t pa, u32 len,
		       u32 ah_id, u32 tcp_hdr_len, u8 pol)
{
	wqe->qw[IRDMA_WQE_FRAG0_ADDR] = cpu_to_le64(pa);
	wqe->qw[IRDMA_WQE_FRAG0] = le64_encode_bits(len, IRDMA_WQE_FRAG_LEN) |
				   le64_encode_bits(pol, IRDMA_WQE_FRAG_VALID);
	wqe->qw[IRDMA_WQE_REMOTE_TO] = 0;
	return FIELD_PREP(IRDMA_WQE_HDR_AHID, ah_id) |
	       FIELD_PREP(IRDMA_WQE_HDR_OPCODE, IRDMA_WQE_OP_SEND) |
	       FIELD_PREP(IRDMA_WQE_HDR_L4LEN, tcp_hdr_len >> 2) |
	       IRDMA_WQE_HDR_SIGCOMPL |
	       FIELD_PREP(IRDMA_WQE_HDR_VALID, pol);
}

/**
 * irdma_wqe_publish() - make a WQE valid: its header word, written last
 * @wqe: first quantum, body complete
 * @hdr: the header word (with the lap's valid bit)
 *
 * The body (and any buffer it names) is ordered before the header, which
 * is one store: the adapter may be reading the ring.
 */
void irdma_wqe_publish(struct irdma_wqe *wqe, u64 hdr)
{
	dma_wmb();
	WRITE_ONCE(wqe->qw[IRDMA_WQE_HDR], cpu_to_le64(hdr));
}
