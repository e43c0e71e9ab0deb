// SPDX-License-Identifier: MIT
// ORCA conformance, C99 port of conformance/contract/driver.py (see driver.h).

#include "driver.h"
#include "fallback.h"
#include "linear_program.h"
#include "state_hash.h"
#include "step_threads.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define OC_GOLDEN_GAMMA UINT64_C(0x9E3779B97F4A7C15)

// Agents per chunk of the driver's passes through the pool (preferred velocities, finite check),
// and of the ranges of phase 2 (oc_Simulator_StepBeside), which the finite check also gets.
#define OC_STATE_CHUNK 256

// A chunk's finite flag: its state not finite, finite, not checked yet.
enum
{
	OC_NOT_FINITE = 0,
	OC_FINITE = 1,
	OC_UNCHECKED = 2
};

uint64_t oc_SplitMix64(uint64_t seed, uint64_t n)
{
	// unsigned 64-bit arithmetic wraps modulo 2^64, as the reference masks
	uint64_t z = seed + (n + 1) * OC_GOLDEN_GAMMA;
	z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
	return z ^ (z >> 31);
}

double oc_Uniform(uint64_t seed, uint64_t n)
{
	// a 53-bit integer minus 2^52 converts to double exactly, and 2^-52 scales exactly
	int64_t centred = (int64_t)(oc_SplitMix64(seed, n) >> 11) - (INT64_C(1) << 52);
	return (double)centred * (1.0 / 4503599627370496.0);
}

// Body of oc_PreferredVelocity with the position read from memory (the run's own call: an
// ocVec2 argument arrives in two registers, which the callee may join through the stack, a
// store-forwarding stall on every call); inline into the per-agent pass.
static inline ocVec2 oc_PreferredVelocityAt(const ocVec2* positionAt, const ocVec2* waypoints, int count, int* k,
											double goalRadius, double maxSpeed, double dt, uint64_t seed,
											double magnitude, int step, int agent, int agentCount)
{
	ocVec2 position = *positionAt;
	int last = count - 1;
	double reach2 = goalRadius * goalRadius;
	int index = *k;
	ocVec2 d = oc_Sub(waypoints[index], position);
	double dist2 = oc_Dot(d, d);
	while (index < last && dist2 <= reach2)
	{
		index += 1;
		d = oc_Sub(waypoints[index], position);
		dist2 = oc_Dot(d, d);
	}
	*k = index;
	double dist = sqrt(dist2);
	ocVec2 pref;
	if (dist <= maxSpeed * dt)
	{
		// arrive exactly this step, never overshoot
		pref = oc_MakeVec2(d.x / dt, d.y / dt);
	}
	else
	{
		// (d / dist) * speed: divide first, as the reference does
		pref = oc_MakeVec2(d.x / dist * maxSpeed, d.y / dist * maxSpeed);
	}
	if (magnitude > 0.0)
	{
		uint64_t n = 2 * ((uint64_t)step * (uint64_t)agentCount + (uint64_t)agent);
		pref.x = pref.x + magnitude * oc_Uniform(seed, n);
		pref.y = pref.y + magnitude * oc_Uniform(seed, n + 1);
	}
	return pref;
}

ocVec2 oc_PreferredVelocity(ocVec2 position, const ocVec2* waypoints, int count, int* k,
							double goalRadius, double maxSpeed, double dt, uint64_t seed,
							double magnitude, int step, int agent, int agentCount)
{
	return oc_PreferredVelocityAt(&position, waypoints, count, k, goalRadius, maxSpeed, dt, seed, magnitude, step,
								  agent, agentCount);
}

struct ocRun
{
	const ocScene* scene;
	ocSceneView view;
	ocSimulator* sim;
	int* waypoint;
	ocVec2* positions;
	ocVec2* velocities;
	ocVec2* preferred;
	ocVec2* newVelocities;
	// per-agent path only: one agent's constraints and the programs' scratch
	ocHalfPlane* planes;
	ocHalfPlane* scratch;
	// per chunk of OC_STATE_CHUNK agents: OC_NOT_FINITE, OC_FINITE or OC_UNCHECKED
	unsigned char* finite;
	// where oc_Run_PreferRange writes: preferred, or the simulator's own array during a step
	ocVec2* preferTarget;
	// the step whose positions `positions` holds (-1: none yet)
	int positionsStep;
	int step;
	int threads;
	// the workers of a threaded run (NULL for one thread)
	ocStepPool* pool;
	// workspaces of an interleaved run (0: not interleaved)
	int interleaved;
	bool perAgent;
};

