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

// The dense cell table holds OC_TABLE_PER_AGENT * capacity + OC_TABLE_EXTRA entries: a span
// of occupied cells (plus border) up to that size is looked up directly, a wider one hashed.
// Speed only: both find the same cells.
#define OC_TABLE_PER_AGENT 16
#define OC_TABLE_EXTRA 1024

// The per-agent passes of a build go in chunks of this many agents.
#define OC_GRID_CHUNK 256

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

// Range of the cell coordinates of a chunk of agents (oc_AgentGrid_CellsTask); outside: one
// of them has none.
typedef struct ocChunkSpan
{
	int64_t minX, maxX, minY, maxY;
	bool outside;
} ocChunkSpan;

// An occupied cell.
typedef struct ocGridCell
{
	int64_t cx, cy;
	// its agents are entries[start .. start + count)
	int start;
	int count;
	// bounding box of its agents' positions
	double minX, minY, maxX, maxY;
	// ids of the occupied cells of the 3x3 block around it, itself first: around[0 .. aroundCount)
	int around[9];
	int aroundCount;
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
	// where the agent's own entry is in entries
	int* slotOf;
	// the agent of next lower index in the same cell, -1 for none
	int* nextInCell;
	// per cell id, its agent of highest index: the head of its list in nextInCell
	int* lastInCell;

	// agents sorted by cell (ascending index within a cell)
	ocGridEntry* entries;

	// per chunk of OC_GRID_CHUNK agents, the range of its cell coordinates
	ocChunkSpan* spans;

	// occupied cells, at most one per agent
	ocGridCell* cells;

	// where the cells are found: the dense table when the span of the occupied cells fits it,
	// else the hash
	bool dense;

	// open-addressing hash of the occupied cells, slotMask + 1 >= 2 * capacity slots: per slot
	// the cell id + 1, 0 for a free slot (the coordinates are the cell's)
	int* slots;
	int slotMask;

	// dense table of cell id + 1 (0: no agent) over the occupied cells' span plus a border of
	// one cell: entry (cx - tableX) + (cy - tableY) * tableWidth; tableCapacity entries
	int* table;
	int tableCapacity;
	int tableWidth;
	int64_t tableX, tableY;
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
	free(grid->slotOf);
	free(grid->nextInCell);
	free(grid->lastInCell);
	free(grid->entries);
	free(grid->spans);
	free(grid->cells);
	free(grid->slots);
	free(grid->table);
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
	next.slotOf = (int*)malloc(n * sizeof(int));
	next.nextInCell = (int*)malloc(n * sizeof(int));
	next.lastInCell = (int*)malloc(n * sizeof(int));
	next.entries = (ocGridEntry*)malloc(n * sizeof(ocGridEntry));
	next.spans = (ocChunkSpan*)malloc((n / OC_GRID_CHUNK + 1) * sizeof(ocChunkSpan));
	next.cells = (ocGridCell*)malloc(n * sizeof(ocGridCell));
	next.slots = (int*)malloc((size_t)slotCount * sizeof(int));
	next.tableCapacity = OC_TABLE_PER_AGENT * capacity + OC_TABLE_EXTRA;
	next.table = (int*)malloc((size_t)next.tableCapacity * sizeof(int));
	if (next.positions == NULL || next.cellX == NULL || next.cellY == NULL || next.cellOf == NULL ||
		next.slotOf == NULL || next.nextInCell == NULL || next.lastInCell == NULL || next.entries == NULL ||
		next.spans == NULL || next.cells == NULL || next.slots == NULL || next.table == NULL)
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

// Id of the occupied cell (cx, cy) in the hash, or -1.
static inline int oc_FindCell(const ocAgentGrid* grid, int64_t cx, int64_t cy)
{
	uint32_t mask = (uint32_t)grid->slotMask;
	uint32_t s = oc_HashCell(cx, cy) & mask;
	for (;;)
	{
		int id = grid->slots[s] - 1;
		if (id < 0)
		{
			return -1;
		}
		if (grid->cells[id].cx == cx && grid->cells[id].cy == cy)
		{
			return id;
		}
		s = (s + 1) & mask;
	}
}

// The dense table's entry of cell (cx, cy), which must lie in the table's span.
static inline int* oc_TableEntry(const ocAgentGrid* grid, int64_t cx, int64_t cy)
{
	return grid->table + (size_t)(cx - grid->tableX) + (size_t)(cy - grid->tableY) * (size_t)grid->tableWidth;
}

// Cell id becomes (cx, cy), with no agent yet.
static void oc_AgentGrid_NewCell(ocAgentGrid* grid, int id, int64_t cx, int64_t cy)
{
	ocGridCell* c = grid->cells + id;
	c->cx = cx;
	c->cy = cy;
	c->count = 0;
	grid->lastInCell[id] = -1;
}

// The id of cell (cx, cy), added when it is new: in the dense table, or in the hash by linear
// probing.
static int oc_AgentGrid_CellFor(ocAgentGrid* grid, int64_t cx, int64_t cy, int* cellCount)
{
	if (grid->dense)
	{
		int* entry = oc_TableEntry(grid, cx, cy);
		if (*entry == 0)
		{
			oc_AgentGrid_NewCell(grid, *cellCount, cx, cy);
			*entry = ++*cellCount;
		}
		return *entry - 1;
	}

	uint32_t mask = (uint32_t)grid->slotMask;
	uint32_t s = oc_HashCell(cx, cy) & mask;
	for (;;)
	{
		int id = grid->slots[s] - 1;
		if (id < 0)
		{
			oc_AgentGrid_NewCell(grid, *cellCount, cx, cy);
			grid->slots[s] = ++*cellCount;
			return grid->slots[s] - 1;
		}
		if (grid->cells[id].cx == cx && grid->cells[id].cy == cy)
		{
			return id;
		}
		s = (s + 1) & mask;
	}
}

// Marks an agent whose cell coordinates do not fit (see oc_AgentGrid_CellsTask).
#define OC_CELL_OUTSIDE INT64_MIN

// Per agent of [first, first + count): the position copied and its cell coordinates
// floor(x / cell), the reference's exact integers (same division, same floor), so every 3x3
// block holds the same agents as the reference's. Also the chunk's span of cell coordinates.
static void oc_AgentGrid_CellsTask(void* context, int worker, int first, int count)
{
	ocAgentGrid* grid = (ocAgentGrid*)context;
	double cell = grid->cell;
	ocChunkSpan span = { INT64_MAX, INT64_MIN, INT64_MAX, INT64_MIN, false };
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
		int64_t cx = inside ? oc_FloorToInt(qx) : OC_CELL_OUTSIDE;
		int64_t cy = inside ? oc_FloorToInt(qy) : 0;
		grid->cellX[i] = cx;
		grid->cellY[i] = cy;
		span.outside = span.outside || !inside;
		span.minX = cx < span.minX ? cx : span.minX;
		span.maxX = cx > span.maxX ? cx : span.maxX;
		span.minY = cy < span.minY ? cy : span.minY;
		span.maxY = cy > span.maxY ? cy : span.maxY;
	}
	grid->spans[first / OC_GRID_CHUNK] = span;
}

