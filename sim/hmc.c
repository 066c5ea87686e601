// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * irdma_sim - the function's private memory (FPM/HMC): QUERY_FPM_VAL,
 * COMMIT_FPM_VAL, UPDATE_PE_SDS, SHMC_PAGES_ALLOCATED.
 *
 * The model keeps its own object state in kernel memory, so HMC backing
 * pages matter to it only as the home of PBLEs and as a check that the
 * driver programmed what it committed.  The object sizes it advertises are
 * therefore small, so that what the driver's sizing commits is cheap to
 * back (a dozen MB at bring-up), while the maxima are E810-like.  The
 * driver's QP count follows from the Q1 maximum (Q1 = 2 x 127 IRD x QPs on
 * iWARP): 8192 QPs.
 *
 * Buffer layouts.  The query buffer starts with the SD word and has no
 * APBVT word; both buffers have a reserved/misc word at 120; objects from
 * RRF on sit one word after their enum value.  The model keeps its own
 * table of the words (below) instead of defs.h's irdma_fpm_query_word()
 * and irdma_fpm_commit_word(), so that a mistake in those shows as a
 * driver/model mismatch rather than being shared by both.
 */

#include <linux/bitfield.h>
#include <linux/slab.h>

#include "sim.h"

/* misc word of the query buffer */
#define IRDMA_SIM_HT_MULTIPLIER		2
#define IRDMA_SIM_TIMER_BUCKET		16
/* QPs the advertised Q1 maximum leaves the driver */
#define IRDMA_SIM_Q1_QPS		8192
/* fixed object sizes the driver assumes */
#define IRDMA_SIM_APBVT_SIZE		8192
#define IRDMA_SIM_FL_SIZE		4
#define IRDMA_SIM_PBLE_SIZE		8

/**
 * struct irdma_sim_fpm_def - what QUERY_FPM_VAL reports for an object type
 * @qword: word of the query buffer (0: not in the buffer)
 * @cword: word of the commit buffer (0 with @cnt_mask 0: not committed)
 * @max: maximum count
 * @log2: log2 of the object size (generic words)
 * @block: block size written instead of the size (free-list words)
 * @size: object size in bytes when not 1 << @log2 (fixed by the driver)
 * @cnt_mask: count field of the commit word
 */
struct irdma_sim_fpm_def {
	u8 qword;
	u8 cword;
	u32 max;
	u8 log2;
	u32 block;
	u32 size;
	u64 cnt_mask;
};

#define IRDMA_SIM_FPM_GENERIC(_q, _c, _max, _log2) \
	{ .qword = _q, .cword = _c, .max = _max, .log2 = _log2, \
	  .cnt_mask = IRDMA_FPM_COMMIT_CNT }
#define IRDMA_SIM_FPM_FL(_q, _c, _max, _block) \
	{ .qword = _q, .cword = _c, .max = _max, .block = _block, \
	  .size = IRDMA_SIM_FL_SIZE, .cnt_mask = IRDMA_FPM_COMMIT_CNT }

