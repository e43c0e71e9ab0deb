// SPDX-License-Identifier: MIT
// ORCA solver, C99 port of conformance/solver/simulator.py.

#include "simulator.h"

#include "constraint.h"
#include "fallback.h"
#include "linear_program.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

// Neighbours remembered per agent for the next query's head start.
#define OC_RECENT_NEIGHBORS 16

// The nearest neighbours an agent's last query found (at most OC_RECENT_NEIGHBORS of them).
typedef struct ocRecentNeighbors
{
	int index[OC_RECENT_NEIGHBORS];
	int count;
} ocRecentNeighbors;

// Scratch of one phase-1 worker. Every array is sized by the simulator's capacities, so the
// step never allocates. Each worker has its own, so workers never share writable memory.
typedef struct ocWorkspace
{
	// constraint list: segmentCapacity + agentCapacity
	ocHalfPlane* planes;
	// fallback programs: segmentCapacity + agentCapacity
	ocHalfPlane* program;
	// agent neighbour list: agentCapacity
	ocNeighbor* agentNeighbors;
	// obstacle neighbour list: segmentCapacity
	ocNeighbor* obstacleNeighbors;
	// per agent, nonzero while it seeds the query in progress (oc_AgentGrid_NeighborsSeeded),
	// else zero: agentCapacity
	unsigned char* seeded;
} ocWorkspace;

struct ocSimulator
{
	// agents, parallel arrays by agent index
	ocVec2* positions;
	ocVec2* velocities;
	ocVec2* preferred;
	ocAgentParams* params;
	// phase-1 results of Step
	ocVec2* newVelocities;
	int agentCount;
	int agentCapacity;

	ocSegment* segments;
	int segmentCount;
	int segmentCapacity;

	// neighbour grid over the current positions, rebuilt when they changed
	ocAgentGrid* grid;
	bool gridValid;

	// the largest neighbour distance (the grid's cell width), recomputed when one may change
	double widest;
	bool widestValid;

	// per agent, the neighbours its last query found: the next query's head start
	// (oc_Simulator_RecentBound); speed only
	ocRecentNeighbors* recent;

	// one workspace per phase-1 worker, workerCount >= 1; worker 0 serves the unthreaded calls
	ocWorkspace* workspaces;
	int workerCount;
};

ocSimulator* oc_Simulator_Create(void)
{
	ocSimulator* sim = (ocSimulator*)calloc(1, sizeof(ocSimulator));
	if (sim == NULL)
	{
		return NULL;
	}
	sim->grid = oc_AgentGrid_Create();
	sim->workspaces = (ocWorkspace*)calloc(1, sizeof(ocWorkspace));
	if (sim->grid == NULL || sim->workspaces == NULL)
	{
		oc_AgentGrid_Destroy(sim->grid);
		free(sim->workspaces);
		free(sim);
		return NULL;
	}
	sim->workerCount = 1;
	return sim;
}

static void oc_FreeWorkspace(ocWorkspace* ws)
{
	free(ws->planes);
	free(ws->program);
	free(ws->agentNeighbors);
	free(ws->obstacleNeighbors);
	free(ws->seeded);
}

void oc_Simulator_Destroy(ocSimulator* sim)
{
	if (sim == NULL)
	{
		return;
	}
	free(sim->positions);
	free(sim->velocities);
	free(sim->preferred);
	free(sim->params);
	free(sim->newVelocities);
	free(sim->recent);
	free(sim->segments);
	oc_AgentGrid_Destroy(sim->grid);
	for (int w = 0; w < sim->workerCount; ++w)
	{
		oc_FreeWorkspace(sim->workspaces + w);
	}
	free(sim->workspaces);
	free(sim);
}

// Grows *array to hold count elements of the given size; false (array untouched) on failure.
static bool oc_Grow(void** array, int count, size_t size)
{
	// Nothing to hold (e.g. no segment yet); realloc(p, 0) may free p and return NULL.
	if (count <= 0)
	{
		return true;
	}

	void* p = realloc(*array, (size_t)count * size);
	if (p == NULL)
	{
		return false;
	}
	*array = p;
	return true;
}

