// RUN: cudnn-opt %s -split-input-file -convert-tcp-to-cudnn | FileCheck %s

// PyTorch's RNN ops (the aten `.input` overloads) as tcp.custom_op become
// cudnn.rnn_pack_weights of the flat parameters and one cudnn.rnn_forward.

// A 1-layer LSTM with biases, seq-major, in inference: input_size from the
// input's last dim, hidden_size from weight_ih_l0 (4 * 32 rows); weight
// space 128x16 + 128x32 + 2 * 128 = 6400 elements.
// CHECK-LABEL: func.func @lstm
// CHECK-SAME:    (%[[X:.*]]: tensor<10x4x16xf32>, %[[HX:.*]]: tensor<1x4x32xf32>, %[[CX:.*]]: tensor<1x4x32xf32>, %[[WIH:.*]]: tensor<128x16xf32>, %[[WHH:.*]]: tensor<128x32xf32>, %[[BIH:.*]]: tensor<128xf32>, %[[BHH:.*]]: tensor<128xf32>)
// CHECK:         %[[H:.*]] = cudnn.get_current_handle !cudnn.handle
// CHECK:         %[[W:.*]] = cudnn.rnn_pack_weights %[[H]] config = #cudnn.rnn_config<cell = lstm, input_size = 16, hidden_size = 32, proj_size = 0, num_layers = 1, direction = unidirectional, bias = double, layout = seq_major_unpacked, math = default, dropout = 0.000000e+00 : f32> params(%[[WIH]], %[[WHH]], %[[BIH]], %[[BHH]]) : !cudnn.handle, tensor<128x16xf32>, tensor<128x32xf32>, tensor<128xf32>, tensor<128xf32> -> tensor<6400xf32>
// CHECK:         %[[Y:.*]], %[[HY:.*]], %[[CY:.*]] = cudnn.rnn_forward %[[H]] config = #cudnn.rnn_config<cell = lstm, input_size = 16, hidden_size = 32, proj_size = 0, num_layers = 1, direction = unidirectional, bias = double, layout = seq_major_unpacked, math = default, dropout = 0.000000e+00 : f32> phase = inference x = %[[X]] hx = %[[HX]] cx = %[[CX]] weights = %[[W]] : !cudnn.handle, tensor<10x4x16xf32>, tensor<1x4x32xf32>, tensor<1x4x32xf32>, tensor<6400xf32> -> tensor<10x4x32xf32>, tensor<1x4x32xf32> cy tensor<1x4x32xf32>{{$}}
// CHECK:         return %[[Y]], %[[HY]], %[[CY]]
// CHECK-NOT:     tcp.custom_op
func.func @lstm(%x: tensor<10x4x16xf32>, %hx: tensor<1x4x32xf32>, %cx: tensor<1x4x32xf32>,
                %w_ih: tensor<128x16xf32>, %w_hh: tensor<128x32xf32>, %b_ih: tensor<128xf32>, %b_hh: tensor<128xf32>)
    -> (tensor<10x4x32xf32>, tensor<1x4x32xf32>, tensor<1x4x32xf32>) {
  %0:3 = tcp.custom_op("torch.aten.lstm") %x, %hx, %cx, %w_ih, %w_hh, %b_ih, %b_hh
      {has_biases = true, num_layers = 1 : i64, dropout = 0.0 : f64, train = false,
       bidirectional = false, batch_first = false}
      : tensor<10x4x16xf32>, tensor<1x4x32xf32>, tensor<1x4x32xf32>, tensor<128x16xf32>, tensor<128x32xf32>, tensor<128xf32>, tensor<128xf32>
      -> tensor<10x4x32xf32>, tensor<1x4x32xf32>, tensor<1x4x32xf32>
  return %0#0, %0#1, %0#2 : tensor<10x4x32xf32>, tensor<1x4x32xf32>, tensor<1x4x32xf32>
}

// -----

