// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * cm_loop: serial rdma_cm connections, connect -> ESTABLISHED -> disconnect,
 * as fast as they go.
 *
 *   cm_loop -s -a ADDR -p PORT [-n COUNT] [-P] [-t SEC]
 *	listen on ADDR:PORT; accept COUNT connections (default 1; 0: until
 *	SIGTERM or SIGINT), each on a QP of its own, with 7 bytes of private
 *	data when -P is given.  A connection ends when its DISCONNECTED
 *	event arrives; its QP and id are destroyed then.  Every connection
 *	must see CONNECT_REQUEST, ESTABLISHED and DISCONNECTED, in that
 *	order, and nothing else.
 *   cm_loop -c -a ADDR -p PORT [-n COUNT] [-f MAXFAIL] [-P] [-t SEC]
 *	COUNT times (default 1): resolve ADDR, create a QP, connect (with 17
 *	bytes of private data when -P is given), wait for ESTABLISHED,
 *	disconnect at once, wait for DISCONNECTED, destroy the QP and the
 *	id.  With -P the server's 7 bytes must arrive with ESTABLISHED and
 *	the server checks the client's 17, exactly; without it, neither
 *	event may carry private data.  Up to MAXFAIL connections
 *	(default 0) may fail cleanly (an error event instead of ESTABLISHED:
 *	REJECTED, CONNECT_ERROR, UNREACHABLE); each is reported.  A
 *	connect a siw client's stack refuses with EADDRNOTAVAIL (the local
 *	port rdma_cm chose still has this 4-tuple in TCP TIME_WAIT: siw's
 *	connections are kernel sockets) is tried again on a new id, up to 3
 *	times; the retries are counted and printed.  For any other device
 *	EADDRNOTAVAIL fails the connection: an offloaded connection leaves
 *	nothing in the host's TCP stack, so nothing there may collide.
 *   cm_loop -c ... -O
 *	as -c, but each connection's QP has a CQ of its own, asked for 4
 *	entries: once ESTABLISHED the client posts 8 signaled zero-length
 *	RDMA Writes more than the CQ holds, never polls, and destroys the QP
 *	and the CQ 0 to 4 ms later (a sweep over the connections), while
 *	the adapter may still be reporting the CQ's overflow; then it
 *	disconnects.  The overflows reported (IBV_EVENT_CQ_ERR) before
 *	their CQ's destroy are counted ("cm_loop: 37 CQ overflow events"):
 *	ib_uverbs drops the events of a CQ it destroys.
 *
 *   cm_loop -c ... -H HOLD
 *	first set up HOLD connections the same way and keep them open,
 *	idle, while the COUNT connections are made and timed (the rate with
 *	HOLD connections held; "cm_loop: holding 1000 connections, set up
 *	in 9.1 s"); then close the held ones.  The server needs -n 0.
 *   cm_loop -c ... -T
 *	as -c, and at the end print where a connection's time went, as the
 *	mean over the connections that closed cleanly, in microseconds:
 *	"cm_loop: phases (us): resolve 812 qp 240 connect 2210
 *	disconnect 950 destroy 610".  resolve is rdma_create_id() to
 *	ROUTE_RESOLVED; qp is rdma_create_qp() (with the PD and CQ on the
 *	first); connect is rdma_connect() to ESTABLISHED; disconnect is
 *	rdma_disconnect() to DISCONNECTED; destroy is rdma_destroy_qp()
 *	and rdma_destroy_id().  With -O nothing is timed (its connections
 *	destroy their QP before they disconnect).
 *   cm_loop -c ... -H HOLD -W
 *	as -H, but keep the held connections open after the COUNT ones
 *	(which may be 0) until SIGTERM or SIGINT, and only then close them:
 *	"cm_loop: holding, waiting for a signal" says they are all up.
 *
 * Every wait is bounded by SEC seconds (default 10).  The client prints
 * the number of connections and the rate at the end:
 *   "cm_loop: 200 connections in 41.3 s (4.8/s), 0 failed".
 * Output lines start with "cm_loop:"; exit status 0 when every connection
 * went as described, 1 otherwise, 2 on bad usage.
 */
#include <errno.h>
#include <netdb.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <rdma/rdma_cma.h>

#define PROG "cm_loop"
#include "cm_util.h"

/* a connect refused with EADDRNOTAVAIL is tried this often in all */
#define CONNECT_TRIES 4

static int with_pdata;
static int overflow;
static int hold_wait;
static int phases;

/* -T: the phases of a connection, and their sums over the clean ones */
enum { PH_RESOLVE, PH_QP, PH_CONNECT, PH_DISCONNECT, PH_DESTROY, PH_N };
static const char *const phase_name[PH_N] = {
	"resolve", "qp", "connect", "disconnect", "destroy"
};
static double phase_sum[PH_N];
static int phase_count;
static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

/* the private data of each side: 17 bytes from the client, 7 back */
static const char client_pdata[17] = "cm_loop client 17";
static const char server_pdata[7] = "srv 7 b";

/* per-connection state of the server (cm_id->context) */
enum conn_state { CONN_REQUESTED = 1, CONN_ESTABLISHED };

/*
 * The event carries exactly the private data the peer sent: @len bytes
 * equal to @want, or none when @len is 0.  iWARP hands the peer's bytes
 * through as they came (no padding, unlike IB's CM), so a longer length is
 * a CM that added to them (an MPA v2 block left in, say).
 */
static int pdata_ok(const struct rdma_cm_event *ev, const char *want, int len)
{
	if (ev->param.conn.private_data_len == len &&
	    (!len || (ev->param.conn.private_data &&
		      !memcmp(ev->param.conn.private_data, want, len))))
		return 1;
	fprintf(stderr, "cm_loop: %s: private data of %d bytes, want %d: '%.*s'\n",
		rdma_event_str(ev->event), ev->param.conn.private_data_len,
		len, len, want);
	return 0;
}

/* seconds from *@a to *@b */
static double ts_sub_s(const struct timespec *a, const struct timespec *b)
{
	return (b->tv_sec - a->tv_sec) + (b->tv_nsec - a->tv_nsec) / 1e9;
}

static double elapsed_s(const struct timespec *a)
{
	struct timespec b;

	clock_gettime(CLOCK_MONOTONIC, &b);
	return ts_sub_s(a, &b);
}

/* -T: the time since *@t in microseconds; *@t becomes now */
static double lap_us(struct timespec *t)
{
	struct timespec now;
	double us;

	clock_gettime(CLOCK_MONOTONIC, &now);
	us = ts_sub_s(t, &now) * 1e6;
	*t = now;
	return us;
}

/* PD and CQ of one device context, made on first use (one per process) */
struct dev_res {
	struct ibv_context *verbs;
	struct ibv_pd *pd;
	struct ibv_cq *cq;
	struct ibv_cq *own_cq;	/* -O: this connection's CQ */
	int cq_errors;		/* -O: IBV_EVENT_CQ_ERR seen */
};

static int make_qp(struct dev_res *r, struct rdma_cm_id *id)
{
	struct ibv_qp_init_attr qpa = {
		.cap = { .max_send_wr = 2, .max_recv_wr = 2,
			 .max_send_sge = 1, .max_recv_sge = 1 },
		.qp_type = IBV_QPT_RC,
	};

	if (r->verbs && r->verbs != id->verbs) {
		fprintf(stderr, "cm_loop: a second device context\n");
		return -1;
	}
	if (!r->verbs) {
		r->verbs = id->verbs;
		r->pd = ibv_alloc_pd(id->verbs);
		/* a QP of 2+2 entries each, and room for the last ones' flushes */
		r->cq = r->pd ? ibv_create_cq(id->verbs, 64, NULL, NULL, 0) :
				NULL;
		if (!r->cq) {
			perror("cm_loop: PD/CQ");
			return -1;
		}
	}
	qpa.send_cq = r->cq;
	qpa.recv_cq = r->cq;
	if (overflow) {
		r->own_cq = ibv_create_cq(id->verbs, 4, NULL, NULL, 0);
		if (!r->own_cq) {
			perror("cm_loop: ibv_create_cq 4");
			return -1;
		}
		qpa.send_cq = r->own_cq;
		/* the provider may round the CQ up: 8 Writes more than it holds */
		qpa.cap.max_send_wr = r->own_cq->cqe + 8;
	}
	if (rdma_create_qp(id, r->pd, &qpa)) {
		perror("cm_loop: rdma_create_qp");
		return -1;
	}
	return 0;
}

/* -O: the asynchronous events so far, without waiting */
static void count_async(struct dev_res *r)
{
	struct ibv_async_event ev;
	struct pollfd pfd = { .fd = r->verbs->async_fd, .events = POLLIN };

	while (poll(&pfd, 1, 0) == 1 && !ibv_get_async_event(r->verbs, &ev)) {
		if (ev.event_type == IBV_EVENT_CQ_ERR)
			r->cq_errors++;
		ibv_ack_async_event(&ev);
	}
}

/*
 * -O: overflow the connection's CQ with 8 signaled zero-length Writes more
 * than it holds and destroy QP and CQ 0 to 4 ms later; 0 or -1
 */
static int overflow_and_destroy(struct dev_res *r, struct rdma_cm_id *id)
{
	static unsigned int round;
	struct ibv_send_wr wr = {
		.opcode = IBV_WR_RDMA_WRITE,
		.send_flags = IBV_SEND_SIGNALED,
	}, *bad;
	int i, ret = 0;

	for (i = 0; i < r->own_cq->cqe + 8 && !ret; i++) {
		wr.wr_id = i;
		ret = ibv_post_send(id->qp, &wr, &bad);
	}
	if (ret)
		fprintf(stderr, "cm_loop: post Write %d: %s\n", i, strerror(ret));
	if (!round)
		printf("cm_loop: -O: CQs of %d entries, %d Writes\n",
		       r->own_cq->cqe, i);
	usleep(round++ % 17 * 250);
	/* ib_uverbs drops the events of a CQ it destroys: count them now */
	count_async(r);
	rdma_destroy_qp(id);
	if (ibv_destroy_cq(r->own_cq)) {
		perror("cm_loop: ibv_destroy_cq");
		ret = -1;
	}
	r->own_cq = NULL;
	return ret ? -1 : 0;
}

static void free_res(struct dev_res *r)
{
	if (r->cq)
		ibv_destroy_cq(r->cq);
	if (r->pd)
		ibv_dealloc_pd(r->pd);
}

/* drain completions (flushes of destroyed QPs): the CQ never overflows */
static void drain_cq(struct dev_res *r)
{
	struct ibv_wc wc[16];

	if (r->cq)
		while (ibv_poll_cq(r->cq, 16, wc) > 0)
			;
}

/* the server: handle events until @count connections are done */
static int run_server(const char *addr, const char *port, int count)
{
	struct rdma_conn_param cp = {
		.responder_resources = 1,
		.initiator_depth = 1,
	};
	struct rdma_event_channel *ch;
	struct rdma_cm_id *listen_id;
	struct dev_res res = {};
	struct addrinfo *ai;
	int done = 0, ret = 1;

	if (with_pdata) {
		cp.private_data = server_pdata;
		cp.private_data_len = sizeof(server_pdata);
	}
	if (resolve(addr, port, &ai))
		return 1;
	ch = rdma_create_event_channel();
	if (!ch || rdma_create_id(ch, &listen_id, NULL, RDMA_PS_TCP)) {
		perror("cm_loop: rdma_create_id");
		goto out_free_ai;
	}
	if (rdma_bind_addr(listen_id, ai->ai_addr) ||
	    rdma_listen(listen_id, 8)) {
		perror("cm_loop: listen");
		goto out_destroy;
	}
	printf("cm_loop: listening on %s port %s\n", addr, port);
	while (!count || done < count) {
		struct pollfd pfd = { .fd = ch->fd, .events = POLLIN };
		struct rdma_cm_event *ev;
		struct rdma_cm_id *id;
		long st;

		if (!count) {
			/* until a signal: only a stop ends the wait */
			if (stop)
				break;
			if (poll(&pfd, 1, 1000) <= 0)
				continue;
		}
		ev = next_event(ch);
		if (!ev)
			goto out_destroy;
		id = ev->id;
		st = (long)id->context;
		switch (ev->event) {
		case RDMA_CM_EVENT_CONNECT_REQUEST:
			if (!pdata_ok(ev, client_pdata,
				      with_pdata ? sizeof(client_pdata) : 0))
				goto bad_event;
			if (make_qp(&res, id)) {
				rdma_reject(id, NULL, 0);
				goto bad_event;
			}
			id->context = (void *)(long)CONN_REQUESTED;
			if (rdma_accept(id, &cp)) {
				perror("cm_loop: rdma_accept");
				goto bad_event;
			}
			break;
		case RDMA_CM_EVENT_ESTABLISHED:
			if (st != CONN_REQUESTED)
				goto bad_order;
			id->context = (void *)(long)CONN_ESTABLISHED;
			break;
		case RDMA_CM_EVENT_DISCONNECTED:
			if (st != CONN_ESTABLISHED)
				goto bad_order;
			rdma_ack_cm_event(ev);
			rdma_destroy_qp(id);
			rdma_destroy_id(id);
			drain_cq(&res);
			done++;
			continue;
		default:
			goto bad_event;
		}
		rdma_ack_cm_event(ev);
		continue;
bad_order:
		fprintf(stderr, "cm_loop: %s in state %ld (connection %d)\n",
			rdma_event_str(ev->event), st, done + 1);
bad_event:
		fprintf(stderr, "cm_loop: server: %s status %d, connection %d\n",
			rdma_event_str(ev->event), ev->status, done + 1);
		rdma_ack_cm_event(ev);
		goto out_destroy;
	}
	printf("cm_loop: server: %d connections done\n", done);
	ret = 0;
out_destroy:
	rdma_destroy_id(listen_id);
	free_res(&res);
	rdma_destroy_event_channel(ch);
out_free_ai:
	freeaddrinfo(ai);
	return ret;
}

/*
 * one client connection; 0 when it went connect -> ESTABLISHED -> close,
 * 1 when the connect failed cleanly (an error event), 2 when rdma_connect()
 * of a siw client failed with EADDRNOTAVAIL (try again), -1 otherwise.  With @keep,
 * an established connection is not closed but stored in *@keep.
 */
static int client_one(struct rdma_event_channel *ch, struct dev_res *res,
		      struct addrinfo *ai, struct rdma_cm_id **keep)
{
	struct rdma_conn_param cp = {
		.responder_resources = 1,
		.initiator_depth = 1,
		.retry_count = 1,
	};
	double ph[PH_N] = {};
	struct rdma_cm_event *ev;
	struct rdma_cm_id *id;
	struct timespec t;
	int ret = -1, k;

	clock_gettime(CLOCK_MONOTONIC, &t);
	if (with_pdata) {
		cp.private_data = client_pdata;
		cp.private_data_len = sizeof(client_pdata);
	}
	if (rdma_create_id(ch, &id, NULL, RDMA_PS_TCP)) {
		perror("cm_loop: rdma_create_id");
		return -1;
	}
	if (rdma_resolve_addr(id, NULL, ai->ai_addr, resolve_ms()) ||
	    expect_event(ch, RDMA_CM_EVENT_ADDR_RESOLVED, NULL) ||
	    rdma_resolve_route(id, resolve_ms()) ||
	    expect_event(ch, RDMA_CM_EVENT_ROUTE_RESOLVED, NULL)) {
		fprintf(stderr, "cm_loop: cannot resolve the server\n");
		goto out_destroy;
	}
	ph[PH_RESOLVE] = lap_us(&t);
	if (make_qp(res, id))
		goto out_destroy;
	ph[PH_QP] = lap_us(&t);
	if (rdma_connect(id, &cp)) {
		if (errno == EADDRNOTAVAIL &&
		    !strncmp(ibv_get_device_name(id->verbs->device), "siw", 3)) {
			ret = 2;
			goto out_destroy_qp;
		}
		if (errno == EADDRNOTAVAIL)
			fprintf(stderr, "cm_loop: %s: the host's TCP stack holds this 4-tuple\n",
				ibv_get_device_name(id->verbs->device));
		perror("cm_loop: rdma_connect");
		goto out_destroy_qp;
	}
	ev = next_event(ch);
	if (!ev)
		goto out_destroy_qp;
	if (ev->event == RDMA_CM_EVENT_REJECTED ||
	    ev->event == RDMA_CM_EVENT_CONNECT_ERROR ||
	    ev->event == RDMA_CM_EVENT_UNREACHABLE) {
		fprintf(stderr, "cm_loop: connect failed: %s (status %d)\n",
			rdma_event_str(ev->event), ev->status);
		rdma_ack_cm_event(ev);
		ret = 1;
		goto out_destroy_qp;
	}
	if (ev->event != RDMA_CM_EVENT_ESTABLISHED) {
		fprintf(stderr, "cm_loop: got %s (status %d), want %s\n",
			rdma_event_str(ev->event), ev->status,
			rdma_event_str(RDMA_CM_EVENT_ESTABLISHED));
		rdma_ack_cm_event(ev);
		goto out_destroy_qp;
	}
	if (!pdata_ok(ev, server_pdata, with_pdata ? sizeof(server_pdata) : 0)) {
		rdma_ack_cm_event(ev);
		goto out_destroy_qp;
	}
	rdma_ack_cm_event(ev);
	ph[PH_CONNECT] = lap_us(&t);
	if (keep) {
		*keep = id;
		return 0;
	}
	if (overflow && overflow_and_destroy(res, id))
		goto out_destroy_qp;
	if (rdma_disconnect(id)) {
		perror("cm_loop: rdma_disconnect");
		goto out_destroy_qp;
	}
	if (expect_event(ch, RDMA_CM_EVENT_DISCONNECTED, NULL))
		goto out_destroy_qp;
	ph[PH_DISCONNECT] = lap_us(&t);
	ret = 0;
out_destroy_qp:
	if (id->qp)
		rdma_destroy_qp(id);
	if (res->own_cq)
		ibv_destroy_cq(res->own_cq);
	res->own_cq = NULL;
	drain_cq(res);
out_destroy:
	rdma_destroy_id(id);
	if (!ret && !overflow) {
		ph[PH_DESTROY] = lap_us(&t);
		for (k = 0; k < PH_N; k++)
			phase_sum[k] += ph[k];
		phase_count++;
	}
	return ret;
}

/* -T: print the mean of each phase over the clean connections */
static void print_phases(void)
{
	int k;

	if (!phase_count)
		return;
	printf("cm_loop: phases (us):");
	for (k = 0; k < PH_N; k++)
		printf(" %s %.0f", phase_name[k], phase_sum[k] / phase_count);
	printf("\n");
}

/* connect_retried: client_one() with retries of EADDRNOTAVAIL */
static int connect_retried(struct rdma_event_channel *ch, struct dev_res *res,
			   struct addrinfo *ai, struct rdma_cm_id **keep,
			   int *retried)
{
	int r, tries;

	for (tries = 1; ; tries++) {
		r = client_one(ch, res, ai, keep);
		if (r != 2 || tries == CONNECT_TRIES)
			break;
		(*retried)++;
	}
	if (r == 2) {
		fprintf(stderr, "cm_loop: rdma_connect: %s, %d tries\n",
			strerror(EADDRNOTAVAIL), tries);
		r = -1;
	}
	return r;
}

/* -H: set up @n connections on @ch and keep them in @ids; 0 or -1 */
static int hold_open(struct rdma_event_channel *ch, struct dev_res *res,
		     struct addrinfo *ai, struct rdma_cm_id **ids, int n,
		     int *retried)
{
	struct timespec t0;
	int i;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (i = 0; i < n; i++) {
		if (connect_retried(ch, res, ai, &ids[i], retried)) {
			fprintf(stderr, "cm_loop: held connection %d of %d failed\n",
				i + 1, n);
			return -1;
		}
	}
	printf("cm_loop: holding %d connections, set up in %.1f s\n", n,
	       elapsed_s(&t0));
	return 0;
}

/* -W: wait for SIGTERM or SIGINT, without missing one that came already */
static void wait_signal(void)
{
	sigset_t block, old;

	sigemptyset(&block);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGINT);
	sigprocmask(SIG_BLOCK, &block, &old);
	printf("cm_loop: holding, waiting for a signal\n");
	while (!stop)
		sigsuspend(&old);
	sigprocmask(SIG_SETMASK, &old, NULL);
}

