package game

import "time"

// The rules of the vacation bank (Vacation).
const (
	VacationStart   = 14 * 24 * time.Hour // what a new player's bank holds
	VacationAccrual = 24 * time.Hour      // added every VacationPeriod
	VacationPeriod  = 7 * 24 * time.Hour
	VacationCap     = 30 * 24 * time.Hour // the most a bank holds; a server may set less
	// VacationNotice is how long before a vacation runs out its player
	// is warned (Notice).
	VacationNotice = 24 * time.Hour
)

// Vacation is a player's bank of vacation time, across all their games
// (the games are told with Game.Away and Game.Back, or all at once with
// StartVacation and EndVacation). A bank opens with the player's first
// game (Open) holding VacationStart; it grows by VacationAccrual at the
// end of every VacationPeriod since then, never beyond the cap, and weeks
// that end while they are on vacation add nothing. A vacation spends the bank
// by the hour: every hour begun costs a whole hour. It ends when the
// player ends it, or when the bank runs out (Ends).
//
// Every method takes the cap, the most the bank may hold: VacationCap, or
// less where a server lowered it; a cap of 0 turns vacations off. A bank
// above the cap is cut down to it when next counted. A Vacation is a
// value: its methods that change it take a pointer and change nothing
// when they return an error.
type Vacation struct {
	Bank    time.Duration `json:"bank"`           // what the bank held at Counted (at Since, on vacation)
	Joined  time.Time     `json:"joined"`         // when the player's bank was opened; its weeks count from here
	Counted time.Time     `json:"counted"`        // the time up to which the bank is counted
	Since   time.Time     `json:"since,omitzero"` // the start of the vacation under way; zero when none
}

// NewVacation returns the bank of a player who joins at now: VacationStart,
// or the cap if it is lower.
func NewVacation(now time.Time, limit time.Duration) Vacation {
	return Vacation{Bank: min(VacationStart, max(0, limit)), Joined: now, Counted: now}
}

// Open opens the bank v if it never was (its Joined is zero), and reports
// whether it did. A bank opens with the player's first game: at the
// start of the oldest of games, the player's, or at now if there is none.
// The store opens the bank of each player of a game it stores for the
// first time, in the same transaction (so from that game's start); a
// player of an earlier release, who played before banks opened so and
// has none, has theirs opened when it is first counted, at the start of
// the oldest of their games then running. It holds VacationStart, cut to
// a lower cap when counted.
func (v *Vacation) Open(games []*Game, now time.Time) bool {
	if !v.Joined.IsZero() {
		return false
	}
	at := now
	for _, g := range games {
		if c := g.Created(); c.Before(at) {
			at = c
		}
	}
	*v = NewVacation(at, VacationCap)
	return true
}

// Grows returns when the bank next grows by VacationAccrual, counted at
// now: the end of the VacationPeriod under way since Joined. It is zero
// on vacation (the weeks that end then add nothing) and when the bank
// holds the cap.
func (v Vacation) Grows(now time.Time, limit time.Duration) time.Time {
	if v.On() || v.counted(now, limit).Bank >= limit {
		return time.Time{}
	}
	return v.Joined.Add((now.Sub(v.Joined)/VacationPeriod + 1) * VacationPeriod)
}

// counted returns v with its bank counted up to now: the periods ended
// since Counted added, up to the cap. On vacation it returns v.
func (v Vacation) counted(now time.Time, limit time.Duration) Vacation {
	if v.On() {
		return v
	}
	if now.After(v.Counted) {
		weeks := now.Sub(v.Joined)/VacationPeriod - v.Counted.Sub(v.Joined)/VacationPeriod
		v.Bank += time.Duration(weeks) * VacationAccrual
		v.Counted = now
	}
	v.Bank = max(0, min(v.Bank, limit))
	return v
}

// On reports whether the player is on vacation.
func (v Vacation) On() bool { return !v.Since.IsZero() }

// Ends returns when the vacation under way runs out, the bank spent;
// zero when none is under way.
func (v Vacation) Ends() time.Time {
	if !v.On() {
		return time.Time{}
	}
	return v.Since.Add(v.Bank)
}

// Notice returns when the player on vacation is to be warned that it runs
// out: VacationNotice before Ends, or at its start if the bank held less;
// zero when none is under way.
func (v Vacation) Notice() time.Time {
	if !v.On() {
		return time.Time{}
	}
	return v.Since.Add(max(0, v.Bank-VacationNotice))
}

// spent returns what the vacation under way has cost at now: every hour
// begun, at most the bank.
func (v Vacation) spent(now time.Time) time.Duration {
	d := max(0, now.Sub(v.Since))
	hours := (d + time.Hour - 1) / time.Hour
	return min(v.Bank, hours*time.Hour)
}

// Balance returns what the bank holds at now.
func (v Vacation) Balance(now time.Time, limit time.Duration) time.Duration {
	if v.On() {
		return v.Bank - v.spent(now)
	}
	return v.counted(now, limit).Bank
}

// Start starts a vacation at now. It returns ErrVacationsOff for a cap of
// 0, ErrOnVacation if one is under way and ErrBankEmpty if the bank holds
// less than an hour.
func (v *Vacation) Start(now time.Time, limit time.Duration) error {
	switch {
	case limit <= 0:
		return ErrVacationsOff
	case v.On():
		return ErrOnVacation
	}
	c := v.counted(now, limit)
	if c.Bank < time.Hour {
		return ErrBankEmpty
	}
	c.Since = now
	*v = c
	return nil
}

// End ends the vacation under way at now, or when it ran out if that was
// earlier, and takes what it cost from the bank. It returns
// ErrNotOnVacation if none is under way.
func (v *Vacation) End(now time.Time, limit time.Duration) error {
	if !v.On() {
		return ErrNotOnVacation
	}
	end := now
	if e := v.Ends(); e.Before(end) {
		end = e
	}
	v.Bank -= v.spent(end)
	v.Since = time.Time{}
	if end.After(v.Counted) {
		v.Counted = end // the weeks that ended on vacation add nothing
	}
	*v = v.counted(end, limit)
	return nil
}
