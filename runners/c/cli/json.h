// SPDX-License-Identifier: MIT
// ORCA conformance CLI: a minimal JSON reader for one request line. The document is a small
// tree in an arena; numbers keep their token text, so a double is read with strtod from the
// exact decimal the harness wrote and an integer up to 2^63 is read exactly. Malformed input
// gives an error message, never a crash.

#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/// Nesting deeper than this is refused (the parser recurses once per level).
#define OC_JSON_MAX_DEPTH 256

/// Kind of a JSON value.
typedef enum ocJsonType
{
	ocJsonNull,
	ocJsonFalse,
	ocJsonTrue,
	ocJsonNumber,
	ocJsonString,
	ocJsonArray,
	ocJsonObject,
} ocJsonType;

/// One value of a parsed document. Children of an array or object form a singly linked list.
typedef struct ocJson
{
	/// kind of value
	ocJsonType type;
	/// number: the token text as written; string: the decoded UTF-8 text; NUL-terminated
	const char* text;
	/// bytes in text (a string may contain \u0000)
	size_t length;
	/// key of an object member (decoded, NUL-terminated), else NULL
	const char* key;
	/// array or object: number of children
	int count;
	/// array or object: first child, NULL when empty
	struct ocJson* first;
	/// next child of the same parent, NULL for the last
	struct ocJson* next;
} ocJson;

/// A parsed document: the root value and the arena holding every node and text (opaque).
typedef struct ocJsonDocument ocJsonDocument;

/// Parses exactly one JSON value (surrounded by optional whitespace) from text[0..length).
/// Returns NULL on malformed input or when out of memory, with a message in error.
ocJsonDocument* oc_JsonDocument_Parse(const char* text, size_t length, char* error, size_t errorSize);

/// Frees a document and every value in it (NULL is allowed).
void oc_JsonDocument_Destroy(ocJsonDocument* document);

/// The root value of a document.
const ocJson* oc_JsonDocument_Root(const ocJsonDocument* document);

/// Member of an object by key (the last one when a key repeats); NULL when value is not an
/// object or has no such member.
const ocJson* oc_Json_Member(const ocJson* value, const char* key);

/// Item of an array by index; NULL when value is not an array or index is out of range.
const ocJson* oc_Json_Item(const ocJson* value, int index);

/// true when value is an array of count items (any count when count < 0).
bool oc_Json_IsArray(const ocJson* value, int count);

/// Reads a number as a double with strtod (correctly rounded on glibc and musl); false when
/// value is not a number.
bool oc_Json_ToDouble(const ocJson* value, double* out);

/// Reads an integer token (no fraction, no exponent) exactly; false when value is not one or
/// does not fit.
bool oc_Json_ToInt64(const ocJson* value, int64_t* out);

/// Reads a non-negative integer token exactly; false when value is not one or does not fit.
bool oc_Json_ToUInt64(const ocJson* value, uint64_t* out);

/// Reads an integer token that fits an int.
bool oc_Json_ToInt(const ocJson* value, int* out);

/// true when value is a string equal to text.
bool oc_Json_IsString(const ocJson* value, const char* text);
