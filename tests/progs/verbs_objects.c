// SPDX-License-Identifier: GPL-2.0
/*
 * verbs_objects - create and destroy the verbs objects of the stock
 * libirdma provider: PD, MR (REG_MR type MEM), CQ with a completion
 * channel (REG_MR type CQ + CREATE_CQ), RC QP (REG_MR type QP +
 * CREATE_QP), the iWARP state steps before a connection (INIT, RTR, and
 * RTS refused without the CM), ERR, then everything released; the new QP
 * reports state INIT and at least the capacities asked for.  Once: a CQ
 * of the max_cqe the device reports, and one entry more refused (EINVAL).
 *
 *   verbs_objects [-d DEV] [-n ROUNDS] [-s BYTES]
 *
 * Prints one line per step ("reg_mr: ok lkey 0x..."), and "ALL OK" at the
 * end.  Exit status: 0 when every step behaved as expected, 1 otherwise.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <infiniband/verbs.h>

#include "check_util.h"

static int round_trip(struct ibv_context *ctx, size_t bytes)
{
	struct ibv_qp_init_attr init = {};
	struct ibv_comp_channel *ch;
	struct ibv_qp_attr attr = {};
	struct ibv_cq *cq;
	struct ibv_pd *pd;
	struct ibv_mr *mr;
	struct ibv_qp *qp;
	void *buf;
	int ret;

	pd = ibv_alloc_pd(ctx);
	CHECK(pd, "alloc_pd");
	if (!pd)
		return -1;
	buf = aligned_alloc(4096, bytes);
	memset(buf, 0x5a, bytes);
	mr = ibv_reg_mr(pd, buf, bytes, IBV_ACCESS_LOCAL_WRITE |
			IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ);
	CHECK(mr && mr->lkey, "reg_mr %zu bytes: lkey 0x%x rkey 0x%x", bytes,
	      mr ? mr->lkey : 0, mr ? mr->rkey : 0);
	ch = ibv_create_comp_channel(ctx);
	CHECK(ch, "create_comp_channel");
	cq = ibv_create_cq(ctx, 128, NULL, ch, 0);
	CHECK(cq, "create_cq 128: %s", cq ? "" : strerror(errno));
	if (cq) {
		ret = ibv_req_notify_cq(cq, 0);
		CHECK(!ret, "req_notify_cq");
	}
	init.send_cq = cq;
	init.recv_cq = cq;
	init.qp_type = IBV_QPT_RC;
	init.cap.max_send_wr = 64;
	init.cap.max_recv_wr = 64;
	init.cap.max_send_sge = 2;
	init.cap.max_recv_sge = 2;
	qp = cq ? ibv_create_qp(pd, &init) : NULL;
	CHECK(qp, "create_qp RC: %s qpn %u", qp ? "" : strerror(errno),
	      qp ? qp->qp_num : 0);
	if (qp) {
		struct ibv_qp_init_attr qia;

		/* an iWARP QP starts idle: INIT; it has what was asked */
		ret = ibv_query_qp(qp, &attr, IBV_QP_STATE | IBV_QP_CAP, &qia);
		CHECK(!ret && attr.qp_state == IBV_QPS_INIT &&
		      qia.cap.max_send_wr >= init.cap.max_send_wr &&
		      qia.cap.max_recv_wr >= init.cap.max_recv_wr &&
		      qia.cap.max_send_sge >= init.cap.max_send_sge &&
		      qia.cap.max_recv_sge >= init.cap.max_recv_sge &&
		      attr.cap.max_send_wr == qia.cap.max_send_wr,
		      "query_qp after create: %s state %d send %u/%u recv %u/%u",
		      ret ? strerror(ret) : "", attr.qp_state,
		      qia.cap.max_send_wr, qia.cap.max_send_sge,
		      qia.cap.max_recv_wr, qia.cap.max_recv_sge);
		memset(&attr, 0, sizeof(attr));
		attr.qp_state = IBV_QPS_INIT;
		attr.port_num = 1;
		attr.qp_access_flags = IBV_ACCESS_REMOTE_WRITE |
				       IBV_ACCESS_REMOTE_READ;
		ret = ibv_modify_qp(qp, &attr, IBV_QP_STATE | IBV_QP_PORT |
				    IBV_QP_ACCESS_FLAGS);
		CHECK(!ret, "modify INIT: %s", ret ? strerror(ret) : "");
		attr.qp_state = IBV_QPS_RTR;
		ret = ibv_modify_qp(qp, &attr, IBV_QP_STATE);
		CHECK(!ret, "modify RTR: %s", ret ? strerror(ret) : "");
		attr.qp_state = IBV_QPS_RTS;
		ret = ibv_modify_qp(qp, &attr, IBV_QP_STATE);
		CHECK(ret, "modify RTS without a connection refused: %s",
		      strerror(ret));
		attr.qp_state = IBV_QPS_ERR;
		ret = ibv_modify_qp(qp, &attr, IBV_QP_STATE);
		CHECK(!ret, "modify ERR: %s", ret ? strerror(ret) : "");
		ret = ibv_destroy_qp(qp);
		CHECK(!ret, "destroy_qp: %s", ret ? strerror(ret) : "");
	}
	init.qp_type = IBV_QPT_UD;
	qp = cq ? ibv_create_qp(pd, &init) : NULL;
	CHECK(!qp, "create_qp UD refused on iWARP");
	if (qp)
		ibv_destroy_qp(qp);
	if (cq) {
		ret = ibv_destroy_cq(cq);
		CHECK(!ret, "destroy_cq: %s", ret ? strerror(ret) : "");
	}
	if (ch)
		CHECK(!ibv_destroy_comp_channel(ch), "destroy_comp_channel");
	if (mr)
		CHECK(!ibv_dereg_mr(mr), "dereg_mr");
	free(buf);
	CHECK(!ibv_dealloc_pd(pd), "dealloc_pd");
	return 0;
}