// Chooses the dense table or the hash for this build and clears it: the table when the span
// of the occupied cells (from the chunks' spans), plus a border of one cell on every side (so
// that a 3x3 block never leaves it), fits its capacity. False when an agent has no cell
// coordinates.
static bool oc_AgentGrid_ChooseTable(ocAgentGrid* grid)
{
	int64_t minX = INT64_MAX, maxX = INT64_MIN, minY = INT64_MAX, maxY = INT64_MIN;
	for (int k = 0; k * OC_GRID_CHUNK < grid->count; ++k)
	{
		const ocChunkSpan* span = grid->spans + k;
		if (span->outside)
		{
			return false;
		}
		minX = span->minX < minX ? span->minX : minX;
		maxX = span->maxX > maxX ? span->maxX : maxX;
		minY = span->minY < minY ? span->minY : minY;
		maxY = span->maxY > maxY ? span->maxY : maxY;
	}

	// |c| < 2^62, so the differences fit; unsigned, so the products cannot overflow unnoticed.
	uint64_t capacity = (uint64_t)grid->tableCapacity;
	uint64_t width = (uint64_t)(maxX - minX) + 3u;
	uint64_t height = (uint64_t)(maxY - minY) + 3u;
	grid->dense = width <= capacity && height <= capacity && width * height <= capacity;
	if (grid->dense)
	{
		grid->tableWidth = (int)width;
		grid->tableX = minX - 1;
		grid->tableY = minY - 1;
		memset(grid->table, 0, (size_t)(width * height) * sizeof(int));
	}
	else
	{
		memset(grid->slots, 0, (size_t)(grid->slotMask + 1) * sizeof(int));
	}
	return true;
}

