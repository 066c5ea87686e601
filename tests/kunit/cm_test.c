// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * KUnit suites for the irdma connection manager.
 *
 * cm.c is included so its static functions can be tested; the module is
 * cm.c and this file only.  Two CM instances ("dev 0" and "dev 1") run
 * against a fake hardware layer (struct irdma_cm_hw_ops) and talk over an
 * in-memory wire that builds GEN_2 ILQ frames from the address handles,
 * with injectable loss, duplication, reordering and corruption.  A "raw
 * peer" crafts segments by hand for what a well-behaved CM never sends.
 *
 * The fake devices are kzalloc'ed struct irdma_device with only what cm.c
 * uses: ibdev.dev.init_name (messages), netdev (an unregistered
 * alloc_etherdev() with a MAC; cm.c reads dev_addr) and cm_core.  Their
 * network lookups (routes, addresses, MTU) are a fake struct
 * irdma_cm_net_ops: the test kernel has no interfaces to route over.
 * Timer constants are shortened to a few jiffies.
 */
#include <kunit/test.h>
#include <linux/delay.h>
#include <linux/inetdevice.h>
#include <linux/prandom.h>
#include <linux/rtnetlink.h>

#include "../../cm.c"

/* where a field of the TCP header sits, for raw test segments */
#define T_TCP(field)	offsetof(struct irdma_cm_tcphdr, field)

#define T_ADDR0		0xc0000201	/* 192.0.2.1 */
#define T_ADDR1		0xc0000202	/* 192.0.2.2 */
#define T_RAW_ADDR	0xc0000263	/* 192.0.2.99: the raw peer */
#define T_PORT_L	4791
#define T_PORT_A	33000
#define T_MAX_LOG	96
#define T_MAX_QP	4
#define T_MAX_AH	32
#define T_MAX_EST	64
#define T_MAX_ARP	8
#define T_MAX_EV	16
#define T_MAX_ADDR	4

enum irdma_test_fault {
	T_DELIVER,
	T_DROP,
	T_DUP,
	T_HOLD,		/* deliver after the next frame: reordering */
	T_CORRUPT,	/* XOR wire->corrupt_xor (0: 0xff) into the byte at
			 * wire->corrupt_off of the TCP segment
			 */
};

struct irdma_test_wire;

struct irdma_test_qp {
	struct irdma_qp qp;
	int refs;
	bool offloaded;
	bool hash;	/* owns its 4-tuple's steering entry */
	struct irdma_cm_offload_info off;
	u8 lsmm[IRDMA_MPA_MAX_FRAME];
	u32 lsmm_len;
	int closes;
	int resets;
	bool term_built;
	int terminates;
	int flushes;
};

struct irdma_test_ah {
	bool used;
	struct irdma_cm_ah_info info;
};

struct irdma_test_dev {
	struct irdma_test_wire *wire;
	int idx;
	struct irdma_device *iwdev;
	struct net_device *netdev;
	u32 addr[T_MAX_ADDR][4];
	u16 addr_vlan[T_MAX_ADDR];
	bool addr_v4[T_MAX_ADDR];
	int naddr;
	struct irdma_test_qp qps[T_MAX_QP];
	struct irdma_test_ah ahs[T_MAX_AH];
	int qhash_syn;
	/* the 4-tuple entries, as local and remote port */
	int qhash_est;
	u16 est_lport[T_MAX_EST];
	u16 est_rport[T_MAX_EST];
	int qhash_est_misses;
	u16 qhash_syn_vlan;
	int apbvt;
	int arp_adds;
	u8 arp_last_mac[ETH_ALEN];
	/* the fake ARP cache: entry i maps arp_ip[i] to arp_mac[i] */
	int narp;
	u32 arp_ip[T_MAX_ARP][4];
	u8 arp_mac[T_MAX_ARP][ETH_ALEN];
	int route_err;
	u16 route_vlan;
	bool rts_auto;
	bool fail_offload;
	u32 mtu;
};

struct irdma_test_pkt {
	struct list_head list;
	int to;
	struct irdma_cm_rx_pkt rx;
	u8 buf[IRDMA_ILQ_TCP_OFFSET + IRDMA_CM_TCP_MAX_HDR + IRDMA_MPA_MAX_FRAME];
};

struct irdma_test_seg {
	int from;
	int to;
	u8 flags;
	u32 seq;
	u32 ack;
	u16 win;
	u32 hdr_len;
	u32 datalen;
	bool vlan;	/* the sender tagged it (vlan_tci) */
	u16 vlan_tci;
	u8 seg[IRDMA_CM_TCP_MAX_HDR + IRDMA_MPA_MAX_FRAME];
};

struct irdma_test_wire {
	struct kunit *test;
	struct irdma_test_dev dev[2];
	spinlock_t lock;	/* protects q, held, log */
	struct list_head q;
	struct list_head held;
	int nlog;
	struct irdma_test_seg log[T_MAX_LOG];
	enum irdma_test_fault (*filter)(struct irdma_test_wire *w, int n,
					const struct irdma_test_seg *s);
	int fault_n;		/* frame number the filter acts on */
	int fault_from;		/* sender a filter acts on (irdma_t_corrupt_mpa) */
	int corrupt_off;
	u8 corrupt_xor;
	/* a switch port between sender i and the wire priority-tags its
	 * untagged frames (VLAN id 0, priority prio[i]): dev 0, dev 1, raw
	 */
	bool prio_tag[3];
	u8 prio[3];
	int sent;
};

/*
 * A fake iw_cm id.  @event_ret makes its event handler fail (iw_cm out of
 * work entries or memory: the event is not taken); @drop_events makes it
 * take events and never act on them (iw_cm's IWCM_F_DROP_EVENTS while the
 * id is destroyed, or a child id it could not create).
 */
struct irdma_test_cmid {
	struct iw_cm_id id;
	int refs;
	int event_ret;
	bool drop_events;
	int ndropped;
	int nev;
	struct {
		enum iw_cm_event_type type;
		int status;
		u8 pdata[256];
		u8 plen;
		u8 ird;
		u8 ord;
		void *provider_data;
		struct sockaddr_storage local;
		struct sockaddr_storage remote;
	} ev[T_MAX_EV];
};

static struct irdma_test_wire *irdma_tw;

/* ---- fake hardware layer ---------------------------------------------- */

static struct irdma_test_dev *irdma_t_dev(struct irdma_cm_core *core)
{
	int i;

	for (i = 0; i < 2; i++)
		if (&irdma_tw->dev[i].iwdev->cm_core == core)
			return &irdma_tw->dev[i];
	return NULL;
}

static struct irdma_test_qp *irdma_t_qp(struct irdma_qp *qp)
{
	return container_of(qp, struct irdma_test_qp, qp);
}

static int irdma_t_ah_create(struct irdma_cm_core *core,
			     const struct irdma_cm_ah_info *info, u32 *ah_id)
{
	struct irdma_test_dev *d = irdma_t_dev(core);
	int i;

	for (i = 0; i < T_MAX_AH; i++) {
		if (!d->ahs[i].used) {
			d->ahs[i].used = true;
			d->ahs[i].info = *info;
			*ah_id = i;
			return 0;
		}
	}
	return -ENOSPC;
}

static void irdma_t_ah_destroy(struct irdma_cm_core *core, u32 ah_id)
{
	struct irdma_test_dev *d = irdma_t_dev(core);

	WARN_ON(!d->ahs[ah_id].used);
	d->ahs[ah_id].used = false;
}

static int irdma_t_dest(const u32 *addr, bool ipv4)
{
	int i, j;

	for (i = 0; i < 2; i++)
		for (j = 0; j < irdma_tw->dev[i].naddr; j++)
			if (irdma_tw->dev[i].addr_v4[j] == ipv4 &&
			    !memcmp(irdma_tw->dev[i].addr[j], addr, 16))
				return i;
	return 2;	/* the raw peer */
}

/* put a TCP segment on the wire as the receiver's ILQ would see it */
static void irdma_t_wire_put(int from, bool ipv4, const u32 *saddr,
			     const u32 *daddr, u8 tos, bool vlan, u16 tci,
			     const u8 *smac, const u8 *seg, u32 len)
{
	struct irdma_test_wire *w = irdma_tw;
	struct irdma_test_seg *s = NULL;
	struct irdma_test_pkt *p;
	enum irdma_test_fault f = T_DELIVER;
	int to = irdma_t_dest(daddr, ipv4);
	u8 *b;
	int n, i;

	p = kzalloc(sizeof(*p), GFP_ATOMIC);
	if (!p)
		return;
	b = p->buf;
	if (ipv4) {
		u8 *iph = b + IRDMA_ILQ_IPV4_OFFSET;

		iph[0] = 0x45;
		iph[1] = tos;
		put_unaligned_be16(IRDMA_CM_IPV4_HDR + len, iph + 2);
		iph[8] = 64;
		iph[9] = IRDMA_IPPROTO_TCP;
		put_unaligned_be32(saddr[0], iph + 12);
		put_unaligned_be32(daddr[0], iph + 16);
	} else {
		put_unaligned_be32(6 << 28 | (u32)tos << 20, b);
		put_unaligned_be16(len, b + 4);
		b[6] = IRDMA_IPPROTO_TCP;
		b[7] = 64;
		for (i = 0; i < 4; i++) {
			put_unaligned_be32(saddr[i], b + 8 + 4 * i);
			put_unaligned_be32(daddr[i], b + 24 + 4 * i);
		}
	}
	memcpy(b + IRDMA_ILQ_TCP_OFFSET, seg, len);
	p->to = to;
	p->rx.buf = p->buf;
	p->rx.len = IRDMA_ILQ_TCP_OFFSET + len;
	p->rx.ipv4 = ipv4;
	ether_addr_copy(p->rx.smac, smac);
	p->rx.smac_valid = true;
	p->rx.vlan_valid = vlan;
	p->rx.vlan_tci = tci;
	if (!vlan && w->prio_tag[from]) {
		p->rx.vlan_valid = true;
		p->rx.vlan_tci = (u16)w->prio[from] << VLAN_PRIO_SHIFT;
	}

	spin_lock(&w->lock);
	n = w->sent++;
	if (w->nlog < T_MAX_LOG) {
		s = &w->log[w->nlog++];
		s->from = from;
		s->to = to;
		s->flags = seg[T_TCP(flags)];
		s->seq = get_unaligned_be32(seg + T_TCP(seq));
		s->ack = get_unaligned_be32(seg + T_TCP(ack));
		s->win = get_unaligned_be16(seg + T_TCP(window));
		s->hdr_len = (seg[T_TCP(doff)] >> 4) * 4;
		s->datalen = len - min(len, s->hdr_len);
		s->vlan = vlan;
		s->vlan_tci = tci;
		memcpy(s->seg, seg, min_t(u32, len, sizeof(s->seg)));
	}
	if (w->filter && s)
		f = w->filter(w, n, s);
	if (to == 2)
		f = T_DROP;	/* the raw peer reads the log */
	switch (f) {
	case T_DROP:
		kfree(p);
		break;
	case T_DUP: {
		struct irdma_test_pkt *d = kmemdup(p, sizeof(*p), GFP_ATOMIC);

		list_add_tail(&p->list, &w->q);
		if (d) {
			d->rx.buf = d->buf;
			list_add_tail(&d->list, &w->q);
		}
		break;
	}
	case T_HOLD:
		list_add_tail(&p->list, &w->held);
		break;
	case T_CORRUPT:
		p->buf[IRDMA_ILQ_TCP_OFFSET + w->corrupt_off] ^=
			w->corrupt_xor ?: 0xff;
		fallthrough;
	default:
		list_add_tail(&p->list, &w->q);
		if (!list_empty(&w->held))
			list_splice_tail_init(&w->held, &w->q);
		break;
	}
	spin_unlock(&w->lock);
}

static int irdma_t_ilq_send(struct irdma_cm_core *core, u32 ah_id,
			    const void *seg, u32 len, u32 tcp_hdr_len)
{
	struct irdma_test_dev *d = irdma_t_dev(core);
	struct irdma_cm_ah_info *ah = &d->ahs[ah_id].info;

	if (WARN_ON(!d->ahs[ah_id].used))
		return -EINVAL;
	WARN_ON(get_unaligned_be16((const u8 *)seg + T_TCP(csum)));
	WARN_ON(tcp_hdr_len != (((const u8 *)seg)[T_TCP(doff)] >> 4) * 4);
	irdma_t_wire_put(d->idx, ah->ipv4, ah->loc_addr, ah->rem_addr, ah->tos,
			 ah->insert_vlan, ah->vlan_tci, ah->loc_mac, seg, len);
	return 0;
}

/* irdma_t_est_find() - the index of the 4-tuple entry of these ports, or -1 */
static int irdma_t_est_find(struct irdma_test_dev *d, u16 lport, u16 rport)
{
	int i;

	for (i = 0; i < d->qhash_est; i++)
		if (d->est_lport[i] == lport && d->est_rport[i] == rport)
			return i;
	return -1;
}

/*
 * irdma_t_est_del() - drop the 4-tuple entry of these ports, as the
 * adapter does for a MANAGE_QHASH delete and for a QP's remove-hash;
 * deleting an entry that is gone is a no-op there, counted here
 */
static void irdma_t_est_del(struct irdma_test_dev *d, u16 lport, u16 rport)
{
	int i = irdma_t_est_find(d, lport, rport);

	if (i < 0) {
		d->qhash_est_misses++;
		return;
	}
	d->qhash_est--;
	d->est_lport[i] = d->est_lport[d->qhash_est];
	d->est_rport[i] = d->est_rport[d->qhash_est];
}

static int irdma_t_qhash(struct irdma_cm_core *core,
			 const struct irdma_cm_qhash_info *info, bool add)
{
	struct irdma_test_dev *d = irdma_t_dev(core);

	if (info->type == IRDMA_QHASH_TYPE_TCP_SYN) {
		if (add)
			d->qhash_syn_vlan = info->vlan_id;
		d->qhash_syn += add ? 1 : -1;
		return 0;
	}
	if (!add) {
		irdma_t_est_del(d, info->loc_port, info->rem_port);
		return 0;
	}
	if (d->qhash_est == T_MAX_EST)
		return -ENOSPC;
	d->est_lport[d->qhash_est] = info->loc_port;
	d->est_rport[d->qhash_est] = info->rem_port;
	d->qhash_est++;
	return 0;
}

/* irdma_t_qp_unhash() - a QP leaves RTS with remove-hash (ERROR, destroy) */
static void irdma_t_qp_unhash(struct irdma_test_qp *tq)
{
	if (!tq->hash)
		return;
	tq->hash = false;
	irdma_t_est_del(irdma_t_dev(&tq->qp.iwdev->cm_core), tq->off.loc_port,
			tq->off.rem_port);
}

static int irdma_t_apbvt(struct irdma_cm_core *core, u16 port, bool add)
{
	irdma_t_dev(core)->apbvt += add ? 1 : -1;
	return 0;
}

static int irdma_t_arp_index(struct irdma_cm_core *core, bool ipv4,
			     const u32 *ip, const u8 *mac)
{
	struct irdma_test_dev *d = irdma_t_dev(core);
	int i;

	d->arp_adds++;
	ether_addr_copy(d->arp_last_mac, mac);
	for (i = 0; i < d->narp; i++)
		if (!memcmp(d->arp_ip[i], ip, 16))
			break;
	if (i == T_MAX_ARP)
		return -ENOSPC;
	if (i == d->narp)
		memcpy(d->arp_ip[d->narp++], ip, 16);
	ether_addr_copy(d->arp_mac[i], mac);
	return i;
}

/* @idx is a programmed entry of dev's ARP cache, holding @mac */
static bool irdma_t_arp_is(int dev, int idx, const u8 *mac)
{
	struct irdma_test_dev *d = &irdma_tw->dev[dev];

	return idx >= 0 && idx < d->narp && ether_addr_equal(d->arp_mac[idx], mac);
}

static struct irdma_qp *irdma_t_qp_get(struct irdma_cm_core *core, u32 qpn)
{
	struct irdma_test_dev *d = irdma_t_dev(core);
	int i;

	for (i = 0; i < T_MAX_QP; i++) {
		if (d->qps[i].qp.ibqp.qp_num == qpn) {
			d->qps[i].refs++;
			return &d->qps[i].qp;
		}
	}
	return NULL;
}

static void irdma_t_qp_ref(struct irdma_qp *qp)
{
	irdma_t_qp(qp)->refs++;
}

static void irdma_t_qp_put(struct irdma_qp *qp)
{
	WARN_ON(--irdma_t_qp(qp)->refs < 0);
}

/* the adapter sends the LSMM on the offloaded connection */
static void irdma_t_send_lsmm(struct irdma_test_dev *d,
			      const struct irdma_cm_offload_info *info)
{
	u8 seg[IRDMA_CM_TCP_HDR_SIZE + IRDMA_MPA_MAX_FRAME] = {};
	u32 loc[4] = {}, rem[4] = {};

	put_unaligned_be16(info->loc_port, seg + T_TCP(sport));
	put_unaligned_be16(info->rem_port, seg + T_TCP(dport));
	put_unaligned_be32(info->snd_nxt, seg + T_TCP(seq));
	put_unaligned_be32(info->rcv_nxt, seg + T_TCP(ack));
	seg[T_TCP(doff)] = 5 << 4;
	seg[T_TCP(flags)] = IRDMA_TCP_ACK | IRDMA_TCP_PSH;
	put_unaligned_be16(info->rcv_wnd >> info->rcv_wscale,
			   seg + T_TCP(window));
	memcpy(seg + IRDMA_CM_TCP_HDR_SIZE, info->lsmm, info->lsmm_len);
	if (info->ipv4) {
		loc[0] = info->loc_addr[3];
		rem[0] = info->rem_addr[3];
	} else {
		memcpy(loc, info->loc_addr, 16);
		memcpy(rem, info->rem_addr, 16);
	}
	irdma_t_wire_put(d->idx, info->ipv4, loc, rem, info->tos,
			 info->insert_vlan, info->vlan_tci, info->loc_mac, seg,
			 IRDMA_CM_TCP_HDR_SIZE + info->lsmm_len);
}

static int irdma_t_qp_offload(struct irdma_qp *qp,
			      const struct irdma_cm_offload_info *info)
{
	struct irdma_test_qp *tq = irdma_t_qp(qp);
	struct irdma_test_dev *d = irdma_t_dev(&qp->iwdev->cm_core);

	if (d->fail_offload)
		return -EIO;
	tq->offloaded = true;
	/* the QP takes over the CM's entry (a loopback connection has none) */
	tq->hash = irdma_t_est_find(d, info->loc_port, info->rem_port) >= 0;
	tq->off = *info;
	tq->lsmm_len = info->lsmm_len;
	if (info->lsmm_len)
		memcpy(tq->lsmm, info->lsmm, info->lsmm_len);
	tq->off.lsmm = tq->lsmm;
	if (info->lsmm_len)
		irdma_t_send_lsmm(d, info);
	if (d->rts_auto)
		irdma_cm_qp_established(qp);
	return 0;
}

static int irdma_t_qp_close(struct irdma_qp *qp)
{
	irdma_t_qp(qp)->closes++;
	return 0;
}

static int irdma_t_qp_reset(struct irdma_qp *qp)
{
	irdma_t_qp(qp)->resets++;
	irdma_t_qp_unhash(irdma_t_qp(qp));
	return 0;
}

/* as the hw layer: only after an error AE it built a TERMINATE for */
static int irdma_t_qp_terminate(struct irdma_qp *qp)
{
	struct irdma_test_qp *tq = irdma_t_qp(qp);

	if (!tq->term_built)
		return -EALREADY;
	tq->term_built = false;
	tq->terminates++;
	return 0;
}

static void irdma_t_qp_flush(struct irdma_qp *qp)
{
	irdma_t_qp(qp)->flushes++;
}

static const struct irdma_cm_hw_ops irdma_test_hw_ops = {
	.ah_create = irdma_t_ah_create,
	.ah_destroy = irdma_t_ah_destroy,
	.ilq_send = irdma_t_ilq_send,
	.qhash = irdma_t_qhash,
	.apbvt = irdma_t_apbvt,
	.arp_index = irdma_t_arp_index,
	.qp_get = irdma_t_qp_get,
	.qp_ref = irdma_t_qp_ref,
	.qp_put = irdma_t_qp_put,
	.qp_offload = irdma_t_qp_offload,
	.qp_close = irdma_t_qp_close,
	.qp_reset = irdma_t_qp_reset,
	.qp_terminate = irdma_t_qp_terminate,
	.qp_flush = irdma_t_qp_flush,
};

/* ---- fake network lookups --------------------------------------------- */

static int irdma_t_route(struct irdma_cm_core *core, struct irdma_cm_route *rt)
{
	struct irdma_test_dev *d = irdma_t_dev(core);
	int to = irdma_t_dest(rt->rem_addr, rt->ipv4);

	if (d->route_err)
		return d->route_err;
	rt->vlan_id = d->route_vlan;
	rt->user_pri = rt->tos >> 5;	/* a VLAN egress map of precedence */
	rt->loopback = to == d->idx ||
		       (rt->ipv4 && irdma_ipv4_is_lpb(rt->loc_addr[0], rt->rem_addr[0])) ||
		       (!rt->ipv4 && irdma_ipv6_is_lpb(rt->loc_addr, rt->rem_addr));
	if (to < 2)
		ether_addr_copy(rt->nh_mac, irdma_tw->dev[to].netdev->dev_addr);
	else
		eth_broadcast_addr(rt->nh_mac);
	return 0;
}

static int irdma_t_get_addrs(struct irdma_cm_core *core, bool ipv4,
			     struct irdma_cm_addr *addrs, int max)
{
	struct irdma_test_dev *d = irdma_t_dev(core);
	int i, n = 0;

	for (i = 0; i < d->naddr && n < max; i++) {
		if (d->addr_v4[i] != ipv4)
			continue;
		memcpy(addrs[n].addr, d->addr[i], 16);
		addrs[n++].vlan_id = d->addr_vlan[i];
	}
	return n;
}

static u32 irdma_t_mtu(struct irdma_cm_core *core, u16 vlan_id)
{
	return irdma_t_dev(core)->mtu;
}

static const struct irdma_cm_net_ops irdma_test_net_ops = {
	.route = irdma_t_route,
	.get_addrs = irdma_t_get_addrs,
	.mtu = irdma_t_mtu,
};

/* ---- fake iw_cm ids ----------------------------------------------------- */

static void irdma_t_cmid_add_ref(struct iw_cm_id *id)
{
	container_of(id, struct irdma_test_cmid, id)->refs++;
}

static void irdma_t_cmid_rem_ref(struct iw_cm_id *id)
{
	WARN_ON(--container_of(id, struct irdma_test_cmid, id)->refs < 0);
}

static int irdma_t_cmid_event(struct iw_cm_id *id, struct iw_cm_event *ev)
{
	struct irdma_test_cmid *c = container_of(id, struct irdma_test_cmid, id);

	if (c->event_ret)
		return c->event_ret;
	if (c->drop_events) {
		c->ndropped++;
		return 0;
	}
	if (WARN_ON(c->nev >= T_MAX_EV))
		return 0;
	c->ev[c->nev].type = ev->event;
	c->ev[c->nev].status = ev->status;
	c->ev[c->nev].plen = ev->private_data_len;
	if (ev->private_data_len)
		memcpy(c->ev[c->nev].pdata, ev->private_data,
		       ev->private_data_len);
	c->ev[c->nev].ird = ev->ird;
	c->ev[c->nev].ord = ev->ord;
	c->ev[c->nev].provider_data = ev->provider_data;
	c->ev[c->nev].local = ev->local_addr;
	c->ev[c->nev].remote = ev->remote_addr;
	c->nev++;
	return 0;
}

static void irdma_t_sin(struct sockaddr_storage *ss, bool ipv4, const u32 *a,
			u16 port)
{
	memset(ss, 0, sizeof(*ss));
	if (ipv4) {
		struct sockaddr_in *s = (struct sockaddr_in *)ss;

		s->sin_family = AF_INET;
		s->sin_addr.s_addr = htonl(a[0]);
		s->sin_port = htons(port);
	} else {
		struct sockaddr_in6 *s = (struct sockaddr_in6 *)ss;

		s->sin6_family = AF_INET6;
		irdma_copy_ip_htonl(s->sin6_addr.in6_u.u6_addr32, a);
		s->sin6_port = htons(port);
	}
}

static struct irdma_test_cmid *irdma_t_cmid(struct kunit *test, int dev)
{
	struct irdma_test_cmid *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, c);
	c->id.device = &irdma_tw->dev[dev].iwdev->ibdev;
	c->id.event_handler = irdma_t_cmid_event;
	c->id.add_ref = irdma_t_cmid_add_ref;
	c->id.rem_ref = irdma_t_cmid_rem_ref;
	return c;
}

/* run one hand-made segment through a node (not inlined: keeps objtool's
 * view of the test functions simple)
 */
static noinline void irdma_t_process(struct irdma_cm_node *cm,
				     const struct irdma_cm_seg *s)
{
	irdma_process_pkt(cm, s);
}

/* ---- setup, pumping ----------------------------------------------------- */

static const u32 irdma_t_v6_0[4] = { 0xfd000000, 0, 0, 1 };
static const u32 irdma_t_v6_1[4] = { 0xfd000000, 0, 0, 2 };

static void irdma_t_add_addr(struct irdma_test_dev *d, bool ipv4,
			     const u32 *a, u16 vlan)
{
	int i = d->naddr++;

	memset(d->addr[i], 0, 16);
	memcpy(d->addr[i], a, ipv4 ? 4 : 16);
	d->addr_v4[i] = ipv4;
	d->addr_vlan[i] = vlan;
}

static int irdma_cm_test_init(struct kunit *test)
{
	static const char * const names[] = { "irdma_t0", "irdma_t1" };
	struct irdma_test_wire *w;
	int i, q;

	w = kzalloc(sizeof(*w), GFP_KERNEL);
	if (!w)
		return -ENOMEM;
	w->test = test;
	spin_lock_init(&w->lock);
	INIT_LIST_HEAD(&w->q);
	INIT_LIST_HEAD(&w->held);
	irdma_tw = w;
	test->priv = w;

	for (i = 0; i < 2; i++) {
		struct irdma_test_dev *d = &w->dev[i];
		u8 mac[ETH_ALEN] = { 0x02, 0, 0, 0, 0, 0x10 + i };
		u32 a4 = i ? T_ADDR1 : T_ADDR0;

		d->wire = w;
		d->idx = i;
		d->mtu = 1500;
		d->rts_auto = true;
		d->route_vlan = IRDMA_CM_NO_VLAN;
		d->iwdev = kzalloc(sizeof(*d->iwdev), GFP_KERNEL);
		d->netdev = alloc_etherdev(0);
		if (!d->iwdev || !d->netdev)
			return -ENOMEM;
		eth_hw_addr_set(d->netdev, mac);
		d->iwdev->netdev = d->netdev;
		d->iwdev->ibdev.dev.init_name = names[i];
		irdma_t_add_addr(d, true, &a4, IRDMA_CM_NO_VLAN);
		irdma_t_add_addr(d, false, i ? irdma_t_v6_1 : irdma_t_v6_0,
				 IRDMA_CM_NO_VLAN);
		for (q = 0; q < T_MAX_QP; q++) {
			d->qps[q].qp.ibqp.qp_num = 10 + q;
			d->qps[q].qp.iwdev = d->iwdev;
		}
		if (irdma_setup_cm_core(&d->iwdev->cm_core, &irdma_test_hw_ops,
					d->iwdev))
			return -ENOMEM;
		d->iwdev->cm_core.net = &irdma_test_net_ops;
		d->iwdev->cm_core.tun.rexmit_timeout = msecs_to_jiffies(20);
		d->iwdev->cm_core.tun.rexmit_max_timeout = msecs_to_jiffies(40);
		d->iwdev->cm_core.tun.max_rexmits = 5;
		d->iwdev->cm_core.tun.syn_retries = 3;
		d->iwdev->cm_core.tun.synack_retries = 5;
		d->iwdev->cm_core.tun.orphan_retries = 5;
		d->iwdev->cm_core.tun.time_wait = msecs_to_jiffies(30);
		d->iwdev->cm_core.tun.close_timeout = msecs_to_jiffies(30);
		d->iwdev->cm_core.tun.rts_timeout = msecs_to_jiffies(100);
		d->iwdev->cm_core.tun.fin_wait2_timeout = msecs_to_jiffies(100);
		/*
		 * long against the wall time a loaded TCG guest takes between
		 * a connect and its accept; the timeout tests shorten it
		 */
		d->iwdev->cm_core.tun.mpa_timeout = msecs_to_jiffies(2000);
		/* on only where tested: it turns a refusal into a retry */
		d->iwdev->cm_core.tun.mpa_v1_fallback = false;
	}
	return 0;
}

static void irdma_t_flush(void)
{
	int i;

	for (i = 0; i < 2; i++)
		if (irdma_tw->dev[i].iwdev->cm_core.wq)
			flush_workqueue(irdma_tw->dev[i].iwdev->cm_core.wq);
}

/* deliver everything queued until the wire is quiet */
static void irdma_t_pump(void)
{
	struct irdma_test_wire *w = irdma_tw;
	int rounds;

	for (rounds = 0; rounds < 200; rounds++) {
		struct irdma_test_pkt *p;
		LIST_HEAD(batch);

		irdma_t_flush();
		spin_lock(&w->lock);
		list_splice_init(&w->q, &batch);
		spin_unlock(&w->lock);
		if (list_empty(&batch))
			break;
		while (!list_empty(&batch)) {
			p = list_first_entry(&batch, struct irdma_test_pkt, list);
			list_del(&p->list);
			if (p->to < 2)
				irdma_receive_ilq(&w->dev[p->to].iwdev->cm_core,
						  &p->rx);
			kfree(p);
		}
	}
	irdma_t_flush();
}

/* let timers run for @ms, pumping the wire */
static void irdma_t_run(int ms)
{
	int t;

	for (t = 0; t < ms; t += 5) {
		irdma_t_pump();
		usleep_range(5000, 6000);
	}
	irdma_t_pump();
}

static void irdma_cm_test_exit(struct kunit *test)
{
	struct irdma_test_wire *w = test->priv;
	struct irdma_test_pkt *p, *tmp;
	int i, q;

	if (!w)
		return;
	for (i = 0; i < 2; i++) {
		struct irdma_test_dev *d = &w->dev[i];

		if (!d->iwdev)
			continue;
		irdma_cleanup_cm_core(&d->iwdev->cm_core);
		KUNIT_EXPECT_EQ_MSG(test, d->iwdev->cm_core.node_cnt, 0u,
				    "dev %d leaked nodes", i);
		for (q = 0; q < T_MAX_QP; q++) {
			KUNIT_EXPECT_EQ_MSG(test, d->qps[q].refs, 0,
					    "dev %d qp %d refs", i, q);
			/* the QPs' destroy, with remove-hash */
			irdma_t_qp_unhash(&d->qps[q]);
		}
		for (q = 0; q < T_MAX_AH; q++)
			KUNIT_EXPECT_FALSE_MSG(test, d->ahs[q].used,
					       "dev %d AH %d leaked", i, q);
		KUNIT_EXPECT_EQ(test, d->qhash_syn, 0);
		KUNIT_EXPECT_EQ(test, d->qhash_est, 0);
		/* the CM deleted no entry that an offloaded QP had removed */
		KUNIT_EXPECT_EQ(test, d->qhash_est_misses, 0);
		KUNIT_EXPECT_EQ(test, d->apbvt, 0);
		kfree(d->iwdev);
		if (d->netdev)
			free_netdev(d->netdev);
	}
	list_for_each_entry_safe(p, tmp, &w->q, list)
		kfree(p);
	list_for_each_entry_safe(p, tmp, &w->held, list)
		kfree(p);
	kfree(w);
	irdma_tw = NULL;
}

static struct irdma_cm_core *irdma_t_core(int dev)
{
	return &irdma_tw->dev[dev].iwdev->cm_core;
}

static struct irdma_test_qp *irdma_t_tqp(int dev, int q)
{
	return &irdma_tw->dev[dev].qps[q];
}

/* listen on dev 1 at @addr (NULL: wildcard) */
static struct irdma_test_cmid *irdma_t_listen(struct kunit *test, bool ipv4,
					      const u32 *addr, int backlog)
{
	struct irdma_test_cmid *l = irdma_t_cmid(test, 1);
	u32 any[4] = {};

	irdma_t_sin(&l->id.m_local_addr, ipv4, addr ? addr : any, T_PORT_L);
	l->id.local_addr = l->id.m_local_addr;
	KUNIT_ASSERT_EQ(test, irdma_create_listen(&l->id, backlog), 0);
	return l;
}

static int irdma_t_connect_to(struct irdma_test_cmid *c, int dev, bool ipv4,
			      const u32 *loc, const u32 *rem, u16 lport,
			      u32 qpn, const void *pdata, u16 plen, u32 ird,
			      u32 ord)
{
	struct iw_cm_conn_param p = {
		.private_data = pdata,
		.private_data_len = plen,
		.ird = ird,
		.ord = ord,
		.qpn = qpn,
	};

	irdma_t_sin(&c->id.m_local_addr, ipv4, loc, lport);
	irdma_t_sin(&c->id.m_remote_addr, ipv4, rem, T_PORT_L);
	c->id.local_addr = c->id.m_local_addr;
	c->id.remote_addr = c->id.m_remote_addr;
	return irdma_connect(&c->id, &p);
}

static int irdma_t_connect(struct kunit *test, struct irdma_test_cmid *c,
			   const void *pdata, u16 plen)
{
	u32 a0 = T_ADDR0, a1 = T_ADDR1;

	return irdma_t_connect_to(c, 0, true, &a0, &a1, T_PORT_A, 10, pdata,
				  plen, 8, 8);
}

static int irdma_t_accept(struct irdma_test_cmid *l, struct irdma_test_cmid *n,
			  u32 qpn, const void *pdata, u16 plen, u32 ird, u32 ord)
{
	struct iw_cm_conn_param p = {
		.private_data = pdata,
		.private_data_len = plen,
		.ird = ird,
		.ord = ord,
		.qpn = qpn,
	};

	n->id.provider_data = l->ev[l->nev - 1].provider_data;
	return irdma_accept(&n->id, &p);
}

/* a whole IPv4 connection dev 0 -> dev 1; returns the passive cm_id */
static struct irdma_test_cmid *irdma_t_establish(struct kunit *test,
						 struct irdma_test_cmid *l,
						 struct irdma_test_cmid *a)
{
	struct irdma_test_cmid *n = irdma_t_cmid(test, 1);

	KUNIT_ASSERT_EQ(test, irdma_t_connect(test, a, "hello", 5), 0);
	irdma_t_pump();
	KUNIT_ASSERT_EQ(test, l->nev, 1);
	KUNIT_ASSERT_EQ(test, irdma_t_accept(l, n, 10, "world", 5, 8, 8), 0);
	irdma_t_pump();
	KUNIT_ASSERT_EQ(test, a->nev, 1);
	KUNIT_ASSERT_EQ(test, a->ev[0].type, IW_CM_EVENT_CONNECT_REPLY);
	KUNIT_ASSERT_EQ(test, a->ev[0].status, 0);
	KUNIT_ASSERT_EQ(test, n->nev, 1);
	KUNIT_ASSERT_EQ(test, n->ev[0].type, IW_CM_EVENT_ESTABLISHED);
	return n;
}

/* ---- a raw TCP peer (192.0.2.99) talking to dev 1's listener ------------- */

struct irdma_t_raw {
	u32 addr;
	u16 port;
	u32 seq;
	u32 ack;
};

