// SPDX-License-Identifier: MIT
// ORCA conformance: the step with phase 1 split across worker threads (step_threads.c).

#pragma once

#include "simulator.h"

/// One step of the simulator with the agents of phase 1 split across `threads` workers (one
/// worker, or a build with -DOC_NO_THREADS, runs them in order). Any split gives the same bits:
/// the agents of phase 1 are independent. `scratch` holds one new velocity per agent.
void oc_Run_StepThreaded(ocSimulator* sim, double dt, int threads, ocVec2* scratch);
