#!/usr/bin/env bash
# The whole GPU validation in one command, on a bare GPU machine with no network (docs/gpu-validation.md):
#
#   bash tools/gpu_validate.sh CARRY [OUTDIR]
#
# CARRY is what tools/gpu_carry.sh prepared (wheels, sources, MANIFEST). This script
#  1. installs the carried wheels into two private folders (transformers 5.17.0 + kernels 0.16.2 with
#     kernels-data; transformers 5.12.1), never into the machine's own site-packages;
#  2. builds DeepGEMM from source against the machine's torch (`python setup.py build_ext --inplace`,
#     CUTLASS and fmt headers from CARRY, CUTLASS's cute/ and cutlass/ copied into deep_gemm/include for
#     its JIT, as DeepGEMM's own build_py step does);
#  3. lays out the hub kernel kernels-community/finegrained-fp8 where the `kernels` package loads local
#     kernels (LOCAL_KERNELS=repo_id=path; a build/torch-cuda variant with metadata.json and the _ops
#     module that the hub's kernel builder would generate);
#  4. runs the repro suite (cold caches, then warm three times, then warm without bytecode) with transformers 5.17.0, times a worker's
#     start-up phases (tools/gpu_phases.py), runs fp32-sf-guard with 5.12.1, deepgemm-sf-layout with a
#     mismatched DeepGEMM build, the GPU tests and the runner's planted-crash tests; JSON goes to OUTDIR.
#
# GPUVAL_QUICK=1 runs only what the suite's timing needs (one DeepGEMM build, the suite cold and warm once, the
# GPU tests), for a short session. GPUVAL_PROFILE=1 builds no DeepGEMM and runs the suite cold and warm three
# times, then times the remedy lanes' start-up chain (alone, two at once, and under -X importtime).
# GPUVAL_RUNS may name "served", "served2", ...: runs that take the warm workers of `fp8triage repro --serve` (started
# before the first of them). GPUVAL_FIRSTUSE=1 measures a fresh machine's first run: one DeepGEMM build, then (with GPUVAL_BASELINE=DIR, a
# copy of an earlier checkout) that code's suite cold and warm twice, then this checkout's suite cold, warm
# three times, and cold again with the hub kernel's whole autotuning (FP8TRIAGE_HUB_AUTOTUNE=full), then the
# GPU tests. Every "cold" run empties Triton's, DeepGEMM's and fp8triage's caches first. GPUVAL_NO_DG=1 builds no
# DeepGEMM (its kernels then read the documented table); GPUVAL_RUNS="cold warm ..." picks the suite runs.
set -uo pipefail
QUICK=${GPUVAL_QUICK:-0}
PROFILE=${GPUVAL_PROFILE:-0}
FIRSTUSE=${GPUVAL_FIRSTUSE:-0}
BASELINE=${GPUVAL_BASELINE:-}
[ "$FIRSTUSE" = 1 ] && QUICK=1
CARRY=$(realpath "${1:?usage: gpu_validate.sh CARRY [OUTDIR]}")
OUTDIR=${2:-${OUT:-/tmp/gpuval-out}}
W=${GPUVAL_WORK:-/tmp/gpuval}
PY=${PYTHON:-python3}
mkdir -p "$OUTDIR" "$W"
export CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
export HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 PYTHONUNBUFFERED=1
[ -d /opt/gcc/bin ] && export PATH=/opt/gcc/bin:$PATH
t_all=$(date +%s%N)
since() { echo "$(( ($(date +%s%N) - $1) / 1000000 )) ms"; }
step() { echo; echo "== $* ($(date -u +%H:%M:%S))"; }

step "machine"
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader
$PY -c 'import torch,triton,sys;print("python",sys.version.split()[0],"torch",torch.__version__,"cuda",torch.version.cuda,"triton",triton.__version__,"cap",torch.cuda.get_device_capability())'
nvcc --version | tail -2 | head -1; g++ --version | head -1
cat "$CARRY/MANIFEST"

step "wheels"
$PY -m pip install -q --no-index --no-deps --no-compile --target "$W/site-517" \
    "$CARRY"/wheels/transformers-5.17.0-*.whl "$CARRY"/wheels/kernels-0.16.2-*.whl "$CARRY"/wheels/kernels_data-*.whl || exit 1