// Sizes a workspace for the given capacities; false (workspace still valid) on failure.
static bool oc_GrowWorkspace(ocWorkspace* ws, int agentCapacity, int segmentCapacity)
{
	int planes = agentCapacity + segmentCapacity;
	if (oc_Grow((void**)&ws->planes, planes, sizeof(ocHalfPlane)) == false ||
		oc_Grow((void**)&ws->program, planes, sizeof(ocHalfPlane)) == false ||
		oc_Grow((void**)&ws->agentNeighbors, agentCapacity, sizeof(ocNeighbor)) == false ||
		oc_Grow((void**)&ws->obstacleNeighbors, segmentCapacity, sizeof(ocNeighbor)) == false)
	{
		return false;
	}
	// all zero between queries, so a fresh zeroed array replaces the old one
	if (agentCapacity > 0)
	{
		unsigned char* seeded = (unsigned char*)calloc((size_t)agentCapacity, 1);
		if (seeded == NULL)
		{
			return false;
		}
		free(ws->seeded);
		ws->seeded = seeded;
	}
	return true;
}

static bool oc_GrowWorkspaces(ocSimulator* sim, int agentCapacity, int segmentCapacity)
{
	for (int w = 0; w < sim->workerCount; ++w)
	{
		if (oc_GrowWorkspace(sim->workspaces + w, agentCapacity, segmentCapacity) == false)
		{
			return false;
		}
	}
	return true;
}

int oc_Simulator_AddAgent(ocSimulator* sim, ocVec2 position, const ocAgentParams* params, ocVec2 velocity)
{
	if (sim->agentCount == sim->agentCapacity)
	{
		int capacity = sim->agentCapacity < 16 ? 16 : 2 * sim->agentCapacity;
		// The capacity is raised only when every array has grown, so a failure leaves a
		// consistent simulator (some arrays merely larger).
		if (oc_Grow((void**)&sim->positions, capacity, sizeof(ocVec2)) == false ||
			oc_Grow((void**)&sim->velocities, capacity, sizeof(ocVec2)) == false ||
			oc_Grow((void**)&sim->preferred, capacity, sizeof(ocVec2)) == false ||
			oc_Grow((void**)&sim->params, capacity, sizeof(ocAgentParams)) == false ||
			oc_Grow((void**)&sim->newVelocities, capacity, sizeof(ocVec2)) == false ||
			oc_Grow((void**)&sim->recent, capacity, sizeof(ocRecentNeighbors)) == false ||
			oc_GrowWorkspaces(sim, capacity, sim->segmentCapacity) == false ||
			oc_AgentGrid_Reserve(sim->grid, capacity) == false)
		{
			return -1;
		}
		sim->agentCapacity = capacity;
	}

	int index = sim->agentCount;
	sim->positions[index] = position;
	sim->velocities[index] = velocity;
	sim->preferred[index] = oc_MakeVec2(0.0, 0.0);
	sim->params[index] = *params;
	sim->recent[index].count = 0;
	sim->agentCount += 1;
	sim->gridValid = false;
	sim->widestValid = false;
	return index;
}

int oc_Simulator_AddSegment(ocSimulator* sim, ocVec2 a, ocVec2 b)
{
	if (sim->segmentCount == sim->segmentCapacity)
	{
		int capacity = sim->segmentCapacity < 16 ? 16 : 2 * sim->segmentCapacity;
		if (oc_Grow((void**)&sim->segments, capacity, sizeof(ocSegment)) == false ||
			oc_GrowWorkspaces(sim, sim->agentCapacity, capacity) == false)
		{
			return -1;
		}
		sim->segmentCapacity = capacity;
	}

	int index = sim->segmentCount;
	sim->segments[index].a = a;
	sim->segments[index].b = b;
	sim->segmentCount += 1;
	return index;
}