/* -H: close the held connections; 0 when each one closed as it should */
static int hold_close(struct rdma_event_channel *ch, struct dev_res *res,
		      struct rdma_cm_id **ids, int n)
{
	int i, ret = 0;

	for (i = 0; i < n && ids[i]; i++) {
		if (rdma_disconnect(ids[i])) {
			perror("cm_loop: rdma_disconnect (held)");
			ret = -1;
		}
	}
	/* a DISCONNECTED for each: they may come in any order */
	for (i = 0; i < n && ids[i] && !ret; i++)
		if (expect_event(ch, RDMA_CM_EVENT_DISCONNECTED, NULL))
			ret = -1;
	for (i = 0; i < n && ids[i]; i++) {
		rdma_destroy_qp(ids[i]);
		rdma_destroy_id(ids[i]);
	}
	drain_cq(res);
	return ret;
}

static int run_client(const char *addr, const char *port, int count,
		      int maxfail, int hold)
{
	struct rdma_event_channel *hold_ch = NULL;
	struct rdma_cm_id **held = NULL;
	struct rdma_event_channel *ch;
	struct dev_res res = {};
	int i, r, ret = 1, failed = 0, retried = 0;
	struct addrinfo *ai;
	struct timespec t0;
	double s;

	if (resolve(addr, port, &ai))
		return 1;
	ch = rdma_create_event_channel();
	if (!ch) {
		perror("cm_loop: rdma_create_event_channel");
		goto out_free_ai;
	}
	if (hold) {
		held = calloc(hold, sizeof(*held));
		hold_ch = rdma_create_event_channel();
		if (!held || !hold_ch) {
			perror("cm_loop: -H");
			goto out_hold;
		}
		if (hold_open(hold_ch, &res, ai, held, hold, &retried))
			goto out_hold;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (i = 0; i < count; i++) {
		r = connect_retried(ch, &res, ai, NULL, &retried);
		if (!r)
			continue;
		fprintf(stderr, "cm_loop: connection %d of %d failed\n",
			i + 1, count);
		if (r < 0 || ++failed > maxfail)
			break;
	}
	s = elapsed_s(&t0);
	printf("cm_loop: %d connections in %.1f s (%.1f/s), %d failed%s%s\n",
	       i, s, s > 0 ? i / s : 0.0, failed, res.verbs ? " from " : "",
	       res.verbs ? ibv_get_device_name(res.verbs->device) : "");
	if (phases)
		print_phases();
	if (retried)
		printf("cm_loop: %d connects retried (EADDRNOTAVAIL)\n",
		       retried);
	if (overflow) {
		if (res.verbs)
			count_async(&res);
		printf("cm_loop: %d CQ overflow events\n", res.cq_errors);
		fflush(stdout);
	}
	if (i == count)
		ret = 0;
	if (hold_wait && !ret)
		wait_signal();
out_hold:
	if (held && hold_close(hold_ch, &res, held, hold))
		ret = 1;
	free(held);
	if (hold_ch)
		rdma_destroy_event_channel(hold_ch);
	free_res(&res);
	rdma_destroy_event_channel(ch);
out_free_ai:
	freeaddrinfo(ai);
	return ret;
}

int main(int argc, char **argv)
{
	const char *addr = NULL, *port = NULL;
	int mode = 0, count = 1, maxfail = 0, hold = 0, c;

	while ((c = getopt(argc, argv, "sca:p:n:f:POt:H:WT")) != -1) {
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
		case 'n':
			count = atoi(optarg);
			break;
		case 'f':
			maxfail = atoi(optarg);
			break;
		case 'P':
			with_pdata = 1;
			break;
		case 'O':
			overflow = 1;
			break;
		case 't':
			timeout_s = atoi(optarg);
			break;
		case 'H':
			hold = atoi(optarg);
			break;
		case 'W':
			hold_wait = 1;
			break;
		case 'T':
			phases = 1;
			break;
		default:
			mode = 0;
			break;
		}
	}
	if (!mode || !addr || !port || count < 0 || (mode == 'c' && !count && !hold_wait) ||
	    maxfail < 0 || timeout_s < 1 || hold < 0 || (hold && overflow) ||
	    (hold_wait && (mode != 'c' || !hold)) || (phases && mode != 'c')) {
		fprintf(stderr,
			"usage: cm_loop -s|-c -a ADDR -p PORT [-n COUNT] [-f MAXFAIL] [-P] [-O | -H HOLD [-W]] [-T] [-t SEC]\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	signal(SIGTERM, on_signal);
	signal(SIGINT, on_signal);
	if (mode == 's')
		return run_server(addr, port, count);
	return run_client(addr, port, count, maxfail, hold);
}