static const struct irdma_sim_fpm_def irdma_sim_fpm[IRDMA_HMC_OBJ_NUM] = {
	[IRDMA_HMC_QP] = { .qword = 1, .cword = 0, .max = 262144, .log2 = 8,
			   .size = 256, .cnt_mask = IRDMA_FPM_COMMIT_QP_CNT },
	[IRDMA_HMC_CQ] = { .qword = 2, .cword = 1, .max = 524288, .log2 = 5,
			   .size = 32, .cnt_mask = IRDMA_FPM_COMMIT_GEN2_CQ_CNT },
	[IRDMA_HMC_RSVD] = { .qword = 3, .cword = 2 },
	[IRDMA_HMC_HTE] = IRDMA_SIM_FPM_GENERIC(4, 3, 1048576, 4),
	[IRDMA_HMC_ARP] = IRDMA_SIM_FPM_GENERIC(5, 4, 2048, 4),
	[IRDMA_HMC_APBVT] = { .qword = 0, .cword = 5, .max = 1,
			      .size = IRDMA_SIM_APBVT_SIZE,
			      .cnt_mask = IRDMA_FPM_COMMIT_CNT },
	[IRDMA_HMC_MR] = IRDMA_SIM_FPM_GENERIC(6, 6, 262144, 3),
	[IRDMA_HMC_XF] = IRDMA_SIM_FPM_GENERIC(7, 7, 4 * 4 * 262144, 3),
	[IRDMA_HMC_XFFL] = IRDMA_SIM_FPM_FL(8, 8, 4 * 262144, 4),
	[IRDMA_HMC_Q1] = IRDMA_SIM_FPM_GENERIC(9, 9,
					       2 * IRDMA_GEN2_MAX_IRD *
					       IRDMA_SIM_Q1_QPS, 1),
	[IRDMA_HMC_Q1FL] = IRDMA_SIM_FPM_FL(10, 10,
					    2 * IRDMA_GEN2_MAX_IRD *
					    IRDMA_SIM_Q1_QPS / 64, 64),
	[IRDMA_HMC_TIMER] = IRDMA_SIM_FPM_GENERIC(11, 11,
						  (262144 / 512 + 1) *
						  IRDMA_SIM_TIMER_BUCKET, 6),
	[IRDMA_HMC_FSIMC] = IRDMA_SIM_FPM_GENERIC(12, 12, 256, 6),
	[IRDMA_HMC_FSIAV] = IRDMA_SIM_FPM_GENERIC(13, 13, 16384, 5),
	[IRDMA_HMC_PBLE] = { .qword = 14, .cword = 14, .max = 1U << 24,
			     .size = IRDMA_SIM_PBLE_SIZE,
			     .cnt_mask = IRDMA_FPM_COMMIT_CNT },
	[IRDMA_HMC_RRF] = IRDMA_SIM_FPM_GENERIC(16, 16, 32 * 262144, 1),
	[IRDMA_HMC_RRFFL] = IRDMA_SIM_FPM_FL(17, 17, 32 * 262144 / 64, 64),
	[IRDMA_HMC_HDR] = IRDMA_SIM_FPM_GENERIC(18, 18, 262144, 5),
	[IRDMA_HMC_MD] = IRDMA_SIM_FPM_GENERIC(19, 19, 0, 0),
	[IRDMA_HMC_OOISC] = IRDMA_SIM_FPM_GENERIC(20, 20, 0, 0),
	[IRDMA_HMC_OOISCFFL] = IRDMA_SIM_FPM_FL(21, 21, 0, 0),
};

/**
 * irdma_sim_obj_id_ok() - check an HMC object index named by a command
 * @sim: instance
 * @cmd: command (failed when the index is not usable)
 * @type: object type
 * @id: object index
 *
 * Context: the CQP worker.
 * Return: true when the HMC is set up, @id is below the committed count
 * and the object's FPM range has backing pages.
 */
bool irdma_sim_obj_id_ok(struct irdma_sim *sim, struct irdma_sim_cmd *cmd,
			 enum irdma_hmc_obj type, u32 id)
{
	const struct irdma_sim_hmc *hmc = &sim->hmc;

	if (!hmc->committed || !hmc->pages_allocated) {
		irdma_sim_cmd_fail(sim, cmd, IRDMA_SIM_CQP_MINOR_BAD_ORDER,
				   "object %u of HMC type %u before the HMC is set up\n",
				   id, type);
		return false;
	}
	if (id >= hmc->obj[type].cnt) {
		irdma_sim_cmd_fail(sim, cmd, IRDMA_SIM_CQP_MINOR_BAD_ID,
				   "object %u of HMC type %u beyond the committed %u\n",
				   id, type, hmc->obj[type].cnt);
		return false;
	}
	if (!irdma_sim_hmc_backed(sim, type, id)) {
		irdma_sim_cmd_fail(sim, cmd, IRDMA_SIM_CQP_MINOR_BAD_ADDR,
				   "object %u of HMC type %u has no backing SD\n",
				   id, type);
		return false;
	}
	return true;
}

/**
 * irdma_sim_fpm_buf() - the 176-byte FPM buffer of a QUERY/COMMIT command
 * @sim: instance
 * @cmd: command (failed when the buffer is not usable)
 *
 * Return: the buffer or NULL.
 */
