//===- Passes.td - general GPU codegen passes of cudnn-mlir -*- tablegen -*-===//

#ifndef CUDNN_MLIR_CODEGEN_PASSES
#define CUDNN_MLIR_CODEGEN_PASSES

include "mlir/Pass/PassBase.td"

def CodegenFuseElementwisePass
    : Pass<"codegen-fuse-elementwise", "func::FuncOp"> {
  let summary = "Fuses linalg ops on tensors into as few kernels as possible";
  let description = [{
    Producer/consumer fusion of `linalg.generic` ops on tensors (upstream's
    elementwise fusion patterns) with a GPU cost model: an all-parallel
    producer is fused into every consumer that reads it through a
    permutation, even when it has several users, because recomputing a few
    arithmetic ops is cheaper on a bandwidth-bound GPU than a round trip
    through memory. Broadcasts fold into the consumers' indexing maps, and an
    elementwise prologue folds into the reduction that reads it. Reshapes
    around generics are propagated where that enables fusion, and dead
    producers are erased.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def CodegenMapToGpuPass : Pass<"codegen-map-to-gpu", "func::FuncOp"> {
  let summary = "Maps bufferized linalg ops onto GPU kernels (gpu.launch)";
  let description = [{
    Runs after bufferization. Each `linalg.generic` / `linalg.fill` (named
    linalg ops are generalized first) on device buffers becomes one
    `gpu.launch`, and a row reduction with the ops that read it row by row
    (softmax, a mean's division) becomes a single kernel. The strategy
    follows the op's shape:

    - *elementwise* (all parallel): one thread per group of consecutive
      output elements, 16-byte vector loads and stores when every buffer is
      contiguous along the innermost dimension and (checked at run time) 16-
      byte aligned, scalar code otherwise;
    - *transpose* (all parallel, one input whose innermost dimension is not
      the output's): 32x32 tiles through shared memory, so that both the
      reads and the writes are coalesced;
    - *row reduction* (the innermost dimension is reduced): one block per
      row, a strided per-thread loop, warp shuffles and shared memory to
      combine; consecutive generics over the same rows that only read the
      row's reductions (softmax, normalisation, a mean's division) join the
      kernel, and reductions consumed only there never reach memory;
    - *column reduction* (reduced dimensions outside the innermost):
      threads along the kept innermost dimension, the reduction split across
      a block's warps and, for tall columns, across blocks, with a second
      kernel combining the partial results;
    - anything else (pooling windows, gathers): one thread per output
      element looping over the reduction dimensions.

    Before mapping, layout copies that bufferization put at the function
    boundary (a channels-last input copied to a packed temporary that linalg
    ops only read; a temporary a linalg op writes and that is only copied to
    a channels-last output) are forwarded: the kernels read and write the
    strided buffers directly, and elementwise kernels then walk their output
    in memory order. A generic marked `codegen.combiner = "welford"`, or one
    with several outputs each with a combiner, is a *multi-value reduction*:
    planes or columns as for the single-value reductions, partial states
    merged value by value or with Chan's formula.

    With `grid-sync` (the default), a columns multi-value reduction (NHWC
    batch-norm statistics) whose epilogue is followed by an elementwise op
    that reads the reduction's input element by element (the
    normalisation) becomes one kernel named `..._grid_sync`: the blocks
    fold their rows (keeping the first trips of the input in shared
    memory), meet at a grid-wide barrier, merge the partial states and run
    the epilogue, meet again and apply the elementwise op newest rows
    first. The runtime launches such a kernel cooperatively, so all of its
    blocks are resident at once. A planes multi-value reduction (NCHW) with
    at least 132 outputs and such a follower is not split: each block
    reduces one output's planes, runs the epilogue, and after a block
    barrier applies the elementwise op to the same planes. `grid-sync=false`
    keeps the follower a kernel of its own in both cases.

    Functions must have static shapes. With `report-kernels`, each function
    gets a remark saying how many kernels it became and with which
    strategies; the `num-kernels` statistic counts them too.
  }];
  let options = [
    Option<"reportKernels", "report-kernels", "bool", /*default=*/"false",
           "Emit a remark per function listing the kernels it became">,
    Option<"gridSync", "grid-sync", "bool", /*default=*/"true",
           "Run the elementwise op after a multi-value reduction and its "
           "epilogue (batch-norm training's normalisation) in the "
           "reduction's kernel: channels-last as one kernel with grid-wide "
           "barriers, launched cooperatively; NCHW with at least 132 "
           "channels in the block that reduced each channel">,
  ];
  let statistics = [
    Statistic<"numKernels", "num-kernels", "GPU kernels generated">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::vector::VectorDialect"];
}

def CodegenHoistParameterKernelsPass
    : Pass<"codegen-hoist-parameter-kernels", "func::FuncOp"> {
  let summary = "Moves the elementwise ops that read only arguments and "
                "constants to the top of the function";
  let description = [{
    Runs on linalg on tensors, before bufferization. An all-parallel
    `linalg.generic` of the function's entry block whose inputs (and
    captured values) are function arguments, constants or results of ops
    hoisted before it (or reshapes of those), whose inits are static `tensor.empty`s its body does
    not read, and whose results are no op's init (a fill or a generic that
    starts a reduction's accumulator stays in the reduction's kernel), moves to
    the start of the block, after its leading constants, in program order;
    each init becomes a `tensor.empty` of its own there, and a constant or
    reshape it reads from further down is cloned there. These are mostly the folded
    scale and shift of each batch norm after a conv, computed from the
    parameters: spread between the conv graphs, they were two one-block
    kernels per batch norm; together at the top they map to adjacent
    launches that `codegen-merge-launches` joins into one kernel. The
    `num-hoisted` statistic counts the ops moved.

    Example:

    ```mlir
    %y = cudnn.build_and_exec_graph ...          // a conv graph
    %s = linalg.generic ... ins(%scale, %var : tensor<64xf16>, tensor<64xf16>)
    ```

    becomes

    ```mlir
    %e = tensor.empty() : tensor<64xf16>
    %s = linalg.generic ... ins(%scale, %var ...) outs(%e ...)
    %y = cudnn.build_and_exec_graph ...
    ```
  }];
  let statistics = [
    Statistic<"numHoisted", "num-hoisted", "linalg ops moved to the top">,
  ];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def CodegenSplitConcatReadsPass
    : Pass<"codegen-split-concat-reads", "func::FuncOp"> {
  let summary = "Splits a generic that reads a concat's inputs into one "
                "generic per input, its reads turned into inputs";
  let description = [{
    Runs on linalg on tensors, after fusion. `tcp.concat` and `tcp.slice`
    lower to generics that read with `tensor.extract` at computed indices,
    and fusion carries those reads into their consumers: a DenseNet
    layer's batch norm over the concat of all earlier features loaded
    from every concat input for each element and selected one, one scalar
    at a time (a fifth of copy bandwidth or less on an H100).

    For an all-parallel generic with static shapes, one result, a
    permutation for its output map and no regions in its body, the pass
    finds where the body's comparisons of a loop index (plus a constant)
    with a constant change value, and cuts that loop there (one loop
    only; at most 64 pieces). In each piece it follows the values the
    body yields: a comparison decided over the whole piece is a constant,
    a `select` on it or a `minsi`/`maxsi` (a clamp) whose outcome is known
    is its chosen operand, and every `tensor.extract` left must be at
    `loop index + constant` (or a constant) in each dimension, inside the
    tensor: it becomes an input, the tensor's slice for the piece, read
    through an indexing map. When any piece keeps a read that cannot
    become an input the generic is left as it was. A generic with no cut
    (a slice fused into its consumer) becomes one generic. Pieces write
    `tensor.empty`s inserted into the result with `tensor.insert_slice`;
    `cudnn-bufferize` makes each a view of the result's buffer, and the
    pieces' launches are adjacent and independent, so
    `codegen-merge-launches` joins them.

    Example (a concat of a 64- and a 32-channel tensor, then a ReLU):

    ```mlir
    %r = linalg.generic ... outs(%e : tensor<8x96xf16>) {
      %c = linalg.index 1 : index
      %a = tensor.extract %x[%i, %clamped] : tensor<8x64xf16>
      %b = tensor.extract %y[%i, %shifted] : tensor<8x32xf16>
      %in = arith.cmpi sge, %c, %c64 : index
      %v = arith.select %in, %b, %a : f16
      ...
    ```

    becomes a generic on `%x` writing columns 0 to 63 and one on `%y`
    writing 64 to 95, each with identity maps. The `num-split` statistic
    counts the generics split or rewritten.
  }];
  let statistics = [
    Statistic<"numSplit", "num-split", "generics split or rewritten">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def CodegenMergeLaunchesPass
    : Pass<"codegen-merge-launches", "func::FuncOp"> {
  let summary = "Joins runs of independent one-dimensional gpu.launch ops "
                "into one launch";
  let description = [{
    Runs after `codegen-map-to-gpu`, before outlining. A run is a sequence
    of `gpu.launch` ops in one block with only allocations, constants and
    views (no memory reads or writes, no regions) between them, where every
    launch has a one-dimensional grid and block of constant sizes, no
    shared memory, barriers, async tokens or discardable attributes (such
    as `nvvm.minctasm`) and no `gpu.block_id`/`grid_dim`/`block_dim`/
    `global_id` ops (they would see the merged launch), is not a
    cooperative `_grid_sync` kernel, writes
    only buffers the function allocated, and neither writes a buffer
    another launch of the run reads or writes nor reads one another writes.
    A run also ends before the merged kernel's parameters (8 bytes for each
    buffer, which kernels take as bare pointers, and for each scalar its
    bodies take) would pass
    `max-parameter-bytes`: 4096 by default (PTX before ISA 8.1 allows 4352);
    the pipelines, which emit PTX 8.1, pass 32000 for sm_70 and later
    (32764 allowed). Two launches that write disjoint static slices of one
    buffer (the pieces of `codegen-split-concat-reads`) are independent.
    Each run of two or more becomes one launch at the place of its last,
    with the runs' blocks end to end and the largest block size: a block
    finds its launch by a binary search over the block offsets (`scf.if`
    on the block index) and runs that launch's body with its block index
    shifted and its grid and block sizes as constants; threads beyond that
    launch's block size skip it. ResNet-50 at batch 1 ran 106 one-block
    kernels (two per batch norm, about 2 us each on an H100); after
    `codegen-hoist-parameter-kernels` they are 4. The `num-merged`
    statistic counts the launches that joined a run.

    Example: two launches of 1 block of 32 threads and 3 blocks of 256
    threads become

    ```mlir
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c4, ...) threads(%tx, ...) in (%sx = %c256, ...) {
      %first = arith.cmpi ult, %bx, %c1 : index
      scf.if %first {
        %active = arith.cmpi ult, %tx, %c32 : index
        scf.if %active { ... first body ... }
      } else {
        %b = arith.subi %bx, %c1 : index
        ... second body with %b for its block index ...
      }
      gpu.terminator
    }
    ```
  }];
  let options = [
    Option<"maxParameterBytes", "max-parameter-bytes", "int64_t",
           /*default=*/"4096",
           "The most bytes of kernel parameters a merged launch may take">,
  ];
  let statistics = [
    Statistic<"numMerged", "num-merged", "launches joined into another">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::scf::SCFDialect"];
}

def CodegenOutlineKernelsPass
    : Pass<"codegen-outline-kernels", "ModuleOp"> {
  let summary = "Outlines gpu.launch bodies into kernels, keeping their "
                "occupancy hints";
  let description = [{
    Upstream's `gpu-kernel-outlining`, plus what it drops: a `gpu.launch`
    that `codegen-map-to-gpu` marked with `nvvm.minctasm` (the blocks each
    multiprocessor must hold at once: ptxas then keeps the kernel's
    registers within what that many blocks can share) hands the mark to
    the `gpu.func` it becomes, where the NVVM lowering turns it into PTX's
    `.minnctapersm`. The statistics kernels of batch-norm training use it:
    without it, ptxas gave the 512-thread column kernel 76 registers, one
    block per multiprocessor instead of two (31.0 against 27.6 us on the
    H100 for f16 256x2048x7x7).

    Kernels take their buffers as bare pointers (the pipelines lower
    kernels with `use-bare-ptr-memref-call-conv` and launches to match:
    8 bytes of parameters a buffer instead of a descriptor of 3 + 2 x rank
    words), so every buffer a launch uses must have a static shape, strides
    and offset; the pass checks that at each launch and otherwise fails
    with an error naming the buffer's type.

    Example:

    ```mlir
    gpu.launch blocks(...) in (...) threads(...) in (...) {
      ...
      gpu.terminator
    } {nvvm.minctasm = 2 : i32}
    ```

    becomes a `gpu.launch_func` of

    ```mlir
    gpu.func @f_kernel(...) kernel attributes {known_block_size = ...,
        nvvm.minctasm = 2 : i32} { ... }
    ```
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect", "::mlir::DLTIDialect",
                           "::mlir::cf::ControlFlowDialect"];
}

def CodegenExternDynamicSharedMemoryPass
    : Pass<"codegen-extern-dynamic-shared-memory", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Declares the dynamic shared memory of NVVM kernels extern";
  let description = [{
    Runs after `convert-gpu-to-nvvm`. Its lowering of
    `gpu.dynamic_shared_memory` declares the shared array as an internal
    zero-length global, which LLVM's NVPTX backend then demotes into the
    kernel as an ordinary `.shared` variable of no size: ptxas places it
    among the static shared arrays, and the kernel's dynamic shared memory
    overlaps them (CUDA puts dynamic shared memory after the static; a
    kernel that stored 16-byte vectors there failed with a misaligned
    address on an H200). This pass gives every zero-length array global in
    the shared address space (3) external linkage, which the backend keeps
    as `.extern .shared .align 16 .b8 name[]`: the CUDA form.

    Example:

    ```mlir
    // before
    llvm.mlir.global internal @__dynamic_shmem__0() {addr_space = 3 : i32,
        alignment = 16 : i64} : !llvm.array<0 x i8>
    // after
    llvm.mlir.global external @__dynamic_shmem__0() {addr_space = 3 : i32,
        alignment = 16 : i64} : !llvm.array<0 x i8>
    ```
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def CodegenCheckLLVMTypesPass
    : Pass<"codegen-check-llvm-types", "::mlir::ModuleOp"> {
  let summary = "Rejects LLVM dialect types that LLVM IR translation cannot take";
  let description = [{
    The LLVM dialect verifies only the outer type of its ops and globals, so
    `!llvm.array<0 x none>`, `!llvm.struct<(i32, index)>` or a function type
    returning `none` parse and verify, but LLVM IR translation has no type
    for their elements and crashes (`gpu-module-to-binary` on a `gpu.module`,
    `cudnn-compile` on the host module). This pass, the first of
    `cudnn-to-llvm-pipeline`, gives every op whose results, block arguments
    or type attributes hold such a type an error naming the type and the
    element translation cannot take (anything `LLVM::isCompatibleType`
    rejects), and fails; `cudnn-compile` runs the same check before it
    translates. It changes nothing.

    Example:

    ```mlir
    gpu.module @kernels {
      // error: 'llvm.mlir.global' op expects an LLVM type that can be
      // translated to LLVM IR, but got '!llvm.array<0 x none>' ('none' has
      // no LLVM IR type)
      llvm.mlir.global internal @shared() {addr_space = 3 : i32} : !llvm.array<0 x none>
    }
    ```
  }];
}

def CodegenGpuModulesToBinaryPass
    : Pass<"codegen-gpu-modules-to-binary", "::mlir::ModuleOp"> {
  let summary = "Compiles every gpu.module to a gpu.binary, several at once";
  let description = [{
    Upstream's `gpu-module-to-binary`, with the modules compiled in
    parallel: the pipeline outlines one `gpu.module` per kernel, and with
    `format=fatbin` each runs the CUDA toolkit's `ptxas` (one process per
    module), which upstream's pass runs one after the other. Each module is
    serialised for each of its targets (`TargetAttrInterface`) on MLIR's
    thread pool (`--mlir-disable-threading`: one at a time), then replaced,
    in order, by a `gpu.binary` of the same name holding the objects. A
    format other than `fatbin` or `isa` (PTX alone), or a module whose
    serialisation fails, is an error on that module.

    Example (`format=isa`):

    ```mlir
    // before
    gpu.module @k [#nvvm.target<chip = "sm_90">] {
      llvm.func @k() attributes {gpu.kernel, nvvm.kernel} { llvm.return }
    }
    // after
    gpu.binary @k [#gpu.object<#nvvm.target<chip = "sm_90">,
        properties = {...}, assembly = "...">]
    ```
  }];
  let options = [
    Option<"toolkitPath", "toolkit", "std::string", [{""}],
           "The CUDA toolkit (ptxas, fatbinary, libdevice); empty: "
           "upstream's search (CUDA_ROOT, CUDA_HOME, CUDA_PATH)">,
    Option<"format", "format", "std::string", [{"fatbin"}],
           "fatbin (machine code and PTX) or isa (PTX)">,
    Option<"cmdOptions", "opts", "std::string", [{""}],
           "Options for the tools (ptxas)">,
  ];
}

#endif // CUDNN_MLIR_CODEGEN_PASSES
