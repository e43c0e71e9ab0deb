// SPDX-License-Identifier: MIT
// <inttypes.h> of the libc-free CLI runtime: the format macros the CLI uses, from the
// compiler's own spelling of int64_t (long on LP64, long long on i386 and Windows).

#pragma once

#include <stdint.h>

#define PRId64 __INT64_FMTd__
#define PRIx64 __UINT64_FMTx__
#define PRIu64 __UINT64_FMTu__