static void irdma_t_raw_send(struct irdma_t_raw *r, u8 flags, const u8 *opts,
			     u32 optlen, const void *data, u32 len)
{
	u8 seg[IRDMA_CM_TCP_MAX_HDR + IRDMA_MPA_MAX_FRAME + 8] = {};
	struct irdma_cm_rx_pkt rx = {};
	u8 *buf;
	u32 hlen = IRDMA_CM_TCP_HDR_SIZE + optlen;
	u32 daddr = T_ADDR1;

	put_unaligned_be16(r->port, seg + T_TCP(sport));
	put_unaligned_be16(T_PORT_L, seg + T_TCP(dport));
	put_unaligned_be32(r->seq, seg + T_TCP(seq));
	put_unaligned_be32(r->ack, seg + T_TCP(ack));
	seg[T_TCP(doff)] = (hlen / 4) << 4;
	seg[T_TCP(flags)] = flags;
	put_unaligned_be16(0xFFFF, seg + T_TCP(window));
	if (optlen)
		memcpy(seg + IRDMA_CM_TCP_HDR_SIZE, opts, optlen);
	if (len)
		memcpy(seg + hlen, data, len);

	buf = kzalloc(IRDMA_ILQ_TCP_OFFSET + hlen + len, GFP_KERNEL);
	if (!buf)
		return;
	buf[20] = 0x45;
	put_unaligned_be16(IRDMA_CM_IPV4_HDR + hlen + len, buf + 22);
	buf[29] = IRDMA_IPPROTO_TCP;
	put_unaligned_be32(r->addr, buf + 32);
	put_unaligned_be32(daddr, buf + 36);
	memcpy(buf + IRDMA_ILQ_TCP_OFFSET, seg, hlen + len);
	rx.buf = buf;
	rx.len = IRDMA_ILQ_TCP_OFFSET + hlen + len;
	rx.ipv4 = true;
	rx.smac_valid = true;
	if (irdma_tw->prio_tag[2]) {
		rx.vlan_valid = true;
		rx.vlan_tci = (u16)irdma_tw->prio[2] << VLAN_PRIO_SHIFT;
	}
	eth_random_addr(rx.smac);
	irdma_receive_ilq(irdma_t_core(1), &rx);
	kfree(buf);
	r->seq += len + ((flags & (IRDMA_TCP_SYN | IRDMA_TCP_FIN)) ? 1 : 0);
	irdma_t_pump();
}

/* last segment dev 1 sent to the raw peer */
static struct irdma_test_seg *irdma_t_raw_last(void)
{
	int i;

	for (i = irdma_tw->nlog - 1; i >= 0; i--)
		if (irdma_tw->log[i].to == 2)
			return &irdma_tw->log[i];
	return NULL;
}

/*
 * the last segment the CM sent to one of the raw peer's ports: where a
 * test opens two, a retransmission for the other (the timers run on
 * wall-clock time, and a loaded machine makes them fire) is not it
 */
static struct irdma_test_seg *irdma_t_raw_last_to(u16 port)
{
	int i;

	for (i = irdma_tw->nlog - 1; i >= 0; i--)
		if (irdma_tw->log[i].to == 2 &&
		    get_unaligned_be16(irdma_tw->log[i].seg + 2) == port)
			return &irdma_tw->log[i];
	return NULL;
}

static int irdma_t_count_to_raw(u8 flags)
{
	int i, n = 0;

	for (i = 0; i < irdma_tw->nlog; i++)
		n += irdma_tw->log[i].to == 2 &&
		     (irdma_tw->log[i].flags & flags) == flags;
	return n;
}

/* raw peer: SYN, SYN-ACK, ACK */
static void irdma_t_raw_handshake(struct kunit *test, struct irdma_t_raw *r)
{
	static const u8 opts[] = { 2, 4, 0x05, 0xb4, 3, 3, 2, 0 };
	struct irdma_test_seg *s;

	r->addr = T_RAW_ADDR;
	r->port = 40000;
	r->seq = 1000;
	irdma_t_raw_send(r, IRDMA_TCP_SYN, opts, sizeof(opts), NULL, 0);
	s = irdma_t_raw_last();
	KUNIT_ASSERT_NOT_NULL(test, s);
	KUNIT_ASSERT_EQ(test, s->flags, IRDMA_TCP_SYN | IRDMA_TCP_ACK);
	KUNIT_ASSERT_EQ(test, s->ack, 1001u);
	r->ack = s->seq + 1;
	irdma_t_raw_send(r, IRDMA_TCP_ACK, NULL, 0, NULL, 0);
}

/* build an MPA frame by hand */
static u32 irdma_t_mpa(u8 *buf, bool req, u8 rev, u8 flags, bool block,
		       u16 ird, u16 ord, const void *pdata, u16 plen)
{
	u32 hdr = block ? IRDMA_MPA_V2_HDR_SIZE : IRDMA_MPA_V1_HDR_SIZE;

	memcpy(buf, req ? IRDMA_MPA_KEY_REQ : IRDMA_MPA_KEY_REP, 16);
	buf[16] = flags;
	buf[17] = rev;
	put_unaligned_be16(plen + (block ? 4 : 0), buf + 18);
	if (block) {
		put_unaligned_be16(ird, buf + 20);
		put_unaligned_be16(ord, buf + 22);
	}
	if (plen)
		memcpy(buf + hdr, pdata, plen);
	return hdr + plen;
}

/* the node behind a CONNECT_REQUEST's handle, with a reference */
static struct irdma_cm_node *irdma_t_connreq_get(int dev, void *handle)
{
	struct irdma_cm_core *core = irdma_t_core(dev);
	struct irdma_cm_node *n;

	mutex_lock(&core->mutex);
	n = xa_load(&core->connreqs, (unsigned long)handle);
	if (n)
		irdma_cm_node_get(n);
	mutex_unlock(&core->mutex);
	return n;
}

static void irdma_t_node_put(int dev, struct irdma_cm_node *n)
{
	struct irdma_cm_core *core = irdma_t_core(dev);

	mutex_lock(&core->mutex);
	irdma_rem_ref_cm_node(n);
	mutex_unlock(&core->mutex);
}

static struct irdma_cm_node *irdma_t_find(int dev, u16 loc_port)
{
	struct irdma_cm_core *core = irdma_t_core(dev);
	struct irdma_cm_node *n;
	int bkt;

	hash_for_each(core->nodes, bkt, n, hnode)
		if (n->loc_port == loc_port)
			return n;
	return NULL;
}

static struct irdma_cm_node *irdma_t_find_rem(int dev, u16 rem_port)
{
	struct irdma_cm_core *core = irdma_t_core(dev);
	struct irdma_cm_node *n;
	int bkt;

	hash_for_each(core->nodes, bkt, n, hnode)
		if (n->rem_port == rem_port)
			return n;
	return NULL;
}

/* state of dev @dev's node with remote port @rem_port, -1 if none */
static int irdma_t_rem_state(int dev, u16 rem_port)
{
	struct irdma_cm_node *n;
	int state = -1;

	mutex_lock(&irdma_t_core(dev)->mutex);
	n = irdma_t_find_rem(dev, rem_port);
	if (n)
		state = n->state;
	mutex_unlock(&irdma_t_core(dev)->mutex);
	return state;
}

/*
 * Suite irdma_cm_wire: frame builders and parsers, no CM instance
 */

static struct irdma_cm_node *irdma_t_node(struct kunit *test, bool ipv4)
{
	struct irdma_cm_node *n = kunit_kzalloc(test, sizeof(*n), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, n);
	n->ipv4 = ipv4;
	n->mpa_rev = IRDMA_MPA_REV2;
	n->mpa_enhanced = true;
	n->ird = 8;
	n->ord = 8;
	n->rcv_wnd = IRDMA_CM_RCV_WND;
	n->rcv_wscale = IRDMA_CM_RCV_WSCALE;
	return n;
}

static void irdma_test_mpa_v2_request_layout(struct kunit *test)
{
	struct irdma_cm_node *n = irdma_t_node(test, true);
	u8 *f = n->mpa_frame;
	u16 len = irdma_cm_build_mpa_frame(n, true, false, "abc", 3);

	KUNIT_EXPECT_EQ(test, len, 27);
	KUNIT_EXPECT_EQ(test, memcmp(f, "MPA ID Req Frame", 16), 0);
	KUNIT_EXPECT_EQ(test, f[16], IRDMA_MPA_FLAG_CRC | IRDMA_MPA_FLAG_V2);
	KUNIT_EXPECT_EQ(test, f[17], 2);
	KUNIT_EXPECT_EQ(test, get_unaligned_be16(f + 18), 7);	/* 4 + 3 */
	KUNIT_EXPECT_EQ(test, get_unaligned_be16(f + 20), 0x8000 | 8);
	KUNIT_EXPECT_EQ(test, get_unaligned_be16(f + 22), 0x8000 | 0x4000 | 8);
	KUNIT_EXPECT_EQ(test, memcmp(f + 24, "abc", 3), 0);
}

static void irdma_test_mpa_v1_reply_layout(struct kunit *test)
{
	struct irdma_cm_node *n = irdma_t_node(test, true);
	u8 *f = n->mpa_frame;

	n->mpa_rev = IRDMA_MPA_REV1;
	n->mpa_enhanced = false;
	KUNIT_EXPECT_EQ(test, irdma_cm_build_mpa_frame(n, false, false, "xy", 2),
			22);
	KUNIT_EXPECT_EQ(test, memcmp(f, "MPA ID Rep Frame", 16), 0);
	KUNIT_EXPECT_EQ(test, f[16], IRDMA_MPA_FLAG_CRC);
	KUNIT_EXPECT_EQ(test, f[17], 1);
	KUNIT_EXPECT_EQ(test, get_unaligned_be16(f + 18), 2);
	KUNIT_EXPECT_EQ(test, memcmp(f + 20, "xy", 2), 0);
	/* markers are never requested */
	KUNIT_EXPECT_FALSE(test, f[16] & IRDMA_MPA_FLAG_MARKERS);
}

static void irdma_test_mpa_reject_flag(struct kunit *test)
{
	struct irdma_cm_node *n = irdma_t_node(test, true);

	n->p2p = true;		/* the request had flag A */
	n->rtr = IRDMA_RTR_WRITE;
	irdma_cm_build_mpa_frame(n, false, true, NULL, 0);
	KUNIT_EXPECT_TRUE(test, n->mpa_frame[16] & IRDMA_MPA_FLAG_REJECT);
	KUNIT_EXPECT_TRUE(test, n->mpa_frame[16] & IRDMA_MPA_FLAG_CRC);
	/* flag A echoed, the chosen RTR only */
	KUNIT_EXPECT_TRUE(test, get_unaligned_be16(n->mpa_frame + 20) & 0x8000);
	KUNIT_EXPECT_EQ(test, get_unaligned_be16(n->mpa_frame + 22) & 0xC000,
			0x8000);
	KUNIT_EXPECT_EQ(test, irdma_parse_mpa(irdma_t_node(test, true),
					      n->mpa_frame, n->mpa_frame_len,
					      false), 1);
}

static void irdma_test_mpa_pdata_limits(struct kunit *test)
{
	struct irdma_cm_node *n = irdma_t_node(test, true);
	static u8 big[IRDMA_MPA_MAX_PDATA + 1];

	/* 512 bytes of PD_Length: 508 of private data with the v2 block */
	KUNIT_EXPECT_EQ(test, irdma_cm_build_mpa_frame(n, true, false, big, 508),
			24 + 508);
	KUNIT_EXPECT_EQ(test, irdma_cm_build_mpa_frame(n, true, false, big, 509),
			0);
}

static void irdma_test_parse_mpa_truncated(struct kunit *test)
{
	struct irdma_cm_node *n = irdma_t_node(test, true);
	u8 f[64];
	u32 len = irdma_t_mpa(f, true, 2, 0x50, true, 0x8008, 0xC008, "abcd", 4);

	KUNIT_EXPECT_EQ(test, irdma_parse_mpa(n, f, 19, true), -EINVAL);
	KUNIT_EXPECT_EQ(test, irdma_parse_mpa(n, f, len - 1, true), -EINVAL);
	KUNIT_EXPECT_EQ(test, irdma_parse_mpa(n, f, len, true), 0);
	KUNIT_EXPECT_EQ(test, irdma_mpa_frame_len(f, 10), 0);
	KUNIT_EXPECT_EQ(test, irdma_mpa_frame_len(f, 20), (int)len);
}

static void irdma_test_parse_mpa_bad_key(struct kunit *test)
{
	struct irdma_cm_node *n = irdma_t_node(test, true);
	u8 f[64];
	u32 len = irdma_t_mpa(f, true, 2, 0x50, true, 0x8008, 0xC008, NULL, 0);

	KUNIT_EXPECT_EQ(test, irdma_parse_mpa(n, f, len, false), -EINVAL);
	len = irdma_t_mpa(f, false, 2, 0x50, true, 0x8008, 0x8008, NULL, 0);
	KUNIT_EXPECT_EQ(test, irdma_parse_mpa(n, f, len, true), -EINVAL);
	f[3] ^= 1;
	KUNIT_EXPECT_EQ(test, irdma_parse_mpa(n, f, len, false), -EINVAL);
}

static void irdma_test_parse_mpa_revision(struct kunit *test)
{
	struct irdma_cm_node *n = irdma_t_node(test, true);
	u8 f[64];
	u32 len;

	len = irdma_t_mpa(f, true, 0, 0x40, false, 0, 0, NULL, 0);
	KUNIT_EXPECT_EQ(test, irdma_parse_mpa(n, f, len, true), -EINVAL);
	len = irdma_t_mpa(f, true, 3, 0x40, false, 0, 0, NULL, 0);
	KUNIT_EXPECT_EQ(test, irdma_parse_mpa(n, f, len, true), -EINVAL);
	/* rev 1 request accepted; we then answer with rev 1 */
	len = irdma_t_mpa(f, true, 1, 0x40, false, 0, 0, NULL, 0);
	KUNIT_EXPECT_EQ(test, irdma_parse_mpa(n, f, len, true), 0);
	KUNIT_EXPECT_EQ(test, n->mpa_rev, 1);
	KUNIT_EXPECT_FALSE(test, n->mpa_enhanced);
	/* a reply above the revision we sent is refused */
	len = irdma_t_mpa(f, false, 2, 0x50, true, 0x8008, 0x8008, NULL, 0);
	KUNIT_EXPECT_EQ(test, irdma_parse_mpa(n, f, len, false), -EINVAL);
}

static void irdma_test_parse_mpa_pdlen_limit(struct kunit *test)
{
	struct irdma_cm_node *n = irdma_t_node(test, true);
	static u8 f[IRDMA_MPA_MAX_FRAME + 8];
	static u8 pd[IRDMA_MPA_MAX_PDATA];
	u32 len = irdma_t_mpa(f, true, 1, 0x40, false, 0, 0, pd, 512);

	KUNIT_EXPECT_EQ(test, irdma_parse_mpa(n, f, len, true), 0);
	KUNIT_EXPECT_EQ(test, n->pdata_len, 512);
	put_unaligned_be16(513, f + 18);
	KUNIT_EXPECT_EQ(test, irdma_parse_mpa(n, f, len + 1, true), -EINVAL);
	KUNIT_EXPECT_EQ(test, irdma_mpa_frame_len(f, 20), -EINVAL);
}

static void irdma_test_parse_mpa_v2_pdata_excludes_block(struct kunit *test)
{
	struct irdma_cm_node *n = irdma_t_node(test, true);
	u8 f[64];
	u32 len = irdma_t_mpa(f, true, 2, 0x50, true, 0x8010, 0xC004, "PRIV", 4);

	KUNIT_EXPECT_EQ(test, irdma_parse_mpa(n, f, len, true), 0);
	KUNIT_EXPECT_EQ(test, n->pdata_len, 4);
	KUNIT_EXPECT_EQ(test, memcmp(n->pdata, "PRIV", 4), 0);
	KUNIT_EXPECT_EQ(test, n->peer_ird, 0x10);
	KUNIT_EXPECT_EQ(test, n->peer_ord, 4);
	KUNIT_EXPECT_TRUE(test, n->p2p);
	KUNIT_EXPECT_TRUE(test, n->peer_rtr_read);
	KUNIT_EXPECT_TRUE(test, n->peer_rtr_write);
	/* v2 flag with a PD_Length too short for the block */
	put_unaligned_be16(2, f + 18);
	KUNIT_EXPECT_EQ(test, irdma_parse_mpa(n, f, len, true), -EINVAL);
}

static void irdma_test_parse_mpa_markers_and_reject(struct kunit *test)
{
	struct irdma_cm_node *n = irdma_t_node(test, true);
	u8 f[64];
	u32 len = irdma_t_mpa(f, true, 1, 0xC0, false, 0, 0, NULL, 0);

	KUNIT_EXPECT_EQ(test, irdma_parse_mpa(n, f, len, true), 0);
	KUNIT_EXPECT_TRUE(test, n->peer_markers);
	/* R in a request is invalid */
	len = irdma_t_mpa(f, true, 1, 0x60, false, 0, 0, NULL, 0);
	KUNIT_EXPECT_EQ(test, irdma_parse_mpa(n, f, len, true), -EINVAL);
}

static void irdma_test_tcp_options_mss_ws(struct kunit *test)
{
	struct irdma_cm_node *n = irdma_t_node(test, true);
	static const u8 o[] = { 1, 2, 4, 0x05, 0xb4, 1, 3, 3, 7, 0 };

	KUNIT_EXPECT_EQ(test, irdma_process_options(n, o, sizeof(o), true), 0);
	KUNIT_EXPECT_EQ(test, n->mss, 1460);
	KUNIT_EXPECT_EQ(test, n->snd_wscale, 7);
	KUNIT_EXPECT_EQ(test, n->rcv_wscale, IRDMA_CM_RCV_WSCALE);
	KUNIT_EXPECT_EQ(test, n->rcv_wnd, (u32)IRDMA_CM_RCV_WND);
}

static void irdma_test_tcp_options_default_mss(struct kunit *test)
{
	struct irdma_cm_node *n4 = irdma_t_node(test, true);
	struct irdma_cm_node *n6 = irdma_t_node(test, false);
	static const u8 o[] = { 1, 1, 0 };

	KUNIT_EXPECT_EQ(test, irdma_process_options(n4, o, sizeof(o), true), 0);
	KUNIT_EXPECT_EQ(test, n4->mss, IRDMA_CM_DEFAULT_MSS);
	/* no window scale from the peer: none for us either (RFC 7323) */
	KUNIT_EXPECT_EQ(test, n4->rcv_wscale, 0);
	KUNIT_EXPECT_EQ(test, n4->rcv_wnd, 0xFFFFu);
	KUNIT_EXPECT_EQ(test, irdma_process_options(n6, o, sizeof(o), true), 0);
	KUNIT_EXPECT_EQ(test, n6->mss, 1220);
}

/* a peer MSS below 536 (IPv4) / 1220 (IPv6) is raised to it, not refused */
static void irdma_test_tcp_options_small_mss_clamped(struct kunit *test)
{
	static const struct {
		bool ipv4;
		u16 peer;
		u16 mss;
	} c[] = {
		{ true, 500, 536 }, { true, 1, 536 }, { false, 1000, 1220 },
		{ true, 537, 537 },
	};
	struct irdma_cm_node *n;
	u8 o[4] = { 2, 4 };
	int i;

	for (i = 0; i < ARRAY_SIZE(c); i++) {
		n = irdma_t_node(test, c[i].ipv4);
		put_unaligned_be16(c[i].peer, o + 2);
		KUNIT_EXPECT_EQ(test, irdma_process_options(n, o, 4, true), 0);
		KUNIT_EXPECT_EQ(test, n->mss, c[i].mss);
	}
}

static void irdma_test_tcp_options_malformed(struct kunit *test)
{
	static const u8 zero_len[] = { 8, 0, 0, 0 };
	static const u8 overrun[] = { 8, 10, 0, 0 };
	static const u8 bad_mss[] = { 2, 3, 0, 1 };
	static const u8 trunc[] = { 1, 1, 1, 2 };
	static const u8 unknown[] = { 8, 10, 1, 2, 3, 4, 5, 6, 7, 8, 2, 4, 5, 0xb4 };
	static const u8 ws_big[] = { 3, 3, 20, 0 };
	struct irdma_cm_node *n = irdma_t_node(test, true);

	KUNIT_EXPECT_EQ(test, irdma_process_options(n, zero_len, 4, true), -EINVAL);
	KUNIT_EXPECT_EQ(test, irdma_process_options(n, overrun, 4, true), -EINVAL);
	KUNIT_EXPECT_EQ(test, irdma_process_options(n, bad_mss, 4, true), -EINVAL);
	KUNIT_EXPECT_EQ(test, irdma_process_options(n, trunc, 4, true), -EINVAL);
	KUNIT_EXPECT_EQ(test, irdma_process_options(n, unknown, sizeof(unknown),
						    true), 0);
	KUNIT_EXPECT_EQ(test, n->mss, 1460);
	KUNIT_EXPECT_EQ(test, irdma_process_options(n, ws_big, 4, true), 0);
	KUNIT_EXPECT_EQ(test, n->snd_wscale, IRDMA_CM_MAX_WSCALE);
}

static void irdma_test_check_seq_window(struct kunit *test)
{
	struct irdma_cm_node *n = irdma_t_node(test, true);
	struct irdma_cm_seg s = { .flags = IRDMA_TCP_ACK };

	n->rcv_nxt = 0xFFFFFF00;	/* across the wrap */
	n->snd_una = 100;
	n->snd_nxt = 200;
	s.ack = 150;
	s.seq = n->rcv_nxt;
	KUNIT_EXPECT_EQ(test, irdma_check_seq(n, &s), 0);
	s.seq = n->rcv_nxt - 1;
	KUNIT_EXPECT_EQ(test, irdma_check_seq(n, &s), -ERANGE);
	s.seq = n->rcv_nxt + IRDMA_CM_RCV_WND;
	KUNIT_EXPECT_EQ(test, irdma_check_seq(n, &s), -ERANGE);
	/* old data overlapping rcv_nxt is acceptable (trimmed later) */
	s.seq = n->rcv_nxt - 10;
	s.datalen = 20;
	KUNIT_EXPECT_EQ(test, irdma_check_seq(n, &s), 0);
	/* a pure duplicate is not */
	s.datalen = 10;
	KUNIT_EXPECT_EQ(test, irdma_check_seq(n, &s), -ERANGE);
	/* data must start inside the window: its last byte in is enough */
	s.seq = n->rcv_nxt + IRDMA_CM_RCV_WND - 1;
	KUNIT_EXPECT_EQ(test, irdma_check_seq(n, &s), 0);
	s.seq = n->rcv_nxt + IRDMA_CM_RCV_WND;
	KUNIT_EXPECT_EQ(test, irdma_check_seq(n, &s), -ERANGE);
	s.datalen = 0;
	s.seq = n->rcv_nxt;
	s.ack = 201;	/* acknowledges data never sent */
	KUNIT_EXPECT_EQ(test, irdma_check_seq(n, &s), -EBADMSG);
	s.ack = 99;
	KUNIT_EXPECT_EQ(test, irdma_check_seq(n, &s), -EBADMSG);
}

static void irdma_t_mkframe(u8 *b, bool ipv4, u32 seglen)
{
	memset(b, 0, IRDMA_ILQ_TCP_OFFSET + seglen);
	if (ipv4) {
		b[20] = 0x45;
		put_unaligned_be16(20 + seglen, b + 22);
		b[29] = 6;
		put_unaligned_be32(T_ADDR0, b + 32);
		put_unaligned_be32(T_ADDR1, b + 36);
	} else {
		put_unaligned_be32(6 << 28, b);
		put_unaligned_be16(seglen, b + 4);
		b[6] = 6;
	}
	put_unaligned_be16(1, b + 40);
	put_unaligned_be16(2, b + 42);
	b[40 + 12] = 5 << 4;
}

static void irdma_test_parse_segment(struct kunit *test)
{
	u8 b[128];
	struct irdma_cm_seg s;

	irdma_t_mkframe(b, true, 28);
	KUNIT_EXPECT_EQ(test, irdma_cm_parse_segment(b, 68, true, &s), 0);
	KUNIT_EXPECT_EQ(test, s.datalen, 8u);
	KUNIT_EXPECT_EQ(test, s.saddr[0], (u32)T_ADDR0);
	/* IP length beyond the buffer: truncated */
	KUNIT_EXPECT_EQ(test, irdma_cm_parse_segment(b, 67, true, &s), -EINVAL);
	/* data offset beyond the segment */
	b[52] = 15 << 4;
	KUNIT_EXPECT_EQ(test, irdma_cm_parse_segment(b, 68, true, &s), -EINVAL);
	b[52] = 4 << 4;
	KUNIT_EXPECT_EQ(test, irdma_cm_parse_segment(b, 68, true, &s), -EINVAL);
	/* IP options do not fit the GEN_2 layout */
	irdma_t_mkframe(b, true, 28);
	b[20] = 0x46;
	KUNIT_EXPECT_EQ(test, irdma_cm_parse_segment(b, 68, true, &s), -EINVAL);
	irdma_t_mkframe(b, false, 20);
	KUNIT_EXPECT_EQ(test, irdma_cm_parse_segment(b, 60, false, &s), 0);
	b[6] = 17;
	KUNIT_EXPECT_EQ(test, irdma_cm_parse_segment(b, 60, false, &s), -EINVAL);
	KUNIT_EXPECT_EQ(test, irdma_cm_parse_segment(b, 30, false, &s), -EINVAL);
}

/* IPv4 fragments are refused (the CM does not reassemble); DF is fine */
static void irdma_test_parse_segment_ipv4_fragments(struct kunit *test)
{
	u8 b[128];
	struct irdma_cm_seg s;

	irdma_t_mkframe(b, true, 28);
	put_unaligned_be16(0x4000, b + 20 + 6);		/* DF */
	KUNIT_EXPECT_EQ(test, irdma_cm_parse_segment(b, 68, true, &s), 0);
	put_unaligned_be16(0x2000, b + 20 + 6);		/* MF, offset 0 */
	KUNIT_EXPECT_EQ(test, irdma_cm_parse_segment(b, 68, true, &s), -EMSGSIZE);
	put_unaligned_be16(0x0010, b + 20 + 6);		/* last fragment */
	KUNIT_EXPECT_EQ(test, irdma_cm_parse_segment(b, 68, true, &s), -EMSGSIZE);
	put_unaligned_be16(0x6001, b + 20 + 6);		/* DF | MF | offset */
	KUNIT_EXPECT_EQ(test, irdma_cm_parse_segment(b, 68, true, &s), -EMSGSIZE);
}

static void irdma_test_stateless_reset(struct kunit *test)
{
	struct irdma_cm_seg s = { .sport = 5, .dport = 6, .seq = 100,
				  .flags = IRDMA_TCP_SYN, .datalen = 0 };
	u8 b[IRDMA_CM_TCP_HDR_SIZE];

	KUNIT_EXPECT_EQ(test, irdma_form_uda_cm_frame(&s, b), 20u);
	KUNIT_EXPECT_EQ(test, b[13], IRDMA_TCP_RST | IRDMA_TCP_ACK);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(b + 8), 101u);
	KUNIT_EXPECT_EQ(test, get_unaligned_be16(b), 6);
	s.flags = IRDMA_TCP_ACK;
	s.ack = 777;
	s.datalen = 10;
	irdma_form_uda_cm_frame(&s, b);
	KUNIT_EXPECT_EQ(test, b[13], IRDMA_TCP_RST);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(b + 4), 777u);
	s.flags = IRDMA_TCP_RST;
	KUNIT_EXPECT_EQ(test, irdma_form_uda_cm_frame(&s, b), 0u);
}

static void irdma_test_kernel_lpb_helpers(struct kunit *test)
{
	static const u32 v6lo[4] = { 0, 0, 0, 1 };
	static const u32 v6a[4] = { 0xfd000000, 0, 0, 1 };
	static const u32 v6b[4] = { 0xfd000000, 0, 0, 2 };
	struct net_device *lo = init_net.loopback_dev;
	u8 mac[ETH_ALEN];
	bool opened;
	u16 vlan;
	u8 prio;

	memset(mac, 0xff, sizeof(mac));
	KUNIT_EXPECT_TRUE(test, irdma_ipv4_is_lpb(T_ADDR0, 0x7f000001));
	KUNIT_EXPECT_TRUE(test, irdma_ipv4_is_lpb(T_ADDR0, T_ADDR0));
	KUNIT_EXPECT_FALSE(test, irdma_ipv4_is_lpb(T_ADDR0, T_ADDR1));
	KUNIT_EXPECT_TRUE(test, irdma_ipv6_is_lpb(v6a, v6lo));
	KUNIT_EXPECT_TRUE(test, irdma_ipv6_is_lpb(v6a, v6a));
	KUNIT_EXPECT_FALSE(test, irdma_ipv6_is_lpb(v6a, v6b));
	/* no device holds 192.0.2.1 in the test kernel */
	prio = 0xff;
	KUNIT_EXPECT_EQ(test, irdma_get_vlan_ipv4(&init_net, T_ADDR0, 0, &prio),
			IRDMA_CM_NO_VLAN);
	KUNIT_EXPECT_EQ(test, prio, 0xff);
	irdma_get_vlan_mac_ipv6(&init_net, v6a, 0, &vlan, mac, 0, &prio);
	KUNIT_EXPECT_EQ(test, vlan, IRDMA_CM_NO_VLAN);
	KUNIT_EXPECT_EQ(test, mac[0], 0xff);

	/* lo, up, holds 127.0.0.1 and ::1: found, untagged, lo's MAC */
	rtnl_lock();
	opened = !(lo->flags & IFF_UP) && !dev_open(lo, NULL);
	rtnl_unlock();
	KUNIT_EXPECT_EQ(test, irdma_get_vlan_ipv4(&init_net, 0x7f000001, 0,
						  &prio), IRDMA_CM_NO_VLAN);
	KUNIT_EXPECT_EQ(test, prio, 0);
	prio = 0xff;
	irdma_get_vlan_mac_ipv6(&init_net, v6lo, 0, &vlan, mac, 0, &prio);
	KUNIT_EXPECT_EQ(test, vlan, IRDMA_CM_NO_VLAN);
	KUNIT_EXPECT_TRUE(test, ether_addr_equal(mac, lo->dev_addr));
	KUNIT_EXPECT_EQ(test, prio, 0);
	if (opened) {
		rtnl_lock();
		dev_close(lo);
		rtnl_unlock();
	}
}

/* ---- IRD/ORD/RTR negotiation table -------------------------------------- */

struct irdma_nego_case {
	const char *name;
	bool v2;		/* initiator offers MPA v2 */
	u16 i_ird, i_ord;	/* initiator's ULP values */
	u16 r_ird, r_ord;	/* responder's ULP values */
	/* request tampering: */
	bool clr_a, clr_write, clr_read, set_send, clr_v2flag;
	u32 req_ird, req_ord;	/* T_SET(value) or 0 */
	/* reply tampering: */
	bool rep_clr_a, rep_both_rtr;
	u32 rep_ird, rep_ord;
	/* expected */
	int r_ret;
	u8 r_err;
	enum irdma_rtr_type rtr;
	u16 r_ird_end, r_ord_end;
	int i_ret;
	u8 i_err;
	u16 i_ird_end, i_ord_end;
};

#define N_(...) { __VA_ARGS__ }
#define T_SET(x) (0x10000 | (x))	/* tampered wire value; 0: as built */

static const struct irdma_nego_case irdma_nego_cases[] = {
	N_(.name = "v1_no_rtr", .v2 = false, .i_ird = 4, .i_ord = 4, .r_ird = 8,
	   .r_ord = 8, .rtr = IRDMA_RTR_NONE, .r_ird_end = 8, .r_ord_end = 8,
	   .i_ird_end = 4, .i_ord_end = 4),
	N_(.name = "v2_read_preferred", .v2 = true, .i_ird = 4, .i_ord = 4,
	   .r_ird = 8, .r_ord = 8, .rtr = IRDMA_RTR_READ, .r_ird_end = 8,
	   .r_ord_end = 4, .i_ird_end = 4, .i_ord_end = 4),
	N_(.name = "v2_init_ord0_write", .v2 = true, .i_ird = 4, .i_ord = 0,
	   .r_ird = 8, .r_ord = 8, .rtr = IRDMA_RTR_WRITE, .r_ird_end = 8,
	   .r_ord_end = 4, .i_ird_end = 4, .i_ord_end = 0),
	N_(.name = "v2_resp_ird0_write", .v2 = true, .i_ird = 4, .i_ord = 4,
	   .r_ird = 0, .r_ord = 2, .rtr = IRDMA_RTR_WRITE, .r_ird_end = 0,
	   .r_ord_end = 2, .i_ird_end = 4, .i_ord_end = 0),
	N_(.name = "v2_read_only_resp_ird0", .v2 = true, .i_ird = 4, .i_ord = 4,
	   .r_ird = 0, .r_ord = 2, .clr_write = true, .r_ret = -EINVAL,
	   .r_err = IRDMA_MPA_ERR_INSUFF_IRD),
	N_(.name = "v2_read_only_init_ord0", .v2 = true, .i_ird = 4, .i_ord = 4,
	   .r_ird = 8, .r_ord = 8, .clr_write = true, .req_ord = T_SET(0x4000),
	   .r_ret = -EINVAL, .r_err = IRDMA_MPA_ERR_NO_MATCH_RTR),
	N_(.name = "v2_no_rtr_offered", .v2 = true, .i_ird = 4, .i_ord = 4,
	   .r_ird = 8, .r_ord = 8, .clr_write = true, .clr_read = true,
	   .r_ret = -EINVAL, .r_err = IRDMA_MPA_ERR_NO_MATCH_RTR),
	N_(.name = "v2_send_rtr_only", .v2 = true, .i_ird = 4, .i_ord = 4,
	   .r_ird = 8, .r_ord = 8, .clr_write = true, .clr_read = true,
	   .set_send = true, .r_ret = -EINVAL,
	   .r_err = IRDMA_MPA_ERR_NO_MATCH_RTR),
	/* no flag A: the client-server model, RTR bits ignored */
	N_(.name = "v2_no_flag_a", .v2 = true, .i_ird = 4, .i_ord = 4,
	   .r_ird = 8, .r_ord = 8, .clr_a = true, .rtr = IRDMA_RTR_NONE,
	   .r_ird_end = 8, .r_ord_end = 4, .i_ird_end = 4, .i_ord_end = 4),
	/* what soft-iWARP sends: v2, no flag A, no RTR bits */
	N_(.name = "v2_client_server", .v2 = true, .i_ird = 16, .i_ord = 16,
	   .r_ird = 8, .r_ord = 8, .clr_a = true, .clr_write = true,
	   .clr_read = true, .rtr = IRDMA_RTR_NONE, .r_ird_end = 8,
	   .r_ord_end = 8, .i_ird_end = 16, .i_ord_end = 8),
	N_(.name = "v2_client_server_reply_ord_exceeds_init_ird", .v2 = true,
	   .i_ird = 2, .i_ord = 4, .r_ird = 8, .r_ord = 8, .clr_a = true,
	   .rep_ord = T_SET(9), .rtr = IRDMA_RTR_NONE, .r_ird_end = 8,
	   .r_ord_end = 2, .i_ret = -EINVAL, .i_err = IRDMA_MPA_ERR_INSUFF_IRD),
	/* "no value" limits nothing; the reply still carries our 8/8 */
	N_(.name = "v2_none_3fff", .v2 = true, .i_ird = 8, .i_ord = 8,
	   .r_ird = 8, .r_ord = 8, .req_ird = T_SET(0x8000 | 0x3FFF),
	   .req_ord = T_SET(0xC000 | 0x3FFF),
	   .rtr = IRDMA_RTR_READ, .r_ird_end = 8, .r_ord_end = 8,
	   .i_ird_end = 8, .i_ord_end = 8),
	N_(.name = "v2_resp_ord_capped_by_init_ird", .v2 = true, .i_ird = 2,
	   .i_ord = 4, .r_ird = 8, .r_ord = 16, .rtr = IRDMA_RTR_READ,
	   .r_ird_end = 8, .r_ord_end = 2, .i_ird_end = 2, .i_ord_end = 4),
	N_(.name = "v2_init_ord_capped_by_resp_ird", .v2 = true, .i_ird = 4,
	   .i_ord = 16, .r_ird = 3, .r_ord = 2, .rtr = IRDMA_RTR_READ,
	   .r_ird_end = 3, .r_ord_end = 2, .i_ird_end = 4, .i_ord_end = 3),
	N_(.name = "v2_reply_ord_exceeds_init_ird", .v2 = true, .i_ird = 2,
	   .i_ord = 4, .r_ird = 8, .r_ord = 8, .rep_ord = T_SET(0x4000 | 9),
	   .rtr = IRDMA_RTR_READ, .r_ird_end = 8, .r_ord_end = 2,
	   .i_ret = -EINVAL, .i_err = IRDMA_MPA_ERR_INSUFF_IRD),
	N_(.name = "v2_reply_without_a", .v2 = true, .i_ird = 4, .i_ord = 4,
	   .r_ird = 8, .r_ord = 8, .rep_clr_a = true, .rtr = IRDMA_RTR_READ,
	   .r_ird_end = 8, .r_ord_end = 4, .i_ret = -EINVAL,
	   .i_err = IRDMA_MPA_ERR_NO_MATCH_RTR),
	N_(.name = "v2_reply_both_rtr", .v2 = true, .i_ird = 4, .i_ord = 4,
	   .r_ird = 8, .r_ord = 8, .rep_both_rtr = true, .rtr = IRDMA_RTR_READ,
	   .r_ird_end = 8, .r_ord_end = 4, .i_ret = -EINVAL,
	   .i_err = IRDMA_MPA_ERR_NO_MATCH_RTR),
	N_(.name = "v2_reply_read_init_ord0", .v2 = true, .i_ird = 4, .i_ord = 0,
	   .r_ird = 8, .r_ord = 8, .rep_ord = T_SET(0x4000 | 4), .rtr = IRDMA_RTR_WRITE,
	   .r_ird_end = 8, .r_ord_end = 4, .i_ret = -EINVAL,
	   .i_err = IRDMA_MPA_ERR_NO_MATCH_RTR),
	N_(.name = "v2_hw_caps", .v2 = true, .i_ird = 1000, .i_ord = 1000,
	   .r_ird = 1000, .r_ord = 1000, .rtr = IRDMA_RTR_READ,
	   .r_ird_end = 127, .r_ord_end = 127, .i_ird_end = 127,
	   .i_ord_end = 127),
	N_(.name = "v2_rev2_without_v2_flag", .v2 = true, .i_ird = 4, .i_ord = 4,
	   .r_ird = 8, .r_ord = 8, .clr_v2flag = true, .rtr = IRDMA_RTR_NONE,
	   .r_ird_end = 8, .r_ord_end = 8, .i_ird_end = 4, .i_ord_end = 4),
	/* the request claims IRD 0x3FFE; the reply's ORD 8 exceeds our IRD 4 */
	N_(.name = "v2_edge_3ffe", .v2 = true, .i_ird = 4, .i_ord = 4,
	   .r_ird = 8, .r_ord = 8, .req_ird = T_SET(0x8000 | 0x3FFE),
	   .rtr = IRDMA_RTR_READ, .r_ird_end = 8, .r_ord_end = 8,
	   .i_ret = -EINVAL, .i_err = IRDMA_MPA_ERR_INSUFF_IRD),
	N_(.name = "v2_ird_ord_zero_both", .v2 = true, .i_ird = 0, .i_ord = 0,
	   .r_ird = 0, .r_ord = 0, .rtr = IRDMA_RTR_WRITE, .r_ird_end = 0,
	   .r_ord_end = 0, .i_ird_end = 0, .i_ord_end = 0),
};

