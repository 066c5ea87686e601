// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * irdma - bring-up and teardown of the RDMA function: firmware handshake,
 * control QP, host memory cache (HMC), control completion queue, and the
 * event queues eventq.c provides.
 *
 * Order (irdma_ctrl_init_hw): firmware ready -> doorbell BAR size -> CQP
 * create handshake -> QUERY_FPM_VAL, size the HMC, COMMIT_FPM_VAL ->
 * back and program the HMC segment descriptors -> CCQ -> feature query
 * -> vectors and CEQ 0 -> arm the CCQ and switch the CQP to interrupts.
 * Then irdma_rt_init_hw adds the AEQ.  Teardown runs the same steps
 * backwards, and every step undoes only what it did.
 */
#include <linux/delay.h>
#include <linux/log2.h>
#include <linux/moduleparam.h>

#include "irdma.h"
#include "ctrl.h"

static unsigned int max_qp = 4096;
module_param(max_qp, uint, 0444);
MODULE_PARM_DESC(max_qp, "Queue pairs to provision in the HMC (default 4096)");

#define IRDMA_FW_READY_TRIES	15
#define IRDMA_MAX_SD_PER_FN	64	/* bound host memory: 64 x 2 MiB */

/**
 * irdma_wait_fw_ready() - wait until the adapter firmware runs
 * @rf: RDMA function
 *
 * Return: 0, or -ETIMEDOUT after IRDMA_FW_READY_TRIES seconds.
 */
static int irdma_wait_fw_ready(struct irdma_pci_f *rf)
{
	int i;

	for (i = 0; i < IRDMA_FW_READY_TRIES; i++) {
		if (irdma_rd32(rf, IRDMA_REG_CPUSTATUS0) == IRDMA_CPU_READY &&
		    irdma_rd32(rf, IRDMA_REG_CPUSTATUS1) == IRDMA_CPU_READY &&
		    irdma_rd32(rf, IRDMA_REG_CPUSTATUS2) == IRDMA_CPU_READY)
			return 0;
		msleep(1000);
	}
	dev_err(rf->dma_dev, "RDMA firmware not ready\n");
	return -ETIMEDOUT;
}

/**
 * irdma_check_db_bar() - check the doorbell BAR size the driver relies on
 * @rf: RDMA function
 *
 * Return: 0 or -ENODEV.
 */
static int irdma_check_db_bar(struct irdma_pci_f *rf)
{
	u32 sz = FIELD_GET(IRDMA_LBARCTRL_PE_DB_SIZE,
			   irdma_rd32(rf, IRDMA_REG_LBARCTRL));

	if (rf->gen == IRDMA_GEN_2 && sz != IRDMA_PE_DB_SIZE_4M &&
	    sz != IRDMA_PE_DB_SIZE_8M) {
		dev_err(rf->dma_dev, "unsupported doorbell BAR size code %u\n",
			sz);
		return -ENODEV;
	}
	return 0;
}

/**
 * irdma_hmc_has() - the adapter supports an HMC object type
 * @hmc: HMC with limits read
 * @t: object type
 *
 * Return: true if its maximum count is not zero.
 */
static bool irdma_hmc_has(const struct irdma_hmc *hmc, enum irdma_hmc_obj t)
{
	return hmc->obj[t].max_cnt;
}

/**
 * irdma_hmc_parse_query() - read limits from a QUERY_FPM_VAL buffer
 * @rf: RDMA function
 * @buf: the buffer
 *
 * Return: 0, or -EIO if the adapter reports unusable values.
 */
