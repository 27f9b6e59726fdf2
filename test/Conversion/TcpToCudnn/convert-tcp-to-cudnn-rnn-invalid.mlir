// RUN: cudnn-opt %s -split-input-file -convert-tcp-to-cudnn -verify-diagnostics

// Every malformed RNN custom op is one error that names the torch op and
// says what was expected and what was found; the op is left as it was.

func.func @missing_has_biases(%x: tensor<10x4x16xf32>, %hx: tensor<1x4x8xf32>, %a: tensor<24x16xf32>, %b: tensor<24x8xf32>) {
  // expected-error @+1 {{'tcp.custom_op' op torch.aten.gru expects a bool attribute 'has_biases', but got none}}
  %0:2 = tcp.custom_op("torch.aten.gru") %x, %hx, %a, %b
      {num_layers = 1 : i64, dropout = 0.0 : f64, train = false, bidirectional = false, batch_first = false}
      : tensor<10x4x16xf32>, tensor<1x4x8xf32>, tensor<24x16xf32>, tensor<24x8xf32>
      -> tensor<10x4x8xf32>, tensor<1x4x8xf32>
  return
}

// -----

func.func @float_num_layers(%x: tensor<10x4x16xf32>, %hx: tensor<1x4x8xf32>, %a: tensor<24x16xf32>, %b: tensor<24x8xf32>) {
  // expected-error @+1 {{'tcp.custom_op' op torch.aten.gru expects an integer attribute 'num_layers', but got 1.000000e+00 : f64}}
  %0:2 = tcp.custom_op("torch.aten.gru") %x, %hx, %a, %b
      {has_biases = false, num_layers = 1.0 : f64, dropout = 0.0 : f64, train = false, bidirectional = false, batch_first = false}
      : tensor<10x4x16xf32>, tensor<1x4x8xf32>, tensor<24x16xf32>, tensor<24x8xf32>
      -> tensor<10x4x8xf32>, tensor<1x4x8xf32>
  return
}

// -----

func.func @bool_num_layers(%x: tensor<10x4x16xf32>, %hx: tensor<1x4x8xf32>, %a: tensor<24x16xf32>, %b: tensor<24x8xf32>) {
  // expected-error @+1 {{'tcp.custom_op' op torch.aten.gru expects an integer attribute 'num_layers', but got true}}
  %0:2 = tcp.custom_op("torch.aten.gru") %x, %hx, %a, %b
      {has_biases = false, num_layers = true, dropout = 0.0 : f64, train = false, bidirectional = false, batch_first = false}
      : tensor<10x4x16xf32>, tensor<1x4x8xf32>, tensor<24x16xf32>, tensor<24x8xf32>
      -> tensor<10x4x8xf32>, tensor<1x4x8xf32>
  return
}

// -----

func.func @missing_dropout(%x: tensor<10x4x16xf32>, %hx: tensor<1x4x8xf32>, %a: tensor<24x16xf32>, %b: tensor<24x8xf32>) {
  // expected-error @+1 {{'tcp.custom_op' op torch.aten.gru expects a float attribute 'dropout', but got none}}
  %0:2 = tcp.custom_op("torch.aten.gru") %x, %hx, %a, %b
      {has_biases = false, num_layers = 1 : i64, train = false, bidirectional = false, batch_first = false}
      : tensor<10x4x16xf32>, tensor<1x4x8xf32>, tensor<24x16xf32>, tensor<24x8xf32>
      -> tensor<10x4x8xf32>, tensor<1x4x8xf32>
  return
}

// -----

