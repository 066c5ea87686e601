// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * irdma_sim_check - a stand-in driver that checks the model against the
 * adapter's documented behaviour and against a buggy driver.
 *
 * It binds to "irdma_sim.iwarp" like irdma does (irdma must not be
 * loaded).  Its probe drives the registers and the control QP directly:
 * the CQP handshake and its failures, malformed and random WQEs, the FPM
 * query/commit and SDs, the CCQ, CEQ and AEQ writers with interrupts
 * (arming, auto-masking and re-arm), CQ and AEQ overflow, QPs, GEN_AE, the
 * other tables, PBL-mapped rings, and a CQP destroy/re-create.  It prints
 * "irdma_sim_check: N passed, M failed" and registers no ib_device, so
 * "rdma link add" then fails with ENODEV, which also exercises the
 * deletion of an instance with state left behind.  With sloppy=1 its
 * remove frees its memory without destroying anything first.
 */

#include <linux/auxiliary_bus.h>
#include <linux/bitfield.h>
#include <linux/delay.h>
#include <linux/dma-mapping.h>
#include <linux/interrupt.h>
#include <linux/module.h>
#include <linux/random.h>
#include <linux/slab.h>

#include "../../../sim/irdma_sim.h"

static bool sloppy;
module_param(sloppy, bool, 0444);
MODULE_PARM_DESC(sloppy, "free memory on remove without destroying the CQP");

#define CHK_BAD_PA		BIT_ULL(52)	/* far above any RAM */
#define CHK_MAGIC		0x5a5a12345678ULL
#define CHK_SQ_SIZE		64
#define CHK_CCQ_SIZE		8
#define CHK_CEQ_SIZE		16
#define CHK_AEQ_SIZE		4
#define CHK_MAX_BUFS		64

/**
 * struct chk_buf - a coherent DMA buffer
 * @va: kernel address
 * @pa: bus address
 * @len: length
 */
struct chk_buf {
	void *va;
	dma_addr_t pa;
	size_t len;
};

struct chk;

/**
 * struct chk_vec - what an interrupt handler gets
 * @c: state
 * @count: interrupts seen
 */
struct chk_vec {
	struct chk *c;
	atomic_t count;
};

/**
 * struct chk - state of one checked instance
 * @sadev: the model's device
 * @dma: its DMA device
 * @bufs: every buffer allocated
 * @nbufs: entries in @bufs
 * @ctx: CQP host context
 * @sq: CQP SQ
 * @scratch: buffer for FPM, features, statistics
 * @head: next SQ slot
 * @pol: valid bit of the current lap
 * @ccq: CCQ ring
 * @ccq_sh: CCQ shadow area
 * @ccq_head: next CCQ slot to consume
 * @ccq_pol: CCQ valid bit of the current lap
 * @ceq: CEQ 0 ring
 * @aeq: AEQ ring
 * @pbles_pa: bus address of PBLE 0, once SD 0 is programmed
 * @pble_va: kernel address of PBLE 0
 * @pble_cnt: committed PBLEs
 * @irqs: interrupt counters per vector
 * @irq_on: vectors with a handler
 * @pass: checks passed
 * @fail: checks failed
 */
struct chk {
	struct irdma_sim_adev *sadev;
	struct device *dma;
	struct chk_buf bufs[CHK_MAX_BUFS];
	int nbufs;
	struct chk_buf *ctx, *sq, *scratch;
	u32 head;
	u8 pol;
	struct chk_buf *ccq, *ccq_sh;
	u32 ccq_head;
	u8 ccq_pol;
	struct chk_buf *ceq, *aeq;
	u64 pbles_pa;
	__le64 *pble_va;
	u32 pble_cnt;
	struct chk_vec irqs[IRDMA_SIM_MAX_VECTORS];
	bool irq_on[IRDMA_SIM_MAX_VECTORS];
	int pass, fail;
};

/**
 * chk_result() - count a check, report it when it failed
 * @c: state
 * @ok: outcome
 * @line: source line of the check
 * @fmt: printf format of the failure report
 */
static __printf(4, 5) void chk_result(struct chk *c, bool ok, int line,
				      const char *fmt, ...)
{
	struct va_format vaf;
	va_list args;

	if (ok) {
		c->pass++;
		return;
	}
	c->fail++;
	va_start(args, fmt);
	vaf.fmt = fmt;
	vaf.va = &args;
	pr_err("irdma_sim_check: FAIL line %d: %pV\n", line, &vaf);
	va_end(args);
}

