// SPDX-License-Identifier: MIT
// ORCA conformance CLI: the C port behind the suite's port protocol (docs/protocol.md).
// Reads one JSON request per line on stdin and answers on stdout, one JSON object per line:
// hello, run (per-step state hashes), dump (state and preferred velocities after k steps),
// vectors (primitive families) and bye. Diagnostics go to stderr only.
//
// Build (host, one line):
//   gcc -std=c99 -O2 -ffp-contract=off -Wall -Wextra -pedantic -I runners/c
//       runners/c/*.c runners/c/cli/*.c -lm -o orca-port
// Optional: -DOC_FLAGS="-O2 -ffp-contract=off" to report the flags in the hello reply.

#include "json.h"
#include "reply.h"
#include "sha256.h"
#include "vectors.h"

#include "driver.h"
#include "scene.h"
#include "state_hash.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/// Protocol versions spoken (docs/protocol.md): the newest, and the oldest still answered. A hello
/// is answered in the version it asks for (the newest when it names none); protocol 2 adds
/// "provides", the families the port answers (all of them here).
#define OC_PROTOCOL 2
#define OC_PROTOCOL_OLDEST 1

/// Port name, version and language for the hello reply.
#define OC_PORT_NAME "orca-c"
#define OC_PORT_VERSION "0.1.0"
#define OC_PORT_LANGUAGE "C99"

/// Room for one error message.
#define OC_ERROR_SIZE 256

#define OC_STRINGIFY(x) #x
#define OC_XSTRINGIFY(x) OC_STRINGIFY(x)

// Build description ------------------------------------------------------------------------------

#if defined(__EMSCRIPTEN__)
#define OC_OS "emscripten-"
#elif defined(__wasi__)
#define OC_OS "wasi-"
#elif defined(__wasm__)
#define OC_OS ""
#elif defined(__ANDROID__)
#define OC_OS "android-"
#elif defined(__linux__)
#define OC_OS "linux-"
#elif defined(__APPLE__)
#define OC_OS "macos-"
#elif defined(_WIN32)
#define OC_OS "windows-"
#elif defined(__FreeBSD__)
#define OC_OS "freebsd-"
#elif defined(__OpenBSD__)
#define OC_OS "openbsd-"
#elif defined(__NetBSD__)
#define OC_OS "netbsd-"
#else
#define OC_OS "unknown-"
#endif

#if defined(__x86_64__) || defined(_M_X64)
#define OC_ARCH "x86_64"
#elif defined(__aarch64__) || defined(_M_ARM64)
#define OC_ARCH "aarch64"
#elif defined(__i386__) || defined(_M_IX86)
#define OC_ARCH "i386"
#elif defined(__s390x__)
#define OC_ARCH "s390x"
#elif defined(__wasm64__)
#define OC_ARCH "wasm64"
#elif defined(__wasm32__)
#define OC_ARCH "wasm32"
#elif defined(__riscv) && defined(__riscv_xlen) && __riscv_xlen == 64
#define OC_ARCH "riscv64"
#elif defined(__riscv)
#define OC_ARCH "riscv32"
#elif defined(__powerpc64__) && defined(__LITTLE_ENDIAN__)
#define OC_ARCH "ppc64le"
#elif defined(__powerpc64__)
#define OC_ARCH "ppc64"
#elif defined(__powerpc__)
#define OC_ARCH "ppc"
#elif defined(__loongarch64)
#define OC_ARCH "loongarch64"
#elif defined(__mips64)
#define OC_ARCH "mips64"
#elif defined(__mips__)
#define OC_ARCH "mips"
#elif defined(__arm__) || defined(_M_ARM)
#define OC_ARCH "arm"
#else
#define OC_ARCH "unknown"
#endif

#define OC_PLATFORM OC_OS OC_ARCH

#if defined(__clang__) && defined(__VERSION__)
#define OC_COMPILER __VERSION__
#elif defined(__GNUC__) && defined(__VERSION__)
#define OC_COMPILER "GCC " __VERSION__
#elif defined(_MSC_FULL_VER)
#define OC_COMPILER "MSVC " OC_XSTRINGIFY(_MSC_FULL_VER)
#elif defined(__VERSION__)
#define OC_COMPILER __VERSION__
#else
#define OC_COMPILER "unknown C99 compiler"
#endif

