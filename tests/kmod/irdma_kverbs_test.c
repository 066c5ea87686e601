// SPDX-License-Identifier: GPL-2.0
/*
 * irdma_kverbs_test: one RC connection between two kernel consumers of
 * rdma_cm and the kernel verbs, run at module load.  Used by
 * tests/vm/85-kverbs.sh to exercise a driver's kernel data path
 * (post_send, post_recv, poll_cq, fast-register MRs) against an
 * independent peer.
 *
 *   insmod irdma_kverbs_test.ko addr=198.51.100.2 port=7300 \
 *	server_pid=PID client_pid=PID
 *
 * The server listens on addr:port in the network namespace of process
 * server_pid (0: the initial namespace), the client connects from the
 * namespace of client_pid.  The load fails (EIO, ETIMEDOUT, ...) unless
 * every step below succeeded; nothing stays allocated after the load.
 * Then:
 *   1. the client registers a buffer with a fast-register WR (IB_WR_REG_MR)
 *      for remote read and write, fills its second half with a pattern,
 *      and SENDs a request carrying address, rkey and length, then payload
 *      (four scatter/gather elements, so the WQE spans three quanta);
 *   2. the server checks the payload, RDMA WRITEs a pattern into the first
 *      half of the client's buffer, RDMA READs the second half back and
 *      checks it, then SENDs "done" (fenced behind the read);
 *   3. the client checks the written half once "done" arrives; between
 *      two irdma devices the server then writes it again with immediate
 *      data (IB_WR_RDMA_WRITE_WITH_IMM), which completes a Recv of the
 *      client as IB_WC_RECV_RDMA_WITH_IMM with the value; then the
 *      irdma side's CQ is resized down and up with Send completions
 *      queued in it, and more arriving after: none is lost or reordered;
 *   4. the client disconnects; both sides see DISCONNECTED;
 *   5. each side moves its disconnected QP to ERROR and posts Recvs and
 *      Sends: they complete with IB_WC_WR_FLUSH_ERR in order, and
 *      ib_drain_qp() returns;
 *   6. each side moves a QP that never connected to ERROR: the Recvs posted
 *      before and the Sends posted after complete with flush errors in order;
 *   7. two ib_cq_pool_get() requests for 8 entries share one CQ (the pool
 *      packs by the CQ's reported size);
 *   8. a CQ of the device's max_cqe entries can be made, one of a single
 *      entry more is refused with EINVAL;
 *   9. on an irdma device, each completion vector has an affinity of one
 *      CPU (ib_get_vector_affinity()), vectors are spread over distinct
 *      CPUs as far as there are CPUs, and a CQ's completion event (a flush
 *      of a QP moved to ERROR) arrives on its vector's CPU.
 * With cq_overflow=1 the client's CQ (4 entries) gets 16 signaled Writes
 * and is never polled: one IB_EVENT_CQ_ERR, not one per lost completion.
 * With deny_write=1 the client's QP allows remote reads only: the server's
 * RDMA WRITE must end the connection (its READ and Send fail) and leave the
 * client's region as it was; steps 3 to 7 are skipped.
 * With doorbell=1 (irdma_sim told to lose the client's next doorbell) the
 * REG_MR of step 1 is posted alone and must not complete within 500 ms;
 * the SEND's doorbell then runs both.
 * Completions are polled (IB_POLL_DIRECT) with a deadline.  Every step
 * prints "irdma_kverbs_test: ok: ..." or "irdma_kverbs_test: FAIL: ...".
 */
#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/inet.h>
#include <linux/module.h>
#include <linux/nsproxy.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>
#include <net/net_namespace.h>
#include <rdma/ib_verbs.h>
#include <rdma/rdma_cm.h>

static char *addr = "198.51.100.2";
module_param(addr, charp, 0444);
MODULE_PARM_DESC(addr, "server IPv4 or IPv6 address");
static ushort port = 7300;
module_param(port, ushort, 0444);
MODULE_PARM_DESC(port, "server port");
static int server_pid;
module_param(server_pid, int, 0444);
MODULE_PARM_DESC(server_pid, "a process in the server's network namespace (0: initial)");
static int client_pid;
module_param(client_pid, int, 0444);
MODULE_PARM_DESC(client_pid, "a process in the client's network namespace (0: initial)");
static uint size = 65536;
module_param(size, uint, 0444);
MODULE_PARM_DESC(size, "bytes sent, written and read (multiple of 2 pages)");
static bool cq_overflow;
module_param(cq_overflow, bool, 0444);
MODULE_PARM_DESC(cq_overflow, "the client's CQ holds fewer completions than its Writes make: the overflow is reported once");
static bool deny_write;
module_param(deny_write, bool, 0444);
MODULE_PARM_DESC(deny_write, "the client's QP refuses remote writes: the server's RDMA WRITE must end the connection and change nothing");

static bool doorbell;
module_param(doorbell, bool, 0444);
MODULE_PARM_DESC(doorbell, "the client's REG_MR goes out alone and its doorbell is lost (the test drops it in irdma_sim): it must not run until the SEND behind it rings");

#define KV_TIMEOUT_MS	20000
/* how long a WQE whose doorbell was lost must stay untouched */
#define KV_NO_DOORBELL_MS	500
#define KV_REQ_MAGIC	0x6b767271	/* "kvrq" */
/* fragments of the client's request SEND */
#define KV_SEND_SGES	4

struct kv_req {
	__be64 addr;
	__be32 rkey;
	__be32 len;
	__be32 magic;
	__be32 pad;
};

/* one side of the connection */
struct kv_side {
	const char *name;
	struct rdma_cm_id *id;
	struct ib_pd *pd;
	struct ib_cq *cq;
	struct ib_qp *qp;	/* the connection's QP */
	bool cq_created;	/* by ib_create_cq() (cq_overflow) */
	atomic_t cq_errors;	/* IB_EVENT_CQ_ERR seen */
	struct ib_mr *mr;	/* fast-registered (client) */
	void *buf;		/* header + payload */
	size_t buf_len;
	u64 dma;
	void *rbuf;		/* receive buffer */
	u64 rdma;
	struct completion ev;	/* an awaited CM event came */
	enum rdma_cm_event_type want;
	enum rdma_cm_event_type got;
	int status;
	bool disconnected;
};

static struct kv_side kv_srv = { .name = "server" };
static struct kv_side kv_cli = { .name = "client" };
static struct rdma_cm_id *kv_listen_id;
static int kv_failed;
/* the client's region as the server learnt it from the request */
static u64 kv_raddr;
static u32 kv_rkey, kv_rlen;

#define kv_ok(fmt, ...) pr_info("irdma_kverbs_test: ok: " fmt "\n", ##__VA_ARGS__)
#define kv_fail(fmt, ...) do {						\
	kv_failed++;							\
	pr_err("irdma_kverbs_test: FAIL: " fmt "\n", ##__VA_ARGS__);	\
} while (0)

static size_t kv_rbuf_len(void)
{
	return sizeof(struct kv_req) + size;
}

