/**
 * @file lab_exit.h
 * @brief Exit codes shared by every lab program.
 *
 * The codes follow the GNU test-driver convention so that the Bats tests can
 * map a program's status to pass, fail or skip without guessing.
 */
#ifndef LAB_EXIT_H
#define LAB_EXIT_H

/** The program ran and every check passed. */
#define LAB_EXIT_OK 0
/** A verification or a CUDA call failed, or a TODO is unfinished. */
#define LAB_EXIT_FAIL 1
/** The command line was wrong (unknown option, bad value). */
#define LAB_EXIT_USAGE 2
/** The machine lacks what the lab needs (GPUs, P2P); the reason is printed. */
#define LAB_EXIT_SKIP 77

/** Marks a function that never returns (C and C++ spell it differently). */
#ifdef __cplusplus
#define LAB_NORETURN [[noreturn]]
#else
#define LAB_NORETURN _Noreturn
#endif

#endif /* LAB_EXIT_H */