// OC_FLAGS may be bare tokens (-DOC_FLAGS="-O2 -ffp-contract=off", stringized here) or a
// string literal (-DOC_FLAGS='"-O2"', whose quotes oc_FlagsText removes).
#if defined(OC_FLAGS)
#define OC_FLAGS_TEXT OC_XSTRINGIFY(OC_FLAGS)
#else
#define OC_FLAGS_TEXT ""
#endif

static const char* oc_FlagsText(char* buffer, size_t size)
{
	const char* text = OC_FLAGS_TEXT;
	size_t length = strlen(text);
	if (length >= 2 && text[0] == '"' && text[length - 1] == '"')
	{
		// Stringized string literal: drop the outer quotes and undo \" and \\.
		size_t n = 0;
		for (size_t k = 1; k + 1 < length && n + 1 < size; ++k)
		{
			if (text[k] == '\\' && k + 2 < length)
			{
				k += 1;
			}
			buffer[n++] = text[k];
		}
		buffer[n] = '\0';
		return buffer;
	}
	return text;
}

// Input ------------------------------------------------------------------------------------------

/// One request line read from a stream; grows as needed (a 1000-agent scene is ~300 KB).
typedef struct ocLine
{
	/// the bytes of the line without its newline (NUL-terminated when read succeeded)
	char* data;
	/// bytes in the line
	size_t size;
	/// bytes allocated
	size_t capacity;
	/// the line did not fit in memory (its bytes were consumed and dropped)
	bool tooLong;
} ocLine;

// Reads the next line (without "\n" or "\r\n"); false at end of input with nothing read.
// getc, not fread: fread would wait for a full buffer while the harness waits for a reply.
static bool oc_ReadLine(FILE* in, ocLine* line)
{
	line->size = 0;
	line->tooLong = false;
	int c = getc(in);
	if (c == EOF)
	{
		return false;
	}
	while (c != EOF && c != '\n')
	{
		if (!line->tooLong && line->size + 1 >= line->capacity)
		{
			size_t capacity = line->capacity > 0 ? line->capacity * 2 : 65536;
			char* grown = capacity > line->capacity ? (char*)realloc(line->data, capacity) : NULL;
			if (grown == NULL)
			{
				line->tooLong = true;
			}
			else
			{
				line->data = grown;
				line->capacity = capacity;
			}
		}
		if (!line->tooLong)
		{
			line->data[line->size++] = (char)c;
		}
		c = getc(in);
	}
	if (line->tooLong)
	{
		line->size = 0;
		return true;
	}
	if (line->size > 0 && line->data[line->size - 1] == '\r')
	{
		line->size -= 1;
	}
	if (line->data != NULL)
	{
		line->data[line->size] = '\0';
	}
	return true;
}

static bool oc_IsBlank(const ocLine* line)
{
	for (size_t k = 0; k < line->size; ++k)
	{
		char c = line->data[k];
		if (c != ' ' && c != '\t' && c != '\r')
		{
			return false;
		}
	}
	return true;
}

// Output -----------------------------------------------------------------------------------------

// A reply that cannot be written means the harness is gone: nothing left to do.
static void oc_Send(ocReply* reply)
{
	if (!oc_Reply_Send(reply, stdout))
	{
		fprintf(stderr, "orca-c: cannot write to stdout, exiting\n");
		exit(1);
	}
}

static void oc_SendError(ocReply* reply, const char* message)
{
	fprintf(stderr, "orca-c: %s\n", message);
	if (!oc_Reply_SendError(reply, stdout, message))
	{
		fprintf(stderr, "orca-c: cannot write to stdout, exiting\n");
		exit(1);
	}
}

// Scene ------------------------------------------------------------------------------------------

static bool oc_ReadNumber(const ocJson* object, const char* key, const char* path, double* out, char* error)
{
	if (!oc_Json_ToDouble(oc_Json_Member(object, key), out))
	{
		snprintf(error, OC_ERROR_SIZE, "%s.%s: expected a number", path, key);
		return false;
	}
	return true;
}

static bool oc_ReadPair(const ocJson* pair, double* x, double* y)
{
	return oc_Json_IsArray(pair, 2) && oc_Json_ToDouble(pair->first, x) && oc_Json_ToDouble(pair->first->next, y);
}

