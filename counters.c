// SPDX-License-Identifier: GPL-2.0
/*
 * Port counters for "rdma statistic" and
 * /sys/class/infiniband/<dev>/ports/1/hw_counters, in three groups:
 *
 *   - the connection manager's own counters, read under its mutex;
 *   - asynchronous events the driver counted as the AEQ delivered them
 *     (TERMINATEs sent and received, MPA CRC errors);
 *   - the adapter's statistics (GEN_2 only): IP, TCP and RDMA traffic of
 *     the function, read with the control QP's GATHER_STATS.
 *
 * The adapter's counters are 32 or 48 bits wide and wrap.  Each gather
 * adds the difference to the previous one, modulo the width, to a 64-bit
 * total that starts at zero when the driver binds.  A gather runs on every
 * read (ib_core caches a read for a few milliseconds) and every
 * IRDMA_GSTAT_PERIOD, so that no counter wraps twice between two gathers.
 */

#include <asm/unaligned.h>
#include <rdma/ib_verbs.h>

#include "irdma.h"
#include "ctrl.h"
#include "cm.h"

/* how often the adapter's counters are gathered when nobody reads them */
#define IRDMA_GSTAT_PERIOD	(60 * HZ)

/**
 * struct irdma_hw_stats - the function's statistics
 * @rf: RDMA function
 * @lock: serialises gathers; protects @buf, @last, @total, @primed
 * @buf: the buffer GATHER_STATS writes (GEN_2)
 * @primed: @last holds a gather
 * @work: the periodic gather
 * @terms_sent: TERMINATE_SENT AEs
 * @terms_rcvd: LLP_TERMINATE_RECEIVED AEs
 * @crc_errors: LLP_RECEIVED_MPA_CRC_ERROR AEs
 * @aes: AEs of any kind
 * @crit_errs: critical errors that asked for a reset
 * @crit_benign: critical errors that only count (the Q1 resource check)
 * @last: raw values of the last gather, by adapter counter
 * @total: accumulated differences, by adapter counter
 */
struct irdma_hw_stats {
	struct irdma_pci_f *rf;
	struct mutex lock;	/* see above */
	struct irdma_dma_mem buf;
	bool primed;
	struct delayed_work work;
	atomic64_t terms_sent;
	atomic64_t terms_rcvd;
	atomic64_t crc_errors;
	atomic64_t aes;
	atomic64_t crit_errs;
	atomic64_t crit_benign;
	u64 last[IRDMA_GSTAT_NUM];
	u64 total[IRDMA_GSTAT_NUM];
};

/* a counter of the connection manager: its offset in irdma_cm_stats */
#define IRDMA_CM_COUNTER(_name, _field)					\
	{ .name = _name,						\
	  .priv = (void *)offsetof(struct irdma_cm_stats, _field) }

/* a counter of the driver's AE counts: its offset in irdma_hw_stats */
#define IRDMA_AE_COUNTER(_name, _field)					\
	{ .name = _name,						\
	  .priv = (void *)offsetof(struct irdma_hw_stats, _field) }

/* an adapter counter: its GATHER_STATS code */
#define IRDMA_HW_COUNTER(_name, _code)					\
	{ .name = _name, .priv = (void *)(uintptr_t)(_code) }

#define IRDMA_NUM_CM_COUNTERS	24
#define IRDMA_NUM_AE_COUNTERS	6

/*
 * One table, three groups in order; the adapter's names are the ones
 * upstream irdma gives the same counters.
 */
