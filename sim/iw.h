/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * irdma_sim - the iWARP QP engine (qp.c, ddp.c) and its TCP offload
 * (tcp.c): shared definitions.
 *
 * One struct irdma_sim_iw per iWARP QP, created with the QP (its SQ and
 * RQ are mapped then) and started at the RTS transition with a TCP
 * context.  Everything the engine does for a QP runs in one context at a
 * time, the one holding the engine's run bit (IRDMA_SIM_IW_RUNNING in
 * iw->run), so the engine's own state needs no lock: the TCP handoff,
 * reading the socket and parsing FPDUs, placing data, answering read
 * requests, walking the SQ, writing CQEs and AEs, closing.  A context that
 * holds the bit runs one budget of the engine (irdma_sim_iw_run_held()):
 * the work item (iw->work on sim->iw_wq), the task that stored a user
 * QP's doorbell, on its way back to user space (which saves the work
 * item's wakeup on every user post), the writer of a kernel QP's WQEALLOC
 * when its context may sleep (the same saving for kernel posts), or the
 * CQP worker for a command
 * that must be done when it completes (a flush, a reset:
 * irdma_sim_iw_run_sync()).  The socket's
 * data_ready callback, in the softirq that received the bytes, runs only
 * the receive half (irdma_sim_iw_data_ready()): it reads and places them.
 * Whatever is left after that budget, or was asked meanwhile, goes to the
 * work item.  Other contexts only set request flags under sim->lock and
 * queue the work (irdma_sim_iw_kick()): WQEALLOC, other CQP commands, the
 * other socket callbacks, a loopback peer's handoff.
 *
 * Driver memory (rings, registered regions, CQs) is touched with
 * sim->lock held, in bounded pieces (at most one page per copy), after
 * checking that the QP is still live in the current CQP generation:
 * DESTROY_QP and the generation purge stop the engine before the QP is
 * freed (they wait for the doorbells' pins, then cancel the work item; the
 * CQP worker is theirs), and never hold sim->lock across that.
 */
#ifndef IRDMA_SIM_IW_H
#define IRDMA_SIM_IW_H

#include <linux/net.h>
#include <linux/skbuff.h>

#include "sim.h"

/*
 * transmit staging buffer per QP: FPDUs wait here for the socket.  An
 * engine holds it, and the receive buffer, only while bytes wait in it
 * (irdma_sim_iw_get_bufs()): an idle connection costs no buffer.
 */
#define IRDMA_SIM_IW_TXBUF		(64 * 1024)
/* receive buffer per QP: one FPDU of the largest ULPDU, plus a read */
#define IRDMA_SIM_IW_RXBUF		(2 + 65535 + 3 + 4 + 2048)
/* frames of a quad held while its socket is being restored */
#define IRDMA_SIM_IW_HELD		64
/* iterations of the engine loop before its runner lets go */
#define IRDMA_SIM_IW_BUDGET		64
/* SGEs of a WQE */
#define IRDMA_SIM_IW_MAX_SGE		IRDMA_GEN2_MAX_WQ_FRAGS
/* log2 of the buckets of the quad table */
#define IRDMA_SIM_IW_QUAD_BITS		6

/* DDP/RDMAP (RFC 5040, 5041) */
#define IRDMA_SIM_DDP_TAGGED		0x80
#define IRDMA_SIM_DDP_LAST		0x40
#define IRDMA_SIM_DDP_VER		0x01
#define IRDMA_SIM_RDMAP_VER		0x40
#define IRDMA_SIM_RDMAP_OPMASK		0x0f
#define IRDMA_SIM_RREQ_LEN		28
#define IRDMA_SIM_MPA_CRCLEN		4
#define IRDMA_SIM_IMM_LEN		8	/* RFC 7306 Immediate Data */

