/* The main of every lab program (linked into each lab binary, not into libcourse.a, whose
 * tools have mains of their own): run the lab's registry. */
#include "lab.h"

int main(int argc, char **argv)
{
    return lab_run_program(&lab_this, argc, argv);
}
