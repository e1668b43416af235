package bot_test

import (
	"fmt"
	"net"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/bot"
)

// TestSessionNamesTheRealURL: with api_url set, a request that fails names
// the address it was really sent to, not discord.com.
func TestSessionNamesTheRealURL(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := l.Addr().String()
	require.NoError(t, l.Close()) // nothing listens there now

	s, err := bot.NewSession("token", "http://"+addr+"/api/v10")
	require.NoError(t, err)
	_, err = s.User("@me")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "sent to http://"+addr+"/api/v10/users/@me, as api_url says")

	// At the edge, one URL: the real one.
	msg := bot.RealURL(fmt.Errorf("register: %w", err)).Error()
	assert.Equal(t, 1, strings.Count(msg, "http"), msg)
	assert.Contains(t, msg, `"http://`+addr+`/api/v10/users/@me": dial tcp`)
}
