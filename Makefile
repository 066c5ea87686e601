# SPDX-License-Identifier: GPL-2.0
#
# Out-of-tree build and the project's developer targets.  The Kbuild rules
# themselves are in Kbuild (read by kbuild both in and out of tree).
#
#   make            build irdma.ko and sim/irdma_sim.ko for Debian 12's kernel
#   make install    install them under /lib/modules/KVER/updates, run depmod
#   make demo       set everything up, boot the test VM, show irdma next to siw
#   make check      every test; ends with "N passed, N failed, N skipped"
#   make static     W=1, sparse, checkpatch --strict, kernel-doc
#   make kunit      KUnit suites in a debug kernel (cached under CACHE)
#   make fuzz       libFuzzer over the CM's MPA and TCP parsers
#   make vmtest     the VM integration tests only
#   make man        section 9 pages of every documented function
#   make fresh      make demo in a new minimal Debian 12 root (mmdebstrap)
#
# The target kernel is the one linux-image-amd64 depends on, not the
# running kernel: the build host is not the target.

CACHE ?= /var/cache/irdma
TOOLS := $(CURDIR)/tools
KVER ?= $(shell $(TOOLS)/kver.sh)
KDIR ?= /usr/src/linux-headers-$(KVER)
LINUX_SRC ?= $(shell $(TOOLS)/linux-src.sh --path)

KBUILD_ARGS := -C $(KDIR) M=$(CURDIR) IRDMA_OOT=1 \
	CONFIG_INFINIBAND_IRDMA=m CONFIG_IRDMA_SIM=m \
	CONFIG_IRDMA_ICE=y CONFIG_IRDMA_I40E=y \
	IRDMA_ICE_SRC=$(LINUX_SRC)/drivers/net/ethernet/intel/ice

export CACHE KVER KDIR LINUX_SRC

.PHONY: all modules install deps demo check static kunit mutate fuzz vmtest siw man fresh clean

all: modules

modules:
	@test -d "$(KDIR)" || { echo "no kernel headers at $(KDIR): run 'make deps'" >&2; exit 1; }
	@test -d "$(LINUX_SRC)" || $(TOOLS)/linux-src.sh
	$(MAKE) $(KBUILD_ARGS) modules

install: modules
	$(MAKE) $(KBUILD_ARGS) INSTALL_MOD_DIR=updates INSTALL_MOD_STRIP=1 modules_install
	depmod -a $(KVER)

deps:
	$(TOOLS)/deps.sh

demo: deps
	$(MAKE) modules
	$(TOOLS)/demo.sh

check: deps
	$(TOOLS)/check.sh

static: modules
	$(TOOLS)/static.sh

kunit:
	$(TOOLS)/kunit.sh

# each mutation of tools/mutations.txt must fail a KUnit test (~2 min each)
mutate:
	$(TOOLS)/mutate.sh

fuzz:
	$(TOOLS)/fuzz.sh

vmtest: modules
	$(TOOLS)/vm/tests.sh

siw:
	$(TOOLS)/siw.sh

fresh:
	$(TOOLS)/fresh.sh demo

man:
	@test -d "$(LINUX_SRC)" || $(TOOLS)/linux-src.sh
	rm -rf Documentation/man && mkdir -p Documentation/man
	for f in $$(git ls-files '*.c' | grep -v -e '^tools/' -e '/selftests/'); do \
		$(LINUX_SRC)/scripts/kernel-doc -man $$f | \
			perl $(LINUX_SRC)/scripts/split-man.pl Documentation/man; \
	done
	@echo "$$(ls Documentation/man | wc -l) pages in Documentation/man"

clean:
	$(MAKE) -C $(KDIR) M=$(CURDIR) IRDMA_OOT=1 clean
	rm -rf tools/fuzz/out
