// SPDX-License-Identifier: GPL-2.0
/*
 * ring_fuzz - a hostile user of irdma's rings: random and mutated WQEs
 * written straight into the user's own SQ, RQ and shadow areas, and rung.
 *
 *   ring_fuzz -a ADDR [-p PORT] [-s SEED] [-n WQES] [-t SEC]
 *   ring_fuzz -a ADDR [-p PORT] -x rts_ae|stream
 *
 * Every byte of a user ring is the user's to write, so the adapter (here
 * irdma_sim) must take anything there without harm to anyone else: a bad
 * WQE completes in error and ends that QP's connection, nothing more.
 * This program connects two QPs of its own over ADDR (the address of an
 * irdma device: a loopback connection), then, bypassing libirdma's post
 * calls, writes WQEs into the client QP's SQ at the engine's consumer
 * index with the valid bit of the lap, and rings its doorbell page:
 * templates of every opcode (Send, Write, Read, NOP, local invalidate,
 * fast register, bind, GEN_RTS_AE, a stream-mode Send), with SGEs into
 * its own region or anywhere, some bits flipped, or just random words.
 * It also writes random receive WQEs into the client's RQ (the server
 * then sends to it), garbage into the QP's and CQ's shadow areas, and
 * stores other values to the doorbell page.  A connection whose QP went
 * to error (or that made no progress for a while) is torn down and
 * another is made, until WQES WQEs were written.
 *
 * The rings are found by standing in for libibverbs' ibv_cmd_reg_mr(),
 * which libirdma calls to register each QP and CQ buffer (the driver's
 * part of the command, its last 8 bytes, says which it is), and the CQ's
 * size by standing in for ibv_cmd_create_cq_ex(); the doorbell page is
 * found in this process's maps.  The client's CQ is read straight from
 * its ring (reap_cli()).
 *
 * With -x, one connection and WQEs that only the driver's connection
 * WQEs may be: 32 GEN_RTS_AE, or a stream-mode Send (raw bytes on the TCP
 * stream, which would let a user forge FPDUs).  It must complete in
 * error, raise no more than a few AEs (the model's debugfs counts them:
 * the caller compares), and the peer must receive nothing.
 *
 * Prints what it did; exit 0 when it ran to the end and made progress
 * (WQES written, completions seen), or with -x when the WQE was refused;
 * 1 otherwise.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <rdma/rdma_cma.h>

#define PROG "ring_fuzz"
#include "cm_util.h"
#include "db_util.h"

#define PAGE		4096
#define QUANTUM		32
#define MR_LEN		(64 * 1024)
#define SQ_WR		256
#define RQ_WR		256
#define SRV_RECVS	128

/* the WQE header word (word 3) */
#define HDR_OPCODE_SHIFT	32
#define HDR_ADDFRAGCNT_SHIFT	38
#define HDR_INLINELEN_SHIFT	48
#define HDR_INLINE		(1ULL << 57)
#define HDR_STREAMMODE		(1ULL << 58)
#define HDR_WAITFORRCVPDU	(1ULL << 59)
#define HDR_READFENCE		(1ULL << 60)
#define HDR_LOCALFENCE		(1ULL << 61)
#define HDR_SIGNALED		(1ULL << 62)
#define HDR_VALID		(1ULL << 63)
#define FRAG_VALID		(1ULL << 63)

/* the adapter's SQ opcodes (and one it does not have) */
static const unsigned int opcodes[] = {
	0x00, 0x01, 0x03, 0x04, 0x05, 0x06, 0x08, 0x09, 0x0a, 0x0b, 0x0c,
	0x0d, 0x30, 0x3f,
};

/* the buffers libirdma registered: the last QP's and the last CQ's */
struct rings {
	uint64_t *sq, *rq, *shadow;
	uint32_t sq_quanta, rq_wqes;
	uint64_t *cq, *cq_shadow;
	uint32_t cq_size;
};

/* what the registrations left; the client's, once its end is made */
static struct rings last, ring;

