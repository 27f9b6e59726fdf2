// RUN: cudnn-opt %s -split-input-file -codegen-merge-launches | FileCheck %s
// RUN: cudnn-opt %s -split-input-file -codegen-merge-launches=max-parameter-bytes=32000 | FileCheck %s --check-prefix=LARGE
// RUN: cudnn-opt %s -split-input-file -codegen-merge-launches=max-parameter-bytes=100 | FileCheck %s --check-prefix=SMALL

// Two independent one-dimensional launches with an allocation between
// them become one launch of 1 + 3 blocks of 256 threads, at the second's
// place: blocks below 1 run the first body (threads from 32 on skip it),
// the others the second with the block index shifted by 1.
// CHECK-LABEL: func.func @independent
// CHECK:         %[[A:.*]] = memref.alloc() : memref<64xf32>
// CHECK:         %[[B:.*]] = memref.alloc() : memref<768xf32>
// CHECK-NOT:     gpu.launch
// CHECK:         gpu.launch blocks(%[[BX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %c4, %{{.*}} = %c1{{.*}}, %{{.*}} = %c1{{.*}}) threads(%[[TX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %c256{{.*}}, %{{.*}} = %c1{{.*}}, %{{.*}} = %c1{{.*}}) function(@first)
// CHECK:           %[[LOW:.*]] = arith.cmpi ult, %[[BX]], %c1
// CHECK:           scf.if %[[LOW]] {
// CHECK:             %[[ACTIVE:.*]] = arith.cmpi ult, %[[TX]], %c32
// CHECK:             scf.if %[[ACTIVE]] {
// CHECK:               memref.store %{{.*}}, %[[A]]
// CHECK:           } else {
// CHECK:             %[[SHIFTED:.*]] = arith.subi %[[BX]], %c1
// CHECK:             arith.muli %[[SHIFTED]]
// CHECK:             memref.store %{{.*}}, %[[B]]
// CHECK:           gpu.terminator
// CHECK-NOT:     gpu.launch
// CHECK:         return
func.func @independent(%p: memref<64xf32>, %q: memref<768xf32>) -> (memref<64xf32>, memref<768xf32>) {
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c32 = arith.constant 32 : index
  %c256 = arith.constant 256 : index
  %a = memref.alloc() : memref<64xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) function(@first) {
    %v = memref.load %p[%tx] : memref<64xf32>
    memref.store %v, %a[%tx] : memref<64xf32>
    gpu.terminator
  }
  %b = memref.alloc() : memref<768xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c3, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) function(@second) {
    %base = arith.muli %bx, %sx : index
    %i = arith.addi %base, %tx : index
    %v = memref.load %q[%i] : memref<768xf32>
    memref.store %v, %b[%i] : memref<768xf32>
    gpu.terminator
  }
  return %a, %b : memref<64xf32>, memref<768xf32>
}

// -----

// The second launch reads what the first writes: both stay.
// CHECK-LABEL: func.func @dependent
// CHECK-COUNT-2: gpu.launch
func.func @dependent(%p: memref<64xf32>) -> memref<64xf32> {
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %a = memref.alloc() : memref<64xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    %v = memref.load %p[%tx] : memref<64xf32>
    memref.store %v, %a[%tx] : memref<64xf32>
    gpu.terminator
  }
  %b = memref.alloc() : memref<64xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    %v = memref.load %a[%tx] : memref<64xf32>
    memref.store %v, %b[%tx] : memref<64xf32>
    gpu.terminator
  }
  return %b : memref<64xf32>
}

// -----

// Launches that stay alone: one writes a function argument (which may
// alias another), one has a barrier, one carries nvvm.minctasm, one reads
// its block index with gpu.block_id (merged, it would not be shifted), and
// a copy (a memory write) separates the last two.
// CHECK-LABEL: func.func @alone
// CHECK-COUNT-6: gpu.launch
func.func @alone(%p: memref<64xf32>, %out: memref<64xf32>) {
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    %v = memref.load %p[%tx] : memref<64xf32>
    memref.store %v, %out[%tx] : memref<64xf32>
    gpu.terminator
  }
  %a = memref.alloc() : memref<64xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    %v = memref.load %p[%tx] : memref<64xf32>
    gpu.barrier
    memref.store %v, %a[%tx] : memref<64xf32>
    gpu.terminator
  }
  %b = memref.alloc() : memref<64xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    %v = memref.load %p[%tx] : memref<64xf32>
    memref.store %v, %b[%tx] : memref<64xf32>
    gpu.terminator
  } {nvvm.minctasm = 2 : i32}
  %e = memref.alloc() : memref<64xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    %blk = gpu.block_id x
    %v = memref.load %p[%blk] : memref<64xf32>
    memref.store %v, %e[%tx] : memref<64xf32>
    gpu.terminator
  }
  %c = memref.alloc() : memref<64xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    %v = memref.load %p[%tx] : memref<64xf32>
    memref.store %v, %c[%tx] : memref<64xf32>
    gpu.terminator
  }
  memref.copy %c, %out : memref<64xf32> to memref<64xf32>
  %d = memref.alloc() : memref<64xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    %v = memref.load %p[%tx] : memref<64xf32>
    memref.store %v, %d[%tx] : memref<64xf32>
    gpu.terminator
  }
  return
}

