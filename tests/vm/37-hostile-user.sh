#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# timeout: 600
#
# An unprivileged user (uid 65534, memlock raised: every local user may
# open the uverbs and rdma_cm nodes) attacks the model while root's traffic
# runs between irdma0 (netns a) and irdma1 (netns b):
#   - the bystander: rping rounds of 100 verified pings each (-V), client
#     in a, server in b, for the whole attack, and one ib_write_bw -R;
#   - "rdma resource" as that user shows no STag, lkey or rkey;
#   - db_abuse: stores 0, the bystanders' QP and CQ ids and random words
#     into the user's doorbell page of each device, and reads it back
#     (it must read 0);
#   - ring_fuzz, three seeds (HOSTILE_SEEDS, default "1 2 3"; the debug
#     kernel's lean run takes one): random and mutated WQEs written straight
#     into the user's own SQ, RQ and shadow areas of a loopback connection
#     on irdma0, and rung; it must make progress (completions, and
#     errors that end connections);
#   - ring_fuzz -x rts_ae and -x stream: 32 GEN_RTS_AE WQEs, or a
#     stream-mode Send, in a user's SQ end the connection, the peer
#     receives nothing, and the connection raises at most eight AEs, none
#     of them dropped by the QP's AE bound.
# Every bystander round must pass, the ib_write_bw run must end well, and
# afterwards the devices go, the modules unload and the kernel log is
# clean.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
P=hostile-user
NOBODY=65534

t_require "$P/tools" rdma rping ib_write_bw setpriv prlimit || t_exit
t_need_ours "$P" irdma irdma_sim
t_need_progs "$P/progs" ring_fuzz db_abuse
t_iw_setup "$P"
if ! t_check "$P/link-add-irdma1" t_in "$T_NS_B" rdma link add irdma1 type irdma_sim netdev "$T_IF_B"; then
	t_exit
fi
t_defer rdma link delete irdma1
t_in "$T_NS_A" ping -c 1 -W 5 "$T_IP_B" >/dev/null 2>&1

# as NS CMD...: CMD in netns NS as the unprivileged user, memlock raised
as() {
	local ns=$1
	shift
	ip netns exec "$ns" prlimit --memlock=unlimited:unlimited \
		setpriv --reuid "$NOBODY" --regid "$NOBODY" --clear-groups -- "$@"
}

# --- the bystander ------------------------------------------------------------
stop=$T_WORK/stop
# bystander: rping rounds until $stop exists; one line per round
bystander() {
	local i=0 out rc spid
	while [ ! -e "$stop" ]; do
		i=$((i + 1))
		ip netns exec "$T_NS_B" timeout 120 rping -s -a "$T_IP_B" -p 7300 -C 100 -V >"$T_WORK/rs.$i" 2>&1 &
		spid=$!
		if ! t_wait 10 t_rdma_listening 7300; then
			echo "round $i: the rping server does not listen"
			kill "$spid" 2>/dev/null
			wait "$spid"
			continue
		fi
		rc=0
		out=$(t_in "$T_NS_A" timeout 120 rping -c -a "$T_IP_B" -p 7300 -C 100 -V -v 2>&1) || rc=$?
		t_wait 10 eval "! kill -0 $spid" || kill "$spid" 2>/dev/null
		wait "$spid"
		echo "round $i: client exit $rc, $(grep -c 'ping data' <<<"$out") verified pings"
	done
}
bystander >"$T_WORK/bystander" 2>&1 &
bpid=$!
t_defer kill "$bpid"
t_wait 30 grep -q '^round 1:' "$T_WORK/bystander" ||
	t_log "no bystander round ended within 30 s"

# --- what an unprivileged user sees ---------------------------------------------
# bystander_res KIND: "rdma resource show KIND" as the unprivileged user,
# once the bystander's objects are in it (its rounds come and go)
bystander_res() {
	local i out
	for i in $(seq 50); do
		out=$(as "$T_NS_A" rdma -dd resource show "$1" 2>&1)
		grep -q 'comm rping' <<<"$out" && break
		sleep 0.2
	done
	echo "$out"
}
res=$(bystander_res mr)
if ! grep -q 'comm rping' <<<"$res"; then
	t_fail "$P/resource-keys" "uid $NOBODY never saw the bystander's MRs: $(head -n 3 <<<"$res")"
elif grep -Eq '(stag|rkey|lkey) ' <<<"$res"; then
	t_fail "$P/resource-keys" "uid $NOBODY sees keys: $(grep -Eo '(stag|rkey|lkey) [^ ]+' <<<"$res" | head -n 3 | tr '\n' ' ')"
else
	t_pass "$P/resource-keys"
fi
t_indent <<<"$(grep 'comm rping' <<<"$res" | head -n 2)"

# the bystanders' QP and CQ ids, which the attacker can read as well
ids=$(bystander_res qp | sed -n 's/.* lqpn \([0-9]*\) .*comm rping.*/\1/p' | sort -u | tr '\n' ' ')
ids+=$(bystander_res cq | sed -n 's/.* cqn \([0-9]*\) .*comm rping.*/\1/p' | sort -u | tr '\n' ' ')
t_log "bystander ids: ${ids:-none seen}"

