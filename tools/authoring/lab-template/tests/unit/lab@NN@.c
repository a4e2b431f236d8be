/**
 * @file lab@NN@.c
 * @brief Unit tests of lab @NN@'s student function, on any machine.
 *
 * Prints one line per case ("ok NAME" or "not ok NAME: why") and exits 1
 * when any case failed; `lab@NN@ @NN@.1` runs only TODO @NN@.1's cases.
 */
#define _DEFAULT_SOURCE /* unit_groups.h: fork, waitpid, getline, mmap */
#include "copy_count.h"
#include "unit_groups.h"

#include <stdint.h>
#include <stdio.h>

static int failed;

static void expect(const char *name, size_t count, size_t elem, int want_rc, size_t want)
{
    size_t bytes = 12345;
    unit_case(name);
    int rc = copy_bytes(count, elem, &bytes);
    size_t left = want_rc == 0 ? want : 12345;
    int ok = rc == want_rc && bytes == left;
    printf("%s %s", ok ? "ok" : "not ok", name);
    if (!ok)
        printf(": copy_bytes(%zu, %zu) returned %d with *bytes %zu; expected %d with %zu",
               count, elem, rc, bytes, want_rc, left);
    printf("\n");
    failed |= !ok;
}

/** @brief Every clause of TODO @NN@.1's contract. */
static void todo_1(void)
{
    expect("product", 1000, 4, 0, 4000);
    expect("one_element", 1, 1, 0, 1);
    expect("zero_count", 0, 4, -1, 0);
    expect("zero_elem_size", 4, 0, -1, 0);
    expect("overflow", SIZE_MAX / 2 + 1, 2, -1, 0);
    expect("largest", SIZE_MAX / 4, 4, 0, (SIZE_MAX / 4) * 4);
}

/** @brief Each TODO's cases (tests/unit/unit_groups.h); with an argument only that TODO's. */
int main(int argc, char **argv)
{
    static const unit_group groups[] = {{"@NN@.1", todo_1}};
    if (unit_run_groups(groups, sizeof groups / sizeof groups[0], argc, argv) == 0)
        return 2;
    return failed;
}
