// SPDX-License-Identifier: MIT
// Freestanding <string.h> of the wasm32 build. The calls go to the compiler's builtins, so a
// fixed-size copy (memcpy of a double into a uint64_t) stays a load and a store, and a large
// one becomes memory.copy / memory.fill (bulk memory) or the functions of alloc.c.

#pragma once

#include <stddef.h>

void* memcpy(void* destination, const void* source, size_t size);
void* memmove(void* destination, const void* source, size_t size);
void* memset(void* destination, int value, size_t size);
int memcmp(const void* a, const void* b, size_t size);
size_t strlen(const char* text);

#define memcpy(d, s, n) __builtin_memcpy((d), (s), (n))
#define memmove(d, s, n) __builtin_memmove((d), (s), (n))
#define memset(d, v, n) __builtin_memset((d), (v), (n))
#define memcmp(a, b, n) __builtin_memcmp((a), (b), (n))
#define strlen(s) __builtin_strlen(s)
