# SPDX-License-Identifier: GPL-2.0
#
# Out-of-tree build and the project's developer targets.  The Kbuild rules
# themselves are in Kbuild (read by kbuild both in and out of tree).
#
#   make            build irdma.ko and sim/irdma_sim.ko for Debian 12's kernel
#   make install    install them under /lib/modules/KVER/updates, run depmod;
#                   the manual pages Documentation/man4/*.4 to /usr/share/man/man4
#   make uninstall  remove what make install installed, run depmod
#   make dkms-install  the source to /usr/src/irdma-VERSION, dkms add, build
#                   and install for KVER (dkms rebuilds for later kernels);
#                   replaces make install's modules; the manual pages
#   make dkms-remove   dkms remove every version of irdma, its source and
#                   the manual pages
#   make demo       set everything up, boot the test VM, show irdma next to siw
#   make check      every test; ends with "N passed, N failed, N skipped"
#   make static     W=1, sparse, checkpatch --strict, kernel-doc
#   make kunit      KUnit suites in a debug kernel (cached under CACHE)
#   make fuzz       libFuzzer over the CM's MPA and TCP parsers
#   make vmtest     the VM integration tests only
#   make bench      the benchmark against siw (MPA CRC required) in one VM
#                   run: a table of ratios; BENCH_ARGS="--runs 2" etc.
#   make man        section 9 pages of every documented function
#   make fresh      make demo in a new minimal Debian 12 root (mmdebstrap)
#
# The target kernel is the one linux-image-amd64 depends on, not the
# running kernel: the build host is not the target.