#define CHECK(c, cond, fmt, ...) \
	chk_result(c, !!(cond), __LINE__, fmt, ##__VA_ARGS__)

/**
 * chk_rd() - read a register
 * @c: state
 * @reg: offset
 *
 * Return: value.
 */
static u32 chk_rd(struct chk *c, u32 reg)
{
	return c->sadev->ops->rd32(c->sadev, reg);
}

/**
 * chk_wr() - write a register
 * @c: state
 * @reg: offset
 * @val: value
 */
static void chk_wr(struct chk *c, u32 reg, u32 val)
{
	c->sadev->ops->wr32(c->sadev, reg, val);
}

/**
 * chk_alloc() - a zeroed coherent buffer, freed on remove
 * @c: state
 * @len: length
 *
 * Return: the buffer or NULL.
 */
static struct chk_buf *chk_alloc(struct chk *c, size_t len)
{
	struct chk_buf *b;

	if (c->nbufs == CHK_MAX_BUFS)
		return NULL;
	b = &c->bufs[c->nbufs];
	b->va = dma_alloc_coherent(c->dma, len, &b->pa, GFP_KERNEL);
	if (!b->va)
		return NULL;
	b->len = len;
	c->nbufs++;
	return b;
}

/**
 * chk_irq() - count an interrupt; the vector stays masked (not re-armed)
 * @irq: Linux IRQ
 * @data: the vector's struct chk_vec
 *
 * Reads a register, so lockdep sees the register window used in hard IRQ
 * context.
 *
 * Return: IRQ_HANDLED.
 */
static irqreturn_t chk_irq(int irq, void *data)
{
	struct chk_vec *v = data;

	v->c->sadev->ops->rd32(v->c->sadev, IRDMA_GEN2_CQPTAIL);
	atomic_inc(&v->count);
	return IRQ_HANDLED;
}

/**
 * chk_post() - post a CQP WQE and ring the doorbell
 * @c: state
 * @qw: the eight words; the valid bit is added to word 3
 *
 * Return: the slot used.
 */
static u32 chk_post(struct chk *c, const u64 *qw)
{
	struct irdma_cqp_wqe *wqe = (struct irdma_cqp_wqe *)c->sq->va + c->head;
	u32 slot = c->head;
	int i;

	for (i = 0; i < IRDMA_CQP_WQE_WORDS; i++)
		if (i != IRDMA_CQP_WQE_HDR)
			wqe->qw[i] = cpu_to_le64(qw[i]);
	dma_wmb();
	WRITE_ONCE(wqe->qw[IRDMA_CQP_WQE_HDR],
		   cpu_to_le64((qw[IRDMA_CQP_WQE_HDR] & ~IRDMA_CQP_HDR_VALID) |
			       (c->pol ? IRDMA_CQP_HDR_VALID : 0)));
	if (++c->head == CHK_SQ_SIZE) {
		c->head = 0;
		c->pol ^= 1;
	}
	chk_wr(c, IRDMA_GEN2_CQPDB, c->head);
	return slot;
}

/**
 * chk_cmd() - post a WQE and wait for CQPTAIL to pass it
 * @c: state
 * @qw: the eight words
 * @codes: CQPERRCODES when the command failed, else 0
 *
 * Return: 1 when it failed, 0 when it succeeded, -ETIMEDOUT.
 */
static int chk_cmd(struct chk *c, const u64 *qw, u32 *codes)
{
	u32 slot = chk_post(c, qw), tail = 0;
	int i;

	*codes = 0;
	for (i = 0; i < 20000; i++) {
		tail = chk_rd(c, IRDMA_GEN2_CQPTAIL);
		if (FIELD_GET(IRDMA_CQPTAIL_WQTAIL, tail) ==
		    (slot + 1) % CHK_SQ_SIZE)
			break;
		usleep_range(50, 100);
	}
	if (FIELD_GET(IRDMA_CQPTAIL_WQTAIL, tail) != (slot + 1) % CHK_SQ_SIZE)
		return -ETIMEDOUT;
	if (!(tail & IRDMA_CQPTAIL_ERR))
		return 0;
	*codes = chk_rd(c, IRDMA_GEN2_CQPERRCODES);
	return 1;
}

/**
 * chk_op() - a WQE with only a header
 * @qw: words to clear and fill
 * @op: opcode
 * @hdr: other header bits
 */
static void chk_op(u64 *qw, u8 op, u64 hdr)
{
	memset(qw, 0, IRDMA_CQP_WQE_WORDS * sizeof(*qw));
	qw[IRDMA_CQP_WQE_HDR] = FIELD_PREP(IRDMA_CQP_HDR_OPCODE, op) | hdr;
}

/**
 * chk_expect() - run a command and check whether it fails
 * @c: state
 * @qw: WQE words
 * @fail: whether it must fail
 * @what: description
 *
 * Return: the command's CQPERRCODES.
 */
static u32 chk_expect(struct chk *c, const u64 *qw, bool fail, const char *what)
{
	u32 codes;
	int r = chk_cmd(c, qw, &codes);

	CHECK(c, r >= 0, "%s: timed out", what);
	CHECK(c, r < 0 || r == fail, "%s: %s (codes %#x)", what,
	      r ? "failed" : "succeeded", codes);
	return codes;
}

/**
 * chk_ccq_next() - the next CCQ CQE if there is one, consuming it
 * @c: state
 * @cqe: its four words
 *
 * Return: true when a CQE was there.
 */
static bool chk_ccq_next(struct chk *c, u64 *cqe)
{
	__le64 *e = (__le64 *)c->ccq->va + c->ccq_head * IRDMA_CQE_WORDS;
	__le64 *sh = c->ccq_sh->va;
	int i;

	if (FIELD_GET(IRDMA_CCQ_CQE_QW3_VALID, le64_to_cpu(READ_ONCE(e[3]))) !=
	    c->ccq_pol)
		return false;
	dma_rmb();
	for (i = 0; i < IRDMA_CQE_WORDS; i++)
		cqe[i] = le64_to_cpu(e[i]);
	if (++c->ccq_head == CHK_CCQ_SIZE) {
		c->ccq_head = 0;
		c->ccq_pol ^= 1;
	}
	WRITE_ONCE(sh[IRDMA_CQ_SHADOW_QW0], cpu_to_le64(c->ccq_head));
	return true;
}

/**
 * chk_ccq_drain() - consume every CCQ CQE
 * @c: state
 *
 * Return: number consumed.
 */
static int chk_ccq_drain(struct chk *c)
{
	u64 cqe[IRDMA_CQE_WORDS];
	int n = 0;

	while (chk_ccq_next(c, cqe))
		n++;
	return n;
}

/**
 * chk_arm_ccq() - arm the CCQ for its next completion
 * @c: state
 */
static void chk_arm_ccq(struct chk *c)
{
	__le64 *sh = c->ccq_sh->va;
	u64 arm = le64_to_cpu(sh[IRDMA_CQ_SHADOW_ARM]);
	u32 seq = FIELD_GET(IRDMA_CQ_SHADOW_ARM_SEQ_NUM, arm) + 1;

	sh[IRDMA_CQ_SHADOW_ARM] =
		cpu_to_le64(FIELD_PREP(IRDMA_CQ_SHADOW_ARM_SEQ_NUM, seq) |
			    IRDMA_CQ_SHADOW_ARM_NEXT);
	dma_wmb();
	chk_wr(c, IRDMA_GEN2_CQARM, IRDMA_CCQ_ID);
}

/**
 * chk_wait_irq() - wait for an interrupt count
 * @c: state
 * @v: vector
 * @n: count expected
 *
 * Return: true when reached within 1 s.
 */
static bool chk_wait_irq(struct chk *c, u32 v, int n)
{
	int i;

	for (i = 0; i < 1000 && atomic_read(&c->irqs[v].count) < n; i++)
		usleep_range(500, 1000);
	return atomic_read(&c->irqs[v].count) == n;
}

/**
 * chk_create_ctx() - fill the CQP host context
 * @c: state
 * @enc: SQ size encoding
 * @major: hardware major version
 * @sq_pa: SQ address
 */
static void chk_create_ctx(struct chk *c, u32 enc, u32 major, u64 sq_pa)
{
	__le64 *ctx = c->ctx->va;

	memset(ctx, 0, 64);
	ctx[IRDMA_CQP_CTX_QW0] =
		cpu_to_le64(FIELD_PREP(IRDMA_CQP_CTX_QW0_SQSIZE, enc) |
			    FIELD_PREP(IRDMA_CQP_CTX_QW0_PROTOCOL_USED,
				       IRDMA_PROTOCOL_IWARP));
	ctx[IRDMA_CQP_CTX_QW1] = cpu_to_le64(sq_pa);
	ctx[IRDMA_CQP_CTX_QW2] = cpu_to_le64(IRDMA_HMC_PROFILE_DEFAULT);
	ctx[IRDMA_CQP_CTX_QW3] = cpu_to_le64(CHK_MAGIC);
	ctx[IRDMA_CQP_CTX_QW4] =
		cpu_to_le64(FIELD_PREP(IRDMA_CQP_CTX_QW4_HW_MAJOR, major));
}

/**
 * chk_handshake() - run the create handshake
 * @c: state
 * @pa: host context address
 *
 * Return: CCQPSTATUS after the create.
 */
static u32 chk_handshake(struct chk *c, u64 pa)
{
	chk_wr(c, IRDMA_GEN2_CQPTAIL, 0);
	chk_wr(c, IRDMA_GEN2_CQPDB, 0);
	chk_wr(c, IRDMA_GEN2_CCQPSTATUS, 0);
	dma_wmb();
	chk_wr(c, IRDMA_GEN2_CCQPHIGH, upper_32_bits(pa));
	chk_wr(c, IRDMA_GEN2_CCQPLOW, lower_32_bits(pa));
	return chk_rd(c, IRDMA_GEN2_CCQPSTATUS);
}

/**
 * chk_registers() - registers outside the CQP
 * @c: state
 */
static void chk_registers(struct chk *c)
{
	u32 v;

	CHECK(c, chk_rd(c, IRDMA_GEN2_CPUSTATUS0) == IRDMA_CPU_READY &&
	      chk_rd(c, IRDMA_GEN2_CPUSTATUS1) == IRDMA_CPU_READY &&
	      chk_rd(c, IRDMA_GEN2_CPUSTATUS2) == IRDMA_CPU_READY, "CPUSTATUS");
	v = chk_rd(c, IRDMA_GEN2_LBARCTRL);
	CHECK(c, FIELD_GET(IRDMA_LBARCTRL_PE_DB_SIZE, v) == IRDMA_PE_DB_SIZE_8M,
	      "LBARCTRL %#x", v);
	chk_wr(c, IRDMA_GEN2_CPUSTATUS0, 0);
	CHECK(c, chk_rd(c, IRDMA_GEN2_CPUSTATUS0) == IRDMA_CPU_READY,
	      "CPUSTATUS0 is read-only");
	CHECK(c, chk_rd(c, 0x00400000) == 0, "unknown register reads 0");
	chk_wr(c, 0x00400000, 0xffffffff);
	chk_wr(c, 0x00400001, 0xffffffff);
	chk_wr(c, IRDMA_GEN2_DYN_CTL0 + 4 * 2000, IRDMA_DYN_CTL_INTENA);
	CHECK(c, chk_rd(c, IRDMA_GEN2_DYN_CTL0 + 4 * 2000) == 0,
	      "DYN_CTL of a missing vector");
	/* CQ doorbells without a CQP: ignored */
	chk_wr(c, IRDMA_GEN2_CQARM, 5);
	chk_wr(c, IRDMA_GEN2_CQACK, 5);
	chk_wr(c, IRDMA_GEN2_AEQALLOC, 100);
	chk_wr(c, IRDMA_GEN2_WQEALLOC, 7);
	chk_wr(c, IRDMA_GEN2_PDINV, 0xffffffff);
}

/**
 * chk_cqp_create() - handshake failures, then a good create
 * @c: state
 *
 * Return: true when the CQP runs.
 */
static bool chk_cqp_create(struct chk *c)
{
	u32 st;

	st = chk_handshake(c, CHK_BAD_PA);
	CHECK(c, st & IRDMA_CCQPSTATUS_ERR, "context not in RAM: %#x", st);
	CHECK(c, FIELD_GET(IRDMA_CQPERRCODES_MAJOR,
			   chk_rd(c, IRDMA_GEN2_CQPERRCODES)), "error codes");
	chk_create_ctx(c, 0, IRDMA_CQP_HW_MAJOR_GEN2, c->sq->pa);
	st = chk_handshake(c, c->ctx->pa);
	CHECK(c, st & IRDMA_CCQPSTATUS_ERR, "SQ size encoding 0: %#x", st);
	chk_create_ctx(c, 11, IRDMA_CQP_HW_MAJOR_GEN2, c->sq->pa);
	st = chk_handshake(c, c->ctx->pa);
	CHECK(c, st & IRDMA_CCQPSTATUS_ERR, "SQ size encoding 11: %#x", st);
	chk_create_ctx(c, ilog2(CHK_SQ_SIZE) - 1, IRDMA_CQP_HW_MAJOR_GEN1,
		       c->sq->pa);
	st = chk_handshake(c, c->ctx->pa);
	CHECK(c, st & IRDMA_CCQPSTATUS_ERR, "GEN_1 context: %#x", st);
	chk_create_ctx(c, ilog2(CHK_SQ_SIZE) - 1, IRDMA_CQP_HW_MAJOR_GEN2,
		       c->sq->pa + 64);
	st = chk_handshake(c, c->ctx->pa);
	CHECK(c, st & IRDMA_CCQPSTATUS_ERR, "unaligned SQ: %#x", st);
	chk_create_ctx(c, ilog2(CHK_SQ_SIZE) - 1, IRDMA_CQP_HW_MAJOR_GEN2,
		       CHK_BAD_PA);
	st = chk_handshake(c, c->ctx->pa);
	CHECK(c, st & IRDMA_CCQPSTATUS_ERR, "SQ not in RAM: %#x", st);

	chk_create_ctx(c, ilog2(CHK_SQ_SIZE) - 1, IRDMA_CQP_HW_MAJOR_GEN2,
		       c->sq->pa);
	c->head = 0;
	c->pol = 1;
	st = chk_handshake(c, c->ctx->pa);
	CHECK(c, st == IRDMA_CCQPSTATUS_DONE, "good create: %#x", st);
	/* a second create is ignored */
	chk_wr(c, IRDMA_GEN2_CCQPLOW, lower_32_bits(c->ctx->pa));
	CHECK(c, chk_rd(c, IRDMA_GEN2_CCQPSTATUS) == IRDMA_CCQPSTATUS_DONE,
	      "second create");
	return st == IRDMA_CCQPSTATUS_DONE;
}

/**
 * chk_garbage() - malformed and random commands
 * @c: state
 *
 * Every address a random WQE carries is far above RAM, so nothing it
 * names may be touched; each WQE must still complete.
 */
static void chk_garbage(struct chk *c)
{
	u64 qw[IRDMA_CQP_WQE_WORDS];
	u32 codes, tail;
	int i, j, r, timeouts = 0;

	chk_op(qw, IRDMA_CQP_OP_NOP, 0);
	chk_expect(c, qw, false, "NOP");
	chk_op(qw, 0x3f, 0);
	codes = chk_expect(c, qw, true, "opcode 0x3f");
	CHECK(c, FIELD_GET(IRDMA_CQPERRCODES_MINOR, codes) ==
	      IRDMA_SIM_CQP_MINOR_BAD_OPCODE, "minor code %#x", codes);
	chk_op(qw, IRDMA_CQP_OP_CREATE_CQ, 0);
	chk_expect(c, qw, true, "CREATE_CQ before the HMC");

	/* a doorbell beyond the SQ, and one with no valid WQE, are ignored */
	tail = chk_rd(c, IRDMA_GEN2_CQPTAIL);
	chk_wr(c, IRDMA_GEN2_CQPDB, CHK_SQ_SIZE + 5);
	chk_wr(c, IRDMA_GEN2_CQPDB, (c->head + 1) % CHK_SQ_SIZE);
	msleep(20);
	CHECK(c, chk_rd(c, IRDMA_GEN2_CQPTAIL) == tail, "stray doorbells");
	chk_wr(c, IRDMA_GEN2_CQPDB, c->head);

	for (i = 0; i < 400; i++) {
		for (j = 0; j < IRDMA_CQP_WQE_WORDS; j++)
			qw[j] = get_random_u64() | CHK_BAD_PA;
		qw[IRDMA_CQP_WQE_HDR] = get_random_u64();
		/* leave the register-mode CCQ alone: no CREATE_CQ of CQ 0 */
		r = chk_cmd(c, qw, &codes);
		if (r < 0)
			timeouts++;
	}
	CHECK(c, !timeouts, "%d random WQEs did not complete", timeouts);
}

/**
 * chk_hmc() - QUERY_FPM_VAL, COMMIT_FPM_VAL, UPDATE_PE_SDS, SHMC
 * @c: state
 *
 * Commits a small HMC that fits one paged SD and backs it with 4 KiB pages.
 *
 * Return: true when the HMC is usable.
 */
static bool chk_hmc(struct chk *c)
{
	static const struct { u8 word; u32 cnt; } want[] = {
		{ 0, 64 },	/* QP */
		{ 1, 128 },	/* CQ */
		{ 3, 128 },	/* HTE */
		{ 4, 16 },	/* ARP */
		{ 6, 128 },	/* MR */
		{ 13, 16 },	/* FSIAV */
		{ 14, 4096 },	/* PBLE */
	};
	__le64 *buf = c->scratch->va;
	u64 qw[IRDMA_CQP_WQE_WORDS], v, end = 0, base;
	struct chk_buf *pd, *page;
	__le64 *pde;
	u32 i, npages;

	chk_op(qw, IRDMA_CQP_OP_QUERY_FPM_VAL, 0);
	qw[IRDMA_CQP_FPM_QW2] = 0;
	qw[IRDMA_CQP_FPM_BUF_PA] = c->scratch->pa;
	chk_expect(c, qw, false, "QUERY_FPM_VAL");
	v = le64_to_cpu(buf[IRDMA_FPM_QUERY_QW0]);
	CHECK(c, FIELD_GET(IRDMA_FPM_QUERY_QW0_MAX_SDS, v) > 0, "max SDs");
	CHECK(c, FIELD_GET(IRDMA_FPM_QUERY_QP_MAX_CNT, le64_to_cpu(buf[1])) ==
	      262144, "QP max %llu",
	      FIELD_GET(IRDMA_FPM_QUERY_QP_MAX_CNT, le64_to_cpu(buf[1])));
	CHECK(c, FIELD_GET(IRDMA_FPM_QUERY_BLOCK_SIZE, le64_to_cpu(buf[8])) &&
	      FIELD_GET(IRDMA_FPM_QUERY_BLOCK_SIZE, le64_to_cpu(buf[10])),
	      "XF and Q1 block sizes");
	CHECK(c, FIELD_GET(IRDMA_FPM_QUERY_MISC_MAX_CEQS,
			   le64_to_cpu(buf[IRDMA_FPM_QUERY_MISC])), "max CEQs");
	qw[IRDMA_CQP_FPM_QW2] = 3;
	chk_expect(c, qw, true, "QUERY_FPM_VAL of another function");

	/* too many QPs */
	memset(buf, 0, IRDMA_FPM_BUF_SIZE);
	buf[0] = cpu_to_le64(1 << 20);
	chk_op(qw, IRDMA_CQP_OP_COMMIT_FPM_VAL, IRDMA_FPM_BUF_SIZE);
	qw[IRDMA_CQP_FPM_BUF_PA] = c->scratch->pa;
	chk_expect(c, qw, true, "COMMIT_FPM_VAL above the maximum");
	memset(buf, 0, IRDMA_FPM_BUF_SIZE);
	for (i = 0; i < ARRAY_SIZE(want); i++)
		buf[want[i].word] = cpu_to_le64(want[i].cnt);
	chk_expect(c, qw, false, "COMMIT_FPM_VAL");
	for (i = 0, end = 0; i < 22; i++) {
		if (i == 2 || i == 14 || i == 15)
			continue;
		base = FIELD_GET(IRDMA_FPM_COMMIT_BASE, le64_to_cpu(buf[i])) * 512;
		CHECK(c, base >= end, "base of word %u: %#llx below %#llx", i,
		      base, end);
		end = base;
	}
	v = le64_to_cpu(buf[14]);
	c->pble_cnt = FIELD_GET(IRDMA_FPM_COMMIT_CNT, v);
	base = FIELD_GET(IRDMA_FPM_COMMIT_BASE, v) * 512;
	CHECK(c, c->pble_cnt == 4096 && base >= end, "PBLEs last: %u at %#llx",
	      c->pble_cnt, base);
	end = base + 8ULL * c->pble_cnt;
	CHECK(c, end <= IRDMA_HMC_SD_SIZE, "HMC fits one SD: %#llx", end);
	chk_expect(c, qw, true, "second COMMIT_FPM_VAL");

	/* SD 0, paged: a PD page listing 4 KiB pages */
	pd = chk_alloc(c, IRDMA_HW_PAGE_SIZE);
	if (!pd)
		return false;
	pde = pd->va;
	npages = DIV_ROUND_UP(end, IRDMA_HW_PAGE_SIZE);
	for (i = 0; i < npages; i++) {
		page = chk_alloc(c, IRDMA_HW_PAGE_SIZE);
		if (!page)
			return false;
		pde[i] = cpu_to_le64(page->pa | 1);
		if (i == base / IRDMA_HW_PAGE_SIZE) {
			c->pble_va = page->va + base % IRDMA_HW_PAGE_SIZE;
			c->pbles_pa = page->pa + base % IRDMA_HW_PAGE_SIZE;
		}
	}
	CHECK(c, c->pble_va && base % IRDMA_HW_PAGE_SIZE + 64 <= IRDMA_HW_PAGE_SIZE,
	      "PBLE page");

	chk_op(qw, IRDMA_CQP_OP_UPDATE_PE_SDS, 0);
	qw[IRDMA_CQP_SDS_ENTRY0_CMD] = FIELD_PREP(IRDMA_SD_CMD_IDX, 40) |
				       IRDMA_SD_CMD_WRITE |
				       IRDMA_SD_CMD_PARTSEL;
	qw[IRDMA_CQP_SDS_ENTRY0_DATA] =
		pd->pa | FIELD_PREP(IRDMA_SD_DATA_BP_COUNT, 512) |
		IRDMA_SD_DATA_VALID;
	chk_expect(c, qw, true, "SD beyond the committed space");
	qw[IRDMA_CQP_SDS_ENTRY0_CMD] = FIELD_PREP(IRDMA_SD_CMD_IDX, 0) |
				       IRDMA_SD_CMD_WRITE |
				       IRDMA_SD_CMD_PARTSEL;
	qw[IRDMA_CQP_SDS_ENTRY0_DATA] =
		CHK_BAD_PA | FIELD_PREP(IRDMA_SD_DATA_BP_COUNT, 512) |
		IRDMA_SD_DATA_VALID;
	chk_expect(c, qw, true, "SD page not in RAM");
	qw[IRDMA_CQP_SDS_ENTRY0_DATA] =
		pd->pa | FIELD_PREP(IRDMA_SD_DATA_BP_COUNT, 600) |
		IRDMA_SD_DATA_VALID;
	chk_expect(c, qw, true, "SD with 600 pages");
	/* 3 + 9 entries: too many */
	qw[IRDMA_CQP_SDS_ENTRY1_CMD] = qw[IRDMA_CQP_SDS_ENTRY0_CMD] |
				       IRDMA_CQP_SDS_ENTRY_VALID;
	qw[IRDMA_CQP_SDS_ENTRY2_CMD] = qw[IRDMA_CQP_SDS_ENTRY0_CMD] |
				       IRDMA_CQP_SDS_ENTRY_VALID;
	qw[IRDMA_CQP_SDS_QW2] = c->scratch->pa;
	qw[IRDMA_CQP_WQE_HDR] |= FIELD_PREP(IRDMA_CQP_SDS_QW3_OVERFLOW_CNT, 9);
	chk_expect(c, qw, true, "12 SD entries");
	/* 3 + 2 entries clearing SD 0, then program it */
	memset(buf, 0, 64);
	buf[0] = cpu_to_le64(qw[IRDMA_CQP_SDS_ENTRY0_CMD]);
	buf[2] = cpu_to_le64(qw[IRDMA_CQP_SDS_ENTRY0_CMD]);
	qw[IRDMA_CQP_SDS_ENTRY0_DATA] = 0;
	qw[IRDMA_CQP_SDS_ENTRY1_DATA] = 0;
	qw[IRDMA_CQP_SDS_ENTRY2_DATA] = 0;
	qw[IRDMA_CQP_WQE_HDR] = FIELD_PREP(IRDMA_CQP_HDR_OPCODE,
					   IRDMA_CQP_OP_UPDATE_PE_SDS) |
				FIELD_PREP(IRDMA_CQP_SDS_QW3_OVERFLOW_CNT, 2);
	chk_expect(c, qw, false, "5 SD entries with the overflow area");
	chk_op(qw, IRDMA_CQP_OP_UPDATE_PE_SDS, 0);
	qw[IRDMA_CQP_SDS_ENTRY0_CMD] = FIELD_PREP(IRDMA_SD_CMD_IDX, 0) |
				       IRDMA_SD_CMD_WRITE |
				       IRDMA_SD_CMD_PARTSEL;
	qw[IRDMA_CQP_SDS_ENTRY0_DATA] =
		pd->pa | FIELD_PREP(IRDMA_SD_DATA_BP_COUNT, npages) |
		IRDMA_SD_DATA_VALID;
	chk_expect(c, qw, false, "paged SD 0");

	chk_op(qw, IRDMA_CQP_OP_SHMC_PAGES_ALLOCATED, 0);
	chk_expect(c, qw, false, "SHMC_PAGES_ALLOCATED");
	return true;
}

/**
 * chk_cq_wqe() - a CREATE_CQ/DESTROY_CQ WQE
 * @qw: words to fill
 * @op: opcode
 * @id: CQ id
 * @size: CQEs
 * @ring: ring address (0 with @virt)
 * @shadow: shadow area address
 * @virt: PBL level (0: contiguous)
 * @first_pble: first PBLE
 */
static void chk_cq_wqe(u64 *qw, u8 op, u32 id, u32 size, u64 ring, u64 shadow,
		       u8 virt, u32 first_pble)
{
	chk_op(qw, op, FIELD_PREP(IRDMA_CQP_CQ_QW3_GEN2_CQID, id) |
	       FIELD_PREP(IRDMA_CQP_CQ_QW3_GEN2_CEQID, 0) |
	       IRDMA_CQP_CQ_QW3_CEQIDVALID | IRDMA_CQP_CQ_QW3_CHKOVERFLOW |
	       FIELD_PREP(IRDMA_CQP_QW3_LPBLSIZE, virt) |
	       (virt ? IRDMA_CQP_QW3_VIRTMAP : 0));
	qw[IRDMA_CQP_CQ_QW0] = size;
	qw[IRDMA_CQP_CQ_QW1] = CHK_MAGIC + id;
	qw[IRDMA_CQP_CQ_RING_PA] = ring;
	qw[IRDMA_CQP_CQ_SHADOW_PA] = shadow;
	qw[IRDMA_CQP_CQ_QW6] = first_pble;
}

/**
 * chk_events() - CCQ, CEQ, AEQ, interrupts, overflow
 * @c: state
 *
 * Return: true when the CCQ exists.
 */
static bool chk_events(struct chk *c)
{
	u64 qw[IRDMA_CQP_WQE_WORDS], cqe[IRDMA_CQE_WORDS], v;
	__le64 *ceq, *aeq;
	u32 slot, i;
	int n;

	c->ccq = chk_alloc(c, CHK_CCQ_SIZE * sizeof(struct irdma_cqe));
	c->ccq_sh = chk_alloc(c, 64);
	c->ceq = chk_alloc(c, CHK_CEQ_SIZE * IRDMA_CEQE_SIZE);
	c->aeq = chk_alloc(c, CHK_AEQ_SIZE * sizeof(struct irdma_aeqe));
	if (!c->ccq || !c->ccq_sh || !c->ceq || !c->aeq)
		return false;
	c->ccq_pol = 1;

	chk_cq_wqe(qw, IRDMA_CQP_OP_CREATE_CQ, 0, CHK_CCQ_SIZE, c->ccq->pa + 8,
		   c->ccq_sh->pa, 0, 0);
	chk_expect(c, qw, true, "CCQ ring not aligned");
	chk_cq_wqe(qw, IRDMA_CQP_OP_CREATE_CQ, 100000, CHK_CCQ_SIZE,
		   c->ccq->pa, c->ccq_sh->pa, 0, 0);
	chk_expect(c, qw, true, "CQ id beyond the committed count");
	chk_cq_wqe(qw, IRDMA_CQP_OP_CREATE_CQ, 0, CHK_CCQ_SIZE, c->ccq->pa,
		   c->ccq_sh->pa, 0, 0);
	slot = c->head;
	chk_expect(c, qw, false, "create the CCQ");
	CHECK(c, chk_ccq_next(c, cqe), "CCQ holds its own completion");
	CHECK(c, cqe[1] == CHK_MAGIC, "CCQ CQE QW1 %#llx", cqe[1]);
	CHECK(c, FIELD_GET(IRDMA_CCQ_CQE_QW3_WQEIDX, cqe[3]) == slot &&
	      !(cqe[3] & IRDMA_CCQ_CQE_QW3_ERROR), "CCQ CQE QW3 %#llx", cqe[3]);
	chk_expect(c, qw, true, "create the CCQ twice");
	CHECK(c, chk_ccq_next(c, cqe) && (cqe[3] & IRDMA_CCQ_CQE_QW3_ERROR) &&
	      FIELD_GET(IRDMA_CCQ_CQE_QW3_MAJOR_ERR, cqe[3]),
	      "error CQE %#llx", cqe[3]);

	chk_op(qw, IRDMA_CQP_OP_CREATE_CEQ, FIELD_PREP(IRDMA_CQP_CEQ_QW3_CEQID, 0));
	qw[IRDMA_CQP_CEQ_QW2] = CHK_CEQ_SIZE;
	qw[IRDMA_CQP_CEQ_RING_PA] = c->ceq->pa;
	chk_expect(c, qw, false, "CREATE_CEQ 0");
	chk_expect(c, qw, true, "CREATE_CEQ 0 twice");
	chk_ccq_drain(c);
	chk_op(qw, IRDMA_CQP_OP_CREATE_AEQ, 0);
	qw[IRDMA_CQP_AEQ_QW2] = CHK_AEQ_SIZE;
	qw[IRDMA_CQP_AEQ_RING_PA] = c->aeq->pa;
	chk_expect(c, qw, false, "CREATE_AEQ");
	chk_ccq_drain(c);

	for (i = 0; i < 2 && i < c->sadev->num_vectors; i++) {
		c->irqs[i].c = c;
		if (!request_irq(c->sadev->vectors[i].irq, chk_irq, 0,
				 "irdma_sim_check", &c->irqs[i]))
			c->irq_on[i] = true;
	}
	CHECK(c, c->irq_on[0] && c->irq_on[1], "request_irq");
	chk_wr(c, IRDMA_GEN2_AEQCTL, IRDMA_QCTL_CAUSE_ENA |
	       FIELD_PREP(IRDMA_QCTL_MSIX_INDX, c->sadev->vectors[0].idx));
	chk_wr(c, IRDMA_GEN2_CEQCTL0, IRDMA_QCTL_CAUSE_ENA |
	       FIELD_PREP(IRDMA_QCTL_MSIX_INDX, c->sadev->vectors[1].idx));

	/* armed, vector masked: the CEQE waits, the IRQ fires at the re-arm */
	ceq = c->ceq->va;
	chk_arm_ccq(c);
	chk_op(qw, IRDMA_CQP_OP_NOP, 0);
	chk_expect(c, qw, false, "NOP");
	v = le64_to_cpu(READ_ONCE(ceq[0]));
	CHECK(c, (v & IRDMA_CEQE_VALID) &&
	      FIELD_GET(IRDMA_CEQE_CQCTX, v) == CHK_MAGIC, "CEQE %#llx", v);
	msleep(20);
	CHECK(c, !atomic_read(&c->irqs[1].count), "IRQ while masked");
	chk_wr(c, IRDMA_GEN2_DYN_CTL0 + 4 * c->sadev->vectors[1].idx,
	       IRDMA_DYN_CTL_INTENA | IRDMA_DYN_CTL_CLEARPBA);
	CHECK(c, chk_wait_irq(c, 1, 1), "IRQ at re-arm: %d",
	      atomic_read(&c->irqs[1].count));
	chk_wr(c, IRDMA_GEN2_CQACK, 0);
	/* not re-armed: no CEQE */
	chk_expect(c, qw, false, "NOP");
	CHECK(c, !(le64_to_cpu(READ_ONCE(ceq[1])) & IRDMA_CEQE_VALID),
	      "CEQE without an arm");
	/* armed again, vector auto-masked since it fired */
	chk_arm_ccq(c);
	chk_expect(c, qw, false, "NOP");
	CHECK(c, le64_to_cpu(READ_ONCE(ceq[1])) & IRDMA_CEQE_VALID, "second CEQE");
	msleep(20);
	CHECK(c, atomic_read(&c->irqs[1].count) == 1, "auto-masked vector fired");
	chk_wr(c, IRDMA_GEN2_DYN_CTL0 + 4 * c->sadev->vectors[1].idx,
	       IRDMA_DYN_CTL_INTENA);
	CHECK(c, chk_wait_irq(c, 1, 2), "second IRQ: %d",
	      atomic_read(&c->irqs[1].count));
	chk_wr(c, IRDMA_GEN2_CQACK, 0);
	chk_wr(c, IRDMA_GEN2_CQACK, 0);	/* one too many: ignored */
	chk_ccq_drain(c);
	/*
	 * an arm written into the shadow area without its CQARM doorbell
	 * arms nothing (the adapter reads the arm word when the doorbell
	 * rings); the doorbell then arms with it
	 */
	{
		__le64 *sh = c->ccq_sh->va;
		u64 arm = le64_to_cpu(sh[IRDMA_CQ_SHADOW_ARM]);

		sh[IRDMA_CQ_SHADOW_ARM] = cpu_to_le64(IRDMA_CQ_SHADOW_ARM_NEXT |
			FIELD_PREP(IRDMA_CQ_SHADOW_ARM_SEQ_NUM,
				   FIELD_GET(IRDMA_CQ_SHADOW_ARM_SEQ_NUM, arm) + 1));
	}
	chk_expect(c, qw, false, "NOP");
	CHECK(c, !(le64_to_cpu(READ_ONCE(ceq[2])) & IRDMA_CEQE_VALID),
	      "CEQE after an arm without its doorbell");
	chk_ccq_drain(c);
	dma_wmb();
	chk_wr(c, IRDMA_GEN2_CQARM, IRDMA_CCQ_ID);
	chk_expect(c, qw, false, "NOP");
	CHECK(c, le64_to_cpu(READ_ONCE(ceq[2])) & IRDMA_CEQE_VALID,
	      "CEQE after the arm's doorbell");
	chk_wr(c, IRDMA_GEN2_CQACK, 0);
	chk_expect(c, qw, false, "NOP");
	CHECK(c, !(le64_to_cpu(READ_ONCE(ceq[3])) & IRDMA_CEQE_VALID),
	      "no CEQE once that arm fired");
	chk_ccq_drain(c);
	chk_wr(c, IRDMA_GEN2_DYN_CTL0 + 4 * c->sadev->vectors[1].idx,
	       IRDMA_DYN_CTL_INTENA);
	CHECK(c, chk_wait_irq(c, 1, 3), "third IRQ: %d",
	      atomic_read(&c->irqs[1].count));

	/*
	 * CCQ overflow: the CQEs that do not fit are dropped with one AE
	 * CQ_OPERATION_ERROR, and the CCQ is in error from then on: no CQE
	 * and no second AE (the AEQ's own overflow: chk_objects())
	 */
	chk_wr(c, IRDMA_GEN2_DYN_CTL0 + 4 * c->sadev->vectors[0].idx,
	       IRDMA_DYN_CTL_INTENA);
	for (i = 0; i < CHK_CCQ_SIZE + 2; i++)
		chk_expect(c, qw, false, "NOP into a full CCQ");
	n = chk_ccq_drain(c);
	CHECK(c, n == CHK_CCQ_SIZE - 1, "full CCQ holds %d CQEs", n);
	aeq = c->aeq->va;
	v = le64_to_cpu(READ_ONCE(aeq[1]));
	CHECK(c, (v & IRDMA_AEQE_QW1_VALID) && !(v & IRDMA_AEQE_QW1_OVERFLOW) &&
	      FIELD_GET(IRDMA_AEQE_QW1_AECODE, v) == IRDMA_AE_CQ_OPERATION_ERROR &&
	      FIELD_GET(IRDMA_AEQE_QW1_AESRC, v) == IRDMA_AE_SOURCE_CQ &&
	      le64_to_cpu(aeq[0]) == CHK_MAGIC, "CCQ overflow AEQE: %#llx", v);
	CHECK(c, chk_wait_irq(c, 0, 1), "AEQ IRQ: %d", atomic_read(&c->irqs[0].count));
	chk_expect(c, qw, false, "NOP after the overflow");
	n = chk_ccq_drain(c);
	CHECK(c, n == 0, "CCQ in error after the overflow: %d CQEs", n);
	v = le64_to_cpu(READ_ONCE(aeq[3]));
	CHECK(c, !(v & IRDMA_AEQE_QW1_VALID), "one AE for the overflow: AEQE 1 %#llx", v);
	chk_wr(c, IRDMA_GEN2_AEQALLOC, 1);
	return true;
}

/**
 * chk_objects() - QPs, GEN_AE, STags, AHs, ARP, APBVT, qhash, WS, stats
 * @c: state
 */
static void chk_objects(struct chk *c)
{
	u64 qw[IRDMA_CQP_WQE_WORDS], v;
	struct chk_buf *qpc, *qpsh, *rings;
	__le64 *aeq = c->aeq->va, *ctx, *buf = c->scratch->va;
	u32 i;

	qpc = chk_alloc(c, 256);
	qpsh = chk_alloc(c, 64);
	/* a UDA QP's SQ and RQ: 4 WQEs each (size code 0) */
	rings = chk_alloc(c, 2 * 4 * IRDMA_WQE_QUANTUM);
	if (!qpc || !qpsh || !rings)
		return;
	ctx = qpc->va;
	ctx[IRDMA_QPC_QW17] = cpu_to_le64(FIELD_PREP(IRDMA_QPC_QW17_TXCQNUM, 0) |
					  FIELD_PREP(IRDMA_QPC_QW17_RXCQNUM, 0));
	ctx[IRDMA_QPC_COMPCTX] = cpu_to_le64(CHK_MAGIC + 5);

	chk_op(qw, IRDMA_CQP_OP_CREATE_QP, FIELD_PREP(IRDMA_CQP_QP_QW3_QPID, 5) |
	       FIELD_PREP(IRDMA_CQP_QP_QW3_QPTYPE, IRDMA_QP_TYPE_UDA) |
	       IRDMA_CQP_QP_QW3_CQNUMVALID |
	       FIELD_PREP(IRDMA_CQP_QP_QW3_NEXTIWSTATE, IRDMA_QPS_RTS));
	qw[IRDMA_CQP_QP_CTX_PA] = qpc->pa;
	qw[IRDMA_CQP_QP_SHADOW_PA] = CHK_BAD_PA;
	chk_expect(c, qw, true, "QP shadow not in RAM");
	qw[IRDMA_CQP_QP_SHADOW_PA] = qpsh->pa;
	ctx[IRDMA_QPC_SQ_PA] = cpu_to_le64(CHK_BAD_PA);
	ctx[IRDMA_QPC_RQ_PA] = cpu_to_le64(rings->pa + 4 * IRDMA_WQE_QUANTUM);
	chk_expect(c, qw, true, "UDA QP SQ not in RAM");
	ctx[IRDMA_QPC_SQ_PA] = cpu_to_le64(rings->pa);
	ctx[IRDMA_QPC_QW3] = cpu_to_le64(FIELD_PREP(IRDMA_QPC_QW3_RQSIZE, 14));
	chk_expect(c, qw, true, "UDA QP RQ size code 14");
	ctx[IRDMA_QPC_QW3] = 0;
	chk_expect(c, qw, false, "CREATE_QP 5");
	chk_expect(c, qw, true, "CREATE_QP 5 twice");
	qw[IRDMA_CQP_WQE_HDR] &= ~IRDMA_CQP_QP_QW3_QPID;
	qw[IRDMA_CQP_WQE_HDR] |= FIELD_PREP(IRDMA_CQP_QP_QW3_QPID, 64);
	chk_expect(c, qw, true, "QP id beyond the committed count");
	chk_wr(c, IRDMA_GEN2_WQEALLOC, 5);

	chk_op(qw, IRDMA_CQP_OP_FLUSH_WQES,
	       FIELD_PREP(IRDMA_CQP_FLUSH_QW3_QPID, 5) |
	       IRDMA_CQP_FLUSH_QW3_GENERATE_AE);
	qw[IRDMA_CQP_FLUSH_QW1] =
		FIELD_PREP(IRDMA_CQP_FLUSH_QW1_AECODE, IRDMA_AE_BAD_CLOSE);
	/*
	 * Slot 0 of the AEQ holds the CCQ overflow's AEQE, consumed: GEN_AE
	 * into slots 1 to 3, then slot 0 of the second lap (valid bit 0)
	 * with the overflow bit, as the last free slot; with none free the
	 * AE is dropped.
	 */
	for (i = 1; i <= CHK_AEQ_SIZE + 1; i++) {
		u32 slot = i % CHK_AEQ_SIZE;
		bool lap2 = i >= CHK_AEQ_SIZE;

		chk_expect(c, qw, false, "GEN_AE");
		if (i > CHK_AEQ_SIZE)
			break;
		v = le64_to_cpu(READ_ONCE(aeq[2 * slot + 1]));
		CHECK(c, !!(v & IRDMA_AEQE_QW1_VALID) == !lap2 &&
		      FIELD_GET(IRDMA_AEQE_QW1_AECODE, v) == IRDMA_AE_BAD_CLOSE &&
		      FIELD_GET(IRDMA_AEQE_QW1_QPCQID_LOW, v) == 5 &&
		      FIELD_GET(IRDMA_AEQE_QW1_IWSTATE, v) == IRDMA_QPS_RTS &&
		      le64_to_cpu(aeq[2 * slot]) == CHK_MAGIC + 5,
		      "GEN_AE AEQE %u: %#llx/%#llx", i,
		      le64_to_cpu(aeq[2 * slot]), v);
		CHECK(c, !!(v & IRDMA_AEQE_QW1_OVERFLOW) == (i == CHK_AEQ_SIZE),
		      "GEN_AE AEQE %u overflow bit: %#llx", i, v);
	}
	v = le64_to_cpu(READ_ONCE(aeq[3]));
	CHECK(c, v & IRDMA_AEQE_QW1_VALID,
	      "GEN_AE into a full AEQ dropped: slot 1 %#llx", v);
	chk_wr(c, IRDMA_GEN2_AEQALLOC, CHK_AEQ_SIZE);
	chk_op(qw, IRDMA_CQP_OP_DESTROY_QP, FIELD_PREP(IRDMA_CQP_QP_QW3_QPID, 5) |
	       FIELD_PREP(IRDMA_CQP_QP_QW3_QPTYPE, IRDMA_QP_TYPE_UDA));
	qw[IRDMA_CQP_QP_CTX_PA] = qpc->pa;
	qw[IRDMA_CQP_QP_SHADOW_PA] = qpsh->pa;
	chk_expect(c, qw, false, "DESTROY_QP");
	chk_expect(c, qw, true, "DESTROY_QP twice");

	chk_op(qw, IRDMA_CQP_OP_QUERY_RDMA_FEATURES, 8 * IRDMA_FEAT_MAX);
	qw[IRDMA_CQP_FEAT_BUF_PA] = c->scratch->pa;
	chk_expect(c, qw, false, "QUERY_RDMA_FEATURES");
	CHECK(c, FIELD_GET(IRDMA_FEAT_QW0_COUNT, le64_to_cpu(buf[0])) >= 2 &&
	      FIELD_GET(IRDMA_FEAT_TYPE, le64_to_cpu(buf[0])) ==
	      IRDMA_FEAT_TYPE_FW_INFO, "features %#llx", le64_to_cpu(buf[0]));

	chk_op(qw, IRDMA_CQP_OP_MANAGE_ARP, FIELD_PREP(IRDMA_CQP_ARP_QW3_INDEX, 3) |
	       IRDMA_CQP_ARP_QW3_VALID);
	qw[IRDMA_CQP_ARP_QW2] = 0x0002b3c4d5e6ULL;
	chk_expect(c, qw, false, "ARP add");
	qw[IRDMA_CQP_WQE_HDR] |= FIELD_PREP(IRDMA_CQP_ARP_QW3_INDEX, 16);
	chk_expect(c, qw, true, "ARP index beyond the count");

	chk_op(qw, IRDMA_CQP_OP_MANAGE_APBVT, IRDMA_CQP_APBVT_QW3_ADD);
	qw[IRDMA_CQP_APBVT_QW2] = 4791;
	chk_expect(c, qw, false, "APBVT add");

	chk_op(qw, IRDMA_CQP_OP_MANAGE_QHASH,
	       FIELD_PREP(IRDMA_CQP_QHASH_QW3_ENTRYTYPE, IRDMA_QHASH_TYPE_TCP_SYN) |
	       IRDMA_CQP_QHASH_QW3_IPV4VALID |
	       FIELD_PREP(IRDMA_CQP_QHASH_QW3_MANAGE, IRDMA_QHASH_MANAGE_ADD));
	qw[IRDMA_CQP_QHASH_QW1] =
		FIELD_PREP(IRDMA_CQP_QHASH_QW1_DEST_PORT, 4791) |
		FIELD_PREP(IRDMA_CQP_QHASH_QW1_QPN, IRDMA_ILQ_ID);
	qw[IRDMA_CQP_QHASH_LOC_IP_LO] = 0xc0a80001;
	chk_expect(c, qw, false, "qhash add");
	qw[IRDMA_CQP_WQE_HDR] &= ~IRDMA_CQP_QHASH_QW3_MANAGE;
	chk_expect(c, qw, false, "qhash delete");
	chk_expect(c, qw, false, "qhash delete of a missing entry");
	qw[IRDMA_CQP_WQE_HDR] |= FIELD_PREP(IRDMA_CQP_QHASH_QW3_ENTRYTYPE, 7);
	chk_expect(c, qw, true, "qhash type 7");

	chk_op(qw, IRDMA_CQP_OP_WORK_SCHED_NODE,
	       FIELD_PREP(IRDMA_CQP_WS_QW3_NODEID, 0) |
	       FIELD_PREP(IRDMA_CQP_WS_QW3_PARENTID, 0) | IRDMA_CQP_WS_QW3_ENABLE);
	chk_expect(c, qw, false, "WS root");
	chk_op(qw, IRDMA_CQP_OP_WORK_SCHED_NODE,
	       FIELD_PREP(IRDMA_CQP_WS_QW3_NODEID, 1) |
	       FIELD_PREP(IRDMA_CQP_WS_QW3_PARENTID, 0) | IRDMA_CQP_WS_QW3_LEAF);
	chk_expect(c, qw, false, "WS leaf");
	chk_op(qw, IRDMA_CQP_OP_WORK_SCHED_NODE,
	       FIELD_PREP(IRDMA_CQP_WS_QW3_NODEID, 0) |
	       FIELD_PREP(IRDMA_CQP_WS_QW3_NODEOP, 2));
	chk_expect(c, qw, true, "WS delete of a node with a child");

	chk_op(qw, IRDMA_CQP_OP_MANAGE_STATS, IRDMA_CQP_STATS_QW3_ALLOC);
	chk_expect(c, qw, false, "stats instance");
	chk_op(qw, IRDMA_CQP_OP_MANAGE_STATS, FIELD_PREP(IRDMA_CQP_STATS_QW3_INST, 77));
	chk_expect(c, qw, true, "free of an unallocated stats instance");
	chk_op(qw, IRDMA_CQP_OP_GATHER_STATS, 0);
	qw[IRDMA_CQP_STATS_BUF_PA] = c->scratch->pa;
	memset(buf, 0xff, 1024);
	chk_expect(c, qw, false, "GATHER_STATS");
	CHECK(c, !buf[0] && !buf[127], "statistics buffer zeroed");

	chk_op(qw, IRDMA_CQP_OP_MANAGE_PUSH_PAGES, 0);
	chk_expect(c, qw, false, "push page");
	chk_ccq_drain(c);

	/* STags */
	chk_op(qw, IRDMA_CQP_OP_ALLOC_STAG, IRDMA_CQP_STAG_QW3_MR);
	qw[IRDMA_CQP_STAG_QW1] = FIELD_PREP(IRDMA_CQP_STAG_QW1_LEN, 4096) |
				 FIELD_PREP(IRDMA_CQP_STAG_QW1_GEN2_PDID, 3);
	qw[IRDMA_CQP_STAG_QW2] = FIELD_PREP(IRDMA_CQP_STAG_QW2_IDX, 9);
	chk_expect(c, qw, false, "ALLOC_STAG");
	chk_expect(c, qw, true, "ALLOC_STAG twice");
	chk_op(qw, IRDMA_CQP_OP_DEALLOC_STAG, IRDMA_CQP_STAG_QW3_MR);
	qw[IRDMA_CQP_STAG_QW1] = FIELD_PREP(IRDMA_CQP_STAG_QW1_GEN2_PDID, 4);
	qw[IRDMA_CQP_STAG_QW2] = FIELD_PREP(IRDMA_CQP_STAG_QW2_IDX, 9);
	chk_expect(c, qw, true, "DEALLOC_STAG with the wrong PD");
	qw[IRDMA_CQP_STAG_QW1] = FIELD_PREP(IRDMA_CQP_STAG_QW1_GEN2_PDID, 3);
	chk_expect(c, qw, false, "DEALLOC_STAG");
	chk_op(qw, IRDMA_CQP_OP_REG_MR, IRDMA_CQP_STAG_QW3_MR);
	qw[IRDMA_CQP_STAG_QW1] = FIELD_PREP(IRDMA_CQP_STAG_QW1_LEN, 4096);
	qw[IRDMA_CQP_STAG_QW2] = FIELD_PREP(IRDMA_CQP_STAG_QW2_IDX, 10);
	qw[IRDMA_CQP_STAG_PA] = CHK_BAD_PA;
	chk_expect(c, qw, true, "REG_MR of memory not in RAM");
	qw[IRDMA_CQP_STAG_PA] = c->scratch->pa;
	chk_expect(c, qw, false, "REG_MR");

	/* address handle */
	chk_op(qw, IRDMA_CQP_OP_CREATE_ADDR_HANDLE,
	       FIELD_PREP(IRDMA_CQP_AH_QW3_AVIDX, 2) | IRDMA_CQP_AH_QW3_IPV4VALID);
	qw[IRDMA_CQP_AH_QW2] = FIELD_PREP(IRDMA_CQP_AH_QW2_ARPINDEX, 3);
	chk_expect(c, qw, false, "CREATE_ADDR_HANDLE");
	qw[IRDMA_CQP_WQE_HDR] |= FIELD_PREP(IRDMA_CQP_AH_QW3_AVIDX, 100);
	chk_expect(c, qw, true, "AH index beyond the count");
	for (i = 0; i < 3; i++)
		chk_ccq_drain(c);
}

/**
 * chk_pbl() - CQs whose ring is described by PBLEs
 * @c: state
 */
static void chk_pbl(struct chk *c)
{
	u64 qw[IRDMA_CQP_WQE_WORDS];
	struct chk_buf *p0, *p1, *sh;

	p0 = chk_alloc(c, IRDMA_HW_PAGE_SIZE);
	p1 = chk_alloc(c, IRDMA_HW_PAGE_SIZE);
	sh = chk_alloc(c, 64);
	if (!p0 || !p1 || !sh || !c->pble_va)
		return;
	/* level 1: PBLEs 0 and 1; level 2: root PBLE 4 -> leaf at PBLE 0 */
	c->pble_va[0] = cpu_to_le64(p0->pa);
	c->pble_va[1] = cpu_to_le64(p1->pa);
	c->pble_va[2] = cpu_to_le64(CHK_BAD_PA);
	c->pble_va[4] = cpu_to_le64(0);
	chk_cq_wqe(qw, IRDMA_CQP_OP_CREATE_CQ, 7, 200, 0, sh->pa, 1, 0);
	chk_expect(c, qw, false, "CQ 7 on two PBL pages");
	chk_cq_wqe(qw, IRDMA_CQP_OP_CREATE_CQ, 8, 200, 0, sh->pa, 1, 1);
	chk_expect(c, qw, true, "CQ 8 on a PBLE not in RAM");
	chk_cq_wqe(qw, IRDMA_CQP_OP_CREATE_CQ, 9, 200, 0, sh->pa, 3, 4);
	chk_expect(c, qw, false, "CQ 9 through a two-level PBL");
	chk_cq_wqe(qw, IRDMA_CQP_OP_CREATE_CQ, 10, 200, 0, sh->pa, 1,
		   c->pble_cnt - 1);
	chk_expect(c, qw, true, "CQ 10 past the last PBLE");
	chk_cq_wqe(qw, IRDMA_CQP_OP_MODIFY_CQ, 7, 100, p0->pa, sh->pa, 0, 0);
	qw[IRDMA_CQP_WQE_HDR] |= IRDMA_CQP_CQ_QW3_CQRESIZE;
	chk_expect(c, qw, false, "resize CQ 7 to a contiguous ring");
	chk_cq_wqe(qw, IRDMA_CQP_OP_DESTROY_CQ, 9, 200, 0, sh->pa, 3, 4);
	chk_expect(c, qw, false, "destroy CQ 9");
	chk_expect(c, qw, true, "destroy CQ 9 twice");
	chk_ccq_drain(c);
}

/**
 * chk_cqp_reset() - destroy the CQP, with work queued, and create it again
 * @c: state
 *
 * Return: true when the new CQP runs.
 */
static bool chk_cqp_reset(struct chk *c)
{
	u64 qw[IRDMA_CQP_WQE_WORDS];
	u32 st = 0;
	int i;

	chk_op(qw, IRDMA_CQP_OP_NOP, 0);
	for (i = 0; i < 10; i++)
		chk_post(c, qw);
	chk_wr(c, IRDMA_GEN2_CCQPHIGH, 0);
	chk_wr(c, IRDMA_GEN2_CCQPLOW, 0);
	for (i = 0; i < 1000; i++) {
		st = chk_rd(c, IRDMA_GEN2_CCQPSTATUS);
		if (!(st & IRDMA_CCQPSTATUS_DONE))
			break;
		usleep_range(10, 20);
	}
	CHECK(c, !(st & IRDMA_CCQPSTATUS_DONE), "destroy: %#x", st);
	c->head = 0;
	c->pol = 1;
	memset(c->sq->va, 0, c->sq->len);
	st = chk_handshake(c, c->ctx->pa);
	CHECK(c, st == IRDMA_CCQPSTATUS_DONE, "re-create: %#x", st);
	chk_op(qw, IRDMA_CQP_OP_NOP, 0);
	chk_expect(c, qw, false, "NOP after re-create");
	chk_op(qw, IRDMA_CQP_OP_CREATE_CQ, 0);
	chk_expect(c, qw, true, "CREATE_CQ before the new HMC");
	return st == IRDMA_CCQPSTATUS_DONE;
}

/**
 * chk_recreate() - a second CQP generation
 * @c: state
 *
 * The objects of the first CQP must be gone: the HMC is committed again
 * and CQ 0 created again.  The CCQ is left armed for the deletion.
 */
static void chk_recreate(struct chk *c)
{
	u64 qw[IRDMA_CQP_WQE_WORDS];

	if (!chk_cqp_reset(c) || !chk_hmc(c))
		return;
	memset(c->ccq->va, 0, c->ccq->len);
	memset(c->ccq_sh->va, 0, 64);
	c->ccq_head = 0;
	c->ccq_pol = 1;
	chk_cq_wqe(qw, IRDMA_CQP_OP_CREATE_CQ, 0, CHK_CCQ_SIZE, c->ccq->pa,
		   c->ccq_sh->pa, 0, 0);
	chk_expect(c, qw, false, "CCQ again");
	CHECK(c, chk_ccq_drain(c) == 1, "new CCQ used");
	chk_arm_ccq(c);
}

/**
 * chk_reg_fuzz() - random writes to the doorbell and interrupt registers
 * @c: state
 *
 * Routing and vector state are reset afterwards.
 */
static void chk_reg_fuzz(struct chk *c)
{
	static const u32 regs[] = {
		IRDMA_GEN2_CQARM, IRDMA_GEN2_CQACK, IRDMA_GEN2_AEQALLOC,
		IRDMA_GEN2_WQEALLOC, IRDMA_GEN2_PDINV, IRDMA_GEN2_AEQCTL,
		IRDMA_GEN2_CEQCTL0, IRDMA_GEN2_CEQCTL0 + 4 * 255,
		IRDMA_GEN2_DYN_CTL0, IRDMA_GEN2_DYN_CTL0 + 4,
		IRDMA_GEN2_DYN_CTL0 + 8, IRDMA_GEN2_CRITERR,
	};
	u32 i;

	for (i = 0; i < 2000; i++) {
		u32 r = regs[get_random_u32() % ARRAY_SIZE(regs)];
		u32 v = get_random_u32();

		if (i & 1)
			v &= 0x1f;	/* small ids hit existing objects */
		chk_wr(c, r, v);
		chk_rd(c, r);
	}
	chk_wr(c, IRDMA_GEN2_AEQCTL, 0);
	chk_wr(c, IRDMA_GEN2_CEQCTL0, 0);
	chk_wr(c, IRDMA_GEN2_CEQCTL0 + 4 * 255, 0);
	for (i = 0; i < c->sadev->num_vectors; i++)
		chk_wr(c, IRDMA_GEN2_DYN_CTL0 + 4 * c->sadev->vectors[i].idx, 0);
	msleep(20);
	CHECK(c, true, "register fuzz");
}

/**
 * chk_probe() - run the checks
 * @adev: the model's auxiliary device
 * @id: match
 *
 * Return: 0 (the device stays bound; no ib_device is registered).
 */
static int chk_probe(struct auxiliary_device *adev,
		     const struct auxiliary_device_id *id)
{
	struct chk *c;

	c = kzalloc(sizeof(*c), GFP_KERNEL);
	if (!c)
		return -ENOMEM;
	c->sadev = to_irdma_sim_adev(adev);
	c->dma = adev->dev.parent;
	auxiliary_set_drvdata(adev, c);
	c->ctx = chk_alloc(c, 64);
	c->sq = chk_alloc(c, CHK_SQ_SIZE * sizeof(struct irdma_cqp_wqe));
	c->scratch = chk_alloc(c, IRDMA_HW_PAGE_SIZE);
	if (!c->ctx || !c->sq || !c->scratch)
		goto out;

	chk_registers(c);
	if (!chk_cqp_create(c))
		goto out;
	chk_garbage(c);
	/* forget what the random WQEs created */
	if (!chk_cqp_reset(c) || !chk_hmc(c))
		goto out;
	if (!chk_events(c))
		goto out;
	chk_objects(c);
	chk_pbl(c);
	chk_reg_fuzz(c);
	chk_recreate(c);
out:
	pr_info("irdma_sim_check: %d passed, %d failed\n", c->pass, c->fail);
	return 0;
}

/**
 * chk_remove() - release everything
 * @adev: the model's auxiliary device
 *
 * Unless sloppy=1, the CQP is destroyed first, as a driver must.
 */
static void chk_remove(struct auxiliary_device *adev)
{
	struct chk *c = auxiliary_get_drvdata(adev);
	u32 i;

	if (!sloppy) {
		chk_wr(c, IRDMA_GEN2_AEQCTL, 0);
		chk_wr(c, IRDMA_GEN2_CEQCTL0, 0);
		chk_wr(c, IRDMA_GEN2_CCQPHIGH, 0);
		chk_wr(c, IRDMA_GEN2_CCQPLOW, 0);
		for (i = 0; i < 1000; i++) {
			if (!(chk_rd(c, IRDMA_GEN2_CCQPSTATUS) &
			      IRDMA_CCQPSTATUS_DONE))
				break;
			usleep_range(10, 20);
		}
	}
	for (i = 0; i < IRDMA_SIM_MAX_VECTORS; i++)
		if (c->irq_on[i])
			free_irq(c->sadev->vectors[i].irq, &c->irqs[i]);
	for (i = 0; i < c->nbufs; i++)
		dma_free_coherent(c->dma, c->bufs[i].len, c->bufs[i].va,
				  c->bufs[i].pa);
	kfree(c);
}

static const struct auxiliary_device_id chk_ids[] = {
	{ .name = IRDMA_SIM_MODNAME "." IRDMA_SIM_ADEV_NAME },
	{}
};
MODULE_DEVICE_TABLE(auxiliary, chk_ids);

static struct auxiliary_driver chk_driver = {
	.name = "check",
	.probe = chk_probe,
	.remove = chk_remove,
	.id_table = chk_ids,
};
module_auxiliary_driver(chk_driver);

MODULE_DESCRIPTION("Conformance and robustness checks of irdma_sim");
MODULE_LICENSE("Dual BSD/GPL");
