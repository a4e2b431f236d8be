/**
 * @file lab.h
 * @brief Everything a lab program includes: the course's common library.
 *
 * The library is small on purpose: each header below has one job, named in
 * its own first comment.
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
