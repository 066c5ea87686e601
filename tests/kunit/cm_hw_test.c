// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * KUnit suite irdma_cm_hw: the hardware layer under the connection
 * manager (cm_hw.c) against a recording fake of the control QP.
 *
 * The real cm_hw.c is compiled here; the control-QP commands, the ILQ
 * and the QP calls it makes are replaced by the fakes below, which
 * record every command and can be told to fail.  What is checked: the
 * ARP cache (one entry per neighbour, reprogrammed in place when the
 * neighbour's MAC changes, pinned while an AH uses it, idle entries
 * reused when the table is full), address handles (an ARP index that is
 * not a programmed entry refused before any command, a failed command
 * leaving nothing behind), the APBVT's counting, and the address layout
 * of the descriptors (IPv4 in word 3).
 */
#include <kunit/test.h>
#include <linux/device.h>

#include "../../cm_hw.c"

#define T_HW_MAX_ARP	3

struct irdma_hw_fake {
	struct irdma_pci_f rf;
	struct irdma_device iwdev;
	struct irdma_cm_core core;
	struct device *dev;
	/* recorded commands */
	int arp_cmds;
	u32 arp_last_idx;
	u8 arp_last_mac[ETH_ALEN];
	int ah_creates;
	int ah_destroys;
	struct irdma_ah_params ah_last;
	int apbvt_cmds;
	bool apbvt_last_add;
	int qhash_cmds;
	struct irdma_qhash_params qhash_last;
	/* the next command of that kind fails with this (0: succeeds) */
	int arp_fail;
	int ah_fail;
};

static struct irdma_hw_fake *irdma_hw_fake;

/* ---- the fakes of the control QP, the ILQ and the QPs ------------------- */

/* the error a test armed for the next command of a kind (once), or 0 */
static int irdma_hw_fake_take(int *fail)
{
	int ret = *fail;

	*fail = 0;
	return ret;
}

int irdma_cqp_manage_arp(struct irdma_pci_f *rf, u32 idx, const u8 *mac,
			 bool add)
{
	struct irdma_hw_fake *f = irdma_hw_fake;
	int ret = irdma_hw_fake_take(&f->arp_fail);

	if (ret)
		return ret;
	f->arp_cmds++;
	f->arp_last_idx = idx;
	if (mac)
		ether_addr_copy(f->arp_last_mac, mac);
	return 0;
}

int irdma_cqp_ah(struct irdma_pci_f *rf, const struct irdma_ah_params *p,
		 bool add)
{
	struct irdma_hw_fake *f = irdma_hw_fake;
	int ret = irdma_hw_fake_take(&f->ah_fail);

	if (ret)
		return ret;
	if (add) {
		f->ah_creates++;
		f->ah_last = *p;
	} else {
		f->ah_destroys++;
	}
	return 0;
}

int irdma_cqp_manage_apbvt(struct irdma_pci_f *rf, u16 port, bool add)
{
	irdma_hw_fake->apbvt_cmds++;
	irdma_hw_fake->apbvt_last_add = add;
	return 0;
}

int irdma_cqp_manage_qhash(struct irdma_pci_f *rf,
			   const struct irdma_qhash_params *p)
{
	irdma_hw_fake->qhash_cmds++;
	irdma_hw_fake->qhash_last = *p;
	return 0;
}

int irdma_ilq_send(struct irdma_pci_f *rf, u32 ah_id, const void *seg,
		   u32 len, u32 tcp_hdr_len)
{
	return 0;
}

int irdma_pble_init(struct irdma_pci_f *rf)
{
	return 0;
}

void irdma_pble_fini(struct irdma_pci_f *rf)
{
}

struct irdma_qp *irdma_qp_get(struct irdma_pci_f *rf, u32 qpn)
{
	return NULL;
}

void irdma_qp_ref(struct irdma_qp *iwqp)
{
}

void irdma_qp_put(struct irdma_qp *iwqp)
{
}

int irdma_qp_offload(struct irdma_qp *iwqp,
		     const struct irdma_cm_offload_info *info)
{
	return -EOPNOTSUPP;
}

int irdma_qp_close(struct irdma_qp *iwqp)
{
	return 0;
}

int irdma_qp_reset(struct irdma_qp *iwqp)
{
	return 0;
}

int irdma_qp_terminate(struct irdma_qp *iwqp)
{
	return -EALREADY;
}

void irdma_qp_flush(struct irdma_qp *iwqp)
{
}

/* ---- setup -------------------------------------------------------------- */