func.func @integer_dropout(%x: tensor<10x4x16xf32>, %hx: tensor<1x4x8xf32>, %a: tensor<24x16xf32>, %b: tensor<24x8xf32>) {
  // expected-error @+1 {{'tcp.custom_op' op torch.aten.gru expects a float attribute 'dropout', but got 0 : i64}}
  %0:2 = tcp.custom_op("torch.aten.gru") %x, %hx, %a, %b
      {has_biases = false, num_layers = 1 : i64, dropout = 0 : i64, train = false, bidirectional = false, batch_first = false}
      : tensor<10x4x16xf32>, tensor<1x4x8xf32>, tensor<24x16xf32>, tensor<24x8xf32>
      -> tensor<10x4x8xf32>, tensor<1x4x8xf32>
  return
}

// -----

func.func @missing_train(%x: tensor<10x4x16xf32>, %hx: tensor<1x4x8xf32>, %a: tensor<24x16xf32>, %b: tensor<24x8xf32>) {
  // expected-error @+1 {{'tcp.custom_op' op torch.aten.gru expects a bool attribute 'train', but got none}}
  %0:2 = tcp.custom_op("torch.aten.gru") %x, %hx, %a, %b
      {has_biases = false, num_layers = 1 : i64, dropout = 0.0 : f64, bidirectional = false, batch_first = false}
      : tensor<10x4x16xf32>, tensor<1x4x8xf32>, tensor<24x16xf32>, tensor<24x8xf32>
      -> tensor<10x4x8xf32>, tensor<1x4x8xf32>
  return
}

// -----

func.func @integer_bidirectional(%x: tensor<10x4x16xf32>, %hx: tensor<1x4x8xf32>, %a: tensor<24x16xf32>, %b: tensor<24x8xf32>) {
  // expected-error @+1 {{'tcp.custom_op' op torch.aten.gru expects a bool attribute 'bidirectional', but got 1 : i64}}
  %0:2 = tcp.custom_op("torch.aten.gru") %x, %hx, %a, %b
      {has_biases = false, num_layers = 1 : i64, dropout = 0.0 : f64, train = false, bidirectional = 1 : i64, batch_first = false}
      : tensor<10x4x16xf32>, tensor<1x4x8xf32>, tensor<24x16xf32>, tensor<24x8xf32>
      -> tensor<10x4x8xf32>, tensor<1x4x8xf32>
  return
}

// -----

func.func @missing_batch_first(%x: tensor<10x4x16xf32>, %hx: tensor<1x4x8xf32>, %a: tensor<24x16xf32>, %b: tensor<24x8xf32>) {
  // expected-error @+1 {{'tcp.custom_op' op torch.aten.gru expects a bool attribute 'batch_first', but got none}}
  %0:2 = tcp.custom_op("torch.aten.gru") %x, %hx, %a, %b
      {has_biases = false, num_layers = 1 : i64, dropout = 0.0 : f64, train = false, bidirectional = false}
      : tensor<10x4x16xf32>, tensor<1x4x8xf32>, tensor<24x16xf32>, tensor<24x8xf32>
      -> tensor<10x4x8xf32>, tensor<1x4x8xf32>
  return
}

// -----

func.func @string_proj_size(%x: tensor<10x4x16xf32>, %hx: tensor<1x4x8xf32>, %a: tensor<24x16xf32>, %b: tensor<24x8xf32>) {
  // expected-error @+1 {{'tcp.custom_op' op torch.aten.gru expects an integer attribute 'proj_size', but got "4"}}
  %0:2 = tcp.custom_op("torch.aten.gru") %x, %hx, %a, %b
      {has_biases = false, num_layers = 1 : i64, dropout = 0.0 : f64, train = false, bidirectional = false, batch_first = false, proj_size = "4"}
      : tensor<10x4x16xf32>, tensor<1x4x8xf32>, tensor<24x16xf32>, tensor<24x8xf32>
      -> tensor<10x4x8xf32>, tensor<1x4x8xf32>
  return
}

// -----

