// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * libFuzzer target over the connection manager's wire parsing: the GEN_2
 * ILQ segment parser, TCP options, window checks, stateless resets, MPA
 * frame parsing and the RFC 6581 IRD/ORD/RTR negotiation.  The real cm.c
 * is compiled (its wire section, IRDMA_CM_WIRE_ONLY) against the shims in
 * include/.
 *
 * Input: byte 0 selects what to run and with which flags; the rest is the
 * frame.  Invariants checked beyond the sanitizers: accepted frames fit
 * the input, private data is at most 512 bytes, a frame we build from an
 * accepted one parses again, a stateless reset is 0 or 20 bytes.
 */
#include <stdlib.h>
#include <stdio.h>

#include "../../cm.c"

static void irdma_fuzz_check(bool ok, const char *what)
{
	if (!ok) {
		fprintf(stderr, "invariant failed: %s\n", what);
		abort();
	}
}

static void irdma_fuzz_segment(const u8 *data, size_t size, u8 sel)
{
	struct irdma_cm_node node;
	struct irdma_cm_seg seg;
	u8 buf[IRDMA_CM_TCP_HDR_SIZE];
	u8 *copy;
	u32 n;

	/* an exact-size heap copy so ASan sees any overread */
	copy = malloc(size ? size : 1);
	memcpy(copy, data, size);
	if (irdma_cm_parse_segment(copy, size, sel & 1, &seg)) {
		free(copy);
		return;
	}
	irdma_fuzz_check(seg.data + seg.datalen <= copy + size, "payload in buffer");
	irdma_fuzz_check(seg.opts + seg.optlen <= seg.data, "options in header");
	memset(&node, 0, sizeof(node));
	node.ipv4 = seg.ipv4;
	node.rcv_nxt = seg.seq - (sel & 0x10 ? 1 : 0);
	node.rcv_wnd = IRDMA_CM_RCV_WND;
	node.snd_una = seg.ack - 5;
	node.snd_nxt = seg.ack + (sel & 0x20 ? 0 : 3);
	irdma_handle_tcp_options(&node, &seg);
	irdma_fuzz_check(node.snd_wscale <= IRDMA_CM_MAX_WSCALE, "wscale cap");
	irdma_check_seq(&node, &seg);
	n = irdma_form_uda_cm_frame(&seg, buf);
	irdma_fuzz_check(n == 0 || n == IRDMA_CM_TCP_HDR_SIZE, "reset size");
	free(copy);
}

static void irdma_fuzz_mpa(const u8 *data, size_t size, u8 sel)
{
	struct irdma_cm_node *node = calloc(1, sizeof(*node));
	struct irdma_cm_node *peer = calloc(1, sizeof(*peer));
	bool request = sel & 1;
	u8 *copy;
	int flen, ret;

	copy = malloc(size ? size : 1);
	memcpy(copy, data, size);
	node->mpa_rev = sel & 2 ? IRDMA_MPA_REV2 : IRDMA_MPA_REV1;
	node->mpa_enhanced = true;
	node->ird = (sel >> 2) & 7;
	node->ord = (sel >> 5) & 7;

	flen = irdma_mpa_frame_len(copy, size);
	ret = irdma_parse_mpa(node, copy, size, request);
	if (ret >= 0) {
		irdma_fuzz_check(flen > 0 && (size_t)flen <= size, "frame fits");
		irdma_fuzz_check(node->pdata_len <= IRDMA_MPA_MAX_PDATA, "pdata");
		if (node->mpa_enhanced && !irdma_negotiate_mpa_v2_ird_ord(node,
									 request))
			/* one RTR with flag A, none without (client-server) */
			irdma_fuzz_check((node->rtr != IRDMA_RTR_NONE) ==
					 node->p2p, "rtr iff flag A");
		/* answer it and parse the answer as the peer would */
		peer->mpa_rev = IRDMA_MPA_REV2;
		if (irdma_cm_build_mpa_frame(node, !request, false, node->pdata,
					     node->pdata_len)) {
			ret = irdma_parse_mpa(peer, node->mpa_frame,
					      node->mpa_frame_len, !request);
			irdma_fuzz_check(ret >= 0, "own frame parses");
		}
	}
	free(copy);
	free(node);
	free(peer);
}

static void irdma_fuzz_options(const u8 *data, size_t size, u8 sel)
{
	struct irdma_cm_node node;
	u8 *copy = malloc(size ? size : 1);

	memcpy(copy, data, size);
	memset(&node, 0, sizeof(node));
	node.ipv4 = sel & 1;
	if (!irdma_process_options(&node, copy, size, true))
		irdma_fuzz_check(node.mss >= 536, "mss floor");
	free(copy);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	u8 sel;

	if (!size)
		return 0;
	sel = data[0];
	data++;
	size--;
	switch (sel >> 6) {
	case 0:
	case 1:
		irdma_fuzz_segment(data, size, sel);
		break;
	case 2:
		irdma_fuzz_mpa(data, size, sel);
		break;
	default:
		irdma_fuzz_options(data, size, sel);
		break;
	}
	return 0;
}