static int irdma_hmc_parse_query(struct irdma_pci_f *rf, const __le64 *buf)
{
	struct irdma_hmc *hmc = &rf->hmc;
	u64 misc;
	int t;

	hmc->first_sd = le64_get_bits(buf[IRDMA_FPM_QUERY_QW0],
				      IRDMA_FPM_QUERY_QW0_FIRST_SD);
	hmc->max_sds = le64_get_bits(buf[IRDMA_FPM_QUERY_QW0],
				     IRDMA_FPM_QUERY_QW0_MAX_SDS);
	for (t = 0; t < IRDMA_HMC_OBJ_NUM; t++) {
		struct irdma_hmc_obj_info *o = &hmc->obj[t];
		u64 w;

		if (t == IRDMA_HMC_RSVD)
			continue;
		/* GEN_1 describes neither multicast/AH nor the RRF..OOISC types */
		if (rf->gen == IRDMA_GEN_1 &&
		    (t == IRDMA_HMC_FSIMC || t == IRDMA_HMC_FSIAV ||
		     t >= IRDMA_HMC_RRF))
			continue;
		if (t == IRDMA_HMC_APBVT) {
			/* not described by the buffer: one 8 KiB object */
			o->max_cnt = 1;
			o->size = 8192;
			continue;
		}
		w = le64_to_cpu(buf[irdma_fpm_query_word(t)]);
		o->max_cnt = FIELD_GET(IRDMA_FPM_QUERY_MAX_CNT, w);
		switch (t) {
		case IRDMA_HMC_QP:
			o->max_cnt = FIELD_GET(IRDMA_FPM_QUERY_QP_MAX_CNT, w);
			fallthrough;
		default:
			o->size = FIELD_GET(IRDMA_FPM_QUERY_LOG2_SIZE, w) < 32 ?
				  1ULL << FIELD_GET(IRDMA_FPM_QUERY_LOG2_SIZE, w) : 0;
			break;
		case IRDMA_HMC_CQ:
			o->max_cnt = FIELD_GET(IRDMA_FPM_QUERY_CQ_MAX_CNT, w);
			o->size = FIELD_GET(IRDMA_FPM_QUERY_LOG2_SIZE, w) < 32 ?
				  1ULL << FIELD_GET(IRDMA_FPM_QUERY_LOG2_SIZE, w) : 0;
			break;
		case IRDMA_HMC_XFFL:
			hmc->xf_block = FIELD_GET(IRDMA_FPM_QUERY_BLOCK_SIZE, w);
			o->size = 4;
			break;
		case IRDMA_HMC_Q1FL:
			hmc->q1_block = FIELD_GET(IRDMA_FPM_QUERY_BLOCK_SIZE, w);
			o->size = 4;
			break;
		case IRDMA_HMC_RRFFL:
			hmc->rrf_block = FIELD_GET(IRDMA_FPM_QUERY_BLOCK_SIZE, w);
			o->size = 4;
			break;
		case IRDMA_HMC_OOISCFFL:
			hmc->ooisc_block = FIELD_GET(IRDMA_FPM_QUERY_BLOCK_SIZE, w);
			o->size = 4;
			break;
		case IRDMA_HMC_PBLE:
			o->size = 8;
			break;
		}
	}
	misc = le64_to_cpu(buf[IRDMA_FPM_QUERY_MISC]);
	hmc->max_ceqs = FIELD_GET(IRDMA_FPM_QUERY_MISC_MAX_CEQS, misc);
	hmc->ht_mult = max_t(u32, FIELD_GET(IRDMA_FPM_QUERY_MISC_HTMULT, misc), 1);
	hmc->timer_bucket = max_t(u32, FIELD_GET(IRDMA_FPM_QUERY_MISC_TIMER_BKT,
						 misc), 1);
	if ((irdma_hmc_has(hmc, IRDMA_HMC_RRF) && !hmc->rrf_block) ||
	    (irdma_hmc_has(hmc, IRDMA_HMC_OOISC) && !hmc->ooisc_block)) {
		dev_err(rf->dma_dev, "HMC free-list block size 0\n");
		return -EIO;
	}
	if (!hmc->xf_block || !hmc->q1_block || !hmc->max_ceqs ||
	    !hmc->max_sds || !hmc->obj[IRDMA_HMC_QP].max_cnt ||
	    !hmc->obj[IRDMA_HMC_CQ].max_cnt) {
		dev_err(rf->dma_dev,
			"unusable HMC limits: xf_block %u q1_block %u ceqs %u sds %u\n",
			hmc->xf_block, hmc->q1_block, hmc->max_ceqs,
			hmc->max_sds);
		return -EIO;
	}
	return 0;
}

/**
 * irdma_hmc_bytes() - FPM bytes the chosen counts need
 * @hmc: HMC with counts set
 *
 * Return: bytes, each object type rounded up to the 512-byte base unit.
 */
static u64 irdma_hmc_bytes(const struct irdma_hmc *hmc)
{
	u64 total = 0;
	int t;

	for (t = 0; t < IRDMA_HMC_OBJ_NUM; t++)
		total += round_up((u64)hmc->obj[t].cnt * hmc->obj[t].size,
				  IRDMA_FPM_BASE_UNIT);
	return total;
}

