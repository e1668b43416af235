package discordtest

import "time"

// tokenLifetime is how long an interaction's token works for webhook requests, Discord's 15 minutes.
const tokenLifetime = 15 * time.Minute

// WithClock makes the fake read Discord's time from now instead of the system clock, e.g. the bot's
// fake clock, so that one Advance moves both: interaction tokens then expire, and threads archive, when
// the bot's clock says so. Advance on the Server adds to what now returns.
func WithClock(now func() time.Time) Option { return func(c *config) { c.now = now } }

// Now is the fake's clock: the system clock (or WithClock's) plus every Advance so far. Interactions'
// tokens expire and quiet threads archive by this clock.
func (s *Server) Now() time.Time {
	return s.cfg.now().Add(time.Duration(s.offset.Load())).UTC()
}

// Advance moves the fake's clock on by d, as if that much time had passed on Discord: interaction
// tokens older than 15 minutes stop working, callbacks later than the ack deadline are refused, and
// threads without a message for their auto_archive_duration are archived.
func (s *Server) Advance(d time.Duration) {
	s.offset.Add(int64(d))
	s.mu.Lock()
	defer s.mu.Unlock()
	s.archiveQuietThreads()
	s.notify()
}
