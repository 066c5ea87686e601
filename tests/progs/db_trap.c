// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * db_trap - what one user doorbell costs this CPU, for the benchmark.
 *
 * libirdma rings a QP with a plain store into the doorbell page.  On the
 * adapter that store is a posted write; on the model (irdma_sim) the
 * page's entry is read-only, and each store faults into the model, which
 * decodes it and steps over it.  soft-iWARP's provider rings with a system
 * call instead.  This program times, as medians over many rounds:
 *
 *   - a system call (getppid), the price of siw's doorbell;
 *   - a store to a plain word;
 *   - a store to a word under a write watchpoint (a perf breakpoint event
 *     on this thread), the price of an earlier way the model saw stores;
 *   - with -d DEV, a store to DEV's doorbell page (found in this process's
 *     maps once the device is opened): the price of the model's doorbell.
 *     It stores 0 to WQEALLOC, which names no QP: the model decodes and
 *     counts it, and nothing runs after it;
 *   - a fixed piece of kernel work (four 32-byte round trips over a Unix
 *     socket pair) right after each kind of store: under emulation a trap
 *     can leave the CPU's translation caches cold, which the work after it
 *     pays for.
 *
 * Usage: db_trap [-n ROUNDS] [-d DEV]
 * Prints one line of numbers in microseconds; exits 1 when the watchpoint
 * cannot be set (no perf breakpoints, or not permitted) or DEV's doorbell
 * page cannot be found, 2 on bad usage.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/hw_breakpoint.h>
#include <linux/perf_event.h>
#include <infiniband/verbs.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "db_util.h"

/* two words in different cache lines: one watched, one plain */
static volatile unsigned int words[32] __attribute__((aligned(64)));
#define WATCHED 0
#define PLAIN 16

static int pair[2];

static double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median(double *v, int n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return v[n / 2];
}

/* the fixed kernel work: four round trips over the socket pair */
static void kernel_work(void)
{
	char buf[32] = { 0 };
	int i;

	for (i = 0; i < 4; i++) {
		if (write(pair[0], buf, sizeof(buf)) != sizeof(buf) ||
		    read(pair[1], buf, sizeof(buf)) != sizeof(buf)) {
			perror("db_trap: socket pair");
			exit(1);
		}
	}
}

/* time a store of @val to @word, then the kernel work right after it */
static void store_then_work(volatile unsigned int *word, int val,
			    double *store, double *after)
{
	double t0, t1;

	t0 = now_us();
	*word = val;
	t1 = now_us();
	kernel_work();
	*store = t1 - t0;
	*after = now_us() - t1;
}

/* a write watchpoint on @addr for this thread, or -1 with errno set */
static int watch(volatile void *addr)
{
	struct perf_event_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.type = PERF_TYPE_BREAKPOINT;
	attr.size = sizeof(attr);
	attr.bp_type = HW_BREAKPOINT_W;
	attr.bp_addr = (unsigned long)addr;
	attr.bp_len = HW_BREAKPOINT_LEN_4;
	attr.sample_period = 1;
	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	return syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);
}

/* the doorbell page of @name: opened, and found in this process's maps */
static volatile unsigned int *doorbell_page(const char *name)
{
	volatile uint32_t *page;

	if (!db_open(name)) {
		fprintf(stderr, "db_trap: cannot open %s\n", name);
		return NULL;
	}
	page = db_find();
	if (!page)
		fprintf(stderr, "db_trap: no doorbell page of %s mapped\n", name);
	return page;
}

int main(int argc, char **argv)
{
	double *sys, *plain, *watched, *after_plain, *after_watched, *db, *after_db;
	double work_plain, work_watched, work_db, t0;
	volatile unsigned int *page = NULL;
	const char *dev = NULL;
	int rounds = 2000, opt, i;

	while ((opt = getopt(argc, argv, "n:d:")) != -1) {
		if (opt == 'd') {
			dev = optarg;
			continue;
		}
		if (opt == 'n')
			rounds = atoi(optarg);
		if (opt != 'n' || rounds < 10) {
			fprintf(stderr, "usage: db_trap [-n ROUNDS >= 10] [-d DEV]\n");
			return 2;
		}
	}
	if (dev) {
		page = doorbell_page(dev);
		if (!page)
			return 1;
	}
	sys = calloc(rounds, sizeof(*sys));
	plain = calloc(rounds, sizeof(*plain));
	watched = calloc(rounds, sizeof(*watched));
	after_plain = calloc(rounds, sizeof(*after_plain));
	after_watched = calloc(rounds, sizeof(*after_watched));
	db = calloc(rounds, sizeof(*db));
	after_db = calloc(rounds, sizeof(*after_db));
	if (!sys || !plain || !watched || !after_plain || !after_watched ||
	    !db || !after_db) {
		fprintf(stderr, "db_trap: out of memory\n");
		return 1;
	}
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, pair)) {
		perror("db_trap: socketpair");
		return 1;
	}
	if (watch(&words[WATCHED]) < 0) {
		fprintf(stderr, "db_trap: cannot watch a word: perf_event_open: %s\n",
			strerror(errno));
		return 1;
	}
	for (i = 0; i < rounds; i++) {
		t0 = now_us();
		syscall(SYS_getppid);
		sys[i] = now_us() - t0;

		store_then_work(&words[PLAIN], i, &plain[i], &after_plain[i]);
		store_then_work(&words[WATCHED], i, &watched[i],
				&after_watched[i]);
		if (page)
			store_then_work(page, 0, &db[i], &after_db[i]);
	}
	work_plain = median(after_plain, rounds);
	work_watched = median(after_watched, rounds);
	printf("syscall %.2f, plain store %.2f, watched store %.2f",
	       median(sys, rounds), median(plain, rounds),
	       median(watched, rounds));
	if (page)
		printf(", doorbell page store %.2f", median(db, rounds));
	printf(" usec; kernel work after a plain store %.2f, after a watched store %.2f (%+.2f)",
	       work_plain, work_watched, work_watched - work_plain);
	if (page) {
		work_db = median(after_db, rounds);
		printf(", after a doorbell page store %.2f (%+.2f)", work_db,
		       work_db - work_plain);
	}
	printf(" usec; medians of %d rounds\n", rounds);
	return 0;
}