/**
 * irdma_hmc_choose_counts() - decide how many objects of each type to back
 * @rf: RDMA function
 *
 * Starts from the max_qp module parameter, no more QPs than the Read
 * Response space (Q1) can serve at the full IRD each, derives the other
 * counts from the QP count, and halves until the backing memory fits both
 * the adapter's SD limit and IRDMA_MAX_SD_PER_FN.
 *
 * Return: 0 or -ENOSPC.
 */
static int irdma_hmc_choose_counts(struct irdma_pci_f *rf)
{
	struct irdma_hmc *hmc = &rf->hmc;
	struct irdma_hmc_obj_info *o = hmc->obj;
	u32 sd_limit = min_t(u32, hmc->max_sds, IRDMA_MAX_SD_PER_FN);
	u32 ird = rf->gen == IRDMA_GEN_1 ? IRDMA_GEN1_MAX_IRD : IRDMA_GEN2_MAX_IRD;
	u32 q1_qps = o[IRDMA_HMC_Q1].max_cnt / (2 * ird);
	u32 qps = rounddown_pow_of_two(clamp_t(u32, min(max_qp, q1_qps), 64,
					       o[IRDMA_HMC_QP].max_cnt));

	for (; qps >= 64; qps >>= 1) {
		int t;

		for (t = 0; t < IRDMA_HMC_OBJ_NUM; t++)
			o[t].cnt = 0;
		o[IRDMA_HMC_QP].cnt = qps;
		o[IRDMA_HMC_CQ].cnt = min(2 * qps, o[IRDMA_HMC_CQ].max_cnt);
		o[IRDMA_HMC_MR].cnt = min(2 * qps, o[IRDMA_HMC_MR].max_cnt);
		o[IRDMA_HMC_ARP].cnt = min(qps, o[IRDMA_HMC_ARP].max_cnt);
		o[IRDMA_HMC_APBVT].cnt = 1;
		o[IRDMA_HMC_HTE].cnt = min(roundup_pow_of_two(round_up(qps, 512) *
							      hmc->ht_mult),
					   o[IRDMA_HMC_HTE].max_cnt);
		o[IRDMA_HMC_XF].cnt = min(4 * hmc->xf_block * qps,
					  o[IRDMA_HMC_XF].max_cnt);
		o[IRDMA_HMC_XFFL].cnt = min(o[IRDMA_HMC_XF].cnt / hmc->xf_block,
					    o[IRDMA_HMC_XFFL].max_cnt);
		o[IRDMA_HMC_Q1].cnt = min(2 * ird * qps, o[IRDMA_HMC_Q1].max_cnt);
		o[IRDMA_HMC_Q1FL].cnt = min(o[IRDMA_HMC_Q1].cnt / hmc->q1_block,
					    o[IRDMA_HMC_Q1FL].max_cnt);
		o[IRDMA_HMC_TIMER].cnt = min((round_up(qps, 512) / 512 + 1) *
					     hmc->timer_bucket,
					     o[IRDMA_HMC_TIMER].max_cnt);
		if (irdma_hmc_has(hmc, IRDMA_HMC_RRF)) {
			o[IRDMA_HMC_RRF].cnt = min(32 * qps, o[IRDMA_HMC_RRF].max_cnt);
			o[IRDMA_HMC_RRFFL].cnt = min(o[IRDMA_HMC_RRF].cnt /
						     hmc->rrf_block,
						     o[IRDMA_HMC_RRFFL].max_cnt);
		}
		if (irdma_hmc_has(hmc, IRDMA_HMC_OOISC)) {
			o[IRDMA_HMC_OOISC].cnt = min(32 * qps,
						     o[IRDMA_HMC_OOISC].max_cnt);
			o[IRDMA_HMC_OOISCFFL].cnt = min(o[IRDMA_HMC_OOISC].cnt /
							hmc->ooisc_block,
							o[IRDMA_HMC_OOISCFFL].max_cnt);
		}
		o[IRDMA_HMC_FSIAV].cnt = min(qps, o[IRDMA_HMC_FSIAV].max_cnt);
		o[IRDMA_HMC_HDR].cnt = min(qps, o[IRDMA_HMC_HDR].max_cnt);
		o[IRDMA_HMC_PBLE].cnt = min(64 * qps, o[IRDMA_HMC_PBLE].max_cnt);
		if (DIV_ROUND_UP(irdma_hmc_bytes(hmc), IRDMA_HMC_SD_SIZE) <= sd_limit)
			return 0;
	}
	dev_err(rf->dma_dev, "HMC does not fit in %u SDs\n", sd_limit);
	return -ENOSPC;
}

