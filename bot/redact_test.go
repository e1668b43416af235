package bot_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/kulami/kulami/bot"
)

func TestRedact(t *testing.T) {
	tests := []struct{ in, want string }{
		{`Post "https://discord.com/api/v9/webhooks/1234/aW50ZXJhY3Rpb246MTIz.x-y_z?wait=true": context deadline exceeded`,
			`Post "https://discord.com/api/v9/webhooks/1234/REDACTED?wait=true": context deadline exceeded`},
		{`Patch "https://discord.com/api/v9/webhooks/1234/tok/messages/@original": EOF`,
			`Patch "https://discord.com/api/v9/webhooks/1234/REDACTED/messages/@original": EOF`},
		{`Post "https://discord.com/api/v9/interactions/99/tok-en/callback": EOF`,
			`Post "https://discord.com/api/v9/interactions/99/REDACTED/callback": EOF`},
		{"two: /webhooks/1/a and /interactions/2/b", "two: /webhooks/1/REDACTED and /interactions/2/REDACTED"},
		{`Post "https://discord.com/api/v9/channels/123/messages": EOF`, `Post "https://discord.com/api/v9/channels/123/messages": EOF`},
		{"HTTP 404 Not Found, {\"code\": 10015}", "HTTP 404 Not Found, {\"code\": 10015}"},
	}
	for _, tc := range tests {
		t.Run(tc.want, func(t *testing.T) {
			assert.Equal(t, tc.want, bot.Redact(tc.in))
		})
	}
}

func TestRedactError(t *testing.T) {
	assert.NoError(t, bot.RedactError(nil))
	inner := &url.Error{Op: "Post", URL: "https://discord.com/api/v9/webhooks/1/secret", Err: io.EOF}
	err := bot.RedactError(fmt.Errorf("followup: %w", inner))
	assert.Equal(t, `followup: Post "https://discord.com/api/v9/webhooks/1/REDACTED": EOF`, err.Error())
	assert.ErrorIs(t, err, io.EOF, "the chain is kept")
	var ue *url.Error
	assert.ErrorAs(t, err, &ue)
}

func TestRedactAttr(t *testing.T) {
	var out bytes.Buffer
	log := slog.New(slog.NewTextHandler(&out, &slog.HandlerOptions{ReplaceAttr: bot.RedactAttr}))
	err := fmt.Errorf("respond: %w", errors.New(`Post "https://discord.com/api/v9/webhooks/1/secret-token": EOF`))
	log.Error("failed at /interactions/2/other-secret/callback", "err", err, "url", "/webhooks/3/third-secret", "n", 3)
	assert.NotContains(t, out.String(), "secret")
	assert.Contains(t, out.String(), "/webhooks/1/REDACTED")
	assert.Contains(t, out.String(), "/interactions/2/REDACTED/callback")
	assert.Contains(t, out.String(), "/webhooks/3/REDACTED")
	assert.Contains(t, out.String(), "n=3")
}