func.func @zero_layers(%x: tensor<10x4x16xf32>, %hx: tensor<1x4x8xf32>, %a: tensor<24x16xf32>, %b: tensor<24x8xf32>) {
  // expected-error @+1 {{'tcp.custom_op' op torch.aten.gru expects num_layers in [1, 2147483647], but got 0}}
  %0:2 = tcp.custom_op("torch.aten.gru") %x, %hx, %a, %b
      {has_biases = false, num_layers = 0 : i64, dropout = 0.0 : f64, train = false, bidirectional = false, batch_first = false}
      : tensor<10x4x16xf32>, tensor<1x4x8xf32>, tensor<24x16xf32>, tensor<24x8xf32>
      -> tensor<10x4x8xf32>, tensor<1x4x8xf32>
  return
}

// -----

func.func @absurd_layers(%x: tensor<10x4x16xf32>, %hx: tensor<1x4x8xf32>, %a: tensor<24x16xf32>, %b: tensor<24x8xf32>) {
  // expected-error @+1 {{'tcp.custom_op' op torch.aten.gru expects num_layers in [1, 2147483647], but got 9223372036854775807}}
  %0:2 = tcp.custom_op("torch.aten.gru") %x, %hx, %a, %b
      {has_biases = false, num_layers = 9223372036854775807 : i64, dropout = 0.0 : f64, train = false, bidirectional = false, batch_first = false}
      : tensor<10x4x16xf32>, tensor<1x4x8xf32>, tensor<24x16xf32>, tensor<24x8xf32>
      -> tensor<10x4x8xf32>, tensor<1x4x8xf32>
  return
}

// -----

func.func @lstm_without_cx(%x: tensor<10x4x16xf32>, %hx: tensor<1x4x8xf32>, %a: tensor<32x16xf32>, %b: tensor<32x8xf32>) {
  // expected-error @+1 {{'tcp.custom_op' op torch.aten.lstm expects 5 operands (input, hx, cx and 2 parameters) or 6 (and lengths), but got 4}}
  %0:3 = tcp.custom_op("torch.aten.lstm") %x, %hx, %a, %b
      {has_biases = false, num_layers = 1 : i64, dropout = 0.0 : f64, train = false, bidirectional = false, batch_first = false}
      : tensor<10x4x16xf32>, tensor<1x4x8xf32>, tensor<32x16xf32>, tensor<32x8xf32>
      -> tensor<10x4x8xf32>, tensor<1x4x8xf32>, tensor<1x4x8xf32>
  return
}

// -----

func.func @missing_biases(%x: tensor<10x4x16xf32>, %hx: tensor<1x4x8xf32>, %a: tensor<24x16xf32>, %b: tensor<24x8xf32>) {
  // expected-error @+1 {{'tcp.custom_op' op torch.aten.gru expects 6 operands (input, hx and 4 parameters) or 7 (and lengths), but got 4}}
  %0:2 = tcp.custom_op("torch.aten.gru") %x, %hx, %a, %b
      {has_biases = true, num_layers = 1 : i64, dropout = 0.0 : f64, train = false, bidirectional = false, batch_first = false}
      : tensor<10x4x16xf32>, tensor<1x4x8xf32>, tensor<24x16xf32>, tensor<24x8xf32>
      -> tensor<10x4x8xf32>, tensor<1x4x8xf32>
  return
}

// -----

func.func @result_count(%x: tensor<10x4x16xf32>, %hx: tensor<1x4x8xf32>, %a: tensor<24x16xf32>, %b: tensor<24x8xf32>) {
  // expected-error @+1 {{'tcp.custom_op' op torch.aten.gru expects 2 results (output, h_n), but got 1}}
  %0 = tcp.custom_op("torch.aten.gru") %x, %hx, %a, %b
      {has_biases = false, num_layers = 1 : i64, dropout = 0.0 : f64, train = false, bidirectional = false, batch_first = false}
      : tensor<10x4x16xf32>, tensor<1x4x8xf32>, tensor<24x16xf32>, tensor<24x8xf32>
      -> tensor<10x4x8xf32>
  return
}

