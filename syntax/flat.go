package syntax

import (
	"sync"
)

// Tree is a whole parse tree of one source, flattened into an array in
// pre-order (a node's first child, if any, is the next element), so that a
// caller can walk it without a call into the C parser per node. Nodes[0] is
// the root. A Tree is immutable and safe for concurrent reads; Src is the
// parsed source and must not be modified.
type Tree struct {
	Lang  Language
	Src   []byte
	Nodes []Node
	// HasError reports whether the source has syntax errors anywhere.
	HasError bool
	kinds    *kindTable
}

// Node is one node of a Tree: named or anonymous, extra (comments) or
// missing (inserted by error recovery).
type Node struct {
	// Start and End are the node's byte range in Tree.Src.
	Start, End uint32
	// Parent and Next are indexes into Tree.Nodes (-1: none).
	Parent, Next int32
	// NumChildren counts the direct children, named and anonymous.
	NumChildren uint32
	// Kind is the grammar's symbol of the node (see Tree.Kind).
	Kind  uint16
	flags uint8
	// field is the grammar's id of the field the node stands in under
	// its parent (0: none; 255: an id over 254, which no field lookup
	// finds).
	field uint8
}

// Node flags, as the C side writes them.
const (
	flagNamed   = 1
	flagMissing = 2
	flagExtra   = 4
	flagError   = 8 // the node is or contains a syntax error
)

// ErrorKind is the Kind of tree-sitter's ERROR nodes.
const ErrorKind = 0xFFFF

// Named reports whether the node is a named node of the grammar.
func (n *Node) Named() bool { return n.flags&flagNamed != 0 }

// Missing reports whether the parser inserted the node to recover from an
// error (it has no text).
func (n *Node) Missing() bool { return n.flags&flagMissing != 0 }

// Extra reports whether the node may appear anywhere (comments, mostly).
func (n *Node) Extra() bool { return n.flags&flagExtra != 0 }

// HasError reports whether the node is or contains a syntax error.
func (n *Node) HasError() bool { return n.flags&flagError != 0 }

// FirstChild is the index of node i's first child, or -1.
func (t *Tree) FirstChild(i int32) int32 {
	if t.Nodes[i].NumChildren == 0 {
		return -1
	}
	return i + 1
}

// Children appends the indexes of node i's children to dst.
func (t *Tree) Children(i int32, dst []int32) []int32 {
	for c := t.FirstChild(i); c >= 0; c = t.Nodes[c].Next {
		dst = append(dst, c)
	}
	return dst
}

// Kind is the name of node i's kind ("call_expression", "(" ...).
func (t *Tree) Kind(i int32) string { return t.kinds.name(t.Nodes[i].Kind) }

// Text is the source of node i.
func (t *Tree) Text(i int32) []byte { n := &t.Nodes[i]; return t.Src[n.Start:n.End] }

// FieldID is the grammar's id of the field node n stands in under its
// parent (0 when none; see FieldID and Tree.Field).
func (n *Node) FieldID() uint8 { return n.field }

// Field is the name of the field node i stands in under its parent ("" when
// none).
func (t *Tree) Field(i int32) string {
	f := int(t.Nodes[i].field)
	if f == 0 || f >= len(t.kinds.fields) {
		return ""
	}
	return t.kinds.fields[f]
}

// FieldID returns the id of the field name in lang's grammar (as
// Node.FieldID reports it); ok is false when the grammar has no such
// field (or its id is over 254) or no parser is compiled in.
func FieldID(lang Language, name string) (id uint8, ok bool) {
	k, err := kinds(lang)
	if err != nil {
		return 0, false
	}
	for i, f := range k.fields {
		if i > 0 && i < 255 && f == name {
			return uint8(i), true
		}
	}
	return 0, false
}

// kindTable names a grammar's symbols and fields.
type kindTable struct {
	names []string
	// fields are the grammar's field names by id (fields[0] is unused).
	fields []string
	// byName maps a named kind to its symbol, as tree-sitter's
	// ts_language_symbol_for_name finds it.
	byName map[string]uint16
}

func (k *kindTable) name(s uint16) string {
	if s == ErrorKind {
		return "ERROR"
	}
	if int(s) < len(k.names) {
		return k.names[s]
	}
	return ""
}

// KindID returns the symbol of the named node kind name in lang's grammar
// ("ERROR" included); ok is false when the grammar has no such named kind
// or no parser is compiled in.
func KindID(lang Language, name string) (id uint16, ok bool) {
	k, err := kinds(lang)
	if err != nil {
		return 0, false
	}
	if name == "ERROR" {
		return ErrorKind, true
	}
	id, ok = k.byName[name]
	return id, ok
}

// KindName returns the name of symbol id in lang's grammar ("" if unknown).
func KindName(lang Language, id uint16) string {
	k, err := kinds(lang)
	if err != nil {
		return ""
	}
	return k.name(id)
}

// ParseFlat parses src with lang's grammar and returns its whole tree.
// Trees are cached by language and content like the declaration indexes
// (bounded in entries and retained nodes), so a source asked about twice
// is parsed once. Errors: ErrNoParser, ErrTooLarge.
func ParseFlat(lang Language, src []byte) (*Tree, error) {
	if err := parseable(lang, src); err != nil {
		return nil, err
	}
	return defaultTrees.get(lang, src, parseFlat)
}

// ParseFlatOnce is ParseFlat without the cache: for a source that is
// parsed once (a search's walk reads each file once), so that its tree is
// garbage as soon as the caller drops it.
func ParseFlatOnce(lang Language, src []byte) (*Tree, error) {
	if err := parseable(lang, src); err != nil {
		return nil, err
	}
	return parseFlat(lang, src)
}

var kindTables sync.Map // Language -> *kindTable