static __le64 *irdma_sim_fpm_buf(struct irdma_sim *sim,
				 struct irdma_sim_cmd *cmd)
{
	u64 pa = irdma_sim_qw(cmd, IRDMA_CQP_FPM_BUF_PA);
	__le64 *buf;

	if (!irdma_sim_fn_id_ok(sim, cmd,
				FIELD_GET(IRDMA_CQP_FPM_QW2_HMC_FN_ID,
					  irdma_sim_qw(cmd, IRDMA_CQP_FPM_QW2))))
		return NULL;
	buf = IS_ALIGNED(pa, 4) ? irdma_sim_dma_va(sim, pa, IRDMA_FPM_BUF_SIZE) :
				  NULL;
	if (!buf)
		irdma_sim_cmd_fail(sim, cmd, IRDMA_SIM_CQP_MINOR_BAD_ADDR,
				   "buffer %#llx not usable\n", pa);
	return buf;
}

/**
 * irdma_sim_op_query_fpm() - QUERY_FPM_VAL: report SDs, maxima and sizes
 * @sim: instance
 * @cmd: command
 */
void irdma_sim_op_query_fpm(struct irdma_sim *sim, struct irdma_sim_cmd *cmd)
{
	const struct irdma_sim_fpm_def *def;
	__le64 *buf;
	u64 val;
	u32 i;

	buf = irdma_sim_fpm_buf(sim, cmd);
	if (!buf)
		return;
	memset(buf, 0, IRDMA_FPM_BUF_SIZE);
	buf[IRDMA_FPM_QUERY_QW0] =
		cpu_to_le64(FIELD_PREP(IRDMA_FPM_QUERY_QW0_FIRST_SD, 0) |
			    FIELD_PREP(IRDMA_FPM_QUERY_QW0_MAX_SDS,
				       IRDMA_SIM_MAX_SDS));
	for (i = 0; i < IRDMA_HMC_OBJ_NUM; i++) {
		def = &irdma_sim_fpm[i];
		if (!def->qword)
			continue;
		val = FIELD_PREP(IRDMA_FPM_QUERY_MAX_CNT, def->max);
		if (def->block)
			val |= FIELD_PREP(IRDMA_FPM_QUERY_BLOCK_SIZE, def->block);
		else if (i != IRDMA_HMC_PBLE && i != IRDMA_HMC_RSVD && def->max)
			val |= FIELD_PREP(IRDMA_FPM_QUERY_LOG2_SIZE, def->log2);
		buf[def->qword] = cpu_to_le64(val);
	}
	buf[IRDMA_FPM_QUERY_MISC] =
		cpu_to_le64(FIELD_PREP(IRDMA_FPM_QUERY_MISC_MAX_CEQS,
				       IRDMA_SIM_MAX_CEQS) |
			    FIELD_PREP(IRDMA_FPM_QUERY_MISC_HTMULT,
				       IRDMA_SIM_HT_MULTIPLIER) |
			    FIELD_PREP(IRDMA_FPM_QUERY_MISC_TIMER_BKT,
				       IRDMA_SIM_TIMER_BUCKET));
}

/**
 * irdma_sim_op_commit_fpm() - COMMIT_FPM_VAL: adopt counts, assign bases
 * @sim: instance
 * @cmd: command
 *
 * Bases are assigned in object order, each 512-byte aligned, with PBLEs
 * last (they are backed lazily by the driver); the counts and bases are
 * written back.  The committed counts bound every object id afterwards.
 */
