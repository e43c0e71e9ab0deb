// SPDX-License-Identifier: MIT
// Freestanding <stdlib.h> of the wasm32 build: the allocator of runners/wasm/alloc.c.

#pragma once

#include <stddef.h>

void* malloc(size_t size);
void* calloc(size_t count, size_t size);
void* realloc(void* pointer, size_t size);
void free(void* pointer);

#define abort() __builtin_trap()
