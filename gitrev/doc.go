// Package gitrev reads Git revisions in process, with go-git's object
// storage: it finds the repository that holds a path, resolves a
// commit-ish to a commit, lists that commit's tree for a walk
// (walker.Tree), reads its blobs, and tells which lines of a working file
// were added or changed since a commit (Changes).
//
// It only reads. No git program is run, nothing is fetched, and no hook,
// smudge or clean filter, LFS or textconv applies: blobs are the bytes
// stored in the object database. A repository that may lack objects (a
// partial clone, a promisor remote or pack) is refused, since reading it
// would need a fetch; so are object formats and ref stores go-git v5
// cannot read (SHA-256, reftable). Environment variables such as GIT_DIR
// are not consulted: the repository is the one whose .git (folder, or
// "gitdir:" file of a linked worktree) is found above the path.
//
// It knows nothing of flags or printing; its bounds are in limits.go.
package gitrev
