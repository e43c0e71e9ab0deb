// SPDX-License-Identifier: MIT
// ORCA conformance, C99 port of conformance/contract/scenario.py's Scene: an expanded scenario held as
// exact doubles. The caller (the cffi runner or the CLI's JSON reader) fills it; nothing here
// parses decimals, so the same scene reaches every target bit for bit.

#pragma once

#include "simulator.h"

#include <stdint.h>

/// One agent of an expanded scene: initial state, solver parameters and driver data.
typedef struct ocSceneAgent
{
	/// initial position
	ocVec2 position;
	/// initial velocity
	ocVec2 velocity;
	/// solver parameters
	ocAgentParams params;
	/// waypoint advance and arrival radius
	double goalRadius;
	/// index of the first waypoint in ocScene.waypoints
	int firstWaypoint;
	/// number of waypoints (at least one)
	int waypointCount;
} ocSceneAgent;

/// An expanded scene (opaque).
typedef struct ocScene ocScene;

/// Creates an empty scene; NULL when out of memory.
OC_API ocScene* oc_Scene_Create(double dt, int steps, uint64_t seed, double magnitude);

/// Frees a scene (NULL is allowed).
OC_API void oc_Scene_Destroy(ocScene* scene);

/// Appends a static segment; returns its index or -1 when out of memory.
OC_API int oc_Scene_AddSegment(ocScene* scene, double ax, double ay, double bx, double by);

/// Appends an agent with waypoints (x0, y0, x1, y1, ...); returns its index or -1.
OC_API int oc_Scene_AddAgent(ocScene* scene, double px, double py, double vx, double vy,
							 const ocAgentParams* params, double goalRadius,
							 const double* waypoints, int waypointCount);

/// Number of agents.
OC_API int oc_Scene_GetAgentCount(const ocScene* scene);

/// Number of steps of the scenario.
OC_API int oc_Scene_GetSteps(const ocScene* scene);

/// Internal view used by the driver (not part of the port API).
typedef struct ocSceneView
{
	double dt;
	int steps;
	uint64_t seed;
	double magnitude;
	int agentCount;
	const ocSceneAgent* agents;
	const ocVec2* waypoints;
	int segmentCount;
	const double* segments; // ax, ay, bx, by per segment
} ocSceneView;

/// Read-only view of a scene's arrays.
OC_API ocSceneView oc_Scene_View(const ocScene* scene);