// -----

// A merged kernel takes the buffers of all its launches as parameters, and
// a run stops before it passes max-parameter-bytes (4096 by default: PTX
// before ISA 8.1 allows 4352 bytes). Kernels take buffers as bare pointers
// (8 bytes each, whatever their rank), so each launch here takes 16 bytes:
// all 8 join under 4096 or 32000, and with 100 bytes 6 join, then 2.
// LARGE-LABEL: func.func @parameter_space
// LARGE:         gpu.launch blocks(%{{.*}}, %{{.*}}, %{{.*}}) in (%{{.*}} = %c8
// LARGE-NOT:     gpu.launch
// CHECK-LABEL: func.func @parameter_space
// CHECK:         gpu.launch blocks(%{{.*}}, %{{.*}}, %{{.*}}) in (%{{.*}} = %c8
// CHECK-NOT:     gpu.launch
// SMALL-LABEL: func.func @parameter_space
// SMALL:         gpu.launch blocks(%{{.*}}, %{{.*}}, %{{.*}}) in (%{{.*}} = %c6
// SMALL:         gpu.launch blocks(%{{.*}}, %{{.*}}, %{{.*}}) in (%{{.*}} = %c2
// SMALL-NOT:     gpu.launch
// SMALL:         return
func.func @parameter_space(%p0: memref<1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x64xf32>, %p1: memref<1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x64xf32>, %p2: memref<1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x64xf32>, %p3: memref<1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x64xf32>, %p4: memref<1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x64xf32>, %p5: memref<1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x64xf32>, %p6: memref<1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x64xf32>, %p7: memref<1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %a0 = memref.alloc() : memref<1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x64xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    %v = memref.load %p0[%c0, %c0, %c0, %c0, %c0, %c0, %c0, %c0, %c0, %c0, %c0, %c0, %c0, %c0, %c0, %tx] : memref<1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x64xf32>
    memref.store %v, %a0[%c0, %c0, %c0, %c0, %c0, %c0, %c0, %c0, %c0, %c0, %c0, %c0, %c0, %c0, %c0, %tx] : memref<1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x64xf32>
    gpu.terminator
  }
  %a1 = memref.alloc() : memref<1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x64xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    %v = memref.load %p1[%c0, %c0, %c0, %c0, %c0, %c0, %c0, %c0, %c0, %c0, %c0, %c0, %c0, %c0, %c0, %tx] : memref<1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x64xf32>
    memref.store %v, %a1[%c0, %c0, %c0, %c0, %c0, %c0, %c0, %c0, %c0, %c0, %c0, %c0, %c0, %c0, %c0, %tx] : memref<1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x64xf32>
    gpu.terminator
  }
  %a2 = memref.alloc() : memref<1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x64xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    %v = memref.load %p2[%c0, %c0, %c0, %c0, %c0, %c0, %c0, %c0, %c0, %c0, %c0, %c0, %c0, %c0, %c0, %tx] : memref<1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x64xf32>
    memref.store %v, %a2[%c0, %c0, %c0, %c0, %c0, %c0, %c0, %c0, %c0, %c0, %c0, %c0, %c0, %c0, %c0, %tx] : memref<1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x64xf32>
    gpu.terminator
  }
  %a3 = memref.alloc() : memref<1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x64xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    %v = memref.load %p3[%c0, %c0, %c0, %c0, %c0, %c0, %c0, %c0, %c0, %c0, %c0, %c0, %c0, %c0, %c0, %tx] : memref<1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x64xf32>
    memref.store %v, %a3[%c0, %c0, %c0, %c0, %c0, %c0, %c0, %c0, %c0, %c0, %c0, %c0, %c0, %c0, %c0, %tx] : memref<1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x64xf32>
    gpu.terminator
  }
  %a4 = memref.alloc() : memref<1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x64xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    %v = memref.load %p4[%c0, %c0, %c0, %c0, %c0, %c0, %c0, %c0, %c0, %c0, %c0, %c0, %c0, %c0, %c0, %tx] : memref<1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x64xf32>
    memref.store %v, %a4[%c0, %c0, %c0, %c0, %c0, %c0, %c0, %c0, %c0, %c0, %c0, %c0, %c0, %c0, %c0, %tx] : memref<1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x64xf32>
    gpu.terminator
  }
  %a5 = memref.alloc() : memref<1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x64xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    %v = memref.load %p5[%c0, %c0, %c0, %c0, %c0, %c0, %c0, %c0, %c0, %c0, %c0, %c0, %c0, %c0, %c0, %tx] : memref<1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x64xf32>
    memref.store %v, %a5[%c0, %c0, %c0, %c0, %c0, %c0, %c0, %c0, %c0, %c0, %c0, %c0, %c0, %c0, %c0, %tx] : memref<1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x64xf32>
    gpu.terminator
  }
  %a6 = memref.alloc() : memref<1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x64xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    %v = memref.load %p6[%c0, %c0, %c0, %c0, %c0, %c0, %c0, %c0, %c0, %c0, %c0, %c0, %c0, %c0, %c0, %tx] : memref<1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x64xf32>
    memref.store %v, %a6[%c0, %c0, %c0, %c0, %c0, %c0, %c0, %c0, %c0, %c0, %c0, %c0, %c0, %c0, %c0, %tx] : memref<1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x64xf32>
    gpu.terminator
  }
  %a7 = memref.alloc() : memref<1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x64xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    %v = memref.load %p7[%c0, %c0, %c0, %c0, %c0, %c0, %c0, %c0, %c0, %c0, %c0, %c0, %c0, %c0, %c0, %tx] : memref<1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x64xf32>
    memref.store %v, %a7[%c0, %c0, %c0, %c0, %c0, %c0, %c0, %c0, %c0, %c0, %c0, %c0, %c0, %c0, %c0, %tx] : memref<1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x64xf32>
    gpu.terminator
  }
  return
}

