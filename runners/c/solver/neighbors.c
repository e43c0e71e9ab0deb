// SPDX-License-Identifier: MIT
// ORCA solver, C99 port of conformance/solver/neighbors.py.

#include "neighbors.h"

#include "obstacle.h"

#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

// (d2, index) order: by squared distance, equal distances by index. Together with the strict
// filter d2 < limit this fixes the neighbour set and order whatever structure found them.
static inline bool oc_NeighborLess(double d2, int index, const ocNeighbor* other)
{
	return d2 < other->distanceSquared || (d2 == other->distanceSquared && index < other->index);
}

// Inserts (d2, index) into the ascending array out[0..*n) that keeps at most cap entries
// (cap >= 1). The array then always equals the first cap entries of the sorted candidates.
static inline void oc_InsertNeighbor(ocNeighbor* out, int* n, int cap, double d2, int index)
{
	int k = *n;
	if (k == cap)
	{
		if (oc_NeighborLess(d2, index, out + k - 1) == false)
		{
			return;
		}
		k -= 1;
	}
	else
	{
		*n = k + 1;
	}

	while (k > 0 && oc_NeighborLess(d2, index, out + k - 1))
	{
		out[k] = out[k - 1];
		k -= 1;
	}
	out[k].distanceSquared = d2;
	out[k].index = index;
}

int oc_ObstacleNeighbors(ocVec2 position, double reach, const ocSegment* segments, int segmentCount, ocNeighbor* out)
{
	double reach2 = reach * reach;
	int n = 0;
	for (int k = 0; k < segmentCount; ++k)
	{
		// Relative coordinates first (world end minus agent position), as the reference does.
		ocVec2 a = oc_Sub(segments[k].a, position);
		ocVec2 b = oc_Sub(segments[k].b, position);
		double d2 = oc_SegmentDistanceSquared(a, b);
		if (d2 <= reach2)
		{
			oc_InsertNeighbor(out, &n, segmentCount, d2, k);
		}
	}
	return n;
}

// Grid -----------------------------------------------------------------------------------------
//
// Only which candidates are looked at depends on the structure; each candidate's squared
// distance and the (d2, index) selection are those of the reference, so the result is the same.

// Cell coordinates beyond this magnitude are not hashed (see oc_AgentGrid_Build).
#define OC_CELL_LIMIT 4611686018427387904.0 // 2^62

enum
{
	// no cell is positive wide: no agent has neighbours
	ocGridEmpty = 0,
	// agents sorted by cell
	ocGridCells = 1,
	// cell coordinates out of range (absurdly small cells or non-finite positions): scan all
	ocGridScanAll = 2,
};

typedef struct ocGridEntry
{
	ocVec2 position;
	int index;
} ocGridEntry;

// Hash slot of an occupied cell.
typedef struct ocGridSlot
{
	int64_t cx, cy;
	// cell id + 1; 0 marks a free slot
	int cell;
} ocGridSlot;

// An occupied cell.
typedef struct ocGridCell
{
	int64_t cx, cy;
	// its agents are entries[start .. start + count)
	int start;
	int count;
	// bounding box of its agents' positions
	double minX, minY, maxX, maxY;
	// ids of the occupied cells of the 3x3 block around it (itself first), -1 where empty
	int around[9];
} ocGridCell;

struct ocAgentGrid
{
	int capacity;
	int count;
	int mode;
	int cellCount;
	double cell;

	// the positions of the current build (read during a build only)
	const ocVec2* source;

	// per agent, by agent index
	ocVec2* positions;
	int64_t* cellX;
	int64_t* cellY;
	int* cellOf;

	// agents sorted by cell (ascending index within a cell)
	ocGridEntry* entries;

	// occupied cells, at most one per agent
	ocGridCell* cells;

	// open-addressing hash of the occupied cells, slotMask + 1 >= 2 * capacity slots
	ocGridSlot* slots;
	int slotMask;
};

ocAgentGrid* oc_AgentGrid_Create(void)
{
	ocAgentGrid* grid = (ocAgentGrid*)calloc(1, sizeof(ocAgentGrid));
	return grid;
}

static void oc_AgentGrid_FreeArrays(ocAgentGrid* grid)
{
	free(grid->positions);
	free(grid->cellX);
	free(grid->cellY);
	free(grid->cellOf);
	free(grid->entries);
	free(grid->cells);
	free(grid->slots);
}

void oc_AgentGrid_Destroy(ocAgentGrid* grid)
{
	if (grid == NULL)
	{
		return;
	}
	oc_AgentGrid_FreeArrays(grid);
	free(grid);
}

