// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * user_db: the doorbell of a user QP, seen from the application.
 *
 *   user_db -s -a ADDR -p PORT [-n N] [-t SEC]
 *	the peer: accept one connection with four receives posted, report
 *	each receive, and exit 0 when the client disconnected (with -n,
 *	after exactly N receives).
 *   user_db -c -a ADDR -p PORT [-l] [-t SEC]
 *	connect and post two signaled 64-byte Sends, one at a time.
 *	Without -l each must complete well (the provider rang, the device
 *	heard).  With -l the device was told to lose the next doorbell
 *	(irdma_sim's drop_user_db): the first Send must not complete
 *	within 500 ms; the second one's doorbell must then run both, in
 *	order.
 *
 * Each step prints "ok:   ..." or "FAIL: ..." (check_util.h).  Exit 0
 * when every step of the end passed, 1 otherwise.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <rdma/rdma_cma.h>
#include <rdma/rdma_verbs.h>

#include "check_util.h"

#define PROG		"user_db"
#define MSG_LEN		64
#define NRECV		4
/* how long a Send whose doorbell was lost must stay untouched */
#define QUIET_MS	500

/* every step's line and the failure count come from check_util.h */
#define ok(...)		CHECK(1, __VA_ARGS__)
#define fail(...)	CHECK(0, __VA_ARGS__)

static int timeout_s = 10;

/* on_alarm: a step blocked (rdma_cm calls have no timeout of their own) */
static void on_alarm(int sig)
{
	static const char msg[] = PROG ": FAIL: still blocked at the deadline\n";

	(void)sig;
	if (write(STDOUT_FILENO, msg, sizeof(msg) - 1) < 0)
		_exit(2);
	_exit(1);
}

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000;
}

/* poll_for: up to max completions of cq within ms milliseconds */
static int poll_for(struct ibv_cq *cq, struct ibv_wc *wc, int max, long ms)
{
	long deadline = now_ms() + ms;
	int n = 0, r;

	while (n < max) {
		r = ibv_poll_cq(cq, max - n, wc + n);
		if (r < 0) {
			fail("ibv_poll_cq: %d", r);
			return n;
		}
		n += r;
		if (n < max && now_ms() >= deadline)
			break;
		if (!r)
			usleep(1000);
	}
	return n;
}

static int send_one(struct rdma_cm_id *id, struct ibv_mr *mr, char *buf,
		    uint64_t wr_id)
{
	int ret;

	snprintf(buf, MSG_LEN, "user_db message %llu",
		 (unsigned long long)wr_id);
	ret = rdma_post_send(id, (void *)(uintptr_t)wr_id, buf, MSG_LEN, mr,
			     IBV_SEND_SIGNALED);
	if (ret)
		fail("rdma_post_send %llu: %s", (unsigned long long)wr_id,
		     strerror(errno));
	return ret;
}

static int client(struct rdma_addrinfo *res, int lost)
{
	struct ibv_qp_init_attr attr = {
		.cap = { .max_send_wr = 4, .max_recv_wr = 1,
			 .max_send_sge = 1, .max_recv_sge = 1 },
		.qp_type = IBV_QPT_RC,
	};
	struct rdma_cm_id *id;
	struct ibv_wc wc[2];
	struct ibv_mr *mr;
	char buf[2 * MSG_LEN];
	long t0;
	int n, i;

	if (rdma_create_ep(&id, res, NULL, &attr)) {
		fail("rdma_create_ep: %s", strerror(errno));
		return 1;
	}
	mr = rdma_reg_msgs(id, buf, sizeof(buf));
	if (!mr || rdma_connect(id, NULL)) {
		fail("register or connect: %s", strerror(errno));
		rdma_destroy_ep(id);
		return 1;
	}
	ok("connected on %s", ibv_get_device_name(id->verbs->device));
	if (!lost) {
		for (i = 1; i <= 2; i++) {
			t0 = now_ms();
			if (send_one(id, mr, buf + (i - 1) * MSG_LEN, i))
				break;
			n = poll_for(id->send_cq, wc, 1, timeout_s * 1000L);
			if (n == 1 && wc[0].status == IBV_WC_SUCCESS &&
			    wc[0].wr_id == (uint64_t)i)
				ok("send %d completed in %ld ms", i,
				   now_ms() - t0);
			else if (n == 1)
				fail("send %d: wr %llu completed with status %s",
				     i, (unsigned long long)wc[0].wr_id,
				     ibv_wc_status_str(wc[0].status));
			else
				fail("send %d: no completion in %d s", i,
				     timeout_s);
		}
	} else if (!send_one(id, mr, buf, 1)) {
		n = poll_for(id->send_cq, wc, 1, QUIET_MS);
		if (n)
			fail("send 1 completed (status %s) though its doorbell was lost",
			     ibv_wc_status_str(wc[0].status));
		else
			ok("send 1: nothing for %d ms (its doorbell was lost)",
			   QUIET_MS);
		if (!n && !send_one(id, mr, buf + MSG_LEN, 2)) {
			t0 = now_ms();
			n = poll_for(id->send_cq, wc, 2, timeout_s * 1000L);
			for (i = 0; i < n; i++)
				if (wc[i].status != IBV_WC_SUCCESS ||
				    wc[i].wr_id != (uint64_t)i + 1)
					fail("completion %d: wr %llu, status %s",
					     i + 1,
					     (unsigned long long)wc[i].wr_id,
					     ibv_wc_status_str(wc[i].status));
			if (n == 2 && !check_failures)
				ok("send 2 rang: sends 1 and 2 completed in %ld ms",
				   now_ms() - t0);
			else if (n < 2)
				fail("send 2 rang: %d of 2 sends completed in %d s",
				     n, timeout_s);
		}
	}
	rdma_disconnect(id);
	rdma_dereg_mr(mr);
	rdma_destroy_ep(id);
	return check_failures ? 1 : 0;
}

