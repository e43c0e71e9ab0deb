// SPDX-License-Identifier: MIT
// ORCA conformance CLI: minimal JSON reader (see json.h).

#include "json.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// Arena ------------------------------------------------------------------------------------------

// Every allocation is rounded up to this, which suits pointers, sizes and doubles.
#define OC_ARENA_ALIGN 16

// Default block payload; a larger request gets a block of its own size.
#define OC_ARENA_BLOCK 65536

typedef struct ocArenaBlock
{
	struct ocArenaBlock* next;
	size_t used;
	size_t capacity;
	// payload follows the header (the header size is a multiple of OC_ARENA_ALIGN)
} ocArenaBlock;

#define OC_ARENA_HEADER (((sizeof(ocArenaBlock) + OC_ARENA_ALIGN - 1) / OC_ARENA_ALIGN) * OC_ARENA_ALIGN)

struct ocJsonDocument
{
	ocArenaBlock* blocks;
	ocJson* root;
};

static void* oc_Arena_Alloc(ocJsonDocument* doc, size_t size)
{
	size = (size + OC_ARENA_ALIGN - 1) / OC_ARENA_ALIGN * OC_ARENA_ALIGN;
	ocArenaBlock* block = doc->blocks;
	if (block == NULL || block->capacity - block->used < size)
	{
		size_t capacity = size > OC_ARENA_BLOCK ? size : OC_ARENA_BLOCK;
		if (capacity > (size_t)-1 - OC_ARENA_HEADER)
		{
			return NULL;
		}
		block = (ocArenaBlock*)malloc(OC_ARENA_HEADER + capacity);
		if (block == NULL)
		{
			return NULL;
		}
		block->used = 0;
		block->capacity = capacity;
		block->next = doc->blocks;
		doc->blocks = block;
	}
	void* p = (unsigned char*)block + OC_ARENA_HEADER + block->used;
	block->used += size;
	return p;
}

// Parser -----------------------------------------------------------------------------------------

typedef struct ocJsonParser
{
	ocJsonDocument* doc;
	const char* text;
	size_t length;
	size_t pos;
	char* error;
	size_t errorSize;
	bool failed;
} ocJsonParser;

static void oc_Fail(ocJsonParser* p, const char* message)
{
	if (!p->failed)
	{
		p->failed = true;
		if (p->error != NULL && p->errorSize > 0)
		{
			snprintf(p->error, p->errorSize, "malformed JSON: %s at byte %lu", message, (unsigned long)p->pos);
		}
	}
}

static void oc_OutOfMemory(ocJsonParser* p)
{
	if (!p->failed)
	{
		p->failed = true;
		if (p->error != NULL && p->errorSize > 0)
		{
			snprintf(p->error, p->errorSize, "out of memory while reading the request");
		}
	}
}

static int oc_Peek(const ocJsonParser* p)
{
	return p->pos < p->length ? (unsigned char)p->text[p->pos] : -1;
}

static void oc_SkipSpace(ocJsonParser* p)
{
	while (p->pos < p->length)
	{
		char c = p->text[p->pos];
		if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
		{
			break;
		}
		p->pos += 1;
	}
}

static ocJson* oc_NewValue(ocJsonParser* p, ocJsonType type)
{
	ocJson* value = (ocJson*)oc_Arena_Alloc(p->doc, sizeof(ocJson));
	if (value == NULL)
	{
		oc_OutOfMemory(p);
		return NULL;
	}
	memset(value, 0, sizeof *value);
	value->type = type;
	value->text = "";
	return value;
}

static int oc_HexDigit(int c)
{
	if (c >= '0' && c <= '9')
	{
		return c - '0';
	}
	if (c >= 'a' && c <= 'f')
	{
		return c - 'a' + 10;
	}
	if (c >= 'A' && c <= 'F')
	{
		return c - 'A' + 10;
	}
	return -1;
}

// Four hex digits after \u; -1 when malformed.
static long oc_ReadHex4(ocJsonParser* p)
{
	if (p->length - p->pos < 4)
	{
		return -1;
	}
	long code = 0;
	for (int k = 0; k < 4; ++k)
	{
		int digit = oc_HexDigit((unsigned char)p->text[p->pos + (size_t)k]);
		if (digit < 0)
		{
			return -1;
		}
		code = code * 16 + digit;
	}
	p->pos += 4;
	return code;
}

