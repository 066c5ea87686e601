// SPDX-License-Identifier: GPL-2.0
/*
 * qp_race - rdma_connect() naming a QP whose creation has not returned.
 *
 *   qp_race -a PEER [-p PORT]
 *
 * iw_cm finds a QP by the number rdma_connect() is given (a number user
 * space chooses), so a QP must not be found before its creation can no
 * longer fail.  This program stops a QP's creation in its last step, the
 * copy of the driver's response to user space: the response buffer of the
 * create command is a page registered with userfaultfd, so the kernel's
 * copy waits in the page fault.  Meanwhile a second rdma_cm id connects
 * to PEER naming that QP's number (learnt from a QP created and destroyed
 * just before: the driver hands out the lowest free number).  Then the
 * page is unmapped and the fault woken, so the copy and the creation fail.
 *
 * The connect must fail (EINVAL: no such QP).  Had it found the QP, iw_cm
 * would hold it while the failed creation frees it.
 *
 * The create command goes through ioctl(); this program defines ioctl()
 * itself, so libibverbs' calls reach it, and it swaps the driver's
 * response pointer (UVERBS_ATTR_UHW_OUT) of UVERBS_METHOD_QP_CREATE for
 * the registered page before making the system call.
 *
 * Needs CAP_SYS_PTRACE or vm.unprivileged_userfaultfd=1 (root in the
 * test VM).  Exit 0 when every check passed, 1 otherwise.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/userfaultfd.h>
#include <netdb.h>
#include <poll.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <rdma/ib_user_ioctl_cmds.h>
#include <rdma/rdma_cma.h>
#include <rdma/rdma_user_ioctl.h>

#define PROG "qp_race"
#include "cm_util.h"
#include "check_util.h"

/* the page the next QP_CREATE's driver response goes to, 0 for none */
static uintptr_t swap_page;
/* QP_CREATE commands whose response pointer was swapped */
static int swapped;

/**
 * ioctl() - libibverbs' system call, seen first by this program
 * @fd: file
 * @req: request
 *
 * Return: what the system call returns.
 */
int ioctl(int fd, unsigned long req, ...)
{
	struct ib_uverbs_ioctl_hdr *hdr;
	va_list ap;
	void *arg;
	int i;

	va_start(ap, req);
	arg = va_arg(ap, void *);
	va_end(ap);
	hdr = arg;
	if (req == RDMA_VERBS_IOCTL && swap_page &&
	    hdr->object_id == UVERBS_OBJECT_QP &&
	    hdr->method_id == UVERBS_METHOD_QP_CREATE) {
		for (i = 0; i < hdr->num_attrs; i++) {
			if (hdr->attrs[i].attr_id != UVERBS_ATTR_UHW_OUT)
				continue;
			hdr->attrs[i].data = swap_page;
			swapped++;
		}
	}
	return syscall(SYS_ioctl, fd, req, arg);
}

static const char *peer, *port = "7174";

/* what the fault thread saw and did */
struct racer {
	int uffd;
	void *page;
	struct rdma_event_channel *ch;
	struct rdma_cm_id *id;
	uint32_t qpn;
	int faulted;
	int connect_ret;
	int connect_errno;
};

/* resolve @id's address and route to the peer */
static int resolve_peer(struct rdma_event_channel *ch, struct rdma_cm_id *id)
{
	struct addrinfo *ai;
	int ret;

	if (resolve(peer, port, &ai))
		return -1;
	ret = rdma_resolve_addr(id, NULL, ai->ai_addr, resolve_ms());
	freeaddrinfo(ai);
	if (ret || expect_event(ch, RDMA_CM_EVENT_ADDR_RESOLVED, NULL))
		return -1;
	if (rdma_resolve_route(id, resolve_ms()) ||
	    expect_event(ch, RDMA_CM_EVENT_ROUTE_RESOLVED, NULL))
		return -1;
	return 0;
}

/*
 * The fault thread: waits for the create command's copy to fault, then
 * connects naming the QP, then lets the copy fail.
 */
static void *race(void *arg)
{
	struct racer *r = arg;
	struct pollfd pfd = { .fd = r->uffd, .events = POLLIN };
	struct uffd_msg msg;
	struct rdma_conn_param cp = {
		.responder_resources = 1,
		.initiator_depth = 1,
		.retry_count = 1,
	};

	if (poll(&pfd, 1, 20000) != 1 ||
	    read(r->uffd, &msg, sizeof(msg)) != sizeof(msg) ||
	    msg.event != UFFD_EVENT_PAGEFAULT) {
		fprintf(stderr, PROG ": the response copy did not fault\n");
	} else {
		r->faulted = 1;
		cp.qp_num = r->qpn;
		r->connect_ret = rdma_connect(r->id, &cp);
		r->connect_errno = r->connect_ret ? errno : 0;
	}
	/* the waiting copy retries, finds no mapping and fails */
	munmap(r->page, getpagesize());
	close(r->uffd);
	return NULL;
}

