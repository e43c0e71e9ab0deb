// SPDX-License-Identifier: MIT
// ORCA conformance: the step split across worker threads (step_threads.c).

#pragma once

#include "simulator.h"

/// A pool of worker threads that lives as long as a run: the caller is worker 0, the pool's
/// threads are workers 1 to threads - 1. Work is handed out in chunks of an index range, claimed
/// one at a time: each worker first from its own share (the same stretch of the range in every
/// pass, so that it mostly reads what it wrote itself), then from the others' shares, so a slow
/// or busy core takes fewer chunks and never stalls the step.
typedef struct ocStepPool ocStepPool;

/// A pool of `threads` workers; NULL for one thread, for a build without threads
/// (-DOC_NO_THREADS, wasm, freestanding, Windows) or when the threads cannot be started.
ocStepPool* oc_StepPool_Create(int threads);

/// Stops and joins the pool's threads (NULL is a no-op).
void oc_StepPool_Destroy(ocStepPool* pool);

/// Workers of a pool (1 for NULL).
int oc_StepPool_GetWorkerCount(const ocStepPool* pool);

/// Runs `task` over [0, n) in chunks of `chunk` indices on every worker and returns when all
/// are done; with a NULL pool, one call over the whole range on worker 0. The task must give
/// the same result whatever worker takes a chunk (each agent's work depends only on shared
/// read-only state and writes only its own outputs and the worker's scratch).
void oc_StepPool_For(ocStepPool* pool, int n, int chunk, ocRangeTask task, void* context);

/// One step of the simulator with every pass (grid, phase 1, phase 2) spread over the pool's
/// workers (any split gives the same bits); a NULL pool steps on this thread. The simulator must
/// have at least the pool's worker count of workspaces.
void oc_Run_StepThreaded(ocSimulator* sim, double dt, ocStepPool* pool);

/// oc_Run_StepThreaded with side run beside the grid build's serial cell insert and after on
/// each range of phase 2 (oc_Simulator_StepBeside).
void oc_Run_StepThreadedBeside(ocSimulator* sim, double dt, ocStepPool* pool, const ocSideJob* side,
							   const ocSideJob* after);

/// One step on the calling thread with the chunks of every pass taken last first, chunk k on
/// workspace k % workers (the simulator must have that many): what a threaded step may do,
/// made deterministic.
void oc_Run_StepInterleaved(ocSimulator* sim, double dt, int workers);