/**
 * irdma_hmc_commit() - commit the counts and adopt what the adapter returns
 * @rf: RDMA function
 * @buf: 176-byte DMA buffer
 *
 * Return: 0 or a negative errno.
 */
static int irdma_hmc_commit(struct irdma_pci_f *rf, struct irdma_dma_mem *buf)
{
	struct irdma_hmc *hmc = &rf->hmc;
	__le64 *w = buf->va;
	u64 end = 0;
	int t, ret;

	memset(buf->va, 0, IRDMA_FPM_BUF_SIZE);
	for (t = 0; t < IRDMA_HMC_OBJ_NUM; t++)
		if (t != IRDMA_HMC_RSVD && t != IRDMA_HMC_APBVT)
			w[irdma_fpm_commit_word(t)] = cpu_to_le64(hmc->obj[t].cnt);
	ret = irdma_cqp_commit_fpm(rf, buf);
	if (ret)
		return ret;
	for (t = 0; t < IRDMA_HMC_OBJ_NUM; t++) {
		struct irdma_hmc_obj_info *o = &hmc->obj[t];
		u64 v = le64_to_cpu(w[irdma_fpm_commit_word(t)]);
		u32 cnt;

		if (t == IRDMA_HMC_RSVD)
			continue;
		if (t == IRDMA_HMC_QP)
			cnt = FIELD_GET(IRDMA_FPM_COMMIT_QP_CNT, v);
		else if (t == IRDMA_HMC_CQ)
			cnt = rf->gen == IRDMA_GEN_1 ?
			      FIELD_GET(IRDMA_FPM_COMMIT_GEN1_CQ_CNT, v) :
			      FIELD_GET(IRDMA_FPM_COMMIT_GEN2_CQ_CNT, v);
		else if (t == IRDMA_HMC_APBVT)
			cnt = 1;
		else
			cnt = FIELD_GET(IRDMA_FPM_COMMIT_CNT, v);
		if (cnt > o->max_cnt) {
			dev_err(rf->dma_dev, "HMC commit returned %u objects of type %d (max %u)\n",
				cnt, t, o->max_cnt);
			return -EIO;
		}
		o->cnt = cnt;
		o->base = FIELD_GET(IRDMA_FPM_COMMIT_BASE, v) * IRDMA_FPM_BASE_UNIT;
		if (cnt)
			end = max(end, o->base + cnt * o->size);
	}
	/* bases are absolute FPM addresses: SD n covers [n, n + 1) x 2 MiB */
	if (end <= (u64)hmc->first_sd * IRDMA_HMC_SD_SIZE) {
		dev_err(rf->dma_dev, "HMC commit ends below the first SD\n");
		return -EIO;
	}
	hmc->sd_cnt = DIV_ROUND_UP(end, IRDMA_HMC_SD_SIZE) - hmc->first_sd;
	if (hmc->sd_cnt > min_t(u32, hmc->max_sds, IRDMA_MAX_SD_PER_FN)) {
		dev_err(rf->dma_dev, "HMC commit needs %u SDs\n", hmc->sd_cnt);
		return -EIO;
	}
	return 0;
}

/**
 * irdma_hmc_free_sds() - unprogram and free the HMC backing pages
 * @rf: RDMA function
 *
 * The adapter must stop using a page before it is freed: pages whose
 * descriptors could not be cleared are leaked (and a reset requested).
 * Safe on a partially set up HMC.
 */
static void irdma_hmc_free_sds(struct irdma_pci_f *rf)
{
	struct irdma_sd_entry e[IRDMA_SDS_PER_WQE_MAX];
	struct irdma_hmc *hmc = &rf->hmc;
	u32 i, n, first;
	int ret;

	if (!hmc->sd_pages)
		return;
	for (first = 0; first < hmc->sd_cnt; first += n) {
		n = min_t(u32, hmc->sd_cnt - first, IRDMA_SDS_PER_WQE_MAX);
		for (i = 0; i < n; i++)
			e[i] = (struct irdma_sd_entry){
				.idx = hmc->first_sd + first + i, .valid = false };
		ret = rf->cqp.created ? irdma_cqp_update_sds(rf, e, n) : 0;
		for (i = first; i < first + n; i++) {
			if (ret)
				irdma_dma_leak(rf, &hmc->sd_pages[i], ret);
			else
				irdma_dma_free(rf, &hmc->sd_pages[i]);
		}
	}
	kfree(hmc->sd_pages);
	hmc->sd_pages = NULL;
}