/* the CQE words this program reads */
#define CQE_WORDS		4
#define CQE_QW3_EXT		(1ULL << 50)
#define CQE_QW3_ERROR		(1ULL << 55)
#define CQE_QW3_VALID		(1ULL << 63)

/*
 * libibverbs' ibv_cmd_create_cq_ex(), through which libirdma creates a CQ:
 * the attributes' cqe is then the number of CQEs in the ring it registered
 * just before (libirdma puts its own count back afterwards)
 */
int ibv_cmd_create_cq_ex(struct ibv_context *context,
			 const struct ibv_cq_init_attr_ex *attr, void *cq,
			 void *cmd, size_t cmd_size, void *resp,
			 size_t resp_size, uint32_t flags)
{
	static int (*real)(struct ibv_context *,
			   const struct ibv_cq_init_attr_ex *, void *, void *,
			   size_t, void *, size_t, uint32_t);

	if (!real)
		real = dlsym(RTLD_NEXT, "ibv_cmd_create_cq_ex");
	last.cq_size = attr->cqe;
	return real(context, attr, cq, cmd, cmd_size, resp, resp_size, flags);
}

/**
 * ibv_cmd_reg_mr() - libibverbs' registration command, seen first here
 *
 * The driver's part of the command ends it: reg_type, cq_pages, rq_pages,
 * sq_pages (16 bits each).
 */
int ibv_cmd_reg_mr(struct ibv_pd *pd, void *addr, size_t length,
		   uint64_t hca_va, int access, void *vmr, void *cmd,
		   size_t cmd_size, void *resp, size_t resp_size)
{
	static int (*real)(struct ibv_pd *, void *, size_t, uint64_t, int,
			   void *, void *, size_t, void *, size_t);
	const uint16_t *req = (const uint16_t *)((char *)cmd + cmd_size - 8);

	if (!real)
		real = dlsym(RTLD_NEXT, "ibv_cmd_reg_mr");
	if (req[0] == 1) {	/* a QP's rings: SQ, RQ, shadow area */
		last.sq = addr;
		last.sq_quanta = req[3] * (PAGE / QUANTUM);
		last.rq = (uint64_t *)((char *)addr + req[3] * PAGE);
		last.rq_wqes = req[2] * (PAGE / QUANTUM);
		last.shadow = (uint64_t *)((char *)addr +
					   (req[3] + req[2]) * PAGE);
	} else if (req[0] == 2 && length < PAGE) {
		/* a CQ's shadow area, registered on its own (CQ_RESIZE) */
		last.cq_shadow = addr;
	} else if (req[0] == 2) {
		/* a CQ's ring, and after it the shadow area without CQ_RESIZE */
		last.cq = addr;
		if (length > (size_t)req[1] * PAGE)
			last.cq_shadow = (uint64_t *)((char *)addr + req[1] * PAGE);
	}
	return real(pd, addr, length, hca_va, access, vmr, cmd, cmd_size,
		    resp, resp_size);
}

static const char *addr, *port = "7190";
static uint64_t rnd_state;
static volatile uint32_t *doorbell;

/* xorshift64*: the same sequence for the same seed */
static uint64_t rnd(void)
{
	rnd_state ^= rnd_state >> 12;
	rnd_state ^= rnd_state << 25;
	rnd_state ^= rnd_state >> 27;
	return rnd_state * 0x2545f4914f6cdd1dULL;
}

static uint32_t rnd_below(uint32_t n)
{
	return rnd() % n;
}

/* one end of the loopback connection */
struct end {
	struct rdma_cm_id *id;
	struct ibv_pd *pd;
	struct ibv_cq *cq;
	struct ibv_qp *qp;
	struct ibv_mr *mr;
	char *buf;
};

static struct {
	unsigned long wqes, rq_wqes, shadows, stray_dbs, conns, cqes, errors;
	unsigned long stale, srv_recvs;
} st;