static void irdma_nego_desc(const struct irdma_nego_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(irdma_nego, irdma_nego_cases, irdma_nego_desc);

static const char *irdma_t_rtr_name(enum irdma_rtr_type rtr)
{
	return rtr == IRDMA_RTR_READ ? "read" :
	       rtr == IRDMA_RTR_WRITE ? "write" : "none";
}

static void irdma_test_negotiation_table(struct kunit *test)
{
	const struct irdma_nego_case *c = test->param_value;
	struct irdma_cm_node *i = irdma_t_node(test, true);
	struct irdma_cm_node *r = irdma_t_node(test, true);
	u8 *f;
	int ret;

	if (!c->v2) {
		i->mpa_rev = IRDMA_MPA_REV1;
		i->mpa_enhanced = false;
	}
	irdma_record_ird_ord(i, c->i_ird, c->i_ord);
	KUNIT_ASSERT_NE(test, irdma_cm_build_mpa_frame(i, true, false, "p", 1), 0);
	f = i->mpa_frame;
	if (c->v2) {
		u16 ird = get_unaligned_be16(f + 20), ord = get_unaligned_be16(f + 22);

		if (c->clr_a)
			ird &= ~IRDMA_MPA_V2_PEER2PEER;
		if (c->set_send)
			ird |= IRDMA_MPA_V2_RTR_SEND;
		if (c->clr_write)
			ord &= ~IRDMA_MPA_V2_RTR_WRITE;
		if (c->clr_read)
			ord &= ~IRDMA_MPA_V2_RTR_READ;
		if (c->req_ird)
			ird = c->req_ird & 0xFFFF;
		if (c->req_ord)
			ord = c->req_ord & 0xFFFF;
		put_unaligned_be16(ird, f + 20);
		put_unaligned_be16(ord, f + 22);
		if (c->clr_v2flag)
			f[16] &= ~IRDMA_MPA_FLAG_V2;
	}

	KUNIT_ASSERT_EQ(test, irdma_parse_mpa(r, f, i->mpa_frame_len, true), 0);
	irdma_record_ird_ord(r, c->r_ird, c->r_ord);
	ret = 0;
	if (r->mpa_enhanced)
		ret = irdma_negotiate_mpa_v2_ird_ord(r, true);
	else
		r->rtr = IRDMA_RTR_NONE;
	KUNIT_EXPECT_EQ(test, ret, c->r_ret);
	KUNIT_EXPECT_EQ(test, r->mpa_err, c->r_err);
	if (ret) {
		kunit_info(test, "table %s: responder refuses, MPA error 0x%02x\n",
			   c->name, r->mpa_err);
		return;
	}
	KUNIT_EXPECT_EQ(test, r->rtr, c->rtr);
	KUNIT_EXPECT_EQ(test, r->ird, c->r_ird_end);
	KUNIT_EXPECT_EQ(test, r->ord, c->r_ord_end);
	/* private data reported without the v2 block (which is private data
	 * when the v2 flag is off)
	 */
	KUNIT_EXPECT_EQ(test, r->pdata_len, c->clr_v2flag ? 5 : 1);

	KUNIT_ASSERT_NE(test, irdma_cm_build_mpa_frame(r, false, false, "q", 1), 0);
	f = r->mpa_frame;
	if (r->mpa_enhanced) {
		u16 ird = get_unaligned_be16(f + 20), ord = get_unaligned_be16(f + 22);

		/* flag A echoed with one RTR, or neither (client-server) */
		KUNIT_EXPECT_EQ(test, !!(ird & IRDMA_MPA_V2_PEER2PEER), !c->clr_a);
		if (c->clr_a)
			KUNIT_EXPECT_EQ(test, ord & 0xC000, 0);
		else
			KUNIT_EXPECT_NE(test, ord & 0xC000, 0xC000);
		/* our own IRD/ORD, also answering "no value" (0x3FFF) */
		KUNIT_EXPECT_EQ(test, ird & 0x3FFF, r->ird);
		KUNIT_EXPECT_EQ(test, ord & 0x3FFF, r->ord);
		if (c->rep_clr_a)
			ird &= ~IRDMA_MPA_V2_PEER2PEER;
		if (c->rep_both_rtr)
			ord |= 0xC000;
		if (c->rep_ird)
			ird = c->rep_ird & 0xFFFF;
		if (c->rep_ord)
			ord = c->rep_ord & 0xFFFF;
		put_unaligned_be16(ird, f + 20);
		put_unaligned_be16(ord, f + 22);
	} else {
		KUNIT_EXPECT_EQ(test, r->mpa_frame_len,
				IRDMA_MPA_V1_HDR_SIZE + 1);
	}
	KUNIT_ASSERT_EQ(test, irdma_parse_mpa(i, f, r->mpa_frame_len, false), 0);
	ret = 0;
	if (i->mpa_enhanced)
		ret = irdma_negotiate_mpa_v2_ird_ord(i, false);
	else
		i->rtr = IRDMA_RTR_NONE;
	KUNIT_EXPECT_EQ(test, ret, c->i_ret);
	KUNIT_EXPECT_EQ(test, i->mpa_err, c->i_err);
	if (ret) {
		kunit_info(test,
			   "table %s: responder rtr=%s ird=%u ord=%u; initiator refuses, MPA error 0x%02x\n",
			   c->name, irdma_t_rtr_name(r->rtr), r->ird, r->ord,
			   i->mpa_err);
		return;
	}
	kunit_info(test,
		   "table %s: responder rtr=%s ird=%u ord=%u; initiator rtr=%s ird=%u ord=%u\n",
		   c->name, irdma_t_rtr_name(r->rtr), r->ird, r->ord,
		   irdma_t_rtr_name(i->rtr), i->ird, i->ord);
	KUNIT_EXPECT_EQ(test, i->rtr, c->rtr);
	KUNIT_EXPECT_EQ(test, i->ird, c->i_ird_end);
	KUNIT_EXPECT_EQ(test, i->ord, c->i_ord_end);
	KUNIT_EXPECT_EQ(test, i->pdata_len, 1);
}

static struct kunit_case irdma_cm_wire_cases[] = {
	KUNIT_CASE(irdma_test_mpa_v2_request_layout),
	KUNIT_CASE(irdma_test_mpa_v1_reply_layout),
	KUNIT_CASE(irdma_test_mpa_reject_flag),
	KUNIT_CASE(irdma_test_mpa_pdata_limits),
	KUNIT_CASE(irdma_test_parse_mpa_truncated),
	KUNIT_CASE(irdma_test_parse_mpa_bad_key),
	KUNIT_CASE(irdma_test_parse_mpa_revision),
	KUNIT_CASE(irdma_test_parse_mpa_pdlen_limit),
	KUNIT_CASE(irdma_test_parse_mpa_v2_pdata_excludes_block),
	KUNIT_CASE(irdma_test_parse_mpa_markers_and_reject),
	KUNIT_CASE(irdma_test_tcp_options_mss_ws),
	KUNIT_CASE(irdma_test_tcp_options_default_mss),
	KUNIT_CASE(irdma_test_tcp_options_small_mss_clamped),
	KUNIT_CASE(irdma_test_tcp_options_malformed),
	KUNIT_CASE(irdma_test_check_seq_window),
	KUNIT_CASE(irdma_test_parse_segment),
	KUNIT_CASE(irdma_test_parse_segment_ipv4_fragments),
	KUNIT_CASE(irdma_test_stateless_reset),
	KUNIT_CASE(irdma_test_kernel_lpb_helpers),
	KUNIT_CASE_PARAM(irdma_test_negotiation_table, irdma_nego_gen_params),
	{}
};

static struct kunit_suite irdma_cm_wire_suite = {
	.name = "irdma_cm_wire",
	.test_cases = irdma_cm_wire_cases,
};

/*
 * Suite irdma_cm_conn: two CM instances over the in-memory wire
 */

/* flags of the first SYN (@ack: SYN-ACK) that dev @from sent */
static u8 irdma_t_syn_flags(int from, bool ack)
{
	int i;

	for (i = 0; i < irdma_tw->nlog; i++) {
		u8 f = irdma_tw->log[i].flags;

		if (irdma_tw->log[i].from == from && (f & IRDMA_TCP_SYN) &&
		    !!(f & IRDMA_TCP_ACK) == ack)
			return f;
	}
	return 0;
}

/*
 * ECN (RFC 3168) with dev 0's tcp_ecn @amode (the active side) and dev
 * 1's @pmode: the SYN asks only under 1, the SYN-ACK grants only under 1
 * or 2, and both offloads have ECN exactly when it was granted
 */
static void irdma_t_ecn_case(struct kunit *test, int amode, int pmode)
{
	struct irdma_test_cmid *l = irdma_t_listen(test, true, NULL, 4);
	struct irdma_test_cmid *a = irdma_t_cmid(test, 0);
	bool asked = amode == 1, on = asked && pmode;
	u8 syn, synack;

	irdma_t_core(0)->tun.ecn = amode;
	irdma_t_core(1)->tun.ecn = pmode;
	irdma_t_establish(test, l, a);
	syn = irdma_t_syn_flags(0, false);
	synack = irdma_t_syn_flags(1, true);
	KUNIT_EXPECT_EQ(test, syn & (IRDMA_TCP_ECE | IRDMA_TCP_CWR),
			asked ? IRDMA_TCP_ECE | IRDMA_TCP_CWR : 0);
	KUNIT_EXPECT_EQ(test, synack & (IRDMA_TCP_ECE | IRDMA_TCP_CWR),
			on ? IRDMA_TCP_ECE : 0);
	KUNIT_EXPECT_EQ(test, irdma_t_tqp(0, 0)->off.ecn, on);
	KUNIT_EXPECT_EQ(test, irdma_t_tqp(1, 0)->off.ecn, on);
}

static void irdma_test_ecn_asked_granted(struct kunit *test)
{
	irdma_t_ecn_case(test, 1, 2);
}

static void irdma_test_ecn_asked_refused(struct kunit *test)
{
	irdma_t_ecn_case(test, 1, 0);
}

static void irdma_test_ecn_not_asked(struct kunit *test)
{
	irdma_t_ecn_case(test, 2, 1);
}

static void irdma_test_connect_accept_ipv4(struct kunit *test)
{
	struct irdma_test_cmid *l = irdma_t_listen(test, true, NULL, 4);
	struct irdma_test_cmid *a = irdma_t_cmid(test, 0);
	struct irdma_test_cmid *n;
	struct irdma_cm_offload_info *ao, *po;

	n = irdma_t_establish(test, l, a);
	KUNIT_EXPECT_EQ(test, n->ev[0].type, IW_CM_EVENT_ESTABLISHED);
	KUNIT_EXPECT_EQ(test, l->ev[0].type, IW_CM_EVENT_CONNECT_REQUEST);
	KUNIT_EXPECT_EQ(test, l->ev[0].plen, 5);
	KUNIT_EXPECT_EQ(test, memcmp(l->ev[0].pdata, "hello", 5), 0);
	KUNIT_EXPECT_EQ(test, a->ev[0].plen, 5);
	KUNIT_EXPECT_EQ(test, memcmp(a->ev[0].pdata, "world", 5), 0);

	ao = &irdma_t_tqp(0, 0)->off;
	po = &irdma_t_tqp(1, 0)->off;
	KUNIT_EXPECT_TRUE(test, irdma_t_tqp(0, 0)->offloaded);
	KUNIT_EXPECT_TRUE(test, irdma_t_tqp(1, 0)->offloaded);
	/* both TCP contexts describe one connection */
	KUNIT_EXPECT_EQ(test, ao->snd_nxt, po->rcv_nxt);
	KUNIT_EXPECT_EQ(test, po->snd_nxt + po->lsmm_len, ao->rcv_nxt);
	KUNIT_EXPECT_EQ(test, ao->loc_port, po->rem_port);
	KUNIT_EXPECT_EQ(test, ao->loc_addr[3], (u32)T_ADDR0);
	KUNIT_EXPECT_EQ(test, po->loc_addr[3], (u32)T_ADDR1);
	KUNIT_EXPECT_EQ(test, ao->loc_addr[0], 0u);
	KUNIT_EXPECT_EQ(test, ao->rcv_wnd, (u32)IRDMA_CM_RCV_WND);
	KUNIT_EXPECT_EQ(test, ao->snd_wscale, IRDMA_CM_RCV_WSCALE);
	KUNIT_EXPECT_EQ(test, ao->rcv_wscale, IRDMA_CM_RCV_WSCALE);
	KUNIT_EXPECT_EQ(test, ao->snd_wnd, (u32)IRDMA_CM_RCV_WND);
	KUNIT_EXPECT_EQ(test, ao->mss, 1460);
	KUNIT_EXPECT_EQ(test, ao->ttl, IRDMA_CM_DEFAULT_TTL);
	KUNIT_EXPECT_TRUE(test, ao->crc);
	KUNIT_EXPECT_EQ(test, ao->rtr, IRDMA_RTR_READ);
	KUNIT_EXPECT_EQ(test, po->rtr, IRDMA_RTR_READ);
	KUNIT_EXPECT_TRUE(test, ao->active);
	KUNIT_EXPECT_EQ(test, ao->lsmm_len, 0u);
	/* the LSMM is the MPA reply: v2 header and the private data */
	KUNIT_EXPECT_EQ(test, po->lsmm_len, 24u + 5);
	KUNIT_EXPECT_EQ(test, memcmp(irdma_t_tqp(1, 0)->lsmm, "MPA ID Rep Frame",
				     16), 0);
	KUNIT_EXPECT_EQ(test, ao->ird, 8);
	KUNIT_EXPECT_EQ(test, po->ord, 8);
	/* each context names the ARP entry of the other side's MAC */
	KUNIT_EXPECT_TRUE(test, irdma_t_arp_is(0, ao->arp_idx,
					       irdma_tw->dev[1].netdev->dev_addr));
	KUNIT_EXPECT_TRUE(test, irdma_t_arp_is(1, po->arp_idx,
					       irdma_tw->dev[0].netdev->dev_addr));
	/*
	 * the 4-tuple stays steered while the connection is offloaded (no
	 * window in which its frames reach the host stack); the QP's reset
	 * or destroy removes it, not the node (checked at the test's end)
	 */
	KUNIT_EXPECT_EQ(test, irdma_tw->dev[0].qhash_est, 1);
	KUNIT_EXPECT_EQ(test, irdma_tw->dev[1].qhash_est, 1);
	KUNIT_EXPECT_EQ(test, irdma_t_core(1)->stats.accepts, 1ull);
}

static void irdma_test_connect_accept_ipv6(struct kunit *test)
{
	struct irdma_test_cmid *l = irdma_t_listen(test, false, irdma_t_v6_1, 4);
	struct irdma_test_cmid *a = irdma_t_cmid(test, 0);
	struct irdma_test_cmid *n = irdma_t_cmid(test, 1);
	struct irdma_cm_offload_info *ao;

	KUNIT_ASSERT_EQ(test, irdma_t_connect_to(a, 0, false, irdma_t_v6_0,
						 irdma_t_v6_1, T_PORT_A, 10,
						 "six", 3, 4, 4), 0);
	irdma_t_pump();
	KUNIT_ASSERT_EQ(test, l->nev, 1);
	KUNIT_EXPECT_EQ(test, l->ev[0].local.ss_family, AF_INET6);
	KUNIT_ASSERT_EQ(test, irdma_t_accept(l, n, 11, NULL, 0, 4, 4), 0);
	irdma_t_pump();
	KUNIT_ASSERT_EQ(test, a->nev, 1);
	KUNIT_EXPECT_EQ(test, a->ev[0].status, 0);
	ao = &irdma_t_tqp(0, 0)->off;
	KUNIT_EXPECT_FALSE(test, ao->ipv4);
	KUNIT_EXPECT_EQ(test, memcmp(ao->rem_addr, irdma_t_v6_1, 16), 0);
	KUNIT_EXPECT_EQ(test, ao->mss, 1440);
	KUNIT_EXPECT_EQ(test, ao->snd_nxt, irdma_t_tqp(1, 1)->off.rcv_nxt);
}

static void irdma_test_syn_options_on_wire(struct kunit *test)
{
	struct irdma_test_cmid *a = irdma_t_cmid(test, 0);
	struct irdma_test_seg *s;
	int i;

	irdma_t_listen(test, true, NULL, 4);
	KUNIT_ASSERT_EQ(test, irdma_t_connect(test, a, NULL, 0), 0);
	s = &irdma_tw->log[0];
	KUNIT_ASSERT_GE(test, irdma_tw->nlog, 1);
	KUNIT_EXPECT_EQ(test, s->flags, IRDMA_TCP_SYN);
	KUNIT_EXPECT_EQ(test, s->hdr_len, 28u);
	KUNIT_EXPECT_EQ(test, s->win, 0xFFFF);
	KUNIT_EXPECT_EQ(test, s->seg[20], IRDMA_TCPOPT_MSS);
	KUNIT_EXPECT_EQ(test, get_unaligned_be16(s->seg + 22), 1460);
	KUNIT_EXPECT_EQ(test, s->seg[24], IRDMA_TCPOPT_WS);
	KUNIT_EXPECT_EQ(test, s->seg[26], IRDMA_CM_RCV_WSCALE);
	KUNIT_EXPECT_EQ(test, get_unaligned_be16(s->seg + 16), 0);	/* csum */
	irdma_t_pump();
	for (i = 1; i < irdma_tw->nlog - 1; i++)	/* skip SYN retransmissions */
		if (irdma_tw->log[i].from == 1)
			break;
	s = &irdma_tw->log[i];
	KUNIT_EXPECT_EQ(test, s->flags, IRDMA_TCP_SYN | IRDMA_TCP_ACK);
	KUNIT_EXPECT_EQ(test, s->ack, irdma_tw->log[0].seq + 1);
	KUNIT_EXPECT_EQ(test, s->hdr_len, 28u);
}

static void irdma_test_pdata_length_checks(struct kunit *test)
{
	struct irdma_test_cmid *l = irdma_t_listen(test, true, NULL, 4);
	struct irdma_test_cmid *a = irdma_t_cmid(test, 0);
	struct irdma_test_cmid *n = irdma_t_cmid(test, 1);
	static u8 big[300];

	KUNIT_EXPECT_EQ(test, irdma_t_connect(test, a, big, 256), -EINVAL);
	KUNIT_ASSERT_EQ(test, irdma_t_connect(test, a, big, 255), 0);
	irdma_t_pump();
	KUNIT_ASSERT_EQ(test, l->nev, 1);
	KUNIT_EXPECT_EQ(test, l->ev[0].plen, 255);
	KUNIT_EXPECT_EQ(test, irdma_t_accept(l, n, 10, big, 256, 8, 8), -EINVAL);
	irdma_t_run(40);
	/* the refused accept closed the connection towards the peer */
	KUNIT_EXPECT_EQ(test, a->nev, 1);
	KUNIT_EXPECT_NE(test, a->ev[0].status, 0);
	KUNIT_EXPECT_EQ(test, a->refs, 0);
}

static void irdma_test_reject_rflag_then_fin(struct kunit *test)
{
	struct irdma_test_cmid *l = irdma_t_listen(test, true, NULL, 4);
	struct irdma_test_cmid *a = irdma_t_cmid(test, 0);
	struct irdma_test_cmid *n = irdma_t_cmid(test, 1);
	int i, found = 0, fin = 0;

	KUNIT_ASSERT_EQ(test, irdma_t_connect(test, a, "x", 1), 0);
	irdma_t_pump();
	KUNIT_ASSERT_EQ(test, l->nev, 1);
	n->id.provider_data = l->ev[0].provider_data;
	KUNIT_ASSERT_EQ(test, irdma_reject(&n->id, "nope", 4), 0);
	irdma_t_run(100);
	KUNIT_ASSERT_EQ(test, a->nev, 1);
	KUNIT_EXPECT_EQ(test, a->ev[0].type, IW_CM_EVENT_CONNECT_REPLY);
	KUNIT_EXPECT_EQ(test, a->ev[0].status, -ECONNREFUSED);
	KUNIT_EXPECT_EQ(test, a->ev[0].plen, 4);
	KUNIT_EXPECT_EQ(test, memcmp(a->ev[0].pdata, "nope", 4), 0);
	/* the reject alone, then (once it is acknowledged) our FIN */
	for (i = 0; i < irdma_tw->nlog; i++) {
		struct irdma_test_seg *s = &irdma_tw->log[i];

		if (s->from != 1)
			continue;
		if (s->datalen &&
		    (s->seg[s->hdr_len + 16] & IRDMA_MPA_FLAG_REJECT)) {
			KUNIT_EXPECT_FALSE(test, s->flags & IRDMA_TCP_FIN);
			KUNIT_EXPECT_EQ(test, fin, 0);
			found++;
		} else if (s->flags & IRDMA_TCP_FIN) {
			KUNIT_EXPECT_EQ(test, s->datalen, 0u);
			KUNIT_EXPECT_GE(test, found, 1);
			fin++;
		}
	}
	KUNIT_EXPECT_GE(test, found, 1);	/* retransmitted copies allowed */
	KUNIT_EXPECT_GE(test, fin, 1);
	KUNIT_EXPECT_EQ(test, irdma_t_core(0)->node_cnt, 0u);
	KUNIT_EXPECT_EQ(test, irdma_t_core(1)->node_cnt, 0u);
	KUNIT_EXPECT_EQ(test, a->refs, 0);
	KUNIT_EXPECT_EQ(test, irdma_t_tqp(0, 0)->refs, 0);
}

static enum irdma_test_fault irdma_t_drop_n(struct irdma_test_wire *w, int n,
					    const struct irdma_test_seg *s)
{
	return n == w->fault_n ? T_DROP : T_DELIVER;
}

static void irdma_t_lossy_connect(struct kunit *test, int drop)
{
	struct irdma_test_cmid *l = irdma_t_listen(test, true, NULL, 4);
	struct irdma_test_cmid *a = irdma_t_cmid(test, 0);
	struct irdma_test_cmid *n = irdma_t_cmid(test, 1);

	irdma_tw->filter = irdma_t_drop_n;
	irdma_tw->fault_n = drop;
	KUNIT_ASSERT_EQ(test, irdma_t_connect(test, a, "d", 1), 0);
	irdma_t_run(120);
	KUNIT_ASSERT_EQ(test, l->nev, 1);
	KUNIT_ASSERT_EQ(test, irdma_t_accept(l, n, 10, NULL, 0, 8, 8), 0);
	irdma_t_run(20);
	KUNIT_ASSERT_EQ(test, a->nev, 1);
	KUNIT_EXPECT_EQ(test, a->ev[0].status, 0);
	KUNIT_EXPECT_EQ(test, n->ev[0].type, IW_CM_EVENT_ESTABLISHED);
	KUNIT_EXPECT_GE(test, irdma_t_core(0)->stats.rexmits +
			irdma_t_core(1)->stats.rexmits, 1ull);
	KUNIT_EXPECT_EQ(test, irdma_t_tqp(0, 0)->off.snd_nxt,
			irdma_t_tqp(1, 0)->off.rcv_nxt);
}

static void irdma_test_lost_syn(struct kunit *test)
{
	irdma_t_lossy_connect(test, 0);
}

static void irdma_test_lost_synack(struct kunit *test)
{
	irdma_t_lossy_connect(test, 1);
}

static void irdma_test_lost_mpa_request(struct kunit *test)
{
	irdma_t_lossy_connect(test, 2);
}

static enum irdma_test_fault irdma_t_dup_all(struct irdma_test_wire *w, int n,
					     const struct irdma_test_seg *s)
{
	return T_DUP;
}

static void irdma_test_duplicated_segments(struct kunit *test)
{
	struct irdma_test_cmid *l = irdma_t_listen(test, true, NULL, 4);
	struct irdma_test_cmid *a = irdma_t_cmid(test, 0);

	irdma_tw->filter = irdma_t_dup_all;
	irdma_t_establish(test, l, a);
	KUNIT_EXPECT_EQ(test, l->nev, 1);	/* one request despite the copies */
	KUNIT_EXPECT_EQ(test, irdma_t_tqp(0, 0)->off.snd_nxt,
			irdma_t_tqp(1, 0)->off.rcv_nxt);
	KUNIT_EXPECT_GE(test, irdma_t_core(1)->stats.rx_dropped, 1ull);
}

static enum irdma_test_fault irdma_t_hold_n(struct irdma_test_wire *w, int n,
					    const struct irdma_test_seg *s)
{
	return n == w->fault_n ? T_HOLD : T_DELIVER;
}

/*
 * the MPA request held on the wire until its retransmission: the two
 * copies arrive back to back, the second is a duplicate, and the
 * connection completes once
 */
static void irdma_test_held_request_duplicated(struct kunit *test)
{
	struct irdma_test_cmid *l = irdma_t_listen(test, true, NULL, 4);
	struct irdma_test_cmid *a = irdma_t_cmid(test, 0);
	struct irdma_test_cmid *n = irdma_t_cmid(test, 1);

	irdma_tw->filter = irdma_t_hold_n;
	irdma_tw->fault_n = 2;
	KUNIT_ASSERT_EQ(test, irdma_t_connect(test, a, "r", 1), 0);
	irdma_t_run(120);
	KUNIT_ASSERT_EQ(test, l->nev, 1);
	KUNIT_ASSERT_EQ(test, irdma_t_accept(l, n, 10, NULL, 0, 8, 8), 0);
	irdma_t_run(20);
	KUNIT_EXPECT_EQ(test, a->nev, 1);
	KUNIT_EXPECT_EQ(test, a->ev[0].status, 0);
}

/*
 * reordering: the second half of an MPA request arrives before the first.
 * The CM keeps only in-order bytes (the early half is dropped and answered
 * with a duplicate ACK), takes the first half, and the request completes
 * when the peer resends the second half.
 */
static void irdma_test_reordered_segments(struct kunit *test)
{
	struct irdma_test_cmid *l = irdma_t_listen(test, true, NULL, 4);
	struct irdma_t_raw r;
	u32 len, half, seq0;
	u8 f[64];

	irdma_t_raw_handshake(test, &r);
	len = irdma_t_mpa(f, true, 2, 0x50, true, 0x8008, 0xC008, "reorder", 7);
	half = len / 2;
	seq0 = r.seq;
	r.seq = seq0 + half;		/* the second half first */
	irdma_t_raw_send(&r, IRDMA_TCP_ACK, NULL, 0, f + half, len - half);
	KUNIT_EXPECT_EQ(test, l->nev, 0);
	KUNIT_EXPECT_EQ(test, irdma_t_raw_last()->ack, seq0);
	r.seq = seq0;			/* then the first */
	irdma_t_raw_send(&r, IRDMA_TCP_ACK, NULL, 0, f, half);
	KUNIT_EXPECT_EQ(test, l->nev, 0);
	KUNIT_EXPECT_EQ(test, irdma_t_raw_last()->ack, seq0 + half);
	/* the peer resends what was not acknowledged */
	irdma_t_raw_send(&r, IRDMA_TCP_ACK, NULL, 0, f + half, len - half);
	KUNIT_ASSERT_EQ(test, l->nev, 1);
	KUNIT_EXPECT_EQ(test, l->ev[0].type, IW_CM_EVENT_CONNECT_REQUEST);
	KUNIT_EXPECT_EQ(test, l->ev[0].plen, 7);
	KUNIT_EXPECT_EQ(test, memcmp(l->ev[0].pdata, "reorder", 7), 0);
}

static enum irdma_test_fault irdma_t_corrupt_n(struct irdma_test_wire *w,
					       int n,
					       const struct irdma_test_seg *s)
{
	return n == w->fault_n ? T_CORRUPT : T_DELIVER;
}

/*
 * corrupt the first segment that carries data from dev fault_from: from
 * dev 0 the MPA request, from dev 1 the MPA reply
 */
static enum irdma_test_fault irdma_t_corrupt_mpa(struct irdma_test_wire *w,
						 int n,
						 const struct irdma_test_seg *s)
{
	if (s->from != w->fault_from || !s->datalen || w->fault_n < 0)
		return T_DELIVER;
	w->fault_n = -1;
	return T_CORRUPT;
}

static void irdma_test_corrupted_mpa_key(struct kunit *test)
{
	struct irdma_test_cmid *l = irdma_t_listen(test, true, NULL, 4);
	struct irdma_test_cmid *a = irdma_t_cmid(test, 0);

	irdma_tw->filter = irdma_t_corrupt_mpa;
	irdma_tw->corrupt_off = 20 + 3;		/* a key byte */
	KUNIT_ASSERT_EQ(test, irdma_t_connect(test, a, "c", 1), 0);
	irdma_t_run(30);
	KUNIT_EXPECT_EQ(test, l->nev, 0);	/* never reported */
	KUNIT_ASSERT_EQ(test, a->nev, 1);
	KUNIT_EXPECT_EQ(test, a->ev[0].type, IW_CM_EVENT_CONNECT_REPLY);
	KUNIT_EXPECT_EQ(test, a->ev[0].status, -ECONNRESET);
	KUNIT_EXPECT_GE(test, irdma_t_core(1)->stats.resets_sent, 1ull);
}

static void irdma_test_corrupted_header_dropped(struct kunit *test)
{
	struct irdma_test_cmid *l = irdma_t_listen(test, true, NULL, 4);
	struct irdma_test_cmid *a = irdma_t_cmid(test, 0);
	struct irdma_test_cmid *n = irdma_t_cmid(test, 1);

	/* a bad data offset in the SYN: dropped, the retransmission works */
	irdma_tw->filter = irdma_t_corrupt_n;
	irdma_tw->fault_n = 0;
	irdma_tw->corrupt_off = T_TCP(doff);
	KUNIT_ASSERT_EQ(test, irdma_t_connect(test, a, NULL, 0), 0);
	irdma_t_run(120);
	KUNIT_ASSERT_EQ(test, l->nev, 1);
	KUNIT_EXPECT_GE(test, irdma_t_core(1)->stats.rx_dropped, 1ull);
	KUNIT_ASSERT_EQ(test, irdma_t_accept(l, n, 10, NULL, 0, 8, 8), 0);
	irdma_t_pump();
	KUNIT_EXPECT_EQ(test, a->ev[0].status, 0);
}

static enum irdma_test_fault irdma_t_drop_all(struct irdma_test_wire *w, int n,
					      const struct irdma_test_seg *s)
{
	return T_DROP;
}

static void irdma_test_connect_timeout(struct kunit *test)
{
	struct irdma_test_cmid *a = irdma_t_cmid(test, 0);
	int syns = 0, rsts = 0, i;

	irdma_t_listen(test, true, NULL, 4);
	irdma_tw->filter = irdma_t_drop_all;
	KUNIT_ASSERT_EQ(test, irdma_t_connect(test, a, NULL, 0), 0);
	irdma_t_run(600);
	KUNIT_ASSERT_EQ(test, a->nev, 1);
	KUNIT_EXPECT_EQ(test, a->ev[0].status, -ETIMEDOUT);
	for (i = 0; i < irdma_tw->nlog; i++) {
		syns += irdma_tw->log[i].flags == IRDMA_TCP_SYN;
		rsts += !!(irdma_tw->log[i].flags & IRDMA_TCP_RST);
	}
	KUNIT_EXPECT_EQ(test, syns, 1 + 3);	/* first + syn_retries */
	KUNIT_EXPECT_EQ(test, rsts, 1);
	KUNIT_EXPECT_EQ(test, irdma_t_core(0)->stats.connect_timeouts, 1ull);
	KUNIT_EXPECT_EQ(test, irdma_t_core(0)->node_cnt, 0u);
}

static void irdma_test_backoff_doubles_and_caps(struct kunit *test)
{
	struct irdma_test_cmid *a = irdma_t_cmid(test, 0);
	struct irdma_cm_core *core = irdma_t_core(0);
	struct irdma_cm_node *cm;
	unsigned long seen[5];
	int i;

	core->tun.rexmit_timeout = HZ;		/* long: we drive it */
	core->tun.rexmit_max_timeout = 12 * HZ;
	core->tun.max_rexmits = 32;
	core->tun.syn_retries = 32;
	irdma_tw->filter = irdma_t_drop_all;
	KUNIT_ASSERT_EQ(test, irdma_t_connect(test, a, NULL, 0), 0);
	mutex_lock(&core->mutex);
	cm = irdma_t_find(0, T_PORT_A);
	if (!cm) {
		mutex_unlock(&core->mutex);
		KUNIT_FAIL(test, "no node");
		return;
	}
	KUNIT_EXPECT_EQ(test, cm->tx.timeout, (unsigned long)HZ);
	for (i = 0; i < 5; i++) {
		cm->tx.deadline = jiffies - 1;
		irdma_cm_rexmit(cm);
		seen[i] = cm->tx.timeout;
	}
	KUNIT_EXPECT_EQ(test, seen[0], 2ul * HZ);
	KUNIT_EXPECT_EQ(test, seen[1], 4ul * HZ);
	KUNIT_EXPECT_EQ(test, seen[2], 8ul * HZ);
	KUNIT_EXPECT_EQ(test, seen[3], 12ul * HZ);
	KUNIT_EXPECT_EQ(test, seen[4], 12ul * HZ);
	KUNIT_EXPECT_EQ(test, cm->tx.retries, 5u);
	/* a stale expiry (deadline ahead) does nothing */
	cm->tx.deadline = jiffies + HZ;
	irdma_cm_rexmit(cm);
	KUNIT_EXPECT_EQ(test, cm->tx.retries, 5u);
	/* one armed timer per node: no scan */
	KUNIT_EXPECT_TRUE(test, timer_pending(&cm->rexmit_timer));
	mutex_unlock(&core->mutex);
}

static void irdma_test_no_listener_refused(struct kunit *test)
{
	struct irdma_test_cmid *a = irdma_t_cmid(test, 0);

	KUNIT_ASSERT_EQ(test, irdma_t_connect(test, a, NULL, 0), 0);
	irdma_t_pump();
	KUNIT_ASSERT_EQ(test, a->nev, 1);
	KUNIT_EXPECT_EQ(test, a->ev[0].status, -ECONNREFUSED);
	KUNIT_EXPECT_EQ(test, irdma_tw->log[1].flags,
			IRDMA_TCP_RST | IRDMA_TCP_ACK);
	KUNIT_EXPECT_EQ(test, irdma_t_core(0)->node_cnt, 0u);
}

static void irdma_test_rst_validation(struct kunit *test)
{
	struct irdma_test_cmid *l = irdma_t_listen(test, true, NULL, 4);
	struct irdma_t_raw r;
	struct irdma_cm_node *cm;
	u64 acks;

	irdma_t_raw_handshake(test, &r);
	cm = irdma_t_find_rem(1, r.port);
	KUNIT_ASSERT_NOT_NULL(test, cm);
	KUNIT_EXPECT_EQ(test, cm->state, IRDMA_CM_STATE_ESTABLISHED);
	/* in window but not rcv_nxt: challenge ACK, connection stays */
	acks = irdma_t_core(1)->stats.challenge_acks;
	r.seq += 100;
	irdma_t_raw_send(&r, IRDMA_TCP_RST, NULL, 0, NULL, 0);
	KUNIT_EXPECT_EQ(test, irdma_t_core(1)->stats.challenge_acks, acks + 1);
	KUNIT_EXPECT_EQ(test, irdma_t_raw_last()->flags, IRDMA_TCP_ACK);
	KUNIT_EXPECT_EQ(test, irdma_t_raw_last()->ack, 1001u);
	KUNIT_EXPECT_EQ(test, cm->state, IRDMA_CM_STATE_ESTABLISHED);
	/* out of window: dropped silently */
	r.seq += 0x80000000;
	irdma_t_raw_send(&r, IRDMA_TCP_RST, NULL, 0, NULL, 0);
	KUNIT_EXPECT_EQ(test, irdma_t_core(1)->stats.challenge_acks, acks + 1);
	KUNIT_EXPECT_EQ(test, cm->state, IRDMA_CM_STATE_ESTABLISHED);
	/* exact: accepted */
	r.seq = 1001;
	irdma_t_raw_send(&r, IRDMA_TCP_RST, NULL, 0, NULL, 0);
	KUNIT_EXPECT_EQ(test, irdma_t_core(1)->node_cnt, 0u);
	KUNIT_EXPECT_EQ(test, l->nev, 0);
}

static void irdma_test_rst_syn_sent_needs_ack(struct kunit *test)
{
	struct irdma_test_cmid *a = irdma_t_cmid(test, 0);
	struct irdma_cm_core *core = irdma_t_core(0);
	struct irdma_cm_node *cm;
	struct irdma_cm_seg s = { .flags = IRDMA_TCP_RST };

	irdma_tw->filter = irdma_t_drop_all;
	KUNIT_ASSERT_EQ(test, irdma_t_connect(test, a, NULL, 0), 0);
	mutex_lock(&core->mutex);
	cm = irdma_t_find(0, T_PORT_A);
	if (!cm) {
		mutex_unlock(&core->mutex);
		KUNIT_FAIL(test, "no node");
		return;
	}
	irdma_cm_node_get(cm);
	irdma_process_pkt(cm, &s);		/* no ACK: ignored */
	KUNIT_EXPECT_EQ(test, cm->state, IRDMA_CM_STATE_SYN_SENT);
	s.flags = IRDMA_TCP_RST | IRDMA_TCP_ACK;
	s.ack = cm->snd_nxt + 5;		/* wrong ACK: ignored */
	irdma_process_pkt(cm, &s);
	KUNIT_EXPECT_EQ(test, cm->state, IRDMA_CM_STATE_SYN_SENT);
	s.ack = cm->snd_nxt;
	irdma_process_pkt(cm, &s);
	KUNIT_EXPECT_EQ(test, cm->state, IRDMA_CM_STATE_CLOSED);
	irdma_rem_ref_cm_node(cm);
	mutex_unlock(&core->mutex);
	KUNIT_ASSERT_EQ(test, a->nev, 1);
	KUNIT_EXPECT_EQ(test, a->ev[0].status, -ECONNREFUSED);
}

static void irdma_test_bad_acks_get_resets(struct kunit *test)
{
	struct irdma_test_cmid *a = irdma_t_cmid(test, 0);
	struct irdma_cm_core *core = irdma_t_core(0);
	struct irdma_cm_node *cm;
	struct irdma_cm_seg s = { .flags = IRDMA_TCP_ACK };
	u64 rsts;

	irdma_tw->filter = irdma_t_drop_all;
	KUNIT_ASSERT_EQ(test, irdma_t_connect(test, a, NULL, 0), 0);
	mutex_lock(&core->mutex);
	cm = irdma_t_find(0, T_PORT_A);
	if (!cm) {
		mutex_unlock(&core->mutex);
		KUNIT_FAIL(test, "no node");
		return;
	}
	irdma_cm_node_get(cm);
	rsts = core->stats.resets_sent;
	/* SYN_SENT: an ACK for something we never sent */
	s.ack = cm->snd_nxt + 100;
	s.seq = 77;
	irdma_t_process(cm, &s);
	KUNIT_EXPECT_EQ(test, core->stats.resets_sent, rsts + 1);
	KUNIT_EXPECT_EQ(test, irdma_tw->log[irdma_tw->nlog - 1].flags,
			IRDMA_TCP_RST);
	KUNIT_EXPECT_EQ(test, irdma_tw->log[irdma_tw->nlog - 1].seq,
			cm->snd_nxt + 100);
	/* a SYN-ACK with the wrong ACK: reset, still SYN_SENT */
	s.flags = IRDMA_TCP_SYN | IRDMA_TCP_ACK;
	irdma_t_process(cm, &s);
	KUNIT_EXPECT_EQ(test, core->stats.resets_sent, rsts + 2);
	KUNIT_EXPECT_EQ(test, cm->state, IRDMA_CM_STATE_SYN_SENT);
	irdma_rem_ref_cm_node(cm);
	mutex_unlock(&core->mutex);
	KUNIT_EXPECT_EQ(test, a->nev, 0);
}

static void irdma_test_out_of_window_data_dropped(struct kunit *test)
{
	struct irdma_test_cmid *l = irdma_t_listen(test, true, NULL, 4);
	struct irdma_t_raw r;
	u8 f[64];
	u32 len;

	irdma_t_raw_handshake(test, &r);
	len = irdma_t_mpa(f, true, 2, 0x50, true, 0x8008, 0xC008, NULL, 0);
	/* a future segment (reordered): dropped, duplicate ACK */
	r.seq += 10;
	irdma_t_raw_send(&r, IRDMA_TCP_ACK, NULL, 0, f, len);
	KUNIT_EXPECT_EQ(test, l->nev, 0);
	KUNIT_EXPECT_EQ(test, irdma_t_raw_last()->ack, 1001u);
	/* far outside the window */
	r.seq = 1001 + 0x40000000;
	irdma_t_raw_send(&r, IRDMA_TCP_ACK, NULL, 0, f, len);
	KUNIT_EXPECT_EQ(test, l->nev, 0);
	/* in order: taken */
	r.seq = 1001;
	irdma_t_raw_send(&r, IRDMA_TCP_ACK, NULL, 0, f, len);
	KUNIT_EXPECT_EQ(test, l->nev, 1);
	KUNIT_EXPECT_EQ(test, irdma_t_raw_last()->ack, 1001 + len);
}

static void irdma_test_mpa_request_reassembled(struct kunit *test)
{
	struct irdma_test_cmid *l = irdma_t_listen(test, true, NULL, 4);
	struct irdma_t_raw r;
	u8 f[64];
	u32 len;

	irdma_t_raw_handshake(test, &r);
	len = irdma_t_mpa(f, true, 2, 0x50, true, 0x8008, 0xC008, "split", 5);
	irdma_t_raw_send(&r, IRDMA_TCP_ACK, NULL, 0, f, 10);
	KUNIT_EXPECT_EQ(test, l->nev, 0);
	irdma_t_raw_send(&r, IRDMA_TCP_ACK, NULL, 0, f + 10, 15);
	KUNIT_EXPECT_EQ(test, l->nev, 0);
	irdma_t_raw_send(&r, IRDMA_TCP_ACK, NULL, 0, f + 25, len - 25);
	KUNIT_ASSERT_EQ(test, l->nev, 1);
	KUNIT_EXPECT_EQ(test, l->ev[0].plen, 5);
	KUNIT_EXPECT_EQ(test, memcmp(l->ev[0].pdata, "split", 5), 0);
}

static void irdma_test_mpa_v1_peer(struct kunit *test)
{
	struct irdma_test_cmid *l = irdma_t_listen(test, true, NULL, 4);
	struct irdma_test_cmid *n = irdma_t_cmid(test, 1);
	struct irdma_test_seg *s;
	struct irdma_t_raw r;
	u8 f[64];
	u32 len;

	irdma_t_raw_handshake(test, &r);
	len = irdma_t_mpa(f, true, 1, 0x40, false, 0, 0, "v1", 2);
	irdma_t_raw_send(&r, IRDMA_TCP_ACK, NULL, 0, f, len);
	KUNIT_ASSERT_EQ(test, l->nev, 1);
	KUNIT_EXPECT_EQ(test, l->ev[0].plen, 2);
	KUNIT_ASSERT_EQ(test, irdma_t_accept(l, n, 10, "ok", 2, 8, 8), 0);
	s = irdma_t_raw_last();
	KUNIT_ASSERT_NOT_NULL(test, s);
	KUNIT_EXPECT_EQ(test, s->datalen, 22u);		/* v1 reply by LSMM */
	KUNIT_EXPECT_EQ(test, s->seg[s->hdr_len + 17], 1);
	KUNIT_EXPECT_EQ(test, irdma_t_tqp(1, 0)->off.rtr, IRDMA_RTR_NONE);
}

static void irdma_test_v2_client_server_accepted(struct kunit *test)
{
	struct irdma_test_cmid *l = irdma_t_listen(test, true, NULL, 4);
	struct irdma_test_cmid *n = irdma_t_cmid(test, 1);
	struct irdma_test_seg *s;
	struct irdma_t_raw r;
	u8 f[64], *rep;
	u32 len;

	/* soft-iWARP's request: v2 with IRD/ORD, no flag A, no RTR offer */
	irdma_t_raw_handshake(test, &r);
	len = irdma_t_mpa(f, true, 2, 0x50, true, 0x0008, 0x0008, "hi", 2);
	irdma_t_raw_send(&r, IRDMA_TCP_ACK, NULL, 0, f, len);
	KUNIT_ASSERT_EQ(test, l->nev, 1);
	KUNIT_EXPECT_EQ(test, l->ev[0].plen, 2);
	KUNIT_ASSERT_EQ(test, irdma_t_accept(l, n, 10, "ok", 2, 16, 16), 0);
	s = irdma_t_raw_last();
	KUNIT_ASSERT_NOT_NULL(test, s);
	rep = s->seg + s->hdr_len;
	KUNIT_EXPECT_EQ(test, s->datalen, 24u + 2);
	KUNIT_EXPECT_FALSE(test, rep[16] & IRDMA_MPA_FLAG_REJECT);
	KUNIT_EXPECT_TRUE(test, rep[16] & IRDMA_MPA_FLAG_V2);
	/* no flag A, no RTR; IRD 16, ORD capped at the initiator's IRD 8 */
	KUNIT_EXPECT_EQ(test, get_unaligned_be16(rep + 20), 16);
	KUNIT_EXPECT_EQ(test, get_unaligned_be16(rep + 22), 8);
	/* the initiator sends first: our LSMM waits for its FPDU, no RTR */
	KUNIT_EXPECT_EQ(test, irdma_t_tqp(1, 0)->off.rtr, IRDMA_RTR_NONE);
	KUNIT_EXPECT_EQ(test, irdma_t_tqp(1, 0)->off.ord, 8u);
}

/* a request for markers: MPA reject, then FIN; the ULP never hears of it */
static void irdma_test_markers_request_refused(struct kunit *test)
{
	struct irdma_test_cmid *l = irdma_t_listen(test, true, NULL, 4);
	struct irdma_cm_listener *listener = l->id.provider_data;
	struct irdma_test_seg *s;
	struct irdma_t_raw r;
	u8 f[64];
	u32 len;

	irdma_t_raw_handshake(test, &r);
	len = irdma_t_mpa(f, true, 2, 0xD0, true, 0x8008, 0xC008, NULL, 0);
	irdma_t_raw_send(&r, IRDMA_TCP_ACK, NULL, 0, f, len);
	KUNIT_EXPECT_EQ(test, l->nev, 0);
	KUNIT_EXPECT_EQ(test, listener->pending, 0);
	KUNIT_EXPECT_EQ(test, irdma_t_core(1)->stats.markers_refused, 1ull);
	s = irdma_t_raw_last();
	KUNIT_ASSERT_NOT_NULL(test, s);
	KUNIT_ASSERT_GE(test, s->datalen, (u32)IRDMA_MPA_V1_HDR_SIZE);
	KUNIT_EXPECT_TRUE(test, s->seg[s->hdr_len + 16] & IRDMA_MPA_FLAG_REJECT);
	KUNIT_EXPECT_FALSE(test, s->seg[s->hdr_len + 16] &
			   IRDMA_MPA_FLAG_MARKERS);
	KUNIT_EXPECT_FALSE(test, s->flags & IRDMA_TCP_FIN);
	KUNIT_EXPECT_EQ(test, irdma_t_count_to_raw(IRDMA_TCP_RST), 0);
	/* the peer acknowledges the reject: our FIN follows */
	r.ack = s->seq + s->datalen;
	irdma_t_raw_send(&r, IRDMA_TCP_ACK, NULL, 0, NULL, 0);
	s = irdma_t_raw_last();
	KUNIT_EXPECT_TRUE(test, s->flags & IRDMA_TCP_FIN);
	KUNIT_EXPECT_EQ(test, irdma_t_tqp(1, 0)->refs, 0);
}

/* a reply asking for markers (we send none): RST, CONNECT_REPLY refused */
static void irdma_test_markers_reply_refused(struct kunit *test)
{
	struct irdma_test_cmid *l = irdma_t_listen(test, true, NULL, 4);
	struct irdma_test_cmid *a = irdma_t_cmid(test, 0);
	struct irdma_test_cmid *n = irdma_t_cmid(test, 1);

	irdma_tw->filter = irdma_t_corrupt_mpa;
	irdma_tw->fault_from = 1;
	irdma_tw->corrupt_off = IRDMA_CM_TCP_HDR_SIZE + 16;	/* MPA flags */
	irdma_tw->corrupt_xor = IRDMA_MPA_FLAG_MARKERS;
	KUNIT_ASSERT_EQ(test, irdma_t_connect(test, a, "m", 1), 0);
	irdma_t_pump();
	KUNIT_ASSERT_EQ(test, l->nev, 1);
	KUNIT_ASSERT_EQ(test, irdma_t_accept(l, n, 10, NULL, 0, 8, 8), 0);
	irdma_t_run(30);
	KUNIT_EXPECT_EQ(test, irdma_tw->fault_n, -1);	/* the filter acted */
	KUNIT_ASSERT_EQ(test, a->nev, 1);
	KUNIT_EXPECT_EQ(test, a->ev[0].type, IW_CM_EVENT_CONNECT_REPLY);
	KUNIT_EXPECT_EQ(test, a->ev[0].status, -ECONNREFUSED);
	KUNIT_EXPECT_EQ(test, irdma_t_core(0)->stats.markers_refused, 1ull);
	KUNIT_EXPECT_GE(test, irdma_t_core(0)->stats.resets_sent, 1ull);
	KUNIT_EXPECT_EQ(test, irdma_t_tqp(0, 0)->refs, 0);
	KUNIT_EXPECT_EQ(test, a->refs, 0);
}

/*
 * a reply whose ORD exceeds our IRD fails the RFC 6581 negotiation: a
 * TERMINATE with MPA error 0x06 (insufficient IRD), then RST
 */
static void irdma_test_reply_negotiation_terminate(struct kunit *test)
{
	struct irdma_test_cmid *l = irdma_t_listen(test, true, NULL, 4);
	struct irdma_test_cmid *a = irdma_t_cmid(test, 0);
	struct irdma_test_cmid *n = irdma_t_cmid(test, 1);
	const struct irdma_test_seg *s = NULL;
	bool rst = false;
	const u8 *f;
	int i;

	irdma_tw->filter = irdma_t_corrupt_mpa;
	irdma_tw->fault_from = 1;
	/* the high byte of the reply's ORD: 256 more than it said */
	irdma_tw->corrupt_off = IRDMA_CM_TCP_HDR_SIZE + 20 + 2;
	irdma_tw->corrupt_xor = 0x01;
	KUNIT_ASSERT_EQ(test, irdma_t_connect(test, a, "t", 1), 0);
	irdma_t_pump();
	KUNIT_ASSERT_EQ(test, l->nev, 1);
	KUNIT_ASSERT_EQ(test, irdma_t_accept(l, n, 10, NULL, 0, 8, 8), 0);
	irdma_t_run(30);
	KUNIT_EXPECT_EQ(test, irdma_tw->fault_n, -1);	/* the filter acted */
	KUNIT_ASSERT_EQ(test, a->nev, 1);
	KUNIT_EXPECT_EQ(test, a->ev[0].type, IW_CM_EVENT_CONNECT_REPLY);
	KUNIT_EXPECT_EQ(test, a->ev[0].status, -ECONNREFUSED);
	/* our last data segment is the TERMINATE, and an RST follows it */
	for (i = 0; i < irdma_tw->nlog; i++) {
		if (irdma_tw->log[i].from != 0)
			continue;
		if (irdma_tw->log[i].datalen) {
			s = &irdma_tw->log[i];
			rst = false;
		}
		if (irdma_tw->log[i].flags & IRDMA_TCP_RST)
			rst = true;
	}
	KUNIT_ASSERT_NOT_NULL(test, s);
	KUNIT_EXPECT_TRUE(test, rst);
	f = s->seg + s->hdr_len;
	KUNIT_ASSERT_EQ(test, s->datalen, 28u);
	KUNIT_EXPECT_EQ(test, get_unaligned_be16(f), 22);
	KUNIT_EXPECT_EQ(test, f[2], 0x41);	/* untagged, last, DDP v1 */
	KUNIT_EXPECT_EQ(test, f[3], 0x47);	/* RDMAP v1, TERMINATE */
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(f + 8), 2u);	/* QN */
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(f + 12), 1u);	/* MSN */
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(f + 16), 0u);	/* MO */
	KUNIT_EXPECT_EQ(test, f[20], 0x20);	/* layer LLP, type MPA */
	KUNIT_EXPECT_EQ(test, f[21], IRDMA_MPA_ERR_INSUFF_IRD);
	KUNIT_EXPECT_EQ(test, f[22], 0);	/* no M, D, R */
	KUNIT_EXPECT_EQ(test, get_unaligned_le32(f + 24),
			irdma_cm_crc32c(f, 24));
	KUNIT_EXPECT_GE(test, irdma_t_core(0)->stats.resets_sent, 1ull);
	KUNIT_EXPECT_EQ(test, irdma_t_tqp(0, 0)->refs, 0);
	KUNIT_EXPECT_EQ(test, a->refs, 0);
}

