// SPDX-License-Identifier: MIT
// The system calls of the libc-free Linux build (start.c), for its stdio.c.

#pragma once

#include <stddef.h>

/// read(2): bytes read, 0 at end of input, or a negative errno.
long oc_Read(int fd, void* buffer, size_t size);

/// write(2): bytes written or a negative errno.
long oc_Write(int fd, const void* data, size_t size);

#define OC_EINTR 4
