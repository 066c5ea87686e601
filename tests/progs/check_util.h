/* SPDX-License-Identifier: GPL-2.0 */
/*
 * check_util.h - the step reporting of the verbs test programs: CHECK()
 * prints "ok:   <what>" or "FAIL: <what>" on a line of its own and counts
 * the failures in check_failures; main() exits 1 when there was any.
 */
#ifndef CHECK_UTIL_H
#define CHECK_UTIL_H

#include <stdio.h>

static int check_failures;

#define CHECK(cond, ...) do {						\
	if (cond) {							\
		printf("ok:   " __VA_ARGS__);				\
	} else {							\
		printf("FAIL: " __VA_ARGS__);				\
		check_failures++;					\
	}								\
	putchar('\n');							\
} while (0)

#endif
