// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * iw_peer: a misbehaving iWARP peer on a plain socket, for the model's
 * error paths.
 *
 *   iw_peer -m MODE -a ADDR -p PORT [-t SEC]
 *
 * Connects to an rdma_cm listener, sends an MPA v2 request (CRC,
 * enhanced, peer-to-peer, zero-length Read RTR, IRD = ORD = 1), reads the
 * MPA reply, then, by MODE:
 *   badcrc   an FPDU (the RTR Read Request) with a wrong CRC
 *   badstag  the RTR, then an RDMA Write to an STag that does not exist
 *   garbage  64 KiB of random bytes
 *   msn      the RTR, then a Send with MSN 7 (expected 1)
 *   reads    the RTR, then 300 zero-length Read Requests at once: more
 *            than any inbound read queue holds
 *   rreqstag the RTR, then a 64-byte Read Request from a source STag that
 *            does not exist
 *   split    the RTR, then a good Send (rping's buffer advertisement) in
 *            two TCP segments 300 ms apart, the first ending inside the
 *            FPDU: the peer must take it and read from us (a Read
 *            Request, exit 0), not answer with a TERMINATE
 * and, but for split, expects a TERMINATE from the peer (DDP untagged, QN 2, RDMAP opcode
 * 7), possibly after zero-length Read Responses, then the end of the
 * connection (FIN or RST).  Prints the TERMINATE's layer/type, code,
 * header-control byte (M 0x80, D 0x40, R 0x20) and, with M, the DDP
 * segment length it reports.
 * Exit status 0 on success, 1 otherwise.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

static int timeout_s = 10;
static uint32_t crc_table[256];

static void crc_init(void)
{
	uint32_t c, i, k;

	for (i = 0; i < 256; i++) {
		c = i;
		for (k = 0; k < 8; k++)
			c = c & 1 ? (c >> 1) ^ 0x82F63B78 : c >> 1;
		crc_table[i] = c;
	}
}

static uint32_t crc32c(const unsigned char *p, size_t len)
{
	uint32_t c = ~0U;

	while (len--)
		c = crc_table[(c ^ *p++) & 0xff] ^ (c >> 8);
	return ~c;
}

static int wait_fd(int fd)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };

	if (poll(&pfd, 1, timeout_s * 1000) <= 0) {
		fprintf(stderr, "iw_peer: timed out after %d s\n", timeout_s);
		return -1;
	}
	return 0;
}

/* read exactly @len bytes: 0, 1 at the end of the stream, -1 on error */
static int read_full(int fd, void *buf, size_t len)
{
	size_t got = 0;
	ssize_t n;

	while (got < len) {
		if (wait_fd(fd))
			return -1;
		n = read(fd, (char *)buf + got, len - got);
		if (n == 0)
			return 1;
		if (n < 0)
			return errno == ECONNRESET ? 1 : -1;
		got += n;
	}
	return 0;
}

static int write_all(int fd, const void *buf, size_t len)
{
	return write(fd, buf, len) == (ssize_t)len ? 0 : -1;
}

/* an FPDU around @ulpdu; @bad spoils the CRC; returns its length */
static size_t fpdu(unsigned char *out, const unsigned char *ulpdu,
		   size_t ulen, int bad)
{
	size_t len = 2 + ulen;
	uint32_t crc;

	out[0] = ulen >> 8;
	out[1] = ulen;
	memcpy(out + 2, ulpdu, ulen);
	while (len & 3)
		out[len++] = 0;
	crc = crc32c(out, len) ^ (bad ? 0x5a5a : 0);
	/* little-endian on the wire, as the kernel's crc32c shash writes it */
	out[len] = crc;
	out[len + 1] = crc >> 8;
	out[len + 2] = crc >> 16;
	out[len + 3] = crc >> 24;
	return len + 4;
}

static void put32(unsigned char *p, uint32_t v)
{
	p[0] = v >> 24;
	p[1] = v >> 16;
	p[2] = v >> 8;
	p[3] = v;
}

