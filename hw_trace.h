/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * irdma - tracepoints of the hardware layer: control-QP commands, the
 * asynchronous events the adapter reports, and the QP states the driver
 * asks for.  The connection manager has its own header; both are in the
 * "irdma" system (trace-cmd record -e irdma).
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM irdma

#if !defined(_TRACE_IRDMA_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_IRDMA_H

#include <linux/device.h>
#include <linux/tracepoint.h>

#include "defs.h"

TRACE_DEFINE_ENUM(IRDMA_QPS_INVALID);
TRACE_DEFINE_ENUM(IRDMA_QPS_IDLE);
TRACE_DEFINE_ENUM(IRDMA_QPS_RTS);
TRACE_DEFINE_ENUM(IRDMA_QPS_CLOSING);
TRACE_DEFINE_ENUM(IRDMA_QPS_RTR);
TRACE_DEFINE_ENUM(IRDMA_QPS_TERMINATE);
TRACE_DEFINE_ENUM(IRDMA_QPS_ERROR);

#define irdma_show_qp_state(x)					\
	__print_symbolic(x,					\
		{ IRDMA_QPS_INVALID, "INVALID" },		\
		{ IRDMA_QPS_IDLE, "IDLE" },			\
		{ IRDMA_QPS_RTS, "RTS" },			\
		{ IRDMA_QPS_CLOSING, "CLOSING" },		\
		{ IRDMA_QPS_RTR, "RTR" },			\
		{ IRDMA_QPS_TERMINATE, "TERMINATE" },		\
		{ IRDMA_QPS_ERROR, "ERROR" })

/* the AEs a connection's life brings; any other prints as a number */
#define irdma_show_ae(x)						\
	__print_symbolic(x,						\
		{ IRDMA_AE_LLP_CONNECTION_ESTABLISHED, "LLP_CONNECTION_ESTABLISHED" }, \
		{ IRDMA_AE_LLP_FIN_RECEIVED, "LLP_FIN_RECEIVED" },	\
		{ IRDMA_AE_LLP_CLOSE_COMPLETE, "LLP_CLOSE_COMPLETE" },	\
		{ IRDMA_AE_LLP_CONNECTION_RESET, "LLP_CONNECTION_RESET" }, \
		{ IRDMA_AE_LLP_TERMINATE_RECEIVED, "LLP_TERMINATE_RECEIVED" }, \
		{ IRDMA_AE_LLP_TOO_MANY_RETRIES, "LLP_TOO_MANY_RETRIES" }, \
		{ IRDMA_AE_LLP_RECEIVED_MPA_CRC_ERROR, "LLP_RECEIVED_MPA_CRC_ERROR" }, \
		{ IRDMA_AE_RDMAP_ROE_BAD_LLP_CLOSE, "RDMAP_ROE_BAD_LLP_CLOSE" }, \
		{ IRDMA_AE_BAD_CLOSE, "BAD_CLOSE" },			\
		{ IRDMA_AE_RESET_SENT, "RESET_SENT" },			\
		{ IRDMA_AE_TERMINATE_SENT, "TERMINATE_SENT" },		\
		{ IRDMA_AE_CQ_OPERATION_ERROR, "CQ_OPERATION_ERROR" },	\
		{ IRDMA_AE_AMP_INVALID_STAG, "AMP_INVALID_STAG" },	\
		{ IRDMA_AE_AMP_BOUNDS_VIOLATION, "AMP_BOUNDS_VIOLATION" }, \
		{ IRDMA_AE_AMP_RIGHTS_VIOLATION, "AMP_RIGHTS_VIOLATION" }, \
		{ IRDMA_AE_LCE_QP_CATASTROPHIC, "LCE_QP_CATASTROPHIC" })

TRACE_EVENT(irdma_cqp_cmd,
	    TP_PROTO(const struct device *dev, const char *op, u32 slot,
		     int ret, u16 major, u16 minor, s64 usecs),
	    TP_ARGS(dev, op, slot, ret, major, minor, usecs),
	    TP_STRUCT__entry(__string(dev, dev_name(dev))
			     __string(op, op)
			     __field(u32, slot)
			     __field(int, ret)
			     __field(u16, major)
			     __field(u16, minor)
			     __field(s64, usecs)),
	    TP_fast_assign(__assign_str(dev, dev_name(dev));
			   __assign_str(op, op);
			   __entry->slot = slot;
			   __entry->ret = ret;
			   __entry->major = major;
			   __entry->minor = minor;
			   __entry->usecs = usecs;),
	    TP_printk("%s %s slot=%u ret=%d major=0x%04x minor=0x%04x %lld us",
		      __get_str(dev), __get_str(op), __entry->slot,
		      __entry->ret, __entry->major, __entry->minor,
		      __entry->usecs)
);

TRACE_EVENT(irdma_ae,
	    TP_PROTO(const struct device *dev, u16 ae, u8 src, u32 id,
		     u8 tcp_state),
	    TP_ARGS(dev, ae, src, id, tcp_state),
	    TP_STRUCT__entry(__string(dev, dev_name(dev))
			     __field(u16, ae)
			     __field(u8, src)
			     __field(u32, id)
			     __field(u8, tcp_state)),
	    TP_fast_assign(__assign_str(dev, dev_name(dev));
			   __entry->ae = ae;
			   __entry->src = src;
			   __entry->id = id;
			   __entry->tcp_state = tcp_state;),
	    TP_printk("%s %s (0x%04x) source=0x%x id=%u tcp_state=%u",
		      __get_str(dev), irdma_show_ae(__entry->ae), __entry->ae,
		      __entry->src, __entry->id, __entry->tcp_state)
);

TRACE_EVENT(irdma_qp_state,
	    TP_PROTO(const struct device *dev, u32 qpn, u8 old, u8 new),
	    TP_ARGS(dev, qpn, old, new),
	    TP_STRUCT__entry(__string(dev, dev_name(dev))
			     __field(u32, qpn)
			     __field(u8, old)
			     __field(u8, new)),
	    TP_fast_assign(__assign_str(dev, dev_name(dev));
			   __entry->qpn = qpn;
			   __entry->old = old;
			   __entry->new = new;),
	    TP_printk("%s qp=%u %s -> %s", __get_str(dev), __entry->qpn,
		      irdma_show_qp_state(__entry->old),
		      irdma_show_qp_state(__entry->new))
);

#endif /* _TRACE_IRDMA_H */

#undef TRACE_INCLUDE_PATH
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_PATH .
#define TRACE_INCLUDE_FILE hw_trace
#include <trace/define_trace.h>
