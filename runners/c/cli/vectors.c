// SPDX-License-Identifier: MIT
// ORCA conformance CLI: primitive vector families (see vectors.h). Every family mirrors
// conformance/runners/cffi_runner.py's _PRIMITIVES: the same C entry point, the same argument
// order, the same result layout.

#include "vectors.h"

#include "driver.h"
#include "orca.h"
#include "state_hash.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// Case arguments ---------------------------------------------------------------------------------

/// Reader of one case's arguments, in order; the first problem is kept and later reads return
/// zeros, so a family body reads everything and checks once.
typedef struct ocCase
{
	/// next argument to read
	const ocJson* arg;
	/// index of that argument
	int index;
	/// first problem met (NULL when none)
	const char* problem;
	/// index of the argument with the problem
	int problemIndex;
	/// where the result goes
	ocReply* reply;
} ocCase;

static const ocJson* oc_Case_Next(ocCase* c)
{
	const ocJson* arg = c->arg;
	if (arg != NULL)
	{
		c->arg = arg->next;
	}
	c->index += 1;
	return arg;
}

static void oc_Case_Problem(ocCase* c, int index, const char* problem)
{
	if (c->problem == NULL)
	{
		c->problem = problem;
		c->problemIndex = index;
	}
}

// A hex double: exactly 16 hex digits of the bit pattern.
static bool oc_ParseHexDouble(const ocJson* value, double* out)
{
	if (value == NULL || value->type != ocJsonString || value->length != 16)
	{
		return false;
	}
	uint64_t bits = 0;
	for (int k = 0; k < 16; ++k)
	{
		char ch = value->text[k];
		int digit;
		if (ch >= '0' && ch <= '9')
		{
			digit = ch - '0';
		}
		else if (ch >= 'a' && ch <= 'f')
		{
			digit = ch - 'a' + 10;
		}
		else if (ch >= 'A' && ch <= 'F')
		{
			digit = ch - 'A' + 10;
		}
		else
		{
			return false;
		}
		bits = bits << 4 | (uint64_t)digit;
	}
	*out = oc_BitsDouble(bits);
	return true;
}

static double oc_Case_Double(ocCase* c)
{
	int index = c->index;
	double value = 0.0;
	if (!oc_ParseHexDouble(oc_Case_Next(c), &value))
	{
		oc_Case_Problem(c, index, "expected a hex double (16 hex digits)");
		return 0.0;
	}
	return value;
}

static int oc_Case_Int(ocCase* c)
{
	int index = c->index;
	int value = 0;
	if (!oc_Json_ToInt(oc_Case_Next(c), &value))
	{
		oc_Case_Problem(c, index, "expected an integer that fits an int");
		return 0;
	}
	return value;
}

// An integer taken modulo 2^64, as the reference masks seed and n (-2^63 .. 2^64 - 1).
static uint64_t oc_Case_Word(ocCase* c)
{
	int index = c->index;
	const ocJson* arg = oc_Case_Next(c);
	uint64_t word = 0;
	int64_t signedWord = 0;
	if (oc_Json_ToUInt64(arg, &word))
	{
		return word;
	}
	if (oc_Json_ToInt64(arg, &signedWord))
	{
		return (uint64_t)signedWord;
	}
	oc_Case_Problem(c, index, "expected a 64-bit integer");
	return 0;
}

