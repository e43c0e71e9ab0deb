"""Arrays in and out of an in-process guest's memory (the wasm module, an emulated CPU).

Contract: a subclass provides ``call(name, fuel, *args)``, ``alloc(size)``, ``write(pointer,
data)``, ``read(pointer, size)``, the address ``result`` of the guest's result buffer and
``endian`` (``"<"`` or ``">"``, the guest's byte order); this class packs and unpacks doubles
and 32-bit integers in that order, and keeps one reusable scratch buffer for arguments.
"""

from __future__ import annotations

import struct

class GuestMemory:
    """Typed access to a guest's memory in the guest's byte order."""

    endian: str = "<"
    bookkeeping_fuel: int = 1_000_000
    """Budget of a bookkeeping call (freeing the scratch buffer), in the wasm column's fuel units."""
    result: int = 0
    _scratch: int = 0
    _scratch_size: int = 0

    def call(self, name: str, fuel: int, *args, what: str = ""):
        raise NotImplementedError

    def alloc(self, size: int) -> int:
        raise NotImplementedError

    def write(self, pointer: int, data: bytes) -> None:
        raise NotImplementedError

    def read(self, pointer: int, size: int) -> bytes:
        raise NotImplementedError

    def scratch(self, values, extra: int = 0) -> int:
        """The doubles written into the reusable scratch buffer (grown as needed), with ``extra``
        bytes free after them; returns the buffer's address."""
        values = list(values)
        size = 8 * len(values) + extra
        if size > self._scratch_size:
            if self._scratch:
                self.call("orca_free", self.bookkeeping_fuel, self._scratch)
                self._scratch = 0
            self._scratch_size = max(size, 2 * self._scratch_size, 4096)
            self._scratch = self.alloc(self._scratch_size)
        if values:
            self.write(self._scratch, struct.pack(f"{self.endian}{len(values)}d", *values))
        return self._scratch

    def put_doubles(self, values) -> int:
        """Allocate and fill an array of doubles; returns its address."""
        values = list(values)
        pointer = self.alloc(8 * len(values))
        if values:
            self.write(pointer, struct.pack(f"{self.endian}{len(values)}d", *values))
        return pointer

    def put_ints(self, pointer: int, values) -> None:
        """Write 32-bit integers at ``pointer``."""
        values = list(values)
        if values:
            self.write(pointer, struct.pack(f"{self.endian}{len(values)}i", *values))

    def doubles(self, pointer: int, count: int) -> tuple[float, ...]:
        return struct.unpack(f"{self.endian}{count}d", self.read(pointer, 8 * count)) if count > 0 else ()

    def results(self, count: int) -> tuple[float, ...]:
        """The first ``count`` doubles of the guest's result buffer."""
        return self.doubles(self.result, count)

    def ints(self, pointer: int, count: int) -> list[int]:
        return list(struct.unpack(f"{self.endian}{count}i", self.read(pointer, 4 * count))) if count > 0 else []
