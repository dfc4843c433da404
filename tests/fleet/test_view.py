"""Source labels of the fleet view (issue 17)."""
from __future__ import annotations

from fp8triage.judge.fleet import labels


def test_pod_folder_below_the_common_prefix():
    names = ["s3://logs/prod/vllm-0/server.log", "s3://logs/prod/vllm-0/server.log.1",
             "s3://logs/prod/vllm-1/2025/11/24/server.log.gz"]
    assert labels(names) == {names[0]: "vllm-0", names[1]: "vllm-0", names[2]: "vllm-1"}


def test_files_side_by_side_are_named_without_log_suffixes():
    names = ["/var/log/fleet/vllm-7.log.gz", "/var/log/fleet/vllm-8.log", "/var/log/fleet/sglang-1.jsonl"]
    assert list(labels(names).values()) == ["vllm-7", "vllm-8", "sglang-1"]


def test_one_source_and_mixed_depths():
    assert labels(["server.log"]) == {"server.log": "server"}
    names = ["gs://b/p/a.log", "gs://b/p/pod-2/x.log"]
    assert labels(names) == {names[0]: "a", names[1]: "pod-2"}
