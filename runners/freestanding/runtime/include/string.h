// SPDX-License-Identifier: MIT
// <string.h> of the libc-free CLI runtime: the wasm build's and the two the CLI adds.

#pragma once

#include_next <string.h>

int strcmp(const char* a, const char* b);
char* strpbrk(const char* text, const char* accept);
