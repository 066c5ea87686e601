// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * irdma_sim - the TCP offload: the connection the driver's CM made over
 * the ILQ continues on a kernel TCP socket restored with TCP_REPAIR in the
 * netdev's namespace.
 *
 * The handoff runs in the engine's runner (kernel threads have CAP_NET_ADMIN),
 * in an order that works (others fail): TCP_REPAIR on; the send and
 * receive queue sequence numbers (snd_nxt and rcv_nxt of the context:
 * the CM's bytes are all acknowledged and the passive side's MPA reply is
 * not sent yet - it goes out as the LSMM); bind and connect, which in
 * repair mode send nothing and leave the socket ESTABLISHED;
 * TCP_REPAIR_OPTIONS (MSS, window scales); TCP_REPAIR_WINDOW (the
 * windows of the context); the MSS trap: no timestamps, so the header
 * length is the bare TCP header, and tcp_sync_mss() with the route's MTU;
 * then TCP_REPAIR off, without the window probe the kernel would send
 * (a loopback connection waits for its other end first; both are told in
 * irdma_sim_tcp_handoff()).  Frames of the quad that arrived meanwhile
 * were held by the rx_handler (qp.c) and are replayed into the stack
 * afterwards; TCP drops what it already has.
 *
 * The socket reuses its address (SO_REUSEADDR) once out of repair mode:
 * the adapter's connection must not take the port from host sockets that
 * allow sharing it.
 *
 * The socket's write_space and state_change callbacks only queue the QP's
 * work; data_ready reads and places the bytes itself when the engine is
 * free (through iw->data_ready: the QP layer is above this one).  A
 * socket is released with SO_LINGER 0 (a RST) when the connection must be
 * aborted, else normally.  The socket holds a reference on its namespace
 * like a user socket.
 */

#include <linux/net.h>
#include <linux/rcupdate.h>
#include <linux/tcp.h>
#include <net/inet6_hashtables.h>
#include <net/inet_hashtables.h>
#include <net/inet_sock.h>
#include <net/inet_timewait_sock.h>
#include <net/ip.h>
#include <net/ipv6.h>
#include <net/net_namespace.h>
#include <net/sock.h>
#include <net/tcp.h>

#include "iw.h"

/**
 * irdma_sim_tcp_setopt() - setsockopt on a kernel socket
 * @sock: socket
 * @level: SOL_*
 * @opt: option
 * @val: value
 * @len: its bytes
 *
 * Return: 0 or a negative errno.
 */
static int irdma_sim_tcp_setopt(struct socket *sock, int level, int opt,
				void *val, unsigned int len)
{
	if (level == SOL_SOCKET)
		return sock_setsockopt(sock, level, opt, KERNEL_SOCKPTR(val), len);
	return sock->ops->setsockopt(sock, level, opt, KERNEL_SOCKPTR(val), len);
}

/**
 * irdma_sim_tcp_int() - setsockopt of an int
 * @sock: socket
 * @level: SOL_*
 * @opt: option
 * @v: value
 *
 * Return: 0 or a negative errno.
 */
static int irdma_sim_tcp_int(struct socket *sock, int level, int opt, int v)
{
	return irdma_sim_tcp_setopt(sock, level, opt, &v, sizeof(v));
}

/**
 * irdma_sim_tcp_data_ready() - the socket received bytes
 * @sk: the QP's socket
 *
 * When no other context runs the engine, the bytes are read and placed
 * here (iw->data_ready), in the softirq that took them from
 * the wire, as the adapter places data on arrival; otherwise, or when
 * more than placement follows, the engine's work item runs.
 *
 * Context: softirq with the socket's spinlock held, or its owner's
 * process context (the backlog).
 */
static void irdma_sim_tcp_data_ready(struct sock *sk)
{
	struct irdma_sim_iw *iw;

	read_lock_bh(&sk->sk_callback_lock);
	iw = sk->sk_user_data;
	if (iw && (sock_owned_by_user_nocheck(sk) ||
		   !iw->data_ready(iw)))
		irdma_sim_iw_kick(iw);
	read_unlock_bh(&sk->sk_callback_lock);
}

