/**
 * @file todo.h
 * @brief Marks an exercise step the student has not done yet.
 *
 * Skeletons are generated from the reference solutions; each removed step is
 * replaced by `LAB_TODO("NN.k");`. Running an unfinished step stops the
 * program with a message that names the TODO and where it is, so a test
 * failure always points at the step to work on.
 */
#ifndef LAB_TODO_H
#define LAB_TODO_H

#include "lab_exit.h"

#ifdef __cplusplus
extern "C" {
#endif

/** @brief Print "TODO <id> is not done yet (file:line)" and exit(1). */
LAB_NORETURN void lab_todo_unfinished(const char *id, const char *file, int line);

#ifdef __cplusplus
}
#endif

/** @brief Stop here: the step numbered @p id is still to be written. */
#define LAB_TODO(id) lab_todo_unfinished((id), __FILE__, __LINE__)

#endif /* LAB_TODO_H */