/* the device's max_cqe must be a CQ one can have */
static void max_cq(struct ibv_context *ctx)
{
	struct ibv_device_attr da;
	struct ibv_cq *cq;
	int ret;

	ret = ibv_query_device(ctx, &da);
	CHECK(!ret, "query_device: max_cqe %d", ret ? 0 : da.max_cqe);
	if (ret)
		return;
	cq = ibv_create_cq(ctx, da.max_cqe, NULL, NULL, 0);
	CHECK(cq && cq->cqe >= da.max_cqe, "create_cq max_cqe %d: %s cqe %d",
	      da.max_cqe, cq ? "" : strerror(errno), cq ? cq->cqe : 0);
	if (cq)
		CHECK(!ibv_destroy_cq(cq), "destroy_cq max_cqe");
	errno = 0;
	cq = ibv_create_cq(ctx, da.max_cqe + 1, NULL, NULL, 0);
	CHECK(!cq && errno == EINVAL, "create_cq max_cqe + 1 refused: %s",
	      cq ? "made" : strerror(errno));
	if (cq)
		ibv_destroy_cq(cq);
}

int main(int argc, char **argv)
{
	const char *name = NULL;
	struct ibv_device **list;
	struct ibv_context *ctx;
	size_t bytes = 1 << 20;
	int opt, n = 1, i;

	while ((opt = getopt(argc, argv, "d:n:s:")) != -1) {
		switch (opt) {
		case 'd':
			name = optarg;
			break;
		case 'n':
			n = atoi(optarg);
			break;
		case 's':
			bytes = strtoul(optarg, NULL, 0);
			break;
		default:
			fprintf(stderr, "usage: %s [-d DEV] [-n ROUNDS] [-s BYTES]\n",
				argv[0]);
			return 2;
		}
	}
	list = ibv_get_device_list(NULL);
	for (i = 0; list && list[i]; i++)
		if (!name || !strcmp(ibv_get_device_name(list[i]), name))
			break;
	if (!list || !list[i]) {
		printf("FAIL: no device %s\n", name ? name : "");
		return 1;
	}
	ctx = ibv_open_device(list[i]);
	CHECK(ctx, "open %s", ibv_get_device_name(list[i]));
	if (ctx)
		max_cq(ctx);
	for (i = 0; ctx && i < n; i++)
		round_trip(ctx, bytes);
	if (ctx)
		CHECK(!ibv_close_device(ctx), "close");
	ibv_free_device_list(list);
	if (!check_failures)
		printf("ALL OK\n");
	return check_failures ? 1 : 0;
}