/**
 * irdma_sim_tcp_wake() - queue the engine's work for a socket event
 * @sk: the QP's socket
 * @space: the event is write space: only when the socket is writeable
 *
 * Context: a socket callback.
 */
static void irdma_sim_tcp_wake(struct sock *sk, bool space)
{
	struct irdma_sim_iw *iw;

	read_lock_bh(&sk->sk_callback_lock);
	iw = sk->sk_user_data;
	if (iw && (!space || sk_stream_is_writeable(sk))) {
		if (space && sk->sk_socket)
			clear_bit(SOCK_NOSPACE, &sk->sk_socket->flags);
		irdma_sim_iw_kick(iw);
	}
	read_unlock_bh(&sk->sk_callback_lock);
}

/**
 * irdma_sim_tcp_state_change() - the socket's TCP state changed
 * @sk: the QP's socket
 *
 * The engine follows the state (a FIN, a reset) in its work item.
 */
static void irdma_sim_tcp_state_change(struct sock *sk)
{
	irdma_sim_tcp_wake(sk, false);
}

/**
 * irdma_sim_tcp_write_space() - the socket has room for more bytes
 * @sk: the QP's socket
 */
static void irdma_sim_tcp_write_space(struct sock *sk)
{
	irdma_sim_tcp_wake(sk, true);
}

/**
 * irdma_sim_tcp_addr() - a socket address from words
 * @ss: filled
 * @ipv4: IPv4 (word 3)
 * @ip: address, word 0 most significant
 * @port: port
 * @ifindex: scope of a link-local IPv6 address
 *
 * Return: the address length.
 */
static int irdma_sim_tcp_addr(struct sockaddr_storage *ss, bool ipv4,
			      const u32 ip[4], u16 port, int ifindex)
{
	struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)ss;
	struct sockaddr_in *s4 = (struct sockaddr_in *)ss;
	int i;

	memset(ss, 0, sizeof(*ss));
	if (ipv4) {
		s4->sin_family = AF_INET;
		s4->sin_port = htons(port);
		s4->sin_addr.s_addr = htonl(ip[3]);
		return sizeof(*s4);
	}
	s6->sin6_family = AF_INET6;
	s6->sin6_port = htons(port);
	for (i = 0; i < 4; i++)
		s6->sin6_addr.s6_addr32[i] = htonl(ip[i]);
	if (ipv6_addr_type(&s6->sin6_addr) & IPV6_ADDR_LINKLOCAL)
		s6->sin6_scope_id = ifindex;
	return sizeof(*s6);
}

/**
 * irdma_sim_tcp_evict_tw() - end the host's TIME_WAIT entry of the QP's quad
 * @net: the netdev's namespace
 * @iw: engine with its connection read from the context
 *
 * The adapter keeps its TCP state apart from the host's; the model's
 * sockets share the host's tables, and the one that closed first leaves a
 * TIME_WAIT entry there that an offloaded connection never leaves on
 * silicon (its TIME_WAIT is the CM's).  Ended when the connection has
 * closed (irdma_sim_tcp_release()), and, for an entry left by an earlier
 * connection on the quad a QP takes over, before its connect: the host
 * would refuse it (no timestamps, so no safe reuse), while the CM has
 * already run the new handshake on that quad.
 *
 * Context: process context (softirqs are held off around the eviction).
 */
static void irdma_sim_tcp_evict_tw(struct net *net, struct irdma_sim_iw *iw)
{
	struct inet_hashinfo *hinfo = net->ipv4.tcp_death_row.hashinfo;
	struct sock *sk;

	/* the lookup walks the established hash under RCU */
	rcu_read_lock();
	if (iw->ipv4) {
		sk = __inet_lookup_established(net, hinfo, htonl(iw->rip[3]),
					       htons(iw->rport),
					       htonl(iw->lip[3]), iw->lport,
					       iw->sim->netdev->ifindex, 0);
	} else {
		struct in6_addr r, l;
		int i;

		for (i = 0; i < 4; i++) {
			r.s6_addr32[i] = htonl(iw->rip[i]);
			l.s6_addr32[i] = htonl(iw->lip[i]);
		}
		sk = __inet6_lookup_established(net, hinfo, &r, htons(iw->rport),
						&l, iw->lport,
						iw->sim->netdev->ifindex, 0);
	}
	rcu_read_unlock();
	if (!sk)
		return;
	if (sk->sk_state == TCP_TIME_WAIT) {
		/* the ehash lock is taken in softirqs too: none here */
		local_bh_disable();
		inet_twsk_deschedule_put(inet_twsk(sk));
		local_bh_enable();
	} else {
		sock_gen_put(sk);
	}
}