# 5.12.1 without `kernels`: with kernels 0.16 installed it fails at import ("Either a revision or a version
# must be specified"), and its fp32-sf-guard path needs no hub kernel
$PY -m pip install -q --no-index --no-deps --no-compile --target "$W/site-512" \
    "$CARRY"/wheels/transformers-5.12.1-*.whl "$CARRY"/wheels/tokenizers-0.22.2-*.whl || exit 1
# byte-compile once, as an ordinary install does (imports are then not recompiled on every start)
$PY -m compileall -q -j 0 "$W/site-517" "$W/site-512" >/dev/null

step "DeepGEMM build"
# The machine's `g++` (/opt/gcc/bin) is a wrapper around GCC 13 whose library path has only a static
# libstdc++: an extension it links carries its own copy of the C++ runtime (seen 2026-12-03: no
# libstdc++.so.6 dependency, codecvt symbols defined in _C.so), and DeepGEMM's JIT then crashes with
# SIGSEGV in std::regex (its include parser) at the first kernel: the locale facet is looked up with
# the id of the wrong copy. Fix: put the process's own shared libstdc++ first on the link path.
# A second build with the plain wrapper is kept to show the verdict for a mismatched build.
LIBSTDCXX=$($PY -c "import torch; print(next(l.split()[-1] for l in open('/proc/self/maps') if 'libstdc++' in l))")
mkdir -p "$W/libstdcxx"; ln -sf "$LIBSTDCXX" "$W/libstdcxx/libstdc++.so"
echo "shared libstdc++ of this python: $LIBSTDCXX"
build_dg() {  # $1 folder, $2.. extra env
  local dir=$1; shift
  rm -rf "$dir"; mkdir -p "$dir/third-party/cutlass" "$dir/third-party/fmt"
  tar xzf "$CARRY/src/deepgemm.tgz" -C "$dir"
  tar xzf "$CARRY/src/cutlass-include.tgz" -C "$dir/third-party/cutlass"
  tar xzf "$CARRY/src/fmt-include.tgz" -C "$dir/third-party/fmt"
  cp -r "$dir/third-party/cutlass/include/cute" "$dir/third-party/cutlass/include/cutlass" "$dir/deep_gemm/include/"
  (cd "$dir" && env "$@" DG_USE_LOCAL_VERSION=0 MAX_JOBS=16 $PY setup.py build_ext --inplace >build.log 2>&1)
}
t=$(date +%s)
if [ "$PROFILE" = 1 ] || [ "${GPUVAL_NO_DG:-0}" = 1 ]; then echo "GPUVAL_PROFILE=1 or GPUVAL_NO_DG=1: no DeepGEMM build"; else
build_dg "$W/dg" LDFLAGS="-L$W/libstdcxx" & p1=$!
if [ "$QUICK" = 1 ]; then p2=""; else build_dg "$W/dg-wrapper" X=1 & p2=$!; fi
wait $p1; rc1=$?; rc2=skipped; [ -n "$p2" ] && { wait $p2; rc2=$?; }
echo "builds: shared-libstdc++ rc=$rc1, plain wrapper rc=$rc2, $(( $(date +%s) - t )) s"
[ $rc1 = 0 ] || tail -5 "$W/dg/build.log"
for d in "$W/dg" "$W/dg-wrapper"; do
  so=$(ls "$d"/deep_gemm/_C*.so 2>/dev/null) && echo "$d: $(ldd "$so" | grep -c libstdc++) libstdc++.so link(s), $(nm -D --defined-only "$so" 2>/dev/null | grep -c codecvt) codecvt symbols defined"
done
fi

step "finegrained-fp8 hub kernel, laid out for offline loading"
KV="$W/kernels/finegrained-fp8/build/torch-cuda"
mkdir -p "$KV"; tar xzf "$CARRY/src/finegrained-fp8.tgz" -C "$KV" --strip-components=1
cat > "$KV/metadata.json" <<JSON
{"id": "_finegrained_fp8_local", "name": "finegrained-fp8", "version": 4, "license": "Apache-2.0",
 "python-depends": [], "backend": {"type": "cuda"}}