static struct rdma_event_channel *ch;
static struct rdma_cm_id *listener;
/* DISCONNECTED events of the current connection's ends */
static int gone;
static struct end cli, srv;
/* the consumer position of the client's SQ and RQ as this program sees it */
static uint32_t sq_idx, rq_idx, cq_idx;
static uint8_t sq_pol, rq_pol, cq_pol;

static int make_end(struct end *e, struct rdma_cm_id *id)
{
	struct ibv_qp_init_attr qa = {
		.cap = { .max_send_wr = SQ_WR, .max_recv_wr = RQ_WR,
			 .max_send_sge = 2, .max_recv_sge = 1 },
		.qp_type = IBV_QPT_RC,
	};

	e->id = id;
	e->buf = calloc(1, MR_LEN);
	e->pd = ibv_alloc_pd(id->verbs);
	e->cq = e->pd ? ibv_create_cq(id->verbs, 512, NULL, NULL, 0) : NULL;
	e->mr = e->cq ? ibv_reg_mr(e->pd, e->buf, MR_LEN,
				   IBV_ACCESS_LOCAL_WRITE |
				   IBV_ACCESS_REMOTE_WRITE |
				   IBV_ACCESS_REMOTE_READ) : NULL;
	if (!e->mr)
		return -1;
	qa.send_cq = e->cq;
	qa.recv_cq = e->cq;
	if (rdma_create_qp(id, e->pd, &qa))
		return -1;
	e->qp = id->qp;
	return 0;
}

static void free_end(struct end *e)
{
	if (e->id && e->id->qp)
		rdma_destroy_qp(e->id);
	if (e->mr)
		ibv_dereg_mr(e->mr);
	if (e->cq)
		ibv_destroy_cq(e->cq);
	if (e->pd)
		ibv_dealloc_pd(e->pd);
	if (e->id)
		rdma_destroy_id(e->id);
	free(e->buf);
	memset(e, 0, sizeof(*e));
}

static int post_recvs(struct end *e, int n)
{
	struct ibv_sge sge = {
		.addr = (uintptr_t)e->buf, .length = 4096, .lkey = e->mr->lkey,
	};
	struct ibv_recv_wr wr = { .sg_list = &sge, .num_sge = 1 }, *bad;

	while (n--)
		if (ibv_post_recv(e->qp, &wr, &bad))
			return -1;
	return 0;
}

/* connect the client to the server, both ends fresh */
static int connect_pair(void)
{
	struct rdma_conn_param cp = {
		.responder_resources = 4, .initiator_depth = 4,
	};
	const char *step = "resolve";
	struct rdma_cm_event *ev;
	struct rdma_cm_id *id;
	struct addrinfo *ai;
	int ret;

	if (rdma_create_id(ch, &id, NULL, RDMA_PS_TCP) || resolve(addr, port, &ai))
		return -1;
	ret = rdma_resolve_addr(id, NULL, ai->ai_addr, resolve_ms());
	freeaddrinfo(ai);
	if (ret || expect_event(ch, RDMA_CM_EVENT_ADDR_RESOLVED, NULL) ||
	    rdma_resolve_route(id, resolve_ms()) ||
	    expect_event(ch, RDMA_CM_EVENT_ROUTE_RESOLVED, NULL)) {
		rdma_destroy_id(id);
		goto fail;
	}
	step = "client QP";
	memset(&last, 0, sizeof(last));
	if (make_end(&cli, id))
		goto fail;
	ring = last;
	step = "connect";
	if (!ring.sq || !ring.cq || !ring.cq_size || rdma_connect(id, &cp) ||
	    expect_event(ch, RDMA_CM_EVENT_CONNECT_REQUEST, &ev))
		goto fail;
	id = ev->id;
	rdma_ack_cm_event(ev);
	step = "accept";
	if (make_end(&srv, id) || post_recvs(&srv, SRV_RECVS) ||
	    rdma_accept(id, &cp))
		goto fail;
	/* both ends' ESTABLISHED, in either order */
	step = "established";
	for (ret = 0; ret < 2; ret++)
		if (expect_event(ch, RDMA_CM_EVENT_ESTABLISHED, NULL))
			goto fail;
	/* the driver's connection WQEs took the SQ's first three quanta */
	gone = 0;
	sq_idx = 3;
	sq_pol = 1;
	rq_idx = 0;
	rq_pol = 1;
	cq_idx = 0;
	cq_pol = 1;
	st.conns++;
	return 0;
fail:
	fprintf(stderr, PROG ": connection %lu: %s failed\n", st.conns + 1,
		step);
	return -1;
}

