// RUN: cudnn-opt %s --cudnn-to-llvm-pipeline | FileCheck %s
// RUN: cudnn-opt %s --cudnn-to-llvm-pipeline="kernel-binary=isa" | FileCheck %s --check-prefix=PTX
// RUN: cudnn-opt %s --cudnn-to-llvm-pipeline="gpu-chip=sm_80" | FileCheck %s --check-prefix=SM80
//
// A generated kernel beside a cuDNN graph: the kernel is embedded in a
// gpu.binary (NVVM target sm_90 by default, optimisation level 3; PTX ISA
// 8.1 for its larger parameter space) as a fatbin of the chip's machine
// code, which the toolkit's ptxas compiled here, and the PTX (magic
// 0xBA55ED50; with kernel-binary=isa, the PTX alone, which the driver
// compiles on each machine's first load); its launch takes LLVM operands
// (translated to the runtime's mgpu* calls), and it runs after the graph
// that wrote its input and before that intermediate is freed: one stream,
// in program order.

// CHECK:       gpu.binary @kernels [#gpu.object<#nvvm.target<O = 3, chip = "sm_90", features = "+ptx81">, properties = {ISAToBinaryTimeInMs
// CHECK-SAME:    "P\EDU\BA
// CHECK-SAME:    double
// PTX:         gpu.binary @kernels [#gpu.object<#nvvm.target<O = 3, chip = "sm_90", features = "+ptx81">, properties = {{.*}}, assembly = "
// PTX-SAME:      .version 8.1
// PTX-SAME:      .entry double
// SM80:        gpu.binary @kernels [#gpu.object<#nvvm.target<O = 3, chip = "sm_80", features = "+ptx81">, properties = {ISAToBinaryTimeInMs
// CHECK-LABEL: llvm.func @forward(
// CHECK:         %[[TMP:.*]] = llvm.call @cmrtInvocationAlloc(
// CHECK:         llvm.call @cmrtInvocationGraph(
// CHECK-NEXT:    gpu.launch_func @kernels::@double blocks in ({{.*}}) threads in ({{.*}}) : i64 args(%[[TMP]] : !llvm.ptr
// CHECK:         llvm.call @cmrtInvocationFree({{.*}}, %[[TMP]])
// CHECK-LABEL: llvm.func @cmrt_entry_forward(

!x = !cudnn.tensor_desc<1x8x4x4xf32, alignment = 16, stride = []>
!w = !cudnn.tensor_desc<8x8x3x3xf32, alignment = 16, stride = []>
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @double(%in: memref<128xf32>, %out: memref<128xf32>) kernel {
      %i = gpu.thread_id x
      %v = memref.load %in[%i] : memref<128xf32>
      %r = arith.addf %v, %v : f32
      memref.store %r, %out[%i] : memref<128xf32>
      gpu.return
    }
  }
  func.func @forward(%x: memref<1x8x4x4xf32>, %w: memref<8x8x3x3xf32>,
                     %y: memref<1x8x4x4xf32> {bufferize.result}) {
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    %h = cudnn.get_current_handle !cudnn.handle
    %conv = memref.alloc() : memref<1x8x4x4xf32>
    cudnn.execute_graph %h ins(%x, %w : memref<1x8x4x4xf32>, memref<8x8x3x3xf32>) outs(%conv : memref<1x8x4x4xf32>) {
    ^bb0(%a: !x, %b: !w):
      %c = cudnn.convolution(%a, %b) type = f32 alpha = 1.0 beta = 0.0 spatial_dim_count = 2
          spatial_stride = [1, 1] pre_padding = [1, 1] post_padding = [1, 1] dilation = [1, 1]
          : !x, !w -> !x
      cudnn.build_graph(%c) : !x
    }
    %in = memref.collapse_shape %conv [[0, 1, 2, 3]] : memref<1x8x4x4xf32> into memref<128xf32>
    %out = memref.collapse_shape %y [[0, 1, 2, 3]] : memref<1x8x4x4xf32> into memref<128xf32>
    gpu.launch_func @kernels::@double blocks in (%c1, %c1, %c1) threads in (%c128, %c1, %c1)
        args(%in : memref<128xf32>, %out : memref<128xf32>)
    return
  }
}
