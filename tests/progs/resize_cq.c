// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * resize_cq: ibv_resize_cq() on a CQ with completions queued in it.
 *
 *   resize_cq -s -a ADDR -p PORT [-t SEC]
 *	accept one connection on ADDR:PORT and take the client's 32 Sends
 *	(Recvs posted ahead), then wait for its disconnect
 *   resize_cq -c -a ADDR -p PORT [-t SEC]
 *	connect to ADDR:PORT with a CQ of 64 entries; twice (resizing to 8,
 *	then to 256): post 8 signaled Sends and wait until the CQ's event
 *	says their completions are being written, resize the CQ with them
 *	queued, post 8 more, and poll all 16: each must be there, in order,
 *	successful.  Then a resize to 2^24 entries (past any ring the
 *	adapter has) is refused with EINVAL.
 *
 * Every step is bounded by SEC seconds (default 10).  Output lines start
 * with "resize_cq:"; exit status 0 on success, 1 otherwise.
 */
#include <errno.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <infiniband/verbs.h>
#include <rdma/rdma_cma.h>

#define PROG "resize_cq"
#include "cm_util.h"

#define SENDS	32
#define MSG	16

struct conn {
	struct rdma_cm_id *id;
	struct ibv_pd *pd;
	struct ibv_comp_channel *cc;
	struct ibv_cq *cq;
	struct ibv_mr *mr;
	char buf[SENDS][MSG];
};

/* PD, CQ of 64 on a completion channel, QP and MR of @c on @id */
static int setup(struct conn *c, struct rdma_cm_id *id)
{
	struct ibv_qp_init_attr qa = {
		.cap = { .max_send_wr = 32, .max_recv_wr = SENDS,
			 .max_send_sge = 1, .max_recv_sge = 1 },
		.qp_type = IBV_QPT_RC,
	};

	c->id = id;
	c->pd = ibv_alloc_pd(id->verbs);
	c->cc = ibv_create_comp_channel(id->verbs);
	if (!c->pd || !c->cc) {
		perror(PROG ": PD or completion channel");
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
	c->mr = ibv_reg_mr(c->pd, c->buf, sizeof(c->buf), IBV_ACCESS_LOCAL_WRITE);
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
}

static int post_sends(struct conn *c, int first, int n)
{
	struct ibv_send_wr *bad;
	int i;

	for (i = first; i < first + n; i++) {
		struct ibv_sge sge = {
			.addr = (uintptr_t)c->buf[i], .length = MSG,
			.lkey = c->mr->lkey,
		};
		struct ibv_send_wr wr = {
			.wr_id = i, .sg_list = &sge, .num_sge = 1,
			.opcode = IBV_WR_SEND, .send_flags = IBV_SEND_SIGNALED,
		};

		snprintf(c->buf[i], MSG, "send %d", i);
		if (ibv_post_send(c->id->qp, &wr, &bad)) {
			perror(PROG ": ibv_post_send");
			return -1;
		}
	}
	return 0;
}

static int client_round(struct conn *c, int first, int size)
{
	struct ibv_wc wc;
	int i, ret;

	if (ibv_req_notify_cq(c->cq, 0) || post_sends(c, first, 8) ||
	    wait_cq_event(c->cc))
		return -1;
	/* the rest of the eight on their way into the ring */
	usleep(200000);
	ret = ibv_resize_cq(c->cq, size);
	if (ret || c->cq->cqe < size) {
		fprintf(stderr, PROG ": resize to %d with completions queued: %s (cqe %d)\n",
			size, strerror(ret), c->cq->cqe);
		return -1;
	}
	if (post_sends(c, first + 8, 8))
		return -1;
	for (i = first; i < first + 16; i++) {
		if (poll_cq_one(c->cq, &wc))
			return -1;
		if (wc.status != IBV_WC_SUCCESS || wc.wr_id != (uint64_t)i ||
		    wc.opcode != IBV_WC_SEND) {
			fprintf(stderr, PROG ": wr %llu completed (%s, opcode %d), want wr %d\n",
				(unsigned long long)wc.wr_id,
				ibv_wc_status_str(wc.status), wc.opcode, i);
			return -1;
		}
	}
	printf(PROG ": resized to %d (cqe %d) with completions queued: 16 of 16 in order\n",
	       size, c->cq->cqe);
	return 0;
}

static int client(const char *addr, const char *port)
{
	struct rdma_event_channel *ch = rdma_create_event_channel();
	struct conn c = {};
	struct addrinfo *ai;
	int ret = 1, big;

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
	if (setup(&c, c.id))
		goto out;
	{
		struct rdma_conn_param cp = { .retry_count = 7 };

		if (rdma_connect(c.id, &cp) ||
		    expect_event(ch, RDMA_CM_EVENT_ESTABLISHED, NULL))
			goto out;
	}
	if (client_round(&c, 0, 8) || client_round(&c, 16, 256))
		goto out;
	big = ibv_resize_cq(c.cq, 1 << 24);
	if (big != EINVAL) {
		fprintf(stderr, PROG ": a resize to 2^24 entries: %s (want EINVAL)\n",
			strerror(big));
		goto out;
	}
	printf(PROG ": a resize to 2^24 entries refused (EINVAL)\n");
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

static int server(const char *addr, const char *port)
{
	struct rdma_event_channel *ch = rdma_create_event_channel();
	struct rdma_cm_id *listen_id = NULL;
	struct rdma_cm_event *ev;
	struct conn c = {};
	struct addrinfo *ai;
	struct ibv_wc wc;
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
	for (i = 0; i < SENDS; i++) {
		struct ibv_sge sge = {
			.addr = (uintptr_t)c.buf[i], .length = MSG,
			.lkey = c.mr->lkey,
		};
		struct ibv_recv_wr wr = { .wr_id = i, .sg_list = &sge,
					  .num_sge = 1 }, *bad;

		if (ibv_post_recv(c.id->qp, &wr, &bad)) {
			perror(PROG ": ibv_post_recv");
			goto out;
		}
	}
	if (rdma_accept(c.id, NULL) ||
	    expect_event(ch, RDMA_CM_EVENT_ESTABLISHED, NULL))
		goto out;
	for (i = 0; i < SENDS; i++) {
		if (poll_cq_one(c.cq, &wc) || wc.status != IBV_WC_SUCCESS ||
		    wc.wr_id != (uint64_t)i) {
			fprintf(stderr, PROG ": Recv %d missing or bad\n", i);
			goto out;
		}
	}
	printf(PROG ": %d Sends taken in order\n", SENDS);
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

	while ((opt = getopt(argc, argv, "sca:p:t:")) != -1) {
		switch (opt) {
		case 's':
			srv = 1;
			break;
		case 'c':
			srv = 0;
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
		fprintf(stderr, "usage: resize_cq -s|-c -a ADDR -p PORT [-t SEC]\n");
		return 2;
	}
	return srv ? server(addr, port) : client(addr, port);
}
