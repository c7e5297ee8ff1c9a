package structural

import (
	"os"
	"testing"

	"github.com/evgrep/evgrep/syntax"
)

func TestDumpDebug(t *testing.T) {
	src := os.Getenv("DUMP_SRC")
	if src == "" {
		t.Skip()
	}
	l, err := LookupLang(os.Getenv("DUMP_LANG"))
	if err != nil {
		t.Fatal(err)
	}
	tr, err := syntax.ParseTree(l.Name, []byte(l.preprocess(src)))
	if err != nil {
		t.Fatal(err)
	}
	t.Log("\n" + Dump(tr, 0))
}
