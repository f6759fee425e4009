"""Stubs of ``_store.pyx``: the kernel's per-process store."""

from typing import TypedDict

class SharedState(TypedDict):
    """The shared store: its generation (one per rank-level deal met), the plans and entries it holds."""

    generation: int
    plans: int
    entries: int

def clear_shared() -> None: ...
def shared_state() -> SharedState: ...