static int irdma_cm_hw_test_init(struct kunit *test)
{
	struct irdma_hw_fake *f;

	f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);
	if (!f)
		return -ENOMEM;
	f->dev = root_device_register("irdma_cm_hw_test");
	if (IS_ERR(f->dev))
		return PTR_ERR(f->dev);
	f->rf.dma_dev = f->dev;
	f->rf.max_ah = 16;
	f->rf.max_arp = T_HW_MAX_ARP;
	f->rf.arp = kunit_kcalloc(test, T_HW_MAX_ARP, sizeof(*f->rf.arp),
				  GFP_KERNEL);
	if (!f->rf.arp)
		return -ENOMEM;
	mutex_init(&f->rf.tbl_lock);
	INIT_LIST_HEAD(&f->rf.apbvt);
	ida_init(&f->rf.ah_ida);
	xa_init(&f->rf.ah_arp);
	f->iwdev.rf = &f->rf;
	f->core.iwdev = &f->iwdev;
	irdma_hw_fake = f;
	test->priv = f;
	return 0;
}

static void irdma_cm_hw_test_exit(struct kunit *test)
{
	struct irdma_hw_fake *f = test->priv;

	if (!f)
		return;
	KUNIT_EXPECT_TRUE(test, xa_empty(&f->rf.ah_arp));
	KUNIT_EXPECT_TRUE(test, list_empty(&f->rf.apbvt));
	xa_destroy(&f->rf.ah_arp);
	ida_destroy(&f->rf.ah_ida);
	root_device_unregister(f->dev);
	irdma_hw_fake = NULL;
}

static const u8 irdma_hw_mac_a[ETH_ALEN] = { 0x02, 0, 0, 0, 0, 0xa };
static const u8 irdma_hw_mac_b[ETH_ALEN] = { 0x02, 0, 0, 0, 0, 0xb };

/* an IPv4 neighbour 192.0.2.@host in the CM's layout (word 0) */
static const u32 *irdma_hw_ip4(u32 *ip, u8 host)
{
	memset(ip, 0, 4 * sizeof(u32));
	ip[0] = 0xc0000200 | host;
	return ip;
}

/* an AH towards the neighbour of ARP entry @arp_idx */
static int irdma_hw_t_ah(struct irdma_hw_fake *f, int arp_idx, u8 host,
			 u32 *ah_id)
{
	struct irdma_cm_ah_info info = {
		.ipv4 = true,
		.arp_idx = arp_idx,
		.hop_limit = 64,
	};

	irdma_hw_ip4(info.rem_addr, host);
	irdma_hw_ip4(info.loc_addr, 1);
	ether_addr_copy(info.loc_mac, irdma_hw_mac_b);
	return irdma_cm_hw_ops.ah_create(&f->core, &info, ah_id);
}

/* ---- the cases ---------------------------------------------------------- */

/*
 * One entry per neighbour: asking again costs no command; a new MAC for
 * the same neighbour (a neighbour update) reprograms that entry in place.
 */
static void irdma_test_hw_arp_entry_per_neighbour(struct kunit *test)
{
	struct irdma_hw_fake *f = test->priv;
	const struct irdma_cm_hw_ops *ops = &irdma_cm_hw_ops;
	u32 ip[4], ip2[4];
	int a, b;

	a = ops->arp_index(&f->core, true, irdma_hw_ip4(ip, 7), irdma_hw_mac_a);
	KUNIT_ASSERT_GE(test, a, 0);
	KUNIT_EXPECT_EQ(test, f->arp_cmds, 1);
	KUNIT_EXPECT_EQ(test, ops->arp_index(&f->core, true, ip,
					     irdma_hw_mac_a), a);
	KUNIT_EXPECT_EQ(test, f->arp_cmds, 1);
	/* the descriptor layout: IPv4 in word 3 */
	KUNIT_EXPECT_EQ(test, f->rf.arp[a].ip[3], ip[0]);
	KUNIT_EXPECT_EQ(test, f->rf.arp[a].ip[0], 0u);

	KUNIT_EXPECT_EQ(test, ops->arp_index(&f->core, true, ip,
					     irdma_hw_mac_b), a);
	KUNIT_EXPECT_EQ(test, f->arp_cmds, 2);
	KUNIT_EXPECT_EQ(test, f->arp_last_idx, (u32)a);
	KUNIT_EXPECT_TRUE(test, ether_addr_equal(f->arp_last_mac,
						 irdma_hw_mac_b));
	KUNIT_EXPECT_TRUE(test, ether_addr_equal(f->rf.arp[a].mac,
						 irdma_hw_mac_b));

	/* another neighbour gets another entry; IPv6 ::7 is not 192.0.2.7 */
	b = ops->arp_index(&f->core, true, irdma_hw_ip4(ip2, 8), irdma_hw_mac_a);
	KUNIT_EXPECT_GE(test, b, 0);
	KUNIT_EXPECT_NE(test, b, a);
	memset(ip2, 0, sizeof(ip2));
	ip2[3] = ip[0];
	KUNIT_EXPECT_NE(test, ops->arp_index(&f->core, false, ip2,
					     irdma_hw_mac_a), a);
}

