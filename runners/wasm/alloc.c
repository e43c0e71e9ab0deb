// SPDX-License-Identifier: MIT
// ORCA conformance, wasm32 build: the freestanding C runtime the port needs (see
// docs/wasm.md). A size-class allocator over the module's linear memory (malloc, calloc,
// realloc, free), grown with memory.grow, and the memory functions the compiler may call.
//
// Blocks are powers of two from 32 bytes, each with a 16-byte header holding its class, so
// every payload is 16-byte aligned. A freed block goes onto its class's free list and is
// reused by the next request of that class; fresh blocks are cut from the top of the heap
// (which starts at the linker's __heap_base) and the memory grows when the top reaches its
// end. memory.grow failing (the module's maximum or the engine's limit) makes malloc return
// NULL, which the port reports as "out of memory". Single-threaded, deterministic: the same
// calls give the same addresses in every engine.

#include <stddef.h>
#include <stdint.h>

/// First byte after the data and the stack (defined by wasm-ld).
extern unsigned char __heap_base;

enum
{
	OW_HEADER = 16,
	OW_MIN_CLASS = 5,
	OW_CLASSES = 32,
	OW_PAGE = 65536,
	OW_MIN_GROW_PAGES = 16
};

typedef struct owFreeBlock
{
	struct owFreeBlock* next;
} owFreeBlock;

static owFreeBlock* ow_freeLists[OW_CLASSES];
static uint64_t ow_heapStart;
static uint64_t ow_top;
static uint64_t ow_end;

// Smallest class whose block holds total bytes (total <= 2^31).
static int ow_Class(size_t total)
{
	int c = OW_MIN_CLASS;
	while (((size_t)1 << c) < total)
	{
		c += 1;
	}
	return c;
}

// bytes (a multiple of 16) cut from the top of the heap; NULL when the memory cannot grow.
static unsigned char* ow_Take(uint64_t bytes)
{
	if (ow_top == 0)
	{
		ow_heapStart = ((uint64_t)(uintptr_t)&__heap_base + 15) & ~(uint64_t)15;
		ow_top = ow_heapStart;
		ow_end = (uint64_t)__builtin_wasm_memory_size(0) * OW_PAGE;
	}
	if (ow_top + bytes > ow_end)
	{
		uint64_t need = ow_top + bytes - ow_end;
		uint64_t pages = (need + OW_PAGE - 1) / OW_PAGE;
		if (pages < OW_MIN_GROW_PAGES)
		{
			pages = OW_MIN_GROW_PAGES;
		}
		if (__builtin_wasm_memory_grow(0, (size_t)pages) == (size_t)-1)
		{
			// the engine refused the large step; try exactly what is needed
			pages = (need + OW_PAGE - 1) / OW_PAGE;
			if (__builtin_wasm_memory_grow(0, (size_t)pages) == (size_t)-1)
			{
				return NULL;
			}
		}
		ow_end += pages * OW_PAGE;
	}
	unsigned char* block = (unsigned char*)(uintptr_t)ow_top;
	ow_top += bytes;
	return block;
}

void* malloc(size_t size)
{
	if (size > ((size_t)1 << 31) - OW_HEADER)
	{
		return NULL;
	}
	int c = ow_Class(size + OW_HEADER);
	unsigned char* block = (unsigned char*)ow_freeLists[c];
	if (block != NULL)
	{
		ow_freeLists[c] = ((owFreeBlock*)block)->next;
	}
	else
	{
		block = ow_Take((uint64_t)1 << c);
		if (block == NULL)
		{
			return NULL;
		}
	}
	*(uint32_t*)block = (uint32_t)c;
	return block + OW_HEADER;
}

void free(void* pointer)
{
	if (pointer == NULL)
	{
		return;
	}
	unsigned char* block = (unsigned char*)pointer - OW_HEADER;
	int c = (int)*(uint32_t*)block;
	((owFreeBlock*)block)->next = ow_freeLists[c];
	ow_freeLists[c] = (owFreeBlock*)block;
}

void* memcpy(void* destination, const void* source, size_t size);
void* memset(void* destination, int value, size_t size);

void* calloc(size_t count, size_t size)
{
	if (size != 0 && count > (size_t)-1 / size)
	{
		return NULL;
	}
	void* pointer = malloc(count * size);
	if (pointer != NULL)
	{
		memset(pointer, 0, count * size);
	}
	return pointer;
}

void* realloc(void* pointer, size_t size)
{
	if (pointer == NULL)
	{
		return malloc(size);
	}
	if (size == 0)
	{
		// as glibc: frees and returns NULL (the port never asks for this)
		free(pointer);
		return NULL;
	}
	int c = (int)*(uint32_t*)((unsigned char*)pointer - OW_HEADER);
	size_t usable = ((size_t)1 << c) - OW_HEADER;
	if (size <= usable)
	{
		return pointer;
	}
	void* grown = malloc(size);
	if (grown == NULL)
	{
		return NULL; // the old block stays valid, as C requires
	}
	memcpy(grown, pointer, usable);
	free(pointer);
	return grown;
}

/// Bytes the allocator has taken from linear memory so far (freed blocks included).
size_t ow_HeapBytes(void)
{
	return ow_top > ow_heapStart ? (size_t)(ow_top - ow_heapStart) : 0;
}

// Memory functions. With bulk memory (the default CPU of this build) the builtins are the
// memory.copy / memory.fill instructions; otherwise plain byte loops (LLVM does not turn a
// loop inside memcpy or memset back into a call to itself).

void* memcpy(void* destination, const void* source, size_t size)
{
#if defined(__wasm_bulk_memory__) || defined(__wasm_bulk_memory_opt__)
	return __builtin_memcpy(destination, source, size);
#else
	unsigned char* d = (unsigned char*)destination;
	const unsigned char* s = (const unsigned char*)source;
	for (size_t k = 0; k < size; ++k)
	{
		d[k] = s[k];
	}
	return destination;
#endif
}

void* memmove(void* destination, const void* source, size_t size)
{
#if defined(__wasm_bulk_memory__) || defined(__wasm_bulk_memory_opt__)
	return __builtin_memmove(destination, source, size);
#else
	unsigned char* d = (unsigned char*)destination;
	const unsigned char* s = (const unsigned char*)source;
	if (d < s)
	{
		for (size_t k = 0; k < size; ++k)
		{
			d[k] = s[k];
		}
	}
	else
	{
		for (size_t k = size; k > 0; --k)
		{
			d[k - 1] = s[k - 1];
		}
	}
	return destination;
#endif
}

void* memset(void* destination, int value, size_t size)
{
#if defined(__wasm_bulk_memory__) || defined(__wasm_bulk_memory_opt__)
	return __builtin_memset(destination, value, size);
#else
	unsigned char* d = (unsigned char*)destination;
	for (size_t k = 0; k < size; ++k)
	{
		d[k] = (unsigned char)value;
	}
	return destination;
#endif
}

int memcmp(const void* a, const void* b, size_t size)
{
	const unsigned char* x = (const unsigned char*)a;
	const unsigned char* y = (const unsigned char*)b;
	for (size_t k = 0; k < size; ++k)
	{
		if (x[k] != y[k])
		{
			return x[k] < y[k] ? -1 : 1;
		}
	}
	return 0;
}

size_t strlen(const char* text)
{
	size_t n = 0;
	while (text[n] != '\0')
	{
		n += 1;
	}
	return n;
}
