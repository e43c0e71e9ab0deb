// SPDX-License-Identifier: MIT
// ORCA conformance, libc-free CLI runtime (Linux and Windows): the wasm build's allocator
// (runners/wasm/alloc.c, unchanged, as the freestanding ELF uses it) over a heap in .bss, which
// the loader maps untouched (pages are given on first use). Its size is the wasm column's
// memory limit; malloc returns NULL past it, as the wasm module's does past its maximum.
// alloc.c's __heap_base is an alias of the array.

#include <stddef.h>
#include <stdint.h>

#define OW_HEAP_BYTES ((size_t)512 << 20)

// A wasm page (64 KiB) where the object format allows it (ELF). COFF aligns to 8 KiB at most:
// there the heap starts on a 4 KiB page and the pages below count from the 64 KiB boundary
// under it, so the allocator may use up to 64 KiB less of the array (never more).
#if defined(_WIN32)
#define OW_HEAP_ALIGN 4096
#else
#define OW_HEAP_ALIGN 65536
#endif

unsigned char ow_heap[OW_HEAP_BYTES] __attribute__((aligned(OW_HEAP_ALIGN)));

/// Pages of "memory" so far: everything below the heap, then what the allocator took (0 until
/// the first call: the heap's address is no constant expression).
static uint64_t ow_memoryPages;

static uint64_t ow_MemorySize(void)
{
	if (ow_memoryPages == 0)
	{
		ow_memoryPages = (uint64_t)(uintptr_t)ow_heap / 65536;
	}
	return ow_memoryPages;
}

// The old size in pages, or (size_t)-1 when the heap has no room (wasm's memory.grow).
static size_t ow_MemoryGrow(size_t pages)
{
	uint64_t end = ((uint64_t)(uintptr_t)ow_heap + OW_HEAP_BYTES) / 65536;
	uint64_t old = ow_MemorySize();
	if (pages > end - old)
	{
		return (size_t)-1;
	}
	ow_memoryPages += pages;
	return (size_t)old;
}

#define __builtin_wasm_memory_size(memory) ow_MemorySize()
#define __builtin_wasm_memory_grow(memory, pages) ow_MemoryGrow(pages)

#include "../../wasm/alloc.c"

/// alloc.c's heap starts at the linker symbol __heap_base: here, the array above.
extern unsigned char __heap_base __attribute__((alias("ow_heap")));
