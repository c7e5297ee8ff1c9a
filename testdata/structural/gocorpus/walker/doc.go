// Package walker is evgrep's file discovery: it finds the files ripgrep
// 15.2 would search, with the rules of ripgrep's ignore crate, and knows
// nothing of flags or printing (the CLI glue fills Options).
//
// It replaces github.com/boyter/gocodewalker's traversal, which cannot be
// made to match ripgrep: its concurrency is fixed at 8, it reports
// symlinked directories as files, and it reads neither the ignore files of
// the directories above the search root nor .git/info/exclude. The
// gitignore and glob patterns themselves are compiled by walker/ignore.
//
// What it does, as ripgrep 15.2 does (where it differs from ripgrep 13,
// 15 is followed):
//
//   - Overrides (-g/--iglob) decide first; then ignore files, where
//     .rgignore ranks above .ignore, above .gitignore, above
//     .git/info/exclude, above git's global excludes file, above
//     --ignore-file, and within one kind the nearest directory wins; then
//     file types; then, only when nothing above decided, hidden names.
//     A whitelisting glob, ignore line or type therefore shows a hidden
//     file.
//   - Ignore files of the directories above each root count (down from
//     "/"), matched against the root's canonical path joined with the
//     entry's path less the root (ripgrep 13 repeated a relative root's
//     components there); each root has its own chain of parents.
//   - .gitignore, .git/info/exclude and the global file count only below a
//     repository's top, a directory holding .git (a directory or a file)
//     or .jj, and not above it, unless RequireGit is off (then no
//     directory is a barrier). The global file is core.excludesFile read
//     from $GIT_CONFIG_GLOBAL, ~/.gitconfig, $XDG_CONFIG_HOME/git/config or
//     $GIT_CONFIG_SYSTEM (git is never run), else
//     $XDG_CONFIG_HOME/git/ignore or ~/.config/git/ignore; it and the
//     --ignore-file files are rooted at the current directory.
//   - Roots are never filtered: a root that is a file is yielded whatever
//     the rules say, a root that is a symlink is followed. Below the roots,
//     symlinks are skipped unless Follow, which reports loops
//     ("File system loop found: ...") and goes on. Only regular files are
//     yielded below the roots; ripgrep skips FIFOs, sockets and devices it
//     meets. With Hidden, the contents of .git are yielded (ripgrep does
//     that); SkipGitDir is there for callers that must not.
//   - With more than one thread, directories are shared among the
//     goroutines through one stack (any goroutine reads any directory), so
//     a deep tree keeps every core busy. Single-threaded (Threads 1, or any
//     Sort) the walk is depth first, each directory in the order the
//     kernel lists it (getdents, as Rust's read_dir; not sorted as
//     os.ReadDir would), or sorted by name; a time sort or a reversed sort
//     orders all the files after the walk; errors then take the
//     wording of ripgrep's single-threaded walker ("P: IO error for
//     operation on P: ...").
//   - Paths are spelled as ripgrep prints them: the root as given, joined
//     with '/' unless it already ends with one ("dir//" gives "dir//x");
//     with no root, "./" is walked and its prefix dropped from yielded
//     paths (errors keep it).
//
// The walk reads directory listings and ignore files, never the contents
// of the files it yields. It uses the entry type from the listing and
// stats only when it must: symlinks with Follow, MaxFilesize, SkipFile,
// OneFileSystem, the time sorts, and file systems that give no type.
// Directory reading uses getdents64 on Linux and (*os.File).ReadDir on
// Darwin and FreeBSD; other systems are not supported.
package walker
