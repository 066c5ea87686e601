// SPDX-License-Identifier: GPL-2.0
/*
 * hold_objs - hold many verbs objects of one device open.
 *
 *   hold_objs -d DEV [-n N]
 *
 * Opens DEV, allocates a PD and a region, creates N CQs and N RC QPs (one
 * CQ each), prints "READY N", and waits for end of file on stdin.  Then it
 * releases everything; the device may have gone meanwhile, so failures of
 * the releases are counted and printed, not fatal.
 * Exit status: 0 when all N were created, 1 otherwise.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <infiniband/verbs.h>

int main(int argc, char **argv)
{
	struct ibv_qp_init_attr qa = {
		.cap = { .max_send_wr = 4, .max_recv_wr = 4,
			 .max_send_sge = 1, .max_recv_sge = 1 },
		.qp_type = IBV_QPT_RC,
	};
	struct ibv_device **list = ibv_get_device_list(NULL);
	struct ibv_context *ctx = NULL;
	struct ibv_cq **cqs;
	struct ibv_qp **qps;
	const char *dev = NULL;
	int n = 100, i, opt, made = 0, failed = 0;
	static char buf[4096];
	struct ibv_mr *mr;
	struct ibv_pd *pd;

	while ((opt = getopt(argc, argv, "d:n:")) != -1) {
		if (opt == 'd')
			dev = optarg;
		else if (opt == 'n')
			n = atoi(optarg);
		else
			return 2;
	}
	for (i = 0; dev && list && list[i] && !ctx; i++)
		if (!strcmp(ibv_get_device_name(list[i]), dev))
			ctx = ibv_open_device(list[i]);
	pd = ctx ? ibv_alloc_pd(ctx) : NULL;
	mr = pd ? ibv_reg_mr(pd, buf, sizeof(buf), IBV_ACCESS_LOCAL_WRITE) : NULL;
	cqs = calloc(n, sizeof(*cqs));
	qps = calloc(n, sizeof(*qps));
	if (!mr || !cqs || !qps) {
		fprintf(stderr, "hold_objs: cannot open %s and register a region\n",
			dev ? dev : "(no -d)");
		return 1;
	}
	for (i = 0; i < n; i++) {
		cqs[i] = ibv_create_cq(ctx, 4, NULL, NULL, 0);
		if (!cqs[i])
			break;
		qa.send_cq = cqs[i];
		qa.recv_cq = cqs[i];
		qps[i] = ibv_create_qp(pd, &qa);
		if (!qps[i])
			break;
		made++;
	}
	printf("READY %d\n", made);
	fflush(stdout);
	while (fread(buf, 1, sizeof(buf), stdin) > 0)
		;
	for (i = 0; i < n; i++) {
		if (qps[i] && ibv_destroy_qp(qps[i]))
			failed++;
		if (cqs[i] && ibv_destroy_cq(cqs[i]))
			failed++;
	}
	failed += !!ibv_dereg_mr(mr) + !!ibv_dealloc_pd(pd) +
		  !!ibv_close_device(ctx);
	printf("released, %d failures\n", failed);
	return made == n ? 0 : 1;
}