// -----

func.func @gru_projection(%x: tensor<10x4x16xf32>, %hx: tensor<1x4x8xf32>, %a: tensor<24x16xf32>, %b: tensor<24x8xf32>) {
  // expected-error @+1 {{'tcp.custom_op' op torch.aten.gru expects proj_size = 0 for a non-lstm cell, but got 4 for gru}}
  %0:2 = tcp.custom_op("torch.aten.gru") %x, %hx, %a, %b
      {has_biases = false, num_layers = 1 : i64, dropout = 0.0 : f64, train = false, bidirectional = false, batch_first = false, proj_size = 4 : i64}
      : tensor<10x4x16xf32>, tensor<1x4x8xf32>, tensor<24x16xf32>, tensor<24x8xf32>
      -> tensor<10x4x8xf32>, tensor<1x4x8xf32>
  return
}

// -----

func.func @projection_not_smaller(%x: tensor<10x4x16xf32>, %hx: tensor<1x4x8xf32>, %cx: tensor<1x4x8xf32>, %a: tensor<32x16xf32>, %b: tensor<32x8xf32>, %r: tensor<8x8xf32>) {
  // expected-error @+1 {{'tcp.custom_op' op torch.aten.lstm expects proj_size < hidden_size = 8, but got 8}}
  %0:3 = tcp.custom_op("torch.aten.lstm") %x, %hx, %cx, %a, %b, %r
      {has_biases = false, num_layers = 1 : i64, dropout = 0.0 : f64, train = false, bidirectional = false, batch_first = false, proj_size = 8 : i64}
      : tensor<10x4x16xf32>, tensor<1x4x8xf32>, tensor<1x4x8xf32>, tensor<32x16xf32>, tensor<32x8xf32>, tensor<8x8xf32>
      -> tensor<10x4x8xf32>, tensor<1x4x8xf32>, tensor<1x4x8xf32>
  return
}

// -----

func.func @dropout_range(%x: tensor<10x4x16xf32>, %hx: tensor<1x4x8xf32>, %a: tensor<24x16xf32>, %b: tensor<24x8xf32>) {
  // expected-error @+1 {{'tcp.custom_op' op torch.aten.gru expects dropout in [0, 1), but got 1.5}}
  %0:2 = tcp.custom_op("torch.aten.gru") %x, %hx, %a, %b
      {has_biases = false, num_layers = 1 : i64, dropout = 1.5 : f64, train = false, bidirectional = false, batch_first = false}
      : tensor<10x4x16xf32>, tensor<1x4x8xf32>, tensor<24x16xf32>, tensor<24x8xf32>
      -> tensor<10x4x8xf32>, tensor<1x4x8xf32>
  return
}

// -----

func.func @input_rank(%x: tensor<2x10x4x16xf32>, %hx: tensor<1x4x8xf32>, %a: tensor<24x16xf32>, %b: tensor<24x8xf32>) {
  // expected-error @+1 {{'tcp.custom_op' op torch.aten.gru expects input of rank 3 ([seq, batch, input_size], or [batch, seq, input_size] with batch_first) or 2 (unbatched), but got 'tensor<2x10x4x16xf32>'}}
  %0:2 = tcp.custom_op("torch.aten.gru") %x, %hx, %a, %b
      {has_biases = false, num_layers = 1 : i64, dropout = 0.0 : f64, train = false, bidirectional = false, batch_first = false}
      : tensor<2x10x4x16xf32>, tensor<1x4x8xf32>, tensor<24x16xf32>, tensor<24x8xf32>
      -> tensor<10x4x8xf32>, tensor<1x4x8xf32>
  return
}

// -----