// Appends a code point as UTF-8 (a lone surrogate is written as its 3-byte form).
static size_t oc_PutUtf8(char* out, long code)
{
	if (code < 0x80)
	{
		out[0] = (char)code;
		return 1;
	}
	if (code < 0x800)
	{
		out[0] = (char)(0xc0 | (code >> 6));
		out[1] = (char)(0x80 | (code & 0x3f));
		return 2;
	}
	if (code < 0x10000)
	{
		out[0] = (char)(0xe0 | (code >> 12));
		out[1] = (char)(0x80 | ((code >> 6) & 0x3f));
		out[2] = (char)(0x80 | (code & 0x3f));
		return 3;
	}
	out[0] = (char)(0xf0 | (code >> 18));
	out[1] = (char)(0x80 | ((code >> 12) & 0x3f));
	out[2] = (char)(0x80 | ((code >> 6) & 0x3f));
	out[3] = (char)(0x80 | (code & 0x3f));
	return 4;
}

// The code point of a \u escape whose four hex digits start at p->pos (the "\u" is read); a
// high surrogate followed by \u and a low surrogate (before `end`) is one code point.
// -1 for bad hex digits.
static long oc_ReadCodePoint(ocJsonParser* p, size_t end)
{
	long code = oc_ReadHex4(p);
	if (code >= 0xd800 && code < 0xdc00 && end - p->pos >= 6 && p->text[p->pos] == '\\' && p->text[p->pos + 1] == 'u')
	{
		size_t save = p->pos;
		p->pos += 2;
		long low = oc_ReadHex4(p);
		if (low >= 0xdc00 && low < 0xe000)
		{
			code = 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00);
		}
		else
		{
			p->pos = save;
		}
	}
	return code;
}

// A string token (p->pos at the opening quote) decoded into the arena; NULL on error.
static const char* oc_ParseString(ocJsonParser* p, size_t* length)
{
	p->pos += 1;
	size_t start = p->pos;

	// Find the closing quote first: the decoded text is never longer than the token.
	size_t end = start;
	while (end < p->length && p->text[end] != '"')
	{
		end += (p->text[end] == '\\' && end + 1 < p->length) ? 2 : 1;
	}
	if (end >= p->length)
	{
		oc_Fail(p, "unterminated string");
		return NULL;
	}
	char* out = (char*)oc_Arena_Alloc(p->doc, end - start + 1);
	if (out == NULL)
	{
		oc_OutOfMemory(p);
		return NULL;
	}

	size_t n = 0;
	while (p->pos < end)
	{
		unsigned char c = (unsigned char)p->text[p->pos];
		if (c < 0x20)
		{
			oc_Fail(p, "control character in string");
			return NULL;
		}
		if (c != '\\')
		{
			out[n++] = (char)c;
			p->pos += 1;
			continue;
		}
		p->pos += 1;
		char e = p->text[p->pos];
		p->pos += 1;
		switch (e)
		{
			case '"':
				out[n++] = '"';
				break;
			case '\\':
				out[n++] = '\\';
				break;
			case '/':
				out[n++] = '/';
				break;
			case 'b':
				out[n++] = '\b';
				break;
			case 'f':
				out[n++] = '\f';
				break;
			case 'n':
				out[n++] = '\n';
				break;
			case 'r':
				out[n++] = '\r';
				break;
			case 't':
				out[n++] = '\t';
				break;
			case 'u':
			{
				long code = oc_ReadCodePoint(p, end);
				if (code < 0)
				{
					oc_Fail(p, "bad \\u escape");
					return NULL;
				}
				// 6 (or 12) token bytes give at most 3 (or 4) bytes of UTF-8: never longer.
				n += oc_PutUtf8(out + n, code);
				break;
			}
			default:
				p->pos -= 1;
				oc_Fail(p, "bad escape in string");
				return NULL;
		}
	}
	p->pos = end + 1;
	out[n] = '\0';
	*length = n;
	return out;
}

static bool oc_IsDigit(int c)
{
	return c >= '0' && c <= '9';
}

