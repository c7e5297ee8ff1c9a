//go:build amd64 && !purego

#include "textflag.h"

// func highScan(p *byte, n int) int
//
// n is a multiple of 32. Returns the start of the first 32-byte block
// holding a byte >= 0x80 (VPMOVMSKB collects the sign bits), or n. Four
// blocks a round while they fit.
TEXT ·highScan(SB), NOSPLIT, $0-24
	MOVQ p+0(FP), SI
	MOVQ n+8(FP), DX
	XORQ CX, CX
	MOVQ DX, R11
	SUBQ $128, R11

quad:
	CMPQ CX, R11
	JGT single
	PREFETCHT0 1024(SI)(CX*1)
	VMOVDQU (SI)(CX*1), Y0
	VMOVDQU 32(SI)(CX*1), Y1
	VMOVDQU 64(SI)(CX*1), Y2
	VMOVDQU 96(SI)(CX*1), Y3
	VPOR Y0, Y1, Y4
	VPOR Y2, Y3, Y5
	VPOR Y4, Y5, Y5
	VPMOVMSKB Y5, AX
	TESTL AX, AX
	JNZ single
	ADDQ $128, CX
	JMP quad

single:
	CMPQ CX, DX
	JGE done
	VMOVDQU (SI)(CX*1), Y0
	VPMOVMSKB Y0, AX
	TESTL AX, AX
	JNZ done
	ADDQ $32, CX
	JMP single

done:
	MOVQ CX, ret+16(FP)
	VZEROUPPER
	RET
