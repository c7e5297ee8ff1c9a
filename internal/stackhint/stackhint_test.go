package stackhint

import (
	"testing"
	"unsafe"
)

// use recurses through frames of about 1 KiB until it has used n bytes of
// stack.
//
//go:noinline
func use(n int) byte {
	var pad [1 << 10]byte
	pad[n%len(pad)] = byte(n)
	if n <= len(pad) {
		return pad[0]
	}
	return use(n-len(pad)) + pad[n%len(pad)]
}

// moved reports whether the calling goroutine's stack was copied (a local's
// address changed) while work used depth bytes of it, after grow ran.
func moved(grow func(), depth int) bool {
	out := make(chan bool)
	go func() {
		grow()
		var x byte
		before := uintptr(unsafe.Pointer(&x))
		use(depth)
		out <- uintptr(unsafe.Pointer(&x)) != before
	}()
	return <-out
}

func TestGrowAvoidsLaterCopies(t *testing.T) {
	// The control: on a goroutine's first stack the same work copies it,
	// so the test can see a copy.
	if !moved(func() {}, 10<<10) {
		t.Fatal("10 KiB of frames on a new goroutine did not move its stack: the test cannot see copies")
	}
	for _, c := range []struct {
		name  string
		grow  func()
		depth int
	}{
		{"Worker", Worker, 10 << 10},
		{"Deep", Deep, 22 << 10},
	} {
		if moved(c.grow, c.depth) {
			t.Errorf("after %s, %d KiB of frames still moved the stack", c.name, c.depth>>10)
		}
	}
}
