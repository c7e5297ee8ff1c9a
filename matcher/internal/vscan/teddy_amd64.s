//go:build amd64 && !purego

#include "textflag.h"

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
	VMOVD AX, X6
	VPBROADCASTD X6, Y6
	XORQ CX, CX
	MOVQ DX, R11
	SUBQ $32, R11 // last start of a double round

double:
	CMPQ CX, R11
	JGT single
	LEAQ (SI)(CX*1), DI
	PREFETCHT0 1024(DI) // see trio_amd64.s
	// block A: positions CX..CX+31
	VMOVDQU (DI)(R8*1), Y7
	VPSRLW $4, Y7, Y8
	VPAND Y6, Y7, Y7
	VPAND Y6, Y8, Y8
	VPSHUFB Y7, Y0, Y7
	VPSHUFB Y8, Y1, Y8
	VPAND Y7, Y8, Y9
	VMOVDQU (DI)(R9*1), Y7
	VPSRLW $4, Y7, Y8
	VPAND Y6, Y7, Y7
	VPAND Y6, Y8, Y8
	VPSHUFB Y7, Y2, Y7
	VPSHUFB Y8, Y3, Y8
	VPAND Y7, Y9, Y9
	VPAND Y8, Y9, Y9
	VMOVDQU (DI)(R10*1), Y7
	VPSRLW $4, Y7, Y8
	VPAND Y6, Y7, Y7
	VPAND Y6, Y8, Y8
	VPSHUFB Y7, Y4, Y7
	VPSHUFB Y8, Y5, Y8
	VPAND Y7, Y9, Y9
	VPAND Y8, Y9, Y9
	// block B: positions CX+32..CX+63
	VMOVDQU 32(DI)(R8*1), Y7
	VPSRLW $4, Y7, Y8
	VPAND Y6, Y7, Y7
	VPAND Y6, Y8, Y8
	VPSHUFB Y7, Y0, Y7
	VPSHUFB Y8, Y1, Y8
	VPAND Y7, Y8, Y10
	VMOVDQU 32(DI)(R9*1), Y7
	VPSRLW $4, Y7, Y8
	VPAND Y6, Y7, Y7
	VPAND Y6, Y8, Y8
	VPSHUFB Y7, Y2, Y7
	VPSHUFB Y8, Y3, Y8
	VPAND Y7, Y10, Y10
	VPAND Y8, Y10, Y10
	VMOVDQU 32(DI)(R10*1), Y7
	VPSRLW $4, Y7, Y8
	VPAND Y6, Y7, Y7
	VPAND Y6, Y8, Y8
	VPSHUFB Y7, Y4, Y7
	VPSHUFB Y8, Y5, Y8
	VPAND Y7, Y10, Y10
	VPAND Y8, Y10, Y10
	VPOR Y9, Y10, Y11
	VPTEST Y11, Y11
	JNZ founddouble
	ADDQ $64, CX
	JMP double

founddouble:
	VPTEST Y9, Y9
	JNZ foundA
	ADDQ $32, CX
	VMOVDQA Y10, Y9
	JMP foundA

single:
	CMPQ CX, DX
	JGT done
	LEAQ (SI)(CX*1), DI
	VMOVDQU (DI)(R8*1), Y7
	VPSRLW $4, Y7, Y8
	VPAND Y6, Y7, Y7
	VPAND Y6, Y8, Y8
	VPSHUFB Y7, Y0, Y7
	VPSHUFB Y8, Y1, Y8
	VPAND Y7, Y8, Y9
	VMOVDQU (DI)(R9*1), Y7
	VPSRLW $4, Y7, Y8
	VPAND Y6, Y7, Y7
	VPAND Y6, Y8, Y8
	VPSHUFB Y7, Y2, Y7
	VPSHUFB Y8, Y3, Y8
	VPAND Y7, Y9, Y9
	VPAND Y8, Y9, Y9
	VMOVDQU (DI)(R10*1), Y7
	VPSRLW $4, Y7, Y8
	VPAND Y6, Y7, Y7
	VPAND Y6, Y8, Y8
	VPSHUFB Y7, Y4, Y7
	VPSHUFB Y8, Y5, Y8
	VPAND Y7, Y9, Y9
	VPAND Y8, Y9, Y9
	VPTEST Y9, Y9
	JNZ foundA
	ADDQ $32, CX
	JMP single

foundA:
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
