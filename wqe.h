/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * irdma - work queue entries (wqe.c): the one place the driver writes the
 * words of an SQ or RQ WQE.  Callers own the rings (where a WQE goes, the
 * lap's valid bit, the bookkeeping); these functions own the format
 * (Documentation/hw-interface.rst, "SQ and RQ WQEs").
 */
#ifndef IRDMA_WQE_H
#define IRDMA_WQE_H

#include <rdma/ib_verbs.h>

#include "defs.h"

/* the connection WQEs at the start of every iWARP SQ, one quantum each */
#define IRDMA_CONN_WQES		IRDMA_SQ_CONN_QUANTA
/* placeholder STags of a Read RTR: nothing is read */
#define IRDMA_RTR_READ_LSTAG	0xabcd
#define IRDMA_RTR_READ_RSTAG	0x1234

/**
 * struct irdma_wqe_plan - what a send work request becomes
 * @op: IRDMA_WQE_OP_*
 * @quanta: 32-byte quanta the WQE takes
 * @len: bytes the request moves (0 for memory operations)
 * @hdr: header bits that depend on the request alone (remote STag)
 * @qw2: word 2 (the remote address of an RDMA operation)
 * @imm: an RDMA Write with immediate data (word 0, IMMDATAFLAG)
 */
struct irdma_wqe_plan {
	u8 op;
	bool imm;
	u32 quanta;
	u32 len;
	u64 hdr;
	u64 qw2;
};

/**
 * struct irdma_wqe_fastreg - the region a fast-register WQE describes
 * @iova: the region's first byte as the peer addresses it
 * @len: bytes
 * @first_pble: index of the PBLE that lists the region's pages
 * @first_page: DMA address of the first page (the PBLE's content)
 * @key: the STag (index << 8 | key)
 * @pbl_list: more than one page: the PBLE starts a list
 * @page_size: HPAGESIZE code of the page size
 * @rights: IRDMA_ACCESS_* rights
 */
struct irdma_wqe_fastreg {
	u64 iova;
	u64 len;
	u32 first_pble;
	u64 first_page;
	u32 key;
	bool pbl_list;
	u8 page_size;
	u8 rights;
};

/**
 * enum irdma_wqe_conn_kind - the first connection WQE
 * @IRDMA_WQE_CONN_LSMM: passive: send the MPA reply as stream bytes, then
 *	wait for the peer's first FPDU
 * @IRDMA_WQE_CONN_WAIT: passive loopback: no bytes, wait all the same
 * @IRDMA_WQE_CONN_RTR_READ: active: zero-length RDMA Read as the RTR
 * @IRDMA_WQE_CONN_RTR_WRITE: active: zero-length RDMA Write as the RTR
 * @IRDMA_WQE_CONN_NOP: nothing to send (MPA v1 without RTR)
 */
enum irdma_wqe_conn_kind {
	IRDMA_WQE_CONN_LSMM,
	IRDMA_WQE_CONN_WAIT,
	IRDMA_WQE_CONN_RTR_READ,
	IRDMA_WQE_CONN_RTR_WRITE,
	IRDMA_WQE_CONN_NOP,
};

u32 irdma_wqe_quanta(u32 frags);
int irdma_wqe_plan(const struct ib_send_wr *wr, struct irdma_wqe_plan *p);
u64 irdma_wqe_send(struct irdma_wqe *wqe, const struct ib_send_wr *wr,
		   const struct irdma_wqe_plan *p, u8 pol, bool signaled);
u64 irdma_wqe_fastreg(struct irdma_wqe *wqe, const struct irdma_wqe_fastreg *fr);
u64 irdma_wqe_recv(struct irdma_wqe *wqe, const struct ib_sge *sg, u32 n,
		   u8 pol);
u64 irdma_wqe_nop(struct irdma_wqe *wqe, u8 pol);
void irdma_wqe_conn(struct irdma_wqe *w, enum irdma_wqe_conn_kind kind,
		    dma_addr_t lsmm_pa, u32 lsmm_len, u32 lsmm_stag);
u64 irdma_wqe_ilq_send(struct irdma_wqe *wqe, dma_addr_t pa, u32 len,
		       u32 ah_id, u32 tcp_hdr_len, u8 pol);
void irdma_wqe_publish(struct irdma_wqe *wqe, u64 hdr);

#endif /* IRDMA_WQE_H */