# --- the attacks ------------------------------------------------------------------
dbg=$(t_sim_dbg)
for dev in irdma0 irdma1; do
	# shellcheck disable=SC2086 # $ids: separate arguments
	as "$T_NS_A" "$T_PROGS/db_abuse" -d "$dev" -t 40 $ids >"$T_WORK/abuse.$dev" 2>&1 &
done

# one bandwidth run of root's beside the abuse
perf_rc=0
ip netns exec "$T_NS_B" timeout 90 ib_write_bw -R -F -d irdma1 -s 65536 -n 200 >"$T_WORK/bw-srv" 2>&1 &
bwpid=$!
if t_wait 10 t_listen_ready "$T_NS_B" 18515 irdma1; then
	t_syn_delay "$T_NS_A" "$T_IF_A" "$T_SYN_DELAY_MS"
	t_in "$T_NS_A" timeout 80 ib_write_bw -R -F -d irdma0 -s 65536 -n 200 "$T_IP_B" >"$T_WORK/bw-cli" 2>&1 || perf_rc=$?
	t_syn_delay "$T_NS_A" "$T_IF_A" 0
else
	perf_rc=1
	t_log "the ib_write_bw server does not listen"
fi
wait "$bwpid" || perf_rc=$?
bw=$(awk '$1 == 65536 && NF >= 5 { print $4 }' "$T_WORK/bw-cli" | tail -n 1)
if [ "$perf_rc" -eq 0 ] && [ -n "$bw" ]; then
	t_pass "$P/bystander-ib_write_bw"
	t_log "ib_write_bw beside the abuse: $bw MB/s"
else
	t_indent <"$T_WORK/bw-cli"
	t_fail "$P/bystander-ib_write_bw" "exit $perf_rc, result '${bw:-none}'"
fi

for seed in ${HOSTILE_SEEDS:-1 2 3}; do
	if t_run_bounded 150 "$T_WORK/fuzz" as "$T_NS_A" "$T_PROGS/ring_fuzz" \
		-a "$T_IP_A" -p $((7310 + seed)) -s "$seed" -n 1500 -t 120; then
		t_pass "$P/ring-fuzz-$seed"
	else
		t_fail "$P/ring-fuzz-$seed" "ring_fuzz exited $?"
	fi
	t_indent <"$T_WORK/fuzz"
done

# aes: the model's AEQEs posted so far; qp_drops: those a QP lost to its bound
aes() { sed -n 's/^aeqes //p' "$dbg/stats"; }
qp_drops() { sed -n 's/^aeqe_qp_drops //p' "$dbg/stats"; }
for x in rts_ae stream; do
	before=$(aes) drops=$(qp_drops)
	if out=$(as "$T_NS_A" timeout 60 "$T_PROGS/ring_fuzz" -a "$T_IP_A" -p 7320 -x "$x" 2>&1); then
		t_pass "$P/$x-refused"
	else
		t_fail "$P/$x-refused" "$(tail -n 1 <<<"$out")"
	fi
	t_indent <<<"$out"
	# the connection's own: established on both ends, the error, the
	# close of each end; a flood would be far more
	n=$(($(aes) - before)) d=$(($(qp_drops) - drops))
	if [ "$n" -le 8 ] && [ "$d" -eq 0 ]; then
		t_pass "$P/$x-aes-bounded"
	else
		t_fail "$P/$x-aes-bounded" "$n AEs for one connection, $d more dropped by the QP's bound"
	fi
done

# shellcheck disable=SC2317 # called through t_wait
wait_abuse() {
	local dev ok=1
	for dev in irdma0 irdma1; do
		grep -q '^db_abuse: [0-9]* stores, 0 reads not 0' "$T_WORK/abuse.$dev" || ok=0
	done
	[ "$ok" = 1 ]
}
if t_wait 60 wait_abuse; then
	t_pass "$P/doorbell-abuse"
else
	t_fail "$P/doorbell-abuse" "$(cat "$T_WORK"/abuse.* | tr '\n' ' ')"
fi
touch "$stop"
t_wait 150 eval "! kill -0 $bpid"
t_indent <"$T_WORK/bystander"
rounds=$(grep -c '^round' "$T_WORK/bystander")
bad=$(grep '^round' "$T_WORK/bystander" | grep -vc 'client exit 0, 100 verified pings')
if [ "$rounds" -ge 2 ] && [ "$bad" -eq 0 ]; then
	t_pass "$P/bystander-rping"
else
	t_fail "$P/bystander-rping" "$bad of $rounds rping rounds did not verify all 100 pings"
fi

t_check "$P/link-delete" rdma link delete irdma1
t_check "$P/link-delete-irdma0" rdma link delete irdma0
t_check "$P/modprobe-r" modprobe -r irdma_sim irdma
t_dmesg_check "$P/dmesg"
t_exit