func.func @integer_input(%x: tensor<10x4x16xi32>, %hx: tensor<1x4x8xi32>, %a: tensor<24x16xi32>, %b: tensor<24x8xi32>) {
  // expected-error @+1 {{'tcp.custom_op' op torch.aten.gru expects input with element type f16, bf16, f32 or f64, but got 'i32'}}
  %0:2 = tcp.custom_op("torch.aten.gru") %x, %hx, %a, %b
      {has_biases = false, num_layers = 1 : i64, dropout = 0.0 : f64, train = false, bidirectional = false, batch_first = false}
      : tensor<10x4x16xi32>, tensor<1x4x8xi32>, tensor<24x16xi32>, tensor<24x8xi32>
      -> tensor<10x4x8xi32>, tensor<1x4x8xi32>
  return
}

// -----

func.func @dynamic_input_size(%x: tensor<10x4x?xf32>, %hx: tensor<1x4x8xf32>, %a: tensor<24x16xf32>, %b: tensor<24x8xf32>) {
  // expected-error @+1 {{'tcp.custom_op' op torch.aten.gru expects a static input_size (input's last dim), but got 'tensor<10x4x?xf32>'}}
  %0:2 = tcp.custom_op("torch.aten.gru") %x, %hx, %a, %b
      {has_biases = false, num_layers = 1 : i64, dropout = 0.0 : f64, train = false, bidirectional = false, batch_first = false}
      : tensor<10x4x?xf32>, tensor<1x4x8xf32>, tensor<24x16xf32>, tensor<24x8xf32>
      -> tensor<10x4x8xf32>, tensor<1x4x8xf32>
  return
}

// -----

func.func @weight_ih_rows(%x: tensor<10x4x16xf32>, %hx: tensor<1x4x8xf32>, %a: tensor<25x16xf32>, %b: tensor<24x8xf32>) {
  // expected-error @+1 {{'tcp.custom_op' op torch.aten.gru expects weight_ih_l0 (parameter #0) of shape [3 * hidden_size, 16] with a static number of rows, but got 'tensor<25x16xf32>'}}
  %0:2 = tcp.custom_op("torch.aten.gru") %x, %hx, %a, %b
      {has_biases = false, num_layers = 1 : i64, dropout = 0.0 : f64, train = false, bidirectional = false, batch_first = false}
      : tensor<10x4x16xf32>, tensor<1x4x8xf32>, tensor<25x16xf32>, tensor<24x8xf32>
      -> tensor<10x4x8xf32>, tensor<1x4x8xf32>
  return
}

// -----

func.func @parameter_shape(%x: tensor<10x4x16xf32>, %hx: tensor<4x4x8xf32>, %a: tensor<24x16xf32>, %b: tensor<24x8xf32>, %c: tensor<24x16xf32>) {
  // expected-error @+1 {{'tcp.custom_op' op torch.aten.gru expects parameter #7 (weight_hh_l1_reverse) of shape [24, 8], but got [24, 16]}}
  %0:2 = tcp.custom_op("torch.aten.gru") %x, %hx, %a, %b, %a, %b, %c, %b, %c, %a
      {has_biases = false, num_layers = 2 : i64, dropout = 0.0 : f64, train = false, bidirectional = true, batch_first = false}
      : tensor<10x4x16xf32>, tensor<4x4x8xf32>, tensor<24x16xf32>, tensor<24x8xf32>, tensor<24x16xf32>, tensor<24x8xf32>, tensor<24x16xf32>, tensor<24x8xf32>, tensor<24x16xf32>, tensor<24x16xf32>
      -> tensor<10x4x16xf32>, tensor<4x4x8xf32>
  return
}

// -----

func.func @parameter_element_type(%x: tensor<10x4x16xf32>, %hx: tensor<1x4x8xf32>, %a: tensor<24x16xf16>, %b: tensor<24x8xf16>) {
  // expected-error @+1 {{'tcp.custom_op' op torch.aten.gru expects parameters with the input's element type 'f32', but got 'f16'}}
  %0:2 = tcp.custom_op("torch.aten.gru") %x, %hx, %a, %b
      {has_biases = false, num_layers = 1 : i64, dropout = 0.0 : f64, train = false, bidirectional = false, batch_first = false}
      : tensor<10x4x16xf32>, tensor<1x4x8xf32>, tensor<24x16xf16>, tensor<24x8xf16>
      -> tensor<10x4x8xf32>, tensor<1x4x8xf32>
  return
}

