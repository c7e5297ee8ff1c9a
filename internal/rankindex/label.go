package rankindex

import "strings"

// VerifiedName returns name, a chunk's declared name (names joined by
// ", "), when src, the chunk's source as read from disk and verified,
// declares it: every name occurs in src as a whole identifier. Otherwise
// "": a name from the cache that the verified source does not hold (a
// renamed entry) is never shown beside that source.
func VerifiedName(src []byte, name string) string {
	if name == "" {
		return ""
	}
	s := string(src)
	for _, part := range strings.Split(name, ", ") {
		if part == "" || !hasWord(s, part) {
			return ""
		}
	}
	return name
}

// hasWord reports whether w occurs in s with no identifier character
// right before or after it.
func hasWord(s, w string) bool {
	for i := 0; ; {
		j := strings.Index(s[i:], w)
		if j < 0 {
			return false
		}
		j += i
		end := j + len(w)
		if (j == 0 || !identByte(s[j-1])) && (end == len(s) || !identByte(s[end])) {
			return true
		}
		i = j + 1
	}
}

func identByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}
