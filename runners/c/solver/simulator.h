// SPDX-License-Identifier: MIT
// ORCA solver, C99 port of conformance/solver/simulator.py: per-agent state, constraint
// assembly and the synchronous step.
//
// Step(dt): (1) every agent's new velocity is computed from the start-of-step state;
// (2) every agent sets velocity = new velocity, then position = position + velocity * dt,
// component by component. Zero agents is a no-op. The simulator owns growable arrays; they
// grow only in AddAgent/AddSegment, so Step and NewVelocities never allocate.

#pragma once

#include "halfplane.h"
#include "neighbors.h"

#include <stdbool.h>

/// Per-agent public parameters of the text.
typedef struct ocAgentParams
{
	/// agent radius
	double radius;
	/// speed limit (radius of the velocity disc)
	double maxSpeed;
	/// agents closer than this (strictly) are neighbour candidates
	double neighborDistance;
	/// at most this many agent neighbours, the nearest by (squared distance, index)
	int maxNeighbors;
	/// time horizon against agents
	double timeHorizon;
	/// time horizon against static segments
	double timeHorizonObst;
} ocAgentParams;

/// The simulator: agents (index order is agent order) plus static two-sided segments (opaque).
typedef struct ocSimulator ocSimulator;

/// Creates an empty simulator; NULL when out of memory.
OC_API ocSimulator* oc_Simulator_Create(void);

/// Frees a simulator and everything it owns (NULL is allowed).
OC_API void oc_Simulator_Destroy(ocSimulator* sim);

/// Appends an agent (preferred velocity zero); returns its index, or -1 when out of memory.
OC_API int oc_Simulator_AddAgent(ocSimulator* sim, ocVec2 position, const ocAgentParams* params, ocVec2 velocity);

/// Appends a static segment a-b (world coordinates); returns its index, or -1 when out of memory.
OC_API int oc_Simulator_AddSegment(ocSimulator* sim, ocVec2 a, ocVec2 b);

/// Number of agents.
OC_API int oc_Simulator_GetAgentCount(const ocSimulator* sim);

/// Number of segments.
OC_API int oc_Simulator_GetSegmentCount(const ocSimulator* sim);

/// Position of an agent.
OC_API ocVec2 oc_Simulator_GetPosition(const ocSimulator* sim, int agent);

/// Sets the position of an agent.
OC_API void oc_Simulator_SetPosition(ocSimulator* sim, int agent, ocVec2 position);

/// Velocity of an agent.
OC_API ocVec2 oc_Simulator_GetVelocity(const ocSimulator* sim, int agent);

/// Sets the velocity of an agent.
OC_API void oc_Simulator_SetVelocity(ocSimulator* sim, int agent, ocVec2 velocity);

/// Preferred velocity of an agent.
OC_API ocVec2 oc_Simulator_GetPreferredVelocity(const ocSimulator* sim, int agent);

/// Sets the preferred velocity of an agent.
OC_API void oc_Simulator_SetPreferredVelocity(ocSimulator* sim, int agent, ocVec2 velocity);

/// Parameters of an agent.
OC_API ocAgentParams oc_Simulator_GetAgentParams(const ocSimulator* sim, int agent);

/// Sets the parameters of an agent.
OC_API void oc_Simulator_SetAgentParams(ocSimulator* sim, int agent, const ocAgentParams* params);

/// Copies every agent's position into out (GetAgentCount entries).
OC_API void oc_Simulator_GetPositions(const ocSimulator* sim, ocVec2* out);

/// Copies every agent's velocity into out (GetAgentCount entries).
OC_API void oc_Simulator_GetVelocities(const ocSimulator* sim, ocVec2* out);

/// Sets every agent's preferred velocity from velocities (GetAgentCount entries).
OC_API void oc_Simulator_SetPreferredVelocities(ocSimulator* sim, const ocVec2* velocities);

