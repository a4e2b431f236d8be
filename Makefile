# CUDA P2P lab course: one non-recursive Makefile for every lab.
#
# Labs are found from their folders: labs/NN-name holds the handout and the
# skeleton, solutions/NN-name the reference solution (the master text the
# skeleton is generated from). Adding a lab needs no edit here.
#
# Build output goes to $(BUILD): $(BUILD)/ref/bin/NN-name is the reference
# program, $(BUILD)/student/bin/NN-name the student's.
#
# `make help` lists the targets and the variables you may set.

SHELL := /bin/bash
.DEFAULT_GOAL := all
.DELETE_ON_ERROR:
.SUFFIXES:

# ---------------------------------------------------------------- settings --
NVCC_FOUND := $(shell command -v nvcc 2>/dev/null || ls /usr/local/cuda/bin/nvcc 2>/dev/null)
CUDA_HOME ?= $(if $(NVCC_FOUND),$(patsubst %/bin/nvcc,%,$(NVCC_FOUND)),/usr/local/cuda)
NVCC ?= $(CUDA_HOME)/bin/nvcc
CC := $(if $(filter default,$(origin CC)),gcc,$(CC))
BUILD ?= build
# ccache, where it is installed, answers a compile it has seen before from its cache: the
# tests, make grade and make mistakes build scratch copies of the same files again. Its cache
# is $(BUILD)/ccache unless CCACHE_DIR names another (exported: a scratch copy's make shares
# it); CCACHE= turns it off. -g records the folder a file was compiled in, which ccache would
# otherwise hash: a copy compiles the same file in another folder.
CCACHE ?= $(shell command -v ccache 2>/dev/null)
ifneq ($(CCACHE),)
export CCACHE_DIR ?= $(abspath $(BUILD))/ccache
export CCACHE_NOHASHDIR ?= 1
endif
CCACHE_CC = $(CCACHE) $(CC)
CCACHE_NVCC = $(CCACHE) $(NVCC)
V ?= 0
# SM versions to build for; default: the GPUs present, else Volta..Hopper.
CUDA_ARCH ?= $(shell tools/machine/cuda-arch.sh "$(NVCC)")
# Tests read this: ref (reference solutions) or student (labs/ skeletons).
LAB_BUILD ?= ref

ifeq ($(V),1)
  Q :=
  say = @true
else
  Q := @
  say = @printf '  %-8s %s\n' $(1) $(2)
endif

ARCH_NEWEST := $(lastword $(sort $(CUDA_ARCH)))
GENCODE := $(foreach sm,$(CUDA_ARCH),-gencode arch=compute_$(sm),code=sm_$(sm)) \
           -gencode arch=compute_$(ARCH_NEWEST),code=compute_$(ARCH_NEWEST)

WARN_C := -Wall -Wextra -Wshadow -Wstrict-prototypes -Werror
CFLAGS_ALL := -std=c11 -O2 -g $(WARN_C) -I common -isystem $(CUDA_HOME)/include $(CFLAGS)
NVCCFLAGS_ALL := -std=c++17 -O2 -g -lineinfo $(GENCODE) -Werror all-warnings \
                 -Xcompiler -Wall,-Wextra,-Wshadow -I common $(NVCCFLAGS)
# A skeleton holds stubs by design: a variable that only the solution uses
# must not stop the student's build.
STUDENT_CFLAGS := -Wno-unused-variable -Wno-unused-parameter -Wno-unused-function \
                  -Wno-unused-but-set-variable
empty :=
space := $(empty) $(empty)
comma := ,
STUDENT_NVCCFLAGS := -Xcompiler $(subst $(space),$(comma),$(strip $(STUDENT_CFLAGS))) \
                     -diag-suppress 177,550
LDLIBS_ALL := $(LDLIBS)