/* the patterns: byte i of region r is (i * 7 + r) & 0xff */
static void kv_fill(u8 *p, size_t len, int r)
{
	size_t i;

	for (i = 0; i < len; i++)
		p[i] = (i * 7 + r) & 0xff;
}

static bool kv_check(const u8 *p, size_t len, int r)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (p[i] != ((i * 7 + r) & 0xff))
			return false;
	return true;
}

/* poll one completion of @s's CQ; 0 and *wc filled, or -ETIMEDOUT */
static int kv_poll(struct kv_side *s, struct ib_wc *wc)
{
	unsigned long end = jiffies + msecs_to_jiffies(KV_TIMEOUT_MS);

	do {
		int n = ib_poll_cq(s->cq, 1, wc);

		if (n < 0)
			return n;
		if (n == 1)
			return 0;
		usleep_range(200, 1000);
	} while (time_before(jiffies, end));
	return -ETIMEDOUT;
}

/* poll for the completion of @wr_id: success, the right opcode */
static int kv_expect(struct kv_side *s, u64 wr_id, enum ib_wc_opcode op,
		     u32 *byte_len)
{
	struct ib_wc wc;
	int ret = kv_poll(s, &wc);

	if (ret) {
		kv_fail("%s: no completion for wr %llu: %d", s->name, wr_id, ret);
		return ret;
	}
	if (wc.status != IB_WC_SUCCESS || wc.wr_id != wr_id || wc.opcode != op) {
		kv_fail("%s: completion wr %llu status %d (%s) opcode %d, want wr %llu opcode %d",
			s->name, wc.wr_id, wc.status,
			ib_wc_status_msg(wc.status), wc.opcode, wr_id, op);
		return -EIO;
	}
	if (byte_len)
		*byte_len = wc.byte_len;
	return 0;
}

static int kv_post_recv(struct kv_side *s, u64 wr_id)
{
	struct ib_sge sge = {
		.addr = s->rdma,
		.length = kv_rbuf_len(),
		.lkey = s->pd->local_dma_lkey,
	};
	struct ib_recv_wr wr = { .wr_id = wr_id, .sg_list = &sge, .num_sge = 1 };

	return ib_post_recv(s->qp, &wr, NULL);
}

/* an asynchronous event of a CQ made by ib_create_cq() */
static void kv_cq_event(struct ib_event *ev, void *ctx)
{
	struct kv_side *s = ctx;

	if (ev->event == IB_EVENT_CQ_ERR)
		atomic_inc(&s->cq_errors);
}

/*
 * cq_overflow: the client posts 16 signaled zero-length RDMA Writes and
 * does not poll; its CQ holds fewer.  The adapter must report the overflow
 * once (one IB_EVENT_CQ_ERR), not once per lost completion.
 */
static int kv_cq_overflow(void)
{
	struct kv_side *c = &kv_cli;
	struct ib_rdma_wr wr = {};
	int i, ret, n;

	wr.wr.opcode = IB_WR_RDMA_WRITE;
	wr.wr.send_flags = IB_SEND_SIGNALED;
	for (i = 0; i < 16; i++) {
		wr.wr.wr_id = 500 + i;
		ret = ib_post_send(c->qp, &wr.wr, NULL);
		if (ret) {
			kv_fail("client: post Write %d: %d", i, ret);
			return ret;
		}
	}
	msleep(3000);
	n = atomic_read(&c->cq_errors);
	if (n != 1) {
		kv_fail("client: %d CQ error events for one overflow", n);
		return -EIO;
	}
	kv_ok("client: the CQ overflow was reported once");
	return 0;
}

/* PD, CQ, QP and DMA-mapped buffers on @id's device */
static int kv_setup(struct kv_side *s, struct rdma_cm_id *id)
{
	struct ib_device *dev = id->device;
	struct ib_qp_init_attr qa = {};
	int ret;

	s->id = id;
	s->pd = ib_alloc_pd(dev, 0);
	if (IS_ERR(s->pd)) {
		ret = PTR_ERR(s->pd);
		s->pd = NULL;
		return ret;
	}
	if (cq_overflow && s == &kv_cli) {
		/* a CQ of 4 under an SQ of 16 (ib_create_cq: an event handler) */
		struct ib_cq_init_attr ca = { .cqe = 4 };

		s->cq = ib_create_cq(dev, NULL, kv_cq_event, s, &ca);
		s->cq_created = true;
	} else {
		s->cq = ib_alloc_cq(dev, s, 64, 0, IB_POLL_DIRECT);
	}
	if (IS_ERR(s->cq)) {
		ret = PTR_ERR(s->cq);
		s->cq = NULL;
		return ret;
	}
	qa.send_cq = s->cq;
	qa.recv_cq = s->cq;
	qa.qp_type = IB_QPT_RC;
	qa.sq_sig_type = IB_SIGNAL_REQ_WR;
	qa.cap.max_send_wr = 16;
	qa.cap.max_recv_wr = 16;
	qa.cap.max_send_sge = KV_SEND_SGES;
	qa.cap.max_recv_sge = 1;
	if (deny_write && s == &kv_cli) {
		/*
		 * Not rdma_create_qp(): rdma_cm would set the access flags of
		 * its QP to remote read and write when it connects.  This one
		 * is named by number in the connect request.
		 */
		struct ib_qp_attr attr = {
			.qp_access_flags = IB_ACCESS_REMOTE_READ,
		};

		s->qp = ib_create_qp(s->pd, &qa);
		if (IS_ERR(s->qp)) {
			ret = PTR_ERR(s->qp);
			s->qp = NULL;
			return ret;
		}
		ret = ib_modify_qp(s->qp, &attr, IB_QP_ACCESS_FLAGS);
		if (ret) {
			kv_fail("client: QP access flags without remote write: %d",
				ret);
			return ret;
		}
	} else {
		ret = rdma_create_qp(id, s->pd, &qa);
		if (ret)
			return ret;
		s->qp = id->qp;
	}

	s->buf_len = sizeof(struct kv_req) + size;
	s->buf = kzalloc(s->buf_len, GFP_KERNEL);
	s->rbuf = kzalloc(kv_rbuf_len(), GFP_KERNEL);
	if (!s->buf || !s->rbuf)
		return -ENOMEM;
	s->dma = ib_dma_map_single(dev, s->buf, s->buf_len, DMA_BIDIRECTIONAL);
	if (ib_dma_mapping_error(dev, s->dma)) {
		s->dma = 0;
		return -ENOMEM;
	}
	s->rdma = ib_dma_map_single(dev, s->rbuf, kv_rbuf_len(),
				    DMA_BIDIRECTIONAL);
	if (ib_dma_mapping_error(dev, s->rdma)) {
		s->rdma = 0;
		return -ENOMEM;
	}
	return kv_post_recv(s, 100);
}

