// SPDX-License-Identifier: MIT
// ORCA conformance CLI: reply lines (see reply.h).

#include "reply.h"

#include "state_hash.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

void oc_Reply_Init(ocReply* reply)
{
	reply->data = NULL;
	reply->size = 0;
	reply->capacity = 0;
	reply->outOfMemory = false;
}

void oc_Reply_Free(ocReply* reply)
{
	free(reply->data);
	oc_Reply_Init(reply);
}

void oc_Reply_Clear(ocReply* reply)
{
	reply->size = 0;
	reply->outOfMemory = false;
}

void oc_Reply_Append(ocReply* reply, const char* text, size_t size)
{
	if (reply->outOfMemory)
	{
		return;
	}
	if (size > reply->capacity - reply->size)
	{
		size_t capacity = reply->capacity > 0 ? reply->capacity : 4096;
		while (capacity - reply->size < size)
		{
			if (capacity > (size_t)-1 / 2)
			{
				reply->outOfMemory = true;
				return;
			}
			capacity *= 2;
		}
		char* grown = (char*)realloc(reply->data, capacity);
		if (grown == NULL)
		{
			reply->outOfMemory = true;
			return;
		}
		reply->data = grown;
		reply->capacity = capacity;
	}
	memcpy(reply->data + reply->size, text, size);
	reply->size += size;
}

void oc_Reply_Text(ocReply* reply, const char* text)
{
	oc_Reply_Append(reply, text, strlen(text));
}

void oc_Reply_String(ocReply* reply, const char* text)
{
	static const char digits[] = "0123456789abcdef";
	oc_Reply_Append(reply, "\"", 1);
	for (const unsigned char* p = (const unsigned char*)text; *p != '\0'; ++p)
	{
		if (*p == '"' || *p == '\\')
		{
			char escaped[2] = { '\\', (char)*p };
			oc_Reply_Append(reply, escaped, 2);
		}
		else if (*p < 0x20 || *p == 0x7f)
		{
			char escaped[6] = { '\\', 'u', '0', '0', digits[*p >> 4], digits[*p & 15] };
			oc_Reply_Append(reply, escaped, 6);
		}
		else
		{
			oc_Reply_Append(reply, (const char*)p, 1);
		}
	}
	oc_Reply_Append(reply, "\"", 1);
}

void oc_Reply_Int(ocReply* reply, int64_t value)
{
	char text[32];
	int n = snprintf(text, sizeof text, "%" PRId64, value);
	oc_Reply_Append(reply, text, (size_t)n);
}

void oc_Reply_Hex(ocReply* reply, double value)
{
	// PRIx64, not %lx: long is 32 bits on i386, wasm32 and Windows.
	char text[24];
	int n = snprintf(text, sizeof text, "\"%016" PRIx64 "\"", oc_DoubleBits(value));
	oc_Reply_Append(reply, text, (size_t)n);
}

bool oc_Reply_Send(ocReply* reply, FILE* out)
{
	if (reply->outOfMemory)
	{
		return oc_Reply_SendError(reply, out, "out of memory while writing the reply");
	}
	bool ok = fwrite(reply->data != NULL ? reply->data : "", 1, reply->size, out) == reply->size;
	ok = fputc('\n', out) != EOF && ok;
	ok = fflush(out) == 0 && ok;
	oc_Reply_Clear(reply);
	return ok;
}

bool oc_Reply_SendError(ocReply* reply, FILE* out, const char* message)
{
	oc_Reply_Clear(reply);
	oc_Reply_Text(reply, "{\"error\":");
	oc_Reply_String(reply, message);
	oc_Reply_Text(reply, "}");
	if (reply->outOfMemory)
	{
		// Not even the error fits: write it straight through.
		oc_Reply_Clear(reply);
		bool ok = fputs("{\"error\":\"out of memory\"}\n", out) != EOF;
		return fflush(out) == 0 && ok;
	}
	return oc_Reply_Send(reply, out);
}
