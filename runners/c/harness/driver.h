// SPDX-License-Identifier: MIT
// ORCA conformance, C99 port of conformance/contract/driver.py: preferred velocities, the SplitMix64
// perturbation and the step loop. Kept apart from the solver so that a driver bug and a
// solver bug are told apart.

#pragma once

#include "scene.h"

#include <stdint.h>

/// Output number n (from 0) of SplitMix64 seeded with seed: mix(seed + (n + 1) * gamma).
OC_API uint64_t oc_SplitMix64(uint64_t seed, uint64_t n);

/// Value n of the stream as an exact double in [-1, 1): ((z >> 11) - 2^52) * 2^-52.
OC_API double oc_Uniform(uint64_t seed, uint64_t n);

/// The driver's preferred velocity for one agent (see docs/porting.md section 2). waypoints
/// holds count points; *k is the current waypoint index, updated in place.
OC_API ocVec2 oc_PreferredVelocity(ocVec2 position, const ocVec2* waypoints, int count, int* k,
								   double goalRadius, double maxSpeed, double dt, uint64_t seed,
								   double magnitude, int step, int agent, int agentCount);

/// A running scenario: the simulator, every agent's waypoint index and the step counter (opaque).
typedef struct ocRun ocRun;

/// Starts a run of a scene at step 0 (the scene must outlive the run); NULL when out of memory.
OC_API ocRun* oc_Run_Create(const ocScene* scene);

/// Frees a run (NULL is allowed).
OC_API void oc_Run_Destroy(ocRun* run);

/// Number of steps taken so far.
OC_API int oc_Run_GetStep(const ocRun* run);

/// Number of agents.
OC_API int oc_Run_GetAgentCount(const ocRun* run);

/// Before the first step: uses up to threads worker threads for phase 1 (1 = none; ignored
/// where threads are compiled out). Any number gives the same bits. More than one rebuilds the
/// simulator with its workers sized first (oc_Run_Populate in driver.c). False when out of
/// memory (the run is then unusable).
OC_API bool oc_Run_SetThreads(ocRun* run, int threads);

/// Before the first step: steps on the calling thread, but hands every chunk of every pass of
/// the step to one of `workers` workspaces in turn, last chunk first (oc_Run_StepInterleaved
/// in step_threads.c): the order and the split of a threaded step, made deterministic, for
/// checks that neither changes the bits. False when out of memory (the run is then unusable).
OC_API bool oc_Run_SetInterleaved(ocRun* run, int workers);

/// Before the first step: rebuilds the run's simulator and, when perAgent, takes it through the
/// simulator's single-agent calls instead of the bulk ones (agents added blank and configured
/// with the setters; oc_Run_StepPerAgent in driver.c). The bits must not change; threads are
/// not used then. False when out of memory (the run is then unusable).
OC_API bool oc_Run_SetPerAgent(ocRun* run, bool perAgent);

/// Canonical bytes of the current state into out (agentCount * 32 bytes).
OC_API void oc_Run_CanonicalState(const ocRun* run, unsigned char* out);

/// Takes count steps; after each, appends that state's canonical bytes to out (when out is not
/// NULL: count * agentCount * 32 bytes). Returns 0, or the 1-based index of the first step
/// whose state is not finite (the run stops there).
OC_API int oc_Run_Advance(ocRun* run, int count, unsigned char* out);

/// Full state at the current step: per agent px, py, vx, vy, prefx, prefy (6 doubles), where
/// the preferred velocity is the one the driver computes from this state for the next step.
OC_API void oc_Run_Dump(ocRun* run, double* out);