static void kv_teardown(struct kv_side *s)
{
	struct ib_device *dev = s->id ? s->id->device : NULL;

	if (s->id && s->id->qp)
		rdma_destroy_qp(s->id);
	else if (s->qp)
		ib_destroy_qp(s->qp);
	s->qp = NULL;
	if (s->mr)
		ib_dereg_mr(s->mr);
	if (dev && s->dma)
		ib_dma_unmap_single(dev, s->dma, s->buf_len, DMA_BIDIRECTIONAL);
	if (dev && s->rdma)
		ib_dma_unmap_single(dev, s->rdma, kv_rbuf_len(),
				    DMA_BIDIRECTIONAL);
	if (s->cq && s->cq_created)
		ib_destroy_cq(s->cq);
	else if (s->cq)
		ib_free_cq(s->cq);
	if (s->pd)
		ib_dealloc_pd(s->pd);
	kfree(s->buf);
	kfree(s->rbuf);
	if (s->id)
		rdma_destroy_id(s->id);
	s->id = NULL;
}

static void kv_event_done(struct kv_side *s, struct rdma_cm_event *ev)
{
	if (ev->event == RDMA_CM_EVENT_DISCONNECTED)
		s->disconnected = true;
	if (ev->event == s->want || ev->status ||
	    ev->event == RDMA_CM_EVENT_REJECTED ||
	    ev->event == RDMA_CM_EVENT_UNREACHABLE ||
	    ev->event == RDMA_CM_EVENT_CONNECT_ERROR ||
	    ev->event == RDMA_CM_EVENT_ADDR_ERROR ||
	    ev->event == RDMA_CM_EVENT_ROUTE_ERROR) {
		s->got = ev->event;
		s->status = ev->status;
		complete(&s->ev);
	}
}

/* the server's handler: a request gets its QP and is accepted here */
static int kv_srv_handler(struct rdma_cm_id *id, struct rdma_cm_event *ev)
{
	struct rdma_conn_param cp = {
		.responder_resources = 4,
		.initiator_depth = 4,
	};
	int ret;

	if (ev->event != RDMA_CM_EVENT_CONNECT_REQUEST) {
		if (id != kv_listen_id)
			kv_event_done(&kv_srv, ev);
		return 0;
	}
	if (kv_srv.id) {
		kv_fail("server: a second connection request");
		return -EBUSY;		/* rdma_cm destroys the id */
	}
	ret = kv_setup(&kv_srv, id);
	if (!ret)
		ret = rdma_accept(id, &cp);
	if (ret) {
		kv_fail("server: set up and accept on %s: %d",
			dev_name(&id->device->dev), ret);
		complete(&kv_srv.ev);
		kv_srv.id = NULL;	/* rdma_cm destroys it for us */
		kv_srv.qp = NULL;
		if (id->qp)
			rdma_destroy_qp(id);
		return ret;
	}
	kv_ok("server: request on %s accepted", dev_name(&id->device->dev));
	return 0;
}

static int kv_cli_handler(struct rdma_cm_id *id, struct rdma_cm_event *ev)
{
	kv_event_done(&kv_cli, ev);
	return 0;
}

/* wait for @s's CM event @want */
static int kv_wait(struct kv_side *s, enum rdma_cm_event_type want)
{
	if (!wait_for_completion_timeout(&s->ev,
					 msecs_to_jiffies(KV_TIMEOUT_MS))) {
		kv_fail("%s: no %s within %d ms", s->name,
			rdma_event_msg(want), KV_TIMEOUT_MS);
		return -ETIMEDOUT;
	}
	if (s->got != want || s->status) {
		kv_fail("%s: %s (status %d), want %s", s->name,
			rdma_event_msg(s->got), s->status, rdma_event_msg(want));
		return -EIO;
	}
	return 0;
}

static void kv_arm(struct kv_side *s, enum rdma_cm_event_type want)
{
	reinit_completion(&s->ev);
	s->want = want;
}

static struct net *kv_net(int pid)
{
	struct net *net;

	if (!pid)
		return get_net(&init_net);
	net = get_net_ns_by_pid(pid);
	return IS_ERR(net) ? NULL : net;
}

static int kv_parse_addr(struct sockaddr_storage *ss)
{
	struct sockaddr_in *s4 = (struct sockaddr_in *)ss;
	struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)ss;

	memset(ss, 0, sizeof(*ss));
	if (in4_pton(addr, -1, (u8 *)&s4->sin_addr, -1, NULL)) {
		s4->sin_family = AF_INET;
		s4->sin_port = htons(port);
		return 0;
	}
	if (in6_pton(addr, -1, (u8 *)&s6->sin6_addr, -1, NULL)) {
		s6->sin6_family = AF_INET6;
		s6->sin6_port = htons(port);
		return 0;
	}
	return -EINVAL;
}

/* the client: connect, fast-register, send the request and payload */
static int kv_client_connect(struct net *net, struct sockaddr_storage *dst)
{
	struct rdma_conn_param cp = {
		.responder_resources = 4,
		.initiator_depth = 4,
		.retry_count = 7,
	};
	struct rdma_cm_id *id;
	int ret;

	id = rdma_create_id(net, kv_cli_handler, NULL, RDMA_PS_TCP, IB_QPT_RC);
	if (IS_ERR(id))
		return PTR_ERR(id);
	kv_cli.id = id;
	kv_arm(&kv_cli, RDMA_CM_EVENT_ADDR_RESOLVED);
	ret = rdma_resolve_addr(id, NULL, (struct sockaddr *)dst, 5000);
	if (ret || kv_wait(&kv_cli, RDMA_CM_EVENT_ADDR_RESOLVED))
		return ret ?: -EIO;
	kv_arm(&kv_cli, RDMA_CM_EVENT_ROUTE_RESOLVED);
	ret = rdma_resolve_route(id, 5000);
	if (ret || kv_wait(&kv_cli, RDMA_CM_EVENT_ROUTE_RESOLVED))
		return ret ?: -EIO;
	kv_cli.id = NULL;	/* kv_setup() sets it again */
	ret = kv_setup(&kv_cli, id);
	if (ret) {
		kv_fail("client: set up on %s: %d", dev_name(&id->device->dev), ret);
		return ret;
	}
	if (deny_write)
		cp.qp_num = kv_cli.qp->qp_num;
	kv_arm(&kv_cli, RDMA_CM_EVENT_ESTABLISHED);
	kv_arm(&kv_srv, RDMA_CM_EVENT_ESTABLISHED);
	ret = rdma_connect(id, &cp);
	if (ret) {
		kv_fail("client: rdma_connect: %d", ret);
		return ret;
	}
	/*
	 * Only the client's: without an RTR (a peer asking for the
	 * client-server model, as siw does) the server's ESTABLISHED may wait
	 * for the client's first FPDU (kv_server_work() waits for it).
	 */
	if (kv_wait(&kv_cli, RDMA_CM_EVENT_ESTABLISHED))
		return -EIO;
	kv_ok("client connected on %s", dev_name(&kv_cli.id->device->dev));
	return 0;
}

/*
 * doorbell: post @wr, whose doorbell the model loses, and check that
 * nothing completes for KV_NO_DOORBELL_MS: the adapter starts a kernel
 * QP's WQEs at its WQEALLOC write, not when it finds them valid.
 */