JSON
cat > "$KV/finegrained_fp8/_ops.py" <<PYOPS
import torch
ops = torch.ops._finegrained_fp8_local
def add_op_namespace_prefix(op_name: str) -> str:
    return f"_finegrained_fp8_local::{op_name}"
PYOPS
export LOCAL_KERNELS="kernels-community/finegrained-fp8=$W/kernels/finegrained-fp8"
ls "$KV" "$KV/finegrained_fp8"

export DG_JIT_CACHE_DIR=$W/dg-jit-cache TRITON_CACHE_DIR=$W/triton-cache
step "DeepGEMM: which build runs its JIT (probe: float32 1x128 SF transform)"
DG=""
for d in "$W/dg" "$W/dg-wrapper"; do
  [ -d "$d/deep_gemm" ] || continue
  r=$(PYTHONPATH=$d timeout 180 $PY repro_kernels/_deepgemm_probe.py import sfa_f32_1x128 2>&1 | tail -1)
  echo "$d: $r"
  if [ -z "$DG" ] && echo "$r" | grep -q '"ok": true'; then DG=$d; fi
done
echo "suite uses DeepGEMM build: ${DG:-none}"
BAD_DG=$W/dg-wrapper; [ "$DG" = "$W/dg-wrapper" ] || [ "$QUICK" = 1 ] && BAD_DG=""

# The image ships its packages without bytecode and sets PYTHONDONTWRITEBYTECODE=1, so every process
# compiles torch's (and sympy's, transformers') Python from source; the runner then keeps the kernels'
# bytecode in fp8triage's cache (fp8triage.confirm.repro.bytecode_cache), emptied here for the cold run.
export FP8TRIAGE_CACHE_DIR=$W/fp8triage-cache
step "repro suite, transformers 5.17.0 + kernels + DeepGEMM (cold caches, then warm twice, then warm without bytecode)"
export PYTHONPATH=${DG:+$DG:}$W/site-517
RUNS="cold warm warm2 warm3 nobytecode"; [ "$QUICK" = 1 ] && RUNS="cold warm"; [ "$PROFILE" = 1 ] && RUNS="cold warm warm2 warm3"
[ "$FIRSTUSE" = 1 ] && RUNS="cold warm warm2 warm3 coldfull"
[ -n "$BASELINE" ] && RUNS="base-cold base-warm base-warm2 $RUNS"
RUNS=${GPUVAL_RUNS:-$RUNS}  # e.g. GPUVAL_RUNS="cold warm warm2": only those
for run in $RUNS; do
  case $run in *cold*) rm -rf "$DG_JIT_CACHE_DIR" "$TRITON_CACHE_DIR" "$FP8TRIAGE_CACHE_DIR";; esac
  s=$(date +%s%N)
  case $run in
    nobytecode) FP8TRIAGE_REPRO_PYCACHE=off $PY -m fp8triage repro --device cuda --format json > "$OUTDIR/repro-517-$run.json";;
    coldfull) FP8TRIAGE_HUB_AUTOTUNE=full $PY -m fp8triage repro --device cuda --format json > "$OUTDIR/repro-517-$run.json";;
    base-*) (cd "$BASELINE" && $PY -m fp8triage repro --device cuda --format json) > "$OUTDIR/repro-517-$run.json";;
    served*)
      # warm workers kept by `fp8triage repro --serve`: started once (timed apart), then each run takes them; the
      # runs after the first wait 20 s, as a later --confirm would, so the server has started their replacements
      if [ -z "${SRV_PID:-}" ]; then
        $PY -m fp8triage repro --serve --device cuda --idle 10 2> "$OUTDIR/server.log" & SRV_PID=$!
        for _ in $(seq 1 180); do grep -q "workers ready" "$OUTDIR/server.log" && break; sleep 1; done
        echo "server started: $(since $s): $(grep 'workers ready' "$OUTDIR/server.log")"
      else
        sleep 20
      fi
      s=$(date +%s%N)
      $PY -m fp8triage repro --device cuda --format json > "$OUTDIR/repro-517-$run.json";;
    *) $PY -m fp8triage repro --device cuda --format json > "$OUTDIR/repro-517-$run.json";;
  esac
  echo "$run: rc=$? wall $(since $s)"
