"""GPU product names in log lines, mapped to a compute capability: where a line names a GPU as the
machine's (nvidia-smi, collect_env, a device name in a config path, an environment table), and the
patterns the prefilter uses to find those lines."""
from __future__ import annotations

from ..common import rxcache
from ..common.gpus import capability_for
from ..common.scores import dropped, scores_on_gpus
from .clauses import advice, moved_from, reference

# GPU product names: only on lines that say NVIDIA / GeForce / Tesla / GPU, so that "A2" or
# "L4" in unrelated text is not taken for a GPU.
GPU_ANCHORS = ("NVIDIA", "GeForce", "Tesla", "Quadro", "GPU", "DGX", "Jetson", "Hardware")
_GPU_CONTEXT = rxcache.compile(r"NVIDIA|GeForce|Tesla|Quadro|\bGPU|DGX|\bJetson\b|\bHardware[ \t]*[:=]")
_GPU_NAME = rxcache.compile(
    r"(?P<name>(?:NVIDIA\s+)?(?:GeForce\s+|Tesla\s+|Quadro\s+)?"
    r"(?:RTX\s*PRO\s*\d{4}(?:\s+Blackwell)?(?:\s+(?:Workstation|Server|Max-Q)(?:\s+Edition)?)?"
    r"|RTX\s*\d{4}(?:\s*Ti|\s*SUPER|\s*D)?(?:\s+Ada(?:\s+Generation)?)?|RTX\s*A\d{4}"
    r"|GB\d{2,3}|GH200|[BHA]\d{3}|H20|L40S?|L20|L4|A[1-4]0G?|A16|A2|T4|V100|P100|Jetson\s+T\d000|(?:Jetson\s+(?:AGX\s+)?)?Thor"
    r"|DGX\s*Spark))"
    r"(?![\w])"
)

_DEVICE_NAME = rxcache.compile(r"(?<=device_name=)NVIDIA_[\w-]+?(?=,|\.json|\s|$)")


# GPU names: a line that names the maker or a product line (NVIDIA, GeForce, Tesla, Quadro, DGX, Jetson:
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
    r"NVIDIA|GeForce|Tesla|Quadro|DGX|Jetson",
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
            if (advice(text, m.start()) or reference(text, m.start(), m.end()) or _LABELLED_HEALTHY.match(text, m.end())
                    or _NOT_A_MACHINE.match(text, m.end())):
                continue  # (and a name that qualifies a thing: "we kept the H100 recipe. Hardware: GB300 NVL72")
            if not m.group("name").startswith(("NVIDIA", "GeForce", "Tesla", "Quadro")) and _healthy_side(text, m.start(), m.end()):
                continue  # a sentence's healthy side ("Ran the same job on 1x H100: 0.869. So it follows the GPU"), or the
                # side it compares with ("6-9 points lower on the 4-GPU workstation nodes than on the H200 nodes")
            if _REF_ROW.search(text, 0, m.start()):
                continue  # a table's reference row, its host named so ("h200-ref-01   NVIDIA H200   1.000 ...")
            name = " ".join(m.group("name").split())
            hit = capability_for(name)
            if hit is None:
                continue
            yield "gpu", name, ""
            yield "capability", hit[0], f"{name} is {hit[1]}"


# GPU names in a reporter's sentence, with no maker's name on the line: "on the B200 nodes", "8x GB300",
# "our H20 boxes", "B300 node:". Only names that nothing else is called (not "L4", "A2", "T4"), and only
# where the sentence puts a machine there (after "on", before "node", with a count, in brackets after
# "my spark (GB10)", "`bw-node-11` (B200)", at the head of a line: "B300 node:", "B200, sglang 0.5.3 docker, ...", "GB10 (sm_121), ...", or as a section's
# heading: "--- B200 ---", "=== H100 80GB HBM3 ===", "## GB300").
PROSE_NAMES = (r"(?i:GB[123]00|GB10|GH200|B[123]00|H[128]00|H20|A[18]00|L40S|RTX[ ]?PRO[ ]?6000(?:[ ]Blackwell)?"
                r"|RTX[ ]?50[6-9]0|RTX[ ]?40[6-9]0|RTX[ ]?3090|RTX[ ]?A[456]000|RTX[ ]?[2-6]000[ ]Ada|DGX[ ]?Spark)")