int oc_Simulator_GetAgentCount(const ocSimulator* sim)
{
	return sim->agentCount;
}

int oc_Simulator_GetSegmentCount(const ocSimulator* sim)
{
	return sim->segmentCount;
}

ocVec2 oc_Simulator_GetPosition(const ocSimulator* sim, int agent)
{
	assert(0 <= agent && agent < sim->agentCount);
	return sim->positions[agent];
}

void oc_Simulator_SetPosition(ocSimulator* sim, int agent, ocVec2 position)
{
	assert(0 <= agent && agent < sim->agentCount);
	sim->positions[agent] = position;
	sim->gridValid = false;
}

ocVec2 oc_Simulator_GetVelocity(const ocSimulator* sim, int agent)
{
	assert(0 <= agent && agent < sim->agentCount);
	return sim->velocities[agent];
}

void oc_Simulator_SetVelocity(ocSimulator* sim, int agent, ocVec2 velocity)
{
	assert(0 <= agent && agent < sim->agentCount);
	sim->velocities[agent] = velocity;
}

ocVec2 oc_Simulator_GetPreferredVelocity(const ocSimulator* sim, int agent)
{
	assert(0 <= agent && agent < sim->agentCount);
	return sim->preferred[agent];
}

void oc_Simulator_SetPreferredVelocity(ocSimulator* sim, int agent, ocVec2 velocity)
{
	assert(0 <= agent && agent < sim->agentCount);
	sim->preferred[agent] = velocity;
}

ocAgentParams oc_Simulator_GetAgentParams(const ocSimulator* sim, int agent)
{
	assert(0 <= agent && agent < sim->agentCount);
	return sim->params[agent];
}

void oc_Simulator_SetAgentParams(ocSimulator* sim, int agent, const ocAgentParams* params)
{
	assert(0 <= agent && agent < sim->agentCount);
	sim->params[agent] = *params;
	// the cell width depends on the largest neighbour distance
	sim->gridValid = false;
	sim->widestValid = false;
}

void oc_Simulator_GetPositions(const ocSimulator* sim, ocVec2* out)
{
	if (sim->agentCount > 0)
	{
		memcpy(out, sim->positions, (size_t)sim->agentCount * sizeof(ocVec2));
	}
}

void oc_Simulator_GetVelocities(const ocSimulator* sim, ocVec2* out)
{
	if (sim->agentCount > 0)
	{
		memcpy(out, sim->velocities, (size_t)sim->agentCount * sizeof(ocVec2));
	}
}

void oc_Simulator_SetPreferredVelocities(ocSimulator* sim, const ocVec2* velocities)
{
	if (sim->agentCount > 0)
	{
		memcpy(sim->preferred, velocities, (size_t)sim->agentCount * sizeof(ocVec2));
	}
}

// Builds the neighbour grid over the current positions, its passes through parallelFor (NULL:
// on this thread), side (NULL: none) in the pass of its serial cell insert
// (oc_AgentGrid_BuildBeside). Never allocates: AddAgent reserved the grid for the agent capacity.
static void oc_Simulator_BuildGrid(ocSimulator* sim, ocParallelFor parallelFor, void* runner, const ocSideJob* side)
{
	// max(neighborDistance) as Python's max(): the first value, replaced only by a strictly
	// greater one (this fixes the outcome when a NaN is present).
	if (sim->widestValid == false)
	{
		double widest = 0.0;
		for (int i = 0; i < sim->agentCount; ++i)
		{
			double nd = sim->params[i].neighborDistance;
			if (i == 0 || nd > widest)
			{
				widest = nd;
			}
		}
		sim->widest = widest;
		sim->widestValid = true;
	}

	bool built = oc_AgentGrid_BuildBeside(sim->grid, sim->positions, sim->agentCount, sim->widest, parallelFor, runner,
										  side);
	assert(built);
	(void)built;
	sim->gridValid = true;
}