static void irdma_test_bad_pdlen_resets(struct kunit *test)
{
	struct irdma_test_cmid *l = irdma_t_listen(test, true, NULL, 4);
	struct irdma_t_raw r;
	u8 f[64];

	irdma_t_raw_handshake(test, &r);
	irdma_t_mpa(f, true, 2, 0x50, true, 0x8008, 0xC008, NULL, 0);
	put_unaligned_be16(513, f + 18);
	irdma_t_raw_send(&r, IRDMA_TCP_ACK, NULL, 0, f, 24);
	KUNIT_EXPECT_EQ(test, l->nev, 0);
	KUNIT_EXPECT_TRUE(test, irdma_t_raw_last()->flags & IRDMA_TCP_RST);
	KUNIT_EXPECT_EQ(test, irdma_t_core(1)->node_cnt, 0u);
}

static void irdma_test_accept_negotiation_refused(struct kunit *test)
{
	struct irdma_test_cmid *l = irdma_t_listen(test, true, NULL, 4);
	struct irdma_test_cmid *n = irdma_t_cmid(test, 1);
	struct irdma_test_seg *s;
	struct irdma_cm_node *cm;
	struct irdma_t_raw r;
	u8 f[64];
	u32 len;

	irdma_t_raw_handshake(test, &r);
	/* Read RTR only, and the ULP accepts with IRD 0 */
	len = irdma_t_mpa(f, true, 2, 0x50, true, 0x8008, 0x4008, NULL, 0);
	irdma_t_raw_send(&r, IRDMA_TCP_ACK, NULL, 0, f, len);
	KUNIT_ASSERT_EQ(test, l->nev, 1);
	cm = irdma_t_connreq_get(1, l->ev[0].provider_data);
	KUNIT_ASSERT_NOT_NULL(test, cm);
	KUNIT_EXPECT_EQ(test, irdma_t_accept(l, n, 10, NULL, 0, 0, 4),
			-ECONNREFUSED);
	KUNIT_EXPECT_EQ(test, cm->mpa_err, IRDMA_MPA_ERR_INSUFF_IRD);
	irdma_t_node_put(1, cm);
	irdma_t_pump();
	s = irdma_t_raw_last();
	KUNIT_EXPECT_TRUE(test, s->seg[s->hdr_len + 16] & IRDMA_MPA_FLAG_REJECT);
	KUNIT_EXPECT_FALSE(test, s->flags & IRDMA_TCP_FIN);
	/* the peer acknowledges the reject: our FIN follows */
	r.ack = s->seq + s->datalen;
	irdma_t_raw_send(&r, IRDMA_TCP_ACK, NULL, 0, NULL, 0);
	s = irdma_t_raw_last();
	KUNIT_EXPECT_TRUE(test, s->flags & IRDMA_TCP_FIN);
	KUNIT_EXPECT_EQ(test, s->datalen, 0u);
	KUNIT_EXPECT_EQ(test, s->seq, r.ack);
	KUNIT_EXPECT_EQ(test, irdma_t_tqp(1, 0)->refs, 0);
	KUNIT_EXPECT_EQ(test, n->refs, 0);
}

/* a refused accept frees the backlog slot at once, FIN acknowledged or not */
static void irdma_test_accept_refused_frees_backlog(struct kunit *test)
{
	static const u8 opts[] = { 2, 4, 0x05, 0xb4, 3, 3, 2, 0 };
	struct irdma_test_cmid *l = irdma_t_listen(test, true, NULL, 1);
	struct irdma_test_cmid *n = irdma_t_cmid(test, 1);
	struct irdma_cm_listener *listener = l->id.provider_data;
	struct irdma_test_seg *s;
	struct irdma_t_raw r, r2;
	u8 f[64];
	u32 len;

	irdma_t_raw_handshake(test, &r);
	/* Read RTR only, and the ULP accepts with IRD 0: MPA reject */
	len = irdma_t_mpa(f, true, 2, 0x50, true, 0x8008, 0x4008, NULL, 0);
	irdma_t_raw_send(&r, IRDMA_TCP_ACK, NULL, 0, f, len);
	KUNIT_ASSERT_EQ(test, l->nev, 1);
	KUNIT_EXPECT_EQ(test, listener->pending, 1);
	KUNIT_EXPECT_EQ(test, irdma_t_accept(l, n, 10, NULL, 0, 0, 4),
			-ECONNREFUSED);
	s = irdma_t_raw_last();
	KUNIT_EXPECT_TRUE(test, s->seg[s->hdr_len + 16] & IRDMA_MPA_FLAG_REJECT);
	/* the raw peer never acknowledges the reject (so no FIN follows) */
	KUNIT_EXPECT_EQ(test, listener->pending, 0);
	r2.addr = T_RAW_ADDR;
	r2.port = 40001;
	r2.seq = 5000;
	irdma_t_raw_send(&r2, IRDMA_TCP_SYN, opts, sizeof(opts), NULL, 0);
	/* not a retransmission of the reject to the first port */
	s = irdma_t_raw_last_to(r2.port);
	KUNIT_ASSERT_NOT_NULL(test, s);
	KUNIT_EXPECT_EQ(test, s->flags, IRDMA_TCP_SYN | IRDMA_TCP_ACK);
	KUNIT_EXPECT_EQ(test, s->ack, 5001u);
}

/*
 * dev 0 connects to nobody (the wire drops everything), gets a SYN-ACK and
 * sends its MPA v2 request; then a RST answers the request.  Returns the
 * node, referenced, with dev 0's mutex held, or NULL (test failed).
 */
static struct irdma_cm_node *irdma_t_v2_request_reset(struct kunit *test,
						      struct irdma_test_cmid *a,
						      u32 *old_iss)
{
	struct irdma_cm_core *core = irdma_t_core(0);
	struct irdma_cm_node *cm;
	struct irdma_cm_seg s = {};

	core->tun.mpa_v1_fallback = true;
	irdma_tw->filter = irdma_t_drop_all;
	if (irdma_t_connect(test, a, NULL, 0)) {
		KUNIT_FAIL(test, "connect failed");
		return NULL;
	}
	mutex_lock(&core->mutex);
	cm = irdma_t_find(0, T_PORT_A);
	if (!cm) {
		mutex_unlock(&core->mutex);
		KUNIT_FAIL(test, "no node");
		return NULL;
	}
	irdma_cm_node_get(cm);
	*old_iss = cm->iss;
	s.flags = IRDMA_TCP_SYN | IRDMA_TCP_ACK;
	s.seq = 5000;
	s.ack = cm->snd_nxt;
	s.window = 0xFFFF;
	irdma_process_pkt(cm, &s);
	KUNIT_EXPECT_EQ(test, cm->state, IRDMA_CM_STATE_MPAREQ_SENT);
	memset(&s, 0, sizeof(s));
	s.flags = IRDMA_TCP_RST | IRDMA_TCP_ACK;
	s.seq = 5001;
	s.ack = cm->snd_nxt;
	irdma_process_pkt(cm, &s);
	return cm;
}

static void irdma_test_v2_reset_falls_back_to_v1(struct kunit *test)
{
	struct irdma_test_cmid *a = irdma_t_cmid(test, 0);
	struct irdma_cm_node *cm;
	u32 old_iss;

	cm = irdma_t_v2_request_reset(test, a, &old_iss);
	if (!cm)
		return;
	KUNIT_EXPECT_EQ(test, cm->state, IRDMA_CM_STATE_SYN_SENT);
	KUNIT_EXPECT_EQ(test, cm->mpa_rev, IRDMA_MPA_REV1);
	KUNIT_EXPECT_NE(test, cm->iss, old_iss);
	KUNIT_EXPECT_EQ(test, irdma_tw->log[irdma_tw->nlog - 1].flags,
			IRDMA_TCP_SYN);
	irdma_rem_ref_cm_node(cm);
	mutex_unlock(&irdma_t_core(0)->mutex);
	KUNIT_EXPECT_EQ(test, a->nev, 0);
}

static void irdma_test_fin_before_mpa_request(struct kunit *test)
{
	struct irdma_test_cmid *l = irdma_t_listen(test, true, NULL, 4);
	struct irdma_test_seg *s;
	struct irdma_t_raw r;

	irdma_t_raw_handshake(test, &r);
	irdma_t_raw_send(&r, IRDMA_TCP_FIN | IRDMA_TCP_ACK, NULL, 0, NULL, 0);
	s = irdma_t_raw_last();
	KUNIT_EXPECT_EQ(test, s->flags, IRDMA_TCP_FIN | IRDMA_TCP_ACK);
	KUNIT_EXPECT_EQ(test, s->ack, 1002u);
	r.ack = s->seq + 1;
	irdma_t_raw_send(&r, IRDMA_TCP_ACK, NULL, 0, NULL, 0);
	KUNIT_EXPECT_EQ(test, irdma_t_core(1)->node_cnt, 0u);
	KUNIT_EXPECT_EQ(test, l->nev, 0);
}

static void irdma_test_data_before_reply_resets(struct kunit *test)
{
	struct irdma_test_cmid *l = irdma_t_listen(test, true, NULL, 4);
	struct irdma_test_cmid *n = irdma_t_cmid(test, 1);
	struct irdma_t_raw r;
	u8 f[64];
	u32 len;

	irdma_t_raw_handshake(test, &r);
	len = irdma_t_mpa(f, true, 2, 0x50, true, 0x8008, 0xC008, NULL, 0);
	irdma_t_raw_send(&r, IRDMA_TCP_ACK, NULL, 0, f, len);
	KUNIT_ASSERT_EQ(test, l->nev, 1);
	irdma_t_raw_send(&r, IRDMA_TCP_ACK, NULL, 0, "early", 5);
	KUNIT_EXPECT_TRUE(test, irdma_t_raw_last()->flags & IRDMA_TCP_RST);
	KUNIT_EXPECT_EQ(test, irdma_t_accept(l, n, 10, NULL, 0, 8, 8),
			-ECONNRESET);
	KUNIT_EXPECT_EQ(test, irdma_t_core(1)->node_cnt, 0u);
}

static void irdma_test_accept_after_peer_reset(struct kunit *test)
{
	struct irdma_test_cmid *l = irdma_t_listen(test, true, NULL, 4);
	struct irdma_test_cmid *n = irdma_t_cmid(test, 1);
	struct irdma_t_raw r;
	u8 f[64];
	u32 len;

	irdma_t_raw_handshake(test, &r);
	len = irdma_t_mpa(f, true, 2, 0x50, true, 0x8008, 0xC008, NULL, 0);
	irdma_t_raw_send(&r, IRDMA_TCP_ACK, NULL, 0, f, len);
	KUNIT_ASSERT_EQ(test, l->nev, 1);
	irdma_t_raw_send(&r, IRDMA_TCP_RST, NULL, 0, NULL, 0);
	KUNIT_EXPECT_EQ(test, irdma_t_accept(l, n, 10, NULL, 0, 8, 8),
			-ECONNRESET);
	KUNIT_EXPECT_EQ(test, irdma_t_tqp(1, 0)->refs, 0);
	KUNIT_EXPECT_EQ(test, irdma_t_core(1)->node_cnt, 0u);
}

static void irdma_test_mpa_request_timeout(struct kunit *test)
{
	struct irdma_test_cmid *l = irdma_t_listen(test, true, NULL, 4);
	struct irdma_t_raw r;

	irdma_t_core(1)->tun.mpa_timeout = msecs_to_jiffies(200);
	irdma_t_raw_handshake(test, &r);
	KUNIT_EXPECT_EQ(test, irdma_t_core(1)->node_cnt, 1u);
	/* the peer never sends its MPA request */
	irdma_t_run(400);
	KUNIT_EXPECT_TRUE(test, irdma_t_raw_last()->flags & IRDMA_TCP_RST);
	KUNIT_EXPECT_EQ(test, irdma_t_core(1)->node_cnt, 0u);
	KUNIT_EXPECT_EQ(test, l->nev, 0);
}

/* the peer's CM acknowledges the MPA request; its ULP never answers */
static void irdma_test_mpa_reply_timeout(struct kunit *test)
{
	struct irdma_test_cmid *l = irdma_t_listen(test, true, NULL, 4);
	struct irdma_test_cmid *a = irdma_t_cmid(test, 0);
	struct irdma_test_cmid *n = irdma_t_cmid(test, 1);
	struct irdma_cm_node *cm;

	irdma_t_core(0)->tun.mpa_timeout = msecs_to_jiffies(200);
	KUNIT_ASSERT_EQ(test, irdma_t_connect(test, a, "wait", 4), 0);
	irdma_t_pump();
	KUNIT_ASSERT_EQ(test, l->nev, 1);
	KUNIT_EXPECT_EQ(test, a->nev, 0);
	mutex_lock(&irdma_t_core(0)->mutex);
	cm = irdma_t_find(0, T_PORT_A);
	KUNIT_EXPECT_TRUE(test, cm && cm->state == IRDMA_CM_STATE_MPAREQ_SENT &&
			  !cm->tx.pending);	/* acknowledged */
	mutex_unlock(&irdma_t_core(0)->mutex);
	irdma_t_run(400);
	KUNIT_ASSERT_EQ(test, a->nev, 1);
	KUNIT_EXPECT_EQ(test, a->ev[0].type, IW_CM_EVENT_CONNECT_REPLY);
	KUNIT_EXPECT_EQ(test, a->ev[0].status, -ETIMEDOUT);
	KUNIT_EXPECT_EQ(test, a->refs, 0);
	KUNIT_EXPECT_EQ(test, irdma_t_tqp(0, 0)->refs, 0);
	KUNIT_EXPECT_EQ(test, irdma_t_core(0)->stats.connect_timeouts, 1ull);
	KUNIT_EXPECT_EQ(test, irdma_t_core(0)->node_cnt, 0u);
	/* the RST reached the passive side: a late accept finds it gone */
	KUNIT_EXPECT_EQ(test, irdma_t_accept(l, n, 10, NULL, 0, 8, 8),
			-ECONNRESET);
	KUNIT_EXPECT_EQ(test, irdma_t_core(1)->node_cnt, 0u);
}

