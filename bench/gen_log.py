#!/usr/bin/env python3
"""Generate a realistic model-server log of any size, with a few known failures planted in it.

    python bench/gen_log.py --size 1G --out bench/out/realistic-1G.log --seed 1

The body imitates what a serving fleet writes most of the time: vLLM (API server access and
request lines, engine stats every few seconds, interleaved ``(VllmWorker rank=N pid=P)`` and
``(EngineCore_DP0 pid=P)`` lines, warnings, the odd client-disconnect traceback), SGLang
(``[2025-08-01 11:19:46 TP3] Decode batch. ...``) and transformers scripts (python logging,
tqdm bars, UserWarnings). ``--style mixed`` (the default) alternates segments of the three.

Known failures are planted at random line boundaries: the text of real error logs from
``signatures/samples/<id>/match/*.log`` (only samples whose directory names a signature in
``signatures/``). A manifest (``<out>.manifest.json``) records what was planted where: the
sample, the signature id, the byte offset and the first line number. ``--at-offsets`` plants
at (just after) given byte offsets instead, to put failures across chunk boundaries.

Deterministic: the same arguments and seed give the same bytes.
"""
from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
BLOCK_LINES = 2000
POOL = 4000  # distinct variants per line template

_UNITS = {"": 1, "B": 1, "K": 1 << 10, "KB": 1 << 10, "M": 1 << 20, "MB": 1 << 20, "G": 1 << 30, "GB": 1 << 30}


def parse_size(s: str) -> int:
    s = s.strip().upper()
    num = s.rstrip("KMGB")
    unit = s[len(num):]
    if unit not in _UNITS:
        raise argparse.ArgumentTypeError(f"bad size {s!r} (use e.g. 500M, 1G, 20MB)")
    return int(float(num) * _UNITS[unit])


def _hex(rng: random.Random, n: int) -> str:
    return "%0*x" % (n, rng.getrandbits(4 * n))


PROMPTS = [
    "Summarize the following support ticket in two sentences",
    "Translate to German: the weather is nice today",
    "Write a haiku about GPUs",
    "What is the capital of Australia?",
    "Explain the difference between TCP and UDP",
    "List three prime numbers greater than 100",
    "Refactor this function to be iterative",
    "Give me a short SQL query that counts rows per day",
]
ROUTES = ["/v1/chat/completions", "/v1/completions", "/v1/embeddings", "/health", "/metrics", "/v1/models"]
VLLM_FILES = ["loggers.py:123", "logger.py:43", "async_llm.py:261", "core.py:93", "scheduler.py:1544",
              "gpu_model_runner.py:2338", "custom_all_reduce.py:203", "shm_broadcast.py:466", "kv_cache_utils.py:716"]


