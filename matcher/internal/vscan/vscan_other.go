//go:build !amd64 || purego

package vscan

const haveSIMD = false

func teddyScan(tables *[2 * Positions][32]byte, off *[Positions]int, p *byte, limit int) (int, uint32) {
	return 0, 0
}

func trioScan(p *byte, limit, a, b, c int, set, setc uint32) (int, uint32) {
	return 0, 0
}

func highScan(p *byte, n int) int { return 0 }
