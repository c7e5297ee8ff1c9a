package vscan

// IndexHigh returns the index of the first byte of b at or above 0x80
// (the first non-ASCII byte), or -1.
func IndexHigh(b []byte) int {
	i := 0
	if haveSIMD && len(b) >= 32 {
		i = highScan(&b[0], len(b)&^31)
	}
	for ; i < len(b); i++ {
		if b[i] >= 0x80 {
			return i
		}
	}
	return -1
}