/* take the CM events that came, without waiting; count DISCONNECTED */
static void cm_events(int wait_ms)
{
	struct pollfd pfd = { .fd = ch->fd, .events = POLLIN };
	struct rdma_cm_event *ev;

	while (poll(&pfd, 1, wait_ms) == 1 && !rdma_get_cm_event(ch, &ev)) {
		gone += ev->event == RDMA_CM_EVENT_DISCONNECTED;
		rdma_ack_cm_event(ev);
		if (gone >= 2)
			break;
	}
}

/* end the connection: both ends' DISCONNECTED (or 2 s), then free */
static void disconnect_pair(void)
{
	if (cli.id)
		rdma_disconnect(cli.id);
	while (gone < 2) {
		int before = gone;

		cm_events(2000);
		if (gone == before)
			break;
	}
	free_end(&cli);
	free_end(&srv);
}

/* quanta the adapter takes for a WQE with header @hdr */
static uint32_t wqe_quanta(uint64_t hdr)
{
	unsigned int op = (hdr >> HDR_OPCODE_SHIFT) & 0x3f;
	unsigned int len;

	if (hdr & HDR_INLINE) {
		len = (hdr >> HDR_INLINELEN_SHIFT) & 0xff;
		if (len <= 8)
			return 1;
		len = 2 + (len - 9) / 31;
		return len > 8 ? 8 : len;
	}
	switch (op) {
	case 0x0c: case 0x0a: case 0x09: case 0x30: case 0x08:
		return 1;
	}
	return 1 + (((hdr >> HDR_ADDFRAGCNT_SHIFT) & 0xf) + 1) / 2;
}

/* an SGE word pair: into our region, or, unless @good, anywhere */
static void sge(uint64_t *w, struct end *e, int good)
{
	uint32_t len = good || rnd_below(4) ? rnd_below(1024) : (uint32_t)rnd();
	uint32_t stag = good || rnd_below(4) ? e->mr->lkey : (uint32_t)rnd();
	uint64_t to = good || rnd_below(4) ?
		      (uintptr_t)e->buf + rnd_below(MR_LEN - 1024) : rnd();

	w[0] = to;
	w[1] = (uint64_t)len << 32 | stag;
}

/* the opcodes of well-formed WQEs: Write, Read, Send, solicited Send, NOP */
static const unsigned int good_ops[] = { 0x00, 0x01, 0x03, 0x05, 0x0c, 0x0d };