// One agent of the scene's "agents" list into the scene.
static bool oc_ReadAgent(ocScene* scene, const ocJson* agent, int index, char* error)
{
	char path[64];
	snprintf(path, sizeof path, "scene.agents[%d]", index);
	if (agent->type != ocJsonObject)
	{
		snprintf(error, OC_ERROR_SIZE, "%s: expected an object", path);
		return false;
	}

	double px, py, vx, vy, goalRadius;
	if (!oc_ReadPair(oc_Json_Member(agent, "position"), &px, &py))
	{
		snprintf(error, OC_ERROR_SIZE, "%s.position: expected [x, y]", path);
		return false;
	}
	if (!oc_ReadPair(oc_Json_Member(agent, "velocity"), &vx, &vy))
	{
		snprintf(error, OC_ERROR_SIZE, "%s.velocity: expected [x, y]", path);
		return false;
	}

	ocAgentParams params;
	if (!oc_ReadNumber(agent, "radius", path, &params.radius, error) ||
		!oc_ReadNumber(agent, "max_speed", path, &params.maxSpeed, error) ||
		!oc_ReadNumber(agent, "neighbor_distance", path, &params.neighborDistance, error) ||
		!oc_ReadNumber(agent, "time_horizon", path, &params.timeHorizon, error) ||
		!oc_ReadNumber(agent, "time_horizon_obst", path, &params.timeHorizonObst, error) ||
		!oc_ReadNumber(agent, "goal_radius", path, &goalRadius, error))
	{
		return false;
	}
	if (!oc_Json_ToInt(oc_Json_Member(agent, "max_neighbors"), &params.maxNeighbors))
	{
		snprintf(error, OC_ERROR_SIZE, "%s.max_neighbors: expected an integer", path);
		return false;
	}

	const ocJson* list = oc_Json_Member(agent, "waypoints");
	if (!oc_Json_IsArray(list, -1) || list->count < 1)
	{
		snprintf(error, OC_ERROR_SIZE, "%s.waypoints: expected a non-empty list of [x, y]", path);
		return false;
	}
	double* waypoints = (double*)malloc(2 * (size_t)list->count * sizeof(double));
	if (waypoints == NULL)
	{
		snprintf(error, OC_ERROR_SIZE, "out of memory");
		return false;
	}
	int k = 0;
	for (const ocJson* point = list->first; point != NULL; point = point->next, ++k)
	{
		if (!oc_ReadPair(point, waypoints + 2 * k, waypoints + 2 * k + 1))
		{
			snprintf(error, OC_ERROR_SIZE, "%s.waypoints[%d]: expected [x, y]", path, k);
			free(waypoints);
			return false;
		}
	}
	int added = oc_Scene_AddAgent(scene, px, py, vx, vy, &params, goalRadius, waypoints, list->count);
	free(waypoints);
	if (added < 0)
	{
		snprintf(error, OC_ERROR_SIZE, "out of memory");
		return false;
	}
	return true;
}

