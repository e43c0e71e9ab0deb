"""The libc-free runtime of the ``<arch>:qemu`` columns and ``c:windows`` (runners/freestanding/runtime,
with runners/freestanding/linux's or windows' entry and calls): its strtod
is correctly rounded (Python's float() of the same text is the oracle, on shortest round-trip
decimals, exact halfway points and long digit strings), its snprintf writes what C's does for
the CLI's conversions, and the columns' build links no C library.  The parsers and the
formatter are compiled for this host with its C compiler (the runtime's code is portable C),
so the checks run where no emulator is installed."""

from __future__ import annotations

import math
import random
import shutil
import struct
import subprocess
from decimal import Decimal, getcontext
from pathlib import Path

import pytest

from conformance.runners.cli_port import RUNTIME
from conformance.runners.cross import LINUX_LINK, TARGETS, cross_spec
from conformance.runners.build.layer import DETERMINISM_FLAGS

CC = shutil.which("gcc") or shutil.which("cc") or shutil.which("clang")
needs_cc = pytest.mark.skipif(CC is None, reason="no host C compiler")

DRIVER = r"""
#include <stdio.h>
#include <stdint.h>
#include <string.h>
double runtime_strtod(const char*, char**);
static char line[1 << 16];
int main(void)
{
	while (fgets(line, sizeof line, stdin))
	{
		line[strcspn(line, "\n")] = 0;
		char* end;
		double value = runtime_strtod(line, &end);
		uint64_t bits;
		memcpy(&bits, &value, 8);
		printf("%016llx %d\n", (unsigned long long)bits, (int)(end - line));
	}
	return 0;
}
"""

FORMATS = r"""
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
int runtime_vsnprintf(char*, size_t, const char*, va_list);
long oc_Read(int fd, void* b, size_t n) { (void)fd; (void)b; (void)n; return 0; }
long oc_Write(int fd, const void* d, size_t n) { (void)fd; (void)d; return (long)n; }
void oc_Exit(int status) { (void)status; for (;;) {} }
static void show(const char* f, ...)
{
	char text[128];
	va_list a;
	va_start(a, f);
	int n = runtime_vsnprintf(text, sizeof text, f, a);
	va_end(a);
	printf("%d|%s\n", n, text);
}
int main(void)
{
	show("scene.agents[%d]: %s", 12, "expected an object");
	show("at byte %lu", (unsigned long)123456789);
	show("%lld|%lld", (long long)INT64_MIN, (long long)42);
	show("\"%016llx\"", (unsigned long long)0x3ff0000000000000ULL);
	show("\"%016llx\"", (unsigned long long)5);
	show("unknown \"%.5s\"", "abcdefgh");
	show("%5d|%-5d|%05d|%x|%u|%c%%", -3, 7, -42, 255u, 4000000000u, 'q');
	show("%s", "x");
	return 0;
}
"""
SHOWN = [("scene.agents[%d]: %s", (12, "expected an object")), ("at byte %lu", (123456789,)),
         ("%lld|%lld", (-2 ** 63, 42)), ('"%016llx"', (0x3ff0000000000000,)), ('"%016llx"', (5,)),
         ('unknown "%.5s"', ("abcdefgh",)), ("%5d|%-5d|%05d|%x|%u|%c%%", (-3, 7, -42, 255, 4000000000, "q")),
         ("%s", ("x",))]
"""What FORMATS shows, in order; Python's % formatting (C's, length modifiers aside) is the oracle."""


def _compile(tmp: Path, source: str, runtime: str, renames: tuple[str, ...]) -> Path:
    (tmp / "driver.c").write_text(source)
    include = ["-I", str(RUNTIME), "-I", str(RUNTIME / "include"), "-I", str(RUNTIME.parent.parent / "wasm" / "include")]
    obj = tmp / "runtime.o"
    subprocess.run([CC, "-O2", "-ffreestanding", "-ffp-contract=off", "-c", str(RUNTIME / runtime), *include,
                    *(f"-D{name}=runtime_{name}" for name in renames), "-o", str(obj)], check=True)
    subprocess.run([CC, "-O2", str(tmp / "driver.c"), str(obj), "-o", str(tmp / "driver")], check=True)
    return tmp / "driver"