bool oc_AgentGrid_Reserve(ocAgentGrid* grid, int capacity)
{
	if (capacity <= grid->capacity)
	{
		return true;
	}

	int slotCount = 16;
	while (slotCount < 2 * capacity)
	{
		slotCount *= 2;
	}

	ocAgentGrid next = *grid;
	size_t n = (size_t)capacity;
	next.positions = (ocVec2*)malloc(n * sizeof(ocVec2));
	next.cellX = (int64_t*)malloc(n * sizeof(int64_t));
	next.cellY = (int64_t*)malloc(n * sizeof(int64_t));
	next.cellOf = (int*)malloc(n * sizeof(int));
	next.entries = (ocGridEntry*)malloc(n * sizeof(ocGridEntry));
	next.cells = (ocGridCell*)malloc(n * sizeof(ocGridCell));
	next.slots = (ocGridSlot*)malloc((size_t)slotCount * sizeof(ocGridSlot));
	if (next.positions == NULL || next.cellX == NULL || next.cellY == NULL || next.cellOf == NULL ||
		next.entries == NULL || next.cells == NULL || next.slots == NULL)
	{
		oc_AgentGrid_FreeArrays(&next);
		return false;
	}

	// The contents are rebuilt by the next Build; nothing to copy.
	oc_AgentGrid_FreeArrays(grid);
	next.capacity = capacity;
	next.slotMask = slotCount - 1;
	next.count = 0;
	next.cellCount = 0;
	next.mode = ocGridEmpty;
	*grid = next;
	return true;
}

static inline uint32_t oc_HashCell(int64_t cx, int64_t cy)
{
	uint64_t h = (uint64_t)cx * 0x9E3779B97F4A7C15ull + (uint64_t)cy * 0xC2B2AE3D27D4EB4Full;
	h ^= h >> 31;
	h *= 0xBF58476D1CE4E5B9ull;
	h ^= h >> 29;
	return (uint32_t)h;
}

// floor(q) for |q| < 2^62, as Python's math.floor of the same double: truncation toward zero
// by the cast, then one down for negative non-integers. Exact: below 2^53 the integer is
// representable, above it q is already an integer. No libm.
static inline int64_t oc_FloorToInt(double q)
{
	int64_t c = (int64_t)q;
	if ((double)c > q)
	{
		c -= 1;
	}
	return c;
}

// Id of the occupied cell (cx, cy), or -1.
static inline int oc_FindCell(const ocAgentGrid* grid, int64_t cx, int64_t cy)
{
	uint32_t mask = (uint32_t)grid->slotMask;
	uint32_t s = oc_HashCell(cx, cy) & mask;
	for (;;)
	{
		const ocGridSlot* slot = grid->slots + s;
		if (slot->cell == 0)
		{
			return -1;
		}
		if (slot->cx == cx && slot->cy == cy)
		{
			return slot->cell - 1;
		}
		s = (s + 1) & mask;
	}
}

// The id of cell (cx, cy) in the grid's hash table, added (with p as its bounding box) when
// it is new; linear probing.
static int oc_AgentGrid_CellFor(ocAgentGrid* grid, int64_t cx, int64_t cy, ocVec2 p, int* cellCount)
{
	uint32_t mask = (uint32_t)grid->slotMask;
	uint32_t s = oc_HashCell(cx, cy) & mask;
	int id;
	for (;;)
	{
		ocGridSlot* slot = grid->slots + s;
		if (slot->cell == 0)
		{
			id = (*cellCount)++;
			slot->cx = cx;
			slot->cy = cy;
			slot->cell = id + 1;

			ocGridCell* c = grid->cells + id;
			c->cx = cx;
			c->cy = cy;
			c->count = 0;
			c->minX = p.x;
			c->maxX = p.x;
			c->minY = p.y;
			c->maxY = p.y;
			break;
		}
		if (slot->cx == cx && slot->cy == cy)
		{
			id = slot->cell - 1;
			break;
		}
		s = (s + 1) & mask;
	}
	return id;
}

// Marks an agent whose cell coordinates do not fit (see oc_AgentGrid_CellsTask).
#define OC_CELL_OUTSIDE INT64_MIN

