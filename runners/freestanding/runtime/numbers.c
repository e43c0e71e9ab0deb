// SPDX-License-Identifier: MIT
// ORCA conformance, libc-free CLI runtime (Linux and Windows): the number parsers of the C CLI. strtod is correctly
// rounded (round to nearest, ties to even), as glibc's and musl's are and as Python's float()
// is, so a scene's shortest round-trip decimals become the same doubles as in every other
// column: the digits are kept exactly (past 800 significant digits, a nonzero tail is one more
// digit 1, which leaves the value between the same two halfway points: none has more than 767
// significant digits), the value is scaled by a power of ten in big integers, 57 bits of it
// are divided out with the remainder as a sticky bit, and those bits are rounded once into a
// binary64 (a subnormal one below 2^-1022). It reads C's decimal syntax (sign, digits, a
// point, an exponent); no hexadecimal, infinity or nan spellings, which JSON does not have.
// strtoll and strtoull read base 10 (the only base the CLI asks for).

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

int errno;

enum
{
	OC_MAX_DIGITS = 800,
	OC_LIMBS = 160 // 5120 bits: 10^1125 (the largest divisor) shifted by 57 bits fits
};

/// A non-negative big integer: 32-bit limbs, least significant first, no leading zero limb.
typedef struct ocBig
{
	int count;
	uint32_t limb[OC_LIMBS];
} ocBig;

static void oc_BigMulAdd(ocBig* a, uint32_t factor, uint32_t add)
{
	uint64_t carry = add;
	for (int i = 0; i < a->count; ++i)
	{
		uint64_t t = (uint64_t)a->limb[i] * factor + carry;
		a->limb[i] = (uint32_t)t;
		carry = t >> 32;
	}
	if (carry != 0)
	{
		a->limb[a->count++] = (uint32_t)carry;
	}
}

static void oc_BigMulPow10(ocBig* a, int exponent)
{
	static const uint32_t powers[10] = { 1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000, 1000000000 };
	for (; exponent >= 9; exponent -= 9)
	{
		oc_BigMulAdd(a, powers[9], 0);
	}
	oc_BigMulAdd(a, powers[exponent], 0);
}

static int oc_BigBits(const ocBig* a)
{
	return a->count == 0 ? 0 : 32 * (a->count - 1) + (32 - __builtin_clz(a->limb[a->count - 1]));
}

static void oc_BigTrim(ocBig* a)
{
	while (a->count > 0 && a->limb[a->count - 1] == 0)
	{
		a->count -= 1;
	}
}

static void oc_BigShiftLeft(ocBig* a, int bits)
{
	if (a->count == 0 || bits == 0)
	{
		return;
	}
	int words = bits / 32;
	int s = bits % 32;
	int count = a->count + words + 1;
	for (int i = count - 1; i >= 0; --i)
	{
		int from = i - words;
		uint32_t high = from >= 0 && from < a->count ? a->limb[from] : 0;
		uint32_t low = from - 1 >= 0 && from - 1 < a->count ? a->limb[from - 1] : 0;
		a->limb[i] = s == 0 ? high : (high << s) | (low >> (32 - s));
	}
	a->count = count;
	oc_BigTrim(a);
}

static void oc_BigShiftRightOne(ocBig* a)
{
	for (int i = 0; i < a->count; ++i)
	{
		uint32_t next = i + 1 < a->count ? a->limb[i + 1] : 0;
		a->limb[i] = (a->limb[i] >> 1) | (next << 31);
	}
	oc_BigTrim(a);
}

static int oc_BigCompare(const ocBig* a, const ocBig* b)
{
	if (a->count != b->count)
	{
		return a->count < b->count ? -1 : 1;
	}
	for (int i = a->count - 1; i >= 0; --i)
	{
		if (a->limb[i] != b->limb[i])
		{
			return a->limb[i] < b->limb[i] ? -1 : 1;
		}
	}
	return 0;
}

// a -= b, for a >= b.
static void oc_BigSubtract(ocBig* a, const ocBig* b)
{
	int64_t borrow = 0;
	for (int i = 0; i < a->count; ++i)
	{
		int64_t t = (int64_t)a->limb[i] - (i < b->count ? (int64_t)b->limb[i] : 0) - borrow;
		borrow = t < 0;
		a->limb[i] = (uint32_t)(t + (borrow << 32));
	}
	oc_BigTrim(a);
}

