// SPDX-License-Identifier: GPL-2.0
/*
 * Print this host's TSC rate in kHz, measured against CLOCK_MONOTONIC_RAW.
 *
 * Under TCG a guest's RDTSC reads the host's TSC, but the guest kernel
 * calibrates its rate at boot against emulated timers; on a loaded host
 * that calibration can miss by a wide margin, and every timer in the guest
 * (TCP's retransmission, the CM's, a ULP's) then runs fast or slow.
 * tools/vm/run.sh passes the measured rate as tsc_early_khz=.
 */
#include <stdint.h>
#include <stdio.h>
#include <time.h>
#include <x86intrin.h>

/* one (TSC, ns) pair read close together; 0 when preempted between */
static int sample(uint64_t *tsc, uint64_t *ns)
{
	struct timespec ts;
	uint64_t t0, t1;

	t0 = __rdtsc();
	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	t1 = __rdtsc();
	if (t1 - t0 > 100000)
		return 0;
	*tsc = t0 + (t1 - t0) / 2;
	*ns = (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
	return 1;
}

int main(void)
{
	const struct timespec gap = { .tv_nsec = 200 * 1000 * 1000 };
	uint64_t tsc0, ns0, tsc1, ns1;
	int tries;

	for (tries = 0; tries < 20; tries++) {
		if (!sample(&tsc0, &ns0))
			continue;
		nanosleep(&gap, NULL);
		if (!sample(&tsc1, &ns1) || ns1 <= ns0)
			continue;
		printf("%llu\n", (unsigned long long)
		       ((tsc1 - tsc0) * 1000000ULL / (ns1 - ns0)));
		return 0;
	}
	fprintf(stderr, "tsc-khz: no clean sample\n");
	return 1;
}
