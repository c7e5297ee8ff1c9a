//go:build amd64 && !purego

#include "textflag.h"

// LOOKUP looks the 32 bytes at disp(DI)(off*1) up in the nibble tables
// lo and hi (Y6 holds 0x0f in every byte): Y7 gets the low-nibble result,
// Y8 the high-nibble one.
#define LOOKUP(disp, off, lo, hi) \
	VMOVDQU disp(DI)(off*1), Y7; \
	VPSRLW  $4, Y7, Y8;          \
	VPAND   Y6, Y7, Y7;          \
	VPAND   Y6, Y8, Y8;          \
	VPSHUFB Y7, lo, Y7;          \
	VPSHUFB Y8, hi, Y8

// BLOCK sets acc to the bucket bits of the 32 positions at DI+disp: the
// AND of the lookups at the three offsets (R8, R9, R10).
#define BLOCK(disp, acc)          \
	LOOKUP(disp, R8, Y0, Y1);  \
	VPAND Y7, Y8, acc;         \
	LOOKUP(disp, R9, Y2, Y3);  \
	VPAND Y7, acc, acc;        \
	VPAND Y8, acc, acc;        \
	LOOKUP(disp, R10, Y4, Y5); \
	VPAND Y7, acc, acc;        \
	VPAND Y8, acc, acc

// func teddyScan(tables *[6][32]byte, off *[3]int, p *byte, limit int) (pos int, mask uint32)
//
// For each 32-position block at SI+CX: for offset k, load 32 bytes at
// SI+CX+off[k], split them into nibbles, look both up (VPSHUFB) in the
// offset's tables and AND everything; a non-zero byte j is a candidate at
// CX+j. Two blocks are tested per round when both fit.
TEXT ·teddyScan(SB), NOSPLIT, $0-44
	MOVQ tables+0(FP), AX
	MOVQ off+8(FP), BX
	MOVQ p+16(FP), SI
	MOVQ limit+24(FP), DX
	MOVQ 0(BX), R8
	MOVQ 8(BX), R9
	MOVQ 16(BX), R10
	VMOVDQU 0(AX), Y0
	VMOVDQU 32(AX), Y1
	VMOVDQU 64(AX), Y2
	VMOVDQU 96(AX), Y3
	VMOVDQU 128(AX), Y4
	VMOVDQU 160(AX), Y5
	MOVL $0x0f0f0f0f, AX
	VMOVD AX, X6 // VEX-encoded: an SSE MOVD here costs ~600 ns a call (SSE/AVX transition)
	VPBROADCASTD X6, Y6
	XORQ CX, CX
	MOVQ DX, R11
	SUBQ $32, R11 // last start of a double round

double:
	CMPQ CX, R11
	JGT single
	LEAQ (SI)(CX*1), DI
	PREFETCHT0 1024(DI) // see trio_amd64.s
	BLOCK(0, Y9)
	BLOCK(32, Y10)
	VPOR Y9, Y10, Y11
	VPTEST Y11, Y11
	JNZ founddouble
	ADDQ $64, CX
	JMP double

founddouble:
	VPTEST Y9, Y9
	JNZ found
	ADDQ $32, CX
	VMOVDQA Y10, Y9
	JMP found

single:
	CMPQ CX, DX
	JGT done
	LEAQ (SI)(CX*1), DI
	BLOCK(0, Y9)
	VPTEST Y9, Y9
	JNZ found
	ADDQ $32, CX
	JMP single

found:
	VPXOR Y12, Y12, Y12
	VPCMPEQB Y12, Y9, Y9
	VPMOVMSKB Y9, AX
	NOTL AX
	MOVQ CX, pos+32(FP)
	MOVL AX, mask+40(FP)
	VZEROUPPER
	RET

done:
	MOVQ CX, pos+32(FP)
	MOVL $0, mask+40(FP)
	VZEROUPPER
	RET
