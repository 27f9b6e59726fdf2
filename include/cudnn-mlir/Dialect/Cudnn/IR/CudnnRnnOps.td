//===- CudnnRnnOps.td - cudnn RNN ops (RNN v8 API) ---------*- tablegen -*-===//
//
// cuDNN's graph API has no RNN node, so these are tensor-level ops that take
// the handle and builtin tensors and map to the RNN v8 calls. x and y are
// [seq, batch, vector] (seq_major layouts) or [batch, seq, vector]
// (batch_major_unpacked); h and c states are [layers * dirs, batch, size].
//
//===----------------------------------------------------------------------===//

#ifndef CUDNN_MLIR_CUDNN_RNN_OPS
#define CUDNN_MLIR_CUDNN_RNN_OPS

include "cudnn-mlir/Dialect/Cudnn/IR/CudnnOps.td"

def Cudnn_RnnForwardOp : Cudnn_Op<"rnn_forward", [
    AttrSizedOperandSegments, AttrSizedResultSegments]> {
  let summary = "RNN forward pass (cudnnRNNForward)";
  let description = [{
    Runs the stacked RNN described by `config` (cudnnSetRNNDescriptor_v8)
    over x with initial states hx (and cx for LSTM) and the flat weight space
    `weights` (1-D, cudnnGetRNNWeightSpaceSize bytes' worth of elements),
    giving y, the final states hy (and cy for LSTM) and, in training,
    optionally the 1-D reserve space that the backward ops need (a training
    forward without it applies dropout but cannot be differentiated). `seq_lengths` (i32, one per
    batch entry) gives each sequence's length; absent means all are full.
    Maps to cudnnRNNForward with fwdMode from `phase`.

    Example:

    ```mlir
    %y, %hy, %cy = cudnn.rnn_forward %h config = #cudnn.rnn_config<cell = lstm,
        input_size = 16, hidden_size = 32, proj_size = 0, num_layers = 1,
        direction = unidirectional, bias = double, layout = seq_major_unpacked,
        math = default, dropout = 0.000000e+00 : f32> phase = inference
        x = %x hx = %hx cx = %cx weights = %w
        : !cudnn.handle, tensor<10x4x16xf32>, tensor<1x4x32xf32>,
          tensor<1x4x32xf32>, tensor<8448xf32>
        -> tensor<10x4x32xf32>, tensor<1x4x32xf32> cy tensor<1x4x32xf32>
    ```
  }];
  let arguments = (ins
    Cudnn_HandleType:$handle,
    AnyRankedTensor:$x,
    AnyRankedTensor:$hx,
    Optional<AnyRankedTensor>:$cx,
    AnyRankedTensor:$weights,
    Optional<AnyRankedTensor>:$seq_lengths,
    Cudnn_RnnConfigAttr:$config,
    Cudnn_FwdPhaseAttr:$phase);
  let results = (outs
    AnyRankedTensor:$y,
    AnyRankedTensor:$hy,
    Optional<AnyRankedTensor>:$cy,
    Optional<AnyRankedTensor>:$reserve_space);
  let assemblyFormat = [{
    $handle `config` `=` qualified($config) `phase` `=` $phase
    `x` `=` $x `hx` `=` $hx (`cx` `=` $cx^)? `weights` `=` $weights
    (`seq_lengths` `=` $seq_lengths^)? attr-dict
    `:` type(operands) `->` type($y) `,` type($hy) (`cy` type($cy)^)?
    (`reserve_space` type($reserve_space)^)?
  }];
  let hasVerifier = 1;
}

def Cudnn_RnnBackwardDataOp : Cudnn_Op<"rnn_backward_data", [
    AttrSizedOperandSegments]> {
  let summary = "RNN data gradients (cudnnRNNBackwardData_v8)";
  let description = [{
    From the forward output y, its gradient dy, the final-state gradients dhy
    (and dcy for LSTM), the initial states hx (and cx), the weights and the
    forward pass's reserve space, computes dx, dhx (and dcx for LSTM).
    Shapes are those of `cudnn.rnn_forward` with the same `config`.

    Example:

    ```mlir
    %dx, %dhx = cudnn.rnn_backward_data %h config = #cudnn.rnn_config<cell = gru,
        input_size = 16, hidden_size = 32, proj_size = 0, num_layers = 1,
        direction = unidirectional, bias = double, layout = seq_major_unpacked,
        math = default, dropout = 0.000000e+00 : f32>
        y = %y dy = %dy hx = %hx dhy = %dhy weights = %w reserve_space = %r
        : !cudnn.handle, tensor<10x4x32xf32>, tensor<10x4x32xf32>,
          tensor<1x4x32xf32>, tensor<1x4x32xf32>, tensor<4096xf32>, tensor<1024xi8>
        -> tensor<10x4x16xf32>, tensor<1x4x32xf32>
    ```
  }];
  let arguments = (ins
    Cudnn_HandleType:$handle,
    AnyRankedTensor:$y,
    AnyRankedTensor:$dy,
    AnyRankedTensor:$hx,
    AnyRankedTensor:$dhy,
    Optional<AnyRankedTensor>:$cx,
    Optional<AnyRankedTensor>:$dcy,
    AnyRankedTensor:$weights,
    AnyRankedTensor:$reserve_space,
    Optional<AnyRankedTensor>:$seq_lengths,
    Cudnn_RnnConfigAttr:$config);
  let results = (outs
    AnyRankedTensor:$dx,
    AnyRankedTensor:$dhx,
    Optional<AnyRankedTensor>:$dcx);
  let assemblyFormat = [{
    $handle `config` `=` qualified($config) `y` `=` $y `dy` `=` $dy
    `hx` `=` $hx `dhy` `=` $dhy (`cx` `=` $cx^)? (`dcy` `=` $dcy^)?
    `weights` `=` $weights `reserve_space` `=` $reserve_space
    (`seq_lengths` `=` $seq_lengths^)? attr-dict
    `:` type(operands) `->` type($dx) `,` type($dhx) (`,` type($dcx)^)?
  }];
  let hasVerifier = 1;
}

def Cudnn_RnnBackwardWeightsOp : Cudnn_Op<"rnn_backward_weights"> {
  let summary = "RNN weight gradients (cudnnRNNBackwardWeights_v8)";
  let description = [{
    From the forward input x, initial state hx, output y and the reserve
    space (after `cudnn.rnn_backward_data`), computes the gradient of the
    flat weight space, `dweights` (1-D, the weight space's shape). cuDNN 9's
    cudnnRNNBackwardWeights_v8 supports only addGrad =
    CUDNN_WGRAD_MODE_ADD (it adds to what dweights holds), so the runtime
    zeroes dweights first and then adds: the result is the gradient alone.
    `cudnn.rnn_unpack_weights` gives it back in PyTorch's parameter layout.

    Example:

    ```mlir
    %dw = cudnn.rnn_backward_weights %h config = #cudnn.rnn_config<cell = rnn_tanh,
        input_size = 16, hidden_size = 32, proj_size = 0, num_layers = 1,
        direction = unidirectional, bias = double, layout = seq_major_unpacked,
        math = default, dropout = 0.000000e+00 : f32>
        x = %x hx = %hx y = %y reserve_space = %r
        : !cudnn.handle, tensor<10x4x16xf32>, tensor<1x4x32xf32>,
          tensor<10x4x32xf32>, tensor<1024xi8>
        -> tensor<1600xf32>
    ```
  }];
  let arguments = (ins
    Cudnn_HandleType:$handle,
    AnyRankedTensor:$x,
    AnyRankedTensor:$hx,
    AnyRankedTensor:$y,
    AnyRankedTensor:$reserve_space,
    Optional<AnyRankedTensor>:$seq_lengths,
    Cudnn_RnnConfigAttr:$config);
  let results = (outs AnyRankedTensor:$dweights);
  let assemblyFormat = [{
    $handle `config` `=` qualified($config) `x` `=` $x `hx` `=` $hx `y` `=` $y
    `reserve_space` `=` $reserve_space (`seq_lengths` `=` $seq_lengths^)?
    attr-dict `:` type(operands) `->` type($dweights)
  }];
  let hasVerifier = 1;
}

def Cudnn_RnnPackWeightsOp : Cudnn_Op<"rnn_pack_weights", [Pure]> {
  let summary = "PyTorch's RNN parameters into cuDNN's weight space";
  let description = [{
    Copies the flat list of PyTorch parameters of the RNN that `config`
    describes into one 1-D weight space, the `weights` operand of
    `cudnn.rnn_forward` and `cudnn.rnn_backward_data`. `params` come in
    PyTorch's order, per layer and then per direction: `weight_ih`
    ([gates * hidden_size, layer input]), `weight_hh` ([gates * hidden_size,
    proj_size or hidden_size]), then with `bias = double` `bias_ih` and
    `bias_hh` ([gates * hidden_size]), then with `proj_size > 0` `weight_hr`
    ([proj_size, hidden_size]); gates = 4 (LSTM), 3 (GRU), 1 (vanilla RNN).
    `bias` must be `double` or `no_bias` (PyTorch has no single-bias RNNs).
    Every parameter has the element type of `weights`, whose length is the
    parameters' total element count (the runtime checks that this is
    cudnnGetRNNWeightSpaceSize). The runtime copies each gate's rows to where
    cudnnGetRNNWeightParams places that matrix or bias.

    Example:

    ```mlir
    %w = cudnn.rnn_pack_weights %h config = #cudnn.rnn_config<cell = gru,
        input_size = 16, hidden_size = 32, proj_size = 0, num_layers = 1,
        direction = unidirectional, bias = double, layout = seq_major_unpacked,
        math = default, dropout = 0.000000e+00 : f32>
        params(%w_ih, %w_hh, %b_ih, %b_hh)
        : !cudnn.handle, tensor<96x16xf32>, tensor<96x32xf32>, tensor<96xf32>,
          tensor<96xf32> -> tensor<4800xf32>
    ```
  }];
  let arguments = (ins
    Cudnn_HandleType:$handle,
    Variadic<AnyRankedTensor>:$params,
    Cudnn_RnnConfigAttr:$config);
  let results = (outs AnyRankedTensor:$weights);
  let assemblyFormat = [{
    $handle `config` `=` qualified($config) `params` `(` $params `)` attr-dict
    `:` type(operands) `->` type($weights)
  }];
  let hasVerifier = 1;
}

def Cudnn_RnnUnpackWeightsOp : Cudnn_Op<"rnn_unpack_weights", [Pure]> {
  let summary = "cuDNN's RNN weight space back into PyTorch's parameters";
  let description = [{
    The reverse of `cudnn.rnn_pack_weights`: splits a 1-D weight space of the
    RNN that `config` describes (typically the `dweights` gradient of
    `cudnn.rnn_backward_weights`) into tensors shaped like PyTorch's
    parameters, in PyTorch's order, each gate's rows read from where
    cudnnGetRNNWeightParams places them. The same checks as
    `cudnn.rnn_pack_weights` apply to the results.

    Example:

    ```mlir
    %p:4 = cudnn.rnn_unpack_weights %h config = #cudnn.rnn_config<cell = gru,
        input_size = 16, hidden_size = 32, proj_size = 0, num_layers = 1,
        direction = unidirectional, bias = double, layout = seq_major_unpacked,
        math = default, dropout = 0.000000e+00 : f32>
        weights = %dw : !cudnn.handle, tensor<4800xf32>
        -> tensor<96x16xf32>, tensor<96x32xf32>, tensor<96xf32>, tensor<96xf32>
    ```
  }];
  let arguments = (ins
    Cudnn_HandleType:$handle,
    AnyRankedTensor:$weights,
    Cudnn_RnnConfigAttr:$config);
  let results = (outs Variadic<AnyRankedTensor>:$params);
  let assemblyFormat = [{
    $handle `config` `=` qualified($config) `weights` `=` $weights attr-dict
    `:` type(operands) `->` type($params)
  }];
  let hasVerifier = 1;
}

def Cudnn_RnnExecuteOp : Cudnn_Op<"rnn_execute", [AttrSizedOperandSegments,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "An RNN call on device buffers (what the RNN ops bufferize to)";
  let description = [{
    Runs one call of the RNN described by `config` on memrefs, as
    `cudnn-bufferize` produces it from the tensor-level RNN ops:
    `forward_inference` and `forward_training` (`cudnn.rnn_forward`: x, hx,
    cx for LSTM, weights and optionally seq_lengths in; y, hy, cy for LSTM
    and, when training for a backward pass, the reserve space written),
    `backward_data` (`cudnn.rnn_backward_data`: y, dy, hx, dhy, cx, dcy,
    weights, reserve in; dx, dhx, dcx written), `backward_weights`
    (`cudnn.rnn_backward_weights`: x, hx, y, reserve in; dweights written),
    `pack_weights` (`cudnn.rnn_pack_weights`: params in, weights written) and
    `unpack_weights` (`cudnn.rnn_unpack_weights`: weights in, params
    written). A training forward without a reserve buffer applies dropout
    with a temporary one; no backward call can follow it.
    `convert-cudnn-to-llvm` turns it into one `cmrtInvocationRnn` or
    `cmrtInvocationRnnWeights` call; the sequence length and batch come from
    x's (or dx's) shape.

    Example:

    ```mlir
    cudnn.rnn_execute %h forward_inference #cudnn.rnn_config<cell = gru,
        input_size = 16, hidden_size = 32, proj_size = 0, num_layers = 1,
        direction = unidirectional, bias = double, layout = seq_major_unpacked,
        math = default, dropout = 0.000000e+00 : f32>
        x(%x : memref<10x4x16xf32>) y(%y : memref<10x4x32xf32>)
        hx(%hx : memref<1x4x32xf32>) hy(%hy : memref<1x4x32xf32>)
        weights(%w : memref<4800xf32>)
    ```
  }];
  let arguments = (ins
    Cudnn_HandleType:$handle,
    Cudnn_RnnConfigAttr:$config,
    Cudnn_RnnCallAttr:$call,
    Optional<AnyMemRef>:$x,
    Optional<AnyMemRef>:$y,
    Optional<AnyMemRef>:$hx,
    Optional<AnyMemRef>:$hy,
    Optional<AnyMemRef>:$cx,
    Optional<AnyMemRef>:$cy,
    Optional<AnyMemRef>:$weights,
    Optional<AnyMemRef>:$seq_lengths,
    Optional<AnyMemRef>:$dy,
    Optional<AnyMemRef>:$dx,
    Optional<AnyMemRef>:$dhy,
    Optional<AnyMemRef>:$dhx,
    Optional<AnyMemRef>:$dcy,
    Optional<AnyMemRef>:$dcx,
    Optional<AnyMemRef>:$dweights,
    Optional<AnyMemRef>:$reserve,
    Variadic<AnyMemRef>:$params);
  let assemblyFormat = [{
    $handle $call qualified($config)
    (`x` `(` $x^ `:` type($x) `)`)? (`y` `(` $y^ `:` type($y) `)`)?
    (`hx` `(` $hx^ `:` type($hx) `)`)? (`hy` `(` $hy^ `:` type($hy) `)`)?
    (`cx` `(` $cx^ `:` type($cx) `)`)? (`cy` `(` $cy^ `:` type($cy) `)`)?
    (`weights` `(` $weights^ `:` type($weights) `)`)?
    (`seq_lengths` `(` $seq_lengths^ `:` type($seq_lengths) `)`)?
    (`dy` `(` $dy^ `:` type($dy) `)`)? (`dx` `(` $dx^ `:` type($dx) `)`)?
    (`dhy` `(` $dhy^ `:` type($dhy) `)`)? (`dhx` `(` $dhx^ `:` type($dhx) `)`)?
    (`dcy` `(` $dcy^ `:` type($dcy) `)`)? (`dcx` `(` $dcx^ `:` type($dcx) `)`)?
    (`dweights` `(` $dweights^ `:` type($dweights) `)`)?
    (`reserve` `(` $reserve^ `:` type($reserve) `)`)?
    (`params` `(` $params^ `:` type($params) `)`)? attr-dict
  }];
  let hasVerifier = 1;
}