// The bits of a from bit `shift` up (at most 64 of them), and whether any bit below it is set.
static uint64_t oc_BigTop(const ocBig* a, int shift, bool* sticky)
{
	uint64_t q = 0;
	for (int bit = oc_BigBits(a) - 1; bit >= shift; --bit)
	{
		q = (q << 1) | ((a->limb[bit / 32] >> (bit % 32)) & 1);
	}
	*sticky = false;
	for (int bit = 0; bit < shift && !*sticky; ++bit)
	{
		*sticky = ((a->limb[bit / 32] >> (bit % 32)) & 1) != 0;
	}
	return q;
}

// The double nearest (q + e) * 2^e2, where 0 <= e < 1 and e > 0 exactly when sticky; q > 0 holds
// all the bits when !sticky, else at least 55 of them.
static double oc_Compose(uint64_t q, int e2, bool sticky, bool negative)
{
	int bits = 64 - __builtin_clzll(q);
	int lead = bits - 1 + e2;
	uint64_t out;
	if (lead > 1023)
	{
		out = 0x7ff0000000000000ULL;
	}
	else
	{
		int drop = lead >= -1022 ? bits - 53 : -1074 - e2;
		uint64_t m;
		if (drop <= 0)
		{
			m = q << -drop;
		}
		else if (drop > 63)
		{
			m = 0; // below half of the smallest subnormal (q < 2^63)
		}
		else
		{
			m = q >> drop;
			uint64_t rest = q & (((uint64_t)1 << drop) - 1);
			uint64_t half = (uint64_t)1 << (drop - 1);
			m += rest > half || (rest == half && (sticky || (m & 1) != 0));
		}
		// the exponent field below m's hidden bit: a carry out of the significand moves it up
		out = ((uint64_t)(e2 + drop + 1074) << 52) + m;
		if (out >= 0x7ff0000000000000ULL)
		{
			out = 0x7ff0000000000000ULL;
		}
	}
	if (out == 0 || out == 0x7ff0000000000000ULL)
	{
		errno = ERANGE;
	}
	out |= negative ? 0x8000000000000000ULL : 0;
	double value;
	__builtin_memcpy(&value, &out, sizeof value);
	return value;
}

static bool oc_IsDigit(char c)
{
	return c >= '0' && c <= '9';
}

/// A decimal number as read: value = digits * 10^exponent (digits without leading zeros).
typedef struct ocDecimal
{
	bool negative;
	int count;
	long exponent;
	char digits[OC_MAX_DIGITS + 1];
} ocDecimal;

// Reads C's decimal syntax at text into d; the end of what was read, or text when no digit.
static const char* oc_ReadDecimalText(const char* text, ocDecimal* d)
{
	const char* p = text;
	d->negative = *p == '-';
	p += *p == '-' || *p == '+';
	d->count = 0;
	d->exponent = 0;
	bool any = false;
	bool tail = false;
	for (; oc_IsDigit(*p); ++p)
	{
		any = true;
		if (d->count == 0 && *p == '0')
		{
			continue;
		}
		if (d->count < OC_MAX_DIGITS)
		{
			d->digits[d->count++] = *p;
			continue;
		}
		d->exponent += 1;
		tail = tail || *p != '0';
	}
	if (*p == '.' && (any || oc_IsDigit(p[1])))
	{
		for (++p; oc_IsDigit(*p); ++p)
		{
			any = true;
			bool kept = (d->count == 0 && *p == '0') || d->count < OC_MAX_DIGITS;
			if (kept && !(d->count == 0 && *p == '0'))
			{
				d->digits[d->count++] = *p;
			}
			d->exponent -= kept;
			tail = tail || (!kept && *p != '0');
		}
	}
	if (!any)
	{
		return text;
	}
	if ((*p == 'e' || *p == 'E') && (oc_IsDigit(p[1]) || ((p[1] == '+' || p[1] == '-') && oc_IsDigit(p[2]))))
	{
		bool minus = *++p == '-';
		p += *p == '+' || *p == '-';
		long exponent = 0;
		for (; oc_IsDigit(*p); ++p)
		{
			exponent = exponent < 100000000 ? 10 * exponent + (*p - '0') : exponent;
		}
		d->exponent += minus ? -exponent : exponent;
	}
	if (tail && d->count > 0)
	{
		d->digits[d->count++] = '1';
		d->exponent -= 1;
	}
	return p;
}

