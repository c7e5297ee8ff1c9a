// Package walker is evgrep's file discovery: it finds the files ripgrep 13
// would search, with the rules of ripgrep's ignore crate (0.4.18), and
// knows nothing of flags or printing (the CLI glue fills Options).
//
// It replaces github.com/boyter/gocodewalker's traversal, which cannot be
// made to match ripgrep: its concurrency is fixed at 8, it reports
// symlinked directories as files, and it reads neither the ignore files of
// the directories above the search root nor .git/info/exclude. The
// gitignore and glob patterns themselves are compiled by walker/ignore.
//
// What it does, as ripgrep 13 does:
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
//     entry's path, as ripgrep 13 does, quirks included: for a relative
//     root other than "." that join repeats the root's own components, so
//     anchored patterns there do not match; and when several roots share
//     parent directories, those keep the first root's base.
//   - .gitignore, .git/info/exclude and the global file count only below a
//     directory holding .git (a directory or a file), not above the
//     repository's top, unless RequireGit is off. The global file is
//     core.excludesFile read from ~/.gitconfig or $XDG_CONFIG_HOME/git/config
//     (git is never run), else $XDG_CONFIG_HOME/git/ignore or
//     ~/.config/git/ignore.
//   - Roots are never filtered: a root that is a file is yielded whatever
//     the rules say, a root that is a symlink is followed. Below the roots,
//     symlinks are skipped unless Follow, which reports loops
//     ("File system loop found: ...") and goes on. Only regular files are
//     yielded below the roots; ripgrep skips FIFOs, sockets and devices it
//     meets. With Hidden, the contents of .git are yielded (ripgrep 13
//     does that); SkipGitDir is there for callers that must not.
//   - With more than one thread, directories are shared among the
//     goroutines through one stack (any goroutine reads any directory), so
//     a deep tree keeps every core busy. Single-threaded (Threads 1, or any
//     Sort) the walk is depth first, each directory in the order the
//     kernel lists it (getdents, as Rust's read_dir; not sorted as
//     os.ReadDir would), or sorted by name or time; errors then take the
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