// Builds the neighbour grid (oc_Simulator_BuildGrid, no side job) unless it is up to date.
static void oc_Simulator_PrepareGrid(ocSimulator* sim, ocParallelFor parallelFor, void* runner)
{
	if (sim->gridValid == false)
	{
		oc_Simulator_BuildGrid(sim, parallelFor, runner, NULL);
	}
}

// A head start for agent i's neighbour query (oc_AgentGrid_NeighborsSeeded): the largest squared distance
// now, computed as the query computes it, of the cap = min(maxNeighbors, agentCount - 1) nearest neighbours
// of its last query. Those are cap distinct other agents, so the cap-th nearest is no farther.
// neighborDistance squared (no head start) when the last query found fewer, or when one of them is no longer
// a candidate (not strictly within neighborDistance, NaN included). The neighbours of the last query (cap of
// them, or all when it found fewer) are also the query's seeds (into seed, their count into *seedCount),
// unless one of them is no longer a candidate (no seeds then). Never changes the neighbours found, only how
// many candidates the query looks at and in which order.
static double oc_Simulator_RecentBound(const ocSimulator* sim, int i, ocVec2 position, const ocAgentParams* prm,
									   ocNeighbor* seed, int* seedCount)
{
	double limit = prm->neighborDistance * prm->neighborDistance;
	int cap = prm->maxNeighbors < sim->agentCount - 1 ? prm->maxNeighbors : sim->agentCount - 1;
	const ocRecentNeighbors* recent = sim->recent + i;
	*seedCount = 0;
	if (cap <= 0)
	{
		return limit;
	}
	int use = recent->count < cap ? recent->count : cap;
	double bound = 0.0;
	for (int k = 0; k < use; ++k)
	{
		int j = recent->index[k];
		ocVec2 d = oc_Sub(sim->positions[j], position);
		double d2 = oc_Dot(d, d);
		if (!(d2 < limit))
		{
			return limit;
		}
		bound = d2 > bound ? d2 : bound;
		seed[k].distanceSquared = d2;
		seed[k].index = j;
	}
	*seedCount = use;
	return use == cap ? bound : limit;
}

// Keeps the first OC_RECENT_NEIGHBORS of agent i's neighbours for its next query.
static void oc_Simulator_Remember(ocSimulator* sim, int i, const ocNeighbor* found, int count)
{
	int keep = count < OC_RECENT_NEIGHBORS ? count : OC_RECENT_NEIGHBORS;
	ocRecentNeighbors* recent = sim->recent + i;
	for (int k = 0; k < keep; ++k)
	{
		recent->index[k] = found[k].index;
	}
	recent->count = keep;
}

// Constraint list of agent i into planes: obstacles within reach by (d2, index), which are
// hard, then agent neighbours by (d2, index). Returns the count; the grid must be current.
static int oc_Simulator_BuildConstraints(ocSimulator* sim, ocWorkspace* ws, int i, double dt, ocHalfPlane* planes,
										 int* hardCount)
{
	const ocAgentParams* prm = sim->params + i;
	ocVec2 position = sim->positions[i];
	int count = 0;

	if (sim->segmentCount > 0)
	{
		// obstacleHorizon * maxSpeed + radius: product, then sum (never fused).
		double reach = prm->timeHorizonObst * prm->maxSpeed + prm->radius;
		int found = oc_ObstacleNeighbors(position, reach, sim->segments, sim->segmentCount, ws->obstacleNeighbors);
		for (int k = 0; k < found; ++k)
		{
			const ocSegment* segment = sim->segments + ws->obstacleNeighbors[k].index;
			planes[count++] = oc_SegmentConstraint(oc_Sub(segment->a, position), oc_Sub(segment->b, position),
												   prm->radius, prm->timeHorizonObst, dt);
		}
	}
	*hardCount = count;

	ocNeighbor seed[OC_RECENT_NEIGHBORS];
	int seedCount;
	double bound = oc_Simulator_RecentBound(sim, i, position, prm, seed, &seedCount);
	for (int k = 0; k < seedCount; ++k)
	{
		ws->seeded[seed[k].index] = 1;
	}
	int found = oc_AgentGrid_NeighborsSeeded(sim->grid, i, prm->neighborDistance, prm->maxNeighbors, bound, seed,
											 seedCount, seedCount > 0 ? ws->seeded : NULL, ws->agentNeighbors);
	for (int k = 0; k < seedCount; ++k)
	{
		ws->seeded[seed[k].index] = 0;
	}
	oc_Simulator_Remember(sim, i, ws->agentNeighbors, found);
	if (found > 0)
	{
		ocVec2 velocity = sim->velocities[i];
		double radius = prm->radius;
		double tau = prm->timeHorizon;
		for (int k = 0; k < found; ++k)
		{
			int j = ws->agentNeighbors[k].index;
			// a = pj - pi and r = ri + rj, as the reference forms them.
			ocVec2 a = oc_Sub(sim->positions[j], position);
			double r = radius + sim->params[j].radius;
			planes[count++] = oc_AgentConstraintInline(a, r, tau, dt, velocity, sim->velocities[j]);
		}
	}
	return count;
}