/* the same over loopback: no wire, the passive ULP never answers */
static void irdma_test_loopback_mpa_reply_timeout(struct kunit *test)
{
	struct irdma_test_cmid *l = irdma_t_cmid(test, 0);
	struct irdma_test_cmid *a = irdma_t_cmid(test, 0);
	struct irdma_test_cmid *n = irdma_t_cmid(test, 0);
	u32 a0 = T_ADDR0;

	irdma_t_core(0)->tun.mpa_timeout = msecs_to_jiffies(200);
	irdma_t_sin(&l->id.m_local_addr, true, &a0, T_PORT_L);
	KUNIT_ASSERT_EQ(test, irdma_create_listen(&l->id, 4), 0);
	KUNIT_ASSERT_EQ(test, irdma_t_connect_to(a, 0, true, &a0, &a0, T_PORT_A,
						 10, NULL, 0, 8, 8), 0);
	KUNIT_ASSERT_EQ(test, l->nev, 1);
	irdma_t_run(400);
	KUNIT_ASSERT_EQ(test, a->nev, 1);
	KUNIT_EXPECT_EQ(test, a->ev[0].type, IW_CM_EVENT_CONNECT_REPLY);
	KUNIT_EXPECT_EQ(test, a->ev[0].status, -ETIMEDOUT);
	KUNIT_EXPECT_EQ(test, a->refs, 0);
	KUNIT_EXPECT_EQ(test, irdma_t_accept(l, n, 11, NULL, 0, 8, 8),
			-ECONNRESET);
	KUNIT_EXPECT_EQ(test, n->refs, 0);
	KUNIT_EXPECT_EQ(test, irdma_t_tqp(0, 0)->refs, 0);
	KUNIT_EXPECT_EQ(test, irdma_t_tqp(0, 1)->refs, 0);
	KUNIT_EXPECT_EQ(test, irdma_t_core(0)->node_cnt, 0u);
}

static void irdma_test_ipv6_address_follow(struct kunit *test)
{
	static const u32 v6n[4] = { 0xfd000000, 0, 0, 0x22 };
	struct irdma_test_cmid *l = irdma_t_listen(test, false, NULL, 4);

	KUNIT_EXPECT_EQ(test, l->refs, 1);
	KUNIT_EXPECT_EQ(test, irdma_tw->dev[1].qhash_syn, 2);	/* v6 + v4 */
	irdma_if_notify(irdma_t_core(1), NULL, v6n, false, true);
	irdma_t_flush();
	KUNIT_EXPECT_EQ(test, irdma_tw->dev[1].qhash_syn, 3);
	irdma_if_notify(irdma_t_core(1), NULL, v6n, false, false);
	irdma_t_flush();
	KUNIT_EXPECT_EQ(test, irdma_tw->dev[1].qhash_syn, 2);
	/* a link-up event changes nothing */
	irdma_if_notify(irdma_t_core(1), NULL, NULL, false, true);
	irdma_t_flush();
	KUNIT_EXPECT_EQ(test, irdma_tw->dev[1].qhash_syn, 2);
}

/* an IPv6-only wildcard listener takes no IPv4 connection */
static void irdma_test_ipv6_only_listener(struct kunit *test)
{
	static const u8 opts[] = { 2, 4, 0x05, 0xb4, 3, 3, 2, 0 };
	struct irdma_test_cmid *l = irdma_t_cmid(test, 1);
	struct irdma_t_raw r = { .addr = T_RAW_ADDR, .port = 41000, .seq = 7 };
	struct irdma_test_seg *s;
	u32 any[4] = {};

	irdma_t_sin(&l->id.m_local_addr, false, any, T_PORT_L);
	l->id.local_addr = l->id.m_local_addr;
	l->id.afonly = 1;
	KUNIT_ASSERT_EQ(test, irdma_create_listen(&l->id, 4), 0);
	KUNIT_EXPECT_EQ(test, irdma_tw->dev[1].qhash_syn, 1);	/* v6 only */
	irdma_t_raw_send(&r, IRDMA_TCP_SYN, opts, sizeof(opts), NULL, 0);
	KUNIT_EXPECT_EQ(test, l->nev, 0);
	s = irdma_t_raw_last();
	KUNIT_ASSERT_NOT_NULL(test, s);
	KUNIT_EXPECT_TRUE(test, s->flags & IRDMA_TCP_RST);
	KUNIT_EXPECT_EQ(test, irdma_t_core(1)->node_cnt, 0u);
}

static void irdma_test_time_wait_syn_reopens(struct kunit *test)
{
	static const u8 opts[] = { 2, 4, 0x05, 0xb4, 3, 3, 2, 0 };
	struct irdma_test_cmid *l = irdma_t_listen(test, true, NULL, 4);
	struct irdma_test_cmid *n = irdma_t_cmid(test, 1);
	struct irdma_test_seg *s;
	struct irdma_cm_node *cm;
	struct irdma_t_raw r;
	u32 len, seq;
	int synacks;
	u8 f[64];

	irdma_t_core(1)->tun.time_wait = 10 * HZ;	/* stays for the test */
	irdma_t_raw_handshake(test, &r);
	len = irdma_t_mpa(f, true, 2, 0x50, true, 0x8008, 0xC008, NULL, 0);
	irdma_t_raw_send(&r, IRDMA_TCP_ACK, NULL, 0, f, len);
	KUNIT_ASSERT_EQ(test, l->nev, 1);
	n->id.provider_data = l->ev[0].provider_data;
	KUNIT_ASSERT_EQ(test, irdma_reject(&n->id, NULL, 0), 0);
	s = irdma_t_raw_last();
	KUNIT_ASSERT_TRUE(test, s->seg[s->hdr_len + 16] & IRDMA_MPA_FLAG_REJECT);
	/* the peer acknowledges the reject with its FIN; ours follows */
	r.ack = s->seq + s->datalen;
	irdma_t_raw_send(&r, IRDMA_TCP_FIN | IRDMA_TCP_ACK, NULL, 0, NULL, 0);
	KUNIT_ASSERT_EQ(test, irdma_t_count_to_raw(IRDMA_TCP_FIN), 1);
	r.ack++;
	irdma_t_raw_send(&r, IRDMA_TCP_ACK, NULL, 0, NULL, 0);
	cm = irdma_t_find_rem(1, r.port);
	KUNIT_ASSERT_NOT_NULL(test, cm);
	KUNIT_EXPECT_EQ(test, cm->state, IRDMA_CM_STATE_TIME_WAIT);
	/*
	 * a SYN of the 4-tuple whose ISN is not beyond the old connection
	 * (an old duplicate) does not reopen it: no SYN-ACK, the node stays
	 */
	seq = r.seq;
	synacks = irdma_t_count_to_raw(IRDMA_TCP_SYN);
	r.seq -= 50000;
	irdma_t_raw_send(&r, IRDMA_TCP_SYN, opts, sizeof(opts), NULL, 0);
	KUNIT_EXPECT_EQ(test, irdma_t_count_to_raw(IRDMA_TCP_SYN), synacks);
	cm = irdma_t_find_rem(1, r.port);
	KUNIT_ASSERT_NOT_NULL(test, cm);
	KUNIT_EXPECT_EQ(test, cm->state, IRDMA_CM_STATE_TIME_WAIT);
	/* the same 4-tuple again, with a later ISN */
	r.seq = seq + 100000;
	irdma_t_raw_send(&r, IRDMA_TCP_SYN, opts, sizeof(opts), NULL, 0);
	s = irdma_t_raw_last();
	KUNIT_EXPECT_EQ(test, s->flags, IRDMA_TCP_SYN | IRDMA_TCP_ACK);
	KUNIT_EXPECT_EQ(test, s->ack, r.seq);
	KUNIT_EXPECT_EQ(test, irdma_t_core(1)->node_cnt, 1u);
}

/*
 * a full backlog drops the SYN (the peer retries); once the request that
 * filled it is accepted, the retried SYN gets through and connects
 */
static void irdma_test_listen_backlog(struct kunit *test)
{
	struct irdma_test_cmid *l = irdma_t_listen(test, true, NULL, 1);
	struct irdma_test_cmid *a = irdma_t_cmid(test, 0);
	struct irdma_test_cmid *b = irdma_t_cmid(test, 0);
	struct irdma_test_cmid *na = irdma_t_cmid(test, 1);
	struct irdma_test_cmid *nb = irdma_t_cmid(test, 1);
	u32 a0 = T_ADDR0, a1 = T_ADDR1;
	int t;

	/* b keeps retrying its SYN for some 300 ms */
	irdma_t_core(0)->tun.syn_retries = 8;
	KUNIT_ASSERT_EQ(test, irdma_t_connect(test, a, NULL, 0), 0);
	irdma_t_pump();
	KUNIT_ASSERT_EQ(test, irdma_t_connect_to(b, 0, true, &a0, &a1,
						 T_PORT_A + 1, 11, NULL, 0, 8, 8),
			0);
	irdma_t_pump();
	KUNIT_EXPECT_EQ(test, l->nev, 1);
	KUNIT_EXPECT_GE(test, irdma_t_core(1)->stats.listen_overflows, 1ull);
	KUNIT_EXPECT_EQ(test, b->nev, 0);	/* SYN dropped: it retries */

	KUNIT_ASSERT_EQ(test, irdma_t_accept(l, na, 10, NULL, 0, 8, 8), 0);
	irdma_t_pump();
	KUNIT_ASSERT_EQ(test, a->nev, 1);
	KUNIT_EXPECT_EQ(test, a->ev[0].status, 0);
	/* b's next SYN (within its retries) finds room */
	for (t = 0; t < 400 && l->nev < 2; t += 10)
		irdma_t_run(10);
	KUNIT_ASSERT_EQ(test, l->nev, 2);
	KUNIT_EXPECT_EQ(test, l->ev[1].type, IW_CM_EVENT_CONNECT_REQUEST);
	KUNIT_ASSERT_EQ(test, irdma_t_accept(l, nb, 11, NULL, 0, 8, 8), 0);
	irdma_t_pump();
	KUNIT_ASSERT_EQ(test, b->nev, 1);
	KUNIT_EXPECT_EQ(test, b->ev[0].type, IW_CM_EVENT_CONNECT_REPLY);
	KUNIT_EXPECT_EQ(test, b->ev[0].status, 0);
	KUNIT_EXPECT_EQ(test, nb->ev[0].type, IW_CM_EVENT_ESTABLISHED);
	KUNIT_EXPECT_EQ(test, irdma_t_core(1)->stats.accepts, 2ull);
}

/* a SYN nobody completes holds its node for tun.synack_retries only */
static void irdma_test_synack_retries_limited(struct kunit *test)
{
	static const u8 opts[] = { 2, 4, 0x05, 0xb4, 3, 3, 2, 0 };
	struct irdma_t_raw r = { .addr = T_RAW_ADDR, .port = 40200, .seq = 1 };

	irdma_t_core(1)->tun.synack_retries = 2;
	irdma_t_listen(test, true, NULL, 4);
	irdma_t_raw_send(&r, IRDMA_TCP_SYN, opts, sizeof(opts), NULL, 0);
	KUNIT_EXPECT_EQ(test, irdma_t_core(1)->node_cnt, 1u);
	irdma_t_run(300);
	KUNIT_EXPECT_EQ(test, irdma_t_count_to_raw(IRDMA_TCP_SYN | IRDMA_TCP_ACK),
			1 + 2);
	KUNIT_EXPECT_EQ(test, irdma_t_core(1)->node_cnt, 0u);
	KUNIT_EXPECT_EQ(test, irdma_tw->dev[1].qhash_est, 0);
}

/* the reject of a refused connection: tun.orphan_retries only */
static void irdma_test_orphan_fin_retries_limited(struct kunit *test)
{
	struct irdma_test_cmid *l = irdma_t_listen(test, true, NULL, 4);
	struct irdma_test_cmid *n = irdma_t_cmid(test, 1);
	struct irdma_t_raw r;
	u8 f[64];
	u32 len;

	irdma_t_core(1)->tun.orphan_retries = 2;
	irdma_t_raw_handshake(test, &r);
	len = irdma_t_mpa(f, true, 2, 0x50, true, 0x8008, 0xC008, NULL, 0);
	irdma_t_raw_send(&r, IRDMA_TCP_ACK, NULL, 0, f, len);
	KUNIT_ASSERT_EQ(test, l->nev, 1);
	n->id.provider_data = l->ev[0].provider_data;
	KUNIT_ASSERT_EQ(test, irdma_reject(&n->id, NULL, 0), 0);
	/* the raw peer never acknowledges the reject: no FIN follows it */
	irdma_t_run(300);
	KUNIT_EXPECT_EQ(test, irdma_t_count_to_raw(IRDMA_TCP_PSH), 1 + 2);
	KUNIT_EXPECT_EQ(test, irdma_t_count_to_raw(IRDMA_TCP_FIN), 0);
	KUNIT_EXPECT_EQ(test, irdma_t_core(1)->node_cnt, 0u);
}

/* a SYN flood neither fills the backlog nor grows past max_half_open */
static void irdma_test_syn_flood_half_open_bounded(struct kunit *test)
{
	static const u8 opts[] = { 2, 4, 0x05, 0xb4, 3, 3, 2, 0 };
	struct irdma_test_cmid *l = irdma_t_listen(test, true, NULL, 2);
	struct irdma_test_cmid *a = irdma_t_cmid(test, 0);
	struct irdma_cm_listener *listener = l->id.provider_data;
	struct irdma_t_raw r = { .addr = T_RAW_ADDR, .port = 40300, .seq = 1 };
	int i;

	irdma_t_core(1)->tun.max_half_open = 3;
	for (i = 0; i < 10; i++, r.port++)
		irdma_t_raw_send(&r, IRDMA_TCP_SYN, opts, sizeof(opts), NULL, 0);
	KUNIT_EXPECT_EQ(test, irdma_t_core(1)->node_cnt, 3u);
	KUNIT_EXPECT_EQ(test, listener->half_open, 3u);
	KUNIT_EXPECT_EQ(test, listener->pending, 0);
	KUNIT_EXPECT_EQ(test, irdma_t_core(1)->stats.half_open_evictions, 7ull);
	KUNIT_EXPECT_EQ(test, irdma_tw->dev[1].qhash_est, 3);
	/* the oldest went: port 40300 is unknown now */
	mutex_lock(&irdma_t_core(1)->mutex);
	KUNIT_EXPECT_NULL(test, irdma_t_find_rem(1, 40300));
	KUNIT_EXPECT_NOT_NULL(test, irdma_t_find_rem(1, 40309));
	mutex_unlock(&irdma_t_core(1)->mutex);
	/* a real peer still gets through */
	KUNIT_ASSERT_EQ(test, irdma_t_connect(test, a, NULL, 0), 0);
	irdma_t_pump();
	KUNIT_EXPECT_EQ(test, l->nev, 1);
	KUNIT_EXPECT_EQ(test, listener->pending, 1);
	KUNIT_EXPECT_EQ(test, listener->half_open, 2u);
}

/* with the backlog full, the handshake's last ACK is dropped */
static void irdma_test_backlog_full_holds_handshake(struct kunit *test)
{
	static const u8 opts[] = { 2, 4, 0x05, 0xb4, 3, 3, 2, 0 };
	struct irdma_test_cmid *l = irdma_t_listen(test, true, NULL, 1);
	struct irdma_cm_listener *listener = l->id.provider_data;
	struct irdma_t_raw r1 = { .addr = T_RAW_ADDR, .port = 40400, .seq = 1 };
	struct irdma_t_raw r2 = { .addr = T_RAW_ADDR, .port = 40401, .seq = 1 };

	irdma_t_raw_send(&r1, IRDMA_TCP_SYN, opts, sizeof(opts), NULL, 0);
	r1.ack = irdma_t_raw_last_to(r1.port)->seq + 1;
	irdma_t_raw_send(&r2, IRDMA_TCP_SYN, opts, sizeof(opts), NULL, 0);
	r2.ack = irdma_t_raw_last_to(r2.port)->seq + 1;
	KUNIT_EXPECT_EQ(test, listener->half_open, 2u);
	irdma_t_raw_send(&r1, IRDMA_TCP_ACK, NULL, 0, NULL, 0);
	KUNIT_EXPECT_EQ(test, listener->pending, 1);
	irdma_t_raw_send(&r2, IRDMA_TCP_ACK, NULL, 0, NULL, 0);
	KUNIT_EXPECT_EQ(test, listener->pending, 1);
	KUNIT_EXPECT_EQ(test, irdma_t_core(1)->stats.listen_overflows, 1ull);
	KUNIT_EXPECT_EQ(test, irdma_t_rem_state(1, 40401), (int)IRDMA_CM_STATE_SYN_RCVD);
}

/* the CM's node limit refuses new SYNs and connects */
static void irdma_test_node_limit(struct kunit *test)
{
	static const u8 opts[] = { 2, 4, 0x05, 0xb4, 3, 3, 2, 0 };
	struct irdma_test_cmid *a = irdma_t_cmid(test, 0);
	struct irdma_test_cmid *b = irdma_t_cmid(test, 0);
	struct irdma_t_raw r = { .addr = T_RAW_ADDR, .port = 40500, .seq = 1 };
	u32 a0 = T_ADDR0, a1 = T_ADDR1;
	int i;

	irdma_t_listen(test, true, NULL, 8);
	irdma_t_core(1)->tun.max_nodes = 2;
	for (i = 0; i < 3; i++, r.port++)
		irdma_t_raw_send(&r, IRDMA_TCP_SYN, opts, sizeof(opts), NULL, 0);
	KUNIT_EXPECT_EQ(test, irdma_t_core(1)->node_cnt, 2u);
	KUNIT_EXPECT_EQ(test, irdma_t_core(1)->stats.node_limit_drops, 1ull);
	irdma_tw->filter = irdma_t_drop_all;
	irdma_t_core(0)->tun.max_nodes = 1;
	KUNIT_EXPECT_EQ(test, irdma_t_connect(test, a, NULL, 0), 0);
	KUNIT_EXPECT_EQ(test, irdma_t_connect_to(b, 0, true, &a0, &a1,
						 T_PORT_A + 1, 11, NULL, 0, 8, 8),
			-ENOBUFS);
	KUNIT_EXPECT_EQ(test, irdma_t_core(0)->stats.node_limit_drops, 1ull);
	KUNIT_EXPECT_EQ(test, irdma_t_tqp(0, 1)->refs, 0);
	KUNIT_EXPECT_EQ(test, b->refs, 0);
}

static void irdma_test_listen_qhash_apbvt(struct kunit *test)
{
	u32 a1 = T_ADDR1;
	struct irdma_test_cmid *l = irdma_t_listen(test, true, &a1, 4);
	struct irdma_test_cmid *d = irdma_t_cmid(test, 1);

	KUNIT_EXPECT_EQ(test, irdma_tw->dev[1].qhash_syn, 1);
	KUNIT_EXPECT_EQ(test, irdma_tw->dev[1].apbvt, 1);
	KUNIT_EXPECT_EQ(test, l->refs, 1);
	irdma_t_sin(&d->id.m_local_addr, true, &a1, T_PORT_L);
	KUNIT_EXPECT_EQ(test, irdma_create_listen(&d->id, 4), -EADDRINUSE);
	KUNIT_EXPECT_EQ(test, irdma_destroy_listen(&l->id), 0);
	KUNIT_EXPECT_EQ(test, irdma_tw->dev[1].qhash_syn, 0);
	KUNIT_EXPECT_EQ(test, irdma_tw->dev[1].apbvt, 0);
	KUNIT_EXPECT_EQ(test, l->refs, 0);
}

static void irdma_test_wildcard_children(struct kunit *test)
{
	static const u32 vaddr = 0x0a000102;
	struct irdma_test_cmid *l, *a = irdma_t_cmid(test, 0);
	u32 a0 = T_ADDR0;

	irdma_t_add_addr(&irdma_tw->dev[1], true, &vaddr, 7);
	l = irdma_t_listen(test, true, NULL, 4);
	KUNIT_EXPECT_EQ(test, irdma_tw->dev[1].qhash_syn, 2);	/* 2 IPv4 */
	/* a connection to the VLAN address */
	irdma_tw->dev[0].route_vlan = 7;
	KUNIT_ASSERT_EQ(test, irdma_t_connect_to(a, 0, true, &a0, &vaddr,
						 T_PORT_A, 10, NULL, 0, 8, 8), 0);
	irdma_t_pump();
	KUNIT_EXPECT_EQ(test, l->nev, 1);
	irdma_destroy_listen(&l->id);
	KUNIT_EXPECT_EQ(test, irdma_tw->dev[1].qhash_syn, 0);
}

/*
 * priority-tagged frames (VLAN id 0, as DCB or egress-qos-map send them)
 * belong to the untagged network: the connection is made both ways, the
 * answers go out untagged, the priority reaches the QP
 */
static void irdma_test_priority_tag_is_untagged(struct kunit *test)
{
	struct irdma_test_cmid *l = irdma_t_listen(test, true, NULL, 4);
	struct irdma_test_cmid *a = irdma_t_cmid(test, 0);
	int i, tagged = 0;

	irdma_tw->prio_tag[0] = true;
	irdma_tw->prio[0] = 3;
	irdma_tw->prio_tag[1] = true;
	irdma_tw->prio[1] = 5;
	irdma_t_establish(test, l, a);
	for (i = 0; i < irdma_tw->nlog; i++)
		tagged += irdma_tw->log[i].vlan;
	KUNIT_EXPECT_EQ(test, tagged, 0);
	KUNIT_EXPECT_EQ(test, irdma_t_tqp(1, 0)->off.user_pri, 3);
	KUNIT_EXPECT_FALSE(test, irdma_t_tqp(1, 0)->off.insert_vlan);
	KUNIT_EXPECT_FALSE(test, irdma_t_tqp(0, 0)->off.insert_vlan);
	KUNIT_EXPECT_EQ(test, irdma_t_core(0)->stats.resets_sent, 0ull);
	KUNIT_EXPECT_EQ(test, irdma_t_core(1)->stats.resets_sent, 0ull);
}

static void irdma_test_specific_listener_vlan(struct kunit *test)
{
	static const u32 vaddr = 0x0a000102;
	struct irdma_test_cmid *l, *a = irdma_t_cmid(test, 0);
	u32 a0 = T_ADDR0, a1 = T_ADDR1;

	/* the address lives on VLAN 7: its SYN entry carries the VLAN */
	irdma_t_add_addr(&irdma_tw->dev[1], true, &vaddr, 7);
	l = irdma_t_listen(test, true, &vaddr, 4);
	KUNIT_EXPECT_EQ(test, irdma_tw->dev[1].qhash_syn, 1);
	KUNIT_EXPECT_EQ(test, irdma_tw->dev[1].qhash_syn_vlan, 7);
	irdma_tw->dev[0].route_vlan = 7;
	KUNIT_ASSERT_EQ(test, irdma_t_connect_to(a, 0, true, &a0, &vaddr,
						 T_PORT_A, 10, NULL, 0, 8, 8), 0);
	irdma_t_pump();
	KUNIT_EXPECT_EQ(test, l->nev, 1);
	irdma_destroy_listen(&l->id);
	KUNIT_EXPECT_EQ(test, irdma_tw->dev[1].qhash_syn, 0);

	/* an address on the netdev itself: untagged entry */
	l = irdma_t_listen(test, true, &a1, 4);
	KUNIT_EXPECT_EQ(test, irdma_tw->dev[1].qhash_syn_vlan,
			IRDMA_CM_NO_VLAN);
	irdma_destroy_listen(&l->id);
}

static void irdma_test_ipv6_wildcard_takes_ipv4(struct kunit *test)
{
	struct irdma_test_cmid *l = irdma_t_listen(test, false, NULL, 4);
	struct irdma_test_cmid *a = irdma_t_cmid(test, 0);
	struct irdma_test_cmid *n;

	/* IPv6 wildcard, not v6-only: one IPv6 and one IPv4 child */
	KUNIT_EXPECT_EQ(test, irdma_tw->dev[1].qhash_syn, 2);
	/* and it takes an IPv4 connection, reported as IPv4 */
	n = irdma_t_establish(test, l, a);
	KUNIT_EXPECT_EQ(test, l->ev[0].local.ss_family, AF_INET);
	KUNIT_EXPECT_EQ(test, l->ev[0].remote.ss_family, AF_INET);
	KUNIT_EXPECT_TRUE(test, irdma_t_tqp(1, 0)->offloaded);
	KUNIT_EXPECT_TRUE(test, irdma_t_tqp(1, 0)->off.ipv4);
	KUNIT_EXPECT_EQ(test, irdma_t_tqp(1, 0)->off.loc_addr[3], (u32)T_ADDR1);
	KUNIT_EXPECT_EQ(test, n->nev, 1);
	irdma_destroy_listen(&l->id);
}

static void irdma_test_wildcard_follows_addresses(struct kunit *test)
{
	static const u32 naddr = 0x0a000202;
	struct irdma_test_cmid *l = irdma_t_listen(test, true, NULL, 4);
	struct irdma_test_cmid *a = irdma_t_cmid(test, 0);
	struct irdma_test_cmid *n;

	KUNIT_EXPECT_EQ(test, irdma_tw->dev[1].qhash_syn, 1);
	irdma_if_notify(irdma_t_core(1), NULL, &naddr, true, true);
	irdma_t_flush();
	KUNIT_EXPECT_EQ(test, irdma_tw->dev[1].qhash_syn, 2);
	/* an established connection on the old address goes with it */
	n = irdma_t_establish(test, l, a);
	irdma_if_notify(irdma_t_core(1), NULL, &naddr, true, false);
	irdma_t_flush();
	KUNIT_EXPECT_EQ(test, irdma_tw->dev[1].qhash_syn, 1);
	KUNIT_EXPECT_EQ(test, n->nev, 1);
	{
		u32 a1 = T_ADDR1;

		irdma_if_notify(irdma_t_core(1), NULL, &a1, true, false);
	}
	irdma_t_flush();
	KUNIT_EXPECT_EQ(test, irdma_tw->dev[1].qhash_syn, 0);
	KUNIT_ASSERT_EQ(test, n->nev, 2);
	KUNIT_EXPECT_EQ(test, n->ev[1].type, IW_CM_EVENT_CLOSE);
	KUNIT_EXPECT_EQ(test, n->ev[1].status, -ECONNRESET);
	KUNIT_EXPECT_EQ(test, irdma_t_tqp(1, 0)->resets, 1);
	KUNIT_EXPECT_EQ(test, n->refs, 0);
}

static void irdma_test_netdev_down_tears_down(struct kunit *test)
{
	struct irdma_test_cmid *l = irdma_t_listen(test, true, NULL, 4);
	struct irdma_test_cmid *a = irdma_t_cmid(test, 0);

	irdma_t_establish(test, l, a);
	irdma_if_notify(irdma_t_core(0), NULL, NULL, true, false);
	irdma_t_flush();
	KUNIT_ASSERT_EQ(test, a->nev, 2);
	KUNIT_EXPECT_EQ(test, a->ev[1].type, IW_CM_EVENT_CLOSE);
	KUNIT_EXPECT_EQ(test, irdma_t_tqp(0, 0)->resets, 1);
	KUNIT_EXPECT_EQ(test, irdma_t_core(0)->node_cnt, 0u);
}

static void irdma_test_destroy_listener_resets_pending(struct kunit *test)
{
	struct irdma_test_cmid *l = irdma_t_listen(test, true, NULL, 4);
	struct irdma_test_cmid *a = irdma_t_cmid(test, 0);
	struct irdma_test_cmid *n = irdma_t_cmid(test, 1);

	KUNIT_ASSERT_EQ(test, irdma_t_connect(test, a, NULL, 0), 0);
	irdma_t_pump();
	KUNIT_ASSERT_EQ(test, l->nev, 1);
	KUNIT_EXPECT_EQ(test, irdma_destroy_listen(&l->id), 0);
	irdma_t_pump();
	KUNIT_ASSERT_EQ(test, a->nev, 1);
	KUNIT_EXPECT_EQ(test, a->ev[0].status, -ECONNRESET);
	KUNIT_EXPECT_EQ(test, irdma_t_accept(l, n, 10, NULL, 0, 8, 8),
			-ECONNRESET);
	KUNIT_EXPECT_EQ(test, l->refs, 0);
}

/* iw_cm does not take the CONNECT_REQUEST: no answer can come */
static void irdma_test_connreq_event_error_releases(struct kunit *test)
{
	struct irdma_test_cmid *l = irdma_t_listen(test, true, NULL, 1);
	struct irdma_test_cmid *a = irdma_t_cmid(test, 0);
	struct irdma_test_cmid *b = irdma_t_cmid(test, 0);
	struct irdma_cm_listener *listener = l->id.provider_data;
	u32 a0 = T_ADDR0, a1 = T_ADDR1;

	l->event_ret = -ENOMEM;
	KUNIT_ASSERT_EQ(test, irdma_t_connect(test, a, NULL, 0), 0);
	irdma_t_pump();
	KUNIT_EXPECT_EQ(test, l->nev, 0);
	/* the connection is reset, everything it held released */
	KUNIT_ASSERT_EQ(test, a->nev, 1);
	KUNIT_EXPECT_EQ(test, a->ev[0].status, -ECONNRESET);
	KUNIT_EXPECT_EQ(test, irdma_t_core(1)->node_cnt, 0u);
	KUNIT_EXPECT_EQ(test, irdma_tw->dev[1].qhash_est, 0);
	KUNIT_EXPECT_EQ(test, listener->pending, 0);
	KUNIT_EXPECT_EQ(test, l->refs, 1);
	/* the backlog slot (backlog 1) is free again */
	l->event_ret = 0;
	KUNIT_ASSERT_EQ(test, irdma_t_connect_to(b, 0, true, &a0, &a1,
						 T_PORT_A + 1, 11, NULL, 0, 8, 8),
			0);
	irdma_t_pump();
	KUNIT_EXPECT_EQ(test, l->nev, 1);
}

static int irdma_t_ahs_used(int dev)
{
	int i, n = 0;

	for (i = 0; i < T_MAX_AH; i++)
		n += irdma_tw->dev[dev].ahs[i].used;
	return n;
}

/* the AHs nodes hold: those in use less the idle ones the CM keeps */
static int irdma_t_ahs_held(int dev)
{
	return irdma_t_ahs_used(dev) - irdma_t_core(dev)->ahs_idle;
}

/* iw_cm took the CONNECT_REQUEST and dropped it (listener being destroyed) */
static void irdma_test_connreq_dropped_released_by_destroy(struct kunit *test)
{
	struct irdma_test_cmid *l = irdma_t_listen(test, true, NULL, 4);
	struct irdma_test_cmid *a = irdma_t_cmid(test, 0);
	struct irdma_t_raw r;
	u8 f[64];
	u32 len;

	l->drop_events = true;
	KUNIT_ASSERT_EQ(test, irdma_t_connect(test, a, NULL, 0), 0);
	irdma_t_pump();
	/* a second one whose peer resets it before anyone answers */
	irdma_t_raw_handshake(test, &r);
	len = irdma_t_mpa(f, true, 2, 0x50, true, 0x8008, 0xC008, NULL, 0);
	irdma_t_raw_send(&r, IRDMA_TCP_ACK, NULL, 0, f, len);
	irdma_t_raw_send(&r, IRDMA_TCP_RST, NULL, 0, NULL, 0);
	KUNIT_EXPECT_EQ(test, l->ndropped, 2);
	KUNIT_EXPECT_EQ(test, l->nev, 0);
	KUNIT_EXPECT_EQ(test, irdma_t_core(1)->node_cnt, 2u);
	KUNIT_EXPECT_EQ(test, irdma_destroy_listen(&l->id), 0);
	irdma_t_pump();
	KUNIT_EXPECT_EQ(test, irdma_t_core(1)->node_cnt, 0u);
	KUNIT_EXPECT_EQ(test, irdma_tw->dev[1].qhash_est, 0);
	KUNIT_EXPECT_EQ(test, irdma_tw->dev[1].apbvt, 0);
	/* the node gone, its AH is idle (kept for the next connection) */
	KUNIT_EXPECT_EQ(test, irdma_t_ahs_held(1), 0);
	KUNIT_EXPECT_EQ(test, l->refs, 0);
	KUNIT_ASSERT_EQ(test, a->nev, 1);
	KUNIT_EXPECT_EQ(test, a->ev[0].status, -ECONNRESET);
}

