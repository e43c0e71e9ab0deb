// SPDX-License-Identifier: MIT
// ORCA solver, C99 port of the Python reference under conformance/solver (bit for bit).
// Public API: include this header. Compile with -std=c99 -O2 -ffp-contract=off, no fast math.

#pragma once

#include "vector.h"
#include "halfplane.h"
#include "obstacle.h"
#include "constraint.h"
#include "linear_program.h"
#include "fallback.h"
#include "neighbors.h"
#include "simulator.h"