/* RFC 5040 opcodes, and RFC 7306's Immediate Data (with SE) */
enum irdma_sim_rdmap_op {
	IRDMA_SIM_RDMAP_WRITE = 0,
	IRDMA_SIM_RDMAP_READ_REQ = 1,
	IRDMA_SIM_RDMAP_READ_RESP = 2,
	IRDMA_SIM_RDMAP_SEND = 3,
	IRDMA_SIM_RDMAP_SEND_INV = 4,
	IRDMA_SIM_RDMAP_SEND_SE = 5,
	IRDMA_SIM_RDMAP_SEND_SE_INV = 6,
	IRDMA_SIM_RDMAP_TERMINATE = 7,
	IRDMA_SIM_RDMAP_IMM = 8,
	IRDMA_SIM_RDMAP_IMM_SE = 9,
};

/* untagged queue numbers */
#define IRDMA_SIM_QN_SEND		0
#define IRDMA_SIM_QN_RREQ		1
#define IRDMA_SIM_QN_TERM		2
#define IRDMA_SIM_QN_NUM		3

/**
 * struct irdma_sim_sge - one scatter/gather element of a WQE
 * @stag: STag (lkey), 0 for a DMA address on a privileged QP
 * @to: tagged offset (address)
 * @len: bytes
 */
struct irdma_sim_sge {
	u32 stag;
	u64 to;
	u32 len;
};

/**
 * struct irdma_sim_iw_msg - the outbound message being segmented
 * @active: a message is in progress
 * @rdmap: RDMAP opcode
 * @tagged: tagged (Write, Read Response)
 * @stream: LSMM: raw bytes, no framing
 * @nsge: SGEs in @sge
 * @sge: local source
 * @is_inline: the data is in @inl
 * @total: message bytes
 * @off: bytes sent
 * @stag: target STag (tagged) or invalidate STag (Send with Invalidate)
 * @to: target offset (tagged)
 * @msn: MSN (untagged)
 * @pend: completion-ring slot, or U32_MAX for a read response
 * @resp_src: read response: source STag
 * @imm: an RDMA Write with immediate data: an Immediate Data message
 *	follows the Write
 * @imm_se: that message is Immediate Data with Solicited Event
 * @imm_next: the Write is out, the Immediate Data message is next
 * @imm_data: the immediate data (WQE word 0), sent as 8 bytes big-endian
 * @inl: inline data (@sge unused)
 */
struct irdma_sim_iw_msg {
	bool active;
	u8 rdmap;
	bool tagged;
	bool stream;
	u32 nsge;
	struct irdma_sim_sge sge[IRDMA_SIM_IW_MAX_SGE];
	bool is_inline;
	u32 total;
	u32 off;
	u32 stag;
	u64 to;
	u32 msn;
	u32 pend;
	u32 resp_src;
	bool imm;
	bool imm_se;
	bool imm_next;
	u64 imm_data;
	/* last: starting a message clears everything before it */
	u8 inl[IRDMA_GEN2_MAX_INLINE + 31];
};

/**
 * struct irdma_sim_iw_pend - an SQ WQE taken and not yet retired
 * @idx: first quantum
 * @op: WQE opcode
 * @signaled: SIGCOMPL
 * @done: executed (its CQE may be written once every earlier one is)
 */
struct irdma_sim_iw_pend {
	u32 idx;
	u8 op;
	bool signaled;
	bool done;
};

/**
 * struct irdma_sim_iw_rread - an RDMA Read we sent and wait for
 * @pend: completion-ring slot of its WQE
 * @nsge: sink SGEs
 * @sge: sink
 * @total: bytes asked
 * @got: bytes placed
 * @sink_stag: sink STag the request named
 * @sink_to: sink tagged offset the request named: the response's first
 *	byte goes there, and each FPDU continues where the last ended
 * @inv: invalidate @sink_stag once the data is placed (RDMA Read with local
 *	invalidate)
 */
struct irdma_sim_iw_rread {
	u32 pend;
	u32 nsge;
	struct irdma_sim_sge sge[IRDMA_SIM_IW_MAX_SGE];
	u32 total;
	u32 got;
	u32 sink_stag;
	u64 sink_to;
	bool inv;
};

/**
 * struct irdma_sim_iw_rresp - an inbound read request to answer
 * @sink_stag: peer's sink STag
 * @sink_to: peer's sink offset
 * @len: bytes
 * @src_stag: our source STag
 * @src_to: our source offset
 */
