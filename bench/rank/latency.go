package main

import "errors"

func runLatency(bin, goroot string) error { return errors.New("not yet") }
