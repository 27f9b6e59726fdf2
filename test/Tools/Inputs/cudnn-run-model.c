/* A stand-in for a compiled model (docs/abi.md, "Calling a compiled module")
 * for the cudnn-run tests: a manifest and entries that do nothing, or, with
 * -DWITH_CUDA, copy bytes with the CUDA runtime and fail through the
 * cudnn-mlir runtime. -DVARIANT=n picks a broken manifest. */
#include <stdint.h>

#if !defined(VARIANT)
const char cmrt_module_manifest[] =
    "cudnn-mlir-module 1\n"
    "entry forward\n"
    /* logical NCHW, stored channels-last */
    "arg 0 in f32 [1,3,2,2] [12,1,6,3]\n"
    "arg 1 in bf16 [3] [1]\n"
    /* logical NCHW, stored row-major */
    "arg 2 out f32 [1,3,2,2] [12,4,2,1]\n"
    "arg 3 out bf16 [3] [1]\n"
    "end\n"
    "entry fails\n"
    "arg 0 out i64 [] []\n"
    "end\n"
    "entry missing\n"
    "end\n";
#elif VARIANT == 1
const char cmrt_module_manifest[] = "cudnn-mlir-module 2\nentry f\nend\n";
#elif VARIANT == 2
const char cmrt_module_manifest[] =
    "cudnn-mlir-module 1\nentry f\narg 0 in f32 [2] [1]\n";
#endif

#ifdef WITH_CUDA
#include "cudnn-mlir-runtime/Runtime.h"
#include <cuda_runtime_api.h>

/* Copies the channels-last input's bytes unchanged into the row-major output
 * (so the output shows the input's physical order) and the bf16 vector. */
int32_t cmrt_entry_forward(void *stream, void *const *buffers) {
  cudaStream_t s = (cudaStream_t)stream;
  if (cudaMemcpyAsync(buffers[2], buffers[0], 12 * 4, cudaMemcpyDeviceToDevice,
                      s) != cudaSuccess ||
      cudaMemcpyAsync(buffers[3], buffers[1], 3 * 2, cudaMemcpyDeviceToDevice,
                      s) != cudaSuccess)
    return CMRT_ERROR_CUDA;
  return CMRT_SUCCESS;
}

/* Fails the way generated code does: a runtime call's status and message. */
int32_t cmrt_entry_fails(void *stream, void *const *buffers) {
  (void)stream;
  (void)buffers;
  return cmrtCheckDevice(1 << 20);
}
#else
int32_t cmrt_entry_forward(void *stream, void *const *buffers) {
  (void)stream;
  (void)buffers;
  return 0;
}
#endif
