// SPDX-License-Identifier: GPL-2.0
/*
 * db_abuse - a user who writes anything into its doorbell page, to harm
 * other users' QPs.
 *
 *   db_abuse -d DEV -t SEC [ID...]
 *
 * Opens DEV, finds its doorbell page in this process's maps, and for SEC
 * seconds stores, in turn: 0 to WQEALLOC (which, on a page shared by all
 * processes, once erased their doorbells), each ID to WQEALLOC and to
 * CQARM (other users' QP and CQ ids: they may only ring or arm, never
 * delay), a random value to a random word of the page; and reads the
 * page back, which must read 0 (no process learns what another rang).
 * Prints the stores made; exit 0 when every read was 0.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <infiniband/verbs.h>

#include "db_util.h"

#define WORDS	(4096 / 4)

int main(int argc, char **argv)
{
	unsigned long stores = 0, nonzero = 0;
	struct ibv_context *ctx;
	volatile uint32_t *page;
	const char *dev = NULL;
	int opt, secs = 10, i;
	uint64_t x = 88172645463325252ULL;
	time_t end;

	while ((opt = getopt(argc, argv, "d:t:")) != -1) {
		if (opt == 'd')
			dev = optarg;
		else if (opt == 't')
			secs = atoi(optarg);
		else
			return 2;
	}
	if (!dev) {
		fprintf(stderr, "usage: db_abuse -d DEV -t SEC [ID...]\n");
		return 2;
	}
	ctx = db_open(dev);
	page = ctx ? db_find() : NULL;
	if (!page) {
		fprintf(stderr, "db_abuse: %s has no doorbell page mapped here\n",
			dev);
		return 1;
	}
	end = time(NULL) + secs;
	while (time(NULL) < end) {
		page[0] = 0;
		stores++;
		for (i = optind; i < argc; i++) {
			page[0] = strtoul(argv[i], NULL, 0);
			page[0x40 / 4] = strtoul(argv[i], NULL, 0);
			stores += 2;
		}
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		page[x % WORDS] = x >> 32;
		stores++;
		for (i = 0; i < WORDS; i += 16)
			nonzero += page[i] != 0;
	}
	printf("db_abuse: %lu stores, %lu reads not 0\n", stores, nonzero);
	ibv_close_device(ctx);
	return nonzero ? 1 : 0;
}