/**
 * irdma_sim_tcp_hold_window() - offer the context's receive window for good
 * @sk: restored socket, locked
 * @wnd: the context's receive window, in bytes
 *
 * The adapter offers one window all along: it places what arrives at
 * once.  A socket offers the smaller of its free receive buffer and its
 * slow-start threshold, both sized at connect() for a handshake of its
 * own, and never moves the window's right edge back.  Restored with a
 * larger window (the CM offers 256 KiB), it would offer what is left of
 * that window, less each segment's bytes, until the two meet - 7,000
 * small messages later - and every segment meanwhile would take TCP's
 * slow path, since header prediction compares the window field.  So the
 * socket gets a receive buffer whose free space is @wnd, a threshold and
 * a clamp of @wnd, and a buffer size of its own (no autotuning past it).
 * A window no header can carry is cut to what one can; one that needs a
 * buffer beyond tcp_rmem's maximum gets that maximum (the socket then
 * offers less, as a host socket would); a zero window leaves the socket
 * as it is.
 */
static void irdma_sim_tcp_hold_window(struct sock *sk, u32 wnd)
{
	struct tcp_sock *tp = tcp_sk(sk);
	int limit = max(READ_ONCE(sk->sk_rcvbuf),
			READ_ONCE(sock_net(sk)->ipv4.sysctl_tcp_rmem[2]));
	u64 space;

	sock_owned_by_me(sk);
	wnd = min_t(u32, wnd, (u32)U16_MAX << tp->rx_opt.rcv_wscale);
	if (!wnd)
		return;
	/* tcp_space() is a fraction of the buffer (tcp_adv_win_scale) */
	space = wnd;
	while (space < (u64)limit && tcp_win_from_space(sk, space) < (int)wnd)
		space <<= 1;
	WRITE_ONCE(sk->sk_rcvbuf, max_t(int, READ_ONCE(sk->sk_rcvbuf),
					min_t(u64, space, limit)));
	sk->sk_userlocks |= SOCK_RCVBUF_LOCK;
	tp->window_clamp = wnd;
	tp->rcv_ssthresh = wnd;
}

/**
 * irdma_sim_tcp_restore() - a socket in repair mode holding the QP's
 * connection
 * @iw: engine in the handoff phase, connection read from the context
 * @sockp: receives the socket, connected and in repair mode, with the
 *	engine's callbacks
 * @local: set when the connection's other end is this host (loopback)
 *
 * Context: the engine's runner (a kernel thread: CAP_NET_ADMIN).
 * Return: 0 or a negative errno.
 */
static int irdma_sim_tcp_restore(struct irdma_sim_iw *iw,
				 struct socket **sockp, bool *local)
{
	struct irdma_sim *sim = iw->sim;
	struct net *net = dev_net(sim->netdev);
	struct tcp_repair_opt opts[2];
	struct tcp_repair_window win;
	struct sockaddr_storage ss;
	struct dst_entry *dst;
	struct socket *sock;
	struct sock *sk;
	int len, err;

	err = sock_create_kern(net, iw->ipv4 ? AF_INET : AF_INET6, SOCK_STREAM,
			       IPPROTO_TCP, &sock);
	if (err)
		return err;
	sk = sock->sk;
	/* hold the namespace like a user socket does */
	sk->sk_net_refcnt = 1;
	get_net_track(net, &sk->ns_tracker, GFP_KERNEL);
	sock_inuse_add(net, 1);