// The expanded scene (docs/porting.md section 1) as an ocScene; NULL with a message in error.
static ocScene* oc_ReadScene(const ocJson* json, char* error)
{
	if (json == NULL || json->type != ocJsonObject)
	{
		snprintf(error, OC_ERROR_SIZE, "scene: expected an object");
		return NULL;
	}
	double dt, magnitude;
	int steps;
	uint64_t seed;
	int64_t signedSeed;
	if (!oc_ReadNumber(json, "dt", "scene", &dt, error))
	{
		return NULL;
	}
	if (!oc_Json_ToInt(oc_Json_Member(json, "steps"), &steps) || steps < 0)
	{
		snprintf(error, OC_ERROR_SIZE, "scene.steps: expected a non-negative integer");
		return NULL;
	}
	const ocJson* perturbation = oc_Json_Member(json, "perturbation");
	if (perturbation == NULL || perturbation->type != ocJsonObject)
	{
		snprintf(error, OC_ERROR_SIZE, "scene.perturbation: expected an object");
		return NULL;
	}
	// The seed is below 2^53; any 64-bit integer is taken modulo 2^64 like the reference does.
	const ocJson* seedJson = oc_Json_Member(perturbation, "seed");
	if (oc_Json_ToInt64(seedJson, &signedSeed))
	{
		seed = (uint64_t)signedSeed;
	}
	else if (!oc_Json_ToUInt64(seedJson, &seed))
	{
		snprintf(error, OC_ERROR_SIZE, "scene.perturbation.seed: expected an integer");
		return NULL;
	}
	if (!oc_ReadNumber(perturbation, "magnitude", "scene.perturbation", &magnitude, error))
	{
		return NULL;
	}
	const ocJson* segments = oc_Json_Member(json, "segments");
	const ocJson* agents = oc_Json_Member(json, "agents");
	if (!oc_Json_IsArray(segments, -1))
	{
		snprintf(error, OC_ERROR_SIZE, "scene.segments: expected a list");
		return NULL;
	}
	if (!oc_Json_IsArray(agents, -1))
	{
		snprintf(error, OC_ERROR_SIZE, "scene.agents: expected a list");
		return NULL;
	}

	ocScene* scene = oc_Scene_Create(dt, steps, seed, magnitude);
	if (scene == NULL)
	{
		snprintf(error, OC_ERROR_SIZE, "out of memory");
		return NULL;
	}
	int index = 0;
	for (const ocJson* segment = segments->first; segment != NULL; segment = segment->next, ++index)
	{
		double v[4];
		int k = 0;
		if (oc_Json_IsArray(segment, 4))
		{
			for (const ocJson* item = segment->first; item != NULL && oc_Json_ToDouble(item, v + k); item = item->next)
			{
				k += 1;
			}
		}
		if (k != 4)
		{
			snprintf(error, OC_ERROR_SIZE, "scene.segments[%d]: expected [ax, ay, bx, by]", index);
			oc_Scene_Destroy(scene);
			return NULL;
		}
		if (oc_Scene_AddSegment(scene, v[0], v[1], v[2], v[3]) < 0)
		{
			snprintf(error, OC_ERROR_SIZE, "out of memory");
			oc_Scene_Destroy(scene);
			return NULL;
		}
	}
	index = 0;
	for (const ocJson* agent = agents->first; agent != NULL; agent = agent->next, ++index)
	{
		if (!oc_ReadAgent(scene, agent, index, error))
		{
			oc_Scene_Destroy(scene);
			return NULL;
		}
	}
	return scene;
}

// Commands ---------------------------------------------------------------------------------------

static void oc_Hello(const ocJson* request, ocReply* reply)
{
	const ocJson* protocol = oc_Json_Member(request, "protocol");
	int64_t version = OC_PROTOCOL;
	if (protocol != NULL
		&& (!oc_Json_ToInt64(protocol, &version) || version < OC_PROTOCOL_OLDEST || version > OC_PROTOCOL))
	{
		oc_SendError(reply, "hello: unsupported protocol (this port speaks protocols 1 and 2)");
		return;
	}
	char flags[256];
	oc_Reply_Text(reply, "{\"protocol\":");
	oc_Reply_Int(reply, version);
	oc_Reply_Text(reply, ",\"port\":{\"name\":");
	oc_Reply_String(reply, OC_PORT_NAME);
	oc_Reply_Text(reply, ",\"version\":");
	oc_Reply_String(reply, OC_PORT_VERSION);
	oc_Reply_Text(reply, ",\"language\":");
	oc_Reply_String(reply, OC_PORT_LANGUAGE);
	oc_Reply_Text(reply, ",\"platform\":");
	oc_Reply_String(reply, OC_PLATFORM);
	oc_Reply_Text(reply, ",\"compiler\":");
	oc_Reply_String(reply, OC_COMPILER);
	oc_Reply_Text(reply, ",\"flags\":");
	oc_Reply_String(reply, oc_FlagsText(flags, sizeof flags));
	oc_Reply_Text(reply, "}");
	if (version >= 2)
	{
		oc_Reply_Text(reply, ",\"provides\":");
		oc_Vectors_WriteNames(reply);
	}
	oc_Reply_Text(reply, "}");
	oc_Send(reply);
}

// true when every double of the canonical bytes is finite (exponent bits not all ones).
static bool oc_IsFiniteBytes(const unsigned char* bytes, size_t size)
{
	for (size_t k = 0; k + 8 <= size; k += 8)
	{
		// little-endian: the exponent is the low 7 bits of byte 7 and the high 4 of byte 6
		if ((bytes[k + 7] & 0x7f) == 0x7f && (bytes[k + 6] & 0xf0) == 0xf0)
		{
			return false;
		}
	}
	return true;
}

/// The fields of the canonical state, in order (docs/porting.md section 3).
static const char* const oc_stateFields[4] = { "position.x", "position.y", "velocity.x", "velocity.y" };