// A 2-layer bidirectional GRU without biases, batch_first: parameters in
// PyTorch's order (l0, l0_reverse, l1, l1_reverse; layer 1 reads both
// directions, 2 * 32 columns), states [2 * 2, batch, 32], output
// [batch, seq, 2 * 32], batch_major_unpacked.
// CHECK-LABEL: func.func @gru_bidirectional_two_layers_batch_first
// CHECK-SAME:    (%[[X:.*]]: tensor<4x10x16xf32>, %[[HX:.*]]: tensor<4x4x32xf32>, %[[A0:.*]]: tensor<96x16xf32>, %[[B0:.*]]: tensor<96x32xf32>, %[[A0R:.*]]: tensor<96x16xf32>, %[[B0R:.*]]: tensor<96x32xf32>, %[[A1:.*]]: tensor<96x64xf32>, %[[B1:.*]]: tensor<96x32xf32>, %[[A1R:.*]]: tensor<96x64xf32>, %[[B1R:.*]]: tensor<96x32xf32>)
// CHECK:         %[[W:.*]] = cudnn.rnn_pack_weights %[[H:.*]] config = #cudnn.rnn_config<cell = gru, input_size = 16, hidden_size = 32, proj_size = 0, num_layers = 2, direction = bidirectional, bias = no_bias, layout = batch_major_unpacked, math = default, dropout = 0.000000e+00 : f32> params(%[[A0]], %[[B0]], %[[A0R]], %[[B0R]], %[[A1]], %[[B1]], %[[A1R]], %[[B1R]]) : {{.*}} -> tensor<27648xf32>
// CHECK:         %[[Y:.*]], %[[HY:.*]] = cudnn.rnn_forward %[[H]] config = #cudnn.rnn_config<cell = gru, input_size = 16, hidden_size = 32, proj_size = 0, num_layers = 2, direction = bidirectional, bias = no_bias, layout = batch_major_unpacked, math = default, dropout = 0.000000e+00 : f32> phase = inference x = %[[X]] hx = %[[HX]] weights = %[[W]] : !cudnn.handle, tensor<4x10x16xf32>, tensor<4x4x32xf32>, tensor<27648xf32> -> tensor<4x10x64xf32>, tensor<4x4x32xf32>{{$}}
// CHECK:         return %[[Y]], %[[HY]]
func.func @gru_bidirectional_two_layers_batch_first(
    %x: tensor<4x10x16xf32>, %hx: tensor<4x4x32xf32>,
    %a0: tensor<96x16xf32>, %b0: tensor<96x32xf32>, %a0r: tensor<96x16xf32>, %b0r: tensor<96x32xf32>,
    %a1: tensor<96x64xf32>, %b1: tensor<96x32xf32>, %a1r: tensor<96x64xf32>, %b1r: tensor<96x32xf32>)
    -> (tensor<4x10x64xf32>, tensor<4x4x32xf32>) {
  %0:2 = tcp.custom_op("torch.aten.gru") %x, %hx, %a0, %b0, %a0r, %b0r, %a1, %b1, %a1r, %b1r
      {has_biases = false, num_layers = 2 : i64, dropout = 0.0 : f64, train = false,
       bidirectional = true, batch_first = true}
      : tensor<4x10x16xf32>, tensor<4x4x32xf32>, tensor<96x16xf32>, tensor<96x32xf32>, tensor<96x16xf32>, tensor<96x32xf32>,
        tensor<96x64xf32>, tensor<96x32xf32>, tensor<96x64xf32>, tensor<96x32xf32>
      -> tensor<4x10x64xf32>, tensor<4x4x32xf32>
  return %0#0, %0#1 : tensor<4x10x64xf32>, tensor<4x4x32xf32>
}

// -----