	err = irdma_sim_tcp_int(sock, SOL_TCP, TCP_REPAIR, TCP_REPAIR_ON);
	if (!err)
		err = irdma_sim_tcp_int(sock, SOL_TCP, TCP_REPAIR_QUEUE,
					TCP_SEND_QUEUE);
	if (!err)
		err = irdma_sim_tcp_int(sock, SOL_TCP, TCP_QUEUE_SEQ, iw->snd_nxt);
	if (!err)
		err = irdma_sim_tcp_int(sock, SOL_TCP, TCP_REPAIR_QUEUE,
					TCP_RECV_QUEUE);
	if (!err)
		err = irdma_sim_tcp_int(sock, SOL_TCP, TCP_QUEUE_SEQ, iw->rcv_nxt);
	if (!err)
		err = irdma_sim_tcp_int(sock, SOL_TCP, TCP_REPAIR_QUEUE,
					TCP_NO_QUEUE);
	if (err)
		goto fail;
	len = irdma_sim_tcp_addr(&ss, iw->ipv4, iw->lip, iw->lport,
				 sim->netdev->ifindex);
	err = kernel_bind(sock, (struct sockaddr *)&ss, len);
	if (err)
		goto fail;
	len = irdma_sim_tcp_addr(&ss, iw->ipv4, iw->rip, iw->rport,
				 sim->netdev->ifindex);
	irdma_sim_tcp_evict_tw(net, iw);
	err = kernel_connect(sock, (struct sockaddr *)&ss, len, 0);
	if (err)
		goto fail;

	opts[0].opt_code = TCPOPT_MSS;
	opts[0].opt_val = iw->mss;
	opts[1].opt_code = TCPOPT_WINDOW;
	opts[1].opt_val = iw->snd_ws | (u32)iw->rcv_ws << 16;
	err = irdma_sim_tcp_setopt(sock, SOL_TCP, TCP_REPAIR_OPTIONS, opts,
				   sizeof(opts));
	if (err)
		goto fail;
	win.snd_wl1 = iw->rcv_nxt;
	win.snd_wnd = iw->snd_wnd;
	win.max_window = max(iw->max_snd_wnd, iw->snd_wnd);
	win.rcv_wnd = iw->rcv_wnd;
	win.rcv_wup = iw->rcv_nxt;
	err = irdma_sim_tcp_setopt(sock, SOL_TCP, TCP_REPAIR_WINDOW, &win,
				   sizeof(win));
	if (err)
		goto fail;

	/* the MSS trap: no timestamps, then the working MSS from the route */
	lock_sock(sk);
	tcp_sk(sk)->tcp_header_len = sizeof(struct tcphdr);
	/*
	 * ECN as the handshake the driver ran negotiated it: the socket then
	 * marks new data ECT(0) and runs RFC 3168's ECE/CWR exchange (no
	 * repair option carries this state)
	 */
	if (iw->ecn)
		tcp_sk(sk)->ecn_flags = TCP_ECN_OK;
	irdma_sim_tcp_hold_window(sk, iw->rcv_wnd);
	dst = __sk_dst_get(sk);
	if (dst)
		tcp_sync_mss(sk, dst_mtu(dst));
	*local = dst && dst->dev && (dst->dev->flags & IFF_LOOPBACK);
	release_sock(sk);

	irdma_sim_tcp_int(sock, SOL_TCP, TCP_NODELAY, 1);
	if (iw->ipv4) {
		irdma_sim_tcp_int(sock, SOL_IP, IP_TOS, iw->tos);
		if (iw->ttl)
			irdma_sim_tcp_int(sock, SOL_IP, IP_TTL, iw->ttl);
	} else {
		irdma_sim_tcp_int(sock, SOL_IPV6, IPV6_TCLASS, iw->tos);
		if (iw->ttl)
			irdma_sim_tcp_int(sock, SOL_IPV6, IPV6_UNICAST_HOPS,
					  iw->ttl);
	}

	write_lock_bh(&sk->sk_callback_lock);
	sk->sk_user_data = iw;
	sk->sk_data_ready = irdma_sim_tcp_data_ready;
	sk->sk_write_space = irdma_sim_tcp_write_space;
	sk->sk_state_change = irdma_sim_tcp_state_change;
	write_unlock_bh(&sk->sk_callback_lock);
	sk->sk_allocation = GFP_ATOMIC;
	*sockp = sock;
	return 0;

fail:
	sock_release(sock);
	return err;
}