void irdma_sim_op_commit_fpm(struct irdma_sim *sim, struct irdma_sim_cmd *cmd)
{
	struct irdma_sim_hmc_obj obj[IRDMA_HMC_OBJ_NUM] = {};
	struct irdma_sim_hmc *hmc = &sim->hmc;
	u32 len = FIELD_GET(IRDMA_CQP_FPM_QW3_BUF_LEN,
			    irdma_sim_qw(cmd, IRDMA_CQP_WQE_HDR));
	const struct irdma_sim_fpm_def *def;
	struct irdma_sim_arp *arp = NULL;
	unsigned long flags;
	u64 raw, base = 0;
	__le64 *buf;
	u32 i;

	buf = irdma_sim_fpm_buf(sim, cmd);
	if (!buf)
		return;
	if (len < IRDMA_FPM_BUF_SIZE) {
		irdma_sim_cmd_fail(sim, cmd, IRDMA_SIM_CQP_MINOR_BAD_SIZE,
				   "buffer length %u\n", len);
		return;
	}
	if (hmc->committed) {
		irdma_sim_cmd_fail(sim, cmd, IRDMA_SIM_CQP_MINOR_BAD_ORDER,
				   "the HMC is already committed\n");
		return;
	}
	for (i = 0; i < IRDMA_HMC_OBJ_NUM; i++) {
		def = &irdma_sim_fpm[i];
		obj[i].max = def->max;
		obj[i].size = def->size ? def->size : 1U << def->log2;
		if (!def->cnt_mask)
			continue;
		raw = le64_to_cpu(buf[def->cword]) & IRDMA_FPM_COMMIT_CNT;
		obj[i].cnt = i == IRDMA_HMC_APBVT ? 1 : raw;
		if (obj[i].cnt > def->max) {
			irdma_sim_cmd_fail(sim, cmd, IRDMA_SIM_CQP_MINOR_BAD_SIZE,
					   "HMC type %u count %u above the maximum %u\n",
					   i, obj[i].cnt, def->max);
			return;
		}
	}
	/* everything but PBLEs, in order, then PBLEs */
	for (i = 0; i < IRDMA_HMC_OBJ_NUM; i++) {
		if (i == IRDMA_HMC_PBLE)
			continue;
		obj[i].base = base;
		base += round_up((u64)obj[i].cnt * obj[i].size,
				 IRDMA_FPM_BASE_UNIT);
	}
	obj[IRDMA_HMC_PBLE].base = base;
	base += round_up((u64)obj[IRDMA_HMC_PBLE].cnt * IRDMA_SIM_PBLE_SIZE,
			 IRDMA_FPM_BASE_UNIT);
	if (base > (u64)IRDMA_SIM_MAX_SDS * IRDMA_HMC_SD_SIZE) {
		irdma_sim_cmd_fail(sim, cmd, IRDMA_SIM_CQP_MINOR_NO_RESOURCE,
				   "%llu bytes of FPM space, %u SDs available\n",
				   base, IRDMA_SIM_MAX_SDS);
		return;
	}
	if (obj[IRDMA_HMC_ARP].cnt) {
		arp = kvcalloc(obj[IRDMA_HMC_ARP].cnt, sizeof(*arp), GFP_KERNEL);
		if (!arp) {
			irdma_sim_cmd_fail(sim, cmd, IRDMA_SIM_CQP_MINOR_NO_RESOURCE,
					   "out of memory\n");
			return;
		}
	}

	for (i = 0; i < IRDMA_HMC_OBJ_NUM; i++) {
		def = &irdma_sim_fpm[i];
		if (!def->cnt_mask)
			continue;
		buf[def->cword] =
			cpu_to_le64((obj[i].cnt & def->cnt_mask) |
				     FIELD_PREP(IRDMA_FPM_COMMIT_BASE,
						obj[i].base / IRDMA_FPM_BASE_UNIT));
	}
	buf[2] = 0;
	buf[15] = 0;

	spin_lock_irqsave(&sim->lock, flags);
	memcpy(hmc->obj, obj, sizeof(obj));
	hmc->sd_cnt = DIV_ROUND_UP(base, IRDMA_HMC_SD_SIZE);
	hmc->committed = true;
	sim->arp = arp;
	sim->narp = obj[IRDMA_HMC_ARP].cnt;
	spin_unlock_irqrestore(&sim->lock, flags);
}

/**
 * struct irdma_sim_sd_entry - one SD command of UPDATE_PE_SDS
 * @cmd: command word (index, partition select, write)
 * @data: data word (address, page count, type, valid)
 */
struct irdma_sim_sd_entry {
	u64 cmd;
	u64 data;
};

/**
 * irdma_sim_sd_check() - check one SD entry
 * @sim: instance
 * @cmd: command (failed when the entry is bad)
 * @e: entry
 *
 * Return: true when @e can be applied.
 */