// Padded sequences: the trailing i64 lengths (pack_padded_sequence's) become
// cuDNN's i32 seq_lengths through tcp.cast.
// CHECK-LABEL: func.func @rnn_tanh_lengths_i64
// CHECK-SAME:    (%[[X:.*]]: tensor<10x4x16xf32>, %[[HX:.*]]: tensor<1x4x8xf32>, %[[A:.*]]: tensor<8x16xf32>, %[[B:.*]]: tensor<8x8xf32>, %[[C:.*]]: tensor<8xf32>, %[[D:.*]]: tensor<8xf32>, %[[LEN:.*]]: tensor<4xi64>)
// CHECK:         %[[W:.*]] = cudnn.rnn_pack_weights %[[H:.*]] config = #cudnn.rnn_config<cell = rnn_tanh, input_size = 16, hidden_size = 8, {{.*}}> params(%[[A]], %[[B]], %[[C]], %[[D]]) : {{.*}} -> tensor<208xf32>
// CHECK:         %[[L32:.*]] = tcp.cast %[[LEN]] {in_int_signedness = #tcp<signedness Signed>, out_int_signedness = #tcp<signedness Signed>} : tensor<4xi64> -> tensor<4xi32>
// CHECK:         cudnn.rnn_forward %[[H]] config = #cudnn.rnn_config<cell = rnn_tanh, {{.*}}> phase = inference x = %[[X]] hx = %[[HX]] weights = %[[W]] seq_lengths = %[[L32]] : !cudnn.handle, tensor<10x4x16xf32>, tensor<1x4x8xf32>, tensor<208xf32>, tensor<4xi32> -> tensor<10x4x8xf32>, tensor<1x4x8xf32>{{$}}
func.func @rnn_tanh_lengths_i64(%x: tensor<10x4x16xf32>, %hx: tensor<1x4x8xf32>, %a: tensor<8x16xf32>, %b: tensor<8x8xf32>,
                                %c: tensor<8xf32>, %d: tensor<8xf32>, %len: tensor<4xi64>)
    -> (tensor<10x4x8xf32>, tensor<1x4x8xf32>) {
  %0:2 = tcp.custom_op("torch.aten.rnn_tanh") %x, %hx, %a, %b, %c, %d, %len
      {has_biases = true, num_layers = 1 : i64, dropout = 0.0 : f64, train = false,
       bidirectional = false, batch_first = false}
      : tensor<10x4x16xf32>, tensor<1x4x8xf32>, tensor<8x16xf32>, tensor<8x8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<4xi64>
      -> tensor<10x4x8xf32>, tensor<1x4x8xf32>
  return %0#0, %0#1 : tensor<10x4x8xf32>, tensor<1x4x8xf32>
}

// -----

// i32 lengths go to cuDNN as they are; f64 is computed in f64.
// CHECK-LABEL: func.func @rnn_relu_lengths_i32_f64
// CHECK-SAME:    %[[LEN:[^:]*]]: tensor<4xi32>)
// CHECK-NOT:     tcp.cast
// CHECK:         cudnn.rnn_forward %{{.*}} config = #cudnn.rnn_config<cell = rnn_relu, input_size = 16, hidden_size = 8, proj_size = 0, num_layers = 1, direction = unidirectional, bias = no_bias, {{.*}}> phase = inference x = %{{.*}} hx = %{{.*}} weights = %{{.*}} seq_lengths = %[[LEN]] : !cudnn.handle, tensor<10x4x16xf64>, tensor<1x4x8xf64>, tensor<192xf64>, tensor<4xi32> -> tensor<10x4x8xf64>, tensor<1x4x8xf64>{{$}}
func.func @rnn_relu_lengths_i32_f64(%x: tensor<10x4x16xf64>, %hx: tensor<1x4x8xf64>, %a: tensor<8x16xf64>, %b: tensor<8x8xf64>,
                                    %len: tensor<4xi32>) -> (tensor<10x4x8xf64>, tensor<1x4x8xf64>) {
  %0:2 = tcp.custom_op("torch.aten.rnn_relu") %x, %hx, %a, %b, %len
      {has_biases = false, num_layers = 1 : i64, dropout = 0.0 : f64, train = false,
       bidirectional = false, batch_first = false}
      : tensor<10x4x16xf64>, tensor<1x4x8xf64>, tensor<8x16xf64>, tensor<8x8xf64>, tensor<4xi32>
      -> tensor<10x4x8xf64>, tensor<1x4x8xf64>
  return %0#0, %0#1 : tensor<10x4x8xf64>, tensor<1x4x8xf64>
}