// Counting sort of the agents by cell, first half: find or add each agent's cell, count it and
// put it at the head of the cell's list; then each cell's start in the entry array. False when
// an agent has no cell coordinates. The table and the hash are cleared, never reallocated.
static bool oc_AgentGrid_Index(ocAgentGrid* grid)
{
	if (oc_AgentGrid_ChooseTable(grid) == false)
	{
		return false;
	}
	int cellCount = 0;
	int id = -1;
	for (int i = 0; i < grid->count; ++i)
	{
		// Agents next in index are often in the same cell: then the last id is kept, with no
		// lookup.
		if (id < 0 || grid->cellX[i] != grid->cells[id].cx || grid->cellY[i] != grid->cells[id].cy)
		{
			id = oc_AgentGrid_CellFor(grid, grid->cellX[i], grid->cellY[i], &cellCount);
		}
		grid->cells[id].count += 1;
		grid->nextInCell[i] = grid->lastInCell[id];
		grid->lastInCell[id] = i;
		grid->cellOf[i] = id;
	}
	grid->cellCount = cellCount;

	int start = 0;
	for (int id = 0; id < cellCount; ++id)
	{
		grid->cells[id].start = start;
		start += grid->cells[id].count;
	}
	return true;
}

// The eight steps (dx, dy) from a cell to the others of its 3x3 block.
static const int oc_BlockSteps[8][2] = { { -1, -1 }, { -1, 0 }, { -1, 1 }, { 0, -1 },
										 { 0, 1 },	 { 1, -1 }, { 1, 0 },  { 1, 1 } };

// Counting sort, second half, for one cell: its agents placed in ascending index order (the
// list runs from the highest index down, so from the cell's end), each agent's slotOf, and
// the cell's bounding box.
static void oc_AgentGrid_FillCell(ocAgentGrid* grid, int id)
{
	ocGridCell* c = grid->cells + id;
	int last = grid->lastInCell[id];
	ocVec2 head = grid->positions[last];
	c->minX = head.x;
	c->maxX = head.x;
	c->minY = head.y;
	c->maxY = head.y;
	int slot = c->start + c->count;
	for (int i = last; i >= 0; i = grid->nextInCell[i])
	{
		slot -= 1;
		ocVec2 p = grid->positions[i];
		grid->entries[slot].position = p;
		grid->entries[slot].index = i;
		grid->slotOf[i] = slot;
		c->minX = p.x < c->minX ? p.x : c->minX;
		c->maxX = p.x > c->maxX ? p.x : c->maxX;
		c->minY = p.y < c->minY ? p.y : c->minY;
		c->maxY = p.y > c->maxY ? p.y : c->maxY;
	}
}

