"""Run a test inside a private network namespace, so multicast never leaves the test.

docs/ARCHITECTURE.md "Discovery": tests that use zeroconf must not send a packet on the
machine's real interfaces. :func:`in_netns` wraps an ``async`` test: run by
pytest normally, the wrapper re-runs that one test in a child pytest under
``unshare -n`` (``-rn`` when not root: a user namespace gives the rights),
after ``ip link set lo up && ip link set lo multicast on``; the child sees
:data:`ENV` set and runs the real body there, where the only interface is
``lo`` and zeroconf binds to 127.0.0.1. The outer test passes when the
inner one did, and shows its output when not. Every selected namespaced test
of a session runs in one child (one start-up, one namespace; each body still
cleans up after itself), started in the background as soon as the session is
collected (:func:`start_batch`, from ``tests/conftest.py``): the child spends
most of its two minutes waiting on subprocesses, timeouts and zeroconf, so it
runs while the rest of the suite does. The namespaced tests themselves are moved
to the end of the session (:func:`run_last`); each waits for the child and
reports its own outcome from it. Without ``unshare`` (or
without permission to use it) the test is skipped, saying why.

Helpers for the bodies: :func:`poissonnier` starts the real command line in
a subprocess (inside the same namespace), :func:`wait_for` polls.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import inspect
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

import pytest

ENV = "POISSONNIER_TEST_NETNS"
"""Set to ``1`` in the child pytest that runs inside the namespace."""

ROOT = Path(__file__).resolve().parents[2]
LOOPBACK = "127.0.0.1"
INNER_TIMEOUT = 120.0
"""Seconds one namespaced test may take before it is killed."""

F = TypeVar("F", bound=Callable[..., Awaitable[None]])


def _unshare() -> list[str]:
    return ["unshare", "-n"] if os.geteuid() == 0 else ["unshare", "-rn"]


@functools.cache
def unavailable() -> str | None:
    """Why a private network namespace cannot be made here, or ``None`` if it can."""
    if not sys.platform.startswith("linux"):
        return "network namespaces need Linux"
    for tool in ("unshare", "ip"):
        if shutil.which(tool) is None:
            return f"'{tool}' is not installed"
    probe = subprocess.run(
        [*_unshare(), "sh", "-c", "ip link set lo up && ip link set lo multicast on"],
        capture_output=True,
        text=True,
        timeout=10,
    )
    if probe.returncode != 0:
        return f"cannot make a network namespace: {probe.stderr.strip() or probe.returncode}"
    return None


def has_ipv6_loopback() -> bool:
    """Whether ``::1`` can be bound here (IPv6 may be disabled in the kernel)."""
    try:
        with socket.socket(socket.AF_INET6, socket.SOCK_STREAM) as probe:
            probe.bind(("::1", 0))
    except OSError:
        return False
    return True


def inside() -> bool:
    """True in the child run inside the namespace."""
    return os.environ.get(ENV) == "1"


def _assert_private() -> None:
    """Refuse to run multicast anywhere but a namespace holding only ``lo``."""
    names = sorted(name for _index, name in socket.if_nameindex())
    assert names == ["lo"], f"not in a private network namespace (interfaces: {names})"


_BATCH: dict[str, str] = {}
"""Outcome (``PASSED``, ``FAILED``...) of each namespaced test, by node id, once run."""
_BATCH_OUTPUT: list[str] = []


def _node(test: Callable[..., Any]) -> str:
    return f"{Path(test.__code__.co_filename).relative_to(ROOT)}::{test.__name__}"


def _is_namespaced(item: pytest.Item) -> bool:
    return isinstance(item, pytest.Function) and getattr(
        inspect.unwrap(item.function), "in_netns", False
    )


def run_last(items: list[pytest.Item]) -> None:
    """Move the namespaced tests to the end, in their order: by the time they are reached,
    the child :func:`start_batch` began has run them alongside the others."""
    items.sort(key=_is_namespaced)  # stable: False (the others) first


class _Child:
    """The child pytest running a batch in its namespace, started in the background."""

    def __init__(self, nodes: list[str]) -> None:
        script = (
            'ip link set lo up && ip link set lo multicast on && exec "$0" -m pytest '
            '-q -s -rA -p no:cacheprovider "$@"'
        )
        env = {**os.environ, ENV: "1", "PYTHONUNBUFFERED": "1"}
        self.nodes = nodes
        self.output = tempfile.TemporaryFile()  # noqa: SIM115  # read and closed in finish()
        self.limit = INNER_TIMEOUT * len(nodes)
        self.started = time.monotonic()
        self.proc = subprocess.Popen(
            [*_unshare(), "sh", "-c", script, sys.executable, *nodes],
            cwd=ROOT, env=env, stdout=self.output, stderr=subprocess.STDOUT,
            start_new_session=True,  # its own group: stopped with what it started
        )  # fmt: skip

    def stop(self) -> None:
        """SIGKILL the child and whatever it started; reap it."""
        if self.proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()

    async def finish(self) -> None:
        """Wait for the child (killing it past its time limit); note each test's outcome."""
        while self.proc.poll() is None and time.monotonic() - self.started < self.limit:
            await asyncio.sleep(0.1)
        killed = self.proc.poll() is None
        self.stop()
        self.output.seek(0)
        text = self.output.read().decode(errors="replace")
        self.output.close()
        if killed:
            text += f"\n(killed after {self.limit:g} s)"
        _BATCH_OUTPUT.append(text)
        for node in self.nodes:
            outcome = re.search(
                rf"^(PASSED|FAILED|ERROR|SKIPPED)\S* {re.escape(node)}\b", text, re.M
            )
            _BATCH[node] = outcome.group(1) if outcome else "MISSING"


