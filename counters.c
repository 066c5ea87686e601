// SPDX-License-Identifier: GPL-2.0
/*
 * Port counters for "rdma statistic" and
 * /sys/class/infiniband/<dev>/ports/1/hw_counters: the connection
 * manager's own counters, read under its mutex when asked for.
 *
 * The adapter's statistics (GATHER_STATS: IP and TCP packets and octets,
 * RDMA operations in and out) are not gathered yet.
 */

#include <rdma/ib_verbs.h>

#include "main.h"
#include "cm.h"

/* one counter: its name and where it sits in struct irdma_cm_stats */
#define IRDMA_CM_COUNTER(_name, _field)					\
	{ .name = _name,						\
	  .priv = (void *)offsetof(struct irdma_cm_stats, _field) }

static const struct rdma_stat_desc irdma_cm_counters[] = {
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
};

/**
 * irdma_alloc_hw_port_stats() - the counters of the device's one port
 * @ibdev: device
 * @port_num: port (1)
 *
 * Return: the counter set, or NULL without memory.
 */
struct rdma_hw_stats *irdma_alloc_hw_port_stats(struct ib_device *ibdev,
						u32 port_num)
{
	return rdma_alloc_hw_stats_struct(irdma_cm_counters,
					  ARRAY_SIZE(irdma_cm_counters),
					  RDMA_HW_STATS_DEFAULT_LIFESPAN);
}

/**
 * irdma_get_hw_stats() - read the counters
 * @ibdev: device
 * @stats: the set irdma_alloc_hw_port_stats() made
 * @port_num: port (1)
 * @index: the counter asked for (all are read at once)
 *
 * Context: process context; takes the CM's mutex.
 * Return: the number of counters filled in.
 */
int irdma_get_hw_stats(struct ib_device *ibdev, struct rdma_hw_stats *stats,
		       u32 port_num, int index)
{
	struct irdma_device *iwdev = to_iwdev(ibdev);
	struct irdma_cm_stats cm = {};
	unsigned int i;

	if (iwdev->cm_ready)
		irdma_cm_get_stats(&iwdev->cm_core, &cm);
	for (i = 0; i < ARRAY_SIZE(irdma_cm_counters); i++)
		stats->value[i] = *(const u64 *)((const u8 *)&cm +
			(uintptr_t)irdma_cm_counters[i].priv);
	return ARRAY_SIZE(irdma_cm_counters);
}
