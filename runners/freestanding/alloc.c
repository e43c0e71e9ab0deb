// SPDX-License-Identifier: MIT
// ORCA conformance, freestanding ELF build (docs/unicorn.md): the wasm build's allocator
// (runners/wasm/alloc.c, unchanged) over a heap region the host maps instead of a wasm linear
// memory. The heap is [OW_HEAP_BASE, OW_HEAP_END) (defines of the build; the linker defines
// __heap_base = OW_HEAP_BASE), and "growing the memory" moves a page counter inside it, so
// malloc returns NULL past OW_HEAP_END exactly as it does past the wasm module's maximum.
// Every variable lives in .data/.bss: the host resets the allocator by reloading them.

#include <stddef.h>
#include <stdint.h>

#if !defined(OW_HEAP_BASE) || !defined(OW_HEAP_END)
#error "define OW_HEAP_BASE and OW_HEAP_END (the heap region the host maps)"
#endif

/// Pages of "memory" so far: everything below the heap, then what the allocator took.
static uint64_t ow_memoryPages = (uint64_t)(OW_HEAP_BASE) / 65536;

static uint64_t ow_MemorySize(void)
{
	return ow_memoryPages;
}

// The old size in pages, or (size_t)-1 when the region has no room (wasm's memory.grow).
static size_t ow_MemoryGrow(size_t pages)
{
	if (pages > (uint64_t)(OW_HEAP_END) / 65536 - ow_memoryPages)
	{
		return (size_t)-1;
	}
	uint64_t old = ow_memoryPages;
	ow_memoryPages += pages;
	return (size_t)old;
}

#define __builtin_wasm_memory_size(memory) ow_MemorySize()
#define __builtin_wasm_memory_grow(memory, pages) ow_MemoryGrow(pages)

#include "../wasm/alloc.c"
