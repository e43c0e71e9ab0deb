// SPDX-License-Identifier: MIT
// ORCA conformance, libc-free CLI runtime (Linux and Windows): the streams and the formatting
// the C CLI uses, and exit. stdin is read through a buffer with oc_Read (read(2), ReadFile),
// which returns what the pipe holds (a request line is answered as soon as it arrives); stdout
// collects a reply until fflush; stderr writes at once. Bytes pass as they are: no newline
// translation on Windows (a request line may end in "\r\n", the CLI drops the "\r"; a reply
// ends in "\n"). snprintf knows the conversions the CLI's sources use: %d %i %u %x %c %s %%,
// the flags - and 0, a width, a precision (for strings: at most that many bytes) and the
// length modifiers hh h l ll z j. Anything else is written as it stands.

#include "system.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum
{
	OC_BUFFER = 65536
};

struct ocFile
{
	int fd;
	bool buffered;
	bool failed;
	size_t start;
	size_t size;
	unsigned char* data;
};

static unsigned char oc_inBuffer[OC_BUFFER];
static unsigned char oc_outBuffer[OC_BUFFER];
static struct ocFile oc_stdin = { 0, true, false, 0, 0, oc_inBuffer };
static struct ocFile oc_stdout = { 1, true, false, 0, 0, oc_outBuffer };
static struct ocFile oc_stderr = { 2, false, false, 0, 0, NULL };

FILE* const stdin = &oc_stdin;
FILE* const stdout = &oc_stdout;
FILE* const stderr = &oc_stderr;

int getc(FILE* stream)
{
	if (stream->start == stream->size)
	{
		long n;
		do
		{
			n = oc_Read(stream->fd, stream->data, OC_BUFFER);
		} while (n == -OC_EINTR);
		if (n <= 0)
		{
			stream->failed = n < 0;
			return EOF;
		}
		stream->start = 0;
		stream->size = (size_t)n;
	}
	return stream->data[stream->start++];
}

// Writes all of data to the stream's descriptor; false when the descriptor fails.
static bool oc_WriteAll(FILE* stream, const unsigned char* data, size_t size)
{
	while (size > 0)
	{
		long n = oc_Write(stream->fd, data, size);
		if (n == -OC_EINTR)
		{
			continue;
		}
		if (n <= 0)
		{
			stream->failed = true;
			return false;
		}
		data += n;
		size -= (size_t)n;
	}
	return true;
}

int fflush(FILE* stream)
{
	if (!stream->buffered || stream->size == 0)
	{
		return stream->failed ? EOF : 0;
	}
	bool ok = oc_WriteAll(stream, stream->data, stream->size);
	stream->size = 0;
	return ok ? 0 : EOF;
}

size_t fwrite(const void* data, size_t size, size_t count, FILE* stream)
{
	size_t total = size * count;
	const unsigned char* bytes = (const unsigned char*)data;
	if (!stream->buffered)
	{
		return oc_WriteAll(stream, bytes, total) ? count : 0;
	}
	size_t done = 0;
	while (done < total)
	{
		if (stream->size == OC_BUFFER && fflush(stream) != 0)
		{
			return size > 0 ? done / size : 0;
		}
		size_t room = OC_BUFFER - stream->size;
		size_t n = total - done < room ? total - done : room;
		memcpy(stream->data + stream->size, bytes + done, n);
		stream->size += n;
		done += n;
	}
	return count;
}

int fputc(int c, FILE* stream)
{
	unsigned char byte = (unsigned char)c;
	return fwrite(&byte, 1, 1, stream) == 1 ? byte : EOF;
}

int fputs(const char* text, FILE* stream)
{
	size_t n = strlen(text);
	return fwrite(text, 1, n, stream) == n ? 0 : EOF;
}

void exit(int status)
{
	fflush(stdout);
	oc_Exit(status);
}

// Formatting -------------------------------------------------------------------------------------

typedef struct ocSink
{
	char* out;
	size_t size;
	size_t length;
} ocSink;

// Appends one byte (counted always, stored while it fits with room for the final NUL).
static void oc_Put(ocSink* sink, char c)
{
	if (sink->length + 1 < sink->size)
	{
		sink->out[sink->length] = c;
	}
	sink->length += 1;
}

static void oc_Pad(ocSink* sink, char c, int count)
{
	for (int k = 0; k < count; ++k)
	{
		oc_Put(sink, c);
	}
}

// text of n bytes, padded to width (left-aligned when left; zeros after a sign when zero).
static void oc_Field(ocSink* sink, const char* text, int n, int width, bool left, bool zero)
{
	int pad = width > n ? width - n : 0;
	if (!left && !zero)
	{
		oc_Pad(sink, ' ', pad);
	}
	int k = 0;
	if (zero && !left && n > 0 && text[0] == '-')
	{
		oc_Put(sink, '-');
		k = 1;
	}
	if (zero && !left)
	{
		oc_Pad(sink, '0', pad);
	}
	for (; k < n; ++k)
	{
		oc_Put(sink, text[k]);
	}
	if (left)
	{
		oc_Pad(sink, ' ', pad);
	}
}

