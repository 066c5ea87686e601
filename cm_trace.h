/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * irdma - tracepoints of the connection manager (cm.c)
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM irdma_cm

#if !defined(_TRACE_IRDMA_CM_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_IRDMA_CM_H

#include <linux/tracepoint.h>
#include <rdma/iw_cm.h>

#include "cm.h"

TRACE_DEFINE_ENUM(IRDMA_CM_STATE_IDLE);
TRACE_DEFINE_ENUM(IRDMA_CM_STATE_SYN_SENT);
TRACE_DEFINE_ENUM(IRDMA_CM_STATE_SYN_RCVD);
TRACE_DEFINE_ENUM(IRDMA_CM_STATE_ESTABLISHED);
TRACE_DEFINE_ENUM(IRDMA_CM_STATE_MPAREQ_SENT);
TRACE_DEFINE_ENUM(IRDMA_CM_STATE_MPAREQ_RCVD);
TRACE_DEFINE_ENUM(IRDMA_CM_STATE_OFFLOADED);
TRACE_DEFINE_ENUM(IRDMA_CM_STATE_MPAREJ_RCVD);
TRACE_DEFINE_ENUM(IRDMA_CM_STATE_FIN_WAIT1);
TRACE_DEFINE_ENUM(IRDMA_CM_STATE_FIN_WAIT2);
TRACE_DEFINE_ENUM(IRDMA_CM_STATE_CLOSE_WAIT);
TRACE_DEFINE_ENUM(IRDMA_CM_STATE_LAST_ACK);
TRACE_DEFINE_ENUM(IRDMA_CM_STATE_CLOSING);
TRACE_DEFINE_ENUM(IRDMA_CM_STATE_TIME_WAIT);
TRACE_DEFINE_ENUM(IRDMA_CM_STATE_CLOSED);

#define irdma_show_cm_state(x)					\
	__print_symbolic(x,					\
		{ IRDMA_CM_STATE_IDLE, "IDLE" },				\
		{ IRDMA_CM_STATE_SYN_SENT, "SYN_SENT" },				\
		{ IRDMA_CM_STATE_SYN_RCVD, "SYN_RCVD" },				\
		{ IRDMA_CM_STATE_ESTABLISHED, "ESTABLISHED" },				\
		{ IRDMA_CM_STATE_MPAREQ_SENT, "MPAREQ_SENT" },				\
		{ IRDMA_CM_STATE_MPAREQ_RCVD, "MPAREQ_RCVD" },				\
		{ IRDMA_CM_STATE_OFFLOADED, "OFFLOADED" },				\
		{ IRDMA_CM_STATE_MPAREJ_RCVD, "MPAREJ_RCVD" },				\
		{ IRDMA_CM_STATE_FIN_WAIT1, "FIN_WAIT1" },				\
		{ IRDMA_CM_STATE_FIN_WAIT2, "FIN_WAIT2" },				\
		{ IRDMA_CM_STATE_CLOSE_WAIT, "CLOSE_WAIT" },				\
		{ IRDMA_CM_STATE_LAST_ACK, "LAST_ACK" },				\
		{ IRDMA_CM_STATE_CLOSING, "CLOSING" },				\
		{ IRDMA_CM_STATE_TIME_WAIT, "TIME_WAIT" },				\
		{ IRDMA_CM_STATE_CLOSED, "CLOSED" })

TRACE_DEFINE_ENUM(IW_CM_EVENT_CONNECT_REQUEST);
TRACE_DEFINE_ENUM(IW_CM_EVENT_CONNECT_REPLY);
TRACE_DEFINE_ENUM(IW_CM_EVENT_ESTABLISHED);
TRACE_DEFINE_ENUM(IW_CM_EVENT_DISCONNECT);
TRACE_DEFINE_ENUM(IW_CM_EVENT_CLOSE);

#define irdma_show_iw_event(x)					\
	__print_symbolic(x,					\
		{ IW_CM_EVENT_CONNECT_REQUEST, "CONNECT_REQUEST" },	\
		{ IW_CM_EVENT_CONNECT_REPLY, "CONNECT_REPLY" },	\
		{ IW_CM_EVENT_ESTABLISHED, "ESTABLISHED" },	\
		{ IW_CM_EVENT_DISCONNECT, "DISCONNECT" },	\
		{ IW_CM_EVENT_CLOSE, "CLOSE" })

TRACE_EVENT(irdma_cm_state,
	    TP_PROTO(const struct irdma_cm_node *node, enum irdma_cm_state old,
		     enum irdma_cm_state new),
	    TP_ARGS(node, old, new),
	    TP_STRUCT__entry(__field(const void *, node)
			     __field(u16, loc_port)
			     __field(u16, rem_port)
			     __field(unsigned int, old)
			     __field(unsigned int, new)),
	    TP_fast_assign(__entry->node = node;
			   __entry->loc_port = node->loc_port;
			   __entry->rem_port = node->rem_port;
			   __entry->old = old;
			   __entry->new = new;),
	    TP_printk("node=%p ports=%u->%u %s -> %s",
		      __entry->node, __entry->loc_port, __entry->rem_port,
		      irdma_show_cm_state(__entry->old),
		      irdma_show_cm_state(__entry->new))
);

TRACE_EVENT(irdma_cm_event,
	    TP_PROTO(const struct irdma_cm_node *node, int event, int status),
	    TP_ARGS(node, event, status),
	    TP_STRUCT__entry(__field(const void *, node)
			     __field(int, event)
			     __field(int, status)),
	    TP_fast_assign(__entry->node = node;
			   __entry->event = event;
			   __entry->status = status;),
	    TP_printk("node=%p %s status=%d", __entry->node,
		      irdma_show_iw_event(__entry->event), __entry->status)
);

#endif /* _TRACE_IRDMA_CM_H */

#undef TRACE_INCLUDE_PATH
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_PATH .
#define TRACE_INCLUDE_FILE cm_trace
#include <trace/define_trace.h>
