package app

import "github.com/evgrep/evgrep/internal/astsearch"

func (r *run) rewrite(files []*astsearch.File) int { return exitError }