// -----

func.func @unranked_parameter(%x: tensor<10x4x16xf32>, %hx: tensor<1x4x8xf32>, %a: tensor<24x16xf32>, %b: tensor<*xf32>) {
  // expected-error @+1 {{'tcp.custom_op' op torch.aten.gru expects parameter #1 (weight_hh_l0) to be a ranked tensor, but got 'tensor<*xf32>'}}
  %0:2 = tcp.custom_op("torch.aten.gru") %x, %hx, %a, %b
      {has_biases = false, num_layers = 1 : i64, dropout = 0.0 : f64, train = false, bidirectional = false, batch_first = false}
      : tensor<10x4x16xf32>, tensor<1x4x8xf32>, tensor<24x16xf32>, tensor<*xf32>
      -> tensor<10x4x8xf32>, tensor<1x4x8xf32>
  return
}

// -----

func.func @hx_shape(%x: tensor<10x4x16xf32>, %hx: tensor<2x4x8xf32>, %a: tensor<24x16xf32>, %b: tensor<24x8xf32>) {
  // expected-error @+1 {{'tcp.custom_op' op torch.aten.gru expects hx of type 'tensor<1x4x8xf32>', but got 'tensor<2x4x8xf32>'}}
  %0:2 = tcp.custom_op("torch.aten.gru") %x, %hx, %a, %b
      {has_biases = false, num_layers = 1 : i64, dropout = 0.0 : f64, train = false, bidirectional = false, batch_first = false}
      : tensor<10x4x16xf32>, tensor<2x4x8xf32>, tensor<24x16xf32>, tensor<24x8xf32>
      -> tensor<10x4x8xf32>, tensor<1x4x8xf32>
  return
}

// -----

func.func @hx_batch_first(%x: tensor<10x4x16xf32>, %hx: tensor<1x4x8xf32>, %a: tensor<24x16xf32>, %b: tensor<24x8xf32>) {
  // expected-error @+1 {{'tcp.custom_op' op torch.aten.gru expects hx of type 'tensor<1x10x8xf32>', but got 'tensor<1x4x8xf32>'}}
  %0:2 = tcp.custom_op("torch.aten.gru") %x, %hx, %a, %b
      {has_biases = false, num_layers = 1 : i64, dropout = 0.0 : f64, train = false, bidirectional = false, batch_first = true}
      : tensor<10x4x16xf32>, tensor<1x4x8xf32>, tensor<24x16xf32>, tensor<24x8xf32>
      -> tensor<10x4x8xf32>, tensor<1x4x8xf32>
  return
}

// -----

func.func @cx_projection(%x: tensor<10x4x16xf32>, %hx: tensor<1x4x4xf32>, %cx: tensor<1x4x4xf32>, %a: tensor<32x16xf32>, %b: tensor<32x4xf32>, %r: tensor<4x8xf32>) {
  // expected-error @+1 {{'tcp.custom_op' op torch.aten.lstm expects cx of type 'tensor<1x4x8xf32>', but got 'tensor<1x4x4xf32>'}}
  %0:3 = tcp.custom_op("torch.aten.lstm") %x, %hx, %cx, %a, %b, %r
      {has_biases = false, num_layers = 1 : i64, dropout = 0.0 : f64, train = false, bidirectional = false, batch_first = false, proj_size = 4 : i64}
      : tensor<10x4x16xf32>, tensor<1x4x4xf32>, tensor<1x4x4xf32>, tensor<32x16xf32>, tensor<32x4xf32>, tensor<4x8xf32>
      -> tensor<10x4x4xf32>, tensor<1x4x4xf32>, tensor<1x4x8xf32>
  return
}