static const struct rdma_stat_desc irdma_counters[] = {
	IRDMA_CM_COUNTER("cmConnects", connects),
	IRDMA_CM_COUNTER("cmAccepts", accepts),
	IRDMA_CM_COUNTER("cmRejects", rejects),
	IRDMA_CM_COUNTER("cmConnectTimeouts", connect_timeouts),
	IRDMA_CM_COUNTER("cmResetsSent", resets_sent),
	IRDMA_CM_COUNTER("cmResetsRcvd", resets_rcvd),
	IRDMA_CM_COUNTER("cmRetransmits", rexmits),
	IRDMA_CM_COUNTER("cmChallengeAcks", challenge_acks),
	IRDMA_CM_COUNTER("cmListenOverflows", listen_overflows),
	IRDMA_CM_COUNTER("cmSynUnresolved", syn_unresolved),
	IRDMA_CM_COUNTER("cmHalfOpenEvictions", half_open_evictions),
	IRDMA_CM_COUNTER("cmNodeLimitDrops", node_limit_drops),
	IRDMA_CM_COUNTER("cmSegsIn", rx_segs),
	IRDMA_CM_COUNTER("cmSegsOut", tx_segs),
	IRDMA_CM_COUNTER("cmSegsDropped", rx_dropped),
	IRDMA_CM_COUNTER("cmRtrCloses", rtr_closes),
	IRDMA_CM_COUNTER("cmEventsDropped", events_dropped),
	IRDMA_CM_COUNTER("cmMarkersRefused", markers_refused),
	IRDMA_CM_COUNTER("cmNodesCreated", nodes_created),
	IRDMA_CM_COUNTER("cmNodesFreed", nodes_freed),
	IRDMA_CM_COUNTER("cmFragmentsDropped", rx_fragments),
	IRDMA_CM_COUNTER("cmRstNoRoute", rst_no_route),
	IRDMA_CM_COUNTER("cmRepliesRateLimited", replies_ratelimited),
	IRDMA_CM_COUNTER("cmRxQueueDrops", rx_queue_drops),

	IRDMA_AE_COUNTER("aeTerminatesSent", terms_sent),
	IRDMA_AE_COUNTER("aeTerminatesRcvd", terms_rcvd),
	IRDMA_AE_COUNTER("aeMpaCrcErrors", crc_errors),
	IRDMA_AE_COUNTER("aeEvents", aes),
	IRDMA_AE_COUNTER("critErrors", crit_errs),
	IRDMA_AE_COUNTER("critErrorsBenign", crit_benign),

	IRDMA_HW_COUNTER("ip4InOctets", IRDMA_GSTAT_IP4_RX_OCTETS),
	IRDMA_HW_COUNTER("ip4InPkts", IRDMA_GSTAT_IP4_RX_PKTS),
	IRDMA_HW_COUNTER("ip4InDiscards", IRDMA_GSTAT_IP4_RX_DISCARD),
	IRDMA_HW_COUNTER("ip4InTruncatedPkts", IRDMA_GSTAT_IP4_RX_TRUNC),
	IRDMA_HW_COUNTER("ip4InReasmRqd", IRDMA_GSTAT_IP4_RX_FRAGS),
	IRDMA_HW_COUNTER("ip4InMcastOctets", IRDMA_GSTAT_IP4_RX_MC_OCTETS),
	IRDMA_HW_COUNTER("ip4InMcastPkts", IRDMA_GSTAT_IP4_RX_MC_PKTS),
	IRDMA_HW_COUNTER("ip4OutOctets", IRDMA_GSTAT_IP4_TX_OCTETS),
	IRDMA_HW_COUNTER("ip4OutPkts", IRDMA_GSTAT_IP4_TX_PKTS),
	IRDMA_HW_COUNTER("ip4OutSegRqd", IRDMA_GSTAT_IP4_TX_FRAGS),
	IRDMA_HW_COUNTER("ip4OutMcastOctets", IRDMA_GSTAT_IP4_TX_MC_OCTETS),
	IRDMA_HW_COUNTER("ip4OutMcastPkts", IRDMA_GSTAT_IP4_TX_MC_PKTS),
	IRDMA_HW_COUNTER("ip4OutNoRoutes", IRDMA_GSTAT_IP4_TX_NO_ROUTE),
	IRDMA_HW_COUNTER("ip6InOctets", IRDMA_GSTAT_IP6_RX_OCTETS),
	IRDMA_HW_COUNTER("ip6InPkts", IRDMA_GSTAT_IP6_RX_PKTS),
	IRDMA_HW_COUNTER("ip6InDiscards", IRDMA_GSTAT_IP6_RX_DISCARD),
	IRDMA_HW_COUNTER("ip6InTruncatedPkts", IRDMA_GSTAT_IP6_RX_TRUNC),
	IRDMA_HW_COUNTER("ip6InReasmRqd", IRDMA_GSTAT_IP6_RX_FRAGS),
	IRDMA_HW_COUNTER("ip6InMcastOctets", IRDMA_GSTAT_IP6_RX_MC_OCTETS),
	IRDMA_HW_COUNTER("ip6InMcastPkts", IRDMA_GSTAT_IP6_RX_MC_PKTS),
	IRDMA_HW_COUNTER("ip6OutOctets", IRDMA_GSTAT_IP6_TX_OCTETS),
	IRDMA_HW_COUNTER("ip6OutPkts", IRDMA_GSTAT_IP6_TX_PKTS),
	IRDMA_HW_COUNTER("ip6OutSegRqd", IRDMA_GSTAT_IP6_TX_FRAGS),
	IRDMA_HW_COUNTER("ip6OutMcastOctets", IRDMA_GSTAT_IP6_TX_MC_OCTETS),
	IRDMA_HW_COUNTER("ip6OutMcastPkts", IRDMA_GSTAT_IP6_TX_MC_PKTS),
	IRDMA_HW_COUNTER("ip6OutNoRoutes", IRDMA_GSTAT_IP6_TX_NO_ROUTE),
	IRDMA_HW_COUNTER("tcpInSegs", IRDMA_GSTAT_TCP_RX_SEGS),
	IRDMA_HW_COUNTER("tcpInOptErrors", IRDMA_GSTAT_TCP_RX_OPT_ERR),
	IRDMA_HW_COUNTER("tcpInProtoErrors", IRDMA_GSTAT_TCP_RX_PROTO_ERR),
	IRDMA_HW_COUNTER("tcpOutSegs", IRDMA_GSTAT_TCP_TX_SEGS),
	IRDMA_HW_COUNTER("tcpRetransSegs", IRDMA_GSTAT_TCP_RETX_SEGS),
	IRDMA_HW_COUNTER("RxUDP", IRDMA_GSTAT_UDP_RX_PKTS),
	IRDMA_HW_COUNTER("TxUDP", IRDMA_GSTAT_UDP_TX_PKTS),
	IRDMA_HW_COUNTER("iwInRdmaReads", IRDMA_GSTAT_RDMA_RX_READS),
	IRDMA_HW_COUNTER("iwInRdmaSends", IRDMA_GSTAT_RDMA_RX_SENDS),
	IRDMA_HW_COUNTER("iwInRdmaWrites", IRDMA_GSTAT_RDMA_RX_WRITES),
	IRDMA_HW_COUNTER("iwOutRdmaReads", IRDMA_GSTAT_RDMA_TX_READS),
	IRDMA_HW_COUNTER("iwOutRdmaSends", IRDMA_GSTAT_RDMA_TX_SENDS),
	IRDMA_HW_COUNTER("iwOutRdmaWrites", IRDMA_GSTAT_RDMA_TX_WRITES),
	IRDMA_HW_COUNTER("iwRdmaBnd", IRDMA_GSTAT_RDMA_BINDS),
	IRDMA_HW_COUNTER("iwRdmaInv", IRDMA_GSTAT_RDMA_INVALIDATES),
	IRDMA_HW_COUNTER("RxECNMrkd", IRDMA_GSTAT_RX_ECN_MARKED),
	IRDMA_HW_COUNTER("rxVlanErrors", IRDMA_GSTAT_RX_VLAN_ERR),
	IRDMA_HW_COUNTER("cnpHandled", IRDMA_GSTAT_RX_CNP_HANDLED),
	IRDMA_HW_COUNTER("cnpIgnored", IRDMA_GSTAT_RX_CNP_IGNORED),
	IRDMA_HW_COUNTER("cnpSent", IRDMA_GSTAT_TX_CNP_SENT),
};