// A number token: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?, kept as text.
static ocJson* oc_ParseNumber(ocJsonParser* p)
{
	size_t start = p->pos;
	if (oc_Peek(p) == '-')
	{
		p->pos += 1;
	}
	if (oc_Peek(p) == '0')
	{
		p->pos += 1;
	}
	else if (oc_IsDigit(oc_Peek(p)))
	{
		while (oc_IsDigit(oc_Peek(p)))
		{
			p->pos += 1;
		}
	}
	else
	{
		oc_Fail(p, "bad number");
		return NULL;
	}
	if (oc_Peek(p) == '.')
	{
		p->pos += 1;
		if (!oc_IsDigit(oc_Peek(p)))
		{
			oc_Fail(p, "bad number");
			return NULL;
		}
		while (oc_IsDigit(oc_Peek(p)))
		{
			p->pos += 1;
		}
	}
	if (oc_Peek(p) == 'e' || oc_Peek(p) == 'E')
	{
		p->pos += 1;
		if (oc_Peek(p) == '+' || oc_Peek(p) == '-')
		{
			p->pos += 1;
		}
		if (!oc_IsDigit(oc_Peek(p)))
		{
			oc_Fail(p, "bad number");
			return NULL;
		}
		while (oc_IsDigit(oc_Peek(p)))
		{
			p->pos += 1;
		}
	}

	ocJson* value = oc_NewValue(p, ocJsonNumber);
	size_t length = p->pos - start;
	char* text = (char*)oc_Arena_Alloc(p->doc, length + 1);
	if (value == NULL || text == NULL)
	{
		oc_OutOfMemory(p);
		return NULL;
	}
	memcpy(text, p->text + start, length);
	text[length] = '\0';
	value->text = text;
	value->length = length;
	return value;
}

static bool oc_ParseLiteral(ocJsonParser* p, const char* word)
{
	size_t n = strlen(word);
	if (p->length - p->pos < n || memcmp(p->text + p->pos, word, n) != 0)
	{
		oc_Fail(p, "unexpected character");
		return false;
	}
	p->pos += n;
	return true;
}

static ocJson* oc_ParseValue(ocJsonParser* p, int depth);

// Array or object (p->pos at the opening bracket).
static ocJson* oc_ParseContainer(ocJsonParser* p, int depth, bool object)
{
	char close = object ? '}' : ']';
	ocJson* value = oc_NewValue(p, object ? ocJsonObject : ocJsonArray);
	if (value == NULL)
	{
		return NULL;
	}
	p->pos += 1;
	oc_SkipSpace(p);
	if (oc_Peek(p) == close)
	{
		p->pos += 1;
		return value;
	}

	ocJson* last = NULL;
	for (;;)
	{
		const char* key = NULL;
		if (object)
		{
			size_t keyLength;
			if (oc_Peek(p) != '"')
			{
				oc_Fail(p, "expected a key");
				return NULL;
			}
			key = oc_ParseString(p, &keyLength);
			if (key == NULL)
			{
				return NULL;
			}
			oc_SkipSpace(p);
			if (oc_Peek(p) != ':')
			{
				oc_Fail(p, "expected ':'");
				return NULL;
			}
			p->pos += 1;
		}

		ocJson* child = oc_ParseValue(p, depth + 1);
		if (child == NULL)
		{
			return NULL;
		}
		if (value->count == INT_MAX)
		{
			oc_Fail(p, "too many items");
			return NULL;
		}
		child->key = key;
		if (last == NULL)
		{
			value->first = child;
		}
		else
		{
			last->next = child;
		}
		last = child;
		value->count += 1;

		oc_SkipSpace(p);
		int c = oc_Peek(p);
		if (c == ',')
		{
			p->pos += 1;
			oc_SkipSpace(p);
			continue;
		}
		if (c == close)
		{
			p->pos += 1;
			return value;
		}
		oc_Fail(p, object ? "expected ',' or '}'" : "expected ',' or ']'");
		return NULL;
	}
}

static ocJson* oc_ParseValue(ocJsonParser* p, int depth)
{
	if (depth > OC_JSON_MAX_DEPTH)
	{
		oc_Fail(p, "nesting too deep");
		return NULL;
	}
	oc_SkipSpace(p);
	int c = oc_Peek(p);
	switch (c)
	{
		case '{':
			return oc_ParseContainer(p, depth, true);
		case '[':
			return oc_ParseContainer(p, depth, false);
		case '"':
		{
			ocJson* value = oc_NewValue(p, ocJsonString);
			if (value == NULL)
			{
				return NULL;
			}
			value->text = oc_ParseString(p, &value->length);
			return value->text != NULL ? value : NULL;
		}
		case 't':
			return oc_ParseLiteral(p, "true") ? oc_NewValue(p, ocJsonTrue) : NULL;
		case 'f':
			return oc_ParseLiteral(p, "false") ? oc_NewValue(p, ocJsonFalse) : NULL;
		case 'n':
			return oc_ParseLiteral(p, "null") ? oc_NewValue(p, ocJsonNull) : NULL;
		case -1:
			oc_Fail(p, "unexpected end of input");
			return NULL;
		default:
			if (c == '-' || oc_IsDigit(c))
			{
				return oc_ParseNumber(p);
			}
			oc_Fail(p, "unexpected character");
			return NULL;
	}
}

