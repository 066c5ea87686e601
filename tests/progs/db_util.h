/* SPDX-License-Identifier: GPL-2.0 */
/*
 * db_util.h - the user doorbell page of an irdma_sim device, for the test
 * programs: open a device by name, and find where libirdma mapped its
 * doorbell page (the model's "[irdma_sim_db]" file in this process's
 * maps).  Include after <infiniband/verbs.h>, <stdio.h>, <stdint.h>,
 * <stdlib.h> and <string.h>.
 */
#ifndef IRDMA_TEST_DB_UTIL_H
#define IRDMA_TEST_DB_UTIL_H

/* open the device called @name; NULL when there is none */
static inline struct ibv_context *db_open(const char *name)
{
	struct ibv_device **list = ibv_get_device_list(NULL);
	struct ibv_context *ctx = NULL;
	int i;

	for (i = 0; list && list[i] && !ctx; i++)
		if (!strcmp(ibv_get_device_name(list[i]), name))
			ctx = ibv_open_device(list[i]);
	if (list)
		ibv_free_device_list(list);
	return ctx;
}

/* the doorbell page this process mapped last, or NULL */
static inline volatile uint32_t *db_find(void)
{
	unsigned long start = 0;
	char line[512];
	FILE *maps = fopen("/proc/self/maps", "r");

	while (maps && fgets(line, sizeof(line), maps))
		if (strstr(line, "[irdma_sim_db]"))
			start = strtoul(line, NULL, 16);
	if (maps)
		fclose(maps);
	return (volatile uint32_t *)start;
}

#endif /* IRDMA_TEST_DB_UTIL_H */