CACHE ?= /var/cache/irdma
TOOLS := $(CURDIR)/tools
# The version is dkms.conf's PACKAGE_VERSION, its only home.
IRDMA_VERSION := $(shell sed -n 's/^PACKAGE_VERSION="\([^"]*\)".*/\1/p' $(CURDIR)/dkms.conf)
# A DKMS copy of the tree has no tools/kver.sh: dkms passes KVER and KDIR.
ifneq ($(wildcard $(TOOLS)/kver.sh),)
KVER ?= $(shell $(TOOLS)/kver.sh)
LINUX_SRC ?= $(shell $(TOOLS)/linux-src.sh --path)
endif
KDIR ?= /usr/src/linux-headers-$(KVER)
MODDIR = /lib/modules/$(KVER)
MAN4DIR ?= /usr/share/man/man4
MAN4 = $(wildcard Documentation/man4/*.4)
DKMS_SRC ?= /usr/src/irdma-$(IRDMA_VERSION)
# what a DKMS build needs: no tools/ but dkms-ice.sh, no tests/
DKMS_FILES = dkms.conf Makefile Kbuild Kconfig tools/dkms-ice.sh sim/Kbuild \
	$(filter-out %.mod.c,$(wildcard *.c *.h sim/*.c sim/*.h))

KBUILD_ARGS := -C $(KDIR) M=$(CURDIR) IRDMA_OOT=1 \
	CONFIG_INFINIBAND_IRDMA=m CONFIG_IRDMA_SIM=m \
	CONFIG_IRDMA_ICE=y CONFIG_IRDMA_I40E=y \
	IRDMA_ICE_SRC=$(LINUX_SRC)/drivers/net/ethernet/intel/ice

export CACHE KVER KDIR LINUX_SRC

.PHONY: all modules install uninstall dkms-install dkms-remove dkms-src dkms-modules \
	deps demo check static kunit mutate fuzz vmtest bench siw man fresh clean

all: modules

modules:
	@test -d "$(KDIR)" || { echo "no kernel headers at $(KDIR): run 'make deps'" >&2; exit 1; }
	@test -d "$(LINUX_SRC)" || $(TOOLS)/linux-src.sh
	$(MAKE) $(KBUILD_ARGS) modules

# what make install puts under MODDIR (modules_install keeps the path below M=)
INSTALLED = $(MODDIR)/updates/irdma.ko $(MODDIR)/updates/sim/irdma_sim.ko

# Beside a DKMS install, depmod would rank the two copies in updates/ the
# same and pick one by directory order: one install at a time.  Debian's
# headers ask modules_install to sign with the kernel's build key, which
# they do not ship (SSL errors, no signature): not asked here; see
# Documentation/irdma.rst for signing.
install: modules
	@if ls $(MODDIR)/updates/dkms/irdma.ko* >/dev/null 2>&1; then \
		echo "irdma is installed through dkms for $(KVER): make dkms-remove first" >&2; \
		exit 1; \
	fi
	$(MAKE) $(KBUILD_ARGS) INSTALL_MOD_DIR=updates INSTALL_MOD_STRIP=1 CONFIG_MODULE_SIG_ALL= modules_install
	depmod -a $(KVER)
	$(install_man)

uninstall:
	rm -f $(INSTALLED)
	rmdir $(MODDIR)/updates/sim $(MODDIR)/updates 2>/dev/null || true
	depmod -a $(KVER)
	$(uninstall_man)

# the manual pages, for both kinds of install (none yet: nothing to do)
install_man = $(if $(MAN4),install -d $(MAN4DIR) && install -m 644 $(MAN4) $(MAN4DIR)/)
uninstall_man = $(if $(MAN4),rm -f $(addprefix $(MAN4DIR)/,$(notdir $(MAN4))))

# every version of irdma that dkms knows, removed with its source
define dkms_remove_all
	@command -v dkms >/dev/null || { echo "dkms is not installed (make deps)" >&2; exit 1; }
	@for v in $$(dkms status irdma 2>/dev/null | sed -n 's|^irdma/\([^,:]*\)[,:].*|\1|p' | sort -u); do \
		echo "dkms remove irdma/$$v --all"; \
		dkms remove "irdma/$$v" --all && rm -rf "/usr/src/irdma-$$v" || exit 1; \
	done
endef

dkms-install:
	@test -d "$(KDIR)" || { echo "no kernel headers at $(KDIR): run 'make deps'" >&2; exit 1; }
	$(dkms_remove_all)
	rm -f $(INSTALLED)
	rmdir $(MODDIR)/updates/sim 2>/dev/null || true
	$(MAKE) dkms-src
	dkms add irdma/$(IRDMA_VERSION)
	dkms build irdma/$(IRDMA_VERSION) -k $(KVER)
	dkms install irdma/$(IRDMA_VERSION) -k $(KVER)
	$(install_man)

dkms-remove:
	$(dkms_remove_all)
	rm -rf $(DKMS_SRC)
	$(uninstall_man)

# DKMS_FILES into DKMS_SRC (dkms-install; tools/vm/dkms.sh for the VM test)
dkms-src:
	rm -rf $(DKMS_SRC)
	mkdir -p $(DKMS_SRC)
	cp --parents $(DKMS_FILES) $(DKMS_SRC)/

# The build dkms runs (dkms.conf's MAKE) in its copy of the tree, for KVER
# against KDIR.  The E810 binding is built only against ice headers that
# match KVER (tools/dkms-ice.sh), or those of IRDMA_ICE_SRC when given.
dkms-modules:
	@test -n "$(KVER)" || { echo "dkms-modules: KVER is not set" >&2; exit 1; }
	@set -e; ice="$(IRDMA_ICE_SRC)"; \
	[ -n "$$ice" ] || ice=$$($(TOOLS)/dkms-ice.sh "$(KVER)" "$(CURDIR)/.ice"); \
	[ -z "$$ice" ] || set -- CONFIG_IRDMA_ICE=y IRDMA_ICE_SRC="$$ice"; \
	echo "make -C $(KDIR) M=$(CURDIR) IRDMA_OOT=1 CONFIG_INFINIBAND_IRDMA=m CONFIG_IRDMA_SIM=m CONFIG_IRDMA_I40E=y $$* modules"; \
	$(MAKE) -C "$(KDIR)" M="$(CURDIR)" IRDMA_OOT=1 CONFIG_INFINIBAND_IRDMA=m \
		CONFIG_IRDMA_SIM=m CONFIG_IRDMA_I40E=y "$$@" modules

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

bench: deps
	$(TOOLS)/bench.sh $(BENCH_ARGS)

siw:
	$(TOOLS)/siw.sh

fresh:
	$(TOOLS)/fresh.sh demo

man:
	@test -d "$(LINUX_SRC)" || $(TOOLS)/linux-src.sh
	rm -rf Documentation/man && mkdir -p Documentation/man
	for f in $$(git ls-files '*.c' | grep -v -e '^tools/' -e '^tests/'); do \
		$(LINUX_SRC)/scripts/kernel-doc -man $$f | \
			perl $(LINUX_SRC)/scripts/split-man.pl Documentation/man; \
	done
	@echo "$$(ls Documentation/man | wc -l) pages in Documentation/man"

clean:
	$(MAKE) -C $(KDIR) M=$(CURDIR) IRDMA_OOT=1 clean
	rm -rf tests/fuzz/out .ice
