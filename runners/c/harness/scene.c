// SPDX-License-Identifier: MIT
// ORCA conformance, C99 port of the expanded scene (see scene.h).

#include "scene.h"

#include <stdlib.h>
#include <string.h>

struct ocScene
{
	double dt;
	int steps;
	uint64_t seed;
	double magnitude;
	ocSceneAgent* agents;
	int agentCount, agentCapacity;
	ocVec2* waypoints;
	int waypointCount, waypointCapacity;
	double* segments;
	int segmentCount, segmentCapacity;
};

static int oc_Grow(void** data, int* capacity, int needed, size_t itemSize)
{
	if (needed <= *capacity)
	{
		return 1;
	}
	int next = *capacity > 0 ? *capacity * 2 : 16;
	while (next < needed)
	{
		next *= 2;
	}
	void* grown = realloc(*data, (size_t)next * itemSize);
	if (grown == NULL)
	{
		return 0;
	}
	*data = grown;
	*capacity = next;
	return 1;
}

ocScene* oc_Scene_Create(double dt, int steps, uint64_t seed, double magnitude)
{
	ocScene* scene = (ocScene*)calloc(1, sizeof(ocScene));
	if (scene != NULL)
	{
		scene->dt = dt;
		scene->steps = steps;
		scene->seed = seed;
		scene->magnitude = magnitude;
	}
	return scene;
}

void oc_Scene_Destroy(ocScene* scene)
{
	if (scene != NULL)
	{
		free(scene->agents);
		free(scene->waypoints);
		free(scene->segments);
		free(scene);
	}
}

int oc_Scene_AddSegment(ocScene* scene, double ax, double ay, double bx, double by)
{
	if (!oc_Grow((void**)&scene->segments, &scene->segmentCapacity, 4 * (scene->segmentCount + 1), sizeof(double)))
	{
		return -1;
	}
	double* s = scene->segments + 4 * scene->segmentCount;
	s[0] = ax;
	s[1] = ay;
	s[2] = bx;
	s[3] = by;
	return scene->segmentCount++;
}

int oc_Scene_AddAgent(ocScene* scene, double px, double py, double vx, double vy,
					  const ocAgentParams* params, double goalRadius,
					  const double* waypoints, int waypointCount)
{
	if (waypointCount < 1)
	{
		return -1;
	}
	if (!oc_Grow((void**)&scene->agents, &scene->agentCapacity, scene->agentCount + 1, sizeof(ocSceneAgent)) ||
		!oc_Grow((void**)&scene->waypoints, &scene->waypointCapacity, scene->waypointCount + waypointCount,
				 sizeof(ocVec2)))
	{
		return -1;
	}
	ocSceneAgent* agent = scene->agents + scene->agentCount;
	agent->position = oc_MakeVec2(px, py);
	agent->velocity = oc_MakeVec2(vx, vy);
	agent->params = *params;
	agent->goalRadius = goalRadius;
	agent->firstWaypoint = scene->waypointCount;
	agent->waypointCount = waypointCount;
	for (int k = 0; k < waypointCount; ++k)
	{
		scene->waypoints[scene->waypointCount + k] = oc_MakeVec2(waypoints[2 * k], waypoints[2 * k + 1]);
	}
	scene->waypointCount += waypointCount;
	return scene->agentCount++;
}

int oc_Scene_GetAgentCount(const ocScene* scene)
{
	return scene->agentCount;
}

int oc_Scene_GetSteps(const ocScene* scene)
{
	return scene->steps;
}

ocSceneView oc_Scene_View(const ocScene* scene)
{
	ocSceneView view;
	view.dt = scene->dt;
	view.steps = scene->steps;
	view.seed = scene->seed;
	view.magnitude = scene->magnitude;
	view.agentCount = scene->agentCount;
	view.agents = scene->agents;
	view.waypoints = scene->waypoints;
	view.segmentCount = scene->segmentCount;
	view.segments = scene->segments;
	return view;
}