/**
 * irdma_hmc_setup() - size, commit, back and program the HMC
 * @rf: RDMA function
 *
 * Context: process context, may sleep; CQP in register mode.
 * Return: 0 or a negative errno.
 */
static int irdma_hmc_setup(struct irdma_pci_f *rf)
{
	struct irdma_hmc *hmc = &rf->hmc;
	struct irdma_dma_mem buf = {};
	struct irdma_sd_entry *e;
	u32 i;
	int ret;

	ret = irdma_dma_alloc(rf, &buf, IRDMA_FPM_BUF_SIZE, 8);
	if (ret)
		return ret;
	ret = irdma_cqp_query_fpm(rf, &buf);
	if (ret)
		goto out_free_buf;
	ret = irdma_hmc_parse_query(rf, buf.va);
	if (ret)
		goto out_free_buf;
	ret = irdma_hmc_choose_counts(rf);
	if (ret)
		goto out_free_buf;
	ret = irdma_hmc_commit(rf, &buf);
	if (ret)
		goto out_free_buf;

	hmc->sd_pages = kcalloc(hmc->sd_cnt, sizeof(*hmc->sd_pages), GFP_KERNEL);
	e = kcalloc(hmc->sd_cnt, sizeof(*e), GFP_KERNEL);
	if (!hmc->sd_pages || !e) {
		kfree(e);
		ret = -ENOMEM;
		goto err_free_sds;
	}
	for (i = 0; i < hmc->sd_cnt; i++) {
		ret = irdma_dma_alloc(rf, &hmc->sd_pages[i], IRDMA_HMC_SD_SIZE,
				      IRDMA_HMC_SD_SIZE);
		if (ret) {
			kfree(e);
			goto err_free_sds;
		}
		e[i] = (struct irdma_sd_entry){ .idx = hmc->first_sd + i,
			.pa = hmc->sd_pages[i].pa, .valid = true };
	}
	ret = irdma_cqp_update_sds(rf, e, hmc->sd_cnt);
	kfree(e);
	if (ret)
		goto err_free_sds;
	ret = irdma_cqp_shmc_pages_allocated(rf);
	if (ret)
		goto err_free_sds;

	rf->max_qp = hmc->obj[IRDMA_HMC_QP].cnt;
	rf->max_cq = hmc->obj[IRDMA_HMC_CQ].cnt;
	rf->max_mr = hmc->obj[IRDMA_HMC_MR].cnt;
	rf->max_ah = hmc->obj[IRDMA_HMC_FSIAV].cnt;
	rf->max_pd = BIT(18);
	goto out_free_buf;

err_free_sds:
	irdma_hmc_free_sds(rf);
out_free_buf:
	/* a query or commit that never completed may still write the buffer */
	if (ret == -ETIMEDOUT)
		irdma_dma_leak(rf, &buf, ret);
	else
		irdma_dma_free(rf, &buf);
	return ret;
}

/**
 * irdma_ccq_params() - CREATE_CQ parameters of the CCQ
 * @rf: RDMA function
 * @p: filled in
 */
static void irdma_ccq_params(struct irdma_pci_f *rf, struct irdma_cq_params *p)
{
	struct irdma_cq_ring *ccq = &rf->cqp.ccq;

	*p = (struct irdma_cq_params){
		.id = IRDMA_CCQ_ID,
		.size = ccq->size,
		.ctx = IRDMA_CCQ_ID,
		.ring_pa = ccq->mem.pa,
		.shadow_pa = ccq->shadow_pa,
		.ceq_id = 0,
		.ceq_valid = true,
		.check_overflow = true,
		.shadow_read_threshold = 16,
	};
}

/**
 * irdma_ccq_create() - create the control completion queue (CQ 0)
 * @rf: RDMA function
 *
 * The adapter writes the completion of this very command into the new
 * CCQ, so the CQP switches to CCQ polling before posting it.
 *
 * Return: 0 or a negative errno.
 */
