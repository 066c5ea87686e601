// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * write_imm: RDMA Write with immediate data over rdma_cm.
 *
 *   write_imm -s -a ADDR -p PORT [-t SEC]
 *	accept one connection on ADDR:PORT, its buffer open to remote
 *	writes (address and rkey in the accept's private data), Recvs
 *	posted; each Write with immediate data must complete a Recv, in
 *	order, as IBV_WC_RECV_RDMA_WITH_IMM with IBV_WC_WITH_IMM, the
 *	client's immediate value, and the Write's data already in place.
 *	The last one is solicited: the CQ is armed for solicited events only
 *	(then a Send tells the client to go) and its event must come.
 *   write_imm -c -a ADDR -p PORT [-t SEC]
 *	connect and post the Writes with immediate data: 64 KiB from one
 *	SGE (many FPDUs), none (num_sge 0), three SGEs, 32 bytes inline,
 *	then a solicited one after the server's Send; each completes
 *	successfully as IBV_WC_RDMA_WRITE.
 *   write_imm -x -c|-s ...
 *	the peer does not implement immediate data (RFC 7306), as siw: the
 *	client's one Write with immediate data must end the connection (the
 *	peer's TERMINATE: DISCONNECTED; after rdma_disconnect() a Send
 *	posted is flushed), and
 *	the server's posted Recv must be flushed; neither side may hang.
 *
 * Every step is bounded by SEC seconds (default 10).  Output lines start
 * with "write_imm:"; exit status 0 on success, 1 otherwise.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <infiniband/verbs.h>
#include <rdma/rdma_cma.h>

#define PROG "write_imm"
#include "cm_util.h"

#define BUF	(128 * 1024)
#define BIG	(64 * 1024)
#define CASES	5
#define IMM(i)	(0xc0de0000u + (i))

/* where case i's Write lands in the server's buffer, and its length */
static const struct {
	uint32_t off, len, nsge;
	int inl;
} cases[CASES] = {
	{ 0, BIG, 1, 0 },
	{ BIG, 0, 0, 0 },
	{ BIG, 3 * 1000, 3, 0 },
	{ BIG + 4096, 32, 1, 1 },
	{ BIG + 8192, 512, 1, 0 },
};

struct remote {
	uint64_t addr;
	uint32_t rkey;
} __attribute__((packed));

struct conn {
	struct rdma_cm_id *id;
	struct ibv_pd *pd;
	struct ibv_comp_channel *cc;
	struct ibv_cq *cq;
	struct ibv_mr *mr;
	unsigned char *buf;
};

static int expect_refused;

static unsigned char pattern(int c, uint32_t i)
{
	return (unsigned char)(c * 37 + i * 7 + (i >> 9));
}

/* PD, CQ on a completion channel, QP and an MR over the buffer */
static int setup(struct conn *c, struct rdma_cm_id *id)
{
	struct ibv_qp_init_attr qa = {
		.cap = { .max_send_wr = 16, .max_recv_wr = 16,
			 .max_send_sge = 3, .max_recv_sge = 1,
			 .max_inline_data = 64 },
		.qp_type = IBV_QPT_RC,
	};

	c->id = id;
	c->buf = calloc(1, BUF);
	c->pd = ibv_alloc_pd(id->verbs);
	c->cc = ibv_create_comp_channel(id->verbs);
	if (!c->buf || !c->pd || !c->cc) {
		perror(PROG ": buffer, PD or completion channel");
		return -1;
	}
	c->cq = ibv_create_cq(id->verbs, 64, NULL, c->cc, 0);
	if (!c->cq) {
		perror(PROG ": ibv_create_cq");
		return -1;
	}
	qa.send_cq = c->cq;
	qa.recv_cq = c->cq;
	if (rdma_create_qp(id, c->pd, &qa)) {
		perror(PROG ": rdma_create_qp");
		return -1;
	}
	c->mr = ibv_reg_mr(c->pd, c->buf, BUF, IBV_ACCESS_LOCAL_WRITE |
			   IBV_ACCESS_REMOTE_WRITE);
	if (!c->mr) {
		perror(PROG ": ibv_reg_mr");
		return -1;
	}
	return 0;
}

static void teardown(struct conn *c)
{
	if (c->id && c->id->qp)
		rdma_destroy_qp(c->id);
	if (c->mr)
		ibv_dereg_mr(c->mr);
	if (c->cq)
		ibv_destroy_cq(c->cq);
	if (c->cc)
		ibv_destroy_comp_channel(c->cc);
	if (c->pd)
		ibv_dealloc_pd(c->pd);
	free(c->buf);
}

