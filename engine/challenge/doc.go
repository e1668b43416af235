// Package challenge holds the rules of a challenge: one player's offer of
// a game to another, before the game (package engine/game) begins. It
// imports only the standard library, engine and engine/game; storage
// persists its Challenge values and the bot runs its rules, and neither
// writes a rule of its own.
//
// # Rules
//
// Creation. New makes a challenge from a Config at a time: the challenger
// (From), the player challenged (To, or the zero Player for anyone), the
// board, the rule set, who moves first (FirstChoice), the move clock (a
// move time and its increment, game.MoveTime), what a clock that runs out
// does (game.Timeouts) and how long the challenge stays open. Nobody challenges themself
// (ErrSelfChallenge): a person is the same player whatever their name.
//
// Answers. Only the challenged player accepts (Accept) or declines
// (CanDecline); a challenge to anyone (ForAnyone, an open challenge) may
// be accepted by anyone but its challenger, and nobody declines it: the
// first to accept plays (the store accepts a challenge once, so a second
// acceptance finds it gone), and the challenger may withdraw it until then. The challenger may neither accept nor decline their own
// challenge (ErrOwnChallenge); anyone else is refused with
// ErrNotChallenged. Only the challenger withdraws it (CanWithdraw,
// ErrNotChallenger).
//
// Expiry. A challenge with an expiry time is open until then: from that
// instant on it is Expired and may no longer be accepted (ErrExpired). Its
// Wake time, when a scheduler should look at it to close it, is its
// expiry, as a game's wake is its next deadline (game.Game.Wake).
//
// Acceptance. Accept starts the game.Game of an accepted challenge: the
// player who moves first plays red. With FirstRandom a lot, drawn by the
// caller, decides. The game pauses over weekends if the challenge says so
// (Weekends), with each player's time zone and quiet hours (Where).
//
// Rematch. After a game, either player may offer the other a rematch
// (Rematch): the same rules, clock and timeouts, the colours and the first move
// swapped, so the player who moved second moves first. A player who
// already offered the other one a rematch is refused (ErrRematchOffered),
// and so is a player whom the other already asked (ErrRematchAsked): they
// answer that offer instead (CheckRematch).
//
// A Challenge is a plain value, not safe for concurrent use; the functions
// of this package hold no state.
//
// # Usage
//
//	c, err := challenge.New(challenge.Config{From: alice, To: bob, Layout: engine.Square(),
//		Rules: engine.Full, MoveTime: 24 * time.Hour, Open: 24 * time.Hour}, now)
//	// errors.Is(err, challenge.ErrSelfChallenge), ErrInvalid
//	wake := c.Wake() // when the scheduler closes it
//	g, err := c.Accept(bob, now, rand.IntN(2) == 0, nil) // ErrOwnChallenge, ErrNotChallenged, ErrExpired
package challenge