# -------------------------------------------------------------- discovery --
# A lab may add its own flags in labs/NN-name/lab.mk: LAB_CFLAGS_NN-name for
# its harness sources and LAB_LDLIBS_NN-name for linking its programs (a
# library it finds at build time, e.g.).
-include $(wildcard labs/[0-9][0-9]-*/lab.mk)
LAB_DIRS := $(sort $(wildcard labs/[0-9][0-9]-*))
LABS := $(notdir $(LAB_DIRS))
HAVE_SOLUTIONS := $(wildcard solutions)
REF_LABS := $(notdir $(sort $(wildcard solutions/[0-9][0-9]-*)))

# ---------------------------------------------------------- common library --
# common/ is one static library; its host-only part (no CUDA) is a second
# one, so that a lab's host tool (verdicts and report from recorded rows)
# builds and runs on a machine without the CUDA runtime.
COMMON_SRCS := $(sort $(wildcard common/*.c common/*.cu))
COMMON_MAINS := common/lab_main.c common/host_tool_main.c
COMMON_HOST_NAMES := claims cli data hostmem options outfile rows stats todo
COMMON_OBJS := $(patsubst common/%,$(BUILD)/common/%.o,$(filter-out $(COMMON_MAINS),$(COMMON_SRCS)))
COMMON_HOST_OBJS := $(foreach n,$(COMMON_HOST_NAMES),$(BUILD)/common/$(n).c.o)
COMMON_LIB := $(BUILD)/common/libcourse.a
COMMON_HOST_LIB := $(BUILD)/common/libcourse-host.a

$(BUILD)/common/%.c.o: common/%.c
	$(call say,CC,$<)
	$(Q)mkdir -p $(@D)
	$(Q)$(CCACHE_CC) $(CFLAGS_ALL) -MMD -MP -c $< -o $@

$(BUILD)/common/%.cu.o: common/%.cu
	$(call say,NVCC,$<)
	$(Q)mkdir -p $(@D)
	$(Q)$(CCACHE_NVCC) $(NVCCFLAGS_ALL) -MMD -MP -c $< -o $@

$(COMMON_LIB): $(COMMON_OBJS)
	$(call say,AR,$@)
	$(Q)rm -f $@ && ar rcs $@ $^

$(COMMON_HOST_LIB): $(COMMON_HOST_OBJS)
	$(call say,AR,$@)
	$(Q)rm -f $@ && ar rcs $@ $^

# ------------------------------------------------------------------- labs --
# A lab is labs/NN-name/: its handouts, claims.tsv, harness/ (experiments,
# claims, report section: the same in every build) and student/ (the
# student's files, generated from solutions/NN-name/ by unifdef). The
# reference program links the harness with solutions/NN-name/, the
# student's program the same harness with $(STUDENT_ROOT)/NN-name/student/.
# The host part (harness/verdicts.c, harness/report.c, harness/plausible.c:
# the rules of the rows) also builds the lab's host tool,
# $(BUILD)/host/NN-name, which needs no GPU.
STUDENT_ROOT ?= labs

# lab_rules(variant, student source dir, lab name, extra C flags, extra nvcc flags)
define lab_rules
$(1)_$(3)_SRCS := $$(sort $$(wildcard $(2)/*.cu $(2)/*.c))
$(1)_$(3)_OBJS := $$(patsubst $(2)/%,$(BUILD)/$(1)/objects/$(3)/%.o,$$($(1)_$(3)_SRCS))
$(1)_BINS += $(BUILD)/$(1)/bin/$(3)

$(BUILD)/$(1)/bin/$(3): $$($(1)_$(3)_OBJS) $$(harness_$(3)_LINK) $(COMMON_LIB)
	$$(call say,LINK,$$@)
	$(Q)mkdir -p $$(@D)
	$(Q)$(NVCC) $(GENCODE) -o $$@ $$^ $(LDLIBS_ALL) $$(LAB_LDLIBS_$(3))

$(BUILD)/$(1)/objects/$(3)/%.cu.o: $(2)/%.cu
	$$(call say,NVCC,$$<)
	$(Q)mkdir -p $$(@D)
	$(Q)$(CCACHE_NVCC) $(NVCCFLAGS_ALL) $(5) $$(harness_$(3)_INC) -I $(2) -MMD -MP -c $$< -o $$@

$(BUILD)/$(1)/objects/$(3)/%.c.o: $(2)/%.c
	$$(call say,CC,$$<)
	$(Q)mkdir -p $$(@D)
	$(Q)$(CCACHE_CC) $(CFLAGS_ALL) $(4) $$(harness_$(3)_INC) -I $(2) -MMD -MP -c $$< -o $$@

$(BUILD)/$(1)/objects-tsan/$(3)/%.c.o: $(2)/%.c
	$$(call say,CC-TSAN,$$<)
	$(Q)mkdir -p $$(@D)
	$(Q)$(CCACHE_CC) $(CFLAGS_ALL) $(TSAN_FLAGS) $(4) $$(harness_$(3)_INC) -I $(2) -MMD -MP -c $$< -o $$@
endef

# harness_rules(lab name): the harness objects, built once for both
# programs, and the lab's host tool.
define harness_rules
harness_$(1)_SRCS := $$(sort $$(wildcard labs/$(1)/harness/*.cu labs/$(1)/harness/*.c))
harness_$(1)_OBJS := $$(patsubst labs/$(1)/harness/%,$(BUILD)/harness/$(1)/%.o,$$(harness_$(1)_SRCS))
harness_$(1)_LINK := $$(harness_$(1)_OBJS) $(BUILD)/common/lab_main.c.o
harness_$(1)_INC := -I labs/$(1)/harness
host_$(1)_OBJS := $$(patsubst labs/$(1)/harness/%,$(BUILD)/harness/$(1)/%.o,$$(wildcard labs/$(1)/harness/verdicts.c labs/$(1)/harness/report.c labs/$(1)/harness/plausible.c))
HOST_TOOLS += $(BUILD)/host/$(1)

$(BUILD)/harness/$(1)/%.cu.o: labs/$(1)/harness/%.cu
	$$(call say,NVCC,$$<)
	$(Q)mkdir -p $$(@D)
	$(Q)$(CCACHE_NVCC) $(NVCCFLAGS_ALL) $$(LAB_CFLAGS_$(1)) -I labs/$(1)/harness -MMD -MP -c $$< -o $$@

$(BUILD)/harness/$(1)/%.c.o: labs/$(1)/harness/%.c
	$$(call say,CC,$$<)
	$(Q)mkdir -p $$(@D)
	$(Q)$(CCACHE_CC) $(CFLAGS_ALL) $$(LAB_CFLAGS_$(1)) -I labs/$(1)/harness -MMD -MP -c $$< -o $$@

$(BUILD)/host/$(1): $$(host_$(1)_OBJS) $(BUILD)/common/host_tool_main.c.o $(COMMON_HOST_LIB)
	$$(call say,LINK,$$@)
	$(Q)mkdir -p $$(@D)
	$(Q)$(CC) -o $$@ $$^ -lm
endef

# unit_rules(variant, lab name, lab number): tests/unit/labNN.c, a test
# driver that calls the student's host functions directly (any machine),
# linked with that build's C objects of the student's files.
define unit_rules
$(1)_UNITS += $(BUILD)/$(1)/unit/$(2)

$(BUILD)/$(1)/unit/$(2): tests/unit/lab$(3).c $$(filter %.c.o,$$($(1)_$(2)_OBJS)) $(COMMON_LIB)
	$$(call say,LINK,$$@)
	$(Q)mkdir -p $$(@D)
	$(Q)mkdir -p $(BUILD)/$(1)/objects/unit
	$(Q)$(CCACHE_CC) $(CFLAGS_ALL) -I labs/$(2)/harness -MMD -MP -MT $$@ -MF $(BUILD)/$(1)/objects/unit/$(2).d \
	    -c $$< -o $(BUILD)/$(1)/objects/unit/$(2).o
	$(Q)$(NVCC) $(GENCODE) -o $$@ $(BUILD)/$(1)/objects/unit/$(2).o $$(filter %.o %.a,$$^) $(LDLIBS_ALL)
endef

# stand_in_rules(variant, lab name, lab number): tests/unit/labNN-stand-in.c,
# cases run against a stand-in for the CUDA runtime (tests/unit/stand_in.h):
# each runtime call the driver defines __wrap_NAME for is wrapped (ld --wrap)
# in the student's objects, so that GPUs that behave the same on every
# machine, with or without a GPU, answer them.
define stand_in_rules
$(1)_UNITS += $(BUILD)/$(1)/stand-in/$(2)

$(BUILD)/$(1)/stand-in/$(2): tests/unit/lab$(3)-stand-in.c $$(filter %.c.o,$$($(1)_$(2)_OBJS)) $(COMMON_LIB)
	$$(call say,LINK,$$@)
	$(Q)mkdir -p $$(@D) $(BUILD)/$(1)/objects/stand-in
	$(Q)$(CCACHE_CC) $(CFLAGS_ALL) -I labs/$(2)/harness -MMD -MP -MT $$@ \
	    -MF $(BUILD)/$(1)/objects/stand-in/$(2).d -c $$< -o $(BUILD)/$(1)/objects/stand-in/$(2).o
	$(Q)$(NVCC) $(GENCODE) -o $$@ $(BUILD)/$(1)/objects/stand-in/$(2).o $$(filter %.o %.a,$$^) \
	    $$$$(nm -g --defined-only $(BUILD)/$(1)/objects/stand-in/$(2).o | \
	         sed -n 's/^[0-9a-fA-F]* T __wrap_/-Xlinker --wrap=/p') $(LDLIBS_ALL)
endef

# threads_rules(variant, lab name, lab number): tests/unit/labNN-threads.c,
# the cases that call the student's host functions from several threads at
# once, built with ThreadSanitizer, the student's C files too, so that a data
# race fails on any number of CPUs, not only when the threads happen to
# interleave (on one CPU they seldom do).
TSAN_FLAGS := -fsanitize=thread
define threads_rules
$(1)_UNITS += $(BUILD)/$(1)/threads/$(2)

$(BUILD)/$(1)/threads/$(2): tests/unit/lab$(3)-threads.c $$(patsubst $(BUILD)/$(1)/objects/%,$(BUILD)/$(1)/objects-tsan/%,$$(filter %.c.o,$$($(1)_$(2)_OBJS))) $(COMMON_LIB)
	$$(call say,LINK,$$@)
	$(Q)mkdir -p $$(@D) $(BUILD)/$(1)/objects-tsan/unit
	$(Q)$(CCACHE_CC) $(CFLAGS_ALL) $(TSAN_FLAGS) -I labs/$(2)/harness -MMD -MP -MT $$@ \
	    -MF $(BUILD)/$(1)/objects-tsan/unit/$(2).d -c $$< -o $(BUILD)/$(1)/objects-tsan/unit/$(2).o
	$(Q)$(NVCC) $(GENCODE) -Xcompiler $(TSAN_FLAGS) -o $$@ $(BUILD)/$(1)/objects-tsan/unit/$(2).o \
	    $$(filter %.o %.a,$$^) $(LDLIBS_ALL)
endef

lab_number = $(firstword $(subst -, ,$(1)))

$(foreach lab,$(LABS),$(eval $(call harness_rules,$(lab))))
$(foreach lab,$(REF_LABS),$(eval $(call lab_rules,ref,solutions/$(lab),$(lab),,)))
$(foreach lab,$(LABS),$(eval $(call lab_rules,student,$(STUDENT_ROOT)/$(lab)/student,$(lab),$(STUDENT_CFLAGS),$(STUDENT_NVCCFLAGS))))
$(foreach v,ref student,$(foreach lab,$(if $(filter ref,$(v)),$(REF_LABS),$(LABS)),$(if $(wildcard tests/unit/lab$(call lab_number,$(lab)).c),$(eval $(call unit_rules,$(v),$(lab),$(call lab_number,$(lab)))))))
$(foreach kind,threads stand-in,$(foreach v,ref student,$(foreach lab,$(if $(filter ref,$(v)),$(REF_LABS),$(LABS)),$(if $(wildcard tests/unit/lab$(call lab_number,$(lab))-$(kind).c),$(eval $(call $(subst -,_,$(kind))_rules,$(v),$(lab),$(call lab_number,$(lab))))))))

# ------------------------------------------------------------------ tools --
# Small host programs the tests and `make doctor` use.
TOOL_BINS := $(BUILD)/tools/gpu-query $(BUILD)/tools/common-probe $(HOST_TOOLS)

$(BUILD)/tools/gpu-query: tools/machine/gpu-query.c $(COMMON_LIB)
	$(call say,LINK,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CCACHE_CC) $(CFLAGS_ALL) -c $< -o $@.o
	$(Q)$(NVCC) $(GENCODE) -o $@ $@.o $(COMMON_LIB)

$(BUILD)/tools/common-probe: tests/probe/common-probe.c $(COMMON_LIB)
	$(call say,LINK,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CCACHE_CC) $(CFLAGS_ALL) -c $< -o $@.o
	$(Q)$(NVCC) $(GENCODE) -o $@ $@.o $(COMMON_LIB)

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)

# ---------------------------------------------------------------- targets --
.PHONY: all reference student tools run test test-student-tree check grade handout mistakes sanitize doctor docs \
        slides skeletons \
        skeletons-check handout-numbers deps clean help

# A student tree (`make handout`) has no solutions/: there every target works
# on the student's files, and the maintainers' targets are not offered.
STUDENT_TREE := $(if $(HAVE_SOLUTIONS),,1)
INSTRUCTOR_ONLY := reference mistakes skeletons skeletons-check handout handout-numbers test-student-tree
RUN_BUILD := $(if $(STUDENT_TREE),student,ref)
# nvbandwidth's binary (make run, test, check, grade): made absolute, as they run it from
# other folders; a bare name is looked up in PATH. A path may have spaces.
ifneq ($(NVBANDWIDTH),)
override NVBANDWIDTH := $(shell p='$(NVBANDWIDTH)'; case "$$p" in (*/*) realpath -m -- "$$p" ;; \
                          (*) command -v -- "$$p" || realpath -m -- "$$p" ;; esac)
