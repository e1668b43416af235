package storagetest

import (
	"context"
	"flag"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/engine/game"
	"github.com/kulami/kulami/engine/rating"
	"github.com/kulami/kulami/storage"
)

// The size of the database that BenchmarkYear builds: small by default,
// so that `go test -bench .` stays quick; raise them to measure growth
// (go test ./storage -run '^$' -bench Year -args -kulami.finished=100000 …).
var (
	yearFinished = flag.Int("kulami.finished", 2000, "finished games of the database BenchmarkYear builds")
	yearRunning  = flag.Int("kulami.running", 200, "running games of the database BenchmarkYear builds")
	yearLadder   = flag.Int("kulami.ladder", 1000, "profiles on the ladder of the database BenchmarkYear builds")
	yearOutage   = flag.Duration("kulami.outage", time.Hour, "the outage before the restart that BenchmarkYear/Resume times")
)

// Year is the size of a database that BenchmarkYear builds: in one guild
// (yearGuild), Finished games between Players players, each in a thread
// of its own under one parent channel (as with threads on), Running games
// with a clock (one in busyEvery with yearBusy as black), and Ladder
// profiles on the Human ladder.
type Year struct {
	Finished, Running, Ladder, Players int
}

// YearFromFlags returns the size that the flags -kulami.finished,
// -kulami.running and -kulami.ladder ask for: as many players as make
// each play 500 games, at least 2.
func YearFromFlags() Year {
	return Year{Finished: *yearFinished, Running: *yearRunning, Ladder: *yearLadder, Players: max(2, *yearFinished/250)}
}

// The guilds of a year's database: one with every game, one with none.
const (
	yearGuild = "1100000000000000000"
	noGuild   = "1200000000000000000"
	parent    = "1300000000000000000" // the channel whose threads hold the finished games
)

// yearPlayer is player i of a year's database.
func yearPlayer(i int) game.Player {
	return game.Player{UserID: fmt.Sprint(400000000000000000 + i), Name: fmt.Sprintf("player %d", i)}
}

// busyEvery is how often the busy player (yearBusy) plays black in a
// year's running games: one in 92, 1,087 of 100,000, as many as the
// player of most running games had where issue 41 measured mine:true.
const busyEvery = 92

// yearBusy is the player of a year's database who plays black in every
// busyEvery-th running game, and no finished one.
var yearBusy = game.Player{UserID: "390000000000000000", Name: "busy player"}

// yearStart is when a year's games begin; yearNow is when the running
// games are read.
var (
	yearStart = time.Date(2025, 11, 27, 0, 0, 0, 0, time.UTC)
	yearNow   = yearStart.Add(365 * 24 * time.Hour)
	// yearSeason is the season whose ladder holds, as the all-time one
	// does, every profile of a year's database.
	yearSeason = rating.SeasonOf(yearNow)
)