// -----

func.func @output_bidirectional(%x: tensor<10x4x16xf32>, %hx: tensor<2x4x8xf32>, %a: tensor<24x16xf32>, %b: tensor<24x8xf32>) {
  // expected-error @+1 {{'tcp.custom_op' op torch.aten.gru expects output of type 'tensor<10x4x16xf32>', but got 'tensor<10x4x8xf32>'}}
  %0:2 = tcp.custom_op("torch.aten.gru") %x, %hx, %a, %b, %a, %b
      {has_biases = false, num_layers = 1 : i64, dropout = 0.0 : f64, train = false, bidirectional = true, batch_first = false}
      : tensor<10x4x16xf32>, tensor<2x4x8xf32>, tensor<24x16xf32>, tensor<24x8xf32>, tensor<24x16xf32>, tensor<24x8xf32>
      -> tensor<10x4x8xf32>, tensor<2x4x8xf32>
  return
}

// -----

func.func @h_n_type(%x: tensor<10x4x16xf32>, %hx: tensor<1x4x8xf32>, %a: tensor<24x16xf32>, %b: tensor<24x8xf32>) {
  // expected-error @+1 {{'tcp.custom_op' op torch.aten.gru expects h_n of type 'tensor<1x4x8xf32>', but got 'tensor<1x4x8xf16>'}}
  %0:2 = tcp.custom_op("torch.aten.gru") %x, %hx, %a, %b
      {has_biases = false, num_layers = 1 : i64, dropout = 0.0 : f64, train = false, bidirectional = false, batch_first = false}
      : tensor<10x4x16xf32>, tensor<1x4x8xf32>, tensor<24x16xf32>, tensor<24x8xf32>
      -> tensor<10x4x8xf32>, tensor<1x4x8xf16>
  return
}

// -----

func.func @c_n_shape(%x: tensor<10x4x16xf32>, %hx: tensor<1x4x8xf32>, %a: tensor<32x16xf32>, %b: tensor<32x8xf32>) {
  // expected-error @+1 {{'tcp.custom_op' op torch.aten.lstm expects c_n of type 'tensor<1x4x8xf32>', but got 'tensor<4x8xf32>'}}
  %0:3 = tcp.custom_op("torch.aten.lstm") %x, %hx, %hx, %a, %b
      {has_biases = false, num_layers = 1 : i64, dropout = 0.0 : f64, train = false, bidirectional = false, batch_first = false}
      : tensor<10x4x16xf32>, tensor<1x4x8xf32>, tensor<1x4x8xf32>, tensor<32x16xf32>, tensor<32x8xf32>
      -> tensor<10x4x8xf32>, tensor<1x4x8xf32>, tensor<4x8xf32>
  return
}

// -----

func.func @lengths_batch(%x: tensor<10x4x16xf32>, %hx: tensor<1x4x8xf32>, %a: tensor<24x16xf32>, %b: tensor<24x8xf32>, %len: tensor<5xi64>) {
  // expected-error @+1 {{'tcp.custom_op' op torch.aten.gru expects lengths of type tensor<4xi64> or tensor<4xi32> (one per batch entry), but got 'tensor<5xi64>'}}
  %0:2 = tcp.custom_op("torch.aten.gru") %x, %hx, %a, %b, %len
      {has_biases = false, num_layers = 1 : i64, dropout = 0.0 : f64, train = false, bidirectional = false, batch_first = false}
      : tensor<10x4x16xf32>, tensor<1x4x8xf32>, tensor<24x16xf32>, tensor<24x8xf32>, tensor<5xi64>
      -> tensor<10x4x8xf32>, tensor<1x4x8xf32>
  return
}

// -----

