# Lab 06 links NCCL where its header is found (NCCL_HOME, else the CUDA toolkit, else the
# system's: Debian's and Ubuntu's libnccl-dev put it under /usr), and builds
# without it otherwise (or with LAB06_NCCL=no): the program then says NCCL was missing at build
# time and measures the rest.
LAB06_NCCL ?= auto
LAB06_NCCL_HOME := $(if $(filter no,$(LAB06_NCCL)),,$(firstword $(foreach d,$(NCCL_HOME) $(CUDA_HOME) /usr,$(if $(wildcard $(d)/include/nccl.h),$(d)))))
ifneq ($(LAB06_NCCL_HOME),)
LAB_CFLAGS_06-ipc-allreduce := -DLAB06_HAVE_NCCL -isystem $(LAB06_NCCL_HOME)/include
LAB_LDLIBS_06-ipc-allreduce := -L$(LAB06_NCCL_HOME)/lib64 -L$(LAB06_NCCL_HOME)/lib \
                               -L$(LAB06_NCCL_HOME)/lib/x86_64-linux-gnu -lnccl \
                               -Xlinker -rpath=$(LAB06_NCCL_HOME)/lib64
endif

# What make doctor says of this lab's build, under "Labs on this machine".
LAB06_NCCL_VERSION := $(if $(LAB06_NCCL_HOME),$(shell sed -nE 's/^\#define NCCL_(MAJOR|MINOR|PATCH) +([0-9]+).*/\2/p' $(LAB06_NCCL_HOME)/include/nccl.h | paste -sd.))
LAB_DOCTOR_06-ipc-allreduce := $(if $(LAB06_NCCL_HOME),NCCL $(LAB06_NCCL_VERSION) (header in $(LAB06_NCCL_HOME)/include): ncclAllReduce runs beside the hand-written all-reduce where each rank has a GPU of its own,$(if $(filter no,$(LAB06_NCCL)),NCCL left out (LAB06_NCCL=no),NCCL not found (looked in NCCL_HOME$(comma) $(CUDA_HOME) and /usr): the lab builds without it and says so; install libnccl-dev or set NCCL_HOME))
