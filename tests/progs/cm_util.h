/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rdma_cm helpers of the test programs (cm_loop, cm_reject, ...): waiting
 * for an event or a completion with a timeout, and numeric address
 * resolution.  Include after <rdma/rdma_cma.h>, <poll.h>, <netdb.h> and
 * <stdio.h>, with PROG defined as the program's name (the prefix of its
 * messages).
 */
#ifndef IRDMA_TEST_CM_UTIL_H
#define IRDMA_TEST_CM_UTIL_H

#include <time.h>
#include <unistd.h>

/* seconds an event (or an address or route resolution) may take */
static int timeout_s = 10;

/*
 * milliseconds an address or route resolution is given: well inside the
 * wait for its event.  ib_core's resolution of a neighbour that the ARP
 * answer resolved within the request's own call (a veth peer) ends only
 * when its timeout does; a wait as long as that timeout would give up
 * first.
 */
static int resolve_ms(void)
{
	return timeout_s > 4 ? 2000 : timeout_s * 500;
}

/* wait for the next CM event on @ch; NULL on timeout or error */
static struct rdma_cm_event *next_event(struct rdma_event_channel *ch)
{
	struct pollfd pfd = { .fd = ch->fd, .events = POLLIN };
	struct rdma_cm_event *ev;
	int n;

	n = poll(&pfd, 1, timeout_s * 1000);
	if (n <= 0) {
		fprintf(stderr, PROG ": no CM event within %d s\n",
			timeout_s);
		return NULL;
	}
	if (rdma_get_cm_event(ch, &ev)) {
		perror(PROG ": rdma_get_cm_event");
		return NULL;
	}
	return ev;
}

/* wait for an event of type @want; acked unless @keep */
static int expect_event(struct rdma_event_channel *ch,
			enum rdma_cm_event_type want,
			struct rdma_cm_event **keep)
{
	struct rdma_cm_event *ev = next_event(ch);

	if (!ev)
		return -1;
	if (ev->event != want) {
		fprintf(stderr, PROG ": got %s (status %d), want %s\n",
			rdma_event_str(ev->event), ev->status,
			rdma_event_str(want));
		rdma_ack_cm_event(ev);
		return -1;
	}
	if (keep)
		*keep = ev;
	else
		rdma_ack_cm_event(ev);
	return 0;
}

static int resolve(const char *addr, const char *port, struct addrinfo **res)
{
	struct addrinfo hints = {
		.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV,
		.ai_socktype = SOCK_STREAM,
	};
	int err = getaddrinfo(addr, port, &hints, res);

	if (err)
		fprintf(stderr, PROG ": %s:%s: %s\n", addr, port,
			gai_strerror(err));
	return err ? -1 : 0;
}

/* poll one completion of @cq within the time limit; 0 with *wc filled */
static inline int poll_cq_one(struct ibv_cq *cq, struct ibv_wc *wc)
{
	time_t end = time(NULL) + timeout_s;
	int n;

	do {
		n = ibv_poll_cq(cq, 1, wc);
		if (n)
			return n == 1 ? 0 : -1;
		usleep(1000);
	} while (time(NULL) < end);
	fprintf(stderr, PROG ": no completion within %d s\n", timeout_s);
	return -1;
}

/* the next CQ event on @cc within the time limit, acknowledged */
static inline int wait_cq_event(struct ibv_comp_channel *cc)
{
	struct pollfd pfd = { .fd = cc->fd, .events = POLLIN };
	struct ibv_cq *cq;
	void *ctx;

	if (poll(&pfd, 1, timeout_s * 1000) != 1 ||
	    ibv_get_cq_event(cc, &cq, &ctx)) {
		fprintf(stderr, PROG ": no CQ event within %d s\n", timeout_s);
		return -1;
	}
	ibv_ack_cq_events(cq, 1);
	return 0;
}

#endif /* IRDMA_TEST_CM_UTIL_H */
