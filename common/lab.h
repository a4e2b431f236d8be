/**
 * @file lab.h
 * @brief Everything a lab program includes: the course's common library.
 *
 * The library is small on purpose. Each header has one job:
 * - lab_exit.h   exit codes (0 ok, 1 failed, 2 usage, 77 skipped)
 * - cuda_check.h CUDA_CHECK and friends
 * - todo.h       LAB_TODO, the marker of an unfinished exercise step
 * - devices.h    GPU count, P2P matrix, choosing a pair, enabling access
 * - cli.h        sizes with units, integers, usage errors
 * - stats.h      median, min and max of repeated measurements
 * - data.h       seeded test data and verification
 * - timing.h     event timers, host clock, GB/s
 * - outfile.h    result files written whole or not at all
 */
#ifndef LAB_H
#define LAB_H

#include "claims.h"
#include "cli.h"
#include "cuda_check.h"
#include "data.h"
#include "devices.h"
#include "gate.h"
#include "hostmem.h"
#include "lab_exit.h"
#include "outfile.h"
#include "registry.h"
#include "repeat.h"
#include "route.h"
#include "rows.h"
#include "stats.h"
#include "timing.h"
#include "todo.h"

#endif /* LAB_H */