static int kv_unrung(struct kv_side *c, struct ib_send_wr *wr)
{
	unsigned long end = jiffies + msecs_to_jiffies(KV_NO_DOORBELL_MS);
	struct ib_wc wc;
	int ret, n;

	ret = ib_post_send(c->qp, wr, NULL);
	if (ret) {
		kv_fail("client: post REG_MR: %d", ret);
		return ret;
	}
	do {
		n = ib_poll_cq(c->cq, 1, &wc);
		if (n) {
			kv_fail("client: wr %llu completed (status %d) without a doorbell",
				n > 0 ? wc.wr_id : 0, n > 0 ? wc.status : n);
			return -EIO;
		}
		usleep_range(1000, 2000);
	} while (time_before(jiffies, end));
	kv_ok("client: a REG_MR whose doorbell was lost stayed untouched for %u ms",
	      KV_NO_DOORBELL_MS);
	return 0;
}

static int kv_client_register_and_send(void)
{
	struct kv_side *c = &kv_cli;
	struct kv_req *req = c->buf;
	struct scatterlist sg;
	struct ib_reg_wr reg = {};
	struct ib_sge sge[KV_SEND_SGES];
	struct ib_send_wr send = {};
	u32 off, part;
	int i, n, ret;

	/* the remote-access region: the payload part of the buffer */
	c->mr = ib_alloc_mr(c->pd, IB_MR_TYPE_MEM_REG,
			    DIV_ROUND_UP(size, PAGE_SIZE) + 1);
	if (IS_ERR(c->mr)) {
		ret = PTR_ERR(c->mr);
		c->mr = NULL;
		kv_fail("client: ib_alloc_mr: %d", ret);
		return ret;
	}
	sg_init_table(&sg, 1);
	sg_dma_address(&sg) = c->dma + sizeof(*req);
	sg_dma_len(&sg) = size;
	n = ib_map_mr_sg(c->mr, &sg, 1, NULL, PAGE_SIZE);
	if (n != 1) {
		kv_fail("client: ib_map_mr_sg: %d", n);
		return -EIO;
	}
	ib_update_fast_reg_key(c->mr, 0x5a);
	reg.wr.opcode = IB_WR_REG_MR;
	reg.wr.wr_id = 1;
	reg.wr.send_flags = IB_SEND_SIGNALED;
	reg.mr = c->mr;
	reg.key = c->mr->rkey;
	reg.access = IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_READ |
		     IB_ACCESS_REMOTE_WRITE;

	/* first half: the payload the server checks, then overwrites */
	kv_fill(c->buf + sizeof(*req), size / 2, 1);
	/* second half: what the server reads back */
	kv_fill(c->buf + sizeof(*req) + size / 2, size / 2, 3);
	req->addr = cpu_to_be64(c->mr->iova);
	req->rkey = cpu_to_be32(c->mr->rkey);
	req->len = cpu_to_be32(size);
	req->magic = cpu_to_be32(KV_REQ_MAGIC);
	ib_dma_sync_single_for_device(c->id->device, c->dma, c->buf_len,
				      DMA_BIDIRECTIONAL);

	/*
	 * The request, then the payload's first half in three pieces: four
	 * fragments spread over three WQE quanta, with the null fragment an
	 * even count gets.
	 */
	sge[0].addr = c->dma;
	sge[0].length = sizeof(*req);
	off = sizeof(*req);
	for (i = 1; i < KV_SEND_SGES; i++) {
		part = i < KV_SEND_SGES - 1 ? size / 2 / (KV_SEND_SGES - 1) :
					      sizeof(*req) + size / 2 - off;
		sge[i].addr = c->dma + off;
		sge[i].length = part;
		off += part;
	}
	for (i = 0; i < KV_SEND_SGES; i++)
		sge[i].lkey = c->pd->local_dma_lkey;
	send.opcode = IB_WR_SEND;
	send.wr_id = 2;
	send.send_flags = IB_SEND_SIGNALED;
	send.sg_list = sge;
	send.num_sge = KV_SEND_SGES;
	if (doorbell) {
		ret = kv_unrung(c, &reg.wr);
		if (ret)
			return ret;
		ret = ib_post_send(c->qp, &send, NULL);
	} else {
		reg.wr.next = &send;
		ret = ib_post_send(c->qp, &reg.wr, NULL);
	}
	if (ret) {
		kv_fail("client: post REG_MR + SEND: %d", ret);
		return ret;
	}
	if (kv_expect(c, 1, IB_WC_REG_MR, NULL) ||
	    kv_expect(c, 2, IB_WC_SEND, NULL))
		return -EIO;
	kv_ok("client: fast-registered %u bytes (rkey 0x%x), sent %zu bytes",
	      size, c->mr->rkey, sizeof(*req) + size / 2);
	return 0;
}

/*
 * deny_write: the client's QP refuses the server's RDMA WRITE (a Write
 * completes at its sender whatever the peer does with it), so the
 * connection ends: the READ and the "done" behind it fail, and the
 * client's region keeps what it had.
 */
static int kv_server_denied(void)
{
	struct kv_side *c = &kv_cli, *s = &kv_srv;
	struct ib_wc wc;
	int i;

	for (i = 0; i < 3; i++) {
		if (kv_poll(s, &wc)) {
			kv_fail("server: no completion %d after the refused WRITE", i);
			return -EIO;
		}
		if (wc.wr_id != 10 && wc.status == IB_WC_SUCCESS) {
			kv_fail("server: wr %llu succeeded after the refused WRITE",
				wc.wr_id);
			return -EIO;
		}
		kv_ok("server: wr %llu: %s", wc.wr_id, ib_wc_status_msg(wc.status));
	}
	ib_dma_sync_single_for_cpu(c->id->device, c->dma, c->buf_len,
				   DMA_BIDIRECTIONAL);
	if (!kv_check(c->buf + sizeof(struct kv_req), size / 2, 1)) {
		kv_fail("client: a QP without remote write was written");
		return -EIO;
	}
	kv_ok("client: its QP refused the RDMA WRITE, its region is unchanged");
	return 0;
}