// The error of a run that met a NaN or an infinity at step: "non-finite state at step k", and
// ": agent i field is value" for the first value of the run's current state that is not finite.
static void oc_NonFiniteMessage(ocRun* run, int step, char* message, size_t size)
{
	snprintf(message, size, "non-finite state at step %d", step);
	int n = oc_Run_GetAgentCount(run);
	double* rows = (double*)malloc((6 * (size_t)n + 1) * sizeof(double));
	if (rows == NULL)
	{
		return;
	}
	oc_Run_Dump(run, rows);
	for (int i = 0; i < n; ++i)
	{
		for (int f = 0; f < 4; ++f)
		{
			uint64_t bits = oc_DoubleBits(rows[6 * (size_t)i + (size_t)f]);
			if (((bits >> 52) & 0x7ff) != 0x7ff)
			{
				continue;
			}
			// spelled as Python's repr spells them
			const char* value = (bits & 0xfffffffffffffULL) != 0 ? "nan" : (bits >> 63) ? "-inf" : "inf";
			snprintf(message, size, "non-finite state at step %d: agent %d %s is %s", step, i, oc_stateFields[f], value);
			free(rows);
			return;
		}
	}
	free(rows);
}

// Scene and run of a run/dump request; false (error sent) when either cannot be made.
static bool oc_StartRun(const ocJson* request, ocReply* reply, ocScene** scene, ocRun** run)
{
	char error[OC_ERROR_SIZE];
	*scene = oc_ReadScene(oc_Json_Member(request, "scene"), error);
	if (*scene == NULL)
	{
		oc_SendError(reply, error);
		return false;
	}
	*run = oc_Run_Create(*scene);
	if (*run == NULL)
	{
		oc_Scene_Destroy(*scene);
		oc_SendError(reply, "out of memory creating the run");
		return false;
	}
	return true;
}

static void oc_HashLine(ocReply* reply, int step, const unsigned char* state, size_t size)
{
	char hex[OC_SHA256_HEX + 1];
	oc_Sha256_Hex(state, size, hex);
	oc_Reply_Text(reply, "{\"step\":");
	oc_Reply_Int(reply, step);
	oc_Reply_Text(reply, ",\"hash\":\"");
	oc_Reply_Text(reply, hex);
	oc_Reply_Text(reply, "\"}");
	oc_Send(reply);
}

static void oc_RunCommand(const ocJson* request, ocReply* reply)
{
	// The request's step count wins over the scene's (a shorter run of the same scene).
	const ocJson* stepsJson = oc_Json_Member(request, "steps");
	int steps = -1;
	if (stepsJson != NULL && (!oc_Json_ToInt(stepsJson, &steps) || steps < 0))
	{
		oc_SendError(reply, "run: \"steps\" must be a non-negative integer");
		return;
	}

	ocScene* scene;
	ocRun* run;
	if (!oc_StartRun(request, reply, &scene, &run))
	{
		return;
	}
	if (steps < 0)
	{
		steps = oc_Scene_GetSteps(scene);
	}

	size_t stride = (size_t)oc_Run_GetAgentCount(run) * OC_AGENT_BYTES;
	unsigned char* state = (unsigned char*)malloc(stride > 0 ? stride : 1);
	if (state == NULL)
	{
		oc_Run_Destroy(run);
		oc_Scene_Destroy(scene);
		oc_SendError(reply, "out of memory");
		return;
	}

	char message[OC_ERROR_SIZE];
	oc_Run_CanonicalState(run, state);
	bool finite = oc_IsFiniteBytes(state, stride);
	if (!finite)
	{
		oc_NonFiniteMessage(run, 0, message, sizeof message);
		oc_SendError(reply, message);
	}
	else
	{
		oc_HashLine(reply, 0, state, stride);
	}
	for (int k = 1; finite && k <= steps; ++k)
	{
		if (oc_Run_Advance(run, 1, state) != 0)
		{
			oc_NonFiniteMessage(run, k, message, sizeof message);
			oc_SendError(reply, message);
			finite = false;
			break;
		}
		oc_HashLine(reply, k, state, stride);
	}
	if (finite)
	{
		oc_Reply_Text(reply, "{\"done\":");
		oc_Reply_Int(reply, steps);
		oc_Reply_Text(reply, "}");
		oc_Send(reply);
	}

	free(state);
	oc_Run_Destroy(run);
	oc_Scene_Destroy(scene);
}