static int post_recv(struct conn *c, uint64_t wr_id, uint32_t off)
{
	struct ibv_sge sge = {
		.addr = (uintptr_t)c->buf + off, .length = 64,
		.lkey = c->mr->lkey,
	};
	struct ibv_recv_wr wr = { .wr_id = wr_id, .sg_list = &sge,
				  .num_sge = 1 }, *bad;

	if (ibv_post_recv(c->id->qp, &wr, &bad)) {
		perror(PROG ": ibv_post_recv");
		return -1;
	}
	return 0;
}

/* case @i: a Write with immediate data to the server's buffer */
static int post_case(struct conn *c, const struct remote *r, int i, int sol)
{
	uint32_t off = cases[i].off, len = cases[i].len, k, n;
	struct ibv_sge sge[3];
	struct ibv_send_wr wr = {
		.wr_id = i, .sg_list = sge, .num_sge = cases[i].nsge,
		.opcode = IBV_WR_RDMA_WRITE_WITH_IMM,
		.send_flags = IBV_SEND_SIGNALED |
			      (cases[i].inl ? IBV_SEND_INLINE : 0) |
			      (sol ? IBV_SEND_SOLICITED : 0),
		.imm_data = htonl(IMM(i)),
		.wr.rdma = { .remote_addr = r->addr + off, .rkey = r->rkey },
	}, *bad;

	for (k = 0; k < len; k++)
		c->buf[off + k] = pattern(i, k);
	/* len split over nsge pieces of the local copy at the same offset */
	for (k = 0, n = 0; k < cases[i].nsge; k++) {
		uint32_t piece = k + 1 < cases[i].nsge ?
				 len / cases[i].nsge : len - n;

		sge[k].addr = (uintptr_t)c->buf + off + n;
		sge[k].length = piece;
		sge[k].lkey = c->mr->lkey;
		n += piece;
	}
	if (ibv_post_send(c->id->qp, &wr, &bad)) {
		fprintf(stderr, PROG ": post case %d: %s\n", i, strerror(errno));
		return -1;
	}
	return 0;
}

static int wait_send(struct conn *c, int i)
{
	struct ibv_wc wc;

	if (poll_cq_one(c->cq, &wc))
		return -1;
	if (wc.status != IBV_WC_SUCCESS || wc.wr_id != (uint64_t)i ||
	    wc.opcode != IBV_WC_RDMA_WRITE) {
		fprintf(stderr, PROG ": case %d completed as wr %llu: %s, opcode %d\n",
			i, (unsigned long long)wc.wr_id,
			ibv_wc_status_str(wc.status), wc.opcode);
		return -1;
	}
	return 0;
}

static int client_cases(struct conn *c, const struct remote *r)
{
	struct ibv_wc wc;
	int i;

	for (i = 0; i < CASES - 1; i++)
		if (post_case(c, r, i, 0) || wait_send(c, i))
			return -1;
	printf(PROG ": %d Writes with immediate data completed\n", CASES - 1);
	/* the server's Send: it armed its CQ for solicited events */
	if (poll_cq_one(c->cq, &wc) || wc.status != IBV_WC_SUCCESS ||
	    wc.opcode != IBV_WC_RECV) {
		fprintf(stderr, PROG ": the server's go-ahead Send did not arrive\n");
		return -1;
	}
	if (post_case(c, r, CASES - 1, 1) || wait_send(c, CASES - 1))
		return -1;
	printf(PROG ": a solicited Write with immediate data completed\n");
	return 0;
}

/* the peer refuses immediate data: the connection must end, no hang */
static int client_refused(struct conn *c, const struct remote *r,
			  struct rdma_event_channel *ch)
{
	struct ibv_send_wr *bad, wr = { .wr_id = 99, .opcode = IBV_WR_SEND,
					.send_flags = IBV_SEND_SIGNALED };
	struct ibv_qp_attr qa = { .qp_state = IBV_QPS_ERR };
	int seen_write = 0, seen_recv = 0;
	struct ibv_wc wc;