export NVBANDWIDTH
endif
# The first recipe line of a maintainers' target: in a student tree, say so.
instructor_only = $(if $(STUDENT_TREE),@echo "make $@: not in the student tree (it needs the reference solutions, which your instructor keeps)" >&2; exit 1)

all: $(if $(STUDENT_TREE),,reference) student tools ## build every program and tool

reference: $(ref_BINS) $(ref_UNITS) ## build the reference solutions only
	$(instructor_only)
student: $(student_BINS) $(student_UNITS) ## build the skeletons in labs/ (your work)
tools: $(TOOL_BINS)

# make deps and make slides also want what rendering the decks needs (a CJK
# font, Chromium, npm); make test asks only for what the tests need.
deps: ## install what the tests and the slides need (apt-get when run as root), or say how
	$(Q)DEPS_SLIDES=$(if $(filter deps slides,$(MAKECMDGOALS)),1,0) tools/machine/ensure-deps.sh

run: $(if $(STUDENT_TREE),student,reference) tools ## run every lab here (reference; in a student tree, yours) and write build/report/
	$(Q)BUILD=$(BUILD) RUN_BUILD=$(RUN_BUILD) REPORT_QUICK=$(REPORT_QUICK) tools/report/run_report.py

# The student tree's check runs the student's suite a second time, inside that tree: it is a
# target of its own (test-student-tree), which CI runs once after make test.
test: deps all ## run the test suite (reference build; in a student tree, yours, unfinished TODOs skipped)
	$(Q)BUILD=$(BUILD) LAB_BUILD=$(RUN_BUILD) LAB_TODO_SKIP=$(STUDENT_TREE) tests/run-bats.sh $(filter-out tests/student-tree.bats,$(wildcard tests/*.bats))

test-student-tree: deps ## make the student tree and run its build, test, check, run and grade there
	$(instructor_only)
	$(Q)BUILD=$(BUILD) tests/run-bats.sh tests/student-tree.bats

# LAB=1, LAB=01 and LAB=01-peer-checks all pick lab 01; its tests run
# against your build (its program and its unit-test driver). The summary
# after them gives each TODO's state: verified here, fails here, not verified
# here (with what this machine lacks) or unfinished; a run in which no test
# of the lab's TODOs ran fails.
LAB_ID := $(firstword $(subst -, ,$(LAB)))
LAB_NN := $(if $(filter 1 2 3 4 5 6 7 8 9,$(LAB_ID)),0$(LAB_ID),$(LAB_ID))
check: deps tools ## check your work on one lab: make check LAB=01
	$(if $(LAB),,$(error say which lab: make check LAB=01 (labs: $(LABS))))
	$(if $(word 2,$(LAB)),$(error make check takes one lab, not '$(LAB)': make check LAB=01 (make grade GRADE_LABS="01 02" scores several)))
	$(if $(wildcard tests/lab$(LAB_NN).bats),,$(error no lab '$(LAB)' (labs: $(LABS))))
	$(Q)$(MAKE) --no-print-directory $(foreach f,$(student_BINS) $(student_UNITS),$(if $(filter $(LAB_NN)-%,$(notdir $(f))),$(f)))
	$(Q)log=$(BUILD)/test-logs/check-$(LAB_NN).tap; rc=0; \
	    BUILD=$(BUILD) LAB_BUILD=student TAP_LOG=$$log tests/run-bats.sh tests/lab$(LAB_NN).bats || rc=$$?; \
	    tools/grading/check-summary.py $(LAB_NN) $$log "$(STUDENT_ROOT)" || rc=1; exit $$rc

# What each lab's lab.mk says of its build on this machine (LAB_DOCTOR_NN-name):
# make doctor prints it under the lab.
lab-doctor-lines:
	@$(foreach lab,$(LABS),$(if $(LAB_DOCTOR_$(lab)),printf '%s\t%s\n' '$(lab)' '$(subst ','\'',$(LAB_DOCTOR_$(lab)))';))true

# doctor builds what it reports on itself (make -k, as far as this machine
# can), so that a missing toolkit is reported rather than stopping make.
doctor: ## what this machine can do: toolchain, GPUs, P2P, runnable labs
	$(Q)+BUILD=$(BUILD) NVCC=$(NVCC) DOCTOR_MAKE="$(MAKE)" DOCTOR_BUILD="tools $(if $(STUDENT_TREE),student,reference)" tools/machine/doctor.sh

grade: tools ## scorecard; junit.xml and results.json (Gradescope) with points in build/grade/ (GRADE_LABS: some labs only)
	$(Q)BUILD="$(BUILD)" GRADE_BUILD="$(GRADE_BUILD)" SUBMISSION="$(SUBMISSION)" GRADE_LABS="$(GRADE_LABS)" tools/grading/grade.sh

handout: ## the student tree without solutions: build/handout/ (folder and tarball)
	$(instructor_only)
	$(Q)BUILD=$(BUILD) tools/authoring/make-handout.sh

mistakes: $(if $(STUDENT_TREE),,reference tools) ## show that the tests catch every planted mistake (tests/mistakes/)
	$(instructor_only)
	$(Q)BUILD=$(BUILD) CUDA_ARCH="$(CUDA_ARCH)" NVCC=$(NVCC) tools/grading/mistakes.sh

sanitize: $(if $(STUDENT_TREE),student,reference) tools ## run every lab (reference; in a student tree, yours) under compute-sanitizer (4 tools)
	$(Q)BUILD=$(BUILD) RUN_BUILD=$(RUN_BUILD) NVCC=$(NVCC) tools/machine/sanitize.sh

# The decks need only the labs' host tools (C, no CUDA): a laptop without the
# toolkit renders them.
slides: deps $(HOST_TOOLS) ## fill the lecture decks in slides/ from the recorded runs and render them to HTML (PDF and PNG pages with Chromium) in build/slides/
	$(Q)BUILD=$(BUILD) tools/slides/slides.sh $(if $(shell command -v chromium || command -v chromium-browser),--png)

# The docs never include solutions/: they may go on the course's site. The
# contract of each student function is in its harness header, which they show.
docs: ## API documentation and handouts as HTML in build/docs/html (Doxygen)
	$(Q)tools/authoring/docs.sh "$(BUILD)/docs"
	@echo "docs: $(BUILD)/docs/html/index.html"

skeletons: ## regenerate labs/ skeletons from solutions/ (never overwrites your edits)
	$(instructor_only)
	$(Q)tools/authoring/skeletons.sh generate

handout-numbers: $(HOST_TOOLS) ## regenerate the handouts' recorded numbers from tests/fixtures/
	$(instructor_only)
	$(Q)BUILD=$(BUILD) tools/authoring/handout-numbers.py

skeletons-check: ## fail when labs/ differs from what the generator makes
	$(instructor_only)
	$(Q)tools/authoring/skeletons.sh check

clean: ## remove build/
	rm -rf $(BUILD)

# In the student tree there is no reference build: its help says whose build runs.
student_tree_words := sed -E 's/\(reference( build)?; in a student tree, yours/(your build/' |
help: ## this list
	@echo "Targets:"
	@grep -hE '^[a-z-]+:.*## ' $(firstword $(MAKEFILE_LIST)) | sed -E 's/^([a-z-]+):.*## (.*)/\1|\2/' | \
	    $(if $(STUDENT_TREE),$(student_tree_words)) \
	    awk -F'|' -v skip=" $(if $(STUDENT_TREE),$(INSTRUCTOR_ONLY)) " 'index(skip, " " $$1 " ") == 0 { printf "  %-16s %s\n", $$1, $$2 }'
	@echo
	@echo "Variables (make VAR=value ...):"
	@echo "  LAB=NN          the lab for 'make check' (labs: $(foreach l,$(LABS),$(firstword $(subst -, ,$(l)))))"
	@echo "  CUDA_HOME       CUDA toolkit folder (now: $(CUDA_HOME))"
	@echo "  NVCC            the CUDA compiler (now: $(NVCC))"
	@echo "  CUDA_ARCH       SM versions to build for (now: $(CUDA_ARCH)); e.g. CUDA_ARCH=90"
	@echo "  BUILD           build folder (now: $(BUILD))"
	@echo "  V=1             print full command lines"
	@echo "  CCACHE=         compile without ccache (now: $(if $(CCACHE),$(CCACHE),not found))"
	@echo "  TEST_JOBS=N     make test runs N test files side by side (default: one per core without a GPU, 1 with one)"
	$(if $(STUDENT_TREE),,@echo "  GRADE_BUILD=ref make grade scores the reference build (it must get full marks)")
	$(if $(STUDENT_TREE),,@echo "  SUBMISSION=DIR  make grade takes only DIR's labs/*/student/ files, beside this tree's harness")
	@echo "  GRADE_LABS=\"01 03\"  make grade grades only those labs"
	$(if $(STUDENT_TREE),,@echo "  MISTAKES=GLOB   make mistakes applies only the patches it matches, e.g. MISTAKES='lab04-*'")
	@echo "  STUDENT_ROOT    where the student's labs/NN-*/student/ folders are (now: $(STUDENT_ROOT))"
	@echo "  REPORT_QUICK=1  make run runs the labs in their quick form (a short report)"
	@echo "  NVBANDWIDTH=PATH  nvbandwidth's binary (v0.8; relative to this folder, or a name in PATH): make run, test, check and grade set lab 05's host link beside it, run here"
	@echo "  CFLAGS, NVCCFLAGS, LDLIBS   extra flags"
