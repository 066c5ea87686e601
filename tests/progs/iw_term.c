// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * iw_term: one protocol error between two iWARP stacks, told by the
 * victim in a TERMINATE, and what each end's consumer sees of it.
 *
 *   iw_term -s -a ADDR -p PORT -m MODE [-t SEC]
 *	the victim: accept one connection; its QP's PD owns a 4 KiB region
 *	(remote read and write), a second PD owns another; both are offered
 *	in the accept's private data.  One receive is posted, none for
 *	MODE norecv.
 *   iw_term -c -a ADDR -p PORT -m MODE [-t SEC]
 *	the offender: connect, then per MODE
 *	  badstag  an RDMA Write to the region's STag with another key
 *	  bounds   an RDMA Write that runs 48 bytes past the region's end
 *	  pd       an RDMA Write to the region of the other PD
 *	  norecv   a Send (the victim posted no receive)
 *	and one more Send after it, which must not complete well.
 *
 * Both ends then wait up to SEC seconds (default 10) for what their
 * consumer is told: asynchronous events, work completions, rdma_cm events,
 * each printed as "iw_term: <end>: <what> <name>".  Exit 0 when the end
 * learned of the error (an error event, an error or flushed completion,
 * or the disconnect), 1 otherwise.
 */
#include <arpa/inet.h>
#include <endian.h>
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

#define PROG "iw_term"
#include "cm_util.h"

#define BUF_LEN		4096
#define MSG_LEN		64

/* the victim's offer, in the accept's private data, big-endian */
struct offer {
	uint64_t addr;
	uint32_t rkey;
	uint32_t rkey_other_pd;
	uint32_t len;
} __attribute__((packed));

struct end {
	const char *name;
	struct rdma_event_channel *ch;
	struct rdma_cm_id *id;
	struct ibv_pd *pd, *pd2;
	struct ibv_cq *cq;
	struct ibv_mr *mr, *mr2;
	char *buf, *buf2;
	int learned;
};

static int setup_qp(struct end *e)
{
	struct ibv_qp_init_attr qa = {
		.cap = { .max_send_wr = 4, .max_recv_wr = 4,
			 .max_send_sge = 1, .max_recv_sge = 1 },
		.qp_type = IBV_QPT_RC,
	};
	int acc = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
		  IBV_ACCESS_REMOTE_READ;

	e->pd = ibv_alloc_pd(e->id->verbs);
	e->pd2 = ibv_alloc_pd(e->id->verbs);
	e->cq = ibv_create_cq(e->id->verbs, 16, NULL, NULL, 0);
	e->buf = calloc(1, BUF_LEN);
	e->buf2 = calloc(1, BUF_LEN);
	if (!e->pd || !e->pd2 || !e->cq || !e->buf || !e->buf2) {
		fprintf(stderr, PROG ": %s: PD, CQ or memory\n", e->name);
		return -1;
	}
	e->mr = ibv_reg_mr(e->pd, e->buf, BUF_LEN, acc);
	e->mr2 = ibv_reg_mr(e->pd2, e->buf2, BUF_LEN, acc);
	if (!e->mr || !e->mr2) {
		perror(PROG ": ibv_reg_mr");
		return -1;
	}
	qa.send_cq = e->cq;
	qa.recv_cq = e->cq;
	if (rdma_create_qp(e->id, e->pd, &qa)) {
		perror(PROG ": rdma_create_qp");
		return -1;
	}
	/* the async event fd is polled with the CM's */
	fcntl(e->id->verbs->async_fd, F_SETFL,
	      fcntl(e->id->verbs->async_fd, F_GETFL) | O_NONBLOCK);
	return 0;
}

static int post_recv(struct end *e)
{
	struct ibv_sge sge = {
		.addr = (uintptr_t)e->buf, .length = MSG_LEN,
		.lkey = e->mr->lkey,
	};
	struct ibv_recv_wr wr = { .wr_id = 1, .sg_list = &sge, .num_sge = 1 };
	struct ibv_recv_wr *bad;

	return ibv_post_recv(e->id->qp, &wr, &bad);
}