/* a request the CM released: accept and reject get -ECONNRESET, no UAF */
static void irdma_test_connreq_stale_handle(struct kunit *test)
{
	struct irdma_test_cmid *l = irdma_t_listen(test, true, NULL, 4);
	struct irdma_test_cmid *a = irdma_t_cmid(test, 0);
	struct irdma_test_cmid *n = irdma_t_cmid(test, 1);
	struct irdma_test_cmid *m = irdma_t_cmid(test, 1);

	KUNIT_ASSERT_EQ(test, irdma_t_connect(test, a, NULL, 0), 0);
	irdma_t_pump();
	KUNIT_ASSERT_EQ(test, l->nev, 1);
	KUNIT_EXPECT_NE(test, (unsigned long)l->ev[0].provider_data, 0ul);
	KUNIT_EXPECT_EQ(test, irdma_destroy_listen(&l->id), 0);
	irdma_t_pump();
	/* the node is gone, not merely closed */
	KUNIT_EXPECT_EQ(test, irdma_t_core(1)->node_cnt, 0u);
	KUNIT_EXPECT_EQ(test, irdma_t_accept(l, n, 10, NULL, 0, 8, 8),
			-ECONNRESET);
	m->id.provider_data = l->ev[0].provider_data;
	KUNIT_EXPECT_EQ(test, irdma_reject(&m->id, NULL, 0), -ECONNRESET);
	KUNIT_EXPECT_NULL(test, m->id.provider_data);
	KUNIT_EXPECT_EQ(test, irdma_reject(&m->id, NULL, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, n->refs, 0);
	KUNIT_EXPECT_EQ(test, irdma_t_tqp(1, 0)->refs, 0);
}

/* a loopback request whose listener goes fails the connect at once */
static void irdma_test_loopback_listener_destroyed(struct kunit *test)
{
	struct irdma_test_cmid *l = irdma_t_cmid(test, 0);
	struct irdma_test_cmid *a = irdma_t_cmid(test, 0);
	u32 a0 = T_ADDR0;

	irdma_t_sin(&l->id.m_local_addr, true, &a0, T_PORT_L);
	KUNIT_ASSERT_EQ(test, irdma_create_listen(&l->id, 4), 0);
	KUNIT_ASSERT_EQ(test, irdma_t_connect_to(a, 0, true, &a0, &a0, T_PORT_A,
						 10, NULL, 0, 8, 8), 0);
	KUNIT_ASSERT_EQ(test, l->nev, 1);
	KUNIT_EXPECT_EQ(test, irdma_destroy_listen(&l->id), 0);
	KUNIT_ASSERT_EQ(test, a->nev, 1);
	KUNIT_EXPECT_EQ(test, a->ev[0].status, -ECONNRESET);
	KUNIT_EXPECT_EQ(test, a->refs, 0);
	KUNIT_EXPECT_EQ(test, irdma_t_core(0)->node_cnt, 0u);
}

static void irdma_test_loopback_connect_accept(struct kunit *test)
{
	struct irdma_test_cmid *l = irdma_t_cmid(test, 0);
	struct irdma_test_cmid *a = irdma_t_cmid(test, 0);
	struct irdma_test_cmid *n = irdma_t_cmid(test, 0);
	struct irdma_cm_offload_info *ao, *po;
	u32 a0 = T_ADDR0;

	irdma_t_sin(&l->id.m_local_addr, true, &a0, T_PORT_L);
	KUNIT_ASSERT_EQ(test, irdma_create_listen(&l->id, 4), 0);
	KUNIT_ASSERT_EQ(test, irdma_t_connect_to(a, 0, true, &a0, &a0, T_PORT_A,
						 10, "lo", 2, 8, 8), 0);
	irdma_t_flush();
	KUNIT_ASSERT_EQ(test, l->nev, 1);
	KUNIT_EXPECT_EQ(test, memcmp(l->ev[0].pdata, "lo", 2), 0);
	KUNIT_ASSERT_EQ(test, irdma_t_accept(l, n, 11, "ok", 2, 8, 8), 0);
	irdma_t_flush();
	KUNIT_EXPECT_EQ(test, irdma_tw->nlog, 0);	/* nothing on the wire */
	KUNIT_ASSERT_EQ(test, a->nev, 1);
	KUNIT_EXPECT_EQ(test, a->ev[0].status, 0);
	KUNIT_EXPECT_EQ(test, memcmp(a->ev[0].pdata, "ok", 2), 0);
	KUNIT_ASSERT_EQ(test, n->nev, 1);
	KUNIT_EXPECT_EQ(test, n->ev[0].type, IW_CM_EVENT_ESTABLISHED);
	ao = &irdma_t_tqp(0, 0)->off;
	po = &irdma_t_tqp(0, 1)->off;
	KUNIT_EXPECT_EQ(test, ao->snd_nxt, po->rcv_nxt);
	KUNIT_EXPECT_EQ(test, po->snd_nxt, ao->rcv_nxt);
	KUNIT_EXPECT_EQ(test, ao->loc_port, po->rem_port);
	KUNIT_EXPECT_EQ(test, po->lsmm_len, 0u);
	KUNIT_EXPECT_EQ(test, ao->rtr, po->rtr);
	KUNIT_EXPECT_EQ(test, ao->snd_wnd, po->rcv_wnd);
	/* both contexts name a programmed ARP entry of this device's MAC */
	KUNIT_EXPECT_TRUE(test, irdma_t_arp_is(0, ao->arp_idx,
					       irdma_tw->dev[0].netdev->dev_addr));
	KUNIT_EXPECT_TRUE(test, irdma_t_arp_is(0, po->arp_idx,
					       irdma_tw->dev[0].netdev->dev_addr));
}

static void irdma_test_loopback_ipv6(struct kunit *test)
{
	struct irdma_test_cmid *l = irdma_t_cmid(test, 0);
	struct irdma_test_cmid *a = irdma_t_cmid(test, 0);
	struct irdma_test_cmid *n = irdma_t_cmid(test, 0);

	irdma_t_sin(&l->id.m_local_addr, false, irdma_t_v6_0, T_PORT_L);
	KUNIT_ASSERT_EQ(test, irdma_create_listen(&l->id, 4), 0);
	KUNIT_ASSERT_EQ(test, irdma_t_connect_to(a, 0, false, irdma_t_v6_0,
						 irdma_t_v6_0, T_PORT_A, 10,
						 NULL, 0, 8, 8), 0);
	KUNIT_ASSERT_EQ(test, l->nev, 1);
	KUNIT_ASSERT_EQ(test, irdma_t_accept(l, n, 11, NULL, 0, 8, 8), 0);
	irdma_t_flush();
	KUNIT_ASSERT_EQ(test, a->nev, 1);
	KUNIT_EXPECT_EQ(test, a->ev[0].status, 0);
	KUNIT_EXPECT_FALSE(test, irdma_t_tqp(0, 0)->off.ipv4);
	KUNIT_EXPECT_EQ(test, irdma_t_tqp(0, 0)->off.snd_nxt,
			irdma_t_tqp(0, 1)->off.rcv_nxt);
	KUNIT_EXPECT_EQ(test, irdma_t_tqp(0, 1)->off.snd_nxt,
			irdma_t_tqp(0, 0)->off.rcv_nxt);
	KUNIT_EXPECT_EQ(test, irdma_tw->nlog, 0);
}

static void irdma_test_listener_gone_port_kept(struct kunit *test)
{
	struct irdma_test_cmid *l = irdma_t_listen(test, true, NULL, 4);
	struct irdma_test_cmid *a = irdma_t_cmid(test, 0);

	irdma_t_establish(test, l, a);
	KUNIT_EXPECT_EQ(test, irdma_destroy_listen(&l->id), 0);
	/* the offloaded passive connection still holds its port */
	KUNIT_EXPECT_EQ(test, irdma_tw->dev[1].apbvt, 1);
	KUNIT_EXPECT_EQ(test, l->refs, 0);
}

static void irdma_test_loopback_offload_failure(struct kunit *test)
{
	struct irdma_test_cmid *l = irdma_t_cmid(test, 0);
	struct irdma_test_cmid *a = irdma_t_cmid(test, 0);
	struct irdma_test_cmid *n = irdma_t_cmid(test, 0);
	u32 a0 = T_ADDR0;

	irdma_t_sin(&l->id.m_local_addr, true, &a0, T_PORT_L);
	KUNIT_ASSERT_EQ(test, irdma_create_listen(&l->id, 4), 0);
	KUNIT_ASSERT_EQ(test, irdma_t_connect_to(a, 0, true, &a0, &a0, T_PORT_A,
						 10, NULL, 0, 8, 8), 0);
	KUNIT_ASSERT_EQ(test, l->nev, 1);
	irdma_tw->dev[0].fail_offload = true;
	KUNIT_EXPECT_EQ(test, irdma_t_accept(l, n, 11, NULL, 0, 8, 8), -EIO);
	KUNIT_ASSERT_EQ(test, a->nev, 1);
	KUNIT_EXPECT_EQ(test, a->ev[0].status, -ECONNRESET);
	KUNIT_EXPECT_EQ(test, irdma_t_core(0)->node_cnt, 0u);
	KUNIT_EXPECT_EQ(test, a->refs, 0);
	KUNIT_EXPECT_EQ(test, n->refs, 0);
}

static void irdma_test_loopback_reject(struct kunit *test)
{
	struct irdma_test_cmid *l = irdma_t_cmid(test, 0);
	struct irdma_test_cmid *a = irdma_t_cmid(test, 0);
	struct irdma_test_cmid *n = irdma_t_cmid(test, 0);
	u32 a0 = T_ADDR0;

	irdma_t_sin(&l->id.m_local_addr, true, &a0, T_PORT_L);
	KUNIT_ASSERT_EQ(test, irdma_create_listen(&l->id, 4), 0);
	KUNIT_ASSERT_EQ(test, irdma_t_connect_to(a, 0, true, &a0, &a0, T_PORT_A,
						 10, NULL, 0, 8, 8), 0);
	KUNIT_ASSERT_EQ(test, l->nev, 1);
	n->id.provider_data = l->ev[0].provider_data;
	KUNIT_EXPECT_EQ(test, irdma_reject(&n->id, "no", 2), 0);
	KUNIT_ASSERT_EQ(test, a->nev, 1);
	KUNIT_EXPECT_EQ(test, a->ev[0].status, -ECONNREFUSED);
	KUNIT_EXPECT_EQ(test, memcmp(a->ev[0].pdata, "no", 2), 0);
	KUNIT_EXPECT_EQ(test, irdma_t_core(0)->node_cnt, 0u);
	KUNIT_EXPECT_EQ(test, a->refs, 0);
}

static void irdma_test_loopback_no_listener(struct kunit *test)
{
	struct irdma_test_cmid *a = irdma_t_cmid(test, 0);
	u32 a0 = T_ADDR0;

	KUNIT_EXPECT_EQ(test, irdma_t_connect_to(a, 0, true, &a0, &a0, T_PORT_A,
						 10, NULL, 0, 8, 8),
			-ECONNREFUSED);
	KUNIT_EXPECT_EQ(test, irdma_t_tqp(0, 0)->refs, 0);
	KUNIT_EXPECT_EQ(test, a->refs, 0);
	KUNIT_EXPECT_EQ(test, irdma_t_core(0)->node_cnt, 0u);
}

static void irdma_test_vlan_priority_in_offload(struct kunit *test)
{
	struct irdma_test_cmid *l = irdma_t_listen(test, true, NULL, 4);
	struct irdma_test_cmid *a = irdma_t_cmid(test, 0);

	irdma_tw->dev[0].route_vlan = 100;
	a->id.tos = 0xA0;	/* precedence 5 */
	a->id.tos_set = true;
	irdma_t_establish(test, l, a);
	KUNIT_EXPECT_TRUE(test, irdma_t_tqp(0, 0)->off.insert_vlan);
	KUNIT_EXPECT_EQ(test, irdma_t_tqp(0, 0)->off.vlan_tci, 100 | 5 << 13);
	KUNIT_EXPECT_EQ(test, irdma_t_tqp(0, 0)->off.tos, 0xA0);
	/* the passive side takes VLAN and priority from the frames */
	KUNIT_EXPECT_TRUE(test, irdma_t_tqp(1, 0)->off.insert_vlan);
	KUNIT_EXPECT_EQ(test, irdma_t_tqp(1, 0)->off.vlan_tci, 100 | 5 << 13);
	KUNIT_EXPECT_EQ(test, irdma_t_tqp(1, 0)->off.user_pri, 5);
}

static void irdma_test_iwpm_mapped_addresses(struct kunit *test)
{
	struct irdma_test_cmid *l = irdma_t_listen(test, true, NULL, 4);
	struct irdma_test_cmid *a = irdma_t_cmid(test, 0);
	struct irdma_test_cmid *n = irdma_t_cmid(test, 1);
	struct sockaddr_in *sin;
	u32 a0 = T_ADDR0, a1 = T_ADDR1;
	struct iw_cm_conn_param p = { .qpn = 10, .ird = 8, .ord = 8 };

	/* the ULP's address/port differ from the mapped ones on the wire */
	irdma_t_sin(&a->id.local_addr, true, &a0, 1111);
	irdma_t_sin(&a->id.m_local_addr, true, &a0, T_PORT_A);
	irdma_t_sin(&a->id.remote_addr, true, &a1, 2222);
	irdma_t_sin(&a->id.m_remote_addr, true, &a1, T_PORT_L);
	KUNIT_ASSERT_EQ(test, irdma_connect(&a->id, &p), 0);
	irdma_t_pump();
	KUNIT_EXPECT_EQ(test, get_unaligned_be16(irdma_tw->log[0].seg), T_PORT_A);
	KUNIT_ASSERT_EQ(test, l->nev, 1);
	sin = (struct sockaddr_in *)&l->ev[0].remote;
	KUNIT_EXPECT_EQ(test, ntohs(sin->sin_port), T_PORT_A);
	KUNIT_ASSERT_EQ(test, irdma_t_accept(l, n, 10, NULL, 0, 8, 8), 0);
	irdma_t_pump();
	KUNIT_ASSERT_EQ(test, a->nev, 1);
	sin = (struct sockaddr_in *)&a->ev[0].local;
	KUNIT_EXPECT_EQ(test, ntohs(sin->sin_port), T_PORT_A);
	KUNIT_EXPECT_EQ(test, irdma_t_tqp(0, 0)->off.loc_port, T_PORT_A);
}

/* fail the @nth next segment allocation of @core, once (fault injection) */
static void irdma_t_fail_tx(struct kunit *test, struct irdma_cm_core *core,
			    unsigned long nth)
{
#ifdef CONFIG_FAULT_INJECTION
	core->fail_tx.probability = 100;
	core->fail_tx.interval = nth;
	core->fail_tx.count = 0;
	core->fail_tx.verbose = 0;
	atomic_set(&core->fail_tx.times, 1);
#else
	kunit_skip(test, "needs CONFIG_FAULT_INJECTION");
#endif
}

/*
 * A SYN-ACK that cannot be allocated ends the half-open node at once (it
 * would have no timer and no owner); the peer's retransmitted SYN gets
 * its SYN-ACK.
 */
static void irdma_test_synack_alloc_fail(struct kunit *test)
{
	static const u8 opts[] = { 2, 4, 0x05, 0xb4, 3, 3, 2, 0 };
	struct irdma_t_raw r = { .addr = T_RAW_ADDR, .port = 40020, .seq = 300 };
	struct irdma_cm_listener *listener;
	struct irdma_test_cmid *l;
	struct irdma_test_seg *s;

	l = irdma_t_listen(test, true, NULL, 4);
	listener = l->id.provider_data;
	irdma_t_fail_tx(test, irdma_t_core(1), 1);
	irdma_t_raw_send(&r, IRDMA_TCP_SYN, opts, sizeof(opts), NULL, 0);
	KUNIT_EXPECT_EQ(test, irdma_t_core(1)->node_cnt, 0u);
	KUNIT_EXPECT_EQ(test, listener->half_open, 0u);
	KUNIT_EXPECT_EQ(test, irdma_t_count_to_raw(0), 0);
	KUNIT_EXPECT_EQ(test, irdma_t_ahs_held(1), 0);

	r.seq = 300;
	irdma_t_raw_send(&r, IRDMA_TCP_SYN, opts, sizeof(opts), NULL, 0);
	s = irdma_t_raw_last();
	KUNIT_ASSERT_NOT_NULL(test, s);
	KUNIT_EXPECT_EQ(test, s->flags, IRDMA_TCP_SYN | IRDMA_TCP_ACK);
	KUNIT_EXPECT_EQ(test, irdma_t_core(1)->node_cnt, 1u);
	/* the first node's AH, idle since it went, serves the second */
	KUNIT_EXPECT_EQ(test, irdma_t_ahs_used(1), 1);
	KUNIT_EXPECT_EQ(test, irdma_t_core(1)->ahs_idle, 0u);
}

/*
 * The MPA v1 retry's SYN cannot be allocated: the connect fails with
 * -ENOMEM at once instead of waiting in SYN_SENT with no timer.
 */
static void irdma_test_v1_fallback_alloc_fail(struct kunit *test)
{
	struct irdma_test_cmid *a = irdma_t_cmid(test, 0);
	struct irdma_cm_core *core = irdma_t_core(0);
	struct irdma_cm_node *cm;
	u32 old_iss;

	/* the SYN and the MPA request go; the SYN of the v1 retry cannot */
	irdma_t_fail_tx(test, core, 3);
	cm = irdma_t_v2_request_reset(test, a, &old_iss);
	if (!cm)
		return;
	KUNIT_EXPECT_EQ(test, cm->state, IRDMA_CM_STATE_CLOSED);
	irdma_rem_ref_cm_node(cm);
	mutex_unlock(&core->mutex);
	irdma_t_pump();
	KUNIT_ASSERT_EQ(test, a->nev, 1);
	KUNIT_EXPECT_EQ(test, a->ev[0].type, IW_CM_EVENT_CONNECT_REPLY);
	KUNIT_EXPECT_EQ(test, a->ev[0].status, -ENOMEM);
	KUNIT_EXPECT_EQ(test, core->node_cnt, 0u);
}

/*
 * an offloaded connection keeps its AH, and so its ARP entry pinned; then
 * the AH waits idle for a second, and goes
 */
static void irdma_test_ah_kept_while_offloaded(struct kunit *test)
{
	struct irdma_test_cmid *l = irdma_t_listen(test, true, NULL, 4);
	struct irdma_test_cmid *a = irdma_t_cmid(test, 0);
	struct irdma_qp *qp = &irdma_t_tqp(0, 0)->qp;

	irdma_t_establish(test, l, a);
	KUNIT_EXPECT_EQ(test, irdma_t_ahs_used(0), 1);
	KUNIT_EXPECT_EQ(test, irdma_t_ahs_used(1), 1);
	irdma_cm_disconn(qp, IRDMA_AE_LLP_CLOSE_COMPLETE, IRDMA_TCPS_CLOSED);
	irdma_t_flush();
	KUNIT_EXPECT_EQ(test, irdma_t_core(0)->node_cnt, 0u);
	KUNIT_EXPECT_EQ(test, irdma_t_ahs_held(0), 0);
	/* kept idle for the next connection, until the reaper's second */
	KUNIT_EXPECT_EQ(test, irdma_t_core(0)->ahs_idle, 1u);
	irdma_t_run(1300);
	KUNIT_EXPECT_EQ(test, irdma_t_ahs_used(0), 0);
	KUNIT_EXPECT_EQ(test, irdma_t_core(0)->ahs_idle, 0u);
}

/* a stray segment never puts its source MAC into the ARP cache */
static void irdma_test_stray_segment_no_arp_update(struct kunit *test)
{
	struct irdma_test_dev *d = &irdma_tw->dev[1];
	struct irdma_t_raw r = { .addr = T_RAW_ADDR, .port = 40007,
				 .seq = 1000, .ack = 5555 };
	struct irdma_test_seg *s;
	int adds;

	irdma_t_listen(test, true, NULL, 4);
	/* an ACK for no connection: RST towards the routed next hop */
	irdma_t_raw_send(&r, IRDMA_TCP_ACK, NULL, 0, NULL, 0);
	s = irdma_t_raw_last();
	KUNIT_ASSERT_NOT_NULL(test, s);
	KUNIT_EXPECT_EQ(test, s->flags, IRDMA_TCP_RST);
	KUNIT_EXPECT_EQ(test, s->seq, 5555u);
	KUNIT_EXPECT_TRUE(test, is_broadcast_ether_addr(d->arp_last_mac));
	KUNIT_EXPECT_EQ(test, irdma_t_ahs_used(1), 0);
	/* no next hop: silence, counted, the ARP cache untouched */
	adds = d->arp_adds;
	d->route_err = -EHOSTUNREACH;
	r.port++;
	irdma_t_raw_send(&r, IRDMA_TCP_ACK, NULL, 0, NULL, 0);
	KUNIT_EXPECT_EQ(test, irdma_t_core(1)->stats.rst_no_route, 1ull);
	KUNIT_EXPECT_EQ(test, d->arp_adds, adds);
	KUNIT_EXPECT_EQ(test, irdma_t_raw_last()->seq, 5555u);	/* no new RST */
	KUNIT_EXPECT_EQ(test, irdma_t_core(1)->stats.resets_sent, 1ull);
}

/*
 * a SYN's frame MAC never reaches the ARP cache: a SYN claiming dev 0's
 * address from another station's MAC programs dev 0's real MAC (the
 * neighbour table's), so it cannot redirect connections to dev 0
 */
static void irdma_test_spoofed_syn_mac_ignored(struct kunit *test)
{
	static const u8 opts[] = { 2, 4, 0x05, 0xb4, 3, 3, 2, 0 };
	struct irdma_test_dev *d = &irdma_tw->dev[1];
	struct irdma_t_raw r = { .addr = T_ADDR0, .port = 41000, .seq = 7 };
	int adds;

	irdma_t_listen(test, true, NULL, 4);
	adds = d->arp_adds;
	irdma_t_raw_send(&r, IRDMA_TCP_SYN, opts, sizeof(opts), NULL, 0);
	KUNIT_EXPECT_EQ(test, irdma_t_core(1)->stats.nodes_created, 1ull);
	KUNIT_EXPECT_EQ(test, d->arp_adds, adds + 1);
	KUNIT_EXPECT_TRUE(test, ether_addr_equal(d->arp_last_mac,
						 irdma_tw->dev[0].netdev->dev_addr));
}

/*
 * a SYN whose sender has no resolved neighbour is dropped and counted,
 * with no node and no answer; its retransmission, resolved, is taken
 */
static void irdma_test_syn_unresolved_dropped(struct kunit *test)
{
	static const u8 opts[] = { 2, 4, 0x05, 0xb4, 3, 3, 2, 0 };
	struct irdma_test_dev *d = &irdma_tw->dev[1];
	struct irdma_t_raw r = { .addr = T_RAW_ADDR, .port = 41000, .seq = 7 };
	struct irdma_test_seg *s;

	irdma_t_listen(test, true, NULL, 4);
	d->route_err = -EHOSTUNREACH;
	irdma_t_raw_send(&r, IRDMA_TCP_SYN, opts, sizeof(opts), NULL, 0);
	KUNIT_EXPECT_EQ(test, irdma_t_core(1)->stats.syn_unresolved, 1ull);
	KUNIT_EXPECT_EQ(test, irdma_t_core(1)->stats.nodes_created, 0ull);
	KUNIT_EXPECT_EQ(test, irdma_t_count_to_raw(0), 0);
	KUNIT_EXPECT_EQ(test, irdma_t_ahs_used(1), 0);
	d->route_err = 0;
	r.seq = 7;
	irdma_t_raw_send(&r, IRDMA_TCP_SYN, opts, sizeof(opts), NULL, 0);
	s = irdma_t_raw_last();
	KUNIT_ASSERT_NOT_NULL(test, s);
	KUNIT_EXPECT_EQ(test, s->flags, IRDMA_TCP_SYN | IRDMA_TCP_ACK);
	KUNIT_EXPECT_EQ(test, s->ack, 8u);
	KUNIT_EXPECT_EQ(test, irdma_t_core(1)->node_cnt, 1u);
}

/* a frame flood is bounded: at most tun.max_rx_queued frames wait */
static void irdma_test_rx_queue_bounded(struct kunit *test)
{
	struct irdma_cm_core *core = irdma_t_core(1);
	struct irdma_cm_rx_pkt rx = { .ipv4 = true, .smac_valid = true };
	u8 b[IRDMA_ILQ_TCP_OFFSET + IRDMA_CM_TCP_HDR_SIZE];
	int i;

	core->tun.max_rx_queued = 4;
	irdma_t_mkframe(b, true, IRDMA_CM_TCP_HDR_SIZE);
	b[IRDMA_ILQ_TCP_OFFSET + T_TCP(flags)] = IRDMA_TCP_RST;
	rx.buf = b;
	rx.len = sizeof(b);
	/* the dispatcher waits for the mutex: nothing queued is freed */
	mutex_lock(&core->mutex);
	for (i = 0; i < 10; i++)
		irdma_receive_ilq(core, &rx);
	KUNIT_EXPECT_EQ(test, atomic_read(&core->rx_queued), 4);
	mutex_unlock(&core->mutex);
	irdma_t_flush();
	KUNIT_EXPECT_EQ(test, atomic_long_read(&core->rx_queue_drops), 6l);
	KUNIT_EXPECT_EQ(test, core->stats.rx_segs, 4ull);
	KUNIT_EXPECT_EQ(test, atomic_read(&core->rx_queued), 0);
	/* room again */
	irdma_receive_ilq(core, &rx);
	irdma_t_flush();
	KUNIT_EXPECT_EQ(test, core->stats.rx_segs, 5ull);
}

/*
 * stateless RSTs draw from a token bucket; challenge ACKs from a budget of
 * their own, which a flood of resets cannot reveal or spend
 */
static void irdma_test_unsolicited_replies_ratelimited(struct kunit *test)
{
	struct irdma_cm_core *core = irdma_t_core(1);
	struct irdma_t_raw r, s = { .addr = T_RAW_ADDR, .port = 41000,
				    .seq = 7, .ack = 9 };
	int i, rsts = 0;

	irdma_t_listen(test, true, NULL, 4);
	mutex_lock(&core->mutex);
	core->tun.reply_rate = 1;	/* a second's refill is beyond the test */
	core->tun.reply_burst = 3;
	core->reply_tokens = 3;
	core->reply_stamp = jiffies;
	mutex_unlock(&core->mutex);
	/* a flood of ACKs for no connection: 3 RSTs, then silence */
	for (i = 0; i < 10; i++, s.port++)
		irdma_t_raw_send(&s, IRDMA_TCP_ACK, NULL, 0, NULL, 0);
	for (i = 0; i < irdma_tw->nlog; i++)
		rsts += irdma_tw->log[i].to == 2 &&
			(irdma_tw->log[i].flags & IRDMA_TCP_RST);
	KUNIT_EXPECT_EQ(test, rsts, 3);
	KUNIT_EXPECT_EQ(test, core->stats.replies_ratelimited, 7ull);
	/* an in-window RST on a connection still gets its challenge ACK */
	irdma_t_raw_handshake(test, &r);
	r.seq += 100;
	irdma_t_raw_send(&r, IRDMA_TCP_RST, NULL, 0, NULL, 0);
	KUNIT_EXPECT_EQ(test, core->stats.challenge_acks, 1ull);
	KUNIT_EXPECT_EQ(test, irdma_t_raw_last()->flags, IRDMA_TCP_ACK);
	KUNIT_EXPECT_EQ(test, core->stats.replies_ratelimited, 7ull);
	KUNIT_EXPECT_EQ(test, irdma_t_core(1)->node_cnt, 1u);
}

/*
 * one connection answers a forged flood of in-window RSTs and SYNs and
 * of out-of-window segments once per tun.oow_gap, not once per segment
 */
static void irdma_test_challenge_ack_gap(struct kunit *test)
{
	struct irdma_cm_core *core = irdma_t_core(1);
	struct irdma_t_raw r;
	u32 seq;
	int i;

	irdma_t_listen(test, true, NULL, 4);
	/*
	 * the 60 segments below must come within one gap: 200 ms was too
	 * short for a loaded TCG host (a second challenge ACK went out);
	 * the node waits for its MPA request longer than the gap lasts
	 */
	mutex_lock(&core->mutex);
	core->tun.oow_gap = msecs_to_jiffies(2000);
	core->tun.mpa_timeout = msecs_to_jiffies(10000);
	mutex_unlock(&core->mutex);
	irdma_t_raw_handshake(test, &r);
	seq = r.seq;
	for (i = 0; i < 20; i++) {
		r.seq = seq + 100 + i;
		irdma_t_raw_send(&r, IRDMA_TCP_RST, NULL, 0, NULL, 0);
		r.seq = seq;
		irdma_t_raw_send(&r, IRDMA_TCP_SYN, NULL, 0, NULL, 0);
		r.seq = seq + 0x40000000;	/* out of window */
		irdma_t_raw_send(&r, IRDMA_TCP_ACK, "x", 1, NULL, 0);
	}
	KUNIT_EXPECT_EQ(test, core->stats.challenge_acks, 1ull);
	KUNIT_EXPECT_EQ(test, core->stats.replies_ratelimited, 59ull);
	/* the gap over, the next one is answered */
	msleep(2100);
	r.seq = seq + 100;
	irdma_t_raw_send(&r, IRDMA_TCP_RST, NULL, 0, NULL, 0);
	KUNIT_EXPECT_EQ(test, core->stats.challenge_acks, 2ull);
	KUNIT_EXPECT_EQ(test, irdma_t_raw_last()->flags, IRDMA_TCP_ACK);
	KUNIT_EXPECT_EQ(test, irdma_t_core(1)->node_cnt, 1u);
}

/*
 * the instance's challenge-ACK budget is drawn anew each second at random
 * from [limit / 2, limit * 3 / 2): over 24 seconds (started by hand) the
 * count of ACKs let through stays in that range and is not one fixed
 * number
 */
static void irdma_test_challenge_budget_random(struct kunit *test)
{
	struct irdma_cm_core *core = irdma_t_core(1);
	struct irdma_t_raw r;
	u64 before, lo = U64_MAX, hi = 0, got;
	unsigned long s0;
	int sec, i;

	irdma_t_listen(test, true, NULL, 4);
	irdma_t_raw_handshake(test, &r);
	r.seq += 100;
	mutex_lock(&core->mutex);
	core->tun.oow_gap = 0;
	core->tun.challenge_limit = 8;
	mutex_unlock(&core->mutex);
	for (sec = 0; sec < 24; sec++) {
		s0 = jiffies / HZ;
		mutex_lock(&core->mutex);
		core->challenge_sec = s0 - 1;	/* a new second */
		mutex_unlock(&core->mutex);
		before = core->stats.challenge_acks;
		for (i = 0; i < 16; i++)
			irdma_t_raw_send(&r, IRDMA_TCP_RST, NULL, 0, NULL, 0);
		got = core->stats.challenge_acks - before;
		/* a real second's tick in between drew a second budget */
		if (core->challenge_sec != s0)
			continue;
		lo = min(lo, got);
		hi = max(hi, got);
	}
	KUNIT_EXPECT_GE(test, lo, 4ull);
	KUNIT_EXPECT_LE(test, hi, 11ull);
	KUNIT_EXPECT_LT(test, lo, hi);
	KUNIT_EXPECT_EQ(test, irdma_t_core(1)->node_cnt, 1u);
}

static void irdma_test_disconnect_graceful(struct kunit *test)
{
	struct irdma_test_cmid *l = irdma_t_listen(test, true, NULL, 4);
	struct irdma_test_cmid *a = irdma_t_cmid(test, 0);
	struct irdma_qp *qp = &irdma_t_tqp(0, 0)->qp;

	irdma_t_establish(test, l, a);
	irdma_cm_disconn(qp, IRDMA_AE_LLP_FIN_RECEIVED, IRDMA_TCPS_CLOSE_WAIT);
	irdma_t_flush();
	KUNIT_ASSERT_EQ(test, a->nev, 2);
	KUNIT_EXPECT_EQ(test, a->ev[1].type, IW_CM_EVENT_DISCONNECT);
	KUNIT_EXPECT_EQ(test, a->ev[1].status, 0);
	KUNIT_EXPECT_EQ(test, irdma_t_tqp(0, 0)->closes, 1);
	irdma_cm_disconn(qp, IRDMA_AE_LLP_CLOSE_COMPLETE, IRDMA_TCPS_CLOSED);
	irdma_t_flush();
	KUNIT_ASSERT_EQ(test, a->nev, 3);
	KUNIT_EXPECT_EQ(test, a->ev[2].type, IW_CM_EVENT_CLOSE);
	KUNIT_EXPECT_EQ(test, a->ev[2].status, 0);
	KUNIT_EXPECT_EQ(test, irdma_t_tqp(0, 0)->flushes, 1);
	KUNIT_EXPECT_EQ(test, irdma_t_tqp(0, 0)->resets, 0);
	KUNIT_EXPECT_EQ(test, irdma_t_core(0)->node_cnt, 0u);
	KUNIT_EXPECT_EQ(test, a->refs, 0);
}

static void irdma_test_disconnect_reset_ae(struct kunit *test)
{
	struct irdma_test_cmid *l = irdma_t_listen(test, true, NULL, 4);
	struct irdma_test_cmid *a = irdma_t_cmid(test, 0);
	struct irdma_test_cmid *n;

	n = irdma_t_establish(test, l, a);
	irdma_cm_disconn(&irdma_t_tqp(1, 0)->qp, IRDMA_AE_LLP_CONNECTION_RESET,
			 IRDMA_TCPS_CLOSED);
	irdma_t_flush();
	KUNIT_ASSERT_EQ(test, n->nev, 3);
	KUNIT_EXPECT_EQ(test, n->ev[1].type, IW_CM_EVENT_DISCONNECT);
	KUNIT_EXPECT_EQ(test, n->ev[1].status, -ECONNRESET);
	KUNIT_EXPECT_EQ(test, n->ev[2].type, IW_CM_EVENT_CLOSE);
	KUNIT_EXPECT_EQ(test, n->ev[2].status, -ECONNRESET);
	KUNIT_EXPECT_EQ(test, irdma_t_core(1)->node_cnt, 0u);
}

static void irdma_test_close_timer_forces_close(struct kunit *test)
{
	struct irdma_test_cmid *l = irdma_t_listen(test, true, NULL, 4);
	struct irdma_test_cmid *a = irdma_t_cmid(test, 0);

	irdma_t_establish(test, l, a);
	/* ULP disconnect: QP modified to CLOSING, no CLOSE_COMPLETE follows */
	irdma_cm_disconn(&irdma_t_tqp(0, 0)->qp, 0, IRDMA_TCPS_FIN_WAIT_1);
	irdma_t_run(100);
	KUNIT_ASSERT_EQ(test, a->nev, 2);
	KUNIT_EXPECT_EQ(test, a->ev[1].type, IW_CM_EVENT_CLOSE);
	KUNIT_EXPECT_EQ(test, irdma_t_tqp(0, 0)->resets, 1);
	KUNIT_EXPECT_EQ(test, irdma_t_core(0)->node_cnt, 0u);
}

static void irdma_test_close_waits_for_late_fin(struct kunit *test)
{
	struct irdma_test_cmid *l = irdma_t_listen(test, true, NULL, 4);
	struct irdma_test_cmid *a = irdma_t_cmid(test, 0);
	struct irdma_qp *qp;

	irdma_t_core(0)->tun.close_timeout = msecs_to_jiffies(1000);
	irdma_t_establish(test, l, a);
	qp = &irdma_t_tqp(0, 0)->qp;
	/* our FIN; the peer's comes well after TIME_WAIT's length */
	irdma_cm_disconn(qp, 0, IRDMA_TCPS_FIN_WAIT_1);
	irdma_t_run(200);
	KUNIT_EXPECT_EQ(test, a->nev, 1);
	irdma_cm_disconn(qp, IRDMA_AE_LLP_CLOSE_COMPLETE, IRDMA_TCPS_CLOSED);
	irdma_t_flush();
	KUNIT_ASSERT_EQ(test, a->nev, 2);
	KUNIT_EXPECT_EQ(test, a->ev[1].type, IW_CM_EVENT_CLOSE);
	KUNIT_EXPECT_EQ(test, a->ev[1].status, 0);
	KUNIT_EXPECT_EQ(test, irdma_t_tqp(0, 0)->resets, 0);
}

static void irdma_test_terminate_ae_closes(struct kunit *test)
{
	struct irdma_test_cmid *l = irdma_t_listen(test, true, NULL, 4);
	struct irdma_test_cmid *a = irdma_t_cmid(test, 0);

	irdma_t_establish(test, l, a);
	irdma_cm_disconn(&irdma_t_tqp(0, 0)->qp, IRDMA_AE_LLP_TERMINATE_RECEIVED,
			 IRDMA_TCPS_ESTABLISHED);
	irdma_t_flush();
	KUNIT_ASSERT_EQ(test, a->nev, 2);
	KUNIT_EXPECT_EQ(test, a->ev[1].type, IW_CM_EVENT_CLOSE);
	KUNIT_EXPECT_EQ(test, irdma_t_tqp(0, 0)->resets, 1);
	KUNIT_EXPECT_EQ(test, irdma_t_tqp(0, 0)->flushes, 1);
}

static void irdma_test_error_ae_terminates(struct kunit *test)
{
	struct irdma_test_cmid *l = irdma_t_listen(test, true, NULL, 4);
	struct irdma_test_cmid *a = irdma_t_cmid(test, 0);
	struct irdma_test_qp *tq;

	irdma_t_establish(test, l, a);
	tq = irdma_t_tqp(0, 0);
	/* an access error: TERMINATE, and the connection waits for the peer */
	tq->term_built = true;
	irdma_cm_disconn(&tq->qp, IRDMA_AE_AMP_INVALID_STAG,
			 IRDMA_TCPS_ESTABLISHED);
	irdma_t_flush();
	KUNIT_EXPECT_EQ(test, tq->terminates, 1);
	KUNIT_EXPECT_EQ(test, tq->resets, 0);
	KUNIT_EXPECT_EQ(test, a->nev, 1);
	/* the peer closes: reset, and CLOSE with the error */
	irdma_cm_disconn(&tq->qp, IRDMA_AE_LLP_FIN_RECEIVED,
			 IRDMA_TCPS_CLOSE_WAIT);
	irdma_t_flush();
	KUNIT_ASSERT_EQ(test, a->nev, 2);
	KUNIT_EXPECT_EQ(test, a->ev[1].type, IW_CM_EVENT_CLOSE);
	KUNIT_EXPECT_EQ(test, a->ev[1].status, -ECONNRESET);
	KUNIT_EXPECT_EQ(test, tq->terminates, 1);
	KUNIT_EXPECT_EQ(test, tq->resets, 1);
	KUNIT_EXPECT_EQ(test, tq->flushes, 1);
}

static void irdma_test_terminate_wait_expires(struct kunit *test)
{
	struct irdma_test_cmid *l = irdma_t_listen(test, true, NULL, 4);
	struct irdma_test_cmid *a = irdma_t_cmid(test, 0);
	struct irdma_test_qp *tq;

	irdma_t_core(0)->tun.term_wait = HZ / 20;
	irdma_t_establish(test, l, a);
	tq = irdma_t_tqp(0, 0);
	tq->term_built = true;
	irdma_cm_disconn(&tq->qp, IRDMA_AE_DDP_UBE_INVALID_MSN_NO_BUFFER_AVAILABLE,
			 IRDMA_TCPS_ESTABLISHED);
	irdma_t_flush();
	KUNIT_EXPECT_EQ(test, tq->terminates, 1);
	/* a peer that never closes: the wait ends in a reset */
	irdma_t_run(200);
	KUNIT_ASSERT_EQ(test, a->nev, 2);
	KUNIT_EXPECT_EQ(test, a->ev[1].type, IW_CM_EVENT_CLOSE);
	KUNIT_EXPECT_EQ(test, a->ev[1].status, -ECONNRESET);
	KUNIT_EXPECT_EQ(test, tq->resets, 1);
	KUNIT_EXPECT_EQ(test, irdma_t_core(0)->node_cnt, 0u);
}

static void irdma_test_rts_timeout(struct kunit *test)
{
	struct irdma_test_cmid *l = irdma_t_listen(test, true, NULL, 4);
	struct irdma_test_cmid *a = irdma_t_cmid(test, 0);
	struct irdma_test_cmid *n = irdma_t_cmid(test, 1);

	irdma_tw->dev[0].rts_auto = false;
	KUNIT_ASSERT_EQ(test, irdma_t_connect(test, a, NULL, 0), 0);
	irdma_t_pump();
	KUNIT_ASSERT_EQ(test, irdma_t_accept(l, n, 10, NULL, 0, 8, 8), 0);
	irdma_t_run(300);
	KUNIT_ASSERT_EQ(test, a->nev, 1);
	KUNIT_EXPECT_EQ(test, a->ev[0].type, IW_CM_EVENT_CONNECT_REPLY);
	KUNIT_EXPECT_EQ(test, a->ev[0].status, -ETIMEDOUT);
	KUNIT_EXPECT_EQ(test, irdma_t_tqp(0, 0)->resets, 1);
	KUNIT_EXPECT_EQ(test, irdma_t_core(0)->node_cnt, 0u);
}

/* a passive node without RTR waits for the initiator's first FPDU: no
 * RTS timeout (the initiator of the client-server model sends when it likes)
 */
static void irdma_test_no_rts_timeout_without_rtr(struct kunit *test)
{
	struct irdma_test_cmid *l = irdma_t_listen(test, true, NULL, 4);
	struct irdma_test_cmid *n = irdma_t_cmid(test, 1);
	struct irdma_t_raw r;
	u8 f[64];
	u32 len;

	irdma_tw->dev[1].rts_auto = false;
	/* soft-iWARP's request: v2 without flag A, so no RTR */
	irdma_t_raw_handshake(test, &r);
	len = irdma_t_mpa(f, true, 2, 0x50, true, 0x0008, 0x0008, NULL, 0);
	irdma_t_raw_send(&r, IRDMA_TCP_ACK, NULL, 0, f, len);
	KUNIT_ASSERT_EQ(test, l->nev, 1);
	KUNIT_ASSERT_EQ(test, irdma_t_accept(l, n, 10, NULL, 0, 8, 8), 0);
	irdma_t_run(300);	/* three times the tests' RTS timeout */
	KUNIT_EXPECT_EQ(test, n->nev, 0);
	KUNIT_EXPECT_EQ(test, irdma_t_tqp(1, 0)->resets, 0);
	KUNIT_EXPECT_EQ(test, irdma_t_rem_state(1, r.port), (int)IRDMA_CM_STATE_OFFLOADED);
	/* the initiator's first FPDU: the RTS AE, then ESTABLISHED */
	irdma_cm_qp_established(&irdma_t_tqp(1, 0)->qp);
	irdma_t_flush();
	KUNIT_ASSERT_EQ(test, n->nev, 1);
	KUNIT_EXPECT_EQ(test, n->ev[0].type, IW_CM_EVENT_ESTABLISHED);
}

static void irdma_test_offload_failure(struct kunit *test)
{
	struct irdma_test_cmid *l = irdma_t_listen(test, true, NULL, 4);
	struct irdma_test_cmid *a = irdma_t_cmid(test, 0);
	struct irdma_test_cmid *n = irdma_t_cmid(test, 1);

	irdma_tw->dev[1].fail_offload = true;
	KUNIT_ASSERT_EQ(test, irdma_t_connect(test, a, NULL, 0), 0);
	irdma_t_pump();
	KUNIT_EXPECT_EQ(test, irdma_t_accept(l, n, 10, NULL, 0, 8, 8), -EIO);
	irdma_t_pump();
	KUNIT_ASSERT_EQ(test, a->nev, 1);
	KUNIT_EXPECT_EQ(test, a->ev[0].status, -ECONNRESET);
	KUNIT_EXPECT_EQ(test, n->nev, 0);
	KUNIT_EXPECT_EQ(test, n->refs, 0);
	KUNIT_EXPECT_EQ(test, irdma_t_tqp(1, 0)->refs, 0);
}

static void irdma_test_connect_bad_qp(struct kunit *test)
{
	struct irdma_test_cmid *l = irdma_t_listen(test, true, NULL, 4);
	struct irdma_test_cmid *a = irdma_t_cmid(test, 0);
	struct irdma_test_cmid *b = irdma_t_cmid(test, 0);
	u32 a0 = T_ADDR0, a1 = T_ADDR1;

	KUNIT_EXPECT_EQ(test, irdma_t_connect_to(a, 0, true, &a0, &a1, T_PORT_A,
						 99, NULL, 0, 8, 8), -EINVAL);
	KUNIT_ASSERT_EQ(test, irdma_t_connect(test, a, NULL, 0), 0);
	/* the QP is taken */
	KUNIT_EXPECT_EQ(test, irdma_t_connect_to(b, 0, true, &a0, &a1,
						 T_PORT_A + 1, 10, NULL, 0, 8, 8),
			-EBUSY);
	KUNIT_EXPECT_EQ(test, l->nev, 0);
}

static void irdma_test_kernel_net_ops(struct kunit *test)
{
	struct irdma_cm_core *core = irdma_t_core(0);
	const struct irdma_cm_net_ops *k = &irdma_cm_kernel_net_ops;
	struct net_device *lo = init_net.loopback_dev;
	struct irdma_cm_route rt = { .ipv4 = true };
	struct irdma_cm_addr *addrs;
	bool opened;

	/* the real lookups, in a test kernel with no configured interface */
	rt.loc_addr[0] = 0x7f000001;
	rt.rem_addr[0] = 0x7f000001;
	KUNIT_EXPECT_EQ(test, k->route(core, &rt), 0);
	KUNIT_EXPECT_TRUE(test, rt.loopback);
	KUNIT_EXPECT_EQ(test, rt.vlan_id, IRDMA_CM_NO_VLAN);
	memset(&rt, 0, sizeof(rt));
	rt.ipv4 = true;
	rt.loc_addr[0] = T_ADDR0;
	rt.rem_addr[0] = T_ADDR1;
	KUNIT_EXPECT_EQ(test, k->route(core, &rt), -ENETUNREACH);
	memset(&rt, 0, sizeof(rt));
	memcpy(rt.loc_addr, irdma_t_v6_0, 16);
	memcpy(rt.rem_addr, irdma_t_v6_1, 16);
	KUNIT_EXPECT_LT(test, k->route(core, &rt), 0);
	addrs = kunit_kcalloc(test, IRDMA_CM_MAX_ADDRS, sizeof(*addrs),
			      GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, addrs);
	/* the fake port is not registered: it holds no address */
	KUNIT_EXPECT_EQ(test, k->get_addrs(core, true, addrs,
					   IRDMA_CM_MAX_ADDRS), 0);
	KUNIT_EXPECT_EQ(test, k->get_addrs(core, false, addrs,
					   IRDMA_CM_MAX_ADDRS), 0);
	/*
	 * other interfaces of the namespace are not the device's: with lo
	 * up (and so holding 127.0.0.1), still no address
	 */
	rtnl_lock();
	opened = !(lo->flags & IFF_UP) && !dev_open(lo, NULL);
	rtnl_unlock();
	KUNIT_EXPECT_TRUE(test, lo->flags & IFF_UP);
	KUNIT_EXPECT_NE(test, inet_select_addr(lo, 0, RT_SCOPE_HOST), 0);
	KUNIT_EXPECT_EQ(test, k->get_addrs(core, true, addrs,
					   IRDMA_CM_MAX_ADDRS), 0);
	if (opened) {
		rtnl_lock();
		dev_close(lo);
		rtnl_unlock();
	}
	KUNIT_EXPECT_EQ(test, k->mtu(core, IRDMA_CM_NO_VLAN), 1500u);
}

static void irdma_test_unload_with_live_nodes(struct kunit *test)
{
	struct irdma_test_cmid *l = irdma_t_listen(test, true, NULL, 4);
	struct irdma_test_cmid *a = irdma_t_cmid(test, 0);
	struct irdma_test_cmid *b = irdma_t_cmid(test, 0);
	struct irdma_test_cmid *c = irdma_t_cmid(test, 0);
	u32 a0 = T_ADDR0, a1 = T_ADDR1;

	/* one offloaded, one waiting for accept, one in SYN_SENT */
	irdma_t_establish(test, l, a);
	KUNIT_ASSERT_EQ(test, irdma_t_connect_to(b, 0, true, &a0, &a1,
						 T_PORT_A + 1, 11, NULL, 0, 8, 8),
			0);
	irdma_t_pump();
	irdma_tw->filter = irdma_t_drop_all;
	KUNIT_ASSERT_EQ(test, irdma_t_connect_to(c, 0, true, &a0, &a1,
						 T_PORT_A + 2, 12, NULL, 0, 8, 8),
			0);
	irdma_cleanup_cm_core(irdma_t_core(0));
	irdma_cleanup_cm_core(irdma_t_core(1));
	KUNIT_EXPECT_EQ(test, irdma_t_core(0)->node_cnt, 0u);
	KUNIT_EXPECT_EQ(test, irdma_t_core(1)->node_cnt, 0u);
	KUNIT_EXPECT_EQ(test, a->refs, 0);
	KUNIT_EXPECT_EQ(test, b->refs, 0);
	KUNIT_EXPECT_EQ(test, c->refs, 0);
	KUNIT_EXPECT_EQ(test, l->refs, 0);
	KUNIT_EXPECT_EQ(test, a->ev[a->nev - 1].type, IW_CM_EVENT_CLOSE);
	KUNIT_EXPECT_EQ(test, c->ev[0].type, IW_CM_EVENT_CONNECT_REPLY);
	KUNIT_EXPECT_NE(test, c->ev[0].status, 0);
}

static void irdma_test_qp_destroy_releases_node(struct kunit *test)
{
	struct irdma_test_cmid *l = irdma_t_listen(test, true, NULL, 4);
	struct irdma_test_cmid *a = irdma_t_cmid(test, 0);

	irdma_t_establish(test, l, a);
	irdma_cm_qp_destroy(&irdma_t_tqp(0, 0)->qp);
	KUNIT_EXPECT_EQ(test, irdma_t_tqp(0, 0)->refs, 0);
	KUNIT_EXPECT_EQ(test, irdma_t_core(0)->node_cnt, 0u);
	KUNIT_EXPECT_EQ(test, a->ev[a->nev - 1].type, IW_CM_EVENT_CLOSE);
	KUNIT_EXPECT_EQ(test, a->refs, 0);
}

static void irdma_test_duplicate_syn_resends_synack(struct kunit *test)
{
	struct irdma_t_raw r;
	struct irdma_test_seg *s;
	u64 rex;
	static const u8 opts[] = { 2, 4, 0x05, 0xb4, 3, 3, 2, 0 };

	irdma_t_listen(test, true, NULL, 4);
	/* no retransmission by the timer within the test: only the SYN's */
	irdma_t_core(1)->tun.rexmit_timeout = 30 * HZ;
	r.addr = T_RAW_ADDR;
	r.port = 40000;
	r.seq = 1000;
	irdma_t_raw_send(&r, IRDMA_TCP_SYN, opts, sizeof(opts), NULL, 0);
	rex = irdma_t_core(1)->stats.rexmits;
	KUNIT_EXPECT_EQ(test, irdma_t_count_to_raw(IRDMA_TCP_SYN | IRDMA_TCP_ACK), 1);
	r.seq = 1000;
	irdma_t_raw_send(&r, IRDMA_TCP_SYN, opts, sizeof(opts), NULL, 0);
	s = irdma_t_raw_last();
	KUNIT_EXPECT_EQ(test, s->flags, IRDMA_TCP_SYN | IRDMA_TCP_ACK);
	KUNIT_EXPECT_EQ(test, irdma_t_count_to_raw(IRDMA_TCP_SYN | IRDMA_TCP_ACK), 2);
	KUNIT_EXPECT_EQ(test, irdma_t_core(1)->stats.rexmits, rex + 1);
	KUNIT_EXPECT_EQ(test, irdma_t_core(1)->node_cnt, 1u);
}

/*
 * RFC 9293 section 3.10.7.4 in SYN_RCVD: an ACK that does not acknowledge
 * our SYN (here: SND.UNA itself) gets a reset <SEQ=SEG.ACK> and the node
 * stays; an out-of-window segment gets an ACK and the node stays.
 */
static void irdma_test_syn_rcvd_bad_ack(struct kunit *test)
{
	static const u8 opts[] = { 2, 4, 0x05, 0xb4, 3, 3, 2, 0 };
	struct irdma_t_raw r = { .addr = T_RAW_ADDR, .port = 40010, .seq = 500 };
	struct irdma_test_seg *s;
	u32 iss;

	irdma_t_listen(test, true, NULL, 4);
	irdma_t_core(1)->tun.rexmit_timeout = 30 * HZ;
	irdma_t_raw_send(&r, IRDMA_TCP_SYN, opts, sizeof(opts), NULL, 0);
	s = irdma_t_raw_last();
	KUNIT_ASSERT_NOT_NULL(test, s);
	iss = s->seq;

	r.ack = iss;		/* SND.UNA: acknowledges nothing */
	irdma_t_raw_send(&r, IRDMA_TCP_ACK, NULL, 0, NULL, 0);
	s = irdma_t_raw_last();
	KUNIT_EXPECT_EQ(test, s->flags & IRDMA_TCP_RST, IRDMA_TCP_RST);
	KUNIT_EXPECT_EQ(test, s->seq, iss);
	KUNIT_EXPECT_EQ(test, irdma_t_core(1)->stats.resets_sent, 1ull);

	r.seq = 500 + 0x40000000;	/* far outside the window */
	r.ack = iss + 1;
	irdma_t_raw_send(&r, IRDMA_TCP_ACK, NULL, 0, NULL, 0);
	s = irdma_t_raw_last();
	KUNIT_EXPECT_EQ(test, s->flags, IRDMA_TCP_ACK);
	KUNIT_EXPECT_EQ(test, s->seq, iss + 1);
	KUNIT_EXPECT_EQ(test, s->ack, 501u);

	KUNIT_EXPECT_EQ(test, irdma_t_rem_state(1, 40010), (int)IRDMA_CM_STATE_SYN_RCVD);

	/* the right ACK still completes the handshake */
	r.seq = 501;
	irdma_t_raw_send(&r, IRDMA_TCP_ACK, NULL, 0, NULL, 0);
	KUNIT_EXPECT_EQ(test, irdma_t_rem_state(1, 40010), (int)IRDMA_CM_STATE_ESTABLISHED);
}

/*
 * A SYN with another initial sequence in SYN_RCVD: outside the window it
 * is answered with an ACK and the node stays; inside it the node goes
 * without a RST (back to LISTEN), and the retransmitted SYN opens anew.
 */
static void irdma_test_syn_rcvd_new_syn(struct kunit *test)
{
	static const u8 opts[] = { 2, 4, 0x05, 0xb4, 3, 3, 2, 0 };
	struct irdma_t_raw r = { .addr = T_RAW_ADDR, .port = 40011, .seq = 700 };
	struct irdma_test_seg *s;

	irdma_t_listen(test, true, NULL, 4);
	irdma_t_core(1)->tun.rexmit_timeout = 30 * HZ;
	irdma_t_raw_send(&r, IRDMA_TCP_SYN, opts, sizeof(opts), NULL, 0);
	s = irdma_t_raw_last();
	KUNIT_ASSERT_NOT_NULL(test, s);

	r.seq = 700 + 0x40000000;
	irdma_t_raw_send(&r, IRDMA_TCP_SYN, opts, sizeof(opts), NULL, 0);
	s = irdma_t_raw_last();
	KUNIT_EXPECT_EQ(test, s->flags, IRDMA_TCP_ACK);
	KUNIT_EXPECT_EQ(test, s->ack, 701u);
	KUNIT_EXPECT_EQ(test, irdma_t_core(1)->node_cnt, 1u);

	r.seq = 900;		/* in the window */
	irdma_t_raw_send(&r, IRDMA_TCP_SYN, opts, sizeof(opts), NULL, 0);
	KUNIT_EXPECT_EQ(test, irdma_t_count_to_raw(IRDMA_TCP_RST), 0);
	KUNIT_EXPECT_EQ(test, irdma_t_rem_state(1, 40011), -1);

	r.seq = 900;		/* the peer's retransmission */
	irdma_t_raw_send(&r, IRDMA_TCP_SYN, opts, sizeof(opts), NULL, 0);
	s = irdma_t_raw_last();
	KUNIT_EXPECT_EQ(test, s->flags, IRDMA_TCP_SYN | IRDMA_TCP_ACK);
	KUNIT_EXPECT_EQ(test, s->ack, 901u);
	KUNIT_EXPECT_EQ(test, irdma_t_core(1)->node_cnt, 1u);
}

static void irdma_test_time_wait_released(struct kunit *test)
{
	struct irdma_test_cmid *l = irdma_t_listen(test, true, NULL, 4);
	struct irdma_test_cmid *a = irdma_t_cmid(test, 0);
	struct irdma_test_cmid *n = irdma_t_cmid(test, 1);
	bool saw_tw = false;
	struct irdma_cm_node *cm;

	irdma_t_core(1)->tun.time_wait = msecs_to_jiffies(300);
	KUNIT_ASSERT_EQ(test, irdma_t_connect(test, a, NULL, 0), 0);
	irdma_t_pump();
	n->id.provider_data = l->ev[0].provider_data;
	KUNIT_ASSERT_EQ(test, irdma_reject(&n->id, NULL, 0), 0);
	irdma_t_flush();
	irdma_t_pump();
	mutex_lock(&irdma_t_core(1)->mutex);
	cm = irdma_t_find_rem(1, T_PORT_A);
	saw_tw = cm && cm->state == IRDMA_CM_STATE_TIME_WAIT;
	mutex_unlock(&irdma_t_core(1)->mutex);
	KUNIT_EXPECT_TRUE(test, saw_tw);
	irdma_t_run(700);
	KUNIT_EXPECT_EQ(test, irdma_t_core(1)->node_cnt, 0u);
}

/* ---- iw_cm's event order: irdma_send_cm_event() refuses what it forbids -- */

/* the node bound to QP @q of @dev, with a reference (NULL: none) */
static struct irdma_cm_node *irdma_t_qp_node(int dev, int q)
{
	struct irdma_cm_core *core = irdma_t_core(dev);
	struct irdma_cm_node *n;

	mutex_lock(&core->mutex);
	n = irdma_qp_cm(&irdma_t_tqp(dev, q)->qp)->cm_node;
	if (n)
		irdma_cm_node_get(n);
	mutex_unlock(&core->mutex);
	return n;
}

/* try one event on @node towards @c, as the CM would; the return value */
static int irdma_t_send_event(int dev, struct irdma_cm_node *node,
			      struct irdma_test_cmid *c,
			      enum iw_cm_event_type type, int status)
{
	struct irdma_cm_core *core = irdma_t_core(dev);
	int ret;

	mutex_lock(&core->mutex);
	ret = irdma_send_cm_event(node, &c->id, type, status);
	mutex_unlock(&core->mutex);
	return ret;
}

/*
 * A passive id that was accepted but saw no ESTABLISHED yet takes no
 * CLOSE (iw_cm's cm_close_handler() BUG()s in CONN_RECV) and no
 * DISCONNECT; a peer closing before the RTS AE gets ESTABLISHED first.
 */
static void irdma_test_order_no_close_before_established(struct kunit *test)
{
	struct irdma_test_cmid *l = irdma_t_listen(test, true, NULL, 4);
	struct irdma_test_cmid *a = irdma_t_cmid(test, 0);
	struct irdma_test_cmid *n = irdma_t_cmid(test, 1);
	struct irdma_cm_node *node;

	irdma_tw->dev[1].rts_auto = false;
	KUNIT_ASSERT_EQ(test, irdma_t_connect(test, a, "hello", 5), 0);
	irdma_t_pump();
	KUNIT_ASSERT_EQ(test, l->nev, 1);
	KUNIT_ASSERT_EQ(test, irdma_t_accept(l, n, 10, "world", 5, 8, 8), 0);
	irdma_t_pump();
	KUNIT_ASSERT_EQ(test, n->nev, 0);
	node = irdma_t_qp_node(1, 0);
	KUNIT_ASSERT_NOT_NULL(test, node);
	KUNIT_EXPECT_EQ(test, irdma_t_send_event(1, node, n, IW_CM_EVENT_CLOSE,
						 0), -EPROTO);
	KUNIT_EXPECT_EQ(test, irdma_t_send_event(1, node, n,
						 IW_CM_EVENT_DISCONNECT, 0),
			-EPROTO);
	KUNIT_EXPECT_EQ(test, irdma_t_send_event(1, node, n,
						 IW_CM_EVENT_CONNECT_REPLY, 0),
			-EPROTO);
	KUNIT_EXPECT_EQ(test, n->nev, 0);
	KUNIT_EXPECT_EQ(test, irdma_t_core(1)->stats.events_dropped, 3ull);

	irdma_cm_disconn(&irdma_t_tqp(1, 0)->qp, IRDMA_AE_LLP_FIN_RECEIVED,
			 IRDMA_TCPS_CLOSE_WAIT);
	irdma_t_flush();
	KUNIT_ASSERT_EQ(test, n->nev, 2);
	KUNIT_EXPECT_EQ(test, n->ev[0].type, IW_CM_EVENT_ESTABLISHED);
	KUNIT_EXPECT_EQ(test, n->ev[1].type, IW_CM_EVENT_CLOSE);
	KUNIT_EXPECT_EQ(test, irdma_t_core(1)->stats.events_dropped, 3ull);
	irdma_t_node_put(1, node);
}

/*
 * An active id waiting for CONNECT_REPLY takes no CLOSE, DISCONNECT or
 * ESTABLISHED; a close before the RTS AE is CONNECT_REPLY(error), and
 * nothing follows it.
 */
static void irdma_test_order_no_close_before_connect_reply(struct kunit *test)
{
	struct irdma_test_cmid *l = irdma_t_listen(test, true, NULL, 4);
	struct irdma_test_cmid *a = irdma_t_cmid(test, 0);
	struct irdma_test_cmid *n = irdma_t_cmid(test, 1);
	struct irdma_cm_node *node;

	irdma_tw->dev[0].rts_auto = false;
	KUNIT_ASSERT_EQ(test, irdma_t_connect(test, a, NULL, 0), 0);
	irdma_t_pump();
	KUNIT_ASSERT_EQ(test, l->nev, 1);
	KUNIT_ASSERT_EQ(test, irdma_t_accept(l, n, 10, NULL, 0, 8, 8), 0);
	irdma_t_pump();
	KUNIT_ASSERT_EQ(test, a->nev, 0);
	node = irdma_t_qp_node(0, 0);
	KUNIT_ASSERT_NOT_NULL(test, node);
	KUNIT_EXPECT_EQ(test, irdma_t_send_event(0, node, a, IW_CM_EVENT_CLOSE,
						 0), -EPROTO);
	KUNIT_EXPECT_EQ(test, irdma_t_send_event(0, node, a,
						 IW_CM_EVENT_DISCONNECT, 0),
			-EPROTO);
	KUNIT_EXPECT_EQ(test, irdma_t_send_event(0, node, a,
						 IW_CM_EVENT_ESTABLISHED, 0),
			-EPROTO);
	KUNIT_EXPECT_EQ(test, a->nev, 0);

	irdma_cm_disconn(&irdma_t_tqp(0, 0)->qp, IRDMA_AE_LLP_FIN_RECEIVED,
			 IRDMA_TCPS_CLOSE_WAIT);
	irdma_t_flush();
	KUNIT_ASSERT_EQ(test, a->nev, 1);
	KUNIT_EXPECT_EQ(test, a->ev[0].type, IW_CM_EVENT_CONNECT_REPLY);
	KUNIT_EXPECT_EQ(test, a->ev[0].status, -ECONNRESET);
	KUNIT_EXPECT_EQ(test, irdma_t_send_event(0, node, a, IW_CM_EVENT_CLOSE,
						 0), -EPROTO);
	KUNIT_EXPECT_EQ(test, a->nev, 1);
	KUNIT_EXPECT_EQ(test, irdma_t_core(0)->stats.events_dropped, 4ull);
	irdma_t_node_put(0, node);
}

/* one CLOSE per connection: a second close AE and a second CLOSE go nowhere */
static void irdma_test_order_no_second_close(struct kunit *test)
{
	struct irdma_test_cmid *l = irdma_t_listen(test, true, NULL, 4);
	struct irdma_test_cmid *a = irdma_t_cmid(test, 0);
	struct irdma_qp *qp = &irdma_t_tqp(0, 0)->qp;
	struct irdma_cm_node *node;

	irdma_t_establish(test, l, a);
	node = irdma_t_qp_node(0, 0);
	KUNIT_ASSERT_NOT_NULL(test, node);
	irdma_cm_disconn(qp, IRDMA_AE_LLP_FIN_RECEIVED, IRDMA_TCPS_CLOSE_WAIT);
	irdma_cm_disconn(qp, IRDMA_AE_LLP_CLOSE_COMPLETE, IRDMA_TCPS_CLOSED);
	irdma_cm_disconn(qp, IRDMA_AE_LLP_CLOSE_COMPLETE, IRDMA_TCPS_CLOSED);
	irdma_t_flush();
	KUNIT_ASSERT_EQ(test, a->nev, 3);
	KUNIT_EXPECT_EQ(test, a->ev[1].type, IW_CM_EVENT_DISCONNECT);
	KUNIT_EXPECT_EQ(test, a->ev[2].type, IW_CM_EVENT_CLOSE);
	KUNIT_EXPECT_EQ(test, irdma_t_send_event(0, node, a, IW_CM_EVENT_CLOSE,
						 0), -EPROTO);
	KUNIT_EXPECT_EQ(test, a->nev, 3);
	KUNIT_EXPECT_EQ(test, irdma_t_core(0)->stats.events_dropped, 1ull);
	irdma_t_node_put(0, node);
}

/* a rejected connect ends with its CONNECT_REPLY(-ECONNREFUSED) */
static void irdma_test_order_no_reply_after_reject(struct kunit *test)
{
	struct irdma_test_cmid *l = irdma_t_listen(test, true, NULL, 4);
	struct irdma_test_cmid *a = irdma_t_cmid(test, 0);
	struct irdma_test_cmid *n = irdma_t_cmid(test, 1);
	struct irdma_cm_node *node;

	KUNIT_ASSERT_EQ(test, irdma_t_connect(test, a, "x", 1), 0);
	node = irdma_t_qp_node(0, 0);
	KUNIT_ASSERT_NOT_NULL(test, node);
	irdma_t_pump();
	KUNIT_ASSERT_EQ(test, l->nev, 1);
	n->id.provider_data = l->ev[0].provider_data;
	KUNIT_ASSERT_EQ(test, irdma_reject(&n->id, "nope", 4), 0);
	irdma_t_run(100);
	KUNIT_ASSERT_EQ(test, a->nev, 1);
	KUNIT_EXPECT_EQ(test, a->ev[0].type, IW_CM_EVENT_CONNECT_REPLY);
	KUNIT_EXPECT_EQ(test, a->ev[0].status, -ECONNREFUSED);
	KUNIT_EXPECT_EQ(test, irdma_t_send_event(0, node, a,
						 IW_CM_EVENT_CONNECT_REPLY, 0),
			-EPROTO);
	KUNIT_EXPECT_EQ(test, irdma_t_send_event(0, node, a,
						 IW_CM_EVENT_CONNECT_REPLY,
						 -ECONNREFUSED), -EPROTO);
	KUNIT_EXPECT_EQ(test, a->nev, 1);
	KUNIT_EXPECT_EQ(test, irdma_t_core(0)->stats.events_dropped, 2ull);
	KUNIT_EXPECT_EQ(test, n->nev, 0);
	irdma_t_node_put(0, node);
}

/* a CLOSE without DISCONNECT (terminate) is not followed by a DISCONNECT */
static void irdma_test_order_no_disconnect_after_close(struct kunit *test)
{
	struct irdma_test_cmid *l = irdma_t_listen(test, true, NULL, 4);
	struct irdma_test_cmid *a = irdma_t_cmid(test, 0);
	struct irdma_qp *qp = &irdma_t_tqp(0, 0)->qp;
	struct irdma_cm_node *node;

	irdma_t_establish(test, l, a);
	node = irdma_t_qp_node(0, 0);
	KUNIT_ASSERT_NOT_NULL(test, node);
	irdma_cm_disconn(qp, IRDMA_AE_LLP_TERMINATE_RECEIVED,
			 IRDMA_TCPS_ESTABLISHED);
	irdma_t_flush();
	KUNIT_ASSERT_EQ(test, a->nev, 2);
	KUNIT_EXPECT_EQ(test, a->ev[1].type, IW_CM_EVENT_CLOSE);
	/* the peer's FIN arrives late */
	irdma_cm_disconn(qp, IRDMA_AE_LLP_FIN_RECEIVED, IRDMA_TCPS_CLOSE_WAIT);
	irdma_t_flush();
	KUNIT_EXPECT_EQ(test, a->nev, 2);
	KUNIT_EXPECT_EQ(test, irdma_t_send_event(0, node, a,
						 IW_CM_EVENT_DISCONNECT, 0),
			-EPROTO);
	KUNIT_EXPECT_EQ(test, a->nev, 2);
	KUNIT_EXPECT_EQ(test, irdma_t_core(0)->stats.events_dropped, 1ull);
	irdma_t_node_put(0, node);
}

/* after CLOSE nothing at all reaches the id, on either side */
static void irdma_test_order_nothing_after_close(struct kunit *test)
{
	static const enum iw_cm_event_type all[] = {
		IW_CM_EVENT_CONNECT_REQUEST, IW_CM_EVENT_CONNECT_REPLY,
		IW_CM_EVENT_ESTABLISHED, IW_CM_EVENT_DISCONNECT,
		IW_CM_EVENT_CLOSE,
	};
	struct irdma_test_cmid *l = irdma_t_listen(test, true, NULL, 4);
	struct irdma_test_cmid *a = irdma_t_cmid(test, 0);
	struct irdma_cm_node *pnode, *anode;
	struct irdma_test_cmid *n;
	int i;

	n = irdma_t_establish(test, l, a);
	anode = irdma_t_qp_node(0, 0);
	pnode = irdma_t_qp_node(1, 0);
	KUNIT_ASSERT_NOT_NULL(test, anode);
	KUNIT_ASSERT_NOT_NULL(test, pnode);
	irdma_cm_qp_destroy(&irdma_t_tqp(1, 0)->qp);
	irdma_cm_qp_destroy(&irdma_t_tqp(0, 0)->qp);
	KUNIT_ASSERT_EQ(test, n->nev, 2);
	KUNIT_EXPECT_EQ(test, n->ev[1].type, IW_CM_EVENT_CLOSE);
	KUNIT_ASSERT_EQ(test, a->nev, 2);
	KUNIT_EXPECT_EQ(test, a->ev[1].type, IW_CM_EVENT_CLOSE);
	for (i = 0; i < ARRAY_SIZE(all); i++) {
		KUNIT_EXPECT_EQ(test, irdma_t_send_event(1, pnode, n, all[i], 0),
				-EPROTO);
		KUNIT_EXPECT_EQ(test, irdma_t_send_event(0, anode, a, all[i], 0),
				-EPROTO);
	}
	KUNIT_EXPECT_EQ(test, n->nev, 2);
	KUNIT_EXPECT_EQ(test, a->nev, 2);
	KUNIT_EXPECT_EQ(test, l->nev, 1);
	KUNIT_EXPECT_EQ(test, irdma_t_core(0)->stats.events_dropped,
			(u64)ARRAY_SIZE(all));
	KUNIT_EXPECT_EQ(test, irdma_t_core(1)->stats.events_dropped,
			(u64)ARRAY_SIZE(all));
	irdma_t_node_put(1, pnode);
	irdma_t_node_put(0, anode);
}

/* ---- an accepted active connection failing before RTS: RTR, then FIN ---- */

/* the first segment from @dev at log index >= @from carrying data or FIN/RST */
static int irdma_t_next_from(int dev, int from)
{
	int i;

	for (i = from; i < irdma_tw->nlog; i++) {
		struct irdma_test_seg *s = &irdma_tw->log[i];

		if (s->from == dev &&
		    (s->datalen || s->flags & (IRDMA_TCP_FIN | IRDMA_TCP_RST)))
			return i;
	}
	return -1;
}

/* @s is our zero-length RDMA Write RTR in one MPA FPDU with a good CRC */
static void irdma_t_expect_rtr_write(struct kunit *test,
				     const struct irdma_test_seg *s)
{
	const u8 *f = s->seg + s->hdr_len;
	u8 zero[12] = {};

	KUNIT_ASSERT_EQ(test, s->datalen, 20u);
	KUNIT_EXPECT_FALSE(test, s->flags & (IRDMA_TCP_FIN | IRDMA_TCP_RST));
	KUNIT_EXPECT_EQ(test, get_unaligned_be16(f), 14);
	KUNIT_EXPECT_EQ(test, f[2], 0xC1);	/* tagged, last, DDP v1 */
	KUNIT_EXPECT_EQ(test, f[3], 0x40);	/* RDMAP v1, RDMA Write */
	KUNIT_EXPECT_EQ(test, memcmp(f + 4, zero, sizeof(zero)), 0);
	KUNIT_EXPECT_EQ(test, get_unaligned_le32(f + 16),
			irdma_cm_crc32c(f, 16));
}

/*
 * @s is our RTR as a Read Request (RFC 5040 6.4: untagged, queue 1, MSN 1,
 * a zero-length read of STag 0) in one MPA FPDU with a good CRC
 */
static void irdma_t_expect_rtr_read(struct kunit *test,
				    const struct irdma_test_seg *s)
{
	const u8 *f = s->seg + s->hdr_len;
	u8 zero[28] = {};

	/* MPA length, DDP untagged header, RDMAP Read Request header, CRC */
	KUNIT_ASSERT_EQ(test, s->datalen, 2u + 18 + 28 + 4);
	KUNIT_EXPECT_FALSE(test, s->flags & (IRDMA_TCP_FIN | IRDMA_TCP_RST));
	KUNIT_EXPECT_EQ(test, get_unaligned_be16(f), 18 + 28);
	KUNIT_EXPECT_EQ(test, f[2], 0x41);	/* untagged, last, DDP v1 */
	KUNIT_EXPECT_EQ(test, f[3], 0x41);	/* RDMAP v1, Read Request */
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(f + 8), 1u);	/* queue */
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(f + 12), 1u);	/* MSN */
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(f + 16), 0u);	/* MO */
	KUNIT_EXPECT_EQ(test, memcmp(f + 20, zero, sizeof(zero)), 0);
	KUNIT_EXPECT_EQ(test, get_unaligned_le32(f + 48),
			irdma_cm_crc32c(f, 48));
}

