// SPDX-License-Identifier: MIT
// ORCA conformance: the step split across worker threads. The text: agents are independent in
// phase 1, so any split by index, any number of workers, gives the same bits. Each worker has
// its own scratch workspace in the simulator; the grid is built once before the workers start.
// Compiled out (single-threaded) with -DOC_NO_THREADS, e.g. for wasm.

#include "step_threads.h"

#include <stdlib.h>

#if !defined(OC_NO_THREADS) && !defined(_WIN32)
#include <pthread.h>
#define OC_HAS_THREADS 1
#else
#define OC_HAS_THREADS 0
#endif

enum
{
	OC_MAX_THREADS = 64,
	// agents per claimed chunk of phase 1: small enough that the workers finish together,
	// large enough that claiming costs nothing next to the work
	OC_STEP_CHUNK = 32
};

#if OC_HAS_THREADS
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
	unsigned generation;
	int busy;
	int quit;
	// the current job
	ocRangeTask* task;
	void* context;
	int n;
	int chunk;
	int next;
};

// Claims chunks of the current job until none is left.
static void oc_StepPool_Work(ocStepPool* pool, int worker)
{
	for (;;)
	{
		int first = __atomic_fetch_add(&pool->next, pool->chunk, __ATOMIC_RELAXED);
		if (first >= pool->n)
		{
			return;
		}
		int count = pool->n - first < pool->chunk ? pool->n - first : pool->chunk;
		pool->task(pool->context, worker, first, count);
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
		if (--pool->busy == 0)
		{
			pthread_cond_signal(&pool->done);
		}
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

void oc_StepPool_For(ocStepPool* pool, int n, int chunk, ocRangeTask* task, void* context)
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
		pool->next = 0;
		pool->busy = pool->threads - 1;
		pool->generation += 1;
		pthread_cond_broadcast(&pool->wake);
		pthread_mutex_unlock(&pool->lock);
		oc_StepPool_Work(pool, 0);
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

typedef struct ocPhaseOne
{
	ocSimulator* sim;
	double dt;
	ocVec2* out;
} ocPhaseOne;

static void oc_PhaseOneRange(void* context, int worker, int first, int count)
{
	ocPhaseOne* job = (ocPhaseOne*)context;
	oc_Simulator_NewVelocitiesOnWorker(job->sim, worker, job->dt, first, count, job->out + first);
}

void oc_Run_StepThreaded(ocSimulator* sim, double dt, ocStepPool* pool, ocVec2* scratch)
{
	if (pool == NULL)
	{
		// One thread: the simulator's own step (phase 1 into its scratch, then phase 2).
		oc_Simulator_Step(sim, dt);
		return;
	}
	ocPhaseOne job = { sim, dt, scratch };
	oc_Simulator_PrepareStep(sim);
	oc_StepPool_For(pool, oc_Simulator_GetAgentCount(sim), OC_STEP_CHUNK, oc_PhaseOneRange, &job);
	oc_Simulator_Apply(sim, scratch, dt);
}