// How oc_Run_Populate fills a simulator. Each way exercises other calls of its API, and all
// must give the same bits.
typedef enum ocFill
{
	// every agent added with its state and parameters
	ocFillBulk,
	// the workers sized first (so that adding grows every workspace), the agents added in two
	// batches with a grid built in between (so that adding must invalidate it)
	ocFillWorkersFirst,
	// every agent added blank (origin, zero velocity, zero parameters) and then configured with
	// the single-agent setters; the parameters last, after a grid was built over the blank
	// ones (so that setting them must invalidate it)
	ocFillBlankThenSet,
} ocFill;

// Fills run->sim with the scene's segments and agents; false when out of memory.
static bool oc_Run_Populate(ocRun* run, ocFill fill)
{
	ocSimulator* sim = run->sim;
	int n = run->view.agentCount;
	if (fill == ocFillWorkersFirst && oc_Simulator_SetWorkerCount(sim, run->threads) == false)
	{
		return false;
	}
	for (int s = 0; s < run->view.segmentCount; ++s)
	{
		const double* seg = run->view.segments + 4 * s;
		if (oc_Simulator_AddSegment(sim, oc_MakeVec2(seg[0], seg[1]), oc_MakeVec2(seg[2], seg[3])) < 0)
		{
			return false;
		}
	}
	ocAgentParams blank = { 0 };
	for (int i = 0; i < n; ++i)
	{
		const ocSceneAgent* agent = run->view.agents + i;
		if (fill == ocFillWorkersFirst && i == n / 2)
		{
			oc_Simulator_PrepareStep(sim);
		}
		if (fill != ocFillBlankThenSet)
		{
			if (oc_Simulator_AddAgent(sim, agent->position, &agent->params, agent->velocity) < 0)
			{
				return false;
			}
			continue;
		}
		if (oc_Simulator_AddAgent(sim, oc_MakeVec2(0.0, 0.0), &blank, oc_MakeVec2(0.0, 0.0)) < 0)
		{
			return false;
		}
		oc_Simulator_SetPosition(sim, i, agent->position);
		oc_Simulator_SetVelocity(sim, i, agent->velocity);
	}
	if (fill == ocFillBlankThenSet)
	{
		oc_Simulator_PrepareStep(sim);
		for (int i = 0; i < n; ++i)
		{
			oc_Simulator_SetAgentParams(sim, i, &run->view.agents[i].params);
		}
	}
	return true;
}

// Replaces the run's simulator with a fresh one filled the given way (before the first step).
static bool oc_Run_Refill(ocRun* run, ocFill fill)
{
	assert(run->step == 0);
	ocSimulator* sim = oc_Simulator_Create();
	if (sim == NULL)
	{
		return false;
	}
	oc_Simulator_Destroy(run->sim);
	run->sim = sim;
	run->positionsStep = -1;
	return oc_Run_Populate(run, fill);
}

ocRun* oc_Run_Create(const ocScene* scene)
{
	ocRun* run = (ocRun*)calloc(1, sizeof(ocRun));
	if (run == NULL)
	{
		return NULL;
	}
	run->scene = scene;
	run->view = oc_Scene_View(scene);
	run->threads = 1;
	run->positionsStep = -1;
	int n = run->view.agentCount;
	size_t slots = (size_t)(n > 0 ? n : 1);
	run->sim = oc_Simulator_Create();
	run->waypoint = (int*)calloc(slots, sizeof(int));
	run->positions = (ocVec2*)calloc(slots, sizeof(ocVec2));
	run->velocities = (ocVec2*)calloc(slots, sizeof(ocVec2));
	run->preferred = (ocVec2*)calloc(slots, sizeof(ocVec2));
	run->newVelocities = (ocVec2*)calloc(slots, sizeof(ocVec2));
	size_t planes = slots + (size_t)run->view.segmentCount;
	run->planes = (ocHalfPlane*)calloc(planes, sizeof(ocHalfPlane));
	run->scratch = (ocHalfPlane*)calloc(planes, sizeof(ocHalfPlane));
	run->finite = (unsigned char*)calloc(slots / OC_STATE_CHUNK + 1, 1);
	if (run->sim == NULL || run->waypoint == NULL || run->positions == NULL || run->velocities == NULL ||
		run->preferred == NULL || run->newVelocities == NULL || run->planes == NULL || run->scratch == NULL ||
		run->finite == NULL)
	{
		oc_Run_Destroy(run);
		return NULL;
	}
	if (oc_Run_Populate(run, ocFillBulk) == false)
	{
		oc_Run_Destroy(run);
		return NULL;
	}
	return run;
}

