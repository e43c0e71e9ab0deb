// SPDX-License-Identifier: MIT
// ORCA conformance, libc-free Windows build (the c:windows column, docs/unicorn.md): the
// process entry and the three calls the C CLI needs, from kernel32 (GetStdHandle, ReadFile,
// WriteFile, ExitProcess). No C runtime is linked: this and runners/freestanding/runtime are
// the whole runtime, so a cold build compiles the port and Zig's compiler-rt only (no MinGW
// CRT). The standard handles are used as they are, in binary: a pipe's bytes pass untranslated.

#include "system.h"

#include <stdlib.h>

int main(void);

typedef void* ocHandle;

#define OC_STD_INPUT_HANDLE ((unsigned long)-10)
#define OC_ERROR_HANDLE_EOF 38
#define OC_ERROR_BROKEN_PIPE 109
/// One ReadFile or WriteFile moves at most this many bytes (its count is 32 bits).
#define OC_MOST_BYTES ((size_t)1 << 30)

__declspec(dllimport) ocHandle __stdcall GetStdHandle(unsigned long which);
__declspec(dllimport) int __stdcall ReadFile(ocHandle file, void* buffer, unsigned long size, unsigned long* done,
											 void* overlapped);
__declspec(dllimport) int __stdcall WriteFile(ocHandle file, const void* data, unsigned long size,
											  unsigned long* done, void* overlapped);
__declspec(dllimport) unsigned long __stdcall GetLastError(void);
__declspec(dllimport) _Noreturn void __stdcall ExitProcess(unsigned int status);

// Descriptor 0, 1 or 2: STD_INPUT_HANDLE (-10), STD_OUTPUT_HANDLE (-11) or STD_ERROR_HANDLE (-12).
static ocHandle oc_StdHandle(int fd)
{
	return GetStdHandle(OC_STD_INPUT_HANDLE - (unsigned long)fd);
}

long oc_Read(int fd, void* buffer, size_t size)
{
	unsigned long done = 0;
	if (ReadFile(oc_StdHandle(fd), buffer, (unsigned long)(size < OC_MOST_BYTES ? size : OC_MOST_BYTES), &done, NULL))
	{
		return (long)done;
	}
	// the writer closed the pipe (or the file ended): end of input
	unsigned long error = GetLastError();
	return error == OC_ERROR_BROKEN_PIPE || error == OC_ERROR_HANDLE_EOF ? 0 : -1;
}

long oc_Write(int fd, const void* data, size_t size)
{
	unsigned long done = 0;
	if (WriteFile(oc_StdHandle(fd), data, (unsigned long)(size < OC_MOST_BYTES ? size : OC_MOST_BYTES), &done, NULL))
	{
		return (long)done;
	}
	return -1;
}

_Noreturn void oc_Exit(int status)
{
	ExitProcess((unsigned int)status);
}

/// MinGW's compilers call __main at the start of main to run the constructors, which a C
/// program without a C runtime has none of.
void __main(void)
{
}

/// The console program's entry (the link's --entry): no arguments, the CLI reads none.
_Noreturn void mainCRTStartup(void)
{
	exit(main());
}