def Cudnn_RnnWeightSpaceOp : Cudnn_Op<"rnn_weight_space", [
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "A weight space the runtime keeps, packed once per parameter set";
  let description = [{
    What `cudnn-pack-rnn-weights-once` turns a call-local weight space into:
    the 1-D weight space of the RNN that `config` describes, holding `params`
    (PyTorch's order and shapes, as for `cudnn.rnn_pack_weights`), in device
    memory the runtime owns for this op, the calling thread and the stream.
    The runtime packs the parameters into it unless the caller declared the
    parameters unchanged since the last pack (`cmrtSetParameterVersion`: the
    same non-zero version and the same parameter pointers); a caller that
    declares nothing gets a pack on every call. The buffer stays valid until
    the next execution of this op on the same thread and stream, so it must
    only be read, and only within the call: it is never freed by the
    module, returned or written. Lowers to
    `cmrtInvocationRnnPackedWeights`.

    Example:

    ```mlir
    %w = cudnn.rnn_weight_space %h config = #cudnn.rnn_config<cell = gru,
        input_size = 16, hidden_size = 32, proj_size = 0, num_layers = 1,
        direction = unidirectional, bias = double, layout = seq_major_unpacked,
        math = default, dropout = 0.000000e+00 : f32>
        params(%w_ih, %w_hh, %b_ih, %b_hh : memref<96x16xf32>,
               memref<96x32xf32>, memref<96xf32>, memref<96xf32>)
        : memref<4800xf32>
    ```
  }];
  let arguments = (ins
    Cudnn_HandleType:$handle,
    Cudnn_RnnConfigAttr:$config,
    Variadic<AnyMemRef>:$params);
  let results = (outs AnyMemRef:$weights);
  let assemblyFormat = [{
    $handle `config` `=` qualified($config) `params` `(` $params `:`
    type($params) `)` attr-dict `:` type($weights)
  }];
  let hasVerifier = 1;
}

def Cudnn_RnnReserveSizeOp : Cudnn_Op<"rnn_reserve_size", [Pure]> {
  let summary = "Bytes of an RNN's reserve space (cudnnGetRNNTempSpaceSizes)";
  let description = [{
    The size of the reserve space a training forward of the RNN described
    by `config` over x (and `seq_lengths`) fills for the backward calls,
    known only to cuDNN at run time: what `cudnn-bufferize` allocates the
    reserve buffer with. Lowers to `cmrtInvocationRnnReserveBytes`.

    Example:

    ```mlir
    %n = cudnn.rnn_reserve_size %h #cudnn.rnn_config<cell = lstm,
        input_size = 16, hidden_size = 32, proj_size = 0, num_layers = 1,
        direction = unidirectional, bias = double, layout = seq_major_unpacked,
        math = default, dropout = 0.000000e+00 : f32>
        x(%x : memref<10x4x16xf32>)
    ```
  }];
  let arguments = (ins
    Cudnn_HandleType:$handle,
    Cudnn_RnnConfigAttr:$config,
    AnyMemRef:$x,
    Optional<AnyMemRef>:$seq_lengths);
  let results = (outs Index:$bytes);
  let assemblyFormat = [{
    $handle qualified($config) `x` `(` $x `:` type($x) `)`
    (`seq_lengths` `(` $seq_lengths^ `:` type($seq_lengths) `)`)? attr-dict
  }];
}

#endif // CUDNN_MLIR_CUDNN_RNN_OPS
