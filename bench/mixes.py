#!/usr/bin/env python3
"""Log mixes for the scan benchmark: what different model servers write most of the time.

    python bench/mixes.py --mix startup --size 1G --out bench/out/startup-1G.log

Each mix is one realistic kind of log; known failures (the text of real error logs from
``signatures/samples/<id>/match/*.log``) are planted at a few random line boundaries, as
in ``gen_log.py``, and a manifest (``<out>.manifest.json``) says where. Deterministic: the
same arguments give the same bytes.

Mixes (``MIXES``):

* ``startup``: a vLLM server restarted again and again (a crash-looping pod, a rolling
  deploy). Every restart prints its start-up: the version banner, the engine config with the
  model, platform detection, weight loading with its progress lines, torch.compile and its
  cache paths ("torch.compile takes 12.3 s in total", "Using cache directory ..."), CUDA
  graph capture, KV cache sizing, the API routes. Between restarts: request, access and
  metrics lines. About 5 % of the lines mention torch or vLLM; 0.1 % are errors (a client
  that went away mid-stream).
* ``warnings``: a busy vLLM server that warns a lot: ignored request fields, preemptions,
  default MoE configs, aborted requests: about 15 % of the lines are WARNING.
* ``debug``: vLLM with ``VLLM_LOGGING_LEVEL=DEBUG`` and ``NCCL_DEBUG=INFO``: scheduler and
  engine-core steps, KV cache bookkeeping, shared-memory broadcast and NCCL channel lines.
* ``errors``: error-dense: 16 workers, about 1 % of the lines inside tracebacks (CUDA out of
  memory, request timeouts, cancelled streams, NCCL watchdog), interleaved across workers.
* ``k8s``: Kubernetes / Docker JSON lines (``{"log": "...\\n", "stream": "stderr", "time": ...}``)
  around a vLLM server's output, as read from ``/var/log/containers``.
* ``sglang``: an SGLang server: ``[2025-08-01 11:19:46 TP3] Decode batch. ...`` lines from 8
  tensor-parallel ranks, prefill batches, access lines, KV pool warnings, restarts.
* ``restart-loop``: a healthy vLLM 0.11 start-up, over and over (a pod that a liveness probe
  keeps restarting, a Loki export of a deployment that redeploys): each restart has new
  timestamps, pids, ports, cache hashes, load times and KV cache sizes, and a few requests and a
  shutdown between restarts.
* ``crash-loop``: a pod in CrashLoopBackOff: a vLLM start-up that fails (a DeepGEMM
  "Unknown SF transformation" assertion on both tensor-parallel workers, interleaved, then the
  engine core's and the API server's tracebacks) alternating with a healthy start-up; pids,
  times, ports and hashes change every time.
  In both loops a failure is planted where a restart ends, not inside two workers' interleaved
  tracebacks (where a pasted log would read as the traceback's continuation).
* ``storm``: a busy API server that logs a client error on 5 % of its lines (prompts over the
  context length, bad requests, streams the client aborted), request ids and sizes changing.
"""
from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import gen_log  # noqa: E402

BLOCK = 2000
POOL = 3000
MODELS = ["Qwen/Qwen3-30B-A3B-FP8", "deepseek-ai/DeepSeek-V3-0324", "RedHatAI/Meta-Llama-3.1-70B-Instruct-FP8",
          "/models/Qwen3-4B-FP8", "nvidia/Llama-3.3-70B-Instruct-FP8"]


