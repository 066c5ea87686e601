/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * User-space stand-ins for the few kernel types and helpers that the wire
 * section of cm.c (IRDMA_CM_WIRE_ONLY) and cm.h need.  Only what compiles
 * the parsers: the state machine is not built in user space.
 */
#ifndef IRDMA_FUZZ_SHIM_H
#define IRDMA_FUZZ_SHIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int32_t s32;
typedef uint32_t __be32;
typedef uint16_t __be16;
typedef unsigned int gfp_t;

/* the system's errno.h pulls in <linux/errno.h>, which is this shim */
#define EINVAL		22
#define ERANGE		34
#define EBADMSG		74
#define EMSGSIZE	90

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define be32_to_cpu(x)	__builtin_bswap32(x)
#define cpu_to_be32(x)	__builtin_bswap32(x)
#define be16_to_cpu(x)	__builtin_bswap16(x)
#define cpu_to_be16(x)	__builtin_bswap16(x)
#else
#define be32_to_cpu(x)	(x)
#define cpu_to_be32(x)	(x)
#define be16_to_cpu(x)	(x)
#define cpu_to_be16(x)	(x)
#endif

#define __packed	__attribute__((packed))

static inline u16 get_unaligned_be16(const void *p)
{
	const u8 *b = p;

	return (u16)(b[0] << 8 | b[1]);
}

static inline u32 get_unaligned_be32(const void *p)
{
	const u8 *b = p;

	return (u32)b[0] << 24 | (u32)b[1] << 16 | (u32)b[2] << 8 | b[3];
}

static inline void put_unaligned_be16(u16 v, void *p)
{
	u8 *b = p;

	b[0] = v >> 8;
	b[1] = v;
}

static inline void put_unaligned_be32(u32 v, void *p)
{
	u8 *b = p;

	b[0] = v >> 24;
	b[1] = v >> 16;
	b[2] = v >> 8;
	b[3] = v;
}

#define min_t(t, a, b)	((t)(a) < (t)(b) ? (t)(a) : (t)(b))
#define max_t(t, a, b)	((t)(a) > (t)(b) ? (t)(a) : (t)(b))
#define min(a, b)	((a) < (b) ? (a) : (b))
#define max(a, b)	((a) > (b) ? (a) : (b))
#define ETH_ALEN	6

struct list_head { struct list_head *next, *prev; };
struct hlist_node { struct hlist_node *next, **pprev; };
struct hlist_head { struct hlist_node *first; };
#define DECLARE_HASHTABLE(name, bits) struct hlist_head name[1 << (bits)]
struct mutex { int dummy; };
typedef struct { int dummy; } spinlock_t;
typedef struct { int refs; } refcount_t;
struct timer_list { unsigned long expires; };
struct work_struct { unsigned long data; };
struct delayed_work { struct work_struct work; struct timer_list timer; };
struct workqueue_struct;
struct xarray { void *head; };
typedef struct { int counter; } atomic_t;
typedef struct { long counter; } atomic_long_t;

#endif /* IRDMA_FUZZ_SHIM_H */