/* untagged header: L, RDMAP opcode, QN, MSN, MO 0 */
static void untagged(unsigned char *p, int op, uint32_t qn, uint32_t msn)
{
	memset(p, 0, 18);
	p[0] = 0x40 | 0x01;
	p[1] = 0x40 | op;
	put32(p + 6, qn);
	put32(p + 10, msn);
}

/* a Read Request with MSN @msn: @len bytes from @src_stag */
static size_t rreq(unsigned char *out, uint32_t msn, uint32_t src_stag,
		   uint32_t len, int bad)
{
	unsigned char u[18 + 28] = { 0 };

	untagged(u, 1, 1, msn);
	put32(u + 18 + 12, len);
	put32(u + 18 + 16, src_stag);
	return fpdu(out, u, sizeof(u), bad);
}

/* the RTR: a zero-length Read Request, the first on queue 1 */
static size_t rtr(unsigned char *out, int bad)
{
	return rreq(out, 1, 0, 0, bad);
}

int main(int argc, char **argv)
{
	const char *addr = NULL, *port = NULL, *mode = NULL;
	unsigned char req[24], rep[24 + 512], buf[70000], u[64];
	struct addrinfo hints = {
		.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV,
		.ai_socktype = SOCK_STREAM,
	};
	struct addrinfo *ai;
	int fd, c, r, seen_term = 0, seen_rreq = 0, split;
	size_t n = 0, i, first;
	uint16_t len;

	while ((c = getopt(argc, argv, "m:a:p:t:")) != -1) {
		switch (c) {
		case 'm':
			mode = optarg;
			break;
		case 'a':
			addr = optarg;
			break;
		case 'p':
			port = optarg;
			break;
		case 't':
			timeout_s = atoi(optarg);
			break;
		default:
			goto usage;
		}
	}
	if (!addr || !port || !mode)
		goto usage;
	crc_init();
	if (getaddrinfo(addr, port, &hints, &ai)) {
		fprintf(stderr, "iw_peer: bad address\n");
		return 1;
	}
	fd = socket(ai->ai_family, SOCK_STREAM, 0);
	if (fd < 0 || connect(fd, ai->ai_addr, ai->ai_addrlen)) {
		perror("iw_peer: connect");
		return 1;
	}
	memcpy(req, "MPA ID Req Frame", 16);
	req[16] = 0x40 | 0x10;		/* CRC, enhanced */
	req[17] = 2;
	req[18] = 0;
	req[19] = 4;
	req[20] = 0x80;			/* P2P, IRD 1 */
	req[21] = 1;
	req[22] = 0x40;			/* Read RTR, ORD 1 */
	req[23] = 1;
	if (write_all(fd, req, sizeof(req)) || read_full(fd, rep, 20)) {
		fprintf(stderr, "iw_peer: no MPA reply\n");
		return 1;
	}
	len = rep[18] << 8 | rep[19];
	if (memcmp(rep, "MPA ID Rep Frame", 16) || (rep[16] & 0x20) ||
	    len > 512 || read_full(fd, rep + 20, len)) {
		fprintf(stderr, "iw_peer: bad MPA reply\n");
		return 1;
	}
	printf("iw_peer: MPA reply flags %#x rev %u\n", rep[16], rep[17]);

	/* the modes but garbage send the RTR first (badcrc: only it, spoilt) */
	first = rtr(buf, !strcmp(mode, "badcrc"));
	n = first;
	if (!strcmp(mode, "badcrc")) {
		/* nothing after the spoilt RTR */
	} else if (!strcmp(mode, "badstag")) {
		memset(u, 0, sizeof(u));
		u[0] = 0x80 | 0x40 | 0x01;	/* tagged, last */
		u[1] = 0x40;			/* Write */
		put32(u + 2, 0xdeadbe00);
		n += fpdu(buf + n, u, 14 + 32, 0);
	} else if (!strcmp(mode, "msn")) {
		untagged(u, 3, 0, 7);
		n += fpdu(buf + n, u, 18 + 16, 0);
	} else if (!strcmp(mode, "reads")) {
		for (i = 2; i < 302; i++)
			n += rreq(buf + n, i, 0, 0, 0);
	} else if (!strcmp(mode, "rreqstag")) {
		n += rreq(buf + n, 2, 0xdeadbe00, 64, 0);
	} else if (!strcmp(mode, "split")) {
		/* rping's first Send: where to read from (64 bytes) */
		untagged(u, 3, 0, 1);
		put32(u + 18 + 4, 0x1000);
		put32(u + 18 + 8, 0x12345600);
		put32(u + 18 + 12, 64);
		n += fpdu(buf + n, u, 18 + 16, 0);
	} else if (!strcmp(mode, "garbage")) {
		srand(42);
		n = 65536;
		for (i = 0; i < n; i++)
			buf[i] = rand();
		/* a first "FPDU" short enough to be complete */
		buf[0] = 0;
		buf[1] = 0x40;
	} else {
		goto usage;
	}
	/*
	 * the RTR alone first, and time for the listener to report the
	 * connection established: the offence then hits a running QP
	 */
	if (strcmp(mode, "badcrc") && strcmp(mode, "garbage")) {
		if (write_all(fd, buf, first)) {
			perror("iw_peer: write");
			return 1;
		}
		usleep(500 * 1000);
		memmove(buf, buf + first, n - first);
		n -= first;
	}
	/*
	 * split: the FPDU's length runs past the first segment; the rest
	 * follows in a second one 300 ms later
	 */
	split = !strcmp(mode, "split") ? 12 : 0;
	c = 1;
	if (split && (setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &c, sizeof(c)) ||
		      write_all(fd, buf, split))) {
		perror("iw_peer: write");
		return 1;
	}
	if (split)
		usleep(300 * 1000);
	if (write_all(fd, buf + split, n - split)) {
		perror("iw_peer: write");
		return 1;
	}
	/* FPDUs until a TERMINATE, then the end of the stream */
	for (;;) {
		r = read_full(fd, buf, 2);
		if (r)
			break;
		len = buf[0] << 8 | buf[1];
		n = ((2 + len + 3) & ~3U) + 4 - 2;
		if (read_full(fd, buf + 2, n)) {
			r = 1;
			break;
		}
		if (len >= 18 + 4 && !(buf[2] & 0x80) && (buf[3] & 0x0f) == 7) {
			printf("iw_peer: TERMINATE layer/type 0x%02x code 0x%02x hdrct 0x%02x seglen %d crc %s\n",
			       buf[2 + 18], buf[2 + 19], buf[2 + 20],
			       len >= 18 + 6 && (buf[2 + 20] & 0x80) ?
			       buf[2 + 22] << 8 | buf[2 + 23] : -1,
			       crc32c(buf, 2 + n - 4) ==
			       (uint32_t)(buf[n - 2] | buf[n - 1] << 8 |
					  buf[n] << 16 | buf[n + 1] << 24) ?
			       "good" : "bad");
			seen_term = 1;
		} else {
			printf("iw_peer: FPDU opcode %u length %u\n",
			       buf[3] & 0x0f, len);
		}
		/* split: the peer took the Send and reads from us */
		if (split && !(buf[2] & 0x80) && (buf[3] & 0x0f) == 1) {
			printf("iw_peer: Read Request after the split Send\n");
			seen_rreq = 1;
			break;
		}
	}
	if (split) {
		close(fd);
		return seen_rreq && !seen_term ? 0 : 1;
	}
	printf("iw_peer: connection ended%s\n", r < 0 ? " (timeout)" : "");
	close(fd);
	return seen_term && r > 0 ? 0 : 1;

usage:
	fprintf(stderr, "usage: iw_peer -m MODE -a ADDR -p PORT [-t SEC]\n"
		"MODE: badcrc|badstag|garbage|msn|reads|rreqstag|split\n");
	return 1;
}