/**
 * irdma_sim_tcp_lpb_wait() - must a loopback connection's socket wait for
 * the other end's
 * @iw: engine in the handoff phase, on a loopback connection
 * @sock: its socket, in repair mode
 *
 * Notes @sock as the engine's waiting socket, so that the other end sees
 * it, and looks for that end: the QP of this instance with the reversed
 * quad.  When it has a socket, waiting or live, neither need wait any
 * more; a waiting one is woken.  Noting and looking under one hold of
 * sim->lock means the second of two ends always sees the first.
 *
 * Context: the engine's runner.
 * Return: true when @iw must wait (its work runs again when the other end
 * has its socket).
 */
static bool irdma_sim_tcp_lpb_wait(struct irdma_sim_iw *iw, struct socket *sock)
{
	struct irdma_sim *sim = iw->sim;
	struct irdma_sim_iw *p;
	unsigned long flags;
	bool wait = true;

	spin_lock_irqsave(&sim->lock, flags);
	iw->lpb_sock = sock;
	hash_for_each_possible(sim->iw_quads, p, hnode, iw->rport) {
		if (p == iw || p->lport != iw->rport || p->rport != iw->lport ||
		    p->ipv4 != iw->ipv4 ||
		    memcmp(p->lip, iw->rip, sizeof(p->lip)) ||
		    memcmp(p->rip, iw->lip, sizeof(p->rip)))
			continue;
		if (p->sock || p->lpb_sock) {
			wait = false;
			if (p->lpb_sock)
				irdma_sim_iw_kick(p);
		}
		break;
	}
	spin_unlock_irqrestore(&sim->lock, flags);
	return wait;
}

/**
 * irdma_sim_tcp_unhook() - detach a socket from the engine
 * @sock: socket with the engine's callbacks
 */
static void irdma_sim_tcp_unhook(struct socket *sock)
{
	write_lock_bh(&sock->sk->sk_callback_lock);
	sock->sk->sk_user_data = NULL;
	write_unlock_bh(&sock->sk->sk_callback_lock);
}

/**
 * irdma_sim_tcp_handoff() - continue the QP's connection on a socket
 * @iw: engine in the handoff phase, connection read from the context
 *
 * Both ends of a loopback connection are QPs of this adapter, handed off
 * one after the other: a segment from the first socket (a window probe,
 * the RTR) would find no socket for the second yet, and the stack would
 * answer it with a RST.  So the first waits in repair mode, where it
 * sends nothing but takes what arrives, until the second exists
 * (irdma_sim_tcp_lpb_wait(), which also wakes a waiting first end).
 *
 * No socket leaves repair mode with a window probe.  The probe carries an
 * old sequence number, so the peer's TCP answers it with a duplicate ACK,
 * and that ACK starts the peer's per-socket limit on out-of-window answers
 * (500 ms).  The same limit silences the challenge ACK (RFC 5961) that a
 * RST in the window but not at RCV.NXT gets.  Such RSTs happen: the
 * model sends a QP's segments from whichever CPU runs its engine, and on
 * a veth pair each CPU has its own receive backlog, so the RST of a
 * connection reset right after its last data can overtake that data.
 * The peer challenges it, our end (no socket any more) answers the
 * challenge with an exact RST, and the peer resets - unless the
 * challenge was silenced, which left the peer's connection open forever.
 * The probe is not needed: both ends have the windows of the context.
 *
 * Context: the engine's runner (a kernel thread: CAP_NET_ADMIN).
 * Return: 0, -EAGAIN while a loopback connection waits for its other
 * end (the work runs again when it comes), or another negative errno (the
 * connection is lost).
 */
