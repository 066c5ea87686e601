// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * irdma_sim - what every command's executor shares: refusing a command
 * with the model's error codes, and the checks of fields many commands
 * carry.  The CQP engine (cqp.c) calls the executors; they and the engine
 * call these.
 */

#include "sim.h"

/**
 * irdma_sim_cmd_fail() - complete a command with a "malformed WQE" error
 * @sim: instance
 * @cmd: command being executed
 * @minor: IRDMA_SIM_CQP_MINOR_* reason
 * @fmt: printf format of the explanation (rate-limited, names the opcode)
 */
void irdma_sim_cmd_fail(struct irdma_sim *sim, struct irdma_sim_cmd *cmd,
			u16 minor, const char *fmt, ...)
{
	struct va_format vaf;
	va_list args;

	cmd->major = IRDMA_SIM_CQP_MAJOR_BAD_WQE;
	cmd->minor = minor;

	va_start(args, fmt);
	vaf.fmt = fmt;
	vaf.va = &args;
	dev_err_ratelimited(&sim->dev, "CQP %s (op %#x) at WQE %u failed: %pV",
			    cmd->name, cmd->op, cmd->idx, &vaf);
	va_end(args);
}

/**
 * irdma_sim_fn_id_ok() - check an HMC function id field
 * @sim: instance
 * @cmd: command being executed (failed when the id is wrong)
 * @fn_id: HMC function id from the WQE
 *
 * Return: true when @fn_id is this PF's.
 */
bool irdma_sim_fn_id_ok(struct irdma_sim *sim, struct irdma_sim_cmd *cmd,
			u32 fn_id)
{
	if (fn_id == sim->sadev.pf_id)
		return true;
	irdma_sim_cmd_fail(sim, cmd, IRDMA_SIM_CQP_MINOR_BAD_ID,
			   "HMC function %u is not this PF (%u)\n", fn_id,
			   sim->sadev.pf_id);
	return false;
}