/* write one fuzzed WQE at the client's SQ consumer, ring it */
static void fuzz_sq(void)
{
	uint64_t w[8 * 4] = { 0 }, hdr;
	uint32_t q, i, nq;
	unsigned int op;
	int good;

	/* most well-formed, so that a connection carries many WQEs */
	good = rnd_below(10) < 7;
	op = good ? good_ops[rnd_below(sizeof(good_ops) / sizeof(good_ops[0]))] :
		    opcodes[rnd_below(sizeof(opcodes) / sizeof(opcodes[0]))];
	sge(&w[0], &cli, good);
	w[2] = good || rnd_below(2) ? (uintptr_t)srv.buf + rnd_below(MR_LEN - 1024) :
				      rnd();
	hdr = (uint64_t)op << HDR_OPCODE_SHIFT | HDR_SIGNALED;
	if (op <= 0x01 || op == 0x0b || op == 0x0d)
		hdr |= good || rnd_below(4) ? srv.mr->rkey : (uint32_t)rnd();
	if (rnd_below(4) == 0) {
		/* a second SGE in the next quantum */
		hdr |= 1ULL << HDR_ADDFRAGCNT_SHIFT;
		sge(&w[4], &cli, good);
	}
	if (good) {
		if (rnd_below(8) == 0)
			hdr |= HDR_LOCALFENCE;
		goto write;
	}
	if (rnd_below(8) == 0)
		hdr |= HDR_INLINE | (uint64_t)rnd_below(256) << HDR_INLINELEN_SHIFT;
	if (rnd_below(8) == 0)
		hdr |= HDR_STREAMMODE | (rnd_below(2) ? HDR_WAITFORRCVPDU : 0);
	if (rnd_below(8) == 0)
		hdr |= rnd_below(2) ? HDR_LOCALFENCE : HDR_READFENCE;
	if (rnd_below(4) == 0) {
		/* random words, only the header's valid bit kept right */
		for (i = 0; i < 4; i++)
			w[i] = rnd();
		hdr = rnd();
	} else {
		/* a few bits flipped anywhere but the valid bit */
		for (i = rnd_below(3) + 1; i; i--) {
			q = rnd_below(4);
			if (q == 3)
				hdr ^= 1ULL << rnd_below(63);
			else
				w[q] ^= 1ULL << rnd_below(64);
		}
	}
write:
	/* a well-formed WQE does not cross an 8-quantum chunk: NOPs first */
	while (good && sq_idx % 8 + wqe_quanta(hdr) > 8) {
		ring.sq[sq_idx * 4 + 0] = 0;
		ring.sq[sq_idx * 4 + 1] = 0;
		ring.sq[sq_idx * 4 + 2] = 0;
		__atomic_store_n(&ring.sq[sq_idx * 4 + 3],
				 0x0cULL << HDR_OPCODE_SHIFT |
				 (sq_pol ? HDR_VALID : 0), __ATOMIC_RELEASE);
		if (++sq_idx == ring.sq_quanta) {
			sq_idx = 0;
			sq_pol ^= 1;
		}
	}
	hdr = (hdr & ~HDR_VALID) | (sq_pol ? HDR_VALID : 0);
	nq = wqe_quanta(hdr);
	/* the later quanta (fragments, inline data), then the first */
	for (q = 1; q < nq; q++) {
		uint64_t *dst = &ring.sq[((sq_idx + q) % ring.sq_quanta) * 4];

		for (i = 0; i < 4; i++)
			dst[i] = rnd_below(4) ? w[q * 4 + i] : rnd();
		dst[1] = (dst[1] & ~FRAG_VALID) | (sq_pol ? FRAG_VALID : 0);
	}
	for (i = 0; i < 3; i++)
		ring.sq[sq_idx * 4 + i] = w[i];
	__atomic_store_n(&ring.sq[sq_idx * 4 + 3], hdr, __ATOMIC_RELEASE);
	sq_idx += nq;
	if (sq_idx >= ring.sq_quanta) {
		sq_idx %= ring.sq_quanta;
		sq_pol ^= 1;
	}
	*doorbell = cli.qp->qp_num;
	st.wqes++;
}

/* a random receive WQE at the client's RQ consumer, then a Send to it */
static void fuzz_rq(void)
{
	struct ibv_sge s = {
		.addr = (uintptr_t)srv.buf, .length = rnd_below(256),
		.lkey = srv.mr->lkey,
	};
	struct ibv_send_wr wr = {
		.sg_list = &s, .num_sge = 1, .opcode = IBV_WR_SEND,
		.send_flags = IBV_SEND_SIGNALED,
	}, *bad;
	uint64_t *dst = &ring.rq[rq_idx * 4];
	int good = rnd_below(4);

	/* the first SGE of a receive WQE is in words 0 and 1, as in the SQ */
	sge(&dst[0], &cli, good);
	dst[1] |= 1024ULL << 32;
	dst[2] = good ? 0 : rnd();
	__atomic_store_n(&dst[3], (good ? 0 : rnd() & ~HDR_VALID) |
			 (rq_pol ? HDR_VALID : 0), __ATOMIC_RELEASE);
	if (++rq_idx == ring.rq_wqes) {
		rq_idx = 0;
		rq_pol ^= 1;
	}
	ibv_post_send(srv.qp, &wr, &bad);
	st.rq_wqes++;
}