struct irdma_sim_iw_rresp {
	u32 sink_stag;
	u64 sink_to;
	u32 len;
	u32 src_stag;
	u64 src_to;
};

/**
 * struct irdma_sim_iw_rq - the receive WQE a Send is being placed into
 * @active: one is taken
 * @idx: RQ index
 * @nsge: SGEs
 * @sge: the buffers
 * @len: bytes placed so far (MO of the next FPDU)
 */
struct irdma_sim_iw_rq {
	bool active;
	u32 idx;
	u32 nsge;
	struct irdma_sim_sge sge[IRDMA_SIM_IW_MAX_SGE];
	u32 len;
};

/**
 * enum irdma_sim_iw_phase - life of the engine of a QP
 * @IRDMA_SIM_IW_IDLE: created, not offloaded
 * @IRDMA_SIM_IW_HANDOFF: RTS seen, the socket is being restored
 * @IRDMA_SIM_IW_RUN: the socket carries the connection
 * @IRDMA_SIM_IW_DOWN: the connection is gone (closed, reset, failed)
 */
enum irdma_sim_iw_phase {
	IRDMA_SIM_IW_IDLE,
	IRDMA_SIM_IW_HANDOFF,
	IRDMA_SIM_IW_RUN,
	IRDMA_SIM_IW_DOWN,
};

/**
 * enum irdma_sim_iw_run_bits - bits of irdma_sim_iw.run
 * @IRDMA_SIM_IW_RUNNING: a context runs the engine
 * @IRDMA_SIM_IW_AGAIN: a request came since the runner last looked
 */
enum irdma_sim_iw_run_bits {
	IRDMA_SIM_IW_RUNNING,
	IRDMA_SIM_IW_AGAIN,
};

