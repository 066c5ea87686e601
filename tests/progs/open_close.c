// SPDX-License-Identifier: GPL-2.0
/*
 * open_close - open an RDMA device through libibverbs, allocate a PD,
 * query the device and port 1, then release everything.
 *
 *   open_close [-d DEV] [-H] [-n COUNT]
 *
 *   -d DEV    device name (default: the first one)
 *   -H        hold: after the queries print "READY" and wait for a line
 *             (or end of file) on stdin before releasing; the device may be
 *             removed meanwhile, so the releases after the hold may fail:
 *             they are reported, not fatal
 *   -n COUNT  open/close COUNT times (default 1; not with -H)
 *
 * With the stock libirdma provider, ibv_open_device() does GET_CONTEXT and
 * maps the doorbell page; ibv_alloc_pd() is ALLOC_PD.
 *
 * Output: one line per step ("open irdma0: ok", "query_port 1: state 4
 * (PORT_ACTIVE) ...").  Exit status: 0 when every step before the hold
 * succeeded (and without -H every step), 1 otherwise, 2 on bad usage.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <infiniband/verbs.h>

static struct ibv_device *find_device(struct ibv_device **list, const char *name)
{
	for (; *list; list++)
		if (!name || !strcmp(ibv_get_device_name(*list), name))
			return *list;
	return NULL;
}

/* returns 0 on success; prints each step */
static int open_query(struct ibv_device *dev, struct ibv_context **ctxp,
		      struct ibv_pd **pdp)
{
	struct ibv_device_attr attr;
	struct ibv_port_attr port;
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	int err;

	ctx = ibv_open_device(dev);
	if (!ctx) {
		printf("open %s: %s\n", ibv_get_device_name(dev), strerror(errno));
		return 1;
	}
	printf("open %s: ok\n", ibv_get_device_name(dev));
	*ctxp = ctx;

	pd = ibv_alloc_pd(ctx);
	if (!pd) {
		printf("alloc_pd: %s\n", strerror(errno));
		return 1;
	}
	printf("alloc_pd: ok handle %u\n", pd->handle);
	*pdp = pd;

	err = ibv_query_device(ctx, &attr);
	if (err) {
		printf("query_device: %s\n", strerror(err));
		return 1;
	}
	printf("query_device: ok vendor 0x%x part %u max_qp %d max_qp_wr %d max_sge %d max_cqe %d max_mr_size 0x%llx\n",
	       attr.vendor_id, attr.vendor_part_id, attr.max_qp,
	       attr.max_qp_wr, attr.max_sge, attr.max_cqe,
	       (unsigned long long)attr.max_mr_size);

	err = ibv_query_port(ctx, 1, &port);
	if (err) {
		printf("query_port 1: %s\n", strerror(err));
		return 1;
	}
	printf("query_port 1: ok state %d (%s) mtu %d\n", port.state,
	       ibv_port_state_str(port.state), port.active_mtu);
	return 0;
}

/* returns 0 on success; prints each step */
static int release(struct ibv_context *ctx, struct ibv_pd *pd)
{
	int rc = 0, err;

	if (pd) {
		err = ibv_dealloc_pd(pd);
		printf("dealloc_pd: %s\n", err ? strerror(err) : "ok");
		rc |= !!err;
	}
	if (ctx) {
		err = ibv_close_device(ctx);
		printf("close: %s\n", err ? strerror(errno) : "ok");
		rc |= !!err;
	}
	return rc;
}

int main(int argc, char **argv)
{
	struct ibv_device **list, *dev;
	const char *name = NULL;
	int hold = 0, count = 1, opt, i, rc = 0;
	char line[64];

	while ((opt = getopt(argc, argv, "d:Hn:")) != -1) {
		switch (opt) {
		case 'd':
			name = optarg;
			break;
		case 'H':
			hold = 1;
			break;
		case 'n':
			count = atoi(optarg);
			break;
		default:
			fprintf(stderr, "usage: %s [-d DEV] [-H] [-n COUNT]\n", argv[0]);
			return 2;
		}
	}
	if (count < 1 || (hold && count != 1)) {
		fprintf(stderr, "%s: -n takes a count >= 1, without -H\n", argv[0]);
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);

	list = ibv_get_device_list(NULL);
	if (!list) {
		printf("get_device_list: %s\n", strerror(errno));
		return 1;
	}
	dev = find_device(list, name);
	if (!dev) {
		printf("no device %s\n", name ? name : "at all");
		ibv_free_device_list(list);
		return 1;
	}

	for (i = 0; i < count && !rc; i++) {
		struct ibv_context *ctx = NULL;
		struct ibv_pd *pd = NULL;

		rc = open_query(dev, &ctx, &pd);
		if (hold && !rc) {
			printf("READY\n");
			if (!fgets(line, sizeof(line), stdin))
				line[0] = 0;
			printf("released\n");
			/* the device may be gone: report, do not fail */
			release(ctx, pd);
		} else if (release(ctx, pd)) {
			rc = 1;
		}
	}
	ibv_free_device_list(list);
	printf("CLOSED rc %d\n", rc);
	return rc;
}