static int kv_server_work(void)
{
	struct kv_side *s = &kv_srv;
	struct kv_req *req = s->rbuf;
	struct ib_rdma_wr wr = {}, rd = {};
	struct ib_send_wr done = {};
	struct ib_sge wsge, rsge, dsge;
	u64 raddr;
	u32 rkey, len, got;
	int ret;

	if (kv_wait(s, RDMA_CM_EVENT_ESTABLISHED))
		return -EIO;
	kv_ok("server connected on %s", dev_name(&s->id->device->dev));
	if (kv_expect(s, 100, IB_WC_RECV, &got))
		return -EIO;
	ib_dma_sync_single_for_cpu(s->id->device, s->rdma, kv_rbuf_len(),
				   DMA_BIDIRECTIONAL);
	if (got != sizeof(*req) + size / 2 ||
	    be32_to_cpu(req->magic) != KV_REQ_MAGIC ||
	    !kv_check(s->rbuf + sizeof(*req), size / 2, 1)) {
		kv_fail("server: received %u bytes, magic 0x%x, payload %s",
			got, be32_to_cpu(req->magic),
			kv_check(s->rbuf + sizeof(*req), size / 2, 1) ? "good" : "BAD");
		return -EIO;
	}
	raddr = be64_to_cpu(req->addr);
	rkey = be32_to_cpu(req->rkey);
	len = be32_to_cpu(req->len);
	kv_raddr = raddr;
	kv_rkey = rkey;
	kv_rlen = len;
	kv_ok("server: received %u bytes, payload verified", got);
	ret = kv_post_recv(s, 101);
	if (ret) {
		kv_fail("server: post_recv: %d", ret);
		return ret;
	}

	/* RDMA WRITE pattern 2 into the first half */
	kv_fill(s->buf, len / 2, 2);
	memset(s->buf + len / 2, 0, len / 2);
	ib_dma_sync_single_for_device(s->id->device, s->dma, s->buf_len,
				      DMA_BIDIRECTIONAL);
	wsge.addr = s->dma;
	wsge.length = len / 2;
	wsge.lkey = s->pd->local_dma_lkey;
	wr.wr.opcode = IB_WR_RDMA_WRITE;
	wr.wr.wr_id = 10;
	wr.wr.send_flags = IB_SEND_SIGNALED;
	wr.wr.sg_list = &wsge;
	wr.wr.num_sge = 1;
	wr.remote_addr = raddr;
	wr.rkey = rkey;
	/* RDMA READ the second half into the second half of ours */
	rsge.addr = s->dma + len / 2;
	rsge.length = len / 2;
	rsge.lkey = s->pd->local_dma_lkey;
	rd.wr.opcode = IB_WR_RDMA_READ;
	rd.wr.wr_id = 11;
	rd.wr.send_flags = IB_SEND_SIGNALED;
	rd.wr.sg_list = &rsge;
	rd.wr.num_sge = 1;
	rd.remote_addr = raddr + len / 2;
	rd.rkey = rkey;
	wr.wr.next = &rd.wr;
	/* "done": fenced behind the read */
	dsge.addr = s->dma;
	dsge.length = 4;
	dsge.lkey = s->pd->local_dma_lkey;
	done.opcode = IB_WR_SEND;
	done.wr_id = 12;
	done.send_flags = IB_SEND_SIGNALED | IB_SEND_FENCE;
	done.sg_list = &dsge;
	done.num_sge = 1;
	rd.wr.next = &done;
	ret = ib_post_send(s->qp, &wr.wr, NULL);
	if (ret) {
		kv_fail("server: post WRITE + READ + SEND: %d", ret);
		return ret;
	}
	if (deny_write)
		return kv_server_denied();
	if (kv_expect(s, 10, IB_WC_RDMA_WRITE, NULL) ||
	    kv_expect(s, 11, IB_WC_RDMA_READ, NULL) ||
	    kv_expect(s, 12, IB_WC_SEND, NULL))
		return -EIO;
	ib_dma_sync_single_for_cpu(s->id->device, s->dma, s->buf_len,
				   DMA_BIDIRECTIONAL);
	if (!kv_check(s->buf + len / 2, len / 2, 3)) {
		kv_fail("server: the RDMA READ brought wrong data");
		return -EIO;
	}
	kv_ok("server: wrote %u bytes, read %u bytes back (verified), sent done",
	      len / 2, len / 2);
	return 0;
}

static int kv_client_check(void)
{
	struct kv_side *c = &kv_cli;
	u32 got;

	if (kv_expect(c, 100, IB_WC_RECV, &got))
		return -EIO;
	ib_dma_sync_single_for_cpu(c->id->device, c->dma, c->buf_len,
				   DMA_BIDIRECTIONAL);
	if (got != 4 ||
	    !kv_check(c->buf + sizeof(struct kv_req), size / 2, 2)) {
		kv_fail("client: done of %u bytes; written half %s", got,
			kv_check(c->buf + sizeof(struct kv_req), size / 2, 2) ?
			"good" : "BAD");
		return -EIO;
	}
	kv_ok("client: the server's RDMA WRITE arrived (verified)");
	return 0;
}

/*
 * Between two irdma devices: the server's RDMA Write with immediate data
 * (two SGEs, pattern 4 into the client's first half) completes a Recv of
 * the client as IB_WC_RECV_RDMA_WITH_IMM with the value, data in place.
 */
static int kv_write_imm(void)
{
	struct kv_side *s = &kv_srv, *c = &kv_cli;
	u32 half = kv_rlen / 2, imm = 0x1234abcd;
	struct ib_rdma_wr wr = {};
	struct ib_sge sge[2];
	struct ib_wc wc;
	int ret;

	if (s->id->device->ops.driver_id != RDMA_DRIVER_IRDMA ||
	    c->id->device->ops.driver_id != RDMA_DRIVER_IRDMA)
		return 0;	/* siw has no immediate data on iWARP */
	ret = kv_post_recv(c, 102);
	if (ret) {
		kv_fail("client: post_recv: %d", ret);
		return ret;
	}
	kv_fill(s->buf, half, 4);
	ib_dma_sync_single_for_device(s->id->device, s->dma, s->buf_len,
				      DMA_BIDIRECTIONAL);
	sge[0].addr = s->dma;
	sge[0].length = half / 2;
	sge[0].lkey = s->pd->local_dma_lkey;
	sge[1].addr = s->dma + half / 2;
	sge[1].length = half - half / 2;
	sge[1].lkey = s->pd->local_dma_lkey;
	wr.wr.opcode = IB_WR_RDMA_WRITE_WITH_IMM;
	wr.wr.wr_id = 13;
	wr.wr.send_flags = IB_SEND_SIGNALED;
	wr.wr.sg_list = sge;
	wr.wr.num_sge = 2;
	wr.wr.ex.imm_data = cpu_to_be32(imm);
	wr.remote_addr = kv_raddr;
	wr.rkey = kv_rkey;
	ret = ib_post_send(s->qp, &wr.wr, NULL);
	if (ret) {
		kv_fail("server: post RDMA WRITE with immediate data: %d", ret);
		return ret;
	}
	if (kv_expect(s, 13, IB_WC_RDMA_WRITE, NULL))
		return -EIO;
	ret = kv_poll(c, &wc);
	if (ret) {
		kv_fail("client: no completion for the Write with immediate data: %d",
			ret);
		return ret;
	}
	ib_dma_sync_single_for_cpu(c->id->device, c->dma, c->buf_len,
				   DMA_BIDIRECTIONAL);
	if (wc.status != IB_WC_SUCCESS || wc.wr_id != 102 ||
	    wc.opcode != IB_WC_RECV_RDMA_WITH_IMM ||
	    !(wc.wc_flags & IB_WC_WITH_IMM) ||
	    be32_to_cpu(wc.ex.imm_data) != imm ||
	    !kv_check(c->buf + sizeof(struct kv_req), half, 4)) {
		kv_fail("client: wr %llu %s opcode %d flags %#x imm %#x, data %s",
			wc.wr_id, ib_wc_status_msg(wc.status), wc.opcode,
			wc.wc_flags, be32_to_cpu(wc.ex.imm_data),
			kv_check(c->buf + sizeof(struct kv_req), half, 4) ?
			"good" : "BAD");
		return -EIO;
	}
	kv_ok("client: RDMA WRITE with immediate data 0x%x: RECV_RDMA_WITH_IMM (verified)",
	      imm);
	return 0;
}

