//go:build amd64 && !purego

#include "textflag.h"

// func trioScan(p *byte, limit, a, b, c int, set uint32, setc uint32) (pos int, mask uint32)
//
// Blocks of 32 positions at SI+CX: load 32 bytes at offsets a, b and c,
// compare each with its two allowed bytes, OR the two results of an
// offset, AND the offsets. Two blocks a round while both fit.
TEXT ·trioScan(SB), NOSPLIT, $0-60
	MOVQ p+0(FP), SI
	MOVQ limit+8(FP), DX
	MOVQ a+16(FP), R8
	MOVQ b+24(FP), R9
	MOVQ c+32(FP), R10
	MOVL setc+44(FP), AX
	VMOVD AX, X13
	VPBROADCASTB X13, Y13 // c, first byte
	SHRL $8, AX
	VMOVD AX, X14
	VPBROADCASTB X14, Y14 // c, second byte
	MOVL set+40(FP), AX
	VMOVD AX, X0
	VPBROADCASTB X0, Y0 // a, first byte
	SHRL $8, AX
	VMOVD AX, X1
	VPBROADCASTB X1, Y1 // a, second byte
	SHRL $8, AX
	VMOVD AX, X2
	VPBROADCASTB X2, Y2 // b, first byte
	SHRL $8, AX
	VMOVD AX, X3
	VPBROADCASTB X3, Y3 // b, second byte
	XORQ CX, CX
	MOVQ DX, R11
	SUBQ $32, R11

double:
	CMPQ CX, R11
	JGT single
	LEAQ (SI)(CX*1), DI
	// The hardware prefetcher alone leaves this loop a third slower than
	// bytes.IndexByte over a memory-mapped file (in-process, 200 MiB).
	PREFETCHT0 1024(DI)
	VMOVDQU (DI)(R8*1), Y4
	VMOVDQU (DI)(R9*1), Y5
	VMOVDQU 32(DI)(R8*1), Y8
	VMOVDQU 32(DI)(R9*1), Y9
	VPCMPEQB Y4, Y0, Y6
	VPCMPEQB Y4, Y1, Y4
	VPOR Y6, Y4, Y4
	VPCMPEQB Y5, Y2, Y7
	VPCMPEQB Y5, Y3, Y5
	VPOR Y7, Y5, Y5
	VPAND Y4, Y5, Y10
	VMOVDQU (DI)(R10*1), Y4
	VPCMPEQB Y4, Y13, Y6
	VPCMPEQB Y4, Y14, Y4
	VPOR Y6, Y4, Y4
	VPAND Y4, Y10, Y10
	VPCMPEQB Y8, Y0, Y6
	VPCMPEQB Y8, Y1, Y8
	VPOR Y6, Y8, Y8
	VPCMPEQB Y9, Y2, Y7
	VPCMPEQB Y9, Y3, Y9
	VPOR Y7, Y9, Y9
	VPAND Y8, Y9, Y11
	VMOVDQU 32(DI)(R10*1), Y8
	VPCMPEQB Y8, Y13, Y6
	VPCMPEQB Y8, Y14, Y8
	VPOR Y6, Y8, Y8
	VPAND Y8, Y11, Y11
	VPOR Y10, Y11, Y12
	VPTEST Y12, Y12
	JNZ founddouble
	ADDQ $64, CX
	JMP double

founddouble:
	VPMOVMSKB Y10, AX
	TESTL AX, AX
	JNZ found
	ADDQ $32, CX
	VPMOVMSKB Y11, AX
	JMP found

single:
	CMPQ CX, DX
	JGT done
	LEAQ (SI)(CX*1), DI
	VMOVDQU (DI)(R8*1), Y4
	VMOVDQU (DI)(R9*1), Y5
	VPCMPEQB Y4, Y0, Y6
	VPCMPEQB Y4, Y1, Y4
	VPOR Y6, Y4, Y4
	VPCMPEQB Y5, Y2, Y7
	VPCMPEQB Y5, Y3, Y5
	VPOR Y7, Y5, Y5
	VPAND Y4, Y5, Y10
	VMOVDQU (DI)(R10*1), Y4
	VPCMPEQB Y4, Y13, Y6
	VPCMPEQB Y4, Y14, Y4
	VPOR Y6, Y4, Y4
	VPAND Y4, Y10, Y10
	VPMOVMSKB Y10, AX
	TESTL AX, AX
	JNZ found
	ADDQ $32, CX
	JMP single

found:
	MOVQ CX, pos+48(FP)
	MOVL AX, mask+56(FP)
	VZEROUPPER
	RET

done:
	MOVQ CX, pos+48(FP)
	MOVL $0, mask+56(FP)
	VZEROUPPER
	RET
