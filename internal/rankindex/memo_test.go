package rankindex

// memoReset empties the in-process memo (as in a new process).
func memoReset() {
	memo.Lock()
	memo.keys, memo.ixs = nil, nil
	memo.Unlock()
}