void oc_Run_Destroy(ocRun* run)
{
	if (run != NULL)
	{
		oc_StepPool_Destroy(run->pool);
		oc_Simulator_Destroy(run->sim);
		free(run->waypoint);
		free(run->positions);
		free(run->velocities);
		free(run->preferred);
		free(run->newVelocities);
		free(run->planes);
		free(run->scratch);
		free(run->finite);
		free(run);
	}
}

int oc_Run_GetStep(const ocRun* run)
{
	return run->step;
}

int oc_Run_GetAgentCount(const ocRun* run)
{
	return run->view.agentCount;
}

bool oc_Run_SetThreads(ocRun* run, int threads)
{
	run->threads = threads < 1 ? 1 : threads;
	oc_StepPool_Destroy(run->pool);
	// no pool when threads cannot start: the same work on one thread, the same bits
	run->pool = oc_StepPool_Create(run->threads);
	if (run->threads == 1 || oc_Run_Refill(run, ocFillWorkersFirst))
	{
		return true;
	}
	// without a workspace per worker the pool must not run
	oc_StepPool_Destroy(run->pool);
	run->pool = NULL;
	return false;
}

bool oc_Run_SetInterleaved(ocRun* run, int workers)
{
	oc_StepPool_Destroy(run->pool);
	run->pool = NULL;
	run->threads = workers < 1 ? 1 : workers;
	run->interleaved = run->threads;
	return oc_Run_Refill(run, ocFillWorkersFirst);
}

bool oc_Run_SetPerAgent(ocRun* run, bool perAgent)
{
	run->perAgent = perAgent;
	return oc_Run_Refill(run, perAgent ? ocFillBlankThenSet : ocFillBulk);
}

void oc_Run_CanonicalState(const ocRun* run, unsigned char* out)
{
	int n = run->view.agentCount;
	oc_Simulator_GetPositions(run->sim, run->positions);
	oc_Simulator_GetVelocities(run->sim, run->velocities);
	oc_CanonicalBytes(run->positions, run->velocities, n, out);
}

// Preferred velocities of agents [first, first + count) from the current positions (advances
// their waypoint indices, which is idempotent for a given state). Each agent reads only its own
// data, so the pool's workers may take any chunks.
static void oc_Run_PreferRange(void* context, int worker, int first, int count)
{
	ocRun* run = (ocRun*)context;
	const ocSceneView* view = &run->view;
	int n = view->agentCount;
	(void)worker;
	for (int i = first; i < first + count; ++i)
	{
		const ocSceneAgent* agent = view->agents + i;
		run->preferTarget[i] = oc_PreferredVelocityAt(
			run->positions + i, view->waypoints + agent->firstWaypoint, agent->waypointCount, run->waypoint + i,
			agent->goalRadius, agent->params.maxSpeed, view->dt, view->seed, view->magnitude, run->step, i, n);
	}
}

// run->positions from the simulator, unless they already hold this step's (read at the end
// of the last step: nothing moves the agents between steps).
static void oc_Run_ReadPositions(ocRun* run)
{
	if (run->positionsStep != run->step)
	{
		oc_Simulator_GetPositions(run->sim, run->positions);
		run->positionsStep = run->step;
	}
}

// Preferred velocities of every agent from the current state, into run->preferred and the
// simulator.
static void oc_Run_Prefer(ocRun* run)
{
	oc_Run_ReadPositions(run);
	run->preferTarget = run->preferred;
	oc_StepPool_For(run->pool, run->view.agentCount, OC_STATE_CHUNK, oc_Run_PreferRange, run);
	oc_Simulator_SetPreferredVelocities(run->sim, run->preferred);
}