// The double nearest d (count > 0).
static double oc_DecimalToDouble(const ocDecimal* d)
{
	// 10^(magnitude - 1) <= value < 10^magnitude
	long magnitude = d->count + d->exponent;
	if (magnitude > 310)
	{
		return oc_Compose(1, 1100, false, d->negative); // beyond the largest double: infinity
	}
	if (magnitude < -324)
	{
		return oc_Compose(1, -1100, false, d->negative); // below half the smallest subnormal: zero
	}
	static ocBig n;
	static ocBig m;
	n.count = 0;
	for (int k = 0; k < d->count; k += 9)
	{
		uint32_t chunk = 0;
		uint32_t scale = 1;
		for (int j = k; j < d->count && j < k + 9; ++j)
		{
			chunk = 10 * chunk + (uint32_t)(d->digits[j] - '0');
			scale *= 10;
		}
		oc_BigMulAdd(&n, scale, chunk);
	}
	bool sticky;
	if (d->exponent >= 0)
	{
		oc_BigMulPow10(&n, (int)d->exponent);
		int bits = oc_BigBits(&n);
		int shift = bits > 64 ? bits - 64 : 0;
		uint64_t q = oc_BigTop(&n, shift, &sticky);
		return oc_Compose(q, shift, sticky, d->negative);
	}
	m.count = 1;
	m.limb[0] = 1;
	oc_BigMulPow10(&m, (int)-d->exponent);
	// n * 2^k / m lies in (2^55, 2^57): its 57 bits by long division, the remainder sticky
	int k = oc_BigBits(&m) + 56 - oc_BigBits(&n);
	oc_BigShiftLeft(k >= 0 ? &n : &m, k >= 0 ? k : -k);
	oc_BigShiftLeft(&m, 56);
	uint64_t q = 0;
	for (int bit = 56; bit >= 0; --bit)
	{
		if (oc_BigCompare(&n, &m) >= 0)
		{
			oc_BigSubtract(&n, &m);
			q |= (uint64_t)1 << bit;
		}
		oc_BigShiftRightOne(&m);
	}
	return oc_Compose(q, -k, n.count != 0, d->negative);
}

double strtod(const char* text, char** end)
{
	static ocDecimal decimal;
	const char* stop = oc_ReadDecimalText(text, &decimal);
	if (end != NULL)
	{
		*end = (char*)stop;
	}
	if (stop == text)
	{
		return 0.0;
	}
	if (decimal.count == 0)
	{
		return decimal.negative ? -0.0 : 0.0;
	}
	return oc_DecimalToDouble(&decimal);
}

// The base-10 magnitude at text (after an optional sign), saturated at limit; *end past it.
static unsigned long long oc_ReadDecimal(const char* text, char** end, bool* negative, unsigned long long limit,
										 bool* overflow)
{
	const char* p = text;
	*negative = *p == '-';
	if (*p == '-' || *p == '+')
	{
		++p;
	}
	const char* first = p;
	unsigned long long value = 0;
	*overflow = false;
	for (; oc_IsDigit(*p); ++p)
	{
		unsigned digit = (unsigned)(*p - '0');
		if (value > (limit - digit) / 10)
		{
			*overflow = true;
			value = limit;
		}
		else if (!*overflow)
		{
			value = 10 * value + digit;
		}
	}
	if (end != NULL)
	{
		*end = (char*)(p == first ? text : p);
	}
	return p == first ? 0 : value;
}

long long strtoll(const char* text, char** end, int base)
{
	if (base != 10)
	{
		errno = EINVAL;
		return 0;
	}
	bool negative;
	bool overflow;
	unsigned long long limit = (unsigned long long)LLONG_MAX + 1;
	unsigned long long magnitude = oc_ReadDecimal(text, end, &negative, limit, &overflow);
	if (overflow || (!negative && magnitude == limit))
	{
		errno = ERANGE;
		return negative ? LLONG_MIN : LLONG_MAX;
	}
	return negative ? (long long)(0 - magnitude) : (long long)magnitude;
}

unsigned long long strtoull(const char* text, char** end, int base)
{
	if (base != 10)
	{
		errno = EINVAL;
		return 0;
	}
	bool negative;
	bool overflow;
	unsigned long long magnitude = oc_ReadDecimal(text, end, &negative, ULLONG_MAX, &overflow);
	if (overflow)
	{
		errno = ERANGE;
		return ULLONG_MAX;
	}
	return negative ? 0 - magnitude : magnitude;
}