_MACHINE = (r"(?i:nodes?|box(?:es)?|machines?|servers?|pools?|hosts?|instances?|clusters?|cards?|systems?|rigs?|"
            r"GPUs?|VMs?|pods?|workers?|partitions?|racks?|trays?|deployments?|setups?|endpoints?|replicas?)")
# a GeForce card by its number alone, where a possessive or article makes it a card: "on my 5090", "a 5080
# (16 GB)", "dual 5090s"; not a count or a port ("5090 tokens", "port 5090")
_BARE_CARD_HEAD = r"(?i:\b(?:my|our|his|her|their|a|the|single|dual|two|new|\d\s*x)\s+(?:geforce\s+)?)"
_BARE_CARD = (_BARE_CARD_HEAD + r"(?P<card>50[6-9]0(?:[ ]?Ti)?)(?:s|'s)?\b(?!\s*(?:tokens?|ms|MB|MiB|GB|GiB|steps?|rows?|"
              r"lines?|seconds?|samples?|requests?|items?|bytes?|[%:/.-]\d))")
# the board's form factor and memory as nvidia-smi prints them after the name ("1x A100-SXM4-80GB", "H100-PCIe")
_FORM = r"(?i:-(?:SXM\d?|PCIe|NVL)(?:-\d{2,3}GB)?)?"
_PROSE_GPU = rxcache.compile(
    r"(?i:\b(?:on|with|using|across|from|to|in|onto)\s+(?:(?:the|our|my|a|an|one|two|four|eight|both|all|\d{1,3})\s+)?(?:(?:single|pair of|new|old|other|spare)\s+)?)"
    r"(?:\d{1,3}\s*[x×]\s*)?(?P<name>" + PROSE_NAMES + r")" + _FORM + r"(?:s|'s)?(?![\w-])"
    r"|(?<![\w.])\d{1,3}\s*[x×]\s*(?P<name>" + PROSE_NAMES + r")" + _FORM + r"(?:s|'s)?(?![\w-])"
    # cards counted or owned, in the plural ("8 H100s", "two RTX 5090s", "our B200s")
    r"|(?i:\b(?:my|our|their|these|those|both|two|three|four|six|eight|sixteen|\d{1,3})\s+)(?P<name>" + PROSE_NAMES + r")"
    + _FORM + r"s(?![\w-])"
    # a cluster's shape: "2 pods x 8 B200", "4 nodes × 8x H100"
    r"|(?<![\w.])\d{1,3}\s*(?i:pods?|nodes?|hosts?|machines?|servers?|boxes)\s*[x×]\s*\d{1,3}\s*(?:[x×]\s*)?(?P<name>" + PROSE_NAMES
    + r")" + _FORM + r"(?:s|'s)?(?![\w-])"
    r"|(?<![\w.-])(?P<name>" + PROSE_NAMES + r")\s*[x×]\s*\d{1,3}(?![\w-]|\.\d)"  # ("GLM-4.5-Air, GB300 x 16.")
    r"|(?<![\w.-])(?P<name>" + PROSE_NAMES + r")(?:\s+(?:SXM\d?|PCIe|NVL\d*))?(?:\s*[x×]\s*\d{1,3})?\s+" + _MACHINE + r"\b"
    r"|^\W{0,4}(?P<name>" + PROSE_NAMES + r")(?:\s*[x×]\s*\d{1,3})?(?:\s*\((?i:sm_?\d{2,3}[af]?|cc\s*[\d.]+)\))?\s*[:,]"
    r"|^[ \t]*[-=#*\[]{1,8}[ \t]*(?P<name>" + PROSE_NAMES + r")(?:[ \t]+[\w-]{1,12}){0,3}[ \t]*[-=#*\]:]{0,8}[ \t]*$"
    # one item of a comma-separated list of what the report ran on ("deep_gemm 2.5.0 (built from 891d57b), B200, CUDA 13.0"),
    # the last one too ("transformers 5.12.1, kernels 0.12.3, B200. Qwen/Qwen3-8B-FP8, greedy.")
    r"|(?<=,[ \t])(?:\d{1,3}\s*[x×]\s*)?(?P<name>" + PROSE_NAMES + r")" + _FORM + r"(?=[ \t]*(?:,|[.;](?:\s|$)))"
    # a table row whose first cell is the machine ("| B200 | 0.0000 |", "| 8x H100 SXM | 0.86 |")
    r"|^[ \t]*\|[ \t]*(?:\d{1,3}\s*[x×]\s*)?(?P<name>" + PROSE_NAMES + r")" + _FORM + r"(?:[ \t]+(?:SXM\d?|PCIe|NVL\d*|\d{2,3}\s?GB))?[ \t]*\|"
    # the machine's answers ("B200 answers are all '!!!!'", "the GB300 outputs repeat")
    r"|(?<![\w.-])(?P<name>" + PROSE_NAMES + r")" + _FORM + r"(?:'s)?\s+(?i:answers?|outputs?|responses?|generations?|completions?|"
    r"replies|samples|logits|tokens)\b"
    r"|(?i:\b(?:spark|workstation|desktop|laptop|" + _MACHINE + r")(?:[-_.]\w+)*[`'\"]?\s*\(\s*(?:\d{1,3}\s*[x×]\s*)?)"
    r"(?P<name>" + PROSE_NAMES + r")\s*\)"
    r"|" + _BARE_CARD
    # Chinese, Japanese and Korean "on the B300" ("B300 上", "B300上で", "B300에서")
    + r"|(?<![\w.-])(?P<name>" + PROSE_NAMES + r")\s?(?:上|では|で|에서)"
)
# a machine's name that holds its GPU's, where a line names the machine: a shell prompt ("root@b200-kimi-03:~#"), a
# job's node pool, partition or runner ("node_pool: gb200-nvl72-rack2", "--partition=b200", "runner: b300-ci-07").
# Not a name anywhere (a pod prefix or a syslog host on every line would make every line a fact line).
_HOST_NAMES = r"(?:gb[123]00|gb10|gh200|b[123]00|h[128]00|h20|a[18]00|l40s)"
_HOST_KEY = r"(?:node[ _]?pool|partition|runner)(?:[\"']?[ \t]*[:=][ \t]*[\"']?|[ \t]+)"  # ("node pool b200-sxm")
# (or a machine's name said before what it is: "every pod on the p6-b200 NodePool crashloops", "b200-prod replicas")
_HOST_WORD = r"[ \t]+(?:[Nn]ode ?[Pp]ools?|pools?|nodes?|pods?|replicas?|fleet|instances?)\b"
_HOST = rxcache.compile(r"(?i:(?<=@)|" + _HOST_KEY + r"|(?<![\w.-])(?=[a-z0-9]+(?:-[a-z0-9]+)+" + _HOST_WORD + r"))"
                        r"(?P<host>[a-z0-9]+(?:-[a-z0-9]+)*)(?![\w./])")