// One step through the single-agent calls of the simulator's API, the way an embedder that
// drives agents one by one would take it: a preferred velocity per agent; new velocities
// through oc_Simulator_NewVelocity or through the exported constraint list and the two
// programs (alternating by agent and step, so every agent takes both ways); then phase 2,
// velocity and position = position + velocity * dt, by oc_Simulator_Apply on even steps and
// per agent through the setters on odd ones. Same bits as the bulk path, or a bug.
static void oc_Run_StepPerAgent(ocRun* run)
{
	ocSimulator* sim = run->sim;
	const ocSceneView* view = &run->view;
	int n = view->agentCount;
	double dt = view->dt;
	for (int i = 0; i < n; ++i)
	{
		const ocSceneAgent* agent = view->agents + i;
		ocVec2 position = oc_Simulator_GetPosition(sim, i);
		ocVec2 preferred = oc_PreferredVelocity(position, view->waypoints + agent->firstWaypoint, agent->waypointCount,
												run->waypoint + i, agent->goalRadius, agent->params.maxSpeed, dt,
												view->seed, view->magnitude, run->step, i, n);
		oc_Simulator_SetPreferredVelocity(sim, i, preferred);
	}
	for (int i = 0; i < n; ++i)
	{
		if ((i + run->step) % 2 == 0)
		{
			run->newVelocities[i] = oc_Simulator_NewVelocity(sim, i, dt);
			continue;
		}
		int hardCount;
		int count = oc_Simulator_Constraints(sim, i, dt, run->planes, &hardCount);
		double speed = oc_Simulator_GetAgentParams(sim, i).maxSpeed;
		ocSolveResult result = oc_SolveClosest(run->planes, count, speed, oc_Simulator_GetPreferredVelocity(sim, i));
		run->newVelocities[i] = result.failed >= 0
									? oc_Relax(run->planes, count, hardCount, speed, result.failed, run->scratch)
									: result.velocity;
	}
	if (run->step % 2 == 0)
	{
		oc_Simulator_Apply(sim, run->newVelocities, dt);
		return;
	}
	for (int i = 0; i < n; ++i)
	{
		ocVec2 v = run->newVelocities[i];
		oc_Simulator_SetVelocity(sim, i, v);
		oc_Simulator_SetPosition(sim, i, oc_Add(oc_Simulator_GetPosition(sim, i), oc_Scale(v, dt)));
	}
}

// The interleaved path's step: on odd steps oc_Run_StepInterleaved (the step's own passes, their
// chunks last first); on even steps the per-range calls of an embedder that brings its own
// threads: oc_Simulator_PrepareStep, then oc_Simulator_NewVelocitiesOnWorker over the chunks of
// 32 agents, last first, chunk k on workspace k % workers, then oc_Simulator_Apply. Those calls
// use the grid as the simulator left it, so step 0 holds adding an agent to marking the grid
// stale (the fill builds it halfway through, ocFillWorkersFirst) and every later even step holds
// the step before to it.
static void oc_Run_StepInterleavedOrPerRange(ocRun* run)
{
	ocSimulator* sim = run->sim;
	double dt = run->view.dt;
	if (run->step % 2 != 0)
	{
		oc_Run_StepInterleaved(sim, dt, run->interleaved);
		return;
	}
	int n = run->view.agentCount;
	oc_Simulator_PrepareStep(sim);
	for (int k = (n - 1) / 32; k >= 0; --k)
	{
		int first = 32 * k;
		int count = n - first < 32 ? n - first : 32;
		oc_Simulator_NewVelocitiesOnWorker(sim, k % run->interleaved, dt, first, count, run->newVelocities + first);
	}
	oc_Simulator_Apply(sim, run->newVelocities, dt);
}

// The step and state passes of oc_Run_Advance (defined after it).
static void oc_Run_StepBeside(ocRun* run);
static bool oc_Run_AllChecked(const ocRun* run);
static bool oc_Run_AllFinite(const ocRun* run);
static bool oc_Run_ReadFinite(ocRun* run);

int oc_Run_Advance(ocRun* run, int count, unsigned char* out)
{
	int n = run->view.agentCount;
	size_t stride = (size_t)n * OC_AGENT_BYTES;
	for (int s = 0; s < count; ++s)
	{
		if (n > 0 && run->perAgent)
		{
			oc_Run_StepPerAgent(run);
		}
		else if (n > 0 && run->interleaved > 0)
		{
			oc_Run_Prefer(run);
			oc_Run_StepInterleavedOrPerRange(run);
		}
		else if (n > 0)
		{
			oc_Run_StepBeside(run);
		}
		// the bulk step read and checked every range of phase 2 as it went (oc_Run_StepBeside),
		// unless a range was left unchecked; every other way reads and checks now
		bool checked = n > 0 && run->perAgent == false && run->interleaved == 0 && oc_Run_AllChecked(run);
		run->step += 1;
		run->positionsStep = run->step;
		if (!(checked ? oc_Run_AllFinite(run) : oc_Run_ReadFinite(run)))
		{
			return s + 1;
		}
		if (out != NULL)
		{
			oc_CanonicalBytes(run->positions, run->velocities, n, out + (size_t)s * stride);
		}
	}
	return 0;
}