/*
 * dev 0's segments from log index @mark on: two FPDUs at two sequence
 * numbers, each alone, before any FIN or RST
 */
static void irdma_t_expect_close_order(struct kunit *test, int mark)
{
	bool closed = false;
	u32 last = 0;
	int i, fpdus = 0;

	for (i = mark; i < irdma_tw->nlog; i++) {
		struct irdma_test_seg *s = &irdma_tw->log[i];

		if (s->from != 0)
			continue;
		if (s->datalen) {
			KUNIT_EXPECT_FALSE(test, closed);
			KUNIT_EXPECT_FALSE(test, s->flags &
					   (IRDMA_TCP_FIN | IRDMA_TCP_RST));
			KUNIT_EXPECT_EQ(test, s->datalen, 20u);
			/* retransmissions repeat the last one */
			if (!fpdus || s->seq != last)
				fpdus++;
			last = s->seq;
		}
		if (s->flags & (IRDMA_TCP_FIN | IRDMA_TCP_RST))
			closed = true;
	}
	KUNIT_EXPECT_EQ(test, fpdus, 2);
	KUNIT_EXPECT_TRUE(test, closed);
}

/* an ACK from dev 1's side of the connection to dev 0's node on T_PORT_A */
static void irdma_t_ack_dev0(struct kunit *test, u8 flags)
{
	struct irdma_cm_core *core = irdma_t_core(0);
	u32 saddr[4] = { T_ADDR1 }, daddr[4] = { T_ADDR0 };
	u8 seg[IRDMA_CM_TCP_HDR_SIZE] = {};
	u8 mac[ETH_ALEN] = { 0x02, 0, 0, 0, 0, 0x11 };
	struct irdma_cm_node *cm;

	mutex_lock(&core->mutex);
	cm = irdma_t_find(0, T_PORT_A);
	KUNIT_ASSERT_NOT_NULL(test, cm);
	put_unaligned_be16(T_PORT_L, seg + T_TCP(sport));
	put_unaligned_be16(T_PORT_A, seg + T_TCP(dport));
	put_unaligned_be32(cm->rcv_nxt, seg + T_TCP(seq));
	put_unaligned_be32(cm->snd_nxt, seg + T_TCP(ack));
	mutex_unlock(&core->mutex);
	seg[T_TCP(doff)] = (IRDMA_CM_TCP_HDR_SIZE / 4) << 4;
	seg[T_TCP(flags)] = flags;
	put_unaligned_be16(0xFFFF, seg + T_TCP(window));
	irdma_t_wire_put(1, true, saddr, daddr, 0, false, 0, mac, seg,
			 sizeof(seg));
	irdma_t_pump();
}