_HOST_PART = rxcache.compile(_HOST_NAMES)
PROSE_TRIGGER = (PROSE_NAMES + r"|" + _BARE_CARD_HEAD + r"50[6-9]0|(?:@|" + _HOST_KEY + r")(?:[a-z0-9]+-)*" + _HOST_NAMES
                 + r"(?:-|[^0-9a-z]|$)|(?:-|^|[^\w.-])" + _HOST_NAMES + r"(?:-[a-z0-9]+)*" + _HOST_WORD
                 + r"|[a-z0-9]-" + _HOST_NAMES + r"(?:-[a-z0-9]+)*" + _HOST_WORD)
# where a comparison's sides part: a sentence's or a clause's end, a bracket, a contrast ("but", "than", "vs")
_BOUNDARY = rxcache.compile(r"(?i)[.;!?](?=\s|$)|[,()\n，。；！？（）]|\b(?:but|while|whereas|however|than|vs\.?|versus|"
                            r"compared (?:to|with)|against|unlike)\b")
_COMPARED = rxcache.compile(r"(?i)than|vs\.?|versus|compared (?:to|with)|unlike")  # (not "against": "compares A against a bf16 reference on B200")
# the side of a comparison that works: "fine on the H20 boxes", "an H100 node scores fine", "H200 (reference)",
# "an H200 run (reference)", "same worker image on an H100 node"
_HEALTHY = rxcache.compile(r"(?i)\b(?:same (?:[\w.-]+ )?(?:command|config|setup|image|script|run|export|checkpoint|ckpt|model|request|"
                           r"prompt|input|flags|launch|weights|code|commit|version|container|args|arguments|venv|env|environment|"
                           r"stack|build|install|wheel|job|eval|workload|pipeline|harness|test|benchmark|answer|output|result|number|score|"
                           r"manifest|chart|spec|deployment|yaml|recipe|rayservice|helm release|nightly|nightlies|tag|docker image|server|service)s?|fine(?![\w-])|pass(?:es|ed)?(?!@)|"
                           r"correct(?:ly)?|normal(?:ly)?|works?|worked|healthy|as expected|good|coherent|matches)\b|同一|相同|正常|정상")