static int post_send(struct end *e, enum ibv_wr_opcode op, uint64_t addr,
		     uint32_t rkey, uint64_t wr_id)
{
	struct ibv_sge sge = {
		.addr = (uintptr_t)e->buf, .length = MSG_LEN,
		.lkey = e->mr->lkey,
	};
	struct ibv_send_wr wr = {
		.wr_id = wr_id, .sg_list = &sge, .num_sge = 1, .opcode = op,
		.send_flags = IBV_SEND_SIGNALED,
	};
	struct ibv_send_wr *bad;
	int ret;

	wr.wr.rdma.remote_addr = addr;
	wr.wr.rdma.rkey = rkey;
	ret = ibv_post_send(e->id->qp, &wr, &bad);
	if (ret)
		fprintf(stderr, PROG ": %s: ibv_post_send: %s\n", e->name,
			strerror(ret));
	return ret;
}

/* print what the consumer is told, for up to @secs seconds */
static void watch(struct end *e, int secs)
{
	struct pollfd pfd[2] = {
		{ .fd = e->ch->fd, .events = POLLIN },
		{ .fd = e->id->verbs->async_fd, .events = POLLIN },
	};
	time_t end = time(NULL) + secs;
	struct ibv_async_event aev;
	struct rdma_cm_event *ev;
	struct ibv_wc wc;
	int disconnected = 0;

	while (time(NULL) < end && !disconnected) {
		while (ibv_poll_cq(e->cq, 1, &wc) > 0) {
			printf(PROG ": %s: wc %s wr_id %llu status %s\n",
			       e->name, wc.opcode & IBV_WC_RECV ? "recv" : "send",
			       (unsigned long long)wc.wr_id,
			       ibv_wc_status_str(wc.status));
			if (wc.status != IBV_WC_SUCCESS)
				e->learned = 1;
		}
		if (poll(pfd, 2, 100) <= 0)
			continue;
		if ((pfd[1].revents & POLLIN) &&
		    !ibv_get_async_event(e->id->verbs, &aev)) {
			printf(PROG ": %s: async event %s\n", e->name,
			       ibv_event_type_str(aev.event_type));
			ibv_ack_async_event(&aev);
			e->learned = 1;
		}
		if ((pfd[0].revents & POLLIN) && !rdma_get_cm_event(e->ch, &ev)) {
			printf(PROG ": %s: cm event %s status %d\n", e->name,
			       rdma_event_str(ev->event), ev->status);
			if (ev->event == RDMA_CM_EVENT_DISCONNECTED) {
				disconnected = 1;
				e->learned = 1;
			}
			rdma_ack_cm_event(ev);
		}
	}
	/* the flushed work requests come after the disconnect */
	usleep(200 * 1000);
	while (ibv_poll_cq(e->cq, 1, &wc) > 0) {
		printf(PROG ": %s: wc %s wr_id %llu status %s\n", e->name,
		       wc.opcode & IBV_WC_RECV ? "recv" : "send",
		       (unsigned long long)wc.wr_id,
		       ibv_wc_status_str(wc.status));
		if (wc.status != IBV_WC_SUCCESS)
			e->learned = 1;
	}
}

static int server(struct end *e, struct addrinfo *ai, const char *mode)
{
	struct rdma_conn_param cp = { .responder_resources = 1,
				      .initiator_depth = 1 };
	struct rdma_cm_id *listen_id;
	struct rdma_cm_event *ev;
	struct offer o;

	if (rdma_create_id(e->ch, &listen_id, NULL, RDMA_PS_TCP) ||
	    rdma_bind_addr(listen_id, ai->ai_addr) || rdma_listen(listen_id, 1)) {
		perror(PROG ": listen");
		return 1;
	}
	printf(PROG ": server: listening\n");
	fflush(stdout);
	if (expect_event(e->ch, RDMA_CM_EVENT_CONNECT_REQUEST, &ev))
		return 1;
	e->id = ev->id;
	rdma_ack_cm_event(ev);
	if (setup_qp(e))
		return 1;
	if (strcmp(mode, "norecv") && post_recv(e)) {
		perror(PROG ": ibv_post_recv");
		return 1;
	}
	o.addr = htobe64((uintptr_t)e->buf);
	o.rkey = htonl(e->mr->rkey);
	o.rkey_other_pd = htonl(e->mr2->rkey);
	o.len = htonl(BUF_LEN);
	cp.private_data = &o;
	cp.private_data_len = sizeof(o);
	if (rdma_accept(e->id, &cp)) {
		perror(PROG ": rdma_accept");
		return 1;
	}
	if (expect_event(e->ch, RDMA_CM_EVENT_ESTABLISHED, NULL))
		return 1;
	printf(PROG ": server: established\n");
	fflush(stdout);
	watch(e, timeout_s);
	return 0;
}

