package bot

// RunDue does, once, what the scheduler does when it wakes: everything
// due now. Tests of the clocks call it instead of running RunScheduler, so
// they know when the work is done.
func (b *Bot) RunDue() bool { return b.runDue() }

// Resume does what RunScheduler does first: give back the time the bot was
// down. Tests without the scheduler goroutine call it at start.
func (b *Bot) Resume() error { return b.resume() }
