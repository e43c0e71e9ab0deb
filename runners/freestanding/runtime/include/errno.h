// SPDX-License-Identifier: MIT
// <errno.h> of the libc-free CLI runtime: one errno (the CLI is single-threaded), set by the
// number parsers.

#pragma once

extern int errno;

#define ERANGE 34
#define EINVAL 22