/*
 * A full table: an entry an AH uses stays; an idle one is reused; with
 * every entry pinned a new neighbour gets -ENOSPC.  A failed command
 * leaves the table as it was.
 */
static void irdma_test_hw_arp_pinned_and_reused(struct kunit *test)
{
	struct irdma_hw_fake *f = test->priv;
	const struct irdma_cm_hw_ops *ops = &irdma_cm_hw_ops;
	u32 ip[4], ah[T_HW_MAX_ARP];
	int i, idx[T_HW_MAX_ARP], n;

	for (i = 0; i < T_HW_MAX_ARP; i++) {
		idx[i] = ops->arp_index(&f->core, true, irdma_hw_ip4(ip, 10 + i),
					irdma_hw_mac_a);
		KUNIT_ASSERT_GE(test, idx[i], 0);
		KUNIT_ASSERT_EQ(test, irdma_hw_t_ah(f, idx[i], 10 + i, &ah[i]), 0);
	}
	n = f->arp_cmds;
	KUNIT_EXPECT_EQ(test, ops->arp_index(&f->core, true,
					     irdma_hw_ip4(ip, 20),
					     irdma_hw_mac_a), -ENOSPC);
	KUNIT_EXPECT_EQ(test, f->arp_cmds, n);

	/* entry 1's AH goes: its entry is the one a new neighbour gets */
	ops->ah_destroy(&f->core, ah[1]);
	f->arp_fail = -EIO;
	KUNIT_EXPECT_EQ(test, ops->arp_index(&f->core, true, ip,
					     irdma_hw_mac_a), -EIO);
	KUNIT_EXPECT_FALSE(test, f->rf.arp[idx[1]].ip[3] == ip[0]);
	KUNIT_EXPECT_EQ(test, ops->arp_index(&f->core, true, ip,
					     irdma_hw_mac_a), idx[1]);
	KUNIT_EXPECT_EQ(test, f->rf.arp[idx[1]].ip[3], ip[0]);
	/* the pinned neighbours kept theirs */
	KUNIT_EXPECT_EQ(test, ops->arp_index(&f->core, true,
					     irdma_hw_ip4(ip, 10),
					     irdma_hw_mac_a), idx[0]);
	ops->ah_destroy(&f->core, ah[0]);
	ops->ah_destroy(&f->core, ah[2]);
	for (i = 0; i < T_HW_MAX_ARP; i++)
		KUNIT_EXPECT_EQ(test, f->rf.arp[i].refcnt, 0u);
}

/*
 * An AH must name a programmed ARP entry: the CM's "no entry" (-1, as a
 * loopback node once passed) and an index past the table are refused
 * before any command.  A failed CREATE_AH leaves no id and no ARP
 * reference behind; a failed destroy keeps both.
 */
static void irdma_test_hw_ah_arp_index_checked(struct kunit *test)
{
	struct irdma_hw_fake *f = test->priv;
	const struct irdma_cm_hw_ops *ops = &irdma_cm_hw_ops;
	u32 ip[4], ah;
	int idx;

	KUNIT_EXPECT_EQ(test, irdma_hw_t_ah(f, -1, 7, &ah), -EINVAL);
	KUNIT_EXPECT_EQ(test, irdma_hw_t_ah(f, T_HW_MAX_ARP, 7, &ah), -EINVAL);
	KUNIT_EXPECT_EQ(test, f->ah_creates, 0);

	idx = ops->arp_index(&f->core, true, irdma_hw_ip4(ip, 7),
			     irdma_hw_mac_a);
	KUNIT_ASSERT_GE(test, idx, 0);
	f->ah_fail = -EIO;
	KUNIT_EXPECT_EQ(test, irdma_hw_t_ah(f, idx, 7, &ah), -EIO);
	KUNIT_EXPECT_EQ(test, f->rf.arp[idx].refcnt, 0u);
	KUNIT_EXPECT_TRUE(test, xa_empty(&f->rf.ah_arp));

	KUNIT_ASSERT_EQ(test, irdma_hw_t_ah(f, idx, 7, &ah), 0);
	KUNIT_EXPECT_EQ(test, f->ah_last.ah_id, ah);
	KUNIT_EXPECT_EQ(test, f->ah_last.arp_idx, (u32)idx);
	KUNIT_EXPECT_EQ(test, f->ah_last.dest_ip[3], ip[0]);
	KUNIT_EXPECT_EQ(test, f->ah_last.dest_ip[0], 0u);
	KUNIT_EXPECT_EQ(test, f->ah_last.src_ip[3], 0xc0000201u);
	KUNIT_EXPECT_TRUE(test, ether_addr_equal(f->ah_last.mac,
						 irdma_hw_mac_b));
	KUNIT_EXPECT_EQ(test, f->rf.arp[idx].refcnt, 1u);

	f->ah_fail = -EBUSY;
	ops->ah_destroy(&f->core, ah);
	KUNIT_EXPECT_EQ(test, f->rf.arp[idx].refcnt, 1u);
	ops->ah_destroy(&f->core, ah);
	KUNIT_EXPECT_EQ(test, f->rf.arp[idx].refcnt, 0u);
	KUNIT_EXPECT_EQ(test, f->ah_destroys, 1);
}

