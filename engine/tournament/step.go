package tournament

import (
	"fmt"
	"time"
)

// Step is the work a tournament owes whoever runs it (the bot), in its
// phase: Next says which and when.
type Step uint8

// The steps of a tournament.
const (
	Idle       Step = iota // nothing is owed (it starts when full, or it is over)
	Begin                  // its start is due: Start, or Cancel when it cannot start
	OpenGames              // games of the current round are to be opened (ToOpen)
	CloseRound             // the round's deadline has passed: EndOnTime, else Judge (or Gone), each game still going on
	PairRound              // the round is complete: PairNext
	PostFinal              // it is finished: its final standings are to be posted
)

var stepNames = [...]string{"idle", "begin", "open-games", "close-round", "pair-round", "post-final"}

// String returns the step's name.
func (s Step) String() string {
	if int(s) < len(stepNames) {
		return stepNames[s]
	}
	return fmt.Sprintf("Step(%d)", s)
}

// Progress is what the runner of a tournament has done that the
// tournament itself does not keep: which games it opened, and whether it
// posted the final standings.
type Progress struct {
	Opened      func(GameRef) bool
	FinalPosted bool
}

// Next returns the step the tournament owes and when it is due, given
// what its runner did (p) and when the tournament last changed: at once
// (changed) for a start that is due (Due), games to open, a round to pair
// and final standings to post; at its start time while it takes players;
// at the round's deadline while the round's games are played. Idle with a
// zero time when nothing is owed: a tournament that starts when full and
// is not, one finished and posted, and one cancelled (its games go on as
// casual games).
func (t *Tournament) Next(p Progress, changed time.Time) (Step, time.Time) {
	switch t.s.Phase {
	case Registration:
		if t.Due(changed) {
			return Begin, changed
		}
		if start := t.s.Settings.Start; !start.IsZero() {
			return Begin, start
		}
	case Playing:
		if len(t.ToOpen(p.Opened)) > 0 {
			return OpenGames, changed
		}
		return CloseRound, t.s.Rounds[len(t.s.Rounds)-1].Deadline
	case Between:
		return PairRound, changed
	case Finished:
		if !p.FinalPosted {
			return PostFinal, changed
		}
	}
	return Idle, time.Time{}
}

// ToOpen returns the games of the current round still to be opened: those
// without a result that opened does not report open.
func (t *Tournament) ToOpen(opened func(GameRef) bool) []GameRef {
	if t.s.Phase != Playing {
		return nil
	}
	var out []GameRef
	for _, ref := range t.InProgress() {
		if !opened(ref) {
			out = append(out, ref)
		}
	}
	return out
}
