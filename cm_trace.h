/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * irdma - tracepoints of the connection manager (cm.c), in the "irdma"
 * system with those of hw_trace.h.  Each names the node (its address, which
 * follows one connection through the trace), and the QP once connect or
 * accept bound one (0 before).
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM irdma

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
			     __field(const void *, cm_id)
			     __field(u32, qpn)
			     __array(u8, loc, sizeof(struct sockaddr_in6))
			     __array(u8, rem, sizeof(struct sockaddr_in6))
			     __field(unsigned int, old)
			     __field(unsigned int, new)),
	    TP_fast_assign(struct sockaddr_storage l = {}, r = {};

			   irdma_cm_node_addrs(node, &l, &r);
			   memcpy(__entry->loc, &l, sizeof(__entry->loc));
			   memcpy(__entry->rem, &r, sizeof(__entry->rem));
			   __entry->node = node;
			   __entry->cm_id = node->cm_id;
			   __entry->qpn = irdma_cm_node_qpn(node);
			   __entry->old = old;
			   __entry->new = new;),
	    TP_printk("node=%p cm_id=%p qp=%u %pISpc -> %pISpc %s -> %s",
		      __entry->node, __entry->cm_id, __entry->qpn,
		      __entry->loc, __entry->rem,
		      irdma_show_cm_state(__entry->old),
		      irdma_show_cm_state(__entry->new))
);

TRACE_EVENT(irdma_cm_event,
	    TP_PROTO(const struct irdma_cm_node *node,
		     const struct iw_cm_id *cm_id, int event, int status),
	    TP_ARGS(node, cm_id, event, status),
	    TP_STRUCT__entry(__field(const void *, node)
			     __field(const void *, cm_id)
			     __field(u32, qpn)
			     __field(u16, loc_port)
			     __field(u16, rem_port)
			     __field(int, event)
			     __field(int, status)),
	    TP_fast_assign(__entry->node = node;
			   __entry->cm_id = cm_id;
			   __entry->qpn = irdma_cm_node_qpn(node);
			   __entry->loc_port = node->loc_port;
			   __entry->rem_port = node->rem_port;
			   __entry->event = event;
			   __entry->status = status;),
	    TP_printk("node=%p cm_id=%p qp=%u ports=%u->%u %s status=%d",
		      __entry->node, __entry->cm_id, __entry->qpn,
		      __entry->loc_port, __entry->rem_port,
		      irdma_show_iw_event(__entry->event), __entry->status)
);

/* one MPA request, reply or reject, sent (tx) or received whole (rx) */
TRACE_EVENT(irdma_mpa,
	    TP_PROTO(const struct irdma_cm_node *node,
		     const struct irdma_mpa_v2_hdr *frame, u32 len, bool tx),
	    TP_ARGS(node, frame, len, tx),
	    TP_STRUCT__entry(__field(const void *, node)
			     __field(u32, qpn)
			     __field(u16, loc_port)
			     __field(u16, rem_port)
			     __field(bool, tx)
			     __field(bool, request)
			     __field(u8, flags)
			     __field(u8, rev)
			     __field(u16, pd_len)
			     __field(u16, ird)
			     __field(u16, ord)),
	    TP_fast_assign(bool v1 = len >= IRDMA_MPA_V1_HDR_SIZE;

			   __entry->node = node;
			   __entry->qpn = irdma_cm_node_qpn(node);
			   __entry->loc_port = node->loc_port;
			   __entry->rem_port = node->rem_port;
			   __entry->tx = tx;
			   __entry->request = v1 &&
				!memcmp(frame->v1.key, IRDMA_MPA_KEY_REQ,
					IRDMA_MPA_KEY_SIZE);
			   __entry->flags = v1 ? frame->v1.flags : 0;
			   __entry->rev = v1 ? frame->v1.rev : 0;
			   __entry->pd_len = v1 ? be16_to_cpu(frame->v1.pdlen) : 0;
			   /* the RFC 6581 block: IRD and ORD words */
			   v1 = len >= IRDMA_MPA_V2_HDR_SIZE &&
				(__entry->flags & IRDMA_MPA_FLAG_V2);
			   __entry->ird = v1 ? be16_to_cpu(frame->ird) : 0;
			   __entry->ord = v1 ? be16_to_cpu(frame->ord) : 0;),
	    TP_printk("node=%p qp=%u ports=%u->%u %s %s rev=%u flags=%s pd_len=%u ird=%u ord=%u rtr=%s",
		      __entry->node, __entry->qpn, __entry->loc_port,
		      __entry->rem_port, __entry->tx ? "tx" : "rx",
		      __entry->request ? "request" :
		      (__entry->flags & IRDMA_MPA_FLAG_REJECT) ? "reject" :
								  "reply",
		      __entry->rev,
		      __print_flags(__entry->flags, "|",
				    { IRDMA_MPA_FLAG_MARKERS, "M" },
				    { IRDMA_MPA_FLAG_CRC, "C" },
				    { IRDMA_MPA_FLAG_REJECT, "R" },
				    { IRDMA_MPA_FLAG_V2, "V2" }),
		      __entry->pd_len,
		      __entry->ird & IRDMA_MPA_V2_IRD_ORD_MASK,
		      __entry->ord & IRDMA_MPA_V2_IRD_ORD_MASK,
		      __print_flags((__entry->ird & (IRDMA_MPA_V2_PEER2PEER |
						     IRDMA_MPA_V2_RTR_SEND)) |
				    ((__entry->ord & (IRDMA_MPA_V2_RTR_WRITE |
						      IRDMA_MPA_V2_RTR_READ)) >> 2),
				    "|",
				    { IRDMA_MPA_V2_PEER2PEER, "p2p" },
				    { IRDMA_MPA_V2_RTR_SEND, "send" },
				    { IRDMA_MPA_V2_RTR_WRITE >> 2, "write" },
				    { IRDMA_MPA_V2_RTR_READ >> 2, "read" }))
);

#endif /* _TRACE_IRDMA_CM_H */

#undef TRACE_INCLUDE_PATH
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_PATH .
#define TRACE_INCLUDE_FILE cm_trace
#include <trace/define_trace.h>
