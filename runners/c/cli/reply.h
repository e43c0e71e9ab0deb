// SPDX-License-Identifier: MIT
// ORCA conformance CLI: one reply line under construction. A reply is built whole before it
// is written, so a request that fails half-way answers with an error line and nothing else.

#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/// A growable text buffer for one JSON reply line.
typedef struct ocReply
{
	/// the text so far (not NUL-terminated)
	char* data;
	/// bytes used
	size_t size;
	/// bytes allocated
	size_t capacity;
	/// set when an append ran out of memory (the line is then replaced by an error)
	bool outOfMemory;
} ocReply;

/// Starts an empty reply.
void oc_Reply_Init(ocReply* reply);

/// Frees the buffer.
void oc_Reply_Free(ocReply* reply);

/// Empties the reply (keeps the buffer).
void oc_Reply_Clear(ocReply* reply);

/// Appends size bytes as they are.
void oc_Reply_Append(ocReply* reply, const char* text, size_t size);

/// Appends a NUL-terminated text as it is.
void oc_Reply_Text(ocReply* reply, const char* text);

/// Appends a JSON string literal: quotes, and escapes for quote, backslash and control bytes.
void oc_Reply_String(ocReply* reply, const char* text);

/// Appends a JSON integer.
void oc_Reply_Int(ocReply* reply, int64_t value);

/// Appends a double as a JSON string of the 16 lowercase hex digits of its bit pattern.
void oc_Reply_Hex(ocReply* reply, double value);

/// Writes the reply and a newline to out, flushes, and empties the reply; an out-of-memory
/// reply is written as an error line instead. Returns false when the write failed.
bool oc_Reply_Send(ocReply* reply, FILE* out);

/// Writes {"error": message} as one line to out and flushes.
bool oc_Reply_SendError(ocReply* reply, FILE* out, const char* message);
