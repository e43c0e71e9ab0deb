// SPDX-License-Identifier: MIT
// ORCA conformance: the step with phase 1 split across threads. The text: agents are
// independent in phase 1, so any split by index, any number of workers, gives the same bits.
// Each worker has its own scratch workspace in the simulator; the grid is built once before
// the workers start. Compiled out (single-threaded) with -DOC_NO_THREADS, e.g. for wasm.

#include "step_threads.h"

#if !defined(OC_NO_THREADS) && !defined(_WIN32)
#include <pthread.h>
#define OC_HAS_THREADS 1
#else
#define OC_HAS_THREADS 0
#endif

#if OC_HAS_THREADS
typedef struct ocWorkerTask
{
	ocSimulator* sim;
	int worker;
	double dt;
	int first;
	int count;
	ocVec2* out;
} ocWorkerTask;

static void* oc_WorkerMain(void* context)
{
	ocWorkerTask* task = (ocWorkerTask*)context;
	oc_Simulator_NewVelocitiesOnWorker(task->sim, task->worker, task->dt, task->first, task->count,
									   task->out + task->first);
	return NULL;
}

enum
{
	OC_MAX_THREADS = 64
};
#endif

void oc_Run_StepThreaded(ocSimulator* sim, double dt, int threads, ocVec2* scratch)
{
	int n = oc_Simulator_GetAgentCount(sim);
#if OC_HAS_THREADS
	if (threads > OC_MAX_THREADS)
	{
		threads = OC_MAX_THREADS;
	}
	if (threads > 1 && n >= 2 * threads && oc_Simulator_SetWorkerCount(sim, threads))
	{
		ocWorkerTask tasks[OC_MAX_THREADS];
		pthread_t handles[OC_MAX_THREADS];
		int started[OC_MAX_THREADS];
		oc_Simulator_PrepareStep(sim);
		// contiguous index ranges; the calling thread runs range 0 itself
		for (int w = 0; w < threads; ++w)
		{
			int first = (int)((long long)n * w / threads);
			int last = (int)((long long)n * (w + 1) / threads);
			tasks[w].sim = sim;
			tasks[w].worker = w;
			tasks[w].dt = dt;
			tasks[w].first = first;
			tasks[w].count = last - first;
			tasks[w].out = scratch;
			started[w] = 0;
		}
		for (int w = 1; w < threads; ++w)
		{
			started[w] = pthread_create(&handles[w], NULL, oc_WorkerMain, &tasks[w]) == 0;
			if (!started[w])
			{
				oc_WorkerMain(&tasks[w]); // no thread available: same work, same bits, serially
			}
		}
		oc_WorkerMain(&tasks[0]);
		for (int w = 1; w < threads; ++w)
		{
			if (started[w])
			{
				pthread_join(handles[w], NULL);
			}
		}
		oc_Simulator_Apply(sim, scratch, dt);
		return;
	}
#else
	(void)threads;
	(void)scratch;
#endif
	// One thread: the simulator's own step (phase 1 into its scratch, then phase 2).
	(void)n;
	oc_Simulator_Step(sim, dt);
}