// A list of rows of width hex doubles into a new array (count * width doubles, at least one
// slot); NULL with the problem recorded when malformed or out of memory.
static double* oc_Case_Rows(ocCase* c, int width, int* count)
{
	int index = c->index;
	const ocJson* list = oc_Case_Next(c);
	*count = 0;
	if (!oc_Json_IsArray(list, -1))
	{
		oc_Case_Problem(c, index, "expected a list");
		return NULL;
	}
	double* out = (double*)malloc(((size_t)list->count * (size_t)width + 1) * sizeof(double));
	if (out == NULL)
	{
		oc_Case_Problem(c, index, "out of memory");
		return NULL;
	}
	size_t k = 0;
	for (const ocJson* row = list->first; row != NULL; row = row->next)
	{
		// width 1: a flat list of doubles; else a list of rows of that width
		if (width == 1)
		{
			if (!oc_ParseHexDouble(row, out + k++))
			{
				oc_Case_Problem(c, index, "expected a list of hex doubles");
				free(out);
				return NULL;
			}
			continue;
		}
		if (!oc_Json_IsArray(row, width))
		{
			oc_Case_Problem(c, index, width == 4 ? "expected rows of 4 hex doubles" : "expected rows of 2 hex doubles");
			free(out);
			return NULL;
		}
		for (const ocJson* item = row->first; item != NULL; item = item->next)
		{
			if (!oc_ParseHexDouble(item, out + k++))
			{
				oc_Case_Problem(c, index, "expected rows of hex doubles");
				free(out);
				return NULL;
			}
		}
	}
	*count = list->count;
	return out;
}

// A list of integers that fit an int into a new array (at least one slot); NULL with the
// problem recorded when malformed or out of memory.
static int* oc_Case_Ints(ocCase* c, int* count)
{
	int index = c->index;
	const ocJson* list = oc_Case_Next(c);
	*count = 0;
	if (!oc_Json_IsArray(list, -1))
	{
		oc_Case_Problem(c, index, "expected a list");
		return NULL;
	}
	int* out = (int*)malloc(((size_t)list->count + 1) * sizeof(int));
	if (out == NULL)
	{
		oc_Case_Problem(c, index, "out of memory");
		return NULL;
	}
	int k = 0;
	for (const ocJson* item = list->first; item != NULL; item = item->next)
	{
		if (!oc_Json_ToInt(item, out + k++))
		{
			oc_Case_Problem(c, index, "expected a list of integers that fit an int");
			free(out);
			return NULL;
		}
	}
	*count = list->count;
	return out;
}

// Half-planes (Px, Py, Nx, Ny) from a list of rows; at least one slot.
static ocHalfPlane* oc_Case_Planes(ocCase* c, int* count)
{
	double* rows = oc_Case_Rows(c, 4, count);
	if (rows == NULL)
	{
		return NULL;
	}
	ocHalfPlane* planes = (ocHalfPlane*)malloc(((size_t)*count + 1) * sizeof(ocHalfPlane));
	if (planes == NULL)
	{
		oc_Case_Problem(c, c->index - 1, "out of memory");
		free(rows);
		return NULL;
	}
	for (int k = 0; k < *count; ++k)
	{
		const double* row = rows + 4 * (size_t)k;
		planes[k].point = oc_MakeVec2(row[0], row[1]);
		planes[k].normal = oc_MakeVec2(row[2], row[3]);
	}
	free(rows);
	return planes;
}

// Result writers ---------------------------------------------------------------------------------

static void oc_Put(ocCase* c, const char* text)
{
	oc_Reply_Text(c->reply, text);
}

static void oc_PutHexList(ocCase* c, const double* values, int count)
{
	oc_Put(c, "[");
	for (int k = 0; k < count; ++k)
	{
		if (k > 0)
		{
			oc_Put(c, ",");
		}
		oc_Reply_Hex(c->reply, values[k]);
	}
	oc_Put(c, "]");
}

static void oc_PutPlane(ocCase* c, ocHalfPlane plane)
{
	double values[4] = { plane.point.x, plane.point.y, plane.normal.x, plane.normal.y };
	oc_PutHexList(c, values, 4);
}

static void oc_PutIndices(ocCase* c, const ocNeighbor* found, int count)
{
	oc_Put(c, "[[");
	for (int k = 0; k < count; ++k)
	{
		if (k > 0)
		{
			oc_Put(c, ",");
		}
		oc_Reply_Int(c->reply, found[k].index);
	}
	oc_Put(c, "]]");
}

