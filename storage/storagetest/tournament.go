package storagetest

import (
	"fmt"
	"testing"
	"time"

	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/engine/game"
	"github.com/kulami/kulami/engine/tournament"
	"github.com/kulami/kulami/storage"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// mustTournament stores a new tournament of the test guild with players
// alice, bob and carol joined, starting at t0+1h, of rounds rounds.
func mustTournament(tb testing.TB, s Store, rounds int) *storage.Tournament {
	tb.Helper()
	tn, err := tournament.New(tournament.Settings{Name: "Autumn Swiss", Rounds: rounds, DaysPerRound: 3, Start: t0.Add(time.Hour)}, alice.UserID, t0)
	require.NoError(tb, err)
	for i, p := range []game.Player{alice, bob, carol} {
		require.NoError(tb, tn.Join(p.UserID, 1500-i, t0))
	}
	st := &storage.Tournament{GuildID: guild, ChannelID: "lobby", Changed: t0, Tournament: tn}
	require.NoError(tb, s.CreateTournament(tb.Context(), st))
	require.NotZero(tb, st.ID)
	return st
}

// mustDuplicate stores a new tournament of one duplicate round with
// alice, bob and carol joined, and starts it at t0+1h: one pairing of two
// games, and a bye.
func mustDuplicate(tb testing.TB, s Store) *storage.Tournament {
	tb.Helper()
	tn, err := tournament.New(tournament.Settings{Name: "Twins", Rounds: 1, DaysPerRound: 3, Duplicate: true, Start: t0.Add(time.Hour)}, alice.UserID, t0)
	require.NoError(tb, err)
	for i, p := range []game.Player{alice, bob, carol} {
		require.NoError(tb, tn.Join(p.UserID, 1500-i, t0))
	}
	st := &storage.Tournament{GuildID: guild, ChannelID: "lobby", Changed: t0, Tournament: tn}
	require.NoError(tb, s.CreateTournament(tb.Context(), st))
	return mustStart(tb, s, st)
}

// mustOpenRound opens the game ref of the tournament as the bot does
// (tournament.Tournament.GameConfig: the round's deadline as its cutoff),
// with a clock of clock, and returns it.
func mustOpenRound(tb testing.TB, s Store, st *storage.Tournament, ref tournament.GameRef, clock time.Duration) *storage.Game {
	tb.Helper()
	names := map[string]string{alice.UserID: alice.Name, bob.UserID: bob.Name, carol.UserID: carol.Name}
	cfg, err := st.GameConfig(ref, st.ID, names, game.Config{MoveTime: clock})
	require.NoError(tb, err)
	g := mustNewGame(tb, "t-"+ref.String(), cfg)
	g.Tournament = &storage.TournamentGame{ID: st.ID, Ref: ref}
	require.NoError(tb, s.OpenTournamentGame(tb.Context(), g, t0))
	return g
}

// mustStart starts the tournament at t0+1h and returns it.
func mustStart(tb testing.TB, s Store, st *storage.Tournament) *storage.Tournament {
	tb.Helper()
	st, err := s.UpdateTournament(tb.Context(), guild, st.ID, t0.Add(time.Hour), func(t *storage.Tournament) error {
		return t.Start(t0.Add(time.Hour))
	})
	require.NoError(tb, err)
	return st
}

// mustOpen opens the game ref of the tournament in a new channel and
// returns it: the pairing's first player is red and moves first.
func mustOpen(tb testing.TB, s Store, st *storage.Tournament, ref tournament.GameRef) *storage.Game {
	tb.Helper()
	tg, err := st.Game(ref)
	require.NoError(tb, err)
	players := map[string]game.Player{alice.UserID: alice, bob.UserID: bob, carol.UserID: carol}
	g := newGame(tb, "t-"+ref.String(), players[tg.First], players[tg.Second])
	g.Tournament = &storage.TournamentGame{ID: st.ID, Ref: ref}
	require.NoError(tb, s.OpenTournamentGame(tb.Context(), g, t0.Add(time.Hour)))
	return g
}

// testTournamentLifecycle: a tournament is stored, listed newest first,
// changed in one transaction, and indexed by its wake: its start, then at
// once while its games are not opened, then its round's deadline.
func testTournamentLifecycle(t *testing.T, open Open) {
	s := open(t, storage.Options{})
	ctx := t.Context()
	first := mustTournament(t, s, 1)
	second := mustTournament(t, s, 1)
	list, err := s.GuildTournaments(ctx, guild)
	require.NoError(t, err)
	require.Len(t, list, 2)
	assert.Equal(t, []uint64{second.ID, first.ID}, []uint64{list[0].ID, list[1].ID}, "newest first")
	list, err = s.GuildTournaments(ctx, "other")
	require.NoError(t, err)
	assert.Empty(t, list)

	got, err := s.Tournament(ctx, guild, first.ID)
	require.NoError(t, err)
	assert.Len(t, got.Players(), 3)
	assert.Equal(t, "Autumn Swiss", got.Settings().Name)
	_, err = s.Tournament(ctx, guild, 99)
	assert.ErrorIs(t, err, storage.ErrNotFound)
	_, err = s.Tournament(ctx, "other", first.ID)
	assert.ErrorIs(t, err, storage.ErrNotFound)

	at, ok, err := s.NextWake(ctx)
	require.NoError(t, err)
	require.True(t, ok)
	assert.True(t, at.Equal(t0.Add(time.Hour)), "the start: %v", at)
	due, err := s.Due(ctx, t0.Add(time.Hour))
	require.NoError(t, err)
	require.Len(t, due, 2)
	assert.Equal(t, storage.WakeTournament, due[0].Kind)
	assert.Equal(t, storage.TournamentKey(guild, first.ID), due[0].ChannelID)
	g, id, err := storage.ParseTournamentKey(due[1].ChannelID)
	require.NoError(t, err)
	assert.Equal(t, []any{guild, second.ID}, []any{g, id})

	// A refused change writes nothing.
	_, err = s.UpdateTournament(ctx, guild, first.ID, t0, func(t *storage.Tournament) error { return t.Join(alice.UserID, 1500, t0) })
	assert.ErrorIs(t, err, tournament.ErrAlreadyJoined)
	_, err = s.UpdateTournament(ctx, guild, first.ID, t0, func(t *storage.Tournament) error {
		t.ID++
		return nil
	})
	assert.ErrorIs(t, err, storage.ErrInvalid)

	// Started, its game is owed at once; opened, it waits for the deadline.
	st := mustStart(t, s, first)
	require.Len(t, st.Pending(), 1, "three players: one game and a bye")
	assert.True(t, st.Wake().Equal(t0.Add(time.Hour)))
	_, err = s.UpdateTournament(ctx, guild, second.ID, t0, func(t *storage.Tournament) error { return t.Cancel(t0) })
	require.NoError(t, err)
	mustOpen(t, s, st, st.Pending()[0])
	st, err = s.Tournament(ctx, guild, st.ID)
	require.NoError(t, err)
	assert.Empty(t, st.Pending())
	due, err = s.Due(ctx, t0.Add(2*time.Hour))
	require.NoError(t, err)
	assert.Empty(t, due, "the cancelled tournament sleeps, the other waits for its deadline")
	due, err = s.Due(ctx, t0.Add(time.Hour+3*24*time.Hour))
	require.NoError(t, err)
	require.Len(t, due, 1)
	assert.Equal(t, storage.TournamentKey(guild, first.ID), due[0].ChannelID)
}

// testTournamentGameRecordsItsResult: the end of a tournament game records
// its result in the tournament in the same transaction; a game is opened
// once.
func testTournamentGameRecordsItsResult(t *testing.T, open Open) {
	s := open(t, storage.Options{})
	ctx := t.Context()
	st := mustStart(t, s, mustTournament(t, s, 1))
	ref := st.Pending()[0]
	g := mustOpen(t, s, st, ref)
	again := newGame(t, "elsewhere", alice, bob)
	again.Tournament = &storage.TournamentGame{ID: st.ID, Ref: ref}
	assert.ErrorIs(t, s.OpenTournamentGame(ctx, again, t0), storage.ErrOpened)
	_, err := s.Game(ctx, "elsewhere")
	assert.ErrorIs(t, err, storage.ErrNotFound, "nothing stored")

	stored, err := s.Game(ctx, g.ChannelID)
	require.NoError(t, err)
	require.NotNil(t, stored.Tournament)
	assert.Equal(t, *g.Tournament, *stored.Tournament)

	end := t0.Add(2 * time.Hour)
	mustFinish(t, s, g.ChannelID, game.Resigned, engine.Black, end)
	st, err = s.Tournament(ctx, guild, st.ID)
	require.NoError(t, err)
	phase, _ := st.State()
	assert.Equal(t, tournament.Finished, phase, "its one round is complete")
	tg, err := st.Game(ref)
	require.NoError(t, err)
	assert.Equal(t, tournament.FirstWon, tg.Result)
	assert.True(t, st.Changed.Equal(end))
	assert.True(t, st.Wake().Equal(end), "the final standings are owed")
}

// testTournamentForfeit: a tournament game whose first player never
// moved is their forfeit: the opponent wins it in the tournament, the
// player is withdrawn, and the game is not rated; an abandoned game
// records nothing.
func testTournamentForfeit(t *testing.T, open Open) {
	s := open(t, storage.Options{})
	ctx := t.Context()
	st := mustStart(t, s, mustTournament(t, s, 2))
	ref := st.Pending()[0]
	tg, err := st.Game(ref)
	require.NoError(t, err)
	players := map[string]game.Player{alice.UserID: alice, bob.UserID: bob, carol.UserID: carol}
	g := mustNewGame(t, "t-noshow", clocked(players[tg.First], players[tg.Second]))
	g.Tournament = &storage.TournamentGame{ID: st.ID, Ref: ref}
	require.NoError(t, s.OpenTournamentGame(ctx, g, t0))
	_, err = s.UpdateGame(ctx, g.ChannelID, func(g *storage.Game) error { return g.Timeout(t0.Add(2 * moveTimeLimit)) })
	require.NoError(t, err)
	st, err = s.Tournament(ctx, guild, st.ID)
	require.NoError(t, err)
	tg, err = st.Game(ref)
	require.NoError(t, err)
	assert.Equal(t, tg.First, tg.NoShow, "the first player never moved")
	assert.Equal(t, tournament.SecondWon, tg.Result)
	for _, p := range st.Players() {
		assert.Equal(t, p.ID == tg.First, p.Withdrawn, "player %s", p.ID)
	}
	assert.Equal(t, tg.First, st.WithdrawnBy(ref))
	f, err := s.FinishedGame(ctx, guild, g.ID)
	require.NoError(t, err)
	assert.Equal(t, game.Unstarted, f.Result().Ending)
	assert.Equal(t, [2]storage.RatingChange{}, f.Ratings, "a forfeit is not rated")
	_, err = s.Profile(ctx, guild, tg.Second, storage.Human)
	assert.ErrorIs(t, err, storage.ErrNotFound, "nor counted on the ladder")

	// Round 2: an abandoned game (its thread deleted) records nothing.
	_, err = s.UpdateTournament(ctx, guild, st.ID, t0.Add(time.Hour), func(t *storage.Tournament) error { return t.PairNext(t0.Add(time.Hour)) })
	require.NoError(t, err)
	st, err = s.Tournament(ctx, guild, st.ID)
	require.NoError(t, err)
	ref = st.Pending()[0]
	g = mustOpenRound(t, s, st, ref, moveTimeLimit)
	mustFinish(t, s, g.ChannelID, game.Abandoned, engine.Red, t0.Add(2*time.Hour))
	st, err = s.Tournament(ctx, guild, st.ID)
	require.NoError(t, err)
	tg, err = st.Game(ref)
	require.NoError(t, err)
	assert.Equal(t, tournament.Pending, tg.Result, "left to the round's deadline")
}

// testTournamentDoubleForfeit: when both players of a duplicate pairing
// forfeit the game they move first in, the pairing is a double forfeit,
// which the link of the game that made it notes, in its finished record
// too.
func testTournamentDoubleForfeit(t *testing.T, open Open) {
	s := open(t, storage.Options{})
	ctx := t.Context()
	st := mustDuplicate(t, s)
	var games []*storage.Game
	for _, ref := range st.Pending() {
		games = append(games, mustOpenRound(t, s, st, ref, moveTimeLimit))
	}
	require.Len(t, games, 2)
	deadline := st.Rounds()[0].Deadline
	for i, g := range games {
		g, err := s.UpdateGame(ctx, g.ChannelID, func(g *storage.Game) error { return g.Timeout(deadline) })
		require.NoError(t, err)
		require.Equal(t, game.Unstarted, g.Result().Ending)
		assert.Equal(t, i == 1, g.Tournament.Double, "game %d", i+1)
		f, err := s.FinishedGame(ctx, guild, g.ID)
		require.NoError(t, err)
		assert.Equal(t, i == 1, f.Tournament.Double, "the finished game %d", i+1)
	}
	st, err := s.Tournament(ctx, guild, st.ID)
	require.NoError(t, err)
	p := st.Rounds()[0].Pairings[0]
	assert.True(t, p.DoubleForfeit())
	assert.Equal(t, [2]tournament.Points{0, 0}, [2]tournament.Points{p.Points(p.First), p.Points(p.Second)})
	phase, _ := st.State()
	assert.Equal(t, tournament.Finished, phase)
}

// testTournamentCancelReleasesItsGames: a tournament cancelled while its
// games are played lets them go on as casual games, in one transaction:
// their link and their round's deadline are gone, and their end records
// nothing.
func testTournamentCancelReleasesItsGames(t *testing.T, open Open) {
	s := open(t, storage.Options{})
	ctx := t.Context()
	st := mustStart(t, s, mustTournament(t, s, 2))
	ref := st.Pending()[0]
	g := mustOpenRound(t, s, st, ref, 5*24*time.Hour)
	require.Equal(t, st.Rounds()[0].Deadline, g.Cutoff(), "the round's deadline (3 days) bounds the game")
	require.Equal(t, g.MoveCutoff(), g.Deadline(), "and, less the reply's share, comes before the clock (5 days)")
	cancelAt := t0.Add(2 * time.Hour)
	st, released, err := s.CancelTournament(ctx, guild, st.ID, cancelAt, func(gs []*storage.Game) {
		for _, g := range gs {
			g.BoardEdit = cancelAt
		}
	})
	require.NoError(t, err)
	phase, _ := st.State()
	assert.Equal(t, tournament.Cancelled, phase)
	assert.Zero(t, st.Wake(), "a cancelled tournament owes nothing")
	require.Len(t, released, 1)
	assert.Nil(t, released[0].Tournament)
	stored, err := s.Game(ctx, g.ChannelID)
	require.NoError(t, err)
	assert.Nil(t, stored.Tournament, "a casual game now")
	assert.Zero(t, stored.Cutoff(), "without the round's deadline")
	assert.Equal(t, cancelAt, stored.BoardEdit, "what the caller's function changed is stored with the release")
	assert.Equal(t, t0.Add(5*24*time.Hour), stored.Deadline(), "its own clock")
	_, _, err = s.CancelTournament(ctx, guild, st.ID, cancelAt, nil)
	assert.ErrorIs(t, err, tournament.ErrCancelled)
	_, _, err = s.CancelTournament(ctx, guild, 99, cancelAt, nil)
	assert.ErrorIs(t, err, storage.ErrNotFound)

	_, err = s.UpdateGame(ctx, g.ChannelID, func(g *storage.Game) error { return g.Timeout(g.Deadline()) })
	require.NoError(t, err)
	st, err = s.Tournament(ctx, guild, st.ID)
	require.NoError(t, err)
	tg, err := st.Game(ref)
	require.NoError(t, err)
	assert.Equal(t, tournament.Pending, tg.Result, "nothing recorded in the cancelled tournament")
	for _, p := range st.Players() {
		assert.False(t, p.Withdrawn, "nobody withdrawn from a cancelled tournament: %s", p.ID)
	}
}

// testTournamentAdjudicatedGameRated: a game the tournament adjudicated
// ends with the same verdict (game.Adjudicated) and is rated; the
// tournament keeps its adjudication and reason.
func testTournamentAdjudicatedGameRated(t *testing.T, open Open) {
	s := open(t, storage.Options{})
	ctx := t.Context()
	st := mustStart(t, s, mustTournament(t, s, 1))
	ref := st.Pending()[0]
	g := mustOpen(t, s, st, ref)
	mustPlay(t, s, g.ChannelID, "D4", "D7", "F7")
	end := t0.Add(4 * 24 * time.Hour)
	_, err := s.UpdateTournament(ctx, guild, st.ID, end, func(t *storage.Tournament) error {
		return t.Adjudicate(ref, tournament.SecondWon, "exact solver", end)
	})
	require.NoError(t, err)
	mustFinish(t, s, g.ChannelID, game.Adjudicated, engine.Red, end)

	st, err = s.Tournament(ctx, guild, st.ID)
	require.NoError(t, err)
	tg, err := st.Game(ref)
	require.NoError(t, err)
	assert.Equal(t, tournament.Game{First: tg.First, Second: tg.Second, Result: tournament.SecondWon, Adjudicated: true, Reason: "exact solver", Ended: end}, tg)
	f, err := s.FinishedGame(ctx, guild, g.ID)
	require.NoError(t, err)
	assert.Equal(t, game.Adjudicated, f.Result().Ending)
	assert.NotEqual(t, [2]storage.RatingChange{}, f.Ratings, "an adjudicated game is rated")
	for c, want := range map[engine.Color]storage.Tally{engine.Red: {Losses: 1}, engine.Black: {Wins: 1}} {
		p, err := s.Profile(ctx, guild, f.Player(c).UserID, storage.Human)
		require.NoError(t, err)
		assert.Equal(t, want, p.Tally, "%v", c)
	}
	h, err := s.History(ctx, guild, f.Player(engine.Black).UserID, 10, 0)
	require.NoError(t, err)
	require.Len(t, h, 1)
	assert.Equal(t, game.Adjudicated, h[0].Ending)
	assert.Equal(t, game.Won, h[0].Outcome)
}

// moveTimeLimit is the move clock of the clocked tournament games.
const moveTimeLimit = 24 * time.Hour

// clocked is squareConfig with a move clock.
func clocked(red, black game.Player) game.Config {
	cfg := squareConfig(red, black)
	cfg.MoveTime = moveTimeLimit
	return cfg
}

// testTournamentExportImport: tournaments, their wakes and their sequence
// survive an export and import.
func testTournamentExportImport(t *testing.T, open Open) {
	src := open(t, storage.Options{})
	st := mustStart(t, src, mustTournament(t, src, 1))
	mustOpen(t, src, st, st.Pending()[0])
	mustTournament(t, src, 2)
	dst := open(t, storage.Options{})
	n, err := dst.Import(t.Context(), src.Export)
	require.NoError(t, err)
	assert.Equal(t, 2, n["tournament"])
	got, err := storage.Compare(t.Context(), src, dst)
	require.NoError(t, err)
	assert.Equal(t, n, got)
	for _, at := range []time.Time{t0.Add(time.Hour), t0.Add(10 * 24 * time.Hour)} {
		want, err := src.Due(t.Context(), at)
		require.NoError(t, err)
		have, err := dst.Due(t.Context(), at)
		require.NoError(t, err)
		assert.Equal(t, utc(want), utc(have), fmt.Sprintf("due at %v", at))
	}
	next := mustTournament(t, dst, 1)
	assert.Equal(t, uint64(3), next.ID, "IDs go on after the copied ones")
}
