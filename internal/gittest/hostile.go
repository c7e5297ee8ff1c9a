package gittest

import (
	"fmt"
	"testing"
)

// BombSize is what the zlib bombs of Hostile inflate to: far more than
// the 12 bytes their headers declare.
const BombSize = 256 << 20

// HostileCase is a repository that is hostile to a reader of Git objects.
// Its HEAD commit holds ok.txt ("needle\n") and the paths Bad, which no
// read may survive; its working tree holds ok.txt ("needle\nneedle
// new\n") and each Bad path ("needle changed\n"), so that a search with
// --rev HEAD finds ok.txt:1 and one with --changed-since HEAD finds
// ok.txt:2, and each Bad path is one error with Want in it.
type HostileCase struct {
	Name string
	// Build writes the repository's objects and points HEAD at its commit.
	Build func(r *Repo)
	// Bad are the paths whose blobs cannot be read.
	Bad []string
	// Want is in the error of each Bad path, or of the tree.
	Want string
	// Tree is set when the tree itself is hostile: a search of the
	// commit reports one error and ends; --changed-since does not read it.
	Tree bool
}

// Hostile returns the hostile repositories every surface that reads a
// commit (--rev, --changed-since, the agent's rev and changedSince) is
// tested with.
func Hostile() []HostileCase {
	ok := []byte("needle\n")
	hOK := ObjectHash("blob", ok)
	bad := func(s string) Hash { return ObjectHash("blob", []byte("needle "+s+"\n")) }
	// commitOf packs extra entries (names after the fixed ones) with ok.txt
	// and a tree of items (ok.txt first), and points HEAD at the commit.
	commitOf := func(r *Repo, items []TreeItem, extra []PackEntry, names []IndexEntry) {
		tree := TreeData(append([]TreeItem{{Name: "ok.txt", Hash: hOK}}, items...)...)
		hTree := ObjectHash("tree", tree)
		commit := CommitData(hTree)
		hCommit := ObjectHash("commit", commit)
		entries := append([]PackEntry{Whole(PackBlob, ok), Whole(PackTree, tree), Whole(PackCommit, commit)}, extra...)
		all := append([]IndexEntry{{hOK, 0}, {hTree, 1}, {hCommit, 2}}, names...)
		r.WritePack(entries, all)
		r.SetHead(hCommit)
	}
	selfDelta := func(base Hash) PackEntry {
		d := Delta(10, []byte("needle delta\n"))
		return PackEntry{Type: PackREFDelta, Size: int64(len(d)), Z: Zlib(d), Base: base}
	}
	return []HostileCase{
		{Name: "a delta names itself as its base", Bad: []string{"a.txt"}, Want: "delta chain loops",
			Build: func(r *Repo) {
				h := bad("a")
				commitOf(r, []TreeItem{{Name: "a.txt", Hash: h}}, []PackEntry{selfDelta(h)}, []IndexEntry{{h, 3}})
			}},
		{Name: "two deltas name each other", Bad: []string{"a.txt", "b.txt"}, Want: "delta chain loops",
			Build: func(r *Repo) {
				ha, hb := bad("a"), bad("b")
				commitOf(r, []TreeItem{{Name: "a.txt", Hash: ha}, {Name: "b.txt", Hash: hb}},
					[]PackEntry{selfDelta(hb), selfDelta(ha)}, []IndexEntry{{ha, 3}, {hb, 4}})
			}},
		{Name: "a loose zlib bomb", Bad: []string{"a.txt"}, Want: "inflates to more than the 12 bytes",
			Build: func(r *Repo) {
				h := bad("a")
				r.WriteLoose(h, ZlibZeros([]byte("blob 12\x00"), BombSize))
				commitOf(r, []TreeItem{{Name: "a.txt", Hash: h}}, nil, nil)
			}},
		{Name: "a packed zlib bomb", Bad: []string{"a.txt"}, Want: "inflates to more than the 12 bytes",
			Build: func(r *Repo) {
				h := bad("a")
				commitOf(r, []TreeItem{{Name: "a.txt", Hash: h}}, []PackEntry{{Type: PackBlob, Size: 12, Z: ZlibZeros(nil, BombSize)}}, []IndexEntry{{h, 3}})
			}},
		{Name: "a tree that contains itself through an aliasing index", Tree: true, Want: "contains itself",
			Build: func(r *Repo) {
				// Folder loop is tree L, whose ten folders name hAlias,
				// which the index gives L's own entry: L contains itself.
				hAlias := ObjectHash("tree", []byte("alias"))
				var items []TreeItem
				for i := range 10 {
					items = append(items, TreeItem{Name: fmt.Sprintf("d%d", i), Dir: true, Hash: hAlias})
				}
				commitOf(r, []TreeItem{{Name: "loop", Dir: true, Hash: hAlias}}, []PackEntry{Whole(PackTree, TreeData(items...))}, []IndexEntry{{hAlias, 3}})
			}},
	}
}

// BuildHostile makes the repository of c with its working tree.
func BuildHostile(t testing.TB, c HostileCase) *Repo {
	t.Helper()
	r := New(t)
	c.Build(r)
	files := map[string]string{"ok.txt": "needle\nneedle new\n"}
	for _, p := range c.Bad {
		files[p] = "needle changed\n"
	}
	r.Write(files)
	return r
}

// TreeBomb writes a valid commit whose tree holds ok.txt ("needle\n") and
// fanout folders, each holding fanout folders, depth levels down, the
// last level fanout files of content leaf: fanout^(depth+1) paths from
// depth+2 small objects.
func (r *Repo) TreeBomb(depth, fanout int, leaf []byte) {
	r.t.Helper()
	ok := []byte("needle\n")
	hOK := ObjectHash("blob", ok)
	hLeaf := ObjectHash("blob", leaf)
	entries := []PackEntry{Whole(PackBlob, ok), Whole(PackBlob, leaf)}
	names := []IndexEntry{{hOK, 0}, {hLeaf, 1}}
	var items []TreeItem
	for i := range fanout {
		items = append(items, TreeItem{Name: fmt.Sprintf("f%d", i), Hash: hLeaf})
	}
	for level := 0; ; level++ {
		if level == depth {
			items = append([]TreeItem{{Name: "ok.txt", Hash: hOK}}, items...)
		}
		data := TreeData(items...)
		h := ObjectHash("tree", data)
		entries = append(entries, Whole(PackTree, data))
		names = append(names, IndexEntry{h, len(entries) - 1})
		if level == depth {
			commit := CommitData(h)
			hc := ObjectHash("commit", commit)
			entries = append(entries, Whole(PackCommit, commit))
			names = append(names, IndexEntry{hc, len(entries) - 1})
			r.WritePack(entries, names)
			r.SetHead(hc)
			return
		}
		items = items[:0]
		for i := range fanout {
			items = append(items, TreeItem{Name: fmt.Sprintf("d%d", i), Dir: true, Hash: h})
		}
	}
}
