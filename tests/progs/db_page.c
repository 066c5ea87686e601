// SPDX-License-Identifier: GPL-2.0
/*
 * db_page - the user doorbell page of an irdma_sim device, as a process
 * sees it: a write-only window whose every 32-bit store reaches the
 * device, and nothing else.
 *
 *   db_page -d DEV [-n STORES]
 *
 * Opens DEV (libirdma maps its doorbell page; it is found in this
 * process's maps as the model's "[irdma_sim_db]" file), then:
 *   - reads both doorbell words: they read 0;
 *   - stores STORES times to WQEALLOC from this thread, and STORES times
 *     from a thread that was started before the device was opened (and so
 *     before the page was mapped), and STORES times to CQARM; the values
 *     name no QP or CQ, so nothing runs: the model only counts them;
 *   - has the kernel write into the page (read() from a pipe into it):
 *     EFAULT;
 *   - in child processes, a 64-bit store and an 8-bit store to the page:
 *     each dies of SIGBUS.
 * It prints "stores N" and "cqarm N" (what the model's counters must have
 * grown by) and one "ok:"/"FAIL:" line per check; exit 0 when all passed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <infiniband/verbs.h>

#include "check_util.h"
#include "db_util.h"

#define WQEALLOC	0x00
#define CQARM		0x40
/* a QP and CQ id the device does not have */
#define NO_ID		0x3ffff

static volatile uint32_t *page;
static int stores = 100;
static pthread_mutex_t go_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t go_cond = PTHREAD_COND_INITIALIZER;
static int go;

static volatile uint32_t *word(unsigned int off)
{
	return (volatile uint32_t *)((volatile char *)page + off);
}

/* the thread that exists before the page is mapped */
static void *older_thread(void *arg)
{
	int i;

	(void)arg;
	pthread_mutex_lock(&go_lock);
	while (!go)
		pthread_cond_wait(&go_cond, &go_lock);
	pthread_mutex_unlock(&go_lock);
	for (i = 0; i < stores; i++)
		*word(WQEALLOC) = NO_ID;
	return NULL;
}

/* run @store in a child; true when the child died of SIGBUS */
static int dies_of_sigbus(void (*store)(void))
{
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return 0;
	if (!pid) {
		store();
		_exit(0);
	}
	if (waitpid(pid, &status, 0) != pid)
		return 0;
	return WIFSIGNALED(status) && WTERMSIG(status) == SIGBUS;
}

static void store64(void)
{
	*(volatile uint64_t *)word(WQEALLOC) = NO_ID;
}

static void store8(void)
{
	*(volatile uint8_t *)word(WQEALLOC) = 1;
}

int main(int argc, char **argv)
{
	struct ibv_context *ctx;
	const char *dev = NULL;
	int i, opt, fds[2];
	uint32_t v = 0;
	pthread_t t;
	ssize_t n;

	while ((opt = getopt(argc, argv, "d:n:")) != -1) {
		if (opt == 'd')
			dev = optarg;
		else if (opt == 'n')
			stores = atoi(optarg);
		else
			return 2;
	}
	if (!dev || stores < 1) {
		fprintf(stderr, "usage: db_page -d DEV [-n STORES]\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (pthread_create(&t, NULL, older_thread, NULL))
		return 1;
	ctx = db_open(dev);
	page = ctx ? db_find() : NULL;
	if (!page) {
		fprintf(stderr, "db_page: %s cannot be opened, or its doorbell page is not mapped\n",
			dev);
		return 1;
	}
	CHECK(*word(WQEALLOC) == 0 && *word(CQARM) == 0,
	      "the doorbell words read 0");
	for (i = 0; i < stores; i++)
		*word(WQEALLOC) = NO_ID;
	pthread_mutex_lock(&go_lock);
	go = 1;
	pthread_cond_signal(&go_cond);
	pthread_mutex_unlock(&go_lock);
	pthread_join(t, NULL);
	for (i = 0; i < stores; i++)
		*word(CQARM) = NO_ID;
	CHECK(*word(WQEALLOC) == 0, "the doorbell word still reads 0");
	if (pipe(fds))
		return 1;
	n = write(fds[1], &v, sizeof(v));
	n = n == sizeof(v) ? read(fds[0], (void *)word(WQEALLOC), sizeof(v)) : 0;
	CHECK(n < 0 && errno == EFAULT,
	      "a read() into the page fails with EFAULT (%zd, %s)", n,
	      n < 0 ? strerror(errno) : "no error");
	CHECK(dies_of_sigbus(store64), "a 64-bit store dies of SIGBUS");
	CHECK(dies_of_sigbus(store8), "an 8-bit store dies of SIGBUS");
	printf("stores %d\ncqarm %d\n", 2 * stores, stores);
	ibv_close_device(ctx);
	return check_failures ? 1 : 0;
}
