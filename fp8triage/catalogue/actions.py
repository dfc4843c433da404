"""Remedies, typed: a signature's ``[[remedies]]`` table (``RemedySpec``) and its action, one
class per ``action.kind``.

Each kind knows its three texts, so no other module spells an action out: ``snippet`` (ready to
paste, in reports), ``short`` (one line, in the signature docs and search) and ``shell`` (a line a
shell can run, for ``fp8triage remedy --format sh``; None when the action is no shell command)."""
from __future__ import annotations

import dataclasses
import shlex
from dataclasses import dataclass
from typing import Any, ClassVar, Mapping

from .conditions import Condition


@dataclass(frozen=True)
class Action:
    kind: ClassVar[str] = ""

    def snippet(self) -> str:
        raise NotImplementedError

    def short(self) -> str:
        return self.snippet()

    def shell(self) -> str | None:
        return None

    def language(self) -> str:
        """The language of the snippet, for highlighting ("sh" for what a shell runs)."""
        return ""


@dataclass(frozen=True)
class Env(Action):
    kind: ClassVar[str] = "env"
    name: str
    value: str

    def snippet(self) -> str:
        return f"export {self.name}={self.value}"

    def short(self) -> str:
        return f"{self.name}={self.value}"

    def shell(self) -> str:
        return f"export {self.name}={shlex.quote(str(self.value))}"

    def language(self) -> str:
        return "sh"


@dataclass(frozen=True)
class Install(Action):
    kind: ClassVar[str] = "install"
    spec: str

    def snippet(self) -> str:
        return f"pip install '{self.spec}'"

    def short(self) -> str:
        return f"pip install {self.spec}"

    def shell(self) -> str:
        return f"pip install {shlex.quote(str(self.spec))}"

    def language(self) -> str:
        return "sh"


@dataclass(frozen=True)
class Config(Action):
    kind: ClassVar[str] = "config"
    key: str
    value: Any
    file: str | None = None

    def snippet(self) -> str:
        where = f" in {self.file}" if self.file else ""
        return f"set {self.key} = {self.value}{where}"

    def short(self) -> str:
        return f"{self.key} = {self.value}"


@dataclass(frozen=True)
class Code(Action):
    kind: ClassVar[str] = "code"
    code: str
    lang: str = ""  # the signature's `language` ("python", "yaml"): how a report highlights it

    def snippet(self) -> str:
        return self.code

    def language(self) -> str:
        return "".join(c for c in self.lang.lower() if c.isalnum() or c in "+-")[:20]


@dataclass(frozen=True)
class Command(Action):
    kind: ClassVar[str] = "command"
    command: str

    def snippet(self) -> str:
        return self.command

    def language(self) -> str:
        return "sh"


@dataclass(frozen=True)
class Text(Action):
    """``note`` and ``checkpoint`` actions: advice in words."""

    kind: ClassVar[str] = "note"
    text: str = ""

    def snippet(self) -> str:
        return self.text


KINDS: dict[str, type[Action]] = {c.kind: c for c in (Env, Install, Config, Code, Command)}


def parse(data: Mapping[str, Any]) -> Action:
    """The typed action of a remedy's ``action`` table (validated by the signature schema; a
    finding read back from JSON may carry keys of a newer version, which are left out)."""
    cls = KINDS.get(data.get("kind", ""))
    if cls is None:
        return Text(str(data.get("text", "")))
    known = {f.name for f in dataclasses.fields(cls)}
    values = {("lang" if k == "language" else k): v for k, v in data.items()}
    return cls(**{k: str(v) if k != "value" else v for k, v in values.items() if k in known})


@dataclass(frozen=True)
class RemedySpec:
    """One ``[[remedies]]`` table of a signature, parsed at load: the action typed, the ``when``
    conditions parsed (``catalogue/conditions.py``); ``table`` is the action as written (JSON
    output carries it); ``covers``: the FP8 code paths the remedy takes off the failing kernel
    (``linear``, ``experts``; empty: every path)."""

    id: str
    title: str
    action: Action
    table: Mapping[str, Any]
    when: tuple[Condition, ...] = ()
    why: str = ""
    repro: tuple[str, ...] = ()
    rank: int = 50
    covers: tuple[str, ...] = ()