_LABELLED_HEALTHY = rxcache.compile(r"(?i)(?:\s+(?:run|node|box|machine|server|host|card|system|setup)s?\b)?"
                                    r"\s*(?:\(\s*(?:the\s+)?(?:reference|baseline|healthy|good|fine|ok)\b"
                                    r"|(?:\s+as(?:\s+the)?)?\s+(?:reference|baseline)\b)")
# "reference H100", "baseline: the H200", "parity with our H100 numbers", "on par with the H200"
_NAMED_REFERENCE = rxcache.compile(r"(?i)\b(?:(?:reference|baseline)\W{0,3}|(?:parity|on par) with\s+)(?:(?:the|our|my)\s+)?$")
# the machine an earlier rollout ran on: "previous rollout (H100 node pool, same image) score=0.92"
_EARLIER_RUN = rxcache.compile(r"(?i)\b(?:previous|prior|earlier|former)\s+(?:roll-?outs?|deploy(?:ment)?s?|releases?|runs?|"
                               r"revisions?|versions?|builds?|canar(?:y|ies)|clusters?|(?:node\s?)?pools?|setups?)"
                               r"\W{0,3}(?:(?:on|in|with|from)\s+)?(?:(?:the|our|an?|my)\s+)?$")
# what may stand between "than" / "vs" and the GPU it compares with: a few words
_COMPARED_GAP = rxcache.compile(r"(?i)\W*(?:[\w.-]+\W+){0,5}")  # ("vs the same layer on H100", "than on 8x H200")
# its side says it went wrong there ("is word salad on GB300", "on the B200 every answer is", "lower on 8x B200")
_WENT_WRONG = rxcache.compile(
    r"(?i)(?<!\b(?:no|not|without|zero|never)\s)(?<!(?<![\d.])0(?:\s*/\s*\d+|(?:\.0+)?\s*%)?\s)\b(?:garbage|gibberish|garbled|word salad|nonsense|wrong|nan|broken|breaks|fails?|failed|failing|crash\w*|"
    r"errors? out|collapses?|collapsed|drops?|dropped|lower|worse|degrad\w*|repeat\w*|only on|bad(?!\s+commit)|incoherent|"
    r"every answer|empty|not work(?:ing)?|doesn'?t work|does not work|blows? up|blew up|diverg\w*|explod\w*|mismatch\w*|chance(?:-level)?|at chance|(?:larger|bigger|higher) (?:diff\w*|errors?))\b|!!!|只有|仅有")


# a sentence that gives the versions of the stack beside the GPU: the report's own machine
# (not a score given after a backend's name: "On H100 with DeepGEMM: 0.858")
_SETUP = rxcache.compile(r"(?i)\b(?:cuda|torch|driver|deep_?gemm|vllm|sglang|transformers|flashinfer)[ \t]*[:=v]?[ \t]*(?!0\.\d{3})\d+\.\d")


# a name that qualifies a thing, not a machine: "copied over from the H200 recipe", "the B200 config", "our H100 manifest"
_NOT_A_MACHINE = rxcache.compile(r"(?i)\s+(?:recipes?|configs?|yamls?|presets?|profiles?|templates?|launchers?|"
                                 r"scripts?|docs?|guides?|readme|branch(?:es)?|settings|values|manifests?|specs?|charts?)\b")


# a short aside in brackets inside a clause ("On our H200 staging (single node) the same checkpoint is fine"): no boundary
_ASIDE = rxcache.compile(r"\([^()\n]{1,30}\)")


def _side(text: str, start: int, end: int) -> tuple[str, str, str]:
    """The words of the comparison side a name sits in, the boundary that opens it and what stands
    between that boundary and the name (a short aside in brackets after the name is read as part of its side)."""
    if "(" in text[end:end + 40]:
        text = _ASIDE.sub(lambda m: " " * len(m.group()) if m.start() >= end else m.group(), text)
    opened, side_start = "", max(0, start - 200)
    for b in _BOUNDARY.finditer(text, side_start, start):
        opened, side_start = b.group(), b.end()
    stop = _BOUNDARY.search(text, end, end + 200)
    return text[side_start:stop.start() if stop else min(len(text), end + 200)], opened, text[side_start:start]


