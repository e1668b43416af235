package bot

// RunDue does, once, what the scheduler does when it wakes: everything
// due now. Tests of the clocks call it instead of running RunScheduler, so
// they know when the work is done.
func (b *Bot) RunDue() bool { return b.runDue() }
