// SPDX-License-Identifier: MIT
// Freestanding <assert.h> of the wasm32 build: a failed assertion is the `unreachable`
// instruction, i.e. a trap, which the runners report as an ERROR cell with the trap message.
// Enabled unless NDEBUG, like the native -O2 builds.

#undef assert
#ifdef NDEBUG
#define assert(e) ((void)0)
#else
#define assert(e) ((e) ? (void)0 : __builtin_trap())
#endif