int irdma_sim_tcp_handoff(struct irdma_sim_iw *iw)
{
	struct irdma_sim *sim = iw->sim;
	struct socket *sock = iw->lpb_sock;
	bool local = true;
	unsigned long flags;
	int err;

	if (!sock) {
		err = irdma_sim_tcp_restore(iw, &sock, &local);
		if (err)
			goto fail;
	}
	if (local && irdma_sim_tcp_lpb_wait(iw, sock))
		return -EAGAIN;

	err = irdma_sim_tcp_int(sock, SOL_TCP, TCP_REPAIR, TCP_REPAIR_OFF_NO_WP);
	if (err) {
		spin_lock_irqsave(&sim->lock, flags);
		iw->lpb_sock = NULL;
		spin_unlock_irqrestore(&sim->lock, flags);
		irdma_sim_tcp_unhook(sock);
		sock_release(sock);
		goto fail;
	}
	/*
	 * An offloaded connection lives in the adapter, not in the host's
	 * port space.  Leaving repair mode clears the socket's address reuse;
	 * set it again so that a host socket bound with SO_REUSEADDR on the
	 * same port (siw's listener of a wildcard rdma_listen) is not refused
	 * with EADDRINUSE because of this one, now or in TIME_WAIT.
	 */
	sock_set_reuseaddr(sock->sk);
	spin_lock_irqsave(&sim->lock, flags);
	iw->sock = sock;
	iw->lpb_sock = NULL;
	iw->qp->tcp_state = IRDMA_TCPS_ESTABLISHED;
	spin_unlock_irqrestore(&sim->lock, flags);
	return 0;

fail:
	dev_warn_ratelimited(&sim->dev, "QP %u: TCP handoff failed: %d\n",
			     iw->qpn, err);
	return err;
}

/**
 * irdma_sim_tcp_count() - add the socket's traffic since the last call to
 * the function's statistics
 * @iw: engine with a socket; called from its work, or with the work
 *	stopped
 *
 * The adapter counts each segment as it goes; the model's segments are
 * the socket's, so their counts come from it: segments in and out,
 * retransmissions, and IP bytes as payload plus one IP and TCP header
 * (with the options every segment carries) per segment.
 */
void irdma_sim_tcp_count(struct irdma_sim_iw *iw)
{
	const struct tcp_sock *tp = tcp_sk(iw->sock->sk);
	u32 hlen = (iw->ipv4 ? sizeof(struct iphdr) : sizeof(struct ipv6hdr)) +
		   READ_ONCE(tp->tcp_header_len);
	u32 segs_in = READ_ONCE(tp->segs_in);
	u32 segs_out = READ_ONCE(tp->segs_out);
	u32 retrans = READ_ONCE(tp->total_retrans);
	u64 bytes_in = READ_ONCE(tp->bytes_received);
	u64 bytes_out = READ_ONCE(tp->bytes_sent);
	u32 din = segs_in - iw->seen.segs_in;
	u32 dout = segs_out - iw->seen.segs_out;

	irdma_sim_gstat_ip(iw->sim, iw->ipv4, true,
			   bytes_in - iw->seen.bytes_in + (u64)din * hlen, din);
	irdma_sim_gstat_ip(iw->sim, iw->ipv4, false,
			   bytes_out - iw->seen.bytes_out + (u64)dout * hlen,
			   dout);
	irdma_sim_gstat_add(iw->sim, IRDMA_GSTAT_TCP_RETX_SEGS,
			    retrans - iw->seen.retrans);
	iw->seen.segs_in = segs_in;
	iw->seen.segs_out = segs_out;
	iw->seen.retrans = retrans;
	iw->seen.bytes_in = bytes_in;
	iw->seen.bytes_out = bytes_out;
}

/**
 * irdma_sim_tcp_release() - close the QP's socket
 * @iw: engine; its work is not running
 * @abort: send a RST (SO_LINGER 0) instead of closing normally
 *
 * A connection whose close is over leaves no TIME_WAIT entry in the
 * host's tables (irdma_sim_tcp_evict_tw()).
 */