def _ts(clock: int) -> str:
    day = 1 + (clock // 86400) % 28
    return f"08-{day:02d} {(clock // 3600) % 24:02d}:{(clock // 60) % 60:02d}:{clock % 60:02d}"


def _iso(clock: int, frac: int) -> str:
    day = 1 + (clock // 86400) % 28
    return f"2025-08-{day:02d}T{(clock // 3600) % 24:02d}:{(clock // 60) % 60:02d}:{clock % 60:02d}.{frac:06d}Z"


class Mix:
    """Blocks of lines; ``@TS@`` is replaced by the block's clock."""

    name = ""
    # a failure is planted right after the next line with one of these (where a restart ends),
    # not inside a traceback that another worker's lines interleave: () plants at any line
    plant_after: tuple[bytes, ...] = ()

    def __init__(self, rng: random.Random):
        self.rng = rng
        self.body = gen_log.Body(rng, 8)

    def lines(self, clock: int) -> list[str]:
        raise NotImplementedError

    def block(self, clock: int) -> str:
        return "\n".join(self.lines(clock)).replace("@TS@", _ts(clock)) + "\n"

    def wrap(self, text: str, clock: int) -> str:
        """How a planted sample appears in this mix (plain text by default)."""
        return text


class Startup(Mix):
    name = "startup"

    def __init__(self, rng):
        super().__init__(rng)
        self.traffic = self.body.pools["vllm"]
        self.errors = [b for b in self.body.rare["vllm"] if len(b) > 1]  # client-disconnect tracebacks

    def startup(self) -> list[str]:
        r = self.rng
        model = r.choice(MODELS)
        ver = r.choice(["0.10.1.1", "0.11.0", "0.24.0"])
        pid = r.randrange(100, 999)
        e = f"(EngineCore_DP0 pid={pid})"
        a = "(APIServer pid=1)"
        cache = gen_log._hex(r, 10)
        out = [
            f"{a} INFO @TS@ [api_server.py:1805] vLLM API server version {ver}",
            f"{a} INFO @TS@ [utils.py:326] non-default args: {{'model': '{model}', 'tensor_parallel_size': 2, "
            f"'max_model_len': 32768, 'gpu_memory_utilization': 0.9}}",
            f"{a} INFO @TS@ [__init__.py:241] Automatically detected platform cuda.",
            f"{a} INFO @TS@ [config.py:1604] Using max model len 32768",
            f"{e} INFO @TS@ [core.py:644] Waiting for init message from front-end.",
            f"{e} INFO @TS@ [core.py:74] Initializing a V1 LLM engine (v{ver}) with config: model='{model}', "
            f"speculative_config=None, tokenizer='{model}', skip_tokenizer_init=False, tokenizer_mode=auto, "
            f"revision=None, trust_remote_code=False, dtype=torch.bfloat16, max_seq_len=32768, "
            f"download_dir=None, load_format=auto, tensor_parallel_size=2, pipeline_parallel_size=1, "
            f"quantization=fp8, enforce_eager=False, kv_cache_dtype=auto, device_config=cuda, seed=0",
        ]
        for rank in range(2):
            w = f"(VllmWorker rank={rank} pid={pid + 10 + rank})"
            out += [
                f"{w} INFO @TS@ [parallel_state.py:1134] rank {rank} in world size 2 is assigned as DP rank 0, "
                f"PP rank 0, TP rank {rank}, EP rank {rank}",
                f"{w} INFO @TS@ [gpu_model_runner.py:1953] Starting to load model {model}...",
                f"{w} INFO @TS@ [cuda.py:328] Using Flash Attention backend on V1 engine.",
            ]
        for k in range(1, 9):
            out.append(f"{e} Loading safetensors checkpoint shards: {100 * k // 8:3d}% Completed | {k}/8 "
                       f"[00:{2 * k:02d}<00:{16 - 2 * k:02d},  {r.uniform(0.4, 0.9):.2f}it/s]")
        for rank in range(2):
            w = f"(VllmWorker rank={rank} pid={pid + 10 + rank})"
            t = r.uniform(20, 60)
            out += [
                f"{w} INFO @TS@ [default_loader.py:262] Loading weights took {r.uniform(5, 30):.2f} seconds",
                f"{w} INFO @TS@ [gpu_model_runner.py:2007] Model loading took {r.uniform(4, 40):.4f} GiB and "
                f"{r.uniform(10, 60):.6f} seconds",
                f"{w} INFO @TS@ [backends.py:548] Using cache directory: /root/.cache/vllm/torch_compile_cache/"
                f"{cache}/rank_{rank}_0/backbone for vLLM's torch.compile",
                f"{w} INFO @TS@ [backends.py:559] Dynamo bytecode transform time: {r.uniform(3, 12):.2f} s",
                f"{w} INFO @TS@ [backends.py:194] Cache the graph for dynamic shape for later use",
                f"{w} INFO @TS@ [backends.py:215] Compiling a graph for dynamic shape takes {r.uniform(20, 60):.2f} s",
                f"{w} INFO @TS@ [monitor.py:34] torch.compile takes {t:.2f} s in total",
                f"{w} INFO @TS@ [gpu_worker.py:276] Available KV cache memory: {r.uniform(10, 60):.2f} GiB",
                f"{w} INFO @TS@ [kv_cache_utils.py:849] GPU KV cache size: {r.randrange(10**5, 10**6):,} tokens",
            ]
        for k in range(1, 12):
            out.append(f"{e} Capturing CUDA graphs (mixed prefill-decode, PIECEWISE): {100 * k // 11:3d}%|"
                       f"{'█' * k:<11}| {k * 6}/67 [00:{k:02d}<00:{12 - k:02d}, {r.uniform(4, 9):.2f}it/s]")
        out += [
            f"{e} INFO @TS@ [gpu_model_runner.py:2708] Graph capturing finished in {r.randrange(8, 30)} secs, "
            f"took {r.uniform(0.3, 1.5):.2f} GiB",
            f"{e} INFO @TS@ [core.py:214] init engine (profile, create kv cache, warmup model) took "
            f"{r.uniform(40, 120):.2f} seconds",
            f"{a} INFO @TS@ [loggers.py:142] Engine 000: vllm cache_config_info with initialization after num_gpu_blocks is: "
            f"{r.randrange(5000, 50000)}",
            f"{a} INFO @TS@ [api_server.py:1611] Supported_tasks: ['generate']",
            f"{a} INFO @TS@ [api_server.py:1880] Starting vLLM API server 0 on http://0.0.0.0:8000",
            f"{a} INFO @TS@ [launcher.py:36] Available routes are:",
        ]
        for route in ("/openapi.json", "/docs", "/health", "/tokenize", "/v1/models", "/version",
                      "/v1/chat/completions", "/v1/completions", "/v1/embeddings", "/metrics"):
            out.append(f"{a} INFO @TS@ [launcher.py:44] Route: {route}, Methods: GET, POST")
        out += [f"{a} INFO:     Started server process [1]", f"{a} INFO:     Waiting for application startup.",
                f"{a} INFO:     Application startup complete."]
        return out

    def lines(self, clock):
        r = self.rng
        out = r.choices(self.traffic, k=BLOCK)
        if r.random() < 0.35:  # a restart in this block
            i = r.randrange(len(out))
            out[i:i] = self.startup()
        if r.random() < 0.25:  # about 0.1 % of the lines: a client that went away mid-stream
            out[r.randrange(len(out))] = "\n".join(r.choice(self.errors))
        return out


class Warnings(Mix):
    name = "warnings"

    def __init__(self, rng):
        super().__init__(rng)
        r = rng
        self.traffic = self.body.pools["vllm"]
        warn = []
        for _ in range(POOL):
            rid = gen_log._hex(r, 32)
            k = r.random()
            if k < 0.3:
                warn.append(f"(APIServer pid=1) WARNING @TS@ [protocol.py:93] The following fields were present in the "
                            f"request but ignored: {{'{r.choice(['stream_options', 'user', 'metadata', 'store'])}'}}")
            elif k < 0.5:
                warn.append(f"(EngineCore_DP0 pid=211) WARNING @TS@ [scheduler.py:1544] Sequence group {rid[:6]} is "
                            f"preempted by PreemptionMode.RECOMPUTE because there is not enough KV cache space. "
                            f"total_num_cumulative_preemption={r.randrange(1, 5000)}")
            elif k < 0.7:
                warn.append(f"(APIServer pid=1) WARNING @TS@ [serving_chat.py:{r.randrange(100, 300)}] Request "
                            f"chatcmpl-{rid} was aborted by the client before completion")
            elif k < 0.85:
                warn.append(f"(APIServer pid=1) WARNING @TS@ [serving_engine.py:412] max_tokens={r.randrange(4000, 40000)} "
                            f"is too large for the prompt ({r.randrange(100, 9000)} tokens); clamped to "
                            f"{r.randrange(100, 4000)}")
            else:
                warn.append(f"(VllmWorker rank={r.randrange(8)} pid={1000 + r.randrange(300)}) WARNING @TS@ "
                            f"[fused_moe.py:{r.randrange(700, 900)}] Using default MoE config. Performance might be "
                            f"sub-optimal! Config file not found at /usr/local/lib/python3.12/dist-packages/vllm/"
                            f"model_executor/layers/fused_moe/configs/E=128,N=768,device_name=NVIDIA_H100_80GB_HBM3.json")
        self.warn = warn

    def lines(self, clock):
        r = self.rng
        n_warn = int(BLOCK * 0.15)
        out = r.choices(self.traffic, k=BLOCK - n_warn) + r.choices(self.warn, k=n_warn)
        r.shuffle(out)
        return out


class Debug(Mix):
    name = "debug"

    def __init__(self, rng):
        super().__init__(rng)
        r = rng
        self.traffic = self.body.pools["vllm"]
        dbg = []
        for _ in range(POOL):
            w = r.randrange(8)
            pfx = f"(VllmWorker rank={w} pid={1000 + 37 * w})"
            k = r.random()
            if k < 0.25:
                dbg.append(f"(EngineCore_DP0 pid=211) DEBUG @TS@ [core.py:{r.randrange(600, 800)}] EngineCore loop active: "
                           f"{r.randrange(0, 64)} running, {r.randrange(0, 8)} waiting")
            elif k < 0.45:
                dbg.append(f"{pfx} DEBUG @TS@ [gpu_model_runner.py:2338] Batch {r.randrange(10**6)}: "
                           f"{r.randrange(1, 256)} scheduled tokens, padded to {r.choice([8, 16, 32, 64, 128])}")
            elif k < 0.6:
                dbg.append(f"{pfx} DEBUG @TS@ [shm_broadcast.py:{r.randrange(400, 500)}] reader {w} acquired block "
                           f"{r.randrange(0, 16)} (written_flag=1, read_flags={r.randrange(0, 255)})")
            elif k < 0.75:
                dbg.append(f"(EngineCore_DP0 pid=211) DEBUG @TS@ [kv_cache_manager.py:{r.randrange(200, 400)}] "
                           f"allocated {r.randrange(1, 64)} blocks for request {gen_log._hex(r, 8)}; free blocks "
                           f"{r.randrange(0, 40000)}")
            elif k < 0.9:
                dbg.append(f"{pfx} host-{w // 4}:{1000 + 37 * w}:{1200 + w} [{w}] NCCL INFO Channel {r.randrange(24):02d}/24 : "
                           f"{w}[{w}] -> {(w + 1) % 8}[{(w + 1) % 8}] via P2P/CUMEM/read")
            else:
                dbg.append(f"(APIServer pid=1) DEBUG @TS@ [async_llm.py:{r.randrange(300, 500)}] Request "
                           f"chatcmpl-{gen_log._hex(r, 32)} output queue has {r.randrange(0, 9)} items")
        self.dbg = dbg

    def lines(self, clock):
        r = self.rng
        n = int(BLOCK * 0.7)
        out = r.choices(self.dbg, k=n) + r.choices(self.traffic, k=BLOCK - n)
        r.shuffle(out)
        return out


class Errors(Mix):
    name = "errors"
    WORKERS = 16

    def __init__(self, rng):
        super().__init__(rng)
        self.traffic = self.body.pools["vllm"]

    def traceback(self, w: int) -> list[str]:
        r = self.rng
        pfx = f"(VllmWorker rank={w} pid={2000 + 13 * w})"
        kind = r.random()
        frames = [
            ('/usr/local/lib/python3.12/dist-packages/vllm/v1/executor/multiproc_executor.py', 596, 'worker_busy_loop',
             'output = func(*args, **kwargs)'),
            ('/usr/local/lib/python3.12/dist-packages/vllm/v1/worker/gpu_worker.py', 362, 'execute_model',
             'output = self.model_runner.execute_model(scheduler_output)'),
            ('/usr/local/lib/python3.12/dist-packages/torch/utils/_contextlib.py', 120, 'decorate_context',
             'return func(*args, **kwargs)'),
        ]
        out = [f"{pfx} ERROR @TS@ [multiproc_executor.py:601] WorkerProc hit an exception.",
               f"{pfx} ERROR @TS@ [multiproc_executor.py:601] Traceback (most recent call last):"]
        for path, line, func, src in frames:
            out.append(f'{pfx} ERROR @TS@ [multiproc_executor.py:601]   File "{path}", line {line}, in {func}')
            out.append(f"{pfx} ERROR @TS@ [multiproc_executor.py:601]     {src}")
        if kind < 0.4:
            out.append(f"{pfx} ERROR @TS@ [multiproc_executor.py:601] torch.OutOfMemoryError: CUDA out of memory. Tried to "
                       f"allocate {r.randrange(100, 4000)}.00 MiB. GPU {w % 8} has a total capacity of 79.19 GiB of which "
                       f"{r.randrange(1, 900)}.00 MiB is free.")
        elif kind < 0.7:
            out.append(f"{pfx} ERROR @TS@ [multiproc_executor.py:601] TimeoutError: RPC call to execute_model timed out "
                       f"after {r.randrange(60, 600)} s")
        else:
            out.append(f"{pfx} ERROR @TS@ [multiproc_executor.py:601] RuntimeError: NCCL communicator was aborted on rank "
                       f"{w}. Original reason for failure was: [Rank {w}] Watchdog caught collective operation timeout: "
                       f"WorkNCCL(SeqNum={r.randrange(10**6)}, OpType=ALLREDUCE) ran for 600000 milliseconds")
        return out

    def lines(self, clock):
        r = self.rng
        out = r.choices(self.traffic, k=BLOCK)
        # about 1 % of the lines in tracebacks, the workers' lines interleaved
        tbs = [self.traceback(r.randrange(self.WORKERS)) for _ in range(2)]
        at = r.randrange(len(out) - 40)
        merged = []
        while any(tbs):
            t = r.choice([t for t in tbs if t])
            merged.append(t.pop(0))
        out[at:at] = merged
        return out


class K8s(Mix):
    name = "k8s"

    def __init__(self, rng):
        super().__init__(rng)
        self.inner = Startup(rng)

    def _json(self, text: str, clock: int, i: int) -> str:
        stream = "stderr" if " ERROR " in text or " WARNING " in text or "Traceback" in text else "stdout"
        return json.dumps({"log": text + "\n", "stream": stream, "time": _iso(clock, i % 1000000)}, ensure_ascii=False)

    def block(self, clock):
        text = "\n".join(self.inner.lines(clock)).replace("@TS@", _ts(clock))
        return "\n".join(self._json(t, clock, i) for i, t in enumerate(text.split("\n"))) + "\n"

    def wrap(self, text, clock):
        return "\n".join(self._json(t, clock, i) for i, t in enumerate(text.rstrip("\n").split("\n"))) + "\n"


class SGLang(Mix):
    name = "sglang"

    def __init__(self, rng):
        super().__init__(rng)
        self.traffic = self.body.pools["sglang"]
        self.rare = self.body.rare["sglang"]

    def startup(self) -> list[str]:
        r = self.rng
        model = r.choice(MODELS)
        out = [f"[@DATE@ @TS@] server_args=ServerArgs(model_path='{model}', tokenizer_path='{model}', "
               f"tokenizer_mode='auto', load_format='auto', trust_remote_code=False, dtype='auto', quantization='fp8', "
               f"context_length=None, device='cuda', tp_size=8, mem_fraction_static=0.85)"]
        for tp in range(8):
            out += [f"[@DATE@ @TS@ TP{tp}] Init torch distributed begin.",
                    f"[@DATE@ @TS@ TP{tp}] Load weight begin. avail mem={r.uniform(70, 79):.2f} GB",
                    f"[@DATE@ @TS@ TP{tp}] Load weight end. type=Qwen3MoeForCausalLM, dtype=torch.bfloat16, "
                    f"avail mem={r.uniform(30, 50):.2f} GB",
                    f"[@DATE@ @TS@ TP{tp}] KV Cache is allocated. #tokens: {r.randrange(10**5, 10**6)}",
                    f"[@DATE@ @TS@ TP{tp}] Capture cuda graph begin. This can take up to several minutes.",
                    f"[@DATE@ @TS@ TP{tp}] Capture cuda graph end. Time elapsed: {r.uniform(10, 60):.2f} s"]
        out += ["[@DATE@ @TS@] INFO:     Started server process [1]",
                "[@DATE@ @TS@] INFO:     Uvicorn running on http://0.0.0.0:30000 (Press CTRL+C to quit)",
                "[@DATE@ @TS@] The server is fired up and ready to roll!"]
        return out

    def lines(self, clock):
        r = self.rng
        out = r.choices(self.traffic, k=BLOCK)
        for _ in range(r.randrange(2, 8)):
            out[r.randrange(len(out))] = "\n".join(r.choice(self.rare))
        if r.random() < 0.1:
            i = r.randrange(len(out))
            out[i:i] = self.startup()
        return out

    def block(self, clock):
        day = 1 + (clock // 86400) % 28
        ts = f"{(clock // 3600) % 24:02d}:{(clock // 60) % 60:02d}:{clock % 60:02d}"
        return ("\n".join(self.lines(clock)) + "\n").replace("@DATE@", f"2025-08-{day:02d}").replace("@TS@", ts)


class RestartLoop(Mix):
    """A healthy vLLM 0.11 start-up repeated with new times, pids, ports and hashes."""

    name = "restart-loop"
    GPU, CC = "NVIDIA H100 80GB HBM3", "9.0"
    plant_after = (b"Finished server process [1]", b"Failed core proc(s)")

    def __init__(self, rng):
        super().__init__(rng)
        self.traffic = self.body.pools["vllm"]
        self.model = rng.choice(MODELS)

    def healthy(self, clock: int, pid: int) -> list[str]:
        """A healthy start-up with its times and pids filled in (the clock advances inside it)."""
        r = self.rng
        t = [clock]

        def ts() -> str:
            t[0] += r.randrange(0, 3)
            return _ts(t[0])

        model = self.model
        a = "(APIServer pid=1)"
        e = f"(EngineCore_DP0 pid={pid})"
        port = r.choice([8000, 8000, 8080, 9000])
        out = [
            f"INFO {ts()} [__init__.py:216] Automatically detected platform cuda.",
            f"{a} INFO {ts()} [api_server.py:1839] vLLM API server version 0.11.0",
            f"{a} INFO {ts()} [utils.py:233] non-default args: {{'model_tag': '{model}', 'port': {port}, "
            f"'model': '{model}', 'tensor_parallel_size': 2, 'max_model_len': 32768}}",
            f"{a} INFO {ts()} [model.py:547] Resolved architecture: Qwen3MoeForCausalLM",
            f"{a} INFO {ts()} [model.py:1510] Using max model len 32768",
            f"{a} INFO {ts()} [scheduler.py:205] Chunked prefill is enabled with max_num_batched_tokens=8192.",
            f"{e} INFO {ts()} [core.py:644] Waiting for init message from front-end.",
            f"{e} INFO {ts()} [core.py:77] Initializing a V1 LLM engine (v0.11.0) with config: model='{model}', "
            f"speculative_config=None, tokenizer='{model}', skip_tokenizer_init=False, tokenizer_mode=auto, "
            f"revision=None, trust_remote_code=False, dtype=torch.bfloat16, max_seq_len=32768, download_dir=None, "
            f"load_format=auto, tensor_parallel_size=2, pipeline_parallel_size=1, quantization=fp8, "
            f"enforce_eager=False, kv_cache_dtype=auto, device_config=cuda, seed=0",
            f"{e} INFO {ts()} [shm_broadcast.py:289] vLLM message queue communication handle: "
            f"Handle(local_reader_ranks=[0, 1], buffer_handle=(2, 16777216, 10, 'psm_{gen_log._hex(r, 8)}'), "
            f"local_subscribe_addr='ipc:///tmp/{gen_log._hex(r, 8)}-{gen_log._hex(r, 4)}', remote_subscribe_addr=None)",
        ]
        for rank in range(2):
            w = f"(Worker_TP{rank} pid={pid + 10 + rank})"
            out += [f"{w} INFO {ts()} [cuda.py:398] Device {rank}: {self.GPU}, compute capability {self.CC}",
                    f"{w} INFO {ts()} [parallel_state.py:1208] rank {rank} in world size 2 is assigned as DP rank 0, "
                    f"PP rank 0, TP rank {rank}, EP rank {rank}"]
        for rank in range(2):
            w = f"(Worker_TP{rank} pid={pid + 10 + rank})"
            out += [f"{w} INFO {ts()} [gpu_model_runner.py:2602] Starting to load model {model}...",
                    f"{w} INFO {ts()} [cuda.py:366] Using Flash Attention backend on V1 engine."]
        for k in (1, 4, 8):
            out.append(f"(Worker_TP0 pid={pid + 10}) Loading safetensors checkpoint shards: {100 * k // 8:3d}% "
                       f"Completed | {k}/8 [00:{2 * k:02d}<00:{16 - 2 * k:02d},  {r.uniform(0.4, 0.9):.2f}it/s]")
        for rank in range(2):
            w = f"(Worker_TP{rank} pid={pid + 10 + rank})"
            out += [
                f"{w} INFO {ts()} [default_loader.py:267] Loading weights took {r.uniform(5, 30):.2f} seconds",
                f"{w} INFO {ts()} [gpu_model_runner.py:2653] Model loading took {r.uniform(14, 16):.4f} GiB and "
                f"{r.uniform(10, 60):.6f} seconds",
                f"{w} INFO {ts()} [backends.py:548] Using cache directory: /root/.cache/vllm/torch_compile_cache/"
                f"{gen_log._hex(r, 10)}/rank_{rank}_0/backbone for vLLM's torch.compile",
                f"{w} INFO {ts()} [monitor.py:34] torch.compile takes {r.uniform(20, 60):.2f} s in total",
                f"{w} INFO {ts()} [gpu_worker.py:298] Available KV cache memory: {r.uniform(40, 50):.2f} GiB",
            ]
        out += [
            f"{e} INFO {ts()} [kv_cache_utils.py:1087] GPU KV cache size: {r.randrange(4 * 10**5, 6 * 10**5):,} tokens",
            f"{e} INFO {ts()} [core.py:210] init engine (profile, create kv cache, warmup model) took "
            f"{r.uniform(40, 120):.2f} seconds",
            f"{a} INFO {ts()} [api_server.py:1634] Supported_tasks: ['generate']",
            f"{a} WARNING {ts()} [model.py:1389] Default sampling parameters have been overridden by the model's "
            f"Hugging Face generation config recommended from the model creator. If this is not intended, please "
            f"relaunch vLLM instance with `--generation-config vllm`.",
            f"{a} INFO {ts()} [api_server.py:1912] Starting vLLM API server 0 on http://0.0.0.0:{port}",
            f"{a} INFO {ts()} [launcher.py:34] Available routes are:",
            f"{a} INFO:     Started server process [1]",
            f"{a} INFO:     Waiting for application startup.",
            f"{a} INFO:     Application startup complete.",
        ]
        return out

    def shutdown(self, clock: int) -> list[str]:
        a = "(APIServer pid=1)"
        return [f"{a} INFO:     Shutting down", f"{a} INFO:     Waiting for application shutdown.",
                f"{a} INFO:     Application shutdown complete.", f"{a} INFO:     Finished server process [1]"]

    def lines(self, clock):
        r = self.rng
        out = []
        n = 0
        while n < BLOCK:
            pid = r.randrange(100, 30000)
            start = self.healthy(clock, pid)
            served = r.choices(self.traffic, k=r.randrange(0, 12))
            out += start + served + self.shutdown(clock)
            n += len(start) + len(served) + 4
            clock += r.randrange(30, 200)
        return out


class CrashLoop(RestartLoop):
    """A failing start-up (DeepGEMM's assertion on both workers) alternating with a healthy one."""

    name = "crash-loop"
    GPU, CC = "NVIDIA GeForce RTX 5090", "12.0"

    def failing(self, clock: int, pid: int) -> list[str]:
        r = self.rng
        start = self.healthy(clock, pid)
        head = start[:start.index(next(x for x in start if "Loading weights took" in x))]
        ts = _ts(clock + r.randrange(20, 60))
        site = "/usr/local/lib/python3.12/dist-packages"
        frames = [
            (f"{site}/vllm/v1/executor/multiproc_executor.py", 585, "worker_main", "worker = WorkerProc(*args, **kwargs)"),
            (f"{site}/vllm/v1/worker/gpu_worker.py", 230, "load_model", "self.model_runner.load_model(eager_load)"),
            (f"{site}/vllm/model_executor/model_loader/base_loader.py", 56, "load_model",
             "process_weights_after_loading(model, model_config, target_device)"),
            (f"{site}/vllm/model_executor/layers/quantization/fp8.py", 484, "process_weights_after_loading",
             "maybe_post_process_fp8_weight_block(layer, self.cutlass_block_fp8_supported)"),
            (f"{site}/vllm/model_executor/layers/quantization/utils/fp8_utils.py", 1077,
             "deepgemm_post_process_weight_scale_block", "dg_ws = transform_sf_into_required_layout("),
            (f"{site}/vllm/utils/deep_gemm.py", 494, "transform_sf_into_required_layout",
             "return _transform_sf_into_required_layout_impl("),
        ]
        tbs = []
        for rank in range(2):
            w = f"(Worker_TP{rank} pid={pid + 10 + rank}) ERROR {ts} [multiproc_executor.py:611]"
            tb = [f"{w} WorkerProc failed to start.", f"{w} Traceback (most recent call last):"]
            for path, line, func, src in frames:
                tb += [f'{w}   File "{path}", line {line}, in {func}', f"{w}     {src}"]
            tb.append(f"{w} RuntimeError: Assertion error (/workspace/.deps/deepgemm-src/csrc/apis/layout.hpp:60): "
                      f"Unknown SF transformation")
            tbs.append(tb)
        merged = []
        while any(tbs):  # the two workers' lines interleave
            t = r.choice([t for t in tbs if t])
            merged.append(t.pop(0))
        e = f"(EngineCore_DP0 pid={pid}) ERROR {ts} [core.py:708]"
        a = "(APIServer pid=1)"
        tail = [
            f"(EngineCore_DP0 pid={pid}) INFO {ts} [multiproc_executor.py:558] Parent process exited, terminating worker",
            f"{e} EngineCore failed to start.",
            f"{e} Traceback (most recent call last):",
            f'{e}   File "{site}/vllm/v1/engine/core.py", line 699, in run_engine_core',
            f"{e}     engine_core = EngineCoreProc(*args, **kwargs)",
            f'{e}   File "{site}/vllm/v1/executor/multiproc_executor.py", line 509, in wait_for_ready',
            f"{e}     raise e from None",
            f"{e} Exception: WorkerProc initialization failed due to an exception in a background process. "
            f"See stack trace for root cause.",
            f"{a} Traceback (most recent call last):",
            f'{a}   File "/usr/local/bin/vllm", line 10, in <module>',
            f"{a}     sys.exit(main())",
            f'{a}   File "{site}/vllm/v1/engine/utils.py", line 832, in wait_for_engine_startup',
            f'{a}     raise RuntimeError("Engine core initialization failed. "',
            f"{a} RuntimeError: Engine core initialization failed. See root cause above. Failed core proc(s): {{}}",
        ]
        return head + merged + tail

    def lines(self, clock):
        r = self.rng
        out = []
        n, k = 0, 0
        while n < BLOCK:
            pid = r.randrange(100, 30000)
            part = self.failing(clock, pid) if k % 2 == 0 else self.healthy(clock, pid) + self.shutdown(clock)
            out += part
            n += len(part)
            k += 1
            clock += r.randrange(10, 300)
        return out


class Storm(Mix):
    """An API server that logs a client error on 5 % of its lines."""

    name = "storm"

    def __init__(self, rng):
        super().__init__(rng)
        self.traffic = self.body.pools["vllm"]

    def client_error(self) -> list[str]:
        r = self.rng
        rid = gen_log._hex(r, 32)
        a = "(APIServer pid=1)"
        ip = f"10.{r.randrange(256)}.{r.randrange(256)}.{r.randrange(256)}:{r.randrange(30000, 65000)}"
        k = r.random()
        if k < 0.4:
            ask = r.randrange(32769, 90000)
            return [f"{a} ERROR @TS@ [serving_chat.py:{r.choice([222, 225])}] Error in preprocessing prompt inputs: "
                    f"This model's maximum context length is 32768 tokens. However, your request has {ask} input "
                    f"tokens. Please reduce the length of the input messages.",
                    f'{a} INFO:     {ip} - "POST /v1/chat/completions HTTP/1.1" 400 Bad Request']
        if k < 0.7:
            return [f"{a} ERROR @TS@ [serving_chat.py:1183] Error in chat completion stream generator for request "
                    f"chatcmpl-{rid}: client disconnected"]
        if k < 0.85:
            return [f"{a} ERROR @TS@ [serving_completion.py:154] Error with request cmpl-{rid}-0: "
                    f"'max_tokens' must be at least 1, got {-r.randrange(1, 100)}.",
                    f'{a} INFO:     {ip} - "POST /v1/completions HTTP/1.1" 400 Bad Request']
        return [f"{a} ERROR @TS@ [api_server.py:{r.choice([1061, 1064])}] Invalid request chatcmpl-{rid}: Expecting "
                f"value: line 1 column {r.randrange(1, 400)} (char {r.randrange(0, 400)})",
                f'{a} INFO:     {ip} - "POST /v1/chat/completions HTTP/1.1" 400 Bad Request']

    def lines(self, clock):
        r = self.rng
        out = r.choices(self.traffic, k=BLOCK)
        for _ in range(BLOCK * 5 // 100):  # 5 % of the lines: a client error
            out[r.randrange(len(out))] = "\n".join(self.client_error())
        return out


MIXES = {m.name: m for m in (Startup, Warnings, Debug, Errors, K8s, SGLang, RestartLoop, CrashLoop, Storm)}


def generate(out: Path, size: int, mix: str, seed: int = 1, plants: int = 4) -> dict:
    rng = random.Random(seed)
    m = MIXES[mix](rng)
    samples = gen_log.load_samples()
    plan = sorted(rng.randrange(size) for _ in range(plants)) if samples else []
    chosen = [rng.choice(samples) for _ in plan]
    manifest = {"mix": mix, "size": size, "seed": seed, "planted": []}
    written, lineno, clock, pi = 0, 1, 3600 * 9, 0
    with open(out, "wb") as fh:
        while written < size:
            data = m.block(clock).encode("utf-8")
            clock += rng.randrange(5, 40)
            if written + len(data) > size:
                cut = data.rfind(b"\n", 0, size - written)
                data = data[: cut + 1] if cut >= 0 else b""
                if not data:
                    break
            while pi < len(plan) and plan[pi] < written + len(data):
                nl = data.rfind(b"\n", 0, max(0, plan[pi] - written))
                ends = [data.find(b"\n", k) for k in (data.find(a, nl + 1) for a in m.plant_after) if k >= 0]
                if any(e >= 0 for e in ends):
                    nl = min(e for e in ends if e >= 0)  # where a restart ends
                head, data = data[: nl + 1], data[nl + 1:]
                fh.write(head)
                written += len(head)
                lineno += head.count(b"\n")
                sig, path, text = chosen[pi]
                raw = m.wrap("\n" + text + "\n", clock).encode("utf-8")
                manifest["planted"].append({"signature": sig, "sample": path, "offset": written, "line": lineno})
                fh.write(raw)
                written += len(raw)
                lineno += raw.count(b"\n")
                pi += 1
            fh.write(data)
            written += len(data)
            lineno += data.count(b"\n")
    manifest["bytes"], manifest["lines"] = written, lineno - 1
    Path(str(out) + ".manifest.json").write_text(json.dumps(manifest, indent=1) + "\n")
    return manifest


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--mix", choices=sorted(MIXES), required=True)
    ap.add_argument("--size", type=gen_log.parse_size, default=gen_log.parse_size("100M"))
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--plants", type=int, default=4)
    a = ap.parse_args(argv)
    a.out.parent.mkdir(parents=True, exist_ok=True)
    m = generate(a.out, a.size, a.mix, a.seed, a.plants)
    print(f"{a.out}: {m['bytes']} bytes, {m['lines']} lines, planted "
          f"{', '.join(p['signature'] for p in m['planted'])}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