static ocVec2 oc_Simulator_ComputeVelocity(ocSimulator* sim, ocWorkspace* ws, int i, double dt)
{
	int hardCount;
	int count = oc_Simulator_BuildConstraints(sim, ws, i, dt, ws->planes, &hardCount);
	double speed = sim->params[i].maxSpeed;
	ocSolveResult result = oc_SolveClosestAt(ws->planes, count, speed, sim->preferred + i);
	if (result.failed >= 0)
	{
		return oc_Relax(ws->planes, count, hardCount, speed, result.failed, ws->program);
	}
	return result.velocity;
}

int oc_Simulator_Constraints(ocSimulator* sim, int agent, double dt, ocHalfPlane* out, int* hardCount)
{
	assert(0 <= agent && agent < sim->agentCount);
	oc_Simulator_PrepareGrid(sim, NULL, NULL);
	return oc_Simulator_BuildConstraints(sim, sim->workspaces, agent, dt, out, hardCount);
}

ocVec2 oc_Simulator_NewVelocity(ocSimulator* sim, int agent, double dt)
{
	assert(0 <= agent && agent < sim->agentCount);
	oc_Simulator_PrepareGrid(sim, NULL, NULL);
	return oc_Simulator_ComputeVelocity(sim, sim->workspaces, agent, dt);
}

bool oc_Simulator_SetWorkerCount(ocSimulator* sim, int workerCount)
{
	if (workerCount < 1)
	{
		workerCount = 1;
	}
	if (workerCount <= sim->workerCount)
	{
		return true;
	}

	ocWorkspace* workspaces = (ocWorkspace*)realloc(sim->workspaces, (size_t)workerCount * sizeof(ocWorkspace));
	if (workspaces == NULL)
	{
		return false;
	}
	sim->workspaces = workspaces;
	for (int w = sim->workerCount; w < workerCount; ++w)
	{
		memset(workspaces + w, 0, sizeof(ocWorkspace));
		if (oc_GrowWorkspace(workspaces + w, sim->agentCapacity, sim->segmentCapacity) == false)
		{
			// keep the workspaces that are complete; free the partial one
			oc_FreeWorkspace(workspaces + w);
			sim->workerCount = w;
			return false;
		}
	}
	sim->workerCount = workerCount;
	return true;
}

int oc_Simulator_GetWorkerCount(const ocSimulator* sim)
{
	return sim->workerCount;
}

void oc_Simulator_PrepareStep(ocSimulator* sim)
{
	oc_Simulator_PrepareGrid(sim, NULL, NULL);
}

