// SPDX-License-Identifier: MIT
// ORCA conformance, wasm32 build: the module's exported functions (see docs/wasm.md).
//
// A thin layer over the C port (runners/c, unchanged): flat signatures of i32 (pointers,
// counts, indices), i64 (seeds) and f64 values only; no struct crosses the boundary. Results
// that are doubles go to the 16 result slots at orca_result() (little-endian binary64, read
// back as bytes, so no engine's number type touches them); integer results are return values.
// Arrays are in linear memory, allocated with orca_alloc / orca_free by the caller.

#include "driver.h"
#include "orca.h"
#include "scene.h"
#include "state_hash.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#define OW_EXPORT(name) __attribute__((export_name(#name))) name

#define OW_STRINGIFY(x) #x
#define OW_XSTRINGIFY(x) OW_STRINGIFY(x)

/// Version of this export layer (bumped when a signature or the layout changes).
#define OW_ABI 1

/// Returned by a vector entry point when an argument is out of range (nothing was called).
#define OW_BAD_ARGUMENT (-2)
/// Returned when scratch memory cannot be allocated.
#define OW_OUT_OF_MEMORY (-3)

#if defined(OC_FLAGS)
#define OW_FLAGS_TEXT OW_XSTRINGIFY(OC_FLAGS)
#else
#define OW_FLAGS_TEXT ""
#endif

size_t ow_HeapBytes(void);

/// Result slots of the vector entry points (doubles, little-endian in linear memory).
static double ow_result[16];

/// NUL-terminated build description: compiler and flags.
static const char ow_build[] = __VERSION__ "; flags: " OW_FLAGS_TEXT;

// Memory -----------------------------------------------------------------------------------------

int OW_EXPORT(orca_abi_version)(void)
{
	return OW_ABI;
}

const char* OW_EXPORT(orca_build_info)(void)
{
	return ow_build;
}

void* OW_EXPORT(orca_alloc)(int bytes)
{
	return bytes < 0 ? NULL : malloc((size_t)(bytes > 0 ? bytes : 1));
}

void OW_EXPORT(orca_free)(void* pointer)
{
	free(pointer);
}

double* OW_EXPORT(orca_result)(void)
{
	return ow_result;
}

int OW_EXPORT(orca_heap_bytes)(void)
{
	return (int)ow_HeapBytes();
}

// Scene and run ----------------------------------------------------------------------------------

ocScene* OW_EXPORT(orca_scene_create)(double dt, int steps, uint64_t seed, double magnitude)
{
	return oc_Scene_Create(dt, steps, seed, magnitude);
}

void OW_EXPORT(orca_scene_destroy)(ocScene* scene)
{
	oc_Scene_Destroy(scene);
}

int OW_EXPORT(orca_scene_add_segment)(ocScene* scene, double ax, double ay, double bx, double by)
{
	return oc_Scene_AddSegment(scene, ax, ay, bx, by);
}

int OW_EXPORT(orca_scene_add_agent)(ocScene* scene, double px, double py, double vx, double vy, double radius,
									double maxSpeed, double neighborDistance, int maxNeighbors, double timeHorizon,
									double timeHorizonObst, double goalRadius, const double* waypoints,
									int waypointCount)
{
	ocAgentParams params;
	params.radius = radius;
	params.maxSpeed = maxSpeed;
	params.neighborDistance = neighborDistance;
	params.maxNeighbors = maxNeighbors;
	params.timeHorizon = timeHorizon;
	params.timeHorizonObst = timeHorizonObst;
	return oc_Scene_AddAgent(scene, px, py, vx, vy, &params, goalRadius, waypoints, waypointCount);
}

// Many agents in one call (an engine whose calls are expensive, such as wasmtime from Python,
// makes one call per scene instead of one per agent). records: count rows of 10 doubles (px, py,
// vx, vy, radius, maxSpeed, neighborDistance, timeHorizon, timeHorizonObst, goalRadius);
// counts: count pairs of int32 (maxNeighbors, waypointCount); waypoints: every agent's
// waypoints (x, y) one after the other. Returns count, or the index of the agent that could
// not be added (out of memory) minus 1 (-1 - index).
int OW_EXPORT(orca_scene_add_agents)(ocScene* scene, const double* records, const int* counts, int count,
									 const double* waypoints)
{
	for (int i = 0; i < count; ++i)
	{
		const double* r = records + 10 * (size_t)i;
		ocAgentParams params;
		params.radius = r[4];
		params.maxSpeed = r[5];
		params.neighborDistance = r[6];
		params.maxNeighbors = counts[2 * i];
		params.timeHorizon = r[7];
		params.timeHorizonObst = r[8];
		int waypointCount = counts[2 * i + 1];
		if (oc_Scene_AddAgent(scene, r[0], r[1], r[2], r[3], &params, r[9], waypoints, waypointCount) < 0)
		{
			return -1 - i;
		}
		waypoints += 2 * (size_t)waypointCount;
	}
	return count;
}

ocRun* OW_EXPORT(orca_run_create)(const ocScene* scene)
{
	return oc_Run_Create(scene);
}