void irdma_sim_tcp_release(struct irdma_sim_iw *iw, bool abort)
{
	struct irdma_sim *sim = iw->sim;
	struct socket *sock = iw->sock;
	struct linger l = { .l_onoff = 1, .l_linger = 0 };
	unsigned long flags;

	if (iw->lpb_sock) {
		/* still in repair mode: it goes without a segment */
		sock = iw->lpb_sock;
		spin_lock_irqsave(&sim->lock, flags);
		iw->lpb_sock = NULL;
		spin_unlock_irqrestore(&sim->lock, flags);
		irdma_sim_tcp_unhook(sock);
		sock_release(sock);
		return;
	}
	if (!sock)
		return;
	irdma_sim_tcp_count(iw);
	irdma_sim_tcp_unhook(sock);
	if (abort)
		irdma_sim_tcp_setopt(sock, SOL_SOCKET, SO_LINGER, &l, sizeof(l));
	/*
	 * A socket whose close handshake is over (the driver may reset the
	 * QP after it) left its TIME_WAIT entry behind, on the side that
	 * closed first: an offloaded connection leaves none.
	 */
	if (READ_ONCE(sock->sk->sk_state) == TCP_CLOSE)
		irdma_sim_tcp_evict_tw(sock_net(sock->sk), iw);
	spin_lock_irqsave(&sim->lock, flags);
	iw->sock = NULL;
	iw->ready = false;
	iw->rst_sent = abort;
	spin_unlock_irqrestore(&sim->lock, flags);
	sock_release(sock);
}

/**
 * irdma_sim_tcp_shutdown() - send FIN
 * @iw: engine with a socket
 */
void irdma_sim_tcp_shutdown(struct irdma_sim_iw *iw)
{
	kernel_sock_shutdown(iw->sock, SHUT_WR);
}

/**
 * irdma_sim_tcp_send() - give bytes to the socket without blocking
 * @iw: engine with a socket
 * @buf: bytes
 * @len: count
 * @eor: the bytes end a record (MSG_EOR): TCP puts no later byte into
 *	their last segment, nor merges it with the next one when it
 *	retransmits, so the next record starts a segment.  Without it TCP
 *	may put later bytes into the same buffer, which it cuts into
 *	segments of the MSS only when it sends.
 *
 * Return: bytes taken, -EAGAIN, or another negative errno.
 */
int irdma_sim_tcp_send(struct irdma_sim_iw *iw, const void *buf, u32 len,
		       bool eor)
{
	struct msghdr msg = {
		.msg_flags = MSG_DONTWAIT | MSG_NOSIGNAL | (eor ? MSG_EOR : 0),
	};
	struct kvec v = { .iov_base = (void *)buf, .iov_len = len };

	return kernel_sendmsg(iw->sock, &msg, &v, 1, len);
}

/**
 * irdma_sim_tcp_mss() - the payload one TCP segment of the connection carries
 * @iw: engine with a socket
 *
 * The MSS less the options every segment has (timestamps), as the
 * adapter sizes its FPDUs from the effective MSS.  Read without the
 * socket lock: a change of path MTU shows in the next FPDU.
 *
 * Return: bytes.
 */
u32 irdma_sim_tcp_mss(struct irdma_sim_iw *iw)
{
	return READ_ONCE(tcp_sk(iw->sock->sk)->mss_cache);
}

/**
 * irdma_sim_tcp_wnd_room() - bytes the peer's window takes beyond those
 * the socket already holds
 * @iw: engine with a socket
 *
 * Read without the socket lock: the peer's window only moves forward,
 * and only the engine, which calls this, adds bytes.  TCP sends a buffer
 * of several segments that the window cuts short up to the window's
 * edge, mid-segment (the connection has no Nagle); bytes queued within
 * this room are never cut that way.
 *
 * Return: bytes, 0 when the window is full.
 */
u32 irdma_sim_tcp_wnd_room(struct irdma_sim_iw *iw)
{
	const struct tcp_sock *tp = tcp_sk(iw->sock->sk);
	s32 room = READ_ONCE(tp->snd_una) + READ_ONCE(tp->snd_wnd) -
		   READ_ONCE(tp->write_seq);

	return max(room, 0);
}

/**
 * irdma_sim_tcp_recv() - take bytes from the socket without blocking
 * @iw: engine with a socket
 * @buf: destination
 * @len: room
 *
 * Return: bytes, 0 at the end of the stream, -EAGAIN, or another
 * negative errno.
 */