class Body:
    """Pools of benign lines per style; a block is a random choice from them with the clock in it."""

    def __init__(self, rng: random.Random, tp: int = 8):
        self.rng = rng
        self.tp = tp
        self.worker_pids = [1000 + 37 * i + rng.randrange(30) for i in range(tp)]
        self.engine_pid = 200 + rng.randrange(50)
        self.pools = {"vllm": self._vllm(), "sglang": self._sglang(), "transformers": self._transformers()}
        self.rare = {"vllm": self._vllm_rare(), "sglang": self._sglang_rare(), "transformers": self._transformers_rare()}

    # -- vLLM ------------------------------------------------------------------------------
    def _vllm(self) -> list[str]:
        r = self.rng
        out: list[str] = []
        for _ in range(POOL):
            rid = _hex(r, 32)
            ip = f"10.{r.randrange(256)}.{r.randrange(256)}.{r.randrange(256)}:{r.randrange(30000, 65000)}"
            k = r.random()
            if k < 0.30:
                out.append(f'(APIServer pid=1) INFO:     {ip} - "POST {r.choice(ROUTES[:3])} HTTP/1.1" 200 OK')
            elif k < 0.50:
                out.append(f"(APIServer pid=1) INFO @TS@ [async_llm.py:261] Added request chatcmpl-{rid}.")
            elif k < 0.62:
                out.append(
                    f"(APIServer pid=1) INFO @TS@ [logger.py:43] Received request chatcmpl-{rid}: prompt: "
                    f"'<|im_start|>user\\n{r.choice(PROMPTS)}<|im_end|>\\n<|im_start|>assistant\\n', "
                    f"params: SamplingParams(n=1, presence_penalty=0.0, frequency_penalty=0.0, repetition_penalty=1.0, "
                    f"temperature={r.choice([0.0, 0.2, 0.7, 1.0])}, top_p={r.choice([0.8, 0.95, 1.0])}, top_k=-1, min_p=0.0, "
                    f"seed=None, stop=[], stop_token_ids=[], bad_words=[], include_stop_str_in_output=False, "
                    f"ignore_eos=False, max_tokens={r.randrange(16, 4096)}, min_tokens=0, logprobs=None, "
                    f"prompt_logprobs=None, skip_special_tokens=True, spaces_between_special_tokens=True, "
                    f"truncate_prompt_tokens=None, guided_decoding=None, extra_args=None), prompt_token_ids: None, "
                    f"prompt_embeds shape: None, lora_request: None."
                )
            elif k < 0.72:
                out.append(
                    f"(APIServer pid=1) INFO @TS@ [loggers.py:123] Engine 000: Avg prompt throughput: "
                    f"{r.uniform(0, 9000):.1f} tokens/s, Avg generation throughput: {r.uniform(0, 3000):.1f} tokens/s, "
                    f"Running: {r.randrange(0, 64)} reqs, Waiting: {r.randrange(0, 8)} reqs, GPU KV cache usage: "
                    f"{r.uniform(0, 99):.1f}%, Prefix cache hit rate: {r.uniform(0, 90):.1f}%"
                )
            elif k < 0.80:
                out.append(f'(APIServer pid=1) INFO:     {ip} - "GET {r.choice(ROUTES[3:])} HTTP/1.1" 200 OK')
            elif k < 0.90:
                w = r.randrange(self.tp)
                pfx = f"(VllmWorker rank={w} pid={self.worker_pids[w]})"
                out.append(r.choice([
                    f"{pfx} INFO @TS@ [shm_broadcast.py:466] No available shared memory broadcast block found in 60 second.",
                    f"{pfx} INFO @TS@ [custom_all_reduce.py:203] Registering {r.randrange(1000, 9000)} cuda graph addresses",
                    f"{pfx} DEBUG @TS@ [gpu_model_runner.py:2338] Batch {r.randrange(10**6)}: {r.randrange(1, 256)} scheduled "
                    f"tokens, {r.randrange(1, 64)} requests, padded to {r.choice([8, 16, 32, 64, 128, 256])}",
                    f"{pfx} DEBUG @TS@ [kv_cache_utils.py:716] freed {r.randrange(1, 4000)} blocks for request {rid[:8]}",
                ]))
            elif k < 0.96:
                out.append(
                    f"(EngineCore_DP0 pid={self.engine_pid}) DEBUG @TS@ [core.py:{r.randrange(100, 900)}] EngineCore loop: "
                    f"{r.randrange(0, 64)} running, {r.randrange(0, 8)} waiting, step {r.randrange(10**7)} took {r.uniform(2, 90):.2f} ms"
                )
            else:
                out.append(f"(APIServer pid=1) INFO @TS@ [async_llm.py:{r.choice([420, 433])}] Finished request chatcmpl-{rid}.")
        return out

    def _vllm_rare(self) -> list[list[str]]:
        """Warnings and benign error blocks, written now and then."""
        r = self.rng
        out: list[list[str]] = []
        for _ in range(200):
            w = r.randrange(self.tp)
            pfx = f"(VllmWorker rank={w} pid={self.worker_pids[w]})"
            rid = _hex(r, 32)
            k = r.random()
            if k < 0.35:
                out.append([f"(APIServer pid=1) WARNING @TS@ [protocol.py:93] The following fields were present in the "
                            f"request but ignored: {{'{r.choice(['stream_options', 'user', 'metadata', 'store'])}'}}"])
            elif k < 0.55:
                out.append([f"{pfx} WARNING @TS@ [fused_moe.py:{r.randrange(700, 900)}] Using default MoE config. Performance "
                            f"might be sub-optimal! Config file not found at /usr/local/lib/python3.12/dist-packages/vllm/"
                            f"model_executor/layers/fused_moe/configs/E=128,N=768,device_name=NVIDIA_H100_80GB_HBM3,dtype=fp8_w8a8.json"])
            elif k < 0.70:
                out.append([f"(APIServer pid=1) WARNING @TS@ [serving_chat.py:{r.randrange(100, 300)}] Request chatcmpl-{rid} "
                            f"was aborted by the client before completion"])
            elif k < 0.80:
                out.append([f"(EngineCore_DP0 pid={self.engine_pid}) WARNING @TS@ [scheduler.py:1544] Sequence group "
                            f"{rid[:6]} is preempted by PreemptionMode.RECOMPUTE because there is not enough KV cache space. "
                            f"total_num_cumulative_preemption={r.randrange(1, 500)}"])
            else:
                # a client went away in the middle of a streamed response
                out.append([
                    "(APIServer pid=1) ERROR @TS@ [serving_chat.py:1036] Error in chat completion stream generator.",
                    "(APIServer pid=1) Traceback (most recent call last):",
                    '(APIServer pid=1)   File "/usr/local/lib/python3.12/dist-packages/vllm/entrypoints/openai/serving_chat.py", '
                    f"line {r.choice([512, 515])}, in chat_completion_stream_generator",
                    "(APIServer pid=1)     async for res in result_generator:",
                    '(APIServer pid=1)   File "/usr/local/lib/python3.12/dist-packages/vllm/v1/engine/async_llm.py", '
                    "line 369, in generate",
                    "(APIServer pid=1)     out = q.get_nowait() or await q.get()",
                    '(APIServer pid=1)   File "/usr/lib/python3.12/asyncio/queues.py", line 158, in get',
                    "(APIServer pid=1)     await getter",
                    "(APIServer pid=1) asyncio.exceptions.CancelledError",
                ])
        return out

    # -- SGLang ----------------------------------------------------------------------------
    def _sglang(self) -> list[str]:
        r = self.rng
        out: list[str] = []
        for _ in range(POOL):
            tp = r.randrange(self.tp)
            k = r.random()
            if k < 0.45:
                out.append(f"[@DATE@ @TS@ TP{tp}] Decode batch. #running-req: {r.randrange(1, 128)}, #token: "
                           f"{r.randrange(100, 200000)}, token usage: {r.uniform(0, 0.99):.2f}, cuda graph: True, gen "
                           f"throughput (token/s): {r.uniform(10, 3000):.2f}, #queue-req: {r.randrange(0, 10)}, ")
            elif k < 0.65:
                out.append(f"[@DATE@ @TS@ TP{tp}] Prefill batch. #new-seq: {r.randrange(1, 8)}, #new-token: "
                           f"{r.randrange(1, 8192)}, #cached-token: {r.randrange(0, 4096)}, token usage: "
                           f"{r.uniform(0, 0.99):.2f}, #running-req: {r.randrange(0, 128)}, #queue-req: {r.randrange(0, 10)}, ")
            else:
                out.append(f"[@DATE@ @TS@] INFO:     127.0.0.1:{r.randrange(30000, 65000)} - \"POST "
                           f"{r.choice(['/generate', '/v1/chat/completions'])} HTTP/1.1\" 200 OK")
        return out

    def _sglang_rare(self) -> list[list[str]]:
        r = self.rng
        out = []
        for _ in range(100):
            tp = r.randrange(self.tp)
            if r.random() < 0.8:
                out.append([f"[@DATE@ @TS@ TP{tp}] WARNING: KV cache pool is full. Retract requests. #retracted_reqs: "
                            f"{r.randrange(1, 20)}, #new_token_ratio: {r.uniform(0.1, 0.9):.4f} -> {r.uniform(0.1, 0.9):.4f}"])
            else:
                out.append([f"[@DATE@ @TS@] Abort request {_hex(r, 32)} because the client disconnected"])
        return out

    # -- transformers ----------------------------------------------------------------------
    def _transformers(self) -> list[str]:
        r = self.rng
        out = []
        for _ in range(POOL):
            k = r.random()
            if k < 0.6:
                n = r.randrange(16, 1024)
                t = r.uniform(0.2, 30)
                out.append(f"@DATE@ @TS@,{r.randrange(1000):03d} - app.server - INFO - request {_hex(r, 12)}: generated "
                           f"{n} tokens in {t:.2f}s ({n / t:.1f} tok/s), prompt {r.randrange(8, 8000)} tokens")
            elif k < 0.8:
                out.append(f"@DATE@ @TS@,{r.randrange(1000):03d} - app.batcher - DEBUG - batch of {r.randrange(1, 32)} "
                           f"padded to {r.choice([128, 256, 512, 1024])} tokens, queue depth {r.randrange(0, 50)}")
            else:
                tot = r.choice([64, 128, 256, 512])
                i = r.randrange(tot + 1)
                bar = "█" * (10 * i // tot)
                out.append(f"Generating: {100 * i // tot:3d}%|{bar:<10}| {i}/{tot} [00:{r.randrange(60):02d}<00:"
                           f"{r.randrange(60):02d}, {r.uniform(1, 90):.2f}it/s]")
        return out

    def _transformers_rare(self) -> list[list[str]]:
        r = self.rng
        out = []
        for _ in range(60):
            if r.random() < 0.7:
                out.append([
                    "/opt/venv/lib/python3.11/site-packages/transformers/generation/configuration_utils.py:"
                    f"{r.choice([628, 633])}: UserWarning: `do_sample` is set to `False`. However, `temperature` is set to "
                    f"`{r.choice([0.6, 0.7, 0.9])}` -- this flag is only used in sample-based generation modes.",
                    "  warnings.warn(",
                ])
            else:
                out.append([f"@DATE@ @TS@,{r.randrange(1000):03d} - app.server - WARNING - client {_hex(r, 8)} "
                            f"disconnected after {r.randrange(1, 900)} tokens"])
        return out

    # -- blocks ----------------------------------------------------------------------------
    def block(self, style: str, clock: int) -> str:
        r = self.rng
        lines = r.choices(self.pools[style], k=BLOCK_LINES)
        # a warning or a benign error block every few hundred lines
        for _ in range(r.randrange(2, 7)):
            i = r.randrange(len(lines))
            lines[i] = "\n".join(r.choice(self.rare[style]))
        text = "\n".join(lines) + "\n"
        day = 1 + (clock // 86400) % 28
        hh, mm, ss = (clock // 3600) % 24, (clock // 60) % 60, clock % 60
        if style == "vllm":
            return text.replace("@TS@", f"08-{day:02d} {hh:02d}:{mm:02d}:{ss:02d}")
        return text.replace("@DATE@", f"2025-08-{day:02d}").replace("@TS@", f"{hh:02d}:{mm:02d}:{ss:02d}")


def load_samples() -> list[tuple[str, str, str]]:
    """(signature id, sample path relative to the repo, text) of every match sample."""
    ids = {p.stem for p in (REPO / "signatures").glob("*.toml")}
    out = []
    for p in sorted((REPO / "signatures" / "samples").glob("*/match/*.log")):
        sig = p.parent.parent.name
        # preflight signatures are risks judged from a whole log's facts, not failures that a planted
        # excerpt can carry into an unrelated log (other plants change those facts)
        if sig not in ids or sig.startswith("preflight-"):
            continue
        text = p.read_text(encoding="utf-8", errors="replace")
        if not text.endswith("\n"):
            text += "\n"
        out.append((sig, str(p.relative_to(REPO)), text))
    return out


def generate(out: Path, size: int, seed: int = 1, style: str = "mixed", plants: int = 6,
             at_offsets: list[int] | None = None, tp: int = 8) -> dict:
    rng = random.Random(seed)
    body = Body(rng, tp)
    samples = load_samples()
    if at_offsets:
        plan = sorted(at_offsets)
    else:
        plan = sorted(rng.randrange(size) for _ in range(plants)) if samples else []
    chosen = [rng.choice(samples) for _ in plan] if samples else []
    styles = ["vllm", "sglang", "transformers"] if style == "mixed" else [style]
    manifest = {"size": size, "seed": seed, "style": style, "planted": []}
    written = 0
    lineno = 1
    clock = 3600 * 9
    seg_style = styles[0]
    seg_left = 0
    pi = 0
    with open(out, "wb") as fh:
        while written < size:
            if seg_left <= 0:
                seg_style = rng.choice(styles) if len(styles) > 1 else styles[0]
                seg_left = rng.randrange(20, 200)  # blocks per segment
            seg_left -= 1
            data = body.block(seg_style, clock).encode("utf-8")
            clock += rng.randrange(5, 40)
            if written + len(data) > size:
                cut = data.rfind(b"\n", 0, size - written)
                data = data[: cut + 1] if cut >= 0 else b""
                if not data:
                    break
            # plant the failures that fall in this block, at a line boundary near their offset
            while pi < len(plan) and plan[pi] < written + len(data):
                rel = max(0, plan[pi] - written)
                nl = data.rfind(b"\n", 0, rel)
                cut = nl + 1  # start of the line holding the planned offset
                head, data = data[:cut], data[cut:]
                fh.write(head)
                written += len(head)
                lineno += head.count(b"\n")
                sig, path, text = chosen[pi]
                # a blank line before and after, as when a crash interrupts the server's output
                # (without it, a message continuation of the line before may absorb the sample)
                raw = b"\n" + text.encode("utf-8") + b"\n"
                manifest["planted"].append({"signature": sig, "sample": path, "offset": written + 1, "line": lineno + 1,
                                            "lines": raw.count(b"\n") - 2})
                fh.write(raw)
                written += len(raw)
                lineno += raw.count(b"\n")
                pi += 1
            fh.write(data)
            written += len(data)
            lineno += data.count(b"\n")
    manifest["bytes"] = written
    manifest["lines"] = lineno - 1
    Path(str(out) + ".manifest.json").write_text(json.dumps(manifest, indent=1) + "\n")
    return manifest


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--size", type=parse_size, default=parse_size("100M"), help="e.g. 20M, 1G, 4G (default 100M)")
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--style", choices=["mixed", "vllm", "sglang", "transformers"], default="mixed")
    ap.add_argument("--plants", type=int, default=6, help="how many known failures to plant at random offsets")
    ap.add_argument("--at-offsets", type=parse_size, nargs="*", help="plant at these byte offsets instead")
    ap.add_argument("--tp", type=int, default=8, help="tensor-parallel workers writing to the log")
    a = ap.parse_args(argv)
    a.out.parent.mkdir(parents=True, exist_ok=True)
    m = generate(a.out, a.size, a.seed, a.style, a.plants, a.at_offsets, a.tp)
    print(f"{a.out}: {m['bytes']} bytes, {m['lines']} lines, {len(m['planted'])} planted "
          f"({', '.join(p['signature'] for p in m['planted'])})", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