void OW_EXPORT(orca_run_destroy)(ocRun* run)
{
	oc_Run_Destroy(run);
}

int OW_EXPORT(orca_run_agent_count)(const ocRun* run)
{
	return oc_Run_GetAgentCount(run);
}

int OW_EXPORT(orca_run_step)(const ocRun* run)
{
	return oc_Run_GetStep(run);
}

void OW_EXPORT(orca_run_canonical_state)(const ocRun* run, unsigned char* out)
{
	oc_Run_CanonicalState(run, out);
}

int OW_EXPORT(orca_run_advance)(ocRun* run, int count, unsigned char* out)
{
	return oc_Run_Advance(run, count, out);
}

void OW_EXPORT(orca_run_dump)(ocRun* run, double* out)
{
	oc_Run_Dump(run, out);
}

// Primitive vectors ------------------------------------------------------------------------------
// One entry point per family of docs/protocol.md, arguments in the family's order; double
// results in ow_result[0..], integer results returned.

static void ow_Plane(ocHalfPlane plane)
{
	ow_result[0] = plane.point.x;
	ow_result[1] = plane.point.y;
	ow_result[2] = plane.normal.x;
	ow_result[3] = plane.normal.y;
}

void OW_EXPORT(orca_segment_distance_squared)(double ax, double ay, double bx, double by)
{
	ow_result[0] = oc_SegmentDistanceSquared(oc_MakeVec2(ax, ay), oc_MakeVec2(bx, by));
}

void OW_EXPORT(orca_support_distance)(double ax, double ay, double bx, double by, double r, double tau, double xx,
									  double xy, int overlap)
{
	ocSupport s = oc_SupportDistance(oc_MakeVec2(ax, ay), oc_MakeVec2(bx, by), r, tau, oc_MakeVec2(xx, xy),
									 overlap != 0);
	ow_result[0] = s.distance;
	ow_result[1] = s.normal.x;
	ow_result[2] = s.normal.y;
}

void OW_EXPORT(orca_agent_case_form)(double ax, double ay, double r, double tau, double xx, double xy)
{
	ocCaseForm form = oc_AgentCaseForm(oc_MakeVec2(ax, ay), r, tau, oc_MakeVec2(xx, xy));
	ow_result[0] = form.u.x;
	ow_result[1] = form.u.y;
	ow_result[2] = form.normal.x;
	ow_result[3] = form.normal.y;
}

void OW_EXPORT(orca_agent_constraint)(double ax, double ay, double r, double tau, double dt, double vax, double vay,
									  double vbx, double vby)
{
	ow_Plane(oc_AgentConstraint(oc_MakeVec2(ax, ay), r, tau, dt, oc_MakeVec2(vax, vay), oc_MakeVec2(vbx, vby)));
}

void OW_EXPORT(orca_segment_constraint)(double ax, double ay, double bx, double by, double r, double tau, double dt)
{
	ow_Plane(oc_SegmentConstraint(oc_MakeVec2(ax, ay), oc_MakeVec2(bx, by), r, tau, dt));
}

int OW_EXPORT(orca_for_boundary)(double ax, double ay, double bx, double by, double clearance, double tau)
{
	ocHalfPlane plane;
	if (!oc_ForBoundary(oc_MakeVec2(ax, ay), oc_MakeVec2(bx, by), clearance, tau, &plane))
	{
		return 0;
	}
	ow_Plane(plane);
	return 1;
}

// planes: count rows of (Px, Py, Nx, Ny), which is the layout of ocHalfPlane.
int OW_EXPORT(orca_solve_closest)(const ocHalfPlane* planes, int count, double radius, double px, double py)
{
	ocSolveResult r = oc_SolveClosest(planes, count, radius, oc_MakeVec2(px, py));
	ow_result[0] = r.velocity.x;
	ow_result[1] = r.velocity.y;
	return r.failed;
}

int OW_EXPORT(orca_solve_direction)(const ocHalfPlane* planes, int count, double radius, double ox, double oy)
{
	ocSolveResult r = oc_SolveDirection(planes, count, radius, oc_MakeVec2(ox, oy));
	ow_result[0] = r.velocity.x;
	ow_result[1] = r.velocity.y;
	return r.failed;
}

int OW_EXPORT(orca_relax)(const ocHalfPlane* planes, int count, int hardCount, double radius, int failed)
{
	if (count < 0 || hardCount < 0 || hardCount > count)
	{
		return OW_BAD_ARGUMENT;
	}
	// scratch for the fallback's programs: 2 * count + 4 planes, as the other runners give
	ocHalfPlane* scratch = (ocHalfPlane*)malloc((2 * (size_t)count + 4) * sizeof(ocHalfPlane));
	if (scratch == NULL)
	{
		return OW_OUT_OF_MEMORY;
	}
	ocVec2 v = oc_Relax(planes, count, hardCount, radius, failed, scratch);
	free(scratch);
	ow_result[0] = v.x;
	ow_result[1] = v.y;
	return 0;
}

