// SPDX-License-Identifier: GPL-2.0
/*
 * ring_reg - the ring registrations libirdma makes before CREATE_QP and
 * CREATE_CQ, sent as raw uverbs commands on the context's command file, so
 * that their access flags, order and timing are the test's own:
 *
 *  1. read-only rings: a QP ring and a CQ ring in a read-only mapping are
 *     refused whatever access the request names (the adapter writes rings);
 *     the same rings in a writable mapping, registered with no access flag
 *     at all, are accepted.
 *  2. dereg against create: for SECONDS, round after round, one thread
 *     deregisters a fresh QP ring while another creates a QP on it, the two
 *     released together.  One of them wins each round: either DEREG_MR
 *     succeeds and CREATE_QP fails, or CREATE_QP succeeds and DEREG_MR fails
 *     with EBUSY (the QP is then destroyed and the ring deregistered).  Both
 *     succeeding means a QP on a ring that is no longer pinned.
 *
 *   ring_reg [-d DEV] [-t SECONDS]
 *
 * Prints "ok:"/"FAIL:" lines, the race's tally, and "ALL OK" at the end.
 * Exit status: 0 when every step behaved as expected, 1 otherwise.
 */
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include <infiniband/verbs.h>
#include <rdma/ib_user_verbs.h>
#include <rdma/irdma-abi.h>

#include "check_util.h"

#define RING_SQ_PAGES	4
#define RING_RQ_PAGES	4
/* SQ pages, RQ pages, then one page for the shadow area */
#define RING_PAGES	(RING_SQ_PAGES + RING_RQ_PAGES + 1)

static long page;

/* the legacy write() command format: header, command, driver data */
struct ring_reg_mr_cmd {
	struct ib_uverbs_cmd_hdr hdr;
	struct ib_uverbs_reg_mr cmd;
	struct irdma_mem_reg_req drv;
};

struct ring_create_qp_cmd {
	struct ib_uverbs_cmd_hdr hdr;
	struct ib_uverbs_create_qp cmd;
	struct irdma_create_qp_req drv;
};

struct ring_create_qp_resp {
	struct ib_uverbs_create_qp_resp resp;
	struct irdma_create_qp_resp drv;
};

struct ring_dereg_mr_cmd {
	struct ib_uverbs_cmd_hdr hdr;
	struct ib_uverbs_dereg_mr cmd;
};

struct ring_destroy_qp_cmd {
	struct ib_uverbs_cmd_hdr hdr;
	struct ib_uverbs_destroy_qp cmd;
};

/* send one command (@cmd starts with its header); 0 or -errno */
static int ring_write(int fd, void *cmd, __u32 command, size_t in_len,
		      size_t out_len)
{
	struct ib_uverbs_cmd_hdr *hdr = cmd;

	hdr->command = command;
	hdr->in_words = in_len / 4;
	hdr->out_words = out_len / 4;
	if (write(fd, cmd, in_len) == (ssize_t)in_len)
		return 0;
	return -errno;
}

/* REG_MR of a QP or CQ ring at @buf; the handle in *@handle */
static int ring_reg(struct ibv_pd *pd, void *buf, __u16 type, __u32 access,
		    __u32 *handle)
{
	struct ib_uverbs_reg_mr_resp resp = {};
	struct ring_reg_mr_cmd c = {};
	int ret;

	c.cmd.response = (uintptr_t)&resp;
	c.cmd.start = (uintptr_t)buf;
	c.cmd.length = RING_PAGES * page;
	c.cmd.hca_va = (uintptr_t)buf;
	c.cmd.pd_handle = pd->handle;
	c.cmd.access_flags = access;
	c.drv.reg_type = type;
	if (type == IRDMA_MEMREG_TYPE_CQ) {
		c.drv.cq_pages = RING_PAGES;
	} else {
		c.drv.sq_pages = RING_SQ_PAGES;
		c.drv.rq_pages = RING_RQ_PAGES;
	}
	ret = ring_write(pd->context->cmd_fd, &c,
			 IB_USER_VERBS_CMD_REG_MR, sizeof(c), sizeof(resp));
	if (!ret)
		*handle = resp.mr_handle;
	return ret;
}

static int ring_dereg(struct ibv_context *ctx, __u32 handle)
{
	struct ring_dereg_mr_cmd c = {};

	c.cmd.mr_handle = handle;
	return ring_write(ctx->cmd_fd, &c, IB_USER_VERBS_CMD_DEREG_MR,
			  sizeof(c), 0);
}