// Families ---------------------------------------------------------------------------------------
// Each reads its arguments, returns false when c->problem is set (nothing is called then) and
// otherwise writes its result list.

static bool oc_SegmentDistanceSquaredCase(ocCase* c)
{
	double ax = oc_Case_Double(c), ay = oc_Case_Double(c), bx = oc_Case_Double(c), by = oc_Case_Double(c);
	if (c->problem != NULL)
	{
		return false;
	}
	double d2 = oc_SegmentDistanceSquared(oc_MakeVec2(ax, ay), oc_MakeVec2(bx, by));
	oc_PutHexList(c, &d2, 1);
	return true;
}

static bool oc_SupportDistanceCase(ocCase* c)
{
	double ax = oc_Case_Double(c), ay = oc_Case_Double(c), bx = oc_Case_Double(c), by = oc_Case_Double(c);
	double r = oc_Case_Double(c), tau = oc_Case_Double(c), xx = oc_Case_Double(c), xy = oc_Case_Double(c);
	int overlap = oc_Case_Int(c);
	if (c->problem != NULL)
	{
		return false;
	}
	ocSupport s = oc_SupportDistance(oc_MakeVec2(ax, ay), oc_MakeVec2(bx, by), r, tau, oc_MakeVec2(xx, xy),
									 overlap != 0);
	double values[3] = { s.distance, s.normal.x, s.normal.y };
	oc_PutHexList(c, values, 3);
	return true;
}

static bool oc_AgentCaseFormCase(ocCase* c)
{
	double ax = oc_Case_Double(c), ay = oc_Case_Double(c), r = oc_Case_Double(c), tau = oc_Case_Double(c);
	double xx = oc_Case_Double(c), xy = oc_Case_Double(c);
	if (c->problem != NULL)
	{
		return false;
	}
	ocCaseForm form = oc_AgentCaseForm(oc_MakeVec2(ax, ay), r, tau, oc_MakeVec2(xx, xy));
	double values[4] = { form.u.x, form.u.y, form.normal.x, form.normal.y };
	oc_PutHexList(c, values, 4);
	return true;
}

static bool oc_AgentConstraintCase(ocCase* c)
{
	double ax = oc_Case_Double(c), ay = oc_Case_Double(c), r = oc_Case_Double(c), tau = oc_Case_Double(c);
	double dt = oc_Case_Double(c), vax = oc_Case_Double(c), vay = oc_Case_Double(c);
	double vbx = oc_Case_Double(c), vby = oc_Case_Double(c);
	if (c->problem != NULL)
	{
		return false;
	}
	oc_PutPlane(c, oc_AgentConstraint(oc_MakeVec2(ax, ay), r, tau, dt, oc_MakeVec2(vax, vay), oc_MakeVec2(vbx, vby)));
	return true;
}

static bool oc_SegmentConstraintCase(ocCase* c)
{
	double ax = oc_Case_Double(c), ay = oc_Case_Double(c), bx = oc_Case_Double(c), by = oc_Case_Double(c);
	double r = oc_Case_Double(c), tau = oc_Case_Double(c), dt = oc_Case_Double(c);
	if (c->problem != NULL)
	{
		return false;
	}
	oc_PutPlane(c, oc_SegmentConstraint(oc_MakeVec2(ax, ay), oc_MakeVec2(bx, by), r, tau, dt));
	return true;
}

static bool oc_ForBoundaryCase(ocCase* c)
{
	double ax = oc_Case_Double(c), ay = oc_Case_Double(c), bx = oc_Case_Double(c), by = oc_Case_Double(c);
	double clearance = oc_Case_Double(c), tau = oc_Case_Double(c);
	if (c->problem != NULL)
	{
		return false;
	}
	ocHalfPlane plane;
	if (oc_ForBoundary(oc_MakeVec2(ax, ay), oc_MakeVec2(bx, by), clearance, tau, &plane))
	{
		oc_Put(c, "[");
		oc_PutPlane(c, plane);
		oc_Put(c, "]");
	}
	else
	{
		// no constraint: the one result value is the empty list
		oc_Put(c, "[[]]");
	}
	return true;
}