/* @s posts @n signaled 16-byte Sends, wr_id @first on; @r takes them */
static int kv_sends(struct kv_side *s, struct kv_side *r, u64 first, int n)
{
	struct ib_sge sge = {
		.addr = s->dma,
		.length = 16,
		.lkey = s->pd->local_dma_lkey,
	};
	struct ib_send_wr wr = {
		.sg_list = &sge,
		.num_sge = 1,
		.opcode = IB_WR_SEND,
		.send_flags = IB_SEND_SIGNALED,
	};
	int i, ret;

	for (i = 0; i < n; i++) {
		ret = kv_post_recv(r, 500 + first + i);
		if (ret) {
			kv_fail("%s: post Recv: %d", r->name, ret);
			return ret;
		}
	}
	for (i = 0; i < n; i++) {
		wr.wr_id = first + i;
		ret = ib_post_send(s->qp, &wr, NULL);
		if (ret) {
			kv_fail("%s: post Send: %d", s->name, ret);
			return ret;
		}
	}
	/*
	 * Delivered: their completions are in @s's ring, not polled.  @r may
	 * have had a Recv posted before (the server's 101): the first Send
	 * takes that one, and one of these stays posted.
	 */
	for (i = 0; i < n; i++) {
		struct ib_wc wc;

		ret = kv_poll(r, &wc);
		if (ret || wc.status != IB_WC_SUCCESS || wc.opcode != IB_WC_RECV) {
			kv_fail("%s: Send %d of %d not received: %d, status %d opcode %d",
				r->name, i + 1, n, ret, ret ? 0 : wc.status,
				ret ? 0 : wc.opcode);
			return -EIO;
		}
	}
	return 0;
}

/*
 * Step 3b: the CQ of the irdma side, 64 entries, is resized with Send
 * completions queued in it: down to 8 with 8 queued, then 8 more Sends,
 * and all 16 must come out in order; the same up to 256.
 */
static int kv_cq_resize(void)
{
	static const int sizes[] = { 8, 256 };
	struct kv_side *s = &kv_cli, *r = &kv_srv;
	u64 wr = 200;
	int i, j, ret;

	if (s->id->device->ops.driver_id != RDMA_DRIVER_IRDMA) {
		s = &kv_srv;
		r = &kv_cli;
	}
	if (s->id->device->ops.driver_id != RDMA_DRIVER_IRDMA) {
		kv_ok("no irdma side: no CQ resize");
		return 0;
	}
	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		if (kv_sends(s, r, wr, 8))
			return -EIO;
		ret = ib_resize_cq(s->cq, sizes[i]);
		if (ret || s->cq->cqe < sizes[i]) {
			kv_fail("%s: resize of its CQ to %d with 8 completions queued: %d (cqe %d)",
				s->name, sizes[i], ret, s->cq->cqe);
			return ret ? ret : -EIO;
		}
		if (kv_sends(s, r, wr + 8, 8))
			return -EIO;
		for (j = 0; j < 16; j++)
			if (kv_expect(s, wr + j, IB_WC_SEND, NULL))
				return -EIO;
		wr += 16;
	}
	kv_ok("%s: CQ resized to 8 and 256 with completions queued: none lost",
	      s->name);
	return 0;
}

static int kv_disconnect(void)
{
	kv_arm(&kv_cli, RDMA_CM_EVENT_DISCONNECTED);
	kv_arm(&kv_srv, RDMA_CM_EVENT_DISCONNECTED);
	if (rdma_disconnect(kv_cli.id)) {
		kv_fail("client: rdma_disconnect");
		return -EIO;
	}
	if ((!kv_cli.disconnected &&
	     kv_wait(&kv_cli, RDMA_CM_EVENT_DISCONNECTED)) ||
	    (!kv_srv.disconnected &&
	     kv_wait(&kv_srv, RDMA_CM_EVENT_DISCONNECTED)))
		return -EIO;
	kv_ok("disconnected on both sides");
	return 0;
}

/*
 * After the disconnect: work requests posted to the QP, moved to ERROR,
 * complete with IB_WC_WR_FLUSH_ERR, each queue in the order posted;
 * completions of older requests may come first.
 */
#define KV_FLUSH_N	4
#define KV_FLUSH_RECV	1000
#define KV_FLUSH_SEND	2000

static int kv_flush_check(struct kv_side *s)
{
	struct ib_sge sge = {
		.addr = s->dma,
		.length = 64,
		.lkey = s->pd->local_dma_lkey,
	};
	u64 next_recv = KV_FLUSH_RECV, next_send = KV_FLUSH_SEND;
	struct ib_qp_attr attr = { .qp_state = IB_QPS_ERR };
	struct ib_wc wc;
	int i, ret;

	/*
	 * The side that disconnected may still be closing (siw refuses work
	 * then): ERROR first, as a ULP's teardown does.
	 */
	ret = ib_modify_qp(s->qp, &attr, IB_QP_STATE);
	if (ret) {
		kv_fail("%s: disconnected QP to ERROR: %d", s->name, ret);
		return ret;
	}
	for (i = 0; i < KV_FLUSH_N; i++) {
		struct ib_send_wr swr = {
			.wr_id = KV_FLUSH_SEND + i,
			.sg_list = &sge,
			.num_sge = 1,
			.opcode = IB_WR_SEND,
			.send_flags = i == KV_FLUSH_N - 1 ? IB_SEND_SIGNALED : 0,
		};

		ret = kv_post_recv(s, KV_FLUSH_RECV + i);
		if (!ret)
			ret = ib_post_send(s->qp, &swr, NULL);
		if (ret == -ENOTCONN && i == 0 &&
		    s->id->device->ops.driver_id == RDMA_DRIVER_SIW) {
			/* the peer under comparison, not the driver under test */
			kv_ok("%s: siw refuses work on a QP it closed itself (not checked)",
			      s->name);
			return 0;
		}
		if (ret) {
			kv_fail("%s: post to the disconnected QP: %d", s->name, ret);
			return ret;
		}
	}
	while (next_recv < KV_FLUSH_RECV + KV_FLUSH_N ||
	       next_send < KV_FLUSH_SEND + KV_FLUSH_N) {
		u64 *next;

		ret = kv_poll(s, &wc);
		if (ret) {
			kv_fail("%s: flush: no completion for recv %llu / send %llu",
				s->name, next_recv, next_send);
			return ret;
		}
		if (wc.status != IB_WC_WR_FLUSH_ERR) {
			kv_fail("%s: flush: wr %llu completed with %s", s->name,
				wc.wr_id, ib_wc_status_msg(wc.status));
			return -EIO;
		}
		if (wc.wr_id < KV_FLUSH_RECV)
			continue;	/* an older request */
		next = wc.wr_id < KV_FLUSH_SEND ? &next_recv : &next_send;
		if (wc.wr_id != *next) {
			kv_fail("%s: flush: wr %llu completed, %llu expected",
				s->name, wc.wr_id, *next);
			return -EIO;
		}
		(*next)++;
	}
	kv_ok("%s: %d Recvs and %d Sends posted after the disconnect flushed in order",
	      s->name, KV_FLUSH_N, KV_FLUSH_N);
	/* moved to ERROR again, one more request of each kind, waited for */
	ib_drain_qp(s->qp);
	kv_ok("%s: ib_drain_qp() returned", s->name);
	return 0;
}

