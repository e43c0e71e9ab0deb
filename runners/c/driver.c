// SPDX-License-Identifier: MIT
// ORCA conformance, C99 port of conformance/driver.py (see driver.h).

#include "driver.h"
#include "state_hash.h"

#include <math.h>
#include <stdlib.h>

#define OC_GOLDEN_GAMMA UINT64_C(0x9E3779B97F4A7C15)

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

ocVec2 oc_PreferredVelocity(ocVec2 position, const ocVec2* waypoints, int count, int* k,
							double goalRadius, double maxSpeed, double dt, uint64_t seed,
							double magnitude, int step, int agent, int agentCount)
{
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
	int step;
	int threads;
};

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
	int n = run->view.agentCount;
	size_t slots = (size_t)(n > 0 ? n : 1);
	run->sim = oc_Simulator_Create();
	run->waypoint = (int*)calloc(slots, sizeof(int));
	run->positions = (ocVec2*)calloc(slots, sizeof(ocVec2));
	run->velocities = (ocVec2*)calloc(slots, sizeof(ocVec2));
	run->preferred = (ocVec2*)calloc(slots, sizeof(ocVec2));
	run->newVelocities = (ocVec2*)calloc(slots, sizeof(ocVec2));
	if (run->sim == NULL || run->waypoint == NULL || run->positions == NULL || run->velocities == NULL ||
		run->preferred == NULL || run->newVelocities == NULL)
	{
		oc_Run_Destroy(run);
		return NULL;
	}
	for (int s = 0; s < run->view.segmentCount; ++s)
	{
		const double* seg = run->view.segments + 4 * s;
		if (oc_Simulator_AddSegment(run->sim, oc_MakeVec2(seg[0], seg[1]), oc_MakeVec2(seg[2], seg[3])) < 0)
		{
			oc_Run_Destroy(run);
			return NULL;
		}
	}
	for (int i = 0; i < n; ++i)
	{
		const ocSceneAgent* agent = run->view.agents + i;
		if (oc_Simulator_AddAgent(run->sim, agent->position, &agent->params, agent->velocity) < 0)
		{
			oc_Run_Destroy(run);
			return NULL;
		}
	}
	return run;
}

void oc_Run_Destroy(ocRun* run)
{
	if (run != NULL)
	{
		oc_Simulator_Destroy(run->sim);
		free(run->waypoint);
		free(run->positions);
		free(run->velocities);
		free(run->preferred);
		free(run->newVelocities);
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

void oc_Run_SetThreads(ocRun* run, int threads)
{
	run->threads = threads < 1 ? 1 : threads;
}

void oc_Run_CanonicalState(const ocRun* run, unsigned char* out)
{
	int n = run->view.agentCount;
	oc_Simulator_GetPositions(run->sim, run->positions);
	oc_Simulator_GetVelocities(run->sim, run->velocities);
	oc_CanonicalBytes(run->positions, run->velocities, n, out);
}

// Preferred velocities of every agent from the current state (advances waypoint indices, which
// is idempotent for a given state).
static void oc_Run_Prefer(ocRun* run)
{
	const ocSceneView* view = &run->view;
	int n = view->agentCount;
	oc_Simulator_GetPositions(run->sim, run->positions);
	for (int i = 0; i < n; ++i)
	{
		const ocSceneAgent* agent = view->agents + i;
		run->preferred[i] = oc_PreferredVelocity(
			run->positions[i], view->waypoints + agent->firstWaypoint, agent->waypointCount, run->waypoint + i,
			agent->goalRadius, agent->params.maxSpeed, view->dt, view->seed, view->magnitude, run->step, i, n);
	}
	oc_Simulator_SetPreferredVelocities(run->sim, run->preferred);
}

void oc_Run_StepThreaded(ocSimulator* sim, double dt, int threads, ocVec2* scratch);

int oc_Run_Advance(ocRun* run, int count, unsigned char* out)
{
	int n = run->view.agentCount;
	size_t stride = (size_t)n * OC_AGENT_BYTES;
	for (int s = 0; s < count; ++s)
	{
		if (n > 0)
		{
			oc_Run_Prefer(run);
			oc_Run_StepThreaded(run->sim, run->view.dt, run->threads, run->newVelocities);
		}
		run->step += 1;
		oc_Simulator_GetPositions(run->sim, run->positions);
		oc_Simulator_GetVelocities(run->sim, run->velocities);
		if (!oc_IsFiniteState(run->positions, run->velocities, n))
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