/* CREATE_QP (RC) on the QP ring at @buf; the handle in *@handle */
static int ring_create_qp(struct ibv_pd *pd, struct ibv_cq *cq, void *buf,
			  __u32 *handle)
{
	struct ring_create_qp_resp resp = {};
	struct ring_create_qp_cmd c = {};
	int ret;

	c.cmd.response = (uintptr_t)&resp;
	c.cmd.pd_handle = pd->handle;
	c.cmd.send_cq_handle = cq->handle;
	c.cmd.recv_cq_handle = cq->handle;
	c.cmd.max_send_wr = 8;
	c.cmd.max_recv_wr = 8;
	c.cmd.max_send_sge = 1;
	c.cmd.max_recv_sge = 1;
	c.cmd.qp_type = IBV_QPT_RC;
	c.drv.user_wqe_bufs = (uintptr_t)buf;
	ret = ring_write(pd->context->cmd_fd, &c,
			 IB_USER_VERBS_CMD_CREATE_QP, sizeof(c), sizeof(resp));
	if (!ret)
		*handle = resp.resp.qp_handle;
	return ret;
}

static int ring_destroy_qp(struct ibv_context *ctx, __u32 handle)
{
	struct ib_uverbs_destroy_qp_resp resp = {};
	struct ring_destroy_qp_cmd c = {};

	c.cmd.response = (uintptr_t)&resp;
	c.cmd.qp_handle = handle;
	return ring_write(ctx->cmd_fd, &c, IB_USER_VERBS_CMD_DESTROY_QP,
			  sizeof(c), sizeof(resp));
}

