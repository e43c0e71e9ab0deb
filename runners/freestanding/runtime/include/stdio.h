// SPDX-License-Identifier: MIT
// <stdio.h> of the libc-free CLI runtime (runners/freestanding/runtime, docs/unicorn.md): the
// streams the C CLI uses (stdin read a byte at a time through a buffer, stdout buffered until
// fflush, stderr unbuffered) and snprintf/fprintf for integers and strings (no floating point:
// the CLI writes doubles as hex bits).

#pragma once

#include <stdarg.h>
#include <stddef.h>

#define EOF (-1)

typedef struct ocFile FILE;

extern FILE* const stdin;
extern FILE* const stdout;
extern FILE* const stderr;

int getc(FILE* stream);
int fputc(int c, FILE* stream);
int fputs(const char* text, FILE* stream);
size_t fwrite(const void* data, size_t size, size_t count, FILE* stream);
int fflush(FILE* stream);
int fprintf(FILE* stream, const char* format, ...);
int snprintf(char* out, size_t size, const char* format, ...);
int vsnprintf(char* out, size_t size, const char* format, va_list args);
