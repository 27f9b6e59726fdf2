"""CompiledModel: a compiled module bound to the nn.Module it came from.

Calling it passes the caller's inputs (integer ones on the CPU, such as
pack_padded_sequence's lengths, copied to the GPU first), then the model's
parameters, buffers and tensor constants (the tensors themselves, looked up
once: optimizers and `model.cuda()` update them in place), runs the entry
on torch's current stream, writes the new running statistics of
training-mode batch norms back into their buffers, and returns the outputs
in the model's own structure.
"""

import collections
import itertools

from ..artifact import get_attribute as _attribute
from ..runtime.loader import CompiledModule

# Parameter versions for the runtime (cmrtSetParameterVersion), drawn from
# one process-wide sequence so that two models never declare the same
# version for different parameter contents.
_PARAMETER_VERSIONS = itertools.count(1)


def write_back(targets, values):
    """targets[i].copy_(values[i]) for all i: one multi-tensor copy
    (torch._foreach_copy_, torch 2.x: PyTorch's multi-tensor kernels for all
    the running statistics of a model's batch norms, instead of a copy_
    launch per buffer), else one copy_ each."""
    import torch
    foreach = getattr(torch, "_foreach_copy_", None)
    if foreach is not None and len(targets) > 1:
        foreach(targets, values)
        return
    for target, value in zip(targets, values):
        target.copy_(value)


def increment(counters):
    """counter += 1 for every counter (the batch norms' num_batches_tracked):
    one multi-tensor add where torch has it."""
    import torch
    foreach = getattr(torch, "_foreach_add_", None)
    if foreach is not None and len(counters) > 1:
        foreach(counters, 1)
        return
    for counter in counters:
        counter.add_(1)


def _rebuild(structure, results):
    if "value" in structure:
        return results[structure["value"]]
    if "tuple" in structure:
        return tuple(_rebuild(s, results) for s in structure["tuple"])
    if "list" in structure:
        return [_rebuild(s, results) for s in structure["list"]]
    if "dict" in structure:
        return collections.OrderedDict(
            (k, _rebuild(s, results)) for k, s in structure["dict"])
    return structure["const"]


def _is_plain_attribute(model, name):
    """Whether the dotted `name` is a tensor attribute of `model` that is
    neither a parameter nor a buffer (what nn.Module.to leaves alone)."""
    import torch
    if not isinstance(model, torch.nn.Module):
        return False
    owner_name, _, leaf = name.rpartition(".")
    try:
        owner = model.get_submodule(owner_name) if owner_name else model
    except AttributeError:
        return False
    return isinstance(owner.__dict__.get(leaf), torch.Tensor)


