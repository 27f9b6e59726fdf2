// RUN: cudnn-opt %s --codegen-outline-kernels | FileCheck %s

// Each launch becomes a kernel as with gpu-kernel-outlining; a launch's
// nvvm.minctasm mark goes to the kernel it becomes, in whatever order the
// marked and unmarked launches come, and an unmarked launch gives an
// unmarked kernel.

module attributes {gpu.container_module} {
// CHECK-LABEL: func.func @two_launches
// CHECK:         gpu.launch_func @first::@first
// CHECK:         gpu.launch_func @second::@second
// CHECK-NOT:     gpu.launch
// CHECK:       gpu.module @first
// CHECK:         gpu.func @first({{.*}}) kernel attributes {known_block_size = array<i32: 64, 1, 1>, known_grid_size = array<i32: 1, 1, 1>} {
// CHECK:       gpu.module @second
// CHECK:         gpu.func @second({{.*}}) kernel attributes {known_block_size = array<i32: 64, 1, 1>, known_grid_size = array<i32: 1, 1, 1>, nvvm.minctasm = 2 : i32} {
func.func @two_launches(%m: memref<64xf32>) {
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1)
             threads(%tx, %ty, %tz) in (%a = %c64, %b = %c1, %c = %c1)
             function(@first) {
    %v = memref.load %m[%tx] : memref<64xf32>
    %w = arith.addf %v, %v : f32
    memref.store %w, %m[%tx] : memref<64xf32>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1)
             threads(%tx, %ty, %tz) in (%a = %c64, %b = %c1, %c = %c1)
             function(@second) {
    %v = memref.load %m[%tx] : memref<64xf32>
    %w = arith.mulf %v, %v : f32
    memref.store %w, %m[%tx] : memref<64xf32>
    gpu.terminator
  } {nvvm.minctasm = 2 : i32}
  return
}

// A launch_func that was there before outlining keeps its kernel as it is.
// CHECK-LABEL: func.func @after_existing
// CHECK:         gpu.launch_func @existing::@existing
// CHECK:         gpu.launch_func @third::@third
// CHECK:       gpu.module @third
// CHECK:         gpu.func @third({{.*}}) kernel attributes {known_block_size = array<i32: 64, 1, 1>, known_grid_size = array<i32: 1, 1, 1>, nvvm.minctasm = 4 : i32} {
func.func @after_existing(%m: memref<64xf32>) {
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  gpu.launch_func @existing::@existing blocks in (%c1, %c1, %c1)
      threads in (%c64, %c1, %c1) args(%m : memref<64xf32>)
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1)
             threads(%tx, %ty, %tz) in (%a = %c64, %b = %c1, %c = %c1)
             function(@third) {
    %v = memref.load %m[%tx] : memref<64xf32>
    memref.store %v, %m[%tx] : memref<64xf32>
    gpu.terminator
  } {nvvm.minctasm = 4 : i32}
  return
}

gpu.module @existing {
  gpu.func @existing(%m: memref<64xf32>) kernel {
    gpu.return
  }
}
}

// CHECK:       gpu.module @existing
// CHECK:         gpu.func @existing(%{{.*}}: memref<64xf32>) kernel {
