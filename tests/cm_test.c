// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#include <kunit/test.h>
#include "../cm.c"

static void irdma_cm_test_placeholder(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, 1, 1);
}

static struct kunit_case irdma_cm_placeholder_cases[] = {
	KUNIT_CASE(irdma_cm_test_placeholder),
	{}
};

static struct kunit_suite irdma_cm_placeholder_suite = {
	.name = "irdma_cm_placeholder",
	.test_cases = irdma_cm_placeholder_cases,
};

kunit_test_suite(irdma_cm_placeholder_suite);
MODULE_LICENSE("Dual BSD/GPL");
