package bot

import (
	"context"
	"time"

	"github.com/kulami/kulami/storage"
)

// deadlineTournaments is the TournamentStore of the handlers and the
// scheduler, whose calls made for an interaction keep to its deadlines,
// as deadlineStore's do (see storeDeadlines).
type deadlineTournaments struct{ TournamentStore }

func (s deadlineTournaments) CreateTournament(ctx context.Context, t *storage.Tournament) error {
	return call0(ctx, func(ctx context.Context) error { return s.TournamentStore.CreateTournament(ctx, t) })
}

func (s deadlineTournaments) Tournament(ctx context.Context, guildID string, id uint64) (*storage.Tournament, error) {
	return call1(ctx, func(ctx context.Context) (*storage.Tournament, error) {
		return s.TournamentStore.Tournament(ctx, guildID, id)
	})
}

func (s deadlineTournaments) GuildTournaments(ctx context.Context, guildID string) ([]*storage.Tournament, error) {
	return call1(ctx, func(ctx context.Context) ([]*storage.Tournament, error) {
		return s.TournamentStore.GuildTournaments(ctx, guildID)
	})
}

func (s deadlineTournaments) UpdateTournament(ctx context.Context, guildID string, id uint64, now time.Time, fn func(*storage.Tournament) error) (*storage.Tournament, error) {
	return call1(ctx, func(ctx context.Context) (*storage.Tournament, error) {
		return s.TournamentStore.UpdateTournament(ctx, guildID, id, now, fn)
	})
}

func (s deadlineTournaments) CancelTournament(ctx context.Context, guildID string, id uint64, now time.Time, fn func(released []*storage.Game)) (*storage.Tournament, []*storage.Game, error) {
	return call2(ctx, func(ctx context.Context) (*storage.Tournament, []*storage.Game, error) {
		return s.TournamentStore.CancelTournament(ctx, guildID, id, now, fn)
	})
}

func (s deadlineTournaments) OpenTournamentGame(ctx context.Context, g *storage.Game, now time.Time) error {
	return call0(ctx, func(ctx context.Context) error { return s.TournamentStore.OpenTournamentGame(ctx, g, now) })
}
