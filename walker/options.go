package walker

import (
	"io/fs"
	"os"
	"syscall"

	"github.com/evgrep/evgrep/walker/ignore"
	"github.com/evgrep/evgrep/walker/types"
)

// SortKey is what --sort/--sortr order by.
type SortKey int

const (
	// SortNone walks in parallel, in no particular order.
	SortNone SortKey = iota
	// SortPath orders the entries of each directory by file name (byte
	// order) during the walk, as ripgrep's --sort path does; reversed
	// (--sortr path), the whole list is sorted by path after the walk.
	SortPath
	// SortModified orders all the files found (not each directory, as
	// ripgrep 13 did) by modification time, oldest first, after the walk.
	SortModified
	// SortAccessed orders by last access time.
	SortAccessed
	// SortCreated orders by creation (birth) time.
	SortCreated
)

// FileID identifies a file by device and inode.
type FileID struct {
	// Dev is the device number.
	Dev uint64
	// Ino is the inode number.
	Ino uint64
}

// FileIDOf returns the identity of an open file, e.g. os.Stdout, for
// Options.SkipFile. ok is false when it cannot be determined.
func FileIDOf(f *os.File) (id FileID, ok bool) {
	fi, err := f.Stat()
	if err != nil {
		return FileID{}, false
	}
	st, isSys := fi.Sys().(*syscall.Stat_t)
	if !isSys {
		return FileID{}, false
	}
	return FileID{Dev: uint64(st.Dev), Ino: uint64(st.Ino)}, true
}

// Options configure a walk. The zero value is not ripgrep's default:
// start from DefaultOptions.
type Options struct {
	// Threads is the number of walking goroutines: 0 means ripgrep's
	// default (the number of CPUs, at most 12); 1 walks single-threaded,
	// depth first, in the order the OS lists each directory, and so does
	// any Sort other than SortNone.
	Threads int
	// Hidden includes files and directories whose name starts with '.'
	// (--hidden).
	Hidden bool
	// NoIgnore is --no-ignore: it implies every NoIgnore* switch below
	// except NoIgnoreFiles.
	NoIgnore bool
	// NoIgnoreDot disables .ignore and .rgignore files (--no-ignore-dot;
	// ripgrep 13 kept .rgignore).
	NoIgnoreDot bool
	// NoIgnoreVCS disables .gitignore, .git/info/exclude and the global
	// excludes file (--no-ignore-vcs).
	NoIgnoreVCS bool
	// NoIgnoreParent disables ignore files of directories above each root
	// (--no-ignore-parent).
	NoIgnoreParent bool
	// NoIgnoreExclude disables .git/info/exclude (--no-ignore-exclude).
	NoIgnoreExclude bool
	// NoIgnoreGlobal disables git's global excludes file
	// (--no-ignore-global).
	NoIgnoreGlobal bool
	// NoIgnoreFiles disables IgnoreFiles (--no-ignore-files).
	NoIgnoreFiles bool
	// RequireGit makes .gitignore, .git/info/exclude and the global
	// excludes file count only inside a repository (a directory holding
	// .git or, as ripgrep 15 has it, .jj), and not above its top.
	// ripgrep's default is true; --no-require-git sets it false, and then
	// a repository's top is no barrier either.
	RequireGit bool
	// IgnoreFiles are the --ignore-file paths in command-line order (a
	// later one wins over an earlier one). Like the global excludes file,
	// they are rooted at the current directory.
	IgnoreFiles []string
	// IgnoreCaseInsensitive matches .gitignore, .ignore, .rgignore,
	// .git/info/exclude and the global excludes file case-insensitively
	// (--ignore-file-case-insensitive). As in ripgrep, it does not
	// apply to IgnoreFiles.
	IgnoreCaseInsensitive bool
	// Globs are the -g/--iglob globs in command-line order; the caller
	// applies --glob-case-insensitive. They are relative to the current
	// directory.
	Globs []ignore.OverrideGlob
	// GlobRoot is the folder Globs are rooted at instead of the current
	// directory (an agent request's root: its globs name paths under it).
	GlobRoot string
	// Types filters files by -t/-T; nil means no filter.
	Types *types.Matcher
	// Follow follows symbolic links (-L). Without it, symlinks met in the
	// walk are skipped, even those to files; roots are always followed.
	Follow bool
	// MaxDepth limits the descent (--max-depth): 0 yields only the roots;
	// a negative value means no limit.
	MaxDepth int
	// MaxFilesize skips files bigger than this many bytes
	// (--max-filesize); a negative value means no limit.
	MaxFilesize int64
	// OneFileSystem does not descend into directories on another device
	// than their root (--one-file-system).
	OneFileSystem bool
	// Sort orders the walk (--sort); anything but SortNone walks
	// single-threaded. Except for SortPath without SortReverse, nothing is
	// yielded before the walk is over (the files are held and sorted).
	Sort SortKey
	// SortReverse reverses Sort (--sortr).
	SortReverse bool
	// SkipFile, when set, is a file never yielded by the walk (explicit
	// roots excepted): ripgrep skips the file its standard output is
	// redirected to, except with --files.
	SkipFile *FileID
	// SkipGitDir never descends into a directory named ".git". ripgrep 13
	// does not do this (with --hidden it lists .git's contents); it is
	// for the agent, which must never read .git internals.
	SkipGitDir bool
	// StatFiles gives each file found in a directory whose listing types
	// it a regular file its lstat result (Entry.Stat), taken relative to
	// the directory while the walk has it open: cheaper than a stat of
	// the whole path afterwards (rankindex checks every file so). Where
	// the system has no such call, Stat stays nil.
	StatFiles bool
	// OnError receives per-path problems (missing root, unreadable
	// directory, broken symlink with Follow, symlink loop); the walk goes
	// on. Its Error text is what ripgrep prints. It may be called
	// concurrently. Nil drops them.
	OnError func(err error)
	// OnIgnoreError receives ignore-file problems (*IgnoreFileError),
	// which ripgrep prints unless --no-ignore-messages. It may be called
	// concurrently. Nil drops them.
	OnIgnoreError func(err error)
}

// DefaultOptions returns ripgrep's defaults: ignore files respected,
// hidden files skipped, git required, no depth or size limit.
func DefaultOptions() Options {
	return Options{RequireGit: true, MaxDepth: -1, MaxFilesize: -1}
}

// Entry is one file the walk yields: a regular file found in a directory,
// or a root that is not a directory.
type Entry struct {
	// Path is the path exactly as ripgrep prints it: the root as given
	// joined with the names below it ("dir/" gives "dir/x", "." gives
	// "./x"); for the implicit root (no roots given) without a "./"
	// prefix.
	Path string
	// Explicit is true for a root named by the caller. Explicit entries
	// are never filtered (ignore rules, hidden, globs, types and size do
	// not apply), and may be of any type but a directory.
	Explicit bool
	// Stdin is true for the root "-".
	Stdin bool
	// Depth is 0 for a root, 1 for the entries of a root directory, and
	// so on.
	Depth int
	// Mode holds the file type bits (0 for a regular file). For an
	// explicit root it describes what the path points to.
	Mode fs.FileMode
	// Stat is the file's lstat result, taken during the walk, when
	// Options.StatFiles is set and the system gave one (else nil).
	Stat *FileStat
}

// FileStat is what an lstat says of a file: device and inode numbers,
// size, modification and status-change times in nanoseconds since the
// epoch, and whether it is a regular file.
type FileStat struct {
	Dev, Ino     uint64
	Size         int64
	Mtime, Ctime int64
	Regular      bool
}