// -----

// Two launches writing disjoint static slices of one buffer (the pieces of
// codegen-split-concat-reads: a concat's channels 0-63 and 64-95) are
// independent and join.
// CHECK-LABEL: func.func @disjoint_slices
// LARGE-LABEL: func.func @disjoint_slices
// CHECK:         gpu.launch blocks(%{{.*}}, %{{.*}}, %{{.*}}) in (%{{.*}} = %c2
// CHECK-NOT:     gpu.launch
func.func @disjoint_slices(%p: memref<4x64xf32>, %q: memref<4x32xf32>) -> memref<4x96xf32> {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %a = memref.alloc() : memref<4x96xf32>
  %low = memref.subview %a[0, 0] [4, 64] [1, 1] : memref<4x96xf32> to memref<4x64xf32, strided<[96, 1]>>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    %v = memref.load %p[%tx, %tx] : memref<4x64xf32>
    memref.store %v, %low[%tx, %tx] : memref<4x64xf32, strided<[96, 1]>>
    gpu.terminator
  }
  %high = memref.subview %a[0, 64] [4, 32] [1, 1] : memref<4x96xf32> to memref<4x32xf32, strided<[96, 1], offset: 64>>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    %v = memref.load %q[%tx, %tx] : memref<4x32xf32>
    memref.store %v, %high[%tx, %tx] : memref<4x32xf32, strided<[96, 1], offset: 64>>
    gpu.terminator
  }
  return %a : memref<4x96xf32>
}

// -----

// Slices that overlap (channels 0-63 and 32-95) keep their order.
// CHECK-LABEL: func.func @overlapping_slices
// CHECK-COUNT-2: gpu.launch
func.func @overlapping_slices(%p: memref<4x64xf32>) -> memref<4x96xf32> {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %a = memref.alloc() : memref<4x96xf32>
  %low = memref.subview %a[0, 0] [4, 64] [1, 1] : memref<4x96xf32> to memref<4x64xf32, strided<[96, 1]>>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    %v = memref.load %p[%tx, %tx] : memref<4x64xf32>
    memref.store %v, %low[%tx, %tx] : memref<4x64xf32, strided<[96, 1]>>
    gpu.terminator
  }
  %high = memref.subview %a[0, 32] [4, 64] [1, 1] : memref<4x96xf32> to memref<4x64xf32, strided<[96, 1], offset: 32>>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    %v = memref.load %p[%tx, %tx] : memref<4x64xf32>
    memref.store %v, %high[%tx, %tx] : memref<4x64xf32, strided<[96, 1], offset: 32>>
    gpu.terminator
  }
  return %a : memref<4x96xf32>
}
