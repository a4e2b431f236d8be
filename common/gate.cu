/* The launch gate kernel and its host side. */
#include "gate.h"
#include "cuda_check.h"

static __device__ unsigned long long gate_now_ns(void)
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

/* Spin until the host writes flags[0], or give up after the timeout so a host that never
 * opens it cannot hang the GPU. */
static __global__ void gate_kernel(volatile unsigned int *flags, unsigned long long timeout_ns)
{
    const unsigned long long start = gate_now_ns();
    while (flags[0] == 0u) {
        if (gate_now_ns() - start > timeout_ns) {
            flags[1] = 1u;
            return;
        }
    }
}

cudaError_t lab_gate_create(lab_gate *gate)
{
    void *host = NULL;
    gate->flags = NULL;
    gate->dev_flags = NULL;
    CUDA_TRY(cudaHostAlloc(&host, 2 * sizeof(unsigned int),
                           cudaHostAllocMapped | cudaHostAllocPortable));
    gate->flags = (volatile unsigned int *)host;
    gate->flags[0] = gate->flags[1] = 0u;
    return cudaHostGetDevicePointer((void **)&gate->dev_flags, host, 0);
}

void lab_gate_destroy(lab_gate *gate)
{
    if (gate->flags != NULL)
        (void)cudaFreeHost((void *)gate->flags);
    gate->flags = NULL;
    gate->dev_flags = NULL;
}

cudaError_t lab_gate_close(lab_gate *gate, cudaStream_t stream)
{
    gate->flags[0] = 0u;
    gate->flags[1] = 0u;
    gate_kernel<<<1, 1, 0, stream>>>(gate->dev_flags, LAB_GATE_TIMEOUT_NS);
    return cudaGetLastError();
}

void lab_gate_open(lab_gate *gate)
{
    __atomic_store_n((unsigned int *)&gate->flags[0], 1u, __ATOMIC_SEQ_CST);
}

bool lab_gate_timed_out(const lab_gate *gate)
{
    return gate->flags[1] != 0u;
}