func.func @lengths_float(%x: tensor<10x4x16xf32>, %hx: tensor<1x4x8xf32>, %a: tensor<24x16xf32>, %b: tensor<24x8xf32>, %len: tensor<4xf32>) {
  // expected-error @+1 {{'tcp.custom_op' op torch.aten.gru expects lengths of type tensor<4xi64> or tensor<4xi32> (one per batch entry), but got 'tensor<4xf32>'}}
  %0:2 = tcp.custom_op("torch.aten.gru") %x, %hx, %a, %b, %len
      {has_biases = false, num_layers = 1 : i64, dropout = 0.0 : f64, train = false, bidirectional = false, batch_first = false}
      : tensor<10x4x16xf32>, tensor<1x4x8xf32>, tensor<24x16xf32>, tensor<24x8xf32>, tensor<4xf32>
      -> tensor<10x4x8xf32>, tensor<1x4x8xf32>
  return
}

// -----

func.func @lengths_unbatched(%x: tensor<10x16xf32>, %hx: tensor<1x8xf32>, %a: tensor<24x16xf32>, %b: tensor<24x8xf32>, %len: tensor<1xi64>) {
  // expected-error @+1 {{'tcp.custom_op' op torch.aten.gru expects no lengths with an unbatched input, but got 'tensor<1xi64>'}}
  %0:2 = tcp.custom_op("torch.aten.gru") %x, %hx, %a, %b, %len
      {has_biases = false, num_layers = 1 : i64, dropout = 0.0 : f64, train = false, bidirectional = false, batch_first = false}
      : tensor<10x16xf32>, tensor<1x8xf32>, tensor<24x16xf32>, tensor<24x8xf32>, tensor<1xi64>
      -> tensor<10x8xf32>, tensor<1x8xf32>
  return
}

// -----

func.func @unbatched_hx(%x: tensor<10x16xf32>, %hx: tensor<1x4x8xf32>, %a: tensor<24x16xf32>, %b: tensor<24x8xf32>) {
  // expected-error @+1 {{'tcp.custom_op' op torch.aten.gru expects hx of type 'tensor<1x8xf32>', but got 'tensor<1x4x8xf32>'}}
  %0:2 = tcp.custom_op("torch.aten.gru") %x, %hx, %a, %b
      {has_biases = false, num_layers = 1 : i64, dropout = 0.0 : f64, train = false, bidirectional = false, batch_first = false}
      : tensor<10x16xf32>, tensor<1x4x8xf32>, tensor<24x16xf32>, tensor<24x8xf32>
      -> tensor<10x8xf32>, tensor<1x8xf32>
  return
}

// -----

// No cuDNN graph can hold an RNN: the group's error.
func.func @rnn_in_cudnn_group(%x: tensor<10x4x16xf32>, %hx: tensor<1x4x8xf32>, %a: tensor<24x16xf32>, %b: tensor<24x8xf32>) {
  %0 = tcp.isolated_group %x, %hx, %a, %b attributes {group_type = "cudnn"} {
  ^bb0(%x0: tensor<10x4x16xf32>, %h0: tensor<1x4x8xf32>, %a0: tensor<24x16xf32>, %b0: tensor<24x8xf32>):
    // expected-error @+1 {{but got 'tcp.custom_op'}}
    %1:2 = tcp.custom_op("torch.aten.gru") %x0, %h0, %a0, %b0
        {has_biases = false, num_layers = 1 : i64, dropout = 0.0 : f64, train = false, bidirectional = false, batch_first = false}
        : tensor<10x4x16xf32>, tensor<1x4x8xf32>, tensor<24x16xf32>, tensor<24x8xf32> -> tensor<10x4x8xf32>, tensor<1x4x8xf32>
    tcp.yield %1#0 : tensor<10x4x8xf32>
  } : tensor<10x4x16xf32>, tensor<1x4x8xf32>, tensor<24x16xf32>, tensor<24x8xf32> -> tensor<10x4x8xf32>
  return
}
