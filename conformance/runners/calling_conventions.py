"""Calling conventions of the architectures the Unicorn columns emulate.

Contract: ``ABIS[name](uc, consts)`` places a call's arguments where that convention puts them
(``setup(address, types, args, endian)``: registers, stack, return address ``STOP_ADDRESS``,
stack below ``STACK_TOP``), reads its result (``result(kind)``) and the program counter
(``pc()``).  Type codes as in unicorn_runner.SIGNATURES: ``i`` int32, ``l`` 64-bit integer,
``p`` pointer, ``d`` binary64.  Doubles cross as their bit patterns.  tests/test_unicorn.py
compares every convention's calls with the wasm module's.
"""

from __future__ import annotations

import struct

from ..contract.float_bits import bits as _bits
from ..contract.float_bits import from_bits as _float

STACK_TOP = 0x0F00_0000
STACK_BYTES = 1 << 20
STOP_ADDRESS = 0x0E00_0000
"""The return address of every call: emulation stops when the code returns there."""


def _word(kind: str, value, width: int) -> int:
    """An integer argument as the register value: int32 sign-extended (as 64-bit ABIs require)."""
    mask = (1 << width) - 1
    if kind == "i":
        value = int(value) & 0xFFFF_FFFF
        value = value - (1 << 32) if value >= 1 << 31 else value
    return int(value) & mask


class Abi:
    """Where a call's arguments go, where its result comes back, and the return-address register."""

    pointer_bytes = 8
    INT_RESULT = ""
    FLOAT_RESULT = ""
    PC = ""
    """The registers of an integer result, of a double result and the program counter."""

    def __init__(self, uc, consts):
        self.uc = uc
        self.c = consts

    def reg(self, name: str) -> int:
        return getattr(self.c, name)

    def setup(self, address: int, types: str, args: tuple, endian: str) -> None:
        raise NotImplementedError

    def place(self, types: str, args: tuple, int_regs: list[str], float_regs: list[str],
              spill_to_ints: bool = False) -> list[int]:
        """Integers into ``int_regs`` and doubles into ``float_regs`` in order, as 64-bit words;
        with ``spill_to_ints`` a double that finds no float register takes the next integer one
        (RISC-V); returns the words that did not fit, in order, for the stack."""
        ints, floats, stack = iter(int_regs), iter(float_regs), []
        for kind, value in zip(types, args):
            word = _bits(value) if kind == "d" else _word(kind, value, 64)
            register = next(floats if kind == "d" else ints, None)
            if register is None and kind == "d" and spill_to_ints:
                register = next(ints, None)
            if register is None:
                stack.append(word)
            else:
                self.uc.reg_write(self.reg(register), word)
        return stack

    def result(self, kind: str) -> int | float | None:
        if kind == "d":
            return _float(self.uc.reg_read(self.reg(self.FLOAT_RESULT)))
        return self.uc.reg_read(self.reg(self.INT_RESULT))

    def pc(self) -> int:
        return self.uc.reg_read(self.reg(self.PC))