int irdma_sim_tcp_recv(struct irdma_sim_iw *iw, void *buf, u32 len)
{
	struct msghdr msg = { .msg_flags = MSG_DONTWAIT | MSG_NOSIGNAL };
	struct kvec v = { .iov_base = buf, .iov_len = len };

	return kernel_recvmsg(iw->sock, &msg, &v, 1, len, MSG_DONTWAIT);
}

/**
 * irdma_sim_tcp_read_actor() - copy bytes of one skb of the receive queue
 * @desc: desc->arg.data: where the next byte goes; desc->count: room left
 * @skb: skb
 * @off: first byte not yet read
 * @len: bytes from @off on
 *
 * Return: bytes copied; 0 when there is no room (tcp_read_sock() stops).
 */
static int irdma_sim_tcp_read_actor(read_descriptor_t *desc,
				    struct sk_buff *skb, unsigned int off,
				    size_t len)
{
	size_t n = min_t(size_t, len, desc->count);

	if (!n || skb_copy_bits(skb, off, desc->arg.data, n))
		return 0;
	desc->arg.data = (u8 *)desc->arg.data + n;
	desc->count -= n;
	return n;
}

/**
 * irdma_sim_tcp_read() - take bytes from the socket in its data_ready
 * callback
 * @iw: engine with a socket
 * @buf: destination
 * @len: room
 *
 * A FIN after the bytes is consumed too: recv() then returns 0, which is
 * how the engine's work item learns of it.
 *
 * Context: the socket's data_ready callback, the socket not owned.
 * Return: bytes, 0 when none wait, or a negative errno.
 */
int irdma_sim_tcp_read(struct irdma_sim_iw *iw, void *buf, u32 len)
{
	read_descriptor_t desc = { .arg.data = buf, .count = len };

	/* the receive queue is ours: the socket's spinlock or its owner */
	sock_owned_by_me(iw->sock->sk);
	return tcp_read_sock(iw->sock->sk, &desc, irdma_sim_tcp_read_actor);
}

/**
 * irdma_sim_tcp_fin_closed() - the peer's FIN, not a reset, closed the socket
 * @iw: engine with a socket in TCP_CLOSE
 * @drained: set when nothing is left in the receive queue
 *
 * A socket that takes the peer's FIN in FIN_WAIT_2 is in TCP_CLOSE at
 * once (its TIME_WAIT lives on in a timewait socket), as one that takes a
 * reset is; the FIN leaves the receive side shut down without an error.
 *
 * Return: true if the socket was closed by the peer's FIN.
 */
bool irdma_sim_tcp_fin_closed(struct irdma_sim_iw *iw, bool *drained)
{
	struct sock *sk = iw->sock->sk;

	*drained = skb_queue_empty_lockless(&sk->sk_receive_queue);
	return (READ_ONCE(sk->sk_shutdown) & RCV_SHUTDOWN) &&
	       !READ_ONCE(sk->sk_err);
}

/**
 * irdma_sim_tcp_state() - the socket's TCP state in the adapter's encoding
 * @iw: engine with a socket
 *
 * Return: IRDMA_TCPS_*.
 */
u8 irdma_sim_tcp_state(struct irdma_sim_iw *iw)
{
	switch (READ_ONCE(iw->sock->sk->sk_state)) {
	case TCP_ESTABLISHED:
		return IRDMA_TCPS_ESTABLISHED;
	case TCP_SYN_SENT:
		return IRDMA_TCPS_SYN_SENT;
	case TCP_SYN_RECV:
		return IRDMA_TCPS_SYN_RECEIVED;
	case TCP_FIN_WAIT1:
		return IRDMA_TCPS_FIN_WAIT_1;
	case TCP_FIN_WAIT2:
		return IRDMA_TCPS_FIN_WAIT_2;
	case TCP_TIME_WAIT:
		return IRDMA_TCPS_TIME_WAIT;
	case TCP_CLOSE_WAIT:
		return IRDMA_TCPS_CLOSE_WAIT;
	case TCP_LAST_ACK:
		return IRDMA_TCPS_LAST_ACK;
	case TCP_LISTEN:
		return IRDMA_TCPS_LISTEN;
	case TCP_CLOSING:
		return IRDMA_TCPS_CLOSING;
	default:
		return IRDMA_TCPS_CLOSED;
	}
}
