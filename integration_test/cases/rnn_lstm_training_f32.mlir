// An LSTM's training step on the cudnn RNN ops (TCP has no RNN backward
// form): pack the parameters, a training forward that keeps its reserve
// space, backward data, backward weights, and the weight gradient unpacked
// into PyTorch's layout. Outputs y, dx, dh0, dc0 and the four parameter
// gradients, against torch.nn.LSTM(8, 16) and autograd in float64.
func.func @rnn_lstm_training_f32(%x: tensor<5x3x8xf32>, %hx: tensor<1x3x16xf32>, %cx: tensor<1x3x16xf32>,
    %w_ih: tensor<64x8xf32>, %w_hh: tensor<64x16xf32>, %b_ih: tensor<64xf32>, %b_hh: tensor<64xf32>,
    %dy: tensor<5x3x16xf32>, %dhy: tensor<1x3x16xf32>, %dcy: tensor<1x3x16xf32>)
    -> (tensor<5x3x16xf32>, tensor<5x3x8xf32>, tensor<1x3x16xf32>, tensor<1x3x16xf32>,
        tensor<64x8xf32>, tensor<64x16xf32>, tensor<64xf32>, tensor<64xf32>) {
  %h = cudnn.get_current_handle !cudnn.handle
  %w = cudnn.rnn_pack_weights %h config = #cudnn.rnn_config<cell = lstm, input_size = 8, hidden_size = 16, proj_size = 0, num_layers = 1, direction = unidirectional, bias = double, layout = seq_major_unpacked, math = default, dropout = 0.0 : f32> params(%w_ih, %w_hh, %b_ih, %b_hh)
      : !cudnn.handle, tensor<64x8xf32>, tensor<64x16xf32>, tensor<64xf32>, tensor<64xf32> -> tensor<1664xf32>
  %y, %hy, %cy, %r = cudnn.rnn_forward %h config = #cudnn.rnn_config<cell = lstm, input_size = 8, hidden_size = 16, proj_size = 0, num_layers = 1, direction = unidirectional, bias = double, layout = seq_major_unpacked, math = default, dropout = 0.0 : f32> phase = training
      x = %x hx = %hx cx = %cx weights = %w
      : !cudnn.handle, tensor<5x3x8xf32>, tensor<1x3x16xf32>, tensor<1x3x16xf32>, tensor<1664xf32>
      -> tensor<5x3x16xf32>, tensor<1x3x16xf32> cy tensor<1x3x16xf32> reserve_space tensor<?xi8>
  %dx, %dhx, %dcx = cudnn.rnn_backward_data %h config = #cudnn.rnn_config<cell = lstm, input_size = 8, hidden_size = 16, proj_size = 0, num_layers = 1, direction = unidirectional, bias = double, layout = seq_major_unpacked, math = default, dropout = 0.0 : f32>
      y = %y dy = %dy hx = %hx dhy = %dhy cx = %cx dcy = %dcy weights = %w reserve_space = %r
      : !cudnn.handle, tensor<5x3x16xf32>, tensor<5x3x16xf32>, tensor<1x3x16xf32>, tensor<1x3x16xf32>,
        tensor<1x3x16xf32>, tensor<1x3x16xf32>, tensor<1664xf32>, tensor<?xi8>
      -> tensor<5x3x8xf32>, tensor<1x3x16xf32>, tensor<1x3x16xf32>
  %dw = cudnn.rnn_backward_weights %h config = #cudnn.rnn_config<cell = lstm, input_size = 8, hidden_size = 16, proj_size = 0, num_layers = 1, direction = unidirectional, bias = double, layout = seq_major_unpacked, math = default, dropout = 0.0 : f32> x = %x hx = %hx y = %y reserve_space = %r
      : !cudnn.handle, tensor<5x3x8xf32>, tensor<1x3x16xf32>, tensor<5x3x16xf32>, tensor<?xi8> -> tensor<1664xf32>
  %g:4 = cudnn.rnn_unpack_weights %h config = #cudnn.rnn_config<cell = lstm, input_size = 8, hidden_size = 16, proj_size = 0, num_layers = 1, direction = unidirectional, bias = double, layout = seq_major_unpacked, math = default, dropout = 0.0 : f32> weights = %dw
      : !cudnn.handle, tensor<1664xf32> -> tensor<64x8xf32>, tensor<64x16xf32>, tensor<64xf32>, tensor<64xf32>
  return %y, %dx, %dhx, %dcx, %g#0, %g#1, %g#2, %g#3
      : tensor<5x3x16xf32>, tensor<5x3x8xf32>, tensor<1x3x16xf32>, tensor<1x3x16xf32>,
        tensor<64x8xf32>, tensor<64x16xf32>, tensor<64xf32>, tensor<64xf32>
}
