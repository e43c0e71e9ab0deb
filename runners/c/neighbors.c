// SPDX-License-Identifier: MIT
// ORCA solver, C99 port of conformance/solver/neighbors.py.

#include "neighbors.h"

#include "obstacle.h"

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

int oc_AgentNeighbors(int agent, const ocVec2* positions, int count, double neighborDistance, int maxNeighbors, ocNeighbor* out)
{
	int cap = maxNeighbors < count - 1 ? maxNeighbors : count - 1;
	if (cap <= 0)
	{
		return 0;
	}

	ocVec2 pi = positions[agent];
	double limit = neighborDistance * neighborDistance;
	int n = 0;
	for (int j = 0; j < count; ++j)
	{
		if (j == agent)
		{
			continue;
		}
		ocVec2 d = oc_Sub(positions[j], pi);
		double d2 = oc_Dot(d, d);
		if (d2 < limit)
		{
			oc_InsertNeighbor(out, &n, cap, d2, j);
		}
	}
	return n;
}

// Grid -----------------------------------------------------------------------------------------

// Cell coordinates beyond this magnitude are not hashed (see oc_AgentGrid_Build).
#define OC_CELL_LIMIT 4611686018427387904.0 // 2^62

enum
{
	// no cell is positive wide: no agent has neighbours
	ocGridEmpty = 0,
	// agents hashed by cell
	ocGridCells = 1,
	// cell coordinates out of range (absurdly small cells or non-finite positions): scan all
	ocGridScanAll = 2,
};

typedef struct ocGridEntry
{
	ocVec2 position;
	int index;
} ocGridEntry;

typedef struct ocGridSlot
{
	int64_t cx, cy;
	int start;
	// agents in the cell; 0 marks a free slot
	int count;
} ocGridSlot;

struct ocAgentGrid
{
	int capacity;
	int count;
	int mode;
	double cell;

	// per agent, by agent index
	ocVec2* positions;
	int64_t* cellX;
	int64_t* cellY;
	int* slotOf;

	// agents sorted by cell (ascending index within a cell)
	ocGridEntry* entries;

	// open-addressing hash of occupied cells, slotMask + 1 >= 2 * capacity slots
	ocGridSlot* slots;
	int slotMask;
	int* usedSlots;
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
	free(grid->slotOf);
	free(grid->entries);
	free(grid->slots);
	free(grid->usedSlots);
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
	next.slotOf = (int*)malloc(n * sizeof(int));
	next.entries = (ocGridEntry*)malloc(n * sizeof(ocGridEntry));
	next.slots = (ocGridSlot*)malloc((size_t)slotCount * sizeof(ocGridSlot));
	next.usedSlots = (int*)malloc(n * sizeof(int));
	if (next.positions == NULL || next.cellX == NULL || next.cellY == NULL || next.slotOf == NULL ||
		next.entries == NULL || next.slots == NULL || next.usedSlots == NULL)
	{
		oc_AgentGrid_FreeArrays(&next);
		return false;
	}

