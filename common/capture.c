/* What a call enqueues, read from a captured graph: kernel launches and their shapes. */
#include "capture.h"
#include "cuda_check.h"

#include <string.h>

/* Count the graph's nodes by kind into @p out; the first kernel's shape too. */
static cudaError_t count_nodes(cudaGraph_t graph, lab_launches *out)
{
    cudaGraphNode_t nodes[32];
    size_t count = sizeof nodes / sizeof nodes[0];
    CUDA_TRY(cudaGraphGetNodes(graph, nodes, &count));
    for (size_t i = 0; i < count; i++) {
        enum cudaGraphNodeType type;
        struct cudaKernelNodeParams params;
        CUDA_TRY(cudaGraphNodeGetType(nodes[i], &type));
        if (type != cudaGraphNodeTypeKernel) {
            out->others++;
            continue;
        }
        CUDA_TRY(cudaGraphKernelNodeGetParams(nodes[i], &params));
        if (out->kernels++ == 0) {
            out->grid = params.gridDim;
            out->block = params.blockDim;
        }
    }
    return cudaSuccess;
}

cudaError_t lab_capture_launches(lab_work_fn work, void *arg, lab_launches *out)
{
    cudaStream_t stream = NULL;
    cudaGraph_t graph = NULL;
    memset(out, 0, sizeof *out);
    cudaError_t err = cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
    if (err != cudaSuccess)
        return err;
    err = cudaStreamBeginCapture(stream, cudaStreamCaptureModeRelaxed);
    if (err == cudaSuccess) {
        const cudaError_t worked = work(stream, arg);
        const cudaError_t ended = cudaStreamEndCapture(stream, &graph);
        err = worked != cudaSuccess ? worked : ended;
    }
    if (err == cudaSuccess)
        err = count_nodes(graph, out);
    if (graph != NULL)
        (void)cudaGraphDestroy(graph);
    (void)cudaStreamDestroy(stream);
    (void)cudaGetLastError(); /* the error, if any, is returned, not left pending */
    return err;
}
