"""GPU product names in log lines, mapped to a compute capability: where a line names a GPU as the
machine's (nvidia-smi, collect_env, a device name in a config path, an environment table), and the
patterns the prefilter uses to find those lines."""
from __future__ import annotations

from ..common import rxcache
from ..common.gpus import capability_for
from .clauses import advice, reference

# GPU product names: only on lines that say NVIDIA / GeForce / Tesla / GPU, so that "A2" or
# "L4" in unrelated text is not taken for a GPU.
GPU_ANCHORS = ("NVIDIA", "GeForce", "Tesla", "Quadro", "GPU", "DGX", "Hardware")
_GPU_CONTEXT = rxcache.compile(r"NVIDIA|GeForce|Tesla|Quadro|\bGPU|DGX|\bHardware[ \t]*[:=]")
_GPU_NAME = rxcache.compile(
    r"(?P<name>(?:NVIDIA\s+)?(?:GeForce\s+|Tesla\s+|Quadro\s+)?"
    r"(?:RTX\s*PRO\s*\d{4}(?:\s+Blackwell)?(?:\s+(?:Workstation|Server|Max-Q)(?:\s+Edition)?)?"
    r"|RTX\s*\d{4}(?:\s*Ti|\s*SUPER|\s*D)?(?:\s+Ada(?:\s+Generation)?)?|RTX\s*A\d{4}"
    r"|GB\d{2,3}|GH200|[BHA]\d{3}|H20|L40S?|L20|L4|A[1-4]0G?|A16|A2|T4|V100|P100|Jetson\s+T\d000|(?:Jetson\s+(?:AGX\s+)?)?Thor"
    r"|DGX\s*Spark))"
    r"(?![\w])"
)

_DEVICE_NAME = rxcache.compile(r"(?<=device_name=)NVIDIA_[\w-]+?(?=,|\.json|\s|$)")


# GPU names: a line that names the maker or a product line (NVIDIA, GeForce, Tesla, Quadro, DGX:
# how nvidia-smi, torch.cuda.get_device_name and collect_env print a GPU), or a known name right
# before or after the word GPU ("GPU 0: H100", "H20 96GB GPU"). "GPU" anywhere on the line is not
# enough ("GPU KV cache usage" is in every vLLM stats line), and a name anywhere on a line that
# says GPU somewhere cost a quarter of the Hyperscan pass: it has to look for every short name
# ("L4", "A2") everywhere.
# The names are those ``gpus.capability_for`` knows, as few short literals as possible (a class
# such as "[BHA][0-9]{3}" makes Hyperscan look for 3,000 literals).
_GPU_NAME_WORDS = (r"(?:RTX|GB10|GB20|GB30|GH200|B100|B200|B300|H100|H200|H800|A100|A800|H20|L4|L20|A[1-4]0|A16|A2"
                   r"|T4|V100|P100|Jetson|DGX)")
PREFILTER_PATTERNS = (
    r"NVIDIA|GeForce|Tesla|Quadro|DGX",
    r"GPU[ \t:=#0-9|-]{0,8}" + _GPU_NAME_WORDS,  # (and an environment table's row: "| GPU | H20 x8 |")
    # an environment table's line: "GPU: 4x H100", "GPUs: 8 x H20", "Hardware: 2x RTX PRO 6000 (sm_120)"
    r"(?:GPUs?|Hardware)[ \t]*[:=][ \t]*\d{1,3}[ \t]*[xX×*][ \t]*(?:NVIDIA[ \t]+)?" + _GPU_NAME_WORDS,
    r"Hardware[ \t]*[:=][ \t]*(?:NVIDIA[ \t]+)?" + _GPU_NAME_WORDS,
    _GPU_NAME_WORDS + r"[ \t0-9GBgb-]{0,12}GPU",
)


def gpu_facts(text: str):
    """("gpu", name, "") and ("capability", cc, note) for each GPU ``text`` names as the machine's."""
    if any(a in text for a in GPU_ANCHORS) and _GPU_CONTEXT.search(text):
        if "device_name=" in text:  # vLLM writes the name with underscores: NVIDIA_GeForce_RTX_5090
            text = _DEVICE_NAME.sub(lambda m: m.group(0).replace("_", " "), text)
        for m in _GPU_NAME.finditer(text):
            if advice(text, m.start()) or reference(text, m.start(), m.end()):
                continue
            name = " ".join(m.group("name").split())
            hit = capability_for(name)
            if hit is None:
                continue
            yield "gpu", name, ""
            yield "capability", hit[0], f"{name} is {hit[1]}"
