// A graph whose anchor alone has no engine: a training batch norm on a
// rank-2 [N, C] tensor (cuDNN 9.14 on an H100 runs none, in any of f16,
// bf16, f32; as [N, C, 1, 1] it runs, which is what convert-tcp-to-cudnn
// gives cuDNN: docs/runtime.md, "Op coverage on Hopper"), written at the
// cudnn level so that no compiler pass reshapes it. Its call must fail with
// an error that names the op, its tensors' shapes, strides and types (the
// graph dump), and the cudnn-run line that reruns it
// (no_engine_error_test.py checks).
!x = !cudnn.tensor_desc<32x64xf32, alignment = 16, stride = []>
!c = !cudnn.tensor_desc<1x64xf32, alignment = 16, stride = []>
module {
  func.func @forward(%x: tensor<32x64xf32>, %scale: tensor<1x64xf32>, %bias: tensor<1x64xf32>,
                     %mean: tensor<1x64xf32>, %var: tensor<1x64xf32>) -> (tensor<32x64xf32>, tensor<1x64xf32>, tensor<1x64xf32>, tensor<1x64xf32>, tensor<1x64xf32>) {
    %h = cudnn.get_current_handle !cudnn.handle
    %y:5 = cudnn.build_and_exec_graph %h %x, %scale, %bias, %mean, %var {
    ^bb0(%a: !x, %s: !c, %b: !c, %m: !c, %v: !c):
      %y, %sm, %sv, %nm, %nv = cudnn.norm_forward(%a) mode = batch phase = training type = f32
          epsilon = 1.0e-5 momentum = 0.1 scale = %s bias = %b running_mean = %m running_var = %v
          : !x, !c, !c, !c, !c -> !x saved_mean !c saved_inv_variance !c
          next_running_mean !c next_running_var !c
      cudnn.build_graph(%y, %sm, %sv, %nm, %nv) : !x, !c, !c, !c, !c
    } : tensor<32x64xf32>, tensor<1x64xf32>, tensor<1x64xf32>, tensor<1x64xf32>, tensor<1x64xf32> -> tensor<32x64xf32>, tensor<1x64xf32>, tensor<1x64xf32>, tensor<1x64xf32>, tensor<1x64xf32>
    return %y#0, %y#1, %y#2, %y#3, %y#4 : tensor<32x64xf32>, tensor<1x64xf32>, tensor<1x64xf32>, tensor<1x64xf32>, tensor<1x64xf32>
  }
}