static int client(struct end *e, struct addrinfo *ai, const char *mode)
{
	struct rdma_conn_param cp = { .responder_resources = 1,
				      .initiator_depth = 1 };
	struct rdma_cm_event *ev;
	uint64_t addr;
	uint32_t rkey;
	struct offer o;
	int ret;

	if (rdma_create_id(e->ch, &e->id, NULL, RDMA_PS_TCP) ||
	    rdma_resolve_addr(e->id, NULL, ai->ai_addr, resolve_ms()) ||
	    expect_event(e->ch, RDMA_CM_EVENT_ADDR_RESOLVED, NULL) ||
	    rdma_resolve_route(e->id, resolve_ms()) ||
	    expect_event(e->ch, RDMA_CM_EVENT_ROUTE_RESOLVED, NULL)) {
		fprintf(stderr, PROG ": client: cannot resolve the server\n");
		return 1;
	}
	if (setup_qp(e) || post_recv(e))
		return 1;
	if (rdma_connect(e->id, &cp) ||
	    expect_event(e->ch, RDMA_CM_EVENT_ESTABLISHED, &ev))
		return 1;
	if (ev->param.conn.private_data_len < sizeof(o)) {
		fprintf(stderr, PROG ": client: no offer from the server\n");
		rdma_ack_cm_event(ev);
		return 1;
	}
	memcpy(&o, ev->param.conn.private_data, sizeof(o));
	rdma_ack_cm_event(ev);
	addr = be64toh(o.addr);
	rkey = ntohl(o.rkey);
	printf(PROG ": client: established\n");
	if (!strcmp(mode, "badstag"))
		ret = post_send(e, IBV_WR_RDMA_WRITE, addr,
				rkey ^ 0x5a, 1);
	else if (!strcmp(mode, "bounds"))
		ret = post_send(e, IBV_WR_RDMA_WRITE,
				addr + ntohl(o.len) - 16, rkey, 1);
	else if (!strcmp(mode, "pd"))
		ret = post_send(e, IBV_WR_RDMA_WRITE, addr,
				ntohl(o.rkey_other_pd), 1);
	else
		ret = post_send(e, IBV_WR_SEND, 0, 0, 1);
	if (ret)
		return 1;
	/* what follows the offence must not complete well */
	usleep(300 * 1000);
	if (post_send(e, IBV_WR_SEND, 0, 0, 2))
		printf(PROG ": client: the next send was refused\n");
	fflush(stdout);
	watch(e, timeout_s);
	return 0;
}

int main(int argc, char **argv)
{
	const char *addr = NULL, *port = NULL, *mode = NULL;
	struct end e = { 0 };
	struct addrinfo *ai;
	int c, srv = -1, ret;

	while ((c = getopt(argc, argv, "sca:p:m:t:")) != -1) {
		switch (c) {
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
		case 'm':
			mode = optarg;
			break;
		case 't':
			timeout_s = atoi(optarg);
			break;
		default:
			return 2;
		}
	}
	if (srv < 0 || !addr || !port || !mode ||
	    (strcmp(mode, "badstag") && strcmp(mode, "bounds") &&
	     strcmp(mode, "pd") && strcmp(mode, "norecv"))) {
		fprintf(stderr,
			"usage: iw_term -s|-c -a ADDR -p PORT -m badstag|bounds|pd|norecv [-t SEC]\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (resolve(addr, port, &ai))
		return 1;
	e.name = srv ? "server" : "client";
	e.ch = rdma_create_event_channel();
	if (!e.ch) {
		perror(PROG ": rdma_create_event_channel");
		return 1;
	}
	ret = srv ? server(&e, ai, mode) : client(&e, ai, mode);
	freeaddrinfo(ai);
	if (ret)
		return 1;
	printf(PROG ": %s: %s\n", e.name,
	       e.learned ? "learned of the error" : "never learned of the error");
	/* the process exit releases the verbs objects */
	return e.learned ? 0 : 1;
}