/* a userfaultfd that reports missing-page faults on @page */
static int uffd_on(void *page)
{
	struct uffdio_api api = { .api = UFFD_API };
	struct uffdio_register reg = {
		.range = { .start = (uintptr_t)page, .len = getpagesize() },
		.mode = UFFDIO_REGISTER_MODE_MISSING,
	};
	int fd = syscall(SYS_userfaultfd, O_CLOEXEC);

	if (fd < 0) {
		perror(PROG ": userfaultfd");
		return -1;
	}
	if (ioctl(fd, UFFDIO_API, &api) || ioctl(fd, UFFDIO_REGISTER, &reg)) {
		perror(PROG ": userfaultfd setup");
		close(fd);
		return -1;
	}
	return fd;
}

int main(int argc, char **argv)
{
	struct ibv_qp_init_attr qa = {
		.cap = { .max_send_wr = 4, .max_recv_wr = 4,
			 .max_send_sge = 1, .max_recv_sge = 1 },
		.qp_type = IBV_QPT_RC,
	};
	struct rdma_event_channel *ch;
	struct rdma_cm_id *id;
	struct racer r = {};
	struct ibv_pd *pd;
	struct ibv_cq *cq;
	struct ibv_qp *qp;
	pthread_t t;
	int opt;

	while ((opt = getopt(argc, argv, "a:p:")) != -1) {
		if (opt == 'a')
			peer = optarg;
		else if (opt == 'p')
			port = optarg;
		else
			return 2;
	}
	if (!peer) {
		fprintf(stderr, "usage: %s -a PEER [-p PORT]\n", PROG);
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	ch = rdma_create_event_channel();
	if (!ch || rdma_create_id(ch, &id, NULL, RDMA_PS_TCP) ||
	    resolve_peer(ch, id)) {
		fprintf(stderr, PROG ": cannot reach %s\n", peer);
		return 1;
	}
	pd = ibv_alloc_pd(id->verbs);
	cq = pd ? ibv_create_cq(id->verbs, 8, NULL, NULL, 0) : NULL;
	if (!cq) {
		perror(PROG ": PD or CQ");
		return 1;
	}
	qa.send_cq = cq;
	qa.recv_cq = cq;
	/* the number the next QP gets: the lowest free one */
	qp = ibv_create_qp(pd, &qa);
	if (!qp) {
		perror(PROG ": ibv_create_qp");
		return 1;
	}
	r.qpn = qp->qp_num;
	ibv_destroy_qp(qp);

	r.ch = ch;
	if (rdma_create_id(ch, &r.id, NULL, RDMA_PS_TCP) ||
	    resolve_peer(ch, r.id)) {
		fprintf(stderr, PROG ": cannot reach %s again\n", peer);
		return 1;
	}
	r.page = mmap(NULL, getpagesize(), PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (r.page == MAP_FAILED)
		return 1;
	r.uffd = uffd_on(r.page);
	if (r.uffd < 0)
		return 1;
	if (pthread_create(&t, NULL, race, &r))
		return 1;
	swap_page = (uintptr_t)r.page;
	qp = ibv_create_qp(pd, &qa);
	swap_page = 0;
	pthread_join(t, NULL);

	CHECK(swapped == 1, "the QP creation went through ioctl (%d swapped)",
	      swapped);
	CHECK(r.faulted, "QP %u: the driver's response copy waited in a fault",
	      r.qpn);
	CHECK(!qp, "the creation failed once the response page was gone (%s)",
	      qp ? "it succeeded" : strerror(errno));
	if (r.faulted)
		CHECK(r.connect_ret && r.connect_errno == EINVAL,
		      "rdma_connect() naming QP %u while its creation was pending: %s",
		      r.qpn, r.connect_ret ? strerror(r.connect_errno) :
		      "accepted (iw_cm holds a QP that is about to be freed)");
	if (qp)
		ibv_destroy_qp(qp);
	rdma_destroy_id(r.id);
	ibv_destroy_cq(cq);
	ibv_dealloc_pd(pd);
	rdma_destroy_id(id);
	rdma_destroy_event_channel(ch);
	return check_failures ? 1 : 0;
}
