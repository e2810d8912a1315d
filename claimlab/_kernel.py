"""The kernel manager the runner uses: local IPC sockets instead of TCP ports.

A headless run needs no network port; on IPC the kernel also has no reason to warn about
unencrypted TCP, so ``claimlab run`` prints exactly one line per notebook.
"""

from jupyter_client.manager import AsyncKernelManager


class IPCKernelManager(AsyncKernelManager):
    """AsyncKernelManager on the ``ipc`` transport."""

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.transport = "ipc"