/*
 * The peer accepted (peer-to-peer mode, RTR Write) and waits for our RTR;
 * our offload fails: the ULP gets CONNECT_REPLY(error), the peer our RTR
 * (no RST, no FIN with it), a second zero-length Write once the RTR is
 * acknowledged, and our FIN, alone, once that is.
 */
static void irdma_test_rtr_before_close_on_offload_failure(struct kunit *test)
{
	struct irdma_test_cmid *l = irdma_t_listen(test, true, NULL, 4);
	struct irdma_test_cmid *a = irdma_t_cmid(test, 0);
	struct irdma_test_cmid *n = irdma_t_cmid(test, 1);
	int i, mark;

	irdma_tw->dev[0].fail_offload = true;
	/* acknowledgments, not timers, drive the steps here */
	irdma_t_core(0)->tun.rexmit_timeout = msecs_to_jiffies(10000);
	irdma_t_core(0)->tun.rexmit_max_timeout = msecs_to_jiffies(10000);
	KUNIT_ASSERT_EQ(test, irdma_t_connect(test, a, NULL, 0), 0);
	irdma_t_pump();
	KUNIT_ASSERT_EQ(test, l->nev, 1);
	mark = irdma_tw->nlog;
	/* a reply that offers only a Write RTR, as soft-iWARP's does */
	KUNIT_ASSERT_EQ(test, irdma_t_accept(l, n, 10, NULL, 0, 0, 0), 0);
	irdma_t_pump();
	KUNIT_ASSERT_EQ(test, a->nev, 1);
	KUNIT_EXPECT_EQ(test, a->ev[0].type, IW_CM_EVENT_CONNECT_REPLY);
	KUNIT_EXPECT_EQ(test, a->ev[0].status, -EIO);
	KUNIT_EXPECT_EQ(test, a->refs, 0);
	KUNIT_EXPECT_EQ(test, irdma_t_tqp(0, 0)->refs, 0);
	KUNIT_EXPECT_EQ(test, irdma_t_core(0)->stats.rtr_closes, 1ull);
	i = irdma_t_next_from(0, mark);
	KUNIT_ASSERT_GE(test, i, 0);
	irdma_t_expect_rtr_write(test, &irdma_tw->log[i]);
	/* nothing but the RTR again until it is acknowledged */
	mark = irdma_t_next_from(0, i + 1);
	KUNIT_EXPECT_TRUE(test, mark < 0 || irdma_tw->log[mark].datalen == 20);

	/* the RTR acknowledged: a second zero-length Write (new data) */
	mark = irdma_tw->nlog;
	irdma_t_ack_dev0(test, IRDMA_TCP_ACK);
	i = irdma_t_next_from(0, mark);
	KUNIT_ASSERT_GE(test, i, 0);
	irdma_t_expect_rtr_write(test, &irdma_tw->log[i]);
	/* that acknowledged too: the FIN, alone */
	mark = irdma_tw->nlog;
	irdma_t_ack_dev0(test, IRDMA_TCP_ACK);
	i = irdma_t_next_from(0, mark);
	KUNIT_ASSERT_GE(test, i, 0);
	KUNIT_EXPECT_EQ(test, irdma_tw->log[i].datalen, 0u);
	KUNIT_EXPECT_TRUE(test, irdma_tw->log[i].flags & IRDMA_TCP_FIN);
	KUNIT_EXPECT_FALSE(test, irdma_tw->log[i].flags & IRDMA_TCP_RST);
	/* the peer closes too: TIME_WAIT, then the node goes */
	irdma_t_ack_dev0(test, IRDMA_TCP_ACK | IRDMA_TCP_FIN);
	irdma_t_run(100);
	KUNIT_EXPECT_EQ(test, irdma_t_core(0)->node_cnt, 0u);
	KUNIT_EXPECT_EQ(test, a->nev, 1);
	KUNIT_EXPECT_EQ(test, irdma_t_core(0)->stats.events_dropped, 0ull);
}

/*
 * As above with the RTR Read negotiated (peer-to-peer mode, both ends'
 * IRD and ORD 8): the RTR the peer waits for is a zero-length Read
 * Request, and the nudge after it a zero-length Write.
 */
static void irdma_test_rtr_read_before_close_on_offload_failure(struct kunit *test)
{
	struct irdma_test_cmid *l = irdma_t_listen(test, true, NULL, 4);
	struct irdma_test_cmid *a = irdma_t_cmid(test, 0);
	struct irdma_test_cmid *n = irdma_t_cmid(test, 1);
	int i, mark;

	irdma_tw->dev[0].fail_offload = true;
	irdma_t_core(0)->tun.rexmit_timeout = msecs_to_jiffies(10000);
	irdma_t_core(0)->tun.rexmit_max_timeout = msecs_to_jiffies(10000);
	KUNIT_ASSERT_EQ(test, irdma_t_connect(test, a, NULL, 0), 0);
	irdma_t_pump();
	KUNIT_ASSERT_EQ(test, l->nev, 1);
	mark = irdma_tw->nlog;
	KUNIT_ASSERT_EQ(test, irdma_t_accept(l, n, 10, NULL, 0, 8, 8), 0);
	irdma_t_pump();
	KUNIT_ASSERT_EQ(test, a->nev, 1);
	KUNIT_EXPECT_EQ(test, a->ev[0].status, -EIO);
	KUNIT_EXPECT_EQ(test, irdma_t_core(0)->stats.rtr_closes, 1ull);
	i = irdma_t_next_from(0, mark);
	KUNIT_ASSERT_GE(test, i, 0);
	irdma_t_expect_rtr_read(test, &irdma_tw->log[i]);
	mark = irdma_tw->nlog;
	irdma_t_ack_dev0(test, IRDMA_TCP_ACK);
	i = irdma_t_next_from(0, mark);
	KUNIT_ASSERT_GE(test, i, 0);
	irdma_t_expect_rtr_write(test, &irdma_tw->log[i]);
	/* then the FIN, and the peer's: TIME_WAIT, and the node goes */
	irdma_t_ack_dev0(test, IRDMA_TCP_ACK);
	irdma_t_ack_dev0(test, IRDMA_TCP_ACK | IRDMA_TCP_FIN);
	irdma_t_run(100);
	KUNIT_EXPECT_EQ(test, irdma_t_core(0)->node_cnt, 0u);
	KUNIT_EXPECT_EQ(test, a->nev, 1);
}

/*
 * The QP loses the connection before its RTS AE (the model's TCP handoff
 * failing reports a reset): CONNECT_REPLY(-ECONNRESET) only, the QP reset
 * and flushed, and the RTR still reaches the peer before any close.
 */
static void irdma_test_rtr_before_close_on_reset_before_rts(struct kunit *test)
{
	struct irdma_test_cmid *l = irdma_t_listen(test, true, NULL, 4);
	struct irdma_test_cmid *a = irdma_t_cmid(test, 0);
	struct irdma_test_cmid *n = irdma_t_cmid(test, 1);
	int i, mark;

	irdma_tw->dev[0].rts_auto = false;
	KUNIT_ASSERT_EQ(test, irdma_t_connect(test, a, NULL, 0), 0);
	irdma_t_pump();
	KUNIT_ASSERT_EQ(test, irdma_t_accept(l, n, 10, NULL, 0, 0, 0), 0);
	irdma_t_pump();
	KUNIT_ASSERT_EQ(test, a->nev, 0);
	mark = irdma_tw->nlog;
	irdma_cm_disconn(&irdma_t_tqp(0, 0)->qp, IRDMA_AE_LLP_CONNECTION_RESET,
			 IRDMA_TCPS_CLOSED);
	irdma_t_flush();
	KUNIT_ASSERT_EQ(test, a->nev, 1);
	KUNIT_EXPECT_EQ(test, a->ev[0].type, IW_CM_EVENT_CONNECT_REPLY);
	KUNIT_EXPECT_EQ(test, a->ev[0].status, -ECONNRESET);
	KUNIT_EXPECT_EQ(test, irdma_t_tqp(0, 0)->resets, 1);
	KUNIT_EXPECT_EQ(test, irdma_t_tqp(0, 0)->flushes, 1);
	KUNIT_EXPECT_EQ(test, irdma_t_tqp(0, 0)->refs, 0);
	i = irdma_t_next_from(0, mark);
	KUNIT_ASSERT_GE(test, i, 0);
	irdma_t_expect_rtr_write(test, &irdma_tw->log[i]);
	/* the reset dropped the steering entry: the CM put it back */
	KUNIT_EXPECT_EQ(test, irdma_tw->dev[0].qhash_est, 1);
	KUNIT_EXPECT_EQ(test, irdma_t_core(0)->stats.rtr_closes, 1ull);
	/*
	 * nobody acknowledges (the steering went with the QP, on the
	 * model): after a while the second FPDU, then the FIN, both alone,
	 * then retransmissions and a RST; the node goes
	 */
	irdma_t_run(600);
	KUNIT_EXPECT_EQ(test, irdma_t_core(0)->node_cnt, 0u);
	KUNIT_EXPECT_EQ(test, a->nev, 1);
	irdma_t_expect_close_order(test, mark);
}

/* ---- random frame sequences ---------------------------------------------- */

#define T_RND_PORTS	4
#define T_RND_STEPS	1000

struct irdma_t_rnd {
	struct kunit *test;
	struct rnd_state st;
	struct irdma_test_cmid *l;
	int handled;		/* l->ev[] entries acted on */
	struct irdma_t_raw r[T_RND_PORTS];
};

static u32 irdma_t_rnd(struct irdma_t_rnd *x, u32 n)
{
	return prandom_u32_state(&x->st) % n;
}

/* a sequence number near @base, or anywhere */
static u32 irdma_t_rnd_near(struct irdma_t_rnd *x, u32 base)
{
	switch (irdma_t_rnd(x, 8)) {
	case 0:
		return prandom_u32_state(&x->st);
	case 1:
		return base - 1 - irdma_t_rnd(x, 4);
	case 2:
		return base + 1 + irdma_t_rnd(x, 2000);
	default:
		return base;
	}
}

/*
 * frame @i of the wire log in @s; which of the raw peer's ports it went
 * to, or -1 (not one of them)
 */
static int irdma_t_rnd_port(struct irdma_t_rnd *x, int i,
			    const struct irdma_test_seg **s)
{
	u16 dport;
	int k;

	*s = &irdma_tw->log[i];
	dport = get_unaligned_be16((*s)->seg + T_TCP(dport));
	if ((*s)->to != 2)
		return -1;
	for (k = 0; k < T_RND_PORTS; k++)
		if (x->r[k].port == dport)
			return k;
	return -1;
}

/* the raw peer learns our initial sequence from the SYN-ACKs just sent */
static void irdma_t_rnd_learn(struct irdma_t_rnd *x)
{
	const struct irdma_test_seg *s;
	int i, k;

	for (i = 0; i < irdma_tw->nlog; i++) {
		k = irdma_t_rnd_port(x, i, &s);
		if (k < 0)
			continue;
		if (s->flags == (IRDMA_TCP_SYN | IRDMA_TCP_ACK))
			x->r[k].ack = s->seq + 1;
		else if (s->flags & IRDMA_TCP_RST)
			x->r[k].ack = 0;	/* start over */
	}
}

/* the raw peer sends one frame, more or less well formed */
static void irdma_t_rnd_frame(struct irdma_t_rnd *x)
{
	static const u8 opts[] = { 2, 4, 0x05, 0xb4, 3, 3, 2, 0 };
	struct irdma_t_raw *r = &x->r[irdma_t_rnd(x, T_RND_PORTS)];
	struct irdma_t_raw off = *r;
	u8 f[IRDMA_MPA_MAX_FRAME];
	u32 len;

	u32 c = irdma_t_rnd(x, 14);

	off.seq = irdma_t_rnd_near(x, r->seq);
	off.ack = irdma_t_rnd_near(x, r->ack);
	if (!r->ack && c > 3 && irdma_t_rnd(x, 4))
		c = 0;		/* no connection yet: mostly open one */
	switch (c) {
	case 0:
	case 1:		/* a SYN: new or the same initial sequence */
		if (!r->ack || irdma_t_rnd(x, 4) == 0)
			r->seq = prandom_u32_state(&x->st);
		off.seq = r->seq;
		irdma_t_raw_send(&off, IRDMA_TCP_SYN, opts, sizeof(opts), NULL, 0);
		r->seq = off.seq;
		return;
	case 2:
	case 3:		/* the ACK completing the handshake */
		irdma_t_raw_send(r, IRDMA_TCP_ACK, NULL, 0, NULL, 0);
		return;
	case 4:
	case 5:
	case 6:		/* an MPA request, whole, cut short or damaged */
		len = irdma_t_mpa(f, true, 2, 0x50, true, 0x8008, 0xC008,
				  "abcd", 4);
		if (irdma_t_rnd(x, 5) == 0)
			f[irdma_t_rnd(x, len)] ^= 1 << irdma_t_rnd(x, 8);
		if (irdma_t_rnd(x, 5) == 0)
			len = 1 + irdma_t_rnd(x, len);
		irdma_t_raw_send(r, IRDMA_TCP_ACK | IRDMA_TCP_PSH, NULL, 0, f,
				 len);
		return;
	case 7:		/* bytes after the request (an RTR, or junk) */
		prandom_bytes_state(&x->st, f, 32);
		irdma_t_raw_send(r, IRDMA_TCP_ACK, NULL, 0, f,
				 1 + irdma_t_rnd(x, 32));
		return;
	case 8:		/* a RST, exact or not */
		irdma_t_raw_send(&off, IRDMA_TCP_RST | (irdma_t_rnd(x, 2) ?
				 IRDMA_TCP_ACK : 0), NULL, 0, NULL, 0);
		return;
	case 9:
		irdma_t_raw_send(r, IRDMA_TCP_FIN | IRDMA_TCP_ACK, NULL, 0,
				 NULL, 0);
		return;
	case 10:	/* an ACK anywhere */
		irdma_t_raw_send(&off, IRDMA_TCP_ACK, NULL, 0, NULL, 0);
		return;
	case 11:	/* a SYN-ACK (we never sent a SYN from here) */
		irdma_t_raw_send(&off, IRDMA_TCP_SYN | IRDMA_TCP_ACK, opts,
				 sizeof(opts), NULL, 0);
		return;
	default:	/* any flags at all */
		irdma_t_raw_send(&off, irdma_t_rnd(x, 64), NULL, 0, NULL, 0);
		return;
	}
}

/* the ULP answers one pending CONNECT_REQUEST: accept or reject */
static void irdma_t_rnd_ulp(struct irdma_t_rnd *x)
{
	struct irdma_test_cmid *l = x->l;
	struct iw_cm_conn_param p = { .ird = 8, .ord = 8 };
	struct irdma_test_cmid *n;
	int q;

	for (; x->handled < l->nev; x->handled++)
		if (l->ev[x->handled].type == IW_CM_EVENT_CONNECT_REQUEST)
			break;
	if (x->handled >= l->nev) {
		l->nev = 0;	/* all seen: room for more */
		x->handled = 0;
		return;
	}
	n = irdma_t_cmid(x->test, 1);
	n->id.provider_data = l->ev[x->handled++].provider_data;
	for (q = 0; q < T_MAX_QP; q++)
		if (!irdma_t_tqp(1, q)->refs)
			break;
	if (q == T_MAX_QP || irdma_t_rnd(x, 2)) {
		irdma_reject(&n->id, NULL, 0);
	} else {
		p.qpn = 10 + q;
		irdma_accept(&n->id, &p);
	}
	irdma_t_pump();
}

/* the frames dev 1 sent to the raw peer in this step */
static void irdma_t_rnd_dump(struct irdma_t_rnd *x)
{
	const struct irdma_test_seg *s;
	int i;

	for (i = 0; i < irdma_tw->nlog; i++)
		if (irdma_t_rnd_port(x, i, &s) >= 0)
			kunit_info(x->test, "sent: port %u flags 0x%x seq %u ack %u len %u",
				   get_unaligned_be16(s->seg + T_TCP(dport)),
				   s->flags, s->seq, s->ack, s->datalen);
}

/*
 * A node that sent its own RST (RST and ACK, at its snd_nxt; a stateless
 * reset carries either no ACK or sequence 0) is finished: nothing of its
 * sequence space follows the RST in the same step (anything it could
 * still send lies below the RST's sequence number), and it is no longer
 * in the table.  Timers run between the peer's frames, so other frames
 * to the port (a stateless reset, a new node's SYN-ACK) may follow.
 * Context: dev 1's mutex held.
 */
static bool irdma_t_rnd_check_rst(struct irdma_t_rnd *x)
{
	u32 rst_seq[T_RND_PORTS] = {};
	const struct irdma_test_seg *s;
	struct irdma_cm_node *n;
	int i, k;

	for (i = 0; i < irdma_tw->nlog; i++) {
		k = irdma_t_rnd_port(x, i, &s);
		if (k < 0)
			continue;
		if (rst_seq[k] && rst_seq[k] - s->seq <= 4096 &&
		    !(s->flags & IRDMA_TCP_RST)) {
			KUNIT_FAIL(x->test, "port %u: flags 0x%x seq %u after its RST at %u",
				   x->r[k].port, s->flags, s->seq, rst_seq[k]);
			irdma_t_rnd_dump(x);
			return false;
		}
		if (s->flags == (IRDMA_TCP_RST | IRDMA_TCP_ACK) && s->seq)
			rst_seq[k] = s->seq;
	}
	for (k = 0; k < T_RND_PORTS; k++) {
		if (!rst_seq[k])
			continue;
		n = irdma_t_find_rem(1, x->r[k].port);
		if (n && n->snd_nxt == rst_seq[k]) {
			KUNIT_FAIL(x->test, "port %u: node in state %d after its RST",
				   x->r[k].port, n->state);
			irdma_t_rnd_dump(x);
			return false;
		}
	}
	return true;
}

/*
 * the raw peer on @r's port goes away where it holds a slot of the
 * listener's backlog (a node past the handshake whose request the ULP has
 * not seen): an exact RST ends it
 */
static void irdma_t_rnd_reset_port(struct irdma_t_rnd *x, struct irdma_t_raw *r)
{
	struct irdma_cm_core *core = irdma_t_core(1);
	struct irdma_cm_node *n;
	struct irdma_t_raw off = *r;
	int tries;

	for (tries = 0; tries < 4; tries++) {
		mutex_lock(&core->mutex);
		n = irdma_t_find_rem(1, r->port);
		if (n && !n->counted)
			n = NULL;
		if (n)
			off.seq = n->rcv_nxt;
		mutex_unlock(&core->mutex);
		if (!n)
			return;
		irdma_t_raw_send(&off, IRDMA_TCP_RST, NULL, 0, NULL, 0);
	}
	KUNIT_FAIL(x->test, "port %u: backlog slot held after exact RSTs", r->port);
}

/*
 * After the storm, the listener still works: every request the ULP has
 * not answered is answered, the raw peer resets what is left on its
 * ports (an exact RST ends any state), and a well-formed client on a port of its own
 * completes the handshake, has its MPA request brought to the ULP and gets
 * the ULP's reject as an MPA reply.  Whatever timers did under load in
 * between, this one connection is the same on every run.
 */
static void irdma_t_rnd_clean_client(struct irdma_t_rnd *x)
{
	static const u8 opts[] = { 2, 4, 0x05, 0xb4, 3, 3, 2, 0 };
	struct irdma_t_raw r = { .addr = T_RAW_ADDR, .port = 40199,
				 .seq = 5000 };
	struct irdma_test_cmid *l = x->l, *n;
	struct irdma_test_seg *s;
	u64 rejects;
	u8 f[64];
	u32 len;
	int k;

	while (x->handled < l->nev || l->nev)
		irdma_t_rnd_ulp(x);
	for (k = 0; k < T_RND_PORTS; k++)
		irdma_t_rnd_reset_port(x, &x->r[k]);
	spin_lock(&irdma_tw->lock);
	irdma_tw->nlog = 0;
	spin_unlock(&irdma_tw->lock);
	irdma_t_raw_send(&r, IRDMA_TCP_SYN, opts, sizeof(opts), NULL, 0);
	s = irdma_t_raw_last_to(r.port);
	KUNIT_ASSERT_NOT_NULL(x->test, s);
	KUNIT_ASSERT_EQ(x->test, s->flags, IRDMA_TCP_SYN | IRDMA_TCP_ACK);
	r.ack = s->seq + 1;
	irdma_t_raw_send(&r, IRDMA_TCP_ACK, NULL, 0, NULL, 0);
	len = irdma_t_mpa(f, true, 2, 0x50, true, 0x8008, 0xC008, "abcd", 4);
	irdma_t_raw_send(&r, IRDMA_TCP_ACK | IRDMA_TCP_PSH, NULL, 0, f, len);
	KUNIT_ASSERT_EQ(x->test, l->nev, 1);
	KUNIT_ASSERT_EQ(x->test, l->ev[0].type, IW_CM_EVENT_CONNECT_REQUEST);
	rejects = irdma_t_core(1)->stats.rejects;
	n = irdma_t_cmid(x->test, 1);
	n->id.provider_data = l->ev[0].provider_data;
	irdma_reject(&n->id, NULL, 0);
	irdma_t_pump();
	KUNIT_EXPECT_EQ(x->test, irdma_t_core(1)->stats.rejects, rejects + 1);
	s = irdma_t_raw_last_to(r.port);
	KUNIT_ASSERT_NOT_NULL(x->test, s);
	KUNIT_EXPECT_GE(x->test, s->datalen, (u32)IRDMA_MPA_V2_HDR_SIZE);
}

/* what must hold after every step */
static bool irdma_t_rnd_check(struct irdma_t_rnd *x)
{
	struct irdma_cm_core *core = irdma_t_core(1);
	struct irdma_cm_listener *li;
	struct irdma_cm_node *n;
	unsigned int cnt = 0, half;
	bool ok;
	int bkt;

	mutex_lock(&core->mutex);
	ok = irdma_t_rnd_check_rst(x);
	hash_for_each(core->nodes, bkt, n, hnode) {
		cnt++;
		if (refcount_read(&n->refcnt) < 1 ||
		    n->state == IRDMA_CM_STATE_CLOSED) {
			KUNIT_FAIL(x->test, "node %u->%u state %d refs %u",
				   n->loc_port, n->rem_port, n->state,
				   refcount_read(&n->refcnt));
			ok = false;
		}
	}
	if (cnt > core->node_cnt) {
		KUNIT_FAIL(x->test, "%u nodes in the table, %u counted", cnt,
			   core->node_cnt);
		ok = false;
	}
	list_for_each_entry(li, &core->listeners, list) {
		half = list_count_nodes(&li->half_open_list);
		if (half != li->half_open || half > core->tun.max_half_open ||
		    li->pending > li->backlog || li->pending < 0) {
			KUNIT_FAIL(x->test, "listener: half-open %u (list %u) pending %d",
				   li->half_open, half, li->pending);
			ok = false;
		}
	}
	mutex_unlock(&core->mutex);
	return ok;
}

static const u64 irdma_t_rnd_seeds[] = { 1, 2, 3, 4, 5, 6 };

static void irdma_t_rnd_seed_desc(const u64 *seed, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "seed_%llu", *seed);
}

KUNIT_ARRAY_PARAM(irdma_t_rnd_seed, irdma_t_rnd_seeds, irdma_t_rnd_seed_desc);

/*
 * A stateful fuzzer in KUnit: seeded random sequences of frames from a
 * raw peer (on four ports: handshakes, MPA requests whole, short or
 * damaged, RSTs and ACKs in and out of the window, junk flags) with the
 * ULP accepting or rejecting what comes up and the timers running now and
 * then, against a listener with a tiny backlog and half-open bound.
 * After every step: no closed node in the table, every node referenced,
 * the listener's counts true, nothing sent after a RST and no node left
 * behind one (irdma_t_rnd_check_rst()).  At the end: the CM made progress
 * (nodes, segments sent, requests the ULP answered), or the checks would
 * hold for one that drops everything.  The suite's exit checks the rest:
 * no node, AH, steering entry or QP reference left once the instance is
 * gone; and KASAN and lockdep watch throughout.
 */
static void irdma_test_random_frames(struct kunit *test)
{
	struct irdma_t_rnd *x = kunit_kzalloc(test, sizeof(*x), GFP_KERNEL);
	u64 seed = *(const u64 *)test->param_value;
	struct irdma_cm_stats *st;
	int i, k;

	KUNIT_ASSERT_NOT_NULL(test, x);
	prandom_seed_state(&x->st, seed);
	x->test = test;
	x->l = irdma_t_listen(test, true, NULL, 2);
	irdma_t_core(1)->tun.max_half_open = 3;
	for (k = 0; k < T_RND_PORTS; k++) {
		x->r[k].addr = T_RAW_ADDR;
		x->r[k].port = 40100 + k;
		x->r[k].seq = prandom_u32_state(&x->st);
	}
	st = &irdma_t_core(1)->stats;
	for (i = 0; i < T_RND_STEPS; i++) {
		spin_lock(&irdma_tw->lock);
		irdma_tw->nlog = 0;
		spin_unlock(&irdma_tw->lock);
		switch (irdma_t_rnd(x, 12)) {
		case 0:
			irdma_t_rnd_ulp(x);
			break;
		case 1:
			irdma_t_run(irdma_t_rnd(x, 30));
			break;
		default:
			irdma_t_rnd_frame(x);
			break;
		}
		irdma_t_rnd_learn(x);
		if (!irdma_t_rnd_check(x)) {
			kunit_info(test, "failed at step %d (seed %llu)", i, seed);
			return;
		}
	}
	kunit_info(test, "%llu nodes, %llu accepted, %llu rejected, %llu evicted, %llu resets, %llu challenge ACKs, %llu sent",
		   st->nodes_created, st->accepts, st->rejects,
		   st->half_open_evictions, st->resets_sent,
		   st->challenge_acks, st->tx_segs);
	/*
	 * the checks above hold for a CM that drops every frame, too: this
	 * one must have made nodes and answered with segments (runs of these
	 * seeds have made 13 to 50 nodes and sent 56 to 147 segments), and
	 * must still bring a clean client's request to the ULP
	 */
	KUNIT_EXPECT_GE(test, st->nodes_created, 5ull);
	KUNIT_EXPECT_GE(test, st->tx_segs, 20ull);
	irdma_t_rnd_clean_client(x);
}

static struct kunit_case irdma_cm_conn_cases[] = {
	KUNIT_CASE(irdma_test_connect_accept_ipv4),
	KUNIT_CASE(irdma_test_ecn_asked_granted),
	KUNIT_CASE(irdma_test_ecn_asked_refused),
	KUNIT_CASE(irdma_test_ecn_not_asked),
	KUNIT_CASE(irdma_test_connect_accept_ipv6),
	KUNIT_CASE(irdma_test_syn_options_on_wire),
	KUNIT_CASE(irdma_test_pdata_length_checks),
	KUNIT_CASE(irdma_test_reject_rflag_then_fin),
	KUNIT_CASE(irdma_test_lost_syn),
	KUNIT_CASE(irdma_test_lost_synack),
	KUNIT_CASE(irdma_test_lost_mpa_request),
	KUNIT_CASE(irdma_test_duplicated_segments),
	KUNIT_CASE(irdma_test_reordered_segments),
	KUNIT_CASE(irdma_test_held_request_duplicated),
	KUNIT_CASE(irdma_test_corrupted_mpa_key),
	KUNIT_CASE(irdma_test_corrupted_header_dropped),
	KUNIT_CASE(irdma_test_connect_timeout),
	KUNIT_CASE(irdma_test_backoff_doubles_and_caps),
	KUNIT_CASE(irdma_test_no_listener_refused),
	KUNIT_CASE(irdma_test_rst_validation),
	KUNIT_CASE(irdma_test_rst_syn_sent_needs_ack),
	KUNIT_CASE(irdma_test_bad_acks_get_resets),
	KUNIT_CASE(irdma_test_out_of_window_data_dropped),
	KUNIT_CASE(irdma_test_mpa_request_reassembled),
	KUNIT_CASE(irdma_test_mpa_v1_peer),
	KUNIT_CASE(irdma_test_v2_client_server_accepted),
	KUNIT_CASE(irdma_test_markers_request_refused),
	KUNIT_CASE(irdma_test_markers_reply_refused),
	KUNIT_CASE(irdma_test_reply_negotiation_terminate),
	KUNIT_CASE(irdma_test_bad_pdlen_resets),
	KUNIT_CASE(irdma_test_accept_negotiation_refused),
	KUNIT_CASE(irdma_test_accept_refused_frees_backlog),
	KUNIT_CASE(irdma_test_v2_reset_falls_back_to_v1),
	KUNIT_CASE(irdma_test_fin_before_mpa_request),
	KUNIT_CASE(irdma_test_data_before_reply_resets),
	KUNIT_CASE(irdma_test_accept_after_peer_reset),
	KUNIT_CASE(irdma_test_duplicate_syn_resends_synack),
	KUNIT_CASE(irdma_test_syn_rcvd_bad_ack),
	KUNIT_CASE(irdma_test_syn_rcvd_new_syn),
	KUNIT_CASE(irdma_test_synack_alloc_fail),
	KUNIT_CASE(irdma_test_v1_fallback_alloc_fail),
	KUNIT_CASE(irdma_test_mpa_request_timeout),
	KUNIT_CASE(irdma_test_mpa_reply_timeout),
	KUNIT_CASE(irdma_test_loopback_mpa_reply_timeout),
	KUNIT_CASE(irdma_test_ipv6_address_follow),
	KUNIT_CASE(irdma_test_ipv6_only_listener),
	KUNIT_CASE(irdma_test_time_wait_syn_reopens),
	KUNIT_CASE(irdma_test_listen_backlog),
	KUNIT_CASE(irdma_test_synack_retries_limited),
	KUNIT_CASE(irdma_test_orphan_fin_retries_limited),
	KUNIT_CASE(irdma_test_syn_flood_half_open_bounded),
	KUNIT_CASE(irdma_test_backlog_full_holds_handshake),
	KUNIT_CASE(irdma_test_node_limit),
	KUNIT_CASE(irdma_test_listen_qhash_apbvt),
	KUNIT_CASE(irdma_test_specific_listener_vlan),
	KUNIT_CASE(irdma_test_priority_tag_is_untagged),
	KUNIT_CASE(irdma_test_wildcard_children),
	KUNIT_CASE(irdma_test_ipv6_wildcard_takes_ipv4),
	KUNIT_CASE(irdma_test_wildcard_follows_addresses),
	KUNIT_CASE(irdma_test_netdev_down_tears_down),
	KUNIT_CASE(irdma_test_destroy_listener_resets_pending),
	KUNIT_CASE(irdma_test_connreq_event_error_releases),
	KUNIT_CASE(irdma_test_connreq_dropped_released_by_destroy),
	KUNIT_CASE(irdma_test_connreq_stale_handle),
	KUNIT_CASE(irdma_test_loopback_listener_destroyed),
	KUNIT_CASE(irdma_test_loopback_connect_accept),
	KUNIT_CASE(irdma_test_loopback_ipv6),
	KUNIT_CASE(irdma_test_listener_gone_port_kept),
	KUNIT_CASE(irdma_test_loopback_offload_failure),
	KUNIT_CASE(irdma_test_loopback_reject),
	KUNIT_CASE(irdma_test_loopback_no_listener),
	KUNIT_CASE(irdma_test_vlan_priority_in_offload),
	KUNIT_CASE(irdma_test_iwpm_mapped_addresses),
	KUNIT_CASE(irdma_test_ah_kept_while_offloaded),
	KUNIT_CASE(irdma_test_stray_segment_no_arp_update),
	KUNIT_CASE(irdma_test_rx_queue_bounded),
	KUNIT_CASE(irdma_test_spoofed_syn_mac_ignored),
	KUNIT_CASE(irdma_test_syn_unresolved_dropped),
	KUNIT_CASE(irdma_test_unsolicited_replies_ratelimited),
	KUNIT_CASE(irdma_test_challenge_ack_gap),
	KUNIT_CASE(irdma_test_challenge_budget_random),
	KUNIT_CASE(irdma_test_disconnect_graceful),
	KUNIT_CASE(irdma_test_disconnect_reset_ae),
	KUNIT_CASE(irdma_test_close_timer_forces_close),
	KUNIT_CASE(irdma_test_close_waits_for_late_fin),
	KUNIT_CASE(irdma_test_terminate_ae_closes),
	KUNIT_CASE(irdma_test_error_ae_terminates),
	KUNIT_CASE(irdma_test_terminate_wait_expires),
	KUNIT_CASE(irdma_test_rts_timeout),
	KUNIT_CASE(irdma_test_no_rts_timeout_without_rtr),
	KUNIT_CASE(irdma_test_offload_failure),
	KUNIT_CASE(irdma_test_connect_bad_qp),
	KUNIT_CASE(irdma_test_kernel_net_ops),
	KUNIT_CASE(irdma_test_unload_with_live_nodes),
	KUNIT_CASE(irdma_test_qp_destroy_releases_node),
	KUNIT_CASE(irdma_test_time_wait_released),
	KUNIT_CASE(irdma_test_order_no_close_before_established),
	KUNIT_CASE(irdma_test_order_no_close_before_connect_reply),
	KUNIT_CASE(irdma_test_order_no_second_close),
	KUNIT_CASE(irdma_test_order_no_reply_after_reject),
	KUNIT_CASE(irdma_test_order_no_disconnect_after_close),
	KUNIT_CASE(irdma_test_order_nothing_after_close),
	KUNIT_CASE(irdma_test_rtr_before_close_on_offload_failure),
	KUNIT_CASE(irdma_test_rtr_read_before_close_on_offload_failure),
	KUNIT_CASE(irdma_test_rtr_before_close_on_reset_before_rts),
	KUNIT_CASE_PARAM(irdma_test_random_frames, irdma_t_rnd_seed_gen_params),
	{}
};

static struct kunit_suite irdma_cm_conn_suite = {
	.name = "irdma_cm_conn",
	.init = irdma_cm_test_init,
	.exit = irdma_cm_test_exit,
	.test_cases = irdma_cm_conn_cases,
};

kunit_test_suites(&irdma_cm_wire_suite, &irdma_cm_conn_suite);

MODULE_LICENSE("Dual BSD/GPL");
MODULE_DESCRIPTION("KUnit tests for the irdma iWARP connection manager");