// Per agent of [first, first + count): the position copied and its cell coordinates
// floor(x / cell), the reference's exact integers (same division, same floor), so every 3x3
// block holds the same agents as the reference's.
static void oc_AgentGrid_CellsTask(void* context, int worker, int first, int count)
{
	ocAgentGrid* grid = (ocAgentGrid*)context;
	double cell = grid->cell;
	(void)worker;
	for (int i = first; i < first + count; ++i)
	{
		ocVec2 p = grid->source[i];
		grid->positions[i] = p;
		double qx = p.x / cell;
		double qy = p.y / cell;

		// Outside +-2^62 the cell integers do not fit in int64. That takes cells narrower
		// than 2^-41 of the coordinates, or non-finite positions (where the reference's
		// floor raises instead). Build then scans every agent, which gives the normative
		// brute-force result; the neighbour set does not depend on the structure that finds it.
		bool inside = qx > -OC_CELL_LIMIT && qx < OC_CELL_LIMIT && qy > -OC_CELL_LIMIT && qy < OC_CELL_LIMIT;
		grid->cellX[i] = inside ? oc_FloorToInt(qx) : OC_CELL_OUTSIDE;
		grid->cellY[i] = inside ? oc_FloorToInt(qy) : 0;
	}
}

// Counting sort of the agents by cell, first half: find or add each agent's cell, count, take
// the bounding box; then each cell's start in the entry array. False when an agent has no cell
// coordinates. The hash table is cleared, never reallocated.
static bool oc_AgentGrid_Index(ocAgentGrid* grid)
{
	memset(grid->slots, 0, (size_t)(grid->slotMask + 1) * sizeof(ocGridSlot));
	int cellCount = 0;
	for (int i = 0; i < grid->count; ++i)
	{
		int64_t cx = grid->cellX[i];
		if (cx == OC_CELL_OUTSIDE)
		{
			return false;
		}
		int64_t cy = grid->cellY[i];
		ocVec2 p = grid->positions[i];
		int id = oc_AgentGrid_CellFor(grid, cx, cy, p, &cellCount);

		ocGridCell* c = grid->cells + id;
		c->count += 1;
		c->minX = p.x < c->minX ? p.x : c->minX;
		c->maxX = p.x > c->maxX ? p.x : c->maxX;
		c->minY = p.y < c->minY ? p.y : c->minY;
		c->maxY = p.y > c->maxY ? p.y : c->maxY;
		grid->cellOf[i] = id;
	}
	grid->cellCount = cellCount;

	int start = 0;
	for (int id = 0; id < cellCount; ++id)
	{
		ocGridCell* c = grid->cells + id;
		c->start = start;
		start += c->count;
		// reused as the fill cursor of oc_AgentGrid_Place, which restores it
		c->count = 0;
	}
	return true;
}

// Per cell of [first, first + count): the ids of its 3x3 block, the cell itself first.
static void oc_AgentGrid_BlocksTask(void* context, int worker, int first, int count)
{
	ocAgentGrid* grid = (ocAgentGrid*)context;
	(void)worker;
	for (int id = first; id < first + count; ++id)
	{
		ocGridCell* c = grid->cells + id;
		int k = 0;
		c->around[k++] = id;
		for (int64_t dx = -1; dx <= 1; ++dx)
		{
			for (int64_t dy = -1; dy <= 1; ++dy)
			{
				if (dx != 0 || dy != 0)
				{
					c->around[k++] = oc_FindCell(grid, c->cx + dx, c->cy + dy);
				}
			}
		}
	}
}

// Counting sort, second half: the agents placed cell by cell in ascending index order.
static void oc_AgentGrid_Place(ocAgentGrid* grid)
{
	for (int i = 0; i < grid->count; ++i)
	{
		ocGridCell* c = grid->cells + grid->cellOf[i];
		ocGridEntry* entry = grid->entries + c->start + c->count;
		entry->position = grid->positions[i];
		entry->index = i;
		c->count += 1;
	}
}

bool oc_AgentGrid_Build(ocAgentGrid* grid, const ocVec2* positions, int count, double maxNeighborDistance)
{
	return oc_AgentGrid_BuildParallel(grid, positions, count, maxNeighborDistance, NULL, NULL);
}

bool oc_AgentGrid_BuildParallel(ocAgentGrid* grid, const ocVec2* positions, int count, double maxNeighborDistance,
								ocParallelFor parallelFor, void* runner)
{
	if (oc_AgentGrid_Reserve(grid, count) == false)
	{
		return false;
	}

	grid->count = count;
	grid->cellCount = 0;
	double cell = maxNeighborDistance * OC_CELL_MARGIN;
	grid->cell = cell;

	// Written as !(cell > 0) so that a NaN width also means "no neighbours".
	if (count == 0 || !(cell > 0.0))
	{
		grid->mode = ocGridEmpty;
		return true;
	}

	grid->source = positions;
	oc_ForRange(parallelFor, runner, count, 256, oc_AgentGrid_CellsTask, grid);

	if (oc_AgentGrid_Index(grid) == false)
	{
		grid->mode = ocGridScanAll;
		for (int k = 0; k < count; ++k)
		{
			grid->entries[k].position = positions[k];
			grid->entries[k].index = k;
		}
		return true;
	}

	grid->mode = ocGridCells;
	oc_ForRange(parallelFor, runner, grid->cellCount, 256, oc_AgentGrid_BlocksTask, grid);
	oc_AgentGrid_Place(grid);
	return true;
}