/// Constraint list of an agent (obstacles first, then agents) for step dt into out, which holds
/// GetSegmentCount + GetAgentCount planes; returns the count and stores the hard count.
OC_API int oc_Simulator_Constraints(ocSimulator* sim, int agent, double dt, ocHalfPlane* out, int* hardCount);

/// Phase 1 for one agent: its velocity for step dt from the current state.
OC_API ocVec2 oc_Simulator_NewVelocity(ocSimulator* sim, int agent, double dt);

/// Phase 1 for the agents first .. first+count-1 into out[0 .. count-1] on worker 0; any split
/// gives the same bits. Builds the neighbour grid first if the state changed.
OC_API void oc_Simulator_NewVelocities(ocSimulator* sim, double dt, int first, int count, ocVec2* out);

/// Gives the simulator at least workerCount phase-1 workspaces (allocates; call outside steps).
OC_API bool oc_Simulator_SetWorkerCount(ocSimulator* sim, int workerCount);

/// Number of phase-1 workspaces (at least 1).
OC_API int oc_Simulator_GetWorkerCount(const ocSimulator* sim);

/// Builds the neighbour grid from the current state if needed; call it once before running
/// oc_Simulator_NewVelocitiesOnWorker concurrently, so that no concurrent call builds it.
OC_API void oc_Simulator_PrepareStep(ocSimulator* sim);

/// oc_Simulator_NewVelocities on workspace worker (0 <= worker < GetWorkerCount). After
/// PrepareStep, calls with distinct workers and disjoint out ranges may run concurrently.
OC_API void oc_Simulator_NewVelocitiesOnWorker(ocSimulator* sim, int worker, double dt, int first, int count, ocVec2* out);

/// Phase 2 for every agent: velocity = newVelocities[i], then position += velocity * dt.
OC_API void oc_Simulator_Apply(ocSimulator* sim, const ocVec2* newVelocities, double dt);

/// One synchronous step of every agent (phase 1 for all, then phase 2); never allocates.
OC_API void oc_Simulator_Step(ocSimulator* sim, double dt);

/// Step with its passes (the grid's per-agent and per-cell passes, phase 1, phase 2) handed to
/// parallelFor, whose workers are numbered below GetWorkerCount; the same bits as Step for any
/// split of the work: within each pass the agents (or cells) are independent.
OC_API void oc_Simulator_StepParallel(ocSimulator* sim, double dt, ocParallelFor parallelFor, void* runner);

/// StepParallel with side (NULL: none) run before phase 1, its chunks in the pass of the grid
/// build's serial cell insert, so that the other workers do them meanwhile
/// (oc_AgentGrid_BuildBeside). The step always builds the grid: one left valid by a query
/// before the step is rebuilt (the same cells), so side always shares that pass. side may read the
/// positions and write the preferred velocities (oc_Simulator_PreferredVelocities), which
/// phase 1 then reads; the same bits as setting them before StepParallel. after (NULL: none)
/// runs on each range of phase 2 (chunks of 256 agents) on the same worker right after that
/// range's phase 2, in the same pass; it may read only that range's new state
/// (oc_Simulator_PositionArray, VelocityArray). A caller must not count on after having run
/// (a variant of the step may not run it) and should check that it did. Does nothing, side and
/// after included, when there is no agent. Not part of the cffi API.
void oc_Simulator_StepBeside(ocSimulator* sim, double dt, ocParallelFor parallelFor, void* runner,
							 const ocSideJob* side, const ocSideJob* after);

/// The preferred velocities, GetAgentCount entries, for a side job of StepBeside to write in
/// place (valid until the next AddAgent). Not part of the cffi API.
ocVec2* oc_Simulator_PreferredVelocities(ocSimulator* sim);

/// The positions and the velocities, GetAgentCount entries each, to read in place (valid until
/// the next AddAgent; they change with every step or setter): GetPositions and GetVelocities
/// without the copy, for a pass that copies its own range. Not part of the cffi API.
const ocVec2* oc_Simulator_PositionArray(const ocSimulator* sim);
const ocVec2* oc_Simulator_VelocityArray(const ocSimulator* sim);
