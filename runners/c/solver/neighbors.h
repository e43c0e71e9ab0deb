// SPDX-License-Identifier: MIT
// ORCA solver, C99 port of conformance/solver/neighbors.py: which obstacles and agents
// constrain an agent, and in which order. The result does not depend on the data structure:
// obstacles with SegmentDistanceSquared <= reach^2 ordered by (squared distance, index);
// agents j != i with squared centre distance < neighborDistance^2, the maxNeighbors smallest
// in the order (squared distance, index).

#pragma once

#include "vector.h"

#include <stdbool.h>
#include <stddef.h>

/// Cells are this much wider than the largest neighbour distance, so that neither the rounding
/// of x / cell nor that of the squared distance can put a neighbour outside the 3x3 block.
#define OC_CELL_MARGIN (1.0 + 1.0 / 1024.0)

/// A two-sided static segment a-b in world coordinates.
typedef struct ocSegment
{
	/// first end
	ocVec2 a;
	/// second end
	ocVec2 b;
} ocSegment;

/// A neighbour found by a query: its squared distance and its index.
typedef struct ocNeighbor
{
	/// squared distance (segment: SegmentDistanceSquared; agent: Dot(d, d) of the difference)
	double distanceSquared;
	/// index of the segment or agent
	int index;
} ocNeighbor;

/// Uniform grid over agent positions, cells max(neighborDistance) * OC_CELL_MARGIN wide (opaque).
typedef struct ocAgentGrid ocAgentGrid;

/// Segments within reach of position, sorted by (squared distance, index); out holds
/// segmentCount entries; returns the number found.
OC_API int oc_ObstacleNeighbors(ocVec2 position, double reach, const ocSegment* segments, int segmentCount, ocNeighbor* out);

/// Agent neighbours of agent among positions, found the way the simulator finds them (a grid
/// built for neighborDistance, then queried), which must equal the reference's brute force;
/// out holds min(maxNeighbors, count - 1) entries; returns the number found, -1 when out of memory.
OC_API int oc_AgentNeighbors(int agent, const ocVec2* positions, int count, double neighborDistance, int maxNeighbors, ocNeighbor* out);

/// Creates an empty agent grid; NULL when out of memory.
OC_API ocAgentGrid* oc_AgentGrid_Create(void);

/// Frees an agent grid (NULL is allowed).
OC_API void oc_AgentGrid_Destroy(ocAgentGrid* grid);

/// Makes room for capacity agents so that Build of up to that many does not allocate.
OC_API bool oc_AgentGrid_Reserve(ocAgentGrid* grid, int capacity);

/// Work on the indices [first, first + count) as worker `worker` (0 for the calling thread).
typedef void (*ocRangeTask)(void* context, int worker, int first, int count);

/// Runs task over [0, n) in the chunks [k * chunk, min(n, (k + 1) * chunk)), on whichever
/// workers of `runner` it has, in any order, and returns when every chunk is done. A task gives
/// the same result whatever worker takes a chunk (it reads shared state and writes only its
/// own indices' outputs).
typedef void (*ocParallelFor)(void* runner, int n, int chunk, ocRangeTask task, void* context);

/// task over [0, n) in chunks of `chunk` indices: through parallelFor, or, when it is NULL,
/// chunk after chunk on this thread (the same chunks, so every build splits the work alike).
static inline void oc_ForRange(ocParallelFor parallelFor, void* runner, int n, int chunk, ocRangeTask task,
							   void* context)
{
	if (parallelFor != NULL)
	{
		parallelFor(runner, n, chunk, task, context);
		return;
	}
	for (int first = 0; first < n; first += chunk)
	{
		task(context, 0, first, n - first < chunk ? n - first : chunk);
	}
}

/// Another module's pass run beside a grid build's serial cell insert (the run's preferred
/// velocities): task over [0, n) in chunks of chunk. It must not read or write the grid, and
/// nothing of the build reads what it writes; it is done when the build returns.
typedef struct ocSideJob
{
	ocRangeTask task;
	void* context;
	int n;
	int chunk;
} ocSideJob;

/// Sorts the agents into cells (copies the positions); false when out of memory.
OC_API bool oc_AgentGrid_Build(ocAgentGrid* grid, const ocVec2* positions, int count, double maxNeighborDistance);

/// Build with its per-agent pass (the cell of each agent) and its per-cell pass (each cell's
/// agents placed, its 3x3 block) handed to parallelFor (NULL: chunk by chunk on this thread);
/// the same grid. Only the cell insert, in agent index order, stays on the calling thread.
OC_API bool oc_AgentGrid_BuildParallel(ocAgentGrid* grid, const ocVec2* positions, int count, double maxNeighborDistance,
									   ocParallelFor parallelFor, void* runner);

/// BuildParallel with side (NULL: none) run in the same passes: its chunks share one pass with
/// the serial cell insert, so that the other workers do them while one worker inserts (on one
/// thread: the insert, then the chunks in order). The same grid; side is done on return, unless
/// the build fails (out of memory: false). Not part of the cffi API.
bool oc_AgentGrid_BuildBeside(ocAgentGrid* grid, const ocVec2* positions, int count, double maxNeighborDistance,
							  ocParallelFor parallelFor, void* runner, const ocSideJob* side);

/// Agent neighbours of agent from the built grid (same result as the reference AgentGrid);
/// out holds min(maxNeighbors, count - 1) entries; returns the number found.
OC_API int oc_AgentGrid_Neighbors(const ocAgentGrid* grid, int agent, double neighborDistance, int maxNeighbors, ocNeighbor* out);

/// oc_AgentGrid_Neighbors with a head start: bound must be at least the squared distance
/// (computed as the query computes it, pj - pi then the dot product) of the
/// min(maxNeighbors, count - 1)-th nearest other agent, e.g. the largest of those of as many
/// distinct other agents; candidates farther than bound are rejected early. neighborDistance
/// squared (or more, or NaN) means no head start. Same result as oc_AgentGrid_Neighbors whatever valid bound is given.
OC_API int oc_AgentGrid_NeighborsWithin(const ocAgentGrid* grid, int agent, double neighborDistance, int maxNeighbors,
										double bound, ocNeighbor* out);

/// oc_AgentGrid_NeighborsWithin with seedCount seeds first (not part of the cffi API): distinct
/// candidates of the query, other agents strictly within neighborDistance, with their squared
/// distance computed as the query computes it, and no farther than bound; seeded[j] is nonzero
/// exactly for the seeds' indices (a byte per agent; NULL when seedCount is 0). The same result
/// as NeighborsWithin; the seeds only come in an order that costs fewer mispredictions.
int oc_AgentGrid_NeighborsSeeded(const ocAgentGrid* grid, int agent, double neighborDistance, int maxNeighbors,
								 double bound, const ocNeighbor* seed, int seedCount, const unsigned char* seeded,
								 ocNeighbor* out);
