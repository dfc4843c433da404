"""A warm worker process for the repro kernels (standard library only; run by path, not imported).

``fp8triage.confirm.repro`` starts one or more of these per run (``python repro_worker.py --device D``) so
that torch's import and the CUDA context are paid once per worker, not once per kernel. The worker:

* makes a private copy of its stdout for the protocol and sends fd 1 to stderr, so nothing a kernel
  or a native library prints can corrupt the protocol;
* first calls the ``--prestart`` functions (``module:function``, called with the device, looked up in
  ``--kernel-dir`` too; what its kernels declare in ``PRESTART``, e.g. ``_deepgemm_probe:prestart``,
  which starts the DeepGEMM child so that it gets ready while this worker does), then imports torch,
  creates the CUDA context (``cuda``/``auto`` with a GPU) and, meanwhile, loads the ``--preload``
  entries (modules, or ``module:function`` to call; what its kernels declare in ``PRELOAD``), then
  says ``{"ready": ..., "preload": <seconds per phase>}``;
* reads one request per line on stdin (``{"path", "argv", "out", "err"}``), runs that kernel script
  as ``__main__`` with its stdout and stderr (file descriptors 1 and 2, so native output too)
  redirected to the two files, restores the environment, working directory, ``sys.argv`` and
  ``sys.path``, and answers ``{"done": true, "code": N}`` (N: the SystemExit status, 1 for an
  uncaught exception);
* after each kernel, checks that the CUDA context still works; when it does not (a sticky CUDA
  error), it answers with ``"poisoned"`` and exits, so the runner starts a fresh worker.

A kernel that crashes the process (a segfault) or hangs is handled by the runner: it sees the
worker die or time out, reports the kernel as ``error``/``timeout``, kills the worker's process group
and starts another worker for the remaining kernels.
"""
from __future__ import annotations

import argparse
import importlib.util
import json
import os
import runpy
import sys
import threading
import time
import traceback


def _load(spec: str, device: str):
    """Import ``module``, or import ``module`` and call ``function(device)`` for ``module:function``;
    returns seconds (and the function's result), or the error's text. Failures are left to the kernels."""
    name, _, fn = spec.partition(":")
    t = time.perf_counter()
    try:
        mod = importlib.import_module(name)
        out = getattr(mod, fn)(device) if fn else None
    except Exception as e:  # noqa: BLE001 - the kernel will meet the same problem and report it
        return f"{type(e).__name__}: {e}"
    s = round(time.perf_counter() - t, 3)
    return {"seconds": s, "result": out} if fn else s


def _preload(device: str, prestart: list[str], modules: list[str]) -> dict:
    """Run the ``--prestart`` entries (for example a child process that a kernel will need, started now
    so that it gets ready while this worker does), import torch, create the CUDA context (in a thread,
    so that it overlaps the ``--preload`` entries) and load the ``--preload`` entries. Returns what each
    phase took."""
    info: dict = {"torch": False, "cuda": False, "modules": {}, "started": {}}
    t = time.perf_counter()
    for spec in prestart:
        info["started"][spec] = _load(spec, device)
    if importlib.util.find_spec("torch") is None:
        return info
    t1 = time.perf_counter()
    try:
        import torch

        info["torch"] = True
    except Exception as e:  # a broken torch: the kernels will report it themselves
        info["error"] = f"{type(e).__name__}: {e}"
        return info
    info["torch_import_s"] = round(time.perf_counter() - t1, 3)

    def cuda_init() -> None:
        t2 = time.perf_counter()
        try:
            if device in ("cuda", "auto") and torch.cuda.is_available():
                torch.zeros(1, device="cuda")  # the CUDA context, once
                torch.cuda.synchronize()
                info["cuda"] = True
                info["cuda_init_s"] = round(time.perf_counter() - t2, 3)
        except Exception as e:  # noqa: BLE001
            info["cuda_error"] = f"{type(e).__name__}: {e}"

    th = threading.Thread(target=cuda_init, daemon=True)
    th.start()
    for spec in modules:
        info["modules"][spec] = _load(spec, device)
    th.join()
    info["seconds"] = round(time.perf_counter() - t, 3)
    return info


def _cuda_healthy() -> bool:
    torch = sys.modules.get("torch")
    if torch is None:
        return True
    try:
        if not torch.cuda.is_initialized():
            return True
        torch.cuda.synchronize()
        torch.zeros(1, device="cuda").add_(1).item()
        return True
    except Exception:
        return False


def _run(req: dict) -> int:
    path = req["path"]
    saved_env = dict(os.environ)
    saved_cwd = os.getcwd()
    saved_argv, saved_path = sys.argv[:], sys.path[:]
    saved_fds = os.dup(1), os.dup(2)
    out = os.open(req["out"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    err = os.open(req["err"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    sys.stdout.flush()
    sys.stderr.flush()
    os.dup2(out, 1)
    os.dup2(err, 2)
    os.close(out)
    os.close(err)
    code = 0
    try:
        os.environ["FP8TRIAGE_KERNEL_T0"] = repr(time.perf_counter())
        sys.argv = [path, *req.get("argv", [])]
        sys.path.insert(0, os.path.dirname(os.path.abspath(path)))
        runpy.run_path(path, run_name="__main__")
    except SystemExit as e:
        if e.code is None:
            code = 0
        elif isinstance(e.code, int):
            code = e.code
        else:
            print(e.code, file=sys.stderr)
            code = 1
    except BaseException:  # noqa: BLE001 - a kernel's uncaught error is its result, as in a fresh process
        traceback.print_exc()
        code = 1
    finally:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        except Exception:
            pass
        os.dup2(saved_fds[0], 1)
        os.dup2(saved_fds[1], 2)
        os.close(saved_fds[0])
        os.close(saved_fds[1])
        os.environ.clear()
        os.environ.update(saved_env)
        try:
            os.chdir(saved_cwd)
        except OSError:
            pass
        sys.argv, sys.path[:] = saved_argv, saved_path
    return code


def main() -> None:
    ap = argparse.ArgumentParser(description="fp8triage repro worker (started by fp8triage.confirm.repro)")
    ap.add_argument("--device", default="auto")
    ap.add_argument("--prestart", action="append", default=[],
                    help="module:function to call with the device before anything else")
    ap.add_argument("--preload", action="append", default=[],
                    help="a module the kernels need, or module:function to call with the device, while the "
                         "CUDA context is created")
    ap.add_argument("--kernel-dir", default=None, help="the kernels' folder (where the preloads live)")
    args = ap.parse_args()
    if args.kernel_dir:
        sys.path.insert(0, os.path.abspath(args.kernel_dir))
    proto = os.fdopen(os.dup(1), "w", buffering=1)
    requests = os.fdopen(os.dup(0), "r")
    os.dup2(2, 1)  # stray prints go to stderr, never into the protocol
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)  # a kernel that reads stdin reads nothing, as in a fresh process
    os.close(devnull)
    sys.stdin = open(os.devnull)

    def say(obj: dict) -> None:
        proto.write(json.dumps(obj, default=str) + "\n")
        proto.flush()

    say({"ready": True, "pid": os.getpid(), "preload": _preload(args.device, args.prestart, args.preload)})
    for line in requests:
        line = line.strip()
        if not line:
            continue
        try:
            req = json.loads(line)
        except ValueError:
            say({"done": False, "error": "bad request"})
            continue
        t = time.perf_counter()
        code = _run(req)
        healthy = _cuda_healthy()
        say({"done": True, "code": code, "seconds": round(time.perf_counter() - t, 4), "poisoned": not healthy})
        if not healthy:
            break


if __name__ == "__main__":
    main()
