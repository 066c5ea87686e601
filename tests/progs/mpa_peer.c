// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mpa_peer: a plain-socket iWARP peer for wire tests, on the kernel's TCP.
 *
 *   mpa_peer -c -a ADDR -p PORT [-d PDATA] [-e EXPECT] [-t SEC]
 *	connect, send an MPA v2 request (RFC 5044/6581: CRC, enhanced,
 *	peer-to-peer, zero-length Read RTR, IRD = ORD = 1) with private
 *	data PDATA (default "hello from mpa_peer"), read the MPA reply and
 *	print its flags and private data.  Success: a reply with the Reject
 *	flag whose private data starts with EXPECT (default "irdma says
 *	no"; "-e ''" accepts any).  Prints the time from connect() to the
 *	whole reply and from the request to the reply.
 *   mpa_peer -z BYTES -a ADDR -p PORT [-t SEC]
 *	connect and send BYTES bytes of junk in one write (a segment too
 *	large for the adapter's 1024-byte ILQ buffers when BYTES is large),
 *	keep the connection open for SEC seconds, then close it.
 *   mpa_peer -l -a ADDR -p PORT [-t SEC]
 *	plain TCP: accept one connection and echo what it sends until EOF.
 *   mpa_peer -s -a ADDR -p PORT [-t SEC]
 *	plain TCP: connect, send a line, expect it back.
 *
 * Every step is bounded by SEC seconds (default 10).  Output lines start
 * with "mpa_peer:"; exit status 0 on success, 1 otherwise.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define MPA_KEY_REQ	"MPA ID Req Frame"
#define MPA_KEY_REP	"MPA ID Rep Frame"
#define MPA_KEY_LEN	16
#define MPA_HDR_LEN	20
#define MPA_V2_LEN	4
#define MPA_FLAG_MARKERS 0x80
#define MPA_FLAG_CRC	0x40
#define MPA_FLAG_REJECT	0x20
#define MPA_FLAG_V2	0x10
#define MPA_V2_P2P	0x8000	/* IRD word: peer-to-peer (flag A) */
#define MPA_V2_READ_RTR	0x4000	/* ORD word: zero-length Read RTR (flag D) */
#define MPA_MAX_PDATA	512

static int timeout_s = 10;

static long now_us(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000000L + t.tv_nsec / 1000;
}

/* wait until @fd is readable (or writable); -1 on timeout */
static int wait_fd(int fd, short events)
{
	struct pollfd pfd = { .fd = fd, .events = events };

	if (poll(&pfd, 1, timeout_s * 1000) <= 0) {
		fprintf(stderr, "mpa_peer: timed out after %d s\n", timeout_s);
		return -1;
	}
	return 0;
}

/* read exactly @len bytes; 0, or -1 on EOF, error or timeout */
static int read_full(int fd, void *buf, size_t len)
{
	size_t got = 0;
	ssize_t n;

	while (got < len) {
		if (wait_fd(fd, POLLIN))
			return -1;
		n = read(fd, (char *)buf + got, len - got);
		if (n <= 0) {
			fprintf(stderr, "mpa_peer: read: %s\n",
				n ? strerror(errno) : "end of stream");
			return -1;
		}
		got += n;
	}
	return 0;
}

static int open_socket(const char *addr, const char *port, int listening)
{
	struct addrinfo hints = {
		.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV,
		.ai_socktype = SOCK_STREAM,
	};
	struct addrinfo *ai;
	int fd, one = 1, err;

	err = getaddrinfo(addr, port, &hints, &ai);
	if (err) {
		fprintf(stderr, "mpa_peer: %s:%s: %s\n", addr, port,
			gai_strerror(err));
		return -1;
	}
	fd = socket(ai->ai_family, SOCK_STREAM, 0);
	if (fd < 0)
		goto err;
	if (listening) {
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		if (bind(fd, ai->ai_addr, ai->ai_addrlen) || listen(fd, 1))
			goto err_close;
	} else if (connect(fd, ai->ai_addr, ai->ai_addrlen)) {
		goto err_close;
	}
	freeaddrinfo(ai);
	return fd;
err_close:
	close(fd);
err:
	fprintf(stderr, "mpa_peer: %s %s port %s: %s\n",
		listening ? "listen on" : "connect to", addr, port,
		strerror(errno));
	freeaddrinfo(ai);
	return -1;
}

static int mpa_client(const char *addr, const char *port, const char *pdata,
		      const char *expect)
{
	unsigned char req[MPA_HDR_LEN + MPA_V2_LEN + MPA_MAX_PDATA];
	unsigned char rep[MPA_HDR_LEN + MPA_V2_LEN + MPA_MAX_PDATA];
	size_t plen = strlen(pdata), elen = strlen(expect);
	long t0, t1, t2;
	uint16_t v, pd_len, ird, ord;
	const unsigned char *pd;
	int fd, ret = 1;

	if (plen > MPA_MAX_PDATA - MPA_V2_LEN)
		plen = MPA_MAX_PDATA - MPA_V2_LEN;
	t0 = now_us();
	fd = open_socket(addr, port, 0);
	if (fd < 0)
		return 1;
	memcpy(req, MPA_KEY_REQ, MPA_KEY_LEN);
	req[16] = MPA_FLAG_CRC | MPA_FLAG_V2;
	req[17] = 2;
	v = htons(MPA_V2_LEN + plen);
	memcpy(req + 18, &v, 2);
	v = htons(MPA_V2_P2P | 1);
	memcpy(req + 20, &v, 2);
	v = htons(MPA_V2_READ_RTR | 1);
	memcpy(req + 22, &v, 2);
	memcpy(req + 24, pdata, plen);
	t1 = now_us();
	if (write(fd, req, MPA_HDR_LEN + MPA_V2_LEN + plen) < 0) {
		perror("mpa_peer: write");
		goto out;
	}
	printf("mpa_peer: connected to %s port %s in %ld us, MPA v2 request sent (%zu bytes of private data)\n",
	       addr, port, t1 - t0, plen);
	if (read_full(fd, rep, MPA_HDR_LEN))
		goto out;
	memcpy(&v, rep + 18, 2);
	pd_len = ntohs(v);
	if (memcmp(rep, MPA_KEY_REP, MPA_KEY_LEN) || pd_len > sizeof(rep) - MPA_HDR_LEN) {
		fprintf(stderr, "mpa_peer: not an MPA reply (key '%.16s', length %u)\n",
			rep, pd_len);
		goto out;
	}
	if (read_full(fd, rep + MPA_HDR_LEN, pd_len))
		goto out;
	t2 = now_us();
	pd = rep + MPA_HDR_LEN;
	ird = ord = 0;
	if ((rep[16] & MPA_FLAG_V2) && pd_len >= MPA_V2_LEN) {
		ird = pd[0] << 8 | pd[1];
		ord = pd[2] << 8 | pd[3];
		pd += MPA_V2_LEN;
		pd_len -= MPA_V2_LEN;
	}
	printf("mpa_peer: reply rev %u flags M=%d C=%d R=%d V2=%d ird %#06x ord %#06x private data (%u bytes): '%.*s'\n",
	       rep[17], !!(rep[16] & MPA_FLAG_MARKERS), !!(rep[16] & MPA_FLAG_CRC),
	       !!(rep[16] & MPA_FLAG_REJECT), !!(rep[16] & MPA_FLAG_V2), ird,
	       ord, pd_len, pd_len, pd);
	printf("mpa_peer: reply after %ld us (connect to reply %ld us)\n",
	       t2 - t1, t2 - t0);
	if ((rep[16] & MPA_FLAG_REJECT) && pd_len >= elen &&
	    !memcmp(pd, expect, elen))
		ret = 0;
	else
		fprintf(stderr, "mpa_peer: want a reject with '%s'\n", expect);
out:
	close(fd);
	return ret;
}

static int junk_client(const char *addr, const char *port, size_t bytes)
{
	char *junk = calloc(1, bytes);
	int fd, ret = 1;

	fd = junk ? open_socket(addr, port, 0) : -1;
	if (fd >= 0) {
		memset(junk, 'z', bytes);
		if (write(fd, junk, bytes) == (ssize_t)bytes) {
			printf("mpa_peer: %zu bytes sent to %s port %s\n", bytes,
			       addr, port);
			ret = 0;
		}
		sleep(timeout_s);
		close(fd);
	}
	free(junk);
	return ret;
}

static int echo_server(const char *addr, const char *port)
{
	char buf[256];
	int lfd, fd;
	ssize_t n;

	lfd = open_socket(addr, port, 1);
	if (lfd < 0)
		return 1;
	printf("mpa_peer: echo server on %s port %s\n", addr, port);
	if (wait_fd(lfd, POLLIN) || (fd = accept(lfd, NULL, NULL)) < 0) {
		close(lfd);
		return 1;
	}
	for (;;) {
		if (wait_fd(fd, POLLIN))
			break;
		n = read(fd, buf, sizeof(buf));
		if (n <= 0 || write(fd, buf, n) != n)
			break;
	}
	close(fd);
	close(lfd);
	return 0;
}

static int echo_client(const char *addr, const char *port)
{
	static const char line[] = "plain TCP beside irdma_sim\n";
	char buf[sizeof(line)];
	int fd, ret = 1;

	fd = open_socket(addr, port, 0);
	if (fd < 0)
		return 1;
	if (write(fd, line, sizeof(line) - 1) == sizeof(line) - 1 &&
	    !read_full(fd, buf, sizeof(line) - 1) &&
	    !memcmp(buf, line, sizeof(line) - 1)) {
		printf("mpa_peer: echo from %s port %s ok\n", addr, port);
		ret = 0;
	}
	close(fd);
	return ret;
}

int main(int argc, char **argv)
{
	const char *addr = NULL, *port = NULL;
	const char *pdata = "hello from mpa_peer", *expect = "irdma says no";
	int mode = 0, c;
	long junk = 0;

	while ((c = getopt(argc, argv, "clsz:a:p:d:e:t:")) != -1) {
		switch (c) {
		case 'z':
			junk = atol(optarg);
			mode = c;
			break;
		case 'c':
		case 'l':
		case 's':
			mode = c;
			break;
		case 'a':
			addr = optarg;
			break;
		case 'p':
			port = optarg;
			break;
		case 'd':
			pdata = optarg;
			break;
		case 'e':
			expect = optarg;
			break;
		case 't':
			timeout_s = atoi(optarg);
			break;
		default:
			mode = 0;
			break;
		}
	}
	if (!mode || !addr || !port || timeout_s < 1) {
		fprintf(stderr,
			"usage: mpa_peer -c|-l|-s|-z BYTES -a ADDR -p PORT [-d PDATA] [-e EXPECT] [-t SEC]\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (mode == 'c')
		return mpa_client(addr, port, pdata, expect);
	if (mode == 'z')
		return junk > 0 ? junk_client(addr, port, junk) : 2;
	if (mode == 'l')
		return echo_server(addr, port);
	return echo_client(addr, port);
}
