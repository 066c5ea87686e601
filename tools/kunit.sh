#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Run the connection manager's KUnit suites in a debug kernel (KUnit,
# lockdep, atomic-sleep checks, KASAN) built from Debian's linux-source-6.1.
#
#   tools/kunit.sh [--build-only] [GLOB]
#   tools/kunit.sh --build-dir        build, print the build directory
#
# The same kernel is the debug VM's (tools/vm/debug-kernel.sh): the
# configuration, tests/kunit/.kunitconfig, is a superset that the VM can
# boot, so one build serves both.  IRDMA_KUNIT_LOCKED=1 says that the
# caller holds $CACHE/kunit/lock already (taken with flock).
#
# The kernel tree is a hard-linked copy of the extracted source (cheap) with
# this checkout dropped into drivers/infiniband/hw/irdma; the build directory
# is keyed by the source version and a hash of tests/kunit/.kunitconfig,
# both under $CACHE (default /var/cache/irdma), outside the checkout.  Only
# changed files are re-synced, so an edit of cm.c rebuilds one object and
# relinks.
#
# Output: one line per case, "PASS: kunit.<suite>.<case>",
# "FAIL: kunit.<suite>.<case>: reason" or "SKIP: kunit.<suite>.<case>: reason",
# then "PASS: kunit.dmesg" or "FAIL: kunit.dmesg: <first report line>" for
# lockdep, KASAN, WARNING or BUG reports anywhere in the test kernel's log,
# and "PASS: kunit.plan" when every suite and case the KTAP plans announced
# reported (a case cut off by a timeout or a wedged kernel is a FAIL) and
# kunit.py exited 0 (or a case failed).
# Exit status: 0 when everything passed.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)
CACHE=${CACHE:-/var/cache/irdma}
kconf=$root/tests/kunit/.kunitconfig
build_only=0
print_dir=0
glob='irdma*'
for a in "$@"; do
	case "$a" in
	--build-only) build_only=1 ;;
	--build-dir) build_only=1 print_dir=1 ;;
	-h|--help) sed -n '2,27p' "$0"; exit 0 ;;
	*) glob=$a ;;
	esac
done

