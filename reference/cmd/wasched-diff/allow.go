package main

import (
	"bufio"
	"fmt"
	"os"
	"strings"
	"unicode"
)

// allowEntry: one known, documented divergence (tests/differential/known-divergences.txt):
//
//	case glob | field glob | upstream glob | wasched glob | docs/known-gaps.md anchor
//
// `*` matches any run of characters (slashes and spaces included), `?` one character.
type allowEntry struct {
	Case, Field, Upstream, Wasched, Anchor string
	Line                                   int
	Used                                   int
}

func readAllow(path string) ([]*allowEntry, error) {
	if path == "" {
		return nil, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []*allowEntry
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		n++
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		parts := strings.Split(line, "|")
		if len(parts) != 5 {
			return nil, fmt.Errorf("%s:%d: want 5 columns separated by |, got %d", path, n, len(parts))
		}
		for i := range parts {
			parts[i] = strings.TrimSpace(parts[i])
		}
		if parts[4] == "" {
			return nil, fmt.Errorf("%s:%d: the known-gaps anchor is empty", path, n)
		}
		out = append(out, &allowEntry{Case: parts[0], Field: parts[1], Upstream: parts[2], Wasched: parts[3], Anchor: parts[4], Line: n})
	}
	return out, sc.Err()
}

// checkAnchors: every entry names a heading of known-gaps.md (GitHub's heading anchors).
func checkAnchors(entries []*allowEntry, knownGaps, allowPath string) error {
	if len(entries) == 0 {
		return nil
	}
	data, err := os.ReadFile(knownGaps)
	if err != nil {
		return err
	}
	anchors := map[string]bool{}
	for _, line := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(line, "#") {
			anchors[slug(strings.TrimLeft(line, "# "))] = true
		}
	}
	for _, e := range entries {
		if !anchors[strings.TrimPrefix(e.Anchor, "#")] {
			return fmt.Errorf("%s:%d: %q is not a heading anchor of %s", allowPath, e.Line, e.Anchor, knownGaps)
		}
	}
	return nil
}

// slug: GitHub's anchor of a Markdown heading: lower case, punctuation dropped, spaces → '-'.
func slug(h string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(h)) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// glob: `*` any run of characters, `?` one character, everything else literal.
func glob(pattern, s string) bool {
	if pattern == "" {
		return s == ""
	}
	switch pattern[0] {
	case '*':
		for i := 0; i <= len(s); i++ {
			if glob(pattern[1:], s[i:]) {
				return true
			}
		}
		return false
	case '?':
		return s != "" && glob(pattern[1:], s[1:])
	default:
		return s != "" && s[0] == pattern[0] && glob(pattern[1:], s[1:])
	}
}

func match(entries []*allowEntry, caseName string, u unit) *allowEntry {
	for _, e := range entries {
		if glob(e.Case, caseName) && glob(e.Field, u.Field) && glob(e.Upstream, u.Upstream) && glob(e.Wasched, u.Wasched) {
			e.Used++
			return e
		}
	}
	return nil
}