class Aapcs64(Abi):
    """AArch64: x0..x7 integers, d0..d7 doubles, the rest in 8-byte stack slots; x30 = LR."""

    INT_RESULT, FLOAT_RESULT, PC = "UC_ARM64_REG_X0", "UC_ARM64_REG_D0", "UC_ARM64_REG_PC"

    def setup(self, address: int, types: str, args: tuple, endian: str) -> None:
        uc, r = self.uc, self.reg
        stack = self.place(types, args, [f"UC_ARM64_REG_X{k}" for k in range(8)],
                           [f"UC_ARM64_REG_D{k}" for k in range(8)])
        sp = STACK_TOP - 64 - 16 * ((len(stack) * 8 + 15) // 16)
        if stack:
            uc.mem_write(sp, struct.pack(f"{endian}{len(stack)}Q", *stack))
        uc.reg_write(r("UC_ARM64_REG_SP"), sp)
        uc.reg_write(r("UC_ARM64_REG_X30"), STOP_ADDRESS)



class S390x(Abi):
    """s390x ELF ABI: r2..r6 integers (sign-extended to 64 bits), f0, f2, f4, f6 doubles, the
    rest in 8-byte slots at 160(r15) after the 160-byte register save area; r14 = return
    address; results in r2 / f0.  Big-endian."""

    INT_RESULT, FLOAT_RESULT, PC = "UC_S390X_REG_R2", "UC_S390X_REG_F0", "UC_S390X_REG_PC"

    def setup(self, address: int, types: str, args: tuple, endian: str) -> None:
        uc, r = self.uc, self.reg
        stack = self.place(types, args, [f"UC_S390X_REG_R{2 + k}" for k in range(5)],
                           [f"UC_S390X_REG_F{2 * k}" for k in range(4)])
        sp = STACK_TOP - 256 - 8 * ((len(stack) + 1) // 2 * 2) - 160
        if stack:
            uc.mem_write(sp + 160, struct.pack(f"{endian}{len(stack)}Q", *stack))
        # 64-bit addressing (PSW EA and BA bits): Unicorn starts in 24-bit mode
        uc.reg_write(r("UC_S390X_REG_PSWM"), uc.reg_read(r("UC_S390X_REG_PSWM")) | 0x1_8000_0000)
        # the additional floating-point registers (CR0 AFP bit): f1, f3, f5, f7-f15
        uc.reg_write(r("UC_S390X_REG_CR0"), uc.reg_read(r("UC_S390X_REG_CR0")) | 0x4_0000)
        uc.reg_write(r("UC_S390X_REG_R15"), sp)
        uc.reg_write(r("UC_S390X_REG_R14"), STOP_ADDRESS)



class Lp64d(Abi):
    """RISC-V LP64D: a0..a7 integers (int32 sign-extended), fa0..fa7 doubles, a double past fa7
    in the next free a-register, the rest in 8-byte stack slots at sp; ra = return address;
    results in a0 / fa0.  The FPU is switched on first (mstatus.FS): Unicorn starts it off."""

    INT_RESULT, FLOAT_RESULT, PC = "UC_RISCV_REG_A0", "UC_RISCV_REG_FA0", "UC_RISCV_REG_PC"

    def setup(self, address: int, types: str, args: tuple, endian: str) -> None:
        uc, r = self.uc, self.reg
        stack = self.place(types, args, [f"UC_RISCV_REG_A{k}" for k in range(8)],
                           [f"UC_RISCV_REG_FA{k}" for k in range(8)], spill_to_ints=True)
        sp = STACK_TOP - 64 - 16 * ((len(stack) * 8 + 15) // 16)
        if stack:
            uc.mem_write(sp, struct.pack(f"{endian}{len(stack)}Q", *stack))
        uc.reg_write(r("UC_RISCV_REG_MSTATUS"), uc.reg_read(r("UC_RISCV_REG_MSTATUS")) | 0x6000)
        uc.reg_write(r("UC_RISCV_REG_SP"), sp)
        uc.reg_write(r("UC_RISCV_REG_RA"), STOP_ADDRESS)



class Cdecl32(Abi):
    """32-bit x86 System V (cdecl): every argument on the stack in order, 4 bytes for int32 and
    pointers, 8 for doubles and 64-bit integers, the first at 4(esp) with esp+4 16-byte aligned;
    the return address at 0(esp); results in eax, edx:eax for 64-bit integers (no export
    returns a double, which would come back in x87's st0).  The floating-point state is set
    first as Linux leaves it for a process (Unicorn starts with zeros, which would mean single
    precision on x87 and unmasked SSE exceptions): SSE on (CR0.EM off, CR0.MP and
    CR4.OSFXSR/OSXMMEXCPT on), MXCSR 0x1f80 (exceptions masked, round to nearest, no
    flush-to-zero), x87 control word 0x37f (extended precision, round to nearest)."""

    pointer_bytes = 4
    INT_RESULT, PC = "UC_X86_REG_EAX", "UC_X86_REG_EIP"

    def setup(self, address: int, types: str, args: tuple, endian: str) -> None:
        uc, r = self.uc, self.reg
        packed = b"".join(struct.pack(f"{endian}d", value) if kind == "d" else
                          struct.pack(f"{endian}Q", _word(kind, value, 64)) if kind == "l" else
                          struct.pack(f"{endian}I", _word(kind, value, 32))
                          for kind, value in zip(types, args))
        at = (STACK_TOP - 256 - len(packed)) & ~15
        uc.mem_write(at - 4, struct.pack(f"{endian}I", STOP_ADDRESS) + packed)
        uc.reg_write(r("UC_X86_REG_CR0"), (uc.reg_read(r("UC_X86_REG_CR0")) & ~0x4) | 0x2)
        uc.reg_write(r("UC_X86_REG_CR4"), uc.reg_read(r("UC_X86_REG_CR4")) | 0x600)
        uc.reg_write(r("UC_X86_REG_MXCSR"), 0x1F80)
        uc.reg_write(r("UC_X86_REG_FPCW"), 0x37F)
        uc.reg_write(r("UC_X86_REG_ESP"), at - 4)

    def result(self, kind: str):
        low = self.uc.reg_read(self.reg("UC_X86_REG_EAX")) & 0xFFFF_FFFF
        if kind == "l":
            return (self.uc.reg_read(self.reg("UC_X86_REG_EDX")) & 0xFFFF_FFFF) << 32 | low
        return low


ABIS: dict[str, type[Abi]] = {"aapcs64": Aapcs64, "s390x": S390x, "lp64d": Lp64d, "cdecl32": Cdecl32}