_CHILD: list[_Child] = []
"""The batch started in the background, while it has not been waited for."""


def start_batch(items: list[pytest.Item]) -> None:
    """Start running every namespaced test among ``items`` in one child pytest inside one
    fresh namespace, in the background.

    One child for all of them: a pytest start-up costs about two seconds, which would
    otherwise be paid per test. Nothing is started inside the namespace itself, nor
    when a namespace cannot be made (the tests then skip, saying why).
    """
    nodes = [item.nodeid for item in items if _is_namespaced(item)]
    if not nodes or inside() or unavailable() is not None:
        return
    _CHILD.append(_Child(nodes))


def stop_batch() -> None:
    """Stop a background batch no test waited for (the session ended early)."""
    while _CHILD:
        child = _CHILD.pop()
        child.stop()
        child.output.close()


async def _run_batch(nodes: list[str]) -> None:
    """Run ``nodes`` in one child now (a namespaced test the background batch left out)."""
    await _Child(nodes).finish()


def in_netns(test: F) -> F:
    """Decorator: run this ``async`` test's body in a private network namespace (see module)."""
    node = _node(test)

    @functools.wraps(test)
    async def wrapper(*args: Any, request: pytest.FixtureRequest, **kwargs: Any) -> None:
        if inside():
            _assert_private()
            if "request" in wanted:
                kwargs["request"] = request
            try:
                await test(*args, **kwargs)
            finally:
                await _kill_leftovers()  # a failed test must not leave a table for the next
            return
        if (reason := unavailable()) is not None:
            pytest.skip(f"multicast tests run only in a private network namespace: {reason}")
        ran_here = node not in _BATCH
        if ran_here:
            if _CHILD and node in _CHILD[-1].nodes:
                await _CHILD.pop().finish()
            else:
                await _run_batch([node])
        text = _BATCH_OUTPUT[-1] if _BATCH_OUTPUT else ""
        measures = "\n".join(line for line in text.splitlines() if line.startswith("MEASURE"))
        if ran_here:
            sys.stdout.write(measures + "\n")  # shown with -s
        outcome = _BATCH[node]
        assert outcome == "PASSED", f"{node}: {outcome} in its namespace:\n{text[-12000:]}"

    # pytest reads the signature: the test's own fixtures, plus ``request`` for the wrapper.
    signature = inspect.signature(test)
    wanted = set(signature.parameters)
    params = [p for p in signature.parameters.values() if p.name != "request"]
    params.append(inspect.Parameter("request", inspect.Parameter.KEYWORD_ONLY))
    wrapper.__signature__ = signature.replace(parameters=params)  # type: ignore[attr-defined]
    test.in_netns = True  # type: ignore[attr-defined]  # found by the batch, under any wrapper
    return wrapper  # type: ignore[return-value]


_STARTED: list[Proc] = []
"""Every process :func:`poissonnier` started in this (namespaced) test run."""


async def _kill_leftovers() -> None:
    """SIGKILL the processes a test left running, and reap them."""
    while _STARTED:
        left = _STARTED.pop()
        if left.proc.returncode is None:
            left.proc.kill()
            await left.proc.wait()


class Proc:
    """A ``poissonnier`` subprocess whose output lines are collected as they come."""

    def __init__(self, proc: asyncio.subprocess.Process, label: str) -> None:
        self.proc = proc
        self.label = label
        _STARTED.append(self)
        self.lines: list[str] = []
        self.started = time.monotonic()
        self._reader = asyncio.ensure_future(self._read())

    async def _read(self) -> None:
        assert self.proc.stdout is not None
        async for raw in self.proc.stdout:
            self.lines.append(raw.decode(errors="replace").rstrip("\n"))

    @property
    def text(self) -> str:
        """Everything printed so far (stdout and stderr together)."""
        return "\n".join(self.lines)

    def line(self, prefix: str) -> str | None:
        """The first line that contains ``prefix``, if any."""
        return next((line for line in self.lines if prefix in line), None)

    async def wait(self, timeout: float = 60.0) -> int:
        """Wait for the exit; return the exit code (killing it after ``timeout``)."""
        try:
            code = await asyncio.wait_for(self.proc.wait(), timeout)
        except TimeoutError:
            self.proc.kill()
            await self.proc.wait()
            raise AssertionError(f"{self.label} did not finish:\n{self.text}") from None
        await self._reader
        return code

    def kill(self) -> None:
        """SIGKILL, as a crash would."""
        self.proc.kill()


async def poissonnier(
    *args: str, label: str = "", state: Path | None = None, env: dict[str, str] | None = None
) -> Proc:
    """Start ``python -m poissonnier_tui.cli ARGS`` with stdout+stderr captured.

    Args:
        args: the command line after ``poissonnier``.
        label: a name for error messages.
        state: the user's state directory (``XDG_STATE_HOME``): where seat tokens go.
        env: more environment variables.
    """
    full = {**os.environ, "PYTHONUNBUFFERED": "1", **(env or {})}
    full.pop(ENV, None)
    if state is not None:
        full["XDG_STATE_HOME"] = str(state)
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "poissonnier_tui.cli", *args,
        cwd=ROOT, env=full,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT,
    )  # fmt: skip
    return Proc(proc, label or " ".join(args[:2]))


async def wait_for(predicate: Callable[[], bool], timeout: float = 10.0, what: str = "") -> float:
    """Poll ``predicate`` every 10 ms; return the seconds it took; fail after ``timeout``."""
    start = time.monotonic()
    while not predicate():
        if time.monotonic() - start > timeout:
            raise AssertionError(f"timed out after {timeout:g} s waiting for {what or predicate}")
        await asyncio.sleep(0.01)
    return time.monotonic() - start