// Scans agents for neighbours of agent (at pi). *bound is the largest squared distance that
// can still enter: the limit until out is full, then the last entry's.
static inline void oc_ScanEntries(const ocGridEntry* entry, const ocGridEntry* end, int agent, ocVec2 pi, double limit,
								  ocNeighbor* out, int* n, int cap, double* bound)
{
	for (; entry < end; ++entry)
	{
		// pj - pi, then Dot(d, d): the reference's squared distance.
		ocVec2 d = oc_Sub(entry->position, pi);
		double d2 = oc_Dot(d, d);

		// Early rejection only; the exact tests follow (strict d2 < limit, ties by index).
		if (d2 > *bound)
		{
			continue;
		}

		int j = entry->index;
		if (j == agent || !(d2 < limit))
		{
			continue;
		}

		oc_InsertNeighbor(out, n, cap, d2, j);
		if (*n == cap)
		{
			*bound = out[cap - 1].distanceSquared;
		}
	}
}

// A lower bound, in floating point, of the computed squared distance from pi to every agent
// of the cell: with gap = (min - pi) or (pi - max) or 0 per axis, each rounded operation is
// monotone, so fl(gx*gx + gy*gy) <= fl(dx*dx + dy*dy) for every member. Skipping a cell whose
// bound exceeds the current bound therefore skips only candidates that would be rejected.
static inline double oc_CellLowerBound(const ocGridCell* c, ocVec2 pi)
{
	double gx = 0.0, gy = 0.0;
	if (pi.x < c->minX)
	{
		gx = c->minX - pi.x;
	}
	else if (pi.x > c->maxX)
	{
		gx = pi.x - c->maxX;
	}
	if (pi.y < c->minY)
	{
		gy = c->minY - pi.y;
	}
	else if (pi.y > c->maxY)
	{
		gy = pi.y - c->maxY;
	}
	return gx * gx + gy * gy;
}

int oc_AgentGrid_Neighbors(const ocAgentGrid* grid, int agent, double neighborDistance, int maxNeighbors, ocNeighbor* out)
{
	if (maxNeighbors <= 0 || neighborDistance <= 0.0 || grid->mode == ocGridEmpty)
	{
		return 0;
	}

	int cap = maxNeighbors < grid->count - 1 ? maxNeighbors : grid->count - 1;
	if (cap <= 0)
	{
		return 0;
	}

	assert(0 <= agent && agent < grid->count);
	ocVec2 pi = grid->positions[agent];
	double limit = neighborDistance * neighborDistance;
	double bound = limit;
	int n = 0;

	if (grid->mode == ocGridScanAll)
	{
		oc_ScanEntries(grid->entries, grid->entries + grid->count, agent, pi, limit, out, &n, cap, &bound);
		return n;
	}

	// The 3x3 block around the agent's cell. The scan order does not change the result (the
	// first cap candidates by (d2, index)); the agent's own cell goes first so that the bound
	// tightens early and more of the other cells can be skipped.
	const ocGridCell* own = grid->cells + grid->cellOf[agent];
	for (int k = 0; k < 9; ++k)
	{
		int id = own->around[k];
		if (id < 0)
		{
			continue;
		}
		const ocGridCell* c = grid->cells + id;
		if (oc_CellLowerBound(c, pi) > bound)
		{
			continue;
		}
		const ocGridEntry* entry = grid->entries + c->start;
		oc_ScanEntries(entry, entry + c->count, agent, pi, limit, out, &n, cap, &bound);
	}
	return n;
}

int oc_AgentNeighbors(int agent, const ocVec2* positions, int count, double neighborDistance, int maxNeighbors, ocNeighbor* out)
{
	// The simulator's own path (a grid whose cells fit neighborDistance, then its query), so
	// that the primitive vectors hold the grid to the reference's brute-force result.
	ocAgentGrid* grid = oc_AgentGrid_Create();
	int n = -1;
	if (grid != NULL && oc_AgentGrid_Build(grid, positions, count, neighborDistance))
	{
		n = oc_AgentGrid_Neighbors(grid, agent, neighborDistance, maxNeighbors, out);
	}
	oc_AgentGrid_Destroy(grid);
	return n;
}
