#!/usr/bin/env bash
# Prepare what the GPU validation needs on a machine that cannot reach the network (docs/gpu-validation.md).
#
#   tools/gpu_carry.sh [DEST]        (default DEST: .device-carry, git-ignored)
#
# Nothing here is committed: wheels come from the package registry through pip, the sources from local
# git mirrors of the upstream repositories (MIRRORS, default /work/.mirror, one bare repo per
# owner+name/repo), taken with `git archive` at the commits named below. DEST then holds:
#   wheels/   transformers 5.12.1 (affected, + tokenizers 0.22.2) and 5.17.0 (fixed), kernels 0.16.2 + kernels-data 0.16.2
#   src/      deepgemm.tgz, cutlass-include.tgz, fmt-include.tgz, finegrained-fp8.tgz
#   MANIFEST  the commit of every source
# and, with FP8TRIAGE_TREE=1, fp8triage.tgz: this checkout's files (for a device that ships another one).
set -euo pipefail
DEST=${1:-.device-carry}
MIRRORS=${MIRRORS:-/work/.mirror}
DG_REPO=$MIRRORS/deepseek-ai+DeepGEMM/repo
CUTLASS_REPO=$MIRRORS/NVIDIA+cutlass/repo
FMT_REPO=$MIRRORS/fmtlib+fmt/repo
KC_REPO=$MIRRORS/huggingface+kernels-community/repo
DG_REF=${DG_REF:-54e2261}          # DeepGEMM main 2.6.1 (the commit domain.md section 3 describes)
KC_REF=${KC_REF:-HEAD}
PYPLAT=(--only-binary=:all: --python-version 3.12 --implementation cp --platform manylinux_2_28_x86_64
        --platform manylinux_2_17_x86_64 --platform manylinux2014_x86_64)

mkdir -p "$DEST/wheels" "$DEST/src"
# tokenizers 0.22.2: transformers 5.12.1 (tokenizers <= 0.23.0) refuses the newer 0.23.2 that the GPU machine's image has
for spec in transformers==5.12.1 transformers==5.17.0 kernels==0.16.2 kernels-data==0.16.2 tokenizers==0.22.2; do
  python3 -m pip download -q --no-deps "${PYPLAT[@]}" -d "$DEST/wheels" "$spec"
done

dg=$(git --git-dir="$DG_REPO" rev-parse "$DG_REF")
# the submodule commits DeepGEMM pins (gitlinks in its tree)
cutlass=$(git --git-dir="$DG_REPO" ls-tree "$dg" third-party/cutlass | awk '{print $3}')
fmt=$(git --git-dir="$DG_REPO" ls-tree "$dg" third-party/fmt | awk '{print $3}')
kc=$(git --git-dir="$KC_REPO" rev-parse "$KC_REF")
git --git-dir="$DG_REPO" archive --format=tar "$dg" csrc deep_gemm scripts setup.py LICENSE | gzip > "$DEST/src/deepgemm.tgz"
git --git-dir="$CUTLASS_REPO" archive --format=tar --prefix=include/ "$cutlass:include" | gzip > "$DEST/src/cutlass-include.tgz"
git --git-dir="$FMT_REPO" archive --format=tar --prefix=include/ "$fmt:include" | gzip > "$DEST/src/fmt-include.tgz"
git --git-dir="$KC_REPO" archive --format=tar --prefix=finegrained-fp8/ "$kc:finegrained-fp8/torch-ext" | gzip > "$DEST/src/finegrained-fp8.tgz"
cat > "$DEST/MANIFEST" <<MAN
deepgemm $dg
cutlass $cutlass
fmt $fmt
kernels-community $kc
MAN
if [ "${FP8TRIAGE_TREE:-0}" = 1 ]; then
  git ls-files -z --cached --others --exclude-standard | tar --null -T - -czf "$DEST/fp8triage.tgz"
fi
du -sh "$DEST"