/* garbage in a shadow area, or a doorbell store of any value */
static void fuzz_other(void)
{
	switch (rnd_below(4)) {
	case 0:
		ring.shadow[rnd_below(8)] = rnd();
		st.shadows++;
		break;
	case 1:
		ring.cq_shadow[rnd_below(8)] = rnd();
		st.shadows++;
		break;
	case 2:
		doorbell[rnd_below(2) ? 0 : 0x40 / 4] = rnd();
		st.stray_dbs++;
		break;
	default:
		doorbell[rnd_below(PAGE / 4)] = rnd();
		st.stray_dbs++;
		break;
	}
}

/*
 * reap both CQs; true when the client's connection ended (an error CQE,
 * or a DISCONNECTED event: libirdma drops the flush CQEs of WQEs it did
 * not post itself, so an error often shows as the connection's end)
 */
/*
 * The client's CQEs, read from its ring as the driver would: not through
 * libirdma, whose completions come from its own record of what it posted
 * (these WQEs bypass it: on a flushed CQE it walks that record for a WQE
 * it never wrote, and can spin there for good).  The consumer index goes
 * back to the shadow area, so the adapter sees the room.  True when one
 * completed in error.
 */
static int reap_cli(void)
{
	uint64_t qw3;
	int err = 0;

	for (;;) {
		qw3 = __atomic_load_n(&ring.cq[cq_idx * CQE_WORDS + 3],
				      __ATOMIC_ACQUIRE);
		if (!!(qw3 & CQE_QW3_VALID) != cq_pol)
			break;
		st.cqes++;
		err |= !!(qw3 & CQE_QW3_ERROR);
		/* an extended CQE takes the next slot too */
		cq_idx += qw3 & CQE_QW3_EXT ? 2 : 1;
		if (cq_idx >= ring.cq_size) {
			cq_idx -= ring.cq_size;
			cq_pol ^= 1;
		}
	}
	__atomic_store_n(&ring.cq_shadow[0], cq_idx, __ATOMIC_RELEASE);
	return err;
}

static int reap(void)
{
	struct ibv_wc wc[16];
	int n, i, err;

	err = reap_cli();
	while ((n = ibv_poll_cq(srv.cq, 16, wc)) > 0) {
		for (i = 0; i < n; i++) {
			/* a flushed receive: the connection is over */
			if (!(wc[i].opcode & IBV_WC_RECV) ||
			    wc[i].status != IBV_WC_SUCCESS)
				continue;
			st.srv_recvs++;
			post_recvs(&srv, 1);
		}
	}
	cm_events(0);
	return err || gone;
}

/*
 * -x: one privileged WQE in the client's SQ; true when it ended the
 * connection (the error is the QP's) and the server received nothing
 */