static bool oc_SolveCase(ocCase* c, bool closest)
{
	int count = 0;
	ocHalfPlane* planes = oc_Case_Planes(c, &count);
	double radius = oc_Case_Double(c), x = oc_Case_Double(c), y = oc_Case_Double(c);
	if (c->problem != NULL)
	{
		free(planes);
		return false;
	}
	ocSolveResult r = closest ? oc_SolveClosest(planes, count, radius, oc_MakeVec2(x, y))
							  : oc_SolveDirection(planes, count, radius, oc_MakeVec2(x, y));
	free(planes);
	oc_Put(c, "[");
	oc_Reply_Hex(c->reply, r.velocity.x);
	oc_Put(c, ",");
	oc_Reply_Hex(c->reply, r.velocity.y);
	oc_Put(c, ",");
	oc_Reply_Int(c->reply, r.failed);
	oc_Put(c, "]");
	return true;
}

static bool oc_SolveClosestCase(ocCase* c)
{
	return oc_SolveCase(c, true);
}

static bool oc_SolveDirectionCase(ocCase* c)
{
	return oc_SolveCase(c, false);
}

static bool oc_RelaxCase(ocCase* c)
{
	int count = 0;
	ocHalfPlane* planes = oc_Case_Planes(c, &count);
	int hardCount = oc_Case_Int(c);
	double radius = oc_Case_Double(c);
	int failed = oc_Case_Int(c);
	if (c->problem == NULL && (hardCount < 0 || hardCount > count))
	{
		oc_Case_Problem(c, 1, "hardCount must be in 0 .. len(lines)");
	}
	// scratch for the fallback's programs: at least 2 * count + 4 planes, like the cffi runner
	ocHalfPlane* scratch = (ocHalfPlane*)malloc((2 * (size_t)count + 4) * sizeof(ocHalfPlane));
	if (c->problem == NULL && scratch == NULL)
	{
		oc_Case_Problem(c, 0, "out of memory");
	}
	if (c->problem != NULL)
	{
		free(planes);
		free(scratch);
		return false;
	}
	ocVec2 v = oc_Relax(planes, count, hardCount, radius, failed, scratch);
	free(planes);
	free(scratch);
	double values[2] = { v.x, v.y };
	oc_PutHexList(c, values, 2);
	return true;
}

static bool oc_ObstacleNeighborsCase(ocCase* c)
{
	double x = oc_Case_Double(c), y = oc_Case_Double(c), reach = oc_Case_Double(c);
	int count = 0;
	double* rows = oc_Case_Rows(c, 4, &count);
	ocSegment* segments = (ocSegment*)malloc(((size_t)count + 1) * sizeof(ocSegment));
	ocNeighbor* found = (ocNeighbor*)malloc(((size_t)count + 1) * sizeof(ocNeighbor));
	if (c->problem == NULL && (segments == NULL || found == NULL))
	{
		oc_Case_Problem(c, 3, "out of memory");
	}
	if (c->problem != NULL)
	{
		free(rows);
		free(segments);
		free(found);
		return false;
	}
	for (int k = 0; k < count; ++k)
	{
		const double* row = rows + 4 * (size_t)k;
		segments[k].a = oc_MakeVec2(row[0], row[1]);
		segments[k].b = oc_MakeVec2(row[2], row[3]);
	}
	int n = oc_ObstacleNeighbors(oc_MakeVec2(x, y), reach, segments, count, found);
	oc_PutIndices(c, found, n);
	free(rows);
	free(segments);
	free(found);
	return true;
}

