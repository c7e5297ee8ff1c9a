package app

import "runtime/debug"

// defaultVersion is Version when the build neither stamps it (-ldflags -X,
// as `make release` does) nor records a module version.
const defaultVersion = "0.1.0"

// version is the version to report: Version as resolveVersion settles it.
// It is asked for when printed (help, -V, the MCP server), not by an
// initialiser: reading the build information parses the module list, and
// its pages cost every start-up otherwise.
func version() string { return resolveVersion(Version, debug.ReadBuildInfo) }

// resolveVersion returns the version to report: stamped when the linker set
// it, else the main module's version from the build information (`go
// install …@v1.2.3` records v1.2.3; a build in a git clone records a
// pseudo-version naming the commit), else stamped (the default).
func resolveVersion(stamped string, readBuildInfo func() (*debug.BuildInfo, bool)) string {
	if stamped != defaultVersion {
		return stamped
	}
	info, ok := readBuildInfo()
	if !ok || info == nil {
		return stamped
	}
	switch v := info.Main.Version; v {
	case "", "(devel)":
		return stamped
	default:
		return v
	}
}