static bool irdma_sim_sd_check(struct irdma_sim *sim, struct irdma_sim_cmd *cmd,
			       const struct irdma_sim_sd_entry *e)
{
	u32 idx = FIELD_GET(IRDMA_SD_CMD_IDX, e->cmd);
	u64 pa = e->data & IRDMA_SD_DATA_PA;
	u32 bp = FIELD_GET(IRDMA_SD_DATA_BP_COUNT, e->data);
	bool direct = e->data & IRDMA_SD_DATA_DIRECT;

	if (!(e->cmd & IRDMA_SD_CMD_WRITE) || idx >= sim->hmc.sd_cnt) {
		irdma_sim_cmd_fail(sim, cmd, IRDMA_SIM_CQP_MINOR_BAD_ID,
				   "SD command %#llx (index %u of %u)\n", e->cmd,
				   idx, sim->hmc.sd_cnt);
		return false;
	}
	if (!(e->data & IRDMA_SD_DATA_VALID))
		return true;
	if (!direct && (!bp || bp > IRDMA_HMC_PD_PAGES)) {
		irdma_sim_cmd_fail(sim, cmd, IRDMA_SIM_CQP_MINOR_BAD_SIZE,
				   "SD %u: %u backing pages\n", idx, bp);
		return false;
	}
	if (!irdma_sim_dma_va(sim, pa, direct ? IRDMA_HMC_SD_SIZE :
				    IRDMA_HW_PAGE_SIZE)) {
		irdma_sim_cmd_fail(sim, cmd, IRDMA_SIM_CQP_MINOR_BAD_ADDR,
				   "SD %u: %s page %#llx not in RAM\n", idx,
				   direct ? "2 MiB" : "PD", pa);
		return false;
	}
	return true;
}

/**
 * irdma_sim_op_update_sds() - UPDATE_PE_SDS: program segment descriptors
 * @sim: instance
 * @cmd: command
 *
 * Entries: QW0/QW1, QW4/QW5 and QW6/QW7 when their valid bit is set, then
 * the overflow area (16-byte command/data pairs at the address in QW2).
 * All entries are checked before any is applied.
 */
void irdma_sim_op_update_sds(struct irdma_sim *sim, struct irdma_sim_cmd *cmd)
{
	struct irdma_sim_sd_entry e[IRDMA_SDS_PER_WQE_MAX];
	struct irdma_sim_hmc *hmc = &sim->hmc;
	u64 qw2 = irdma_sim_qw(cmd, IRDMA_CQP_SDS_QW2);
	u32 ovf = FIELD_GET(IRDMA_CQP_SDS_QW3_OVERFLOW_CNT,
			    irdma_sim_qw(cmd, IRDMA_CQP_WQE_HDR));
	struct irdma_sim_sd *sd;
	unsigned long flags;
	u32 n = 0, i, idx;
	__le64 *area;

	if (!irdma_sim_fn_id_ok(sim, cmd,
				FIELD_GET(IRDMA_CQP_SDS_QW2_HMC_FN_ID, qw2)))
		return;
	if (!hmc->committed) {
		irdma_sim_cmd_fail(sim, cmd, IRDMA_SIM_CQP_MINOR_BAD_ORDER,
				   "SDs before COMMIT_FPM_VAL\n");
		return;
	}
	e[n].cmd = irdma_sim_qw(cmd, IRDMA_CQP_SDS_ENTRY0_CMD);
	e[n++].data = irdma_sim_qw(cmd, IRDMA_CQP_SDS_ENTRY0_DATA);
	if (irdma_sim_qw(cmd, IRDMA_CQP_SDS_ENTRY1_CMD) &
	    IRDMA_CQP_SDS_ENTRY_VALID) {
		e[n].cmd = irdma_sim_qw(cmd, IRDMA_CQP_SDS_ENTRY1_CMD) &
			   ~IRDMA_CQP_SDS_ENTRY_VALID;
		e[n++].data = irdma_sim_qw(cmd, IRDMA_CQP_SDS_ENTRY1_DATA);
	}
	if (irdma_sim_qw(cmd, IRDMA_CQP_SDS_ENTRY2_CMD) &
	    IRDMA_CQP_SDS_ENTRY_VALID) {
		e[n].cmd = irdma_sim_qw(cmd, IRDMA_CQP_SDS_ENTRY2_CMD) &
			   ~IRDMA_CQP_SDS_ENTRY_VALID;
		e[n++].data = irdma_sim_qw(cmd, IRDMA_CQP_SDS_ENTRY2_DATA);
	}
	if (ovf) {
		if (n != IRDMA_SDS_IN_WQE || n + ovf > IRDMA_SDS_PER_WQE_MAX) {
			irdma_sim_cmd_fail(sim, cmd, IRDMA_SIM_CQP_MINOR_BAD_SIZE,
					   "%u entries in the WQE, %u in the overflow area\n",
					   n, ovf);
			return;
		}
		area = irdma_sim_dma_va(sim, qw2 & IRDMA_CQP_SDS_QW2_OVERFLOW_PA,
					ovf * 2 * sizeof(*area));
		if (!area) {
			irdma_sim_cmd_fail(sim, cmd, IRDMA_SIM_CQP_MINOR_BAD_ADDR,
					   "overflow area %#llx not in RAM\n",
					   qw2 & IRDMA_CQP_SDS_QW2_OVERFLOW_PA);
			return;
		}
		for (i = 0; i < ovf; i++, n++) {
			e[n].cmd = le64_to_cpu(READ_ONCE(area[2 * i]));
			e[n].data = le64_to_cpu(READ_ONCE(area[2 * i + 1]));
		}
	}
	for (i = 0; i < n; i++)
		if (!irdma_sim_sd_check(sim, cmd, &e[i]))
			return;

	spin_lock_irqsave(&sim->lock, flags);
	for (i = 0; i < n; i++) {
		idx = FIELD_GET(IRDMA_SD_CMD_IDX, e[i].cmd);
		sd = &hmc->sd[idx];
		sd->valid = e[i].data & IRDMA_SD_DATA_VALID;
		sd->direct = e[i].data & IRDMA_SD_DATA_DIRECT;
		sd->pa = sd->valid ? e[i].data & IRDMA_SD_DATA_PA : 0;
		sd->bp_cnt = FIELD_GET(IRDMA_SD_DATA_BP_COUNT, e[i].data);
		hmc->sd_updates++;
	}
	spin_unlock_irqrestore(&sim->lock, flags);
}

