"""The C port's public API as cffi declarations (ABI mode), and helpers to call it.

Contract: ``load(path)`` dlopens one built shared library of runners/c and returns
``(ffi, lib)``; ``new_scene(ffi, lib, scene)`` hands a Scene over as exact doubles (no decimal
parsing in C).  The declarations mirror runners/c/*.h; a mismatch shows up at once as a
failing vector or scenario.
"""

from __future__ import annotations

from pathlib import Path

import cffi

from . import fpenv

CDEF = """
typedef struct ocVec2 { double x, y; } ocVec2;
typedef struct ocHalfPlane { ocVec2 point; ocVec2 normal; } ocHalfPlane;
typedef struct ocAgentParams { double radius; double maxSpeed; double neighborDistance; int maxNeighbors;
                               double timeHorizon; double timeHorizonObst; } ocAgentParams;
typedef struct ocSupport { double distance; ocVec2 normal; } ocSupport;
typedef struct ocCaseForm { ocVec2 u; ocVec2 normal; } ocCaseForm;
typedef struct ocSolveResult { ocVec2 velocity; int failed; } ocSolveResult;
typedef struct ocSegment { ocVec2 a; ocVec2 b; } ocSegment;
typedef struct ocNeighbor { double distanceSquared; int index; } ocNeighbor;

double oc_SegmentDistanceSquared(ocVec2 a, ocVec2 b);
ocSupport oc_SupportDistance(ocVec2 a, ocVec2 b, double radius, double tau, ocVec2 x, _Bool overlap);
ocCaseForm oc_AgentCaseForm(ocVec2 a, double radius, double tau, ocVec2 x);
ocHalfPlane oc_AgentConstraint(ocVec2 a, double radius, double tau, double dt, ocVec2 velocityA, ocVec2 velocityB);
ocHalfPlane oc_SegmentConstraint(ocVec2 a, ocVec2 b, double radius, double tau, double dt);
_Bool oc_ForBoundary(ocVec2 a, ocVec2 b, double clearance, double tau, ocHalfPlane* plane);
ocSolveResult oc_SolveClosest(const ocHalfPlane* planes, int count, double radius, ocVec2 preferred);
ocSolveResult oc_SolveDirection(const ocHalfPlane* planes, int count, double radius, ocVec2 direction);
ocVec2 oc_Relax(const ocHalfPlane* planes, int count, int hardCount, double radius, int failed, ocHalfPlane* scratch);
int oc_ObstacleNeighbors(ocVec2 position, double reach, const ocSegment* segments, int segmentCount, ocNeighbor* out);
int oc_AgentNeighbors(int agent, const ocVec2* positions, int count, double neighborDistance, int maxNeighbors,
                      ocNeighbor* out);

uint64_t oc_SplitMix64(uint64_t seed, uint64_t n);
double oc_Uniform(uint64_t seed, uint64_t n);
ocVec2 oc_PreferredVelocity(ocVec2 position, const ocVec2* waypoints, int count, int* k, double goalRadius,
                            double maxSpeed, double dt, uint64_t seed, double magnitude, int step, int agent,
                            int agentCount);

typedef struct ocScene ocScene;
ocScene* oc_Scene_Create(double dt, int steps, uint64_t seed, double magnitude);
void oc_Scene_Destroy(ocScene* scene);
int oc_Scene_AddSegment(ocScene* scene, double ax, double ay, double bx, double by);
int oc_Scene_AddAgent(ocScene* scene, double px, double py, double vx, double vy, const ocAgentParams* params,
                      double goalRadius, const double* waypoints, int waypointCount);

typedef struct ocRun ocRun;
ocRun* oc_Run_Create(const ocScene* scene);
void oc_Run_Destroy(ocRun* run);
int oc_Run_GetStep(const ocRun* run);
bool oc_Run_SetThreads(ocRun* run, int threads);
bool oc_Run_SetPerAgent(ocRun* run, bool perAgent);
void oc_Run_CanonicalState(const ocRun* run, unsigned char* out);
int oc_Run_Advance(ocRun* run, int count, unsigned char* out);
void oc_Run_Dump(ocRun* run, double* out);
"""


def load(path: Path):
    """(ffi, lib) of one shared library; each variant is its own file, so nothing clashes.
    Loading may change the process's floating-point environment (a -ffast-math build turns on
    flush-to-zero): it is put back at once (conformance/fpenv.py)."""
    ffi = cffi.FFI()
    ffi.cdef(CDEF)
    lib = ffi.dlopen(str(path))
    if not fpenv.restore():
        raise RuntimeError(f"loading {path.name} changed the floating-point environment for good")
    return ffi, lib


def new_scene(ffi, lib, scene):
    """An ocScene* (garbage-collected) holding the scene's exact doubles."""
    handle = ffi.gc(lib.oc_Scene_Create(scene.dt, scene.steps, scene.seed, scene.magnitude), lib.oc_Scene_Destroy)
    if handle == ffi.NULL:
        raise MemoryError("oc_Scene_Create")
    for ax, ay, bx, by in scene.segments:
        lib.oc_Scene_AddSegment(handle, ax, ay, bx, by)
    params = ffi.new("ocAgentParams*")
    for agent in scene.agents:
        p = agent.params
        params.radius = p.radius
        params.maxSpeed = p.max_speed
        params.neighborDistance = p.neighbor_distance
        params.maxNeighbors = p.max_neighbors
        params.timeHorizon = p.time_horizon
        params.timeHorizonObst = p.time_horizon_obst
        flat = [c for w in agent.waypoints for c in w]
        waypoints = ffi.new("double[]", flat)
        index = lib.oc_Scene_AddAgent(handle, agent.position[0], agent.position[1], agent.velocity[0],
                                      agent.velocity[1], params, agent.goal_radius, waypoints, len(agent.waypoints))
        if index < 0:
            raise MemoryError("oc_Scene_AddAgent")
    return handle