static int irdma_ccq_create(struct irdma_pci_f *rf)
{
	struct irdma_cqp *cqp = &rf->cqp;
	struct irdma_cq_params p;
	int ret;

	ret = irdma_cq_ring_alloc(rf, &cqp->ccq, IRDMA_CCQ_ID, IRDMA_CCQ_SIZE);
	if (ret)
		return ret;
	irdma_ccq_params(rf, &p);
	cqp->ccq_ready = true;
	cqp->mode = IRDMA_CQP_MODE_CCQ_POLL;
	ret = irdma_cqp_create_cq(rf, &p);
	if (ret) {
		cqp->mode = IRDMA_CQP_MODE_REGS;
		cqp->ccq_ready = false;
		/* a timed-out create may still come to life */
		if (ret == -ETIMEDOUT)
			irdma_dma_leak(rf, &cqp->ccq.mem, ret);
		irdma_dma_free(rf, &cqp->ccq.mem);
	}
	return ret;
}

/**
 * irdma_ccq_destroy() - destroy the CCQ; the CQP goes back to register mode
 * @rf: RDMA function
 */
static void irdma_ccq_destroy(struct irdma_pci_f *rf)
{
	struct irdma_cqp *cqp = &rf->cqp;
	struct irdma_cq_params p;
	int ret;

	if (!cqp->ccq_ready)
		return;
	irdma_ccq_params(rf, &p);
	/* its own completion cannot land in a queue being destroyed */
	cqp->mode = IRDMA_CQP_MODE_REGS;
	ret = irdma_cqp_destroy_cq(rf, &p);
	cqp->ccq_ready = false;
	if (ret)
		irdma_dma_leak(rf, &cqp->ccq.mem, ret);
	else
		irdma_dma_free(rf, &cqp->ccq.mem);
}

/**
 * irdma_query_fw_version() - read the firmware version from the feature list
 * @rf: RDMA function
 *
 * Return: 0 or a negative errno.
 */
static int irdma_query_fw_version(struct irdma_pci_f *rf)
{
	struct irdma_dma_mem buf = {};
	__le64 *w;
	u32 i, cnt;
	int ret;

	if (rf->gen == IRDMA_GEN_1)
		return 0;	/* GEN_1 has no feature list */
	ret = irdma_dma_alloc(rf, &buf, IRDMA_FEAT_MAX * sizeof(__le64), 8);
	if (ret)
		return ret;
	ret = irdma_cqp_query_features(rf, &buf);
	if (ret)
		goto out;
	w = buf.va;
	cnt = le64_get_bits(w[IRDMA_FEAT_QW0], IRDMA_FEAT_QW0_COUNT);
	if (cnt < 2) {
		dev_err(rf->dma_dev, "feature list has %u entries\n", cnt);
		ret = -EIO;
		goto out;
	}
	for (i = 0; i < min_t(u32, cnt, IRDMA_FEAT_MAX); i++) {
		u64 v = le64_to_cpu(w[i]);

		if (FIELD_GET(IRDMA_FEAT_TYPE, v) != IRDMA_FEAT_TYPE_FW_INFO)
			continue;
		rf->fw_major = FIELD_GET(IRDMA_FEAT_FW_MAJOR, v);
		rf->fw_minor = FIELD_GET(IRDMA_FEAT_FW_MINOR, v);
	}
out:
	irdma_dma_free(rf, &buf);
	return ret;
}

/**
 * irdma_ctrl_init_hw() - bring the function up to a working control path
 * @rf: RDMA function, with bus fields and vectors set
 *
 * Context: process context, may sleep.
 * Return: 0 or a negative errno; on failure everything done is undone.
 */
