// SPDX-License-Identifier: MIT
// ORCA conformance: the step split across worker threads. Each pass of the step (the grid's
// per-agent and per-cell passes, phase 1, phase 2) works on independent agents or cells, so any
// split by index, on any number of workers, gives the same bits; each worker has its own scratch
// workspace in the simulator. Compiled out (single-threaded) with -DOC_NO_THREADS, e.g. for wasm.

#include "step_threads.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#if !defined(OC_NO_THREADS) && !defined(_WIN32)
#include <pthread.h>
#include <sched.h>
#define OC_HAS_THREADS 1
#else
#define OC_HAS_THREADS 0
#endif

enum
{
	OC_MAX_THREADS = 64,
	// A thread that waits for the pool first polls its counter OC_SPIN_LOADS times (a few
	// microseconds), then yields its core up to OC_SPIN_YIELDS times between polls (about a
	// millisecond at most; another runnable thread gets the core meanwhile), and only then
	// blocks on the condition. A step hands out several jobs with short serial parts between
	// them, and waking a blocked thread costs more than such a part on a virtual machine.
	OC_SPIN_LOADS = 2000,
	OC_SPIN_YIELDS = 1000,
	// bytes between two workers' claim counters, so that no two share a cache line
	OC_CURSOR_BYTES = 128
};

#if OC_HAS_THREADS
// A worker's share of the current job's chunks, [next, end) by chunk index: the worker claims
// from its own share first, then from the others'. Padded so that the counters of two workers
// never share a cache line.
typedef struct ocCursor
{
	int next;
	int end;
	char padding[OC_CURSOR_BYTES - 2 * sizeof(int)];
} ocCursor;

typedef struct ocWorkerStart
{
	ocStepPool* pool;
	int worker;
} ocWorkerStart;

struct ocStepPool
{
	int threads;
	int started;
	pthread_t handles[OC_MAX_THREADS];
	ocWorkerStart starts[OC_MAX_THREADS];
	pthread_mutex_t lock;
	pthread_cond_t wake;
	pthread_cond_t done;
	// counters read without the lock while spinning, so written atomically
	unsigned generation;
	unsigned busy;
	int quit;
	// the current job
	ocRangeTask task;
	void* context;
	int n;
	int chunk;
	ocCursor cursors[OC_MAX_THREADS];
};

// Returns once (*counter == value) == stopWhenEqual or the spin is over (see OC_SPIN_LOADS);
// the caller then takes the lock and waits on the pool's condition as usual (the spin only
// saves a wake-up).
static void oc_Spin(const unsigned* counter, unsigned value, bool stopWhenEqual)
{
	for (int k = 0; k < OC_SPIN_LOADS + OC_SPIN_YIELDS; ++k)
	{
		if ((__atomic_load_n(counter, __ATOMIC_ACQUIRE) == value) == stopWhenEqual)
		{
			return;
		}
		if (k >= OC_SPIN_LOADS)
		{
			sched_yield();
		}
	}
}

// Claims chunks of the current job until none is left: first from the worker's own share,
// then from the next workers' shares in turn. Every chunk is claimed once (each counter hands
// out each of its indices once). The shares are the same index ranges in every pass of a
// step, so a worker mostly reads what it wrote in the pass before, from its own core's cache.
static void oc_StepPool_Work(ocStepPool* pool, int worker)
{
	ocRangeTask task = pool->task;
	void* context = pool->context;
	int n = pool->n;
	int chunk = pool->chunk;
	for (int v = 0; v < pool->threads; ++v)
	{
		ocCursor* cursor = pool->cursors + (worker + v) % pool->threads;
		for (;;)
		{
			int k = __atomic_fetch_add(&cursor->next, 1, __ATOMIC_RELAXED);
			if (k >= cursor->end)
			{
				break;
			}
			int first = k * chunk;
			task(context, worker, first, n - first < chunk ? n - first : chunk);
		}
	}
}

static void* oc_StepPool_Main(void* argument)
{
	ocWorkerStart start = *(ocWorkerStart*)argument;
	ocStepPool* pool = start.pool;
	// the pool was created at generation 0: a job handed out before this thread got the lock
	// is still seen as new
	unsigned seen = 0;
	pthread_mutex_lock(&pool->lock);
	for (;;)
	{
		while (pool->generation == seen && pool->quit == 0)
		{
			pthread_cond_wait(&pool->wake, &pool->lock);
		}
		if (pool->quit)
		{
			break;
		}
		seen = pool->generation;
		pthread_mutex_unlock(&pool->lock);
		oc_StepPool_Work(pool, start.worker);
		pthread_mutex_lock(&pool->lock);
		if (__atomic_sub_fetch(&pool->busy, 1, __ATOMIC_ACQ_REL) == 0)
		{
			pthread_cond_signal(&pool->done);
		}
		pthread_mutex_unlock(&pool->lock);
		oc_Spin(&pool->generation, seen, false);
		pthread_mutex_lock(&pool->lock);
	}
	pthread_mutex_unlock(&pool->lock);
	return NULL;
}
#else
struct ocStepPool
{
	int threads;
};
#endif