	// The contents are rebuilt by the next Build; nothing to copy.
	oc_AgentGrid_FreeArrays(grid);
	next.capacity = capacity;
	next.slotMask = slotCount - 1;
	next.count = 0;
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

static inline const ocGridSlot* oc_FindSlot(const ocAgentGrid* grid, int64_t cx, int64_t cy)
{
	uint32_t mask = (uint32_t)grid->slotMask;
	uint32_t s = oc_HashCell(cx, cy) & mask;
	for (;;)
	{
		const ocGridSlot* slot = grid->slots + s;
		if (slot->count == 0)
		{
			return NULL;
		}
		if (slot->cx == cx && slot->cy == cy)
		{
			return slot;
		}
		s = (s + 1) & mask;
	}
}

bool oc_AgentGrid_Build(ocAgentGrid* grid, const ocVec2* positions, int count, double maxNeighborDistance)
{
	if (oc_AgentGrid_Reserve(grid, count) == false)
	{
		return false;
	}

	grid->count = count;
	if (count > 0)
	{
		memcpy(grid->positions, positions, (size_t)count * sizeof(ocVec2));
	}

	double cell = maxNeighborDistance * OC_CELL_MARGIN;
	grid->cell = cell;
	if (count == 0)
	{
		grid->mode = ocGridEmpty;
		return true;
	}

	// Written as !(cell > 0) so that a NaN width also means "no neighbours".
	if (!(cell > 0.0))
	{
		grid->mode = ocGridEmpty;
		return true;
	}

	// Cell coordinates floor(x / cell), the reference's exact integers (same division, same
	// floor), so the 3x3 blocks hold the same agents as the reference's blocks.
	grid->mode = ocGridCells;
	for (int i = 0; i < count; ++i)
	{
		double qx = positions[i].x / cell;
		double qy = positions[i].y / cell;

		// Outside +-2^62 the cell integers do not fit in int64. That takes cells narrower
		// than 2^-41 of the coordinates, or non-finite positions (where the reference's
		// floor raises instead). Scanning every agent then gives the normative brute-force
		// result; the neighbour set does not depend on the structure that finds it.
		if (!(qx > -OC_CELL_LIMIT && qx < OC_CELL_LIMIT && qy > -OC_CELL_LIMIT && qy < OC_CELL_LIMIT))
		{
			grid->mode = ocGridScanAll;
			for (int k = 0; k < count; ++k)
			{
				grid->entries[k].position = positions[k];
				grid->entries[k].index = k;
			}
			return true;
		}

		grid->cellX[i] = oc_FloorToInt(qx);
		grid->cellY[i] = oc_FloorToInt(qy);
	}

	// Counting sort of the agents by cell: count per occupied cell, prefix sums, then place
	// the agents in index order (a cell lists its agents by ascending index).
	uint32_t mask = (uint32_t)grid->slotMask;
	memset(grid->slots, 0, (size_t)(grid->slotMask + 1) * sizeof(ocGridSlot));
	int usedCount = 0;
	for (int i = 0; i < count; ++i)
	{
		int64_t cx = grid->cellX[i];
		int64_t cy = grid->cellY[i];
		uint32_t s = oc_HashCell(cx, cy) & mask;
		for (;;)
		{
			ocGridSlot* slot = grid->slots + s;
			if (slot->count == 0)
			{
				slot->cx = cx;
				slot->cy = cy;
				slot->count = 1;
				grid->usedSlots[usedCount++] = (int)s;
				break;
			}
			if (slot->cx == cx && slot->cy == cy)
			{
				slot->count += 1;
				break;
			}
			s = (s + 1) & mask;
		}
		grid->slotOf[i] = (int)s;
	}

	int start = 0;
	for (int k = 0; k < usedCount; ++k)
	{
		ocGridSlot* slot = grid->slots + grid->usedSlots[k];
		slot->start = start;
		start += slot->count;
		// reused as the fill cursor below; restored by the fill
		slot->count = 0;
	}

	for (int i = 0; i < count; ++i)
	{
		ocGridSlot* slot = grid->slots + grid->slotOf[i];
		ocGridEntry* entry = grid->entries + slot->start + slot->count;
		entry->position = positions[i];
		entry->index = i;
		slot->count += 1;
	}

	return true;
}

// Scans one cell's agents for neighbours of agent (at pi). *bound is the largest squared
// distance that can still enter: the limit until out is full, then the last entry's.
static inline void oc_ScanCell(const ocGridEntry* entry, const ocGridEntry* end, int agent, ocVec2 pi, double limit,
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

	ocVec2 pi = grid->positions[agent];
	double limit = neighborDistance * neighborDistance;
	double bound = limit;
	int n = 0;

	if (grid->mode == ocGridScanAll)
	{
		oc_ScanCell(grid->entries, grid->entries + grid->count, agent, pi, limit, out, &n, cap, &bound);
		return n;
	}

	// The 3x3 block around the agent's cell. The scan order does not change the result (it is
	// the first cap candidates by (d2, index)); the agent's own cell goes first so that the
	// bound tightens early.
	static const int offsets[9][2] = { { 0, 0 },  { -1, -1 }, { -1, 0 }, { -1, 1 }, { 0, -1 },
									   { 0, 1 }, { 1, -1 },  { 1, 0 },  { 1, 1 } };
	int64_t cx = grid->cellX[agent];
	int64_t cy = grid->cellY[agent];
	for (int k = 0; k < 9; ++k)
	{
		const ocGridSlot* slot = oc_FindSlot(grid, cx + offsets[k][0], cy + offsets[k][1]);
		if (slot != NULL)
		{
			const ocGridEntry* entry = grid->entries + slot->start;
			oc_ScanCell(entry, entry + slot->count, agent, pi, limit, out, &n, cap, &bound);
		}
	}
	return n;
}
