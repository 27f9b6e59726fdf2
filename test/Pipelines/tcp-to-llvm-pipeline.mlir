// TCP all the way to LLVM calling the runtime.
//
// The ResNet basic block (examples/resnet-basic-block.mlir): two fused
// fp16 conv graphs in channels-last, so x, w1 and w2 are transformed to
// NHWC on the way in and the result back to NCHW on the way out.
// RUN: cudnn-opt %src_root/examples/resnet-basic-block.mlir -tcp-to-llvm-pipeline=split-fallback=false | FileCheck %s --check-prefix=BLOCK
// RUN: cudnn-opt %src_root/examples/resnet-basic-block.mlir -tcp-to-llvm-pipeline=split-fallback=false | FileCheck %s --check-prefix=GRAPHS
// RUN: cudnn-opt %src_root/examples/resnet-basic-block.mlir -tcp-to-llvm-pipeline=split-fallback=false | FileCheck %s --check-prefix=TRANSFORMS
//
// Seed stages 1 and 2 (test/Examples/seed-ir.mlir): one fp32 graph and its
// split form each, packed, no layout transforms; its fp32 convolution gets
// CMRT_GRAPH_EXACT_FP32 unless allow-tf32-conv (allow-tf32-matmul leaves it
// exact). Stage 2's group has no group_type: convert-tcp-to-cudnn lowers it
// because the support table accepts its ops, to the same graph as stage 1's.
// RUN: cudnn-opt %s -tcp-to-llvm-pipeline | FileCheck %s --check-prefixes=SEED,EXACT
// RUN: cudnn-opt %s -tcp-to-llvm-pipeline=allow-tf32-conv=true | FileCheck %s --check-prefixes=SEED,INEXACT
// RUN: cudnn-opt %s -tcp-to-llvm-pipeline=allow-tf32-matmul=true | FileCheck %s --check-prefixes=SEED,EXACT

// Exactly two graph launches and four layout transforms.
// GRAPHS-COUNT-2:     llvm.call @cmrtInvocationGraph(
// GRAPHS-NOT:         llvm.call @cmrtInvocationGraph(
// TRANSFORMS-COUNT-4: llvm.call @cmrtInvocationTransform(
// TRANSFORMS-NOT:     llvm.call @cmrtInvocationTransform(

// Nothing of tcp, cudnn, func, memref or tensor is left.
// BLOCK-NOT:   {{tcp\.|cudnn\.|func\.func|memref\.}}
// BLOCK-LABEL: llvm.func @basic_block(
// BLOCK-NOT:     {{tcp\.|cudnn\.|func\.func|memref\.}}
// The fp16 graphs never get the exact bit (CMRT_GRAPH_EXACT_FP32): options
// are 0.
// BLOCK:         %[[ZERO:.*]] = llvm.mlir.constant(0 : i64) : i64
// BLOCK:         %[[H:.*]] = llvm.call @cmrtInvocationCurrent()
// x, w1 to channels-last (CUDNN_DATA_HALF = 2, rank 4).
// BLOCK:         %[[XC:.*]] = llvm.call @cmrtInvocationAlloc(
// BLOCK:         llvm.call @cmrtInvocationTransform(%{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}}, %[[XC]],
// BLOCK:         %[[W1:.*]] = llvm.call @cmrtInvocationAlloc(
// BLOCK:         llvm.call @cmrtInvocationTransform(%{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}}, %[[W1]],
// BLOCK:         %[[Y1:.*]] = llvm.call @cmrtInvocationAlloc(
// BLOCK:         llvm.call @cmrtInvocationGraph(%[[H]], %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}}, %[[ZERO]],
// BLOCK:         %[[W2:.*]] = llvm.call @cmrtInvocationAlloc(
// BLOCK:         llvm.call @cmrtInvocationTransform(%{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}}, %[[W2]],
// BLOCK:         %[[Y2:.*]] = llvm.call @cmrtInvocationAlloc(
// BLOCK:         llvm.call @cmrtInvocationGraph(%[[H]], %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}}, %[[ZERO]],
// The result is transformed out of the second graph's buffer.
// BLOCK:         llvm.call @cmrtInvocationTransform(%{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9a-z]+}}, %{{[0-9]+}}, %[[Y2]],
// BLOCK-NOT:     cmrtInvocationGraph
// BLOCK-NOT:     cmrtInvocationTransform
// BLOCK-DAG:     llvm.call @cmrtInvocationFree(%{{.*}}, %[[XC]])
// BLOCK-DAG:     llvm.call @cmrtInvocationFree(%{{.*}}, %[[W1]])
// BLOCK-DAG:     llvm.call @cmrtInvocationFree(%{{.*}}, %[[Y1]])
// BLOCK-DAG:     llvm.call @cmrtInvocationFree(%{{.*}}, %[[W2]])
// BLOCK-DAG:     llvm.call @cmrtInvocationFree(%{{.*}}, %[[Y2]])
// BLOCK:         llvm.return
// BLOCK-NOT:     cmrtInvocationGraph
// BLOCK-NOT:     cmrtInvocationTransform
// BLOCK-LABEL: llvm.func @cmrt_entry_basic_block(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr) -> i32
// BLOCK:         llvm.call @cmrtInvocationBegin(
// BLOCK:         llvm.call @basic_block(
// BLOCK:         llvm.call @cmrtInvocationEnd(
// BLOCK:       @cmrt_module_manifest("cudnn-mlir-module 1\0Aentry basic_block\0Aarg 0 in f16 [8,64,56,56] [200704,3136,56,1]\0Aarg 1 in f16 [64,64,3,3] [576,9,3,1]\0Aarg 2 in f16 [1,64,1,1] [64,1,1,1]\0Aarg 3 in f16 [64,64,3,3] [576,9,3,1]\0Aarg 4 in f16 [1,64,1,1] [64,1,1,1]\0Aarg 5 out f16 [8,64,56,56] [200704,3136,56,1]\0Aend\0A\00")

