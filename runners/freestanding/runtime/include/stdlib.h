// SPDX-License-Identifier: MIT
// <stdlib.h> of the libc-free CLI runtime: the wasm build's (its allocator, abort as a trap)
// and the number parsers and exit the C CLI needs.

#pragma once

#include_next <stdlib.h>

double strtod(const char* text, char** end);
long long strtoll(const char* text, char** end, int base);
unsigned long long strtoull(const char* text, char** end, int base);
_Noreturn void exit(int status);