class CompiledModel:
    def __init__(self, module: CompiledModule, imported, model):
        self.module, self.imported = module, imported
        self.entry = imported.func_name
        if self.entry not in module.entries:
            raise ValueError("expects the compiled module to have entry '%s', "
                             "but it has %s" % (self.entry,
                                                list(module.entries)))
        kinds = [a.kind for a in imported.args]
        self.num_inputs = kinds.count("input")
        if kinds[:self.num_inputs] != ["input"] * self.num_inputs:
            raise ValueError("expects the inputs before the model's tensors "
                             "in the compiled signature")
        self._bound_specs = imported.args[self.num_inputs:]
        self._bound = [self._lookup(model, spec, imported)
                       for spec in self._bound_specs]
        # Plain tensor attributes (neither parameter nor buffer of the
        # model, so model.cuda() leaves them where they are; Hugging Face
        # CodeGen's rotary table, which the model moves with .to(x.device)
        # on every call): index in _bound -> (the model's tensor, what its
        # device copy was made from).
        self._plain = {i: (t, None) for i, (spec, t) in enumerate(
            zip(self._bound_specs, self._bound))
            if _is_plain_attribute(model, spec.name)}
        # (argument index, result index) of each new running statistic.
        self._updates = [(r.arg, i) for i, r in enumerate(imported.results)
                         if r.kind == "update"]
        self._counters = [_attribute(model, name)
                          for name in imported.counters]
        self._checked = None  # the bound tensors' pointers when checked
        # The arguments RNN weights are packed from (None: no RNN, or
        # weights computed in the graph), and what they were when the
        # current parameter version was drawn: (pointer, version counter)
        # each. PyTorch bumps a tensor's version counter on every in-place
        # write through it (an optimizer step, copy_, a no_grad update);
        # writes that bypass it (through `.data`, DLPack or ctypes) call for
        # invalidate_packed_weights().
        self._rnn_weight_args = imported.rnn_weight_args
        self._weights_seen = None
        self._parameter_version = 0

    @staticmethod
    def _lookup(model, spec, imported):
        import torch
        from ..frontend.recording import stored_channels_last
        from ..runtime.loader import _torch_dtype
        try:
            tensor = _attribute(model, spec.name)
        except AttributeError:
            # A tensor the import read that the model does not hold (a
            # torch.fx tensor constant), on the device of the model's own.
            tensor = getattr(imported, "tensors", {}).get(spec.name)
            if tensor is None:
                raise ValueError("expects the model to have the %s '%s' it "
                                 "was compiled with, but it has none"
                                 % (spec.kind, spec.name)) from None
            device = next((t.device for t in model.parameters()), None) \
                if isinstance(model, torch.nn.Module) else None
            if device is not None:
                tensor = tensor.to(device)
            # A constant the trace took may be a view with gaps (EVA-02's
            # rotary sin/cos, the halves of one table): the module reads it
            # packed, and nothing writes through a constant, so a packed
            # copy serves.
            if not (tensor.is_contiguous() or stored_channels_last(tensor)):
                tensor = tensor.contiguous()
        want = _torch_dtype(torch, spec.dtype)
        if tuple(tensor.shape) != spec.shape or tensor.dtype != want:
            raise ValueError(
                "expects %s '%s' to be %s %s as compiled, but got %s %s"
                % (spec.kind, spec.name, list(spec.shape), want,
                   list(tensor.shape), tensor.dtype))
        return tensor

    def _explain(self, error, inputs):
        """The first input whose shape or dtype is not the compiled one, or
        the first bound tensor that is not on a CUDA device, named."""
        import torch
        from ..runtime.loader import _torch_dtype
        for index, (spec, tensor) in enumerate(
                zip(self.imported.args, inputs)):
            if not isinstance(tensor, torch.Tensor):
                continue
            want = _torch_dtype(torch, spec.dtype)
            if tuple(tensor.shape) != spec.shape or tensor.dtype != want:
                return ValueError(
                    "expects input %d ('%s') to be %s %s as compiled, but got "
                    "%s %s (cudnn_mlir.compile(..., dynamic=True) compiles "
                    "one module per input shape)"
                    % (index, spec.name, list(spec.shape), want,
                       list(tensor.shape), tensor.dtype))
        for spec, tensor in zip(self._bound_specs, self._bound):
            if not tensor.is_cuda:
                return ValueError("expects %s '%s' on a CUDA device, but got "
                                  "%s (call model.cuda())"
                                  % (spec.kind, spec.name, tensor.device))
        return error

    def invalidate_packed_weights(self):
        """Makes the next call repack its RNN weights: for parameter writes
        PyTorch's version counters do not see."""
        self._weights_seen = None

    def _declare_parameter_version(self, inputs):
        """Declares the RNN weights' parameter version for this call, drawn
        anew when one of their tensors moved or was written; False when it
        cannot tell (an argument that is not a tensor: the call reports it)."""
        import torch
        seen = []
        for index in self._rnn_weight_args:
            tensor = inputs[index] if index < self.num_inputs else \
                self._bound[index - self.num_inputs]
            if not isinstance(tensor, torch.Tensor):
                return False
            seen.append((tensor.data_ptr(), tensor._version))
        if seen != self._weights_seen:
            self._weights_seen = seen
            self._parameter_version = next(_PARAMETER_VERSIONS)
        self.module.set_parameter_version(self._parameter_version)
        return True

    def _integers_to_gpu(self, inputs):
        """Integer inputs on the CPU (pack_padded_sequence's lengths, which
        PyTorch wants there) copied to the GPU the other tensors are on."""
        import torch
        if all(not isinstance(t, torch.Tensor) or t.is_cuda
               or t.is_floating_point() for t in inputs):
            return inputs
        device = next((t.device for t in list(inputs) + self._bound
                       if isinstance(t, torch.Tensor) and t.is_cuda), None)
        if device is None:
            return inputs  # nothing on a GPU: the call says what it expects
        return tuple(t.to(device) if isinstance(t, torch.Tensor)
                     and not t.is_cuda and not t.is_floating_point() else t
                     for t in inputs)

    def _plain_attributes_to_gpu(self, inputs):
        """Plain tensor attributes on the CPU copied to the GPU the inputs
        are on, as the model's own `.to(x.device)` does; copied again when
        the attribute was replaced or written."""
        import torch
        for index, (tensor, copied_from) in self._plain.items():
            if tensor.is_cuda:
                continue
            source = (tensor.data_ptr(), tensor._version)
            if source == copied_from:
                continue
            device = next((t.device for t in inputs
                           if isinstance(t, torch.Tensor) and t.is_cuda),
                          None)
            if device is None:
                return  # nothing on a GPU: the call says what it expects
            self._bound[index] = tensor.to(device)
            self._plain[index] = (tensor, source)

    def __call__(self, *inputs):
        inputs = self._integers_to_gpu(inputs)
        if self._plain:
            self._plain_attributes_to_gpu(inputs)
        if len(inputs) != self.num_inputs:
            raise TypeError("expects %d input%s, but got %d"
                            % (self.num_inputs,
                               "" if self.num_inputs == 1 else "s",
                               len(inputs)))
        # The model's tensors are checked again only when one of them moved
        # (model.cuda(), a new .data): one data_ptr() each per call.
        pointers = [t.data_ptr() for t in self._bound]
        declared = self._rnn_weight_args is not None and \
            self._declare_parameter_version(inputs)
        try:
            if pointers != self._checked:
                self._checked = None
                self.module.check_bound(self.entry, self.num_inputs,
                                        self._bound)
                self._checked = pointers
            results = self.module.run_with_bound(self.entry, inputs,
                                                 self._bound, pointers)
        except (TypeError, ValueError) as error:
            raise self._explain(error, inputs) from None
        finally:
            if declared:  # other callers on this thread declare their own
                self.module.set_parameter_version(0)
        if not isinstance(results, tuple):
            results = (results,)
        if self._updates:
            write_back(
                [inputs[arg] if arg < self.num_inputs
                 else self._bound[arg - self.num_inputs]
                 for arg, _ in self._updates],
                [results[index] for _, index in self._updates])
        if self._counters:
            increment(self._counters)
        return _rebuild(self.imported.outputs, results)
