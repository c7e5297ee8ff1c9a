package cli

// gitFlags reads --rev and --changed-since and refuses the combinations
// that have no meaning: both at once (a commit's tree has no working
// lines), --changed-since with -v (the lines outside the changed matches)
// or with --files (which reads no lines).
func gitFlags(a *Args, c *Config) error {
	c.Rev, _ = a.Value("rev")
	c.ChangedSince, _ = a.Value("changed-since")
	if a.Has("rev") && c.Rev == "" {
		return usageErr("--rev needs a commit")
	}
	if a.Has("changed-since") && c.ChangedSince == "" {
		return usageErr("--changed-since needs a commit")
	}
	if c.Rev == "" && c.ChangedSince == "" {
		return nil
	}
	if c.Rev != "" && c.ChangedSince != "" {
		return usageErr("--rev and --changed-since cannot be used together")
	}
	if c.ChangedSince != "" {
		if a.Has("invert-match") {
			return usageErr("--changed-since cannot be used with -v/--invert-match")
		}
		if a.Has("files") {
			return usageErr("--changed-since does not apply to --files (it filters matches)")
		}
	}
	return nil
}
