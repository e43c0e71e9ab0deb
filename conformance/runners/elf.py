"""A minimal reader of static ELF executables: the segments to load and the symbol table.

Contract: ``read_elf(data)`` parses an ELF32 or ELF64 file of either byte order and returns an
``ElfImage``: its machine, class, byte order, every ``PT_LOAD`` segment (virtual address, the
file bytes, the size in memory, whether writable or executable) and the defined symbols of
``.symtab`` by name.  Anything malformed (bad magic, a segment or table outside the file) is an
``ElfError`` with the reason.  It reads only what a freestanding build needs: no relocations,
no dynamic section, no interpreter.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field

PT_LOAD = 1
SHT_SYMTAB = 2
PF_X, PF_W = 1, 2

MACHINES = {3: "x86", 8: "mips", 20: "ppc", 21: "ppc64", 22: "s390", 40: "arm", 62: "x86_64", 183: "aarch64",
            243: "riscv"}


class ElfError(ValueError):
    """Not a usable ELF file; the message says why."""


@dataclass(frozen=True)
class Segment:
    """One PT_LOAD segment: ``data`` is the file part, the rest up to ``memsz`` is zero."""

    vaddr: int
    data: bytes
    memsz: int
    writable: bool
    executable: bool


@dataclass(frozen=True)
class ElfImage:
    machine: str
    bits: int
    endian: str
    """``<`` (little) or ``>`` (big): the struct prefix of the target's byte order."""
    entry: int
    segments: tuple[Segment, ...]
    symbols: dict[str, int] = field(default_factory=dict)
    """Defined symbols (functions, objects, absolute values) by name: their values."""
    symbol_sizes: dict[str, int] = field(default_factory=dict)

    def symbol(self, name: str) -> int:
        if name not in self.symbols:
            raise ElfError(f"the ELF file defines no symbol {name!r}")
        return self.symbols[name]

    def function_at(self, address: int) -> str:
        """``name+0x12`` of the function (or object) holding an address, else ``?``."""
        best = None
        for name, value in self.symbols.items():
            size = self.symbol_sizes.get(name, 0)
            if value <= address < value + max(size, 1) and (best is None or value > self.symbols[best]):
                best = name
        return f"{best}+{address - self.symbols[best]:#x}" if best else "?"


def read_elf(data: bytes) -> ElfImage:
    """Parse ``data`` (a whole ELF file); ElfError when it is not one this reader handles."""
    if len(data) < 52 or data[:4] != b"\x7fELF":
        raise ElfError("not an ELF file (bad magic)")
    bits = {1: 32, 2: 64}.get(data[4])
    endian = {1: "<", 2: ">"}.get(data[5])
    if bits is None or endian is None:
        raise ElfError(f"unknown ELF class {data[4]} or byte order {data[5]}")
    word = "I" if bits == 32 else "Q"
    header = struct.Struct(f"{endian}HHI{word}{word}{word}IHHHHHH")
    (_type, machine, _version, entry, phoff, shoff, _flags, _ehsize, phentsize, phnum, shentsize, shnum,
     _shstrndx) = _unpack(header, data, 16, "header")
    if bits == 32:
        phdr = struct.Struct(f"{endian}8I")  # type offset vaddr paddr filesz memsz flags align
    else:
        phdr = struct.Struct(f"{endian}IIQQQQQQ")  # type flags offset vaddr paddr filesz memsz align
    segments = []
    for k in range(phnum):
        fields = _unpack(phdr, data, phoff + k * phentsize, f"program header {k}")
        if bits == 32:
            p_type, offset, vaddr, _paddr, filesz, memsz, flags, _align = fields
        else:
            p_type, flags, offset, vaddr, _paddr, filesz, memsz, _align = fields
        if p_type != PT_LOAD:
            continue
        if offset + filesz > len(data) or filesz > memsz:
            raise ElfError(f"segment {k} lies outside the file")
        segments.append(Segment(vaddr, data[offset:offset + filesz], memsz, bool(flags & PF_W), bool(flags & PF_X)))
    symbols, sizes = _symbols(data, bits, endian, shoff, shentsize, shnum)
    return ElfImage(MACHINES.get(machine, str(machine)), bits, endian, entry, tuple(segments), symbols, sizes)


def _unpack(layout: struct.Struct, data: bytes, offset: int, what: str) -> tuple:
    if offset < 0 or offset + layout.size > len(data):
        raise ElfError(f"{what} lies outside the file")
    return layout.unpack_from(data, offset)


def _symbols(data: bytes, bits: int, endian: str, shoff: int, shentsize: int,
             shnum: int) -> tuple[dict[str, int], dict[str, int]]:
    word = "I" if bits == 32 else "Q"
    section = struct.Struct(f"{endian}II{word}{word}{word}{word}II{word}{word}")
    sections = [_unpack(section, data, shoff + k * shentsize, f"section header {k}") for k in range(shnum)]
    symbols: dict[str, int] = {}
    sizes: dict[str, int] = {}
    for _name, sh_type, _flags, _addr, offset, size, link, _info, _align, entsize in sections:
        if sh_type != SHT_SYMTAB or link >= len(sections):
            continue
        strings_at, strings_size = sections[link][4], sections[link][5]
        if bits == 32:
            entry = struct.Struct(f"{endian}IIIBBH")  # name value size info other shndx
        else:
            entry = struct.Struct(f"{endian}IBBHQQ")  # name info other shndx value size
        for k in range(size // max(entsize, 1)):
            fields = _unpack(entry, data, offset + k * entsize, f"symbol {k}")
            if bits == 32:
                name_at, value, sym_size, _info, _other, shndx = fields
            else:
                name_at, _info, _other, shndx, value, sym_size = fields
            if shndx == 0 or name_at == 0 or name_at >= strings_size:
                continue  # undefined or nameless
            end = data.index(b"\0", strings_at + name_at)
            name = data[strings_at + name_at:end].decode("utf-8", "replace")
            if name not in symbols or _info >> 4 != 0:  # a global wins over a local of the same name
                symbols[name] = value
                sizes[name] = sym_size
    return symbols, sizes
