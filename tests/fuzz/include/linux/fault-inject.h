/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* user-space stand-in for the fuzzer: see ../irdma_fuzz_shim.h */
#include "../irdma_fuzz_shim.h"
