// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * irdma_sim - watching the user doorbell page for stores.
 *
 * On silicon, libirdma's store of a QP id into the doorbell page is a
 * posted write that the adapter sees as it lands.  The model's doorbell
 * page is RAM, and a store to RAM tells nobody: the poller (qp.c) has to
 * look at the word, from a thread that competes for a CPU with the
 * applications spinning on their CQs.  So the model sets a hardware write
 * watchpoint (a perf breakpoint event, HW_BREAKPOINT_W, 4 bytes) on the
 * doorbell word of every mapping the driver reports (ops->watch_db, from
 * its mmap handler), in the task that mapped it; threads that task
 * creates later inherit it.  The CPU raises a debug trap right after the
 * store.  The trap handler, with interrupts off, queues task work on the
 * storing task (irdma_sim_watch_run()), which runs before the task
 * returns to user space: it takes the word and runs the engines of the
 * QPs it rang (irdma_sim_iw_db_run()), in the poster's own context, as
 * soft-iWARP's post_send system call does.  One such run per watch is
 * pending at a time; a store that finds one pending (another thread's)
 * wakes the poller instead.
 *
 * Nothing depends on the watch for correctness: a store it does not
 * cover (a thread that existed before the mmap, a task whose debug
 * registers are taken, the db_watch parameter off) is found by the
 * poller's own looks, which stay in their fast mode while such stores
 * come.
 *
 * Locking.  The perf core takes the mm's lock inside a task's perf
 * context mutex (setting address filters), while the driver tells of a
 * mapping from its mmap handler, with the mm's lock held for writing,
 * and may free the mapping's entry with it held too.  So neither the
 * breakpoint's registration nor its unregistration happens there: the
 * registration is task work queued on the mapping task
 * (irdma_sim_watch_register()), which runs once the mmap system call has
 * dropped the lock and before the task returns to user space, so before
 * it can store to the page; the unregistration runs from the instance's
 * workqueue.
 *
 * Lifetime.  A watch ends when the driver frees the mapping's entry.  The
 * free (irdma_sim_watch_free()) first waits for the registration's task
 * work, which the mapping task runs on its way out of the mmap system
 * call (or out of the kernel, when it exits); then it unregisters the
 * event, after which no trap queues a run, and waits for a queued run to
 * finish (its task is on its way back to user space or out of the
 * kernel, so that wait is short).  The task work's last instructions may
 * still execute after it said it finished; the module's exit waits for
 * an RCU-tasks grace period, after which no task is inside the module's
 * text.
 */

#include <linux/hw_breakpoint.h>
#include <linux/module.h>
#include <linux/perf_event.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/task_work.h>
#include <linux/wait_bit.h>

#include "sim.h"

static bool db_watch = true;
module_param(db_watch, bool, 0644);
MODULE_PARM_DESC(db_watch,
		 "watch user doorbell stores with a hardware watchpoint (default: on; off: the poller alone finds them; read when a context maps the page)");

/* irdma_sim_watch.flags: a run is queued or running */
#define IRDMA_SIM_WATCH_QUEUED	0
/* irdma_sim_watch.flags: the registration's task work has not finished */
#define IRDMA_SIM_WATCH_REGISTERING	1

/* a watch was ever made: the module's exit waits for its runs' last steps */
static bool irdma_sim_watch_used;

/**
 * struct irdma_sim_watch - the watch of one doorbell page mapping
 * @sim: instance the page belongs to
 * @uaddr: the doorbell word's user address
 * @bp: the breakpoint event (and, inherited, its copies in later threads);
 *	NULL until registered, or when registration failed
 * @reg: the task work that registers @bp (irdma_sim_watch_register())
 * @run: the task work that takes the doorbell (irdma_sim_watch_run())
 * @flags: IRDMA_SIM_WATCH_QUEUED, IRDMA_SIM_WATCH_REGISTERING
 * @free_work: unregisters and frees the watch (irdma_sim_unwatch_db())
 */
struct irdma_sim_watch {
	struct irdma_sim *sim;
	unsigned long uaddr;
	struct perf_event *bp;
	struct callback_head reg;
	struct callback_head run;
	unsigned long flags;
	struct work_struct free_work;
};

/**
 * irdma_sim_watch_done() - task work of the watch finished, or never ran
 * @w: watch; may be freed once this cleared the bit (wake_up_var() only
 *	hashes its address)
 * @bit: IRDMA_SIM_WATCH_QUEUED (a run) or IRDMA_SIM_WATCH_REGISTERING
 *
 * What the work wrote before is seen by the free once it sees @bit clear.
 *
 * Context: any, interrupts possibly off.
 */
static void irdma_sim_watch_done(struct irdma_sim_watch *w, int bit)
{
	clear_bit_unlock(bit, &w->flags);
	/* the clear before the waiter's look (wait_var_event() in the free) */
	smp_mb__after_atomic();
	wake_up_var(&w->flags);
}

/**
 * irdma_sim_watch_run() - take the doorbell a watched store rang
 * @cb: the watch's run
 *
 * Context: task work of the task that stored, on its way back to user
 * space (or out of the kernel, when it exits).
 */
static void irdma_sim_watch_run(struct callback_head *cb)
{
	struct irdma_sim_watch *w = container_of(cb, struct irdma_sim_watch,
						 run);

	irdma_sim_iw_db_run(w->sim);
	irdma_sim_watch_done(w, IRDMA_SIM_WATCH_QUEUED);
}

/**
 * irdma_sim_watch_hit() - a watched task stored to its doorbell word
 * @bp: the breakpoint event (an inherited copy has the same context)
 * @data: sample data (unused)
 * @regs: the task's registers at the trap (unused)
 *
 * Context: the debug trap from user mode, interrupts off.
 */
static void irdma_sim_watch_hit(struct perf_event *bp,
				struct perf_sample_data *data,
				struct pt_regs *regs)
{
	struct irdma_sim_watch *w = bp->overflow_handler_context;

	atomic64_inc(&w->sim->db_traps);
	if (!test_and_set_bit_lock(IRDMA_SIM_WATCH_QUEUED, &w->flags)) {
		init_task_work(&w->run, irdma_sim_watch_run);
		if (!task_work_add(current, &w->run, TWA_RESUME))
			return;
		/* the task is exiting past its task work */
		irdma_sim_watch_done(w, IRDMA_SIM_WATCH_QUEUED);
	}
	irdma_sim_iw_db_trap(w->sim);
}

/**
 * irdma_sim_watch_free() - unregister a watch and free it
 * @work: the watch's free_work
 *
 * Context: the instance's workqueue.
 */
static void irdma_sim_watch_free(struct work_struct *work)
{
	struct irdma_sim_watch *w = container_of(work, struct irdma_sim_watch,
						 free_work);

	/* the mapping task runs it leaving the mmap call, or exiting */
	wait_var_event(&w->flags,
		       !test_bit(IRDMA_SIM_WATCH_REGISTERING, &w->flags));
	if (w->bp) {
		/* no trap queues a run for it once this returns */
		unregister_hw_breakpoint(w->bp);
		wait_var_event(&w->flags,
			       !test_bit(IRDMA_SIM_WATCH_QUEUED, &w->flags));
		atomic64_dec(&w->sim->db_watches);
	}
	kfree(w);
}

/**
 * irdma_sim_watch_bp() - register the breakpoint of a watch on current
 * @w: the watch
 *
 * Context: current is the task that mapped the page, not holding its mm's
 * lock.
 * Return: the event, or an ERR_PTR (-ESRCH when current is exiting).
 */
static struct perf_event *irdma_sim_watch_bp(struct irdma_sim_watch *w)
{
	struct perf_event_attr attr;

	if (current->flags & PF_EXITING)
		return ERR_PTR(-ESRCH);
	hw_breakpoint_init(&attr);
	attr.bp_addr = w->uaddr;
	attr.bp_len = HW_BREAKPOINT_LEN_4;
	attr.bp_type = HW_BREAKPOINT_W;
	attr.exclude_kernel = 1;
	/* threads the application starts later store to the page */
	attr.inherit = 1;
	/* but not the programs it forks: they do not have the mapping */
	attr.inherit_thread = 1;
	return register_user_hw_breakpoint(&attr, irdma_sim_watch_hit, w,
					   current);
}

/**
 * irdma_sim_watch_register() - set the breakpoint of a new watch
 * @cb: the watch's reg
 *
 * Context: task work of the task that mapped the page, after the mmap
 * system call dropped the mm's lock; or that task exiting, in which case
 * the breakpoint is not set.
 */
static void irdma_sim_watch_register(struct callback_head *cb)
{
	struct irdma_sim_watch *w = container_of(cb, struct irdma_sim_watch,
						 reg);
	struct irdma_sim *sim = w->sim;
	struct perf_event *bp = irdma_sim_watch_bp(w);

	if (IS_ERR(bp)) {
		atomic64_inc(&sim->db_watch_failed);
		dev_dbg(&sim->dev, "no watchpoint for %s[%d]'s doorbell page: %pe\n",
			current->comm, task_pid_nr(current), bp);
	} else {
		w->bp = bp;
		atomic64_inc(&sim->db_watches);
	}
	irdma_sim_watch_done(w, IRDMA_SIM_WATCH_REGISTERING);
}

/**
 * irdma_sim_watch_db() - ops->watch_db: watch a new doorbell page mapping
 * @sadev: the model's auxiliary device
 * @uaddr: where the calling task mapped the page
 *
 * The breakpoint is set by task work the calling task runs when its mmap
 * system call returns (see "Locking" above); until then the watch exists
 * but traps nothing, and the task cannot store to the page before.
 *
 * Context: process (the driver's mmap handler, the mm's lock held for
 * writing), the calling task being the one that maps.
 * Return: the watch, or NULL when none is made (the parameter is off, or
 * no memory).
 */
void *irdma_sim_watch_db(struct irdma_sim_adev *sadev, unsigned long uaddr)
{
	struct irdma_sim *sim = container_of(sadev, struct irdma_sim, sadev);
	struct irdma_sim_watch *w;

	if (!READ_ONCE(db_watch) || (current->flags & PF_KTHREAD))
		return NULL;
	w = kzalloc(sizeof(*w), GFP_KERNEL);
	if (!w)
		return NULL;
	w->sim = sim;
	w->uaddr = uaddr + IRDMA_DB_PAGE_WQEALLOC;
	INIT_WORK(&w->free_work, irdma_sim_watch_free);
	__set_bit(IRDMA_SIM_WATCH_REGISTERING, &w->flags);
	init_task_work(&w->reg, irdma_sim_watch_register);
	WRITE_ONCE(irdma_sim_watch_used, true);
	if (task_work_add(current, &w->reg, TWA_RESUME)) {
		/* the task is past its task work: it will not store again */
		kfree(w);
		return NULL;
	}
	return w;
}

/**
 * irdma_sim_unwatch_db() - ops->unwatch_db: end a watch
 * @sadev: the model's auxiliary device
 * @watch: what irdma_sim_watch_db() returned
 *
 * The instance's workqueue outlives the auxiliary device (the driver
 * unbinds first), and is drained before the instance is freed.
 *
 * Context: process, possibly with the mapping's mm locked.
 */
void irdma_sim_unwatch_db(struct irdma_sim_adev *sadev, void *watch)
{
	struct irdma_sim *sim = container_of(sadev, struct irdma_sim, sadev);
	struct irdma_sim_watch *w = watch;

	queue_work(sim->wq, &w->free_work);
}

/**
 * irdma_sim_watch_exit() - the module goes: wait for the runs' last steps
 *
 * Context: module exit, every instance destroyed.  Every watch is freed
 * by now, and so every run has said it finished; an RCU-tasks grace
 * period ends only after each task left the kernel or switched
 * voluntarily, so none is still returning from a run.
 */
void irdma_sim_watch_exit(void)
{
	if (READ_ONCE(irdma_sim_watch_used))
		synchronize_rcu_tasks();
}
