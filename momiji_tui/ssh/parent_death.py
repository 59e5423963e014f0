"""Child processes die with the server, whatever killed it (``kill -9``).

Two means, one per kind of child:

- :func:`signal_on_parent_death`: Linux's parent-death signal
  (``prctl(PR_SET_PDEATHSIG)``, through ctypes). The kernel sends it when the
  *thread* that forked the child ends, so it suits children forked by the
  main thread (``momiji serve --workers``), not a process pool started from
  whichever thread asked first.
- :func:`watch_parent`: a daemon thread in the child that ends it when its
  parent is gone (the child is re-parented: ``os.getppid()`` changes). Any
  POSIX system; the bot pool's workers run it from their initializer. When
  they end, ``multiprocessing``'s resource tracker, which they share with the
  server, reads the end of its pipe and ends too.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import signal
import sys
import threading
import time

PR_SET_PDEATHSIG = 1
"""``prctl`` option: the signal to receive when the parent dies (linux/prctl.h)."""
WATCH_EVERY = 0.5
"""Seconds between two looks at the parent in :func:`watch_parent`."""


def signal_on_parent_death(parent: int, sig: int = signal.SIGTERM) -> bool:
    """In a child just forked from ``parent``'s main thread: ask Linux for
    ``sig`` when the parent dies. Returns False where there is no ``prctl``
    (not Linux) or it failed. If the parent already died before the call,
    ``sig`` is sent to this process at once."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        if libc.prctl(PR_SET_PDEATHSIG, int(sig), 0, 0, 0) != 0:
            return False
    except (OSError, AttributeError):
        return False
    if os.getppid() != parent:  # it died between the fork and the prctl
        os.kill(os.getpid(), sig)
    return True


def watch_parent(parent: int, every: float = WATCH_EVERY) -> threading.Thread:
    """Start a daemon thread that ends this process (``os._exit(1)``) once
    its parent ``parent`` is gone; returns the thread."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(every)
        os._exit(1)

    thread = threading.Thread(target=watch, name="momiji-parent-watch", daemon=True)
    thread.start()
    return thread
