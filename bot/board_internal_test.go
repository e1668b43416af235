package bot

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestEscape(t *testing.T) {
	for _, tt := range []struct{ name, in, want string }{
		{"plain", "alice", "alice"},
		{"emphasis", "*bold* _it_ ~~x~~ ||s||", `\*bold\* \_it\_ \~\~x\~\~ \|\|s\|\|`},
		{"code", "`x`", "\\`x\\`"},
		{"masked link", "[free nitro](https://evil.example)", `\[free nitro\](https://evil.example)`},
		{"heading", "# big", `\# big`},
		{"subtext", "-# small", `-\# small`},
		{"quote", "> hi", `\> hi`},
		{"channel mention", "<#123>", `\<\#123\>`},
		{"user mention", "<@123>", "\\<@\u200b123\\>"},
		{"everyone", "@everyone", "@\u200beveryone"},
		{"backslash", `a\b`, `a\\b`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, escape(tt.in))
		})
	}
	assert.Len(t, []rune(escape(string(make([]rune, 100)))), 64, "long names are cut to 64 characters")
}