// -----

// Projections (LSTM only): weight_hh has proj_size columns, weight_hr
// [proj, hidden] follows the biases, h is [dirs, batch, proj] and c
// [dirs, batch, hidden], the output [seq, batch, 2 * proj]. f16 in and out.
// CHECK-LABEL: func.func @lstm_projection_bidirectional
// CHECK-SAME:    (%[[X:.*]]: tensor<10x4x16xf16>, %[[HX:.*]]: tensor<2x4x8xf16>, %[[CX:.*]]: tensor<2x4x32xf16>, %[[A:.*]]: tensor<128x16xf16>, %[[B:.*]]: tensor<128x8xf16>, %[[C:.*]]: tensor<128xf16>, %[[D:.*]]: tensor<128xf16>, %[[E:.*]]: tensor<8x32xf16>, %[[AR:.*]]: tensor<128x16xf16>, %[[BR:.*]]: tensor<128x8xf16>, %[[CR:.*]]: tensor<128xf16>, %[[DR:.*]]: tensor<128xf16>, %[[ER:.*]]: tensor<8x32xf16>)
// CHECK:         %[[W:.*]] = cudnn.rnn_pack_weights %[[H:.*]] config = #cudnn.rnn_config<cell = lstm, input_size = 16, hidden_size = 32, proj_size = 8, num_layers = 1, direction = bidirectional, bias = double, layout = seq_major_unpacked, math = default, dropout = 0.000000e+00 : f32> params(%[[A]], %[[B]], %[[C]], %[[D]], %[[E]], %[[AR]], %[[BR]], %[[CR]], %[[DR]], %[[ER]]) : {{.*}} -> tensor<7168xf16>
// CHECK:         cudnn.rnn_forward %[[H]] config = #cudnn.rnn_config<cell = lstm, input_size = 16, hidden_size = 32, proj_size = 8, {{.*}}> phase = inference x = %[[X]] hx = %[[HX]] cx = %[[CX]] weights = %[[W]] : !cudnn.handle, tensor<10x4x16xf16>, tensor<2x4x8xf16>, tensor<2x4x32xf16>, tensor<7168xf16> -> tensor<10x4x16xf16>, tensor<2x4x8xf16> cy tensor<2x4x32xf16>{{$}}
func.func @lstm_projection_bidirectional(%x: tensor<10x4x16xf16>, %hx: tensor<2x4x8xf16>, %cx: tensor<2x4x32xf16>,
    %a: tensor<128x16xf16>, %b: tensor<128x8xf16>, %c: tensor<128xf16>, %d: tensor<128xf16>, %e: tensor<8x32xf16>,
    %ar: tensor<128x16xf16>, %br: tensor<128x8xf16>, %cr: tensor<128xf16>, %dr: tensor<128xf16>, %er: tensor<8x32xf16>)
    -> (tensor<10x4x16xf16>, tensor<2x4x8xf16>, tensor<2x4x32xf16>) {
  %0:3 = tcp.custom_op("torch.aten.lstm") %x, %hx, %cx, %a, %b, %c, %d, %e, %ar, %br, %cr, %dr, %er
      {has_biases = true, num_layers = 1 : i64, dropout = 0.0 : f64, train = false,
       bidirectional = true, batch_first = false, proj_size = 8 : i64}
      : tensor<10x4x16xf16>, tensor<2x4x8xf16>, tensor<2x4x32xf16>,
        tensor<128x16xf16>, tensor<128x8xf16>, tensor<128xf16>, tensor<128xf16>, tensor<8x32xf16>,
        tensor<128x16xf16>, tensor<128x8xf16>, tensor<128xf16>, tensor<128xf16>, tensor<8x32xf16>
      -> tensor<10x4x16xf16>, tensor<2x4x8xf16>, tensor<2x4x32xf16>
  return %0#0, %0#1, %0#2 : tensor<10x4x16xf16>, tensor<2x4x8xf16>, tensor<2x4x32xf16>
}

