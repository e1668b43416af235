package engine

import (
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestParseErrorCode checks that each malformed layout string and record
// gets the code of its problem, wrapping the sentinel of what it is, and
// that every code ParseCodes lists is met.
func TestParseErrorCode(t *testing.T) {
	tests := []struct {
		code   string
		layout string // a malformed layout string, or
		record string // a malformed record
	}{
		{code: "layout-empty", layout: ""},
		{code: "too-many-rows", layout: strings.Repeat("a/", 10) + "a"},
		{code: "bad-cell", layout: "aab/a b"},
		{code: "uneven-rows", layout: "aab/aabc"},
		{code: "empty-row", layout: "/aab"},
		{code: "too-wide", layout: strings.Repeat("a", 11)},
		{code: "not-rectangle", layout: "aa/a."},
		{code: "panel-shape", layout: "aaaa"},
		{code: "panel-count", layout: "aab/aab"},
		{code: "not-connected", layout: "aabccdee/aabccdee/aabfffee/......../ghhiijjk/ghhiijjk/llmmmnoo/llpqqnoo/llpqqnoo"},
		{code: "open-comment", record: squareTag + "{ never closed"},
		{code: "stray-brace", record: squareTag + "D4 }"},
		{code: "tag-after-moves", record: squareTag + "D4 [Red \"x\"]"},
		{code: "tag-twice", record: squareTag + squareTag},
		{code: "layout-tag", record: "[Layout \"aab/aab\"]"},
		{code: "first-tag", record: squareTag + "[First \"White\"]"},
		{code: "scoring-tag", record: squareTag + "[Scoring \"level2\"]"},
		{code: "tag-name", record: squareTag + "[\"alice\"]"},
		{code: "tag-value", record: squareTag + "[Red alice]"},
		{code: "open-value", record: squareTag + "[Red \"ali"},
		{code: "open-tag", record: squareTag + "[Red \"alice\"\n"},
		{code: "no-layout", record: "1. D4"},
	}
	met := map[string]bool{}
	for _, tt := range tests {
		t.Run(tt.code, func(t *testing.T) {
			var err error
			sentinel := ErrLayout
			if tt.record != "" {
				_, err = ParseRecord(tt.record)
				sentinel = ErrRecord
			} else {
				_, err = ParseLayout(tt.layout)
			}
			require.ErrorIs(t, err, sentinel)
			var pe *ParseError
			require.ErrorAs(t, err, &pe)
			assert.Equal(t, tt.code, pe.Code)
			assert.NotContains(t, err.Error(), "{{", "a placeholder left unfilled")
			met[pe.Code] = true
		})
	}
	assert.Equal(t, ParseCodes(), slices.Sorted(maps.Keys(met)), "the codes met are the codes listed")
}