/// One conversion specification: %[-0][width][.precision][length]conversion.
typedef struct ocSpec
{
	bool left;
	bool zero;
	int width;
	int precision;
	int longs;
	bool wide;
	char conversion;
} ocSpec;

// Reads the specification after a '%' at p; returns the conversion character's address.
static const char* oc_ReadSpec(const char* p, ocSpec* spec, va_list* args)
{
	*spec = (ocSpec){ false, false, 0, -1, 0, false, 0 };
	for (; *p == '-' || *p == '0'; ++p)
	{
		spec->left = spec->left || *p == '-';
		spec->zero = spec->zero || *p == '0';
	}
	if (*p == '*')
	{
		spec->width = va_arg(*args, int);
		++p;
	}
	for (; *p >= '0' && *p <= '9'; ++p)
	{
		spec->width = 10 * spec->width + (*p - '0');
	}
	if (*p == '.')
	{
		spec->precision = 0;
		if (*++p == '*')
		{
			spec->precision = va_arg(*args, int);
			++p;
		}
		for (; *p >= '0' && *p <= '9'; ++p)
		{
			spec->precision = 10 * spec->precision + (*p - '0');
		}
	}
	for (; *p == 'h' || *p == 'l' || *p == 'z' || *p == 'j'; ++p)
	{
		spec->longs += *p == 'l';
		spec->wide = spec->wide || *p == 'z' || *p == 'j';
	}
	spec->conversion = *p;
	return p;
}

// %d %i %u %x: the argument of the spec's length, in decimal or hexadecimal.
static void oc_Integer(ocSink* sink, const ocSpec* spec, va_list* args)
{
	bool isSigned = spec->conversion == 'd' || spec->conversion == 'i';
	unsigned base = spec->conversion == 'x' ? 16 : 10;
	uint64_t magnitude;
	bool negative = false;
	if (isSigned)
	{
		int64_t v = spec->wide ? (int64_t)va_arg(*args, intmax_t)
				  : spec->longs >= 2 ? (int64_t)va_arg(*args, long long)
				  : spec->longs == 1 ? (int64_t)va_arg(*args, long) : (int64_t)va_arg(*args, int);
		negative = v < 0;
		magnitude = negative ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
	}
	else
	{
		magnitude = spec->wide ? (uint64_t)va_arg(*args, uintmax_t)
				  : spec->longs >= 2 ? (uint64_t)va_arg(*args, unsigned long long)
				  : spec->longs == 1 ? (uint64_t)va_arg(*args, unsigned long) : (uint64_t)va_arg(*args, unsigned);
	}
	char digits[24];
	int d = 0;
	do
	{
		digits[d++] = "0123456789abcdef"[magnitude % base];
		magnitude /= base;
	} while (magnitude != 0);
	char text[32];
	int n = 0;
	if (negative)
	{
		text[n++] = '-';
	}
	while (d > 0)
	{
		text[n++] = digits[--d];
	}
	oc_Field(sink, text, n, spec->width, spec->left, spec->zero);
}

int vsnprintf(char* out, size_t size, const char* format, va_list args)
{
	ocSink sink = { out, size, 0 };
	va_list list;
	va_copy(list, args);
	for (const char* p = format; *p != '\0'; ++p)
	{
		if (*p != '%')
		{
			oc_Put(&sink, *p);
			continue;
		}
		const char* start = p;
		ocSpec spec;
		p = oc_ReadSpec(p + 1, &spec, &list);
		if (spec.conversion == '%')
		{
			oc_Put(&sink, '%');
		}
		else if (spec.conversion == 'c')
		{
			char c = (char)va_arg(list, int);
			oc_Field(&sink, &c, 1, spec.width, spec.left, false);
		}
		else if (spec.conversion == 's')
		{
			const char* s = va_arg(list, const char*);
			s = s != NULL ? s : "(null)";
			int length = 0;
			while ((spec.precision < 0 || length < spec.precision) && s[length] != '\0')
			{
				length += 1;
			}
			oc_Field(&sink, s, length, spec.width, spec.left, false);
		}
		else if (spec.conversion == 'd' || spec.conversion == 'i' || spec.conversion == 'u' || spec.conversion == 'x')
		{
			oc_Integer(&sink, &spec, &list);
		}
		else
		{
			// not a conversion this runtime knows: written as it stands
			for (const char* q = start; q <= p && *q != '\0'; ++q)
			{
				oc_Put(&sink, *q);
			}
			p -= *p == '\0';
		}
	}
	va_end(list);
	if (size > 0)
	{
		out[sink.length < size ? sink.length : size - 1] = '\0';
	}
	return (int)sink.length;
}

int snprintf(char* out, size_t size, const char* format, ...)
{
	va_list args;
	va_start(args, format);
	int n = vsnprintf(out, size, format, args);
	va_end(args);
	return n;
}

int fprintf(FILE* stream, const char* format, ...)
{
	char text[1024];
	va_list args;
	va_start(args, format);
	int n = vsnprintf(text, sizeof text, format, args);
	va_end(args);
	size_t length = n < (int)sizeof text ? (size_t)n : sizeof text - 1;
	return fwrite(text, 1, length, stream) == length ? n : -1;
}
