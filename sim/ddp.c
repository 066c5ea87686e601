// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * irdma_sim - the wire formats of the iWARP engine: MPA framing (RFC 5044:
 * FPDU = 16-bit ULPDU length, ULPDU, pad to 4, CRC32c over all of it; no
 * markers), DDP (RFC 5041: tagged and untagged headers, queues 0 Send,
 * 1 Read Request, 2 Terminate, MSN, MO, the L bit) and RDMAP (RFC 5040:
 * Write, Read Request/Response, Send with SE and Invalidate, Terminate),
 * and the placement of data into registered memory.
 *
 * Transmit.  The message in progress (iw->msg: an SQ Send or Write, or
 * the response to a peer's Read Request) is cut into FPDUs of at most the
 * MSS, built in the QP's staging buffer and handed to the socket without
 * blocking; what the socket does not take waits for its write-space
 * callback.  Read Requests and TERMINATEs are one FPDU each.
 *
 * Receive.  Bytes from the socket go into a bounded buffer (one maximal
 * FPDU); each complete FPDU is checked (length, CRC, DDP and RDMAP
 * versions, queue number, MSN, MO, STag, PD, rights, bounds) and placed.
 * A Send waits, with its bytes kept, until a receive WQE is posted.  Any
 * protocol or protection error stops the QP: a TERMINATE goes to the
 * peer and an AE to the driver.
 *
 * Memory.  irdma_sim_iw_mem() resolves an STag: the MR table (REG_MR,
 * ALLOC_STAG + fast register), its PD, key, rights and bounds, then pages
 * through its PBL in the HMC (or its contiguous address), each page
 * checked to be RAM; STag 0 is a DMA address on privileged QPs only.  The
 * copy runs under sim->lock, one page at a time at most.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitfield.h>
#include <linux/crc32.h>
#include <linux/crc32c.h>
#include <linux/jump_label.h>
#include <linux/ktime.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <asm/unaligned.h>

#include "iw.h"

/* room the staging buffer must have for one more FPDU */
#define IRDMA_SIM_IW_FPDU_ROOM(iw)	((iw)->mss + 64)
/*
 * kept free behind the data for a TERMINATE (at most 2 + 18 + 4 + 2 + 18
 * + 28 + 4 bytes), so that one is queued however full the buffer is
 */
#define IRDMA_SIM_IW_TERM_ROOM		128
/* no receive (or inbound read queue entry) for an untagged message */
#define IRDMA_SIM_AE_NO_BUF	IRDMA_AE_DDP_UBE_INVALID_MSN_NO_BUFFER_AVAILABLE
#define IRDMA_SIM_AE_TOO_LONG	IRDMA_AE_DDP_UBE_DDP_MESSAGE_TOO_LONG_FOR_AVAILABLE_BUFFER

static const u32 irdma_sim_iw_buf_size[IRDMA_SIM_IW_BUF_KINDS] = {
	[IRDMA_SIM_IW_BUF_TX] = IRDMA_SIM_IW_TXBUF,
	[IRDMA_SIM_IW_BUF_RX] = IRDMA_SIM_IW_RXBUF,
};

/* the MPA CRC is computed by the table code (irdma_sim_crc_select()) */
static DEFINE_STATIC_KEY_FALSE(irdma_sim_crc_table);

/* bytes of the CRC calibration: one full FPDU on an Ethernet MTU */
#define IRDMA_SIM_CRC_PROBE_LEN		1448
#define IRDMA_SIM_CRC_PROBE_ROUNDS	8

/**
 * irdma_sim_crc() - the MPA CRC of a run of bytes (RFC 5044: CRC32c)
 * @p: bytes
 * @len: count
 *
 * Return: the CRC, in host order.
 */
static u32 irdma_sim_crc(const void *p, u32 len)
{
	if (static_branch_likely(&irdma_sim_crc_table))
		return ~__crc32c_le(~0U, p, len);
	return ~crc32c(~0U, p, len);
}

/**
 * irdma_sim_crc_ns() - the best of a few timings of one CRC routine
 * @table: time the table code (__crc32c_le()), not crc32c()
 * @buf: IRDMA_SIM_CRC_PROBE_LEN bytes
 *
 * Return: nanoseconds.
 */
static u64 __init irdma_sim_crc_ns(bool table, const u8 *buf)
{
	u64 best = U64_MAX, t;
	u32 crc = ~0U;
	int i;

	for (i = 0; i < IRDMA_SIM_CRC_PROBE_ROUNDS; i++) {
		t = ktime_get_ns();
		crc = table ? __crc32c_le(crc, buf, IRDMA_SIM_CRC_PROBE_LEN) :
			      crc32c(crc, buf, IRDMA_SIM_CRC_PROBE_LEN);
		/* each call depends on the last, and the result is used */
		barrier_data(&crc);
		best = min(best, ktime_get_ns() - t);
	}
	return best;
}

/**
 * irdma_sim_crc_select() - pick the faster CRC32c routine on this machine
 *
 * crc32c() goes through the crypto API to the best routine the CPU has
 * (the SSE4.2 instruction, with carry-less multiplies for long runs);
 * __crc32c_le() is the library's table code.  On a CPU the instruction
 * is native to, the first is several times faster; under an emulator
 * (QEMU's TCG) each such instruction is a call into the emulator, and the
 * table code was measured four times faster.  Both compute the same CRC,
 * so the model times each on one FPDU's worth of bytes, as the kernel's
 * RAID code picks its XOR routine, and keeps the faster.  Called once,
 * from module init.
 */
void __init irdma_sim_crc_select(void)
{
	u64 arch, table;
	u8 *buf;

	buf = kmalloc(IRDMA_SIM_CRC_PROBE_LEN, GFP_KERNEL);
	if (!buf)
		return;
	get_random_bytes(buf, IRDMA_SIM_CRC_PROBE_LEN);
	arch = irdma_sim_crc_ns(false, buf);
	table = irdma_sim_crc_ns(true, buf);
	kfree(buf);
	if (table < arch)
		static_branch_enable(&irdma_sim_crc_table);
	pr_info("MPA CRC32c by the %s routine: %llu ns per %u bytes (crc32c(): %llu ns)\n",
		table < arch ? "table" : "crc32c()", min(table, arch),
		IRDMA_SIM_CRC_PROBE_LEN, arch);
}

/**
 * irdma_sim_iw_buf_spare() - a spare buffer of one kind from the cache
 * @sim: instance
 * @kind: enum irdma_sim_iw_buf
 *
 * Context: any; the cache lock is taken with BHs off (the socket's
 * data_ready callback takes buffers too).
 * Return: the buffer, or NULL when the cache has none of that kind.
 */
static void *irdma_sim_iw_buf_spare(struct irdma_sim *sim, u32 kind)
{
	struct irdma_sim_iw_cache *c = &sim->iw_bufs;
	void *buf = NULL;

	spin_lock_bh(&c->lock);
	if (c->n[kind])
		buf = c->free[kind][--c->n[kind]];
	spin_unlock_bh(&c->lock);
	return buf;
}

/**
 * irdma_sim_iw_buf_get() - a buffer of one kind, spare or new
 * @sim: instance
 * @kind: enum irdma_sim_iw_buf
 *
 * Context: process context, no locks held.
 * Return: the buffer, or NULL when memory ran out.
 */
static void *irdma_sim_iw_buf_get(struct irdma_sim *sim, u32 kind)
{
	return irdma_sim_iw_buf_spare(sim, kind) ?:
	       kvmalloc(irdma_sim_iw_buf_size[kind], GFP_KERNEL);
}

/**
 * irdma_sim_iw_buf_put() - give back a buffer irdma_sim_iw_buf_get() gave
 * @sim: instance
 * @kind: enum irdma_sim_iw_buf
 * @buf: the buffer, or NULL
 */
static void irdma_sim_iw_buf_put(struct irdma_sim *sim, u32 kind, void *buf)
{
	struct irdma_sim_iw_cache *c = &sim->iw_bufs;

	if (!buf)
		return;
	spin_lock_bh(&c->lock);
	if (c->n[kind] < IRDMA_SIM_IW_BUF_CACHE) {
		c->free[kind][c->n[kind]++] = buf;
		buf = NULL;
	}
	spin_unlock_bh(&c->lock);
	kvfree(buf);
}

/**
 * irdma_sim_iw_get_bufs() - give a running engine its staging and receive
 * buffers
 * @iw: engine; the caller holds its run bit
 *
 * The engine keeps them while bytes wait in them and gives them back when
 * a run ends with both empty (irdma_sim_iw_idle_bufs()), so memory grows
 * with the connections that move data, not with those that exist.
 *
 * Context: process context, no locks held.
 * Return: 0 or -ENOMEM.
 */
int irdma_sim_iw_get_bufs(struct irdma_sim_iw *iw)
{
	struct irdma_sim_iw_cache *c = &iw->sim->iw_bufs;
	u32 fail;

	if (iw->tx && iw->rx)
		return 0;
	/* the fail_iw_bufs knob: this request gets nothing */
	spin_lock_bh(&c->lock);
	fail = READ_ONCE(iw->sim->knobs.fail_iw_bufs);
	if (fail)
		WRITE_ONCE(iw->sim->knobs.fail_iw_bufs, fail - 1);
	spin_unlock_bh(&c->lock);
	if (fail)
		return -ENOMEM;
	if (!iw->tx)
		iw->tx = irdma_sim_iw_buf_get(iw->sim, IRDMA_SIM_IW_BUF_TX);
	if (!iw->rx)
		iw->rx = irdma_sim_iw_buf_get(iw->sim, IRDMA_SIM_IW_BUF_RX);
	return iw->tx && iw->rx ? 0 : -ENOMEM;
}

/**
 * irdma_sim_iw_spare_rx() - give an engine a receive buffer without
 * allocating
 * @iw: engine; the caller holds its run bit
 *
 * For the socket's data_ready callback, which must not allocate 66 KiB
 * in a softirq: only a spare buffer of the instance will do.
 *
 * Return: true when the engine has a receive buffer.
 */
bool irdma_sim_iw_spare_rx(struct irdma_sim_iw *iw)
{
	if (!iw->rx && !READ_ONCE(iw->sim->knobs.fail_iw_bufs))
		iw->rx = irdma_sim_iw_buf_spare(iw->sim, IRDMA_SIM_IW_BUF_RX);
	return iw->rx;
}

/**
 * irdma_sim_iw_idle_bufs() - give back the buffers that hold no bytes
 * @iw: engine; the caller holds its run bit
 *
 * The staging buffer holds none once the socket took all of it; the
 * receive buffer once every byte read was parsed (a partial FPDU keeps it).
 */
void irdma_sim_iw_idle_bufs(struct irdma_sim_iw *iw)
{
	if (iw->tx && iw->txoff == iw->txlen) {
		irdma_sim_iw_buf_put(iw->sim, IRDMA_SIM_IW_BUF_TX, iw->tx);
		iw->tx = NULL;
		iw->txoff = 0;
		iw->txlen = 0;
		iw->txraw = 0;
		iw->txfend = 0;
	}
	if (iw->rx && iw->rxoff == iw->rxlen) {
		irdma_sim_iw_buf_put(iw->sim, IRDMA_SIM_IW_BUF_RX, iw->rx);
		iw->rx = NULL;
		iw->rxoff = 0;
		iw->rxlen = 0;
	}
}

/**
 * irdma_sim_iw_free_bufs() - give back both buffers, whatever they hold
 * @iw: engine being destroyed
 */
void irdma_sim_iw_free_bufs(struct irdma_sim_iw *iw)
{
	irdma_sim_iw_buf_put(iw->sim, IRDMA_SIM_IW_BUF_TX, iw->tx);
	irdma_sim_iw_buf_put(iw->sim, IRDMA_SIM_IW_BUF_RX, iw->rx);
	iw->tx = NULL;
	iw->rx = NULL;
}

/**
 * irdma_sim_iw_bufs_fini() - free an instance's spare buffers
 * @sim: instance whose engines are all destroyed
 */
void irdma_sim_iw_bufs_fini(struct irdma_sim *sim)
{
	struct irdma_sim_iw_cache *c = &sim->iw_bufs;
	u32 kind;

	for (kind = 0; kind < IRDMA_SIM_IW_BUF_KINDS; kind++)
		while (c->n[kind])
			kvfree(c->free[kind][--c->n[kind]]);
}

/* ------------------------------------------------------------------------ */
/* Memory                                                                   */
/* ------------------------------------------------------------------------ */

/**
 * irdma_sim_iw_mr_page() - kernel address of a byte of an MR
 * @sim: instance
 * @mr: registered MR
 * @off: byte offset from the MR's first byte
 * @chunk: in: bytes wanted; out: bytes usable at the address (same page)
 * @to_mem: the model writes there (else it only reads)
 *
 * Context: sim->lock held.
 * Return: the address, or NULL when the memory is not RAM or the PBL
 * has no backing.
 */
static u8 *irdma_sim_iw_mr_page(struct irdma_sim *sim,
				const struct irdma_sim_mr *mr, u64 off,
				u32 *chunk, bool to_mem)
{
	u64 pgsz = (u64)IRDMA_HW_PAGE_SIZE << (9 * mr->page_size);
	u64 pa, pos;
	u32 n;

	if (!mr->pbl_level) {
		pa = mr->pa + off;
	} else {
		pos = off + (mr->va & (pgsz - 1));
		if (pos / pgsz > U32_MAX ||
		    irdma_sim_pbl_page(sim, mr->pbl_level, mr->first_pble,
				       pos / pgsz, &pa))
			return NULL;
		pa += pos % pgsz;
	}
	n = IRDMA_HW_PAGE_SIZE - (pa & (IRDMA_HW_PAGE_SIZE - 1));
	*chunk = min(*chunk, n);
	return to_mem ? irdma_sim_dma_va(sim, pa, *chunk) :
			irdma_sim_dma_src_va(sim, pa, *chunk);
}

/**
 * irdma_sim_iw_mem() - read or write registered memory, or check access
 * @iw: engine
 * @stag: STag (0: DMA address, privileged QPs only)
 * @to: tagged offset
 * @buf: data, or NULL to check the access only
 * @len: bytes
 * @to_mem: write @buf into memory (else read memory into @buf)
 * @rights: IRDMA_ACCESS_* bits the access needs
 *
 * Return: 0; -ENOENT for an invalid STag (unknown, wrong key, invalidated,
 * not allocated), -EPERM for STag 0 on a QP that may not use it, -EACCES
 * for remote access the QP's context or the region's rights do not allow,
 * -EXDEV for a region of another PD, -ERANGE for a range outside it,
 * -EFAULT for memory that is not RAM, -ENODEV when the QP is gone.
 */
int irdma_sim_iw_mem(struct irdma_sim_iw *iw, u32 stag, u64 to, void *buf,
		     u32 len, bool to_mem, u8 rights)
{
	struct irdma_sim *sim = iw->sim;
	struct irdma_sim_mr *mr = NULL;
	unsigned long flags;
	u32 done = 0, chunk;
	u64 off = 0;
	int ret = 0;
	u8 *va;

	if (!len)
		return 0;
	spin_lock_irqsave(&sim->lock, flags);
	if (sim->dead || iw->stopping || !iw->qp->live ||
	    iw->qp->gen != sim->gen) {
		ret = -ENODEV;
		goto out;
	}
	/* the QP's own rights (its context) come before the region's */
	if (((rights & IRDMA_ACCESS_REMOTE_WRITE) && !iw->wr_ok) ||
	    ((rights & IRDMA_ACCESS_REMOTE_READ) && !iw->rd_ok)) {
		ret = -EACCES;
		goto out;
	}
	if (!stag) {
		/*
		 * STag 0 names DMA addresses: only a privileged QP's own
		 * SGEs may use it, never a peer's Write, Read or Read Request
		 */
		if (!iw->priv ||
		    (rights & (IRDMA_ACCESS_REMOTE_READ |
			       IRDMA_ACCESS_REMOTE_WRITE))) {
			ret = -EPERM;
			goto out;
		}
	} else {
		mr = xa_load(&sim->mrs, stag >> 8);
		if (!mr || !mr->live || mr->gen != sim->gen ||
		    !mr->registered || !mr->is_mr ||
		    mr->key != (stag & 0xff)) {
			ret = -ENOENT;
			goto out;
		}
		if (mr->pd != iw->pd) {
			ret = -EXDEV;
			goto out;
		}
		if ((mr->rights & rights) != rights) {
			ret = -EACCES;
			goto out;
		}
		if (mr->va_based) {
			if (to < mr->va || to - mr->va > mr->len ||
			    len > mr->len - (to - mr->va)) {
				ret = -ERANGE;
				goto out;
			}
			off = to - mr->va;
		} else {
			if (to > mr->len || len > mr->len - to) {
				ret = -ERANGE;
				goto out;
			}
			off = to;
		}
	}
	/*
	 * an access check only (a Read Request): the response path meets
	 * pages without backing one at a time; walking up to 2 GiB here with
	 * interrupts off would let the peer stall the CPU
	 */
	if (!buf)
		goto out;
	while (done < len) {
		chunk = len - done;
		if (mr) {
			va = irdma_sim_iw_mr_page(sim, mr, off + done, &chunk,
						  to_mem);
		} else {
			chunk = min_t(u32, chunk, IRDMA_HW_PAGE_SIZE -
				      ((to + done) & (IRDMA_HW_PAGE_SIZE - 1)));
			va = to_mem ? irdma_sim_dma_va(sim, to + done, chunk) :
				      irdma_sim_dma_src_va(sim, to + done, chunk);
		}
		if (!va) {
			ret = -EFAULT;
			goto out;
		}
		if (buf) {
			if (to_mem)
				memcpy(va, (u8 *)buf + done, chunk);
			else
				memcpy((u8 *)buf + done, va, chunk);
		}
		done += chunk;
	}
out:
	spin_unlock_irqrestore(&sim->lock, flags);
	return ret;
}

/**
 * irdma_sim_iw_sges() - copy between an SGE list and a buffer
 * @iw: engine
 * @sge: list
 * @nsge: entries
 * @off: byte offset into the list
 * @buf: data
 * @len: bytes
 * @to_mem: write into the SGEs (local write), else read them (local read)
 *
 * Return: 0, -EMSGSIZE when @off + @len is beyond the list, or an
 * irdma_sim_iw_mem() error.
 */
static int irdma_sim_iw_sges(struct irdma_sim_iw *iw,
			     const struct irdma_sim_sge *sge, u32 nsge, u32 off,
			     u8 *buf, u32 len, bool to_mem)
{
	u8 rights = to_mem ? IRDMA_ACCESS_LOCAL_WRITE : IRDMA_ACCESS_LOCAL_READ;
	u32 i, n;
	int ret;

	for (i = 0; i < nsge && len; i++) {
		if (off >= sge[i].len) {
			off -= sge[i].len;
			continue;
		}
		n = min(len, sge[i].len - off);
		ret = irdma_sim_iw_mem(iw, sge[i].stag, sge[i].to + off, buf, n,
				       to_mem, rights);
		if (ret)
			return ret;
		buf += n;
		len -= n;
		off = 0;
	}
	return len ? -EMSGSIZE : 0;
}

/**
 * irdma_sim_iw_prot_ae() - AE of a protection error
 * @err: irdma_sim_iw_mem() error
 *
 * Return: the AE code.
 */
static u32 irdma_sim_iw_prot_ae(int err)
{
	switch (err) {
	case -ENOENT:
		return IRDMA_AE_AMP_INVALID_STAG;
	case -EPERM:
		return IRDMA_AE_STAG_ZERO_INVALID;
	case -ERANGE:
		return IRDMA_AE_AMP_BOUNDS_VIOLATION;
	case -EACCES:
		return IRDMA_AE_AMP_RIGHTS_VIOLATION;
	case -EXDEV:
		return IRDMA_AE_AMP_BAD_PD;
	default:
		return IRDMA_AE_LCE_QP_CATASTROPHIC;
	}
}

/* ------------------------------------------------------------------------ */
/* Transmit                                                                 */
/* ------------------------------------------------------------------------ */

/**
 * irdma_sim_iw_fpdu_len() - bytes of an FPDU on the wire
 * @iw: engine (whether the connection has CRCs)
 * @ulen: its ULPDU length, the MPA length field
 *
 * Return: header, ULPDU, pad to 4 and CRC.
 */
static u32 irdma_sim_iw_fpdu_len(struct irdma_sim_iw *iw, u32 ulen)
{
	return ALIGN(IRDMA_MPA_HLEN + ulen, 4) +
	       (iw->crc ? IRDMA_SIM_MPA_CRCLEN : 0);
}

/**
 * irdma_sim_iw_tx_piece() - where the next write to the socket ends
 * @iw: engine with staged bytes (@iw->txoff < @iw->txlen)
 *
 * The unframed LSMM bytes go as one piece, a record of their own.  After
 * them a piece is the FPDUs that each fill a segment of the socket's
 * current MSS exactly, up to and including the first that does not (a
 * message's last, a Read Request, a TERMINATE), which ends a record.
 * TCP cuts its buffers into segments of the MSS from a record's start,
 * so every segment still starts with an FPDU and holds one, as the
 * adapter, an aligned implementation, sends them; but full FPDUs share a
 * buffer, which crosses the stack once for up to 64 KiB (segmentation
 * offload) instead of once per segment.  When the MSS is not a multiple
 * of 4, no FPDU fills a segment, and each is a record.
 *
 * The peer's window may also cut a buffer, and not at a segment's end;
 * so a record that shares its buffer ends where the window does
 * (irdma_sim_tcp_wnd_room()), and an FPDU beyond it is a record of its
 * own, which TCP sends whole or not at all.
 *
 * Return: the offset in @iw->tx the piece ends at; @iw->txeor tells
 * whether it ends a record.
 */
static u32 irdma_sim_iw_tx_piece(struct irdma_sim_iw *iw)
{
	u32 seg, room, end, flen;

	if (iw->txoff < iw->txraw) {
		iw->txeor = true;
		return iw->txraw;
	}
	if (iw->txoff < iw->txfend)
		return min(iw->txfend, iw->txlen);
	seg = irdma_sim_tcp_mss(iw);
	room = irdma_sim_tcp_wnd_room(iw);
	end = iw->txoff;
	iw->txeor = false;
	while (end < iw->txlen && !iw->txeor) {
		flen = irdma_sim_iw_fpdu_len(iw,
					     get_unaligned_be16(iw->tx + end));
		if (end > iw->txoff && end - iw->txoff + flen > room) {
			/* beyond the window: the next piece, alone */
			iw->txeor = true;
			break;
		}
		end += flen;
		iw->txeor = flen != seg || end - iw->txoff >= room;
	}
	iw->txfend = end;
	return min(end, iw->txlen);
}

/**
 * irdma_sim_iw_push() - give staged bytes to the socket
 * @iw: engine
 *
 * Return: true when bytes were taken.
 */
bool irdma_sim_iw_push(struct irdma_sim_iw *iw)
{
	bool progress = false;
	u32 end;
	int n;

	while (iw->sock && iw->txoff < iw->txlen) {
		end = irdma_sim_iw_tx_piece(iw);
		n = irdma_sim_tcp_send(iw, iw->tx + iw->txoff, end - iw->txoff,
				       iw->txeor);
		if (n <= 0) {
			if (n != -EAGAIN && n != 0)
				irdma_sim_iw_close_check(iw, false, true);
			break;
		}
		iw->txoff += n;
		iw->stats.tx_bytes += n;
		progress = true;
	}
	if (iw->txoff == iw->txlen) {
		iw->txoff = 0;
		iw->txlen = 0;
		iw->txraw = 0;
		iw->txfend = 0;
	}
	return progress;
}

/**
 * irdma_sim_iw_fits() - whether the staging buffer has room for @need bytes
 * @iw: engine
 * @need: bytes
 *
 * Moves the unsent bytes to the front when that makes room.
 *
 * Return: true if they fit.
 */
static bool irdma_sim_iw_fits(struct irdma_sim_iw *iw, u32 need)
{
	if (!iw->tx)
		return false;
	if (IRDMA_SIM_IW_TXBUF - iw->txlen >= need)
		return true;
	if (iw->txoff) {
		memmove(iw->tx, iw->tx + iw->txoff, iw->txlen - iw->txoff);
		iw->txlen -= iw->txoff;
		iw->txraw -= min(iw->txraw, iw->txoff);
		iw->txfend -= min(iw->txfend, iw->txoff);
		iw->txoff = 0;
	}
	return IRDMA_SIM_IW_TXBUF - iw->txlen >= need;
}

/**
 * irdma_sim_iw_room() - whether one more FPDU fits in the staging buffer
 * @iw: engine
 *
 * The room kept for a TERMINATE is not counted.
 *
 * Return: true if it fits.
 */
bool irdma_sim_iw_room(struct irdma_sim_iw *iw)
{
	return irdma_sim_iw_fits(iw, IRDMA_SIM_IW_FPDU_ROOM(iw) +
				 IRDMA_SIM_IW_TERM_ROOM);
}

/**
 * irdma_sim_iw_max_payload() - payload bytes one FPDU carries
 * @iw: engine
 * @hlen: DDP/RDMAP header bytes
 *
 * Return: the largest payload that keeps the FPDU within one segment:
 * the MSS of the context, or the socket's effective MSS when smaller.
 */
static u32 irdma_sim_iw_max_payload(struct irdma_sim_iw *iw, u32 hlen)
{
	u32 mss = iw->mss, fpdu;

	if (iw->sock)
		mss = clamp(irdma_sim_tcp_mss(iw), 128U, mss);
	fpdu = rounddown(mss - (iw->crc ? IRDMA_SIM_MPA_CRCLEN : 0), 4);
	return fpdu - IRDMA_MPA_HLEN - hlen;
}

/**
 * irdma_sim_iw_fpdu_end() - pad an FPDU and add its CRC
 * @iw: engine
 * @start: offset of the FPDU in the staging buffer
 * @ulpdu: ULPDU bytes written after the length field
 */
static void irdma_sim_iw_fpdu_end(struct irdma_sim_iw *iw, u32 start,
				  u32 ulpdu)
{
	u8 *p = iw->tx + start;
	u32 len = IRDMA_MPA_HLEN + ulpdu;
	__le32 crc;

	put_unaligned_be16(ulpdu, p);
	while (len & 3)
		p[len++] = 0;
	if (iw->crc) {
		crc = cpu_to_le32(irdma_sim_crc(p, len));
		memcpy(p + len, &crc, sizeof(crc));
		len += sizeof(crc);
	}
	iw->txlen = start + len;
	iw->stats.tx_fpdus++;
}

/**
 * irdma_sim_iw_untagged() - write an untagged DDP/RDMAP header
 * @p: where
 * @last: L bit
 * @op: RDMAP opcode
 * @inv: Invalidate STag (Send with Invalidate) or 0
 * @qn: queue number
 * @msn: message sequence number
 * @mo: message offset
 */
static void irdma_sim_iw_untagged(u8 *p, bool last, u8 op, u32 inv, u32 qn,
				  u32 msn, u32 mo)
{
	p[0] = (last ? IRDMA_SIM_DDP_LAST : 0) | IRDMA_SIM_DDP_VER;
	p[1] = IRDMA_SIM_RDMAP_VER | op;
	put_unaligned_be32(inv, p + 2);
	put_unaligned_be32(qn, p + 6);
	put_unaligned_be32(msn, p + 10);
	put_unaligned_be32(mo, p + 14);
}

/**
 * irdma_sim_iw_send_rreq() - send an RDMA Read Request
 * @iw: engine (room checked by the caller)
 * @rr: the read
 * @src_stag: peer's source STag
 * @src_to: peer's source offset
 */
void irdma_sim_iw_send_rreq(struct irdma_sim_iw *iw,
			    const struct irdma_sim_iw_rread *rr, u32 src_stag,
			    u64 src_to)
{
	u32 start = iw->txlen;
	u8 *p = iw->tx + start + IRDMA_MPA_HLEN;

	irdma_sim_iw_untagged(p, true, IRDMA_SIM_RDMAP_READ_REQ, 0,
			      IRDMA_SIM_QN_RREQ, iw->msn[IRDMA_SIM_QN_RREQ]++, 0);
	p += IRDMA_DDP_UNTAGGED_HLEN;
	put_unaligned_be32(rr->sink_stag, p);
	put_unaligned_be64(rr->sink_to, p + 4);
	put_unaligned_be32(rr->total, p + 12);
	put_unaligned_be32(src_stag, p + 16);
	put_unaligned_be64(src_to, p + 20);
	irdma_sim_iw_fpdu_end(iw, start, IRDMA_DDP_UNTAGGED_HLEN +
			      IRDMA_SIM_RREQ_LEN);
	irdma_sim_gstat_add(iw->sim, IRDMA_GSTAT_RDMA_TX_READS, 1);
}

/**
 * irdma_sim_iw_send_term() - send the TERMINATE the driver built in Q2
 * @iw: engine
 * @words: TERMLEN of the MODIFY_QP to TERMINATE: 32-bit words at the
 *	start of Q2 (RFC 5040 section 4.8: the word of layer, type, code and
 *	header-control bits, then the headers the driver copied)
 *
 * The adapter puts the driver's words behind the untagged DDP and RDMAP
 * header of queue 2, with its next MSN, and frames them like any FPDU.
 * At most one TERMINATE goes out on a stream.
 */
void irdma_sim_iw_send_term(struct irdma_sim_iw *iw, u8 words)
{
	struct irdma_sim *sim = iw->sim;
	u32 len = words * 4, start;
	u8 body[IRDMA_TERM_MAX_LEN];
	unsigned long flags;
	const u8 *q2;
	u64 pa;
	u8 *p;

	if (iw->term_sent || !len)
		return;
	if (len > IRDMA_TERM_MAX_LEN) {
		dev_dbg_ratelimited(&sim->dev,
				    "QP %u: TERMLEN %u words is too long\n",
				    iw->qpn, words);
		return;
	}
	pa = le64_to_cpu(iw->qp->ctx[IRDMA_QPC_QW18]) & IRDMA_QPC_QW18_Q2ADDR;
	spin_lock_irqsave(&sim->lock, flags);
	q2 = iw->qp->live ? irdma_sim_dma_va(sim, pa, IRDMA_Q2_BUF_SIZE) : NULL;
	if (q2)
		memcpy(body, q2, len);
	spin_unlock_irqrestore(&sim->lock, flags);
	if (!q2 || !irdma_sim_iw_fits(iw, IRDMA_SIM_IW_TERM_ROOM))
		return;
	start = iw->txlen;
	p = iw->tx + start + IRDMA_MPA_HLEN;
	irdma_sim_iw_untagged(p, true, IRDMA_SIM_RDMAP_TERMINATE, 0,
			      IRDMA_SIM_QN_TERM, iw->msn[IRDMA_SIM_QN_TERM]++, 0);
	memcpy(p + IRDMA_DDP_UNTAGGED_HLEN, body, len);
	irdma_sim_iw_fpdu_end(iw, start, IRDMA_DDP_UNTAGGED_HLEN + len);
	iw->term_sent = true;
	iw->stats.terms_sent++;
	irdma_sim_iw_push(iw);
}

/**
 * irdma_sim_iw_send_imm() - send the Immediate Data message after a Write
 * @iw: engine (room checked by the caller)
 * @m: the Write with immediate data, its Write sent
 *
 * RFC 7306: an untagged message on queue 0 with the next Send MSN, one
 * FPDU, 8 bytes of immediate data.  The WQE completes once it is out.
 */
static void irdma_sim_iw_send_imm(struct irdma_sim_iw *iw,
				  struct irdma_sim_iw_msg *m)
{
	u32 start = iw->txlen;
	u8 *p = iw->tx + start + IRDMA_MPA_HLEN;

	irdma_sim_iw_untagged(p, true, m->imm_se ? IRDMA_SIM_RDMAP_IMM_SE :
			      IRDMA_SIM_RDMAP_IMM, 0, IRDMA_SIM_QN_SEND,
			      iw->msn[IRDMA_SIM_QN_SEND]++, 0);
	put_unaligned_be64(m->imm_data, p + IRDMA_DDP_UNTAGGED_HLEN);
	irdma_sim_iw_fpdu_end(iw, start, IRDMA_DDP_UNTAGGED_HLEN +
			      IRDMA_SIM_IMM_LEN);
	iw->stats.imm_sent++;
	irdma_sim_iw_msg_done(iw);
}

/**
 * irdma_sim_iw_msg_src() - read payload of the message in progress
 * @iw: engine
 * @m: message
 * @dst: destination
 * @n: bytes at m->off
 *
 * Return: 0 or an irdma_sim_iw_mem() error.
 */
static int irdma_sim_iw_msg_src(struct irdma_sim_iw *iw,
				struct irdma_sim_iw_msg *m, u8 *dst, u32 n)
{
	if (m->is_inline) {
		memcpy(dst, m->inl + m->off, n);
		return 0;
	}
	if (m->pend == U32_MAX)	/* read response: our source region */
		return irdma_sim_iw_mem(iw, m->resp_src, m->to + m->off, dst, n,
					false, IRDMA_ACCESS_REMOTE_READ);
	return irdma_sim_iw_sges(iw, m->sge, m->nsge, m->off, dst, n, false);
}

/**
 * irdma_sim_iw_start_resp() - start the response to the oldest read request
 * @iw: engine, no message in progress
 */
static void irdma_sim_iw_start_resp(struct irdma_sim_iw *iw)
{
	struct irdma_sim_iw_rresp *r = &iw->rresps[iw->rs_head];
	struct irdma_sim_iw_msg *m = &iw->msg;

	memset(m, 0, offsetof(struct irdma_sim_iw_msg, inl));
	m->rdmap = IRDMA_SIM_RDMAP_READ_RESP;
	m->tagged = true;
	m->pend = U32_MAX;
	m->total = r->len;
	m->stag = r->sink_stag;
	/* the source offset is kept in to, the sink in the header below */
	m->resp_src = r->src_stag;
	m->to = r->src_to;
	m->active = true;
}

/**
 * irdma_sim_iw_tx() - put one more FPDU of the message in progress (or of
 * the next read response) into the staging buffer
 * @iw: engine
 *
 * Return: true on progress, false when the buffer is full.
 */
bool irdma_sim_iw_tx(struct irdma_sim_iw *iw)
{
	struct irdma_sim_iw_msg *m = &iw->msg;
	struct irdma_sim_iw_rresp *r = NULL;
	u32 start, hlen, n, max;
	bool last;
	u64 to;
	u8 *p;
	int ret;

	if (!irdma_sim_iw_room(iw)) {
		irdma_sim_iw_push(iw);
		if (!irdma_sim_iw_room(iw))
			return false;
	}
	if (!m->active) {
		if (!iw->rs_cnt)
			return false;
		irdma_sim_iw_start_resp(iw);
	}
	if (m->pend == U32_MAX)
		r = &iw->rresps[iw->rs_head];
	start = iw->txlen;
	if (m->imm_next) {
		irdma_sim_iw_send_imm(iw, m);
		return true;
	}

	if (m->stream) {
		/* LSMM: raw bytes on the stream */
		n = min_t(u32, m->total - m->off,
			  IRDMA_SIM_IW_TXBUF - IRDMA_SIM_IW_TERM_ROOM - iw->txlen);
		ret = irdma_sim_iw_msg_src(iw, m, iw->tx + start, n);
		if (ret)
			goto err;
		iw->txlen += n;
		iw->txraw = iw->txlen;
		m->off += n;
		if (m->off == m->total)
			irdma_sim_iw_msg_done(iw);
		return true;
	}

	hlen = m->tagged ? IRDMA_DDP_TAGGED_HLEN : IRDMA_DDP_UNTAGGED_HLEN;
	max = irdma_sim_iw_max_payload(iw, hlen);
	n = min(m->total - m->off, max);
	last = m->off + n == m->total;
	p = iw->tx + start + IRDMA_MPA_HLEN;
	if (m->tagged) {
		to = r ? r->sink_to + m->off : m->to + m->off;
		p[0] = IRDMA_SIM_DDP_TAGGED | (last ? IRDMA_SIM_DDP_LAST : 0) |
		       IRDMA_SIM_DDP_VER;
		p[1] = IRDMA_SIM_RDMAP_VER | m->rdmap;
		put_unaligned_be32(m->stag, p + 2);
		put_unaligned_be64(to, p + 6);
	} else {
		irdma_sim_iw_untagged(p, last, m->rdmap,
				      m->rdmap == IRDMA_SIM_RDMAP_SEND_INV ||
				      m->rdmap == IRDMA_SIM_RDMAP_SEND_SE_INV ?
				      m->stag : 0,
				      IRDMA_SIM_QN_SEND, m->msn, m->off);
	}
	ret = irdma_sim_iw_msg_src(iw, m, p + hlen, n);
	if (ret)
		goto err;
	irdma_sim_iw_fpdu_end(iw, start, hlen + n);
	m->off += n;
	if (last) {
		if (r) {
			m->active = false;
			iw->rs_head = (iw->rs_head + 1) % iw->ird;
			iw->rs_cnt--;
		} else {
			irdma_sim_gstat_add(iw->sim, m->tagged ?
					    IRDMA_GSTAT_RDMA_TX_WRITES :
					    IRDMA_GSTAT_RDMA_TX_SENDS, 1);
			if (m->imm)
				m->imm_next = true;
			else
				irdma_sim_iw_msg_done(iw);
		}
	}
	return true;

err:
	m->active = false;
	if (r) {
		/* our source went away under the peer's read: remote error */
		irdma_sim_iw_fail(iw, irdma_sim_iw_prot_ae(ret),
				  IRDMA_AE_SOURCE_OUT_RR);
		return true;
	}
	/* a local protection error of the WQE */
	iw->pend[m->pend].done = true;
	iw->pend[m->pend].signaled = false;
	irdma_sim_iw_msg_done(iw);
	irdma_sim_iw_fail(iw, irdma_sim_iw_prot_ae(ret), IRDMA_AE_SOURCE_SQ);
	return true;
}

/* ------------------------------------------------------------------------ */
/* Receive                                                                  */
/* ------------------------------------------------------------------------ */

/**
 * irdma_sim_iw_q2_frame() - copy a received frame into Q2 for the driver
 * @iw: engine
 * @fpdu: the FPDU from its length field
 * @len: its bytes
 *
 * The layout is the adapter's: a frame at Q2 + 72 with an Ethernet, a
 * 20-byte IPv4 and a 20-byte TCP header (only their lengths are
 * meaningful here) before the MPA header.
 */
static void irdma_sim_iw_q2_frame(struct irdma_sim_iw *iw, const u8 *fpdu,
				  u32 len)
{
	struct irdma_sim *sim = iw->sim;
	u32 room = IRDMA_Q2_BUF_SIZE - IRDMA_Q2_FRAME_OFF;
	u64 pa = le64_to_cpu(iw->qp->ctx[IRDMA_QPC_QW18]) & IRDMA_QPC_QW18_Q2ADDR;
	unsigned long flags;
	u8 *q2, *p;

	spin_lock_irqsave(&sim->lock, flags);
	q2 = iw->qp->live ? irdma_sim_dma_va(sim, pa, IRDMA_Q2_BUF_SIZE) : NULL;
	if (q2) {
		p = q2 + IRDMA_Q2_FRAME_OFF;
		memset(p, 0, 54);
		p[12] = 0x08;			/* ETH_P_IP */
		p[14] = 0x45;			/* IPv4, IHL 5 */
		p[14 + 20 + 12] = 5 << 4;	/* TCP data offset 5 */
		memcpy(p + 54, fpdu, min(len, room - 54));
		iw->q2_data = true;
	}
	spin_unlock_irqrestore(&sim->lock, flags);
}

/**
 * irdma_sim_iw_term_peer() - stop on an error in a received FPDU
 * @iw: engine
 * @ae: AE code: it alone tells the driver which error it was
 * @src: AE source
 * @p: the offending FPDU's ULPDU, or NULL when the error is this end's own
 *	(a receive buffer that failed its check) or the FPDU cannot be
 *	trusted (a bad CRC, a short segment)
 *
 * As the adapter does, the engine stops taking FPDUs, copies the offending
 * one into Q2 as a frame (the AE says so) and reports the AE; the driver
 * builds the TERMINATE from both and asks for it with MODIFY_QP.
 *
 * Return: -EIO.
 */
static int irdma_sim_iw_term_peer(struct irdma_sim_iw *iw, u32 ae, u32 src,
				  const u8 *p)
{
	const u8 *f = p ? p - IRDMA_MPA_HLEN : NULL;

	if (!iw->err) {
		iw->err = true;
		if (f)
			irdma_sim_iw_q2_frame(iw, f, IRDMA_MPA_HLEN +
					      get_unaligned_be16(f));
		irdma_sim_iw_ae(iw, ae, src);
	}
	return -EIO;
}

/**
 * irdma_sim_iw_rx_tagged() - a tagged FPDU: Write or Read Response
 * @iw: engine
 * @p: ULPDU
 * @len: ULPDU bytes
 *
 * Return: 0 or -EIO.
 */
static int irdma_sim_iw_rx_tagged(struct irdma_sim_iw *iw, const u8 *p,
				  u32 len)
{
	u8 op = p[1] & IRDMA_SIM_RDMAP_OPMASK;
	bool last = p[0] & IRDMA_SIM_DDP_LAST;
	u32 stag = get_unaligned_be32(p + 2);
	u64 to = get_unaligned_be64(p + 6);
	const u8 *data = p + IRDMA_DDP_TAGGED_HLEN;
	u32 n = len - IRDMA_DDP_TAGGED_HLEN;
	struct irdma_sim_iw_rread *rr;
	int ret;

	switch (op) {
	case IRDMA_SIM_RDMAP_WRITE:
		ret = irdma_sim_iw_mem(iw, stag, to, (void *)data, n, true,
				       IRDMA_ACCESS_REMOTE_WRITE);
		if (ret)
			return irdma_sim_iw_term_peer(iw,
						      irdma_sim_iw_prot_ae(ret),
						      IRDMA_AE_SOURCE_IN_RR_WR,
						      p);
		if (last)
			irdma_sim_gstat_add(iw->sim,
					    IRDMA_GSTAT_RDMA_RX_WRITES, 1);
		return 0;
	case IRDMA_SIM_RDMAP_READ_RESP:
		if (!iw->rr_cnt)
			break;
		rr = &iw->rreads[iw->rr_head];
		/* the sink the request named, byte after byte */
		if (stag != rr->sink_stag)
			return irdma_sim_iw_term_peer(iw,
						      IRDMA_AE_AMP_INVALID_STAG,
						      IRDMA_AE_SOURCE_IN_RR_WR,
						      p);
		if (n > rr->total - rr->got || to != rr->sink_to + rr->got)
			return irdma_sim_iw_term_peer(iw,
						      IRDMA_AE_AMP_BOUNDS_VIOLATION,
						      IRDMA_AE_SOURCE_IN_RR_WR,
						      p);
		ret = irdma_sim_iw_sges(iw, rr->sge, rr->nsge, rr->got,
					(u8 *)data, n, true);
		if (ret) {
			iw->pend[rr->pend].signaled = false;
			irdma_sim_iw_read_done(iw);
			return irdma_sim_iw_term_peer(iw,
						      irdma_sim_iw_prot_ae(ret),
						      IRDMA_AE_SOURCE_IN_RR_WR,
						      NULL);
		}
		rr->got += n;
		if (last && rr->got != rr->total)
			return irdma_sim_iw_term_peer(iw,
						      IRDMA_AE_AMP_BOUNDS_VIOLATION,
						      IRDMA_AE_SOURCE_IN_RR_WR,
						      p);
		if (last)
			irdma_sim_iw_read_done(iw);
		return 0;
	}
	return irdma_sim_iw_term_peer(iw, IRDMA_AE_RDMAP_ROE_UNEXPECTED_OPCODE,
				      IRDMA_AE_SOURCE_IN_RR_WR, p);
}

/**
 * irdma_sim_iw_rx_imm() - an Immediate Data message from the peer
 * @iw: engine
 * @p: ULPDU (queue 0, opcode Immediate Data or Immediate Data with SE)
 * @len: ULPDU bytes
 *
 * RFC 7306: one FPDU of 8 bytes on queue 0, in MSN order with the Sends.
 * It takes a receive WQE, places nothing in its buffers and completes it
 * with the data in an extended CQE (IMMVALID); after the Write before it,
 * whose data is placed by then.
 *
 * Return: 0 or -EIO.
 */
static int irdma_sim_iw_rx_imm(struct irdma_sim_iw *iw, const u8 *p, u32 len)
{
	bool se = (p[1] & IRDMA_SIM_RDMAP_OPMASK) == IRDMA_SIM_RDMAP_IMM_SE;
	u32 msn = get_unaligned_be32(p + 10);
	int ret;

	/* not inside a Send, not split, nothing but the 8 bytes */
	if (iw->rq.active)
		return irdma_sim_iw_term_peer(iw,
					      IRDMA_AE_RDMAP_ROE_UNEXPECTED_OPCODE,
					      IRDMA_AE_SOURCE_RQ, p);
	if (!(p[0] & IRDMA_SIM_DDP_LAST) || get_unaligned_be32(p + 14) ||
	    len != IRDMA_DDP_UNTAGGED_HLEN + IRDMA_SIM_IMM_LEN)
		return irdma_sim_iw_term_peer(iw, IRDMA_AE_DDP_UBE_INVALID_MO,
					      IRDMA_AE_SOURCE_RQ, p);
	if (msn != iw->rx_msn[IRDMA_SIM_QN_SEND])
		return irdma_sim_iw_term_peer(iw,
					      IRDMA_AE_DDP_INVALID_MSN_GAP_IN_MSN,
					      IRDMA_AE_SOURCE_RQ, p);
	ret = irdma_sim_iw_rq_take(iw);
	if (ret == -EAGAIN)	/* no receive posted: a DDP error */
		return irdma_sim_iw_term_peer(iw, IRDMA_SIM_AE_NO_BUF,
					      IRDMA_AE_SOURCE_RQ, p);
	if (ret)		/* our receive WQE is bad: a local error */
		return irdma_sim_iw_term_peer(iw, IRDMA_AE_WQE_UNEXPECTED_OPCODE,
					      IRDMA_AE_SOURCE_RQ, NULL);
	irdma_sim_iw_rq_complete_imm(iw, se, get_unaligned_be64(p +
						IRDMA_DDP_UNTAGGED_HLEN));
	iw->rx_msn[IRDMA_SIM_QN_SEND]++;
	iw->stats.imm_recv++;
	return 0;
}

/**
 * irdma_sim_iw_rx_send() - an FPDU of a Send
 * @iw: engine
 * @p: ULPDU
 * @len: ULPDU bytes
 *
 * A Send for which no receive WQE is posted is an error, as RFC 5041 and
 * the adapter have it: it is not kept until one is.
 *
 * Return: 0 or -EIO.
 */
static int irdma_sim_iw_rx_send(struct irdma_sim_iw *iw, const u8 *p, u32 len)
{
	u8 op = p[1] & IRDMA_SIM_RDMAP_OPMASK;
	bool last = p[0] & IRDMA_SIM_DDP_LAST;
	u32 msn = get_unaligned_be32(p + 10);
	u32 mo = get_unaligned_be32(p + 14);
	u32 n = len - IRDMA_DDP_UNTAGGED_HLEN;
	u32 inv = 0;
	int ret;

	if (op == IRDMA_SIM_RDMAP_IMM || op == IRDMA_SIM_RDMAP_IMM_SE)
		return irdma_sim_iw_rx_imm(iw, p, len);
	if (op != IRDMA_SIM_RDMAP_SEND && op != IRDMA_SIM_RDMAP_SEND_INV &&
	    op != IRDMA_SIM_RDMAP_SEND_SE && op != IRDMA_SIM_RDMAP_SEND_SE_INV)
		return irdma_sim_iw_term_peer(iw,
					      IRDMA_AE_RDMAP_ROE_UNEXPECTED_OPCODE,
					      IRDMA_AE_SOURCE_RQ, p);
	if (msn != iw->rx_msn[IRDMA_SIM_QN_SEND])
		return irdma_sim_iw_term_peer(iw,
					      IRDMA_AE_DDP_INVALID_MSN_GAP_IN_MSN,
					      IRDMA_AE_SOURCE_RQ, p);
	if (!iw->rq.active) {
		ret = irdma_sim_iw_rq_take(iw);
		if (ret == -EAGAIN)	/* no receive posted: a DDP error */
			return irdma_sim_iw_term_peer(iw, IRDMA_SIM_AE_NO_BUF,
						      IRDMA_AE_SOURCE_RQ, p);
		if (ret)	/* our receive WQE is bad: a local error */
			return irdma_sim_iw_term_peer(iw,
						      IRDMA_AE_WQE_UNEXPECTED_OPCODE,
						      IRDMA_AE_SOURCE_RQ, NULL);
	}
	if (mo != iw->rq.len)
		return irdma_sim_iw_term_peer(iw, IRDMA_AE_DDP_UBE_INVALID_MO,
					      IRDMA_AE_SOURCE_RQ, p);
	ret = irdma_sim_iw_sges(iw, iw->rq.sge, iw->rq.nsge, mo,
				(u8 *)p + IRDMA_DDP_UNTAGGED_HLEN, n, true);
	if (ret) {
		irdma_sim_iw_rq_complete(iw, false, 0, ret == -EMSGSIZE ?
					 IRDMA_FLUSH_LOC_LEN_ERR :
					 IRDMA_FLUSH_PROT_ERR);
		if (ret == -EMSGSIZE)	/* longer than the posted buffer */
			return irdma_sim_iw_term_peer(iw, IRDMA_SIM_AE_TOO_LONG,
						      IRDMA_AE_SOURCE_RQ, p);
		/* our receive buffer failed its own check: a local error */
		return irdma_sim_iw_term_peer(iw, irdma_sim_iw_prot_ae(ret),
					      IRDMA_AE_SOURCE_RQ, NULL);
	}
	iw->rq.len += n;
	if (!last)
		return 0;
	if (op == IRDMA_SIM_RDMAP_SEND_INV || op == IRDMA_SIM_RDMAP_SEND_SE_INV) {
		inv = get_unaligned_be32(p + 2);
		if (irdma_sim_iw_invalidate(iw, inv, true)) {
			irdma_sim_iw_rq_complete(iw, false, 0,
						 IRDMA_FLUSH_REM_ACCESS_ERR);
			return irdma_sim_iw_term_peer(iw,
						      IRDMA_AE_AMP_INVALID_STAG,
						      IRDMA_AE_SOURCE_RQ, p);
		}
	}
	irdma_sim_iw_rq_complete(iw, op == IRDMA_SIM_RDMAP_SEND_SE ||
				 op == IRDMA_SIM_RDMAP_SEND_SE_INV, inv, 0);
	iw->rx_msn[IRDMA_SIM_QN_SEND]++;
	irdma_sim_gstat_add(iw->sim, IRDMA_GSTAT_RDMA_RX_SENDS, 1);
	return 0;
}

/**
 * irdma_sim_iw_rx_rreq() - an RDMA Read Request from the peer
 * @iw: engine
 * @p: ULPDU
 * @len: ULPDU bytes
 *
 * Return: 0 or -EIO.
 */
static int irdma_sim_iw_rx_rreq(struct irdma_sim_iw *iw, const u8 *p, u32 len)
{
	const u8 *b = p + IRDMA_DDP_UNTAGGED_HLEN;
	struct irdma_sim_iw_rresp *r;
	u32 msn = get_unaligned_be32(p + 10);
	int ret;

	if ((p[1] & IRDMA_SIM_RDMAP_OPMASK) != IRDMA_SIM_RDMAP_READ_REQ ||
	    len < IRDMA_DDP_UNTAGGED_HLEN + IRDMA_SIM_RREQ_LEN ||
	    !(p[0] & IRDMA_SIM_DDP_LAST) || get_unaligned_be32(p + 14))
		return irdma_sim_iw_term_peer(iw,
					      IRDMA_AE_RDMAP_ROE_UNEXPECTED_OPCODE,
					      IRDMA_AE_SOURCE_OUT_RR, p);
	if (msn != iw->rx_msn[IRDMA_SIM_QN_RREQ] || iw->rs_cnt >= iw->ird)
		return irdma_sim_iw_term_peer(iw,
					      iw->rs_cnt >= iw->ird ?
					      IRDMA_SIM_AE_NO_BUF :
					      IRDMA_AE_DDP_INVALID_MSN_GAP_IN_MSN,
					      IRDMA_AE_SOURCE_OUT_RR, p);
	r = &iw->rresps[(iw->rs_head + iw->rs_cnt) % iw->ird];
	r->sink_stag = get_unaligned_be32(b);
	r->sink_to = get_unaligned_be64(b + 4);
	r->len = get_unaligned_be32(b + 12);
	r->src_stag = get_unaligned_be32(b + 16);
	r->src_to = get_unaligned_be64(b + 20);
	if (r->len > S32_MAX)
		ret = -ERANGE;
	else
		ret = irdma_sim_iw_mem(iw, r->src_stag, r->src_to, NULL, r->len,
				       false, IRDMA_ACCESS_REMOTE_READ);
	if (ret)
		return irdma_sim_iw_term_peer(iw, irdma_sim_iw_prot_ae(ret),
					      IRDMA_AE_SOURCE_OUT_RR, p);
	iw->rs_cnt++;
	iw->rx_msn[IRDMA_SIM_QN_RREQ]++;
	irdma_sim_gstat_add(iw->sim, IRDMA_GSTAT_RDMA_RX_READS, 1);
	return 0;
}

/**
 * irdma_sim_iw_rx_fpdu() - one complete FPDU
 * @iw: engine
 * @f: the FPDU from its length field
 * @ulen: ULPDU bytes
 * @flen: FPDU bytes (with pad and CRC)
 *
 * Return: 0 or -EIO.
 */
static int irdma_sim_iw_rx_fpdu(struct irdma_sim_iw *iw, const u8 *f, u32 ulen,
				u32 flen)
{
	const u8 *p = f + IRDMA_MPA_HLEN;
	u32 crc_in, crc;
	u32 qn;

	if (iw->crc) {
		crc = irdma_sim_crc(f, flen - IRDMA_SIM_MPA_CRCLEN);
		crc_in = get_unaligned_le32(f + flen - IRDMA_SIM_MPA_CRCLEN);
		if (crc != crc_in) {
			iw->stats.crc_errors++;
			return irdma_sim_iw_term_peer(iw,
						      IRDMA_AE_LLP_RECEIVED_MPA_CRC_ERROR,
						      IRDMA_AE_SOURCE_RQ, NULL);
		}
	}
	if (ulen < IRDMA_DDP_TAGGED_HLEN ||
	    (!(p[0] & IRDMA_SIM_DDP_TAGGED) && ulen < IRDMA_DDP_UNTAGGED_HLEN))
		return irdma_sim_iw_term_peer(iw,
					      IRDMA_AE_LLP_SEGMENT_TOO_SMALL,
					      IRDMA_AE_SOURCE_RQ, NULL);
	if ((p[0] & 0x03) != IRDMA_SIM_DDP_VER)
		return irdma_sim_iw_term_peer(iw,
					      IRDMA_AE_DDP_UBE_INVALID_DDP_VERSION,
					      IRDMA_AE_SOURCE_RQ, p);
	if ((p[1] & 0xc0) != IRDMA_SIM_RDMAP_VER)
		return irdma_sim_iw_term_peer(iw,
					      IRDMA_AE_RDMAP_ROE_INVALID_RDMAP_VERSION,
					      IRDMA_AE_SOURCE_RQ, p);
	iw->stats.rx_fpdus++;
	iw->stats.rx_bytes += flen;
	/* the peer's first FPDU (its RTR) releases the SQ after the LSMM */
	iw->rx_fpdu_seen = true;
	if (iw->wait_rtr) {
		iw->wait_rtr = false;
		iw->sq_blocked = false;
	}
	if (p[0] & IRDMA_SIM_DDP_TAGGED)
		return irdma_sim_iw_rx_tagged(iw, p, ulen);
	qn = get_unaligned_be32(p + 6);
	switch (qn) {
	case IRDMA_SIM_QN_SEND:
		return irdma_sim_iw_rx_send(iw, p, ulen);
	case IRDMA_SIM_QN_RREQ:
		return irdma_sim_iw_rx_rreq(iw, p, ulen);
	case IRDMA_SIM_QN_TERM:
		if ((p[1] & IRDMA_SIM_RDMAP_OPMASK) != IRDMA_SIM_RDMAP_TERMINATE)
			break;
		dev_dbg_ratelimited(&iw->sim->dev,
				    "QP %u: TERMINATE received: layer/type %#x code %#x\n",
				    iw->qpn,
				    ulen > IRDMA_DDP_UNTAGGED_HLEN ?
				    p[IRDMA_DDP_UNTAGGED_HLEN] : 0,
				    ulen > IRDMA_DDP_UNTAGGED_HLEN + 1 ?
				    p[IRDMA_DDP_UNTAGGED_HLEN + 1] : 0);
		if (!iw->err) {
			iw->err = true;
			irdma_sim_iw_q2_frame(iw, f, flen);
			irdma_sim_iw_ae(iw, IRDMA_AE_LLP_TERMINATE_RECEIVED,
					IRDMA_AE_SOURCE_RSVD);
		}
		return -EIO;
	}
	return irdma_sim_iw_term_peer(iw, IRDMA_AE_DDP_UBE_INVALID_QN,
				      IRDMA_AE_SOURCE_RQ, p);
}

/**
 * irdma_sim_iw_parse() - process the complete FPDUs in the receive buffer
 * @iw: engine
 *
 * Return: 1 when FPDUs were consumed, 0 when more bytes are needed,
 * -EIO on an error.
 */
static int irdma_sim_iw_parse(struct irdma_sim_iw *iw)
{
	u32 ulen, flen, avail;
	int consumed = 0, ret;
	const u8 *f;

	while (!iw->err) {
		avail = iw->rxlen - iw->rxoff;
		if (avail < IRDMA_MPA_HLEN)
			return consumed;
		f = iw->rx + iw->rxoff;
		ulen = get_unaligned_be16(f);
		flen = irdma_sim_iw_fpdu_len(iw, ulen);
		if (avail < flen)
			return consumed;
		ret = irdma_sim_iw_rx_fpdu(iw, f, ulen, flen);
		iw->rxoff += flen;
		if (ret)
			return -EIO;
		consumed = 1;
	}
	return -EIO;
}

/**
 * irdma_sim_iw_rx_compact() - move the bytes of a partial FPDU to the front
 * @iw: engine with a receive buffer
 */
static void irdma_sim_iw_rx_compact(struct irdma_sim_iw *iw)
{
	if (!iw->rxoff)
		return;
	memmove(iw->rx, iw->rx + iw->rxoff, iw->rxlen - iw->rxoff);
	iw->rxlen -= iw->rxoff;
	iw->rxoff = 0;
}

/**
 * irdma_sim_iw_rx_now() - read the socket and place what came, in its
 * data_ready callback
 * @iw: engine with a socket and a receive buffer, not stopped
 * @progress: set when bytes were read
 *
 * Placement (Writes, Sends, Read Responses), the CQEs and AEs of receive
 * and queueing the peer's Read Requests need no socket call and may run
 * in a softirq; everything that follows them does not run here.
 *
 * Return: true when the work item must go on: an error stopped the QP,
 * the budget ran out, or the socket reported an error.
 */
bool irdma_sim_iw_rx_now(struct irdma_sim_iw *iw, bool *progress)
{
	u32 budget = IRDMA_SIM_IW_BUDGET;
	int n;

	while (budget--) {
		if (irdma_sim_iw_parse(iw) < 0)
			return true;
		irdma_sim_iw_rx_compact(iw);
		if (iw->rxlen == IRDMA_SIM_IW_RXBUF)
			return true;	/* irdma_sim_iw_rx() reports it */
		n = irdma_sim_tcp_read(iw, iw->rx + iw->rxlen,
				       IRDMA_SIM_IW_RXBUF - iw->rxlen);
		if (n < 0)
			return true;
		if (!n)
			return false;
		iw->rxlen += n;
		*progress = true;
	}
	return true;
}

/**
 * irdma_sim_iw_rx() - read the socket and process what came
 * @iw: engine with a socket
 *
 * Return: true on progress.
 */
bool irdma_sim_iw_rx(struct irdma_sim_iw *iw)
{
	bool progress = false, eof = false, reset = false;
	u32 budget = IRDMA_SIM_IW_BUDGET;
	int n;

	while (budget-- && iw->sock) {
		if (!iw->err && irdma_sim_iw_parse(iw) > 0) {
			progress = true;
			continue;
		}
		if (iw->err) {
			/* stopped: drain the stream to see the close */
			iw->rxlen = 0;
			iw->rxoff = 0;
		}
		irdma_sim_iw_rx_compact(iw);
		if (iw->rxlen == IRDMA_SIM_IW_RXBUF) {
			/* cannot happen: the buffer holds the largest FPDU */
			irdma_sim_iw_term_peer(iw,
					       IRDMA_AE_LLP_SEGMENT_TOO_SMALL,
					       IRDMA_AE_SOURCE_RQ, NULL);
			continue;
		}
		n = irdma_sim_tcp_recv(iw, iw->rx + iw->rxlen,
				       IRDMA_SIM_IW_RXBUF - iw->rxlen);
		if (n > 0) {
			iw->rxlen += n;
			progress = true;
			continue;
		}
		if (!n)
			eof = true;
		else if (n != -EAGAIN)
			reset = true;
		break;
	}
	irdma_sim_iw_close_check(iw, eof, reset);
	return progress;
}