// -----

// train = true with dropout between layers: the training phase (cuDNN's
// dropout), whose reserve space has a size only the runtime knows. The
// dropout probability becomes the config's f32.
// CHECK-LABEL: func.func @gru_train_dropout
// CHECK:         %[[Y:.*]], %[[HY:.*]] = cudnn.rnn_forward %{{.*}} config = #cudnn.rnn_config<cell = gru, input_size = 16, hidden_size = 8, proj_size = 0, num_layers = 2, direction = unidirectional, bias = no_bias, layout = seq_major_unpacked, math = default, dropout = 2.500000e-01 : f32> phase = training x = {{.*}} -> tensor<10x4x8xf32>, tensor<2x4x8xf32>{{$}}
// CHECK:         return %[[Y]], %[[HY]]
func.func @gru_train_dropout(%x: tensor<10x4x16xf32>, %hx: tensor<2x4x8xf32>, %a: tensor<24x16xf32>, %b: tensor<24x8xf32>,
                             %a1: tensor<24x8xf32>, %b1: tensor<24x8xf32>) -> (tensor<10x4x8xf32>, tensor<2x4x8xf32>) {
  %0:2 = tcp.custom_op("torch.aten.gru") %x, %hx, %a, %b, %a1, %b1
      {has_biases = false, num_layers = 2 : i64, dropout = 0.25 : f64, train = true,
       bidirectional = false, batch_first = false}
      : tensor<10x4x16xf32>, tensor<2x4x8xf32>, tensor<24x16xf32>, tensor<24x8xf32>, tensor<24x8xf32>, tensor<24x8xf32>
      -> tensor<10x4x8xf32>, tensor<2x4x8xf32>
  return %0#0, %0#1 : tensor<10x4x8xf32>, tensor<2x4x8xf32>
}

// -----

// train = true without dropout computes what inference does: no reserve
// space.
// CHECK-LABEL: func.func @gru_train_no_dropout
// CHECK:         cudnn.rnn_forward {{.*}} phase = inference {{.*}} -> tensor<10x4x8xf32>, tensor<1x4x8xf32>{{$}}
func.func @gru_train_no_dropout(%x: tensor<10x4x16xf32>, %hx: tensor<1x4x8xf32>, %a: tensor<24x16xf32>, %b: tensor<24x8xf32>)
    -> (tensor<10x4x8xf32>, tensor<1x4x8xf32>) {
  %0:2 = tcp.custom_op("torch.aten.gru") %x, %hx, %a, %b
      {has_biases = false, num_layers = 1 : i64, dropout = 0.0 : f32, train = true,
       bidirectional = false, batch_first = false}
      : tensor<10x4x16xf32>, tensor<1x4x8xf32>, tensor<24x16xf32>, tensor<24x8xf32>
      -> tensor<10x4x8xf32>, tensor<1x4x8xf32>
  return %0#0, %0#1 : tensor<10x4x8xf32>, tensor<1x4x8xf32>
}

// -----

