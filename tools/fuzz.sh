#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# libFuzzer (clang, ASan + UBSan) over the connection manager's wire
# parsing: ILQ segment parser, TCP options, window checks, MPA frames and
# the RFC 6581 negotiation.  The real cm.c is compiled in user space
# (IRDMA_CM_WIRE_ONLY) against tests/fuzz/include.
#
#   tools/fuzz.sh            10 minutes (make fuzz)
#   tools/fuzz.sh --smoke    30 s (make check: some 9 million inputs)
#   tools/fuzz.sh --time N   N seconds
#
# Seeds: tests/fuzz/corpus (committed).  New inputs and crash artifacts go
# to tests/fuzz/out.  Prints "PASS: fuzz.cm_parse (N execs)" or
# "FAIL: fuzz.cm_parse: reason"; exit status 0 on PASS.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
fz=$here/../tests/fuzz
out=$fz/out
secs=600
while [ $# -gt 0 ]; do
	case "$1" in
	--smoke) secs=30 ;;
	--time) secs=$2; shift ;;
	-h|--help) sed -n '2,16p' "$0"; exit 0 ;;
	*) echo "fuzz.sh: unknown argument $1" >&2; exit 2 ;;
	esac
	shift
done

if ! command -v clang >/dev/null; then
	echo "FAIL: fuzz.cm_parse: clang not installed (make deps)"
	exit 1
fi
mkdir -p "$out/corpus" "$out/artifacts"
bin=$out/cm_parse_fuzz
if ! clang -g -O1 -fsanitize=fuzzer,address,undefined \
	-fno-sanitize-recover=undefined -DIRDMA_CM_WIRE_ONLY \
	-Wall -Wno-unused-function -I "$fz/include" \
	"$fz/cm_parse_fuzz.c" -o "$bin" 2>"$out/build.log"; then
	echo "FAIL: fuzz.cm_parse: build failed (see $out/build.log)"
	exit 1
fi

rm -f "$out"/artifacts/crash-* "$out"/artifacts/leak-* "$out"/artifacts/timeout-* \
	"$out"/artifacts/oom-*
log=$out/fuzz.log
set +e
nice "$bin" -max_total_time="$secs" -print_final_stats=1 -timeout=10 \
	-rss_limit_mb=2048 -artifact_prefix="$out/artifacts/" \
	"$out/corpus" "$fz/corpus" >"$log" 2>&1
rc=$?
set -e
execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n1)
crashes=$(find "$out/artifacts" -type f | wc -l)
if [ "$rc" -ne 0 ] || [ "$crashes" -ne 0 ]; then
	echo "FAIL: fuzz.cm_parse: exit $rc, $crashes artifact(s) in $out/artifacts (log $log)"
	exit 1
fi
echo "PASS: fuzz.cm_parse (${execs:-0} execs)"
