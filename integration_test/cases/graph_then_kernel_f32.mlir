// A cuDNN graph and a generated GPU kernel in one entry: the conv writes an
// intermediate from the runtime's pool, the kernel (a gpu.module, compiled to
// PTX by the pipeline) doubles it into the output. Both run on the entry's
// stream in order, with no host synchronisation: the launch's stream is the
// invocation's (the runtime's mgpuStreamCreate inside an entry). Written at
// the buffer level, as the code generators will produce it; the pipeline
// frees the intermediate after the launch.
!x = !cudnn.tensor_desc<8x64x56x56xf32, alignment = 16, stride = []>
!w = !cudnn.tensor_desc<64x64x3x3xf32, alignment = 16, stride = []>
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @double(%in: memref<1605632xf32>, %out: memref<1605632xf32>) kernel {
      %b = gpu.block_id x
      %t = gpu.thread_id x
      %n = gpu.block_dim x
      %base = arith.muli %b, %n : index
      %i = arith.addi %base, %t : index
      %v = memref.load %in[%i] : memref<1605632xf32>
      %two = arith.constant 2.0 : f32
      %r = arith.mulf %v, %two : f32
      memref.store %r, %out[%i] : memref<1605632xf32>
      gpu.return
    }
  }
  func.func @forward(%x: memref<8x64x56x56xf32>, %w: memref<64x64x3x3xf32>,
                     %y: memref<8x64x56x56xf32> {bufferize.result}) {
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    %c6272 = arith.constant 6272 : index
    %h = cudnn.get_current_handle !cudnn.handle
    %conv = memref.alloc() : memref<8x64x56x56xf32>
    cudnn.execute_graph %h ins(%x, %w : memref<8x64x56x56xf32>, memref<64x64x3x3xf32>) outs(%conv : memref<8x64x56x56xf32>) {
    ^bb0(%a: !x, %b: !w):
      %c = cudnn.convolution(%a, %b) type = f32 alpha = 1.0 beta = 0.0 spatial_dim_count = 2
          spatial_stride = [1, 1] pre_padding = [1, 1] post_padding = [1, 1] dilation = [1, 1]
          : !x, !w -> !x
      cudnn.build_graph(%c) : !x
    }
    %in = memref.collapse_shape %conv [[0, 1, 2, 3]] : memref<8x64x56x56xf32> into memref<1605632xf32>
    %out = memref.collapse_shape %y [[0, 1, 2, 3]] : memref<8x64x56x56xf32> into memref<1605632xf32>
    gpu.launch_func @kernels::@double blocks in (%c6272, %c1, %c1) threads in (%c256, %c1, %c1)
        args(%in : memref<1605632xf32>, %out : memref<1605632xf32>)
    return
  }
}