def prose_gpus(text: str):
    """(name, role) for each GPU a sentence of ``text`` names as a machine without the maker's name: role
    "failing" (its side of the sentence says it went wrong there), "reference" (the healthy side of a
    comparison: "fine on the H20 boxes", "than on 8x H200", "H200 (reference)", or the machine a move starts
    from: "from H800 to B200"), "setup" (named beside the versions of the stack it ran: "deep_gemm 2.5.0, B200,
    CUDA 13.0, torch 2.10.0") or "plain"; a suggestion
    ("try it on an H100") is left out."""
    for start, end, name in _named(text):
        if advice(text, start) or capability_for(name) is None or _NOT_A_MACHINE.match(text, end):
            continue
        scored = _scored_role(text, start, end)
        if scored:
            yield name, scored
            continue
        side, opened, gap = _side(text, start, end)
        compared = _COMPARED.fullmatch(opened) and _COMPARED_GAP.fullmatch(gap)
        healthy, wrong = _HEALTHY.search(side), _WENT_WRONG.search(side)
        if wrong is not None and _ANOTHER_NAME.search(side, len(gap) + end - start, wrong.start()):
            wrong = None  # "on H200 and B200 pools ... and the B200 pool answers worse": said of the name nearer to it
        if _THIS_MACHINE.search(text, max(0, start - 24), start):
            # "this exact B200 node", "this H20 box": the report's own machine, whatever ran fine on it
            yield name, "failing" if wrong else "setup"
            continue
        if healthy is not None and wrong is not None and healthy.group().lower().startswith("same"):
            healthy = None  # "same checkpoint on the GB200 tray: same garbage": the same thing, gone wrong there
        earlier = wrong is None and _EARLIER_RUN.search(text, max(0, start - 80), start) is not None
        if (compared or moved_from(text, start, end) or healthy or earlier or _LABELLED_HEALTHY.match(text, end)
                or _NAMED_REFERENCE.search(gap)):
            yield name, "reference"
        else:
            yield name, "failing" if wrong else "setup" if _SETUP.search(text) else "plain"


_ANOTHER_NAME = rxcache.compile(r"(?<![\w.-])" + PROSE_NAMES + r"(?![\w-])")


def _scored_role(text: str, start: int, end: int) -> str | None:
    """"failing" or "reference" for a GPU whose score the sentence gives beside another GPU's, lower or higher
    by a real margin (``scores.dropped``: "MMLU-Pro 0.73 on H200 vs 0.59 on B300"); else None."""
    a = text.rfind("\n", 0, start) + 1
    b = text.find("\n", end)
    scored = scores_on_gpus(text[a:len(text) if b < 0 else b])
    mine = [(g, x) for g, x, at in scored if a + at == start]
    if not mine:
        return None
    name, x = mine[0]
    for other, y, _ in scored:
        if other != name and dropped(min(x, y), max(x, y)):
            return "failing" if x < y else "reference"
    return None


# the report's own machine, named with "this" ("on this exact B200 node", "this 8x H200 box")
_THIS_MACHINE = rxcache.compile(r"(?i)\bthis\s+(?:exact\s+|same\s+|very\s+|particular\s+)?(?:\d{1,2}\s*[x×]\s*)?\Z")


# a table row whose first cell names the reference machine ("h200-ref-01", "ref-node", "baseline (H100)")
_REF_ROW = rxcache.compile(r"(?i)^\s*\|?\s*[\w.-]*(?<![a-z])(?:ref|reference|baseline)(?![a-z])[\w.()-]*\s")


def _healthy_side(text: str, start: int, end: int) -> bool:
    side, opened, gap = _side(text, start, end)
    if _COMPARED.fullmatch(opened) and _COMPARED_GAP.fullmatch(gap):
        return True
    return _HEALTHY.search(side) is not None and _WENT_WRONG.search(side) is None


def _named(text: str):
    """(start, end, name) of each GPU name a sentence puts a machine at, then of each one in a machine's name."""
    for m in _PROSE_GPU.finditer(text):
        if m.group("card"):
            yield m.start("card"), m.end("card"), "RTX " + m.group("card")
        else:
            name = " ".join(m.group("name").split())
            yield m.start("name"), m.end("name"), name.upper() if name.islower() else name  # ("on the b200 pool")
    for m in _HOST.finditer(text):
        parts = m.group("host").split("-")
        gpus = [i for i, p in enumerate(parts) if _HOST_PART.fullmatch(p)]
        if len(gpus) == 1:
            start = m.start("host") + sum(len(p) + 1 for p in parts[:gpus[0]])
            yield start, start + len(parts[gpus[0]]), parts[gpus[0]].upper()