// segments: count rows of (ax, ay, bx, by) (the layout of ocSegment); the indices found go to
// out (count int32 slots); returns how many.
int OW_EXPORT(orca_obstacle_neighbors)(double x, double y, double reach, const ocSegment* segments, int count,
									   int* out)
{
	if (count < 0)
	{
		return OW_BAD_ARGUMENT;
	}
	ocNeighbor* found = (ocNeighbor*)malloc(((size_t)count + 1) * sizeof(ocNeighbor));
	if (found == NULL)
	{
		return OW_OUT_OF_MEMORY;
	}
	int n = oc_ObstacleNeighbors(oc_MakeVec2(x, y), reach, segments, count, found);
	for (int k = 0; k < n; ++k)
	{
		out[k] = found[k].index;
	}
	free(found);
	return n;
}

// positions: count (x, y) pairs (the layout of ocVec2); indices to out (count int32 slots).
int OW_EXPORT(orca_agent_neighbors)(int agent, const ocVec2* positions, int count, double neighborDistance,
									int maxNeighbors, int* out)
{
	if (count < 0 || agent < 0 || agent >= count)
	{
		return OW_BAD_ARGUMENT;
	}
	ocNeighbor* found = (ocNeighbor*)malloc(((size_t)count + 1) * sizeof(ocNeighbor));
	if (found == NULL)
	{
		return OW_OUT_OF_MEMORY;
	}
	int n = oc_AgentNeighbors(agent, positions, count, neighborDistance, maxNeighbors, found);
	for (int k = 0; k < n; ++k)
	{
		out[k] = found[k].index;
	}
	free(found);
	return n;
}

uint64_t OW_EXPORT(orca_splitmix64)(uint64_t seed, uint64_t n)
{
	return oc_SplitMix64(seed, n);
}

void OW_EXPORT(orca_uniform)(uint64_t seed, uint64_t n)
{
	ow_result[0] = oc_Uniform(seed, n);
}

// waypoints: count (x, y) pairs; returns the new waypoint index k, the velocity in slots 0, 1.
int OW_EXPORT(orca_preferred_velocity)(double px, double py, const ocVec2* waypoints, int count, int k,
									   double goalRadius, double maxSpeed, double dt, uint64_t seed,
									   double magnitude, int step, int agent, int agentCount)
{
	if (count < 1 || k < 0 || k >= count)
	{
		return OW_BAD_ARGUMENT;
	}
	ocVec2 v = oc_PreferredVelocity(oc_MakeVec2(px, py), waypoints, count, &k, goalRadius, maxSpeed, dt, seed,
									magnitude, step, agent, agentCount);
	ow_result[0] = v.x;
	ow_result[1] = v.y;
	return k;
}

// agent_step: one agent's work in a step through a fresh simulator holding the given
// start-of-step state. records: count rows of 11 doubles (x, y, vx, vy, prefx, prefy, radius,
// maxSpeed, neighborDistance, timeHorizon, timeHorizonObst); maxNeighbors: count int32;
// segments: segmentCount rows of (ax, ay, bx, by). The constraint list goes to lines (room for
// count + segmentCount planes), the hard count to *hardCount, the velocity to slots 0, 1;
// returns the number of constraints.
int OW_EXPORT(orca_agent_step)(int agent, const double* records, const int* maxNeighbors, int count,
							   const ocSegment* segments, int segmentCount, double dt, ocHalfPlane* lines,
							   int* hardCount)
{
	if (count < 0 || segmentCount < 0 || agent < 0 || agent >= count)
	{
		return OW_BAD_ARGUMENT;
	}
	ocSimulator* sim = oc_Simulator_Create();
	if (sim == NULL)
	{
		return OW_OUT_OF_MEMORY;
	}
	int status = 0;
	for (int k = 0; k < segmentCount && status == 0; ++k)
	{
		if (oc_Simulator_AddSegment(sim, segments[k].a, segments[k].b) < 0)
		{
			status = OW_OUT_OF_MEMORY;
		}
	}
	for (int i = 0; i < count && status == 0; ++i)
	{
		const double* r = records + 11 * (size_t)i;
		ocAgentParams params;
		params.radius = r[6];
		params.maxSpeed = r[7];
		params.neighborDistance = r[8];
		params.maxNeighbors = maxNeighbors[i];
		params.timeHorizon = r[9];
		params.timeHorizonObst = r[10];
		if (oc_Simulator_AddAgent(sim, oc_MakeVec2(r[0], r[1]), &params, oc_MakeVec2(r[2], r[3])) < 0)
		{
			status = OW_OUT_OF_MEMORY;
			break;
		}
		oc_Simulator_SetPreferredVelocity(sim, i, oc_MakeVec2(r[4], r[5]));
	}
	if (status == 0)
	{
		status = oc_Simulator_Constraints(sim, agent, dt, lines, hardCount);
		ocVec2 v = oc_Simulator_NewVelocity(sim, agent, dt);
		ow_result[0] = v.x;
		ow_result[1] = v.y;
	}
	oc_Simulator_Destroy(sim);
	return status;
}