// Per cell of [first, first + count): its agents placed (oc_AgentGrid_FillCell) and the ids of
// the occupied cells of its 3x3 block, the cell itself first: read around its entry in the
// dense table (whose border keeps them inside it), or looked up in the hash.
static void oc_AgentGrid_BlocksTask(void* context, int worker, int first, int count)
{
	ocAgentGrid* grid = (ocAgentGrid*)context;
	(void)worker;
	ptrdiff_t width = grid->tableWidth;
	for (int id = first; id < first + count; ++id)
	{
		ocGridCell* c = grid->cells + id;
		oc_AgentGrid_FillCell(grid, id);
		const int* entry = grid->dense ? oc_TableEntry(grid, c->cx, c->cy) : NULL;
		int k = 0;
		c->around[k++] = id;
		for (int t = 0; t < 8; ++t)
		{
			int dx = oc_BlockSteps[t][0];
			int dy = oc_BlockSteps[t][1];
			int other = entry != NULL ? entry[dx + dy * width] - 1 : oc_FindCell(grid, c->cx + dx, c->cy + dy);
			c->around[k] = other;
			k += other >= 0;
		}
		c->aroundCount = k;
	}
}

static bool oc_AgentGrid_IndexBeside(ocAgentGrid* grid, ocParallelFor parallelFor, void* runner, const ocSideJob* side);
static void oc_AgentGrid_SideOnly(ocParallelFor parallelFor, void* runner, const ocSideJob* side);

// Build and BuildParallel are this build with no side job (after it, below, with its passes).
// False when out of memory (side then not run).
bool oc_AgentGrid_BuildBeside(ocAgentGrid* grid, const ocVec2* positions, int count, double maxNeighborDistance,
							  ocParallelFor parallelFor, void* runner, const ocSideJob* side)
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
		oc_AgentGrid_SideOnly(parallelFor, runner, side);
		return true;
	}

	grid->source = positions;
	oc_ForRange(parallelFor, runner, count, OC_GRID_CHUNK, oc_AgentGrid_CellsTask, grid);

	if (oc_AgentGrid_IndexBeside(grid, parallelFor, runner, side) == false)
	{
		grid->mode = ocGridScanAll;
		for (int k = 0; k < count; ++k)
		{
			grid->entries[k].position = positions[k];
			grid->entries[k].index = k;
			grid->slotOf[k] = k;
		}
		return true;
	}

	grid->mode = ocGridCells;
	oc_ForRange(parallelFor, runner, grid->cellCount, 128, oc_AgentGrid_BlocksTask, grid);
	return true;
}

bool oc_AgentGrid_Build(ocAgentGrid* grid, const ocVec2* positions, int count, double maxNeighborDistance)
{
	return oc_AgentGrid_BuildBeside(grid, positions, count, maxNeighborDistance, NULL, NULL, NULL);
}

bool oc_AgentGrid_BuildParallel(ocAgentGrid* grid, const ocVec2* positions, int count, double maxNeighborDistance,
								ocParallelFor parallelFor, void* runner)
{
	return oc_AgentGrid_BuildBeside(grid, positions, count, maxNeighborDistance, parallelFor, runner, NULL);
}

// The pass of the cell insert and a side job: item 0 is the insert (oc_AgentGrid_Index, its
// result in indexed), item k >= 1 the side job's chunk k - 1.
typedef struct ocIndexJob
{
	ocAgentGrid* grid;
	const ocSideJob* side;
	bool indexed;
} ocIndexJob;

static void oc_AgentGrid_IndexTask(void* context, int worker, int first, int count)
{
	ocIndexJob* job = (ocIndexJob*)context;
	for (int item = first; item < first + count; ++item)
	{
		if (item == 0)
		{
			job->indexed = oc_AgentGrid_Index(job->grid);
			continue;
		}
		const ocSideJob* side = job->side;
		int from = (item - 1) * side->chunk;
		side->task(side->context, worker, from, side->n - from < side->chunk ? side->n - from : side->chunk);
	}
}

// The side job alone (no insert to run beside), through parallelFor.
static void oc_AgentGrid_SideOnly(ocParallelFor parallelFor, void* runner, const ocSideJob* side)
{
	if (side != NULL && side->n > 0)
	{
		oc_ForRange(parallelFor, runner, side->n, side->chunk, side->task, side->context);
	}
}