def _midpoint(x: float) -> str:
    """The exact decimal halfway between x and the next double up."""
    return format((Decimal(x) + Decimal(math.nextafter(x, math.inf))) / 2, "e")


def _cases() -> list[str]:
    getcontext().prec = 2000
    rng = random.Random(44)
    doubles = [struct.unpack("<d", struct.pack("<Q", rng.getrandbits(63)))[0] for _ in range(3000)]
    doubles += [struct.unpack("<d", struct.pack("<Q", rng.getrandbits(52)))[0] for _ in range(500)]  # subnormal
    doubles += [rng.uniform(-100, 100) for _ in range(2000)]
    doubles = [d for d in doubles if math.isfinite(d) and math.isfinite(math.nextafter(d, math.inf))]
    cases = [repr(d) for d in doubles]
    for d in doubles[::5]:
        half = _midpoint(d)
        mantissa, exponent = half.split("e")
        cases += [half, f"{mantissa}{'0' * rng.randint(0, 900)}1e{exponent}"]  # a tie, and just above it
    cases += [f"{rng.choice(['', '-'])}{rng.randint(0, 10 ** 30)}.{rng.randint(0, 10 ** 40):040d}e{rng.randint(-360, 330)}"
              for _ in range(2000)]
    cases += ["0", "-0", "-0.0", "1e400", "-1e400", "1e-400", "2.4703282292062327e-324", "2.4703282292062328e-324",
              "1.7976931348623157e308", "1.7976931348623158e308", "1.7976931348623159e308", "9007199254740993",
              "0." + "0" * 400 + "1", "1" + "0" * 900 + "e-900", "123456789012345678901234567890"]
    return cases


@needs_cc
def test_strtod_is_correctly_rounded_as_python_float_is(tmp_path: Path) -> None:
    driver = _compile(tmp_path, DRIVER, "numbers.c", ("strtod", "strtoll", "strtoull", "errno"))
    cases = _cases()
    out = subprocess.run([str(driver)], input="\n".join(cases) + "\n", capture_output=True, text=True, check=True)
    wrong = []
    for text, line in zip(cases, out.stdout.splitlines(), strict=True):
        bits, used = line.split()
        expected = struct.unpack("<Q", struct.pack("<d", float(text)))[0]
        if int(bits, 16) != expected or int(used) != len(text):
            wrong.append(f"{text[:60]}: {bits} against {expected:016x}, read {used} of {len(text)} bytes")
    assert not wrong, f"{len(wrong)} of {len(cases)} wrong:\n" + "\n".join(wrong[:10])


@needs_cc
def test_snprintf_writes_the_cli_conversions_as_c_does(tmp_path: Path) -> None:
    renames = ("vsnprintf", "snprintf", "fprintf", "fwrite", "fflush", "fputc", "fputs", "getc", "stdin", "stdout",
               "stderr", "exit")
    driver = _compile(tmp_path, FORMATS, "stdio.c", renames)
    out = subprocess.run([str(driver)], capture_output=True, text=True, check=True)
    expected = [(format.replace("ll", "").replace("l", "")) % values for format, values in SHOWN]
    assert out.stdout.splitlines() == [f"{len(text)}|{text}" for text in expected]


@pytest.mark.parametrize("column", sorted(TARGETS))
def test_the_qemu_columns_link_no_c_library_and_keep_the_determinism_flags(column: str) -> None:
    spec = cross_spec(TARGETS[column])
    assert spec.target.endswith("-linux-none") and spec.link_flags == LINUX_LINK
    assert set(DETERMINISM_FLAGS) <= set(spec.flags) and "-ffp-contract=off" in spec.flags
    assert {p.name for p in spec.sources} >= {"start.c", "stdio.c", "numbers.c", "strings.c", "heap.c", "main.c"}