/* a QP that never connected: moved to ERROR, its work flushes */
static int kv_flush_unconnected(struct kv_side *s)
{
	struct ib_qp_init_attr qa = {
		.send_cq = s->cq,
		.recv_cq = s->cq,
		.qp_type = IB_QPT_RC,
		.sq_sig_type = IB_SIGNAL_ALL_WR,
		.cap = { .max_send_wr = 8, .max_recv_wr = 8,
			 .max_send_sge = 1, .max_recv_sge = 1 },
	};
	struct ib_sge sge = {
		.addr = s->dma,
		.length = 64,
		.lkey = s->pd->local_dma_lkey,
	};
	struct ib_qp_attr attr = { .qp_state = IB_QPS_ERR };
	struct ib_qp *qp;
	struct ib_wc wc;
	int i, ret, got = 0;

	qp = ib_create_qp(s->pd, &qa);
	if (IS_ERR(qp)) {
		kv_fail("%s: create an unconnected QP: %ld", s->name, PTR_ERR(qp));
		return PTR_ERR(qp);
	}
	for (i = 0; i < 2; i++) {
		struct ib_recv_wr rwr = { .wr_id = 3000 + i, .sg_list = &sge,
					  .num_sge = 1 };

		ret = ib_post_recv(qp, &rwr, NULL);
		if (ret)
			goto out;
	}
	ret = ib_modify_qp(qp, &attr, IB_QP_STATE);
	if (ret) {
		kv_fail("%s: unconnected QP to ERROR: %d", s->name, ret);
		goto out;
	}
	for (i = 0; i < 2; i++) {
		struct ib_send_wr swr = { .wr_id = 3002 + i, .sg_list = &sge,
					  .num_sge = 1, .opcode = IB_WR_SEND };

		ret = ib_post_send(qp, &swr, NULL);
		if (ret)
			goto out;
	}
	while (got < 4) {
		ret = kv_poll(s, &wc);
		if (!ret && wc.qp != qp)
			continue;	/* left by the connected QP */
		if (ret || wc.status != IB_WC_WR_FLUSH_ERR ||
		    wc.wr_id != 3000 + (u64)got || wc.qp != qp) {
			kv_fail("%s: unconnected QP: completion %d: ret %d wr %llu %s",
				s->name, got, ret, ret ? 0 : wc.wr_id,
				ret ? "-" : ib_wc_status_msg(wc.status));
			ret = ret ?: -EIO;
			goto out;
		}
		got++;
	}
	kv_ok("%s: an unconnected QP in ERROR flushed 2 Recvs and 2 Sends in order",
	      s->name);
out:
	ib_destroy_qp(qp);
	if (ret && !kv_failed)
		kv_fail("%s: unconnected QP: %d", s->name, ret);
	return ret;
}

/* the device's max_cqe is what a kernel consumer gets, and no more */
static int kv_cq_limits(struct kv_side *s)
{
	struct ib_device *dev = s->id->device;
	int max = dev->attrs.max_cqe;
	struct ib_cq *cq;

	cq = ib_alloc_cq(dev, s, max, 0, IB_POLL_DIRECT);
	if (IS_ERR(cq)) {
		kv_fail("%s: a CQ of max_cqe %d entries: %ld", s->name, max,
			PTR_ERR(cq));
		return PTR_ERR(cq);
	}
	ib_free_cq(cq);
	cq = ib_alloc_cq(dev, s, max + 1, 0, IB_POLL_DIRECT);
	if (!IS_ERR(cq)) {
		ib_free_cq(cq);
		kv_fail("%s: a CQ of max_cqe + 1 (%d) entries was made", s->name,
			max + 1);
		return -EIO;
	}
	if (PTR_ERR(cq) != -EINVAL) {
		kv_fail("%s: a CQ of max_cqe + 1 entries: %ld, want -EINVAL",
			s->name, PTR_ERR(cq));
		return PTR_ERR(cq);
	}
	kv_ok("%s: a CQ of max_cqe (%d) entries, not one more", s->name, max);
	return 0;
}

/* ib_cq_pool_get() packs small requests into one CQ (nvme, iser, srp) */
static int kv_cq_pool(struct kv_side *s)
{
	struct ib_device *dev = s->id->device;
	struct ib_cq *a, *b;
	int ret = 0;

	a = ib_cq_pool_get(dev, 8, 0, IB_POLL_WORKQUEUE);
	if (IS_ERR(a)) {
		kv_fail("%s: ib_cq_pool_get: %ld", s->name, PTR_ERR(a));
		return PTR_ERR(a);
	}
	b = ib_cq_pool_get(dev, 8, 0, IB_POLL_WORKQUEUE);
	if (IS_ERR(b)) {
		kv_fail("%s: second ib_cq_pool_get: %ld", s->name, PTR_ERR(b));
		ib_cq_pool_put(a, 8);
		return PTR_ERR(b);
	}
	if (a != b || a->cqe < 16) {
		kv_fail("%s: CQ pool: two requests of 8 got %s CQs (cqe %d)",
			s->name, a == b ? "one" : "two", a->cqe);
		ret = -EIO;
	} else {
		kv_ok("%s: two CQ pool requests share one CQ of %d entries",
		      s->name, a->cqe);
	}
	ib_cq_pool_put(b, 8);
	ib_cq_pool_put(a, 8);
	return ret;
}

/* where a completion event of kv_vector_cpu()'s CQ was handled */
struct kv_vec_probe {
	struct completion done;
	int cpu;
};

static void kv_vec_comp(struct ib_cq *cq, void *ctx)
{
	struct kv_vec_probe *p = ctx;

	WRITE_ONCE(p->cpu, raw_smp_processor_id());
	complete(&p->done);
}