static void oc_DumpCommand(const ocJson* request, ocReply* reply)
{
	int step;
	if (!oc_Json_ToInt(oc_Json_Member(request, "step"), &step) || step < 0)
	{
		oc_SendError(reply, "dump: \"step\" must be a non-negative integer");
		return;
	}

	ocScene* scene;
	ocRun* run;
	if (!oc_StartRun(request, reply, &scene, &run))
	{
		return;
	}
	int n = oc_Run_GetAgentCount(run);
	double* rows = (double*)malloc((6 * (size_t)n + 1) * sizeof(double));
	int bad = rows != NULL ? oc_Run_Advance(run, step, NULL) : 0;
	if (rows == NULL)
	{
		oc_SendError(reply, "out of memory");
	}
	else if (bad != 0 && bad < step)
	{
		// the run stopped there, so the state of step k does not exist (the first non-finite
		// state itself is dumped below: its NaNs are data for the diagnosis)
		char message[OC_ERROR_SIZE];
		oc_NonFiniteMessage(run, bad, message, sizeof message);
		oc_SendError(reply, message);
	}
	else
	{
		oc_Run_Dump(run, rows);
		oc_Reply_Text(reply, "{\"step\":");
		oc_Reply_Int(reply, step);
		oc_Reply_Text(reply, ",\"agents\":[");
		for (int i = 0; i < n; ++i)
		{
			oc_Reply_Text(reply, i > 0 ? ",[" : "[");
			for (int f = 0; f < 6; ++f)
			{
				if (f > 0)
				{
					oc_Reply_Text(reply, ",");
				}
				oc_Reply_Hex(reply, rows[6 * (size_t)i + (size_t)f]);
			}
			oc_Reply_Text(reply, "]");
		}
		oc_Reply_Text(reply, "]}");
		oc_Send(reply);
	}

	free(rows);
	oc_Run_Destroy(run);
	oc_Scene_Destroy(scene);
}

static void oc_VectorsCommand(const ocJson* request, ocReply* reply)
{
	char error[OC_ERROR_SIZE];
	if (oc_Vectors_Evaluate(oc_Json_Member(request, "family"), oc_Json_Member(request, "cases"), reply, error,
							sizeof error))
	{
		oc_Send(reply);
	}
	else
	{
		oc_SendError(reply, error);
	}
}

// One request line; returns false after bye.
static bool oc_Handle(const ocLine* line, ocReply* reply)
{
	char error[OC_ERROR_SIZE];
	if (line->tooLong)
	{
		oc_SendError(reply, "request line too long: out of memory");
		return true;
	}
	ocJsonDocument* document = oc_JsonDocument_Parse(line->data, line->size, error, sizeof error);
	if (document == NULL)
	{
		oc_SendError(reply, error);
		return true;
	}

	bool more = true;
	const ocJson* request = oc_JsonDocument_Root(document);
	const ocJson* cmd = oc_Json_Member(request, "cmd");
	if (request->type != ocJsonObject)
	{
		oc_SendError(reply, "a request is a JSON object");
	}
	else if (cmd == NULL || cmd->type != ocJsonString)
	{
		oc_SendError(reply, "the request has no \"cmd\" string");
	}
	else if (oc_Json_IsString(cmd, "hello"))
	{
		oc_Hello(request, reply);
	}
	else if (oc_Json_IsString(cmd, "run"))
	{
		oc_RunCommand(request, reply);
	}
	else if (oc_Json_IsString(cmd, "dump"))
	{
		oc_DumpCommand(request, reply);
	}
	else if (oc_Json_IsString(cmd, "vectors"))
	{
		oc_VectorsCommand(request, reply);
	}
	else if (oc_Json_IsString(cmd, "bye"))
	{
		more = false;
	}
	else
	{
		snprintf(error, sizeof error, "unknown command \"%.64s\"", cmd->text);
		oc_SendError(reply, error);
	}
	oc_JsonDocument_Destroy(document);
	return more;
}

int main(void)
{
	ocLine line = { NULL, 0, 0, false };
	ocReply reply;
	oc_Reply_Init(&reply);

	// Blank lines carry no request and get no reply; end of input ends the session.
	while (oc_ReadLine(stdin, &line))
	{
		if (!line.tooLong && oc_IsBlank(&line))
		{
			continue;
		}
		if (!oc_Handle(&line, &reply))
		{
			break;
		}
	}

	free(line.data);
	oc_Reply_Free(&reply);
	return 0;
}