#define IRDMA_HW_FIRST	(IRDMA_NUM_CM_COUNTERS + IRDMA_NUM_AE_COUNTERS)
static_assert(ARRAY_SIZE(irdma_counters) == IRDMA_HW_FIRST + IRDMA_GSTAT_NUM);

/**
 * irdma_gstat_code() - the GATHER_STATS code of adapter counter @i
 * @i: index among the adapter counters
 *
 * Return: the code (byte offset and width).
 */
static u32 irdma_gstat_code(unsigned int i)
{
	return (uintptr_t)irdma_counters[IRDMA_HW_FIRST + i].priv;
}

/**
 * irdma_gstat_width_mask() - the values a counter can take
 * @code: GATHER_STATS code
 *
 * Return: a mask of its 32 or 48 bits.
 */
static u64 irdma_gstat_width_mask(u32 code)
{
	return code & IRDMA_GSTAT_W32 ? U32_MAX : GENMASK_ULL(47, 0);
}

/**
 * irdma_gstat_get() - a counter's raw value in a GATHER_STATS buffer
 * @buf: the buffer
 * @code: GATHER_STATS code
 *
 * Return: the value, reduced to the counter's width.
 */
static u64 irdma_gstat_get(const u8 *buf, u32 code)
{
	const u8 *p = buf + FIELD_GET(IRDMA_GSTAT_OFFSET, code);

	if (code & IRDMA_GSTAT_W32)
		return get_unaligned_le32(p);
	return get_unaligned_le64(p) & irdma_gstat_width_mask(code);
}

