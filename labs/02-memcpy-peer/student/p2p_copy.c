/**
 * @file p2p_copy.c
 * @brief Lab 02, the student's file: TODOs 02.1 to 02.7. The contracts are
 *        in labs/02-memcpy-peer/harness/p2p_copy.h.
 */
#include "p2p_copy.h"
#include "cuda_check.h"
#include "todo.h"

#include <stdint.h>

/* The chapter computes count * sizeof(float) and trusts it. */
p2p_status p2p_bytes(size_t count, size_t elem_size, size_t *bytes)
{
    LAB_TODO("02.1");
}

/* Everything that can be decided from the arguments alone, in order. */
p2p_status p2p_check(const p2p_request *req, int device_count)
{
    LAB_TODO("02.2");
}

/* With unified addressing a pointer says where it lives. */
int p2p_owner(const void *ptr)
{
    LAB_TODO("02.3");
}

/* The copy itself: checked first, no cudaSetDevice. */
p2p_status p2p_copy(void *dst, int dst_dev, const void *src, int src_dev, size_t bytes)
{
    LAB_TODO("02.4");
}

/* The same on a stream the caller chooses. */
p2p_status p2p_copy_async(void *dst, int dst_dev, const void *src, int src_dev,
                          size_t bytes, cudaStream_t stream)
{
    LAB_TODO("02.5");
}

/* The chapter's float helper, counting bytes the careful way. */
p2p_status p2p_copy_floats(float *dst, int dst_dev, const float *src, int src_dev,
                           size_t count)
{
    LAB_TODO("02.6");
}

/* Down to the host on the source's stream, up on the timed one; the two
 * events keep the halves in order and inside the timed region. */
cudaError_t p2p_copy_staged(void *dst, const void *src, size_t bytes, cudaStream_t timed,
                            const p2p_staging *via)
{
    LAB_TODO("02.7");
}