ocStepPool* oc_StepPool_Create(int threads)
{
#if OC_HAS_THREADS
	if (threads <= 1)
	{
		return NULL;
	}
	threads = threads > OC_MAX_THREADS ? OC_MAX_THREADS : threads;
	ocStepPool* pool = (ocStepPool*)calloc(1, sizeof(ocStepPool));
	if (pool == NULL)
	{
		return NULL;
	}
	pthread_mutex_init(&pool->lock, NULL);
	pthread_cond_init(&pool->wake, NULL);
	pthread_cond_init(&pool->done, NULL);
	pool->threads = threads;
	pool->started = 1;
	for (int w = 1; w < threads; ++w)
	{
		pool->starts[w].pool = pool;
		pool->starts[w].worker = w;
		if (pthread_create(&pool->handles[w], NULL, oc_StepPool_Main, &pool->starts[w]) != 0)
		{
			break;
		}
		pool->started = w + 1;
	}
	if (pool->started < threads)
	{
		oc_StepPool_Destroy(pool);
		return NULL;
	}
	return pool;
#else
	(void)threads;
	return NULL;
#endif
}

void oc_StepPool_Destroy(ocStepPool* pool)
{
#if OC_HAS_THREADS
	if (pool == NULL)
	{
		return;
	}
	pthread_mutex_lock(&pool->lock);
	pool->quit = 1;
	pthread_cond_broadcast(&pool->wake);
	pthread_mutex_unlock(&pool->lock);
	for (int w = 1; w < pool->started; ++w)
	{
		pthread_join(pool->handles[w], NULL);
	}
	pthread_cond_destroy(&pool->done);
	pthread_cond_destroy(&pool->wake);
	pthread_mutex_destroy(&pool->lock);
	free(pool);
#else
	(void)pool;
#endif
}

int oc_StepPool_GetWorkerCount(const ocStepPool* pool)
{
	return pool == NULL ? 1 : pool->threads;
}

void oc_StepPool_For(ocStepPool* pool, int n, int chunk, ocRangeTask task, void* context)
{
	if (n <= 0)
	{
		return;
	}
#if OC_HAS_THREADS
	if (pool != NULL && n > chunk)
	{
		pthread_mutex_lock(&pool->lock);
		pool->task = task;
		pool->context = context;
		pool->n = n;
		pool->chunk = chunk;
		// worker w's share: chunks [w * K / threads, (w + 1) * K / threads) of K
		int64_t chunks = (n - 1) / chunk + 1;
		for (int w = 0; w < pool->threads; ++w)
		{
			pool->cursors[w].next = (int)(chunks * w / pool->threads);
			pool->cursors[w].end = (int)(chunks * (w + 1) / pool->threads);
		}
		__atomic_store_n(&pool->busy, (unsigned)(pool->threads - 1), __ATOMIC_RELEASE);
		__atomic_add_fetch(&pool->generation, 1, __ATOMIC_RELEASE);
		pthread_cond_broadcast(&pool->wake);
		pthread_mutex_unlock(&pool->lock);
		oc_StepPool_Work(pool, 0);
		oc_Spin(&pool->busy, 0u, true);
		pthread_mutex_lock(&pool->lock);
		while (pool->busy > 0)
		{
			pthread_cond_wait(&pool->done, &pool->lock);
		}
		pthread_mutex_unlock(&pool->lock);
		return;
	}
#endif
	(void)chunk;
	(void)pool;
	task(context, 0, 0, n);
}

// oc_StepPool_For as the solver's ocParallelFor.
static void oc_StepPool_Run(void* pool, int n, int chunk, ocRangeTask task, void* context)
{
	oc_StepPool_For((ocStepPool*)pool, n, chunk, task, context);
}

void oc_Run_StepThreaded(ocSimulator* sim, double dt, ocStepPool* pool)
{
	oc_Run_StepThreadedBeside(sim, dt, pool, NULL, NULL);
}

void oc_Run_StepThreadedBeside(ocSimulator* sim, double dt, ocStepPool* pool, const ocSideJob* side,
							   const ocSideJob* after)
{
	// One thread: the simulator's own step, every pass in order.
	oc_Simulator_StepBeside(sim, dt, pool == NULL ? NULL : oc_StepPool_Run, pool, side, after);
}

// An ocParallelFor on the calling thread: the chunks last first, chunk k on workspace
// k % *workers.
static void oc_Interleave(void* workers, int n, int chunk, ocRangeTask task, void* context)
{
	int count = *(const int*)workers;
	for (int k = (n - 1) / chunk; k >= 0; --k)
	{
		int first = k * chunk;
		task(context, k % count, first, n - first < chunk ? n - first : chunk);
	}
}

void oc_Run_StepInterleaved(ocSimulator* sim, double dt, int workers)
{
	oc_Simulator_StepParallel(sim, dt, oc_Interleave, &workers);
}
