// SPDX-License-Identifier: MIT
// ORCA conformance CLI: the "vectors" request. Each family is one entry point of the solver or
// the driver; arguments and results are flat lists of hex doubles, integers and nested lists,
// laid out as docs/protocol.md's table says (and as conformance/data/vectors.py's FAMILIES).

#pragma once

#include "json.h"
#include "reply.h"

#include <stdbool.h>
#include <stddef.h>

/// Evaluates every case of a family and writes {"results": [[...], ...]} into reply. Returns
/// false with a message in error (reply content then undefined) for an unknown family or a
/// malformed case.
bool oc_Vectors_Evaluate(const ocJson* family, const ocJson* cases, ocReply* reply, char* error, size_t errorSize);

/// Writes the JSON list of every family's name, e.g. ["segment_distance_squared", ...], into
/// reply: the "provides" of a protocol-2 hello (this port answers every family).
void oc_Vectors_WriteNames(ocReply* reply);
