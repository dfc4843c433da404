"""Logs in object storage and other fsspec file systems: ``s3://``, ``gs://``, ``file://``, ...

A URL names one object or a prefix; a prefix is listed recursively and every object that
looks like a log (the suffixes of ``common.source.LOG_SUFFIXES``, none, or ``.1``) becomes one
source, named by its full URL. Objects are streamed like local files (gzip detected by its
magic bytes) and can be read in byte ranges (``Ray`` tasks). fsspec and the file system's
own package (s3fs for S3, gcsfs for GCS) come with ``pip install 'fp8triage[fleet]'``.

Credentials and endpoints are the file system's own: for S3 the usual AWS variables,
profiles and instance roles, ``AWS_ENDPOINT_URL`` for another S3-compatible service;
fsspec's ``FSSPEC_S3_*`` variables set any other s3fs option.

Every failure to list or open is an ``IngestError`` with one sentence: an unreachable
endpoint, a missing bucket or prefix, access denied, an unknown scheme.
"""
from __future__ import annotations

import re
from datetime import datetime, timezone
from pathlib import PurePosixPath
from typing import Any, BinaryIO

from ..common.source import LOG_SUFFIXES, MAX_DIR_FILES, IngestError, Source

URL = re.compile(r"^(?P<scheme>[a-z][a-z0-9+.-]*)://")
BLOCK = 8 * 1024 * 1024  # read-ahead per request (the scan reads 2 MiB at a time from it)
# an unreachable endpoint should fail in seconds, not after minutes of retries
S3_CONNECT = {"config_kwargs": {"connect_timeout": 5, "read_timeout": 60, "retries": {"max_attempts": 2}}}
EXTRA = "pip install 'fp8triage[fleet]'"


def is_url(arg: str) -> bool:
    """Is this argument a URL (``s3://...``) rather than a local path or ``-``?"""
    return URL.match(arg) is not None


def _fs(url: str):
    """(file system, path inside it) for ``url``; IngestError when it cannot be used."""
    scheme = URL.match(url).group("scheme")  # type: ignore[union-attr]
    try:
        import fsspec
        from fsspec.core import url_to_fs
    except ImportError:
        raise IngestError(f"{url}: reading {scheme}:// URLs needs fsspec ({EXTRA})") from None
    if scheme not in fsspec.available_protocols():
        raise IngestError(f"{url}: unknown storage scheme {scheme}:// (fsspec knows {', '.join(_known())})")
    kw: dict[str, Any] = dict(S3_CONNECT) if scheme in ("s3", "s3a") else {}
    try:
        return url_to_fs(url, **kw)
    except ImportError as e:
        pkg = {"s3": "s3fs", "s3a": "s3fs", "gs": "gcsfs", "gcs": "gcsfs"}.get(scheme, getattr(e, "name", None) or "its package")
        raise IngestError(f"{url}: reading {scheme}:// URLs needs {pkg} ({EXTRA})") from None
    except ValueError as e:
        raise IngestError(f"{url}: not a usable {scheme}:// URL ({e})") from None


def _known() -> list[str]:
    return ["s3", "gs", "file", "az", "http(s)"]


def _reason(e: BaseException) -> str:
    """One phrase for what went wrong talking to the storage service."""
    name = type(e).__name__
    text = str(e).strip().splitlines()[0] if str(e).strip() else name
    if isinstance(e, PermissionError) or "AccessDenied" in text or "Forbidden" in text:
        return "access denied"
    if "NoSuchBucket" in text or "bucket does not exist" in text.lower():
        return "the bucket does not exist"
    if "Could not connect" in text or "connect" in name.lower() or "Connect" in text or "timed out" in text.lower():
        return f"the storage endpoint cannot be reached ({text[:160]})"
    if "NoCredentials" in name or "credentials" in text.lower():
        return "no credentials were found for it"
    return f"{text[:200]}"


def _mtime(info: dict) -> str | None:
    for key in ("LastModified", "mtime", "updated", "last_modified", "created"):
        v = info.get(key)
        if v is None:
            continue
        if isinstance(v, datetime):
            dt = v if v.tzinfo else v.replace(tzinfo=timezone.utc)
        elif isinstance(v, (int, float)):
            dt = datetime.fromtimestamp(float(v), timezone.utc)
        else:
            try:
                dt = datetime.fromisoformat(str(v).replace("Z", "+00:00"))
            except ValueError:
                continue
            if dt.tzinfo is None:
                dt = dt.replace(tzinfo=timezone.utc)
        return dt.astimezone(timezone.utc).isoformat(timespec="seconds")
    return None


def _looks_like_log(key: str) -> bool:
    name = PurePosixPath(key).name
    if not name or name.startswith("."):
        return False
    suffix = PurePosixPath(name).suffix.lower()
    return suffix in LOG_SUFFIXES or suffix == "" or suffix.lstrip(".").isdigit()


def expand_url(url: str) -> list[Source]:
    """The sources a URL names: the object itself, or every log object under a prefix (sorted
    by key). Raises IngestError with one sentence."""
    fs, path = _fs(url)
    scheme = URL.match(url).group("scheme")  # type: ignore[union-attr]
    try:
        info = fs.info(path)
    except FileNotFoundError:
        raise IngestError(f"{url}: {_missing(fs, path, scheme)}") from None
    except Exception as e:  # noqa: BLE001 - botocore, aiohttp and friends raise their own types
        raise IngestError(f"{url}: cannot be listed: {_reason(e)}") from None
    if info.get("type") != "directory":
        return [Source(url, None, info.get("size"), url=url, mtime=_mtime(info))]
    try:
        found = fs.find(path, detail=True, maxdepth=None)
    except Exception as e:  # noqa: BLE001
        raise IngestError(f"{url}: cannot be listed: {_reason(e)}") from None
    keys = sorted(k for k, v in found.items() if v.get("type", "file") == "file" and _looks_like_log(k))
    if not keys:
        raise IngestError(f"{url}: the prefix holds no log objects (looked for {', '.join(sorted(LOG_SUFFIXES))} "
                          "and objects without a suffix)")
    out = []
    for k in keys[:MAX_DIR_FILES]:
        name = fs.unstrip_protocol(k) if hasattr(fs, "unstrip_protocol") else f"{scheme}://{k}"
        out.append(Source(name, None, found[k].get("size"), url=name, mtime=_mtime(found[k])))
    return out


def _missing(fs, path: str, scheme: str) -> str:
    """Why nothing is at ``path``: no bucket, or nothing under the prefix."""
    bucket = path.split("/", 1)[0]
    if scheme in ("s3", "s3a", "gs", "gcs") and bucket and bucket != path.rstrip("/"):
        try:
            if not fs.exists(bucket):
                return f"the bucket {bucket} does not exist"
        except Exception:  # noqa: BLE001 - cannot tell: say what is certain
            pass
    return "no such object or prefix"


def open_url(src: Source) -> BinaryIO:
    """A seekable binary stream of the object ``src.url``. Raises IngestError."""
    fs, path = _fs(src.url)  # type: ignore[arg-type]
    try:
        return fs.open(path, "rb", block_size=BLOCK)
    except FileNotFoundError:
        raise IngestError(f"{src.name}: the object is gone (deleted after it was listed)") from None
    except Exception as e:  # noqa: BLE001
        raise IngestError(f"{src.name}: cannot be opened: {_reason(e)}") from None