	if (post_case(c, r, 0, 0))
		return -1;
	if (expect_event(ch, RDMA_CM_EVENT_DISCONNECTED, NULL))
		return -1;
	printf(PROG ": the peer ended the connection\n");
	/*
	 * The Write's own completion may be a success (it left this end);
	 * the go-ahead Recv (wr 100) must be flushed.
	 */
	while (!seen_write || !seen_recv) {
		if (poll_cq_one(c->cq, &wc))
			return -1;
		if (wc.wr_id == 0) {
			seen_write = 1;
			printf(PROG ": the Write with immediate data completed: %s\n",
			       ibv_wc_status_str(wc.status));
		} else if (wc.wr_id == 100 && wc.status == IBV_WC_WR_FLUSH_ERR) {
			seen_recv = 1;
		} else {
			fprintf(stderr, PROG ": wr %llu: %s\n",
				(unsigned long long)wc.wr_id,
				ibv_wc_status_str(wc.status));
			return -1;
		}
	}
	printf(PROG ": the posted Recv was flushed\n");
	/*
	 * Work posted from now on: stock libirdma asks the driver to flush
	 * it once the consumer has moved the QP to ERROR (rdma_disconnect()
	 * moves an iWARP QP to SQD only).
	 */
	if (ibv_modify_qp(c->id->qp, &qa, IBV_QP_STATE)) {
		perror(PROG ": QP to ERROR");
		return -1;
	}
	if (ibv_post_send(c->id->qp, &wr, &bad)) {
		printf(PROG ": a Send after it was refused\n");
		return 0;
	}
	if (poll_cq_one(c->cq, &wc))
		return -1;
	if (wc.wr_id != 99 || wc.status != IBV_WC_WR_FLUSH_ERR) {
		fprintf(stderr, PROG ": a Send after it: wr %llu %s, want a flush\n",
			(unsigned long long)wc.wr_id,
			ibv_wc_status_str(wc.status));
		return -1;
	}
	printf(PROG ": a Send after it was flushed\n");
	return 0;
}

static int client(const char *addr, const char *port)
{
	struct rdma_event_channel *ch = rdma_create_event_channel();
	struct rdma_cm_event *ev = NULL;
	struct conn c = {};
	struct addrinfo *ai;
	struct remote r;
	int ret = 1;

	if (!ch || resolve(addr, port, &ai))
		return 1;
	if (rdma_create_id(ch, &c.id, NULL, RDMA_PS_TCP) ||
	    rdma_resolve_addr(c.id, NULL, ai->ai_addr, resolve_ms()) ||
	    expect_event(ch, RDMA_CM_EVENT_ADDR_RESOLVED, NULL) ||
	    rdma_resolve_route(c.id, resolve_ms()) ||
	    expect_event(ch, RDMA_CM_EVENT_ROUTE_RESOLVED, NULL)) {
		fprintf(stderr, PROG ": cannot resolve %s\n", addr);
		goto out;
	}
	if (setup(&c, c.id) || post_recv(&c, 100, BUF - 64))
		goto out;
	{
		struct rdma_conn_param cp = { .retry_count = 7 };

		if (rdma_connect(c.id, &cp) ||
		    expect_event(ch, RDMA_CM_EVENT_ESTABLISHED, &ev))
			goto out;
	}
	if (ev->param.conn.private_data_len < sizeof(r)) {
		fprintf(stderr, PROG ": no buffer in the accept's private data\n");
		rdma_ack_cm_event(ev);
		goto out;
	}
	memcpy(&r, ev->param.conn.private_data, sizeof(r));
	rdma_ack_cm_event(ev);
	if (expect_refused) {
		ret = client_refused(&c, &r, ch) ? 1 : 0;
		goto out;
	}
	if (client_cases(&c, &r))
		goto out;
	ret = 0;
	rdma_disconnect(c.id);
	expect_event(ch, RDMA_CM_EVENT_DISCONNECTED, NULL);
out:
	teardown(&c);
	if (c.id)
		rdma_destroy_id(c.id);
	freeaddrinfo(ai);
	rdma_destroy_event_channel(ch);
	return ret;
}

/* Recv @i: a Write with immediate data of case @i, its data in place */
static int server_check(struct conn *c, int i, const struct ibv_wc *wc)
{
	uint32_t k;

	if (wc->status != IBV_WC_SUCCESS || wc->wr_id != (uint64_t)i ||
	    wc->opcode != IBV_WC_RECV_RDMA_WITH_IMM ||
	    !(wc->wc_flags & IBV_WC_WITH_IMM) ||
	    ntohl(wc->imm_data) != IMM(i)) {
		fprintf(stderr, PROG ": case %d: wr %llu %s opcode %d flags %#x imm %#x\n",
			i, (unsigned long long)wc->wr_id,
			ibv_wc_status_str(wc->status), wc->opcode,
			wc->wc_flags, ntohl(wc->imm_data));
		return -1;
	}
	for (k = 0; k < cases[i].len; k++) {
		if (c->buf[cases[i].off + k] != pattern(i, k)) {
			fprintf(stderr, PROG ": case %d: byte %u of the Write not placed before its immediate data\n",
				i, k);
			return -1;
		}
	}
	return 0;
}

