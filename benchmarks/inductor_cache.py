"""TorchInductor's and Triton's caches in one folder, shared by the
benchmark scripts: a folder kept between GPU calls (carried, or on a warm
machine) lets a later run skip recompiling and re-autotuning."""
import os


def use_inductor_cache(folder):
    """Points TorchInductor and Triton at `folder`/inductor and
    `folder`/triton; call it before torch.compile runs."""
    folder = os.path.abspath(folder)
    os.environ["TORCHINDUCTOR_CACHE_DIR"] = os.path.join(folder, "inductor")
    os.environ["TRITON_CACHE_DIR"] = os.path.join(folder, "triton")