void oc_Simulator_NewVelocitiesOnWorker(ocSimulator* sim, int worker, double dt, int first, int count, ocVec2* out)
{
	if (count <= 0)
	{
		return;
	}
	assert(0 <= worker && worker < sim->workerCount);
	assert(0 <= first && first + count <= sim->agentCount);

	// Agents are independent in phase 1: each reads only the start-of-step state (and the grid built from it), so
	// any split of the index range, on any workers, gives the same bits. The build is skipped when PrepareStep
	// already ran, so concurrent calls only read shared memory and write their own workspace and out.
	oc_Simulator_PrepareGrid(sim, NULL, NULL);
	ocWorkspace* ws = sim->workspaces + worker;
	for (int k = 0; k < count; ++k)
	{
		out[k] = oc_Simulator_ComputeVelocity(sim, ws, first + k, dt);
	}
}

void oc_Simulator_NewVelocities(ocSimulator* sim, double dt, int first, int count, ocVec2* out)
{
	oc_Simulator_NewVelocitiesOnWorker(sim, 0, dt, first, count, out);
}

// What the phase tasks of a step read: phase 1 writes sim->newVelocities, phase 2 applies them
// and runs after (NULL: none) on each of its ranges.
typedef struct ocPhaseJob
{
	ocSimulator* sim;
	double dt;
	const ocVec2* newVelocities;
	const ocSideJob* after;
} ocPhaseJob;

static void oc_Simulator_PhaseOneTask(void* context, int worker, int first, int count)
{
	ocPhaseJob* job = (ocPhaseJob*)context;
	oc_Simulator_NewVelocitiesOnWorker(job->sim, worker, job->dt, first, count, job->sim->newVelocities + first);
}

static void oc_Simulator_PhaseTwoTask(void* context, int worker, int first, int count)
{
	ocPhaseJob* job = (ocPhaseJob*)context;
	ocSimulator* sim = job->sim;
	for (int i = first; i < first + count; ++i)
	{
		ocVec2 v = job->newVelocities[i];
		sim->velocities[i] = v;

		// position + velocity * dt per component: product, then sum (never fused).
		sim->positions[i] = oc_Add(sim->positions[i], oc_Scale(v, job->dt));
	}
	if (job->after != NULL)
	{
		job->after->task(job->after->context, worker, first, count);
	}
}

void oc_Simulator_Apply(ocSimulator* sim, const ocVec2* newVelocities, double dt)
{
	ocPhaseJob job = { sim, dt, newVelocities, NULL };
	oc_Simulator_PhaseTwoTask(&job, 0, 0, sim->agentCount);
	sim->gridValid = false;
}

void oc_Simulator_Step(ocSimulator* sim, double dt)
{
	oc_Simulator_StepParallel(sim, dt, NULL, NULL);
}

void oc_Simulator_StepBeside(ocSimulator* sim, double dt, ocParallelFor parallelFor, void* runner, const ocSideJob* side, const ocSideJob* after)
{
	if (sim->agentCount == 0)
	{
		return;
	}

	// Phase 1 for every agent into scratch, from the start-of-step state; then phase 2. Phase 1
	// goes in chunks of 32 agents, small enough that the workers finish together, large enough
	// that claiming a chunk costs nothing next to its work.
	// side goes with the grid build, which always runs: a grid left valid by a query before the
	// step is simply rebuilt (the same cells, in one pass with side).
	ocPhaseJob job = { sim, dt, sim->newVelocities, after };
	oc_Simulator_BuildGrid(sim, parallelFor, runner, side);
	oc_ForRange(parallelFor, runner, sim->agentCount, 32, oc_Simulator_PhaseOneTask, &job);
	oc_ForRange(parallelFor, runner, sim->agentCount, 256, oc_Simulator_PhaseTwoTask, &job);
	sim->gridValid = false;
}

void oc_Simulator_StepParallel(ocSimulator* sim, double dt, ocParallelFor parallelFor, void* runner)
{
	oc_Simulator_StepBeside(sim, dt, parallelFor, runner, NULL, NULL);
}

ocVec2* oc_Simulator_PreferredVelocities(ocSimulator* sim)
{
	return sim->preferred;
}

const ocVec2* oc_Simulator_PositionArray(const ocSimulator* sim)
{
	return sim->positions;
}

const ocVec2* oc_Simulator_VelocityArray(const ocSimulator* sim)
{
	return sim->velocities;
}