int irdma_ctrl_init_hw(struct irdma_pci_f *rf)
{
	u32 nceq;
	int ret;

	ret = irdma_wait_fw_ready(rf);
	if (ret)
		return ret;
	ret = irdma_check_db_bar(rf);
	if (ret)
		return ret;
	ret = irdma_cqp_create(rf);
	if (ret)
		return ret;
	ret = irdma_hmc_setup(rf);
	if (ret)
		goto err_destroy_cqp;
	ret = irdma_ccq_create(rf);
	if (ret)
		goto err_free_hmc;
	ret = irdma_query_fw_version(rf);
	if (ret)
		goto err_destroy_ccq;

	nceq = rf->shared_vector0 ? rf->num_vectors : rf->num_vectors - 1;
	nceq = clamp_t(u32, min(nceq, rf->hmc.max_ceqs), 1, nceq);
	rf->ceqs = kcalloc(nceq, sizeof(*rf->ceqs), GFP_KERNEL);
	rf->max_ceqs = nceq;
	if (!rf->ceqs) {
		ret = -ENOMEM;
		goto err_destroy_ccq;
	}
	ret = irdma_ceq_create(rf, 0);
	if (ret)
		goto err_free_ceqs;
	rf->num_ceqs = 1;
	irdma_ccq_arm(rf);
	irdma_cqp_use_events(rf);
	return 0;

err_free_ceqs:
	kfree(rf->ceqs);
	rf->ceqs = NULL;
err_destroy_ccq:
	irdma_ccq_destroy(rf);
err_free_hmc:
	irdma_hmc_free_sds(rf);
err_destroy_cqp:
	irdma_cqp_destroy(rf);
	return ret;
}

/**
 * irdma_ctrl_deinit_hw() - undo irdma_ctrl_init_hw()
 * @rf: RDMA function
 *
 * Context: process context, may sleep.
 */
void irdma_ctrl_deinit_hw(struct irdma_pci_f *rf)
{
	if (rf->num_ceqs) {
		/* the last CEQ goes; CCQ completions are polled from here */
		rf->cqp.mode = IRDMA_CQP_MODE_CCQ_POLL;
		irdma_ceq_destroy(rf, &rf->ceqs[0]);
		rf->num_ceqs = 0;
	}
	kfree(rf->ceqs);
	rf->ceqs = NULL;
	irdma_ccq_destroy(rf);
	irdma_hmc_free_sds(rf);
	irdma_cqp_destroy(rf);
	irdma_free_vector(rf, &rf->vectors[0]);
	kfree(rf->vectors);
	rf->vectors = NULL;
}

/* transmit scheduler nodes of the function: root, VSI, one leaf (TC 0) */
#define IRDMA_WS_ROOT_ID	0
#define IRDMA_WS_VSI_ID		1
#define IRDMA_WS_LEAF_ID	2

/**
 * irdma_ws_node() - build and issue one WORK_SCHED_NODE command
 * @rf: RDMA function
 * @id: node id
 * @op: IRDMA_WS_NODE_ADD, _MODIFY or _DELETE
 * @enable: enable the node
 * @qs_handle: receives the queue-set handle of a leaf add, or NULL
 *
 * Return: 0 or a negative errno.
 */
static int irdma_ws_node(struct irdma_pci_f *rf, u16 id, u8 op, bool enable,
			 u16 *qs_handle)
{
	struct irdma_ws_params p = {
		.id = id,
		.parent = id == IRDMA_WS_ROOT_ID ? IRDMA_WS_ROOT_ID : id - 1,
		.op = op,
		.tc = 0,
		.prio_type = IRDMA_WS_PRIO_WRR,
		.leaf = id == IRDMA_WS_LEAF_ID,
		.enable = enable,
		.weight = 1,
		.vsi = 0,
	};

	return irdma_cqp_ws_node(rf, &p, qs_handle);
}

/**
 * irdma_ws_setup() - create the scheduler nodes every QP needs (GEN_2)
 * @rf: RDMA function
 *
 * The leaf is added disabled, which returns its queue-set handle, and
 * enabled once the handle is known.
 *
 * Return: 0 or a negative errno.
 */
static int irdma_ws_setup(struct irdma_pci_f *rf)
{
	int ret;

	if (rf->gen == IRDMA_GEN_1)
		return 0;
	ret = irdma_ws_node(rf, IRDMA_WS_ROOT_ID, IRDMA_WS_NODE_ADD, true, NULL);
	if (ret)
		return ret;
	ret = irdma_ws_node(rf, IRDMA_WS_VSI_ID, IRDMA_WS_NODE_ADD, true, NULL);
	if (ret)
		goto err_del_root;
	ret = irdma_ws_node(rf, IRDMA_WS_LEAF_ID, IRDMA_WS_NODE_ADD, false,
			    &rf->qs_handle);
	if (ret)
		goto err_del_vsi;
	/* the LAN driver attaches the queue set to its scheduler tree */
	if (rf->bus_ops->qset) {
		ret = rf->bus_ops->qset(rf, rf->qs_handle, 0, true);
		if (ret)
			goto err_del_leaf;
	}
	ret = irdma_ws_node(rf, IRDMA_WS_LEAF_ID, IRDMA_WS_NODE_MODIFY, true,
			    NULL);
	if (ret)
		goto err_del_qset;
	rf->ws_up = true;
	return 0;

err_del_qset:
	if (rf->bus_ops->qset)
		rf->bus_ops->qset(rf, rf->qs_handle, 0, false);
err_del_leaf:
	irdma_ws_node(rf, IRDMA_WS_LEAF_ID, IRDMA_WS_NODE_DELETE, false, NULL);
err_del_vsi:
	irdma_ws_node(rf, IRDMA_WS_VSI_ID, IRDMA_WS_NODE_DELETE, false, NULL);
err_del_root:
	irdma_ws_node(rf, IRDMA_WS_ROOT_ID, IRDMA_WS_NODE_DELETE, false, NULL);
	return ret;
}