// YearRecords yields the records of a database of size y, for Import:
// the store's own API fills it, with the indexes its writes keep. Game i
// is between players i and 7i+1 (mod Players), two moves and a
// resignation; a running game has a move time of three days.
func YearRecords(tb testing.TB, y Year) func(ctx context.Context, fn func(storage.Record) error) error {
	return func(_ context.Context, fn func(storage.Record) error) error {
		r := engine.NewRand(1)
		at := func(i, n int) time.Time {
			return yearStart.Add(time.Duration(i) * (yearNow.Sub(yearStart) / time.Duration(n+1)))
		}
		newGame := func(id, i int, channel string, begun time.Time, moveTime time.Duration) *storage.Game {
			red, black := yearPlayer(i%y.Players), yearPlayer((7*i+1)%y.Players)
			if red == black {
				black = yearPlayer((i + 1) % y.Players)
			}
			if moveTime > 0 && i%busyEvery == 0 {
				black = yearBusy
			}
			gg, err := game.New(game.Config{Layout: engine.Square(), Rules: engine.Full, First: engine.Red,
				Players: [2]game.Player{red, black}, MoveTime: moveTime}, begun)
			require.NoError(tb, err)
			for range 2 {
				p := gg.Position()
				require.NoError(tb, gg.Play(gg.ToMove(), gg.Ply(), p.Layout().Cell(r.Pick(p.Legal())), begun))
			}
			return &storage.Game{ID: uint64(id), GuildID: yearGuild, ChannelID: channel, ParentChannelID: parent, Game: gg}
		}
		for i := range y.Finished {
			end := at(i, y.Finished)
			g := newGame(i+1, i, fmt.Sprint(500000000000000000+i), end.Add(-time.Hour), 0)
			loser := engine.Color(r.Uint64() % 2)
			require.NoError(tb, g.Resign(loser, end))
			f := &storage.FinishedGame{Game: *g, RecordText: g.Record().String()}
			if err := fn(storage.FinishedRecords.Record(f)); err != nil {
				return err
			}
			players, res := g.Players(), g.Result()
			for c := range players {
				c := engine.Color(c)
				e := storage.HistoryEntry{GameID: g.ID, At: end, Ladder: storage.Human, Color: c, Opponent: players[c.Other()],
					Ending: res.Ending, Outcome: res.Outcome(c), Score: res.Score}
				if err := fn(storage.HistoryRecords.Record(&storage.HistoryRecord{GuildID: yearGuild, PlayerID: storage.ProfileID(players[c]), Entry: e})); err != nil {
					return err
				}
			}
		}
		for i := range y.Running {
			g := newGame(y.Finished+i+1, i, fmt.Sprint(600000000000000000+i), yearNow.Add(-time.Duration(i%(36*60))*time.Minute), 72*time.Hour)
			if err := fn(storage.GameRecords.Record(g)); err != nil {
				return err
			}
		}
		for i := range max(y.Ladder, y.Players) {
			p := yearPlayer(i)
			pr := &storage.Profile{GuildID: yearGuild, UserID: p.UserID, Ladder: storage.Human, Standing: rating.Standing{
				Name: p.Name, Rating: rating.Rating{Rating: 1000 + float64(r.Uint64()%1000), RD: 60, Volatility: 0.06},
				Tally: rating.Tally{Wins: int(r.Uint64() % 100), Losses: int(r.Uint64() % 100)}, LastPlayed: yearStart,
			}}
			if err := fn(storage.ProfileRecords.Record(pr)); err != nil {
				return err
			}
			season := *pr // the same ladder in the season of yearNow
			season.Season = yearSeason
			if err := fn(storage.SeasonProfileRecords.Record(&season)); err != nil {
				return err
			}
		}
		return fn(storage.SequenceRecords.Record(&storage.SequenceRecord{Name: storage.GameIDs, Value: uint64(y.Finished + y.Running)}))
	}
}

// FillYear fills the store s with a database of size y (YearRecords),
// and logs how long it took, unless s holds one already (kept from an
// earlier run with the same flags): then it says so and leaves it.
func FillYear(b *testing.B, s Store, y Year) {
	if _, n, err := s.Leaderboard(b.Context(), yearGuild, storage.Human, 0, 1); err == nil && n > 0 {
		b.Logf("reusing the database of an earlier run (%d on its ladder), built with the same flags", n)
		return
	}
	start := time.Now()
	_, err := s.Import(b.Context(), YearRecords(b, y))
	require.NoError(b, err)
	b.Logf("filled %+v in %v", y, time.Since(start).Round(time.Millisecond))
}

// Longest keeps the longest write transaction that a store reported to
// its Options.Updated (set it to Updated) since it was last taken.
type Longest struct {
	mu  sync.Mutex
	max time.Duration
}

// Updated is an Options.Updated.
func (l *Longest) Updated(took time.Duration, _ error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.max = max(l.max, took)
}

// Take returns the longest write transaction since the last Take.
func (l *Longest) Take() time.Duration {
	l.mu.Lock()
	defer l.mu.Unlock()
	m := l.max
	l.max = 0
	return m
}

