/**
 * @file peer_host.c
 * @brief Lab 03, the student's host-side file: TODOs 03.1 and 03.3
 *        (contracts in harness/peer_kernels.h).
 */
#include "peer_kernels.h"
#include "devices.h"
#include "todo.h"

/* Contract of TODO 03.1 (in full: harness/peer_kernels.h); each clause and its test:
 * - a == b or a negative id is refused with cudaErrorInvalidDevice; checked by:
 *   peer_both_same_gpu; peer_both_negative_a; peer_both_equal_negative
 * - both directions, a -> b and b -> a, follow on (two GPUs); checked by: TODO 03.1: peer access
 *   follows on, then off; TODOs 03.1, 03.2, 03.4 and 03.5: every variant
 * - both directions go through lab_peer_access, GPU 0 a valid id; its first error is returned;
 *   checked by: peer_both_on_both_ways_gpu_0; peer_both_first_error_a_to_b; peer_both_error_b_to_a
 */
cudaError_t lab03_peer_both(int a, int b, bool on)
{
    LAB_TODO("03.1");
}

/* Contract of TODO 03.3 (in full: harness/peer_kernels.h); each clause and its test:
 * - 0 for n == 0, threads < 1 or max_blocks < 1; checked by: grid_zero_elements;
 *   grid_zero_threads; grid_negative_threads; grid_negative_max_blocks
 * - n / threads rounded up, capped at max_blocks; checked by: grid_partial_warp;
 *   grid_one_past_a_block; grid_capped
 * - no wrap near SIZE_MAX; checked by: grid_near_size_max; grid_last_block_before_wrap
 */
int lab03_grid(size_t n, int threads, int max_blocks)
{
    LAB_TODO("03.3");
}