static void *ring_map(int prot)
{
	void *p = mmap(NULL, RING_PAGES * page, prot,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

/* 1: rings in read-only memory are refused, rings with no access accepted */
static void ring_read_only(struct ibv_pd *pd)
{
	static const struct { __u16 type; const char *name; } types[] = {
		{ IRDMA_MEMREG_TYPE_QP, "QP" },
		{ IRDMA_MEMREG_TYPE_CQ, "CQ" },
	};
	void *ro = ring_map(PROT_READ), *rw = ring_map(PROT_READ | PROT_WRITE);
	unsigned int i;
	__u32 h;
	int ret;

	if (!ro || !rw) {
		CHECK(0, "mmap of the rings: %s", strerror(errno));
		return;
	}
	for (i = 0; i < 2; i++) {
		ret = ring_reg(pd, ro, types[i].type, 0, &h);
		CHECK(ret == -EFAULT,
		      "%s ring in a read-only mapping, no access flags: %s (want EFAULT)",
		      types[i].name, ret ? strerror(-ret) : "accepted");
		if (!ret)
			ring_dereg(pd->context, h);
		ret = ring_reg(pd, ro, types[i].type,
			       IBV_ACCESS_LOCAL_WRITE, &h);
		CHECK(ret == -EFAULT,
		      "%s ring in a read-only mapping, LOCAL_WRITE: %s (want EFAULT)",
		      types[i].name, ret ? strerror(-ret) : "accepted");
		if (!ret)
			ring_dereg(pd->context, h);
		ret = ring_reg(pd, rw, types[i].type, 0, &h);
		CHECK(!ret, "%s ring in a writable mapping, no access flags: %s",
		      types[i].name, ret ? strerror(-ret) : "accepted");
		if (!ret) {
			ret = ring_dereg(pd->context, h);
			CHECK(!ret, "%s ring deregistered: %s", types[i].name,
			      ret ? strerror(-ret) : "done");
		}
	}
	munmap(ro, RING_PAGES * page);
	munmap(rw, RING_PAGES * page);
}

/* 2: the creating thread, released by the deregistering one each round */
struct ring_race {
	pthread_barrier_t start, end;
	struct ibv_pd *pd;
	struct ibv_cq *cq;
	void *buf;
	unsigned int skew;	/* spin before the command, this round */
	bool stop;
	int ret;		/* CREATE_QP's result */
	__u32 qp;
};

static void ring_spin(unsigned int n)
{
	volatile unsigned int i;

	for (i = 0; i < n; i++)
		;
}

static void *ring_creator(void *arg)
{
	struct ring_race *r = arg;

	for (;;) {
		pthread_barrier_wait(&r->start);
		if (r->stop)
			return NULL;
		ring_spin(r->skew);
		r->ret = ring_create_qp(r->pd, r->cq, r->buf, &r->qp);
		pthread_barrier_wait(&r->end);
	}
}

static void ring_dereg_vs_create(struct ibv_pd *pd, struct ibv_cq *cq,
				 int seconds)
{
	unsigned long rounds = 0, dereg_won = 0, create_won = 0, bad = 0;
	struct ring_race r = { .pd = pd, .cq = cq };
	struct timespec now, end;
	pthread_t creator;
	int dret, ret;
	__u32 mr;

	r.buf = ring_map(PROT_READ | PROT_WRITE);
	if (!r.buf) {
		CHECK(0, "mmap of the ring: %s", strerror(errno));
		return;
	}
	pthread_barrier_init(&r.start, NULL, 2);
	pthread_barrier_init(&r.end, NULL, 2);
	if (pthread_create(&creator, NULL, ring_creator, &r)) {
		CHECK(0, "pthread_create");
		return;
	}
	clock_gettime(CLOCK_MONOTONIC, &end);
	end.tv_sec += seconds;
	for (;;) {
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (now.tv_sec > end.tv_sec ||
		    (now.tv_sec == end.tv_sec && now.tv_nsec >= end.tv_nsec))
			break;
		ret = ring_reg(pd, r.buf, IRDMA_MEMREG_TYPE_QP,
			       IBV_ACCESS_LOCAL_WRITE, &mr);
		if (ret) {
			CHECK(0, "round %lu: REG_MR of the ring: %s", rounds,
			      strerror(-ret));
			break;
		}
		/* sweep the two commands across each other */
		r.skew = (rounds * 37) % 4096;
		pthread_barrier_wait(&r.start);
		ring_spin(4096 - r.skew);
		dret = ring_dereg(pd->context, mr);
		pthread_barrier_wait(&r.end);
		rounds++;
		if (!dret && r.ret) {
			dereg_won++;
			continue;
		}
		if (dret == -EBUSY && !r.ret) {
			create_won++;
			ret = ring_destroy_qp(pd->context, r.qp);
			if (!ret)
				ret = ring_dereg(pd->context, mr);
			if (ret) {
				CHECK(0, "round %lu: after the QP won: destroy and dereg: %s",
				      rounds, strerror(-ret));
				break;
			}
			continue;
		}
		bad++;
		printf("FAIL: round %lu: DEREG_MR %s, CREATE_QP %s\n", rounds,
		       dret ? strerror(-dret) : "succeeded",
		       r.ret ? strerror(-r.ret) : "succeeded");
		check_failures++;
		if (!r.ret)
			ring_destroy_qp(pd->context, r.qp);
		if (dret)
			ring_dereg(pd->context, mr);
		if (bad >= 5)
			break;
	}
	r.stop = true;
	pthread_barrier_wait(&r.start);
	pthread_join(creator, NULL);
	printf("race: %lu rounds in %d s: DEREG_MR first %lu, CREATE_QP first %lu, both or neither %lu\n",
	       rounds, seconds, dereg_won, create_won, bad);
	CHECK(rounds && !bad && dereg_won + create_won == rounds,
	      "dereg against create: one winner in every round");
	munmap(r.buf, RING_PAGES * page);
}

int main(int argc, char **argv)
{
	struct ibv_device **list, *dev = NULL;
	const char *name = "irdma0";
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	struct ibv_cq *cq;
	int i, opt, seconds = 10;

	while ((opt = getopt(argc, argv, "d:t:")) != -1) {
		switch (opt) {
		case 'd':
			name = optarg;
			break;
		case 't':
			seconds = atoi(optarg);
			break;
		default:
			fprintf(stderr, "usage: %s [-d DEV] [-t SECONDS]\n",
				argv[0]);
			return 2;
		}
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	page = sysconf(_SC_PAGESIZE);
	list = ibv_get_device_list(NULL);
	for (i = 0; list && list[i]; i++)
		if (!strcmp(ibv_get_device_name(list[i]), name))
			dev = list[i];
	if (!dev) {
		printf("FAIL: no device %s\n", name);
		return 1;
	}
	ctx = ibv_open_device(dev);
	pd = ctx ? ibv_alloc_pd(ctx) : NULL;
	cq = pd ? ibv_create_cq(ctx, 64, NULL, NULL, 0) : NULL;
	if (!cq) {
		printf("FAIL: open %s, alloc_pd, create_cq: %s\n", name,
		       strerror(errno));
		return 1;
	}
	ring_read_only(pd);
	ring_dereg_vs_create(pd, cq, seconds);
	ibv_destroy_cq(cq);
	ibv_dealloc_pd(pd);
	ibv_close_device(ctx);
	ibv_free_device_list(list);
	if (check_failures)
		return 1;
	printf("ALL OK\n");
	return 0;
}