done
if [ -n "${SRV_PID:-}" ]; then
  $PY -m fp8triage repro --stop; wait "$SRV_PID"; cat "$OUTDIR/server.log"
fi
if [ "$PROFILE" = 1 ]; then
  step "the remedy lanes' start-up chain: alone, two at once, under -X importtime"
  $PY tools/gpu_phases.py --alone 1 --concurrent 4 --concurrent-all 2 --pycache "$FP8TRIAGE_CACHE_DIR/pycache" \
      --importtime "$OUTDIR/importtime.txt" > "$OUTDIR/phases.json"
  $PY tools/gpu_summary.py --phases "$OUTDIR/phases.json"
  $PY tools/gpu_summary.py "$OUTDIR"/repro-517-*.json; echo "total $(since $t_all)"; exit 0
fi

if [ "$QUICK" != 1 ]; then
step "fp32-sf-guard with transformers 5.12.1"
PYTHONPATH=${DG:+$DG:}$W/site-512 $PY -m fp8triage repro fp32-sf-guard --device cuda --format json > "$OUTDIR/repro-512.json"
PYTHONPATH=${DG:+$DG:}$W/site-512 $PY -m fp8triage repro fp32-sf-guard --device cuda

if [ -n "$BAD_DG" ]; then
  step "deepgemm-sf-layout with the DeepGEMM build that does not match this process"
  PYTHONPATH=$BAD_DG:$W/site-517 $PY -m fp8triage repro deepgemm-sf-layout --device cuda --format json > "$OUTDIR/repro-mismatch.json"
  PYTHONPATH=$BAD_DG:$W/site-517 $PY -m fp8triage repro deepgemm-sf-layout --device cuda
fi
fi

step "GPU tests (with the bytecode cache of the runs above: the tests' own cache folders are empty)"
FP8TRIAGE_REPRO_PYCACHE=$FP8TRIAGE_CACHE_DIR/pycache FP8TRIAGE_TF512_PATH=$W/site-512 $PY -m pytest -q -p no:cacheprovider -m gpu tests/confirm/test_repro_gpu.py 2>&1 | tail -25
# the repro server with CPU stand-in kernels (tests/confirm/test_repro_server.py)
PYTHONPATH= $PY -m pytest -q -p no:cacheprovider tests/confirm/test_repro_server.py 2>&1 | tail -6
[ "$QUICK" = 1 ] && { $PY tools/gpu_summary.py "$OUTDIR"/repro-517-*.json; echo "total $(since $t_all)"; exit 0; }
step "planted crash / hang kernels, lanes and the shared DeepGEMM child (runner tests, CPU stand-ins)"
# (tests/confirm/test_repro_isolation.py drives the whole scan, whose dependencies, e.g. hyperscan, the image lacks)
PYTHONPATH= $PY -m pytest -q -p no:cacheprovider tests/confirm/test_repro_worker.py 2>&1 | tail -12
PYTHONPATH= $PY -m pytest -q -p no:cacheprovider tests/confirm/test_repro.py -k "planted or crashing" 2>&1 | tail -6

if [ "${GPUVAL_PHASES:-1}" = 1 ]; then  # GPUVAL_PHASES=0 leaves out this part (about 90 s)
step "where a worker's start goes: each phase in a fresh process, alone and several at once"
$PY tools/gpu_phases.py --alone 1 --concurrent 4,8 --concurrent-all 2 --pycache "$FP8TRIAGE_CACHE_DIR/pycache" \
    --importtime "$W/importtime.txt" > "$OUTDIR/phases.json"
$PY tools/gpu_summary.py --phases "$OUTDIR/phases.json"
fi

step "summary"
$PY tools/gpu_summary.py "$OUTDIR"/repro-517-cold.json "$OUTDIR"/repro-517-warm.json "$OUTDIR"/repro-517-warm2.json \
    "$OUTDIR"/repro-517-warm3.json "$OUTDIR"/repro-517-nobytecode.json \
    "$OUTDIR"/repro-512.json "$OUTDIR"/repro-mismatch.json
echo "total $(since $t_all)"
