// SPDX-License-Identifier: MIT
// ORCA conformance, libc-free Linux build (docs/unicorn.md, "The qemu columns"): the process
// entry and the three system calls the C CLI needs (read, write, exit_group), for each
// architecture of the qemu columns. No libc is linked: these and runners/freestanding/runtime
// (stdio.c, numbers.c, strings.c, heap.c) are the whole runtime, so a cold build compiles the
// port and Zig's compiler-rt only.

#include "system.h"

#include <stdlib.h>

int main(void);

#if defined(__aarch64__)
#define OC_SYS_READ 63
#define OC_SYS_WRITE 64
#define OC_SYS_EXIT_GROUP 94
__asm__(".text\n.global _start\n.type _start,%function\n_start:\n"
		"	mov x29, #0\n	mov x30, #0\n	mov x0, sp\n	and sp, x0, #-16\n	bl oc_StartC\n");
static long oc_Syscall3(long n, long a, long b, long c)
{
	register long x8 __asm__("x8") = n;
	register long x0 __asm__("x0") = a;
	register long x1 __asm__("x1") = b;
	register long x2 __asm__("x2") = c;
	__asm__ __volatile__("svc 0" : "+r"(x0) : "r"(x8), "r"(x1), "r"(x2) : "memory", "cc");
	return x0;
}
#elif defined(__riscv) && __riscv_xlen == 64
#define OC_SYS_READ 63
#define OC_SYS_WRITE 64
#define OC_SYS_EXIT_GROUP 94
__asm__(".text\n.global _start\n.type _start,%function\n_start:\n"
		"	mv a0, sp\n	andi sp, sp, -16\n	call oc_StartC\n");
static long oc_Syscall3(long n, long a, long b, long c)
{
	register long a7 __asm__("a7") = n;
	register long a0 __asm__("a0") = a;
	register long a1 __asm__("a1") = b;
	register long a2 __asm__("a2") = c;
	__asm__ __volatile__("ecall" : "+r"(a0) : "r"(a7), "r"(a1), "r"(a2) : "memory");
	return a0;
}
#elif defined(__i386__)
#define OC_SYS_READ 3
#define OC_SYS_WRITE 4
#define OC_SYS_EXIT_GROUP 252
__asm__(".text\n.global _start\n.type _start,@function\n_start:\n"
		"	xorl %ebp, %ebp\n	movl %esp, %eax\n	andl $-16, %esp\n	subl $12, %esp\n"
		"	pushl %eax\n	call oc_StartC\n	hlt\n");
static long oc_Syscall3(long n, long a, long b, long c)
{
	long r;
	__asm__ __volatile__("int $0x80" : "=a"(r) : "a"(n), "b"(a), "c"(b), "d"(c) : "memory");
	return r;
}
#elif defined(__s390x__)
#define OC_SYS_READ 3
#define OC_SYS_WRITE 4
#define OC_SYS_EXIT_GROUP 248
// r15 is the stack pointer; a callee may store into the 160-byte save area above its caller's.
__asm__(".text\n.global _start\n.type _start,@function\n_start:\n"
		"	lgr %r2, %r15\n	aghi %r15, -160\n	lghi %r0, 0\n	stg %r0, 0(%r15)\n"
		"	brasl %r14, oc_StartC\n");
static long oc_Syscall3(long n, long a, long b, long c)
{
	register long r1 __asm__("r1") = n;
	register long r2 __asm__("r2") = a;
	register long r3 __asm__("r3") = b;
	register long r4 __asm__("r4") = c;
	__asm__ __volatile__("svc 0" : "+d"(r2) : "d"(r1), "d"(r3), "d"(r4) : "memory");
	return r2;
}
#elif defined(__powerpc64__) && defined(__LITTLE_ENDIAN__)
#define OC_SYS_READ 3
#define OC_SYS_WRITE 4
#define OC_SYS_EXIT_GROUP 234
// ELFv2: the loader puts the entry address in r12, from which the TOC pointer (r2) follows.
__asm__(".text\n.global _start\n.type _start,@function\n_start:\n"
		"	addis 2, 12, .TOC.-_start@ha\n	addi 2, 2, .TOC.-_start@l\n"
		"	mr 3, 1\n	clrrdi 1, 1, 4\n	li 0, 0\n	stdu 0, -32(1)\n	mtlr 0\n"
		"	bl oc_StartC\n	nop\n");
static long oc_Syscall3(long n, long a, long b, long c)
{
	register long r0 __asm__("r0") = n;
	register long r3 __asm__("r3") = a;
	register long r4 __asm__("r4") = b;
	register long r5 __asm__("r5") = c;
	// On failure the kernel sets cr0.SO and returns the positive errno: negate it, as elsewhere.
	__asm__ __volatile__("sc\n	bns+ 1f\n	neg %1, %1\n1:"
						 : "+r"(r0), "+r"(r3), "+r"(r4), "+r"(r5)
						 :
						 : "memory", "cr0", "r6", "r7", "r8", "r9", "r10", "r11", "r12", "ctr", "xer");
	return r3;
}
#else
#error "no Linux entry and system calls for this architecture (runners/freestanding/linux/start.c)"
#endif

long oc_Read(int fd, void* buffer, size_t size)
{
	return oc_Syscall3(OC_SYS_READ, fd, (long)buffer, (long)size);
}

long oc_Write(int fd, const void* data, size_t size)
{
	return oc_Syscall3(OC_SYS_WRITE, fd, (long)data, (long)size);
}

_Noreturn void oc_Exit(int status)
{
	for (;;)
	{
		oc_Syscall3(OC_SYS_EXIT_GROUP, status, 0, 0);
	}
}

// Called by _start with the initial stack pointer (argc, argv...: the CLI reads none of them).
_Noreturn void oc_StartC(long* stack)
{
	(void)stack;
	exit(main());
}