/**
 * irdma_sim_op_shmc_pages() - SHMC_PAGES_ALLOCATED: bring-up SDs are done
 * @sim: instance
 * @cmd: command
 */
void irdma_sim_op_shmc_pages(struct irdma_sim *sim, struct irdma_sim_cmd *cmd)
{
	u64 qw2 = irdma_sim_qw(cmd, IRDMA_CQP_SHMC_QW2);
	struct irdma_sim_hmc *hmc = &sim->hmc;
	unsigned long flags;

	if (!irdma_sim_fn_id_ok(sim, cmd,
				FIELD_GET(IRDMA_CQP_SHMC_QW2_HMC_FN_ID, qw2)))
		return;
	if (!hmc->committed) {
		irdma_sim_cmd_fail(sim, cmd, IRDMA_SIM_CQP_MINOR_BAD_ORDER,
				   "before COMMIT_FPM_VAL\n");
		return;
	}
	spin_lock_irqsave(&sim->lock, flags);
	hmc->pages_allocated = true;
	spin_unlock_irqrestore(&sim->lock, flags);
}

/**
 * irdma_sim_pdinv() - PFHMC_PDINV written
 * @sim: instance
 * @val: SD index, partition select, PD index
 *
 * The model reads PD entries from memory at every lookup and caches
 * nothing, so there is nothing to invalidate; the write is counted.
 */
void irdma_sim_pdinv(struct irdma_sim *sim, u32 val)
{
	lockdep_assert_held(&sim->lock);

	sim->hmc.pdinv++;
	if (FIELD_GET(IRDMA_PDINV_SDIDX, val) >= sim->hmc.sd_cnt)
		dev_dbg_ratelimited(&sim->dev, "PDINV %#x beyond the SDs\n", val);
}

/**
 * irdma_sim_hmc_reset() - forget the HMC of an older CQP generation
 * @sim: instance
 */
void irdma_sim_hmc_reset(struct irdma_sim *sim)
{
	lockdep_assert_held(&sim->lock);

	memset(&sim->hmc, 0, sizeof(sim->hmc));
}
