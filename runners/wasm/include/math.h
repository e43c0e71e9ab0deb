// SPDX-License-Identifier: MIT
// Freestanding <math.h> of the wasm32 build (runners/wasm): the port's only libm function is
// sqrt, which is the f64.sqrt instruction here (IEEE 754 correctly rounded, like SSE2's
// sqrtsd). No other function is declared, so any new libm call fails to compile instead of
// becoming a module import.

#pragma once

#define sqrt(x) __builtin_sqrt(x)
