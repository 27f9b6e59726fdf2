"""FX graphs in the forms TorchDynamo and torch.export hand a backend (torch 1.13 has no
TorchDynamo, so they are written by hand here): parameters and buffers are
placeholders, nn.LSTM's forward is inlined to torch.lstm(...) with zero
initial states from torch.zeros, and a training-mode batch norm increments
num_batches_tracked in place. Prints the imported TCP and its results."""

import operator

import torch
import torch.fx
import torch.nn.functional as F

from cudnn_mlir.frontend import import_graph


def lstm_graph():
    lstm = torch.nn.LSTM(8, 16, num_layers=2)
    g = torch.fx.Graph()
    x = g.placeholder("x")
    params = [g.placeholder("p%d" % i) for i in range(8)]
    h0 = g.call_function(torch.zeros, ((2, 3, 16),))
    c0 = g.call_function(torch.zeros, ((2, 3, 16),))
    out = g.call_function(torch.lstm, (x, (h0, c0), params, True, 2, 0.0,
                                       False, False, False))
    g.output((g.call_function(operator.getitem, (out, 0)),
              g.call_function(operator.getitem, (out, 1))))
    inputs = [torch.randn(5, 3, 8)] + [p.detach() for p in
                                        lstm._flat_weights]
    return g, inputs


def batch_norm_graph():
    g = torch.fx.Graph()
    x, mean, var, count = (g.placeholder(n) for n in
                           ("x", "running_mean", "running_var", "count"))
    g.call_method("add_", (count, 1))
    y = g.call_function(F.batch_norm, (x, mean, var), {
        "training": True, "momentum": 0.1, "eps": 1e-5})
    g.output((y,))
    inputs = [torch.randn(4, 3, 5, 5), torch.zeros(3), torch.ones(3),
              torch.tensor(0)]
    return g, inputs


def aten_copy_graph():
    """torch.export's unlifted form of a buffer update: aten.copy_ of the
    new value into the buffer, whose result nothing uses."""
    g = torch.fx.Graph()
    x, count = g.placeholder("x"), g.placeholder("count")
    bumped = g.call_function(torch.ops.aten.add.Tensor, (count, 1))
    g.call_function(torch.ops.aten.copy_.default, (count, bumped))
    g.output((g.call_function(torch.ops.aten.relu.default, (x,)),))
    return g, [torch.randn(4), torch.tensor(3)]


for make in (lstm_graph, batch_norm_graph, aten_copy_graph):
    graph, inputs = make()
    imported = import_graph(torch.fx.GraphModule(torch.nn.Module(), graph),
                            inputs)
    print(imported.text)
    print("// results: " + ", ".join(
        "%s %s%s" % (r.kind, r.name, "" if r.arg is None else
                     " -> arg %d" % r.arg) for r in imported.results))
    print("// rnn weights from args: %s" % imported.rnn_weight_args)
