package linkedroles

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"strconv"
	"strings"
	"sync"
	"time"
)

// StateLifetime is how long a sign-in may take, from /linked-roles to
// the callback.
const StateLifetime = 10 * time.Minute

// The refusals of a callback's state.
var (
	errNoState      = errors.New("no state cookie")
	errForgedState  = errors.New("state not signed by this bot, or not the cookie's")
	errExpiredState = errors.New("state expired")
	errReusedState  = errors.New("state used before")
)

// states makes and checks the states that bind a sign-in to the browser
// that began it: a random state in a cookie "state.expiry.signature",
// signed with HMAC-SHA256, and the states used, kept until they expire,
// so that each works once. It is safe for concurrent use.
type states struct {
	key []byte

	mu   sync.Mutex
	used map[string]time.Time // state → its expiry
}

func newStates(key []byte) *states {
	return &states{key: subkey(key, "state"), used: map[string]time.Time{}}
}

// sign returns the signature of a state and its expiry.
func (s *states) sign(state, expiry string) string {
	m := hmac.New(sha256.New, s.key)
	m.Write([]byte(state + "." + expiry))
	return hex.EncodeToString(m.Sum(nil))
}

// issue returns a new state and its cookie value, valid until now +
// StateLifetime.
func (s *states) issue(now time.Time) (state, cookie string) {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	state = hex.EncodeToString(b)
	expiry := strconv.FormatInt(now.Add(StateLifetime).Unix(), 10)
	return state, state + "." + expiry + "." + s.sign(state, expiry)
}

// check checks the state a callback brings against the browser's cookie
// at now, and marks it used: errNoState, errForgedState, errExpiredState
// or errReusedState if it may not go on.
func (s *states) check(state, cookie string, now time.Time) error {
	if cookie == "" {
		return errNoState
	}
	parts := strings.Split(cookie, ".")
	if len(parts) != 3 || !hmac.Equal([]byte(parts[2]), []byte(s.sign(parts[0], parts[1]))) {
		return errForgedState
	}
	if state == "" || !hmac.Equal([]byte(state), []byte(parts[0])) {
		return errForgedState
	}
	sec, err := strconv.ParseInt(parts[1], 10, 64)
	if err != nil {
		return errForgedState
	}
	expiry := time.Unix(sec, 0)
	if !now.Before(expiry) {
		return errExpiredState
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for st, exp := range s.used { // forget the expired: they fail on expiry now
		if !now.Before(exp) {
			delete(s.used, st)
		}
	}
	if _, ok := s.used[state]; ok {
		return errReusedState
	}
	s.used[state] = expiry
	return nil
}
