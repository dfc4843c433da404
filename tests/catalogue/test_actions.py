"""Typed remedy actions: each kind's snippet, one-line form, shell line and language in one place."""
from __future__ import annotations

import pytest

from fp8triage.catalogue import actions


@pytest.mark.parametrize("data, snippet, short, shell, lang", [
    ({"kind": "env", "name": "VLLM_USE_DEEP_GEMM", "value": "0"},
     "export VLLM_USE_DEEP_GEMM=0", "VLLM_USE_DEEP_GEMM=0", "export VLLM_USE_DEEP_GEMM=0", "sh"),
    ({"kind": "env", "name": "X", "value": "a b"}, "export X=a b", "X=a b", "export X='a b'", "sh"),
    ({"kind": "install", "spec": "vllm>=0.11"}, "pip install 'vllm>=0.11'", "pip install vllm>=0.11",
     "pip install 'vllm>=0.11'", "sh"),
    ({"kind": "config", "key": "quantization", "value": "fp8", "file": "config.json"},
     "set quantization = fp8 in config.json", "quantization = fp8", None, ""),
    ({"kind": "code", "code": "x = 1", "language": "Python"}, "x = 1", "x = 1", None, "python"),
    ({"kind": "command", "command": "nvidia-smi"}, "nvidia-smi", "nvidia-smi", None, "sh"),
    ({"kind": "note", "text": "Use another GPU."}, "Use another GPU.", "Use another GPU.", None, ""),
    ({"kind": "checkpoint", "text": "Requantize."}, "Requantize.", "Requantize.", None, ""),
])
def test_each_kind(data, snippet, short, shell, lang):
    a = actions.parse(data)
    assert (a.snippet(), a.short(), a.shell(), a.language()) == (snippet, short, shell, lang)


def test_a_language_cannot_inject_markup_and_unknown_keys_are_left_out():
    a = actions.parse({"kind": "code", "code": "x", "language": '"><script>', "extra": 1})
    assert a.language() == "script"


def test_every_bundled_remedy_parses(catalogue):
    kinds = set()
    for sig in catalogue.signatures:
        for r in sig.remedies:
            assert r.action == actions.parse(r.table)  # typed once, at load
            assert r.action.snippet(), f"{sig.id}/{r.id}: empty snippet"
            kinds.add(r.table["kind"])
    assert {"env", "install"} <= kinds
