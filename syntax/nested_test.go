package syntax

import "testing"

// TestOutlineNested: a method of a class inside a module is a child of the
// class, which is a child of the module; Outline stops at the class.
func TestOutlineNested(t *testing.T) {
	if !Supported(Ruby) {
		t.Skip("no Ruby parser in this build")
	}
	src := []byte("module Rack\n  class Deflater\n    def call(env)\n      env\n    end\n\n    def other\n    end\n  end\nend\n")
	ds, err := OutlineNested(Ruby, src)
	if err != nil {
		t.Fatal(err)
	}
	if len(ds) != 1 || ds[0].Name != "Rack" || len(ds[0].Children) != 1 {
		t.Fatalf("top: %+v", ds)
	}
	cls := ds[0].Children[0]
	if cls.Name != "Deflater" || len(cls.Children) != 2 || cls.Children[0].Name != "call" || cls.Children[1].Name != "other" {
		t.Fatalf("class: %+v", cls)
	}
	flat, _ := Outline(Ruby, src)
	if len(flat[0].Children) != 1 || len(flat[0].Children[0].Children) != 0 {
		t.Errorf("Outline changed: %+v", flat)
	}
}