// The cell insert, with the side job's chunks in the same pass (one item each); false when an
// agent has no cell coordinates.
static bool oc_AgentGrid_IndexBeside(ocAgentGrid* grid, ocParallelFor parallelFor, void* runner,
									 const ocSideJob* side)
{
	if (side == NULL || side->n <= 0)
	{
		// nothing beside: the insert on this thread, no pass
		return oc_AgentGrid_Index(grid);
	}
	ocIndexJob job = { grid, side, false };
	int items = 1 + (side->n - 1) / side->chunk + 1;
	oc_ForRange(parallelFor, runner, items, 1, oc_AgentGrid_IndexTask, &job);
	return job.indexed;
}

// Candidates the query keeps before it inserts them (oc_AgentGrid_NeighborsWithin).
#define OC_KEPT_CHUNK 32

// The largest double below limit (>= 0, the square of the neighbour distance): d2 < limit
// exactly when d2 <= it, so one comparison tests both the bound and the strict limit. Bit
// pattern minus one: +inf gives the largest finite double; +0 (an underflowed square) gives a
// NaN, and a NaN (a quiet one, as arithmetic makes) stays a NaN, so that every comparison
// fails, as d2 < 0 and d2 < NaN do.
static inline double oc_BelowLimit(double limit)
{
	uint64_t bits;
	memcpy(&bits, &limit, sizeof bits);
	bits -= 1;
	memcpy(&limit, &bits, sizeof bits);
	return limit;
}

// Inserts the m kept candidates into out (n entries, at most cap), but for those that seeded
// marks (already inserted as seeds; NULL: none); returns the new n.
static int oc_InsertKept(ocNeighbor* out, int n, int cap, const ocNeighbor* kept, int m, const unsigned char* seeded)
{
	for (int k = 0; k < m; ++k)
	{
		if (seeded != NULL && seeded[kept[k].index])
		{
			continue;
		}
		oc_InsertNeighbor(out, &n, cap, kept[k].distanceSquared, kept[k].index);
	}
	return n;
}

// The bound after an insert: once out is full, its last entry's squared distance when lower.
static inline double oc_TightenBound(const ocNeighbor* out, int n, int cap, double bound)
{
	return n == cap && out[cap - 1].distanceSquared < bound ? out[cap - 1].distanceSquared : bound;
}

// A lower bound, in floating point, of the computed squared distance from pi to every agent
// of the cell: with gap = (min - pi) or (pi - max) or 0 per axis, each rounded operation is
// monotone, so fl(gx*gx + gy*gy) <= fl(dx*dx + dy*dy) for every member. Skipping a cell whose
// bound exceeds the current bound therefore skips only candidates that would be rejected.
static inline double oc_CellLowerBound(const ocGridCell* c, ocVec2 pi)
{
	// At most one of the two differences per axis is positive (the larger one, max'ed at 0).
	double gx = c->minX - pi.x > pi.x - c->maxX ? c->minX - pi.x : pi.x - c->maxX;
	double gy = c->minY - pi.y > pi.y - c->maxY ? c->minY - pi.y : pi.y - c->maxY;
	gx = gx > 0.0 ? gx : 0.0;
	gy = gy > 0.0 ? gy : 0.0;
	return gx * gx + gy * gy;
}

int oc_AgentGrid_Neighbors(const ocAgentGrid* grid, int agent, double neighborDistance, int maxNeighbors, ocNeighbor* out)
{
	return oc_AgentGrid_NeighborsWithin(grid, agent, neighborDistance, maxNeighbors, neighborDistance * neighborDistance,
										out);
}