/**
 * irdma_hw_stats_gather() - gather the adapter's counters into the totals
 * @hs: statistics of the function
 *
 * The first gather only records the starting values.
 *
 * Context: process context, may sleep; takes @hs->lock.
 * Return: 0 or a negative errno (the totals keep their last values).
 */
static int irdma_hw_stats_gather(struct irdma_hw_stats *hs)
{
	unsigned int i;
	int ret;

	mutex_lock(&hs->lock);
	if (!hs->buf.va) {
		ret = -ENODEV;	/* GEN_1, or given up after a timeout */
		goto out;
	}
	ret = irdma_cqp_gather_stats(hs->rf, &hs->buf);
	if (ret == -ETIMEDOUT) {
		/* the adapter may still write it */
		irdma_dma_leak(hs->rf, &hs->buf, ret);
		goto out;
	}
	if (ret)
		goto out;
	for (i = 0; i < IRDMA_GSTAT_NUM; i++) {
		u32 code = irdma_gstat_code(i);
		u64 v = irdma_gstat_get(hs->buf.va, code);

		if (hs->primed)
			hs->total[i] += (v - hs->last[i]) &
					irdma_gstat_width_mask(code);
		hs->last[i] = v;
	}
	hs->primed = true;
out:
	mutex_unlock(&hs->lock);
	return ret;
}

/**
 * irdma_hw_stats_work() - the periodic gather
 * @work: the delayed work of struct irdma_hw_stats
 *
 * Context: process context (system workqueue).
 */
static void irdma_hw_stats_work(struct work_struct *work)
{
	struct irdma_hw_stats *hs = container_of(to_delayed_work(work),
						 struct irdma_hw_stats, work);

	if (irdma_hw_stats_gather(hs) != -ENODEV)
		schedule_delayed_work(&hs->work, IRDMA_GSTAT_PERIOD);
}

/**
 * irdma_hw_stats_init() - set up the function's statistics
 * @rf: RDMA function, control QP running
 *
 * On GEN_2, allocates the gather buffer, records the starting values and
 * starts the periodic gather.  A function whose gather fails still comes
 * up, with the adapter's counters left at zero.
 *
 * Context: process context, may sleep.
 * Return: 0 or -ENOMEM.
 */
int irdma_hw_stats_init(struct irdma_pci_f *rf)
{
	struct irdma_hw_stats *hs;
	int ret;

	hs = kzalloc(sizeof(*hs), GFP_KERNEL);
	if (!hs)
		return -ENOMEM;
	hs->rf = rf;
	mutex_init(&hs->lock);
	INIT_DELAYED_WORK(&hs->work, irdma_hw_stats_work);
	if (rf->gen >= IRDMA_GEN_2) {
		ret = irdma_dma_alloc(rf, &hs->buf, IRDMA_GSTAT_LEN, 8);
		if (ret) {
			kfree(hs);
			return ret;
		}
		ret = irdma_hw_stats_gather(hs);
		if (ret)
			dev_warn(rf->dma_dev, "adapter statistics unavailable (%d)\n",
				 ret);
		else
			schedule_delayed_work(&hs->work, IRDMA_GSTAT_PERIOD);
	}
	rf->hw_stats = hs;
	return 0;
}

/**
 * irdma_hw_stats_fini() - stop gathering and free the statistics
 * @rf: RDMA function, control QP still running; the ib_device and the AEQ
 *	are gone (irdma_hw_stats_ae() reads @rf->hw_stats without a lock)
 *
 * Context: process context, may sleep.
 */