static int server(struct rdma_addrinfo *res, int want)
{
	struct ibv_qp_init_attr attr = {
		.cap = { .max_send_wr = 1, .max_recv_wr = NRECV,
			 .max_send_sge = 1, .max_recv_sge = 1 },
		.qp_type = IBV_QPT_RC,
	};
	struct rdma_cm_id *listen_id, *id;
	struct rdma_cm_event *ev;
	struct pollfd pfd;
	struct ibv_wc wc;
	struct ibv_mr *mr;
	char buf[NRECV * MSG_LEN];
	long deadline;
	int got = 0, done = 0, i;

	if (rdma_create_ep(&listen_id, res, NULL, &attr) ||
	    rdma_listen(listen_id, 1)) {
		fail("listen: %s", strerror(errno));
		return 1;
	}
	ok("listening");
	if (rdma_get_request(listen_id, &id)) {
		fail("rdma_get_request: %s", strerror(errno));
		return 1;
	}
	mr = rdma_reg_msgs(id, buf, sizeof(buf));
	if (!mr) {
		fail("rdma_reg_msgs: %s", strerror(errno));
		return 1;
	}
	for (i = 0; i < NRECV; i++)
		if (rdma_post_recv(id, (void *)(uintptr_t)i, buf + i * MSG_LEN,
				   MSG_LEN, mr))
			fail("rdma_post_recv: %s", strerror(errno));
	if (rdma_accept(id, NULL)) {
		fail("rdma_accept: %s", strerror(errno));
		return 1;
	}
	ok("accepted on %s", ibv_get_device_name(id->verbs->device));
	/* receives, until the client's disconnect */
	pfd.fd = id->channel->fd;
	pfd.events = POLLIN;
	deadline = now_ms() + timeout_s * 1000L;
	while (!done && now_ms() < deadline) {
		while (ibv_poll_cq(id->recv_cq, 1, &wc) == 1) {
			if (wc.status == IBV_WC_SUCCESS) {
				got++;
				ok("received \"%.*s\"", MSG_LEN,
				   buf + wc.wr_id * MSG_LEN);
			}
		}
		if (poll(&pfd, 1, 10) == 1 && !rdma_get_cm_event(id->channel, &ev)) {
			done = ev->event == RDMA_CM_EVENT_DISCONNECTED;
			rdma_ack_cm_event(ev);
		}
	}
	while (ibv_poll_cq(id->recv_cq, 1, &wc) == 1)
		got += wc.status == IBV_WC_SUCCESS;
	if (!done)
		fail("no disconnect in %d s", timeout_s);
	if (want < 0 || got == want)
		ok("%d receives", got);
	else
		fail("%d receives, expected %d", got, want);
	/* no rdma_disconnect: the client's came (it would wait for another) */
	rdma_dereg_mr(mr);
	rdma_destroy_ep(id);
	rdma_destroy_ep(listen_id);
	return check_failures ? 1 : 0;
}

int main(int argc, char **argv)
{
	struct rdma_addrinfo hints = { .ai_port_space = RDMA_PS_TCP }, *res;
	const char *addr = NULL, *port = NULL;
	int srv = 0, lost = 0, want = -1, c, ret;

	while ((c = getopt(argc, argv, "sca:p:ln:t:")) != -1) {
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
		case 'l':
			lost = 1;
			break;
		case 'n':
			want = atoi(optarg);
			break;
		case 't':
			timeout_s = atoi(optarg);
			break;
		default:
			fprintf(stderr, "usage: %s -s|-c -a ADDR -p PORT [-l] [-n N] [-t SEC]\n",
				PROG);
			return 2;
		}
	}
	if (!addr || !port) {
		fprintf(stderr, "%s: -a ADDR and -p PORT are needed\n", PROG);
		return 2;
	}
	/* line by line: the test script waits for "listening" in a file */
	setvbuf(stdout, NULL, _IOLBF, 0);
	signal(SIGALRM, on_alarm);
	alarm(3 * timeout_s + 10);
	if (srv)
		hints.ai_flags = RAI_PASSIVE;
	ret = rdma_getaddrinfo(addr, port, &hints, &res);
	if (ret) {
		fail("rdma_getaddrinfo %s:%s: %s", addr, port, strerror(errno));
		return 1;
	}
	ret = srv ? server(res, want) : client(res, lost);
	rdma_freeaddrinfo(res);
	return ret;
}