static bool oc_AgentNeighborsCase(ocCase* c)
{
	int agent = oc_Case_Int(c);
	int xCount = 0, yCount = 0;
	double* xs = oc_Case_Rows(c, 1, &xCount);
	double* ys = oc_Case_Rows(c, 1, &yCount);
	double nd = oc_Case_Double(c);
	int maxNeighbors = oc_Case_Int(c);
	if (c->problem == NULL && xCount != yCount)
	{
		oc_Case_Problem(c, 2, "xs and ys differ in length");
	}
	if (c->problem == NULL && (agent < 0 || agent >= xCount))
	{
		oc_Case_Problem(c, 0, "agent index out of range");
	}
	ocVec2* positions = (ocVec2*)malloc(((size_t)xCount + 1) * sizeof(ocVec2));
	ocNeighbor* found = (ocNeighbor*)malloc(((size_t)xCount + 1) * sizeof(ocNeighbor));
	if (c->problem == NULL && (positions == NULL || found == NULL))
	{
		oc_Case_Problem(c, 1, "out of memory");
	}
	if (c->problem != NULL)
	{
		free(xs);
		free(ys);
		free(positions);
		free(found);
		return false;
	}
	for (int k = 0; k < xCount; ++k)
	{
		positions[k] = oc_MakeVec2(xs[k], ys[k]);
	}
	int n = oc_AgentNeighbors(agent, positions, xCount, nd, maxNeighbors, found);
	oc_PutIndices(c, found, n);
	free(xs);
	free(ys);
	free(positions);
	free(found);
	return true;
}

static bool oc_SplitMix64Case(ocCase* c)
{
	uint64_t seed = oc_Case_Word(c), n = oc_Case_Word(c);
	if (c->problem != NULL)
	{
		return false;
	}
	// the raw 64-bit output, not a double: 16 hex digits of z
	double asBits = oc_BitsDouble(oc_SplitMix64(seed, n));
	oc_Put(c, "[");
	oc_Reply_Hex(c->reply, asBits);
	oc_Put(c, "]");
	return true;
}

static bool oc_UniformCase(ocCase* c)
{
	uint64_t seed = oc_Case_Word(c), n = oc_Case_Word(c);
	if (c->problem != NULL)
	{
		return false;
	}
	double u = oc_Uniform(seed, n);
	oc_PutHexList(c, &u, 1);
	return true;
}

static bool oc_PreferredVelocityCase(ocCase* c)
{
	double px = oc_Case_Double(c), py = oc_Case_Double(c);
	int count = 0;
	double* rows = oc_Case_Rows(c, 2, &count);
	int k = oc_Case_Int(c);
	double goalRadius = oc_Case_Double(c), maxSpeed = oc_Case_Double(c), dt = oc_Case_Double(c);
	uint64_t seed = oc_Case_Word(c);
	double magnitude = oc_Case_Double(c);
	int step = oc_Case_Int(c), agent = oc_Case_Int(c), agentCount = oc_Case_Int(c);
	if (c->problem == NULL && count < 1)
	{
		oc_Case_Problem(c, 2, "at least one waypoint is needed");
	}
	if (c->problem == NULL && (k < 0 || k >= count))
	{
		oc_Case_Problem(c, 3, "waypoint index out of range");
	}
	ocVec2* waypoints = (ocVec2*)malloc(((size_t)count + 1) * sizeof(ocVec2));
	if (c->problem == NULL && waypoints == NULL)
	{
		oc_Case_Problem(c, 2, "out of memory");
	}
	if (c->problem != NULL)
	{
		free(rows);
		free(waypoints);
		return false;
	}
	for (int j = 0; j < count; ++j)
	{
		waypoints[j] = oc_MakeVec2(rows[2 * j], rows[2 * j + 1]);
	}
	ocVec2 v = oc_PreferredVelocity(oc_MakeVec2(px, py), waypoints, count, &k, goalRadius, maxSpeed, dt, seed,
									magnitude, step, agent, agentCount);
	free(rows);
	free(waypoints);
	oc_Put(c, "[");
	oc_Reply_Hex(c->reply, v.x);
	oc_Put(c, ",");
	oc_Reply_Hex(c->reply, v.y);
	oc_Put(c, ",");
	oc_Reply_Int(c->reply, k);
	oc_Put(c, "]");
	return true;
}

