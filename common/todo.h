/**
 * @file todo.h
 * @brief Marks an exercise step the student has not done yet: the generated skeleton holds
 *        `LAB_TODO("NN.k");` in its place, and running it stops the program with a message
 *        naming the TODO and file:line, so a failing test points at the step to work on.
 */
#ifndef LAB_TODO_H
#define LAB_TODO_H

#include "cli.h"

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
