// SPDX-License-Identifier: MIT
// What the libc-free CLI runtime asks of the operating system: the entry and these three calls
// are each system's start.c in runners/freestanding (linux/: system calls, windows/: kernel32);
// everything else in this folder is the same C for every system.

#pragma once

#include <stddef.h>

/// Reads from descriptor fd (0 stdin): bytes read, 0 at end of input, or a negative number on
/// failure (-OC_EINTR: interrupted, try again).
long oc_Read(int fd, void* buffer, size_t size);

/// Writes to descriptor fd (1 stdout, 2 stderr): bytes written, or a negative number on failure.
long oc_Write(int fd, const void* data, size_t size);

/// Ends the process with status (after exit has flushed stdout).
_Noreturn void oc_Exit(int status);

#define OC_EINTR 4