// BenchmarkYear times, on s filled by FillYear with y, every read a
// player makes whose cost could grow with the database, and a restart
// after an outage (Resume), for which it also reports the longest
// write transaction (tx-max-ms, from longest, which s's Options.Updated
// feeds). Each is a sub-benchmark; ns/op is one call, and each read
// reports its 99th percentile call (p99-ms, the slowest of fewer than 100
// calls).
func BenchmarkYear(b *testing.B, s Store, y Year, longest *Longest) {
	last := (max(y.Ladder, y.Players) - 1) / 10 * 10
	read := func(name string, fn func() error) {
		b.Run(name, func(b *testing.B) {
			var took []time.Duration
			for b.Loop() {
				start := time.Now()
				if err := fn(); err != nil {
					b.Fatal(err)
				}
				took = append(took, time.Since(start))
			}
			slices.Sort(took)
			b.ReportMetric(float64(took[(len(took)*99+99)/100-1])/1e6, "p99-ms")
		})
	}
	read("ReviewLast/parent", func() error { // no game ended in the parent: the old scan read every game
		_, err := s.LastFinishedGame(b.Context(), yearGuild, parent)
		if err == nil {
			return fmt.Errorf("a game in the parent channel")
		}
		return nil
	})
	read("ReviewLast/oldest", func() error {
		_, err := s.LastFinishedGame(b.Context(), yearGuild, fmt.Sprint(500000000000000000))
		return err
	})
	read("Games/guild", func() error {
		_, _, err := s.GuildGames(b.Context(), yearGuild, 25)
		return err
	})
	read("Games/none", func() error {
		_, _, err := s.GuildGames(b.Context(), noGuild, 25)
		return err
	})
	read("Games/mine", func() error { // /kulami games mine:true of a player of many running games
		games, _, err := s.NewestPlayerGames(b.Context(), yearPlayer(0).UserID, 25)
		if err == nil && len(games) == 0 && y.Running > 0 {
			err = fmt.Errorf("player 0 plays no game")
		}
		return err
	})
	read("Games/mine-busy", func() error { // of the player of most running games (yearBusy)
		games, n, err := s.NewestPlayerGames(b.Context(), yearBusy.UserID, 25)
		if want := (y.Running + busyEvery - 1) / busyEvery; err == nil && (n != want || len(games) != min(25, want)) {
			err = fmt.Errorf("the busy player plays %d games, %d read; want %d", n, len(games), want)
		}
		return err
	})
	read("Games/mine-none", func() error { // of a player on the ladder who plays none
		_, _, err := s.NewestPlayerGames(b.Context(), yearPlayer(y.Players).UserID, 25)
		return err
	})
	read("HeadToHead", func() error {
		_, err := s.HeadToHead(b.Context(), yearGuild, yearPlayer(0).UserID, yearPlayer(1).UserID)
		return err
	})
	read("History", func() error {
		_, err := s.History(b.Context(), yearGuild, yearPlayer(0).UserID, 10, 0)
		return err
	})
	read("Leaderboard/first", func() error {
		_, _, err := s.Leaderboard(b.Context(), yearGuild, storage.Human, 0, 10)
		return err
	})
	read("Leaderboard/middle", func() error {
		_, _, err := s.Leaderboard(b.Context(), yearGuild, storage.Human, last/2/10*10, 10)
		return err
	})
	read("Leaderboard/last", func() error {
		_, _, err := s.Leaderboard(b.Context(), yearGuild, storage.Human, last, 10)
		return err
	})
	// The pages a leaderboard's buttons turn to: after the mark of the
	// last profile of the page before the last, and before the mark of
	// the first of the last page.
	for _, season := range []storage.Season{0, yearSeason} {
		board := "Leaderboard"
		if season != 0 {
			board = "SeasonLeaderboard"
			read(board+"/first", func() error {
				_, _, err := s.SeasonLeaderboard(b.Context(), yearGuild, season, storage.Human, 0, 10)
				return err
			})
		}
		var edge []storage.Profile
		var err error
		if season == 0 {
			edge, _, err = s.Leaderboard(b.Context(), yearGuild, storage.Human, last-1, 2)
		} else {
			edge, _, err = s.SeasonLeaderboard(b.Context(), yearGuild, season, storage.Human, last-1, 2)
		}
		require.NoError(b, err)
		require.Len(b, edge, 2)
		for _, step := range []struct {
			name   string
			mark   *storage.Profile
			before bool
		}{{"next-last", &edge[0], false}, {"prev-last", &edge[1], true}} {
			read(board+"/"+step.name, func() error {
				page, _, err := s.LeaderboardFrom(b.Context(), yearGuild, season, storage.Human, storage.MarkOf(step.mark), step.before, 10)
				if err == nil && len(page) == 0 {
					err = fmt.Errorf("an empty page")
				}
				return err
			})
		}
	}
	// A restart after an outage (-kulami.outage, an hour by default): the
	// scheduler's first pass, as far as the store goes (BeginResume, what
	// is due, and the resume under way, whose games not yet reached the
	// pass hands to the bot's giver instead of acting on them), while
	// Resume runs beside it; and in the background, as the giver does,
	// the games due given their time in batches (GiveBack), the earliest
	// due first. The running games, begun over the 36 hours before
	// yearNow, have their first reminders due over the 36 hours after, so
	// an outage of an hour holds those of one game in 36, one of 10 hours
	// ten in 36. It needs a database no outage was given to (a new one, or
	// a fresh copy of a kept file): -benchtime 1x, one run a process. An
	// iteration after the first finds the reminders of the one before
	// unsent (none are sent here), due and owed its outage, as after a
	// crash in the middle of them.
	b.Run("Resume", func(b *testing.B) {
		g, err := s.Game(b.Context(), fmt.Sprint(600000000000000000))
		require.NoError(b, err)
		if g.GivenBack != nil {
			b.Skip("an outage was given to this database before: time Resume on a new one, or a fresh copy of the kept file")
		}
		now := yearNow
		var tx, first, dueGiven, all time.Duration
		for b.Loop() {
			b.StopTimer()
			require.NoError(b, s.SetAlive(b.Context(), now))
			now = now.Add(*yearOutage)
			longest.Take()
			b.StartTimer()
			start := time.Now()
			_, under, err := s.BeginResume(b.Context(), now, time.Minute, 10)
			require.NoError(b, err)
			require.True(b, under)
			resumed := make(chan int, 1)
			go func() {
				n, err := s.Resume(b.Context(), extend)
				assert.NoError(b, err)
				resumed <- n
			}()
			due, err := s.Due(b.Context(), now)
			require.NoError(b, err)
			r, err := s.Resuming(b.Context())
			require.NoError(b, err)
			var games []string
			for _, w := range due {
				if w.Kind == storage.WakeGame && (r == nil || w.ChannelID > r.After) {
					games = append(games, w.ChannelID)
				}
			}
			first = max(first, time.Since(start))
			given, err := s.GiveBack(b.Context(), games, extend)
			require.NoError(b, err)
			dueGiven = max(dueGiven, time.Since(start))
			n := <-resumed
			all = max(all, time.Since(start))
			b.StopTimer()
			require.Equal(b, y.Running, n+len(given), "every game given its time once")
			tx = max(tx, longest.Take())
			b.Logf("%d games due at the restart after %v down, %d given their time before the resume reached them", len(games), *yearOutage, len(given))
			now = now.Add(3 * time.Hour)
			b.StartTimer()
		}
		b.ReportMetric(float64(tx)/1e6, "tx-max-ms")
		b.ReportMetric(float64(first)/1e6, "first-pass-ms")
		b.ReportMetric(float64(dueGiven)/1e6, "due-given-ms")
		b.ReportMetric(float64(tx)/1e6, "tx-max-ms")
		b.ReportMetric(float64(first)/1e6, "first-pass-ms")
		b.ReportMetric(float64(all)/1e6, "resume-ms")
	})
}
