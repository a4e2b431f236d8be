/**
 * @file unit_groups.h
 * @brief The unit-test drivers' one main loop: each TODO's cases are a group, and an argument
 *        (a TODO id) runs only that group, so that each TODO is scored on its own (an
 *        unfinished TODO stops the driver where it is first called).
 */
#ifndef UNIT_GROUPS_H
#define UNIT_GROUPS_H

#include <stdio.h>
#include <string.h>

/** One TODO's cases. */
typedef struct unit_group {
    const char *id;    /**< the TODO id, e.g. "05.1" */
    void (*run)(void); /**< runs its cases */
} unit_group;

/** @brief Run every group, or only the one @p argv[1] names; 0 (after a usage line) if none. */
static inline int unit_run_groups(const unit_group *groups, size_t count, int argc, char **argv)
{
    int ran = 0;
    for (size_t i = 0; i < count; i++)
        if (argc < 2 || strcmp(argv[1], groups[i].id) == 0) {
            groups[i].run();
            ran++;
        }
    if (ran == 0) {
        fprintf(stderr, "usage: %s [", argv[0]);
        for (size_t i = 0; i < count; i++)
            fprintf(stderr, "%s%s", i ? "|" : "", groups[i].id);
        fprintf(stderr, "]\n");
    }
    return ran;
}

#endif