// agent_step: one agent's work in a step through the simulator the scenes use (a fresh
// oc_Simulator holding the given start-of-step state): its constraint list, hard count and new
// velocity. Arguments 1-12 are parallel per-agent lists; 13 the segments; 14 dt.
#define OC_STEP_LISTS 12

static bool oc_AgentStepCase(ocCase* c)
{
	int agent = oc_Case_Int(c);
	double* lists[OC_STEP_LISTS] = { NULL };
	int* maxNeighbors = NULL;
	int counts[OC_STEP_LISTS] = { 0 };
	for (int k = 0; k < OC_STEP_LISTS; ++k)
	{
		// argument 10 (list index 9) is max_neighbors, integers
		if (k == 9)
		{
			maxNeighbors = oc_Case_Ints(c, counts + k);
		}
		else
		{
			lists[k] = oc_Case_Rows(c, 1, counts + k);
		}
	}
	int segmentCount = 0;
	double* rows = oc_Case_Rows(c, 4, &segmentCount);
	double dt = oc_Case_Double(c);
	int n = counts[0];
	for (int k = 1; k < OC_STEP_LISTS && c->problem == NULL; ++k)
	{
		if (counts[k] != n)
		{
			oc_Case_Problem(c, k + 1, "the per-agent lists (arguments 1-12) differ in length");
		}
	}
	if (c->problem == NULL && (agent < 0 || agent >= n))
	{
		oc_Case_Problem(c, 0, "agent index out of range");
	}
	ocSimulator* sim = c->problem == NULL ? oc_Simulator_Create() : NULL;
	ocHalfPlane* planes = (ocHalfPlane*)malloc(((size_t)n + (size_t)segmentCount + 1) * sizeof(ocHalfPlane));
	if (c->problem == NULL && (sim == NULL || planes == NULL))
	{
		oc_Case_Problem(c, 1, "out of memory");
	}
	for (int k = 0; k < segmentCount && c->problem == NULL; ++k)
	{
		const double* row = rows + 4 * (size_t)k;
		if (oc_Simulator_AddSegment(sim, oc_MakeVec2(row[0], row[1]), oc_MakeVec2(row[2], row[3])) < 0)
		{
			oc_Case_Problem(c, 13, "out of memory");
		}
	}
	for (int i = 0; i < n && c->problem == NULL; ++i)
	{
		ocAgentParams params;
		params.radius = lists[6][i];
		params.maxSpeed = lists[7][i];
		params.neighborDistance = lists[8][i];
		params.maxNeighbors = maxNeighbors[i];
		params.timeHorizon = lists[10][i];
		params.timeHorizonObst = lists[11][i];
		if (oc_Simulator_AddAgent(sim, oc_MakeVec2(lists[0][i], lists[1][i]), &params,
								  oc_MakeVec2(lists[2][i], lists[3][i])) < 0)
		{
			oc_Case_Problem(c, 1, "out of memory");
			break;
		}
		oc_Simulator_SetPreferredVelocity(sim, i, oc_MakeVec2(lists[4][i], lists[5][i]));
	}
	bool ok = c->problem == NULL;
	if (ok)
	{
		int hardCount = 0;
		int count = oc_Simulator_Constraints(sim, agent, dt, planes, &hardCount);
		ocVec2 v = oc_Simulator_NewVelocity(sim, agent, dt);
		oc_Put(c, "[[");
		for (int k = 0; k < count; ++k)
		{
			if (k > 0)
			{
				oc_Put(c, ",");
			}
			oc_PutPlane(c, planes[k]);
		}
		oc_Put(c, "],");
		oc_Reply_Int(c->reply, hardCount);
		oc_Put(c, ",");
		oc_Reply_Hex(c->reply, v.x);
		oc_Put(c, ",");
		oc_Reply_Hex(c->reply, v.y);
		oc_Put(c, "]");
	}
	oc_Simulator_Destroy(sim);
	free(planes);
	free(rows);
	free(maxNeighbors);
	for (int k = 0; k < OC_STEP_LISTS; ++k)
	{
		free(lists[k]);
	}
	return ok;
}