// Sets the flag of the chunk of agents [first, first + count) (on a call over several chunks,
// of its first chunk, for all of them): OC_NOT_FINITE when a coordinate of their state is not
// finite, else OC_FINITE. In the bulk path it first copies their state from the simulator
// (range by range in the pool's pass, not on one thread).
static void oc_Run_FiniteRange(void* context, int worker, int first, int count)
{
	ocRun* run = (ocRun*)context;
	(void)worker;
	if (run->perAgent == false)
	{
		size_t bytes = (size_t)count * sizeof(ocVec2);
		memcpy(run->positions + first, oc_Simulator_PositionArray(run->sim) + first, bytes);
		memcpy(run->velocities + first, oc_Simulator_VelocityArray(run->sim) + first, bytes);
	}
	run->finite[first / OC_STATE_CHUNK] =
		oc_IsFiniteState(run->positions + first, run->velocities + first, count) ? OC_FINITE : OC_NOT_FINITE;
}

// One step through the run's pool: the preferred velocities computed into the simulator's own
// array beside the grid build's serial cell insert, and each range of phase 2 read and checked
// (oc_Run_FiniteRange) right after it (oc_Run_StepThreadedBeside); then the flags tell.
static void oc_Run_StepBeside(ocRun* run)
{
	int n = run->view.agentCount;
	oc_Run_ReadPositions(run);
	run->preferTarget = oc_Simulator_PreferredVelocities(run->sim);
	memset(run->finite, OC_UNCHECKED, (size_t)(n / OC_STATE_CHUNK + 1));
	ocSideJob side = { oc_Run_PreferRange, run, n, OC_STATE_CHUNK };
	ocSideJob after = { oc_Run_FiniteRange, run, n, OC_STATE_CHUNK };
	oc_Run_StepThreadedBeside(run->sim, run->view.dt, run->pool, &side, &after);
}

// The state into run->positions and run->velocities by the single-agent getters (the bulk
// path copies it range by range in oc_Run_FiniteRange).
static void oc_Run_ReadStatePerAgent(ocRun* run)
{
	for (int i = 0; i < run->view.agentCount; ++i)
	{
		run->positions[i] = oc_Simulator_GetPosition(run->sim, i);
		run->velocities[i] = oc_Simulator_GetVelocity(run->sim, i);
	}
}

// Whether no chunk's flag says its state is not finite.
static bool oc_Run_AllFinite(const ocRun* run)
{
	int chunks = run->view.agentCount / OC_STATE_CHUNK + 1;
	for (int k = 0; k < chunks; ++k)
	{
		if (run->finite[k] == OC_NOT_FINITE)
		{
			return false;
		}
	}
	return true;
}

// Whether every chunk of agents has been checked (a chunk k * OC_STATE_CHUNK < agentCount).
static bool oc_Run_AllChecked(const ocRun* run)
{
	for (int k = 0; k * OC_STATE_CHUNK < run->view.agentCount; ++k)
	{
		if (run->finite[k] == OC_UNCHECKED)
		{
			return false;
		}
	}
	return true;
}

// Reads the state into run->positions and run->velocities and tells whether every coordinate
// of it is finite, checked through the pool's workers (each chunk writes only its own flag
// and state range).
static bool oc_Run_ReadFinite(ocRun* run)
{
	int n = run->view.agentCount;
	if (run->perAgent)
	{
		oc_Run_ReadStatePerAgent(run);
	}
	memset(run->finite, OC_FINITE, (size_t)(n / OC_STATE_CHUNK + 1));
	oc_StepPool_For(run->pool, n, OC_STATE_CHUNK, oc_Run_FiniteRange, run);
	return oc_Run_AllFinite(run);
}

void oc_Run_Dump(ocRun* run, double* out)
{
	int n = run->view.agentCount;
	if (n == 0)
	{
		return;
	}
	oc_Run_Prefer(run);
	oc_Simulator_GetVelocities(run->sim, run->velocities);
	for (int i = 0; i < n; ++i)
	{
		double* row = out + 6 * (size_t)i;
		row[0] = run->positions[i].x;
		row[1] = run->positions[i].y;
		row[2] = run->velocities[i].x;
		row[3] = run->velocities[i].y;
		row[4] = run->preferred[i].x;
		row[5] = run->preferred[i].y;
	}
}