// Stage 2's fused graph (graph2) is stage 1's (graph0), word for word.
// SEED:       llvm.mlir.global internal constant @__cmrt_graph0_words(dense<{{\[}}[[WORDS:[-0-9, ]+]]]>
// SEED:       llvm.mlir.global internal constant @__cmrt_graph2_words(dense<{{\[}}[[WORDS]]]>
// The fused graph tries (CMRT_GRAPH_NO_SPLIT, 16); its split form runs the
// ReLU as a generated kernel and the conv in a graph of its own.
// SEED-LABEL: llvm.func @stage1_tcp(
// EXACT-DAG:    %[[OPTS:.*]] = llvm.mlir.constant(17 : i64) : i64
// INEXACT-DAG:  %[[OPTS:.*]] = llvm.mlir.constant(16 : i64) : i64
// SEED-DAG:     %[[N:.*]] = llvm.mlir.constant(3 : i64) : i64
// SEED-NOT:     cmrtInvocationAlloc
// SEED-NOT:     cmrtInvocationTransform
// SEED:         %[[PTRS:.*]] = llvm.alloca %[[N]] x !llvm.ptr
// SEED:         llvm.call @cmrtInvocationGraphTry(%{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}}, %[[OPTS]], %{{[0-9]+}}, %[[PTRS]], %[[N]], %{{[0-9]+}})
// SEED:         llvm.cond_br
// SEED:         gpu.launch_func
// SEED:         llvm.call @cmrtInvocationGraph(
// SEED-NOT:     cmrtInvocation{{Transform|Graph}}
// SEED:         llvm.return
// SEED-LABEL: llvm.func @stage2_group(
// EXACT-DAG:    %[[OPTS:.*]] = llvm.mlir.constant(17 : i64) : i64
// INEXACT-DAG:  %[[OPTS:.*]] = llvm.mlir.constant(16 : i64) : i64
// SEED-DAG:     %[[N:.*]] = llvm.mlir.constant(3 : i64) : i64
// SEED-NOT:     {{tcp\.|cudnn\.}}
// SEED-NOT:     cmrtInvocationAlloc
// SEED-NOT:     cmrtInvocationTransform
// SEED:         %[[PTRS:.*]] = llvm.alloca %[[N]] x !llvm.ptr
// SEED:         llvm.call @cmrtInvocationGraphTry(%{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}}, %[[OPTS]], %{{[0-9]+}}, %[[PTRS]], %[[N]], %{{[0-9]+}})
// SEED:         llvm.cond_br
// SEED:         gpu.launch_func
// SEED:         llvm.call @cmrtInvocationGraph(
// SEED-NOT:     cmrtInvocation{{Transform|Graph}}
// SEED:         llvm.return
// SEED-LABEL: llvm.func @cmrt_entry_stage1_tcp(
// SEED-LABEL: llvm.func @cmrt_entry_stage2_group(
// SEED:       @cmrt_module_manifest("cudnn-mlir-module 1\0Aentry stage1_tcp\0Aarg 0 in f32 [1,64,56,56] [200704,3136,56,1]\0Aarg 1 in f32 [64,64,3,3] [576,9,3,1]\0Aarg 2 out f32 [1,64,56,56] [200704,3136,56,1]\0Aend\0Aentry stage2_group\0Aarg 0 in f32 [1,64,56,56] [200704,3136,56,1]\0Aarg 1 in f32 [64,64,3,3] [576,9,3,1]\0Aarg 2 out f32 [1,64,56,56] [200704,3136,56,1]\0Aend\0A\00")

// ---- Stage 1 of the seed IR: TCP, as produced from torch.aten.relu + torch.aten.convolution
func.func @stage1_tcp(%138: tensor<1x64x56x56xf32>, %110: tensor<64x64x3x3xf32>) -> tensor<1x64x56x56xf32> {
  %139 = tcp.clamp %138 {min_float = 0.000000e+00 : f32}
          : tensor<1x64x56x56xf32> -> tensor<1x64x56x56xf32>
  %140 = tcp.conv2d %139, %110
          {dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>}
          : tensor<1x64x56x56xf32>, tensor<64x64x3x3xf32> -> tensor<1x64x56x56xf32>
  return %140 : tensor<1x64x56x56xf32>
}

// ---- Stage 2 of the seed IR: after fusion grouping + isolation (no group_type)
func.func @stage2_group(%39: tensor<1x64x56x56xf32>, %15: tensor<64x64x3x3xf32>) -> tensor<1x64x56x56xf32> {
  %40 = tcp.isolated_group %39, %15 {
  ^bb0(%arg1: tensor<1x64x56x56xf32>, %arg2: tensor<64x64x3x3xf32>):
      %171 = tcp.clamp %arg1 {min_float = 0.000000e+00 : f32}
              : tensor<1x64x56x56xf32> -> tensor<1x64x56x56xf32>
      %172 = tcp.conv2d %171, %arg2
              {dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>}
              : tensor<1x64x56x56xf32>, tensor<64x64x3x3xf32> -> tensor<1x64x56x56xf32>
      tcp.yield %172 : tensor<1x64x56x56xf32>
  } : tensor<1x64x56x56xf32>, tensor<64x64x3x3xf32> -> tensor<1x64x56x56xf32>
  return %40 : tensor<1x64x56x56xf32>
}
