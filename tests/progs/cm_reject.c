// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * cm_reject: one rdma_cm connection request, refused with private data.
 *
 *   cm_reject -s -a ADDR -p PORT [-d PDATA] [-n COUNT] [-t SEC]
 *	listen on ADDR:PORT; answer each of COUNT connection requests
 *	(default 1) with rdma_reject() carrying PDATA (default "irdma says
 *	no"); print the private data each request carried.  Needs no QP, so
 *	it runs on a device whose QP verbs do not exist yet.
 *   cm_reject -c -a ADDR -p PORT [-d PDATA] [-e EXPECT] [-t SEC]
 *	connect to ADDR:PORT with a QP and private data PDATA (default
 *	"hello from the client"); succeed when the answer is
 *	RDMA_CM_EVENT_REJECTED carrying EXPECT (default "irdma says no").
 *	Prints the time from rdma_connect() to the event.
 *
 * Every step is bounded by SEC seconds (default 10).  Output lines start
 * with "cm_reject:"; exit status 0 on success, 1 otherwise.
 */
#include <errno.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <rdma/rdma_cma.h>

#define PROG "cm_reject"
#include "cm_util.h"

/* print private data as text (it is text in this test) */
static void print_pdata(const char *what, const void *p, int len)
{
	printf("cm_reject: %s private data (%d bytes): '%.*s'\n", what, len,
	       len, p ? (const char *)p : "");
}

static int server(const char *addr, const char *port, const char *pdata,
		  int count)
{
	struct rdma_event_channel *ch;
	struct rdma_cm_event *ev;
	struct rdma_cm_id *listen_id;
	struct addrinfo *ai;
	int served = 0, ret = 1;

	if (resolve(addr, port, &ai))
		return 1;
	ch = rdma_create_event_channel();
	if (!ch || rdma_create_id(ch, &listen_id, NULL, RDMA_PS_TCP)) {
		perror("cm_reject: rdma_create_id");
		goto out_free_ai;
	}
	if (rdma_bind_addr(listen_id, ai->ai_addr) ||
	    rdma_listen(listen_id, 4)) {
		perror("cm_reject: bind/listen");
		goto out_destroy;
	}
	printf("cm_reject: listening on %s port %s (%s)\n", addr, port,
	       listen_id->verbs ? ibv_get_device_name(listen_id->verbs->device) :
				  "?");
	fflush(stdout);
	while (served < count) {
		ev = next_event(ch);
		if (!ev)
			goto out_destroy;
		if (ev->event != RDMA_CM_EVENT_CONNECT_REQUEST) {
			printf("cm_reject: ignoring %s\n",
			       rdma_event_str(ev->event));
			rdma_ack_cm_event(ev);
			continue;
		}
		print_pdata("request", ev->param.conn.private_data,
			    ev->param.conn.private_data_len);
		if (rdma_reject(ev->id, pdata, strlen(pdata))) {
			perror("cm_reject: rdma_reject");
			rdma_ack_cm_event(ev);
			goto out_destroy;
		}
		printf("cm_reject: rejected request %d\n", served + 1);
		fflush(stdout);
		rdma_destroy_id(ev->id);
		rdma_ack_cm_event(ev);
		served++;
	}
	ret = 0;
out_destroy:
	rdma_destroy_id(listen_id);
	rdma_destroy_event_channel(ch);
out_free_ai:
	freeaddrinfo(ai);
	return ret;
}

static long elapsed_us(const struct timespec *a)
{
	struct timespec b;

	clock_gettime(CLOCK_MONOTONIC, &b);
	return (b.tv_sec - a->tv_sec) * 1000000L +
	       (b.tv_nsec - a->tv_nsec) / 1000;
}

static int client(const char *addr, const char *port, const char *pdata,
		  const char *expect)
{
	struct ibv_qp_init_attr qpa = {
		.cap = { .max_send_wr = 2, .max_recv_wr = 2,
			 .max_send_sge = 1, .max_recv_sge = 1 },
		.qp_type = IBV_QPT_RC,
	};
	struct rdma_conn_param cp = {
		.private_data = pdata,
		.private_data_len = strlen(pdata),
		.responder_resources = 1,
		.initiator_depth = 1,
		.retry_count = 1,
	};
	struct rdma_event_channel *ch;
	struct rdma_cm_event *ev;
	struct rdma_cm_id *id;
	struct ibv_pd *pd = NULL;
	struct ibv_cq *cq = NULL;
	struct addrinfo *ai;
	struct timespec t0;
	int ret = 1, len;

	if (resolve(addr, port, &ai))
		return 1;
	ch = rdma_create_event_channel();
	if (!ch || rdma_create_id(ch, &id, NULL, RDMA_PS_TCP)) {
		perror("cm_reject: rdma_create_id");
		goto out_free_ai;
	}
	if (rdma_resolve_addr(id, NULL, ai->ai_addr, resolve_ms()) ||
	    expect_event(ch, RDMA_CM_EVENT_ADDR_RESOLVED, NULL) ||
	    rdma_resolve_route(id, resolve_ms()) ||
	    expect_event(ch, RDMA_CM_EVENT_ROUTE_RESOLVED, NULL)) {
		fprintf(stderr, "cm_reject: cannot resolve %s\n", addr);
		goto out_destroy;
	}
	pd = ibv_alloc_pd(id->verbs);
	cq = pd ? ibv_create_cq(id->verbs, 4, NULL, NULL, 0) : NULL;
	qpa.send_cq = cq;
	qpa.recv_cq = cq;
	if (!cq || rdma_create_qp(id, pd, &qpa)) {
		perror("cm_reject: QP");
		goto out_destroy;
	}
	printf("cm_reject: connecting to %s port %s from %s\n", addr, port,
	       ibv_get_device_name(id->verbs->device));
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (rdma_connect(id, &cp)) {
		perror("cm_reject: rdma_connect");
		goto out_destroy_qp;
	}
	ev = next_event(ch);
	if (!ev)
		goto out_destroy_qp;
	printf("cm_reject: %s status %d after %ld us\n",
	       rdma_event_str(ev->event), ev->status, elapsed_us(&t0));
	len = ev->param.conn.private_data_len;
	print_pdata("reply", ev->param.conn.private_data, len);
	if (ev->event == RDMA_CM_EVENT_REJECTED &&
	    len >= (int)strlen(expect) &&
	    !memcmp(ev->param.conn.private_data, expect, strlen(expect)))
		ret = 0;
	else
		fprintf(stderr, "cm_reject: want REJECTED with '%s'\n", expect);
	rdma_ack_cm_event(ev);
out_destroy_qp:
	rdma_destroy_qp(id);
out_destroy:
	if (cq)
		ibv_destroy_cq(cq);
	if (pd)
		ibv_dealloc_pd(pd);
	rdma_destroy_id(id);
	rdma_destroy_event_channel(ch);
out_free_ai:
	freeaddrinfo(ai);
	return ret;
}

int main(int argc, char **argv)
{
	const char *addr = NULL, *port = NULL, *pdata = NULL;
	const char *expect = "irdma says no";
	int mode = 0, count = 1, c;

	while ((c = getopt(argc, argv, "sca:p:d:e:n:t:")) != -1) {
		switch (c) {
		case 's':
		case 'c':
			mode = c;
			break;
		case 'a':
			addr = optarg;
			break;
		case 'p':
			port = optarg;
			break;
		case 'd':
			pdata = optarg;
			break;
		case 'e':
			expect = optarg;
			break;
		case 'n':
			count = atoi(optarg);
			break;
		case 't':
			timeout_s = atoi(optarg);
			break;
		default:
			mode = 0;
			break;
		}
	}
	if (!mode || !addr || !port || count < 1 || timeout_s < 1) {
		fprintf(stderr,
			"usage: cm_reject -s|-c -a ADDR -p PORT [-d PDATA] [-e EXPECT] [-n COUNT] [-t SEC]\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (mode == 's')
		return server(addr, port, pdata ? pdata : "irdma says no", count);
	return client(addr, port, pdata ? pdata : "hello from the client",
		      expect);
}