/**
 * irdma_ws_teardown() - delete the scheduler nodes
 * @rf: RDMA function
 */
static void irdma_ws_teardown(struct irdma_pci_f *rf)
{
	if (!rf->ws_up)
		return;
	if (rf->bus_ops->qset)
		rf->bus_ops->qset(rf, rf->qs_handle, 0, false);
	irdma_ws_node(rf, IRDMA_WS_LEAF_ID, IRDMA_WS_NODE_DELETE, false, NULL);
	irdma_ws_node(rf, IRDMA_WS_VSI_ID, IRDMA_WS_NODE_DELETE, false, NULL);
	irdma_ws_node(rf, IRDMA_WS_ROOT_ID, IRDMA_WS_NODE_DELETE, false, NULL);
	rf->ws_up = false;
}

/**
 * irdma_rt_init_hw() - runtime resources on top of the control path
 * @rf: RDMA function
 *
 * The AEQ, the transmit scheduler nodes, the driver's tables of adapter
 * state (ARP cache, ports) and the ILQ.
 *
 * Context: process context, may sleep.
 * Return: 0 or a negative errno.
 */
int irdma_rt_init_hw(struct irdma_pci_f *rf)
{
	int ret;

	ret = irdma_aeq_create(rf);
	if (ret)
		return ret;
	/* one completion vector per further CEQ */
	for (; rf->num_ceqs < rf->max_ceqs; rf->num_ceqs++) {
		ret = irdma_ceq_create(rf, rf->num_ceqs);
		if (ret)
			goto err_destroy_ceqs;
	}
	ret = irdma_ws_setup(rf);
	if (ret)
		goto err_destroy_ceqs;
	ret = irdma_hw_tables_alloc(rf);
	if (ret)
		goto err_ws_teardown;
	ret = irdma_ilq_create(rf);
	if (ret)
		goto err_free_tables;
	return 0;

err_free_tables:
	irdma_hw_tables_free(rf);
err_ws_teardown:
	irdma_ws_teardown(rf);
err_destroy_ceqs:
	irdma_ceqs_destroy_extra(rf);
	irdma_aeq_destroy(rf);
	return ret;
}

/**
 * irdma_rt_deinit_hw() - undo irdma_rt_init_hw()
 * @rf: RDMA function
 *
 * Context: process context, may sleep.
 */
void irdma_rt_deinit_hw(struct irdma_pci_f *rf)
{
	irdma_ilq_destroy(rf);
	irdma_hw_tables_free(rf);
	irdma_ws_teardown(rf);
	irdma_ceqs_destroy_extra(rf);
	irdma_aeq_destroy(rf);
}

/**
 * irdma_hw_set_bus() - adopt the resources of a binding
 * @rf: RDMA function
 * @info: binding resources
 *
 * Return: 0 or a negative errno.
 */
int irdma_hw_set_bus(struct irdma_pci_f *rf, const struct irdma_bus_info *info)
{
	rf->dma_dev = info->dma_dev;
	rf->parent = info->parent;
	rf->netdev = info->netdev;
	rf->bus_ops = info->ops;
	rf->bus_priv = info->priv;
	rf->gen = info->gen;
	rf->pf_id = info->pf_id;
	rf->part_id = info->part_id;
	rf->regs = irdma_reg_table(info->gen);
	rf->db_pfn = info->db_pfn;
	rf->ibdev_name = info->ibdev_name;
	rf->user_removable = info->user_removable;
	return irdma_setup_vectors(rf, info);
}
