package bot

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
)

// timeoutError is a net.Error that timed out, as net/http's client
// returns when its Timeout passes.
type timeoutError struct{}

func (timeoutError) Error() string   { return "Client.Timeout exceeded while awaiting headers" }
func (timeoutError) Timeout() bool   { return true }
func (timeoutError) Temporary() bool { return true }

// TestDiscordFault checks which errors of a request to Discord are
// Discord's fault, to be logged: answers 5xx and timeouts, not refusals.
func TestDiscordFault(t *testing.T) {
	t.Parallel()
	answer := func(code int) error {
		return fmt.Errorf("post: %w", &discordgo.RESTError{Response: &http.Response{StatusCode: code, Status: fmt.Sprintf("%d %s", code, http.StatusText(code))}})
	}
	tests := []struct {
		name  string
		err   error
		fault bool
		what  string
	}{
		{"500", answer(500), true, "500 Internal Server Error"},
		{"503", answer(503), true, "503 Service Unavailable"},
		{"the client's timeout", &url.Error{Op: "Post", URL: "https://discord.com/api/v10/channels/1/messages", Err: timeoutError{}}, true, "timeout"},
		{"a deadline", fmt.Errorf("post: %w", context.DeadlineExceeded), true, "timeout"},
		{"a refusal", answer(403), false, ""},
		{"not found", answer(404), false, ""},
		{"cancelled", context.Canceled, false, ""},
		{"another error", errors.New("read the message sent: unexpected EOF"), false, ""},
		{"none", nil, false, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			what, fault := discordFault(tc.err)
			assert.Equal(t, tc.fault, fault)
			assert.Equal(t, tc.what, what)
		})
	}
}