src=$("$here/linux-src.sh")
ver=$(basename "$(dirname "$src")")
ver=${ver#src-}
hash=$(sha256sum <"$kconf" | cut -c1-12)
base=$CACHE/kunit
tree=$base/tree-$ver
bdir=$base/build-$ver-$hash
log=$base/log-$ver-$hash.txt
mkdir -p "$base"
# one run at a time per cache: the tree and build directory are shared
exec 9>"$base/lock"
if [ "${IRDMA_KUNIT_LOCKED:-0}" != 1 ] && ! flock -w 3600 9; then
	echo "FAIL: kunit.run: could not lock $base/lock"
	exit 1
fi

if [ ! -f "$tree/.irdma-tree" ]; then
	echo "kunit.sh: preparing kernel tree $tree" >&2
	rm -rf "$tree" "$tree.tmp"
	cp -al "$src" "$tree.tmp"
	rm -f "$tree.tmp/.extracted"
	# Descend into irdma/ for the test module even with IRDMA off.  The file
	# is a hard link into the pristine source: replace it, never edit it.
	mk=$tree.tmp/drivers/infiniband/hw/Makefile
	# shellcheck disable=SC2016 # a literal $(...) in the Makefile
	sed 's|^obj-$(CONFIG_INFINIBAND_IRDMA)[[:space:]]*+= irdma/|obj-y += irdma/|' \
		"$mk" >"$mk.new"
	rm -f "$mk"
	mv "$mk.new" "$mk"
	grep -q '^obj-y += irdma/' "$mk" || { echo "kunit.sh: cannot patch $mk" >&2; exit 1; }
	touch "$tree.tmp/.irdma-tree"
	mv "$tree.tmp" "$tree"
fi

# Drop our tree in, keyed by content: a file whose bytes differ from the
# copy there is rewritten (and so gets a new modification time, and make
# rebuilds it); an unchanged file keeps its old time; a file gone from the
# checkout is deleted.  Modification times of the checkout are never used,
# so checking out an older revision still rebuilds what it changed.  The
# directory in the tree is ours alone (the pristine files there were hard
# links, unlinked the first time: rsync writes to a temporary and renames).
dst=$tree/drivers/infiniband/hw/irdma
mkdir -p "$dst"
rsync -r --checksum --delete --no-times --chmod=F644,D755 \
	--exclude=/.git --exclude=/tools --exclude=/.ci --exclude=/Documentation \
	--include=/tests/kunit/ --exclude='/tests/*' \
	--exclude='*.o' --exclude='*.ko' --exclude='*.cmd' --exclude='*.mod*' \
	--exclude='.*.d' --exclude='*.a' --exclude='*.symvers' --exclude='*.order' \
	"$root/" "$dst/"

cd "$tree"
kunit=(python3 tools/testing/kunit/kunit.py)
jobs=$(nproc)

# The build of a cold kernel takes 10-15 minutes: say how far it is once a
# minute (objects compiled so far) rather than staying silent.
blog=$base/build-log-$ver-$hash.txt
nice "${kunit[@]}" build --arch=x86_64 --build_dir="$bdir" \
	--kunitconfig="$kconf" --jobs="$jobs" >"$blog" 2>&1 &
bpid=$!
t0=$(date +%s)
while kill -0 "$bpid" 2>/dev/null; do
	for _ in $(seq 60); do
		kill -0 "$bpid" 2>/dev/null || break
		sleep 1
	done
	kill -0 "$bpid" 2>/dev/null || break
	n=$(find "$bdir" -name '*.o' -newer "$blog" 2>/dev/null | wc -l)
	echo "kunit.sh: building the test kernel: $((($(date +%s) - t0) / 60)) min, $n objects so far" >&2
done
set +e
wait "$bpid"
brc=$?
set -e
if [ "$brc" -ne 0 ]; then
	tail -30 "$blog"
	echo "FAIL: kunit.build: the test kernel did not build (log $blog)"
	exit 1
fi
if [ "$build_only" = 1 ]; then
	[ "$print_dir" = 0 ] || echo "$bdir"
	exit 0
fi

set +e
nice "${kunit[@]}" exec --arch=x86_64 --build_dir="$bdir" --kunitconfig="$kconf" \
	--timeout=900 --raw_output=all "$glob" >"$log" 2>&1
rc=$?
set -e

python3 - "$log" "$rc" <<'PY'
import re, sys
log, rc = sys.argv[1], int(sys.argv[2])
lines = open(log, errors='replace').read().splitlines()
ts = re.compile(r'^\[\s*\d+\.\d+\]\s?')
suite = None
diag = []
rows = []
param_parent = None
n = {'PASS': 0, 'FAIL': 0, 'SKIP': 0}
bad = re.compile(r'(BUG:|WARNING:|possible circular locking|possible recursive locking|'
                 r'inconsistent lock state|DEBUG_LOCKS_WARN_ON|ODEBUG:|UBSAN:|'
                 r'Kernel panic|kernel BUG at|suspicious RCU usage|'
                 r'sleeping function called from invalid context)')
report = None
# the KTAP plans: suites the run announced and ended, cases each suite
# announced and reported (a case cut off by a timeout or a wedged kernel
# is missing from both ends of its plan)
top_plan, suites_done = None, 0
plans, cases = {}, {}
for raw in lines:
    l = ts.sub('', raw.rstrip('\r'))
    if report is None and bad.search(l) and 'EXPECTATION FAILED' not in l:
        report = l.strip()
    m = re.match(r'^1\.\.(\d+)$', l)
    if m and top_plan is None:
        top_plan = int(m.group(1))
        continue
    if re.match(r'^(not )?ok \d+ \S+', l):
        suites_done += 1
        continue
    m = re.match(r'^    1\.\.(\d+)$', l)
    if m and suite:
        plans[suite] = int(m.group(1))
        continue
    m = re.match(r'^    # Subtest: (\S+)', l)
    if m:
        suite = m.group(1)
        cases.setdefault(suite, 0)
        diag = []
        continue
    if re.match(r'^\s+# \S+: (EXPECTATION|ASSERTION) FAILED', l) or \
       re.match(r'^\s+(Expected|but|which|\S+ == )', l):
        diag.append(l.strip().lstrip('# ').strip())
        continue
    m = re.match(r'^        (not )?ok \d+ (\S+)', l)
    if m and suite and param_parent is not None:
        # a row of a parameterised case: reported under the case's name
        rows.append((m.group(1), m.group(2)))
        continue
    m = re.match(r'^        # Subtest: (\S+)', l)
    if m:
        param_parent = m.group(1)
        rows = []
        continue
    m = re.match(r'^    (not )?ok \d+ (\S+)(\s+#\s*(SKIP)\s*(.*))?', l)
    if m and rows:
        for bad_row, row in rows:
            print('%s: kunit.%s.%s.%s' % ('FAIL' if bad_row else 'PASS',
                                          suite, m.group(2), row))
        rows = []
    if m:
        param_parent = None
    if m and suite:
        case = m.group(2)
        cases[suite] = cases.get(suite, 0) + 1
        if m.group(4):
            print('SKIP: kunit.%s.%s: %s' % (suite, case, m.group(5) or 'skipped'))
            n['SKIP'] += 1
        elif m.group(1):
            reason = '; '.join(d for d in diag if d)[:300] or 'failed'
            print('FAIL: kunit.%s.%s: %s' % (suite, case, reason))
            n['FAIL'] += 1
        else:
            print('PASS: kunit.%s.%s' % (suite, case))
            n['PASS'] += 1
        diag = []
table = [re.sub(r'^.*?: table ', '', ts.sub('', x)).strip()
         for x in lines if 'irdma_test_negotiation_table: table ' in x]
if table:
    print('IRD/ORD/RTR negotiation (initiator -> responder), per row:',
          file=sys.stderr)
    for t in table:
        print('  ' + t, file=sys.stderr)
total = sum(n.values())
if total == 0:
    print('FAIL: kunit.run: no test results (kunit.py exit %d, log %s)' % (rc, log))
    sys.exit(1)
plan_bad = []
if top_plan is None or suites_done != top_plan:
    plan_bad.append('%d of %s suites ended' % (suites_done, top_plan))
for s_, want in plans.items():
    if cases.get(s_, 0) != want:
        plan_bad.append('%s: %d of %d cases reported' % (s_, cases.get(s_, 0), want))
for s_ in cases:
    if s_ not in plans:
        plan_bad.append('%s: no plan' % s_)
if plan_bad:
    print('FAIL: kunit.plan: %s (kunit.py exit %d)' % ('; '.join(plan_bad)[:300], rc))
    n['FAIL'] += 1
elif rc != 0 and not n['FAIL']:
    print('FAIL: kunit.run: kunit.py exited %d with every case passed (log %s)' % (rc, log))
    n['FAIL'] += 1
else:
    print('PASS: kunit.plan')
if report:
    print('FAIL: kunit.dmesg: %s' % report)
else:
    print('PASS: kunit.dmesg')
print('kunit: %d passed, %d failed, %d skipped (log %s)' %
      (n['PASS'], n['FAIL'], n['SKIP'], log), file=sys.stderr)
sys.exit(1 if n['FAIL'] or report else 0)
PY