/**
 * struct irdma_sim_iw - the engine state of one iWARP QP (see the top)
 * @sim: instance
 * @qp: the QP (valid until irdma_sim_iw_destroy())
 * @qpn: QP id
 * @work: runs the engine on sim->iw_wq (irdma_sim_iw_kick())
 * @data_ready: reads and places received bytes in the socket's data_ready
 *	callback (irdma_sim_iw_data_ready() in qp.c, which the TCP layer
 *	below it reaches only through this pointer)
 * @run: IRDMA_SIM_IW_RUNNING: a context runs the engine;
 *	IRDMA_SIM_IW_AGAIN: the engine has new requests; the runner queues
 *	the work item for them when it lets go (irdma_sim_iw_run_held())
 * @pins: a doorbell's writer or a pickup runner is about to run, or
 *	runs, the engine: destroy waits for none (taken under sim->lock
 *	while the QP is live)
 * @db_cb: the task work that runs the engine for a user doorbell
 *	(irdma_sim_iw_run_on_return()); the run bit's holder owns it
 * @node: link in sim->iw_list (sim->lock)
 * @hnode: link in sim->iw_quads while the quad is offloaded (sim->lock;
 *	RCU readers)
 * @rcu: deferred free (the rx_handler may still look at it)
 * @sqm: SQ memory
 * @rqm: RQ memory
 * @sq_size: SQ quanta
 * @sq_tail: next SQ quantum to read
 * @sq_pol: SQ lap polarity
 * @rq_size: RQ WQEs
 * @rq_shift: RQ WQE size, log2 of quanta
 * @rq_tail: next RQ WQE
 * @rq_pol: RQ lap polarity
 * @priv: privileged (kernel) QP: STag 0 is a DMA address
 * @fastreg: fast registration allowed
 * @rd_ok: the context allows inbound RDMA Read Requests (RDOK)
 * @wr_ok: the context allows inbound RDMA Writes (WRRDRSPOK)
 * @pd: PD id
 * @phase: life cycle (sim->lock)
 * @ready: the socket takes the quad's frames (sim->lock; rx_handler)
 * @stopping: destroy in progress: callbacks queue nothing (sim->lock)
 * @rst_sent: the connection was aborted with a RST: the quad's frames go
 *	to the host stack, which answers them with RSTs (sim->lock)
 * @close_req: MODIFY to CLOSING seen: FIN once the SQ drained (sim->lock)
 * @reset_req: MODIFY to ERROR with RESETCON (sim->lock)
 * @flush_sq: a SQ flush was asked (sim->lock)
 * @flush_rq: a RQ flush was asked (sim->lock)
 * @flush_sq_minor: its minor code
 * @flush_rq_minor: its minor code
 * @term_req: MODIFY to TERMINATE: send FIN / TERMINATE per TERMACT
 * @term_act: TERMACT of that modify
 * @term_len: its TERMLEN: 32-bit words of the TERMINATE in Q2
 * @held: frames of the quad held during the handoff
 * @sock: the TCP socket (NULL before the handoff and after the close)
 * @lpb_sock: a loopback connection's socket while it waits in repair mode
 *	for the socket of the other end (irdma_sim_tcp_handoff()); set and
 *	cleared under sim->lock
 * @ipv4: addresses are IPv4 (word 3)
 * @lip: local IP, word 0 most significant
 * @rip: remote IP
 * @lport: local port
 * @rport: remote port
 * @snd_nxt: TCP context
 * @rcv_nxt: TCP context
 * @snd_wnd: TCP context
 * @max_snd_wnd: TCP context
 * @rcv_wnd: TCP context
 * @snd_ws: peer's window scale
 * @rcv_ws: our window scale
 * @mss: MSS
 * @ttl: TTL / hop limit
 * @tos: TOS / traffic class
 * @ecn: ECN negotiated (QPC ECN_EN): data goes out ECT(0), congestion
 *	marks are answered
 * @crc: MPA CRC in use
 * @ord: outbound reads at most
 * @ird: inbound reads at most
 * @fin_sent: shutdown(SHUT_WR) done
 * @fin_rcvd: the peer's FIN was seen, AE posted
 * @closed: LLP_CLOSE_COMPLETE or LLP_CONNECTION_RESET posted
 * @conn_done: the driver's connection WQEs are behind the SQ's consumer
 *	(GEN_RTS_AE ran, or the consumer passed the first
 *	IRDMA_SQ_CONN_QUANTA quanta): stream mode, wait-for-receive and
 *	GEN_RTS_AE are refused from here on
 * @stream_done: the one stream-mode Send of the connection ran
 * @wait_rtr: LSMM sent with WAITFORRCVPDU: the SQ waits for an FPDU
 * @rx_fpdu_seen: an FPDU of the peer arrived (an LSMM that waits for one
 *	then does not wait)
 * @sq_blocked: the SQ waits for something other than a doorbell
 * @sq_armed: a doorbell announced SQ work (or the RTS offload did, for the
 *	driver's connection WQEs): the engine takes valid WQEs at the tail
 *	until it finds one not valid; a WQE no doorbell announced is never
 *	taken (set under sim->lock; irdma_sim_iw_sq_idle() clears it)
 * @db_seq: doorbells that named this QP so far (sim->lock for changes)
 * @err: the engine stopped on an error (no more WQEs executed)
 * @term_sent: the stream's one TERMINATE is queued
 * @q2_data: a received frame is in Q2 for the next AE (under sim->lock)
 * @tx: transmit staging
 * @txlen: bytes in @tx
 * @txoff: bytes of @tx already given to the socket
 * @txraw: end of the unframed LSMM bytes in @tx (no FPDU boundary before)
 * @txfend: end of the piece @txoff is in (irdma_sim_iw_tx_piece()): FPDUs
 *	that fill a segment exactly, then one that does not
 * @txeor: the piece ends a record (its last FPDU does not fill a segment)
 * @msg: outbound message in progress
 * @msn: next outbound MSN per queue
 * @pend: completion ring, @sq_size entries
 * @pend_head: oldest entry
 * @pend_cnt: entries
 * @rreads: outstanding reads (ring of @ord)
 * @rr_head: oldest
 * @rr_cnt: entries
 * @rresps: read requests to answer (ring of @ird)
 * @rs_head: oldest
 * @rs_cnt: entries
 * @rx: receive buffer
 * @rxlen: bytes in @rx
 * @rxoff: bytes of @rx already parsed
 * @rx_msn: next expected inbound MSN per queue
 * @rq: receive WQE being filled
 * @stats: counters (debugfs)
 * @seen: the socket's counters as last added to the function's statistics
 *	(irdma_sim_tcp_count())
 */
