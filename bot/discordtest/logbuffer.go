package discordtest

import (
	"bytes"
	"sync"
)

// LogBuffer is a log sink that a bot's goroutines and a test share, for tests that read what the bot
// logged. It is safe for concurrent use; the zero value is ready.
type LogBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *LogBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

// String returns what was logged.
func (l *LogBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// Take returns what was logged and forgets it.
func (l *LogBuffer) Take() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	s := l.b.String()
	l.b.Reset()
	return s
}