// The query of oc_AgentGrid_NeighborsSeeded, inlined into its callers so that each gets a copy
// for its own seeds: without seeds (NeighborsWithin, and NeighborsSeeded given none) the copy
// is the plain query, with nothing of the seeds left in it.
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline int oc_AgentGrid_Query(const ocAgentGrid* grid, int agent, double neighborDistance, int maxNeighbors,
									 double bound, const ocNeighbor* seed, int seedCount,
									 const unsigned char* seeded, ocNeighbor* out)
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
	double below = oc_BelowLimit(neighborDistance * neighborDistance);
	// bound <= below also when bound is NaN (no head start)
	bound = bound <= below ? bound : below;

	// Every candidate is written to kept; the count advances only past those within the bound
	// (ties pass), with no branch per candidate. The kept ones are inserted when kept is full
	// and at the end.
	ocNeighbor kept[OC_KEPT_CHUNK];
	int m = 0;
	int n = 0;

	// The seeds first, in the order given (the last query's, nearly the order of now: the
	// inserts then mostly append, few mispredicted); the scan leaves them out (seeded).
	for (int k = 0; k < seedCount; ++k)
	{
		oc_InsertNeighbor(out, &n, cap, seed[k].distanceSquared, seed[k].index);
	}
	bound = oc_TightenBound(out, n, cap, bound);

	// Every agent, or the 3x3 block around the agent's cell: the own cell, then each other
	// cell of the block whose box may hold a candidate within the bound. The scan order does
	// not change the result (the first cap candidates by (d2, index)). The agent itself is
	// left out by scanning the entries before its own, then those after it.
	const ocGridCell* own = NULL;
	const ocGridEntry* self = grid->entries + grid->slotOf[agent];
	const ocGridEntry* entry = grid->entries;
	const ocGridEntry* end = grid->entries + grid->count;
	int cellCount = 1;
	if (grid->mode == ocGridCells)
	{
		own = grid->cells + grid->cellOf[agent];
		entry = grid->entries + own->start;
		end = entry + own->count;
		cellCount = own->aroundCount;
	}
	const ocGridEntry* afterSelf = end;
	end = self;
	bool beforeSelf = true;
	for (int k = 0;;)
	{
		for (; entry < end; ++entry)
		{
			// pj - pi, then Dot(d, d): the reference's squared distance.
			ocVec2 d = oc_Sub(entry->position, pi);
			double d2 = oc_Dot(d, d);
			kept[m].distanceSquared = d2;
			kept[m].index = entry->index;
			m += d2 <= bound;
			if (m == OC_KEPT_CHUNK)
			{
				n = oc_InsertKept(out, n, cap, kept, m, seeded);
				m = 0;
				bound = oc_TightenBound(out, n, cap, bound);
			}
		}
		if (beforeSelf)
		{
			// the rest of the own cell (or of every agent)
			beforeSelf = false;
			entry = self + 1;
			end = afterSelf;
			continue;
		}

		// the next cell of the block that may hold a candidate (none: done)
		for (++k; k < cellCount; ++k)
		{
			const ocGridCell* c = grid->cells + own->around[k];
			if (oc_CellLowerBound(c, pi) <= bound)
			{
				break;
			}
		}
		if (k >= cellCount)
		{
			break;
		}
		entry = grid->entries + grid->cells[own->around[k]].start;
		end = entry + grid->cells[own->around[k]].count;
	}
	return oc_InsertKept(out, n, cap, kept, m, seeded);
}

int oc_AgentGrid_NeighborsWithin(const ocAgentGrid* grid, int agent, double neighborDistance, int maxNeighbors,
								 double bound, ocNeighbor* out)
{
	return oc_AgentGrid_Query(grid, agent, neighborDistance, maxNeighbors, bound, NULL, 0, NULL, out);
}

int oc_AgentGrid_NeighborsSeeded(const ocAgentGrid* grid, int agent, double neighborDistance, int maxNeighbors,
								 double bound, const ocNeighbor* seed, int seedCount, const unsigned char* seeded,
								 ocNeighbor* out)
{
	if (seedCount == 0)
	{
		return oc_AgentGrid_Query(grid, agent, neighborDistance, maxNeighbors, bound, NULL, 0, NULL, out);
	}
	return oc_AgentGrid_Query(grid, agent, neighborDistance, maxNeighbors, bound, seed, seedCount, seeded, out);
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
