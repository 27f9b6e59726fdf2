// RUN: cudnn-opt %s --split-input-file --allow-unregistered-dialect --cudnn-pack-temporaries | FileCheck %s
// RUN: cudnn-opt %s --split-input-file --allow-unregistered-dialect --cudnn-pack-temporaries="max-bytes=1024" | FileCheck %s --check-prefix=SMALL

// Small static temporaries (a batch norm's per-channel statistics and the
// partial states of a split reduction) become views into one allocation,
// 256-byte aligned offsets, freed once before the return; the first op of
// the block being one of them is fine.
// CHECK-LABEL: func.func @stats
// CHECK:         %[[ARENA:.*]] = memref.alloc() {alignment = 256 : i64} : memref<5376xi8>
// CHECK:         %[[C0:.*]] = arith.constant 0 : index
// CHECK:         %[[COUNT:.*]] = memref.view %[[ARENA]][%[[C0]]][] : memref<5376xi8> to memref<64xi64>
// CHECK:         %[[C512:.*]] = arith.constant 512 : index
// CHECK:         %[[MEAN:.*]] = memref.view %[[ARENA]][%[[C512]]][] : memref<5376xi8> to memref<64xf32>
// CHECK:         %[[C768:.*]] = arith.constant 768 : index
// CHECK:         %[[PART:.*]] = memref.view %[[ARENA]][%[[C768]]][] : memref<5376xi8> to memref<9x64xi64>
// CHECK-NOT:     memref.alloc
// CHECK:         "test.use"(%[[COUNT]], %[[MEAN]], %[[PART]])
// CHECK-NOT:     memref.dealloc %[[COUNT]]
// CHECK:         memref.dealloc %[[ARENA]] : memref<5376xi8>
// CHECK-NEXT:    return
// With max-bytes=1024 the 4608-byte partial states keep their allocation.
// SMALL-LABEL: func.func @stats
// SMALL:         memref.alloc() {alignment = 256 : i64} : memref<768xi8>
// SMALL-COUNT-2: memref.view
// SMALL:         memref.alloc() : memref<9x64xi64>
func.func @stats() {
  %count = memref.alloc() : memref<64xi64>
  %mean = memref.alloc() : memref<64xf32>
  %part = memref.alloc() : memref<9x64xi64>
  "test.use"(%count, %mean, %part) : (memref<64xi64>, memref<64xf32>, memref<9x64xi64>) -> ()
  memref.dealloc %count : memref<64xi64>
  memref.dealloc %mean : memref<64xf32>
  memref.dealloc %part : memref<9x64xi64>
  return
}

// -----

// Left alone: a returned buffer, a buffer freed under a condition, a
// dynamic shape, a strided layout; with one packable temporary left
// (%plain) nothing changes.
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT:     memref.view
// CHECK-COUNT-5: memref.alloc
func.func @left_alone(%n: index, %c: i1) -> memref<8xf32> {
  %ret = memref.alloc() : memref<8xf32>
  %cond = memref.alloc() : memref<8xf32>
  %dyn = memref.alloc(%n) : memref<?xf32>
  %strided = memref.alloc() : memref<4x4xf32, strided<[1, 4]>>
  %plain = memref.alloc() : memref<8xf32>
  "test.use"(%ret, %cond, %dyn, %strided, %plain) : (memref<8xf32>, memref<8xf32>, memref<?xf32>, memref<4x4xf32, strided<[1, 4]>>, memref<8xf32>) -> ()
  scf.if %c {
    memref.dealloc %cond : memref<8xf32>
  }
  memref.dealloc %dyn : memref<?xf32>
  memref.dealloc %plain : memref<8xf32>
  return %ret : memref<8xf32>
}

// -----

// Functions of several blocks are left alone.
// CHECK-LABEL: func.func @blocks
// CHECK-NOT:     memref.view
func.func @blocks(%c: i1) {
  %a = memref.alloc() : memref<8xf32>
  %b = memref.alloc() : memref<8xf32>
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  "test.use"(%a, %b) : (memref<8xf32>, memref<8xf32>) -> ()
  cf.br ^bb2
^bb2:
  memref.dealloc %a : memref<8xf32>
  memref.dealloc %b : memref<8xf32>
  return
}