static int privileged(const char *what)
{
	uint64_t hdr = HDR_SIGNALED | (sq_pol ? HDR_VALID : 0);
	int i, ended = 0;

	if (!strcmp(what, "rts_ae")) {
		/* a flood of them: each would be an AE */
		hdr |= 0x30ULL << HDR_OPCODE_SHIFT;
		for (i = 1; i < 32; i++)
			__atomic_store_n(&ring.sq[(sq_idx + i) * 4 + 3], hdr,
					 __ATOMIC_RELEASE);
	} else {
		/* a Send of 16 bytes of our region, raw on the stream */
		hdr |= 0x03ULL << HDR_OPCODE_SHIFT | HDR_STREAMMODE;
		memset(cli.buf, 0x5a, 16);
		ring.sq[sq_idx * 4] = (uintptr_t)cli.buf;
		ring.sq[sq_idx * 4 + 1] = 16ULL << 32 | cli.mr->lkey;
	}
	__atomic_store_n(&ring.sq[sq_idx * 4 + 3], hdr, __ATOMIC_RELEASE);
	*doorbell = cli.qp->qp_num;
	for (i = 0; i < 500 && !ended; i++) {
		usleep(10000);
		ended = reap();
	}
	/* anything the peer got would have come by now */
	for (i = 0; i < 50; i++) {
		usleep(10000);
		reap();
	}
	printf("%s: %s; the peer received %lu message(s)\n", what,
	       ended ? "the connection ended" : "the connection still runs 5 s later",
	       st.srv_recvs);
	return ended && !st.srv_recvs;
}

int main(int argc, char **argv)
{
	unsigned long want = 2000, seed = 1, last_cqes, idle;
	const char *priv = NULL;
	struct addrinfo *ai;
	int opt, secs = 120;
	time_t end;

	while ((opt = getopt(argc, argv, "a:p:s:n:t:x:")) != -1) {
		switch (opt) {
		case 'x': priv = optarg; break;
		case 'a': addr = optarg; break;
		case 'p': port = optarg; break;
		case 's': seed = strtoul(optarg, NULL, 0); break;
		case 'n': want = strtoul(optarg, NULL, 0); break;
		case 't': secs = atoi(optarg); break;
		default: return 2;
		}
	}
	if (!addr) {
		fprintf(stderr, "usage: %s -a ADDR [-p PORT] [-s SEED] [-n WQES] [-t SEC]\n",
			PROG);
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	rnd_state = seed * 0x9e3779b97f4a7c15ULL ?: 1;
	end = time(NULL) + secs;
	ch = rdma_create_event_channel();
	if (!ch || rdma_create_id(ch, &listener, NULL, RDMA_PS_TCP) ||
	    resolve(addr, port, &ai) || rdma_bind_addr(listener, ai->ai_addr) ||
	    rdma_listen(listener, 4)) {
		perror(PROG ": listen");
		return 1;
	}
	if (priv) {
		if (connect_pair() || !(doorbell = db_find())) {
			fprintf(stderr, PROG ": no connection\n");
			return 1;
		}
		opt = privileged(priv);
		disconnect_pair();
		return opt ? 0 : 1;
	}
	while (st.wqes < want && time(NULL) < end) {
		if (connect_pair()) {
			fprintf(stderr, PROG ": connection %lu failed\n",
				st.conns + 1);
			disconnect_pair();
			break;
		}
		if (!doorbell)
			doorbell = db_find();
		if (!doorbell) {
			fprintf(stderr, PROG ": no doorbell page mapped\n");
			return 1;
		}
		last_cqes = st.cqes;
		for (idle = 0; st.wqes < want && idle < 200; idle++) {
			uint32_t what = rnd_below(20);

			if (what < 13)
				fuzz_sq();
			else if (what < 16)
				fuzz_rq();
			else
				fuzz_other();
			usleep(200);
			if (reap()) {
				st.errors++;
				break;
			}
			if (st.cqes != last_cqes) {
				last_cqes = st.cqes;
				idle = 0;
			}
		}
		if (idle >= 200)
			st.stale++;
		disconnect_pair();
	}
	printf("seed %lu: %lu SQ WQEs, %lu RQ WQEs, %lu shadow writes, %lu stray doorbells; %lu connections, %lu ended by an error completion, %lu by no progress; %lu completions\n",
	       seed, st.wqes, st.rq_wqes, st.shadows, st.stray_dbs, st.conns,
	       st.errors, st.stale, st.cqes);
	rdma_destroy_id(listener);
	rdma_destroy_event_channel(ch);
	return st.wqes >= want && st.cqes && st.errors ? 0 : 1;
}
