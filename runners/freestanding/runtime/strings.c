// SPDX-License-Identifier: MIT
// ORCA conformance, libc-free CLI runtime (Linux and Windows): the string functions the C CLI calls beyond the
// wasm build's (runners/wasm/alloc.c has memcpy, memmove, memset, memcmp and strlen).

#include <stddef.h>
#include <string.h>

int strcmp(const char* a, const char* b)
{
	while (*a != '\0' && *a == *b)
	{
		++a;
		++b;
	}
	return (int)(unsigned char)*a - (int)(unsigned char)*b;
}

char* strpbrk(const char* text, const char* accept)
{
	for (; *text != '\0'; ++text)
	{
		for (const char* a = accept; *a != '\0'; ++a)
		{
			if (*a == *text)
			{
				return (char*)text;
			}
		}
	}
	return NULL;
}