// Unbatched (input [seq, input_size], states [layers * dirs, size]) is the
// batched RNN with a batch of 1, seq-major whatever batch_first says, as in
// PyTorch.
// CHECK-LABEL: func.func @lstm_unbatched
// CHECK-SAME:    (%[[X:.*]]: tensor<10x16xf32>, %[[HX:.*]]: tensor<1x8xf32>, %[[CX:.*]]: tensor<1x8xf32>,
// CHECK:         %[[W:.*]] = cudnn.rnn_pack_weights {{.*}} -> tensor<768xf32>
// CHECK:         %[[X3:.*]] = tensor.expand_shape %[[X]] {{\[\[}}0, 1], [2]] output_shape [10, 1, 16] : tensor<10x16xf32> into tensor<10x1x16xf32>
// CHECK:         %[[HX3:.*]] = tensor.expand_shape %[[HX]] {{\[\[}}0, 1], [2]] output_shape [1, 1, 8] : tensor<1x8xf32> into tensor<1x1x8xf32>
// CHECK:         %[[CX3:.*]] = tensor.expand_shape %[[CX]] {{\[\[}}0, 1], [2]] output_shape [1, 1, 8] : tensor<1x8xf32> into tensor<1x1x8xf32>
// CHECK:         %[[Y:.*]], %[[HY:.*]], %[[CY:.*]] = cudnn.rnn_forward %{{.*}} config = #cudnn.rnn_config<{{.*}} layout = seq_major_unpacked, {{.*}}> phase = inference x = %[[X3]] hx = %[[HX3]] cx = %[[CX3]] weights = %[[W]] : {{.*}} -> tensor<10x1x8xf32>, tensor<1x1x8xf32> cy tensor<1x1x8xf32>
// CHECK:         %[[Y2:.*]] = tensor.collapse_shape %[[Y]] {{\[\[}}0, 1], [2]] : tensor<10x1x8xf32> into tensor<10x8xf32>
// CHECK:         %[[HY2:.*]] = tensor.collapse_shape %[[HY]] {{\[\[}}0, 1], [2]] : tensor<1x1x8xf32> into tensor<1x8xf32>
// CHECK:         %[[CY2:.*]] = tensor.collapse_shape %[[CY]] {{\[\[}}0, 1], [2]] : tensor<1x1x8xf32> into tensor<1x8xf32>
// CHECK:         return %[[Y2]], %[[HY2]], %[[CY2]]
func.func @lstm_unbatched(%x: tensor<10x16xf32>, %hx: tensor<1x8xf32>, %cx: tensor<1x8xf32>,
                          %a: tensor<32x16xf32>, %b: tensor<32x8xf32>)
    -> (tensor<10x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>) {
  %0:3 = tcp.custom_op("torch.aten.lstm") %x, %hx, %cx, %a, %b
      {has_biases = false, num_layers = 1 : i64, dropout = 0.0 : f64, train = false,
       bidirectional = false, batch_first = true}
      : tensor<10x16xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<32x16xf32>, tensor<32x8xf32>
      -> tensor<10x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>
  return %0#0, %0#1, %0#2 : tensor<10x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>
}

// -----

// A dynamic batch and sequence length are the runtime's to read.
// CHECK-LABEL: func.func @gru_dynamic_batch
// CHECK:         cudnn.rnn_forward {{.*}} : !cudnn.handle, tensor<?x?x16xf32>, tensor<1x?x8xf32>, tensor<576xf32> -> tensor<?x?x8xf32>, tensor<1x?x8xf32>{{$}}
func.func @gru_dynamic_batch(%x: tensor<?x?x16xf32>, %hx: tensor<1x?x8xf32>, %a: tensor<24x16xf32>, %b: tensor<24x8xf32>)
    -> (tensor<?x?x8xf32>, tensor<1x?x8xf32>) {
  %0:2 = tcp.custom_op("torch.aten.gru") %x, %hx, %a, %b
      {has_biases = false, num_layers = 1 : i64, dropout = 0.0 : f64, train = false,
       bidirectional = false, batch_first = false}
      : tensor<?x?x16xf32>, tensor<1x?x8xf32>, tensor<24x16xf32>, tensor<24x8xf32>
      -> tensor<?x?x8xf32>, tensor<1x?x8xf32>
  return %0#0, %0#1 : tensor<?x?x8xf32>, tensor<1x?x8xf32>
}

// -----

// Custom ops that are not RNNs are someone else's: left as they are.
// CHECK-LABEL: func.func @other_custom_op
// CHECK:         tcp.custom_op("torch.aten.foo")
// CHECK-NOT:     cudnn.
func.func @other_custom_op(%x: tensor<8xf32>) -> tensor<8xf32> {
  %0 = tcp.custom_op("torch.aten.foo") %x {num_layers = 1 : i64} : tensor<8xf32> -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