struct irdma_sim_iw {
	struct irdma_sim *sim;
	struct irdma_sim_qp *qp;
	u32 qpn;
	struct work_struct work;
	bool (*data_ready)(struct irdma_sim_iw *iw);
	unsigned long run;
	atomic_t pins;
	struct callback_head db_cb;
	struct list_head node;
	struct hlist_node hnode;
	struct rcu_head rcu;

	struct irdma_sim_qmem sqm;
	struct irdma_sim_qmem rqm;
	u32 sq_size;
	u32 sq_tail;
	u8 sq_pol;
	u32 rq_size;
	u32 rq_shift;
	u32 rq_tail;
	u8 rq_pol;
	bool priv;
	bool fastreg;
	bool rd_ok;
	bool wr_ok;
	u32 pd;

	enum irdma_sim_iw_phase phase;
	bool ready;
	bool stopping;
	bool rst_sent;
	bool close_req;
	bool reset_req;
	bool flush_sq;
	bool flush_rq;
	u16 flush_sq_minor;
	u16 flush_rq_minor;
	bool term_req;
	u8 term_act;
	u8 term_len;
	struct sk_buff_head held;
	struct socket *sock;
	struct socket *lpb_sock;

	bool ipv4;
	bool ecn;
	u32 lip[4];
	u32 rip[4];
	u16 lport;
	u16 rport;
	u32 snd_nxt;
	u32 rcv_nxt;
	u32 snd_wnd;
	u32 max_snd_wnd;
	u32 rcv_wnd;
	u8 snd_ws;
	u8 rcv_ws;
	u16 mss;
	u8 ttl;
	u8 tos;
	bool crc;
	u32 ord;
	u32 ird;

	bool fin_sent;
	bool fin_rcvd;
	bool closed;
	bool conn_done;
	bool stream_done;
	bool wait_rtr;
	bool rx_fpdu_seen;
	bool sq_blocked;
	bool sq_armed;
	u32 db_seq;
	bool err;
	bool term_sent;
	bool q2_data;

	u8 *tx;
	u32 txlen;
	u32 txoff;
	u32 txraw;
	u32 txfend;
	bool txeor;
	struct irdma_sim_iw_msg msg;
	u32 msn[IRDMA_SIM_QN_NUM];
	struct irdma_sim_iw_pend *pend;
	u32 pend_head;
	u32 pend_cnt;
	struct irdma_sim_iw_rread *rreads;
	u32 rr_head;
	u32 rr_cnt;
	struct irdma_sim_iw_rresp *rresps;
	u32 rs_head;
	u32 rs_cnt;

	u8 *rx;
	u32 rxlen;
	u32 rxoff;
	u32 rx_msn[IRDMA_SIM_QN_NUM];
	struct irdma_sim_iw_rq rq;

	struct {
		u64 tx_fpdus;
		u64 tx_bytes;
		u64 rx_fpdus;
		u64 rx_bytes;
		u64 sq_wqes;
		u64 rq_wqes;
		u64 cqes;
		u64 crc_errors;
		u64 terms_sent;
		u64 imm_sent;
		u64 imm_recv;
		u64 held;
		u64 held_dropped;
	} stats;
	struct {
		u32 segs_in;
		u32 segs_out;
		u32 retrans;
		u64 bytes_in;
		u64 bytes_out;
	} seen;
};

/**
 * irdma_sim_iw_live() - whether the engine may touch the QP's memory
 * @iw: engine
 *
 * Context: sim->lock held.
 * Return: true while the QP is live in the current CQP generation.
 */
static inline bool irdma_sim_iw_live(struct irdma_sim_iw *iw)
{
	struct irdma_sim *sim = iw->sim;

	lockdep_assert_held(&sim->lock);
	return !sim->dead && !iw->stopping && iw->qp->live &&
	       iw->qp->gen == sim->gen;
}