/* the APBVT sees a port's first add and its last delete only */
static void irdma_test_hw_apbvt_counted(struct kunit *test)
{
	struct irdma_hw_fake *f = test->priv;
	const struct irdma_cm_hw_ops *ops = &irdma_cm_hw_ops;

	KUNIT_EXPECT_EQ(test, ops->apbvt(&f->core, 4791, true), 0);
	KUNIT_EXPECT_EQ(test, ops->apbvt(&f->core, 4791, true), 0);
	KUNIT_EXPECT_EQ(test, ops->apbvt(&f->core, 4792, true), 0);
	KUNIT_EXPECT_EQ(test, f->apbvt_cmds, 2);
	KUNIT_EXPECT_EQ(test, ops->apbvt(&f->core, 4791, false), 0);
	KUNIT_EXPECT_EQ(test, f->apbvt_cmds, 2);
	KUNIT_EXPECT_EQ(test, ops->apbvt(&f->core, 4791, false), 0);
	KUNIT_EXPECT_EQ(test, f->apbvt_cmds, 3);
	KUNIT_EXPECT_FALSE(test, f->apbvt_last_add);
	KUNIT_EXPECT_EQ(test, ops->apbvt(&f->core, 4792, false), 0);
	KUNIT_EXPECT_EQ(test, f->apbvt_cmds, 4);
}

/* a steering entry points at the ILQ, addresses in descriptor layout */
static void irdma_test_hw_qhash_layout(struct kunit *test)
{
	struct irdma_hw_fake *f = test->priv;
	struct irdma_cm_qhash_info info = {
		.type = IRDMA_QHASH_TYPE_TCP_ESTABLISHED,
		.ipv4 = true,
		.loc_port = 4791,
		.rem_port = 33000,
		.vlan_id = 5,
	};

	irdma_hw_ip4(info.loc_addr, 1);
	irdma_hw_ip4(info.rem_addr, 2);
	ether_addr_copy(info.loc_mac, irdma_hw_mac_a);
	KUNIT_EXPECT_EQ(test, irdma_cm_hw_ops.qhash(&f->core, &info, true), 0);
	KUNIT_EXPECT_EQ(test, f->qhash_cmds, 1);
	KUNIT_EXPECT_EQ(test, f->qhash_last.qpn, (u32)IRDMA_ILQ_ID);
	KUNIT_EXPECT_TRUE(test, f->qhash_last.add);
	KUNIT_EXPECT_EQ(test, f->qhash_last.loc_addr[3], 0xc0000201u);
	KUNIT_EXPECT_EQ(test, f->qhash_last.rem_addr[3], 0xc0000202u);
	KUNIT_EXPECT_EQ(test, f->qhash_last.loc_addr[0], 0u);
	KUNIT_EXPECT_EQ(test, f->qhash_last.loc_port, 4791);
	KUNIT_EXPECT_EQ(test, f->qhash_last.rem_port, 33000);
	KUNIT_EXPECT_EQ(test, f->qhash_last.vlan_id, 5);
	KUNIT_EXPECT_TRUE(test, ether_addr_equal(f->qhash_last.mac,
						 irdma_hw_mac_a));
}

static struct kunit_case irdma_cm_hw_cases[] = {
	KUNIT_CASE(irdma_test_hw_arp_entry_per_neighbour),
	KUNIT_CASE(irdma_test_hw_arp_pinned_and_reused),
	KUNIT_CASE(irdma_test_hw_ah_arp_index_checked),
	KUNIT_CASE(irdma_test_hw_apbvt_counted),
	KUNIT_CASE(irdma_test_hw_qhash_layout),
	{}
};

static struct kunit_suite irdma_cm_hw_suite = {
	.name = "irdma_cm_hw",
	.init = irdma_cm_hw_test_init,
	.exit = irdma_cm_hw_test_exit,
	.test_cases = irdma_cm_hw_cases,
};

kunit_test_suite(irdma_cm_hw_suite);