// Dispatch ---------------------------------------------------------------------------------------

typedef bool ocFamilyFcn(ocCase* c);

/// A family: its protocol name, its argument count and its body.
typedef struct ocFamily
{
	const char* name;
	int argCount;
	ocFamilyFcn* fcn;
} ocFamily;

static const ocFamily oc_families[] = {
	{ "segment_distance_squared", 4, oc_SegmentDistanceSquaredCase },
	{ "support_distance", 9, oc_SupportDistanceCase },
	{ "agent_case_form", 6, oc_AgentCaseFormCase },
	{ "agent_constraint", 9, oc_AgentConstraintCase },
	{ "segment_constraint", 7, oc_SegmentConstraintCase },
	{ "for_boundary", 6, oc_ForBoundaryCase },
	{ "solve_closest", 4, oc_SolveClosestCase },
	{ "solve_direction", 4, oc_SolveDirectionCase },
	{ "relax", 4, oc_RelaxCase },
	{ "obstacle_neighbors", 4, oc_ObstacleNeighborsCase },
	{ "agent_neighbors", 5, oc_AgentNeighborsCase },
	{ "splitmix64", 2, oc_SplitMix64Case },
	{ "uniform", 2, oc_UniformCase },
	{ "preferred_velocity", 12, oc_PreferredVelocityCase },
	{ "agent_step", 15, oc_AgentStepCase },
};

void oc_Vectors_WriteNames(ocReply* reply)
{
	oc_Reply_Text(reply, "[");
	for (size_t k = 0; k < sizeof oc_families / sizeof oc_families[0]; ++k)
	{
		if (k > 0)
		{
			oc_Reply_Text(reply, ",");
		}
		oc_Reply_String(reply, oc_families[k].name);
	}
	oc_Reply_Text(reply, "]");
}

bool oc_Vectors_Evaluate(const ocJson* family, const ocJson* cases, ocReply* reply, char* error, size_t errorSize)
{
	const ocFamily* found = NULL;
	if (family == NULL || family->type != ocJsonString)
	{
		snprintf(error, errorSize, "vectors: \"family\" must be a string");
		return false;
	}
	for (size_t k = 0; k < sizeof oc_families / sizeof oc_families[0]; ++k)
	{
		if (oc_Json_IsString(family, oc_families[k].name))
		{
			found = oc_families + k;
		}
	}
	if (found == NULL)
	{
		snprintf(error, errorSize, "vectors: unknown family \"%.64s\"", family->text);
		return false;
	}
	if (!oc_Json_IsArray(cases, -1))
	{
		snprintf(error, errorSize, "vectors: \"cases\" must be a list");
		return false;
	}

	oc_Reply_Text(reply, "{\"results\":[");
	int index = 0;
	for (const ocJson* item = cases->first; item != NULL; item = item->next, ++index)
	{
		if (!oc_Json_IsArray(item, found->argCount))
		{
			snprintf(error, errorSize, "vectors %s: case %d must be a list of %d arguments", found->name, index,
					 found->argCount);
			return false;
		}
		ocCase c = { item->first, 0, NULL, 0, reply };
		if (index > 0)
		{
			oc_Reply_Text(reply, ",");
		}
		if (!found->fcn(&c))
		{
			snprintf(error, errorSize, "vectors %s: case %d, argument %d: %s", found->name, index, c.problemIndex,
					 c.problem != NULL ? c.problem : "invalid");
			return false;
		}
	}
	oc_Reply_Text(reply, "]}");
	return true;
}