/**
 * irdma_sim_iw_kick() - run the engine of a QP soon
 * @iw: engine
 *
 * Context: any.
 */
static inline void irdma_sim_iw_kick(struct irdma_sim_iw *iw)
{
	if (!READ_ONCE(iw->stopping))
		queue_work(iw->sim->iw_wq, &iw->work);
}

/* complete.c */
void irdma_sim_iw_ae(struct irdma_sim_iw *iw, u32 code, u32 src);
void irdma_sim_iw_fail(struct irdma_sim_iw *iw, u32 ae, u32 src);
int irdma_sim_iw_cqe(struct irdma_sim_iw *iw, bool sq, u64 qw0,
		     u64 qw2_extra, u64 hdr, bool solicited);
bool irdma_sim_iw_retire(struct irdma_sim_iw *iw);
void irdma_sim_iw_wqe_error(struct irdma_sim_iw *iw, u32 slot, u16 minor);
bool irdma_sim_iw_rq_ready(struct irdma_sim_iw *iw);
int irdma_sim_iw_rq_take(struct irdma_sim_iw *iw);
void irdma_sim_iw_rq_complete(struct irdma_sim_iw *iw, bool se, u32 inv,
			      u16 minor);
void irdma_sim_iw_rq_complete_imm(struct irdma_sim_iw *iw, bool se, u64 imm);
int irdma_sim_iw_invalidate(struct irdma_sim_iw *iw, u32 stag, bool remote);
void irdma_sim_iw_read_done(struct irdma_sim_iw *iw);
void irdma_sim_iw_msg_done(struct irdma_sim_iw *iw);
void irdma_sim_iw_close_check(struct irdma_sim_iw *iw, bool eof, bool reset);

/* ddp.c */
bool irdma_sim_iw_rx(struct irdma_sim_iw *iw);
bool irdma_sim_iw_rx_now(struct irdma_sim_iw *iw, bool *progress);
bool irdma_sim_iw_tx(struct irdma_sim_iw *iw);
bool irdma_sim_iw_push(struct irdma_sim_iw *iw);
bool irdma_sim_iw_room(struct irdma_sim_iw *iw);
void irdma_sim_iw_send_rreq(struct irdma_sim_iw *iw,
			    const struct irdma_sim_iw_rread *rr, u32 src_stag,
			    u64 src_to);
void irdma_sim_iw_send_term(struct irdma_sim_iw *iw, u8 words);
int irdma_sim_iw_mem(struct irdma_sim_iw *iw, u32 stag, u64 to, void *buf,
		     u32 len, bool to_mem, u8 rights);
int irdma_sim_iw_get_bufs(struct irdma_sim_iw *iw);
bool irdma_sim_iw_spare_rx(struct irdma_sim_iw *iw);
void irdma_sim_iw_idle_bufs(struct irdma_sim_iw *iw);
void irdma_sim_iw_free_bufs(struct irdma_sim_iw *iw);
void irdma_sim_iw_bufs_fini(struct irdma_sim *sim);

/* tcp.c */
int irdma_sim_tcp_handoff(struct irdma_sim_iw *iw);
void irdma_sim_tcp_release(struct irdma_sim_iw *iw, bool abort);
void irdma_sim_tcp_shutdown(struct irdma_sim_iw *iw);
void irdma_sim_tcp_count(struct irdma_sim_iw *iw);
int irdma_sim_tcp_send(struct irdma_sim_iw *iw, const void *buf, u32 len,
		       bool eor);
u32 irdma_sim_tcp_mss(struct irdma_sim_iw *iw);
u32 irdma_sim_tcp_wnd_room(struct irdma_sim_iw *iw);
int irdma_sim_tcp_recv(struct irdma_sim_iw *iw, void *buf, u32 len);
int irdma_sim_tcp_read(struct irdma_sim_iw *iw, void *buf, u32 len);
u8 irdma_sim_tcp_state(struct irdma_sim_iw *iw);
bool irdma_sim_tcp_fin_closed(struct irdma_sim_iw *iw, bool *drained);

#endif /* IRDMA_SIM_IW_H */