ocJsonDocument* oc_JsonDocument_Parse(const char* text, size_t length, char* error, size_t errorSize)
{
	if (error != NULL && errorSize > 0)
	{
		error[0] = '\0';
	}
	ocJsonDocument* doc = (ocJsonDocument*)calloc(1, sizeof(ocJsonDocument));
	if (doc == NULL)
	{
		if (error != NULL && errorSize > 0)
		{
			snprintf(error, errorSize, "out of memory while reading the request");
		}
		return NULL;
	}

	ocJsonParser parser = { doc, text, length, 0, error, errorSize, false };
	ocJson* root = oc_ParseValue(&parser, 0);
	if (root != NULL)
	{
		oc_SkipSpace(&parser);
		if (parser.pos != parser.length)
		{
			oc_Fail(&parser, "trailing characters after the value");
		}
	}
	if (root == NULL || parser.failed)
	{
		oc_JsonDocument_Destroy(doc);
		return NULL;
	}
	doc->root = root;
	return doc;
}

void oc_JsonDocument_Destroy(ocJsonDocument* document)
{
	if (document == NULL)
	{
		return;
	}
	ocArenaBlock* block = document->blocks;
	while (block != NULL)
	{
		ocArenaBlock* next = block->next;
		free(block);
		block = next;
	}
	free(document);
}

const ocJson* oc_JsonDocument_Root(const ocJsonDocument* document)
{
	return document->root;
}

// Access -----------------------------------------------------------------------------------------

const ocJson* oc_Json_Member(const ocJson* value, const char* key)
{
	if (value == NULL || value->type != ocJsonObject)
	{
		return NULL;
	}
	const ocJson* found = NULL;
	for (const ocJson* child = value->first; child != NULL; child = child->next)
	{
		if (strcmp(child->key, key) == 0)
		{
			found = child;
		}
	}
	return found;
}

const ocJson* oc_Json_Item(const ocJson* value, int index)
{
	if (value == NULL || value->type != ocJsonArray || index < 0 || index >= value->count)
	{
		return NULL;
	}
	const ocJson* child = value->first;
	for (int k = 0; k < index; ++k)
	{
		child = child->next;
	}
	return child;
}

bool oc_Json_IsArray(const ocJson* value, int count)
{
	return value != NULL && value->type == ocJsonArray && (count < 0 || value->count == count);
}

bool oc_Json_ToDouble(const ocJson* value, double* out)
{
	if (value == NULL || value->type != ocJsonNumber)
	{
		return false;
	}
	// The token is valid JSON, which strtod reads whole; overflow gives +-HUGE_VAL (infinity),
	// as Python's float() of the same text does.
	char* end = NULL;
	*out = strtod(value->text, &end);
	return end == value->text + value->length;
}

// true when the token has no fraction and no exponent.
static bool oc_IsIntegerToken(const ocJson* value)
{
	return value != NULL && value->type == ocJsonNumber && strpbrk(value->text, ".eE") == NULL;
}

bool oc_Json_ToInt64(const ocJson* value, int64_t* out)
{
	if (!oc_IsIntegerToken(value))
	{
		return false;
	}
	char* end = NULL;
	errno = 0;
	long long n = strtoll(value->text, &end, 10);
	if (errno != 0 || end != value->text + value->length)
	{
		return false;
	}
	*out = (int64_t)n;
	return true;
}

bool oc_Json_ToUInt64(const ocJson* value, uint64_t* out)
{
	// strtoull would wrap a negative token around: refuse the sign outright.
	if (!oc_IsIntegerToken(value) || value->text[0] == '-')
	{
		return false;
	}
	char* end = NULL;
	errno = 0;
	unsigned long long n = strtoull(value->text, &end, 10);
	if (errno != 0 || end != value->text + value->length)
	{
		return false;
	}
	*out = (uint64_t)n;
	return true;
}

bool oc_Json_ToInt(const ocJson* value, int* out)
{
	int64_t n;
	if (!oc_Json_ToInt64(value, &n) || n < INT_MIN || n > INT_MAX)
	{
		return false;
	}
	*out = (int)n;
	return true;
}

bool oc_Json_IsString(const ocJson* value, const char* text)
{
	return value != NULL && value->type == ocJsonString && strlen(text) == value->length &&
		   memcmp(value->text, text, value->length) == 0;
}