/* a CQ on vector v gets its completion event on a CPU of mask */
static int kv_vector_cpu(struct kv_side *s, int v, const struct cpumask *mask)
{
	struct ib_device *dev = s->id->device;
	struct ib_cq_init_attr ca = { .cqe = 8, .comp_vector = v };
	struct ib_qp_init_attr qa = {
		.qp_type = IB_QPT_RC,
		.sq_sig_type = IB_SIGNAL_ALL_WR,
		.cap = { .max_send_wr = 2, .max_recv_wr = 2,
			 .max_send_sge = 1, .max_recv_sge = 1 },
	};
	struct ib_sge sge = {
		.addr = s->dma,
		.length = 64,
		.lkey = s->pd->local_dma_lkey,
	};
	struct ib_recv_wr rwr = { .wr_id = 4000, .sg_list = &sge, .num_sge = 1 };
	struct ib_qp_attr attr = { .qp_state = IB_QPS_ERR };
	struct kv_vec_probe probe = { .cpu = -1 };
	struct ib_qp *qp;
	struct ib_cq *cq;
	struct ib_wc wc;
	int ret;

	init_completion(&probe.done);
	cq = ib_create_cq(dev, kv_vec_comp, NULL, &probe, &ca);
	if (IS_ERR(cq)) {
		kv_fail("%s: a CQ on vector %d: %ld", s->name, v, PTR_ERR(cq));
		return PTR_ERR(cq);
	}
	qa.send_cq = cq;
	qa.recv_cq = cq;
	qp = ib_create_qp(s->pd, &qa);
	if (IS_ERR(qp)) {
		ret = PTR_ERR(qp);
		kv_fail("%s: a QP on vector %d's CQ: %d", s->name, v, ret);
		goto out_cq;
	}
	ret = ib_req_notify_cq(cq, IB_CQ_NEXT_COMP);
	if (!ret)
		ret = ib_post_recv(qp, &rwr, NULL);
	if (!ret)
		ret = ib_modify_qp(qp, &attr, IB_QP_STATE);
	if (ret) {
		kv_fail("%s: arm, post a Recv, flush on vector %d: %d", s->name,
			v, ret);
	} else if (!wait_for_completion_timeout(&probe.done, 10 * HZ)) {
		kv_fail("%s: no completion event on vector %d in 10 s", s->name,
			v);
		ret = -ETIMEDOUT;
	} else if (!cpumask_test_cpu(READ_ONCE(probe.cpu), mask)) {
		kv_fail("%s: vector %d's event on CPU %d, its affinity is %*pbl",
			s->name, v, READ_ONCE(probe.cpu), cpumask_pr_args(mask));
		ret = -EIO;
	} else if (ib_poll_cq(cq, 1, &wc) != 1 || wc.wr_id != 4000 ||
		   wc.status != IB_WC_WR_FLUSH_ERR) {
		kv_fail("%s: vector %d's CQ does not hold the flushed Recv",
			s->name, v);
		ret = -EIO;
	}
	ib_destroy_qp(qp);
out_cq:
	ib_destroy_cq(cq);
	return ret;
}

/* irdma's completion vectors: one CPU each, spread, events there */
static int kv_vectors(struct kv_side *s)
{
	struct ib_device *dev = s->id->device;
	cpumask_var_t seen;
	int v, ret = 0;

	if (dev->ops.driver_id != RDMA_DRIVER_IRDMA) {
		pr_info("irdma_kverbs_test: %s: %s is not irdma: vector affinity not checked\n",
			s->name, dev_name(&dev->dev));
		return 0;
	}
	if (!zalloc_cpumask_var(&seen, GFP_KERNEL))
		return -ENOMEM;
	for (v = 0; v < dev->num_comp_vectors && !ret; v++) {
		const struct cpumask *mask = ib_get_vector_affinity(dev, v);

		if (!mask) {
			kv_fail("%s: vector %d has no affinity", s->name, v);
			ret = -EIO;
		} else if (cpumask_weight(mask) != 1) {
			kv_fail("%s: vector %d's affinity is %*pbl, want one CPU",
				s->name, v, cpumask_pr_args(mask));
			ret = -EIO;
		} else if (v < num_online_cpus() &&
			   cpumask_intersects(mask, seen)) {
			kv_fail("%s: vector %d shares CPU %*pbl with a lower vector",
				s->name, v, cpumask_pr_args(mask));
			ret = -EIO;
		} else {
			cpumask_or(seen, seen, mask);
			ret = kv_vector_cpu(s, v, mask);
		}
	}
	if (!ret)
		kv_ok("%s: %d completion vectors on CPUs %*pbl, each event on its vector's CPU",
		      s->name, dev->num_comp_vectors, cpumask_pr_args(seen));
	free_cpumask_var(seen);
	return ret;
}

static int __init kv_init(void)
{
	struct net *snet = kv_net(server_pid), *cnet = kv_net(client_pid);
	struct sockaddr_storage dst;
	int ret = -EINVAL;

	init_completion(&kv_srv.ev);
	init_completion(&kv_cli.ev);
	if (!snet || !cnet || kv_parse_addr(&dst) || !size ||
	    size % (2 * PAGE_SIZE)) {
		pr_err("irdma_kverbs_test: bad parameters\n");
		goto out_net;
	}
	kv_listen_id = rdma_create_id(snet, kv_srv_handler, NULL, RDMA_PS_TCP,
				      IB_QPT_RC);
	if (IS_ERR(kv_listen_id)) {
		ret = PTR_ERR(kv_listen_id);
		kv_listen_id = NULL;
		goto out_net;
	}
	ret = rdma_bind_addr(kv_listen_id, (struct sockaddr *)&dst);
	if (!ret)
		ret = rdma_listen(kv_listen_id, 1);
	if (ret) {
		kv_fail("server: bind/listen on %s port %u: %d", addr, port, ret);
		goto out;
	}
	ret = kv_client_connect(cnet, &dst);
	if (cq_overflow) {
		if (!ret)
			ret = kv_cq_overflow();
		goto out;
	}
	if (!ret)
		ret = kv_client_register_and_send();
	if (!ret)
		ret = kv_server_work();
	if (deny_write)
		goto out;
	if (!ret)
		ret = kv_client_check();
	if (!ret)
		ret = kv_write_imm();
	if (!ret)
		ret = kv_cq_resize();
	if (!ret)
		ret = kv_disconnect();
	if (!ret)
		ret = kv_flush_check(&kv_cli);
	if (!ret)
		ret = kv_flush_check(&kv_srv);
	if (!ret)
		ret = kv_flush_unconnected(&kv_cli);
	if (!ret)
		ret = kv_flush_unconnected(&kv_srv);
	if (!ret)
		ret = kv_cq_pool(&kv_cli);
	if (!ret)
		ret = kv_cq_pool(&kv_srv);
	if (!ret)
		ret = kv_cq_limits(&kv_cli);
	if (!ret)
		ret = kv_cq_limits(&kv_srv);
	if (!ret)
		ret = kv_vectors(&kv_cli);
	if (!ret)
		ret = kv_vectors(&kv_srv);
out:
	if (kv_listen_id)
		rdma_destroy_id(kv_listen_id);
	kv_teardown(&kv_cli);
	kv_teardown(&kv_srv);
out_net:
	if (snet)
		put_net(snet);
	if (cnet)
		put_net(cnet);
	if (!ret && kv_failed)
		ret = -EIO;
	pr_info("irdma_kverbs_test: %s\n", ret ? "FAILED" : "PASSED");
	return ret;
}

/* everything is gone when kv_init() returns: nothing to undo */
static void __exit kv_exit(void)
{
}

module_init(kv_init);
module_exit(kv_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("kernel verbs and rdma_cm test for the irdma VM suite");
