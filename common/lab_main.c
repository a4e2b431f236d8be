/**
 * @file lab_main.c
 * @brief The main of every lab program: run the lab's registry.
 *
 * Linked into each lab binary (not into libcourse.a, whose tools have mains
 * of their own).
 */
#include "registry.h"

/** @brief Run the lab this binary was linked with. */
int main(int argc, char **argv)
{
    return lab_run_program(&lab_this, argc, argv);
}