void irdma_hw_stats_fini(struct irdma_pci_f *rf)
{
	struct irdma_hw_stats *hs = rf->hw_stats;

	if (!hs)
		return;
	cancel_delayed_work_sync(&hs->work);
	irdma_dma_free(rf, &hs->buf);
	mutex_destroy(&hs->lock);
	rf->hw_stats = NULL;
	kfree(hs);
}

/**
 * irdma_hw_stats_ae() - count an asynchronous event
 * @rf: RDMA function
 * @ae: AE code
 *
 * Context: the AEQ's IRQ thread.
 */
void irdma_hw_stats_ae(struct irdma_pci_f *rf, u32 ae)
{
	struct irdma_hw_stats *hs = rf->hw_stats;

	if (!hs)
		return;
	atomic64_inc(&hs->aes);
	switch (ae) {
	case IRDMA_AE_TERMINATE_SENT:
		atomic64_inc(&hs->terms_sent);
		break;
	case IRDMA_AE_LLP_TERMINATE_RECEIVED:
		atomic64_inc(&hs->terms_rcvd);
		break;
	case IRDMA_AE_LLP_RECEIVED_MPA_CRC_ERROR:
		atomic64_inc(&hs->crc_errors);
		break;
	}
}

/**
 * irdma_hw_stats_crit() - count a critical error
 * @rf: RDMA function
 * @benign: it only counts (no reset)
 */
void irdma_hw_stats_crit(struct irdma_pci_f *rf, bool benign)
{
	struct irdma_hw_stats *hs = rf->hw_stats;

	if (hs)
		atomic64_inc(benign ? &hs->crit_benign : &hs->crit_errs);
}

/**
 * irdma_alloc_hw_port_stats() - the counters of the device's one port
 * @ibdev: device
 * @port_num: port (1)
 *
 * GEN_1 functions have no GATHER_STATS: their set stops before the
 * adapter's counters.
 *
 * Return: the counter set, or NULL without memory.
 */
struct rdma_hw_stats *irdma_alloc_hw_port_stats(struct ib_device *ibdev,
						u32 port_num)
{
	struct irdma_pci_f *rf = to_iwdev(ibdev)->rf;

	return rdma_alloc_hw_stats_struct(irdma_counters,
					  rf->gen >= IRDMA_GEN_2 ?
					  ARRAY_SIZE(irdma_counters) :
					  IRDMA_HW_FIRST,
					  RDMA_HW_STATS_DEFAULT_LIFESPAN);
}

/**
 * irdma_get_hw_stats() - read the counters
 * @ibdev: device
 * @stats: the set irdma_alloc_hw_port_stats() made
 * @port_num: port (1)
 * @index: the counter asked for (all are read at once)
 *
 * A failed gather is reported once in a while and leaves the adapter's
 * counters at their last values; the read itself succeeds.
 *
 * Context: process context; takes the CM's mutex and may wait for the
 * control QP.
 * Return: the number of counters filled in.
 */
int irdma_get_hw_stats(struct ib_device *ibdev, struct rdma_hw_stats *stats,
		       u32 port_num, int index)
{
	struct irdma_device *iwdev = to_iwdev(ibdev);
	struct irdma_hw_stats *hs = iwdev->rf->hw_stats;
	struct irdma_cm_stats cm = {};
	unsigned int i;
	int ret;

	if (iwdev->cm_ready)
		irdma_cm_get_stats(&iwdev->cm_core, &cm);
	for (i = 0; i < IRDMA_NUM_CM_COUNTERS; i++)
		stats->value[i] = *(const u64 *)((const u8 *)&cm +
			(uintptr_t)irdma_counters[i].priv);
	for (; i < IRDMA_HW_FIRST; i++)
		stats->value[i] = atomic64_read((const atomic64_t *)
			((const u8 *)hs + (uintptr_t)irdma_counters[i].priv));
	if (stats->num_counters <= IRDMA_HW_FIRST)
		return stats->num_counters;

	ret = irdma_hw_stats_gather(hs);
	if (ret)
		dev_warn_ratelimited(iwdev->rf->dma_dev,
				     "adapter statistics not gathered (%d)\n",
				     ret);
	mutex_lock(&hs->lock);
	for (i = 0; i < IRDMA_GSTAT_NUM; i++)
		stats->value[IRDMA_HW_FIRST + i] = hs->total[i];
	mutex_unlock(&hs->lock);
	return stats->num_counters;
}
