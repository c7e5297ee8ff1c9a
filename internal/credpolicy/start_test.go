package credpolicy

import (
	"os"
	"reflect"
	"testing"
)

// TestStartTake: Take returns nothing before Start; after it, the set
// for the process's HOME, equal to a Compute of its own, and nothing for
// another HOME.
func TestStartTake(t *testing.T) {
	home := os.Getenv("HOME")
	if _, ok := Take(home); ok {
		t.Fatal("Take gave a set before Start")
	}
	Start()
	Start() // once
	s, ok := Take(home)
	if !ok || s.Home != home {
		t.Fatalf("Take(%q) = %v, %v", home, s, ok)
	}
	if again, _ := Take(home); again != s {
		t.Error("a second Take gave another set")
	}
	c := Compute(home)
	if !reflect.DeepEqual(s.Prefixes, c.Prefixes) || !reflect.DeepEqual(s.Homes, c.Homes) {
		t.Errorf("the started set differs from a Compute:\n%v %v\n%v %v", s.Prefixes, s.Homes, c.Prefixes, c.Homes)
	}
	if _, ok := Take(home + "/elsewhere"); ok {
		t.Error("Take gave the set for another HOME")
	}
}