static int server_cases(struct conn *c)
{
	struct ibv_send_wr *bad, wr = { .wr_id = 200, .opcode = IBV_WR_SEND,
					.send_flags = IBV_SEND_SIGNALED };
	struct ibv_wc wc;
	int i;

	for (i = 0; i < CASES - 1; i++)
		if (poll_cq_one(c->cq, &wc) || server_check(c, i, &wc))
			return -1;
	printf(PROG ": %d Writes with immediate data received in order, data in place\n",
	       CASES - 1);
	if (ibv_req_notify_cq(c->cq, 1) || ibv_post_send(c->id->qp, &wr, &bad)) {
		perror(PROG ": arm for solicited events, Send");
		return -1;
	}
	if (poll_cq_one(c->cq, &wc) || wc.wr_id != 200 || wc.status != IBV_WC_SUCCESS)
		return -1;
	if (wait_cq_event(c->cc))
		return -1;
	if (poll_cq_one(c->cq, &wc) || server_check(c, CASES - 1, &wc))
		return -1;
	printf(PROG ": the solicited one raised the CQ's solicited event\n");
	return 0;
}

/* the client's Write with immediate data ends the connection */
static int server_refused(struct conn *c, struct rdma_event_channel *ch)
{
	struct ibv_wc wc;

	if (expect_event(ch, RDMA_CM_EVENT_DISCONNECTED, NULL))
		return -1;
	if (poll_cq_one(c->cq, &wc))
		return -1;
	if (wc.status != IBV_WC_WR_FLUSH_ERR) {
		fprintf(stderr, PROG ": Recv %llu: %s (opcode %d), want a flush\n",
			(unsigned long long)wc.wr_id,
			ibv_wc_status_str(wc.status), wc.opcode);
		return -1;
	}
	printf(PROG ": refused: disconnected, the posted Recv flushed\n");
	return 0;
}

static int server(const char *addr, const char *port)
{
	struct rdma_event_channel *ch = rdma_create_event_channel();
	struct rdma_cm_id *listen_id = NULL;
	struct rdma_cm_event *ev;
	struct conn c = {};
	struct addrinfo *ai;
	struct remote r;
	int i, ret = 1;

	if (!ch || resolve(addr, port, &ai))
		return 1;
	if (rdma_create_id(ch, &listen_id, NULL, RDMA_PS_TCP) ||
	    rdma_bind_addr(listen_id, ai->ai_addr) || rdma_listen(listen_id, 1)) {
		perror(PROG ": listen");
		goto out;
	}
	if (expect_event(ch, RDMA_CM_EVENT_CONNECT_REQUEST, &ev))
		goto out;
	c.id = ev->id;
	rdma_ack_cm_event(ev);
	if (setup(&c, c.id))
		goto out;
	for (i = 0; i < CASES; i++)
		if (post_recv(&c, i, BUF - 64))
			goto out;
	r.addr = (uintptr_t)c.buf;
	r.rkey = c.mr->rkey;
	{
		struct rdma_conn_param cp = { .private_data = &r,
					      .private_data_len = sizeof(r) };

		if (rdma_accept(c.id, &cp) ||
		    expect_event(ch, RDMA_CM_EVENT_ESTABLISHED, NULL))
			goto out;
	}
	if (expect_refused) {
		ret = server_refused(&c, ch) ? 1 : 0;
		goto out;
	}
	if (server_cases(&c))
		goto out;
	timeout_s *= 3;
	if (!expect_event(ch, RDMA_CM_EVENT_DISCONNECTED, NULL))
		ret = 0;
out:
	teardown(&c);
	if (c.id)
		rdma_destroy_id(c.id);
	if (listen_id)
		rdma_destroy_id(listen_id);
	freeaddrinfo(ai);
	rdma_destroy_event_channel(ch);
	return ret;
}

int main(int argc, char **argv)
{
	const char *addr = NULL, *port = NULL;
	int opt, srv = -1;

	while ((opt = getopt(argc, argv, "scxa:p:t:")) != -1) {
		switch (opt) {
		case 's':
			srv = 1;
			break;
		case 'c':
			srv = 0;
			break;
		case 'x':
			expect_refused = 1;
			break;
		case 'a':
			addr = optarg;
			break;
		case 'p':
			port = optarg;
			break;
		case 't':
			timeout_s = atoi(optarg);
			break;
		default:
			srv = -1;
			break;
		}
	}
	if (srv < 0 || !addr || !port || timeout_s <= 0) {
		fprintf(stderr, "usage: write_imm [-x] -s|-c -a ADDR -p PORT [-t SEC]\n");
		return 2;
	}
	return srv ? server(addr, port) : client(addr, port);
}
